"""Tests for ``assocmem.quadratic.descent`` (single and averaged gradient descent)."""

from __future__ import annotations

import importlib.util
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.backend import has_gpu
from assocmem.quadratic import descent
from assocmem.quadratic.descent import gd_quadnet, prefix_mean_errors
from assocmem.quadratic.sensing import SensingData, sample_sensing, sensing_adjoint

RHO = 0.5  # teacher = student width ratio of the papers' GD experiments; α_PR = 0.375


def _loss(W: np.ndarray, data: SensingData) -> float:
    r, _ = descent._loss_grad(W[None], data, np)
    return 0.25 * float(np.sum(r * r))


class TestLossGradient:
    @pytest.mark.parametrize("surrogate", [False, True])
    def test_gradient_matches_central_differences(self, surrogate: bool) -> None:
        data = sample_sensing(6, RHO, 0.5, rng=3, surrogate=surrogate)
        W = np.random.default_rng(4).standard_normal((3, 6))
        _, grad = descent._loss_grad(W[None], data, np)
        h = 1e-6
        fd = np.zeros_like(W)
        for idx in np.ndindex(W.shape):
            E = np.zeros_like(W)
            E[idx] = h
            fd[idx] = (_loss(W + E, data) - _loss(W - E, data)) / (2 * h)
        # central differences: O(h²) truncation plus O(ε L/h) rounding, L ~ 10 here
        np.testing.assert_allclose(grad[0], fd, rtol=1e-6, atol=1e-6)

    def test_network_gradient_is_w_times_adjoint_of_residuals(self) -> None:
        # ∇L = W M/√(pd) with M = Σ_μ r_μ G_μ (gd_quadnet's Notes), M from sensing_adjoint.
        data = sample_sensing(8, RHO, 0.4, rng=5)
        W = np.random.default_rng(6).standard_normal((2, 4, 8))
        r, grad = descent._loss_grad(W, data, np)
        for k in range(2):
            expected = W[k] @ sensing_adjoint(data, r[k]) / math.sqrt(4 * 8)
            np.testing.assert_allclose(grad[k], expected, rtol=1e-12, atol=1e-12)


class TestGdQuadnet:
    def test_runs_interpolate_below_alpha_pr_and_differ(self) -> None:
        # Below α_PR = ρ − ρ²/2 the loss has many zero-loss minima (slides, "Gradient descent").
        data = sample_sensing(12, RHO, 0.2, rng=0)
        res = gd_quadnet(data, RHO, runs=4, steps=1500, lr=0.03, rng=1)
        assert np.all(res.train_mse < 1e-8)
        assert np.ptp(res.error_single) > 0.05
        assert res.A_runs.shape == (4, 12, 12) and res.A_mean.shape == (12, 12)

    def test_runs_recover_the_target_above_alpha_pr(self) -> None:
        data = sample_sensing(10, RHO, 0.8, rng=0)
        res = gd_quadnet(data, RHO, runs=3, steps=3000, lr=0.02, rng=1)
        assert np.all(res.error_single < 1e-3)

    def test_averaging_reduces_the_error(self) -> None:
        # Posterior samples would give MMSE(1 + 1/K) against 2 MMSE for one run: ratio 0.5625 at
        # K = 8 (Nishimori identity, ours). Jensen alone only guarantees <= 1; 0.8 checks that
        # the runs land at genuinely different interpolators.
        data = sample_sensing(12, RHO, 0.2, rng=2)
        res = gd_quadnet(data, RHO, runs=8, steps=1500, lr=0.03, rng=3)
        assert res.error_mean < 0.8 * float(np.mean(res.error_single))

    def test_batch_equals_a_loop_over_single_runs(self) -> None:
        data = sample_sensing(10, RHO, 0.2, rng=4)
        batch = gd_quadnet(data, RHO, runs=3, steps=60, lr=0.02, rng=np.random.default_rng(7))
        gen = np.random.default_rng(7)
        loop = [gd_quadnet(data, RHO, runs=1, steps=60, lr=0.02, rng=gen) for _ in range(3)]
        single = np.array([res.error_single[0] for res in loop])
        np.testing.assert_allclose(batch.error_single, single, rtol=1e-9)
        stacked = np.concatenate([res.A_runs for res in loop])
        np.testing.assert_allclose(batch.A_runs, stacked, rtol=1e-9, atol=1e-12)

    def test_trajectory_ends_at_the_returned_values(self) -> None:
        data = sample_sensing(8, RHO, 0.3, rng=5)
        res = gd_quadnet(data, RHO, runs=2, steps=25, lr=0.02, rng=6, record_every=10)
        assert res.record_steps.tolist() == [0, 10, 20, 25]
        assert res.error_trajectory.shape == (4, 2) and res.train_trajectory.shape == (4, 2)
        np.testing.assert_allclose(res.error_trajectory[-1], res.error_single, rtol=1e-12)
        assert math.isclose(res.error_mean_trajectory[-1], res.error_mean, rel_tol=1e-12)
        # at step 0 the weights are the prior draw: training loss of order one per sample
        assert np.all(res.train_trajectory[0] > res.train_trajectory[-1])
        assert gd_quadnet(data, RHO, runs=1, steps=5, rng=6).record_steps is None

    def test_surrogate_data_interpolate_too(self) -> None:
        data = sample_sensing(8, RHO, 0.2, rng=8, surrogate=True)
        res = gd_quadnet(data, RHO, runs=2, steps=1500, lr=0.03, rng=9)
        assert np.all(res.train_mse < 1e-8)

    def test_non_finite_loss_raises_naming_lr(self) -> None:
        data = sample_sensing(6, RHO, 0.3, rng=0)
        huge = SensingData(**{**data.__dict__, "y": np.full(data.n, 1e200)})
        with pytest.raises(ValueError, match="lr"):
            gd_quadnet(huge, RHO, runs=1, steps=2, rng=0)

    @pytest.mark.slow
    def test_r12_averaged_gd_against_gamp_rie_on_the_same_instance(self) -> None:
        # Note §11 R12 / §7.3 [D]: d = 40, ρ = 0.5, α = 0.2, K = 16 Adam runs (lr 0.01; the
        # error has settled by step 400 of 4000 in our runs, so 1000 steps). Reference: GAMP-RIE
        # on the same instance (the finite-size bias at d = 40 is ~+35% over the asymptotic
        # MMSE, so only a same-instance comparison is meaningful). Bands from R12: averaged
        # ratio in [0.95, 1.35], single-run ratio in [1.1, 1.6] (measured there 1.06-1.26 and
        # 1.25-1.46: GD is somewhat worse than an exact posterior sample at this d). We check
        # the band on the mean over 3 instances of each ratio.
        gamp = pytest.importorskip("assocmem.quadratic.gamp")
        K = 16
        avg, single = [], []
        for seed in range(3):
            data = sample_sensing(40, RHO, 0.2, rng=10 + seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = float(gamp.gamp_rie(data, RHO).error[-1])
            res = gd_quadnet(data, RHO, runs=K, steps=1000, lr=0.01, rng=20 + seed)
            assert np.all(res.train_mse < 1e-4)  # from ~5 at step 0
            avg.append(res.error_mean / (ref * (1 + 1 / K)))
            single.append(float(np.mean(res.error_single)) / (2 * ref))
        assert 0.95 <= np.mean(avg) <= 1.35, avg
        assert 1.1 <= np.mean(single) <= 1.6, single


class TestPrefixMeanErrors:
    @settings(max_examples=25, deadline=None)
    @given(seed=st.integers(0, 2**31 - 1), K=st.integers(1, 5), d=st.integers(1, 4))
    def test_equals_a_loop_over_prefixes(self, seed: int, K: int, d: int) -> None:
        rng = np.random.default_rng(seed)
        runs, A = rng.normal(size=(K, d, d)), rng.normal(size=(d, d))
        expected = [np.sum((runs[: k + 1].mean(0) - A) ** 2) / d for k in range(K)]
        np.testing.assert_allclose(prefix_mean_errors(runs, A), expected, rtol=1e-12)

    def test_ends_match_the_descent_result(self) -> None:
        data = sample_sensing(8, RHO, 0.2, rng=1)
        res = gd_quadnet(data, RHO, runs=3, steps=30, rng=2)
        errs = prefix_mean_errors(res.A_runs, data.A)
        assert math.isclose(errs[0], res.error_single[0], rel_tol=1e-12)
        assert math.isclose(errs[-1], res.error_mean, rel_tol=1e-12)


_CUPY = importlib.util.find_spec("cupy") is not None


@pytest.mark.gpu
@pytest.mark.skipif(not (_CUPY and has_gpu()), reason="needs CuPy and a CUDA device")
def test_cupy_equals_numpy() -> None:
    import cupy

    host = sample_sensing(10, RHO, 0.2, rng=0)
    dev = sample_sensing(10, RHO, 0.2, rng=0, xp=cupy)
    a = gd_quadnet(host, RHO, runs=2, steps=50, rng=1)
    b = gd_quadnet(dev, RHO, runs=2, steps=50, rng=1)
    np.testing.assert_allclose(cupy.asnumpy(b.error_single), a.error_single, rtol=1e-8)
