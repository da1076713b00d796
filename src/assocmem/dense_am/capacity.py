"""Exponential capacity of the LSR energy: Monte-Carlo checks of Theorem 2.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*, Theorem 2(a), its proof in App. D.3, eqs. (10) and (11). Chapter note §2.6.

Notation map
------------
- Ξ (uniform in the unit cube)     -> ``memories``, shape ``(M, d)``
- β                                -> ``beta``; R = sqrt(2/β) the support radius
- r = min_{μ≠ν} ||ξ_μ - ξ_ν||     -> ``min_pairwise_distance`` / ``r_min_samples``
- V_d = π^(d/2) / Γ(d/2 + 1)       -> ``ball_volume(d)``
- V = vol(X)                       -> ``V`` (1 for the unit cube)
- α (capacity exponent, Thm 2(a))  -> ``alpha``. The paper also uses α for the GD step size;
  here it is only the capacity exponent.
- δ (success probability, Thm 2(a)) -> ``bound_delta``. The paper's δ also names a gradient
  tolerance and a shell width elsewhere; here it is only the success probability.
- λ = |B(x)|, the active-set size   -> ``active_set_size_samples``

Theorem 2(a): with probability at least δ = 1 - M² e^(-2αd), r >= (V_d/V)^(-1/d) e^(-2α), so
M = sqrt(1 - δ) e^(αd) memories are all retrievable (Thm 1): capacity exponential in d. The proof
rests on the union bound (10), Pr[r < ε] <= M² V_d ε^d / V. The count bound of Thm 2 rests on the
concentration (11) of |B(x)| around M V_d (2/β)^(d/2).

Public functions
----------------
``ball_volume``, ``min_pairwise_distance``, ``min_distance_samples``, ``collision_bound``,
``alpha_form``, ``success_probability``, ``active_set_size_samples``, ``eq11_band``,
``count_bound_log``, ``capacity_experiment``, ``capacity_curve``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.spatial.distance import pdist
from scipy.special import gammaln

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    as_memories,
    as_real_array,
    as_rng,
    check_beta,
    check_int_sequence,
    check_max_abs,
    check_nonneg_float,
    check_positive_int,
    check_size,
)
from assocmem.backend import to_numpy
from assocmem.dense_am.energy import support_radius

__all__ = [
    "AlphaForm",
    "CapacityCurve",
    "CapacityMC",
    "Eq11Band",
    "active_set_size_samples",
    "alpha_form",
    "ball_volume",
    "capacity_curve",
    "capacity_experiment",
    "collision_bound",
    "count_bound_log",
    "eq11_band",
    "min_distance_samples",
    "min_pairwise_distance",
    "success_probability",
]

# Elements per chunk of the (trials, M, M) Gram tensor or the (queries, M, d) sample tensor.
_CHUNK_ELEMENTS = 1 << 22


@dataclass(frozen=True)
class AlphaForm:
    """The α-form of Theorem 2(a).

    Attributes
    ----------
    alpha : float
        Capacity exponent α > 0.
    d, M : int
        Dimension and number of memories.
    radius : float
        Guaranteed minimum distance (V_d/V)^(-1/d) e^(-2α).
    bound_delta : float
        The paper's success probability δ = 1 - M² e^(-2αd). It is negative (the guarantee is
        vacuous) once M > e^(αd).
    capacity : float
        M = sqrt(1 - δ) e^(αd) solved back from δ (equals the input M when δ is a probability).
    """

    alpha: float
    d: int
    M: int
    radius: float
    bound_delta: float
    capacity: float


@dataclass(frozen=True)
class Eq11Band:
    """Prediction and band of paper eq. (11) for the active-set size |B(x)|.

    Attributes
    ----------
    prediction : float
        λ = M V_d (2/β)^(d/2) (unit cube, ball inside the cube).
    lower, upper : float
        λ ∓ 5 sqrt(λ log M).
    """

    prediction: float
    lower: float
    upper: float


@dataclass(frozen=True)
class CapacityMC:
    """Monte-Carlo view of Theorem 2(a) at one (d, M, α) (note §5.1, exploration 10).

    Attributes
    ----------
    d, M : int
        Dimension and number of memories (uniform in the unit cube).
    alpha : float
        Capacity exponent.
    r_min_samples : numpy.ndarray, shape (n_trials,)
        Minimum pairwise distance of each trial.
    radius : float
        The bound (V_d)^(-1/d) e^(-2α) on r.
    bound_delta : float
        Paper success probability 1 - M² e^(-2αd) (can be negative: vacuous).
    empirical_success : float
        Fraction of trials with r >= radius.
    """

    d: int
    M: int
    alpha: float
    r_min_samples: np.ndarray
    radius: float
    bound_delta: float
    empirical_success: float


@dataclass(frozen=True)
class CapacityCurve:
    """Success probability of Theorem 2(a) against M (note §5.1, exploration 10).

    Attributes
    ----------
    d : int
        Dimension.
    alpha : float
        Capacity exponent.
    M : numpy.ndarray, shape (K,)
        Numbers of memories.
    empirical_success : numpy.ndarray, shape (K,)
        Monte-Carlo Pr[r >= radius] at each M.
    bound_delta : numpy.ndarray, shape (K,)
        Paper bound 1 - M² e^(-2αd) at each M.
    radius : float
        (V_d)^(-1/d) e^(-2α).
    n_trials : int
        Trials per M.
    """

    d: int
    alpha: float
    M: np.ndarray
    empirical_success: np.ndarray
    bound_delta: np.ndarray
    radius: float
    n_trials: int


def ball_volume(d: int) -> float:
    """Volume V_d = π^(d/2) / Γ(d/2 + 1) of the unit ball in R^d (paper Thm 2, eq. (10)).

    Computed as exp((d/2) log π - gammaln(d/2 + 1)) so it stays accurate for large d.

    Parameters
    ----------
    d : int
        Dimension, >= 1.

    Returns
    -------
    float
        V_d.

    Examples
    --------
    >>> round(ball_volume(2), 12)  # pi
    3.14159265359
    """
    d = check_positive_int(d, "d")
    return math.exp(_log_ball_volume(d))


def min_pairwise_distance(memories: Any) -> float:
    """Minimum pairwise distance r = min_{μ≠ν} ||ξ_μ - ξ_ν|| (paper Thm 1, Thm 2(a)).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns, M >= 2, entries of magnitude <= 1e100 (``MAX_ABS_ENTRY``).

    Returns
    -------
    float
        r.

    Examples
    --------
    >>> min_pairwise_distance([[0.0, 0.0], [3.0, 4.0], [10.0, 0.0]])
    5.0
    """
    xi = check_max_abs(to_numpy(as_memories(memories)), "memories")
    if xi.shape[0] < 2:
        raise ValueError(f"memories must hold at least 2 patterns, got shape {xi.shape}")
    return float(np.min(pdist(xi)))


def min_distance_samples(d: int, M: int, n_trials: int, rng: Any) -> np.ndarray:
    """Monte-Carlo samples of r for M memories uniform in the unit cube [0, 1]^d (paper eq. (10)).

    Each trial draws a fresh Ξ and records its minimum pairwise distance; trials are batched
    (one Gram tensor per chunk), so the cost is about n_trials M² d flops.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    M : int
        Memories per trial, >= 2; one trial's Gram matrix, M·max(M, d) elements, must stay
        within ``MAX_ELEMENTS``.
    n_trials : int
        Number of trials, 1 <= n_trials <= ``MAX_STEPS``.
    rng : int or numpy.random.Generator
        Randomness.

    Returns
    -------
    numpy.ndarray, shape (n_trials,)
        r of each trial.

    Raises
    ------
    ValueError
        For a size out of range, or a derived size above the caps.

    Examples
    --------
    >>> r = min_distance_samples(2, 2, 1000, rng=0)
    >>> bool(0.0 < r.min() and r.max() < 2**0.5)
    True
    """
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M", minimum=2)
    n_trials = check_positive_int(n_trials, "n_trials")
    gen = as_rng(rng)
    _check_trial_sizes(d, M, n_trials, "M")
    return _min_distance_samples(d, M, n_trials, gen)


def collision_bound(eps: Any, d: int, M: int, V: float = 1.0) -> Any:
    """Union bound of paper eq. (10): Pr[r < ε] <= M² V_d ε^d / V.

    Notes
    -----
    The paper's App. D.3 integral omits the 1/V of the outer density; with V = 1 the result is
    unchanged (note §2.6 [fix]). Summing over ordered pairs (M²) is loose by 2 against C(M, 2).
    The value is returned as is, so it may exceed 1 (then the bound is vacuous).

    Parameters
    ----------
    eps : float or array_like
        Distance threshold(s) ε >= 0, finite: a number or a non-empty 1-D array.
    d : int
        Dimension, >= 1.
    M : int
        Number of memories, >= 1.
    V : float
        Domain volume, > 0 (1 for the unit cube).

    Returns
    -------
    float or numpy.ndarray
        The bound at each ε, computed in log space: +inf where it exceeds the float range
        (the bound is then vacuous anyway).

    Examples
    --------
    >>> round(collision_bound(0.01, d=2, M=10), 10)  # 100 * pi * 1e-4
    0.0314159265
    """
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M")
    V = check_beta(V, "V")
    if np.ndim(eps) == 0 and not isinstance(eps, np.ndarray):
        e = np.array(check_nonneg_float(eps, "eps"))
    else:
        e = as_real_array(eps, "eps", ndim=(0, 1), xp=np)
        if bool(np.any(e < 0)):
            raise ValueError(f"eps must hold numbers >= 0, got {float(e[e < 0].flat[0])!r}")
    # log space: M² V_d ε^d / V overflows (and V_d underflows) long before its logarithm does
    log_const = 2.0 * math.log(M) + _log_ball_volume(d) - math.log(V)
    with np.errstate(divide="ignore", over="ignore"):
        out = np.exp(log_const + d * np.log(e))
    return float(out) if out.ndim == 0 else out


def alpha_form(alpha: float, d: int, M: int, V: float = 1.0) -> AlphaForm:
    """Radius and success probability of Theorem 2(a) for a capacity exponent α.

    Notes
    -----
    Setting ε = (V_d/V)^(-1/d) e^(-2α) in eq. (10) gives Pr[r < ε] <= M² e^(-2αd), so with
    probability at least δ = 1 - M² e^(-2αd) every pair is at least ε apart and all memories are
    retrievable at β = 2/(ε - Δ)² (Thm 1, with Δ < ε/2, note §2.6 [fix]). Solving for M gives
    M = sqrt(1 - δ) e^(αd), the exponential capacity. δ is negative (vacuous) for M > e^(αd).

    Parameters
    ----------
    alpha : float
        Capacity exponent, finite and > 0.
    d : int
        Dimension, >= 1.
    M : int
        Number of memories, >= 1.
    V : float
        Domain volume, > 0.

    Returns
    -------
    AlphaForm
        radius, bound_delta and capacity, computed in log space: radius and δ are finite
        values or exact limits for every valid input (δ = -inf where M² e^(-2αd) exceeds the
        float range), and capacity equals M exactly.

    Examples
    --------
    >>> a = alpha_form(0.5, d=8, M=10)
    >>> round(a.bound_delta, 4)  # 1 - 100 e^-8
    0.9665
    """
    alpha = check_beta(alpha, "alpha")
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M")
    V = check_beta(V, "V")
    # Log space throughout: V_d underflows for d ~ 1000 and e^(αd) overflows for αd > 709.
    radius = _exp_or_inf((math.log(V) - _log_ball_volume(d)) / d - 2.0 * alpha)
    # 1 - δ = M² e^(-2αd) exactly; δ = -expm1(log(1 - δ)) has no cancellation near δ = 1.
    log_one_minus_delta = 2.0 * math.log(M) - 2.0 * alpha * d
    delta = -_expm1_or_inf(log_one_minus_delta)
    # capacity = sqrt(1 - δ) e^(αd) = sqrt(M² e^(-2αd)) e^(αd) = M identically; evaluating the
    # formula from a rounded δ loses it (δ = 1 - 1e-16 rounds to 1 and gives 0).
    return AlphaForm(alpha, d, M, radius, delta, float(M))


def success_probability(alpha: float, d: int, M: int, n_trials: int, rng: Any) -> float:
    """Empirical Pr[r >= (V_d)^(-1/d) e^(-2α)] for M memories uniform in [0, 1]^d (Thm 2(a)).

    Theorem 2(a) guarantees this probability is at least 1 - M² e^(-2αd) (see
    :func:`alpha_form`); note §2.6 item 2 reports, for d = 8, 0.993 >= 0.966 (α = 0.5, M = 10).

    Parameters
    ----------
    alpha : float
        Capacity exponent, > 0.
    d : int
        Dimension, >= 1.
    M : int
        Number of memories, >= 2.
    n_trials : int
        Monte-Carlo trials, >= 1.
    rng : int or numpy.random.Generator
        Randomness.

    Returns
    -------
    float
        Fraction of trials whose minimum distance reaches the radius.

    Examples
    --------
    >>> success_probability(0.5, d=8, M=10, n_trials=200, rng=0) > 0.9
    True
    """
    form = alpha_form(alpha, d, check_positive_int(M, "M", minimum=2))
    r = min_distance_samples(d, M, n_trials, rng)
    return float(np.mean(r >= form.radius))


def active_set_size_samples(d: int, M: int, beta: float, n_queries: int, rng: Any) -> np.ndarray:
    """Monte-Carlo samples of |B(x)| for interior queries (paper eq. (11)).

    Eq. (11) is a fixed-x statement over random memories: for each query we draw a fresh Ξ of M
    points uniform in [0, 1]^d and a query x uniform in [R, 1 - R]^d (so the support ball of
    radius R = sqrt(2/β) lies inside the cube and boundary effects vanish, note §2.6 item 3), then
    count B(x) = {μ : ||x - ξ_μ||² < 2/β} (strict, difference form, note §0). Then |B(x)| is
    exactly Binomial(M, V_d R^d).

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    M : int
        Number of memories, >= 2.
    beta : float
        Inverse temperature; must be > 8 so that R < 1/2 and interior queries exist.
    n_queries : int
        Number of (query, memory set) draws, 1 <= n_queries <= ``MAX_STEPS``.
    rng : int or numpy.random.Generator
        Randomness.

    Returns
    -------
    numpy.ndarray of int64, shape (n_queries,)
        |B(x)| per draw.

    Raises
    ------
    ValueError
        For a value out of range, or M·d above ``MAX_ELEMENTS``.

    Examples
    --------
    >>> s = active_set_size_samples(2, 1000, beta=200.0, n_queries=200, rng=0)
    >>> bool(20 < s.mean() < 40)  # lambda = 1000 * pi * 0.01 = 31.4
    True
    """
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M", minimum=2)
    beta = check_beta(beta)
    if beta <= 8.0:
        raise ValueError(
            f"beta must be > 8 so the support ball (radius sqrt(2/beta)) fits inside the unit cube,"
            f" got {beta!r}"
        )
    n_queries = check_positive_int(n_queries, "n_queries")
    gen = as_rng(rng)
    check_size(M * d, "M", "elements per query (M·d)", MAX_ELEMENTS, "use fewer memories")
    check_size(n_queries, "n_queries", "queries", MAX_STEPS, "use fewer queries")
    return _active_set_sizes(d, M, beta, n_queries, gen)


def eq11_band(d: int, M: int, beta: float) -> Eq11Band:
    """Prediction and concentration band of paper eq. (11) for |B(x)| (unit cube, V = 1).

    Notes
    -----
    λ = M V_d (2/β)^(d/2), and with probability at least 1 - 1/M (the proof's value; the
    statement says 1 - M^-2, note §2.6) |B(x)| lies in λ ± 5 sqrt(λ log M) (paper eq. (11)).

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    M : int
        Number of memories, >= 1.
    beta : float
        Inverse temperature, > 0.

    Returns
    -------
    Eq11Band
        prediction, lower, upper (λ from log λ: +inf for all three where λ overflows).

    Examples
    --------
    >>> b = eq11_band(2, 1000, 200.0)
    >>> round(b.prediction, 4)  # 1000 * pi * 0.01
    31.4159
    """
    d = check_positive_int(d, "d")
    M = check_positive_int(M, "M")
    beta = check_beta(beta)
    lam = _exp_or_inf(_log_lambda(M, d, beta, 1.0))
    if math.isinf(lam):  # λ ∓ 5 sqrt(λ log M) = λ (1 ∓ 5 sqrt(log M / λ)) -> +inf
        return Eq11Band(lam, lam, lam)
    half = 5.0 * math.sqrt(lam) * math.sqrt(math.log(M))
    return Eq11Band(lam, lam - half, lam + half)


def count_bound_log(M: int, d: int, beta: float, V: float = 1.0) -> float:
    """Log of the Theorem-2 count bound on the number of minima, without its O(·) constant.

    Notes
    -----
    Paper eq. (5) / App. D.3: with λ = M (V_d/V) (2/β)^(d/2),
    log Q <= λ log(e M / λ) = M (V_d/V) (2/β)^(d/2) log((e V / V_d) (β/2)^(d/2)).
    It counts subsets of one size at one fixed x, ignores the cube boundary and hides constants
    (note §2.6, P14), so use it only as a sanity inequality. It is meaningful for 1 <= λ <= M.

    Parameters
    ----------
    M : int
        Number of memories, >= 1.
    d : int
        Dimension, >= 1.
    beta : float
        Inverse temperature, > 0.
    V : float
        Domain volume, > 0.

    Returns
    -------
    float
        λ log(e M / λ), computed from log λ: 0 (the limit) where λ underflows, -inf where λ
        overflows.

    Examples
    --------
    >>> round(count_bound_log(18, 8, 3.8), 1)  # note §2.6: lambda ~ 5.6, bound e^12.1
    12.1
    """
    M = check_positive_int(M, "M")
    d = check_positive_int(d, "d")
    beta = check_beta(beta)
    V = check_beta(V, "V")
    # λ log(eM/λ) = λ (1 + log M - log λ), with log λ computed directly: λ may under- or
    # overflow (β = 1e100 gives λ = 0 and the limit 0; a tiny β gives -inf).
    log_lam = _log_lambda(M, d, beta, V)
    lam = _exp_or_inf(log_lam)
    return lam * (1.0 + math.log(M) - log_lam) if lam > 0.0 else 0.0


def capacity_experiment(d: int, M: int, alpha: float, n_trials: int, rng: Any) -> CapacityMC:
    """Histogram data for the capacity widget: r samples against the Theorem-2(a) radius.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    M : int
        Memories per trial, >= 2.
    alpha : float
        Capacity exponent, > 0.
    n_trials : int
        Trials, >= 1.
    rng : int or numpy.random.Generator
        Randomness.

    Returns
    -------
    CapacityMC
        Samples of r, the radius (V_d)^(-1/d) e^(-2α), the paper's δ and the empirical success.

    Examples
    --------
    >>> res = capacity_experiment(8, 10, 0.5, 200, rng=0)
    >>> res.empirical_success >= res.bound_delta - 0.05
    True
    """
    form = alpha_form(alpha, d, check_positive_int(M, "M", minimum=2))
    r = min_distance_samples(d, M, n_trials, rng)
    return CapacityMC(
        d=form.d,
        M=form.M,
        alpha=form.alpha,
        r_min_samples=r,
        radius=form.radius,
        bound_delta=form.bound_delta,
        empirical_success=float(np.mean(r >= form.radius)),
    )


def capacity_curve(
    d: int, Ms: Sequence[int], alpha: float, n_trials: int, rng: Any
) -> CapacityCurve:
    """Empirical success probability against M, with the bound 1 - M² e^(-2αd) (Thm 2(a)).

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    Ms : sequence of int
        Numbers of memories, each >= 2.
    alpha : float
        Capacity exponent, > 0.
    n_trials : int
        Trials per M, >= 1.
    rng : int or numpy.random.Generator
        Randomness (one generator shared across the M values).

    Returns
    -------
    CapacityCurve
        Success and bound per M.

    Examples
    --------
    >>> c = capacity_curve(8, [5, 50], 0.5, 100, rng=0)
    >>> bool(c.empirical_success[0] >= c.empirical_success[1])
    True
    """
    ms = check_int_sequence(Ms, "Ms", minimum=2)
    d = check_positive_int(d, "d")
    alpha = check_beta(alpha, "alpha")
    n_trials = check_positive_int(n_trials, "n_trials")
    gen = as_rng(rng)
    for m in ms:
        _check_trial_sizes(d, m, n_trials, "Ms")
    results = [capacity_experiment(d, m, alpha, n_trials, gen) for m in ms]
    return CapacityCurve(
        d=results[0].d,
        alpha=results[0].alpha,
        M=np.array(ms),
        empirical_success=np.array([r.empirical_success for r in results]),
        bound_delta=np.array([r.bound_delta for r in results]),
        radius=results[0].radius,
        n_trials=n_trials,
    )


# --------------------------------------------------------------------------------------------
# private kernels


def _log_ball_volume(d: int) -> float:
    """log V_d = (d/2) log π - log Γ(d/2 + 1) (paper eq. (10)); finite for every d."""
    return 0.5 * d * math.log(math.pi) - float(gammaln(0.5 * d + 1.0))


def _log_lambda(M: int, d: int, beta: float, V: float) -> float:
    """log λ = log M + log(V_d / V) + (d/2) log(2/β), the expected |B(x)| of eq. (11)."""
    return math.log(M) + _log_ball_volume(d) - math.log(V) + 0.5 * d * math.log(2.0 / beta)


def _exp_or_inf(x: float) -> float:
    """e^x, +inf where it exceeds the float range (``math.exp`` raises OverflowError there)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _expm1_or_inf(x: float) -> float:
    """e^x - 1 without cancellation for small x, +inf where it exceeds the float range."""
    try:
        return math.expm1(x)
    except OverflowError:
        return math.inf


def _check_trial_sizes(d: int, M: int, n_trials: int, name: str) -> None:
    """Caps of the eq.-(10) Monte-Carlo: one trial's Gram matrix (``name`` sets M) and trials."""
    check_size(
        M * max(M, d),
        name,
        "Gram-matrix elements per trial (M·max(M, d))",
        MAX_ELEMENTS,
        "use fewer memories",
    )
    check_size(n_trials, "n_trials", "trials", MAX_STEPS, "use fewer trials")


def _min_distance_samples(d: int, M: int, n_trials: int, gen: np.random.Generator) -> np.ndarray:
    """r per trial, via batched Gram matrices (eq. (10) Monte-Carlo); not tie-sensitive."""
    chunk = max(1, _CHUNK_ELEMENTS // (M * max(M, d)))
    out = np.empty(n_trials)
    diag = np.arange(M)
    for start in range(0, n_trials, chunk):
        stop = min(n_trials, start + chunk)
        x = gen.random((stop - start, M, d))
        sq = np.einsum("tmk,tmk->tm", x, x)
        d2 = sq[:, :, None] + sq[:, None, :] - 2.0 * (x @ x.transpose(0, 2, 1))
        d2[:, diag, diag] = np.inf
        out[start:stop] = np.sqrt(np.maximum(d2.min(axis=(1, 2)), 0.0))
    return out


def _active_set_sizes(
    d: int, M: int, beta: float, n_queries: int, gen: np.random.Generator
) -> np.ndarray:
    """|B(x)| with a fresh Ξ per interior query (eq. (11)); strict set, difference form."""
    radius = support_radius(beta)
    chunk = max(1, _CHUNK_ELEMENTS // (M * d))
    out = np.empty(n_queries, dtype=np.int64)
    for start in range(0, n_queries, chunk):
        stop = min(n_queries, start + chunk)
        n = stop - start
        xi = gen.random((n, M, d))
        x = radius + (1.0 - 2.0 * radius) * gen.random((n, 1, d))
        d2 = np.sum((xi - x) ** 2, axis=2)
        out[start:stop] = np.sum(d2 < 2.0 / beta, axis=1)
    return out
