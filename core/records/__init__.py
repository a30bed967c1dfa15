"""Records of games: record files, writing them as a game goes, reading them back, saved
games."""
