"""Figures for the first sections of the factual-recall chapter: scores, counting, first moments.

Every function takes result objects from :mod:`assocmem.linear_memory` (``toy`` and ``volume``)
and returns a plotly figure; none computes model quantities. The static book figure, the live
widget and the tests call the same functions. Panels are laid out with axis domains (no
``make_subplots``), and figures shown with a book slider keep their legend at the top.

Public functions
----------------
plot_score_maps
    Heat-maps of the score matrix s_μρ = u_ρᵀ W e_μ (row = input, column = candidate) for one or
    more :class:`~assocmem.linear_memory.ScoreSnapshot`, with the retrieved output of every row.
plot_counting_curve
    p_c(α, d) against d on log axes, with the naive d² and the log₂ misreading, and the bits
    per entry of W (:class:`~assocmem.linear_memory.CountingCurve`).
plot_load_table
    The p(α, d) table (:class:`~assocmem.linear_memory.LoadTable`), cells that differ from a
    reference table in red.
plot_first_moments
    Monte-Carlo first moments E V_OP and E V_DP divided by p^(-p), with error bars, for one or
    more :class:`~assocmem.linear_memory.FirstMomentPair`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import as_real_array, check_instance
from assocmem.linear_memory.toy import CountingCurve, LoadTable, ScoreSnapshot
from assocmem.linear_memory.volume import FirstMomentPair

from .._checks import check_height, check_results
from .._layout import tidied
from .._tables import table_figure

__all__ = ["plot_counting_curve", "plot_first_moments", "plot_load_table", "plot_score_maps"]

_OP, _DP, _NAIVE, _LOG2 = "#1f77b4", "#d62728", "#7f7f7f", "#ff7f0e"
_OK, _BAD = "#2ca02c", "black"
_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.02, "yanchor": "bottom"}
# Colour range of the score heat-maps in units of the non-target standard deviation: fixed, so
# that colours compare between panels and slider steps (larger scores saturate).
_SCORE_RANGE = 4.0
_PROBLEM_NAME = {"original": "original problem (1)", "decoupled": "decoupled problem (2)"}


def _axis(ref: str) -> str:
    """Layout key of an axis reference: "x2" -> "xaxis2"."""
    return ref[0] + "axis" + ref[1:]


@tidied
def plot_score_maps(snapshots: Any, height: int | None = None) -> go.Figure:
    """Heat-maps of the score matrix, eq. (1): rows are inputs μ, columns candidates ρ.

    Parameters
    ----------
    snapshots : ScoreSnapshot or sequence of ScoreSnapshot
        From :func:`assocmem.linear_memory.score_snapshot`, drawn side by side (best for
        p <= 30).
    height : int, optional
        Figure height in pixels (default 460 for one panel, 400 for several).

    Returns
    -------
    plotly.graph_objects.Figure
        Per panel: s_μρ / σ (σ the non-target standard deviation) on a red-blue scale fixed at
        ±4; the target of every row is on the diagonal. A green circle marks each row whose
        argmax is its target, a black cross the wrong output retrieved instead.
    """
    items = check_results(snapshots, "snapshots", ScoreSnapshot)
    height = check_height(height, optional=True)
    n = len(items)
    gap = 0.06
    width = (1.0 - gap * (n - 1)) / n
    layout: dict[str, Any] = {"annotations": [], "shapes": []}
    traces: list[go.BaseTraceType] = []
    for i, snap in enumerate(items):
        xref, yref = ("x", "y") if i == 0 else (f"x{i + 1}", f"y{i + 1}")
        left = i * (width + gap)
        idx = np.arange(1, snap.p + 1)
        # Explicit ranges (row 1 on top) travel with every slider step, whatever p is.
        layout[_axis(xref)] = {
            "domain": [left, left + width], "anchor": yref, "constrain": "domain",
            "range": [0.5, snap.p + 0.5], "title": {"text": "candidate output ρ"},
            "showgrid": False, "zeroline": False,
        }
        layout[_axis(yref)] = {
            "anchor": xref, "range": [snap.p + 0.5, 0.5], "scaleanchor": xref,
            "constrain": "domain", "title": {"text": "input μ" if i == 0 else ""},
            "showgrid": False, "zeroline": False,
        }
        traces.append(go.Heatmap(
            z=snap.normalised, x=idx, y=idx, xaxis=xref, yaxis=yref, colorscale="RdBu_r",
            zmin=-_SCORE_RANGE, zmax=_SCORE_RANGE, showscale=i == n - 1,
            colorbar={"title": {"text": "s / σ"}, "len": 0.8},
            hovertemplate="input μ = %{y}, candidate ρ = %{x}<br>s/σ = %{z:.2f}<extra></extra>",
        ))
        hit = snap.predicted == np.arange(snap.p)
        for mask, name, symbol, color in (
            (hit, "retrieved = target", "circle-open", _OK),
            (~hit, "retrieved ≠ target", "x-thin-open", _BAD),
        ):
            traces.append(go.Scatter(
                x=snap.predicted[mask] + 1, y=idx[mask], xaxis=xref, yaxis=yref, mode="markers",
                name=name, legendgroup=name, showlegend=i == 0,
                marker={"symbol": symbol, "color": color, "size": 9, "line": {"width": 2}},
                hovertemplate="input μ = %{y} retrieves ρ = %{x}<extra></extra>",
            ))
        layout["annotations"].append({
            "text": f"{snap.label}<br>{round(snap.accuracy * snap.p)}/{snap.p} facts recalled",
            "x": left + width / 2, "y": 1.0, "xref": "paper", "yref": "paper",
            "xanchor": "center", "yanchor": "bottom", "showarrow": False, "font": {"size": 13},
        })
    first = items[0]
    layout.update(
        title={"text": f"d = {first.d}, p = {first.p}, α = {first.alpha:.2f}, "
                       f"{_PROBLEM_NAME[first.problem]}"},
        height=height or (460 if n == 1 else 400),
        legend={**_TOP_LEGEND, "y": 1.16}, margin={"t": 120, "b": 40}, plot_bgcolor="white",
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_counting_curve(curve: Any) -> go.Figure:
    """Number of facts p(α, d) against d, next to the naive d² (eqs. (3), (5); §5.1).

    Parameters
    ----------
    curve : CountingCurve
        From :func:`assocmem.linear_memory.counting_curve`.

    Returns
    -------
    plotly.graph_objects.Figure
        Log-log axes: p from p ln p = α d² (solid), the naive p = d² (dashed) and the log₂
        misreading p log₂ p = α d² (dotted). The title gives the bits per entry of W, α / ln 2.
    """
    check_instance(curve, "curve", CountingCurve)
    d = np.asarray(curve.d)
    ratio = np.asarray(curve.p) / np.asarray(curve.naive)
    traces = [
        go.Scatter(
            x=d, y=curve.naive, mode="lines", name="naive: p = d² (one fact per entry)",
            line={"color": _NAIVE, "dash": "dash"},
            hovertemplate="d = %{x}<br>d² = %{y}<extra></extra>",
        ),
        go.Scatter(
            x=d, y=curve.p, mode="lines+markers", name=f"p ln p = α d², α = {curve.alpha:.3g}",
            line={"color": _OP}, marker={"size": 5},
            customdata=np.column_stack([curve.alpha_eff, ratio]),
            hovertemplate="d = %{x}, p = %{y}<br>effective α = %{customdata[0]:.3f}"
                          "<br>p / d² = %{customdata[1]:.3f}<extra></extra>",
        ),
        go.Scatter(
            x=d, y=curve.p_log2, mode="lines", name="p log₂ p = α d² (log₂ by mistake)",
            line={"color": _LOG2, "dash": "dot"},
            hovertemplate="d = %{x}, p = %{y}<extra></extra>",
        ),
    ]
    layout = {
        "title": {"text": f"α = {curve.alpha:.3g}: p log₂ p / d² = α / ln 2 = "
                          f"{curve.bits_per_entry:.2f} bits per entry of W; "
                          f"p / d² = {ratio[-1]:.3f} at d = {d[-1]}"},
        "xaxis": {"type": "log", "title": {"text": "dimension d"},
                  "range": [float(np.log10(d[0])), float(np.log10(d[-1]))]},
        "yaxis": {"type": "log", "title": {"text": "number of facts p"},
                  "range": [0.0, float(np.log10(curve.naive[-1])) + 0.1]},
        "height": 430, "legend": _TOP_LEGEND, "margin": {"t": 110},
    }
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_load_table(table: Any, reference: Any = None) -> go.Figure:
    """The table of p(α, d) (note §3), cells that differ from ``reference`` in red.

    Parameters
    ----------
    table : LoadTable
        From :func:`assocmem.linear_memory.load_table`.
    reference : array_like of int, shape (n_d, n_alpha), optional
        Values to compare with (the note's table).

    Returns
    -------
    plotly.graph_objects.Figure
        A table: one row per d, one column per α.
    """
    check_instance(table, "table", LoadTable)
    p = np.asarray(table.p)
    if reference is not None:
        reference = as_real_array(reference, "reference", ndim=2)
        if reference.shape != p.shape:
            raise ValueError(f"reference must have shape {p.shape}, got {reference.shape}")
    differs = np.zeros(p.shape, dtype=bool) if reference is None else p != reference
    fill = np.where(differs, "#f4a6a6", "white").T.tolist()
    header = ["d \\ α", *(f"{a:.4g}" for a in table.alphas)]
    cells = [list(map(str, table.ds)), *[list(map(str, col)) for col in p.T]]
    return table_figure(
        header, cells, header_style={"fill_color": "#e8e8e8", "align": "center"},
        cell_style={"fill_color": [["#e8e8e8"] * len(table.ds), *fill], "align": "center"},
    )


@tidied
def plot_first_moments(pairs: Any) -> go.Figure:
    """First moments E V_OP, E V_DP divided by p^(-p), with ±2 standard errors (App. B, §5.1).

    Parameters
    ----------
    pairs : FirstMomentPair or sequence of FirstMomentPair
        From :func:`assocmem.linear_memory.first_moment_pair`.

    Returns
    -------
    plotly.graph_objects.Figure
        One category per (d, p); OP (blue) and DP (red) estimates of E V · p^p with ±2 s.e. error
        bars; the dashed line at 1 is p^(-p), exact for DP. A single pair (one slider step) is
        described in the title instead of a tick label.
    """
    items = check_results(pairs, "pairs", FirstMomentPair)
    labels = [f"d = {pr.d}, p = {pr.p}" for pr in items]
    traces = []
    for attr, name, color, shift in (("original", "original (OP)", _OP, -0.08),
                                     ("decoupled", "decoupled (DP)", _DP, 0.08)):
        fms = [getattr(pr, attr) for pr in items]
        ratio = np.array([fm.ratio for fm in fms])
        err = np.array([2.0 * fm.stderr / fm.decoupled_value for fm in fms])
        traces.append(go.Scatter(
            x=np.arange(len(items)) + shift, y=ratio, mode="markers", name=name,
            marker={"color": color, "size": 10},
            error_y={"type": "data", "array": err, "visible": True, "color": color},
            customdata=np.column_stack([[fm.estimate for fm in fms], [fm.stderr for fm in fms],
                                        [fm.decoupled_value for fm in fms],
                                        [fm.draws for fm in fms]]),
            hovertemplate="E V = %{customdata[0]:.5f} ± %{customdata[1]:.5f}<br>"
                          "p⁻ᵖ = %{customdata[2]:.5f}, %{customdata[3]} draws<extra></extra>",
        ))
    # the dashed line at 1 is named in the legend: a label on it would meet the DP markers
    traces.append(go.Scatter(x=[None], y=[None], mode="lines", name="p⁻ᵖ: exact for DP (§5.1)",
                             line={"color": "black", "dash": "dash"}, hoverinfo="skip"))
    # One pair (a slider step): its (d, p) and estimates go to the title, which every step
    # updates; tick labels would stay those of the first step.
    single = len(items) == 1
    title = None
    if single:
        pr = items[0]
        title = (f"d = {pr.d}, p = {pr.p}: E V<sub>OP</sub> = {pr.original.estimate:.2e}, "
                 f"E V<sub>DP</sub> = {pr.decoupled.estimate:.2e}, "
                 f"p⁻ᵖ = {pr.original.decoupled_value:.2e}")
    layout = {
        "title": {"text": title},
        "xaxis": {"tickmode": "array", "tickvals": list(range(len(items))), "ticktext": labels,
                  "showticklabels": not single, "range": [-0.6, len(items) - 0.4]},
        "yaxis": {"title": {"text": "E V · pᵖ  (1 = p⁻ᵖ)"}, "range": [0.0, 1.4]},
        "shapes": [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 1.0, "y1": 1.0,
                    "line": {"color": "black", "dash": "dash"}}],
        "height": 400, "legend": _TOP_LEGEND, "margin": {"t": 90 if single else 60},
    }
    return go.Figure(data=traces, layout=layout)

