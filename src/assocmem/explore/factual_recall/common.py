"""Figures shared by the sections of the factual-recall chapter.

Every function takes result objects from :mod:`assocmem.linear_memory` and returns a plotly
figure; none computes model quantities.

Public functions
----------------
plot_accuracy_curves
    Accuracy against the load α for one or more :class:`~assocmem.linear_memory.AccuracySweep`
    (Figs. 1-2 of the paper): mean over repetitions with a ±1 std band, the Hebbian baseline on
    the same instances dotted, and vertical lines at theoretical thresholds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_bool
from assocmem.linear_memory.sweep import AccuracySweep

from .._checks import check_height, check_marks, check_results, check_strings, check_title
from .._layout import COLUMN_WIDTH, text_width, tidied

__all__ = ["SWEEP_COLORS", "plot_accuracy_curves"]

#: Colours of successive sweeps (plotly's qualitative defaults).
SWEEP_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.02, "yanchor": "bottom"}


def _band(x: np.ndarray, lo: np.ndarray, hi: np.ndarray, color: str, group: str) -> go.Scatter:
    rgb = tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))
    return go.Scatter(
        x=np.concatenate([x, x[::-1]]),
        y=np.concatenate([hi, lo[::-1]]),
        mode="lines",
        fill="toself",
        fillcolor=f"rgba({rgb[0]}, {rgb[1]}, {rgb[2]}, 0.15)",
        line={"width": 0},
        hoverinfo="skip",
        showlegend=False,
        legendgroup=group,
    )


@tidied
def plot_accuracy_curves(
    sweeps: Any,
    labels: Sequence[str] | None = None,
    thresholds: Mapping[str, float] | None = None,
    *,
    hebbian: bool = True,
    title: str | None = None,
    height: int = 400,
) -> go.Figure:
    """Accuracy against load, the read-out of Figs. 1 and 2 of the paper.

    Parameters
    ----------
    sweeps : AccuracySweep or sequence of AccuracySweep
        Results of :func:`assocmem.linear_memory.accuracy_sweep`.
    labels : sequence of str, optional
        Legend entry per sweep; defaults to "OP d = 40" style labels.
    thresholds : mapping of str to float, optional
        Vertical dashed lines, e.g. ``{"α_c = 1/2 (paper)": 0.5}``.
    hebbian : bool, optional
        Draw the Hebbian accuracy (dotted) for sweeps that recorded it.
    title : str, optional
        Figure title.
    height : int, optional
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Mean accuracy (solid, with ±1 std band over repetitions) against the effective α.
    """
    sweeps = check_results(sweeps, "sweeps", AccuracySweep)
    labels = check_strings(labels, "labels", len(sweeps))
    thresholds = check_marks(thresholds, "thresholds")
    hebbian = check_bool(hebbian, "hebbian")
    title = check_title(title, "title")
    height = check_height(height)
    if labels is None:
        short = {"original": "OP", "decoupled": "DP"}
        labels = [
            f"{short[s.problem]} d = {s.d}" + ("" if s.kappa == 1 else f", κ = {s.kappa:g}")
            for s in sweeps
        ]
    fig = go.Figure()
    for i, (s, label) in enumerate(zip(sweeps, labels, strict=True)):
        color = SWEEP_COLORS[i % len(SWEEP_COLORS)]
        x, mean, std = s.alpha_eff, s.accuracy.mean(axis=1), s.accuracy.std(axis=1)
        if s.accuracy.shape[1] > 1:
            fig.add_trace(_band(x, mean - std, np.minimum(mean + std, 1.0), color, label))
        fig.add_trace(
            go.Scatter(
                x=x,
                y=mean,
                mode="lines+markers",
                name=f"{label}, trained",
                legendgroup=label,
                line={"color": color},
                customdata=s.p,
                hovertemplate="α = %{x:.3f}, p = %{customdata}<br>accuracy %{y:.3f}<extra></extra>",
            )
        )
        if hebbian and s.hebbian is not None:
            fig.add_trace(
                go.Scatter(
                    x=x,
                    y=s.hebbian.mean(axis=1),
                    mode="lines",
                    name=f"{label}, Hebbian",
                    legendgroup=label,
                    line={"color": color, "dash": "dot"},
                    hovertemplate="α = %{x:.3f}<br>Hebbian %{y:.3f}<extra></extra>",
                )
            )
    _threshold_marks(fig, thresholds or {}, height)
    fig.update_layout(
        height=height,
        title=title,
        xaxis_title="load α = p ln p / d²",
        yaxis_title="accuracy (fraction of facts recalled)",
        yaxis_range=[0, 1.05],
        legend=_TOP_LEGEND,
        margin={"t": 70 if title else 50},
    )
    return fig


def _threshold_marks(fig: go.Figure, thresholds: Mapping[str, float], height: int) -> None:
    """Vertical dashed lines at ``thresholds``, each labelled where no curve passes.

    Labels sit right of their line, from left to right ever lower, and each line stops below
    its label, so no label crosses a line; a label's height is the highest one (in steps of
    its own height) whose box no curve of the figure enters.
    """
    if not thresholds:
        return
    curves = [
        (np.asarray(t.x, float), np.asarray(t.y, float))
        for t in fig.data
        if t.fill is None and t.x is not None and len(t.x) > 1
    ]
    xs = [float(v) for v in thresholds.values()]
    lo = min([*xs, *(float(np.min(x)) for x, _ in curves)])
    hi = max([*xs, *(float(np.max(x)) for x, _ in curves)])
    per_px = 1.05 * (hi - lo) / (COLUMN_WIDTH - 90)  # x units per px (plotly pads 5 %)
    y_px = 1.05 / max(height - 150, 100)  # y units per px of the plotting area
    half = 9 * y_px  # half a label's height (11 px text) with a margin
    ceiling = 1.0 + 0.05 - half
    for j, (name, value) in sorted(enumerate(thresholds.items()), key=lambda e: e[1][1]):
        x0, x1 = value, value + (text_width(name, 11) + 10) * per_px
        y = ceiling
        while y > half:
            if all(_clear(x, yv, x0, x1, y, half) for x, yv in curves):
                break
            y -= 2 * half
        else:
            y = ceiling
        ceiling = y - 2 * half
        color = "black" if j == 0 else "grey"
        fig.add_shape(
            type="line",
            x0=value,
            x1=value,
            y0=0.0,
            y1=y - half,
            xref="x",
            yref="y",
            line={"dash": "dash", "color": color},
        )
        fig.add_annotation(
            x=value,
            y=y,
            text=name,
            showarrow=False,
            xanchor="left",
            xshift=4,
            yanchor="middle",
            font={"size": 11},
        )


def _clear(x: np.ndarray, y: np.ndarray, x0: float, x1: float, yc: float, half: float) -> bool:
    """Whether the curve (x, y) stays out of the box [x0, x1] × [yc − half, yc + half]."""
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 2:
        return True
    order = np.argsort(x)
    x, y = x[order], y[order]
    a, b = max(x0, x[0]), min(x1, x[-1])
    if a > b:
        return True
    # the piecewise-linear curve over [a, b]: its values at a, b and the vertices between
    at = np.concatenate([[a], x[(x > a) & (x < b)], [b]])
    pts = np.interp(at, x, y)
    seg_lo, seg_hi = np.minimum(pts[:-1], pts[1:]), np.maximum(pts[:-1], pts[1:])
    if len(pts) == 1 or a == b:
        seg_lo = seg_hi = pts
    return bool(np.all((seg_hi < yc - half) | (seg_lo > yc + half)))
