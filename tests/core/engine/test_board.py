"""The board (B1–B7) and the components (C1)."""

from __future__ import annotations

import itertools

import pytest
from positions import config_for

from cinco.core.engine import board
from cinco.core.engine.board import (
    AXES,
    CENTRE,
    COORDINATES,
    DIRECTIONS,
    RADIUS,
    SPACES,
    coordinates,
    derive_numberings,
    distance,
    is_straight_line,
    line_through,
    neighbours,
    ring_of,
    runs,
    space_at,
    windows,
)
from cinco.core.engine.rules import setup_events
from cinco.core.engine.state import FREE, TOKENS_PER_TEAM

Coord = tuple[int, int]


def all_cells(radius: int = RADIUS) -> set[Coord]:
    return {
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((q, r)) <= radius
    }


# -- C1 ---------------------------------------------------------------------------------------


def test_C1_components_90_spaces_90_cards_35_tokens_3_colours():
    """C1: 90 numbered spaces, a deck of 90 cards (one per number), 35 tokens per team, and at
    most 3 team colours in any layout."""
    assert SPACES == 90
    assert [space_at(cell) for cell in COORDINATES] == list(range(1, 91))
    deck = setup_events(config_for(2, seed=11))[1].order
    assert deck is not None and sorted(deck) == list(range(1, 91))
    assert TOKENS_PER_TEAM == 35
    from cinco.core.host.registry import default_registry

    layouts = default_registry().layouts().values()
    assert layouts and max(layout.teams for layout in layouts) == 3


# -- B1 ---------------------------------------------------------------------------------------


def test_B1_hexagon_of_radius_5_with_empty_centre():
    """B1: 91 cells within radius 5; the 90 spaces are exactly the non-centre ones."""
    cells = all_cells()
    assert len(cells) == 91
    assert set(COORDINATES) == cells - {CENTRE}
    assert len(set(COORDINATES)) == 90
    assert space_at(CENTRE) is None
    assert all(distance(cell) <= 5 for cell in COORDINATES)


def test_B1_centre_is_nobodys_neighbour_space_and_off_board_cells_are_none():
    """B1: the centre is not a space; neighbours never include it; cells off the board have no
    number; numbers outside 1–90 have no cell."""
    assert all(0 not in neighbours(n) for n in range(1, 91))
    assert len(neighbours(1)) == 5  # six cells round it, one of them the centre
    assert space_at((6, 0)) is None and space_at((3, 3)) is None
    for bad in (0, 91, -1):
        with pytest.raises(ValueError):
            coordinates(bad)


# -- B2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ring", "first", "last"), [(1, 1, 6), (2, 7, 18), (3, 19, 36), (4, 37, 60), (5, 61, 90)]
)
def test_B2_rings_numbered_from_inside_out(ring, first, last):
    """B2: ring k has 6k cells and holds the numbers given by the rules."""
    numbers = [n for n in range(1, 91) if ring_of(n) == ring]
    assert numbers == list(range(first, last + 1))
    assert len(numbers) == 6 * ring


# -- B3 ---------------------------------------------------------------------------------------


def test_B3_consecutive_numbers_are_neighbours():
    """B3: n and n+1 always touch: the numbers form one continuous path."""
    for n in range(1, 90):
        assert n + 1 in neighbours(n), n
        assert distance(coordinates(n), coordinates(n + 1)) == 1


# -- B4 ---------------------------------------------------------------------------------------


def _turn(a: Coord, b: Coord) -> int:
    """Sign of the rotation from cell a to cell b round the centre (cross product in axial
    coordinates; the sign is the same as in Cartesian ones)."""
    return a[0] * b[1] - a[1] * b[0]


def _ring_direction(ring: int) -> int:
    numbers = [n for n in range(1, 91) if ring_of(n) == ring]
    signs = {
        (_turn(coordinates(a), coordinates(b)) > 0) - (_turn(coordinates(a), coordinates(b)) < 0)
        for a, b in itertools.pairwise(numbers)
    }
    assert len(signs) == 1, f"ring {ring} changes direction"
    return signs.pop()


def test_B4_rings_alternate_direction():
    """B4: a meander, not a spiral: each ring runs the other way round from the ring inside."""
    directions = [_ring_direction(k) for k in range(1, 6)]
    assert all(d != 0 for d in directions)
    for inner, outer in itertools.pairwise(directions):
        assert inner == -outer
    assert directions[0] != directions[1]  # a spiral would keep one direction


def test_B4_each_ring_is_walked_once_round():
    """B4: each ring's numbers go once round it, ending next to where it started."""
    for k in range(1, 6):
        numbers = [n for n in range(1, 91) if ring_of(n) == k]
        assert distance(coordinates(numbers[0]), coordinates(numbers[-1])) == 1


# -- B5 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", [(12, 11, 30, 44, 81), (89, 38, 39, 40, 41)])
def test_B5_rule_book_example_lines_are_straight(line):
    """B5: the rule book's two example winning lines are straight lines on our board."""
    assert is_straight_line(line)
    assert line in windows(5) or tuple(reversed(line)) in windows(5)


def test_B5_a_bent_run_is_not_a_line():
    """B5/B7: consecutive numbers are neighbours but turn at a ring's corner: not a line."""
    assert not is_straight_line((1, 2, 3, 4, 5))
    assert not is_straight_line((12, 11, 30, 44, 80))


# -- B6 ---------------------------------------------------------------------------------------


def _images(numbering: tuple[Coord, ...]) -> set[tuple[Coord, ...]]:
    """The 12 images of a numbering under the rotations and reflections of the hexagon."""

    def rotate(cell: Coord) -> Coord:  # 60° about the centre, in axial coordinates
        q, r = cell
        return (-r, q + r)

    def reflect(cell: Coord) -> Coord:
        q, r = cell
        return (r, q)

    found = set()
    for mirrored in (False, True):
        cells = [reflect(c) for c in numbering] if mirrored else list(numbering)
        for _ in range(6):
            cells = [rotate(c) for c in cells]
            found.add(tuple(cells))
    return found


def test_B6_pinned_numbering_is_derived_and_unique_up_to_symmetry():
    """B6: the search over ring starts and directions finds exactly 12 numberings; ours is one
    of them, and the 12 are its 6 rotations × 2 reflections (one layout)."""
    derived = derive_numberings()
    assert len(derived) == 12
    assert COORDINATES in derived
    assert set(derived) == _images(COORDINATES)


def test_B6_numbering_symmetries_preserve_the_rules():
    """B6: every image of the pinned numbering satisfies B3 (a sanity check of the symmetry
    maps used above)."""
    for image in _images(COORDINATES):
        assert all(distance(a, b) == 1 for a, b in itertools.pairwise(image))


# -- B7 ---------------------------------------------------------------------------------------


def test_B7_windows_are_straight_runs_of_five_along_the_three_axes():
    """B7: every window is 5 contiguous cells along one axis; none contains the centre."""
    all_windows = windows(5)
    assert len(all_windows) == len(set(all_windows))
    for window in all_windows:
        cells = [coordinates(n) for n in window]
        step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
        assert step in AXES
        assert is_straight_line(window)
    # Count them from first principles: every start cell and axis whose 5 cells are spaces.
    expected = 0
    for cell in all_cells():
        for dq, dr in AXES:
            line = [(cell[0] + i * dq, cell[1] + i * dr) for i in range(5)]
            if all(space_at(c) is not None for c in line):
                expected += 1
    assert len(all_windows) == expected


def test_B7_the_centre_breaks_a_line():
    """B7: the spaces either side of the centre are not contiguous: 7, 6 | 3, 13, 26 lie on one
    row through the centre but are no line of five."""
    row = (7, 6, 3, 13, 26)
    assert [coordinates(n) for n in row] == [(-2, 0), (-1, 0), (1, 0), (2, 0), (3, 0)]
    assert row not in windows(5)
    assert not any(set(row) <= set(w) for w in windows(5))
    cells = [FREE] * 91
    for n in row:
        cells[n] = 0
    assert line_through(cells, 3, 0) == (3, 13, 26)
    assert line_through(cells, 6, 0) == (7, 6)
    # The runs through the centre's row stop at it.
    assert (88, 38, 35, 7, 6) in runs()
    assert (3, 13, 26, 50, 73) in runs()


def test_B7_line_through_finds_five_or_more_along_any_axis():
    """B7: a line is 5 *or more* in a row; line_through returns the whole run in order."""
    for axis_run in runs():
        if len(axis_run) < 6:
            continue
        cells = [FREE] * 91
        for n in axis_run[:6]:
            cells[n] = 1
        assert line_through(cells, axis_run[2], 1) == axis_run[:6]
        assert line_through(cells, axis_run[2], 0) == (axis_run[2],)


def test_B7_neighbours_match_directions():
    """B7: the six directions are the neighbours; the three axes are half of them."""
    for n in range(1, 91):
        q, r = coordinates(n)
        expected = {space_at((q + dq, r + dr)) for dq, dr in DIRECTIONS} - {None}
        assert neighbours(n) == expected
    assert {(-dq, -dr) for dq, dr in AXES} | set(AXES) == set(DIRECTIONS)


def test_board_module_has_no_mutable_public_layout():
    """B6: the layout is pinned data (tuples), so nothing can change the board under a game."""
    assert isinstance(board.COORDINATES, tuple)
    assert all(isinstance(cell, tuple) for cell in board.COORDINATES)
