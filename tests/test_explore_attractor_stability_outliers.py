"""Tests for explore.attractor_stability.outliers: figures of the outliers-and-threshold section."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import attractor as at
from assocmem import explore
from assocmem.explore.attractor_stability import outliers as plots


@pytest.fixture(scope="module")
def scan():
    # Small networks: the figures, not the physics, are tested here.
    return at.theta_scan(120, 0.2, 1.0, 1.0, 1.0, [-1.0, 0.0, 1.0], seed=0, patterns=2)


class TestPlotThetaScan:
    def test_panels_and_traces(self, scan):
        fig = plots.plot_theta_scan(scan)
        assert isinstance(fig, go.Figure)
        names = [t.name for t in fig.data]
        assert names[0] == "Eq. 10 disc at θ*"
        # Default overlay: first, nearest-0 and last shifts.
        assert [n for n in names if n.startswith("θ − θ*")] == [
            "θ − θ* = -1.00",
            "θ − θ* = +0.00",
            "θ − θ* = +1.00",
        ]
        for name in (
            "λ<sub>ave</sub>, Eq. 12",
            "mean row sum of J",
            "2 × 2 refinement (ours)",
            "Eq. 10 edge at θ (artefact)",
            "empirical bulk edge",
        ):
            assert name in names
        row = next(t for t in fig.data if t.name == "mean row sum of J")
        assert np.allclose(row.y, scan.row_sum)
        assert fig.layout.yaxis.scaleanchor == "x"
        assert fig.layout.xaxis2.domain[0] > fig.layout.xaxis.domain[1]

    def test_untrusted_memory_outliers_are_hidden(self, scan):
        fig = plots.plot_theta_scan(scan, shown=[1])
        mem = next(t for t in fig.data if t.name.startswith("empirical λ<sub>mem</sub>"))
        assert len(mem.y) == int((scan.mem_corr > 0.8).sum())


class TestPlotMemoryOutliers:
    def test_columns_and_differences(self):
        scans = [at.theta_scan(150, 0.1, 1.0, 1.0, 1.5, [0.0], seed=s, patterns=3) for s in (0, 1)]
        fig = plots.plot_memory_outliers(scans, ["a", "b"])
        ys = np.concatenate([t.y for t in fig.data])
        expected = np.concatenate([s.lambda_mem[0].real - s.lambda_mem_theory[0] for s in scans])
        assert np.allclose(np.sort(ys), np.sort(expected))
        assert {x for t in fig.data for x in t.x} == {"a", "b"}


class TestPlotThresholdWindow:
    def test_band_bounds_and_theta_star(self):
        w = at.threshold_window(1.0, 1.0, np.linspace(0.6, 2.0, 15))
        fig = plots.plot_threshold_window(w)
        names = [t.name for t in fig.data]
        assert "θ*<sub>bulk</sub> (Eq. 16)" in names and "allowed θ (Eqs. 17, 18)" in names
        star = next(t for t in fig.data if t.name == "θ*<sub>bulk</sub> (Eq. 16)")
        assert np.allclose(star.y, w.theta_star)
        outside = next(t for t in fig.data if t.name == "θ* outside the window")
        assert len(outside.x) == int((~w.star_allowed).sum())
        lo, hi = fig.layout.yaxis.range
        assert lo < w.theta_star.min() and hi > w.theta_star.max()


class TestPlotOutlierView:
    def test_markers_and_lines(self):
        v = at.outlier_view(0.5, 1.5, N=120, alpha=0.2)
        fig = plots.plot_outlier_view(v)
        names = [t.name for t in fig.data]
        assert "eigenvalues of J<sub>μ</sub>" in names and "96 eigenvalues at −1" in names
        xs = [s.x0 for s in fig.layout.shapes]
        assert v.lambda_ave_theory[0] in xs and v.lambda_mem_theory[0] in xs
        assert fig.layout.yaxis.scaleanchor == "x"
        assert "n = 1.5" in fig.layout.title.text

    def test_exploration_builds_with_slider_and_menu(self):
        ex = explore.explore(
            at.outlier_view,
            plots.plot_outlier_view,
            [explore.Slider("theta_shift", -1.0, 1.0, steps=3), explore.Choice("n", (1.0, 1.5))],
            N=100,
            alpha=0.2,
        )
        fig = ex.figure
        assert len(fig.layout.sliders) == 2  # one slider per dropdown option
        assert len(fig.layout.sliders[0].steps) == 3
