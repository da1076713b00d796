"""Small kicks along many stored patterns: their exponential rate against λ_mem (Eqs. 13-15).

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks*. **An extension**: the paper studies linear stability only and never
simulates the dynamics. Its memory outlier λ_mem (Eq. 15) says that a scale-up along a stored
pattern, (1 + ε) r^μ, grows or decays at the rate λ_mem. :func:`pattern_kick_rates` kicks many
patterns of one network that way, integrates Eq. 2 (:func:`~assocmem.attractor.dynamics.\
kick_experiment`) and fits the exponential rate of the distance over a window
(:func:`~assocmem.attractor.dynamics.decay_rate`), so that a statement about "a kick along the
pattern" rests on many patterns rather than one.

Notation map
------------
=============================  ======================  ========================================
symbol                         code                    meaning
=============================  ======================  ========================================
μ                              ``patterns``            indices of the kicked patterns
ε                              ``eps``                 scale-up, r(0) = (1 + ε) r^μ
d(t) = ‖r(t) − r^μ‖/‖r^μ‖      (fitted)                relative distance to the pattern
λ_mem                          ``lambda_mem``          empirical memory outlier of J_μ (Eq. 5)
=============================  ======================  ========================================

Public functions
----------------
pattern_kick_rates. Result type: PatternKickRates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assocmem._validation import check_beta, check_instance, check_nonneg_float

from .dynamics import decay_rate, kick_experiment
from .network import Network, _check_pattern_indices

__all__ = ["PatternKickRates", "pattern_kick_rates"]


@dataclass(frozen=True, eq=False)
class PatternKickRates:
    """Fitted rates of scale-up kicks on several patterns (result of :func:`pattern_kick_rates`).

    Attributes
    ----------
    patterns : ndarray of int, shape (K,)
        Kicked pattern indices.
    eps : ndarray, shape (E,)
        Kick sizes ε of the scale-ups (1 + ε) r^μ.
    rate : ndarray, shape (K, E)
        Least-squares slope of log d(t) over [t_lo, t_hi] (> 0: growth); NaN where the fit had
        fewer than 3 usable points (a run that blew up before the window).
    lambda_mem : ndarray, shape (K,)
        Real part of the empirical λ_mem of each J_μ.
    mem_corr : ndarray, shape (K,)
        |corr| of each λ_mem eigenvector with r^μ (trust λ_mem when > 0.8).
    abscissa : ndarray, shape (K,)
        Spectral abscissa of each J_μ.
    t_lo, t_hi : float
        Fit window (units of τ).
    """

    patterns: np.ndarray
    eps: np.ndarray
    rate: np.ndarray
    lambda_mem: np.ndarray
    mem_corr: np.ndarray
    abscissa: np.ndarray
    t_lo: float
    t_hi: float


def pattern_kick_rates(
    net: Network,
    patterns: int | Sequence[int] | None = None,
    eps: float | Sequence[float] = 1e-3,
    T: float = 30.0,
    t_min: float = 5.0,
    t_max: float = 15.0,
    dt: float = 0.1,
) -> PatternKickRates:
    """Exponential rate of small scale-up kicks on each of several patterns (extension).

    Notes
    -----
    For each pattern μ the states (1 + ε) r^μ are integrated under Eq. 2 for a time ``T`` (one
    batched run per pattern) and the slope of log d(t) is fitted over [``t_min``, ``t_max``].
    To first order the kick lies along the λ_mem mode (Eqs. 13-15), so a small kick grows or
    decays at the empirical λ_mem of J_μ, which scatters from pattern to pattern around Eq. 15
    at finite N. The window should end before the distance reaches the nonlinear regime (for
    a supralinear gain, growth speeds up there) and start after the fast modes have died.

    Parameters
    ----------
    net : Network
        From :func:`~assocmem.attractor.pinv_weights` or
        :func:`~assocmem.attractor.zero_diag_weights`.
    patterns : int or sequence of int, optional
        Pattern indices in [0, P); default all patterns.
    eps : float or sequence of float
        Kick sizes, each > 0.
    T : float
        Duration of each run (> 0, units of τ).
    t_min, t_max : float
        Fit window, 0 <= t_min < t_max <= T.
    dt : float
        Euler step in (0, 1].

    Returns
    -------
    PatternKickRates

    Examples
    --------
    With a linear gain at low load every pattern is stable, so every small kick decays:

    >>> from assocmem import attractor as at
    >>> net = at.pinv_weights(at.sample_patterns(100, 5, 1.0, rng=0), 1.0, 1.0)
    >>> k = pattern_kick_rates(net, [0, 1], eps=1e-3, T=60.0, t_min=30.0, t_max=60.0)
    >>> bool((k.rate < 0).all()), k.rate.shape
    (True, (2, 1))
    """
    check_instance(net, "net", Network)
    mus = _check_pattern_indices(patterns, net.P)
    T = check_beta(T, "T")
    lo = check_nonneg_float(t_min, "t_min")
    hi = check_nonneg_float(t_max, "t_max")
    if not lo < hi <= T:
        raise ValueError(
            f"the fit window must satisfy 0 <= t_min < t_max <= T, got t_min={lo!r}, "
            f"t_max={hi!r}, T={T!r}"
        )
    runs = [kick_experiment(net, mu, eps, "pattern", T=T, dt=dt) for mu in mus]
    rates = np.array([decay_rate(r, t_min=lo, t_max=hi).rate for r in runs])
    return PatternKickRates(
        patterns=np.array(mus, dtype=int),
        eps=np.asarray(runs[0].eps, dtype=float),
        rate=rates,
        lambda_mem=np.array([r.lambda_mem.real for r in runs]),
        mem_corr=np.array([r.mem_corr for r in runs]),
        abscissa=np.array([r.abscissa for r in runs]),
        t_lo=lo,
        t_hi=hi,
    )
