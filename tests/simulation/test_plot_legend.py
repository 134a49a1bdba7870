"""Issue 36: ``Simulation.plot()`` draws its legends (the fair share; the mean and the median) where
no bar is, with 2 players as with 4, in matplotlib and in Vega-Lite."""

from __future__ import annotations

import pytest

import maumau as mm

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def result(players: int):
    return mm.simulate("makao", players=["random", "heuristic", "heuristic", "random"][:players], games=200,
                       seed=3, executor="serial", progress=False)


def legends(fig):
    return [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_no_legend_covers_a_bar_or_a_text(players, lang):
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from maumau.text.i18n import t, use_language

    with use_language(lang):
        fig = result(players).plot().figure()
        fair = t("sim.fair")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found = legends(fig)
    assert fair in [text.get_text() for legend in found for text in legend.get_texts()]
    bars = [patch.get_window_extent(renderer) for ax in fig.axes for patch in ax.patches
            if isinstance(patch, Rectangle)]
    assert len(bars) > 2 * players
    lines = [line.get_window_extent(renderer) for ax in fig.axes  # the lines, the 95 % whiskers and their caps
             for line in [*ax.lines, *ax.collections]]
    lines = [box for box in lines if box.x0 <= box.x1]  # an empty collection has no box
    words = [text.get_window_extent(renderer) for ax in fig.axes
             for text in (ax.title, ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels(), *ax.get_yticklabels())
             if text.get_text()]
    for legend in found:
        box = legend.get_window_extent(renderer)
        assert not [bar for bar in bars if box.overlaps(bar)], f"{legend} covers a bar"
        assert not [line for line in lines if box.overlaps(line)], f"{legend} covers a line"
        assert not [word for word in words if box.overlaps(word)], f"{legend} covers a text"
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1 and fig.bbox.y0 <= box.y0, "cut off"
    plt.close(fig)


def test_the_legends_below_the_panels_mean_the_lines_in_them():
    fig = result(2).plot().figure()
    labels = [text.get_text() for legend in legends(fig) for text in legend.get_texts()]
    assert labels[0] == "fair share" and labels[1].startswith("mean ") and labels[2].startswith("median ")


@pytest.mark.parametrize("players", [2, 4])
def test_the_vega_lite_fair_share_stands_in_a_legend_outside_the_bars(players):
    """No text mark in the panel of the win rates (it stood at the foot of the fair-share line, over the
    last bar); the fair share is a legend below the panel, which Vega lays out beside the plot."""
    who = result(players).plot().spec["hconcat"][0]
    layers = list(who["layer"])
    while any("layer" in layer for layer in layers):
        layers = [inner for layer in layers for inner in layer.get("layer", [layer])]
    assert not [layer for layer in layers if (layer["mark"] if isinstance(layer["mark"], str)
                                              else layer["mark"]["type"]) == "text"]
    dashed = [layer["encoding"]["strokeDash"] for layer in layers if "strokeDash" in layer.get("encoding", {})]
    assert dashed and dashed[0]["legend"]["orient"] == "bottom" and dashed[0]["datum"] == "fair share"
