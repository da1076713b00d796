"""Teacher–student saddle-point equations of the Potts-hidden DAM, split thresholds, Gibbs check.

Paper: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025),
Sec. 2.2 and 3 with Appendices D, E and G. A teacher DAM with P* memories generates M = ϱ P* N
noisy examples; a student DAM with P memories is sampled from its posterior (Eq. 5). The replica
free entropy (Eqs. 7, 8, 22) is extremised by the saddle-point equations Eq. 9 (teacher memories
uniform on the sphere, P* ≪ N, hence orthonormal) and Eq. 10 (teacher clamped to given patterns).

Notation map
------------
- P*, P (teacher and student hidden units)                     -> ``P_star``, ``P``
- ϱ = M/(P* N) (examples per teacher memory, in units of N)    -> ``rho`` (``numpy.inf``: ϱ → ∞)
- β_eff = ς(2v) β, v = β*/N (Eq. 9)                            -> ``beta_eff``
- τ(β) = log[Ω_N(β)/Ω_N(0)] = β_eff m^{μ*0}, at the student's β -> ``tau``
- p_h(γ), γ = 0..P (hidden-unit prior; γ = 0 the outside unit)   -> ``p_h``
- m^{μ*μ} (teacher–student overlaps), m̂^{μ*μ} (conjugates)      -> ``overlaps``, ``conjugates``,
  arrays of shape (P*, P)
- x*^{μ*} (clamped teacher patterns, Eq. 10)                    -> ``patterns``, shape (P*, N)
- x̄^μ = Σ_{μ*} m̂^{μ*μ} x*^{μ*}, w^μ = x̄^μ/‖x̄^μ‖ (Eq. 11)        -> private, ``memories``
- ς(x) = x/(√(x²+1) + 1) (App. E; Eq. 9's line misprints it)    -> private ``_varsigma``, the
  same function as :func:`assocmem.potts_dam.vmf.varsigma`, written as tanh(½ arsinh x) so that
  ϱ = ∞ gives ς = 1 without an inf/inf.
- η(x) = √(1+x²) − 1 − log(1 + √(1+x²)) + log 2 (Eq. 18), η' = ς -> private ``_eta``

Scope
-----
The class layer is off (C = 0, q* = 1): the single class row of **p** then equals p_h, since the
two marginals of the transportation polytope fix it, and the ζ-solve of Eq. 26 is not needed.
Everything is written with the Gram matrix G = X* X*ᵀ of the teacher patterns: Eq. 9 is Eq. 10
with G = I (orthonormal teacher), since ‖x̄^μ‖² = m̂_μᵀ G m̂_μ and X* x̄^μ = G m̂_μ.

Public functions
----------------
``saddle_point`` (result ``SaddlePoint``), ``phase_diagram`` (result ``SaddlePhaseDiagram``),
``split_threshold``, ``cluster_split_threshold`` (result ``ClusterSplit``) and
``gibbs_student`` (result ``GibbsSamples``).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    ConvergenceWarning,
    as_real_array,
    as_rng,
    as_xp,
    check_beta,
    check_fraction,
    check_positive_int,
    check_size,
)
from assocmem.backend import to_numpy

__all__ = [
    "ClusterSplit",
    "GibbsSamples",
    "SaddlePhaseDiagram",
    "SaddlePoint",
    "cluster_split_threshold",
    "gibbs_student",
    "phase_diagram",
    "saddle_point",
    "split_threshold",
]

_BETA_EFF_MAX = 1e4  # β_eff ≪ N in the replica calculation (note §6, pitfall 20)
_RHO_MAX = 1e12  # finite ϱ above this: pass numpy.inf (ϱ → ∞)
_TAU_MAX = 1e6
_UNITS_MAX = 10_000  # P and P*
_MAX_ITER = 20_000  # note §2.5 step 8: generous cap, critical slowing down near β_c
_UNIT_TOL = 1e-6  # rows of patterns, teacher and examples must have norm 1 within this
_INITS = ("symmetric", "specialised", "random")


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SaddlePoint:
    """A fixed point of the saddle-point equations (Eq. 9, or Eq. 10 with ``patterns``).

    Attributes
    ----------
    beta_eff, rho, tau : float
        The control parameters solved at.
    overlaps : ndarray, shape (P*, P)
        m^{μ*μ}, the expected teacher–student overlaps.
    conjugates : ndarray, shape (P*, P)
        m̂^{μ*μ} (Eq. 23), the responsibilities of student unit μ for teacher memory μ*.
    memories : ndarray of shape (P, N), or None
        w^μ = x̄^μ/‖x̄^μ‖ (Eq. 11) for a clamped teacher (Eq. 10); None for Eq. 9.
    free_entropy : float
        f(m, m̂, p)/ϱ of Eq. 22 at the fixed point, without the branch-independent constant
        −P* log Ω_N(β). Finite as ϱ → ∞, where it is −P* times the effective loss (Eq. 12) up
        to that constant. Compare coexisting branches with it (higher wins).
    split_amplitude : float
        max over μ* of (max_μ − min_μ) m^{μ*μ}: 0 while the student units are identical.
    specialisation : float
        Mean over student units μ of (max_μ* − min_μ*) m^{μ*μ}: 0 in the symmetric phase,
        |m¹¹ − m²¹| for P* = P = 2.
    mean_overlap : float
        Mean of the overlaps.
    converged : bool
        Whether max|Δm| fell below ``tol``.
    n_iter : int
        Damped iterations run.
    residual : float
        max|Δm| of the last iteration.
    residuals : ndarray, shape (n_iter,)
        max|Δm| after each iteration (the convergence trace; it falls geometrically at rate
        ≈ the largest |eigenvalue| of the damped map, slowly near a split line).
    jacobian_radius : float or None
        Spectral radius of the Jacobian of the undamped map m → m_new at the solution (central
        finite differences, step 1e-6): above 1 the fixed point is unstable, a saddle in the
        sense of App. G (e.g. two identical copies above the split line); None when P*·P > 400.
    """

    beta_eff: float
    rho: float
    tau: float
    overlaps: np.ndarray
    conjugates: np.ndarray
    memories: np.ndarray | None
    free_entropy: float
    split_amplitude: float
    specialisation: float
    mean_overlap: float
    converged: bool
    n_iter: int
    residual: float
    residuals: np.ndarray
    jacobian_radius: float | None


@dataclass(frozen=True)
class SaddlePhaseDiagram:
    """The saddle-point solution on a (ϱ, β_eff) grid (:func:`phase_diagram`).

    Attributes
    ----------
    rho : ndarray, shape (n_rho,)
    beta_eff : ndarray, shape (n_beta,)
    overlaps : ndarray, shape (n_rho, n_beta, P*, P)
    split_amplitude, specialisation, mean_overlap, free_entropy : ndarray, shape (n_rho, n_beta)
        As in :class:`SaddlePoint`, for each grid point.
    converged : ndarray of bool, shape (n_rho, n_beta)
    n_iter : ndarray of int, shape (n_rho, n_beta)
    threshold : ndarray of shape (n_rho,), or None
        The analytic split line β_eff,c = √(P* + P/ϱ) (:func:`split_threshold`); None where it
        does not apply (clamped patterns, p_h(0) > 0, unequal p_h(μ), P* = 1 or P = 1).
    """

    rho: np.ndarray
    beta_eff: np.ndarray
    overlaps: np.ndarray
    split_amplitude: np.ndarray
    specialisation: np.ndarray
    mean_overlap: np.ndarray
    free_entropy: np.ndarray
    converged: np.ndarray
    n_iter: np.ndarray
    threshold: np.ndarray | None


@dataclass(frozen=True)
class ClusterSplit:
    """The split threshold of one memory that covers a set of patterns (App. G).

    Attributes
    ----------
    beta_split : float
        R̄/λ_max(P⊥ M₂ P⊥); ``inf`` when the patterns are all parallel (a single pattern).
    R_bar : float
        ‖(1/n) Σ x*‖, the length of the patterns' mean.
    lambda_max : float
        Largest eigenvalue of P⊥ M₂ P⊥, M₂ = (1/n) Σ x* x*ᵀ, P⊥ = I − x̃x̃ᵀ.
    direction : ndarray, shape (N,)
        Its unit eigenvector u ⊥ x̃: the escape direction w ± δu of the two copies.
    mean_direction : ndarray, shape (N,)
        x̃, the normalised mean (the duplicated memory).
    """

    beta_split: float
    R_bar: float
    lambda_max: float
    direction: np.ndarray
    mean_direction: np.ndarray


@dataclass(frozen=True)
class GibbsSamples:
    """Samples of the student posterior (Eq. 5) from :func:`gibbs_student`.

    Attributes
    ----------
    overlaps : ndarray, shape (n_sweeps − burn_in, P*, P)
        m = W* Wᵀ after each kept sweep.
    mean_overlap : ndarray, shape (P*, P)
        Their mean, the finite-N estimate of the saddle-point overlaps.
    specialisation : float
        Mean over kept sweeps of the specialisation (see :class:`SaddlePoint`).
    memories : ndarray, shape (P, N)
        The student memories after the last sweep.
    """

    overlaps: np.ndarray
    mean_overlap: np.ndarray
    specialisation: float
    memories: np.ndarray


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def _check_rho(rho: Any, name: str = "rho") -> np.ndarray:
    """ϱ as a 1-D float array with values in (0, 1e12] or inf."""
    if isinstance(rho, numbers.Real) and not isinstance(rho, bool | np.bool_):
        rho = [rho]
    arr = np.atleast_1d(np.asarray(rho)) if not hasattr(rho, "dtype") else np.atleast_1d(rho)
    if arr.dtype.kind not in "iuf" or arr.ndim != 1 or arr.size == 0:
        raise TypeError(
            f"{name} must be a number or a non-empty 1-D array of numbers in (0, {_RHO_MAX:g}] "
            f"or inf, got {rho!r:.80}"
        )
    arr = arr.astype(np.float64)
    bad = np.isnan(arr) | (arr <= 0) | ((arr > _RHO_MAX) & ~np.isposinf(arr))
    if bool(np.any(bad)):
        raise ValueError(f"{name} must lie in (0, {_RHO_MAX:g}] or be inf, got {arr[bad][0]!r}")
    return arr


def _check_beta_eff(beta_eff: Any) -> float:
    return check_fraction(beta_eff, "beta_eff", 0.0, _BETA_EFF_MAX, open_hi=False)


def _check_tau(tau: Any) -> float:
    return check_fraction(tau, "tau", 0.0, _TAU_MAX, open_lo=False, open_hi=False)


def _check_p_h(p_h: Any, P: int) -> np.ndarray:
    """The prior p_h(γ), γ = 0..P: None (p_h(0) = 0, the rest 1/P), p_h(0) alone, or a vector."""
    if p_h is None:
        return np.concatenate([[0.0], np.full(P, 1.0 / P)])
    if isinstance(p_h, numbers.Real) and not isinstance(p_h, bool | np.bool_):
        p0 = check_fraction(p_h, "p_h", 0.0, 1.0, open_lo=False)
        return np.concatenate([[p0], np.full(P, (1.0 - p0) / P)])
    arr = as_real_array(p_h, "p_h", ndim=1, xp=np)
    if arr.shape != (P + 1,):
        raise ValueError(
            f"p_h must be a number in [0, 1) or have shape ({P + 1},), got {arr.shape}"
        )
    if bool(np.any(arr[1:] <= 0)) or arr[0] < 0 or abs(arr.sum() - 1.0) > 1e-9:
        raise ValueError(
            f"p_h must hold p_h(0) >= 0 and p_h(1..P) > 0 summing to 1, got {arr.tolist()!r:.80}"
        )
    return arr


def _check_unit_rows(a: Any, name: str, N: int | None = None) -> np.ndarray:
    """A (n, N) array whose rows lie on the unit sphere (within 1e-6)."""
    arr = as_real_array(a, name, ndim=2, xp=np)
    if arr.shape[0] < 1 or arr.shape[1] < 2:
        raise ValueError(f"{name} must have shape (n, N) with n >= 1 and N >= 2, got {arr.shape}")
    if N is not None and arr.shape[1] != N:
        raise ValueError(f"{name} must have {N} columns (the dimension N), got shape {arr.shape}")
    with np.errstate(over="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", arr, arr))
    if not bool(np.all(np.abs(norms - 1.0) <= _UNIT_TOL)):
        worst = float(norms[np.argmax(np.abs(norms - 1.0))])
        raise ValueError(
            f"{name} must have rows of norm 1 (within 1e-6), got a row of norm {worst:.6g}"
        )
    return arr


def _check_solver(damping: Any, tol: Any, max_iter: Any) -> tuple[float, float, int]:
    d = check_fraction(damping, "damping", 0.0, 1.0, open_lo=False)
    t = check_fraction(tol, "tol", 0.0, 1.0)
    n = check_positive_int(max_iter, "max_iter", maximum=10_000_000)
    return d, t, n


def _initial(init: Any, P_star: int, P: int, G: np.ndarray | None, perturbation: Any, rng: Any):
    """The initial overlaps (P*, P) of the iteration, with a centred antisymmetric kick.

    "symmetric": every memory along the patterns' mean; "specialised": memory μ on pattern
    μ mod P*; "random": random positive mixtures; an array: the overlaps themselves.
    """
    gen = as_rng(rng)
    eps = check_fraction(perturbation, "perturbation", 0.0, 0.1, open_lo=False, open_hi=False)
    if isinstance(init, str):
        init = _check_init(init)
        if init == "symmetric":
            mhat = np.ones((P_star, P))
        elif init == "specialised":
            mhat = np.zeros((P_star, P))
            mhat[np.arange(P) % P_star, np.arange(P)] = 1.0
        else:
            mhat = gen.uniform(0.0, 1.0, (P_star, P))
        Gm = mhat if G is None else G @ mhat
        m0 = Gm / np.sqrt(np.sum(mhat * Gm, axis=0))
    else:
        m0 = as_real_array(init, "init", ndim=2, xp=np)
        if m0.shape != (P_star, P) or bool(np.any(np.abs(m0) > 1.0)):
            raise ValueError(
                f"init must be one of {_INITS!r} or overlaps of shape ({P_star}, {P}) in [-1, 1], "
                f"got shape {m0.shape}"
            )
    z = gen.standard_normal((P_star, P))
    return m0 + eps * (z - z.mean(axis=1, keepdims=True))


def _check_init(init: str) -> str:
    if init not in _INITS:
        raise ValueError(f"init must be one of {_INITS!r} or an array of overlaps, got {init!r}")
    return init


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def saddle_point(
    beta_eff: Any,
    rho: Any,
    P_star: Any,
    P: Any,
    *,
    patterns: Any = None,
    p_h: Any = None,
    tau: Any = 0.0,
    init: Any = "symmetric",
    perturbation: Any = 1e-4,
    damping: Any = 0.5,
    tol: Any = 1e-12,
    max_iter: Any = _MAX_ITER,
    rng: Any = 0,
) -> SaddlePoint:
    """Solve the teacher–student saddle-point equations by damped fixed-point iteration.

    Notes
    -----
    Thériault & Tantari 2025, Eq. 9 (uniform teacher, orthonormal for P* ≪ N) or Eq. 10
    (teacher clamped to ``patterns``), with the class layer off (C = 0)::

        m̂^{μ*μ} = σ_μ(β_eff m^{μ*} + log p_h),   γ = 0 logit τ(β) + log p_h(0)
        m^{μ*μ} = ς(2 β_eff ϱ ‖x̄^μ‖) (X* x̄^μ)_{μ*} / ‖x̄^μ‖,   x̄^μ = Σ_{μ*} m̂^{μ*μ} x*^{μ*}

    iterated as m ← d m + (1 − d) m_new until max|Δm| < ``tol``. Which branch is reached depends
    on ``init``; near a bifurcation the iteration slows down critically, and a symmetric start
    without ``perturbation`` stays symmetric whether or not that branch is stable.

    Parameters
    ----------
    beta_eff : float
        β_eff = ς(2v) β in (0, 1e4].
    rho : float
        ϱ = M/(P* N) in (0, 1e12], or ``numpy.inf`` (the loss limit: ς(·) = 1).
    P_star, P : int
        Teacher and student units, 1..10000.
    patterns : array_like of shape (P*, N), optional
        Unit-norm teacher patterns x* (Eq. 10); None for the uniform teacher (Eq. 9).
    p_h : None, float or array_like of shape (P + 1,)
        Hidden-unit prior: None gives p_h(0) = 0 and 1/P for each unit; a float in [0, 1) is
        p_h(0) with the rest shared equally; a vector gives p_h(0..P) (p_h(μ ≥ 1) > 0, sum 1).
    tau : float
        τ(β) = log[Ω_N(β)/Ω_N(0)] at the student's β, in [0, 1e6] (see
        :func:`assocmem.potts_dam.vmf.log_vmf_normaliser`); only matters when p_h(0) > 0.
    init : {"symmetric", "specialised", "random"} or array_like of shape (P*, P)
        Initial overlaps (see *Notes*).
    perturbation : float
        Size in [0, 0.1] of a seeded random kick, centred over the student units (so it breaks
        their permutation symmetry), added to the initial overlaps.
    damping : float
        d in [0, 1).
    tol : float
        Tolerance on max|Δm|, in (0, 1).
    max_iter : int
        Iteration cap (default 20000); a run that hits it warns.
    rng : int or numpy.random.Generator
        Seed of the kick and of ``init="random"``.

    Returns
    -------
    SaddlePoint

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` iterations end above ``tol`` (iterations and residual in the message).

    References
    ----------
    R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025),
    Sec. 3.1, Eqs. 9-11, 22; App. E.

    Examples
    --------
    With one student unit every pattern is captured and m = ς(2β_eff ϱ√P*)/√P* (Eq. 9):

    >>> sp = saddle_point(2.0, 1.0, 2, 1)
    >>> round(float(sp.overlaps[0, 0]), 4)  # ς(4√2)/√2
    0.5931
    """
    b = _check_beta_eff(beta_eff)
    r = _check_rho(rho)
    if r.size != 1:
        raise ValueError(f"rho must be a single number here, got {r.size} values")
    K = check_positive_int(P_star, "P_star", maximum=_UNITS_MAX)
    Pn = check_positive_int(P, "P", maximum=_UNITS_MAX)
    X, G = _patterns_gram(patterns, K)
    logp = _log_prior(_check_p_h(p_h, Pn))
    t = _check_tau(tau)
    m0 = _initial(init, K, Pn, G, perturbation, rng)
    d, tl, n = _check_solver(damping, tol, max_iter)
    sol = _solve(np.array([b]), r, m0, G, logp, t, d, tl, n, np, trace=True)
    _warn_unconverged(sol, tl)
    m, mhat = sol["m"][0], sol["mhat"][0]
    return SaddlePoint(
        beta_eff=b,
        rho=float(r[0]),
        tau=t,
        overlaps=m,
        conjugates=mhat,
        memories=None if X is None else _memories(X, mhat),
        free_entropy=float(sol["f"][0]),
        split_amplitude=float(_split_amplitude(m, np)),
        specialisation=float(_specialisation(m, np)),
        mean_overlap=float(m.mean()),
        converged=bool(sol["converged"][0]),
        n_iter=int(sol["n_iter"][0]),
        residual=float(sol["residual"][0]),
        residuals=sol["history"],
        jacobian_radius=_jacobian_radius(m, b, r, G, logp, t) if K * Pn <= 400 else None,
    )


def phase_diagram(
    rho: Any,
    beta_eff: Any,
    P_star: Any,
    P: Any = 2,
    *,
    patterns: Any = None,
    p_h: Any = None,
    tau: Any = 0.0,
    init: Any = "symmetric",
    perturbation: Any = 1e-4,
    damping: Any = 0.5,
    tol: Any = 1e-9,
    max_iter: Any = _MAX_ITER,
    rng: Any = 0,
    xp: Any = None,
) -> SaddlePhaseDiagram:
    """Solve Eq. 9 (or 10) on every point of a (ϱ, β_eff) grid at once.

    Notes
    -----
    The grid is a leading batch axis of one damped iteration (the kernel of
    :func:`saddle_point`); converged points leave the batch, so the cost follows the slow
    points near the split line β_eff,c = √(P* + 2/ϱ) (Thériault & Tantari 2025, App. G;
    :func:`split_threshold`). Every point starts from the same initial overlaps (same ``init``,
    ``perturbation`` and ``rng``), so a point equals :func:`saddle_point` at that (ϱ, β_eff).

    Parameters
    ----------
    rho : float or array_like of shape (n_rho,)
        Values of ϱ in (0, 1e12], or inf.
    beta_eff : float or array_like of shape (n_beta,)
        Values of β_eff in (0, 1e4].
    P_star, P, patterns, p_h, tau, init, perturbation, damping, max_iter, rng
        As in :func:`saddle_point`.
    tol : float
        Tolerance on max|Δm| (default 1e-9, looser than :func:`saddle_point`'s 1e-12: within a
        few per cent above the split line the escape from the symmetric start and the approach
        to the split branch are critically slow, and a heatmap does not need 1e-12).
    xp : module or None
        numpy (default) or cupy: the namespace of the iteration.

    Returns
    -------
    SaddlePhaseDiagram
        NumPy arrays whatever ``xp`` was.

    Warns
    -----
    ConvergenceWarning
        When some grid points hit ``max_iter`` (their number and the largest residual).

    Examples
    --------
    >>> pd = phase_diagram([1.0], [1.9, 2.1], 2)
    >>> pd.split_amplitude[0] > 0.05
    array([False,  True])
    """
    r = _check_rho(rho)
    b = _as_beta_grid(beta_eff)
    K = check_positive_int(P_star, "P_star", maximum=_UNITS_MAX)
    Pn = check_positive_int(P, "P", maximum=_UNITS_MAX)
    check_size(
        r.size * b.size * K * (Pn + 1),
        "beta_eff",
        "grid elements",
        MAX_ELEMENTS,
        "use fewer grid points",
    )
    X, G = _patterns_gram(patterns, K)
    prior = _check_p_h(p_h, Pn)
    t = _check_tau(tau)
    m0 = _initial(init, K, Pn, G, perturbation, rng)
    d, tl, n = _check_solver(damping, tol, max_iter)
    xp = as_xp(xp) or np
    bb, rr = np.meshgrid(b, r)  # (n_rho, n_beta)
    B = bb.size
    G_xp = None if G is None else xp.asarray(G)
    logp = xp.asarray(_log_prior(prior))
    sol = _solve(
        xp.asarray(bb.ravel()), xp.asarray(rr.ravel()), xp.asarray(m0), G_xp, logp, t, d, tl, n, xp
    )
    _warn_unconverged(sol, tl)
    m = xp.reshape(sol["m"], (B, K, Pn))
    shape = bb.shape

    def grid(a: Any) -> np.ndarray:
        return np.asarray(to_numpy(a)).reshape(shape)

    uniform = prior[0] == 0.0 and bool(np.all(prior[1:] == prior[1]))
    plain = X is None and uniform and K >= 2 and Pn >= 2
    return SaddlePhaseDiagram(
        rho=r,
        beta_eff=b,
        overlaps=np.asarray(to_numpy(m)).reshape(*shape, K, Pn),
        split_amplitude=grid(_split_amplitude(m, xp)),
        specialisation=grid(_specialisation(m, xp)),
        mean_overlap=grid(xp.mean(m, axis=(1, 2))),
        free_entropy=grid(sol["f"]),
        converged=grid(sol["converged"]).astype(bool),
        n_iter=grid(sol["n_iter"]).astype(int),
        threshold=_threshold(K, r, Pn) if plain else None,
    )


def split_threshold(P_star: Any, rho: Any = math.inf, P: Any = 2) -> Any:
    """The first split of P identical student copies, β_eff,c = √(P* + P/ϱ), orthonormal teacher.

    Notes
    -----
    P copies of the one-unit solution of Eq. 9 (p_h(0) = 0, p_h(μ) = 1/P, C = 0) share
    m_sym = ς(2β_eff ϱ √P*/P)/√P*; a mode that moves the copies apart (zero sum over copies)
    has the linear multiplier β_eff ς(2β_eff ϱ √P*/P)/√P*, which reaches 1 at
    β_eff² = P* + P/ϱ (our derivation from Thériault & Tantari 2025, Eq. 9 and App. G; the
    jacobian_radius of :func:`saddle_point` crosses 1 there). For P = 2 this is
    √(P* + 2/ϱ). ϱ → ∞ gives √P*, the value of :func:`cluster_split_threshold` for P*
    orthonormal patterns; ϱ → 0 gives ≈ √(P/ϱ). The pitchfork is supercritical. In terms of
    the student's β: β_c = β_eff,c / ς(2v).

    Parameters
    ----------
    P_star : int
        Teacher units, 2..10000 (one pattern never splits).
    rho : float or array_like
        ϱ in (0, 1e12], or inf (default).
    P : int
        Student copies, 2..10000 (default 2).

    Returns
    -------
    float or numpy.ndarray
        β_eff,c, a float for a scalar ``rho``.

    Examples
    --------
    >>> round(split_threshold(2, 2.0), 4)  # √3
    1.7321
    """
    K = check_positive_int(P_star, "P_star", minimum=2, maximum=_UNITS_MAX)
    Pn = check_positive_int(P, "P", minimum=2, maximum=_UNITS_MAX)
    scalar = isinstance(rho, numbers.Real) and not isinstance(rho, bool | np.bool_)
    out = _threshold(K, _check_rho(rho), Pn)
    return float(out[0]) if scalar else out


def cluster_split_threshold(patterns: Any) -> ClusterSplit:
    """The β_eff above which a memory covering ``patterns`` splits: R̄/λ_max(P⊥ M₂ P⊥).

    Notes
    -----
    Thériault & Tantari 2025, App. G: at the duplicated fixed point (Eq. 13) the antisymmetric
    probe v = (u, −u)/√2, u ⊥ x̃, has vᵀJv = (β_eff/‖x‖) Σ_{μ*} (x*^{μ*}·u)², x = Σ x*.
    Maximising over u (our derivation) gives the instability condition
    β_eff λ_max(P⊥ M₂ P⊥) > R̄ with M₂ = (1/n) Σ x* x*ᵀ, R̄ = ‖(1/n) Σ x*‖, P⊥ = I − x̃x̃ᵀ.
    It is exact for an isolated cluster (all its responsibilities on this memory, p_h(0) = 0)
    in the loss limit ϱ → ∞; for n orthonormal patterns it is √n. The eigenproblem is solved
    in pattern space: λ_max of (1/n)(G − (X*x̃)(X*x̃)ᵀ), G = X* X*ᵀ.

    Parameters
    ----------
    patterns : array_like of shape (n, N)
        Unit-norm patterns covered by the memory (n >= 1, N >= 2).

    Returns
    -------
    ClusterSplit

    Examples
    --------
    >>> round(cluster_split_threshold(np.eye(4)[:3]).beta_split, 4)  # √3
    1.7321
    """
    X = _check_unit_rows(patterns, "patterns")
    n = X.shape[0]
    mean = X.mean(axis=0)
    R_bar = float(np.linalg.norm(mean))
    if R_bar <= 1e-12:
        raise ValueError("patterns must have a non-zero mean (R̄ > 0), got a mean of norm 0")
    x_tilde = mean / R_bar
    proj = X - np.outer(X @ x_tilde, x_tilde)  # rows P⊥ x*
    lam, vec = np.linalg.eigh(proj @ proj.T / n)
    lam_max = max(float(lam[-1]), 0.0)
    u = proj.T @ vec[:, -1]
    norm_u = float(np.linalg.norm(u))
    if lam_max <= 1e-14 or norm_u <= 1e-12:
        return ClusterSplit(math.inf, R_bar, 0.0, np.zeros_like(x_tilde), x_tilde)
    return ClusterSplit(R_bar / lam_max, R_bar, lam_max, u / norm_u, x_tilde)


def gibbs_student(
    examples: Any,
    teacher: Any,
    P: Any,
    beta: Any,
    *,
    p_h: Any = None,
    tau: Any = 0.0,
    n_sweeps: Any = 1500,
    burn_in: Any = 500,
    rng: Any = 0,
) -> GibbsSamples:
    """Sample the student posterior (Eq. 5) by data augmentation, to check Eqs. 9-10.

    Notes
    -----
    With **p** fixed (C = 0, p = p_h) the model density (Eq. 3) is a mixture whose components
    are conjugate to the uniform prior on the sphere, so each sweep is exact (our sampler,
    not in the paper):

    1. each example picks a unit γ_c ~ softmax_γ(β w^γ·x_c + log p_h(γ)), with the outside
       unit's logit τ(β) + log p_h(0);
    2. each memory is redrawn from vMF(s/‖s‖, κ = β‖s‖), s = Σ_{c: γ_c = μ} x_c (uniform on
       the sphere when no example picked it).

    The overlaps with ``teacher`` after ``burn_in`` sweeps estimate the saddle-point m at
    β_eff = ς(2v)β (Thériault & Tantari 2025, Sec. 2.2, Eq. 9), up to finite-N noise
    (about 0.1 in the symmetric phase at N = 200).

    Parameters
    ----------
    examples : array_like of shape (M, N)
        Unit-norm examples x_c (e.g. vMF(w*, κ = vN) draws around the teacher's memories).
    teacher : array_like of shape (P*, N)
        Unit-norm teacher memories w* (used only to measure overlaps).
    P : int
        Student units, 1..10000.
    beta : float
        The student's β > 0 (not β_eff: the noise of the examples makes β_eff).
    p_h, tau
        As in :func:`saddle_point`.
    n_sweeps : int
        Total sweeps (1..10⁶).
    burn_in : int
        Sweeps discarded first, 0 <= burn_in < n_sweeps.
    rng : int or numpy.random.Generator
        Seed of the initial memories and of every draw.

    Returns
    -------
    GibbsSamples

    References
    ----------
    A. T. A. Wood, *Simulation of the von Mises Fisher distribution*, Commun. Stat. Simul.
    Comput. 23 (1994), through :func:`assocmem.potts_dam.vmf.sample_vmf`.
    """
    X = _check_unit_rows(examples, "examples")
    T = _check_unit_rows(teacher, "teacher", N=X.shape[1])
    Pn = check_positive_int(P, "P", maximum=_UNITS_MAX)
    b = check_beta(beta)
    if b > 1e6:
        raise ValueError(f"beta must be a finite number in (0, 1e6], got {b!r}")
    logp = _log_prior(_check_p_h(p_h, Pn))
    t = _check_tau(tau)
    sweeps = check_positive_int(n_sweeps, "n_sweeps", minimum=1, maximum=1_000_000)
    burn = check_positive_int(burn_in, "burn_in", minimum=0, maximum=sweeps - 1)
    check_size(
        float(sweeps) * X.shape[0] * (Pn + 1),
        "n_sweeps",
        "sampled logits",
        MAX_ELEMENTS,
        "use fewer sweeps or examples",
    )
    gen = as_rng(rng)
    return _gibbs(X, T, Pn, b, logp, t, sweeps, burn, gen)


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


def _as_beta_grid(beta_eff: Any) -> np.ndarray:
    if isinstance(beta_eff, numbers.Real) and not isinstance(beta_eff, bool | np.bool_):
        return np.array([_check_beta_eff(beta_eff)])
    arr = as_real_array(beta_eff, "beta_eff", ndim=1, xp=np)
    bad = (arr <= 0) | (arr > _BETA_EFF_MAX)
    if bool(np.any(bad)):
        raise ValueError(f"beta_eff must lie in (0, {_BETA_EFF_MAX:g}], got {arr[bad][0]!r}")
    return arr


def _patterns_gram(patterns: Any, K: int) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(X*, G = X* X*ᵀ) for Eq. 10, or (None, None) for Eq. 9 (G = I)."""
    if patterns is None:
        return None, None
    X = _check_unit_rows(patterns, "patterns")
    if X.shape[0] != K:
        raise ValueError(f"patterns must have P_star = {K} rows, got shape {X.shape}")
    return X, X @ X.T


def _log_prior(p_h: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(p_h)  # log 0 = -inf for an empty outside unit


def _threshold(K: int, rho: np.ndarray, P: int) -> np.ndarray:
    """β_eff,c = √(P* + P/ϱ) (App. G with Eq. 9; see split_threshold)."""
    return np.sqrt(K + P / rho)


def _varsigma(x: Any, xp: Any) -> Any:
    """ς(x) = x/(√(x²+1) + 1) = tanh(½ arsinh x) (App. E); ς(inf) = 1."""
    return xp.tanh(0.5 * xp.arcsinh(x))


def _eta(x: Any, xp: Any) -> Any:
    """η(x) = √(1+x²) − 1 − log(1 + √(1+x²)) + log 2 (Eq. 18), as d − log1p(d/2) with
    d = √(1+x²) − 1 = x²/(√(1+x²) + 1), free of cancellation at small x."""
    d = x * x / (xp.hypot(x, 1.0) + 1.0)
    return d - xp.log1p(0.5 * d)


def _conjugates(m: Any, beta_eff: Any, logp: Any, tau: float, xp: Any) -> tuple[Any, Any]:
    """m̂ = σ_μ(β_eff m + log p_h) with the γ = 0 logit τ + log p_h(0) (Eqs. 9, 23); and the
    log-normaliser log Σ_γ exp(logit) per teacher memory, shapes (B, P*, P) and (B, P*)."""
    z = beta_eff[:, None, None] * m + logp[1:]
    z0 = tau + logp[0]
    top = xp.maximum(xp.max(z, axis=2), z0)
    e = xp.exp(z - top[:, :, None])
    total = xp.sum(e, axis=2) + xp.exp(z0 - top)
    return e / total[:, :, None], top + xp.log(total)


def _norms(mhat: Any, G: Any, xp: Any) -> tuple[Any, Any]:
    """(X* x̄^μ, ‖x̄^μ‖) in overlap space: G m̂ and √(m̂ᵀ G m̂) (Eq. 10; G = I for Eq. 9)."""
    Gm = mhat if G is None else xp.matmul(G, mhat)
    return Gm, xp.sqrt(xp.sum(mhat * Gm, axis=1))


def _update(m: Any, beta_eff: Any, rho: Any, G: Any, logp: Any, tau: float, xp: Any) -> Any:
    """One undamped step of Eq. 9/10: m → ς(2β_eff ϱ‖x̄‖) X* x̄/‖x̄‖."""
    mhat, _ = _conjugates(m, beta_eff, logp, tau, xp)
    Gm, n = _norms(mhat, G, xp)
    ok = n > 0
    n_safe = xp.where(ok, n, 1.0)
    shrink = _varsigma(2.0 * beta_eff[:, None] * rho[:, None] * n_safe, xp)
    return xp.where(ok[:, None, :], shrink[:, None, :] * Gm / n_safe[:, None, :], 0.0)


def _free_entropy(m: Any, beta_eff: Any, rho: Any, G: Any, logp: Any, tau: float, xp: Any) -> Any:
    """f/ϱ of Eq. 22 (C = 0), without −P* log Ω_N(β); ϱ = ∞ takes the limit ½η(2x)/ϱ → x."""
    mhat, lse = _conjugates(m, beta_eff, logp, tau, xp)
    _, n = _norms(mhat, G, xp)
    inf = xp.isinf(rho)
    rho_f = xp.where(inf, 1.0, rho)[:, None]
    finite = _eta(2.0 * beta_eff[:, None] * rho_f * n, xp) / (2.0 * rho_f)
    entropic = xp.where(inf[:, None], beta_eff[:, None] * n, finite)
    energetic = -beta_eff * xp.sum(mhat * m, axis=(1, 2))
    return energetic + xp.sum(entropic, axis=1) + xp.sum(lse, axis=1)


def _solve(
    beta_eff, rho, m0, G, logp, tau, damping, tol, max_iter, xp, trace: bool = False
) -> dict[str, Any]:
    """Damped iteration of Eq. 9/10 over a batch; converged points leave the active set.

    With ``trace`` the largest active max|Δm| of every iteration is kept (one float each)."""
    B = beta_eff.shape[0]
    m = xp.broadcast_to(m0, (B, *m0.shape)).copy()
    n_iter = xp.zeros(B, dtype=xp.int64)
    residual = xp.full(B, xp.inf)
    active = xp.arange(B)
    history: list[float] = []
    it = 0
    while active.size and it < max_iter:
        old = m[active]
        new = damping * old + (1.0 - damping) * _update(
            old, beta_eff[active], rho[active], G, logp, tau, xp
        )
        res = xp.max(xp.abs(new - old), axis=(1, 2))
        m[active] = new
        it += 1
        residual[active] = res
        n_iter[active] = it
        if trace:
            history.append(float(xp.max(res)))
        active = active[res >= tol]
    mhat, _ = _conjugates(m, beta_eff, logp, tau, xp)
    return {
        "m": m,
        "mhat": mhat,
        "f": _free_entropy(m, beta_eff, rho, G, logp, tau, xp),
        "converged": residual < tol,
        "n_iter": n_iter,
        "residual": residual,
        "history": np.asarray(history),
    }


def _jacobian_radius(m, beta_eff, rho, G, logp, tau, h: float = 1e-6) -> float:
    """Spectral radius of d m_new / d m (undamped Eq. 9/10 map) by central differences."""
    D = m.size
    probes = np.concatenate([np.eye(D), -np.eye(D)]).reshape(2 * D, *m.shape)
    batch = np.full(2 * D, beta_eff), np.full(2 * D, rho[0])
    out = _update(m + h * probes, *batch, G, logp, tau, np)
    J = (out[:D] - out[D:]).reshape(D, D).T / (2.0 * h)  # J[i, j] = ∂ m_new_i / ∂ m_j
    return float(np.max(np.abs(np.linalg.eigvals(J))))


def _warn_unconverged(sol: dict[str, Any], tol: float) -> None:
    bad = np.asarray(to_numpy(~sol["converged"]))
    if bool(bad.any()):
        res = float(np.max(np.asarray(to_numpy(sol["residual"]))[bad]))
        its = int(np.max(np.asarray(to_numpy(sol["n_iter"]))))
        warnings.warn(
            f"saddle-point iteration did not converge at {int(bad.sum())} point(s) after "
            f"{its} iterations: max|Δm| = {res:.3g} > tol = {tol:.3g}; raise max_iter or damping "
            "(slow convergence is expected near the split line)",
            ConvergenceWarning,
            stacklevel=3,
        )


def _memories(X: np.ndarray, mhat: np.ndarray) -> np.ndarray:
    """w^μ = x̄^μ/‖x̄^μ‖ with x̄ = X*ᵀ m̂ (Eq. 11); a unit with x̄ = 0 stays 0."""
    xbar = mhat.T @ X
    n = np.linalg.norm(xbar, axis=1, keepdims=True)
    return np.where(n > 0, xbar / np.where(n > 0, n, 1.0), 0.0)


def _split_amplitude(m: Any, xp: Any) -> Any:
    """max over μ* of (max_μ − min_μ) m^{μ*μ}, for a (..., P*, P) array."""
    return xp.max(xp.max(m, axis=-1) - xp.min(m, axis=-1), axis=-1)


def _specialisation(m: Any, xp: Any) -> Any:
    """Mean over μ of (max_μ* − min_μ*) m^{μ*μ}, for a (..., P*, P) array."""
    return xp.mean(xp.max(m, axis=-2) - xp.min(m, axis=-2), axis=-1)


def _gibbs(X, T, P, beta, logp, tau, sweeps, burn, gen) -> GibbsSamples:
    """Data-augmentation Gibbs sweeps (see gibbs_student)."""
    M, N = X.shape
    W = gen.standard_normal((P, N))
    W /= np.linalg.norm(W, axis=1, keepdims=True)
    kept = np.empty((sweeps - burn, T.shape[0], P))
    logits = np.empty((M, P + 1))
    logits[:, 0] = tau + logp[0]
    for sweep in range(sweeps):
        logits[:, 1:] = beta * (X @ W.T) + logp[1:]
        gamma = np.argmax(logits + gen.gumbel(size=logits.shape), axis=1)
        S = (gamma[None, :] == np.arange(1, P + 1)[:, None]).astype(np.float64) @ X  # (P, N)
        W = _vmf_draws(S, beta, gen)
        if sweep >= burn:
            kept[sweep - burn] = T @ W.T
    return GibbsSamples(
        overlaps=kept,
        mean_overlap=kept.mean(axis=0),
        specialisation=float(_specialisation(kept, np).mean()),
        memories=W,
    )


def _vmf_draws(S: np.ndarray, beta: float, gen: np.random.Generator) -> np.ndarray:
    """One draw per row s of vMF(s/‖s‖, κ = β‖s‖), uniform where s = 0 (Wood 1994).

    Wood's rejection sampler for the cosine t, then x = t μ + √(1 − t²) v with v uniform
    orthogonal to μ, for all rows at once. scipy.stats.vonmises_fisher (which
    :func:`assocmem.potts_dam.vmf.sample_vmf` calls) costs about 4 ms per frozen single draw,
    15 s for the 1500 sweeps of a two-memory chain; this batched kernel is about 100x faster.
    """
    P, N = S.shape
    norms = np.linalg.norm(S, axis=1)
    kappa = beta * norms
    mu = np.where(norms[:, None] > 0, S / np.where(norms > 0, norms, 1.0)[:, None], 0.0)
    t = np.zeros(P)
    todo = kappa > 0
    n1 = N - 1.0
    b = n1 / (2.0 * kappa + np.sqrt(4.0 * kappa**2 + n1**2))  # stable form of Wood's b
    x0 = (1.0 - b) / (1.0 + b)
    c = kappa * x0 + n1 * (np.log(4.0 * b) - 2.0 * np.log1p(b))  # log(1 − x0²) = log 4b/(1+b)²
    while np.any(todo):
        idx = np.flatnonzero(todo)
        z = gen.beta(n1 / 2.0, n1 / 2.0, size=idx.size)
        tt = (1.0 - (1.0 + b[idx]) * z) / (1.0 - (1.0 - b[idx]) * z)
        ok = kappa[idx] * tt + n1 * np.log1p(-x0[idx] * tt) - c[idx] >= np.log(
            gen.uniform(size=idx.size)
        )
        t[idx[ok]] = tt[ok]
        todo[idx[ok]] = False
    v = gen.standard_normal((P, N))
    v -= np.sum(v * mu, axis=1, keepdims=True) * mu
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return t[:, None] * mu + np.sqrt(np.maximum(1.0 - t * t, 0.0))[:, None] * v
