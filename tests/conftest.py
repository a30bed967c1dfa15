"""Shared test setup: the tests read English unless a test chooses a language itself.

A developer whose locale is Ukrainian (``LANG=uk_UA.UTF-8``) gets a Ukrainian ``cinco``; the
tests that assert English texts must not depend on that, so ``CINCO_LANG`` defaults to ``en``
here (tests/test_i18n.py sets and clears the language variables itself).
"""

from __future__ import annotations

import os

os.environ.setdefault("CINCO_LANG", "en")
