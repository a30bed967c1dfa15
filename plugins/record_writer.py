"""The game-record writer, as a plugin for games made with :class:`~cinco.core.game.game.Game`.

It lives in :mod:`cinco.core.records.recording` (a table records its game itself, and core imports
no
plugin); this module keeps the name plugins and scripts already use::

    game = Game.new(config, plugins=[RecordWriter("game.jsonl")])
"""

from cinco.core.records.recording import RecordWriter

__all__ = ["RecordWriter"]
