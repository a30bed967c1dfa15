"""A private virtual display (Xvfb) for the Kivy app's tests and benchmarks.

Xvfb picks a free display number itself and writes it to a pipe (``-displayfd``), so two
test runs never fight over ``:99``. The screen is large enough for a 2560×1600 tablet's window
either way up.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator

#: Large enough for the biggest window the tests open, in either orientation.
SCREEN = "2600x2600x24"


class NoDisplay(Exception):
    """Xvfb is not installed, or did not start: the message says which."""


@contextlib.contextmanager
def private_display(screen: str = SCREEN) -> Iterator[str]:
    """Start Xvfb, yield its ``DISPLAY`` (``":5"``), stop it on leaving."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise NoDisplay("no display and Xvfb is not installed (apt-get install xvfb)")
    read, write = os.pipe()
    process = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    try:
        if not number:
            raise NoDisplay("Xvfb did not start")
        yield f":{number}"
    finally:
        process.terminate()
        process.wait(timeout=10)
