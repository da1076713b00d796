"""Figures for the section "Learning prototypes from digits" (``ds-digits``).

Source: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025),
Sec. 4.1–4.2, Figs. 1–3 and Table 1. The paper trains on MNIST (N = 784, P = 1000); this section
trains the same model on scikit-learn's bundled 8 × 8 digits (N = 64, 1200 training and 597 test
images, :func:`assocmem.potts_dam.data.load_digits_sphere`), a different protocol whose numbers
are printed beside the paper's, never in their place.

The model quantities come from :mod:`assocmem.potts_dam.model` (training, prediction,
responsibilities) and :mod:`assocmem.potts_dam.vmf` (A_N). Three *views* assemble them (pure
functions returning frozen results; trained runs are cached per setting, so an exploration's
menus only redraw); the ``plot_*`` functions take those results and compute nothing.

Notation map
------------
- memories w^μ, μ = 1..P (rows on S^63)               -> ``run.memories``, shape (P, 64)
- soft label of memory μ, p_y^μ / p_h(μ), y = 1..C    -> ``run.soft_labels``, shape (C, P)
- β (fixed, or its starting value when trained), ς    -> ``beta``, ``varsigma``
  (``varsigma=None``: β fixed, the loss of Eq. 4; a number: β trained on Eq. 12 with that ς)
- m̄, the responsibility-weighted mean overlap w^μ·x   -> ``run.mean_overlap``
- A_N(β) = ς m̄, the rest point of a trained β (ours)   -> ``run.beta_root``
- 1-NN fidelity (Sec. 4.2)                            -> ``run.fidelity``

Public functions
----------------
digits_run, table_one, neighbour_view
    The views (results ``DigitsRun``, ``TableOne``, ``NeighbourView``).
plot_memories
    The first memories as 8 × 8 images (letters AA, AB, … as in the paper) and their rescaled
    class weights.
plot_training
    Test accuracy, training loss and β against the epoch, one curve per run.
plot_neighbours
    A test digit beside the memories with the largest responsibility for it.
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from scipy.optimize import brentq

from assocmem._validation import (
    as_real_vector,
    as_rng,
    check_fraction,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.potts_dam import data, model, vmf

from .._checks import check_height, check_results
from .._layout import tidied
from .._panels import _axis, _panels
from ._common import _COLORS, _fmt, _line

__all__ = [
    "DigitsRun",
    "NeighbourView",
    "TableOne",
    "digits_run",
    "neighbour_view",
    "plot_memories",
    "plot_neighbours",
    "plot_training",
    "table_one",
]

_BETA_RANGE = (0.5, 100.0)  # fixed β (or the starting β of a trained run)
_VARSIGMA_RANGE = (0.05, 1.0)
_P_MAX = 400
_EPOCHS_MAX = 200
_ROWS_MAX = 12  # runs of a Table-1 analogue
_K_MAX = 10  # neighbours shown
_SAME = 0.999  # cosine above which two memories count as copies of one prototype
_STUCK = 0.5  # a memory is stuck when no training image has cosine >= 0.5 with it
_LETTERS = "ABCDEFGHIJKLMNOPQRST"


@dataclass(frozen=True)
class DigitsRun:
    """One DAM trained on the 8 × 8 digits, with what the section reads off it.

    Attributes
    ----------
    P, epochs : int
    beta0 : float
        Fixed β, or the starting β when β is trained.
    varsigma : float or None
        None: β fixed, loss of Eq. 4 (ς = 1). A number: β trained on Eq. 12 with this ς.
    result : TrainResult
        Per-epoch loss, accuracies and β (:func:`assocmem.potts_dam.model.train`).
    memories : ndarray, shape (P, 64)
    soft_labels : ndarray, shape (C, P)
        p_y^μ/p_h(μ) for the classes y = 1..C (the "no class" row is empty): column μ is the
        label distribution of memory μ (Fig. 3 bottom).
    memory_class : ndarray of int, shape (P,)
        Argmax of each column (data labels 0..C−1).
    nearest : ndarray, shape (P,)
        Largest cosine of each memory with a training image.
    stuck_fraction : float
        Fraction of memories with ``nearest`` < 0.5 (never pulled towards the data).
    group : ndarray of int, shape (P,)
        The first memory of each memory's group of copies (cosine > 0.999 with it): below
        their splitting threshold, memories of one class merge into one prototype.
    distinct : int
        Number of groups, the distinct prototypes.
    beta, test_accuracy : float
        Final β and test accuracy (Eq. 14).
    fidelity, fidelity_correct, fidelity_incorrect : float
        Fraction of test digits whose predicted class is the class of the memory most similar
        to them (largest w^μ·x), over all, correctly and wrongly classified test digits
        (NaN when a group is empty).
    mean_overlap : float
        m̄ = Σ r_μ w^μ·x / Σ r_μ over the training set, r_μ the responsibilities (μ >= 1).
    beta_root : float
        The root of A_N(β) = ς m̄ (where a trained β stops, ours); NaN for a fixed β.
    image_shape : tuple of int
    """

    P: int
    epochs: int
    beta0: float
    varsigma: float | None
    result: model.TrainResult
    memories: np.ndarray
    soft_labels: np.ndarray
    memory_class: np.ndarray
    nearest: np.ndarray
    stuck_fraction: float
    group: np.ndarray
    distinct: int
    beta: float
    test_accuracy: float
    fidelity: float
    fidelity_correct: float
    fidelity_incorrect: float
    mean_overlap: float
    beta_root: float
    image_shape: tuple[int, int]

    @property
    def label(self) -> str:
        """Short name of the setting, as legends print it."""
        if self.varsigma is None:
            return f"β = {_fmt(self.beta0)} fixed"
        return f"β trained, ς = {_fmt(self.varsigma)}"


@dataclass(frozen=True)
class TableOne:
    """A Table-1 analogue on the digits: fixed β against trained β with ς.

    Attributes
    ----------
    runs : tuple of DigitsRun
        The fixed-β runs first (increasing β), then the trained ones (increasing ς).
    labels : tuple of str
    final_beta, test_accuracy, stuck_fraction, fidelity, beta_root : ndarray, shape (n,)
        Per run, as in :class:`DigitsRun`.
    """

    runs: tuple[DigitsRun, ...]
    labels: tuple[str, ...]
    final_beta: np.ndarray
    test_accuracy: np.ndarray
    stuck_fraction: np.ndarray
    fidelity: np.ndarray
    beta_root: np.ndarray


@dataclass(frozen=True)
class NeighbourView:
    """A test digit and the memories that explain its prediction (Sec. 4.2).

    Attributes
    ----------
    run : DigitsRun
    index : int
        Position of the digit in the test set.
    image : ndarray, shape (64,)
    label, predicted : int
        True and predicted class.
    top : ndarray of int, shape (k,)
        The k distinct prototypes (groups of copies, :attr:`DigitsRun.group`) with the largest
        responsibility P(μ | x), largest first, each named by its first memory.
    responsibility, overlap : ndarray, shape (k,)
        Their responsibilities (summed over the copies) and cosines w^μ·x.
    copies : ndarray of int, shape (k,)
        Memories in each group.
    classes : ndarray of int, shape (k,)
        Their classes (argmax of the soft label).
    nearest_class : int
        Class of the memory with the largest cosine (the 1-NN reading of the model).
    """

    run: DigitsRun
    index: int
    image: np.ndarray
    label: int
    predicted: int
    top: np.ndarray
    responsibility: np.ndarray
    overlap: np.ndarray
    copies: np.ndarray
    classes: np.ndarray
    nearest_class: int


# --- views ------------------------------------------------------------------------------------


def digits_run(
    beta: Any,
    varsigma: Any = None,
    P: Any = 100,
    epochs: Any = 40,
    rng: Any = 0,
) -> DigitsRun:
    """Train the DAM on the digits at fixed β (Eq. 4) or with β trained on Eq. 12.

    Parameters
    ----------
    beta : float
        Fixed β, or the starting β when ``varsigma`` is given; in [0.5, 100].
    varsigma : float or None
        None keeps β fixed and trains the loss of Eq. 4; a number ς in [0.05, 1] trains β with
        the effective loss of Eq. 12 (the paper's last row of Table 1).
    P : int
        Memories, 1 to 400.
    epochs : int
        Passes over the 1200 training images, 1 to 200 (batch 50).
    rng : int or numpy.random.Generator
        Seed of the memories' initial directions and of the minibatch order.

    Returns
    -------
    DigitsRun

    Notes
    -----
    Momentum SGD on the sphere with the class weights kept on the transportation polytope
    (:func:`assocmem.potts_dam.model.train`, defaults lr_w = 0.1, momentum 0.9, lr_p = 0.05,
    lr on log β 0.02), memories uniform on the sphere and p = p_q ⊗ p_h with p_h = 1/(P + 1) at
    the start (App. I). A trained β rests where ∂𝓛/∂β = 0, i.e. where A_N(β) = ς m̄ (ours); the
    run reports that root. With an integer seed the run is cached (about 1 s at P = 100,
    40 epochs), so an exploration's menu move between computed settings only redraws.

    Examples
    --------
    >>> run = digits_run(4.0, P=10, epochs=2)
    >>> run.memories.shape, run.soft_labels.shape
    ((10, 64), (10, 10))
    """
    b = check_fraction(beta, "beta", *_BETA_RANGE, open_lo=False, open_hi=False)
    s = None if varsigma is None else _check_varsigma(varsigma)
    n_units = check_positive_int(P, "P", maximum=_P_MAX)
    n_epochs = check_positive_int(epochs, "epochs", maximum=_EPOCHS_MAX)
    gen = as_rng(rng)  # validates a seed too
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        return _cached_run(b, s, n_units, n_epochs, int(rng))
    return _cached_run.__wrapped__(b, s, n_units, n_epochs, gen)


def table_one(
    betas: Any = (4.0, 8.0, 16.0, 32.0),
    varsigmas: Any = (0.25, 0.5, 1.0),
    beta0: Any = 4.0,
    P: Any = 100,
    epochs: Any = 40,
    rng: Any = 0,
) -> TableOne:
    """A Table-1 analogue: runs at fixed β and runs with β trained from ``beta0`` with ς.

    Parameters
    ----------
    betas : array_like, shape (a,)
        Fixed β values, each in [0.5, 100].
    varsigmas : array_like, shape (b,)
        ς values of the trained-β runs, each in [0.05, 1]; a + b is 1 to 12 (either may be
        empty).
    beta0 : float
        Starting β of the trained runs, in [0.5, 100].
    P, epochs, rng
        As in :func:`digits_run` (the same seed for every run).

    Returns
    -------
    TableOne

    Examples
    --------
    >>> t = table_one([4.0], [0.5], P=10, epochs=2)
    >>> t.labels
    ('β = 4 fixed', 'β trained, ς = 0.5')
    """
    fixed = _vector(betas, "betas", *_BETA_RANGE)
    sig = _vector(varsigmas, "varsigmas", *_VARSIGMA_RANGE)
    if fixed.size + sig.size == 0:
        raise ValueError("betas and varsigmas must hold at least one value between them, got none")
    check_size(fixed.size + sig.size, "betas", "runs", _ROWS_MAX, "pass fewer β and ς")
    b0 = check_fraction(beta0, "beta0", *_BETA_RANGE, open_lo=False, open_hi=False)
    n_units = check_positive_int(P, "P", maximum=_P_MAX)
    n_epochs = check_positive_int(epochs, "epochs", maximum=_EPOCHS_MAX)
    as_rng(rng)
    runs = [digits_run(float(b), None, n_units, n_epochs, rng) for b in np.sort(fixed)]
    runs += [digits_run(b0, float(s), n_units, n_epochs, rng) for s in np.sort(sig)]
    return TableOne(
        runs=tuple(runs),
        labels=tuple(r.label for r in runs),
        final_beta=np.array([r.beta for r in runs]),
        test_accuracy=np.array([r.test_accuracy for r in runs]),
        stuck_fraction=np.array([r.stuck_fraction for r in runs]),
        fidelity=np.array([r.fidelity for r in runs]),
        beta_root=np.array([r.beta_root for r in runs]),
    )


def neighbour_view(
    index: Any,
    beta: Any = 4.0,
    varsigma: Any = 0.5,
    P: Any = 100,
    epochs: Any = 40,
    k: Any = 5,
    rng: Any = 0,
) -> NeighbourView:
    """A test digit, its prediction and the k memories with the largest responsibility.

    Parameters
    ----------
    index : int
        Position in the test set, 0 to 596.
    beta, varsigma, P, epochs, rng
        The run, as in :func:`digits_run`.
    k : int
        Prototypes shown, 1 to 10 (fewer when the run has fewer distinct prototypes).

    Returns
    -------
    NeighbourView

    Notes
    -----
    The responsibility of memory μ for a digit x is P(μ | x) = Σ_y P(y | x) P(μ | x, y), the
    softmax of Eq. 6 weighted by the class posterior of Eq. 14. The paper reads a prediction
    through the memory most similar to the digit (its 1-NN fidelity, Sec. 4.2).

    Examples
    --------
    >>> v = neighbour_view(0, 4.0, None, P=10, epochs=2, k=3)
    >>> v.top.shape, v.image.shape
    ((3,), (64,))
    """
    d = _digits()
    i = check_positive_int(index, "index", minimum=0, maximum=d.X_test.shape[0] - 1)
    run = digits_run(beta, varsigma, P, epochs, rng)
    k_ = min(check_positive_int(k, "k", maximum=_K_MAX), run.distinct)
    x = d.X_test[i : i + 1]
    s = 1.0 if run.varsigma is None else run.varsigma
    st = run.result.state
    probs = model.class_probabilities(x, st.w, st.p, st.beta, s)
    resp = model.responsibilities(x, probs, st.w, st.p, st.beta, s)[0, 1:]
    overlap = run.memories @ x[0]
    heads, pos = np.unique(run.group, return_inverse=True)
    summed = np.bincount(pos, weights=resp, minlength=heads.size)
    order = np.argsort(-summed, kind="stable")[:k_]
    top = heads[order]
    return NeighbourView(
        run=run,
        index=i,
        image=x[0].copy(),
        label=int(d.y_test[i]),
        predicted=int(np.argmax(probs[0, 1:])),
        top=top,
        responsibility=summed[order],
        overlap=overlap[top],
        copies=np.bincount(pos, minlength=heads.size)[order],
        classes=run.memory_class[top],
        nearest_class=int(run.memory_class[int(np.argmax(overlap))]),
    )


@functools.lru_cache(maxsize=1)
def _digits() -> data.DigitsData:
    """The digits on the sphere, the 1200/597 split of seed 123 (cached: read once)."""
    return data.load_digits_sphere()


@functools.lru_cache(maxsize=64)
def _cached_run(beta: float, varsigma: float | None, P: int, epochs: int, rng: Any) -> DigitsRun:
    """Train one setting and read the section's quantities off it (cached for an int seed)."""
    d = _digits()
    gen = as_rng(rng)
    state = model.init_state(d.X_train, d.y_train, P, beta=beta, rng=gen)
    s = 1.0 if varsigma is None else varsigma
    res = model.train(
        d.X_train,
        d.y_train,
        state,
        varsigma=s,
        train_beta=varsigma is not None,
        epochs=epochs,
        X_test=d.X_test,
        labels_test=d.y_test,
        rng=gen,
    )
    st = res.state
    w, p = np.asarray(st.w), np.asarray(st.p)
    soft = p[1:, 1:] / p[:, 1:].sum(axis=0)
    cls = np.argmax(soft, axis=0)
    nearest = np.max(w @ d.X_train.T, axis=1)
    pred = np.asarray(model.predict(d.X_test, w, p, st.beta, s))
    nn_class = cls[np.argmax(d.X_test @ w.T, axis=1)]
    agree, right = nn_class == pred, pred == d.y_test
    Q = model.soft_labels(d.y_train, p.shape[0] - 1)
    r = np.asarray(model.responsibilities(d.X_train, Q, w, p, st.beta, s))[:, 1:]
    m_bar = float(np.sum(r * (d.X_train @ w.T)) / np.sum(r))
    root = math.nan if varsigma is None else _beta_root(d.X_train.shape[1], s * m_bar)
    group = _groups(w)
    for arr in (w, soft, cls, nearest, group):
        arr.setflags(write=False)  # shared by the cache
    return DigitsRun(
        P=P,
        epochs=epochs,
        beta0=beta,
        varsigma=varsigma,
        result=res,
        memories=w,
        soft_labels=soft,
        memory_class=cls,
        nearest=nearest,
        stuck_fraction=float(np.mean(nearest < _STUCK)),
        group=group,
        distinct=int(np.unique(group).size),
        beta=float(st.beta),
        test_accuracy=float(res.test_accuracy[-1]),
        fidelity=float(np.mean(agree)),
        fidelity_correct=float(np.mean(agree[right])) if right.any() else math.nan,
        fidelity_incorrect=float(np.mean(agree[~right])) if (~right).any() else math.nan,
        mean_overlap=m_bar,
        beta_root=root,
        image_shape=d.image_shape,
    )


def _groups(w: np.ndarray) -> np.ndarray:
    """Greedy grouping of copies: each memory joins the first earlier one within cosine 0.999."""
    G = w @ w.T
    group = np.arange(w.shape[0])
    for i in range(w.shape[0]):
        if group[i] == i:
            later = np.flatnonzero((G[i] > _SAME) & (np.arange(w.shape[0]) > i))
            later = later[group[later] == later]
            group[later] = i
    return group


def _beta_root(N: int, target: float) -> float:
    """β with A_N(β) = target (A_N rises from 0 to 1); NaN when target is outside (0, 1)."""
    if not 0.0 < target < 1.0:
        return math.nan
    hi = 1.0
    while vmf.mean_resultant_length(N, hi) < target and hi < 1e6:
        hi *= 2.0
    return float(brentq(lambda b: vmf.mean_resultant_length(N, b) - target, 1e-9, hi))


def _check_varsigma(varsigma: Any) -> float:
    return check_fraction(varsigma, "varsigma", *_VARSIGMA_RANGE, open_lo=False, open_hi=False)


def _vector(values: Any, name: str, lo: float, hi: float) -> np.ndarray:
    if isinstance(values, list | tuple) and len(values) == 0:
        return np.zeros(0)
    return as_real_vector(values, name, lo, hi)


# --- figures ----------------------------------------------------------------------------------


def _mosaic(images: np.ndarray, shape: tuple[int, int], cols: int) -> np.ndarray:
    """Images tiled row by row, ``cols`` per row, one blank (NaN) pixel between tiles."""
    h, w = shape
    rows = -(-images.shape[0] // cols)
    out = np.full((rows * (h + 1) - 1, cols * (w + 1) - 1), np.nan)
    for n, img in enumerate(images):
        r, c = divmod(n, cols)
        out[r * (h + 1) : r * (h + 1) + h, c * (w + 1) : c * (w + 1) + w] = img.reshape(h, w)
    return out


def _names(n: int, cols: int) -> list[str]:
    """The paper's memory names: row letter then column letter (AA, AB, …)."""
    return [_LETTERS[i // cols] + _LETTERS[i % cols] for i in range(n)]


def _tile_axes(layout: dict, x: str, y: str, shape: tuple[int, int], rows: int, cols: int) -> None:
    """Axis ticks at the tile centres, labelled with letters; y downwards, square pixels."""
    h, w = shape
    layout[_axis(x)].update(
        tickvals=[c * (w + 1) + (w - 1) / 2 for c in range(cols)],
        ticktext=list(_LETTERS[:cols]),
        showgrid=False,
        zeroline=False,
        constrain="domain",
    )
    layout[_axis(y)].update(
        tickvals=[r * (h + 1) + (h - 1) / 2 for r in range(rows)],
        ticktext=list(_LETTERS[:rows]),
        autorange="reversed",
        showgrid=False,
        zeroline=False,
        scaleanchor=x,
        constrain="domain",
    )


def _heat(z: np.ndarray, refs: tuple[str, str], **style: Any) -> dict[str, Any]:
    return {
        "type": "heatmap",
        "z": [[None if not np.isfinite(v) else round(float(v), 4) for v in row] for row in z],
        "xaxis": refs[0],
        "yaxis": refs[1],
        "hoverongaps": False,
        **style,
    }


@tidied
def plot_memories(run: Any, count: int = 25, height: int = 420) -> go.Figure:
    """The first memories as images and their rescaled class weights (Figs. 1–3).

    Parameters
    ----------
    run : DigitsRun
        From :func:`digits_run`.
    count : int
        Memories shown, 1 to min(P, 100), in rows of five (ten from 50 up).
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: memories μ = 1..count as 8 × 8 images on a diverging scale (red positive, blue
        negative), named by row and column letter as in the paper. Right: p_y^μ/p_h(μ) for the
        same memories (columns AA, AB, …; rows the classes 0–9).
    """
    check_instance(run, "run", DigitsRun)
    n = check_positive_int(count, "count", maximum=min(run.P, 100))
    height = check_height(height)
    cols = 5 if n < 50 else 10
    rows = -(-n // cols)
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        [
            (f"first {n} of {run.P} " if n < run.P else "") + "memories w<sup>μ</sup>",
            "soft labels p<sub>y</sub><sup>μ</sup>/p<sub>h</sub>(μ)",
        ],
        widths=[1.0, 1.6],
        spacing=0.1,
    )
    imgs = run.memories[:n]
    top = float(np.max(np.abs(imgs)))
    names = _names(n, cols)
    traces = [
        _heat(
            _mosaic(imgs, run.image_shape, cols),
            (x1, y1),
            colorscale="RdBu",
            reversescale=True,
            zmin=-top,
            zmax=top,
            showscale=False,
            name="memories",
        ),
        _heat(
            run.soft_labels[:, :n],
            (x2, y2),
            x=names,
            y=[str(c) for c in range(run.soft_labels.shape[0])],
            colorscale="Blues",
            zmin=0.0,
            zmax=1.0,
            colorbar={"thickness": 12, "len": 0.8},
            name="soft labels",
        ),
    ]
    _tile_axes(layout, x1, y1, run.image_shape, rows, cols)
    layout[_axis(x2)].update(title={"text": "memory"}, tickangle=-90, tickfont={"size": 9})
    layout[_axis(y2)].update(title={"text": "class y"}, dtick=1)
    title = f"Learned memories and their labels, P = {run.P}, {run.label}"
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_training(runs: Any, height: int = 400) -> go.Figure:
    """Test accuracy, training loss and β against the epoch, one curve per run.

    Parameters
    ----------
    runs : DigitsRun, TableOne or sequence of DigitsRun
        From :func:`digits_run` or :func:`table_one`; at most 12 runs.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Three panels: test accuracy (Eq. 14), the training loss (Eq. 4 for a fixed β, Eq. 12
        for a trained one: not the same function, so compare shapes, not levels) and β on a log
        axis. Fixed-β runs are dashed.
    """
    items = _as_runs(runs)
    height = check_height(height)
    layout, ((x1, y1, _), (x2, y2, _), (x3, y3, _)) = _panels(
        ["test accuracy", "training loss", "β"], spacing=0.09
    )
    traces = []
    for i, r in enumerate(items):
        res = r.result
        dash = "dash" if r.varsigma is None else "solid"
        style = {
            "line": {"color": _COLORS[i % len(_COLORS)], "dash": dash, "width": 2},
            "legendgroup": str(i),
        }
        traces.append(_line(res.epoch, res.test_accuracy, r.label, xaxis=x1, yaxis=y1, **style))
        traces.append(
            _line(res.epoch, res.loss, r.label, xaxis=x2, yaxis=y2, showlegend=False, **style)
        )
        traces.append(
            _line(res.epoch, res.beta, r.label, xaxis=x3, yaxis=y3, showlegend=False, **style)
        )
    for x in (x1, x2, x3):
        layout[_axis(x)].update(title={"text": "epoch"})
    layout[_axis(y1)].update(range=[0.0, 1.0])
    layout[_axis(y3)].update(type="log", dtick=1)
    title = f"Training on the digits, P = {items[0].P}"
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


def _as_runs(runs: Any) -> list[DigitsRun]:
    if isinstance(runs, TableOne):
        return list(runs.runs)
    items = check_results(runs, "runs", DigitsRun)
    check_size(len(items), "runs", "runs", _ROWS_MAX, "pass fewer runs")
    return items


@tidied
def plot_neighbours(view: Any, height: int = 300) -> go.Figure:
    """A test digit beside the memories with the largest responsibility for it (Sec. 4.2).

    Parameters
    ----------
    view : NeighbourView
        From :func:`neighbour_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        One row of 8 × 8 images on a diverging scale: the test digit, then the k prototypes in
        decreasing responsibility; the x axis labels each with its class, its number of copies
        (×n), responsibility r and cosine with the digit.
    """
    v = check_instance(view, "view", NeighbourView)
    height = check_height(height)
    imgs = np.vstack([v.image[None, :], v.run.memories[v.top]])
    cols = imgs.shape[0]
    layout, ((x, y, _),) = _panels([""])
    scaled = imgs / np.max(np.abs(imgs), axis=1, keepdims=True)
    trace = _heat(
        _mosaic(scaled, v.run.image_shape, cols),
        (x, y),
        colorscale="RdBu",
        reversescale=True,
        zmin=-1.0,
        zmax=1.0,
        showscale=False,
        name="images",
    )
    _tile_axes(layout, x, y, v.run.image_shape, 1, cols)
    labels = [f"digit {v.label}"] + [
        f"class {c}{'' if n == 1 else f' (×{n})'}<br>r = {r:.2f}<br>cos = {m:.2f}"
        for c, n, r, m in zip(v.classes, v.copies, v.responsibility, v.overlap, strict=True)
    ]
    layout[_axis(x)].update(ticktext=labels, tickfont={"size": 11})
    layout[_axis(y)].update(showticklabels=False)
    verdict = "right" if v.predicted == v.label else "wrong"
    title = (
        f"Test digit {v.index}: label {v.label}, DAM predicts {v.predicted} ({verdict}); "
        f"most similar memory: class {v.nearest_class}"
    )
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=[trace], layout=layout)
