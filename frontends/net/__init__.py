"""Networked play: ``cinco serve`` (a Starlette app holding many tables), its SQLite store (or
PostgreSQL, shared by several server processes: ``store_pg``, ``cluster``), and the clients
(``cinco table``, ``cinco join``, ``cinco watch``). See ``docs/server.md``.

The server and the clients need the ``server`` extra (``pip install 'cinco[server]'``):
Starlette and uvicorn for the server, ``websockets`` for the clients. Nothing here is imported
by a local game.
"""
