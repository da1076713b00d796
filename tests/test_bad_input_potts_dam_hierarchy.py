"""Bad-input matrix over ``assocmem.potts_dam.hierarchy`` (the harness is ``tests/badinput.py``).

Units are distinct 0-based memory indices; δ lies in [0, 1], τ_thres in (0, 1], λ_thres is any
finite number, and the training options follow ``assocmem.potts_dam.model.train``. The
baselines use a tiny DAM (N = 4, P = 3, C = 2, 24 examples) so each bad call takes milliseconds.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.potts_dam import hierarchy, model

_RNG = np.random.default_rng(1)
_G = _RNG.standard_normal((24, 4))
X = _G / np.linalg.norm(_G, axis=1, keepdims=True)
LABELS = np.arange(24) % 2
Q = model.soft_labels(LABELS, 2)
STATE = model.init_state(X, LABELS, 3, beta=8.0, rng=0)
DIRECTIONS = np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]])

BASELINES = [
    Baseline(hierarchy.duplicate_units, {"state": STATE, "units": [0, 2]}),
    Baseline(
        hierarchy.split_units,
        {"state": STATE, "units": [0, 2], "directions": DIRECTIONS, "delta": 0.1},
        accepts={"delta": bad.ZERO},
    ),
    Baseline(hierarchy.splitting_matrices, {"X": X, "Q": Q, "state": STATE, "varsigma": 0.5}),
    Baseline(hierarchy.splitting_spectrum, {"X": X, "Q": Q, "state": STATE, "varsigma": 0.5}),
    Baseline(
        hierarchy.splitting_descent,
        {
            "X": X,
            "labels": LABELS,
            "P_init": 2,
            "P_max": 4,
            "beta": 16.0,
            "varsigma": 0.5,
            "train_beta": True,
            "epochs_first": 2,
            "epochs_after": 1,
            "delta": 0.1,
            "lambda_thres": 0.0,
            "tau_thres": 1.0,
            "batch_size": 8,
            "lr_w": 0.1,
            "momentum": 0.9,
            "lr_p": 0.05,
            "lr_beta": 0.02,
            "clip": 2.0,
            "X_test": X[:6],
            "labels_test": LABELS[:6],
            "rng": 0,
        },
        accepts={
            "beta": bad.SMALL_POSITIVE,
            "train_beta": bad.BOOL,
            "delta": bad.ZERO,
            "lambda_thres": bad.ANY_REAL,
            "lr_w": bad.SMALL_POSITIVE,
            "momentum": bad.ZERO,
            "lr_p": bad.SMALL_NONNEG,
            "lr_beta": bad.SMALL_NONNEG,
            "clip": bad.POSITIVE_REAL,
            "rng": bad.SEED,
        },
    ),
]

MODULES = ["assocmem.potts_dam.hierarchy"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
