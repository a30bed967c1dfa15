"""The web client that ``cinco serve`` serves at ``/``: plain HTML, CSS and JavaScript modules
(``static/``, no build step), the routes that serve them with a strict Content-Security-Policy
and caching headers, the board geometry and the page's texts per language (``routes``), and the
moves, notices and refusals in words for a browser's connection, from the one narrator
(``narrated``). See ``docs/server.md`` ("Play in a browser").
"""
