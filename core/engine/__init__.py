"""The rules of the game: board, cards, commands, events, state and the rule set. Pure: no I/O, no
plugins loaded here."""
