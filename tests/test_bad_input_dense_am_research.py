"""Bad-input matrix over ``assocmem.dense_am.research_code`` and its figure module.

The harness is ``tests/badinput.py``. The public code's re-implementations work in float32, so
patterns or a β outside the float32 range are refused (they would overflow), while a huge
``grad_tol`` simply accepts everything. ``fig3_beta_grid`` is covered in
``test_bad_input_dense_am_b.py``; the second baseline here tries its ``spacing="paper"`` grid.
"""

from __future__ import annotations

import numpy as np
from badinput import (
    BOOL,
    FINITE_ENTRIES,
    POSITIVE_REAL,
    SEED,
    SMALL_POSITIVE,
    Baseline,
    matrix_tests,
)

from assocmem.dense_am import minima, research_code
from assocmem.explore.epanechnikov import research as epa_research

LINE = np.array([[0.0], [1.0], [2.5]])  # three memories on a line
PLANE = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
SURVEY = research_code.counting_survey(Ms=[4], ds=[1], n_instances=1, beta_indices=[10])
BETA_ONLY_FLOAT = SMALL_POSITIVE  # β = 2.5 is valid; 1e300 overflows float32

BASELINES = [
    Baseline(
        research_code.public_bruteforce_minima,
        {"memories": LINE, "beta": 1.5, "grad_tol": 5e-6},
        accepts={"beta": BETA_ONLY_FLOAT, "grad_tol": POSITIVE_REAL},
    ),
    Baseline(
        research_code.public_neighbourhood_minima,
        {"memories": LINE, "beta": 1.5, "grad_tol": 1e-5},
        accepts={"beta": BETA_ONLY_FLOAT, "grad_tol": POSITIVE_REAL},
    ),
    Baseline(
        research_code.exact_self_consistency,
        {"memories": LINE, "index_set": [0, 1], "beta": 1.5},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL},
    ),
    Baseline(
        research_code.compare_counting_methods,
        {"memories": LINE, "beta": 1.5},
        accepts={"beta": BETA_ONLY_FLOAT},
    ),
    Baseline(
        research_code.counting_survey,
        {
            "Ms": [4],
            "ds": [1],
            "n_instances": 1,
            "beta_indices": [10],
            "n_beta": 50,
            "rng": 0,
        },
        accepts={"rng": SEED},
    ),
    Baseline(epa_research.plot_counting_survey, {"survey": SURVEY}),
    Baseline(
        minima.fig3_beta_grid,
        {"memories": PLANE, "n": 3, "extend": True, "spacing": "paper"},
        accepts={"memories": FINITE_ENTRIES, "extend": BOOL},
        name="fig3_beta_grid[paper]",
    ),
]

test_matrix, test_coverage, test_baseline = matrix_tests(
    BASELINES, ["assocmem.dense_am.research_code", "assocmem.explore.epanechnikov.research"]
)
