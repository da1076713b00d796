"""Bad-input matrix over ``assocmem.quadratic.erm`` (the harness is ``tests/badinput.py``).

α and ρ* live in [1e-3, 100], Δ in [0, 1000] and λ in [1e-8, 1000], so 1e300 is refused and the
moderate labels are the valid ones. Each baseline is one or two nested root finds (~0.3 s).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.quadratic import erm

POINT = erm.erm_point(0.3, 0.5, 0.25, 1.0)

BASELINES = [
    Baseline(
        erm.erm_point,
        {"alpha": 0.3, "rho": 0.5, "noise": 0.25, "lam": 1.0},
        accepts={
            "alpha": bad.SMALL_POSITIVE,
            "rho": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
            "lam": bad.SMALL_POSITIVE,
        },
    ),
    Baseline(
        erm.erm_curves,
        {"alphas": np.array([0.3]), "rho": 0.5, "noise": 0.25, "lam": 1.0},
        accepts={
            "alphas": bad.SMALL_POSITIVE,
            "rho": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
            "lam": bad.SMALL_POSITIVE,
        },
    ),
    Baseline(
        erm.interpolation_threshold,
        {"rho": np.array([0.3, 2.0]), "noise": 0.5},
        accepts={"rho": bad.SMALL_POSITIVE, "noise": bad.SMALL_NONNEG},
    ),
    Baseline(
        erm.learned_spectrum,
        {"point": POINT, "x": np.array([0.5, 1.0]), "form": "singular"},
        accepts={"x": bad.SMALL_REAL | {"empty", "misshaped"}},
    ),
]

MODULES = ["assocmem.quadratic.erm"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
