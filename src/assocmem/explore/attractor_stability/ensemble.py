"""Figures for the section on linearisation and the paired Gaussian ensemble (attractor chapter).

Every function takes result objects from :mod:`assocmem.attractor.ensemble` and returns a plotly
figure; none computes model quantities (eigenvalues, discs, α_S are fields of the results; only
the drawing of the circle and the axis ranges are computed here). Complex planes have equal
aspect; panels are laid out with axis domains, never ``make_subplots``.

Public functions
----------------
plot_reduction
    Full N × N Jacobian spectrum against the P × P reduction (Eq. 9), the N − P eigenvalues at
    −1 drawn as one counted marker.
plot_ensemble
    Playground: one draw of M = −cI + X Y†, the Eq. 21 circle, Re λ = 0, λ± (Eq. 22) and α_S
    (Eq. 23) in the title.
plot_ensemble_grid
    Fig. 7: eigenvalues (grey) and the Eq. 21 support (orange), α down the rows, ρ_xy across.
plot_ensemble_table
    The note §3.3 table: measured centre, edge and largest distance against the radius.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.attractor.ensemble import EnsembleGrid, EnsembleView, ReductionCheck

from .._checks import check_height, check_row_map
from .._layout import tidied
from .._panels import _axis, _circle_trace, _complex_points, _vline
from .._tables import table_figure

__all__ = ["plot_ensemble", "plot_ensemble_grid", "plot_ensemble_table", "plot_reduction"]

_EIG, _SUPPORT, _LOW, _TRIVIAL = "#7f7f7f", "#ff7f0e", "#1f77b4", "black"
_UNSTABLE = "rgba(214, 39, 40, 0.08)"
# right-aligned, so that the book's dropdown (top left) does not cover it
_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.02, "yanchor": "bottom"}


def _circle(center: float, radius: float, x: str, y: str, name: str, legend: bool) -> dict:
    """The Eq. 21 support as a parametric orange dashed line."""
    line = {"color": _SUPPORT, "dash": "dash", "width": 2}
    return _circle_trace(center, radius, (x, y), name, line, legend)


def _points(
    z: Any,
    x: str,
    y: str,
    name: str,
    color: str,
    legend: bool,
    size: float = 4,
    symbol: str = "circle",
) -> dict:
    marker = {"color": color, "size": size, "symbol": symbol}
    return _complex_points(z, (x, y), name, marker, legend)


def _box(z: Any, extra: list[float], pad: float = 0.08) -> tuple[list[float], list[float]]:
    """Axis ranges around the eigenvalues and the given real points, with a margin."""
    z = np.asarray(z)
    lo = min([float(z.real.min()), *extra])
    hi = max([float(z.real.max()), *extra])
    half = max(float(np.abs(z.imag).max()), 0.5 * (hi - lo), 1e-3) * (1 + pad)
    mid = 0.5 * (lo + hi)
    return [mid - half, mid + half], [-half, half]


def _plane_layout(
    title: str, xr: list[float], yr: list[float], unit: str, height: int, top: int
) -> dict[str, Any]:
    """One complex plane with equal aspect (scaleanchor), the legend on top."""
    return {
        "height": height,
        "legend": _TOP_LEGEND,
        "margin": {"t": top, "b": 50},
        "title": {"text": title, "font": {"size": 13}, "y": 0.97},
        "xaxis": {"title": {"text": f"Re λ{unit}"}, "range": xr, "zeroline": False},
        "yaxis": {
            "title": {"text": f"Im λ{unit}"},
            "range": yr,
            "scaleanchor": "x",
            "scaleratio": 1,
            "zeroline": False,
        },
    }


@tidied
def plot_reduction(check: Any, height: int = 380) -> go.Figure:
    """Full spectrum of J*_μ against eig(K_μ) − 1, the reduction of Eq. 9 (note §1.6).

    Parameters
    ----------
    check : ReductionCheck
        From :func:`assocmem.attractor.reduction_check`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Complex plane, equal aspect: the N full eigenvalues (grey circles), the P low-rank ones
        (blue crosses), and the pile at −1 as one black marker labelled with its count; the
        title gives N, P, the count and the largest difference.
    """
    check_instance(check, "check", ReductionCheck)
    height = check_height(height)
    chk = check
    trivial = np.abs(chk.full + 1.0) < chk.tol
    traces = [
        _points(
            chk.full[~trivial],
            "x",
            "y",
            f"full eig of J*<sub>μ</sub> ({chk.N - trivial.sum()} away from −1)",
            _EIG,
            True,
            size=9,
            symbol="circle-open",
        ),
        _points(
            chk.lowrank,
            "x",
            "y",
            f"eig(K<sub>μ</sub>) − 1 (P = {chk.P})",
            _LOW,
            True,
            size=5,
            symbol="x",
        ),
        {
            "type": "scatter",
            "mode": "markers+text",
            "x": [-1.0],
            "y": [0.0],
            "marker": {"color": _TRIVIAL, "size": 14, "symbol": "diamond"},
            "text": [f"  {chk.n_at_minus_one} at −1"],
            "textposition": "middle right",
            "name": f"N − P = {chk.n_trivial} eigenvalues at −1 (not in the disc)",
            "hovertemplate": f"{chk.n_at_minus_one} eigenvalues with |λ+1| < {chk.tol:g}"
            "<extra></extra>",
        },
    ]
    xr, _ = _box(chk.full, [-1.15, 0.05])
    half = 1.3 * float(np.abs(chk.full.imag).max()) + 0.05
    yr = [-half, half]  # equal aspect: plotly widens this range to fit the panel
    title = (
        f"J*<sub>μ</sub> at N = {chk.N}, P = {chk.P}: {chk.n_at_minus_one} eigenvalues at −1 "
        f"(N − P = {chk.n_trivial}); max |full − low rank| = {chk.max_difference:.1e}"
    )
    layout = _plane_layout(title, xr, yr, " (1/τ)", height, 110)
    layout["shapes"] = [_vline(0.0, "x", "y", dash="solid")]
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_ensemble(view: Any, height: int = 520) -> go.Figure:
    """Playground: one draw of M = −cI + X Y† against Eqs. 21-23.

    Parameters
    ----------
    view : EnsembleView
        From :func:`assocmem.attractor.ensemble_view` (or ``surrogate_view``).
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Complex plane, equal aspect: the P non-trivial eigenvalues (grey), the Eq. 21 circle
        (orange dashed), λ± of Eq. 22 (orange diamonds), the N − P eigenvalues at −c as one
        counted black marker, and the stability boundary Re λ = 0 (black line, the unstable
        half-plane shaded). The title gives α_S of Eq. 23 and λ₊ against the measured max Re λ.
    """
    check_instance(view, "view", EnsembleView)
    height = check_height(height)
    v, d = view, view.disc
    # the count is written beside the −c marker only where no eigenvalue lies near it (outside
    # the Eq. 21 support and clear of the eigenvalues); the legend entry gives it in any case
    clear = 0.05 * max(float(d.radius), 0.1)
    alone = abs(-d.c - complex(d.center)) > 1.1 * d.radius + clear and (
        v.eigenvalues.size == 0 or float(np.min(np.abs(v.eigenvalues + d.c))) > 2 * clear
    )
    traces = [
        _points(v.eigenvalues, "x", "y", f"P = {v.P} eigenvalues of M", _EIG, True),
        _circle(d.center, d.radius, "x", "y", "Eq. 21 support", True),
        {
            "type": "scatter",
            "mode": "markers",
            "x": [d.lambda_minus, d.lambda_plus],
            "y": [0.0, 0.0],
            "marker": {"color": _SUPPORT, "size": 11, "symbol": "diamond"},
            "name": "λ± (Eq. 22)",
            "hovertemplate": "λ = %{x:.4f}<extra>Eq. 22</extra>",
        },
        {
            "type": "scatter",
            "mode": "markers+text" if alone else "markers",
            "x": [-d.c],
            "y": [0.0],
            "marker": {
                "color": _TRIVIAL,
                "size": 12,
                "symbol": "x-thin",
                "line": {"width": 2, "color": _TRIVIAL},
            },
            "text": [f"{v.n_trivial}×"],
            "textposition": "top center",
            "name": f"N − P = {v.n_trivial} at −c (not in the disc)",
            "hovertemplate": "λ = −c = %{x:.3f}<extra></extra>",
        },
    ]
    xr, yr = _box(v.eigenvalues, [d.lambda_minus, d.lambda_plus, -d.c, 0.0])
    shapes = [
        {
            "type": "rect",
            "xref": "x",
            "yref": "y domain",
            "x0": 0.0,
            "x1": max(xr[1], 0.0) + 3.0 * (xr[1] - xr[0]),  # past the widened equal-aspect range
            "y0": 0,
            "y1": 1,
            "fillcolor": _UNSTABLE,
            "line": {"width": 0},
            "layer": "below",
        },
        _vline(0.0, "x", "y", dash="solid"),
    ]
    state = "stable" if v.abscissa < 0 else "unstable"
    a_s = f"{v.alpha_s:.3f}" if v.alpha_s > 0 else "0 (centre ≥ 0: no stable load)"
    title = (
        f"α = {v.alpha:.3g}, ρ<sub>xy</sub> = {d.rho_xy:.3g}, "
        f"σ<sub>x</sub>/σ<sub>y</sub> = {d.sigma_x / d.sigma_y:.3g}, "
        f"c = {d.c:.3g}, N = {v.N}<br>α<sub>S</sub> (Eq. 23) = {a_s}; λ₊ (Eq. 22) = "
        f"{d.lambda_plus:.3f}, measured max Re λ = {v.max_real:.3f}: {state}"
    )
    layout = _plane_layout(title, xr, yr, "", height, 130)
    layout["shapes"] = shapes
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_ensemble_grid(grid: Any, height: int = 760) -> go.Figure:
    """Fig. 7 of the paper: ensemble eigenvalues (grey) and the Eq. 21 support (orange).

    Parameters
    ----------
    grid : EnsembleGrid
        From :func:`assocmem.attractor.ensemble_grid`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        len(alphas) × len(rhos) complex planes (α down the rows, ρ_xy across the columns), each
        with equal aspect and its own range, as in the paper ("the range of the axes differs
        between panels, as predicted").
    """
    check_instance(grid, "grid", EnsembleGrid)
    height = check_height(height)
    rows, cols = len(grid.alphas), len(grid.rhos)
    gap_x, gap_y = 0.06, 0.08
    w, h = (1 - gap_x * (cols - 1)) / cols, (1 - gap_y * (rows - 1)) / rows
    layout: dict[str, Any] = {"annotations": [], "shapes": []}
    traces = []
    for i, (a, row) in enumerate(zip(grid.alphas, grid.views, strict=True)):
        for j, (rho, v) in enumerate(zip(grid.rhos, row, strict=True)):
            k = i * cols + j + 1
            x, y = ("x", "y") if k == 1 else (f"x{k}", f"y{k}")
            x0, y1 = j * (w + gap_x), 1 - i * (h + gap_y)
            xr, yr = _box(v.eigenvalues, [v.disc.lambda_minus, v.disc.lambda_plus])
            layout[_axis(x)] = {
                "domain": [max(0.0, x0), min(1.0, x0 + w)],
                "anchor": y,
                "range": xr,
                "title": {"text": "Re λ" if i == rows - 1 else ""},
            }
            layout[_axis(y)] = {
                "domain": [max(0.0, y1 - h), min(1.0, y1)],
                "anchor": x,
                "range": yr,
                "scaleanchor": x,
                "scaleratio": 1,
                "constrain": "domain",
                "title": {"text": f"α = {a:g}<br>Im λ" if j == 0 else ""},
            }
            traces.append(_points(v.eigenvalues, x, y, "eigenvalues", _EIG, k == 1, size=3))
            traces.append(_circle(v.disc.center, v.disc.radius, x, y, "Eq. 21 support", k == 1))
            if i == 0:
                layout["annotations"].append(
                    {
                        "text": f"ρ<sub>xy</sub> = {rho:g}",
                        "x": x0 + w / 2,
                        "y": 1.0,
                        "xref": "paper",
                        "yref": "paper",
                        "xanchor": "center",
                        "yanchor": "bottom",
                        "showarrow": False,
                        "font": {"size": 14},
                    }
                )
    v0 = grid.views[0][0]
    layout.update(
        height=height,
        legend=_TOP_LEGEND,
        margin={"t": 100, "b": 50},
        title={
            "text": f"Gaussian paired pseudo-inverse ensemble M = −cI + XY†, N = {v0.N}, "
            f"σ<sub>x</sub> = {v0.disc.sigma_x:g}, σ<sub>y</sub> = {v0.disc.sigma_y:g}, "
            f"c = {v0.disc.c:g}"
            " (Fig. 7)",
            "font": {"size": 13},
            "y": 0.985,
        },
    )
    layout["legend"] = {**_TOP_LEGEND, "y": 1.05}
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_ensemble_table(
    grid: Any,
    reference: Mapping[tuple[float, float], tuple[float, float]] | None = None,
    height: int = 360,
) -> go.Figure:
    """The note §3.3 table: measured centre, edge and largest distance against the Eq. 21 radius.

    Parameters
    ----------
    grid : EnsembleGrid
        From :func:`assocmem.attractor.ensemble_grid`.
    reference : mapping, optional
        (α, ρ_xy) -> (max Re λ − centre, max |λ − centre|) quoted from the note; shown beside
        ours where present.
    height : int
        Figure height in pixels, from 100 to 5000; raised to what the rows need, so that the
        table never scrolls.

    Returns
    -------
    plotly.graph_objects.Figure
        One ``go.Table`` row per panel of the grid, as tall as its rows
        (:func:`~assocmem.explore._tables.table_figure`).
    """
    check_instance(grid, "grid", EnsembleGrid)
    ref = check_row_map(reference, "reference", 2) or {}
    height = check_height(height)
    rows = grid.rows()
    note = [ref.get((r["alpha"], r["rho_xy"])) for r in rows]
    dash = "–"
    columns = [
        [f"{r['alpha']:g}" for r in rows],
        [f"{r['rho_xy']:g}" for r in rows],
        [f"{r['radius']:.3f}" for r in rows],
        [f"{r['center_error']:+.4f}" for r in rows],
        [
            f"{r['edge']:.3f}<br>({r['edge'] / r['radius']:.2f} ρ)"
            if r["radius"]
            else f"{r['edge']:.3f}"
            for r in rows
        ],
        [f"{n[0]:.3f}" if n else dash for n in note],
        [
            f"{r['max_distance']:.3f}<br>({r['max_distance'] / r['radius']:.2f} ρ)"
            if r["radius"]
            else f"{r['max_distance']:.3f}"
            for r in rows
        ],
        [f"{n[1]:.3f}" if n else dash for n in note],
    ]
    # two lines per header and per row, broken by hand, in columns wide enough for each line
    header = [
        "α",
        "ρ<sub>xy</sub>",
        "radius ρ<br>(Eq. 21)",
        "mean Re λ<br>− centre",
        "max Re λ<br>− centre",
        "earlier<br>run",
        "max<br>|λ − centre|",
        "earlier<br>run",
    ]
    fig = table_figure(
        header,
        columns,
        columnwidth=[0.6, 0.6, 1.0, 1.0, 1.2, 0.8, 1.2, 0.8],
        header_style={"fill": {"color": "#eeeeee"}, "align": "center"},
        cell_style={"align": "center"},
    )
    return fig.update_layout(height=max(height, fig.layout.height))
