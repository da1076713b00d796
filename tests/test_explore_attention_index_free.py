"""Tests for explore.attention_index.free: the denoising views and their figures (ai-free)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem import explore
from assocmem.explore.attention_index import free as plots
from assocmem.quadratic import free, sensing


@pytest.fixture(scope="module")
def view():
    return plots.denoising_view(0.5, 0.6, d=300, seed=0)


class TestDenoisingView:
    def test_shapes_and_theory_fields(self, view):
        assert view.eigenvalues.shape == view.oracle.shape == view.shrunk.shape == (300,)
        assert np.all(np.diff(view.eigenvalues) >= 0)
        np.testing.assert_array_equal(view.edges, free.free_conv_support(0.5, 0.6))
        assert view.mmse == free.rie_mmse(0.6, 0.5)
        assert view.atom == 0.5
        lo, hi = view.prior_bulk
        assert hi - lo == pytest.approx(4.0) and lo == pytest.approx(np.sqrt(0.5) + np.sqrt(2) - 2)

    def test_oracle_values_sum_to_the_trace(self, view):
        # Σ_i u_iᵀ A u_i = Tr A for any orthonormal basis (exact identity).
        A = sensing.sample_teacher(300, 0.5, np.random.default_rng(0))
        assert view.oracle.sum() == pytest.approx(np.trace(A), rel=1e-10)

    def test_rie_error_near_mmse_and_spectrum_near_theory(self, view):
        # Slides' MMSE formula; the note's R2 measures ±1.5 % at d = 500, here d = 300: ±4 %.
        assert view.mse == pytest.approx(view.mmse, rel=0.04)
        # The note's R4 measures KS 0.003 at d = 1000; 0.03 leaves room at d = 300.
        assert view.ks < 0.03

    def test_rie_is_close_to_the_oracle(self, view):
        gap = np.sqrt(np.mean((view.shrunk - view.oracle) ** 2))
        raw = np.sqrt(np.mean((view.eigenvalues - view.oracle) ** 2))
        assert gap < 0.1 * raw

    def test_zero_mode_bulk_splits_off(self):
        # ρ = 0.2, δ² = 0.05: support [-0.405, 0.394] ∪ [0.724, 4.699] (note §4.1); the left
        # interval holds the (1 − ρ) d zero modes of the prior.
        v = plots.denoising_view(0.2, 0.05, d=400, seed=2)
        assert len(v.edges) == 2
        assert np.sum(v.eigenvalues < v.edges[0, 1] + 0.1) == 320
        assert np.isnan(v.map_x).sum() == 1  # one gap in the drawn map

    def test_seed_fixes_the_draw(self):
        a = plots.denoising_view(1.0, 0.3, d=50, seed=3)
        b = plots.denoising_view(1.0, 0.3, d=50, seed=3)
        c = plots.denoising_view(1.0, 0.3, d=50, seed=4)
        np.testing.assert_array_equal(a.eigenvalues, b.eigenvalues)
        assert not np.array_equal(a.eigenvalues, c.eigenvalues)

    @settings(max_examples=15, deadline=None)
    @given(
        rho=st.floats(0.02, 3.0),
        delta2=st.floats(0.01, 4.0),
    )
    def test_density_integrates_to_one_on_the_grid(self, rho, delta2):
        v = plots.denoising_view(rho, delta2, d=20, seed=0)
        assert np.trapezoid(v.density, v.x) == pytest.approx(1.0, abs=0.02)
        assert np.all(np.isfinite(v.shrinkage[~np.isnan(v.map_x)]))


class TestDenoisingCurves:
    def test_theory_and_simulation(self):
        c = plots.denoising_curves([0.5, 2.0], [0.1, 0.6, 2.0], [0.6], d=200, seeds=2)
        assert c.mmse.shape == (2, 3) and c.sim_mse.shape == (2, 1, 2)
        np.testing.assert_allclose(c.mmse[0], free.rie_mmse(np.array([0.1, 0.6, 2.0]), 0.5))
        # d = 200: within 5 % of the formula (the note's R2 spread at d = 500 is 0.5 %)
        assert np.all(np.abs(c.sim_mse[0, 0] / c.mmse[0, 1] - 1) < 0.05)

    def test_simulation_equals_the_view_of_the_same_draw(self):
        c = plots.denoising_curves([0.5], [0.6], [0.6], d=60, seeds=2)
        for s in range(2):
            v = plots.denoising_view(0.5, 0.6, d=60, seed=s)
            assert c.sim_mse[0, 0, s] == pytest.approx(v.mse, rel=1e-10)

    def test_caps(self):
        with pytest.raises(ValueError, match="seeds"):
            plots.denoising_curves([0.5] * 6, [0.6], [0.1] * 10, d=20, seeds=20)
        with pytest.raises(ValueError, match="rhos"):
            plots.denoising_curves([0.5] * 7, [0.6], [0.1], d=20, seeds=1)


class TestPlotDenoising:
    def test_traces_edges_and_atom_line(self, view):
        fig = plots.plot_denoising(view)
        assert isinstance(fig, go.Figure)
        names = [t.name for t in fig.data]
        assert names[0] == "eigenvalues of Y (d = 300)"
        assert "f(λ) = λ − 2δ²v(λ)" in names and "identity" in names
        bars = fig.data[0]
        assert np.sum(np.asarray(bars.y) * bars.width) == pytest.approx(1.0, abs=1e-3)
        dotted = [s for s in fig.layout.shapes if s.type == "line" and s.line.dash == "dot"]
        assert len(dotted) == 2  # one interval, two edges
        assert any(s.type == "line" and s.y0 == 0 == s.y1 for s in fig.layout.shapes)  # atom
        full = plots.plot_denoising(plots.denoising_view(2.0, 0.6, d=40))
        assert not any(s.type == "line" and s.y0 == 0 == s.y1 for s in full.layout.shapes)
        assert f"{view.mse:.4f}" in fig.layout.title.text

    def test_static_exploration(self):
        fig = explore.static_figure(
            plots.denoising_view,
            plots.plot_denoising,
            [
                explore.Slider("rho", 0.02, 3.0, log=True, steps=2),
                explore.Choice("delta2", (0.01, 4.0)),
            ],
            {"d": 40},
        )
        assert len(fig.layout.sliders) == 2 and len(fig.layout.updatemenus[0].buttons) == 2


class TestPlotMmseCurves:
    def test_lines_dots_and_log_axis(self):
        c = plots.denoising_curves([0.1, 1.0], np.geomspace(0.01, 4, 10), [0.3], d=30, seeds=1)
        fig = plots.plot_mmse_curves(c)
        assert fig.layout.xaxis.type == "log"
        names = [t.name for t in fig.data]
        assert names[:2] == ["ρ = 0.1", "RIE at ρ = 0.1"]
        assert "δ²/(1 + δ²): Gaussian prior" in names
        dots = fig.data[1]
        assert dots.y[0] == pytest.approx(c.sim_mse[0, 0, 0], abs=1e-5)
