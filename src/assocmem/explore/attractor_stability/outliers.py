"""Figures for the section on outliers and the threshold (attractor-stability chapter).

Every function takes result objects from :mod:`assocmem.attractor.outliers` and returns a plotly
figure; none computes model quantities. Panels are laid out with ``_panels`` (no
``make_subplots``); complex planes have equal aspect; legends sit at the top, above the book's
slider. Colours: bulk blue, λ_mem orange, λ_ave green; theory dotted or dashed, measurements
markers.

Public functions
----------------
plot_theta_scan
    Eigenvalues for a few θ − θ* overlaid, and outliers, bulk edge and mean row sum of J against
    θ − θ* with Eqs. 10, 12 and 15 and the 2 × 2 refinement.
plot_memory_outliers
    Fig. 2e: empirical − predicted λ_mem per pattern, one column per parameter set.
plot_threshold_window
    Eqs. 16-18: θ*_bulk and the allowed threshold interval against n.
plot_outlier_view
    The exploration: one network's eigenvalues at one θ − θ*, with the theory markers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.attractor.outliers import ThetaScan, ThresholdWindow

from .._checks import check_height, check_indices, check_results, check_strings
from .._layout import tidied
from .._panels import _axis, _circle_trace, _complex_points, _hline, _panels, _vline

__all__ = [
    "plot_memory_outliers",
    "plot_outlier_view",
    "plot_theta_scan",
    "plot_threshold_window",
]

_BULK, _MEM, _AVE, _GREY = "#1f77b4", "#ff7f0e", "#2ca02c", "#9e9e9e"
_SHIFT_COLOURS = ("#6a3d9a", "#1f77b4", "#17becf", "#bcbd22", "#d62728")
_TOP_LEGEND = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 1.1, "yanchor": "bottom"}
_SHIFT = "θ\u00a0−\u00a0θ*"  # no-break spaces: a wrapped subplot title keeps it on one line
_MEM_HOVER = "Δλ<sub>mem</sub> = %{y:.4f}<br>|corr| = %{customdata:.2f}<extra></extra>"


def _circle(center: float, radius: float, x: str, y: str, name: str, dash: str) -> dict:
    line = {"color": _BULK, "dash": dash, "width": 1.5}
    return _circle_trace(center, radius, (x, y), name, line)


def _points(
    z: Any,
    x: str,
    y: str,
    name: str,
    color: str,
    size: int = 5,
    symbol: str = "circle",
    legend: bool = True,
    opacity: float = 0.75,
) -> dict:
    marker = {"color": color, "size": size, "symbol": symbol}
    return _complex_points(z, (x, y), name, marker, legend, opacity)


def _line(
    xs: Any,
    ys: Any,
    x: str,
    y: str,
    name: str,
    color: str,
    dash: str = "solid",
    mode: str = "lines",
    symbol: str = "circle",
    legend: bool = True,
) -> dict:
    return {
        "type": "scatter",
        "mode": mode,
        "x": np.asarray(xs, dtype=float),
        "y": np.asarray(ys, dtype=float),
        "xaxis": x,
        "yaxis": y,
        "name": name,
        "showlegend": legend,
        "legendgroup": name,
        "line": {"color": color, "dash": dash, "width": 2},
        "marker": {"color": color, "size": 8, "symbol": symbol},
        "hovertemplate": "%{x:.3f}: %{y:.4f}<extra>" + name + "</extra>",
    }


def _equal_aspect(layout: dict, x: str, y: str, xr: Sequence[float], yr: Sequence[float]) -> None:
    layout[_axis(x)].update(title={"text": "Re λ (1/τ)"}, range=list(xr), zeroline=False)
    layout[_axis(y)].update(
        title={"text": "Im λ"}, range=list(yr), scaleanchor=x, scaleratio=1, zeroline=False
    )


@tidied
def plot_theta_scan(scan: Any, shown: Sequence[int] | None = None, height: int = 505) -> go.Figure:
    """The threshold as a rank-one knob: spectra and outliers against θ − θ* (Eqs. 10, 12, 15).

    Parameters
    ----------
    scan : ThetaScan
        From :func:`assocmem.attractor.theta_scan`.
    shown : sequence of int, optional
        Indices of the shifts overlaid in the complex plane (default: first, nearest 0, last).
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: the nontrivial eigenvalues of J_μ (all examined patterns) for the chosen shifts,
        with the Eq. 10 disc at θ*. Right, against θ − θ*: measured mean row sum of J (green
        markers), the eigenvalue nearest Eq. 12 (green crosses) and Eq. 12 (green dashed);
        empirical λ_mem where |corr| > 0.8 (orange markers), Eq. 15 (orange dotted) and the top
        2 × 2 eigenvalue (orange dashed, ours); the empirical bulk edge (blue markers) and
        Eq. 10 evaluated at θ (blue dashed, the c_ff artefact).
    """
    s = check_instance(scan, "scan", ThetaScan)
    k = s.theta_shifts.size
    shown = check_indices(shown, "shown", k)
    height = check_height(height)
    if shown is None:
        shown = sorted({0, int(np.abs(s.theta_shifts).argmin()), k - 1})
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        [
            f"eigenvalues of J<sub>μ</sub> at several {_SHIFT}",
            f"outliers and bulk edge against {_SHIFT}",
        ],
        widths=[1.0, 1.2],
        spacing=0.1,
    )
    traces = [_circle(s.center, s.radius, x1, y1, "Eq. 10 disc at θ*", "dot")]
    for c, j in enumerate(shown):
        colour = _SHIFT_COLOURS[c % len(_SHIFT_COLOURS)]
        traces.append(
            _points(s.eigenvalues[j], x1, y1, f"θ − θ* = {s.theta_shifts[j]:+.2f}", colour, size=5)
        )
    sh = s.theta_shifts
    trusted = s.mem_corr > 0.8
    mem_x = np.repeat(sh[:, None], s.mem_corr.shape[1], axis=1)[trusted]
    traces += [
        _line(sh, s.lambda_ave_theory, x2, y2, "λ<sub>ave</sub>, Eq. 12", _AVE, dash="dash"),
        _line(sh, s.row_sum, x2, y2, "mean row sum of J", _AVE, mode="markers", symbol="circle"),
        _line(
            np.repeat(sh[:, None], s.ave_eig.shape[1], axis=1).ravel(),
            s.ave_eig.real.ravel(),
            x2,
            y2,
            "eigenvalue nearest Eq. 12",
            _AVE,
            mode="markers",
            symbol="x-thin-open",
        ),
        _line(sh, s.lambda_mem_theory, x2, y2, "λ<sub>mem</sub>, Eq. 15 at θ", _MEM, dash="dot"),
        _line(
            mem_x,
            s.lambda_mem.real[trusted],
            x2,
            y2,
            "empirical λ<sub>mem</sub> (|corr| > 0.8)",
            _MEM,
            mode="markers",
            symbol="diamond",
        ),
        _line(
            sh,
            s.pair[:, :, 0].real.mean(axis=1),
            x2,
            y2,
            "2 × 2 refinement (ours)",
            _MEM,
            dash="dash",
        ),
        _line(sh, s.bulk_edge_theory, x2, y2, "Eq. 10 edge at θ (artefact)", _BULK, dash="dash"),
        _line(
            sh,
            s.bulk_edge.mean(axis=1),
            x2,
            y2,
            "empirical bulk edge",
            _BULK,
            mode="markers",
            symbol="square",
        ),
    ]
    layout["shapes"] += [_vline(0.0, x1, y1, color=_GREY), _hline(0.0, x2, y2, color=_GREY)]
    ev = s.eigenvalues[list(shown)]
    lo = min(float(ev.real.min()), s.center - s.radius) - 0.05
    hi = max(float(ev.real.max()), s.center + s.radius, 0.0) + 0.05
    half = max(float(np.abs(ev.imag).max()), s.radius) + 0.05
    _equal_aspect(layout, x1, y1, (lo, hi), (-half, half))
    layout[_axis(x2)].update(title={"text": "θ − θ*"})
    layout[_axis(y2)].update(title={"text": "eigenvalue (1/τ)"})
    title = (
        f"N = {s.N}, α = {s.alpha:.2f}, CV = {s.cv:g}, σ = {s.sigma:g}, n = {s.n:g}; "
        f"θ* = {s.theta_star:.3f}"
    )
    layout.update(
        height=height,
        legend=_TOP_LEGEND,
        # the title sits at the very top, above the four legend rows
        title={"text": title, "font": {"size": 13}, "y": 0.985, "yanchor": "top"},
        margin={"t": 185, "b": 50},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_memory_outliers(
    scans: Sequence[Any], labels: Sequence[str] | None = None, height: int = 400
) -> go.Figure:
    """Fig. 2e: empirical − predicted λ_mem (Eq. 15) per pattern, one column per scan.

    Parameters
    ----------
    scans : sequence of ThetaScan
        Each at θ = θ* (the shift nearest 0 is used).
    labels : sequence of str, optional
        Column labels (default "CV, n, α").
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Markers: λ_mem^emp − λ_mem (Eq. 15) per examined pattern; filled where |corr| > 0.8,
        open otherwise (not a trustworthy outlier, note pitfall 7). Hover gives |corr|.
    """
    scans = check_results(scans, "scans", ThetaScan, single=False)
    labels = check_strings(labels, "labels", len(scans))
    height = check_height(height)
    if labels is None:
        labels = [f"CV {s.cv:g}, n {s.n:g}, α {s.alpha:.2f}" for s in scans]
    traces = []
    for i, (s, lab) in enumerate(zip(scans, labels, strict=True)):
        j = int(np.abs(s.theta_shifts).argmin())
        diff = s.lambda_mem[j].real - s.lambda_mem_theory[j]
        ok = s.mem_corr[j] > 0.8
        for mask, sym, name in (
            (ok, "circle", "|corr| > 0.8"),
            (~ok, "circle-open", "|corr| ≤ 0.8"),
        ):
            if not mask.any():
                continue
            traces.append(
                {
                    "type": "scatter",
                    "mode": "markers",
                    "x": [lab] * int(mask.sum()),
                    "y": diff[mask],
                    "customdata": s.mem_corr[j][mask],
                    "name": name,
                    "legendgroup": name,
                    "showlegend": i == 0 or name not in {t["name"] for t in traces},
                    "marker": {"color": _MEM, "size": 10, "symbol": sym, "line": {"width": 1.5}},
                    "hovertemplate": _MEM_HOVER,
                }
            )
    layout = {
        "height": height,
        "legend": _TOP_LEGEND,
        "margin": {"t": 80, "b": 60},
        "xaxis": {"title": {"text": "parameter set (N = " + str(scans[0].N) + ")"}},
        "yaxis": {
            "title": {"text": "λ<sub>mem</sub><sup>emp</sup> − λ<sub>mem</sub> (Eq. 15)"},
            "zeroline": True,
        },
        "shapes": [
            {
                "type": "line",
                "xref": "paper",
                "x0": 0,
                "x1": 1,
                "y0": 0,
                "y1": 0,
                "line": {"color": "black", "dash": "dot", "width": 1},
            }
        ],
    }
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_threshold_window(window: Any, height: int = 420) -> go.Figure:
    """Eqs. 16-18: θ*_bulk and the thresholds with λ_ave < 0 and λ_mem < 0, against n.

    Parameters
    ----------
    window : ThresholdWindow
        From :func:`assocmem.attractor.threshold_window`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Shaded: the allowed open interval (lo, hi) (drawn only where it is non-empty); black:
        θ*_bulk (Eq. 16), open markers where it lies outside the interval; green dashed: the
        Eq. 17 bound; orange: the corrected Eq. 18 bound, dashed where it is an upper bound
        (Cov(r, d) > 0), dotted where it is a lower bound; grey: θ = 0. The y range follows
        θ*; far-away bounds (near the sign change of Cov(r, d)) leave the frame.
    """
    check_instance(window, "window", ThresholdWindow)
    height = check_height(height)
    w = window
    n = w.n
    ymin = float(np.min(w.theta_star)) - 1.0
    ymax = float(max(np.max(w.theta_star), np.max(w.ave_bound))) + 0.5
    ok = w.lo < w.hi
    lo = np.where(ok, np.clip(w.lo, ymin - 1.0, ymax + 1.0), np.nan)
    hi = np.where(ok, np.clip(w.hi, ymin - 1.0, ymax + 1.0), np.nan)
    upper = np.where(w.mem_upper, w.mem_bound, np.nan)
    lower = np.where(~w.mem_upper, w.mem_bound, np.nan)
    out = ~w.star_allowed
    traces = [
        {
            "type": "scatter",
            "mode": "lines",
            "x": n,
            "y": lo,
            "line": {"width": 0},
            "showlegend": False,
            "hoverinfo": "skip",
        },
        {
            "type": "scatter",
            "mode": "lines",
            "x": n,
            "y": hi,
            "fill": "tonexty",
            "fillcolor": "rgba(44, 160, 44, 0.15)",
            "line": {"width": 0},
            "name": "allowed θ (Eqs. 17, 18)",
            "hoverinfo": "skip",
        },
        _line(n, w.ave_bound, "x", "y", "Eq. 17: θ below (λ<sub>ave</sub> = 0)", _AVE, dash="dash"),
        _line(
            n, upper, "x", "y", "Eq. 18 corrected: θ below (λ<sub>mem</sub> = 0)", _MEM, dash="dash"
        ),
        _line(n, lower, "x", "y", "Eq. 18 corrected: θ above", _MEM, dash="dot"),
        _line(n, w.theta_star, "x", "y", "θ*<sub>bulk</sub> (Eq. 16)", "black"),
        _line(
            n[out],
            w.theta_star[out],
            "x",
            "y",
            "θ* outside the window",
            "black",
            mode="markers",
            symbol="circle-open",
        ),
    ]
    layout = {
        "height": height,
        "legend": _TOP_LEGEND,
        "margin": {"t": 110, "b": 50},
        "title": {"text": f"CV = {w.cv:g}, σ = {w.sigma:g}", "font": {"size": 13}},
        "xaxis": {"title": {"text": "exponent n"}},
        "yaxis": {"title": {"text": "threshold θ"}, "range": [ymin, ymax]},
        "shapes": [_hline(0.0, "x", "y", color=_GREY)],
    }
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_outlier_view(scan: Any, height: int = 500) -> go.Figure:
    """The exploration: eigenvalues of J_μ at one θ − θ*, with outlier theory and the bulk disc.

    Parameters
    ----------
    scan : ThetaScan
        From :func:`assocmem.attractor.outlier_view` (its first shift is drawn).
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Blue dots: the nontrivial eigenvalues of the examined Jacobians; orange diamonds:
        empirical λ_mem; blue dotted circle: Eq. 10 disc at θ* (θ-independent, like the real
        bulk); dashed blue line: the Eq. 10 edge at this θ (artefact); green and orange dotted
        lines: Eq. 12 and Eq. 15 at this θ; crosses: the 2 × 2 refinement (ours). The N − P
        eigenvalues at −1 are one grey marker. The axes are fixed over θ − θ* ∈ [−1.5, 1.5].
    """
    check_instance(scan, "scan", ThetaScan)
    height = check_height(height)
    s = scan
    j = 0
    ev = s.eigenvalues[j]
    x, y = "x", "y"
    traces = [
        _circle(s.center, s.radius, x, y, "Eq. 10 disc at θ*", "dot"),
        _points(ev, x, y, "eigenvalues of J<sub>μ</sub>", _BULK, size=5),
        _points(
            s.lambda_mem[j][s.mem_corr[j] > 0.8],
            x,
            y,
            "empirical λ<sub>mem</sub> (|corr| > 0.8)",
            _MEM,
            size=11,
            symbol="diamond",
            opacity=1.0,
        ),
        _points(
            s.pair[j].ravel(),
            x,
            y,
            "2 × 2 refinement (ours)",
            "black",
            size=10,
            symbol="x-thin-open",
            opacity=1.0,
        ),
        _points(
            [-1.0],
            x,
            y,
            f"{s.N - s.P} eigenvalues at −1",
            _GREY,
            size=14,
            symbol="circle-open",
            opacity=1.0,
        ),
    ]
    shapes = [
        _vline(0.0, x, y, dash="solid", color="black"),
        _vline(float(s.lambda_ave_theory[j]), x, y, dash="dot", color=_AVE),
        _vline(float(s.lambda_mem_theory[j]), x, y, dash="dot", color=_MEM),
        _vline(float(s.bulk_edge_theory[j]), x, y, dash="dash", color=_BULK),
    ]
    # The two labels sit on the outer sides of their lines, so close values never overlap.
    ave_left = bool(s.lambda_ave_theory[j] <= s.lambda_mem_theory[j])
    annotations = [
        {
            "x": float(v),
            "y": 1.0,
            "xref": x,
            "yref": "y domain",
            "text": t,
            "showarrow": False,
            "font": {"color": c, "size": 11},
            "yanchor": "bottom",
            "xanchor": "right" if left else "left",
        }
        for v, t, c, left in (
            (s.lambda_ave_theory[j], "λ<sub>ave</sub>", _AVE, ave_left),
            (s.lambda_mem_theory[j], "λ<sub>mem</sub>", _MEM, not ave_left),
        )
    ]
    lo = min(-3.2, float(ev.real.min()) - 0.1)
    hi = max(1.3, float(ev.real.max()) + 0.1)
    layout: dict[str, Any] = {
        "xaxis": {},
        "yaxis": {},
        "shapes": shapes,
        "annotations": annotations,
    }
    _equal_aspect(layout, x, y, (lo, hi), (-0.8, 0.8))
    title = (
        f"n = {s.n:g}, θ − θ* = {s.theta_shifts[j]:+.2f}: abscissa "
        f"{float(s.abscissa[j].max()):+.3f}<br>"
        f"Eq. 12 λ<sub>ave</sub> = {s.lambda_ave_theory[j]:+.3f}, "
        f"Eq. 15 λ<sub>mem</sub> = {s.lambda_mem_theory[j]:+.3f}, bulk edge "
        f"{float(s.bulk_edge[j].max()):+.3f} (N = {s.N}, α = {s.alpha:.2f})"
    )
    layout.update(
        height=height,
        legend=_TOP_LEGEND,
        margin={"t": 150, "b": 50},
        title={"text": title, "font": {"size": 12}, "y": 0.98, "yanchor": "top"},
    )
    return go.Figure(data=traces, layout=layout)
