"""Figures for the chapter "Factual recall" (``book/factual-recall``).

Each module takes the result objects of one part of the library and returns plotly figures;
every public plotting function is also importable from this package, so a section's notebook
reads ``from assocmem.explore import factual_recall as plots`` and calls ``plots.plot_...``.

Modules
-------
basics
    Score maps, counting and first moments (01, 02, 05).
common
    Accuracy-against-load curves shared by several sections.
hebbian
    The Hebbian memory (03).
training
    Trained against Hebbian memories (04).
replica
    Free entropy and the energetic replica bound (06).
mechanism
    The storage mechanism (07).
spectra
    Two-layer memories W = Q Rᵀ (08).
"""

from .basics import (
    plot_counting_curve,
    plot_first_moments,
    plot_load_table,
    plot_score_maps,
)
from .common import SWEEP_COLORS, plot_accuracy_curves
from .hebbian import (
    MODEL_STYLES,
    plot_model_table,
    plot_model_vs_simulation,
    plot_rate_curves,
    plot_score_histogram,
)
from .mechanism import (
    plot_extreme_value,
    plot_histogram_grid,
    plot_row_view,
    plot_score_histograms,
    plot_target_spread,
    summary_table,
)
from .replica import plot_energetic_mc, plot_finite_size, plot_free_entropy
from .spectra import (
    plot_eckart_young,
    plot_ks_against_load,
    plot_spectrum_comparisons,
    plot_trained_spectrum,
)
from .training import (
    plot_learning_curve,
    plot_schedule,
    plot_threshold_scan,
    plot_training_vs_hebbian,
)

__all__ = [
    "MODEL_STYLES",
    "SWEEP_COLORS",
    "plot_accuracy_curves",
    "plot_counting_curve",
    "plot_eckart_young",
    "plot_energetic_mc",
    "plot_extreme_value",
    "plot_finite_size",
    "plot_first_moments",
    "plot_free_entropy",
    "plot_histogram_grid",
    "plot_ks_against_load",
    "plot_learning_curve",
    "plot_load_table",
    "plot_model_table",
    "plot_model_vs_simulation",
    "plot_rate_curves",
    "plot_row_view",
    "plot_schedule",
    "plot_score_histogram",
    "plot_score_histograms",
    "plot_score_maps",
    "plot_spectrum_comparisons",
    "plot_target_spread",
    "plot_threshold_scan",
    "plot_trained_spectrum",
    "plot_training_vs_hebbian",
    "summary_table",
]
