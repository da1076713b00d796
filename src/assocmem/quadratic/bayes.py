"""Bayes-optimal learning of quadratic networks: the MMSE curve, its narrow limit and its dynamics.

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*, "Learning curves"); Maillard, Troiani, Martin, Krzakala and Zdeborová,
arXiv:2408.03733 (Bayes-optimal learning of an extensive-width quadratic network).

Notation map (A-units: the target A* = Wᵀ W / √(p d) has Q* = Tr(A*²)/d = 1 + ρ)
----------------------------------------------------------------------------------
- ρ = p*/d (teacher width, the papers' κ*), α = n/d²    -> ``rho``, ``alpha``
- Δ (label-noise variance)                               -> ``noise``
- m (matrix MMSE ‖Â − A*‖²_F / d; test MSE = 2m)         -> ``mmse``
- q̂ (precision of the effective channel A + q̂^{-1/2} Z)  -> ``qhat``
- h(q̂) = q̂ MMSE_den(1/q̂) (denoising error per precision) -> private ``_h``
- ᾱ = α/ρ (narrow-limit sample ratio)                    -> ``alpha_bar``

The state evolution (slides, "Learning curves"; arXiv:2408.03733) is
q̂ = 4α/(Δ + 2m), m = MMSE_den(1/q̂), with MMSE_den from :func:`assocmem.quadratic.free.rie_mmse`.
Eliminating m gives h(q̂) + Δq̂/2 = 2α, monotone in q̂, solved by Brent on log q̂.

Public functions
----------------
``bo_mmse`` (result ``BayesOptimal``), ``bo_curve`` (result ``BayesCurve``),
``narrow_limit_mmse``, ``state_evolution``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import brentq

from assocmem._validation import (
    as_real_array,
    as_real_vector,
    check_fraction,
    check_positive_int,
    check_size,
)
from assocmem.quadratic.free import rie_mmse
from assocmem.quadratic.thresholds import aim_sample_factor, perfect_recovery_threshold

__all__ = [
    "BayesCurve",
    "BayesOptimal",
    "aim_mmse",
    "bo_curve",
    "bo_mmse",
    "narrow_limit_mmse",
    "state_evolution",
]

_RHO_MIN, _RHO_MAX = 1e-3, 1e6  # below 1e-3 the free-convolution MMSE loses digits at large δ²
_ALPHA_MAX = 1e4
_T_MAX = 10_000  # tokens per sequence accepted by aim_mmse
_NOISE_MAX = 1e4
_QHAT_LO, _QHAT_HI = 1e-4, 1e6  # q̂ = 1/δ² with δ² inside rie_mmse's [1e-6, 1e4]
_LOG_QHAT_MAX = 690.0  # q̂ <= e^690 keeps exp finite
_MAX_SE_STEPS = 100_000  # stated cap of state_evolution (each step is one denoising MMSE)
_CURVE_MAX = 100_000


@dataclass(frozen=True)
class BayesOptimal:
    """Bayes-optimal fixed point at each α.

    Attributes
    ----------
    alpha : float or ndarray
        The sample ratios α = n/d².
    mmse : float or ndarray
        Matrix MMSE m (A-units); 0 where Δ = 0 and α ≥ α_PR.
    qhat : float or ndarray
        The channel precision q̂ = 4α/(Δ + 2m); ``inf`` where the MMSE is 0, 0 at α = 0.
    """

    alpha: Any
    mmse: Any
    qhat: Any


@dataclass(frozen=True)
class BayesCurve:
    """A Bayes-optimal learning curve from the inverse parametrisation α(q̂).

    Attributes
    ----------
    alpha, mmse, qhat : ndarray, shape (n,)
        Increasing α, the MMSE there and the precision q̂ that parametrises the curve.
    """

    alpha: np.ndarray
    mmse: np.ndarray
    qhat: np.ndarray


def _check_rho(rho: Any) -> float:
    return check_fraction(rho, "rho", _RHO_MIN, _RHO_MAX, open_lo=False, open_hi=False)


def _check_noise(noise: Any) -> float:
    return check_fraction(noise, "noise", 0.0, _NOISE_MAX, open_lo=False, open_hi=False)


def _den_mmse(qhat: np.ndarray, rho: float) -> np.ndarray:
    """MMSE_den(1/q̂) for any q̂ > 0, extended outside rie_mmse's δ² range.

    Above q̂ = 1e6 it is h(1e6)/q̂ (h saturates at 2α_PR, to 1e-6 for ρ ≠ 1 and 1.3e-4 at ρ = 1);
    below q̂ = 1e-4 it is the high-noise expansion 1/(1 + q̂) (error O(q̂²), < 1e-11 there).
    """
    q = np.asarray(qhat, dtype=float)
    inside = (q >= _QHAT_LO) & (q <= _QHAT_HI)
    out = np.empty_like(q)
    if np.any(inside):
        out[inside] = rie_mmse(1.0 / q[inside], rho)
    high = q > _QHAT_HI
    if np.any(high):
        out[high] = _QHAT_HI * float(rie_mmse(1.0 / _QHAT_HI, rho)) / q[high]
    low = q < _QHAT_LO
    out[low] = 1.0 / (1.0 + q[low])
    return out


def _solve_one(alpha: float, rho: float, noise: float, alpha_pr: float) -> tuple[float, float]:
    """(m, q̂) at one α by Brent on log q̂ (slides' fixed point, eliminated to one equation)."""
    if alpha == 0.0:
        return 1.0, 0.0
    if noise == 0.0 and alpha >= alpha_pr:
        return 0.0, math.inf

    def f(u: float) -> float:
        q = math.exp(u)
        return q * float(_den_mmse(np.array([q]), rho)[0]) + 0.5 * noise * q - 2.0 * alpha

    # h(q̂) <= q̂, so f < 0 at q̂ = α/(1 + Δ/2); f >= 0 at q̂ = 4α/Δ unless h saturates first.
    lo = math.log(alpha / (1.0 + 0.5 * noise))
    hi = (
        _LOG_QHAT_MAX
        if noise == 0.0
        else min(math.log(4.0 * alpha) - math.log(noise), _LOG_QHAT_MAX)
    )
    if f(hi) < 0.0:
        # Δ = 0 (or Δ < 1e-290) within 1e-6 of α_PR (1.3e-4 at ρ = 1), where h(q̂ > 1e6) is
        # taken as h(1e6): the MMSE is below MMSE_den(1e-6) ≈ 1e-6 and reported as h(1e6)/q̂.
        q = math.exp(hi)
        return float(_den_mmse(np.array([q]), rho)[0]), q
    u = brentq(f, lo, hi, xtol=1e-13, rtol=1e-13, maxiter=200)
    q = math.exp(u)
    return float(_den_mmse(np.array([q]), rho)[0]), q


def bo_mmse(alpha: Any, rho: Any, noise: Any = 0.0) -> BayesOptimal:
    """Bayes-optimal MMSE of learning a quadratic network from n = αd² labels.

    Parameters
    ----------
    alpha : float or array_like, shape (n,)
        Sample ratio α = n/d², each in [0, 1e4].
    rho : float
        Teacher width ρ = p*/d, in [1e-3, 1e6].
    noise : float
        Label-noise variance Δ, in [0, 1e4].

    Returns
    -------
    BayesOptimal
        ``alpha``, ``mmse`` and ``qhat``: floats for a scalar ``alpha``, else arrays.

    Notes
    -----
    Solves h(q̂) + Δq̂/2 = 2α, h(q̂) = q̂ MMSE_den(1/q̂), with Brent on log q̂ and returns
    m = MMSE_den(1/q̂) (slides, "Learning curves": 1 − 2α = (4π²/3q̂) ∫ μ³ at Δ = 0;
    arXiv:2408.03733, eqs. for the noisy case). h increases from 0 to 2α_PR, so at Δ = 0 the
    MMSE is 0 for α ≥ α_PR = ρ − ρ²/2 (½ for ρ ≥ 1). One point costs a few ms.

    Examples
    --------
    >>> round(bo_mmse(0.2, 0.5).mmse, 4)
    0.3922
    """
    scalar = np.ndim(alpha) == 0 and not isinstance(alpha, list | tuple)
    a = as_real_vector(alpha, "alpha", 0.0, _ALPHA_MAX, min_size=0)
    r = _check_rho(rho)
    delta = _check_noise(noise)
    alpha_pr = float(perfect_recovery_threshold(r))
    pairs = [_solve_one(float(x), r, delta, alpha_pr) for x in a]
    m = np.array([p[0] for p in pairs], dtype=float)
    q = np.array([p[1] for p in pairs], dtype=float)
    if scalar:
        return BayesOptimal(alpha=float(a[0]), mmse=float(m[0]), qhat=float(q[0]))
    return BayesOptimal(alpha=a, mmse=m, qhat=q)


def aim_mmse(alpha: Any, rho: Any, T: Any = 2) -> BayesOptimal:
    """Bayes-optimal MMSE of a softmax attention-indexed model over T tokens (noiseless).

    Parameters
    ----------
    alpha : float or array_like, shape (n,)
        Sample ratio α = n/d² (sequences per d²), each in [0, 1e4] with α(T² + T − 2)/2 ≤ 1e4.
    rho : float
        Rank ratio ρ of the attention matrix, in [1e-3, 1e6].
    T : int
        Tokens per sequence, an integer in [2, 10^4].

    Returns
    -------
    BayesOptimal
        ``alpha`` (as given), ``mmse`` and ``qhat`` (A-units).

    Notes
    -----
    Each sequence gives K − 1 = (T² + T − 2)/2 identifiable quadratic observations, so the state
    evolution of the slides' "Attention-indexed models" (q̂ = α(T² + T − 2)/(Q₀ − q)) is the
    quadratic network's at α_eff = α(T² + T − 2)/2: every curve collapses onto
    :func:`bo_mmse`, with the same q̂. Perfect recovery at α = 2(ρ − ρ²/2)/(T² + T − 2) for
    ρ < 1; the MMSE does not depend on the softmax temperature.

    Examples
    --------
    T = 2 doubles the sample count: at α = 0.1 it is the quadratic network at α = 0.2.

    >>> round(aim_mmse(0.1, 0.5, T=2).mmse, 4)
    0.3922
    """
    factor = aim_sample_factor(check_positive_int(T, "T", minimum=2, maximum=_T_MAX))
    scalar = np.ndim(alpha) == 0 and not isinstance(alpha, list | tuple)
    a = as_real_vector(alpha, "alpha", 0.0, _ALPHA_MAX, min_size=0)
    if a.size and a.max() * factor > _ALPHA_MAX:
        raise ValueError(
            f"alpha * (T^2 + T - 2)/2 must be <= {_ALPHA_MAX:g}, got alpha = {a.max()!r} with "
            f"T = {T!r}"
        )
    out = bo_mmse(a * factor, rho)
    if scalar:
        return BayesOptimal(alpha=float(a[0]), mmse=float(out.mmse[0]), qhat=float(out.qhat[0]))
    return BayesOptimal(alpha=a, mmse=out.mmse, qhat=out.qhat)


def bo_curve(rho: Any, noise: Any = 0.0, n: Any = 300, alpha_max: Any = 2.0) -> BayesCurve:
    """Bayes-optimal learning curve by sweeping q̂ (no root finding).

    Parameters
    ----------
    rho, noise : float
        As in :func:`bo_mmse`.
    n : int
        Number of points, 2 to 100000.
    alpha_max : float
        With Δ > 0 the grid stops at q̂ = 4 alpha_max/Δ, so α ends between ``alpha_max`` and
        ``alpha_max`` + ½; in (0, 1e4]. (At Δ = 0 the curve ends at α_PR.)

    Returns
    -------
    BayesCurve
        ``alpha`` (increasing), ``mmse`` and ``qhat``, each of shape (n,).

    Notes
    -----
    The inverse parametrisation of the fixed point: on a log grid q̂ from 1e-3 to 1e6 (or less),
    α = (h(q̂) + Δq̂/2)/2 and m = MMSE_den(1/q̂) = h(q̂)/q̂ (slides, "Learning curves"). At Δ = 0
    the curve stops just below α_PR (m ≈ 2α/1e6 there); the MMSE is 0 beyond. 300 points cost
    one vectorised :func:`~assocmem.quadratic.free.rie_mmse` call (well under 1 s).

    Examples
    --------
    >>> c = bo_curve(0.5, n=50)
    >>> bool(np.all(np.diff(c.alpha) > 0) and np.all(np.diff(c.mmse) < 0))
    True
    """
    r = _check_rho(rho)
    delta = _check_noise(noise)
    k = check_positive_int(n, "n", minimum=2)
    check_size(k, "n", "curve points", _CURVE_MAX, "pass fewer points")
    a_max = check_fraction(alpha_max, "alpha_max", 0.0, _ALPHA_MAX, open_hi=False)
    q_hi = _QHAT_HI if delta == 0.0 else min(_QHAT_HI, 4.0 * a_max / delta)
    q = np.logspace(-3.0, math.log10(max(q_hi, 1e-2)), k)
    m = _den_mmse(q, r)
    alpha = 0.5 * (q * m + 0.5 * delta * q)
    return BayesCurve(alpha=alpha, mmse=m, qhat=q)


def narrow_limit_mmse(alpha_bar: Any) -> Any:
    """The ρ → 0 Bayes-optimal MMSE as a function of ᾱ = α/ρ (noiseless).

    Parameters
    ----------
    alpha_bar : float or array_like
        ᾱ = α/ρ, each finite and >= 0.

    Returns
    -------
    float or ndarray
        m(ᾱ) = 1 for ᾱ ≤ ½, 4ᾱ(1 − ᾱ) for ½ ≤ ᾱ ≤ 1 and 0 beyond; the shape of ``alpha_bar``.

    Notes
    -----
    As ρ → 0 the target is an extensive-rank spike of strength ρ^{-1/2}; denoising at noise
    1/q̂ acts per spike like spiked Wigner, m = t(2 − t) with t = ρ/q̂ < 1 and m = 1 beyond the
    BBP point q̂ = ρ (slides, "Narrow limit"; arXiv:2408.03733). With q̂ = 2α/m this gives the
    curve above; at finite ρ the approach is slow (corrections of order √ρ).

    Examples
    --------
    >>> narrow_limit_mmse(0.75)
    0.75
    """
    a = as_real_array(alpha_bar, "alpha_bar", min_size=0)
    if bool(np.any(a < 0)):
        raise ValueError(f"alpha_bar must hold values >= 0, got {float(a[a < 0][0])!r}")
    c = np.clip(a, 0.5, 1.0)
    out = np.where(a <= 0.5, 1.0, 4.0 * c * (1.0 - c))
    return float(out) if out.ndim == 0 else out


def state_evolution(alpha: Any, rho: Any, noise: Any = 0.0, steps: Any = 30) -> np.ndarray:
    """Trajectory m_0 = 1, m_1, …, m_steps of the undamped Bayes-optimal state evolution.

    Parameters
    ----------
    alpha : float
        Sample ratio α, in (0, 1e4].
    rho, noise : float
        As in :func:`bo_mmse`.
    steps : int
        Number of iterations, 1 to 100000 (each is one denoising MMSE, about 1 ms).

    Returns
    -------
    ndarray, shape (steps + 1,)
        m_t, starting from the uninformed m_0 = 1.

    Notes
    -----
    q̂_t = 4α/(Δ + 2m_t), m_{t+1} = MMSE_den(1/q̂_t) (slides, "Learning curves";
    arXiv:2408.03733). It decreases monotonically to the fixed point of :func:`bo_mmse`, slowly
    near α_PR.

    Examples
    --------
    >>> [round(float(x), 4) for x in state_evolution(0.3, 0.5, steps=2)]
    [1.0, 0.5274, 0.3664]
    """
    a = check_fraction(alpha, "alpha", 0.0, _ALPHA_MAX, open_lo=True, open_hi=False)
    r = _check_rho(rho)
    delta = _check_noise(noise)
    k = check_positive_int(steps, "steps", minimum=1, maximum=_MAX_SE_STEPS)
    m = np.empty(k + 1)
    m[0] = 1.0
    for t in range(k):
        q = 4.0 * a / (delta + 2.0 * m[t]) if delta + m[t] > 0 else math.inf
        m[t + 1] = 0.0 if math.isinf(q) else float(_den_mmse(np.array([q]), r)[0])
    return m
