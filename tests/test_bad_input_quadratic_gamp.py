"""Bad-input matrix over ``assocmem.quadratic.gamp`` (the harness is ``tests/badinput.py``).

ρ lies in [1e-6, 1e6] (the free-probability denoiser's range), Δ in [0, 1e4] (None: the data's),
the damping in [0, 1). The GAMP baseline runs on a tiny GOE-surrogate instance (d = 8) that
converges to tol = 1e-6 within 100 iterations for every accepted override (ρ = 2.5, Δ = 0 or 2.5,
γ = 0), so no ConvergenceWarning escapes.
"""

from __future__ import annotations

import badinput as bad
from badinput import Baseline, matrix_tests

from assocmem.quadratic import gamp, sensing

DATA = sensing.sample_sensing(8, 0.5, 0.5, rng=0, noise=0.1, surrogate=True)
NOISE = bad.SMALL_NONNEG | bad.NONE_OK

BASELINES = [
    Baseline(
        gamp.gamp_rie,
        {
            "data": DATA,
            "rho": 0.5,
            "noise": 0.1,
            "clip": True,
            "damping": 0.5,
            "max_iter": 100,
            "tol": 1e-6,
        },
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "noise": NOISE,
            "clip": bad.BOOL,
            "damping": bad.ZERO,
            "tol": bad.POSITIVE_REAL,
        },
    ),
    Baseline(
        gamp.linear_estimator,
        {"data": DATA, "rho": 0.5, "noise": 0.1},
        accepts={"rho": bad.SMALL_POSITIVE, "noise": NOISE},
    ),
    Baseline(
        gamp.spectral_estimator,
        {"data": DATA, "rho": 0.5, "noise": 0.1},
        accepts={"rho": bad.SMALL_POSITIVE, "noise": NOISE},
    ),
    Baseline(
        gamp.spectral_channel,
        {"d": 10, "rho": 0.3, "alpha": 0.2, "rng": 0, "noise": 0.1, "xp": None},
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "alpha": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "noise": bad.SMALL_NONNEG,
            "xp": bad.NONE_OK,
        },
    ),
]

MODULES = ["assocmem.quadratic.gamp"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
