"""Figures for the section "Growing a network by splitting" (``ds-growing``).

Paper: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025),
Sec. 5, App. G-H, Alg. 1, Figs. 5-6.

Two *views* assemble one figure each (pure functions returning frozen results, cached per
argument tuple so that a live menu move between computed settings redraws at once); the
``plot_*`` functions take those results and compute nothing.

Notation map
------------
- memories w^μ (P of them, on the sphere S^{N−1})          -> ``P``, ``N``
- teacher leaves x* of a hierarchical teacher (our D12 tree) -> ``data.hierarchical_teacher``
- β_split = R̄/λ_max(P⊥M₂P⊥) of a subtree (App. G)          -> ``LearningTree.predicted``
- P_cur, P_max, unit-epochs (work)                          -> ``GrowthRuns.split.P``,
  ``P_max``, ``.work``

Public functions
----------------
learning_tree, growth_runs
    The views (results ``LearningTree``, ``GrowthRuns``).
plot_learning_tree
    Memories along the leaves' first principal axis against an annealed β (the bifurcation
    tree), and the number of distinct memories with the predicted split thresholds.
plot_growth
    Test accuracy against cumulative unit-epochs, splitting steepest descent against training
    P_max units from scratch, and P_cur per epoch.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    check_fraction,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.potts_dam import data, hierarchy, model, saddle
from assocmem.potts_dam.hierarchy import SplitResult

from .._checks import check_height
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _vline

__all__ = [
    "GrowthRuns",
    "LearningTree",
    "growth_runs",
    "learning_tree",
    "plot_growth",
    "plot_learning_tree",
]

_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
_GREY = "#7f7f7f"
_LEVEL_DASH = ("solid", "dash", "dot")
_SEED_MAX = 2**31 - 1
_WORK_MAX = 5 * 10**9  # steps × iterations × P × leaves × N of one annealing run


@dataclass(frozen=True)
class LearningTree:
    """Memories of an annealed DAM on a hierarchical teacher (the learning tree, Fig. 5 analogue).

    Attributes
    ----------
    beta : ndarray, shape (k,)
        The annealing grid (geometric, increasing).
    position : ndarray, shape (k, P)
        Each memory's coordinate along the leaves' first principal axis after each β.
    counts : ndarray of int, shape (k,)
        Distinct memories (clusters closer than ``tol``) after each β.
    leaf_group : ndarray of int, shape (P,)
        Top-level group of each memory's nearest leaf at the last β (the colour of its line).
    predicted : tuple of ndarray
        β_split = R̄/λ_max(P⊥M₂P⊥) of every subtree, one array per level (root, then each
        level's groups), inf for a single leaf.
    measured : tuple of ndarray
        The β of the grid from which on the memories nearest to that subtree's leaves form two
        or more clusters of their own (inf if they do not at the last β), same shapes.
    P, N : int
    noise, tol : float
    """

    beta: np.ndarray
    position: np.ndarray
    counts: np.ndarray
    leaf_group: np.ndarray
    predicted: tuple[np.ndarray, ...]
    measured: tuple[np.ndarray, ...]
    P: int
    N: int
    noise: float
    tol: float


@dataclass(frozen=True)
class GrowthRuns:
    """Splitting steepest descent against training P_max units from scratch, on the digits.

    Attributes
    ----------
    split : SplitResult
        :func:`assocmem.potts_dam.hierarchy.splitting_descent` from P_init to P_max units.
    scratch_epoch, scratch_work, scratch_accuracy : ndarray, shape (E + 1,)
        The from-scratch run: epochs, cumulative unit-epochs (P_max per epoch) and test
        accuracy.
    P_max, P_init : int
    work_ratio : float
        Total work of the split run over that of the scratch run.
    accuracy_gap : float
        Final test accuracy, split minus scratch.
    match_work : float
        Cumulative split work at the first epoch whose test accuracy is within ``tol`` of the
        scratch run's final accuracy (inf if never).
    tol : float
    split_seconds, scratch_seconds : float
        Wall time of each run when it was first computed (not drawn: it varies run to run).
    """

    split: SplitResult
    scratch_epoch: np.ndarray
    scratch_work: np.ndarray
    scratch_accuracy: np.ndarray
    P_max: int
    P_init: int
    work_ratio: float
    accuracy_gap: float
    match_work: float
    tol: float
    split_seconds: float
    scratch_seconds: float


# --- views ------------------------------------------------------------------------------------


def learning_tree(
    P: Any = 16,
    seed: Any = 0,
    N: Any = 60,
    beta_max: Any = 40.0,
    steps: Any = 120,
    iterations: Any = 200,
    noise: Any = 1e-3,
    tol: Any = 0.02,
) -> LearningTree:
    """Anneal β for P memories started at the mean of a hierarchical teacher's leaves.

    Parameters
    ----------
    P : int
        Number of memories, 2 to 64.
    seed : int
        Seed of the symmetry-breaking noise, 0 to 2³¹ − 1.
    N : int
        Dimension of the teacher (:func:`assocmem.potts_dam.data.hierarchical_teacher` with its
        defaults: 2 × 2 × 3 leaves, scales 1, 0.7, 0.5, teacher seed 5), 12 to 400.
    beta_max : float
        Last β of the geometric grid that starts at 0.8, in (1, 200].
    steps : int
        Points of the β grid, 2 to 400.
    iterations : int
        Fixed-point iterations at each β, 1 to 2000.
    noise : float
        Size of the Gaussian kick given to every memory before each β, in (0, 0.1].
    tol : float
        Memories closer than ``tol`` (Euclidean) count as one, in (0, 1].

    Returns
    -------
    LearningTree

    Notes
    -----
    The data are the teacher's leaves themselves (the noiseless limit ϱ → ∞ of Sec. 2.2, one
    class, no outside unit, equal weights), so the loss of Eq. 4 is the mixture likelihood and
    its stationarity condition (Eq. 6) is the fixed point w^μ ∝ Σ_x r_μ(x) x. All memories start
    at the leaves' normalised mean; at each β of the grid they get a small random kick and are
    iterated to the nearby fixed point. Below a subtree's β_split the kick dies out (the
    duplicated point is stable), above it the memories covering that subtree separate (App. G:
    the duplicated point is a saddle). The thresholds are
    :func:`assocmem.potts_dam.saddle.cluster_split_threshold` per subtree; they are exact for
    an isolated cluster, so deeper levels, whose sibling clusters still share some
    responsibility, split a little off the prediction.

    Examples
    --------
    >>> t = learning_tree(P=4, steps=30, iterations=100)
    >>> round(float(t.predicted[0][0]), 3), int(t.counts[0]), int(t.counts[-1]) >= 2
    (1.505, 1, True)
    """
    P = check_positive_int(P, "P", minimum=2, maximum=64)
    seed = check_positive_int(seed, "seed", minimum=0, maximum=_SEED_MAX)
    N = check_positive_int(N, "N", minimum=12, maximum=400)
    beta_max = check_fraction(beta_max, "beta_max", 1.0, 200.0, open_hi=False)
    steps = check_positive_int(steps, "steps", minimum=2, maximum=400)
    iterations = check_positive_int(iterations, "iterations", maximum=2000)
    noise = check_fraction(noise, "noise", 0.0, 0.1, open_hi=False)
    tol = check_fraction(tol, "tol", 0.0, 1.0, open_hi=False)
    check_size(steps * iterations * P * 12 * N, "iterations", "multiply-adds of the annealing",
               _WORK_MAX, "use fewer steps or iterations")  # fmt: skip
    return _tree(P, seed, N, beta_max, steps, iterations, noise, tol)


def growth_runs(
    P_max: Any = 80,
    seed: Any = 0,
    P_init: Any = 10,
    epochs_first: Any = 20,
    epochs_after: Any = 8,
    epochs_scratch: Any = 40,
    varsigma: Any = 0.5,
    tol: Any = 0.01,
) -> GrowthRuns:
    """Grow a DAM on the digits by splitting and train one of the final size from scratch.

    Parameters
    ----------
    P_max : int
        Final number of memories, P_init to 640.
    seed : int
        Seed of both runs (initial memories, minibatch orders), 0 to 2³¹ − 1.
    P_init : int
        Memories before the first split, 1 to 640.
    epochs_first, epochs_after : int
        Epochs before the first split and after each split, 1 to 200.
    epochs_scratch : int
        Epochs of the from-scratch run, 1 to 200.
    varsigma : float
        ς in (0, 1] of the effective loss (Eq. 12); β is trained in both runs from β = 4.
    tol : float
        Accuracy margin of ``match_work``, in [0, 1].

    Returns
    -------
    GrowthRuns

    Notes
    -----
    Alg. 1 of the paper with every unit of negative curvature split per round (τ_thres = 1,
    λ_thres = 0, δ = 0.1, :func:`assocmem.potts_dam.hierarchy.splitting_descent`); the scratch
    run is :func:`assocmem.potts_dam.model.train` from random memories with the outside weight
    p_h(0) = 1/(P_max + 1) of the split run. Both use the digits' 1200/597 split
    (:func:`assocmem.potts_dam.data.load_digits_sphere`) and the default step sizes. Work is
    counted in unit-epochs (training P units for an epoch costs P; one split round over P units
    costs P). Results are cached per argument tuple.

    Examples
    --------
    >>> g = growth_runs(P_max=4, P_init=2, epochs_first=1, epochs_after=1, epochs_scratch=2)
    >>> float(g.scratch_work[-1]), int(g.split.P[0])
    (8.0, 2)
    """
    P_max = check_positive_int(P_max, "P_max", maximum=640)
    seed = check_positive_int(seed, "seed", minimum=0, maximum=_SEED_MAX)
    P_init = check_positive_int(P_init, "P_init", maximum=640)
    if P_init > P_max:
        raise ValueError(f"P_init must be <= P_max = {P_max}, got {P_init}")
    epochs_first = check_positive_int(epochs_first, "epochs_first", maximum=200)
    epochs_after = check_positive_int(epochs_after, "epochs_after", maximum=200)
    epochs_scratch = check_positive_int(epochs_scratch, "epochs_scratch", maximum=200)
    varsigma = check_fraction(varsigma, "varsigma", 0.0, 1.0, open_hi=False)
    tol = check_fraction(tol, "tol", 0.0, 1.0, open_lo=False, open_hi=False)
    return _growth(P_max, seed, P_init, epochs_first, epochs_after, epochs_scratch, varsigma, tol)


# --- kernels ----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _teacher(N: int) -> data.HierarchicalTeacher:
    return data.hierarchical_teacher(N)


@functools.lru_cache(maxsize=1)
def _digits() -> data.DigitsData:
    return data.load_digits_sphere()


def _clusters(W: np.ndarray, tol: float) -> np.ndarray:
    """Labels of the groups of rows linked by distances below ``tol`` (single linkage)."""
    close = np.linalg.norm(W[:, None, :] - W[None, :, :], axis=2) < tol
    labels = np.full(W.shape[0], -1)
    for i in range(W.shape[0]):
        if labels[i] < 0:
            front = [i]
            labels[i] = i
            while front:
                j = front.pop()
                new = np.flatnonzero(close[j] & (labels < 0))
                labels[new] = i
                front.extend(new.tolist())
    return labels


def _split(labels: np.ndarray, mine: np.ndarray) -> bool:
    """Whether the memories ``mine`` form two or more clusters that hold no other memory (a
    cluster mixing them with others is a transient of a split higher up the tree)."""
    owners = np.unique(labels[mine])
    return owners.size >= 2 and not np.any(np.isin(labels, owners) & ~mine)


def _first_for_good(betas: np.ndarray, apart: np.ndarray) -> np.ndarray:
    """Per row, the β from which ``apart`` holds at every later grid point (inf if it fails at
    the last): a split seen only while the iteration is still settling does not count."""
    out = np.full(apart.shape[0], np.inf)
    for j, row in enumerate(apart):
        if row[-1]:
            fails = np.flatnonzero(~row)
            out[j] = betas[fails[-1] + 1] if fails.size else betas[0]
    return out


def _subtrees(groups: np.ndarray) -> list[list[np.ndarray]]:
    """Leaf index sets of every subtree, per level: the root, then each level's groups."""
    levels = [[np.arange(groups.shape[0])]]
    for k in range(groups.shape[1] - 1):
        levels.append([np.flatnonzero(groups[:, k] == g) for g in np.unique(groups[:, k])])
    return levels


@functools.lru_cache(maxsize=32)
def _tree(
    P: int,
    seed: int,
    N: int,
    beta_max: float,
    steps: int,
    iterations: int,
    noise: float,
    tol: float,
) -> LearningTree:
    teacher = _teacher(N)
    X = teacher.patterns
    gen = np.random.default_rng(seed)
    betas = np.geomspace(0.8, beta_max, steps)
    mean = X.mean(axis=0)
    W = np.tile(mean / np.linalg.norm(mean), (P, 1))
    _, _, vt = np.linalg.svd(X - mean, full_matrices=False)
    axis = vt[0]
    levels = _subtrees(teacher.groups)
    predicted = tuple(
        np.array([saddle.cluster_split_threshold(X[s]).beta_split for s in sets]) for sets in levels
    )
    apart = [np.zeros((len(sets), steps), dtype=bool) for sets in levels]
    position = np.empty((steps, P))
    counts = np.empty(steps, dtype=np.int64)
    for i, beta in enumerate(betas):
        W = W + noise * gen.standard_normal(W.shape)
        W /= np.linalg.norm(W, axis=1, keepdims=True)
        for _ in range(iterations):
            logits = beta * (X @ W.T)
            r = np.exp(logits - logits.max(axis=1, keepdims=True))
            r /= r.sum(axis=1, keepdims=True)
            V = r.T @ X
            norm = np.linalg.norm(V, axis=1, keepdims=True)
            W = np.where(norm > 1e-12, V / np.maximum(norm, 1e-12), W)  # a unit without data stays
        labels = _clusters(W, tol)
        position[i] = W @ axis
        counts[i] = np.unique(labels).size
        nearest = np.argmax(W @ X.T, axis=1)
        for k, sets in enumerate(levels):
            for j, leaves in enumerate(sets):
                apart[k][j, i] = _split(labels, np.isin(nearest, leaves))
    leaf_group = teacher.groups[np.argmax(W @ X.T, axis=1), 0]
    return LearningTree(
        beta=betas,
        position=position,
        counts=counts,
        leaf_group=leaf_group,
        predicted=predicted,
        measured=tuple(_first_for_good(betas, a) for a in apart),
        P=P,
        N=N,
        noise=noise,
        tol=tol,
    )


@functools.lru_cache(maxsize=16)
def _growth(
    P_max: int,
    seed: int,
    P_init: int,
    epochs_first: int,
    epochs_after: int,
    epochs_scratch: int,
    varsigma: float,
    tol: float,
) -> GrowthRuns:
    d = _digits()
    test = {"X_test": d.X_test, "labels_test": d.y_test}
    start = time.perf_counter()
    split = hierarchy.splitting_descent(
        d.X_train, d.y_train, P_init=P_init, P_max=P_max, varsigma=varsigma,
        epochs_first=epochs_first, epochs_after=epochs_after, rng=seed, **test,
    )  # fmt: skip
    split_seconds = time.perf_counter() - start
    start = time.perf_counter()
    gen = np.random.default_rng(seed)
    state = model.init_state(d.X_train, d.y_train, P_max, p_h0=1.0 / (P_max + 1), rng=gen)
    scratch = model.train(
        d.X_train, d.y_train, state, varsigma=varsigma, train_beta=True,
        epochs=epochs_scratch, rng=gen, **test,
    )  # fmt: skip
    scratch_seconds = time.perf_counter() - start
    target = float(scratch.test_accuracy[-1]) - tol
    reached = np.flatnonzero(split.test_accuracy >= target - 1e-12)
    return GrowthRuns(
        split=split,
        scratch_epoch=scratch.epoch,
        scratch_work=scratch.work,
        scratch_accuracy=scratch.test_accuracy,
        P_max=P_max,
        P_init=P_init,
        work_ratio=float(split.work[-1] / scratch.work[-1]),
        accuracy_gap=float(split.test_accuracy[-1] - scratch.test_accuracy[-1]),
        match_work=float(split.work[reached[0]]) if reached.size else math.inf,
        tol=tol,
        split_seconds=split_seconds,
        scratch_seconds=scratch_seconds,
    )


# --- figures ----------------------------------------------------------------------------------


def _line(x: Any, y: Any, refs: tuple[str, str], name: str, **style: Any) -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "lines",
        "x": np.round(np.asarray(x, dtype=float), 5),
        "y": np.round(np.asarray(y, dtype=float), 5),
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        **style,
    }


@tidied
def plot_learning_tree(tree: Any, height: int = 440) -> go.Figure:
    """The bifurcation tree of annealed memories and the count of distinct memories.

    Parameters
    ----------
    tree : LearningTree
        From :func:`learning_tree`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: each memory's coordinate along the leaves' first principal axis against β (log
        axis), coloured by the top-level group it ends in. Right: the number of distinct
        memories against β, with the predicted β_split of every subtree as vertical lines
        (solid: root, dashed: the two groups, dotted: the four sub-groups).
    """
    check_instance(tree, "tree", LearningTree)
    height = check_height(height)
    t = tree
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(["memories", "distinct memories"])
    traces = []
    for g in np.unique(t.leaf_group):
        color = _COLORS[int(g) % len(_COLORS)]
        for j, mu in enumerate(np.flatnonzero(t.leaf_group == g)):
            traces.append(
                _line(
                    t.beta,
                    t.position[:, mu],
                    (x1, y1),
                    f"memories ending in group {int(g) + 1}",
                    showlegend=j == 0,
                    legendgroup=f"g{int(g)}",
                    line={"color": color, "width": 1.5},
                )
            )
    traces.append(
        _line(t.beta, t.counts, (x2, y2), "distinct memories", line={"color": "black", "width": 2})
    )
    names = (
        "β<sub>split</sub>: root",
        "β<sub>split</sub>: groups",
        "β<sub>split</sub>: sub-groups",
    )
    for k, values in enumerate(t.predicted):
        dash = _LEVEL_DASH[min(k, len(_LEVEL_DASH) - 1)]
        shown = [float(v) for v in values if math.isfinite(v) and t.beta[0] <= v <= t.beta[-1]]
        for v in shown:
            layout["shapes"].append(_vline(v, x2, y2, dash=dash, color=_GREY))
        if shown and k < len(names):
            traces.append(
                _line([None], [None], (x2, y2), names[k], line={"color": _GREY, "dash": dash})
            )
    for x in (x1, x2):
        layout[_axis(x)].update(title={"text": "β"}, type="log", dtick=1)
    layout[_axis(y1)].update(title={"text": "w · (first principal axis)"})
    layout[_axis(y2)].update(title={"text": "count"}, rangemode="tozero")
    title = f"Annealed memories on a hierarchical teacher, P = {t.P}, N = {t.N}"
    for key in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        layout[key].update(zeroline=False)
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_growth(runs: Any, height: int = 440) -> go.Figure:
    """Accuracy against work and P_cur per epoch, splitting against training from scratch.

    Parameters
    ----------
    runs : GrowthRuns
        From :func:`growth_runs`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: test accuracy against cumulative unit-epochs for the split run (red) and the
        scratch run (blue), with the scratch run's final accuracy (dashed) and the split run's
        total work (dotted). Right: the number of memories per epoch.
    """
    check_instance(runs, "runs", GrowthRuns)
    height = check_height(height)
    g = runs
    s = g.split
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(["test accuracy", "memories"])
    split_style = {"line": {"color": _COLORS[1], "width": 2}, "legendgroup": "split"}
    scratch_style = {"line": {"color": _COLORS[0], "width": 2}, "legendgroup": "scratch"}
    traces = [
        _line(s.work, s.test_accuracy, (x1, y1), "splitting descent", **split_style),
        _line(
            g.scratch_work, g.scratch_accuracy, (x1, y1), f"scratch, P = {g.P_max}", **scratch_style
        ),
        _line(s.epoch, s.P, (x2, y2), "", showlegend=False, **split_style),
        _line(
            g.scratch_epoch,
            np.full(g.scratch_epoch.size, g.P_max),
            (x2, y2),
            "",
            showlegend=False,
            **scratch_style,
        ),
    ]
    layout["shapes"].append(_hline(float(g.scratch_accuracy[-1]), x1, y1, color=_COLORS[0]))
    layout["shapes"].append(_vline(float(s.work[-1]), x1, y1, color=_COLORS[1]))
    traces += [
        _line(
            [None],
            [None],
            (x1, y1),
            "final accuracy from scratch",
            line={"color": _COLORS[0], "dash": "dash", "width": 1},
        ),
        _line(
            [None],
            [None],
            (x1, y1),
            "total work of growing",
            line={"color": _COLORS[1], "dash": "dot", "width": 1.5},
        ),
    ]
    layout[_axis(x1)].update(title={"text": "work (unit-epochs)"}, rangemode="tozero")
    low = float(min(np.min(s.test_accuracy), np.min(g.scratch_accuracy)))
    layout[_axis(y1)].update(title={"text": "accuracy"}, range=[max(0.0, low - 0.02), 1.0])
    layout[_axis(x2)].update(title={"text": "epoch"})
    layout[_axis(y2)].update(title={"text": "P"}, rangemode="tozero")
    title = f"Growing to P = {g.P_max} from {g.P_init} against training at full size"
    for key in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        layout[key].update(zeroline=False)
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)
