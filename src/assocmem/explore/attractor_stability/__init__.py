"""Figures for the chapter "Attractor stability" (``book/attractor-stability``).

Each module takes the result objects of one part of the library and returns plotly figures;
every public plotting function is also importable from this package, so a section's notebook
reads ``from assocmem.explore import attractor_stability as plots`` and calls ``plots.plot_...``.

Modules
-------
structure
    The model and storing patterns (01, 02).
ensemble
    Linearisation and the paired ensemble (03).
spectra
    The bulk of the Jacobian spectrum (04).
outliers
    Outliers and the threshold (05).
loads
    Critical loads and phase diagrams (06).
dynamics
    Kicks, basins and noise (07).
sparse
    Sparse patterns (08).
"""

from .dynamics import plot_basins, plot_fluctuations, plot_kicks
from .ensemble import (
    plot_ensemble,
    plot_ensemble_grid,
    plot_ensemble_table,
    plot_reduction,
)
from .loads import (
    plot_alpha_s_comparison,
    plot_optimum_vs_cv,
    plot_phase_diagram,
    plot_transition,
)
from .outliers import (
    plot_memory_outliers,
    plot_outlier_view,
    plot_theta_scan,
    plot_threshold_window,
)
from .sparse import (
    plot_capacity,
    plot_kink_profile,
    plot_stability,
    plot_storage,
    plot_threshold,
)
from .spectra import (
    plot_bulk_edge_table,
    plot_edge_deviations,
    plot_gain_swap,
    plot_spectrum,
)
from .structure import (
    plot_activation,
    plot_non_normality,
    plot_pattern_density,
    plot_recall_demo,
    plot_weight_snapshot,
    plot_weight_sweep,
)

__all__ = [
    "plot_activation",
    "plot_alpha_s_comparison",
    "plot_basins",
    "plot_bulk_edge_table",
    "plot_capacity",
    "plot_edge_deviations",
    "plot_ensemble",
    "plot_ensemble_grid",
    "plot_ensemble_table",
    "plot_fluctuations",
    "plot_gain_swap",
    "plot_kicks",
    "plot_kink_profile",
    "plot_memory_outliers",
    "plot_non_normality",
    "plot_optimum_vs_cv",
    "plot_outlier_view",
    "plot_pattern_density",
    "plot_phase_diagram",
    "plot_recall_demo",
    "plot_reduction",
    "plot_spectrum",
    "plot_stability",
    "plot_storage",
    "plot_theta_scan",
    "plot_threshold",
    "plot_threshold_window",
    "plot_transition",
    "plot_weight_snapshot",
    "plot_weight_sweep",
]
