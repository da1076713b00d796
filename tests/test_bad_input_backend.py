"""Bad-input matrix over ``assocmem.backend`` (the harness is ``tests/badinput.py``)."""

from __future__ import annotations

import numpy as np
from badinput import ANY_VALUE, NONE_OK, Baseline, matrix_tests

from assocmem import backend

BASELINES = [
    Baseline(backend.get_namespace, {"name": "numpy"}, accepts={"name": NONE_OK}),
    Baseline(backend.array_namespace, {}),
    Baseline(backend.to_numpy, {"a": np.ones(3)}, accepts={"a": ANY_VALUE}),
    Baseline(backend.has_gpu, {}),
]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, ["assocmem.backend"])
