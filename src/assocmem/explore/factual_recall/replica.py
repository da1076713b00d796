"""Figures for the factual-recall section "Where does 1/2 come from? Statistical physics".

Every function takes result objects from :mod:`assocmem.linear_memory.energetic` and returns a
plotly figure; none computes model quantities (logarithms and the (1-t) scaling are presentation).
Two-panel figures are laid out with axis domains, not ``make_subplots`` (slow in explorations),
and keep their legend at the top, clear of the book's slider.

Public functions
----------------
plot_free_entropy
    The potential h_α(q) of eq. (7) with its minimum (q*, φ), the band allowed by the paper's
    bounds on G, and the [OURS] closed form; beside it φ(α) against the annealed bound -α.
plot_energetic_mc
    (1-t) G_p(t) from Monte Carlo at one or several p, against the p → ∞ limit and the paper's
    bounds (C.35), (C.38).
plot_finite_size
    Fig. C.1: log(α_c - ½) against log log p, measured thresholds (LP, CE), the fitted slope,
    and the two finite-p estimates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.linear_memory.energetic import (
    EnergeticMC,
    FinitePCapacity,
    FiniteSizeScaling,
    FreeEntropyLandscape,
)

from .._checks import check_height, check_optional_result, check_results
from .._layout import tidied

__all__ = ["plot_energetic_mc", "plot_finite_size", "plot_free_entropy"]

_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.02, "yanchor": "bottom"}
_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
_BAND = "rgba(127, 127, 127, 0.18)"
_OURS = "#000000"
_EXCESS_HOVER = "p = %{customdata}<br>log(α<sub>c</sub> − ½) = %{y:.3f}<extra></extra>"


def _line(x: Any, y: Any, name: str, *, xaxis: str = "x", yaxis: str = "y", **style: Any) -> dict:
    return {"type": "scatter", "x": np.asarray(x), "y": np.asarray(y), "name": name,
            "mode": "lines", "xaxis": xaxis, "yaxis": yaxis, **style}


@tidied
def plot_free_entropy(landscape: Any, height: int = 430) -> go.Figure:
    """h_α(q) with its minimum, and φ(α), for one load (Claim 1, C9).

    Parameters
    ----------
    landscape : FreeEntropyLandscape
        From :func:`assocmem.linear_memory.free_entropy_landscape`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: h_α(q) with G evaluated numerically (blue), the [OURS] closed form with
        G = -1/(1-q) (black dots), the grey band between h with the paper's lower and upper
        bounds on G, and the minimum (q*, φ) (red star). Right: φ(α) (blue), ½ log(1-2α) [OURS]
        (black dots), the annealed bound -α (dashed) and the current α (red star).
    """
    check_instance(landscape, "landscape", FreeEntropyLandscape)
    height = check_height(height)
    r = landscape
    traces = [
        _line(r.q, r.h_lower, "h with the bounds (C.35), (C.38) on G", line={"width": 0},
              legendgroup="band", showlegend=False, hoverinfo="skip"),
        _line(r.q, r.h_upper, "h with the bounds (C.35), (C.38) on G", line={"width": 0},
              fill="tonexty", fillcolor=_BAND, legendgroup="band", hoverinfo="skip"),
        _line(r.q, r.h, "h<sub>α</sub>(q), G numerical (eq. (7))",
              line={"color": _COLORS[0], "width": 3},
              hovertemplate="q = %{x:.3f}<br>h = %{y:.4f}<extra></extra>"),
        _line(r.q, r.h_closed, "[ours] closed form G = −1/(1−q)",
              line={"color": _OURS, "dash": "dot", "width": 2}, legendgroup="ours"),
        {"type": "scatter", "x": [r.q_star], "y": [r.phi], "mode": "markers",
         "name": "minimum (q*, φ)", "marker": {"symbol": "star", "size": 14, "color": _COLORS[1]},
         "xaxis": "x", "yaxis": "y",
         "hovertemplate": "q* = %{x:.4f}<br>φ = %{y:.4f}<extra></extra>"},
        _line(r.alphas, r.annealed, "annealed bound −α", xaxis="x2", yaxis="y2",
              line={"color": "grey", "dash": "dash"}),
        _line(r.alphas, r.phis, "φ(α)", xaxis="x2", yaxis="y2", showlegend=False,
              line={"color": _COLORS[0], "width": 3},
              hovertemplate="α = %{x:.3f}<br>φ = %{y:.4f}<extra></extra>"),
        _line(r.alphas, r.phis_closed, "[ours] ½ log(1 − 2α)", xaxis="x2", yaxis="y2",
              showlegend=False, legendgroup="ours",
              line={"color": _OURS, "dash": "dot", "width": 2}),
        {"type": "scatter", "x": [r.alpha], "y": [r.phi], "mode": "markers",
         "marker": {"symbol": "star", "size": 14, "color": _COLORS[1]}, "showlegend": False,
         "xaxis": "x2", "yaxis": "y2", "hoverinfo": "skip"},
    ]
    title = (f"α = {r.alpha:.3g}: q* = {r.q_star:.4f} (2α = {r.q_star_closed:.4f}), "
             f"φ = {r.phi:.4f} (½ log(1−2α) = {r.phi_closed:.4f})")
    layout = go.Layout(
        height=height,
        title={"text": title, "font": {"size": 14}, "y": 0.98},
        xaxis={"domain": [0.0, 0.56], "range": [0.0, 1.0], "title": {"text": "overlap q"}},
        yaxis={"range": [r.phi - 1.0, 0.6], "title": {"text": "h<sub>α</sub>(q)"}},
        xaxis2={"domain": [0.68, 1.0], "range": [0.0, 0.5], "anchor": "y2",
                "title": {"text": "load α"}},
        yaxis2={"range": [-2.1, 0.05], "anchor": "x2",
                "title": {"text": "φ(α) = min<sub>q</sub> h<sub>α</sub>(q)"}},
        legend=_TOP_LEGEND,
        margin={"t": 110},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_energetic_mc(results: Any, endpoints: Any = None, height: int = 430) -> go.Figure:
    """(1-t) G_p(t) by Monte Carlo against the p → ∞ limit and the paper's bounds (C7, C8).

    Parameters
    ----------
    results : EnergeticMC or sequence of EnergeticMC
        From :func:`assocmem.linear_memory.energetic_G_mc`; the theory curves are taken from the
        first.
    endpoints : FinitePCapacity, optional
        From :func:`assocmem.linear_memory.finite_p_capacity_mc`: the t → 1 limits -c(p) are
        drawn at t = 1 (filled diamonds) with the step-function values -1/(2 α_c^step(p))
        (open diamonds), coloured like the result with the same p.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Markers with ±2 standard-error bars for each result; the limit (1-t) G(t) (G evaluated
        numerically; = -1, [OURS]); the lower bound -(1-t)(1+β)² (C.35) and the upper bounds
        -(1-t) β²/2 (k = 1) and -t (k → ∞) of (C.38), all p → ∞ statements.
    """
    items = check_results(results, "results", EnergeticMC)
    endpoints = check_optional_result(endpoints, "endpoints", FinitePCapacity)
    height = check_height(height)
    th = items[0].theory
    scale = 1.0 - th.t
    traces = [
        _line(th.t, scale * th.lower, "lower bound (C.35)", line={"color": "grey", "dash": "dash"}),
        _line(th.t, scale * th.upper_k1, "upper bound (C.38), k = 1",
              line={"color": "grey", "dash": "dashdot"}),
        _line(th.t, scale * th.upper, "upper bound (C.38), k → ∞",
              line={"color": "grey", "dash": "dot"}),
        _line(th.t, scale * th.limit, "p → ∞: (1−t) G(t)", line={"color": _OURS, "width": 2}),
    ]
    for i, r in enumerate(items):
        color = _COLORS[i % len(_COLORS)]
        err = 2.0 * (1.0 - r.t) * np.nan_to_num(r.stderr)
        label = f"p = {r.p:g}" + ("" if r.eta1 == "quadrature" else ", η₁ sampled")
        traces.append({
            "type": "scatter", "x": r.t, "y": r.scaled, "name": f"{label} ({r.samples} samples)",
            "mode": "lines+markers", "line": {"color": color}, "marker": {"size": 8},
            "error_y": {"type": "data", "array": err, "visible": True, "color": color},
            "customdata": np.column_stack([r.mean, r.stderr]),
            "hovertemplate": ("t = %{x:.2f}<br>(1−t) G<sub>p</sub> = %{y:.3f}<br>G<sub>p</sub> = "
                              "%{customdata[0]:.3f}"
                              " ± %{customdata[1]:.3f}<extra></extra>"),
        })
    if endpoints is not None:
        colour_of = {r.p: _COLORS[i % len(_COLORS)] for i, r in enumerate(items)}
        colours = [colour_of.get(int(p), "black") for p in endpoints.p]
        for name, values, symbol in (
            ("[ours] t → 1 limit −c(p)", -endpoints.cost, "diamond"),
            ("[ours] step estimate at t → 1", -0.5 / endpoints.alpha_c_step, "diamond-open"),
        ):
            traces.append({
                "type": "scatter", "x": np.ones(endpoints.p.size), "y": values, "name": name,
                "mode": "markers", "marker": {"symbol": symbol, "size": 12, "color": colours},
                "customdata": endpoints.p,
                "hovertemplate": "p = %{customdata}<br>%{y:.3f}<extra></extra>",
            })
    layout = go.Layout(
        height=height,
        xaxis={"range": [0.0, 1.03], "title": {"text": "overlap t"}},
        yaxis={"range": [-2.05, 0.02], "title": {"text": "(1 − t) G<sub>p</sub>(t)"}},
        legend=_TOP_LEGEND,
        margin={"t": 90},
    )
    return go.Figure(data=traces, layout=layout)


def _log_excess(alpha: np.ndarray) -> np.ndarray:
    """log(α − ½), NaN (a gap in the line) where α <= ½: a noisy estimate below the limit."""
    alpha = np.asarray(alpha, dtype=float)
    out = np.full(alpha.shape, np.nan)
    above = alpha > 0.5
    out[above] = np.log(alpha[above] - 0.5)
    return out


def _p_ticks(p_min: float, p_max: float) -> tuple[list[float], list[str]]:
    """Top-axis ticks of a log log p axis: the powers of ten in [p_min, p_max], as 10ᵏ."""
    powers = [k for k in (1, 2, 3, 4, 5, 6, 8, 12) if p_min <= 10.0**k <= p_max]
    text = ["10" if k == 1 else f"10<sup>{k}</sup>" for k in powers]
    return [float(np.log(k * np.log(10.0))) for k in powers], text


@tidied
def plot_finite_size(scaling: Any, height: int = 450) -> go.Figure:
    """Fig. C.1: log(α_c - ½) against log log p, measured and estimated (C23, C24).

    Parameters
    ----------
    scaling : FiniteSizeScaling
        From :func:`assocmem.linear_memory.finite_size_scaling`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Measured first-violation thresholds (LP squares, CE circles; open if censored), the
        least-squares line through them, a slope -1 line through their centroid (Fig. C.1),
        the [OURS] t → 1 limit of G_p with a ±2 s.e. band, and the step-function estimate of
        note §2.3 (dotted). The top axis marks p.
    """
    check_instance(scaling, "scaling", FiniteSizeScaling)
    height = check_height(height)
    s = scaling
    xc = np.log(np.log(s.p_curve.astype(float)))
    lim, se = s.limit.alpha_c, s.limit.alpha_c_stderr
    traces: list[dict] = [
        _line(xc, _log_excess(np.clip(lim - 2 * se, 0.5 + 1e-9, None)), "band", showlegend=False,
              line={"width": 0}, hoverinfo="skip"),
        _line(xc, _log_excess(lim + 2 * se), "band", showlegend=False, line={"width": 0},
              fill="tonexty", fillcolor="rgba(31, 119, 180, 0.2)", hoverinfo="skip"),
        _line(xc, _log_excess(lim),
              "[ours] α<sub>c</sub>(p) = 1/(2c(p)) (G<sub>p</sub> at t → 1)",
              line={"color": _COLORS[0], "width": 3}, customdata=s.p_curve,
              hovertemplate=_EXCESS_HOVER),
        _line(xc, _log_excess(s.alpha_step), "[ours] step-function estimate",
              line={"color": _COLORS[0], "dash": "dot"}, customdata=s.p_curve,
              hovertemplate=_EXCESS_HOVER),
    ]
    x, y = s.x, s.y
    used = ~s.censored & np.isfinite(y)
    for method, symbol, color in (("LP", "square", _COLORS[2]), ("CE", "circle", _COLORS[1])):
        for cens in (False, True):
            mask = np.array([m == method for m in s.method]) & (s.censored == cens)
            if not mask.any():
                continue
            name = {"LP": "exact LP feasibility", "CE": "CE + Adam, first violation"}[method]
            traces.append({
                "type": "scatter", "x": x[mask], "y": y[mask], "mode": "markers",
                "name": name + (" (censored)" if cens else ""),
                "marker": {"symbol": symbol + ("-open" if cens else ""), "size": 11,
                           "color": color},
                "customdata": np.column_stack([s.d[mask], s.p[mask], s.alpha_c[mask]]),
                "hovertemplate": ("d = %{customdata[0]}, p = %{customdata[1]}<br>"
                                  "α<sub>c</sub> = %{customdata[2]:.3f}<extra></extra>"),
            })
    if used.sum() >= 2 and np.isfinite(s.slope):
        xs = np.array([x[used].min(), x[used].max()])
        traces.append(_line(xs, s.intercept + s.slope * xs, f"fit: slope {s.slope:.2f}",
                            line={"color": "black", "dash": "dash"}))
        x0, y0 = x[used].mean(), y[used].mean()
        traces.append(_line(xs, y0 - (xs - x0), "slope −1 (Fig. C.1)",
                            line={"color": "grey", "dash": "dot"}))
    tickvals, ticktext = _p_ticks(float(s.p_curve.min()), float(s.p_curve.max()))
    layout = go.Layout(
        height=height,
        xaxis={"title": {"text": "log log p"}},
        xaxis2={"overlaying": "x", "side": "top", "tickvals": tickvals, "ticktext": ticktext,
                "title": {"text": "p", "standoff": 0}, "showgrid": False},
        yaxis={"title": {"text": "log(α<sub>c</sub> − ½)"}},
        legend={**_TOP_LEGEND, "y": 1.16},
        margin={"t": 150},
    )
    fig = go.Figure(data=traces, layout=layout)
    # an invisible trace on the top axis so that its ticks are drawn over the same range
    fig.add_trace(go.Scatter(x=xc, y=_log_excess(lim), xaxis="x2", mode="lines",
                             line={"width": 0}, showlegend=False, hoverinfo="skip"))
    fig.update_layout(xaxis2={"range": [float(xc.min()), float(xc.max())]},
                      xaxis={"range": [float(xc.min()), float(xc.max())]})
    return fig

