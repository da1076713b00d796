"""Bad-input matrix over ``assocmem.attractor`` rates, meanfield, network, structure, ensemble.

The harness is ``tests/badinput.py``. Each baseline is a small valid call (a few ms) with every
parameter given by keyword; ``accepts`` lists the bad-value labels that are valid values of a
parameter (see the harness docstring).
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.attractor import ensemble, meanfield, network, rates, structure

# Elementwise functions: an empty or any-shaped array of valid values is a valid input.
ELEMENTWISE = frozenset({"huge_entry", "empty", "misshaped"})
# A load alpha in [0, 1) given as a float or an array of loads (zeros of any shape are loads).
LOADS = frozenset({"zero", "empty", "misshaped"})
CORRELATION = frozenset({"zero", "minus_one"})  # a correlation in [-1, 1]

_R = rates.sample_patterns(12, 3, 1.0, rng=0)
_NET = network.pinv_weights(_R, 1.0, 1.0)
_THEORY = meanfield.theory(1.0, 1.0, 1.0)
# empirical_critical_load's baseline scans loads that are all stable, so alpha_s is NaN there by
# design (documented: the grid does not bracket a crossing, bracketed=False).
# A batch of two runs of dr/dt = -r + r^2 (W = I, sigma = 0, n = 2, theta = 0): the first decays,
# the second blows up past max_rate after a few steps, so its distance is NaN by design
# (``simulate`` stops only the trajectory that blows up).
_R0 = np.array([[0.5, 3.0], [0.5, 3.0]])
_RATES = np.array([0.5, 1.0, 2.0])

# The activation's parameters, the population (pattern cv and activation) and what they accept.
_GAIN = {"sigma": 1.0, "n": 1.5}
_POPULATION = {"cv": 1.0, "sigma": 1.0, "n": 1.0}
_GAIN_OK = {"sigma": bad.NONNEG_REAL, "n": bad.POSITIVE_REAL}
_POPULATION_OK = {"cv": bad.POSITIVE_REAL, **_GAIN_OK}
_POSITIVE_POPULATION_OK = dict.fromkeys(("cv", "sigma", "n"), bad.POSITIVE_REAL)
_THETA_OK = bad.NONE_OK | bad.ANY_REAL
_WEIGHTS_OK = {"R": bad.FINITE_ENTRIES, **_GAIN_OK, "theta": _THETA_OK}
_SIGMAS = {"sigma_x": 1.0, "sigma_y": 2.0}
_SIGMAS_OK = {"sigma_x": bad.POSITIVE_REAL, "sigma_y": bad.POSITIVE_REAL}
_LOAD_SWEEP_OK = {**_POSITIVE_POPULATION_OK, "rng": bad.SEED, "zero_diag": bad.BOOL}

BASELINES = [
    # rates
    Baseline(
        rates.activation,
        {"v": np.array([-1.0, 0.0, 1.0]), **_GAIN},
        accepts={"v": bad.ANY_REAL | ELEMENTWISE, **_GAIN_OK},
    ),
    Baseline(
        rates.activation_inverse,
        {"r": _RATES, **_GAIN},
        accepts={"r": bad.POSITIVE_REAL | ELEMENTWISE, **_GAIN_OK},
    ),
    Baseline(
        rates.gain,
        {"r": _RATES, **_GAIN},
        accepts={"r": bad.POSITIVE_REAL | ELEMENTWISE, **_GAIN_OK},
    ),
    Baseline(
        rates.sample_patterns,
        {"N": 5, "P": 2, "cv": 1.0, "rng": 0, "f": 1.0},
        accepts={"cv": bad.POSITIVE_REAL, "rng": bad.SEED},
    ),
    # meanfield
    Baseline(
        meanfield.theory,
        {**_POPULATION, "theta": None},
        accepts={**_POPULATION_OK, "theta": _THETA_OK},
    ),
    Baseline(
        meanfield.phase_diagram,
        {"cv": 1.0, "n_grid": np.array([1.0, 1.5]), "sigma_grid": np.array([0.5, 1.0])},
        accepts={
            "cv": bad.POSITIVE_REAL,
            "n_grid": bad.POSITIVE_REAL | {"huge_entry"},
            "sigma_grid": bad.NONNEG_REAL | {"huge_entry"},
        },
    ),
    Baseline(
        meanfield.ensemble_disc,
        {"alpha": 0.5, **_SIGMAS, "rho_xy": 0.3, "c": 1.0},
        accepts={"alpha": bad.ZERO, **_SIGMAS_OK, "rho_xy": CORRELATION, "c": bad.ANY_REAL},
    ),
    Baseline(
        meanfield.ensemble_alpha_s,
        {**_SIGMAS, "rho_xy": 0.3, "c": 1.0},
        accepts={**_SIGMAS_OK, "rho_xy": CORRELATION, "c": bad.ANY_REAL},
    ),
    Baseline(meanfield.sparse_capacity, {"f": 0.5}),
    # network
    Baseline(
        network.pinv_weights,
        {"R": _R, "sigma": 1.0, "n": 1.0, "theta": None},
        accepts=_WEIGHTS_OK,
    ),
    Baseline(
        network.zero_diag_weights,
        {"R": _R, "sigma": 1.0, "n": 1.0, "theta": -0.5},
        accepts=_WEIGHTS_OK,
    ),
    Baseline(
        network.jacobian,
        {"W": _NET.W, "r": _R[:, 0], "sigma": 1.0, "n": 1.0, "theta": _NET.theta},
        accepts={
            "W": bad.FINITE_ENTRIES,
            "r": bad.FINITE_ENTRIES,
            **_GAIN_OK,
            "theta": bad.ANY_REAL,
        },
    ),
    Baseline(
        network.jacobian_spectrum,
        {"net": _NET, "patterns": [0, 2], "method": "auto", "eigenvectors": True},
        accepts={"patterns": bad.NONE_OK | bad.ZERO, "eigenvectors": bad.BOOL},
    ),
    Baseline(
        network.simulate,
        {
            "W": np.eye(2),
            "r0": _R0,
            "sigma": 0.0,
            "n": 2.0,
            "theta": 0.0,
            "dt": 0.1,
            "T": 2.0,
            "noise": 0.0,
            "rng": 0,
            "reference": np.array([0.5, 0.5]),
            "max_rate": 1e3,
        },
        accepts={
            "W": bad.FINITE_ENTRIES,
            **_GAIN_OK,
            "theta": bad.ANY_REAL,
            "T": bad.POSITIVE_REAL,
            "noise": bad.NONNEG_REAL,
            "rng": bad.NONE_OK | bad.SEED,
            "reference": bad.NONE_OK | bad.FINITE_ENTRIES,
            "max_rate": bad.POSITIVE_REAL,
        },
    ),
    Baseline(
        network.empirical_critical_load,
        {
            "N": 20,
            **_POPULATION,
            "alphas": [0.05, 0.1],
            "patterns": 2,
            "rng": 0,
            "theta_shift": 0.0,
            "zero_diag": False,
            "tol": 1e-6,
        },
        accepts={
            **_POPULATION_OK,
            "rng": bad.SEED,
            "theta_shift": bad.ANY_REAL,
            "zero_diag": bad.BOOL,
            "tol": bad.NONNEG_REAL,
        },
    ),
    Baseline(
        network.paired_ensemble_spectrum,
        {"N": 20, "alpha": 0.3, **_SIGMAS, "tau": 0.2, "rng": 0},
        accepts={**_SIGMAS_OK, "tau": CORRELATION, "rng": bad.SEED},
    ),
    # structure
    Baseline(
        structure.activation_curves,
        {"sigma": 1.0, "n": 1.5, "v_min": -3.0, "v_max": 3.0, "points": 21},
        accepts={
            "sigma": bad.POSITIVE_REAL,
            "n": bad.POSITIVE_REAL,
            "v_min": bad.SMALL_REAL,
            "v_max": bad.ANY_REAL,
        },
    ),
    Baseline(
        structure.lognormal_density,
        {"r": _RATES, "cv": 1.0, "f": 1.0},
        accepts={"r": bad.NONNEG_REAL | ELEMENTWISE, "cv": bad.POSITIVE_REAL},
    ),
    Baseline(
        structure.pattern_density,
        {"cv": 1.0, "f": 1.0, "N": 200, "rng": 0, "bins": 10},
        accepts={"cv": bad.POSITIVE_REAL, "rng": bad.SEED},
    ),
    Baseline(
        structure.asymmetry_index,
        {"W": np.array([[0.0, 1.0], [0.0, 0.5]])},
        accepts={"W": bad.FINITE_ENTRIES},
    ),
    Baseline(
        structure.henrici_departure,
        {"J": np.array([[1.0, 2.0], [0.0, 3.0]]), "eigenvalues": np.array([1.0, 3.0])},
        accepts={"J": bad.FINITE_ENTRIES, "eigenvalues": bad.NONE_OK | {"complex_array"}},
    ),
    Baseline(
        structure.weight_statistics,
        {"net": _NET, "pattern": 1, "henrici": True},
        accepts={"pattern": bad.ZERO, "henrici": bad.BOOL},
    ),
    Baseline(
        structure.pinv_row_norm_sq,
        {"theory": _THEORY, "alpha": np.array([0.2, 0.5])},
        accepts={"alpha": LOADS},
    ),
    Baseline(
        structure.pinv_self_coupling,
        {"theory": _THEORY, "alpha": np.array([0.2, 0.5])},
        accepts={"alpha": LOADS},
    ),
    Baseline(
        structure.weight_load_sweep,
        {
            "N": 12,
            **_POPULATION,
            "alphas": [0.2, 0.5],
            "rng": 0,
            "theta_shift": 0.0,
            "zero_diag": True,
            "henrici": True,
        },
        accepts={**_LOAD_SWEEP_OK, "theta_shift": bad.ANY_REAL, "henrici": bad.BOOL},
    ),
    Baseline(
        structure.weight_snapshot,
        {"alpha": 0.3, "N": 12, **_POPULATION, "rng": 0, "zero_diag": False, "pairs": 5},
        accepts=_LOAD_SWEEP_OK,
    ),
    Baseline(
        structure.recall_demo,
        {
            "alpha": 0.2,
            "N": 12,
            **_POPULATION,
            "kick": 0.01,
            "direction": "random",
            "T": 1.0,
            "dt": 0.1,
            "rng": 0,
        },
        accepts={**_POSITIVE_POPULATION_OK, "T": bad.SMALL_POSITIVE, "rng": bad.SEED},
    ),
    # ensemble
    Baseline(
        ensemble.ensemble_view,
        {"N": 20, "alpha": 0.3, "rho_xy": 0.2, "sigma_ratio": 0.5, "c": 1.0, "seed": 0},
        accepts={
            "rho_xy": CORRELATION,
            "sigma_ratio": bad.POSITIVE_REAL,
            "c": bad.ANY_REAL,
            "seed": bad.SEED,
        },
    ),
    Baseline(
        ensemble.ensemble_grid,
        {"alphas": [0.2, 0.5], "rhos": [0.0, 0.5], "N": 20, **_SIGMAS, "c": 0.0, "seed": 0},
        accepts={"rhos": CORRELATION, **_SIGMAS_OK, "c": bad.ANY_REAL, "seed": bad.SEED},
    ),
    Baseline(
        ensemble.finite_size_edge,
        {"N_values": [20, 40], "alpha": 0.2, "rho_xy": 0.0, "sigma_ratio": 0.5, "seeds": 2},
        accepts={"rho_xy": bad.ZERO, "sigma_ratio": bad.POSITIVE_REAL},
    ),
    Baseline(
        ensemble.network_ensemble,
        {"theory": _THEORY, "alpha": 0.2},
        accepts={"alpha": bad.ZERO},
    ),
    Baseline(
        ensemble.surrogate_view,
        {"theory": _THEORY, "N": 20, "alpha": 0.2, "kind": "lognormal", "seed": 0},
        accepts={"seed": bad.SEED},
    ),
    Baseline(
        ensemble.reduction_check,
        {"net": _NET, "pattern": 1, "tol": 1e-8},
        accepts={"pattern": bad.ZERO, "tol": bad.POSITIVE_REAL},
    ),
]

MODULES = [
    f"assocmem.attractor.{m}" for m in ("rates", "meanfield", "network", "structure", "ensemble")
]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
