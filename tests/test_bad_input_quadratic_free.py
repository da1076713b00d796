"""Bad-input matrix over ``assocmem.quadratic.free``: free convolution, the RIE and its MMSE.

The harness is ``tests/badinput.py``. ρ lives in [1e-6, 1e6] and δ² in [1e-6, 1e4] (1e300 is
refused), so the moderate labels are the valid ones; rie_mmse also takes δ² = 0.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.quadratic import free

_PARAMS = {"rho": 0.5, "delta2": 0.6}
_PARAMS_OK = {"rho": bad.SMALL_POSITIVE, "delta2": bad.SMALL_POSITIVE}
# Points may have any shape; a zero-size array is refused.
_POINTS_OK = bad.SMALL_REAL | {"misshaped"}
_Y = np.array([[1.0, 0.2, 0.0], [0.2, 0.5, -0.1], [0.0, -0.1, 0.8]])

BASELINES = [
    Baseline(
        free.to_s_units,
        {"value": 1.0, "quantity": "mse", "rho": 0.5},
        accepts={"value": bad.ANY_REAL, "rho": bad.SMALL_POSITIVE},
    ),
    Baseline(
        free.to_a_units,
        {"value": np.array([0.6, 1.2]), "quantity": "delta2", "rho": 0.5},
        accepts={
            "value": bad.ANY_REAL | {"huge_entry", "misshaped"},
            "rho": bad.SMALL_POSITIVE,
        },
    ),
    Baseline(free.free_conv_support, dict(_PARAMS), accepts=_PARAMS_OK),
    Baseline(
        free.free_conv_density,
        {"x": np.array([-1.0, 0.5, 2.0]), **_PARAMS},
        accepts={"x": _POINTS_OK, **_PARAMS_OK},
    ),
    Baseline(free.free_conv_quadrature, {**_PARAMS, "nodes": 16}, accepts=_PARAMS_OK),
    Baseline(
        free.rie_shrinkage,
        {"x": np.array([-1.0, 0.5, 2.0]), **_PARAMS, "clip": True},
        accepts={"x": _POINTS_OK, **_PARAMS_OK, "clip": bad.BOOL},
    ),
    Baseline(
        free.rie_denoise,
        {"Y": _Y, **_PARAMS, "clip": True},
        accepts={**_PARAMS_OK, "clip": bad.BOOL},
    ),
    Baseline(
        free.rie_mmse,
        {"delta2": np.array([0.1, 0.6]), "rho": 0.5},
        accepts={"delta2": bad.SMALL_NONNEG, "rho": bad.SMALL_POSITIVE},
    ),
]

MODULES = ["assocmem.quadratic.free"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
