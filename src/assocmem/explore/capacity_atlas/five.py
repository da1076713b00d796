"""Five notions of capacity side by side: the views and figures of the page ``atlas-five``.

Each view computes one chapter's capacity at a ladder of sizes with that chapter's own library
functions and returns a frozen :class:`ModelCapacity`; nothing here solves a model. The atlas
converts each value to a common unit where one exists (patterns per neuron, bits per weight,
samples per parameter) and says why where none does.

Notation map: ``ds`` are dimensions d, ``Ns`` neuron counts N, ``P_stars`` teacher memory counts
P*; ``value`` is the capacity in the model's own unit and ``limit`` its asymptotic value;
``common`` and ``common_limit`` are the same in the common unit (NaN where none exists, +inf
where the capacity grows without bound).

Public functions
----------------
epanechnikov_capacity
    Thm 2(a) of the Epanechnikov chapter: M = √(1 − δ) e^(αd) patterns, ln M / d → α.
factual_recall_capacity
    p ln p / d² at the finite-p capacity α_c(p), → ½ (factual recall).
attractor_capacity
    Measured critical load for stability α_S = P/N against Eq. 19 (attractor stability).
attention_capacity
    Perfect-recovery samples n / d² at width ρ, → ρ − ρ²/2 (attention-indexed models).
saddle_capacity
    Memories resolved per unit β_eff², P*/β_eff,c² → 1 (saddle hierarchy).
capacity_atlas, capacity_view
    The five results together, and one model at one size step (the exploration's compute).
plot_capacity, capacity_table
    The exploration's figure and the comparison table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem import attractor, dense_am, linear_memory, quadratic
from assocmem._validation import (
    check_fraction,
    check_instance,
    check_int_sequence,
    check_positive_int,
)
from assocmem.potts_dam import saddle

from .._checks import check_height, check_results
from .._layout import tidied
from .._panels import _axis, _hline, _panels
from .._tables import table_figure

__all__ = [
    "CapacityAtlas",
    "CapacityView",
    "ModelCapacity",
    "attention_capacity",
    "attractor_capacity",
    "capacity_atlas",
    "capacity_table",
    "capacity_view",
    "epanechnikov_capacity",
    "factual_recall_capacity",
    "plot_capacity",
    "saddle_capacity",
]

_LN2 = math.log(2.0)
#: The reference case of the attractor chapter: CV = σ = n = 1 (note §2.9, first table).
_ATTRACTOR_CASE = (1.0, 1.0, 1.0)
#: Relative distance from the split line at which the saddle-point equations are solved.
_SPLIT_MARGIN = 0.02
_FIXED_POINT_ITERATIONS = 30


@dataclass(frozen=True)
class ModelCapacity:
    """One model's capacity at a ladder of sizes, in its own unit and in a common one.

    Attributes
    ----------
    key, name : str
        Short key (the exploration's menu value) and display name.
    stored, notion, scaling, method, caveat : str
        What is stored; what "capacity" means; how it scales with size; how the finite-size
        value is obtained; why the common unit fails or what it leaves out ("" if nothing).
    size_symbol : str
        The size parameter ("d", "N" or "P*").
    sizes : numpy.ndarray of int, shape (n,)
    value : numpy.ndarray, shape (n,)
        Finite-size capacity in the model's unit.
    error : numpy.ndarray, shape (n,)
        Its standard error (0 where ``value`` is a formula).
    limit : float
        Its asymptotic value.
    unit : str
        The model's unit.
    common : numpy.ndarray, shape (n,)
        The same in the common unit (NaN where there is none).
    common_limit : float
        Asymptotic value in the common unit (+inf: unbounded; NaN: no common unit).
    common_unit : str
        The common unit ("" where there is none).
    check : numpy.ndarray
        A second, independent number per size (see ``check_label``).
    check_label : str
    chapter : str
        The book page that computes it (a path for the ``doc`` role).
    """

    key: str
    name: str
    stored: str
    notion: str
    scaling: str
    method: str
    caveat: str
    size_symbol: str
    sizes: np.ndarray
    value: np.ndarray
    error: np.ndarray
    limit: float
    unit: str
    common: np.ndarray
    common_limit: float
    common_unit: str
    check: np.ndarray
    check_label: str
    chapter: str


@dataclass(frozen=True)
class CapacityAtlas:
    """The five models' capacities; ``models`` in the order of the book's chapters."""

    models: tuple[ModelCapacity, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        """The models' keys, in order."""
        return tuple(m.key for m in self.models)

    def model(self, key: str) -> ModelCapacity:
        """The model with this key (a ValueError names ``model`` for an unknown key)."""
        for m in self.models:
            if m.key == key:
                return m
        raise ValueError(f"model must be one of {self.keys!r}, got {key!r}")


@dataclass(frozen=True)
class CapacityView:
    """One model at one size: ``model.sizes[index]`` is highlighted in the figure."""

    model: ModelCapacity
    index: int

    @property
    def size(self) -> int:
        """The size at the highlighted step."""
        return int(self.model.sizes[self.index])


def epanechnikov_capacity(
    ds: Any = (4, 6, 8, 10, 12),
    alpha: float = 0.5,
    delta: float = 0.5,
    n_trials: int = 200,
    rng: Any = 0,
) -> ModelCapacity:
    """Exponential capacity of the Epanechnikov (LSR) dense memory, Thm 2(a).

    Notes
    -----
    :func:`assocmem.dense_am.capacity_scaling`: M = ⌊√(1 − δ) e^(αd)⌋ uniform patterns in
    [0, 1]^d are all at least (V_d)^(−1/d) e^(−2α) apart, hence all exactly retrievable, with
    probability at least δ. The model's unit is the exponent ln M / d (→ α); the common unit
    is patterns per neuron M / d, unbounded. ``check`` is the Monte-Carlo success probability
    at that M (the guarantee says >= δ).

    Parameters
    ----------
    ds : sequence of int
        Dimensions, each in [1, 16].
    alpha : float
        Capacity exponent, in (0, 1].
    delta : float
        Target success probability, in (0, 1).
    n_trials : int
        Monte-Carlo draws per d.
    rng : int or numpy.random.Generator

    Returns
    -------
    ModelCapacity

    Examples
    --------
    >>> m = epanechnikov_capacity(ds=(4, 8), n_trials=50)
    >>> m.sizes.tolist(), bool(np.all(m.check >= 0.5))
    ([4, 8], True)
    """
    ds = check_int_sequence(ds, "ds", minimum=1, maximum=16)
    alpha = check_fraction(alpha, "alpha", open_hi=False)
    scaling = dense_am.capacity_scaling(ds, alpha, delta, n_trials, rng)
    d = np.asarray(ds, dtype=float)
    M = np.asarray(scaling.M, dtype=float)
    return ModelCapacity(
        key="epanechnikov",
        name="Epanechnikov dense memory",
        stored="M points in [0, 1]^d",
        notion="largest M with exact retrieval of all M patterns, with probability ≥ δ",
        scaling="M ∝ e<sup>αd</sup>",
        method=f"Thm 2(a) at α = {alpha:g}, δ = {scaling.delta:g}; Monte-Carlo check",
        caveat="patterns are stored verbatim as d real numbers each: no bits per parameter, "
        "and patterns per neuron grow without bound",
        size_symbol="d",
        sizes=np.asarray(ds, dtype=int),
        value=np.log(M) / d,
        error=np.zeros(d.shape),
        limit=alpha,
        unit="ln M / d",
        common=M / d,
        common_limit=math.inf,
        common_unit="patterns per neuron",
        check=np.asarray(scaling.empirical_success, dtype=float),
        check_label="Monte-Carlo success probability at M",
        chapter="book/epanechnikov/07_exponential_capacity",
    )


def factual_recall_capacity(ds: Any = (8, 16, 32, 64, 128), seed: int = 0) -> ModelCapacity:
    """Finite-size capacity of the linear factual-recall memory: p ln p / d² at α_c(p).

    Notes
    -----
    The load α = p ln p / d² (:func:`assocmem.linear_memory.load`) reaches the finite-p
    capacity α_c(p) (:func:`assocmem.linear_memory.finite_p_capacity_mc`, 400 samples) at the
    p that solves p = p(α_c(p), d) (:func:`assocmem.linear_memory.p_at_load`), found by
    iterating from p(½, d). α_c(p) → ½ as p → ∞ (Conjecture 1 of the paper), slowly, like
    1/ln p. Common unit: bits per weight p log₂ p / d² = α / ln 2 → 1/(2 ln 2) ≈ 0.72.
    ``check`` is α_c(p) at the p found (equal to ``value`` up to the rounding of p).

    Parameters
    ----------
    ds : sequence of int
        Dimensions, each in [2, 1024].
    seed : int
        Seed of the Monte-Carlo estimate (>= 0); the same seed at every p.

    Returns
    -------
    ModelCapacity

    Examples
    --------
    >>> m = factual_recall_capacity(ds=(16, 64))
    >>> bool(m.value[0] > m.value[1] > 0.5)
    True
    """
    ds = check_int_sequence(ds, "ds", minimum=2, maximum=1024)
    seed = check_positive_int(seed, "seed", minimum=0)
    ps, estimates = [], []
    for d in ds:
        p = linear_memory.p_at_load(0.5, d)
        seen: set[int] = set()
        for _ in range(_FIXED_POINT_ITERATIONS):
            est = float(np.ravel(linear_memory.finite_p_capacity_mc(p, rng=seed).alpha_c)[0])
            new = linear_memory.p_at_load(est, d)
            if new == p or new in seen:
                break
            seen.add(p)
            p = new
        ps.append(p)
        estimates.append(est)
    alpha = np.array([linear_memory.load(p, d) for p, d in zip(ps, ds, strict=True)])
    return ModelCapacity(
        key="factual-recall",
        name="Linear factual recall",
        stored="p facts (subject → attribute) in a d × d matrix",
        notion="largest load p ln p / d² with every fact recalled",
        scaling="p ln p ∝ d²",
        method="finite-p capacity α<sub>c</sub>(p) (ours), solved for p at each d",
        caveat="",
        size_symbol="d",
        sizes=np.asarray(ds, dtype=int),
        value=alpha,
        error=np.zeros(alpha.shape),
        limit=0.5,
        unit="p ln p / d²",
        common=alpha / _LN2,
        common_limit=0.5 / _LN2,
        common_unit="bits per weight",
        check=np.asarray(estimates),
        check_label="α<sub>c</sub>(p) at the p found",
        chapter="book/factual-recall/06_replica",
    )


def attractor_capacity(Ns: Any = (25, 50, 100, 200, 400), seeds: int = 10) -> ModelCapacity:
    """Critical load for stability α_S = P/N of dense rate patterns, measured and from Eq. 19.

    Notes
    -----
    :func:`assocmem.attractor.alpha_s_replicates` at CV = σ = n = 1 with Eq. 8 weights at
    θ*_bulk, four patterns per load, seeds 0 … seeds − 1: the mean over seeds is ``value``
    and its standard error ``error``; ``check`` holds every seed's value. The asymptotic value
    is Eq. 19 of the paper (:func:`assocmem.attractor.theory`), α_S ≈ 0.30 here; the chapter
    measures 25–50 % below it (a paper error). The storage capacity of the same weights is
    α_C = 1. α_S already is patterns per neuron, the common unit.

    Parameters
    ----------
    Ns : sequence of int
        Neurons, each in [25, 1000].
    seeds : int
        Repetitions, in [2, 50].

    Returns
    -------
    ModelCapacity

    Examples
    --------
    >>> m = attractor_capacity(Ns=(50,), seeds=2)
    >>> bool(0 < m.value[0] < m.limit < 1)
    True
    """
    Ns = check_int_sequence(Ns, "Ns", minimum=25, maximum=1000)
    seeds = check_positive_int(seeds, "seeds", minimum=2, maximum=50)
    runs = [np.ravel(attractor.alpha_s_replicates([_ATTRACTOR_CASE], N=N, seeds=seeds)) for N in Ns]
    mean = np.array([float(np.mean(r)) for r in runs])
    stderr = np.array([float(np.std(r, ddof=1)) / math.sqrt(seeds) for r in runs])
    limit = float(attractor.theory(*_ATTRACTOR_CASE).alpha_s)
    return ModelCapacity(
        key="attractor-stability",
        name="Rate network, least-norm weights",
        stored="P dense rate patterns as fixed points of N neurons",
        notion="largest load P/N at which the stored patterns are stable fixed points",
        scaling="P ∝ N",
        method=f"spectral abscissa of the Jacobian, mean of {seeds} seeds; limit Eq. 19",
        caveat="rates are real numbers: P/N counts patterns, not bits (of N² weights)",
        size_symbol="N",
        sizes=np.asarray(Ns, dtype=int),
        value=mean,
        error=stderr,
        limit=limit,
        unit="α<sub>S</sub> = P/N",
        common=mean,
        common_limit=limit,
        common_unit="patterns per neuron",
        check=np.stack(runs, axis=1),
        check_label="α<sub>S</sub> per seed (rows) and N (columns)",
        chapter="book/attractor-stability/06_phase_diagram",
    )


def attention_capacity(ds: Any = (8, 16, 32, 64, 128), rho: float = 0.5) -> ModelCapacity:
    """Samples for perfect recovery of a rank-ρd matrix from n = α d² quadratic measurements.

    Notes
    -----
    The Bayes-optimal perfect-recovery threshold
    (:func:`assocmem.quadratic.perfect_recovery_threshold`) is α_PR = ρ − ρ²/2 (½ for ρ >= 1):
    one measurement per degree of freedom of a PSD matrix of rank r = ρd. At finite d the same
    count is exact: r d − r(r − 1)/2 degrees of freedom
    (d(d + 1)/2 at full rank), r = round(ρ d), so n/d² = α_PR(r/d) + (r/d)/(2d). Common unit:
    samples per parameter of the learned symmetric matrix, n / (d(d + 1)/2) → 2 α_PR.
    ``check`` is the library's α_PR at the realised width r/d.

    Parameters
    ----------
    ds : sequence of int
        Dimensions, each in [2, 10⁶].
    rho : float
        Teacher width ρ = r/d, in (0, 1]; ρ d_min must round to r >= 1.

    Returns
    -------
    ModelCapacity

    Examples
    --------
    >>> m = attention_capacity(ds=(4,), rho=0.5)  # r = 2: 2·4 − 1 = 7 degrees of freedom
    >>> float(m.value[0]) == 7 / 16
    True
    """
    ds = check_int_sequence(ds, "ds", minimum=2, maximum=1_000_000)
    rho = check_fraction(rho, "rho", open_hi=False)
    d = np.asarray(ds, dtype=float)
    r = np.round(rho * d)
    if np.any(r < 1):
        raise ValueError(
            f"rho must give a rank round(rho d) >= 1 at every d, got rho = {rho!r} with "
            f"d = {int(d[np.argmin(r)])}"
        )
    dof = r * d - r * (r - 1) / 2
    limit = float(quadratic.perfect_recovery_threshold(rho))
    return ModelCapacity(
        key="attention-index",
        name="Quadratic network (matrix sensing)",
        stored="a rank-ρd PSD d × d matrix (the attention index)",
        notion="fewest samples n = α d² for perfect recovery",
        scaling="n ∝ d²",
        method="degrees of freedom at finite d; limit α<sub>PR</sub> = ρ − ρ²/2 (Bayes-optimal)",
        caveat="the network learns d(d + 1)/2 entries of a symmetric matrix; the count per "
        "degree of freedom of the rank-ρd teacher is exactly one",
        size_symbol="d",
        sizes=np.asarray(ds, dtype=int),
        value=dof / d**2,
        error=np.zeros(d.shape),
        limit=limit,
        unit="n / d²",
        common=dof / (d * (d + 1) / 2),
        common_limit=2 * limit,
        common_unit="samples per parameter",
        check=np.asarray(quadratic.perfect_recovery_threshold(r / d), dtype=float),
        check_label="α<sub>PR</sub> at the realised width r/d",
        chapter="book/attention-index/03_bayes_optimal",
    )


def saddle_capacity(P_stars: Any = (2, 4, 8, 16, 32), rho: float = 1.0) -> ModelCapacity:
    """Memories a student resolves: the split line β_eff,c = √(P* + 2/ϱ), as P*/β_eff,c².

    Notes
    -----
    Two student memories that cover P* orthonormal teacher memories split apart once
    β_eff > √(P* + 2/ϱ) (:func:`assocmem.potts_dam.saddle.split_threshold`), with ϱ = M/(P* N)
    examples per teacher memory in units of N. Read the other way, at inverse temperature
    β_eff and sample ratio ϱ the student resolves up to β_eff² − 2/ϱ memories: ``value`` is
    P*/β_eff,c², → 1 as P* grows (or ϱ → ∞). ``check`` holds, per P*, the split amplitude of the
    saddle-point equations (:func:`assocmem.potts_dam.saddle.phase_diagram`, symmetric start
    with a kick) at 0.98 and 1.02 times the line: about 0, then clearly positive.

    Parameters
    ----------
    P_stars : sequence of int
        Teacher memories, each in [2, 64].
    rho : float
        Load ϱ, in (0, 1e6].

    Returns
    -------
    ModelCapacity

    Examples
    --------
    >>> m = saddle_capacity(P_stars=(2,), rho=1.0)  # line √(2 + 2) = 2
    >>> float(m.value[0]), bool(m.check[0, 0] < 1e-4 < m.check[0, 1])
    (0.5, True)
    """
    P_stars = check_int_sequence(P_stars, "P_stars", minimum=2, maximum=64)
    rho = check_fraction(rho, "rho", hi=1e6, open_hi=False)
    lines = np.array([float(saddle.split_threshold(p, rho)) for p in P_stars])
    factors = np.array([1 - _SPLIT_MARGIN, 1 + _SPLIT_MARGIN])
    amplitude = np.array(
        [
            saddle.phase_diagram([rho], line * factors, p, 2).split_amplitude[0]
            for p, line in zip(P_stars, lines, strict=True)
        ]
    )
    P = np.asarray(P_stars, dtype=float)
    return ModelCapacity(
        key="dam-saddles",
        name="Dense memory, teacher–student",
        stored="P* prototypes learned from M noisy examples",
        notion="teacher memories a student resolves at inverse temperature β<sub>eff</sub> "
        "and sample ratio ϱ",
        scaling="P* ≈ β<sub>eff</sub>² − 2/ϱ",
        method=f"split line √(P* + 2/ϱ) at ϱ = {rho:g}; saddle-point check at ±2 %",
        caveat="β<sub>eff</sub> is an inverse temperature, not a resource, and the data "
        "(ϱ) are fixed",
        size_symbol="P*",
        sizes=np.asarray(P_stars, dtype=int),
        value=P / lines**2,
        error=np.zeros(P.shape),
        limit=1.0,
        unit="P* / β<sub>eff,c</sub>²",
        common=np.full(P.shape, np.nan),
        common_limit=math.nan,
        common_unit="",
        check=amplitude,
        check_label="split amplitude at 0.98 and 1.02 times the line",
        chapter="book/dam-saddles/03_saddle_point",
    )


def capacity_atlas(models: Any) -> CapacityAtlas:
    """Gather the models' capacities (same number of sizes each, distinct keys).

    Parameters
    ----------
    models : sequence of ModelCapacity
        At least one, in the order of the book's chapters.

    Returns
    -------
    CapacityAtlas

    Examples
    --------
    >>> a = capacity_atlas([attention_capacity(ds=(8, 16))])
    >>> a.keys
    ('attention-index',)
    """
    models = check_results(models, "models", ModelCapacity, single=False)
    keys = [m.key for m in models]
    if len(set(keys)) != len(keys):
        raise ValueError(f"models must have distinct keys, got {keys}")
    counts = {m.sizes.size for m in models}
    if len(counts) != 1:
        raise ValueError(f"models must have the same number of sizes each, got {sorted(counts)}")
    return CapacityAtlas(models=tuple(models))


def capacity_view(atlas: Any, model: Any, step: Any) -> CapacityView:
    """One model of the atlas at one size step (the exploration's compute function).

    Parameters
    ----------
    atlas : CapacityAtlas
    model : str
        One of ``atlas.keys``.
    step : int
        Size step, 1 (smallest size) to the number of sizes.

    Returns
    -------
    CapacityView

    Examples
    --------
    >>> a = capacity_atlas([attention_capacity(ds=(8, 16))])
    >>> capacity_view(a, "attention-index", 2).size
    16
    """
    check_instance(atlas, "atlas", CapacityAtlas)
    if not isinstance(model, str):
        raise TypeError(f"model must be a string (a model key), got {model!r}")
    found = atlas.model(model)
    step = check_positive_int(step, "step", minimum=1, maximum=int(found.sizes.size))
    return CapacityView(model=found, index=step - 1)


def _fmt(x: float) -> str:
    """Three significant digits; ∞ for +inf."""
    return "∞" if math.isinf(x) else f"{x:.3g}"


def _padded(values: np.ndarray, error: np.ndarray, limit: float) -> list[float]:
    """A y range holding the values, their error bars and a finite limit, with 8 % room."""
    pts = np.concatenate([values - error, values + error])
    pts = np.append(pts, limit) if math.isfinite(limit) else pts
    lo, hi = float(np.min(pts)), float(np.max(pts))
    room = 0.08 * (hi - lo) if hi > lo else 0.1 * max(abs(hi), 1.0)
    return [lo - room, hi + room]


def _panel_traces(
    sizes: np.ndarray,
    values: np.ndarray,
    error: np.ndarray,
    index: int,
    refs: tuple[str, str],
    legend: bool,
) -> list[dict[str, Any]]:
    """The finite-size curve (with error bars where they are not 0) and the chosen size."""
    x, y = refs
    labels = [str(int(v)) for v in sizes]
    bars = {"error_y": {"type": "data", "array": error}} if np.any(error > 0) else {}
    return [
        {
            **bars,
            "type": "scatter",
            "x": labels,
            "y": values,
            "mode": "lines+markers",
            "name": "finite size",
            "line": {"color": "#1f77b4", "width": 2},
            "xaxis": x,
            "yaxis": y,
            "showlegend": legend,
            "legendgroup": "finite",
        },
        {
            "type": "scatter",
            "x": [labels[index]],
            "y": [float(values[index])],
            "mode": "markers",
            "name": "this size",
            "marker": {"color": "#d62728", "size": 12},
            "xaxis": x,
            "yaxis": y,
            "showlegend": legend,
            "legendgroup": "this",
        },
    ]


@tidied
def plot_capacity(view: Any, height: int = 420) -> go.Figure:
    """The capacity of one model against size, in its own unit and in the common unit.

    Parameters
    ----------
    view : CapacityView
        From :func:`capacity_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: the model's unit against size, the chosen size in red, the asymptotic value
        dashed. Right: the same in the common unit (or, where none exists, the reason).
    """
    check_instance(view, "view", CapacityView)
    height = check_height(height)
    m, i = view.model, view.index
    layout, ((x1, y1, _), (x2, y2, _)) = _panels([m.unit, m.common_unit or "common unit"])
    traces = _panel_traces(m.sizes, m.value, m.error, i, (x1, y1), legend=True)
    layout["shapes"].append(_hline(m.limit, x1, y1))
    traces.append(
        {
            "type": "scatter",
            "x": [None],
            "y": [None],
            "mode": "lines",
            "name": "asymptotic value",
            "line": {"color": "black", "dash": "dash", "width": 1},
            "xaxis": x1,
            "yaxis": y1,
        }
    )
    if m.common_unit:
        traces += _panel_traces(m.sizes, m.common, m.error, i, (x2, y2), legend=False)
        if math.isfinite(m.common_limit):
            layout["shapes"].append(_hline(m.common_limit, x2, y2))
    else:
        traces.append(
            {
                "type": "scatter",
                "x": [None],
                "y": [None],
                "xaxis": x2,
                "yaxis": y2,
                "showlegend": False,
            }
        )
        layout["annotations"].append(
            {
                "text": "no common unit (see the table)",
                "x": 0.5,
                "y": 0.5,
                "xref": f"{x2} domain",
                "yref": f"{y2} domain",
                "showarrow": False,
                "font": {"size": 13, "color": "#7f7f7f"},
            }
        )
        layout[_axis(y2)].update(showticklabels=False)
    # the sizes are a ladder (mostly doubling): equally spaced categories, not a log axis
    for x in (x1, x2):
        layout[_axis(x)].update(title={"text": m.size_symbol}, type="category")
    layout[_axis(y1)].update(range=_padded(m.value, m.error, m.limit))
    if m.common_unit:
        layout[_axis(y2)].update(range=_padded(m.common, m.error, m.common_limit))
    for key in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        layout[key].update(zeroline=False)
    title = f"{m.name}, {m.size_symbol} = {view.size}"
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def capacity_table(atlas: Any) -> go.Figure:
    """The five capacities side by side: notion, units, scaling, asymptotic and finite values.

    Parameters
    ----------
    atlas : CapacityAtlas

    Returns
    -------
    plotly.graph_objects.Figure
        A table, one row per model; the finite-size values are at the largest size computed.
    """
    check_instance(atlas, "atlas", CapacityAtlas)
    rows = []
    for m in atlas.models:
        last = f"{m.size_symbol} = {int(m.sizes[-1])}"
        if m.common_unit:
            common = (
                f"{m.common_unit}: {_fmt(float(m.common[-1]))} at {last}, → {_fmt(m.common_limit)}"
            )
        else:
            common = f"none: {m.caveat}"
        rows.append(
            [
                m.name,
                m.notion,
                m.scaling,
                f"{_fmt(m.limit)} ({m.unit})",
                f"{_fmt(float(m.value[-1]))} at {last}",
                common,
            ]
        )
    header = ["model", "capacity", "scaling", "asymptotic", "finite size", "common unit"]
    columns = [list(c) for c in zip(*rows, strict=True)]
    return table_figure(
        [f"<b>{h}</b>" for h in header],
        columns,
        columnwidth=[1.45, 2.1, 1.1, 1.1, 1.05, 1.6],
        header_style={"fill": {"color": "#eeeeee"}, "align": "left"},
        cell_style={"align": "left"},
        size=12,
    )
