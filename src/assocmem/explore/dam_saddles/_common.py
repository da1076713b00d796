"""Plot helpers shared by the saddle-hierarchy figure modules (private).

One number format, one palette and one line-trace builder, so that the chapter's figures draw
their lines, labels and colours the same way. Plotting only: nothing here computes a model
quantity. Import what you need (``from ._common import _COLORS, _fmt, _line``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: Line colours, in the order a figure's curves take them.
_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")
_GREY = "#7f7f7f"
#: The theory (a closed form or the saddle-point solution) is drawn in black.
_THEORY = "black"
#: Memories (the w^μ) are drawn in this colour wherever they appear as points.
_MEMORY = "#d62728"


def _fmt(x: float) -> str:
    """Three significant digits, as the figure titles and labels print parameters."""
    return f"{x:.3g}"


def _line(x: Any, y: Any, name: str, *, xaxis: str = "x", yaxis: str = "y", **style: Any) -> dict:
    """A line trace on the axes (xaxis, yaxis).

    ``style`` adds or overrides trace keys. Non-finite values become gaps (None).
    """
    return {
        "type": "scatter",
        "x": _finite(x),
        "y": _finite(y),
        "name": name,
        "mode": "lines",
        "xaxis": xaxis,
        "yaxis": yaxis,
        **style,
    }


def _finite(values: Any) -> np.ndarray:
    """A float32 array for plotly: non-finite values (and None) become NaN, drawn as gaps.

    Arrays travel to the browser as base64 typed arrays (plotly >= 6); float32 halves the
    bytes of a page of precomputed slider steps and keeps seven significant digits, more
    than a figure shows.
    """
    arr = np.array(values, dtype=float).ravel()
    arr[~np.isfinite(arr)] = np.nan
    return arr.astype(np.float32)
