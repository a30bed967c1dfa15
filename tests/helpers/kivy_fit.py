"""Does a view fit its window? A check over a Kivy widget tree, for the screen-fit test.

:func:`misfits` walks what is drawn (a screen, a popup, a drop-down list) and returns one
readable line per fault:

- a widget drawn outside the window (what a scrolling panel clips counts as its visible part;
  a backdrop meant to run off the edge says so with ``fit_may_overflow: True``);
- text under another control: two texts or controls, neither inside the other, on top of
  each other;
- a text cut: wider or taller than its widget, ellipsised, lines dropped, or a word split
  across lines (a label that may shorten says so with ``fit_may_shorten: True`` in the kv,
  as a file path does);
- a control (button, toggle, spinner, card, input, slider) smaller than 48 dp (a slider's
  height excepted: its thumb is what a finger takes).

Only Kivy's own classes are used, so it works on any of the app's views.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.slider import Slider
from kivy.uix.stencilview import StencilView
from kivy.uix.textinput import TextInput

Box = tuple[float, float, float, float]
#: Rounding slack, in pixels.
SLACK = 1.0
#: The smallest touch target (Android's and Apple's guidance).
TOUCH_DP = 48.0


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in widget.children:
        yield from walk(child)


def window_box(widget: Any) -> Box:
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return x0, y0, x1, y1


def intersect(a: Box, b: Box) -> Box | None:
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[2] - box[0] > SLACK and box[3] - box[1] > SLACK else None


def shown(widget: Any) -> bool:
    """Drawn: of some size, and neither it nor an ancestor transparent."""
    if widget.width < 1 or widget.height < 1:
        return False
    node = widget
    while node is not None and node is not node.parent:
        if node.opacity == 0:
            return False
        node = node.parent
    return True


def visible_box(widget: Any) -> Box | None:
    """The part of *widget* drawn: its box clipped by every scrolling panel around it."""
    box: Box | None = window_box(widget)
    node = widget.parent
    while box is not None and node is not None and node is not node.parent:
        if isinstance(node, StencilView):
            box = intersect(box, window_box(node))
        node = node.parent
    return box


def is_control(widget: Any) -> bool:
    return isinstance(widget, ButtonBehavior | TextInput | Slider)


def inside_control(widget: Any) -> bool:
    node = widget.parent
    while node is not None and node is not node.parent:
        if is_control(node):
            return True
        node = node.parent
    return False


def name_of(widget: Any) -> str:
    """How a failure names a widget: its class, its kv id, its text."""
    kind = type(widget).__name__
    ident = ""
    node = widget
    # ids live on the rule's root: look for this widget among its ancestors' ids.
    while node is not None and node is not node.parent and not ident:
        for key, value in getattr(node, "ids", {}).items():
            if value is widget or getattr(value, "__self__", None) is widget:
                ident = key
                break
        node = node.parent
    text = str(getattr(widget, "text", "") or "").replace("\n", " ")
    if len(text) > 40:
        text = text[:39] + "…"
    parts = [kind]
    if ident:
        parts.append(ident)
    if text:
        parts.append(repr(text))
    return " ".join(parts)


def rendered_lines(label: Label) -> list[str]:
    """The lines a label drew (after wrapping, dropping and shortening)."""
    label.texture_update()
    core = label._label
    lines = getattr(core, "_cached_lines", None) or []
    return ["".join(word.text for word in line.words) for line in lines]


def cut(label: Label) -> str | None:
    """Why *label*'s text is not all readable in its box, or None."""
    text = str(label.text)
    if not text.strip() or label.markup:
        return None
    label.texture_update()
    tw, th = label.texture_size
    if tw > label.width + SLACK:
        return f"is {tw - label.width:.0f} px wider than its box"
    if th > label.height + SLACK:
        return f"is {th - label.height:.0f} px taller than its box"
    if getattr(label, "fit_may_shorten", False):
        return None
    lines = rendered_lines(label)
    if not lines:
        return None
    drawn = " ".join(lines)
    for dots in ("…", "..."):  # Kivy shortens with three dots
        if dots in drawn and dots not in text:
            return f"is ellipsised to {drawn!r}"
    words, drawn_words = text.split(), drawn.split()
    if drawn_words != words:
        if len("".join(drawn_words)) < len("".join(words)):
            return f"shows only {drawn!r}"
        return f"splits a word across lines: {' / '.join(lines)!r}"
    return None


def misfits(root: Any, where: str) -> list[str]:
    """Every fault of the view drawn by *root*, each a line starting with *where*."""
    faults: list[str] = []
    drawn = [w for w in walk(root) if shown(w)]
    items: list[tuple[Any, Box]] = []
    for widget in drawn:
        box = visible_box(widget)
        if box is None:
            continue  # scrolled out of its panel
        if getattr(widget, "fit_may_overflow", False):
            continue  # a backdrop running off the edge on purpose (``fit_may_overflow: True``)
        faults.extend(f"{where}: {name_of(widget)} {fault}" for fault in widget_faults(widget, box))
        text_like = isinstance(widget, Label) and str(widget.text).strip()
        if is_control(widget) or (text_like and not inside_control(widget)):
            items.append((widget, box))
    faults.extend(f"{where}: {overlap}" for overlap in overlaps(items))
    return faults


def widget_faults(widget: Any, box: Box) -> list[str]:
    """One drawn widget's own faults (its *box* on screen): out of the window, a control
    smaller than a finger, a label's text cut."""
    faults: list[str] = []
    width, height = Window.size
    over = {
        "left of": -box[0],
        "right of": box[2] - width,
        "below": -box[1],
        "above": box[3] - height,
    }
    for side, amount in over.items():
        if amount > SLACK:
            faults.append(f"extends {amount:.0f} px {side} the window")
    if is_control(widget):
        least = dp(TOUCH_DP) - 0.5
        full = window_box(widget)
        w, h = full[2] - full[0], full[3] - full[1]
        if w < least:
            faults.append(f"is {w / dp(1):.0f} dp wide (at least 48)")
        if h < least and not isinstance(widget, Slider):
            faults.append(f"is {h / dp(1):.0f} dp high (at least 48)")
    if isinstance(widget, Label):
        why = cut(widget)
        if why is not None:
            faults.append(why)
    return faults


def overlaps(items: list[tuple[Any, Box]]) -> list[str]:
    """The pairs of *items* (widgets and their boxes) that overlap, neither inside the other."""
    found: list[str] = []
    for i, (one, box) in enumerate(items):
        for other, other_box in items[i + 1 :]:
            if intersect(box, other_box) is None:
                continue
            if one in list(walk(other)) or other in list(walk(one)):
                continue
            found.append(f"{name_of(one)} overlaps {name_of(other)}")
    return found
