"""Bad-input matrix over ``assocmem.quadratic.thresholds`` (the harness is ``tests/badinput.py``).

Every baseline is a closed form or a few root finds, so the whole matrix runs in about a second.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.quadratic import thresholds

# Widths ρ > 0, elementwise: any finite positive entries (1e300 is a full-rank width), any shape,
# the empty array included; the misshaped variant is all zeros, which is refused.
WIDTHS = bad.POSITIVE_REAL | bad.FINITE_ENTRIES | frozenset({"empty"})
# Loads α >= 0, elementwise (the misshaped zeros are valid loads).
LOADS = bad.NONNEG_REAL | bad.FINITE_ENTRIES | frozenset({"empty", "misshaped"})
RHO = np.array([0.3, 2.0])

BASELINES = [
    Baseline(thresholds.perfect_recovery_threshold, {"rho": RHO}, accepts={"rho": WIDTHS}),
    Baseline(thresholds.nuclear_recovery_threshold, {"rho": RHO}, accepts={"rho": WIDTHS}),
    Baseline(
        thresholds.interpolation_threshold_noiseless_limit, {"rho": RHO}, accepts={"rho": WIDTHS}
    ),
    Baseline(
        thresholds.l2_error,
        {"alpha": np.array([0.1, 0.5, 0.7]), "Q": 1.5, "noise": 0.5},
        accepts={"alpha": LOADS, "Q": bad.NONNEG_REAL, "noise": bad.NONNEG_REAL},
    ),
    Baseline(thresholds.aim_sample_factor, {"T": 2}),
    Baseline(
        thresholds.hardmax_fisher,
        {"q": 0.25, "Q": 1.0, "formula": "exact", "n_nodes": 4},
        accepts={"q": bad.ZERO, "Q": bad.POSITIVE_REAL},
    ),
    Baseline(thresholds.hardmax_threshold, {}),
]

MODULES = ["assocmem.quadratic.thresholds"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
