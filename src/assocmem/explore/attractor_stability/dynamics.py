"""Figures for the attractor-stability section "Kicks, basins and noise" (07_dynamics).

Every function takes result objects from :mod:`assocmem.attractor.dynamics` and returns a
plotly figure; none computes model quantities (reference lines such as e^{λ* t} or η²/(2|λ|)
are drawn from the abscissa the result carries). Panels are laid out with
:func:`assocmem.explore._panels._panels`, legends sit at the top (clear of the book's slider).
Everything shown here is an extension: the paper only does linear stability (note §4.4).

Public functions
----------------
plot_kicks
    Relative distance ‖r(t) − r^μ‖/‖r^μ‖ vs t (log y) of kicked runs, one panel per run, with
    the slope of the spectral abscissa and the point where a run blew up.
plot_basins
    Fraction of kicks recovered vs kick size ε (log x) per load and direction, and the local
    exponential rate of the distance against the abscissa.
plot_fluctuations
    Noisy dynamics: measured vs Lyapunov total variance per load, and the variance along the
    slowest mode against η²/(2|λ*|).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem.attractor.dynamics import BasinCurve, DecayFit, Fluctuations, KickRun

from .._checks import check_height, check_optional_result, check_results, check_strings
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _positive_or_none

__all__ = ["plot_basins", "plot_fluctuations", "plot_kicks"]

_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.1, "yanchor": "bottom"}
_MEM = "#ff7f0e"  # λ_mem and the along-pattern kick (Eq. 15)
_DIRECTION_COLOURS = {
    "random": ("#1f77b4", "#6baed6", "#9ecae1"),
    "pattern": (_MEM,),
    "other": ("#9467bd",),
}
_LOAD_COLOURS = ("#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#a6761d", "#666666")
_DASH = {"random": "solid", "other": "dash", "pattern": "dot"}
_SYMBOL = {"random": "circle", "other": "square", "pattern": "diamond"}
_MAX_POINTS = 400


def _figure(traces: list, layout: dict, title: str, height: int, top: int) -> go.Figure:
    """The figure with a small title and the legend at the top (clear of the book's slider)."""
    layout.update(
        height=height,
        legend=_TOP_LEGEND,
        margin={"t": top},
        title={"text": title, "font": {"size": 13}, "y": 0.99},
    )
    return go.Figure(data=traces, layout=layout)


def _thin(k: int) -> slice:
    """Every s-th recorded step, so a trace has at most _MAX_POINTS points (page weight)."""
    return slice(None, None, max(1, int(np.ceil(k / _MAX_POINTS))))


@tidied
def plot_kicks(
    runs: Any,
    titles: Sequence[str] | None = None,
    fits: Sequence[Any] | None = None,
    height: int = 460,
) -> go.Figure:
    """Distance to the pattern vs time for kicked runs, one panel per :class:`KickRun`.

    Parameters
    ----------
    runs : KickRun or sequence of KickRun
        From :func:`assocmem.attractor.kick_experiment`.
    titles : sequence of str, optional
        Panel titles (default: n, α and the abscissa of each run).
    fits : sequence of DecayFit or None, optional
        From :func:`assocmem.attractor.decay_rate`, one per run: the fitted lines are drawn
        (black, dotted) over their windows.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Per panel: one line per kick (blue: random, orange: along the pattern, purple: towards
        another pattern), a dashed grey line of slope λ* (the spectral abscissa, e^{λ* t}) through
        the first kick's distance halfway to its end (or its blow-up), and a red × where each run
        that blew up stopped.
    """
    runs = check_results(runs, "runs", KickRun)
    height = check_height(height)
    if fits is not None and not isinstance(fits, list | tuple):
        raise TypeError(f"fits must be None or a list of DecayFit (or None), got {fits!r:.80}")
    fit_list = list(fits) if fits is not None else [None] * len(runs)
    if len(fit_list) != len(runs):
        raise ValueError(f"fits must hold one entry per run ({len(runs)}), got {len(fit_list)}")
    for k, fit in enumerate(fit_list):
        check_optional_result(fit, f"fits[{k}]", DecayFit)
    heads = check_strings(titles, "titles", len(runs))
    if heads is None:
        heads = [f"n = {r.n:g}, α = {r.alpha:.2g}<br>λ* = {r.abscissa:+.3f}" for r in runs]
    layout, refs = _panels(heads, spacing=0.07)
    traces: list[dict] = []
    seen: set[str] = set()
    for run, fit, (x, y, _) in zip(runs, fit_list, refs, strict=True):
        sl = _thin(run.times.size)
        count: dict[str, int] = {}
        for b, (eps, d) in enumerate(zip(run.eps, run.direction, strict=True)):
            shades = _DIRECTION_COLOURS[d]
            colour = shades[min(count.get(d, 0), len(shades) - 1)]
            count[d] = count.get(d, 0) + 1
            name = f"{d} kick, ε = {eps:g}"
            traces.append(
                {
                    "type": "scatter",
                    "x": run.times[sl],
                    "y": _positive_or_none(run.distance[sl, b]),
                    "mode": "lines",
                    "name": name,
                    "legendgroup": name,
                    "showlegend": name not in seen,
                    "line": {"color": colour, "width": 2},
                    "xaxis": x,
                    "yaxis": y,
                    "hovertemplate": "t = %{x:.1f}<br>d = %{y:.3g}<extra>" + name + "</extra>",
                }
            )
            seen.add(name)
        t_end = float(run.t_stop[0])  # the slope line follows the first kick while it runs
        t_mid = t_end / 2
        k_mid = int(np.searchsorted(run.times, t_mid))
        d_mid = float(run.distance[k_mid, 0])
        if d_mid > 0:
            t_line = np.asarray([0.0, t_end])
            name = "slope of the abscissa, e<sup>λ* t</sup>"
            traces.append(
                {
                    "type": "scatter",
                    "x": t_line,
                    "y": d_mid * np.exp(run.abscissa * (t_line - t_mid)),
                    "mode": "lines",
                    "name": name,
                    "legendgroup": name,
                    "showlegend": name not in seen,
                    "line": {"color": "grey", "dash": "dash", "width": 1.5},
                    "xaxis": x,
                    "yaxis": y,
                }
            )
            seen.add(name)
        if fit is not None:
            for b in np.flatnonzero(np.isfinite(fit.rate)):
                t_fit = np.asarray([fit.t_lo, min(fit.t_hi, float(run.times[-1]))])
                name = "least-squares fit of log d"
                traces.append(
                    {
                        "type": "scatter",
                        "x": t_fit,
                        "y": np.exp(fit.intercept[b] + fit.rate[b] * t_fit),
                        "mode": "lines",
                        "name": name,
                        "legendgroup": name,
                        "showlegend": name not in seen,
                        "line": {"color": "black", "dash": "dot", "width": 2},
                        "xaxis": x,
                        "yaxis": y,
                    }
                )
                seen.add(name)
        if run.blew_up:
            blown = np.flatnonzero(run.blown)
            stops = run.t_stop[blown]
            last = run.distance[np.searchsorted(run.times, stops), blown]
            name = "run blew up (stopped here)"
            traces.append(
                {
                    "type": "scatter",
                    "x": stops,
                    "y": _positive_or_none(last),
                    "mode": "markers",
                    "name": name,
                    "legendgroup": name,
                    "showlegend": name not in seen,
                    "xaxis": x,
                    "yaxis": y,
                    "marker": {"symbol": "x", "size": 12, "color": "#d62728"},
                }
            )
            seen.add(name)
        layout[_axis(x)].update({"title": {"text": "time t (units of τ)"}})
        layout[_axis(y)].update({"type": "log", "exponentformat": "power"})
    layout[_axis(refs[0][1])]["title"] = {"text": "‖r(t) − r<sup>μ</sup>‖ / ‖r<sup>μ</sup>‖"}
    layout.update(height=height, legend={**_TOP_LEGEND, "y": 1.2}, margin={"t": 150})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_basins(curves: Any, height: int = 430) -> go.Figure:
    """Fraction of kicks recovered vs kick size, and the local rate, per load and direction.

    Parameters
    ----------
    curves : BasinCurve or sequence of BasinCurve
        From :func:`assocmem.attractor.basin_curve`; colour by load, dash by direction
        (solid: random, dashed: towards another pattern, dotted: along the pattern).
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: recovered fraction vs ε (log x) with a marker at the basin radius (50 % line
        dashed). Right: median local exponential rate of d(t) (second half of the run) vs ε,
        with each curve's spectral abscissa λ* as a dotted horizontal line of its colour:
        small kicks decay at rate λ* when λ* < 0 and grow at about λ* when λ* > 0.
    """
    curves = check_results(curves, "curves", BasinCurve)
    height = check_height(height)
    layout, refs = _panels(
        ["fraction of kicks recovered", "local rate of d(t) vs abscissa λ*"], spacing=0.1
    )
    (x1, y1, _), (x2, y2, _) = refs
    alphas = sorted({c.alpha for c in curves})
    traces: list[dict] = []
    for c in curves:
        colour = _LOAD_COLOURS[alphas.index(c.alpha) % len(_LOAD_COLOURS)]
        dash = _DASH[c.direction]
        # earlier curves wider, so that coinciding curves (all 1 or all 0) stay visible
        style = {
            "color": colour,
            "dash": dash,
            "width": 2.5 if len(alphas) == 1 else max(1.5, 5.5 - 1.3 * alphas.index(c.alpha)),
        }
        marker = {"symbol": _SYMBOL[c.direction], "size": 8}
        name = f"α = {c.alpha:.3g}, {c.direction} (λ* = {c.abscissa:+.3f})"
        group = f"{c.alpha}-{c.direction}"
        traces.append(
            {
                "type": "scatter",
                "x": c.eps,
                "y": c.recovered,
                "mode": "lines+markers",
                "name": name,
                "legendgroup": group,
                "xaxis": x1,
                "yaxis": y1,
                "line": style,
                "marker": marker,
                "hovertemplate": "ε = %{x:.3g}<br>recovered %{y:.2f}<extra>" + name + "</extra>",
            }
        )
        if c.radius > 0:
            traces.append(
                {
                    "type": "scatter",
                    "x": [c.radius],
                    "y": [0.5],
                    "mode": "markers",
                    "name": f"radius {c.radius:g}",
                    "legendgroup": group,
                    "showlegend": False,
                    "xaxis": x1,
                    "yaxis": y1,
                    "marker": {"symbol": "diamond", "size": 11, "color": colour},
                    "hovertemplate": "basin radius ε = %{x:.3g}<extra>" + name + "</extra>",
                }
            )
        traces.append(
            {
                "type": "scatter",
                "x": c.eps,
                "y": c.rate,
                "mode": "lines+markers",
                "name": name,
                "legendgroup": group,
                "showlegend": False,
                "xaxis": x2,
                "yaxis": y2,
                "line": style,
                "marker": marker,
                "hovertemplate": "ε = %{x:.3g}<br>rate %{y:.4f}<extra>" + name + "</extra>",
            }
        )
        layout["shapes"].append(_hline(c.abscissa, x2, y2, dash="dot", color=colour))
    layout["shapes"].append(_hline(0.5, x1, y1, dash="dash", color="grey"))
    layout["shapes"].append(_hline(0.0, x2, y2, dash="solid", color="black"))
    for x, label in ((x1, "kick size ε"), (x2, "kick size ε")):
        layout[_axis(x)].update(
            {"type": "log", "title": {"text": label}, "exponentformat": "power"}
        )
    layout[_axis(y1)].update({"range": [-0.05, 1.05], "title": {"text": "recovered fraction"}})
    layout[_axis(y2)].update({"title": {"text": "d ln d / dt (units 1/τ)"}})
    c0 = curves[0]
    title = f"N = {c0.N}, T = {c0.T:g}τ, recovered: d(T) ≤ {c0.shrink:g}·d(0)"
    return _figure(traces, layout, title, height, top=130)


@tidied
def plot_fluctuations(results: Any, height: int = 430) -> go.Figure:
    """Noisy dynamics around stable patterns: measured against Lyapunov covariances.

    Parameters
    ----------
    results : Fluctuations or sequence of Fluctuations
        From :func:`assocmem.attractor.stationary_covariance`, e.g. one per load.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: total variance tr C / η² vs load α, measured (markers) and Lyapunov (open
        markers, for the Euler–Maruyama step). Right: variance along the slowest left
        eigenvector / η² vs |λ*| (log-log), measured (markers) against 1/(2|λ*|) (dashed),
        which diverges as the abscissa → 0 (α → α_S).
    """
    res = sorted(check_results(results, "results", Fluctuations), key=lambda f: f.alpha)
    height = check_height(height)
    layout, refs = _panels(
        ["total variance tr C / η²", "variance along the slowest mode / η²"], spacing=0.1
    )
    (x1, y1, _), (x2, y2, _) = refs
    alpha = np.asarray([f.alpha for f in res])
    lam = np.asarray([abs(f.abscissa) for f in res])
    eta2 = np.asarray([f.eta**2 for f in res])
    label = [f"α = {f.alpha:.3g}, λ* = {f.abscissa:+.4f}" for f in res]
    traces: list[dict] = [
        {
            "type": "scatter",
            "x": alpha,
            "y": [f.total_var_emp for f in res] / eta2,
            "mode": "markers",
            "name": "measured (Euler–Maruyama)",
            "legendgroup": "emp",
            "marker": {"size": 11, "color": "#1f77b4"},
            "xaxis": x1,
            "yaxis": y1,
            "text": label,
            "hovertemplate": "%{text}<br>tr C/η² = %{y:.1f}<extra></extra>",
        },
        {
            "type": "scatter",
            "x": alpha,
            "y": [f.total_var_pred for f in res] / eta2,
            "mode": "markers+lines",
            "name": "Lyapunov J C + C Jᵀ + η² I = 0",
            "legendgroup": "th",
            "marker": {"size": 13, "symbol": "circle-open", "color": "black"},
            "line": {"dash": "dash", "color": "black"},
            "xaxis": x1,
            "yaxis": y1,
            "text": label,
            "hovertemplate": "%{text}<br>Lyapunov tr C/η² = %{y:.1f}<extra></extra>",
        },
        {
            "type": "scatter",
            "x": lam,
            "y": [f.slow_var_emp for f in res] / eta2,
            "mode": "markers",
            "name": "measured (Euler–Maruyama)",
            "legendgroup": "emp",
            "showlegend": False,
            "marker": {"size": 11, "color": "#1f77b4"},
            "xaxis": x2,
            "yaxis": y2,
            "text": label,
            "hovertemplate": "%{text}<br>var/η² = %{y:.1f}<extra></extra>",
        },
    ]
    grid = np.geomspace(min(lam.min() / 10, 0.003), max(lam.max() * 2, 0.1), 50)
    traces.append(
        {
            "type": "scatter",
            "x": grid,
            "y": 1.0 / (2.0 * grid),
            "mode": "lines",
            "name": "1/(2|λ*|) (linear theory)",
            "xaxis": x2,
            "yaxis": y2,
            "line": {"dash": "dash", "color": "black"},
        }
    )
    layout[_axis(x1)].update({"title": {"text": "load α"}})
    layout[_axis(y1)].update({"title": {"text": "tr C / η²"}, "rangemode": "tozero"})
    layout[_axis(x2)].update(
        {"type": "log", "title": {"text": "|λ*| = −abscissa (1/τ)"}, "exponentformat": "power"}
    )
    layout[_axis(y2)].update(
        {"type": "log", "title": {"text": "uᴴ C u / η²"}, "exponentformat": "power"}
    )
    title = f"N = {res[0].N}, η = {res[0].eta:g}, dt = {res[0].dt:g}"
    return _figure(traces, layout, title, height, top=110)
