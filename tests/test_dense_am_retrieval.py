"""Tests for assocmem.dense_am.retrieval (Algorithm 1, LSR one-step GD, LSE descent and minima).

Reference values come from the paper (eq./theorem numbers) and the chapter note
shared/notes/05-epanechnikov-dense-am.md (§ and T numbers of its tables).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from cases import BAD_MEMORIES
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from assocmem._validation import ConvergenceWarning
from assocmem.backend import has_gpu
from assocmem.dense_am.energy import active_set, lse_energy, lse_grad, lsr_energy
from assocmem.dense_am.retrieval import (
    LSEDescent,
    LSEMinima,
    LSRRetrieval,
    lse_descend,
    lse_minima,
    lsr_one_step,
    lsr_retrieve,
    lsr_trajectory,
    thm1_beta,
)


def _min_pairwise(Xi: np.ndarray) -> float:
    diff = Xi[:, None, :] - Xi[None, :, :]
    D = np.sqrt((diff**2).sum(-1))
    return float(D[~np.eye(len(Xi), dtype=bool)].min())


def _triangle() -> np.ndarray:
    """Equilateral triangle with circumradius 1 (note §2.9 items 2 and 4)."""
    ang = np.pi / 2 + 2 * np.pi * np.arange(3) / 3
    return np.stack([np.cos(ang), np.sin(ang)], axis=1)


def _uniform_in_balls(centres: np.ndarray, radius: float, n: int, seed: int) -> np.ndarray:
    """n points uniform in the ball of the given radius around each centre, grouped by centre."""
    rng = np.random.default_rng(seed)
    M, d = centres.shape
    u = rng.standard_normal((M, n, d))
    u /= np.linalg.norm(u, axis=-1, keepdims=True)
    rad = radius * rng.random((M, n, 1)) ** (1 / d)
    return (centres[:, None, :] + rad * u).reshape(M * n, d)


@pytest.fixture(scope="module")
def memories() -> np.ndarray:
    """T3 setup (note §3.2): d = 2, M = 10 uniform memories in the unit square."""
    return np.random.default_rng(0).random((10, 2))


def _distinct_minima(res: LSRRetrieval) -> set[tuple[int, ...]]:
    """LSR minima found by Algorithm 1, identified by their index sets (P16)."""
    return {tuple(np.flatnonzero(a)) for a in res.active[res.supported]}


class TestThm1Beta:
    def test_value(self):
        # Thm 1: beta = 2 / (r - Delta)^2, so R = r - Delta
        assert thm1_beta(1.0, 0.5) == 8.0
        assert math.sqrt(2 / thm1_beta(3.0, 1.0)) == pytest.approx(2.0, rel=1e-15)

    @pytest.mark.parametrize(("r", "delta"), [(1.0, 0.0), (1.0, 1.0), (1.0, 1.5), (1.0, -0.1)])
    def test_rejects_delta_outside_open_interval(self, r, delta):
        with pytest.raises(ValueError, match="delta"):
            thm1_beta(r, delta)

    def test_rejects_bad_r(self):
        with pytest.raises(ValueError, match="r"):
            thm1_beta(0.0, 0.1)

    @pytest.mark.parametrize(("r", "delta"), [(1e300, 0.5), (1e-200, 0.5e-200)])
    def test_beta_outside_the_float_range_is_refused_by_name(self, r, delta):
        # issue 9: r = 1e300 raised OverflowError from (r - delta)**2; 2/(r - delta)² is then
        # 2e-600 (underflows to 0, not a valid beta) or 8e400 (overflows): refuse, naming both
        with pytest.raises(ValueError, match="r and delta"):
            thm1_beta(r, delta)

    def test_does_not_warn_beyond_r_over_2(self):
        # the Delta < r/2 correction (note §2.2) is documented, not enforced
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            thm1_beta(1.0, 0.9)


class TestLsrRetrieve:
    @pytest.mark.parametrize("ratio", [0.1, 0.3, 0.45])
    def test_thm1_exact_retrieval_below_r_over_2(self, memories, ratio):
        # Thm 1 with the Delta < r/2 fix (note §2.2, T3): every start in S_mu(Delta) retrieves
        # xi_mu exactly, bit for bit (the centroid of a single memory is the memory)
        r = _min_pairwise(memories)
        delta = ratio * r
        beta = thm1_beta(r, delta)
        X = _uniform_in_balls(memories, delta, 400, seed=1)
        target = np.repeat(memories, 400, axis=0)
        res = lsr_retrieve(X, memories, beta)
        assert np.array_equal(res.points, target)
        assert np.all(res.supported) and np.all(res.active.sum(1) == 1)
        # ... and a single GD step with Thm 1's eta lands there to rounding (eq. (9))
        np.testing.assert_allclose(lsr_one_step(X, memories, beta), target, rtol=0, atol=1e-12)

    def test_thm1_fails_beyond_r_over_2_at_predicted_rate(self, memories):
        # note §2.2 fix: for Delta >= r/2 only the inner ball of radius r - Delta is supported;
        # retrieved fraction = ((r - Delta)/Delta)^d = (3/7)^2 = 0.1837 (T3: 733/4000 measured).
        # 4000 samples: binomial SE 0.006, so +-0.03 is 5 SE
        r = _min_pairwise(memories)
        delta = 0.7 * r
        X = _uniform_in_balls(memories, delta, 400, seed=2)
        target = np.repeat(memories, 400, axis=0)
        res = lsr_retrieve(X, memories, thm1_beta(r, delta))
        ok = np.all(res.points == target, axis=1)
        assert abs(ok.mean() - (0.3 / 0.7) ** 2) < 0.03
        # the failures are exactly the unsupported starts, which do not move (P7)
        assert np.array_equal(ok, res.supported)
        assert np.array_equal(res.points[~ok], X[~ok])
        assert np.all(res.n_iter[~ok] == 0)

    @pytest.mark.parametrize("d", [1, 2, 10])
    @pytest.mark.parametrize(("beta", "count"), [(1.9, 1), (2.1, 3), (5.0, 3), (7.9, 3), (8.1, 2)])
    def test_two_patterns_exact_window(self, d, beta, count):
        # note §2.9 item 1 / T5: two patterns at distance a = 1 have 3 LSR minima iff
        # 2 < beta < 8 (a/2 < R < a), 1 below, 2 above. Starts along the segment plus jitter
        Xi = np.zeros((2, d))
        Xi[1, 0] = 1.0
        t = np.linspace(-0.3, 1.3, 321)[:, None]
        X = Xi[0] + t * (Xi[1] - Xi[0]) + 1e-3 * np.random.default_rng(d).standard_normal((321, d))
        found = _distinct_minima(lsr_retrieve(X, Xi, beta))
        assert len(found) == count
        if count == 3:
            assert (0, 1) in found

    def test_result_is_self_consistent(self):
        # note §1.7: Algorithm 1 stops at a centroid xi_bar_K with B(xi_bar_K) = K
        Xi = np.random.default_rng(3).random((25, 3))
        res = lsr_retrieve(np.random.default_rng(4).random((500, 3)), Xi, 10.0)
        sup = res.supported
        np.testing.assert_array_equal(active_set(res.points[sup], Xi, 10.0), res.active[sup])
        for p, a in zip(res.points[sup], res.active[sup], strict=True):
            np.testing.assert_allclose(p, Xi[a].mean(0), rtol=0, atol=1e-15)

    def test_t11_monotone_and_fast(self):
        # note §1.5 lemma / T11: d = 4, M = 30, beta = 12, 2000 starts: energy never increases
        # (slack 1e-12 for rounding of eq. (3)), at most 50 iterations (measured: <= 6)
        rng = np.random.default_rng(5)
        Xi, beta = rng.random((30, 4)), 12.0
        X = rng.random((2000, 4))
        res = lsr_retrieve(X, Xi, beta)
        assert res.supported.sum() > 1000
        assert res.n_iter.max() <= 50
        Z = X.copy()
        E_prev = lsr_energy(Z, Xi, beta)
        for _ in range(int(res.n_iter.max())):
            Z = _one_alg1(Z, Xi, beta)
            E = lsr_energy(Z, Xi, beta)
            fin = np.isfinite(E_prev)
            assert np.all(E[fin] <= E_prev[fin] + 1e-12)
            E_prev = E
        np.testing.assert_allclose(Z[res.supported], res.points[res.supported], atol=1e-15)

    def test_single_point_fields_are_squeezed(self):
        res = lsr_retrieve([0.45], [[0.0], [1.0]], beta=3.125)
        assert isinstance(res, LSRRetrieval)
        assert res.points.shape == (1,) and res.active.shape == (2,)
        assert res.supported is True and res.n_iter == 1

    def test_unsupported_single_start_stays(self):
        # P7: empty active set -> unsupported, point unchanged, no division by zero
        res = lsr_retrieve([3.0], [[0.0], [1.0]], beta=8.0)
        assert res.supported is False and res.n_iter == 0 and res.points[0] == 3.0

    def test_batch_equals_loop(self):
        Xi = np.random.default_rng(6).random((12, 2))
        X = np.random.default_rng(7).random((40, 2))
        batch = lsr_retrieve(X, Xi, 15.0)
        for i, x in enumerate(X):
            one = lsr_retrieve(x, Xi, 15.0)
            assert np.array_equal(one.points, batch.points[i])
            assert np.array_equal(one.active, batch.active[i])
            assert one.n_iter == batch.n_iter[i]

    def test_max_iter_warns(self):
        # 1D {0, 1, 3}, R = 1.6 (note §1.7 counterexample): from 1.5 the active set changes
        Xi = np.array([[0.0], [1.0], [3.0]])
        with pytest.warns(ConvergenceWarning, match="1 iterations"):
            lsr_retrieve([1.5], Xi, 2 / 1.6**2, max_iter=1)

    @pytest.mark.parametrize(("kw", "exc"), [({"max_iter": 0}, ValueError),
                                             ({"max_iter": 2.5}, TypeError)])  # fmt: skip
    def test_rejects_bad_max_iter(self, kw, exc):
        with pytest.raises(exc, match="max_iter"):
            lsr_retrieve([0.0], [[0.0]], 1.0, **kw)


def _one_alg1(Z: np.ndarray, Xi: np.ndarray, beta: float) -> np.ndarray:
    """One Algorithm-1 update written out independently (unsupported rows stay)."""
    A = ((Z[:, None] - Xi[None]) ** 2).sum(-1) < 2 / beta
    n = A.sum(1)
    out = Z.copy()
    out[n > 0] = (A[n > 0] @ Xi) / n[n > 0, None]
    return out


@st.composite
def _instances(draw):
    M = draw(st.integers(1, 8))
    d = draw(st.integers(1, 4))
    coords = st.floats(-1, 1, allow_nan=False, allow_infinity=False)
    Xi = draw(arrays(np.float64, (M, d), elements=coords))
    x0 = draw(arrays(np.float64, (d,), elements=st.floats(-1.5, 1.5)))
    beta = draw(st.floats(0.5, 50.0))
    return Xi, x0, beta


class TestLsrTrajectory:
    @settings(max_examples=150, deadline=None, derandomize=True)
    @given(_instances())
    def test_energy_never_increases_and_terminates(self, inst):
        # note §1.5 lemma: E is non-increasing along Algorithm 1 and it stops after at most
        # 2^M updates; 1e-12 absolute slack for the rounding of eq. (3)
        Xi, x0, beta = inst
        traj = lsr_trajectory(x0, Xi, beta)
        assert 1 <= len(traj) <= 2 ** Xi.shape[0] + 1
        E = lsr_energy(traj, Xi, beta)
        if np.isinf(E[0]):
            assert len(traj) == 1
        else:
            assert np.all(np.diff(E) <= 1e-12)
        res = lsr_retrieve(x0, Xi, beta)
        assert np.array_equal(traj[-1], res.points)
        assert len(traj) == res.n_iter + 1

    def test_starts_at_x0(self):
        traj = lsr_trajectory([0.45], [[0.0], [1.0]], 3.125)
        np.testing.assert_array_equal(traj, [[0.45], [0.5]])

    def test_rejects_a_batch(self):
        with pytest.raises(ValueError, match="x0"):
            lsr_trajectory([[0.0], [1.0]], [[0.0]], 1.0)


class TestLsrOneStep:
    def test_equals_centroid_of_active_set(self):
        # note §1.5: x - (D/|B|) grad E = xi_bar_{B(x)} (one Algorithm-1 update), to rounding
        Xi = np.random.default_rng(8).random((20, 3))
        X = np.random.default_rng(9).random((300, 3))
        for eps in (0.0, 1e-3):
            np.testing.assert_allclose(
                lsr_one_step(X, Xi, 8.0, eps), _one_alg1(X, Xi, 8.0), rtol=0, atol=1e-12
            )

    def test_unsupported_points_do_not_move(self):
        np.testing.assert_array_equal(lsr_one_step([4.0, 4.0], [[0.0, 0.0]], 2.0), [4.0, 4.0])


class TestLseDescend:
    def test_reaches_a_critical_point(self):
        # step 1 = Gaussian mean shift (note §4.1); stops when |grad| < tol
        Xi = np.random.default_rng(10).random((15, 2))
        res = lse_descend(np.random.default_rng(11).random((50, 2)), Xi, 30.0)
        assert isinstance(res, LSEDescent) and np.all(res.converged)
        assert np.all(np.linalg.norm(lse_grad(res.points, Xi, 30.0), axis=1) < 1e-10)

    @pytest.mark.parametrize("step", [0.3, 1.0, 1.7])
    def test_energy_never_increases(self, step):
        # Hessian <= I (note §1.3), so any step in (0, 2) is a descent step; check one step at a
        # time (slack 1e-12 for rounding)
        Xi = np.random.default_rng(12).random((10, 3))
        X = np.random.default_rng(13).random((200, 3))
        E = lse_energy(X, Xi, 5.0)
        for _ in range(20):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                X = lse_descend(X, Xi, 5.0, step=step, max_iter=1).points
            E_new = lse_energy(X, Xi, 5.0)
            assert np.all(E_new <= E + 1e-12)
            E = E_new

    def test_warns_with_iterations_and_residual(self):
        # slow convergence near a merger (note §4.1): two memories at +-1 with beta = 1
        with pytest.warns(ConvergenceWarning, match=r"after 5 iterations; largest gradient norm"):
            res = lse_descend([[0.3]], [[-1.0], [1.0]], 1.0, max_iter=5)
        assert not res.converged[0] and res.n_iter[0] == 5

    def test_single_point_fields_are_python_scalars(self):
        res = lse_descend([3.0, -1.0], [[1.0, 1.0]], 1.0)
        assert res.points.shape == (2,) and res.n_iter == 1 and res.converged is True
        assert isinstance(res.grad_norm, float)

    @pytest.mark.parametrize(("kw", "match"), [({"step": 0.0}, "step"), ({"step": 2.0}, "step"),
                                               ({"tol": -1.0}, "tol"), ({"tol": 0.0}, "tol"),
                                               ({"max_iter": 0}, "max_iter")])  # fmt: skip
    def test_rejects_bad_options(self, kw, match):
        # tol = 0 can never be met (a norm is never < 0): it only produced a ConvergenceWarning
        with pytest.raises(ValueError, match=match):
            lse_descend([0.0], [[0.0]], 1.0, **kw)

    def test_far_start_descends_without_nan(self):
        # issue 9: from x0 = (1e300, 0) the first gradient was NaN. One mean-shift step (α = 1)
        # lands on Σ p_μ ξ_μ, here the nearer memory (1, 0) (weight ratio e^{-β·1e300}), after
        # which the descent converges as from any start.
        Xi = np.array([[0.0, 0.0], [1.0, 0.0]])
        res = lse_descend([1e300, 0.0], Xi, 8.0)
        assert res.converged and np.all(np.isfinite(res.points))
        ref = lse_descend([1.0, 0.0], Xi, 8.0).points
        np.testing.assert_allclose(res.points, ref, rtol=0, atol=1e-12)


class TestLseMinima:
    @pytest.mark.parametrize(("beta", "count"), [(1.6, 1), (1.9, 4), (1.95, 4), (1.98, 4),
                                                 (2.1, 3)])  # fmt: skip
    def test_triangle_counts(self, beta, count):
        # note §2.9 item 4 / T8: circumradius-1 triangle has 4 LSE minima for beta in (1.83, 2),
        # 3 above 2, 1 below 1.83. Distinct minima need a small merge radius: 1e-6 R is far above
        # the end-point spread (tol / lambda_min <= 1e-8) and far below the spacing (>= 0.6)
        T = _triangle()
        res = lse_minima(T, beta, merge_radius=1e-6 * math.sqrt(2 / beta))
        assert isinstance(res, LSEMinima)
        assert len(res.points) == count
        assert np.all(res.hessian_min_eig > 0)
        assert np.all(np.linalg.norm(lse_grad(res.points, T, beta), axis=1) < 1e-9)
        assert res.counts.sum() <= 3 + 200
        assert np.all(np.diff(res.energies) >= 0)

    def test_default_paper_merge_radius_merges_the_near_vertex_minima(self):
        # P16: the paper's 2/sqrt(beta) rule (C.3.3) is a bimodality heuristic; at beta = 1.95 the
        # near-vertex minima lie ~0.67 from the centroid < 2/sqrt(1.95) = 1.43 -> 1 reported
        res = lse_minima(_triangle(), 1.95)
        assert res.merge_radius == pytest.approx(2 / math.sqrt(1.95))
        assert len(res.points) == 1 and res.counts.sum() == 203

    @pytest.mark.parametrize(("beta", "count"), [(1.9, 1), (2.1, 1), (5.0, 2), (7.9, 2),
                                                 (8.1, 2)])  # fmt: skip
    def test_two_patterns_never_three(self, beta, count):
        # note §2.9 item 1: LSE has 1 minimum for beta < 4/a^2, 2 above, never 3 (a = 1)
        res = lse_minima([[0.0, 0.0], [1.0, 0.0]], beta, n_starts=50, merge_radius=1e-6)
        assert len(res.points) == count

    def test_1d_count_never_exceeds_m(self):
        # note §2.9 item 4 / T9 (reduced: 15 sets x 8 betas): in 1D LSE has <= M minima
        rng = np.random.default_rng(14)
        worst = 0.0
        for _ in range(15):
            Xi = rng.random((6, 1))
            for beta in np.geomspace(5.0, 5e3, 8):
                res = lse_minima(Xi, beta, n_starts=30, rng=rng, merge_radius=1e-6)
                worst = max(worst, len(res.points) / 6)
        assert worst <= 1.0

    def test_explicit_starts_replace_default_starts(self):
        res = lse_minima([[0.0], [4.0]], 1.0, starts=[[-1.0], [0.5]])
        assert res.counts.sum() == 2 and len(res.points) == 1

    def test_deterministic_given_seed(self):
        Xi = np.random.default_rng(15).random((8, 2))
        a = lse_minima(Xi, 40.0, rng=3, merge_radius=1e-6)
        b = lse_minima(Xi, 40.0, rng=np.random.default_rng(3), merge_radius=1e-6)
        np.testing.assert_array_equal(a.points, b.points)
        np.testing.assert_array_equal(a.counts, b.counts)

    @pytest.mark.parametrize(("kw", "exc", "match"), [
        ({"merge_radius": -1.0}, ValueError, "merge_radius"),
        ({"n_starts": -1}, ValueError, "n_starts"),
        ({"rng": None}, TypeError, "rng"),
        ({"starts": [[0.0, 1.0]]}, ValueError, "starts"),
        ({"tol": 0.0}, ValueError, "tol"),
        ({"starts": [[0.5]], "n_starts": 2.5}, TypeError, "n_starts"),
        ({"starts": [[0.5]], "rng": "abc"}, TypeError, "rng"),
    ])  # fmt: skip
    def test_rejects_bad_options(self, kw, exc, match):
        # n_starts and rng are checked even when explicit starts make them unused
        with pytest.raises(exc, match=match):
            lse_minima([[0.0], [1.0]], 1.0, **kw)


_X0_FUNCS = [lsr_retrieve, lse_descend, lsr_trajectory]


class TestValidation:
    @pytest.mark.parametrize("func", [*_X0_FUNCS, lsr_one_step])
    @pytest.mark.parametrize(
        ("beta", "exc"),
        [(0.0, ValueError), (-1.0, ValueError), (math.nan, ValueError), (math.inf, ValueError),
         (True, TypeError), ("2", TypeError)],
    )  # fmt: skip
    def test_bad_beta(self, func, beta, exc):
        with pytest.raises(exc, match="beta"):
            func([0.0, 0.0], [[1.0, 1.0]], beta)

    @pytest.mark.parametrize("func", _X0_FUNCS)
    def test_x0_shape_mismatch(self, func):
        with pytest.raises(ValueError, match="x0"):
            func([0.0, 0.0, 0.0], [[1.0, 1.0]], 1.0)

    def test_x_shape_mismatch(self):
        with pytest.raises(ValueError, match="x"):
            lsr_one_step([0.0, 0.0, 0.0], [[1.0, 1.0]], 1.0)

    @pytest.mark.parametrize("func", [*_X0_FUNCS, lsr_one_step])
    @BAD_MEMORIES
    def test_bad_memories(self, func, memories, exc):
        with pytest.raises(exc, match="memories"):
            func([0.0, 0.0], memories, 1.0)

    @pytest.mark.parametrize(
        ("memories", "exc"),
        [(np.zeros((0, 2)), ValueError), (np.array([[np.nan, 0.0]]), ValueError)],
    )
    def test_lse_minima_bad_memories(self, memories, exc):
        with pytest.raises(exc, match="memories"):
            lse_minima(memories, 1.0)

    def test_lse_minima_bad_beta(self):
        with pytest.raises(ValueError, match="beta"):
            lse_minima([[0.0]], -2.0)


@pytest.mark.gpu
class TestCupyMatchesNumpy:
    def test_retrieval_and_descent(self):
        cp = pytest.importorskip("cupy")
        if not has_gpu():
            pytest.skip("no CUDA device")
        Xi = np.random.default_rng(16).random((20, 3))
        X = np.random.default_rng(17).random((400, 3))
        ref = lsr_retrieve(X, Xi, 12.0)
        got = lsr_retrieve(cp.asarray(X), cp.asarray(Xi), 12.0)
        np.testing.assert_array_equal(cp.asnumpy(got.active), ref.active)
        np.testing.assert_array_equal(cp.asnumpy(got.n_iter), ref.n_iter)
        np.testing.assert_allclose(cp.asnumpy(got.points), ref.points, rtol=0, atol=1e-14)
        ref_d = lse_descend(X, Xi, 12.0, max_iter=3000)
        got_d = lse_descend(cp.asarray(X), cp.asarray(Xi), 12.0, max_iter=3000)
        np.testing.assert_allclose(cp.asnumpy(got_d.points), ref_d.points, rtol=0, atol=1e-8)
        ref_m = lse_minima(Xi, 12.0, merge_radius=1e-6)
        got_m = lse_minima(cp.asarray(Xi), 12.0, merge_radius=1e-6)
        np.testing.assert_allclose(cp.asnumpy(got_m.points), ref_m.points, rtol=0, atol=1e-8)
