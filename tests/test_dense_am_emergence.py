"""Tests for assocmem.dense_am.emergence: Defs. 1-3, Props. 1-3, Thm 2 and Fig. 3 (left)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from assocmem.dense_am import emergence as em
from assocmem.dense_am.energy import lse_grad, lse_hessian, lsr_grad
from assocmem.dense_am.minima import beta_thresholds, lsr_minima_bruteforce


class TestRegularSimplex:
    @pytest.mark.parametrize("M", [2, 3, 7])
    def test_all_edges_equal_a(self, M):
        # ξ_i = (a/√2) e_i: ‖ξ_i − ξ_j‖² = a² exactly up to rounding (note §2.9 item 3)
        x = em.regular_simplex(M, a=1.5)
        d = [np.linalg.norm(x[i] - x[j]) for i, j in itertools.combinations(range(M), 2)]
        np.testing.assert_allclose(d, 1.5, rtol=1e-14)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="a must"):
            em.regular_simplex(3, a=0.0)
        with pytest.raises(ValueError, match="M"):
            em.regular_simplex(0)


class TestSimplexWindow:
    def test_two_points_is_the_three_minima_window(self):
        # note §2.9 item 1: 3 minima iff 2/a² < β < 8/a²
        assert em.simplex_window(2, a=2.0) == (0.5, 2.0)

    def test_triangle_window_in_units_of_circumradius(self):
        # note §2.9 item 2: 7 minima for 1 < R < 1.5 with circumradius 1 (edge √3)
        lo, hi = em.simplex_window(3, a=math.sqrt(3.0))
        assert math.sqrt(2 / hi) == pytest.approx(1.0, rel=1e-14)
        assert math.sqrt(2 / lo) == pytest.approx(1.5, rel=1e-14)

    def test_tiny_edge_gives_infinite_ends(self):
        # a = 1e-200: a² underflows to 0 (ZeroDivisionError before); 4(M−1)/(M a²) = 2.67e400
        # exceeds float64, so both ends are +inf
        assert em.simplex_window(3, a=1e-200) == (math.inf, math.inf)
        # a = 1e-100 stays in range: 4·2/3·1e200 and 4·3/2·1e200
        lo, hi = em.simplex_window(3, a=1e-100)
        assert lo == pytest.approx(8 / 3 * 1e200, rel=1e-14)
        assert hi == pytest.approx(6e200, rel=1e-14)

    @pytest.mark.parametrize("M", [3, 5, 8])
    def test_count_is_two_to_m_minus_one_inside_and_less_outside(self, M):
        # derived window (note §2.9 item 3); relative margins 1e-3 avoid the tie endpoints (P1)
        lo, hi = em.simplex_window(M)
        inside = em.simplex_count_experiment([M], beta=math.sqrt(lo * hi))
        above = em.simplex_count_experiment([M], beta=hi * 1.001)
        below = em.simplex_count_experiment([M], beta=lo * 0.999)
        assert inside.n_minima[0] == 2**M - 1
        assert above.n_minima[0] < 2**M - 1
        assert below.n_minima[0] < 2**M - 1


class TestRegularPolygon:
    def test_vertices_on_circle(self):
        x = em.regular_polygon(5, circumradius=2.0)
        np.testing.assert_allclose(np.linalg.norm(x, axis=1), 2.0, rtol=1e-14)

    def test_triangle_side(self):
        # equilateral triangle with circumradius 1 has side √3 (note §2.9 item 2)
        x = em.equilateral_triangle()
        assert np.linalg.norm(x[1] - x[2]) == pytest.approx(math.sqrt(3.0), rel=1e-14)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="n"):
            em.regular_polygon(1)


class TestGridMemories:
    def test_shape_and_spacing(self):
        g = em.grid_memories(3, 2, spacing=0.5)
        assert g.shape == (9, 2)
        assert sorted(set(g[:, 0])) == [0.0, 0.5, 1.0]

    def test_size_is_capped(self):
        # 10^10 points of a 10-D grid would need 800 GB: refused by name before allocating
        with pytest.raises(ValueError, match=r"^n asks for .* coordinates .* limit of"):
            em.grid_memories(10, 10)


class TestPolygonMinima:
    @pytest.mark.parametrize(
        ("radius", "count"), [(0.8, 3), (0.9, 6), (1.1, 7), (1.4, 7), (1.6, 4), (1.8, 1)]
    )
    def test_triangle_counts(self, radius, count):
        # note §2.9 item 2 [calib]: counts (3, 6, 7, 7, 4, 1) at R = (0.8, 0.9, 1.1, 1.4, 1.6, 1.8)
        assert len(em.polygon_minima(3, radius).minima) == count

    def test_curve_reaches_seven_for_triangle_but_not_fifteen_for_square(self):
        # the triangle reaches 2³ − 1; a planar square cannot reach 2⁴ − 1 (both diagonals share
        # the centre), measured maximum 13
        assert em.polygon_minima(3, 1.2).curve_counts.max() == 7
        assert em.polygon_minima(4, 1.2).curve_counts.max() == 13

    def test_curve_is_scale_invariant(self):
        a, b = em.polygon_minima(3, 1.2), em.polygon_minima(3, 2.4, circumradius=2.0)
        np.testing.assert_allclose(b.curve_radii, 2 * a.curve_radii)
        assert a.curve_counts.tolist() == b.curve_counts.tolist()
        assert a.minima == b.minima

    def test_bad_input(self):
        with pytest.raises(ValueError, match="radius"):
            em.polygon_minima(3, -1.0)
        with pytest.raises(ValueError, match="n_vertices"):
            em.polygon_minima(9, 1.0)


class TestSimplexCountExperiment:
    def test_two_to_m_minus_one_up_to_twelve(self):
        # note §2.9 item 3 [calib]: brute force gives exactly 2^M − 1 at β = 4/a²
        res = em.simplex_count_experiment(range(2, 13), a=2.0)
        assert res.n_minima.tolist() == (2 ** np.arange(2, 13) - 1).tolist()
        assert np.all(res.beta == 1.0)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="Ms"):
            em.simplex_count_experiment([])
        with pytest.raises(ValueError, match="Ms"):
            em.simplex_count_experiment([1])


class TestProp2Check:
    def test_counterexample_of_note(self):
        # note §1.7: {0, 1, 3}, R = 1.6: B(1.5) = all three, centroid 4/3, B(4/3) = {0, 1}
        chk = em.prop2_counterexample()
        assert chk.active == (0, 1, 2)
        assert chk.centroid[0] == pytest.approx(4 / 3, rel=1e-15)
        assert chk.active_at_centroid == (0, 1)
        assert not chk.self_consistent
        assert chk.grad_norm_at_centroid > 0.1
        # Algorithm 1 moves on to 1/2, the centroid of {0, 1}
        assert chk.fixed_point_set == (0, 1)
        assert chk.fixed_point[0] == pytest.approx(0.5, abs=1e-15)

    def test_gradient_matches_library(self):
        chk = em.prop2_counterexample()
        g = lsr_grad(chk.centroid, chk.memories, chk.beta)
        assert chk.grad_norm_at_centroid == pytest.approx(float(np.linalg.norm(g)), rel=1e-12)

    def test_self_consistent_case_has_zero_gradient(self):
        chk = em.prop2_check([[0.0, 0.0], [1.0, 0.0], [5.0, 5.0]], beta=2.0, x=[0.4, 0.1])
        assert chk.self_consistent and chk.grad_norm_at_centroid == 0.0

    def test_energy_profile_only_in_1d(self):
        assert em.prop2_counterexample().energy is not None
        chk = em.prop2_check([[0.0, 0.0], [1.0, 0.0]], beta=2.0, x=[0.4, 0.0])
        assert chk.grid is None

    def test_unsupported_point_is_rejected(self):
        with pytest.raises(ValueError, match="x must lie"):
            em.prop2_check([[0.0], [1.0]], beta=2.0, x=[10.0])


class TestEmergenceCounts:
    def test_each_set_is_one_emergence_report(self):
        # set i is the i-th (M, d) draw of one generator, judged at relative_beta · 2/r²
        c = em.emergence_counts(M=8, d=3, relative_beta=1.5, n_sets=3, rng=2, eps_novel=0.05)
        g = np.random.default_rng(2)
        for i in range(3):
            xi = g.random((8, 3))
            rep = em.emergence_report(xi, 1.5 * beta_thresholds(xi).stored_exact, 0.05)
            assert c.n_minima[i] == len(rep.minima)
            assert c.n_novel[i] == rep.is_novel.sum()
            assert c.n_strongly[i] == rep.strongly_emergent.sum()
            assert c.global_emergence[i] == rep.global_emergence

    def test_above_two_over_r_squared_every_pattern_is_kept(self):
        # Thm 1 (β > 2/r²): every pattern is a minimum, so global emergence iff a novel minimum;
        # for LSR the removal set of Def. 3 is the index set (note §1.6)
        c = em.emergence_counts(M=10, d=4, relative_beta=2.0, n_sets=8, rng=0)
        assert np.all(c.n_retained == 10)
        np.testing.assert_array_equal(c.global_emergence, c.n_novel > 0)
        assert np.all(c.n_removal_not_index == 0)

    def test_below_two_over_r_squared_no_global_emergence(self):
        # β < 2/r²: the closest pair shares its minimum, so Def. 2 (i) fails in every set
        c = em.emergence_counts(M=10, d=4, relative_beta=0.5, n_sets=8, rng=0)
        assert np.all(c.n_retained < 10) and not c.global_emergence.any()

    def test_bad_relative_beta_is_refused_by_name(self):
        with pytest.raises(ValueError, match="relative_beta"):
            em.emergence_counts(relative_beta=0.0)


class TestEmergenceReport:
    def test_two_points_show_global_emergence(self):
        # Sec. 3: two patterns suffice; β = 4 lies in (2/a², 8/a²) with a = 1 (note §2.9)
        rep = em.emergence_report([[0.0, 0.0], [1.0, 0.0]], beta=4.0, eps_novel=0.1)
        assert rep.global_emergence
        assert rep.is_novel.tolist() == [False, True, False]
        assert rep.removal_sets[1] == (0, 1)
        assert rep.strongly_emergent[1] and rep.locally_emergent[1]

    def test_removal_set_equals_index_set(self):
        # for LSR, 𝒮(ξ̃) = 𝒦 (note §1.6): removing any member destroys the minimum
        xi = np.random.default_rng(3).random((10, 3))
        beta = 0.5 * beta_thresholds(xi).stored_exact
        rep = em.emergence_report(xi, beta, eps_novel=0.0)
        for k, s, nov in zip(rep.minima, rep.removal_sets, rep.is_novel, strict=True):
            if nov and len(k) > 1:
                assert s == k

    def test_local_without_global_at_low_beta(self):
        # Sec. 4.1: at low β novel minima form before every pattern is retained (Def. 3 vs 2)
        xi = np.random.default_rng(0).random((12, 4))
        beta = 0.4 * beta_thresholds(xi).stored_exact
        rep = em.emergence_report(xi, beta, eps_novel=0.0)
        assert not rep.global_emergence
        assert rep.locally_emergent.any()
        # strongly emergent implies locally emergent (Def. 3)
        assert not np.any(rep.strongly_emergent & ~rep.locally_emergent)

    def test_large_eps_novel_removes_novelty(self):
        rep = em.emergence_report([[0.0], [1.0]], beta=4.0, eps_novel=0.6)
        assert not rep.is_novel.any() and not rep.global_emergence

    def test_bad_input(self):
        with pytest.raises(ValueError, match="eps_novel"):
            em.emergence_report([[0.0], [1.0]], beta=4.0, eps_novel=-1.0)


class TestExtremePoints:
    def test_square_with_centre(self):
        x = [[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.5]]
        assert em.extreme_points(x).tolist() == [True, True, True, True, False]

    def test_simplex_embedded_in_higher_dimension(self):
        # a flat set (Qhull would fail): every simplex vertex is extreme
        assert em.extreme_points(em.regular_simplex(5)).all()

    def test_matches_convex_hull_in_2d(self):
        from scipy.spatial import ConvexHull

        x = np.random.default_rng(1).random((15, 2))
        mask = np.zeros(15, dtype=bool)
        mask[ConvexHull(x).vertices] = True
        assert em.extreme_points(x).tolist() == mask.tolist()


class TestLseHullVertexGradients:
    def test_hull_vertices_never_zero_for_many_patterns(self):
        # note §2.4: extreme-point argument, any M and d (here M = 14 > d = 3)
        xi = np.random.default_rng(0).random((14, 3))
        hg = em.lse_hull_vertex_gradients(xi, np.geomspace(0.1, 1e4, 15))
        assert not hg.linearly_independent
        assert np.all(np.isfinite(hg.log10_grad_norm[:, hg.is_extreme]))

    def test_log_space_agrees_with_float64_where_no_underflow(self):
        # moderate β: both computations are accurate; 1e-9 relative covers the cancellation
        # in x − softmax @ Ξ
        xi = np.random.default_rng(2).random((6, 2))
        hg = em.lse_hull_vertex_gradients(xi, [0.5, 5.0])
        np.testing.assert_allclose(10**hg.log10_grad_norm, hg.grad_norm_float64, rtol=1e-9)

    def test_float64_underflows_but_log_space_does_not(self):
        # Pitfall P8: at large β the float64 gradient at a pattern is exactly 0.0
        # (at a pattern away from the origin x − p @ Ξ cancels to 0.0 once p rounds one-hot)
        xi = np.array([[1.0], [2.0], [4.0]])
        hg = em.lse_hull_vertex_gradients(xi, [200.0])
        assert hg.grad_norm_float64[0, 0] == 0.0
        # true value ≈ e^(−β/2 · 1²) · 1 for the neighbour at distance 1: log10 = −100/ln 10;
        # the neighbour at distance 3 contributes e^(−900), far below the 0.01 tolerance
        assert hg.log10_grad_norm[0, 0] == pytest.approx(-100 / math.log(10), abs=0.01)

    def test_symmetric_interior_pattern_is_critical_and_a_minimum(self):
        # note §2.4 [fix]: {−1, 0, 1}: ∇E(0) = 0 for every β; a minimum at large β
        hg = em.lse_hull_vertex_gradients([[-1.0], [0.0], [1.0]], [1.0, 10.0])
        assert np.isneginf(hg.log10_grad_norm[:, 1]).all()
        assert float(lse_hessian([0.0], [[-1.0], [0.0], [1.0]], 10.0)[0, 0]) > 0
        assert float(lse_grad([0.0], [[-1.0], [0.0], [1.0]], 10.0)[0]) == 0.0

    def test_bad_input(self):
        with pytest.raises(ValueError, match="beta"):
            em.lse_hull_vertex_gradients([[0.0], [1.0]], [1.0, -2.0])
        with pytest.raises(ValueError, match="memories"):
            em.lse_hull_vertex_gradients([[0.0]], [1.0])


class TestGridMinimaCounts:
    def test_one_dimensional_counts_of_note(self):
        # note §2.7 [calib]: n = 40, R/h = 0.7, 1.2, 1.7 give 79, 77, 75 minima
        got = [int(em.grid_minima_counts([40], 1, r).counts[0]) for r in (0.7, 1.2, 1.7)]
        assert got == [79, 77, 75]

    def test_two_dimensional_counts_of_note(self):
        # note §2.7 [calib]: R = 0.8h gives 145, 313 for n = 5, 7
        g = em.grid_minima_counts([5, 7], 2, 0.8)
        assert g.counts.tolist() == [145, 313]
        # ratio to the prediction ≈ 7.5-7.7 (note)
        assert np.all((g.ratio > 7.3) & (g.ratio < 7.8))

    def test_one_dimensional_factor_two(self):
        # odd and even windows are both self-consistent: count ≈ 2 (n − 2R/h + 1)
        g = em.grid_minima_counts([20, 40], 1, 0.7)
        np.testing.assert_allclose(g.ratio, 2.0, atol=0.05)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="radius_over_spacing"):
            em.grid_minima_counts([5], 1, 0.4)
        with pytest.raises(ValueError, match="radius_over_spacing must give a finite beta"):
            em.grid_minima_counts([5], 1, 1e300)  # β = 2/1e600 underflows to 0
        with pytest.raises(ValueError, match=r"ns asks for 400 grid points .* limit of 128"):
            em.grid_minima_counts([10, 20], 2, 0.7)
        with pytest.raises(TypeError, match="ns"):
            em.grid_minima_counts(None, 1, 0.7)


class TestEmergenceSweep:
    def test_endpoints_and_window(self):
        # C3: one minimum at β = 2/d (diam <= √d); C4: the global window lies in (2/r², 8/r²).
        # Both 2/r² and 8/r² are grid points and exact ties (P1): with the strict active set the
        # closest pair is then just outside each other's support, so the ends count as closed.
        s = em.emergence_sweep(d=8, M=12, seed=0, support_samples=2000)
        assert s.n_total[0] == 1
        w = s.betas[s.global_window]
        assert w.size > 0
        assert np.all(w >= s.thresholds.stored_exact) and np.all(w <= s.thresholds.stored_only)
        assert np.all(s.n_total == s.n_stored + s.n_novel)

    def test_support_fraction_decreases(self):
        # common random numbers: the supported fraction is monotone in β
        s = em.emergence_sweep(d=4, M=8, seed=1, support_samples=2000)
        assert np.all(np.diff(s.support_fraction) <= 0)
        assert s.support_fraction[0] == 1.0

    def test_seed_determinism(self):
        a = em.emergence_sweep(d=4, M=8, seed=2, support_samples=500)
        b = em.emergence_sweep(d=4, M=8, seed=2, support_samples=500)
        assert a.n_total.tolist() == b.n_total.tolist()
        np.testing.assert_array_equal(a.support_fraction, b.support_fraction)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="M"):
            em.emergence_sweep(d=4, M=1)
        with pytest.raises(ValueError, match="seed"):
            em.emergence_sweep(d=4, M=4, seed=-1)


class TestEmergencePeaks:
    def test_peak_grows_with_dimension(self):
        # note Appendix / T16: the median peak height increases with d
        pk = em.emergence_peaks([2, 8], M=10, seeds=[0, 1], support_samples=0)
        assert np.median(pk.peak_ratio[1]) > np.median(pk.peak_ratio[0])
        assert pk.peak_ratio.shape == (2, 2)


class TestLargestBetaCounterexample:
    def test_novel_minima_at_paper_max_none_above_eight_over_r2(self):
        # note P3 [calib]: d = 8, M = 18 had 33-57 minima at β = 2/r²; C2: only M above 8/r²
        xi = np.random.default_rng(0).random((18, 8))
        chk = em.largest_beta_counterexample(xi)
        assert chk.at_paper_max.n_novel > 0
        assert chk.at_stored_only.n_total == 18 and chk.at_stored_only.n_novel == 0

    def test_duplicate_memories_are_refused_by_name(self):
        # r = 0 makes 2/r² and 8/r² infinite (it raised ZeroDivisionError); the error says which
        with pytest.raises(
            ValueError, match=r"memories must be distinct.*memories\[0\] and memories\[2\]"
        ):
            em.largest_beta_counterexample([[0.0], [1.0], [0.0]])

    def test_margin_that_overflows_is_refused(self):
        with pytest.raises(ValueError, match="margin"):
            em.largest_beta_counterexample([[0.0], [1.0]], margin=1e308)


class TestCountBoundCheck:
    def test_bound_holds_where_stated(self):
        # note §2.6: sanity inequality log(#minima) <= λ log(eM/λ) + log M
        chk = em.count_bound_check(em.emergence_sweep(8, 14, seed=0, support_samples=0))
        assert chk.valid.any()
        assert chk.holds.all()

    def test_bound_is_finite_everywhere(self):
        # log_bound is now given at every β (it was NaN outside 1 <= λ <= M); ``valid`` still
        # marks where the paper states it
        chk = em.count_bound_check(em.emergence_sweep(4, 6, seed=0, n_beta=4, support_samples=0))
        assert np.all(np.isfinite(chk.log_bound))
        assert not chk.valid.all()

    @pytest.mark.parametrize("sweep", [None, "sweep", 1.0])
    def test_non_sweep_is_refused_by_name(self, sweep):
        with pytest.raises(TypeError, match="sweep must be a EmergenceSweep"):
            em.count_bound_check(sweep)


class TestBasinSurvey:
    def test_one_step_retrieval_in_r_star_ball(self):
        # note §2.6 [calib]: 0 failures for starts in 0.999 r*; r*_exact >= r*
        xi = np.random.default_rng(0).random((10, 3))
        beta = 0.5 * beta_thresholds(xi).stored_exact
        s = em.basin_survey(xi, beta, n_samples=100, rng=1)
        assert len(s.minima) > 0 and s.n_fail == 0
        assert np.all(s.r_star_exact >= s.r_star)
        assert np.all(s.delta_min > 0) and np.all(s.gamma_min > 0)
        assert s.epsilon == pytest.approx(s.r_star.min())

    def test_no_novel_minima(self):
        # ε = min over the novel minima of r*: over an empty set the minimum is +inf (it was
        # NaN, a silent non-answer; Thm 2's statement holds vacuously for every ε)
        s = em.basin_survey([[0.0], [5.0]], beta=2.0, n_samples=10)
        assert s.minima == [] and s.epsilon == math.inf


class TestCollisionCurve:
    @pytest.mark.parametrize(("d", "M"), [(2, 50), (8, 100)])
    def test_union_bound_holds(self, d, M):
        # eq. (10): empirical Pr[r < ε] <= M² V_d ε^d + 3 binomial s.e. (note §2.6 item 1)
        c = em.collision_curve(d, M, 300, rng=0)
        assert np.all(c.empirical <= c.bound + 3 * c.stderr)


class TestActiveSetExperiment:
    def test_mean_matches_prediction_and_band(self):
        # note §2.6 item 3 [calib]: d = 2, M = 2000, β = 200: mean 62.8 vs predicted 62.8;
        # 15 % tolerance of the note
        a = em.active_set_experiment(2, 2000, 200.0, n_queries=300, rng=0)
        assert a.mean == pytest.approx(a.band.prediction, rel=0.15)
        assert a.fraction_in_band >= a.p_proof
        assert a.p_statement > a.p_proof


class TestCapacityPanel:
    def test_success_above_bound(self):
        # note §2.6 item 2 [calib]: d = 8, α = 0.5, M = 10: success 0.993 >= δ = 0.966
        p = em.capacity_panel(8, 10, 0.5, n_trials=300, rng=0)
        assert p.mc.empirical_success >= p.mc.bound_delta
        assert p.curve.M[0] == 2 and p.curve.M[-1] == 40


class TestScaledLandscape2d:
    def test_relative_beta_sets_beta(self):
        L = em.scaled_landscape_2d([[0.0, 0.0], [2.0, 0.0]], relative_beta=2.0, n_grid=8)
        # r = 2: 2/r² = 0.5, so β = 1 and R = √2 in (a/2, a): 3 minima (note §2.9 item 1)
        assert L.beta == pytest.approx(1.0, rel=1e-14)
        assert len(L.minima) == 3

    def test_preset_name(self):
        L = em.scaled_landscape_2d("triangle", relative_beta=2.0, n_grid=8)
        assert len(L.minima) == 7

    def test_bad_input(self):
        with pytest.raises(ValueError, match="relative_beta"):
            em.scaled_landscape_2d("triangle", relative_beta=0.0)
        with pytest.raises(ValueError, match="memories must be an array or one of"):
            em.scaled_landscape_2d("pentagon", relative_beta=1.0)
        with pytest.raises(ValueError, match=r"memories must be distinct.*memories\[0\]"):
            em.scaled_landscape_2d([[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]], relative_beta=1.0)
        with pytest.raises(ValueError, match="relative_beta must keep beta"):
            # r = 0.1: β = 1e308 · 2/0.01 = 2e310 overflows
            em.scaled_landscape_2d([[0.0, 0.0], [0.1, 0.0]], relative_beta=1e308)


class TestAgainstBruteForce:
    def test_report_minima_equal_brute_force(self):
        # the exact enumeration underneath must equal the paper's brute force (Sec. 4.1)
        xi = np.random.default_rng(5).random((9, 2))
        beta = 0.6 * beta_thresholds(xi).stored_exact
        assert em.emergence_report(xi, beta, 0.0).minima == lsr_minima_bruteforce(xi, beta)


class TestCapacityScaling:
    def test_success_stays_above_delta_as_m_grows_exponentially(self):
        # Thm 2(a): M = √(1 − δ) e^(αd) keeps Pr[success] >= δ; 150 draws give a binomial
        # s.e. <= 0.04, and the measured success (~0.9, note §2.6 item 2) is far above 0.5
        c = em.capacity_scaling([4, 8, 12], alpha=0.5, delta=0.5, n_trials=150, rng=0)
        assert c.M.tolist() == [5, 38, 285]
        assert np.all(c.empirical_success >= 0.5)
        assert np.all(c.bound_delta >= 0.5)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="delta"):
            em.capacity_scaling([4], alpha=0.5, delta=1.0)
        with pytest.raises(TypeError, match="ds"):
            em.capacity_scaling(None, alpha=0.5, delta=0.5)

    def test_huge_alpha_names_alpha_and_the_cap(self):
        # α = 1e300 made M = e^(αd) overflow to an int of -2^63 and the error blamed "M"
        with pytest.raises(ValueError, match=r"^alpha asks for inf memories .* limit of 16384"):
            em.capacity_scaling([2], alpha=1e300, delta=0.5)
        # α = 1, d = 12 asks for sqrt(0.5) e^12 = 1.15e5 memories, above the cap 2^14 = 16384
        with pytest.raises(ValueError, match=r"^alpha asks for 1\.15e\+05 memories"):
            em.capacity_scaling([12], alpha=1.0, delta=0.5, n_trials=1)
