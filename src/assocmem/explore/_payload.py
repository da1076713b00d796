"""How figure data travels: long float arrays as float32.

A page's figure data (every precomputed step of an exploration) and every live update carry
their long float arrays as float32, half the bytes of float64 with more precision than a plot
can show. Shared by :mod:`assocmem.explore._core` (the book's static figures) and
:mod:`assocmem.explore._live` (the notebook's live figure).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

__all__ = ["compact", "compact_traces"]


def compact_traces(fig: go.Figure) -> list[dict[str, Any]]:
    """The figure's traces with long float arrays as float32 (half the book's figure data)."""
    return [compact(t.to_plotly_json()) for t in fig.data]


def compact(value: Any) -> Any:
    """Store long float arrays as float32 (half the bytes of a page's figure data)."""
    if isinstance(value, np.ndarray) and value.dtype == np.float64:
        return value.astype(np.float32)
    if isinstance(value, dict):
        return {k: compact(v) for k, v in value.items()}
    if (
        isinstance(value, list | tuple)
        and len(value) >= 16
        and all(isinstance(v, float | int) and not isinstance(v, bool) for v in value)
    ):
        return np.asarray(value, dtype=np.float32)
    return value
