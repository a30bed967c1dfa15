"""The board: 90 numbered spaces on a hexagon of radius 5 around an empty centre (B1–B7).

Cells use axial coordinates ``(q, r)`` with the empty centre at ``(0, 0)``; the three hex axes
are the directions ``(1, 0)``, ``(0, 1)`` and ``(1, -1)``. The numbering is pinned as data in
:data:`COORDINATES` and re-derived from the rules by :func:`derive_numberings` (B6).

>>> coordinates(1)
(0, -1)
>>> space_at((0, 0)) is None
True
>>> sorted(neighbours(1))
[2, 6, 16, 17, 18]
>>> is_straight_line((12, 11, 30, 44, 81))
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import pairwise

Coord = tuple[int, int]

RADIUS = 5
SPACES = 90
CENTRE: Coord = (0, 0)

#: The six neighbour directions, going round the hexagon.
DIRECTIONS: tuple[Coord, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: One direction per hex axis; lines run along these.
AXES: tuple[Coord, ...] = ((1, 0), (0, 1), (1, -1))

#: COORDINATES[n - 1] is the cell of space n. Derived by :func:`derive_numberings` (B6) and
#: pinned here so that the board never changes under us; tests check it against B2–B5.
# fmt: off
COORDINATES: tuple[Coord, ...] = (
    (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0),
    (-2, 0), (-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 1),
    (2, 0), (2, -1), (2, -2), (1, -2), (0, -2), (-1, -1),
    (-1, -2), (0, -3), (1, -3), (2, -3), (3, -3), (3, -2),
    (3, -1), (3, 0), (2, 1), (1, 2), (0, 3), (-1, 3),
    (-2, 3), (-3, 3), (-3, 2), (-3, 1), (-3, 0), (-2, -1),
    (-3, -1), (-4, 0), (-4, 1), (-4, 2), (-4, 3), (-4, 4),
    (-3, 4), (-2, 4), (-1, 4), (0, 4), (1, 3), (2, 2),
    (3, 1), (4, 0), (4, -1), (4, -2), (4, -3), (4, -4),
    (3, -4), (2, -4), (1, -4), (0, -4), (-1, -3), (-2, -2),
    (-2, -3), (-1, -4), (0, -5), (1, -5), (2, -5), (3, -5),
    (4, -5), (5, -5), (5, -4), (5, -3), (5, -2), (5, -1),
    (5, 0), (4, 1), (3, 2), (2, 3), (1, 4), (0, 5),
    (-1, 5), (-2, 5), (-3, 5), (-4, 5), (-5, 5), (-5, 4),
    (-5, 3), (-5, 2), (-5, 1), (-5, 0), (-4, -1), (-3, -2),
)
# fmt: on

_SPACE_AT: dict[Coord, int] = {cell: n for n, cell in enumerate(COORDINATES, start=1)}


def distance(a: Coord, b: Coord = CENTRE) -> int:
    """Hex distance between two cells (the ring number when *b* is the centre).

    >>> distance((2, -1))
    2
    """
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def coordinates(space: int) -> Coord:
    """The axial cell of a numbered space."""
    if not 1 <= space <= SPACES:
        raise ValueError(f"no space {space}: spaces are numbered 1 to {SPACES}")
    return COORDINATES[space - 1]


def space_at(cell: Coord) -> int | None:
    """The number of the space at *cell*, or None for the centre and cells off the board."""
    return _SPACE_AT.get(cell)


def ring_of(space: int) -> int:
    """Which ring (1–5) a space lies on.

    >>> ring_of(6), ring_of(7), ring_of(90)
    (1, 2, 5)
    """
    return distance(coordinates(space))


@cache
def neighbours(space: int) -> frozenset[int]:
    """The numbered spaces next to *space* (the empty centre is not a space)."""
    q, r = coordinates(space)
    found = (space_at((q + dq, r + dr)) for dq, dr in DIRECTIONS)
    return frozenset(n for n in found if n is not None)


def is_straight_line(spaces: Sequence[int]) -> bool:
    """Whether *spaces*, in order, are contiguous cells along one hex axis (B7)."""
    if len(spaces) < 2:
        return True
    cells = [coordinates(n) for n in spaces]
    step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
    if step not in DIRECTIONS:
        return False
    return all((b[0] - a[0], b[1] - a[1]) == step for a, b in pairwise(cells))


def _runs_along(axis: Coord) -> Iterator[tuple[int, ...]]:
    """Maximal runs of numbered cells along lines parallel to *axis* (the centre splits one)."""
    dq, dr = axis
    for start in COORDINATES:
        before = (start[0] - dq, start[1] - dr)
        if space_at(before) is not None:
            continue  # not the first cell of its run
        run = []
        cell = start
        while (n := space_at(cell)) is not None:
            run.append(n)
            cell = (cell[0] + dq, cell[1] + dr)
        yield tuple(run)


@cache
def runs() -> tuple[tuple[int, ...], ...]:
    """Every maximal straight run of spaces, along all three axes.

    The centre is not a space, so the runs through it stop on either side (B7).
    """
    return tuple(run for axis in AXES for run in _runs_along(axis))


@cache
def windows(length: int = 5) -> tuple[tuple[int, ...], ...]:
    """Every straight run of exactly *length* contiguous spaces (any of them is a winning line).

    >>> len(windows(5))
    126
    """
    return tuple(run[i : i + length] for run in runs() for i in range(len(run) - length + 1))


@cache
def windows_through(space: int, length: int = 5) -> tuple[tuple[int, ...], ...]:
    """The windows of :func: that contain *space*."""
    return tuple(w for w in windows(length) if space in w)


def ring_cells(k: int) -> list[Coord]:
    """The cells of ring *k*, walked once round in the order of :data:`DIRECTIONS`."""
    q, r = -k, k
    cells = []
    for dq, dr in DIRECTIONS:
        for _ in range(k):
            cells.append((q, r))
            q, r = q + dq, r + dr
    return cells


def derive_numberings() -> list[tuple[Coord, ...]]:
    """Every numbering of the cells that satisfies B2–B5, found by search (B6).

    Each ring is walked once round from some start cell; the walking direction alternates ring
    by ring (B4, a meander), consecutive numbers touch (B3), and the two example lines of the
    rule book are straight (B5). There are 12 answers: one layout in 6 rotations × 2 mirror
    images.
    """
    found: list[tuple[Coord, ...]] = []

    def adjacent(a: Coord, b: Coord) -> bool:
        return distance(a, b) == 1

    def straight(path: list[Coord], numbers: Sequence[int]) -> bool:
        cells = [path[n - 1] for n in numbers]
        step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
        return step in DIRECTIONS and all(
            (b[0] - a[0], b[1] - a[1]) == step for a, b in pairwise(cells)
        )

    def walk(k: int, direction: int, path: list[Coord]) -> None:
        if k > RADIUS:
            if straight(path, (12, 11, 30, 44, 81)) and straight(path, (89, 38, 39, 40, 41)):
                found.append(tuple(path))
            return
        cells = ring_cells(k)
        size = len(cells)
        for start in range(size):
            ring = [cells[(start + direction * i) % size] for i in range(size)]
            if path and not adjacent(path[-1], ring[0]):
                continue
            walk(k + 1, -direction, path + ring)

    for first_direction in (1, -1):
        walk(1, first_direction, [])
    return found


@cache
def rays(space: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """For each axis, the spaces going out from *space* one way and the other, nearest first.

    A ray stops at the board's edge or at the empty centre (B7).

    >>> rays(1)[0]
    ((2, 14, 25, 51, 72), (18, 36, 37, 89))
    """
    q, r = coordinates(space)
    out = []
    for dq, dr in AXES:
        pair = []
        for sign in (1, -1):
            ray = []
            cq, cr = q + sign * dq, r + sign * dr
            while (n := space_at((cq, cr))) is not None:
                ray.append(n)
                cq, cr = cq + sign * dq, cr + sign * dr
            pair.append(tuple(ray))
        out.append((pair[0], pair[1]))
    return tuple(out)


def line_through(board: Sequence[int], space: int, team: int) -> tuple[int, ...]:
    """The longest straight line of *team*'s tokens through *space* on *board* (a sequence
    indexed by space number holding each space's team), in order along its axis."""
    best: tuple[int, ...] = (space,)
    for forward, backward in rays(space):
        ahead = []
        for n in forward:
            if board[n] != team:
                break
            ahead.append(n)
        behind = []
        for n in backward:
            if board[n] != team:
                break
            behind.append(n)
        if 1 + len(ahead) + len(behind) > len(best):
            best = (*reversed(behind), space, *ahead)
    return best
