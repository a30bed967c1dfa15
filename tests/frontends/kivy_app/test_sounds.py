"""The Kivy app's sounds are made here (issue 13): each a short, valid WAV file that is neither
silent nor clipped, the same bytes every time, kept once in the data folder."""

from __future__ import annotations

import array
import io
import wave
from pathlib import Path

import pytest

from cinco.frontends.kivy_app import sounds


@pytest.mark.parametrize("kind", sounds.SOUNDS)
def test_each_sound_is_a_short_clean_wav(kind: str) -> None:
    with wave.open(io.BytesIO(sounds.synthesise(kind))) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 22050)
        seconds = wav.getnframes() / wav.getframerate()
        samples = array.array("h", wav.readframes(wav.getnframes()))
    assert 0.05 < seconds < 1.2  # a cue, not a tune
    loudest = max(abs(value) for value in samples)
    assert 3000 < loudest < 32767  # heard, and never clipped
    assert abs(samples[0]) < 200 and abs(samples[-1]) < 200  # no click at either end


def test_sounds_differ_and_repeat_exactly() -> None:
    made = {kind: sounds.synthesise(kind) for kind in sounds.SOUNDS}
    assert len(set(made.values())) == len(made)
    assert all(sounds.synthesise(kind) == data for kind, data in made.items())


def test_a_sound_file_is_made_once(tmp_path: Path) -> None:
    path = sounds.sound_file("win", tmp_path)
    assert path.read_bytes() == sounds.synthesise("win")
    stamp = path.stat().st_mtime_ns
    assert sounds.sound_file("win", tmp_path) == path and path.stat().st_mtime_ns == stamp


def test_muting_is_remembered_and_muted_sounds_are_not_loaded(tmp_path: Path) -> None:
    player = sounds.Sounds(tmp_path)
    player.set_muted(True)
    player.play("turn")
    assert player.played == ["turn"] and player._loaded == {}
    assert sounds.Sounds(tmp_path).muted
