"""Recovery and interpolation thresholds of quadratic networks, and the hardmax T = 2 channel.

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*); Maillard, Troiani, Martin, Krzakala and Zdeborová, arXiv:2408.03733
(Bayes-optimal learning); Erba, Troiani, Zdeborová and Krzakala, arXiv:2505.17958 (*The
Nuclear Route*, ERM); Boncoraglio, Troiani, Erba and Zdeborová, arXiv:2506.01582 (attention).

Notation map (A-units: the target A* = Wᵀ W / √(p d) has Q* = Tr(A*²)/d = 1 + ρ)
----------------------------------------------------------------------------------
- ρ = p*/d (teacher width, the papers' κ*), α = n/d²    -> ``rho``, ``alpha``
- Q* (squared norm of the target per d)                  -> ``Q``
- Δ (label-noise variance)                               -> ``noise``
- T (tokens per sequence)                                -> ``T``
- α_PR (perfect recovery), α_inter (interpolation)       -> ``*_threshold`` results
- t = τ/√(1−ρ) (nuclear-norm shrinkage per noise std)    -> ``t_star``
- ρ_eff (rank fraction of the min-nuclear-norm solution) -> ``rho_eff``
- q, V = Q − q (hardmax overlap and its variance)        -> ``q``, ``Q``
- ᾱ = α/ρ (narrow-limit sample ratio)                    -> ``alpha_bar_*``

Errors are matrix MSEs m = ‖Â − A*‖²_F / d (the test MSE on clean labels is 2m).

Public functions
----------------
``perfect_recovery_threshold``, ``nuclear_recovery_threshold`` (result ``NuclearThreshold``),
``l2_error``, ``interpolation_threshold_noiseless_limit``, ``aim_sample_factor``,
``hardmax_fisher``, ``hardmax_threshold`` (result ``HardmaxThreshold``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from numpy.polynomial.legendre import leggauss
from scipy.optimize import brentq
from scipy.special import ndtr

from assocmem._validation import (
    as_real_array,
    check_fraction,
    check_nonneg_float,
    check_option,
    check_positive_float,
    check_positive_int,
)

__all__ = [
    "HardmaxThreshold",
    "NuclearThreshold",
    "aim_sample_factor",
    "hardmax_fisher",
    "hardmax_threshold",
    "interpolation_threshold_noiseless_limit",
    "l2_error",
    "nuclear_recovery_threshold",
    "perfect_recovery_threshold",
]

_N_LEGENDRE = 40  # Gauss-Legendre nodes of the Sheppard integral for the bivariate normal CDF
_C_HARDMAX = 1.0 / 3.0  # correlation of h11 - h12 and h22 - h12 (variances 3V, covariance V)
_FORMULAS = ("exact", "code")


@dataclass(frozen=True)
class NuclearThreshold:
    """Perfect-recovery threshold of min-nuclear-norm PSD interpolation (noiseless).

    Attributes
    ----------
    rho : float or ndarray
        The teacher width ρ it was computed at.
    alpha_pr : float or ndarray
        α_PR^NN(ρ); ½ for ρ ≥ 1.
    t_star : float or ndarray
        The minimising shrinkage t* ∈ [0, 2] (0 for ρ ≥ 1).
    rho_eff : float or ndarray
        Rank fraction of the learned matrix at the threshold (1 for ρ ≥ 1).
    """

    rho: Any
    alpha_pr: Any
    t_star: Any
    rho_eff: Any


@dataclass(frozen=True)
class HardmaxThreshold:
    """Narrow-limit weak-recovery threshold of the T = 2 hardmax attention channel.

    Attributes
    ----------
    fisher_exact, fisher_code : float
        E[2 g₁₁² + 2 g₂₂² + g₁₂²] at q = 0, V = 1, with the exact derivative ∂Φ₂ and with the
        public code's bivariate density φ₂ in its place.
    alpha_bar_exact, alpha_bar_code : float
        ᾱ_c = 1 / (2 E) for each.
    """

    fisher_exact: float
    fisher_code: float
    alpha_bar_exact: float
    alpha_bar_code: float


# --------------------------------------------------------------------------- public functions


def perfect_recovery_threshold(rho: Any) -> Any:
    """Bayes-optimal perfect-recovery threshold α_PR = ρ − ρ²/2 (ρ < 1), ½ (ρ ≥ 1).

    Notes
    -----
    A PSD matrix of rank ρd has d²(ρ − ρ²/2) degrees of freedom per d², and n = αd² noiseless
    measurements fix it once they match that count (slides, "Learning curves":
    α_c = ρ − ρ²/2; arXiv:2408.03733). Above ρ = 1 the matrix is full rank: d²/2 unknowns.

    Parameters
    ----------
    rho : float or array_like
        Teacher width ρ = p*/d, finite and > 0.

    Returns
    -------
    float or ndarray
        α_PR, the shape of ``rho``.

    Examples
    --------
    >>> perfect_recovery_threshold(0.5)
    0.375
    """
    r, scalar = _check_rho(rho)
    out = np.where(r < 1.0, r - 0.5 * np.minimum(r, 1.0) ** 2, 0.5)
    return _shape(out, scalar)


def interpolation_threshold_noiseless_limit(rho: Any) -> Any:
    """The Δ → 0⁺ limit of the ERM interpolation threshold: ¼(1 + 2ρ − ρ²), or ½ for ρ ≥ 1.

    This is a limit, not the threshold at a given noise Δ (which needs the ERM equations and
    converges to this value slowly, like Δ^{1/3}).

    Notes
    -----
    Stated on the slides (Vignette II) for min-nuclear-norm regression of noisy labels as the
    regularisation λ → 0⁺ and then Δ → 0⁺ (arXiv:2505.17958). It equals ¼ + α_PR/2 with α_PR
    the Bayes-optimal threshold of :func:`perfect_recovery_threshold`. The Δ → ∞ limit is ¼
    (ellipsoid fitting).

    Parameters
    ----------
    rho : float or array_like
        As in :func:`perfect_recovery_threshold`.

    Returns
    -------
    float or ndarray
        lim_{Δ→0⁺} α_inter, the shape of ``rho``.

    Examples
    --------
    >>> interpolation_threshold_noiseless_limit(0.5)
    0.4375
    """
    r, scalar = _check_rho(rho)
    rc = np.minimum(r, 1.0)
    return _shape(0.25 * (1.0 + 2.0 * rc - rc**2), scalar)


def nuclear_recovery_threshold(rho: Any) -> NuclearThreshold:
    """Noiseless perfect-recovery threshold of min-nuclear-norm (weight-decay) learning.

    Notes
    -----
    Derived here from the λ → 0⁺, δ → 0 limit of the ERM equations of arXiv:2505.17958
    (a Donoho–Gavish–Montanari-type minimax formula):

    .. math::

        α_{PR}^{NN}(ρ) = ½ \\min_{t∈[0,2]} [ρ(2−ρ) + ρ(1−ρ)t² + (1−ρ)² Ψ(t)],
        \\qquad Ψ(t) = ∫_t^2 (u−t)² \\frac{\\sqrt{4−u²}}{2π} du,

    and ½ for ρ ≥ 1. Ψ has the closed form (2π)⁻¹[I₂ − 2t I₁ + t² I₀] with
    I₀ = π − t√(4−t²)/2 − 2 arcsin(t/2), I₁ = (4−t²)^{3/2}/3 and
    I₂ = π − t(2t²−4)√(4−t²)/8 − 2 arcsin(t/2). The minimiser solves
    ρ t = (1−ρ) E[(u − t)₊] (u a unit semicircle; one root in (0, 2), found by Brent's method),
    and ρ_eff = ρ + (1−ρ) P(u > t*). The slides' small-ρ claims follow:
    α_PR^NN ≈ 3ρ − 5.06 ρ^{7/5} and ρ_eff ≈ 1.413 ρ^{3/5} (both converge slowly).

    Parameters
    ----------
    rho : float or array_like
        Teacher width ρ* > 0, any shape: one root find per entry (ms each).

    Returns
    -------
    NuclearThreshold
        α_PR^NN, t* and ρ_eff, each the shape of ``rho``.

    Examples
    --------
    >>> round(nuclear_recovery_threshold(0.5).alpha_pr, 5)
    0.42217
    """
    r, scalar = _check_rho(rho)
    flat = r.ravel()
    t_star = np.zeros_like(flat)
    for i, ri in enumerate(flat):
        if ri < 1.0:
            t_star[i] = brentq(_nuclear_stationarity, 0.0, 2.0, args=(ri,), xtol=1e-14)
    t_star = t_star.reshape(r.shape)
    rc = np.minimum(r, 1.0)
    alpha = 0.5 * (rc * (2 - rc) + rc * (1 - rc) * t_star**2 + (1 - rc) ** 2 * _psi(t_star))
    rho_eff = rc + (1 - rc) * _sc_moments(t_star)[0]
    return NuclearThreshold(
        rho=_shape(r, scalar),
        alpha_pr=_shape(alpha, scalar),
        t_star=_shape(t_star, scalar),
        rho_eff=_shape(rho_eff, scalar),
    )


def l2_error(alpha: Any, Q: Any, noise: Any = 0.0) -> Any:
    """Error of min-Frobenius-norm (ℓ2, NTK/lazy) interpolation over symmetric matrices.

    Notes
    -----
    The minimum-norm least-squares solution is a projection onto the n = αd² dimensional span
    of the sensing matrices inside Sym(d) (dimension d²/2), so (derived here, in the setting of
    the slides' "L2-regularised quadratic networks"; arXiv:2505.17958):

    .. math::

        E = Q^*(1 − 2α) + \\frac{Δα}{1 − 2α}\\ (α < ½), \\qquad
        E = \\frac{Δ/2}{2α − 1}\\ (α > ½).

    Perfect recovery and interpolation both happen at α = ½ for every ρ*. At α = ½ the error is
    +inf when Δ > 0 (the interpolation peak) and 0 when Δ = 0.

    Parameters
    ----------
    alpha : float or array_like
        Sample ratio α = n/d², finite and >= 0.
    Q : float
        Q* = ‖A*‖²_F/d (1 + ρ* in A-units), finite and >= 0.
    noise : float
        Label-noise variance Δ, finite and >= 0.

    Returns
    -------
    float or ndarray
        E (matrix MSE), the shape of ``alpha``.

    Examples
    --------
    >>> l2_error(0.25, 1.5)
    0.75
    """
    a = as_real_array(alpha, "alpha", min_size=0, xp=np)
    if bool(np.any(a < 0)):
        raise ValueError(f"alpha must be a finite number >= 0, got {a[a < 0].ravel()[0]!r}")
    q = check_nonneg_float(Q, "Q")
    delta = check_nonneg_float(noise, "noise")
    gap = 1.0 - 2.0 * a
    below, above = gap > 0, gap < 0
    safe = np.where(gap == 0, 1.0, gap)
    out = np.where(below, q * gap + delta * a / safe, 0.0)
    out = np.where(above, 0.5 * delta / -safe, out)
    out = np.where(gap == 0, math.inf if delta > 0 else 0.0, out)
    return _shape(out, a.ndim == 0)


def aim_sample_factor(T: Any) -> int:
    """Effective Gaussian measurements per sequence of a softmax AIM, over two: (T² + T − 2)/2.

    Notes
    -----
    A softmax over T tokens reveals the T(T+1)/2 entries of the symmetric matrix XAXᵀ up to one
    constant shift per row, which leaves T(T+1)/2 − 1 identifiable Gaussian measurements per
    sequence. The Bayes-optimal curve of the attention-indexed model is the quadratic network's
    at α_eff = α(T² + T − 2)/2 (slides, "BO attention": "n → n/(T²+T−2)"; arXiv:2506.01582).

    Parameters
    ----------
    T : int
        Tokens per sequence, an integer >= 2 (T = 1 carries no information).

    Returns
    -------
    int
        (T² + T − 2)/2 = (T + 2)(T − 1)/2 (an integer).

    Examples
    --------
    >>> aim_sample_factor(2), aim_sample_factor(3)
    (2, 5)
    """
    t = check_positive_int(T, "T", minimum=2)
    return (t + 2) * (t - 1) // 2


def hardmax_fisher(q: Any, Q: Any = 1.0, formula: str = "exact", n_nodes: int = 24) -> float:
    """Channel side of the T = 2 hardmax state evolution: E[2 g₁₁² + 2 g₂₂² + g₁₂²].

    Notes
    -----
    The channel y₁₁ = 1[h₁₁ > h₁₂], y₂₂ = 1[h₂₂ > h₁₂] (slides, "BO attention", hardmax; code
    of arXiv:2506.01582, ``SE_hardmax.py``). Given ω, h₁₁, h₂₂ ~ N(ω, 2V), h₁₂ ~ N(ω₁₂, V) with
    V = Q − q, so with signs s = ±1, κ₁ = s₁₁(ω₁₁−ω₁₂)/√(3V), κ₂ = s₂₂(ω₂₂−ω₁₂)/√(3V) and
    c = s₁₁s₂₂/3 the likelihood is Z = Φ₂(κ₁, κ₂; c) and

    .. math::

        g_{11} = \\frac{s_{11}∂_1Φ_2}{\\sqrt{3V}Φ_2}, \\quad
        g_{22} = \\frac{s_{22}∂_2Φ_2}{\\sqrt{3V}Φ_2}, \\quad
        g_{12} = −\\frac{s_{11}∂_1Φ_2 + s_{22}∂_2Φ_2}{\\sqrt{3V}Φ_2},

    with ∂₁Φ₂ = φ(κ₁) Φ((κ₂ − cκ₁)/√(1−c²)). The state evolution is q̂_A = 2α E[·], averaged
    over ω₁₁, ω₂₂ ~ N(0, 2q), ω₁₂ ~ N(0, q) (Gauss–Hermite, ``n_nodes`` per axis) and the four
    outcomes. ``formula="code"`` puts the bivariate density φ₂(κ₁, κ₂; c) in place of ∂ᵢΦ₂, as
    the public ``SE_hardmax.py`` and ``AMP_hardmax.py`` do; that is not the derivative of log Z
    (our correction), and it lowers E at q = 0 from 1.2394 to 0.8877.

    The grid is exact at q = 0 and agrees with a 4·10⁵-sample Monte Carlo average to 1e-3 at
    q = 0.5, Q = 1.5; as V = Q − q → 0 the integrand sharpens and more nodes are needed (at
    q/Q = 0.93, 24 and 40 nodes differ by 1e-4 relative).

    Parameters
    ----------
    q : float
        Overlap, 0 <= q < Q.
    Q : float
        Prior second moment (1 + ρ in A-units; 1 in the narrow limit), finite and > 0.
    formula : {"exact", "code"}
        Which derivative to use.
    n_nodes : int
        Gauss–Hermite nodes per ω axis, 1 to 64 (q = 0 needs only 1).

    Returns
    -------
    float
        E[2 g₁₁² + 2 g₂₂² + g₁₂²] (units 1/V).

    Examples
    --------
    >>> round(hardmax_fisher(0.0), 4)
    1.2394
    """
    Qv = check_positive_float(Q, "Q")
    qv = check_fraction(q, "q", 0.0, Qv, open_lo=False, open_hi=True)
    formula = check_option(formula, "formula", _FORMULAS)
    n = check_positive_int(n_nodes, "n_nodes", maximum=64)
    return _fisher(qv, Qv - qv, formula, n)


def hardmax_threshold() -> HardmaxThreshold:
    """Narrow-limit weak-recovery threshold ᾱ_c = 1/(2 E[·]_{q=0}) of the T = 2 hardmax channel.

    Notes
    -----
    As ρ → 0 (Q → 1) the trivial fixed point q = 0 becomes unstable where q̂ = 2αE[·]_{q=0}
    reaches the BBP point q̂ = ρ, i.e. at ᾱ = α/ρ = 1/(2E) (slides, "Narrow limit ρ → 0": a BBP
    transition). With the exact derivative (our correction) E = 1.2394 and ᾱ_c = 0.40341; with
    the public code's bivariate density (``SE_hardmax.py`` of arXiv:2506.01582, whose figure has
    its vertical line at 0.56345) E = 0.8877 and ᾱ_c = 0.56327.

    Returns
    -------
    HardmaxThreshold
        Both expectations and both thresholds.

    Examples
    --------
    >>> round(hardmax_threshold().alpha_bar_exact, 5)
    0.40341
    """
    exact = _fisher(0.0, 1.0, "exact", 1)
    code = _fisher(0.0, 1.0, "code", 1)
    return HardmaxThreshold(
        fisher_exact=exact,
        fisher_code=code,
        alpha_bar_exact=0.5 / exact,
        alpha_bar_code=0.5 / code,
    )


# --------------------------------------------------------------------------- private kernels


def _check_rho(rho: Any) -> tuple[np.ndarray, bool]:
    r = as_real_array(rho, "rho", min_size=0, xp=np)
    if bool(np.any(r <= 0)):
        raise ValueError(f"rho must be a finite number > 0, got {r[r <= 0].ravel()[0]!r}")
    return r, r.ndim == 0


def _shape(out: np.ndarray, scalar: bool) -> Any:
    return float(out) if scalar else np.asarray(out, dtype=float)


def _sc_moments(t: Any) -> tuple[Any, Any, Any]:
    """P(u > t), E[u 1(u>t)], E[u² 1(u>t)] for a unit semicircle u on [−2, 2], t ∈ [0, 2]."""
    t = np.asarray(t, dtype=float)
    root = np.sqrt(np.maximum(4.0 - t**2, 0.0))
    arc = 2.0 * np.arcsin(t / 2.0)
    i0 = math.pi - 0.5 * t * root - arc
    i1 = root**3 / 3.0
    i2 = math.pi - t * (2.0 * t**2 - 4.0) * root / 8.0 - arc
    return i0 / (2 * math.pi), i1 / (2 * math.pi), i2 / (2 * math.pi)


def _psi(t: Any) -> Any:
    """Ψ(t) = E[(u − t)₊²] for a unit semicircle u (closed form)."""
    m0, m1, m2 = _sc_moments(t)
    return np.maximum(m2 - 2 * t * m1 + t**2 * m0, 0.0)


def _nuclear_stationarity(t: float, rho: float) -> float:
    """dΨ-condition ρ t − (1 − ρ) E[(u − t)₊] (increasing in t; one root in (0, 2))."""
    m0, m1, _ = _sc_moments(t)
    return float(rho * t - (1.0 - rho) * (m1 - t * m0))


def _phi2_cdf(h: np.ndarray, k: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Bivariate standard normal CDF Φ₂(h, k; c), vectorised (Sheppard's integral).

    Φ₂ = Φ(h)Φ(k) + (2π)⁻¹ ∫₀^{arcsin c} exp(−(h² + k² − 2hk sin θ)/(2 cos² θ)) dθ, with
    Gauss–Legendre nodes (the integrand is smooth for |c| <= 1/3).
    """
    x, w = leggauss(_N_LEGENDRE)
    top = np.arcsin(c)[..., None]
    theta = 0.5 * top * (x + 1.0)
    s, cos2 = np.sin(theta), np.cos(theta) ** 2
    h_, k_ = h[..., None], k[..., None]
    f = np.exp(-(h_**2 + k_**2 - 2.0 * h_ * k_ * s) / (2.0 * cos2))
    integral = 0.5 * top[..., 0] * (f @ w)
    return ndtr(h) * ndtr(k) + integral / (2.0 * math.pi)


def _phi2_grad(h: np.ndarray, k: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(∂_h Φ₂, ∂_k Φ₂) = (φ(h) Φ((k − c h)/√(1−c²)), φ(k) Φ((h − c k)/√(1−c²)))."""
    sq = np.sqrt(1.0 - c**2)
    norm = 1.0 / math.sqrt(2.0 * math.pi)
    dh = norm * np.exp(-0.5 * h**2) * ndtr((k - c * h) / sq)
    dk = norm * np.exp(-0.5 * k**2) * ndtr((h - c * k) / sq)
    return dh, dk


def _phi2_density(h: np.ndarray, k: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Bivariate normal density φ₂(h, k; c) (what the public hardmax code uses)."""
    one = 1.0 - c**2
    return np.exp(-(h**2 + k**2 - 2.0 * c * h * k) / (2.0 * one)) / (2.0 * math.pi * np.sqrt(one))


def _fisher(q: float, V: float, formula: str, n_nodes: int) -> float:
    """E[2 g₁₁² + 2 g₂₂² + g₁₂²] over the ω grid and the four outcomes (see hardmax_fisher)."""
    z, w = hermegauss(n_nodes)
    w = w / w.sum()
    om11 = math.sqrt(2 * q) * z[:, None, None]
    om22 = math.sqrt(2 * q) * z[None, :, None]
    om12 = math.sqrt(q) * z[None, None, :]
    weight = w[:, None, None] * w[None, :, None] * w[None, None, :]
    scale = math.sqrt(3.0 * V)
    total = 0.0
    for s1 in (1.0, -1.0):
        for s2 in (1.0, -1.0):
            k1 = np.broadcast_to(s1 * (om11 - om12) / scale, weight.shape)
            k2 = np.broadcast_to(s2 * (om22 - om12) / scale, weight.shape)
            c = np.full(weight.shape, s1 * s2 * _C_HARDMAX)
            z_out = _phi2_cdf(k1, k2, c)
            if formula == "exact":
                d1, d2 = _phi2_grad(k1, k2, c)
            else:
                d1 = d2 = _phi2_density(k1, k2, c)
            g11, g22 = s1 * d1, s2 * d2
            num = 2.0 * g11**2 + 2.0 * g22**2 + (g11 + g22) ** 2
            # Outcomes of vanishing probability contribute num / z_out -> 0; skip underflow.
            ok = z_out > 1e-300
            contrib = np.where(ok, num / np.where(ok, z_out, 1.0), 0.0)
            total += float(np.sum(weight * contrib))
    return total / (3.0 * V)
