"""Bad-input matrix over ``assocmem.attractor.kicks`` (scale-up kicks on many patterns).

The harness is ``tests/badinput.py``. The baseline is tiny (N = 12, two patterns, T = 1).
"""

from __future__ import annotations

import badinput as bad
from badinput import Baseline, matrix_tests

from assocmem.attractor import kicks
from assocmem.attractor.network import pinv_weights
from assocmem.attractor.rates import sample_patterns

_NET = pinv_weights(sample_patterns(12, 2, 1.0, rng=0), 1.0, 1.0)

BASELINES = [
    Baseline(
        kicks.pattern_kick_rates,
        {
            "net": _NET,
            "patterns": [0, 1],
            "eps": 0.01,
            "T": 1.0,
            "t_min": 0.2,
            "t_max": 0.8,
            "dt": 0.1,
        },
        accepts={
            "patterns": bad.NONE_OK | bad.ZERO,
            "eps": bad.SMALL_POSITIVE,
            "T": bad.SMALL_POSITIVE,
            "t_min": bad.ZERO,
        },
    ),
]

MODULES = ["assocmem.attractor.kicks"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
