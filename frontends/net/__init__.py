"""Networked play: ``cinco serve`` (a Starlette app holding many tables), its SQLite store (or
PostgreSQL, shared by several server processes: ``store_pg``, ``cluster``), and the clients
(``cinco table``, ``cinco join``, ``cinco watch``). See ``docs/server.md``.

The server, from the outside in: ``server`` (runs the app under uvicorn), ``app`` (the
routes; ``settings`` is the one value they share), ``cluster`` (several processes on
PostgreSQL), ``service`` (every table: the lobby, the games), ``connection`` (one WebSocket),
``hosted`` (one table), ``bot_turns``, ``timers`` with ``clock``, ``stand_ins`` (bots, turn
timers, zombie mode), ``lobby`` (the lobby's checks and errors), ``storage``, ``store``,
``store_pg``, ``writer`` (the stores), ``collector``. The clients: ``client`` (the lobby and
a seat's session), ``play`` (their common steps, a bot, a spectator), ``terminal_seat`` (a
person in this terminal), ``seats`` (the seat tokens kept on this machine), ``commands``.

The server and the clients need the ``server`` extra (``pip install 'cinco[server]'``):
Starlette and uvicorn for the server, ``websockets`` for the clients. Nothing here is imported
by a local game.
"""
