"""What only a device does: keeping the screen on during a game, and giving a game record to
other apps (Android).

On a desktop these do nothing (the screen) or the desktop's equivalent (a copy in the
Downloads folder), so the app and its tests run anywhere; on Android they reach the activity
through pyjnius, which python-for-android bundles.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from kivy.utils import platform
from platformdirs import user_downloads_dir

#: What was asked last, so that the activity is told only of changes.
_state: dict[str, Any] = {"on": None}


def keep_screen_on(on: bool) -> None:
    """Keep the screen from dimming while *on* (Android's ``FLAG_KEEP_SCREEN_ON``, which
    needs no permission); a no-op elsewhere."""
    if platform != "android" or _state["on"] == on:
        return
    _state["on"] = on
    try:
        from android.runnable import run_on_ui_thread  # type: ignore[import-not-found]
        from jnius import autoclass  # type: ignore[import-not-found]
    except ImportError:  # not python-for-android: nothing to do
        return
    activity = autoclass("org.kivy.android.PythonActivity").mActivity
    flag = autoclass("android.view.WindowManager$LayoutParams").FLAG_KEEP_SCREEN_ON

    @run_on_ui_thread  # type: ignore[untyped-decorator]
    def apply() -> None:
        window = activity.getWindow()
        if on:
            window.addFlags(flag)
        else:
            window.clearFlags(flag)

    apply()


def export_record(path: Path) -> str:
    """Put a copy of the game record *path* where the person can reach it from other apps,
    and say where: on Android the shared Downloads collection (``MediaStore``, no permission
    needed from Android 10 on), elsewhere the user's Downloads folder. A name already taken
    there gets a number (``game-2.jsonl``). Raises ``OSError`` when it cannot be written."""
    if platform == "android":
        return _export_android(path)
    folder = Path(user_downloads_dir())
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    number = 2
    while target.exists():
        target = folder / f"{path.stem}-{number}{path.suffix}"
        number += 1
    partial = target.with_suffix(target.suffix + ".partial")
    shutil.copyfile(path, partial)
    partial.replace(target)
    return str(target)


def _export_android(path: Path) -> str:  # pragma: no cover - runs on a device only
    try:
        from jnius import autoclass
    except ImportError as exc:
        raise OSError("pyjnius is missing: the record cannot be shared") from exc
    activity = autoclass("org.kivy.android.PythonActivity").mActivity
    values = autoclass("android.content.ContentValues")()
    downloads = autoclass("android.provider.MediaStore$Downloads")
    columns = autoclass("android.provider.MediaStore$MediaColumns")
    values.put(columns.DISPLAY_NAME, path.name)
    values.put(columns.MIME_TYPE, "application/x-ndjson")
    resolver = activity.getContentResolver()
    uri = resolver.insert(downloads.EXTERNAL_CONTENT_URI, values)
    if uri is None:
        raise OSError("Android refused a new file in Downloads")
    stream = resolver.openOutputStream(uri)
    try:
        stream.write(path.read_bytes())
    finally:
        stream.close()
    return f"Downloads/{path.name}"
