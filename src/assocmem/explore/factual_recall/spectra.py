"""Figures for the section on two-layer memories W = Q Rᵀ of rank κd (factual-recall chapter).

Every function takes result objects from :mod:`assocmem.linear_memory.spectra` and returns a
plotly figure; none computes model quantities (densities, laws and capacities are fields of the
results). Multi-panel figures are laid out with axis domains (``explore._panels``), not
``make_subplots`` (slow in explorations), and keep their legend at the top, above the book's
slider.

Public functions
----------------
plot_eckart_young
    Exploration 1: the singular values of a Gaussian matrix with the top κd shaded, the quarter
    circle truncated at X_qc(1-κ), and the capacity curve α_c(κ) of eq. (9) with the current κ.
plot_spectrum_comparisons
    Histograms of normalised singular values against their laws, one panel per comparison
    (Fig. C.2: initial spectra against MP_κ ⊠ MP_κ).
plot_trained_spectrum
    Fig. 3: trained spectrum against eq. (10) and against the initial law (exploration 2).
plot_ks_against_load
    KS distance of trained spectra to eq. (10) against the load, with the initial value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.linear_memory.spectra import EckartYoung, SpectrumComparison, TrainedSpectrum

from .._checks import check_height, check_results, check_strings
from .._layout import tidied
from .._panels import _axis, _panels

__all__ = [
    "plot_eckart_young",
    "plot_ks_against_load",
    "plot_spectrum_comparisons",
    "plot_trained_spectrum",
]

_TOP, _BULK, _LAW, _INIT, _EMP = "#d62728", "#bdbdbd", "black", "#ff7f0e", "#1f77b4"
_SHADE = "rgba(214, 39, 40, 0.18)"
_TOP_LEGEND = {"orientation": "h", "x": 1.0, "xanchor": "right", "y": 1.08, "yanchor": "bottom"}


def _bars(edges: Any, heights: Any, x: str, y: str, name: str, color: str,
          opacity: float = 1.0, legend: bool = True) -> dict[str, Any]:
    """Pre-binned histogram as a bar trace (no raw samples are shipped)."""
    edges = np.asarray(edges, dtype=float)
    return {
        "type": "bar", "x": 0.5 * (edges[:-1] + edges[1:]), "y": np.asarray(heights, dtype=float),
        "width": np.diff(edges), "xaxis": x, "yaxis": y, "name": name, "opacity": opacity,
        "marker": {"color": color, "line": {"width": 0}}, "showlegend": legend, "legendgroup": name,
        "hovertemplate": "σ = %{x:.3f}<br>density %{y:.3f}<extra>" + name + "</extra>",
    }


def _step(edges: Any, heights: Any, x: str, y: str, name: str, color: str, dash: str = "solid",
          legend: bool = True) -> dict[str, Any]:
    """A law's bin averages as a step curve over the histogram edges."""
    edges = np.asarray(edges, dtype=float)
    h = np.asarray(heights, dtype=float)
    return {
        "type": "scatter", "mode": "lines", "x": edges, "y": np.append(h, h[-1]),
        "line": {"shape": "hv", "color": color, "dash": dash, "width": 2}, "xaxis": x,
        "yaxis": y, "name": name, "showlegend": legend, "legendgroup": name,
        "hovertemplate": "σ = %{x:.3f}<br>density %{y:.3f}<extra>" + name + "</extra>",
    }


@tidied
def plot_eckart_young(result: Any, height: int = 430) -> go.Figure:
    """Exploration 1: top-κd energy of a Gaussian matrix against α_c(κ) (note §2.4, [OURS]).

    Parameters
    ----------
    result : EckartYoung
        From :func:`assocmem.linear_memory.eckart_young`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: histogram of the d singular values of Z (top κd in red, the rest grey, stacked),
        the quarter circle ρ_qc (black) with its part above X_qc(1-κ) shaded: the truncated law
        of eq. (10). Right: α_c(κ) of eq. (9), the small-κ asymptote 2κ, and at the current κ
        the theory (black circle) and ½ × the empirical energy fraction (red cross).
    """
    check_instance(result, "result", EckartYoung)
    height = check_height(height)
    r = result
    cap = r.capacity
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        [f"singular values of a {r.d} × {r.d} Gaussian matrix",
         "capacity α<sub>c</sub>(κ), eq. (9)"], widths=[1.3, 1.0], spacing=0.1)
    grid, dens = np.asarray(r.grid), np.asarray(r.density)
    upper = grid >= cap.cutoff
    shade_x = np.concatenate([[cap.cutoff], grid[upper]])
    shade_y = np.concatenate([[0.0], dens[upper]])
    traces = [
        _bars(r.edges, r.bulk, x1, y1, f"other {r.d - r.m} SVs", _BULK),
        _bars(r.edges, r.top, x1, y1, f"top κd = {r.m} SVs", _TOP, opacity=0.75),
        {"type": "scatter", "mode": "lines", "x": shade_x, "y": shade_y, "fill": "tozeroy",
         "fillcolor": _SHADE, "line": {"width": 0}, "xaxis": x1, "yaxis": y1,
         "name": "ρ<sub>qc</sub> on [X<sub>qc</sub>(1−κ), 2]", "hoverinfo": "skip"},
        {"type": "scatter", "mode": "lines", "x": grid, "y": dens, "line": {"color": _LAW},
         "xaxis": x1, "yaxis": y1, "name": "quarter circle ρ<sub>qc</sub>",
         "hovertemplate": "σ = %{x:.3f}<br>ρ<sub>qc</sub> %{y:.3f}<extra></extra>"},
    ]
    kg, ac = np.asarray(r.kappa_grid), np.asarray(r.alpha_c_curve)
    small = kg <= 0.25
    traces += [
        {"type": "scatter", "mode": "lines", "x": kg, "y": ac, "line": {"color": _LAW},
         "xaxis": x2, "yaxis": y2, "name": "α<sub>c</sub>(κ), eq. (9)",
         "hovertemplate": "κ = %{x:.2f}<br>α<sub>c</sub> = %{y:.4f}<extra></extra>"},
        {"type": "scatter", "mode": "lines", "x": kg[small], "y": 2 * kg[small],
         "line": {"color": _LAW, "dash": "dot"}, "xaxis": x2, "yaxis": y2,
         "name": "2κ (κ → 0)", "hoverinfo": "skip"},
        {"type": "scatter", "mode": "markers", "x": [r.kappa], "y": [cap.alpha_c],
         "marker": {"color": _LAW, "size": 10, "symbol": "circle-open", "line": {"width": 2}},
         "xaxis": x2, "yaxis": y2, "name": "α<sub>c</sub>(κ) at this κ",
         "hovertemplate": "κ = %{x:.3f}<br>α<sub>c</sub> = %{y:.4f}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "x": [r.kappa], "y": [r.alpha_estimate],
         "marker": {"color": _TOP, "size": 10, "symbol": "x"}, "xaxis": x2, "yaxis": y2,
         "name": "½ × top-κd energy fraction",
         "hovertemplate": "κ = %{x:.3f}<br>½ fraction = %{y:.4f}<extra></extra>"},
    ]
    layout["shapes"].append({
        "type": "line", "xref": x1, "yref": f"{y1} domain", "x0": cap.cutoff, "x1": cap.cutoff,
        "y0": 0, "y1": 1, "line": {"color": _TOP, "dash": "dash", "width": 1},
    })
    layout[_axis(x1)].update(title={"text": "σ"}, range=[0, float(r.edges[-1])])
    layout[_axis(y1)].update(title={"text": "density"}, range=[0, 0.8])
    layout[_axis(x2)].update(title={"text": "κ = m/d"}, range=[0, 1.02])
    layout[_axis(y2)].update(title={"text": "α<sub>c</sub>"}, range=[0, 0.55])
    title = (f"κ = {r.kappa:.3g}, X<sub>qc</sub>(1−κ) = {cap.cutoff:.3f}: "
             f"α<sub>c</sub>(κ) = {cap.alpha_c:.4f} "
             f"(eq. (9)); ½ × top-energy fraction = {r.alpha_estimate:.4f} (d = {r.d}); "
             f"{cap.bits_per_parameter:.2f} bits per parameter")
    layout.update(height=height, barmode="stack", bargap=0, legend=_TOP_LEGEND,
                  title={"text": title, "font": {"size": 13}, "y": 0.98},
                  margin={"t": 120, "b": 50})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_spectrum_comparisons(
    comparisons: Sequence[Any], titles: Sequence[str] | None = None, height: int = 360
) -> go.Figure:
    """Histograms of normalised singular values against their laws, one panel each (Fig. C.2).

    Parameters
    ----------
    comparisons : sequence of SpectrumComparison
        From :func:`assocmem.linear_memory.spectrum_comparison`.
    titles : sequence of str, optional
        Panel titles; default "κ = …, law, KS …".
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Per panel: histogram density of the non-zero singular values (top edge 2) and the law's
        bin averages as a black step curve; the default titles give κ and the KS distance. The
        atom 1-κ at 0 of the full d-dimensional law is not drawn (note pitfall 14).
    """
    comps = check_results(comparisons, "comparisons", SpectrumComparison, single=False)
    titles = check_strings(titles, "titles", len(comps))
    height = check_height(height)
    names = {"quarter_circle": "ρ<sub>qc</sub>/κ, eq. (10)",
             "mp_product": "MP<sub>κ</sub>⊠MP<sub>κ</sub>, (C.70)"}
    if titles is None:
        titles = [f"κ = {c.kappa:g}: KS {c.ks:.3f}" for c in comps]
    layout, refs = _panels(list(titles), spacing=0.06)
    traces = []
    shown: set[str] = set()
    for i, (c, (x, y, _)) in enumerate(zip(comps, refs, strict=True)):
        traces.append(_bars(c.edges, c.empirical, x, y, "empirical", _EMP, 0.6, legend=i == 0))
        law = f"{names[c.law]} (bin averages)"
        traces.append(_step(c.edges, c.theory_binned, x, y, law, _LAW, legend=law not in shown))
        shown.add(law)
        layout[_axis(x)].update(title={"text": "σ (top edge 2)"}, range=[0, 2.05])
        layout[_axis(y)].update(title={"text": "density" if i == 0 else ""})
    layout.update(height=height, bargap=0, legend=_TOP_LEGEND, margin={"t": 80, "b": 50})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_trained_spectrum(result: Any, height: int = 420) -> go.Figure:
    """Fig. 3: trained singular values against eq. (10) and against the initial law.

    Parameters
    ----------
    result : TrainedSpectrum
        From :func:`assocmem.linear_memory.trained_spectrum`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Blue bars: the pooled normalised non-zero singular values after training; grey bars: the
        same runs at initialisation; black step: ρ_qc/κ on [X_qc(1-κ), 2] (eq. (10), Claim 2);
        orange dashed step: the initial law (MP_κ ⊠ MP_κ, (C.70), or the quarter circle for
        κ = 1). The title gives the KS distances to eq. (10).
    """
    check_instance(result, "result", TrainedSpectrum)
    height = check_height(height)
    r = result
    t, i0 = r.trained, r.init
    init_name = ("init law MP<sub>κ</sub>⊠MP<sub>κ</sub>, (C.70)" if r.init_law.law == "mp_product"
                 else "init law: quarter circle")
    traces = [
        _bars(i0.edges, i0.empirical, "x", "y", "at initialisation", _BULK, 0.55),
        _bars(t.edges, t.empirical, "x", "y", "trained", _EMP, 0.6),
        _step(t.edges, t.theory_binned, "x", "y",
              "eq. (10): ρ<sub>qc</sub>/κ on [X<sub>qc</sub>(1−κ), 2]", _LAW),
        _step(r.init_law.edges, r.init_law.theory_binned, "x", "y", init_name, _INIT, "dash"),
    ]
    acc = ", ".join(f"{a:.2f}" for a in r.accuracy)
    # Fixed range (comparable slider steps) unless a sparse histogram has a taller bar.
    top = max(2.5, 1.05 * float(max(np.max(t.empirical), np.max(i0.empirical))))
    title = (f"κ = {r.kappa:g}, d = {r.d}, α = {r.alpha_eff:.3f} (p = {r.p}; α<sub>c</sub>(κ) = "
             f"{r.alpha_c:.3f}), {r.reps} run(s), accuracy {acc}<br>KS to eq. (10): trained "
             f"{r.ks:.3f}, initialisation {r.ks_init:.3f} ({r.reps * r.m} values, "
             f"{t.normalise} normalisation)")
    layout = {
        "height": height, "barmode": "overlay", "bargap": 0, "legend": _TOP_LEGEND,
        "title": {"text": title, "font": {"size": 13}, "y": 0.97},
        "xaxis": {"title": {"text": "normalised singular value σ"}, "range": [0, 2.05]},
        "yaxis": {"title": {"text": "density"}, "range": [0, top]},
        "margin": {"t": 130, "b": 50},
    }
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_ks_against_load(results: Sequence[Any], height: int = 360) -> go.Figure:
    """KS distance of trained spectra to eq. (10) against the load, one line per κ.

    Parameters
    ----------
    results : sequence of TrainedSpectrum
        From :func:`assocmem.linear_memory.trained_spectrum`, any mix of κ.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Solid: KS of the trained spectrum; dashed: KS of the same runs at initialisation; the
        hover gives the mean accuracy (the finite-d threshold is where it leaves 1).
    """
    results = check_results(results, "results", TrainedSpectrum, single=False)
    height = check_height(height)
    colors = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
    kappas = sorted({r.kappa for r in results})
    traces = []
    for j, k in enumerate(kappas):
        rs = sorted((r for r in results if r.kappa == k), key=lambda r: r.alpha_eff)
        x = [r.alpha_eff for r in rs]
        acc = [float(np.mean(r.accuracy)) for r in rs]
        c = colors[j % len(colors)]
        traces.append(go.Scatter(
            x=x, y=[r.ks for r in rs], mode="lines+markers", name=f"κ = {k:g}, trained",
            line={"color": c}, customdata=acc,
            hovertemplate="α = %{x:.3f}<br>KS %{y:.3f}<br>mean accuracy %{customdata:.3f}"
                          "<extra></extra>"))
        traces.append(go.Scatter(
            x=x, y=[r.ks_init for r in rs], mode="lines", name=f"κ = {k:g}, initialisation",
            line={"color": c, "dash": "dash"}))
    fig = go.Figure(traces)
    fig.update_layout(height=height, legend=_TOP_LEGEND, xaxis_title="load α = p ln p / d²",
                      yaxis_title="KS distance to eq. (10)", yaxis_range=[0, 0.6],
                      margin={"t": 60})
    return fig
