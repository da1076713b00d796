"""Bad-input matrix over ``assocmem.potts_dam.model`` (the harness is ``tests/badinput.py``).

β lies in (0, 1e5], ς in (0, 1]; step sizes in [0, 1e6] (lr_w > 0); points, memories and
examples are rows on the unit sphere, class weights are >= 0 and sum to 1. The baselines use a
tiny DAM (N = 4, P = 3, C = 2, B = 12) so each bad call takes milliseconds.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.potts_dam import model

_RNG = np.random.default_rng(0)
_G = _RNG.standard_normal((15, 4))
X = _G[:12] / np.linalg.norm(_G[:12], axis=1, keepdims=True)
W = _G[12:] / np.linalg.norm(_G[12:], axis=1, keepdims=True)
LABELS = np.arange(12) % 2
P_W = np.full((3, 4), 1.0 / 12)
Q = model.soft_labels(LABELS, 2)
STATE = model.init_state(X, LABELS, 3, n_classes=2, beta=2.0, rng=0)
GRAD = model.loss_gradients(X, Q, W, P_W, 2.0).p

_MODEL = {"X": X, "w": W, "p": P_W, "beta": 2.0, "varsigma": 0.5}
_MODEL_OK = {"beta": bad.SMALL_POSITIVE}
_WITH_Q = {"X": X, "Q": Q, "w": W, "p": P_W, "beta": 2.0, "varsigma": 0.5}

BASELINES = [
    Baseline(model.log_density, dict(_MODEL), accepts=_MODEL_OK),
    Baseline(model.class_probabilities, dict(_MODEL), accepts=_MODEL_OK),
    Baseline(model.predict, dict(_MODEL), accepts=_MODEL_OK),
    Baseline(model.effective_loss, dict(_WITH_Q), accepts=_MODEL_OK),
    Baseline(model.loss_gradients, dict(_WITH_Q), accepts=_MODEL_OK),
    Baseline(model.responsibilities, dict(_WITH_Q), accepts=_MODEL_OK),
    Baseline(model.loss, {"X": X, "Q": Q, "w": W, "p": P_W, "beta": 2.0}, accepts=_MODEL_OK),
    Baseline(
        model.soft_labels,
        {"labels": LABELS, "n_classes": 2, "smoothing": 0.1},
        accepts={"smoothing": bad.ZERO},
    ),
    Baseline(
        model.project_polytope,
        {
            "K": np.arange(1.0, 13.0).reshape(3, 4),
            "p_q": np.array([0.2, 0.3, 0.5]),
            "p_h": np.full(4, 0.25),
            "tol": 1e-12,
            "max_iter": 1000,
        },
        accepts={"tol": bad.POSITIVE_REAL},
    ),
    Baseline(
        model.polytope_step,
        {"p": P_W, "grad": GRAD, "lr": 0.1, "clip": 2.0},
        accepts={"lr": bad.SMALL_NONNEG, "clip": bad.POSITIVE_REAL},
    ),
    Baseline(
        model.init_state,
        {
            "X": X,
            "labels": LABELS,
            "P": 3,
            "n_classes": None,
            "beta": 4.0,
            "p_h0": None,
            "rng": 0,
        },
        accepts={
            "n_classes": bad.NONE_OK,
            "beta": bad.SMALL_POSITIVE,
            "p_h0": bad.NONE_OK,
            "rng": bad.SEED,
        },
    ),
    Baseline(
        model.train,
        {
            "X": X,
            "labels": LABELS,
            "state": STATE,
            "varsigma": 0.5,
            "train_beta": True,
            "epochs": 2,
            "batch_size": 4,
            "lr_w": 0.1,
            "momentum": 0.9,
            "lr_p": 0.05,
            "lr_beta": 0.02,
            "clip": 2.0,
            "X_test": X[:5],
            "labels_test": LABELS[:5],
            "rng": 0,
        },
        accepts={
            "train_beta": bad.BOOL,
            "momentum": bad.ZERO,
            "lr_w": bad.SMALL_POSITIVE,
            "lr_p": bad.SMALL_NONNEG,
            "lr_beta": bad.SMALL_NONNEG,
            "clip": bad.POSITIVE_REAL,
            "rng": bad.SEED,
        },
    ),
]

MODULES = ["assocmem.potts_dam.model"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
