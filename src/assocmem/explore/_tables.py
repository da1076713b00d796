"""Table figures sized to their rows: no scroll bar, no blank space below.

plotly.js grows a table row to its tallest cell, wrapping text at spaces to the column's width
and breaking at ``<br>``; a figure too short for the rows hides them behind a scroll bar, one too
tall leaves a blank band. :func:`table_figure` adds up each row's height from the estimated text
widths of :mod:`assocmem.explore._layout` (which err on the wide side), so the figure is as tall
as its rows. Every chapter's table figure is built with it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ._layout import COLUMN_WIDTH, _lines, _wrap

__all__ = ["table_figure"]

# plotly.js tables: 8 px of padding around a cell's text, lines 1.3 font sizes apart (measured
# 15.2 px at 12 px); a row grows to its tallest cell of more than one line (wrapped at spaces
# or broken at <br>), to the lines' height and the padding above and below.
_CELL_PAD = 8
_TABLE_LINE = 1.3


def _wrapped_lines(text: str, size: float, room: float) -> int:
    """Lines plotly.js wraps ``text`` into in a column ``room`` px wide (the layout's wrap)."""
    return len(_lines(_wrap(str(text), size, room)))


def _row_height(texts: Sequence[str], widths: Sequence[float], size: float, base: float) -> float:
    """Height (px) of one table row: the cell height, or its tallest wrapped cell."""
    tall = base
    for text, width in zip(texts, widths, strict=True):
        n = _wrapped_lines(text, size, width - 2 * _CELL_PAD)
        if n > 1:
            tall = max(tall, n * _TABLE_LINE * size + 2 * _CELL_PAD)
    return tall


def table_figure(
    header: Sequence[str],
    columns: Sequence[Sequence[str]],
    *,
    columnwidth: Sequence[float] | None = None,
    header_style: Mapping[str, Any] | None = None,
    cell_style: Mapping[str, Any] | None = None,
    size: float = 12,
) -> go.Figure:
    """A plotly table whose figure is as tall as its rows (no scroll bar, no blank space).

    The height adds up each row's height: plotly.js wraps a cell's text at spaces to its
    column's width (``text_width`` estimates err on the wide side) and grows the row to fit.
    """
    n = len(header)
    rel = np.asarray(columnwidth if columnwidth is not None else [1.0] * n, dtype=float)
    margin = 10
    widths = (COLUMN_WIDTH - 2 * margin) * rel / rel.sum()
    head_h, cell_h = 28.0, 24.0
    total = _row_height(header, widths, size, head_h)
    for row in zip(*columns, strict=True):
        total += _row_height(row, widths, size, cell_h)
    table = go.Table(
        header={
            "values": list(header),
            "font": {"size": size},
            "height": head_h,
            **(header_style or {}),
        },
        cells={
            "values": [list(c) for c in columns],
            "font": {"size": size},
            "height": cell_h,
            **(cell_style or {}),
        },
        columnwidth=list(rel),
    )
    # tidy() keeps the plotting area this tall and adds its own top and bottom rows
    return go.Figure(
        table,
        layout={
            "height": math.ceil(total) + 4 + 2 * margin,
            "margin": {"t": margin, "b": margin, "l": margin, "r": margin},
        },
    )
