"""Bad-input matrix over ``assocmem.potts_dam.saddle`` (the harness is ``tests/badinput.py``).

β_eff lies in (0, 1e4], ϱ in (0, 1e12] or inf, τ in [0, 1e6], the kick in [0, 0.1], the damping
in [0, 1). The saddle-point baselines solve a two-pattern teacher (N = 4) at β_eff = 1, below
every split line an accepted override reaches (√2 at ϱ = ∞), or at 2.5 just above it, where they
still converge within the default 20000 iterations, so no ConvergenceWarning escapes.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.potts_dam import saddle

PATTERNS = np.eye(4)[:2]
EXAMPLES = np.repeat(PATTERNS, 3, axis=0)
P_H = np.array([0.0, 0.5, 0.5])
RHO = bad.SMALL_POSITIVE | {"inf"}
P_H_OK = bad.NONE_OK | bad.ZERO

SOLVER = {
    "patterns": PATTERNS,
    "p_h": P_H,
    "tau": 0.0,
    "init": "symmetric",
    "perturbation": 1e-4,
    "damping": 0.5,
    "tol": 1e-12,
    "max_iter": 20_000,
    "rng": 0,
}
SOLVER_ACCEPTS = {
    "patterns": bad.NONE_OK,
    "p_h": P_H_OK,
    "tau": bad.SMALL_NONNEG,
    "perturbation": bad.ZERO,
    "damping": bad.ZERO,
    "rng": bad.SEED,
}

BASELINES = [
    Baseline(
        saddle.saddle_point,
        {"beta_eff": 1.0, "rho": 1.0, "P_star": 2, "P": 2, **SOLVER},
        accepts={"beta_eff": bad.SMALL_POSITIVE, "rho": RHO, **SOLVER_ACCEPTS},
    ),
    Baseline(
        saddle.phase_diagram,
        {
            "rho": np.array([0.5, 1.0]),
            "beta_eff": np.array([0.5, 1.0]),
            "P_star": 2,
            "P": 2,
            **SOLVER,
            "xp": None,
        },
        accepts={
            "rho": RHO | {"inf_entry"},
            "beta_eff": bad.SMALL_POSITIVE,
            "xp": bad.NONE_OK,
            **SOLVER_ACCEPTS,
        },
    ),
    Baseline(
        saddle.split_threshold,
        {"P_star": 2, "rho": 1.0, "P": 2},
        accepts={"rho": RHO},
    ),
    Baseline(saddle.cluster_split_threshold, {"patterns": EXAMPLES}),
    Baseline(
        saddle.gibbs_student,
        {
            "examples": EXAMPLES,
            "teacher": PATTERNS,
            "P": 2,
            "beta": 2.0,
            "p_h": P_H,
            "tau": 0.0,
            "n_sweeps": 20,
            "burn_in": 5,
            "rng": 0,
        },
        accepts={
            "beta": bad.SMALL_POSITIVE,
            "p_h": P_H_OK,
            "tau": bad.SMALL_NONNEG,
            "burn_in": bad.ZERO,
            "rng": bad.SEED,
        },
    ),
]

MODULES = ["assocmem.potts_dam.saddle"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
