"""Figures for the Epanechnikov chapter's sections on densities, samples and limitations.

Every function takes a *result* from :mod:`assocmem.dense_am` (a frozen dataclass or a list of
them) and returns a :class:`plotly.graph_objects.Figure`; none computes model quantities. Paper:
Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov Energy*
(Sec. 2 and Fig. 5; Sec. 4.2 and Figs. 3 right, 6, 7; Sec. 4.3 and Fig. 4; App. A).

Labels use Unicode (β, ε, Δ, ξ), never LaTeX. Colours: LSR orange, LSE purple (a colour-blind
safe pair); stored patterns black.

Public functions
----------------
kernel_figure
    Kernel shapes (Fig. 5) beside their efficiencies.
kde_figure
    KDE against the true density, and ISE(h) curves with the corrected h* marked.
generative_figure
    The three panels of Fig. 3 (right) against β, orange where LSR beats LSE.
generative_2d_figure
    A 2-D mixture: contours of log p, stored patterns, LSR and LSE memories.
digits_figure
    Image grids: stored (grey box if lost), LSR emergent (parents labelled), LSE memories.
parents_child_figure
    Decoded parents of a few emergent memories next to the decoded centroid.
far_query_figure
    Gradient norm and displacement against the query's distance to the data (App. A).
limitations_figure
    Where a retrieval rule sends a grid of queries (App. A playground).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from assocmem._validation import check_instance, check_positive_int
from assocmem.dense_am.generative import DigitsMemories, GenerativeSweep
from assocmem.dense_am.kde import Kernel, KernelStats
from assocmem.dense_am.limitations import FarQuery, Generative2D, KDEView, Playground

from .._checks import check_mapping, check_results
from .._layout import COLUMN_WIDTH, text_width, tidied

__all__ = [
    "LSE_COLOR",
    "LSR_COLOR",
    "METHOD_NAMES",
    "digits_figure",
    "far_query_figure",
    "generative_2d_figure",
    "generative_figure",
    "kde_figure",
    "kernel_figure",
    "limitations_figure",
    "parents_child_figure",
]

LSR_COLOR = "#E66100"
LSE_COLOR = "#5D3A9B"
_WIN_FILL = "rgba(230, 97, 0, 0.15)"  # orange shading where LSR wins (Fig. 3 right)
_KERNEL_COLORS = (
    "#E66100",
    "#5D3A9B",
    "#1b9e77",
    "#666666",
    "#e7298a",
    "#66a61e",
    "#a6761d",
    "#1f78b4",
    "#b2df8a",
    "#fb9a99",
)

_EFF_FLOOR = 80.0  # left end (%) of the efficiency axis of kernel_figure
_EFF_PANEL = 0.38  # share of the plotting width held by kernel_figure's bar panel (0.4 less gap)
_BAR_FONT = 11  # px, kernel_figure's bar labels
#: Reader-facing names of the retrieval rules of ``dense_am.METHODS`` (titles, menus).
METHOD_NAMES = {
    "lsr": "LSR (Algorithm 1)",
    "lse": "LSE",
    "hybrid": "LSR–LSE hybrid",
    "beta_x": "adaptive β(x)",
}
_DIGITS_SPACING = 0.06  # vertical gap between digits_figure's panels (share of the height)
_TILE_FONT = 10  # px, the labels under digit tiles
_IMG = 8  # digit images are 8 x 8
_XGAP = 1  # blank pixels between tiles in a row
_YGAP = 3  # blank pixels between rows (room for labels)


_MAX_TILES = 1024  # most tiles per row, emergent images or families drawn


@tidied
def kernel_figure(table: Sequence[Any], kernels: Mapping[str, Any]) -> go.Figure:
    """Kernel shapes and efficiencies (paper Fig. 5, App. B).

    Parameters
    ----------
    table : sequence of KernelStats
        ``dense_am.kernel_table()``: name, μ_K, σ_K, efficiency per kernel.
    kernels : mapping of str to Kernel
        ``dense_am.KERNELS``: the normalised kernel functions, by name.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: each kernel rescaled to unit variance (μ_K = 1), so that the shapes compare at
        equal scale; centre marked with a red star as in Fig. 5. Right: efficiency in %, the
        Wand–Jones quantity sqrt(μ_E) σ_E / (sqrt(μ_K) σ_K) (note §2.1).
    """
    table = check_results(table, "table", KernelStats, single=False)
    kernels = check_mapping(kernels, "kernels")
    for st in table:
        if not isinstance(kernels.get(st.name), Kernel):
            raise ValueError(
                f"kernels must map every name of table to a Kernel, missing {st.name!r}"
            )
    fig = make_subplots(
        rows=1,
        cols=2,
        column_widths=[0.6, 0.4],
        subplot_titles=(
            "kernels at unit variance (μ<sub>K</sub> = 1)",
            "efficiency vs Epanechnikov",
        ),
    )
    u = np.linspace(-3.0, 3.0, 601)
    for i, st in enumerate(table):
        s = math.sqrt(st.mu_K)  # K_s(u) = s K(s u) has unit variance
        y = s * np.asarray(kernels[st.name](s * u), dtype=float)
        fig.add_trace(
            go.Scatter(
                x=u,
                y=y,
                mode="lines",
                name=st.name,
                line={"color": _KERNEL_COLORS[i % len(_KERNEL_COLORS)], "width": 2},
                legendgroup=st.name,
            ),
            row=1,
            col=1,
        )
    fig.add_trace(
        go.Scatter(
            x=[0.0],
            y=[0.0],
            mode="markers",
            marker={"symbol": "star", "color": "red", "size": 12},
            name="centre",
            showlegend=False,
        ),
        row=1,
        col=1,
    )
    order = sorted(table, key=lambda st: st.efficiency)
    labels = [f"{100.0 * st.efficiency:.2f}%" for st in order]
    fig.add_trace(
        go.Bar(
            x=[100.0 * st.efficiency for st in order],
            y=[st.name for st in order],
            orientation="h",
            marker={
                "color": [LSR_COLOR if st.name == "epanechnikov" else "#999999" for st in order]
            },
            text=labels,
            textposition="outside",
            textfont={"size": _BAR_FONT},
            cliponaxis=False,
            showlegend=False,
            hovertemplate="%{y}: %{x:.3f}%<extra></extra>",
        ),
        row=1,
        col=2,
    )
    fig.update_xaxes(title_text="u", row=1, col=1)
    fig.update_yaxes(title_text="K(u)", row=1, col=1)
    top = max(100.0 * st.efficiency for st in order)
    fig.update_xaxes(
        title_text="efficiency (%)", range=[_EFF_FLOOR, _bar_room(top, labels)], row=1, col=2
    )
    fig.update_layout(height=380, margin={"t": 50, "b": 40}, legend={"font": {"size": 10}})
    return fig


@tidied
def kde_figure(view: Any) -> go.Figure:
    """KDE against the truth, and ISE(h) per kernel with the corrected h* (paper Sec. 2).

    Parameters
    ----------
    view : KDEView
        From ``dense_am.kde_explorer``.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: true density, the estimate and a rug of the samples. Right: ISE(h) on log axes
        for each kernel, a dot at each curve's corrected h* (note §2.1) and a dashed line at the
        displayed h.
    """
    check_instance(view, "view", KDEView)
    c = view.curves
    fig = make_subplots(
        rows=1,
        cols=2,
        subplot_titles=(f"{view.kernel} KDE, h = {view.h:.3g}", "ISE(h); dots: corrected h*"),
    )
    fig.add_trace(
        go.Scatter(x=view.grid, y=view.truth, name="true f", line={"color": "black", "width": 2}),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=view.grid, y=view.estimate, name=f"f̂ ({view.kernel})", line={"color": LSR_COLOR}
        ),
        row=1,
        col=1,
    )
    rug = np.full(view.samples.shape, -0.02)
    fig.add_trace(
        go.Scatter(
            x=view.samples,
            y=rug,
            mode="markers",
            marker={"symbol": "line-ns-open", "size": 8, "color": "rgba(0,0,0,0.4)"},
            name="samples",
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    for i, name in enumerate(c.kernels):
        color = _KERNEL_COLORS[i % len(_KERNEL_COLORS)]
        width = 3 if name == view.kernel else 1.5
        fig.add_trace(
            go.Scatter(
                x=c.h, y=c.ise[i], name=f"ISE {name}", line={"color": color, "width": width}
            ),
            row=1,
            col=2,
        )
        y_star = float(np.interp(np.log(c.h_amise[i]), np.log(c.h), c.ise[i]))
        fig.add_trace(
            go.Scatter(
                x=[c.h_amise[i]],
                y=[y_star],
                mode="markers",
                marker={"color": color, "size": 10, "line": {"color": "white", "width": 1}},
                name=f"h* {name} = {c.h_amise[i]:.3g}",
                showlegend=False,
                hovertemplate=f"corrected h* ({name}) = %{{x:.3g}}<extra></extra>",
            ),
            row=1,
            col=2,
        )
    fig.add_vline(x=view.h, line={"dash": "dash", "color": "black"}, row=1, col=2)
    fig.update_xaxes(title_text="x", row=1, col=1)
    fig.update_yaxes(title_text="density", row=1, col=1)
    fig.update_xaxes(title_text="bandwidth h", type="log", row=1, col=2)
    fig.update_yaxes(title_text="ISE", type="log", row=1, col=2)
    fig.update_layout(
        height=440,
        margin={"t": 100, "b": 40},  # room above the subplot titles for an exploration's menu
        title={"text": f"M = {view.samples.size}, ISE at h: {view.ise_at_h:.2e}", "x": 0.5},
    )
    return fig


@tidied
def generative_figure(sweep: Any) -> go.Figure:
    """The three panels of paper Fig. 3 (right) / Figs. 6-7 against β.

    Parameters
    ----------
    sweep : GenerativeSweep
        From ``dense_am.generative_sweep``.

    Returns
    -------
    plotly.graph_objects.Figure
        Mean log p, number of unique memories and number of stored patterns recovered, for LSR
        and LSE, with standard-error bars over seeds, on a log β axis (seed-mean β, App. C.3.2).
        Orange bands mark the β where the LSR mean beats the LSE mean, as in the paper.
    """
    check_instance(sweep, "sweep", GenerativeSweep)
    panels = (
        ("logp", "mean log p"),
        ("unique", "# unique memories"),
        ("recovered", "# stored recovered"),
    )
    fig = make_subplots(rows=1, cols=3, subplot_titles=[t for _, t in panels])
    b = np.asarray(sweep.beta_mean, dtype=float)
    edges = _log_edges(b)
    for j, (key, title) in enumerate(panels, start=1):
        lsr = np.asarray(getattr(sweep, f"lsr_{key}"), dtype=float)
        lse = np.asarray(getattr(sweep, f"lse_{key}"), dtype=float)
        for name, vals, color in (("LSR", lsr, LSR_COLOR), ("LSE", lse, LSE_COLOR)):
            se = np.asarray(getattr(sweep, f"{name.lower()}_{key}_se"), dtype=float)
            fig.add_trace(
                go.Scatter(
                    x=b,
                    y=vals,
                    error_y={"type": "data", "array": se, "visible": True},
                    mode="lines+markers",
                    name=name,
                    legendgroup=name,
                    showlegend=j == 1,
                    line={"color": color},
                ),
                row=1,
                col=j,
            )
        for i in np.nonzero(lsr > lse)[0]:
            fig.add_vrect(
                x0=edges[i],
                x1=edges[i + 1],
                fillcolor=_WIN_FILL,
                line_width=0,
                row=1,
                col=j,
                layer="below",
            )
        fig.update_xaxes(title_text="β", type="log", row=1, col=j)
        fig.update_yaxes(title_text=title, row=1, col=j)
    fig.update_layout(
        height=360,
        margin={"t": 60, "b": 40},
        title={"text": f"{len(sweep.seeds)} seed(s); orange: LSR beats LSE", "x": 0.5},
    )
    return fig


@tidied
def generative_2d_figure(result: Any) -> go.Figure:
    """A 2-D Gaussian mixture with its stored patterns and the LSR and LSE memories.

    Parameters
    ----------
    result : Generative2D
        From ``dense_am.generative_2d``.

    Returns
    -------
    plotly.graph_objects.Figure
        Contours of log p; stored patterns (black dots); LSR memories (orange: circles for
        stored patterns that are still minima, stars for emergent ones, hover gives |K|); LSE
        memories (purple diamonds).
    """
    check_instance(result, "result", Generative2D)
    g = result
    fig = go.Figure()
    fig.add_trace(
        go.Contour(
            x=g.grid_x,
            y=g.grid_y,
            z=np.maximum(g.log_p, np.max(g.log_p) - 12.0),
            colorscale="Blues",
            ncontours=14,
            showscale=False,
            contours={"coloring": "heatmap"},
            opacity=0.6,
            hoverinfo="skip",
            name="log p",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=g.memories[:, 0],
            y=g.memories[:, 1],
            mode="markers",
            marker={"color": "black", "size": 5},
            name="stored ξ",
        )
    )
    stored = g.lsr_sizes == 1
    for mask, symbol, label in (
        (stored, "circle-open", "LSR: stored"),
        (~stored, "star", "LSR: emergent"),
    ):
        fig.add_trace(
            go.Scatter(
                x=g.lsr_points[mask, 0],
                y=g.lsr_points[mask, 1],
                mode="markers",
                marker={"symbol": symbol, "color": LSR_COLOR, "size": 11, "line": {"width": 1.5}},
                name=label,
                customdata=g.lsr_sizes[mask],
                hovertemplate="|K| = %{customdata}<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=g.lse_points[:, 0],
            y=g.lse_points[:, 1],
            mode="markers",
            marker={"symbol": "diamond", "color": LSE_COLOR, "size": 10, "line": {"width": 1}},
            name="LSE memory",
        )
    )
    m = g.metrics
    fig.update_layout(
        title={
            "text": (
                f"β = {g.beta:.3g}: LSR {m.lsr_unique} unique (log p {m.lsr_logp:.2f}), "
                f"LSE {m.lse_unique} unique (log p {m.lse_logp:.2f})"
            ),
            "x": 0.5,
            "font": {"size": 13},
        },
        xaxis={"range": [g.grid_x[0], g.grid_x[-1]], "title": "x₁", "constrain": "domain"},
        yaxis={
            "range": [g.grid_y[0], g.grid_y[-1]],
            "title": "x₂",
            "scaleanchor": "x",
            "scaleratio": 1,
        },
        height=520,
        margin={"t": 60, "b": 40},
    )
    return fig


@tidied
def digits_figure(
    result: Any, n_cols: int = 10, max_emergent: int | None = None, max_lse: int | None = None
) -> go.Figure:
    """Image grids of paper Fig. 4 (left) for the digits stand-in.

    Parameters
    ----------
    result : DigitsMemories
        From ``dense_am.digits_memories``.
    n_cols : int, default 10
        Tiles per row (1 to 1024).
    max_emergent : int or None, default None
        At most this many emergent memories are drawn, and their panel has rows for this many
        (1 to 1024; the count in the panel title is complete). None: all of them, in as many
        rows as they fill. An exploration passes the largest count over its steps, so that
        every step shares one layout.
    max_lse : int or None, default None
        Rows for this many LSE memories (1 to 1024; all are drawn). None: as many as there
        are.

    Returns
    -------
    plotly.graph_objects.Figure
        Three panels: decoded stored patterns, a grey box over each one that is *not* an LSR
        minimum at this β; LSR emergent memories (decoded centroids) labelled by their parent
        indices; LSE memories.
    """
    check_instance(result, "result", DigitsMemories)
    n_cols = check_positive_int(n_cols, "n_cols", maximum=_MAX_TILES)
    r = result
    n_em = len(r.emergent)
    if max_emergent is not None:
        max_emergent = check_positive_int(max_emergent, "max_emergent", maximum=_MAX_TILES)
    if max_lse is not None:
        max_lse = check_positive_int(max_lse, "max_lse", maximum=_MAX_TILES)
    emergent = list(r.emergent)[: n_em if max_emergent is None else max_emergent]
    sections = (
        ("stored patterns (grey box: not retained by LSR)", r.stored_images, None),
        (
            f"LSR emergent memories: {n_em} (showing {len(emergent)})",
            r.emergent_images[: len(emergent)],
            ["+".join(str(i) for i in k) for k in emergent],
        ),
        (f"LSE memories: {r.n_lse_unique}", r.lse_images, None),
    )
    # panels sized to their tiles; with max_emergent and max_lse, sized to those counts (the
    # book's slider steps share one layout)
    n_lse = len(r.lse_images) if max_lse is None else max(max_lse, len(r.lse_images))
    rows = [
        math.ceil(len(r.stored_images) / n_cols),
        max(1, math.ceil((n_em if max_emergent is None else max_emergent) / n_cols)),
        max(1, math.ceil(n_lse / n_cols)),
    ]
    fig = make_subplots(
        rows=3,
        cols=1,
        row_heights=[float(n) for n in rows],
        subplot_titles=[t for t, _, _ in sections],
        vertical_spacing=_DIGITS_SPACING,
    )
    notes: list[dict[str, Any]] = []
    boxes: list[dict[str, Any]] = []
    stored_labels = [str(t) for t in range(len(r.stored_images))]
    for j, (_, imgs, labels) in enumerate(sections, start=1):
        mosaic = _mosaic(np.asarray(imgs, dtype=float), n_cols, rows[j - 1])
        fig.add_trace(
            go.Heatmap(
                z=mosaic,
                colorscale="gray_r",
                zmin=0.0,
                zmax=16.0,
                showscale=False,
                hoverinfo="skip",
            ),
            row=j,
            col=1,
        )
        ref = "" if j == 1 else str(j)
        color = "#333" if labels is None else LSR_COLOR
        for t, lab in enumerate(stored_labels if j == 1 else (labels or [])):
            notes.append(_tile_label(t, n_cols, lab, ref, color))
        # explicit ranges (y reversed): the book's slider steps restore ranges, not autorange
        fig.update_xaxes(range=[-0.5, mosaic.shape[1] - 0.5], row=j, col=1)
        fig.update_yaxes(range=[mosaic.shape[0] - 0.5, -0.5], scaleanchor=f"x{ref}", row=j, col=1)
    for t, kept in enumerate(np.asarray(r.stored_retained, dtype=bool)):
        if not kept:
            x, y = _tile_origin(t, n_cols)
            boxes.append(
                {
                    "type": "rect",
                    "xref": "x",
                    "yref": "y",
                    "x0": x - 0.5,
                    "x1": x + _IMG - 0.5,
                    "y0": y - 0.5,
                    "y1": y + _IMG - 0.5,
                    "fillcolor": "rgba(128,128,128,0.55)",
                    "line": {"color": "#555", "width": 2},
                }
            )
    fig.update_layout(annotations=[*fig.layout.annotations, *notes], shapes=boxes)
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    # a row of tiles is (_IMG + _YGAP) / (n_cols (_IMG + _XGAP) - _XGAP) of the panel width
    row_px = (COLUMN_WIDTH - 40) * (_IMG + _YGAP) / (n_cols * (_IMG + _XGAP) - _XGAP)
    fig.update_layout(
        height=int(170 + row_px * sum(rows) / (1 - 2 * _DIGITS_SPACING)),
        margin={"t": 70, "b": 10, "l": 10, "r": 10},
        title={
            "text": (
                f"β = {r.beta:.3g} (Algorithm 2, K = {r.target_k:g}): LSR {r.n_lsr_minima} "
                f"memories, LSE {r.n_lse_unique}"
            ),
            "x": 0.5,
        },
    )
    return fig


@tidied
def parents_child_figure(result: Any, n_rows: int = 4) -> go.Figure:
    """Decoded parents of emergent LSR memories next to the decoded centroid ("child").

    Parameters
    ----------
    result : DigitsMemories
        From ``dense_am.digits_memories``.
    n_rows : int, default 4
        Number of emergent memories shown (1 to 1024), those with the most parents first.

    Returns
    -------
    plotly.graph_objects.Figure
        One row per emergent memory: its parents' decoded codes, then (after a gap) the decoded
        centroid. The centroid lives in the latent space; its image is whatever the decoder
        makes of the average code (App. A caveat).
    """
    check_instance(result, "result", DigitsMemories)
    n_rows = check_positive_int(n_rows, "n_rows", maximum=_MAX_TILES)
    r = result
    order = sorted(range(len(r.emergent)), key=lambda i: (-len(r.emergent[i]), i))[:n_rows]
    if not order:
        fig = go.Figure()
        fig.update_layout(
            title={"text": "no emergent memory at this β", "x": 0.5},
            height=200,
            xaxis={"visible": False},
            yaxis={"visible": False},
        )
        return fig
    width = max(len(r.emergent[i]) for i in order) + 2  # parents, gap, child
    tiles = np.zeros((len(order) * width, _IMG, _IMG))
    for row, i in enumerate(order):
        parents = r.emergent[i]
        for col, p in enumerate(parents):
            tiles[row * width + col] = r.stored_images[p]
        tiles[row * width + width - 1] = r.emergent_images[i]
    mosaic = _mosaic(tiles, width)
    fig = go.Figure(
        go.Heatmap(
            z=mosaic,
            colorscale="gray_r",
            zmin=0.0,
            zmax=16.0,
            showscale=False,
            hoverinfo="skip",
        )
    )
    for row, i in enumerate(order):
        for col, p in enumerate(r.emergent[i]):
            x, y = _tile_origin(row * width + col, width)
            fig.add_annotation(
                x=x + _IMG / 2 - 0.5,
                y=y + _IMG - 0.4,
                text=f"ξ{p}",
                showarrow=False,
                font={"size": 9},
                yanchor="top",
            )
        x, y = _tile_origin(row * width + width - 2, width)
        fig.add_annotation(
            x=x + _IMG / 2 - 0.5, y=y + _IMG / 2 - 0.5, text="→", showarrow=False, font={"size": 22}
        )
        x, y = _tile_origin(row * width + width - 1, width)
        fig.add_annotation(
            x=x + _IMG / 2 - 0.5,
            y=y + _IMG - 0.4,
            text="centroid",
            showarrow=False,
            font={"size": 9, "color": LSR_COLOR},
            yanchor="top",
        )
    fig.update_xaxes(visible=False, range=[-0.5, mosaic.shape[1] - 0.5])
    fig.update_yaxes(visible=False, range=[mosaic.shape[0] - 0.5, -0.5], scaleanchor="x")
    fig.update_layout(
        height=int(90 + 95 * len(order)),
        margin={"t": 50, "b": 10, "l": 10, "r": 10},
        title={"text": "parents → emergent memory (decoded)", "x": 0.5},
    )
    return fig


@tidied
def far_query_figure(result: Any) -> go.Figure:
    """LSR vs LSE from queries at growing distance from the data (paper App. A).

    Parameters
    ----------
    result : FarQuery
        From ``dense_am.far_query``.

    Returns
    -------
    plotly.graph_objects.Figure
        Against the query's distance to its nearest pattern in units of R = sqrt(2/β): left,
        the gradient norm at the query; right, how far each rule moved it. The grey band marks
        the unsupported region (distance >= R), where the LSR gradient is exactly zero.
    """
    check_instance(result, "result", FarQuery)
    f = result
    x = np.asarray(f.nearest, dtype=float) / f.radius
    order = np.argsort(x)
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=("‖∇E‖ at the query", "distance moved by retrieval")
    )
    for j, (lsr, lse) in enumerate(
        ((f.lsr_grad_norm, f.lse_grad_norm), (f.lsr_moved, f.lse_moved)), start=1
    ):
        for name, vals, color in (("LSR", lsr, LSR_COLOR), ("LSE", lse, LSE_COLOR)):
            fig.add_trace(
                go.Scatter(
                    x=x[order],
                    y=np.asarray(vals, dtype=float)[order],
                    mode="lines+markers",
                    name=name,
                    legendgroup=name,
                    showlegend=j == 1,
                    line={"color": color},
                ),
                row=1,
                col=j,
            )
        fig.add_vrect(
            x0=1.0,
            x1=float(max(x.max(), 1.0)) * 1.02,
            fillcolor="rgba(128,128,128,0.2)",
            line_width=0,
            row=1,
            col=j,
        )
        fig.update_xaxes(title_text="distance to nearest ξ / R", row=1, col=j)
    fig.update_layout(
        height=360,
        margin={"t": 60, "b": 40},
        title={"text": "grey: outside every support ball (B(x) = ∅)", "x": 0.5},
    )
    return fig


@tidied
def limitations_figure(result: Any) -> go.Figure:
    """Where a retrieval rule sends a grid of queries (paper App. A playground).

    Parameters
    ----------
    result : Playground
        From ``dense_am.limitations_playground`` (2-D memories).

    Returns
    -------
    plotly.graph_objects.Figure
        Support discs of radius R, stored patterns, a segment from every query to its end
        point; queries that never moved are grey crosses; end points that are exact LSR minima
        are orange stars, other end points purple dots.
    """
    check_instance(result, "result", Playground)
    p = result
    fig = go.Figure()
    for xi in p.memories:
        fig.add_shape(
            type="circle",
            x0=xi[0] - p.radius,
            x1=xi[0] + p.radius,
            y0=xi[1] - p.radius,
            y1=xi[1] + p.radius,
            fillcolor="rgba(230, 97, 0, 0.08)",
            line={"color": "rgba(230, 97, 0, 0.5)", "width": 1},
            layer="below",
        )
    moved = p.moved
    seg_x: list[float | None] = []
    seg_y: list[float | None] = []
    for q, f in zip(p.queries[moved], p.final[moved], strict=True):
        seg_x += [float(q[0]), float(f[0]), None]
        seg_y += [float(q[1]), float(f[1]), None]
    fig.add_trace(
        go.Scatter(
            x=seg_x,
            y=seg_y,
            mode="lines",
            line={"color": "rgba(93, 58, 155, 0.35)", "width": 1},
            name="query → end",
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=p.queries[~moved, 0],
            y=p.queries[~moved, 1],
            mode="markers",
            marker={"symbol": "x", "color": "#888", "size": 6},
            name=f"stuck ({100 * p.frac_stuck:.0f}%)",
        )
    )
    for mask, symbol, color, label in (
        (p.exact, "star", LSR_COLOR, f"LSR minimum ({100 * p.frac_exact:.0f}%)"),
        (moved & ~p.exact, "circle", LSE_COLOR, "other end"),
    ):
        fig.add_trace(
            go.Scatter(
                x=p.final[mask, 0],
                y=p.final[mask, 1],
                mode="markers",
                marker={"symbol": symbol, "color": color, "size": 10},
                name=label,
            )
        )
    fig.add_trace(
        go.Scatter(
            x=p.memories[:, 0],
            y=p.memories[:, 1],
            mode="markers",
            marker={"color": "black", "size": 6},
            name="stored ξ",
        )
    )
    lo = np.minimum(p.queries.min(axis=0), p.memories.min(axis=0)) - 0.05
    hi = np.maximum(p.queries.max(axis=0), p.memories.max(axis=0)) + 0.05
    fig.update_layout(
        title={
            "text": f"{METHOD_NAMES[p.method]}, β = {p.beta:.3g} (R = {p.radius:.3g})",
            "x": 0.5,
        },
        xaxis={"range": [float(lo[0]), float(hi[0])], "title": "x₁", "constrain": "domain"},
        yaxis={
            "range": [float(lo[1]), float(hi[1])],
            "title": "x₂",
            "scaleanchor": "x",
            "scaleratio": 1,
        },
        height=520,
        margin={"t": 60, "b": 40},
        # small enough for one row: tidy reserves the legend rows it estimates
        legend={"font": {"size": 10}},
    )
    return fig


# --------------------------------------------------------------------------------------------
# Private helpers
# --------------------------------------------------------------------------------------------


def _bar_room(top: float, labels: Sequence[str]) -> float:
    """Right end of the efficiency axis: room for the widest bar label after the longest bar.

    A label of ``w`` px after the bar end needs ``e`` axis units with ``e P / (top - floor + e)
    >= w`` on a panel ``P`` px wide, so ``e = (top - floor) w / (P - w)``.
    """
    panel = _EFF_PANEL * (COLUMN_WIDTH - 180)  # the right column, less margins and the gap
    w = max(text_width(t, _BAR_FONT) for t in labels) + 8  # plotly's 3 px pad and some slack
    return top + (top - _EFF_FLOOR) * w / (panel - w)


def _log_edges(b: np.ndarray) -> np.ndarray:
    """Band edges halfway (in log β) between grid points, extended half a step at each end."""
    lb = np.log(b)
    if lb.size == 1:
        return np.exp(np.array([lb[0] - 0.1, lb[0] + 0.1]))
    mid = 0.5 * (lb[1:] + lb[:-1])
    first = lb[0] - (mid[0] - lb[0])
    last = lb[-1] + (lb[-1] - mid[-1])
    return np.exp(np.concatenate([[first], mid, [last]]))


def _tile_label(t: int, n_cols: int, text: str, ref: str, color: str) -> dict[str, Any]:
    """Annotation (as a layout dict) under tile ``t`` of the subplot with axis suffix ``ref``."""
    x, y = _tile_origin(t, n_cols)
    return {
        "x": x + _IMG / 2 - 0.5,
        "y": y + _IMG - 0.4,
        "xref": f"x{ref}",
        "yref": f"y{ref}",
        "text": text,
        "showarrow": False,
        "font": {"size": _TILE_FONT, "color": color},
        "yanchor": "top",
    }


def _tile_origin(t: int, n_cols: int) -> tuple[int, int]:
    """Pixel (x, y) of the top-left corner of tile ``t`` in a mosaic with ``n_cols`` columns."""
    return (t % n_cols) * (_IMG + _XGAP), (t // n_cols) * (_IMG + _YGAP)


def _mosaic(images: np.ndarray, n_cols: int, n_rows: int = 1) -> np.ndarray:
    """Tile (n, 8, 8) images into >= ``n_rows`` rows of ``n_cols``; gaps are 0 (white ink-free).

    Zeros rather than NaN: every figure stays JSON-safe (no NaN) for any front end.
    """
    rows = max(math.ceil(images.shape[0] / n_cols), n_rows, 1)
    cols = n_cols
    out = np.zeros((rows * (_IMG + _YGAP), cols * (_IMG + _XGAP) - _XGAP))
    for t in range(images.shape[0]):
        x, y = _tile_origin(t, n_cols)
        out[y : y + _IMG, x : x + _IMG] = images[t]
    return out
