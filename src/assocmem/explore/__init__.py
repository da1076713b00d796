"""Dual-mode explorations: live ipywidgets in a notebook, precomputed plotly sliders in the book.

One pure compute function serves both modes. ``explore(compute, plot, params)`` returns an
:class:`Exploration`. Displayed in a live notebook it is an ipywidgets panel whose controls
recompute over continuous ranges; in the built HTML book, where no kernel runs, the same cell
shows a plotly figure whose slider steps (and dropdown options) were computed at build time.
Both are carried in one output: the widget view for Jupyter front ends, and a ``text/html``
fallback that the book renders.

Plotting functions take results (the compute function's return value), never raw parameters.
Chapter-specific plotting lives in one subpackage per chapter, named after its book folder:
``assocmem.explore.epanechnikov``, ``assocmem.explore.factual_recall`` and
``assocmem.explore.attractor_stability``; each re-exports its plotting functions, so a notebook
reads ``from assocmem.explore import epanechnikov as plots``. The closing part's
``assocmem.explore.capacity_atlas`` (book/capacity-atlas) puts the chapters' capacities side
by side. The shared core is ``_core``
(explorations, claims tables), ``_panels`` (multi-panel layout helpers) and ``_layout`` (the one
placement of titles, legends, menus and sliders that every chapter figure passes through).

Each plotting function checks its arguments once, at its top: a result of the wrong type (or
None) raises a ``TypeError`` naming the parameter, and so do a non-integer height, a flag that is
not a bool and a label list that is a single string; a figure height lies in [100, 5000] pixels.
An exploration precomputes at most ``MAX_PRECOMPUTED`` (500) figures: slider steps times
dropdown options.

Public functions
----------------
setup
    Plotly renderer, BLAS thread pinning and a seeded generator; the first cell of every notebook.
Slider, Choice
    Parameter specifications: a continuous (or integer) range, or a set of options.
explore
    Build an :class:`Exploration` from a compute function, a plot function and parameters.
static_figure
    The book-mode figure alone: precomputed slider steps and dropdown options.
Claim, claims_table
    The paper-against-ours table that ends each reproducing section. A claim takes the measured
    value, its reference and a tolerance (``exact``, ``absolute``, ``relative``, ``at_most``,
    ``at_least`` or a named ``predicate``) and derives its verdict; its kind is a reproduction, a
    consistency check of our code, or a paper error (see ``_claims``).
spread
    ``mean ± std (n, range)`` of many instances, for a row that rests on more than one.
"""

from ._claims import (
    Claim,
    ClaimsTable,
    ConsistencyError,
    Tolerance,
    absolute,
    at_least,
    at_most,
    claims_table,
    exact,
    predicate,
    relative,
    spread,
)
from ._core import (
    BOOK_RENDERER,
    Choice,
    Exploration,
    Slider,
    explore,
    figure_html,
    setup,
    static_figure,
)

__all__ = [
    "BOOK_RENDERER",
    "Choice",
    "Claim",
    "ClaimsTable",
    "ConsistencyError",
    "Exploration",
    "Slider",
    "Tolerance",
    "absolute",
    "at_least",
    "at_most",
    "claims_table",
    "exact",
    "explore",
    "figure_html",
    "predicate",
    "relative",
    "setup",
    "spread",
    "static_figure",
]
