"""Kicked recall, basins of attraction and noisy fluctuations around stored patterns.

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks*. "note §" refers to ``shared/notes/03-attractor-stability.md`` (§1.3, §3.3
"Dynamics", §4.4, pitfalls 3, 11, 12). **Everything here is an extension** (note §4.4): the
paper studies only *linear* stability (the sign of the spectral abscissa of J_μ, Eq. 5); it
never simulates the dynamics. These functions check the linear prediction by integrating Eq. 2
with :func:`assocmem.attractor.simulate`.

Notation map
------------
=============================  ======================  ========================================
symbol                         code                    meaning
=============================  ======================  ========================================
r^μ                            ``net.R[:, mu]``        stored pattern (a fixed point of Eq. 2)
ε                              ``eps``                 kick size, ‖r(0) − r^μ‖ ≈ ε ‖r^μ‖
d(t) = ‖r(t) − r^μ‖/‖r^μ‖      ``distance``            relative distance to the pattern
λ* = max Re λ(J_μ)             ``abscissa``            spectral abscissa (units 1/τ, τ = 1)
η                              ``eta``                 additive noise amplitude (Euler–Maruyama)
C                              ``lyapunov_covariance`` stationary covariance, J C + C Jᵀ + η² I = 0
=============================  ======================  ========================================

Kick directions (note §4.4): ``"random"`` r^μ + ε‖r^μ‖ ξ/‖ξ‖ with ξ Gaussian; ``"pattern"``
(1 + ε) r^μ, the scale-up along the pattern that excites the λ_mem mode (Eq. 15);
``"other"`` (1 − ε) r^μ + ε r^ν, towards another stored pattern ν.

Public functions
----------------
kick_states, kick_experiment, decay_rate, basin_curve, lyapunov_covariance,
stationary_covariance.
Result types: KickRun, DecayFit, BasinCurve, Fluctuations.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import scipy.linalg

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    as_real_array,
    as_real_vector,
    as_rng,
    check_beta,
    check_finite_float,
    check_fraction,
    check_instance,
    check_nonneg_float,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.attractor._domain import (
    EPS_MAX,
    check_cv,
    check_exponent,
    check_matrix_size,
    check_sigma,
)
from assocmem.attractor.network import (
    Network,
    Trajectory,
    _check_steps,
    jacobian,
    jacobian_spectrum,
    pinv_weights,
    simulate,
)
from assocmem.attractor.rates import sample_patterns
from assocmem.backend import to_numpy

__all__ = [
    "BasinCurve",
    "DecayFit",
    "Fluctuations",
    "KickRun",
    "basin_curve",
    "decay_rate",
    "kick_experiment",
    "kick_states",
    "lyapunov_covariance",
    "stationary_covariance",
]

DIRECTIONS = ("random", "pattern", "other")


@dataclass(frozen=True, eq=False)
class KickRun:
    """A batch of kicked runs from one stored pattern (result of :func:`kick_experiment`).

    Attributes
    ----------
    times : ndarray, shape (k,)
        Recorded times (units of τ).
    distance : ndarray, shape (k, B)
        Relative distance ‖r(t) − r^μ‖/‖r^μ‖ of each kicked run.
    eps : ndarray, shape (B,)
        Kick size of each column.
    direction : tuple of str, length B
        Kick direction of each column.
    corr : ndarray, shape (B,)
        Pearson correlation of the last finite state of each run with r^μ.
    blew_up : bool
        Some run became non-finite or exceeded ``max_rate``.
    t_final : float
        Time of the last recorded step.
    blown : ndarray of bool, shape (B,)
        Which runs blew up; their distance is NaN after ``t_stop``.
    t_stop : ndarray, shape (B,)
        Time of each run's last finite state (``t_final`` unless it blew up).
    abscissa : float
        Spectral abscissa of J_μ (Eq. 5).
    lambda_mem : complex
        Empirical λ_mem (note pitfall 7); trust it when ``mem_corr`` > 0.8.
    mem_corr : float
        |corr| of the λ_mem eigenvector with r^μ.
    mu : int
        Pattern index.
    n, alpha : float
        Exponent of Eq. 3 and load of the network (for labels).
    """

    times: np.ndarray
    distance: np.ndarray
    eps: np.ndarray
    direction: tuple[str, ...]
    corr: np.ndarray
    blew_up: bool
    t_final: float
    blown: np.ndarray
    t_stop: np.ndarray
    abscissa: float
    lambda_mem: complex
    mem_corr: float
    mu: int
    n: float
    alpha: float


@dataclass(frozen=True, eq=False)
class DecayFit:
    """Exponential rate of the distance to the pattern (result of :func:`decay_rate`).

    Attributes
    ----------
    rate : ndarray, shape (B,)
        Least-squares slope of log d(t) over the window (< 0: decay, > 0: growth); NaN where
        fewer than 3 points lie above ``floor``.
    intercept : ndarray, shape (B,)
        log d at t = 0 of the fitted line.
    t_lo, t_hi : float
        Fit window.
    """

    rate: np.ndarray
    intercept: np.ndarray
    t_lo: float
    t_hi: float


@dataclass(frozen=True, eq=False)
class BasinCurve:
    """Fraction of kicks that return to the pattern vs kick size (result of :func:`basin_curve`).

    Attributes
    ----------
    eps : ndarray, shape (m,)
        Kick sizes.
    recovered : ndarray, shape (m,)
        Fraction of kicks with d(T) <= ``shrink`` · d(0) (and no blow-up).
    final_distance : ndarray, shape (m, kicks)
        d(T) of every kick (inf for a kick that blew up).
    rate : ndarray, shape (m,)
        Median local exponential rate of d(t) over the second half of the run (pitfall 12),
        over the kicks that did not blow up; NaN when none has a rate.
    radius : float
        Basin radius: the largest ε of the grid such that it and every smaller ε have >= 50 %
        recovered; 0 when already the smallest ε fails (an empty basin at this resolution).
    abscissa : float
        Spectral abscissa of J_μ.
    alpha, N, T, shrink : float, int, float, float
        Load, neurons, duration and recovery criterion.
    direction : str
        Kick direction.
    """

    eps: np.ndarray
    recovered: np.ndarray
    final_distance: np.ndarray
    rate: np.ndarray
    radius: float
    abscissa: float
    alpha: float
    N: int
    T: float
    shrink: float
    direction: str


@dataclass(frozen=True, eq=False)
class Fluctuations:
    """Noisy dynamics around a stable pattern (result of :func:`stationary_covariance`).

    Attributes
    ----------
    C_emp : ndarray, shape (N, N)
        Empirical covariance of r(t) − r^μ over walkers and times after the burn-in.
    C_lyap : ndarray, shape (N, N)
        Lyapunov solution for the Euler–Maruyama step actually simulated (``dt`` given).
    C_cont : ndarray, shape (N, N)
        Continuous-time Lyapunov solution, J C + C Jᵀ + η² I = 0.
    eta, dt : float
        Noise amplitude and time step.
    abscissa : float
        Spectral abscissa λ* of J_μ (< 0).
    slow_var_emp, slow_var_pred : float
        Variance along the slowest left eigenvector u (uᴴ J = λ* uᴴ, ‖u‖ = 1): empirical and
        η²/(2|λ*|) (exact for the linearised continuous dynamics).
    samples : int
        Number of (correlated) samples.
    alpha, N : float, int
        Load and neurons.
    """

    C_emp: np.ndarray
    C_lyap: np.ndarray
    C_cont: np.ndarray
    eta: float
    dt: float
    abscissa: float
    slow_var_emp: float
    slow_var_pred: float
    samples: int
    alpha: float
    N: int

    @property
    def total_var_emp(self) -> float:
        """tr C_emp."""
        return float(np.trace(self.C_emp))

    @property
    def total_var_pred(self) -> float:
        """tr C_lyap (Euler–Maruyama step)."""
        return float(np.trace(self.C_lyap))


# --------------------------------------------------------------------------------------------
# Kicks
# --------------------------------------------------------------------------------------------


def _check_eps(eps: Any, name: str = "eps") -> np.ndarray:
    """Kick sizes: a non-empty 1-D array of values in (0, EPS_MAX]."""
    return as_real_vector(eps, name, 0.0, EPS_MAX, open_lo=True)


def _check_directions(direction: Any, m: int) -> list[str]:
    if isinstance(direction, str):
        items = [direction] * m
    elif isinstance(direction, list | tuple):
        items = list(direction)
    else:
        raise TypeError(
            f"direction must be one of {DIRECTIONS} or a list of them, got {direction!r}"
        )
    if len(items) != m:
        raise ValueError(
            f"direction must be one string or one per kick size ({m}), got {len(items)}"
        )
    return [check_option(d, "direction", DIRECTIONS) for d in items]


def kick_states(
    r: Any,
    eps: float | Sequence[float],
    direction: str | Sequence[str],
    rng: Any = 0,
    other: Any = None,
    count: int = 1,
) -> np.ndarray:
    """Initial states displaced from a stored pattern, one column per kick (note §4.4).

    Notes
    -----
    For kick size ε (an extension; the paper has no dynamics):

    * ``"random"``: r + ε ‖r‖ ξ/‖ξ‖, ξ ~ N(0, I), so the relative distance is exactly ε;
    * ``"pattern"``: (1 + ε) r, a scale-up along the pattern (the λ_mem direction, Eq. 13-15);
    * ``"other"``: (1 − ε) r + ε r^ν, towards another stored pattern; its relative distance is
      ε ‖r^ν − r‖/‖r‖ (≈ ε for log-normal patterns with CV = 1).

    Parameters
    ----------
    r : array_like, shape (N,)
        The pattern r^μ (finite).
    eps : float or sequence of float
        Kick sizes in (0, 1e3] (relative to ‖r‖).
    direction : str or sequence of str
        One of ``"random"``, ``"pattern"``, ``"other"``, or one per kick size.
    rng : int or numpy.random.Generator
        For the random directions.
    other : array_like, shape (N,) or (N, K), optional
        Target pattern(s) r^ν for ``"other"`` (finite; checked whenever given); the ``count``
        kicks cycle through the columns.
    count : int
        Kicks per kick size (>= 1).

    Returns
    -------
    ndarray, shape (N, len(eps) * count)
        Column ``i * count + j`` is the j-th kick of size ``eps[i]``.

    Examples
    --------
    >>> import numpy as np
    >>> X = kick_states(np.array([1.0, 2.0]), [0.1, 0.5], "pattern")
    >>> X.tolist()
    [[1.1, 1.5], [2.2, 3.0]]
    """
    r = as_real_array(r, "r", xp=np)
    if r.ndim != 1 or r.size < 2:
        raise ValueError(f"r must have shape (N,) with N >= 2, got shape {r.shape}")
    e = _check_eps(eps)
    dirs = _check_directions(direction, e.size)
    count = check_positive_int(count, "count")
    hint = "use fewer kick sizes or a smaller count"
    check_size(r.size * e.size * count, "count", "kicked-state entries", MAX_ELEMENTS, hint)
    gen = as_rng(rng)
    targets = None
    if other is not None:
        targets = as_real_array(other, "other", ndim=(1, 2), xp=np)
        targets = targets[:, None] if targets.ndim == 1 else targets
        if targets.shape[0] != r.size or targets.shape[1] < 1:
            raise ValueError(
                f"other must have shape ({r.size},) or ({r.size}, K), got shape {np.shape(other)}"
            )
    elif "other" in dirs:
        raise ValueError("other must be given (the pattern(s) r^nu) for direction 'other'")
    return _kick_states(r, e, dirs, gen, targets, count)


def _kick_states(
    r: np.ndarray,
    e: np.ndarray,
    dirs: list[str],
    gen: np.random.Generator,
    targets: np.ndarray | None,
    count: int,
) -> np.ndarray:
    """The kicked states of :func:`kick_states` on validated arguments (checked for overflow)."""
    cols = []
    with np.errstate(over="ignore", invalid="ignore"):
        top = float(np.max(np.abs(r)))
        norm = top * float(np.linalg.norm(r / top)) if top > 0 else 0.0  # no overflow in r·r
        for i, (eps_i, d) in enumerate(zip(e, dirs, strict=True)):
            for j in range(count):
                if d == "random":
                    xi = gen.standard_normal(r.size)
                    cols.append(r + eps_i * norm * xi / np.linalg.norm(xi))
                elif d == "pattern":
                    cols.append((1.0 + eps_i) * r)
                else:
                    nu = targets[:, (i * count + j) % targets.shape[1]]
                    cols.append((1.0 - eps_i) * r + eps_i * nu)
        X = np.column_stack(cols)
    if not bool(np.all(np.isfinite(X))):
        raise ValueError(
            f"r (max |r| = {top:.3g}) kicked by eps up to {float(e.max()):.3g} leaves the "
            "float64 range"
        )
    return X


def _corr_with(X: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Pearson correlation of each column of X with r (NaN columns give NaN)."""
    Xc = X - X.mean(axis=0, keepdims=True)
    rc = r - r.mean()
    den = np.linalg.norm(Xc, axis=0) * np.linalg.norm(rc)
    return (rc @ Xc) / np.where(den > 0, den, np.inf)


def kick_experiment(
    net: Network,
    mu: int,
    eps: float | Sequence[float],
    direction: str | Sequence[str],
    T: float,
    dt: float = 0.1,
    rng: Any = 0,
    *,
    count: int = 1,
    max_rate: float = 1e6,
) -> KickRun:
    """Kick the stored pattern r^μ and integrate Eq. 2 from all kicks at once (note §4.4).

    Notes
    -----
    The kicks of :func:`kick_states` are the columns of one batched
    :func:`~assocmem.attractor.simulate` call (one matrix product per Euler step). The run
    records the relative distance d(t) = ‖r(t) − r^μ‖/‖r^μ‖ and reports the spectral abscissa
    and empirical λ_mem of J_μ (Eq. 5) for comparison: linear stability predicts that small
    kicks return iff the abscissa is < 0, at the asymptotic rate |abscissa|. For ``"other"``
    the target is r^ν with ν = μ + 1, μ + 2, … (mod P), cycling over the kicks. A supralinear
    runaway (n > 1, λ_mem > 0, pitfall 12) stops that run at its ``t_stop``; the others go on.

    Parameters
    ----------
    net : Network
        From :func:`~assocmem.attractor.pinv_weights` or
        :func:`~assocmem.attractor.zero_diag_weights`.
    mu : int
        Pattern index in [0, P).
    eps, direction, count
        As in :func:`kick_states`.
    T : float
        Duration (> 0, units of τ); T/dt <= ``MAX_STEPS`` (1e7).
    dt : float
        Euler step in (0, 1]; use <= 0.1 (pitfall 12).
    rng : int or numpy.random.Generator
        For the random kick directions (checked even when no kick is random).
    max_rate : float
        Blow-up bound passed to :func:`~assocmem.attractor.simulate` (> 0, above every
        kicked state).

    Returns
    -------
    KickRun

    Examples
    --------
    A small kick at low load returns:

    >>> from assocmem import attractor as at
    >>> net = at.pinv_weights(at.sample_patterns(100, 5, 1.0, rng=0), 1.0, 1.0)
    >>> run = kick_experiment(net, 0, 0.01, "random", T=60.0)
    >>> bool(run.distance[-1, 0] < 1e-3 < run.distance[0, 0]), run.blew_up
    (True, False)
    """
    check_instance(net, "net", Network)
    mu = check_positive_int(mu, "mu", minimum=0, maximum=net.P - 1)
    e = _check_eps(eps)
    dirs = _check_directions(direction, e.size)
    count = check_positive_int(count, "count")
    T = check_beta(T, "T")
    dt = check_fraction(dt, "dt", 0.0, 1.0, open_hi=False)
    steps = _check_steps(T, dt, "T")
    hint = "shorten T, lengthen dt or use fewer kicks"
    check_size(steps * e.size * count, "T", "recorded distances", MAX_ELEMENTS, hint)
    gen = as_rng(rng)
    max_rate = check_beta(max_rate, "max_rate")
    return _kick_run(net, mu, e, dirs, count, T, dt, gen, max_rate)


def _kick_run(
    net: Network,
    mu: int,
    e: np.ndarray,
    dirs: list[str],
    count: int,
    T: float,
    dt: float,
    gen: np.random.Generator,
    max_rate: float,
) -> KickRun:
    """:func:`kick_experiment` on validated arguments."""
    R = to_numpy(net.R)
    r = R[:, mu]
    others = R[:, [(mu + k) % net.P for k in range(1, net.P)]] if net.P > 1 else None
    if "other" in dirs and others is None:
        raise ValueError("direction 'other' needs a network with P >= 2 patterns, got P = 1")
    X0 = _kick_states(r, e, dirs, gen, others, count)
    if float(np.max(np.abs(X0))) > max_rate:
        raise ValueError(
            f"max_rate={max_rate!r} is below the kicked states (max |r| = "
            f"{float(np.max(np.abs(X0))):.3g}); raise max_rate or use smaller eps"
        )
    run = simulate(net.W, X0, net.sigma, net.n, net.theta, dt, T, reference=r, max_rate=max_rate)
    spec = jacobian_spectrum(net, [mu], eigenvectors=True)
    return KickRun(
        times=run.times,
        distance=run.distance,
        eps=np.repeat(e, count),
        direction=tuple(d for d in dirs for _ in range(count)),
        corr=_corr_with(to_numpy(run.final), r),
        blew_up=run.blew_up,
        t_final=run.t_final,
        blown=run.blown,
        t_stop=run.t_stop,
        abscissa=float(spec.abscissa[0]),
        lambda_mem=complex(spec.lambda_mem[0]),
        mem_corr=float(spec.mem_corr[0]),
        mu=mu,
        n=net.n,
        alpha=net.alpha,
    )


def decay_rate(
    run: KickRun | Trajectory,
    t_min: float | None = None,
    t_max: float | None = None,
    floor: float = 1e-11,
) -> DecayFit:
    """Exponential rate of the distance d(t) to the pattern: slope of log d vs t (note §4.4).

    Notes
    -----
    Linear stability predicts d(t) ~ e^{λ* t} at late times, with λ* the spectral abscissa of
    J_μ (for a kick with a component along the slowest mode). The fit is ordinary least
    squares of log d(t) on t over [t_min, t_max], using only points with d > ``floor`` (below
    about 1e-12 the distance is round-off). Near α_S the abscissa is O(0.01), so the local rate
    is more informative than a final distance (pitfall 12).

    Parameters
    ----------
    run : KickRun or Trajectory
        A run with ``times`` (k,) and ``distance`` (k,) or (k, B), k >= 3.
    t_min, t_max : float, optional
        Fit window, 0 <= t_min < t_max (finite); default the second half of the recorded run.
    floor : float
        Smallest distance used, in (0, 1): the round-off floor of the relative distance.

    Returns
    -------
    DecayFit

    Examples
    --------
    >>> import numpy as np
    >>> from assocmem.attractor.network import Trajectory
    >>> t = np.linspace(0, 10, 101)
    >>> fit = decay_rate(Trajectory(t, 0.1 * np.exp(-0.5 * t), None, False, 10.0))
    >>> round(float(fit.rate[0]), 6)
    -0.5
    """
    check_instance(run, "run", (KickRun, Trajectory))
    times = np.asarray(run.times, dtype=float)
    dist = np.asarray(run.distance, dtype=float)
    dist = dist[:, None] if dist.ndim == 1 else dist
    if times.size < 3 or dist.shape[0] != times.size:
        raise ValueError(f"run must hold >= 3 recorded times, got {times.size}")
    floor = check_fraction(floor, "floor", 0.0, 1.0)
    t_end = float(times[-1])
    lo = t_end / 2 if t_min is None else check_nonneg_float(t_min, "t_min")
    hi = t_end if t_max is None else check_finite_float(t_max, "t_max")
    if not lo < hi:
        raise ValueError(f"t_min must be < t_max, got t_min={lo!r}, t_max={hi!r}")
    window = (times >= lo) & (times <= hi)
    rate = np.full(dist.shape[1], np.nan)
    icpt = np.full(dist.shape[1], np.nan)
    for b in range(dist.shape[1]):
        ok = window & np.isfinite(dist[:, b]) & (dist[:, b] > floor)
        if ok.sum() >= 3:
            rate[b], icpt[b] = np.polyfit(times[ok], np.log(dist[ok, b]), 1)
    return DecayFit(rate=rate, intercept=icpt, t_lo=lo, t_hi=hi)


# --------------------------------------------------------------------------------------------
# Basins of attraction
# --------------------------------------------------------------------------------------------


def basin_curve(
    *,
    N: int,
    alpha: float,
    cv: float = 1.0,
    sigma: float = 1.0,
    n: float = 1.0,
    eps_grid: Sequence[float] = (1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0),
    direction: str = "random",
    seed: int = 0,
    kicks: int = 3,
    T: float = 200.0,
    dt: float = 0.1,
    shrink: float = 0.01,
) -> BasinCurve:
    """Fraction of kicks that return to a stored pattern vs kick size (note §4.4, extension).

    Notes
    -----
    Patterns are log-normal (mean 1, ``cv``), stored with Eq. 8 (pinv) weights at θ*_bulk
    (Eq. 16, empirical). Pattern 0 is kicked ``kicks`` times per ε (see :func:`kick_states`)
    and all kicks run as one batch for time T. A kick counts as recovered when its distance
    shrank by the factor ``shrink``, d(T) <= shrink · d(0) (a relative criterion: an absolute
    one such as d(T) < 1e-3 calls a 1e-3 kick "recovered" before it has moved, and a slowly
    returning large kick "lost"), and nothing blew up. Linear stability (Eq. 5) says that small
    kicks recover iff the abscissa is < 0; the basin radius measures how far the nonlinear
    dynamics carries that. Choose
    T ≳ 5/|abscissa| (pitfall 12); near α_S the abscissa is O(0.01) and d(T) is undecided, so
    ``rate`` reports the local exponential rate of d(t) over the second half of the run.
    Results are cached per argument set (the same call serves the book figure and the widget).

    Parameters
    ----------
    N : int
        Neurons (>= 10).
    alpha : float
        Load in (0, 0.9]; P = round(α N) >= 2.
    cv, sigma, n : float
        Pattern CV in (0, 1e6] and activation parameters of Eq. 3 (σ in (0, 1e6], n in
        (0, 100]).
    eps_grid : sequence of float
        Strictly increasing kick sizes in (0, 1e3].
    direction : {"random", "pattern", "other"}
        Kick direction.
    seed : int
        Seed of patterns and kicks.
    kicks : int
        Kicks per ε (>= 1).
    T, dt : float
        Duration (> 0) and Euler step in (0, 1]; T/dt <= ``MAX_STEPS`` (1e7).
    shrink : float
        Recovery criterion d(T) <= shrink · d(0), in (0, 1).

    Returns
    -------
    BasinCurve

    Examples
    --------
    >>> c = basin_curve(N=100, alpha=0.05, eps_grid=(0.01, 0.1), kicks=2, T=100.0)
    >>> c.recovered.tolist(), c.radius
    ([1.0, 1.0], 0.1)
    """
    N = check_positive_int(N, "N", minimum=10)
    check_matrix_size(N, N, "N")
    alpha = check_fraction(alpha, "alpha", 0.0, 0.9, open_hi=False)
    if round(alpha * N) < 2:
        raise ValueError(f"alpha must give P = round(alpha N) >= 2, got alpha={alpha!r}, N={N}")
    cv, sigma, n = check_cv(cv), check_sigma(sigma, positive=True), check_exponent(n)
    grid = tuple(float(x) for x in _check_eps(eps_grid, "eps_grid"))
    if any(b <= a for a, b in itertools.pairwise(grid)):
        raise ValueError(f"eps_grid must be strictly increasing, got {list(grid)}")
    direction = check_option(direction, "direction", DIRECTIONS)
    seed = check_positive_int(seed, "seed", minimum=0)
    kicks = check_positive_int(kicks, "kicks")
    T = check_beta(T, "T")
    dt = check_fraction(dt, "dt", 0.0, 1.0, open_hi=False)
    steps = _check_steps(T, dt, "T")
    hint = "shorten T, lengthen dt or use fewer kicks"
    check_size(steps * len(grid) * kicks, "T", "recorded distances", MAX_ELEMENTS, hint)
    shrink = check_fraction(shrink, "shrink")
    return _basin_cached(N, alpha, cv, sigma, n, grid, direction, seed, kicks, T, dt, shrink)


@lru_cache(maxsize=64)
def _basin_cached(
    N: int,
    alpha: float,
    cv: float,
    sigma: float,
    n: float,
    grid: tuple[float, ...],
    direction: str,
    seed: int,
    kicks: int,
    T: float,
    dt: float,
    shrink: float,
) -> BasinCurve:
    """Kick pattern 0 of a fresh pinv network; recovery fraction per ε (note §4.4)."""
    gen = np.random.default_rng(seed)
    net = pinv_weights(sample_patterns(N, round(alpha * N), cv, rng=gen), sigma, n)
    dirs = [direction] * len(grid)
    run = _kick_run(net, 0, np.asarray(grid), dirs, kicks, T, dt, gen, 1e6)
    m = len(grid)
    blown = run.blown.reshape(m, kicks)
    final = np.where(blown, np.inf, run.distance[-1].reshape(m, kicks))
    recovered = (final <= shrink * run.distance[0].reshape(m, kicks)).mean(axis=1)
    rates = np.where(blown, np.nan, decay_rate(run).rate.reshape(m, kicks))
    rate = np.array([np.median(row[np.isfinite(row)]) if np.isfinite(row).any() else np.nan
                     for row in rates])  # fmt: skip
    fails = np.flatnonzero(recovered < 0.5)
    k = int(fails[0]) if fails.size else m
    for arr in (final, recovered, rate):
        arr.flags.writeable = False
    return BasinCurve(
        eps=np.asarray(grid),
        recovered=recovered,
        final_distance=final,
        rate=rate,
        radius=float(grid[k - 1]) if k > 0 else 0.0,
        abscissa=run.abscissa,
        alpha=alpha,
        N=N,
        T=T,
        shrink=shrink,
        direction=direction,
    )


# --------------------------------------------------------------------------------------------
# Noise: Lyapunov covariance
# --------------------------------------------------------------------------------------------


def lyapunov_covariance(J: Any, eta: float, dt: float | None = None) -> np.ndarray:
    """Stationary covariance of linearised noisy dynamics (note §1.3, extension).

    Notes
    -----
    For dx = J x dt + η dB (x = r − r^μ, linearised Eq. 2 with additive noise) and a stable J
    (abscissa < 0), the stationary covariance solves the Lyapunov equation

        J C + C Jᵀ + η² I = 0    (``scipy.linalg.solve_continuous_lyapunov``).

    With ``dt`` the equation is that of the Euler–Maruyama map x ← A x + η√dt ξ, A = I + dt J,
    which is what :func:`~assocmem.attractor.simulate` integrates: C = A C Aᵀ + η² dt I
    (``solve_discrete_lyapunov``); it differs from the continuous solution by O(dt) (about 5 %
    for the modes at −1 when dt = 0.1).

    Parameters
    ----------
    J : array_like, shape (N, N)
        Jacobian, finite, with spectral abscissa < 0 (and, with ``dt``, |1 + dt λ| < 1).
    eta : float
        Noise amplitude η >= 0.
    dt : float, optional
        Euler step in (0, 1].

    Returns
    -------
    ndarray, shape (N, N)
        Symmetric positive semi-definite C.

    Raises
    ------
    ValueError
        If J is not square or not stable (no stationary state), or if η² times the unit-noise
        covariance overflows float64.

    Examples
    --------
    One mode at −λ has variance η²/(2λ):

    >>> lyapunov_covariance([[-0.5]], 1.0).tolist()
    [[1.0]]
    """
    J = as_real_array(J, "J", xp=np)
    if J.ndim != 2 or J.shape[0] != J.shape[1] or J.shape[0] < 1:
        raise ValueError(f"J must be a square (N, N) matrix, got shape {J.shape}")
    eta = check_nonneg_float(eta, "eta")
    if dt is not None:
        dt = check_fraction(dt, "dt", 0.0, 1.0, open_hi=False)
    return _lyapunov(J, eta, dt)


def _lyapunov(J: np.ndarray, eta: float, dt: float | None) -> np.ndarray:
    """:func:`lyapunov_covariance` on validated arguments: C = η² C₁ with C₁ the η = 1 solution."""
    with np.errstate(over="ignore", invalid="ignore"):
        ev = np.linalg.eigvals(J)
    if not bool(np.all(np.isfinite(ev))):
        raise ValueError("J has entries too large for its eigenvalues in float64")
    if ev.real.max() >= 0:
        raise ValueError(
            f"J must be stable (spectral abscissa < 0) for a stationary covariance, got "
            f"abscissa {ev.real.max():.3g}"
        )
    eye = np.eye(J.shape[0])
    if dt is None:
        C = scipy.linalg.solve_continuous_lyapunov(J, -eye)
    else:
        if np.abs(1.0 + dt * ev).max() >= 1.0:
            raise ValueError(f"dt must make the Euler map stable (|1 + dt λ| < 1), got dt={dt}")
        C = scipy.linalg.solve_discrete_lyapunov(eye + dt * J, dt * eye)
    C = (C + C.T) / 2
    if not bool(np.all(np.isfinite(C))):
        raise ValueError("J has entries too far apart in scale for a float64 Lyapunov solution")
    with np.errstate(over="ignore", invalid="ignore"):
        C_eta = (eta * eta) * C  # the solution is linear in η²
    if not bool(np.all(np.isfinite(C_eta))):
        raise ValueError(
            f"eta={eta!r} gives variances beyond the float64 range "
            f"(eta**2 times {float(np.abs(C).max()):.3g})"
        )
    return C_eta


def stationary_covariance(
    net: Network,
    mu: int,
    eta: float,
    *,
    T: float = 300.0,
    burn_in: float = 150.0,
    dt: float = 0.1,
    walkers: int = 16,
    stride: float = 1.0,
    rng: Any = 0,
) -> Fluctuations:
    """Empirical covariance of noisy dynamics around r^μ against the Lyapunov solution.

    Notes
    -----
    Extension (note §1.3, §4.4; the paper has no stochastic dynamics). ``walkers`` copies start
    at r^μ and follow Eq. 2 with additive noise η (Euler–Maruyama, one batched
    :func:`~assocmem.attractor.simulate` call per ``stride``). After ``burn_in`` the states are
    sampled every ``stride`` for a time T; C_emp is their covariance (about the sample mean).
    For small η it should match :func:`lyapunov_covariance` of J_μ (Eq. 5). The variance along
    the slowest left eigenvector u (uᴴJ = λ*uᴴ, ‖u‖ = 1) of the linear dynamics is exactly
    η²/(2|λ*|): it diverges as the abscissa λ* → 0⁻, i.e. as α → α_S. Samples within one
    correlation time 1/|λ*| are correlated, so the relative sampling error of that variance is
    about √(2/(walkers T |λ*|)); keep burn_in ≳ 2/|λ*|.

    Parameters
    ----------
    net : Network
        Weights; pattern μ must be stable (abscissa < 0).
    mu : int
        Pattern index.
    eta : float
        Noise amplitude (> 0); small compared with the rates (e.g. 0.01).
    T, burn_in, stride : float
        Sampling time (> 0), burn-in (>= 0) and sampling interval (>= dt); the run takes
        (T + burn_in)/dt Euler steps, at most ``MAX_STEPS`` (1e7).
    dt : float
        Euler step in (0, 1].
    walkers : int
        Independent copies (>= 1).
    rng : int or numpy.random.Generator
        Seed or generator of the noise.

    Returns
    -------
    Fluctuations

    Examples
    --------
    >>> from assocmem import attractor as at
    >>> net = at.pinv_weights(at.sample_patterns(40, 2, 1.0, rng=0), 1.0, 1.0)
    >>> fl = stationary_covariance(net, 0, 0.01, T=100.0, burn_in=20.0, walkers=4)
    >>> bool(abs(fl.total_var_emp / fl.total_var_pred - 1) < 0.1)
    True
    """
    check_instance(net, "net", Network)
    mu = check_positive_int(mu, "mu", minimum=0, maximum=net.P - 1)
    eta = check_beta(eta, "eta")
    T, stride = check_beta(T, "T"), check_beta(stride, "stride")
    burn_in = check_nonneg_float(burn_in, "burn_in")
    dt = check_fraction(dt, "dt", 0.0, 1.0, open_hi=False)
    walkers = check_positive_int(walkers, "walkers")
    if stride < dt:
        raise ValueError(f"stride must be >= dt={dt}, got {stride!r}")
    n_samples = max(1, math.floor(T / stride + 1e-9))
    steps = _check_steps(T, dt, "T") + _check_steps(burn_in, dt, "burn_in")
    check_size(n_samples * _check_steps(stride, dt, "stride"), "T", "Euler steps", MAX_STEPS,
               f"shorten T or lengthen dt so that (T + burn_in)/dt <= {MAX_STEPS}")  # fmt: skip
    check_size(steps, "T", "Euler steps (with burn_in)", MAX_STEPS,
               f"shorten T or burn_in so that (T + burn_in)/dt <= {MAX_STEPS}")  # fmt: skip
    check_size(net.N * walkers * n_samples, "T", "sampled values (N * walkers * T/stride)",
               MAX_ELEMENTS, "use fewer walkers, a shorter T or a longer stride")  # fmt: skip
    gen = as_rng(rng)
    r = to_numpy(net.R)[:, mu]
    J = to_numpy(jacobian(net.W, net.R[:, mu], net.sigma, net.n, net.theta))
    C_cont = _lyapunov(J, eta, None)  # raises if pattern μ is unstable
    C_lyap = _lyapunov(J, eta, dt)
    X = np.repeat(r[:, None], walkers, axis=1)
    if burn_in > 0:
        X = _advance(net, X, eta, dt, burn_in, gen)
    samples = []
    for _ in range(n_samples):
        X = _advance(net, X, eta, dt, stride, gen)
        samples.append(X - r[:, None])
    D = np.concatenate(samples, axis=1)
    C_emp = np.cov(D)
    ev, left = scipy.linalg.eig(J, left=True, right=False)
    k = int(np.argmax(ev.real))
    u = left[:, k] / np.linalg.norm(left[:, k])
    slow = float(np.real(np.conj(u) @ C_emp @ u))
    lam = float(ev[k].real)
    return Fluctuations(
        C_emp=C_emp,
        C_lyap=C_lyap,
        C_cont=C_cont,
        eta=eta,
        dt=dt,
        abscissa=lam,
        slow_var_emp=slow,
        slow_var_pred=eta * eta / (2 * abs(lam)),
        samples=D.shape[1],
        alpha=net.alpha,
        N=net.N,
    )


def _advance(net: Network, X: np.ndarray, eta: float, dt: float, t: float, gen: Any) -> Any:
    """Noisy Euler–Maruyama run of Eq. 2 for time t from the batch X; its last state."""
    run = simulate(net.W, X, net.sigma, net.n, net.theta, dt, t, noise=eta, rng=gen)
    if run.blew_up:
        raise ValueError(f"eta={eta!r} drove the noisy run out of bounds; use a smaller eta")
    return to_numpy(run.final)
