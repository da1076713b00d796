"""Bad-input matrix over ``assocmem.quadratic.descent`` (the harness is ``tests/badinput.py``).

ρ lies in (0, 1e6], the learning rate in (0, 1e3]; runs, steps and record_every are integers
>= 1 (record_every may be None); estimates must be finite with entries of magnitude <= 1e100.
Each baseline trains two tiny networks for a few steps.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.quadratic import descent
from assocmem.quadratic.sensing import sample_sensing

DATA = sample_sensing(5, 0.5, 0.3, rng=0)
RUNS = np.random.default_rng(0).standard_normal((3, 5, 5))

BASELINES = [
    Baseline(
        descent.gd_quadnet,
        {
            "data": DATA,
            "rho": 0.5,
            "runs": 2,
            "steps": 3,
            "lr": 0.01,
            "rng": 0,
            "record_every": 2,
        },
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "lr": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "record_every": bad.NONE_OK,
        },
    ),
    Baseline(descent.prefix_mean_errors, {"A_runs": RUNS, "A": DATA.A}),
]

MODULES = ["assocmem.quadratic.descent"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
