"""Tests for assocmem.quadratic.bayes: Bayes-optimal MMSE, inverse curve, narrow limit, dynamics.

Reference values come from the slides (E. Troiani, talk) where they state them and otherwise from
the derivation sections of ``shared/notes/02-attention-index-models.md`` ("note §"), whose
numbers were computed independently of this module (and match the public code of
arXiv:2408.03733 to about 1e-4).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.quadratic import bayes
from assocmem.quadratic.thresholds import perfect_recovery_threshold

ALPHAS = np.array([0.02, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45])
# Note §6.4 table (noiseless, A-units MMSE), printed to 4 decimals.
NOISELESS_TABLE = {
    0.1: [0.9371, 0.7179, 0, 0, 0, 0, 0, 0, 0, 0],
    0.25: [0.9529, 0.8518, 0.6224, 0.3714, 0.1270, 0, 0, 0, 0, 0],
    0.5: [0.9567, 0.8792, 0.7237, 0.5551, 0.3922, 0.2473, 0.1281, 0.0393, 0, 0],
    1.0: [0.9584, 0.8903, 0.7649, 0.6321, 0.4999, 0.3748, 0.2615, 0.1635, 0.0843, 0.0274],
    2.0: [0.9592, 0.8953, 0.7832, 0.6672, 0.5509, 0.4375, 0.3295, 0.2293, 0.1391, 0.0613],
}


@pytest.mark.parametrize("rho", sorted(NOISELESS_TABLE))
def test_noiseless_table(rho: float) -> None:
    # Note §6.4 (the slides' learning curves), 4 printed decimals: tolerance 1e-4.
    out = bayes.bo_mmse(ALPHAS, rho)
    np.testing.assert_allclose(out.mmse, NOISELESS_TABLE[rho], atol=1e-4)
    assert np.all(out.mmse[ALPHAS >= perfect_recovery_threshold(rho)] == 0.0)


def test_noisy_row() -> None:
    # Note §6.4, ρ = 0.5, Δ = 0.25 (the paper's line_noise_0.5_0.25.csv): tolerance 1e-4.
    alpha = [0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0]
    ref = [0.7695, 0.5178, 0.3357, 0.2267, 0.1639, 0.0921, 0.0629]
    np.testing.assert_allclose(bayes.bo_mmse(alpha, 0.5, 0.25).mmse, ref, atol=1e-4)


def test_qhat_table() -> None:
    # Note §6.4, q̂_A at ρ = 0.5 (4 decimals).
    out = bayes.bo_mmse([0.05, 0.1, 0.2, 0.3], 0.5)
    np.testing.assert_allclose(out.qhat, [0.1137, 0.2764, 1.0199, 4.6827], atol=1e-4)
    np.testing.assert_allclose(out.qhat, 4 * out.alpha / (2 * out.mmse), rtol=1e-10)


def test_scalar_and_edges() -> None:
    one = bayes.bo_mmse(0.2, 0.5)
    assert isinstance(one.mmse, float) and isinstance(one.qhat, float)
    assert bayes.bo_mmse(0.0, 0.5).mmse == 1.0
    assert bayes.bo_mmse(0.375, 0.5).mmse == 0.0  # α = α_PR, Δ = 0
    assert bayes.bo_mmse(0.5, 0.5, 0.1).mmse > 0.0
    assert bayes.bo_mmse([], 0.5).mmse.shape == (0,)


@pytest.mark.parametrize(
    ("rho", "ref"),
    [
        (0.05, [0.9357, 0.8206, 0.7342, 0.5570, 0.2399, 0.0175]),
        (0.01, [0.9857, 0.9383, 0.8817, 0.7060, 0.3337, 0.0950]),
    ],
)
def test_narrow_finite_rho(rho: float, ref: list[float]) -> None:
    # Note §6.3 table: finite-ρ values at ᾱ = α/ρ (convergence to the limit is slow, ~√ρ).
    alpha_bar = np.array([0.3, 0.5, 0.6, 0.75, 0.9, 0.97])
    np.testing.assert_allclose(bayes.bo_mmse(alpha_bar * rho, rho).mmse, ref, atol=1e-4)


def test_narrow_limit() -> None:
    # Note §6.3 "limit" row; the slides' BBP transition at ᾱ = ½.
    alpha_bar = np.array([0.3, 0.5, 0.6, 0.75, 0.9, 0.97])
    np.testing.assert_allclose(
        bayes.narrow_limit_mmse(alpha_bar), [1, 1, 0.96, 0.75, 0.36, 0.1164], atol=1e-12
    )
    assert bayes.narrow_limit_mmse(1.5) == 0.0
    assert isinstance(bayes.narrow_limit_mmse(0.75), float)


def test_state_evolution_trajectories() -> None:
    # Note §6.5: undamped trajectories from m_0 = 1 (4 decimals; 30-step value to 5).
    m = bayes.state_evolution(0.3, 0.5, steps=30)
    ref = [1, 0.5274, 0.3664, 0.2874, 0.2416, 0.2122, 0.1922, 0.1778]
    np.testing.assert_allclose(m[:8], ref, atol=1e-4)
    assert abs(m[30] - 0.12865) < 1e-5
    assert m[30] > bayes.bo_mmse(0.3, 0.5).mmse  # still above the fixed point 0.12813
    np.testing.assert_allclose(
        bayes.state_evolution(0.1, 0.5, steps=4), [1, 0.7915, 0.7436, 0.7298, 0.7256], atol=1e-4
    )
    assert np.all(np.diff(m) < 0)


@pytest.mark.parametrize("rho", [0.1, 0.5, 2.0])
def test_small_alpha(rho: float) -> None:
    # Note §6.2 limit: MMSE = 1 − 2α + O(α²) for every ρ.
    alpha = np.array([1e-4, 1e-3])
    err = bayes.bo_mmse(alpha, rho).mmse - (1 - 2 * alpha)
    assert np.all(np.abs(err) < 100 * alpha**2)  # coefficient ≈ 40 at ρ = 0.1


@pytest.mark.parametrize(("alpha", "noise"), [(0.1, 0.0), (0.3, 0.0), (0.1, 0.5), (0.3, 0.5)])
def test_goe_limit(alpha: float, noise: float) -> None:
    # Note §6.2: ρ → ∞ closed form, checked against ρ = 400 to 1e-3.
    b = noise + 4 * alpha - 2
    ref = (-b + np.sqrt(b**2 + 8 * noise)) / 4
    assert abs(bayes.bo_mmse(alpha, 400.0, noise).mmse - ref) < 1e-3


def test_curve_matches_brent() -> None:
    # The inverse parametrisation (note §6.2 step 3) is the same curve as Brent at its own α.
    for noise in (0.0, 0.25):
        c = bayes.bo_curve(0.5, noise, n=300)
        assert c.alpha.shape == c.mmse.shape == c.qhat.shape == (300,)
        assert np.all(np.diff(c.alpha) > 0) and np.all(np.diff(c.mmse) < 0)
        idx = np.arange(0, 300, 37)
        np.testing.assert_allclose(
            bayes.bo_mmse(c.alpha[idx], 0.5, noise).mmse, c.mmse[idx], atol=1e-9
        )


def test_curve_frozen() -> None:
    c = bayes.bo_curve(1.0, n=5)
    with pytest.raises(AttributeError):
        c.alpha = None  # type: ignore[misc]


rhos = st.sampled_from([0.1, 0.3, 1.0, 3.0])


@settings(max_examples=15, deadline=None)
@given(rho=rhos, a1=st.floats(0.01, 0.6), a2=st.floats(0.01, 0.6), noise=st.floats(0.0, 2.0))
def test_monotone_in_alpha(rho: float, a1: float, a2: float, noise: float) -> None:
    lo, hi = sorted((a1, a2))
    m = bayes.bo_mmse([lo, hi], rho, noise).mmse
    assert m[1] <= m[0] + 1e-12


@settings(max_examples=15, deadline=None)
@given(rho=rhos, alpha=st.floats(0.01, 0.6), n1=st.floats(0.0, 2.0), n2=st.floats(0.0, 2.0))
def test_monotone_in_noise(rho: float, alpha: float, n1: float, n2: float) -> None:
    lo, hi = sorted((n1, n2))
    assert bayes.bo_mmse(alpha, rho, lo).mmse <= bayes.bo_mmse(alpha, rho, hi).mmse + 1e-12


class TestAimMmse:
    # Values at ρ = 0.5 from the derivation of the attention-indexed state evolution (slides,
    # "Attention-indexed models": q̂ = α(T² + T − 2)/(Q₀ − q)), printed to 4 decimals: 1e-4.
    TABLE: ClassVar[dict[int, tuple[float, ...]]] = {
        2: (0.9567, 0.9066, 0.7237, 0.3922, 0.1281),
        3: (0.8792, 0.7237, 0.2473, 0.0, 0.0),
        4: (0.7566, 0.4557, 0.0, 0.0, 0.0),
    }
    ALPHAS = (0.01, 0.02, 0.05, 0.10, 0.15)

    @pytest.mark.parametrize("T", [2, 3, 4])
    def test_table_at_rho_half(self, T: int) -> None:
        got = bayes.aim_mmse(list(self.ALPHAS), 0.5, T=T).mmse
        np.testing.assert_allclose(got, self.TABLE[T], atol=1e-4)

    def test_cubic_solver_values_of_the_public_csv_grid(self) -> None:
        # T = 2, ρ = 0.5 at the α of the public SE_softmax csv, which prints α to 4 decimals; the
        # derivation's cubic-solver values there (five decimals). At T = 2 the MMSE falls about
        # 4 per unit α, so rounding α by up to 5e-5 moves it by up to 2e-4: tolerance 3e-4.
        alphas = [0.0074, 0.0368, 0.0735, 0.1103, 0.1471, 0.1765]
        ours = (0.96877, 0.80907, 0.56492, 0.32981, 0.14062, 0.03502)
        np.testing.assert_allclose(bayes.aim_mmse(alphas, 0.5).mmse, ours, atol=3e-4)

    @pytest.mark.parametrize("T", [2, 3, 5])
    def test_collapse_onto_the_quadratic_network(self, T: int) -> None:
        alpha = np.array([0.003, 0.02, 0.04])
        factor = (T * T + T - 2) / 2
        aim, quad = bayes.aim_mmse(alpha, 0.3, T=T), bayes.bo_mmse(alpha * factor, 0.3)
        np.testing.assert_array_equal(aim.mmse, quad.mmse)
        np.testing.assert_array_equal(aim.qhat, quad.qhat)
        np.testing.assert_array_equal(aim.alpha, alpha)

    def test_perfect_recovery_at_the_rescaled_threshold(self) -> None:
        # α_PR^AIM = 2(ρ − ρ²/2)/(T² + T − 2): 0.1875 (T = 2), 0.075 (T = 3) at ρ = 0.5
        assert bayes.aim_mmse(0.1876, 0.5, T=2).mmse == 0.0
        assert bayes.aim_mmse(0.1870, 0.5, T=2).mmse > 0.0
        assert bayes.aim_mmse(0.0751, 0.5, T=3).mmse == 0.0

    def test_alpha_times_factor_is_capped(self) -> None:
        with pytest.raises(ValueError, match="alpha"):
            bayes.aim_mmse(5000.0, 0.5, T=3)
        with pytest.raises(ValueError, match="T"):
            bayes.aim_mmse(0.1, 0.5, T=10**6)
