"""Tests for explore.attractor_stability.loads: figures of assocmem.attractor.loads results."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import attractor as at
from assocmem import explore
from assocmem.explore._layout import legend_on_top
from assocmem.explore._live import figure_message
from assocmem.explore.attractor_stability import loads as plots


@pytest.fixture(scope="module")
def view():
    return at.phase_view(1.0, n_points=31, sigma_points=11)


@pytest.fixture(scope="module")
def comparison():
    cases = [(1.0, 1.0, 1.0), (2.0, 1.0, 1.0), (1.0, 1.0, 1.5), (1.0, 3.0, 0.75)]
    return at.alpha_s_comparison(cases, N=150, alphas=[0.05, 0.15, 0.3, 0.45, 0.6], patterns=2)


@pytest.fixture(scope="module")
def scan():
    return at.transition_scan(Ns=(100, 150), alphas=[0.05, 0.2, 0.5], patterns=2, seed=1)


class TestPlotTransition:
    def test_traces_lines_and_legend(self, scan):
        fig = plots.plot_transition(scan)
        assert isinstance(fig, go.Figure)
        names = [t.name for t in fig.data]
        measured = [
            f"measured, N = {N}"
            + (f" (α<sub>S</sub> = {r.alpha_s:.3f}, solid line)" if r.bracketed else "")
            for N, r in zip(scan.Ns, scan.scans, strict=True)
        ]
        assert names == [measured[0]] * 2 + [measured[1]] * 2 + [
            "λ<sub>bulk</sub>(α), Eq. 10 (theory)",
            "λ<sub>mem</sub>, Eq. 15 (theory)",
            "α<sub>S</sub>, Eq. 19 (paper): 0.302",
        ]
        np.testing.assert_array_equal(fig.data[0].y, scan.scans[0].stable_fraction)
        np.testing.assert_array_equal(fig.data[3].y, scan.scans[1].mean_abscissa)
        assert fig.data[0].xaxis == "x" and fig.data[1].xaxis == "x2"
        # Eq. 19 (the paper's theory) as a labelled dashed line in both panels
        dashed = [s for s in fig.layout.shapes if s.line.dash == "dash"]
        assert [s.x0 for s in dashed] == [scan.theory.alpha_s] * 2
        # its value and the measured crossings are in the legend, not written over the curves
        assert fig.data[-1].line.dash == "dash" and fig.data[-1].showlegend is not False
        assert [a.text.replace("<br>", " ") for a in fig.layout.annotations] == [
            "stable fraction",
            "mean spectral abscissa (units of 1/τ)",
        ]
        assert legend_on_top(fig)  # legend above the plot


class TestPlotPhaseDiagram:
    def test_heatmap_borders_and_optimum(self, view):
        fig = plots.plot_phase_diagram(view)
        heat, bulk, mem, opt = fig.data
        pd = view.diagram
        assert heat.type == "heatmap"
        z = np.asarray(heat.z)
        assert z.shape == (pd.sigma.size, pd.n.size)  # rows σ, columns n
        np.testing.assert_array_equal(np.isnan(z), (pd.alpha_s == 0).T)
        np.testing.assert_allclose(heat.y, np.log10(pd.sigma), rtol=1e-6)
        assert bulk.line.color == "#1f77b4" and mem.line.color == "#ff7f0e"
        np.testing.assert_allclose(mem.x, view.mem_border[:, 0], rtol=1e-6)
        assert opt.x[0] == view.n_star
        assert opt.y[0] == pytest.approx(np.log10(view.sigma_star))
        assert "α<sub>S</sub>* = " in fig.layout.title.text
        assert legend_on_top(fig)

    def test_measured_overlay_only_for_this_cv(self, view, comparison):
        fig = plots.plot_phase_diagram(view, comparison)
        discs, crosses = fig.data[-2:]
        sel = comparison.cv == 1.0
        good = sel & (comparison.alpha_s_emp > 0)
        zero = sel & (comparison.alpha_s_emp == 0)
        np.testing.assert_array_equal(discs.x, comparison.n[good])
        np.testing.assert_array_equal(crosses.x, comparison.n[zero])
        assert 1.5 in list(crosses.x)  # λ_mem > 0: unstable at the smallest load

    def test_static_exploration_and_widget_form(self):
        fig = explore.static_figure(
            at.phase_view,
            plots.plot_phase_diagram,
            [explore.Slider("cv", 0.5, 2.0, steps=3, log=True)],
            {"n_points": 16, "sigma_points": 6},
        )
        assert len(fig.layout.sliders[0].steps) == 3 and len(fig.data) == 3 * 4
        live = figure_message(plots.plot_phase_diagram(at.phase_view(1.0, 16, 6)))
        assert live["data"][0]["z"]["shape"] == "6, 16"  # the grid as a typed array, NaN kept


class TestPlotOptimumVsCV:
    def test_panels_and_reference(self):
        curve = at.optimum_vs_cv([0.5, 1.0], n_grid=[0.9, 1.0, 1.1], sigma_grid=[0.5, 1.0])
        ref = {
            "cv": [0.5],
            "n_star": [1.04],
            "sigma_star": [0.35],
            "alpha_s_star": [0.207],
            "label": "note",
        }
        fig = plots.plot_optimum_vs_cv(curve, ref)
        assert fig.layout.yaxis2.type == "log"
        opt = [t for t in fig.data if t.name == "optimum of Eq. 19 over (n, σ)"]
        assert len(opt) == 3
        np.testing.assert_array_equal(opt[2].y, curve.alpha_s_star)
        assert [t.y[0] for t in fig.data if t.name == "note"] == [1.04, 0.35, 0.207]

    def test_without_reference(self):
        curve = at.optimum_vs_cv([1.0], n_grid=[1.0], sigma_grid=[1.0])
        assert len(plots.plot_optimum_vs_cv(curve).data) == 5


class TestPlotAlphaSComparison:
    def test_scatter_and_cv_panel(self, comparison):
        curve = at.alpha_s_vs_cv([0.5, 1.0, 2.0])
        ref = {"cv": [1.0], "alpha_s": [0.2], "label": "note"}
        fig = plots.plot_alpha_s_comparison(comparison, curve, ref)
        diag, measured, below = fig.data[:3]
        assert list(diag.x) == list(diag.y)
        ok = np.array([s != "below" for s in comparison.status]) & np.isfinite(
            comparison.alpha_s_emp
        )
        np.testing.assert_array_equal(measured.y, comparison.alpha_s_emp[ok])
        np.testing.assert_array_equal(measured.x, comparison.alpha_s_theory[ok])
        assert below.marker.symbol == "x"
        line = next(t for t in fig.data if t.name == "Eq. 19, σ = 1, n = 1")
        np.testing.assert_array_equal(line.y, curve.alpha_s)
        pts = next(t for t in fig.data if t.name.startswith("measured, N = 150, σ = 1"))
        np.testing.assert_array_equal(pts.x, [1.0, 2.0])
        assert fig.data[-1].name == "note"

    def test_single_panel_without_curve(self, comparison):
        fig = plots.plot_alpha_s_comparison(comparison)
        assert len(fig.data) == 3 and "xaxis2" not in fig.layout.to_plotly_json()
