"""Tests for explore.attractor_stability.sparse: figures built from sparse-pattern results."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import attractor as at
from assocmem import explore
from assocmem.explore.attractor_stability import sparse as as_sparse


@pytest.fixture(scope="module")
def profile():
    return at.kink_profile(0.3, 0.0, N=40)


class TestPlotCapacity:
    def test_two_panels_with_reference(self):
        curve = at.capacity_curve(np.geomspace(0.01, 1.0, 10))
        fig = as_sparse.plot_capacity(curve, reference=([0.5], [1.4375]))
        assert isinstance(fig, go.Figure)
        assert len(fig.data) == 6
        assert fig.layout.xaxis2.type == "log" and fig.layout.yaxis2.type == "log"

    def test_without_reference(self):
        fig = as_sparse.plot_capacity(at.capacity_curve([0.1, 0.5]))
        assert len(fig.data) == 4


class TestPlotStorage:
    def test_one_curve_and_alpha_c_line_per_scan(self):
        scans = [at.storage_fraction(20, f, [0.5, 1.0], rows=3) for f in (0.3, 0.6)]
        fig = as_sparse.plot_storage(scans)
        assert len(fig.data) == 4
        assert fig.data[1].line.dash == "dash"


class TestPlotStability:
    def test_two_panels(self):
        scans = [at.sparse_stability_scan(30, 0.3, [0.1, 0.2], theta=-0.5, kappa=0.1, patterns=1)]
        fig = as_sparse.plot_stability(scans)
        assert len(fig.data) == 2 and fig.data[1].xaxis == "x2"


class TestPlotThreshold:
    def test_best_theta_marked(self):
        scan = at.sparse_threshold_scan(30, 0.3, 0.2, [-0.5, 0.0], patterns=1)
        fig = as_sparse.plot_threshold(scan)
        assert fig.data[1].x[0] == scan.best_theta


class TestPlotKinkProfile:
    def test_panels_equal_aspect(self, profile):
        fig = as_sparse.plot_kink_profile(profile)
        assert len(fig.data) == 3
        assert fig.layout.yaxis2.scaleanchor == "x2"
        assert len(fig.data[0].y) == profile.n_silent

    def test_exploration_steps(self):
        ex = explore.explore(
            at.kink_profile,
            as_sparse.plot_kink_profile,
            [explore.Slider("f", 0.2, 0.4, steps=2), explore.Choice("kappa", (0.0, 0.1))],
            N=30,
        )
        assert len(ex.figure.layout.sliders[0].steps) == 2
