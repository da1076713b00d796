"""Plot helpers shared by the attention-index figure modules (private).

One trace builder, one number format and one palette, so that the chapter's figures draw their
lines, labels and colours the same way. Plotting only: nothing here computes a model quantity.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")
_GREY = "#7f7f7f"

# One colour per teacher width ρ, the same in every figure of a page: the values the chapter
# draws get fixed colours (the seven of a ρ-family figure take the seven palette colours in
# order); any other ρ takes the colour of the nearest of these on a log scale.
_RHO_COLORS = {
    0.002: "#17becf",
    0.01: "#bcbd22",
    0.02: "#393b79",
    0.05: _COLORS[0],
    0.1: _COLORS[1],
    0.2: _COLORS[2],
    0.3: _COLORS[3],
    0.5: _COLORS[4],
    1.0: _COLORS[5],
    2.0: "#8c6d31",
    5.0: _COLORS[6],
}
_RHO_KEYS = np.array(sorted(_RHO_COLORS))


def _fmt(x: float) -> str:
    """Three significant digits, as the figure titles and labels print parameters."""
    return f"{x:.3g}"


def _rho_color(rho: float) -> str:
    """The colour of teacher width ``rho`` (> 0): tied to the value, not to the trace order."""
    key = _RHO_KEYS[int(np.argmin(np.abs(np.log(_RHO_KEYS) - np.log(float(rho)))))]
    return _RHO_COLORS[float(key)]


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
