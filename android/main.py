"""The Android entry point (python-for-android runs ``main.py``): the Cinco app's start screen.

``python android/prepare.py`` copies the ``cinco`` package beside this file before
``buildozer android debug``; see docs/kivy.md.
"""

from cinco.core.words.i18n import init_language
from cinco.frontends.kivy_app import run_app
from cinco.frontends.options import PlayOptions

if __name__ == "__main__":
    init_language()  # the phone's language (or the one chosen in the app before)
    run_app(PlayOptions())
