"""Choosing a table by touch: players, teams, variants, and who plays each seat.

The start screen (a game on this device) and the online screen's "Create a table" form (a
table at a server) choose the same things the same way; :class:`TableChoice` is that once.
What may be chosen comes from the installed plugins (a third party's layout, variant or bot
too), in the player's language: a bot by its title and levels in words ("Monte Carlo",
"těžká"), a variant by its title and description. The screen's layout file provides the boxes
``players``, ``layouts``, ``variants`` and ``seats``.
"""

from __future__ import annotations

from typing import Any

from cinco.core.engine.errors import CincoError
from cinco.core.host.declarations import level_label
from cinco.core.host.registry import Registry, default_registry
from cinco.core.words.i18n import _

from .widgets import SeatRow


def bot_label(name: str, registry: Registry | None = None) -> str:
    """A bot as a family reads it: "Greedy", "Monte Carlo" (its plugin's title), not
    "Bot: greedy"."""
    spec = (registry or default_registry()).bots().get(name)
    return spec.label if spec is not None else name.capitalize()


class TableChoice:
    """The choosing, for a Kivy screen that has the boxes named above. A screen calls
    :meth:`setup_choice` once, and may adjust each seat's row in :meth:`prepare_row`, keep
    more of it in :meth:`keep_row` and redraw around the seats in :meth:`seats_changed`."""

    #: Kivy's toggle groups are global: each screen names its own.
    group = "table"
    ids: Any

    def setup_choice(
        self,
        registry: Registry,
        *,
        players: int | None = None,
        layout: str | None = None,
        variants: tuple[str, ...] = (),
        bots: dict[int, tuple[str, str | None]] | None = None,
    ) -> None:
        from kivy.factory import Factory
        from kivy.metrics import dp

        self.registry = registry
        self.player_counts = registry.player_counts()
        self.players = players or (2 if 2 in self.player_counts else self.player_counts[0])
        self.layout_name = layout
        # A list, not a set: the order of the variants decides how their parameters combine.
        self.chosen_variants = list(variants)
        self.bot_names = sorted(registry.bots())
        self.bots: dict[int, tuple[str, str | None]] = dict(bots or {})
        self.seat_rows: list[SeatRow] = []
        ids = self.ids
        for n in self.player_counts:
            button = Factory.CToggle(text=str(n), group=f"{self.group}_players")
            button.state = "down" if n == self.players else "normal"
            button.bind(on_release=lambda _b, n=n: self.set_players(n))
            ids.players.add_widget(button)
        self.layout_buttons: dict[str, Any] = {}
        self.variant_buttons: dict[str, Any] = {}
        for name, variant in sorted(registry.variants().items()):
            button = Factory.CToggle(
                text=f"{variant.label}: {_(variant.description)}",
                group=None,
                font_size="15sp",
                allow_no_selection=True,
                halign="center",
                valign="middle",
            )
            button.bind(size=lambda b, _s: setattr(b, "text_size", (b.width - 16, None)))
            # A long description on a narrow screen: the button grows for its lines.
            button.bind(
                texture_size=lambda b, size: setattr(b, "height", max(dp(52), size[1] + dp(12)))
            )
            button.state = "down" if name in self.chosen_variants else "normal"
            button.bind(state=lambda _b, state, name=name: self.toggle_variant(name, state))
            ids.variants.add_widget(button)
            self.variant_buttons[name] = button
        self.grey_incompatible()
        self.set_players(self.players)

    # -- players, teams, variants ---------------------------------------------------------------

    def set_players(self, players: int) -> None:
        from kivy.factory import Factory

        self.save_rows()
        self.players = players
        for button in self.ids.players.children:
            button.state = "down" if button.text == str(players) else "normal"
        # The layouts for this many players, the default first; a choice only if several.
        layouts = self.registry.layouts_for(players)
        names = [lay.name for lay in layouts]
        if self.layout_name not in names:
            self.layout_name = names[0] if names else None
        box = self.ids.layouts
        box.clear_widgets()
        self.layout_buttons = {}
        for lay in layouts:
            button = Factory.CToggle(
                text=lay.name.replace("x", " × "), group=f"{self.group}_layouts"
            )
            button.bind(on_release=lambda _b, name=lay.name: self.set_layout(name))
            button.disabled = len(layouts) < 2
            button.state = "down" if lay.name == self.layout_name else "normal"
            box.add_widget(button)
            self.layout_buttons[lay.name] = button
        self.rebuild_seats()

    def set_layout(self, name: str) -> None:
        self.save_rows()
        self.layout_name = name
        self.rebuild_seats()

    def toggle_variant(self, name: str, state: str) -> None:
        if state == "down" and name not in self.chosen_variants:
            self.chosen_variants.append(name)
        elif state != "down" and name in self.chosen_variants:
            self.chosen_variants.remove(name)
        self.grey_incompatible()

    def grey_incompatible(self) -> None:
        """Grey out the variants that cannot be played with those chosen (a variant's
        ``incompatible``, from the registry): they cannot be chosen until those are off."""
        blocked = self.registry.incompatible_with(self.chosen_variants)
        for name, button in self.variant_buttons.items():
            button.disabled = name in blocked

    def teams(self) -> int:
        try:
            return self.registry.layout(self.players, self.layout_name).teams
        except CincoError:
            return 2

    # -- the seats --------------------------------------------------------------------------------

    def kind_labels(self) -> list[str]:
        return [_("Person")] + [bot_label(name, self.registry) for name in self.bot_names]

    def rebuild_seats(self) -> None:
        teams = self.teams()
        grid = self.ids.seats
        grid.clear_widgets()
        self.seat_rows = []
        kinds = self.kind_labels()
        for seat in range(self.players):
            row = SeatRow(seat=seat, team=seat % teams, kinds=kinds)
            bot, level = self.bots.get(seat, (None, None))
            row.ids.kind.text = kinds[0] if bot is None else kinds[1 + self.bot_names.index(bot)]
            self.prepare_row(row)
            row.ids.kind.bind(text=lambda _s, _t, row=row: self.kind_changed(row))
            self.update_levels(row, level)
            grid.add_widget(row)
            self.seat_rows.append(row)
        self.seats_changed(teams)

    def prepare_row(self, row: SeatRow) -> None:
        """Adjust a new seat row (its name, what may be changed)."""

    def seats_changed(self, teams: int) -> None:
        """The seats were built again (for notes around them)."""

    def kind_changed(self, row: SeatRow) -> None:
        """A person or another bot was chosen for *row*."""
        self.update_levels(row)

    def bot_levels(self, bot: str | None) -> list[str]:
        return list(self.registry.bots()[bot].levels) if bot else []

    def update_levels(self, row: SeatRow, level: str | None = None) -> None:
        """The level chooser of *row*'s bot, in words ("hard" → "těžká" in Czech)."""
        levels = self.bot_levels(self.row_bot(row))
        row.levels = [level_label(name) for name in levels]
        if levels:
            chosen = level if level in levels else levels[len(levels) // 2]
            row.ids.level.text = level_label(chosen)
        else:
            row.ids.level.text = ""

    def row_level(self, row: SeatRow) -> str | None:
        """The level chosen in *row*, as its bot names it."""
        levels = self.bot_levels(self.row_bot(row))
        words = [level_label(name) for name in levels]
        text = row.ids.level.text
        return levels[words.index(text)] if text in words else None

    def row_bot(self, row: SeatRow) -> str | None:
        kinds = self.kind_labels()
        text = row.ids.kind.text
        return self.bot_names[kinds.index(text) - 1] if text in kinds[1:] else None

    def save_rows(self) -> None:
        """Keep what was chosen in each row when the rows are built again."""
        for row in getattr(self, "seat_rows", []):
            bot = self.row_bot(row)
            if bot is None:
                self.bots.pop(row.seat, None)
            else:
                self.bots[row.seat] = (bot, self.row_level(row))
            self.keep_row(row)

    def keep_row(self, row: SeatRow) -> None:
        """Keep more of *row* than its bot (the start screen keeps names)."""
