"""Tests for assocmem.dense_am.energy (LSE and LSR energies, gradients, Hessians).

Reference values come from the paper (eq. numbers) and the chapter note
shared/notes/05-epanechnikov-dense-am.md (§ numbers).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from cases import BAD_MEMORIES
from scipy.spatial import ConvexHull

from assocmem.backend import has_gpu
from assocmem.dense_am.energy import (
    active_set,
    centroid_energy,
    lse_energy,
    lse_grad,
    lse_hessian,
    lsr_energy,
    lsr_grad,
    lsr_hessian,
    separation_function,
    sqdist,
    support_radius,
)
from assocmem.dense_am.retrieval import lsr_retrieve


def _memories(seed: int, M: int, d: int) -> np.ndarray:
    return np.random.default_rng(seed).random((M, d))


def _min_pairwise(Xi: np.ndarray) -> float:
    diff = Xi[:, None, :] - Xi[None, :, :]
    D = np.sqrt((diff**2).sum(-1))
    return float(D[~np.eye(len(Xi), dtype=bool)].min())


def _fd_grad(f, x: np.ndarray, h: float) -> np.ndarray:
    """Central differences of a scalar function (error O(h²) + O(ulp/h))."""
    g = np.empty_like(x)
    for k in range(x.size):
        e = np.zeros_like(x)
        e[k] = h
        g[k] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def _fd_jac(f, x: np.ndarray, h: float) -> np.ndarray:
    """Central-difference Jacobian of a vector function; column k is d f / d x_k."""
    cols = []
    for k in range(x.size):
        e = np.zeros_like(x)
        e[k] = h
        cols.append((f(x + e) - f(x - e)) / (2 * h))
    return np.stack(cols, axis=1)


class TestSqdist:
    def test_matches_explicit_difference_form(self):
        # definition (note §0): sum_k (x_k - xi_k)^2; same float operations -> equal bits
        Xi = _memories(0, 7, 3)
        X = np.random.default_rng(1).random((5, 3))
        ref = ((X[:, None, :] - Xi[None, :, :]) ** 2).sum(-1)
        np.testing.assert_allclose(sqdist(X, Xi), ref, rtol=1e-15, atol=0)

    def test_point_on_a_memory_has_distance_exactly_zero(self):
        # difference form is exact at a stored pattern (note §4.6); GEMM form is not
        Xi = _memories(2, 9, 5) * 1e3
        assert np.all(np.diag(sqdist(Xi, Xi)) == 0.0)

    def test_single_point_gives_one_row(self):
        Xi = _memories(3, 4, 2)
        assert sqdist(Xi[0], Xi).shape == (4,)
        assert sqdist(Xi[:2], Xi).shape == (2, 4)

    def test_blocked_equals_unblocked(self):
        # more rows than one CPU block (2**16 / M): block boundaries must not change any value
        Xi = _memories(4, 50, 2)
        X = np.random.default_rng(5).random((3000, 2))
        ref = ((X[:, None, :] - Xi[None, :, :]) ** 2).sum(-1)
        np.testing.assert_allclose(sqdist(X, Xi), ref, rtol=1e-15, atol=0)


class TestSupportRadius:
    def test_value(self):
        # R = sqrt(2/beta) (note §0)
        assert support_radius(2.0) == 1.0
        assert support_radius(8.0) == 0.5

    def test_rejects_bad_beta(self):
        with pytest.raises(ValueError, match="beta"):
            support_radius(0.0)


class TestActiveSet:
    def test_is_strict_on_the_boundary(self):
        # strict set (note §0, P1): a memory at squared distance exactly 2/beta is inactive
        Xi = np.array([[0.0], [1.0], [0.5]])
        A = active_set([0.0], Xi, beta=2.0)  # 2/beta = 1 = distance^2 to xi=1
        assert A.tolist() == [True, False, True]

    def test_batch_shape(self):
        Xi = _memories(0, 6, 2)
        assert active_set(Xi, Xi, 3.0).shape == (6, 6)
        assert active_set(Xi, Xi, 3.0).dtype == bool


class TestSeparationFunction:
    def test_lse_is_exponential(self):
        # Fig. 2: F(beta s) = exp(beta s)
        s = np.linspace(-2, 0, 5)
        np.testing.assert_allclose(separation_function(s, 3.0, "lse"), np.exp(3.0 * s))

    def test_lsr_is_relu_and_vanishes_beyond_minus_one_over_beta(self):
        # Fig. 2: F(beta s) = ReLU(1 + beta s); zero for s <= -1/beta
        assert separation_function(-0.25, 2.0, "lsr") == 0.5
        assert separation_function(-0.5, 2.0, "lsr") == 0.0
        assert separation_function(-3.0, 2.0, "lsr") == 0.0

    def test_rejects_unknown_kind(self):
        with pytest.raises(ValueError, match="kind"):
            separation_function(0.0, 1.0, "gauss")


class TestLseEnergy:
    def test_single_memory_is_half_squared_distance(self):
        # one memory: -(1/beta) log exp(-beta/2 |x - xi|^2) = |x - xi|^2 / 2 (note §1.3)
        assert lse_energy([3.0, 4.0], [[0.0, 0.0]], 7.0) == pytest.approx(12.5, rel=1e-14)

    def test_single_point_returns_python_float_and_batch_an_array(self):
        Xi = _memories(0, 5, 3)
        assert isinstance(lse_energy(Xi[0], Xi, 2.0), float)
        assert lse_energy(Xi, Xi, 2.0).shape == (5,)

    def test_batch_equals_loop(self):
        Xi = _memories(1, 8, 3)
        X = np.random.default_rng(2).random((20, 3))
        loop = np.array([lse_energy(x, Xi, 4.0) for x in X])
        np.testing.assert_array_equal(lse_energy(X, Xi, 4.0), loop)

    def test_invariant_to_permuting_memories(self):
        # energy is a symmetric function of the memories; only summation order changes
        Xi = _memories(3, 10, 2)
        X = np.random.default_rng(4).random((30, 2))
        perm = np.random.default_rng(5).permutation(10)
        np.testing.assert_allclose(lse_energy(X, Xi, 9.0), lse_energy(X, Xi[perm], 9.0), 1e-13)

    def test_far_point_does_not_underflow(self):
        # the max-shift keeps logsumexp finite where every exp underflows (note §4.6)
        E = lse_energy([100.0], [[0.0], [1.0]], 50.0)
        assert math.isfinite(E) and E == pytest.approx(0.5 * 99.0**2, rel=1e-12)

    def test_matches_scipy_logsumexp(self):
        from scipy.special import logsumexp

        Xi = _memories(6, 12, 4)
        X = np.random.default_rng(7).random((10, 4))
        D2 = ((X[:, None] - Xi[None]) ** 2).sum(-1)
        ref = -logsumexp(-0.5 * 3.0 * D2, axis=1) / 3.0
        np.testing.assert_allclose(lse_energy(X, Xi, 3.0), ref, rtol=1e-13)

    def test_energy_beyond_float_range_is_plus_inf_not_nan(self):
        # issue 9: at x = (1e160, 0.1) every squared distance is ~1e320, beyond float64, and the
        # max-shift computed inf - inf = NaN. E >= min d²/2 - log(M)/β ~ 5e319 > 1.8e308, so
        # the honest float64 value is +inf.
        Xi = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert lse_energy([1e160, 0.1], Xi, 4.0) == math.inf
            np.testing.assert_array_equal(
                lse_energy([[1e160, 0.1], [0.2, 0.3]], Xi, 4.0)[0], math.inf
            )

    def test_overflowing_distances_with_representable_energy_are_exact(self):
        # d² = (1.5e154)² = 2.25e308 overflows, but E = d²/2 = 1.125e308 does not: one memory
        # gives exactly half the squared distance (note §1.3); with a second memory at (1, 0)
        # the nearer one dominates (weight ratio e^{-β·1.5e154}), so E = (1.5e154 - 1)²/2,
        # which rounds to the same float. Tolerance: a few ulps of the scaled norm.
        assert lse_energy([1.5e154, 0.0], [[0.0, 0.0]], 4.0) == pytest.approx(1.125e308, rel=1e-15)
        E = lse_energy([1.5e154, 0.0], [[0.0, 0.0], [1.0, 0.0]], 4.0)
        assert E == pytest.approx(1.125e308, rel=1e-15)


class TestLseGrad:
    @pytest.mark.parametrize("beta", [0.5, 4.0, 30.0])
    def test_matches_central_differences(self, beta):
        # D.5 (fixed): grad = x - softmax @ Xi. h = 1e-6: O(h^2) truncation, O(1e-16/h) rounding
        Xi = _memories(0, 8, 3)
        for x in np.random.default_rng(1).random((5, 3)):
            fd = _fd_grad(lambda z: lse_energy(z, Xi, beta), x, 1e-6)
            np.testing.assert_allclose(lse_grad(x, Xi, beta), fd, rtol=1e-6, atol=1e-8)

    @pytest.mark.parametrize("seed", range(4))
    def test_nonzero_at_every_convex_hull_vertex(self, seed):
        # note §2.4 (corrected Prop. 1): a hull vertex is never an exact LSE critical point at
        # finite beta; beta <= 50 keeps the softmax away from float underflow (P8)
        Xi = _memories(seed, 12, 3)
        vertices = ConvexHull(Xi).vertices
        for beta in (0.5, 2.0, 10.0, 50.0):
            norms = np.linalg.norm(lse_grad(Xi[vertices], Xi, beta), axis=1)
            assert np.all(norms > 0)

    def test_batch_shape(self):
        Xi = _memories(2, 5, 2)
        assert lse_grad(Xi[0], Xi, 1.0).shape == (2,)
        assert lse_grad(Xi, Xi, 1.0).shape == (5, 2)

    def test_far_point_gradient_is_finite_and_exact(self):
        # issue 9 (was NaN). At x = (1e160, 0.1) the memory (1, 0) is nearer than (0, 0) and
        # (0, 1) by d² differences of about 2e160, so p = e_1 exactly in float64 and
        # ∇E = x - ξ_1 = (1e160 - 1, 0.1), which is (1e160, 0.1) in float64.
        Xi = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
        np.testing.assert_array_equal(lse_grad([1e160, 0.1], Xi, 4.0), [1e160, 0.1])

    def test_far_point_softmax_keeps_finite_differences(self):
        # x = (-1e300, 5): d² to (0, 1) and (0, 0) differ by exactly 25 - 16 = 9 although both
        # overflow, so p_(0,1) = 1/(1 + e^{-β·9/2}) with β = 4: ∂E/∂x_2 = 5 - p_(0,1); the
        # (1, 0) weight is e^{-β·1e300} = 0. Reference in closed form, rel 1e-15 (rounding).
        Xi = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
        g = lse_grad([-1e300, 5.0], Xi, 4.0)
        p01 = 1.0 / (1.0 + math.exp(-18.0))
        assert g[0] == -1e300 and g[1] == pytest.approx(5.0 - p01, rel=1e-15)


class TestLseHessian:
    @pytest.mark.parametrize("beta", [0.5, 4.0, 30.0])
    def test_matches_finite_differences_of_gradient(self, beta):
        # note §1.3: Hessian = I - beta Cov_p; FD of the analytic gradient, h = 1e-6
        Xi = _memories(3, 8, 3)
        for x in np.random.default_rng(4).random((4, 3)):
            fd = _fd_jac(lambda z: lse_grad(z, Xi, beta), x, 1e-6)
            np.testing.assert_allclose(lse_hessian(x, Xi, beta), fd, rtol=1e-6, atol=1e-7)

    def test_triangle_centroid_has_curvature_one_minus_beta_over_two(self):
        # note §2.9 item 4: equilateral triangle, circumradius 1 -> centroid Hessian (1 - beta/2) I
        ang = np.pi / 2 + 2 * np.pi * np.arange(3) / 3
        T = np.stack([np.cos(ang), np.sin(ang)], axis=1)
        H = lse_hessian([0.0, 0.0], T, 1.9)
        np.testing.assert_allclose(H, (1 - 0.95) * np.eye(2), atol=1e-14)

    def test_batch_shape_and_symmetry(self):
        Xi = _memories(5, 6, 4)
        H = lse_hessian(Xi, Xi, 2.0)
        assert H.shape == (6, 4, 4)
        np.testing.assert_allclose(H, np.swapaxes(H, 1, 2), atol=1e-15)

    def test_far_point_hessian_is_finite_and_exact(self):
        # issue 9 (was NaN). Along the diagonal x = (1e300, 1e300) the memories (1, 0) and
        # (0, 1) tie exactly and (0, 0) is 2e300 farther in d²: p = (0, 1/2, 1/2), Cov_p has
        # entries ±1/4, and I - β Cov_p = [[0, 1], [1, 0]] at β = 4 (exact in float64).
        Xi = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
        np.testing.assert_array_equal(lse_hessian([1e300, 1e300], Xi, 4.0), [[0, 1], [1, 0]])


def _cell_interior_points(Xi, beta, n, seed, margin=1e-3):
    """Random supported points at least ``margin`` (in d^2) from every support sphere."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(Xi.min(0) - 0.2, Xi.max(0) + 0.2, size=(20 * n, Xi.shape[1]))
    D2 = ((X[:, None] - Xi[None]) ** 2).sum(-1)
    ok = np.all(np.abs(D2 - 2 / beta) > margin, axis=1) & np.any(D2 < 0.8 * 2 / beta, axis=1)
    return X[ok][:n]


class TestLsrEnergy:
    def test_infinite_off_support_when_eps_is_zero(self):
        # eq. (3) with eps = 0: log(0) -> E = +inf outside every support ball (note §1.4)
        Xi = _memories(0, 5, 2)
        beta = 200.0  # R = 0.1
        X = np.random.default_rng(1).uniform(-1, 2, size=(500, 2))
        off = ~np.any(((X[:, None] - Xi[None]) ** 2).sum(-1) < 2 / beta, axis=1)
        E = lsr_energy(X, Xi, beta)
        assert off.sum() > 400
        assert np.all(np.isinf(E[off]) & (E[off] > 0))
        assert np.all(np.isfinite(E[~off]))

    def test_plateau_value_with_positive_eps(self):
        # eps > 0: unsupported points sit on the plateau -(1/beta) log(eps) (P5)
        E = lsr_energy([5.0], [[0.0]], 2.0, eps=1e-3)
        assert E == pytest.approx(-math.log(1e-3) / 2.0, rel=1e-15)

    def test_isolated_memory_has_energy_minus_log_one_plus_eps_over_beta(self):
        # note §1.4: a stored pattern with no neighbour in its ball: E = -(1/beta) log(1 + eps)
        assert lsr_energy([0.0], [[0.0], [3.0]], 2.0, eps=0.5) == pytest.approx(
            -math.log(1.5) / 2.0, rel=1e-15
        )

    def test_batch_equals_loop_and_shapes(self):
        Xi = _memories(2, 8, 3)
        X = np.random.default_rng(3).random((25, 3))
        loop = np.array([lsr_energy(x, Xi, 6.0) for x in X])
        assert isinstance(lsr_energy(X[0], Xi, 6.0), float)
        np.testing.assert_array_equal(lsr_energy(X, Xi, 6.0), loop)

    def test_invariant_to_permuting_memories(self):
        Xi = _memories(4, 10, 2)
        X = np.random.default_rng(5).random((40, 2))
        perm = np.random.default_rng(6).permutation(10)
        a, b = lsr_energy(X, Xi, 12.0), lsr_energy(X, Xi[perm], 12.0)
        assert np.array_equal(np.isinf(a), np.isinf(b))
        fin = np.isfinite(a)
        np.testing.assert_allclose(a[fin], b[fin], rtol=1e-12, atol=1e-14)


class TestLsrGrad:
    def test_matches_central_differences_inside_cells(self):
        # eqs. (7)-(8); LSR is smooth inside a cell; points kept >= 1e-3 (in d^2) from spheres so
        # the FD stencil (h = 1e-7) never crosses a kink
        Xi, beta = _memories(0, 10, 2), 20.0
        X = _cell_interior_points(Xi, beta, 20, seed=1)
        assert len(X) == 20
        for x in X:
            fd = _fd_grad(lambda z: lsr_energy(z, Xi, beta), x, 1e-7)
            np.testing.assert_allclose(lsr_grad(x, Xi, beta), fd, rtol=1e-5, atol=1e-7)

    def test_exactly_zero_at_stored_patterns_above_2_over_r2(self):
        # Remark 1 / corollary C1 (note §2.2-2.3): for beta > 2/r^2 each ball holds only its own
        # memory, N = x - xi = 0 exactly -> gradient is exactly 0.0 in float64
        for seed, d in itertools.product(range(3), (2, 8)):
            Xi = _memories(seed, 20, d)
            beta = 1.001 * 2 / _min_pairwise(Xi) ** 2  # open endpoint, margin 1e-3 (P1)
            assert np.all(lsr_grad(Xi, Xi, beta) == 0.0)

    def test_unsupported_gradient_is_zero_never_nan(self):
        # App. A: undefined off support at eps = 0; the library returns 0 (documented convention)
        G = lsr_grad([[5.0, 5.0], [0.05, 0.0]], [[0.0, 0.0]], 2.0)
        assert np.all(np.isfinite(G))
        np.testing.assert_array_equal(G[0], [0.0, 0.0])
        assert G[1, 0] > 0

    def test_zero_off_support_with_positive_eps(self):
        # eq. (7) with eps > 0: no active memory -> numerator 0 -> gradient exactly 0
        np.testing.assert_array_equal(lsr_grad([5.0], [[0.0]], 2.0, eps=1e-6), [0.0])


class TestLsrHessian:
    def test_matches_finite_differences_inside_cells(self):
        # note §1.4: |B|/D I + beta/D^2 N N^T, FD of the analytic gradient (h = 1e-7)
        Xi, beta = _memories(3, 10, 2), 20.0
        X = _cell_interior_points(Xi, beta, 15, seed=4)
        for x in X:
            fd = _fd_jac(lambda z: lsr_grad(z, Xi, beta), x, 1e-7)
            np.testing.assert_allclose(lsr_hessian(x, Xi, beta), fd, rtol=1e-5, atol=1e-6)

    def test_positive_definite_inside_the_support(self):
        # note §1.4: LSR is convex inside every cell
        Xi, beta = _memories(5, 10, 3), 10.0
        X = _cell_interior_points(Xi, beta, 30, seed=6)
        assert np.all(np.linalg.eigvalsh(lsr_hessian(X, Xi, beta))[:, 0] > 0)

    def test_value_at_a_minimum_is_count_over_d_times_identity(self):
        # App. D.2: at a critical point the Hessian is |B| / (eps + sum ReLU) I
        Xi, beta, eps = np.array([[0.0, 0.0], [1.0, 0.0]]), 4.0, 0.1
        mid = np.array([0.5, 0.0])
        D = eps + 2 * (1 - beta / 2 * 0.25)
        np.testing.assert_allclose(lsr_hessian(mid, Xi, beta, eps), 2 / D * np.eye(2), rtol=1e-14)


class TestCentroidEnergy:
    def test_matches_lsr_energy_at_self_consistent_centroids(self):
        # note §1.4 closed form == eq. (3) at xi_bar_K whenever B(xi_bar_K) = K (note §1.7);
        # self-consistent sets come from Algorithm 1. Tolerance: different summation orders
        Xi, beta = _memories(7, 15, 3), 6.0
        res = lsr_retrieve(np.random.default_rng(8).random((300, 3)), Xi, beta)
        sets = {tuple(np.flatnonzero(a)) for a in res.active[res.supported]}
        assert len(sets) > 3
        for eps in (0.0, 0.3):
            for K in sets:
                c = Xi[list(K)].mean(0)
                ref = lsr_energy(c, Xi, beta, eps)
                assert centroid_energy(Xi, K, beta, eps) == pytest.approx(ref, rel=1e-12, abs=1e-14)

    def test_singleton(self):
        # note §1.4: a singleton has E = -(1/beta) log(1 + eps)
        assert centroid_energy([[1.0], [9.0]], [1], 3.0, 0.2) == pytest.approx(-math.log(1.2) / 3)

    @pytest.mark.parametrize(
        ("index_set", "exc"),
        [((), ValueError), ((0, 0), ValueError), ((5,), ValueError), ((1.5,), TypeError)],
    )
    def test_rejects_bad_index_set(self, index_set, exc):
        with pytest.raises(exc, match="index_set"):
            centroid_energy([[0.0], [1.0]], index_set, 1.0)


_FUNCS = [lse_energy, lse_grad, lse_hessian, lsr_energy, lsr_grad, lsr_hessian, active_set]


class TestValidation:
    @pytest.mark.parametrize("func", _FUNCS)
    @pytest.mark.parametrize(
        ("beta", "exc"),
        [(0.0, ValueError), (-1.0, ValueError), (math.nan, ValueError), (math.inf, ValueError),
         (True, TypeError), ("2", TypeError)],
    )  # fmt: skip
    def test_bad_beta(self, func, beta, exc):
        with pytest.raises(exc, match="beta"):
            func([0.0, 0.0], [[1.0, 1.0]], beta)

    @pytest.mark.parametrize("func", _FUNCS)
    def test_x_shape_mismatch(self, func):
        with pytest.raises(ValueError, match="x"):
            func([0.0, 0.0, 0.0], [[1.0, 1.0]], 1.0)

    @pytest.mark.parametrize("func", _FUNCS)
    @BAD_MEMORIES
    def test_bad_memories(self, func, memories, exc):
        with pytest.raises(exc, match="memories"):
            func([0.0, 0.0], memories, 1.0)

    @pytest.mark.parametrize("func", [lsr_energy, lsr_grad, lsr_hessian])
    def test_bad_eps(self, func):
        with pytest.raises(ValueError, match="eps"):
            func([0.0], [[0.0]], 1.0, eps=-1e-3)

    def test_nan_in_x(self):
        with pytest.raises(ValueError, match="x"):
            lse_energy([np.nan, 0.0], [[0.0, 0.0]], 1.0)


@pytest.mark.gpu
class TestCupyMatchesNumpy:
    def test_energies_gradients_hessians(self):
        cp = pytest.importorskip("cupy")
        if not has_gpu():
            pytest.skip("no CUDA device")
        Xi = _memories(0, 20, 3)
        X = np.random.default_rng(1).random((500, 3))
        for func in (lse_energy, lse_grad, lse_hessian, lsr_energy, lsr_grad, lsr_hessian):
            ref = func(X, Xi, 15.0)
            got = func(cp.asarray(X), cp.asarray(Xi), 15.0)
            assert isinstance(got, cp.ndarray)
            np.testing.assert_allclose(cp.asnumpy(got), ref, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(
            cp.asnumpy(active_set(cp.asarray(X), cp.asarray(Xi), 15.0)), active_set(X, Xi, 15.0)
        )
