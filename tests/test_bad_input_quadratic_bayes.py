"""Bad-input matrix over ``assocmem.quadratic.bayes`` (the harness is ``tests/badinput.py``).

ρ lives in [1e-3, 1e6], α in [0, 1e4] and Δ in [0, 1e4], so 1e300 is refused and the moderate
labels are the valid ones. Each baseline is a few root finds or state-evolution steps.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.quadratic import bayes

# Loads α >= 0, 1-D (the empty array is a valid, empty sweep; the 4-D misshaped one is refused).
LOADS = bad.SMALL_NONNEG | frozenset({"empty"})

BASELINES = [
    Baseline(
        bayes.aim_mmse,
        {"alpha": np.array([0.01, 0.05]), "rho": 0.5, "T": 3},
        accepts={"alpha": LOADS, "rho": bad.SMALL_POSITIVE},
    ),
    Baseline(
        bayes.bo_mmse,
        {"alpha": np.array([0.1, 0.3]), "rho": 0.5, "noise": 0.25},
        accepts={"alpha": LOADS, "rho": bad.SMALL_POSITIVE, "noise": bad.SMALL_NONNEG},
    ),
    Baseline(
        bayes.bo_curve,
        {"rho": 0.5, "noise": 0.25, "n": 20, "alpha_max": 1.0},
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
            "alpha_max": bad.SMALL_POSITIVE,
        },
    ),
    Baseline(
        bayes.narrow_limit_mmse,
        {"alpha_bar": np.array([0.3, 0.75, 1.2])},
        accepts={"alpha_bar": bad.NONNEG_REAL | bad.FINITE_ENTRIES | {"empty", "misshaped"}},
    ),
    Baseline(
        bayes.state_evolution,
        {"alpha": 0.3, "rho": 0.5, "noise": 0.25, "steps": 3},
        accepts={"alpha": bad.SMALL_POSITIVE, "rho": bad.SMALL_POSITIVE, "noise": bad.SMALL_NONNEG},
    ),
]

MODULES = ["assocmem.quadratic.bayes"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
