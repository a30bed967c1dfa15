"""One game with its plugins: commands in, events out."""
