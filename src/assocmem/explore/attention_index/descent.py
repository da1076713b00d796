"""Figures for the section "Gradient descent samples the posterior" (``ai-gd``).

Sources: E. Troiani, talk slides ("Gradient descent"); Maillard, Troiani, Martin, Krzakala and
Zdeborová, arXiv:2408.03733 (averaged GD reaches the Bayes-optimal MMSE).

Two *views* run the experiments (pure functions returning frozen results, the compute side of
the section): :func:`gd_instances` trains K networks on each of a few instances at one α and
runs GAMP-RIE on the same instances; :func:`gd_sweep` does the same for one instance per α.
:func:`sweep_view` picks one α and a number of averaged runs out of a sweep, cheaply (the
exploration's compute function). The ``plot_*`` functions take those results and compute
nothing.

Notation map (A-units: error (1/d)‖Â − A*‖²_F, 1 for the prior mean at α = 0)
------------------------------------------------------------------------------
- ρ = p/d (teacher = student width), α = n/d², d       -> ``rho``, ``alpha``, ``d``
- K (runs averaged), k (first k of them)               -> ``runs``, ``k``
- m_k (run k's error), m̄_k (error of the mean of runs 1..k) -> ``errors``, ``prefix``
- m_GAMP (GAMP-RIE on the same instance; finite-d MMSE proxy) -> ``gamp``
- MMSE (Bayes-optimal, d → ∞)                          -> ``mmse``

Posterior samples would give E m_k = 2·MMSE and E m̄_k = MMSE(1 + 1/k) (Nishimori identity).

Public functions
----------------
gd_instances, gd_sweep, sweep_view
    The views (results ``GdInstances``, ``GdSweep``, ``SweepView``).
plot_training
    Errors and training MSE along the training of one instance.
plot_averaging
    m̄_k against k on each instance, against MMSE(1 + 1/k).
plot_sweep
    Single-run and averaged errors against α, and m̄_k at one α.
load_gpu_scale, plot_gpu_scale
    The GPU measurements at d = 100–300 (``benchmarks/gpu_quadratic_scale.py``, result
    ``GpuScale``) and their ratios to GAMP-RIE against d, one line per learning rate.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    ConvergenceWarning,
    as_real_vector,
    as_rng,
    check_finite_float,
    check_fraction,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.backend import to_numpy
from assocmem.quadratic.bayes import bo_curve, bo_mmse
from assocmem.quadratic.descent import DescentResult, gd_quadnet, prefix_mean_errors
from assocmem.quadratic.gamp import gamp_rie
from assocmem.quadratic.sensing import sample_sensing
from assocmem.quadratic.thresholds import perfect_recovery_threshold

from .._checks import check_height
from .._layout import tidied
from ._common import _line

__all__ = [
    "GdInstances",
    "GdSweep",
    "GpuScale",
    "SweepView",
    "gd_instances",
    "gd_sweep",
    "load_gpu_scale",
    "plot_averaging",
    "plot_gpu_scale",
    "plot_sweep",
    "plot_training",
    "sweep_view",
]

_D_MAX = 200  # a view's dimension (the notebook uses 40; 200 is the papers' scale, GPU-sized)
_RUNS_MAX = 256
_INSTANCES_MAX = 20
_ALPHAS_MAX = 20
_STEPS_MAX = 100_000
_RHO_MIN, _RHO_MAX = 1e-3, 10.0
_ALPHA_MAX = 10.0
_LR_MAX = 1.0
_WORK_MAX = 1e13  # flops of one view: steps · runs · 4 n p d, summed (about an hour on one core)
_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
_GREY = "#9a9a9a"


@dataclass(frozen=True)
class GdInstances:
    """K gradient-descent runs on each of a few instances at one α, and GAMP-RIE on each.

    Attributes
    ----------
    alpha, rho : float
    d, runs, steps : int
    lr : float
    results : tuple of DescentResult
        One per instance, NumPy arrays; the first carries the trajectory when one was recorded.
    errors : ndarray, shape (instances, runs)
        Single-run errors m_k.
    prefix : ndarray, shape (instances, runs)
        m̄_k, the error of the mean of the first k runs (k = 1..K).
    gamp : ndarray, shape (instances,)
        GAMP-RIE's final error on the same instance.
    mmse : float
        Bayes-optimal MMSE at (α, ρ), d → ∞.
    """

    alpha: float
    rho: float
    d: int
    runs: int
    steps: int
    lr: float
    results: tuple[DescentResult, ...]
    errors: np.ndarray
    prefix: np.ndarray
    gamp: np.ndarray
    mmse: float


@dataclass(frozen=True)
class GdSweep:
    """One instance per α: K runs, GAMP-RIE and the Bayes-optimal curve.

    Attributes
    ----------
    alpha : ndarray, shape (A,)
    rho : float
    d, runs, steps : int
    lr : float
    errors, prefix, train_mse : ndarray, shape (A, runs)
        Single-run errors, errors of the means of the first k runs, final training MSE.
    gamp, mmse : ndarray, shape (A,)
        GAMP-RIE on the same instance; the Bayes-optimal MMSE (d → ∞).
    curve_alpha, curve_mmse : ndarray
        The Bayes-optimal learning curve on a fine grid, up to 1.05 times the largest α (0
        beyond α_PR).
    alpha_pr : float
        The perfect-recovery threshold ρ − ρ²/2.
    """

    alpha: np.ndarray
    rho: float
    d: int
    runs: int
    steps: int
    lr: float
    errors: np.ndarray
    prefix: np.ndarray
    train_mse: np.ndarray
    gamp: np.ndarray
    mmse: np.ndarray
    curve_alpha: np.ndarray
    curve_mmse: np.ndarray
    alpha_pr: float


@dataclass(frozen=True)
class SweepView:
    """A sweep with one α selected and the first ``runs`` runs averaged.

    Attributes
    ----------
    sweep : GdSweep
    index : int
        Position of the selected α in ``sweep.alpha``.
    runs : int
        Number k of runs averaged, 1 <= k <= ``sweep.runs``.
    """

    sweep: GdSweep
    index: int
    runs: int


# --- views ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GpuScale:
    """Averaged GD against GAMP-RIE on the same instance, as measured on a GPU.

    Attributes
    ----------
    d, lr, steps : ndarray, shape (R,)
        Dimension, Adam learning rate and step count of each row.
    gamp, single, averaged, train : ndarray, shape (R,)
        GAMP-RIE's error, the mean single-run error, the averaged predictor's error and the
        largest training MSE of the K runs.
    runs : int
        K, the number of runs averaged.
    rho, alpha, mmse : float
        The setting and its Bayes-optimal MMSE (d → ∞).
    device, script : str
        Where and by what the rows were measured.
    """

    d: np.ndarray
    lr: np.ndarray
    steps: np.ndarray
    gamp: np.ndarray
    single: np.ndarray
    averaged: np.ndarray
    train: np.ndarray
    runs: int
    rho: float
    alpha: float
    mmse: float
    device: str
    script: str


_GPU_FIELDS = ("d", "lr", "steps", "gamp", "single_mean", "averaged", "max_train_mse")


def load_gpu_scale(path: Any) -> GpuScale:
    """Read the rows that ``benchmarks/gpu_quadratic_scale.py --json`` wrote.

    Parameters
    ----------
    path : str or os.PathLike
        The JSON file (``benchmarks/results/gpu_quadratic_scale_h200.json`` in the repository).

    Returns
    -------
    GpuScale
        The rows as arrays, sorted by learning rate and then d.

    Raises
    ------
    ValueError
        If the file does not exist, is not JSON, or lacks the ``meta`` and ``rows`` the script
        writes, or a row lacks a field.
    """
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a str or a pathlib.Path, got {type(path).__name__}")
    if not Path(path).is_file():
        raise ValueError(f"path must name a JSON file of gpu_quadratic_scale.py, got {str(path)!r}")
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"path = {str(path)!r} is not a JSON file: {err}") from err
    if not isinstance(raw, dict) or not {"meta", "rows"} <= raw.keys() or not raw["rows"]:
        raise ValueError(f"path = {str(path)!r} holds no rows of gpu_quadratic_scale.py")
    rows = sorted(raw["rows"], key=lambda r: (-float(r.get("lr", 0)), int(r.get("d", 0))))
    missing = [f for f in _GPU_FIELDS if any(f not in r for r in rows)]
    if missing:
        raise ValueError(f"path = {str(path)!r}: rows lack the fields {missing}")
    col = {f: np.array([float(r[f]) for r in rows]) for f in _GPU_FIELDS}
    meta = raw["meta"]
    return GpuScale(
        d=col["d"].astype(int),
        lr=col["lr"],
        steps=col["steps"].astype(int),
        gamp=col["gamp"],
        single=col["single_mean"],
        averaged=col["averaged"],
        train=col["max_train_mse"],
        runs=int(meta["runs"]),
        rho=float(meta["rho"]),
        alpha=float(meta["alpha"]),
        mmse=float(meta["bo_mmse"]),
        device=str(meta.get("device", "")),
        script=str(meta.get("script", "")),
    )


def _check_setup(
    d: Any, rho: Any, runs: Any, steps: Any, lr: Any, alphas: np.ndarray, copies: int
) -> tuple[int, float, int, int, float]:
    n_d = check_positive_int(d, "d", minimum=2, maximum=_D_MAX)
    r = check_fraction(rho, "rho", _RHO_MIN, _RHO_MAX, open_lo=False, open_hi=False)
    k = check_positive_int(runs, "runs", minimum=2, maximum=_RUNS_MAX)
    n_steps = check_positive_int(steps, "steps", maximum=_STEPS_MAX)
    eta = check_fraction(lr, "lr", 0.0, _LR_MAX, open_lo=True, open_hi=False)
    p = max(1, round(r * n_d))
    work = float(copies) * n_steps * k * 4.0 * p * n_d**3 * float(np.sum(alphas))
    check_size(work, "steps", "flops (steps · runs · 4 n p d)", _WORK_MAX, "use fewer steps")
    return n_d, r, k, n_steps, eta


def _one_instance(
    alpha: float, d: int, rho: float, runs: int, steps: int, lr: float, every: Any, gen: Any
) -> tuple[DescentResult, np.ndarray, float]:
    data = sample_sensing(d, rho, alpha, rng=gen)
    res = gd_quadnet(data, rho, runs=runs, steps=steps, lr=lr, rng=gen, record_every=every)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 80 iterations: the error is settled to ~1e-3 by then
        ref = float(gamp_rie(data, rho, max_iter=80, tol=1e-6).error[-1])
    prefix = to_numpy(prefix_mean_errors(res.A_runs, data.A))
    return _host(res), prefix, ref


def _host(res: DescentResult) -> DescentResult:
    """The result with every array on the host (NumPy)."""
    fields = {k: (None if v is None else to_numpy(v)) for k, v in res.__dict__.items()}
    return DescentResult(**fields)


def gd_instances(
    alpha: Any,
    *,
    instances: Any = 3,
    d: Any = 40,
    rho: Any = 0.5,
    runs: Any = 16,
    steps: Any = 1000,
    lr: Any = 0.01,
    record_every: Any = None,
    rng: Any = 0,
) -> GdInstances:
    """Train K networks on each of a few instances at one α; GAMP-RIE on the same instances.

    Parameters
    ----------
    alpha : float
        Sample ratio α = n/d², in (0, 10].
    instances : int
        Number of instances (teacher and data), 1 to 20.
    d : int
        Dimension, 2 to 200.
    rho : float
        Teacher and student width ratio, in [1e-3, 10].
    runs : int
        Initialisations K per instance, 2 to 256.
    steps : int
        Adam steps, 1 to 100000 (the total work is capped at 1e13 flops).
    lr : float
        Adam learning rate, in (0, 1].
    record_every : int or None
        Record the first instance's trajectory every this many steps.
    rng : int or numpy.random.Generator
        Seed or generator: each instance draws its data, then its initial weights, from it.

    Returns
    -------
    GdInstances
    """
    a = check_fraction(alpha, "alpha", 0.0, _ALPHA_MAX, open_lo=True, open_hi=False)
    count = check_positive_int(instances, "instances", maximum=_INSTANCES_MAX)
    n_d, r, k, n_steps, eta = _check_setup(d, rho, runs, steps, lr, np.array([a]), count)
    every = None if record_every is None else check_positive_int(record_every, "record_every")
    gen = as_rng(rng)
    out = [
        _one_instance(a, n_d, r, k, n_steps, eta, every if i == 0 else None, gen)
        for i in range(count)
    ]
    return GdInstances(
        alpha=a,
        rho=r,
        d=n_d,
        runs=k,
        steps=n_steps,
        lr=eta,
        results=tuple(o[0] for o in out),
        errors=np.array([o[0].error_single for o in out]),
        prefix=np.array([o[1] for o in out]),
        gamp=np.array([o[2] for o in out]),
        mmse=float(bo_mmse(a, r).mmse),
    )


def gd_sweep(
    alphas: Any,
    *,
    d: Any = 40,
    rho: Any = 0.5,
    runs: Any = 16,
    steps: Any = 1500,
    lr: Any = 0.01,
    rng: Any = 0,
) -> GdSweep:
    """One instance per α: K gradient-descent runs, GAMP-RIE and the Bayes-optimal MMSE.

    Parameters
    ----------
    alphas : array_like, shape (A,)
        Sample ratios in (0, 10], increasing, 1 to 20 of them.
    d, rho, runs, steps, lr, rng
        As in :func:`gd_instances`.

    Returns
    -------
    GdSweep
    """
    a = as_real_vector(alphas, "alphas", 0.0, _ALPHA_MAX)
    if a.size < 1 or a.size > _ALPHAS_MAX or np.any(a <= 0) or np.any(np.diff(a) <= 0):
        raise ValueError(
            f"alphas must hold 1 to {_ALPHAS_MAX} increasing values in (0, {_ALPHA_MAX}], got {a!r}"
        )
    n_d, r, k, n_steps, eta = _check_setup(d, rho, runs, steps, lr, a, 1)
    gen = as_rng(rng)
    out = [_one_instance(float(x), n_d, r, k, n_steps, eta, None, gen) for x in a]
    with warnings.catch_warnings():
        # a plotted curve: a quadrature mass off by ~1e-6 near α_PR is invisible
        warnings.simplefilter("ignore", ConvergenceWarning)
        top = float(a[-1]) * 1.05
        curve = bo_curve(r, n=200, alpha_max=top)  # it stops at α_PR, beyond which m = 0
    return GdSweep(
        alpha=a,
        rho=r,
        d=n_d,
        runs=k,
        steps=n_steps,
        lr=eta,
        errors=np.array([o[0].error_single for o in out]),
        prefix=np.array([o[1] for o in out]),
        train_mse=np.array([o[0].train_mse for o in out]),
        gamp=np.array([o[2] for o in out]),
        mmse=np.asarray(bo_mmse(a, r).mmse, dtype=float),
        curve_alpha=np.append(curve.alpha, top) if top > curve.alpha[-1] else curve.alpha,
        curve_mmse=np.append(curve.mmse, 0.0) if top > curve.alpha[-1] else curve.mmse,
        alpha_pr=float(perfect_recovery_threshold(r)),
    )


def sweep_view(sweep: Any, alpha: Any, runs: Any) -> SweepView:
    """Select the α of a sweep nearest ``alpha`` and average its first ``runs`` runs.

    Parameters
    ----------
    sweep : GdSweep
        From :func:`gd_sweep`.
    alpha : float
        A finite sample ratio; the nearest α of the sweep is taken.
    runs : int
        Runs averaged, 1 to ``sweep.runs``.

    Returns
    -------
    SweepView
    """
    check_instance(sweep, "sweep", GdSweep)
    a = check_finite_float(alpha, "alpha")
    k = check_positive_int(runs, "runs", maximum=sweep.runs)
    return SweepView(sweep=sweep, index=int(np.argmin(np.abs(sweep.alpha - a))), runs=k)


# --- plots ------------------------------------------------------------------------------------


def _two_panels(height: int, left: dict, right: dict, right_y: dict) -> go.Layout:
    return go.Layout(
        height=height,
        xaxis={"domain": [0.0, 0.45], **left},
        xaxis2={"domain": [0.57, 1.0], "anchor": "y2", **right},
        yaxis2={"anchor": "x2", **right_y},
    )


@tidied
def plot_training(instances: Any, height: int = 420) -> go.Figure:
    """Errors and training MSE along the training of the first instance.

    Parameters
    ----------
    instances : GdInstances
        From :func:`gd_instances` with ``record_every`` set.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: each run's error (grey), the averaged predictor's (blue), and GAMP-RIE's error on
        the same instance at the levels 2·m_GAMP and m_GAMP(1 + 1/K). Right: each run's
        training MSE on a log axis.
    """
    check_instance(instances, "instances", GdInstances)
    height = check_height(height)
    res = instances.results[0]
    if res.record_steps is None:
        raise ValueError("instances must carry a trajectory: call gd_instances with record_every")
    t, K, ref = res.record_steps, instances.runs, float(instances.gamp[0])
    traces = []
    for j in range(K):
        traces.append(
            _line(
                t,
                res.error_trajectory[:, j],
                "single runs",
                legendgroup="runs",
                showlegend=j == 0,
                line={"color": _GREY, "width": 1},
            )
        )
        traces.append(
            _line(
                t,
                np.maximum(res.train_trajectory[:, j], 1e-32),
                "training MSE",
                xaxis="x2",
                yaxis="y2",
                legendgroup="runs",
                showlegend=False,
                line={"color": _GREY, "width": 1},
            )
        )
    traces.append(
        _line(
            t,
            res.error_mean_trajectory,
            f"mean of {K} runs",
            line={"color": _COLORS[0], "width": 3},
        )
    )
    for level, name, dash in (
        (2 * ref, "2·m<sub>GAMP</sub>", "dot"),
        (ref * (1 + 1 / K), f"m<sub>GAMP</sub>(1 + 1/{K})", "dash"),
    ):
        traces.append(
            _line([t[0], t[-1]], [level] * 2, name, line={"color": "black", "dash": dash})
        )

    layout = _two_panels(
        height,
        {"title": {"text": "Adam step"}},
        {"title": {"text": "Adam step"}},
        {"type": "log", "title": {"text": "training MSE"}},
    )
    layout.update(
        title={
            "text": f"Training at d = {instances.d}, α = {instances.alpha:.3g}",
            "font": {"size": 14},
        },
        yaxis={"rangemode": "tozero", "title": {"text": "error (1/d)‖Â − A*‖²"}},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_averaging(instances: Any, height: int = 420) -> go.Figure:
    """Error of the mean of the first k runs against k, on each instance.

    Parameters
    ----------
    instances : GdInstances
        From :func:`gd_instances`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Markers m̄_k per instance, the dashed posterior-sample prediction m_GAMP(1 + 1/k) on the
        same instance, and the black dotted MMSE(1 + 1/k) of the d → ∞ theory.
    """
    check_instance(instances, "instances", GdInstances)
    height = check_height(height)
    k = np.arange(1, instances.runs + 1)
    traces = []
    for i, (pre, ref) in enumerate(zip(instances.prefix, instances.gamp, strict=True)):
        color = _COLORS[i % len(_COLORS)]
        traces.append(
            _line(
                k,
                pre,
                f"GD, instance {i + 1}",
                mode="lines+markers",
                line={"color": color, "width": 2},
                legendgroup=str(i),
            )
        )
        traces.append(
            _line(
                k,
                ref * (1 + 1 / k),
                f"m<sub>GAMP</sub>(1 + 1/k), instance {i + 1}",
                line={"color": color, "dash": "dash"},
                legendgroup=str(i),
            )
        )
    traces.append(
        _line(
            k,
            instances.mmse * (1 + 1 / k),
            "MMSE(1 + 1/k), d → ∞",
            line={"color": "black", "dash": "dot", "width": 3},
        )
    )
    layout = go.Layout(
        height=height,
        title={"text": "Averaging k runs", "font": {"size": 14}},
        xaxis={"title": {"text": "runs averaged k"}},
        yaxis={"rangemode": "tozero", "title": {"text": "error of the mean"}},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_sweep(view: Any, height: int = 440) -> go.Figure:
    """Single-run and k-run-averaged errors against α, and the averaging curve at one α.

    Parameters
    ----------
    view : SweepView
        From :func:`sweep_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: the Bayes-optimal MMSE and 2·MMSE (d → ∞), GAMP-RIE on each instance, the mean
        single-run error and the error of the mean of k runs, with the selected α circled.
        Right: at that α, m̄_j for j = 1..K with the first k highlighted, against
        m_GAMP(1 + 1/j).
    """
    check_instance(view, "view", SweepView)
    height = check_height(height)
    s, i, k = view.sweep, view.index, view.runs
    ca, cm = s.curve_alpha, s.curve_mmse
    single = s.errors.mean(axis=1)
    j = np.arange(1, s.runs + 1)
    traces = [
        _line(ca, cm, "MMSE (d → ∞)", line={"color": "black", "width": 3}),
        _line(ca, 2 * cm, "2·MMSE", line={"color": "black", "dash": "dot"}),
        _line(
            s.alpha,
            s.gamp,
            "GAMP-RIE, same instance",
            mode="markers",
            marker={"symbol": "diamond", "size": 9, "color": _COLORS[2]},
        ),
        _line(
            s.alpha,
            single,
            f"single run (mean over {s.runs})",
            mode="lines+markers",
            line={"color": _GREY},
            marker={"size": 8},
        ),
        _line(
            s.alpha,
            s.prefix[:, k - 1],
            f"mean of {k} runs",
            mode="lines+markers",
            line={"color": _COLORS[0], "width": 3},
            marker={"size": 8},
        ),
        _line(
            [s.alpha[i]],
            [s.prefix[i, k - 1]],
            "selected α",
            mode="markers",
            showlegend=False,
            marker={
                "size": 18,
                "color": "rgba(0,0,0,0)",
                "line": {"color": _COLORS[1], "width": 2},
            },
        ),
        _line(
            j,
            s.prefix[i],
            "m̄ over more runs",
            xaxis="x2",
            yaxis="y2",
            mode="markers",
            marker={"color": _GREY, "size": 6},
            showlegend=False,
        ),
        _line(
            j[:k],
            s.prefix[i, :k],
            "m̄",
            xaxis="x2",
            yaxis="y2",
            mode="lines+markers",
            line={"color": _COLORS[0], "width": 3},
            showlegend=False,
        ),
        _line(
            j,
            s.gamp[i] * (1 + 1 / j),
            "m<sub>GAMP</sub>(1 + 1/k)",
            xaxis="x2",
            yaxis="y2",
            line={"color": _COLORS[2], "dash": "dash"},
        ),
    ]
    top = float(max(2 * cm.max(), single.max(), s.prefix[i].max())) * 1.05
    layout = _two_panels(
        height,
        {"range": [0.0, float(ca[-1])], "title": {"text": "α = n/d²"}},
        {"range": [0.5, s.runs + 0.5], "title": {"text": "runs averaged"}},
        {"range": [0.0, float(s.prefix[i].max()) * 1.1], "title": {"text": "error of the mean"}},
    )
    layout.update(
        title={"text": f"GD against Bayes-optimal, d = {s.d}", "font": {"size": 14}},
        yaxis={"range": [0.0, top], "title": {"text": "error (A-units)"}},
        annotations=[
            {
                "text": f"α = {s.alpha[i]:.3g}",
                "xref": "x2 domain",
                "yref": "y2 domain",
                "x": 0.95,
                "y": 0.95,
                "showarrow": False,
                "xanchor": "right",
            }
        ],
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_gpu_scale(scale: Any, height: int = 400) -> go.Figure:
    """The two Nishimori ratios against d, one line per learning rate.

    Parameters
    ----------
    scale : GpuScale
        From :func:`load_gpu_scale`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: averaged error over m_GAMP(1 + 1/K). Right: mean single-run error over
        2·m_GAMP. A posterior sampler gives 1 on both (dashed line).
    """
    check_instance(scale, "scale", GpuScale)
    height = check_height(height)
    K = scale.runs
    traces = []
    for j, lr in enumerate(np.unique(scale.lr)[::-1]):
        at = scale.lr == lr
        color = _COLORS[j % len(_COLORS)]
        style = {"mode": "lines+markers", "line": {"color": color}, "legendgroup": f"lr{j}"}
        ratio = scale.averaged[at] / (scale.gamp[at] * (1 + 1 / K))
        traces.append(_line(scale.d[at], ratio, f"Adam lr {lr:g}", **style))
        single = scale.single[at] / (2 * scale.gamp[at])
        traces.append(
            _line(
                scale.d[at], single, f"lr {lr:g}", xaxis="x2", yaxis="y2", showlegend=False, **style
            )
        )
    d_span = [float(scale.d.min()), float(scale.d.max())]
    for axes in (("x", "y"), ("x2", "y2")):
        traces.append(
            _line(
                d_span,
                [1.0, 1.0],
                "posterior sample",
                xaxis=axes[0],
                yaxis=axes[1],
                showlegend=axes[0] == "x",
                line={"color": "black", "dash": "dash"},
            )
        )
    layout = _two_panels(
        height,
        {"title": {"text": "d"}},
        {"title": {"text": "d"}},
        {"title": {"text": "single / (2 m<sub>GAMP</sub>)"}},
    )
    layout.update(
        title={"text": f"Averaged and single GD at K = {K}, on a GPU", "font": {"size": 14}},
        yaxis={"title": {"text": f"averaged / (m<sub>GAMP</sub>(1 + 1/{K}))"}},
    )
    return go.Figure(data=traces, layout=layout)
