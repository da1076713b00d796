"""Figures for the chapter section "Training beats Hebbian" (factual recall, paper App. A).

Every function takes results from :mod:`assocmem.linear_memory` (or plain arrays of the
learning-rate schedule) and returns a plotly figure; none computes model quantities. The static
book figure, the live widget and the tests call the same functions. Two-panel figures are laid
out with axis domains (no ``make_subplots``: explorations build dozens of figures).

Public functions
----------------
plot_schedule
    The learning rate η_t of warm-up then cosine decay for several step budgets (App. A).
plot_training_vs_hebbian
    Accuracy against α, trained and Hebbian (``common.plot_accuracy_curves``) with
    reference values from the chapter note drawn as open markers (Fig. 2, κ = 1).
plot_threshold_scan
    First violation and last clean load against d, with the corrected finite-p estimate
    α_c(p) (OURS, section fr-replica), the note's superseded step estimate, the asymptotic 1/2
    and optional reference intervals (finite-size read-out, App. A.2).
plot_learning_curve
    Accuracy and cross-entropy against the Adam step of one run, with the Hebbian accuracy on
    the same instance (the section's exploration).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    as_real_array,
    check_finite_float,
    check_instance,
    check_positive_int,
)
from assocmem.linear_memory.sweep import AccuracySweep, LearningCurve, ThresholdScan

from .._checks import (
    check_height,
    check_mapping,
    check_marks,
    check_results,
    check_strings,
    check_title,
    check_values,
)
from .._layout import tidied
from .common import SWEEP_COLORS, plot_accuracy_curves

__all__ = [
    "plot_learning_curve",
    "plot_schedule",
    "plot_threshold_scan",
    "plot_training_vs_hebbian",
]

_TRAINED, _HEBB, _GREY = "#1f77b4", "#d62728", "#7f7f7f"
# Figures shown with a slider keep their legend above the panels (the slider sits below).
_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.08, "yanchor": "bottom"}


@tidied
def plot_schedule(schedules: Mapping[int, Sequence[float]], height: int = 320) -> go.Figure:
    """Learning rate against the Adam step for several budgets (App. A: warm-up, cosine decay).

    Parameters
    ----------
    schedules : mapping of int to sequence of float
        Budget T → learning rates η_0, ..., η_{T-1}, e.g. from
        :func:`assocmem.linear_memory.learning_rate`.
    height : int, optional
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per budget, step on a log axis (the warm-up and the decay both visible).
    """
    schedules = check_mapping(schedules, "schedules")
    if not schedules:
        raise ValueError("schedules must hold at least one budget")
    for T, eta in schedules.items():
        check_positive_int(T, "schedules key (a budget T)")
        schedules[T] = check_values(eta, f"schedules[{T}]")
    height = check_height(height)
    traces = [
        go.Scatter(
            x=np.arange(1, len(eta) + 1), y=np.asarray(eta, dtype=float), mode="lines",
            name=f"T = {T} steps", line={"color": SWEEP_COLORS[i % len(SWEEP_COLORS)]},
            hovertemplate="step %{x}<br>η = %{y:.2e}<extra></extra>",
        )
        for i, (T, eta) in enumerate(schedules.items())
    ]
    fig = go.Figure(traces)
    fig.update_layout(
        height=height, xaxis={"type": "log", "title": {"text": "Adam step t + 1"}},
        yaxis={"title": {"text": "learning rate η<sub>t</sub>"}, "exponentformat": "power"},
        legend=_TOP_LEGEND, margin={"t": 50},
    )
    return fig


@tidied
def plot_training_vs_hebbian(
    sweep: Any,
    thresholds: Mapping[str, float] | None = None,
    reference: Mapping[str, Mapping[float, float]] | None = None,
    title: str | None = None,
) -> go.Figure:
    """Accuracy against α, trained and Hebbian, with reference values as open markers (Fig. 2).

    Parameters
    ----------
    sweep : AccuracySweep
        From :func:`assocmem.linear_memory.accuracy_sweep` (κ = 1 for the Hebbian line).
    thresholds : mapping of str to float, optional
        Vertical dashed lines, e.g. ``{"α_c = 1/2 (paper)": 0.5}``.
    reference : mapping of str to mapping of float to float, optional
        Label → {α: accuracy}, e.g. the chapter note's §3 table; the first mapping is drawn in
        the trained colour, the second in the Hebbian colour, further ones in grey.
    title : str, optional
        Figure title.

    Returns
    -------
    plotly.graph_objects.Figure
        :func:`~assocmem.explore.factual_recall.common.plot_accuracy_curves` plus one marker
        trace per reference mapping.
    """
    check_instance(sweep, "sweep", AccuracySweep)
    thresholds = check_marks(thresholds, "thresholds")
    title = check_title(title, "title")
    reference = check_mapping(reference, "reference", optional=True)
    for label, values in (reference or {}).items():
        values = check_mapping(values, f"reference[{label!r}]")
        for a, acc in values.items():
            check_finite_float(a, f"reference[{label!r}] key")
            check_finite_float(acc, f"reference[{label!r}][{a!r}]")
    fig = plot_accuracy_curves(sweep, thresholds=thresholds, title=title)
    colors = (SWEEP_COLORS[0], _HEBB)
    for i, (label, values) in enumerate((reference or {}).items()):
        alphas = np.array(sorted(values), dtype=float)
        fig.add_trace(go.Scatter(
            x=alphas, y=[values[a] for a in sorted(values)], mode="markers", name=label,
            marker={"symbol": "circle-open" if i == 0 else "diamond-open", "size": 10,
                    "color": colors[i] if i < len(colors) else _GREY, "line": {"width": 2}},
            hovertemplate="α = %{x:.2f}<br>reference %{y:.3f}<extra></extra>",
        ))
    return fig


@tidied
def plot_threshold_scan(
    scans: Any,
    labels: Sequence[str] | None = None,
    reference: Mapping[str, Sequence[tuple[float, float, float]]] | None = None,
    height: int = 400,
) -> go.Figure:
    """Empirical thresholds against d: the interval (last clean, first violation] per d.

    Parameters
    ----------
    scans : ThresholdScan or sequence of ThresholdScan
        From :func:`assocmem.linear_memory.threshold_scan` (e.g. two step budgets).
    labels : sequence of str, optional
        Legend entry per scan; default "CE + Adam, T steps, lr η".
    reference : mapping of str to sequence of (d, lo, hi), optional
        Further thresholds drawn as grey intervals, e.g. the exact LP thresholds of the note.
    height : int, optional
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Per scan, a marker at the first violation with a bar down to the last clean load; the
        corrected finite-p estimate α_c(p) at the first violation's p with its Monte-Carlo
        standard error (open diamonds, drawn once) and the note's step estimate (faint dotted
        line); a dashed line at the asymptotic α_c = 1/2.
    """
    items = check_results(scans, "scans", ThresholdScan)
    labels = check_strings(labels, "labels", len(items))
    reference = check_mapping(reference, "reference", optional=True)
    for name, rows in (reference or {}).items():
        arr = as_real_array(rows, f"reference[{name!r}]", ndim=2)
        if arr.shape[1] != 3:
            raise ValueError(f"reference[{name!r}] must hold (d, lo, hi) rows, got {arr.shape}")
    height = check_height(height)
    if labels is None:
        labels = [f"CE + Adam, {s.budget} steps, lr {s.lr:g}" for s in items]
    fig = go.Figure()
    for k, (s, label) in enumerate(zip(items, labels, strict=True)):
        shift = 0.4 * (k - (len(items) - 1) / 2)  # side by side at each d
        first = np.asarray(s.first_violation, dtype=float)
        drop = first - np.asarray(s.last_clean, dtype=float)
        fig.add_trace(go.Scatter(
            x=np.asarray(s.d, dtype=float) + shift, y=first, mode="markers", name=label,
            marker={"color": SWEEP_COLORS[k % len(SWEEP_COLORS)], "size": 10},
            error_y={"type": "data", "symmetric": False, "array": np.zeros_like(first),
                     "arrayminus": np.nan_to_num(drop), "thickness": 2},
            customdata=np.column_stack([s.last_clean, s.p_first]),
            hovertemplate=("d = %{x:.0f}: first violation α = %{y:.3f} (p = %{customdata[1]})"
                           "<br>last clean α = %{customdata[0]:.3f}<extra></extra>"),
        ))
    s0 = items[0]
    fig.add_trace(go.Scatter(
        x=s0.d, y=s0.finite_p, mode="markers+lines",
        name="finite-p estimate α<sub>c</sub>(p) (ours, corrected; replica section)",
        marker={"symbol": "diamond-open", "size": 10, "color": _GREY},
        line={"color": _GREY, "dash": "dot"},
        error_y={"type": "data", "array": s0.finite_p_stderr, "thickness": 1},
        hovertemplate="d = %{x}: α<sub>c</sub>(p) = %{y:.3f}<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=s0.d, y=s0.finite_p_step, mode="lines",
        name="step-function estimate (superseded)",
        line={"color": _GREY, "dash": "dot", "width": 1}, opacity=0.5,
        hovertemplate="d = %{x}: step estimate %{y:.3f}<extra></extra>",
    ))
    for name, rows in (reference or {}).items():
        d_ref, lo, hi = (np.array(v, dtype=float) for v in zip(*rows, strict=True))
        mid = (lo + hi) / 2
        fig.add_trace(go.Scatter(
            x=d_ref, y=mid, mode="markers", name=name,
            marker={"symbol": "x", "size": 10, "color": "black"},
            error_y={"type": "data", "array": hi - mid, "arrayminus": mid - lo, "thickness": 2},
            hovertemplate="d = %{x}: α ≈ %{y:.3f}<extra></extra>",
        ))
    fig.add_hline(y=0.5, line={"dash": "dash", "color": "black"})
    fig.add_annotation(x=1.0, xref="paper", y=0.5, text="α<sub>c</sub> = 1/2 (paper, d → ∞)",
                       showarrow=False, xanchor="right", yanchor="bottom", font={"size": 11})
    d_all = sorted({float(d) for s in items for d in s.d})
    fig.update_layout(
        height=height, xaxis={"title": {"text": "dimension d"}, "tickvals": d_all},
        yaxis={"title": {"text": "load α = p ln p / d²"}, "range": [0.4, 1.2]},
        legend=_TOP_LEGEND, margin={"t": 70},
    )
    return fig


def _panel_axes(layout: dict[str, Any]) -> None:
    """Two side-by-side panels: (x, y) left, (x2, y2) right."""
    layout["xaxis"] = {"domain": [0.0, 0.44], "anchor": "y"}
    layout["yaxis"] = {"anchor": "x"}
    layout["xaxis2"] = {"domain": [0.56, 1.0], "anchor": "y2"}
    layout["yaxis2"] = {"anchor": "x2"}


@tidied
def plot_learning_curve(curve: Any, height: int = 380) -> go.Figure:
    """Accuracy and cross-entropy against the Adam step of one run (App. A protocol).

    Parameters
    ----------
    curve : LearningCurve
        From :func:`assocmem.linear_memory.learning_curve`.
    height : int, optional
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: training accuracy after each step (log step axis over the whole budget), the
        Hebbian accuracy on the same instance (dashed) and the 99.9 % early stop (dotted).
        Right: the cross-entropy with the loss ln p of W = 0 (dotted). The title gives d, α, p
        and where the run stopped. The initial point (step 0) is left out of the log axis.
    """
    check_instance(curve, "curve", LearningCurve)
    height = check_height(height)
    t = np.arange(1, curve.steps + 1)
    acc, loss = np.asarray(curve.accuracy)[1:], np.asarray(curve.loss)[1:]
    x_range = [0.0, math.log10(curve.budget)]
    traces: list[go.Scatter] = [
        go.Scatter(x=t, y=acc, mode="lines", name="trained (CE + Adam)", xaxis="x", yaxis="y",
                   legendgroup="trained (CE + Adam)",
                   line={"color": _TRAINED}, hovertemplate="step %{x}: %{y:.3f}<extra></extra>"),
        go.Scatter(x=t, y=loss, mode="lines", name="cross-entropy", xaxis="x2", yaxis="y2",
                   line={"color": _TRAINED}, showlegend=False,
                   legendgroup="trained (CE + Adam)",
                   hovertemplate="step %{x}: loss %{y:.3f}<extra></extra>"),
        go.Scatter(x=[1, curve.budget], y=[curve.uniform_loss] * 2, mode="lines",
                   name="ln p (W = 0)", xaxis="x2", yaxis="y2",
                   line={"color": _GREY, "dash": "dot"}, hoverinfo="skip"),
    ]
    if curve.hebbian is not None:
        traces.append(go.Scatter(
            x=[1, curve.budget], y=[curve.hebbian] * 2, mode="lines", name="Hebbian, same facts",
            xaxis="x", yaxis="y", line={"color": _HEBB, "dash": "dash"},
            hovertemplate="Hebbian %{y:.3f}<extra></extra>",
        ))
    layout: dict[str, Any] = {}
    _panel_axes(layout)
    layout["xaxis"].update(type="log", range=x_range, title={"text": "Adam step"})
    layout["xaxis2"].update(type="log", range=x_range, title={"text": "Adam step"})
    layout["yaxis"].update(range=[0, 1.05], title={"text": "accuracy"})
    layout["yaxis2"].update(rangemode="tozero", title={"text": "cross-entropy"})
    stop = "stopped at 99.9 %" if curve.converged else "budget used up"
    final = float(curve.accuracy[-1])
    layout.update(
        height=height, legend=_TOP_LEGEND, margin={"t": 90},
        title={"text": (f"d = {curve.d}, α = {curve.alpha:.3g} (p = {curve.p}, effective α "
                        f"{curve.alpha_eff:.3f}): accuracy "
                        f"{final:.3f} after {curve.steps}/{curve.budget} steps, {stop}"),
               "font": {"size": 14}},
        shapes=[{"type": "line", "xref": "x", "yref": "y", "x0": 1, "x1": curve.budget,
                 "y0": 0.999, "y1": 0.999, "line": {"color": _GREY, "dash": "dot", "width": 1}}],
    )
    return go.Figure(data=traces, layout=layout)
