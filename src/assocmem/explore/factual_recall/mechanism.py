"""Figures for the factual-recall section on the storage mechanism (paper Fig. 4, Fig. A.2).

Every function takes results of :mod:`assocmem.linear_memory.mechanism` (pre-binned histograms,
summary statistics) and returns a plotly figure; none computes model quantities. Scores are in
the Fig. 4 normalisation (non-target scores of unit variance). Targets are red, non-targets grey,
as in the paper. Multi-panel figures are laid out with axis domains (no ``make_subplots``).

Public functions
----------------
plot_score_histograms
    One load: target and non-target histograms of the trained and the Hebbian memory side by
    side, with √(2 log p) and E M_{p−1} and the summary read-outs (the exploration's figure).
plot_histogram_grid
    Fig. 4 layout: rows trained / Hebbian, one column per load.
plot_target_spread
    Target-score standard deviation and accuracy against α for one or more sweeps (check C18).
plot_extreme_value
    Mean target, mean strongest competitor, E M_{p−1} and √(2 log p) against α.
plot_row_view
    Fig. A.2: the aggregated histograms with the weakest target marked, that row's own p − 1
    competitors, and the per-row margins of both memories (note pitfall 11).
summary_table
    The note's §2.7 table for one or more sweeps, as a plotly table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance, check_option, check_positive_float
from assocmem.linear_memory.mechanism import ScoreMechanism, ScoreMechanismSweep

from .._checks import check_height, check_result_map, check_results
from .._layout import tidied
from .._tables import table_figure

__all__ = [
    "plot_extreme_value",
    "plot_histogram_grid",
    "plot_row_view",
    "plot_score_histograms",
    "plot_target_spread",
    "summary_table",
]

_TARGET, _NON_TARGET, _EV = "#d62728", "#7f7f7f", "#000000"
_SWEEP_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd")
_SHORT = {"original": "OP", "decoupled": "DP"}
_RULES = {"trained": "trained (CE + Adam)", "hebbian": "Hebbian"}
_X_RANGE = [-5.0, 9.0]
_EV_NAME, _EM_NAME = "√(2 log p)", "E M<sub>p−1</sub>"
# Figures shown with a slider keep their legend above the panels (the slider sits below).
_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.12, "yanchor": "bottom"}


def _axis(ref: str) -> str:
    """Layout key of an axis reference: "x2" -> "xaxis2", "y" -> "yaxis"."""
    return f"{ref[0]}axis{ref[1:]}"


def _grid(
    n_rows: int, n_cols: int, titles: Sequence[str], hspace: float = 0.07, vspace: float = 0.16
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Layout of an n_rows × n_cols grid (row-major) and its (x, y) axis refs."""
    width = (1.0 - hspace * (n_cols - 1)) / n_cols
    height = (1.0 - vspace * (n_rows - 1)) / n_rows
    layout: dict[str, Any] = {"shapes": [], "annotations": []}
    refs = []
    for k in range(n_rows * n_cols):
        r, c = divmod(k, n_cols)
        x0 = c * (width + hspace)
        y1 = 1.0 - r * (height + vspace)
        xr, yr = ("x", "y") if k == 0 else (f"x{k + 1}", f"y{k + 1}")
        layout[_axis(xr)] = {"domain": [max(0.0, x0), min(1.0, x0 + width)], "anchor": yr}
        layout[_axis(yr)] = {"domain": [max(0.0, y1 - height), min(1.0, y1)], "anchor": xr}
        if titles[k]:
            layout["annotations"].append({
                "text": titles[k], "x": x0 + width / 2, "y": y1, "xref": "paper",
                "yref": "paper", "xanchor": "center", "yanchor": "bottom", "showarrow": False,
                "font": {"size": 13},
            })
        refs.append((xr, yr))
    return layout, refs


def _density(counts: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Histogram counts as a probability density (area 1) for display."""
    total = max(int(counts.sum()), 1)
    return counts / (total * np.diff(edges))


def _bars(
    counts: np.ndarray, edges: np.ndarray, xr: str, yr: str, name: str, color: str,
    show: bool, density: bool = True,
) -> dict[str, Any]:
    """One pre-binned histogram as a bar trace (empty bins dropped to keep pages light)."""
    y = _density(counts, edges) if density else counts.astype(float)
    keep = counts > 0
    centres = 0.5 * (edges[:-1] + edges[1:])
    return {
        "type": "bar", "x": centres[keep], "y": y[keep], "width": np.diff(edges)[keep],
        "xaxis": xr, "yaxis": yr, "name": name, "legendgroup": name, "showlegend": show,
        "marker": {"color": color, "line": {"width": 0}}, "opacity": 0.6,
        "hovertemplate": f"{name}<br>score %{{x:.2f}}: %{{y:.3g}}<extra></extra>",
    }


def _vline(x: float, xr: str, yr: str, dash: str, color: str = _EV, top: float = 1.0
           ) -> dict[str, Any]:
    return {
        "type": "line", "x0": x, "x1": x, "y0": 0, "y1": top, "xref": xr, "yref": f"{yr} domain",
        "line": {"dash": dash, "color": color, "width": 1.5},
    }


def _vlabel(x: float, xr: str, yr: str, text: str, y: float, left: bool) -> dict[str, Any]:
    return {
        "text": text, "x": x, "y": y, "xref": xr, "yref": f"{yr} domain", "showarrow": False,
        "xanchor": "right" if left else "left", "xshift": -3 if left else 3,
        "font": {"size": 11},
    }


def _line_key(name: str, dash: str, color: str = _EV) -> dict[str, Any]:
    """A legend entry for lines drawn as shapes: the line's dash and colour, no data."""
    return {
        "type": "scatter", "x": [None], "y": [None], "mode": "lines", "name": name,
        "line": {"dash": dash, "color": color, "width": 1.5}, "hoverinfo": "skip",
        "showlegend": True,
    }


def _headroom(traces: Sequence[dict[str, Any]], yr: str, free: float) -> list[float]:
    """y range of one panel that leaves its top fraction ``free`` above the tallest bar."""
    tallest = max((float(np.max(t["y"])) for t in traces
                   if t.get("yaxis") == yr and len(t["y"])), default=1.0)
    return [0.0, tallest / (1.0 - free)]


def _readout(summary: Any, xr: str, yr: str) -> dict[str, Any]:
    """Summary statistics of one memory, printed in the top-left corner of its panel."""
    text = (
        f"accuracy {summary.accuracy:.3f}<br>"
        f"target {summary.target_mean:.2f} ± {summary.target_std:.2f}<br>"
        f"non-target {summary.non_target_mean:+.3f} ± {summary.non_target_std:.2f}<br>"
        f"mean row max {summary.row_max_mean:.2f}"
    )
    return {
        # in the panel's top-left corner, above the bars (``_headroom`` keeps that band free)
        "text": text, "x": 0.02, "y": 1.0, "xref": f"{xr} domain", "yref": f"{yr} domain",
        "xanchor": "left", "yanchor": "top", "align": "left", "showarrow": False,
        "font": {"size": 11},
    }


def _histogram_panel(
    result: Any, rule: str, xr: str, yr: str, layout: dict[str, Any], show: bool,
    readout: bool = True,
) -> list[dict[str, Any]]:
    """Target/non-target density bars of one memory with the two extreme-value lines."""
    s = getattr(result, rule)
    traces = [
        _bars(s.non_target_counts, s.bin_edges, xr, yr, "non-target (ρ ≠ μ)", _NON_TARGET, show),
        _bars(s.target_counts, s.bin_edges, xr, yr, "target (ρ = μ)", _TARGET, show),
    ]
    # the four lines of the read-out need the top 40 % of a panel, clear of bars and lines
    free = 0.4 if readout else 0.05
    top = 1.0 - free if readout else 1.0
    layout["shapes"] += [
        _vline(result.extreme_value, xr, yr, "dash", top=top),
        _vline(result.expected_max, xr, yr, "dot", top=top),
    ]
    if readout:
        layout["annotations"].append(_readout(s, xr, yr))
    layout[_axis(yr)].update(range=_headroom(traces, yr, free))
    layout[_axis(xr)].update(range=_X_RANGE, title={"text": "normalised score"})
    if show:
        traces += [_line_key(_EV_NAME, "dash"), _line_key(_EM_NAME, "dot")]
    return traces


def _setting(result: Any) -> str:
    return f"{_SHORT[result.problem]}, d = {result.d}, α = {result.alpha_eff:.2f} (p = {result.p})"


@tidied
def plot_score_histograms(result: Any, height: int = 420) -> go.Figure:
    """Target and non-target score histograms, trained against Hebbian, at one load (Fig. 4).

    Parameters
    ----------
    result : ScoreMechanism
        From :func:`assocmem.linear_memory.score_mechanism`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Two panels (trained, Hebbian): density of the target (red) and non-target (grey) scores,
        a dashed line at √(2 log p), a dotted line at E M_{p−1}, and the read-outs (accuracy,
        target and non-target mean ± std, mean strongest competitor).
    """
    check_instance(result, "result", ScoreMechanism)
    height = check_height(height)
    titles = [f"{_RULES['trained']}: {_setting(result)}", f"{_RULES['hebbian']}, same instance"]
    layout, refs = _grid(1, 2, titles, hspace=0.08)
    traces = []
    for k, (rule, (xr, yr)) in enumerate(zip(("trained", "hebbian"), refs, strict=True)):
        traces += _histogram_panel(result, rule, xr, yr, layout, show=k == 0)
    layout[_axis(refs[0][1])].update(title={"text": "density"})
    layout.update(height=height, barmode="overlay", legend=_TOP_LEGEND, margin={"t": 90, "b": 50})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_histogram_grid(results: Sequence[Any], height: int = 560) -> go.Figure:
    """The layout of Fig. 4: rows trained / Hebbian, one column per load.

    Parameters
    ----------
    results : sequence of ScoreMechanism
        One per load (e.g. α = 0.2, 0.5, 1.2 as in the paper), same problem and d.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        2 × n panels of target (red) and non-target (grey) densities with √(2 log p) (dashed)
        and E M_{p−1} (dotted); panel titles give α, p and the accuracy.
    """
    results = check_results(results, "results", ScoreMechanism, single=False)
    height = check_height(height)
    n = len(results)
    titles = [
        f"{lab}, α = {r.alpha_eff:.2f}<br>p = {r.p}, accuracy {getattr(r, rule).accuracy:.2f}"
        for rule, lab in (("trained", "trained"), ("hebbian", "Hebbian")) for r in results
    ]
    layout, refs = _grid(2, n, titles, hspace=0.05, vspace=0.2)
    traces = []
    for k, (xr, yr) in enumerate(refs):
        row, col = divmod(k, n)
        rule = ("trained", "hebbian")[row]
        traces += _histogram_panel(results[col], rule, xr, yr, layout, show=k == 0,
                                   readout=False)
        if col == 0:
            layout[_axis(yr)].update(title={"text": f"density ({_RULES[rule].split()[0]})"})
        if row == 0:
            layout[_axis(xr)].update(title={"text": ""})
    first = results[0]
    layout.update(
        height=height, barmode="overlay", legend=_TOP_LEGEND, margin={"t": 100, "b": 50},
        title={"text": f"{_SHORT[first.problem]}, d = {first.d}, normalised as in Fig. 4"},
    )
    return go.Figure(data=traces, layout=layout)


def _line(x: Any, y: Any, xr: str, yr: str, name: str, color: str, dash: str = "solid",
          show: bool = True, group: str | None = None) -> dict[str, Any]:
    return {
        "type": "scatter", "x": x, "y": y, "xaxis": xr, "yaxis": yr, "name": name,
        "mode": "lines+markers" if dash == "solid" else "lines", "showlegend": show,
        "legendgroup": group or name, "line": {"color": color, "dash": dash},
        "hovertemplate": f"{name}<br>α = %{{x:.3f}}: %{{y:.3f}}<extra></extra>",
    }


@tidied
def plot_target_spread(
    sweeps: Mapping[str, Any], std_bound: float | None = 0.6, height: int = 420
) -> go.Figure:
    """Target-score spread and accuracy against the load (check C18, Fig. 4 / Fig. D.1).

    Parameters
    ----------
    sweeps : mapping of str to ScoreMechanismSweep
        Label (e.g. "OP d = 60") to a sweep from
        :func:`assocmem.linear_memory.score_mechanism_sweep`.
    std_bound : float or None
        Draw a horizontal reference line at this standard deviation (the note's C18 bound 0.6).
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: standard deviation of the normalised target scores, trained (solid) and Hebbian
        (dotted). Right: accuracy of both. A vertical line marks the asymptotic α_c = 1/2.
    """
    sweeps = check_result_map(sweeps, "sweeps", ScoreMechanismSweep)
    std_bound = None if std_bound is None else check_positive_float(std_bound, "std_bound")
    height = check_height(height)
    layout, refs = _grid(1, 2, ["target-score std (Fig. 4 units)", "accuracy"], hspace=0.1)
    (x1, y1), (x2, y2) = refs
    traces = []
    for i, (label, sw) in enumerate(sweeps.items()):
        color = _SWEEP_COLORS[i % len(_SWEEP_COLORS)]
        a = sw.alpha_eff
        for rule, dash in (("trained", "solid"), ("hebbian", "dot")):
            name = f"{label}, {'Hebbian' if rule == 'hebbian' else rule}"
            traces.append(_line(a, sw.stat(rule, "target_std"), x1, y1, name, color, dash))
            traces.append(_line(a, sw.stat(rule, "accuracy"), x2, y2, name, color, dash,
                                show=False))
    for xr, yr in refs:
        layout["shapes"].append(_vline(0.5, xr, yr, "dash", "grey"))
        layout["annotations"].append(_vlabel(0.5, xr, yr, "α<sub>c</sub> = 1/2", 0.05, left=False))
        layout[_axis(xr)].update(title={"text": "load α = p ln p / d²"})
    if std_bound is not None:
        layout["shapes"].append({
            "type": "line", "x0": 0, "x1": 1, "y0": std_bound, "y1": std_bound,
            "xref": f"{x1} domain", "yref": y1, "line": {"dash": "dot", "color": "grey"},
        })
    layout[_axis(y1)].update(rangemode="tozero", title={"text": "std of s<sub>μμ</sub> / σ"})
    layout[_axis(y2)].update(range=[0, 1.05])
    layout.update(height=height, legend=_TOP_LEGEND, margin={"t": 100, "b": 50})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_extreme_value(sweep: Any, height: int = 420) -> go.Figure:
    """Where the targets sit: mean target and strongest competitor against √(2 log p), E M_{p−1}.

    Parameters
    ----------
    sweep : ScoreMechanismSweep
        From :func:`assocmem.linear_memory.score_mechanism_sweep`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Against α: the trained mean target (red, ±1 std band) and mean row maximum (grey), the
        same for the Hebbian memory (dotted), E M_{p−1} (black dotted) and √(2 log p) (black
        dashed).
    """
    check_instance(sweep, "sweep", ScoreMechanismSweep)
    height = check_height(height)
    a = sweep.alpha_eff
    mean, std = sweep.stat("trained", "target_mean"), sweep.stat("trained", "target_std")
    ev, em = sweep.extreme_value, sweep.expected_max
    traces = [
        {"type": "scatter", "x": np.concatenate([a, a[::-1]]),
         "y": np.concatenate([mean + std, (mean - std)[::-1]]), "fill": "toself",
         "fillcolor": "rgba(214, 39, 40, 0.15)", "line": {"width": 0}, "hoverinfo": "skip",
         "mode": "lines",
         "showlegend": False, "legendgroup": "trained target"},
        _line(a, mean, "x", "y", "trained: mean target", _TARGET, group="trained target"),
        _line(a, sweep.stat("trained", "row_max_mean"), "x", "y", "trained: mean row max",
              _NON_TARGET),
        _line(a, sweep.stat("hebbian", "target_mean"), "x", "y", "Hebbian: mean target",
              _TARGET, "dot"),
        _line(a, sweep.stat("hebbian", "row_max_mean"), "x", "y", "Hebbian: mean row max",
              _NON_TARGET, "dot"),
        _line(a, em, "x", "y", "E M<sub>p−1</sub> (i.i.d. Gaussians)", _EV, "dot"),
        _line(a, ev, "x", "y", "√(2 log p) (paper §3.3)", _EV, "dash"),
    ]
    layout = {
        "height": height, "legend": {**_TOP_LEGEND, "y": 1.02},
        "margin": {"t": 120, "b": 50},
        "title": {"text": f"{_SHORT[sweep.problem]}, d = {sweep.d}"},
        "xaxis": {"title": {"text": "load α = p ln p / d²"}},
        "yaxis": {"title": {"text": "normalised score"}},
    }
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_row_view(result: Any, rule: str = "trained", height: int = 460) -> go.Figure:
    """Fig. A.2: one row's target against its own competitors, beside the aggregated view.

    Parameters
    ----------
    result : ScoreMechanism
        From :func:`assocmem.linear_memory.score_mechanism`; its ``trained_row`` /
        ``hebbian_row`` is the row with the smallest target.
    rule : {"trained", "hebbian"}
        Which memory's aggregated histogram and row to show.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: aggregated target/non-target densities with that row's target (red line) and the
        fraction of all non-target scores above it. Middle: the row's p − 1 competitors (counts),
        its target (red) and their maximum (black dash-dotted). Right: the margins
        target − row max of all rows, trained and Hebbian; a fact is recalled iff its margin > 0.
    """
    check_instance(result, "result", ScoreMechanism)
    rule = check_option(rule, "rule", tuple(_RULES))
    height = check_height(height)
    view = getattr(result, f"{rule}_row")
    verdict = "recalled" if view.recalled else "not recalled"
    layout, refs = _grid(1, 3, [
        f"all rows ({_RULES[rule]})",
        f"row μ = {view.row} alone: {verdict}",
        "margins s<sub>μμ</sub> − max<sub>ρ≠μ</sub> s<sub>μρ</sub> (÷ σ)",
    ], hspace=0.07)
    (x1, y1), (x2, y2), (x3, y3) = refs
    traces = _histogram_panel(result, rule, x1, y1, layout, show=True, readout=False)
    layout["shapes"].append(_vline(view.target, x1, y1, "solid", _TARGET))
    traces.append(_bars(view.counts, view.bin_edges, x2, y2, "its p − 1 competitors",
                        _NON_TARGET, False, density=False))
    layout["shapes"] += [_vline(view.target, x2, y2, "solid", _TARGET),
                         _vline(view.row_max, x2, y2, "dashdot")]
    traces += [_line_key(f"that row's target ({view.target:.2f})", "solid", _TARGET),
               _line_key(f"its strongest competitor ({view.row_max:.2f})", "dashdot")]
    for r, dash_color in (("trained", "#1f77b4"), ("hebbian", "#ff7f0e")):
        s = getattr(result, r)
        traces.append({
            "type": "histogram", "x": s.margins, "xaxis": x3, "yaxis": y3,
            "name": f"{_RULES[r].split()[0]} margins (acc {s.accuracy:.2f})", "opacity": 0.6,
            "marker": {"color": dash_color}, "xbins": {"size": 0.2},
        })
    layout["shapes"].append(_vline(0.0, x3, y3, "solid"))
    layout[_axis(x1)].update(title={"text": "normalised score"})
    layout[_axis(x2)].update(range=[-4.5, max(4.5, view.target + 0.5)],
                             title={"text": "normalised score"})
    layout[_axis(x3)].update(title={"text": "margin"})
    layout[_axis(y1)].update(title={"text": "density"})
    layout[_axis(y2)].update(title={"text": "count"})
    layout[_axis(y3)].update(title={"text": "number of facts"})
    title = (f"{_setting(result)}: the weakest target (red line, {view.target:.2f}) lies below "
             f"{100 * view.aggregate_above:.1f} % of all non-target scores")
    layout.update(height=height, barmode="overlay", legend={**_TOP_LEGEND, "y": 1.1},
                  margin={"t": 120, "b": 50}, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def summary_table(sweeps: Mapping[str, Any]) -> go.Figure:
    """The note's §2.7 table (normalised-score statistics) for one or more sweeps.

    Parameters
    ----------
    sweeps : mapping of str to ScoreMechanismSweep
        Label to sweep.

    Returns
    -------
    plotly.graph_objects.Figure
        One row per (sweep, load): α, p, then for the trained and the Hebbian memory the
        accuracy, target mean and std, the mean row maximum and the fraction of non-target
        scores above 3 (per mille); then E M_{p−1} and √(2 log p).
    """
    sweeps = check_result_map(sweeps, "sweeps", ScoreMechanismSweep)
    header = ["setting", "α", "p", "acc", "target mean", "target std", "row max",
              "tail > 3 (‰)", "Hebb acc", "Hebb target mean", "Hebb target std",
              "Hebb row max", "Hebb tail > 3 (‰)", "E M<sub>p−1</sub>", "√(2 log p)"]
    rows: list[list[str]] = []
    for label, sw in sweeps.items():
        for r in sw.results:
            t, h = r.trained, r.hebbian
            rows.append([
                label, f"{r.alpha_eff:.2f}", str(r.p), f"{t.accuracy:.3f}",
                f"{t.target_mean:.2f}", f"{t.target_std:.2f}", f"{t.row_max_mean:.2f}",
                f"{1e3 * t.non_target_tail:.2f}", f"{h.accuracy:.3f}", f"{h.target_mean:.2f}",
                f"{h.target_std:.2f}", f"{h.row_max_mean:.2f}", f"{1e3 * h.non_target_tail:.2f}",
                f"{r.expected_max:.2f}", f"{r.extreme_value:.2f}",
            ])
    columns = [list(c) for c in zip(*rows, strict=True)] if rows else [[] for _ in header]
    widths = [2.5, 0.9, 0.9] + [1.0] * (len(header) - 5) + [1.2, 2.1]
    return table_figure(header, columns, columnwidth=widths,
                        header_style={"fill_color": "#e8e8e8"})
