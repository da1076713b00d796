"""Tests for assocmem.quadratic.thresholds: BO, nuclear-norm and ℓ2 thresholds, AIM factor, hardmax.

Reference values come from the slides (E. Troiani, talk) where they state them and otherwise from
the derivation sections of ``shared/notes/02-attention-index-models.md`` ("note §"), whose
numbers were computed independently of this module.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from scipy.stats import multivariate_normal

from assocmem.quadratic import thresholds as th

# Note §8.6 table: ρ*, α_PR^NN (to the note's digits), t* (3 decimals), α_PR^BO.
NUCLEAR_TABLE = [
    (0.001, "0.0027", "1.786", "0.0010"),
    (0.01, "0.02314", "1.493", "0.00995"),
    (0.05, "0.09201", "1.119", "0.04875"),
    (0.1, "0.15757", "0.903", "0.095"),
    (0.2, "0.25556", "0.657", "0.18"),
    (0.3, "0.32715", "0.500", "0.255"),
    (0.5, "0.42217", "0.292", "0.375"),
    (0.7, "0.47462", "0.151", "0.455"),
    (0.9, "0.49741", "0.045", "0.495"),
]

rhos = st.floats(min_value=1e-4, max_value=5.0)


def _half_ulp(text: str) -> float:
    """Half a unit in the last printed digit of ``text`` (the note's rounding)."""
    decimals = len(text.split(".")[1])
    return 0.5 * 10.0**-decimals + 1e-12


# ---------------------------------------------------------------- Bayes-optimal threshold


def test_perfect_recovery_threshold_slides() -> None:
    # Slides, "Learning curves": α_c = ρ − ρ²/2; ½ above ρ = 1 (note §0, key fact 2).
    assert th.perfect_recovery_threshold(0.5) == 0.375
    assert th.perfect_recovery_threshold(1.0) == 0.5
    assert th.perfect_recovery_threshold(3.0) == 0.5
    out = th.perfect_recovery_threshold(np.array([0.1, 0.5, 2.0]))
    np.testing.assert_allclose(out, [0.095, 0.375, 0.5], atol=1e-15)
    for rho, _, _, bo in NUCLEAR_TABLE:
        assert abs(th.perfect_recovery_threshold(rho) - float(bo)) <= _half_ulp(bo)


@given(rho=rhos)
@settings(max_examples=100, deadline=None)
def test_threshold_ordering(rho: float) -> None:
    # Note §8.6: BO <= nuclear <= ℓ2 (= ½); the noiseless interpolation limit is ¼ + α_PR/2.
    bo = th.perfect_recovery_threshold(rho)
    nn = th.nuclear_recovery_threshold(rho)
    assert 0 < bo <= nn.alpha_pr + 1e-14 <= 0.5 + 1e-14
    assert min(rho, 1.0) - 1e-14 <= nn.rho_eff <= 1.0 + 1e-14
    assert 0.0 <= nn.t_star <= 2.0
    limit = th.interpolation_threshold_noiseless_limit(rho)
    assert limit == pytest.approx(0.25 + 0.5 * bo, abs=1e-14)


# ---------------------------------------------------------------- nuclear norm


@pytest.mark.parametrize(("rho", "alpha", "t_star", "_bo"), NUCLEAR_TABLE)
def test_nuclear_table(rho: float, alpha: str, t_star: str, _bo: str) -> None:
    # Note §8.6 table, to the printed digits.
    out = th.nuclear_recovery_threshold(rho)
    assert abs(out.alpha_pr - float(alpha)) <= _half_ulp(alpha)
    assert abs(out.t_star - float(t_star)) <= _half_ulp(t_star)


def test_nuclear_full_rank_and_vector() -> None:
    # Note §8.6: ½ (t* = 0, full rank) for ρ* >= 1; arrays keep their shape.
    out = th.nuclear_recovery_threshold(np.array([[0.1, 0.5], [1.0, 4.0]]))
    assert out.alpha_pr.shape == (2, 2)
    np.testing.assert_allclose(out.alpha_pr[1], 0.5, atol=0)
    np.testing.assert_allclose(out.t_star[1], 0.0, atol=0)
    np.testing.assert_allclose(out.rho_eff[1], 1.0, atol=0)
    assert out.alpha_pr[0, 1] == pytest.approx(th.nuclear_recovery_threshold(0.5).alpha_pr)
    # Continuity at ρ* = 1 from below.
    near = th.nuclear_recovery_threshold(1.0 - 1e-9)
    assert near.alpha_pr == pytest.approx(0.5, abs=1e-8)
    assert near.rho_eff == pytest.approx(1.0, abs=1e-4)


def test_nuclear_small_rho_asymptotics() -> None:
    # R18 (slides, Vignette III: α_C → 3ρ*, ρ_eff → ρ*^{3/5}; constants from note §8.6):
    # (3ρ − α_PR)/ρ^{7/5} → 5.06 and ρ_eff/ρ^{3/5} → 1.413 at ρ = 1e-5, tolerance 2%.
    rho = 1e-5
    out = th.nuclear_recovery_threshold(rho)
    const = 10 / 7 * (15 * math.pi / 2) ** 0.4
    eff = 2 / (3 * math.pi) * (15 * math.pi / 2) ** 0.6
    assert const == pytest.approx(5.06, abs=0.005)
    assert eff == pytest.approx(1.413, abs=0.0005)
    assert (3 * rho - out.alpha_pr) / rho**1.4 == pytest.approx(const, rel=0.02)
    assert out.rho_eff / rho**0.6 == pytest.approx(eff, rel=0.02)
    # Note §8.6: ρ_eff/ρ^{3/5} = 1.406 at 1e-5 and 1.37 at 1e-3;
    # α_PR/3ρ = 0.90 at 1e-3 and 0.61 at 0.05.
    assert out.rho_eff / rho**0.6 == pytest.approx(1.406, abs=0.0005)
    small = th.nuclear_recovery_threshold(1e-3)
    assert small.rho_eff / 1e-3**0.6 == pytest.approx(1.37, abs=0.005)
    assert small.alpha_pr / 3e-3 == pytest.approx(0.90, abs=0.005)
    assert th.nuclear_recovery_threshold(0.05).alpha_pr / 0.15 == pytest.approx(0.61, abs=0.005)


@pytest.mark.parametrize("t", [0.0, 0.3, 1.0, 1.5, 1.9, 1.99, 2.0])
def test_psi_closed_form_matches_quadrature(t: float) -> None:
    # Ψ(t) = ∫_t^2 (u−t)² √(4−u²)/(2π) du (note §8.6), closed form vs SciPy quad.
    ref, _ = quad(lambda u: (u - t) ** 2 * math.sqrt(4 - u * u) / (2 * math.pi), t, 2, epsabs=1e-14)
    assert float(th._psi(t)) == pytest.approx(ref, abs=1e-12)
    # Ψ(0) = E[u²]/2 = ½ for a unit semicircle.
    assert float(th._psi(0.0)) == pytest.approx(0.5, abs=1e-14)


def test_nuclear_minimum_is_a_minimum() -> None:
    # The returned α_PR is the minimum of the boxed §8.6 objective over a dense t grid.
    for rho in (0.05, 0.3, 0.8):
        t = np.linspace(0, 2, 20001)
        f = 0.5 * (rho * (2 - rho) + rho * (1 - rho) * t**2 + (1 - rho) ** 2 * th._psi(t))
        out = th.nuclear_recovery_threshold(rho)
        assert out.alpha_pr <= f.min() + 1e-14
        assert out.alpha_pr == pytest.approx(f.min(), abs=1e-8)


# ---------------------------------------------------------------- ℓ2 and interpolation limit


def test_l2_error_branches() -> None:
    # Note §8.6: E = Q(1−2α) + Δα/(1−2α) below ½, (Δ/2)/(2α−1) above; recovery at α = ½.
    q, delta = 1.5, 0.5
    alpha = np.array([0.0, 0.1, 0.4, 0.5, 0.6, 1.0])
    expect = [1.5, 1.2 + 0.05 / 0.8, 0.3 + 0.2 / 0.2, math.inf, 0.25 / 0.2, 0.25]
    np.testing.assert_allclose(th.l2_error(alpha, q, delta), expect, rtol=1e-14)
    noiseless = th.l2_error(alpha, q)
    np.testing.assert_allclose(noiseless, [1.5, 1.2, 0.3, 0.0, 0.0, 0.0], atol=1e-15)
    assert isinstance(th.l2_error(0.25, 1.5), float)


@given(
    a=st.floats(min_value=0.0, max_value=0.49),
    b=st.floats(min_value=0.0, max_value=0.49),
    delta=st.floats(min_value=0.0, max_value=10.0),
)
@settings(max_examples=100, deadline=None)
def test_l2_error_monotone(a: float, b: float, delta: float) -> None:
    # Noiseless: decreasing in α; noisy: increasing in Δ (issue 12, §3: monotone in noise).
    lo, hi = sorted((a, b))
    assert th.l2_error(hi, 1.5) <= th.l2_error(lo, 1.5) + 1e-15
    assert th.l2_error(lo, 1.5, delta) >= th.l2_error(lo, 1.5) - 1e-15


def test_interpolation_noiseless_limit_slides() -> None:
    # Slides, Vignette II: ¼(1 + 2ρ* − ρ*²) for ρ* < 1, ¼·2 above; note §8.5 "formula Δ→0" column.
    column = {0.05: 0.2744, 0.1: 0.2975, 0.3: 0.3775, 0.5: 0.4375, 0.8: 0.49, 1.0: 0.5, 2.0: 0.5}
    for rho, value in column.items():
        assert th.interpolation_threshold_noiseless_limit(rho) == pytest.approx(value, abs=5e-5)
    out = th.interpolation_threshold_noiseless_limit([0.5, 2.0])
    np.testing.assert_allclose(out, [0.4375, 0.5], atol=1e-15)


# ---------------------------------------------------------------- AIM factor


def test_aim_sample_factor() -> None:
    # Slides, "BO attention": n → n/(T²+T−2); per sequence T(T+1)/2 − 1 measurements (note §9.1).
    for T in range(2, 12):
        assert th.aim_sample_factor(T) == (T * T + T - 2) / 2 == T * (T + 1) // 2 - 1
    assert th.aim_sample_factor(np.int64(3)) == 5
    # Note §9.1: T = 2 perfect recovery at (ρ − ρ²/2)/2 = 0.1875 for ρ = 0.5.
    assert th.perfect_recovery_threshold(0.5) / th.aim_sample_factor(2) == 0.1875


# ---------------------------------------------------------------- hardmax T = 2


def test_hardmax_threshold_reference() -> None:
    # R25 (note §9.3): E at q = 0 is 1.23943 (exact) and 0.88768 (public code's formula);
    # ᾱ_c = 0.40341 and 0.56327; tolerance 1e-4.
    out = th.hardmax_threshold()
    assert out.fisher_exact == pytest.approx(1.23943, abs=1e-4)
    assert out.fisher_code == pytest.approx(0.88768, abs=1e-4)
    assert out.alpha_bar_exact == pytest.approx(0.40341, abs=1e-4)
    assert out.alpha_bar_code == pytest.approx(0.56327, abs=1e-4)
    # The exact expectation has a closed form at q = 0 (κ = 0): Φ₂(0, 0; c) = ¼ + arcsin(c)/2π,
    # ∂Φ₂ = φ(0)/2; outcomes with equal signs carry 8a²/Φ₂, opposite signs 4a²/Φ₂, over 3.
    a2 = (0.5 / math.sqrt(2 * math.pi)) ** 2
    same, opp = 0.25 + math.asin(1 / 3) / (2 * math.pi), 0.25 - math.asin(1 / 3) / (2 * math.pi)
    closed = (2 * 8 * a2 / same + 2 * 4 * a2 / opp) / 3
    assert out.fisher_exact == pytest.approx(closed, rel=1e-13)


def test_hardmax_fisher_grid() -> None:
    # q = 0 is the threshold's value for any node count; V = Q − q scales E as 1/V.
    ref = th.hardmax_threshold().fisher_exact
    assert th.hardmax_fisher(0.0, n_nodes=24) == pytest.approx(ref, rel=1e-13)
    assert th.hardmax_fisher(0.0, Q=2.0) == pytest.approx(ref / 2, rel=1e-13)
    assert th.hardmax_fisher(1e-8) == pytest.approx(ref, rel=1e-6)
    # Converged in the node count at moderate q (24 vs 40 nodes).
    e24, e40 = th.hardmax_fisher(0.5, 1.5), th.hardmax_fisher(0.5, 1.5, n_nodes=40)
    assert e24 == pytest.approx(e40, rel=1e-10)
    # The code's density formula loses information at every q tested.
    for q in (0.0, 0.5, 1.0):
        assert th.hardmax_fisher(q, 1.5, "code") < th.hardmax_fisher(q, 1.5)


def test_hardmax_fisher_monte_carlo() -> None:
    # The Gauss–Hermite average against sampling the generative model (ω, then h, then y).
    rng = np.random.default_rng(1)
    n, q, Q = 200_000, 0.5, 1.5
    V = Q - q
    o11, o22 = rng.normal(0, math.sqrt(2 * q), (2, n))
    o12 = rng.normal(0, math.sqrt(q), n)
    h11, h22 = (
        o11 + rng.normal(0, math.sqrt(2 * V), (2, n)),
        o22 + rng.normal(0, math.sqrt(2 * V), n),
    )
    h12 = o12 + rng.normal(0, math.sqrt(V), n)
    s1, s2 = np.where(h11 > h12, 1.0, -1.0), np.where(h22 > h12, 1.0, -1.0)
    scale = math.sqrt(3 * V)
    k1, k2, c = s1 * (o11 - o12) / scale, s2 * (o22 - o12) / scale, s1 * s2 / 3
    z = th._phi2_cdf(k1, k2, c)
    d1, d2 = th._phi2_grad(k1, k2, c)
    g11, g22 = s1 * d1 / z, s2 * d2 / z
    x = (2 * g11**2 + 2 * g22**2 + (g11 + g22) ** 2) / (3 * V)
    stderr = x.std() / math.sqrt(n)
    assert abs(x.mean() - th.hardmax_fisher(q, Q)) < 4 * stderr


def test_hardmax_fisher_rejects_stale_q() -> None:
    with pytest.raises(ValueError, match="q must lie in"):
        th.hardmax_fisher(1.5, Q=1.5)


@pytest.mark.parametrize(
    ("h", "k", "c"),
    [
        (0.0, 0.0, 1 / 3),
        (0.3, -1.2, 1 / 3),
        (-2.0, -3.0, -1 / 3),
        (1.0, 0.5, -1 / 3),
        (4.0, -1.0, 0.2),
    ],
)
def test_phi2_cdf_matches_scipy(h: float, k: float, c: float) -> None:
    # Sheppard's integral (40-point Gauss–Legendre) vs SciPy's multivariate normal CDF.
    ref = multivariate_normal([0.0, 0.0], [[1.0, c], [c, 1.0]]).cdf([h, k])
    got = float(th._phi2_cdf(np.array(h), np.array(k), np.array(c)))
    assert got == pytest.approx(ref, rel=1e-6, abs=1e-12)


def test_dlog_phi2_finite_differences() -> None:
    # Note §9.3: ∂ log Φ₂ by central finite differences equals ∂ᵢΦ₂/Φ₂ (the exact g_out), and
    # differs from φ₂/Φ₂ (the public code's formula).
    rng = np.random.default_rng(0)
    h, k = rng.uniform(-2.5, 2.5, (2, 200))
    c = rng.choice([1 / 3, -1 / 3], 200)
    eps = 1e-5
    fd_h = (np.log(th._phi2_cdf(h + eps, k, c)) - np.log(th._phi2_cdf(h - eps, k, c))) / (2 * eps)
    fd_k = (np.log(th._phi2_cdf(h, k + eps, c)) - np.log(th._phi2_cdf(h, k - eps, c))) / (2 * eps)
    z = th._phi2_cdf(h, k, c)
    dh, dk = th._phi2_grad(h, k, c)
    np.testing.assert_allclose(dh / z, fd_h, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dk / z, fd_k, rtol=1e-6, atol=1e-8)
    code = th._phi2_density(h, k, c) / z
    assert np.max(np.abs(code - fd_h)) > 0.1
