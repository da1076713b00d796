"""Outliers of the Jacobian spectrum and the choice of threshold (Eqs. 12-18).

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks*. "note §" refers to ``shared/notes/03-attractor-stability.md`` (§2.4, §2.5,
§3.3, pitfalls 2, 6, 7, 14).

Notation map
------------
- θ, θ*_bulk = −⟨g⁻¹(r)⟩ (Eq. 16), θ − θ*     -> ``theta``, ``theta_star``, ``theta_shifts``
- λ_ave (Eq. 12), λ_mem (Eq. 15)              -> ``lambda_ave_theory``, ``lambda_mem_theory``
- empirical λ_mem and its |corr| with r^μ      -> ``lambda_mem``, ``mem_corr`` (note pitfall 7)
- u = g⁻¹(r), d = g'(g⁻¹(r)), φ = d (u + θ)    -> computed with :mod:`.rates`
- m = N⟨W⟩ = (θ + ⟨u⟩)/⟨r⟩ (Eq. 7)            -> ``OutlierPair.row_sum``

θ enters the Jacobian as a rank-one term: K_μ = R† D_μ V = R† D_μ U + θ (R† d_μ) 1ᵀ (note
§2.5), so it moves one eigenvalue and leaves the bulk in place. The θ-dependence of Eq. 10
through c_ff is an artefact of the i.i.d. approximation (note pitfall 6). Away from θ* the two
outliers couple; :func:`outlier_pair` is the 2 × 2 refinement of note §2.4 (an [extension], not
in the paper).

Public functions
----------------
theta_scan (result ``ThetaScan``), outlier_view (the exploration's compute function, a one-shift
``ThetaScan``), outlier_pair (result ``OutlierPair``), threshold_window (result
``ThresholdWindow``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from assocmem._validation import (
    as_real_array,
    as_real_vector,
    check_fraction,
    check_positive_int,
)
from assocmem.attractor._domain import (
    EXPONENT_MAX,
    check_cv,
    check_exponent,
    check_matrix_size,
    check_sigma,
    check_theta,
    theta_vector,
)
from assocmem.attractor.meanfield import theory
from assocmem.attractor.network import jacobian_spectrum, pinv_weights
from assocmem.attractor.rates import activation_inverse, gain, sample_patterns

__all__ = [
    "OutlierPair",
    "ThetaScan",
    "ThresholdWindow",
    "outlier_pair",
    "outlier_view",
    "theta_scan",
    "threshold_window",
]


@dataclass(frozen=True, eq=False)
class ThetaScan:
    """Jacobian spectra of one network for several thresholds (result of :func:`theta_scan`).

    Attributes
    ----------
    N, P, seed : int
        Neurons, patterns and the pattern seed.
    alpha, cv, sigma, n : float
        Load P/N, pattern CV and the activation parameters of Eq. 3.
    patterns : ndarray of int, shape (m,)
        Pattern indices μ whose Jacobians J_μ are examined.
    theta_star : float
        Empirical θ*_bulk = −mean g⁻¹(R) (Eq. 16); θ = ``theta_star + theta_shifts``.
    theta_shifts : ndarray, shape (k,)
        θ − θ*.
    eigenvalues : ndarray of complex, shape (k, m, P)
        The P nontrivial eigenvalues of each J_μ (the other N − P are exactly −1).
    abscissa : ndarray, shape (k, m)
        Spectral abscissa max Re λ.
    bulk_edge : ndarray, shape (k, m)
        Largest real part once the λ_mem eigenvalue (and its conjugate) is removed.
    lambda_mem, mem_corr : ndarray, shape (k, m)
        Empirical λ_mem (complex; eigenvector most correlated with r^μ) and that |corr|;
        trust it only when |corr| > 0.8 and it lies outside the bulk (note pitfall 7).
    ave_eig : ndarray of complex, shape (k, m)
        The eigenvalue nearest Eq. 12 (meaningful only when Eq. 12 lies outside the bulk).
    row_sum : ndarray, shape (k,)
        Mean row sum of J_μ over neurons and the examined patterns (the quantity Eq. 12 predicts).
    pair : ndarray of complex, shape (k, m, 2)
        Eigenvalues of the 2 × 2 refinement (:func:`outlier_pair`), largest real part first.
    lambda_ave_theory, lambda_mem_theory, bulk_edge_theory : ndarray, shape (k,)
        Eq. 12, Eq. 15 and Eq. 10 at θ = θ*_bulk (theory) + shift.
    center, radius, bulk_edge_star : float
        Eq. 10 disc at θ*_bulk: centre −1 + c_rf/c_rr, radius k√(α/(1−α)), right edge.
    """

    N: int
    P: int
    seed: int
    alpha: float
    cv: float
    sigma: float
    n: float
    patterns: np.ndarray
    theta_star: float
    theta_shifts: np.ndarray
    eigenvalues: np.ndarray
    abscissa: np.ndarray
    bulk_edge: np.ndarray
    lambda_mem: np.ndarray
    mem_corr: np.ndarray
    ave_eig: np.ndarray
    row_sum: np.ndarray
    pair: np.ndarray
    lambda_ave_theory: np.ndarray
    lambda_mem_theory: np.ndarray
    bulk_edge_theory: np.ndarray
    center: float
    radius: float
    bulk_edge_star: float

    @property
    def theta(self) -> np.ndarray:
        """The thresholds θ = θ* + shift, shape (k,)."""
        return self.theta_star + self.theta_shifts


@dataclass(frozen=True)
class OutlierPair:
    """The 2 × 2 projection of J_μ on span{r^μ, 1} (note §2.4 [extension]).

    Attributes
    ----------
    matrix : ndarray, shape (2, 2)
        [[b_φ − 1, m b_d], [a_φ, −1 + m a_d]] in the basis (r^μ, 1).
    eigenvalues : ndarray of complex, shape (2,)
        Its eigenvalues, largest real part first.
    slope_phi, intercept_phi : float
        OLS fit φ(r) ≈ a_φ + b_φ r over the neurons (b_φ − 1 is the per-pattern Eq. 15).
    slope_d, intercept_d : float
        OLS fit d(r) ≈ a_d + b_d r.
    row_sum : float
        m = (θ + mean u)/mean r, the row sum of W (Eq. 7).
    """

    matrix: np.ndarray
    eigenvalues: np.ndarray
    slope_phi: float
    intercept_phi: float
    slope_d: float
    intercept_d: float
    row_sum: float


@dataclass(frozen=True)
class ThresholdWindow:
    """Allowed thresholds from the outlier conditions, over exponents n (Eqs. 16-18).

    Attributes
    ----------
    cv, sigma : float
        Pattern CV and smoothness.
    n : ndarray, shape (A,)
        Exponents.
    theta_star : ndarray, shape (A,)
        θ*_bulk = −⟨g⁻¹(r)⟩ (Eq. 16).
    ave_bound : ndarray, shape (A,)
        Eq. 17: λ_ave < 0 iff θ < −⟨g⁻¹(r)⟩ + ⟨r⟩/⟨d⟩.
    mem_bound : ndarray, shape (A,)
        Eq. 18 (corrected): the θ where λ_mem of Eq. 15 crosses 0,
        (Var r − Cov(r, d u))/Cov(r, d). Where Cov(r, d) = 0 (σ = 0, n = 1) λ_mem does not
        depend on θ: +inf (no bound) when Var r > Cov(r, d u), else −inf (no θ allowed).
    mem_upper : ndarray of bool, shape (A,)
        True where Eq. 18 is an upper bound (Cov(r, d) >= 0, supralinear-like gain), False
        where it is a lower bound.
    lo, hi : ndarray, shape (A,)
        The allowed open interval (``StabilityTheory.theta_bounds``); empty where lo >= hi.
    lambda_mem_star : ndarray, shape (A,)
        Eq. 15 at θ*_bulk.
    """

    cv: float
    sigma: float
    n: np.ndarray
    theta_star: np.ndarray
    ave_bound: np.ndarray
    mem_bound: np.ndarray
    mem_upper: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    lambda_mem_star: np.ndarray

    @property
    def star_allowed(self) -> np.ndarray:
        """Whether θ*_bulk lies inside the allowed interval, shape (A,)."""
        return (self.lo < self.theta_star) & (self.theta_star < self.hi)


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def theta_scan(
    N: int,
    alpha: float,
    cv: float,
    sigma: float,
    n: float,
    theta_shifts: Sequence[float],
    seed: int = 0,
    patterns: int = 2,
) -> ThetaScan:
    """Spectra of J_μ for one set of patterns at several thresholds θ = θ* + shift.

    Notes
    -----
    One pattern matrix R (N × P, P = round(α N), log-normal with mean 1) is stored with Eq. 8
    weights at each θ; the spectra come from the low-rank reduction of Eq. 9. θ enters K_μ as
    the rank-one term θ (R† d_μ) 1ᵀ (note §2.5), so across the scan one eigenvalue moves and the
    bulk stays (note §3.3: spread <= 2e-4). The mean row sum of J_μ = −I + D_μ W is what Eq. 12
    predicts (T6); the empirical λ_mem follows note pitfall 7; the 2 × 2 refinement of
    :func:`outlier_pair` is evaluated for each examined pattern. Theory values use the
    population θ*_bulk plus the same shift.

    Parameters
    ----------
    N : int
        Neurons, >= 10.
    alpha : float
        Load in (0, 0.95]; P = round(α N) >= 1.
    cv : float
        Pattern coefficient of variation, in (0, 1e6].
    sigma : float
        Smoothness σ in (0, 1e6] (dense patterns).
    n : float
        Exponent n in (0, 100].
    theta_shifts : sequence of float
        θ − θ*, each in [−1e6, 1e6], at least one.
    seed : int
        Pattern seed (>= 0); the same seed gives the same R for every shift.
    patterns : int
        Number of Jacobians examined (patterns 0 .. patterns−1), at most P.

    Returns
    -------
    ThetaScan

    Examples
    --------
    The threshold moves the mean row sum of J (Eq. 12) by ⟨d⟩ per unit of θ but not the bulk:

    >>> s = theta_scan(200, 0.2, 1.0, 1.0, 1.0, [-1.0, 0.0], patterns=1)
    >>> round(float(s.row_sum[1] - s.row_sum[0]), 1)  # ⟨d⟩ = 0.82 (Eq. 12)
    0.8
    >>> bool(abs(s.bulk_edge[1, 0] - s.bulk_edge[0, 0]) < 1e-3)
    True
    """
    shifts = theta_vector(theta_shifts, "theta_shifts")
    return _theta_scan(N, alpha, cv, sigma, n, shifts, seed, patterns)


def _theta_scan(
    N: Any,
    alpha: Any,
    cv: Any,
    sigma: Any,
    n: Any,
    shifts: np.ndarray,
    seed: Any,
    patterns: Any,
) -> ThetaScan:
    """:func:`theta_scan` with validated shifts; checks the other arguments."""
    N = check_positive_int(N, "N", minimum=10)
    alpha = check_fraction(alpha, "alpha", 0.0, 0.95, open_hi=False)
    cv, sigma, n = check_cv(cv), check_sigma(sigma, positive=True), check_exponent(n)
    seed = check_positive_int(seed, "seed", minimum=0)
    P = round(alpha * N)
    if not 1 <= P < N:
        raise ValueError(f"alpha must give 1 <= P = round(alpha N) < N, got P={P} for N={N}")
    check_matrix_size(N, P, "N")
    m = check_positive_int(patterns, "patterns", minimum=1, maximum=P)
    R = _patterns(N, P, cv, seed)
    theta_emp = -float(np.mean(activation_inverse(R, sigma, n)))  # Eq. 16, empirical
    star = _theory(cv, sigma, n, None)
    mus = list(range(m))
    k = shifts.size
    eig = np.empty((k, m, P), dtype=complex)
    absc, edge, corr = (np.empty((k, m)) for _ in range(3))
    lam_mem, ave_eig = np.empty((k, m), dtype=complex), np.empty((k, m), dtype=complex)
    row_sum = np.empty(k)
    pair = np.empty((k, m, 2), dtype=complex)
    th_ave, th_mem, th_edge = (np.empty(k) for _ in range(3))
    D = gain(R[:, mus], sigma, n)  # (N, m)
    for j, shift in enumerate(shifts):
        net = pinv_weights(R, sigma, n, theta_emp + shift)
        spec = jacobian_spectrum(net, mus, eigenvectors=True)
        eig[j], absc[j], edge[j] = spec.eigenvalues, spec.abscissa, spec.bulk_edge
        lam_mem[j], corr[j] = spec.lambda_mem, spec.mem_corr
        th = _theory(cv, sigma, n, star.theta_star + float(shift))
        th_ave[j], th_mem[j] = th.lambda_ave, th.lambda_mem
        th_edge[j] = th.bulk_edge(P / N)
        near = np.abs(spec.eigenvalues - th.lambda_ave).argmin(axis=1)
        ave_eig[j] = spec.eigenvalues[np.arange(m), near]
        row_sum[j] = float(np.mean(D * (net.W.sum(axis=1))[:, None]) - 1.0)  # rows of −I + D W
        for i, mu in enumerate(mus):
            pair[j, i] = _pair(R[:, mu], sigma, n, theta_emp + shift).eigenvalues
    return ThetaScan(
        N=N,
        P=P,
        seed=seed,
        alpha=P / N,
        cv=cv,
        sigma=sigma,
        n=n,
        patterns=np.asarray(mus),
        theta_star=theta_emp,
        theta_shifts=shifts,
        eigenvalues=eig,
        abscissa=absc,
        bulk_edge=edge,
        lambda_mem=lam_mem,
        mem_corr=corr,
        ave_eig=ave_eig,
        row_sum=row_sum,
        pair=pair,
        lambda_ave_theory=th_ave,
        lambda_mem_theory=th_mem,
        bulk_edge_theory=th_edge,
        center=star.center,
        radius=star.radius_coef * math.sqrt(P / N / (1.0 - P / N)),
        bulk_edge_star=star.bulk_edge(P / N),
    )


def outlier_view(
    theta_shift: float,
    n: float,
    *,
    N: int = 500,
    alpha: float = 0.2,
    cv: float = 1.0,
    sigma: float = 1.0,
    seed: int = 0,
    patterns: int = 2,
) -> ThetaScan:
    """The exploration's compute function: :func:`theta_scan` at one shift θ − θ*.

    Notes
    -----
    The patterns are cached per (N, P, CV, seed) and the theory per (CV, σ, n, θ), so a live
    update costs one Eq. 8 solve and ``patterns`` P × P eigenproblems with eigenvectors (about
    30-70 ms at N = 500, α = 0.2 on one shared core).

    Parameters
    ----------
    theta_shift : float
        θ − θ*, in [−1e6, 1e6].
    n : float
        Exponent n in (0, 100].
    N, alpha, cv, sigma, seed, patterns
        As in :func:`theta_scan`.

    Returns
    -------
    ThetaScan
        With k = 1.

    Examples
    --------
    >>> v = outlier_view(0.0, 1.5, N=200, patterns=1)
    >>> v.theta_shifts.tolist(), bool(v.mem_corr[0, 0] > 0.9)  # the supralinear outlier
    ([0.0], True)
    """
    shift = check_theta(theta_shift, "theta_shift")
    return _theta_scan(N, alpha, cv, sigma, n, np.array([shift]), seed, patterns)


def outlier_pair(r: Any, sigma: float, n: float, theta: float) -> OutlierPair:
    """2 × 2 refinement of the two outliers on span{r^μ, 1} (note §2.4, an [extension]).

    Notes
    -----
    With OLS fits over the neurons φ(r) ≈ a_φ + b_φ r (φ = d (u + θ)) and d(r) ≈ a_d + b_d r, and
    the row sum m = (θ + ⟨u⟩)/⟨r⟩ of Eq. 7 (W 1 ≈ m 1), the Jacobian maps
    J r^μ ≈ (b_φ − 1) r^μ + a_φ 1 (because W r^μ = u + θ exactly) and
    J 1 ≈ m b_d r^μ + (−1 + m a_d) 1. The outliers are the eigenvalues of
    [[b_φ − 1, m b_d], [a_φ, −1 + m a_d]]. At θ = θ*_bulk, m = 0 and they reduce to the paper's
    per-pattern λ_mem (Eq. 15) and −1 (Eq. 12); away from θ* the paper's Eqs. 12 and 15 treat the
    two directions as uncoupled, which the 2 × 2 problem does not.

    Parameters
    ----------
    r : array_like, shape (N,)
        One stored pattern, rates > 0, N >= 3, not constant.
    sigma : float
        Smoothness σ in (0, 1e6].
    n : float
        Exponent n in (0, 100].
    theta : float
        Threshold θ in [−1e6, 1e6].

    Returns
    -------
    OutlierPair

    Raises
    ------
    ValueError
        If an argument is out of range, or the rates are so large that g⁻¹(r), d(r) or
        d (g⁻¹(r) + θ) overflow float64.

    Examples
    --------
    A linear, noiseless unit (σ → 0, n = 1) gives φ = r + θ: b_φ = 1, b_d = 0, so the outliers
    are 0 (the pattern direction, marginal) and θ (= λ_ave when ⟨r⟩ = 1):

    >>> p = outlier_pair([0.5, 1.0, 1.5], 1e-3, 1.0, 0.25)
    >>> np.round(p.eigenvalues.real, 6).tolist()
    [0.25, 0.0]
    """
    sigma, n = check_sigma(sigma, positive=True), check_exponent(n)
    theta = check_theta(theta)
    r = as_real_array(r, "r", xp=np)
    if r.ndim != 1 or r.size < 3:
        raise ValueError(f"r must have shape (N,) with N >= 3, got shape {r.shape}")
    if bool(np.any(r <= 0)):
        raise ValueError(f"r must contain rates > 0 (dense pattern), got min {float(r.min())!r}")
    if float(np.ptp(r)) == 0.0:
        raise ValueError("r must not be constant (the OLS slopes are undefined)")
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        d = gain(r, sigma, n)
        u = activation_inverse(r, sigma, n)
        parts = np.concatenate([d, u, d * (u + theta), [float(r @ r)]])
    if not bool(np.all(np.isfinite(parts))):
        raise ValueError(
            f"r holds rates too large for float64 at sigma={sigma}, n={n}, theta={theta} "
            f"(max r = {float(r.max()):.3g}): the fits of phi and d overflow"
        )
    return _pair(r, sigma, n, theta)


def threshold_window(cv: float, sigma: float, n_grid: Any) -> ThresholdWindow:
    """θ*_bulk and the λ_ave < 0, λ_mem < 0 threshold bounds over exponents (Eqs. 16-18).

    Notes
    -----
    Eq. 16: θ*_bulk = −⟨g⁻¹(r)⟩ minimises c_ff. Eq. 17: λ_ave < 0 iff
    θ < −⟨g⁻¹(r)⟩ + ⟨r⟩/⟨d⟩. Eq. 18 is printed without its "<" (note pitfall 2); from
    c_rφ < c_rr with c_rφ = Cov(r, d u) + θ Cov(r, d) it reads
    Cov(r, d) θ < Var r − Cov(r, d u) (note §2.5). Both are bounds on Eqs. 12 and 15, which hold
    near θ*; away from θ* the real outliers couple (:func:`outlier_pair`).

    Parameters
    ----------
    cv : float
        Pattern CV, in (0, 1e6].
    sigma : float
        Smoothness σ in [0, 1e6].
    n_grid : array_like, shape (A,)
        Exponents in (0, 100], at least one.

    Returns
    -------
    ThresholdWindow

    Examples
    --------
    At CV = σ = n = 1 (note §2.9) θ* = −0.927 is allowed; at n = 1.5 λ_mem(θ*) = +0.17 > 0, so
    θ* lies above the Eq. 18 bound:

    >>> w = threshold_window(1.0, 1.0, [1.0, 1.5])
    >>> np.round(w.theta_star, 4).tolist(), w.star_allowed.tolist()
    ([-0.9271, -0.8815], [True, False])
    """
    cv, sigma = check_cv(cv), check_sigma(sigma)
    grid = as_real_vector(n_grid, "n_grid", 0.0, EXPONENT_MAX, open_lo=True)
    rows = [theory(cv, sigma, float(v)) for v in grid]
    cov_rd = np.array([t.cov_rd for t in rows])
    rhs = np.array([t.c_rr - t.cov_rdu for t in rows])
    # Cov(r, d) = 0 (σ = 0, n = 1): λ_mem does not depend on θ; no bound (+inf) when it is < 0,
    # no allowed θ (−inf) otherwise, as in StabilityTheory.theta_bounds.
    flat = np.where(rhs > 0, np.inf, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        mem_bound = np.where(cov_rd != 0, rhs / np.where(cov_rd != 0, cov_rd, 1.0), flat)
    bounds = np.array([t.theta_bounds() for t in rows])
    return ThresholdWindow(
        cv=cv,
        sigma=sigma,
        n=grid,
        theta_star=np.array([t.theta_star for t in rows]),
        ave_bound=np.array([-t.mean_u + t.mean_r / t.mean_d for t in rows]),
        mem_bound=mem_bound,
        mem_upper=cov_rd >= 0,
        lo=bounds[:, 0],
        hi=bounds[:, 1],
        lambda_mem_star=np.array([t.lambda_mem for t in rows]),
    )


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _patterns(N: int, P: int, cv: float, seed: int) -> np.ndarray:
    """Log-normal R per (N, P, CV, seed), read-only (cached for the live widget)."""
    R = sample_patterns(N, P, cv, rng=seed)
    R.flags.writeable = False
    return R


@lru_cache(maxsize=1024)
def _theory(cv: float, sigma: float, n: float, theta: float | None) -> Any:
    """:func:`theory` cached on its (hashable) arguments: a live update reuses θ* and revisits."""
    return theory(cv, sigma, n, theta)


def _ols(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Slope and intercept of the least-squares line y ≈ a + b x."""
    xc = x - x.mean()
    b = float(xc @ (y - y.mean()) / (xc @ xc))
    return b, float(y.mean() - b * x.mean())


def _pair(r: np.ndarray, sigma: float, n: float, theta: float) -> OutlierPair:
    """Note §2.4 2 × 2 refinement (see :func:`outlier_pair`)."""
    d = gain(r, sigma, n)
    u = activation_inverse(r, sigma, n)
    b_phi, a_phi = _ols(r, d * (u + theta))
    b_d, a_d = _ols(r, d)
    m = (theta + float(u.mean())) / float(r.mean())  # Eq. 7
    M = np.array([[b_phi - 1.0, m * b_d], [a_phi, -1.0 + m * a_d]])
    ev = np.linalg.eigvals(M).astype(complex)
    ev = ev[np.argsort(-ev.real, kind="stable")]
    return OutlierPair(
        matrix=M,
        eigenvalues=ev,
        slope_phi=b_phi,
        intercept_phi=a_phi,
        slope_d=b_d,
        intercept_d=a_d,
        row_sum=m,
    )
