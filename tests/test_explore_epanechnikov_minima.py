"""Tests for explore.epanechnikov.minima: figures built from emergence results."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.dense_am import emergence as em
from assocmem.dense_am.minima import beta_thresholds
from assocmem.explore.epanechnikov import minima as plots


@pytest.fixture(scope="module")
def sweep():
    return em.emergence_sweep(d=4, M=8, seed=0, n_beta=8, support_samples=500)


class TestPlotEmergenceSweep:
    def test_one_panel_has_four_traces_and_threshold_lines(self, sweep):
        fig = plots.plot_emergence_sweep(sweep)
        assert isinstance(fig, go.Figure)
        assert [t.name for t in fig.data] == [
            "total minima",
            "stored patterns retained",
            "novel minima",
            "supported fraction",
        ]
        # shapes at data values, their labels at log10 values (plotly.js log-axis convention)
        xs = {round(s.x0, 12) for s in fig.layout.shapes if s.type == "line" and s.x0 == s.x1}
        labels = {a.text: a.x for a in fig.layout.annotations}
        th = sweep.thresholds
        for x, label in (
            (th.single_minimum, "2/diam²"),
            (th.stored_exact, "2/r²"),
            (th.stored_only, "8/r²"),
        ):
            assert round(x, 12) in xs
            assert labels[label] == pytest.approx(np.log10(x), rel=1e-12)

    def test_zero_counts_become_gaps_on_log_axis(self, sweep):
        fig = plots.plot_emergence_sweep(sweep)
        novel = fig.data[2].y
        # at 8/r² only stored patterns remain: no novel minima, log(0) undefined
        assert sweep.n_novel[-1] == 0 and novel[-1] is None

    def test_global_window_is_shaded(self, sweep):
        fig = plots.plot_emergence_sweep(sweep)
        rects = [s for s in fig.layout.shapes if s.type == "rect"]
        assert len(rects) == len(plots._runs(sweep.global_window)) > 0

    def test_several_sweeps_side_by_side(self, sweep):
        other = em.emergence_sweep(d=2, M=6, seed=1, n_beta=6, support_samples=0)
        fig = plots.plot_emergence_sweep([sweep, other])
        assert len(fig.data) == 8
        assert fig.layout.xaxis2 is not None

    def test_static_exploration_over_m_and_d(self):
        ex = explore.static_figure(
            em.emergence_sweep,
            plots.plot_emergence_sweep,
            [explore.Slider("M", 4, 6, values=(4, 6), integer=True), explore.Choice("d", (2, 4))],
            {"seed": 0, "n_beta": 6, "support_samples": 0},
        )
        assert len(ex.data) == 2 * 2 * 4
        assert len(ex.layout.sliders) == 2


class TestPlotPolygonPuzzle:
    def test_circles_and_stars(self):
        res = em.polygon_minima(3, 1.2)
        fig = plots.plot_polygon_puzzle(res)
        circles = [s for s in fig.layout.shapes if s.type == "circle"]
        assert len(circles) == 3
        marked = sum(len(t.x) for t in fig.data if t.marker.symbol in ("star", "circle-open"))
        assert marked == 7
        assert "7 minima" in fig.layout.title.text


class TestPlotSimplexCounts:
    def test_traces(self):
        fig = plots.plot_simplex_counts(em.simplex_count_experiment([2, 3, 4]))
        assert list(fig.data[1].y) == [3, 7, 15]


class TestPlotProp2:
    def test_counterexample_figure(self):
        fig = plots.plot_prop2(em.prop2_counterexample())
        assert len(fig.data) == 5
        assert any("4/3" in t.name or "1.333" in t.name for t in fig.data)

    def test_needs_1d(self):
        chk = em.prop2_check([[0.0, 0.0], [1.0, 0.0]], beta=2.0, x=[0.4, 0.0])
        with pytest.raises(ValueError, match="1-D"):
            plots.plot_prop2(chk)


class TestPlotHullGradients:
    def test_one_line_per_pattern_plus_markers(self):
        hg = em.lse_hull_vertex_gradients([[-1.0], [0.0], [1.0]], [1.0, 10.0, 100.0])
        fig = plots.plot_hull_gradients(hg)
        assert len(fig.data) == 3 + 2
        assert len(fig.data[3].x) == 3  # the symmetric middle pattern is exactly 0 at every β


class TestPlotGridCounts:
    def test_three_traces_per_result(self):
        gs = [em.grid_minima_counts([5, 10], 1, 0.7), em.grid_minima_counts([3, 4], 2, 0.8)]
        fig = plots.plot_grid_counts(gs)
        # count, prediction, ratio per result, then one legend key for the dashed predictions
        assert len(fig.data) == 7
        key = fig.data[-1]
        assert key.line.dash == "dash" and key.showlegend is not False
        assert [t.showlegend for t in fig.data[:6:3]] == [None, None]

    def test_log_axis_ends_on_decades_around_the_data(self):
        gs = [em.grid_minima_counts([10, 20, 40], 1, 0.7), em.grid_minima_counts([5, 9], 2, 1.2)]
        fig = plots.plot_grid_counts(gs)
        lo, hi = fig.layout.yaxis.range
        values = np.concatenate([np.r_[g.counts, g.predicted] for g in gs])
        assert lo == int(lo) and hi == int(hi)
        assert 10**lo <= values.min() and values.max() <= 10**hi


class TestPlotBasinSurvey:
    def test_points_and_diagonal(self):
        xi = np.random.default_rng(0).random((8, 2))
        s = em.basin_survey(xi, 0.5 * beta_thresholds(xi).stored_exact, n_samples=5)
        fig = plots.plot_basin_survey(s)
        assert len(fig.data[0].x) == len(s.minima)
        assert "median ratio" in fig.layout.title.text


class TestPlotCapacityPanel:
    def test_histogram_and_curve(self):
        fig = plots.plot_capacity_panel(em.capacity_panel(4, 10, 0.3, n_trials=50))
        assert isinstance(fig.data[0], go.Histogram)
        assert len(fig.data[0].x) == 50
        assert fig.data[2].name.startswith("bound")


class TestPlotCollisionCurve:
    def test_traces(self):
        fig = plots.plot_collision_curves([em.collision_curve(2, 20, 50, rng=0)])
        assert len(fig.data) == 2


class TestPlotActiveSet:
    def test_histogram_and_band(self):
        a = em.active_set_experiment(2, 500, 100.0, n_queries=50, rng=0)
        fig = plots.plot_active_set(a)
        assert isinstance(fig.data[0], go.Histogram)
        lo, hi = fig.layout.xaxis.range
        # the axis fits the counts, the band edges are drawn where they fall inside it
        assert 0 <= lo <= a.samples.min() and a.samples.max() <= hi
        assert hi - lo < 2 * (a.samples.max() - a.samples.min()) + 10
        inside = sum(lo <= x <= hi for x in (a.band.lower, a.band.upper))
        assert len([s for s in fig.layout.shapes if s.type == "line"]) == 1 + inside
        assert f"{a.band.upper:.3g}" in fig.layout.annotations[1].text


class TestPlotEmergencePeaks:
    def test_traces(self):
        pk = em.emergence_peaks([2, 4], M=6, seeds=[0, 1], support_samples=200)
        fig = plots.plot_emergence_peaks(pk)
        # peak per seed, peak median, stored fraction, support fraction
        assert len(fig.data) == 4
        assert len(fig.data[0].x) == 4


class TestPlotCountBound:
    def test_traces(self):
        chk = em.count_bound_check(em.emergence_sweep(4, 8, seed=0, support_samples=0))
        fig = plots.plot_count_bound(chk)
        assert len(fig.data) == 2
