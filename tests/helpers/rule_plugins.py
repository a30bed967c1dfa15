"""Rule plugins that answer garbage or wrap other plugins, and
fake installed distributions, for the tests of the plugin host.
"""

from __future__ import annotations

from cinco import Registry, Variant, hookimpl

# -- folded in from the hardening campaign's test_hardening_core.py (issue 26) --------------------


def registry_with(rules: object, name: str = "odd") -> Registry:
    class Plugin:
        @hookimpl
        def cinco_register_variants(self) -> list[Variant]:
            return [Variant(name, "a variant under test", rules=rules)]

    return Registry(entry_points=False, plugins=[Plugin()])
