"""The terminal game: ``cinco --frontend cli`` (the default).

It holds no rules and no game: it sits people at a :class:`cinco.core.table.table.Table`, reads
legal
moves from their seat handles, sends commands through them, and draws the projection of the
player whose turn it is, learned from that handle's event stream.

The game starts at :func:`cinco.frontends.terminal.app.play`. This package imports none of its
modules, so that importing one of them (``cinco rules`` the rules page, ``cinco replay`` the
replayer) does not load the whole game.
"""
