"""Figures for the attractor-stability section "Critical loads and phase diagrams" (as-phase).

Every function takes result objects from :mod:`assocmem.attractor.loads` and returns a plotly
figure; none computes model quantities (log10 σ for the axis and marker sizes are
presentation). Panels are laid out with axis domains (``_panels``), not ``make_subplots``.
Colours: bulk / λ_bulk blue, λ_mem orange; theory dotted or dashed, measurements solid or
markers; the paper's Eq. 19 value is a labelled dashed reference line.

Public functions
----------------
plot_transition
    Fig. 1d: stable fraction and mean spectral abscissa against α at several N, with Eq. 19's
    α_S and the measured crossings (claim C4).
plot_phase_diagram
    Fig. 3: α_S over (n, log σ) with the λ_bulk > 0 (blue) and λ_mem = 0 (orange) borders, the
    predicted optimum "+", and optional measured α_S discs (Fig. 3a).
plot_optimum_vs_cv
    Fig. 4a-c: n*, σ* and α_S* against CV, with optional reference values.
plot_alpha_s_comparison
    Fig. 8a,b: measured α_S against Eq. 19, and α_S against CV (theory line, measured markers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.attractor.loads import (
    AlphaSComparison,
    AlphaSCurve,
    OptimumCurve,
    PhaseView,
    TransitionScan,
)

from .._checks import check_height, check_mapping, check_optional_result, check_title, check_values
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _vline

__all__ = [
    "plot_alpha_s_comparison",
    "plot_optimum_vs_cv",
    "plot_phase_diagram",
    "plot_transition",
]

_TOP_LEGEND = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 1.08, "yanchor": "bottom"}
_BULK = "#1f77b4"
_MEM = "#ff7f0e"
_SIZES = ("#9467bd", "#d62728", "#8c564b", "#17becf")
_REF = "#d62728"
_SIGMA_TICKS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)


def _check_reference(reference: Any, fields: tuple[str, ...]) -> dict[str, Any] | None:
    """None, or a dict with arrays "cv" and ``fields`` of one length and an optional "label"."""
    ref = check_mapping(reference, "reference", optional=True)
    if ref is None:
        return None
    n = len(check_values(ref.get("cv"), 'reference["cv"]'))
    for key in fields:
        ref[key] = check_values(ref.get(key), f"reference[{key!r}]", n)
    check_title(ref.get("label"), 'reference["label"]')
    return ref


@tidied
def plot_transition(scan: Any, height: int = 440) -> go.Figure:
    """Stable fraction and mean abscissa against the load, per N, with Eq. 19 (Fig. 1d; C4).

    Parameters
    ----------
    scan : TransitionScan
        From :func:`assocmem.attractor.transition_scan`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: fraction of examined patterns with abscissa < −1e−6, one line per N. Right: mean
        spectral abscissa ± one standard deviation per N, the bulk edge of Eq. 10 (blue dotted)
        and λ_mem of Eq. 15 (orange dotted). Both panels: Eq. 19's α_S (black dashed, the
        paper's theory) and each N's measured crossing (solid, N's colour); their values are in
        the legend (labels in the panel would sit on the curves, which cross the whole width).
    """
    check_instance(scan, "scan", TransitionScan)
    height = check_height(height)
    layout, refs = _panels(["stable fraction", "mean spectral abscissa (units of 1/τ)"])
    (x1, y1, _), (x2, y2, _) = refs
    a = scan.alphas
    traces: list[dict] = []
    shapes = layout["shapes"]
    a_th = scan.theory.alpha_s
    for k, (N, res) in enumerate(zip(scan.Ns, scan.scans, strict=True)):
        color = _SIZES[k % len(_SIZES)]
        group = f"N{N}"
        crossing = f" (α<sub>S</sub> = {res.alpha_s:.3f}, solid line)" if res.bracketed else ""
        traces.append(
            {
                "type": "scatter",
                "x": a,
                "y": res.stable_fraction,
                "mode": "lines+markers",
                "name": f"measured, N = {N}{crossing}",
                "legendgroup": group,
                "xaxis": x1,
                "yaxis": y1,
                "line": {"color": color, "width": 2},
                "hovertemplate": "α = %{x:.3f}<br>stable fraction %{y:.2f}<extra></extra>",
            }
        )
        traces.append(
            {
                "type": "scatter",
                "x": a,
                "y": res.mean_abscissa,
                "mode": "lines+markers",
                "name": f"measured, N = {N}{crossing}",
                "legendgroup": group,
                "showlegend": False,
                "xaxis": x2,
                "yaxis": y2,
                "line": {"color": color, "width": 2},
                "error_y": {
                    "type": "data",
                    "array": res.std_abscissa,
                    "visible": True,
                    "color": color,
                },
                "hovertemplate": "α = %{x:.3f}<br>mean abscissa %{y:.4f}<extra></extra>",
            }
        )
        if res.bracketed:
            shapes += [
                _vline(res.alpha_s, x, y, dash="solid", color=color)
                for x, y in ((x1, y1), (x2, y2))
            ]
    traces += [
        {
            "type": "scatter",
            "x": a,
            "y": scan.bulk_edge,
            "mode": "lines",
            "xaxis": x2,
            "yaxis": y2,
            "name": "λ<sub>bulk</sub>(α), Eq. 10 (theory)",
            "line": {"color": _BULK, "dash": "dot", "width": 2},
        },
        {
            "type": "scatter",
            "x": [a[0], a[-1]],
            "y": [scan.theory.lambda_mem] * 2,
            "mode": "lines",
            "xaxis": x2,
            "yaxis": y2,
            "name": "λ<sub>mem</sub>, Eq. 15 (theory)",
            "line": {"color": _MEM, "dash": "dot", "width": 2},
        },
    ]
    if a_th > 0:
        shapes += [_vline(a_th, x, y, dash="dash") for x, y in ((x1, y1), (x2, y2))]
        traces.append(  # legend entry of the dashed line (shapes have none)
            {
                "type": "scatter",
                "x": [None],
                "y": [None],
                "mode": "lines",
                "xaxis": x1,
                "yaxis": y1,
                "name": f"α<sub>S</sub>, Eq. 19 (paper): {a_th:.3f}",
                "line": {"color": "black", "dash": "dash", "width": 2},
                "hoverinfo": "skip",
            }
        )
    shapes.append(_hline(0.0, x2, y2, dash="solid", color="grey"))
    layout[_axis(x1)].update(title={"text": "load α = P/N"}, range=[0, a[-1] + 0.02])
    layout[_axis(x2)].update(title={"text": "load α = P/N"}, range=[0, a[-1] + 0.02])
    layout[_axis(y1)].update(range=[-0.05, 1.05])
    t = scan.theory
    layout.update(
        height=height,
        legend=_TOP_LEGEND,
        margin={"t": 110},
        title={
            "text": f"CV = {t.cv:.3g}, σ = {t.sigma:.3g}, n = {t.n:.3g}, θ = θ*<sub>bulk</sub>, "
            "Eq. 8 weights",
            "font": {"size": 14},
            "y": 0.98,
        },
    )
    return go.Figure(data=traces, layout=layout)


def _border(line: np.ndarray, name: str, color: str) -> dict:
    return {
        "type": "scatter",
        "x": line[:, 0].astype(np.float32),
        "y": np.log10(line[:, 1]).astype(np.float32),
        "mode": "lines",
        "name": name,
        "line": {"color": color, "width": 3},
        "connectgaps": False,
        "hoverinfo": "skip",
    }


@tidied
def plot_phase_diagram(view: Any, comparison: Any = None, height: int = 520) -> go.Figure:
    """α_S over (n, log σ) with its borders and optimum (Fig. 3; claims C9, C11).

    Parameters
    ----------
    view : PhaseView
        From :func:`assocmem.attractor.phase_view`.
    comparison : AlphaSComparison, optional
        From :func:`assocmem.attractor.alpha_s_comparison`; its cases with the view's CV are
        overlaid as yellow discs (area ∝ measured α_S) or grey crosses (unstable at the smallest
        load), as in Fig. 3a.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Heat map of Eq. 19 (grey where α_S = 0), the λ_bulk > 0 border (blue: α_S^bulk = 0 on
        its left, at the midpoint between grid points) and the λ_mem = 0 border (orange,
        interpolated), and the predicted optimum (black "+").
    """
    check_instance(view, "view", PhaseView)
    check_optional_result(comparison, "comparison", AlphaSComparison)
    height = check_height(height)
    pd = view.diagram
    ls = np.log10(pd.sigma)
    z = np.where(pd.alpha_s > 0, pd.alpha_s, np.nan).T.astype(np.float32)  # rows σ, columns n
    traces: list[dict] = [
        {
            "type": "heatmap",
            "x": pd.n,
            "y": ls,
            "z": z,
            "zmin": 0.0,
            "zmax": 0.75,
            "colorscale": "Viridis",
            "name": "α<sub>S</sub> (Eq. 19)",
            "hoverongaps": False,
            "colorbar": {"title": {"text": "α<sub>S</sub>"}, "len": 0.8},
            "hovertemplate": (
                "n = %{x:.2f}<br>log<sub>10</sub> σ = %{y:.2f}<br>α<sub>S</sub> = %{z:.3f}"
                "<extra></extra>"
            ),
        },
        _border(
            view.bulk_border,
            "λ<sub>bulk</sub> > 0 border (α<sub>S</sub><sup>bulk</sup> = 0)",
            _BULK,
        ),
        _border(view.mem_border, "λ<sub>mem</sub> = 0 border", _MEM),
        {
            "type": "scatter",
            "x": [view.n_star],
            "y": [float(np.log10(view.sigma_star))],
            "mode": "markers",
            "name": "predicted optimum (+)",
            "marker": {"symbol": "cross-thin", "size": 18, "line": {"width": 3, "color": "black"}},
            "hovertemplate": (
                f"n* = {view.n_star:.2f}<br>σ* = {view.sigma_star:.2f}<br>"
                f"α<sub>S</sub>* = {view.alpha_s_star:.3f}<extra></extra>"
            ),
        },
    ]
    if comparison is not None:
        traces += _measured_discs(comparison, view.cv)
    layout = go.Layout(
        height=height,
        title={
            "text": (
                f"CV = {view.cv:.3g}: α<sub>S</sub>* = {view.alpha_s_star:.3f} at n* = "
                f"{view.n_star:.2f}, σ* = {view.sigma_star:.2f} (λ<sub>mem</sub> = "
                f"{view.lambda_mem_at_star:+.1e}); α<sub>S</sub> > 0 on "
                f"{view.stable_area:.1%} of the box"
            ),
            "font": {"size": 14},
            "y": 0.98,
        },
        xaxis={"title": {"text": "exponent n"}, "range": [float(pd.n[0]), float(pd.n[-1])]},
        yaxis={
            "title": {"text": "smoothness σ (log scale)"},
            "range": [float(ls[0]), float(ls[-1])],
            "tickvals": [float(np.log10(s)) for s in _SIGMA_TICKS],
            "ticktext": [f"{s:g}" for s in _SIGMA_TICKS],
        },
        plot_bgcolor="#d9d9d9",
        legend=_TOP_LEGEND,
        margin={"t": 110},
    )
    return go.Figure(data=traces, layout=layout)


def _measured_discs(comparison: Any, cv: float) -> list[dict]:
    c = comparison
    sel = np.isclose(c.cv, cv) & np.isfinite(c.alpha_s_emp)
    ok = sel & (c.alpha_s_emp > 0)
    zero = sel & (c.alpha_s_emp == 0)
    info = np.column_stack([c.sigma, c.alpha_s_emp, c.alpha_s_theory])
    hover = (
        "n = %{x:.2f}, σ = %{customdata[0]:.2f}<br>measured α<sub>S</sub> = "
        "%{customdata[1]:.3f}"
        "<br>Eq. 19: %{customdata[2]:.3f}<extra></extra>"
    )
    return [
        {
            "type": "scatter",
            "x": c.n[ok],
            "y": np.log10(c.sigma[ok]),
            "mode": "markers",
            "name": f"measured α<sub>S</sub> (N = {c.N}; area ∝ α<sub>S</sub>)",
            "customdata": info[ok],
            "marker": {
                "size": 8 + 40 * np.sqrt(c.alpha_s_emp[ok]),
                "color": "#ffdd00",
                "line": {"color": "black", "width": 1},
            },
            "hovertemplate": hover,
        },
        {
            "type": "scatter",
            "x": c.n[zero],
            "y": np.log10(c.sigma[zero]),
            "mode": "markers",
            "name": f"measured: unstable at α = {c.scans[0].alphas[0]:g}",
            "customdata": info[zero],
            "marker": {"symbol": "x", "size": 12, "color": "#555555"},
            "hovertemplate": hover,
        },
    ]


@tidied
def plot_optimum_vs_cv(
    curve: Any, reference: Mapping[str, Any] | None = None, height: int = 400
) -> go.Figure:
    """n*, σ* and α_S* against CV (Fig. 4a-c; claim C11).

    Parameters
    ----------
    curve : OptimumCurve
        From :func:`assocmem.attractor.optimum_vs_cv`.
    reference : mapping, optional
        Reference values to mark (open red circles) with keys ``"cv"``, ``"n_star"``,
        ``"sigma_star"``, ``"alpha_s_star"`` and ``"label"``.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Three panels: n* (with n = 1 dotted), σ* (log axis) and α_S*; the best α_S and σ along
        n = 1 dashed grey in the last two.
    """
    check_instance(curve, "curve", OptimumCurve)
    reference = _check_reference(reference, ("n_star", "sigma_star", "alpha_s_star"))
    height = check_height(height)
    layout, refs = _panels(
        [
            "(a) optimal exponent n*",
            "(b) optimal smoothness σ*",
            "(c) α<sub>S</sub> at the optimum",
        ],
        spacing=0.09,
    )
    c = curve.cv
    grey = {"color": "grey", "dash": "dash", "width": 2}
    traces: list[dict] = []
    for k, (field, alt) in enumerate(
        (("n_star", None), ("sigma_star", "sigma_n1"), ("alpha_s_star", "alpha_s_n1"))
    ):
        x, y, _ = refs[k]
        traces.append(
            {
                "type": "scatter",
                "x": c,
                "y": getattr(curve, field),
                "mode": "lines+markers",
                "name": "optimum of Eq. 19 over (n, σ)",
                "legendgroup": "opt",
                "showlegend": k == 0,
                "xaxis": x,
                "yaxis": y,
                "line": {"color": "black", "width": 2},
            }
        )
        if alt is not None:
            traces.append(
                {
                    "type": "scatter",
                    "x": c,
                    "y": getattr(curve, alt),
                    "mode": "lines",
                    "name": "best σ and α<sub>S</sub> along n = 1",
                    "legendgroup": "n1",
                    "showlegend": k == 1,
                    "xaxis": x,
                    "yaxis": y,
                    "line": grey,
                }
            )
        if reference is not None:
            traces.append(
                {
                    "type": "scatter",
                    "x": np.asarray(reference["cv"]),
                    "y": np.asarray(reference[field]),
                    "mode": "markers",
                    "name": str(reference.get("label", "reference")),
                    "legendgroup": "ref",
                    "showlegend": k == 0,
                    "xaxis": x,
                    "yaxis": y,
                    "marker": {
                        "symbol": "circle-open",
                        "size": 12,
                        "color": _REF,
                        "line": {"width": 2},
                    },
                }
            )
        layout[_axis(x)]["title"] = {"text": "pattern CV"}
    layout["shapes"].append(_hline(1.0, refs[0][0], refs[0][1], dash="dot", color="grey"))
    layout[_axis(refs[1][1])]["type"] = "log"
    layout.update(height=height, legend=_TOP_LEGEND, margin={"t": 100})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_alpha_s_comparison(
    comparison: Any,
    curve: Any = None,
    reference: Mapping[str, Any] | None = None,
    height: int = 440,
) -> go.Figure:
    """Measured α_S against Eq. 19 (Fig. 8a) and α_S against CV (Fig. 8b; claim C10).

    Parameters
    ----------
    comparison : AlphaSComparison
        From :func:`assocmem.attractor.alpha_s_comparison`.
    curve : AlphaSCurve, optional
        From :func:`assocmem.attractor.alpha_s_vs_cv`: the theory line of the right panel; the
        cases with its (σ, n) are its measured markers. Without it only the left panel is drawn.
    reference : mapping, optional
        Further measured points for the right panel, keys ``"cv"``, ``"alpha_s"``, ``"label"``.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: measured against Eq. 19, coloured by CV, with the diagonal; crosses mark cases
        unstable at the smallest load, plotted at 0. Right: Eq. 19 (dashed) and α_S^bulk
        (blue dotted) against CV, measured α_S (markers).
    """
    check_instance(comparison, "comparison", AlphaSComparison)
    check_optional_result(curve, "curve", AlphaSCurve)
    reference = _check_reference(reference, ("alpha_s",))
    height = check_height(height)
    c = comparison
    titles = ["(a) measured α<sub>S</sub> vs Eq. 19"]
    titles += [] if curve is None else ["(b) α<sub>S</sub> against CV"]
    layout, refs = _panels(titles, widths=[1.0] * len(titles))
    x1, y1, _ = refs[0]
    ok = np.isfinite(c.alpha_s_emp)
    below = np.array([s == "below" for s in c.status])
    labels = [
        f"(CV, σ, n) = ({a:g}, {b:g}, {d:g})" for a, b, d in zip(c.cv, c.sigma, c.n, strict=True)
    ]
    top = float(max(np.max(c.alpha_s_theory), np.nanmax(c.alpha_s_emp, initial=0.0))) + 0.05
    traces: list[dict] = [
        {
            "type": "scatter",
            "x": [0, top],
            "y": [0, top],
            "mode": "lines",
            "xaxis": x1,
            "yaxis": y1,
            "name": "measured = Eq. 19",
            "line": {"color": "grey", "dash": "dot"},
        },
    ]
    for mask, symbol, name in (
        (ok & ~below, "circle", f"measured α<sub>S</sub>, N = {c.N}"),
        (ok & below, "x", f"unstable at α = {c.scans[0].alphas[0]:g}"),
    ):
        traces.append(
            {
                "type": "scatter",
                "x": c.alpha_s_theory[mask],
                "y": c.alpha_s_emp[mask],
                "mode": "markers",
                "xaxis": x1,
                "yaxis": y1,
                "name": name,
                "text": [lab for lab, m in zip(labels, mask, strict=True) if m],
                "marker": {
                    "symbol": symbol,
                    "size": 12,
                    "color": c.cv[mask],
                    "cmin": 0.0,
                    "cmax": float(np.max(c.cv)),
                    "colorscale": "Plasma",
                    "line": {"color": "black", "width": 1},
                    "colorbar": {"title": {"text": "CV"}, "len": 0.6}
                    if symbol == "circle"
                    else None,
                },
                "hovertemplate": "%{text}<br>Eq. 19: %{x:.3f}<br>measured: %{y:.3f}<extra></extra>",
            }
        )
    layout[_axis(x1)].update(
        title={"text": "α<sub>S</sub>, Eq. 19 (paper's theory)"}, range=[0, top]
    )
    layout[_axis(y1)].update(title={"text": "α<sub>S</sub> measured"}, range=[0, top])
    if curve is not None:
        traces += _cv_panel(c, curve, reference, refs[1][0], refs[1][1])
        layout[_axis(refs[1][0])]["title"] = {"text": "pattern CV"}
    layout.update(height=height, legend=_TOP_LEGEND, margin={"t": 110})
    return go.Figure(data=traces, layout=layout)


def _cv_panel(c: Any, curve: Any, reference: Any, x: str, y: str) -> list[dict]:
    sel = np.isclose(c.sigma, curve.sigma) & np.isclose(c.n, curve.n)
    tag = f"σ = {curve.sigma:g}, n = {curve.n:g}"
    out = [
        {
            "type": "scatter",
            "x": curve.cv,
            "y": curve.alpha_s,
            "mode": "lines",
            "xaxis": x,
            "yaxis": y,
            "name": f"Eq. 19, {tag}",
            "line": {"color": "black", "dash": "dash"},
        },
        {
            "type": "scatter",
            "x": curve.cv,
            "y": curve.alpha_s_bulk,
            "mode": "lines",
            "xaxis": x,
            "yaxis": y,
            "name": "α<sub>S</sub><sup>bulk</sup>, Eq. 11",
            "line": {"color": _BULK, "dash": "dot"},
        },
        {
            "type": "scatter",
            "x": c.cv[sel],
            "y": c.alpha_s_emp[sel],
            "mode": "markers+lines",
            "xaxis": x,
            "yaxis": y,
            "name": f"measured, N = {c.N}, {tag}",
            "line": {"color": "black"},
            "marker": {"size": 10, "color": "black"},
        },
    ]
    if reference is not None:
        out.append(
            {
                "type": "scatter",
                "x": np.asarray(reference["cv"]),
                "y": np.asarray(reference["alpha_s"]),
                "mode": "markers",
                "xaxis": x,
                "yaxis": y,
                "name": str(reference.get("label", "reference")),
                "marker": {
                    "symbol": "circle-open",
                    "size": 12,
                    "color": _REF,
                    "line": {"width": 2},
                },
            }
        )
    return out
