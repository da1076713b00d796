"""Bad-input matrix over ``assocmem.explore.attention_index.sensing`` (``tests/badinput.py``).

The views take ρ, α, β in bounded ranges (2.5 is valid where the range reaches it, 1e300 never)
and integer sizes; the results passed to the plots are built once, at import, by small calls.
"""

from __future__ import annotations

import badinput as bad
from badinput import Baseline, matrix_tests

from assocmem.explore.attention_index import sensing

_COUNT = sensing.counting_view(0.5, d=4)
_TOKENS = sensing.token_view(3, beta=1.0, d=10)
_EQUIV = sensing.equivalence_view(d=8, rho=0.5, alpha=0.5)

BASELINES = [
    Baseline(
        sensing.counting_view,
        {"rho": 0.5, "d": 4, "seed": 0},
        accepts={"seed": bad.SEED},
    ),
    Baseline(
        sensing.token_view,
        {"T": 3, "beta": 1.0, "d": 10, "rho": 0.5, "seed": 0},
        accepts={"beta": bad.SMALL_POSITIVE, "rho": bad.SMALL_POSITIVE, "seed": bad.SEED},
    ),
    Baseline(
        sensing.equivalence_view,
        {"d": 8, "rho": 0.5, "alpha": 0.5, "seed": 0},
        accepts={"rho": bad.SMALL_POSITIVE, "seed": bad.SEED},
    ),
    Baseline(sensing.plot_counting, {"view": _COUNT, "height": 430}),
    Baseline(sensing.plot_tokens, {"view": _TOKENS, "height": 430}),
    Baseline(sensing.plot_equivalence, {"view": _EQUIV, "height": 430}),
]

MODULES = ["assocmem.explore.attention_index.sensing"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
