"""The table service: one game behind a referee, seen by each viewer through its own handle."""
