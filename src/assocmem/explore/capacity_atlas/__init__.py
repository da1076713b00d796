"""Figures for the closing part "A capacity atlas" (book/capacity-atlas).

The views compute each chapter's notion of capacity with that chapter's own library functions
and return frozen results; the plotting functions take those results. Every public name is also
importable from this package.

Modules
-------
five
    Five notions of capacity side by side, in their own and in common units (01).
"""

from .five import (
    CapacityAtlas,
    CapacityView,
    ModelCapacity,
    attention_capacity,
    attractor_capacity,
    capacity_atlas,
    capacity_table,
    capacity_view,
    epanechnikov_capacity,
    factual_recall_capacity,
    plot_capacity,
    saddle_capacity,
)

__all__ = [
    "CapacityAtlas",
    "CapacityView",
    "ModelCapacity",
    "attention_capacity",
    "attractor_capacity",
    "capacity_atlas",
    "capacity_table",
    "capacity_view",
    "epanechnikov_capacity",
    "factual_recall_capacity",
    "plot_capacity",
    "saddle_capacity",
]
