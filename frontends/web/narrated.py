"""Words for a browser's connection: the server narrates what a web page's viewer is sent.

A web page does not re-implement the narrator in JavaScript: it connects with ``?lang=uk`` and
the server adds words, rendered by the one narrator (:class:`cinco.frontends.narration.Narrator`
and :func:`cinco.core.words.messages.render`) for that viewer in that language, to its frames:
an event's envelope gets ``"lines"`` (the move log's new lines, often none), a refusal gets
``"text"``, a hint its sentence. Other clients never ask, and their frames are unchanged.

>>> from cinco.core.table.protocol import Refused
>>> Words("en", viewer=0).frame(Refused("space_taken", (("space", 34),)))["text"]
'Space 34 is already taken.'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from cinco.core.engine.actions import ActionSpec
from cinco.core.engine.errors import CincoError
from cinco.core.engine.events import GameStarted, Viewer
from cinco.core.host.declarations import level_label
from cinco.core.host.registry import Registry
from cinco.core.table.protocol import Envelope, Hinted, Message, Refused
from cinco.core.words.i18n import LANGUAGES, UnknownLanguage, _, language_code, speaking
from cinco.core.words.messages import render, thaw
from cinco.frontends.narration import Narrator


def web_language(code: str) -> str:
    """*code* (``uk``, ``uk-UA``) as one of Cinco's languages; :class:`UnknownLanguage`
    (its message lists them) for any other."""
    wanted = language_code(code)
    if wanted not in LANGUAGES:
        raise UnknownLanguage(code)
    return wanted


def table_choices(registry: Registry, lang: str) -> dict[str, Any]:
    """What a table may be (``/api/games``), in words of language *lang*: the player counts
    with their layouts (and descriptions), the variants (``variants``: their names, as a
    request names them; ``variant_words``: each one's title and description), the bots
    (their titles and levels in words) and the teams' colours. Plugins' words come from
    their own catalogs (:mod:`cinco.core.words.domains`).

    >>> choices = table_choices(Registry(entry_points=False), "cs")
    >>> choices["variants"], choices["variant_words"][0]["title"], choices["teams"][0]["name"]
    (['joker'], 'Žolík', 'modrý')
    """
    with speaking(web_language(lang)):
        players = {
            str(count): [
                {
                    "name": layout.name,
                    "teams": layout.teams,
                    "description": _(layout.description) if layout.description else "",
                }
                for layout in registry.layouts_for(count)
            ]
            for count in registry.player_counts()
        }
        variants = registry.variants()
        words = [
            {"name": name, "title": variant.label, "description": _(variant.description)}
            for name, variant in sorted(variants.items())
        ]
        bots = [
            {
                "name": name,
                "title": spec.label,
                "levels": [{"name": level, "title": level_label(level)} for level in spec.levels],
            }
            for name, spec in sorted(registry.bots().items())
        ]
        teams = [
            {"name": _(style.name), "colour": style.colour} for style in registry.team_styles()
        ]
    return {
        "players": players,
        "variants": sorted(variants),
        "variant_words": words,
        "bots": bots,
        "teams": teams,
    }


#: At most this many declared actions are described for one table (a bound on the answer).
MAX_ACTIONS = 16


def declared_actions(
    registry: Registry, variants: Iterable[str], players: int = 2, layout: str | None = None
) -> tuple[ActionSpec, ...]:
    """The actions a game of *variants* declares (hook API 3), from the registry's shared rules
    of that combination; none if the variants are not installed or do not go together."""
    chosen = [str(name) for name in variants]
    if not chosen:
        return ()
    try:
        config = registry.configure(players, layout=layout, variants=chosen)
        return registry.rules_for(config, shared=True).declared[:MAX_ACTIONS]
    except CincoError:
        return ()


def action_words(specs: Iterable[ActionSpec], lang: str) -> list[dict[str, Any]]:
    """The declared actions *specs* in words of language *lang*, for the page's buttons
    (``/api/tables/ID/actions``): each one's ``name`` (its command's kind), ``fields``,
    ``title``, ``description`` and ``narration`` (its template, ``{name}`` and the fields
    left in), from the plugin's own catalog (:mod:`cinco.core.words.domains`).

    >>> from cinco.core.engine.actions import ActionSpec
    >>> hop = ActionSpec("hop", ("space",), lambda s, n: (), lambda *a: (), title="Draw")
    >>> action_words([hop], "cs")[0]["title"]
    'Líznout'
    """
    with speaking(web_language(lang)):
        return [
            {
                "name": spec.name,
                "fields": list(spec.fields),
                "title": spec.label,
                "description": _(spec.description) if spec.description else "",
                "narration": _(spec.narration) if spec.narration else "",
            }
            for spec in specs
        ]


class Words:
    """One connection's narrator, in its language: :meth:`frame` is a message's JSON form
    with its words added."""

    def __init__(
        self,
        lang: str,
        viewer: Viewer,
        history: Callable[[], Iterable[Envelope]] = tuple,
    ) -> None:
        self.lang = web_language(lang)
        self.viewer = viewer
        #: The viewer's stream so far: a subscription that resumes mid-game is narrated on
        #: from where it resumes.
        self.history = history
        self.narrator: Narrator | None = None

    def frame(self, message: Message) -> dict[str, Any]:
        data: dict[str, Any] = message.to_dict()
        with speaking(self.lang):
            if isinstance(message, Envelope):
                lines = self._hear(message)
                if lines:
                    data["lines"] = lines
            elif isinstance(message, Refused):
                data["text"] = render(message.code, thaw(message.params))
            elif isinstance(message, Hinted) and message.reason:
                data["text"] = message.reason
            elif data.get("type") == "presence":  # a seat's connection came or went
                self._presence(data)
        return data

    @staticmethod
    def _presence(data: dict[str, Any]) -> None:
        """A presence message's words; with a grace period, also ``"counting"``: the same words
        with ``{seconds}`` left in, which the page counts down itself (as it does clocks)."""
        code, params = str(data.get("code")), dict(data.get("params") or {})
        data["text"] = render(code, params)
        if isinstance(params.get("seconds"), int | float):
            data["counting"] = render(code, {**params, "seconds": "{seconds}"})

    def _hear(self, envelope: Envelope) -> list[str]:
        event = envelope.event
        if isinstance(event, GameStarted):
            self.narrator = Narrator(event.config, self.viewer)
        elif self.narrator is None:
            self.narrator = self._resumed(envelope.seq)
            if self.narrator is None:
                return []
        narrator = self.narrator
        before = len(narrator.lines)
        narrator.feed(event)
        return [line.text for line in narrator.lines[before:]]

    def _resumed(self, seq: int) -> Narrator | None:
        """A narrator that has heard the viewer's stream before event *seq*."""
        narrator: Narrator | None = None
        for envelope in self.history():
            if envelope.seq >= seq:
                break
            if isinstance(envelope.event, GameStarted):
                narrator = Narrator(envelope.event.config, self.viewer)
            elif narrator is not None:
                narrator.feed(envelope.event)
        return narrator
