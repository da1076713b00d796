"""Bad-input matrix over ``assocmem.explore.dam_saddles.saddle`` (``tests/badinput.py``).

The views take β_eff in (0, 20], ϱ in [0.01, 1e4] or inf, P* and P in 1..8 (2..8 for the phase
diagram), grids of 2 to 200 points, and the Gibbs view N in [10, 1000], v in [0.05, 100]; the
plot functions take their results. Each result is built once, at import, by a small call.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.dam_saddles import saddle as plots

_SOLVER = plots.solver_view(2.5, 1.0, 2, 2)
_PITCH = plots.pitchfork_view(1.0, 2, 2, beta_max=4.0, points=4)
_PHASE = plots.phase_view(2, 2, n_rho=3, n_beta=3, beta_max=4.0)
_GIBBS = plots.gibbs_view([2.0], P=1, N=20, n_sweeps=20, burn_in=5)

BASELINES = [
    Baseline(
        plots.solver_view,
        {
            "beta_eff": 2.5,
            "rho": 1.0,
            "P_star": 2,
            "P": 2,
            "init": "specialised",
            "damping": 0.5,
            "p_h0": 0.0,
            "max_iter": 50,
        },
        accepts={
            "beta_eff": bad.SMALL_POSITIVE,
            "rho": {"inf", "float_for_int"},
            "damping": bad.SMALL_NONNEG - {"float_for_int"},
            "p_h0": {"zero"},
        },
    ),
    Baseline(
        plots.pitchfork_view,
        {"rho": 1.0, "P_star": 2, "P": 2, "beta_max": 4.0, "points": 4},
        accepts={"rho": {"inf", "float_for_int"}, "beta_max": bad.SMALL_POSITIVE},
    ),
    Baseline(
        plots.phase_view,
        {"P_star": 2, "P": 2, "n_rho": 3, "n_beta": 3, "beta_max": 4.0},
        accepts={"beta_max": bad.SMALL_POSITIVE},
    ),
    Baseline(
        plots.gibbs_view,
        {
            "betas": np.array([2.0]),
            "P": 1,
            "P_star": 2,
            "N": 20,
            "v": 1.0,
            "rho": 1.0,
            "n_sweeps": 20,
            "burn_in": 5,
            "rng": 0,
        },
        accepts={
            "betas": bad.SMALL_POSITIVE,
            "v": bad.SMALL_POSITIVE,
            "rho": bad.SMALL_POSITIVE,
            "burn_in": bad.ZERO,
            "rng": bad.SEED,
        },
    ),
    Baseline(
        plots.threshold_scan,
        {
            "P_stars": np.array([2]),
            "rhos": np.array([1.0]),
            "factors": np.array([0.9, 1.2]),
            "P": 2,
            "max_iter": 200,
        },
        accepts={"rhos": {"inf", "inf_entry", "float_for_int"}, "factors": {"float_for_int"}},
    ),
    Baseline(plots.plot_solver, {"view": _SOLVER, "height": 400}),
    Baseline(plots.plot_pitchfork, {"view": _PITCH, "height": 420}),
    Baseline(plots.plot_phase, {"view": _PHASE, "height": 440}),
    Baseline(plots.plot_gibbs, {"view": _GIBBS, "height": 420}),
]

MODULES = ["assocmem.explore.dam_saddles.saddle"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
