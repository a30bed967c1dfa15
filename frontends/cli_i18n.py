"""The ``cinco`` command in the user's language: ``--lang`` and ``CINCO_LANG`` for every command.

click reads a command's help when it is declared, at import, before any option is parsed. So
help texts are declared as English msgids (marked with ``N_``) and :class:`LocalizedGroup`
translates the whole command tree when the top-level command starts: it reads ``--lang`` from
the arguments (and ``CINCO_LANG``, then the system locale) *before* click parses them, so
``cinco --lang uk --help`` and ``cinco --lang uk rules --help`` are both in Ukrainian. click's
own words ("Usage:", "Options", "Error: ...") go through the same catalog.

>>> scan_lang_option(["--players", "2", "--lang", "uk", "rules"], {"rules"})
'uk'
>>> scan_lang_option(["--lang=cs"], set())
'cs'
>>> scan_lang_option(["rules", "--lang", "uk"], {"rules"}) is None
True
"""

from __future__ import annotations

import inspect
from collections.abc import Container, Sequence
from typing import Any

import click
import click.core
import click.decorators
import click.exceptions
import click.formatting
import click.parser
import click.types

from cinco.core.words import i18n
from cinco.core.words.i18n import N_, _, ngettext

#: The option's name (a group option: it goes before the subcommand).
LANG_OPTION = "--lang"

#: click's help for ``--help`` (its English msgid).
HELP_OPTION_HELP = N_("Show this message and exit.")

# click's own texts that a user of `cinco` reads, so that the extractor puts them in Cinco's
# catalog (click looks them up through gettext; see localize_click).
CLICK_TEXTS = (
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    HELP_OPTION_HELP,
    N_("Show the version and exit."),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("default: {default}"),
    N_("required"),
    N_("Aborted!"),
    N_("%(prog)s, version %(version)s"),
    N_("{value!r} is not a valid integer."),
    N_("{value!r} is not a valid float."),
    N_("{value} is not in the range {range}."),
)


#: The placeholders the help shows for what a user types (metavars), and the usage line's:
#: in the user's language too (``cinco [ОПЦІЇ]`` ...). click makes a type's placeholder from its
#: name (``INTEGER RANGE``); the commands name theirs (``SEAT=NAME[:LEVEL]``). A placeholder
#: not listed here is shown as it is; a choice (``[cli|kivy]``) lists what is typed, unchanged.
METAVARS = (
    N_("[OPTIONS]"),
    N_("[COMMAND] [ARGS]..."),
    N_("COMMAND [ARGS]..."),
    N_("INTEGER"),
    N_("INTEGER RANGE"),
    N_("FLOAT"),
    N_("FLOAT RANGE"),
    N_("TEXT"),
    N_("BOOLEAN"),
    N_("FILE"),
    N_("FILENAME"),
    N_("DIRECTORY"),
    N_("PATH"),
    N_("SECONDS"),
    N_("N"),
    N_("NAME"),
    N_("CODE"),
    N_("ID"),
    N_("URL"),
    N_("TOKEN"),
    N_("RECORD"),
    N_("NAME=VALUE"),
    N_("SEAT=NAME"),
    N_("SEAT=NAME[:LEVEL]"),
    N_("NAME[:LEVEL]"),
    N_("NAME[,NAME...]"),
    N_("A,B[,...]"),
    N_("RESERVE[+INCREMENT]"),
    N_("tcp://HOST:PORT"),
)

#: click's name of a type → its placeholder, for the types that name none themselves.
_TYPE_METAVARS = {
    "integer": "INTEGER",
    "integer range": "INTEGER RANGE",
    "float": "FLOAT",
    "float range": "FLOAT RANGE",
    "text": "TEXT",
    "boolean": "BOOLEAN",
    "file": "FILE",
    "filename": "FILENAME",
    "directory": "DIRECTORY",
    "path": "PATH",
    "seconds": "SECONDS",
}


def _click_plurals(n: int) -> tuple[str, ...]:
    """click's counted texts, for the extractor (never called for its value)."""
    return (
        ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", n),
        ngettext(
            "Option {name!r} requires an argument.",
            "Option {name!r} requires {nargs} arguments.",
            n,
        ),
        ngettext(
            "Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", n
        ),
        ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", n),
    )


def localize_click() -> None:
    """Make click look its own texts up in Cinco's catalog (click calls ``gettext`` of the
    default domain through module-level ``_``/``ngettext`` names, read at each call)."""
    for module in (
        click.core,
        click.decorators,
        click.exceptions,
        click.formatting,
        click.parser,
        click.types,
    ):
        if hasattr(module, "_"):
            module._ = _  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]


def scan_lang_option(args: Sequence[str], commands: Container[str]) -> str | None:
    """The value of ``--lang`` among the top-level command's own *args* (those before the
    subcommand's name), or ``None``."""
    items = list(args)
    for index, arg in enumerate(items):
        if arg == "--" or arg in commands:
            return None
        if arg == LANG_OPTION:
            return items[index + 1] if index + 1 < len(items) else None
        if arg.startswith(LANG_OPTION + "="):
            return arg.partition("=")[2]
    return None


_MSGID = "_cinco_msgids"


def _translate_attributes(thing: Any, names: tuple[str, ...]) -> None:
    """Set *thing*'s help texts to the current language, keeping the English msgids."""
    saved: dict[str, Any] = thing.__dict__.setdefault(_MSGID, {})
    for name in names:
        if name not in saved:
            saved[name] = getattr(thing, name, None)
        msgid = saved[name]
        if isinstance(msgid, str) and msgid:
            setattr(thing, name, _(inspect.cleandoc(msgid)))


def english_metavar(param: click.Parameter) -> str | None:
    """The placeholder click would show for *param* in English: its own, else its type's
    (``None``: the type shows its own, such as a choice's ``[cli|kivy]``).

    >>> english_metavar(click.Option(["--games"], type=click.IntRange(1)))
    'INTEGER RANGE'
    >>> english_metavar(click.Argument(["record"])), english_metavar(click.Option(["--x"]))
    ('RECORD', 'TEXT')
    """
    saved = param.__dict__.get(_MSGID, {})
    if "metavar" in saved:  # already shown in some language: the English kept then
        return saved["metavar"]  # type: ignore[no-any-return]
    if param.metavar is not None:
        return param.metavar
    if param.type.get_metavar(param=param, ctx=click.Context(click.Command(None))) is not None:
        return None
    if isinstance(param, click.Argument):
        return (param.name or "").upper() or None
    return _TYPE_METAVARS.get(param.type.name, param.type.name.upper())


def _translate_metavar(param: click.Parameter) -> None:
    """Set *param*'s placeholder to the current language's (keeping the English)."""
    saved: dict[str, Any] = param.__dict__.setdefault(_MSGID, {})
    if "metavar" not in saved:
        saved["metavar"] = english_metavar(param)
    msgid = saved["metavar"]
    if isinstance(msgid, str) and msgid:
        param.metavar = _(msgid)


def _translate_usage(command: click.Command) -> None:
    """``[OPTIONS]`` and a group's ``[COMMAND] [ARGS]...`` in the current language."""
    names = ["options_metavar"]
    if isinstance(command, click.Group):
        names.append("subcommand_metavar")
    saved: dict[str, Any] = command.__dict__.setdefault(_MSGID, {})
    for name in names:
        if name not in saved:
            saved[name] = getattr(command, name, None)
        if isinstance(saved[name], str) and saved[name]:
            setattr(command, name, _(saved[name]))


def localize_command(command: click.Command) -> None:
    """Translate the help of *command*, its options' help and placeholders, its usage line
    and (for a group) every subcommand."""
    _translate_attributes(command, ("help", "short_help", "epilog"))
    _translate_usage(command)
    params = list(command.params)
    help_option = getattr(command, "_help_option", None)
    if help_option is not None:
        # click wrote this option's help in the language current when it made the option;
        # keep click's English msgid instead, or that first language would stay for good.
        help_option.__dict__.setdefault(_MSGID, {})["help"] = HELP_OPTION_HELP
        params.append(help_option)
    for param in params:
        if isinstance(param, click.Option):
            _translate_attributes(param, ("help",))
        if not (isinstance(param, click.Option) and param.is_flag):
            _translate_metavar(param)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            localize_command(sub)


class LocalizedGroup(click.Group):
    """The top-level ``cinco`` group: chooses the language before parsing (see the module
    docstring), and restores the previous one afterwards (so that tests invoking it in one
    process do not leak a language)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        previous = i18n.current_language()
        try:
            return super().main(*args, **kwargs)
        finally:
            i18n.set_language(previous)

    def command_names(self) -> Container[str]:
        """The subcommands' names (loaded or not), where the group's own options end."""
        return self.commands

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        option = scan_lang_option(args, self.command_names())
        try:
            i18n.init_language(option)
        except i18n.UnknownLanguage as exc:
            hint = LANG_OPTION if option else i18n.ENV_VAR
            raise click.BadParameter(str(exc), param_hint=repr(hint)) from None
        localize_click()
        localize_command(self)
        return super().make_context(info_name, args, parent, **extra)


#: ``--lang CODE`` on the top-level command (read by :class:`LocalizedGroup` before parsing;
#: declared so that it shows in the help and click accepts it).
lang_option = click.option(
    LANG_OPTION,
    metavar="CODE",
    expose_value=False,
    is_eager=True,
    help=N_(
        "Language of every text: en, uk, cs, ru or it (default: CINCO_LANG, else the "
        "system locale)."
    ),
)
