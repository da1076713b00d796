"""Bad-input matrix over ``assocmem.quadratic.attention_gd`` (the harness is ``tests/badinput.py``).

ρ lies in (0, 100] and the learning rate in (0, 1e3], so 1e300 is refused; runs, steps and
record_every are integers >= 1. The baseline trains two tiny students for a few steps.
"""

from __future__ import annotations

import badinput as bad
from badinput import Baseline, matrix_tests

from assocmem.quadratic import attention_gd
from assocmem.quadratic.attention import sample_attention

_DATA = sample_attention(6, 3, 0.5, 0.3, rng=0)

BASELINES = [
    Baseline(
        attention_gd.gd_attention,
        {
            "data": _DATA,
            "rho": 0.5,
            "runs": 2,
            "steps": 5,
            "lr": 0.05,
            "rng": 0,
            "record_every": None,
        },
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "lr": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "record_every": bad.NONE_OK,
        },
    ),
]

MODULES = ["assocmem.quadratic.attention_gd"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
