"""When the app fails: the traceback goes to standard error and to a log file, and the person
is told what went wrong and where that log is (:mod:`.failure_screen` shows it). Never a
silent exit: Kivy's own logger would otherwise swallow what went to standard error.

This module does not import Kivy, so that a failure to import Kivy's side of the app is
reported too.

>>> import os, tempfile
>>> os.environ["CINCO_DATA_DIR"] = tempfile.mkdtemp()
>>> try:
...     raise ValueError("no such card")
... except ValueError as caught:
...     error = caught
>>> failure = report(error, "starting the app", stream=None)
>>> failure.summary
'ValueError: no such card'
>>> "no such card" in failure.log.read_text()
True
>>> report(error, "again", stream=None) is None  # the same error is reported once
True
"""

from __future__ import annotations

import contextlib
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cinco.core.records.saves import data_dir

#: The app's log of failures, in Cinco's data folder (on Android, the app's own storage).
LOG_NAME = "cinco-app-errors.log"
#: Set on an exception once reported (Kivy re-raises what its loop was given).
_REPORTED = "_cinco_reported"


@dataclass(frozen=True)
class Failure:
    """One failure, as the person is told of it."""

    #: Where it happened ("starting the app", "during play").
    where: str
    #: The exception's type and message, on one line.
    summary: str
    #: The log file holding the whole traceback.
    log: Path


def log_path() -> Path:
    return data_dir() / LOG_NAME


def summary(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def report(
    error: BaseException, where: str, stream: TextIO | None = sys.__stderr__
) -> Failure | None:
    """Write *error*'s traceback to *stream* (the real standard error, whatever Kivy did to
    ``sys.stderr``) and to the log; None if it was reported already."""
    if getattr(error, _REPORTED, False):
        return None
    with contextlib.suppress(AttributeError, TypeError):  # a few built-in errors take none
        setattr(error, _REPORTED, True)
    lines = "".join(traceback.format_exception(error))
    path = log_path()
    header = f"Cinco app: an error {where} (logged in {path}):\n"
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(header + lines)
            stream.flush()
    with contextlib.suppress(OSError):  # a read-only disk costs the log, not the report
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {where}\n{lines}")
    return Failure(where, summary(error), path)
