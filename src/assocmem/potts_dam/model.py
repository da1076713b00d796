"""The Potts-hidden dense associative memory: density, losses, gradients, prediction, training.

Paper: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025). A
three-layer Boltzmann machine with Potts hidden units marginalises into a mixture of von
Mises–Fisher densities plus a uniform "outside" component (Eq. 3); training it by maximum
likelihood (Eq. 4) or on the effective loss (Eq. 12) is a dense associative memory whose
memories are class prototypes.

Notation map
------------
- data x ∈ S^{N−1} (one row per example)                 -> ``X``, shape (B, N)
- memories w^μ ∈ S^{N−1}, μ = 1..P                        -> ``w``, shape (P, N)
- class weights p_y^γ, y = 0..C, γ = 0..P                 -> ``p``, shape (C + 1, P + 1)
- class marginal p_q(y) = Σ_γ p_y^γ                       -> ``p.sum(axis=1)``
- cluster marginal p_h(γ) = Σ_y p_y^γ                     -> ``p.sum(axis=0)``
- soft labels q_y^{*μ}                                    -> ``Q``, shape (B, C + 1)
- β, ς, β_eff = ςβ (Eq. 12)                               -> ``beta``, ``varsigma``
- τ(β) = log Ω_N(β)/Ω_N(0) (App. C, Eq. 17)               -> :func:`assocmem.potts_dam.vmf`
- r_γ(x) = Σ_y q_y σ_γ(β m + log p_y) (label-weighted
  responsibility, Eq. 6)                                  -> ``responsibilities``

Index conventions follow the paper: row y = 0 of ``p`` is the "no class" state and column γ = 0
the outside (uniform) unit, whose logit is τ(β) with the student's β (never ςβ). Data labels
k = 0..C−1 (as returned by the digit loaders) are the paper's classes y = k + 1; :func:`predict`
returns data labels.

Training (App. F, I) is momentum SGD on the sphere for ``w`` (Riemannian gradient, then
renormalisation), a multiplicative step on ``p`` followed by Sinkhorn–Knopp scaling back onto
the transportation polytope (Eq. 27), and, optionally, plain SGD on log β. Work is counted in
unit-epochs: P units trained on the whole training set once is P units of work.

Public functions
----------------
``log_density``, ``loss``, ``effective_loss``, ``loss_gradients`` (result ``LossGradients``),
``responsibilities``, ``class_probabilities``, ``predict``, ``soft_labels``,
``project_polytope``, ``polytope_step``, ``init_state`` (result ``DamState``) and ``train``
(result ``TrainResult``).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import gammaln

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    ConvergenceWarning,
    as_real_array,
    as_rng,
    check_bool,
    check_fraction,
    check_instance,
    check_positive_float,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.potts_dam.vmf import mean_resultant_length, tau

__all__ = [
    "DamState",
    "LossGradients",
    "TrainResult",
    "class_probabilities",
    "effective_loss",
    "init_state",
    "log_density",
    "loss",
    "loss_gradients",
    "polytope_step",
    "predict",
    "project_polytope",
    "responsibilities",
    "soft_labels",
    "train",
]

BETA_MAX = 1e5  # β beyond this is far past any trained value (MNIST β ≈ 40, digits ≈ 35)
_SPHERE_TOL = 1e-6  # |‖x‖ − 1| allowed for points and memories on the sphere
_SUM_TOL = 1e-6  # tolerance on Σ p = 1, on soft-label rows and on matching marginals
_SINKHORN_TOL = 1e-12
_SINKHORN_ITER = 1000
_MAX_CLASSES = 100_000
_LR_MAX = 1e6  # step sizes; larger ones only overflow
_LOG_BETA_MIN, _LOG_BETA_MAX = math.log(1e-3), math.log(BETA_MAX)  # trained β stays in here


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DamState:
    """The trainable parameters of the DAM.

    Attributes
    ----------
    w : ndarray, shape (P, N)
        Memories, rows on the unit sphere.
    p : ndarray, shape (C + 1, P + 1)
        Class weights on the transportation polytope (row y = 0: no class; column γ = 0: the
        outside unit). Its row and column sums are the fixed marginals p_q and p_h.
    beta : float
        Inverse temperature β (the vMF concentration).
    """

    w: Any
    p: Any
    beta: float


@dataclass(frozen=True)
class LossGradients:
    """Value and gradients of the effective loss (Eq. 12; Eq. 4 when ς = 1).

    Attributes
    ----------
    loss : float
        𝓛(w, p).
    w : ndarray, shape (P, N)
        Riemannian gradient: the Euclidean gradient projected on the tangent space of each
        memory, (I − w^μ w^μᵀ) ∂𝓛/∂w^μ (App. F).
    p : ndarray, shape (C + 1, P + 1)
        Euclidean gradient ∂𝓛/∂p_y^γ (entries treated as free).
    beta : float
        ∂𝓛/∂β at fixed ς.
    """

    loss: float
    w: Any
    p: Any
    beta: float


@dataclass(frozen=True)
class TrainResult:
    """Outcome of :func:`train`.

    Attributes
    ----------
    state : DamState
        The parameters after the last epoch.
    epoch : ndarray, shape (E + 1,)
        0, 1, ..., E (entry 0 is the initial state).
    loss : ndarray, shape (E + 1,)
        Training loss (Eq. 12 with the run's ς; Eq. 4 when ς = 1) on the whole training set.
    train_accuracy, test_accuracy : ndarray, shape (E + 1,)
        Fraction of correct predictions (Eq. 14); ``test_accuracy`` is all NaN without test data.
    beta : ndarray, shape (E + 1,)
        β after each epoch (constant unless β is trained).
    work : ndarray, shape (E + 1,)
        Cumulative work in unit-epochs, P × epochs.
    sinkhorn_misses : int
        Steps whose Sinkhorn scaling stopped above its tolerance (0 in a healthy run).
    """

    state: DamState
    epoch: np.ndarray
    loss: np.ndarray
    train_accuracy: np.ndarray
    test_accuracy: np.ndarray
    beta: np.ndarray
    work: np.ndarray
    sinkhorn_misses: int


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def _check_beta(beta: Any, name: str = "beta") -> float:
    return check_fraction(beta, name, 0.0, BETA_MAX, open_lo=True, open_hi=False)


def _check_varsigma(varsigma: Any) -> float:
    return check_fraction(varsigma, "varsigma", 0.0, 1.0, open_lo=True, open_hi=False)


def _check_sphere(a: Any, name: str, xp: Any = None) -> Any:
    """A (rows, N) array whose rows have unit norm within 1e-6."""
    arr = as_real_array(a, name, ndim=2, xp=xp)
    if arr.shape[0] < 1 or arr.shape[1] < 2:
        raise ValueError(f"{name} must have shape (rows >= 1, N >= 2), got shape {arr.shape}")
    xp = array_namespace(arr)
    top = float(xp.max(xp.abs(arr)))
    dev = top - 1.0 if top > 2.0 else float(xp.max(xp.abs(xp.linalg.norm(arr, axis=1) - 1.0)))
    if not dev <= _SPHERE_TOL:
        raise ValueError(
            f"{name} must have rows of unit Euclidean norm (within {_SPHERE_TOL:g}), got a row "
            f"whose norm is off by {dev:.3g}; normalise it"
        )
    return arr


def _check_weights(p: Any, P: int, xp: Any) -> Any:
    """Class weights: shape (C + 1, P + 1), entries >= 0, total 1 within 1e-6."""
    arr = as_real_array(p, "p", ndim=2, xp=xp)
    if arr.shape[1] != P + 1 or arr.shape[0] < 2:
        raise ValueError(
            f"p must have shape (C + 1, {P + 1}) with C >= 1 (P = {P} memories), "
            f"got shape {arr.shape}"
        )
    if bool(xp.any(arr < 0)):
        raise ValueError("p must have entries >= 0, got a negative entry")
    total = float(xp.sum(arr))
    if not abs(total - 1.0) <= _SUM_TOL:
        raise ValueError(f"p must have entries summing to 1 (within {_SUM_TOL:g}), got {total!r}")
    return arr


def _check_soft(Q: Any, B: int, C1: int, xp: Any) -> Any:
    """Soft labels: shape (B, C + 1), entries >= 0, rows summing to 1."""
    arr = as_real_array(Q, "Q", ndim=2, xp=xp)
    if arr.shape != (B, C1):
        raise ValueError(f"Q must have shape ({B}, {C1}) (one row per example), got {arr.shape}")
    if bool(xp.any(arr < 0)):
        raise ValueError("Q must have entries >= 0, got a negative entry")
    dev = float(xp.max(xp.abs(xp.sum(arr, axis=1) - 1.0)))
    if not dev <= _SUM_TOL:
        raise ValueError(f"Q must have rows summing to 1 (within {_SUM_TOL:g}), off by {dev:.3g}")
    return arr


def _check_support(Q: Any, p: Any, xp: Any) -> None:
    """Refuse soft labels on a class whose weights are all zero (the loss would be +inf)."""
    empty = xp.sum(p, axis=1) == 0
    if bool(xp.any((Q > 0) & empty[None, :])):
        raise ValueError(
            "Q must put no weight on a class y whose class weights p_y are all zero "
            "(p_q(y) = 0), got such a weight"
        )


def _check_model(X: Any, w: Any, p: Any, beta: Any, varsigma: Any) -> tuple[Any, ...]:
    xp = array_namespace(X, w, p)
    X = _check_sphere(X, "X", xp)
    w = _check_sphere(w, "w", xp)
    if w.shape[1] != X.shape[1]:
        raise ValueError(f"w must have shape (P, {X.shape[1]}) like X's rows, got {w.shape}")
    p = _check_weights(p, w.shape[0], xp)
    check_size(
        X.shape[0] * max(w.shape[0] + 1, p.shape[0]),
        "X",
        "elements in the (B, P + 1) logits",
        MAX_ELEMENTS,
        "pass fewer rows at a time",
    )
    return xp, X, w, p, _check_beta(beta), _check_varsigma(varsigma)


def _check_labelled(X: Any, Q: Any, w: Any, p: Any, beta: Any, varsigma: Any) -> tuple[Any, ...]:
    """:func:`_check_model` plus soft labels that fit p (Eq. 12's q*)."""
    xp, X, w, p, beta, varsigma = _check_model(X, w, p, beta, varsigma)
    Q = _check_soft(Q, X.shape[0], p.shape[0], xp)
    _check_support(Q, p, xp)
    return xp, X, Q, w, p, beta, varsigma


def _check_labels(labels: Any, B: int, C: int, name: str = "labels") -> np.ndarray:
    arr = np.asarray(to_numpy(labels)) if hasattr(labels, "dtype") else labels
    arr = as_real_array(arr, name, ndim=1, xp=np)
    if arr.shape[0] != B:
        raise ValueError(f"{name} must have shape ({B},) (one label per row), got {arr.shape}")
    if bool(np.any(arr != np.round(arr))) or bool(np.any((arr < 0) | (arr >= C))):
        raise ValueError(f"{name} must hold integer class labels in [0, {C}), got {arr!r:.80}")
    return arr.astype(np.int64)


# --------------------------------------------------------------------------------------------
# Kernels (trust their input)
# --------------------------------------------------------------------------------------------


def _log_ratio(N: int, beta: float) -> float:
    """τ(β) = log Ω_N(β)/Ω_N(0), the outside unit's logit (App. A; App. C, Eq. 17)."""
    return float(tau(N, beta))


def _log_area(N: int) -> float:
    """log Ω_N(0) = log(2 π^{N/2}/Γ(N/2)), the area of S^{N−1}."""
    return math.log(2.0) + 0.5 * N * math.log(math.pi) - float(gammaln(0.5 * N))


def _log(xp: Any, a: Any) -> Any:
    if xp is np:
        with np.errstate(divide="ignore"):
            return np.log(a)
    return xp.log(a)


def _forward(X: Any, w: Any, p: Any, beta: float, varsigma: float, xp: Any) -> tuple[Any, ...]:
    """Overlaps M, shifted exponentials E, mixture sums D and log 𝒫_{β,ς}(x, y) (Eq. 12).

    The (B, C + 1, P + 1) logits β m + log p_y of the paper are never formed: with
    E = exp(Z − max Z) the mixture sum over γ is the GEMM D = E pᵀ.
    """
    N = X.shape[1]
    tau = _log_ratio(N, beta)
    M = X @ w.T
    Z = xp.concatenate([xp.full((X.shape[0], 1), tau), (varsigma * beta) * M], axis=1)
    zmax = xp.max(Z, axis=1, keepdims=True)
    E = xp.exp(Z - zmax)
    D = E @ p.T
    log_pxy = zmax + _log(xp, D) - (tau + _log_area(N))
    return M, E, D, log_pxy


def _loss_value(Q: Any, log_pxy: Any, xp: Any) -> float:
    safe = xp.where(Q > 0, log_pxy, 0.0)
    return -float(xp.sum(Q * safe)) / Q.shape[0]


def _weights_over_sums(Q: Any, D: Any, xp: Any) -> Any:
    """Q_{c y}/D_{c y} with 0 where Q = 0 (a class the example does not carry)."""
    if xp is np:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(Q > 0, Q / np.maximum(D, 1e-300), 0.0)
    return xp.where(Q > 0, Q / xp.maximum(D, 1e-300), 0.0)


def _grads(X, Q, w, p, beta, varsigma, xp) -> tuple[float, Any, Any, float, Any]:
    """Loss, Riemannian w-gradient, p-gradient, β-gradient and responsibilities (§4.1)."""
    M, E, D, log_pxy = _forward(X, w, p, beta, varsigma, xp)
    B = X.shape[0]
    V = _weights_over_sums(Q, D, xp)
    r = E * (V @ p)  # r_{cγ} = Σ_y Q_{cy} σ_γ(β m + log p_y), rows sum to 1
    grad_p = -(V.T @ E) / B
    g = (-(varsigma * beta) / B) * (r[:, 1:].T @ X)
    g = g - xp.sum(g * w, axis=1, keepdims=True) * w
    a_n = float(mean_resultant_length(X.shape[1], beta))
    grad_beta = -float(xp.sum(r[:, 1:] * (varsigma * M - a_n))) / B
    return _loss_value(Q, log_pxy, xp), g, grad_p, grad_beta, r


def _sinkhorn(K: Any, p_q: Any, p_h: Any, tol: float, max_iter: int, xp: Any) -> tuple[Any, bool]:
    """Scale K to row sums p_q and column sums p_h: D_L K D_R (Eq. 27's Sinkhorn scaling).

    Plain Sinkhorn–Knopp sweeps converge slowly once each memory holds one class (a few hundred
    sweeps at P = 100 on the digits), so once every row sum is within a factor e^0.5 of its
    target (Sinkhorn sweeps until then) the row scalings e^u are found by Newton's method on
    the convex dual f(u) = Σ_γ p_h(γ) log Σ_y e^{u_y} K_y^γ − Σ_y p_q(y) u_y, whose gradient
    is the row residual; the column scalings then make the column sums exact. Rows with
    p_q = 0 are set to zero. The result is the same unique matrix D_L K D_R.
    """
    idx = xp.nonzero(p_q > 0)[0]
    q = p_q[idx]
    logk = _log(xp, K[idx])
    u = -xp.max(logk, axis=1)  # start with every row's largest entry at 1
    f, pi = _dual(u, logk, q, p_h, xp)
    ok = False
    for _ in range(max_iter):
        rows = pi @ p_h
        grad = rows - q
        if float(xp.max(xp.abs(grad))) <= tol:
            ok = True
            break
        far = float(xp.max(xp.abs(_log(xp, xp.maximum(rows, 1e-300) / q)))) > 0.5
        step = None if far else _newton_step(rows, pi, p_h, grad, xp)
        if step is None:  # a Sinkhorn sweep in dual form: rows rescaled to their targets
            u = u + _log(xp, q / xp.maximum(rows, 1e-300))
            f, pi = _dual(u, logk, q, p_h, xp)
            continue
        slope, t = float(xp.sum(grad * step)), 1.0
        while True:  # backtracking (Armijo) on the dual, blind to rounding of f near the end
            f_new, pi_new = _dual(u + t * step, logk, q, p_h, xp)
            if f_new <= f + 1e-4 * t * slope + 1e-13 * abs(f) or t < 1e-10:
                break
            t *= 0.5
        u, f, pi = u + t * step, f_new, pi_new
    out = xp.zeros_like(K)
    out[idx] = pi * p_h[None, :]
    return out, ok


def _newton_step(rows: Any, pi: Any, p_h: Any, grad: Any, xp: Any) -> Any:
    """Newton direction on the dual; None when the Hessian is numerically singular."""
    hess = xp.diag(rows) - (pi * p_h[None, :]) @ pi.T + 1.0 / rows.shape[0]
    try:
        step = -xp.linalg.solve(hess, grad)
    except np.linalg.LinAlgError:
        return None
    return step if bool(xp.all(xp.isfinite(step))) else None


def _dual(u: Any, logk: Any, q: Any, p_h: Any, xp: Any) -> tuple[float, Any]:
    """The dual f(u) of :func:`_sinkhorn` and the column-wise softmax π_γ(y) of u_y + log K."""
    a = u[:, None] + logk
    amax = xp.max(a, axis=0, keepdims=True)
    amax = xp.where(xp.isfinite(amax), amax, 0.0)
    e = xp.exp(a - amax)
    s = xp.sum(e, axis=0, keepdims=True)
    lse = (amax + _log(xp, s))[0]
    used = p_h > 0
    f = float(xp.sum(xp.where(used, p_h * xp.where(used, lse, 0.0), 0.0)) - xp.sum(q * u))
    return f, e / xp.where(s > 0, s, 1.0)


def _mirror_step(
    p: Any, grad: Any, lr: float, clip: float, xp: Any, marginals: tuple[Any, Any] | None = None
) -> tuple[Any, bool]:
    """Eq. 27 with App. F's pre-multiplied gradient: p ← D_L [p e^{−η G̃}] D_R.

    The targets are p's own marginals unless ``marginals`` = (p_q, p_h) fixes them (training
    does, so that rounding does not drift them over thousands of steps).
    """
    p_q, p_h = (xp.sum(p, axis=1), xp.sum(p, axis=0)) if marginals is None else marginals
    share = p / xp.where(p_h > 0, p_h, 1.0)[None, :]
    g = grad - xp.sum(share * grad, axis=0, keepdims=True)
    K = p * xp.exp(xp.clip(-lr * xp.clip(g, -1e100, 1e100), -clip, clip))
    return _sinkhorn(K, p_q, p_h, _SINKHORN_TOL, _SINKHORN_ITER, xp)


def _soft(labels: np.ndarray, C: int, smoothing: float, xp: Any) -> Any:
    Q = np.full((labels.shape[0], C + 1), smoothing / (C + 1))
    Q[np.arange(labels.shape[0]), labels + 1] += 1.0 - smoothing
    return xp.asarray(Q)


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def log_density(X: Any, w: Any, p: Any, beta: Any, varsigma: Any = 1.0) -> Any:
    """log 𝒫_{β,ς}(x, y | w, p) for every example and class (Eq. 3; Eq. 12 when ς < 1).

    Parameters
    ----------
    X : ndarray, shape (B, N)
        Examples, rows on the unit sphere (N >= 2), NumPy or CuPy.
    w : ndarray, shape (P, N)
        Memories, rows on the unit sphere.
    p : ndarray, shape (C + 1, P + 1)
        Class weights, entries >= 0 summing to 1 (column 0: the outside unit).
    beta : float
        Inverse temperature β in (0, 1e5].
    varsigma : float
        ς in (0, 1]; it multiplies β only in the exponent (Eq. 12).

    Returns
    -------
    ndarray, shape (B, C + 1)
        log[Σ_μ p_y^μ e^{ςβ w^μ·x}/Ω_N(β) + p_y^0/Ω_N(0)]; −inf where p_y is all zero.

    Notes
    -----
    The outside unit's logit is τ(β) = log Ω_N(β)/Ω_N(0) with the student's β (the paper's
    m^{μ*0} = τ(β)/β), so ς never enters τ. With ς = 1 and Σ p = 1 this is the log of a
    probability density on S^{N−1} × {0..C} (Eq. 3); with ς < 1 it is not normalised.

    Examples
    --------
    With p all on the outside unit the density is uniform: log P = −log Ω_N(0), which is
    −log(2π) on the circle.

    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); w = np.array([[1.0, 0.0]])
    >>> p = np.array([[0.0, 0.0], [1.0, 0.0]])
    >>> np.allclose(log_density(X, w, p, 3.0)[:, 1], -np.log(2 * np.pi))
    True
    """
    xp, X, w, p, beta, varsigma = _check_model(X, w, p, beta, varsigma)
    return _forward(X, w, p, beta, varsigma, xp)[3]


def effective_loss(X: Any, Q: Any, w: Any, p: Any, beta: Any, varsigma: Any = 1.0) -> float:
    """The effective loss 𝓛 of Eq. 12: −(1/B) Σ_c Σ_y q_y^c log 𝒫_{β,ς}(x^c, y).

    Parameters
    ----------
    X, w, p, beta, varsigma
        As in :func:`log_density`.
    Q : ndarray, shape (B, C + 1)
        Soft labels, entries >= 0 with rows summing to 1 (see :func:`soft_labels`).

    Returns
    -------
    float
        𝓛 (+inf when an example carries a class whose weights are all zero).

    Notes
    -----
    ς = 1 gives the negative log-likelihood L of Eq. 4 (:func:`loss`). For ς < 1 the loss is
    not a log-likelihood (Eq. 12's 𝒫_{β,ς} is not normalised).
    """
    xp, X, Q, w, p, beta, varsigma = _check_labelled(X, Q, w, p, beta, varsigma)
    return _loss_value(Q, _forward(X, w, p, beta, varsigma, xp)[3], xp)


def loss(X: Any, Q: Any, w: Any, p: Any, beta: Any) -> float:
    """The negative log-likelihood L of Eq. 4 (the effective loss at ς = 1).

    Parameters
    ----------
    X, Q, w, p, beta
        As in :func:`effective_loss`.

    Returns
    -------
    float
        L(w, p) = −(1/B) Σ_c Σ_y q_y^c log P_β(x^c, y | w, p).

    Examples
    --------
    A single memory that carries all the class weight, one example on it (N = 2):
    L = −β − log p + log Ω_2(β) with Ω_2(β) = 2π I_0(β).

    >>> import numpy as np
    >>> from scipy.special import i0
    >>> X = w = np.array([[1.0, 0.0]]); p = np.array([[0.0, 0.0], [0.0, 1.0]])
    >>> Q = np.array([[0.0, 1.0]])
    >>> bool(np.isclose(loss(X, Q, w, p, 2.0), -2.0 + np.log(2 * np.pi * i0(2.0))))
    True
    """
    return effective_loss(X, Q, w, p, beta, 1.0)


def loss_gradients(X: Any, Q: Any, w: Any, p: Any, beta: Any, varsigma: Any = 1.0) -> LossGradients:
    """The effective loss (Eq. 12) and its gradients in w (on the sphere), p and β.

    Parameters
    ----------
    X, Q, w, p, beta, varsigma
        As in :func:`effective_loss`.

    Returns
    -------
    LossGradients

    Notes
    -----
    With r_γ the label-weighted responsibilities (the softmax of Eq. 6 over γ = 0..P with
    log p_y added, weighted by q_y) and m_μ = w^μ·x:

    - ∂𝓛/∂w^μ = −(ςβ/B) Σ_c r_μ x^c, projected on the tangent space (App. F);
    - ∂𝓛/∂p_y^γ = −(1/B) Σ_c q_y^c σ_γ/p_y^γ;
    - ∂𝓛/∂β = −(1/B) Σ_c Σ_{μ>=1} r_μ (ς m_μ − A_N(β)), A_N = τ' the vMF mean resultant
      length (our derivation from Eq. 12; β stops growing where A_N(β) = ς m̄).
    """
    xp, X, Q, w, p, beta, varsigma = _check_labelled(X, Q, w, p, beta, varsigma)
    value, gw, gp, gb, _ = _grads(X, Q, w, p, beta, varsigma, xp)
    return LossGradients(loss=value, w=gw, p=gp, beta=gb)


def responsibilities(X: Any, Q: Any, w: Any, p: Any, beta: Any, varsigma: Any = 1.0) -> Any:
    """Label-weighted posterior responsibilities r_γ(x) = Σ_y q_y σ_γ(ςβ m + log p_y) (Eq. 6).

    Parameters
    ----------
    X, Q, w, p, beta, varsigma
        As in :func:`effective_loss`.

    Returns
    -------
    ndarray, shape (B, P + 1)
        Column 0 is the outside unit; each row sums to 1.
    """
    xp, X, Q, w, p, beta, varsigma = _check_labelled(X, Q, w, p, beta, varsigma)
    return _grads(X, Q, w, p, beta, varsigma, xp)[4]


def class_probabilities(X: Any, w: Any, p: Any, beta: Any, varsigma: Any = 1.0) -> Any:
    """𝒫_{β,ς}(y | x) = 𝒫_{β,ς}(x, y)/Σ_{y'} 𝒫_{β,ς}(x, y') (Eq. 14).

    Parameters
    ----------
    X, w, p, beta, varsigma
        As in :func:`log_density`.

    Returns
    -------
    ndarray, shape (B, C + 1)
        Class posteriors, column 0 the "no class" state; rows sum to 1.
    """
    xp, X, w, p, beta, varsigma = _check_model(X, w, p, beta, varsigma)
    D = _forward(X, w, p, beta, varsigma, xp)[2]
    return D / xp.sum(D, axis=1, keepdims=True)


def predict(X: Any, w: Any, p: Any, beta: Any, varsigma: Any = 1.0) -> Any:
    """Bayes-rule class of each example: argmax over y >= 1 of 𝒫_{β,ς}(y | x) (Eq. 14).

    Parameters
    ----------
    X, w, p, beta, varsigma
        As in :func:`log_density`.

    Returns
    -------
    ndarray of int, shape (B,)
        Data labels k = y − 1 in 0..C−1.

    Examples
    --------
    Two memories on the circle, each owning one class: points nearer memory 2 get label 1.

    >>> import numpy as np
    >>> w = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> p = np.array([[0, 0, 0], [0.1, 0.4, 0], [0.1, 0, 0.4]])
    >>> X = np.array([[0.6, 0.8], [0.8, 0.6]])
    >>> predict(X, w, p, 4.0).tolist()
    [1, 0]
    """
    xp, X, w, p, beta, varsigma = _check_model(X, w, p, beta, varsigma)
    log_pxy = _forward(X, w, p, beta, varsigma, xp)[3]
    return xp.argmax(log_pxy[:, 1:], axis=1)


def soft_labels(labels: Any, n_classes: Any, smoothing: Any = 0.0) -> np.ndarray:
    """Soft labels q* from data labels, with label smoothing (Sec. 2.1; the authors' code).

    Parameters
    ----------
    labels : array of int, shape (B,)
        Data labels in 0..n_classes−1 (class k is the paper's y = k + 1).
    n_classes : int
        C, 1 to 100000.
    smoothing : float
        s in [0, 1): q = (1 − s) onehot + s/(C + 1) on all C + 1 columns, so the "no class"
        column y = 0 gets s/(C + 1).

    Returns
    -------
    ndarray, shape (B, C + 1)

    Examples
    --------
    >>> soft_labels([1], 2).tolist()
    [[0.0, 0.0, 1.0]]
    """
    C = check_positive_int(n_classes, "n_classes", maximum=_MAX_CLASSES)
    s = check_fraction(smoothing, "smoothing", 0.0, 1.0, open_lo=False, open_hi=True)
    y = as_real_array(labels, "labels", ndim=1, xp=np)
    y = _check_labels(y, y.shape[0], C)
    return _soft(y, C, s, np)


def project_polytope(K: Any, p_q: Any, p_h: Any, *, tol: Any = 1e-12, max_iter: Any = 1000) -> Any:
    """Scale a non-negative matrix onto the transportation polytope (Sinkhorn–Knopp).

    Parameters
    ----------
    K : ndarray, shape (C + 1, P + 1)
        Entries >= 0 and finite; every row with p_q > 0 and every column with p_h > 0 must
        hold a positive entry.
    p_q : ndarray, shape (C + 1,)
        Target row sums, >= 0.
    p_h : ndarray, shape (P + 1,)
        Target column sums, >= 0, with Σ p_h = Σ p_q (within 1e-6 relative).
    tol : float
        Stop when every row sum is within ``tol`` of p_q (> 0); columns are exact after each
        sweep.
    max_iter : int
        At most this many row-and-column sweeps, 1 to 100000.

    Returns
    -------
    ndarray, shape (C + 1, P + 1)
        D_L K D_R with the prescribed marginals (App. F, Eq. 27).

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` sweeps end with a row residual above ``tol``.

    Notes
    -----
    This is the I-projection (KL) of K onto the polytope, the scaling the paper's Eq. 27 uses
    after each multiplicative step. It is not the implicit solution p = p̄/ζ of Eq. 26.

    Examples
    --------
    >>> import numpy as np
    >>> q = project_polytope(np.ones((2, 2)), np.array([0.3, 0.7]), np.array([0.5, 0.5]))
    >>> np.allclose(q, [[0.15, 0.15], [0.35, 0.35]])
    True
    """
    xp = array_namespace(K, p_q, p_h)
    K = as_real_array(K, "K", ndim=2, xp=xp)
    p_q = as_real_array(p_q, "p_q", ndim=1, xp=xp)
    p_h = as_real_array(p_h, "p_h", ndim=1, xp=xp)
    if bool(xp.any(K < 0)):
        raise ValueError("K must have entries >= 0, got a negative entry")
    if p_q.shape[0] != K.shape[0] or p_h.shape[0] != K.shape[1]:
        raise ValueError(
            f"p_q and p_h must have shapes ({K.shape[0]},) and ({K.shape[1]},) to match K, "
            f"got {p_q.shape} and {p_h.shape}"
        )
    for name, m in (("p_q", p_q), ("p_h", p_h)):
        if bool(xp.any(m < 0)) or float(xp.sum(m)) <= 0 or float(xp.max(m)) > 1e100:
            raise ValueError(f"{name} must have entries in [0, 1e100] and a positive sum")
    sq, sh = float(xp.sum(p_q)), float(xp.sum(p_h))
    if not abs(sq - sh) <= _SUM_TOL * max(sq, sh):
        raise ValueError(f"p_q and p_h must have equal sums, got {sq!r} and {sh!r}")
    if bool(xp.any((xp.sum(K, axis=1) == 0) & (p_q > 0))) or bool(
        xp.any((xp.sum(K, axis=0) == 0) & (p_h > 0))
    ):
        raise ValueError("K must have a positive entry in every row and column with a target > 0")
    if float(xp.max(K)) > 1e100:
        raise ValueError("K must have entries <= 1e100 (rescale it), got a larger one")
    tol = check_positive_float(tol, "tol")
    max_iter = check_positive_int(max_iter, "max_iter", maximum=100_000)
    out, ok = _sinkhorn(K, p_q, p_h * (sq / sh), tol, max_iter, xp)
    if not ok:
        res = float(xp.max(xp.abs(xp.sum(out, axis=1) - p_q)))
        warnings.warn(
            f"project_polytope: row residual {res:.3g} above tol = {tol:g} after {max_iter} sweeps",
            ConvergenceWarning,
            stacklevel=2,
        )
    return out


def polytope_step(p: Any, grad: Any, lr: Any, *, clip: Any = 2.0) -> Any:
    """One multiplicative step on the class weights that keeps both marginals (App. F, Eq. 27).

    Parameters
    ----------
    p : ndarray, shape (C + 1, P + 1)
        Current class weights, entries >= 0 summing to 1; its row and column sums are kept.
    grad : ndarray, same shape
        ∂𝓛/∂p (e.g. ``loss_gradients(...).p``), finite.
    lr : float
        Step size η in [0, 1e6].
    clip : float
        Bound on |η G̃| per entry (> 0): the step never multiplies an entry by more than e^clip.

    Returns
    -------
    ndarray, shape (C + 1, P + 1)
        D_L [p ⊙ exp(−η G̃)] D_R, with G̃_y^γ = G_y^γ − Σ_{y'} (p_{y'}^γ/p_h(γ)) G_{y'}^γ the
        paper's pre-multiplied gradient (App. F) and D_L, D_R the Sinkhorn scalings.

    Warns
    -----
    ConvergenceWarning
        When the Sinkhorn scaling does not reach row residual 1e-12 in 1000 sweeps.

    Notes
    -----
    Exact zeros of p stay zero (a class that a memory never carried stays off). The clip is
    ours: the note on this paper saw exp(−η ∂𝓛/∂p) overflow at β >= 32 without it.
    """
    xp = array_namespace(p, grad)
    p = as_real_array(p, "p", ndim=2, xp=xp)
    if bool(xp.any(p < 0)) or not abs(float(xp.sum(p)) - 1.0) <= _SUM_TOL:
        raise ValueError("p must have entries >= 0 summing to 1 (within 1e-6)")
    grad = as_real_array(grad, "grad", ndim=2, xp=xp)
    if grad.shape != p.shape:
        raise ValueError(f"grad must have the shape of p, {p.shape}, got {grad.shape}")
    if float(xp.max(xp.abs(grad))) > 1e100:
        raise ValueError("grad must have entries of magnitude <= 1e100")
    lr = check_fraction(lr, "lr", 0.0, _LR_MAX, open_lo=False, open_hi=False)
    clip = check_positive_float(clip, "clip")
    out, ok = _mirror_step(p, grad, lr, min(clip, 700.0), xp)
    if not ok:
        warnings.warn(
            "polytope_step: Sinkhorn scaling stopped above its row residual 1e-12 after 1000 "
            "sweeps",
            ConvergenceWarning,
            stacklevel=2,
        )
    return out


def init_state(
    X: Any,
    labels: Any,
    P: Any,
    *,
    n_classes: Any = None,
    beta: Any = 4.0,
    p_h0: Any = None,
    rng: Any = 0,
) -> DamState:
    """A starting state: memories uniform on the sphere, p = p_q ⊗ p_h (App. I).

    Parameters
    ----------
    X : ndarray, shape (B, N)
        Training examples on the unit sphere (sets N and the namespace).
    labels : array of int, shape (B,)
        Data labels 0..C−1; p_q(y = k + 1) is the fraction of examples with label k, and
        p_q(0) = 0 (no "no class" examples).
    P : int
        Number of memories, 1 to 10⁶.
    n_classes : int or None
        C; None takes max(labels) + 1.
    beta : float
        Initial β in (0, 1e5].
    p_h0 : float or None
        Weight p_h(0) of the outside unit in (0, 1); None gives 1/(P + 1) (the paper's P_0 = 1).
        The P memories share the rest equally.
    rng : int or numpy.random.Generator
        Seed of the memories' directions (normalised Gaussians).

    Returns
    -------
    DamState
    """
    xp = array_namespace(X)
    X = _check_sphere(X, "X", xp)
    P = check_positive_int(P, "P", maximum=1_000_000)
    lab = as_real_array(to_numpy(labels), "labels", ndim=1, xp=np)
    if n_classes is None:
        C = int(np.max(lab)) + 1 if lab.size and float(np.max(lab)) >= 0 else 1
        C = min(max(C, 1), _MAX_CLASSES)
    else:
        C = check_positive_int(n_classes, "n_classes", maximum=_MAX_CLASSES)
    lab = _check_labels(lab, X.shape[0], C)
    beta = _check_beta(beta)
    h0 = 1.0 / (P + 1) if p_h0 is None else check_fraction(p_h0, "p_h0", 0.0, 1.0)
    gen = as_rng(rng)
    check_size(P * X.shape[1], "P", "memory entries", MAX_ELEMENTS, "use fewer memories")
    g = gen.standard_normal((P, X.shape[1]))
    w = g / np.linalg.norm(g, axis=1, keepdims=True)
    p_q = np.concatenate([[0.0], np.bincount(lab, minlength=C) / lab.shape[0]])
    p_h = np.concatenate([[h0], np.full(P, (1.0 - h0) / P)])
    return DamState(w=xp.asarray(w), p=xp.asarray(np.outer(p_q, p_h)), beta=beta)


def _accuracy(X, labels, w, p, beta, varsigma, xp) -> float:
    log_pxy = _forward(X, w, p, beta, varsigma, xp)[3]
    return float(xp.mean(xp.argmax(log_pxy[:, 1:], axis=1) == labels))


def train(
    X: Any,
    labels: Any,
    state: Any,
    *,
    varsigma: Any = 1.0,
    train_beta: Any = False,
    epochs: Any = 40,
    batch_size: Any = 50,
    lr_w: Any = 0.1,
    momentum: Any = 0.9,
    lr_p: Any = 0.05,
    lr_beta: Any = 0.02,
    clip: Any = 2.0,
    X_test: Any = None,
    labels_test: Any = None,
    rng: Any = 0,
) -> TrainResult:
    """Constrained minibatch training of the DAM on the loss of Eq. 4 or Eq. 12 (App. F, I).

    Parameters
    ----------
    X : ndarray, shape (n, N)
        Training examples on the unit sphere (NumPy or CuPy; the run stays in that namespace).
    labels : array of int, shape (n,)
        Data labels 0..C−1 (one-hot soft labels, no smoothing).
    state : DamState
        Starting parameters (:func:`init_state`); the marginals of ``state.p`` are kept.
    varsigma : float
        ς in (0, 1] of the effective loss; 1 trains Eq. 4.
    train_beta : bool
        Also train β (plain SGD on log β); the paper trains β with ς < 1 (Table 1).
    epochs : int
        Passes over the training set, 1 to 100000.
    batch_size : int
        Examples per step, 1 to n.
    lr_w, momentum : float
        Step size in (0, 1e6] and momentum in [0, 1) of the memories' SGD.
    lr_p : float
        Step size of the class weights' multiplicative step, in [0, 1e6] (0 freezes p).
    lr_beta : float
        Step size on log β, in [0, 1e6], used when ``train_beta``; β is kept in [1e-3, 1e5].
    clip : float
        Bound on the log-step of each class weight (> 0), see :func:`polytope_step`.
    X_test, labels_test : ndarray or None
        Optional held-out set for ``test_accuracy``; both or neither.
    rng : int or numpy.random.Generator
        Seed of the minibatch order.

    Returns
    -------
    TrainResult

    Notes
    -----
    Each step (note §4.2, after App. F): v ← μ v − η_w ∇̄_w 𝓛, w ← normalise(w + v);
    p ← D_L[p e^{−η_p G̃}]D_R (Eq. 27, :func:`polytope_step`); with ``train_beta``,
    log β ← log β − η_β β ∂𝓛/∂β, clipped to 1e-3 <= β <= 1e5. The last minibatch of an epoch may be
    shorter. The paper's η_p = η_w/(P + P_0) is one choice; our default 0.05 with clip 2 was
    stable on the digits for P between 10 and 320.
    """
    xp = array_namespace(X)
    X = _check_sphere(X, "X", xp)
    state = check_instance(state, "state", DamState)
    w = _check_sphere(state.w, "state.w", xp)
    if w.shape[1] != X.shape[1]:
        raise ValueError(f"state must have memories of dimension {X.shape[1]}, got {w.shape}")
    p = _check_weights(state.p, w.shape[0], xp)
    beta = _check_beta(state.beta, "state.beta")
    C = p.shape[0] - 1
    lab = _check_labels(labels, X.shape[0], C)
    varsigma = _check_varsigma(varsigma)
    train_beta = check_bool(train_beta, "train_beta")
    epochs = check_positive_int(epochs, "epochs", maximum=100_000)
    batch_size = check_positive_int(batch_size, "batch_size", maximum=X.shape[0])
    lr_w = check_fraction(lr_w, "lr_w", 0.0, _LR_MAX, open_hi=False)
    momentum = check_fraction(momentum, "momentum", 0.0, 1.0, open_lo=False)
    lr_p = check_fraction(lr_p, "lr_p", 0.0, _LR_MAX, open_lo=False, open_hi=False)
    lr_beta = check_fraction(lr_beta, "lr_beta", 0.0, _LR_MAX, open_lo=False, open_hi=False)
    clip = min(check_positive_float(clip, "clip"), 700.0)
    test = _check_test(X_test, labels_test, X.shape[1], C, xp)
    gen = as_rng(rng)
    n = X.shape[0]
    steps = epochs * math.ceil(n / batch_size)
    check_size(steps, "epochs", "minibatch steps", MAX_STEPS, "train fewer epochs")
    Q = _soft(lab, C, 0.0, xp)
    lab_x = xp.asarray(lab)
    if float(xp.min(xp.sum(p, axis=1)[xp.asarray(np.unique(lab) + 1)])) <= 0:
        raise ValueError("state must give every label in labels a class weight p_q(y) > 0")
    P = w.shape[0]
    hist = _History(epochs)
    velocity = xp.zeros_like(w)
    marginals = (xp.sum(p, axis=1), xp.sum(p, axis=0))
    log_beta, misses = math.log(beta), 0
    hist.record(0, X, Q, lab_x, test, w, p, beta, varsigma, P, xp)
    for epoch in range(1, epochs + 1):
        order = xp.asarray(gen.permutation(n))
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            _, gw, gp, gb, _ = _grads(X[idx], Q[idx], w, p, beta, varsigma, xp)
            velocity = momentum * velocity - lr_w * gw
            w = w + velocity
            w = w / xp.sqrt(xp.sum(w * w, axis=1, keepdims=True))
            if lr_p > 0:
                p, ok = _mirror_step(p, gp, lr_p, clip, xp, marginals)
                misses += not ok
            if train_beta:
                log_beta = min(max(log_beta - lr_beta * beta * gb, _LOG_BETA_MIN), _LOG_BETA_MAX)
                beta = math.exp(log_beta)
        hist.record(epoch, X, Q, lab_x, test, w, p, beta, varsigma, P, xp)
    return hist.result(DamState(w=w, p=p, beta=beta), misses)


def _check_test(X_test: Any, labels_test: Any, N: int, C: int, xp: Any) -> tuple[Any, Any] | None:
    if X_test is None and labels_test is None:
        return None
    if X_test is None or labels_test is None:
        missing = "X_test" if X_test is None else "labels_test"
        raise ValueError(f"{missing} must be given with the other test argument, got None")
    Xt = _check_sphere(X_test, "X_test", xp)
    if Xt.shape[1] != N:
        raise ValueError(f"X_test must have shape (n_test, {N}), got {Xt.shape}")
    return Xt, xp.asarray(_check_labels(labels_test, Xt.shape[0], C, "labels_test"))


class _History:
    """Per-epoch records of :func:`train`."""

    def __init__(self, epochs: int) -> None:
        self.rows = np.full((epochs + 1, 5), np.nan)

    def record(self, epoch, X, Q, lab, test, w, p, beta, varsigma, P, xp) -> None:
        log_pxy = _forward(X, w, p, beta, varsigma, xp)[3]
        acc = float(xp.mean(xp.argmax(log_pxy[:, 1:], axis=1) == lab))
        test_acc = math.nan if test is None else _accuracy(*test, w, p, beta, varsigma, xp)
        self.rows[epoch] = (_loss_value(Q, log_pxy, xp), acc, test_acc, beta, P * epoch)

    def result(self, state: DamState, misses: int) -> TrainResult:
        r = self.rows
        return TrainResult(
            state=state,
            epoch=np.arange(r.shape[0]),
            loss=r[:, 0],
            train_accuracy=r[:, 1],
            test_accuracy=r[:, 2],
            beta=r[:, 3],
            work=r[:, 4],
            sinkhorn_misses=int(misses),
        )
