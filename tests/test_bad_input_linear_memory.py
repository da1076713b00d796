"""Bad-input matrix over ``assocmem.linear_memory`` (the harness is ``tests/badinput.py``).

Baselines are tiny (d of a few units, p of a few facts, two Adam steps) so that every cell of
the matrix, including those that run a whole sweep, stays in the millisecond range.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.linear_memory import (
    capacity,
    energetic,
    finite_p,
    hebbian,
    mechanism,
    problem,
    spectra,
    sweep,
    toy,
    training,
    volume,
)

# A grid of loads α > 0 also takes one load (a scalar), and any finite positive entries.
LOADS = bad.POSITIVE_REAL | bad.FINITE_ENTRIES
# Elementwise functions of x (densities, CDFs, the rate function): any finite real x, any shape,
# the empty array included ("same shape as x"), as NumPy's ufuncs.
ELEMENTWISE = bad.ANY_REAL | bad.FINITE_ENTRIES | frozenset({"empty", "misshaped"})

INST = problem.sample_problem(d=2, p=4, problem="original", rng=0)
W2 = np.array([[1.0, 0.5], [-0.3, 2.0]])
EDGES = np.linspace(-3.0, 3.0, 5)
X = np.array([0.0, 1.0, 3.0])
# Shared calls (a score mechanism run, an Adam training run) and what they accept.
MECHANISM = {"d": 2, "problem": "original", "seed": 0, "steps": 2, "bin_edges": EDGES}
MECHANISM_OK = {"seed": bad.ZERO, "bin_edges": bad.NONE_OK}
TRAINING = {"problem": "original", "kappa": 1.0, "steps": 2, "lr": 0.01, "dtype": "float32"}
TRAINING_OK = {"lr": bad.POSITIVE_REAL, "early_stop": bad.NONE_OK, "seed": bad.ZERO}

BASELINES = [
    # capacity
    Baseline(capacity.load, {"p": 10, "d": 5}),
    Baseline(capacity.p_at_load, {"alpha": 0.5, "d": 4}, accepts={"alpha": bad.POSITIVE_REAL}),
    Baseline(capacity.capacity_two_layer, {"kappa": 0.5}),
    Baseline(capacity.finite_p_capacity, {"p": 10}),
    Baseline(
        capacity.rs_overlap,
        {"alpha": 0.2, "tol": 1e-13, "max_iter": 100},
        accepts={"tol": bad.POSITIVE_REAL},
    ),
    Baseline(capacity.rs_free_entropy, {"alpha": 0.2}),
    Baseline(
        capacity.rs_free_entropy_curve,
        {"alpha": 0.2, "q_grid": np.array([0.0, 0.4])},
        accepts={"q_grid": bad.ZERO},
    ),
    # energetic
    Baseline(energetic.energetic_G, {"t": np.array([0.0, 0.5])}, accepts={"t": bad.ZERO}),
    Baseline(energetic.energetic_bounds, {"t": np.array([0.0, 0.5])}, accepts={"t": bad.ZERO}),
    Baseline(
        energetic.log_f_p,
        {"t": np.array([0.0, 0.3]), "eta": np.array([0.5, -0.2, 0.1]), "step": 0.1},
        accepts={"t": bad.ZERO, "eta": bad.FINITE_ENTRIES},
    ),
    Baseline(
        energetic.energetic_G_mc,
        {
            "t": np.array([0.0, 0.3]),
            "p": 5,
            "samples": 2,
            "rng": 0,
            "eta1": "quadrature",
            "nodes": 4,
            "step": 0.1,
            "backend": None,
        },
        accepts={"t": bad.ZERO, "rng": bad.SEED, "backend": bad.NONE_OK},
    ),
    Baseline(energetic.free_entropy_landscape, {"alpha": 0.2, "n_q": 3, "n_alpha": 2}),
    Baseline(
        energetic.lp_threshold_scan,
        {
            "d": 2,
            "alphas": np.array([0.5]),
            "instances": 1,
            "problem": "original",
            "seed": 0,
            "stop_at_violation": True,
        },
        accepts={"alphas": LOADS, "seed": bad.ZERO, "stop_at_violation": bad.BOOL},
    ),
    Baseline(
        energetic.finite_size_scaling,
        {
            "lp_dims": np.array([2]),
            "lp_alphas": np.array([0.5]),
            "ce_dims": (),
            "ce_alphas": None,
            "instances": 1,
            "reps": 1,
            "problem": "original",
            "seed": 0,
            "p_curve": np.array([10]),
            "samples": 2,
        },
        accepts={
            "lp_alphas": LOADS,
            "ce_alphas": bad.NONE_OK | LOADS,
            "seed": bad.ZERO,
            "p_curve": bad.NONE_OK,
        },
    ),
    # finite_p
    Baseline(
        finite_p.finite_p_capacity_mc,
        {"p": np.array([2, 5]), "samples": 4, "rng": 0, "top": 8, "nodes": 4},
        accepts={"rng": bad.SEED},
    ),
    # hebbian
    Baseline(
        hebbian.hebbian_rate_function,
        {"x": np.array([0.5, 1.0]), "alpha": 0.125},
        accepts={"x": ELEMENTWISE, "alpha": bad.POSITIVE_REAL},
    ),
    Baseline(hebbian.hebbian_rate, {"alpha": 0.125}, accepts={"alpha": bad.POSITIVE_REAL}),
    Baseline(
        hebbian.hebbian_rate_curve,
        {"p": 100.0, "alpha_min": 0.02, "alpha_max": 1.0, "n": 2},
        accepts={"p": bad.POSITIVE_REAL, "alpha_max": bad.POSITIVE_REAL},
    ),
    Baseline(hebbian.hebbian_score_variances, {"p": 10, "d": 5, "model": "finite_d"}),
    Baseline(hebbian.hebbian_accuracy_model, {"p": 10, "d": 5, "model": "finite_d"}),
    Baseline(hebbian.hebbian_threshold_at_p, {"p": 100.0}, accepts={"p": bad.POSITIVE_REAL}),
    Baseline(hebbian.hebbian_threshold_at_d, {"d": 10, "model": "row"}),
    Baseline(
        hebbian.hebbian_sweep,
        {"d": 2, "alphas": np.array([0.5]), "reps": 1, "seed": 0},
        accepts={"reps": bad.ZERO, "seed": bad.ZERO, "alphas": LOADS},
    ),
    Baseline(
        hebbian.hebbian_histogram,
        {"alpha": 0.5, "d": 4, "seed": 0, "bins": 4, "n_non_target": 10},
        accepts={"alpha": bad.POSITIVE_REAL, "seed": bad.ZERO},
    ),
    # mechanism
    Baseline(mechanism.expected_gaussian_max, {"n": 5}),
    Baseline(
        mechanism.score_summary,
        {"W": W2, "problem": INST, "rule": "", "bin_edges": EDGES},
        accepts={"W": bad.FINITE_ENTRIES, "rule": bad.STR, "bin_edges": bad.NONE_OK},
    ),
    Baseline(
        mechanism.row_view,
        {"W": W2, "problem": INST, "row": 1, "bin_edges": EDGES},
        accepts={"W": bad.FINITE_ENTRIES, "row": bad.NONE_OK | bad.ZERO, "bin_edges": bad.NONE_OK},
    ),
    Baseline(
        mechanism.score_mechanism,
        {**MECHANISM, "alpha": 0.5},
        accepts={**MECHANISM_OK, "alpha": bad.POSITIVE_REAL},
    ),
    Baseline(
        mechanism.score_mechanism_sweep,
        {**MECHANISM, "alphas": np.array([0.5])},
        accepts={**MECHANISM_OK, "alphas": LOADS},
    ),
    # problem
    Baseline(
        problem.sample_problem,
        {"d": 2, "p": 3, "problem": "original", "rng": 0},
        accepts={"rng": bad.SEED},
    ),
    Baseline(problem.hebbian_weights, {"problem": INST}),
    Baseline(problem.scores, {"W": W2, "problem": INST}, accepts={"W": bad.FINITE_ENTRIES}),
    Baseline(
        problem.accuracy,
        {"W": W2, "problem": INST, "chunk_size": 512},
        accepts={"W": bad.FINITE_ENTRIES},
    ),
    Baseline(
        problem.normalised_scores,
        {"W": W2, "problem": INST, "n_non_target": None, "rng": 0, "chunk_size": 512},
        accepts={"W": bad.FINITE_ENTRIES, "n_non_target": bad.NONE_OK, "rng": bad.SEED},
    ),
    Baseline(
        problem.lp_feasible,
        {"problem": INST, "tol": 1e-7},
        accepts={"tol": bad.POSITIVE_REAL},
    ),
    # spectra
    Baseline(
        spectra.singular_values,
        {"W": W2, "rank": None, "normalise": "none", "second_moment": None},
        accepts={"W": bad.FINITE_ENTRIES, "rank": bad.NONE_OK, "second_moment": bad.NONE_OK},
        name="singular_values",
    ),
    Baseline(spectra.quarter_circle_density, {"x": X}, accepts={"x": ELEMENTWISE}),
    Baseline(spectra.quarter_circle_cdf, {"x": X}, accepts={"x": ELEMENTWISE}),
    Baseline(spectra.quarter_circle_quantile, {"q": 0.5}, accepts={"q": bad.ZERO}),
    Baseline(
        spectra.truncated_quarter_circle_density,
        {"x": X, "kappa": 0.5},
        accepts={"x": ELEMENTWISE},
    ),
    Baseline(
        spectra.truncated_quarter_circle_cdf,
        {"x": X, "kappa": 0.5},
        accepts={"x": ELEMENTWISE},
    ),
    Baseline(
        spectra.mp_product_density,
        {"x": np.array([-1.0, 0.5, 2.0, 9.0]), "kappa": 0.5, "variable": "squared"},
        accepts={"x": ELEMENTWISE},
    ),
    Baseline(spectra.mp_product_support, {"kappa": 0.5}),
    Baseline(
        spectra.spectrum_comparison,
        {
            "W": np.arange(16.0).reshape(4, 4) % 5,
            "law": "quarter_circle",
            "kappa": 1.0,
            "rank": None,
            "normalise": "moment",
            "bins": 4,
        },
        accepts={"W": bad.FINITE_ENTRIES, "rank": bad.NONE_OK},
    ),
    Baseline(spectra.top_energy_fraction, {"W": W2, "rank": 1}, accepts={"W": bad.FINITE_ENTRIES}),
    Baseline(spectra.rank_capacity, {"kappa": 0.5}),
    Baseline(
        spectra.eckart_young,
        {"kappa": 0.5, "d": 4, "rng": 0, "bins": 4},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        spectra.trained_spectrum,
        {
            "alpha": 0.5,
            "kappa": 1.0,
            "d": 2,
            "reps": 1,
            "problem": "original",
            "seed": 0,
            "steps": 2,
            "dtype": "float32",
            "normalise": "moment",
            "bins": 4,
        },
        accepts={"alpha": bad.POSITIVE_REAL, "seed": bad.ZERO},
    ),
    # sweep
    Baseline(
        sweep.sweep_instance,
        {"d": 2, "alpha": 0.5, "rep": 0, "problem": "original", "kappa": 1.0, "seed": 0},
        accepts={"alpha": bad.POSITIVE_REAL, "rep": bad.ZERO, "seed": bad.ZERO},
    ),
    Baseline(
        sweep.accuracy_sweep,
        {**TRAINING, "d": 2, "alphas": np.array([0.5]), "reps": 1, "early_stop": 0.999, "seed": 0},
        accepts={**TRAINING_OK, "alphas": LOADS},
    ),
    Baseline(
        sweep.threshold_scan,
        {
            **TRAINING,
            "ds": np.array([2]),
            "alphas": np.array([0.5]),
            "reps": 1,
            "early_stop": 1.0,
            "seed": 0,
        },
        accepts={**TRAINING_OK, "alphas": LOADS},
    ),
    Baseline(
        sweep.learning_curve,
        {**TRAINING, "d": 2, "alpha": 0.5, "early_stop": 0.999, "seed": 0, "rep": 0},
        accepts={**TRAINING_OK, "alpha": bad.POSITIVE_REAL, "rep": bad.ZERO},
    ),
    # toy
    Baseline(
        toy.score_snapshot,
        {
            "d": 2,
            "p": 3,
            "steps": 0,
            "problem": "original",
            "rule": "trained",
            "seed": 0,
            "lr": 0.01,
        },
        accepts={"steps": bad.ZERO, "seed": bad.ZERO, "lr": bad.POSITIVE_REAL},
    ),
    Baseline(
        toy.snapshot_accuracies,
        {
            "d": 2,
            "p": 3,
            "steps": 0,
            "problem": "original",
            "rule": "trained",
            "instances": 2,
            "lr": 0.01,
        },
        accepts={"steps": bad.ZERO, "lr": bad.POSITIVE_REAL},
    ),
    Baseline(
        toy.counting_curve,
        {"alpha": 0.5, "d_min": 10, "d_max": 20, "n": 2},
        accepts={"alpha": bad.POSITIVE_REAL},
    ),
    Baseline(
        toy.load_table,
        {"alphas": np.array([0.5, 1.0]), "ds": np.array([4])},
        accepts={"alphas": LOADS},
    ),
    # training
    Baseline(
        training.learning_rate,
        {"t": 0, "steps": 4, "lr": 0.01, "warmup": 1},
        accepts={"t": bad.ZERO, "lr": bad.POSITIVE_REAL, "warmup": bad.ZERO},
    ),
    Baseline(training.loss_and_grad, {"W": W2, "problem": INST}, accepts={"W": bad.FINITE_ENTRIES}),
    Baseline(
        training.loss_and_grad_factors,
        {"Q": np.array([[1.0], [0.5]]), "R": np.array([[-0.3], [2.0]]), "problem": INST},
        accepts={"Q": bad.FINITE_ENTRIES, "R": bad.FINITE_ENTRIES},
    ),
    Baseline(
        training.train,
        {
            "problem": INST,
            "kappa": 1.0,
            "steps": 2,
            "lr": 0.01,
            "warmup": 1,
            "early_stop": 0.999,
            "rng": 0,
            "init": None,
            "dtype": "float64",
            "check_every": 1,
        },
        accepts={
            "lr": bad.POSITIVE_REAL,
            "warmup": bad.ZERO,
            "early_stop": bad.NONE_OK,
            "rng": bad.SEED,
            "init": bad.NONE_OK | bad.POSITIVE_REAL,
            "check_every": bad.NONE_OK,
        },
    ),
    # volume
    Baseline(
        volume.first_moment_mc,
        {"d": 2, "p": 2, "problem": "decoupled", "draws": 10, "rng": 0, "sampler": "direct"},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        volume.first_moment_pair,
        {"d": 2, "p": 2, "draws": 10, "seed": 0, "sampler": "gram"},
        accepts={"seed": bad.ZERO},
    ),
]

MODULES = [
    f"assocmem.linear_memory.{m}"
    for m in (
        "capacity",
        "energetic",
        "finite_p",
        "hebbian",
        "mechanism",
        "problem",
        "spectra",
        "sweep",
        "toy",
        "training",
        "volume",
    )
]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
