"""Bad-input matrix over ``assocmem.explore.dam_saddles.geometry`` (``tests/badinput.py``).

β on the circle lies in [0.05, 200], p_h(0) in [0, 1), the start angle in [−π, π] and the
memories' angles are at most 8 numbers of size at most 1e6 (a scalar is one memory); N is an
integer in [3, 1e5] for the normaliser and in [3, 2000] for the sampler, v in [0.01, 100]. The
results passed to the plots are built once, at import, by small calls (a few ms).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.dam_saddles import geometry

_CIRCLE = geometry.circle_view(8.0, 0.1, 2.6)
_NORMALISER = geometry.normaliser_view(64, 30.0, 20)
_OVERLAPS = geometry.overlap_view(1.0, 50, 50, 0)

BASELINES = [
    Baseline(
        geometry.circle_view,
        {"beta": 8.0, "p_outside": 0.1, "start": 2.6, "angles": np.array([-2.0, 0.3])},
        accepts={
            "beta": bad.SMALL_POSITIVE,
            "p_outside": bad.ZERO,
            "start": bad.SMALL_REAL,
            "angles": bad.SMALL_REAL,
        },
    ),
    Baseline(
        geometry.normaliser_view,
        {"N": 64, "beta_max": 30.0, "points": 20},
        accepts={"beta_max": bad.SMALL_POSITIVE},
    ),
    Baseline(
        geometry.overlap_view,
        {"v": 1.0, "N": 50, "n": 50, "seed": 0},
        accepts={"v": bad.SMALL_POSITIVE, "seed": bad.SEED},
    ),
    Baseline(geometry.plot_circle, {"view": _CIRCLE, "height": 440}),
    Baseline(geometry.plot_normaliser, {"view": _NORMALISER, "height": 440}),
    Baseline(geometry.plot_overlaps, {"view": _OVERLAPS, "height": 440}),
]

MODULES = ["assocmem.explore.dam_saddles.geometry"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
