"""Draw the app's icon and presplash for buildozer (``android/icon.png``, ``presplash.png``).

Five tokens in a row on a hexagon, the three teams' shapes and colours in turn, as the start
screen's logo; the presplash adds the name. Needs Pillow (Kivy's ``[base]`` extra brings it)::

    python android/make_art.py
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
BACKGROUND = "#141B26"
FRAME = "#2B3A52"
CELL = "#F4EDE0"
ACCENT = "#F2C14E"
TEAMS = ("#56B4E9", "#E69F00", "#CC79A7")
OUTLINE = "#141B26"


def hexagon(cx: float, cy: float, r: float, pointy: bool) -> list[tuple[float, float]]:
    start = 30 if pointy else 0
    return [
        (
            cx + r * math.cos(math.radians(start + 60 * i)),
            cy + r * math.sin(math.radians(start + 60 * i)),
        )
        for i in range(6)
    ]


def token(draw: ImageDraw.ImageDraw, shape: int, cx: float, cy: float, r: float) -> None:
    colour, width = TEAMS[shape % 3], max(2, int(r * 0.12))
    if shape % 3 == 0:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=OUTLINE, width=width)
    elif shape % 3 == 1:
        s = r * 1.22
        points = [
            (
                cx + s * math.cos(math.radians(-90 + 120 * i)),
                cy + r * 0.12 + s * math.sin(math.radians(-90 + 120 * i)),
            )
            for i in range(3)
        ]
        draw.polygon(points, fill=colour, outline=OUTLINE, width=width)
    else:
        h = r * 0.84
        draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=colour, outline=OUTLINE, width=width)


def logo(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """The board's frame with five cells in a row, each holding a token."""
    draw.polygon(hexagon(cx, cy, size * 0.5, pointy=False), fill=FRAME)
    step = size * 0.17
    for i in range(5):
        x = cx + (i - 2) * step
        draw.polygon(hexagon(x, cy, step * 0.56, pointy=True), fill=CELL)
        token(draw, (0, 1, 2, 0, 1)[i], x, cy, step * 0.36)
    draw.line((cx - 2 * step, cy, cx + 2 * step, cy), fill=ACCENT, width=max(3, int(size * 0.012)))
    for i in range(5):
        token(draw, (0, 1, 2, 0, 1)[i], cx + (i - 2) * step, cy, step * 0.36)


def icon(size: int = 512) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size * 0.2, fill=BACKGROUND)
    logo(draw, size / 2, size / 2, size * 0.92)
    return image


def presplash(size: int = 1024) -> Image.Image:
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    logo(draw, size / 2, size * 0.42, size * 0.62)
    import kivy

    font_path = Path(kivy.__file__).parent / "data" / "fonts" / "Roboto-Bold.ttf"
    font = ImageFont.truetype(str(font_path), int(size * 0.11))
    draw.text((size / 2, size * 0.8), "CINCO", font=font, fill="#EEF1F5", anchor="mm")
    return image


def main() -> None:
    icon().save(HERE / "icon.png")
    presplash().save(HERE / "presplash.png")
    print(f"wrote {HERE / 'icon.png'} and {HERE / 'presplash.png'}")


if __name__ == "__main__":
    main()
