"""Tests for explore.factual_recall.hebbian: figures built from Hebbian results (paper App. D)."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.explore.factual_recall import hebbian as plots
from assocmem.linear_memory import hebbian as hb


@pytest.fixture(scope="module")
def hist():
    return hb.hebbian_histogram(0.2, 50, bins=30)


@pytest.fixture(scope="module")
def sweeps():
    return [hb.hebbian_sweep(d, [0.05, 0.1, 0.3], reps=2) for d in (50, 100)]


class TestPlotScoreHistogram:
    def test_bars_curves_and_extreme_value_line(self, hist):
        fig = plots.plot_score_histogram(hist)
        assert isinstance(fig, go.Figure)
        assert [t.type for t in fig.data] == ["bar", "bar", "scatter", "scatter", "scatter"]
        # pre-binned: one bar per bin, never the raw scores
        assert len(fig.data[0].x) == len(fig.data[1].x) == 30
        np.testing.assert_allclose(fig.data[1].y, hist.target_density)
        (line,) = fig.layout.shapes
        assert line.x0 == line.x1 == pytest.approx(math.sqrt(2 * math.log(hist.p)))
        assert fig.layout.barmode == "overlay"
        assert f"{hist.accuracy:.3f}" in fig.layout.title.text

    def test_static_exploration_over_alpha_and_d(self):
        ex = explore.static_figure(
            hb.hebbian_histogram,
            plots.plot_score_histogram,
            [explore.Slider("alpha", 0.02, 1.0, steps=3, log=True),
             explore.Choice("d", (50, 100))],
            {"bins": 20, "n_non_target": 500},
        )
        assert len(ex.data) == 3 * 2 * 5
        assert len(ex.layout.sliders) == 2 and len(ex.layout.sliders[0].steps) == 3
        # every step moves the √(2 ln p) line and the x range with p
        xs = {s.args[1]["shapes"][0]["x0"] for s in ex.layout.sliders[0].steps}
        assert len(xs) == 3


class TestPlotRateCurves:
    def test_three_panels_with_thresholds(self):
        curves = [hb.hebbian_rate_curve(p, n=9) for p in (1e3, 1e12)]
        fig = plots.plot_rate_curves(curves)
        assert fig.layout.yaxis.type == "log" and fig.layout.yaxis2.type == "log"
        assert fig.layout.xaxis3 is not None
        verticals = sorted({s.x0 for s in fig.layout.shapes if s.x0 == s.x1})
        assert verticals == [0.125, 0.5]
        # one inf J trace, five traces per p, and the two dotted lines' legend entries
        assert len(fig.data) == 1 + 5 * 2 + 2
        keys = [t for t in fig.data if t.name.startswith("α = ")]
        assert [t.line.dash for t in keys] == ["dot", "dot"]
        # no "1/8", "1/2" labels inside the panels, where the curves would cross them
        assert not [a for a in fig.layout.annotations if a.text in ("1/8", "1/2")]
        # every subplot title keeps the font size of the others (at most two lines)
        assert {a.font.size for a in fig.layout.annotations} == {15}
        markers = [t for t in fig.data if t.mode == "markers"]
        assert [t.x[0] for t in markers] == [c.model_threshold for c in curves]

    def test_zero_rate_is_not_drawn_on_log_axis(self):
        fig = plots.plot_rate_curves(hb.hebbian_rate_curve(1e4, n=9))
        rate = fig.data[0]
        assert rate.y[-1] is None or rate.y[-1] < 1e-3  # α = 1 > 1/2: inf J = 0
        assert fig.layout.yaxis.range[0] == -3

    def test_static_exploration_over_p(self):
        ex = explore.static_figure(
            hb.hebbian_rate_curve,
            plots.plot_rate_curves,
            [explore.Slider("p", 1e2, 1e12, steps=3, log=True)],
            {"n": 5},
        )
        assert len(ex.data) == 3 * 8 and len(ex.layout.sliders[0].steps) == 3


class TestPlotModelVsSimulation:
    def test_traces_per_d_and_model(self, sweeps):
        fig = plots.plot_model_vs_simulation(sweeps)
        # 3 legend entries for the styles; per d: 3 models × 2 panels + 2 marker traces
        assert len(fig.data) == 3 + 2 * (3 * 2 + 2)
        sims = [t for t in fig.data if t.mode == "markers"]
        np.testing.assert_allclose(sims[0].y, sweeps[0].mean_accuracy)
        np.testing.assert_allclose(sims[1].y, sweeps[0].all_correct_fraction)
        assert {t.line.dash for t in fig.data if t.mode == "lines"} == {"solid", "dash", "dot"}

    def test_model_only_sweep_has_no_markers(self):
        fig = plots.plot_model_vs_simulation(hb.hebbian_sweep(400, [0.1, 0.5], reps=0),
                                             models=("row",))
        assert all(t.mode == "lines" for t in fig.data) and len(fig.data) == 1 + 2


class TestPlotModelTable:
    def test_rows_and_reference(self):
        table = [hb.hebbian_sweep(50, [0.125], reps=1), hb.hebbian_sweep(800, [0.5], reps=0)]
        fig = plots.plot_model_table(table, {(50, 0.125): (0.925, 0.999, 0.856)})
        cells = fig.data[0].cells.values
        assert list(cells[0]) == ["50", "800"] and list(cells[2]) == ["73", "30948"]
        assert list(cells[3]) == ["0.925", "—"]
        assert cells[6][1] == "not simulated"
        assert cells[8][1] == f"{table[1].model_accuracy['finite_d'][0]:.3f}"
