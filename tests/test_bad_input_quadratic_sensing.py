"""Bad-input matrix over ``assocmem.quadratic.sensing`` (the harness is ``tests/badinput.py``).

d is an integer >= 1, ρ lies in (0, 1e6], α in (0, 1e4] and Δ in [0, 1e4]; matrices and weights
must be finite with entries of magnitude <= 1e100. Each baseline draws or multiplies a few
small arrays.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.quadratic import sensing

DATA = sensing.sample_sensing(5, 0.5, 0.4, rng=0, noise=0.1)
RNG = np.random.default_rng(0)

BASELINES = [
    Baseline(
        sensing.sample_teacher,
        {"d": 5, "rho": 0.5, "rng": 0, "xp": None},
        accepts={"rho": bad.SMALL_POSITIVE, "rng": bad.SEED, "xp": bad.NONE_OK},
    ),
    Baseline(
        sensing.sample_sensing,
        {
            "d": 5,
            "rho": 0.5,
            "alpha": 0.4,
            "rng": 0,
            "noise": 0.1,
            "surrogate": False,
            "xp": None,
        },
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "alpha": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "noise": bad.SMALL_NONNEG,
            "surrogate": bad.BOOL,
            "xp": bad.NONE_OK,
        },
    ),
    Baseline(sensing.sensing_forward, {"data": DATA, "B": np.eye(5)}),
    Baseline(sensing.sensing_adjoint, {"data": DATA, "g": np.ones(DATA.n)}),
    Baseline(
        sensing.quadnet_output,
        {"W": RNG.standard_normal((3, 5)), "X": RNG.standard_normal((4, 5))},
    ),
]

MODULES = ["assocmem.quadratic.sensing"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
