"""Figures for the attractor-stability sections on the model and on storing patterns.

Every function takes result objects from :mod:`assocmem.attractor.structure` and returns a plotly
figure; none computes model quantities. Panels are laid out with
:func:`assocmem.explore._panels._panels` (no ``make_subplots``).

Public functions
----------------
plot_activation
    Eq. 3 and its slope for one or several (n, σ), with the noisy hard-rectified power law it
    approximates (exploration).
plot_pattern_density
    Log-normal densities (Fig. 1f), linear and log-log, with histograms of samples; the point mass
    of sparse patterns (Fig. 5a) as an arrow (exploration).
plot_recall_demo
    Distance from a stored pattern after a kick, for a few networks (log scale).
plot_weight_sweep
    Row sum and row norm against the load with Eqs. 6, 7 and the derived Eq. 8 norm
    (Fig. 1b,c, linear and log).
plot_non_normality
    Asymmetry and Henrici index against the load per CV (Fig. 1e,j), with the note's values.
plot_weight_snapshot
    Row norms and (W_ij, W_ji) pairs of one network (exploration).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.attractor.structure import (
    ActivationCurves,
    PatternDensity,
    RecallDemo,
    WeightSnapshot,
    WeightSweep,
)

from .._checks import check_mapping, check_results, check_values
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _vline

__all__ = [
    "plot_activation",
    "plot_non_normality",
    "plot_pattern_density",
    "plot_recall_demo",
    "plot_weight_snapshot",
    "plot_weight_sweep",
]

_PALETTE = ("#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")
_THEORY = "black"
# Legend above the panels: the book's slider sits below the x axis.
_TOP_LEGEND = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 1.1, "yanchor": "bottom"}


def _note(text: str, x: float, y: float, xref: str, yref: str) -> dict[str, Any]:
    return {
        "x": x, "y": y, "xref": f"{xref} domain", "yref": f"{yref} domain", "text": text,
        "showarrow": False, "xanchor": "left", "yanchor": "top", "font": {"size": 11},
    }  # fmt: skip


@tidied
def plot_activation(curves: Any) -> go.Figure:
    """Eq. 3 (solid) and the noisy power law ⟨⌊v + σz⌋₊ⁿ⟩ (dashed); slope g' on the right.

    Parameters
    ----------
    curves : ActivationCurves or sequence of ActivationCurves
        From :func:`assocmem.attractor.activation_curves`, on the same voltage grid.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: g(v) of Eq. 3 (solid), the Gaussian-noise average it approximates (dashed) and the
        hard-rectified ⌊v⌋₊ⁿ (grey dotted, once). Right: g'(v).
    """
    items = check_results(curves, "curves", ActivationCurves)
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(["g(v), Eq. 3", "slope g′(v)"], spacing=0.1)
    c0 = items[0]
    traces: list[dict[str, Any]] = [
        {"type": "scatter", "x": c0.v, "y": c0.hard, "xaxis": x1, "yaxis": y1, "mode": "lines",
         "name": "⌊v⌋₊ⁿ (σ = 0)", "line": {"color": "#aaaaaa", "dash": "dot"}, "hoverinfo": "skip"},
    ]  # fmt: skip
    for k, c in enumerate(items):
        col = _PALETTE[k % len(_PALETTE)]
        lab = f"n = {c.n:.3g}, σ = {c.sigma:.3g}"
        traces += [
            {"type": "scatter", "x": c.v, "y": c.g, "xaxis": x1, "yaxis": y1, "mode": "lines",
             "name": lab, "legendgroup": lab, "line": {"color": col, "width": 2.5},
             "hovertemplate": "v = %{x:.2f}: g = %{y:.3f}<extra>Eq. 3</extra>"},
            {"type": "scatter", "x": c.v, "y": c.noisy, "xaxis": x1, "yaxis": y1, "mode": "lines",
             "name": "⟨⌊v + σz⌋₊ⁿ⟩" if k == 0 else lab + " noisy", "legendgroup": lab,
             "showlegend": k == 0, "line": {"color": col, "dash": "dash", "width": 1.5},
             "hovertemplate": "v = %{x:.2f}: %{y:.3f}<extra>noisy average</extra>"},
            {"type": "scatter", "x": c.v, "y": c.slope, "xaxis": x2, "yaxis": y2, "mode": "lines",
             "legendgroup": lab, "showlegend": False, "line": {"color": col, "width": 2.5},
             "hovertemplate": "v = %{x:.2f}: g′ = %{y:.3f}<extra></extra>"},
        ]  # fmt: skip
    top = max(float(np.max(c.g)) for c in items)
    slope_top = max(float(np.max(c.slope)) for c in items)
    layout[_axis(x1)].update(title={"text": "voltage v"})
    layout[_axis(x2)].update(title={"text": "voltage v"})
    layout[_axis(y1)].update(title={"text": "rate"}, range=[0, 1.05 * top])
    layout[_axis(y2)].update(range=[0, 1.05 * min(slope_top, 5.0)])
    title = (
        f"n = {c0.n:.3g}, σ = {c0.sigma:.3g}: g(0) = {float(np.interp(0.0, c0.v, c0.g)):.3f}, "
        f"noisy average at 0 = {float(np.interp(0.0, c0.v, c0.noisy)):.3f}"
        if len(items) == 1
        else "Eq. 3 (solid) and the noisy power law it approximates (dashed)"
    )
    layout.update(
        height=420, legend=_TOP_LEGEND, margin={"t": 120, "b": 50},
        title={"text": title, "x": 0.5, "y": 0.98},
    )  # fmt: skip
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_pattern_density(densities: Any) -> go.Figure:
    """Log-normal rate densities (Fig. 1f): analytic (dotted) and a sample's histogram (markers).

    Parameters
    ----------
    densities : PatternDensity or sequence of PatternDensity
        From :func:`assocmem.attractor.pattern_density`.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: density against r on linear axes (r ≤ 4). Right: the same on log-log axes (the
        paper's inset). For f < 1 an arrow marks the point mass 1 − f at r = 0 (Fig. 5a).
    """
    items = check_results(densities, "densities", PatternDensity)
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["density (linear)", "density (log-log)"], spacing=0.1
    )
    traces: list[dict[str, Any]] = []
    for k, d in enumerate(items):
        col = _PALETTE[k % len(_PALETTE)]
        lab = f"CV = {d.cv:.3g}" + (f", f = {d.f:.3g}" if d.f < 1 else "")
        keep = d.density > 0
        for xr, yr, show in ((x1, y1, True), (x2, y2, False)):
            traces += [
                {"type": "scatter", "x": d.r, "y": d.pdf, "xaxis": xr, "yaxis": yr,
                 "mode": "lines", "name": lab, "legendgroup": lab, "showlegend": show,
                 "line": {"color": col, "dash": "dot", "width": 2},
                 "hovertemplate": "r = %{x:.3g}: %{y:.3g}<extra>analytic</extra>"},
                {"type": "scatter", "x": d.centers[keep], "y": d.density[keep], "xaxis": xr,
                 "yaxis": yr, "mode": "markers", "legendgroup": lab, "showlegend": False,
                 "marker": {"color": col, "size": 5},
                 "hovertemplate": "r = %{x:.3g}: %{y:.3g}<extra>sample</extra>"},
            ]  # fmt: skip
    annotations = list(layout["annotations"])
    for k, d in enumerate(items):
        if d.f < 1:
            annotations.append(
                {"x": 0.0, "y": 0.85 - 0.08 * k, "xref": x1, "yref": f"{y1} domain", "ax": 40,
                 "ay": 0, "showarrow": True, "arrowhead": 2, "arrowcolor": _PALETTE[k],
                 "xanchor": "left", "text": f"mass {1 - d.f:.2f} at r = 0 "
                 f"(sample {d.zero_fraction:.2f})", "font": {"size": 11}}
            )  # fmt: skip
    top = max(float(np.max(d.pdf)) for d in items)
    # the linear panel shows r <= 4: its range covers the analytic peak and the histogram's
    shown = [d.density[(d.centers <= 4.0) & (d.density > 0)] for d in items]
    top_lin = max([top] + [float(np.max(s)) for s in shown if s.size])
    layout[_axis(x1)].update(title={"text": "rate r"}, range=[0, 4])
    layout[_axis(y1)].update(range=[0, 1.1 * min(top_lin, 3.0)])
    layout[_axis(x2)].update(title={"text": "rate r"}, type="log")
    layout[_axis(y2)].update(type="log", range=[-4, np.log10(2 * top)])
    d0 = items[0]
    title = (
        f"CV = {d0.cv:.3g}, f = {d0.f:.3g}: sample mean {d0.sample_mean:.3f}, "
        f"sample CV {d0.sample_cv:.3f}"
        if len(items) == 1
        else "log-normal rates with mean 1 (dotted: analytic; markers: sample histogram)"
    )
    layout.update(
        annotations=annotations, height=420, legend=_TOP_LEGEND, margin={"t": 120, "b": 50},
        title={"text": title, "x": 0.5, "y": 0.98},
    )  # fmt: skip
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_recall_demo(demos: Sequence[Any]) -> go.Figure:
    """Relative distance ‖r(t) − r^μ‖/‖r^μ‖ after a kick, for several networks (log y).

    Parameters
    ----------
    demos : sequence of RecallDemo
        From :func:`assocmem.attractor.recall_demo`.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per demo, labelled with its spectral abscissa; a cross where a run blew up.
    """
    demos = check_results(demos, "demos", RecallDemo, single=False)
    t_end = max(float(d.trajectory.t_final) for d in demos)
    dist = [np.log10(np.maximum(d.trajectory.distance, 1e-12)) for d in demos]
    dist = [x[np.isfinite(x)] for x in dist]
    lo, hi = min(float(np.min(x)) for x in dist), max(float(np.max(x)) for x in dist)
    traces = []
    for k, d in enumerate(demos):
        col = _PALETTE[k % len(_PALETTE)]
        tr = d.trajectory
        step = max(1, tr.times.size // 400)  # at most ~400 points per line (page weight)
        name = f"{d.label}: abscissa {d.abscissa:+.3f}"
        traces.append(
            go.Scatter(x=tr.times[::step], y=np.maximum(tr.distance[::step], 1e-12), mode="lines",
                       name=name,
                       line={"color": col, "width": 2},
                       hovertemplate="t = %{x:.1f}: %{y:.2e}<extra></extra>")
        )  # fmt: skip
        if tr.blew_up:
            # beside the cross at its height (above it would leave the plotting area: the
            # cross is the highest point), on the side away from the right edge
            side = "middle right" if tr.t_final < 0.7 * t_end else "middle left"
            traces.append(
                go.Scatter(x=[tr.t_final], y=[float(tr.distance[-1])], mode="markers+text",
                           marker={"symbol": "x", "size": 12, "color": col},
                           text=[" blow-up "], textposition=side, textfont={"color": col},
                           showlegend=False, hoverinfo="skip")
            )  # fmt: skip
    layout = {
        "height": 420, "legend": _TOP_LEGEND, "margin": {"t": 110, "b": 50},
        "xaxis": {"title": {"text": "time t (units of τ)"}},
        "yaxis": {"title": {"text": "‖r(t) − r<sup>μ</sup>‖ / ‖r<sup>μ</sup>‖"}, "type": "log",
                  "range": [lo - 0.3, hi + 0.5]},  # room above the highest point for its label
    }  # fmt: skip
    return go.Figure(data=traces, layout=layout)


def _rule_label(sweep: Any) -> str:
    return "Eq. 20 (zero diagonal)" if sweep.zero_diag else "Eq. 8 (pseudo-inverse)"


@tidied
def plot_weight_sweep(sweeps: Any) -> go.Figure:
    """Row sum N⟨W⟩ and squared row norm N⟨W²⟩ against α, measured and predicted (Fig. 1b,c).

    Parameters
    ----------
    sweeps : WeightSweep or sequence of WeightSweep
        From :func:`assocmem.attractor.weight_load_sweep` (Eq. 20 and/or Eq. 8 weights).

    Returns
    -------
    plotly.graph_objects.Figure
        Left: row sum with Eq. 7 (dashed). Middle: N⟨W²⟩ with Eq. 6 (dotted, black) and the
        derived Eq. 8 norm (dashed, grey), linear axes. Right: the same on a log y axis up to
        α → 1 (the divergence of the paper's Fig. 1c inset).
    """
    items = check_results(sweeps, "sweeps", WeightSweep)
    layout, refs = _panels(["row sum N⟨W⟩", "row norm² N⟨W²⟩", "N⟨W²⟩, log scale"], spacing=0.08)
    (x1, y1, _), (x2, y2, _), (x3, y3, _) = refs
    traces: list[dict[str, Any]] = []
    s0 = items[0]
    for k, s in enumerate(items):
        col = _PALETTE[k % len(_PALETTE)]
        lab = f"{_rule_label(s)}, N = {s.N}"
        traces.append(
            {"type": "scatter", "x": s.alphas, "y": s.row_sum, "xaxis": x1, "yaxis": y1,
             "mode": "lines+markers", "name": lab, "legendgroup": lab,
             "line": {"color": col}, "hovertemplate": "α = %{x:.2f}: %{y:.4f}<extra></extra>"}
        )  # fmt: skip
        for xr, yr in ((x2, y2), (x3, y3)):
            traces.append(
                {"type": "scatter", "x": s.alphas, "y": s.row_norm_sq, "xaxis": xr, "yaxis": yr,
                 "mode": "lines+markers", "legendgroup": lab, "showlegend": False,
                 "line": {"color": col},
                 "hovertemplate": "α = %{x:.2f}: %{y:.4g}<extra></extra>"}
            )  # fmt: skip
    ref = max(items, key=lambda s: s.alphas.size)  # theory drawn on the densest grid
    grid, eq6, pinv = ref.alphas, ref.row_norm_sq_eq6, ref.row_norm_sq_pinv
    traces.append(
        {"type": "scatter", "x": [float(grid[0]), float(grid[-1])],
         "y": [s0.row_sum_eq7, s0.row_sum_eq7], "xaxis": x1, "yaxis": y1, "mode": "lines",
         "name": "Eq. 7 (paper)", "line": {"color": _THEORY, "dash": "dash"}}
    )  # fmt: skip
    for xr, yr, show in ((x2, y2, True), (x3, y3, False)):
        traces += [
            {"type": "scatter", "x": grid, "y": eq6, "xaxis": xr, "yaxis": yr, "mode": "lines",
             "name": "Eq. 6 (paper)", "legendgroup": "eq6", "showlegend": show,
             "line": {"color": _THEORY, "dash": "dot", "width": 2.5}},
            {"type": "scatter", "x": grid, "y": pinv, "xaxis": xr, "yaxis": yr, "mode": "lines",
             "name": "(α/(1−α))(ρ − αβ²) (derived, Eq. 8)", "legendgroup": "pinv",
             "showlegend": show, "line": {"color": "#555555", "dash": "dash"}},
        ]  # fmt: skip
    spread = max(0.05, 2 * float(np.max(np.abs([s.row_sum for s in items]))))
    centre = s0.row_sum_eq7
    for xr in (x1, x2, x3):
        layout[_axis(xr)].update(title={"text": "load α"}, range=[0, 1])
    layout[_axis(y1)].update(range=[centre - spread, centre + spread])
    small = grid <= 0.8
    layout[_axis(y2)].update(range=[0, 1.1 * float(np.max(eq6[small]))])
    layout[_axis(y3)].update(type="log")
    layout.update(
        height=430, legend=_TOP_LEGEND, margin={"t": 130, "b": 50},
        title={"text": f"CV = {s0.cv:.3g}, σ = {s0.sigma:.3g}, n = {s0.n:.3g}, "
                       f"θ = θ* + {s0.theta_shift:.3g}", "x": 0.5, "y": 0.98},
    )  # fmt: skip
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_non_normality(
    sweeps: Sequence[Any], reference: Mapping[float, Any] | None = None
) -> go.Figure:
    """Asymmetry index of W and relative Henrici index of J against α, one colour per CV.

    Parameters
    ----------
    sweeps : sequence of WeightSweep
        From :func:`assocmem.attractor.weight_load_sweep` with ``henrici=True``.
    reference : mapping, optional
        CV -> (alphas, asymmetry, henrici) reference values (the note's §3.3 table), drawn as
        open diamonds in the colour of the matching CV.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: asymmetry index (Fig. 1e,j top). Right: Henrici index (Fig. 1e,j bottom).
    """
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["asymmetry of W", "Henrici index of J (relative)"], spacing=0.1
    )
    sweeps = check_results(sweeps, "sweeps", WeightSweep, single=False)
    reference = check_mapping(reference, "reference", optional=True) or {}
    for cv, row in reference.items():
        if not isinstance(row, list | tuple) or len(row) != 3:
            raise ValueError(
                f"reference[{cv!r}] must be (alphas, asymmetry, henrici), got {row!r:.60}"
            )
        n = len(check_values(row[0], f"reference[{cv!r}][0]"))
        for j in (1, 2):
            check_values(row[j], f"reference[{cv!r}][{j}]", n)
    traces: list[dict[str, Any]] = []
    for k, s in enumerate(sweeps):
        col = _PALETTE[k % len(_PALETTE)]
        lab = f"CV = {s.cv:.3g}"
        for xr, yr, y, show in ((x1, y1, s.asymmetry, True), (x2, y2, s.henrici, False)):
            traces.append(
                {"type": "scatter", "x": s.alphas, "y": y, "xaxis": xr, "yaxis": yr,
                 "mode": "lines+markers", "name": lab, "legendgroup": lab, "showlegend": show,
                 "line": {"color": col}, "hovertemplate": "α = %{x:.2f}: %{y:.3f}<extra></extra>"}
            )  # fmt: skip
        if s.cv in reference:
            ra, rasym, rhen = (np.asarray(v, dtype=float) for v in reference[s.cv])
            for xr, yr, y, show in ((x1, y1, rasym, k == 0), (x2, y2, rhen, False)):
                traces.append(
                    {"type": "scatter", "x": ra, "y": y, "xaxis": xr, "yaxis": yr,
                     "mode": "markers", "name": "earlier run (other seed)", "legendgroup": "note",
                     "showlegend": show,
                     "marker": {"color": col, "symbol": "diamond-open", "size": 10}}
                )  # fmt: skip
    s0 = sweeps[0]
    for xr in (x1, x2):
        layout[_axis(xr)].update(title={"text": "load α"}, range=[0, 1])
    layout[_axis(y1)].update(rangemode="tozero")
    layout[_axis(y2)].update(rangemode="tozero")
    rule = "zero diagonal (Eq. 20)" if s0.zero_diag else "pseudo-inverse (Eq. 8)"
    layout.update(
        height=420, legend=_TOP_LEGEND, margin={"t": 120, "b": 50},
        title={"text": f"N = {s0.N}, σ = {s0.sigma:.3g}, n = {s0.n:.3g}, {rule}, pattern 0",
               "x": 0.5, "y": 0.98},
    )  # fmt: skip
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_weight_snapshot(snap: Any) -> go.Figure:
    """Per-row squared norms against Eq. 6, and weight pairs (W_ij, W_ji) against symmetry.

    Parameters
    ----------
    snap : WeightSnapshot
        From :func:`assocmem.attractor.weight_snapshot`.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: histogram of Σ_j W_ij² over rows, with the mean, Eq. 6 (dotted) and the derived
        Eq. 8 norm (dashed) as vertical lines. Right: sampled pairs (W_ij, W_ji) with the
        symmetry line W_ji = W_ij (equal aspect). The title gives the asymmetry and Henrici
        indices and the fixed-point error.
    """
    check_instance(snap, "snap", WeightSnapshot)
    st = snap.stats
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        [
            "row norm² Σ<sub>j</sub> W<sub>ij</sub>² over rows",
            "pairs (W<sub>ij</sub>, W<sub>ji</sub>)",
        ],
        spacing=0.1,
    )
    hi = max(float(np.max(snap.row_norms_sq)), snap.row_norm_sq_eq6) * 1.05
    counts, edges = np.histogram(snap.row_norms_sq, bins=30, range=(0.0, hi))
    centres = 0.5 * (edges[1:] + edges[:-1])
    lim = float(np.max(np.abs(np.concatenate([snap.w_ij, snap.w_ji])))) * 1.05
    rule = "Eq. 20" if st.zero_diag else "Eq. 8"
    traces = [
        {"type": "bar", "x": centres, "y": counts, "width": float(edges[1] - edges[0]),
         "xaxis": x1, "yaxis": y1, "name": f"rows ({rule})", "marker": {"color": _PALETTE[0]},
         "opacity": 0.7, "hovertemplate": "%{x:.3g}: %{y} rows<extra></extra>"},
        {"type": "scatter", "x": snap.w_ij, "y": snap.w_ji, "xaxis": x2, "yaxis": y2,
         "mode": "markers", "name": "sampled pairs", "marker": {"color": _PALETTE[1], "size": 3},
         "hoverinfo": "skip"},
        {"type": "scatter", "x": [-lim, lim], "y": [-lim, lim], "xaxis": x2, "yaxis": y2,
         "mode": "lines", "name": "symmetric: W<sub>ji</sub> = W<sub>ij</sub>",
         "line": {"color": _THEORY, "dash": "dot", "width": 1}},
    ]  # fmt: skip
    layout["shapes"] = [
        _vline(st.row_norm_sq, x1, y1, dash="solid", color=_PALETTE[0]),
        _vline(snap.row_norm_sq_eq6, x1, y1, dash="dot", color=_THEORY),
        _vline(snap.row_norm_sq_pinv, x1, y1, dash="dash", color="#555555"),
        _hline(0.0, x2, y2, dash="solid", color="#dddddd"),
    ]
    layout["annotations"] = [
        *layout["annotations"],
        {  # right-aligned inside the panel: it never runs into the next panel's axis title
            **_note(
                f"mean {st.row_norm_sq:.3f}<br>Eq. 6 {snap.row_norm_sq_eq6:.3f} (dotted)"
                f"<br>Eq. 8 formula {snap.row_norm_sq_pinv:.3f} (dashed)",
                0.98, 0.98, x1, y1,
            ),
            "xanchor": "right", "align": "right",
        }
    ]  # fmt: skip
    layout[_axis(x1)].update(title={"text": "Σ<sub>j</sub> W<sub>ij</sub>²"}, range=[0, hi])
    layout[_axis(y1)].update(title={"text": "rows"})
    layout[_axis(x2)].update(title={"text": "W<sub>ij</sub>"}, range=[-lim, lim])
    layout[_axis(y2)].update(title={"text": "W<sub>ji</sub>"}, range=[-lim, lim], scaleanchor=x2)
    layout.update(
        height=440, legend=_TOP_LEGEND, margin={"t": 130, "b": 50},
        title={"text": f"α = {st.alpha:.2f}, CV = {snap.cv:.3g}, N = {st.N}: asymmetry "
                       f"{st.asymmetry:.3f}, Henrici {st.henrici:.3f}, "
                       f"fixed-point error {st.fixed_point_error:.0e}", "x": 0.5, "y": 0.98},
    )  # fmt: skip
    return go.Figure(data=traces, layout=layout)
