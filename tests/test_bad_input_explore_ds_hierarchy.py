"""Bad-input matrix over ``assocmem.explore.dam_saddles.hierarchy`` (``tests/badinput.py``).

The views take examples on the sphere, soft labels and a ``DamState`` (as
``assocmem.potts_dam.hierarchy``), a strictly increasing β grid in (0, 1e5] (at most 200), and
for the two-group toy β/β_c in (0, 100], δ in (0, 1], noise in (0, 10], N in [3, 2000], an even
n in [4, 400], 1 to 100000 steps and lr in (0, 10]. The plot functions take their results. The
baselines use a tiny DAM (N = 4, P = 3, C = 2, 24 examples).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.dam_saddles import hierarchy as plots
from assocmem.potts_dam import model

_RNG = np.random.default_rng(1)
_G = _RNG.standard_normal((24, 4))
X = _G / np.linalg.norm(_G, axis=1, keepdims=True)
LABELS = np.arange(24) % 2
Q = model.soft_labels(LABELS, 2)
STATE = model.init_state(X, LABELS, 3, beta=8.0, rng=0)
_CURVES = plots.curvature_curves(X, Q, STATE, [2.0, 8.0])
_TOY = plots.two_group_split(1.1, 0.05, N=6, n=4, steps=20)

BASELINES = [
    Baseline(
        plots.duplication_check,
        {"X": X, "Q": Q, "state": STATE, "units": [0, 2], "varsigma": 0.5},
    ),
    Baseline(
        plots.curvature_curves,
        {"X": X, "Q": Q, "state": STATE, "betas": np.array([2.0, 8.0]), "varsigma": 0.5},
    ),
    Baseline(
        plots.two_group_split,
        {
            "beta_ratio": 1.1,
            "delta": 0.05,
            "noise": 0.8,
            "N": 6,
            "n": 4,
            "steps": 20,
            "lr": 1.0,
            "rng": 0,
        },
        accepts={
            "beta_ratio": bad.SMALL_POSITIVE,
            "delta": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_POSITIVE,
            "lr": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
        },
    ),
    Baseline(plots.plot_curvature, {"curves": _CURVES, "height": 420}),
    Baseline(plots.plot_two_group_split, {"toy": _TOY, "height": 420}),
]

MODULES = ["assocmem.explore.dam_saddles.hierarchy"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
