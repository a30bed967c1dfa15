"""The app's sounds: short tones made here, from sine waves, with a mute setting.

Nothing is recorded or downloaded. Each sound is a few notes, synthesised into a WAV file
the first time it is needed (kept in Cinco's data folder, under ``sounds/``) and played with
Kivy's :class:`~kivy.core.audio.SoundLoader`:

========  =========================================================================
place     a token lands: a short wooden knock (a low note with a fast decay)
card      a draw, an exchange or a burn: a soft two-note flick
turn      it is your turn (after a bot or a remote player): a rising chime
win       the game is won: a major arpeggio
refused   the table said no: a low double buzz
========  =========================================================================

Without an audio device (a server, a test under Xvfb) loading fails quietly: the app plays
on, silent. The mute setting is kept with the app's other settings (``app-settings.json``).

>>> data = synthesise("turn")
>>> data[:4], data[8:12]
(b'RIFF', b'WAVE')
>>> synthesise("win") == synthesise("win")  # the same bytes every time
True
"""

from __future__ import annotations

import io
import math
import struct
import wave
from pathlib import Path
from typing import Any

from cinco.core.records.saves import data_dir

from . import settings

RATE = 22050
#: Bumped when a sound's notes change, so that a cached file from before is made again.
VERSION = 1

#: Each sound: (frequency in Hz, start in s, length in s, loudness 0–1, decay per second).
NOTES: dict[str, tuple[tuple[float, float, float, float, float], ...]] = {
    "place": ((196.0, 0.0, 0.12, 0.9, 40.0), (392.0, 0.0, 0.05, 0.3, 80.0)),
    "card": ((660.0, 0.0, 0.05, 0.35, 50.0), (880.0, 0.045, 0.06, 0.3, 50.0)),
    "turn": ((523.25, 0.0, 0.22, 0.5, 9.0), (783.99, 0.11, 0.3, 0.45, 7.0)),
    "win": (
        (523.25, 0.0, 0.3, 0.5, 5.0),
        (659.25, 0.12, 0.3, 0.5, 5.0),
        (783.99, 0.24, 0.3, 0.5, 5.0),
        (1046.5, 0.36, 0.6, 0.55, 3.0),
    ),
    "refused": ((130.81, 0.0, 0.09, 0.5, 20.0), (130.81, 0.13, 0.09, 0.5, 20.0)),
}
SOUNDS = tuple(NOTES)


def synthesise(kind: str) -> bytes:
    """The WAV file (16-bit mono) of sound *kind*."""
    notes = NOTES[kind]
    length = max(start + duration for _f, start, duration, _l, _d in notes) + 0.02
    samples = [0.0] * int(length * RATE)
    for frequency, start, duration, loudness, decay in notes:
        first = int(start * RATE)
        for i in range(int(duration * RATE)):
            t = i / RATE
            attack = min(1.0, t / 0.004)  # 4 ms: no click at the start
            release = min(1.0, (duration - t) / 0.01)  # nor at the end
            envelope = attack * release * math.exp(-decay * t)
            tone = math.sin(2 * math.pi * frequency * t) + 0.25 * math.sin(
                4 * math.pi * frequency * t
            )
            samples[first + i] += loudness * envelope * tone / 1.25
    frames = b"".join(
        struct.pack("<h", int(max(-1.0, min(1.0, value)) * 26000)) for value in samples
    )
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)
    return buffer.getvalue()


def sound_file(kind: str, folder: Path | None = None) -> Path:
    """Where sound *kind* is kept, made now if it is not there yet."""
    path = (folder or data_dir()) / "sounds" / f"{kind}-v{VERSION}.wav"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        partial.write_bytes(synthesise(kind))
        partial.replace(path)
    return path


class Sounds:
    """Plays the app's sounds unless muted; silent where no sound can be loaded."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.muted = bool(settings.read(folder).get("muted", False))
        self._loaded: dict[str, Any] = {}
        #: What was asked to play, muted or not (for tests: the app has no ears).
        self.played: list[str] = []

    def set_muted(self, muted: bool) -> None:
        self.muted = muted
        settings.write({"muted": muted}, self.folder)

    def play(self, kind: str) -> None:
        self.played.append(kind)
        if self.muted:
            return
        sound = self._loaded.get(kind)
        if kind not in self._loaded:
            sound = self._loaded[kind] = self._load(kind)
        if sound is not None:
            sound.stop()
            sound.play()

    def _load(self, kind: str) -> Any:
        try:
            from kivy.core.audio import SoundLoader

            return SoundLoader.load(str(sound_file(kind, self.folder)))
        except Exception:  # no audio device, no writable folder: a silent game, not a crash
            return None
