"""Layout helpers shared by the chapter plot modules: hand-made panels, reference lines, bands.

Multi-panel figures are laid out with axis domains rather than ``plotly.subplots.make_subplots``,
which costs about 0.1 s per figure; explorations build dozens. Shapes are returned as plain dicts
for ``layout.shapes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def _axis(ref: str) -> str:
    """Layout key of an axis reference: "x2" -> "xaxis2", "y" -> "yaxis"."""
    return f"{ref[0]}axis{ref[1:]}"


def _panels(
    titles: Sequence[str],
    secondary: bool = False,
    widths: Sequence[float] | None = None,
    spacing: float = 0.12,
) -> tuple[dict[str, Any], list[tuple[str, str, str | None]]]:
    """A one-row layout of len(titles) panels: the layout dict and (x, y, y2) refs per panel."""
    n = len(titles)
    w = np.asarray(widths if widths is not None else [1.0] * n, dtype=float)
    w = w / w.sum() * (1.0 - spacing * (n - 1))
    layout: dict[str, Any] = {"shapes": [], "annotations": []}
    refs: list[tuple[str, str, str | None]] = []
    left = 0.0
    for i, title in enumerate(titles):
        right = left + float(w[i])
        xname = "x" if i == 0 else f"x{i + 1}"
        k = 2 * i + 1 if secondary else i + 1
        yname = "y" if k == 1 else f"y{k}"
        y2name = f"y{k + 1}" if secondary else None
        layout[_axis(xname)] = {"domain": [left, right], "anchor": yname}
        layout[_axis(yname)] = {"anchor": xname}
        if y2name is not None:
            layout[_axis(y2name)] = {"anchor": xname, "overlaying": yname, "side": "right"}
        if not title:
            refs.append((xname, yname, y2name))
            left = right + spacing
            continue
        layout["annotations"].append(
            {
                "text": title,
                "x": (left + right) / 2,
                "y": 1.0,
                "xref": "paper",
                "yref": "paper",
                "xanchor": "center",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 15},
            }
        )
        refs.append((xname, yname, y2name))
        left = right + spacing
    return layout, refs


def _positive_or_none(values: Any) -> list[Any]:
    """Values for a log axis: zeros become gaps."""
    return [float(v) if v > 0 else None for v in np.asarray(values, dtype=float)]


def _vline(x: float, xref: str, yref: str, dash: str = "dot", color: str = "black") -> dict:
    """A vertical line across a panel (data x, full height)."""
    return {
        "type": "line",
        "xref": xref,
        "yref": f"{yref} domain",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "line": {"dash": dash, "color": color, "width": 1.5},
    }


def _hline(y: float, xref: str, yref: str, dash: str = "dash", color: str = "black") -> dict:
    """A horizontal line across a panel (data y, full width)."""
    return {
        "type": "line",
        "xref": f"{xref} domain",
        "yref": yref,
        "x0": 0,
        "x1": 1,
        "y0": y,
        "y1": y,
        "line": {"dash": dash, "color": color, "width": 1},
    }


_TURN = np.linspace(0.0, 2.0 * np.pi, 121)


def _circle_trace(
    center: float,
    radius: float,
    refs: tuple[str, str],
    name: str,
    line: dict[str, Any],
    legend: bool = True,
) -> dict[str, Any]:
    """A circle of the complex plane centred on the real axis, as a parametric line trace."""
    return {
        "type": "scatter",
        "mode": "lines",
        "x": np.round(center + radius * np.cos(_TURN), 4),
        "y": np.round(radius * np.sin(_TURN), 4),
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        "line": line,
        "showlegend": legend,
        "legendgroup": name,
        "hoverinfo": "skip",
    }


def _complex_points(
    z: Any,
    refs: tuple[str, str],
    name: str,
    marker: dict[str, Any],
    legend: bool = True,
    opacity: float = 1.0,
) -> dict[str, Any]:
    """Complex numbers (eigenvalues) as a marker trace at (Re, Im), rounded to 4 decimals."""
    z = np.asarray(z, dtype=complex).ravel()
    return {
        "type": "scatter",
        "mode": "markers",
        "x": np.round(z.real, 4),
        "y": np.round(z.imag, 4),
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        "marker": marker,
        "opacity": opacity,
        "showlegend": legend,
        "legendgroup": name,
        "hovertemplate": "Re λ = %{x:.4f}<br>Im λ = %{y:.4f}<extra>" + name + "</extra>",
    }
