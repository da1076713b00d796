"""Figures for the factual-recall section on the Hebbian memory (paper §4, App. D).

Every function takes result objects from :mod:`assocmem.linear_memory.hebbian` and returns a
plotly figure; none computes model quantities. Multi-panel figures are laid out with axis
domains (the helpers of :mod:`assocmem.explore._panels`), not ``make_subplots``, because the
explorations build dozens of them.

Public functions
----------------
plot_score_histogram
    Normalised target (red) and non-target (grey) score histograms with the paper's and the
    finite-d Gaussians and the extreme-value line √(2 ln p) (Fig. D.1; exploration).
plot_rate_curves
    inf J_α, the expected number of errors p^(1 − inf J) against the finite-p model, and the
    model's accuracy and P(all correct), against α (Thm D.1; exploration).
plot_model_vs_simulation
    Simulated Hebbian accuracy and fraction of all-correct instances against the
    independent-Gaussian model with its three variance choices.
plot_model_table
    The note's model-vs-simulation table next to ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.linear_memory.hebbian import HebbianHistogram, HebbianRateCurve, HebbianSweep

from .._checks import check_results, check_row_map, check_strings
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _positive_or_none, _vline
from .._tables import table_figure

__all__ = [
    "MODEL_STYLES",
    "plot_model_table",
    "plot_model_vs_simulation",
    "plot_rate_curves",
    "plot_score_histogram",
]

_TARGET, _OTHER, _EV = "#d62728", "#7f7f7f", "black"
_P_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b")
_D_COLORS = {50: "#1f77b4", 100: "#d62728", 200: "#2ca02c", 400: "#9467bd", 800: "#ff7f0e"}
# Legend above the panels: the book's slider sits below the x axis.
_TOP_LEGEND = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 1.08, "yanchor": "bottom"}
# Right-aligned, leaving the top-left corner to an exploration's dropdown menu.
_RIGHT_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.02, "yanchor": "bottom"}

#: Line style and legend label of each variance model of ``linear_memory.MODELS``.
MODEL_STYLES = {
    "row": ("solid", "model, row variances p/d² + 2/d (ours)"),
    "finite_d": ("dash", "model, p/d² + 2/d, + 4/d (finite d)"),
    "leading": ("dot", "model, p/d² (eq. D.3)"),
}


def _note(text: str, x: float, xref: str, yref: str, y: float = 0.99) -> dict[str, Any]:
    return {
        "x": x, "y": y, "xref": xref, "yref": f"{yref} domain", "text": text,
        "showarrow": False, "xanchor": "left", "yanchor": "top", "font": {"size": 11},
    }


@tidied
def plot_score_histogram(hist: Any) -> go.Figure:
    """Hebbian target and non-target scores in units of the non-target std (Fig. D.1).

    Parameters
    ----------
    hist : HebbianHistogram
        From :func:`assocmem.linear_memory.hebbian_histogram`.

    Returns
    -------
    plotly.graph_objects.Figure
        Bars (pre-binned densities): non-target grey, target red. Curves: N(0, 1) (grey),
        the paper's target law N(√(ln p/α), 1) (red dotted) and the finite-d law (red solid).
        A dashed line marks √(2 ln p), the typical maximum of the p − 1 competitors.
    """
    check_instance(hist, "hist", HebbianHistogram)
    h = hist
    centres = 0.5 * (h.edges[1:] + h.edges[:-1])
    width = float(h.edges[1] - h.edges[0])
    traces = [
        go.Bar(x=centres, y=h.non_target_density, width=width, name="non-target",
               marker={"color": _OTHER}, opacity=0.55,
               hovertemplate="%{x:.2f}: density %{y:.3f}<extra>non-target</extra>"),
        go.Bar(x=centres, y=h.target_density, width=width, name=f"target (p = {h.p})",
               marker={"color": _TARGET}, opacity=0.55,
               hovertemplate="%{x:.2f}: density %{y:.3f}<extra>target</extra>"),
        go.Scatter(x=h.grid, y=h.non_target_pdf, mode="lines", name="N(0, 1)",
                   line={"color": _OTHER, "width": 1.5}, hoverinfo="skip"),
        go.Scatter(x=h.grid, y=h.paper_target_pdf, mode="lines",
                   name=f"paper N(√(ln p/α), 1): mean {h.paper_target_mean:.2f}",
                   line={"color": _TARGET, "dash": "dot", "width": 2}, hoverinfo="skip"),
        go.Scatter(x=h.grid, y=h.finite_d_target_pdf, mode="lines",
                   name=f"finite d (ours): mean {h.finite_d_target_mean:.2f}, "
                        f"std {h.finite_d_target_std:.2f}",
                   line={"color": _TARGET, "width": 1.5}, hoverinfo="skip"),
    ]
    status = "all recalled" if h.all_correct else "not all recalled"
    layout = {
        "barmode": "overlay", "height": 450, "legend": _RIGHT_LEGEND,
        "margin": {"t": 140, "b": 50},
        "title": {"text": f"d = {h.d}, α = {h.alpha_eff:.3f}: accuracy {h.accuracy:.3f} "
                          f"({status})", "x": 0.5, "y": 0.97},
        "xaxis": {"title": {"text": "score / std of the non-target scores"},
                  "range": [float(h.edges[0]), float(h.edges[-1])]},
        "yaxis": {"title": {"text": "density"}},
        "shapes": [_vline(h.extreme_value, "x", "y", dash="dash", color=_EV)],
        "annotations": [_note(f"√(2 ln p) = {h.extreme_value:.2f}", h.extreme_value, "x", "y")],
    }
    return go.Figure(data=traces, layout=layout)


def _threshold_marks(xref: str, yref: str, log_x: bool = False) -> tuple[list, list]:
    shapes = [_vline(0.125, xref, yref, color=_TARGET), _vline(0.5, xref, yref)]
    pos = (np.log10(0.125), np.log10(0.5)) if log_x else (0.125, 0.5)
    notes = [_note("1/8", pos[0], xref, yref), _note("1/2", pos[1], xref, yref)]
    return shapes, notes


@tidied
def plot_rate_curves(curves: Any) -> go.Figure:
    """Thm D.1 against α: rate, expected errors and the finite-p model.

    Parameters
    ----------
    curves : HebbianRateCurve or sequence of HebbianRateCurve
        From :func:`assocmem.linear_memory.hebbian_rate_curve`, one per p (same α grid).

    Returns
    -------
    plotly.graph_objects.Figure
        Left: inf_x J_α (log scale; 0 above α = 1/2 is not drawn) with the level 1 of Thm D.1.
        Middle: expected number of errors, p^(1 − inf J) (solid) and the finite-p model
        p P[E_1^c] (dashed), log scale, with the level of one error. Right: the model's accuracy
        (solid) and P(all correct) (dashed), with a marker where P(all correct) = 1/2. Dotted
        lines at α = 1/8 (first error) and 1/2 (accuracy collapse).
    """
    items = check_results(curves, "curves", HebbianRateCurve)
    layout, ((x1, y1, _), (x2, y2, _), (x3, y3, _)) = _panels(
        ["inf J<sub>α</sub> (Thm D.1)", "expected number of errors",
         "model accuracy, P(all) (dashed)"],
        spacing=0.08,
    )
    c0 = items[0]
    traces: list[dict[str, Any]] = [{
        "type": "scatter", "x": c0.alpha, "y": _positive_or_none(c0.inf_J), "xaxis": x1,
        "yaxis": y1, "mode": "lines", "name": "inf J<sub>α</sub>", "line": {"color": "black"},
        "showlegend": False,
        "hovertemplate": "α = %{x:.3f}: inf J<sub>α</sub> = %{y:.3g}<extra></extra>",
    }]
    for i, c in enumerate(items):
        color = _P_COLORS[i % len(_P_COLORS)]
        tag = f"p = {c.p:.0e}".replace("e+0", "e").replace("e+", "e")
        common = {"mode": "lines", "legendgroup": tag}
        traces += [
            {"type": "scatter", "x": c.alpha, "y": c.expected_errors, "xaxis": x2, "yaxis": y2,
             "name": f"{tag}: p<sup>1 − inf J</sup>", "line": {"color": color}, **common},
            {"type": "scatter", "x": c.alpha, "y": _positive_or_none(c.model_expected_errors),
             "xaxis": x2, "yaxis": y2, "name": f"{tag}: model p·P[error]",
             "line": {"color": color, "dash": "dash"}, **common},
            {"type": "scatter", "x": c.alpha, "y": 1.0 - c.model_error, "xaxis": x3, "yaxis": y3,
             "name": f"{tag}: model accuracy", "line": {"color": color}, "showlegend": False,
             **common},
            {"type": "scatter", "x": c.alpha, "y": c.model_all_correct, "xaxis": x3,
             "yaxis": y3, "name": f"{tag}: model P(all correct)",
             "line": {"color": color, "dash": "dash"}, "showlegend": False, **common},
            {"type": "scatter", "x": [c.model_threshold], "y": [0.5], "xaxis": x3, "yaxis": y3,
             "mode": "markers", "marker": {"color": color, "size": 9}, "legendgroup": tag,
             "name": f"{tag}: P(all) = 1/2 at α = {c.model_threshold:.3f}", "showlegend": True,
             "hovertemplate": "P(all correct) = 1/2 at α = %{x:.3f}<extra></extra>"},
        ]
    for xr, yr in ((x1, y1), (x2, y2), (x3, y3)):
        shapes, _ = _threshold_marks(xr, yr)
        layout["shapes"] += shapes
        layout[_axis(xr)].update(title={"text": "load α"})
    # the dotted lines are named in the legend: a label inside a panel would meet the curves
    traces += [
        {"type": "scatter", "x": [None], "y": [None], "mode": "lines", "name": name,
         "line": {"color": color, "dash": "dot"}, "hoverinfo": "skip", "showlegend": True}
        for name, color in (("α = 1/8 (first error)", _TARGET),
                            ("α = 1/2 (accuracy collapse)", "black"))
    ]
    layout["shapes"] += [_hline(1.0, x1, y1, dash="dash", color=_TARGET),
                         _hline(1.0, x2, y2, dash="dash", color=_TARGET)]
    # Fixed log ranges: inf J is 0 (numerically ~1e-30) above α = 1/2, and the expected errors
    # fall to 1e-100 at small α; neither is worth the axis space.
    top = max(float(np.max(c.expected_errors)) for c in items)
    layout[_axis(y1)].update(type="log", range=[-3, 1.3])
    layout[_axis(y2)].update(type="log", range=[-8, np.log10(top) + 1])
    layout[_axis(y3)].update(range=[0, 1.03])
    layout.update(height=440, legend={**_TOP_LEGEND, "y": 1.12}, margin={"t": 150, "b": 50})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_model_vs_simulation(sweeps: Any, models: Sequence[str] = ("row", "finite_d", "leading")
                             ) -> go.Figure:
    """Simulated Hebbian accuracy and all-correct fraction against the Gaussian model.

    Parameters
    ----------
    sweeps : HebbianSweep or sequence of HebbianSweep
        From :func:`assocmem.linear_memory.hebbian_sweep`, one per d.
    models : sequence of str, optional
        Which variance models to draw (keys of ``MODEL_STYLES``).

    Returns
    -------
    plotly.graph_objects.Figure
        Left: mean accuracy over instances (markers, ±1 std bars) and the model accuracy
        (lines). Right, for α <= 0.32: fraction of instances with every fact recalled (markers)
        and the model's P(all correct) (lines). Colours by d; line styles as in
        ``MODEL_STYLES`` (legend entries in black); a dotted line at α = 1/8.
    """
    items = check_results(sweeps, "sweeps", HebbianSweep)
    models = check_strings(models, "models")
    if not models or any(m not in MODEL_STYLES for m in models):
        raise ValueError(f"models must be a non-empty list of {tuple(MODEL_STYLES)}, got {models}")
    # P(all) is 0 beyond a few times 1/8: zoom the right panel onto its drop.
    max_x2 = min(0.32, max(float(s.alpha_eff[-1]) for s in items))
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["accuracy (fraction of facts recalled)", "P(all facts recalled)"], spacing=0.1
    )
    traces: list[dict[str, Any]] = [
        {"type": "scatter", "x": [None], "y": [None], "xaxis": x1, "yaxis": y1, "mode": "lines",
         "name": label, "line": {"color": "black", "dash": MODEL_STYLES[m][0]},
         "legendgroup": m}
        for m in models
        for label in [MODEL_STYLES[m][1]]
    ]
    for i, s in enumerate(items):
        color = _D_COLORS.get(s.d, _P_COLORS[i % len(_P_COLORS)])
        group = f"d = {s.d}"
        for m in models:
            for (yref, xref), values in (((y1, x1), s.model_accuracy[m]),
                                         ((y2, x2), s.model_all_correct[m])):
                traces.append({
                    "type": "scatter", "x": s.alpha_eff, "y": values, "xaxis": xref,
                    "yaxis": yref, "mode": "lines", "legendgroup": group, "showlegend": False,
                    "name": f"{group}, {MODEL_STYLES[m][1]}",
                    "line": {"color": color, "dash": MODEL_STYLES[m][0], "width": 1.5},
                    "hovertemplate": f"{group}, {m}: α = %{{x:.3f}}, %{{y:.3f}}<extra></extra>",
                })
        if s.reps:
            std = s.accuracy.std(axis=1)
            for xref, yref, values, err in ((x1, y1, s.mean_accuracy, std),
                                            (x2, y2, s.all_correct_fraction, None)):
                trace = {
                    "type": "scatter", "x": s.alpha_eff, "y": values, "xaxis": xref,
                    "yaxis": yref, "mode": "markers", "legendgroup": group,
                    "name": f"{group}, simulated ({s.reps} instances)",
                    "marker": {"color": color, "size": 8, "line": {"color": "white", "width": 1}},
                    "showlegend": yref == y1,
                    "customdata": s.p,
                    "hovertemplate": "α = %{x:.3f}, p = %{customdata}: %{y:.3f}<extra></extra>",
                }
                if err is not None:
                    trace["error_y"] = {"type": "data", "array": err, "visible": True}
                traces.append(trace)
    for xr, yr in ((x1, y1), (x2, y2)):
        layout["shapes"].append(_vline(0.125, xr, yr, color=_TARGET))
        layout["annotations"].append(_note("1/8", 0.125, xr, yr, y=0.1))
        layout[_axis(xr)].update(title={"text": "load α = p ln p / d²"})
        layout[_axis(yr)].update(range=[-0.02, 1.03])
    layout[_axis(x2)].update(range=[0, max_x2])
    layout.update(height=470, legend={"orientation": "h", "y": -0.2}, margin={"t": 40, "b": 40})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_model_table(sweeps: Sequence[Any], reference: Mapping[tuple[int, float], Sequence[Any]]
                     ) -> go.Figure:
    """The note's model-vs-simulation table (note §2.6) next to our values.

    Parameters
    ----------
    sweeps : sequence of HebbianSweep
        One load each (the first of the grid is used), as the table's rows.
    reference : mapping of (d, α) to (simulated, leading, finite_d)
        The note's values for each row (None where the note has none).

    Returns
    -------
    plotly.graph_objects.Figure
        A table: d, α, p; the note's simulated, eq. (D.3) and +O(1/d) model accuracies; ours,
        with the row-variance model and the number of simulated instances.
    """
    def fmt(v: Any) -> str:
        return "—" if v is None or not np.isfinite(v) else f"{v:.3f}"

    sweeps = check_results(sweeps, "sweeps", HebbianSweep, single=False)
    reference = check_row_map(reference, "reference", 3, none_ok=True)
    if reference is None:
        raise TypeError("reference must be a mapping of (d, α) to (simulated, leading, finite_d)")
    rows = []
    for s in sweeps:
        ref = reference.get((s.d, float(s.alpha[0])), (None, None, None))
        sim = f"{fmt(s.mean_accuracy[0])} ({s.reps})" if s.reps else "not simulated"
        rows.append([
            str(s.d), f"{s.alpha[0]:g}", str(int(s.p[0])), fmt(ref[0]), fmt(ref[1]), fmt(ref[2]),
            sim, fmt(s.model_accuracy["leading"][0]), fmt(s.model_accuracy["finite_d"][0]),
            fmt(s.model_accuracy["row"][0]),
        ])
    header = ["d", "α", "p", "earlier run: simulated", "earlier run: model p/d²",
              "earlier run: model +O(1/d)",
              "ours: simulated (instances)", "ours: model p/d²", "ours: model +O(1/d)",
              "ours: model, row variances"]
    cells = [list(col) for col in zip(*rows, strict=True)]
    fill = [["#f4f4f4"] * len(rows)] * 6 + [["#e8f0fa"] * len(rows)] * 4
    return table_figure(
        header, cells, columnwidth=[0.7, 0.8, 0.9] + [1.0] * 3 + [1.4] + [1.0] * 3,
        header_style={"fill_color": "#dddddd", "align": "center"},
        cell_style={"fill_color": fill, "align": "center"},
    )
