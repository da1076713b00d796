"""Figures for the chapter "The saddle hierarchy of dense associative memory" (book/dam-saddles).

Each module holds the views of one section (pure functions that run :mod:`assocmem.potts_dam` and
return frozen results) and the plotting functions that take those results; every public name is
also importable from this package.

Modules
-------
geometry
    A Boltzmann machine becomes a vMF mixture; normaliser and ς (01).
digits
    Learning prototypes from digits (02).
saddle
    Teacher–student saddle-point equations (03).
hierarchy
    The saddle hierarchy (04).
growing
    Growing a network by splitting (05).
"""

from .digits import (
    DigitsRun,
    NeighbourView,
    TableOne,
    digits_run,
    neighbour_view,
    plot_memories,
    plot_neighbours,
    plot_training,
    table_one,
)
from .geometry import (
    CircleView,
    NormaliserView,
    OverlapView,
    circle_view,
    normaliser_view,
    overlap_view,
    plot_circle,
    plot_normaliser,
    plot_overlaps,
)
from .growing import (
    GrowthRuns,
    LearningTree,
    growth_runs,
    learning_tree,
    plot_growth,
    plot_learning_tree,
)
from .hierarchy import (
    CurvatureCurves,
    DuplicationCheck,
    TwoGroupSplit,
    curvature_curves,
    duplication_check,
    plot_curvature,
    plot_two_group_split,
    two_group_split,
)
from .saddle import (
    GibbsView,
    PhaseView,
    PitchforkView,
    SolverView,
    ThresholdScan,
    gibbs_view,
    phase_view,
    pitchfork_view,
    plot_gibbs,
    plot_phase,
    plot_pitchfork,
    plot_solver,
    solver_view,
    threshold_scan,
)

__all__ = [
    "CircleView",
    "CurvatureCurves",
    "DigitsRun",
    "DuplicationCheck",
    "GibbsView",
    "GrowthRuns",
    "LearningTree",
    "NeighbourView",
    "NormaliserView",
    "OverlapView",
    "PhaseView",
    "PitchforkView",
    "SolverView",
    "TableOne",
    "ThresholdScan",
    "TwoGroupSplit",
    "circle_view",
    "curvature_curves",
    "digits_run",
    "duplication_check",
    "gibbs_view",
    "growth_runs",
    "learning_tree",
    "neighbour_view",
    "normaliser_view",
    "overlap_view",
    "phase_view",
    "pitchfork_view",
    "plot_circle",
    "plot_curvature",
    "plot_gibbs",
    "plot_growth",
    "plot_learning_tree",
    "plot_memories",
    "plot_neighbours",
    "plot_normaliser",
    "plot_overlaps",
    "plot_phase",
    "plot_pitchfork",
    "plot_solver",
    "plot_training",
    "plot_two_group_split",
    "solver_view",
    "table_one",
    "threshold_scan",
    "two_group_split",
]
