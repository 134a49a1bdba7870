"""What a class sees: pictures (matplotlib, rendered with Agg) and the HTML of cards and states.

Readable means: no two texts of a picture cover each other, no text is smaller than 8 points,
and nothing is cut off at the edge of the figure.
"""

from __future__ import annotations

import itertools

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import maumau as mm  # noqa: E402
from maumau import graph as gr  # noqa: E402

SMALLEST = 8.0  # points


def texts(fig) -> list[tuple[Text, object]]:
    """Every visible, non-empty text of ``fig`` with its box on the canvas (the rounded box
    around it included), after a real draw with the Agg renderer."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found, candidates = [], list(fig.texts) + [t for t in (fig._suptitle,) if t is not None]
    for ax in fig.axes:
        candidates += [*ax.texts, ax.title, ax._left_title, ax._right_title]
        if ax.axison:  # tick labels of ticks in view (the locator may make some outside, never drawn)
            (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
            candidates += [t for t in ax.get_xticklabels() if x0 - 1e-9 <= t.get_position()[0] <= x1 + 1e-9]
            candidates += [t for t in ax.get_yticklabels() if y0 - 1e-9 <= t.get_position()[1] <= y1 + 1e-9]
            candidates += [ax.xaxis.label, ax.yaxis.label]
        if ax.get_legend() is not None:
            candidates += [*ax.get_legend().get_texts(), ax.get_legend().get_title()]
    for t in dict.fromkeys(candidates):
        if not t.get_visible() or not t.get_text().strip():
            continue
        patch = t.get_bbox_patch()
        found.append((t, patch.get_window_extent(renderer) if patch is not None else
                      Text.get_window_extent(t, renderer)))
    return found


def assert_readable(fig) -> None:
    found = texts(fig)
    assert found, "the picture has no text at all"
    small = [(t.get_text(), t.get_fontsize()) for t, _ in found if t.get_fontsize() < SMALLEST]
    assert not small, f"texts under {SMALLEST} pt: {small[:5]}"
    overlaps = [(a.get_text(), b.get_text()) for (a, box_a), (b, box_b) in itertools.combinations(found, 2)
                if box_a.overlaps(box_b)]
    assert not overlaps, f"{len(overlaps)} pairs of texts cover each other, e.g. {overlaps[:4]}"
    frame = fig.bbox
    cut = [t.get_text() for t, box in found
           if box.x0 < frame.x0 - 1 or box.x1 > frame.x1 + 1 or box.y0 < frame.y0 - 1 or box.y1 > frame.y1 + 1]
    assert not cut, f"texts cut off at the edge of the figure: {cut[:5]}"


@pytest.fixture(scope="module")
def phases() -> dict:
    """The phase machines notebook 06 draws."""
    return {name: gr.phase_graph(name, games=100, seed=1) for name in mm.variant_names()}


@pytest.mark.parametrize("name", mm.variant_names())
def test_a_phase_machine_has_readable_labels(phases, name):
    (ax,) = gr.draw_phases(phases[name])
    labels = [t.get_text() for t in ax.texts if t.get_text() and t.get_fontsize() == 8]
    assert labels or name == "makao", "the arrows carry the moves"
    assert_readable(ax.figure)
    plt.close("all")


def test_phase_machines_side_by_side_are_readable(phases):
    axes = gr.draw_phases(phases["makao"], phases["lite_macau"])
    assert len(axes) == 2 and axes[0].figure is axes[1].figure
    assert_readable(axes[0].figure)
    axes = gr.draw_phases(*phases.values())
    assert len(axes) == 4
    assert_readable(axes[0].figure)
    plt.close("all")


def test_phase_machines_in_axes_of_ones_own_are_readable(phases):
    """Notebook 06 used to hand draw_phases a 2×2 grid of its own: small panels, still no overlaps."""
    fig, axes = plt.subplots(2, 2, figsize=(14, 11))
    gr.draw_phases(*phases.values(), axes=axes.ravel())
    assert_readable(fig)
    plt.close("all")


def test_a_phase_keeps_its_place_and_phases_that_never_meet_share_one(phases):
    axes = gr.draw_phases(*phases.values())
    where = {}
    for ax in axes:
        for t in ax.texts:
            if t.get_bbox_patch() is not None and t.get_fontsize() > 8:
                lines = t.get_text().split("\n")
                name = " ".join(lines[:2]) if lines[0].endswith(":") else lines[0]
                where.setdefault(name, set()).add(t.get_position())
    assert all(len(places) == 1 for places in where.values())
    assert where["Ace extra play"] == where["Runde running"]
    plt.close("all")


def test_the_simulation_picture_is_readable_and_tells_identical_players_apart():
    result = mm.simulate("makao", players=["heuristic"] * 3, games=30, seed=2, executor="serial", progress=False)
    fig = result.plot()
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()][::-1][:3] == [
        "Heuristic() #1", "Heuristic() #2", "Heuristic() #3"]
    assert_readable(fig)
    plt.close("all")
