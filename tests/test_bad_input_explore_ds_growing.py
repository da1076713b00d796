"""Bad-input matrix over ``assocmem.explore.dam_saddles.growing`` (``tests/badinput.py``).

The views take small integer sizes and fractions (see their docstrings); the plot functions take
their results. Each result is built once, at import, by a small call.
"""

from __future__ import annotations

import badinput as bad
from badinput import Baseline, matrix_tests

from assocmem.explore.dam_saddles import growing as plots

_TREE = plots.learning_tree(P=4, steps=10, iterations=20)
_RUNS = plots.growth_runs(P_max=4, P_init=2, epochs_first=1, epochs_after=1, epochs_scratch=1)

BASELINES = [
    Baseline(
        plots.learning_tree,
        {
            "P": 4,
            "seed": 1,
            "N": 20,
            "beta_max": 5.0,
            "steps": 8,
            "iterations": 10,
            "noise": 1e-3,
            "tol": 0.02,
        },
        accepts={
            "seed": bad.ZERO,
            "beta_max": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_POSITIVE,
            "tol": bad.SMALL_POSITIVE,
        },
    ),
    Baseline(
        plots.growth_runs,
        {
            "P_max": 4,
            "seed": 1,
            "P_init": 2,
            "epochs_first": 1,
            "epochs_after": 1,
            "epochs_scratch": 1,
            "varsigma": 0.5,
            "tol": 0.01,
        },
        accepts={"seed": bad.ZERO, "varsigma": bad.SMALL_POSITIVE, "tol": bad.SMALL_NONNEG},
    ),
    Baseline(plots.plot_learning_tree, {"tree": _TREE, "height": 440}),
    Baseline(plots.plot_growth, {"runs": _RUNS, "height": 440}),
]

MODULES = ["assocmem.explore.dam_saddles.growing"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
