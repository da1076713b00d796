"""Bad-input matrix over ``assocmem.quadratic.attention`` (the harness is ``tests/badinput.py``).

d, T are integers in [2, 4096] and [2, 64], ρ in (0, 100], α in (0, 1e4] and β in (0, 1e6], so
1e300 is refused everywhere (token and matrix entries are capped at 1e50); each baseline draws
or transforms a few tiny sequences.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.quadratic import attention

_RNG = np.random.default_rng(0)
_X = _RNG.standard_normal((3, 2, 4))
_A = np.eye(4)
_Y = attention.softmax_attention(_X, _A, 1.0)

BASELINES = [
    Baseline(
        attention.sample_attention,
        {
            "d": 6,
            "T": 2,
            "rho": 0.5,
            "alpha": 0.2,
            "rng": 0,
            "beta": 1.0,
            "output": "softmax",
            "xp": None,
        },
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "alpha": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "beta": bad.SMALL_POSITIVE,
            "xp": bad.NONE_OK,
        },
    ),
    Baseline(
        attention.attention_logits,
        {"X": _X, "A": _A},
    ),
    Baseline(
        attention.softmax_attention,
        {"X": _X, "A": _A, "beta": 1.0},
        accepts={"beta": bad.SMALL_POSITIVE},
    ),
    Baseline(
        attention.logit_differences,
        {"y": _Y, "beta": 1.0},
        accepts={"beta": bad.SMALL_POSITIVE},
    ),
]

BASELINES += [
    Baseline(
        attention.hardmax_state_evolution,
        {"alpha": np.array([0.1, 0.3]), "rho": 0.5, "exact": True, "steps": 3, "tol": 0.5},
        accepts={
            "alpha": bad.SMALL_POSITIVE,
            "rho": bad.SMALL_POSITIVE,
            "exact": bad.BOOL,
        },
    ),
    Baseline(
        attention.hardmax_curve,
        {"alpha": np.array([0.0, 0.1, 1.0]), "rho": 0.5, "exact": False, "n": 20},
        accepts={
            "alpha": bad.SMALL_NONNEG | {"empty"},
            "rho": bad.SMALL_POSITIVE,
            "exact": bad.BOOL,
        },
    ),
    Baseline(
        attention.hardmax_narrow_limit,
        {"alpha_bar": np.array([0.3, 1.0, 5.0]), "exact": True},
        accepts={
            "alpha_bar": bad.SMALL_NONNEG | {"empty", "misshaped"},
            "exact": bad.BOOL,
        },
    ),
]

_HARDMAX = attention.sample_attention(12, 2, 0.5, 0.3, rng=0, output="hardmax")

BASELINES.append(
    Baseline(
        attention.gamp_hardmax,
        {"data": _HARDMAX, "clip": True, "damping": 0.5, "max_iter": 20, "tol": 0.5},
        accepts={"clip": bad.BOOL, "damping": bad.ZERO},
    )
)

MODULES = ["assocmem.quadratic.attention"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
