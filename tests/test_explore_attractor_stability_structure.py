"""Tests for explore.attractor_stability.structure: figures built from structure results."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import attractor as at
from assocmem import explore
from assocmem.explore.attractor_stability import structure as plots


class TestPlotActivation:
    def test_traces_per_curve(self):
        curves = [at.activation_curves(1.0, n, points=21) for n in (1.0, 1.5)]
        fig = plots.plot_activation(curves)
        assert isinstance(fig, go.Figure)
        assert len(fig.data) == 1 + 3 * 2  # hard power law + (g, noisy, slope) per curve
        np.testing.assert_allclose(fig.data[1].y, curves[0].g)
        assert fig.layout.xaxis2 is not None

    def test_static_exploration(self):
        ex = explore.static_figure(
            at.activation_curves,
            plots.plot_activation,
            [
                explore.Slider("sigma", 0.05, 10.0, steps=3, log=True),
                explore.Choice("n", (0.5, 1.0)),
            ],
            {"points": 11},
        )
        assert len(ex.layout.sliders) == 2 and len(ex.layout.sliders[0].steps) == 3
        assert len(ex.data) == 3 * 2 * 4


class TestPlotPatternDensity:
    def test_sparse_arrow_and_log_panel(self):
        fig = plots.plot_pattern_density(at.pattern_density(1.0, f=0.4, N=1000))
        assert fig.layout.xaxis2.type == "log" and fig.layout.yaxis2.type == "log"
        arrows = [a for a in fig.layout.annotations if a.showarrow]
        assert len(arrows) == 1 and "0.60" in arrows[0].text

    def test_several_cvs(self):
        fig = plots.plot_pattern_density([at.pattern_density(c, N=1000) for c in (0.5, 2.0)])
        assert len(fig.data) == 2 * 4
        assert not [a for a in fig.layout.annotations if a.showarrow]


class TestPlotRecallDemo:
    def test_blow_up_is_marked(self):
        demos = [at.recall_demo(0.1, 1.0, N=100, T=20.0), at.recall_demo(0.1, 1.5, N=100, T=80.0)]
        fig = plots.plot_recall_demo(demos)
        assert fig.layout.yaxis.type == "log"
        assert len(fig.data) == 2 + int(demos[1].trajectory.blew_up)
        assert f"{demos[0].abscissa:+.3f}" in fig.data[0].name


class TestPlotWeightSweep:
    def test_three_panels_with_theory(self):
        sw = [
            at.weight_load_sweep(150, 1.0, 1.0, 1.0, [0.2, 0.6], zero_diag=z) for z in (True, False)
        ]
        fig = plots.plot_weight_sweep(sw)
        assert fig.layout.yaxis3.type == "log"
        names = {t.name for t in fig.data if t.name}
        assert {"Eq. 7 (paper)", "Eq. 6 (paper)"} <= names
        eq6 = next(t for t in fig.data if t.name == "Eq. 6 (paper)")
        np.testing.assert_allclose(eq6.y, sw[0].row_norm_sq_eq6)


class TestPlotNonNormality:
    def test_reference_markers(self):
        sw = [
            at.weight_load_sweep(100, cv, 1.0, 1.0, [0.2, 0.4], henrici=True) for cv in (0.5, 1.0)
        ]
        fig = plots.plot_non_normality(sw, {1.0: ((0.1, 0.3), (0.09, 0.11), (0.07, 0.14))})
        assert len(fig.data) == 2 * 2 + 2
        diamonds = [t for t in fig.data if t.mode == "markers"]
        assert [list(t.x) for t in diamonds] == [[0.1, 0.3], [0.1, 0.3]]


class TestPlotWeightSnapshot:
    def test_histogram_scatter_and_equal_aspect(self):
        snap = at.weight_snapshot(0.3, 1.0, N=80, pairs=40)
        fig = plots.plot_weight_snapshot(snap)
        assert [t.type for t in fig.data] == ["bar", "scatter", "scatter"]
        assert sum(fig.data[0].y) == 80 and len(fig.data[1].x) == 40
        assert fig.layout.yaxis2.scaleanchor == "x2"
        assert f"{snap.stats.asymmetry:.3f}" in fig.layout.title.text

    def test_static_exploration_over_alpha_and_cv(self):
        ex = explore.static_figure(
            at.weight_snapshot,
            plots.plot_weight_snapshot,
            [explore.Slider("alpha", 0.05, 0.9, steps=3), explore.Choice("cv", (0.5, 2.0))],
            {"N": 60, "pairs": 20},
        )
        assert len(ex.data) == 3 * 2 * 3
        titles = {s.args[1]["title.text"] for s in ex.layout.sliders[0].steps}
        assert len(titles) == 3


def test_bad_input_is_rejected_by_the_compute_functions():
    with pytest.raises(ValueError, match="alpha"):
        at.weight_snapshot(1.5, 1.0)
