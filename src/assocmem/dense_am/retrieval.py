"""Retrieval dynamics: Algorithm 1 for the LSR energy, mean-shift descent and minima for LSE.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*. Equation numbers refer to the paper; "note §" refers to the chapter note
``shared/notes/05-epanechnikov-dense-am.md``.

Notation map
------------
======================  =========================  ==============================================
paper                   code                       meaning
======================  =========================  ==============================================
Ξ = {ξ_μ}               ``memories``, (M, d)       stored patterns
z, x                    ``x0`` / ``x``, (d,)|(B,d) start point(s); B is a batch size here
β                       ``beta``                   inverse temperature, > 0
ϵ (eq. 3)               ``eps``                    floor inside the LSR log, >= 0
B(x), S(z) in Alg. 1    ``active``                 strict active set {μ : ‖x − ξ_μ‖² < 2/β}
α (eq. 6, step size)    ``step``                   LSE gradient-descent step (not the capacity α)
r, Δ (Thm 1)            ``r``, ``delta``           min pairwise distance, basin radius
======================  =========================  ==============================================

Public functions
----------------
lsr_retrieve (Algorithm 1, batched), lsr_one_step, lsr_trajectory, thm1_beta,
lse_descend (eq. (6) / Gaussian mean shift), lse_minima (multistart LSE minima).
Result types: LSRRetrieval, LSEDescent, LSEMinima.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    ConvergenceWarning,
    as_memories,
    as_points,
    as_rng,
    check_beta,
    check_fraction,
    check_nonneg_float,
    check_positive_float,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.dense_am.energy import (
    _lse_energy,
    _lse_hessian,
    _lse_mean_raw,
    _lsr_parts,
    _safe_divide,
    _sqdist,
    support_radius,
)

__all__ = [
    "LSEDescent",
    "LSEMinima",
    "LSRRetrieval",
    "lse_descend",
    "lse_minima",
    "lsr_one_step",
    "lsr_retrieve",
    "lsr_trajectory",
    "thm1_beta",
]

# Iteration cap of Algorithm 1 when ``max_iter is None``. The monotonicity lemma guarantees
# termination (at most 2**M steps, in practice < 10); the cap only guards float pathologies.
_ALG1_DEFAULT_MAX_ITER = 10_000


@dataclass(frozen=True)
class LSRRetrieval:
    """Result of Algorithm 1 (:func:`lsr_retrieve`).

    Attributes
    ----------
    points : array, shape (B, d) or (d,)
        Final points: the self-consistent centroid ξ̄_{B(z)} for supported starts, the start
        itself for unsupported ones.
    active : array of bool, shape (B, M) or (M,)
        Strict active set at the final point; it identifies the minimum exactly (P16).
    supported : array of bool, shape (B,), or bool
        Whether the start lies inside some support ball (else Alg. 1 is undefined, P7).
    n_iter : array of int, shape (B,), or int
        Number of centroid updates performed for each start (0 for unsupported starts).
    """

    points: Any
    active: Any
    supported: Any
    n_iter: Any


@dataclass(frozen=True)
class LSEDescent:
    """Result of :func:`lse_descend`.

    Attributes
    ----------
    points : array, shape (B, d) or (d,)
        Final iterates.
    n_iter : array of int, shape (B,), or int
        Gradient steps taken per start.
    grad_norm : array, shape (B,), or float
        ‖∇E_LSE‖ at the final iterate.
    converged : array of bool, shape (B,), or bool
        ``grad_norm < tol``.
    """

    points: Any
    n_iter: Any
    grad_norm: Any
    converged: Any


@dataclass(frozen=True)
class LSEMinima:
    """Result of :func:`lse_minima`: distinct LSE local minima, sorted by energy.

    Attributes
    ----------
    points : array, shape (K, d)
        One representative (the lowest-energy descent end point) per minimum.
    hessian_min_eig : array, shape (K,)
        Smallest eigenvalue of ∇²E_LSE at each point (all > 0).
    counts : array of int, shape (K,)
        Number of starts that descended into each minimum.
    energies : array, shape (K,)
        E_LSE at each point (ascending).
    merge_radius : float
        The leader-clustering radius that was used.
    """

    points: Any
    hessian_min_eig: Any
    counts: Any
    energies: Any
    merge_radius: float


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def thm1_beta(r: float, delta: float) -> float:
    """Inverse temperature of Theorem 1, β = 2/(r − Δ)², so that R = √(2/β) = r − Δ.

    Parameters
    ----------
    r : float
        Minimum pairwise distance between memories, finite and > 0.
    delta : float
        Basin radius Δ with 0 < Δ < r.

    Returns
    -------
    float
        ``2 / (r - delta)**2``.

    Raises
    ------
    ValueError
        If ``r`` or ``delta`` is out of range, or if β falls outside the float64 range
        (r − Δ so large that β underflows to 0, or so small that it overflows).

    Notes
    -----
    Thm 1 states exact (and one-step) retrieval from every x with ‖x − ξ_μ‖ <= Δ for Δ ∈ (0, r).
    **Correction** (note §2.2, Pitfall P2): this holds only for Δ < r/2. For Δ >= r/2 the
    points with r − Δ <= ‖x − ξ_μ‖ <= Δ lie outside every support ball, where the gradient is 0
    (or undefined) and the state never moves; for uniform starts in the basin ball the retrieved
    fraction is ((r − Δ)/Δ)^d. This function accepts the paper's full range 0 < Δ < r and does
    not warn.

    Examples
    --------
    >>> thm1_beta(1.0, 0.5)
    8.0
    """
    r = check_beta(r, "r")
    delta = check_fraction(delta, "delta", lo=0.0, hi=r)
    beta = _thm1_beta(r, delta)
    if not 0.0 < beta < math.inf:
        raise ValueError(
            f"r and delta must give a representable beta = 2/(r - delta)**2, got r - delta = "
            f"{r - delta!r} and beta = {beta!r}"
        )
    return beta


def lsr_retrieve(x0: Any, memories: Any, beta: float, max_iter: int | None = None) -> LSRRetrieval:
    """Algorithm 1 of the paper (LSR fixed point), batched over starts.

    Repeat z ← mean{ξ_μ : μ ∈ B(z)} until the active set B(z) no longer changes.

    Parameters
    ----------
    x0 : array_like, shape (d,) or (B, d)
        Start point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.
    max_iter : int or None, default None
        Cap on centroid updates per start (at most ``MAX_STEPS``); ``None`` means 10 000
        (termination is guaranteed, see Notes). Hitting the cap issues a
        :class:`ConvergenceWarning`.

    Returns
    -------
    LSRRetrieval
        ``points``, ``active``, ``supported``, ``n_iter``; for a (d,) input the fields are
        squeezed to (d,), (M,), bool and int.

    Notes
    -----
    *Gradient-descent view* (note §1.5). With N, D as in :func:`~assocmem.dense_am.lsr_grad`,
    a GD step on eq. (3) with the adaptive step η(x) = D(x)/|B(x)| gives
    x − η∇E = x − (x − ξ̄_B) = ξ̄_{B(x)}: Algorithm 1 is gradient descent with step D/|B|,
    which is also **mean shift with the flat kernel**, the shadow of the Epanechnikov kernel
    (Cheng 1995; Comaniciu and Meer 2002). Thm 1's one-step rate η = ϵ + ReLU(·) is the
    special case |B| = 1.

    *Monotonicity lemma* (note §1.5, derived). Let f(x) = Σ_μ ReLU(1 − β/2 ‖x − ξ_μ‖²) and
    y = ξ̄_{B(x)}. Since ReLU(a) >= a and the centroid minimises the sum of squared distances,
    f(y) >= Σ_{μ∈B} (1 − β/2 ‖y − ξ_μ‖²) >= Σ_{μ∈B} (1 − β/2 ‖x − ξ_μ‖²) = f(x), strictly if
    y ≠ x. Hence E never increases along the iteration; as y depends only on B, no active set
    can repeat, and the iteration stops after at most 2^M updates (in practice a handful).

    Implementation: the whole batch is iterated, but each pass touches only the rows whose
    active set changed in the previous pass. A row stops when B(ξ̄_B) = B, i.e. at a
    self-consistent centroid (note §1.7), which is an exact LSR local minimum. Starts with an
    empty active set (unsupported; the paper divides by |S| = 0 here, P7) are returned
    unchanged with ``supported = False``. Active sets use the strict inequality and
    difference-form distances (note §0).

    Examples
    --------
    Two memories at distance 1 with R = 0.8 (β = 3.125): a start near the midpoint retrieves
    the midpoint, an emergent memory (note §2.9 item 1).

    >>> res = lsr_retrieve([0.45], [[0.0], [1.0]], beta=3.125)
    >>> res.points, res.active.tolist(), res.supported, res.n_iter
    (array([0.5]), [True, True], True, 1)
    """
    beta = check_beta(beta)
    cap = (
        _ALG1_DEFAULT_MAX_ITER
        if max_iter is None
        else check_positive_int(max_iter, "max_iter", maximum=MAX_STEPS)
    )
    X, Xi, single, xp = _prepare(x0, memories, "x0")
    Z, A, supported, n_iter = _algorithm1(X, Xi, beta, cap, xp, record=None)
    if single:
        return LSRRetrieval(Z[0], A[0], bool(supported[0]), int(n_iter[0]))
    return LSRRetrieval(Z, A, supported, n_iter)


def lsr_trajectory(x0: Any, memories: Any, beta: float, max_iter: int | None = None) -> Any:
    """Iterates of Algorithm 1 from one start, for plotting (see :func:`lsr_retrieve`).

    Parameters
    ----------
    x0 : array_like, shape (d,)
        One start point.
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.
    max_iter : int or None, default None
        As in :func:`lsr_retrieve`.

    Returns
    -------
    array, shape (T, d)
        ``x0`` followed by each centroid update; T = n_iter + 1 (T = 1 if ``x0`` is unsupported).
        The last row equals ``lsr_retrieve(x0, ...).points``.

    Examples
    --------
    >>> lsr_trajectory([0.45], [[0.0], [1.0]], beta=3.125)
    array([[0.45],
           [0.5 ]])
    """
    beta = check_beta(beta)
    cap = (
        _ALG1_DEFAULT_MAX_ITER
        if max_iter is None
        else check_positive_int(max_iter, "max_iter", maximum=MAX_STEPS)
    )
    xp = array_namespace(x0, memories)
    Xi = as_memories(memories, xp=xp)
    x = _as_single_point(x0, Xi.shape[1], xp)
    rows: list[Any] = [x[0]]
    _algorithm1(x, Xi, beta, cap, xp, record=rows)
    return xp.stack(rows)


def lsr_one_step(x: Any, memories: Any, beta: float, eps: float = 0.0) -> Any:
    """One LSR gradient step with the adaptive rate η(x) = D(x)/|B(x)| (Thm 1 proof, note §1.5).

    x ← x − η(x) ∇E_LSR(x), with ∇E = N/D from paper eqs. (7)-(8).

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.
    eps : float, default 0.0
        The floor ϵ >= 0 inside the log of eq. (3).

    Returns
    -------
    array, shape (d,) or (B, d)
        The updated point(s). Mathematically this is the centroid ξ̄_{B(x)}, i.e. one step of
        Algorithm 1; it is computed literally as a GD step, so it agrees with the centroid to
        rounding (~1e-16 relative), not bit for bit. Unsupported points (B(x) empty) do not move.

    Notes
    -----
    For |B(x)| = 1 the rate is Thm 1's η = ϵ + ReLU(1 − β/2 ‖x − ξ_μ‖²), and the step lands on
    ξ_μ (eq. (9)). For larger active sets it generalises Thm 1's rate (note §1.5).

    Examples
    --------
    >>> lsr_one_step([0.3], [[0.0], [5.0]], beta=2.0)
    array([0.])
    """
    beta = check_beta(beta)
    eps = check_nonneg_float(eps, "eps")
    X, Xi, single, xp = _prepare(x, memories, "x")
    N, D, count = _lsr_parts(X, Xi, beta, eps, xp)
    grad = _safe_divide(N, D[:, None], xp)
    eta = _safe_divide(D, count, xp)
    out = X - eta[:, None] * grad
    return out[0] if single else out


def lse_descend(
    x0: Any,
    memories: Any,
    beta: float,
    step: float = 1.0,
    max_iter: int = 1000,
    tol: float = 1e-10,
) -> LSEDescent:
    """Gradient descent on the LSE energy, paper eq. (6), batched over starts.

    x ← x − α ∇E_LSE(x) = (1 − α) x + α Σ_μ p_μ(x) ξ_μ, until ‖∇E_LSE(x)‖ < ``tol``.

    Parameters
    ----------
    x0 : array_like, shape (d,) or (B, d)
        Start point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.
    step : float, default 1.0
        Step size α in (0, 2). α = 1 is the Gaussian mean-shift update x ← p(x) Ξ, which is the
        CCCP iteration and decreases the energy monotonically (note §4.1). Since
        ∇²E = I − β Cov_p ⪯ I, every α in (0, 2) decreases the energy.
    max_iter : int, default 1000
        Maximum number of steps per start (at most ``MAX_STEPS``).
    tol : float, default 1e-10
        Stop a start when its gradient norm is below ``tol`` (finite, > 0; a norm is never
        below 0).

    Returns
    -------
    LSEDescent
        ``points``, ``n_iter``, ``grad_norm``, ``converged``; squeezed for a (d,) input.

    Warns
    -----
    ConvergenceWarning
        If some start has not converged after ``max_iter`` steps; the message gives the count,
        the iterations and the largest residual. Near a basin merger (Hessian ≈ 0) convergence
        is slow (note §4.1).

    Notes
    -----
    The paper (C.3.3) uses 13 000 steps with α cosine-decayed from 0.01 to 0.0001; α = 1 has the
    same fixed points and converges in tens to hundreds of steps (note §4.1). Only starts that
    have not converged are updated.

    Examples
    --------
    One memory: one mean-shift step lands on it.

    >>> res = lse_descend([3.0, -1.0], [[1.0, 1.0]], beta=1.0)
    >>> res.points, res.n_iter, res.converged
    (array([1., 1.]), 1, True)
    """
    beta = check_beta(beta)
    step = check_fraction(step, "step", lo=0.0, hi=2.0)
    max_iter = check_positive_int(max_iter, "max_iter", maximum=MAX_STEPS)
    tol = check_positive_float(tol, "tol")
    X, Xi, single, xp = _prepare(x0, memories, "x0")
    Z, n_iter, gnorm, converged = _lse_descend_checked(X, Xi, beta, step, max_iter, tol, xp)
    if single:
        return LSEDescent(Z[0], int(n_iter[0]), float(gnorm[0]), bool(converged[0]))
    return LSEDescent(Z, n_iter, gnorm, converged)


def lse_minima(
    memories: Any,
    beta: float,
    n_starts: int = 200,
    rng: Any = 0,
    starts: Any = None,
    merge_radius: float | None = None,
    max_iter: int = 5000,
    tol: float = 1e-10,
) -> LSEMinima:
    """Distinct local minima of the LSE energy by multistart descent (note §4.1, App. C.3.3).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.
    n_starts : int, default 200
        Number of random starts (>= 0), uniform in the memories' bounding box widened by
        R = √(2/β) on every side. Ignored (but still checked) when ``starts`` is given.
    rng : int or numpy.random.Generator, default 0
        Seed or generator for the random starts (checked even when ``starts`` is given).
    starts : array_like, shape (S, d), optional
        Explicit starts. If given, they are used *instead of* the memories and random starts.
    merge_radius : float, optional
        Leader-clustering radius (>= 0). Default: the paper's 2/√β (App. C.3.3; the separation
        at which two Gaussians of width σ = 1/√β merge, Pitfall P16).
    max_iter : int, default 5000
        Maximum mean-shift steps per start (at most ``MAX_STEPS``).
    tol : float, default 1e-10
        Gradient-norm tolerance of the descent (finite, > 0).

    Returns
    -------
    LSEMinima
        ``points`` (K, d), ``hessian_min_eig`` (K,), ``counts`` (K,), ``energies`` (K,) and the
        ``merge_radius`` used; sorted by energy, lowest first.

    Warns
    -----
    ConvergenceWarning
        From :func:`lse_descend` when some start has not converged.

    Notes
    -----
    Procedure:

    1. Starts: the memories themselves plus ``n_starts`` uniform points (or ``starts``).
    2. Descend with α = 1 (Gaussian mean shift, :func:`lse_descend`).
    3. Drop end points whose Hessian I − β Cov_p is not positive definite (saddles reached
       from symmetric starts); this happens *before* clustering, so a saddle never absorbs a
       nearby minimum.
    4. Leader clustering: visit end points by increasing energy; each joins the first leader
       within ``merge_radius``, else becomes a new leader.

    **Which merge rule.** The default 2/√β is the paper's rule and reproduces its "unique
    memories" counts, but it is a bimodality heuristic, not a test of distinctness: it can
    merge genuinely distinct minima. Example (note §2.9 item 4, T8): for the equilateral
    triangle with circumradius 1 at β = 1.95 the three near-vertex minima lie within 2/√β ≈ 1.43
    of the centroid minimum, and the default rule reports 1 minimum instead of 4 (and 1 instead
    of 3 at β = 2.1, where the three minima are 1.35 apart < 2/√2.1 ≈ 1.38). To count
    *distinct* minima pass a small radius, e.g. ``merge_radius=1e-6 * sqrt(2 / beta)``
    (several orders above the spread of converged end points, ≈ tol / λ_min, and far below
    the distance between minima). A float-tolerance dedupe gives more "unique" points than the
    2/√β rule (P16); report the rule used.

    Examples
    --------
    Two memories at distance 4 with β = 1 (separation > 2σ = 2): two minima, slightly pulled
    towards each other (they are exact only at β = ∞, Remark 1).

    >>> res = lse_minima([[0.0], [4.0]], beta=1.0, n_starts=20)
    >>> res.points.shape, res.counts.sum()
    ((2, 1), np.int64(22))
    """
    beta = check_beta(beta)
    n_starts = check_positive_int(n_starts, "n_starts", minimum=0)
    gen = as_rng(rng)
    max_iter = check_positive_int(max_iter, "max_iter", maximum=MAX_STEPS)
    tol = check_positive_float(tol, "tol")
    radius = (
        2.0 / math.sqrt(beta)
        if merge_radius is None
        else check_nonneg_float(merge_radius, "merge_radius")
    )
    xp = array_namespace(memories, starts)
    Xi = as_memories(memories, xp=xp)
    if starts is None:
        check_size(
            (Xi.shape[0] + n_starts) * Xi.shape[1],
            "n_starts",
            "start coordinates",
            MAX_ELEMENTS,
            "use fewer starts",
        )
        S = _box_starts(Xi, beta, n_starts, gen, xp)
    else:
        S, _ = as_points(starts, Xi.shape[1], name="starts", xp=xp)
    P, _, _, _ = _lse_descend_checked(S, Xi, beta, 1.0, max_iter, tol, xp, "lse_minima")
    return _dedupe_minima(P, Xi, beta, radius, xp)


# --------------------------------------------------------------------------------------------
# Private kernels (trust their input)
# --------------------------------------------------------------------------------------------


def _prepare(x: Any, memories: Any, name: str) -> tuple[Any, Any, bool, Any]:
    """Validate points and memories once; return (X (B, d), Xi (M, d), was_1d, xp)."""
    xp = array_namespace(x, memories)
    Xi = as_memories(memories, xp=xp)
    X, single = as_points(x, Xi.shape[1], name=name, xp=xp)
    return X, Xi, single, xp


def _as_single_point(x0: Any, d: int, xp: Any) -> Any:
    """Validate one start of shape (d,) and return it as (1, d)."""
    X, single = as_points(x0, d, name="x0", xp=xp)
    if not single:
        raise ValueError(f"x0 must be a single point of shape ({d},), got shape {X.shape}")
    return X


def _algorithm1(
    X: Any, Xi: Any, beta: float, cap: int, xp: Any, record: list[Any] | None
) -> tuple[Any, Any, Any, Any]:
    """Batched Algorithm 1 (flat-kernel mean shift); iterate only on rows still changing.

    Returns (Z, A, supported, n_iter). If ``record`` is a list, each new iterate of row 0 is
    appended to it (used by :func:`lsr_trajectory` with a single row).
    """
    two_over_beta = 2.0 / beta
    Z = xp.array(X, copy=True)
    A = _sqdist(Z, Xi, xp) < two_over_beta
    supported = xp.any(A, axis=1)
    n_iter = xp.zeros(X.shape[0], dtype=xp.int64)
    rows = xp.nonzero(supported)[0]
    for _ in range(cap):
        if rows.shape[0] == 0:
            break
        A_rows = A[rows]
        weights = A_rows.astype(xp.float64)
        Z_new = (weights @ Xi) / xp.sum(weights, axis=1)[:, None]
        A_new = _sqdist(Z_new, Xi, xp) < two_over_beta
        Z[rows] = Z_new
        A[rows] = A_new
        n_iter[rows] += 1
        if record is not None:
            record.append(Z_new[0])
        changed = xp.any(A_new != A_rows, axis=1)
        # An empty active set cannot follow a supported step (lemma), but guard rounding.
        emptied = ~xp.any(A_new, axis=1)
        supported[rows[emptied]] = False
        rows = rows[changed & ~emptied]
    else:
        if rows.shape[0] > 0:
            warnings.warn(
                f"lsr_retrieve: {rows.shape[0]} of {X.shape[0]} starts still changed their "
                f"active set after {cap} iterations (max_iter); residual: active sets not "
                "self-consistent",
                ConvergenceWarning,
                stacklevel=3,
            )
    return Z, A, supported, n_iter


def _thm1_beta(r: float, delta: float) -> float:
    """β = 2/(r − Δ)² of Theorem 1; +inf or 0.0 where β leaves the float64 range (no raise)."""
    square = (r - delta) * (r - delta)  # inf past the float range, 0.0 below it
    return 2.0 / square if square > 0.0 else math.inf


def _lse_descend_checked(
    X: Any,
    Xi: Any,
    beta: float,
    step: float,
    max_iter: int,
    tol: float,
    xp: Any,
    caller: str = "lse_descend",
) -> tuple[Any, Any, Any, Any]:
    """:func:`_lse_descend` plus the convergence flags and the ConvergenceWarning."""
    Z, n_iter, gnorm = _lse_descend(X, Xi, beta, step, max_iter, tol, xp)
    converged = gnorm < tol
    if not bool(xp.all(converged)):
        bad = int(xp.sum(~converged))
        warnings.warn(
            f"{caller}: {bad} of {X.shape[0]} starts did not converge after {max_iter} "
            f"iterations; largest gradient norm {float(xp.max(gnorm)):.3g} >= tol {tol:.3g}",
            ConvergenceWarning,
            stacklevel=3,
        )
    return Z, n_iter, gnorm, converged


def _lse_descend(
    X: Any, Xi: Any, beta: float, step: float, max_iter: int, tol: float, xp: Any
) -> tuple[Any, Any, Any]:
    """Eq. (6) with constant step on the rows whose gradient norm is still >= tol.

    The step is formed as (1 − α) x + α p(x) Ξ, which equals x − α ∇E_LSE(x) but keeps the
    mean p(x) Ξ exact for α = 1 (mean shift) even when x is huge (x − (x − m) loses m).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # once, not per iteration
        Z = xp.array(X, copy=True)
        mean = _lse_mean_raw(Z, Xi, beta, xp)
        gnorm = _row_norm_raw(Z - mean, xp)
        n_iter = xp.zeros(X.shape[0], dtype=xp.int64)
        rows = xp.nonzero(gnorm >= tol)[0]
        for _ in range(max_iter):
            if rows.shape[0] == 0:
                break
            Z_rows = mean[rows] if step == 1.0 else (1.0 - step) * Z[rows] + step * mean[rows]
            mean_rows = _lse_mean_raw(Z_rows, Xi, beta, xp)
            g_rows = _row_norm_raw(Z_rows - mean_rows, xp)
            Z[rows] = Z_rows
            mean[rows] = mean_rows
            gnorm[rows] = g_rows
            n_iter[rows] += 1
            rows = rows[g_rows >= tol]
    return Z, n_iter, gnorm


def _row_norm_raw(G: Any, xp: Any) -> Any:
    """Row norms; call inside ``np.errstate(over="ignore")`` (see :func:`_row_norm`)."""
    out = xp.sqrt(xp.sum(G * G, axis=1))
    if bool(xp.max(out) == xp.inf):  # squares overflowed: rescale those rows
        big = out == xp.inf
        rows = G[big]
        s = xp.max(xp.abs(rows), axis=1)
        out[big] = s * xp.sqrt(xp.sum((rows / s[:, None]) ** 2, axis=1))
    return out


def _row_norm(G: Any, xp: Any) -> Any:
    """Euclidean norm of each row; rows whose squares overflow are rescaled (finite norms)."""
    with np.errstate(over="ignore"):
        return _row_norm_raw(G, xp)


def _box_starts(Xi: Any, beta: float, n: int, rng: np.random.Generator, xp: Any) -> Any:
    """The memories followed by ``n`` uniform points in their bounding box widened by R."""
    R = support_radius(beta)
    lo = to_numpy(xp.min(Xi, axis=0)) - R
    hi = to_numpy(xp.max(Xi, axis=0)) + R
    U = lo + (hi - lo) * rng.random((n, Xi.shape[1]))
    return xp.concatenate([Xi, xp.asarray(U)], axis=0)


def _dedupe_minima(P: Any, Xi: Any, beta: float, radius: float, xp: Any) -> LSEMinima:
    """Keep PD-Hessian end points, then leader-cluster them by increasing energy."""
    min_eig = xp.linalg.eigvalsh(_lse_hessian(P, Xi, beta, xp))[:, 0]
    keep = min_eig > 0
    P, min_eig = P[keep], min_eig[keep]
    E = _lse_energy(P, Xi, beta, xp)
    order = xp.asarray(np.argsort(to_numpy(E), kind="stable"))
    P, E, min_eig = P[order], E[order], min_eig[order]
    labels = _leader_cluster(P, radius, xp)
    heads = np.unique(labels)  # leaders are visited in energy order, so heads are sorted
    counts = np.bincount(np.searchsorted(heads, labels), minlength=heads.size)
    idx = xp.asarray(heads)
    return LSEMinima(
        points=P[idx],
        hessian_min_eig=min_eig[idx],
        counts=xp.asarray(counts.astype(np.int64)),
        energies=E[idx],
        merge_radius=radius,
    )


def _leader_cluster(P: Any, radius: float, xp: Any) -> Any:
    """Label each row by the index of the first earlier leader within ``radius`` (or itself).

    The loop runs over leaders (distinct minima, few), not over points: each new leader
    claims, in one vectorised pass, all still-unlabelled points within ``radius``.
    """
    n = P.shape[0]
    labels = np.full(n, -1, dtype=np.int64)
    r2 = radius * radius
    while True:
        free = np.nonzero(labels < 0)[0]
        if free.size == 0:
            return labels
        head = int(free[0])
        diff = P[xp.asarray(free)] - P[head][None, :]
        near = to_numpy(xp.sum(diff * diff, axis=1) <= r2)
        labels[free[near]] = head
