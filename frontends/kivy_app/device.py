"""What only a device does: keeping the screen on during a game (Android).

On a desktop every function here does nothing, so the app and its tests run anywhere; on
Android they reach the activity through pyjnius, which python-for-android bundles.
"""

from __future__ import annotations

from typing import Any

from kivy.utils import platform

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
