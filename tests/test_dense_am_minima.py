"""Tests for assocmem.dense_am.minima: exact LSR minima, counts, thresholds and basins.

Reference values come from the paper (Hoover et al., *Dense Associative Memory with Epanechnikov
Energy*) and the chapter note ``shared/notes/05-epanechnikov-dense-am.md`` (§ numbers below).
Counts of minima are integers and are compared exactly; float tolerances are explained inline.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.dense_am.energy import active_set, lsr_energy, lsr_grad
from assocmem.dense_am.minima import (
    BetaThresholds,
    MinimaCount,
    MinimaSweep,
    basin_radius,
    beta_thresholds,
    count_minima,
    fig3_beta_grid,
    is_self_consistent,
    lsr_minima,
    lsr_minima_bruteforce,
    minima_centroids,
    minima_sweep,
    relative_beta_counts,
    support_fraction,
    threshold_counts,
)
from assocmem.dense_am.retrieval import lsr_retrieve


def uniform(M: int, d: int, seed: int) -> np.ndarray:
    """M memories uniform in [0, 1]^d (the paper's Sec. 4.1 setup)."""
    return np.random.default_rng(seed).random((M, d))


def two_points(d: int, a: float = 1.0, seed: int = 0) -> np.ndarray:
    """Two memories at distance a along a random direction of R^d (note §2.9.1)."""
    u = np.random.default_rng(seed).normal(size=d)
    return np.stack([np.zeros(d), a * u / np.linalg.norm(u)])


def triangle() -> np.ndarray:
    """Equilateral triangle with circumradius 1 (note §2.9.2)."""
    angles = 2 * np.pi * np.arange(3) / 3
    return np.stack([np.cos(angles), np.sin(angles)], axis=1)


def simplex(M: int, a: float = 1.0) -> np.ndarray:
    """Regular simplex with edge a: ξ_i = a/√2 e_i in R^M (note §2.9.3)."""
    return a / math.sqrt(2.0) * np.eye(M)


def alg1_step(memories: np.ndarray, x: np.ndarray, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """One step of Algorithm 1 with the library's centroid arithmetic: (active, mean of active)."""
    A = np.atleast_2d(active_set(x, memories, beta)).astype(float)
    return A > 0, (A @ memories) / A.sum(axis=1)[:, None]


# --------------------------------------------------------------------------------------------
# lsr_minima and lsr_minima_bruteforce: paper oracles
# --------------------------------------------------------------------------------------------


class TestLsrMinima:
    @pytest.mark.parametrize("d", [1, 2, 10])
    @pytest.mark.parametrize("method", ["auto", "cliques", "brute"])
    def test_two_patterns_have_three_minima_inside_window(self, d, method):
        # Note §2.9.1 / §3.2 T5: a = 1 gives 1, 3, 3, 3, 2 minima at these β (3 iff 2 < β < 8).
        xi = two_points(d)
        counts = [len(lsr_minima(xi, b, method=method)) for b in (1.9, 2.1, 5.0, 7.9, 8.1)]
        assert counts == [1, 3, 3, 3, 2]

    @pytest.mark.parametrize("method", ["auto", "cliques", "brute"])
    def test_equilateral_triangle_counts(self, method):
        # Note §2.9.2 / T7: R = 0.8, 0.9, 1.1, 1.4, 1.6, 1.8 give 3, 6, 7, 7, 4, 1 minima.
        radii = (0.8, 0.9, 1.1, 1.4, 1.6, 1.8)
        counts = [len(lsr_minima(triangle(), 2 / r**2, method=method)) for r in radii]
        assert counts == [3, 6, 7, 7, 4, 1]

    @pytest.mark.parametrize("M", [3, 5, 8, 10, 12])
    def test_regular_simplex_has_all_subsets_as_minima(self, M):
        # Note §2.9.3 / T6: at β = 4/a² every one of the 2^M − 1 subsets is self-consistent
        # (member distance² (a²/2)(k−1)/k < a²/2 = 2/β < (a²/2)(1 + 1/k)), so 2^M bound is tight.
        minima = lsr_minima(simplex(M), 4.0)
        assert len(minima) == 2**M - 1

    def test_regular_simplex_search_equals_brute_force_at_m14(self):
        # Same oracle at M = 14 for both enumerators (16383 minima).
        assert lsr_minima(simplex(14), 4.0) == lsr_minima_bruteforce(simplex(14), 4.0)

    @pytest.mark.parametrize("d", [2, 8, 16])
    def test_thresholds_c1_c2_c3(self, d):
        # Note §2.2 C1-C3 / T4 with M = 16: open ends with a 1e-3 margin (ties at the ends, P1).
        xi = uniform(16, d, seed=d)
        th = beta_thresholds(xi)
        assert lsr_minima(xi, 0.99 * th.single_minimum) == [tuple(range(16))]
        singles = {(i,) for i in range(16)}
        assert singles <= set(lsr_minima(xi, 1.001 * th.stored_exact))
        assert lsr_minima(xi, 1.001 * th.stored_only) == sorted(singles)

    def test_grid_1d_counts_prop3(self):
        # Note §2.7 [calib]: n = 40 points with spacing h = 1, R/h = 0.7, 1.2, 1.7, 2.2, 3.3 give
        # 79, 77, 75, 73, 69 minima (windows centred on points and on midpoints, away from ties).
        xi = np.arange(40.0)[:, None]
        counts = [len(lsr_minima(xi, 2 / r**2)) for r in (0.7, 1.2, 1.7, 2.2, 3.3)]
        assert counts == [79, 77, 75, 73, 69]

    def test_prop2_counterexample_is_not_a_minimum(self):
        # Note §1.7: patterns {0, 1, 3}, R = 1.6: B(1.5) = all three, but only {0, 1} is
        # self-consistent among the pairs/triple (B(4/3) = {0, 1}).
        minima = lsr_minima(np.array([[0.0], [1.0], [3.0]]), 2 / 1.6**2)
        assert (0, 1, 2) not in minima
        assert (0, 1) in minima

    @pytest.mark.parametrize("seed", range(4))
    @pytest.mark.parametrize("d", [2, 4])
    def test_enumerators_agree_on_random_sets(self, seed, d):
        # Note §3.2 T10: brute force == search for d in {2, 4}, M <= 12, across the β window.
        xi = uniform(12, d, seed=100 * d + seed)
        th = beta_thresholds(xi)
        for beta in np.geomspace(0.5 * th.single_minimum, 1.5 * th.stored_only, 7):
            assert lsr_minima(xi, beta) == lsr_minima_bruteforce(xi, beta)
            assert lsr_minima(xi, beta, method="cliques") == lsr_minima_bruteforce(xi, beta)

    def test_fig3_grid_search_equals_brute_force_at_d8(self):
        # The benchmark's setting (paper Fig. 3 left, d = 8; M = 14 to keep the brute force
        # cheap), every β of the extended grid, including the tie points 2/r² and 8/r².
        xi = uniform(14, 8, seed=3)
        for beta in fig3_beta_grid(xi):
            assert lsr_minima(xi, beta) == lsr_minima_bruteforce(xi, beta)

    def test_every_minimum_is_a_fixed_point_of_algorithm_1(self):
        # Note §1.7 / §4.2: B(ξ̄_𝒦) = 𝒦 (checked with energy.active_set, an independent kernel)
        # and one Alg-1 step from ξ̄_𝒦 returns ξ̄_𝒦 bit for bit (same centroid arithmetic).
        xi = uniform(14, 3, seed=7)
        beta = 2.0 / beta_thresholds(xi).r_min ** 2 * 0.3
        minima = lsr_minima(xi, beta)
        assert len(minima) > 14
        C = minima_centroids(xi, minima)
        active, nxt = alg1_step(xi, C, beta)
        expected = np.zeros_like(active)
        for i, K in enumerate(minima):
            expected[i, list(K)] = True
        np.testing.assert_array_equal(active, expected)
        np.testing.assert_array_equal(nxt, C)

    def test_output_is_sorted_list_of_sorted_tuples(self):
        minima = lsr_minima(uniform(10, 2, seed=1), 20.0)
        assert minima == sorted(minima)
        assert all(isinstance(K, tuple) and list(K) == sorted(K) for K in minima)
        assert all(isinstance(i, int) for K in minima for i in K)

    def test_single_memory_is_its_own_minimum(self):
        assert lsr_minima([[0.3, 0.7]], 1.0) == [(0,)]
        assert lsr_minima_bruteforce([[0.3, 0.7]], 1.0) == [(0,)]

    def test_duplicate_memories_merge_into_one_minimum(self):
        # Two identical patterns are never separately retrievable: the pair is the minimum.
        assert lsr_minima([[0.0], [0.0], [5.0]], 2.0) == [(0, 1), (2,)]

    def test_search_handles_more_than_62_memories(self):
        # The search has no bitmask limit; at β > 8/r² the answer is the M singletons (C2).
        xi = uniform(80, 3, seed=2)
        beta = 1.01 * beta_thresholds(xi).stored_only
        assert lsr_minima(xi, beta) == [(i,) for i in range(80)]

    def test_brute_force_chunk_size_does_not_change_the_result(self):
        xi = uniform(10, 3, seed=4)
        assert lsr_minima_bruteforce(xi, 6.0, chunk=7) == lsr_minima_bruteforce(xi, 6.0)


# --------------------------------------------------------------------------------------------
# Property tests (hypothesis)
# --------------------------------------------------------------------------------------------


@st.composite
def instances(draw):
    """Random small sets (no ties: continuous coordinates from a seeded generator) and a β."""
    M = draw(st.integers(1, 9))
    d = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    xi = np.random.default_rng(seed).random((M, d))
    # β from below 2/diam² (one minimum) to far above 8/r² (only singletons), log-uniform.
    log_beta = draw(st.floats(math.log(0.1), math.log(2000.0)))
    return xi, math.exp(log_beta), seed


class TestProperties:
    @settings(max_examples=60, deadline=None)
    @given(instances())
    def test_search_equals_brute_force(self, inst):
        xi, beta, _ = inst
        assert lsr_minima(xi, beta) == lsr_minima_bruteforce(xi, beta)

    @settings(max_examples=30, deadline=None)
    @given(instances())
    def test_permuting_memories_permutes_minima(self, inst):
        # Invariance: minima of Ξ[perm] are {perm⁻¹(𝒦)}; relabel and compare as sets.
        xi, beta, seed = inst
        perm = np.random.default_rng(seed + 1).permutation(xi.shape[0])
        permuted = lsr_minima(xi[perm], beta)
        mapped = sorted(tuple(sorted(int(perm[i]) for i in K)) for K in permuted)
        assert mapped == lsr_minima(xi, beta)

    @settings(max_examples=30, deadline=None)
    @given(instances())
    def test_every_returned_subset_is_self_consistent(self, inst):
        xi, beta, _ = inst
        assert all(is_self_consistent(xi, K, beta) for K in lsr_minima(xi, beta))

    @settings(max_examples=30, deadline=None)
    @given(instances())
    def test_every_returned_centroid_is_a_fixed_point_of_algorithm_1(self, inst):
        # Algorithm 1 started at a minimum's centroid must not move it (paper Alg. 1, note §1.7).
        xi, beta, _ = inst
        minima = lsr_minima(xi, beta)
        centroids = minima_centroids(xi, minima)
        out = lsr_retrieve(centroids, xi, beta)
        np.testing.assert_array_equal(out.points, centroids)
        assert [tuple(np.flatnonzero(row)) for row in out.active] == minima


# --------------------------------------------------------------------------------------------
# Ties: a memory on the support sphere of a centroid spoils the minimum (strict on both sides)
# --------------------------------------------------------------------------------------------

METHODS = ("auto", "cliques", "brute")


def probe_directions(xi: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Unit directions ±e_k and ± towards every memory not at c (the probes of a minimum)."""
    dirs = [np.eye(xi.shape[1])]
    to_mem = xi - c
    norms = np.linalg.norm(to_mem, axis=1)
    dirs.append(to_mem[norms > 0] / norms[norms > 0, None])
    dirs = np.concatenate(dirs)
    return np.concatenate([dirs, -dirs])


def assert_local_minima(xi: np.ndarray, beta: float, minima: list) -> None:
    """Every centroid is a local minimum of lsr_energy: no probe of size 1e-6 R goes down.

    Near a true minimum the energy rises by O(h²); at a tied "minimum" it falls linearly, by
    about R·h/S (S the ReLU sum) along the direction of the tied memory or away from it.
    """
    h = 1e-6 * math.sqrt(2.0 / beta)
    for K in minima:
        c = xi[list(K)].mean(axis=0)
        e0 = float(lsr_energy(c, xi, beta))
        e = np.asarray(lsr_energy(c + h * probe_directions(xi, c), xi, beta))
        assert math.isfinite(e0)
        assert np.all(e >= e0 - 1e-12 * max(1.0, abs(e0))), (K, float(np.min(e) - e0))


def lattice(M: int, d: int, seed: int) -> np.ndarray:
    """M distinct points with integer coordinates in [0, 3]^d: every squared distance, centroid
    distance and 2/β with β = 2/D² or 8/D² (D² a power of two) is exact in binary."""
    rng = np.random.default_rng(seed)
    pts = np.unique(rng.integers(0, 4, size=(4 * M, d)), axis=0)
    return pts[rng.permutation(len(pts))[:M]].astype(float)


def threshold_betas(xi: np.ndarray) -> list[float]:
    """β exactly on the pairwise thresholds 2/D² and 8/D² of every pair (float division)."""
    d2 = np.unique(((xi[:, None, :] - xi[None, :, :]) ** 2).sum(-1)[np.triu_indices(len(xi), 1)])
    return sorted({c / float(v) for v in d2 if v > 0 for c in (2.0, 8.0)})


class TestTies:
    @pytest.mark.parametrize("method", METHODS)
    @pytest.mark.parametrize("a", [0.5, 1.0, 2.0])
    def test_two_patterns_at_the_window_ends(self, method, a):
        # At β = 2/a² each pattern sits on the other's sphere (R = a): a tie, so no singleton
        # is a minimum; at β = 8/a² the members of the pair sit on the midpoint's sphere
        # (R = a/2). Both ends of the three-minima window 2/a² < β < 8/a² are open.
        xi = np.array([[0.0, 0.0], [a, 0.0]])
        assert lsr_minima(xi, 2.0 / a**2, method=method) == [(0, 1)]
        assert lsr_minima(xi, 8.0 / a**2, method=method) == [(0,), (1,)]
        assert len(lsr_minima(xi, 2.0 / a**2 * (1 + 1e-9), method=method)) == 3
        assert len(lsr_minima(xi, 8.0 / a**2 * (1 - 1e-9), method=method)) == 3

    def test_the_issue_example_energy_falls_off_the_singleton(self):
        # β = 2, R = 1: S(0) = ReLU(1) + ReLU(0) = 1, E(0) = 0; S(1e-3) = (1 − 1e-6) +
        # (2e-3 − 1e-6) > 1, so E(1e-3) = −(1/2) log S(1e-3) ≈ −1e-3 < E(0).
        xi = np.array([[0.0], [1.0]])
        assert float(lsr_energy(np.array([1e-3]), xi, 2.0)) < float(
            lsr_energy(np.zeros(1), xi, 2.0)
        )
        assert (0,) not in lsr_minima(xi, 2.0)
        assert not is_self_consistent(xi, [0], 2.0)

    @pytest.mark.parametrize("method", METHODS)
    @pytest.mark.parametrize("M", [3, 5, 8])
    def test_simplex_edges(self, method, M):
        # Standard basis e_1..e_M (edge √2, exact). A k-subset's centroid has members at
        # squared distance (k−1)/k and non-members at 1 + 1/k. At 2/β = 2 (β = 1) singletons
        # tie with every other vertex and pairs hold non-members inside: only the full set.
        # At 2/β = 1/2 pairs tie with their own members: only the singletons. At 2/β = 2/3
        # (not exact in binary) triples tie to rounding: singletons and pairs.
        xi = np.eye(M)
        assert lsr_minima(xi, 1.0, method=method) == [tuple(range(M))]
        assert lsr_minima(xi, 4.0, method=method) == [(i,) for i in range(M)]
        got = lsr_minima(xi, 3.0, method=method)
        assert all(len(K) <= 2 for K in got) and len(got) == M + math.comb(M, 2)

    @pytest.mark.parametrize("method", METHODS)
    def test_inexact_simplex_edge_is_a_tie_to_rounding(self, method):
        # Edge a = 1 with coordinates 1/√2: the squared edge is 1 only up to rounding; at
        # β = 2/a² = 2 the singletons still count as tied, and just above they are minima.
        xi = simplex(6, a=1.0)
        assert not any(len(K) == 1 for K in lsr_minima(xi, 2.0, method=method))
        singles = [K for K in lsr_minima(xi, 2.0 * (1 + 1e-9), method=method) if len(K) == 1]
        assert len(singles) == 6

    @pytest.mark.parametrize("method", METHODS)
    def test_point_equidistant_from_three_memories(self, method):
        # ξ_0 = 0 with three memories at distance 1; at β = 2 (R = 1) all three sit on its
        # sphere, so {0} is not a minimum; slightly above β = 2 it is.
        xi = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
        assert (0,) not in lsr_minima(xi, 2.0, method=method)
        assert (0,) in lsr_minima(xi, 2.0 * (1 + 1e-9), method=method)

    @pytest.mark.parametrize("seed", range(6))
    def test_lattice_instances_on_every_pairwise_threshold(self, seed):
        # Integer coordinates: ties at β = 2/D², 8/D² are exact. Every reported minimum is a
        # local minimum of the energy (probes ±1e-6 R), and the three methods agree.
        xi = lattice(9, 2 + seed % 3, seed)
        for beta in threshold_betas(xi):
            minima = lsr_minima(xi, beta)
            assert minima == lsr_minima(xi, beta, method="cliques")
            assert minima == lsr_minima_bruteforce(xi, beta)
            assert_local_minima(xi, beta, minima)

    @pytest.mark.parametrize("seed", range(6))
    def test_random_instances_on_every_pairwise_threshold(self, seed):
        # Continuous coordinates, β = 2/D² and 8/D² computed in floats: the intended ties hold
        # only up to rounding and count as ties; every reported minimum passes the probes.
        xi = uniform(8, 1 + seed % 4, seed=700 + seed)
        for beta in threshold_betas(xi):
            minima = lsr_minima(xi, beta)
            assert minima == lsr_minima(xi, beta, method="cliques")
            assert minima == lsr_minima_bruteforce(xi, beta)
            assert_local_minima(xi, beta, minima)

    @pytest.mark.parametrize("method", METHODS)
    @pytest.mark.parametrize("beta", [1e14, 1e16, 1e300])
    def test_huge_beta_keeps_every_singleton(self, method, beta):
        # A singleton's centroid is the memory itself (distance exactly 0), so the tie band,
        # which scales with 2/β, must never swallow it, however small 2/β gets.
        assert lsr_minima([[0.0], [1.0]], beta, method=method) == [(0,), (1,)]

    @pytest.mark.parametrize("method", METHODS)
    def test_memories_far_from_the_origin(self, method):
        # Two patterns at 1e6 and 1e6 + 1 with R = 0.014: both isolated minima. The band
        # depends on the memories' norm only through the rounding of multi-member centroids.
        assert lsr_minima([[1e6], [1e6 + 1]], 1e4, method=method) == [(0,), (1,)]

    @pytest.mark.parametrize("seed", range(3))
    def test_translation_far_from_the_origin_keeps_the_minima(self, seed):
        xi = uniform(10, 3, seed=900 + seed)
        th = beta_thresholds(xi)
        for beta in np.geomspace(0.7 * th.single_minimum, 1.3 * th.stored_only, 9):
            assert lsr_minima(xi + 1e3, beta) == lsr_minima(xi, beta)

    @settings(max_examples=40, deadline=None)
    @given(instances())
    def test_every_minimum_is_a_local_minimum_of_the_energy(self, inst):
        xi, beta, _ = inst
        assert_local_minima(xi, beta, lsr_minima(xi, beta))


# --------------------------------------------------------------------------------------------
# Prop. 2 (Hessian at the minima) and Thm 2(b) (basins)
# --------------------------------------------------------------------------------------------


class TestIsSelfConsistent:
    def test_prop2_counterexample(self):
        # Note §1.7: 1D {0, 1, 3} with R = 1.6.
        xi = [[0.0], [1.0], [3.0]]
        assert not is_self_consistent(xi, [0, 1, 2], 2 / 1.6**2)
        assert is_self_consistent(xi, (1, 0), 2 / 1.6**2)

    def test_gradient_vanishes_and_hessian_is_isotropic_at_minima(self):
        # Note §3.2 T12 / App. D.2: at a minimum N = 0, so ‖∇E‖ < 1e-12 (rounding of the centroid
        # only), and the Hessian is |B|/D I with D = Σ_{μ∈B} (1 − β/2 ‖x − ξ_μ‖²). A central
        # finite difference with h = 1e-4 has truncation error O(h²) and rounding ~1e-8 here;
        # rtol 1e-4 covers both. Only minima with basin radius > 100 h (a single cell) are used.
        xi = uniform(10, 2, seed=11)
        beta = 0.4 * beta_thresholds(xi).stored_only
        h = 1e-4
        checked = 0
        for K in lsr_minima(xi, beta):
            x = minima_centroids(xi, [K])[0]
            if basin_radius(xi, K, beta)[1] < 100 * h:
                continue
            assert np.linalg.norm(lsr_grad(x, xi, beta)) < 1e-12
            d2 = np.sum((xi[list(K)] - x) ** 2, axis=1)
            D = float(np.sum(1 - beta / 2 * d2))
            H = np.empty((2, 2))
            E = np.eye(2) * h
            for i in range(2):
                for j in range(2):
                    H[i, j] = (
                        lsr_energy(x + E[i] + E[j], xi, beta)
                        - lsr_energy(x + E[i] - E[j], xi, beta)
                        - lsr_energy(x - E[i] + E[j], xi, beta)
                        + lsr_energy(x - E[i] - E[j], xi, beta)
                    ) / (4 * h * h)
            np.testing.assert_allclose(H, len(K) / D * np.eye(2), rtol=1e-4, atol=1e-4 * len(K) / D)
            checked += 1
        assert checked >= 5

    def test_rejects_bad_index_sets(self):
        with pytest.raises(ValueError, match="index_set"):
            is_self_consistent([[0.0], [1.0]], [], 2.0)
        with pytest.raises(ValueError, match="index_set"):
            is_self_consistent([[0.0], [1.0]], [0, 2], 2.0)
        with pytest.raises(ValueError, match="index_set"):
            is_self_consistent([[0.0], [1.0]], [0, 0], 2.0)
        with pytest.raises(TypeError, match="index_set"):
            is_self_consistent([[0.0], [1.0]], [0.5], 2.0)


class TestBasinRadius:
    def test_one_alg1_step_from_inside_basin_lands_exactly(self):
        # Note §2.6 / T13: d = 4, M = 16, β = ½·2/r². From any point within 0.999 r* of a novel
        # minimum the active set is 𝒦, so one Alg-1 step returns x* bit for bit (the paper's r*,
        # eq. (4)); the note's calibration had 0 failures in 32 500 samples, here 40 per minimum.
        xi = uniform(16, 4, seed=5)
        beta = 0.5 * beta_thresholds(xi).stored_exact
        rng = np.random.default_rng(0)
        novel = [K for K in lsr_minima(xi, beta) if len(K) > 1]
        assert len(novel) >= 10
        for K in novel:
            r_star, r_exact = basin_radius(xi, K, beta)
            assert 0 < r_star <= r_exact
            x_star = minima_centroids(xi, [K])
            u = rng.normal(size=(40, 4))
            u /= np.linalg.norm(u, axis=1, keepdims=True)
            starts = x_star + 0.999 * r_star * rng.random((40, 1)) ** 0.25 * u
            active, landed = alg1_step(xi, starts, beta)
            assert np.all(active == np.isin(np.arange(16), K))
            np.testing.assert_array_equal(landed, np.repeat(x_star, 40, axis=0))

    def test_exact_radius_is_distance_to_nearest_support_sphere(self):
        # Note §2.6: r*_exact = min_μ |‖x* − ξ_μ‖ − R|; two points at distance 1, β = 5:
        # midpoint is 0.5 from both, R = √0.4, so r*_exact = √0.4 − 0.5.
        xi = two_points(1)
        r_star, r_exact = basin_radius(xi, [0, 1], 5.0)
        assert r_exact == pytest.approx(math.sqrt(0.4) - 0.5, rel=1e-12)
        # eq. (4): D_max = 0.5, δ_min = 0.4 − 0.25, no non-members (γ_min = inf).
        assert r_star == pytest.approx(math.sqrt(0.25 + 0.15) - 0.5, rel=1e-12)

    def test_rejects_non_minimum(self):
        with pytest.raises(ValueError, match="self-consistent"):
            basin_radius([[0.0], [1.0], [3.0]], [0, 1, 2], 2 / 1.6**2)


class TestMinimaCentroids:
    def test_centroids_are_means(self):
        xi = uniform(6, 3, seed=0)
        C = minima_centroids(xi, [(0,), (1, 4), (0, 2, 5)])
        np.testing.assert_allclose(C[2], xi[[0, 2, 5]].mean(axis=0), rtol=1e-15, atol=1e-15)
        assert np.array_equal(C[0], xi[0])

    def test_empty_list_gives_empty_array(self):
        assert minima_centroids(uniform(3, 2, seed=0), []).shape == (0, 2)


# --------------------------------------------------------------------------------------------
# Counting, sweeps, support fraction, thresholds and the β grid
# --------------------------------------------------------------------------------------------


class TestCountMinima:
    def test_two_patterns_split_into_stored_and_novel(self):
        # Note §2.9.1: inside (2, 8) both patterns and the midpoint.
        c = count_minima(two_points(3), 5.0)
        assert c == MinimaCount(beta=5.0, n_total=3, n_stored=2, n_novel=1, support_fraction=None)

    def test_thm2_count_bound_holds_as_an_inequality(self):
        # Note §2.6 (P14): only a sanity inequality, log #minima <= λ log(eM/λ) + log M with
        # λ = M V_d (2/β)^{d/2}; the note's example d = 8, M = 18, β = 3.8 (observed 354 << e^12).
        M, d, beta = 18, 8, 3.8
        lam = M * math.pi ** (d / 2) / math.gamma(d / 2 + 1) * (2 / beta) ** (d / 2)
        for seed in range(3):
            n = count_minima(uniform(M, d, seed=seed), beta).n_total
            assert math.log(n) <= lam * math.log(math.e * M / lam) + math.log(M)

    def test_support_samples_require_rng(self):
        with pytest.raises(TypeError, match="rng"):
            count_minima(two_points(2), 5.0, support_samples=10)


class TestMinimaSweep:
    def test_sweep_matches_pointwise_counts(self):
        xi = uniform(12, 3, seed=9)
        betas = fig3_beta_grid(xi, n=8)
        sweep = minima_sweep(xi, betas, support_samples=2000, rng=1)
        assert isinstance(sweep, MinimaSweep)
        for i, b in enumerate(betas):
            c = count_minima(xi, b)
            assert (sweep.n_total[i], sweep.n_stored[i]) == (c.n_total, c.n_stored)
        np.testing.assert_array_equal(sweep.n_novel, sweep.n_total - sweep.n_stored)
        # Same Monte-Carlo points for every β (common random numbers): support shrinks with β.
        assert np.all(np.diff(sweep.support_fraction) <= 0)
        # At β = 2/d (first grid point, R = √d) every point of the unit cube is supported.
        assert sweep.support_fraction[0] == 1.0

    def test_fig3_endpoints_follow_c1_c3(self):
        # Note §2.2: at the first β (< 2/diam²) one minimum; at the last (8/r², a tie point, P1)
        # at least the M stored patterns.
        xi = uniform(14, 8, seed=2)
        sweep = minima_sweep(xi, fig3_beta_grid(xi))
        assert sweep.n_total[0] == 1
        assert sweep.n_stored[-1] == 14


class TestSupportFraction:
    @pytest.mark.parametrize(("d", "R"), [(2, 0.3), (3, 0.4)])
    def test_ball_inside_cube_matches_its_volume(self, d, R):
        # P20: one memory at the cube centre; the ball is inside the cube, so the fraction is
        # V_d R^d. Within 4 standard errors √(p(1−p)/n) of the Monte-Carlo estimate.
        n = 100_000
        p = math.pi ** (d / 2) / math.gamma(d / 2 + 1) * R**d
        frac = support_fraction(np.full((1, d), 0.5), 2 / R**2, n_samples=n, rng=3)
        assert abs(frac - p) < 4 * math.sqrt(p * (1 - p) / n)

    def test_seeded_result_is_reproducible_and_chunk_independent(self):
        xi = uniform(5, 3, seed=0)
        a = support_fraction(xi, 10.0, n_samples=5000, rng=7, chunk=512)
        b = support_fraction(xi, 10.0, n_samples=5000, rng=7, chunk=5000)
        assert a == b


class TestBetaThresholds:
    def test_two_points(self):
        # Note §2.9.1: 2/a² and 8/a² for a = 2; diam = r = a.
        th = beta_thresholds([[0.0, 0.0], [2.0, 0.0]])
        assert th == BetaThresholds(0.5, 0.5, 2.0, 2.0, 2.0)

    def test_single_memory_limits(self):
        th = beta_thresholds([[1.0, 2.0]])
        assert (th.r_min, th.diam) == (math.inf, 0.0)
        assert (th.single_minimum, th.stored_exact, th.stored_only) == (math.inf, 0.0, 0.0)

    def test_duplicates_give_the_documented_infinite_limits(self):
        # r = 0: a duplicated pattern always has its twin inside its support, so no finite β
        # makes it a singleton minimum; 2/r² = 8/r² = inf is the exact limit (documented)
        th = beta_thresholds([[0.0], [1.0], [0.0]])
        assert (th.r_min, th.stored_exact, th.stored_only) == (0.0, math.inf, math.inf)
        assert all(len(k) != 1 or k[0] == 1 for k in lsr_minima([[0.0], [1.0], [0.0]], 1e6))


class TestRelativeBetaCounts:
    def test_each_row_is_a_minima_sweep_of_one_draw(self):
        # set i is the i-th (M, d) draw of one generator, swept at relative β · 2/r²
        c = relative_beta_counts([0.05, 0.5, 2.0], M=7, d=2, n_sets=3, rng=5)
        g = np.random.default_rng(5)
        for i in range(3):
            xi = g.random((7, 2))
            sw = minima_sweep(xi, np.array([0.05, 0.5, 2.0]) * beta_thresholds(xi).stored_exact)
            np.testing.assert_array_equal(c.n_stored[i], sw.n_stored)
            np.testing.assert_array_equal(c.n_novel[i], sw.n_novel)

    def test_regimes_above_two_and_eight_over_r_squared(self):
        # Note §2.2: every pattern a minimum above 2/r² (C1), only the patterns above 8/r² (C2)
        c = relative_beta_counts([1.5, 4.5], M=9, d=3, n_sets=10, rng=0)
        assert np.all(c.n_stored == 9) and np.all(c.n_novel[:, 1] == 0)

    def test_bad_relative_betas_are_refused_by_name(self):
        with pytest.raises(ValueError, match="relative_betas"):
            relative_beta_counts([0.0, 1.0])


class TestThresholdCounts:
    def test_the_three_regimes_on_many_sets(self):
        # Note §2.2 (C1-C3): one minimum below 2/diam², every pattern a minimum above 2/r², only
        # the patterns above 8/r²; exact counts, so every set must show all three.
        c = threshold_counts(M=10, d=3, n_sets=12, rng=4)
        assert c.n_total.shape == (12, 3)
        assert np.all(c.n_total[:, 0] == 1)
        assert np.all(c.n_stored[:, 1] == 10)
        assert np.all(c.n_total[:, 2] == 10) and np.all(c.n_novel[:, 2] == 0)
        np.testing.assert_array_equal(c.n_total, c.n_stored + c.n_novel)

    def test_each_set_matches_count_minima(self):
        # set i is the i-th (M, d) draw of one generator, counted at the documented β
        c = threshold_counts(M=6, d=2, n_sets=3, rng=7, below=0.9, above=1.01)
        g = np.random.default_rng(7)
        for i in range(3):
            xi = g.random((6, 2))
            th = beta_thresholds(xi)
            betas = (0.9 * th.single_minimum, 1.01 * th.stored_exact, 1.01 * th.stored_only)
            for j, b in enumerate(betas):
                m = count_minima(xi, b)
                assert (c.n_total[i, j], c.n_stored[i, j], c.n_novel[i, j]) == (
                    m.n_total,
                    m.n_stored,
                    m.n_novel,
                )

    @pytest.mark.parametrize(
        ("kwargs", "name"),
        [({"M": 1}, "M"), ({"below": 1.0}, "below"), ({"above": 2.5}, "above")],
    )
    def test_bad_arguments_are_refused_by_name(self, kwargs, name):
        with pytest.raises(ValueError, match=name):
            threshold_counts(**kwargs)


class TestFig3BetaGrid:
    def test_paper_range_and_extension(self):
        # App. C.2: 24 geometric points from 2/d to 2/r_min²; P3: extended to 8/r_min².
        xi = uniform(18, 8, seed=0)
        r2 = beta_thresholds(xi).r_min ** 2
        base = fig3_beta_grid(xi, extend=False)
        assert base.shape == (24,)
        assert base[0] == pytest.approx(2 / 8, rel=1e-14)
        assert base[-1] == pytest.approx(2 / r2, rel=1e-14)
        ratios = base[1:] / base[:-1]
        np.testing.assert_allclose(ratios, ratios[0], rtol=1e-12)
        full = fig3_beta_grid(xi)
        np.testing.assert_array_equal(full[:24], base)
        assert full[-1] == pytest.approx(8 / r2, rel=1e-14)
        assert np.all(full[25:] / full[24:-1] <= ratios[0] * (1 + 1e-12))

    def test_needs_two_memories(self):
        with pytest.raises(ValueError, match="M >= 2"):
            fig3_beta_grid([[0.5, 0.5]])


# --------------------------------------------------------------------------------------------
# Bad input and backends
# --------------------------------------------------------------------------------------------


class TestBadInput:
    @pytest.mark.parametrize("beta", [0.0, -1.0, float("nan"), float("inf")])
    @pytest.mark.parametrize("fn", [lsr_minima, lsr_minima_bruteforce, count_minima])
    def test_invalid_beta(self, fn, beta):
        with pytest.raises(ValueError, match="beta"):
            fn([[0.0], [1.0]], beta)

    def test_nan_memories(self):
        with pytest.raises(ValueError, match="memories"):
            lsr_minima([[0.0], [float("nan")]], 1.0)

    def test_empty_memories(self):
        with pytest.raises(ValueError, match="memories"):
            lsr_minima(np.zeros((0, 2)), 1.0)

    def test_wrong_dtype(self):
        with pytest.raises(TypeError, match="memories"):
            lsr_minima(np.array([["a"], ["b"]]), 1.0)
        with pytest.raises(TypeError, match="memories"):
            lsr_minima_bruteforce(np.array([[1j], [2.0]]), 1.0)

    def test_brute_force_refuses_more_than_62_memories(self):
        with pytest.raises(ValueError, match="M=63"):
            lsr_minima_bruteforce(np.zeros((63, 1)), 1.0)
        with pytest.raises(ValueError, match="M=63"):
            lsr_minima(np.zeros((63, 1)), 1.0, method="brute")

    def test_unknown_method(self):
        with pytest.raises(ValueError, match="method"):
            lsr_minima([[0.0]], 1.0, method="fast")

    def test_bad_chunk(self):
        with pytest.raises(ValueError, match="chunk"):
            lsr_minima_bruteforce([[0.0]], 1.0, chunk=0)

    def test_bad_betas_in_sweep(self):
        with pytest.raises(ValueError, match="betas"):
            minima_sweep([[0.0]], [1.0, -2.0])
        with pytest.raises(ValueError, match="betas"):
            minima_sweep([[0.0]], [])
        with pytest.raises(TypeError, match="betas"):
            minima_sweep([[0.0]], None)
        with pytest.raises(TypeError, match="betas"):
            minima_sweep([[0.0]], 1 + 1j)
        # a generator is still accepted (iterable of float)
        assert minima_sweep([[0.0], [1.0]], (b for b in [1.9, 5.0])).n_total.tolist() == [1, 3]

    def test_count_minima_names_beta_not_betas(self):
        with pytest.raises(ValueError, match=r"^beta must"):
            count_minima([[0.0], [1.0]], -1.0)

    @pytest.mark.parametrize("fn", [count_minima, minima_sweep])
    def test_rng_is_checked_even_without_support_samples(self, fn):
        with pytest.raises(TypeError, match="rng"):
            fn([[0.0], [1.0]], 5.0, support_samples=0, rng="abc")
        with pytest.raises(ValueError, match="rng"):
            fn([[0.0], [1.0]], 5.0, support_samples=0, rng=-1)

    @pytest.mark.parametrize("xp", ["abc", 1, math])
    def test_xp_is_checked_by_name(self, xp):
        # xp="abc" raised AttributeError: 'str' object has no attribute 'asarray'
        with pytest.raises(TypeError, match="xp must be None, numpy or cupy"):
            lsr_minima([[0.0], [1.0]], 4.0, xp=xp)
        with pytest.raises(TypeError, match="xp must be None, numpy or cupy"):
            lsr_minima_bruteforce([[0.0], [1.0]], 4.0, xp=xp)

    def test_brute_force_work_is_capped(self):
        # (2^30 − 1)·30·1 = 3.2e10 subset-coordinate products would take about 15 minutes
        with pytest.raises(ValueError, match=r"^memories asks for .* limit of 1073741824"):
            lsr_minima_bruteforce(np.arange(30.0)[:, None], 1.0)
        with pytest.raises(ValueError, match=r"^memories asks for"):
            lsr_minima(np.arange(30.0)[:, None], 1.0, method="brute")

    def test_entries_whose_squares_overflow_are_refused(self):
        # a memory at 1e300 made squared distances inf and lsr_minima returned [] (wrong: every
        # pattern is an isolated minimum); refused by name instead
        xi = np.array([[0.0], [1.0], [1e300]])
        for call in (
            lambda: lsr_minima(xi, 5.0),
            lambda: lsr_minima_bruteforce(xi, 5.0),
            lambda: beta_thresholds(xi),
            lambda: count_minima(xi, 5.0),
            lambda: fig3_beta_grid(xi),
        ):
            with pytest.raises(ValueError, match="memories must have entries of magnitude"):
                call()

    def test_fig3_grid_refuses_duplicates_by_name(self):
        # r_min = 0: the grid would run to 2/0 = inf (it returned inf before)
        with pytest.raises(ValueError, match=r"memories\[0\] and memories\[2\] are equal"):
            fig3_beta_grid([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]])

    def test_fig3_grid_caps_the_extension(self):
        # r_min just below √d: 2/r² / (2/d) = 1 + 2e-12, so the extension to 8/r² at the same
        # ratio would need ~1e13 points
        xi = np.array([[0.0], [1.0 - 1e-12]])
        with pytest.raises(ValueError, match=r"^extend asks for"):
            fig3_beta_grid(xi, n=3)
        assert fig3_beta_grid(xi, n=3, extend=False).shape == (3,)


def _cupy_or_skip():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("no CUDA device")
    except Exception as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"no usable CUDA device: {exc}")
    return cupy


@pytest.mark.gpu
class TestCuPy:
    def test_brute_force_on_gpu_equals_numpy(self):
        cupy = _cupy_or_skip()
        xi = uniform(14, 8, seed=0)
        for beta in fig3_beta_grid(xi)[::4]:
            gpu = lsr_minima_bruteforce(cupy.asarray(xi), float(beta))
            assert gpu == lsr_minima_bruteforce(xi, float(beta))
            assert gpu == lsr_minima(cupy.asarray(xi), float(beta))
