"""``cinco rules``: the rules of Cinco and of the installed variants, in the terminal. The
top-level command (:mod:`cinco.frontends.main`) imports this module only when it runs."""

from __future__ import annotations

import click

from cinco.core.host.registry import default_registry
from cinco.core.words.i18n import N_, _
from cinco.frontends.terminal.rules_text import print_rules


@click.command()
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME",
    help=N_("Show only this variant's rules after the standard ones (repeatable)."),
)
def rules(variants: tuple[str, ...]) -> None:
    """Print the rules of Cinco, then each installed variant's (its description, the game
    parameters it declares and its own rules text)."""
    known = default_registry().variants()
    for name in variants:
        if name not in known:
            raise click.BadParameter(
                _("Unknown variant {name!r}. Installed variants: {choices}.").format(
                    name=name,
                    # the name to type, and the variant's name in the user's words
                    choices=", ".join(f"{n} ({known[n].label})" for n in sorted(known)) or "-",
                ),
                param_hint="--variant",
            )
    print_rules(variants)
