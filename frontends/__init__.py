"""Frontends: the ``cinco`` command line and the terminal game (the Kivy app is optional).

Frontends hold no rules: they render projections of a game's event stream and send commands.
"""
