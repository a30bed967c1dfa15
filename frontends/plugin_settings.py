"""Plugin settings as every command sees them: each setting's default, overridden by the
settings file (``settings.toml`` in Cinco's config folder, one section per plugin), overridden
by ``--setting NAME=VALUE`` on the command line. The chosen values are recorded with each game
(``config.options["settings"]``), so a replay knows them.

The file, for a plugin whose settings are ``tally.every`` and ``tally.style``::

    [tally]
    every = 5
    style = "long"

A file Cinco cannot read, or a value of the wrong type, stops the command with a message
saying which file, which line or setting, and what to do; a setting no installed plugin
declares (its plugin was uninstalled) is left out with a warning.

>>> flatten({"tally": {"every": 5}, "x": 1})
{'tally.every': 5, 'x': 1}
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from platformdirs import user_config_dir

from cinco.core.engine.errors import ConfigError
from cinco.core.host.declarations import Setting
from cinco.core.host.registry import Registry
from cinco.core.words.i18n import _
from cinco.frontends.cli_options import clean_text

#: The settings file's name, in :func:`settings_dir`.
SETTINGS_FILE = "settings.toml"

#: Where a value came from (``Chosen.source``).
DEFAULT, FILE, COMMAND_LINE = "default", "file", "command_line"


def settings_dir() -> Path:
    """Cinco's config folder: ``~/.config/cinco`` on Linux (``$XDG_CONFIG_HOME/cinco``),
    ``~/Library/Application Support/cinco`` on macOS, ``%LOCALAPPDATA%\\cinco`` on Windows."""
    return Path(user_config_dir("cinco", appauthor=False))


def settings_path() -> Path:
    """The settings file every command reads."""
    return settings_dir() / SETTINGS_FILE


@dataclass(frozen=True)
class Chosen:
    """A setting's value for the games of this command, and where it came from: ``"default"``,
    ``"file"`` (*path* says which) or ``"command_line"``."""

    name: str
    value: Any
    source: str
    path: Path | None = None

    def where(self) -> str:
        """The source in words, for ``cinco plugins``."""
        if self.source == FILE:
            return _("from {path}").format(path=self.path)
        if self.source == COMMAND_LINE:
            return _("from the command line")
        return _("default")

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "source": self.source,
            "file": None if self.path is None else str(self.path),
        }


def flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A TOML document's values by dotted name: ``[tally] every = 5`` is ``tally.every``."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


def _bad_file(path: Path, what: str) -> ConfigError:
    return ConfigError(
        _(
            "The settings file {path} cannot be used: {what}. Fix it (cinco plugins lists "
            "each plugin's settings and their types), or move it away to use the defaults."
        ).format(path=path, what=what)
    )


def _load(path: Path) -> dict[str, Any]:
    """The TOML document at *path* (empty when there is no file), or :class:`ConfigError`."""
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise _bad_file(path, _("it is a folder, not a file")) from None
    except OSError as exc:
        raise _bad_file(path, exc.strerror or str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise _bad_file(path, _("it is not valid TOML ({error})").format(error=exc)) from None
    except UnicodeDecodeError:
        raise _bad_file(path, _("it is not UTF-8 text")) from None


def _typed(setting: Setting, value: Any, shown: str, path: Path) -> Any:
    """The file's *value* for *setting* (shown as *shown*), checked."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        # TOML's 5 for a setting of numbers (5.0), or 5.0 for whole numbers: as if typed.
        if not isinstance(setting.default, bool) and type(value) is not type(setting.default):
            value = str(value)
    elif not isinstance(value, str | bool):
        raise _bad_file(
            path,
            _("{name} is {value!r}; a setting is text, a number or true/false").format(
                name=shown, value=value
            ),
        )
    try:
        return setting.parse(value)
    except ConfigError as exc:
        raise _bad_file(path, f"{shown}: {exc}") from None


def read_file(
    registry: Registry, path: Path | None = None, warn: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """The settings in the settings file (*path*, by default :func:`settings_path`), checked
    against *registry*'s: name → value. A missing file holds none. Raises
    :class:`ConfigError` saying what is wrong and where; a setting no installed plugin
    declares is left out, and *warn* is told."""
    path = settings_path() if path is None else path
    known = registry.settings()
    values: dict[str, Any] = {}
    for name, value in flatten(_load(path)).items():
        setting = known.get(name)
        section, _dot, key = name.rpartition(".")
        shown = f"[{section}] {key}" if section else key
        if setting is not None:
            values[name] = _typed(setting, value, shown, path)
        elif warn is not None:
            warn(
                _(
                    "{path}: {name}: no installed plugin has this setting; it is left out "
                    "(cinco plugins lists the settings)."
                ).format(path=path, name=shown)
            )
    return values


def resolve(
    registry: Registry,
    command_line: Mapping[str, str],
    *,
    path: Path | None = None,
    warn: Callable[[str], None] | None = None,
    bad_file: Callable[[str], None] | None = None,
) -> dict[str, Chosen]:
    """Every installed setting's value, with its source: its default, else the file's, else
    the command line's. Raises :class:`ConfigError` for a bad file or option; with
    *bad_file*, a bad file is told to it instead, and left out (``cinco plugins`` still
    lists everything)."""
    path = settings_path() if path is None else path
    try:
        from_file = read_file(registry, path, warn)
    except ConfigError as exc:
        if bad_file is None:
            raise
        bad_file(str(exc))
        from_file = {}
    try:
        typed = registry.check_settings(command_line)
    except ConfigError as exc:
        raise ConfigError(_("--setting: {error}").format(error=exc)) from None
    chosen: dict[str, Chosen] = {}
    for name, setting in registry.settings().items():
        if name in typed:
            chosen[name] = Chosen(name, typed[name], COMMAND_LINE)
        elif name in from_file:
            chosen[name] = Chosen(name, from_file[name], FILE, path)
        else:
            chosen[name] = Chosen(name, setting.default, DEFAULT)
    return chosen


def chosen_settings(
    registry: Registry,
    command_line: Mapping[str, str],
    *,
    path: Path | None = None,
) -> dict[str, Any]:
    """The settings chosen for this command's games (the file's, then the command line's),
    name → value, for :meth:`~cinco.core.host.registry.Registry.configure`: defaults are
    not listed (a game reads them from the plugin)."""
    return {
        name: chosen.value
        for name, chosen in resolve(registry, command_line, path=path, warn=warn).items()
        if chosen.source != DEFAULT
    }


def warn(text: str) -> None:
    """Tell the user *text* (a left-out setting) on standard error."""
    click.echo(clean_text(_("warning: {text}").format(text=text)), err=True)
