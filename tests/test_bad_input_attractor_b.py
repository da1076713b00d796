"""Bad-input matrix over ``assocmem.attractor`` part b: spectra, outliers, loads, dynamics, sparse.

The harness is ``tests/badinput.py``. Baselines are tiny (N of 10-20) so that the whole file,
sparse QPs included, stays well under a minute on one core.
"""

from __future__ import annotations

import numpy as np
from badinput import (
    ANY_REAL,
    FINITE_ENTRIES,
    NONE_OK,
    NONNEG_REAL,
    POSITIVE_REAL,
    SEED,
    Baseline,
    matrix_tests,
)

from assocmem.attractor import dynamics, loads, outliers, sparse, spectra
from assocmem.attractor.network import pinv_weights
from assocmem.attractor.rates import sample_patterns

_NET = pinv_weights(sample_patterns(12, 2, 1.0, rng=0), 1.0, 1.0)
_R_SPARSE = np.array([[1.0, 0.0], [0.5, 2.0], [0.0, 1.0]])
_SNET = sparse.sparse_weights(_R_SPARSE, theta=-0.5)
_KICK = dynamics.kick_experiment(_NET, 0, 0.01, "random", T=1.0)
_J = np.array([[-1.0, 0.2], [0.0, -0.5]])
_R_DENSE = np.array([0.5, 1.0, 1.5, 2.0])

#: A real number in a closed interval that includes 0 (a shift, an unbounded threshold).
FINITE = ANY_REAL

BASELINES = [
    # ---------------------------------------------------------------- spectra
    Baseline(
        spectra.spectrum_view,
        {
            "N": 12,
            "alpha": 0.25,
            "cv": 1.0,
            "sigma": 1.0,
            "n": 1.0,
            "theta_shift": 0.0,
            "seed": 0,
            "patterns": 1,
            "gain_mode": "pattern",
        },
        accepts={
            "sigma": frozenset({"zero", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "cv": frozenset({"float_for_int"}),
            "theta_shift": frozenset({"zero", "minus_one", "float_for_int"}),
            "seed": SEED,
        },
    ),
    Baseline(
        spectra.bulk_edge_table,
        {"rows": [(1.0, 1.0, 1.0, 0.25)], "N": 12, "patterns": 1, "seed": 0},
        accepts={"seed": SEED},
    ),
    Baseline(
        spectra.edge_deviations,
        {
            "cvs": (1.0,),
            "alphas": (0.25,),
            "N": 12,
            "sigma": 1.0,
            "n": 1.0,
            "patterns": 1,
            "seeds": 1,
            "bins": 3,
        },
        accepts={
            "cvs": frozenset({"float_for_int"}),
            "sigma": frozenset({"zero", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
        },
    ),
    Baseline(
        spectra.gain_swap,
        {"N": 12, "alpha": 0.25, "cv": 1.0, "sigma": 1.0, "n": 1.0, "patterns": 1, "seed": 0},
        accepts={
            "sigma": frozenset({"zero", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "cv": frozenset({"float_for_int"}),
            "seed": SEED,
        },
    ),
    # ---------------------------------------------------------------- outliers
    Baseline(
        outliers.theta_scan,
        {
            "N": 12,
            "alpha": 0.25,
            "cv": 1.0,
            "sigma": 1.0,
            "n": 1.0,
            "theta_shifts": [0.0, 0.5],
            "seed": 0,
            "patterns": 1,
        },
        accepts={
            "sigma": frozenset({"float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "cv": frozenset({"float_for_int"}),
            "theta_shifts": frozenset({"zero", "minus_one", "float_for_int"}),
            "seed": SEED,
        },
    ),
    Baseline(
        outliers.outlier_view,
        {
            "theta_shift": 0.0,
            "n": 1.0,
            "N": 12,
            "alpha": 0.25,
            "cv": 1.0,
            "sigma": 1.0,
            "seed": 0,
            "patterns": 1,
        },
        accepts={
            "sigma": frozenset({"float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "cv": frozenset({"float_for_int"}),
            "theta_shift": frozenset({"zero", "minus_one", "float_for_int"}),
            "seed": SEED,
        },
    ),
    Baseline(
        outliers.outlier_pair,
        {"r": _R_DENSE, "sigma": 1.0, "n": 1.0, "theta": 0.25},
        accepts={
            "sigma": frozenset({"float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "theta": frozenset({"zero", "minus_one", "float_for_int"}),
        },
    ),
    Baseline(
        outliers.threshold_window,
        {"cv": 1.0, "sigma": 1.0, "n_grid": [1.0, 1.5]},
        accepts={
            "cv": frozenset({"float_for_int"}),
            "sigma": frozenset({"zero", "float_for_int"}),
            "n_grid": frozenset({"float_for_int"}),
        },
    ),
    # ---------------------------------------------------------------- loads
    Baseline(
        loads.phase_view,
        {"cv": 1.0, "n_points": 3, "sigma_points": 3},
        accepts={"cv": frozenset({"float_for_int"})},
    ),
    Baseline(
        loads.optimum_vs_cv,
        {"cvs": [1.0], "n_grid": [0.9, 1.0, 1.1], "sigma_grid": [0.5, 1.0]},
        accepts={
            "cvs": frozenset({"float_for_int"}),
            "n_grid": frozenset({"float_for_int"}) | NONE_OK,
            "sigma_grid": frozenset({"float_for_int"}) | NONE_OK,
        },
    ),
    Baseline(
        loads.alpha_s_vs_cv,
        {"cvs": [0.5, 1.0], "sigma": 1.0, "n": 1.0},
        accepts={
            "cvs": frozenset({"float_for_int"}),
            "sigma": frozenset({"zero", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
        },
    ),
    Baseline(
        loads.transition_scan,
        {
            "cv": 1.0,
            "sigma": 1.0,
            "n": 1.0,
            "Ns": (12,),
            "alphas": [0.1, 0.3],
            "patterns": 1,
            "seed": 0,
        },
        accepts={
            "cv": frozenset({"float_for_int"}),
            "sigma": frozenset({"zero", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "seed": SEED,
        },
    ),
    Baseline(
        loads.alpha_s_comparison,
        {
            "cases": [(1.0, 1.0, 1.0)],
            "N": 12,
            "alphas": [0.1, 0.3],
            "patterns": 1,
            "seed": 0,
            "overshoot": 1,
        },
        accepts={"seed": SEED},
    ),
    # ---------------------------------------------------------------- dynamics
    Baseline(
        dynamics.kick_states,
        {
            "r": np.array([1.0, 2.0, 0.5]),
            "eps": [0.1, 0.5],
            "direction": "random",
            "rng": 0,
            "other": np.array([0.5, 1.0, 2.0]),
            "count": 1,
        },
        accepts={
            "r": FINITE_ENTRIES,
            "eps": POSITIVE_REAL,
            "rng": SEED,
            "other": NONE_OK | FINITE_ENTRIES,
        },
    ),
    Baseline(
        dynamics.kick_experiment,
        {
            "net": _NET,
            "mu": 0,
            "eps": 0.01,
            "direction": "random",
            "T": 1.0,
            "dt": 0.1,
            "rng": 0,
            "count": 1,
            "max_rate": 1e6,
        },
        accepts={
            "mu": SEED,
            "eps": frozenset({"float_for_int"}),
            "T": frozenset({"float_for_int"}),
            "rng": SEED,
            "max_rate": POSITIVE_REAL,
        },
    ),
    Baseline(
        dynamics.decay_rate,
        {"run": _KICK, "t_min": 0.2, "t_max": 0.9, "floor": 1e-11},
        accepts={
            "t_min": frozenset({"zero"}) | NONE_OK,
            "t_max": POSITIVE_REAL | NONE_OK,
        },
    ),
    Baseline(
        dynamics.basin_curve,
        {
            "N": 12,
            "alpha": 0.25,
            "cv": 1.0,
            "sigma": 1.0,
            "n": 1.0,
            "eps_grid": (0.01, 0.1),
            "direction": "random",
            "seed": 0,
            "kicks": 1,
            "T": 1.0,
            "dt": 0.1,
            "shrink": 0.5,
        },
        accepts={
            "cv": frozenset({"float_for_int"}),
            "sigma": frozenset({"float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "eps_grid": frozenset({"float_for_int"}),
            "seed": SEED,
            "T": frozenset({"float_for_int"}),
        },
    ),
    Baseline(
        dynamics.lyapunov_covariance,
        {"J": _J, "eta": 1.0, "dt": 0.1},
        accepts={"eta": NONNEG_REAL, "dt": NONE_OK},
    ),
    Baseline(
        dynamics.stationary_covariance,
        {
            "net": _NET,
            "mu": 0,
            "eta": 0.01,
            "T": 2.0,
            "burn_in": 0.5,
            "dt": 0.1,
            "walkers": 2,
            "stride": 1.0,
            "rng": 0,
        },
        accepts={
            "mu": SEED,
            "eta": frozenset({"float_for_int"}),
            "T": frozenset({"float_for_int"}),
            "burn_in": frozenset({"zero", "float_for_int"}),
            "stride": frozenset({"float_for_int"}),
            "rng": SEED,
        },
    ),
    # ---------------------------------------------------------------- sparse
    Baseline(
        sparse.sparse_weights,
        {"R": _R_SPARSE, "theta": -0.5, "n": 1.0, "kappa": 0.0, "rows": [0, 1], "tol": 1e-6},
        accepts={
            "theta": frozenset({"zero", "minus_one", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "kappa": frozenset({"zero", "float_for_int"}),
            "rows": NONE_OK,
        },
    ),
    Baseline(
        sparse.replica_row_moments,
        {"f": 0.3, "alpha": 0.6, "theta": -0.5, "cv": 1.0, "n": 1.0},
        accepts={
            "theta": ANY_REAL - {"huge"},
            "cv": frozenset({"float_for_int"}),
            "n": frozenset({"float_for_int"}),
        },
    ),
    Baseline(
        sparse.sparse_spectrum,
        {"net": _SNET, "patterns": [0, 1], "kink": "zero", "tol": 1e-7},
        accepts={"patterns": NONE_OK | SEED},
    ),
    Baseline(
        sparse.kink_count,
        {"W": _SNET.W, "R": _R_SPARSE, "theta": -0.5, "tol": 1e-7},
        accepts={
            "W": FINITE_ENTRIES,
            "R": FINITE_ENTRIES,
            "theta": frozenset({"zero", "minus_one", "float_for_int"}),
        },
    ),
    Baseline(sparse.capacity_curve, {"f": [0.1, 1.0]}),
    Baseline(
        sparse.storage_fraction,
        {
            "N": 10,
            "f": 0.5,
            "alphas": [0.3],
            "theta": -0.5,
            "kappa": 0.0,
            "n": 1.0,
            "cv": 1.0,
            "rows": 2,
            "rng": 0,
        },
        accepts={
            "alphas": frozenset({"float_for_int"}),
            "theta": frozenset({"zero", "minus_one", "float_for_int"}),
            "kappa": frozenset({"zero", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "cv": frozenset({"float_for_int"}),
            "rng": SEED,
        },
    ),
    Baseline(
        sparse.sparse_stability_scan,
        {
            "N": 10,
            "f": 0.5,
            # The second load is above capacity: its abscissa is NaN by contract (no fixed
            # point), so a NaN there is not a silent failure.
            "alphas": [0.2, 5.0],
            "theta": -0.5,
            "kappa": 0.1,
            "n": 1.0,
            "cv": 1.0,
            "patterns": 1,
            "rng": 0,
            "kink": "zero",
            "tol": 1e-6,
        },
        accepts={
            "theta": frozenset({"zero", "minus_one", "float_for_int"}),
            "kappa": frozenset({"zero", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "alphas": frozenset({"float_for_int"}),
            "cv": frozenset({"float_for_int"}),
            "rng": SEED,
        },
    ),
    Baseline(
        sparse.sparse_threshold_scan,
        {
            "N": 10,
            "f": 0.5,
            "alpha": 0.2,
            "thetas": [-0.5, 0.0],
            "kappa": 0.1,
            "n": 1.0,
            "cv": 1.0,
            "patterns": 1,
            "rng": 0,
        },
        accepts={
            "thetas": frozenset({"zero", "minus_one", "float_for_int"}),
            "kappa": frozenset({"zero", "float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "cv": frozenset({"float_for_int"}),
            "rng": SEED,
        },
    ),
    Baseline(
        sparse.kink_profile,
        {
            "f": 0.5,
            "kappa": 0.1,
            "N": 10,
            "alpha": 0.2,
            "theta": -0.5,
            "cv": 1.0,
            "n": 1.0,
            "seed": 0,
        },
        accepts={
            "kappa": frozenset({"zero", "float_for_int"}),
            "theta": frozenset({"zero", "minus_one", "float_for_int"}),
            "cv": frozenset({"float_for_int"}),
            "n": frozenset({"float_for_int"}),
            "seed": SEED,
        },
    ),
]

test_matrix, test_coverage, test_baseline = matrix_tests(
    BASELINES,
    [
        "assocmem.attractor.spectra",
        "assocmem.attractor.outliers",
        "assocmem.attractor.loads",
        "assocmem.attractor.dynamics",
        "assocmem.attractor.sparse",
    ],
)
