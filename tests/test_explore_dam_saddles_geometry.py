"""Tests for explore.dam_saddles.geometry: the vMF views of the section ``ds-model``."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem.explore.dam_saddles import geometry as plots
from assocmem.potts_dam import vmf


class TestCircleView:
    def test_density_integrates_to_one(self):
        # Eq. 3 is a probability density on S^{N-1}; on the circle the 720-point rule is
        # spectrally accurate for this smooth periodic integrand.
        for beta in (0.5, 8.0, 100.0):
            v = plots.circle_view(beta, 0.2, 0.0)
            assert v.mass == pytest.approx(1.0, abs=1e-9)

    def test_floor_is_the_uniform_component(self):
        v = plots.circle_view(30.0, 0.3, 0.0)
        assert v.floor == pytest.approx(0.3 / (2 * math.pi))
        assert np.all(v.density >= v.floor * (1 - 1e-12))
        # far from every memory (β = 30) the density is the floor alone, to 1e-6
        assert np.min(v.density) == pytest.approx(v.floor, rel=1e-6)

    def test_one_memory_is_retrieved(self):
        v = plots.circle_view(4.0, 0.0, 1.0, angles=[0.0])
        assert v.overlap == pytest.approx(1.0, abs=1e-9)
        assert v.minima.size == 1

    def test_memories_merge_at_small_beta(self):
        # Three memories at -2.0, 0.3, 1.2: at β = 8 every memory is a minimum of E; at
        # β = 1 the two close ones (0.9 apart) merge into one minimum between them.
        sharp = plots.circle_view(8.0, 0.1, 0.0)
        soft = plots.circle_view(1.0, 0.1, 0.0)
        assert sharp.minima.size == 3 and soft.minima.size == 2
        assert 0.3 < soft.minima[-1] < 1.2

    def test_descent_lowers_the_energy_and_ends_at_a_minimum(self):
        v = plots.circle_view(8.0, 0.1, -0.5)
        e = v.path_energy
        # E is linearly interpolated on a 0.5° grid: error up to h²·max|E''|/8 ≈ 1e-4 at β = 8
        assert np.all(np.diff(e) <= 2e-4) and e[-1] < e[0] - 1.0
        gaps = np.abs(np.angle(np.exp(1j * (v.minima - v.path[-1]))))
        assert gaps.min() < 2 * math.pi / 720

    def test_floor_traps_the_descent_at_large_beta(self):
        # At β = 30 the memories' bumps are ~0.2 rad wide; from 2.6 rad the gradient is
        # exponentially small and the descent does not move.
        v = plots.circle_view(30.0, 0.1, 2.6)
        assert abs(v.path[-1] - 2.6) < 1e-3
        assert v.overlap < 0.5

    def test_too_many_memories_refused(self):
        with pytest.raises(ValueError, match="angles"):
            plots.circle_view(angles=np.zeros(9))


class TestNormaliserView:
    @pytest.mark.parametrize(("N", "tol"), [(36, 1e-2), (64, 5e-3), (784, 5e-4)])
    def test_eq18_accuracy(self, N, tol):
        # Note §3.2, D1: max |Eq. 18 − exact| over β <= 300 is 7.1e-3, 3.7e-3, 2.0e-4.
        v = plots.normaliser_view(N, 300.0, 200)
        assert v.max_error18 <= tol

    def test_ive_underflows_at_n_784(self):
        # Note §2.3 pitfall: ive(391, β) is 0 in float64 for moderate β at N = 784.
        v = plots.normaliser_view(784, 300.0, 200)
        assert v.underflow > 40
        assert np.all(np.isneginf(v.naive[v.beta <= v.underflow]))
        far = v.beta > 2 * v.underflow
        np.testing.assert_allclose(v.naive[far], v.exact[far], rtol=1e-9)

    def test_no_underflow_at_small_n(self):
        v = plots.normaliser_view(16, 300.0, 100)
        assert v.underflow == 0.0
        np.testing.assert_allclose(v.naive, v.exact, rtol=1e-9, atol=1e-12)

    def test_quadratic_law_at_small_beta(self):
        # τ = β²/(2N) + O(β⁴/N³): relative error below 1e-4 for β <= 1 at N = 784.
        v = plots.normaliser_view(784, 1.0, 50)
        np.testing.assert_allclose(v.quadratic, v.exact, rtol=1e-4)

    def test_exact_is_the_library_tau(self):
        v = plots.normaliser_view(36, 10.0, 20)
        np.testing.assert_array_equal(v.exact, vmf.tau(36, v.beta))


class TestOverlapView:
    def test_d2_mean_overlap_is_varsigma(self):
        # Note §3.2, D2: N = 200, v = 1, 400 samples: mean 0.6197 against ς(2) = 0.6180, ±0.01.
        o = plots.overlap_view(1.0, 200, 400, 0)
        assert o.mean == pytest.approx(o.varsigma, abs=0.01)
        assert o.varsigma == pytest.approx((math.sqrt(5) - 1) / 2)

    def test_finite_n_mean_approaches_varsigma(self):
        gaps = [
            abs(plots.overlap_view(0.5, N, 20, 0).mean_length - vmf.varsigma(1.0))
            for N in (20, 200, 2000)
        ]
        assert gaps[0] > gaps[1] > gaps[2]

    def test_curves(self):
        o = plots.overlap_view(2.0, 100, 20, 1)
        assert np.all(np.diff(o.varsigma_curve) > 0) and np.all(o.varsigma_curve < 1)
        assert np.all((o.length_curve > 0) & (o.length_curve < 1))
        assert o.kappa == 200.0

    def test_seed_fixes_the_draw(self):
        a = plots.overlap_view(1.0, 50, 30, 3)
        b = plots.overlap_view(1.0, 50, 30, 3)
        np.testing.assert_array_equal(a.overlaps, b.overlaps)


class TestPlots:
    def test_figures(self):
        figs = [
            plots.plot_circle(plots.circle_view()),
            plots.plot_normaliser(plots.normaliser_view(784, 300.0, 60)),
            plots.plot_overlaps(plots.overlap_view()),
        ]
        for fig in figs:
            assert isinstance(fig, go.Figure) and len(fig.data) >= 5
            assert fig.layout.title.text

    def test_normaliser_marks_the_underflow(self):
        fig = plots.plot_normaliser(plots.normaliser_view(784, 300.0, 60))
        assert any(s.line.color == "#d62728" for s in fig.layout.shapes)
        assert any("ive gives −inf" in a.text for a in fig.layout.annotations)

    @pytest.mark.parametrize(
        "plot", [plots.plot_circle, plots.plot_normaliser, plots.plot_overlaps]
    )
    def test_wrong_result_type(self, plot):
        with pytest.raises(TypeError, match="view"):
            plot(None)
