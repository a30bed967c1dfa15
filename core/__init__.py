"""The Cinco engine: board, rules, events, state, hooks, records. See ``docs/architecture.md``."""
