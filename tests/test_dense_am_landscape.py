"""Tests for assocmem.dense_am.landscape (landscapes, separation functions, Thm 1 experiment).

Reference values come from the paper (eq./figure/theorem numbers) and the chapter note
shared/notes/05-epanechnikov-dense-am.md (§ and T numbers of its tables).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.backend import has_gpu
from assocmem.dense_am.energy import active_set, lse_energy, lse_grad, lsr_energy
from assocmem.dense_am.landscape import (
    PRESETS_1D,
    PRESETS_2D,
    alg1_descent_check,
    count_curve,
    landscape_1d,
    landscape_2d,
    lse_minima_1d,
    lse_stored_gradient_log10,
    lsr_minima_2d,
    minima_counts_1d,
    preset_memories,
    random_memories,
    separation_curves,
    thm1_experiment,
    thm1_sweep,
)
from assocmem.dense_am.minima import lsr_minima, lsr_minima_bruteforce
from assocmem.dense_am.retrieval import lsr_retrieve

# Two points at distance a = 1: LSR counts 1, 3, 3, 3, 2 at these β (note §2.9 item 1, T5);
# the window 2/a² < β < 8/a² has three minima. Open endpoints, away from ties (P1).
TWO_POINT_BETAS = (1.9, 2.1, 5.0, 7.9, 8.1)
TWO_POINT_COUNTS = (1, 3, 3, 3, 2)


class TestRandomMemories:
    def test_shape_and_unit_cube(self):
        Xi = random_memories(7, 3, rng=1)
        assert Xi.shape == (7, 3)
        assert np.all((Xi >= 0) & (Xi < 1))

    def test_same_seed_same_memories(self):
        np.testing.assert_array_equal(random_memories(4, 2, 5), random_memories(4, 2, 5))

    def test_bad_size_is_refused(self):
        with pytest.raises(ValueError, match="M"):
            random_memories(0, 2)


class TestPresetMemories:
    def test_triangle_has_circumradius_one_and_side_sqrt3(self):
        # note §2.9 item 2: circumradius 1, side √3; exact to rounding of cos/sin (1e-15).
        Xi = preset_memories("triangle")
        np.testing.assert_allclose(np.linalg.norm(Xi, axis=1), 1.0, atol=1e-15)
        side = np.linalg.norm(Xi[0] - Xi[1])
        assert side == pytest.approx(math.sqrt(3.0), abs=1e-15)

    @pytest.mark.parametrize("name", PRESETS_2D)
    def test_every_2d_preset_is_2d(self, name):
        assert preset_memories(name).shape[1] == 2

    @pytest.mark.parametrize("name", PRESETS_1D)
    def test_every_1d_preset_is_1d(self, name):
        assert preset_memories(name, d=1).shape[1] == 1

    def test_unknown_name_is_refused(self):
        with pytest.raises(ValueError, match="name"):
            preset_memories("hexagon")

    def test_bad_dimension_is_refused(self):
        with pytest.raises(ValueError, match="d must be 1 or 2"):
            preset_memories("triangle", d=3)


class TestLseMinima1D:
    def test_two_points_merge_at_beta_four_over_a_squared(self):
        # note §2.9 item 1: LSE has 1 minimum for β < 4/a², 2 above (a = 1).
        assert lse_minima_1d([[0.0], [1.0]], 3.9).shape == (1,)
        assert lse_minima_1d([[0.0], [1.0]], 4.1).shape == (2,)

    def test_symmetric_pair_merges_exactly_at_midpoint(self):
        # By symmetry the merged minimum is 0.5; brentq polishes to machine precision.
        assert lse_minima_1d([[0.0], [1.0]], 1.0)[0] == pytest.approx(0.5, abs=1e-14)

    def test_refined_minima_have_vanishing_gradient(self):
        Xi = preset_memories("six random", d=1)
        pts = lse_minima_1d(Xi, 60.0)
        # brentq to xtol 1e-15 on E'(x); |E''| <= 1 + β·spread², so |E'| <= 1e-12.
        assert np.max(np.abs(lse_grad(pts[:, None], Xi, 60.0))) < 1e-12

    @settings(max_examples=30, deadline=None)
    @given(
        seed=st.integers(0, 10_000),
        M=st.integers(1, 7),
        log_beta=st.floats(0.0, 4.0),
    )
    def test_never_more_minima_than_memories_in_1d(self, seed, M, log_beta):
        # 1-D isotropic Gaussian mixtures have at most M modes (note §2.9 item 4, T9).
        Xi = np.random.default_rng(seed).random((M, 1))
        assert lse_minima_1d(Xi, 10.0**log_beta, n_grid=2000, refine=False).shape[0] <= M

    def test_two_dimensional_memories_are_refused(self):
        with pytest.raises(ValueError, match=r"shape \(M, 1\)"):
            lse_minima_1d([[0.0, 1.0]], 1.0)

    def test_bad_beta_is_refused(self):
        with pytest.raises(ValueError, match="beta"):
            lse_minima_1d([[0.0]], -1.0)

    @pytest.mark.parametrize("refine", ["no", 0, None, 1.0])
    def test_refine_must_be_a_real_bool(self, refine):
        # issue 9: refine="no" used to refine (bool("no") is True)
        with pytest.raises(TypeError, match="refine"):
            lse_minima_1d([[0.0], [1.0]], 3.0, refine=refine)

    def test_unknown_preset_is_blamed_on_memories(self):
        with pytest.raises(ValueError, match="memories"):
            lse_minima_1d("hexagon", 3.0)


class TestLsrMinima2D:
    @pytest.mark.parametrize("seed", range(40))
    def test_equals_brute_force_on_random_sets(self, seed):
        # Both are the exact self-consistent sets (note §1.7); same float test, so identical.
        rng = np.random.default_rng(seed)
        Xi = rng.random((int(rng.integers(1, 12)), 2))
        for R in (0.08, 0.2, 0.4, 0.8):
            assert lsr_minima_2d(Xi, 2 / R**2) == lsr_minima_bruteforce(Xi, 2 / R**2)

    def test_equals_general_search_for_fifty_memories(self):
        Xi = random_memories(50, 2, rng=0)
        for R in (0.1, 0.15, 0.2):
            assert lsr_minima_2d(Xi, 2 / R**2) == lsr_minima(Xi, 2 / R**2)

    @pytest.mark.parametrize(
        ("R", "count"), [(0.8, 3), (0.9, 6), (1.1, 7), (1.4, 7), (1.6, 4), (1.8, 1)]
    )
    def test_triangle_counts(self, R, count):
        # note §2.9 item 2 / T7: equilateral triangle, circumradius 1.
        assert len(lsr_minima_2d(preset_memories("triangle"), 2 / R**2)) == count

    def test_duplicated_memory_matches_brute_force(self):
        # Coincident support circles have no intersection points; the tie band handles them.
        Xi = np.array([[0.0, 0.0], [0.0, 0.0], [0.5, 0.1]])
        for R in (0.2, 0.4, 0.8):
            assert lsr_minima_2d(Xi, 2 / R**2) == lsr_minima_bruteforce(Xi, 2 / R**2)

    def test_one_dimensional_memories_are_refused(self):
        with pytest.raises(ValueError, match=r"shape \(M, 2\)"):
            lsr_minima_2d([[0.0], [1.0]], 1.0)


class TestLandscape1D:
    @pytest.mark.parametrize(
        ("beta", "count"), list(zip(TWO_POINT_BETAS, TWO_POINT_COUNTS, strict=True))
    )
    def test_two_point_window_counts(self, beta, count):
        assert len(landscape_1d("two points", beta).minima) == count

    def test_midpoint_is_emergent_inside_window(self):
        L = landscape_1d([[0.0], [1.0]], 5.0)
        assert L.minima == ((0,), (0, 1), (1,))
        assert (L.n_stored, L.n_emergent) == (2, 1)
        assert L.lsr_points.tolist() == [0.0, 0.5, 1.0]

    def test_curves_equal_the_energy_functions(self):
        Xi = preset_memories("three points", d=1)
        L = landscape_1d(Xi, 1.0, n_grid=200)
        np.testing.assert_array_equal(L.lse_energy, lse_energy(L.x[:, None], Xi, 1.0))
        np.testing.assert_array_equal(L.lsr_energy, lsr_energy(L.x[:, None], Xi, 1.0))

    def test_unsupported_points_have_infinite_energy_at_eps_zero(self):
        # Paper eq. (3) with ϵ = 0: E = +inf outside every support ball.
        L = landscape_1d("two points", 20.0)
        assert (~L.supported).any()
        assert np.all(np.isinf(L.lsr_energy[~L.supported]))
        assert np.all(np.isfinite(L.lsr_energy[L.supported]))

    def test_eps_makes_energy_finite_and_keeps_the_minima(self):
        # P5: with ϵ > 0 the exterior is a plateau at −log(ϵ)/β; minima unchanged.
        L0, L1 = landscape_1d("two points", 20.0), landscape_1d("two points", 20.0, eps=1e-3)
        assert np.all(np.isfinite(L1.lsr_energy))
        assert np.max(L1.lsr_energy) == pytest.approx(-math.log(1e-3) / 20.0, rel=1e-12)
        assert L0.minima == L1.minima

    def test_stored_minimum_energy_is_log_one_plus_eps(self):
        # note §1.4: a singleton has E = −(1/β) log(1 + ϵ).
        L = landscape_1d("two points", 5.0, eps=0.1)
        assert L.lsr_energies[0] == pytest.approx(-math.log(1.1) / 5.0, rel=1e-14)

    def test_density_is_exp_minus_beta_energy(self):
        L = landscape_1d("six random", 30.0)
        ok = L.supported
        np.testing.assert_allclose(L.lsr_density[ok], np.exp(-30.0 * L.lsr_energy[ok]), rtol=1e-12)
        np.testing.assert_allclose(L.lse_density, np.exp(-30.0 * L.lse_energy), rtol=1e-12)

    def test_five_points_keep_all_memories_and_add_midpoints(self):
        # Gaps 0.7–1.1: for 0.55 < R < 0.7 each adjacent midpoint is self-consistent
        # (members < R, neighbours > R away), so 5 stored + 4 emergent; LSE stays <= M.
        L = landscape_1d("five points", 2 / 0.6**2)
        assert (L.n_stored, L.n_emergent) == (5, 4)
        assert L.n_lse <= 5

    def test_bad_bounds_are_refused(self):
        with pytest.raises(ValueError, match="bounds"):
            landscape_1d("two points", 1.0, bounds=(1.0, 0.0))

    def test_two_dimensional_memories_are_refused(self):
        with pytest.raises(ValueError, match=r"shape \(M, 1\)"):
            landscape_1d([[0.0, 0.0]], 1.0)

    def test_bad_eps_is_refused(self):
        with pytest.raises(ValueError, match="eps"):
            landscape_1d("two points", 1.0, eps=-1.0)


class TestLandscape2D:
    def test_beta_is_validated_once(self, monkeypatch):
        # issue 9: one beta used to be re-validated five times on its way down (support_radius,
        # centroid_energy per minimum, lsr_trajectory per start, ...); private kernels now trust
        # it. Count the calls of every module's check_beta during one widget-sized update.
        from assocmem import _validation
        from assocmem.dense_am import energy, landscape, minima, retrieval

        calls = []

        def counting(value, name="beta"):
            calls.append(name)
            return _validation.check_beta(value, name)

        for module in (landscape, energy, retrieval, minima):
            monkeypatch.setattr(module, "check_beta", counting, raising=False)
        landscape_2d("triangle", 2 / 1.2**2, n_grid=40, starts=[[0.1, 0.2], [0.5, -0.3]])
        assert calls == ["beta"]

    def test_bounds_must_be_four_finite_numbers(self):
        for bounds in (1.0, (0.0, 1.0), (0.0, 1.0, 0.0, np.inf), "abcd"):
            with pytest.raises((TypeError, ValueError), match="bounds"):
                landscape_2d("triangle", 2.0, n_grid=10, bounds=bounds)

    def test_triangle_has_all_seven_subsets_as_minima(self):
        # note §2.9 item 2: R ∈ (1, 1.5) gives 2³ − 1 = 7 minima.
        L = landscape_2d("triangle", 2 / 1.2**2, n_grid=40)
        assert len(L.minima) == 7 and L.n_stored == 3 and L.n_emergent == 4

    def test_minima_equal_lsr_minima(self):
        Xi = random_memories(25, 2, rng=3)
        L = landscape_2d(Xi, 2 / 0.15**2, n_grid=30)
        assert list(L.minima) == lsr_minima(Xi, 2 / 0.15**2)

    def test_grid_energy_matches_lsr_energy(self):
        Xi = random_memories(10, 2, rng=1)
        L = landscape_2d(Xi, 60.0, n_grid=50)
        gx, gy = np.meshgrid(L.xs, L.ys)
        E = lsr_energy(np.column_stack([gx.ravel(), gy.ravel()]), Xi, 60.0).reshape(gx.shape)
        finite = np.isfinite(E)
        np.testing.assert_array_equal(finite, np.isfinite(L.energy))
        # Same terms summed in a different order: agreement to rounding (1e-12 relative).
        np.testing.assert_allclose(L.energy[finite], E[finite], rtol=1e-12, atol=1e-14)

    def test_active_counts_match_active_set_exactly(self):
        # Difference-form d² on the grid is bit-identical to sqdist (IEEE addition commutes).
        Xi = random_memories(12, 2, rng=2)
        L = landscape_2d(Xi, 40.0, n_grid=45)
        gx, gy = np.meshgrid(L.xs, L.ys)
        A = active_set(np.column_stack([gx.ravel(), gy.ravel()]), Xi, 40.0)
        np.testing.assert_array_equal(L.n_active, A.sum(axis=1).reshape(gx.shape))

    def test_minimum_energies_equal_energy_at_centroids(self):
        L = landscape_2d("triangle", 2 / 1.2**2, n_grid=20)
        E = lsr_energy(L.centroids, preset_memories("triangle"), L.beta)
        np.testing.assert_allclose(L.minima_energy, E, rtol=1e-12, atol=1e-15)

    def test_trajectories_end_at_algorithm_one_result(self):
        starts = np.array([[0.3, 0.3], [-0.5, -0.2]])
        L = landscape_2d("triangle", 2 / 1.2**2, n_grid=20, starts=starts)
        ends = np.stack([t[-1] for t in L.trajectories])
        np.testing.assert_array_equal(ends, lsr_retrieve(starts, L.memories, L.beta).points)

    def test_default_window_does_not_depend_on_beta(self):
        a, b = landscape_2d("square", 1.0, n_grid=10), landscape_2d("square", 50.0, n_grid=10)
        np.testing.assert_array_equal(a.xs, b.xs)

    def test_supported_fraction_grows_as_beta_falls(self):
        lo = landscape_2d("random 10", 20.0, n_grid=40).supported_fraction
        hi = landscape_2d("random 10", 200.0, n_grid=40).supported_fraction
        assert lo > hi

    def test_bad_starts_are_refused(self):
        with pytest.raises(ValueError, match="starts"):
            landscape_2d("triangle", 1.0, n_grid=10, starts=[[0.0, 0.0, 0.0]])

    def test_bad_bounds_are_refused(self):
        with pytest.raises(ValueError, match="bounds"):
            landscape_2d("triangle", 1.0, n_grid=10, bounds=(0, 1, 1, 0))


class TestCountCurve:
    def test_two_point_counts(self):
        c = count_curve([[0.0], [1.0]], TWO_POINT_BETAS)
        assert c.n_lsr.tolist() == list(TWO_POINT_COUNTS)
        assert (c.n_stored + c.n_emergent == c.n_lsr).all()
        # LSE never has 3 minima for two points (note §2.9 item 1).
        assert c.n_lse.max() <= 2

    def test_triangle_lse_has_four_minima_just_below_beta_two(self):
        # note §2.9 item 4 / T8: 1 minimum at β = 1.6, 4 at 1.95, 3 at 2.1.
        c = count_curve("triangle", [1.6, 1.95, 2.1], lse_starts=50)
        assert c.n_lse.tolist() == [1, 4, 3]

    def test_bad_betas_are_refused(self):
        with pytest.raises(ValueError, match="betas"):
            count_curve("triangle", [1.0, -2.0])


class TestMinimaCounts1D:
    def test_lse_at_most_m_and_lsr_above_m(self):
        # note §2.9 item 4 / T9: LSE ≤ M in 1-D; LSR exceeds M at intermediate β.
        res = minima_counts_1d(M=6, n_sets=8, rng=0)
        assert res.max_lse_ratio <= 1.0
        assert res.max_lsr_ratio > 1.0
        assert res.lse.shape == (8, 30)

    def test_gaps_draw_chains_with_those_gaps(self):
        # gaps (lo, hi): a chain from 0 with M - 1 gaps uniform in [lo, hi] (Fig. 1 left's five
        # points have gaps 0.7 to 1.1). At R = 0.65 every gap lies in (R, 2R): each pattern and
        # each midpoint is an LSR minimum, 2M - 1 = 9 in all (the two-point window, exactly).
        res = minima_counts_1d(M=5, n_sets=20, betas=[2 / 0.65**2], gaps=(0.7, 1.1), rng=1)
        assert res.lsr[:, 0].tolist() == [9] * 20
        assert np.all(res.lse <= 5) and res.lse.min() >= 1

    def test_gaps_at_a_beta_beyond_the_window_keep_only_the_patterns(self):
        # Gaps >= 1 and R = 0.45 < 1/2: no two balls overlap, so the M patterns are the minima.
        res = minima_counts_1d(M=4, n_sets=5, betas=[2 / 0.45**2], gaps=(1.0, 2.0), rng=0)
        assert res.lsr[:, 0].tolist() == [4] * 5

    def test_same_seed_same_chains(self):
        a = minima_counts_1d(M=5, n_sets=6, betas=[3.0, 30.0], gaps=(0.2, 0.9), rng=3)
        b = minima_counts_1d(M=5, n_sets=6, betas=[3.0, 30.0], gaps=(0.2, 0.9), rng=3)
        np.testing.assert_array_equal(a.lse, b.lse)
        np.testing.assert_array_equal(a.lsr, b.lsr)

    @pytest.mark.parametrize("gaps", [(1.1, 0.7), (0.0, 1.0), (0.5,), "ab"])
    def test_bad_gaps_are_refused_by_name(self, gaps):
        with pytest.raises((ValueError, TypeError), match="gaps"):
            minima_counts_1d(M=3, n_sets=2, betas=[10.0], gaps=gaps)


class TestSeparationCurves:
    def test_relu_vanishes_beyond_support_radius(self):
        # Fig. 2 / note §1.1: ReLU(1 + βs) = 0 for s <= −1/β, i.e. distance >= R.
        c = separation_curves([0.5, 2.0, 5.0], s_min=-3.0)
        for k, b in enumerate(c.betas):
            assert np.all(c.lsr[k][c.s <= -1.0 / b] == 0.0)
            assert np.all(c.lsr[k][c.s > -1.0 / b] > 0.0)
        np.testing.assert_allclose(c.radius, np.sqrt(2.0 / c.betas), rtol=1e-15)

    def test_exponential_never_vanishes(self):
        c = separation_curves(5.0, kind="lse")
        assert np.all(c.lse > 0.0) and c.lsr is None
        np.testing.assert_allclose(c.lse[0], np.exp(5.0 * c.s), rtol=1e-15)

    def test_distance_axis_is_sqrt_minus_two_s(self):
        c = separation_curves(1.0, n_points=5)
        np.testing.assert_allclose(c.distance**2, -2.0 * c.s, atol=1e-15)

    def test_bad_kind_is_refused(self):
        with pytest.raises(ValueError, match="kind"):
            separation_curves(1.0, kind="gauss")

    def test_positive_s_min_is_refused(self):
        with pytest.raises(ValueError, match="s_min"):
            separation_curves(1.0, s_min=0.5)


@pytest.fixture(scope="module")
def t3_memories() -> np.ndarray:
    """T3 setup (note §3.2): d = 2, M = 10 uniform memories in the unit square."""
    return random_memories(10, 2, rng=0)


class TestThm1Experiment:
    @pytest.mark.parametrize("t", [0.1, 0.3, 0.45])
    def test_every_start_is_retrieved_exactly_below_half(self, t3_memories, t):
        # Thm 1 with the Δ < r/2 correction (note §2.2, T3): 100 % exact, Alg. 1 and one step.
        res = thm1_experiment(t3_memories, t, n_per_basin=100)
        assert res.fraction == 1.0 and res.fraction_one_step == 1.0 and res.predicted == 1.0

    def test_fraction_matches_corrected_prediction_above_half(self, t3_memories):
        # note §2.2: Δ/r = 0.7, d = 2: ((r − Δ)/Δ)² = 0.184; 4000 samples, binomial SE 0.006,
        # tolerance ±0.03 (5 SE) as in T3.
        res = thm1_experiment(t3_memories, 0.7, n_per_basin=400)
        assert res.predicted == pytest.approx((0.3 / 0.7) ** 2, rel=1e-12)
        assert abs(res.fraction - res.predicted) <= 0.03

    def test_failures_are_exactly_the_unsupported_starts(self, t3_memories):
        # Above r/2, starts with ‖x − ξ_μ‖ >= R are outside every ball and never move.
        res = thm1_experiment(t3_memories, 0.8, n_per_basin=100)
        np.testing.assert_array_equal(res.retrieved, res.supported)
        dist = np.linalg.norm(res.starts - res.memories[res.basin], axis=1)
        np.testing.assert_array_equal(res.retrieved, dist < res.radius)

    def test_beta_is_two_over_r_minus_delta_squared(self, t3_memories):
        res = thm1_experiment(t3_memories, 0.25, n_per_basin=5)
        assert res.beta == pytest.approx(2.0 / (res.r - res.delta) ** 2, rel=1e-15)

    def test_same_seed_gives_same_starts(self, t3_memories):
        a = thm1_experiment(t3_memories, 0.6, n_per_basin=10, rng=4)
        b = thm1_experiment(t3_memories, 0.6, n_per_basin=10, rng=4)
        np.testing.assert_array_equal(a.starts, b.starts)

    def test_single_memory_is_refused(self):
        with pytest.raises(ValueError, match="at least 2"):
            thm1_experiment([[0.0, 0.0]], 0.3)

    def test_memories_too_far_apart_for_a_float_beta_are_refused_by_name(self):
        # r = 1e300 gives β = 2/(0.7 r)² = 4e-600, which underflows to 0 (issue 9: the error
        # blamed "r", a parameter the caller never passed)
        with pytest.raises(ValueError, match="memories"):
            thm1_experiment([[0.0, 0.0], [1e300, 0.0]], 0.3)

    def test_duplicate_memories_are_refused(self):
        with pytest.raises(ValueError, match="distinct"):
            thm1_experiment([[0.0, 0.0], [0.0, 0.0]], 0.3)

    @pytest.mark.parametrize("t", [0.0, 1.0, 1.5])
    def test_delta_outside_open_unit_interval_is_refused(self, t3_memories, t):
        with pytest.raises(ValueError, match="delta_over_r"):
            thm1_experiment(t3_memories, t)


class TestThm1Sweep:
    def test_sweep_tracks_prediction(self, t3_memories):
        # note §2.2 [calib]: Δ/r = 0.55, 0.7, 0.9 give 0.669, 0.184, 0.0123; ±0.05 for 1000
        # samples (binomial SE <= 0.016, 3 SE).
        sw = thm1_sweep(t3_memories, [0.3, 0.55, 0.7, 0.9], n_per_basin=100)
        np.testing.assert_allclose(sw.predicted, [1.0, 0.669, 0.184, 0.0123], atol=5e-4)
        assert np.all(np.abs(sw.fraction - sw.predicted) <= 0.05)
        np.testing.assert_array_equal(sw.fraction, sw.fraction_one_step)
        assert sw.n_starts == 1000 and sw.d == 2

    def test_empty_grid_is_refused(self, t3_memories):
        with pytest.raises(ValueError, match="deltas_over_r"):
            thm1_sweep(t3_memories, [])


class TestAlg1DescentCheck:
    def test_energy_never_increases_and_ends_at_exact_minima(self):
        # note §1.5 lemma / T11: d = 4, M = 30, β = 12, 2000 starts: no increase, <= 6 steps
        # in calibration; we allow rounding (1e-12) and 50 iterations as in T11.
        chk = alg1_descent_check(random_memories(30, 4, rng=0), 12.0, n_starts=2000)
        assert chk.max_increase <= 1e-12
        assert int(chk.n_iter.max()) <= 50
        assert bool(chk.self_consistent.all())
        assert np.all(chk.energy_end <= chk.energy_start + 1e-12)

    def test_start_energies_are_kept(self):
        # The recorded start energies are those of the supported starts (finite).
        chk = alg1_descent_check("triangle", 1.0, n_starts=20)
        assert np.all(np.isfinite(chk.energy_start))

    def test_bad_n_starts_is_refused(self):
        with pytest.raises(ValueError, match="n_starts"):
            alg1_descent_check("triangle", 1.0, n_starts=0)


class TestLseStoredGradientLog10:
    def test_two_points_closed_form(self):
        # ‖∇E(ξ_0)‖ = p_1 · 1 = 1/(1 + e^{β/2}) for two memories at distance 1 (note §1.3).
        for beta in (1.0, 10.0, 2000.0):
            expected = -np.logaddexp(0.0, beta / 2) / np.log(10.0)
            got = lse_stored_gradient_log10([[0.0], [1.0]], beta)
            np.testing.assert_allclose(got, expected, rtol=1e-13)

    def test_matches_float_gradient_where_it_does_not_underflow(self):
        Xi = random_memories(20, 8, rng=0)
        direct = np.log10(np.linalg.norm(lse_grad(Xi, Xi, 10.0), axis=1))
        # Two ways to round the same sum: agreement to 1e-10 in log10.
        np.testing.assert_allclose(lse_stored_gradient_log10(Xi, 10.0), direct, atol=1e-10)

    def test_finite_where_float_gradient_is_exactly_zero(self):
        # P8: at β = 1000 the float64 LSE gradient at every memory is exactly 0.0.
        Xi = random_memories(20, 8, rng=0)
        assert np.count_nonzero(lse_grad(Xi, Xi, 1000.0)) == 0
        assert np.all(np.isfinite(lse_stored_gradient_log10(Xi, 1000.0)))

    def test_duplicates_are_refused(self):
        with pytest.raises(ValueError, match="distinct"):
            lse_stored_gradient_log10([[0.0], [0.0]], 1.0)

    def test_far_patterns_give_the_honest_limit_not_nan(self):
        # issue 9: patterns 1e200 apart: β/2 d² = 1e400 overflows, so every weight p_ν (ν ≠ μ)
        # is below 1e-308 and log10 ‖∇E‖ ~ -4e399/ln 10 is beyond float64: -inf (was NaN). The
        # near pair (0, 1) keeps its closed form -log10(1 + e^{β/2}) at β = 2.
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = lse_stored_gradient_log10([[0.0], [1e200], [1.0]], 2.0)
        expected = -np.logaddexp(0.0, 1.0) / np.log(10.0)
        assert got[1] == -np.inf
        np.testing.assert_allclose(got[[0, 2]], expected, rtol=1e-13)


@pytest.mark.gpu
class TestCupyBackend:
    """Same results from CuPy inputs (skipped without CuPy and a CUDA device)."""

    def _cupy(self):
        cp = pytest.importorskip("cupy")
        if not has_gpu():
            pytest.skip("CuPy is installed but no CUDA device is usable")
        return cp

    def test_landscape_2d_equals_numpy(self):
        cp = self._cupy()
        Xi = random_memories(25, 2, rng=0)
        a = landscape_2d(Xi, 60.0, n_grid=40, starts=[[0.5, 0.5]])
        b = landscape_2d(cp.asarray(Xi), 60.0, n_grid=40, starts=cp.asarray([[0.5, 0.5]]))
        assert a.minima == b.minima
        np.testing.assert_array_equal(a.n_active, cp.asnumpy(b.n_active))
        # Same formula; GPU exp/log may differ in the last bits (1e-12 relative).
        np.testing.assert_allclose(a.energy, cp.asnumpy(b.energy), rtol=1e-12)

    def test_thm1_experiment_equals_numpy(self):
        cp = self._cupy()
        Xi = random_memories(10, 2, rng=0)
        a = thm1_experiment(Xi, 0.7, n_per_basin=50, rng=1)
        b = thm1_experiment(cp.asarray(Xi), 0.7, n_per_basin=50, rng=1)
        assert a.fraction == b.fraction
