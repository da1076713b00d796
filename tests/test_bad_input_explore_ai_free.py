"""Bad-input matrix over ``assocmem.explore.attention_index.free`` (``tests/badinput.py``).

ρ lies in [1e-3, 1e3] and δ² in [1e-3, 1e2], so 2.5 is valid for both and 1e300 is refused;
d is an integer in [20, 2000]. The results passed to the plots are built once, at import, by
small calls (d = 20, a few ms).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.attention_index import free

_VIEW = free.denoising_view(0.5, 0.6, d=20, seed=0)
_CURVES = free.denoising_curves([0.5], [0.1, 1.0], [0.6], d=20, seeds=1)
_VECTOR_OK = bad.SMALL_POSITIVE  # a scalar is a one-entry vector

BASELINES = [
    Baseline(
        free.denoising_view,
        {"rho": 0.5, "delta2": 0.6, "d": 20, "seed": 0},
        accepts={"rho": bad.SMALL_POSITIVE, "delta2": bad.SMALL_POSITIVE, "seed": bad.SEED},
    ),
    Baseline(
        free.denoising_curves,
        {
            "rhos": np.array([0.5, 2.0]),
            "delta2": np.array([0.1, 1.0]),
            "sim_delta2": np.array([0.6]),
            "d": 20,
            "seeds": 1,
        },
        accepts={"rhos": _VECTOR_OK, "delta2": _VECTOR_OK, "sim_delta2": _VECTOR_OK},
    ),
    Baseline(free.plot_denoising, {"view": _VIEW, "height": 460}),
    Baseline(free.plot_mmse_curves, {"curves": _CURVES, "height": 430}),
]

MODULES = ["assocmem.explore.attention_index.free"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
