"""Figures for the section "Every small network is a saddle of a larger one" (``ds-hierarchy``).

Paper: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025),
Eq. 13 (duplication), App. G (stability of duplicated fixed points), App. H (splitting
matrices). The model quantities come from :mod:`assocmem.potts_dam.hierarchy`,
:mod:`assocmem.potts_dam.model` and :func:`assocmem.potts_dam.saddle.cluster_split_threshold`.
Three *views* assemble them (pure functions returning frozen results); the ``plot_*`` functions
take those results and compute nothing.

Notation map
------------
- memories w^μ, class weights p, β, ς               -> ``DamState`` (``w``, ``p``, ``beta``),
  ``varsigma``
- λ_min(𝒮_μ) on the tangent space of w^μ            -> ``lambda_min``
- β at which λ_min(𝒮_μ) changes sign                -> ``beta_split``
- R̄, λ_max(P⊥M₂P⊥), β_c = R̄/λ_max (one cluster)     -> ``R_bar``, ``lambda_max``, ``beta_c``
- x̃ (normalised mean), u (escape direction), δ       -> ``mean_direction``, ``direction``,
  ``delta``

Public functions
----------------
duplication_check
    Loss, gradients and marginals before and after duplicating units (Eq. 13).
curvature_curves
    λ_min(𝒮_μ) of every unit of a fixed set of memories over a grid of β.
two_group_split
    The two-group toy: one memory at the mean of two noisy groups of patterns, duplicated and
    pushed apart along ±δu, then Riemannian gradient descent on the loss (merge or split).
plot_curvature
    λ_min(𝒮_μ) against β, one line per unit, with the zero line and the trained β.
plot_two_group_split
    Patterns and memories in the (x̃, u) plane, the loss along the escape and the separation
    of the copies during descent.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    as_real_vector,
    as_rng,
    check_fraction,
    check_index_set,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.potts_dam import hierarchy, model
from assocmem.potts_dam.model import DamState
from assocmem.potts_dam.saddle import cluster_split_threshold

from .._checks import check_height
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _vline
from ._common import _COLORS, _GREY, _MEMORY, _THEORY, _fmt, _line

__all__ = [
    "CurvatureCurves",
    "DuplicationCheck",
    "TwoGroupSplit",
    "curvature_curves",
    "duplication_check",
    "plot_curvature",
    "plot_two_group_split",
    "two_group_split",
]

_BETAS_MAX = 200
_N_MAX = 2000
_PATTERNS_MAX = 400
_STEPS_MAX = 100_000
_DELTAS = np.linspace(0.0, 0.5, 51)  # escape steps of the loss-along-±δu curve
_RECORDS = 60  # GD iterations at which the separation is recorded (geometric)


@dataclass(frozen=True)
class DuplicationCheck:
    """The duplication identity of Eq. 13 measured on one state.

    Attributes
    ----------
    units : tuple of int
        The duplicated memories (0-based).
    loss, loss_duplicated : float
        The effective loss (Eq. 12) before and after duplication.
    density_error : float
        max |log 𝒫 after − log 𝒫 before| over the examples and classes.
    w_grad_error : float
        max |∇_w of each copy − ½ ∇_w of the original| (untouched units: |after − before|).
    p_grad_error : float
        max |∂𝓛/∂p of each copy − that of the original| (γ = 0 and untouched units included).
    marginal_error : float
        max |row sums after − before| (the class marginal p_q).
    """

    units: tuple[int, ...]
    loss: float
    loss_duplicated: float
    density_error: float
    w_grad_error: float
    p_grad_error: float
    marginal_error: float


@dataclass(frozen=True)
class CurvatureCurves:
    """Smallest tangent eigenvalue of every unit's splitting matrix over a grid of β.

    Attributes
    ----------
    beta : ndarray, shape (k,)
        The grid (the memories and class weights are held fixed).
    lambda_min : ndarray, shape (k, P)
        λ_min(𝒮_μ) at each β (App. H).
    beta_split : ndarray, shape (P,)
        Where λ_min first crosses from >= 0 to < 0, linearly interpolated between grid
        points; inf where it stays >= 0 on the grid, the first β when it starts < 0.
    state_beta : float
        The β of the state the memories come from.
    varsigma : float
        ς of the effective loss (β_eff = ςβ).
    """

    beta: np.ndarray
    lambda_min: np.ndarray
    beta_split: np.ndarray
    state_beta: float
    varsigma: float


@dataclass(frozen=True)
class TwoGroupSplit:
    """The two-group toy: copies of the mean memory, pushed apart and descended.

    Attributes
    ----------
    patterns : ndarray, shape (n, N)
        Unit patterns, n/2 around each of two Gaussian centres.
    beta_c, beta, delta : float
        β_c = R̄/λ_max(P⊥M₂P⊥) of the whole set, β = ratio·β_c, and the escape step δ.
    R_bar, lambda_max : float
        ‖mean pattern‖ and λ_max(P⊥M₂P⊥).
    lambda_min : float
        λ_min(𝒮) of the single memory at the mean, at β (= β(R̄ − βλ_max)).
    mean_direction, direction : ndarray, shape (N,)
        x̃ and the escape direction u ⊥ x̃.
    deltas, loss_change, quadratic : ndarray, shape (51,)
        Escape steps δ' in [0, 0.5], the exact loss change of the copies at x̃ ± δ'u (class
        weights ½ each) and its quadratic prediction (δ'²/2) λ_min.
    steps : ndarray of int, shape (k,)
        Gradient-descent iterations at which the separation is recorded (0 included).
    separation : ndarray, shape (k,)
        ‖w¹ − w²‖ at those iterations, starting from the copies at x̃ ± δu.
    start, end : ndarray, shape (2, N)
        The two memories before and after descent.
    loss_end : float
        The loss at the end minus the loss of the single memory at x̃.
    """

    patterns: np.ndarray
    beta_c: float
    beta: float
    delta: float
    R_bar: float
    lambda_max: float
    lambda_min: float
    mean_direction: np.ndarray
    direction: np.ndarray
    deltas: np.ndarray
    loss_change: np.ndarray
    quadratic: np.ndarray
    steps: np.ndarray
    separation: np.ndarray
    start: np.ndarray
    end: np.ndarray
    loss_end: float


# --- views ------------------------------------------------------------------------------------


def duplication_check(
    X: Any, Q: Any, state: Any, units: Any, varsigma: Any = 1.0
) -> DuplicationCheck:
    """Measure the duplication identity (Eq. 13) on a state: loss, densities and gradients.

    Parameters
    ----------
    X : ndarray, shape (B, N)
        Examples on the unit sphere.
    Q : ndarray, shape (B, C + 1)
        Their soft labels (:func:`assocmem.potts_dam.model.soft_labels`).
    state : DamState
        A P-unit DAM.
    units : sequence of int
        Distinct memories in [0, P) to duplicate.
    varsigma : float
        ς in (0, 1] of the effective loss (1: the loss of Eq. 4).

    Returns
    -------
    DuplicationCheck

    Notes
    -----
    :func:`assocmem.potts_dam.hierarchy.duplicate_units` copies each memory and halves its
    class weights over the two copies, so every copy takes half the responsibility of the
    original: the densities and the loss are unchanged, each copy's w-gradient is half the
    original's and its p-gradient equals it (Thériault & Tantari 2025, Eq. 13 and App. G). All
    errors are zero up to rounding.

    Examples
    --------
    >>> from assocmem.potts_dam.model import soft_labels
    >>> s = DamState(w=np.eye(3)[:2], p=np.array([[0, 0, 0], [0.2, 0.4, 0.4]]), beta=2.0)
    >>> c = duplication_check(np.eye(3), soft_labels([0, 0, 0], 1), s, [1])
    >>> c.loss_duplicated - c.loss < 1e-12
    True
    """
    check_instance(state, "state", DamState)
    d = hierarchy.duplicate_units(state, units)
    idx = sorted(check_index_set(units, state.w.shape[0], "units"))
    before = model.loss_gradients(X, Q, state.w, state.p, state.beta, varsigma)
    after = model.loss_gradients(X, Q, d.w, d.p, d.beta, varsigma)
    a = np.asarray(model.log_density(X, d.w, d.p, d.beta, varsigma))
    b = np.asarray(model.log_density(X, state.w, state.p, state.beta, varsigma))
    same = a == b  # classes with p_y = 0 are -inf on both sides
    with np.errstate(invalid="ignore"):
        dens = float(np.max(np.where(same, 0.0, np.abs(a - b))))
    P = state.w.shape[0]
    half = np.ones(P)
    half[idx] = 0.5
    gw = before.w * half[:, None]
    w_err = max(
        float(np.max(np.abs(after.w[:P] - gw))), float(np.max(np.abs(after.w[P:] - gw[idx])))
    )
    p_err = max(
        float(np.max(np.abs(after.p[:, : P + 1] - before.p))),
        float(np.max(np.abs(after.p[:, P + 1 :] - before.p[:, np.array(idx) + 1]))),
    )
    marg = float(np.max(np.abs(d.p.sum(axis=1) - state.p.sum(axis=1))))
    return DuplicationCheck(
        units=tuple(idx),
        loss=float(before.loss),
        loss_duplicated=float(after.loss),
        density_error=dens,
        w_grad_error=w_err,
        p_grad_error=p_err,
        marginal_error=marg,
    )


def curvature_curves(
    X: Any, Q: Any, state: Any, betas: Any, varsigma: Any = 1.0
) -> CurvatureCurves:
    """λ_min of every unit's splitting matrix over a grid of β, at fixed memories.

    Parameters
    ----------
    X, Q : ndarray
        Examples (B, N) on the sphere and soft labels (B, C + 1).
    state : DamState
        The memories and class weights (a trained state); its β is recorded, not used.
    betas : array_like, shape (k,)
        Increasing grid of β, each in (0, 1e5]; at most 200 values.
    varsigma : float
        ς in (0, 1] (β_eff = ςβ in the splitting matrices).

    Returns
    -------
    CurvatureCurves

    Notes
    -----
    :func:`assocmem.potts_dam.hierarchy.splitting_spectrum` at each β. A unit with
    λ_min(𝒮_μ) < 0 is a saddle once duplicated: the copies w^μ ± δu lower the loss by
    (δ²/2)|λ_min| (App. H). For a memory that alone holds a cluster of patterns,
    λ_min = β_eff(R̄ − β_eff λ_max(P⊥M₂P⊥)) (our derivation), which changes sign at
    β_eff = R̄/λ_max (App. G).

    Examples
    --------
    Two orthogonal patterns held by one memory at their mean split above β = √2:

    >>> from assocmem.potts_dam.model import soft_labels
    >>> s = DamState(w=np.full((1, 2), 2**-0.5), p=np.array([[0, 0], [0, 1.0]]), beta=1.0)
    >>> grid = np.linspace(1.0, 2.0, 101)
    >>> c = curvature_curves(np.eye(2), soft_labels([0, 0], 1), s, grid)
    >>> round(float(c.beta_split[0]), 3)  # √2, up to the grid's linear interpolation
    1.414
    """
    s = check_instance(state, "state", DamState)
    b = as_real_vector(betas, "betas", 0.0, 1e5, open_lo=True, min_size=2)
    check_size(b.size, "betas", "β values", _BETAS_MAX, "pass fewer β")
    if np.any(np.diff(b) <= 0):
        raise ValueError(f"betas must be strictly increasing, got {b.tolist()!r:.80}")
    lam = np.stack(
        [
            np.asarray(
                hierarchy.splitting_spectrum(
                    X, Q, DamState(w=s.w, p=s.p, beta=float(beta)), varsigma
                ).eigenvalues
            )
            for beta in b
        ]
    )
    return CurvatureCurves(
        beta=b,
        lambda_min=lam,
        beta_split=_first_crossing(b, lam),
        state_beta=float(s.beta),
        varsigma=float(varsigma),
    )


def two_group_split(
    beta_ratio: Any = 1.1,
    delta: Any = 0.05,
    *,
    noise: Any = 0.8,
    N: Any = 40,
    n: Any = 12,
    steps: Any = 1500,
    lr: Any = 1.0,
    rng: Any = 0,
) -> TwoGroupSplit:
    """The two-group toy of App. G: do two copies of the mean memory merge or split?

    Parameters
    ----------
    beta_ratio : float
        β/β_c in (0, 100].
    delta : float
        Escape step δ in (0, 1]: the copies start at normalise(x̃ ± δu).
    noise : float
        Spread of the patterns around their centre, in (0, 10] (Gaussian noise of that
        standard deviation per coordinate, relative to the centres' unit scale).
    N : int
        Dimension, 3 to 2000.
    n : int
        Number of patterns, even, 4 to 400 (n/2 per group).
    steps : int
        Riemannian gradient-descent iterations, 1 to 100000.
    lr : float
        Step size in (0, 10].
    rng : int or numpy.random.Generator
        Seed of the centres and the noise.

    Returns
    -------
    TwoGroupSplit

    Notes
    -----
    One class, no outside unit (p = (0, 1)): the single memory at the normalised mean x̃ of the
    patterns is a stationary point of the loss (Eq. 4) for every β. Duplicated (Eq. 13) it is a
    saddle once β > β_c = R̄/λ_max(P⊥M₂P⊥) (App. G; :func:`cluster_split_threshold`), and its
    escape direction u is the top eigenvector of P⊥M₂P⊥. The copies start at x̃ ± δu with
    weights ½ each and descend the loss with w ← normalise(w − lr ∇̄w). Below β_c they merge
    back into x̃ (separation → 0), above it they settle apart. Near β_c the descent slows down
    critically, so the separation after ``steps`` iterations may not be final. The patterns
    and spectrum are cached per (noise, N, n, seed), so a live move of β/β_c or δ costs only
    the descent.

    Examples
    --------
    >>> t = two_group_split(0.8, 0.05, steps=200)
    >>> t.lambda_min > 0, bool(t.separation[-1] < t.separation[0])
    (True, True)
    """
    ratio = check_fraction(beta_ratio, "beta_ratio", 0.0, 100.0, open_hi=False)
    dlt = check_fraction(delta, "delta", 0.0, 1.0, open_hi=False)
    sd = check_fraction(noise, "noise", 0.0, 10.0, open_hi=False)
    dim = check_positive_int(N, "N", minimum=3, maximum=_N_MAX)
    count = check_positive_int(n, "n", minimum=4, maximum=_PATTERNS_MAX)
    if count % 2:
        raise ValueError(f"n must be even (n/2 patterns per group), got {count}")
    its = check_positive_int(steps, "steps", maximum=_STEPS_MAX)
    eta = check_fraction(lr, "lr", 0.0, 10.0, open_hi=False)
    if isinstance(rng, int | np.integer) and not isinstance(rng, bool):
        X, split = _toy(sd, dim, count, int(rng))
    else:
        X, split = _toy.__wrapped__(sd, dim, count, as_rng(rng))
    beta = ratio * split.beta_split
    x_tilde, u = split.mean_direction, split.direction
    lam_min = beta * (split.R_bar - beta * split.lambda_max)
    Q = np.zeros((count, 2))
    Q[:, 1] = 1.0
    p1 = np.array([[0.0, 0.0], [0.0, 1.0]])
    p2 = np.array([[0.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
    base = _toy_loss(X, x_tilde[None, :], p1[1], beta)
    pairs = [_pair(x_tilde, u, float(d)) for d in _DELTAS]
    change = np.array([_toy_loss(X, w, p2[1], beta) - base for w in pairs])
    start = _pair(x_tilde, u, dlt)
    record, sep, end = _descend(X, start, beta, eta, its)
    return TwoGroupSplit(
        patterns=X,
        beta_c=float(split.beta_split),
        beta=float(beta),
        delta=dlt,
        R_bar=float(split.R_bar),
        lambda_max=float(split.lambda_max),
        lambda_min=float(lam_min),
        mean_direction=x_tilde,
        direction=u,
        deltas=_DELTAS.copy(),
        loss_change=change,
        quadratic=0.5 * _DELTAS**2 * lam_min,
        steps=record,
        separation=sep,
        start=start,
        end=end,
        loss_end=_toy_loss(X, end, p2[1], beta) - base,
    )


# --- kernels ----------------------------------------------------------------------------------


def _first_crossing(b: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """Per column, the interpolated β where λ_min first drops from >= 0 to < 0 (inf: never)."""
    out = np.full(lam.shape[1], np.inf)
    for mu in range(lam.shape[1]):
        neg = np.flatnonzero(lam[:, mu] < 0)
        if neg.size == 0:
            continue
        k = int(neg[0])
        if k == 0:
            out[mu] = b[0]
            continue
        lo, hi = lam[k - 1, mu], lam[k, mu]
        out[mu] = b[k - 1] + (b[k] - b[k - 1]) * lo / (lo - hi)
    return out


@functools.lru_cache(maxsize=32)
def _toy(noise: float, N: int, n: int, rng: Any) -> tuple[np.ndarray, Any]:
    """Two noisy groups of n/2 unit patterns and their split threshold (cached per seed)."""
    gen = as_rng(rng)
    centres = gen.standard_normal((2, N))
    x = np.repeat(centres, n // 2, axis=0) + noise * gen.standard_normal((n, N))
    X = x / np.linalg.norm(x, axis=1, keepdims=True)
    X.setflags(write=False)  # shared by the cache
    return X, cluster_split_threshold(X)


def _pair(x_tilde: np.ndarray, u: np.ndarray, delta: float) -> np.ndarray:
    w = np.stack([x_tilde + delta * u, x_tilde - delta * u])
    return w / np.linalg.norm(w, axis=1, keepdims=True)


def _toy_loss(X: np.ndarray, w: np.ndarray, weights: np.ndarray, beta: float) -> float:
    """Eq. 4 with one class and no outside unit, up to the constant log Ω_N(β):
    −mean log Σ_μ p^μ exp(β w^μ·x)."""
    z = beta * (X @ w.T) + np.log(weights[1:])
    zmax = z.max(axis=1, keepdims=True)
    return -float(np.mean(zmax[:, 0] + np.log(np.exp(z - zmax).sum(axis=1))))


def _descend(
    X: np.ndarray, w: np.ndarray, beta: float, lr: float, steps: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Riemannian GD on the toy loss from w (2, N), weights ½ each (App. F projection)."""
    record = np.unique(np.r_[0, np.geomspace(1, steps, _RECORDS).round().astype(int)])
    sep = np.empty(record.size)
    B = X.shape[0]
    j = 0
    for t in range(steps + 1):
        if t == record[j]:
            sep[j] = np.linalg.norm(w[0] - w[1])
            j += 1
        if t == steps:
            break
        z = beta * (X @ w.T)
        z -= z.max(axis=1, keepdims=True)
        r = np.exp(z)
        r /= r.sum(axis=1, keepdims=True)
        g = -(beta / B) * (r.T @ X)
        g -= np.sum(g * w, axis=1, keepdims=True) * w
        w = w - lr * g
        w /= np.linalg.norm(w, axis=1, keepdims=True)
    return record, sep, w


# --- figures ----------------------------------------------------------------------------------


@tidied
def plot_curvature(curves: Any, height: int = 420) -> go.Figure:
    """λ_min(𝒮_μ) against β, one line per unit, with the zero line and the state's β.

    Parameters
    ----------
    curves : CurvatureCurves
        From :func:`curvature_curves`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        One faint line per memory (below zero: a saddle direction once duplicated), the first
        unit to split highlighted, the zero line (dashed) and the β the memories were trained
        at (dotted); a dot where each line first crosses zero.
    """
    c = check_instance(curves, "curves", CurvatureCurves)
    height = check_height(height)
    traces = []
    P = c.lambda_min.shape[1]
    first = int(np.nanargmin(np.where(np.isfinite(c.beta_split), c.beta_split, np.inf)))
    for mu in range(P):
        traces.append(
            _line(
                c.beta,
                c.lambda_min[:, mu],
                "λ<sub>min</sub>(𝒮<sub>μ</sub>), one line per unit",
                showlegend=mu == 0,
                legendgroup="units",
                opacity=0.35,
                line={"color": _COLORS[0], "width": 2},
            )
        )
    if np.isfinite(c.beta_split[first]):
        traces.append(
            _line(
                c.beta,
                c.lambda_min[:, first],
                f"unit {first + 1}, the first to split",
                line={"color": _COLORS[1], "width": 3},
            )
        )
    hit = np.isfinite(c.beta_split)
    traces.append(
        {
            "type": "scatter",
            "mode": "markers",
            "x": np.round(c.beta_split[hit], 5),
            "y": np.zeros(int(hit.sum())),
            "name": f"split β of a unit ({int(hit.sum())} of {P})",
            "marker": {"color": _THEORY, "size": 8, "symbol": "circle-open", "line": {"width": 2}},
        }
    )
    traces.append(
        _line([None], [None], "λ = 0: a saddle below", line={"color": _THEORY, "dash": "dash"})
    )
    traces.append(
        _line(
            [None],
            [None],
            f"trained β = {_fmt(c.state_beta)}",
            line={"color": _GREY, "dash": "dot"},
        )
    )
    lo = float(np.min(c.lambda_min))
    hi = float(np.max(c.lambda_min))
    pad = 0.05 * (hi - lo if hi > lo else 1.0)
    layout = go.Layout(
        height=height,
        title={"text": "Curvature of duplicated units", "font": {"size": 14}},
        xaxis={"title": {"text": "β"}},
        yaxis={"title": {"text": "λ<sub>min</sub>(𝒮<sub>μ</sub>)"}, "range": [lo - pad, hi + pad]},
        shapes=[
            _hline(0.0, "x", "y", color=_THEORY),
            _vline(c.state_beta, "x", "y", color=_GREY),
        ],
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_two_group_split(toy: Any, height: int = 420) -> go.Figure:
    """The two-group toy: plane view, loss along the escape, separation during descent.

    Parameters
    ----------
    toy : TwoGroupSplit
        From :func:`two_group_split`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: patterns (grey) and the two memories at the start (open) and after descent
        (filled), projected on x̃ (horizontal) and u (vertical). Middle: the exact loss change
        of the copies at x̃ ± δ'u against δ' and the quadratic (δ'²/2)λ_min (dashed), δ marked;
        the y range follows the exact curve.
        Right: ‖w¹ − w²‖ against the gradient-descent iteration (log axis, from 1).
    """
    t = check_instance(toy, "toy", TwoGroupSplit)
    height = check_height(height)
    layout, ((x1, y1, _), (x2, y2, _), (x3, y3, _)) = _panels(
        ["projections", "loss along ±δ′u", "copies' distance"],
        spacing=0.09,
    )
    P = np.stack([t.patterns @ t.mean_direction, t.patterns @ t.direction])
    S = np.stack([t.start @ t.mean_direction, t.start @ t.direction])
    E = np.stack([t.end @ t.mean_direction, t.end @ t.direction])
    dots = {"type": "scatter", "mode": "markers", "xaxis": x1, "yaxis": y1}
    traces = [
        {**dots, "x": P[0], "y": P[1], "name": "patterns", "marker": {"color": _GREY, "size": 7}},
        {
            **dots,
            "x": S[0],
            "y": S[1],
            "name": "copies at the start",
            "marker": {"color": _MEMORY, "size": 11, "symbol": "circle-open", "line": {"width": 2}},
        },
        {
            **dots,
            "x": E[0],
            "y": E[1],
            "name": "after descent",
            "marker": {"color": _MEMORY, "size": 11, "symbol": "x"},
        },
        _line(
            t.deltas,
            t.loss_change,
            "loss change (exact)",
            xaxis=x2,
            yaxis=y2,
            line={"color": _COLORS[0], "width": 3},
        ),
        _line(
            t.deltas,
            t.quadratic,
            "(δ′²/2) λ<sub>min</sub>",
            xaxis=x2,
            yaxis=y2,
            line={"color": _THEORY, "dash": "dash"},
        ),
        _line(
            t.steps[1:],
            t.separation[1:],
            "‖w¹ − w²‖",
            xaxis=x3,
            yaxis=y3,
            line={"color": _MEMORY, "width": 3},
            mode="lines+markers",
            marker={"size": 4},
        ),
    ]
    layout["shapes"] += [_vline(t.delta, x2, y2, color=_GREY), _hline(0.0, x2, y2, color=_GREY)]
    layout.setdefault("annotations", []).append(
        {
            "x": 1.0,
            "y": 0.0,
            "xref": f"{x2} domain",
            "yref": y2,
            "text": "ΔL = 0",
            "showarrow": False,
            "xanchor": "right",
            "yanchor": "bottom",
            "font": {"size": 10, "color": _GREY},
        }
    )
    layout[_axis(x1)].update(title={"text": "x·x̃"})
    layout[_axis(y1)].update(title={"text": "x·u"})
    layout[_axis(x2)].update(title={"text": "δ′"})
    # the y range follows the exact curve (the parabola leaves it at large δ′)
    lo = min(float(np.min(t.loss_change)), 0.0)
    hi = max(float(np.max(t.loss_change)), 0.0)
    span = hi - lo if hi > lo else 1e-12
    layout[_axis(y2)].update(title={"text": "ΔL"}, range=[lo - 0.4 * span, hi + 0.15 * span])
    layout[_axis(x3)].update(title={"text": "iteration"}, type="log", dtick=1)
    layout[_axis(y3)].update(title={"text": "‖w¹ − w²‖"}, rangemode="tozero")
    title = f"Two groups at β/β<sub>c</sub> = {_fmt(t.beta / t.beta_c)}, δ = {_fmt(t.delta)}"
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)
