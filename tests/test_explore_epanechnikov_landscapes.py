"""Tests for explore.epanechnikov.landscapes (plotly figures of the Epanechnikov chapter).

The figures are checked for what they must show (one marker per minimum, index sets in the
hover, grey where unsupported), for a trace structure that does not depend on the result (so the
live widget can update in place and the book slider can switch steps), and for validity against
plotly's schema.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.dense_am.landscape import (
    count_curve,
    landscape_1d,
    landscape_2d,
    minima_counts_1d,
    separation_curves,
    thm1_experiment,
    thm1_sweep,
)
from assocmem.explore.epanechnikov import landscapes as plots


def _trace(fig: go.Figure, name: str) -> go.Scatter:
    """The trace whose name starts with ``name``."""
    return next(t for t in fig.data if (t.name or "").startswith(name))


def _valid(fig: go.Figure) -> go.Figure:
    """Rebuild the figure with plotly's validation (raises on an invalid property)."""
    return go.Figure(fig.to_dict())


class TestPlotLandscape1D:
    def test_one_marker_per_minimum_with_index_set_in_hover(self):
        # Two points inside the window 2 < β < 8 (note §2.9 item 1): 2 stored, 1 emergent.
        fig = plots.plot_landscape_1d(landscape_1d("two points", 5.0))
        assert len(_trace(fig, "stored").x) == 2
        star = _trace(fig, "emergent")
        assert list(star.x) == [0.5] and star.text[0] == "K = {0, 1}"
        assert len(_trace(fig, "LSE min").x) == 2

    def test_unsupported_region_is_shaded_grey(self):
        fig = plots.plot_landscape_1d(landscape_1d("two points", 20.0))
        rects = [s for s in fig.layout.shapes if s.type == "rect"]
        assert len(rects) == 3  # left of 0, between the balls, right of 1
        assert all(s.fillcolor == plots.GREY for s in rects)

    def test_infinite_energy_is_drawn_as_a_gap(self):
        fig = plots.plot_landscape_1d(landscape_1d("two points", 20.0))
        y = np.asarray(_trace(fig, "LSR").y, dtype=float)
        assert np.isnan(y).any() and not np.isinf(y).any()

    def test_same_trace_structure_for_any_result(self):
        a = plots.plot_landscape_1d(landscape_1d("two points", 1.0))
        b = plots.plot_landscape_1d(landscape_1d("six random", 80.0, eps=0.01), density=True)
        assert [t.type for t in a.data] == [t.type for t in b.data]
        _valid(a), _valid(b)


class TestPlotLandscape2D:
    def test_markers_and_hover_for_the_triangle(self):
        # R = 1.2: all 7 subsets are minima (note §2.9 item 2).
        fig = plots.plot_landscape_2d(landscape_2d("triangle", 2 / 1.2**2, n_grid=30))
        assert len(_trace(fig, "stored").x) == 3
        star = _trace(fig, "emergent")
        assert len(star.x) == 4
        assert any(t.startswith("K = {0, 1, 2}") for t in star.text)

    def test_unsupported_points_are_gaps_on_grey(self):
        L = landscape_2d("random 10", 200.0, n_grid=30)
        fig = plots.plot_landscape_2d(L)
        z = np.asarray(fig.data[0].z, dtype=float)
        np.testing.assert_array_equal(np.isnan(z), np.isinf(L.energy))
        assert fig.layout.plot_bgcolor == plots.GREY

    def test_active_colouring_shows_the_counts(self):
        L = landscape_2d("square", 2 / 0.8**2, n_grid=25)
        fig = plots.plot_landscape_2d(L, color="active")
        z = np.asarray(fig.data[0].z, dtype=float)
        np.testing.assert_array_equal(np.nan_to_num(z, nan=0.0), L.n_active)

    def test_trajectories_are_drawn(self):
        L = landscape_2d("triangle", 2 / 1.2**2, n_grid=20, starts=[[0.3, 0.3], [-1.5, 0.2]])
        fig = plots.plot_landscape_2d(L)
        assert len(_trace(fig, "starts").x) == 2
        assert np.isnan(np.asarray(_trace(fig, "Alg. 1").x, dtype=float)).sum() == 1

    def test_figure_is_valid_and_structure_is_fixed(self):
        a = plots.plot_landscape_2d(landscape_2d("triangle", 1.0, n_grid=20))
        b = plots.plot_landscape_2d(landscape_2d("random 25", 300.0, n_grid=20, starts=[0, 0]))
        assert [t.type for t in a.data] == [t.type for t in b.data]
        _valid(a), _valid(b)

    def test_works_as_a_book_exploration(self):
        ex = explore.explore(
            landscape_2d,
            plots.plot_landscape_2d,
            [
                explore.Slider("beta", 2.0, 50.0, steps=2, log=True),
                explore.Choice("memories", ("triangle", "square")),
            ],
            n_grid=15,
        )
        assert len(ex.figure.layout.sliders) == 2
        assert len(ex.figure.data) == 4 * len(
            plots.plot_landscape_2d(landscape_2d("triangle", 2.0, n_grid=15)).data
        )

    def test_bad_colour_is_refused(self):
        with pytest.raises(ValueError, match="color"):
            plots.plot_landscape_2d(landscape_2d("triangle", 1.0, n_grid=10), color="hot")


class TestPlotSeparation:
    def test_two_curves_per_beta_per_panel_and_radius_lines(self):
        fig = plots.plot_separation(separation_curves([0.5, 2.0, 5.0], s_min=-2.0))
        assert len(fig.data) == 12  # 3 β × 2 kinds × 2 panels
        assert len(fig.layout.shapes) == 3  # R = 2, 1, 0.632 all within the distance axis
        _valid(fig)

    def test_single_kind(self):
        fig = plots.plot_separation(separation_curves(1.0, kind="lse"))
        assert len(fig.data) == 2 and len(fig.layout.shapes) == 0


class TestPlotCountCurve:
    def test_four_series_and_threshold_lines(self):
        c = count_curve([[0.0], [1.0]], [1.5, 3.0, 9.0])
        fig = plots.plot_count_curve(c, {"2/a²": 2.0, "8/a²": 8.0})
        assert [t.name for t in fig.data] == [
            "LSR minima",
            "LSR stored",
            "LSR emergent",
            "LSE minima",
        ]
        assert list(fig.data[0].y) == [1, 3, 2]
        assert len(fig.layout.shapes) == 2
        _valid(fig)


class TestPlotMinimaCounts1D:
    def test_ratio_lines(self):
        res = minima_counts_1d(M=3, n_sets=2, betas=[5.0, 50.0])
        fig = plots.plot_minima_counts_1d(res)
        assert len(fig.data) == 2
        assert max(fig.data[0].y) <= 1.0
        _valid(fig)


class TestPlotThm1:
    def test_green_and_red_starts_add_up(self):
        res = thm1_experiment("random 10", 0.7, n_per_basin=20)
        fig = plots.plot_thm1(res)
        n_ok = len(_trace(fig, "retrieved").x)
        n_bad = len(_trace(fig, "not retrieved").x)
        assert n_ok + n_bad == 200
        assert n_ok == int(np.sum(res.retrieved))
        _valid(fig)

    def test_sweep_plot(self):
        fig = plots.plot_thm1_sweep(thm1_sweep("random 10", [0.3, 0.7], n_per_basin=10))
        assert list(_trace(fig, "Alg. 1").x) == [0.3, 0.7]
        _valid(fig)
