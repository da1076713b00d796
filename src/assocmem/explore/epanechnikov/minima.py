"""Figures for the chapter sections on emergent memories, counting minima and capacity.

Every function takes a result object computed by :mod:`assocmem.dense_am.emergence` (or
:mod:`assocmem.dense_am.capacity`) and returns a plotly figure; none of them computes model
quantities. The static book figure, the live widget and the tests call the same functions.

Multi-panel figures are laid out by hand (axis domains) rather than with
``plotly.subplots.make_subplots``, which costs about 0.1 s per figure; explorations build dozens.
On log axes plotly.js places shapes at data values but annotations at log10 values.

Public functions
----------------
plot_emergence_sweep
    Counts of minima against β (log-log: total, stored, novel), the supported fraction of the
    cube on a second axis, the thresholds 2/diam², 2/r², 8/r² and the global-emergence window
    (Fig. 3 left, exploration 6). Accepts one sweep or several (side by side).
plot_emergence_peaks
    Peak height of Fig. 3 (left), stored fraction and support at the peak, against d.
plot_count_bound
    Thm 2's count bound, eq. (5), against the exact counts along a sweep.
plot_polygon_puzzle
    The regular polygon with its support circles and minima, beside the count against R
    (exploration 7).
plot_simplex_counts
    Exact counts of the regular simplex against 2^M − 1.
plot_prop2
    The 1-D Prop. 2 counter-example: energy, the centroid of B(x) and where Algorithm 1 ends.
plot_hull_gradients
    log10 ‖∇E_LSE‖ at the stored patterns against β, hull vertices against interior patterns.
plot_grid_counts
    Prop. 3: exact grid counts against the sliding-window prediction and their ratio.
plot_basin_survey
    Thm 2(b): the paper's basin radius r* against the exact radius.
plot_capacity_panel
    Thm 2(a): histogram of r against the guaranteed radius, and success against M with the
    bound 1 − M² e^(−2αd) (exploration 10).
plot_collision_curves
    Eq. (10): Monte-Carlo Pr[r < t] against the union bound.
plot_active_set
    Eq. (11): histogram of |B(x)| with λ and its concentration band.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.dense_am.emergence import (
    ActiveSetMC,
    BasinSurvey,
    CapacityPanel,
    CollisionCurve,
    CountBoundCheck,
    EmergencePeaks,
    EmergenceSweep,
    GridCounts,
    HullGradients,
    PolygonMinima,
    Prop2Check,
    SimplexCounts,
)

from .._checks import check_height, check_results
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _positive_or_none, _vline

__all__ = [
    "plot_active_set",
    "plot_basin_survey",
    "plot_capacity_panel",
    "plot_collision_curves",
    "plot_count_bound",
    "plot_emergence_peaks",
    "plot_emergence_sweep",
    "plot_grid_counts",
    "plot_hull_gradients",
    "plot_polygon_puzzle",
    "plot_prop2",
    "plot_simplex_counts",
]

_TOTAL, _STORED, _NOVEL, _SUPPORT = "#1f77b4", "#7f7f7f", "#d62728", "#2ca02c"
_WINDOW = "rgba(255, 165, 0, 0.18)"
_SIZE_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")
# Figures shown with a slider keep their legend above the panels: the book's slider sits below
# the x axis, where a bottom legend would collide with it.
_GRID_PREDICTION = "dashed: (n − 2R/ℓ + 1)<sup>d</sup>"
_LABEL_ROOM = 0.2  # share of a sweep panel's axis span kept free above the data for labels
_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.1, "yanchor": "bottom"}


@tidied
def plot_emergence_sweep(sweeps: Any, height: int = 420) -> go.Figure:
    """Counts of LSR minima against β with the supported fraction (Fig. 3 left).

    Parameters
    ----------
    sweeps : EmergenceSweep or sequence of EmergenceSweep
        From :func:`assocmem.dense_am.emergence_sweep`; several are drawn side by side.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Per panel: total (blue), stored (grey) and novel (red) minima on log-log axes, the
        supported fraction (green, right axis), dotted vertical lines at 2/diam², 2/r², 8/r²,
        a dashed line at M, and orange shading where Def. 2 holds (all stored retained, some
        novel).
    """
    height = check_height(height)
    items = check_results(sweeps, "sweeps", EmergenceSweep)
    n = len(items)
    layout, panels = _panels(
        [f"d = {s.d}, M = {s.M}, seed {s.seed}" for s in items], secondary=True, spacing=0.1
    )
    traces: list[dict] = []
    for i, (s, (xref, yref, y2ref)) in enumerate(zip(items, panels, strict=True)):
        traces += _sweep_traces(s, xref, yref, y2ref, show_legend=i == 0)
        shapes, notes = _sweep_shapes(s, xref, yref)
        layout["shapes"] += shapes
        layout["annotations"] += notes
        layout[_axis(xref)].update(type="log", title={"text": "β"})
        counts = np.asarray(s.n_total, dtype=float)
        top = float(np.max(counts[counts > 0])) if np.any(counts > 0) else 1.0
        layout[_axis(yref)].update(
            type="log",
            # headroom above the highest count for the threshold labels at the top
            range=[-0.15, math.log10(top) + _LABEL_ROOM * (math.log10(top) + 0.15)],
            title={"text": "number of minima" if i == 0 else ""},
        )
        layout[_axis(y2ref)].update(
            # the fraction's plateau at 1 sits below the threshold labels
            range=[0, 1.0 + _LABEL_ROOM],
            tickmode="array",
            tickvals=[0.0, 0.2, 0.4, 0.6, 0.8, 1.0],
            showgrid=False,
            title={"text": "supported fraction" if i == n - 1 else ""},
        )
    layout.update(height=height, legend=_TOP_LEGEND, margin={"t": 110, "b": 50})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_emergence_peaks(result: Any) -> go.Figure:
    """Peak of the count-versus-β curve against d: height, stored fraction, support.

    Parameters
    ----------
    result : EmergencePeaks
        From :func:`assocmem.dense_am.emergence_peaks`.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: peak count / M per seed (markers) and median (line), log scale. Right: median
        fraction of stored patterns retained and supported fraction of the cube at the peak.
    """
    check_instance(result, "result", EmergencePeaks)
    ds = np.asarray(result.ds)
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        [f"peak count / M (M = {result.M})", "at the peak (median over seeds)"]
    )
    traces = [
        _scatter(
            np.repeat(ds, result.seeds.size),
            result.peak_ratio.ravel(),
            x1,
            y1,
            name="peak / M, each seed",
            mode="markers",
            color=_TOTAL,
        ),
        _scatter(
            ds,
            np.median(result.peak_ratio, axis=1),
            x1,
            y1,
            name="peak / M, median",
            mode="lines",
            color=_TOTAL,
        ),
    ]
    for values, name, color in (
        (result.stored_fraction, "stored patterns retained", _STORED),
        (result.support_fraction, "supported fraction of the cube", _SUPPORT),
    ):
        traces.append(
            _scatter(
                ds, np.median(values, axis=1), x2, y2, name=name, mode="lines+markers", color=color
            )
        )
    ticks = [int(v) for v in ds]
    layout[_axis(x1)].update(type="log", title={"text": "d"}, tickvals=ticks)
    layout[_axis(x2)].update(type="log", title={"text": "d"}, tickvals=ticks)
    layout[_axis(y1)].update(type="log", title={"text": "peak / M"})
    layout[_axis(y2)].update(range=[0, 1.05], title={"text": "fraction"})
    layout.update(height=380, legend={"orientation": "h", "y": -0.25})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_count_bound(result: Any) -> go.Figure:
    """Thm 2's count bound λ log(eM/λ) + log M against log(#minima), along β.

    Parameters
    ----------
    result : CountBoundCheck
        From :func:`assocmem.dense_am.count_bound_check`.

    Returns
    -------
    plotly.graph_objects.Figure
        Exact log count at every β and the bound where it is stated (1 <= λ <= M).
    """
    check_instance(result, "result", CountBoundCheck)
    bound = [float(b) if v else None for b, v in zip(result.log_bound, result.valid, strict=True)]
    fig = go.Figure(
        [
            go.Scatter(
                x=result.betas,
                y=result.log_count,
                mode="lines+markers",
                name="log(number of minima)",
                line={"color": _TOTAL},
            ),
            go.Scatter(
                x=result.betas,
                y=bound,
                mode="lines+markers",
                name="bound λ log(eM/λ) + log M (1 ≤ λ ≤ M)",
                line={"dash": "dash", "color": _NOVEL},
            ),
        ]
    )
    fig.update_layout(
        height=360,
        legend={"orientation": "h", "y": -0.25},
        xaxis={"type": "log", "title": {"text": "β"}},
        yaxis={"title": {"text": "natural log"}},
    )
    return fig


@tidied
def plot_polygon_puzzle(result: Any) -> go.Figure:
    """A regular polygon's minima at one R beside the count against R (exploration 7).

    Parameters
    ----------
    result : PolygonMinima
        From :func:`assocmem.dense_am.polygon_minima`.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: vertices (black), support circles of radius R (shapes), minima coloured by |𝒦|
        (open circles for the stored patterns, stars for the emergent ones; the index set in the
        hover). Right: number of minima against R (staircase), the current R dotted and 2^n − 1
        dashed.
    """
    check_instance(result, "result", PolygonMinima)
    xi, R = np.asarray(result.memories), float(result.radius)
    n = xi.shape[0]
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["", "number of minima against R"],
        widths=(0.42, 0.58),
    )
    traces = [
        _scatter(
            xi[:, 0],
            xi[:, 1],
            x1,
            y1,
            name="stored patterns",
            mode="markers",
            color="black",
            size=9,
        )
    ]
    for k in range(1, n + 1):
        idx = np.flatnonzero(result.sizes == k)
        pts = result.centroids[idx] if idx.size else np.empty((0, 2))
        trace = _scatter(
            pts[:, 0],
            pts[:, 1],
            x1,
            y1,
            name=f"minima with |𝒦| = {k}",
            mode="markers",
            color=_SIZE_COLORS[(k - 1) % 7],
            size=16 if k == 1 else 15,
            symbol="circle-open" if k == 1 else "star",
        )
        trace["marker"]["line"] = {"width": 2}
        trace["text"] = [str(result.minima[i]) for i in idx]
        trace["hovertemplate"] = "𝒦 = %{text}<extra></extra>"
        traces.append(trace)
    staircase = _scatter(
        result.curve_radii,
        result.curve_counts,
        x2,
        y2,
        name="count of minima",
        mode="lines",
        color=_TOTAL,
    )
    staircase["line"]["shape"] = "hv"
    traces.append(staircase)
    circle = {
        "type": "circle",
        "xref": x1,
        "yref": y1,
        "line": {"color": "rgba(31, 119, 180, 0.5)"},
    }
    layout["shapes"] = [
        {**circle, "x0": c[0] - R, "x1": c[0] + R, "y0": c[1] - R, "y1": c[1] + R} for c in xi
    ]
    layout["shapes"] += [_hline(2**n - 1, x2, y2, color=_NOVEL), _vline(R, x2, y2)]
    span = float(np.max(np.abs(xi))) + float(np.max(result.curve_radii))
    layout[_axis(x1)].update(range=[-span, span], constrain="domain")
    layout[_axis(y1)].update(range=[-span, span], scaleanchor=x1, scaleratio=1, constrain="domain")
    layout[_axis(x2)].update(title={"text": "support radius R"})
    layout[_axis(y2)].update(title={"text": "number of minima"})
    layout.update(
        title={
            "text": f"{n} points, R = {R:.3g}: {len(result.minima)} minima "
            f"(2<sup>{n}</sup> − 1 = {2**n - 1})"
        },
        height=470,
        legend=_TOP_LEGEND,
        margin={"t": 130, "b": 50},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_simplex_counts(result: Any) -> go.Figure:
    """Exact minima counts of regular simplices against 2^M − 1 (note §2.9 item 3).

    Parameters
    ----------
    result : SimplexCounts
        From :func:`assocmem.dense_am.simplex_count_experiment`.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    check_instance(result, "result", SimplexCounts)
    fig = go.Figure(
        [
            go.Scatter(
                x=result.M,
                y=result.n_predicted,
                mode="lines",
                line={"dash": "dash", "color": _NOVEL},
                name="2<sup>M</sup> − 1 (all non-empty subsets)",
            ),
            go.Scatter(
                x=result.M,
                y=result.n_minima,
                mode="markers",
                marker={"size": 10, "color": _TOTAL},
                name="exact count of minima",
            ),
            go.Scatter(
                x=result.M,
                y=result.M,
                mode="lines",
                line={"dash": "dot", "color": _STORED},
                name="M (stored patterns)",
            ),
        ]
    )
    fig.update_layout(
        height=380,
        title={"text": f"regular simplex, edge a = {result.a:g}"},
        xaxis={"title": {"text": "number of vertices M"}},
        yaxis={"type": "log", "title": {"text": "number of minima"}},
    )
    return fig


@tidied
def plot_prop2(result: Any) -> go.Figure:
    """The 1-D counter-example to Prop. 2: the centroid of B(x) need not be a minimum.

    Parameters
    ----------
    result : Prop2Check
        From :func:`assocmem.dense_am.prop2_check` with d = 1.

    Returns
    -------
    plotly.graph_objects.Figure
        The LSR energy (ϵ = 0; gaps where unsupported), the patterns, x, the centroid of B(x)
        with the ball of radius R around it (shaded), and the Algorithm-1 fixed point.
    """
    check_instance(result, "result", Prop2Check)
    if result.grid is None:
        raise ValueError("result must be a 1-D Prop2Check (its grid and energy are None)")
    grid, energy = np.asarray(result.grid), np.asarray(result.energy, dtype=float)
    finite = np.isfinite(energy)
    xi = np.asarray(result.memories)[:, 0]
    R = math.sqrt(2.0 / result.beta)
    c, fp, x = float(result.centroid[0]), float(result.fixed_point[0]), float(result.x[0])

    def e_at(v: float) -> float:
        return float(np.interp(v, grid[finite], energy[finite]))

    def members(index_set: tuple[int, ...]) -> str:
        return "{" + ", ".join(f"{xi[i]:g}" for i in index_set) + "}"

    points = [
        (xi, "stored patterns", "circle", "black"),
        ([x], f"x = {x:g}: B(x) = {members(result.active)}", "diamond", _STORED),
        (
            [c],
            f"centroid of B(x) = {c:.4g}: B there = {members(result.active_at_centroid)}",
            "x",
            _NOVEL,
        ),
        ([fp], f"Algorithm 1 from x ends at {fp:.4g}", "star", _SUPPORT),
    ]
    traces = [
        go.Scatter(
            x=grid,
            y=[float(e) if f else None for e, f in zip(energy, finite, strict=True)],
            mode="lines",
            name="E<sub>LSR</sub> (ϵ = 0)",
        )
    ]
    for px, name, symbol, color in points:
        traces.append(
            go.Scatter(
                x=list(px),
                y=[e_at(v) for v in px],
                mode="markers",
                name=name,
                marker={"symbol": symbol, "size": 13, "color": color},
            )
        )
    marked = [e_at(v) for v in (*xi, x, c, fp)]
    lo, hi = float(energy[finite].min()), max(marked)
    pad = max(hi - lo, 1e-3)
    fig = go.Figure(traces)
    fig.update_layout(
        height=400,
        title={"text": f"R = {R:.3g}: the shaded ball around the centroid misses a member of B(x)"},
        legend={"orientation": "h", "y": -0.25},
        xaxis={"title": {"text": "x"}},
        yaxis={"title": {"text": "energy"}, "range": [lo - 0.3 * pad, hi + 1.5 * pad]},
        shapes=[_vrect(c - R, c + R, "x", "y")],
    )
    return fig


@tidied
def plot_hull_gradients(result: Any) -> go.Figure:
    """log10 ‖∇E_LSE(ξ_ν)‖ against β: hull vertices never reach zero (Prop. 1, note §2.4).

    Parameters
    ----------
    result : HullGradients
        From :func:`assocmem.dense_am.lse_hull_vertex_gradients`.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per pattern: solid blue for hull vertices, dashed grey for interior patterns.
        Exactly zero gradients (log = −inf) are drawn at the bottom as grey crosses; open red
        circles mark where the float64 gradient has underflowed to 0.0.
    """
    check_instance(result, "result", HullGradients)
    betas = np.asarray(result.betas)
    logg = np.asarray(result.log10_grad_norm)
    finite = logg[np.isfinite(logg)]
    floor = (float(finite.min()) if finite.size else 0.0) - 2.0
    first_of = {True: int(np.argmax(result.is_extreme)), False: int(np.argmin(result.is_extreme))}
    traces = []
    for nu in range(logg.shape[1]):
        ext = bool(result.is_extreme[nu])
        traces.append(
            go.Scatter(
                x=betas,
                y=[float(v) if np.isfinite(v) else None for v in logg[:, nu]],
                mode="lines",
                line={"color": _TOTAL if ext else _STORED, "dash": "solid" if ext else "dash"},
                name="hull vertex" if ext else "interior pattern",
                legendgroup=str(ext),
                showlegend=nu == first_of[ext],
            )
        )
    zero_b = np.nonzero(np.isneginf(logg))[0]
    traces.append(
        go.Scatter(
            x=betas[zero_b],
            y=[floor] * zero_b.size,
            mode="markers",
            name="exactly 0 (symmetry)",
            marker={"symbol": "x", "color": _STORED, "size": 9},
        )
    )
    ib, inu = np.nonzero((np.asarray(result.grad_norm_float64) == 0.0) & np.isfinite(logg))
    traces.append(
        go.Scatter(
            x=betas[ib],
            y=logg[ib, inu],
            mode="markers",
            name="float64 gradient underflows to 0.0",
            marker={"symbol": "circle-open", "color": _NOVEL, "size": 9},
        )
    )
    fig = go.Figure(traces)
    fig.update_layout(
        height=400,
        legend={"orientation": "h", "y": -0.25},
        xaxis={"type": "log", "title": {"text": "β"}},
        yaxis={"title": {"text": "log<sub>10</sub> ‖∇E<sub>LSE</sub>(ξ)‖"}},
    )
    return fig


@tidied
def plot_grid_counts(results: Sequence[Any]) -> go.Figure:
    """Prop. 3 on grids: exact counts, the prediction (n − 2R/ℓ + 1)^d and their ratio.

    Parameters
    ----------
    results : sequence of GridCounts
        From :func:`assocmem.dense_am.grid_minima_counts`, one per (d, R/ℓ).

    Returns
    -------
    plotly.graph_objects.Figure
        Left: counts (markers) and predictions (dashed) against n. Right: count / prediction,
        flat if the Θ-scaling holds.
    """
    results = check_results(results, "results", GridCounts, single=False)
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["exact count and prediction", "count / prediction"]
    )
    traces = []
    for i, g in enumerate(results):
        color = _SIZE_COLORS[i % len(_SIZE_COLORS)]
        label = f"d = {g.d}, R/ℓ = {g.radius_over_spacing:g}"
        count = _scatter(g.n, g.counts, x1, y1, name=label, mode="markers+lines", color=color)
        pred = _scatter(
            g.n,
            g.predicted,
            x1,
            y1,
            name=f"{label}: (n − 2R/ℓ + 1)<sup>d</sup>",
            mode="lines",
            color=color,
        )
        pred["line"]["dash"] = "dash"
        ratio = _scatter(g.n, g.ratio, x2, y2, name=label, mode="markers+lines", color=color)
        for t in (count, pred, ratio):
            t["legendgroup"] = label
        pred["showlegend"] = ratio["showlegend"] = False
        traces += [count, pred, ratio]
    # one legend entry for all dashed predictions (each shares its count's colour)
    key = _scatter([None], [None], x1, y1, name=_GRID_PREDICTION, mode="lines", color=_STORED)
    key["line"]["dash"] = "dash"
    key["hoverinfo"] = "skip"
    traces.append(key)
    for xref in (x1, x2):
        layout[_axis(xref)].update(title={"text": "points per axis n"})
    values = np.concatenate(
        [np.asarray(v, dtype=float) for g in results for v in (g.counts, g.predicted)]
    )
    values = values[np.isfinite(values) & (values > 0)]
    # whole decades at both ends, so that the top and bottom of the data carry a labelled tick
    low, high = math.floor(math.log10(values.min())), math.ceil(math.log10(values.max()))
    layout[_axis(y1)].update(
        type="log", range=[low, max(high, low + 1)], title={"text": "number of minima"}
    )
    layout[_axis(y2)].update(type="log", title={"text": "ratio"})
    layout.update(height=400, legend={"orientation": "h", "y": -0.25})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_basin_survey(result: Any) -> go.Figure:
    """The paper's basin radius r* (eq. (4)) against the exact radius, per novel minimum.

    Parameters
    ----------
    result : BasinSurvey
        From :func:`assocmem.dense_am.basin_survey`.

    Returns
    -------
    plotly.graph_objects.Figure
        Log-log scatter with the diagonal; every point lies above it (r*_exact >= r*).
    """
    check_instance(result, "result", BasinSurvey)
    rs, rx = np.asarray(result.r_star), np.asarray(result.r_star_exact)
    traces = [
        go.Scatter(
            x=rs,
            y=rx,
            mode="markers",
            name="novel minima",
            text=[str(k) for k in result.minima],
            hovertemplate="𝒦 = %{text}<br>r* = %{x:.3g}<br>exact = %{y:.3g}<extra></extra>",
        )
    ]
    if rs.size:
        lo, hi = float(min(rs.min(), rx.min())), float(max(rs.max(), rx.max()))
        traces.append(
            go.Scatter(
                x=[lo, hi],
                y=[lo, hi],
                mode="lines",
                name="exact = r*",
                line={"dash": "dash", "color": _STORED},
            )
        )
    ratio = float(np.median(rx / rs)) if rs.size else math.nan
    fig = go.Figure(traces)
    fig.update_layout(
        height=400,
        title={"text": f"{rs.size} novel minima, median ratio exact / r* = {ratio:.2f}"},
        xaxis={"type": "log", "title": {"text": "paper's r* (eq. 4)"}},
        yaxis={"type": "log", "title": {"text": "exact radius min |‖x* − ξ‖ − R|"}},
    )
    return fig


@tidied
def plot_capacity_panel(panel: Any) -> go.Figure:
    """Theorem 2(a): r against the guaranteed radius, and success against M (exploration 10).

    Parameters
    ----------
    panel : CapacityPanel
        From :func:`assocmem.dense_am.capacity_panel`.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: histogram of the minimum pairwise distance r over the trials, with the radius
        (V_d)^(−1/d) e^(−2α) dashed. Right: Monte-Carlo Pr[r >= radius] against M, and the
        paper's bound 1 − M² e^(−2αd) (shown where it is positive, i.e. not vacuous).
    """
    check_instance(panel, "panel", CapacityPanel)
    mc, curve = panel.mc, panel.curve
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        [f"r over {mc.r_min_samples.size} draws, M = {mc.M}", "Pr[r ≥ radius] against M"]
    )
    bound = [float(b) if b > 0 else None for b in curve.bound_delta]
    traces = [
        {
            "type": "histogram",
            "x": mc.r_min_samples,
            "nbinsx": 30,
            "name": "minimum distance r",
            "marker": {"color": _TOTAL},
            "xaxis": x1,
            "yaxis": y1,
        },
        _scatter(
            curve.M,
            curve.empirical_success,
            x2,
            y2,
            name="Monte-Carlo success",
            mode="markers+lines",
            color=_TOTAL,
        ),
        _scatter(
            curve.M, bound, x2, y2, name="bound 1 − M² e<sup>−2αd</sup>", mode="lines", color=_NOVEL
        ),
        _scatter(
            [mc.M],
            [mc.empirical_success],
            x2,
            y2,
            name=f"M = {mc.M} (histogram)",
            mode="markers",
            color="black",
            size=11,
            symbol="diamond",
        ),
    ]
    traces[2]["line"]["dash"] = "dash"
    layout["shapes"] = [_vline(mc.radius, x1, y1, dash="dash", color=_NOVEL), _vline(mc.M, x2, y2)]
    layout[_axis(x1)].update(title={"text": "r"})
    layout[_axis(x2)].update(type="log", title={"text": "M"})
    layout[_axis(y2)].update(range=[-0.02, 1.02], title={"text": "probability"})
    layout.update(
        height=440,
        bargap=0.05,
        legend=_TOP_LEGEND,
        margin={"t": 130, "b": 50},
        title={
            "text": f"d = {mc.d}, α = {mc.alpha:.3g}: radius {mc.radius:.3g}, success "
            f"{mc.empirical_success:.3f} vs bound {mc.bound_delta:.3f}"
        },
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_collision_curves(results: Sequence[Any]) -> go.Figure:
    """Eq. (10): Monte-Carlo Pr[r < t] against the union bound M² V_d t^d.

    Parameters
    ----------
    results : sequence of CollisionCurve
        From :func:`assocmem.dense_am.collision_curve`.

    Returns
    -------
    plotly.graph_objects.Figure
        Log-log: empirical probability with 3-standard-error bars (markers) and the bound
        (dashed), one colour per (d, M).
    """
    results = check_results(results, "results", CollisionCurve, single=False)
    traces = []
    for i, c in enumerate(results):
        color = _SIZE_COLORS[i % len(_SIZE_COLORS)]
        label = f"d = {c.d}, M = {c.M}"
        keep = np.asarray(c.empirical) > 0
        traces.append(
            go.Scatter(
                x=c.threshold[keep],
                y=c.empirical[keep],
                mode="markers",
                name=f"{label}: Monte-Carlo",
                marker={"color": color},
                error_y={"type": "data", "array": 3 * c.stderr[keep], "visible": True},
            )
        )
        traces.append(
            go.Scatter(
                x=c.threshold,
                y=c.bound,
                mode="lines",
                name=f"{label}: bound M² V<sub>d</sub> t<sup>d</sup>",
                line={"dash": "dash", "color": color},
            )
        )
    fig = go.Figure(traces)
    fig.update_layout(
        height=420,
        legend={"orientation": "h", "y": -0.25},
        xaxis={"type": "log", "title": {"text": "distance threshold t"}},
        yaxis={"type": "log", "title": {"text": "Pr[r < t]"}, "range": [-3, 0.5]},
    )
    return fig


@tidied
def plot_active_set(result: Any) -> go.Figure:
    """Eq. (11): histogram of |B(x)| with λ and the band λ ∓ 5√(λ log M).

    Parameters
    ----------
    result : ActiveSetMC
        From :func:`assocmem.dense_am.active_set_experiment`.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    check_instance(result, "result", ActiveSetMC)
    b = result.band
    samples = np.asarray(result.samples, dtype=float)
    lo_data, hi_data = float(samples.min()), float(samples.max())
    # the axis fits the counts (a count is >= 0), not the band: eq. (11)'s band is several
    # times wider than the histogram, so its edges are drawn only where they fall in view
    pad = max(0.15 * (hi_data - lo_data), 2.0)
    x0, x1 = max(0.0, lo_data - pad), hi_data + pad
    width = max(1.0, float(math.ceil((hi_data - lo_data + 1) / 50)))
    fig = go.Figure(
        go.Histogram(
            x=result.samples,
            name="|B(x)|",
            marker={"color": _TOTAL},
            xbins={"start": lo_data - 0.5, "end": hi_data + 0.5, "size": width},
        )
    )
    edges = [x for x in (b.lower, b.upper) if x0 <= x <= x1]
    fig.update_layout(
        height=360,
        xaxis={"title": {"text": "|B(x)|"}, "range": [x0, x1]},
        yaxis={"title": {"text": "draws"}},
        shapes=[_vline(b.prediction, "x", "y", dash="solid", color=_NOVEL)]
        + [_vline(x, "x", "y", dash="dash", color=_STORED) for x in edges],
        annotations=[
            {
                "x": b.prediction,
                "y": 1.0,
                "xref": "x",
                "yref": "y domain",
                "text": "λ",
                "showarrow": False,
                "yanchor": "bottom",
            },
            {
                "x": 1.0,
                "y": 1.0,
                "xref": "x domain",
                "yref": "y domain",
                "xanchor": "right",
                "yanchor": "top",
                "align": "right",
                "showarrow": False,
                "font": {"size": 11},
                "text": f"band of eq. (11)<br>[{b.lower:.3g}, {b.upper:.3g}]"
                + ("", "<br>(one edge off the axis)", "<br>(off the axis)")[2 - len(edges)],
            },
        ],
        title={
            "text": f"d = {result.d}, M = {result.M}, β = {result.beta:g}: mean "
            f"{result.mean:.3g} vs λ = {b.prediction:.3g}; "
            f"{100 * result.fraction_in_band:.1f} % inside the band"
        },
    )
    return fig


# --------------------------------------------------------------------------------------------
# Private helpers
# --------------------------------------------------------------------------------------------


def _scatter(
    x: Any,
    y: Any,
    xref: str,
    yref: str,
    name: str,
    mode: str,
    color: str,
    size: int | None = None,
    symbol: str | None = None,
) -> dict[str, Any]:
    """A scatter trace dict on the given axes."""
    trace: dict[str, Any] = {
        "type": "scatter",
        "x": x,
        "y": y,
        "xaxis": xref,
        "yaxis": yref,
        "name": name,
        "mode": mode,
    }
    if "lines" in mode:
        trace["line"] = {"color": color}
    if "markers" in mode:
        trace["marker"] = {"color": color}
        if size is not None:
            trace["marker"]["size"] = size
        if symbol is not None:
            trace["marker"]["symbol"] = symbol
    return trace


def _sweep_traces(s: Any, xref: str, yref: str, y2ref: str, show_legend: bool) -> list[dict]:
    """Count and support traces of one sweep panel."""
    traces = []
    for values, name, color, dash in (
        (s.n_total, "total minima", _TOTAL, "solid"),
        (s.n_stored, "stored patterns retained", _STORED, "dash"),
        (s.n_novel, "novel minima", _NOVEL, "solid"),
    ):
        t = _scatter(
            s.betas,
            _positive_or_none(values),
            xref,
            yref,
            name=name,
            mode="lines+markers",
            color=color,
        )
        t["line"]["dash"] = dash
        t.update(legendgroup=name, showlegend=show_legend)
        traces.append(t)
    support = [float(v) if np.isfinite(v) else None for v in np.asarray(s.support_fraction)]
    t = _scatter(
        s.betas, support, xref, y2ref, name="supported fraction", mode="lines", color=_SUPPORT
    )
    t.update(
        fill="tozeroy",
        fillcolor="rgba(44, 160, 44, 0.08)",
        legendgroup="support",
        showlegend=show_legend,
    )
    traces.append(t)
    return traces


def _sweep_shapes(s: Any, xref: str, yref: str) -> tuple[list[dict], list[dict]]:
    """Threshold lines, the M line and the global-emergence window of one sweep panel."""
    th = s.thresholds
    lines = ((th.single_minimum, "2/diam²"), (th.stored_exact, "2/r²"), (th.stored_only, "8/r²"))
    shapes = [_vline(x, xref, yref) for x, _ in lines]
    shapes.append(_hline(s.M, xref, yref, color=_STORED))
    notes = [
        {
            "x": math.log10(x),
            "y": 0.99,
            "xref": xref,
            "yref": f"{yref} domain",
            "text": label,
            "showarrow": False,
            # the last line's label to its left: at the panel's right edge it would run into
            # the right axis's tick labels
            "xanchor": "right" if k == len(lines) - 1 else "left",
            "yanchor": "top",
            "font": {"size": 11},
        }
        for k, (x, label) in enumerate(lines)
    ]
    logb = np.log(np.asarray(s.betas, dtype=float))
    step = float(np.mean(np.diff(logb))) if logb.size > 1 else 1.0
    for lo, hi in _runs(np.asarray(s.global_window, dtype=bool)):
        pad = 0.25 * step if lo == hi else 0.0
        shapes.append(_vrect(math.exp(logb[lo] - pad), math.exp(logb[hi] + pad), xref, yref))
    return shapes, notes


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Inclusive index ranges of the True runs of a boolean array."""
    out, start = [], None
    for i, m in enumerate(mask):
        if m and start is None:
            start = i
        if not m and start is not None:
            out.append((start, i - 1))
            start = None
    if start is not None:
        out.append((start, len(mask) - 1))
    return out


def _vrect(x0: float, x1: float, xref: str, yref: str) -> dict:
    """A shaded band across a panel, behind the traces."""
    return {
        "type": "rect",
        "xref": xref,
        "yref": f"{yref} domain",
        "x0": x0,
        "x1": x1,
        "y0": 0,
        "y1": 1,
        "fillcolor": _WINDOW,
        "line": {"width": 0},
        "layer": "below",
    }
