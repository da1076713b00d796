"""Tests for explore.factual_recall.basics: figures of fr-facts, fr-counting and fr-op-vs-dp."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem import linear_memory as lm
from assocmem.explore.factual_recall import basics as plots


@pytest.fixture(scope="module")
def snapshots():
    return [
        lm.score_snapshot(8, 10, 0),
        lm.score_snapshot(8, 10, rule="hebbian"),
        lm.score_snapshot(8, 10, 200),
    ]


class TestPlotScoreMaps:
    def test_three_panels_with_markers_for_every_row(self, snapshots):
        fig = plots.plot_score_maps(snapshots)
        assert isinstance(fig, go.Figure)
        heat = [t for t in fig.data if t.type == "heatmap"]
        assert len(heat) == 3 and fig.layout.xaxis3 is not None
        # rows are inputs, columns candidates (eq. (1), note pitfall 8), on a fixed ±4 scale
        np.testing.assert_allclose(np.asarray(heat[2].z), snapshots[2].normalised)
        assert {(t.zmin, t.zmax) for t in heat} == {(-4.0, 4.0)}
        assert [t.showscale for t in heat] == [False, False, True]
        for k, snap in enumerate(snapshots):
            marks = [t for t in fig.data if t.type == "scatter" and t.xaxis == heat[k].xaxis]
            assert sum(len(t.x) for t in marks) == snap.p  # one retrieved output per input
            hits = next(t for t in marks if t.name == "retrieved = target")
            assert len(hits.x) == round(snap.accuracy * snap.p)
        texts = [a.text for a in fig.layout.annotations]
        assert "10/10 facts recalled" in texts[2] and texts[0].startswith("random W")
        assert fig.layout.yaxis.range == (10.5, 0.5)  # row μ = 1 on top

    def test_single_snapshot(self, snapshots):
        fig = plots.plot_score_maps(snapshots[0])
        assert len([t for t in fig.data if t.type == "heatmap"]) == 1
        assert "α = 0.36" in fig.layout.title.text

    def test_works_as_a_book_exploration(self):
        ex = explore.static_figure(
            lm.score_snapshot,
            plots.plot_score_maps,
            [explore.Slider("steps", 0, 40, values=(0, 20, 40), integer=True),
             explore.Choice("p", (5, 12))],
            {"d": 6},
        )
        assert len(ex.layout.sliders) == 2 and len(ex.layout.sliders[0].steps) == 3
        assert len(ex.data) == 3 * 2 * 3  # heat-map and two marker traces per step
        assert sum(bool(t.visible) for t in ex.data) == 3

    def test_bad_input(self):
        with pytest.raises(TypeError, match="ScoreSnapshot"):
            plots.plot_score_maps([None])
        with pytest.raises(ValueError, match="snapshots"):  # an empty list is a bad value
            plots.plot_score_maps([])


class TestPlotCountingCurve:
    def test_three_curves_on_log_axes_and_bits_readout(self):
        curve = lm.counting_curve(0.5, 10, 1000, n=25)
        fig = plots.plot_counting_curve(curve)
        assert [t.name.split(":")[0] for t in fig.data] == [
            "naive", "p ln p = α d², α = 0.5", "p log₂ p = α d² (log₂ by mistake)",
        ]
        assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
        assert "0.72 bits per entry" in fig.layout.title.text
        np.testing.assert_array_equal(np.asarray(fig.data[1].y), curve.p)
        # fixed axis ranges, so that slider steps compare
        assert fig.layout.yaxis.range == (0.0, pytest.approx(math.log10(1000**2) + 0.1))

    def test_works_as_a_book_exploration(self):
        ex = explore.static_figure(
            lm.counting_curve, plots.plot_counting_curve,
            [explore.Slider("alpha", 0.05, 1.5, steps=4)], {"n": 10},
        )
        assert len(ex.data) == 4 * 3 and len(ex.layout.sliders[0].steps) == 4

    def test_bad_input(self):
        with pytest.raises(TypeError, match="CountingCurve"):
            plots.plot_counting_curve(lm.load_table([0.5], [10]))


class TestPlotLoadTable:
    def test_cells_and_mismatches(self):
        table = lm.load_table([0.5, 1.0], [15, 40])
        fig = plots.plot_load_table(table, [[32, 56], [158, 999]])
        cells = fig.data[0].cells
        assert list(cells.values[0]) == ["15", "40"] and list(cells.values[2]) == ["56", "283"]
        fills = cells.fill.color
        assert fills[2][1] != "white" and fills[1][0] == fills[1][1] == fills[2][0] == "white"

    def test_figure_as_tall_as_its_rows(self):
        # 24 px per row of numbers (no wrapping), the header (it has spaces) a little taller
        def area(ds):
            fig = plots.plot_load_table(lm.load_table([0.5, 1.0], ds))
            return fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
        small, large = area([15, 40]), area([15, 20, 30, 40, 50, 60, 80, 100, 150, 300, 500])
        assert large - small == 9 * 24
        assert 28 + 2 * 24 <= small <= 28 + 2 * 24 + 16

    def test_reference_shape_checked(self):
        table = lm.load_table([0.5, 1.0], [15, 40])
        with pytest.raises(ValueError, match="reference"):
            plots.plot_load_table(table, [[32, 56]])


class TestPlotFirstMoments:
    def test_ratios_with_error_bars(self):
        pairs = [lm.first_moment_pair(d, 3, draws=5_000) for d in (3, 6)]
        fig = plots.plot_first_moments(pairs)
        op, dp, key = fig.data
        # the dashed line at p⁻ᵖ is named in the legend, not by a label the markers could cover
        assert key.name.startswith("p⁻ᵖ") and key.line.dash == "dash" and not fig.layout.annotations
        assert op.name.startswith("original") and dp.name.startswith("decoupled")
        np.testing.assert_allclose(op.y, [pr.original.ratio for pr in pairs])
        np.testing.assert_allclose(
            op.error_y.array, [2 * pr.original.stderr * 27 for pr in pairs], rtol=1e-12
        )
        assert list(fig.layout.xaxis.ticktext) == ["d = 3, p = 3", "d = 6, p = 3"]
        assert fig.layout.shapes[0].y0 == 1.0

    def test_single_pair_is_described_in_the_title(self):
        pair = lm.first_moment_pair(4, 3, draws=2_000)
        fig = plots.plot_first_moments(pair)
        assert fig.layout.title.text.startswith("d = 4, p = 3: E V<sub>OP</sub> = ")
        assert fig.layout.xaxis.showticklabels is False

    def test_works_as_a_book_exploration(self):
        ex = explore.static_figure(
            lm.first_moment_pair, plots.plot_first_moments,
            [explore.Slider("d", 2, 30, values=(2, 10, 30), integer=True),
             explore.Choice("p", (3, 4))],
            {"draws": 2_000},
        )
        assert len(ex.data) == 3 * 2 * 3 and len(ex.layout.updatemenus[0].buttons) == 2

    def test_bad_input(self):
        with pytest.raises(TypeError, match="FirstMomentPair"):
            plots.plot_first_moments([lm.first_moment_mc(3, 3, draws=10)])
