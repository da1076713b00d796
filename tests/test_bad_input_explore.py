"""Bad-input matrix over ``assocmem.explore`` and its chapter plot modules (``tests/badinput.py``).

The plot functions take the library's result objects. Each result below is built once, at import,
by a small call of the compute function that makes it (a few ms each), and passed to the
baseline; the matrix then replaces one argument at a time by each bad value.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from badinput import (
    ANY_REAL,
    BOOL,
    FINITE_ENTRIES,
    NONE_OK,
    POSITIVE_REAL,
    SEED,
    STR,
    Baseline,
    matrix_tests,
)

from assocmem import attractor as at
from assocmem import explore
from assocmem import linear_memory as lm
from assocmem.attractor import ensemble as ens
from assocmem.dense_am import emergence as em
from assocmem.dense_am import generative as gen
from assocmem.dense_am import kde
from assocmem.dense_am import landscape as ls
from assocmem.dense_am import limitations as lim
from assocmem.explore.attractor_stability import dynamics as as_dynamics
from assocmem.explore.attractor_stability import ensemble as as_ensemble
from assocmem.explore.attractor_stability import loads as as_loads
from assocmem.explore.attractor_stability import outliers as as_outliers
from assocmem.explore.attractor_stability import sparse as as_sparse
from assocmem.explore.attractor_stability import spectra as as_spectra
from assocmem.explore.attractor_stability import structure as as_structure
from assocmem.explore.epanechnikov import landscapes as epa_landscapes
from assocmem.explore.epanechnikov import minima as epa_minima
from assocmem.explore.epanechnikov import samples as epa_samples
from assocmem.explore.factual_recall import basics as fr_basics
from assocmem.explore.factual_recall import common as fr_common
from assocmem.explore.factual_recall import hebbian as fr_hebbian
from assocmem.explore.factual_recall import mechanism as fr_mechanism
from assocmem.explore.factual_recall import replica as fr_replica
from assocmem.explore.factual_recall import spectra as fr_spectra
from assocmem.explore.factual_recall import training as fr_training
from assocmem.linear_memory import energetic
from assocmem.linear_memory import hebbian as hb
from assocmem.linear_memory import mechanism as mech

STR_OR_NONE = STR | NONE_OK
INT_OR_NONE = NONE_OK

# --- small results, one call each (the whole block takes well under a second) -------------------
_NET = at.pinv_weights(at.sample_patterns(20, 1, 1.0, rng=0), 1.0, 1.0)
_KICK = at.kick_experiment(_NET, 0, [0.01], ["random"], T=2.0)
_EMERGENCE = em.emergence_sweep(d=2, M=4, seed=0, n_beta=4, support_samples=0)
_MECH_SWEEP = mech.score_mechanism_sweep(d=8, alphas=(0.3,), problem="original", seed=0)
_THETA_SCAN = at.theta_scan(20, 0.2, 1.0, 1.0, 1.0, [-1.0, 0.0], seed=0, patterns=1)
_ENS_GRID = ens.ensemble_grid((0.2,), (0.0,), N=20, seed=0)
_ALPHA_S = at.alpha_s_comparison([(1.0, 1.0, 1.0)], N=20, alphas=[0.05, 0.3], patterns=1)
_ACC_SWEEP = lm.accuracy_sweep(8, [0.3], reps=1, steps=5)
_HEB_SWEEP = hb.hebbian_sweep(20, [0.1], reps=1)
_WEIGHT_SWEEP = at.weight_load_sweep(20, 1.0, 1.0, 1.0, [0.2], henrici=True)
_DIGITS = gen.DigitsMemories(  # digits_memories fits a PCA on all 1797 digits (1 s): built here
    latent=gen.DigitsLatent(
        memories=np.zeros((3, 2)),
        images=np.full((3, 8, 8), 8.0),
        indices=np.arange(3),
        labels=np.arange(3),
        pca=None,
    ),
    target_k=4.0,
    beta=0.01,
    minima=[(0, 1), (2,)],
    stored_retained=np.array([False, False, True]),
    emergent=[(0, 1)],
    emergent_images=np.full((1, 8, 8), 4.0),
    lse_memories=np.zeros((2, 2)),
    lse_images=np.full((2, 8, 8), 8.0),
    stored_images=np.full((3, 8, 8), 8.0),
)


def _compute(a: float) -> float:
    return a


def _plot(r: float) -> go.Figure:
    return go.Figure(go.Scatter(y=[0.0, r]))


_SLIDER = explore.Slider("a", 0.0, 1.0, steps=2)
_CLAIM = explore.Claim("c", measured=1, reference=1, test=explore.exact())
_MEASURED_OK = frozenset(
    {"inf", "-inf", "zero", "minus_one", "huge", "str", "float_for_int"}
    | {"inf_entry", "huge_entry", "bool_array"}
)

CORE = [
    Baseline(explore.setup, {"seed": 0, "threads": 1}, accepts={"seed": SEED}),
    Baseline(
        explore.Slider,
        {
            "name": "a",
            "lo": 0.0,
            "hi": 4.0,
            "steps": 3,
            "log": False,
            "integer": False,
            "value": None,
            "values": (1.0, 2.0, 3.0),
            "label": None,
            "continuous_update": False,
        },
        accepts={
            "name": STR,
            "lo": frozenset({"zero", "minus_one"}),
            "hi": frozenset({"huge"}),
            "steps": frozenset(),
            "log": BOOL,
            "integer": BOOL,
            "value": frozenset({"zero", "none", "float_for_int"}),
            "values": NONE_OK,
            "label": STR_OR_NONE,
            "continuous_update": BOOL,
        },
        name="Slider",
    ),
    Baseline(
        explore.Choice,
        {
            "name": "memories",
            "options": ("triangle", "square"),
            "labels": None,
            "value": None,
            "label": None,
            "continuous_update": False,
        },
        accepts={
            "name": STR,
            "labels": NONE_OK,
            "value": NONE_OK,
            "label": STR_OR_NONE,
            "continuous_update": BOOL,
        },
        name="Choice",
    ),
    Baseline(
        explore.Claim,
        {
            "claim": "two points (Sec. 3)",
            "measured": [1.0, 2.0],
            "test": explore.absolute(0.1),
            "reference": [1.0, 2.0],
            "paper": "3",
            "ours": "3",
            "reason": "finite size",
            "kind": "reproduction",
            "protocol": "",
        },
        accepts={
            "claim": STR,
            # a measured value may be anything real that broadcasts; the verdict follows from it
            "measured": _MEASURED_OK,
            "reference": _MEASURED_OK,
            "paper": STR_OR_NONE,
            "ours": STR_OR_NONE,
            "reason": STR,
            "protocol": STR,
        },
        name="Claim",
    ),
    Baseline(
        explore.Tolerance,
        {"rule": "absolute", "value": 0.1, "strict": False, "name": "", "fn": None},
        accepts={"value": POSITIVE_REAL, "strict": BOOL, "fn": NONE_OK},
        name="Tolerance",
    ),
    Baseline(explore.exact, {}),
    Baseline(explore.absolute, {"tol": 0.1}, accepts={"tol": POSITIVE_REAL}),
    Baseline(explore.relative, {"tol": 0.1}),
    Baseline(explore.at_most, {"strict": False}, accepts={"strict": BOOL}),
    Baseline(explore.at_least, {"strict": False}, accepts={"strict": BOOL}),
    Baseline(explore.predicate, {"name": "positive", "fn": bool}, accepts={"name": STR}),
    Baseline(
        explore.spread,
        {"values": [1.0, 2.0], "digits": 3},
        accepts={"values": FINITE_ENTRIES | ANY_REAL},
    ),
    Baseline(explore.claims_table, {"claims": [_CLAIM]}),
    Baseline(explore.ClaimsTable, {"claims": [_CLAIM]}),
    Baseline(explore.figure_html, {"fig": go.Figure(go.Scatter(y=[0.0, 1.0]))}),
    Baseline(
        explore.static_figure,
        {"compute": _compute, "plot": _plot, "params": [_SLIDER], "fixed": None},
        accepts={"fixed": NONE_OK},
    ),
    Baseline(explore.explore, {"compute": _compute, "plot": _plot, "params": [_SLIDER]}),
    Baseline(
        explore.Exploration,
        {"compute": _compute, "plot": _plot, "params": [_SLIDER], "fixed": None},
        accepts={"fixed": NONE_OK},
    ),
]

HEIGHT = {"height": frozenset()}

EPA = [
    Baseline(
        epa_landscapes.plot_count_curve,
        {"result": ls.count_curve([[0.0], [1.0]], [1.5, 3.0]), "thresholds": {"2/a²": 2.0}},
        accepts={"thresholds": NONE_OK},
    ),
    Baseline(
        epa_landscapes.plot_landscape_1d,
        {"result": ls.landscape_1d("two points", 5.0), "density": False},
        accepts={"density": BOOL},
    ),
    Baseline(
        epa_landscapes.plot_landscape_2d,
        {"result": ls.landscape_2d("triangle", 1.0, n_grid=10), "color": "energy", "circles": True},
        accepts={"circles": BOOL},
    ),
    Baseline(
        epa_landscapes.plot_minima_counts_1d,
        {"result": ls.minima_counts_1d(M=3, n_sets=2, betas=[5.0])},
    ),
    Baseline(epa_landscapes.plot_separation, {"result": ls.separation_curves(1.0)}),
    Baseline(
        epa_landscapes.plot_thm1, {"result": ls.thm1_experiment("random 10", 0.7, n_per_basin=2)}
    ),
    Baseline(
        epa_landscapes.plot_thm1_sweep,
        {"result": ls.thm1_sweep("random 10", [0.3, 0.7], n_per_basin=2)},
    ),
    Baseline(
        epa_minima.plot_active_set,
        {"result": em.active_set_experiment(2, 50, 100.0, n_queries=5, rng=0)},
    ),
    Baseline(
        epa_minima.plot_basin_survey, {"result": em.basin_survey([[0.0], [1.0]], 1.0, n_samples=5)}
    ),
    Baseline(epa_minima.plot_capacity_panel, {"panel": em.capacity_panel(4, 10, 0.3, n_trials=5)}),
    Baseline(epa_minima.plot_collision_curves, {"results": [em.collision_curve(2, 20, 10, rng=0)]}),
    Baseline(epa_minima.plot_count_bound, {"result": em.count_bound_check(_EMERGENCE)}),
    Baseline(
        epa_minima.plot_emergence_peaks,
        {"result": em.emergence_peaks([2], M=4, seeds=[0], support_samples=0)},
    ),
    Baseline(epa_minima.plot_emergence_sweep, {"sweeps": _EMERGENCE, "height": 420}, HEIGHT),
    Baseline(epa_minima.plot_grid_counts, {"results": [em.grid_minima_counts([3, 4], 1, 0.7)]}),
    Baseline(
        epa_minima.plot_hull_gradients,
        {"result": em.lse_hull_vertex_gradients([[-1.0], [0.0], [1.0]], [1.0, 10.0])},
    ),
    Baseline(epa_minima.plot_polygon_puzzle, {"result": em.polygon_minima(3, 1.2)}),
    Baseline(
        epa_minima.plot_prop2,
        {"result": em.prop2_check([[0.0], [1.0]], beta=2.0, x=[0.4])},
    ),
    Baseline(epa_minima.plot_simplex_counts, {"result": em.simplex_count_experiment([2, 3])}),
    Baseline(
        epa_samples.digits_figure,
        {"result": _DIGITS, "n_cols": 12, "max_emergent": 48, "max_lse": 24},
        accepts={"max_emergent": NONE_OK, "max_lse": NONE_OK},
    ),
    Baseline(
        epa_samples.far_query_figure,
        {"result": lim.far_query(np.array([[0.1, 0.0], [2.0, 0.0]]), np.zeros((1, 2)), beta=2.0)},
    ),
    Baseline(
        epa_samples.generative_2d_figure,
        {"result": lim.generative_2d(5, 200.0, seed=0, n_per_memory=2, n_grid=10)},
    ),
    Baseline(
        epa_samples.generative_figure,
        {"sweep": gen.generative_sweep(2, 2, 0.1, 4, 2, [0], 2, lse_max_iter=50)},
    ),
    Baseline(epa_samples.kde_figure, {"view": lim.kde_explorer(20, 0.5, "epanechnikov", seed=0)}),
    Baseline(
        epa_samples.kernel_figure, {"table": kde.kernel_table(), "kernels": dict(kde.KERNELS)}
    ),
    Baseline(
        epa_samples.limitations_figure,
        {
            "result": lim.limitations_playground(
                np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[0.1, 0.0]]), beta=8.0, method="lsr"
            )
        },
    ),
    Baseline(epa_samples.parents_child_figure, {"result": _DIGITS, "n_rows": 4}),
]

FR = [
    Baseline(fr_basics.plot_counting_curve, {"curve": lm.counting_curve(0.5, 10, 100, n=5)}),
    Baseline(fr_basics.plot_first_moments, {"pairs": lm.first_moment_pair(3, 3, draws=100)}),
    Baseline(
        fr_basics.plot_load_table,
        {"table": lm.load_table([0.5, 1.0], [15]), "reference": np.array([[10, 20]])},
        accepts={"reference": NONE_OK | FINITE_ENTRIES},  # compared with p only
    ),
    Baseline(
        fr_basics.plot_score_maps,
        {"snapshots": lm.score_snapshot(4, 5, 0), "height": None},
        accepts={"height": INT_OR_NONE},
    ),
    Baseline(
        fr_common.plot_accuracy_curves,
        {
            "sweeps": _ACC_SWEEP,
            "labels": ["OP d = 8"],
            "thresholds": {"α_c": 0.5},
            "hebbian": True,
            "title": None,
            "height": 400,
        },
        accepts={
            "labels": NONE_OK,
            "thresholds": NONE_OK,
            "hebbian": BOOL,
            "title": STR_OR_NONE,
        },
    ),
    Baseline(
        fr_hebbian.plot_model_table,
        {"sweeps": [_HEB_SWEEP], "reference": {(20, 0.1): (0.9, None, 0.8)}},
    ),
    Baseline(
        fr_hebbian.plot_model_vs_simulation, {"sweeps": _HEB_SWEEP, "models": ("row", "leading")}
    ),
    Baseline(fr_hebbian.plot_rate_curves, {"curves": hb.hebbian_rate_curve(1e3, n=5)}),
    Baseline(fr_hebbian.plot_score_histogram, {"hist": hb.hebbian_histogram(0.2, 20, bins=5)}),
    Baseline(fr_mechanism.plot_extreme_value, {"sweep": _MECH_SWEEP, "height": 420}, HEIGHT),
    Baseline(
        fr_mechanism.plot_histogram_grid, {"results": [_MECH_SWEEP.at(0.3)], "height": 560}, HEIGHT
    ),
    Baseline(
        fr_mechanism.plot_row_view,
        {"result": _MECH_SWEEP.at(0.3), "rule": "trained", "height": 460},
        HEIGHT,
    ),
    Baseline(
        fr_mechanism.plot_score_histograms, {"result": _MECH_SWEEP.at(0.3), "height": 420}, HEIGHT
    ),
    Baseline(
        fr_mechanism.plot_target_spread,
        {"sweeps": {"OP d = 8": _MECH_SWEEP}, "std_bound": 0.6, "height": 420},
        accepts={"std_bound": NONE_OK | POSITIVE_REAL, **HEIGHT},
    ),
    Baseline(fr_mechanism.summary_table, {"sweeps": {"OP d = 8": _MECH_SWEEP}}),
    Baseline(
        fr_replica.plot_energetic_mc,
        {
            "results": energetic.energetic_G_mc([0.0, 0.5], 20, samples=2, rng=0),
            "endpoints": energetic.finite_p_capacity_mc([20], samples=2, rng=0),
            "height": 430,
        },
        accepts={"endpoints": NONE_OK, **HEIGHT},
    ),
    Baseline(
        fr_replica.plot_finite_size,
        {
            "scaling": energetic.finite_size_scaling(
                lp_dims=(4,),
                lp_alphas=[0.5],
                ce_dims=(4,),
                ce_alphas=[6.0],
                instances=1,
                reps=1,
                p_curve=[10, 100],
                samples=2,
            ),
            "height": 450,
        },
        HEIGHT,
    ),
    Baseline(
        fr_replica.plot_free_entropy,
        {"landscape": energetic.free_entropy_landscape(0.3, n_q=11, n_alpha=3), "height": 430},
        HEIGHT,
    ),
    Baseline(
        fr_spectra.plot_eckart_young,
        {"result": lm.eckart_young(0.25, d=20, rng=0, bins=5), "height": 430},
        HEIGHT,
    ),
    Baseline(
        fr_spectra.plot_ks_against_load,
        {"results": [lm.trained_spectrum(0.3, 0.5, d=10, reps=1, bins=5)], "height": 360},
        HEIGHT,
    ),
    Baseline(
        fr_spectra.plot_spectrum_comparisons,
        {
            "comparisons": [lm.spectrum_comparison(np.eye(4), "quarter_circle", bins=4)],
            "titles": ["κ = 0.5"],
            "height": 360,
        },
        accepts={"titles": NONE_OK, **HEIGHT},
    ),
    Baseline(
        fr_spectra.plot_trained_spectrum,
        {"result": lm.trained_spectrum(0.3, 0.5, d=10, reps=1, bins=5), "height": 420},
        HEIGHT,
    ),
    Baseline(
        fr_training.plot_learning_curve,
        {"curve": lm.learning_curve(8, 1.5, steps=5), "height": 380},
        HEIGHT,
    ),
    Baseline(
        fr_training.plot_schedule,
        {"schedules": {4: [lm.learning_rate(t, steps=4) for t in range(4)]}, "height": 320},
        HEIGHT,
    ),
    Baseline(
        fr_training.plot_threshold_scan,
        {
            "scans": lm.threshold_scan([8], [0.3, 0.6], reps=1, steps=5),
            "labels": ["CE + Adam"],
            "reference": {"LP": [(8, 0.5, 0.7)]},
            "height": 400,
        },
        accepts={"labels": NONE_OK, "reference": NONE_OK, **HEIGHT},
    ),
    Baseline(
        fr_training.plot_training_vs_hebbian,
        {
            "sweep": _ACC_SWEEP,
            "thresholds": {"α_c": 0.5},
            "reference": {"note": {0.3: 0.9}},
            "title": None,
        },
        accepts={"thresholds": NONE_OK, "reference": NONE_OK, "title": STR_OR_NONE},
    ),
]

AS = [
    Baseline(
        as_dynamics.plot_basins,
        {
            "curves": at.basin_curve(
                alpha=0.1, direction="random", N=20, eps_grid=(0.1,), kicks=1, T=2.0
            ),
            "height": 430,
        },
        HEIGHT,
    ),
    Baseline(
        as_dynamics.plot_fluctuations,
        {
            "results": at.stationary_covariance(_NET, 0, 0.01, T=2.0, burn_in=1.0, walkers=1),
            "height": 430,
        },
        HEIGHT,
    ),
    Baseline(
        as_dynamics.plot_kicks,
        {"runs": _KICK, "titles": ["(a)"], "fits": [at.decay_rate(_KICK)], "height": 460},
        accepts={"titles": NONE_OK, "fits": NONE_OK, **HEIGHT},
    ),
    Baseline(
        as_ensemble.plot_ensemble,
        {"view": ens.ensemble_view(20, 0.5, 0.5, sigma_ratio=0.5, c=1.0, seed=2), "height": 520},
        HEIGHT,
    ),
    Baseline(as_ensemble.plot_ensemble_grid, {"grid": _ENS_GRID, "height": 760}, HEIGHT),
    Baseline(
        as_ensemble.plot_ensemble_table,
        {"grid": _ENS_GRID, "reference": {(0.2, 0.0): (0.1, 0.5)}, "height": 360},
        accepts={"reference": NONE_OK, **HEIGHT},
    ),
    Baseline(
        as_ensemble.plot_reduction, {"check": ens.reduction_check(_NET, 0), "height": 380}, HEIGHT
    ),
    Baseline(
        as_loads.plot_alpha_s_comparison,
        {
            "comparison": _ALPHA_S,
            "curve": at.alpha_s_vs_cv([0.5, 1.0]),
            "reference": {"cv": [1.0], "alpha_s": [0.1], "label": "note"},
            "height": 440,
        },
        accepts={"curve": NONE_OK, "reference": NONE_OK, **HEIGHT},
    ),
    Baseline(
        as_loads.plot_optimum_vs_cv,
        {
            "curve": at.optimum_vs_cv([1.0], n_grid=[1.0], sigma_grid=[1.0]),
            "reference": {
                "cv": [1.0],
                "n_star": [1.0],
                "sigma_star": [1.0],
                "alpha_s_star": [0.1],
                "label": "note",
            },
            "height": 400,
        },
        accepts={"reference": NONE_OK, **HEIGHT},
    ),
    Baseline(
        as_loads.plot_phase_diagram,
        {
            "view": at.phase_view(1.0, n_points=5, sigma_points=3),
            "comparison": _ALPHA_S,
            "height": 520,
        },
        accepts={"comparison": NONE_OK, **HEIGHT},
    ),
    Baseline(
        as_loads.plot_transition,
        {
            "scan": at.transition_scan(Ns=(20,), alphas=[0.05, 0.2], patterns=1, seed=1),
            "height": 440,
        },
        HEIGHT,
    ),
    Baseline(
        as_outliers.plot_memory_outliers,
        {"scans": [_THETA_SCAN], "labels": ["CV 1"], "height": 400},
        accepts={"labels": NONE_OK, **HEIGHT},
    ),
    Baseline(as_outliers.plot_outlier_view, {"scan": _THETA_SCAN, "height": 500}, HEIGHT),
    Baseline(
        as_outliers.plot_theta_scan,
        {"scan": _THETA_SCAN, "shown": [0, 1], "height": 505},
        accepts={"shown": NONE_OK, **HEIGHT},
    ),
    Baseline(
        as_outliers.plot_threshold_window,
        {"window": at.threshold_window(1.0, 1.0, np.linspace(0.6, 2.0, 3)), "height": 420},
        HEIGHT,
    ),
    Baseline(
        as_sparse.plot_capacity,
        {
            "curve": at.capacity_curve([0.1, 0.5]),
            "reference": ([0.1, 0.5], [0.2, 0.3]),
            "height": 420,
        },
        accepts={"reference": NONE_OK, **HEIGHT},
    ),
    Baseline(
        as_sparse.plot_kink_profile,
        {"profile": at.kink_profile(0.3, 0.0, N=20), "height": 440},
        HEIGHT,
    ),
    Baseline(
        as_sparse.plot_stability,
        {
            "scans": [at.sparse_stability_scan(20, 0.3, [0.1], theta=-0.5, kappa=0.1, patterns=1)],
            "height": 420,
        },
        HEIGHT,
    ),
    Baseline(
        as_sparse.plot_storage,
        {"scans": [at.storage_fraction(10, 0.3, [0.5], rows=2)], "height": 400, "labels": None},
        accepts={"labels": NONE_OK, **HEIGHT},
    ),
    Baseline(
        as_sparse.plot_threshold,
        {"scan": at.sparse_threshold_scan(20, 0.3, 0.2, [-0.5, 0.0], patterns=1), "height": 380},
        HEIGHT,
    ),
    Baseline(
        as_spectra.plot_bulk_edge_table,
        {"rows": at.bulk_edge_table([(1, 1, 1, 0.2)], N=20, patterns=1), "height": 420},
        HEIGHT,
    ),
    Baseline(
        as_spectra.plot_edge_deviations,
        {
            "dev": at.edge_deviations(cvs=(0.5,), alphas=(0.2,), N=20, patterns=1, seeds=1, bins=3),
            "height": 380,
        },
        HEIGHT,
    ),
    Baseline(
        as_spectra.plot_gain_swap, {"swap": at.gain_swap(N=20, patterns=1), "height": 430}, HEIGHT
    ),
    Baseline(
        as_spectra.plot_spectrum,
        {"view": at.spectrum_view(N=20, alpha=0.25, patterns=1), "height": 520},
        HEIGHT,
    ),
    Baseline(as_structure.plot_activation, {"curves": at.activation_curves(1.0, 1.0, points=5)}),
    Baseline(
        as_structure.plot_non_normality,
        {"sweeps": [_WEIGHT_SWEEP], "reference": {1.0: ([0.2], [0.1], [0.5])}},
        accepts={"reference": NONE_OK},
    ),
    Baseline(as_structure.plot_pattern_density, {"densities": at.pattern_density(1.0)}),
    Baseline(as_structure.plot_recall_demo, {"demos": [at.recall_demo(0.1, 1.0, N=20, T=2.0)]}),
    Baseline(
        as_structure.plot_weight_snapshot, {"snap": at.weight_snapshot(0.3, 1.0, N=20, pairs=5)}
    ),
    Baseline(as_structure.plot_weight_sweep, {"sweeps": _WEIGHT_SWEEP}),
]

BASELINES = CORE + EPA + FR + AS

MODULES = ["assocmem.explore"] + [
    f"assocmem.explore.{m}"
    for m in (
        "epanechnikov.landscapes",
        "epanechnikov.minima",
        "epanechnikov.samples",
        "factual_recall.basics",
        "factual_recall.common",
        "factual_recall.hebbian",
        "factual_recall.mechanism",
        "factual_recall.replica",
        "factual_recall.spectra",
        "factual_recall.training",
        "attractor_stability.dynamics",
        "attractor_stability.ensemble",
        "attractor_stability.loads",
        "attractor_stability.outliers",
        "attractor_stability.sparse",
        "attractor_stability.spectra",
        "attractor_stability.structure",
    )
]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
