"""Bad-input matrix over ``assocmem.attractor`` part b: spectra, outliers, loads, dynamics, sparse.

The harness is ``tests/badinput.py``. Baselines are tiny (N of 10-20) so that the whole file,
sparse QPs included, stays well under a minute on one core.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.attractor import dynamics, loads, outliers, sparse, spectra
from assocmem.attractor.network import pinv_weights
from assocmem.attractor.rates import sample_patterns

_NET = pinv_weights(sample_patterns(12, 2, 1.0, rng=0), 1.0, 1.0)
_R_SPARSE = np.array([[1.0, 0.0], [0.5, 2.0], [0.0, 1.0]])
_SNET = sparse.sparse_weights(_R_SPARSE, theta=-0.5)
_KICK = dynamics.kick_experiment(_NET, 0, 0.01, "random", T=1.0)
_J = np.array([[-1.0, 0.2], [0.0, -0.5]])
_R_DENSE = np.array([0.5, 1.0, 1.5, 2.0])

# The population (pattern cv, activation sigma and n), a small network of it, and a sparse one.
_POPULATION = {"cv": 1.0, "sigma": 1.0, "n": 1.0}
_NETWORK = {"N": 12, "alpha": 0.25, **_POPULATION}
_SPARSE = {"N": 10, "f": 0.5, "n": 1.0, "cv": 1.0}
# The arguments alpha_s_comparison shares with its repeat over seeds and its protocol comparison.
_CASES = {"cases": [(1.0, 1.0, 1.0)], "N": 12, "alphas": [0.1, 0.3], "patterns": 1, "overshoot": 1}
# What they accept: moderate reals (1e300 overflows); sigma = 0 only where noted.
_SHAPE_OK = {"n": bad.SMALL_POSITIVE, "cv": bad.SMALL_POSITIVE}
_POPULATION_OK = {"sigma": bad.SMALL_POSITIVE, **_SHAPE_OK}
_POPULATION0_OK = {"sigma": bad.SMALL_NONNEG, **_SHAPE_OK}
_SPARSE_OK = {"theta": bad.SMALL_REAL, "kappa": bad.SMALL_NONNEG, **_SHAPE_OK}
_SPARSE_SCAN_OK = {**_SPARSE_OK, "alphas": bad.SMALL_POSITIVE, "rng": bad.SEED}

BASELINES = [
    # ---------------------------------------------------------------- spectra
    Baseline(
        spectra.spectrum_view,
        {**_NETWORK, "theta_shift": 0.0, "seed": 0, "patterns": 1, "gain_mode": "pattern"},
        accepts={**_POPULATION0_OK, "theta_shift": bad.SMALL_REAL, "seed": bad.SEED},
    ),
    Baseline(
        spectra.bulk_edge_table,
        {"rows": [(1.0, 1.0, 1.0, 0.25)], "N": 12, "patterns": 1, "seed": 0},
        accepts={"seed": bad.SEED},
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
        accepts={"cvs": bad.SMALL_POSITIVE, "sigma": bad.SMALL_NONNEG, "n": bad.SMALL_POSITIVE},
    ),
    Baseline(
        spectra.gain_swap,
        {**_NETWORK, "patterns": 1, "seed": 0},
        accepts={**_POPULATION0_OK, "seed": bad.SEED},
    ),
    # ---------------------------------------------------------------- outliers
    Baseline(
        outliers.theta_scan,
        {**_NETWORK, "theta_shifts": [0.0, 0.5], "seed": 0, "patterns": 1},
        accepts={**_POPULATION_OK, "theta_shifts": bad.SMALL_REAL, "seed": bad.SEED},
    ),
    Baseline(
        outliers.outlier_view,
        {"theta_shift": 0.0, **_NETWORK, "seed": 0, "patterns": 1},
        accepts={**_POPULATION_OK, "theta_shift": bad.SMALL_REAL, "seed": bad.SEED},
    ),
    Baseline(
        outliers.outlier_pair,
        {"r": _R_DENSE, "sigma": 1.0, "n": 1.0, "theta": 0.25},
        accepts={"sigma": bad.SMALL_POSITIVE, "n": bad.SMALL_POSITIVE, "theta": bad.SMALL_REAL},
    ),
    Baseline(
        outliers.threshold_window,
        {"cv": 1.0, "sigma": 1.0, "n_grid": [1.0, 1.5]},
        accepts={"cv": bad.SMALL_POSITIVE, "sigma": bad.SMALL_NONNEG, "n_grid": bad.SMALL_POSITIVE},
    ),
    # ---------------------------------------------------------------- loads
    Baseline(
        loads.phase_view,
        {"cv": 1.0, "n_points": 3, "sigma_points": 3},
        accepts={"cv": bad.SMALL_POSITIVE},
    ),
    Baseline(
        loads.optimum_vs_cv,
        {"cvs": [1.0], "n_grid": [0.9, 1.0, 1.1], "sigma_grid": [0.5, 1.0]},
        accepts={
            "cvs": bad.SMALL_POSITIVE,
            "n_grid": bad.SMALL_POSITIVE | bad.NONE_OK,
            "sigma_grid": bad.SMALL_POSITIVE | bad.NONE_OK,
        },
    ),
    Baseline(
        loads.alpha_s_vs_cv,
        {"cvs": [0.5, 1.0], "sigma": 1.0, "n": 1.0},
        accepts={"cvs": bad.SMALL_POSITIVE, "sigma": bad.SMALL_NONNEG, "n": bad.SMALL_POSITIVE},
    ),
    Baseline(
        loads.transition_scan,
        {**_POPULATION, "Ns": (12,), "alphas": [0.1, 0.3], "patterns": 1, "seed": 0},
        accepts={**_POPULATION0_OK, "seed": bad.SEED},
    ),
    Baseline(loads.alpha_s_comparison, {**_CASES, "seed": 0}, accepts={"seed": bad.SEED}),
    Baseline(loads.alpha_s_replicates, {**_CASES, "seeds": 2}),
    Baseline(
        loads.alpha_s_protocols,
        {**_CASES, "theta_shifts": [-0.1, 0.1], "seed": 0},
        accepts={"theta_shifts": bad.SMALL_REAL, "seed": bad.SEED},
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
            "r": bad.FINITE_ENTRIES,
            "eps": bad.POSITIVE_REAL,
            "rng": bad.SEED,
            "other": bad.NONE_OK | bad.FINITE_ENTRIES,
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
            "mu": bad.SEED,
            "eps": bad.SMALL_POSITIVE,
            "T": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "max_rate": bad.POSITIVE_REAL,
        },
    ),
    Baseline(
        dynamics.decay_rate,
        {"run": _KICK, "t_min": 0.2, "t_max": 0.9, "floor": 1e-11},
        accepts={"t_min": bad.ZERO | bad.NONE_OK, "t_max": bad.POSITIVE_REAL | bad.NONE_OK},
    ),
    Baseline(
        dynamics.basin_curve,
        {
            **_NETWORK,
            "eps_grid": (0.01, 0.1),
            "direction": "random",
            "seed": 0,
            "kicks": 1,
            "T": 1.0,
            "dt": 0.1,
            "shrink": 0.5,
        },
        accepts={
            **_POPULATION_OK,
            "eps_grid": bad.SMALL_POSITIVE,
            "seed": bad.SEED,
            "T": bad.SMALL_POSITIVE,
        },
    ),
    Baseline(
        dynamics.lyapunov_covariance,
        {"J": _J, "eta": 1.0, "dt": 0.1},
        accepts={"eta": bad.NONNEG_REAL, "dt": bad.NONE_OK},
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
            "mu": bad.SEED,
            "eta": bad.SMALL_POSITIVE,
            "T": bad.SMALL_POSITIVE,
            "burn_in": bad.SMALL_NONNEG,
            "stride": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
        },
    ),
    # ---------------------------------------------------------------- sparse
    Baseline(
        sparse.sparse_weights,
        {"R": _R_SPARSE, "theta": -0.5, "n": 1.0, "kappa": 0.0, "rows": [0, 1], "tol": 1e-6},
        accepts={
            "theta": bad.SMALL_REAL,
            "n": bad.SMALL_POSITIVE,
            "kappa": bad.SMALL_NONNEG,
            "rows": bad.NONE_OK,
        },
    ),
    Baseline(
        sparse.replica_row_moments,
        {"f": 0.3, "alpha": 0.6, "theta": -0.5, "cv": 1.0, "n": 1.0},
        accepts={"theta": bad.SMALL_REAL, **_SHAPE_OK},
    ),
    Baseline(
        sparse.sparse_spectrum,
        {"net": _SNET, "patterns": [0, 1], "kink": "zero", "tol": 1e-7},
        accepts={"patterns": bad.NONE_OK | bad.SEED},
    ),
    Baseline(
        sparse.kink_count,
        {"W": _SNET.W, "R": _R_SPARSE, "theta": -0.5, "tol": 1e-7},
        accepts={"W": bad.FINITE_ENTRIES, "R": bad.FINITE_ENTRIES, "theta": bad.SMALL_REAL},
    ),
    Baseline(sparse.capacity_curve, {"f": [0.1, 1.0]}),
    Baseline(
        sparse.storage_fraction,
        {**_SPARSE, "alphas": [0.3], "theta": -0.5, "kappa": 0.0, "rows": 2, "rng": 0},
        accepts=_SPARSE_SCAN_OK,
    ),
    Baseline(
        sparse.storage_midpoints,
        {**_SPARSE, "alphas": [0.3], "theta": -0.5, "kappa": 0.0, "rows": 2, "seeds": 2},
        accepts=_SPARSE_OK | {"alphas": bad.SMALL_POSITIVE},
    ),
    Baseline(
        sparse.row_moment_sample,
        {**_SPARSE, "alpha": 0.2, "theta": -0.5, "networks": 2, "rows": 2, "rng": 0},
        accepts={"theta": bad.SMALL_REAL, **_SHAPE_OK, "rng": bad.SEED},
    ),
    Baseline(
        sparse.sparse_stability_scan,
        {
            **_SPARSE,
            # The second load is above capacity: its abscissa is NaN by contract (no fixed
            # point), so a NaN there is not a silent failure.
            "alphas": [0.2, 5.0],
            "theta": -0.5,
            "kappa": 0.1,
            "patterns": 1,
            "rng": 0,
            "kink": "zero",
            "tol": 1e-6,
        },
        accepts=_SPARSE_SCAN_OK,
    ),
    Baseline(
        sparse.sparse_threshold_scan,
        {**_SPARSE, "alpha": 0.2, "thetas": [-0.5, 0.0], "kappa": 0.1, "patterns": 1, "rng": 0},
        accepts={"thetas": bad.SMALL_REAL, "kappa": bad.SMALL_NONNEG, **_SHAPE_OK, "rng": bad.SEED},
    ),
    Baseline(
        sparse.threshold_optima,
        {
            "N": 10,
            "fs": [0.5],
            "alphas": [0.2],
            "thetas": [-0.5, 0.0],
            "kappa": 0.1,
            "seeds": 1,
            "patterns": 1,
        },
        accepts={
            "fs": bad.SMALL_POSITIVE,
            "alphas": bad.SMALL_POSITIVE,
            "thetas": bad.SMALL_REAL,
            "kappa": bad.SMALL_NONNEG,
        },
    ),
    Baseline(
        sparse.kink_profile,
        {**_SPARSE, "kappa": 0.1, "alpha": 0.2, "theta": -0.5, "seed": 0},
        accepts={**_SPARSE_OK, "seed": bad.SEED},
    ),
]

MODULES = [
    f"assocmem.attractor.{m}" for m in ("spectra", "outliers", "loads", "dynamics", "sparse")
]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
