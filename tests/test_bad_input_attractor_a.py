"""Bad-input matrix over ``assocmem.attractor`` rates, meanfield, network, structure, ensemble.

The harness is ``tests/badinput.py``. Each baseline is a small valid call (a few ms) with every
parameter given by keyword; ``accepts`` lists the bad-value labels that are valid values of a
parameter (see the harness docstring).
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

from assocmem.attractor import ensemble, meanfield, network, rates, structure

# Elementwise functions: an empty or any-shaped array of valid values is a valid input.
ELEMENTWISE = frozenset({"huge_entry", "empty", "misshaped"})
# A load alpha in [0, 1) given as a float or an array of loads (zeros of any shape are loads).
LOADS = frozenset({"zero", "empty", "misshaped"})

_R = rates.sample_patterns(12, 3, 1.0, rng=0)
_NET = network.pinv_weights(_R, 1.0, 1.0)
_THEORY = meanfield.theory(1.0, 1.0, 1.0)
# empirical_critical_load's baseline scans loads that are all stable, so alpha_s is NaN there by
# design (documented: the grid does not bracket a crossing, bracketed=False).
# A batch of two runs of dr/dt = -r + r^2 (W = I, sigma = 0, n = 2, theta = 0): the first decays,
# the second blows up past max_rate after a few steps, so its distance is NaN by design
# (``simulate`` stops only the trajectory that blows up).
_R0 = np.array([[0.5, 3.0], [0.5, 3.0]])

BASELINES = [
    # rates
    Baseline(
        rates.activation,
        {"v": np.array([-1.0, 0.0, 1.0]), "sigma": 1.0, "n": 1.5},
        accepts={"v": ANY_REAL | ELEMENTWISE, "sigma": NONNEG_REAL, "n": POSITIVE_REAL},
    ),
    Baseline(
        rates.activation_inverse,
        {"r": np.array([0.5, 1.0, 2.0]), "sigma": 1.0, "n": 1.5},
        accepts={"r": POSITIVE_REAL | ELEMENTWISE, "sigma": NONNEG_REAL, "n": POSITIVE_REAL},
    ),
    Baseline(
        rates.gain,
        {"r": np.array([0.5, 1.0, 2.0]), "sigma": 1.0, "n": 1.5},
        accepts={"r": POSITIVE_REAL | ELEMENTWISE, "sigma": NONNEG_REAL, "n": POSITIVE_REAL},
    ),
    Baseline(
        rates.sample_patterns,
        {"N": 5, "P": 2, "cv": 1.0, "rng": 0, "f": 1.0},
        accepts={"cv": POSITIVE_REAL, "rng": SEED},
    ),
    # meanfield
    Baseline(
        meanfield.theory,
        {"cv": 1.0, "sigma": 1.0, "n": 1.0, "theta": None},
        accepts={
            "cv": POSITIVE_REAL,
            "sigma": NONNEG_REAL,
            "n": POSITIVE_REAL,
            "theta": NONE_OK | ANY_REAL,
        },
    ),
    Baseline(
        meanfield.phase_diagram,
        {"cv": 1.0, "n_grid": np.array([1.0, 1.5]), "sigma_grid": np.array([0.5, 1.0])},
        accepts={
            "cv": POSITIVE_REAL,
            "n_grid": POSITIVE_REAL | {"huge_entry"},
            "sigma_grid": NONNEG_REAL | {"huge_entry"},
        },
    ),
    Baseline(
        meanfield.ensemble_disc,
        {"alpha": 0.5, "sigma_x": 1.0, "sigma_y": 2.0, "rho_xy": 0.3, "c": 1.0},
        accepts={
            "alpha": {"zero"},
            "sigma_x": POSITIVE_REAL,
            "sigma_y": POSITIVE_REAL,
            "rho_xy": {"zero", "minus_one"},
            "c": ANY_REAL,
        },
    ),
    Baseline(
        meanfield.ensemble_alpha_s,
        {"sigma_x": 1.0, "sigma_y": 2.0, "rho_xy": 0.3, "c": 1.0},
        accepts={
            "sigma_x": POSITIVE_REAL,
            "sigma_y": POSITIVE_REAL,
            "rho_xy": {"zero", "minus_one"},
            "c": ANY_REAL,
        },
    ),
    Baseline(meanfield.sparse_capacity, {"f": 0.5}),
    # network
    Baseline(
        network.pinv_weights,
        {"R": _R, "sigma": 1.0, "n": 1.0, "theta": None},
        accepts={
            "R": FINITE_ENTRIES,
            "sigma": NONNEG_REAL,
            "n": POSITIVE_REAL,
            "theta": NONE_OK | ANY_REAL,
        },
    ),
    Baseline(
        network.zero_diag_weights,
        {"R": _R, "sigma": 1.0, "n": 1.0, "theta": -0.5},
        accepts={
            "R": FINITE_ENTRIES,
            "sigma": NONNEG_REAL,
            "n": POSITIVE_REAL,
            "theta": NONE_OK | ANY_REAL,
        },
    ),
    Baseline(
        network.jacobian,
        {"W": _NET.W, "r": _R[:, 0], "sigma": 1.0, "n": 1.0, "theta": _NET.theta},
        accepts={
            "W": FINITE_ENTRIES,
            "r": FINITE_ENTRIES,
            "sigma": NONNEG_REAL,
            "n": POSITIVE_REAL,
            "theta": ANY_REAL,
        },
    ),
    Baseline(
        network.jacobian_spectrum,
        {"net": _NET, "patterns": [0, 2], "method": "auto", "eigenvectors": True},
        accepts={"patterns": NONE_OK | {"zero"}, "eigenvectors": {"true"}},
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
            "W": FINITE_ENTRIES,
            "sigma": NONNEG_REAL,
            "n": POSITIVE_REAL,
            "theta": ANY_REAL,
            "T": POSITIVE_REAL,
            "noise": NONNEG_REAL,
            "rng": NONE_OK | SEED,
            "reference": NONE_OK | FINITE_ENTRIES,
            "max_rate": POSITIVE_REAL,
        },
    ),
    Baseline(
        network.empirical_critical_load,
        {
            "N": 20,
            "cv": 1.0,
            "sigma": 1.0,
            "n": 1.0,
            "alphas": [0.05, 0.1],
            "patterns": 2,
            "rng": 0,
            "theta_shift": 0.0,
            "zero_diag": False,
            "tol": 1e-6,
        },
        accepts={
            "cv": POSITIVE_REAL,
            "sigma": NONNEG_REAL,
            "n": POSITIVE_REAL,
            "rng": SEED,
            "theta_shift": ANY_REAL,
            "zero_diag": {"true"},
            "tol": NONNEG_REAL,
        },
    ),
    Baseline(
        network.paired_ensemble_spectrum,
        {"N": 20, "alpha": 0.3, "sigma_x": 1.0, "sigma_y": 2.0, "tau": 0.2, "rng": 0},
        accepts={
            "sigma_x": POSITIVE_REAL,
            "sigma_y": POSITIVE_REAL,
            "tau": {"zero", "minus_one"},
            "rng": SEED,
        },
    ),
    # structure
    Baseline(
        structure.activation_curves,
        {"sigma": 1.0, "n": 1.5, "v_min": -3.0, "v_max": 3.0, "points": 21},
        accepts={
            "sigma": POSITIVE_REAL,
            "n": POSITIVE_REAL,
            "v_min": {"zero", "minus_one", "float_for_int"},
            "v_max": ANY_REAL,
        },
    ),
    Baseline(
        structure.lognormal_density,
        {"r": np.array([0.5, 1.0, 2.0]), "cv": 1.0, "f": 1.0},
        accepts={"r": NONNEG_REAL | ELEMENTWISE, "cv": POSITIVE_REAL},
    ),
    Baseline(
        structure.pattern_density,
        {"cv": 1.0, "f": 1.0, "N": 200, "rng": 0, "bins": 10},
        accepts={"cv": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        structure.asymmetry_index,
        {"W": np.array([[0.0, 1.0], [0.0, 0.5]])},
        accepts={"W": FINITE_ENTRIES},
    ),
    Baseline(
        structure.henrici_departure,
        {"J": np.array([[1.0, 2.0], [0.0, 3.0]]), "eigenvalues": np.array([1.0, 3.0])},
        accepts={"J": FINITE_ENTRIES, "eigenvalues": NONE_OK | {"complex_array"}},
    ),
    Baseline(
        structure.weight_statistics,
        {"net": _NET, "pattern": 1, "henrici": True},
        accepts={"pattern": {"zero"}, "henrici": {"true"}},
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
            "cv": 1.0,
            "sigma": 1.0,
            "n": 1.0,
            "alphas": [0.2, 0.5],
            "rng": 0,
            "theta_shift": 0.0,
            "zero_diag": True,
            "henrici": True,
        },
        accepts={
            "cv": POSITIVE_REAL,
            "sigma": POSITIVE_REAL,
            "n": POSITIVE_REAL,
            "rng": SEED,
            "theta_shift": ANY_REAL,
            "zero_diag": {"true"},
            "henrici": {"true"},
        },
    ),
    Baseline(
        structure.weight_snapshot,
        {
            "alpha": 0.3,
            "cv": 1.0,
            "N": 12,
            "sigma": 1.0,
            "n": 1.0,
            "rng": 0,
            "zero_diag": False,
            "pairs": 5,
        },
        accepts={
            "cv": POSITIVE_REAL,
            "sigma": POSITIVE_REAL,
            "n": POSITIVE_REAL,
            "rng": SEED,
            "zero_diag": {"true"},
        },
    ),
    Baseline(
        structure.recall_demo,
        {
            "alpha": 0.2,
            "n": 1.0,
            "N": 12,
            "cv": 1.0,
            "sigma": 1.0,
            "kick": 0.01,
            "direction": "random",
            "T": 1.0,
            "dt": 0.1,
            "rng": 0,
        },
        accepts={
            "n": POSITIVE_REAL,
            "cv": POSITIVE_REAL,
            "sigma": POSITIVE_REAL,
            "T": {"float_for_int"},
            "rng": SEED,
        },
    ),
    # ensemble
    Baseline(
        ensemble.ensemble_view,
        {"N": 20, "alpha": 0.3, "rho_xy": 0.2, "sigma_ratio": 0.5, "c": 1.0, "seed": 0},
        accepts={
            "rho_xy": {"zero", "minus_one"},
            "sigma_ratio": POSITIVE_REAL,
            "c": ANY_REAL,
            "seed": {"zero"},
        },
    ),
    Baseline(
        ensemble.ensemble_grid,
        {
            "alphas": [0.2, 0.5],
            "rhos": [0.0, 0.5],
            "N": 20,
            "sigma_x": 1.0,
            "sigma_y": 2.0,
            "c": 0.0,
            "seed": 0,
        },
        accepts={
            "rhos": {"zero", "minus_one"},
            "sigma_x": POSITIVE_REAL,
            "sigma_y": POSITIVE_REAL,
            "c": ANY_REAL,
            "seed": {"zero"},
        },
    ),
    Baseline(
        ensemble.finite_size_edge,
        {"N_values": [20, 40], "alpha": 0.2, "rho_xy": 0.0, "sigma_ratio": 0.5, "seeds": 2},
        accepts={"rho_xy": {"zero"}, "sigma_ratio": POSITIVE_REAL},
    ),
    Baseline(
        ensemble.network_ensemble,
        {"theory": _THEORY, "alpha": 0.2},
        accepts={"alpha": {"zero"}},
    ),
    Baseline(
        ensemble.surrogate_view,
        {"theory": _THEORY, "N": 20, "alpha": 0.2, "kind": "lognormal", "seed": 0},
        accepts={"seed": {"zero"}},
    ),
    Baseline(
        ensemble.reduction_check,
        {"net": _NET, "pattern": 1, "tol": 1e-8},
        accepts={"pattern": {"zero"}, "tol": POSITIVE_REAL},
    ),
]

test_matrix, test_coverage, test_baseline = matrix_tests(
    BASELINES,
    [
        "assocmem.attractor.rates",
        "assocmem.attractor.meanfield",
        "assocmem.attractor.network",
        "assocmem.attractor.structure",
        "assocmem.attractor.ensemble",
    ],
)
