"""Bad-input matrix over ``assocmem.explore.attention_index.hardmax`` (``tests/badinput.py``).

The views take ρ in [1e-3, 1e3] (the narrow limit's finite ρ up to 1), α up to 100, κ in
[−8, 8] and c in (−1, 1); the plot functions take their results. Each result is built once, at
import, by a small call.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.attention_index import hardmax as plots
from assocmem.quadratic import attention

_DATA = attention.sample_attention(12, 2, 0.5, 0.3, rng=0, output="hardmax")
_SAMPLES = plots.channel_samples(_DATA, points=20)
_SLICE = plots.score_slice(points=3)
_CURVES = plots.hardmax_curves(0.5, alpha_min=0.1, alpha_max=1.0, points=3)
_NARROW = plots.narrow_limit_view(alpha_bar_max=2.0, points=5)
_RUN = attention.gamp_hardmax(_DATA, max_iter=20, tol=0.5)
_GAMP = plots.gamp_view(_DATA, _RUN)

BASELINES = [
    Baseline(
        plots.channel_samples,
        {"data": _DATA, "points": 20},
    ),
    Baseline(
        plots.score_slice,
        {"kappa2": 0.0, "c": 0.3, "lo": -1.0, "hi": 1.0, "points": 3, "step": 1e-4},
        accepts={
            "kappa2": bad.SMALL_REAL,
            "c": bad.ZERO,
            "lo": bad.SMALL_REAL - {"float_for_int"},
            "hi": {"zero", "float_for_int"},
        },
    ),
    Baseline(
        plots.hardmax_curves,
        {"rho": np.array([0.5]), "show": "both", "alpha_min": 0.1, "alpha_max": 1.0, "points": 3},
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "alpha_max": bad.SMALL_POSITIVE,
        },
    ),
    Baseline(
        plots.narrow_limit_view,
        {"alpha_bar_max": 2.0, "points": 5, "rho": np.array([0.05])},
        accepts={"alpha_bar_max": bad.SMALL_POSITIVE, "rho": {"empty"}},
    ),
    Baseline(plots.gamp_view, {"data": _DATA, "result": _RUN}),
    Baseline(plots.plot_channel, {"samples": _SAMPLES, "height": 440}),
    Baseline(plots.plot_score_slice, {"slice_": _SLICE, "height": 420}),
    Baseline(
        plots.plot_hardmax_curves,
        {"curves": _CURVES, "gamp": [_GAMP], "height": 460},
        accepts={"gamp": bad.NONE_OK},
    ),
    Baseline(plots.plot_hardmax_narrow_limit, {"view": _NARROW, "height": 420}),
    Baseline(plots.plot_gamp, {"view": _GAMP, "height": 400}),
]

MODULES = ["assocmem.explore.attention_index.hardmax"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
