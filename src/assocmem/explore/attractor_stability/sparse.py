"""Figures for the attractor-stability section "Sparse patterns" (``as-sparse``).

Every function takes result objects from :mod:`assocmem.attractor.sparse` and returns a plotly
figure; none computes model quantities. Panels are laid out with axis domains (``_panels``), not
``make_subplots``; legends sit at the top, clear of the book's slider.

Public functions
----------------
plot_capacity
    α_C(f) from the replica equations, linear and log-log, with the 1/(2 f ln(1/f)) asymptote and
    reference values (Fig. 5g).
plot_storage
    Fraction of rows able to store every pattern versus α, with α_C(f) dashed (Fig. 5e).
plot_stability
    Stable fraction and mean spectral abscissa versus α for several f (Fig. 6a, d).
plot_threshold
    Mean spectral abscissa versus θ (C15).
plot_kink_profile
    Sorted fields of the silent units and the active-set spectrum under both conventions for
    g'(0) (the exploration).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.attractor.sparse import (
    CapacityCurve,
    KinkProfile,
    SparseStabilityScan,
    StorageScan,
    ThresholdScan,
)

from .._checks import check_height, check_results, check_strings, check_values
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _vline

__all__ = [
    "plot_capacity",
    "plot_kink_profile",
    "plot_stability",
    "plot_storage",
    "plot_threshold",
]

_TOP_LEGEND = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 1.08, "yanchor": "bottom"}
_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
_BLUE, _ORANGE = "#1f77b4", "#ff7f0e"


def _trace(x: Any, y: Any, name: str, xref: str = "x", yref: str = "y", **style: Any) -> dict:
    return {
        "type": "scatter",
        "x": np.round(np.asarray(x, dtype=float), 5),
        "y": np.round(np.asarray(y, dtype=float), 5),
        "name": name,
        "xaxis": xref,
        "yaxis": yref,
        **style,
    }


def _figure(traces: list[dict], layout: dict, height: int) -> go.Figure:
    layout.update(height=height, legend=_TOP_LEGEND, margin={"t": 90, "b": 50})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_capacity(
    curve: Any, reference: tuple[Sequence[float], Sequence[float]] | None = None, height: int = 420
) -> go.Figure:
    """α_C versus f, linear (left) and log-log (right), with the asymptote (Fig. 5g).

    Parameters
    ----------
    curve : CapacityCurve
        From :func:`assocmem.attractor.capacity_curve`.
    reference : (f values, α_C values), optional
        Reference values drawn as markers (e.g. the note's §2.1 table).
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    check_instance(curve, "curve", CapacityCurve)
    if reference is not None:
        if not isinstance(reference, list | tuple) or len(reference) != 2:
            raise TypeError(
                f"reference must be a pair (f values, α_C values), got {reference!r:.50}"
            )
        f_ref = check_values(reference[0], "reference[0]")
        reference = (f_ref, check_values(reference[1], "reference[1]", len(f_ref)))
    height = check_height(height)
    layout, refs = _panels(["α<sub>C</sub>(f), linear", "α<sub>C</sub>(f), log-log"])
    traces = []
    for i, (xr, yr, _) in enumerate(refs):
        show = i == 0
        traces.append(
            _trace(
                curve.f,
                curve.alpha_c,
                "replica α<sub>C</sub>(f) (appendix)",
                xr,
                yr,
                mode="lines",
                line={"color": _BLUE, "width": 3},
                showlegend=show,
                legendgroup="ac",
            )
        )
        traces.append(
            _trace(
                curve.f,
                curve.asymptote,
                "1/(2 f ln(1/f)) (asymptote, ours)",
                xr,
                yr,
                mode="lines",
                line={"color": "black", "dash": "dash"},
                showlegend=show,
                legendgroup="asym",
            )
        )
        if reference is not None:
            traces.append(
                _trace(
                    reference[0],
                    reference[1],
                    "tabulated replica values",
                    xr,
                    yr,
                    mode="markers",
                    marker={"color": _ORANGE, "size": 9, "symbol": "x"},
                    showlegend=show,
                    legendgroup="ref",
                )
            )
        layout[_axis(xr)]["title"] = "sparseness f"
        layout[_axis(yr)]["title"] = "α<sub>C</sub> = P/N"
    top = float(np.nanmax(curve.alpha_c))
    layout[_axis(refs[0][1])]["range"] = [0, min(top, 12.0) * 1.05]
    layout[_axis(refs[1][0])]["type"] = "log"
    layout[_axis(refs[1][1])]["type"] = "log"
    return _figure(traces, layout, height)


@tidied
def plot_storage(
    scans: Sequence[Any], height: int = 400, labels: Sequence[str] | None = None
) -> go.Figure:
    """Fraction of rows with a feasible Eq. 24 versus α, one curve per scan (Fig. 5e).

    Parameters
    ----------
    scans : sequence of StorageScan
        From :func:`assocmem.attractor.storage_fraction`.
    height : int
        Figure height in pixels, from 100 to 5000.
    labels : sequence of str, optional
        One legend label per scan (default ``"f = …, N = … (LP)"``); give them where two scans
        share f and N but differ in what the scan does not record (CV, θ, n).

    Returns
    -------
    plotly.graph_objects.Figure
        Measured fractions (lines, markers) and the replica α_C(f) (dashed vertical lines, one
        per f, in the colour of the first scan with that f). A scan whose f came earlier is
        drawn dotted with open markers over it, so that coinciding curves both stay visible.
    """
    scans = check_results(scans, "scans", StorageScan, single=False)
    height = check_height(height)
    labels = check_strings(labels, "labels", len(scans))
    traces, shapes = [], []
    first: dict[float, str] = {}  # f -> colour of its first scan
    for i, s in enumerate(scans):
        c = _COLORS[i % len(_COLORS)]
        repeat = s.f in first
        style = (
            {"line": {"color": c, "dash": "dot", "width": 3},
             "marker": {"symbol": "circle-open", "size": 11, "line": {"width": 2}}}
            if repeat
            else {"line": {"color": c}}
        )  # fmt: skip
        traces.append(
            _trace(
                s.alphas,
                s.stored_fraction,
                labels[i] if labels else f"f = {s.f:g}, N = {s.N} (LP)",
                mode="lines+markers",
                **style,
            )
        )
        if repeat:
            continue
        first[s.f] = c
        traces.append(
            _trace(
                [s.alpha_c, s.alpha_c],
                [0, 1],
                f"replica α<sub>C</sub>({s.f:g}) = {s.alpha_c:.3f}",
                mode="lines",
                line={"color": c, "dash": "dash"},
            )
        )
    layout = {
        "xaxis": {"title": "load α = P/N"},
        "yaxis": {"title": "fraction of rows stored", "range": [-0.05, 1.05]},
        "shapes": shapes,
    }
    return _figure(traces, layout, height)


@tidied
def plot_stability(scans: Sequence[Any], height: int = 420) -> go.Figure:
    """Stable fraction (left) and mean spectral abscissa (right) versus α (Fig. 6a, d).

    Parameters
    ----------
    scans : sequence of SparseStabilityScan
        From :func:`assocmem.attractor.sparse_stability_scan`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    scans = check_results(scans, "scans", SparseStabilityScan, single=False)
    height = check_height(height)
    layout, refs = _panels(["fraction of patterns stable", "mean spectral abscissa"])
    (x1, y1, _), (x2, y2, _) = refs
    traces = []
    for i, s in enumerate(scans):
        c = _COLORS[i % len(_COLORS)]
        name = f"f = {s.f:g}, κ = {s.kappa:g}"
        traces.append(
            _trace(
                s.alphas,
                s.stable_fraction,
                name,
                x1,
                y1,
                mode="lines+markers",
                line={"color": c},
                legendgroup=name,
            )
        )
        traces.append(
            _trace(
                s.alphas,
                s.mean_abscissa,
                name,
                x2,
                y2,
                mode="lines+markers",
                line={"color": c},
                legendgroup=name,
                showlegend=False,
            )
        )
    layout["shapes"].append(_hline(0.0, x2, y2, dash="dot"))
    layout[_axis(x1)]["title"] = "load α = P/N"
    layout[_axis(x2)]["title"] = "load α = P/N"
    layout[_axis(y1)]["range"] = [-0.05, 1.05]
    layout[_axis(y2)]["title"] = "max Re λ (units 1/τ)"
    return _figure(traces, layout, height)


@tidied
def plot_threshold(scan: Any, height: int = 380) -> go.Figure:
    """Mean spectral abscissa versus θ, with the best θ marked (C15).

    Parameters
    ----------
    scan : ThresholdScan
        From :func:`assocmem.attractor.sparse_threshold_scan`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    check_instance(scan, "scan", ThresholdScan)
    height = check_height(height)
    i = int(np.argmin(scan.mean_abscissa))
    traces = [
        _trace(
            scan.thetas,
            scan.mean_abscissa,
            f"mean abscissa (f = {scan.f:g}, α = {scan.alpha:g}, κ = {scan.kappa:g})",
            mode="lines+markers",
            line={"color": _BLUE},
        ),
        _trace(
            [scan.thetas[i]],
            [scan.mean_abscissa[i]],
            f"best θ = {scan.best_theta:g}",
            mode="markers",
            marker={"symbol": "star", "size": 14, "color": _ORANGE},
        ),
    ]
    layout = {
        "xaxis": {"title": "threshold θ"},
        "yaxis": {"title": "max Re λ (units 1/τ)"},
        "shapes": [_hline(0.0, "x", "y", dash="dot"), _vline(0.0, "x", "y", dash="dot")],
    }
    return _figure(traces, layout, height)


@tidied
def plot_kink_profile(profile: Any, height: int = 440) -> go.Figure:
    """Sorted silent-unit fields (left) and active-set eigenvalues (right) of one pattern.

    Parameters
    ----------
    profile : KinkProfile
        From :func:`assocmem.attractor.kink_profile`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: h = W r − θ of the silent units, sorted, with lines at 0 (the kink) and −κ.
        Right: eigenvalues of −I + D_A W_AA with g'(0) = 0 (blue) and g'(0) = 1 (orange), the
        line Re λ = 0 and equal aspect.
    """
    check_instance(profile, "profile", KinkProfile)
    height = check_height(height)
    p = profile
    layout, refs = _panels(
        [f"silent fields: {p.n_kink} of {p.n_silent} at h\u00a0=\u00a00", "active-set spectrum"],
        widths=[1.0, 1.0],
    )
    (x1, y1, _), (x2, y2, _) = refs
    traces = [
        _trace(
            np.arange(p.h_silent.size),
            p.h_silent,
            "h of silent units (sorted)",
            x1,
            y1,
            mode="markers",
            marker={"color": "grey", "size": 5},
        ),
        _trace(
            p.eigenvalues_one.real,
            p.eigenvalues_one.imag,
            f"g'(0) = 1: abscissa {p.abscissa_one:+.3f}",
            x2,
            y2,
            mode="markers",
            marker={"color": _ORANGE, "size": 7, "symbol": "x"},
        ),
        _trace(
            p.eigenvalues.real,
            p.eigenvalues.imag,
            f"g'(0) = 0: abscissa {p.abscissa:+.3f}",
            x2,
            y2,
            mode="markers",
            marker={"color": _BLUE, "size": 6},
        ),
    ]
    layout["shapes"] += [
        _hline(0.0, x1, y1, dash="dot"),
        _hline(-p.kappa, x1, y1, dash="dash", color=_ORANGE),
        _vline(0.0, x2, y2, dash="dot"),
    ]
    layout[_axis(x1)]["title"] = "silent unit (rank)"
    layout[_axis(y1)]["title"] = "h = (W r)<sub>i</sub> − θ"
    layout[_axis(x2)]["title"] = "Re λ"
    layout[_axis(y2)]["title"] = "Im λ"
    layout[_axis(y2)]["scaleanchor"] = x2
    return _figure(traces, layout, height)
