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

from cinco.core.engine.events import GameStarted, Viewer
from cinco.core.table.protocol import Envelope, Hinted, Message, Refused
from cinco.core.words.i18n import LANGUAGES, UnknownLanguage, language_code, speaking
from cinco.core.words.messages import render, thaw
from cinco.frontends.narration import Narrator


def web_language(code: str) -> str:
    """*code* (``uk``, ``uk-UA``) as one of Cinco's languages; :class:`UnknownLanguage`
    (its message lists them) for any other."""
    wanted = language_code(code)
    if wanted not in LANGUAGES:
        raise UnknownLanguage(code)
    return wanted


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
