"""One layout for every chapter figure: titles, legends, menus and sliders that cannot collide.

Every public plotting function of the chapter packages returns ``tidy(fig)`` (through the
:func:`tidied` decorator), and :func:`assocmem.explore.static_figure` tidies the precomputed
figure once more after adding its slider and menu. ``tidy`` is idempotent.

The figure is laid out in rows from the top, each with room reserved from the measured or
estimated size of its text (widths from per-character advances of the book's sans-serif font at
1280 px, so estimates err on the wide side):

1. a strip of ``MODEBAR_STRIP`` px for plotly's hover toolbar (drawn 22 px tall at the top
   right), with the dropdown menu of a precomputed exploration at its left when both fit;
2. the title, centred, wrapped to the figure width (one row per line);
3. the legend, horizontal, wrapped to the figure width;
4. subplot titles (annotations at the top edge of the plotting area), wrapped to their panel;
5. the plotting area; below it the x axes' tick labels and titles, then the slider.

Side by side panels get a gap wide enough for the right panel's tick labels and y-axis title.
Log axes that span a decade or more carry ticks at decades only (``dtick=1``, powers of ten).
"""

from __future__ import annotations

import base64
import functools
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import plotly.graph_objects as go

__all__ = [
    "COLUMN_WIDTH",
    "MODEBAR_STRIP",
    "PLOT_CONFIG",
    "legend_on_top",
    "text_width",
    "tidied",
    "tidy",
]

#: Width (px) of the book's text column at 1280 px, the width a figure gets in the book.
COLUMN_WIDTH = 688
#: Height (px) kept free at the top for plotly's hover toolbar (22 px tall, 2 px from the top).
MODEBAR_STRIP = 32
#: Plotly config of the book's figures: responsive, and a hover toolbar without the selection
#: tools and the logo (they do nothing here); the toolbar shows in the strip that
#: :func:`assocmem.explore._layout.tidy` keeps free at the top of every figure.
PLOT_CONFIG = {
    "responsive": True,
    "displaylogo": False,
    "modeBarButtonsToRemove": ["select2d", "lasso2d"],
}
#: Width (px) of the hover toolbar with the buttons :data:`PLOT_CONFIG` keeps.
MODEBAR_WIDTH = 150
_GAP = 6  # px between rows
_LEGEND_ROW = 21  # px per row of a horizontal legend with 12 px text (measured 19-20)
_LINE = 1.3  # line height as a multiple of the font size (measured 1.24 for titles)
_SLIDER_HEIGHT = 72  # px of a slider with its current-value label (measured 70)
_MENU_ROW = 51  # px of a dropdown's row: plotly's 12 px pad, the header (33 px), a gap
_BELOW_LEGEND = 24  # px at least between the legend and the plotting area (see tidy's Notes)
_STANDOFF = {"x": 8, "y": 5}  # px between an axis and its tick labels
_MIN_LOG_SPAN = 0.8  # decades from which a log axis is labelled at decades only

# Advance widths (in em) of the book's sans-serif font, measured in Chromium at 1280 px.
_NARROW = dict.fromkeys("iljIJ.,:;'|!`", 0.32)
_SEMI = dict.fromkeys('ftr()[]{}/\\-"*_ ⟨⟩·²₂³¹⁰', 0.42)
_WIDE = dict.fromkeys("mwMW%@½ω", 0.98)
_SYMBOL = dict.fromkeys("+=<>~^−→←≤≥≈×∈∅∞±≠∝∑∫", 0.86)
_WIDTHS = {**_NARROW, **_SEMI, **_WIDE, **_SYMBOL}
_UPPER = 0.74
_DEFAULT = 0.64
_TAG = re.compile(r"<[^>]+>")
_SUBSUP = re.compile(r"<su[bp]>(.*?)</su[bp]>", re.IGNORECASE)
_AXIS = re.compile(r"[xy]axis\d*")
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)


def text_width(text: str, size: float) -> float:
    """Estimated width in px of one line of plotly text at font ``size`` (px).

    HTML tags do not count; ``<sub>``/``<sup>`` text counts at 70 % of the size.
    """
    small = sum(_chars_width(_TAG.sub("", m)) for m in _SUBSUP.findall(text))
    plain = _TAG.sub("", _SUBSUP.sub("", text))
    plain = plain.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return size * (_chars_width(plain) + 0.7 * small)


def _chars_width(text: str) -> float:
    """Width in em of plain text."""
    return sum(_WIDTHS.get(c, _UPPER if c.isupper() else _DEFAULT) for c in text)


def _lines(text: str) -> list[str]:
    return [line for line in _BR.split(text or "")]


def _wrap(text: str, size: float, room: float) -> str:
    """``text`` with ``<br>`` between words so that no line is wider than ``room`` px."""
    out: list[str] = []
    for line in _lines(text):
        if text_width(line, size) <= room:
            out.append(line)
            continue
        words = line.split(" ")
        current = words[0]
        for word in words[1:]:
            trial = f"{current} {word}"
            if text_width(trial, size) <= room or _open_tag(current):
                current = trial
            else:
                out.append(current)
                current = word
        out.append(current)
    return "<br>".join(out)


def _open_tag(text: str) -> bool:
    """Whether ``text`` ends inside an HTML element (never break a line there)."""
    return text.count("<") > text.count(">") or len(re.findall(r"<su[bp]>", text)) > len(
        re.findall(r"</su[bp]>", text)
    )


def tidied(func: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator: the plotting function's figure passes through :func:`tidy`."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        out = func(*args, **kwargs)
        return tidy(out) if isinstance(out, go.Figure) else out

    return wrapper


def tidy(
    fig: go.Figure,
    *,
    title_lines: int = 0,
    legend_rows: int = 0,
    band_lines: int = 0,
    width: float | None = None,
) -> go.Figure:
    """Place the figure's texts in their own rows; return ``fig`` (changed in place).

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        A figure as a chapter plotting function builds it.
    title_lines, legend_rows, band_lines : int
        At least this many title lines, legend rows and subplot-title lines are reserved (a
        precomputed exploration reserves the most any of its steps needs, so that every step
        shares one layout).
    width : float, optional
        Width the figure is drawn at (default ``layout.width`` or ``COLUMN_WIDTH``).

    Notes
    -----
    The legend is placed in the figure's coordinates (``yref="container"``), where plotly.js
    reserves its extent at the top on its own unless the top margin already leaves that much
    room above the tallest element pushed against the plotting area (a menu, tick labels at
    the top of an axis). Rows below the legend are sized so that this always holds (measured:
    a legend below a menu row of the old layout moved the plotting area down by 101 px).
    """
    layout = fig.layout
    W = float(width or layout.width or COLUMN_WIDTH)
    H = float(layout.height or 450)
    # the plotting area's height as the plot function laid it out (plotly's default margins)
    plot_h = H - _or(layout.margin.t, 100) - _or(layout.margin.b, 80)
    for key in _axis_keys(layout):
        # Tick labels stand off their axis, so that the first x label and the lowest y label
        # do not meet at a panel's corner (measured 5 px of overlap without).
        layout[key].update(automargin=True, ticklabelstandoff=_STANDOFF[key[0]])
    rows = measure(fig, W)
    n_title = max(rows["title"], title_lines)
    n_legend = max(rows["legend"], legend_rows) if layout.showlegend is not False else 0
    n_band = max(rows["band"], band_lines)
    top = float(MODEBAR_STRIP)
    title_size = _title_size(layout)
    if n_title:
        # a superscript in the first line reaches above it: the line moves down that much
        raised = 0.3 * title_size if "<sup>" in _lines(layout.title.text or "")[0] else 0.0
        title_px = top + title_size + raised  # px from the top; y is set once H is known
        layout.title.update(
            x=0.5,
            xref="container",
            xanchor="center",
            # plotly anchors a multi-line title by its first line: "bottom" puts that line's
            # baseline at y (measured), and later lines go below it.
            yref="container",
            yanchor="bottom",
            automargin=False,
            pad={"t": 0, "b": 0, "l": 0, "r": 0},
        )
        top += n_title * _LINE * title_size + raised + _GAP
    legend_bottom = 0.0
    if n_legend:
        layout.showlegend = True
        layout.legend.update(
            orientation="h",
            xref="container",
            x=10.0 / W,
            xanchor="left",
            yref="container",
            yanchor="top",
            traceorder="normal",
            valign="middle",
        )
        legend_px = top
        top += n_legend * _LEGEND_ROW + 6
        legend_bottom = top
    else:
        layout.showlegend = False
    menus = [m for m in layout.updatemenus if m.visible is not False]
    if menus:
        # The menu's row: plotly pushes the top margin to pad + header + 12 px above the
        # plotting area, which must not exceed the room below the legend (see Notes).
        top += _MENU_ROW
    menu_bottom = top - _GAP
    band_size = 15.0
    for ann in _band_annotations(layout):
        ann.update(yanchor="bottom", yshift=0)
        if ann.yref == "paper":
            ann.y = 1.0
        band_size = max(band_size, float(ann.font.size or 15))
    if n_band:
        top += n_band * _LINE * band_size + 2
    top += _GAP
    if legend_bottom:
        top = max(top, legend_bottom + _BELOW_LEGEND)
    top = math.ceil(top)
    bottom = _bottom_block(layout)
    margin_b = max(bottom + 10, 30)
    if layout.sliders:
        for s in layout.sliders:
            s.update(x=0.0, xanchor="left", len=1.0, y=0.0, yanchor="top", pad={"t": bottom + 14})
        margin_b = bottom + 14 + _SLIDER_HEIGHT + 10
    margin_b = math.ceil(margin_b)
    layout.margin.update(t=top, b=margin_b)
    # The rows above and below take room of their own: the figure grows rather than the plot
    # shrinks (a static exploration's slider and menu would otherwise squeeze it).
    H = max(H, top + margin_b + max(plot_h, 0.0))
    layout.height = math.ceil(H)
    if n_title:
        layout.title.y = 1.0 - title_px / layout.height
    if n_legend:
        layout.legend.y = 1.0 - legend_px / layout.height
    if layout.margin.r is None:
        layout.margin.r = 30
    if layout.margin.l is None:
        layout.margin.l = 60
    for m in menus:
        m.update(
            x=0.0,
            xanchor="left",
            y=1.0,
            yanchor="bottom",
            pad={"b": top - menu_bottom, "t": 0, "l": 0, "r": 0},
            direction="down",
        )
    plot_w = W - float(layout.margin.l) - float(layout.margin.r)
    _fit_panels(fig, plot_w)
    _tidy_log_axes(fig, plot_w, layout.height - top - margin_b)
    return fig


def _or(value: Any, default: float) -> float:
    return float(default if value is None else value)


def measure(fig: go.Figure, width: float | None = None) -> dict[str, int]:
    """Rows the figure's texts need: title lines, legend rows, subplot-title lines.

    Wraps the title and subplot titles to their room as a side effect (idempotent).
    """
    layout = fig.layout
    W = float(width or layout.width or COLUMN_WIDTH)
    out = {"title": 0, "legend": 0, "band": 0}
    text = layout.title.text
    if text:
        size = _title_size(layout)
        layout.title.text = _wrap(text, size, W - 40)
        out["title"] = len(_lines(layout.title.text))
    names = _legend_names(fig)
    if names and layout.showlegend is not False and (len(names) > 1 or layout.showlegend):
        out["legend"] = _legend_rows(names, layout, W)
    plot_w = W - float(layout.margin.l or 60) - float(layout.margin.r or 30)
    for ann in _band_annotations(layout):
        size = float(ann.font.size or 15)
        room = _panel_width(layout, ann, plot_w) - 8
        ann.text = _wrap(ann.text or "", size, room)
        lines = len(_lines(ann.text))
        if lines > 2:  # still too long: a smaller font
            ann.font.size = max(11, int(size * 0.85))
            ann.text = _wrap(_BR.sub(" ", ann.text), ann.font.size, room)
            lines = len(_lines(ann.text))
        out["band"] = max(out["band"], lines)
    return out


def _title_size(layout: Any) -> float:
    return float(layout.title.font.size or 17)


def _axis_keys(layout: Any) -> list[str]:
    """Names of the layout's axes ("xaxis", "yaxis2", ...), read without copying the layout."""
    props = layout._props if isinstance(layout._props, dict) else layout.to_plotly_json()
    return [k for k in props if _AXIS.fullmatch(k)]


def _legend_names(fig: go.Figure) -> list[str]:
    """Names of the legend's entries: traces shown, not hidden from the legend."""
    quiet = {"heatmap", "contour", "histogram2d", "histogram2dcontour", "image", "table"}
    names = []
    for trace in fig.data:
        shown = getattr(trace, "showlegend", False)
        if trace.type in quiet or trace.type == "pie" or not hasattr(trace, "showlegend"):
            if shown is not True:
                continue
        if getattr(trace, "visible", True) is False or shown is False:
            continue
        names.append(str(trace.name if trace.name is not None else f"trace {len(names)}"))
    return names


def _legend_rows(names: list[str], layout: Any, W: float) -> int:
    """Rows of a horizontal legend of ``names`` across the figure width.

    As plotly.js lays it out: one row if every entry fits in the plotting area's width, else
    a grid whose columns are as wide as the widest entry.
    """
    size = float(layout.legend.font.size or 12)
    # plotly.js wraps a horizontal legend placed over the plot's width at that width
    room = W - float(layout.margin.l or 60) - float(layout.margin.r or 30)
    title = layout.legend.title.text
    if title:
        room -= text_width(title, size) + 10
    widths = [40 + max(text_width(line, size) for line in _lines(name)) + 10 for name in names]
    lines = max(len(_lines(name)) for name in names)
    if sum(widths) <= room:
        return lines
    columns = max(1, int(room // max(widths)))
    return math.ceil(len(names) / columns) * lines


def _band_annotations(layout: Any) -> list[Any]:
    """Annotations on the plotting area's top edge, drawn above it (subplot titles, line labels).

    They sit at paper y = 1, or at the top of a panel that reaches the top (``"y2 domain"``).
    """
    out = []
    for ann in layout.annotations:
        if ann.y is None or ann.visible is False or ann.showarrow:
            continue
        if ann.y < 0.999 or ann.yanchor not in ("bottom", None, "auto"):
            continue
        ref = ann.yref or "y"  # plotly's default: data coordinates of the first y axis
        if ref.endswith(" domain"):
            key = _axis(ref.split()[0])
            axis = layout[key] if key in _axis_keys(layout) else None
            top = (axis.domain or (0.0, 1.0))[1] if axis is not None else 1.0
            if top < 0.999:
                continue
        elif ref != "paper":
            continue
        out.append(ann)
    return out


def _axis(ref: str) -> str:
    """Layout key of an axis reference: "x2" -> "xaxis2", "y" -> "yaxis"."""
    return f"{ref[0]}axis{ref[1:]}"


def _panel_width(layout: Any, ann: Any, plot_w: float) -> float:
    """Width in px of the panel whose x domain holds the annotation (the plot if none)."""
    if ann.xref != "paper" or ann.x is None:
        return plot_w
    best = None
    for key in _axis_keys(layout):
        if not key.startswith("x"):
            continue
        lo, hi = layout[key].domain or (0.0, 1.0)
        if lo - 1e-6 <= ann.x <= hi + 1e-6:
            span = hi - lo
            best = span if best is None else min(best, span)
    return (best if best is not None else 1.0) * plot_w


def _menu_width(menu: Any) -> float:
    labels = [b.label or "" for b in menu.buttons]
    return max((text_width(x, 12) for x in labels), default=40) + 40


def _bottom_block(layout: Any) -> float:
    """Height in px under the plotting area taken by the lowest x axes' tick labels and title."""
    block = 0.0
    for key in _axis_keys(layout):
        if not key.startswith("x"):
            continue
        ax = layout[key]
        if ax.visible is False or ax.side == "top":
            continue
        y_axis = layout[_yaxis_of(ax)] if _yaxis_of(ax) in _axis_keys(layout) else None
        y_lo = (y_axis.domain or (0.0, 1.0))[0] if y_axis is not None else 0.0
        if y_lo > 0.05:
            continue  # an axis of an upper row
        tick_lines = max((len(_lines(str(t))) for t in (ax.ticktext or ())), default=1)
        size = float(ax.tickfont.size or 12)
        h = 8 + _STANDOFF["x"] + tick_lines * _LINE * size
        if ax.title.text:
            h += 12 + len(_lines(ax.title.text)) * _LINE * float(ax.title.font.size or 14)
        block = max(block, h)
    return block or 30.0


def _yaxis_of(ax: Any) -> str:
    anchor = ax.anchor or "y"
    return f"yaxis{anchor[1:]}" if anchor.startswith("y") else "yaxis"


# --- log axes --------------------------------------------------------------------------------


def _tidy_log_axes(fig: go.Figure, plot_w: float, plot_h: float) -> None:
    """Decade ticks (powers of ten) on log axes spanning ``_MIN_LOG_SPAN`` decades or more.

    Every decade is labelled where the labels have room (20 px a row on a y axis, 44 px a label
    on an x axis); otherwise every second, third ... decade.
    """
    layout = fig.layout
    for key in _axis_keys(layout):
        ax = layout[key]
        if ax.type != "log":
            continue
        lo, hi = _log_span(fig, key)
        if ax.range is not None and ax.autorange in (None, False):
            lo, hi = sorted(float(v) for v in ax.range)
        if lo is None or hi is None:
            continue
        if ax.tickvals is not None and hi - lo < 0.95 and ax.range is None:
            # Chosen ticks (4, 8, 16, 32) on less than a decade of data: a range just around
            # the data, so that plotly's padding does not stretch the axis past a decade.
            pad = (0.98 - (hi - lo)) / 2
            ax.update(range=[lo - pad, hi + pad], autorange=False)
            continue
        if hi - lo < _MIN_LOG_SPAN:
            continue
        if ax.tickvals is None and math.floor(hi) - math.ceil(lo) < 1 and ax.range is None:
            lo, hi = math.floor(lo), math.ceil(hi)
            ax.range = [lo, hi]  # two labelled decades at least
            ax.autorange = False
        domain = ax.domain or (0.0, 1.0)
        length = (domain[1] - domain[0]) * (plot_w if key[0] == "x" else plot_h)
        need = 44.0 if key[0] == "x" else 20.0
        decades = max(hi - lo, 1.0) * 1.1
        step = max(1, math.ceil(need * decades / max(length, 1.0)))
        ax.update(dtick=step, exponentformat="power")
        if step == 1:
            ax.minor = {"ticks": "outside", "ticklen": 3, "showgrid": False}


def _log_span(fig: go.Figure, key: str) -> tuple[float | None, float | None]:
    """log10 of the smallest and largest positive values the traces put on axis ``key``."""
    letter, suffix = key[0], key[5:]
    ref = letter + suffix
    lo, hi = math.inf, -math.inf
    for trace in fig.data:
        if getattr(trace, "visible", True) is False:
            continue
        if (getattr(trace, f"{letter}axis", None) or letter) != ref:
            continue
        values = _numbers(getattr(trace, letter, None))
        if values is None:
            continue
        try:
            arr = np.asarray(values, dtype=float).ravel()
        except (TypeError, ValueError):
            continue
        arr = arr[np.isfinite(arr) & (arr > 0)]
        if arr.size:
            lo, hi = min(lo, float(np.log10(arr.min()))), max(hi, float(np.log10(arr.max())))
    return (lo, hi) if lo <= hi else (None, None)


def _numbers(values: Any) -> Any:
    """Trace data as an array; plotly's typed-array form ({"dtype", "bdata"}) is decoded."""
    if isinstance(values, dict) and "bdata" in values:
        raw = base64.b64decode(values["bdata"])
        return np.frombuffer(raw, dtype=np.dtype(values.get("dtype", "f8")))
    return values


# --- side-by-side panels ---------------------------------------------------------------------


def _fit_panels(fig: go.Figure, plot_w: float) -> None:
    """Widen the gaps between side-by-side panels to hold the right panel's y-axis texts."""
    layout = fig.layout
    keys = _axis_keys(layout)
    xs = [k for k in keys if k.startswith("x") and layout[k].domain is not None]
    if len(xs) < 2:
        return
    rows: dict[tuple[float, float], list[str]] = {}
    for k in xs:
        y_key = _yaxis_of(layout[k])
        y_dom = tuple(layout[y_key].domain or (0.0, 1.0)) if y_key in keys else (0.0, 1.0)
        rows.setdefault((round(y_dom[0], 3), round(y_dom[1], 3)), []).append(k)
    for row in rows.values():
        row.sort(key=lambda k: layout[k].domain[0])
        if len(row) < 2:
            continue
        doms = [tuple(layout[k].domain) for k in row]
        need = []
        for i in range(1, len(row)):
            left_right = _right_side_width(fig, row[i - 1])
            need.append((_left_side_width(fig, row[i]) + left_right + 12) / plot_w)
        gaps = [doms[i][0] - doms[i - 1][1] for i in range(1, len(doms))]
        if all(g >= n - 1e-9 for g, n in zip(gaps, need, strict=True)):
            continue
        gaps = [max(g, n) for g, n in zip(gaps, need, strict=True)]
        start, end = doms[0][0], doms[-1][1]
        widths = np.array([d[1] - d[0] for d in doms])
        room = end - start - sum(gaps)
        if room <= 0.2 * (end - start):
            continue
        widths = widths / widths.sum() * room
        left = start
        for i, k in enumerate(row):
            layout[k].domain = [max(0.0, left), min(1.0, left + float(widths[i]))]
            left += float(widths[i]) + (gaps[i] if i < len(gaps) else 0.0)
        _move_band(layout, doms, row)


def _move_band(layout: Any, old: list[tuple[float, float]], row: list[str]) -> None:
    """Keep annotations centred on the panels they belong to after a domain change."""
    for ann in layout.annotations:
        if ann.xref != "paper" or ann.x is None:
            continue
        for (lo, hi), k in zip(old, row, strict=True):
            if lo - 1e-6 <= ann.x <= hi + 1e-6:
                new_lo, new_hi = layout[k].domain
                ann.x = new_lo + (ann.x - lo) / (hi - lo) * (new_hi - new_lo)
                break


def _y_axes_of(layout: Any, x_key: str) -> list[Any]:
    ref = "x" + x_key[5:]
    return [
        layout[k]
        for k in _axis_keys(layout)
        if k.startswith("y") and (layout[k].anchor or "x") == ref
    ]


def _left_side_width(fig: go.Figure, x_key: str) -> float:
    """Px left of a panel taken by its left y axis: tick labels and title."""
    out = 0.0
    for ax in _y_axes_of(fig.layout, x_key):
        if ax.side == "right" or ax.visible is False:
            continue
        out = max(out, _y_block(fig, ax))
    return out


def _right_side_width(fig: go.Figure, x_key: str) -> float:
    """Px right of a panel taken by a right-side y axis or a colour bar."""
    out = 0.0
    for ax in _y_axes_of(fig.layout, x_key):
        if ax.side == "right" and ax.visible is not False:
            out = max(out, _y_block(fig, ax))
    return out


def _y_block(fig: go.Figure, ax: Any) -> float:
    """Tick labels plus title of a y axis, in px."""
    size = float(ax.tickfont.size or 12)
    if ax.showticklabels is False:
        labels = 0.0
    elif ax.ticktext:
        labels = max(text_width(str(t), size) for t in ax.ticktext)
    elif ax.type == "log":
        labels = 3.2 * size
    else:
        labels = _linear_label_width(fig, ax, size)
    h = labels + 6 + _STANDOFF["y"]
    if ax.title.text:
        h += 10 + len(_lines(ax.title.text)) * _LINE * float(ax.title.font.size or 14)
    return h


def _linear_label_width(fig: go.Figure, ax: Any, size: float) -> float:
    """Width of the widest tick label plotly would choose on a linear axis (estimated)."""
    lo, hi = None, None
    if ax.range is not None:
        lo, hi = sorted(float(v) for v in ax.range)
    else:
        name = ax.plotly_name  # e.g. "yaxis2"
        ref = "y" + name[5:]
        vals = []
        for trace in fig.data:
            hidden = getattr(trace, "visible", True) is False
            if hidden or (getattr(trace, "yaxis", None) or "y") != ref:
                continue
            try:
                arr = np.asarray(_numbers(trace.y), dtype=float).ravel()
            except (TypeError, ValueError):  # categories: the longest one
                return max((text_width(str(v), size) for v in trace.y), default=0.0)
            arr = arr[np.isfinite(arr)]
            if arr.size:
                vals += [arr.min(), arr.max()]
        if vals:
            lo, hi = min(vals), max(vals)
    if lo is None or hi is None:
        return 4 * 0.64 * size
    span = hi - lo if hi > lo else abs(hi) or 1.0
    step = 10 ** math.floor(math.log10(span / 5))
    for m in (1, 2, 5, 10):
        if span / (m * step) <= 7:
            step *= m
            break
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    ticks = np.arange(math.floor(lo / step) * step, hi + step, step)
    labels = [f"{t:.{decimals}f}".replace("-", "−") for t in ticks]
    return max(text_width(s, size) for s in labels)


def legend_on_top(fig: go.Figure) -> bool:
    """Whether the figure's legend is horizontal and lies in the top margin, above the plot."""
    layout = fig.layout
    legend = layout.legend
    if legend.orientation != "h" or legend.yref != "container" or legend.y is None:
        return False
    height = float(layout.height or 450)
    return (1.0 - legend.y) * height < float(layout.margin.t or 0)
