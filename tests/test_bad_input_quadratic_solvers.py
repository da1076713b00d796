"""Bad-input matrix over ``assocmem.quadratic.solvers`` (the harness is ``tests/badinput.py``).

λ lives in [0, 1e6] and tol in [0, 1), so 1e300 is refused; the data must be a SensingData.
Each baseline is a d = 6 problem (milliseconds).
"""

from __future__ import annotations

import badinput as bad
from badinput import Baseline, matrix_tests

from assocmem.quadratic import solvers
from assocmem.quadratic.sensing import sample_sensing

DATA = sample_sensing(6, 0.5, 0.4, rng=0, noise=0.1)

BASELINES = [
    Baseline(
        solvers.fista_nuclear,
        {"data": DATA, "lam": 0.5, "max_iter": 20_000, "tol": 1e-8},
        accepts={"lam": bad.SMALL_NONNEG},
    ),
    Baseline(solvers.min_frobenius_interpolator, {"data": DATA}),
]

MODULES = ["assocmem.quadratic.solvers"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
