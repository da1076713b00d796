"""Plotly figures for the Epanechnikov chapter: landscapes, separation functions, Theorem 1.

Every function takes a *result* from :mod:`assocmem.dense_am.landscape` (never raw parameters)
and returns a :class:`plotly.graph_objects.Figure`. For a given plotting function the trace
structure does not depend on the result (empty traces stay in place), so a live widget can
update the figure in place and a precomputed slider can switch between steps.

Markers (shared by the 1-D and 2-D landscapes): stored-pattern minima ●, emergent minima ★ (the
hover shows the index set K), LSE minima ○; unsupported regions (E_LSR = +∞) are grey.
Labels use Unicode (β, ϵ, Δ, ξ), never LaTeX.

Public functions
----------------
plot_landscape_1d, plot_landscape_2d, plot_separation, plot_count_curve, plot_minima_counts_1d,
plot_thm1, plot_thm1_sweep.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from assocmem._validation import check_bool, check_instance, check_option
from assocmem.backend import to_numpy
from assocmem.dense_am.landscape import (
    CountCurve,
    Landscape1D,
    Landscape2D,
    MinimaCounts1D,
    SeparationCurves,
    Thm1Result,
    Thm1Sweep,
)

from .._checks import check_marks
from .._layout import tidied

__all__ = [
    "plot_count_curve",
    "plot_landscape_1d",
    "plot_landscape_2d",
    "plot_minima_counts_1d",
    "plot_separation",
    "plot_thm1",
    "plot_thm1_sweep",
]

GREY = "#d0d0d0"  # unsupported region (E_LSR = +inf)
LSE_COLOR = "#1f77b4"
LSR_COLOR = "#d62728"
STORED_COLOR = "#2ca02c"
EMERGENT_COLOR = "#ff7f0e"
_CIRCLE = np.linspace(0.0, 2.0 * np.pi, 65)
# Room above the plot for the book's dropdown (explore puts it at y = 1.18, top left) and below
# it for the slider; the legend therefore goes to the right of the plot.
_MARGIN = {"t": 100, "r": 20}
_COLORBAR = {"x": 1.0, "xanchor": "left", "y": 0.0, "yanchor": "bottom", "len": 0.45}
_LEGEND = {"x": 1.02, "xanchor": "left", "y": 1.0, "yanchor": "top", "font": {"size": 10}}


def _title(text: str) -> dict[str, Any]:
    """Title at the top right of the figure, clear of the book's dropdown at the top left."""
    return {
        "text": text,
        "font": {"size": 13},
        "x": 0.98,
        "xanchor": "right",
        "y": 0.98,
        "yanchor": "top",
    }


@tidied
def plot_landscape_1d(result: Landscape1D, density: bool = False) -> go.Figure:
    """LSE and LSR landscapes in 1-D with their minima (paper Fig. 1 left).

    Parameters
    ----------
    result : Landscape1D
        From :func:`assocmem.dense_am.landscape_1d`.
    density : bool, default False
        Plot the unnormalised densities exp(−β E) instead of the energies.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: LSE curve, LSR curve, stored minima ●, emergent minima ★ (hover: index set),
        LSE minima ○, memories (ticks on the axis). Grey bands mark the unsupported region.
    """
    check_instance(result, "result", Landscape1D)
    density = check_bool(density, "density")
    L = result
    x = to_numpy(L.x)
    lse_y, lsr_y = _landscape_1d_values(L, density)
    pts = to_numpy(L.lsr_points)
    stored = L.is_stored
    lsr_at = _lsr_minimum_values(L, density)
    lse_pts = to_numpy(L.lse_points)
    lse_at = np.exp(-L.beta * to_numpy(L.lse_energies)) if density else to_numpy(L.lse_energies)
    y_lo, y_hi = _range_1d(L, density, lse_at, lsr_at)
    labels = [_index_label(k) for k in L.minima]
    fig = go.Figure()
    fig.add_trace(_line(x, lse_y, "LSE", LSE_COLOR, dash="dash"))
    fig.add_trace(_line(x, lsr_y, "LSR", LSR_COLOR))
    fig.add_trace(
        _markers(
            pts[stored],
            lsr_at[stored],
            "stored ●",
            "circle",
            STORED_COLOR,
            [labels[i] for i in np.nonzero(stored)[0]],
        )
    )
    fig.add_trace(
        _markers(
            pts[~stored],
            lsr_at[~stored],
            "emergent ★",
            "star",
            EMERGENT_COLOR,
            [labels[i] for i in np.nonzero(~stored)[0]],
            size=15,
        )
    )
    fig.add_trace(_markers(lse_pts, lse_at, "LSE min ○", "circle-open", LSE_COLOR, None, size=13))
    mem = to_numpy(L.memories)[:, 0]
    fig.add_trace(
        go.Scatter(
            x=mem,
            y=np.full(mem.shape, y_lo),
            mode="markers",
            name="memories",
            marker={"symbol": "line-ns-open", "size": 14, "color": "black"},
            hovertemplate="ξ_%{text}<extra></extra>",
            text=[str(i) for i in range(mem.size)],
        )
    )
    shapes = [
        {
            "type": "rect",
            "xref": "x",
            "yref": "paper",
            "x0": a,
            "x1": b,
            "y0": 0,
            "y1": 1,
            "fillcolor": GREY,
            "opacity": 0.5,
            "line": {"width": 0},
            "layer": "below",
        }
        for a, b in _unsupported_intervals(x, to_numpy(L.supported))
    ]
    title = (
        f"β = {L.beta:.3g}, R = {L.radius:.3g}, ϵ = {L.eps:.3g}: LSR {len(L.minima)} minima "
        f"({L.n_stored} stored, {L.n_emergent} emergent), LSE {L.n_lse}, M = {mem.size}"
    )
    fig.update_layout(
        title=_title(title),
        xaxis={"title": {"text": "x"}, "range": [float(x[0]), float(x[-1])]},
        yaxis={"title": {"text": "exp(−βE)" if density else "energy E"}, "range": [y_lo, y_hi]},
        shapes=shapes,
        legend=_LEGEND,
        margin=_MARGIN,
        height=440,
    )
    return fig


@tidied
def plot_landscape_2d(
    result: Landscape2D, color: str = "energy", circles: bool = True
) -> go.Figure:
    """Heatmap of the 2-D LSR landscape with supports, exact minima and trajectories (Fig. 1 right).

    Parameters
    ----------
    result : Landscape2D
        From :func:`assocmem.dense_am.landscape_2d`.
    color : {"energy", "active"}, default "energy"
        Colour by E_LSR, or by |B(x)| (the cell arrangement of the support spheres).
    circles : bool, default True
        Draw the support circles of radius R = √(2/β).

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: heatmap (unsupported points are gaps on a grey background), support circles,
        memories, stored minima ●, emergent minima ★ (hover: index set and energy),
        Algorithm-1 trajectories, their starts.

    Notes
    -----
    This figure is redrawn on every slider move of the live widget, so it is assembled from
    plain dictionaries and built without plotly's per-property validation (which costs about
    25 ms for a 200 x 200 heatmap); the tests validate its dictionary form.
    """
    check_instance(result, "result", Landscape2D)
    color = check_option(color, "color", ("energy", "active"))
    circles = check_bool(circles, "circles")
    L = result
    xs, ys = to_numpy(L.xs), to_numpy(L.ys)
    Xi = to_numpy(L.memories)
    cx, cy = _circles(Xi, L.radius) if circles else (np.zeros(0), np.zeros(0))
    C = to_numpy(L.centroids).reshape(-1, 2)
    E = to_numpy(L.minima_energy)
    stored = L.is_stored
    labels = [f"{_index_label(k)}, E = {e:.4g}" for k, e in zip(L.minima, E, strict=True)]
    tx, ty = _join_paths(L.trajectories)
    S = to_numpy(L.starts).reshape(-1, 2)
    ring = "white" if color == "energy" else "#555555"
    data = [
        _heatmap_2d(L, xs, ys, color),
        {
            "type": "scatter",
            "x": cx,
            "y": cy,
            "mode": "lines",
            "hoverinfo": "skip",
            "name": "supports",
            "line": {"color": ring, "width": 1},
        },
        {
            "type": "scatter",
            "x": Xi[:, 0],
            "y": Xi[:, 1],
            "mode": "markers",
            "name": "memories",
            "marker": {"color": "black", "size": 5},
            "text": [str(i) for i in range(Xi.shape[0])],
            "hovertemplate": "ξ_%{text}<extra></extra>",
        },
    ]
    for mask, name, symbol, col, size in (
        (stored, "stored ●", "circle", STORED_COLOR, 10),
        (~stored, "emergent ★", "star", EMERGENT_COLOR, 14),
    ):
        idx = np.nonzero(mask)[0]
        data.append(
            _marker_dict(C[idx, 0], C[idx, 1], name, symbol, col, [labels[i] for i in idx], size)
        )
    data.append(
        {
            "type": "scatter",
            "x": tx,
            "y": ty,
            "mode": "lines+markers",
            "name": "Alg. 1",
            "line": {"color": ring, "dash": "dot"},
            "marker": {"size": 5, "color": ring},
        }
    )
    data.append(
        {
            "type": "scatter",
            "x": S[:, 0],
            "y": S[:, 1],
            "mode": "markers",
            "name": "starts",
            "marker": {
                "symbol": "x",
                "size": 9,
                "color": "white",
                "line": {"width": 1, "color": "black"},
            },
        }
    )
    title = (
        f"β = {L.beta:.3g}, R = {L.radius:.3g}: {len(L.minima)} minima "
        f"({L.n_stored} stored, {L.n_emergent} emergent), M = {Xi.shape[0]}"
    )
    layout = {
        "title": _title(title),
        "xaxis": {
            "range": [float(xs[0]), float(xs[-1])],
            "showgrid": False,
            "zeroline": False,
            "constrain": "domain",
        },
        "yaxis": {
            "range": [float(ys[0]), float(ys[-1])],
            "showgrid": False,
            "zeroline": False,
            "scaleanchor": "x",
            "scaleratio": 1,
            "constrain": "domain",
        },
        "plot_bgcolor": GREY,
        # the plot's grey behind the legend: the white support circles and Alg. 1 paths are
        # drawn white on grey, and their legend symbols would vanish on white
        "legend": {**_LEGEND, "x": 1.0, "bgcolor": GREY},
        "margin": _MARGIN,
        "height": 560,
    }
    return go.Figure(data=data, layout=layout, _validate=False)


@tidied
def plot_separation(result: SeparationCurves) -> go.Figure:
    """Separation functions against the similarity and against the distance (paper Fig. 2).

    Parameters
    ----------
    result : SeparationCurves
        From :func:`assocmem.dense_am.separation_curves`.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: F(β s) against s = −½‖x − x'‖² (LSE dashed, LSR solid, one colour per β).
        Right: the same against the distance ‖x − x'‖, with the support radius R = √(2/β)
        marked by a dotted line per β.
    """
    check_instance(result, "result", SeparationCurves)
    c = result
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.1)
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    s, dist = to_numpy(c.s), to_numpy(c.distance)
    shapes = []
    for i, b in enumerate(to_numpy(c.betas)):
        col = palette[i % len(palette)]
        for curves, name, dash in ((c.lse, "exp", "dash"), (c.lsr, "ReLU", "solid")):
            if curves is None:
                continue
            y = to_numpy(curves)[i]
            label = f"{name}, β={b:.3g}"
            fig.add_trace(_line(s, y, label, col, dash=dash, group=label), row=1, col=1)
            fig.add_trace(
                _line(dist, y, label, col, dash=dash, group=label, legend=False), row=1, col=2
            )
        R = float(to_numpy(c.radius)[i])
        if c.lsr is not None and R <= dist[0]:
            shapes.append(
                {
                    "type": "line",
                    "xref": "x2",
                    "yref": "paper",
                    "x0": R,
                    "x1": R,
                    "y0": 0,
                    "y1": 1,
                    "line": {"color": col, "dash": "dot", "width": 1},
                }
            )
    title = "β = " + ", ".join(f"{b:.3g}" for b in to_numpy(c.betas))
    if c.lsr is not None:
        title += " — R = " + ", ".join(f"{r:.3g}" for r in to_numpy(c.radius))
    fig.update_xaxes(title_text="s = −½‖x − x′‖²", range=[float(s[0]), 0.0], row=1, col=1)
    fig.update_xaxes(title_text="‖x − x′‖", range=[0.0, float(dist[0])], row=1, col=2)
    fig.update_yaxes(title_text="F(βs)", range=[-0.03, 1.05], row=1, col=1)
    fig.update_yaxes(range=[-0.03, 1.05], row=1, col=2)
    fig.update_layout(
        title=_title(title), shapes=shapes, height=420, legend=_LEGEND, margin=_MARGIN
    )
    return fig


@tidied
def plot_count_curve(
    result: CountCurve, thresholds: Mapping[str, float] | None = None
) -> go.Figure:
    """Numbers of minima against β (log axis): LSR total, stored, emergent, and LSE.

    Parameters
    ----------
    result : CountCurve
        From :func:`assocmem.dense_am.count_curve`.
    thresholds : mapping of str to float, optional
        Named β values to mark with dashed vertical lines (e.g. ``{"2/a²": 2.0}``).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    check_instance(result, "result", CountCurve)
    thresholds = check_marks(thresholds, "thresholds")
    c = result
    b = to_numpy(c.betas)
    fig = go.Figure()
    for y, name, col, dash in (
        (c.n_lsr, "LSR minima", LSR_COLOR, "solid"),
        (c.n_stored, "LSR stored", STORED_COLOR, "dot"),
        (c.n_emergent, "LSR emergent", EMERGENT_COLOR, "dot"),
        (c.n_lse, "LSE minima", LSE_COLOR, "dash"),
    ):
        fig.add_trace(
            go.Scatter(
                x=b,
                y=to_numpy(y),
                mode="lines+markers",
                name=name,
                line={"color": col, "dash": dash, "shape": "hv"},
            )
        )
    shapes, notes = [], []
    for label, value in (thresholds or {}).items():
        shapes.append(
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "x0": value,
                "x1": value,
                "y0": 0,
                "y1": 1,
                "line": {"color": "grey", "dash": "dash", "width": 1},
            }
        )
        notes.append(
            {
                "x": math.log10(value),
                "y": 1.0,
                "xref": "x",
                "yref": "paper",
                "text": label,
                "showarrow": False,
                "yanchor": "bottom",
            }
        )
    top = int(max(np.max(to_numpy(c.n_lsr)), np.max(to_numpy(c.n_lse)), c.M)) + 1
    fig.update_layout(
        xaxis={"type": "log", "title": {"text": "β"}},
        yaxis={
            "title": {"text": "number of minima"},
            "range": [-0.2, top + 0.2],
            "dtick": 1 if top <= 10 else None,
        },
        shapes=shapes,
        annotations=notes,
        height=380,
        title=_title(f"M = {c.M} memories"),
        legend=_LEGEND,
        margin=_MARGIN,
    )
    return fig


@tidied
def plot_minima_counts_1d(result: MinimaCounts1D) -> go.Figure:
    """Largest number of minima per M over many random 1-D sets, against β (note §2.9 item 4).

    Parameters
    ----------
    result : MinimaCounts1D
        From :func:`assocmem.dense_am.minima_counts_1d`.

    Returns
    -------
    plotly.graph_objects.Figure
        Max over the sets of (count / M) for LSE and LSR, with the line count = M.
    """
    check_instance(result, "result", MinimaCounts1D)
    r = result
    b = to_numpy(r.betas)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=b,
            y=np.max(r.lse, axis=0) / r.M,
            mode="lines+markers",
            name="LSE",
            line={"color": LSE_COLOR, "dash": "dash"},
        )
    )
    fig.add_trace(
        go.Scatter(
            x=b,
            y=np.max(r.lsr, axis=0) / r.M,
            mode="lines+markers",
            name="LSR",
            line={"color": LSR_COLOR},
        )
    )
    fig.add_hline(y=1.0, line={"color": "grey", "dash": "dot"})
    fig.update_layout(
        xaxis={"type": "log", "title": {"text": "β"}},
        yaxis={"title": {"text": "minima / M"}, "rangemode": "tozero"},
        title=_title(f"{r.lse.shape[0]} random sets of M = {r.M} points in [0, 1]"),
        height=380,
        legend=_LEGEND,
        margin=_MARGIN,
    )
    return fig


@tidied
def plot_thm1(result: Thm1Result) -> go.Figure:
    """Theorem 1 experiment: the starts and their fate, and the fraction retrieved.

    Parameters
    ----------
    result : Thm1Result
        From :func:`assocmem.dense_am.thm1_experiment`.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: starts in the first two coordinates, green if Algorithm 1 retrieved ξ_μ exactly,
        red if not; basin balls S_μ(Δ) dashed, support balls of radius R = r − Δ solid; the
        view is centred on the closest pair of memories (distance r).
        Right: the fraction retrieved against Δ/r, the paper's claim (1 for all Δ < r), the
        corrected prediction ((r − Δ)/Δ)^d for Δ > r/2, and the measured point.
    """
    check_instance(result, "result", Thm1Result)
    T = result
    fig = make_subplots(
        rows=1,
        cols=2,
        column_widths=[0.55, 0.45],
        horizontal_spacing=0.14,
    )
    X = _first_two(to_numpy(T.starts))
    Xi = _first_two(to_numpy(T.memories))
    ok = to_numpy(T.retrieved).astype(bool)
    for mask, name, col in ((ok, "retrieved", STORED_COLOR), (~ok, "not retrieved", LSR_COLOR)):
        fig.add_trace(
            go.Scattergl(
                x=X[mask, 0],
                y=X[mask, 1],
                mode="markers",
                name=name,
                marker={"size": 3, "color": col},
            ),
            row=1,
            col=1,
        )
    bx, by = _circles(Xi, T.delta)
    fig.add_trace(
        go.Scatter(
            x=bx,
            y=by,
            mode="lines",
            name="basins, Δ",
            line={"color": "black", "dash": "dash", "width": 1},
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    sx, sy = _circles(Xi, T.radius)
    fig.add_trace(
        go.Scatter(
            x=sx,
            y=sy,
            mode="lines",
            name="supports, R",
            line={"color": "black", "width": 1},
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=Xi[:, 0],
            y=Xi[:, 1],
            mode="markers",
            name="memories",
            marker={"color": "black", "size": 6},
        ),
        row=1,
        col=1,
    )
    d = int(to_numpy(T.memories).shape[1])
    t = np.linspace(0.01, 0.99, 197)
    fig.add_trace(_line(t, _predicted(t, d), "corrected", "black"), row=1, col=2)
    fig.add_trace(_line(t, np.ones_like(t), "as printed", "grey", dash="dash"), row=1, col=2)
    fig.add_trace(
        go.Scatter(
            x=[T.delta_over_r],
            y=[T.fraction],
            mode="markers",
            name="Alg. 1",
            marker={"size": 11, "color": STORED_COLOR},
        ),
        row=1,
        col=2,
    )
    fig.add_trace(
        go.Scatter(
            x=[T.delta_over_r],
            y=[T.fraction_one_step],
            mode="markers",
            name="one step",
            marker={"size": 11, "symbol": "x", "color": "black"},
        ),
        row=1,
        col=2,
    )
    fig.update_xaxes(title_text="Δ/r", range=[0, 1], row=1, col=2)
    fig.update_yaxes(title_text="fraction retrieved", range=[-0.03, 1.08], row=1, col=2)
    (x0, x1), (y0, y1) = _closest_pair_window(Xi, T.r)
    fig.update_xaxes(
        title_text="starts in S<sub>μ</sub>(Δ), closest pair", range=[x0, x1], row=1, col=1
    )
    fig.update_yaxes(range=[y0, y1], scaleanchor="x", scaleratio=1, row=1, col=1)
    title = (
        f"Δ/r = {T.delta_over_r:.3g}, β = 2/(r−Δ)² = {T.beta:.3g}: retrieved {T.fraction:.3f} "
        f"(one step {T.fraction_one_step:.3f}), predicted {T.predicted:.3f}"
    )
    fig.update_layout(title=_title(title), height=460, legend=_LEGEND, margin=_MARGIN)
    return fig


@tidied
def plot_thm1_sweep(result: Thm1Sweep) -> go.Figure:
    """Fraction retrieved against Δ/r: measured, corrected prediction and the paper's claim.

    Parameters
    ----------
    result : Thm1Sweep
        From :func:`assocmem.dense_am.thm1_sweep`.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    check_instance(result, "result", Thm1Sweep)
    s = result
    t = np.linspace(0.01, 0.99, 197)
    fig = go.Figure()
    fig.add_trace(_line(t, _predicted(t, s.d), "corrected", "black"))
    fig.add_trace(_line(t, np.ones_like(t), "as printed", "grey", dash="dash"))
    fig.add_trace(
        go.Scatter(
            x=to_numpy(s.delta_over_r),
            y=to_numpy(s.fraction),
            mode="markers",
            name="Alg. 1",
            marker={"size": 10, "color": STORED_COLOR},
        )
    )
    fig.add_trace(
        go.Scatter(
            x=to_numpy(s.delta_over_r),
            y=to_numpy(s.fraction_one_step),
            mode="markers",
            name="one step",
            marker={"size": 10, "symbol": "x", "color": "black"},
        )
    )
    fig.add_vline(x=0.5, line={"color": "grey", "dash": "dot"})
    fig.update_layout(
        xaxis={"title": {"text": "Δ/r"}, "range": [0, 1]},
        yaxis={"title": {"text": "fraction retrieved exactly"}, "range": [-0.03, 1.08]},
        title=_title(f"{s.n_starts} uniform starts per Δ, d = {s.d}"),
        height=400,
        legend=_LEGEND,
        margin=_MARGIN,
    )
    return fig


# --------------------------------------------------------------------------------------------
# Private helpers
# --------------------------------------------------------------------------------------------


def _line(
    x: Any,
    y: Any,
    name: str,
    color: str,
    dash: str = "solid",
    group: str | None = None,
    legend: bool = True,
) -> go.Scatter:
    """A plain line trace."""
    return go.Scatter(
        x=x,
        y=y,
        mode="lines",
        name=name,
        legendgroup=group,
        showlegend=legend,
        line={"color": color, "dash": dash},
    )


def _markers(
    x: Any, y: Any, name: str, symbol: str, color: str, text: list[str] | None, size: int = 11
) -> go.Scatter:
    """A marker trace with an optional hover label per point."""
    return go.Scatter(
        x=np.asarray(x),
        y=np.asarray(y),
        mode="markers",
        name=name,
        text=text,
        marker={
            "symbol": symbol,
            "size": size,
            "color": color,
            "line": {"width": 1, "color": "black" if symbol != "circle-open" else color},
        },
        hovertemplate=("%{text}<br>" if text is not None else "")
        + "x = %{x:.4g}, y = %{y:.4g}<extra>"
        + name
        + "</extra>",
    )


def _marker_dict(
    x: Any, y: Any, name: str, symbol: str, color: str, text: list[str], size: int
) -> dict[str, Any]:
    """A marker trace as a plain dictionary (for figures built without validation)."""
    return {
        "type": "scatter",
        "x": np.asarray(x),
        "y": np.asarray(y),
        "mode": "markers",
        "name": name,
        "text": text,
        "marker": {
            "symbol": symbol,
            "size": size,
            "color": color,
            "line": {"width": 1, "color": "black"},
        },
        "hovertemplate": "%{text}<br>x = %{x:.4g}, y = %{y:.4g}<extra>" + name + "</extra>",
    }


def _index_label(k: tuple[int, ...]) -> str:
    """Hover label of a minimum: its index set K."""
    return "K = {" + ", ".join(str(i) for i in k) + "}"


def _landscape_1d_values(L: Landscape1D, density: bool) -> tuple[np.ndarray, np.ndarray]:
    """The LSE and LSR curves to draw (energies with +inf as gaps, or densities)."""
    if density:
        return to_numpy(L.lse_density), to_numpy(L.lsr_density)
    lsr = to_numpy(L.lsr_energy).astype(float)
    return to_numpy(L.lse_energy), np.where(np.isfinite(lsr), lsr, np.nan)


def _lsr_minimum_values(L: Landscape1D, density: bool) -> np.ndarray:
    """Heights of the LSR minima markers (energies or densities)."""
    E = to_numpy(L.lsr_energies).astype(float)
    return np.exp(-L.beta * E) if density else E


def _range_1d(
    L: Landscape1D, density: bool, lse_at: np.ndarray, lsr_at: np.ndarray
) -> tuple[float, float]:
    """y range: densities from 0; energies from the deepest minimum over 4.5/β."""
    if density:
        top = max(float(np.max(to_numpy(L.lse_density))), float(np.max(to_numpy(L.lsr_density))))
        return -0.05 * top, 1.1 * top
    lows = [float(np.min(v)) for v in (lse_at, lsr_at) if v.size]
    low = min(lows) if lows else float(np.min(to_numpy(L.lse_energy)))
    unit = 1.0 / L.beta
    return low - 0.5 * unit, low + 4.0 * unit


def _unsupported_intervals(x: np.ndarray, supported: np.ndarray) -> list[tuple[float, float]]:
    """Maximal runs of unsupported grid points as (start, end) intervals (half a step wider)."""
    if supported.all():
        return []
    h = 0.5 * (x[1] - x[0])
    flag = np.concatenate([[False], ~supported, [False]]).astype(np.int8)
    edges = np.diff(flag)
    starts, ends = np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0] - 1
    return [
        (float(max(x[a] - h, x[0])), float(min(x[b] + h, x[-1])))
        for a, b in zip(starts, ends, strict=True)
    ]


def _heatmap_2d(L: Landscape2D, xs: np.ndarray, ys: np.ndarray, color: str) -> dict[str, Any]:
    """The 2-D heatmap: energy (colours saturate 2.5/β above the deepest point) or |B(x)|."""
    common = {"type": "heatmap", "x": xs, "y": ys, "hoverongaps": False}
    if color == "active":
        n = to_numpy(L.n_active).astype(float)
        return {
            **common,
            "z": np.where(n > 0, n, np.nan),
            "colorscale": "Blues",
            "zmin": 0.5,
            "colorbar": {"title": {"text": "|B(x)|"}, **_COLORBAR},
            "hovertemplate": "x = %{x:.3g}, y = %{y:.3g}<br>|B| = %{z}<extra></extra>",
        }
    E = to_numpy(L.energy)
    finite = np.isfinite(E)
    if finite.any():
        lo = float(np.min(E[finite]))
        hi = min(float(np.quantile(E[finite], 0.97)), lo + 2.5 / L.beta)
        hi = hi if hi > lo else lo + 1.0 / L.beta
    else:
        lo, hi = 0.0, 1.0
    return {
        **common,
        "z": np.where(finite, E, np.nan),
        "colorscale": "Viridis",
        "zmin": lo,
        "zmax": hi,
        "colorbar": {"title": {"text": "E<sub>LSR</sub>"}, **_COLORBAR},
        "hovertemplate": "x = %{x:.3g}, y = %{y:.3g}<br>E = %{z:.4g}<extra></extra>",
    }


def _circles(centres: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Circles of ``radius`` around each centre, as one polyline with NaN separators."""
    n = _CIRCLE.size + 1
    x = np.full((centres.shape[0], n), np.nan)
    y = np.full((centres.shape[0], n), np.nan)
    x[:, :-1] = centres[:, :1] + radius * np.cos(_CIRCLE)[None, :]
    y[:, :-1] = centres[:, 1:2] + radius * np.sin(_CIRCLE)[None, :]
    return x.ravel(), y.ravel()


def _join_paths(paths: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Concatenate (T, 2) paths into one polyline with NaN separators."""
    if not paths:
        return np.zeros(0), np.zeros(0)
    parts = []
    for p in paths:
        parts.append(to_numpy(p).reshape(-1, 2))
        parts.append(np.full((1, 2), np.nan))
    P = np.concatenate(parts[:-1])
    return P[:, 0], P[:, 1]


def _first_two(X: np.ndarray) -> np.ndarray:
    """The first two coordinates (a zero second coordinate in 1-D)."""
    return X[:, :2] if X.shape[1] >= 2 else np.column_stack([X[:, 0], np.zeros(X.shape[0])])


def _closest_pair_window(Xi: np.ndarray, r: float) -> tuple[tuple[float, float], ...]:
    """A square window of half-width 1.5 r centred on the midpoint of the closest pair."""
    if Xi.shape[0] < 2:
        return (-1.0, 1.0), (-1.0, 1.0)
    D2 = np.sum((Xi[:, None, :] - Xi[None, :, :]) ** 2, axis=2)
    D2[np.diag_indices(Xi.shape[0])] = np.inf
    i, j = np.unravel_index(np.argmin(D2), D2.shape)
    c = 0.5 * (Xi[i] + Xi[j])
    h = 1.5 * r
    return (float(c[0] - h), float(c[0] + h)), (float(c[1] - h), float(c[1] + h))


def _predicted(t: np.ndarray, d: int) -> np.ndarray:
    """Corrected Thm-1 fraction: 1 for Δ/r <= 1/2, ((1 − t)/t)^d above (note §2.2)."""
    return np.where(t <= 0.5, 1.0, ((1.0 - t) / t) ** d)
