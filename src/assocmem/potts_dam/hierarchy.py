"""The saddle hierarchy of the Potts-hidden DAM: duplication, splitting matrices, growing by splits.

Paper: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025).
Duplicating hidden units (Eq. 13) embeds every stationary point of a P-unit DAM in a wider one
with the same loss; for β large enough the embedded point is a saddle (App. G) whose escape
directions are the negative-curvature eigenvectors of the splitting matrices (App. H). Splitting
steepest descent (Alg. 1) grows a network by splitting the units with the most negative
curvature and training between splits.

Notation map
------------
- memories w^μ, class weights p_y^γ, β, ς                -> ``DamState`` of
  :mod:`assocmem.potts_dam.model` (``w`` (P, N), ``p`` (C + 1, P + 1), ``beta``), ``varsigma``
- the R duplicated units μ_copy (0-based memory indices)  -> ``units``
- splitting matrix 𝒮_μ (App. H), its smallest eigenpair
  on the tangent space of w^μ                             -> ``splitting_matrices``,
  ``SplittingSpectrum.eigenvalues``, ``.vectors``
- escape step δ, thresholds λ_thres, τ_thres (Alg. 1)      -> ``delta``, ``lambda_thres``,
  ``tau_thres``

Conventions: memory μ of the paper (1..P) is row μ − 1 of ``w`` and column μ of ``p``
(column 0 is the outside unit). Duplicated units are appended in increasing order of their
index, as Eq. 13 appends units 1..R after unit P. Work is counted in unit-epochs: training P
units for one epoch costs P; evaluating the splitting matrices of P units costs P (one pass over
the data per unit, the paper's one epoch of eigenvector training).

Public functions
----------------
``duplicate_units``, ``split_units``, ``splitting_matrices``, ``splitting_spectrum`` (result
``SplittingSpectrum``) and ``splitting_descent`` (result ``SplitResult``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    as_real_array,
    as_rng,
    check_bool,
    check_finite_float,
    check_fraction,
    check_index_set,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.potts_dam import model
from assocmem.potts_dam.model import DamState

__all__ = [
    "SplitResult",
    "SplittingSpectrum",
    "duplicate_units",
    "split_units",
    "splitting_descent",
    "splitting_matrices",
    "splitting_spectrum",
]

_CHUNK = 2**22  # elements of the (chunk, B, N) weighted data held at once
_P_MAX = 100_000


@dataclass(frozen=True)
class SplittingSpectrum:
    """Smallest eigenpairs of the splitting matrices on the tangent spaces (App. H).

    Attributes
    ----------
    eigenvalues : ndarray, shape (P,)
        λ_min(𝒮_μ) restricted to the tangent space of w^μ (negative: unit μ is a saddle
        direction once duplicated).
    vectors : ndarray, shape (P, N)
        Unit eigenvectors u^μ ⊥ w^μ (the escape directions of Alg. 1, step 11).
    """

    eigenvalues: Any
    vectors: Any


@dataclass(frozen=True)
class SplitResult:
    """Outcome of :func:`splitting_descent`.

    Attributes
    ----------
    state : DamState
        The parameters at the end.
    epoch : ndarray, shape (E + 1,)
        0..E over all training segments.
    P : ndarray, shape (E + 1,)
        Number of memories during each epoch (entry 0: P_init).
    loss, train_accuracy, test_accuracy, beta : ndarray, shape (E + 1,)
        As in :class:`assocmem.potts_dam.model.TrainResult`, concatenated over segments.
    work : ndarray, shape (E + 1,)
        Cumulative unit-epochs, training plus splitting-matrix evaluations.
    split_work : float
        The part of the final work spent on splitting matrices.
    split_epochs : tuple of int
        Epochs after which a split round ran (its splitting matrices were evaluated).
    split_sizes : tuple of int
        R, the number of units split in each round (0 in a last round that found no unit
        with λ_min <= λ_thres, which ends the descent).
    lambda_min : tuple of ndarray
        The smallest tangent eigenvalue of every unit at each split round.
    """

    state: DamState
    epoch: np.ndarray
    P: np.ndarray
    loss: np.ndarray
    train_accuracy: np.ndarray
    test_accuracy: np.ndarray
    beta: np.ndarray
    work: np.ndarray
    split_work: float
    split_epochs: tuple[int, ...]
    split_sizes: tuple[int, ...]
    lambda_min: tuple[np.ndarray, ...]


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def _check_state(state: Any, xp: Any = None) -> tuple[Any, Any, Any, float]:
    """A DamState whose memories lie on the sphere and whose p fits them."""
    state = check_instance(state, "state", DamState)
    xp = array_namespace(state.w, state.p) if xp is None else xp
    w = model._check_sphere(state.w, "state.w", xp)
    p = model._check_weights(state.p, w.shape[0], xp)
    return xp, w, p, model._check_beta(state.beta, "state.beta")


def _check_data(X: Any, Q: Any, w: Any, p: Any, xp: Any) -> tuple[Any, Any]:
    X = model._check_sphere(X, "X", xp)
    if X.shape[1] != w.shape[1]:
        raise ValueError(f"X must have shape (B, {w.shape[1]}) like the memories, got {X.shape}")
    Q = model._check_soft(Q, X.shape[0], p.shape[0], xp)
    model._check_support(Q, p, xp)
    return X, Q


# --------------------------------------------------------------------------------------------
# Kernels
# --------------------------------------------------------------------------------------------


def _duplicate(w: Any, p: Any, idx: list[int], xp: Any) -> tuple[Any, Any]:
    """Eq. 13: copy memories ``idx`` to the end, halving their class weights over both copies."""
    cols = xp.asarray(np.asarray(idx) + 1)
    half = p[:, cols] / 2.0
    p_new = xp.concatenate([p, half], axis=1)
    p_new[:, cols] = half
    return xp.concatenate([w, w[xp.asarray(idx)]], axis=0), p_new


def _escape(w: Any, idx: list[int], u: Any, delta: float, xp: Any) -> Any:
    """Alg. 1 step 11: copies move to w ± δu (u ⊥ w), renormalised; new copies sit at the end."""
    P = w.shape[0] - len(idx)
    w = xp.array(w, copy=True)
    sel = xp.asarray(idx)
    w[sel] = w[sel] + delta * u
    w[P:] = w[P:] - delta * u
    return w / xp.linalg.norm(w, axis=1, keepdims=True)


def _matrices(X: Any, Q: Any, w: Any, p: Any, beta: float, varsigma: float, xp: Any) -> Any:
    """𝒮_μ = β_eff E[r_μ m_μ] P⊥ − β_eff² P⊥ E[r_μ x xᵀ] P⊥ (App. H; note §2.7 compact form)."""
    r = model._grads(X, Q, w, p, beta, varsigma, xp)[4][:, 1:]  # (B, P)
    B, N = X.shape
    P = w.shape[0]
    b_eff = varsigma * beta
    a = xp.sum(r * (X @ w.T), axis=0) / B  # E[r_μ w^μ·x]
    step = max(1, _CHUNK // (B * N))
    second = xp.empty((P, N, N))
    for s in range(0, P, step):
        rs = r[:, s : s + step].T[:, :, None] * X[None, :, :]  # (chunk, B, N)
        second[s : s + step] = xp.matmul(xp.transpose(rs, (0, 2, 1)), X) / B
    cw = xp.einsum("mij,mj->mi", second, w)  # C w
    wcw = xp.sum(cw * w, axis=1)
    proj = (
        second
        - w[:, :, None] * cw[:, None, :]
        - cw[:, :, None] * w[:, None, :]
        + wcw[:, None, None] * (w[:, :, None] * w[:, None, :])
    )
    tangent = xp.eye(N)[None, :, :] - w[:, :, None] * w[:, None, :]
    return (b_eff * a)[:, None, None] * tangent - b_eff**2 * proj


def _spectrum(S: Any, w: Any, xp: Any) -> tuple[Any, Any]:
    """λ_min and u of each 𝒮_μ on the tangent space: w^μ (eigenvalue 0) is lifted out of reach."""
    lift = 1.0 + xp.sqrt(xp.sum(S * S, axis=(1, 2)))  # > |every eigenvalue|
    vals, vecs = xp.linalg.eigh(S + lift[:, None, None] * (w[:, :, None] * w[:, None, :]))
    u = vecs[:, :, 0]
    u = u - xp.sum(u * w, axis=1, keepdims=True) * w  # exact tangency against rounding
    return vals[:, 0], u / xp.linalg.norm(u, axis=1, keepdims=True)


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def duplicate_units(state: Any, units: Any) -> DamState:
    """Duplicate hidden units (Eq. 13): the loss and every stationary point are preserved.

    Parameters
    ----------
    state : DamState
        A P-unit DAM (:func:`assocmem.potts_dam.model.init_state` or a trained state).
    units : sequence of int
        R distinct memory indices in [0, P) to duplicate (0-based).

    Returns
    -------
    DamState
        P + R units: memory ``units[k]`` is copied to row P + k; the class-weight columns of
        each duplicated unit are halved and shared by the two copies; β is unchanged.

    Notes
    -----
    Eq. 13 of the paper: w^{dupli, μ} = w^{fixed, μ} for μ <= P and w^{fixed, μ−P} for the
    copies; p^{dupli, γ} = ½ p^{fixed, γ} for a duplicated unit and its copy, p^γ otherwise,
    γ = 0 untouched. Both marginals p_q and Σ p_h are kept. Each copy then takes half the
    responsibility of the original, so log 𝒫_{β,ς}(x, y) is unchanged, the copies' w-gradients
    are half the original's and their p-gradients equal it (App. G: exact for the loss, Eq. 4,
    and the effective loss, Eq. 12).

    Examples
    --------
    >>> import numpy as np
    >>> s = DamState(w=np.array([[1.0, 0.0]]), p=np.array([[0, 0], [0.2, 0.8]]), beta=2.0)
    >>> duplicate_units(s, [0]).p.tolist()
    [[0.0, 0.0, 0.0], [0.2, 0.4, 0.4]]
    """
    xp, w, p, beta = _check_state(state)
    idx = check_index_set(units, w.shape[0], "units")
    w_new, p_new = _duplicate(w, p, idx, xp)
    return DamState(w=w_new, p=p_new, beta=beta)


def split_units(state: Any, units: Any, directions: Any, delta: Any) -> DamState:
    """Duplicate units and push each pair apart along ±δu (Alg. 1, steps 6-11).

    Parameters
    ----------
    state : DamState
        A P-unit DAM.
    units : sequence of int
        R distinct memory indices in [0, P).
    directions : ndarray, shape (R, N)
        Escape directions, one per unit in increasing index order (e.g. rows of
        :func:`splitting_spectrum`'s ``vectors``). Each is projected on the tangent space of
        its memory and normalised; it must not be parallel to the memory.
    delta : float
        Escape step δ in [0, 1] (0 gives :func:`duplicate_units`).

    Returns
    -------
    DamState
        P + R units: memory μ moves to normalise(w^μ + δu), its copy (appended) to
        normalise(w^μ − δu), with the class weights of Eq. 13.
    """
    xp, w, p, beta = _check_state(state)
    idx = check_index_set(units, w.shape[0], "units")
    u = as_real_array(directions, "directions", ndim=2, xp=xp)
    if u.shape != (len(idx), w.shape[1]):
        raise ValueError(
            f"directions must have shape ({len(idx)}, {w.shape[1]}) (one per unit), got {u.shape}"
        )
    if float(xp.max(xp.abs(u))) > 1e100:
        raise ValueError("directions must have entries of magnitude <= 1e100")
    ws = w[xp.asarray(idx)]
    u = u - xp.sum(u * ws, axis=1, keepdims=True) * ws
    norm = xp.linalg.norm(u, axis=1, keepdims=True)
    if not float(xp.min(norm)) > 1e-12 * max(1.0, float(xp.max(norm))):
        raise ValueError("directions must each have a component orthogonal to its memory")
    delta = check_fraction(delta, "delta", 0.0, 1.0, open_lo=False, open_hi=False)
    w_new, p_new = _duplicate(w, p, idx, xp)
    return DamState(w=_escape(w_new, idx, u / norm, delta, xp), p=p_new, beta=beta)


def splitting_matrices(X: Any, Q: Any, state: Any, varsigma: Any = 1.0) -> Any:
    """The splitting matrices 𝒮_μ of every unit (App. H).

    Parameters
    ----------
    X : ndarray, shape (B, N)
        Examples on the unit sphere.
    Q : ndarray, shape (B, C + 1)
        Their soft labels (:func:`assocmem.potts_dam.model.soft_labels`).
    state : DamState
        The DAM (P units).
    varsigma : float
        ς in (0, 1] of the effective loss (β_eff = ςβ); 1 for the loss of Eq. 4.

    Returns
    -------
    ndarray, shape (P, N, N)
        Symmetric 𝒮_μ; w^μ is in its kernel.

    Notes
    -----
    App. H: 𝒮_μ = −E[p_y^μ ∇̄∇̄ᵀ e^{β_eff w^μ·x}/(Σ_ν p_y^ν e^{β_eff w^ν·x} + p_y^0 Ω_N(β)/Ω_N(0))],
    with ∇̄ the gradient on the sphere. Worked out (our derivation),
    𝒮_μ = β_eff E[r_μ w^μ·x] P⊥ − β_eff² P⊥ E[r_μ x xᵀ] P⊥ with P⊥ = I − w^μ w^μᵀ and r_μ the
    label-weighted responsibility. Replacing unit μ by copies w^μ ± δu (u ⊥ w^μ, |u| = 1) with
    half its class weights each changes the loss by (δ²/2) uᵀ𝒮_μ u + O(δ⁴).
    """
    xp, w, p, beta = _check_state(state)
    X, Q = _check_data(X, Q, w, p, xp)
    varsigma = model._check_varsigma(varsigma)
    N = w.shape[1]
    check_size(w.shape[0] * N * N, "state", "elements in the splitting matrices",
               MAX_ELEMENTS, "use fewer memories or splitting_spectrum on subsets")  # fmt: skip
    return _matrices(X, Q, w, p, beta, varsigma, xp)


def splitting_spectrum(X: Any, Q: Any, state: Any, varsigma: Any = 1.0) -> SplittingSpectrum:
    """Smallest eigenvalue and eigenvector of each splitting matrix on its tangent space.

    Parameters
    ----------
    X, Q, state, varsigma
        As in :func:`splitting_matrices`.

    Returns
    -------
    SplittingSpectrum

    Notes
    -----
    App. H, Alg. 1 step 5, solved exactly with ``eigh`` (the paper trains the eigenvectors by
    minimising the Rayleigh quotient, which is needed only when N is large). For a single unit
    that holds all the data (responsibility 1) λ_min = β_eff (R̄ − β_eff λ_max(P⊥M₂P⊥)), so
    the unit becomes a saddle once duplicated above β_split = R̄/λ_max(P⊥M₂P⊥) (App. G).

    Examples
    --------
    Two orthogonal patterns held by one memory at their mean split for β > √2 (R̄ = 1/√2,
    λ_max = 1/2):

    >>> import numpy as np
    >>> from assocmem.potts_dam.model import soft_labels
    >>> X = np.eye(2)
    >>> s = DamState(w=np.full((1, 2), 2**-0.5), p=np.array([[0, 0], [0, 1.0]]), beta=2.0)
    >>> lam = splitting_spectrum(X, soft_labels([0, 0], 1), s).eigenvalues
    >>> bool(np.isclose(lam[0], 2.0 * (2**-0.5 - 2.0 / 2)))
    True
    """
    xp, w, _, _ = _check_state(state)
    S = splitting_matrices(X, Q, state, varsigma)
    vals, vecs = _spectrum(S, w, xp)
    return SplittingSpectrum(eigenvalues=vals, vectors=vecs)


def splitting_descent(
    X: Any,
    labels: Any,
    *,
    P_init: Any = 10,
    P_max: Any = 40,
    beta: Any = 4.0,
    varsigma: Any = 0.5,
    train_beta: Any = True,
    epochs_first: Any = 20,
    epochs_after: Any = 8,
    delta: Any = 0.1,
    lambda_thres: Any = 0.0,
    tau_thres: Any = 1.0,
    batch_size: Any = 50,
    lr_w: Any = 0.1,
    momentum: Any = 0.9,
    lr_p: Any = 0.05,
    lr_beta: Any = 0.02,
    clip: Any = 2.0,
    X_test: Any = None,
    labels_test: Any = None,
    rng: Any = 0,
) -> SplitResult:
    """Grow a DAM from P_init to P_max units by splitting steepest descent (Alg. 1, App. H).

    Parameters
    ----------
    X : ndarray, shape (n, N)
        Training examples on the unit sphere.
    labels : array of int, shape (n,)
        Data labels 0..C−1.
    P_init, P_max : int
        Starting and largest number of memories, 1 <= P_init <= P_max <= 100000.
    beta, varsigma, train_beta : float, float, bool
        Initial β in (0, 1e5], ς in (0, 1] and whether β is trained (as in
        :func:`assocmem.potts_dam.model.train`).
    epochs_first, epochs_after : int
        Training epochs before the first split and after each split, 1 to 100000.
    delta : float
        Escape step δ in [0, 1] (Alg. 1 step 11).
    lambda_thres : float
        Only units with λ_min <= λ_thres split (finite; the paper uses ≈ 0; a small negative
        value keeps marginal units from flipping with rounding).
    tau_thres : float
        At most ⌊τ_thres P_cur⌋ units split per round, τ_thres in (0, 1] (Fig. 6 used 1).
    batch_size, lr_w, momentum, lr_p, lr_beta, clip
        Training options of :func:`assocmem.potts_dam.model.train`.
    X_test, labels_test : ndarray or None
        Optional held-out set (both or neither).
    rng : int or numpy.random.Generator
        Seed of the initial memories and of every minibatch order.

    Returns
    -------
    SplitResult

    Notes
    -----
    Alg. 1: train P_init units; then, while P_cur < P_max, compute each unit's smallest
    tangent eigenpair (λ_min, u) of 𝒮_μ, split the R <= min(⌊τ_thres P_cur⌋, P_max − P_cur)
    units with the most negative λ_min <= λ_thres (Eq. 13 plus the ±δu escape) and train again;
    stop early when no unit qualifies. p_h(0) = 1/(P_max + 1) from the start, the paper's
    P_0 = P_cur/P_final rule in p form (App. I), so the outside unit ends comparable to the
    others.
    """
    xp = array_namespace(X)
    X = model._check_sphere(X, "X", xp)
    P_init = check_positive_int(P_init, "P_init", maximum=_P_MAX)
    P_max = check_positive_int(P_max, "P_max", minimum=P_init, maximum=_P_MAX)
    epochs_first = check_positive_int(epochs_first, "epochs_first", maximum=100_000)
    epochs_after = check_positive_int(epochs_after, "epochs_after", maximum=100_000)
    delta = check_fraction(delta, "delta", 0.0, 1.0, open_lo=False, open_hi=False)
    lambda_thres = check_finite_float(lambda_thres, "lambda_thres")
    tau_thres = check_fraction(tau_thres, "tau_thres", 0.0, 1.0, open_hi=False)
    check_size(P_max * X.shape[1] ** 2, "P_max", "elements in the splitting matrices",
               MAX_ELEMENTS, "use a smaller P_max")  # fmt: skip
    gen = as_rng(rng)
    state = model.init_state(X, labels, P_init, beta=beta, p_h0=1.0 / (P_max + 1), rng=gen)
    options = {
        "varsigma": varsigma,
        "train_beta": check_bool(train_beta, "train_beta"),
        "batch_size": batch_size,
        "lr_w": lr_w,
        "momentum": momentum,
        "lr_p": lr_p,
        "lr_beta": lr_beta,
        "clip": clip,
        "X_test": X_test,
        "labels_test": labels_test,
    }
    run = model.train(X, labels, state, epochs=epochs_first, rng=gen, **options)
    Q = xp.asarray(model.soft_labels(to_numpy(labels), state.p.shape[0] - 1))
    log = _SplitLog(run, state.w.shape[0])
    while run.state.w.shape[0] < P_max:
        state = run.state
        P_cur = state.w.shape[0]
        vals, vecs = _spectrum(
            _matrices(X, Q, state.w, state.p, state.beta, options["varsigma"], xp), state.w, xp
        )
        lam = np.asarray(to_numpy(vals))
        R = min(math.floor(tau_thres * P_cur), P_max - P_cur)
        order = [int(i) for i in np.argsort(lam, kind="stable") if lam[i] <= lambda_thres][:R]
        log.split(lam, len(order), P_cur)
        if not order:
            break
        idx = sorted(order)
        w_new, p_new = _duplicate(state.w, state.p, idx, xp)
        w_new = _escape(w_new, idx, vecs[xp.asarray(idx)], delta, xp)
        state = DamState(w=w_new, p=p_new, beta=state.beta)
        run = model.train(X, labels, state, epochs=epochs_after, rng=gen, **options)
        log.extend(run, state.w.shape[0])
    return log.result(run.state)


class _SplitLog:
    """Concatenates the training segments and split rounds of :func:`splitting_descent`."""

    def __init__(self, run: model.TrainResult, P: int) -> None:
        self.parts = [self._rows(run, P, 0.0)]
        self.split_work = 0.0
        self.epochs: list[int] = []
        self.sizes: list[int] = []
        self.lams: list[np.ndarray] = []

    @staticmethod
    def _rows(run: model.TrainResult, P: int, start: float) -> np.ndarray:
        return np.column_stack(
            [
                np.full(run.epoch.shape, float(P)),
                run.loss,
                run.train_accuracy,
                run.test_accuracy,
                run.beta,
                start + run.work,
            ]
        )

    def split(self, lam: np.ndarray, R: int, P_cur: int) -> None:
        self.epochs.append(sum(part.shape[0] for part in self.parts) - 1)
        self.sizes.append(R)
        self.lams.append(lam)
        self.split_work += P_cur
        self.parts[-1][-1, 5] += P_cur

    def extend(self, run: model.TrainResult, P: int) -> None:
        start = self.parts[-1][-1, 5]
        self.parts.append(self._rows(run, P, start)[1:])

    def result(self, state: DamState) -> SplitResult:
        rows = np.concatenate(self.parts, axis=0)
        return SplitResult(
            state=state,
            epoch=np.arange(rows.shape[0]),
            P=rows[:, 0].astype(np.int64),
            loss=rows[:, 1],
            train_accuracy=rows[:, 2],
            test_accuracy=rows[:, 3],
            beta=rows[:, 4],
            work=rows[:, 5],
            split_work=float(self.split_work),
            split_epochs=tuple(self.epochs),
            split_sizes=tuple(self.sizes),
            lambda_min=tuple(self.lams),
        )
