"""Tests for assocmem.dense_am.generative: Fig. 3 right (T18), Algorithm 2 and Fig. 4 (T19)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from assocmem.dense_am import generative as gen
from assocmem.dense_am.minima import lsr_minima
from assocmem.dense_am.retrieval import lsr_retrieve


@pytest.fixture(scope="module")
def digits():
    """Fig. 4 analogue at the paper's MNIST setting: 24 images, 10-d latent, K = 4 (note §3.2)."""
    return gen.digits_memories(n_images=24, n_components=10, target_k=4.0, rng=0)


@pytest.fixture(scope="module")
def sweep_m10():
    """Reduced T18: k = 10, d = 8, σ = 0.1, M = 10, 3 seeds, 8 per-seed betas (note §3.2)."""
    return gen.generative_sweep(10, 8, 0.1, 10, 8, seeds=[0, 1, 2], n_per_memory=30)


@pytest.fixture(scope="module")
def sweep_m30():
    """Reduced T18 with M = 30 (10 starts per memory, 300 in all)."""
    return gen.generative_sweep(10, 8, 0.1, 30, 8, seeds=[0, 1, 2], n_per_memory=10)


class TestGmmSample:
    def test_shapes_and_means_in_unit_cube(self):
        # paper Sec. 4.2: μ_i ~ U([0, 1]^d)
        xi, mu = gen.gmm_sample(10, 8, 0.1, 500, rng=0)
        assert xi.shape == (500, 8) and mu.shape == (10, 8)
        assert np.all((mu >= 0) & (mu <= 1))

    def test_samples_lie_near_a_mean(self):
        # each sample is μ_c + σ z; ||σ z||² / σ² ~ χ²_8 < 40 with probability > 1 - 1e-5
        xi, mu = gen.gmm_sample(5, 8, 0.1, 500, rng=1)
        d2 = ((xi[:, None, :] - mu[None]) ** 2).sum(axis=2).min(axis=1)
        assert np.all(d2 < 40 * 0.01)

    def test_deterministic(self):
        a = gen.gmm_sample(3, 2, 0.1, 20, rng=5)
        b = gen.gmm_sample(3, 2, 0.1, 20, rng=np.random.default_rng(5))
        np.testing.assert_array_equal(a[0], b[0])

    def test_bad_input(self):
        with pytest.raises(ValueError, match="k"):
            gen.gmm_sample(0, 8, 0.1, 10, rng=0)
        with pytest.raises(ValueError, match="sigma"):
            gen.gmm_sample(2, 8, 0.0, 10, rng=0)
        with pytest.raises(ValueError, match="M"):
            gen.gmm_sample(2, 8, 0.1, 0, rng=0)
        with pytest.raises(TypeError, match="rng"):
            gen.gmm_sample(2, 8, 0.1, 10, rng=1.5)


class TestGmmLogDensity:
    def test_matches_scipy_multivariate_normal(self):
        # note §4.5 formula vs an independent implementation; logsumexp exact to rounding
        _, mu = gen.gmm_sample(4, 3, 0.2, 1, rng=2)
        x = np.random.default_rng(3).random((50, 3))
        ref = np.log(np.mean([multivariate_normal(m, 0.04 * np.eye(3)).pdf(x) for m in mu], axis=0))
        np.testing.assert_allclose(gen.gmm_log_density(x, mu, 0.2), ref, rtol=1e-10)

    def test_peak_value_from_note(self):
        # note §4.6: -(d/2) log(2πσ²) = 11.069 for d = 8, σ = 0.1 (one component, at its mean)
        value = gen.gmm_log_density(np.zeros(8), np.zeros((1, 8)), 0.1)
        assert value == pytest.approx(11.069, abs=5e-4)
        # note §3.2: with k = 10 well-separated means the peak is 11.069 - log 10 = 8.77
        mu = 10.0 * np.eye(10, 8)
        assert gen.gmm_log_density(mu[0], mu, 0.1) == pytest.approx(8.77, abs=5e-3)

    def test_far_points_do_not_underflow(self):
        # logsumexp keeps log p finite where exp would underflow
        value = gen.gmm_log_density(np.full(8, 100.0), np.zeros((2, 8)), 0.1)
        assert math.isfinite(value) and value < -1e5

    def test_bad_input(self):
        with pytest.raises(ValueError, match="x"):
            gen.gmm_log_density(np.zeros(3), np.zeros((2, 8)), 0.1)
        with pytest.raises(ValueError, match="sigma"):
            gen.gmm_log_density(np.zeros(8), np.zeros((2, 8)), -0.1)
        # the means are named as ``means`` (the message said "memories" before)
        with pytest.raises(ValueError, match="means"):
            gen.gmm_log_density(np.zeros(8), np.zeros(8), 0.1)
        with pytest.raises(TypeError, match="means"):
            gen.gmm_log_density(np.zeros(1), np.ones((2, 1), dtype=bool), 0.1)

    def test_point_beyond_the_float_range_gives_minus_inf(self):
        # x = 1e300: ||x - μ||² overflows to inf; log p = -0.5e600 - ... lies below the float
        # range, so the honest value is -inf (it was NaN from inf - inf in the log-sum-exp)
        assert gen.gmm_log_density(np.array([1e300]), np.array([[0.0], [1.0]]), 1.0) == -math.inf
        out = gen.gmm_log_density(np.array([[1e300], [0.0]]), np.array([[0.0]]), 1.0)
        assert out[0] == -math.inf
        assert out[1] == pytest.approx(-0.5 * math.log(2 * math.pi), rel=1e-14)

    @pytest.mark.parametrize("sigma", [1e-300, 1e200])
    def test_extreme_sigma_at_the_mean(self, sigma):
        # at the mean of one component log p = -(1/2) log(2π) - log σ: 689.857 for σ = 1e-300
        # (σ² underflowed to 0 and gave NaN) and -461.436 for σ = 1e200 (σ² overflowed to inf
        # and gave -inf)
        value = gen.gmm_log_density(np.zeros(1), np.zeros((1, 1)), sigma)
        assert value == pytest.approx(-0.5 * math.log(2 * math.pi) - math.log(sigma), rel=1e-14)


class TestShellStarts:
    def test_starts_lie_in_the_thin_shell_of_their_memory(self):
        # paper Sec. 4.2: 2/β - δ <= ||x - ξ_μ||² < 2/β, δ = 0.05 · 2/β (note §4.6); strict <
        xi, _ = gen.gmm_sample(5, 8, 0.1, 12, rng=0)
        beta = 20.0
        x = gen.shell_starts(xi, beta, 25, rng=1)
        d2 = ((x - np.repeat(xi, 25, axis=0)) ** 2).sum(axis=1)
        assert x.shape == (300, 8)
        assert np.all(d2 < 2.0 / beta)
        assert np.all(d2 >= 0.95 * 2.0 / beta * (1 - 1e-12))

    def test_every_start_is_supported(self):
        # each start is inside its own support ball, so Algorithm 1 never sees an empty set (P7)
        xi, _ = gen.gmm_sample(3, 4, 0.1, 10, rng=0)
        x = gen.shell_starts(xi, 50.0, 20, rng=2, frac=0.01)
        assert bool(np.all(lsr_retrieve(x, xi, 50.0).supported))

    def test_uniform_in_volume(self):
        # radius^d is uniform on [(1 - frac)^(d/2), 1] · R^d: its mean is the midpoint (±3 SE)
        d, beta, frac = 4, 2.0, 0.5
        x = gen.shell_starts(np.zeros((1, d)), beta, 20000, rng=3, frac=frac)
        s = np.sum(x**2, axis=1) ** (d / 2)
        lo = (1 - frac) ** (d / 2)
        se = (1 - lo) / math.sqrt(12 * 20000)
        assert s.mean() == pytest.approx((1 + lo) / 2, abs=3 * se)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="frac"):
            gen.shell_starts(np.zeros((2, 2)), 1.0, 3, rng=0, frac=0.0)
        with pytest.raises(ValueError, match="frac"):
            gen.shell_starts(np.zeros((2, 2)), 1.0, 3, rng=0, frac=1.5)
        with pytest.raises(ValueError, match="n_per_memory"):
            gen.shell_starts(np.zeros((2, 2)), 1.0, 0, rng=0)
        with pytest.raises(ValueError, match="beta"):
            gen.shell_starts(np.zeros((2, 2)), 0.0, 3, rng=0)


class TestBetaSearch:
    def test_monotone_in_target_k(self):
        # Algorithm 2: more interacting neighbours need larger supports, i.e. smaller β
        xi, _ = gen.gmm_sample(5, 8, 0.1, 40, rng=4)
        betas = [gen.beta_search(xi, k) for k in (1.5, 2.0, 3.0, 4.0, 6.0, 10.0)]
        assert all(b1 > b2 for b1, b2 in itertools.pairwise(betas))

    def test_reached_k_prime_brackets_the_target(self):
        # K'(r) counts self (note P17); at the returned r, K' is within one jump of the target
        xi, _ = gen.gmm_sample(5, 8, 0.1, 40, rng=4)
        beta = gen.beta_search(xi, 4.0)
        r = math.sqrt(2.0 / beta)
        dist = np.sqrt(((xi[:, None] - xi[None]) ** 2).sum(axis=2))
        below = np.mean(np.sum(dist <= 2 * r * (1 - 1e-9), axis=1))
        above = np.mean(np.sum(dist <= 2 * r * (1 + 1e-9), axis=1))
        assert below <= 4.0 <= above

    def test_two_pairs_example(self):
        # pairs at distance 1 and 10 apart: K = 2 (self + partner) needs 1 <= 2r < ~9
        beta = gen.beta_search([[0.0], [1.0], [10.0], [11.0]], 2.0)
        assert 0.5 <= math.sqrt(2.0 / beta) < 4.5

    def test_bad_input(self):
        with pytest.raises(ValueError, match="target_k"):
            gen.beta_search(np.eye(3), 0.5)
        with pytest.raises(ValueError, match="target_k"):
            gen.beta_search(np.eye(3), 4.0)
        with pytest.raises(ValueError, match="memories"):
            gen.beta_search(np.eye(1), 1.0)
        with pytest.raises(ValueError, match="memories"):
            gen.beta_search(np.zeros((3, 2)), 2.0)
        with pytest.raises(ValueError, match="n_max"):
            gen.beta_search(np.eye(3), 2.0, n_max=0)
        with pytest.raises(ValueError, match=r"memories\[0\] and memories\[2\] are equal"):
            gen.beta_search(np.array([[0.0], [1.0], [0.0]]), 2.0)
        # a pattern at 1e300 made every distance inf and the search returned β = 0.0
        with pytest.raises(ValueError, match="memories must have entries of magnitude"):
            gen.beta_search(np.array([[0.0], [1.0], [1e300]]), 2.0)


class TestCompareLseLsr:
    def test_high_beta_keeps_every_memory(self):
        # β far above 8/r_min²: supports are disjoint, every memory is an LSR minimum and the
        # LSE softmax is one-hot, so both recover all M and find M unique memories (note C2)
        xi, mu = gen.gmm_sample(3, 4, 0.1, 8, rng=0)
        r2 = min(((a - b) ** 2).sum() for i, a in enumerate(xi) for b in xi[i + 1 :])
        c = gen.compare_lse_lsr(xi, mu, 0.1, 100.0 / r2, 5, rng=1)
        assert (c.lsr_unique, c.lsr_recovered, c.lse_recovered) == (8, 8, 8)
        assert c.lse_unique == 8 and c.n_samples == 40

    def test_low_beta_gives_one_centroid(self):
        # β below 2/diam²: the only LSR minimum is the centroid of all memories (note C3)
        xi, mu = gen.gmm_sample(3, 4, 0.1, 8, rng=0)
        c = gen.compare_lse_lsr(xi, mu, 0.1, 1e-3, 5, rng=1)
        assert (c.lsr_unique, c.lse_unique, c.lsr_recovered) == (1, 1, 0)
        # the LSE "recovered" tolerance 0.05 · 2/sqrt(β) (note §3.2) is relative to the kernel
        # width: at β = 1e-3 it is 3.2, larger than the data, so every ξ_μ counts as recovered.
        # The metric is only meaningful on the paper's grid (β >= 2/d).
        assert c.lse_recovered == 8
        assert c.lsr_logp == pytest.approx(gen.gmm_log_density(xi.mean(axis=0), mu, 0.1))

    def test_bad_input(self):
        xi, mu = gen.gmm_sample(3, 4, 0.1, 8, rng=0)
        with pytest.raises(ValueError, match="means"):
            gen.compare_lse_lsr(xi, mu[:, :2], 0.1, 1.0, 2, rng=0)
        with pytest.raises(ValueError, match="sigma"):
            gen.compare_lse_lsr(xi, mu, 0.0, 1.0, 2, rng=0)
        with pytest.raises(ValueError, match="beta"):
            gen.compare_lse_lsr(xi, mu, 0.1, np.nan, 2, rng=0)
        with pytest.raises(ValueError, match="n_per_memory"):
            gen.compare_lse_lsr(xi, mu, 0.1, 1.0, 0, rng=0)
        with pytest.raises(ValueError, match="lse_tol"):
            gen.compare_lse_lsr(xi, mu, 0.1, 1.0, 2, rng=0, lse_tol=0.0)


class TestGenerativeSweep:
    @pytest.mark.parametrize("name", ["sweep_m10", "sweep_m30"])
    def test_lsr_has_at_least_as_many_unique_memories_at_every_beta(self, name, request):
        # note §3.2 T18 (a): mean LSR unique >= LSE unique at every β (paper Fig. 3 right)
        sw = request.getfixturevalue(name)
        assert np.all(sw.lsr_unique >= sw.lse_unique)
        assert np.any(sw.lsr_unique > 2 * sw.lse_unique)  # "more diverse" is not a tie

    @pytest.mark.parametrize("name", ["sweep_m10", "sweep_m30"])
    def test_lsr_recovers_at_least_as_many_stored_patterns(self, name, request):
        # note §3.2 T18 (b): mean LSR recovered >= LSE recovered at every β
        sw = request.getfixturevalue(name)
        assert np.all(sw.lsr_recovered >= sw.lse_recovered)

    @pytest.mark.parametrize("name", ["sweep_m10", "sweep_m30"])
    def test_lsr_log_likelihood_wins_somewhere(self, name, request):
        # note §3.2 T18 (c): some β with mean LSR log p >= LSE log p (the "orange region");
        # at the first β where LSR splits into several minima it wins by > 1 nat in calibration
        sw = request.getfixturevalue(name)
        assert np.max(sw.lsr_logp - sw.lse_logp) > 1.0

    def test_per_seed_grid_runs_from_2_over_d_to_2_over_rmin2(self, sweep_m10):
        # paper App. C.2 / C.3.2: geometric grid [2/d, 2/r_min²] per seed, aligned by index
        assert sweep_m10.betas.shape == (3, 8)
        np.testing.assert_allclose(sweep_m10.betas[:, 0], 2.0 / 8)
        np.testing.assert_allclose(sweep_m10.beta_mean, sweep_m10.betas.mean(axis=0))
        assert np.all(sweep_m10.lsr_unique_se >= 0)

    def test_explicit_grid_and_one_seed(self):
        sw = gen.generative_sweep(3, 2, 0.1, 6, [1.0, 100.0], seeds=[4], n_per_memory=3)
        np.testing.assert_array_equal(sw.betas, [[1.0, 100.0]])
        np.testing.assert_array_equal(sw.lsr_logp_se, [0.0, 0.0])

    def test_bad_input(self):
        with pytest.raises(ValueError, match="betas"):
            gen.generative_sweep(3, 2, 0.1, 6, 1, seeds=[0], n_per_memory=2)
        with pytest.raises(ValueError, match="betas"):
            gen.generative_sweep(3, 2, 0.1, 6, [1.0, -2.0], seeds=[0], n_per_memory=2)
        with pytest.raises(ValueError, match="seeds"):
            gen.generative_sweep(3, 2, 0.1, 6, 3, seeds=[], n_per_memory=2)
        with pytest.raises(ValueError, match="seeds"):
            gen.generative_sweep(3, 2, 0.1, 6, 3, seeds=[-1], n_per_memory=2)
        with pytest.raises(ValueError, match="M"):
            gen.generative_sweep(3, 2, 0.1, 1, 3, seeds=[0], n_per_memory=2)
        with pytest.raises(TypeError, match="seeds"):
            gen.generative_sweep(3, 2, 0.1, 6, 3, seeds=None, n_per_memory=2)
        with pytest.raises(ValueError, match="sigma"):
            gen.generative_sweep(3, 2, 1e300, 6, 3, seeds=[0], n_per_memory=2)


class TestDigitsLatent:
    def test_shapes_and_roundtrip(self):
        # note §3.3: digits -> PCA-10 -> inverse_transform; 24 stored images
        lat = gen.digits_latent(24, 10, rng=0)
        assert lat.memories.shape == (24, 10) and lat.images.shape == (24, 8, 8)
        assert len(set(lat.indices.tolist())) == 24
        recon = gen.decode(lat.memories, lat.pca)
        # PCA-10 keeps ~73 % of the variance: reconstructions are close, not exact
        err = np.mean((recon - lat.images) ** 2) / np.mean((lat.images - lat.images.mean()) ** 2)
        assert err < 0.5

    def test_full_rank_pca_reconstructs_exactly(self):
        lat = gen.digits_latent(5, 64, rng=1)
        np.testing.assert_allclose(gen.decode(lat.memories, lat.pca), lat.images, atol=1e-9)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="n_images"):
            gen.digits_latent(1, 10)
        with pytest.raises(ValueError, match="n_components"):
            gen.digits_latent(24, 65)


class TestDecode:
    def test_bad_input(self):
        lat = gen.digits_latent(4, 10, rng=0)
        with pytest.raises(ValueError, match="latent"):
            gen.decode(np.zeros((2, 9)), lat.pca)
        with pytest.raises(TypeError, match="pca"):
            gen.decode(np.zeros((2, 10)), object())


class TestDigitsMemories:
    def test_lsr_finds_at_least_twice_as_many_memories_as_lse(self, digits):
        # note §3.2 T19 / paper Sec. 4.3: at the same (Algorithm-2, K = 4) β, LSR has many more
        # memories than LSE ("an order of magnitude" in the paper; >= 2x asserted)
        assert digits.n_lsr_minima >= 2 * digits.n_lse_unique

    def test_emergent_minima_are_self_consistent_centroids(self, digits):
        # note §1.7: a minimum is a centroid c of K with B(c) == K (strict, difference form)
        xi = digits.latent.memories
        for k in digits.emergent:
            c = xi[list(k)].mean(axis=0)
            active = np.flatnonzero(((xi - c) ** 2).sum(axis=1) < 2.0 / digits.beta)
            assert tuple(active.tolist()) == k

    def test_outputs_are_consistent(self, digits):
        assert digits.emergent_images.shape == (len(digits.emergent), 8, 8)
        assert digits.lse_images.shape == (digits.n_lse_unique, 8, 8)
        assert digits.stored_retained.shape == (24,)
        assert digits.n_lsr_minima == len(digits.emergent) + int(digits.stored_retained.sum())
        assert digits.minima == lsr_minima(digits.latent.memories, digits.beta)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="target_k"):
            gen.digits_memories(n_images=6, target_k=7.0)
        with pytest.raises(ValueError, match="lse_max_iter"):
            gen.digits_memories(n_images=6, lse_max_iter=0)


class TestDigitsMemoryCounts:
    def test_each_set_is_one_digits_memories_run_of_one_generator(self):
        # digits_memory_counts draws set i with the generator after sets 0..i-1 (its docstring).
        c = gen.digits_memory_counts(n_sets=2, n_images=8, n_components=4, target_k=2.0, rng=3)
        g = np.random.default_rng(3)
        runs = [gen.digits_memories(8, 4, 2.0, g) for _ in range(2)]
        assert c.n_lsr.tolist() == [r.n_lsr_minima for r in runs]
        assert c.n_lse.tolist() == [r.n_lse_unique for r in runs]
        assert c.n_lost.tolist() == [int(np.sum(~r.stored_retained)) for r in runs]
        np.testing.assert_array_equal(c.ratio, c.n_lsr / c.n_lse)

    def test_k_one_loses_nothing(self):
        # Algorithm 2 with K = 1: each support ball holds its own pattern only, so every stored
        # pattern is an LSR minimum (no grey boxes).
        c = gen.digits_memory_counts(n_sets=3, n_images=6, n_components=4, target_k=1.0)
        assert c.n_lost.tolist() == [0, 0, 0]

    def test_bad_n_sets_is_refused_by_name(self):
        with pytest.raises(ValueError, match="n_sets"):
            gen.digits_memory_counts(n_sets=0)
