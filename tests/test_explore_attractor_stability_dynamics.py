"""Tests for explore.attractor_stability.dynamics: figures built from dynamics results."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import attractor as at
from assocmem import explore
from assocmem.explore._layout import legend_on_top
from assocmem.explore.attractor_stability import dynamics as plots

BASIN_KW = {"N": 60, "eps_grid": (1e-3, 0.1, 1.0), "kicks": 1, "T": 40.0}


@pytest.fixture(scope="module")
def runs():
    net = at.pinv_weights(at.sample_patterns(80, 4, 1.0, rng=0), 1.0, 1.0)
    stable = at.kick_experiment(net, 0, [0.01, 0.1, 0.01], ["random", "random", "pattern"], T=30.0)
    supra = at.pinv_weights(at.sample_patterns(200, 20, 1.0, rng=0), 1.0, 1.5)
    blown = at.kick_experiment(supra, 0, [0.01, 0.01], ["pattern", "other"], T=80.0)
    return stable, blown


@pytest.fixture(scope="module")
def curves():
    return [
        at.basin_curve(alpha=a, direction=d, **BASIN_KW)
        for a in (0.05, 0.3)
        for d in ("random", "other")
    ]


class TestPlotKicks:
    def test_traces_per_kick_and_reference_lines(self, runs):
        stable, blown = runs
        fits = [at.decay_rate(stable), None]
        fig = plots.plot_kicks([stable, blown], fits=fits)
        assert isinstance(fig, go.Figure)
        kicks = [t for t in fig.data if t.name.endswith(("kick, ε = 0.01", "kick, ε = 0.1"))]
        assert len(kicks) == 5
        # first panel: kick lines, the abscissa slope, the 3 fitted lines
        first = [t for t in fig.data if t.xaxis == "x"]
        assert sum(t.name == "least-squares fit of log d" for t in first) == 3
        slope = next(t for t in first if t.name.startswith("slope of the abscissa"))
        ratio = np.log(slope.y[1] / slope.y[0]) / (slope.x[1] - slope.x[0])
        assert ratio == pytest.approx(stable.abscissa)
        # second panel: a blow-up marker where each blown run stopped, not at the end of the batch
        cross = [t for t in fig.data if t.name == "run blew up (stopped here)"]
        assert blown.blew_up and len(cross) == 1
        np.testing.assert_array_equal(cross[0].x, blown.t_stop[blown.blown])
        assert fig.layout.yaxis.type == "log" and fig.layout.yaxis2.type == "log"
        assert legend_on_top(fig)  # legend above the plot

    def test_colours_follow_direction_and_page_weight(self, runs):
        stable, blown = runs
        fig = plots.plot_kicks(stable, titles=["(a)"])
        pattern = next(t for t in fig.data if t.name.startswith("pattern"))
        assert pattern.line.color == "#ff7f0e"  # λ_mem colour
        assert all(len(t.x) <= 401 for t in fig.data)
        other = plots.plot_kicks(blown)
        assert any(t.name.startswith("other") for t in other.data)
        assert "n = 1.5" in other.layout.annotations[0].text

    def test_bad_input(self, runs):
        with pytest.raises(ValueError, match="fits"):
            plots.plot_kicks(list(runs), fits=[None])
        with pytest.raises(ValueError, match="titles"):
            plots.plot_kicks(list(runs), titles=["only one"])


class TestPlotBasins:
    def test_curves_markers_and_abscissa_lines(self, curves):
        fig = plots.plot_basins(curves)
        frac = [t for t in fig.data if t.xaxis == "x" and t.mode == "lines+markers"]
        rate = [t for t in fig.data if t.xaxis == "x2"]
        assert len(frac) == len(rate) == 4
        for c, t in zip(curves, frac, strict=True):
            np.testing.assert_allclose(t.y, c.recovered)
            assert f"λ* = {c.abscissa:+.3f}" in t.name
        radii = [t for t in fig.data if t.mode == "markers"]
        assert len(radii) == sum(c.radius > 0 for c in curves)
        hl = [s for s in fig.layout.shapes if s.yref == "y2"]
        assert sorted(s.y0 for s in hl) == sorted([c.abscissa for c in curves] + [0.0])
        assert fig.layout.xaxis.type == "log"

    def test_single_curve_and_static_exploration(self):
        fig = explore.static_figure(
            at.basin_curve,
            plots.plot_basins,
            [
                explore.Slider("alpha", 0.05, 0.3, values=(0.05, 0.3)),
                explore.Choice("direction", ("random", "other")),
            ],
            BASIN_KW,
        )
        per_step = len(plots.plot_basins(at.basin_curve(alpha=0.05, **BASIN_KW)).data)
        assert len(fig.layout.sliders) == 2 and len(fig.layout.sliders[0].steps) == 2
        assert len(fig.data) >= 2 * 2 * (per_step - 1)
        assert len(fig.layout.updatemenus[0].buttons) == 2


class TestPlotFluctuations:
    def test_measured_vs_lyapunov(self):
        net = at.pinv_weights(at.sample_patterns(40, 2, 1.0, rng=0), 1.0, 1.0)
        res = [
            at.stationary_covariance(net, mu, 0.01, T=20.0, burn_in=5.0, walkers=2) for mu in (1, 0)
        ]
        fig = plots.plot_fluctuations(res)
        emp, lyap, slow, theory = fig.data
        order = sorted(res, key=lambda f: f.alpha)
        np.testing.assert_allclose(emp.y, [f.total_var_emp / f.eta**2 for f in order])
        np.testing.assert_allclose(lyap.y, [f.total_var_pred / f.eta**2 for f in order])
        np.testing.assert_allclose(slow.x, [abs(f.abscissa) for f in order])
        np.testing.assert_allclose(theory.y * 2 * theory.x, 1.0)
        assert fig.layout.xaxis2.type == "log" and fig.layout.yaxis2.type == "log"
        single = plots.plot_fluctuations(res[0])
        assert len(single.data) == 4
