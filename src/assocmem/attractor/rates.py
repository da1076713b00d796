"""The soft-rectified power-law activation of Eq. 3 and log-normal patterns.

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks*. "note §" refers to ``shared/notes/03-attractor-stability.md``.

Notation map
------------
- n (activation exponent)          -> ``n`` > 0
- σ (smoothness = voltage noise)   -> ``sigma`` >= 0 (σ = 0: hard-rectified power law)
- g, g⁻¹, d(r) = g'(g⁻¹(r))        -> ``activation``, ``activation_inverse``, ``gain``
- N neurons, P patterns, CV, f     -> ``N``, ``P``, ``cv``, ``f``

Public functions
----------------
activation, activation_inverse, gain (Eq. 3 in numerically stable forms, note §1.2),
sample_patterns (log-normal rates with mean 1, optionally sparse, note §1.4).

Ranges
------
``CV_MAX`` bounds the coefficient of variation wherever log-normal moments or samples are
used: up to CV = 1e6 (s = √ln(1 + CV²) ≈ 5.3) the 201-node Gauss-Hermite quadrature of the
population theory reproduces E r = 1 and Var r = CV² to 1e-14 (it degrades beyond CV ≈ 1e20).
``EXPONENT_MAX`` bounds the exponent n wherever patterns are stored or averaged over: g⁻¹(r) =
r^{1/n} loses the differences between rates and d(r) ~ n r overflows in the moments as n grows;
the elementwise functions below take any n > 0 and return ±inf where g overflows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    _as_real_array,
    as_rng,
    check_beta,
    check_fraction,
    check_nonneg_float,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace

__all__ = ["activation", "activation_inverse", "gain", "sample_patterns"]

#: Largest coefficient of variation of the log-normal patterns (see the module docstring).
CV_MAX = 1e6
#: Largest exponent n where patterns are stored or averaged over (see the module docstring).
EXPONENT_MAX = 100.0


def check_cv(cv: Any, name: str = "cv") -> float:
    """Return the coefficient of variation as a float in (0, CV_MAX]."""
    return check_fraction(cv, name, 0.0, CV_MAX, open_lo=True, open_hi=False)


def check_exponent(n: Any, name: str = "n") -> float:
    """Return the exponent n as a float in (0, EXPONENT_MAX] (for storing and averaging)."""
    return check_fraction(n, name, 0.0, EXPONENT_MAX, open_lo=True, open_hi=False)


def _check_shape_params(sigma: Any, n: Any) -> tuple[float, float]:
    return check_nonneg_float(sigma, "sigma"), check_beta(n, "n")


def _as_rates(r: Any, sigma: float, xp: Any, name: str = "r") -> Any:
    """Rates must be finite; > 0 where g is invertible (dense case), >= 0 when σ = 0."""
    r = _as_real_array(r, name, xp)
    bad = (r <= 0) if sigma > 0 else (r < 0)
    if bool(xp.any(bad)):
        rng_txt = "> 0 when sigma > 0 (g is positive everywhere)" if sigma > 0 else ">= 0"
        raise ValueError(f"{name} must contain rates {rng_txt}, got min {float(xp.min(r))!r}")
    return r


def _rectified_power(x: Any, power: float, n: float, xp: Any) -> Any:
    """n ⌊x⌋₊^power, and 0 where x <= 0: slopes of the hard-rectified power law (g'(0) = 0)."""
    active = x > 0
    with np.errstate(over="ignore"):  # beyond the float range: +inf, the true limit
        return xp.where(active, n * xp.where(active, x, 1.0) ** power, 0.0)


def _slope(v: Any, sigma: float, n: float, xp: Any) -> Any:
    """g'(v) of Eq. 3: n softplus_σ(v)^{n−1} · sigmoid(πv/σ); n ⌊v⌋₊^{n−1} for σ = 0.

    :func:`gain` is the same derivative at v = g⁻¹(r), in a form without the softplus.
    """
    if sigma == 0.0:
        return _rectified_power(v, n - 1.0, n, xp)
    a = np.pi / sigma
    with np.errstate(over="ignore"):  # softplus^(n-1) beyond the float range is +inf
        softplus = xp.logaddexp(0.0, a * v) / a
        sigmoid = xp.exp(-xp.logaddexp(0.0, -a * v))
        return n * softplus ** (n - 1.0) * sigmoid


def activation(v: Any, sigma: float, n: float) -> Any:
    """Soft-rectified power law g(v) = [(σ/π) ln(1 + e^{πv/σ})]^n, Eq. 3 of the paper.

    Notes
    -----
    Evaluated as ``(logaddexp(0, a v) / a) ** n`` with a = π/σ, which never overflows
    (note pitfall 9). σ = 0 gives the hard-rectified power law ⌊v⌋₊ⁿ (sparse case, Fig. 5b).

    Parameters
    ----------
    v : array_like
        Voltages (any shape), finite.
    sigma : float
        Smoothness / voltage-noise scale σ >= 0.
    n : float
        Exponent n > 0.

    Returns
    -------
    array
        g(v) >= 0, same shape and namespace as ``v``; +inf where g exceeds the float range.

    Examples
    --------
    For n = 1, g(0) = (σ/π) ln 2:

    >>> round(float(activation(0.0, 1.0, 1.0)), 6)
    0.220636
    """
    sigma, n = _check_shape_params(sigma, n)
    xp = array_namespace(v)
    return _g(_as_real_array(v, "v", xp), sigma, n, xp)


def _g(v: Any, sigma: float, n: float, xp: Any) -> Any:
    """Eq. 3 on trusted input (the kernel of :func:`activation`); non-finite v pass through."""
    with np.errstate(over="ignore", invalid="ignore"):  # beyond the float range: +inf
        if sigma == 0.0:
            return xp.maximum(v, 0.0) ** n
        a = np.pi / sigma
        return (xp.logaddexp(0.0, a * v) / a) ** n


def activation_inverse(r: Any, sigma: float, n: float) -> Any:
    """Inverse g⁻¹(r) = y + (σ/π) ln(1 − e^{−πy/σ}), y = r^{1/n} (note §1.2).

    Notes
    -----
    Evaluated as ``y + log(-expm1(-a y)) / a`` (stable for small and large y). With σ > 0 the
    activation is positive everywhere, so the inverse needs r > 0; with σ = 0 it is r^{1/n} on
    r >= 0 (silent units map to the threshold, 0).

    Parameters
    ----------
    r : array_like
        Rates, > 0 (σ > 0) or >= 0 (σ = 0).
    sigma, n : float
        As in :func:`activation`.

    Returns
    -------
    array
        Voltages u with g(u) = r.

    Examples
    --------
    >>> v = activation_inverse(2.0, 1.0, 1.5)
    >>> round(float(activation(v, 1.0, 1.5)), 12)
    2.0
    """
    sigma, n = _check_shape_params(sigma, n)
    xp = array_namespace(r)
    return _g_inverse(_as_rates(r, sigma, xp), sigma, n, xp)


def _g_inverse(r: Any, sigma: float, n: float, xp: Any) -> Any:
    """g⁻¹ on trusted rates (the kernel of :func:`activation_inverse`)."""
    y = r ** (1.0 / n)
    if sigma == 0.0:
        return y
    a = np.pi / sigma
    return y + xp.log(-xp.expm1(-a * y)) / a


def gain(r: Any, sigma: float, n: float) -> Any:
    """Gain at a fixed point, d(r) = g'(g⁻¹(r)) = n r^{(n−1)/n} (1 − e^{−π r^{1/n}/σ}).

    Notes
    -----
    The diagonal of D_μ in the Jacobian of Eq. 5 (note §1.2). For σ = 0, d(r) = n r^{(n−1)/n}
    on r > 0 and 0 on silent units (the convention g'(0) = 0, note pitfall 13). For n < 1 the
    gain diverges as r → 0.

    Parameters
    ----------
    r : array_like
        Rates, > 0 (σ > 0) or >= 0 (σ = 0).
    sigma, n : float
        As in :func:`activation`.

    Returns
    -------
    array
        d(r) >= 0.

    Examples
    --------
    The linear, noiseless unit has gain 1 wherever it is active:

    >>> float(gain(3.0, 0.0, 1.0))
    1.0
    """
    sigma, n = _check_shape_params(sigma, n)
    xp = array_namespace(r)
    return _gain(_as_rates(r, sigma, xp), sigma, n, xp)


def _gain(r: Any, sigma: float, n: float, xp: Any) -> Any:
    """d(r) on trusted rates (the kernel of :func:`gain`)."""
    if sigma == 0.0:
        return _rectified_power(r, (n - 1.0) / n, n, xp)
    with np.errstate(over="ignore"):  # beyond the float range: +inf, the true limit
        y = r ** (1.0 / n)
        return n * r ** ((n - 1.0) / n) * (-xp.expm1(-np.pi * y / sigma))


def sample_patterns(N: int, P: int, cv: float, rng: Any = 0, f: float = 1.0) -> np.ndarray:
    """Log-normal pattern matrix R (N × P) with mean 1 and coefficient of variation ``cv``.

    Notes
    -----
    r = exp(μ + s z), s² = ln(1 + CV²), μ = −s²/2, so E r = 1 and Var r = CV² (note §1.4,
    pitfall 10). With f < 1 a fraction 1 − f of the entries is set exactly to 0 (sparse
    patterns, Fig. 5a); the non-zero rates keep mean 1, so the overall mean is f.

    Parameters
    ----------
    N, P : int
        Neurons (>= 2) and patterns (>= 1); column μ of R is pattern r^μ.
    cv : float
        Coefficient of variation, in (0, ``CV_MAX``] (1e6).
    rng : int or numpy.random.Generator
        Seed or generator.
    f : float, optional
        Sparseness: fraction of non-zero rates, in (0, 1].

    Returns
    -------
    ndarray, shape (N, P)

    Examples
    --------
    >>> R = sample_patterns(20000, 1, 1.0, rng=0)
    >>> round(float(R.mean()), 1), round(float(R.std()), 1)
    (1.0, 1.0)
    """
    N = check_positive_int(N, "N", minimum=2)
    P = check_positive_int(P, "P", minimum=1)
    check_size(N * P, "N", "entries (N * P)", MAX_ELEMENTS, "ask for fewer neurons or patterns")
    cv = check_cv(cv)
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    return _sample(N, P, cv, as_rng(rng), f)


def _sample(N: int, P: int, cv: float, gen: np.random.Generator, f: float = 1.0) -> np.ndarray:
    """Log-normal patterns on trusted input (the kernel of :func:`sample_patterns`)."""
    s = np.sqrt(np.log1p(cv * cv))
    R = np.exp(-0.5 * s * s + s * gen.standard_normal((N, P)))
    if f < 1.0:
        R *= gen.random((N, P)) < f
    return R
