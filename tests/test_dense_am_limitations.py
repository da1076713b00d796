"""Tests of assocmem.dense_am.limitations: App. A behaviour, the two remedies, exploration results.

References: paper App. A (far queries), eqs. (3), (6)-(8); chapter note §1.4, §1.5, §2.1, §4.5,
Pitfalls P5-P8. The hybrid energy and β(x) are our constructions (not in the paper); their tests
check the properties the docstrings promise.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from assocmem._validation import ConvergenceWarning
from assocmem.dense_am import limitations as lim
from assocmem.dense_am.energy import active_set, lse_energy, lse_grad, lsr_energy
from assocmem.dense_am.generative import GenerativeSweep
from assocmem.dense_am.retrieval import lsr_retrieve


@pytest.fixture(scope="module")
def memories() -> np.ndarray:
    return np.random.default_rng(0).random((8, 2))


@pytest.fixture(scope="module")
def grid() -> np.ndarray:
    side = np.linspace(-0.5, 1.5, 12)
    return np.stack(np.meshgrid(side, side), axis=-1).reshape(-1, 2)


class TestFarQuery:
    def test_unsupported_query_has_zero_gradient_and_never_moves(self):
        # App. A / eqs. (7)-(8): B(x) empty and eps > 0 -> the gradient is an empty sum, exactly 0
        res = lim.far_query([[3.0, 0.0]], [[0.0, 0.0], [0.5, 0.0]], beta=2.0, eps=1e-8)
        assert res.lsr_grad_norm[0] == 0.0
        assert res.lsr_moved[0] == 0.0
        assert np.all(res.lsr_path == res.lsr_path[0])

    def test_lse_moves_every_query(self, memories):
        # note §1.3: grad E_LSE = x - sum p xi is non-zero away from its critical points
        q = memories[0] + np.outer(np.linspace(1.0, 5.0, 5), [1.0, 1.0])
        res = lim.far_query(q, memories, beta=50.0)
        assert np.all(res.lse_grad_norm > 0) and np.all(res.lse_moved > 0)

    def test_supported_query_lands_on_isolated_memory(self):
        # Thm 1 / Algorithm 1: B(x) = {mu} -> one centroid step lands exactly on xi_mu
        xi = np.array([[0.0, 0.0], [5.0, 0.0]])
        res = lim.far_query([[0.3, 0.1]], xi, beta=2.0, n_steps=3)
        assert np.array_equal(res.lsr_path[-1, 0], xi[0])
        assert bool(res.supported[0])

    def test_paths_have_one_row_per_step(self, memories):
        res = lim.far_query(memories[:3], memories, beta=10.0, n_steps=7)
        assert res.lsr_path.shape == res.lse_path.shape == (8, 3, 2)
        assert res.radius == pytest.approx(math.sqrt(0.2))

    def test_bad_step_is_refused(self, memories):
        with pytest.raises(ValueError, match="step"):
            lim.far_query(memories[:1], memories, beta=1.0, step=2.5)

    def test_query_beyond_float_squared_distances_gives_finite_results(self):
        # issue 9: at x0 = (1e300, 0) every d² overflows. The distance to the nearest memory,
        # (1e300 - 1) = 1e300 in float64, and ‖∇E_LSE(x0)‖ = ‖x0 - ξ_(1,0)‖ = 1e300 are
        # representable and must come back finite; each LSE step with α = 0.2 keeps 0.8 x.
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            res = lim.far_query([[1e300, 0.0]], [[0.0, 0.0], [1.0, 0.0]], beta=2.0, n_steps=2)
        assert res.nearest[0] == 1e300 and res.lse_grad_norm[0] == 1e300
        np.testing.assert_allclose(res.lse_path[:, 0, 0], [1e300, 8e299, 6.4e299], rtol=1e-15)
        assert res.lsr_moved[0] == 0.0


class TestHybridEnergy:
    def test_is_sum_of_the_two_energies(self, memories, grid):
        # definition (ours): E_hyb = E_LSR(eps) + lam E_LSE
        got = lim.hybrid_energy(grid, memories, 20.0, lam=0.3, eps=1e-4)
        want = lsr_energy(grid, memories, 20.0, eps=1e-4) + 0.3 * lse_energy(grid, memories, 20.0)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)

    def test_zero_eps_is_refused(self, memories):
        # eps = 0 would make the LSR term +inf off the support (note §1.4)
        with pytest.raises(ValueError, match="eps"):
            lim.hybrid_energy(memories[0], memories, 1.0, lam=1.0, eps=0.0)

    def test_negative_lambda_is_refused(self, memories):
        with pytest.raises(ValueError, match="lam"):
            lim.hybrid_energy(memories[0], memories, 1.0, lam=-0.1)

    def test_far_query_energy_is_inf_or_the_lsr_plateau_never_nan(self):
        # issue 9: at x = (1e300, 0) E_LSE = d²/2 ~ 5e599 is beyond float64 (+inf), and the
        # sum used to be NaN. λ > 0: +inf. λ = 0: E_hyb = E_LSR = -log(ϵ)/β exactly
        # (ϵ = 1e-6, β = 2: 6.9078), not 0 · inf.
        Xi = [[0.0, 0.0], [1.0, 0.0]]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert lim.hybrid_energy([1e300, 0.0], Xi, 2.0, lam=0.5) == math.inf
            plateau = lim.hybrid_energy([1e300, 0.0], Xi, 2.0, lam=0.0, eps=1e-6)
        assert plateau == pytest.approx(-math.log(1e-6) / 2.0, rel=1e-15)


class TestHybridGrad:
    def test_matches_central_differences_inside_a_cell(self, memories):
        # smooth inside a cell of constant B(x) (note §1.4); step 1e-6, error O(h^2) ~ 1e-10
        beta, lam, x = 20.0, 0.4, memories[2] + np.array([0.03, -0.02])
        g = lim.hybrid_grad(x, memories, beta, lam)
        h = 1e-6
        fd = [
            (
                lim.hybrid_energy(x + h * e, memories, beta, lam)
                - lim.hybrid_energy(x - h * e, memories, beta, lam)
            )
            / (2 * h)
            for e in np.eye(2)
        ]
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)

    def test_far_query_gradient_is_finite(self):
        # issue 9 (was NaN): off the support only λ ∇E_LSE = λ (x - ξ_nearest) acts; at
        # x = (1e300, 0) the nearest memory is (1, 0): λ (1e300 - 1, 0) = (5e299, 0) for λ = 0.5
        g = lim.hybrid_grad([1e300, 0.0], [[0.0, 0.0], [1.0, 0.0]], 2.0, lam=0.5)
        np.testing.assert_array_equal(g, [5e299, 0.0])

    def test_far_away_only_the_lse_term_acts(self, memories):
        # App. A: the LSR gradient is exactly 0 off the support (eps > 0)
        x = np.array([5.0, 5.0])
        np.testing.assert_array_equal(
            lim.hybrid_grad(x, memories, 20.0, 0.7), 0.7 * lse_grad(x, memories, 20.0)
        )


class TestHybridDescend:
    def test_energy_never_increases(self, memories, grid):
        # Armijo backtracking accepts only decreasing steps
        e0 = lim.hybrid_energy(grid, memories, 30.0, 0.5)
        res = lim.hybrid_descend(grid, memories, 30.0, 0.5)
        assert np.all(res.energy <= e0 + 1e-15)
        assert np.all(res.converged)

    def test_far_queries_reach_the_data(self, memories, grid):
        res = lim.hybrid_descend(grid, memories, 30.0, 0.5)
        supported = np.any(active_set(res.points, memories, 30.0), axis=1)
        assert np.all(supported)

    def test_single_memory_is_the_minimum(self):
        res = lim.hybrid_descend([0.5], [[0.0]], beta=2.0, lam=1.0)
        assert abs(float(res.points[0])) < 1e-9 and res.converged

    def test_warns_when_it_stops_early(self, memories, grid):
        with pytest.warns(ConvergenceWarning, match="hybrid_descend"):
            lim.hybrid_descend(grid, memories, 30.0, 0.5, max_iter=1)

    @pytest.mark.parametrize(("kw", "match"), [({"step": 2.0}, "step"), ({"step": 1e300}, "step"),
                                               ({"tol": 0.0}, "tol")])  # fmt: skip
    def test_rejects_steps_and_tolerances_that_cannot_work(self, kw, match):
        # a step >= 2 overshoots the quadratic model's minimum so far that no halving within
        # the cap finds a decrease; tol = 0 can never be met
        with pytest.raises(ValueError, match=match):
            lim.hybrid_descend([0.5], [[0.0]], beta=2.0, lam=1.0, **kw)

    def test_far_start_reaches_the_data(self):
        # from x0 = (1e300, 0) (E = +inf) the first trial step 1/λ is the LSE mean-shift jump
        # onto the nearest memory, a finite energy, hence accepted; then the usual descent
        Xi = [[0.0, 0.0], [1.0, 0.0], [5.0, 0.0]]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            res = lim.hybrid_descend([1e300, 0.0], Xi, beta=2.0, lam=0.5)
        near = lim.hybrid_descend([1.0, 0.0], Xi, beta=2.0, lam=0.5)
        assert res.converged and np.allclose(res.points, near.points, atol=1e-6)

    def test_huge_lambda_converges_relative_to_lambda(self):
        # λ = 1e300: ∇E_hyb ≈ λ ∇E_LSE, so the tolerance scales by max(1, λ) (float64 cannot
        # resolve ‖∇E_hyb‖ < 1e-7 there); one memory: the minimum is the memory itself
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            res = lim.hybrid_descend([0.5], [[0.0]], beta=2.0, lam=1e300)
        assert res.converged and res.points[0] == 0.0


class TestAdaptiveBeta:
    def test_never_exceeds_beta_and_always_supports_the_query(self, memories, grid):
        # our rule: R(x) = d_min/sqrt(rho) > d_min, so the nearest memory is active
        b = lim.adaptive_beta(grid, memories, 40.0, rho=0.7)
        assert np.all(b <= 40.0)
        d2 = ((grid[:, None, :] - memories[None]) ** 2).sum(-1)
        assert np.all(np.any(d2 < 2.0 / b[:, None], axis=1))

    def test_equals_beta_near_a_memory(self, memories):
        assert lim.adaptive_beta(memories[0] + 1e-3, memories, 40.0) == 40.0

    def test_hand_value(self):
        # one memory at 0, query at 2: 2 rho / 4 with rho = 0.5
        assert lim.adaptive_beta([2.0], [[0.0]], beta=8.0, rho=0.5) == 0.25

    def test_rho_must_be_below_one(self, memories):
        with pytest.raises(ValueError, match="rho"):
            lim.adaptive_beta(memories[0], memories, 1.0, rho=1.0)


class TestAdaptiveBetaRetrieve:
    def test_every_query_moves_and_most_end_exactly(self, memories, grid):
        res = lim.adaptive_beta_retrieve(grid, memories, 40.0)
        assert np.all(np.any(res.points != grid, axis=1))
        assert np.mean(res.exact) > 0.9

    def test_exact_points_are_fixed_points_of_algorithm_1(self, memories, grid):
        # note §1.7: exact <=> self-consistent centroid; Alg. 1 leaves it unchanged
        res = lim.adaptive_beta_retrieve(grid, memories, 40.0)
        again = lsr_retrieve(res.points[res.exact], memories, 40.0)
        np.testing.assert_array_equal(again.points, res.points[res.exact])
        assert np.all(again.n_iter <= 1)

    def test_near_queries_reduce_to_algorithm_1(self, memories):
        # within sqrt(rho) R of a memory beta(x) = beta: only phase 2 runs
        starts = memories + 1e-3
        res = lim.adaptive_beta_retrieve(starts, memories, 40.0)
        np.testing.assert_array_equal(res.points, lsr_retrieve(starts, memories, 40.0).points)

    def test_single_point_fields_are_squeezed(self):
        res = lim.adaptive_beta_retrieve([3.0], [[0.0], [10.0]], beta=8.0)
        assert res.points.shape == (1,) and res.exact is True and isinstance(res.n_iter, int)

    def test_far_query_behaves_as_in_exact_arithmetic(self):
        # issue 9: from x0 = (1e300, 0) every d² overflows, β(x0) underflows to 0 and the first
        # step divided 0 by 0 ("x must be finite", naming x for x0). In exact arithmetic the
        # first step takes every memory (ρ d²_μ < d²_min for all μ when x0 is that far): the
        # centroid (2, 0); from there d_min = 1 to (1, 0) and only (1, 0) has ρ d² < 1, so the
        # query lands on (1, 0), an exact minimum at β = 8 -- the same path as from (1000, 0).
        Xi = [[0.0, 0.0], [1.0, 0.0], [5.0, 0.0]]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            far = lim.adaptive_beta_retrieve([1e300, 0.0], Xi, beta=8.0)
        mid = lim.adaptive_beta_retrieve([1e3, 0.0], Xi, beta=8.0)
        np.testing.assert_array_equal(far.points, [1.0, 0.0])
        assert far.exact and far.beta_query == 0.0 and far.n_iter == mid.n_iter == 3


class TestLimitationsPlayground:
    def test_lsr_moves_exactly_the_supported_queries(self, memories, grid):
        # App. A: unsupported queries are stuck; supported ones reach an exact minimum
        pg = lim.limitations_playground(memories, grid, 40.0, method="lsr")
        np.testing.assert_array_equal(pg.moved | (pg.supported & pg.exact), pg.supported)
        assert pg.frac_stuck == pytest.approx(1 - pg.supported.mean())

    def test_hybrid_reaches_everything_but_is_never_exact(self, memories, grid):
        pg = lim.limitations_playground(memories, grid, 40.0, method="hybrid", lam=0.5)
        assert pg.frac_stuck == 0.0 and pg.frac_exact == 0.0

    def test_unknown_method_is_refused(self, memories, grid):
        with pytest.raises(ValueError, match="method"):
            lim.limitations_playground(memories, grid, 40.0, method="magic")

    @pytest.mark.parametrize(("kw", "exc"), [({"lam": -1.0}, ValueError),
                                             ({"rho": 1.5}, ValueError),
                                             ({"eps": None}, TypeError)])  # fmt: skip
    def test_every_option_is_checked_even_when_the_method_ignores_it(self, memories, grid, kw, exc):
        # issue 9: with method="lsr" a bad lam, rho or eps used to pass silently
        name = next(iter(kw))
        with pytest.raises(exc, match=name):
            lim.limitations_playground(memories, grid, 40.0, method="lsr", **kw)


class TestHybridShift:
    def test_lambda_zero_keeps_stored_patterns(self, memories):
        # C1 (note §2.2): isolated patterns are exact LSR minima
        assert np.all(lim.hybrid_shift([[0.0], [5.0]], 2.0, [0.0]) == 0.0)

    def test_small_lambda_matches_linearisation(self):
        # our linearisation: shift ~ lam |grad E_LSE(xi)| / (1 + lam); 10 % for lam = 0.1
        xi = np.array([[0.0, 0.0], [0.3, 0.0], [0.0, 0.35]])
        lam, beta = 0.1, 40.0
        shift = lim.hybrid_shift(xi, beta, [lam])[0]
        pred = lam / (1 + lam) * np.linalg.norm(lse_grad(xi, xi, beta), axis=1)
        np.testing.assert_allclose(shift, pred, rtol=0.1)


class TestKdeExplorer:
    def test_printed_bandwidth_is_fifth_root_of_four_larger(self):
        # note §2.1 [fix]: eq. (2) has an extra factor 4 inside the 1/5 power
        v = lim.kde_explorer(100, 0.4, "gaussian", seed=1)
        assert v.h_paper / v.h_star == pytest.approx(4**0.2, rel=1e-12)

    def test_estimate_integrates_to_one(self):
        v = lim.kde_explorer(100, 0.3, "epanechnikov", seed=1)
        assert np.trapezoid(v.estimate, v.grid) == pytest.approx(1.0, abs=1e-3)

    def test_curves_are_shared_between_calls(self):
        a = lim.kde_explorer(100, 0.3, "uniform", seed=1).curves
        b = lim.kde_explorer(100, 0.9, "gaussian", seed=1).curves
        assert a is b and a.ise.shape == (len(lim.KDE_KERNELS), a.h.size)

    def test_unknown_kernel_is_refused(self):
        with pytest.raises(ValueError, match="kernel"):
            lim.kde_explorer(100, 0.3, "parabolic")


class TestGenerative2D:
    def test_counts_match_metrics(self):
        g = lim.generative_2d(20, 200.0, seed=0, n_per_memory=10, n_grid=20)
        assert len(g.lsr_points) == g.metrics.lsr_unique == g.lsr_sizes.size
        assert len(g.lse_points) == g.metrics.lse_unique
        assert g.log_p.shape == (20, 20)

    def test_stored_lsr_memories_are_exact_patterns(self):
        # |K| = 1 minima are the stored patterns themselves (note §1.7)
        g = lim.generative_2d(20, 200.0, seed=0, n_per_memory=10, n_grid=20)
        stored = g.lsr_points[g.lsr_sizes == 1]
        assert all(np.any(np.all(g.memories == p, axis=1)) for p in stored)


class TestGenerativePanels:
    def test_returns_a_cached_sweep(self):
        a = lim.generative_panels(10, n_beta=3, seeds=(0,), n_starts=50)
        b = lim.generative_panels(10, n_beta=3, seeds=(0,), n_starts=50)
        assert a is b and isinstance(a, GenerativeSweep) and a.beta_mean.size == 3


class TestSweepSummary:
    def test_counts_agree_with_the_curves(self):
        s = lim.generative_panels(10, n_beta=3, seeds=(0,), n_starts=50)
        summ = lim.sweep_summary(s)
        assert summ.n_beta == 3
        assert summ.logp_wins == int(np.sum(s.lsr_logp > s.lse_logp))
        assert summ.best_lsr_logp == pytest.approx(float(np.max(s.lsr_logp)))

    def test_wrong_type_is_refused(self):
        with pytest.raises(TypeError, match="sweep"):
            lim.sweep_summary({"beta": 1.0})


def test_module_raises_no_runtime_warning(memories, grid):
    # pyproject turns RuntimeWarning from assocmem into errors; exercise every rule once
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for method in lim.METHODS:
            lim.limitations_playground(memories, grid, 100.0, method=method)
