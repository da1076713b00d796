"""Figures for the chapter "Epanechnikov dense associative memory" (``book/epanechnikov``).

Each module takes the result objects of one part of the library and returns plotly figures;
every public plotting function is also importable from this package, so a section's notebook
reads ``from assocmem.explore import epanechnikov as plots`` and calls ``plots.plot_...``.

Modules
-------
landscapes
    Energy landscapes, separation functions and Theorem 1 (sections 01, 03, 04).
minima
    Emergent memories, counting minima and capacity (05, 06, 07).
samples
    Densities, generated samples and limitations (02, 08, 09, 10).
research
    The paper's public counting code (11).
"""

from .landscapes import (
    plot_count_curve,
    plot_landscape_1d,
    plot_landscape_2d,
    plot_minima_counts_1d,
    plot_separation,
    plot_thm1,
    plot_thm1_sweep,
)
from .minima import (
    plot_active_set,
    plot_basin_survey,
    plot_capacity_panel,
    plot_collision_curves,
    plot_count_bound,
    plot_emergence_peaks,
    plot_emergence_sweep,
    plot_grid_counts,
    plot_hull_gradients,
    plot_polygon_puzzle,
    plot_prop2,
    plot_simplex_counts,
)
from .research import plot_counting_survey
from .samples import (
    LSE_COLOR,
    LSR_COLOR,
    METHOD_NAMES,
    digits_figure,
    far_query_figure,
    generative_2d_figure,
    generative_figure,
    kde_figure,
    kernel_figure,
    limitations_figure,
    parents_child_figure,
)

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
    "plot_active_set",
    "plot_basin_survey",
    "plot_capacity_panel",
    "plot_collision_curves",
    "plot_count_bound",
    "plot_count_curve",
    "plot_counting_survey",
    "plot_emergence_peaks",
    "plot_emergence_sweep",
    "plot_grid_counts",
    "plot_hull_gradients",
    "plot_landscape_1d",
    "plot_landscape_2d",
    "plot_minima_counts_1d",
    "plot_polygon_puzzle",
    "plot_prop2",
    "plot_separation",
    "plot_simplex_counts",
    "plot_thm1",
    "plot_thm1_sweep",
]
