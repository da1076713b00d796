"""Exact enumeration and counting of the local minima of the LSR (Epanechnikov) energy.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*. Equation numbers refer to the paper; "note §" refers to the chapter note
``shared/notes/05-epanechnikov-dense-am.md``.

Notation map
------------
======================  =========================  ==============================================
paper                   code                       meaning
======================  =========================  ==============================================
Ξ = {ξ_μ}               ``memories``, (M, d)       stored patterns
β                       ``beta``                   inverse temperature, > 0
√(2/β)                  R                          support radius; we compare ``d2 < 2.0/beta``
B(x)                    active set                 strict: {μ : ‖x − ξ_μ‖² < 2/β}
𝒦 ⊆ ⟦M⟧                 ``index_set``, a tuple     candidate minimum, 0-based sorted indices
ξ̄_𝒦                     ``minima_centroids``       centroid (arithmetic mean) of the subset 𝒦
r (Thm 1)               ``r_min``                  minimum pairwise distance of the memories
r* (eq. (4))            ``basin_radius``           Thm 2(b) basin radius of a minimum
======================  =========================  ==============================================

The characterisation used throughout (note §1.7, sharpening Prop. 2): with ε = 0 the local minima
of E_LSR inside the support are exactly the centroids ξ̄_𝒦 of the *self-consistent* subsets,
the non-empty 𝒦 with B(ξ̄_𝒦) = 𝒦 and no memory on the support sphere of ξ̄_𝒦 (a memory on
it is a tie and spoils the minimum; see ``lsr_minima``). A minimum is named by its index set,
never by rounded coordinates (Pitfall P16). Squared distances are computed in the difference form
``sum_k (c_k - xi_k)**2`` (accumulated over k in order) for every decision.

Public functions
----------------
lsr_minima, lsr_minima_bruteforce, is_self_consistent, minima_centroids,
count_minima (-> MinimaCount), minima_sweep (-> MinimaSweep), support_fraction,
beta_thresholds (-> BetaThresholds), basin_radius, fig3_beta_grid.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    as_memories,
    as_real_vector,
    as_rng,
    as_xp,
    check_beta,
    check_bool,
    check_fraction,
    check_index_set,
    check_max_abs,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy

__all__ = [
    "BetaThresholds",
    "MinimaCount",
    "MinimaSweep",
    "RelativeBetaCounts",
    "ThresholdCounts",
    "basin_radius",
    "beta_thresholds",
    "count_minima",
    "fig3_beta_grid",
    "is_self_consistent",
    "lsr_minima",
    "lsr_minima_bruteforce",
    "minima_centroids",
    "minima_sweep",
    "relative_beta_counts",
    "support_fraction",
    "threshold_counts",
]

_METHODS = ("auto", "cliques", "brute")
# Largest number of undecided memories a search node hands to the vectorised leaf kernel
# (2**10 subsets): a node's bounds cost about as much as checking that many subsets.
_LEAF_SIZE = 10
# Subsets of the smallest sizes a node checks explicitly instead of bounding them (rule 3b).
_SMALL_SIZE_BUDGET = 1024
# Rows of subset indicators evaluated per batch by the leaf kernel (times M: memory cap).
_BATCH_ELEMENTS = 1 << 21
# Relative slack of every pruning bound, in units of (2/beta + max ||xi||^2). Rounding errors
# of centroids and bounds are ~1e-15 of that scale, so pruning with this margin never discards
# a subset that passes the float self-consistency test (the final test has no slack).
_PRUNE_SLACK = 1e-9
_UNIT_ROUNDOFF = 2.0**-53
# Largest brute-force work (2^M − 1)·M·d: about 30 s on one core (M = 22 at d = 11).
_BRUTE_WORK = 2**30
# Largest β grid of fig3_beta_grid, its extension included.
_MAX_GRID = 10_000


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MinimaCount:
    """Number of LSR minima at one β (note §1.7; paper Sec. 4.1, Fig. 3 left).

    Attributes
    ----------
    beta : float
        Inverse temperature.
    n_total : int
        Number of local minima (self-consistent subsets).
    n_stored : int
        Minima that are stored patterns (singletons {μ}, retrieved exactly, Thm 1).
    n_novel : int
        Emergent minima, centroids of two or more patterns: ``n_total - n_stored``.
    support_fraction : float or None
        Monte-Carlo fraction of [0, 1]^d with finite energy at ε = 0, or None if not asked.
    """

    beta: float
    n_total: int
    n_stored: int
    n_novel: int
    support_fraction: float | None = None


@dataclass(frozen=True)
class MinimaSweep:
    """Minima counts along a grid of β (paper Fig. 3 left). Arrays are NumPy, shape (n_beta,).

    ``support_fraction`` is None when no Monte-Carlo samples were asked for.
    """

    betas: np.ndarray
    n_total: np.ndarray
    n_stored: np.ndarray
    n_novel: np.ndarray
    support_fraction: np.ndarray | None = None


@dataclass(frozen=True)
class RelativeBetaCounts:
    """Stored and novel minimum counts along a β grid in units of 2/r², per random set.

    Attributes
    ----------
    relative_betas : numpy.ndarray, shape (n_beta,)
        β in units of 2/r² (r the set's smallest pairwise distance).
    n_stored, n_novel : numpy.ndarray of int, shape (n_sets, n_beta)
        Stored patterns that are minima and novel minima, one row per set.
    M, d : int
        Patterns per set and dimension.
    """

    relative_betas: np.ndarray
    n_stored: np.ndarray
    n_novel: np.ndarray
    M: int
    d: int


@dataclass(frozen=True)
class ThresholdCounts:
    """Minimum counts just inside the three regimes of :func:`beta_thresholds`, per random set.

    Attributes
    ----------
    n_total, n_stored, n_novel : numpy.ndarray of int, shape (n_sets, 3)
        Counts at ``below`` · 2/diam², ``above`` · 2/r² and ``above`` · 8/r² (the columns, in
        that order), one row per set.
    M, d : int
        Patterns per set and dimension.
    below, above : float
        The relative margins.
    """

    n_total: np.ndarray
    n_stored: np.ndarray
    n_novel: np.ndarray
    M: int
    d: int
    below: float
    above: float


@dataclass(frozen=True)
class BetaThresholds:
    """The β thresholds C1-C3 of note §2.2 for one set of memories.

    Attributes
    ----------
    single_minimum : float
        2/diam²: for β below it the global centroid is the only minimum (C3).
    stored_exact : float
        2/r²: for β above it every stored pattern is an exact minimum (C1, Thm 1).
    stored_only : float
        8/r²: for β above it the stored patterns are the only minima (C2).
    r_min : float
        Minimum pairwise distance r (``inf`` for a single memory).
    diam : float
        Largest pairwise distance (0 for a single memory).
    """

    single_minimum: float
    stored_exact: float
    stored_only: float
    r_min: float
    diam: float


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def lsr_minima(
    memories: Any, beta: float, method: str = "auto", xp: Any = None
) -> list[tuple[int, ...]]:
    """All local minima of the LSR energy, as index sets of self-consistent subsets.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns Ξ (finite, real).
    beta : float
        Inverse temperature, finite and > 0.
    method : {"auto", "cliques", "brute"}
        ``"brute"`` checks all 2^M − 1 subsets (:func:`lsr_minima_bruteforce`, M <= 62).
        ``"cliques"`` runs the exact branch-and-bound search described in the Notes.
        ``"auto"`` (default) first applies the exact shortcut C3 and otherwise searches.
    xp : module, optional
        Array namespace for ``"brute"``: None (that of ``memories``), ``numpy`` or ``cupy``;
        the search always runs on the CPU.

    Returns
    -------
    list of tuple of int
        Sorted list of sorted 0-based index tuples 𝒦 with B(ξ̄_𝒦) = 𝒦 (note §1.7). The minima
        themselves are ``minima_centroids(memories, result)``.

    Notes
    -----
    A non-empty 𝒦 is a (strict) local minimum iff every member is strictly inside the support
    sphere of the centroid, ‖ξ̄_𝒦 − ξ_μ‖ < R = √(2/β), and every non-member strictly outside,
    ‖ξ̄_𝒦 − ξ_ν‖ > R. This is the "‖∇E‖ = 0, E < ∞" test of the paper's Sec. 4.1 done without
    a gradient tolerance, with one correction at equality: a non-member *on* the sphere spoils
    the minimum. Moving from ξ̄_𝒦 towards it by h makes its ReLU term positive, of order βRh,
    while the members' terms change only by O(h²), so the energy falls linearly (two memories
    at 0 and 1 with β = 2: E(0) = 0 and E(10⁻³) ≈ −10⁻³). A member on the sphere spoils it
    too (its term is zero and grows linearly towards it).

    *Ties to rounding.* Distances are float numbers, so "on the sphere" is decided to rounding:
    a squared distance within η of t = 2/β counts as a tie, where η = 2((d + 3)·u·t + 2√t·e_k +
    e_k²) and e_k = 2(k − 1)√k·u·max‖ξ‖ bound the rounding of the distance and of the centroid
    of k memories (u = 2⁻⁵³; a singleton's centroid is exact, so e_1 = 0 and η ≈ 2(d + 3)·u·t).
    Inputs whose squared distances and 2/β are exact binary numbers (integer or dyadic
    coordinates, β = 2/a² with a dyadic a²) are decided exactly; the grid points β = 2/r² and
    8/r² of :func:`fig3_beta_grid`, whose closest pair sits on a support sphere up to rounding,
    are ties by design and count as such, whatever the last bit of β (exact rational arithmetic
    on the rounded β, ``dense_am.exact_self_consistency``, can go either way there). All three
    methods apply this one test.

    *Shortcut C3* (note §2.2). If diam(Ξ)² < 2/β the only minimum is the global centroid.
    Proof: every centroid c lies in conv(Ξ), and ‖c − ξ_ν‖ ≤ max_μ ‖ξ_μ − ξ_ν‖ ≤ diam < R for
    every ν by convexity of the norm, so B(c) = ⟦M⟧ and only 𝒦 = ⟦M⟧ can be self-consistent.

    *Search* ("cliques"). Subsets are split into connected components of the "< 2R" overlap graph
    (members of a minimum are pairwise < 2R apart, and a memory ≥ 2R from a member is ≥ R from
    the centroid, so components never interact). Within a component a depth-first search keeps
    three disjoint sets: IN (decided members), OUT (decided non-members) and U (undecided); the
    final 𝒦 = IN ∪ S with S ⊆ U. Every rule below only discards subsets that provably violate
    self-consistency, so the search is exact:

    1. Clique rule: including u removes from U every memory ≥ 2R from ξ_u.
    2. Centroid bounds, for each size s = |S|: with q_s = (Σ_IN ξ + s m_U)/(|IN| + s) and
       m_U the mean of U, the centroid is ξ̄_𝒦 = q_s + e with ‖e‖ ≤ ρ_s, where ρ_s·(|IN| + s)
       is the least of the s largest and the n − s largest norms ‖ξ_u − m_U‖ summed, and of
       σ_max(Y)·√(s(n − s)/n) (Y the centred U, since Σ_S y = Yᵀ(1_S − s/n·1)). Along the unit
       vector w from ξ_ν to q_s, the projection w·e lies between the sums of the s smallest and
       s largest w·y_u, divided by |IN| + s (exact for a linear function). Pairwise identities
       add more: ‖ξ̄_𝒦 − ξ_ν‖² = (1/k) Σ_{λ∈𝒦} D²_νλ − W(𝒦)/k² (W = sum of squared pairwise
       distances in 𝒦, k = |𝒦|) and ‖ξ̄_𝒦 − ξ_ν‖ ≤ (1/k) Σ_{λ∈𝒦} D_νλ, each sum bounded by its
       s smallest or largest terms. Together: a lower and an upper bound on ‖ξ̄_𝒦 − ξ_ν‖ for
       every ν and every s.
    3. Members are nearer the centroid than non-members: for μ ∈ 𝒦, ν ∉ 𝒦,
       Σ_{λ∈𝒦} (D²_μλ − D²_νλ) < 0, linear in the indicator of 𝒦, so its minimum over |S| = s
       is the sum of the s smallest terms (applied to IN × OUT, U × OUT and IN × U pairs).
    4. A size s is infeasible if some IN member is surely ≥ R away, some OUT memory is surely
       < R away, a pair rule fails, fewer than s memories of U can be < R away, or more than s
       surely are. A memory of U that cannot be a member at any feasible size s ≥ 1 moves to OUT;
       one that must be a member at every feasible size moves to IN. No feasible size: prune.
    5. The smallest feasible sizes, while they hold at most 1024 subsets, are checked explicitly
       and removed from the node (which keeps a lower limit on |S|), so the bounds of step 2
       only have to handle the larger sizes, whose centroids are pinned more tightly.
    6. Otherwise branch on the memory of U farthest from m_U (include, then exclude). Nodes with
       at most 10 undecided memories are finished by a batched, vectorised check of all their
       subsets (a GEMM pre-filter with a proven rounding margin, then the exact test).

    This handles the dense regime (β just above 2/diam², overlap graph nearly complete, few
    minima), where plain clique enumeration would visit almost all 2^M subsets.

    Bounds carry a relative slack of 1e-9 of (2/β + max‖ξ‖²), far above rounding; a pruned
    subset violates self-consistency by more than the slack, so it fails the final test too, and
    the result equals the set of subsets passing the strict test above, which is also what
    :func:`lsr_minima_bruteforce` returns.

    Raises
    ------
    ValueError
        For invalid ``beta``, ``memories`` (entries must be finite and of magnitude <= 1e100,
        so that squared distances stay finite) or ``method``; for ``"brute"``, when the work
        (2^M − 1)·M·d exceeds 2^30.
    TypeError
        For ``xp`` other than None, ``numpy`` or ``cupy``, or non-real ``memories``.

    References
    ----------
    Paper Sec. 4.1 and App. C.2 (brute force), Algorithm 3 (neighbourhood restriction); note
    §1.7, §2.2 and §4.3.

    Examples
    --------
    Two patterns at distance 1 have three minima (both patterns and their midpoint) for
    2 < β < 8 (note §2.9):

    >>> lsr_minima([[0.0], [1.0]], beta=5.0)
    [(0,), (0, 1), (1,)]

    At β = 2 = 2/a² each pattern lies on the other's support sphere: a tie, so only the
    midpoint is a minimum.

    >>> lsr_minima([[0.0], [1.0]], beta=2.0)
    [(0, 1)]
    """
    beta = check_beta(beta)
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    xp = as_xp(xp)
    if method == "brute":
        Xi = _validated_memories(memories, xp)
        _check_brute_size(*Xi.shape)
        return _bruteforce(Xi, beta, 1 << 16, array_namespace(Xi) if xp is None else xp)
    Xi = np.asarray(to_numpy(_validated_memories(memories, xp)), dtype=np.float64)
    return _search_minima(Xi, 2.0 / beta, use_c3=(method == "auto"))


def lsr_minima_bruteforce(
    memories: Any, beta: float, chunk: int = 2**16, xp: Any = None
) -> list[tuple[int, ...]]:
    """All LSR minima by checking every non-empty subset (paper Sec. 4.1, note §4.3 A).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns, 1 <= M <= 62 (subsets are int64 bitmasks), entries of magnitude
        <= 1e100, with (2^M − 1)·M·d <= 2^30 (about 30 s: M = 22 at d = 11).
    beta : float
        Inverse temperature, finite and > 0.
    chunk : int
        Subsets per vectorised block (memory is about ``chunk * M * 8`` bytes per temporary;
        chunk·M at most ``MAX_ELEMENTS``).
    xp : module, optional
        None (the namespace of ``memories``), ``numpy`` or ``cupy``. The code is
        namespace-generic, so CuPy inputs run on the GPU unchanged.

    Returns
    -------
    list of tuple of int
        Sorted list of sorted index tuples 𝒦 with B(ξ̄_𝒦) = 𝒦.

    Notes
    -----
    For each block of bitmasks: indicator rows A (chunk, M), centroids (A Ξ)/|𝒦|, squared
    distances in difference form, and the row-wise test [d² < 2/β] == A. Cost ∝ 2^M M d
    (note §4.6). This is the method of the paper's code and the reference for
    :func:`lsr_minima`.

    Raises
    ------
    ValueError
        If M > 62 or the work (2^M − 1)·M·d exceeds 2^30, or for invalid ``beta``,
        ``memories`` or ``chunk``.
    TypeError
        For ``xp`` other than None, ``numpy`` or ``cupy``.

    Examples
    --------
    >>> lsr_minima_bruteforce([[0.0], [1.0]], beta=1.9)   # beta < 2/a^2: one minimum
    [(0, 1)]
    """
    beta = check_beta(beta)
    chunk = check_positive_int(chunk, "chunk")
    xp = as_xp(xp)
    Xi = _validated_memories(memories, xp)
    _check_chunk(chunk, Xi.shape[0])
    _check_brute_size(*Xi.shape)
    return _bruteforce(Xi, beta, chunk, array_namespace(Xi) if xp is None else xp)


def is_self_consistent(memories: Any, index_set: Iterable[int], beta: float) -> bool:
    """Whether the centroid of ``index_set`` is an LSR minimum: B(ξ̄_𝒦) == 𝒦 (note §1.7).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    index_set : iterable of int
        Non-empty set of distinct memory indices in [0, M).
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    bool
        True iff every member is strictly within √(2/β) of the centroid and every other memory
        strictly outside (a memory on the sphere, to rounding, is a tie: see :func:`lsr_minima`).

    Notes
    -----
    Equivalent to "‖∇E_LSR(ξ̄_𝒦)‖ = 0 and E < ∞ at ε = 0" (paper eqs. (7)-(8), Prop. 2 as
    corrected in note §1.7). The literal Prop. 2 (any B(x) gives a minimum) is false: 1D
    patterns {0, 1, 3} with R = 1.6 have B(1.5) = {0, 1, 2} but B(4/3) = {0, 1}.

    Examples
    --------
    >>> is_self_consistent([[0.0], [1.0], [3.0]], [0, 1, 2], beta=2 / 1.6**2)
    False
    >>> is_self_consistent([[0.0], [1.0], [3.0]], [0, 1], beta=2 / 1.6**2)
    True
    """
    beta = check_beta(beta)
    xp = array_namespace(memories)
    Xi = check_max_abs(as_memories(memories, xp=xp), "memories")
    K = check_index_set(index_set, Xi.shape[0])
    A = xp.zeros((1, Xi.shape[0]), dtype=xp.float64)
    A[0, K] = 1.0
    return bool(_exact_rows(A, Xi, 2.0 / beta, xp)[0])


def minima_centroids(memories: Any, minima: Sequence[Iterable[int]]) -> Any:
    """Centroids ξ̄_𝒦 of a list of index sets, shape (len(minima), d) (note §0).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    minima : sequence of iterables of int
        Index sets, e.g. the output of :func:`lsr_minima`.

    Returns
    -------
    array, shape (K, d)
        Row i is the arithmetic mean of ``memories[minima[i]]`` (computed as (A Ξ)/|𝒦| with a
        0/1 row A, the same arithmetic as the enumerators), in the namespace of ``memories``.

    Examples
    --------
    >>> minima_centroids([[0.0], [1.0]], [(0,), (0, 1)])
    array([[0. ],
           [0.5]])
    """
    xp = array_namespace(memories)
    Xi = as_memories(memories, xp=xp)
    M, d = Xi.shape
    if isinstance(minima, str | bytes) or not isinstance(minima, Sequence | Iterable):
        raise TypeError(f"minima must be a sequence of index sets, got {minima!r}")
    sets = [check_index_set(K, M) for K in minima]
    if not sets:
        return xp.zeros((0, d), dtype=xp.float64)
    A = np.zeros((len(sets), M))
    for i, K in enumerate(sets):
        A[i, K] = 1.0
    A = xp.asarray(A)
    return (A @ Xi) / xp.sum(A, axis=1)[:, None]


def count_minima(
    memories: Any, beta: float, support_samples: int = 0, rng: Any = None
) -> MinimaCount:
    """Count the LSR minima at one β, split into stored and novel (paper Sec. 4.1, Fig. 3).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Inverse temperature, finite and > 0.
    support_samples : int
        Monte-Carlo points in [0, 1]^d for the supported fraction, 0 (skip it) to
        ``MAX_STEPS``.
    rng : int or numpy.random.Generator, optional
        Seed for the Monte-Carlo points; required when ``support_samples > 0`` and checked
        whenever given.

    Returns
    -------
    MinimaCount
        ``n_total``, ``n_stored`` (singleton minima = exactly retrieved patterns, Thm 1),
        ``n_novel`` and, if asked, ``support_fraction``.

    Examples
    --------
    >>> count_minima([[0.0], [1.0]], beta=5.0)
    MinimaCount(beta=5.0, n_total=3, n_stored=2, n_novel=1, support_fraction=None)
    """
    beta = check_beta(beta)
    support_samples = check_positive_int(
        support_samples, "support_samples", minimum=0, maximum=MAX_STEPS
    )
    if rng is not None:
        rng = as_rng(rng)
    sweep = minima_sweep(memories, [beta], support_samples=support_samples, rng=rng)
    frac = None if sweep.support_fraction is None else float(sweep.support_fraction[0])
    return MinimaCount(
        beta=float(sweep.betas[0]),
        n_total=int(sweep.n_total[0]),
        n_stored=int(sweep.n_stored[0]),
        n_novel=int(sweep.n_novel[0]),
        support_fraction=frac,
    )


def minima_sweep(
    memories: Any, betas: Iterable[float], support_samples: int = 0, rng: Any = None
) -> MinimaSweep:
    """Count stored and novel LSR minima along a grid of β (paper Fig. 3 left, App. C.2).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    betas : float or iterable of float
        Inverse temperatures, each finite and > 0 (e.g. :func:`fig3_beta_grid`); a number or a
        non-empty 1-D sequence.
    support_samples : int
        Monte-Carlo points in [0, 1]^d for the supported fraction, 0 (skip) to ``MAX_STEPS``.
        The same points are used for every β (common random numbers), so the curve is
        monotone in β.
    rng : int or numpy.random.Generator, optional
        Seed for the Monte-Carlo points; required when ``support_samples > 0`` and checked
        whenever given.

    Returns
    -------
    MinimaSweep
        NumPy arrays of shape (n_beta,).

    Examples
    --------
    >>> minima_sweep([[0.0], [1.0]], [1.9, 5.0, 8.1]).n_total
    array([1, 3, 2])
    """
    if hasattr(betas, "dtype"):
        betas = to_numpy(betas)
    elif isinstance(betas, Iterable) and not isinstance(betas, str | bytes | Sequence):
        betas = list(betas)  # a generator or another one-pass iterable
    grid = [float(b) for b in as_real_vector(betas, "betas", lo=0.0, open_lo=True)]
    support_samples = check_positive_int(
        support_samples, "support_samples", minimum=0, maximum=MAX_STEPS
    )
    gen = None if rng is None else as_rng(rng)
    xp = array_namespace(memories)
    Xi = check_max_abs(as_memories(memories, xp=xp), "memories")
    Xi_np = np.asarray(to_numpy(Xi), dtype=np.float64)
    totals, stored = [], []
    for beta in grid:
        minima = _search_minima(Xi_np, 2.0 / beta, use_c3=True)
        totals.append(len(minima))
        stored.append(sum(1 for K in minima if len(K) == 1))
    frac = None
    if support_samples > 0:
        gen = as_rng(rng) if gen is None else gen  # None: refused by name when it is needed
        nearest = _nearest_sqdist_samples(Xi, support_samples, gen, 1 << 14, xp)
        frac = np.array([float(np.mean(nearest < 2.0 / b)) for b in grid])
    n_total, n_stored = np.array(totals, dtype=np.int64), np.array(stored, dtype=np.int64)
    return MinimaSweep(np.array(grid), n_total, n_stored, n_total - n_stored, frac)


def support_fraction(
    memories: Any, beta: float, n_samples: int = 100_000, rng: Any = 0, chunk: int = 2**14
) -> float:
    """Monte-Carlo fraction of the unit cube where the LSR energy is finite at ε = 0 (P20).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Inverse temperature, finite and > 0.
    n_samples : int
        Uniform points in [0, 1]^d, 1 to ``MAX_STEPS`` (the paper uses 1e6; 1e5 gives a
        standard error <= 0.0016).
    rng : int or numpy.random.Generator
        Seed or generator for the points (drawn on the CPU, so CuPy gives the same answer).
    chunk : int
        Points per block; temporaries are (chunk, M), at most ``MAX_ELEMENTS`` elements.

    Returns
    -------
    float
        Fraction of points x with min_μ ‖x − ξ_μ‖² < 2/β, i.e. E_LSR(x) < ∞ (paper eq. (3),
        App. C.2 "shaded green curve" of Fig. 3). Standard error √(p(1 − p)/n_samples).

    Examples
    --------
    One memory at the centre of the square with R = 0.25 covers π/16 of it:

    >>> round(support_fraction([[0.5, 0.5]], beta=32.0, n_samples=200_000, rng=0), 2)
    0.2
    """
    beta = check_beta(beta)
    n_samples = check_positive_int(n_samples, "n_samples", maximum=MAX_STEPS)
    gen = as_rng(rng)
    chunk = check_positive_int(chunk, "chunk")
    xp = array_namespace(memories)
    Xi = check_max_abs(as_memories(memories, xp=xp), "memories")
    _check_chunk(chunk, Xi.shape[0])
    nearest = _nearest_sqdist_samples(Xi, n_samples, gen, chunk, xp)
    return float(np.mean(nearest < 2.0 / beta))


def beta_thresholds(memories: Any) -> BetaThresholds:
    """The thresholds C1-C3 of note §2.2: 2/diam², 2/r² and 8/r².

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.

    Returns
    -------
    BetaThresholds
        ``single_minimum = 2/diam²`` (C3: one minimum below it), ``stored_exact = 2/r²``
        (C1, Thm 1: every pattern a minimum above it), ``stored_only = 8/r²`` (C2: only the
        patterns above it), with ``r_min`` and ``diam``. At β = 2/r² and 8/r² themselves the
        closest pair sits on a support sphere, a tie that spoils the minimum (see
        :func:`lsr_minima`): its two singletons are not minima at 2/r², and only the
        patterns are at 8/r². One memory gives r = inf,
        diam = 0 (thresholds inf, 0, 0). Duplicated memories give r = 0 and the exact limits
        ``stored_exact = stored_only = inf``: no finite β makes a duplicated pattern a
        singleton minimum, since its twin is always inside its support.

    Examples
    --------
    >>> beta_thresholds([[0.0], [1.0]])
    BetaThresholds(single_minimum=2.0, stored_exact=2.0, stored_only=8.0, r_min=1.0, diam=1.0)
    """
    xp = array_namespace(memories)
    Xi = check_max_abs(as_memories(memories, xp=xp), "memories")
    r2, diam2 = _pairwise_extremes(Xi, xp)
    return BetaThresholds(
        single_minimum=_two_over(diam2),
        stored_exact=_two_over(r2),
        stored_only=4.0 * _two_over(r2),
        r_min=math.sqrt(r2),
        diam=math.sqrt(diam2),
    )


def relative_beta_counts(
    relative_betas: Iterable[float],
    M: int = 10,
    d: int = 2,
    n_sets: int = 30,
    rng: Any = 0,
) -> RelativeBetaCounts:
    """Count stored and novel minima of many random sets along a β grid relative to 2/r².

    Notes
    -----
    Each set is M patterns uniform in [0, 1]^d (the i-th (M, d) draw of one generator), counted
    by :func:`minima_sweep` at β = ``relative_betas`` · 2/r² with the set's own r, so the grid
    means the same for every set (as the slider of the 2-D landscape, Fig. 1 right). At M = 10,
    d = 2 a set costs a few milliseconds.

    Parameters
    ----------
    relative_betas : float or iterable of float
        β in units of 2/r², each in (0, 100].
    M : int
        Patterns per set, 2 <= M <= 64.
    d : int
        Dimension, >= 1.
    n_sets : int
        Number of random sets, 1 <= n_sets <= 10 000.
    rng : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    RelativeBetaCounts

    Examples
    --------
    Above 2/r² every pattern is a minimum; above 8/r² (relative 4) nothing else is:

    >>> c = relative_beta_counts([1.5, 5.0], M=6, d=2, n_sets=3)
    >>> c.n_stored.tolist(), c.n_novel[:, 1].tolist()
    ([[6, 6], [6, 6], [6, 6]], [0, 0, 0])
    """
    rel = as_real_vector(relative_betas, "relative_betas", lo=0.0, hi=100.0, open_lo=True)
    M, d, n_sets, draws = _random_sets(M, d, n_sets, rng)
    check_size(n_sets * rel.size, "n_sets", "(set, beta) counts", MAX_STEPS, "use fewer")
    stored = np.zeros((n_sets, rel.size), dtype=np.int64)
    novel = np.zeros_like(stored)
    for i, Xi in enumerate(draws):
        sweep = minima_sweep(Xi, rel * beta_thresholds(Xi).stored_exact)
        stored[i], novel[i] = sweep.n_stored, sweep.n_novel
    return RelativeBetaCounts(relative_betas=rel, n_stored=stored, n_novel=novel, M=M, d=d)


def threshold_counts(
    M: int = 18,
    d: int = 8,
    n_sets: int = 30,
    rng: Any = 0,
    below: float = 0.99,
    above: float = 1.001,
) -> ThresholdCounts:
    """Count the minima just inside the three regimes of :func:`beta_thresholds`, many sets.

    Notes
    -----
    For M patterns uniform in [0, 1]^d (as in the paper's Sec. 4.1), each set is counted at
    ``below`` · 2/diam² (one minimum), ``above`` · 2/r² (every pattern a minimum) and
    ``above`` · 8/r² (only the patterns). The margins keep off the thresholds themselves, where
    the closest (or farthest) pair sits exactly on a support sphere. A set costs milliseconds at
    M = 18, d = 8, so the thresholds can be checked on many sets instead of one.

    Parameters
    ----------
    M, d, n_sets, rng
        As in :func:`relative_beta_counts` (set i is the i-th draw of shape (M, d)).
    below : float
        Relative margin under 2/diam², in (0, 1).
    above : float
        Relative margin over 2/r² and 8/r², in (1, 2).

    Returns
    -------
    ThresholdCounts

    Examples
    --------
    >>> c = threshold_counts(M=5, d=2, n_sets=3)
    >>> c.n_total[:, 0].tolist(), c.n_stored[:, 1].tolist(), c.n_novel[:, 2].tolist()
    ([1, 1, 1], [5, 5, 5], [0, 0, 0])
    """
    below = check_fraction(below, "below")
    above = check_fraction(above, "above", lo=1.0, hi=2.0)
    M, d, n_sets, draws = _random_sets(M, d, n_sets, rng)
    counts = np.zeros((3, n_sets, 3), dtype=np.int64)
    for i, Xi in enumerate(draws):
        th = beta_thresholds(Xi)
        betas = (below * th.single_minimum, above * th.stored_exact, above * th.stored_only)
        for j, b in enumerate(betas):
            sets = lsr_minima(Xi, b)
            n_stored = sum(len(k) == 1 for k in sets)
            counts[:, i, j] = (len(sets), n_stored, len(sets) - n_stored)
    return ThresholdCounts(
        n_total=counts[0],
        n_stored=counts[1],
        n_novel=counts[2],
        M=M,
        d=d,
        below=below,
        above=above,
    )


def basin_radius(memories: Any, index_set: Iterable[int], beta: float) -> tuple[float, float]:
    """Basin radius of a minimum: Thm 2(b)'s r* (paper eq. (4)) and the exact radius.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    index_set : iterable of int
        A self-consistent subset 𝒦 (a minimum, see :func:`lsr_minima`).
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    r_star : float
        √(D_max² + min{δ_min, γ_min}) − D_max (paper eq. (4)) with D_max = max_μ ‖x* − ξ_μ‖ over
        all memories, δ_min = min_{μ∈𝒦} (2/β − ‖x* − ξ_μ‖²), γ_min = min_{ν∉𝒦} (‖x* − ξ_ν‖² −
        2/β) (γ_min = inf when 𝒦 holds every memory).
    r_star_exact : float
        min_μ |‖x* − ξ_μ‖ − √(2/β)| >= r_star (note §2.6): the largest radius on which the
        active set stays 𝒦, so one step of Algorithm 1 lands exactly on x*.

    Notes
    -----
    The paper writes "max_{x*} δ_min > 0"; every minimum needs its own positive margin (note
    §2.6, P14). The exact radius is about 2.8 times r* in the note's calibration.

    Raises
    ------
    ValueError
        If ``index_set`` is not self-consistent at ``beta``.

    Examples
    --------
    One memory at 0 with β = 2 (R = 1): the whole unit ball is the basin.

    >>> basin_radius([[0.0]], [0], beta=2.0)
    (1.0, 1.0)
    """
    beta = check_beta(beta)
    xp = array_namespace(memories)
    Xi = check_max_abs(as_memories(memories, xp=xp), "memories")
    K = check_index_set(index_set, Xi.shape[0])
    t = 2.0 / beta
    A = xp.zeros((1, Xi.shape[0]), dtype=xp.float64)
    A[0, K] = 1.0
    if not bool(_exact_rows(A, Xi, t, xp)[0]):
        raise ValueError(
            f"index_set must be self-consistent (a minimum) at beta={beta!r}, got {tuple(K)!r}"
        )
    C = (A @ Xi) / float(len(K))
    d2 = np.asarray(to_numpy(_sqdist_diff(C, Xi, xp)[0]))
    member = np.zeros(Xi.shape[0], dtype=bool)
    member[K] = True
    d_max = math.sqrt(float(d2.max()))
    delta_min = float(np.min(t - d2[member]))
    gamma_min = float(np.min(d2[~member] - t)) if (~member).any() else math.inf
    r_star = math.sqrt(d_max**2 + min(delta_min, gamma_min)) - d_max
    r_exact = float(np.min(np.abs(np.sqrt(d2) - math.sqrt(t))))
    return r_star, r_exact


def fig3_beta_grid(
    memories: Any, n: int = 24, extend: bool = True, spacing: str = "geometric"
) -> np.ndarray:
    """The β grid of the paper's Fig. 3 (left): geometric from 2/d to 2/r_min² (App. C.2).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns in the unit cube, M >= 2, pairwise distinct, with r_min < √d.
    n : int
        Points from 2/d to 2/r_min² inclusive (the paper's 24), 2 <= n <= 10000.
    extend : bool
        Continue with the same ratio up to 8/r_min² inclusive (Pitfall P3: only above 8/r²
        are the stored patterns guaranteed to be the only minima; the last step is shortened so
        the grid ends exactly at 8/r²).
    spacing : {"geometric", "paper"}
        ``"geometric"`` (default) is the grid described in App. C.2, above. ``"paper"`` is the
        grid the paper's public code runs (``exp_LMIN0.py`` with ``LMIN0_utils.py``,
        ``compute_beta_r_ranges``): ``n`` points spaced *linearly* from 2/d to 8/r_min² (there
        ``nbetas = 50``); ``extend`` is then not used (it must still be a bool).

    Returns
    -------
    numpy.ndarray
        Increasing β values. Both 2/r² and 8/r² are tie points: there the closest pair sits
        on a support sphere to rounding, which :func:`lsr_minima` counts as a tie.

    Raises
    ------
    ValueError
        For duplicated memories (r_min = 0: the grid would end at β = inf), r_min >= √d, or
        a grid (with its extension) above 10000 points.
    TypeError
        If ``extend`` is not a bool.

    Examples
    --------
    Two points at distance 1 in the plane: the grid runs from 2/d = 1 to 2/r² = 2.

    >>> fig3_beta_grid([[0.0, 0.0], [1.0, 0.0]], n=3, extend=False).round(4).tolist()
    [1.0, 1.4142, 2.0]

    The public code's grid runs linearly from 2/d = 1 to 8/r² = 8:

    >>> fig3_beta_grid([[0.0, 0.0], [1.0, 0.0]], n=3, spacing="paper").tolist()
    [1.0, 4.5, 8.0]
    """
    n = check_positive_int(n, "n", minimum=2, maximum=_MAX_GRID)
    extend = check_bool(extend, "extend")
    xp = array_namespace(memories)
    Xi = check_max_abs(as_memories(memories, xp=xp), "memories")
    M, d = Xi.shape
    if M < 2:
        raise ValueError(f"memories must hold M >= 2 patterns to define r_min, got M={M}")
    r2, _ = _pairwise_extremes(Xi, xp)
    lo, hi = 2.0 / d, _two_over(r2)
    if r2 == 0.0:
        D2 = np.asarray(to_numpy(_sqdist_diff(Xi, Xi, xp)))
        i, j = np.argwhere((D2 == 0.0) & ~np.eye(M, dtype=bool))[0]
        raise ValueError(
            f"memories must be distinct (the grid ends at 2/r_min^2), but memories[{i}] and "
            f"memories[{j}] are equal"
        )
    if not math.isfinite(4.0 * hi):
        raise ValueError(
            f"memories have r_min = {math.sqrt(r2):.3g}, so 8/r_min^2 overflows; rescale them"
        )
    if not hi > lo:
        raise ValueError(
            f"memories must have r_min < sqrt(d) = {math.sqrt(d):.4g} (the grid runs from 2/d "
            f"to 2/r_min^2), got r_min={math.sqrt(r2):.4g}"
        )
    if not (isinstance(spacing, str) and spacing in ("geometric", "paper")):
        raise ValueError(f"spacing must be one of ('geometric', 'paper'), got {spacing!r}")
    if spacing == "paper":
        return np.linspace(lo, 4.0 * hi, n)
    base = np.geomspace(lo, hi, n)
    if not extend:
        return base
    n_ext = max(1, math.ceil(math.log(4.0) / math.log(base[1] / base[0])))
    check_size(
        n_ext,
        "extend",
        f"extra grid points (2/r_min^2 = {hi:.6g} is so close to 2/d that the ratio is tiny)",
        _MAX_GRID,
        "use extend=False or a larger n",
    )
    return np.concatenate([base, np.geomspace(hi, 4.0 * hi, n_ext + 1)[1:]])


# --------------------------------------------------------------------------------------------
# Private kernels (trust their input)
# --------------------------------------------------------------------------------------------


def _validated_memories(memories: Any, xp: Any) -> Any:
    """``as_memories`` in the namespace ``xp`` (default: that of the input), |entries| <= 1e100."""
    Xi = as_memories(memories, xp=xp if xp is not None else array_namespace(memories))
    return check_max_abs(Xi, "memories")


def _random_sets(
    M: int, d: int, n_sets: int, rng: Any
) -> tuple[int, int, int, Iterator[np.ndarray]]:
    """Check the many-set parameters; the sets are lazy (M, d) uniform draws of one generator.

    Shared by :func:`relative_beta_counts`, :func:`threshold_counts` and
    :func:`~assocmem.dense_am.emergence_counts`: set i is the i-th draw of shape (M, d), so a
    seed gives the same sets to all three.
    """
    M = check_positive_int(M, "M", minimum=2, maximum=64)
    d = check_positive_int(d, "d")
    n_sets = check_positive_int(n_sets, "n_sets", maximum=10_000)
    check_size(n_sets * M * d, "n_sets", "coordinates (n_sets * M * d)", MAX_ELEMENTS, "use fewer")
    gen = as_rng(rng)
    return M, d, n_sets, (gen.random((M, d)) for _ in range(n_sets))


def _check_chunk(chunk: int, M: int) -> None:
    """Refuse blocks of ``chunk`` rows of M entries above the element cap."""
    check_size(
        chunk * M, "chunk", "elements per block (chunk·M)", MAX_ELEMENTS, "use a smaller chunk"
    )


def _check_brute_size(M: int, d: int) -> None:
    """Refuse M > 62 (subsets are int64 bitmasks, note P22) and work 2^M·M·d above the cap."""
    if M > 62:
        raise ValueError(
            f"brute force enumerates 2**M - 1 subsets as int64 bitmasks and needs M <= 62 "
            f"memories, got M={M}; use lsr_minima(method='cliques')"
        )
    check_size(
        (2**M - 1) * M * d,
        "memories",
        f"subset-coordinate products ((2^M - 1)·M·d with M={M}, d={d}) for brute force",
        _BRUTE_WORK,
        "about 30 s at the limit; use lsr_minima(method='cliques')",
    )


def _two_over(x2: float) -> float:
    """2/x² with the limits 2/0 = inf and 2/inf = 0."""
    if x2 == 0.0:
        return math.inf
    return 2.0 / x2


def _sqdist_diff(C: Any, Xi: Any, xp: Any) -> Any:
    """(B, M) squared distances in difference form, summed over coordinates k = 0..d-1 in order."""
    D2 = C[:, 0, None] - Xi[None, :, 0]
    D2 *= D2
    for k in range(1, C.shape[1]):
        diff = C[:, k, None] - Xi[None, :, k]
        diff *= diff
        D2 += diff
    return D2


def _max_norm(Xi: Any, xp: Any) -> float:
    """max_μ ‖ξ_μ‖, the scale of the centroids' rounding errors (:func:`_tie_band`)."""
    return math.sqrt(float(xp.max(xp.sum(Xi * Xi, axis=1))))


def _tie_band(k: Any, t: float, d: int, xmax: float, xp: Any) -> Any:
    """Half-width η of the band around t inside which a squared distance counts as a tie.

    For a subset of size k the float centroid c̃ = fl(Σ ξ)/k is within
    e_k = 2(k − 1)·√k·u·max‖ξ‖ of the exact one (u the unit roundoff; a sum of k terms, exact
    for k = 1), and a difference-form squared distance near t is within (d + 2)·u·t plus
    2√t·e_k + e_k² of its exact value; t = fl(2/β) adds u·t. η is twice the sum, so a squared
    distance within η of t is a tie to rounding: a member needs ‖ξ̄ − ξ_μ‖² < t − η, a
    non-member ‖ξ̄ − ξ_ν‖² > t + η. The band scales with t (never swamps it for singletons,
    whose centroid is exact) and with the memories' norm only through the centroid's rounding.
    """
    e = 2.0 * (k - 1.0) * xp.sqrt(k) * _UNIT_ROUNDOFF * xmax
    return 2.0 * ((d + 3) * _UNIT_ROUNDOFF * t + 2.0 * math.sqrt(t) * e + e * e)


def _exact_rows(A: Any, Xi: Any, t: float, xp: Any, xmax: float | None = None) -> Any:
    """Strict self-consistency of each 0/1 indicator row of A (paper Prop. 2, corrected).

    Members strictly inside the support sphere of the centroid, ‖ξ̄ − ξ_μ‖² < t − η, and
    non-members strictly outside, ‖ξ̄ − ξ_ν‖² > t + η, with η per row from :func:`_tie_band`
    (``xmax`` is max‖ξ‖, computed here when not given).
    """
    k = xp.sum(A, axis=1)
    eta = _tie_band(k, t, Xi.shape[1], _max_norm(Xi, xp) if xmax is None else xmax, xp)[:, None]
    C = (A @ Xi) / k[:, None]
    D2 = _sqdist_diff(C, Xi, xp)
    return xp.all(xp.where(A > 0, D2 < t - eta, D2 > t + eta), axis=1)


def _bruteforce(Xi: Any, beta: float, chunk: int, xp: Any) -> list[tuple[int, ...]]:
    """Check all 2^M − 1 bitmasks in blocks of ``chunk`` (paper Sec. 4.1; note §4.3 A)."""
    Xi = xp.asarray(Xi, dtype=xp.float64)
    M = Xi.shape[0]
    t = 2.0 / beta
    xmax = _max_norm(Xi, xp)
    shifts = xp.arange(M, dtype=xp.int64)
    hits = []
    for start in range(1, 1 << M, chunk):
        idx = xp.arange(start, min(start + chunk, 1 << M), dtype=xp.int64)
        A = ((idx[:, None] >> shifts[None, :]) & 1).astype(xp.float64)
        ok = _exact_rows(A, Xi, t, xp, xmax)
        hits.extend(int(m) for m in to_numpy(idx[ok]))
    return sorted(tuple(i for i in range(M) if (m >> i) & 1) for m in hits)


def _pairwise_extremes(Xi: Any, xp: Any) -> tuple[float, float]:
    """(min, max) squared pairwise distance over μ ≠ ν, in blocks of rows; (inf, 0) if M = 1."""
    M = Xi.shape[0]
    r2, diam2 = math.inf, 0.0
    rows = max(1, (1 << 20) // M)
    for start in range(0, M, rows):
        block = _sqdist_diff(Xi[start : start + rows], Xi, xp)
        diam2 = max(diam2, float(xp.max(block)))
        i = xp.arange(block.shape[0])
        block[i, i + start] = xp.inf
        r2 = min(r2, float(xp.min(block)))
    return r2, diam2


def _nearest_sqdist_samples(Xi: Any, n: int, rng: np.random.Generator, chunk: int, xp: Any):
    """min_μ ‖x − ξ_μ‖² for n uniform points x in [0, 1]^d, as a NumPy array (P20)."""
    d = Xi.shape[1]
    out = np.empty(n)
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        X = xp.asarray(rng.random((stop - start, d)))
        out[start:stop] = to_numpy(xp.min(_sqdist_diff(X, Xi, xp), axis=1))
    return out


# ---- exact search (method "cliques") --------------------------------------------------------


def _search_minima(Xi: np.ndarray, t: float, use_c3: bool) -> list[tuple[int, ...]]:
    """Exact minima by shortcut C3 and the branch-and-bound search of :func:`lsr_minima`."""
    search = _Search(Xi, t)
    if use_c3 and search.diam2 < t - search.slack:
        # C3 (note §2.2): every centroid has all memories within R; only ⟦M⟧ can qualify.
        search.add_leaf([], list(range(Xi.shape[0])), np.ones((1, Xi.shape[0])))
    else:
        for comp in search.components():
            search.run(comp)
    search.flush()
    return sorted(search.found)


class _Search:
    """State of the exact branch-and-bound search (see :func:`lsr_minima`, Notes)."""

    def __init__(self, Xi: np.ndarray, t: float) -> None:
        self.Xi = np.ascontiguousarray(Xi)
        self.M, self.d = Xi.shape
        self.t = t
        xn = np.einsum("ij,ij->i", Xi, Xi)
        # The bounds work on centred copies (translation invariance); the slack covers their
        # rounding and that of the float centroids, which scales with max ‖ξ‖.
        self.Xc = self.Xi - self.Xi.mean(axis=0)
        self.xn_c = np.einsum("ij,ij->i", self.Xc, self.Xc)
        rc, xmax = math.sqrt(float(self.xn_c.max())), math.sqrt(float(xn.max()))
        self.slack = _PRUNE_SLACK * (t + rc**2) + 1e-13 * self.M * xmax * (math.sqrt(t) + rc)
        self.scale_len = math.sqrt(t + rc**2)
        self.D2 = _sqdist_diff(self.Xi, self.Xi, np)
        self.diam2 = float(self.D2.max())
        # Members of a minimum are pairwise < 2R apart (note §1.7); relaxed by the slack.
        self.adj = self.D2 < 4.0 * (t + self.slack)
        # Augmented memories for the GEMM pre-filter: [c, -1] @ [2ξ; ‖ξ‖²] = 2c·ξ − ‖ξ‖².
        self.Xaug = np.vstack([2.0 * self.Xi.T, xn[None, :]])
        # Error bound of the GEMM form against the difference form, per unit of (‖c‖² + ‖ξ‖²):
        # both are within (2d + 6) u of the exact value (standard dot-product bounds).
        self.tol_coef = 4.0 * (4 * self.d + 12) * _UNIT_ROUNDOFF
        self.xn_max = float(xn.max())
        self.xmax = math.sqrt(self.xn_max)
        self.found: list[tuple[int, ...]] = []
        self._tasks: list[tuple[list[int], list[int], bool]] = []
        self._rows = 0

    def components(self) -> list[list[int]]:
        """Connected components of the overlap graph (memories < 2R apart), as index lists."""
        label = np.full(self.M, -1)
        comps: list[list[int]] = []
        for root in range(self.M):
            if label[root] >= 0:
                continue
            member = np.zeros(self.M, dtype=bool)
            frontier = member.copy()
            frontier[root] = member[root] = True
            while frontier.any():
                frontier = self.adj[frontier].any(axis=0) & ~member
                member |= frontier
            label[member] = len(comps)
            comps.append(np.flatnonzero(member).tolist())
        return comps

    def run(self, comp: list[int]) -> None:
        """Depth-first search over the subsets of one component (explicit stack, no recursion).

        A node is (IN, OUT, U, s_lo): it stands for the subsets IN ∪ S, S ⊆ U, |S| >= s_lo.
        """
        stack: list[tuple[list[int], list[int], list[int], int]] = [([], [], comp, 0)]
        while stack:
            node = self._propagate(*stack.pop())
            if node is None:
                continue
            IN, OUT, U, s_lo, j = node
            if j < 0:
                self.add_leaf(IN, U, _subset_table(len(U), s_lo))
                continue
            u = U[j]
            rest = U[:j] + U[j + 1 :]
            near = [v for v in rest if self.adj[u, v]]
            far = [v for v in rest if not self.adj[u, v]]
            stack.append((IN, [*OUT, u], rest, s_lo))  # exclude u (explored second)
            stack.append(([*IN, u], OUT + far, near, max(s_lo - 1, 0)))  # include u

    def _propagate(self, IN, OUT, U, s_lo):
        """Apply rules 2-5 until nothing changes; None if pruned, else (IN, OUT, U, s_lo, j).

        ``j = -1`` means "hand this node to the leaf kernel", otherwise branch on ``U[j]``.
        """
        t, sl = self.t, self.slack
        while True:
            n, m = len(U), len(IN)
            if n <= _LEAF_SIZE:
                return (IN, OUT, U, s_lo, -1) if m + n > 0 and s_lo <= n else None
            # (n+1, m + |OUT| + n) squared-distance bounds, one row per size s = |S|
            lo2, hi2, norms = self._bounds(IN, OUT, U)
            s = np.arange(n + 1)
            feas = ((m + s) > 0) & (s >= s_lo)
            if m:
                feas &= np.all(lo2[:, :m] < t + sl, axis=1)
            n_out = len(OUT)
            if n_out:
                feas &= np.all(hi2[:, m : m + n_out] >= t - sl, axis=1)
            possible = lo2[:, m + n_out :] < t + sl
            certain = hi2[:, m + n_out :] < t - sl
            feas, possible, certain = self._pair_rules(IN, OUT, U, feas, possible, certain)
            feas &= possible.sum(axis=1) >= s
            feas &= certain.sum(axis=1) <= s
            # Rule 5: the few subsets of the smallest feasible sizes are checked explicitly,
            # and the node keeps only the larger sizes, whose centroids are pinned more tightly.
            s_small, budget = -1, _SMALL_SIZE_BUDGET
            for size in np.flatnonzero(feas):
                budget -= math.comb(n, int(size))
                if budget < 0:
                    break
                s_small = int(size)
            if s_small >= 0:
                for size in range(s_lo, s_small + 1):
                    if feas[size]:
                        self.add_leaf(IN, U, _combination_table(n, size))
                feas[: s_small + 1] = False
                s_lo = s_small + 1
            if not feas.any():
                return None
            feas_pos = feas.copy()
            feas_pos[0] = False
            can_in = possible[feas_pos].any(axis=0)
            must_in = certain[feas].all(axis=0)
            s_lo = int(np.argmax(feas))
            if not can_in.all():
                OUT = OUT + [u for u, c in zip(U, can_in, strict=True) if not c]
                U = [u for u, c in zip(U, can_in, strict=True) if c]
                continue
            if must_in.any():
                u = U[int(np.argmax(must_in))]
                rest = [v for v in U if v != u]
                OUT = OUT + [v for v in rest if not self.adj[u, v]]
                U = [v for v in rest if self.adj[u, v]]
                IN = [*IN, u]
                s_lo = max(s_lo - 1, 0)
                continue
            return IN, OUT, U, s_lo, int(np.argmax(norms))

    def _pair_rules(self, IN, OUT, U, feas, possible, certain):
        """Rule 3: a member μ is nearer the centroid than a non-member ν (note §1.7).

        ‖ξ̄_𝒦 − ξ_μ‖² < ‖ξ̄_𝒦 − ξ_ν‖² ⇔ Σ_{λ∈𝒦} (D²_μλ − D²_νλ) < 0, linear in the indicator
        of 𝒦, so its minimum over S ⊆ U with |S| = s is the sum of the s smallest terms.
        """
        D2, sl = self.D2, self.slack
        m, n, o = len(IN), len(U), len(OUT)
        mem, non = IN + U, OUT + U
        F = D2[np.ix_(mem, U)][:, None, :] - D2[np.ix_(non, U)][None, :, :]  # (m+n, o+n, n)
        base = D2[np.ix_(mem, IN)].sum(axis=1)[:, None] - D2[np.ix_(non, IN)].sum(axis=1)[None, :]
        F.sort(axis=-1)
        cs = np.concatenate([np.zeros((*F.shape[:2], 1)), np.cumsum(F, axis=-1)], axis=-1)
        s = np.arange(n + 1)
        tol = sl * (m + s + 1.0)
        low = base[..., None] + cs  # (m+n, o+n, n+1): lower bound for |S| = s
        feas = feas.copy()
        if m and o:
            feas &= ~np.any(low[:m, :o, :] >= tol, axis=(0, 1))
        if o:
            # u ∈ S: its own term is −D²_νu, the other s − 1 terms at least the s − 1 smallest.
            own = -D2[np.ix_(OUT, U)].T  # (n, o)
            low_u = base[m:, :o, None] + own[..., None] + cs[m:, :o, :-1]  # s − 1 = 0..n−1
            bad = np.any(low_u >= tol[1:], axis=1)  # (n, n): [u, s−1]
            possible = possible.copy()
            possible[1:] &= ~bad.T
        if m:
            # u ∉ S with μ ∈ IN: Σ_{λ∈𝒦} (D²_μλ − D²_uλ) < 0 needs the s smallest terms < 0.
            forced = np.any(low[:m, o:, :] >= tol, axis=0)  # (n, n+1): [u, s]
            certain = certain | forced.T
        return feas, possible, certain

    def _bounds(self, IN, OUT, U):
        """Lower/upper bounds on ‖ξ̄_𝒦 − ξ_ν‖² for each size s and each ν in IN, OUT, U (rule 2)."""
        Xi = self.Xc
        m, n = len(IN), len(U)
        s = np.arange(n + 1)
        k = np.maximum(m + s, 1).astype(np.float64)
        Y = Xi[U]
        mean_u = Y.mean(axis=0)
        Y = Y - mean_u
        norms = np.sqrt(np.einsum("ij,ij->i", Y, Y))
        top = np.concatenate([[0.0], np.cumsum(np.sort(norms)[::-1])])
        gram = Y.T @ Y if self.d <= n else Y @ Y.T
        sig = math.sqrt(max(float(np.linalg.eigvalsh(gram)[-1]), 0.0))
        rho = np.minimum(np.minimum(top[s], top[n - s]), sig * np.sqrt(s * (n - s) / n)) / k
        sum_in = Xi[IN].sum(axis=0) if m else np.zeros(self.d)
        Q = (sum_in[None, :] + s[:, None] * mean_u[None, :]) / k[:, None]  # (n+1, d)
        T = IN + OUT + U
        # GEMM forms (no (n+1, T, d) temporaries); their rounding is far below the slack.
        qn = np.einsum("ij,ij->i", Q, Q)
        dist = np.sqrt(np.maximum(qn[:, None] - 2.0 * (Q @ Xi[T].T) + self.xn_c[T][None, :], 0.0))
        # P[s, ν, u] = w·y_u with w the unit vector from ξ_ν to q_s, sorted over u. Where q_s is
        # (almost) at ξ_ν the direction is unreliable; there only the ball bound ±ρ_s is used.
        tiny = dist <= 1e-4 * self.scale_len
        P = (Q @ Y.T)[:, None, :] - (Xi[T] @ Y.T)[None, :, :]
        P /= np.where(tiny, 1.0, dist)[..., None]
        P.sort(axis=-1)
        csum = np.concatenate([np.zeros((*P.shape[:2], 1)), np.cumsum(P, axis=-1)], axis=-1)
        take = np.broadcast_to(s[:, None, None], (*P.shape[:2], 1))
        lo_lin = np.take_along_axis(csum, take, axis=-1)[..., 0] / k[:, None]
        hi_lin = (csum[..., -1] - np.take_along_axis(csum, n - take, axis=-1)[..., 0]) / k[:, None]
        rho_b = np.broadcast_to(rho[:, None], dist.shape)
        lo_lin = np.where(tiny, -rho_b, lo_lin)
        hi_lin = np.where(tiny, rho_b, hi_lin)
        lo = np.maximum(np.maximum(dist + lo_lin, dist - rho[:, None]), 0.0)
        proj_hi = np.maximum(np.abs(dist + lo_lin), np.abs(dist + hi_lin))
        hi2 = np.minimum(proj_hi**2 + rho[:, None] ** 2, (dist + rho[:, None]) ** 2)
        var_lo2, var_hi2, tri_hi = self._pairwise_bounds(IN, T, U, k)
        lo2 = np.maximum(lo**2, var_lo2)
        hi2 = np.minimum(np.minimum(hi2, var_hi2), tri_hi**2)
        return lo2, hi2, norms

    def _pairwise_bounds(self, IN, T, U, k):
        """Rule 2 (second part): bounds on ‖ξ̄_𝒦 − ξ_ν‖² from pairwise distances only.

        ‖ξ̄_𝒦 − ξ_ν‖² = (1/k) Σ_{λ∈𝒦} D²_νλ − W(𝒦)/k² with W(𝒦) = Σ_{pairs in 𝒦} D², and
        ‖ξ̄_𝒦 − ξ_ν‖ ≤ (1/k) Σ_{λ∈𝒦} D_νλ (triangle inequality); each sum over S is bounded by
        its s smallest or largest terms.
        """
        n = len(U)
        s = np.arange(n + 1)
        D2 = self.D2
        D2_TU = np.sort(D2[np.ix_(T, U)], axis=1)  # ascending over u
        zeros = np.zeros((len(T), 1))
        low_d2 = np.concatenate([zeros, np.cumsum(D2_TU, axis=1)], axis=1).T  # (n+1, T)
        high_d2 = np.concatenate([zeros, np.cumsum(D2_TU[:, ::-1], axis=1)], axis=1).T
        D_TU = np.sqrt(D2_TU[:, ::-1])
        high_d = np.concatenate([zeros, np.cumsum(D_TU, axis=1)], axis=1).T
        if IN:
            in_d2 = D2[np.ix_(T, IN)].sum(axis=1)
            in_d = np.sqrt(D2[np.ix_(T, IN)]).sum(axis=1)
            w_in = 0.5 * float(D2[np.ix_(IN, IN)].sum())
            a = np.sort(D2[np.ix_(U, IN)].sum(axis=1))
        else:
            in_d2 = in_d = np.zeros(len(T))
            w_in, a = 0.0, np.zeros(n)
        a_low = np.concatenate([[0.0], np.cumsum(a)])
        a_high = np.concatenate([[0.0], np.cumsum(a[::-1])])
        iu = np.triu_indices(n, 1)
        pairs = np.sort(D2[np.ix_(U, U)][iu])
        p_low = np.concatenate([[0.0], np.cumsum(pairs)])
        p_high = np.concatenate([[0.0], np.cumsum(pairs[::-1])])
        npairs = s * (s - 1) // 2
        w_min = w_in + a_low + p_low[npairs]
        w_max = w_in + a_high + p_high[npairs]
        kk = k[:, None]
        var_hi2 = (in_d2[None, :] + high_d2) / kk - (w_min / k**2)[:, None]
        var_lo2 = (in_d2[None, :] + low_d2) / kk - (w_max / k**2)[:, None]
        tri_hi = (in_d[None, :] + high_d) / kk
        return var_lo2, var_hi2, tri_hi

    # ---- leaf kernel -----------------------------------------------------------------------

    def add_leaf(self, IN: list[int], U: list[int], table: np.ndarray) -> None:
        """Queue the subsets IN ∪ S, one per 0/1 row of ``table`` over U, for the leaf kernel."""
        if table.shape[0] == 0:
            return
        self._tasks.append((IN, U, table))
        self._rows += table.shape[0]
        if self._rows * self.M >= _BATCH_ELEMENTS:
            self.flush()

    def flush(self) -> None:
        """Check every queued subset: GEMM pre-filter with a rounding margin, exact recheck."""
        if not self._tasks:
            return
        A = np.zeros((self._rows, self.M))
        row = 0
        for IN, U, table in self._tasks:
            rows = table.shape[0]
            A[row : row + rows, IN] = 1.0
            A[row : row + rows, U] = table
            row += rows
        self._tasks, self._rows = [], 0
        A = A[A.sum(axis=1) > 0]
        cand = self._prefilter(A)
        if cand.size:
            Ac = A[cand]
            ok = _exact_rows(Ac, self.Xi, self.t, np, self.xmax)
            self.found.extend(tuple(np.flatnonzero(r).tolist()) for r in Ac[ok])

    def _prefilter(self, A: np.ndarray) -> np.ndarray:
        """Rows whose GEMM-form distances do not *surely* contradict self-consistency.

        With c the float centroid, F = ‖c‖² − (2c·ξ − ‖ξ‖²) and Δ the difference form differ by
        at most tol = coef·(‖c‖² + max‖ξ‖² + t); a row is dropped only if some entry is on the
        wrong side of t by more than tol, so the exact test would fail too.
        """
        k = A.sum(axis=1)
        Ca = np.empty((A.shape[0], self.d + 1))
        C = Ca[:, : self.d]
        np.matmul(A, self.Xi, out=C)
        C /= k[:, None]
        Ca[:, self.d] = -1.0
        cn = np.einsum("ij,ij->i", C, C)
        Z = (self.Xaug.T @ Ca.T) - (cn - self.t)[None, :]  # (M, rows): ≈ t − ‖c − ξ‖²
        Z *= 2.0 * A.T - 1.0  # > 0 where the row agrees with the test
        margin = Z.min(axis=0)
        tol = self.tol_coef * (cn + self.xn_max + self.t)
        return np.flatnonzero(margin > -tol)


_TABLES: dict[tuple[str, int, int], np.ndarray] = {}


def _subset_table(n: int, s_lo: int = 0) -> np.ndarray:
    """0/1 float rows over n items: every subset with at least s_lo items (cached)."""
    key = ("subsets", n, s_lo)
    table = _TABLES.get(key)
    if table is None:
        idx = np.arange(1 << n, dtype=np.int64)
        table = ((idx[:, None] >> np.arange(n, dtype=np.int64)) & 1).astype(np.float64)
        table = np.ascontiguousarray(table[table.sum(axis=1) >= s_lo])
        _TABLES[key] = table
    return table


def _combination_table(n: int, size: int) -> np.ndarray:
    """0/1 float rows over n items: every subset with exactly ``size`` items (cached)."""
    key = ("combinations", n, size)
    table = _TABLES.get(key)
    if table is None:
        combos = list(itertools.combinations(range(n), size))
        table = np.zeros((len(combos), n))
        for i, c in enumerate(combos):
            table[i, list(c)] = 1.0
        _TABLES[key] = table
    return table
