"""Bad-input matrix over ``assocmem.linear_memory`` (the harness is ``tests/badinput.py``).

Baselines are tiny (d of a few units, p of a few facts, two Adam steps) so that every cell of
the matrix, including those that run a whole sweep, stays in the millisecond range.
"""

from __future__ import annotations

import numpy as np
from badinput import (
    ANY_REAL,
    BOOL,
    FINITE_ENTRIES,
    NONE_OK,
    POSITIVE_REAL,
    SEED,
    Baseline,
    matrix_tests,
)

from assocmem.linear_memory import (
    capacity,
    energetic,
    hebbian,
    mechanism,
    problem,
    spectra,
    sweep,
    toy,
    training,
    volume,
)

ZERO = frozenset({"zero"})
STR = frozenset({"str"})
# A grid of loads α > 0 also takes one load (a scalar), and any finite positive entries.
LOADS = POSITIVE_REAL | FINITE_ENTRIES
# Elementwise functions of x (densities, CDFs, the rate function): any finite real x, any shape,
# the empty array included ("same shape as x"), as NumPy's ufuncs.
ELEMENTWISE = ANY_REAL | FINITE_ENTRIES | frozenset({"empty", "misshaped"})

INST = problem.sample_problem(d=2, p=4, problem="original", rng=0)
W2 = np.array([[1.0, 0.5], [-0.3, 2.0]])
EDGES = np.linspace(-3.0, 3.0, 5)

BASELINES = [
    # capacity
    Baseline(capacity.load, {"p": 10, "d": 5}),
    Baseline(capacity.p_at_load, {"alpha": 0.5, "d": 4}, accepts={"alpha": POSITIVE_REAL}),
    Baseline(capacity.capacity_two_layer, {"kappa": 0.5}),
    Baseline(capacity.finite_p_capacity, {"p": 10}),
    Baseline(
        capacity.rs_overlap,
        {"alpha": 0.2, "tol": 1e-13, "max_iter": 100},
        accepts={"tol": POSITIVE_REAL},
    ),
    Baseline(capacity.rs_free_entropy, {"alpha": 0.2}),
    Baseline(
        capacity.rs_free_entropy_curve,
        {"alpha": 0.2, "q_grid": np.array([0.0, 0.4])},
        accepts={"q_grid": ZERO},
    ),
    # energetic
    Baseline(energetic.energetic_G, {"t": np.array([0.0, 0.5])}, accepts={"t": ZERO}),
    Baseline(energetic.energetic_bounds, {"t": np.array([0.0, 0.5])}, accepts={"t": ZERO}),
    Baseline(
        energetic.log_f_p,
        {"t": np.array([0.0, 0.3]), "eta": np.array([0.5, -0.2, 0.1]), "step": 0.1},
        accepts={"t": ZERO, "eta": FINITE_ENTRIES},
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
        accepts={"t": ZERO, "rng": SEED, "backend": NONE_OK},
    ),
    Baseline(energetic.free_entropy_landscape, {"alpha": 0.2, "n_q": 3, "n_alpha": 2}),
    Baseline(
        energetic.finite_p_capacity_mc,
        {"p": np.array([2, 5]), "samples": 4, "rng": 0, "top": 8, "nodes": 4},
        accepts={"rng": SEED},
    ),
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
        accepts={"alphas": LOADS, "seed": ZERO, "stop_at_violation": BOOL},
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
            "ce_alphas": NONE_OK | LOADS,
            "seed": ZERO,
            "p_curve": NONE_OK,
        },
    ),
    # hebbian
    Baseline(
        hebbian.hebbian_rate_function,
        {"x": np.array([0.5, 1.0]), "alpha": 0.125},
        accepts={"x": ELEMENTWISE, "alpha": POSITIVE_REAL},
    ),
    Baseline(hebbian.hebbian_rate, {"alpha": 0.125}, accepts={"alpha": POSITIVE_REAL}),
    Baseline(
        hebbian.hebbian_rate_curve,
        {"p": 100.0, "alpha_min": 0.02, "alpha_max": 1.0, "n": 2},
        accepts={"p": POSITIVE_REAL, "alpha_max": POSITIVE_REAL},
    ),
    Baseline(hebbian.hebbian_score_variances, {"p": 10, "d": 5, "model": "finite_d"}),
    Baseline(hebbian.hebbian_accuracy_model, {"p": 10, "d": 5, "model": "finite_d"}),
    Baseline(hebbian.hebbian_threshold_at_p, {"p": 100.0}, accepts={"p": POSITIVE_REAL}),
    Baseline(hebbian.hebbian_threshold_at_d, {"d": 10, "model": "row"}),
    Baseline(
        hebbian.hebbian_sweep,
        {"d": 2, "alphas": np.array([0.5]), "reps": 1, "seed": 0},
        accepts={"reps": ZERO, "seed": ZERO, "alphas": LOADS},
    ),
    Baseline(
        hebbian.hebbian_histogram,
        {"alpha": 0.5, "d": 4, "seed": 0, "bins": 4, "n_non_target": 10},
        accepts={"alpha": POSITIVE_REAL, "seed": ZERO},
    ),
    # mechanism
    Baseline(mechanism.expected_gaussian_max, {"n": 5}),
    Baseline(
        mechanism.score_summary,
        {"W": W2, "problem": INST, "rule": "", "bin_edges": EDGES},
        accepts={"W": FINITE_ENTRIES, "rule": STR, "bin_edges": NONE_OK},
    ),
    Baseline(
        mechanism.row_view,
        {"W": W2, "problem": INST, "row": 1, "bin_edges": EDGES},
        accepts={"W": FINITE_ENTRIES, "row": NONE_OK | ZERO, "bin_edges": NONE_OK},
    ),
    Baseline(
        mechanism.score_mechanism,
        {
            "d": 2,
            "alpha": 0.5,
            "problem": "original",
            "seed": 0,
            "steps": 2,
            "bin_edges": EDGES,
        },
        accepts={"alpha": POSITIVE_REAL, "seed": ZERO, "bin_edges": NONE_OK},
    ),
    Baseline(
        mechanism.score_mechanism_sweep,
        {
            "d": 2,
            "alphas": np.array([0.5]),
            "problem": "original",
            "seed": 0,
            "steps": 2,
            "bin_edges": EDGES,
        },
        accepts={"alphas": LOADS, "seed": ZERO, "bin_edges": NONE_OK},
    ),
    # problem
    Baseline(
        problem.sample_problem,
        {"d": 2, "p": 3, "problem": "original", "rng": 0},
        accepts={"rng": SEED},
    ),
    Baseline(problem.hebbian_weights, {"problem": INST}),
    Baseline(problem.scores, {"W": W2, "problem": INST}, accepts={"W": FINITE_ENTRIES}),
    Baseline(
        problem.accuracy,
        {"W": W2, "problem": INST, "chunk_size": 512},
        accepts={"W": FINITE_ENTRIES},
    ),
    Baseline(
        problem.normalised_scores,
        {"W": W2, "problem": INST, "n_non_target": None, "rng": 0, "chunk_size": 512},
        accepts={"W": FINITE_ENTRIES, "n_non_target": NONE_OK, "rng": SEED},
    ),
    Baseline(
        problem.lp_feasible,
        {"problem": INST, "tol": 1e-7},
        accepts={"tol": POSITIVE_REAL},
    ),
    # spectra
    Baseline(
        spectra.singular_values,
        {"W": W2, "rank": None, "normalise": "none", "second_moment": None},
        accepts={"W": FINITE_ENTRIES, "rank": NONE_OK, "second_moment": NONE_OK},
        name="singular_values",
    ),
    Baseline(
        spectra.quarter_circle_density,
        {"x": np.array([0.0, 1.0, 3.0])},
        accepts={"x": ELEMENTWISE},
    ),
    Baseline(
        spectra.quarter_circle_cdf,
        {"x": np.array([0.0, 1.0, 3.0])},
        accepts={"x": ELEMENTWISE},
    ),
    Baseline(spectra.quarter_circle_quantile, {"q": 0.5}, accepts={"q": ZERO}),
    Baseline(
        spectra.truncated_quarter_circle_density,
        {"x": np.array([0.0, 1.0, 3.0]), "kappa": 0.5},
        accepts={"x": ELEMENTWISE},
    ),
    Baseline(
        spectra.truncated_quarter_circle_cdf,
        {"x": np.array([0.0, 1.0, 3.0]), "kappa": 0.5},
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
        accepts={"W": FINITE_ENTRIES, "rank": NONE_OK},
    ),
    Baseline(
        spectra.top_energy_fraction,
        {"W": W2, "rank": 1},
        accepts={"W": FINITE_ENTRIES},
    ),
    Baseline(spectra.rank_capacity, {"kappa": 0.5}),
    Baseline(
        spectra.eckart_young,
        {"kappa": 0.5, "d": 4, "rng": 0, "bins": 4},
        accepts={"rng": SEED},
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
        accepts={"alpha": POSITIVE_REAL, "seed": ZERO},
    ),
    # sweep
    Baseline(
        sweep.sweep_instance,
        {"d": 2, "alpha": 0.5, "rep": 0, "problem": "original", "kappa": 1.0, "seed": 0},
        accepts={"alpha": POSITIVE_REAL, "rep": ZERO, "seed": ZERO},
    ),
    Baseline(
        sweep.accuracy_sweep,
        {
            "d": 2,
            "alphas": np.array([0.5]),
            "reps": 1,
            "problem": "original",
            "kappa": 1.0,
            "steps": 2,
            "lr": 0.01,
            "early_stop": 0.999,
            "dtype": "float32",
            "seed": 0,
        },
        accepts={
            "alphas": LOADS,
            "lr": POSITIVE_REAL,
            "early_stop": NONE_OK,
            "seed": ZERO,
        },
    ),
    Baseline(
        sweep.threshold_scan,
        {
            "ds": np.array([2]),
            "alphas": np.array([0.5]),
            "reps": 1,
            "problem": "original",
            "kappa": 1.0,
            "steps": 2,
            "lr": 0.01,
            "early_stop": 1.0,
            "dtype": "float32",
            "seed": 0,
        },
        accepts={
            "alphas": LOADS,
            "lr": POSITIVE_REAL,
            "early_stop": NONE_OK,
            "seed": ZERO,
        },
    ),
    Baseline(
        sweep.learning_curve,
        {
            "d": 2,
            "alpha": 0.5,
            "steps": 2,
            "problem": "original",
            "kappa": 1.0,
            "lr": 0.01,
            "early_stop": 0.999,
            "dtype": "float32",
            "seed": 0,
            "rep": 0,
        },
        accepts={
            "alpha": POSITIVE_REAL,
            "lr": POSITIVE_REAL,
            "early_stop": NONE_OK,
            "seed": ZERO,
            "rep": ZERO,
        },
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
        accepts={"steps": ZERO, "seed": ZERO, "lr": POSITIVE_REAL},
    ),
    Baseline(
        toy.counting_curve,
        {"alpha": 0.5, "d_min": 10, "d_max": 20, "n": 2},
        accepts={"alpha": POSITIVE_REAL},
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
        accepts={"t": ZERO, "lr": POSITIVE_REAL, "warmup": ZERO},
    ),
    Baseline(
        training.loss_and_grad,
        {"W": W2, "problem": INST},
        accepts={"W": FINITE_ENTRIES},
    ),
    Baseline(
        training.loss_and_grad_factors,
        {"Q": np.array([[1.0], [0.5]]), "R": np.array([[-0.3], [2.0]]), "problem": INST},
        accepts={"Q": FINITE_ENTRIES, "R": FINITE_ENTRIES},
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
        },
        accepts={
            "lr": POSITIVE_REAL,
            "warmup": ZERO,
            "early_stop": NONE_OK,
            "rng": SEED,
            "init": NONE_OK | POSITIVE_REAL,
        },
    ),
    # volume
    Baseline(
        volume.first_moment_mc,
        {"d": 2, "p": 2, "problem": "decoupled", "draws": 10, "rng": 0, "sampler": "direct"},
        accepts={"rng": SEED},
    ),
    Baseline(
        volume.first_moment_pair,
        {"d": 2, "p": 2, "draws": 10, "seed": 0, "sampler": "gram"},
        accepts={"seed": ZERO},
    ),
]

test_matrix, test_coverage, test_baseline = matrix_tests(
    BASELINES,
    [
        "assocmem.linear_memory.capacity",
        "assocmem.linear_memory.energetic",
        "assocmem.linear_memory.hebbian",
        "assocmem.linear_memory.mechanism",
        "assocmem.linear_memory.problem",
        "assocmem.linear_memory.spectra",
        "assocmem.linear_memory.sweep",
        "assocmem.linear_memory.toy",
        "assocmem.linear_memory.training",
        "assocmem.linear_memory.volume",
    ],
)
