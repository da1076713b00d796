"""Bad-input matrix over ``assocmem.explore.attention_index.bayes`` (``tests/badinput.py``).

The views take α in [0, 100] (the state evolution (0, 100]), ρ in [1e-3, 1e6] (the narrow limit
up to 1) and Δ in [0, 1e4]; the plot functions take their results. Each result is built once,
at import, by a small call (a few tens of ms).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.attention_index import bayes as plots
from assocmem.quadratic import bayes

_DIAGRAM = plots.bo_phase_diagram([0.1, 0.3], [0.5, 1.0], points=20)
_CURVES = plots.learning_curves([0.5], alpha=0.2, points=20)
_NARROW = plots.narrow_limit_curves([0.01], points=20)
_TRAJ = plots.se_trajectories([0.2], 0.5, steps=3)
_CURVE = bayes.bo_curve(0.5, n=20)
_POINT = bayes.bo_mmse(0.2, 0.5)

LOADS = bad.SMALL_NONNEG  # α >= 0 (a scalar 0 is one valid load)

BASELINES = [
    Baseline(
        plots.bo_phase_diagram,
        {"alphas": np.array([0.1, 0.3]), "rhos": np.array([0.5, 1.0]), "noise": 0.25, "points": 20},
        accepts={"alphas": LOADS, "rhos": bad.SMALL_POSITIVE, "noise": bad.SMALL_NONNEG},
    ),
    Baseline(
        plots.learning_curves,
        {"rho": 0.5, "noise": 0.25, "alpha": 0.2, "alpha_max": 0.6, "points": 20},
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
            "alpha": bad.ZERO | bad.NONE_OK,
            "alpha_max": bad.SMALL_POSITIVE,
        },
    ),
    Baseline(
        plots.narrow_limit_curves,
        {"rhos": np.array([0.01, 0.1]), "alpha_bar_max": 1.2, "points": 20},
        accepts={"alpha_bar_max": bad.SMALL_POSITIVE},
    ),
    Baseline(
        plots.se_trajectories,
        {"alphas": np.array([0.1, 0.3]), "rho": 0.5, "noise": 0.25, "steps": 3},
        accepts={
            "alphas": bad.SMALL_POSITIVE,
            "rho": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
        },
    ),
    Baseline(plots.plot_fixed_point, {"curve": _CURVE, "point": _POINT, "height": 400}),
    Baseline(plots.plot_learning_curves, {"curves": _CURVES, "height": 420}),
    Baseline(plots.plot_phase_diagram, {"diagram": _DIAGRAM, "height": 440}),
    Baseline(plots.plot_narrow_limit, {"curves": _NARROW, "height": 420}),
    Baseline(plots.plot_state_evolution, {"trajectories": _TRAJ, "height": 420}),
]

MODULES = ["assocmem.explore.attention_index.bayes"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
