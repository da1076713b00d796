"""Figures for the bulk of the Jacobian spectrum (attractor-stability chapter, ``as-bulk``).

Every function takes result objects from :mod:`assocmem.attractor.spectra` and returns a plotly
figure; none computes model quantities (the theory disc, outliers and fits are fields of the
results; the plots only draw them). Complex planes have equal aspect; panels are laid out with
:func:`assocmem.explore._panels._panels`; legends sit at the top, above the book's slider.

Public functions
----------------
plot_spectrum
    Fig. 2a: eigenvalues of J_μ with the Eq. 10 disc, λ_mem (Eq. 15), λ_ave (Eq. 12), the N − P
    eigenvalues at −1 as one marker, and the inset r vs φ(r) with τ_mem (Eq. 14).
plot_gain_swap
    The note's swap experiment: the same network with D_μ, ⟨d⟩I and shuffled gains.
plot_bulk_edge_table
    Eq. 10 against the measured bulk edge (and the centre), one row per parameter set.
plot_edge_deviations
    Fig. 2c: densities of empirical bulk edge − λ_bulk per CV.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.attractor.spectra import BulkEdgeRow, EdgeDeviations, GainSwap, SpectrumView

from .._checks import check_height, check_results
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _vline

__all__ = ["plot_bulk_edge_table", "plot_edge_deviations", "plot_gain_swap", "plot_spectrum"]

_BULK, _MEM, _AVE, _GREY = "#1f77b4", "#ff7f0e", "#2ca02c", "#7f7f7f"
_SHADE = "rgba(214, 39, 40, 0.08)"
_TOP_LEGEND = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 1.1, "yanchor": "bottom"}
_CV_COLORS = ("#9467bd", "#1f77b4", "#2ca02c", "#d62728", "#8c564b", "#e377c2")
_INSET_POINTS = 400  # at most this many (r, φ) points are drawn
_CIRCLE = np.linspace(0.0, 2.0 * np.pi, 121)
_MODE_TITLES = {
    "pattern": "D<sub>μ</sub>: the Jacobian",
    "mean": "D<sub>μ</sub> → ⟨d⟩I",
    "shuffled": "D<sub>μ</sub> shuffled over neurons",
}


def _complex_plane(view: Any, x: str, y: str, legend: bool = True) -> list[dict[str, Any]]:
    """Eigenvalue cloud, theory disc and centre, outliers and the −1 marker of one view."""
    th = view.theory
    lam = np.round(np.asarray(view.eigenvalues).ravel(), 4)
    c, rad = th.center, view.radius
    m = len(view.abscissa)
    mem = np.round(np.asarray(view.lambda_mem), 4)
    return [
        {
            "type": "scatter",
            "mode": "markers",
            "x": lam.real,
            "y": lam.imag,
            "xaxis": x,
            "yaxis": y,
            "name": f"eig J<sub>μ</sub> ({m} pattern{'s' if m > 1 else ''})",
            "marker": {"color": _BULK, "size": 4, "opacity": 0.6},
            "showlegend": legend,
            "legendgroup": "eig",
            "hovertemplate": "%{x:.4f} %{y:+.4f}i<extra></extra>",
        },
        {
            "type": "scatter",
            "mode": "markers+text",
            "x": [-1.0],
            "y": [0.0],
            "xaxis": x,
            "yaxis": y,
            "name": "N − P eigenvalues at −1",
            "text": [f"×{view.n_trivial}"],
            "textposition": "top right",
            "marker": {"color": _GREY, "size": 16, "opacity": 0.7},
            "showlegend": legend,
            "legendgroup": "triv",
            "hoverinfo": "name",
        },
        {
            "type": "scatter",
            "mode": "lines",
            "x": c + rad * np.cos(_CIRCLE),
            "y": rad * np.sin(_CIRCLE),
            "xaxis": x,
            "yaxis": y,
            "name": "disc of Eq. 10 (theory)",
            "line": {"color": _BULK, "dash": "dot", "width": 2},
            "showlegend": legend,
            "legendgroup": "disc",
            "hoverinfo": "skip",
        },
        {
            "type": "scatter",
            "mode": "markers",
            "x": [c, c + rad],
            "y": [0.0, 0.0],
            "xaxis": x,
            "yaxis": y,
            "name": "centre −1 + c<sub>rf</sub>/c<sub>rr</sub> and λ<sub>bulk</sub> (Eq. 10)",
            "marker": {
                "color": _BULK,
                "symbol": ["x-thin", "line-ns"],
                "size": 12,
                "line": {"width": 2, "color": _BULK},
            },
            "showlegend": legend,
            "legendgroup": "centre",
            "hovertemplate": "%{x:.4f}<extra>theory</extra>",
        },
        {
            "type": "scatter",
            "mode": "markers",
            "x": mem.real,
            "y": mem.imag,
            "xaxis": x,
            "yaxis": y,
            "name": "empirical λ<sub>mem</sub> (max |corr| with r<sup>μ</sup>)",
            "marker": {"color": _MEM, "size": 9, "symbol": "circle-open", "line": {"width": 2}},
            "showlegend": legend,
            "legendgroup": "mememp",
            "hovertemplate": "%{x:.4f} %{y:+.4f}i<extra>empirical λ<sub>mem</sub></extra>",
        },
        {
            "type": "scatter",
            "mode": "markers",
            "x": [th.lambda_mem],
            "y": [0.0],
            "xaxis": x,
            "yaxis": y,
            "name": "λ<sub>mem</sub> (Eq. 15)",
            "marker": {
                "color": _MEM,
                "size": 13,
                "symbol": "diamond-tall-open",
                "line": {"width": 2},
            },
            "showlegend": legend,
            "legendgroup": "mem",
            "hovertemplate": "%{x:.4f}<extra>λ<sub>mem</sub>, Eq. 15</extra>",
        },
        {
            "type": "scatter",
            "mode": "markers",
            "x": [th.lambda_ave],
            "y": [0.0],
            "xaxis": x,
            "yaxis": y,
            "name": "λ<sub>ave</sub> (Eq. 12)",
            "marker": {
                "color": _AVE,
                "size": 13,
                "symbol": "diamond-tall-open",
                "line": {"width": 2},
            },
            "showlegend": legend,
            "legendgroup": "ave",
            "hovertemplate": "%{x:.4f}<extra>λ<sub>ave</sub>, Eq. 12</extra>",
        },
    ]


def _plane_ranges(views: Sequence[Any]) -> tuple[list[float], list[float]]:
    """Common axis ranges covering −1, the disc, the outliers and every eigenvalue."""
    re = [-1.0, 0.1]
    im = [0.1]
    for v in views:
        lam = np.asarray(v.eigenvalues)
        th = v.theory
        re += [
            float(lam.real.min()),
            float(lam.real.max()),
            th.lambda_mem,
            th.lambda_ave,
            th.center + v.radius,
        ]
        im += [float(np.abs(lam.imag).max()), v.radius]
    lo, hi = min(re) - 0.08, max(re) + 0.08
    h = max(im) + 0.05
    return [lo, hi], [-h, h]


def _half_plane(x: str, y: str, hi: float) -> dict[str, Any]:
    """Shaded Re λ > 0 region (unstable half-plane) of one panel."""
    return {
        "type": "rect",
        "xref": x,
        "yref": f"{y} domain",
        "x0": 0.0,
        "x1": hi,
        "y0": 0,
        "y1": 1,
        "fillcolor": _SHADE,
        "line": {"width": 0},
        "layer": "below",
    }


@tidied
def plot_spectrum(view: Any, height: int = 520) -> go.Figure:
    """Fig. 2a: the spectrum of J_μ against the disc of Eq. 10 and the outliers.

    Parameters
    ----------
    view : SpectrumView
        From :func:`assocmem.attractor.spectrum_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left (equal aspect): the P nontrivial eigenvalues of each examined J_μ (blue dots),
        the N − P eigenvalues at −1 as one grey marker with their count, the theory disc of
        Eq. 10 (dotted circle) with its centre and right edge λ_bulk, λ_mem of Eq. 15 (orange
        diamond) and the empirical λ_mem (orange circles), λ_ave of Eq. 12 (green diamond),
        the line Re λ = 0 and the shaded unstable half-plane. Right: r_i vs φ(r_i) of the
        first pattern (at most 400 points) with the OLS line, τ_mem (Eq. 14) and the slope.
    """
    check_instance(view, "view", SpectrumView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        [
            "eigenvalues of J<sub>μ</sub> (complex plane)",
            "inset: r<sub>i</sub> vs φ(r<sub>i</sub>) (Fig. 2a)",
        ],
        widths=[1.7, 1.0],
        spacing=0.1,
    )
    traces = _complex_plane(v, x1, y1)
    xr, yr = _plane_ranges([v])
    step = -(-len(v.r) // _INSET_POINTS)  # ceil: at most _INSET_POINTS points (+ the extremes)
    r_all = np.asarray(v.r)
    keep = np.union1d(np.arange(0, len(r_all), step), [np.argmin(r_all), np.argmax(r_all)])
    r, phi = r_all[keep], np.asarray(v.phi)[keep]  # the fitted line's ends are data points
    line_x = np.array([float(np.min(v.r)), float(np.max(v.r))])
    traces += [
        {
            "type": "scatter",
            "mode": "markers",
            "x": np.round(r, 4),
            "y": np.round(phi, 4),
            "xaxis": x2,
            "yaxis": y2,
            "name": "neurons (r<sub>i</sub>, φ(r<sub>i</sub>))",
            "showlegend": False,
            "marker": {"color": _GREY, "size": 4, "opacity": 0.6},
            "hovertemplate": "r = %{x:.3f}<br>φ = %{y:.3f}<extra></extra>",
        },
        {
            "type": "scatter",
            "mode": "lines",
            "x": line_x,
            "y": v.intercept + v.slope * line_x,
            "xaxis": x2,
            "yaxis": y2,
            "name": "OLS line",
            "showlegend": False,
            "line": {"color": _MEM, "width": 2},
            "hoverinfo": "skip",
        },
    ]
    layout["annotations"].append(
        {
            "text": (
                f"τ<sub>mem</sub> = {v.tau_mem:.4f} (Eq. 14)<br>slope = {v.slope:.3f}<br>"
                f"slope − 1 = λ<sup>μ</sup><sub>mem</sub> = {v.slope - 1:+.3f}"
            ),
            # in the corner the fitted line leaves empty: lower right for a rising line
            "xref": f"{x2} domain",
            "yref": f"{y2} domain",
            "x": 0.98,
            "y": 0.02 if v.slope >= 0 else 0.98,
            "xanchor": "right",
            "yanchor": "bottom" if v.slope >= 0 else "top",
            "showarrow": False,
            "align": "right",
            "font": {"size": 12},
            "bgcolor": "rgba(255,255,255,0.8)",
        }
    )
    layout["shapes"] += [
        _half_plane(x1, y1, xr[1]),
        _vline(0.0, x1, y1, dash="solid"),
        _hline(0.0, x1, y1, dash="dot", color=_GREY),
    ]
    layout[_axis(x1)].update(title={"text": "Re λ"}, range=xr, constrain="domain")
    layout[_axis(y1)].update(title={"text": "Im λ"}, range=yr, scaleanchor=x1, scaleratio=1)
    layout[_axis(x2)].update(title={"text": "r<sub>i</sub><sup>μ</sup>"})
    phi = "φ(r<sub>i</sub><sup>μ</sup>) = d(r<sub>i</sub>)(u<sub>i</sub> + θ)"
    layout[_axis(y2)].update(title={"text": phi})
    mode = "" if v.gain_mode == "pattern" else f", gains: {_MODE_TITLES[v.gain_mode]}"
    title = (
        f"N = {v.N}, α = {v.alpha:.3g}, CV = {v.cv:.3g}, σ = {v.sigma:.3g}, n = {v.n:.3g}, "
        f"θ − θ* = {v.theta_shift:+.2f}{mode}<br>abscissa {float(np.mean(v.abscissa)):+.4f}; "
        f"bulk edge {float(np.mean(v.bulk_edge)):+.4f} vs λ<sub>bulk</sub> {v.lambda_bulk:+.4f} "
        f"(Eq. 10); centre {float(np.mean(v.bulk_mean)):+.4f} vs {v.theory.center:+.4f}"
    )
    layout.update(
        height=height,
        legend=_TOP_LEGEND,
        title={"text": title, "font": {"size": 13}, "y": 0.98},
        margin={"t": 150, "b": 50},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_gain_swap(swap: Any, height: int = 430) -> go.Figure:
    """The swap experiment (note §3.3): one panel per gain mode, common equal-aspect axes.

    Parameters
    ----------
    swap : GainSwap
        From :func:`assocmem.attractor.gain_swap`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Per mode: the P eigenvalues, the disc of Eq. 10, the outlier markers and the line
        Re λ = 0; each panel title gives the measured bulk edge and 90 % radius.
    """
    check_instance(swap, "swap", GainSwap)
    height = check_height(height)
    views = list(swap.views)
    titles = [
        f"{_MODE_TITLES[v.gain_mode]}<br>edge {float(np.mean(v.bulk_edge)):+.3f}, "
        f"radius₉₀ {float(np.mean(v.bulk_radius)):.3f}"
        for v in views
    ]
    layout, refs = _panels(titles, spacing=0.05)
    xr, yr = _plane_ranges(views)
    traces: list[dict[str, Any]] = []
    for i, (v, (x, y, _)) in enumerate(zip(views, refs, strict=True)):
        traces += _complex_plane(v, x, y, legend=i == 0)
        layout["shapes"] += [_half_plane(x, y, xr[1]), _vline(0.0, x, y, dash="solid")]
        layout[_axis(x)].update(title={"text": "Re λ"}, range=xr, constrain="domain")
        layout[_axis(y)].update(
            range=yr, scaleanchor=x, scaleratio=1, title={"text": "Im λ" if i == 0 else ""}
        )
    v0 = views[0]
    layout.update(
        height=height,
        legend=_TOP_LEGEND,
        margin={"t": 140, "b": 50},
        title={
            "text": f"N = {v0.N}, α = {v0.alpha:.3g}, CV = {v0.cv:.3g}, "
            f"σ = {v0.sigma:.3g}, n = {v0.n:.3g}, λ<sub>bulk</sub> (Eq. 10) = "
            f"{v0.lambda_bulk:+.3f}",
            "font": {"size": 13},
            "y": 0.98,
        },
    )
    return go.Figure(data=traces, layout=layout)


def _row_points(
    labels: list[str], y: list[float], name: str, marker: dict, error: list[float] | None = None
) -> dict[str, Any]:
    """One marker per table row (categorical x), optionally with ± error bars."""
    trace = {
        "type": "scatter",
        "mode": "markers",
        "x": labels,
        "y": y,
        "name": name,
        "marker": marker,
    }
    if error is not None:
        trace["error_y"] = {"type": "data", "array": error, "visible": True}
    return trace


@tidied
def plot_bulk_edge_table(rows: Sequence[Any], height: int = 420) -> go.Figure:
    """Eq. 10 against the measured bulk edge and centre, one column per parameter set.

    Parameters
    ----------
    rows : sequence of BulkEdgeRow
        From :func:`assocmem.attractor.bulk_edge_table`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Blue: λ_bulk of Eq. 10 (open diamond, the paper's prediction) and the measured edge
        (filled, ± sd over patterns); grey: theory centre (open) and measured mean (filled).
    """
    rows = check_results(rows, "rows", BulkEdgeRow, single=False)
    height = check_height(height)
    # One parameter a line, so that nine columns fit the book's column without slanting.
    labels = [f"CV {r.cv:g}<br>σ {r.sigma:g}<br>n {r.n:g}<br>α = {r.alpha:g}" for r in rows]
    open_marker = {"line": {"width": 2}}
    traces = [
        _row_points(
            labels,
            [r.lambda_bulk for r in rows],
            "λ<sub>bulk</sub>, Eq. 10 (paper)",
            {"color": _BULK, "symbol": "diamond-open", "size": 12, **open_marker},
        ),
        _row_points(
            labels,
            [r.edge_mean for r in rows],
            "measured bulk edge (ours)",
            {"color": _BULK, "size": 9},
            error=[r.edge_std for r in rows],
        ),
        _row_points(
            labels,
            [r.center for r in rows],
            "centre −1 + c<sub>rf</sub>/c<sub>rr</sub> (paper)",
            {"color": _GREY, "symbol": "circle-open", "size": 11, **open_marker},
        ),
        _row_points(
            labels,
            [r.bulk_mean for r in rows],
            "mean Re of the P eigenvalues (ours)",
            {"color": _GREY, "size": 6},
        ),
    ]
    n_pat, N = rows[0].patterns, rows[0].N
    layout = {
        "height": height,
        "legend": _TOP_LEGEND,
        "margin": {"t": 110, "b": 80},
        "yaxis": {"title": {"text": "Re λ"}, "zeroline": True},
        "xaxis": {"tickangle": 0},
        "title": {
            "text": f"bulk edge and centre, N = {N}, {n_pat} patterns per row, θ = θ*",
            "font": {"size": 13},
            "y": 0.98,
        },
    }
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_edge_deviations(dev: Any, height: int = 380) -> go.Figure:
    """Fig. 2c: density of empirical bulk edge − λ_bulk (Eq. 10), one curve per CV.

    Parameters
    ----------
    dev : EdgeDeviations
        From :func:`assocmem.attractor.edge_deviations`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Step curves of the pre-binned densities per CV (means in the legend) and a dashed line
        at 0, where Eq. 10 would be exact.
    """
    check_instance(dev, "dev", EdgeDeviations)
    height = check_height(height)
    edges = np.asarray(dev.edges, dtype=float)
    traces = []
    for k, (cv, dens) in enumerate(zip(dev.cvs, dev.density, strict=True)):
        h = np.asarray(dens, dtype=float)
        traces.append(
            {
                "type": "scatter",
                "mode": "lines",
                "x": np.round(edges, 4),
                "y": np.round(np.append(h, h[-1]), 4),
                "line": {"shape": "hv", "width": 2, "color": _CV_COLORS[k % 6]},
                "fill": "tozeroy",
                "opacity": 0.5,
                "name": f"CV = {cv:g} (mean {float(dev.mean[k]):+.3f})",
                "hovertemplate": "diff %{x:.3f}<br>density %{y:.2f}<extra></extra>",
            }
        )
    layout = {
        "height": height,
        "legend": _TOP_LEGEND,
        "margin": {"t": 90, "b": 50},
        "shapes": [_vline(0.0, "x", "y", dash="dash")],
        "xaxis": {"title": {"text": "empirical bulk edge − λ<sub>bulk</sub> (Eq. 10)"}},
        "yaxis": {"title": {"text": "density"}},
        "title": {
            "text": f"N = {dev.N}, σ = {dev.sigma:g}, n = {dev.n:g}, θ = θ*, α ∈ "
            f"{{{', '.join(f'{a:g}' for a in dev.alphas)}}}",
            "font": {"size": 13},
            "y": 0.98,
        },
    }
    return go.Figure(data=traces, layout=layout)
