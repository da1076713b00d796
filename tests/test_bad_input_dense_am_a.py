"""Bad-input matrix over ``assocmem.dense_am`` energy, retrieval, landscape, kde, limitations.

The harness is ``tests/badinput.py``. Each baseline is a small valid call with every parameter
given by keyword; ``accepts`` lists the bad-value labels that are in fact valid for a parameter.
A function whose parameter is only an array in some calls (``starts``, ``bounds``, ``f``, a
β grid) gets a second baseline, named ``<function>[<param>]``, where that parameter is an array,
so that the array variants (NaN, inf and huge entries, complex, bool, empty, 3-D) are tried too.
"""

from __future__ import annotations

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.dense_am import energy, kde, landscape, limitations, retrieval

X3 = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.5]])  # three memories, no pair at a merger
P = np.array([0.3, 0.2])  # one query inside the support at beta = 2 (R = 1)
LINE = np.array([[0.0], [1.0]])  # two memories on a line
TRIANGLE = landscape.preset_memories("triangle")
PAIR = np.array([[0.0, 0.0], [1.0, 0.0]])

MINUS_ONE = frozenset({"minus_one"})
REAL_ARRAY = frozenset(bad.FINITE_ENTRIES | {"empty", "misshaped"})  # elementwise: any real array
MEM = {"memories": bad.FINITE_ENTRIES}
XM = {"x": bad.FINITE_ENTRIES, "memories": bad.FINITE_ENTRIES}
X0M = {"x0": bad.FINITE_ENTRIES, "memories": bad.FINITE_ENTRIES}
BETA = {"beta": bad.POSITIVE_REAL}
GMM = {"weights": [0.6, 0.4], "means": [-1.0, 1.5], "sds": [0.6, 0.8]}
GMM_OK = {"means": bad.FINITE_ENTRIES, "sds": bad.FINITE_ENTRIES}
GRID = np.linspace(-4.0, 5.0, 61)
SAMPLES = np.array([-1.2, -0.8, 0.1, 1.3, 1.9])
# Shared calls: an energy (LSE or LSR) at P, a retrieval from P, a KDE bandwidth rule, and what
# each accepts.
LSE = {"x": P, "memories": X3, "beta": 2.0}
LSE_OK = {**XM, **BETA}
LSR = {**LSE, "eps": 0.0}
LSR_OK = {**LSE_OK, "eps": bad.NONNEG_REAL}
RETRIEVE = {"x0": P, "memories": X3, "beta": 2.0}
RETRIEVE_OK = {**X0M, **BETA, "max_iter": bad.NONE_OK}
SEPARATION_OK = {"s": REAL_ARRAY | bad.ANY_REAL, **BETA}
BANDWIDTH = {"kernel": "gaussian", "roughness_f2": 4.0, "M": 10}
BANDWIDTH_OK = {"roughness_f2": bad.POSITIVE_REAL}
HYBRID = {**LSE, "lam": 0.5, "eps": 1e-6}
HYBRID_OK = {**LSE_OK, "lam": bad.NONNEG_REAL, "eps": bad.POSITIVE_REAL}
LSE_MINIMA = {"memories": X3, "beta": 2.0, "n_starts": 5, "rng": 0, "max_iter": 5000, "tol": 1e-10}
LSE_MINIMA_OK = {
    **MEM,
    **BETA,
    "n_starts": bad.ZERO,
    "rng": bad.SEED,
    "merge_radius": bad.NONE_OK | bad.NONNEG_REAL,
    "tol": bad.POSITIVE_REAL,
}
LANDSCAPE_1D = {"memories": LINE, "beta": 3.0, "eps": 0.0, "n_grid": 50}
LANDSCAPE_1D_OK = {**MEM, **BETA, "eps": bad.NONNEG_REAL, "bounds": bad.NONE_OK}
LANDSCAPE_2D = {"memories": TRIANGLE, "beta": 1.4, "n_grid": 20}
LANDSCAPE_2D_OK = {**MEM, **BETA, "bounds": bad.NONE_OK}
SWEEP = limitations.generative_panels(M=4, d=2, k=2, sigma=0.1, n_beta=2, seeds=(0,), n_starts=4)


def _epan(t: np.ndarray) -> np.ndarray:
    return 0.75 * np.clip(1.0 - t * t, 0.0, None)


BASELINES = [
    # ---------------------------------------------------------------- energy
    Baseline(energy.sqdist, {"x": P, "memories": X3}, accepts=XM),
    Baseline(energy.support_radius, {"beta": 2.0}, accepts=BETA),
    Baseline(energy.active_set, LSE, accepts=LSE_OK),
    Baseline(
        energy.separation_function,
        {"s": np.array([-0.5, 0.0]), "beta": 2.0, "kind": "lse"},
        accepts=SEPARATION_OK,
    ),
    Baseline(
        energy.separation_function,
        {"s": np.array([-0.5, 0.0]), "beta": 2.0, "kind": "lsr"},
        accepts=SEPARATION_OK,
        name="separation_function[lsr]",
    ),
    Baseline(energy.lse_energy, LSE, accepts=LSE_OK),
    Baseline(energy.lse_grad, LSE, accepts=LSE_OK),
    Baseline(energy.lse_hessian, LSE, accepts=LSE_OK),
    Baseline(energy.lsr_energy, LSR, accepts=LSR_OK),
    Baseline(energy.lsr_grad, LSR, accepts=LSR_OK),
    Baseline(energy.lsr_hessian, LSR, accepts=LSR_OK),
    Baseline(
        energy.centroid_energy,
        {"memories": X3, "index_set": (0, 1), "beta": 2.0, "eps": 0.0},
        accepts={**MEM, **BETA, "eps": bad.NONNEG_REAL},
    ),
    # ---------------------------------------------------------------- retrieval
    Baseline(retrieval.thm1_beta, {"r": 1.0, "delta": 0.5}, accepts={"r": bad.SMALL_POSITIVE}),
    Baseline(retrieval.lsr_retrieve, {**RETRIEVE, "max_iter": None}, accepts=RETRIEVE_OK),
    Baseline(
        retrieval.lsr_retrieve,
        {**RETRIEVE, "max_iter": 50},
        accepts=RETRIEVE_OK,
        name="lsr_retrieve[max_iter]",
    ),
    Baseline(retrieval.lsr_trajectory, {**RETRIEVE, "max_iter": None}, accepts=RETRIEVE_OK),
    Baseline(retrieval.lsr_one_step, LSR, accepts=LSR_OK),
    Baseline(
        retrieval.lse_descend,
        {**RETRIEVE, "step": 1.0, "max_iter": 1000, "tol": 1e-10},
        accepts={**X0M, **BETA, "tol": bad.POSITIVE_REAL},
    ),
    Baseline(
        retrieval.lse_minima,
        {**LSE_MINIMA, "starts": None, "merge_radius": None},
        accepts={**LSE_MINIMA_OK, "starts": bad.NONE_OK},
    ),
    Baseline(
        retrieval.lse_minima,
        {**LSE_MINIMA, "starts": np.array([[0.1, 0.1], [0.9, 0.1]]), "merge_radius": 0.01},
        accepts={**LSE_MINIMA_OK, "starts": bad.NONE_OK | bad.FINITE_ENTRIES},
        name="lse_minima[starts]",
    ),
    # ---------------------------------------------------------------- landscape
    Baseline(landscape.random_memories, {"M": 3, "d": 2, "rng": 0}, accepts={"rng": bad.SEED}),
    Baseline(landscape.preset_memories, {"name": "triangle", "d": 2}),
    Baseline(
        landscape.lse_minima_1d,
        {"memories": LINE, "beta": 3.0, "n_grid": 100, "refine": True},
        accepts={**MEM, **BETA, "refine": bad.BOOL},
    ),
    Baseline(landscape.lsr_minima_2d, {"memories": TRIANGLE, "beta": 1.4}, accepts={**MEM, **BETA}),
    Baseline(landscape.landscape_1d, {**LANDSCAPE_1D, "bounds": None}, accepts=LANDSCAPE_1D_OK),
    Baseline(
        landscape.landscape_1d,
        {**LANDSCAPE_1D, "bounds": (-1.0, 2.0)},
        accepts=LANDSCAPE_1D_OK,
        name="landscape_1d[bounds]",
    ),
    Baseline(
        landscape.landscape_2d,
        {**LANDSCAPE_2D, "bounds": None, "starts": None},
        accepts={**LANDSCAPE_2D_OK, "starts": bad.NONE_OK},
    ),
    Baseline(
        landscape.landscape_2d,
        {**LANDSCAPE_2D, "bounds": (-2.0, 2.0, -2.0, 2.0), "starts": np.array([[0.1, 0.2]])},
        accepts={**LANDSCAPE_2D_OK, "starts": bad.NONE_OK | bad.FINITE_ENTRIES},
        name="landscape_2d[bounds,starts]",
    ),
    Baseline(
        landscape.count_curve,
        {"memories": LINE, "betas": np.array([3.0, 5.0]), "lse_starts": 10, "rng": 0},
        accepts={
            **MEM,
            "betas": bad.POSITIVE_REAL | bad.FINITE_ENTRIES,
            "lse_starts": bad.ZERO,
            "rng": bad.SEED,
        },
    ),
    Baseline(
        landscape.minima_counts_1d,
        {"M": 3, "n_sets": 2, "betas": np.array([10.0]), "rng": 0, "n_grid": 100, "gaps": None},
        accepts={
            "betas": bad.NONE_OK | bad.POSITIVE_REAL | bad.FINITE_ENTRIES,
            "rng": bad.SEED,
            "gaps": bad.NONE_OK,
        },
    ),
    Baseline(
        landscape.minima_counts_1d,
        {
            "M": 3,
            "n_sets": 2,
            "betas": np.array([10.0]),
            "rng": 0,
            "n_grid": 100,
            "gaps": np.array([0.7, 1.1]),
        },
        accepts={
            "betas": bad.NONE_OK | bad.POSITIVE_REAL | bad.FINITE_ENTRIES,
            "rng": bad.SEED,
            "gaps": bad.NONE_OK,
        },
        name="minima_counts_1d_gaps",
    ),
    Baseline(
        landscape.separation_curves,
        {"beta": 2.0, "kind": "both", "s_min": -2.0, "n_points": 11},
        accepts={**BETA, "s_min": MINUS_ONE},
    ),
    Baseline(
        landscape.separation_curves,
        {"beta": np.array([1.0, 2.0]), "kind": "lse", "s_min": -2.0, "n_points": 11},
        accepts={"beta": bad.POSITIVE_REAL | bad.FINITE_ENTRIES, "s_min": MINUS_ONE},
        name="separation_curves[betas]",
    ),
    Baseline(
        landscape.thm1_experiment,
        {"memories": PAIR, "delta_over_r": 0.3, "n_per_basin": 20, "rng": 0},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        landscape.thm1_sweep,
        {"memories": PAIR, "deltas_over_r": np.array([0.25, 0.75]), "n_per_basin": 20, "rng": 0},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        landscape.alg1_descent_check,
        {"memories": X3, "beta": 2.0, "n_starts": 20, "rng": 0, "max_iter": 100},
        accepts={**MEM, **BETA, "rng": bad.SEED},
    ),
    Baseline(
        landscape.lse_stored_gradient_log10,
        {"memories": LINE, "beta": 2000.0},
        accepts={**MEM, **BETA},
    ),
    # ---------------------------------------------------------------- kde
    Baseline(kde.kernel, {"name": "gaussian"}),
    Baseline(kde.kernel_table, {}),
    Baseline(
        kde.kde_1d,
        {"x_grid": np.linspace(-1.0, 1.0, 5), "samples": SAMPLES, "h": 0.5, "kernel": "uniform"},
        accepts={
            "x_grid": bad.FINITE_ENTRIES,
            "samples": bad.FINITE_ENTRIES,
            "h": bad.POSITIVE_REAL,
        },
    ),
    Baseline(kde.amise, {"h": 1.0, **BANDWIDTH}, accepts={"h": bad.POSITIVE_REAL, **BANDWIDTH_OK}),
    Baseline(
        kde.amise,
        {"h": np.array([0.5, 1.0]), **BANDWIDTH},
        accepts={"h": bad.POSITIVE_REAL | bad.FINITE_ENTRIES, **BANDWIDTH_OK},
        name="amise[h]",
    ),
    Baseline(kde.amise_optimal_bandwidth, BANDWIDTH, accepts=BANDWIDTH_OK),
    Baseline(kde.amise_optimal_value, BANDWIDTH, accepts=BANDWIDTH_OK),
    Baseline(kde.paper_bandwidth, BANDWIDTH, accepts=BANDWIDTH_OK),
    Baseline(
        kde.gmm_1d_density,
        {"x": np.array([0.0, 1.0]), **GMM},
        accepts={
            "x": REAL_ARRAY - {"misshaped"} | bad.ANY_REAL,
            **GMM_OK,
        },
    ),
    Baseline(kde.gmm_1d_second_derivative_roughness, dict(GMM), accepts=GMM_OK),
    Baseline(
        kde.ise,
        {"h": 0.5, "samples": SAMPLES, "f": _epan, "kernel": "epanechnikov", "grid": GRID},
        accepts={"h": bad.POSITIVE_REAL, "samples": bad.FINITE_ENTRIES},
    ),
    Baseline(
        kde.ise,
        {
            "h": np.array([0.5, 1.0]),
            "samples": SAMPLES,
            "f": _epan(GRID),
            "kernel": "epanechnikov",
            "grid": GRID,
        },
        accepts={
            "h": bad.POSITIVE_REAL | bad.FINITE_ENTRIES,
            "samples": bad.FINITE_ENTRIES,
            "f": bad.FINITE_ENTRIES,
        },
        name="ise[f]",
    ),
    Baseline(
        kde.ise_curves,
        {
            "h": np.array([0.5, 1.0]),
            "samples": SAMPLES,
            **GMM,
            "grid": GRID,
            "kernels": ("epanechnikov", "gaussian"),
        },
        accepts={
            "h": bad.POSITIVE_REAL | bad.FINITE_ENTRIES,
            "samples": bad.FINITE_ENTRIES,
            "sds": bad.FINITE_ENTRIES,
        },
    ),
    # ---------------------------------------------------------------- limitations
    Baseline(
        limitations.far_query,
        {
            "x0": np.array([[3.0, 0.0]]),
            "memories": X3,
            "beta": 2.0,
            "step": 0.2,
            "n_steps": 3,
            "eps": 1e-8,
        },
        accepts={**X0M, **BETA, "eps": bad.NONNEG_REAL},
    ),
    Baseline(limitations.hybrid_energy, HYBRID, accepts=HYBRID_OK),
    Baseline(limitations.hybrid_grad, HYBRID, accepts=HYBRID_OK),
    Baseline(
        limitations.hybrid_descend,
        {
            "x0": P,
            "memories": X3,
            "beta": 2.0,
            "lam": 0.5,
            "eps": 1e-6,
            "step": 1.0,
            "max_iter": 500,
            "tol": 1e-7,
        },
        accepts={
            **X0M,
            **BETA,
            "lam": bad.NONNEG_REAL,
            "eps": bad.POSITIVE_REAL,
            "tol": bad.POSITIVE_REAL,
        },
    ),
    Baseline(
        limitations.hybrid_shift,
        {"memories": X3, "beta": 2.0, "lams": np.array([0.0, 0.5]), "eps": 1e-6},
        accepts={
            **MEM,
            **BETA,
            "lams": bad.NONNEG_REAL | bad.FINITE_ENTRIES,
            "eps": bad.POSITIVE_REAL,
        },
    ),
    Baseline(limitations.adaptive_beta, {**LSE, "beta": 8.0, "rho": 0.9}, accepts=LSE_OK),
    Baseline(
        limitations.adaptive_beta_retrieve,
        {"x0": np.array([3.0, 0.0]), "memories": X3, "beta": 8.0, "rho": 0.9, "max_iter": 100},
        accepts={**X0M, **BETA},
    ),
    Baseline(
        limitations.limitations_playground,
        {
            "memories": X3,
            "queries": np.array([[0.1, 0.0], [3.0, 0.0]]),
            "beta": 2.0,
            "method": "lsr",
            "lam": 0.5,
            "rho": 0.9,
            "eps": 1e-6,
        },
        accepts={
            **MEM,
            "queries": bad.FINITE_ENTRIES,
            **BETA,
            "lam": bad.NONNEG_REAL,
            "eps": bad.POSITIVE_REAL,
        },
    ),
    Baseline(
        limitations.kde_explorer,
        {"M": 50, "h": 0.4, "kernel": "epanechnikov", "seed": 0},
        accepts={"h": bad.POSITIVE_REAL, "seed": bad.SEED},
    ),
    Baseline(
        limitations.generative_2d,
        {
            "M": 6,
            "beta": 50.0,
            "seed": 0,
            "k": 2,
            "sigma": 0.1,
            "n_per_memory": 2,
            "n_grid": 10,
        },
        accepts={**BETA, "seed": bad.SEED, "sigma": bad.POSITIVE_REAL},
    ),
    Baseline(
        limitations.generative_panels,
        {"M": 4, "d": 2, "k": 2, "sigma": 0.1, "n_beta": 2, "seeds": (0,), "n_starts": 4},
        accepts={"sigma": bad.POSITIVE_REAL},
    ),
    Baseline(limitations.sweep_summary, {"sweep": SWEEP}),
]

MODULES = [
    f"assocmem.dense_am.{m}" for m in ("energy", "retrieval", "landscape", "kde", "limitations")
]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
