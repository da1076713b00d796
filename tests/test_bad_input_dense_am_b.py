"""Bad-input matrix over ``assocmem.dense_am`` capacity, emergence, generative and minima.

The harness is ``tests/badinput.py``; each baseline is a small valid call with every parameter
given by keyword, and ``accepts`` lists the bad-value labels that are valid for a parameter.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.dense_am import capacity, emergence, generative, minima

_LINE = np.array([[0.0], [1.0]])
_TRIO = np.array([[0.0], [1.0], [1.8]])
_PLANE = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
_SWEEP = emergence.emergence_sweep(d=2, M=4, seed=0, n_beta=4, support_samples=0)
_GMM_XI, _GMM_MU = generative.gmm_sample(k=2, d=2, sigma=0.1, M=4, rng=0)
_LATENT = generative.digits_latent(n_images=4, n_components=2, rng=0)
_POS_INT_FLOAT = bad.POSITIVE_REAL | bad.FINITE_ENTRIES
# Shared calls (capacity trials, active-set queries, a subset of _TRIO) and what they accept.
_TRIALS = {"d": 2, "M": 3, "alpha": 0.5, "n_trials": 5, "rng": 0}
_TRIALS_OK = {"alpha": bad.POSITIVE_REAL, "rng": bad.SEED}
_QUERIES = {"d": 2, "M": 5, "beta": 200.0, "n_queries": 5, "rng": 0}
_QUERIES_OK = {"beta": bad.POSITIVE_REAL, "rng": bad.SEED}
_SUBSET = {"memories": _TRIO, "index_set": [0, 1], "beta": 2.0}
_MEM = {"memories": bad.FINITE_ENTRIES}
_MEM_BETA = {**_MEM, "beta": bad.POSITIVE_REAL}
_COUNT_OK = {**_MEM, "support_samples": bad.SEED, "rng": bad.NONE_OK | bad.SEED}

BASELINES = [
    # ---- capacity ---------------------------------------------------------------------------
    Baseline(capacity.ball_volume, {"d": 2}),
    Baseline(
        capacity.min_pairwise_distance,
        {"memories": [[0.0, 0.0], [3.0, 4.0], [10.0, 0.0]]},
        accepts=_MEM,
    ),
    Baseline(
        capacity.min_distance_samples,
        {"d": 2, "M": 3, "n_trials": 5, "rng": 0},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        capacity.collision_bound,
        {"eps": np.array([0.01, 0.02]), "d": 2, "M": 10, "V": 1.0},
        accepts={"eps": bad.NONNEG_REAL | bad.FINITE_ENTRIES, "V": bad.POSITIVE_REAL},
    ),
    Baseline(
        capacity.alpha_form,
        {"alpha": 0.5, "d": 8, "M": 10, "V": 1.0},
        accepts={"alpha": bad.POSITIVE_REAL, "V": bad.POSITIVE_REAL},
    ),
    Baseline(capacity.success_probability, _TRIALS, accepts=_TRIALS_OK),
    Baseline(capacity.active_set_size_samples, _QUERIES, accepts=_QUERIES_OK),
    Baseline(
        capacity.eq11_band,
        {"d": 2, "M": 1000, "beta": 200.0},
        accepts={"beta": bad.POSITIVE_REAL},
    ),
    Baseline(
        capacity.count_bound_log,
        {"M": 18, "d": 8, "beta": 3.8, "V": 1.0},
        accepts={"beta": bad.POSITIVE_REAL, "V": bad.POSITIVE_REAL},
    ),
    Baseline(capacity.capacity_experiment, _TRIALS, accepts=_TRIALS_OK),
    Baseline(
        capacity.capacity_curve,
        {"d": 2, "Ms": [2, 3], "alpha": 0.5, "n_trials": 5, "rng": 0},
        accepts=_TRIALS_OK,
    ),
    # ---- emergence --------------------------------------------------------------------------
    Baseline(emergence.regular_simplex, {"M": 3, "a": 1.0}, accepts={"a": bad.POSITIVE_REAL}),
    Baseline(emergence.simplex_window, {"M": 3, "a": 1.0}, accepts={"a": bad.POSITIVE_REAL}),
    Baseline(
        emergence.regular_polygon,
        {"n": 4, "circumradius": 1.0},
        accepts={"circumradius": bad.POSITIVE_REAL},
    ),
    Baseline(
        emergence.equilateral_triangle,
        {"circumradius": 1.0},
        accepts={"circumradius": bad.POSITIVE_REAL},
    ),
    Baseline(
        emergence.grid_memories,
        {"n": 2, "d": 2, "spacing": 1.0},
        accepts={"spacing": bad.POSITIVE_REAL},
    ),
    Baseline(
        emergence.emergence_report,
        {"memories": _LINE, "beta": 4.0, "eps_novel": 0.1},
        accepts={**_MEM_BETA, "eps_novel": bad.NONNEG_REAL},
    ),
    Baseline(
        emergence.emergence_counts,
        {"M": 4, "d": 2, "relative_beta": 2.0, "n_sets": 2, "rng": 0, "eps_novel": 0.05},
        accepts={
            "relative_beta": bad.SMALL_POSITIVE,
            "rng": bad.SEED,
            "eps_novel": bad.NONNEG_REAL,
        },
    ),
    Baseline(
        emergence.prop2_check,
        {"memories": _TRIO, "beta": 2.0, "x": np.array([0.4])},
        accepts={**_MEM_BETA, "x": bad.FINITE_ENTRIES},
    ),
    Baseline(emergence.prop2_counterexample, {}),
    Baseline(
        emergence.extreme_points,
        {"memories": np.array([[-1.0], [0.0], [1.0]])},
        accepts=_MEM,
    ),
    Baseline(
        emergence.lse_hull_vertex_gradients,
        {"memories": np.array([[-1.0], [0.0], [1.0]]), "betas": np.array([1.0, 10.0])},
        accepts={**_MEM, "betas": _POS_INT_FLOAT},
    ),
    Baseline(
        emergence.grid_minima_counts,
        {"ns": [4], "d": 1, "radius_over_spacing": 0.7},
        accepts={"radius_over_spacing": bad.POSITIVE_REAL},
    ),
    Baseline(
        emergence.polygon_minima,
        {"n_vertices": 3, "radius": 1.2, "circumradius": 1.0},
        accepts={"radius": bad.POSITIVE_REAL, "circumradius": bad.POSITIVE_REAL},
    ),
    Baseline(
        emergence.simplex_count_experiment,
        {"Ms": [3], "a": 1.0, "beta": None},
        accepts={"a": bad.POSITIVE_REAL, "beta": bad.POSITIVE_REAL | bad.NONE_OK},
    ),
    Baseline(
        emergence.emergence_sweep,
        {"d": 2, "M": 4, "seed": 0, "n_beta": 3, "support_samples": 0},
        accepts={"seed": bad.SEED, "support_samples": bad.SEED},
    ),
    Baseline(
        emergence.emergence_peaks,
        {"ds": [2], "M": 4, "seeds": [0], "n_beta": 2, "support_samples": 0},
        accepts={"support_samples": bad.SEED},
    ),
    Baseline(
        emergence.largest_beta_counterexample,
        {"memories": _TRIO, "margin": 1e-3},
        accepts={**_MEM, "margin": bad.POSITIVE_REAL},
    ),
    Baseline(
        emergence.basin_survey,
        {"memories": _LINE, "beta": 4.0, "n_samples": 5, "rng": 0},
        accepts={**_MEM_BETA, "rng": bad.SEED},
    ),
    Baseline(emergence.capacity_panel, {**_TRIALS, "n_curve": 2}, accepts=_TRIALS_OK),
    Baseline(
        emergence.scaled_landscape_2d,
        {"memories": _PLANE, "relative_beta": 2.0, "n_grid": 5, "starts": None},
        accepts={**_MEM, "relative_beta": bad.POSITIVE_REAL, "starts": bad.NONE_OK},
    ),
    Baseline(emergence.count_bound_check, {"sweep": _SWEEP}),
    Baseline(
        emergence.capacity_scaling,
        {"ds": [2], "alpha": 0.5, "delta": 0.5, "n_trials": 5, "rng": 0},
        accepts=_TRIALS_OK,
    ),
    Baseline(
        emergence.collision_curve,
        {"d": 2, "M": 3, "n_trials": 10, "rng": 0, "n_thresholds": 2},
        accepts={"rng": bad.SEED},
    ),
    Baseline(emergence.active_set_experiment, _QUERIES, accepts=_QUERIES_OK),
    # ---- generative -------------------------------------------------------------------------
    Baseline(
        generative.gmm_sample,
        {"k": 2, "d": 2, "sigma": 0.1, "M": 4, "rng": 0},
        accepts={"sigma": bad.POSITIVE_REAL, "rng": bad.SEED},
    ),
    Baseline(
        generative.gmm_log_density,
        {"x": np.array([0.0]), "means": np.array([[0.0], [1.0]]), "sigma": 1.0},
        accepts={"x": bad.FINITE_ENTRIES, "means": bad.FINITE_ENTRIES, "sigma": bad.POSITIVE_REAL},
    ),
    Baseline(
        generative.shell_starts,
        {"memories": _LINE, "beta": 2.0, "n_per_memory": 3, "rng": 0, "frac": 0.05},
        accepts={**_MEM_BETA, "rng": bad.SEED},
    ),
    Baseline(
        generative.beta_search,
        {"memories": np.array([[0.0], [1.0], [10.0], [11.0]]), "target_k": 2.0, "n_max": 5},
        accepts={**_MEM, "target_k": bad.SMALL_POSITIVE},
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
            **_MEM,
            "means": bad.FINITE_ENTRIES,
            "sigma": bad.POSITIVE_REAL,
            "beta": bad.POSITIVE_REAL,
            "rng": bad.SEED,
            "lse_tol": bad.POSITIVE_REAL,
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
        accepts={"sigma": bad.POSITIVE_REAL, "betas": bad.FINITE_ENTRIES},
    ),
    Baseline(
        generative.digits_latent,
        {"n_images": 4, "n_components": 2, "rng": 0},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        generative.decode,
        {"latent": _LATENT.memories, "pca": _LATENT.pca},
        accepts={"latent": bad.FINITE_ENTRIES},
    ),
    Baseline(
        generative.digits_memories,
        {"n_images": 4, "n_components": 2, "target_k": 2.0, "rng": 0, "lse_max_iter": 200},
        accepts={"target_k": bad.SMALL_POSITIVE, "rng": bad.SEED},
    ),
    Baseline(
        generative.digits_memory_counts,
        {
            "n_sets": 2,
            "n_images": 4,
            "n_components": 2,
            "target_k": 2.0,
            "rng": 0,
            "lse_max_iter": 200,
        },
        accepts={"target_k": bad.SMALL_POSITIVE, "rng": bad.SEED},
    ),
    # ---- minima -----------------------------------------------------------------------------
    Baseline(
        minima.lsr_minima,
        {"memories": _LINE, "beta": 5.0, "method": "auto", "xp": None},
        accepts={**_MEM_BETA, "xp": bad.NONE_OK},
    ),
    Baseline(
        minima.lsr_minima_bruteforce,
        {"memories": _LINE, "beta": 5.0, "chunk": 4, "xp": None},
        accepts={**_MEM_BETA, "xp": bad.NONE_OK},
    ),
    Baseline(minima.is_self_consistent, _SUBSET, accepts=_MEM_BETA),
    Baseline(minima.minima_centroids, {"memories": _LINE, "minima": [(0,), (0, 1)]}, accepts=_MEM),
    Baseline(
        minima.count_minima,
        {"memories": _LINE, "beta": 5.0, "support_samples": 0, "rng": None},
        accepts={**_COUNT_OK, "beta": bad.POSITIVE_REAL},
    ),
    Baseline(
        minima.minima_sweep,
        {"memories": _LINE, "betas": np.array([1.9, 5.0]), "support_samples": 0, "rng": None},
        accepts={**_COUNT_OK, "betas": _POS_INT_FLOAT},
    ),
    Baseline(
        minima.support_fraction,
        {"memories": _LINE, "beta": 5.0, "n_samples": 50, "rng": 0, "chunk": 16},
        accepts={**_MEM_BETA, "rng": bad.SEED},
    ),
    Baseline(minima.beta_thresholds, {"memories": _TRIO}, accepts=_MEM),
    Baseline(
        minima.relative_beta_counts,
        {"relative_betas": np.array([0.5, 2.0]), "M": 4, "d": 2, "n_sets": 2, "rng": 0},
        accepts={"relative_betas": bad.SMALL_POSITIVE, "rng": bad.SEED},
    ),
    Baseline(
        minima.threshold_counts,
        {"M": 4, "d": 2, "n_sets": 2, "rng": 0, "below": 0.99, "above": 1.001},
        accepts={"rng": bad.SEED},
    ),
    Baseline(minima.basin_radius, _SUBSET, accepts=_MEM_BETA),
    Baseline(
        minima.fig3_beta_grid,
        {"memories": _PLANE, "n": 3, "extend": True, "spacing": "geometric"},
        accepts={**_MEM, "extend": bad.BOOL},
    ),
]

MODULES = [f"assocmem.dense_am.{m}" for m in ("capacity", "emergence", "generative", "minima")]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
