"""Plot helpers shared by the attention-index figure modules (private).

One trace builder, one number format and one palette, so that the chapter's figures draw their
lines, labels and colours the same way. Plotting only: nothing here computes a model quantity.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")
_GREY = "#7f7f7f"


def _fmt(x: float) -> str:
    """Three significant digits, as the figure titles and labels print parameters."""
    return f"{x:.3g}"


def _ks_sorted(F: np.ndarray) -> float:
    """Kolmogorov-Smirnov distance of n sorted samples to a theory CDF F evaluated at them.

    The empirical CDF jumps from (i − 1)/n to i/n at the i-th sample, so the distance is the
    larger of max(i/n − F_i) and max(F_i − (i − 1)/n).
    """
    n = F.size
    upper = np.arange(1, n + 1) / n
    return float(max(np.max(upper - F), np.max(F - (upper - 1.0 / n))))


def _line(x: Any, y: Any, name: str, *, xaxis: str = "x", yaxis: str = "y", **style: Any) -> dict:
    """A line trace on the axes (xaxis, yaxis); ``style`` adds or overrides trace keys."""
    return {
        "type": "scatter",
        "x": np.asarray(x),
        "y": np.asarray(y),
        "name": name,
        "mode": "lines",
        "xaxis": xaxis,
        "yaxis": yaxis,
        **style,
    }
