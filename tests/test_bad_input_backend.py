"""Bad-input matrix over ``assocmem.backend`` and the top-level ``assocmem.limits``.

The harness is ``tests/badinput.py``.
"""

from __future__ import annotations

import numpy as np
from badinput import ANY_VALUE, NONE_OK, Baseline, matrix_tests

import assocmem
from assocmem import backend

BASELINES = [
    Baseline(backend.get_namespace, {"name": "numpy"}, accepts={"name": NONE_OK}),
    Baseline(backend.array_namespace, {}),
    Baseline(backend.to_numpy, {"a": np.ones(3)}, accepts={"a": ANY_VALUE}),
    Baseline(backend.has_gpu, {}),
    Baseline(
        assocmem.limits,
        {"max_steps": 100, "max_elements": 100},
        accepts={"max_steps": NONE_OK, "max_elements": NONE_OK},
    ),
]

test_matrix, test_coverage, test_baseline = matrix_tests(
    BASELINES, ["assocmem.backend", "assocmem"]
)
