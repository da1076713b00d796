"""Tests for ``assocmem.quadratic.free``: free convolution, the RIE and its MMSE (A-units).

Reference values come from the chapter note ``shared/notes/02-attention-index-models.md``
(§4.1 support and moments, §5.2 denoising table, §11 checks R1-R4), which reproduces Maillard et
al. 2024's ``ExtensiveWidthQuadraticSamples`` notebook value 0.28390 and derives the rest.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem._validation import ConvergenceWarning
from assocmem.quadratic import free

RHOS = st.floats(min_value=0.02, max_value=20.0)
DELTA2S = st.floats(min_value=0.01, max_value=5.0)

# rie_mmse(DELTA2_GRID, rho) at commit 91e9413 (per-point companion-matrix eigvals), one row
# per rho in RHO_GRID; the batched closed-form path must reproduce them to 1e-10 relative.
RHO_GRID = (1e-3, 0.05, 0.2, 0.5, 1.0, 2.0, 10.0, 1e3)
DELTA2_GRID = (1e-5, 1e-3, 0.05, 0.3, 0.6, 2.0, 50.0, 1e3)
EIGVALS_MMSE = (
    (
        1.9989999899801888e-08,
        1.9989989979982744e-06,
        9.994749499472877e-05,
        0.0005996098197655897,
        0.0011990392788451265,
        0.003993991975895561,
        0.0974447306951376,
        0.9878267544938808,
    ),
    (
        9.749997236841933e-07,
        9.749723682675709e-05,
        0.004868090180450965,
        0.029000892870867934,
        0.05750180792795678,
        0.1838049079948656,
        0.9692431396703398,
        0.9989806747825014,
    ),
    (
        3.5999939999921866e-06,
        0.00035993999218249056,
        0.017848990620108605,
        0.10233014828526951,
        0.19127331496494054,
        0.4642742697901181,
        0.9783664904220757,
        0.9989959940758126,
    ),
    (
        7.49992499799978e-06,
        0.0007492479775965534,
        0.03527673512142576,
        0.16888922243194404,
        0.2839021413030821,
        0.5756142031281009,
        0.9796260101567924,
        0.9989990030122726,
    ),
    (
        9.99399625854695e-06,
        0.0009878267544935347,
        0.04335363608485276,
        0.19862355674421733,
        0.3253201328035455,
        0.6192148393049228,
        0.980015961740115,
        0.9990000019995477,
    ),
    (
        9.999800015996482e-06,
        0.0009980156600505594,
        0.04610377438127209,
        0.214647672405461,
        0.34892919120138793,
        0.6424505076649698,
        0.9802057370785704,
        0.9990005007481386,
    ),
    (
        9.99988889041302e-06,
        0.0009988904103142278,
        0.047397364458039624,
        0.22759375058651532,
        0.3695652600355396,
        0.6617468744101482,
        0.9803551374454997,
        0.9990008993897845,
    ),
    (
        9.9998999009039e-06,
        0.000999000001999988,
        0.047616989347378624,
        0.23073771654538325,
        0.3749450742596791,
        0.6666172857798103,
        0.9803917873180055,
        0.9990009980048171,
    ),
)


def _wishart(d: int, rho: float, rng: np.random.Generator) -> np.ndarray:
    """A = Wᵀ W/√(p d), p = ρ d (A-units)."""
    p = round(rho * d)
    W = rng.standard_normal((p, d))
    return W.T @ W / math.sqrt(p * d)


def _goe(d: int, rng: np.random.Generator) -> np.ndarray:
    """Z = (H + Hᵀ)/√(2d): off-diagonal variance 1/d, semicircle on [−2, 2]."""
    H = rng.standard_normal((d, d))
    return (H + H.T) / math.sqrt(2 * d)


class TestRieMmse:
    def test_repository_value_rho_half_delta2_0_6(self) -> None:
        # R1: Maillard et al. 2024's AMP notebook prints 0.28390 (theory); the note's cubic
        # solver gives 0.2839021 (§5.2). Tolerance 1e-4 as in §11 R1.
        assert free.rie_mmse(0.6, 0.5) == pytest.approx(0.28390, abs=1e-4)
        assert free.rie_mmse(0.6, 0.5) == pytest.approx(0.2839021, abs=1e-7)

    @pytest.mark.parametrize(
        ("rho", "delta2", "expected"),
        [(0.5, 0.1, 0.06654), (0.1, 1.0, 0.17740), (1.0, 0.5, 0.28781), (2.0, 2.0, 0.64245)],
    )
    def test_denoising_table(self, rho: float, delta2: float, expected: float) -> None:
        # Note §5.2 table (printed to 5 decimals, hence 6e-6).
        assert free.rie_mmse(delta2, rho) == pytest.approx(expected, abs=6e-6)

    def test_wide_prior_tends_to_gaussian_prior(self) -> None:
        # R3: ρ = 400 is close to a Gaussian (GOE) prior of variance 1, whose MMSE is
        # δ²/(1 + δ²) = 1/3 at δ² = 0.5; the note measures 0.3332 (tolerance 5e-4).
        assert free.rie_mmse(0.5, 400.0) == pytest.approx(1 / 3, abs=5e-4)
        assert free.rie_mmse(0.5, 400.0) == pytest.approx(0.3332, abs=1e-4)

    def test_no_noise_gives_zero_and_tiny_noise_gives_delta2(self) -> None:
        # δ² = 0 is returned exactly; for small δ² the estimator cannot beat the noise (MMSE ≈ δ²).
        assert free.rie_mmse(0.0, 0.5) == 0.0
        assert free.rie_mmse(1e-4, 3.0) == pytest.approx(1e-4, rel=2e-3)

    def test_large_noise_gives_the_prior_variance(self) -> None:
        # With no information the best estimate is the mean √ρ I: MSE = Q₀ − ρ = 1 (A-units).
        assert free.rie_mmse(1e4, 0.5) == pytest.approx(1.0, abs=1e-3)

    def test_array_equals_loop(self) -> None:
        grid = np.array([0.0, 0.05, 0.6, 2.0])
        out = free.rie_mmse(grid, 0.3)
        assert out.shape == (4,)
        assert np.allclose(out, [free.rie_mmse(float(t), 0.3) for t in grid], rtol=0, atol=1e-14)

    def test_warns_on_the_mmse_error_bound_not_on_the_mass(self, monkeypatch) -> None:
        # At rho = 0.93, delta2 = 1.2e-5 (the perfect-recovery edge of the phase diagram) the
        # 1/sqrt(x) edge leaves 1e-5 of the mass, which moves the MMSE by at most
        # delta2 * 1e-5 ~ 1e-10: no warning. With no node doubling allowed, the 96-node
        # quadrature of rho = 0.1, delta2 = 2 (a neck) misses 1e-4 of the mass and the warning
        # names the bound, 1.8e-4.
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            free.rie_mmse(np.array([1.2173827e-05, 3.872e-06]), 0.9346464646)
        monkeypatch.setattr(free, "_MAX_DOUBLINGS", 0)
        with pytest.warns(ConvergenceWarning, match="MMSE may be off by"):
            free.rie_mmse(np.array([2.0]), 0.1)

    def test_matches_the_companion_matrix_path(self) -> None:
        # Regression: the batched closed-form solver against the stored per-point eigvals values.
        for rho, expected in zip(RHO_GRID, EIGVALS_MMSE, strict=True):
            out = free.rie_mmse(np.array(DELTA2_GRID), rho)
            assert np.allclose(out, expected, rtol=1e-10, atol=0)

    @given(
        st.floats(min_value=-6.0, max_value=6.0),
        st.floats(min_value=-6.0, max_value=4.0),
        st.floats(min_value=0.0, max_value=1.0),
    )
    @settings(max_examples=60, deadline=None)
    def test_closed_form_root_is_the_eigvals_root(
        self, log_rho: float, log_delta2: float, where: float
    ) -> None:
        # Inside the support the closed-form root solves the cubic to rounding and is the root
        # with the largest Im g among the companion matrix's eigenvalues (small δ² included,
        # where the coefficients grow like 1/δ²).
        rho, delta2 = 10.0**log_rho, 10.0**log_delta2
        lo, hi = free.free_conv_support(rho, delta2)[0]
        x = np.array([lo + (0.02 + 0.96 * where) * (hi - lo)])
        g = free._stieltjes_inside(x, rho, delta2)[0]
        s = math.sqrt(rho)
        coef = [delta2, -(x[0] + delta2 * s), s * x[0] - rho + 1.0, -s]
        roots = np.roots(coef)
        ref = roots[np.argmax(roots.imag)]
        terms = [c * g ** (3 - k) for k, c in enumerate(coef)]
        assert abs(sum(terms)) <= 1e-13 * sum(abs(t) for t in terms)
        assert g.imag > 0
        assert abs(g - ref) <= 1e-7 * abs(ref)

    @settings(max_examples=40, deadline=None)
    @given(rho=RHOS, lo=DELTA2S, ratio=st.floats(min_value=1.05, max_value=4.0))
    def test_monotone_in_delta2(self, rho: float, lo: float, ratio: float) -> None:
        # More noise never helps; the MMSE also stays below δ² and below the prior variance 1.
        m_lo, m_hi = free.rie_mmse(np.array([lo, lo * ratio]), rho)
        assert m_lo < m_hi
        assert 0 < m_lo < min(lo, 1.0)


class TestFreeConvDensity:
    @settings(max_examples=40, deadline=None)
    @given(rho=RHOS, delta2=DELTA2S)
    def test_mass_mean_and_second_moment(self, rho: float, delta2: float) -> None:
        # R4 (note §4.1): mass 1, mean √ρ, second moment 1 + ρ + δ² (tolerance 1e-8; the
        # η = 1e-9 offset biases the mass by ~1e-9).
        q = free.free_conv_quadrature(rho, delta2)
        mu = free.free_conv_density(q.x, rho, delta2)
        assert np.allclose(mu, q.density, rtol=0, atol=1e-12)
        assert q.weights @ mu == pytest.approx(1.0, abs=1e-8)
        assert q.weights @ (q.x * mu) == pytest.approx(math.sqrt(rho), abs=1e-8)
        assert q.weights @ (q.x**2 * mu) == pytest.approx(1 + rho + delta2, rel=1e-8)

    def test_zero_outside_the_support_and_positive_inside(self) -> None:
        edges = free.free_conv_support(0.2, 0.05)
        outside = np.array([edges[0, 0] - 1.0, (edges[0, 1] + edges[1, 0]) / 2, edges[1, 1] + 1])
        assert np.all(free.free_conv_density(outside, 0.2, 0.05) == 0.0)
        inside = edges.mean(axis=1)
        assert np.all(free.free_conv_density(inside, 0.2, 0.05) > 0.01)

    def test_keeps_the_shape_and_scalars_give_floats(self) -> None:
        x = np.linspace(-1, 5, 12).reshape(3, 4)
        assert free.free_conv_density(x, 0.5, 0.6).shape == (3, 4)
        assert isinstance(free.free_conv_density(1.0, 0.5, 0.6), float)

    def test_semicircle_limit(self) -> None:
        # ρ → ∞: the A-units prior tends to a semicircle of variance 1 around its mean √ρ, so
        # μ_Y tends to SC(1 + δ²) around √ρ, whose central density is 1/(π√(1 + δ²)).
        rho, delta2 = 1e4, 0.5
        centre = free.free_conv_density(math.sqrt(rho), rho, delta2)
        assert centre == pytest.approx(1 / (math.pi * math.sqrt(1 + delta2)), rel=2e-2)

    def test_eigenvalues_follow_the_density(self) -> None:
        # R4: KS distance between d = 1000 eigenvalues (ρ = 0.2, δ² = 0.05) and the theoretical
        # CDF; the note measures 0.003 and allows 0.02. Seeded.
        rng = np.random.default_rng(4)
        d, rho, delta2 = 1000, 0.2, 0.05
        lam = np.linalg.eigvalsh(_wishart(d, rho, rng) + math.sqrt(delta2) * _goe(d, rng))
        q = free.free_conv_quadrature(rho, delta2, nodes=4000)
        cdf_nodes = np.cumsum(q.weights * q.density)
        cdf = np.interp(lam, q.x, cdf_nodes, left=0.0, right=1.0)
        empirical = np.arange(1, d + 1) / d
        ks = max(np.max(np.abs(cdf - empirical)), np.max(np.abs(cdf - empirical + 1 / d)))
        assert ks < 0.02


class TestFreeConvSupport:
    @pytest.mark.parametrize(
        ("rho", "delta2", "expected", "tol"),
        [
            # Note §11 "more fixed numbers" (4 decimals) and §4.1's example (3 decimals).
            (0.5, 0.6, [[-1.2903, 4.3672]], 6e-5),
            (0.05, 1.0, [[-1.9589, 1.9338], [2.9856, 6.8782]], 6e-5),
            (0.2, 0.05, [[-0.405, 0.394], [0.724, 4.699]], 6e-4),
        ],
    )
    def test_reference_edges(self, rho: float, delta2: float, expected: list, tol: float) -> None:
        assert np.allclose(free.free_conv_support(rho, delta2), expected, rtol=0, atol=tol)

    def test_edges_match_the_prior_for_small_noise(self) -> None:
        # δ² → 0: the bulk tends to [√ρ + 1/√ρ − 2, √ρ + 1/√ρ + 2] (A-units Marchenko-Pastur,
        # note §2.1) and, for ρ < 1, a narrow bulk of width 4δ around 0.
        rho, delta2 = 0.25, 1e-6
        edges = free.free_conv_support(rho, delta2)
        mp = math.sqrt(rho) + 1 / math.sqrt(rho)
        assert edges.shape == (2, 2)
        assert np.allclose(edges[1], [mp - 2, mp + 2], atol=1e-2)
        assert np.allclose(edges[0], [-2e-3, 2e-3], atol=5e-4)


class TestFreeConvQuadrature:
    def test_a_thin_neck_is_resolved_without_warning(self) -> None:
        # Just after the two bulks merge (rho = 0.1, delta2 = 1.5412, found by a hypothesis run)
        # the density has a neck of height 0.04 x its mean; cos nodes over the whole interval
        # missed 1.1e-6 of the mass with 24576 nodes. Cut at the neck, the mass is 1 to 1e-9 and
        # the MMSE is continuous across the merging point.
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            q = free.free_conv_quadrature(0.1, 1.5412)
            mmse = free.rie_mmse(np.array([1.5380, 1.5412, 1.5440]), 0.1)
        assert abs(q.weights @ q.density - 1.0) < 1e-9
        assert abs(mmse[1] - (mmse[0] + mmse[2]) / 2) < 1e-4

    @settings(max_examples=25, deadline=None)
    @given(rho=RHOS, delta2=DELTA2S)
    def test_hilbert_identities(self, rho: float, delta2: float) -> None:
        # Note §4.2: ∫ μ v = 0, ∫ μ x v = ½, ∫ μ v² = (π²/3) ∫ μ³.
        q = free.free_conv_quadrature(rho, delta2)
        w, mu, v = q.weights, q.density, q.hilbert
        assert w @ (mu * v) == pytest.approx(0.0, abs=1e-7)
        assert w @ (mu * q.x * v) == pytest.approx(0.5, abs=1e-7)
        assert w @ (mu * v**2) == pytest.approx(np.pi**2 / 3 * (w @ mu**3), rel=1e-6)

    @pytest.mark.parametrize(
        ("rho", "delta2"), [(1e-6, 1e-6), (1.0, 1e-6), (0.3, 1e-3), (1e6, 1e4), (1e-6, 1e4)]
    )
    def test_corners_of_the_domain(self, rho: float, delta2: float) -> None:
        # The neck of two merging bulks (ρ < 1, small δ²) and the 1/√x edge at ρ = 1 need more
        # nodes: the quadrature doubles them until the mass is 1, without a warning. At ρ = 1e-6
        # a bulk of mass ρ at 1/√ρ = 1e3 carries the second moment, hence 1e-6 (measured 7e-8).
        q = free.free_conv_quadrature(rho, delta2)
        scale = 1 + rho + delta2
        assert q.weights @ q.density == pytest.approx(1.0, abs=1e-9)
        assert q.weights @ (q.x**2 * q.density) == pytest.approx(scale, rel=1e-6)
        assert 0 < free.rie_mmse(delta2, rho) < min(delta2, 1.0)

    def test_more_nodes_agree(self) -> None:
        # Spectral accuracy of the cos substitution: 96 and 1000 nodes agree on ∫ μ³.
        a = free.free_conv_quadrature(0.5, 0.6, nodes=96)
        b = free.free_conv_quadrature(0.5, 0.6, nodes=1000)
        assert a.weights @ a.density**3 == pytest.approx(b.weights @ b.density**3, rel=1e-10)


class TestRieShrinkage:
    def test_off_support_root_is_the_real_stieltjes_transform(self) -> None:
        # Off the support the selected root must be g(x) = ∫ μ(t)/(x − t) dt (real); the
        # largest-|Im g| rule would pick a wrong root here (note §4.1).
        rho, delta2 = 0.2, 0.05
        q = free.free_conv_quadrature(rho, delta2, nodes=400)
        x = np.array([-1.0, 0.55, 6.0])  # left of, between and right of the two bulks
        g = np.array([q.weights @ (q.density / (t - q.x)) for t in x])
        f = free.rie_shrinkage(x, rho, delta2, clip=False)
        assert np.allclose(f, x - 2 * delta2 * g, rtol=0, atol=1e-9)

    def test_clip_maps_to_the_nearest_edge(self) -> None:
        edges = free.free_conv_support(0.2, 0.05)
        x = np.array([edges[0, 0] - 1, edges[0, 1] + 1e-3, edges[1, 1] + 5])
        at_edges = np.array([edges[0, 0], edges[0, 1], edges[1, 1]])
        assert np.allclose(
            free.rie_shrinkage(x, 0.2, 0.05), free.rie_shrinkage(at_edges, 0.2, 0.05, clip=False)
        )

    def test_map_is_increasing_on_the_support(self) -> None:
        q = free.free_conv_quadrature(0.5, 0.6)
        f = free.rie_shrinkage(q.x, 0.5, 0.6)
        assert np.all(np.diff(f) > 0)


class TestRieDenoise:
    def test_simulation_matches_the_mmse(self) -> None:
        # R2: d = 500, ρ = 0.5, δ² = 0.6, RIE with clipping; the note measures 0.2831, 0.2843,
        # 0.2832 against 0.28390 and allows ±1.5%. Three fixed seeds.
        d, rho, delta2 = 500, 0.5, 0.6
        target = free.rie_mmse(delta2, rho)
        for seed in range(3):
            rng = np.random.default_rng(seed)
            A = _wishart(d, rho, rng)
            Ahat = free.rie_denoise(A + math.sqrt(delta2) * _goe(d, rng), rho, delta2)
            assert np.sum((Ahat - A) ** 2) / d == pytest.approx(target, rel=0.015)

    @settings(max_examples=20, deadline=None)
    @given(
        d=st.integers(min_value=10, max_value=80),
        delta2=DELTA2S,
        seed=st.integers(min_value=0, max_value=2**31),
    )
    def test_pure_noise_returns_almost_zero(self, d: int, delta2: float, seed: int) -> None:
        # A Wishart prior with ρ = 1e-4 puts mass 1 − ρ at 0; on a pure-noise Y every eigenvalue
        # lies in the semicircle bulk, where f(λ) = λ − 2δ² λ/(2δ²) ≈ 0. Measured
        # ‖Â‖_op/δ ≤ 1e-4 at d = 20-100; the bound is 1e-3.
        rng = np.random.default_rng(seed)
        Y = math.sqrt(delta2) * _goe(d, rng)
        assert np.linalg.norm(free.rie_denoise(Y, 1e-4, delta2), 2) < 1e-3 * math.sqrt(delta2)

    def test_rotation_equivariant(self) -> None:
        rng = np.random.default_rng(7)
        d = 30
        Y = _wishart(d, 0.5, rng) + 0.7 * _goe(d, rng)
        Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
        left = free.rie_denoise(Q @ Y @ Q.T, 0.5, 0.49)
        right = Q @ free.rie_denoise(Y, 0.5, 0.49) @ Q.T
        assert np.allclose(left, right, atol=1e-10)

    def test_eigenvalues_are_the_shrinkage(self) -> None:
        rng = np.random.default_rng(8)
        Y = _wishart(40, 0.5, rng) + 0.5 * _goe(40, rng)
        lam = np.linalg.eigvalsh(Y)
        out = np.linalg.eigvalsh(free.rie_denoise(Y, 0.5, 0.25, clip=False))
        assert np.allclose(out, np.sort(free.rie_shrinkage(lam, 0.5, 0.25, clip=False)))

    def test_refuses_a_non_symmetric_matrix(self) -> None:
        Y = np.array([[1.0, 0.5], [0.4, 1.0]])
        with pytest.raises(ValueError, match="Y must be symmetric"):
            free.rie_denoise(Y, 0.5, 0.6)
        with pytest.raises(ValueError, match="Y must be a square"):
            free.rie_denoise(np.ones((2, 3)), 0.5, 0.6)


class TestUnits:
    @pytest.mark.parametrize("quantity", sorted(free.S_UNIT_FACTORS))
    def test_round_trip(self, quantity: str) -> None:
        x = np.array([0.3, 1.7])
        back = free.to_a_units(free.to_s_units(x, quantity, 0.4), quantity, 0.4)
        assert np.allclose(back, x, rtol=1e-15)

    def test_known_conversions(self) -> None:
        # Note §2.1: A = √ρ S, q̂_S = ρ q̂_A, m_A = ρ m_S, Δ_S = Δ_A/ρ; trivial MMSE 1 -> 1/ρ.
        rho = 0.25
        assert free.to_s_units(1.0, "mse", rho) == pytest.approx(4.0)
        assert free.to_s_units(1.0, "signal", rho) == pytest.approx(2.0)
        assert free.to_s_units(2.0, "precision", rho) == pytest.approx(0.5)
        assert free.to_s_units(0.25, "label_noise", rho) == pytest.approx(1.0)
        # precision and noise variance are inverses in both unit systems
        d2 = 0.6
        assert free.to_s_units(1 / d2, "precision", rho) == pytest.approx(
            1 / free.to_s_units(d2, "delta2", rho)
        )
        assert free.TEST_MSE_PER_MATRIX_MSE == 2.0
