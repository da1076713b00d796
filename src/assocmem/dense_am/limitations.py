"""Limitations of the LSR energy (paper App. A) and two remedies the paper leaves to future work.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*, App. A ("Limitations"). Chapter note §1.5 (last item) and §5.1 item 11.

App. A: the LSR gradient vanishes exactly outside the support of the stored patterns, so
gradient-based retrieval fails for a query far from every pattern, while the LSE gradient is
non-zero everywhere. The paper names two remedies and studies neither:

- a query-dependent inverse temperature β(x) that puts the query inside at least one support
  ball (:func:`adaptive_beta`, :func:`adaptive_beta_retrieve`);
- a "hybrid" energy combining LSE and LSR (:func:`hybrid_energy`, :func:`hybrid_descend`).

**Neither remedy is in the paper's experiments.** The concrete forms here are our choices, made
to illustrate App. A and marked as such in every docstring: β(x) = min(β, 2ρ/d_min(x)²) in an
approach phase, then Algorithm 1 at β; and E = E_LSR + λ E_LSE with ϵ > 0.

Notation map
------------
- Ξ = {ξ_μ}                     -> ``memories``, shape ``(M, d)``
- β                             -> ``beta``; R = sqrt(2/β) the support radius
- ϵ (floor inside the LSR log)  -> ``eps`` (never the novelty radius ε)
- B(x)                          -> strict active set {μ : ||x - ξ_μ||² < 2/β} (note §0)
- λ (hybrid weight, ours)       -> ``lam``
- ρ (β(x) safety factor, ours)  -> ``rho``: β(x) = min(β, 2ρ / d_min(x)²), 0 < ρ < 1
- α (GD step of eq. (6))        -> ``step``

Public functions
----------------
``far_query``, ``hybrid_energy``, ``hybrid_grad``, ``hybrid_descend``, ``adaptive_beta``,
``adaptive_beta_retrieve``, ``hybrid_shift``, ``limitations_playground``.

Exploration results for earlier sections of the chapter live here too, because they only
assemble library calls for one figure each: ``kde_explorer`` (Sec. 2: a KDE against a known 1-D
mixture, with ISE(h) curves and the corrected h*), ``generative_panels`` and ``sweep_summary``
(Sec. 4.2 / Fig. 3 right at reduced size) and ``generative_2d`` (Sec. 4.2 in d = 2: mixture
contours, stored patterns, LSR and LSE memories).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ABS_ENTRY,
    MAX_ELEMENTS,
    MAX_STEPS,
    ConvergenceWarning,
    as_memories,
    as_points,
    as_real_vector,
    check_beta,
    check_fraction,
    check_instance,
    check_int_sequence,
    check_nonneg_float,
    check_option,
    check_positive_float,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.dense_am.energy import (
    _lse_energy,
    _lse_grad,
    _lse_mean,
    _lsr_energy,
    _lsr_parts,
    _safe_divide,
    _sqdist,
)
from assocmem.dense_am.generative import (
    GenerativeSweep,
    compare_lse_lsr,
    generative_sweep,
    gmm_log_density,
    gmm_sample,
    shell_starts,
)
from assocmem.dense_am.kde import (
    ISECurves,
    _check_kernel,
    amise_optimal_bandwidth,
    gmm_1d_density,
    gmm_1d_second_derivative_roughness,
    ise_curves,
    kde_1d,
    paper_bandwidth,
)
from assocmem.dense_am.retrieval import (
    _algorithm1,
    _lse_descend_checked,
    _row_norm,
)

__all__ = [
    "KDE_KERNELS",
    "KDE_TARGET",
    "METHODS",
    "AdaptiveBetaRetrieval",
    "FarQuery",
    "Generative2D",
    "HybridDescent",
    "KDEView",
    "Playground",
    "SweepSummary",
    "adaptive_beta",
    "adaptive_beta_retrieve",
    "far_query",
    "generative_2d",
    "generative_panels",
    "hybrid_descend",
    "hybrid_energy",
    "hybrid_grad",
    "hybrid_shift",
    "kde_explorer",
    "limitations_playground",
    "sweep_summary",
]

#: Retrieval rules compared by :func:`limitations_playground`.
METHODS = ("lsr", "lse", "hybrid", "beta_x")

#: The 1-D target density of :func:`kde_explorer`: weights, means, standard deviations.
KDE_TARGET = ((0.6, 0.4), (-1.0, 1.5), (0.6, 0.8))

#: Kernels compared in the ISE panel of :func:`kde_explorer`.
KDE_KERNELS = ("epanechnikov", "gaussian", "uniform", "triangular")

_KDE_GRID = (-4.5, 5.5, 801)  # integration / plotting grid of kde_explorer
_KDE_H = (0.05, 2.0, 40)  # log-spaced bandwidths of the ISE curves

_ARMIJO = 1e-4  # sufficient-decrease constant of the backtracking line search
_MAX_HALVINGS = 60  # step halvings before a row is declared stuck


@dataclass(frozen=True)
class FarQuery:
    """Far-query behaviour of LSR and LSE gradient descent (paper App. A).

    Attributes
    ----------
    lsr_path : numpy.ndarray, shape (T + 1, B, d)
        Iterates of LSR retrieval (Algorithm 1, i.e. GD with the adaptive step D/|B|).
    lse_path : numpy.ndarray, shape (T + 1, B, d)
        Iterates of LSE gradient descent, eq. (6), with the fixed step α.
    lsr_grad_norm : numpy.ndarray, shape (B,)
        ||∇E_LSR(x0)|| with the given ϵ (exactly 0 for an unsupported query).
    lse_grad_norm : numpy.ndarray, shape (B,)
        ||∇E_LSE(x0)||.
    supported : numpy.ndarray of bool, shape (B,)
        Whether B(x0) is non-empty.
    lsr_moved, lse_moved : numpy.ndarray, shape (B,)
        Distance from x0 to the last iterate.
    nearest : numpy.ndarray, shape (B,)
        Distance from x0 to its nearest stored pattern.
    radius : float
        R = sqrt(2/β).
    """

    lsr_path: np.ndarray
    lse_path: np.ndarray
    lsr_grad_norm: np.ndarray
    lse_grad_norm: np.ndarray
    supported: np.ndarray
    lsr_moved: np.ndarray
    lse_moved: np.ndarray
    nearest: np.ndarray
    radius: float


@dataclass(frozen=True)
class HybridDescent:
    """Result of :func:`hybrid_descend` (hybrid energy; not in the paper's experiments).

    Attributes
    ----------
    points : array, shape (B, d) or (d,)
        Final iterates.
    n_iter : array of int, shape (B,), or int
        Accepted steps per start.
    grad_norm : array, shape (B,), or float
        ||∇E_hyb|| at the final iterate.
    converged : array of bool, shape (B,), or bool
        ``grad_norm < tol * max(1, lam)``.
    energy : array, shape (B,), or float
        E_hyb at the final iterate.
    """

    points: Any
    n_iter: Any
    grad_norm: Any
    converged: Any
    energy: Any


@dataclass(frozen=True)
class AdaptiveBetaRetrieval:
    """Result of :func:`adaptive_beta_retrieve` (β(x); not in the paper's experiments).

    Attributes
    ----------
    points : array, shape (B, d) or (d,)
        Final points after both phases.
    first_phase : array, shape (B, d) or (d,)
        End points of the approach phase (where β(z) reached β, or the iteration stalled).
    beta_query : array, shape (B,), or float
        β(x0) = min(β, 2ρ / d_min(x0)²) at the query.
    active : array of bool, shape (B, M) or (M,)
        Strict active set B(z) at the base β at the final point.
    exact : array of bool, shape (B,), or bool
        Whether the final point is an exact LSR minimum at the base β: B(z) is non-empty and z
        equals the centroid of B(z) to the last bit (self-consistent, note §1.7).
    n_iter : array of int, shape (B,), or int
        Centroid updates in both phases together.
    """

    points: Any
    first_phase: Any
    beta_query: Any
    active: Any
    exact: Any
    n_iter: Any


@dataclass(frozen=True)
class Playground:
    """Queries and where a retrieval rule sends them (the App. A playground figure).

    Attributes
    ----------
    method : str
        One of :data:`METHODS`.
    memories : numpy.ndarray, shape (M, d)
        Stored patterns.
    beta : float
        Base inverse temperature.
    radius : float
        R = sqrt(2/β).
    queries : numpy.ndarray, shape (Q, d)
        Start points.
    final : numpy.ndarray, shape (Q, d)
        Where the rule ends.
    supported : numpy.ndarray of bool, shape (Q,)
        Whether each query lies inside some support ball at the base β.
    moved : numpy.ndarray of bool, shape (Q,)
        Whether the query moved at all.
    exact : numpy.ndarray of bool, shape (Q,)
        Whether the end point is an exact LSR minimum (self-consistent centroid) at β.
    nearest : numpy.ndarray, shape (Q,)
        Distance from each end point to its nearest stored pattern.
    """

    method: str
    memories: np.ndarray
    beta: float
    radius: float
    queries: np.ndarray
    final: np.ndarray
    supported: np.ndarray
    moved: np.ndarray
    exact: np.ndarray
    nearest: np.ndarray

    @property
    def frac_stuck(self) -> float:
        """Fraction of queries that did not move."""
        return float(np.mean(~self.moved))

    @property
    def frac_exact(self) -> float:
        """Fraction of queries that end exactly on an LSR minimum at β."""
        return float(np.mean(self.exact))


@dataclass(frozen=True)
class KDEView:
    """One state of the KDE explorer (paper Sec. 2; note §2.1, §5.1 item 2).

    Attributes
    ----------
    kernel : str
        Kernel of the displayed estimate.
    h : float
        Its bandwidth.
    samples : numpy.ndarray, shape (M,)
        Data drawn from the target.
    grid : numpy.ndarray, shape (G,)
        Evaluation grid.
    truth : numpy.ndarray, shape (G,)
        Target density f.
    estimate : numpy.ndarray, shape (G,)
        KDE f̂_h with ``kernel``.
    ise_at_h : float
        ∫ (f̂_h − f)² on the grid.
    h_star : float
        Corrected AMISE-optimal bandwidth for ``kernel`` (note §2.1).
    h_paper : float
        The bandwidth as printed in paper eq. (2) (extra factor 4), = 4^(1/5) h_star.
    curves : ISECurves
        ISE(h) of the kernels in :data:`KDE_KERNELS` for these samples.
    """

    kernel: str
    h: float
    samples: np.ndarray
    grid: np.ndarray
    truth: np.ndarray
    estimate: np.ndarray
    ise_at_h: float
    h_star: float
    h_paper: float
    curves: ISECurves


@dataclass(frozen=True)
class Generative2D:
    """LSR and LSE memories of a 2-D Gaussian-mixture sample (paper Sec. 4.2 in d = 2).

    Attributes
    ----------
    beta : float
        Inverse temperature.
    memories : numpy.ndarray, shape (M, 2)
        Stored patterns ξ_μ ~ p.
    means : numpy.ndarray, shape (k, 2)
        Mixture means.
    sigma : float
        Mixture standard deviation.
    grid_x, grid_y : numpy.ndarray, shape (G,)
        Axes of the log-density grid.
    log_p : numpy.ndarray, shape (G, G)
        log p on the grid, ``log_p[i, j]`` at (grid_x[j], grid_y[i]).
    lsr_points : numpy.ndarray, shape (K, 2)
        Distinct LSR memories reached from the shell starts (exact centroids).
    lsr_sizes : numpy.ndarray of int, shape (K,)
        Number of parents |K| of each (1 = a stored pattern).
    lse_points : numpy.ndarray, shape (L, 2)
        Distinct LSE memories (leader clusters at radius 2/sqrt(β), App. C.3.3).
    metrics : GenerativeComparison
        The three metrics of Fig. 3 (right) from the same starts.
    """

    beta: float
    memories: np.ndarray
    means: np.ndarray
    sigma: float
    grid_x: np.ndarray
    grid_y: np.ndarray
    log_p: np.ndarray
    lsr_points: np.ndarray
    lsr_sizes: np.ndarray
    lse_points: np.ndarray
    metrics: Any


@dataclass(frozen=True)
class SweepSummary:
    """The paper's three Sec. 4.2 claims (Q14) measured on one Fig. 3 (right) sweep.

    Attributes
    ----------
    n_beta : int
        Number of β values.
    best_lsr_logp, best_lse_logp : float
        Largest seed-mean log p over β, per energy.
    logp_wins : int
        β values where the LSR mean log p exceeds the LSE mean (orange bands).
    unique_ge : int
        β values where LSR has at least as many unique memories as LSE (mean over seeds).
    recovered_ge : int
        β values where LSR recovers at least as many stored patterns as LSE.
    max_unique_lsr, max_unique_lse : float
        Largest seed-mean number of unique memories over β.
    """

    n_beta: int
    best_lsr_logp: float
    best_lse_logp: float
    logp_wins: int
    unique_ge: int
    recovered_ge: int
    max_unique_lsr: float
    max_unique_lse: float


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def far_query(
    x0: Any,
    memories: Any,
    beta: float,
    step: float = 0.2,
    n_steps: int = 30,
    eps: float = 1e-8,
) -> FarQuery:
    """Follow LSR and LSE retrieval from queries near and far from the data (paper App. A).

    Notes
    -----
    LSR: Algorithm 1, which is gradient descent on eq. (3) with the adaptive step
    η(x) = D(x)/|B(x)| (note §1.5). Outside every support ball B(x) = ∅: the gradient of eqs.
    (7)-(8) is exactly zero for ϵ > 0 (and undefined for ϵ = 0), so the query never moves,
    whatever the step. LSE: eq. (6) with the fixed step α; its gradient
    x − Σ_μ p_μ(x) ξ_μ (note §1.3) is non-zero away from the data, so every query moves.

    Parameters
    ----------
    x0 : array_like, shape (d,) or (B, d)
        Queries.
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Inverse temperature, > 0.
    step : float, default 0.2
        LSE step α in (0, 2).
    n_steps : int, default 30
        Number of iterations recorded for both rules, >= 1 (the paths must fit in
        ``MAX_ELEMENTS``).
    eps : float, default 1e-8
        The floor ϵ >= 0 of eq. (3), used for the reported LSR gradient norm.

    Returns
    -------
    FarQuery
        Paths (NumPy, shape (T + 1, B, d)), gradient norms at x0, displacements.

    Examples
    --------
    One memory at 0 with R = 1 (β = 2): a query at 3 is unsupported and stays put under LSR.

    >>> res = far_query([[3.0]], [[0.0]], beta=2.0)
    >>> float(res.lsr_grad_norm[0]), float(res.lsr_moved[0]), bool(res.lse_moved[0] > 2)
    (0.0, 0.0, True)
    """
    beta = check_beta(beta)
    step = check_fraction(step, "step", lo=0.0, hi=2.0)
    n_steps = check_positive_int(n_steps, "n_steps")
    eps = check_nonneg_float(eps, "eps")
    X, Xi, _, xp = _prepare_points(x0, memories, "x0")
    check_size(
        (n_steps + 1) * X.size,
        "n_steps",
        "path coordinates",
        MAX_ELEMENTS // 2,
        "use fewer steps or queries",
    )
    thr = xp.full(X.shape[0], 2.0 / beta)
    lsr_path, lse_path = [X], [X]
    z_lsr, z_lse = X, X
    for _ in range(n_steps):
        z_lsr = _centroid_step(z_lsr, Xi, thr, xp)
        z_lse = (1.0 - step) * z_lse + step * _lse_mean(z_lse, Xi, beta, xp)  # x − α∇E
        lsr_path.append(z_lsr)
        lse_path.append(z_lse)
    d2 = _sqdist(X, Xi, xp)
    N, D, _ = _lsr_parts(X, Xi, beta, eps, xp)
    return FarQuery(
        lsr_path=to_numpy(xp.stack(lsr_path)),
        lse_path=to_numpy(xp.stack(lse_path)),
        lsr_grad_norm=to_numpy(_row_norm(_safe_divide(N, D[:, None], xp), xp)),
        lse_grad_norm=to_numpy(_row_norm(_lse_grad(X, Xi, beta, xp), xp)),
        supported=to_numpy(xp.any(d2 < 2.0 / beta, axis=1)),
        lsr_moved=to_numpy(_row_norm(z_lsr - X, xp)),
        lse_moved=to_numpy(_row_norm(z_lse - X, xp)),
        nearest=to_numpy(_nearest_distance(X, Xi, d2, xp)),
        radius=math.sqrt(2.0 / beta),
    )


def hybrid_energy(x: Any, memories: Any, beta: float, lam: float, eps: float = 1e-6) -> Any:
    """Hybrid energy E = E_LSR + λ E_LSE (App. A remedy; **not in the paper's experiments**).

    Notes
    -----
    App. A suggests combining the energies "taking advantage of LSE's non-zero gradient
    everywhere outside LSR's support"; it gives no formula. We take the simplest one,
    E_hyb(x) = E_LSR(x; ϵ) + λ E_LSE(x), with E_LSR from eq. (3) and E_LSE from note §1.3.
    ϵ must be > 0: with ϵ = 0 the LSR term is +∞ off the support and the sum is useless there.
    Price: ∇E_hyb(ξ_μ) = λ ∇E_LSE(ξ_μ) ≠ 0, so the stored patterns are no longer exact minima.

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Inverse temperature of both terms, > 0.
    lam : float
        Weight λ >= 0 of the LSE term (λ = 0 gives E_LSR).
    eps : float, default 1e-6
        Floor ϵ > 0 inside the LSR log.

    Returns
    -------
    float or array, shape (B,)
        E_hyb; +inf where E_LSE exceeds the float64 range (queries about 1e154 or more from
        every memory) and λ > 0.

    Examples
    --------
    One memory at 0, β = 2, at the memory: E_LSR = -log(1 + ϵ)/2 and E_LSE = 0.

    >>> round(hybrid_energy([0.0], [[0.0]], beta=2.0, lam=1.0, eps=1e-6), 9)
    -5e-07
    """
    beta, lam, eps = _check_hybrid(beta, lam, eps)
    X, Xi, single, xp = _prepare_points(x, memories, "x")
    E = _hybrid_energy(X, Xi, beta, lam, eps, xp)
    return float(E[0]) if single else E


def hybrid_grad(x: Any, memories: Any, beta: float, lam: float, eps: float = 1e-6) -> Any:
    """Gradient of :func:`hybrid_energy`: ∇E_LSR + λ ∇E_LSE (**not in the paper**).

    Notes
    -----
    ∇E_LSR from eqs. (7)-(8) (exactly 0 off the support for ϵ > 0) plus λ (x − Σ_μ p_μ ξ_μ)
    (note §1.3). Off the support only the LSE term acts, so far queries move.

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Inverse temperature, > 0.
    lam : float
        Weight λ >= 0 of the LSE term.
    eps : float, default 1e-6
        Floor ϵ > 0 inside the LSR log.

    Returns
    -------
    array, shape (d,) or (B, d)

    Examples
    --------
    Far from a single memory the LSR term is 0 and the gradient is λ x:

    >>> hybrid_grad([3.0], [[0.0]], beta=2.0, lam=0.5)
    array([1.5])
    """
    beta, lam, eps = _check_hybrid(beta, lam, eps)
    X, Xi, single, xp = _prepare_points(x, memories, "x")
    G = _hybrid_grad(X, Xi, beta, lam, eps, xp)
    return G[0] if single else G


def hybrid_descend(
    x0: Any,
    memories: Any,
    beta: float,
    lam: float,
    eps: float = 1e-6,
    step: float = 1.0,
    max_iter: int = 500,
    tol: float = 1e-7,
) -> HybridDescent:
    """Gradient descent with backtracking on the hybrid energy (**not in the paper**).

    Notes
    -----
    Each step tries x − a ∇E_hyb with the preconditioned trial step
    a(x) = ``step`` · D(x)/(|B(x)| + λ D(x)), D(x) = ϵ + Σ_μ ReLU(1 − β/2 ||x − ξ_μ||²), and
    halves a until the Armijo condition E(x − a g) <= E(x) − 1e-4 a ||g||² holds. For λ = 0 the
    trial step is Algorithm 1's D/|B| (note §1.5); off the support it is 1/λ, which makes the
    step the LSE mean-shift update. A fixed step is unsafe: near a support boundary the LSR
    gradient grows like R/ϵ (Pitfall P6). A start stops when ||∇E_hyb|| < tol, or when no
    halving decreases the energy (reported as not converged). The energy-based line search
    cannot resolve gradients much below sqrt(float64 eps) ≈ 1e-8, hence the default tol.

    Parameters
    ----------
    x0 : array_like, shape (d,) or (B, d)
        Starts.
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Inverse temperature, > 0.
    lam : float
        Weight λ >= 0 of the LSE term.
    eps : float, default 1e-6
        Floor ϵ > 0 inside the LSR log.
    step : float, default 1.0
        Multiplier of the preconditioned trial step, in (0, 2): the trial step with multiplier
        1 is the exact minimiser of the local quadratic model (Algorithm 1's jump for λ = 0), and
        a multiplier >= 2 overshoots it so far that the energy cannot decrease.
    max_iter : int, default 500
        Maximum accepted steps per start (at most ``MAX_STEPS``).
    tol : float, default 1e-7
        Gradient-norm tolerance, finite and > 0, relative to max(1, λ): a start stops when
        ||∇E_hyb|| < tol · max(1, λ). For λ > 1 the LSE term sets the gradient's scale
        (∇E_hyb ≈ λ ∇E_LSE far from the support), so an absolute tolerance could not be met in
        float64 for a large λ.

    Returns
    -------
    HybridDescent
        Points, iterations, gradient norms, convergence flags and energies.

    Warns
    -----
    ConvergenceWarning
        If some start did not reach ``tol``; the message gives the count and the residual.

    Examples
    --------
    With one memory the hybrid minimum is the memory itself (both terms are minimal there):

    >>> res = hybrid_descend([0.5], [[0.0]], beta=2.0, lam=1.0)
    >>> bool(abs(res.points[0]) < 1e-9), res.converged
    (True, True)
    """
    beta, lam, eps = _check_hybrid(beta, lam, eps)
    step = check_fraction(step, "step", lo=0.0, hi=2.0)
    max_iter = check_positive_int(max_iter, "max_iter", maximum=MAX_STEPS)
    tol = check_positive_float(tol, "tol")
    X, Xi, single, xp = _prepare_points(x0, memories, "x0")
    Z, n_iter, gnorm, converged, E = _hybrid_checked(
        X, Xi, beta, lam, eps, step, max_iter, tol, xp, "hybrid_descend"
    )
    if single:
        return HybridDescent(Z[0], int(n_iter[0]), float(gnorm[0]), bool(converged[0]), float(E[0]))
    return HybridDescent(Z, n_iter, gnorm, converged, E)


def adaptive_beta(x: Any, memories: Any, beta: float, rho: float = 0.9) -> Any:
    """Query-dependent inverse temperature β(x) (App. A remedy; **not in the paper**).

    Notes
    -----
    App. A proposes "a query-dependent temperature parameter β(x) that dynamically adjusts to
    ensure the query lies within at least one basin of attraction" and gives no formula. Ours:
    β(x) = min(β, 2ρ / d_min(x)²) with d_min(x) the distance to the nearest stored pattern and
    0 < ρ < 1. Then R(x) = sqrt(2/β(x)) >= d_min(x)/sqrt(ρ) > d_min(x), so B(x) ≠ ∅ at β(x);
    near the data (d_min <= sqrt(ρ) R) β(x) = β.

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Base inverse temperature, > 0.
    rho : float, default 0.9
        Safety factor in (0, 1).

    Returns
    -------
    float or array, shape (B,)
        β(x) <= β; 0.0 (the honest underflow) where d_min(x)² exceeds the float64 range.

    Examples
    --------
    One memory at 0, β = 8 (R = 0.5), ρ = 0.5: a query at 2 gets β = 2·0.5/4 = 0.25 (R = 2√2).

    >>> adaptive_beta([2.0], [[0.0]], beta=8.0, rho=0.5)
    0.25
    """
    beta = check_beta(beta)
    rho = check_fraction(rho, "rho")
    X, Xi, single, xp = _prepare_points(x, memories, "x")
    b = _adaptive_beta(X, Xi, beta, rho, xp)
    return float(b[0]) if single else b


def adaptive_beta_retrieve(
    x0: Any, memories: Any, beta: float, rho: float = 0.9, max_iter: int = 10_000
) -> AdaptiveBetaRetrieval:
    """Retrieval with a query-dependent β(x) (App. A remedy; **not in the paper**).

    Notes
    -----
    Two phases of flat-kernel mean shift (Algorithm 1's update, note §1.5):

    1. *approach*: while β(z) < β, replace z by the centroid of B(z) at the current β(z) from
       :func:`adaptive_beta` (never empty, by construction), re-evaluating β(z) after every step;
       stop when β(z) = β (z is then within sqrt(ρ) R of a memory, hence supported) or when a
       step no longer moves z (a centroid that is self-consistent at β(z) < β);
    2. Algorithm 1 at the base β from there; it terminates by the monotonicity lemma.

    Phase 2 lands on an exact LSR minimum of the base energy whenever phase 1 ends inside the
    base support (``exact``). Phase 1 can stall at a centroid of several patterns that is
    unsupported at β, e.g. the midpoint of two patterns, which is self-consistent at every
    β(z) it sees; such queries stay there. ρ close to 1 makes the first step land on the nearest
    pattern alone and avoids most stalls.

    Far queries: where d_min(x0)² overflows float64 (queries about 1e154 or more from every
    memory), β(x0) underflows to 0.0 and the first step compares squared distances after
    rescaling the query's differences, so it lands on the centroid of the memories within
    d_min/√ρ, as it would in exact arithmetic.

    Parameters
    ----------
    x0 : array_like, shape (d,) or (B, d)
        Queries.
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Base inverse temperature, > 0.
    rho : float, default 0.9
        Safety factor of β(x), in (0, 1).
    max_iter : int, default 10000
        Cap on centroid updates per phase (at most ``MAX_STEPS``).

    Returns
    -------
    AdaptiveBetaRetrieval
        Final and phase-1 points, β(x0), final active set, exactness flags, iterations.

    Warns
    -----
    ConvergenceWarning
        If a phase hits ``max_iter`` (never observed; termination is guaranteed).

    Examples
    --------
    Memories at 0 and 10, β = 8 (R = 0.5). From 3 the query is unsupported at β; β(3) widens
    the support to reach 0 only, so the first step lands on 0, an exact minimum at β.

    >>> res = adaptive_beta_retrieve([3.0], [[0.0], [10.0]], beta=8.0)
    >>> res.points, res.exact
    (array([0.]), True)
    """
    beta = check_beta(beta)
    rho = check_fraction(rho, "rho")
    max_iter = check_positive_int(max_iter, "max_iter", maximum=MAX_STEPS)
    X, Xi, single, xp = _prepare_points(x0, memories, "x0")
    b0, Z1, Z2, A, exact, n1, n2 = _adaptive_retrieve(X, Xi, beta, rho, max_iter, xp)
    if single:
        return AdaptiveBetaRetrieval(
            Z2[0], Z1[0], float(b0[0]), A[0], bool(exact[0]), int(n1[0] + n2[0])
        )
    return AdaptiveBetaRetrieval(Z2, Z1, b0, A, exact, n1 + n2)


def limitations_playground(
    memories: Any,
    queries: Any,
    beta: float,
    method: str = "lsr",
    lam: float = 0.5,
    rho: float = 0.9,
    eps: float = 1e-6,
) -> Playground:
    """Where each retrieval rule sends a set of queries (the App. A playground).

    Notes
    -----
    ``method``:

    - ``"lsr"``: Algorithm 1 at β (paper); unsupported queries stay put (App. A).
    - ``"lse"``: LSE descent, eq. (6) with α = 1 (Gaussian mean shift), up to 2000 steps.
    - ``"hybrid"``: :func:`hybrid_descend` with weight λ (**not in the paper**).
    - ``"beta_x"``: :func:`adaptive_beta_retrieve` with factor ρ (**not in the paper**).

    ``exact`` flags end points that are exact LSR minima of the base energy (self-consistent
    centroids, note §1.7), the property that makes LSR attractive in the first place.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    queries : array_like, shape (Q, d)
        Start points.
    beta : float
        Base inverse temperature, > 0.
    method : {"lsr", "lse", "hybrid", "beta_x"}
        Retrieval rule.
    lam : float, default 0.5
        Hybrid weight λ >= 0 (used by ``"hybrid"`` only, checked always).
    rho : float, default 0.9
        β(x) factor in (0, 1) (used by ``"beta_x"`` only, checked always).
    eps : float, default 1e-6
        Floor ϵ > 0 of the hybrid energy (used by ``"hybrid"`` only, checked always).

    Returns
    -------
    Playground
        Queries, end points and flags (NumPy).

    Examples
    --------
    >>> pg = limitations_playground([[0.0, 0.0]], [[0.1, 0.0], [3.0, 0.0]], beta=2.0)
    >>> pg.moved.tolist(), pg.exact.tolist()
    ([True, False], [True, False])
    """
    beta = check_beta(beta)
    method = check_option(method, "method", METHODS)
    beta, lam, eps = _check_hybrid(beta, lam, eps)
    rho = check_fraction(rho, "rho")
    Xi = np.asarray(to_numpy(as_memories(memories)))
    Q, _ = as_points(to_numpy(queries), Xi.shape[1], name="queries")
    Q = np.asarray(Q)
    final = _playground_final(Q, Xi, beta, method, lam, rho, eps)
    d2q = _sqdist(Q, Xi, np)
    d2f = _sqdist(final, Xi, np)
    A = d2f < 2.0 / beta
    return Playground(
        method=method,
        memories=Xi,
        beta=beta,
        radius=math.sqrt(2.0 / beta),
        queries=Q,
        final=final,
        supported=np.any(d2q < 2.0 / beta, axis=1),
        moved=np.any(final != Q, axis=1),
        exact=np.asarray(_is_exact_minimum(final, A, Xi, np)),
        nearest=np.asarray(_nearest_distance(final, Xi, d2f, np)),
    )


def kde_explorer(M: int, h: float, kernel: str = "epanechnikov", seed: int = 0) -> KDEView:
    """A KDE of M samples from a fixed 1-D mixture, with ISE curves (paper Sec. 2, eq. (2)).

    Notes
    -----
    The target is the two-component mixture :data:`KDE_TARGET`. The estimate is
    f̂_h(x) = (M h)^(-1) Σ_μ K((x − ξ_μ)/h) (paper Sec. 2, ``kde_1d``); the ISE curves are
    ``ise_curves`` on 40 log-spaced bandwidths in [0.05, 2] for the kernels in
    :data:`KDE_KERNELS`; h* is the corrected AMISE optimum (note §2.1 [fix]), and ``h_paper``
    the value printed in eq. (2), 4^(1/5) ≈ 1.32 times larger. The curves depend only on
    (M, seed) and are cached in memory, so moving the h slider or the kernel menu is cheap.

    Parameters
    ----------
    M : int
        Number of samples, 2 <= M <= 5000.
    h : float
        Bandwidth of the displayed estimate, > 0.
    kernel : str
        Kernel name from ``assocmem.dense_am.KERNELS``.
    seed : int
        Seed (>= 0) of the samples.

    Returns
    -------
    KDEView
        Samples, truth, estimate, ISE at h, h* (corrected and as printed) and the curves.

    Examples
    --------
    >>> v = kde_explorer(200, 0.4, "epanechnikov", seed=0)
    >>> round(v.h_paper / v.h_star, 4)  # 4 ** (1/5)
    1.3195
    """
    M = check_positive_int(M, "M", minimum=2, maximum=5000)
    h = check_beta(h, "h")
    kernel = _check_kernel(kernel)
    seed = check_positive_int(seed, "seed", minimum=0)
    samples, curves = _kde_samples_and_curves(M, seed)
    w, m, sd = (np.asarray(t, dtype=float) for t in KDE_TARGET)
    grid = np.linspace(*_KDE_GRID)
    truth = np.asarray(gmm_1d_density(grid, w, m, sd))
    est = np.asarray(kde_1d(grid, samples, h, kernel))
    rough = _kde_roughness()
    return KDEView(
        kernel=kernel,
        h=h,
        samples=samples,
        grid=grid,
        truth=truth,
        estimate=est,
        ise_at_h=float(np.trapezoid((est - truth) ** 2, grid)),
        h_star=amise_optimal_bandwidth(kernel, rough, M),
        h_paper=paper_bandwidth(kernel, rough, M),
        curves=curves,
    )


def generative_2d(
    M: int,
    beta: float,
    seed: int = 0,
    k: int = 4,
    sigma: float = 0.1,
    n_per_memory: int = 10,
    n_grid: int = 80,
) -> Generative2D:
    """Sec. 4.2 in two dimensions: mixture contours with stored, LSR and LSE memories.

    Notes
    -----
    Stored patterns Ξ ~ p with p = (1/k) Σ_i N(μ_i, σ² I), μ_i ~ U([0, 1]²) (paper Sec. 4.2,
    ``gmm_sample`` with ``seed``). From the same shell starts (``shell_starts``, generator
    ``seed + 1``), LSR memories come from Algorithm 1 (exact, deduplicated by index set) and LSE
    memories from eq. (6) with α = 1, merged at radius 2/sqrt(β) (App. C.3.3). The metrics are
    ``compare_lse_lsr`` with the same starts. The choices the paper leaves open are those of
    :mod:`assocmem.dense_am.generative` (note P19).

    Parameters
    ----------
    M : int
        Stored patterns, 2 <= M <= 500.
    beta : float
        Inverse temperature, > 0.
    seed : int
        Seed (>= 0).
    k : int
        Mixture components, >= 1.
    sigma : float
        Component standard deviation, > 0, small enough that the sampled memories stay within
        magnitude ``MAX_ABS_ENTRY`` (1e100).
    n_per_memory : int, default 10
        Shell starts per memory, >= 1.
    n_grid : int
        Points per axis of the log-density grid, 10 <= n_grid <= 400.

    Returns
    -------
    Generative2D
        Data, contours, memories and metrics (NumPy).

    Examples
    --------
    >>> g = generative_2d(20, beta=2000.0, seed=0)  # tiny supports: LSR keeps every pattern
    >>> g.metrics.lsr_recovered == int((g.lsr_sizes == 1).sum())
    True
    """
    M = check_positive_int(M, "M", minimum=2, maximum=500)
    beta = check_beta(beta)
    seed = check_positive_int(seed, "seed", minimum=0)
    k = check_positive_int(k, "k")
    sigma = check_positive_float(sigma, "sigma")
    n_per_memory = check_positive_int(n_per_memory, "n_per_memory")
    n_grid = check_positive_int(n_grid, "n_grid", minimum=10, maximum=400)
    check_size(
        M * n_per_memory * (M + 2),
        "n_per_memory",
        "start-memory distances",
        MAX_ELEMENTS,
        "use fewer starts per memory",
    )
    xi, mu = gmm_sample(k, 2, sigma, M, seed)
    _check_sample_spread(xi, sigma)
    starts = shell_starts(xi, beta, n_per_memory, seed + 1)
    lsr_points, lsr_active, _, _ = _algorithm1(starts, xi, beta, 10_000, np, record=None)
    keys, first = np.unique(np.asarray(lsr_active), axis=0, return_index=True)
    lse_points = _lse_descend_checked(starts, xi, beta, 1.0, 2000, 1e-8, np, "generative_2d")[0]
    gx = np.linspace(-0.3, 1.3, n_grid)
    pts = np.stack(np.meshgrid(gx, gx), axis=-1).reshape(-1, 2)
    return Generative2D(
        beta=beta,
        memories=xi,
        means=mu,
        sigma=sigma,
        grid_x=gx,
        grid_y=gx,
        log_p=np.asarray(gmm_log_density(pts, mu, sigma)).reshape(n_grid, n_grid),
        lsr_points=np.asarray(lsr_points)[first],
        lsr_sizes=keys.sum(axis=1).astype(np.int64),
        lse_points=_leaders(np.asarray(lse_points), 2.0 / math.sqrt(beta)),
        metrics=compare_lse_lsr(xi, mu, sigma, beta, n_per_memory, seed + 1, lse_tol=1e-8),
    )


def hybrid_shift(memories: Any, beta: float, lams: Any, eps: float = 1e-6) -> np.ndarray:
    """How far the hybrid energy moves each stored pattern's minimum (**not in the paper**).

    Notes
    -----
    For each λ, descend :func:`hybrid_energy` from every ξ_μ and return ||x*_μ − ξ_μ||. Under
    E_LSR alone an isolated pattern is an exact minimum (note §2.2, C1); the LSE term adds the
    force λ ∇E_LSE(ξ_μ) ≠ 0 (Prop. 1), so for small λ the shift is about
    λ ||∇E_LSE(ξ_μ)|| / (1 + λ) (Hessians ≈ I at an isolated pattern; our linearisation).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Inverse temperature, > 0.
    lams : float or array_like, shape (L,)
        Hybrid weights λ >= 0 (finite, at least one).
    eps : float, default 1e-6
        Floor ϵ > 0 inside the LSR log.

    Returns
    -------
    numpy.ndarray, shape (L, M)
        Distances ||x*_μ − ξ_μ|| per λ and pattern.

    Examples
    --------
    >>> hybrid_shift([[0.0], [5.0]], beta=2.0, lams=[0.0]).tolist()  # λ = 0: exact retrieval
    [[0.0, 0.0]]
    """
    Xi = np.asarray(to_numpy(as_memories(memories)))
    beta = check_beta(beta)
    lam_arr = as_real_vector(lams, "lams", lo=0.0)
    eps = check_positive_float(eps, "eps")
    check_size(lam_arr.size * Xi.size, "lams", "points", MAX_ELEMENTS, "use fewer values")
    out = np.empty((lam_arr.size, Xi.shape[0]))
    for i, lam in enumerate(lam_arr):
        pts = _hybrid_checked(Xi, Xi, beta, float(lam), eps, 1.0, 500, 1e-7, np, "hybrid_shift")[0]
        out[i] = _row_norm(np.asarray(pts) - Xi, np)
    return out


def generative_panels(
    M: int,
    d: int = 8,
    k: int = 10,
    sigma: float = 0.1,
    n_beta: int = 8,
    seeds: tuple[int, ...] = (0, 1, 2),
    n_starts: int = 500,
) -> GenerativeSweep:
    """Paper Fig. 3 (right) at reduced size, cached: ``generative_sweep`` with fixed choices.

    Notes
    -----
    Calls ``generative_sweep(k, d, sigma, M, n_beta, seeds, n_per_memory)`` with
    n_per_memory = ceil(n_starts / M), i.e. about ``n_starts`` shell starts in all (one reading
    of the paper's "500 initial points", note P19), and a per-seed geometric β grid from 2/d to
    2/r_min² (App. C.2, C.3.2). Defaults: the Fig. 3 (right) setting d = 8, k = 10, σ = 0.1,
    with 3 seeds and 8 β values instead of 5 seeds and the paper's (unstated) grid. The result
    is cached in memory, so a figure and a claims table can share one computation.

    Parameters
    ----------
    M : int
        Stored patterns, >= 2.
    d, k : int
        Dimension and components, >= 1.
    sigma : float
        Component standard deviation, > 0, small enough that 2/r_min² > 2/d for every seed
        (else the β grid is empty) and that the memories stay within magnitude
        ``MAX_ABS_ENTRY`` (1e100).
    n_beta : int
        β values per seed, >= 2.
    seeds : tuple of int
        Seeds (>= 0), at least one.
    n_starts : int
        Approximate total number of shell starts, >= 1.

    Returns
    -------
    GenerativeSweep
        As ``generative_sweep``.
    """
    M = check_positive_int(M, "M", minimum=2)
    d = check_positive_int(d, "d")
    k = check_positive_int(k, "k")
    sigma = check_positive_float(sigma, "sigma")
    n_beta = check_positive_int(n_beta, "n_beta", minimum=2)
    seeds = tuple(check_int_sequence(seeds, "seeds", minimum=0))
    n_starts = check_positive_int(n_starts, "n_starts")
    n_per_memory = -(-n_starts // M)
    check_size(
        len(seeds) * n_beta * M * n_per_memory,
        "n_starts",
        "descents over all seeds and betas",
        MAX_STEPS,
        "use fewer starts, seeds or betas",
    )
    for seed in seeds:  # the memories generative_sweep draws (same generator, same order)
        xi, _ = gmm_sample(k, d, sigma, M, seed)
        _check_sample_spread(xi, sigma)
        r2 = float(np.min(_sqdist(xi, xi, np) + np.diag(np.full(M, np.inf))))
        if not 2.0 / r2 > 2.0 / d:
            raise ValueError(
                f"sigma = {sigma!r} (with d = {d}, M = {M}, seed {seed}) leaves no beta grid: "
                f"the grid runs from 2/d = {2.0 / d!r} to 2/r_min**2 = {2.0 / r2!r}; use a "
                "smaller sigma or a larger d"
            )
    return _generative_panels(M, d, k, sigma, n_beta, seeds, n_per_memory)


def sweep_summary(sweep: GenerativeSweep) -> SweepSummary:
    """Measure the claims of paper Sec. 4.2 (Q14) on a Fig. 3 (right) sweep.

    Notes
    -----
    Compares seed means per β index: where LSR log p > LSE log p (the paper's orange bands),
    where LSR has >= unique memories and >= recovered stored patterns.

    Parameters
    ----------
    sweep : GenerativeSweep
        From ``generative_sweep`` or :func:`generative_panels`.

    Returns
    -------
    SweepSummary
        Counts over β and the extreme values.
    """
    check_instance(sweep, "sweep", GenerativeSweep)
    return SweepSummary(
        n_beta=int(sweep.beta_mean.size),
        best_lsr_logp=float(np.max(sweep.lsr_logp)),
        best_lse_logp=float(np.max(sweep.lse_logp)),
        logp_wins=int(np.sum(sweep.lsr_logp > sweep.lse_logp)),
        unique_ge=int(np.sum(sweep.lsr_unique >= sweep.lse_unique)),
        recovered_ge=int(np.sum(sweep.lsr_recovered >= sweep.lse_recovered)),
        max_unique_lsr=float(np.max(sweep.lsr_unique)),
        max_unique_lse=float(np.max(sweep.lse_unique)),
    )


# --------------------------------------------------------------------------------------------
# Private kernels (trust their input)
# --------------------------------------------------------------------------------------------


def _check_hybrid(beta: Any, lam: Any, eps: Any) -> tuple[float, float, float]:
    """Validate the hybrid parameters: β > 0, λ >= 0, ϵ > 0."""
    return check_beta(beta), check_nonneg_float(lam, "lam"), check_beta(eps, "eps")


def _check_sample_spread(xi: np.ndarray, sigma: float) -> None:
    """Refuse a sigma that spreads the sampled memories beyond ``MAX_ABS_ENTRY``."""
    top = float(np.max(np.abs(xi)))
    if top > MAX_ABS_ENTRY:
        raise ValueError(
            f"sigma must keep the sampled memories within magnitude {MAX_ABS_ENTRY:g} (squared "
            f"distances stay finite in float64), got sigma = {sigma!r} and a memory of "
            f"magnitude {top:.3g}"
        )


def _prepare_points(x: Any, memories: Any, name: str) -> tuple[Any, Any, bool, Any]:
    """Validate points and memories once; return (X (B, d), Xi (M, d), was_1d, xp)."""
    xp = array_namespace(x, memories)
    Xi = as_memories(memories, xp=xp)
    X, single = as_points(x, Xi.shape[1], name=name, xp=xp)
    return X, Xi, single, xp


def _hybrid_energy(X: Any, Xi: Any, beta: float, lam: float, eps: float, xp: Any) -> Any:
    """E_LSR + λ E_LSE per row; the LSE term is left out for λ = 0 (no 0 · inf)."""
    E = _lsr_energy(X, Xi, beta, eps, xp)
    if lam == 0.0:
        return E
    with np.errstate(over="ignore"):
        return E + lam * _lse_energy(X, Xi, beta, xp)


def _hybrid_grad(X: Any, Xi: Any, beta: float, lam: float, eps: float, xp: Any) -> Any:
    """∇E_LSR (eqs. (7)-(8)) + λ ∇E_LSE (note §1.3) per row."""
    N, D, _ = _lsr_parts(X, Xi, beta, eps, xp)
    G = _safe_divide(N, D[:, None], xp)
    if lam == 0.0:
        return G
    with np.errstate(over="ignore"):
        return G + lam * _lse_grad(X, Xi, beta, xp)


def _nearest_distance(X: Any, Xi: Any, D2: Any, xp: Any) -> Any:
    """min_μ ‖x − ξ_μ‖ per row from D2 = sqdist(X, Xi); rows whose d² overflow are rescaled."""
    out = xp.sqrt(xp.min(D2, axis=1))
    far = ~xp.isfinite(out)
    if bool(xp.any(far)):
        rows = xp.nonzero(far)[0]
        diff = X[rows][:, None, :] - Xi[None, :, :]  # (n, M, d), few rows
        norms = _row_norm(diff.reshape(-1, Xi.shape[1]), xp).reshape(rows.shape[0], -1)
        out[rows] = xp.min(norms, axis=1)
    return out


def _centroid_step(Z: Any, Xi: Any, thr: Any, xp: Any) -> Any:
    """One Algorithm-1 update with a per-row threshold 2/β_row; unsupported rows stay (P7)."""
    A = (_sqdist(Z, Xi, xp) < thr[:, None]).astype(xp.float64)
    count = xp.sum(A, axis=1)
    safe = xp.where(count > 0, count, 1.0)
    return xp.where((count > 0)[:, None], (A @ Xi) / safe[:, None], Z)


def _algorithm1_rows(X: Any, Xi: Any, thr: Any, cap: int, xp: Any) -> tuple[Any, Any]:
    """Algorithm 1 with a per-row threshold 2/β_row until every active set is self-consistent."""
    Z = xp.array(X, copy=True)
    A = _sqdist(Z, Xi, xp) < thr[:, None]
    n_iter = xp.zeros(X.shape[0], dtype=xp.int64)
    rows = xp.nonzero(xp.any(A, axis=1))[0]
    for _ in range(cap):
        if rows.shape[0] == 0:
            break
        W = A[rows].astype(xp.float64)
        Z_new = (W @ Xi) / xp.sum(W, axis=1)[:, None]
        A_new = _sqdist(Z_new, Xi, xp) < thr[rows][:, None]
        changed = xp.any(A_new != A[rows], axis=1)
        Z[rows], A[rows] = Z_new, A_new
        n_iter[rows] += 1
        rows = rows[changed & xp.any(A_new, axis=1)]
    else:
        if rows.shape[0] > 0:
            warnings.warn(
                f"adaptive_beta_retrieve: {rows.shape[0]} starts still changed their active set "
                f"after {cap} iterations; residual: active sets not self-consistent",
                ConvergenceWarning,
                stacklevel=3,
            )
    return Z, n_iter


def _annealed_approach(
    X: Any, Xi: Any, beta: float, rho: float, cap: int, xp: Any
) -> tuple[Any, Any]:
    """Phase 1 of :func:`adaptive_beta_retrieve`: centroid steps at the current β(z).

    Rows stop when β(z) = β (z within sqrt(ρ) R of a memory) or when a step no longer moves z.
    """
    Z = xp.array(X, copy=True)
    n_iter = xp.zeros(X.shape[0], dtype=xp.int64)
    rows = xp.nonzero(_adaptive_beta(Z, Xi, beta, rho, xp) < beta)[0]
    for _ in range(cap):
        if rows.shape[0] == 0:
            break
        W = _approach_active(Z[rows], Xi, beta, rho, xp).astype(xp.float64)
        Z_new = (W @ Xi) / xp.sum(W, axis=1)[:, None]  # non-empty: ρ < 1 keeps the nearest
        moved = xp.any(Z_new != Z[rows], axis=1)
        Z[rows] = Z_new
        n_iter[rows] += moved.astype(xp.int64)
        rows = rows[moved & (_adaptive_beta(Z_new, Xi, beta, rho, xp) < beta)]
    else:
        if rows.shape[0] > 0:
            warnings.warn(
                f"adaptive_beta_retrieve: {rows.shape[0]} queries still approaching after {cap} "
                "steps; residual: β(z) < β",
                ConvergenceWarning,
                stacklevel=3,
            )
    return Z, n_iter


def _adaptive_beta(X: Any, Xi: Any, beta: float, rho: float, xp: Any) -> Any:
    """β(x) = min(β, 2ρ/d_min(x)²); β where d_min = 0, 0.0 where d_min² overflows."""
    dmin2 = xp.min(_sqdist(X, Xi, xp), axis=1)
    safe = xp.where(dmin2 > 0, dmin2, 1.0)
    return xp.where(dmin2 > 0, xp.minimum(beta, 2.0 * rho / safe), beta)


def _approach_active(Z: Any, Xi: Any, beta: float, rho: float, xp: Any) -> Any:
    """Strict active set at β(z): ‖z − ξ_μ‖² < 2/β(z) (phase 1 of adaptive_beta_retrieve).

    Where every d² overflows float64, β(z) underflows to 0; the set {μ : ρ d²_μ < d²_min} that
    2/β(z) = d²_min/ρ stands for is then found from the differences rescaled by their largest
    entry, which leaves the comparison unchanged.
    """
    D2 = _sqdist(Z, Xi, xp)
    b = _adaptive_beta(Z, Xi, beta, rho, xp)
    with np.errstate(divide="ignore"):  # b = 0 only on the far rows, redone below
        A = D2 < (2.0 / b)[:, None]
    far = ~xp.isfinite(xp.min(D2, axis=1))
    if bool(xp.any(far)):
        rows = xp.nonzero(far)[0]
        diff = Z[rows][:, None, :] - Xi[None, :, :]  # (n, M, d), few rows
        scale = xp.max(xp.abs(diff), axis=(1, 2))
        S2 = xp.sum((diff / scale[:, None, None]) ** 2, axis=2)
        A[rows] = rho * S2 < xp.min(S2, axis=1)[:, None]
    return A


def _is_exact_minimum(Z: Any, A: Any, Xi: Any, xp: Any) -> Any:
    """B(z) non-empty and z equal (bit for bit) to the centroid of B(z) (note §1.7)."""
    W = A.astype(xp.float64)
    count = xp.sum(W, axis=1)
    safe = xp.where(count > 0, count, 1.0)
    centroid = (W @ Xi) / safe[:, None]
    return (count > 0) & xp.all(centroid == Z, axis=1)


def _hybrid_loop(
    X: Any,
    Xi: Any,
    beta: float,
    lam: float,
    eps: float,
    step: float,
    max_iter: int,
    tol: float,
    xp: Any,
) -> tuple[Any, Any, Any, Any]:
    """Preconditioned gradient descent with Armijo backtracking on E_LSR + λ E_LSE."""

    def energy(P: Any) -> Any:
        return _hybrid_energy(P, Xi, beta, lam, eps, xp)

    def grad(P: Any) -> Any:
        return _hybrid_grad(P, Xi, beta, lam, eps, xp)

    def trial_step(P: Any) -> Any:
        # a(x) = D/(|B| + λD): Algorithm 1's D/|B| inside the support, 1/λ (mean shift) outside
        _, D, count = _lsr_parts(P, Xi, beta, eps, xp)
        den = count + lam * D
        return step * xp.where(den > 0, D / xp.where(den > 0, den, 1.0), 1.0)

    Z = xp.array(X, copy=True)
    E, G = energy(Z), grad(Z)
    gnorm = _row_norm(G, xp)
    n_iter = xp.zeros(X.shape[0], dtype=xp.int64)
    rows = xp.nonzero(gnorm >= tol)[0]
    for _ in range(max_iter):
        if rows.shape[0] == 0:
            break
        Zr, Gr, Er = Z[rows], G[rows], E[rows]
        gr = gnorm[rows]
        a = trial_step(Zr)
        cand = Zr - a[:, None] * Gr
        Ec = energy(cand)
        bad = _insufficient_decrease(Ec, Er, a, gr, xp)
        for _ in range(_MAX_HALVINGS):
            if not bool(xp.any(bad)):
                break
            a = xp.where(bad, 0.5 * a, a)
            cand = Zr - a[:, None] * Gr
            Ec = xp.where(bad, energy(cand), Ec)
            bad = bad & _insufficient_decrease(Ec, Er, a, gr, xp)
        ok = ~bad
        if bool(xp.any(ok)):
            Z[rows[ok]], E[rows[ok]] = cand[ok], Ec[ok]
            G[rows[ok]] = grad(cand[ok])
            gnorm[rows[ok]] = _row_norm(G[rows[ok]], xp)
            n_iter[rows[ok]] += 1
        rows = rows[ok & (gnorm[rows] >= tol)]
    return Z, n_iter, gnorm, E


def _insufficient_decrease(Ec: Any, E: Any, a: Any, gnorm: Any, xp: Any) -> Any:
    """Rows failing Armijo's E(x − a g) <= E(x) − c a |g|² (c = 1e-4).

    The decrease is formed as (a |g|) |g|, so |g|² cannot overflow for a huge λ; from
    E(x) = +inf (E_LSE beyond the float64 range) any finite energy is a decrease.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        target = E - _ARMIJO * (a * gnorm) * gnorm
    return xp.where(xp.isfinite(E), Ec > target, ~(Ec < E))


def _hybrid_checked(
    X: Any,
    Xi: Any,
    beta: float,
    lam: float,
    eps: float,
    step: float,
    max_iter: int,
    tol: float,
    xp: Any,
    caller: str,
) -> tuple[Any, Any, Any, Any, Any]:
    """:func:`_hybrid_loop` plus convergence flags and the ConvergenceWarning."""
    tol = tol * max(1.0, lam)  # the LSE term scales the gradient by λ
    Z, n_iter, gnorm, E = _hybrid_loop(X, Xi, beta, lam, eps, step, max_iter, tol, xp)
    converged = gnorm < tol
    if not bool(xp.all(converged)):
        warnings.warn(
            f"{caller}: {int(xp.sum(~converged))} of {X.shape[0]} starts did not reach "
            f"tol * max(1, lam) = {tol:.3g} within {max_iter} iterations; largest gradient norm "
            f"{float(xp.max(gnorm)):.3g}",
            ConvergenceWarning,
            stacklevel=3,
        )
    return Z, n_iter, gnorm, converged, E


def _adaptive_retrieve(
    X: Any, Xi: Any, beta: float, rho: float, cap: int, xp: Any
) -> tuple[Any, Any, Any, Any, Any, Any, Any]:
    """Both phases of :func:`adaptive_beta_retrieve`: (β(x0), Z1, Z2, A, exact, n1, n2)."""
    b0 = _adaptive_beta(X, Xi, beta, rho, xp)
    Z1, n1 = _annealed_approach(X, Xi, beta, rho, cap, xp)
    Z2, n2 = _algorithm1_rows(Z1, Xi, xp.full(X.shape[0], 2.0 / beta), cap, xp)
    A = _sqdist(Z2, Xi, xp) < 2.0 / beta
    return b0, Z1, Z2, A, _is_exact_minimum(Z2, A, Xi, xp), n1, n2


def _playground_final(
    Q: np.ndarray, Xi: np.ndarray, beta: float, method: str, lam: float, rho: float, eps: float
) -> np.ndarray:
    """End points of one retrieval rule (see :func:`limitations_playground`)."""
    if method == "lsr":
        thr = np.full(Q.shape[0], 2.0 / beta)
        return np.asarray(_algorithm1_rows(Q, Xi, thr, 10_000, np)[0])
    if method == "lse":
        caller = "limitations_playground"
        return np.asarray(_lse_descend_checked(Q, Xi, beta, 1.0, 2000, 1e-10, np, caller)[0])
    if method == "hybrid":
        caller = "limitations_playground"
        return np.asarray(_hybrid_checked(Q, Xi, beta, lam, eps, 1.0, 500, 1e-7, np, caller)[0])
    return np.asarray(_adaptive_retrieve(Q, Xi, beta, rho, 10_000, np)[2])


@lru_cache(maxsize=16)
def _kde_samples_and_curves(M: int, seed: int) -> tuple[np.ndarray, ISECurves]:
    """Samples from :data:`KDE_TARGET` and their ISE curves (depend only on M and seed)."""
    w, m, sd = (np.asarray(t, dtype=float) for t in KDE_TARGET)
    gen = np.random.default_rng(seed)
    comp = gen.choice(w.size, size=M, p=w)
    samples = m[comp] + sd[comp] * gen.standard_normal(M)
    hs = np.geomspace(_KDE_H[0], _KDE_H[1], _KDE_H[2])
    grid = np.linspace(*_KDE_GRID)
    return samples, ise_curves(hs, samples, w, m, sd, grid, kernels=KDE_KERNELS)


@lru_cache(maxsize=1)
def _kde_roughness() -> float:
    """∫ f''² of :data:`KDE_TARGET`."""
    return gmm_1d_second_derivative_roughness(*(np.asarray(t) for t in KDE_TARGET))


def _leaders(points: np.ndarray, radius: float) -> np.ndarray:
    """Leader clustering in input order (App. C.3.3): one representative per 2/sqrt(β) group."""
    leaders = []
    rest = points
    while rest.shape[0]:
        leaders.append(rest[0])
        rest = rest[_row_norm(rest - rest[0], np) > radius]
    return np.array(leaders).reshape(-1, points.shape[1])


@lru_cache(maxsize=8)
def _generative_panels(
    M: int, d: int, k: int, sigma: float, n_beta: int, seeds: tuple[int, ...], n_per_memory: int
) -> GenerativeSweep:
    """Cached ``generative_sweep`` (see :func:`generative_panels`)."""
    return generative_sweep(k, d, sigma, M, n_beta, seeds, n_per_memory)
