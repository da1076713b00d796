"""Sparse patterns: min-norm weights by quadratic programming, replica row moments, kink, margin.

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks* (sparse case: DETAILS, appendix, Figs. 5-6). "note §" refers to
``shared/notes/03-attractor-stability.md`` (§2.1, §3.3 "Sparse case", §4.1, §4.2, pitfall 13).

Notation map
------------
=============================  ======================  ========================================
paper / note                   code                    meaning
=============================  ======================  ========================================
f                              ``f``                   sparseness: fraction of non-zero rates
g(h) = ⌊h⌋₊ⁿ (σ = 0)           ``n``                   hard-rectified power law (Fig. 5b)
θ                              ``theta``               threshold; the input is W r − θ
κ (note, [extension])          ``kappa``               margin: silent units need W r − θ <= −κ
𝒱 (the paper's V of Eq. 24)    row QP                  solution set of one row (renamed, pitfall 1)
q = Σ_j w_j², m = Σ_j w_j      ``q``, ``m``            squared row norm and row sum (appendix)
θ₀ (replica order parameter)   ``theta0``              not the threshold θ (pitfall 1)
A (active set of pattern μ)    ``active``              units with r_i^μ > 0
kink units                     ``n_kink``              silent units exactly at threshold (h = 0)
=============================  ======================  ========================================

Eigenvalues are in units of 1/τ (τ = 1). The margin κ and the kink analysis are extensions of
the notes, not the paper's: the paper solves Eq. 4 with κ = 0 (Clarabel) and reports stability
numerically without stating a convention for g'(0) (note pitfall 13).

Public functions
----------------
sparse_weights (result ``SparseNetwork``), replica_row_moments (``RowMoments``),
row_moment_sample (``RowMomentSample``: q and m of QP rows over several networks),
sparse_spectrum (``SparseSpectrum``), kink_count, capacity_curve (``CapacityCurve``),
storage_fraction (``StorageScan``),
storage_midpoints (``StorageMidpoints``: the load at half stored, over seeds),
sparse_stability_scan (``SparseStabilityScan``),
sparse_threshold_scan (``ThresholdScan``), threshold_optima (``ThresholdOptima``: its best θ
over several f, α and seeds), kink_profile (``KinkProfile``, the exploration's
compute function).
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg
from scipy.optimize import brentq, linprog, lsq_linear, minimize
from scipy.special import ndtr

from assocmem._validation import (
    ConvergenceWarning,
    as_real_array,
    as_real_vector,
    as_rng,
    check_fraction,
    check_instance,
    check_int_sequence,
    check_option,
    check_positive_int,
)
from assocmem.attractor._domain import (
    check_cv,
    check_exponent,
    check_kappa,
    check_matrix_size,
    check_theta,
    theta_vector,
)
from assocmem.attractor.meanfield import sparse_capacity
from assocmem.attractor.network import _check_pattern_indices, _StoredPatterns
from assocmem.attractor.rates import _as_rates, activation_inverse, gain, sample_patterns

__all__ = [
    "CapacityCurve",
    "KinkProfile",
    "RowMomentSample",
    "RowMoments",
    "SparseNetwork",
    "SparseSpectrum",
    "SparseStabilityScan",
    "StorageMidpoints",
    "StorageScan",
    "ThresholdOptima",
    "ThresholdScan",
    "capacity_curve",
    "kink_count",
    "kink_profile",
    "replica_row_moments",
    "row_moment_sample",
    "sparse_spectrum",
    "sparse_stability_scan",
    "sparse_threshold_scan",
    "sparse_weights",
    "storage_fraction",
    "storage_midpoints",
    "threshold_optima",
]

_KINKS = ("zero", "one")
_PDAS_MAX_ITER = 60  # primal-dual active-set iterations before the L-BFGS-B fallback
_KINK_TOL = 1e-7  # |h| below this counts as "at threshold"
#: Largest load α = P/N of the sparse scans (α_C(f) reaches 1e3 only at f < 1e-4).
ALPHA_MAX = 1e3


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SparseNetwork(_StoredPatterns):
    """Min-norm weights storing sparse patterns (result of :func:`sparse_weights`).

    Attributes
    ----------
    W : ndarray, shape (len(rows), N)
        Weights of the solved rows (square (N, N) when all rows were solved); W_ii = 0.
    rows : ndarray of int
        The neurons whose rows were solved (all N by default).
    R : ndarray, shape (N, P)
        Stored patterns (rates >= 0).
    theta, n, kappa : float
        Threshold, exponent of g = ⌊h⌋₊ⁿ, margin κ >= 0.
    feasible : ndarray of bool, shape (len(rows),)
        Row found with every constraint met to ``tol``. False means no feasible row exists
        (certified by a linear program: the load is above that row's capacity); a feasible
        row that the QP could not solve raises a ``ConvergenceWarning`` and is also False.
    max_violation : ndarray, shape (len(rows),)
        Largest constraint violation of each row; inf where the linear program certified that
        no feasible row exists (that row of ``W`` is then left at zero).
    n_tight : ndarray of int, shape (len(rows),)
        Inequality constraints met with equality (silent units at −κ exactly).
    iterations : ndarray of int, shape (len(rows),)
        Solver iterations (active-set steps, or L-BFGS-B iterations after a fallback).
    """

    W: np.ndarray
    rows: np.ndarray
    R: np.ndarray
    theta: float
    n: float
    kappa: float
    feasible: np.ndarray
    max_violation: np.ndarray
    n_tight: np.ndarray
    iterations: np.ndarray

    @property
    def all_feasible(self) -> bool:
        """Whether every solved row stores every pattern."""
        return bool(np.all(self.feasible))

    @property
    def q(self) -> np.ndarray:
        """Squared row norms Σ_j W_ij² (the replica q)."""
        return np.sum(self.W**2, axis=1)

    @property
    def m(self) -> np.ndarray:
        """Row sums Σ_j W_ij (the replica m)."""
        return np.sum(self.W, axis=1)


@dataclass(frozen=True)
class RowMoments:
    """Replica-symmetric moments of one min-norm row at load α < α_C(f) (appendix).

    Attributes
    ----------
    f, alpha, theta, cv, n : float
        Parameters.
    theta0 : float
        Order parameter θ₀ = (θ − x₁ m)/√(x₂ q).
    q : float
        Squared row norm Σ_j w_j² (N⟨W²⟩).
    m : float
        Row sum Σ_j w_j (N⟨W⟩).
    alpha_c : float
        α_C(f), where q diverges.
    """

    f: float
    alpha: float
    theta: float
    cv: float
    n: float
    theta0: float
    q: float
    m: float
    alpha_c: float


@dataclass(frozen=True, eq=False)
class SparseSpectrum:
    """Jacobian spectra at stored sparse patterns (result of :func:`sparse_spectrum`).

    Attributes
    ----------
    patterns : ndarray of int, shape (k,)
        Pattern indices μ.
    eigenvalues : tuple of ndarray
        Per pattern, the eigenvalues of −I + D_A W_AA on the active set A (complex); the other
        N − |A| eigenvalues are exactly −1.
    abscissa : ndarray, shape (k,)
        Spectral abscissa max Re λ (the −1's included).
    n_active : ndarray of int, shape (k,)
        |A|: units with r > 0, plus the kink units when ``kink="one"``.
    n_kink : ndarray of int, shape (k,)
        Silent units at threshold (|h| < tol).
    kink : str
        Convention for g'(0): ``"zero"`` or ``"one"``.
    """

    patterns: np.ndarray
    eigenvalues: tuple[np.ndarray, ...]
    abscissa: np.ndarray
    n_active: np.ndarray
    n_kink: np.ndarray
    kink: str


@dataclass(frozen=True, eq=False)
class SparseStabilityScan:
    """Storage and stability of sparse patterns versus load (result of
    :func:`sparse_stability_scan`).

    Attributes
    ----------
    alphas : ndarray, shape (a,)
        Loads P/N.
    stored_fraction : ndarray, shape (a,)
        Fraction of rows whose QP is feasible (every pattern a fixed point in that row).
    stable_fraction : ndarray, shape (a,)
        Fraction of the tested patterns with abscissa < −tol (0 where not all rows are
        feasible: those patterns are not fixed points).
    mean_abscissa : ndarray, shape (a,)
        Mean spectral abscissa over the tested patterns; NaN where not all rows are feasible.
    mean_kink : ndarray, shape (a,)
        Mean number of silent units at threshold per tested pattern (NaN as above).
    f, theta, kappa, n, cv : float
        Parameters; ``alpha_c`` the replica capacity α_C(f).
    N : int
        Network size.
    """

    alphas: np.ndarray
    stored_fraction: np.ndarray
    stable_fraction: np.ndarray
    mean_abscissa: np.ndarray
    mean_kink: np.ndarray
    f: float
    theta: float
    kappa: float
    n: float
    cv: float
    N: int
    alpha_c: float


@dataclass(frozen=True, eq=False)
class RowMomentSample:
    """Squared norms and sums of min-norm rows over several networks (:func:`row_moment_sample`).

    Attributes
    ----------
    q, m : ndarray, shape (networks, rows)
        Σ_j w_j² and Σ_j w_j of rows 0, …, rows − 1 of each network.
    f, alpha, theta : float
        Sparseness, load and threshold; N the network size.
    """

    q: np.ndarray
    m: np.ndarray
    f: float
    alpha: float
    theta: float
    N: int


@dataclass(frozen=True, eq=False)
class StorageMidpoints:
    """Storage fractions over seeds and the load where each falls below one half
    (:func:`storage_midpoints`).

    Attributes
    ----------
    alphas : ndarray, shape (a,)
        Loads P/N.
    stored_fraction : ndarray, shape (seeds, a)
        :func:`storage_fraction` with ``rng=s`` in row s.
    alpha_half : ndarray, shape (seeds,)
        Load where the fraction first drops below 1/2, linearly interpolated from the load
        before; NaN where it is below 1/2 at the first load or never drops below it.
    f, kappa : float
        Sparseness and margin; ``alpha_c`` the replica capacity α_C(f); N the network size.
    """

    alphas: np.ndarray
    stored_fraction: np.ndarray
    alpha_half: np.ndarray
    f: float
    kappa: float
    N: int
    alpha_c: float


@dataclass(frozen=True, eq=False)
class StorageScan:
    """Fraction of rows able to store every pattern versus load (result of
    :func:`storage_fraction`).

    Attributes
    ----------
    alphas : ndarray, shape (a,)
        Loads P/N.
    stored_fraction : ndarray, shape (a,)
        Fraction of the tested rows whose constraint set (Eq. 24, margin κ) is non-empty.
    f, kappa : float
        Sparseness and margin; ``alpha_c`` the replica capacity α_C(f); N the network size.
    """

    alphas: np.ndarray
    stored_fraction: np.ndarray
    f: float
    kappa: float
    N: int
    alpha_c: float


@dataclass(frozen=True, eq=False)
class KinkProfile:
    """Silent-unit fields and the active-set spectrum of one pattern (:func:`kink_profile`).

    Attributes
    ----------
    h_silent : ndarray
        Fields h = (W r^μ)_i − θ of the silent units, sorted (all <= −κ up to the tolerance).
    eigenvalues : ndarray of complex
        Eigenvalues of −I + D_A W_AA (convention g'(0) = 0).
    eigenvalues_one : ndarray of complex
        The same with the kink units counted as active (g'(0) = 1).
    abscissa, abscissa_one : float
        Spectral abscissae of the two conventions.
    n_kink, n_silent : int
        Silent units at threshold, and all silent units.
    f, kappa, alpha, theta : float
        Parameters; N the network size.
    """

    h_silent: np.ndarray
    eigenvalues: np.ndarray
    eigenvalues_one: np.ndarray
    abscissa: float
    abscissa_one: float
    n_kink: int
    n_silent: int
    f: float
    kappa: float
    alpha: float
    theta: float
    N: int


@dataclass(frozen=True, eq=False)
class CapacityCurve:
    """Replica capacity α_C(f) on a grid of f, with its small-f asymptote (:func:`capacity_curve`).

    Attributes
    ----------
    f : ndarray
        Sparseness values.
    alpha_c, theta0_c : ndarray
        α_C(f) and θ₀ at capacity (:func:`sparse_capacity`).
    asymptote : ndarray
        1/(2 f ln(1/f)) ([derived] in the note, from θ₀c ≈ √(2 ln(1/f))); NaN at f = 1.
    """

    f: np.ndarray
    alpha_c: np.ndarray
    theta0_c: np.ndarray
    asymptote: np.ndarray


@dataclass(frozen=True, eq=False)
class ThresholdOptima:
    """Best thresholds of :func:`sparse_threshold_scan` over f, α and seeds
    (:func:`threshold_optima`).

    Attributes
    ----------
    f, alpha : ndarray, shape (k,)
        Sparseness and load of each scan (every f with every α, seeds innermost).
    seed : ndarray of int, shape (k,)
        Seed of each scan's patterns.
    best_theta : ndarray, shape (k,)
        θ with the lowest mean abscissa in each scan.
    best_abscissa : ndarray, shape (k,)
        That lowest mean abscissa (negative: the patterns are stable at ``best_theta``).
    kappa : float
        Margin; N the network size.
    """

    f: np.ndarray
    alpha: np.ndarray
    seed: np.ndarray
    best_theta: np.ndarray
    best_abscissa: np.ndarray
    kappa: float
    N: int


@dataclass(frozen=True, eq=False)
class ThresholdScan:
    """Stability of one sparse network family versus θ (:func:`sparse_threshold_scan`).

    Attributes
    ----------
    thetas : ndarray
        Thresholds.
    mean_abscissa, stable_fraction, mean_row_sum : ndarray
        Mean spectral abscissa and stable fraction over the tested patterns, and the mean row
        sum of W (N⟨W⟩), per θ.
    best_theta : float
        θ with the lowest mean abscissa.
    f, alpha, kappa : float
        Parameters; N the network size.
    """

    thetas: np.ndarray
    mean_abscissa: np.ndarray
    stable_fraction: np.ndarray
    mean_row_sum: np.ndarray
    best_theta: float
    f: float
    alpha: float
    kappa: float
    N: int


# --------------------------------------------------------------------------------------------
# Weights
# --------------------------------------------------------------------------------------------


def sparse_weights(
    R: Any,
    theta: float,
    n: float = 1.0,
    kappa: float = 0.0,
    rows: Sequence[int] | None = None,
    *,
    tol: float = 1e-6,
) -> SparseNetwork:
    """Minimum-norm weights without self-coupling storing sparse patterns (Eq. 4, σ = 0).

    Notes
    -----
    Eq. 4 decouples into one QP per row k (note §4.1; the constraints are Eq. 24 of the
    appendix, with the margin κ of the notes added, an [extension]):

        min ½‖w‖²  s.t.  w·r^μ = θ + (r_k^μ)^{1/n}  where r_k^μ > 0,
                         w·r^μ <= θ − κ             where r_k^μ = 0,   w_k = 0.

    It is solved in its P-dimensional dual, min_λ ½ λᵀ G_k λ + bᵀλ with λ >= 0 on the
    inequalities and w = −A_kᵀλ, where A_k is Rᵀ without column k and G_k = RᵀR − ρ_k ρ_kᵀ (ρ_k
    the k-th row of R: a rank-one update of one shared Gram matrix). A primal-dual active-set
    iteration (Hintermüller-Ito-Kunisch) solves it exactly in a few linear solves; where it
    does not settle, L-BFGS-B with bounds takes over. A row whose solution violates a
    constraint by more than ``tol`` is checked with a linear program: infeasible rows (load
    above that row's capacity, α > α_C) get ``feasible = False``; a feasible row the QP failed
    on also gets False, with a ``ConvergenceWarning``.

    Parameters
    ----------
    R : array_like, shape (N, P)
        Patterns, rates >= 0 (exact zeros are the silent units), with RᵀR finite.
    theta : float
        Threshold θ in [−1e6, 1e6].
    n : float
        Exponent of g = ⌊h⌋₊ⁿ, in (0, 100].
    kappa : float
        Margin κ in [0, 1e6] on the inequalities (0 reproduces the paper's problem).
    rows : sequence of int, optional
        Solve only these rows, indices in [0, N) (default all N).
    tol : float
        Feasibility tolerance in (0, 1).

    Returns
    -------
    SparseNetwork

    Examples
    --------
    Two patterns of three units; every row meets its constraints:

    >>> import numpy as np
    >>> R = np.array([[1.0, 0.0], [0.5, 2.0], [0.0, 1.0]])
    >>> net = sparse_weights(R, theta=-0.5)
    >>> net.all_feasible, bool(np.all(np.diag(net.W) == 0))
    (True, True)
    """
    theta, n, kappa = check_theta(theta), check_exponent(n), check_kappa(kappa)
    tol = _check_tol(tol)
    R = _check_sparse_patterns(R)
    N = R.shape[0]
    idx = np.arange(N) if rows is None else np.array(check_int_sequence(rows, "rows", 0, N - 1))
    return _sparse_weights(R, theta, n, kappa, idx, tol)


def _check_tol(tol: Any, name: str = "tol") -> float:
    """A tolerance in (0, 1): constraints and fields are of order 1."""
    return check_fraction(tol, name, 0.0, 1.0)


def _sparse_weights(
    R: np.ndarray, theta: float, n: float, kappa: float, idx: np.ndarray, tol: float
) -> SparseNetwork:
    """:func:`sparse_weights` on validated arguments (rows ``idx``)."""
    N = R.shape[0]
    G = R.T @ R
    W = np.zeros((idx.size, N))
    feas = np.zeros(idx.size, bool)
    viol = np.zeros(idx.size)
    tight = np.zeros(idx.size, int)
    iters = np.zeros(idx.size, int)
    for j, k in enumerate(idx):
        w, it, v, nt = _solve_row(R, G, int(k), theta, n, kappa, tol)
        W[j], iters[j], viol[j], tight[j] = w, it, v, nt
        feas[j] = v <= tol
    return SparseNetwork(
        W=W,
        rows=idx,
        R=R,
        theta=theta,
        n=n,
        kappa=kappa,
        feasible=feas,
        max_violation=viol,
        n_tight=tight,
        iterations=iters,
    )


def _check_sparse_patterns(R: Any) -> np.ndarray:
    R = as_real_array(R, "R", xp=np)
    if R.ndim != 2 or R.shape[0] < 2 or R.shape[1] < 1:
        raise ValueError(f"R must have shape (N, P) with N >= 2 and P >= 1, got {R.shape}")
    check_matrix_size(R.shape[0], R.shape[1], "R")
    R = _as_rates(R, 0.0, np, "R")
    with np.errstate(over="ignore", invalid="ignore"):
        gram_ok = bool(np.all(np.isfinite(R.T @ R)))
    if not gram_ok:
        raise ValueError(
            f"R holds rates too large for float64 (max {float(R.max()):.3g}): RᵀR overflows"
        )
    return R


def _row_problem(
    R: np.ndarray, G: np.ndarray, k: int, theta: float, n: float, kappa: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A_k (P × N, column k zeroed), G_k, b and the equality mask of row k (note §4.1)."""
    rk = R[k]
    eq = rk > 0
    b = np.where(eq, theta + activation_inverse(rk, 0.0, n), theta - kappa)
    A = R.T.copy()
    A[:, k] = 0.0  # no self-coupling: w_k = 0
    return A, G - np.outer(rk, rk), b, eq


def _solve_row(
    R: np.ndarray, G: np.ndarray, k: int, theta: float, n: float, kappa: float, tol: float
) -> tuple[np.ndarray, int, float, int]:
    """One row: active set; else L-BFGS-B polished by the active set; zero row if infeasible."""
    A, Gk, b, eq = _row_problem(R, G, k, theta, n, kappa)

    def violation(lam: np.ndarray | None) -> float:
        return math.inf if lam is None else _violation(A @ (-A.T @ lam), b, eq)

    lam, it = _pdas(Gk, b, eq, eq.copy())
    viol = violation(lam)
    if viol > tol:
        start = _lp_point(A, b, eq)
        if start is None:  # certified infeasible: this row cannot store every pattern
            return np.zeros(R.shape[0]), it, math.inf, 0
        lam, it = _bvls(A, b, eq) if b.size < A.shape[1] - 1 else _lbfgsb(Gk, b, eq)
        polished, extra = _pdas(Gk, b, eq, eq | (lam > 1e-12))
        if polished is not None and violation(polished) < violation(lam):
            lam, it = polished, it + extra
        viol = violation(lam)
        if viol > tol:  # near capacity with P > N − 1: the primal by SLSQP from the LP point
            w, extra = _slsqp(A, b, eq, start)
            viol = _violation(A @ w, b, eq)
            if viol > tol:
                warnings.warn(
                    f"sparse_weights: row {k} is feasible but the QP stopped with violation "
                    f"{viol:.2e} after {it + extra} iterations",
                    ConvergenceWarning,
                    stacklevel=3,
                )
            n_tight = int(np.sum(~eq & (np.abs(A @ w - b) <= tol)))
            return w, it + extra, viol, n_tight
    w = -A.T @ lam
    n_tight = int(np.sum(~eq & (np.abs(A @ w - b) <= tol)))
    return w, it, viol, n_tight


def _violation(Aw: np.ndarray, b: np.ndarray, eq: np.ndarray) -> float:
    """Largest violation: |A w − b| on equalities, (A w − b)₊ on inequalities."""
    r = Aw - b
    v = np.where(eq, np.abs(r), np.maximum(r, 0.0))
    return float(v.max()) if v.size else 0.0


def _pdas(
    G: np.ndarray, b: np.ndarray, eq: np.ndarray, free: np.ndarray
) -> tuple[np.ndarray | None, int]:
    """Primal-dual active set for min ½λᵀGλ + bᵀλ, λ_i >= 0 off ``eq`` (None if unsettled).

    ``free`` is the starting set of free multipliers; the others are held at 0. Singular
    blocks (more free multipliers than N − 1, possible when α > 1) are solved by least squares.
    """
    P = b.size
    c = 1.0 / np.maximum(np.diag(G), 1e-300)
    for it in range(1, _PDAS_MAX_ITER + 1):
        lam = np.zeros(P)
        S = np.flatnonzero(free)
        if S.size:
            lam[S] = _sym_solve(G[np.ix_(S, S)], -b[S])
            if not np.all(np.isfinite(lam)):
                return None, it
        mu = G @ lam + b  # slack b − A w of the primal constraints
        new_free = eq | (lam - c * mu > 0)
        if np.array_equal(new_free, free):
            scale = 1.0 + np.abs(b)
            ok = np.all(lam[~eq] >= -1e-10) and np.all(mu[~eq] >= -1e-9 * scale[~eq])
            ok = ok and np.all(np.abs(mu[eq]) <= 1e-9 * scale[eq])
            return (lam, it) if ok else (None, it)
        free = new_free
    return None, _PDAS_MAX_ITER


def _sym_solve(M: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Solve M x = rhs for a PSD block; least squares when it is singular."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
            return scipy.linalg.solve(M, rhs, assume_a="pos")
    except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning):
        return scipy.linalg.lstsq(M, rhs, cond=1e-12)[0]


def _lbfgsb(G: np.ndarray, b: np.ndarray, eq: np.ndarray) -> tuple[np.ndarray, int]:
    """Dual QP by L-BFGS-B with bounds (note §4.1), the fallback of the active-set solver."""
    bounds = [(None, None) if e else (0.0, None) for e in eq]

    def fun(lam: np.ndarray) -> tuple[float, np.ndarray]:
        g = G @ lam
        return 0.5 * float(lam @ g) + float(b @ lam), g + b

    res = minimize(
        fun,
        np.zeros(b.size),
        jac=True,
        method="L-BFGS-B",
        bounds=bounds,
        options={"maxiter": 20000, "ftol": 1e-15, "gtol": 1e-12},
    )
    return res.x, int(res.nit)


def _bvls(A: np.ndarray, b: np.ndarray, eq: np.ndarray) -> tuple[np.ndarray, int]:
    """Dual QP as bounded least squares (P < N − 1): ½‖Aᵀλ + z‖² with A z = b (BVLS)."""
    z = np.linalg.lstsq(A, b, rcond=None)[0]
    lo = np.where(eq, -np.inf, 0.0)
    res = lsq_linear(
        A.T,
        -z,
        bounds=(lo, np.full(b.size, np.inf)),
        method="bvls",
        tol=1e-14,
        max_iter=10 * b.size,
    )
    return res.x, int(res.nit)


def _lp_point(A: np.ndarray, b: np.ndarray, eq: np.ndarray) -> np.ndarray | None:
    """A point of {w : A_eq w = b_eq, A_in w <= b_in}, or None if it is empty (HiGHS LP)."""
    res = linprog(
        np.zeros(A.shape[1]),
        A_ub=A[~eq] if np.any(~eq) else None,
        b_ub=b[~eq] if np.any(~eq) else None,
        A_eq=A[eq] if np.any(eq) else None,
        b_eq=b[eq] if np.any(eq) else None,
        bounds=(None, None),
        method="highs",
    )
    return res.x if res.status == 0 else None


def _slsqp(A: np.ndarray, b: np.ndarray, eq: np.ndarray, w0: np.ndarray) -> tuple[np.ndarray, int]:
    """The primal QP by SLSQP from a feasible point (last resort near capacity)."""
    cons = [
        {"type": "eq", "fun": lambda w: A[eq] @ w - b[eq], "jac": lambda w: A[eq]},
        {"type": "ineq", "fun": lambda w: b[~eq] - A[~eq] @ w, "jac": lambda w: -A[~eq]},
    ]
    res = minimize(
        lambda w: (0.5 * float(w @ w), w),
        w0,
        jac=True,
        method="SLSQP",
        constraints=[c for c, m in zip(cons, (eq, ~eq), strict=True) if np.any(m)],
        options={"maxiter": 2000, "ftol": 1e-14},
    )
    return res.x, int(res.nit)


# --------------------------------------------------------------------------------------------
# Replica row moments
# --------------------------------------------------------------------------------------------


def replica_row_moments(
    f: float, alpha: float, theta: float, cv: float = 1.0, n: float = 1.0
) -> RowMoments:
    """Row norm q and row sum m of the min-norm row from the replica equations (appendix).

    Notes
    -----
    With h the standard normal density, H its upper tail and the pattern statistics
    x₁ = ⟨r⟩ = f, x₂ = ⟨δr²⟩ = f(1 + CV²) − f² (full distribution, zeros included),
    y₁ = ⟨r^{1/n} | r > 0⟩, y₂ = ⟨δ(r^{1/n})² | r > 0⟩ (log-normal, closed form), the
    self-consistent equations of the appendix are (note §2.1)

        α⁻¹ = f(θ₀ + a)² + f(y₂/y₁²) a² + f + (1−f)((θ₀² + 1) H(θ₀) − θ₀ h(θ₀)),
        0   = f(θ₀ + a) + (1−f)(θ₀ H(θ₀) − h(θ₀)),        a = y₁/√(x₂ q),
        θ   = m x₁ + θ₀ √(x₂ q).

    The second gives a(θ₀); the first is then one equation in θ₀ ∈ (θ₀c − 60, θ₀c), solved by
    ``brentq``; q = y₁²/(x₂ a²) and m = (θ − θ₀√(x₂ q))/x₁. q does not depend on θ. For f = 1
    these reduce to Eqs. 6-7 (q = α/(1−α) · y₂/x₂).

    Parameters
    ----------
    f : float
        Sparseness in (0, 1].
    alpha : float
        Load, 0 < α < α_C(f).
    theta : float
        Threshold in [−1e6, 1e6].
    cv : float
        Coefficient of variation of the non-zero rates, in (0, 1e6].
    n : float
        Exponent of g = ⌊h⌋₊ⁿ, in (0, 100].

    Returns
    -------
    RowMoments

    Examples
    --------
    Note §3.3 quotes q = 1.133, m = −1.226 for f = 0.3, α = 0.6, θ = −0.5, CV = 1 (this
    solver: 0.2 % and 0.6 % off); f = 1 is Eq. 6 (q = α/(1−α) at CV = 1):

    >>> mom = replica_row_moments(0.3, 0.6, -0.5)
    >>> round(mom.q, 3), round(mom.m, 3)
    (1.135, -1.234)
    >>> round(replica_row_moments(1.0, 0.5, 0.0).q, 12)
    1.0
    """
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    theta, cv, n = check_theta(theta), check_cv(cv), check_exponent(n)
    cap = sparse_capacity(f)
    alpha = check_fraction(alpha, "alpha", 0.0, cap.alpha_c, open_lo=True, open_hi=True)
    s2 = math.log1p(cv * cv)
    mu = -0.5 * s2
    x1, x2 = f, f * (1.0 + cv * cv) - f * f
    y1 = math.exp(mu / n + 0.5 * s2 / n**2)
    y2 = math.exp(2.0 * mu / n + 2.0 * s2 / n**2) - y1 * y1
    if f == 1.0:  # Eqs. 6-7: θ₀ = −a, α⁻¹ = y₂ a²/y₁² + 1
        a = y1 * math.sqrt((1.0 / alpha - 1.0) / y2)
        t = -a
    else:

        def a_of(t: float) -> float:
            return -_replica_F(t, f) / f

        def G(t: float) -> float:
            a = a_of(t)
            Ht, ht = float(ndtr(-t)), _h(t)
            tail = (1.0 - f) * ((t * t + 1.0) * Ht - t * ht)
            return f * (t + a) ** 2 + f * (y2 / y1**2) * a * a + f + tail - 1.0 / alpha

        t = brentq(G, cap.theta0_c - 60.0, cap.theta0_c - 1e-12, xtol=1e-14)
        a = a_of(t)
    q = y1 * y1 / (x2 * a * a)
    m = (theta - t * math.sqrt(x2 * q)) / x1
    return RowMoments(
        f=f,
        alpha=float(alpha),
        theta=theta,
        cv=cv,
        n=n,
        theta0=float(t),
        q=q,
        m=m,
        alpha_c=cap.alpha_c,
    )


def capacity_curve(f: Any) -> CapacityCurve:
    """α_C(f) of the replica theory on a grid, with the asymptote 1/(2 f ln(1/f)) (Fig. 5g).

    Notes
    -----
    The paper states α_C ~ 1/(f log(1/f)) as f → 0; the constant ½ is the note's derivation
    ([derived]: θ₀c ≈ √(2 ln(1/f))). Convergence is slow: α_C · 2 f ln(1/f) is 1.64 at
    f = 0.001 (note §2.1 table).

    Parameters
    ----------
    f : array_like
        Sparseness values in (0, 1], at least one.

    Returns
    -------
    CapacityCurve

    Examples
    --------
    >>> curve = capacity_curve([0.1, 1.0])
    >>> [round(float(a), 3) for a in curve.alpha_c]
    [3.769, 1.0]
    """
    fs = as_real_vector(f, "f", 0.0, 1.0, open_lo=True)
    caps = [sparse_capacity(float(v)) for v in fs]
    with np.errstate(divide="ignore", invalid="ignore"):
        asym = np.where(fs < 1.0, 1.0 / (2.0 * fs * np.log(1.0 / fs)), np.nan)
    return CapacityCurve(
        f=fs,
        alpha_c=np.array([c.alpha_c for c in caps]),
        theta0_c=np.array([c.theta0_c for c in caps]),
        asymptote=asym,
    )


def _h(t: float) -> float:
    return math.exp(-0.5 * t * t) / math.sqrt(2.0 * math.pi)


def _replica_F(t: float, f: float) -> float:
    """F(t) = f t + (1−f)(t H(t) − h(t)), increasing in t (note §2.1)."""
    return f * t + (1.0 - f) * (t * float(ndtr(-t)) - _h(t))


# --------------------------------------------------------------------------------------------
# Spectra, kinks, scans
# --------------------------------------------------------------------------------------------


def kink_count(W: Any, R: Any, theta: float, tol: float = _KINK_TOL) -> np.ndarray:
    """Silent units sitting at threshold, per pattern: #{i : r_i^μ = 0, |(W r^μ)_i − θ| < tol}.

    Notes
    -----
    At the min-norm solution with κ = 0 many inequality constraints are active, so these units
    sit exactly on the kink of g, where g' is undefined (note §3.3, pitfall 13). With κ > 0
    they sit at −κ and the count is 0.

    Parameters
    ----------
    W : array_like, shape (N, N)
        Weights (finite; W R must stay finite).
    R : array_like, shape (N, P)
        Patterns (rates >= 0).
    theta : float
        Threshold in [−1e6, 1e6].
    tol : float
        Width of the band |h| < tol counted as "at threshold", in (0, 1).

    Returns
    -------
    ndarray of int, shape (P,)

    Examples
    --------
    >>> import numpy as np
    >>> kink_count(np.zeros((2, 2)), np.array([[1.0], [0.0]]), theta=0.0).tolist()
    [1]
    """
    theta, tol = check_theta(theta), _check_tol(tol)
    W = as_real_array(W, "W", xp=np)
    R = _check_sparse_patterns(R)
    if W.shape != (R.shape[0], R.shape[0]):
        raise ValueError(f"W must have shape ({R.shape[0]}, {R.shape[0]}), got {W.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        H = W @ R - theta
    if not bool(np.all(np.isfinite(H))):
        raise ValueError("W and R are too large for float64: the fields W R − theta overflow")
    return np.sum((R == 0) & (np.abs(H) < tol), axis=0)


def sparse_spectrum(
    net: SparseNetwork,
    patterns: int | Sequence[int] | None = None,
    *,
    kink: str = "zero",
    tol: float = _KINK_TOL,
) -> SparseSpectrum:
    """Jacobian spectra at stored sparse patterns, restricted to the active set (note §4.2).

    Notes
    -----
    J_μ = −I + diag(g'(h)) W with h = W r^μ − θ (Eq. 5). Silent units have zero rows in
    diag(g')W, so after a permutation J is block triangular and
    spec J = {−1} ∪ spec(−I + D_A W_AA) over the active set A. With the hard-rectified g,
    D_A = n r^{(n−1)/n} on units with r > 0. Silent units at threshold (|h| < tol) are the
    kink (pitfall 13): ``kink="zero"`` treats them as silent (g'(0) = 0, what an interior-point
    solver's h ≈ −1e−8 implies), ``kink="one"`` as active with gain 1 (the right derivative of
    the linear g). With a margin κ > 0 there are no kink units and both conventions agree.

    Parameters
    ----------
    net : SparseNetwork
        Square network from :func:`sparse_weights` (all rows solved).
    patterns : int or sequence of int, optional
        Pattern indices (default all).
    kink : {"zero", "one"}
        Convention for g'(0).
    tol : float
        Band |h| < tol counted as at threshold, in (0, 1).

    Returns
    -------
    SparseSpectrum

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[1.0, 0.0], [0.5, 2.0], [0.0, 1.0]])
    >>> spec = sparse_spectrum(sparse_weights(R, theta=-0.5), 0)
    >>> spec.n_active.tolist()
    [2]
    """
    check_instance(net, "net", SparseNetwork)
    kink = check_option(kink, "kink", _KINKS)
    tol = _check_tol(tol)
    if net.W.shape != (net.N, net.N):
        raise ValueError(
            f"net must hold all N rows (W of shape {(net.N, net.N)}), got W of shape {net.W.shape}"
        )
    if not net.all_feasible:
        raise ValueError(
            "net does not store every pattern (some rows infeasible); "
            "spectra of non-fixed points are meaningless"
        )
    mus = np.asarray(_check_pattern_indices(patterns, net.P), int)
    return _sparse_spectrum(net, mus, kink, tol)


def _sparse_spectrum(net: SparseNetwork, mus: Any, kink: str, tol: float) -> SparseSpectrum:
    """:func:`sparse_spectrum` on validated arguments (a square, feasible network)."""
    mus = np.asarray(mus, int)
    eigs, absc, nact, nkink = [], [], [], []
    for mu in mus:
        ev, n_kink, n_act = _active_eigenvalues(net, int(mu), kink, tol)
        eigs.append(ev)
        absc.append(max(-1.0, float(ev.real.max())) if ev.size else -1.0)
        nact.append(n_act)
        nkink.append(n_kink)
    return SparseSpectrum(
        patterns=mus,
        eigenvalues=tuple(eigs),
        abscissa=np.asarray(absc),
        n_active=np.asarray(nact),
        n_kink=np.asarray(nkink),
        kink=kink,
    )


def _active_eigenvalues(
    net: SparseNetwork, mu: int, kink: str, tol: float
) -> tuple[np.ndarray, int, int]:
    r = net.R[:, mu]
    h = net.W @ r - net.theta
    on = r > 0
    at_kink = ~on & (np.abs(h) < tol)
    d = np.zeros(net.N)
    d[on] = gain(r[on], 0.0, net.n)
    if kink == "one":
        d[at_kink] = 1.0
    A = np.flatnonzero(d > 0) if kink == "one" else np.flatnonzero(on)
    J_AA = d[A, None] * net.W[np.ix_(A, A)] - np.eye(A.size)
    ev = scipy.linalg.eigvals(J_AA) if A.size else np.zeros(0, complex)
    return ev, int(at_kink.sum()), int(A.size)


def sparse_stability_scan(
    N: int,
    f: float,
    alphas: Any,
    theta: float,
    kappa: float = 0.0,
    *,
    n: float = 1.0,
    cv: float = 1.0,
    patterns: int = 4,
    rng: Any = 0,
    kink: str = "zero",
    tol: float = 1e-6,
) -> SparseStabilityScan:
    """Fraction of rows stored and of patterns stable versus load (Figs. 5e and 6a-d).

    Notes
    -----
    For each α a fresh pattern set R (N × round(αN), :func:`sample_patterns`) is stored with
    :func:`sparse_weights`; when every row is feasible, the active-set spectra of the first
    ``patterns`` patterns are computed (:func:`sparse_spectrum`) and a pattern counts as stable
    when its abscissa is < −tol (note pitfall 11).

    Parameters
    ----------
    N : int
        Neurons (>= 10).
    f : float
        Sparseness in (0, 1].
    alphas : array_like
        Loads in (0, 1e3], at least one (P = round(αN) >= 1). Above capacity a load has
        ``stored_fraction`` < 1 and NaN abscissa and kink count (no fixed point to examine).
    theta : float
        Threshold in [−1e6, 1e6].
    kappa : float
        Margin κ in [0, 1e6] (an extension; 0 is the paper's problem).
    n, cv : float
        Exponent of g in (0, 100] and coefficient of variation of the non-zero rates in
        (0, 1e6].
    patterns : int
        Patterns tested per load (>= 1; capped at P).
    rng : int or numpy.random.Generator
        Seed or generator.
    kink : {"zero", "one"}
        Convention for g'(0) (irrelevant when κ > 0).
    tol : float
        Feasibility and stability tolerance, in (0, 1).

    Returns
    -------
    SparseStabilityScan

    Examples
    --------
    >>> scan = sparse_stability_scan(40, 0.5, [0.2], theta=-0.5, kappa=0.1, patterns=2)
    >>> float(scan.stored_fraction[0])
    1.0
    """
    N = check_positive_int(N, "N", minimum=10)
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    theta, kappa = check_theta(theta), check_kappa(kappa)
    n, cv = check_exponent(n), check_cv(cv)
    patterns = check_positive_int(patterns, "patterns")
    kink = check_option(kink, "kink", _KINKS)
    tol = _check_tol(tol)
    a = _check_loads(alphas, N)
    gen = as_rng(rng)
    out = np.full((4, a.size), np.nan)
    for i, alpha in enumerate(a):
        R = sample_patterns(N, round(alpha * N), cv, gen, f=f)
        net = _sparse_weights(R, theta, n, kappa, np.arange(N), tol)
        out[0, i] = net.feasible.mean()
        out[1, i] = 0.0
        if net.all_feasible:
            spec = _sparse_spectrum(net, range(min(patterns, net.P)), kink, _KINK_TOL)
            out[1, i] = np.mean(spec.abscissa < -tol)
            out[2, i] = spec.abscissa.mean()
            out[3, i] = spec.n_kink.mean()
    return SparseStabilityScan(
        alphas=a,
        stored_fraction=out[0],
        stable_fraction=out[1],
        mean_abscissa=out[2],
        mean_kink=out[3],
        f=f,
        theta=theta,
        kappa=kappa,
        n=n,
        cv=cv,
        N=N,
        alpha_c=sparse_capacity(f).alpha_c,
    )


def storage_fraction(
    N: int,
    f: float,
    alphas: Any,
    *,
    theta: float = -0.5,
    kappa: float = 0.0,
    n: float = 1.0,
    cv: float = 1.0,
    rows: int = 20,
    rng: Any = 0,
) -> StorageScan:
    """Empirical storage capacity: fraction of rows with a feasible Eq. 24 (Fig. 5e).

    Notes
    -----
    A row stores every pattern iff its constraint set 𝒱 (Eq. 24 of the appendix, with margin
    κ) is non-empty; this is decided exactly by a linear program (HiGHS), with no QP. The
    replica theory predicts the fraction to drop from 1 to 0 at α_C(f) as N → ∞ (independent
    of θ, n, CV, C13); at small N the drop is smeared.

    Parameters
    ----------
    N : int
        Neurons (>= 10).
    f : float
        Sparseness in (0, 1].
    alphas : array_like
        Loads in (0, 1e3], at least one (round(αN) >= 1).
    theta, kappa, n, cv : float
        Threshold in [−1e6, 1e6], margin κ in [0, 1e6], exponent in (0, 100], CV of the
        non-zero rates in (0, 1e6].
    rows : int
        Rows tested per load (1 <= rows <= N).
    rng : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    StorageScan

    Examples
    --------
    Far below capacity every row is feasible:

    >>> float(storage_fraction(40, 0.5, [0.3], rows=5).stored_fraction[0])
    1.0
    """
    N = check_positive_int(N, "N", minimum=10)
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    theta, kappa = check_theta(theta), check_kappa(kappa)
    n, cv = check_exponent(n), check_cv(cv)
    rows = check_positive_int(rows, "rows", maximum=N)
    a = _check_loads(alphas, N)
    gen = as_rng(rng)
    frac = np.zeros(a.size)
    for i, alpha in enumerate(a):
        R = sample_patterns(N, round(alpha * N), cv, gen, f=f)
        G = R.T @ R
        ok = []
        for k in range(rows):
            A, _, b, eq = _row_problem(R, G, k, theta, n, kappa)
            ok.append(_lp_point(A, b, eq) is not None)
        frac[i] = np.mean(ok)
    return StorageScan(
        alphas=a, stored_fraction=frac, f=f, kappa=kappa, N=N, alpha_c=sparse_capacity(f).alpha_c
    )


def storage_midpoints(
    N: int,
    f: float,
    alphas: Any,
    *,
    theta: float = -0.5,
    kappa: float = 0.0,
    n: float = 1.0,
    cv: float = 1.0,
    rows: int = 10,
    seeds: int = 20,
) -> StorageMidpoints:
    """Load at which half the rows stop storing every pattern, over seeds 0, …, seeds − 1 (C13).

    Notes
    -----
    Row s of the result is :func:`storage_fraction` with ``rng=s``. Its midpoint α_½ is the
    first load whose stored fraction is below 1/2, interpolated linearly from the load before:
    α_½ = α_{j−1} + (F_{j−1} − ½)/(F_{j−1} − F_j) · (α_j − α_{j−1}). The replica theory puts
    the drop at α_C(f) for N → ∞ whatever θ, n and CV (C13). Two calls with the same seeds and
    f draw the same zero masks, so their midpoints can be compared seed by seed.

    Parameters
    ----------
    N, f, alphas, theta, kappa, n, cv, rows
        As in :func:`storage_fraction`, which checks them.
    seeds : int
        Number of seeds (>= 1).

    Returns
    -------
    StorageMidpoints

    Examples
    --------
    Every row stores at α = 0.3 and none at 3 (α_C(0.5) = 1.44), so the midpoint lies between:

    >>> s = storage_midpoints(40, 0.5, [0.3, 3.0], rows=4, seeds=2)
    >>> s.stored_fraction.tolist(), bool(np.all((s.alpha_half > 0.3) & (s.alpha_half < 3)))
    ([[1.0, 0.0], [1.0, 0.0]], True)
    """
    seeds = check_positive_int(seeds, "seeds")
    scans = [
        storage_fraction(N, f, alphas, theta=theta, kappa=kappa, n=n, cv=cv, rows=rows, rng=s)
        for s in range(seeds)
    ]
    a = scans[0].alphas
    frac = np.array([sc.stored_fraction for sc in scans])
    return StorageMidpoints(
        alphas=a,
        stored_fraction=frac,
        alpha_half=np.array([_half_point(a, fr) for fr in frac]),
        f=scans[0].f,
        kappa=scans[0].kappa,
        N=scans[0].N,
        alpha_c=scans[0].alpha_c,
    )


def _half_point(a: np.ndarray, frac: np.ndarray) -> float:
    """First load with frac < 1/2, interpolated from the load before; NaN if none or at 0."""
    below = np.flatnonzero(frac < 0.5)
    if below.size == 0 or below[0] == 0:
        return float("nan")
    j = int(below[0])
    step = (frac[j - 1] - 0.5) / (frac[j - 1] - frac[j])
    return float(a[j - 1] + step * (a[j] - a[j - 1]))


def row_moment_sample(
    N: int,
    f: float,
    alpha: float,
    theta: float,
    *,
    networks: int = 4,
    rows: int = 40,
    n: float = 1.0,
    cv: float = 1.0,
    rng: Any = 0,
) -> RowMomentSample:
    """Squared norm q and sum m of min-norm QP rows over several networks (appendix, Fig. 5c,d).

    Notes
    -----
    Each network draws fresh sparse patterns (N × round(αN)) from one generator and solves
    rows 0, …, rows − 1 of Eq. 4 with :func:`sparse_weights` (κ = 0). The replica theory
    (:func:`replica_row_moments`) predicts the typical row for N → ∞; the network means give
    a standard error that includes the network-to-network scatter.

    Parameters
    ----------
    N : int
        Neurons (>= 10).
    f : float
        Sparseness in (0, 1].
    alpha : float
        Load in (0, 1e3] (round(αN) >= 1), below capacity.
    theta : float
        Threshold in [−1e6, 1e6].
    networks : int
        Networks drawn (>= 1).
    rows : int
        Rows solved per network (1 <= rows <= N).
    n, cv : float
        Exponent in (0, 100] and CV of the non-zero rates in (0, 1e6].
    rng : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    RowMomentSample

    Raises
    ------
    ValueError
        If a solved row is infeasible (the load is above that row's capacity).

    Examples
    --------
    >>> s = row_moment_sample(40, 0.5, 0.3, -0.5, networks=2, rows=3)
    >>> s.q.shape, bool(np.all(s.q > 0))
    ((2, 3), True)
    """
    N = check_positive_int(N, "N", minimum=10)
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    alpha = _check_load(alpha, N)
    theta, n, cv = check_theta(theta), check_exponent(n), check_cv(cv)
    networks = check_positive_int(networks, "networks")
    rows = check_positive_int(rows, "rows", maximum=N)
    gen = as_rng(rng)
    q = np.zeros((networks, rows))
    m = np.zeros((networks, rows))
    for i in range(networks):
        R = sample_patterns(N, round(alpha * N), cv, gen, f=f)
        net = _sparse_weights(R, theta, n, 0.0, np.arange(rows), 1e-6)
        if not net.all_feasible:
            raise ValueError(
                f"alpha={alpha} is above the capacity of network {i} at f={f}, theta={theta}"
            )
        q[i], m[i] = net.q, net.m
    return RowMomentSample(q=q, m=m, f=f, alpha=alpha, theta=theta, N=N)


def _check_loads(alphas: Any, N: int, name: str = "alphas") -> np.ndarray:
    """Loads in (0, ALPHA_MAX] with round(α N) >= 1 and an N × P pattern matrix under the cap."""
    a = as_real_vector(alphas, name, 0.0, ALPHA_MAX, open_lo=True)
    if np.any(np.rint(a * N) < 1):
        raise ValueError(f"{name} must give P = round({name} N) >= 1 at N = {N}, got {a.tolist()}")
    check_matrix_size(N, round(float(a.max()) * N), name)
    return a


def _check_load(alpha: Any, N: int) -> float:
    """One load α in (0, ALPHA_MAX] with round(α N) >= 1, checked as :func:`_check_loads`."""
    alpha = check_fraction(alpha, "alpha", 0.0, ALPHA_MAX, open_lo=True, open_hi=False)
    return float(_check_loads(alpha, N, "alpha")[0])


def sparse_threshold_scan(
    N: int,
    f: float,
    alpha: float,
    thetas: Any,
    kappa: float = 0.1,
    *,
    n: float = 1.0,
    cv: float = 1.0,
    patterns: int = 4,
    rng: Any = 0,
) -> ThresholdScan:
    """Mean spectral abscissa of sparse patterns versus θ, same patterns for every θ (C15).

    Notes
    -----
    The paper's numerics choose θ by finite differences of the abscissa and find the optimum
    always negative (Fig. 6c, C15). With n = 1, θ = 0 is exactly marginal: r → c r maps fixed
    points to fixed points (homogeneity, note §3.3), so the abscissa is 0 there. Stability uses
    the active-set spectrum (:func:`sparse_spectrum`, convention g'(0) = 0; use κ > 0).

    Parameters
    ----------
    N : int
        Neurons (>= 10).
    f : float
        Sparseness in (0, 1].
    alpha : float
        Load in (0, 1e3] (round(αN) >= 1), below capacity at every θ.
    thetas : array_like
        Thresholds in [−1e6, 1e6], at least one.
    kappa, n, cv : float
        Margin κ in [0, 1e6], exponent in (0, 100], CV of the non-zero rates in (0, 1e6].
    patterns : int
        Patterns tested (>= 1).
    rng : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    ThresholdScan

    Examples
    --------
    >>> scan = sparse_threshold_scan(40, 0.5, 0.2, [-0.5, 0.0], patterns=2)
    >>> abs(float(scan.mean_abscissa[1])) < 1e-8
    True
    """
    N = check_positive_int(N, "N", minimum=10)
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    alpha = _check_load(alpha, N)
    th = theta_vector(thetas, "thetas")
    kappa, n, cv = check_kappa(kappa), check_exponent(n), check_cv(cv)
    patterns = check_positive_int(patterns, "patterns")
    R = sample_patterns(N, round(alpha * N), cv, as_rng(rng), f=f)
    out = np.zeros((3, th.size))
    for i, theta in enumerate(th):
        net = _sparse_weights(R, float(theta), n, kappa, np.arange(N), 1e-6)
        if not net.all_feasible:
            raise ValueError(
                f"alpha={alpha} is above this network's capacity at f={f}, theta={theta}, "
                f"kappa={kappa}"
            )
        spec = _sparse_spectrum(net, range(min(patterns, net.P)), "zero", _KINK_TOL)
        out[:, i] = spec.abscissa.mean(), np.mean(spec.abscissa < -1e-6), net.m.mean()
    return ThresholdScan(
        thetas=th,
        mean_abscissa=out[0],
        stable_fraction=out[1],
        mean_row_sum=out[2],
        best_theta=float(th[np.argmin(out[0])]),
        f=f,
        alpha=alpha,
        kappa=kappa,
        N=N,
    )


def threshold_optima(
    N: int,
    fs: Any,
    alphas: Any,
    thetas: Any,
    kappa: float = 0.1,
    *,
    seeds: int = 3,
    patterns: int = 4,
) -> ThresholdOptima:
    """Best θ of :func:`sparse_threshold_scan` for every f, every α and seeds 0, …, seeds − 1.

    Notes
    -----
    One scan per (f, α, seed), n = 1 and CV = 1, with the patterns of that seed for every θ.
    The paper finds the optimal threshold always negative (Fig. 6c, C15); where no θ makes the
    patterns stable (``best_abscissa`` >= 0) the optimum says nothing about stability.

    Parameters
    ----------
    N : int
        Neurons (>= 10).
    fs : array_like
        Sparseness values in (0, 1], at least one.
    alphas : array_like
        Loads in (0, 1e3] (round(αN) >= 1), at least one, below capacity at every θ.
    thetas : array_like
        Thresholds in [−1e6, 1e6], at least one.
    kappa : float
        Margin κ in [0, 1e6].
    seeds : int
        Seeds per (f, α) (>= 1).
    patterns : int
        Patterns tested per scan (>= 1).

    Returns
    -------
    ThresholdOptima

    Examples
    --------
    >>> o = threshold_optima(40, [0.3], [0.2], [-0.5, 0.0, 0.5], seeds=2, patterns=2)
    >>> o.best_theta.tolist(), bool(np.all(o.best_abscissa < 0))
    ([-0.5, -0.5], True)
    """
    f_arr = as_real_vector(fs, "fs", 0.0, 1.0, open_lo=True)
    a_arr = _check_loads(alphas, check_positive_int(N, "N", minimum=10))
    kappa, seeds = check_kappa(kappa), check_positive_int(seeds, "seeds")
    rows = []
    for f in f_arr:
        for alpha in a_arr:
            for s in range(seeds):
                try:
                    scan = sparse_threshold_scan(
                        N, float(f), float(alpha), thetas, kappa, patterns=patterns, rng=s
                    )
                except ValueError as err:
                    if "capacity" not in str(err):
                        raise
                    raise ValueError(
                        f"alphas must lie below capacity at every theta: {err}"
                    ) from err
                rows.append((f, alpha, s, scan.best_theta, float(scan.mean_abscissa.min())))
    f_col, a_col, s_col, best, low = (np.array(c) for c in zip(*rows, strict=True))
    return ThresholdOptima(
        f=f_col.astype(float),
        alpha=a_col.astype(float),
        seed=s_col.astype(int),
        best_theta=best.astype(float),
        best_abscissa=low.astype(float),
        kappa=kappa,
        N=int(N),
    )


def kink_profile(
    f: float = 0.2,
    kappa: float = 0.0,
    *,
    N: int = 100,
    alpha: float = 0.3,
    theta: float = -0.5,
    cv: float = 1.0,
    n: float = 1.0,
    seed: int = 0,
) -> KinkProfile:
    """Sorted silent-unit fields and active-set spectra of pattern 0 (the exploration).

    Notes
    -----
    Stores round(αN) sparse patterns with :func:`sparse_weights` (cached per parameter set)
    and returns the fields h of the silent units of pattern 0 and the spectra of
    −I + D_A W_AA under both conventions for g'(0) (note §3.3, pitfall 13). With κ = 0 a mass of
    fields sits at h = 0; with κ > 0 they stop at −κ.

    Parameters
    ----------
    f : float
        Sparseness in (0, 1]; round(αN) patterns must lie below capacity (α < α_C(f)).
    kappa : float
        Margin κ in [0, 1e6].
    N : int
        Neurons (>= 10).
    alpha, theta, cv, n : float
        Load in (0, 1e3] (round(αN) >= 1), threshold in [−1e6, 1e6], CV of the non-zero rates
        in (0, 1e6], exponent in (0, 100].
    seed : int
        Pattern seed (>= 0).

    Returns
    -------
    KinkProfile

    Examples
    --------
    >>> prof = kink_profile(0.2, 0.1, N=40)
    >>> prof.n_kink, bool(prof.h_silent.max() <= -0.1 + 1e-6)
    (0, True)
    """
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    kappa = check_kappa(kappa)
    N = check_positive_int(N, "N", minimum=10)
    alpha = _check_load(alpha, N)
    theta, cv, n = check_theta(theta), check_cv(cv), check_exponent(n)
    seed = check_positive_int(seed, "seed", minimum=0)
    net = _cached_network(f, kappa, N, alpha, theta, cv, n, seed)
    if not net.all_feasible:
        raise ValueError(
            f"alpha={alpha} is above the capacity of this network at f={f} "
            f"(replica alpha_C = {sparse_capacity(f).alpha_c:.3f})"
        )
    r = net.R[:, 0]
    h = net.W @ r - net.theta
    zero = _sparse_spectrum(net, [0], "zero", _KINK_TOL)
    one = _sparse_spectrum(net, [0], "one", _KINK_TOL)
    return KinkProfile(
        h_silent=np.sort(h[r == 0]),
        eigenvalues=zero.eigenvalues[0],
        eigenvalues_one=one.eigenvalues[0],
        abscissa=float(zero.abscissa[0]),
        abscissa_one=float(one.abscissa[0]),
        n_kink=int(zero.n_kink[0]),
        n_silent=int(np.sum(r == 0)),
        f=f,
        kappa=kappa,
        alpha=alpha,
        theta=net.theta,
        N=N,
    )


@functools.lru_cache(maxsize=64)
def _cached_network(
    f: float, kappa: float, N: int, alpha: float, theta: float, cv: float, n: float, seed: int
) -> SparseNetwork:
    R = sample_patterns(N, round(alpha * N), cv, seed, f=f)
    return _sparse_weights(R, theta, n, kappa, np.arange(N), 1e-6)
