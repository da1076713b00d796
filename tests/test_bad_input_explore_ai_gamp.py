"""Bad-input matrix over ``assocmem.explore.attention_index.gamp`` (``tests/badinput.py``).

The views take α in (0, 2], d in [2, 200] (the spectral view up to 1000), ρ in [1e-3, 10] and
Δ in [0, 100]; the plot functions take their results. Each result is built once, at import, by a
tiny call (d = 10, a few ms per GAMP run; runs are cached).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.attention_index import gamp as plots

_TRAJ = plots.gamp_trajectories(0.2, d=10)
_SWEEP = plots.gamp_sweep([0.2], d=10, kinds=("goe",))
_FIRST = plots.first_step([0.5], [3.0], d=10, d_spectral=20, rho_narrow=0.1)

BASELINES = [
    Baseline(
        plots.gamp_trajectories,
        {
            "alpha": 0.2,
            "d": 10,
            "rho": 0.5,
            "noise": 0.1,
            "seeds": (0,),
            "kinds": ("goe",),
            "clip": True,
            "max_iter": 20,
        },
        accepts={"rho": bad.SMALL_POSITIVE, "noise": bad.SMALL_NONNEG, "clip": bad.BOOL},
    ),
    Baseline(
        plots.gamp_sweep,
        {
            "alphas": np.array([0.2]),
            "d": 10,
            "rho": 0.5,
            "noise": 0.1,
            "seeds": (0,),
            "kinds": ("goe",),
            "max_iter": 20,
        },
        accepts={"rho": bad.SMALL_POSITIVE, "noise": bad.SMALL_NONNEG},
    ),
    Baseline(
        plots.first_step,
        {
            "alphas": np.array([0.5]),
            "alpha_bars": np.array([3.0]),
            "d": 10,
            "rho": 0.5,
            "d_spectral": 20,
            "rho_narrow": 0.1,
            "noise": 0.1,
            "seed": 0,
        },
        accepts={
            "alpha_bars": bad.SMALL_POSITIVE,
            "rho": bad.SMALL_POSITIVE,
            "rho_narrow": bad.SMALL_POSITIVE,
            "noise": bad.SMALL_NONNEG,
            "seed": bad.SEED,
        },
    ),
    Baseline(plots.plot_trajectories, {"trajectories": _TRAJ, "height": 420}),
    Baseline(plots.plot_gamp_sweep, {"sweep": _SWEEP, "height": 420}),
    Baseline(plots.plot_first_step, {"view": _FIRST, "height": 420}),
]

MODULES = ["assocmem.explore.attention_index.gamp"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
