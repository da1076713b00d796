"""Emergent memories of the LSR energy: definitions, exact examples, counts and basins.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*: Definitions 1-3, Propositions 1-3, Theorem 2 and Sec. 4.1 / Fig. 3 (left). "Note §"
refers to the chapter note ``shared/notes/05-epanechnikov-dense-am.md``.

Notation map
------------
======================  ==========================  =============================================
paper                   code                        meaning
======================  ==========================  =============================================
Ξ = {ξ_μ}               ``memories``, (M, d)        stored patterns
β                       ``beta``                    inverse temperature, > 0
√(2/β)                  ``radius`` / R              support radius of every LSR ball
B(x)                    active set                  strict {μ : ‖x − ξ_μ‖² < 2/β} (note §0)
𝒦, ξ̄_𝒦                  ``index_set``, centroid     a subset of memories and its mean
ε (Def. 1)              ``eps_novel``               novelty radius (not the ϵ inside eq. (3))
𝒮(ξ̃) (Def. 3)           ``removal_sets``            memories whose removal kills a minimum
r                       ``r_min``                   min pairwise distance
a                       ``a``                       edge length of a regular simplex
ℓ                       ``spacing``                 grid spacing (Prop. 3)
======================  ==========================  =============================================

Every LSR local minimum is the centroid of a *self-consistent* subset 𝒦, B(ξ̄_𝒦) = 𝒦 (note
§1.7); the exact enumeration lives in :mod:`assocmem.dense_am.minima`. This module builds the
chapter's examples and experiments on top of it. These are small analysis helpers: they work in
NumPy (the heavy enumeration underneath is backend-generic) and return frozen dataclasses.

Public functions
----------------
Geometry: ``regular_simplex``, ``simplex_window``, ``regular_polygon``, ``equilateral_triangle``,
``grid_memories``.
Definitions and propositions: ``emergence_report`` (Defs. 1-3), ``prop2_check``,
``prop2_counterexample`` (Prop. 2 needs self-consistency), ``extreme_points``,
``lse_hull_vertex_gradients`` (Prop. 1, extreme-point argument), ``grid_minima_counts`` (Prop. 3).
Experiments: ``scaled_landscape_2d`` (exploration 4), ``polygon_minima`` (triangle puzzle,
exploration 7), ``simplex_count_experiment`` (2^M − 1), ``emergence_sweep`` (Fig. 3 left,
exploration 6), ``emergence_peaks`` (peak height against d), ``largest_beta_counterexample``
(App. C.2), ``count_bound_check`` (Thm 2 count bound), ``basin_survey`` (Thm 2(b)),
``collision_curve`` (eq. (10)), ``capacity_panel`` (Thm 2(a), exploration 10),
``capacity_scaling`` (M = √(1 − δ) e^(αd) against d),
``active_set_experiment`` (eq. (11)).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.optimize import linprog
from scipy.special import logsumexp

from assocmem._validation import (
    MAX_ABS_ENTRY,
    MAX_ELEMENTS,
    MAX_STEPS,
    as_memories,
    as_points,
    as_real_vector,
    as_rng,
    check_beta,
    check_fraction,
    check_instance,
    check_int_sequence,
    check_max_abs,
    check_nonneg_float,
    check_positive_int,
    check_size,
)
from assocmem.backend import to_numpy
from assocmem.dense_am.capacity import (
    CapacityCurve,
    CapacityMC,
    Eq11Band,
    active_set_size_samples,
    ball_volume,
    capacity_curve,
    capacity_experiment,
    collision_bound,
    count_bound_log,
    eq11_band,
    min_distance_samples,
)
from assocmem.dense_am.energy import (
    active_set,
    lse_grad,
    lsr_energy,
    lsr_grad,
    sqdist,
    support_radius,
)
from assocmem.dense_am.landscape import Landscape2D, landscape_2d
from assocmem.dense_am.minima import (
    BetaThresholds,
    MinimaCount,
    _random_sets,
    basin_radius,
    beta_thresholds,
    count_minima,
    fig3_beta_grid,
    lsr_minima,
    minima_sweep,
)
from assocmem.dense_am.retrieval import lsr_one_step, lsr_retrieve

__all__ = [
    "ActiveSetMC",
    "BasinSurvey",
    "CapacityPanel",
    "CapacityScaling",
    "CollisionCurve",
    "CountBoundCheck",
    "EmergenceCounts",
    "EmergencePeaks",
    "EmergenceReport",
    "EmergenceSweep",
    "GridCounts",
    "HullGradients",
    "LargestBetaCheck",
    "PolygonMinima",
    "Prop2Check",
    "SimplexCounts",
    "active_set_experiment",
    "basin_survey",
    "capacity_panel",
    "capacity_scaling",
    "collision_curve",
    "count_bound_check",
    "emergence_counts",
    "emergence_peaks",
    "emergence_report",
    "emergence_sweep",
    "equilateral_triangle",
    "extreme_points",
    "grid_memories",
    "grid_minima_counts",
    "largest_beta_counterexample",
    "lse_hull_vertex_gradients",
    "polygon_minima",
    "prop2_check",
    "prop2_counterexample",
    "regular_polygon",
    "regular_simplex",
    "scaled_landscape_2d",
    "simplex_count_experiment",
    "simplex_window",
]

# Radii (in units of the circumradius) of the count-versus-R curve of the polygon puzzle. The
# offset of 0.005 keeps every grid value off the exact breakpoints (√3/2, 1, 1.5, √3 for the
# triangle), where the count depends on float ties (Pitfall P1).
_POLYGON_RADII = np.round(np.arange(0.405, 2.2, 0.01), 3)
# Largest number of memories handed to the exact enumeration by the experiments here: its
# (M, M) pairwise matrices must fit MAX_ELEMENTS.
_MAX_MEMORIES = math.isqrt(MAX_ELEMENTS)
# Largest β grid of a sweep (one exact enumeration per point).
_MAX_BETA_POINTS = 10_000
# Largest grid of grid_minima_counts: exact enumeration on a lattice is slow (many overlapping
# candidate windows): about 7 s at 128 points in 1-D, 2-D or 3-D, and it grows steeply.
_MAX_GRID_POINTS = 128


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolygonMinima:
    """All LSR minima of a regular polygon at one support radius (note §2.9, exploration 7).

    Attributes
    ----------
    memories : numpy.ndarray, shape (n, 2)
        The vertices.
    radius : float
        Support radius R = √(2/β).
    beta : float
        2/R².
    minima : list of tuple of int
        Self-consistent index sets (sorted).
    centroids : numpy.ndarray, shape (K, 2)
        Their centroids.
    sizes : numpy.ndarray of int, shape (K,)
        |𝒦| of each minimum.
    curve_radii, curve_counts : numpy.ndarray
        The number of minima on a fixed grid of radii (the count-versus-R staircase).
    """

    memories: np.ndarray
    radius: float
    beta: float
    minima: list[tuple[int, ...]]
    centroids: np.ndarray
    sizes: np.ndarray
    curve_radii: np.ndarray
    curve_counts: np.ndarray


@dataclass(frozen=True)
class SimplexCounts:
    """Number of LSR minima of regular simplices (note §2.9 item 3).

    Attributes
    ----------
    M : numpy.ndarray of int
        Numbers of vertices.
    a : float
        Edge length.
    beta : numpy.ndarray
        Inverse temperature used for each M.
    n_minima : numpy.ndarray of int
        Exact count of minima.
    n_predicted : numpy.ndarray of int
        2^M − 1, the number of non-empty subsets.
    """

    M: np.ndarray
    a: float
    beta: np.ndarray
    n_minima: np.ndarray
    n_predicted: np.ndarray


@dataclass(frozen=True)
class Prop2Check:
    """Proposition 2 at one query point: is the centroid of B(x) a minimum? (note §1.7).

    Attributes
    ----------
    memories : numpy.ndarray, shape (M, d)
    beta : float
    x : numpy.ndarray, shape (d,)
        The query point of Prop. 2.
    active : tuple of int
        B(x).
    centroid : numpy.ndarray, shape (d,)
        ξ̄_{B(x)}, the point Prop. 2 calls a local minimum.
    active_at_centroid : tuple of int
        B(ξ̄_{B(x)}).
    self_consistent : bool
        Whether B(ξ̄_{B(x)}) = B(x); only then is the centroid a minimum.
    grad_norm_at_centroid : float
        ‖∇E_LSR‖ at the centroid (zero iff self-consistent).
    fixed_point : numpy.ndarray, shape (d,)
        Where Algorithm 1 started at x ends: the minimum that x actually reaches.
    fixed_point_set : tuple of int
        Its (self-consistent) active set.
    grid, energy : numpy.ndarray or None
        For d = 1, the LSR energy on a grid (for the figure); None otherwise.
    """

    memories: np.ndarray
    beta: float
    x: np.ndarray
    active: tuple[int, ...]
    centroid: np.ndarray
    active_at_centroid: tuple[int, ...]
    self_consistent: bool
    grad_norm_at_centroid: float
    fixed_point: np.ndarray
    fixed_point_set: tuple[int, ...]
    grid: np.ndarray | None
    energy: np.ndarray | None


@dataclass(frozen=True)
class EmergenceReport:
    """Definitions 1-3 applied to every LSR minimum at one β.

    Attributes
    ----------
    beta, eps_novel : float
        Inverse temperature and the novelty radius ε of Def. 1.
    minima : list of tuple of int
        Self-consistent index sets (all local minima, note §1.7).
    centroids : numpy.ndarray, shape (K, d)
    is_stored : numpy.ndarray of bool, shape (K,)
        The minimum is a stored pattern (|𝒦| = 1).
    nearest_memory : numpy.ndarray, shape (K,)
        Distance from each minimum to the closest stored pattern.
    is_novel : numpy.ndarray of bool, shape (K,)
        Def. 1 (b): that distance is >= ε.
    removal_sets : list of tuple of int
        𝒮(ξ̃) of Def. 3 for the novel minima (empty tuple for the others): the memories whose
        removal stops ξ̃ from being a minimum. For LSR it equals 𝒦 (note §1.6).
    locally_emergent, strongly_emergent : numpy.ndarray of bool, shape (K,)
        Def. 3: some / every member of 𝒮(ξ̃) is itself a stored minimum (False if not novel).
    stored_retained : numpy.ndarray of bool, shape (M,)
        Which stored patterns are minima (Def. 2 (i)).
    global_emergence : bool
        Def. 2: every pattern retained and at least one novel minimum.
    """

    beta: float
    eps_novel: float
    minima: list[tuple[int, ...]]
    centroids: np.ndarray
    is_stored: np.ndarray
    nearest_memory: np.ndarray
    is_novel: np.ndarray
    removal_sets: list[tuple[int, ...]]
    locally_emergent: np.ndarray
    strongly_emergent: np.ndarray
    stored_retained: np.ndarray
    global_emergence: bool


@dataclass(frozen=True)
class EmergenceCounts:
    """:func:`emergence_report` summarised over many random pattern sets, one entry per set.

    Attributes
    ----------
    relative_beta : float
        β in units of 2/r² (r the set's smallest pairwise distance).
    M, d : int
        Patterns per set and dimension.
    n_minima, n_retained, n_novel, n_locally, n_strongly : numpy.ndarray of int, shape (n_sets,)
        Minima, stored patterns that are minima, novel minima, and locally / strongly emergent
        ones (Defs. 1-3).
    n_removal_not_index : numpy.ndarray of int, shape (n_sets,)
        Novel minima whose removal set 𝒮 of Def. 3 differs from their index set 𝒦 (0 for LSR).
    global_emergence : numpy.ndarray of bool, shape (n_sets,)
        Def. 2 per set.
    """

    relative_beta: float
    M: int
    d: int
    n_minima: np.ndarray
    n_retained: np.ndarray
    n_novel: np.ndarray
    n_locally: np.ndarray
    n_strongly: np.ndarray
    n_removal_not_index: np.ndarray
    global_emergence: np.ndarray


@dataclass(frozen=True)
class HullGradients:
    """LSE gradient norms at the stored patterns (Prop. 1, extreme-point argument, note §2.4).

    Attributes
    ----------
    betas : numpy.ndarray, shape (n_beta,)
    is_extreme : numpy.ndarray of bool, shape (M,)
        Which patterns are vertices (extreme points) of conv(Ξ).
    log10_grad_norm : numpy.ndarray, shape (n_beta, M)
        log10 ‖∇E_LSE(ξ_ν)‖, computed in log space so that it stays finite where the float64
        gradient underflows to 0.0 (Pitfall P8); −inf only where the gradient is exactly zero
        (e.g. a symmetric interior pattern).
    grad_norm_float64 : numpy.ndarray, shape (n_beta, M)
        ‖x − softmax @ Ξ‖ as :func:`~assocmem.dense_am.lse_grad` computes it in float64: exactly
        0.0 once the softmax rounds to one-hot (Pitfall P8), although the true value is not.
    linearly_independent : bool
        Whether the patterns are linearly independent (needs M <= d), the hypothesis of the
        paper's proof.
    """

    betas: np.ndarray
    is_extreme: np.ndarray
    log10_grad_norm: np.ndarray
    grad_norm_float64: np.ndarray
    linearly_independent: bool


@dataclass(frozen=True)
class GridCounts:
    """Minima counts on regular grids against the Prop. 3 prediction (note §2.7).

    Attributes
    ----------
    d : int
        Grid dimension.
    radius_over_spacing : float
        Support radius in units of the spacing.
    n : numpy.ndarray of int
        Points per axis (M = n^d).
    counts : numpy.ndarray of int
        Exact number of LSR minima.
    predicted : numpy.ndarray
        (n − λ^(1/d) + 1)^d with λ^(1/d) = 2R/ℓ, the sliding-window count of Prop. 3.
    ratio : numpy.ndarray
        counts / predicted: the constant hidden in Θ (about 2 in 1-D).
    """

    d: int
    radius_over_spacing: float
    n: np.ndarray
    counts: np.ndarray
    predicted: np.ndarray
    ratio: np.ndarray


@dataclass(frozen=True)
class EmergenceSweep:
    """Counts of LSR minima against β for M uniform patterns (Fig. 3 left, exploration 6).

    Attributes
    ----------
    d, M, seed : int
        Dimension, number of patterns and the seed that drew them from [0, 1]^d.
    memories : numpy.ndarray, shape (M, d)
        The patterns.
    betas : numpy.ndarray, shape (n,)
        Geometric grid from 2/d to 8/r² (the paper's 2/d .. 2/r² extended, note P3).
    n_total, n_stored, n_novel : numpy.ndarray of int, shape (n,)
        Minima, stored patterns that are minima, and novel minima (|𝒦| >= 2).
    support_fraction : numpy.ndarray, shape (n,)
        Monte-Carlo fraction of the cube within R of some pattern (NaN if not sampled).
    thresholds : BetaThresholds
        2/diam², 2/r², 8/r² (note §2.2 C1-C3).
    global_window : numpy.ndarray of bool, shape (n,)
        All stored patterns retained and at least one novel minimum (Def. 2).
    peak : int
        Index of the largest total count.
    """

    d: int
    M: int
    seed: int
    memories: np.ndarray
    betas: np.ndarray
    n_total: np.ndarray
    n_stored: np.ndarray
    n_novel: np.ndarray
    support_fraction: np.ndarray
    thresholds: BetaThresholds
    global_window: np.ndarray
    peak: int


@dataclass(frozen=True)
class LargestBetaCheck:
    """App. C.2's "at the largest β no spurious memories" against the exact counts (note P3).

    Attributes
    ----------
    M : int
    thresholds : BetaThresholds
    beta_paper_max : float
        2/r², the largest β of the paper's sweep.
    at_paper_max : MinimaCount
        Exact count there.
    beta_stored_only : float
        8/r² (1 + margin), just above the C2 threshold.
    at_stored_only : MinimaCount
        Exact count there (must be M, stored patterns only).
    """

    M: int
    thresholds: BetaThresholds
    beta_paper_max: float
    at_paper_max: MinimaCount
    beta_stored_only: float
    at_stored_only: MinimaCount


@dataclass(frozen=True)
class BasinSurvey:
    """Basin radii of the novel minima (Thm 2(b), eq. (4)) and a one-step retrieval test.

    Attributes
    ----------
    beta : float
    minima : list of tuple of int
        The novel minima (|𝒦| >= 2).
    r_star : numpy.ndarray, shape (K,)
        The paper's basin radius r* of eq. (4).
    r_star_exact : numpy.ndarray, shape (K,)
        The largest ball on which B stays 𝒦: min_μ |‖x* − ξ_μ‖ − R| (note §2.6).
    delta_min, gamma_min : numpy.ndarray, shape (K,)
        Margins to leaving / entering the active set (Thm 2).
    nearest_memory : numpy.ndarray, shape (K,)
        Distance from each novel minimum to the closest stored pattern.
    epsilon : float
        Thm 2's ε = min over novel minima of r* (+inf, the minimum over an empty set, if there
        is none: every novel minimum then vacuously has a basin of any radius).
    n_samples : int
        Starts drawn uniformly in each ball of radius 0.999 r*.
    n_fail : int
        Starts whose single Algorithm-1 step did not land on the minimum.
    """

    beta: float
    minima: list[tuple[int, ...]]
    r_star: np.ndarray
    r_star_exact: np.ndarray
    delta_min: np.ndarray
    gamma_min: np.ndarray
    nearest_memory: np.ndarray
    epsilon: float
    n_samples: int
    n_fail: int


@dataclass(frozen=True)
class CapacityPanel:
    """Theorem 2(a) at one (d, M, α): r samples and success against M (exploration 10)."""

    mc: CapacityMC
    curve: CapacityCurve


@dataclass(frozen=True)
class EmergencePeaks:
    """Height of the Fig. 3 (left) peak against d, over several seeds (note Appendix, T16).

    Attributes
    ----------
    ds : numpy.ndarray of int, shape (n_d,)
    seeds : numpy.ndarray of int, shape (n_s,)
    M : int
    peak_ratio : numpy.ndarray, shape (n_d, n_s)
        Largest total count along the β grid divided by M.
    stored_fraction : numpy.ndarray, shape (n_d, n_s)
        Fraction of the patterns that are minima at that peak.
    support_fraction : numpy.ndarray, shape (n_d, n_s)
        Supported fraction of the cube at that peak.
    peak_beta_rel : numpy.ndarray, shape (n_d, n_s)
        β at the peak in units of 2/r² (the C1 threshold).
    """

    ds: np.ndarray
    seeds: np.ndarray
    M: int
    peak_ratio: np.ndarray
    stored_fraction: np.ndarray
    support_fraction: np.ndarray
    peak_beta_rel: np.ndarray


@dataclass(frozen=True)
class CountBoundCheck:
    """The Theorem 2 count bound (paper eq. (5)) against exact counts along a sweep.

    Attributes
    ----------
    betas : numpy.ndarray, shape (n,)
    lam : numpy.ndarray, shape (n,)
        λ = M V_d (2/β)^(d/2), the expected |B(x)| (eq. (11)).
    log_bound : numpy.ndarray, shape (n,)
        λ log(eM/λ) + log M, the bound on log(#minima) without its O(·) constant (note §2.6),
        at every β (read it only where ``valid``).
    log_count : numpy.ndarray, shape (n,)
        log of the exact number of minima.
    valid : numpy.ndarray of bool, shape (n,)
        Where the bound is stated: 1 <= λ <= M.
    holds : numpy.ndarray of bool, shape (n,)
        log_count <= log_bound (True outside ``valid`` by convention).
    """

    betas: np.ndarray
    lam: np.ndarray
    log_bound: np.ndarray
    log_count: np.ndarray
    valid: np.ndarray
    holds: np.ndarray


@dataclass(frozen=True)
class CapacityScaling:
    """Theorem 2(a)'s capacity M = √(1 − δ) e^(αd) tested against d by Monte-Carlo.

    Attributes
    ----------
    ds : numpy.ndarray of int, shape (n,)
    alpha, delta : float
        Capacity exponent and the target success probability δ.
    M : numpy.ndarray of int, shape (n,)
        floor(√(1 − δ) e^(αd)) (at least 2) for each d.
    empirical_success : numpy.ndarray, shape (n,)
        Monte-Carlo Pr[r >= (V_d)^(−1/d) e^(−2α)] at that M.
    bound_delta : numpy.ndarray, shape (n,)
        1 − M² e^(−2αd) at that M (>= δ after the flooring).
    n_trials : int
    """

    ds: np.ndarray
    alpha: float
    delta: float
    M: np.ndarray
    empirical_success: np.ndarray
    bound_delta: np.ndarray
    n_trials: int


@dataclass(frozen=True)
class CollisionCurve:
    """Pr[r < t] from Monte-Carlo against the union bound of paper eq. (10).

    Attributes
    ----------
    d, M, n_trials : int
    threshold : numpy.ndarray, shape (n,)
        Distance thresholds t (the paper's ε in eq. (10); renamed because ε is the novelty
        radius elsewhere and ``eps`` the floor of eq. (3)).
    empirical : numpy.ndarray, shape (n,)
        Fraction of draws with min pairwise distance r < ε.
    stderr : numpy.ndarray, shape (n,)
        Binomial standard error of ``empirical``.
    bound : numpy.ndarray, shape (n,)
        M² V_d t^d (V = 1).
    """

    d: int
    M: int
    n_trials: int
    threshold: np.ndarray
    empirical: np.ndarray
    stderr: np.ndarray
    bound: np.ndarray


@dataclass(frozen=True)
class ActiveSetMC:
    """Samples of |B(x)| at interior queries against eq. (11) (Thm 2 count bound).

    Attributes
    ----------
    d, M : int
    beta : float
    samples : numpy.ndarray of int, shape (n_queries,)
    band : Eq11Band
        λ and λ ∓ 5√(λ log M).
    mean : float
        Sample mean of |B(x)|.
    fraction_in_band : float
        Fraction of samples inside the band.
    p_statement, p_proof : float
        The band's probability as stated (1 − M⁻²) and as proved in App. D.3 (1 − M⁻¹).
    """

    d: int
    M: int
    beta: float
    samples: np.ndarray
    band: Eq11Band
    mean: float
    fraction_in_band: float
    p_statement: float
    p_proof: float


# --------------------------------------------------------------------------------------------
# Geometry
# --------------------------------------------------------------------------------------------


def regular_simplex(M: int, a: float = 1.0) -> np.ndarray:
    """Vertices ξ_i = (a/√2) e_i of a regular simplex with M vertices and edge a (note §2.9).

    Parameters
    ----------
    M : int
        Number of vertices, >= 1, with M² <= ``MAX_ELEMENTS``.
    a : float
        Edge length, > 0.

    Returns
    -------
    numpy.ndarray, shape (M, M)
        One vertex per row, in R^M; every pairwise distance equals ``a``.

    Raises
    ------
    ValueError
        For ``a`` <= 0 or M out of range.

    Examples
    --------
    >>> x = regular_simplex(3, a=2.0)
    >>> round(float(np.linalg.norm(x[0] - x[1])), 12)
    2.0
    """
    M = check_positive_int(M, "M")
    a = check_beta(a, "a")
    check_size(
        M * M, "M", "elements of the (M, M) vertex array", MAX_ELEMENTS, "use fewer vertices"
    )
    return (a / math.sqrt(2.0)) * np.eye(M)


def simplex_window(M: int, a: float = 1.0) -> tuple[float, float]:
    """Open β interval in which all 2^M − 1 subsets of a regular simplex are LSR minima.

    Notes
    -----
    (Derived, note §2.9 item 3.) The centroid of a k-subset is at distance
    (a/√2)√((k−1)/k) from its members and (a/√2)√(1 + 1/k) from the others. All subsets are
    self-consistent iff R² lies above the largest member distance (k = M) and below the smallest
    non-member distance (k = M − 1):
    (a²/2)(M−1)/M < 2/β < (a²/2) M/(M−1), i.e. 4(M−1)/(M a²) < β < 4M/((M−1) a²).
    β = 4/a² lies inside for every M. For M = 3 this is the triangle window 1 < R/ρ < 1.5 in
    units of the circumradius ρ = a/√3.

    Parameters
    ----------
    M : int
        Number of vertices, >= 2.
    a : float
        Edge length, > 0.

    Returns
    -------
    (float, float)
        The open interval (β_lo, β_hi); its ends are 0 or +inf where 1/a² leaves the float
        range.

    Examples
    --------
    >>> simplex_window(2)  # two points: the 3-minima window (2/a², 8/a²), note §2.9 item 1
    (2.0, 8.0)
    """
    M = check_positive_int(M, "M", minimum=2)
    a = check_beta(a, "a")
    # divide by a twice: a * a underflows to 0 for a < 1e-162 (the ends are then +inf)
    return 4.0 * (M - 1) / M / a / a, 4.0 * M / (M - 1) / a / a


def regular_polygon(n: int, circumradius: float = 1.0) -> np.ndarray:
    """Vertices of a regular n-gon in the plane, the first one at the top.

    Parameters
    ----------
    n : int
        Number of vertices, >= 2 (n = 2 gives two points at distance 2ρ), 2n <= ``MAX_ELEMENTS``.
    circumradius : float
        Distance ρ from the centre to each vertex, > 0.

    Returns
    -------
    numpy.ndarray, shape (n, 2)

    Examples
    --------
    >>> regular_polygon(4).round(12).tolist()
    [[0.0, 1.0], [-1.0, 0.0], [-0.0, -1.0], [1.0, -0.0]]
    """
    n = check_positive_int(n, "n", minimum=2)
    rho = check_beta(circumradius, "circumradius")
    check_size(2 * n, "n", "coordinates", MAX_ELEMENTS, "use fewer vertices")
    angles = np.pi / 2 + 2.0 * np.pi * np.arange(n) / n
    return rho * np.column_stack([np.cos(angles), np.sin(angles)])


def equilateral_triangle(circumradius: float = 1.0) -> np.ndarray:
    """The equilateral triangle of note §2.9 item 2 (side √3 ρ), as a (3, 2) array.

    Examples
    --------
    >>> x = equilateral_triangle()
    >>> round(float(np.linalg.norm(x[0] - x[1])) ** 2, 12)  # side √3
    3.0
    """
    return regular_polygon(3, circumradius)


def grid_memories(n: int, d: int, spacing: float = 1.0) -> np.ndarray:
    """The n^d points of a regular grid with the given spacing (Prop. 3).

    Parameters
    ----------
    n : int
        Points per axis, >= 1.
    d : int
        Dimension, >= 1; the n^d·d coordinates must stay within ``MAX_ELEMENTS``.
    spacing : float
        Grid spacing ℓ, > 0.

    Returns
    -------
    numpy.ndarray, shape (n**d, d)

    Raises
    ------
    ValueError
        For a value out of range, or a grid above the cap.

    Examples
    --------
    >>> grid_memories(2, 2).tolist()
    [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    """
    n = check_positive_int(n, "n")
    d = check_positive_int(d, "d")
    h = check_beta(spacing, "spacing")
    check_size(
        _grid_coordinates(n, d),
        "n",
        f"coordinates (n^d·d with d = {d})",
        MAX_ELEMENTS,
        "use fewer points per axis or fewer dimensions",
    )
    axes = np.meshgrid(*([np.arange(n, dtype=float)] * d), indexing="ij")
    return h * np.stack([a.ravel() for a in axes], axis=1)


# --------------------------------------------------------------------------------------------
# Definitions 1-3 and Propositions 1-3
# --------------------------------------------------------------------------------------------


def emergence_report(memories: Any, beta: float, eps_novel: float) -> EmergenceReport:
    """Classify every LSR minimum by Definitions 1-3 of the paper.

    Notes
    -----
    Def. 1: a minimum is *novel* if it is at distance >= ε from every stored pattern. Def. 2
    (global emergence): every pattern is a minimum and some minimum is novel. Def. 3: 𝒮(ξ̃) is
    the minimal set of memories whose individual removal destroys the minimum ξ̃; ξ̃ is locally
    (strongly) emergent if some (every) member of 𝒮 is itself a stored minimum. Removing a
    non-member of 𝒦 leaves B(ξ̄_𝒦) = 𝒦, so only members are tested (note §1.6); the test for a
    member μ asks whether ξ̄_𝒦 is still a self-consistent centroid once ξ_μ is gone.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Entries of magnitude <= 1e100 (``MAX_ABS_ENTRY``: squared distances stay finite).
    beta : float
        Inverse temperature, > 0.
    eps_novel : float
        Novelty radius ε >= 0 of Def. 1.

    Returns
    -------
    EmergenceReport

    Examples
    --------
    Two points at distance 1 with 2 < β < 8 (note §2.9 item 1): the midpoint is a novel,
    strongly emergent minimum and the pair shows global emergence.

    >>> rep = emergence_report([[0.0], [1.0]], beta=4.0, eps_novel=0.1)
    >>> rep.minima, rep.global_emergence, rep.removal_sets[1]
    ([(0,), (0, 1), (1,)], True, (0, 1))
    """
    xi = check_max_abs(to_numpy(as_memories(memories)), "memories")
    beta = check_beta(beta)
    eps_novel = check_nonneg_float(eps_novel, "eps_novel")
    minima = lsr_minima(xi, beta)
    cents = np.array([xi[list(k)].mean(axis=0) for k in minima]).reshape(-1, xi.shape[1])
    nearest = np.sqrt(sqdist(cents, xi).min(axis=1)) if minima else np.zeros(0)
    stored = np.array([len(k) == 1 for k in minima])
    novel = nearest >= eps_novel
    retained = np.zeros(xi.shape[0], dtype=bool)
    retained[[k[0] for k in minima if len(k) == 1]] = True
    removal, local, strong = [], [], []
    for k, c, nov in zip(minima, cents, novel, strict=True):
        s = tuple(m for m in k if not _is_minimum_without(xi, c, m, beta)) if nov else ()
        removal.append(s)
        local.append(bool(nov and any(retained[list(s)])))
        strong.append(bool(nov and len(s) > 0 and all(retained[list(s)])))
    return EmergenceReport(
        beta=beta,
        eps_novel=eps_novel,
        minima=minima,
        centroids=cents,
        is_stored=stored,
        nearest_memory=nearest,
        is_novel=novel,
        removal_sets=removal,
        locally_emergent=np.array(local),
        strongly_emergent=np.array(strong),
        stored_retained=retained,
        global_emergence=bool(retained.all() and novel.any()),
    )


def prop2_check(memories: Any, beta: float, x: Any) -> Prop2Check:
    """Test Proposition 2 at a point: is ξ̄_{B(x)} a local minimum of the LSR energy?

    Notes
    -----
    Prop. 2 states that for any x the centroid of B(x) is a local minimum. That holds only if
    B is *self-consistent* at the centroid, B(ξ̄_{B(x)}) = B(x) (note §1.7, Pitfall P4);
    otherwise the gradient (eqs. (7)-(8)) there is non-zero. Algorithm 1 iterates the centroid
    map to self-consistency, which is where x actually ends.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Entries of magnitude <= 1e100 (``MAX_ABS_ENTRY``).
    beta : float
        Inverse temperature, > 0.
    x : array_like, shape (d,)
        The query point (entries of magnitude <= 1e100); B(x) must be non-empty.

    Returns
    -------
    Prop2Check

    Examples
    --------
    >>> chk = prop2_check([[0.0], [1.0], [5.0]], beta=2.0, x=[0.4])
    >>> chk.active, chk.self_consistent
    ((0, 1), True)
    """
    xi = check_max_abs(to_numpy(as_memories(memories)), "memories")
    beta = check_beta(beta)
    pts, _ = as_points(x, xi.shape[1], "x")
    if pts.shape[0] != 1:
        raise ValueError(f"x must be one point of shape ({xi.shape[1]},), got shape {pts.shape}")
    x0 = check_max_abs(to_numpy(pts)[0], "x")
    active = _active_tuple(x0, xi, beta)
    if not active:
        raise ValueError(
            f"x must lie inside some support ball (B(x) non-empty) at beta={beta!r}, whose "
            f"support radius is sqrt(2/beta) = {support_radius(beta):.3g}, got x={x0}"
        )
    cent = xi[list(active)].mean(axis=0)
    at_cent = _active_tuple(cent, xi, beta)
    grad = lsr_grad(cent, xi, beta)
    alg1 = lsr_retrieve(x0, xi, beta)
    grid = energy = None
    if xi.shape[1] == 1:
        grid, energy = _energy_profile_1d(xi, beta)
    return Prop2Check(
        memories=xi,
        beta=beta,
        x=x0,
        active=active,
        centroid=cent,
        active_at_centroid=at_cent,
        self_consistent=at_cent == active,
        grad_norm_at_centroid=float(np.linalg.norm(grad)),
        fixed_point=np.asarray(to_numpy(alg1.points), dtype=float),
        fixed_point_set=tuple(int(i) for i in np.flatnonzero(to_numpy(alg1.active))),
        grid=grid,
        energy=energy,
    )


def prop2_counterexample() -> Prop2Check:
    """The counter-example to Proposition 2 of note §1.7: 1-D patterns {0, 1, 3}, R = 1.6.

    B(1.5) = {0, 1, 3} has centroid 4/3, but B(4/3) = {0, 1} (3 is 5/3 > 1.6 away), so 4/3 is
    not a minimum; Algorithm 1 from 1.5 moves on to 1/2, the centroid of {0, 1}.

    Examples
    --------
    >>> chk = prop2_counterexample()
    >>> chk.active, chk.active_at_centroid, chk.self_consistent
    ((0, 1, 2), (0, 1), False)
    """
    return prop2_check([[0.0], [1.0], [3.0]], beta=2.0 / 1.6**2, x=[1.5])


def extreme_points(memories: Any) -> np.ndarray:
    """Which patterns are extreme points (vertices) of their convex hull conv(Ξ).

    Notes
    -----
    ξ_ν is *not* extreme iff it is a convex combination of the other patterns: the linear
    program "find w >= 0 with Σ w = 1 and Σ_μ≠ν w_μ ξ_μ = ξ_ν" is feasible (solved with
    :func:`scipy.optimize.linprog`). Unlike a Qhull hull this works in any dimension, also for
    flat (degenerate) sets such as a simplex embedded in R^M. A duplicated pattern is not
    extreme.

    Parameters
    ----------
    memories : array_like, shape (M, d)

    Returns
    -------
    numpy.ndarray of bool, shape (M,)

    Examples
    --------
    >>> extreme_points([[-1.0], [0.0], [1.0]]).tolist()
    [True, False, True]
    """
    xi = to_numpy(as_memories(memories))
    M = xi.shape[0]
    if M == 1:
        return np.array([True])
    out = np.empty(M, dtype=bool)
    for nu in range(M):
        others = np.delete(xi, nu, axis=0)
        a_eq = np.vstack([others.T, np.ones((1, M - 1))])
        b_eq = np.concatenate([xi[nu], [1.0]])
        res = linprog(np.zeros(M - 1), A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs")
        out[nu] = res.status != 0
    return out


def lse_hull_vertex_gradients(memories: Any, betas: Any) -> HullGradients:
    """LSE gradient norms at every stored pattern, for a grid of β (Prop. 1, note §2.4).

    Notes
    -----
    At a pattern, ∇E_LSE(ξ_ν) = Σ_{μ≠ν} p_μ(ξ_ν)(ξ_ν − ξ_μ) with all p_μ > 0 at finite β. If it
    vanished, ξ_ν = Σ_{μ≠ν} p_μ/(1 − p_ν) ξ_μ would be a convex combination of the others,
    impossible for an extreme point of conv(Ξ). So the hull vertices are never LSE critical
    points, in any dimension and for any M: LSE cannot show global emergence (Def. 2). The
    paper's proof (App. D.5) instead assumes linear independence, which holds only for M <= d.

    The norm is computed in log space, log‖g‖ = m − log Z + log‖Σ_{μ≠ν} e^{a_μ − m}(ξ_ν − ξ_μ)‖
    with a_μ = −β/2 ‖ξ_ν − ξ_μ‖², m = max_{μ≠ν} a_μ and Z = Σ_μ e^{a_μ}, so that it stays finite
    where the float64 gradient underflows to 0.0 (Pitfall P8).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        At least 2 distinct patterns, entries of magnitude <= 1e100, M²·d <= ``MAX_ELEMENTS``.
    betas : float or array_like
        Inverse temperature(s), each finite and > 0.

    Returns
    -------
    HullGradients

    Examples
    --------
    The middle of {−1, 0, 1} is an exact LSE critical point by symmetry; the ends never are.

    >>> hg = lse_hull_vertex_gradients([[-1.0], [0.0], [1.0]], betas=[1.0, 10.0])
    >>> hg.is_extreme.tolist(), bool(np.isneginf(hg.log10_grad_norm[:, 1]).all())
    ([True, False, True], True)
    """
    xi = check_max_abs(to_numpy(as_memories(memories)), "memories")
    if xi.shape[0] < 2:
        raise ValueError(f"memories must hold at least 2 patterns, got shape {xi.shape}")
    M, d = xi.shape
    check_size(
        M * M * d,
        "memories",
        "elements of the (M, M, d) difference tensor",
        MAX_ELEMENTS,
        "use fewer patterns",
    )
    bs = as_real_vector(betas, "betas", lo=0.0, open_lo=True)
    d2 = sqdist(xi, xi)
    diff = xi[:, None, :] - xi[None, :, :]  # (ν, μ, d): ξ_ν − ξ_μ
    log_g = np.empty((bs.size, xi.shape[0]))
    naive = np.empty_like(log_g)
    for i, beta in enumerate(bs):
        log_g[i] = _lse_pattern_log_grad(d2, diff, beta)
        naive[i] = np.linalg.norm(np.asarray(to_numpy(lse_grad(xi, xi, beta))), axis=1)
    rank = np.linalg.matrix_rank(xi)
    return HullGradients(
        betas=bs,
        is_extreme=extreme_points(xi),
        log10_grad_norm=log_g / math.log(10.0),
        grad_norm_float64=naive,
        linearly_independent=bool(rank == xi.shape[0]),
    )


def grid_minima_counts(ns: Sequence[int], d: int, radius_over_spacing: float) -> GridCounts:
    """Exact LSR minima counts on n^d grids against Prop. 3's (n − λ^(1/d) + 1)^d.

    Notes
    -----
    Prop. 3: on a grid, the number of emergent memories is Θ((M^(1/d) − λ^(1/d) + 1)^d) with
    λ = Θ(M V⁻¹ (8/β)^(d/2)), the number of grid points in a cube of side 2R. With spacing ℓ
    and n = M^(1/d) points per axis, λ^(1/d) = 2R/ℓ. The paper's proof prints "−1" where the
    statement (and the sliding-window count) has "+1" (note §2.7). Θ hides a d-dependent
    constant: in 1-D windows centred on points *and* on midpoints are self-consistent, which
    doubles the count. Choose R/ℓ away from lattice distances: the grid makes exact distance
    ties (Pitfall P1), e.g. R/ℓ in {0.7, 1.2, 1.7, 2.2} in 1-D and {0.8, 1.2} in 2-D.

    Parameters
    ----------
    ns : sequence of int
        Points per axis, each >= 1, with n^d <= 128 memories (the exact count takes about 7 s
        at 128 and grows steeply).
    d : int
        Dimension, >= 1.
    radius_over_spacing : float
        Support radius R = √(2/β) in units of the spacing, > 1/2 (so that λ > 1), and small
        enough that β = 2/R² stays > 0 in float64.

    Returns
    -------
    GridCounts

    Examples
    --------
    >>> g = grid_minima_counts([40], d=1, radius_over_spacing=0.7)  # note §2.7: 79 minima
    >>> int(g.counts[0]), round(float(g.predicted[0]), 1)
    (79, 39.6)
    """
    n_arr = np.array(check_int_sequence(ns, "ns"), dtype=int)
    d = check_positive_int(d, "d")
    ratio = check_beta(radius_over_spacing, "radius_over_spacing")
    if ratio <= 0.5:
        raise ValueError(f"radius_over_spacing must be > 0.5 (λ > 1 in Prop. 3), got {ratio!r}")
    beta = _beta_of_radius(ratio, "radius_over_spacing")
    for n in n_arr:
        check_size(
            _grid_coordinates(int(n), d) // d,
            "ns",
            f"grid points (n^d with d = {d})",
            _MAX_GRID_POINTS,
            "use fewer points per axis (the exact count grows steeply with the grid)",
        )
    counts = np.array([len(lsr_minima(grid_memories(int(n), d), beta)) for n in n_arr])
    predicted = np.maximum(n_arr - 2.0 * ratio + 1.0, 0.0) ** d
    with np.errstate(divide="ignore"):
        rel = np.where(predicted > 0, counts / np.where(predicted > 0, predicted, 1.0), np.inf)
    return GridCounts(d, ratio, n_arr, counts, predicted, rel)


# --------------------------------------------------------------------------------------------
# Experiments
# --------------------------------------------------------------------------------------------


def polygon_minima(n_vertices: int, radius: float, circumradius: float = 1.0) -> PolygonMinima:
    """All LSR minima of a regular polygon at support radius R (exploration 7).

    Notes
    -----
    For the equilateral triangle with circumradius 1 (note §2.9 item 2) the count is 3 for
    R < √3/2, 6 for √3/2 < R < 1, **7 = 2³ − 1** for 1 < R < 1.5, 4 for 1.5 < R < √3 and 1 for
    R > √3. In the plane, a square cannot reach 2⁴ − 1: both diagonals share the centre.

    Parameters
    ----------
    n_vertices : int
        Number of vertices, 2..8.
    radius : float
        Support radius R = √(2/β), > 0, with β = 2/R² finite and > 0 in float64.
    circumradius : float
        Circumradius ρ of the polygon, in (0, 1e100]; the count curve is computed for R/ρ in
        [0.4, 2.2].

    Returns
    -------
    PolygonMinima

    Examples
    --------
    >>> len(polygon_minima(3, radius=1.2).minima)
    7
    """
    n = check_positive_int(n_vertices, "n_vertices", minimum=2, maximum=8)
    radius = check_beta(radius, "radius")
    beta = _beta_of_radius(radius, "radius")
    rho = check_fraction(circumradius, "circumradius", 0.0, MAX_ABS_ENTRY, open_hi=False)
    xi = regular_polygon(n, rho)
    minima = lsr_minima(xi, beta)
    counts = np.array(_polygon_curve(n), dtype=int)
    return PolygonMinima(
        memories=xi,
        radius=radius,
        beta=beta,
        minima=minima,
        centroids=np.array([xi[list(k)].mean(axis=0) for k in minima]),
        sizes=np.array([len(k) for k in minima], dtype=int),
        curve_radii=rho * _POLYGON_RADII,
        curve_counts=counts,
    )


def simplex_count_experiment(
    Ms: Sequence[int], a: float = 1.0, beta: float | None = None
) -> SimplexCounts:
    """Exact LSR minima counts of regular simplices: 2^M − 1 inside the window (note §2.9).

    Parameters
    ----------
    Ms : sequence of int
        Numbers of vertices, each in 2..20 (the count is exponential).
    a : float
        Edge length, in (0, 1e100].
    beta : float, optional
        Inverse temperature; default 4/a², inside :func:`simplex_window` for every M (it must
        be finite: a >= 1e-154).

    Returns
    -------
    SimplexCounts

    Examples
    --------
    >>> simplex_count_experiment([3, 5]).n_minima.tolist()
    [7, 31]
    """
    ms = np.array(check_int_sequence(Ms, "Ms", minimum=2, maximum=20), dtype=int)
    a = check_fraction(a, "a", 0.0, MAX_ABS_ENTRY, open_hi=False)
    if beta is None:
        b = 4.0 / a / a
        if not math.isfinite(b) or b <= 0.0:
            raise ValueError(f"a must give a finite default beta = 4/a^2 > 0, got a={a!r}")
    else:
        b = check_beta(beta)
    counts = np.array([len(lsr_minima(regular_simplex(int(m), a), b)) for m in ms])
    return SimplexCounts(ms, a, np.full(ms.size, b), counts, 2**ms - 1)


def emergence_counts(
    M: int = 12,
    d: int = 4,
    relative_beta: float = 2.0,
    n_sets: int = 30,
    rng: Any = 0,
    eps_novel: float = 0.05,
) -> EmergenceCounts:
    """Definitions 1-3 of the paper on many random pattern sets at one relative β.

    Notes
    -----
    The sets are those of :func:`~assocmem.dense_am.relative_beta_counts` (M patterns uniform
    in [0, 1]^d, set i the i-th (M, d) draw of one generator), each judged by
    :func:`emergence_report` at β = ``relative_beta`` · 2/r², with r its smallest pairwise
    distance. Above 2/r² every pattern is a minimum, so a novel minimum there means
    global emergence (Def. 2); below it the closest pair shares a minimum and only local
    emergence (Def. 3) is possible. A set of 12 patterns in d = 4 costs milliseconds.

    Parameters
    ----------
    M, d, n_sets, rng
        As in :func:`~assocmem.dense_am.relative_beta_counts`.
    relative_beta : float
        β in units of 2/r², in (0, 100].
    eps_novel : float
        Novelty radius ε >= 0 of Def. 1.

    Returns
    -------
    EmergenceCounts

    Examples
    --------
    Above 8/r² (relative β > 4) only the patterns are minima: every pattern is kept and none is
    novel.

    >>> c = emergence_counts(M=6, d=2, relative_beta=5.0, n_sets=3)
    >>> c.n_retained.tolist(), c.n_novel.tolist()
    ([6, 6, 6], [0, 0, 0])
    """
    relative_beta = check_fraction(relative_beta, "relative_beta", hi=100.0, open_hi=False)
    eps_novel = check_nonneg_float(eps_novel, "eps_novel")
    M, d, _, draws = _random_sets(M, d, n_sets, rng)
    rows = []
    for xi in draws:
        rep = emergence_report(xi, relative_beta * beta_thresholds(xi).stored_exact, eps_novel)
        mismatched = sum(
            s != k for k, s, n in zip(rep.minima, rep.removal_sets, rep.is_novel, strict=True) if n
        )
        rows.append(
            (
                len(rep.minima),
                int(rep.stored_retained.sum()),
                int(rep.is_novel.sum()),
                int(rep.locally_emergent.sum()),
                int(rep.strongly_emergent.sum()),
                mismatched,
                rep.global_emergence,
            )
        )
    cols = list(zip(*rows, strict=True))
    return EmergenceCounts(
        relative_beta=relative_beta,
        M=M,
        d=d,
        n_minima=np.array(cols[0]),
        n_retained=np.array(cols[1]),
        n_novel=np.array(cols[2]),
        n_locally=np.array(cols[3]),
        n_strongly=np.array(cols[4]),
        n_removal_not_index=np.array(cols[5]),
        global_emergence=np.array(cols[6], dtype=bool),
    )


def emergence_sweep(
    d: int,
    M: int,
    seed: int = 0,
    n_beta: int = 16,
    support_samples: int = 20_000,
) -> EmergenceSweep:
    """Counts of LSR minima against β for M uniform patterns in [0, 1]^d (Fig. 3 left).

    Notes
    -----
    The grid is geometric from 2/d (App. C.2: a single minimum, since diam <= √d) through the
    paper's largest value 2/r² and on to 8/r², above which only the stored patterns remain
    (note §2.2 C2 and Pitfall P3). Counts are exact (self-consistent subsets, note §1.7). The
    global-emergence window marks the β where all M patterns are minima and some minimum is
    novel (Def. 2); it lies inside (2/r², 8/r²) (note §2.2 C4).

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    M : int
        Number of patterns, 2..24 (the exact count can reach 2^M − 1).
    seed : int
        Seed for the patterns and the support Monte-Carlo.
    n_beta : int
        Grid size, 2..10000 (the extension to 8/r² adds points with the same ratio).
    support_samples : int
        Monte-Carlo points for the supported fraction of the cube, 0 (skip) to ``MAX_STEPS``.

    Returns
    -------
    EmergenceSweep

    Examples
    --------
    >>> s = emergence_sweep(d=4, M=6, seed=0, n_beta=8, support_samples=0)
    >>> int(s.n_total[0]), int(s.n_total[-1])  # one minimum at 2/d, M at 8/r²
    (1, 6)
    """
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M", minimum=2, maximum=24)
    seed = check_positive_int(seed, "seed", minimum=0)
    n_beta = check_positive_int(n_beta, "n_beta", minimum=2, maximum=_MAX_BETA_POINTS)
    support_samples = check_positive_int(
        support_samples, "support_samples", minimum=0, maximum=MAX_STEPS
    )
    check_size(M * d, "d", "coordinates (M·d)", MAX_ELEMENTS, "use a smaller dimension")
    gen = as_rng(seed)
    xi = gen.random((M, d))
    betas = np.asarray(to_numpy(fig3_beta_grid(xi, n=n_beta, extend=True)), dtype=float)
    sweep = minima_sweep(xi, betas, support_samples=support_samples, rng=gen)
    n_total = np.asarray(sweep.n_total, dtype=int)
    n_stored = np.asarray(sweep.n_stored, dtype=int)
    n_novel = np.asarray(sweep.n_novel, dtype=int)
    support = sweep.support_fraction
    support = np.full(betas.size, np.nan) if support is None else np.asarray(support, float)
    return EmergenceSweep(
        d=d,
        M=M,
        seed=seed,
        memories=xi,
        betas=betas,
        n_total=n_total,
        n_stored=n_stored,
        n_novel=n_novel,
        support_fraction=support,
        thresholds=beta_thresholds(xi),
        global_window=(n_stored == M) & (n_novel > 0),
        peak=int(np.argmax(n_total)),
    )


def largest_beta_counterexample(memories: Any, margin: float = 1e-3) -> LargestBetaCheck:
    """Count the minima at the paper's largest β, 2/r², and just above 8/r² (note P3).

    Notes
    -----
    App. C.2 says that at the largest β of the sweep (2/r_min²) "all original memories are
    recoverable and there are no spurious memories". All patterns are minima for β > 2/r²
    (note §2.2 C1), but novel minima survive up to 8/r²; only β > 8/r² guarantees that the
    stored patterns are the only minima (C2): a novel minimum needs two members within 2R < r.
    At β = 2/r² exactly, the closest pair sits on each other's support boundary, so whether it
    counts as retained depends on float ties (Pitfall P1).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        At least 2 distinct patterns (duplicates have r = 0 and no finite threshold), entries
        of magnitude <= 1e100; M <= 20 keeps the exact count cheap.
    margin : float
        Relative margin above 8/r², > 0, with (1 + margin) 8/r² finite.

    Raises
    ------
    ValueError
        For duplicated memories, and values out of range.

    Returns
    -------
    LargestBetaCheck

    Examples
    --------
    >>> chk = largest_beta_counterexample([[0.0], [1.0], [1.8]])
    >>> chk.at_paper_max.n_novel > 0, chk.at_stored_only.n_total
    (True, 3)
    """
    xi = check_max_abs(to_numpy(as_memories(memories)), "memories")
    if xi.shape[0] < 2:
        raise ValueError(f"memories must hold at least 2 patterns, got shape {xi.shape}")
    margin = check_beta(margin, "margin")
    th = beta_thresholds(xi)
    _check_distinct(xi, th, "the thresholds 2/r² and 8/r²")
    b_max = th.stored_exact
    b_only = (1.0 + margin) * th.stored_only
    if not math.isfinite(b_only):
        raise ValueError(
            f"margin must keep (1 + margin) 8/r² finite (8/r² = {th.stored_only:.3g}), "
            f"got {margin!r}"
        )
    return LargestBetaCheck(
        M=xi.shape[0],
        thresholds=th,
        beta_paper_max=b_max,
        at_paper_max=count_minima(xi, b_max),
        beta_stored_only=b_only,
        at_stored_only=count_minima(xi, b_only),
    )


def basin_survey(memories: Any, beta: float, n_samples: int = 200, rng: Any = 0) -> BasinSurvey:
    """Basin radii r* (eq. (4)) of every novel minimum and a one-step retrieval test (Thm 2(b)).

    Notes
    -----
    For a novel minimum x* = ξ̄_𝒦 the paper defines D_max = max_μ ‖x* − ξ_μ‖,
    δ_min = min_{μ∈𝒦} (2/β − ‖x* − ξ_μ‖²), γ_min = min_{ν∉𝒦} (‖x* − ξ_ν‖² − 2/β) and
    r* = √(D_max² + min(δ_min, γ_min)) − D_max. On the ball of radius r*, B(x) = 𝒦, so a
    single step of Algorithm 1 lands exactly on x*. The exact radius on which B stays 𝒦 is
    min_μ |‖x* − ξ_μ‖ − R| >= r* (note §2.6). Thm 2 asks for "max_{x*} δ_min > 0"; every novel
    minimum needs its own positive margin, so it should be min (note P14).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Entries of magnitude <= 1e100 (``MAX_ABS_ENTRY``).
    beta : float
        Inverse temperature, > 0.
    n_samples : int
        Starts per novel minimum, drawn uniformly in the ball of radius 0.999 r*
        (n_samples·d <= ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator

    Returns
    -------
    BasinSurvey

    Examples
    --------
    >>> s = basin_survey([[0.0], [1.0]], beta=4.0, n_samples=50)
    >>> s.minima, s.n_fail, bool(s.r_star_exact[0] >= s.r_star[0])
    ([(0, 1)], 0, True)
    """
    xi = check_max_abs(to_numpy(as_memories(memories)), "memories")
    beta = check_beta(beta)
    n_samples = check_positive_int(n_samples, "n_samples")
    gen = as_rng(rng)
    check_size(
        n_samples * xi.shape[1],
        "n_samples",
        "start coordinates per minimum",
        MAX_ELEMENTS,
        "use fewer samples",
    )
    novel = [k for k in lsr_minima(xi, beta) if len(k) > 1]
    r2 = 2.0 / beta
    rs, rx, dm, gm, near, fails = [], [], [], [], [], 0
    for k in novel:
        c = xi[list(k)].mean(axis=0)
        d2 = sqdist(c, xi)
        member = np.zeros(xi.shape[0], dtype=bool)
        member[list(k)] = True
        r_star, r_exact = basin_radius(xi, k, beta)
        rs.append(float(r_star))
        rx.append(float(r_exact))
        dm.append(float(np.min(r2 - d2[member])))
        gm.append(float(np.min(d2[~member] - r2)) if (~member).any() else math.inf)
        near.append(float(np.sqrt(d2.min())))
        starts = c + _ball_samples(gen, n_samples, xi.shape[1], 0.999 * float(r_star))
        fails += _one_step_failures(starts, xi, beta, c)
    return BasinSurvey(
        beta=beta,
        minima=novel,
        r_star=np.array(rs),
        r_star_exact=np.array(rx),
        delta_min=np.array(dm),
        gamma_min=np.array(gm),
        nearest_memory=np.array(near),
        epsilon=float(min(rs)) if rs else math.inf,
        n_samples=n_samples,
        n_fail=int(fails),
    )


def capacity_panel(
    d: int, M: int, alpha: float, n_trials: int = 400, rng: Any = 0, n_curve: int = 8
) -> CapacityPanel:
    """Theorem 2(a) at one (d, M, α): r samples and success against M (exploration 10).

    The curve runs over n_curve values of M, geometric from 2 to 4M, with the paper's bound
    1 − M² e^(−2αd) (vacuous where it is negative).

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    M : int
        Number of memories, >= 2.
    alpha : float
        Capacity exponent α > 0.
    n_trials : int
        Monte-Carlo trials per M.
    rng : int or numpy.random.Generator
    n_curve : int
        Points on the success curve, 2..1000.

    Returns
    -------
    CapacityPanel

    Examples
    --------
    >>> p = capacity_panel(8, 10, 0.5, n_trials=100)
    >>> p.mc.empirical_success >= p.mc.bound_delta
    True
    """
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M", minimum=2)
    alpha = check_beta(alpha, "alpha")
    n_trials = check_positive_int(n_trials, "n_trials")
    n_curve = check_positive_int(n_curve, "n_curve", minimum=2, maximum=1000)
    gen = as_rng(rng)
    mc = capacity_experiment(d, M, alpha, n_trials, gen)
    ms = np.unique(np.round(np.geomspace(2, 4 * M, n_curve)).astype(int))
    curve = capacity_curve(d, [int(m) for m in ms], alpha, n_trials, gen)
    return CapacityPanel(mc=mc, curve=curve)


def scaled_landscape_2d(
    memories: Any, relative_beta: float, n_grid: int = 60, starts: Any = None
) -> Landscape2D:
    """The 2-D LSR landscape at β = relative_beta · 2/r² (exploration 4).

    Measuring β in units of the C1 threshold 2/r² (note §2.2) makes one slider mean the same
    for every memory set: at 1 every stored pattern becomes an exact minimum, above 4 (= 8/r²)
    only the stored patterns remain, and below 2/diam² a single minimum is left.

    Parameters
    ----------
    memories : array_like, shape (M, 2), or str
        Stored patterns (M >= 2, distinct, entries of magnitude <= 1e100) or a preset name of
        :data:`assocmem.dense_am.landscape.PRESETS_2D`.
    relative_beta : float
        β r²/2, > 0, with β finite.
    n_grid : int
        Grid points per axis (the book's static figure keeps this small).
    starts : array_like, optional
        Start points of Algorithm-1 trajectories.

    Returns
    -------
    Landscape2D
        From :func:`assocmem.dense_am.landscape_2d`.

    Examples
    --------
    >>> L = scaled_landscape_2d("triangle", relative_beta=2.0, n_grid=20)
    >>> round(L.beta * 3.0 / 2.0, 12), len(L.minima)  # r² = 3: R = 1.22, 7 minima
    (2.0, 7)
    """
    rel = check_beta(relative_beta, "relative_beta")
    if isinstance(memories, str):
        from assocmem.dense_am.landscape import PRESETS_2D, preset_memories

        if memories not in PRESETS_2D:
            raise ValueError(f"memories must be an array or one of {PRESETS_2D}, got {memories!r}")
        xi = preset_memories(memories, d=2)
    else:
        xi = check_max_abs(to_numpy(as_memories(memories)), "memories")
        if xi.shape[0] < 2 or xi.shape[1] != 2:
            raise ValueError(f"memories must have shape (M, 2) with M >= 2, got shape {xi.shape}")
    th = beta_thresholds(xi)
    _check_distinct(xi, th, "the unit 2/r² of relative_beta")
    beta = rel * th.stored_exact
    if not math.isfinite(beta):
        raise ValueError(
            f"relative_beta must keep beta = relative_beta * 2/r² finite "
            f"(2/r² = {th.stored_exact:.3g}), got {rel!r}"
        )
    return landscape_2d(xi, beta, n_grid=n_grid, starts=starts)


def emergence_peaks(
    ds: Sequence[int],
    M: int,
    seeds: Sequence[int] = (0, 1, 2),
    n_beta: int = 16,
    support_samples: int = 10_000,
) -> EmergencePeaks:
    """Peak of the count-versus-β curve for several d and seeds (Fig. 3 left, note T16).

    Parameters
    ----------
    ds : sequence of int
        Dimensions, each >= 1.
    M : int
        Number of patterns, 2..24.
    seeds : sequence of int
        Seeds of :func:`emergence_sweep`.
    n_beta, support_samples : int
        Passed to :func:`emergence_sweep`.

    Returns
    -------
    EmergencePeaks

    Examples
    --------
    >>> pk = emergence_peaks([2, 8], M=8, seeds=[0], support_samples=0)
    >>> bool(pk.peak_ratio[1, 0] > pk.peak_ratio[0, 0])
    True
    """
    d_arr = np.array(check_int_sequence(ds, "ds"), dtype=int)
    M = check_positive_int(M, "M", minimum=2, maximum=24)
    s_arr = np.array(check_int_sequence(seeds, "seeds", minimum=0), dtype=int)
    n_beta = check_positive_int(n_beta, "n_beta", minimum=2, maximum=_MAX_BETA_POINTS)
    support_samples = check_positive_int(
        support_samples, "support_samples", minimum=0, maximum=MAX_STEPS
    )
    shape = (d_arr.size, s_arr.size)
    ratio, stored, support, rel = (np.empty(shape) for _ in range(4))
    for (i, d), (j, seed) in itertools.product(enumerate(d_arr), enumerate(s_arr)):
        sw = emergence_sweep(int(d), M, int(seed), n_beta, support_samples)
        ratio[i, j] = sw.n_total[sw.peak] / sw.M
        stored[i, j] = sw.n_stored[sw.peak] / sw.M
        support[i, j] = sw.support_fraction[sw.peak]
        rel[i, j] = sw.betas[sw.peak] / sw.thresholds.stored_exact
    return EmergencePeaks(d_arr, s_arr, int(M), ratio, stored, support, rel)


def count_bound_check(sweep: EmergenceSweep) -> CountBoundCheck:
    """Compare exact counts with the Theorem 2 count bound, eq. (5) (note §2.6, P14).

    Notes
    -----
    With λ = M V_d (2/β)^(d/2) (V = 1), the paper bounds the number of emergent memories by
    O(exp(λ log(eM/λ))). The bound counts subsets of one size at one fixed x, ignores the
    cube boundary and has no constant, so it is only a sanity inequality; we test
    log(#minima) <= λ log(eM/λ) + log M where it is stated, 1 <= λ <= M.

    Parameters
    ----------
    sweep : EmergenceSweep
        From :func:`emergence_sweep`.

    Returns
    -------
    CountBoundCheck

    Raises
    ------
    TypeError
        If ``sweep`` is not an :class:`EmergenceSweep`.

    Examples
    --------
    >>> chk = count_bound_check(emergence_sweep(8, 10, seed=0, support_samples=0))
    >>> bool(chk.holds.all())
    True
    """
    sweep = check_instance(sweep, "sweep", EmergenceSweep)
    betas = np.asarray(sweep.betas, dtype=float)
    M, d = sweep.M, sweep.d
    with np.errstate(over="ignore"):
        lam = M * ball_volume(d) * (2.0 / betas) ** (0.5 * d)
    valid = (lam >= 1.0) & (lam <= M)
    log_bound = np.array([count_bound_log(M, d, float(b)) for b in betas]) + math.log(M)
    log_count = np.log(np.asarray(sweep.n_total, dtype=float))
    holds = ~valid | (log_count <= np.where(valid, log_bound, np.inf))
    return CountBoundCheck(betas, lam, log_bound, log_count, valid, holds)


def capacity_scaling(
    ds: Sequence[int], alpha: float, delta: float, n_trials: int = 200, rng: Any = 0
) -> CapacityScaling:
    """Exponential capacity: at M = √(1 − δ) e^(αd), success stays above δ as d grows.

    Notes
    -----
    Theorem 2(a) (App. D.3): with probability at least δ = 1 − M² e^(−2αd) the minimum
    distance is at least (V_d)^(−1/d) e^(−2α) (unit cube), so all M patterns are retrievable
    (Thm 1); solving for M gives M = √(1 − δ) e^(αd), exponential in d. Cost ∝ n_trials M² d,
    so keep α d below about 6.

    Parameters
    ----------
    ds : sequence of int
        Dimensions, each >= 1.
    alpha : float
        Capacity exponent, > 0; the derived M must stay <= 16384 (``_MAX_MEMORIES``).
    delta : float
        Target success probability in (0, 1).
    n_trials : int
        Monte-Carlo draws per d.
    rng : int or numpy.random.Generator

    Returns
    -------
    CapacityScaling

    Raises
    ------
    ValueError
        For values out of range, or a derived M above the cap (named as ``alpha``).

    Examples
    --------
    >>> c = capacity_scaling([4, 8], alpha=0.5, delta=0.5, n_trials=100)
    >>> c.M.tolist(), bool(np.all(c.empirical_success >= 0.5))
    ([5, 38], True)
    """
    d_arr = np.array(check_int_sequence(ds, "ds"), dtype=int)
    alpha = check_beta(alpha, "alpha")
    delta = check_fraction(delta, "delta")
    n_trials = check_positive_int(n_trials, "n_trials")
    gen = as_rng(rng)
    # M = floor(sqrt(1 - δ) e^(αd)) from its logarithm, capped before it leaves the int range
    log_m = 0.5 * math.log1p(-delta) + alpha * d_arr.astype(float)
    for d, lm in zip(d_arr, log_m, strict=True):
        check_size(
            math.exp(lm) if lm < 700.0 else math.inf,
            "alpha",
            f"memories M = sqrt(1 - delta) e^(alpha d) at d = {d}",
            _MAX_MEMORIES,
            "lower alpha (or the dimensions ds) so that alpha d stays below about 10",
        )
    ms = np.maximum(np.floor(np.exp(log_m)), 2).astype(int)
    runs = [
        capacity_experiment(int(d), int(m), alpha, n_trials, gen)
        for d, m in zip(d_arr, ms, strict=True)
    ]
    return CapacityScaling(
        ds=d_arr,
        alpha=alpha,
        delta=delta,
        M=ms,
        empirical_success=np.array([r.empirical_success for r in runs]),
        bound_delta=np.array([r.bound_delta for r in runs]),
        n_trials=n_trials,
    )


def collision_curve(
    d: int, M: int, n_trials: int, rng: Any, n_thresholds: int = 40
) -> CollisionCurve:
    """Monte-Carlo Pr[r < t] against the union bound M² V_d t^d of paper eq. (10).

    The thresholds run geometrically from the 1 % to the 99 % quantile of the sampled r.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    M : int
        Patterns per draw (uniform in [0, 1]^d), >= 2.
    n_trials : int
        Draws, >= 10.
    rng : int or numpy.random.Generator
    n_thresholds : int
        Number of thresholds, 2 <= n_thresholds <= ``MAX_STEPS``.

    Returns
    -------
    CollisionCurve

    Examples
    --------
    >>> c = collision_curve(2, 50, 200, rng=0)
    >>> bool(np.all(c.empirical <= c.bound + 3 * c.stderr + 1e-12))
    True
    """
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M", minimum=2)
    n_trials = check_positive_int(n_trials, "n_trials", minimum=10)
    n_thresholds = check_positive_int(n_thresholds, "n_thresholds", minimum=2)
    check_size(n_thresholds, "n_thresholds", "thresholds", MAX_STEPS, "use fewer thresholds")
    r = np.sort(min_distance_samples(d, M, n_trials, rng))
    lo, hi = np.quantile(r, [0.01, 0.99])
    thr = np.geomspace(lo, hi, n_thresholds)
    emp = np.searchsorted(r, thr, side="left") / n_trials
    stderr = np.sqrt(np.maximum(emp * (1.0 - emp), 1.0 / n_trials) / n_trials)
    return CollisionCurve(d, M, n_trials, thr, emp, stderr, collision_bound(thr, d, M))


def active_set_experiment(
    d: int, M: int, beta: float, n_queries: int = 400, rng: Any = 0
) -> ActiveSetMC:
    """|B(x)| at interior queries against the concentration band of paper eq. (11).

    Notes
    -----
    App. D.3 proves that |B(x)| lies in λ ± 5√(λ log M) with probability at least 1 − M⁻¹;
    the theorem statement quotes 1 − M⁻² (note §2.6, P14). For a fresh uniform Ξ and an
    interior x, |B(x)| is Binomial(M, V_d R^d), so the band holds far more often than either.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    M : int
        Number of memories, >= 2.
    beta : float
        Inverse temperature, > 8 (so that the support ball fits inside the cube).
    n_queries : int
        Draws of (Ξ, x).
    rng : int or numpy.random.Generator

    Returns
    -------
    ActiveSetMC

    Examples
    --------
    >>> a = active_set_experiment(2, 2000, 200.0, n_queries=100)
    >>> round(a.band.prediction, 1), a.fraction_in_band
    (62.8, 1.0)
    """
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M", minimum=2)
    beta = check_beta(beta)
    samples = active_set_size_samples(d, M, beta, n_queries, rng)
    band = eq11_band(d, M, beta)
    inside = (samples >= band.lower) & (samples <= band.upper)
    return ActiveSetMC(
        d=int(d),
        M=int(M),
        beta=float(beta),
        samples=samples,
        band=band,
        mean=float(samples.mean()),
        fraction_in_band=float(inside.mean()),
        p_statement=1.0 - float(M) ** -2,
        p_proof=1.0 - 1.0 / float(M),
    )


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


def _grid_coordinates(n: int, d: int) -> int | float:
    """n^d·d, the size of a grid with n points per axis (inf once it exceeds 2^62)."""
    if d * math.log2(max(n, 1)) + math.log2(d) > 62:
        return math.inf
    return n**d * d


def _beta_of_radius(radius: float, name: str) -> float:
    """β = 2/R², refused (naming ``name``) where it leaves the positive float range."""
    beta = 2.0 / radius / radius
    if not (0.0 < beta < math.inf):
        raise ValueError(
            f"{name} must give a finite beta = 2/{name}^2 > 0, got {radius!r} (beta = {beta!r})"
        )
    return beta


def _check_distinct(xi: np.ndarray, th: BetaThresholds, what: str) -> None:
    """Refuse duplicated memories (r = 0) where ``what`` needs a finite 2/r²."""
    if th.r_min == 0.0:
        _, inverse, counts = np.unique(xi, axis=0, return_inverse=True, return_counts=True)
        i, j = np.flatnonzero(inverse.ravel() == int(np.argmax(counts > 1)))[:2]
        raise ValueError(
            f"memories must be distinct (r_min > 0 for {what}), but memories[{i}] and "
            f"memories[{j}] are equal"
        )
    if not math.isfinite(th.stored_only):
        raise ValueError(
            f"memories have r_min = {th.r_min:.3g}, so 8/r_min^2 overflows; rescale the memories"
        )


def _active_tuple(x: np.ndarray, xi: np.ndarray, beta: float) -> tuple[int, ...]:
    """Strict active set B(x) as a sorted tuple (note §0)."""
    return tuple(int(i) for i in np.flatnonzero(active_set(x, xi, beta)))


def _is_minimum_without(xi: np.ndarray, c: np.ndarray, mu: int, beta: float) -> bool:
    """Whether c is still an LSR minimum once pattern μ is removed (Def. 3 test)."""
    rest = np.delete(xi, mu, axis=0)
    act = active_set(c, rest, beta)
    if not act.any():
        return False
    new_c = rest[act].mean(axis=0)
    scale = 1.0 + float(np.max(np.abs(c)))
    return bool(np.max(np.abs(new_c - c)) <= 1e-12 * scale)


def _energy_profile_1d(xi: np.ndarray, beta: float, n: int = 801) -> tuple[np.ndarray, np.ndarray]:
    """LSR energy (ϵ = 0, +inf off the support) on a 1-D grid around the patterns."""
    radius = support_radius(beta)
    grid = np.linspace(xi.min() - 1.2 * radius, xi.max() + 1.2 * radius, n)
    return grid, np.asarray(to_numpy(lsr_energy(grid[:, None], xi, beta)), dtype=float)


def _lse_pattern_log_grad(d2: np.ndarray, diff: np.ndarray, beta: float) -> np.ndarray:
    """log‖∇E_LSE(ξ_ν)‖ computed in log space, for every ν (note §2.4, Pitfall P8)."""
    a = -0.5 * beta * d2  # a[ν, μ]
    log_z = logsumexp(a, axis=1)
    off = a.copy()
    np.fill_diagonal(off, -np.inf)
    m = off.max(axis=1)
    w = np.exp(off - m[:, None])  # diagonal weight exp(-inf) = 0
    v = np.einsum("nm,nmk->nk", w, diff)
    with np.errstate(divide="ignore"):
        return m - log_z + np.log(np.linalg.norm(v, axis=1))


@lru_cache(maxsize=16)
def _polygon_curve(n: int) -> tuple[int, ...]:
    """Count of minima of the unit regular n-gon at each radius of ``_POLYGON_RADII``."""
    xi = regular_polygon(n)
    return tuple(len(lsr_minima(xi, 2.0 / float(r) ** 2)) for r in _POLYGON_RADII)


def _ball_samples(gen: np.random.Generator, n: int, d: int, radius: float) -> np.ndarray:
    """n points uniform in the d-ball of the given radius (Gaussian direction, U^(1/d) norm)."""
    u = gen.standard_normal((n, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return u * (radius * gen.random(n) ** (1.0 / d))[:, None]


def _one_step_failures(starts: np.ndarray, xi: np.ndarray, beta: float, c: np.ndarray) -> int:
    """Starts whose single GD step with η = D/|B| (one Alg.-1 step) misses c by > 1e-12."""
    out = np.asarray(to_numpy(lsr_one_step(starts, xi, beta)), dtype=float)
    scale = 1.0 + float(np.max(np.abs(c)))
    return int(np.sum(np.max(np.abs(out - c), axis=1) > 1e-12 * scale))
