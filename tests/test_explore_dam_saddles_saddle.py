"""Tests for assocmem.explore.dam_saddles.saddle: the views and figures of ``ds-saddle``.

The views assemble :mod:`assocmem.potts_dam.saddle` results, so the tests check that they pass
those results through (against direct calls), the split line of check D3 and the Gibbs check D6
of ``shared/notes/04-dam-saddle-hierarchy.md`` §3.2 at a reduced size, and that the figures draw
what they say.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from assocmem._validation import ConvergenceWarning
from assocmem.explore.dam_saddles import saddle as plots
from assocmem.potts_dam import saddle


class TestSolverView:
    def test_point_is_the_library_solve(self) -> None:
        v = plots.solver_view(3.0, 2.0, 3, 2, init="random", max_iter=5000)
        direct = saddle.saddle_point(3.0, 2.0, 3, 2, init="random", max_iter=5000)
        np.testing.assert_array_equal(v.point.overlaps, direct.overlaps)
        assert v.threshold == pytest.approx(2.0)  # √(3 + 2/2)

    def test_split_branch_wins_above_the_line(self) -> None:
        # D3: at ϱ = 1, P* = 2 the line is β_eff = 2; above it the kicked start splits and its
        # free entropy (Eq. 22) beats the symmetric branch, which is then a saddle.
        v = plots.solver_view(2.5, 1.0, 2, 2, init="symmetric", max_iter=5000)
        assert v.point.split_amplitude > 0.3 and v.symmetric.split_amplitude < 1e-12
        assert v.point.free_entropy > v.symmetric.free_entropy + 1e-3
        assert v.symmetric.jacobian_radius > 1.0 > v.point.jacobian_radius

    def test_below_the_line_both_starts_agree(self) -> None:
        v = plots.solver_view(1.8, 1.0, 2, 2, init="specialised", max_iter=5000)
        assert v.point.split_amplitude < 1e-8
        assert v.point.free_entropy == pytest.approx(v.symmetric.free_entropy, abs=1e-10)

    def test_no_line_with_an_outside_unit(self) -> None:
        assert plots.solver_view(2.5, 1.0, 2, 2, p_h0=0.2).threshold is None
        assert plots.solver_view(2.5, 1.0, 1, 2).threshold is None

    def test_capped_solve_does_not_warn(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            v = plots.solver_view(2.02, 1.0, 2, 2, init="symmetric", max_iter=20)
        assert not v.point.converged and v.point.n_iter == 20


class TestPitchforkView:
    def test_split_line_and_gain(self) -> None:
        v = plots.pitchfork_view(2.0, 3, 2, beta_max=4.0, points=40)
        below, above = v.beta_eff < 0.99 * v.threshold, v.beta_eff > 1.01 * v.threshold
        assert v.threshold == pytest.approx(2.0)
        # the batched solve stops at max|Δm| < 1e-9, which leaves up to ~1e-7 of the kick
        # just below the line, where the decay rate tends to 1 (D3 asks 1e-8 at tol 1e-12)
        assert np.all(v.split_amplitude[below] < 1e-6)
        assert np.all(v.split_amplitude[above] > 0.05)
        assert np.all(np.abs(v.gain[below]) < 1e-9) and np.all(v.gain[above] > 0)

    def test_supercritical_pitchfork(self) -> None:
        # amplitude² grows linearly just above β_eff,c (note §2.6): the ratio of
        # amplitude² / (β − β_c) at two close points is near 1
        v = plots.pitchfork_view(1.0, 2, 2, beta_max=2.4, points=120)
        ok = (v.beta_eff > 2.04) & (v.beta_eff < 2.2) & v.converged
        slope = v.split_amplitude[ok] ** 2 / (v.beta_eff[ok] - 2.0)
        assert slope.max() / slope.min() < 1.3

    def test_symmetric_branch_has_equal_columns(self) -> None:
        v = plots.pitchfork_view(1.0, 2, 3, beta_max=4.0, points=8)
        assert np.ptp(v.symmetric, axis=2).max() < 1e-12


class TestPhaseView:
    def test_diagram_is_the_library_diagram(self) -> None:
        v = plots.phase_view(2, 2, n_rho=4, n_beta=5, beta_max=5.0)
        direct = saddle.phase_diagram(v.diagram.rho, v.diagram.beta_eff, 2, 2, max_iter=30_000)
        np.testing.assert_array_equal(v.diagram.split_amplitude, direct.split_amplitude)
        np.testing.assert_allclose(v.line_beta, np.sqrt(2 + 2 / v.line_rho))

    def test_line_separates_the_phases(self) -> None:
        # D3: split amplitude 0 below the line, > 0.05 more than 5 % above it
        v = plots.phase_view(3, 2, n_rho=8, n_beta=30, beta_max=6.0)
        pd = v.diagram
        line = np.sqrt(3 + 2 / pd.rho)[:, None]
        b = pd.beta_eff[None, :]
        assert np.all(pd.split_amplitude[b < 0.97 * line] < 1e-6)
        assert np.all(pd.split_amplitude[b > 1.05 * line] > 0.05)


class TestGibbsView:
    def test_one_unit_matches_eq9(self) -> None:
        # D6 (P = 1): sampled m = 0.536/0.532 and 0.629/0.631 vs Eq. 9 0.533 and 0.631 at
        # N = 200; here N = 100 and 300 sweeps, so the tolerance is 0.03.
        g = plots.gibbs_view([2.0, 5.0], P=1, N=100, n_sweeps=300, burn_in=100, rng=1)
        assert g.M == 200
        np.testing.assert_allclose(g.mean_overlap, g.theory_at_beta[:, 1], atol=0.03)
        np.testing.assert_allclose(g.theory_at_beta[:, 1], [0.533, 0.631], atol=2e-3)

    def test_two_units_split_after_beta_c(self) -> None:
        # D6 (P = 2): β_c = √(2 + 2)/ς(2) = 3.236; specialisation 0.84/0.83 at β = 6
        g = plots.gibbs_view([2.0, 6.0], P=2, N=200, n_sweeps=400, burn_in=150, rng=0)
        assert g.beta_c == pytest.approx(2.0 / ((math.sqrt(5) - 1) / 2))
        assert g.specialisation[0] < 0.15 and g.theory_at_beta[0, 0] < 1e-6
        assert abs(g.specialisation[1] - g.theory_at_beta[1, 0]) < 0.04

    def test_theory_grid_holds_the_gibbs_betas(self) -> None:
        g = plots.gibbs_view([3.0], P=1, N=20, n_sweeps=10, burn_in=2)
        assert 3.0 in g.theory_beta and g.theory_beta.size == g.theory_mean.size


class TestThresholdScan:
    def test_check_d3(self) -> None:
        # Note §3.2 D3: split amplitude 0 (≤ 1e-8) at 0.99 β_eff,c and > 0.05 at 1.01 β_eff,c,
        # for P* = 2, 3 and ϱ = ∞, 0.5; measured 0.10-0.16 at 1.01 and 0.29-0.48 at 1.1.
        t = plots.threshold_scan([2, 3], [math.inf, 0.5], [0.99, 1.01, 1.1])
        np.testing.assert_allclose(t.threshold, [[2**0.5, 6**0.5], [3**0.5, 7**0.5]])
        assert np.all(t.split_amplitude[..., 0] <= 1e-8) and np.all(t.converged[..., 0])
        assert np.all(t.split_amplitude[..., 1] > 0.05)
        assert np.all((t.split_amplitude[..., 2] > 0.29) & (t.split_amplitude[..., 2] < 0.49))

    def test_rhos_refuses_a_string(self) -> None:
        with pytest.raises(TypeError, match="rhos"):
            plots.threshold_scan(rhos="abc")


class TestFigures:
    def test_solver_figure(self) -> None:
        v = plots.solver_view(2.5, 1.0, 2, 3, init="specialised")
        fig = plots.plot_solver(v)
        heat = fig.data[0]
        assert heat.type == "heatmap" and np.asarray(heat.z).shape == (2, 3)
        assert [t.type for t in fig.data[1:]] == ["scatter", "scatter", "bar"]
        # the trace keeps its small residuals (log axis): it ends below the 1e-12 tolerance
        two = plots.solver_view(2.5, 1.0, 2, 2, init="symmetric")
        trace = plots.plot_solver(two)
        assert two.point.converged and min(trace.data[1].y) < 1e-12
        assert trace.layout.yaxis2.range[0] <= -12
        assert tuple(fig.data[3].y) == (
            round(v.point.free_entropy, 5),
            round(v.symmetric.free_entropy, 5),
        )
        assert v.threshold == pytest.approx(5**0.5, abs=1e-3)  # √(P* + P/ϱ) = √5

    def test_pitchfork_figure(self) -> None:
        v = plots.pitchfork_view(1.0, 2, 2, beta_max=4.0, points=10)
        fig = plots.plot_pitchfork(v)
        names = [t.name for t in fig.data]
        assert names[:3] == [
            "m<sup>11</sup>, split branch",
            "m<sup>12</sup>, split branch",
            "symmetric branch",
        ]
        assert any("= 2.000" in (n or "") for n in names)
        assert len(fig.layout.shapes) == 2

    def test_phase_figure(self) -> None:
        v = plots.phase_view(2, 2, n_rho=3, n_beta=4, beta_max=4.0)
        fig = plots.plot_phase(v)
        assert np.asarray(fig.data[0].z).shape == (4, 3)  # rows β_eff, columns ϱ
        np.testing.assert_allclose(fig.data[2].y, math.sqrt(2), atol=1e-5)

    def test_gibbs_figure(self) -> None:
        g = plots.gibbs_view([2.0, 4.0], P=2, N=20, n_sweeps=10, burn_in=2)
        fig = plots.plot_gibbs(g)
        markers = [t for t in fig.data if t.mode == "markers"]
        assert len(markers) == 2 and tuple(markers[0].y) == tuple(np.round(g.specialisation, 5))
        assert len(fig.layout.shapes) == 2
