"""The paper's public counting code, re-implemented, and an exact arbiter for what it reports.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*, Sec. 4.1 and App. C.2 (counting the LSR minima of M random patterns) and Algorithm 3
(the neighbourhood restriction). The authors' public repository, GitHub
``bhoov/EpanechnikovDenseAM``, counts the minima in two ways, both in JAX with 32-bit floats:

* a **brute force** (``LMIN0_utils.py``, ``exp_LMIN0.py``): every non-empty subset 𝒦 of the
  patterns is kept when its centroid is supported (E < ∞ at ϵ = 0) and the autodiff gradient of
  eq. (3) there has norm below 5e-6;
* a **neighbourhood search** (``QBVAE_utils.py``, function ``compute_minima_information``): for
  each pattern, the subsets of its neighbours within 2R that contain it (patterns with more than
  15 neighbours are skipped), whose centroids are rounded to 6 decimals, de-duplicated, and kept
  when the gradient at the rounded point has norm below 1e-5.

The functions below re-implement both in NumPy float32 with the same tolerances, the same energy
and gradient formula (the derivative autodiff takes, with ReLU'(0) = 0) and the same centroid
arithmetic (masked rows summed, divided by the subset size), and label them as the public code's
methods. They are for comparison, not for use: the exact method is
:func:`assocmem.dense_am.lsr_minima`. A gradient threshold cannot tell an exact minimum from a
subset whose centroid lies within ~1e-6 of a *different* minimum (the brute force over-counts),
and rounding a centroid moves it off the minimum by up to 5e-7 per coordinate, which fails the
gradient test where the energy is shallow (the neighbourhood search under-counts).

:func:`exact_self_consistency` settles any disagreement: it redoes the self-consistency test of
note §1.7 in rational arithmetic (:class:`fractions.Fraction`) on the exact binary values of the
float inputs, so no rounding enters the verdict.

Notation map
------------
======================  =========================  ==============================================
paper / public code     here                       meaning
======================  =========================  ==============================================
Ξ, ``Xis``              ``memories``, (M, d)       stored patterns (float32 in the public code)
β, ``beta``             ``beta``                   inverse temperature, > 0
√(2/β), ``r``           R                          support radius
δ, ``zero_grad_thresh`` ``grad_tol``               gradient-norm threshold (5e-6; 1e-5 in QBVAE)
𝒦, ``mask``             ``index_set``              a subset of patterns, sorted 0-based indices
ξ̄_𝒦                     centroid                   arithmetic mean of the subset
t = 2/β                 ``t``                      squared support radius of the exact test
======================  =========================  ==============================================

Public functions
----------------
public_bruteforce_minima, public_neighbourhood_minima (-> PublicMinima),
exact_self_consistency (-> ExactVerdict), compare_counting_methods (-> CountingComparison),
counting_survey (-> CountingSurvey).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from assocmem._validation import (
    as_memories,
    as_rng,
    check_beta,
    check_index_set,
    check_int_sequence,
    check_positive_float,
    check_positive_int,
    check_size,
)

from .minima import _pairwise_extremes, fig3_beta_grid, lsr_minima

__all__ = [
    "CountingComparison",
    "CountingSurvey",
    "ExactVerdict",
    "PublicMinima",
    "compare_counting_methods",
    "counting_survey",
    "exact_self_consistency",
    "public_bruteforce_minima",
    "public_neighbourhood_minima",
]

#: Gradient threshold of the public brute force (``exp_LMIN0.py``, ``zero_grad_thresh``).
BRUTE_GRAD_TOL = 5e-6
#: Gradient threshold of the public neighbourhood search (``compute_minima_information``).
NEIGHBOURHOOD_GRAD_TOL = 1e-5
#: Decimals the neighbourhood search rounds each centroid to before de-duplicating.
ROUND_DECIMALS = 6
#: Patterns with more neighbours than this are skipped by the neighbourhood search.
MAX_NEIGHBOURS = 15
#: Largest number of subsets (2**M) a brute force or comparison enumerates here.
MAX_SUBSETS = 2**22
#: Largest number of coordinates (M·d) the exact-arithmetic verdict handles.
MAX_EXACT_COORDS = 100_000

_BRUTE_NAME = "public brute force (LMIN0_utils.py, exp_LMIN0.py)"
_NEIGHBOURHOOD_NAME = "public neighbourhood search (QBVAE_utils.compute_minima_information)"


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PublicMinima:
    """What one of the public counting methods reports at one β.

    Attributes
    ----------
    method : str
        Which public method (with its file names).
    beta : float
        Inverse temperature.
    index_sets : tuple of tuple of int
        One entry per reported minimum, in the order the method reports them. Brute force: the
        subset whose centroid passed the test. Neighbourhood search: the active set at the
        centroid (patterns strictly within R), which is how the public code labels a minimum;
        the same label can appear twice when two rounded points survive.
    grad_norms : numpy.ndarray, shape (count,)
        The float32 gradient norm of each reported point.
    skipped : tuple of int
        Patterns the neighbourhood search skipped for having more than 15 neighbours within 2R
        (themselves included); empty for the brute force.
    """

    method: str
    beta: float
    index_sets: tuple[tuple[int, ...], ...]
    grad_norms: np.ndarray
    skipped: tuple[int, ...] = ()

    @property
    def count(self) -> int:
        """The number of minima the public code reports (``num_mems``, or rows returned)."""
        return len(self.index_sets)


@dataclass(frozen=True)
class ExactVerdict:
    """The self-consistency test of one subset in exact rational arithmetic (note §1.7).

    Attributes
    ----------
    index_set : tuple of int
        The subset 𝒦 tested.
    beta : float
        Inverse temperature; t = 2/β is taken exactly from the float's binary value.
    verdict : {"minimum", "tie", "not a minimum"}
        "minimum" iff every member is strictly inside, ‖ξ̄_𝒦 − ξ_μ‖² < t, and every non-member
        strictly outside (> t); "tie" if no test fails but one holds with equality (a memory
        exactly on the support sphere: not a strict minimum); otherwise "not a minimum".
    member_slack : fractions.Fraction
        min over members of t − ‖ξ̄_𝒦 − ξ_μ‖² (> 0 when all members are strictly inside).
    nonmember_slack : fractions.Fraction or None
        min over non-members of ‖ξ̄_𝒦 − ξ_ν‖² − t (> 0 when all are strictly outside); None when
        𝒦 holds every pattern.
    """

    index_set: tuple[int, ...]
    beta: float
    verdict: str
    member_slack: Fraction
    nonmember_slack: Fraction | None

    @property
    def is_minimum(self) -> bool:
        """Whether the subset is a strict local minimum."""
        return self.verdict == "minimum"


@dataclass(frozen=True)
class CountingComparison:
    """Both public methods against exact enumeration on one instance at one β.

    Attributes
    ----------
    memories : numpy.ndarray, shape (M, d)
        The patterns as every method saw them (rounded to float32 once, stored as float64).
    beta : float
        Inverse temperature.
    exact : tuple of tuple of int
        :func:`assocmem.dense_am.lsr_minima`.
    brute, neighbourhood : PublicMinima
        What the two public methods report.
    brute_added, brute_missed : tuple of tuple of int
        Subsets the brute force reports that ``exact`` lacks, and the reverse.
    neighbourhood_added, neighbourhood_missed : tuple of tuple of int
        The same for the neighbourhood search's labels.
    neighbourhood_missed_skipped : tuple of tuple of int
        The missed minima all of whose members were skipped (never generated); the other misses
        were generated and failed the rounded gradient test or the de-duplication.
    verdicts : tuple of ExactVerdict
        The exact verdict of every distinct subset in the four disagreement lists.
    """

    memories: np.ndarray
    beta: float
    exact: tuple[tuple[int, ...], ...]
    brute: PublicMinima
    neighbourhood: PublicMinima
    brute_added: tuple[tuple[int, ...], ...]
    brute_missed: tuple[tuple[int, ...], ...]
    neighbourhood_added: tuple[tuple[int, ...], ...]
    neighbourhood_missed: tuple[tuple[int, ...], ...]
    neighbourhood_missed_skipped: tuple[tuple[int, ...], ...]
    verdicts: tuple[ExactVerdict, ...]

    @property
    def n_exact(self) -> int:
        """Number of exact minima."""
        return len(self.exact)

    @property
    def neighbourhood_duplicates(self) -> int:
        """Reports of the neighbourhood search beyond the first with the same label."""
        return self.neighbourhood.count - len(set(self.neighbourhood.index_sets))

    @property
    def n_disagreements(self) -> int:
        """Number of distinct subsets on which some public method and the exact count differ."""
        return len(self.verdicts)

    @property
    def settled(self) -> bool:
        """Whether the exact verdicts side with ``lsr_minima`` on every disagreement.

        Every added subset must fail the exact test ("not a minimum" or "tie") and every missed
        subset must pass it ("minimum").
        """
        verdict = {v.index_set: v.is_minimum for v in self.verdicts}
        added = set(self.brute_added) | set(self.neighbourhood_added)
        missed = set(self.brute_missed) | set(self.neighbourhood_missed)
        return all(not verdict[k] for k in added) and all(verdict[k] for k in missed)


@dataclass(frozen=True)
class CountingSurvey:
    """Comparisons on random instances (paper Sec. 4.1 setup, β on the public code's grid).

    Arrays have one entry per comparison (instance and β).

    Attributes
    ----------
    M, d : numpy.ndarray of int
        Number of patterns and dimension.
    seed : numpy.ndarray of int
        Instance number within its (M, d) cell.
    beta_index : numpy.ndarray of int
        Index of β on the public code's grid (50 points, linear from 2/d to 8/r_min²).
    beta : numpy.ndarray of float
    n_exact, n_brute, n_neighbourhood : numpy.ndarray of int
        Counts of :func:`lsr_minima` and of the two public methods.
    n_skipped : numpy.ndarray of int
        Patterns skipped by the neighbourhood search.
    comparisons : tuple of CountingComparison
        The full comparisons, same order.
    """

    M: np.ndarray
    d: np.ndarray
    seed: np.ndarray
    beta_index: np.ndarray
    beta: np.ndarray
    n_exact: np.ndarray
    n_brute: np.ndarray
    n_neighbourhood: np.ndarray
    n_skipped: np.ndarray
    comparisons: tuple[CountingComparison, ...]

    @property
    def n_comparisons(self) -> int:
        """Number of (instance, β) comparisons."""
        return len(self.comparisons)


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def public_bruteforce_minima(
    memories: Any, beta: float, grad_tol: float = BRUTE_GRAD_TOL
) -> PublicMinima:
    """The public code's brute-force count (``LMIN0_utils.py``, ``exp_LMIN0.py``), in NumPy.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns, rounded to float32 (the public code works in JAX's default 32 bits);
        2**M <= 2**22 subsets.
    beta : float
        Inverse temperature, finite and > 0 (used as a float32, as under ``jax.jit``).
    grad_tol : float
        Gradient-norm threshold, > 0; the public default ``zero_grad_thresh`` is 5e-6.

    Returns
    -------
    PublicMinima
        The subsets 𝒦 (increasing bitmask order) whose centroid passed the test.

    Notes
    -----
    Paper Sec. 4.1 and App. C.2: for every non-empty subset (bitmask k, memory i in it iff bit i
    of k is set), the centroid is the sum of the masked rows divided by |𝒦|, all in float32. At
    the centroid c, with u_μ = 1 − (β/2)‖c − ξ_μ‖² and S = Σ_μ ReLU(u_μ), the subset is kept
    when S > 0 (E < ∞ at ϵ = 0) and ‖∇E‖ < ``grad_tol``, where

    ∇E(c) = (2 · (β/2) · (1/β) / S) Σ_{μ: u_μ > 0} (c − ξ_μ)

    is the derivative of eq. (3) that autodiff returns (ReLU'(0) = 0, ϵ = 0). This is a
    tolerance test on a float32 gradient, not a self-consistency test: a subset whose centroid
    lies within about 1e-6 of the centroid of a *different* self-consistent subset passes too.
    That happens most at d = 1, where 2**M centroids crowd into an interval.

    Raises
    ------
    ValueError
        If 2**M exceeds the limit, or for invalid ``memories``, ``beta`` or ``grad_tol``.

    References
    ----------
    Paper Sec. 4.1, App. C.2; GitHub ``bhoov/EpanechnikovDenseAM``, files ``LMIN0_utils.py``
    (``get_all_combinations``) and ``exp_LMIN0.py`` (``process_combinations``,
    ``compute_local_minima_info``).

    Examples
    --------
    Two patterns 1 apart at β = 5 (R ≈ 0.63): both patterns and their midpoint.

    >>> public_bruteforce_minima([[0.0], [1.0]], beta=5.0).index_sets
    ((0,), (1,), (0, 1))
    """
    Xi = as_memories(memories, xp=np)
    beta = check_beta(beta)
    grad_tol = check_positive_float(grad_tol, "grad_tol")
    _check_subsets(Xi.shape[0], "memories")
    X32 = _float32_inputs(Xi, beta)
    masks, norms = _public_bruteforce(X32, beta, grad_tol)
    M = X32.shape[0]
    sets = tuple(tuple(i for i in range(M) if (int(k) >> i) & 1) for k in masks)
    return PublicMinima(_BRUTE_NAME, beta, sets, norms)


def public_neighbourhood_minima(
    memories: Any, beta: float, grad_tol: float = NEIGHBOURHOOD_GRAD_TOL
) -> PublicMinima:
    """The public code's neighbourhood search (``QBVAE_utils.compute_minima_information``).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns, rounded to float32 as in the public code.
    beta : float
        Inverse temperature, finite and > 0.
    grad_tol : float
        Gradient-norm threshold, > 0; the public default is 1e-5.

    Returns
    -------
    PublicMinima
        One entry per rounded point that passed, in the order of ``numpy.unique`` (sorted
        coordinates), labelled with the active set at the unrounded centroid; ``skipped`` lists
        the patterns with more than 15 neighbours.

    Notes
    -----
    Algorithm 3 of the paper, as coded. With R = √(2/β) (float32) and float32 distances, for
    each pattern m: its neighbours are the patterns strictly within 2R (m included). One
    neighbour: the candidate is ξ_m. More than 15: m is skipped. Otherwise every subset of the
    neighbours that contains m gives a candidate, their mean. A candidate with no pattern
    strictly within R is dropped; the others are recorded with that active set as their label.
    All candidates are then rounded to 6 decimals and de-duplicated (first occurrence keeps its
    label), and a rounded point is kept when the gradient of eq. (3) *at the rounded point* has
    norm below ``grad_tol`` (the energy is not checked).

    Rounding moves a centroid by up to 5e-7 per coordinate. Since ∇E = |B| (c − ξ̄_B)/S near a
    minimum, the gradient after rounding is about |B| · 5e-7 √d / S, and S = Σ_{μ∈B} u_μ is small
    for shallow minima (members near their support boundary): pairs and triples then fail the
    test. Together with the skipped patterns this under-counts.

    Raises
    ------
    ValueError
        If the candidates exceed the limit, or for invalid ``memories``, ``beta`` or
        ``grad_tol``.

    References
    ----------
    Paper Algorithm 3 and App. C.4; GitHub ``bhoov/EpanechnikovDenseAM``, file
    ``QBVAE_utils.py``, function ``compute_minima_information``.

    Examples
    --------
    Two patterns 1 apart at β = 5: the midpoint is deep enough to survive rounding.

    >>> sorted(public_neighbourhood_minima([[0.0], [1.0]], beta=5.0).index_sets)
    [(0,), (0, 1), (1,)]
    """
    Xi = as_memories(memories, xp=np)
    beta = check_beta(beta)
    grad_tol = check_positive_float(grad_tol, "grad_tol")
    M = Xi.shape[0]
    check_size(M * M, "memories", "pairwise distances", 2**26, "store fewer patterns (M <= 8192)")
    X32 = _float32_inputs(Xi, beta)
    sets, norms, skipped = _public_neighbourhood(X32, beta, grad_tol)
    return PublicMinima(_NEIGHBOURHOOD_NAME, beta, sets, norms, skipped)


def exact_self_consistency(memories: Any, index_set: Any, beta: float) -> ExactVerdict:
    """Decide exactly whether a subset's centroid is a strict LSR minimum (note §1.7).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns; their float64 values are taken as exact binary fractions.
    index_set : iterable of int
        Non-empty set of distinct indices in [0, M).
    beta : float
        Inverse temperature, finite and > 0; t = 2/β is formed exactly from its binary value.

    Returns
    -------
    ExactVerdict
        The verdict and the smallest member and non-member slacks, as Fractions.

    Notes
    -----
    With ε = 0 the LSR minima are the centroids ξ̄_𝒦 of the subsets with B(ξ̄_𝒦) = 𝒦, B strict
    (note §1.7, sharpening Prop. 2). A memory exactly on the support sphere, ‖ξ̄_𝒦 − ξ_ν‖² = t,
    breaks strictness either way: a member there leaves the active set along some direction,
    and a non-member there lowers the energy linearly when approached while the members raise it
    only quadratically. Such a subset is a "tie", not a minimum. The centroid and all squared
    distances are computed with :class:`fractions.Fraction`, so the verdict has no rounding.

    Raises
    ------
    ValueError
        For invalid ``memories``, ``index_set`` or ``beta``, or more than 100 000 coordinates.

    Examples
    --------
    Two patterns 0 and 1 at β = 2 (R = 1): the other pattern sits exactly on the support sphere
    of each singleton, so {0} is a tie; the midpoint is a minimum.

    >>> exact_self_consistency([[0.0], [1.0]], [0], beta=2.0).verdict
    'tie'
    >>> exact_self_consistency([[0.0], [1.0]], [0, 1], beta=2.0).verdict
    'minimum'
    """
    Xi = as_memories(memories, xp=np)
    K = check_index_set(index_set, Xi.shape[0])
    beta = check_beta(beta)
    check_size(
        Xi.size, "memories", "coordinates in exact arithmetic", MAX_EXACT_COORDS,
        "use fewer or lower-dimensional patterns",
    )  # fmt: skip
    return _exact_verdict(_as_fractions(Xi), tuple(K), beta)


def compare_counting_methods(memories: Any, beta: float) -> CountingComparison:
    """Both public counting methods against exact enumeration, with exact verdicts.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns, 2**M <= 2**22. They are rounded to float32 once and every method
        (public or exact) sees the same numbers.
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    CountingComparison
        Counts, the subsets each public method adds or misses, and the exact verdict
        (:func:`exact_self_consistency`) of every disagreement.

    Raises
    ------
    ValueError
        If 2**M exceeds the limit, or for invalid ``memories`` or ``beta``.

    References
    ----------
    Paper Sec. 4.1, App. C.2 and Algorithm 3; note §1.7.

    Examples
    --------
    >>> c = compare_counting_methods([[0.0], [1.0]], beta=5.0)
    >>> c.n_exact, c.brute.count, c.neighbourhood.count, c.n_disagreements
    (3, 3, 3, 0)
    """
    Xi = as_memories(memories, xp=np)
    beta = check_beta(beta)
    _check_subsets(Xi.shape[0], "memories")
    check_size(
        Xi.size, "memories", "coordinates in exact arithmetic", MAX_EXACT_COORDS,
        "use fewer or lower-dimensional patterns",
    )  # fmt: skip
    return _compare(_float32_inputs(Xi, beta).astype(np.float64), beta)


def counting_survey(
    Ms: Sequence[int] = (4, 8, 12, 16),
    ds: Sequence[int] = (1, 2, 5, 10),
    n_instances: int = 2,
    beta_indices: Sequence[int] = (5, 15, 25, 35, 45),
    n_beta: int = 50,
    rng: Any = 0,
) -> CountingSurvey:
    """Compare the public methods with exact enumeration on random instances (Sec. 4.1 setup).

    Parameters
    ----------
    Ms : sequence of int
        Numbers of patterns, each in [2, 22].
    ds : sequence of int
        Dimensions, each >= 1.
    n_instances : int
        Random instances per (M, d), >= 1.
    beta_indices : sequence of int
        Which points of the public code's β grid to use, each in [0, n_beta).
    n_beta : int
        Size of that grid (the public default is 50), >= 2.
    rng : int or numpy.random.Generator
        Seed or generator for the patterns.

    Returns
    -------
    CountingSurvey
        One comparison per instance and β index, instances in the order of ``Ms`` then ``ds``.

    Notes
    -----
    Patterns are drawn uniformly from [0, 1]^d in float32 (the public code draws float32
    patterns with ``jax.random.uniform``). An instance whose closest pair is at least √d apart
    has no grid and is redrawn. β runs over ``fig3_beta_grid(memories, n_beta,
    spacing="paper")``: linear from 2/d to 8/r_min², as in ``exp_LMIN0.py``.

    Raises
    ------
    ValueError
        For invalid arguments or more than 2**26 subsets in all.

    Examples
    --------
    >>> s = counting_survey(Ms=[4], ds=[2], n_instances=1, beta_indices=[10], rng=0)
    >>> s.n_comparisons, bool(s.comparisons[0].settled)
    (1, True)
    """
    Ms = tuple(check_int_sequence(Ms, "Ms", 2, 22))
    ds = tuple(check_int_sequence(ds, "ds", 1, MAX_EXACT_COORDS))
    n_instances = check_positive_int(n_instances, "n_instances")
    n_beta = check_positive_int(n_beta, "n_beta", minimum=2, maximum=10_000)
    beta_indices = tuple(check_int_sequence(beta_indices, "beta_indices", 0, n_beta - 1))
    gen = as_rng(rng)
    n_cells = len(Ms) * len(ds) * n_instances * len(beta_indices)
    check_size(
        n_cells * 2 ** max(Ms), "Ms", "subsets in all", 2**26,
        "use fewer or smaller instances, or fewer beta_indices",
    )  # fmt: skip
    check_size(
        max(Ms) * max(ds), "ds", "coordinates in exact arithmetic", MAX_EXACT_COORDS,
        "use smaller dimensions",
    )  # fmt: skip
    rows: list[tuple[int, int, int, int, float]] = []
    comps: list[CountingComparison] = []
    for M in Ms:
        for d in ds:
            for s in range(n_instances):
                X = _draw_instance(gen, M, d)
                grid = fig3_beta_grid(X, n=n_beta, spacing="paper")
                for i in beta_indices:
                    beta = float(grid[i])
                    comps.append(_compare(X, beta))
                    rows.append((M, d, s, i, beta))
    cols = list(zip(*rows, strict=True))
    return CountingSurvey(
        M=np.array(cols[0], dtype=int),
        d=np.array(cols[1], dtype=int),
        seed=np.array(cols[2], dtype=int),
        beta_index=np.array(cols[3], dtype=int),
        beta=np.array(cols[4], dtype=float),
        n_exact=np.array([c.n_exact for c in comps], dtype=int),
        n_brute=np.array([c.brute.count for c in comps], dtype=int),
        n_neighbourhood=np.array([c.neighbourhood.count for c in comps], dtype=int),
        n_skipped=np.array([len(c.neighbourhood.skipped) for c in comps], dtype=int),
        comparisons=tuple(comps),
    )


# --------------------------------------------------------------------------------------------
# Private kernels (trust their input)
# --------------------------------------------------------------------------------------------


def _check_subsets(M: int, name: str) -> None:
    """Refuse more than MAX_SUBSETS subsets (2**M)."""
    check_size(
        2**M if M < 64 else float(2.0**M), name, "subsets (2**M)", MAX_SUBSETS,
        "store at most 22 patterns",
    )  # fmt: skip


def _float32_inputs(Xi: np.ndarray, beta: float) -> np.ndarray:
    """The patterns as float32, refusing values the public code's 32-bit floats cannot hold."""
    big = float(np.finfo(np.float32).max)
    if float(np.max(np.abs(Xi))) > big:
        raise ValueError(
            f"memories must be representable in float32 (|entries| <= {big:.4g}), as in the "
            f"public code, got an entry of {float(np.max(np.abs(Xi))):.4g}"
        )
    tiny = float(np.finfo(np.float32).tiny)
    if not tiny <= beta <= big:
        raise ValueError(
            f"beta must lie in the normal float32 range [{tiny:.4g}, {big:.4g}] for the public "
            f"code's 32-bit arithmetic, got {beta!r}"
        )
    return Xi.astype(np.float32)


def _tol32(grad_tol: float) -> np.float32:
    """The threshold as a float32 (as under ``jax.jit``); above the float32 range: inf."""
    return np.float32(min(grad_tol, float(np.finfo(np.float32).max)))


def _draw_instance(gen: np.random.Generator, M: int, d: int) -> np.ndarray:
    """M distinct float32 patterns in [0, 1)^d (as float64) with r_min < √d."""
    while True:
        X = gen.random((M, d), dtype=np.float32).astype(np.float64)
        if 0.0 < _pairwise_extremes(X, np)[0] < d:
            return X


def _public_energy_grad(C: np.ndarray, X32: np.ndarray, beta: float) -> tuple[Any, Any]:
    """float32 gradient of eq. (3) at the rows of C, as autodiff gives it, and S = Σ ReLU(u).

    E = −(1/β) log Σ_μ ReLU(1 − (β/2)‖c − ξ_μ‖²) (ϵ = 0, ``memories.epa_energy``); the
    backward pass gives ∇E = Σ_{u_μ > 0} 2 (c − ξ_μ) · (β/2) · (1/β) / S, zero where S = 0.
    """
    b32 = np.float32(beta)
    half_beta = np.float32(0.5) * b32
    inv_beta = np.float32(1.0) / b32
    # One (n, M) difference per coordinate: cheaper than an (n, M, d) array for small d.
    diffs = [C[:, k, None] - X32[None, :, k] for k in range(C.shape[1])]
    with np.errstate(over="ignore"):  # far-apart float32 patterns: d² = inf, ReLU term 0
        sq = diffs[0] * diffs[0]
        for dk in diffs[1:]:
            sq += dk * dk
    u = np.float32(1.0) - half_beta * sq
    S = np.sum(np.maximum(u, np.float32(0.0)), axis=1, dtype=np.float32)
    with np.errstate(divide="ignore"):
        ct = half_beta * (inv_beta / S)
    coef = np.where(u > 0, np.float32(2.0) * ct[:, None], np.float32(0.0)).astype(np.float32)
    grad = np.stack([np.sum(coef * dk, axis=1, dtype=np.float32) for dk in diffs], axis=1)
    return grad, S


def _grad_norm32(g: np.ndarray) -> np.ndarray:
    """float32 Euclidean norm of each row."""
    return np.sqrt(np.sum(g * g, axis=1, dtype=np.float32))


def _masked_mean32(A: np.ndarray, X32: np.ndarray) -> np.ndarray:
    """Centroids of 0/1 rows of A in float32: masked rows summed in order, divided by |𝒦|."""
    C = np.zeros((A.shape[0], X32.shape[1]), dtype=np.float32)
    for mu in range(X32.shape[0]):
        C += A[:, mu, None] * X32[mu]
    return C / A.sum(axis=1, dtype=np.float32)[:, None]


def _public_bruteforce(
    X32: np.ndarray, beta: float, grad_tol: float, chunk: int = 8192
) -> tuple[list[int], np.ndarray]:
    """Bitmasks (increasing) whose float32 centroid has S > 0 and ‖∇E‖ < grad_tol."""
    M = X32.shape[0]
    shifts = np.arange(M, dtype=np.int64)
    tol = _tol32(grad_tol)
    masks: list[int] = []
    norms: list[np.ndarray] = []
    for start in range(1, 1 << M, chunk):
        idx = np.arange(start, min(start + chunk, 1 << M), dtype=np.int64)
        A = ((idx[:, None] >> shifts[None, :]) & 1).astype(np.float32)
        C = _masked_mean32(A, X32)
        g, S = _public_energy_grad(C, X32, beta)
        norm = _grad_norm32(g)
        ok = (S > 0) & (norm < tol)
        masks.extend(int(k) for k in idx[ok])
        norms.append(norm[ok])
    return masks, np.concatenate(norms) if norms else np.zeros(0, dtype=np.float32)


def _dist32(P: np.ndarray, X32: np.ndarray) -> np.ndarray:
    """float32 Euclidean distances, sqrt of the summed squared differences (``get_dist_matrix``)."""
    diff = P[:, None, :] - X32[None, :, :]
    return np.sqrt(np.sum(diff * diff, axis=2, dtype=np.float32))


def _public_neighbourhood(
    X32: np.ndarray, beta: float, grad_tol: float
) -> tuple[tuple[tuple[int, ...], ...], np.ndarray, tuple[int, ...]]:
    """``compute_minima_information`` in NumPy float32: labels, gradient norms, skipped."""
    M = X32.shape[0]
    r = np.sqrt(np.float32(2.0 / beta))
    D = _dist32(X32, X32)
    points: list[np.ndarray] = []
    actives: list[np.ndarray] = []
    skipped: list[int] = []
    for m in range(M):
        nb = np.flatnonzero(D[m] < np.float32(2.0) * r)
        n = nb.size
        if n == 1:
            C = X32[m][None, :]
        elif n > MAX_NEIGHBOURS:
            skipped.append(m)
            continue
        else:
            col = int(np.searchsorted(nb, m))
            idx = np.arange(1, 1 << n, dtype=np.int64)
            idx = idx[(idx >> col) & 1 == 1]
            A = ((idx[:, None] >> np.arange(n)[None, :]) & 1).astype(np.float32)
            C = _masked_mean32(A, X32[nb])
        inside = _dist32(C, X32) < r
        keep = inside.any(axis=1)
        points.append(C[keep])
        actives.append(inside[keep])
    if not points or sum(p.shape[0] for p in points) == 0:
        return (), np.zeros(0, dtype=np.float32), tuple(skipped)
    P = np.round(np.concatenate(points), ROUND_DECIMALS).astype(np.float32)
    uniq, first = np.unique(P, axis=0, return_index=True)
    g, _ = _public_energy_grad(uniq, X32, beta)
    norm = _grad_norm32(g)
    ok = np.flatnonzero(norm < _tol32(grad_tol))
    # Each reported point keeps the label (active set) of its first occurrence.
    rows = np.concatenate(actives)[first[ok]]
    labels = tuple(tuple(int(i) for i in np.flatnonzero(row)) for row in rows)
    return labels, norm[ok], tuple(skipped)


def _as_fractions(Xi: np.ndarray) -> list[list[Fraction]]:
    """The exact binary values of a float64 array, row by row."""
    return [[Fraction(v) for v in row] for row in Xi.tolist()]


def _exact_verdict(F: list[list[Fraction]], K: tuple[int, ...], beta: float) -> ExactVerdict:
    """Self-consistency of 𝒦 in rational arithmetic: strict inside/outside against t = 2/β."""
    t = Fraction(2) / Fraction(beta)
    k = len(K)
    d = len(F[0])
    c = [sum((F[mu][j] for mu in K), Fraction(0)) / k for j in range(d)]
    members = set(K)
    inside: list[Fraction] = []
    outside: list[Fraction] = []
    for nu, row in enumerate(F):
        d2 = sum(((c[j] - row[j]) ** 2 for j in range(d)), Fraction(0))
        if nu in members:
            inside.append(t - d2)
        else:
            outside.append(d2 - t)
    member_slack = min(inside)
    nonmember_slack = min(outside) if outside else None
    slacks = [member_slack] + ([] if nonmember_slack is None else [nonmember_slack])
    if min(slacks) < 0:
        verdict = "not a minimum"
    elif min(slacks) == 0:
        verdict = "tie"
    else:
        verdict = "minimum"
    return ExactVerdict(K, beta, verdict, member_slack, nonmember_slack)


def _compare(X: np.ndarray, beta: float) -> CountingComparison:
    """Run the three methods on float32-valued patterns X (float64 array) and settle."""
    exact = tuple(lsr_minima(X, beta))
    X32 = X.astype(np.float32)
    masks, bnorms = _public_bruteforce(X32, beta, BRUTE_GRAD_TOL)
    M = X.shape[0]
    bsets = tuple(tuple(i for i in range(M) if (k >> i) & 1) for k in masks)
    brute = PublicMinima(_BRUTE_NAME, beta, bsets, bnorms)
    nsets, nnorms, skipped = _public_neighbourhood(X32, beta, NEIGHBOURHOOD_GRAD_TOL)
    nbhd = PublicMinima(_NEIGHBOURHOOD_NAME, beta, nsets, nnorms, skipped)
    ex = set(exact)
    b_add = tuple(sorted(set(bsets) - ex))
    b_miss = tuple(sorted(ex - set(bsets)))
    n_add = tuple(sorted(set(nsets) - ex))
    n_miss = tuple(sorted(ex - set(nsets)))
    skip = set(skipped)
    n_miss_skip = tuple(K for K in n_miss if skip.issuperset(K))
    disputed = sorted(set(b_add) | set(b_miss) | set(n_add) | set(n_miss))
    verdicts: tuple[ExactVerdict, ...] = ()
    if disputed:
        F = _as_fractions(X)
        verdicts = tuple(_exact_verdict(F, K, beta) for K in disputed)
    return CountingComparison(
        memories=X,
        beta=beta,
        exact=exact,
        brute=brute,
        neighbourhood=nbhd,
        brute_added=b_add,
        brute_missed=b_miss,
        neighbourhood_added=n_add,
        neighbourhood_missed=n_miss,
        neighbourhood_missed_skipped=n_miss_skip,
        verdicts=verdicts,
    )
