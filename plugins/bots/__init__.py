"""The built-in bots: ``random`` and ``greedy``."""
