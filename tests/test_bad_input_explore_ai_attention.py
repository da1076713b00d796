"""Bad-input matrix over ``assocmem.explore.attention_index.attention`` (``tests/badinput.py``).

T is an integer in [2, 64] (the β view [2, 8]), ρ in [1e-3, 100], β in (0, 10] and d in
[4, 100]; the plot functions take their results, built once, at import, by small calls.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.attention_index import attention as plots
from assocmem.quadratic import bayes
from assocmem.quadratic.attention import sample_attention
from assocmem.quadratic.attention_gd import gd_attention

_DATA = sample_attention(6, 2, 0.5, 0.2, rng=0)
_RUNS = gd_attention(_DATA, 0.5, runs=2, steps=3, rng=0)
_BO = bayes.aim_mmse(0.2, 0.5, T=2)

BASELINES = [
    Baseline(plots.identifiable_count, {"T": 3}),
    Baseline(plots.logit_recovery, {"data": _DATA, "points": 50}),
    Baseline(
        plots.logit_recovery_at,
        {"beta": 1.0, "T": 3, "d": 8, "rng": 0},
        accepts={"beta": bad.SMALL_POSITIVE, "rng": bad.SEED},
    ),
    Baseline(
        plots.aim_curves,
        {"rho": 0.5, "T": np.array([2, 3]), "points": 20},
        accepts={"rho": bad.SMALL_POSITIVE},
    ),
    Baseline(plots.gd_averaging, {"result": _RUNS, "data": _DATA, "bo": _BO}),
    Baseline(
        plots.plot_logit_recovery,
        {"recovery": plots.logit_recovery(_DATA, points=50), "height": 400},
    ),
    Baseline(
        plots.plot_aim_collapse,
        {"curves": plots.aim_curves(0.5, T=[2, 3], points=20), "height": 420},
    ),
    Baseline(
        plots.plot_gd_averaging,
        {"averaging": plots.gd_averaging(_RUNS, _DATA, _BO), "height": 420},
    ),
]

MODULES = ["assocmem.explore.attention_index.attention"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
