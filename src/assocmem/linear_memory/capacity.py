"""Capacity of linear associative memories for factual recall.

Paper: A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories:
sharp asymptotics and mechanistic insights*, arXiv:2605.10795. Chapter note
``shared/notes/01-factual-recall.md`` §0-§3.

Notation map
------------
- p (number of key-value associations) -> ``p``, an integer >= 2
- d (embedding dimension)              -> ``d``
- α = p ln p / d² (load, eqs. (3), (5)) -> ``alpha`` (natural log throughout)
- κ = m/d (rank fraction, eq. (9))     -> ``kappa``
- q (replica overlap, eq. (7))         -> ``q``; q* its stationary value -> ``rs_overlap``
- G(q) (energetic function, (C.23))    -> ``_energetic_G``; the paper's G, not a Gaussian matrix
- φ (free entropy, eqs. (6)-(7))       -> ``rs_free_entropy``
- M_{p-1} (max of p-1 standard normals, note §2.3) -> internal to ``finite_p_capacity``

Results
-------
- Full rank: α_c = 1/2 (Conjecture 1, Claim 1).
- Rank m = κd: α_c(κ) = ½ ∫_{X_qc(1-κ)}^2 ρ_qc(σ) σ² dσ (eq. (9)).
- Replica-symmetric free entropy (eq. (7)): φ(α) = inf_q h_α(q),
  h_α(q) = ½ log(1-q) + q/(2(1-q)) + α G(q).
- [note §2.2, OURS, not the paper's] G(q) = -1/(1-q), so q* = 2α and φ = ½ log(1-2α). This module
  does not use that closed form; it evaluates G numerically and the tests compare.
- [note §2.3, OURS] the note's step-function estimate α_c(p) = ln p / E[(M_{p-1} - η_1)_+²]
  (``finite_p_capacity``). It underestimates α_c(p) and is kept for comparison only; the
  corrected estimate is :func:`~assocmem.linear_memory.finite_p.finite_p_capacity_mc`.

Public functions
----------------
``load``, ``p_at_load``, ``capacity_two_layer``, ``finite_p_capacity``, ``rs_overlap``,
``rs_free_entropy``, ``rs_free_entropy_curve`` (result ``RSPotential``).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import brentq
from scipy.special import lambertw, log_ndtr, ndtr

from assocmem._validation import (
    MAX_STEPS,
    ConvergenceWarning,
    as_real_vector,
    check_beta,
    check_fraction,
    check_positive_int,
)

__all__ = [
    "RSPotential",
    "capacity_two_layer",
    "finite_p_capacity",
    "load",
    "p_at_load",
    "rs_free_entropy",
    "rs_free_entropy_curve",
    "rs_overlap",
]

# Upper end of the replica-symmetric domain: φ(α) is finite only for α < α_c = 1/2 (Claim 1).
_ALPHA_C = 0.5
# p_at_load returns integers up to 2**53, the range where a float64 p rounds to an exact integer;
# p ln p = c reaches 2**53 at c = 2**53 ln 2**53 ≈ 3.3e17.
_P_MAX = 2**53
_C_MAX = _P_MAX * math.log(_P_MAX)
# p ln p = 1.5 ln 1.5 is where the rounded p reaches 2.
_C_MIN = 1.5 * math.log(1.5)


@dataclass(frozen=True)
class RSPotential:
    """The replica-symmetric potential h_α(q) of paper eq. (7) on a grid of overlaps.

    Attributes
    ----------
    alpha : float
        Load α in (0, 1/2).
    q : numpy.ndarray, shape (K,)
        Overlaps in [0, 1).
    h : numpy.ndarray, shape (K,)
        h_α(q) = ½ log(1-q) + q/(2(1-q)) + α G(q), with G evaluated numerically.
    q_star : float
        The stationary overlap, ``rs_overlap(alpha)``; h_α is *minimal* there (the n → 0 limit
        turns the replica sup into an inf, paper eq. (7)).
    phi : float
        h_α(q*), ``rs_free_entropy(alpha)``.
    """

    alpha: float
    q: np.ndarray
    h: np.ndarray
    q_star: float
    phi: float


def load(p: int, d: int) -> float:
    """Load parameter α = p ln p / d² (paper eqs. (3) and (5)).

    Parameters
    ----------
    p : int
        Number of associations, >= 2.
    d : int
        Embedding dimension, >= 1.

    Returns
    -------
    float
        α, with the natural logarithm (α_c = 1/2 holds only with ln).

    Examples
    --------
    >>> round(load(100, 10), 6)  # 100 ln 100 / 100 = ln 100
    4.60517
    """
    p = check_positive_int(p, "p", minimum=2)
    d = check_positive_int(d, "d")
    return p * math.log(p) / d**2


def p_at_load(alpha: float, d: int) -> int:
    """Integer number of associations p at load α and dimension d (inverse of ``load``).

    Notes
    -----
    With c = α d², the real solution of p ln p = c is p = c / W₀(c) = exp(W₀(c)), W₀ the principal
    branch of the Lambert W function. It is rounded to the nearest integer, halves rounded up:
    the convention of the note's p(α, d) table (note §3, "p = round(c/W₀(c))"). The effective load
    ``load(p, d)`` differs from α by the rounding (up to ±0.01 at d = 15, note §6 item 2).

    Parameters
    ----------
    alpha : float
        Load α, finite and > 0.
    d : int
        Embedding dimension, >= 1.

    Returns
    -------
    int
        p >= 2. For every p >= 2 and d >= 1, ``p_at_load(load(p, d), d) == p``.

    Raises
    ------
    ValueError
        If α d² is so small that the rounded p would be below 2 (α d² < 1.5 ln 1.5), or so large
        that p would exceed 2**53, beyond which a float64 p is no longer an exact integer
        (α d² > 2**53 ln 2**53 ≈ 3.3e17).

    Examples
    --------
    >>> p_at_load(0.5, 40)  # note §3 table: 158
    158
    >>> p_at_load(load(158, 40), 40)
    158
    """
    alpha = check_beta(alpha, "alpha")
    d = check_positive_int(d, "d")
    return _p_at(alpha, d, "alpha")


def _p_at(alpha: float, d: int, name: str) -> int:
    """``p_at_load`` for a validated α and d; errors name the caller's parameter ``name``."""
    c = alpha * float(d) ** 2
    if c < _C_MIN:
        raise ValueError(
            f"{name} * d**2 must be >= 1.5 ln 1.5 (about 0.608) so that p >= 2, "
            f"got {name}={alpha!r}, d={d}"
        )
    if not c <= _C_MAX:
        raise ValueError(
            f"{name} * d**2 must be <= {_C_MAX:.4g} so that p <= 2**53 (exact integers), "
            f"got {name}={alpha!r}, d={d}"
        )
    return math.floor(_real_p(c) + 0.5)


def _real_p(c: float) -> float:
    """The real solution p of p ln p = c > 0: p = c / W₀(c) (not rounded)."""
    return c / float(lambertw(c).real)


def _x_qc_angle(kappa: float) -> float:
    """θ with X_qc(1-κ) = 2 sin θ: solves sin 2θ + 2θ = π(1-κ) (note §2.4, σ = 2 sin θ)."""
    target = math.pi * (1.0 - kappa)
    if target == 0.0:
        return 0.0
    return brentq(lambda t: math.sin(2 * t) + 2 * t - target, 0.0, 0.5 * math.pi, xtol=1e-15)


def capacity_two_layer(kappa: float) -> float:
    """Capacity α_c(κ) of the rank-κd (two-layer) linear memory, paper eq. (9) / (C.69).

    Notes
    -----
    α_c(κ) = ½ ∫_{X_qc(1-κ)}^2 ρ_qc(σ) σ² dσ, with ρ_qc(σ) = √(4-σ²)/π the quarter-circle law on
    [0, 2] and X_qc its quantile function. With σ = 2 sin θ the integral is
    (π - 2θ₀ + ½ sin 4θ₀)/π, where θ₀ solves sin 2θ₀ + 2θ₀ = π(1-κ) (note §2.4).

    The formula gives α_c(0.25) = 0.3115, α_c(0.5) = 0.4469 and α_c(1) = 1/2. The paper's Fig. 2
    caption prints "α_c ≈ 0.31, 0.46, 0.50"; 0.46 disagrees with its own eq. (9), which rounds to
    0.45 at κ = 1/2 (note §0, C2). We use the formula.

    Parameters
    ----------
    kappa : float
        Rank fraction κ = m/d in (0, 1].

    Returns
    -------
    float
        α_c(κ), increasing in κ, ≈ 2κ as κ → 0.

    Examples
    --------
    >>> capacity_two_layer(1.0)
    0.5
    >>> round(capacity_two_layer(0.5), 4)
    0.4469
    """
    kappa = check_fraction(kappa, "kappa", 0.0, 1.0, open_lo=True, open_hi=False)
    theta = _x_qc_angle(kappa)
    return (math.pi - 2.0 * theta + 0.5 * math.sin(4.0 * theta)) / (2.0 * math.pi)


def finite_p_capacity(p: int) -> float:
    """The note's step-function estimate α_c(p) = ln p / E[(M_{p-1} - η₁)_+²] (note §2.3, OURS).

    Superseded: kept for comparison with the note's table. The corrected finite-p estimate is
    :func:`~assocmem.linear_memory.finite_p.finite_p_capacity_mc`.

    Notes
    -----
    The q → 1 limit of paper eq. (8) at fixed p as the note takes it (§2.3): every Φ in the
    product (C.29) is replaced by a step function. That ignores the competitors' own noise,
    keeps only the strongest competitor's gap and so overstates the cost of the leading
    competitors: the estimate is too low. At p = 2 the exact f₂ = Φ(β(η₁ - η₂)/√2) gives
    α_c(2) = 2 ln 2, twice this function's ln 2; at p = 100 the corrected value is ≈ 0.96
    against 0.618 here. Both tend to 1/2 as p → ∞ (the paper's Õ(1/log p) rate, eq. (C.25)),
    and only there do they agree. The corrected estimate matches exact LP thresholds
    (≈ 1.0 at d = 8-10, section fr-replica of the book); this one does not.

    Evaluation: M_{p-1} is the maximum of p - 1 standard normals and η₁ an independent standard
    normal. We integrate over M exactly in η₁: with m = M_{p-1}, E[(m + Z)_+²] =
    (m² + 1) Φ(m) + m φ(m) for Z ~ N(0, 1), so E[(M - η₁)_+²] =
    ∫ (p-1) φ(m) Φ(m)^{p-2} [(m² + 1) Φ(m) + m φ(m)] dm, a one-dimensional integral evaluated by
    the trapezoidal rule on 40 001 points (exponentially accurate for this smooth, rapidly
    decaying integrand).

    Parameters
    ----------
    p : int
        Number of associations, >= 2.

    Returns
    -------
    float
        The step estimate of α_c(p): 0.618 at p = 100 and 0.535 at p = 10¹² (note §2.3 table),
        below the corrected ``finite_p_capacity_mc(p).alpha_c`` (≈ 0.96 at p = 100).

    Examples
    --------
    >>> round(finite_p_capacity(100), 3)
    0.618
    """
    p = check_positive_int(p, "p", minimum=2)
    m, density = _gaussian_max_density(p - 1)
    g = (m**2 + 1.0) * ndtr(m) + m * np.exp(-0.5 * m**2) / math.sqrt(2.0 * math.pi)
    second_moment = float(np.trapezoid(density * g, m))
    return math.log(p) / second_moment


def _gaussian_max_density(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Grid and density of M_n, the maximum of n standard normals: n φ(m) Φ(m)^{n-1}.

    The grid spans [-12, √(2 ln n) + 12] with 40 001 points, on which the trapezoidal rule is
    exponentially accurate for integrals of this smooth, fast-decaying density against smooth
    functions (``finite_p_capacity``, ``mechanism.expected_gaussian_max``).
    """
    m = np.linspace(-12.0, math.sqrt(2.0 * math.log(n)) + 12.0, 40001)
    log_density = math.log(n) - 0.5 * m**2 - 0.5 * math.log(2.0 * math.pi) + (n - 1) * log_ndtr(m)
    return m, np.exp(log_density)


def _ld_threshold(beta: float) -> tuple[float, float]:
    """Target height s* and dominant competitor height y* of the large-deviation form of G.

    With ξ = s √(2 ln p) and η = y √(2 ln p), the competitors at height y number about p^(1-y²)
    and each beats the target with probability p^(-(s-βy)_+²) (note §2.2, steps 1-3). The product
    in (C.29) is negligible on the p^(-O(1)) scale unless min_{|y|<=1} F(y, s) >= 1, with
    F(y, s) = y² + (s-βy)_+²; s* is the smallest such s. It lies in [max(1, β), 1 + β], the range
    allowed by the paper's bounds (C.35) and (C.38). F is convex in y, so the inner minimiser is
    the root of ∂F/∂y = 2y - 2β(s-βy)_+ (Brent, or an end point of [-1, 1]); s* is found by Brent's
    method on the outer equation.
    """

    def argmin_y(s: float) -> float:
        def dF(y: float) -> float:
            return 2.0 * y - 2.0 * beta * max(s - beta * y, 0.0)

        if dF(-1.0) >= 0.0:
            return -1.0
        if dF(1.0) <= 0.0:
            return 1.0
        return brentq(dF, -1.0, 1.0, xtol=1e-15, rtol=1e-15)

    def gap(s: float) -> float:
        y = argmin_y(s)
        return y * y + max(s - beta * y, 0.0) ** 2 - 1.0

    lo, hi = max(1.0, beta) * (1.0 - 1e-12), 1.0 + beta
    s_star = lo if gap(lo) >= 0.0 else brentq(gap, lo, hi, xtol=1e-15, rtol=1e-15)
    return s_star, argmin_y(s_star)


def _energetic_G(q: float) -> tuple[float, float]:
    """Asymptotic energetic function G(q) of paper eq. (C.23) and its derivative G'(q).

    G(q) = -s*² with s* from ``_ld_threshold`` at β = √(q/(1-q)) (paper's β_t, (C.21)). By the
    envelope theorem ds*/dβ = y*, so G'(q) = -2 s* y* dβ/dq = -s* (y*/β) / (1-q)². At q = 0 the
    competitors do not see η, G(0) = -1 exactly (f_p(0) = 1/p, note §2.2) and y*/β → s*.
    """
    if q == 0.0:
        return -1.0, -1.0
    beta = math.sqrt(q / (1.0 - q))
    s_star, y_star = _ld_threshold(beta)
    return -(s_star**2), -s_star * (y_star / beta) / (1.0 - q) ** 2


def _h(alpha: float, q: float) -> float:
    """RS potential h_α(q) = ½ log(1-q) + q/(2(1-q)) + α G(q), paper eq. (7) / (C.22)."""
    return 0.5 * math.log1p(-q) + q / (2.0 * (1.0 - q)) + alpha * _energetic_G(q)[0]


def _check_alpha_rs(alpha: Any) -> float:
    return check_fraction(alpha, "alpha", 0.0, _ALPHA_C)


def _solve_overlap(alpha: float, tol: float, max_iter: int) -> float:
    """Root of the stationarity condition (C.24), written as R(q) = q + 2α (1-q)² G'(q) = 0.

    R(0) = 2α G'(0) = -2α < 0 and R(q) → 1 - 2α > 0 as q → 1 when α < 1/2 (C.39); the upper end
    of the bracket is moved towards 1 (1 - 10^-k) until R > 0, then Brent's method finds the root.
    """

    def residual(q: float) -> float:
        return q + 2.0 * alpha * (1.0 - q) ** 2 * _energetic_G(q)[1]

    hi = 0.9
    while residual(hi) <= 0.0 and hi < 1.0 - 1e-15:
        hi = 1.0 - 0.1 * (1.0 - hi)
    if residual(hi) <= 0.0:  # α within rounding of 1/2: no bracket left in double precision
        warnings.warn(
            f"rs_overlap: no bracket for alpha={alpha!r}: residual {residual(hi):.3e} <= 0 at "
            f"q = 1 - 1e-15 after 0 iterations; returning that q",
            ConvergenceWarning,
            stacklevel=3,
        )
        return hi
    q, info = brentq(residual, 0.0, hi, xtol=tol, maxiter=max_iter, full_output=True, disp=False)
    if not info.converged:
        warnings.warn(
            f"rs_overlap: root finding did not converge for alpha={alpha!r} after "
            f"{info.iterations} iterations (residual {abs(residual(q)):.3e}, tol {tol:.1e})",
            ConvergenceWarning,
            stacklevel=3,
        )
    return float(q)


def rs_overlap(alpha: float, *, tol: float = 1e-13, max_iter: int = 100) -> float:
    """Replica-symmetric overlap q*(α) solving the stationarity condition of paper eq. (7).

    Notes
    -----
    Paper eq. (C.24): q/(2(1-q)²) + α G'(q) = 0, i.e. q + 2α (1-q)² G'(q) = 0, solved by Brent's
    method on [0, 1). G and G' are evaluated numerically from the large-deviation form of the
    p → ∞ limit (C.23) (note §2.2; see ``_ld_threshold``), not from a closed form. The paper's
    Monte-Carlo G at finite p converges like log log p / log p (note §2.2 table) and cannot pin
    q* to better than a few per cent, so it is not used here. [note §2.2, OURS, derived, not the
    paper's] The result should be q* = 2α; the tests check this to 1e-9 (nested Brent solves to
    about 1e-15, amplified by at most 1/(1-q)² <= 1e4 on the tested grid).

    Parameters
    ----------
    alpha : float
        Load α in (0, 1/2): above α_c = 1/2 the solution space is empty (Claim 1).
    tol : float, optional
        Absolute tolerance on q, > 0.
    max_iter : int, optional
        Maximum number of Brent iterations, >= 1. A ``ConvergenceWarning`` (iterations and
        residual) is raised if the tolerance is not met.

    Returns
    -------
    float
        q*(α) in (0, 1).

    Examples
    --------
    >>> round(rs_overlap(0.2), 6)  # derived closed form 2α = 0.4 (note §2.2)
    0.4
    """
    alpha = _check_alpha_rs(alpha)
    tol = check_beta(tol, "tol")
    max_iter = check_positive_int(max_iter, "max_iter", maximum=MAX_STEPS)
    return _solve_overlap(alpha, tol, max_iter)


def rs_free_entropy(alpha: float) -> float:
    """Replica-symmetric free entropy φ(α) = h_α(q*), paper eq. (7) (Claim 1).

    Notes
    -----
    h_α(q) = ½ log(1-q) + q/(2(1-q)) + α G(q), "up to additive constants independent of α"
    (paper, below (C.22)), evaluated at q* = ``rs_overlap(alpha)`` with G computed numerically.
    [note §2.2, OURS, derived, not the paper's] φ(α) = ½ log(1-2α), which tends to -∞ as α → 1/2
    and lies below the annealed bound -α.

    Parameters
    ----------
    alpha : float
        Load α in (0, 1/2).

    Returns
    -------
    float
        φ(α) < 0.

    Examples
    --------
    >>> round(rs_free_entropy(0.25), 6)  # ½ log(1/2)
    -0.346574
    """
    alpha = _check_alpha_rs(alpha)
    return _h(alpha, _solve_overlap(alpha, 1e-13, 100))


def rs_free_entropy_curve(alpha: float, q_grid: Any) -> RSPotential:
    """RS potential h_α(q) on a grid of overlaps, for the "free entropy vs q" slider.

    Parameters
    ----------
    alpha : float
        Load α in (0, 1/2).
    q_grid : float or array_like, shape (K,)
        Overlaps in [0, 1), finite, K >= 1 (a scalar is a grid of one point).

    Returns
    -------
    RSPotential
        h_α on the grid, with q* and φ; the curve has its minimum at q* (eq. (7) is an inf).

    Examples
    --------
    >>> r = rs_free_entropy_curve(0.2, [0.0, 0.4, 0.8])
    >>> int(np.argmin(r.h))  # q = 0.4 = q*
    1
    """
    alpha = _check_alpha_rs(alpha)
    q = as_real_vector(q_grid, "q_grid", 0.0, 1.0, open_hi=True)
    h = np.array([_h(alpha, float(qi)) for qi in q])
    q_star = _solve_overlap(alpha, 1e-13, 100)
    return RSPotential(alpha=alpha, q=q, h=h, q_star=q_star, phi=_h(alpha, q_star))
