"""von Mises–Fisher geometry on the sphere S^{N−1}: normaliser, ς, mean resultant length, sampler.

Paper: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025),
Appendix C (integration of the vMF density) and Eqs. 9, 11-12 (the function ς).

Notation map
------------
- N (dimension of the data layer, x ∈ S^{N−1})                   -> ``N``
- β (inverse temperature = vMF concentration of every memory)     -> ``beta``; ``kappa`` where
  only the concentration of a single vMF law is meant (the sampler, A_N)
- Ω_N(β) = ∫ dx exp(β r̂·x) (Eq. 17; Ω_N(0) = area of S^{N−1})     -> ``log_vmf_normaliser``
- τ(β) = log[Ω_N(β)/Ω_N(0)] = −a⁰ of App. A = β m^{μ*0} of Eq. 6  -> ``tau``
- ρ = β/(N − 2), η(x) (Eq. 18)                                    -> private ``_eta``
- ς(x) = x/(√(x² + 1) + 1) (Eqs. 9, 23; ς(2v) with v = β*/N)      -> ``varsigma``
- A_N(κ) = I_{N/2}(κ)/I_{N/2−1}(κ) = τ'(κ) (mean resultant length) -> ``mean_resultant_length``

Conventions
-----------
τ is computed without ``scipy.special.ive`` underflow: ``ive(N/2 − 1, β)`` is 0 for N = 784 and
β ≲ 90, so a plain log gives −inf. We write τ(β) = log ₀F₁(; N/2; β²/4) (Eq. 17 with the
power series of I_ν) and evaluate it as a log-sum-exp of the series where that is short (at most
2000 terms), from ``ive`` where ``ive`` is a normal float, and otherwise from the uniform (Debye)
expansion of I_ν with four correction terms (DLMF 10.41.3; very large N, where it is exact to
rounding) or, for β above ~1e9 where ``ive`` returns NaN, from the large-argument expansion
(DLMF 10.40.1). ``approx=True`` gives Eq. 18 instead.

The printed form of ς in the line of Eq. 9 (and in App. D) reads √(x² + 1 + 1); App. E and
ς = η' (the derivative of Eq. 18's η) give x/(√(x² + 1) + 1), which we use.

Public functions
----------------
``log_vmf_normaliser``, ``tau``, ``varsigma``, ``inverse_varsigma``, ``mean_resultant_length``,
``sample_vmf``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.special import gammaln, ive

from assocmem._validation import (
    MAX_ELEMENTS,
    as_real_array,
    as_rng,
    check_bool,
    check_fraction,
    check_positive_int,
    check_size,
)

__all__ = [
    "inverse_varsigma",
    "log_vmf_normaliser",
    "mean_resultant_length",
    "sample_vmf",
    "tau",
    "varsigma",
]

#: Largest dimension accepted (N/2 − 1 stays exactly representable and gammaln accurate).
N_MAX = 10**9
#: Largest concentration the sampler accepts (scipy's Wood sampler is exact up to ~1e20).
KAPPA_MAX = 1e15
_SERIES_MAX = 2000  # longest power series summed directly
_IVE_TINY = 1e-280  # below this ive is treated as underflowed
_DEBYE_NU = 50.0  # orders from which the Debye expansion replaces ive when ive fails
_CHUNK = 1 << 20  # elements of one (points × terms) block of the series


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def _check_N(N: Any, approx: bool) -> int:
    """N as an int: >= 2, or >= 3 for Eq. 18 (which divides by N − 2)."""
    return check_positive_int(N, "N", minimum=3 if approx else 2, maximum=N_MAX)


def _as_nonneg(value: Any, name: str) -> np.ndarray:
    arr = as_real_array(value, name, xp=np)
    if bool(np.any(arr < 0)):
        raise ValueError(f"{name} must hold finite numbers >= 0, got {arr[arr < 0].ravel()[0]!r}")
    return arr


def _out(arr: np.ndarray) -> Any:
    return float(arr) if arr.ndim == 0 else arr


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def log_vmf_normaliser(N: int, beta: Any, *, approx: bool = False) -> Any:
    """Log of the vMF normaliser Ω_N(β) on S^{N−1} (Thériault & Tantari 2025, App. C, Eq. 17).

    Notes
    -----
    Ω_N(β) = ∫_{S^{N−1}} dx e^{β r̂·x} = Ω_N(0) (β/2)^{1−N/2} Γ(N/2) I_{N/2−1}(β) (Eq. 17), with
    Ω_N(0) = 2π^{N/2}/Γ(N/2) the area of the sphere. We return log Ω_N(0) + τ(β), with τ from
    :func:`tau` (exact, in log space; or Eq. 18 with ``approx=True``). The density of
    vMF(r̂, β) is e^{β r̂·x}/Ω_N(β).

    Parameters
    ----------
    N : int
        Dimension, 2 <= N <= 1e9 (N >= 3 with ``approx=True``).
    beta : float or array_like
        Concentration(s) β >= 0, finite.
    approx : bool
        Use the large-N approximation of Eq. 18 instead of the exact value.

    Returns
    -------
    float or numpy.ndarray
        log Ω_N(β), same shape as ``beta``.

    References
    ----------
    R. Thériault and D. Tantari, Saddle hierarchy in dense associative memory (2025), App. C.

    Examples
    --------
    On the 2-sphere Ω_3(β) = 4π sinh(β)/β; at β = 0 this is the area 4π:

    >>> round(log_vmf_normaliser(3, 0.0), 12) == round(math.log(4 * math.pi), 12)
    True
    """
    approx = check_bool(approx, "approx")
    N = _check_N(N, approx)
    b = _as_nonneg(beta, "beta")
    log_area = math.log(2.0) + 0.5 * N * math.log(math.pi) - math.lgamma(0.5 * N)
    return _out(log_area + _tau(N, b, approx))


def tau(N: int, beta: Any, *, approx: bool = False) -> Any:
    """τ(β) = log[Ω_N(β)/Ω_N(0)], the log-weight of the outside unit (Thériault & Tantari 2025).

    Notes
    -----
    App. A writes the outside unit's bias as a⁰ = log[Ω_N(0)/Ω_N(β)] = −τ(β); Eqs. 6, 9 and 10
    write it as β m^{μ*0} (or β_eff m^{μ*0}). In every case τ is evaluated at the student's β.
    Exactly, τ(β) = log ₀F₁(; N/2; β²/4) (Eq. 17 and the power series of I_{N/2−1}); it grows
    like β²/(2N) for β ≪ N. With ``approx=True`` we return Eq. 18,
    τ ≈ −¼ log(1 + (2ρ)²) + (N/2 − 1) η(2ρ), with ρ = β/(N − 2) and
    η(x) = √(1 + x²) − 1 − log[1 + √(1 + x²)] + log 2.

    Parameters
    ----------
    N : int
        Dimension, 2 <= N <= 1e9 (N >= 3 with ``approx=True``).
    beta : float or array_like
        Inverse temperature(s) β >= 0, finite.
    approx : bool
        Use Eq. 18 instead of the exact value.

    Returns
    -------
    float or numpy.ndarray
        τ(β) >= 0, same shape as ``beta``.

    Examples
    --------
    On the circle Ω_2(β) = 2π I_0(β), so τ = log I_0(β); I_0(1) = 1.2660658777520082:

    >>> round(tau(2, 1.0), 12) == round(math.log(1.2660658777520082), 12)
    True
    """
    approx = check_bool(approx, "approx")
    N = _check_N(N, approx)
    return _out(_tau(N, _as_nonneg(beta, "beta"), approx))


def varsigma(x: Any) -> Any:
    """ς(x) = x/(√(x² + 1) + 1), the cosine between a noisy example and its prototype.

    Notes
    -----
    Thériault & Tantari 2025, Eq. 9 and App. E: β_eff = ς(2v) β with v = β*/N. The line of
    Eq. 9 prints √(x² + 1 + 1); App. E and ς = η' (η of Eq. 18) give the form used here. In the
    teacher's generative model a vMF(w*, κ = vN) example has overlap x·w* → ς(2v) as N → ∞.
    Equivalently ς(x) = tanh(½ arsinh x); it is odd, increasing, and |ς| < 1.

    Parameters
    ----------
    x : float or array_like
        Any finite real number(s).

    Returns
    -------
    float or numpy.ndarray
        ς(x), same shape as ``x``.

    Examples
    --------
    >>> varsigma(0.0), round(varsigma(2.0), 12) == round((math.sqrt(5) - 1) / 2, 12)
    (0.0, True)
    """
    arr = as_real_array(x, "x", xp=np)
    return _out(_varsigma(arr))


def inverse_varsigma(s: Any) -> Any:
    """The inverse of :func:`varsigma`: x = 2ς/(1 − ς²) (so v = ς/(1 − ς²) for ς = ς(2v)).

    Parameters
    ----------
    s : float or array_like
        Value(s) of ς in (−1, 1).

    Returns
    -------
    float or numpy.ndarray
        x with ς(x) = s, same shape as ``s``.

    Examples
    --------
    ς = 0.5 is reached at x = 4/3 (teacher noise v = 2/3):

    >>> round(inverse_varsigma(0.5), 12)
    1.333333333333
    """
    arr = as_real_array(s, "s", xp=np)
    bad = np.abs(arr) >= 1
    if bool(np.any(bad)):
        raise ValueError(f"s must lie in (-1, 1), got {arr[bad].ravel()[0]!r}")
    return _out(2.0 * arr / ((1.0 - arr) * (1.0 + arr)))


def mean_resultant_length(N: int, kappa: Any, *, approx: bool = False) -> Any:
    """A_N(κ) = I_{N/2}(κ)/I_{N/2−1}(κ), the mean overlap E[x·μ] of x ~ vMF(μ, κ) on S^{N−1}.

    Notes
    -----
    A_N = dτ/dκ with τ = log[Ω_N(κ)/Ω_N(0)] (Thériault & Tantari 2025, Eq. 17), so it is also
    the derivative of the outside unit's log-weight with respect to β. For large N,
    A_N(κ) ≈ ς(2κ/(N − 2)); ``approx=True`` returns the exact derivative of Eq. 18,
    ς(2ρ) − 2ρ/((N − 2)(1 + 4ρ²)) with ρ = κ/(N − 2). The variance of x·μ is
    1 − (N − 1) A_N(κ)/κ − A_N(κ)². Eq. 18 is poor for small N (its derivative is negative at
    small κ for N = 3), like Eq. 18 itself.

    Parameters
    ----------
    N : int
        Dimension, 2 <= N <= 1e9 (N >= 3 with ``approx=True``).
    kappa : float or array_like
        Concentration(s) κ >= 0, finite.
    approx : bool
        Differentiate Eq. 18 instead of the exact τ.

    Returns
    -------
    float or numpy.ndarray
        A_N(κ) in [0, 1), same shape as ``kappa``.

    Examples
    --------
    On the 2-sphere A_3(κ) = coth κ − 1/κ:

    >>> k = 2.0
    >>> round(mean_resultant_length(3, k), 12) == round(1 / math.tanh(k) - 1 / k, 12)
    True
    """
    approx = check_bool(approx, "approx")
    N = _check_N(N, approx)
    k = _as_nonneg(kappa, "kappa")
    if approx:
        rho = k / (N - 2)
        h = np.hypot(1.0, 2.0 * rho)  # √(1 + 4ρ²), no overflow
        return _out(_varsigma(2.0 * rho) - (2.0 * rho / h) / (h * (N - 2)))
    return _out(_bessel_ratio(0.5 * N - 1.0, k))


def sample_vmf(mu: Any, kappa: float, n: int, rng: Any = 0) -> np.ndarray:
    """Draw n points of S^{N−1} from vMF(μ, κ), density ∝ e^{κ μ·x} (Wood's algorithm).

    Notes
    -----
    The teacher of Thériault & Tantari 2025 (Sec. 2.2) draws each example as x ~ vMF(w*^μ*, κ)
    with κ = β* = vN; App. I initialises memories from a vMF law around the data mean. The
    cosine t = x·μ has density ∝ e^{κt}(1 − t²)^{(N−3)/2}; it is drawn by Wood's rejection
    sampler (Wood 1994) with the envelope written so that 1 − t, 1 − x₀t and 1 − x₀² never
    cancel (κ up to 1e15), and x = t μ + √(1 − t²) u with u uniform on the sphere ⊥ μ (a
    projected Gaussian). This costs O(nN); ``scipy.stats.vonmises_fisher`` draws the same law
    but rotates every sample with an N × N matrix (38 s for 60 000 samples at N = 784 against
    well under a second here). κ = 0 gives the uniform law.

    Parameters
    ----------
    mu : array_like, shape (N,)
        Mean direction, N >= 2, any non-zero finite vector (it is normalised).
    kappa : float
        Concentration, 0 <= κ <= 1e15.
    n : int
        Number of samples, >= 1 (n·N at most ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    numpy.ndarray, shape (n, N)
        Unit vectors.

    Examples
    --------
    The mean overlap with μ is A_N(κ) (≈ ς(2κ/N) for large N):

    >>> x = sample_vmf(np.eye(200)[0], 200.0, 4000, rng=0)
    >>> bool(abs(x[:, 0].mean() - mean_resultant_length(200, 200.0)) < 0.005)
    True
    """
    m = as_real_array(mu, "mu", ndim=1, min_size=2, xp=np)
    scale = float(np.max(np.abs(m)))
    if scale == 0.0:
        raise ValueError("mu must be a non-zero vector (the mean direction), got all zeros")
    m = m / scale
    m = m / np.linalg.norm(m)
    kappa = check_fraction(kappa, "kappa", 0.0, KAPPA_MAX, open_lo=False, open_hi=False)
    n = check_positive_int(n, "n")
    check_size(n * m.size, "n", "sample coordinates (n·N)", MAX_ELEMENTS, "draw fewer samples")
    return _sample_rows(np.broadcast_to(m, (n, m.size)), kappa, as_rng(rng))


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


def _varsigma(x: np.ndarray) -> np.ndarray:
    """ς(x) = x/(√(x² + 1) + 1) (paper App. E); hypot keeps x² from overflowing."""
    return x / (np.hypot(1.0, x) + 1.0)


def _eta(x: np.ndarray) -> np.ndarray:
    """η(x) of Eq. 18, written as d − log1p(d/2) with d = √(1 + x²) − 1 (no cancellation)."""
    d = x * (x / (np.hypot(1.0, x) + 1.0))
    return d - np.log1p(0.5 * d)


def _tau(N: int, beta: np.ndarray, approx: bool) -> np.ndarray:
    """τ(β) exactly (log ₀F₁(; N/2; β²/4)) or by Eq. 18."""
    if approx:
        rho = beta / (N - 2)
        x = 2.0 * rho
        big = x > 1e150
        log_1px2 = np.log1p(np.where(big, 0.0, x) ** 2) + 2.0 * np.log(np.where(big, x, 1.0))
        return -0.25 * log_1px2 + (0.5 * N - 1.0) * _eta(x)
    return _log_hyp(0.5 * N - 1.0, beta)


def _series_terms(nu: float, x: np.ndarray) -> np.ndarray:
    """Terms needed by the ₀F₁ series: its peak k* (k*(k* + ν) = x²/4) plus a safe tail."""
    kstar = 0.5 * x * (x / np.maximum(nu + np.hypot(nu, x), 1e-300))  # no 0/0 at ν = x = 0
    return np.ceil(kstar + 12.0 * np.sqrt(kstar + 1.0) + 40.0)


def _log_hyp_series(nu: float, x: np.ndarray) -> np.ndarray:
    """log Σ_k (x²/4)^k Γ(ν+1)/(k! Γ(k+ν+1)) as a log-sum-exp (all terms are positive)."""
    out = np.empty_like(x)
    if x.size == 0:
        return out
    K = int(_series_terms(nu, x).max())
    k = np.arange(1, K + 1, dtype=np.float64)
    step_k = -np.log(k) - np.log(k + nu)
    rows = max(1, _CHUNK // K)
    with np.errstate(divide="ignore"):
        log_z = 2.0 * np.log(0.5 * x)
    for s in range(0, x.size, rows):
        lz = log_z[s : s + rows, None]
        logs = np.concatenate(
            [np.zeros_like(lz), np.cumsum(lz + step_k, axis=1)], axis=1
        )  # log of term k, k = 0..K
        top = logs.max(axis=1, keepdims=True)
        e = np.exp(logs - top)
        np.put_along_axis(e, logs.argmax(axis=1)[:, None], 0.0, axis=1)
        out[s : s + rows] = top[:, 0] + np.log1p(e.sum(axis=1))
    return out


def _log_iv_debye(nu: float, x: np.ndarray) -> np.ndarray:
    """log I_ν(x) − x from the uniform asymptotic expansion (DLMF 10.41.3, u_1..u_4)."""
    z = x / nu
    s = np.hypot(1.0, z)
    t = 1.0 / s
    t2 = t * t
    u1 = t * (3.0 - 5.0 * t2) / 24.0
    u2 = t2 * (81.0 - 462.0 * t2 + 385.0 * t2 * t2) / 1152.0
    u3 = t * t2 * (30375.0 + t2 * (-369603.0 + t2 * (765765.0 - 425425.0 * t2))) / 414720.0
    u4 = (
        t2
        * t2
        * (
            4465125.0
            + t2 * (-94121676.0 + t2 * (349922430.0 + t2 * (-446185740.0 + 185910725.0 * t2)))
        )
        / 39813120.0
    )
    corr = 1.0 + u1 / nu + u2 / nu**2 + u3 / nu**3 + u4 / nu**4
    eta_minus_z = 1.0 / (s + z) + np.log(z / (1.0 + s))  # √(1+z²) − z + log(z/(1+√(1+z²)))
    return nu * eta_minus_z - 0.5 * np.log(2.0 * math.pi * nu * s) + np.log(corr)


def _log_iv_hankel(nu: float, x: np.ndarray) -> np.ndarray:
    """log I_ν(x) − x for x ≫ ν² (DLMF 10.40.1, four terms); used where ive returns NaN."""
    mu = 4.0 * nu * nu
    term = np.ones_like(x)
    total = np.zeros_like(x)
    for k in range(1, 5):
        term = -term * (mu - (2 * k - 1) ** 2) / (8.0 * k * x)
        total = total + term
    return -0.5 * np.log(2.0 * math.pi * x) + np.log1p(total)


def _log_ive(nu: float, x: np.ndarray) -> np.ndarray:
    """log(I_ν(x) e^{−x}) for x > 0: ive, else the series, else Debye (large ν) or Hankel."""
    out = np.empty_like(x)
    v = ive(nu, x)
    ok = v > _IVE_TINY
    out[ok] = np.log(v[ok])
    rest = ~ok
    if bool(rest.any()):
        xr = x[rest]
        short = _series_terms(nu, xr) <= _SERIES_MAX
        vals = np.empty_like(xr)
        xs = xr[short]
        vals[short] = nu * np.log(0.5 * xs) - gammaln(nu + 1.0) + _log_hyp_series(nu, xs) - xs
        xl = xr[~short]
        vals[~short] = _log_iv_debye(nu, xl) if nu >= _DEBYE_NU else _log_iv_hankel(nu, xl)
        out[rest] = vals
    return out


def _log_hyp(nu: float, x: np.ndarray) -> np.ndarray:
    """log ₀F₁(; ν+1; x²/4) = log[Γ(ν+1) (2/x)^ν I_ν(x)] (paper Eq. 17) for x >= 0."""
    flat = x.ravel()
    out = np.empty_like(flat)
    short = _series_terms(nu, flat) <= _SERIES_MAX
    out[short] = _log_hyp_series(nu, flat[short])
    xl = flat[~short]
    if xl.size:
        out[~short] = gammaln(nu + 1.0) - nu * np.log(0.5 * xl) + _log_ive(nu, xl) + xl
    return out.reshape(x.shape)


def _bessel_ratio(nu: float, x: np.ndarray) -> np.ndarray:
    """I_{ν+1}(x)/I_ν(x) for x >= 0 (0 at x = 0): ive ratio, else the series, else scaled logs."""
    flat = x.ravel()
    out = np.zeros_like(flat)
    lo, hi = ive(nu, flat), ive(nu + 1.0, flat)
    ok = (flat > 0) & (lo > _IVE_TINY) & (hi > _IVE_TINY)
    out[ok] = hi[ok] / lo[ok]
    rest = (flat > 0) & ~ok
    xr = flat[rest]
    short = _series_terms(nu + 1.0, xr) <= _SERIES_MAX
    vals = np.empty_like(xr)
    xs = xr[short]
    diff = _log_hyp_series(nu + 1.0, xs) - _log_hyp_series(nu, xs)
    vals[short] = xs / (2.0 * (nu + 1.0)) * np.exp(diff)
    xl = xr[~short]
    vals[~short] = np.exp(_log_ive(nu + 1.0, xl) - _log_ive(nu, xl))
    out[rest] = vals
    return out.reshape(x.shape)


def _wood_cosines(N: int, kappa: float, n: int, gen: np.random.Generator) -> np.ndarray:
    """n draws of t = x·μ for vMF(μ, κ) on S^{N−1} (Wood 1994), in a cancellation-free form.

    With b = (N−1)/(2κ + √(4κ² + (N−1)²)), x₀ = (1−b)/(1+b) and z ~ Beta((N−1)/2, (N−1)/2):
    t = (1 − (1+b)z)/(1 − (1−b)z), accepted when log U <= κ(t − x₀) + (N−1) log(1 − x₀t)
    − (N−1) log(1 − x₀²). We use 1 − t = 2bz/(1 − (1−b)z), 1 − x₀ = 2b/(1+b) and
    (1 − x₀t)/(1 − x₀²) = (1+b)/(2(1 − (1−b)z)). Returns 1 − t (exact near t = 1).
    """
    d = N - 1.0
    b = d / (2.0 * kappa + math.hypot(2.0 * kappa, d))
    out = np.empty(n)
    filled = 0
    while filled < n:
        need = n - filled
        z = gen.beta(0.5 * d, 0.5 * d, size=need + need // 2 + 8)
        u = gen.random(z.size)
        den = 1.0 - (1.0 - b) * z
        one_minus_t = 2.0 * b * z / den
        t_minus_x0 = 2.0 * b / (1.0 + b) - one_minus_t
        log_ratio = kappa * t_minus_x0 + d * (math.log1p(b) - math.log(2.0) - np.log(den))
        ok = one_minus_t[np.log(u) <= log_ratio][:need]
        out[filled : filled + ok.size] = ok
        filled += ok.size
    return out


def _sample_rows(mu: np.ndarray, kappa: float, gen: np.random.Generator) -> np.ndarray:
    """One vMF(μ_i, κ) draw per row μ_i (unit rows, shape (n, N)): x = tμ + √(1−t²) u, u ⊥ μ."""
    n, N = mu.shape
    one_minus_t = _wood_cosines(N, kappa, n, gen)
    g = gen.standard_normal((n, N))
    g -= np.sum(g * mu, axis=1, keepdims=True) * mu
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    sin = np.sqrt(one_minus_t * (2.0 - one_minus_t))
    return (1.0 - one_minus_t)[:, None] * mu + sin[:, None] * g
