"""Bad-input matrix over ``assocmem.dense_am`` capacity, emergence, generative and minima.

The harness is ``tests/badinput.py``; each baseline is a small valid call with every parameter
given by keyword, and ``accepts`` lists the bad-value labels that are valid for a parameter.
"""

from __future__ import annotations

import numpy as np
from badinput import (
    BOOL,
    FINITE_ENTRIES,
    NONE_OK,
    NONNEG_REAL,
    POSITIVE_REAL,
    SEED,
    Baseline,
    matrix_tests,
)

from assocmem.dense_am import capacity, emergence, generative, minima

_LINE = np.array([[0.0], [1.0]])
_TRIO = np.array([[0.0], [1.0], [1.8]])
_PLANE = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
_SWEEP = emergence.emergence_sweep(d=2, M=4, seed=0, n_beta=4, support_samples=0)
_GMM_XI, _GMM_MU = generative.gmm_sample(k=2, d=2, sigma=0.1, M=4, rng=0)
_LATENT = generative.digits_latent(n_images=4, n_components=2, rng=0)
_POS_INT_FLOAT = POSITIVE_REAL | FINITE_ENTRIES

BASELINES = [
    # ---- capacity ---------------------------------------------------------------------------
    Baseline(capacity.ball_volume, {"d": 2}),
    Baseline(
        capacity.min_pairwise_distance,
        {"memories": [[0.0, 0.0], [3.0, 4.0], [10.0, 0.0]]},
        accepts={"memories": FINITE_ENTRIES},
    ),
    Baseline(
        capacity.min_distance_samples,
        {"d": 2, "M": 3, "n_trials": 5, "rng": 0},
        accepts={"rng": SEED},
    ),
    Baseline(
        capacity.collision_bound,
        {"eps": np.array([0.01, 0.02]), "d": 2, "M": 10, "V": 1.0},
        accepts={"eps": NONNEG_REAL | FINITE_ENTRIES, "V": POSITIVE_REAL},
    ),
    Baseline(
        capacity.alpha_form,
        {"alpha": 0.5, "d": 8, "M": 10, "V": 1.0},
        accepts={"alpha": POSITIVE_REAL, "V": POSITIVE_REAL},
    ),
    Baseline(
        capacity.success_probability,
        {"alpha": 0.5, "d": 2, "M": 3, "n_trials": 5, "rng": 0},
        accepts={"alpha": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        capacity.active_set_size_samples,
        {"d": 2, "M": 5, "beta": 200.0, "n_queries": 5, "rng": 0},
        accepts={"beta": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        capacity.eq11_band,
        {"d": 2, "M": 1000, "beta": 200.0},
        accepts={"beta": POSITIVE_REAL},
    ),
    Baseline(
        capacity.count_bound_log,
        {"M": 18, "d": 8, "beta": 3.8, "V": 1.0},
        accepts={"beta": POSITIVE_REAL, "V": POSITIVE_REAL},
    ),
    Baseline(
        capacity.capacity_experiment,
        {"d": 2, "M": 3, "alpha": 0.5, "n_trials": 5, "rng": 0},
        accepts={"alpha": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        capacity.capacity_curve,
        {"d": 2, "Ms": [2, 3], "alpha": 0.5, "n_trials": 5, "rng": 0},
        accepts={"alpha": POSITIVE_REAL, "rng": SEED},
    ),
    # ---- emergence --------------------------------------------------------------------------
    Baseline(emergence.regular_simplex, {"M": 3, "a": 1.0}, accepts={"a": POSITIVE_REAL}),
    Baseline(emergence.simplex_window, {"M": 3, "a": 1.0}, accepts={"a": POSITIVE_REAL}),
    Baseline(
        emergence.regular_polygon,
        {"n": 4, "circumradius": 1.0},
        accepts={"circumradius": POSITIVE_REAL},
    ),
    Baseline(
        emergence.equilateral_triangle,
        {"circumradius": 1.0},
        accepts={"circumradius": POSITIVE_REAL},
    ),
    Baseline(
        emergence.grid_memories,
        {"n": 2, "d": 2, "spacing": 1.0},
        accepts={"spacing": POSITIVE_REAL},
    ),
    Baseline(
        emergence.emergence_report,
        {"memories": _LINE, "beta": 4.0, "eps_novel": 0.1},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL, "eps_novel": NONNEG_REAL},
    ),
    Baseline(
        emergence.prop2_check,
        {"memories": _TRIO, "beta": 2.0, "x": np.array([0.4])},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL, "x": FINITE_ENTRIES},
    ),
    Baseline(emergence.prop2_counterexample, {}),
    Baseline(
        emergence.extreme_points,
        {"memories": np.array([[-1.0], [0.0], [1.0]])},
        accepts={"memories": FINITE_ENTRIES},
    ),
    Baseline(
        emergence.lse_hull_vertex_gradients,
        {"memories": np.array([[-1.0], [0.0], [1.0]]), "betas": np.array([1.0, 10.0])},
        accepts={"memories": FINITE_ENTRIES, "betas": _POS_INT_FLOAT},
    ),
    Baseline(
        emergence.grid_minima_counts,
        {"ns": [4], "d": 1, "radius_over_spacing": 0.7},
        accepts={"radius_over_spacing": POSITIVE_REAL},
    ),
    Baseline(
        emergence.polygon_minima,
        {"n_vertices": 3, "radius": 1.2, "circumradius": 1.0},
        accepts={"radius": POSITIVE_REAL, "circumradius": POSITIVE_REAL},
    ),
    Baseline(
        emergence.simplex_count_experiment,
        {"Ms": [3], "a": 1.0, "beta": None},
        accepts={"a": POSITIVE_REAL, "beta": POSITIVE_REAL | NONE_OK},
    ),
    Baseline(
        emergence.emergence_sweep,
        {"d": 2, "M": 4, "seed": 0, "n_beta": 3, "support_samples": 0},
        accepts={"seed": SEED, "support_samples": SEED},
    ),
    Baseline(
        emergence.emergence_peaks,
        {"ds": [2], "M": 4, "seeds": [0], "n_beta": 2, "support_samples": 0},
        accepts={"support_samples": SEED},
    ),
    Baseline(
        emergence.largest_beta_counterexample,
        {"memories": _TRIO, "margin": 1e-3},
        accepts={"memories": FINITE_ENTRIES, "margin": POSITIVE_REAL},
    ),
    Baseline(
        emergence.basin_survey,
        {"memories": _LINE, "beta": 4.0, "n_samples": 5, "rng": 0},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        emergence.capacity_panel,
        {"d": 2, "M": 3, "alpha": 0.5, "n_trials": 5, "rng": 0, "n_curve": 2},
        accepts={"alpha": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        emergence.scaled_landscape_2d,
        {"memories": _PLANE, "relative_beta": 2.0, "n_grid": 5, "starts": None},
        accepts={"memories": FINITE_ENTRIES, "relative_beta": POSITIVE_REAL, "starts": NONE_OK},
    ),
    Baseline(emergence.count_bound_check, {"sweep": _SWEEP}),
    Baseline(
        emergence.capacity_scaling,
        {"ds": [2], "alpha": 0.5, "delta": 0.5, "n_trials": 5, "rng": 0},
        accepts={"alpha": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        emergence.collision_curve,
        {"d": 2, "M": 3, "n_trials": 10, "rng": 0, "n_thresholds": 2},
        accepts={"rng": SEED},
    ),
    Baseline(
        emergence.active_set_experiment,
        {"d": 2, "M": 5, "beta": 200.0, "n_queries": 5, "rng": 0},
        accepts={"beta": POSITIVE_REAL, "rng": SEED},
    ),
    # ---- generative -------------------------------------------------------------------------
    Baseline(
        generative.gmm_sample,
        {"k": 2, "d": 2, "sigma": 0.1, "M": 4, "rng": 0},
        accepts={"sigma": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        generative.gmm_log_density,
        {"x": np.array([0.0]), "means": np.array([[0.0], [1.0]]), "sigma": 1.0},
        accepts={"x": FINITE_ENTRIES, "means": FINITE_ENTRIES, "sigma": POSITIVE_REAL},
    ),
    Baseline(
        generative.shell_starts,
        {"memories": _LINE, "beta": 2.0, "n_per_memory": 3, "rng": 0, "frac": 0.05},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(
        generative.beta_search,
        {"memories": np.array([[0.0], [1.0], [10.0], [11.0]]), "target_k": 2.0, "n_max": 5},
        accepts={"memories": FINITE_ENTRIES, "target_k": frozenset({"float_for_int"})},
    ),
    Baseline(
        generative.compare_lse_lsr,
        {
            "memories": _GMM_XI,
            "means": _GMM_MU,
            "sigma": 0.1,
            "beta": 1e4,
            "n_per_memory": 2,
            "rng": 0,
            "lse_max_iter": 200,
            "lse_tol": 1e-8,
        },
        accepts={
            "memories": FINITE_ENTRIES,
            "means": FINITE_ENTRIES,
            "sigma": POSITIVE_REAL,
            "beta": POSITIVE_REAL,
            "rng": SEED,
            "lse_tol": POSITIVE_REAL,
        },
    ),
    Baseline(
        generative.generative_sweep,
        {
            "k": 2,
            "d": 2,
            "sigma": 0.1,
            "M": 3,
            "betas": np.array([1e3, 1e4]),
            "seeds": [0],
            "n_per_memory": 1,
            "lse_max_iter": 200,
        },
        accepts={"sigma": POSITIVE_REAL, "betas": FINITE_ENTRIES},
    ),
    Baseline(
        generative.digits_latent,
        {"n_images": 4, "n_components": 2, "rng": 0},
        accepts={"rng": SEED},
    ),
    Baseline(
        generative.decode,
        {"latent": _LATENT.memories, "pca": _LATENT.pca},
        accepts={"latent": FINITE_ENTRIES},
    ),
    Baseline(
        generative.digits_memories,
        {"n_images": 4, "n_components": 2, "target_k": 2.0, "rng": 0, "lse_max_iter": 200},
        accepts={"target_k": frozenset({"float_for_int"}), "rng": SEED},
    ),
    # ---- minima -----------------------------------------------------------------------------
    Baseline(
        minima.lsr_minima,
        {"memories": _LINE, "beta": 5.0, "method": "auto", "xp": None},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL, "xp": NONE_OK},
    ),
    Baseline(
        minima.lsr_minima_bruteforce,
        {"memories": _LINE, "beta": 5.0, "chunk": 4, "xp": None},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL, "xp": NONE_OK},
    ),
    Baseline(
        minima.is_self_consistent,
        {"memories": _TRIO, "index_set": [0, 1], "beta": 2.0},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL},
    ),
    Baseline(
        minima.minima_centroids,
        {"memories": _LINE, "minima": [(0,), (0, 1)]},
        accepts={"memories": FINITE_ENTRIES},
    ),
    Baseline(
        minima.count_minima,
        {"memories": _LINE, "beta": 5.0, "support_samples": 0, "rng": None},
        accepts={
            "memories": FINITE_ENTRIES,
            "beta": POSITIVE_REAL,
            "support_samples": SEED,
            "rng": NONE_OK | SEED,
        },
    ),
    Baseline(
        minima.minima_sweep,
        {"memories": _LINE, "betas": np.array([1.9, 5.0]), "support_samples": 0, "rng": None},
        accepts={
            "memories": FINITE_ENTRIES,
            "betas": _POS_INT_FLOAT,
            "support_samples": SEED,
            "rng": NONE_OK | SEED,
        },
    ),
    Baseline(
        minima.support_fraction,
        {"memories": _LINE, "beta": 5.0, "n_samples": 50, "rng": 0, "chunk": 16},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL, "rng": SEED},
    ),
    Baseline(minima.beta_thresholds, {"memories": _TRIO}, accepts={"memories": FINITE_ENTRIES}),
    Baseline(
        minima.basin_radius,
        {"memories": _TRIO, "index_set": [0, 1], "beta": 2.0},
        accepts={"memories": FINITE_ENTRIES, "beta": POSITIVE_REAL},
    ),
    Baseline(
        minima.fig3_beta_grid,
        {"memories": _PLANE, "n": 3, "extend": True, "spacing": "geometric"},
        accepts={"memories": FINITE_ENTRIES, "extend": BOOL},
    ),
]

test_matrix, test_coverage, test_baseline = matrix_tests(
    BASELINES,
    [
        "assocmem.dense_am.capacity",
        "assocmem.dense_am.emergence",
        "assocmem.dense_am.generative",
        "assocmem.dense_am.minima",
    ],
)
