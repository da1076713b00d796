"""Figures for the section "Attention-indexed models: T tokens multiply the samples".

Page label ``ai-attention``.

Sources: E. Troiani, talk slides ("BO attention"); Boncoraglio, Troiani, Erba and Zdeborová,
arXiv:2506.01582 (the attention-indexed model, its state evolution, GD runs).

The model quantities come from :mod:`assocmem.quadratic` (``attention``, ``bayes``,
``attention_gd``, ``descent``). Small *views* assemble them for one figure each (pure functions
returning frozen results, the compute side of the section's explorations); the ``plot_*``
functions take those results and compute nothing.

Notation map (A-units: MMSE 1 at α = 0)
---------------------------------------
- T (tokens), β (softmax inverse temperature), ρ, α = n/d²  -> ``T``, ``beta``, ``rho``, ``alpha``
- h_ab − h_aT (the logit differences a softmax output fixes) -> ``true``, ``recovered``
- (T² + T − 2)/2 = T(T+1)/2 − 1 (identifiable logits)        -> ``factor``, ``rank``
- α_eff = α (T² + T − 2)/2 (the quadratic network's α)        -> ``alpha_eff``
- m (Bayes-optimal MMSE), m_k (run k), m̄_k (mean of k runs)  -> ``mmse``, ``single``, ``prefix``

Public functions
----------------
identifiable_count
    Rank of the map from a symmetric T × T logit matrix to its row differences.
logit_recovery, logit_recovery_at, aim_curves, gd_averaging
    The views (results ``LogitRecovery``, ``AimCurves``, ``GdAveraging``).
plot_logit_recovery
    Softmax outputs against the logit differences, and the differences read back from them.
plot_aim_collapse
    MMSE(α) per T, and the same curves against α_eff: one curve.
plot_gd_averaging
    Errors of single and averaged GD runs against the Nishimori prediction m(1 + 1/k).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    as_real_vector,
    check_fraction,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.backend import to_numpy
from assocmem.quadratic.attention import AttentionData, logit_differences, sample_attention
from assocmem.quadratic.bayes import BayesOptimal, bo_curve
from assocmem.quadratic.descent import DescentResult, prefix_mean_errors
from assocmem.quadratic.thresholds import aim_sample_factor, perfect_recovery_threshold

from .._checks import check_height
from .._layout import tidied
from .._panels import _axis, _panels
from ._common import _COLORS, _line

__all__ = [
    "AimCurves",
    "GdAveraging",
    "LogitRecovery",
    "aim_curves",
    "gd_averaging",
    "identifiable_count",
    "logit_recovery",
    "logit_recovery_at",
    "plot_aim_collapse",
    "plot_gd_averaging",
    "plot_logit_recovery",
]

_T_MAX = 64  # the token range of assocmem.quadratic.attention
_RHO_MIN, _RHO_MAX = 1e-3, 100.0  # bayes needs ρ >= 1e-3, attention ρ <= 100
_POINTS_MAX = 5_000
_CURVES_MAX = 20
_SHOWN_MAX = 5_000  # logit pairs drawn by plot_logit_recovery


@dataclass(frozen=True)
class LogitRecovery:
    """Logit differences of one data set and what its softmax outputs give back.

    Attributes
    ----------
    T : int
    beta : float
    true : ndarray, shape (m,)
        h_ab − h_aT (b < T) of the first sequences, at most ``points`` of them.
    output : ndarray, shape (m,)
        The softmax outputs y_ab at the same entries.
    recovered : ndarray, shape (m,)
        β⁻¹ log(y_ab/y_aT) (:func:`assocmem.quadratic.attention.logit_differences`).
    max_error : float
        max |recovered − true| over every entry of every sequence.
    n_logits, rank : int
        T(T+1)/2 logits per sequence and the number of combinations the outputs fix.
    """

    T: int
    beta: float
    true: np.ndarray
    output: np.ndarray
    recovered: np.ndarray
    max_error: float
    n_logits: int
    rank: int


@dataclass(frozen=True)
class AimCurves:
    """Bayes-optimal MMSE of the softmax attention-indexed model for several T at one ρ.

    Attributes
    ----------
    rho : float
    T : ndarray of int, shape (k,)
    factor : ndarray of int, shape (k,)
        (T² + T − 2)/2.
    alpha_eff : ndarray, shape (n,)
        The quadratic network's α (increasing, ending at its α_PR).
    mmse : ndarray, shape (n,)
        m(α_eff), the one curve of every T.
    alpha : ndarray, shape (k, n)
        α = α_eff/factor, the sample ratio of each T.
    alpha_pr : ndarray, shape (k,)
        2(ρ − ρ²/2)/(T² + T − 2) (1/(T² + T − 2) for ρ >= 1).
    """

    rho: float
    T: np.ndarray
    factor: np.ndarray
    alpha_eff: np.ndarray
    mmse: np.ndarray
    alpha: np.ndarray
    alpha_pr: np.ndarray


@dataclass(frozen=True)
class GdAveraging:
    """Single and averaged gradient-descent runs against the Nishimori prediction.

    Attributes
    ----------
    k : ndarray of int, shape (K,)
        1, ..., K.
    single : ndarray, shape (K,)
        m_k = ‖Â_k − A*‖²/d of each run.
    prefix : ndarray, shape (K,)
        Error of the average of the first k runs.
    mmse : float
        The Bayes-optimal MMSE m at the data's (α, ρ, T).
    nishimori : ndarray, shape (K,)
        m (1 + 1/k), the expected error of the mean of k posterior samples.
    steps, trajectory, mean_trajectory : ndarray or None
        Recorded steps, m_k along them (R, K) and the error of the mean of all K runs (R,),
        when the runs recorded a trajectory.
    """

    k: np.ndarray
    single: np.ndarray
    prefix: np.ndarray
    mmse: float
    nishimori: np.ndarray
    steps: np.ndarray | None
    trajectory: np.ndarray | None
    mean_trajectory: np.ndarray | None


def identifiable_count(T: Any) -> int:
    """Number of linear combinations of a symmetric logit matrix that its row differences fix.

    Parameters
    ----------
    T : int
        Tokens, 2 to 64.

    Returns
    -------
    int
        The rank of H ↦ (h_ab − h_aT)_{a ≤ T, b < T} on symmetric T × T matrices, computed
        numerically: T(T+1)/2 − 1 (only c·11ᵀ is lost; slides, "BO attention").

    Examples
    --------
    >>> identifiable_count(2), identifiable_count(3)
    (2, 5)
    """
    t = check_positive_int(T, "T", minimum=2, maximum=_T_MAX)
    rows, cols = np.triu_indices(t)
    basis = np.zeros((rows.size, t, t))
    basis[np.arange(rows.size), rows, cols] = 1.0
    basis[np.arange(rows.size), cols, rows] = 1.0
    diffs = (basis - basis[:, :, -1:])[:, :, :-1]
    return int(np.linalg.matrix_rank(diffs.reshape(rows.size, -1)))


def logit_recovery(data: Any, points: Any = 400) -> LogitRecovery:
    """Read the logit differences back from softmax outputs and compare with the truth.

    Parameters
    ----------
    data : AttentionData
        Softmax data from :func:`assocmem.quadratic.attention.sample_attention`.
    points : int
        At most this many (sequence, a, b) entries are kept for plotting, 1 to 5000; the
        maximal error runs over all of them.

    Returns
    -------
    LogitRecovery

    Examples
    --------
    >>> from assocmem.quadratic.attention import sample_attention
    >>> r = logit_recovery(sample_attention(10, 3, 0.5, 0.2, rng=0, beta=5.0))
    >>> bool(r.max_error < 1e-10), r.rank
    (True, 5)
    """
    data = check_instance(data, "data", AttentionData)
    if data.output != "softmax":
        raise ValueError(f"data must hold softmax outputs, got output={data.output!r}")
    keep = check_positive_int(points, "points", maximum=_SHOWN_MAX)
    h, y = to_numpy(data.h), to_numpy(data.y)
    true = (h - h[..., -1:])[..., :-1]
    back = to_numpy(logit_differences(data.y, data.beta))[..., :-1]
    return LogitRecovery(
        T=data.T,
        beta=data.beta,
        true=true.ravel()[:keep],
        output=y[..., :-1].ravel()[:keep],
        recovered=back.ravel()[:keep],
        max_error=float(np.max(np.abs(back - true))),
        n_logits=data.T * (data.T + 1) // 2,
        rank=identifiable_count(data.T),
    )


def logit_recovery_at(beta: Any, T: Any, d: Any = 20, rng: Any = 0) -> LogitRecovery:
    """:func:`logit_recovery` of a fresh draw at ρ = 0.5, α = 0.2 (the β exploration).

    Parameters
    ----------
    beta : float
        Inverse temperature in (0, 10] (larger β underflows small outputs).
    T : int
        Tokens, 2 to 8.
    d : int
        Dimension, 4 to 100.
    rng : int or numpy.random.Generator
        Seed of the draw; one seed gives the same tokens and teacher at every β.

    Returns
    -------
    LogitRecovery

    Examples
    --------
    >>> logit_recovery_at(0.3, 4).rank
    9
    """
    b = check_fraction(beta, "beta", 0.0, 10.0, open_lo=True, open_hi=False)
    t = check_positive_int(T, "T", minimum=2, maximum=8)
    dd = check_positive_int(d, "d", minimum=4, maximum=100)
    return logit_recovery(sample_attention(dd, t, 0.5, 0.2, rng, beta=b))


def aim_curves(rho: Any, T: Any = (2, 3, 4, 5, 6, 7, 8), points: Any = 200) -> AimCurves:
    """Bayes-optimal MMSE curves of the softmax AIM for each T, from one quadratic-network curve.

    Parameters
    ----------
    rho : float
        Rank ratio ρ, in [1e-3, 100].
    T : int or sequence of int
        Token counts, each 2 to 64, at most 20 of them.
    points : int
        Points of the curve, 2 to 5000.

    Returns
    -------
    AimCurves

    Notes
    -----
    Slides, "BO attention": 1 − α(T² + T − 2) = (4π²/3q̂) ∫ μ³, the quadratic network's fixed
    point at α_eff = α(T² + T − 2)/2 (:func:`assocmem.quadratic.bayes.aim_mmse`). One inverse
    parametrisation :func:`~assocmem.quadratic.bayes.bo_curve` (cached per (ρ, points)) serves
    every T: α = α_eff/factor.

    Examples
    --------
    >>> c = aim_curves(0.5, T=[2, 3], points=20)
    >>> c.factor.tolist(), round(float(c.alpha_pr[0]), 4)
    ([2, 5], 0.1875)
    """
    r = check_fraction(rho, "rho", _RHO_MIN, _RHO_MAX, open_lo=False, open_hi=False)
    ts = _check_tokens(T)
    n = check_positive_int(points, "points", minimum=2, maximum=_POINTS_MAX)
    alpha_eff, mmse = _curve(r, n)
    factor = np.array([aim_sample_factor(t) for t in ts])
    return AimCurves(
        rho=r,
        T=np.array(ts),
        factor=factor,
        alpha_eff=alpha_eff.copy(),
        mmse=mmse.copy(),
        alpha=alpha_eff[None, :] / factor[:, None],
        alpha_pr=float(perfect_recovery_threshold(r)) / factor,
    )


def gd_averaging(result: Any, data: Any, bo: Any) -> GdAveraging:
    """Errors of single runs and of running averages, with the Nishimori prediction.

    Parameters
    ----------
    result : DescentResult
        From :func:`assocmem.quadratic.attention_gd.gd_attention` (or ``gd_quadnet``).
    data : AttentionData
        The data it was trained on (for the target A*).
    bo : BayesOptimal
        The Bayes-optimal point at the data's (α, ρ, T), a scalar ``mmse``
        (:func:`assocmem.quadratic.bayes.aim_mmse`).

    Returns
    -------
    GdAveraging

    Examples
    --------
    >>> from assocmem.quadratic.attention import sample_attention
    >>> from assocmem.quadratic.attention_gd import gd_attention
    >>> from assocmem.quadratic.bayes import aim_mmse
    >>> data = sample_attention(8, 2, 0.5, 0.1, rng=0)
    >>> res = gd_attention(data, 0.5, runs=2, steps=20, rng=1)
    >>> gd_averaging(res, data, aim_mmse(0.1, 0.5)).k.tolist()
    [1, 2]
    """
    result = check_instance(result, "result", DescentResult)
    data = check_instance(data, "data", AttentionData)
    bo = check_instance(bo, "bo", BayesOptimal)
    single = np.asarray(to_numpy(result.error_single), dtype=float)
    if np.ndim(bo.mmse) != 0:
        raise ValueError("bo must be the Bayes-optimal point of one α (a scalar mmse)")
    if to_numpy(result.A_mean).shape != (data.d, data.d):
        raise ValueError(
            f"result must come from data of dimension d = {data.d}, got estimates of shape "
            f"{to_numpy(result.A_mean).shape}"
        )
    k = np.arange(1, single.size + 1)
    m = float(bo.mmse)
    traj = result.error_trajectory
    return GdAveraging(
        k=k,
        single=single,
        prefix=np.asarray(to_numpy(prefix_mean_errors(result.A_runs, data.A)), dtype=float),
        mmse=m,
        nishimori=m * (1.0 + 1.0 / k),
        steps=None if traj is None else np.asarray(result.record_steps),
        trajectory=None if traj is None else np.asarray(to_numpy(traj), dtype=float),
        mean_trajectory=None
        if traj is None
        else np.asarray(to_numpy(result.error_mean_trajectory), dtype=float),
    )


@tidied
def plot_logit_recovery(recovery: Any, height: int = 400) -> go.Figure:
    """Softmax outputs against the logit differences, and the differences read back.

    Parameters
    ----------
    recovery : LogitRecovery
        From :func:`logit_recovery` or :func:`logit_recovery_at`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: y_ab against h_ab − h_aT (the cloud steepens with β). Right: β⁻¹ log(y_ab/y_aT)
        against h_ab − h_aT on the diagonal, whatever β.
    """
    check_instance(recovery, "recovery", LogitRecovery)
    height = check_height(height)
    r = recovery
    layout, refs = _panels(["softmax output", "read back"])
    (x1, y1, _), (x2, y2, _) = refs
    lim = float(np.max(np.abs(r.true))) * 1.05 if r.true.size else 1.0
    dots = {"size": 4, "color": _COLORS[0], "opacity": 0.6}
    traces = [
        _dots(r.true, r.output, "y<sub>ab</sub>", x1, y1, dots),
        _dots(
            r.true,
            r.recovered,
            "β⁻¹ log(y<sub>ab</sub>/y<sub>aT</sub>)",
            x2,
            y2,
            {**dots, "color": _COLORS[1]},
        ),
        _line(
            [-lim, lim],
            [-lim, lim],
            "diagonal",
            xaxis=x2,
            yaxis=y2,
            line={"color": "black", "dash": "dot"},
        ),
    ]
    layout[_axis(x1)].update(title={"text": "h<sub>ab</sub> − h<sub>aT</sub>"}, range=[-lim, lim])
    layout[_axis(x2)].update(title={"text": "h<sub>ab</sub> − h<sub>aT</sub>"}, range=[-lim, lim])
    layout[_axis(y1)].update(title={"text": "y<sub>ab</sub>"}, range=[0.0, 1.0])
    layout[_axis(y2)].update(title={"text": "recovered"}, range=[-lim, lim])
    title = (
        f"T = {r.T}, β = {r.beta:.3g}: max error {r.max_error:.1e}; "
        f"{r.rank} of {r.n_logits} logits identifiable"
    )
    return go.Figure(
        data=traces,
        layout=go.Layout(height=height, title={"text": title, "font": {"size": 14}}, **layout),
    )


@tidied
def plot_aim_collapse(curves: Any, height: int = 420) -> go.Figure:
    """MMSE(α) per T, and the same curves against α_eff = α(T² + T − 2)/2.

    Parameters
    ----------
    curves : AimCurves
        From :func:`aim_curves`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: one line per T against α (log axis, decade ticks), with a tick at α_PR. Right:
        the same lines against α_eff, which fall on the quadratic network's curve (black,
        drawn under them).
    """
    check_instance(curves, "curves", AimCurves)
    height = check_height(height)
    c = curves
    layout, refs = _panels(["against α", "against α(T² + T − 2)/2"])
    (x1, y1, _), (x2, y2, _) = refs
    traces = [
        _line(
            c.alpha_eff,
            c.mmse,
            "quadratic network at α<sub>eff</sub>",
            xaxis=x2,
            yaxis=y2,
            line={"color": "black", "width": 6},
            opacity=0.25,
        )
    ]
    for i, t in enumerate(c.T):
        color = _COLORS[i % len(_COLORS)]
        name = f"T = {int(t)}"
        traces += [
            _line(
                c.alpha[i],
                c.mmse,
                name,
                xaxis=x1,
                yaxis=y1,
                legendgroup=name,
                line={"color": color, "width": 2.5},
            ),
            _line(
                c.alpha[i] * c.factor[i],
                c.mmse,
                name,
                xaxis=x2,
                yaxis=y2,
                legendgroup=name,
                showlegend=False,
                line={"color": color, "width": 2, "dash": "dash"},
            ),
        ]
        layout["shapes"].append(
            {
                "type": "line",
                "xref": x1,
                "yref": y1,
                "x0": c.alpha_pr[i],
                "x1": c.alpha_pr[i],
                "y0": 0.0,
                "y1": 0.08,
                "line": {"color": color, "width": 3},
            }
        )
    # log α, decade ticks: the curves for large T sit at α ~ 1/T², squeezed at the left edge of a
    # linear axis; on a log axis each T is the same curve shifted by log of its sample factor
    lo = float(np.min(c.alpha_pr)) / 50.0
    hi = float(np.max(c.alpha_pr)) * 1.3
    layout[_axis(x1)].update(
        title={"text": "α = n/d²"}, type="log", dtick=1, range=[np.log10(lo), np.log10(hi)]
    )
    layout[_axis(x2)].update(title={"text": "α<sub>eff</sub>"}, range=[0.0, float(c.alpha_eff[-1])])
    for y in (y1, y2):
        layout[_axis(y)].update(range=[0.0, 1.02])
    layout[_axis(y1)]["title"] = {"text": "MMSE (A-units)"}
    title = "Bayes-optimal MMSE per token count T (ticks: α<sub>PR</sub>)"
    return go.Figure(
        data=traces,
        layout=go.Layout(height=height, title={"text": title, "font": {"size": 14}}, **layout),
    )


@tidied
def plot_gd_averaging(averaging: Any, height: int = 420) -> go.Figure:
    """Errors of single runs and running averages against m(1 + 1/k); the training paths.

    Parameters
    ----------
    averaging : GdAveraging
        From :func:`gd_averaging`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: single runs at k = 1, the error of the mean of the first k runs, m(1 + 1/k),
        2m (dash-dot) and m (dotted), as named lines. Right (when recorded): m_k and the error
        of the mean along training.
    """
    check_instance(averaging, "averaging", GdAveraging)
    height = check_height(height)
    g = averaging
    with_path = g.trajectory is not None
    layout, refs = _panels(["error vs runs averaged", "along training"] if with_path else [""])
    x1, y1, _ = refs[0]
    traces = [
        _dots(
            np.ones(g.single.size),
            g.single,
            "single runs",
            x1,
            y1,
            {"size": 9, "color": _COLORS[0], "symbol": "cross"},
        ),
        _line(
            g.k,
            g.prefix,
            "mean of the first k runs",
            xaxis=x1,
            yaxis=y1,
            mode="lines+markers",
            line={"color": _COLORS[1], "width": 3},
        ),
        _line(
            g.k,
            g.nishimori,
            "m(1 + 1/k) (posterior samples)",
            xaxis=x1,
            yaxis=y1,
            line={"color": "black", "dash": "dash"},
        ),
    ]
    kspan = [float(g.k[0]) - 0.4, float(g.k[-1]) + 0.4]
    traces += _levels(g.mmse, kspan, x1, y1, legend=True)
    top = max(float(np.max(g.single)), 2 * g.mmse) * 1.15
    if with_path:
        x2, y2, _ = refs[1]
        traces += _paths(g, x2, y2)
        steps = [float(g.steps[0]), float(g.steps[-1])]
        traces += _levels(g.mmse, steps, x2, y2, legend=False)
        layout[_axis(x2)].update(title={"text": "Adam step"}, range=steps)
        layout[_axis(y2)].update(range=[0.0, top])
    layout[_axis(x1)].update(title={"text": "runs averaged k"}, dtick=1, range=kspan)
    layout[_axis(y1)].update(title={"text": "‖Â − A*‖²/d"}, range=[0.0, top])
    title = "Averaging trained networks: error against the MMSE"
    return go.Figure(
        data=traces,
        layout=go.Layout(height=height, title={"text": title, "font": {"size": 14}}, **layout),
    )


@functools.lru_cache(maxsize=32)
def _curve(rho: float, points: int) -> tuple[np.ndarray, np.ndarray]:
    """The quadratic network's Bayes-optimal curve (α, m), cached (pure and read-only)."""
    c = bo_curve(rho, n=points)
    return np.asarray(c.alpha), np.asarray(c.mmse)


def _check_tokens(T: Any) -> list[int]:
    if isinstance(T, (int, np.integer)) and not isinstance(T, bool):
        return [check_positive_int(T, "T", minimum=2, maximum=_T_MAX)]
    values = as_real_vector(T, "T", 2, _T_MAX)
    check_size(values.size, "T", "token counts", _CURVES_MAX, "pass fewer T")
    if np.any(values != np.round(values)):
        raise ValueError(f"T must hold integers in [2, {_T_MAX}], got {T!r}")
    return [int(v) for v in values]


def _dots(x: Any, y: Any, name: str, xaxis: str, yaxis: str, marker: dict) -> dict:
    return {
        "type": "scatter",
        "x": np.round(np.asarray(x, dtype=float), 4),
        "y": np.round(np.asarray(y, dtype=float), 4),
        "name": name,
        "mode": "markers",
        "xaxis": xaxis,
        "yaxis": yaxis,
        "marker": marker,
    }


def _levels(mmse: float, span: list[float], x: str, y: str, legend: bool) -> list[dict]:
    """The MMSE m (dotted) and 2m (dash-dot) as named horizontal lines across ``span``."""
    return [
        _line(
            span,
            [level, level],
            name,
            xaxis=x,
            yaxis=y,
            legendgroup=group,
            showlegend=legend,
            line={"color": "black", "dash": dash, "width": 1.5},
            hoverinfo="skip",
        )
        for level, name, group, dash in (
            (mmse, f"MMSE m = {mmse:.3f}", "mmse", "dot"),
            (2 * mmse, "2m", "2m", "dashdot"),
        )
    ]


def _paths(g: GdAveraging, x: str, y: str) -> list[dict]:
    """m_k and the error of the mean along the recorded steps."""
    out = [
        _line(
            g.steps,
            g.trajectory[:, j],
            "single runs along training",
            xaxis=x,
            yaxis=y,
            legendgroup="path",
            showlegend=j == 0,
            line={"color": _COLORS[0], "width": 1.5},
        )
        for j in range(g.trajectory.shape[1])
    ]
    out.append(
        _line(
            g.steps,
            g.mean_trajectory,
            f"mean of {g.single.size} runs",
            xaxis=x,
            yaxis=y,
            line={"color": _COLORS[1], "width": 3},
        )
    )
    return out
