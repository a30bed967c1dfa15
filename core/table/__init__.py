"""The table service: one game behind a referee, seen by each viewer through its own handle.

- :mod:`~cinco.core.table.table`: the host's side, :class:`~cinco.core.table.table.Table`;
- :mod:`~cinco.core.table.handle`: the viewer's side,
  :class:`~cinco.core.table.handle.SeatHandle`;
- :mod:`~cinco.core.table.protocol`: the seat protocol's messages between them;
- :mod:`~cinco.core.table.channel`: the queue into the table's thread, and each viewer's stream;
- :mod:`~cinco.core.table.requests`: what the host may ask of the table's thread;
- :mod:`~cinco.core.table.referee`: the table's thread's side, which alone sees the whole game;
- :mod:`~cinco.core.table.seat_bots`: bots playing or hinting in a person's place;
- :mod:`~cinco.core.table.undo`: the undo policy;
- :mod:`~cinco.core.table.log`: questions asked of a table's log (turns, stand-ins);
- :mod:`~cinco.core.table.sink`: where a table without a record file stores its events.
"""
