"""Bad-input matrix over ``assocmem.explore.capacity_atlas.five`` (``tests/badinput.py``).

The views take sequences of small integer sizes and a fraction or a load (see their
docstrings); the atlas, the view and the plot functions take their results. Each result is
built once, at import, by a small call.
"""

from __future__ import annotations

import badinput as bad
from badinput import Baseline, matrix_tests

from assocmem.explore import capacity_atlas as atlas

_MODEL = atlas.attention_capacity(ds=(8, 16))
_ATLAS = atlas.capacity_atlas([_MODEL])
_VIEW = atlas.capacity_view(_ATLAS, "attention-index", 1)

BASELINES = [
    Baseline(
        atlas.epanechnikov_capacity,
        {"ds": (4,), "alpha": 0.5, "delta": 0.5, "n_trials": 5, "rng": 1},
        accepts={"rng": bad.SEED},
    ),
    Baseline(atlas.factual_recall_capacity, {"ds": (8,), "seed": 1}, accepts={"seed": bad.ZERO}),
    Baseline(atlas.attractor_capacity, {"Ns": (25,), "seeds": 2}),
    Baseline(atlas.attention_capacity, {"ds": (8,), "rho": 0.5}),
    Baseline(
        atlas.saddle_capacity,
        {"P_stars": (2,), "rho": 1.0},
        accepts={"rho": bad.SMALL_POSITIVE},
    ),
    Baseline(atlas.capacity_atlas, {"models": [_MODEL]}),
    Baseline(atlas.capacity_view, {"atlas": _ATLAS, "model": "attention-index", "step": 1}),
    Baseline(atlas.plot_capacity, {"view": _VIEW, "height": 420}),
    Baseline(atlas.capacity_table, {"atlas": _ATLAS}),
]

MODULES = ["assocmem.explore.capacity_atlas.five"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
