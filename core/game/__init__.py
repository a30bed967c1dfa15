"""One game with its plugins: commands in, events out, kept in its event store."""
