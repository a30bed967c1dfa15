"""Records of games: the event store, record files, reading them back and saved games."""
