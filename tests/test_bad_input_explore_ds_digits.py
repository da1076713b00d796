"""Bad-input matrix over ``assocmem.explore.dam_saddles.digits`` (``tests/badinput.py``).

The views train the digits DAM at β in [0.5, 100] (fixed, or the start of a trained β), ς in
[0.05, 1] or None (β fixed), P in [1, 400] and 1 to 200 epochs; the plot functions take their
results. Each result is built once, at import, by a small run (P = 5, one epoch, about 0.05 s).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.dam_saddles import digits as plots

_RUN = plots.digits_run(4.0, None, P=5, epochs=1)
_VIEW = plots.neighbour_view(0, 4.0, None, P=5, epochs=1, k=2)

BASELINES = [
    Baseline(
        plots.digits_run,
        {"beta": 4.0, "varsigma": None, "P": 5, "epochs": 1, "rng": 0},
        accepts={"beta": bad.SMALL_POSITIVE, "varsigma": bad.NONE_OK, "rng": bad.SEED},
    ),
    Baseline(
        plots.table_one,
        {
            "betas": np.array([4.0]),
            "varsigmas": np.array([0.5]),
            "beta0": 4.0,
            "P": 5,
            "epochs": 1,
            "rng": 0,
        },
        accepts={
            "betas": bad.SMALL_POSITIVE,
            "beta0": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
        },
    ),
    Baseline(
        plots.neighbour_view,
        {
            "index": 0,
            "beta": 4.0,
            "varsigma": None,
            "P": 5,
            "epochs": 1,
            "k": 2,
            "rng": 0,
        },
        accepts={
            "index": bad.ZERO,
            "beta": bad.SMALL_POSITIVE,
            "varsigma": bad.NONE_OK,
            "rng": bad.SEED,
        },
    ),
    Baseline(plots.plot_memories, {"run": _RUN, "count": 5, "height": 420}),
    Baseline(plots.plot_training, {"runs": [_RUN], "height": 400}),
    Baseline(plots.plot_neighbours, {"view": _VIEW, "height": 300}),
]

MODULES = ["assocmem.explore.dam_saddles.digits"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
