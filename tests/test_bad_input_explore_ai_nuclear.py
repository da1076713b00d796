"""Bad-input matrix over ``assocmem.explore.attention_index.nuclear`` (``tests/badinput.py``).

The views take α in [1e-3, 100] (curves from 0.05), ρ* in [1e-3, 100], Δ in [0, 1000] and λ in
[1e-8, 1000], FISTA at d in [2, 120]; the plot functions take their results. Each result is
built once, at import, by a small call (FISTA at d = 8, two ERM points).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.attention_index import nuclear as plots

_SIMS = plots.fista_points([0.3], 0.5, 0.25, 1.0, d=8)
_CURVES = plots.nuclear_curves(0.5, 0.25, [1.0], points=2, sims=_SIMS)
_VIEW = plots.spectrum_view(0.3, 0.5, 0.25, 1.0, d=8)
_THRESH = plots.threshold_curves([0.3], noises=[1.0])

BASELINES = [
    Baseline(
        plots.nuclear_curves,
        {
            "rho": 0.5,
            "noise": 0.25,
            "lams": np.array([1.0]),
            "alpha_max": 0.6,
            "points": 2,
            "sims": None,
        },
        accepts={
            "rho": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
            "lams": bad.SMALL_POSITIVE,
            "alpha_max": bad.SMALL_POSITIVE,
            "sims": bad.NONE_OK,
        },
    ),
    Baseline(
        plots.fista_points,
        {
            "alphas": np.array([0.3]),
            "rho": 0.5,
            "noise": 0.25,
            "lam": 1.0,
            "d": 8,
            "seeds": 1,
            "rng": 0,
            "surrogate": True,
            "max_iter": 500,
        },
        accepts={
            "alphas": bad.SMALL_POSITIVE,
            "rho": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
            "lam": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "surrogate": bad.BOOL,
        },
    ),
    Baseline(
        plots.spectrum_view,
        {
            "alpha": 0.3,
            "rho": 0.5,
            "noise": 0.25,
            "lam": 1.0,
            "d": 8,
            "rng": 0,
            "surrogate": False,
        },
        accepts={
            "alpha": bad.SMALL_POSITIVE,
            "rho": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
            "lam": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "surrogate": bad.BOOL,
        },
    ),
    Baseline(
        plots.threshold_curves,
        {"rhos": np.array([0.3, 2.0]), "noises": np.array([1.0])},
        accepts={"rhos": bad.SMALL_POSITIVE, "noises": bad.SMALL_POSITIVE},
    ),
    Baseline(plots.plot_erm_curves, {"curves": _CURVES, "height": 440}),
    Baseline(plots.plot_spectra, {"views": [_VIEW], "height": 400}),
    Baseline(plots.plot_thresholds, {"curves": _THRESH, "height": 440}),
]

MODULES = ["assocmem.explore.attention_index.nuclear"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
