"""Tests for explore.attractor_stability.spectra: figures of the bulk section (as-bulk)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import attractor as at
from assocmem import explore
from assocmem.explore._layout import legend_on_top
from assocmem.explore.attractor_stability import spectra as plots


@pytest.fixture(scope="module")
def view():
    # Small, cheap network: the figures, not the physics, are tested here.
    return at.spectrum_view(N=120, alpha=0.25, patterns=2)


class TestPlotSpectrum:
    def test_traces_markers_and_equal_aspect(self, view):
        fig = plots.plot_spectrum(view)
        assert isinstance(fig, go.Figure)
        names = [t.name for t in fig.data]
        assert names[:3] == [
            "eig J<sub>μ</sub> (2 patterns)",
            "N − P eigenvalues at −1",
            "disc of Eq. 10 (theory)",
        ]
        assert "λ<sub>mem</sub> (Eq. 15)" in names and "λ<sub>ave</sub> (Eq. 12)" in names
        eig = fig.data[0]
        assert len(eig.x) == view.eigenvalues.size  # the −1's are not in the cloud (pitfall 4)
        assert fig.data[1].text == (f"×{view.n_trivial}",)
        circle = fig.data[2]
        assert np.mean(circle.x) == pytest.approx(view.theory.center, abs=1e-3)
        assert max(circle.x) == pytest.approx(view.lambda_bulk, abs=1e-6)
        assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.scaleratio == 1
        mem = next(t for t in fig.data if t.name == "λ<sub>mem</sub> (Eq. 15)")
        assert mem.marker.color == "#ff7f0e" and mem.x[0] == pytest.approx(view.theory.lambda_mem)
        ave = next(t for t in fig.data if t.name == "λ<sub>ave</sub> (Eq. 12)")
        assert ave.marker.color == "#2ca02c"
        # The unstable half-plane Re λ > 0 is shaded and Re λ = 0 is drawn.
        rects = [s for s in fig.layout.shapes if s.type == "rect"]
        assert len(rects) == 1 and rects[0].x0 == 0
        assert any(s.type == "line" and s.x0 == 0 and s.x1 == 0 for s in fig.layout.shapes)
        assert f"{view.lambda_bulk:+.4f}" in fig.layout.title.text
        assert legend_on_top(fig)

    def test_inset_is_thinned_and_annotated(self):
        v = at.spectrum_view(N=1000, alpha=0.05)
        fig = plots.plot_spectrum(v)
        inset = next(t for t in fig.data if t.name == "neurons (r<sub>i</sub>, φ(r<sub>i</sub>))")
        assert len(inset.x) <= 400 and inset.xaxis == "x2"
        assert any(f"{v.tau_mem:.4f}" in a.text for a in fig.layout.annotations)

    def test_gain_mode_in_title(self):
        v = at.spectrum_view(N=100, alpha=0.2, gain_mode="mean")
        assert "⟨d⟩I" in plots.plot_spectrum(v).layout.title.text

    def test_static_exploration(self):
        fig = explore.static_figure(
            at.spectrum_view,
            plots.plot_spectrum,
            [
                explore.Slider("alpha", 0.1, 0.3, values=(0.1, 0.3)),
                explore.Choice("cv", (1.0, 2.0)),
            ],
            {"N": 100},
        )
        assert len(fig.layout.sliders) == 2 and len(fig.layout.sliders[0].steps) == 2
        assert len(fig.layout.updatemenus[0].buttons) == 2


class TestPlotGainSwap:
    def test_three_equal_aspect_panels(self):
        sw = at.gain_swap(N=150, patterns=1)
        fig = plots.plot_gain_swap(sw)
        assert len(fig.data) == 3 * len(plots._complex_plane(sw.views[0], "x", "y"))
        assert fig.layout.yaxis2.scaleanchor == "x2" and fig.layout.yaxis3.scaleanchor == "x3"
        assert fig.layout.xaxis.range == fig.layout.xaxis3.range
        assert "⟨d⟩I" in fig.layout.annotations[1].text
        assert sum(t.showlegend is not False for t in fig.data) == len(fig.data) // 3


class TestPlotBulkEdgeTable:
    def test_theory_and_measured_points(self):
        rows = at.bulk_edge_table([(1, 1, 1, 0.2), (2, 1, 1, 0.3)], N=100, patterns=2)
        fig = plots.plot_bulk_edge_table(rows)
        assert [t.name for t in fig.data][:2] == [
            "λ<sub>bulk</sub>, Eq. 10 (paper)",
            "measured bulk edge (ours)",
        ]
        assert list(fig.data[1].y) == pytest.approx([r.edge_mean for r in rows])
        assert list(fig.data[0].y) == pytest.approx([r.lambda_bulk for r in rows])
        assert len(fig.data[1].error_y.array) == 2


class TestPlotEdgeDeviations:
    def test_one_step_curve_per_cv(self):
        dev = at.edge_deviations(cvs=(0.5, 2.0), alphas=(0.2,), N=100, patterns=2, seeds=1, bins=6)
        fig = plots.plot_edge_deviations(dev)
        assert len(fig.data) == 2 and len(fig.data[0].x) == 7
        assert fig.data[0].line.shape == "hv"
        assert "CV = 0.5" in fig.data[0].name
        assert fig.layout.shapes[0].x0 == 0
