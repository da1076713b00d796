"""The energetic function G of the replica computation, at p = ∞ and at finite p.

Paper: A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories:
sharp asymptotics and mechanistic insights*, arXiv:2605.10795, §5 and App. C.1-C.2. "note §"
refers to the chapter note ``shared/notes/01-factual-recall.md``.

Notation map
------------
- t or q (replica overlap, eq. (7); the paper writes t in App. C.2)  -> ``t`` in [0, 1)
- β_t = √(t/(1-t)) (eq. (C.20))                                       -> ``beta``
- f_p(t; η) = E_x Π_{ρ>=2} Θ(x₁ - x_ρ + β_t(η₁ - η_ρ)) (eq. (C.21))   -> :func:`log_f_p`
- G_p(t) = E_η[log f_p(t; η)] / log p, G = lim_p G_p (eq. (C.23))     -> :func:`energetic_G_mc`,
  :func:`energetic_G`
- h_α(q) = ½ log(1-q) + q/(2(1-q)) + α G(q) (eq. (7))                 ->
  :func:`free_entropy_landscape`
- α = p ln p / d² (eq. (5)), natural log                               -> ``alpha``

Provenance
----------
[PAPER] eqs. (4)-(8), (C.21)-(C.25), the bounds (C.35) G >= -(1+β)² and (C.38)
G <= -(k/(k+1)) β² for every k >= 1, and the slope -1 of Fig. C.1.
[OURS, note §2.2] the closed form G(t) = -1/(1-t), q* = 2α, φ = ½ log(1-2α). The library never
uses it: G is evaluated numerically (``capacity._energetic_G``), the closed form is a check.
[OURS, this module] the finite-p solver of :func:`energetic_G_mc` (a refinement of note §2.2:
the ξ-window is found from the log-concavity of the integrand and η₁ is integrated by
Gauss-Hermite quadrature). The large-β limit of G_p, the finite-p capacity
:func:`~.finite_p.finite_p_capacity_mc` (result ``FinitePCapacity``), lives in ``finite_p``
(so that ``sweep`` can use it without importing this module) and is re-exported here.

Public functions
----------------
energetic_G, energetic_bounds (result ``EnergeticBounds``), log_f_p, energetic_G_mc (result
``EnergeticMC``), free_entropy_landscape (result ``FreeEntropyLandscape``), lp_threshold_scan
(result ``LPScan``), finite_size_scaling (result ``FiniteSizeScaling``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import log_ndtr

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    ConvergenceWarning,
    as_real_array,
    as_real_vector,
    as_rng,
    check_bool,
    check_fraction,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.backend import get_namespace, to_numpy

from .capacity import (
    _energetic_G,
    load,
    rs_free_entropy_curve,
)
from .finite_p import (  # the two public names stay importable from here
    FinitePCapacity,
    _check_p_values,
    _gauss_hermite,
    finite_p_capacity_mc,
)
from .problem import _check_kind, _lp_elements, lp_feasible
from .sweep import (
    ThresholdScan,
    _check_dims,
    _check_grid,
    _grid_p,
    sweep_instance,
    threshold_scan,
)

__all__ = [
    "ETA1_METHODS",
    "EnergeticBounds",
    "EnergeticMC",
    "FiniteSizeScaling",
    "FreeEntropyLandscape",
    "LPScan",
    "energetic_G",
    "energetic_G_mc",
    "energetic_bounds",
    "finite_size_scaling",
    "free_entropy_landscape",
    "log_f_p",
    "lp_threshold_scan",
]

#: How :func:`energetic_G_mc` treats η₁: integrated by Gauss-Hermite quadrature (default, a
#: Rao-Blackwellised estimator) or sampled with the other η's (the plain estimator of note §2.2).
ETA1_METHODS = ("quadrature", "sample")

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
# log Φ(a) >= -Φ̄(a)(1 + 1e-16) > -1e-17 for a >= 8.5: such terms are dropped from Σ_ρ log Φ.
_ARG_CUT = 8.5
# The ξ-window ends where the log-integrand has dropped by at least this much below its maximum;
# by log-concavity the mass outside is below e^-36 ≈ 2e-16 of the total.
_DROP = 36.0
# Beyond β z + 9 the Gaussian factor φ(u - β z) is below e^-40 of its peak.
_GAUSS_REACH = 9.0
_NEWTON_MAX = 200
# Largest ξ-grid of one quadrature (β_t grows without bound as t → 1), and the largest t
# (β_t = 1000) for which the Newton search for the integrand's mode is reliable in double precision.
_MAX_GRID = 1_000_000
_T_MAX = 1.0 - 1e-6
# η_ρ - η₁ below -1e12 is clipped there by log_f_p: β_t <= 1000 puts such a competitor more than
# 1e15 standard deviations behind, where Φ = 1 exactly in double precision.
_FAR_BEHIND = 1e12


# ---------------------------------------------------------------------------------------------
# Result types
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class EnergeticBounds:
    """The asymptotic G(t) and the paper's bounds on it, on a grid of overlaps.

    Attributes
    ----------
    t : ndarray, shape (K,)
        Overlaps in [0, 1).
    limit : ndarray, shape (K,)
        G(t) = lim_p G_p(t), eq. (C.23), evaluated numerically (:func:`energetic_G`).
    lower : ndarray, shape (K,)
        -(1 + β_t)², the lower bound (C.35).
    upper_k1 : ndarray, shape (K,)
        -β_t²/2, the upper bound (C.38) with k = 1.
    upper : ndarray, shape (K,)
        -β_t² = -t/(1-t), the upper bound (C.38) as k → ∞.
    """

    t: np.ndarray
    limit: np.ndarray
    lower: np.ndarray
    upper_k1: np.ndarray
    upper: np.ndarray


@dataclass(frozen=True, eq=False)
class EnergeticMC:
    """Monte-Carlo estimate of G_p(t) = E_η[log f_p(t; η)] / log p, from :func:`energetic_G_mc`.

    Attributes
    ----------
    p : int
        Number of candidate outputs.
    t : ndarray, shape (K,)
        Overlaps in [0, 1). The same η samples serve every t (common random numbers).
    values : ndarray, shape (samples, K)
        Per-sample estimates of log f_p / log p (η₁ integrated out when ``eta1`` is "quadrature").
    mean : ndarray, shape (K,)
        The estimate of G_p(t).
    stderr : ndarray, shape (K,)
        Its standard error, std(values, ddof=1)/√samples; NaN (undefined) when samples = 1.
    eta1 : str
        "quadrature" or "sample" (see :data:`ETA1_METHODS`).
    theory : EnergeticBounds
        G and the paper's bounds on a fine grid of [0, max t], for figures.
    """

    p: int
    t: np.ndarray
    values: np.ndarray
    mean: np.ndarray
    stderr: np.ndarray
    eta1: str
    theory: EnergeticBounds

    @property
    def samples(self) -> int:
        """Number of η samples."""
        return int(self.values.shape[0])

    @property
    def scaled(self) -> np.ndarray:
        """(1 - t) G_p(t), which tends to -1 as p → ∞ and then t → 1 (C.39)."""
        return (1.0 - self.t) * self.mean


@dataclass(frozen=True, eq=False)
class FreeEntropyLandscape:
    """The replica-symmetric potential h_α(q) and the free entropy φ(α), for one load α.

    Attributes
    ----------
    alpha : float
        Load α in (0, 1/2).
    q : ndarray, shape (K,)
        Overlaps in [0, 1).
    h : ndarray, shape (K,)
        h_α(q), eq. (7), with G evaluated numerically (``rs_free_entropy_curve``).
    h_closed : ndarray, shape (K,)
        [OURS, note §2.2] h_α with G = -1/(1-q): ½ log(1-q) + (q - 2α)/(2(1-q)).
    h_lower, h_upper : ndarray, shape (K,)
        h_α with G replaced by the paper's bounds -(1+β)² (C.35) and -β² (C.38, k → ∞):
        h_lower <= h <= h_upper.
    q_star, phi : float
        Minimiser and minimum of h_α (``rs_free_entropy_curve``).
    q_star_closed, phi_closed : float
        [OURS] 2α and ½ log(1 - 2α).
    alphas : ndarray, shape (A,)
        Loads in (0, 1/2) for the φ(α) panel.
    phis, q_stars : ndarray, shape (A,)
        φ and q* at ``alphas`` (numerical G, as ``rs_free_entropy`` and ``rs_overlap``).
    phis_closed : ndarray, shape (A,)
        [OURS] ½ log(1 - 2α).
    annealed : ndarray, shape (A,)
        The annealed (Jensen) bound log E V / d² = -α (§5.1), an upper bound on φ.
    """

    alpha: float
    q: np.ndarray
    h: np.ndarray
    h_closed: np.ndarray
    h_lower: np.ndarray
    h_upper: np.ndarray
    q_star: float
    phi: float
    q_star_closed: float
    phi_closed: float
    alphas: np.ndarray
    phis: np.ndarray
    q_stars: np.ndarray
    phis_closed: np.ndarray
    annealed: np.ndarray


@dataclass(frozen=True, eq=False)
class LPScan:
    """Exact feasibility of perfect recall against load, from :func:`lp_threshold_scan`.

    Attributes
    ----------
    d : int
        Embedding dimension.
    alpha : ndarray, shape (n,)
        Loads scanned, in increasing order (the scan may stop at the first violation).
    p : ndarray of int, shape (n,)
        p(α, d).
    alpha_eff : ndarray, shape (n,)
        Effective loads p ln p / d².
    feasible : ndarray of bool, shape (n, instances)
        Whether the LP found a W recalling every fact with a positive margin.
    margin : ndarray, shape (n, instances)
        The LP's optimal margin t* (note §4, algorithm I).
    problem : str
        "original" or "decoupled".
    """

    d: int
    alpha: np.ndarray
    p: np.ndarray
    alpha_eff: np.ndarray
    feasible: np.ndarray
    margin: np.ndarray
    problem: str

    @property
    def fraction_feasible(self) -> np.ndarray:
        """Fraction of feasible instances at each load, shape (n,)."""
        return self.feasible.mean(axis=1)

    @property
    def first_violation(self) -> float | None:
        """Smallest effective α of the scan with an infeasible instance (Fig. C.1), or None."""
        bad = np.flatnonzero(~np.all(self.feasible, axis=1))
        return float(self.alpha_eff[bad[0]]) if bad.size else None


@dataclass(frozen=True, eq=False)
class FiniteSizeScaling:
    """Measured capacity thresholds against p with the finite-p estimates (Fig. C.1).

    Attributes
    ----------
    label : tuple of str
        One label per point, e.g. "LP d = 8".
    method : tuple of str
        "LP" (exact feasibility) or "CE" (cross-entropy training, paper protocol) per point.
    d, p : ndarray of int, shape (n,)
        Dimension and number of facts at the threshold.
    alpha_c : ndarray, shape (n,)
        First-violation load (effective α) of each scan.
    censored : ndarray of bool, shape (n,)
        True where the scan's first load already failed (α_c is only an upper bound) or no load
        failed (α_c is the last load, a lower bound); such points are left out of the fit.
    slope, intercept : float
        Least-squares line log(α_c - ½) = intercept + slope · log log p over the uncensored
        points (NaN with fewer than two).
    p_curve : ndarray of int, shape (m,)
        Values of p for the estimates.
    alpha_step : ndarray, shape (m,)
        Step-function estimate ``finite_p_capacity`` (note §2.3).
    limit : FinitePCapacity
        The t → 1 limit of G_p at ``p_curve`` (:func:`finite_p_capacity_mc`).
    lp_scans : tuple of LPScan
        The LP scans, one per d.
    ce_scan : ThresholdScan or None
        The training scan (``threshold_scan``) over the CE dimensions.
    """

    label: tuple[str, ...]
    method: tuple[str, ...]
    d: np.ndarray
    p: np.ndarray
    alpha_c: np.ndarray
    censored: np.ndarray
    slope: float
    intercept: float
    p_curve: np.ndarray
    alpha_step: np.ndarray
    limit: FinitePCapacity
    lp_scans: tuple[LPScan, ...]
    ce_scan: ThresholdScan | None

    @property
    def x(self) -> np.ndarray:
        """log log p of the points (the abscissa of Fig. C.1)."""
        return np.log(np.log(self.p.astype(float)))

    @property
    def y(self) -> np.ndarray:
        """log(α_c - ½) of the points (the ordinate of Fig. C.1)."""
        return np.log(self.alpha_c - 0.5)


# ---------------------------------------------------------------------------------------------
# Asymptotic G and bounds
# ---------------------------------------------------------------------------------------------


def _check_t(t: Any, name: str = "t") -> np.ndarray:
    """Overlaps as a non-empty 1-D float array with entries in [0, 1)."""
    return as_real_vector(t, name, 0.0, 1.0, open_hi=True)


def energetic_G(t: Any) -> np.ndarray:
    """Asymptotic energetic function G(t) = lim_p E_η[log f_p(t; η)] / log p, eq. (C.23).

    Notes
    -----
    A thin vectorised wrapper of ``capacity._energetic_G``, which evaluates the p → ∞ limit
    from its large-deviation form (note §2.2, steps 1-3: the target must clear every competitor
    height y with p^(1-y²) competitors at y), by nested Brent solves, not from a closed form.
    [OURS, note §2.2] One can show G(t) = -1/(1-t) exactly; the tests compare to 1e-12.
    The paper proves only the bounds -(1+β_t)² <= G(t) <= -β_t² (C.35, C.38) and the limit
    (1-t) G(t) → -1 (C.39).

    Parameters
    ----------
    t : float or array_like, shape (K,)
        Overlaps in [0, 1).

    Returns
    -------
    ndarray, shape (K,)
        G(t) < 0, with G(0) = -1 (f_p(0) = 1/p).

    Examples
    --------
    >>> energetic_G([0.0, 0.5]).round(10).tolist()  # -1/(1-t) [OURS]
    [-1.0, -2.0]
    """
    arr = _check_t(t)
    return np.array([_energetic_G(float(v))[0] for v in arr])


def energetic_bounds(t: Any) -> EnergeticBounds:
    """G(t) with the paper's lower bound (C.35) and upper bounds (C.38), on a grid.

    Notes
    -----
    With β_t = √(t/(1-t)): (C.35) G(t) >= -(1 + β_t)², and (C.38) G(t) <= -(k/(k+1)) β_t² for
    every k >= 1; we report k = 1 and k → ∞ (-β_t² = -t/(1-t)). Both are p → ∞ statements:
    at finite p, G_p(t) rises above -β_t² for t near 1 (slow convergence, C8).

    Parameters
    ----------
    t : float or array_like, shape (K,)
        Overlaps in [0, 1).

    Returns
    -------
    EnergeticBounds

    Examples
    --------
    >>> b = energetic_bounds(0.5)  # β = 1
    >>> float(b.lower[0]), float(b.upper_k1[0]), float(b.upper[0])
    (-4.0, -0.5, -1.0)
    """
    arr = _check_t(t)
    beta2 = arr / (1.0 - arr)
    return EnergeticBounds(
        t=arr,
        limit=energetic_G(arr),
        lower=-((1.0 + np.sqrt(beta2)) ** 2),
        upper_k1=-0.5 * beta2,
        upper=-beta2,
    )


# ---------------------------------------------------------------------------------------------
# Finite-p solver for log f_p (eq. (C.29))
# ---------------------------------------------------------------------------------------------


def _special(xp: Any) -> Any:
    """log Φ for the namespace (SciPy's on NumPy; cupyx's on CuPy)."""
    if xp is np:
        return log_ndtr
    from cupyx.scipy.special import log_ndtr as cupy_log_ndtr  # pragma: no cover - GPU only

    return cupy_log_ndtr  # pragma: no cover - GPU only


def _log_lambda(u: Any, c: Any, xp: Any, block: int = 32, chunk: int = 4096) -> Any:
    """log Λ(u_i) = Σ_ρ log Φ(u_i - c_ρ) for ascending u and descending c (eq. (C.29)).

    Terms with u_i - c_ρ >= 8.5 (each above -1e-17) are skipped: for a block of grid points only
    the prefix of c with c_ρ > u_first - 8.5 is summed, chunked over ρ to bound memory.
    """
    lnphi = _special(xp)
    if float(c[0]) == float(c[-1]):  # all competitors alike (β = 0): one column suffices
        return c.shape[0] * lnphi(u - c[0])
    n_active = to_numpy(xp.searchsorted(-c, -(u - _ARG_CUT), side="left"))
    out = xp.zeros(u.shape[0])
    for s in range(0, u.shape[0], block):
        m = int(n_active[s])
        if m == 0:
            break
        ub = u[s : s + block, None]
        acc = xp.zeros(ub.shape[0])
        for r in range(0, m, chunk):
            acc += lnphi(ub - c[None, r : min(m, r + chunk)]).sum(axis=1)
        out[s : s + block] = acc
    return out


def _mode(centre: float, c: Any, xp: Any) -> tuple[float, float]:
    """Maximiser u* of ψ(u) = -(u - centre)²/2 + log Λ(u) and the curvature -ψ''(u*) >= 1.

    ψ' = -(u - centre) + Σ_ρ λ(u - c_ρ), with λ = φ/Φ the inverse Mills ratio, is convex and
    decreasing, so Newton's method started at u = centre (where ψ' > 0) increases monotonically
    to the root without overshooting. Stops when ψ' < 1e-6, i.e. |u - u*| < 1e-6 (|ψ''| >= 1).
    """
    lnphi = _special(xp)
    u = float(centre)
    it = 0
    for it in range(_NEWTON_MAX):  # noqa: B007 - reported below
        a = u - c
        lam = xp.exp(-0.5 * a * a - _LOG_SQRT_2PI - lnphi(a))
        slope = -(u - centre) + float(lam.sum())
        curvature = 1.0 + float((lam * (a + lam)).sum())
        if slope < 1e-6:
            return u, curvature
        u += slope / curvature
    warnings.warn(
        f"log_f_p: Newton search for the integrand's mode stopped after {it + 1} iterations "
        f"with residual {slope:.3e} (tolerance 1e-6); the ξ-window may be off-centre",
        ConvergenceWarning,
        stacklevel=4,
    )
    return u, curvature


def _log_f_nodes(beta: float, eta_rest: Any, z: np.ndarray, step: float, xp: Any) -> np.ndarray:
    """log f_p(t; η₁ = z_k, η_rest) for every node z_k, by one quadrature in u = ξ + β η₁.

    Notes
    -----
    (C.29): f_p = E_ξ Π_ρ Φ(ξ - β(η_ρ - η₁)). With u = ξ + β η₁, f_p = ∫ φ(u - β η₁) Λ(u) du,
    Λ(u) = Π_{ρ>=2} Φ(u - β η_ρ), so one evaluation of log Λ on a u-grid serves every η₁.
    The integrand is log-concave in u. Its left end: the lowest node's integrand dropped by
    >= 36 (found from its mode and concavity); by monotone likelihood ratio every higher node
    has even less mass there. Its right end: Λ = 1 to 1e-17 per term beyond max_ρ β η_ρ + 8.5,
    and φ(u - β z) < e^-40 of its peak beyond β z + 9. On the uniform grid in between the
    Riemann sum is the trapezoid rule with negligible end values, exponentially accurate
    (``step`` 0.1 agrees with 0.025 to 3e-10 for p <= 10⁵; use a finer step beyond).
    """
    c = beta * eta_rest  # descending
    z_min, z_max = float(z.min()), float(z.max())
    centre = beta * z_min
    u_star, curvature = _mode(centre, c, xp)

    def psi(u: float) -> float:
        return -0.5 * (u - centre) ** 2 + float(_log_lambda(xp.asarray([u]), c, xp)[0])

    top = psi(u_star)
    width = 1.1 * math.sqrt(2.0 * _DROP / curvature)
    drop = top - psi(u_star - width)
    if drop < _DROP:  # concavity: the drop grows at least linearly beyond u* - width
        width *= 1.05 * _DROP / drop
    u_lo = u_star - width
    u_hi = max(float(c[0]) + _ARG_CUT, beta * z_max + _GAUSS_REACH, u_lo + 2.0 * step)
    n = math.ceil((u_hi - u_lo) / step) + 1
    if n > _MAX_GRID:
        raise ValueError(
            f"t is too close to 1 for this step and eta: β_t = {beta:.3g} needs {n} grid points "
            f"at step={step} (at most {_MAX_GRID}); use a smaller t, a larger step or eta "
            "of smaller spread"
        )
    check_size(
        z.size * n,
        "nodes",
        f"quadrature values ({z.size} nodes × {n} grid points)",
        MAX_ELEMENTS,
        "use fewer nodes or a larger step",
    )
    u = xp.linspace(u_lo, u_hi, n)
    h = (u_hi - u_lo) / (n - 1)
    log_lam = _log_lambda(u, c, xp)
    zz = xp.asarray(z)
    g = -0.5 * (u[None, :] - beta * zz[:, None]) ** 2 + log_lam[None, :]
    g_max = g.max(axis=1)
    log_sum = g_max + xp.log(xp.exp(g - g_max[:, None]).sum(axis=1))
    return to_numpy(log_sum) - _LOG_SQRT_2PI + math.log(h)


def _check_t_finite_p(t: Any) -> np.ndarray:
    """Overlaps for the finite-p quadrature: [0, 1 - 10⁻⁶], i.e. β_t <= 1000."""
    ts = _check_t(t)
    if np.any(ts > _T_MAX):
        raise ValueError(
            f"t must lie in [0, {_T_MAX}] for the finite-p quadrature (β_t <= 1000), got {t!r}"
        )
    return ts


def _check_step(step: Any) -> float:
    return check_fraction(step, "step", 0.0, 0.5, open_lo=True, open_hi=False)


def log_f_p(t: Any, eta: Any, *, step: float = 0.1) -> np.ndarray:
    """log f_p(t; η) for given η, eq. (C.21) in the form (C.29): the quadrature inside G_p.

    Notes
    -----
    f_p(t; η) = E_x Π_{ρ=2}^p Θ(x₁ - x_ρ + β_t(η₁ - η_ρ)) = E_ξ Π_ρ Φ(ξ + β_t(η₁ - η_ρ)),
    β_t = √(t/(1-t)), Φ the standard normal CDF (App. C's Φ, not App. D's upper tail). We
    integrate over ξ on a uniform grid with ``scipy.special.log_ndtr``, chunked over ρ, and a
    log-sum-exp (note §2.2), on a window located by the integrand's log-concavity (see
    ``_log_f_nodes``). Two exact identities (tests): f_p(0; η) = 1/p for every η (the target
    beats p - 1 exchangeable competitors), and f_2(t; η) = Φ(β_t(η₁ - η₂)/√2).

    Parameters
    ----------
    t : float or array_like, shape (K,)
        Overlaps in [0, 1 - 10⁻⁶] (β_t <= 1000).
    eta : array_like, shape (p,) or (n, p)
        η vectors, η₁ first; p >= 2, finite. Only the differences η₁ - η_ρ matter: a target
        far ahead gives log f_p = 0. A competitor far ahead (β_t (max η_ρ - η₁) above
        ``step`` × 10⁶) needs too fine a grid and is refused.
    step : float, optional
        Grid spacing in ξ, in (0, 0.5].

    Returns
    -------
    ndarray, shape (K,) or (n, K)
        log f_p(t_k; η) <= 0.

    Raises
    ------
    ValueError
        If the quadrature would need more than 10⁶ grid points (t too close to 1 for ``step``,
        or a competitor too far ahead in ``eta``).

    Examples
    --------
    At t = 0 the target is one of p exchangeable candidates, whatever η:

    >>> import numpy as np
    >>> eta = np.random.default_rng(0).standard_normal(50)
    >>> bool(abs(log_f_p(0.0, eta)[0] - np.log(1 / 50)) < 1e-12)
    True
    """
    ts = _check_t_finite_p(t)
    step = _check_step(step)
    arr = as_real_array(eta, "eta", ndim=(1, 2), xp=np)
    single = arr.ndim == 1
    arr = np.atleast_2d(arr)
    if arr.shape[1] < 2 or arr.shape[0] < 1:
        raise ValueError(f"eta must have shape (p,) or (n, p) with p >= 2, got shape {arr.shape}")
    # f_p depends on η only through η₁ - η_ρ: measure every η_ρ from η₁, so that the quadrature
    # sits at the origin whatever the size of η₁. Competitors more than _FAR_BEHIND below η₁
    # have Φ(ξ + β_t(η₁ - η_ρ)) = 1 in double precision; they are clipped there.
    with np.errstate(over="ignore"):
        rel = np.clip(arr[:, 1:] - arr[:, :1], -_FAR_BEHIND, None)
    beta_max = math.sqrt(float(ts.max()) / (1.0 - float(ts.max())))
    spread = beta_max * float(rel.max())
    if not spread <= step * _MAX_GRID:
        raise ValueError(
            f"eta has a competitor too far ahead of the target for the quadrature: "
            f"β_t (max η_ρ - η₁) = {spread:.3g} at t={float(ts.max())!r} exceeds "
            f"step * {_MAX_GRID} = {step * _MAX_GRID:.3g}; use a smaller t, a larger step or eta "
            "of smaller spread"
        )
    origin = np.zeros(1)
    out = np.empty((arr.shape[0], ts.size))
    for i, row in enumerate(rel):
        rest = np.sort(row)[::-1].copy()
        for k, tk in enumerate(ts):
            beta = math.sqrt(tk / (1.0 - tk))
            out[i, k] = _log_f_nodes(beta, rest, origin, step, np)[0]
    out = np.minimum(out, 0.0)  # f_p <= 1: the quadrature of ∫φ Λ may exceed it by rounding
    return out[0] if single else out


def energetic_G_mc(
    t: Any,
    p: int,
    samples: int = 20,
    rng: Any = 0,
    *,
    eta1: str = "quadrature",
    nodes: int = 20,
    step: float = 0.1,
    backend: str | None = None,
) -> EnergeticMC:
    """Monte-Carlo G_p(t) = E_η[log f_p(t; η)] / log p at finite p, eqs. (C.21)-(C.23), (8).

    Notes
    -----
    Each sample draws η ∈ R^p i.i.d. N(0, 1) once and reuses it at every t (common random
    numbers: the curve is smooth in t and differences between t's are precise). log f_p is the
    quadrature of :func:`log_f_p`. With ``eta1="quadrature"`` (default) the expectation over η₁
    is done by Gauss-Hermite quadrature with ``nodes`` nodes and only η₂..η_p are sampled; this
    removes the dominant variance: log f_p moves by about β_t² √(2 log p) per unit of η₁ (note
    §2.2, "variance warning"), so the plain estimator (``eta1="sample"``, note §2.2) needs 50 to
    400 times more samples for the same error (measured at p = 10³, t = 0.3-0.95). Both
    estimators are unbiased for G_p(t) and use the same η₂..η_p for the same ``rng``.

    G_p → G as p → ∞ only like log log p / log p (paper §C.2): (1-t) G_p(t) creeps towards -1.
    Cost: about 40 ms per sample and t at p = 10⁴ on one CPU core; the heavy part (a grid × p
    block of log Φ) is written against the array namespace, for CuPy with ``backend="cupy"``
    (not exercised by the test suite without a GPU).

    Parameters
    ----------
    t : float or array_like, shape (K,)
        Overlaps in [0, 1 - 10⁻⁶] (β_t <= 1000).
    p : int
        Number of candidates, >= 2.
    samples : int, optional
        Number of η samples, >= 1.
    rng : int or numpy.random.Generator, optional
        Seed (>= 0) or generator; η is drawn on the host, so results do not depend on the backend.
    eta1 : {"quadrature", "sample"}, optional
        How η₁ is averaged.
    nodes : int, optional
        Gauss-Hermite nodes for η₁, >= 2 (20 agrees with 40 to 1e-8 in (1-t) G_p).
    step : float, optional
        Grid spacing of the ξ quadrature, in (0, 0.5].
    backend : {"numpy", "cupy"} or None, optional
        Array backend (None: the ``ASSOCMEM_BACKEND`` environment variable, default NumPy).

    Returns
    -------
    EnergeticMC

    Examples
    --------
    At t = 0 every η gives f_p = 1/p, so G_p(0) = -1 with zero variance (C7):

    >>> mc = energetic_G_mc([0.0, 0.5], p=100, samples=3, rng=0)
    >>> round(float(mc.mean[0]), 10), float(mc.stderr[0]) < 1e-12
    (-1.0, True)
    """
    ts = _check_t_finite_p(t)
    p = check_positive_int(p, "p", minimum=2)
    samples = check_positive_int(samples, "samples", minimum=1, maximum=MAX_STEPS)
    eta1 = check_option(eta1, "eta1", ETA1_METHODS)
    nodes = check_positive_int(nodes, "nodes", minimum=2)
    step = _check_step(step)
    gen = as_rng(rng)
    check_size(
        samples * p, "samples", "random numbers (samples × p)", MAX_ELEMENTS, "lower samples or p"
    )
    backend = check_option(backend, "backend", (None, "numpy", "cupy"))
    xp = get_namespace(backend)
    z, w = _gauss_hermite(nodes)
    values = np.empty((samples, ts.size))
    log_p = math.log(p)
    for s in range(samples):
        eta = gen.standard_normal(p)
        rest = xp.asarray(np.sort(eta[1:])[::-1].copy())
        zz, ww = (z, w) if eta1 == "quadrature" else (eta[:1], np.ones(1))
        for k, tk in enumerate(ts):
            beta = math.sqrt(tk / (1.0 - tk))
            values[s, k] = float(ww @ _log_f_nodes(beta, rest, zz, step, xp)) / log_p
    stderr = (
        values.std(axis=0, ddof=1) / math.sqrt(samples) if samples > 1 else np.full(ts.size, np.nan)
    )
    return EnergeticMC(
        p=p,
        t=ts,
        values=values,
        mean=values.mean(axis=0),
        stderr=stderr,
        eta1=eta1,
        theory=energetic_bounds(np.linspace(0.0, float(ts.max()), 101)),
    )


# ---------------------------------------------------------------------------------------------
# Free-entropy landscape (eq. (7))
# ---------------------------------------------------------------------------------------------


def free_entropy_landscape(
    alpha: float, *, n_q: int = 201, n_alpha: int = 25
) -> FreeEntropyLandscape:
    """The potential h_α(q) of eq. (7) and the free entropy φ(α), for the free-entropy slider.

    Notes
    -----
    h_α(q) = ½ log(1-q) + q/(2(1-q)) + α G(q) (eq. (7), "up to additive constants independent
    of α"), with G evaluated numerically by ``rs_free_entropy_curve``. φ(α) = min_q h_α(q) is
    finite for α < 1/2, and q*(α) → 1, φ → -∞ as α ↑ 1/2 (Claim 1). Replacing G by the paper's
    bounds (C.35), (C.38, k → ∞) brackets h (α > 0). [OURS, note §2.2] With G = -1/(1-q):
    h'_α(q) = (q - 2α)/(2(1-q)²), so q* = 2α and φ = ½ log(1-2α) <= -α (annealed bound);
    these closed forms are stored alongside, for comparison only.

    Parameters
    ----------
    alpha : float
        Load in (0, 1/2).
    n_q : int, optional
        Number of overlaps on [0, 1 - (1 - 2α)/10 ∧ 0.995], >= 3.
    n_alpha : int, optional
        Number of loads in [0.01, 0.49] for the φ(α) panel, >= 2.

    Returns
    -------
    FreeEntropyLandscape

    Examples
    --------
    >>> r = free_entropy_landscape(0.25)
    >>> round(r.q_star, 8), round(r.phi, 8), round(r.phi_closed, 8)
    (0.5, -0.34657359, -0.34657359)
    """
    alpha = check_fraction(alpha, "alpha", 0.0, 0.5)
    n_q = check_positive_int(n_q, "n_q", minimum=3, maximum=MAX_ELEMENTS)
    n_alpha = check_positive_int(n_alpha, "n_alpha", minimum=2, maximum=MAX_STEPS)
    q_max = max(0.995, 1.0 - (1.0 - 2.0 * alpha) / 10.0)
    q = np.linspace(0.0, q_max, n_q)
    curve = rs_free_entropy_curve(alpha, q)
    beta2 = q / (1.0 - q)
    entropic = 0.5 * np.log1p(-q) + q / (2.0 * (1.0 - q))
    alphas = np.linspace(0.01, 0.49, n_alpha)
    at_alphas = [rs_free_entropy_curve(float(a), [0.0]) for a in alphas]  # one solve per α
    return FreeEntropyLandscape(
        alpha=alpha,
        q=q,
        h=curve.h,
        h_closed=entropic - alpha / (1.0 - q),
        h_lower=entropic - alpha * (1.0 + np.sqrt(beta2)) ** 2,
        h_upper=entropic - alpha * beta2,
        q_star=curve.q_star,
        phi=curve.phi,
        q_star_closed=2.0 * alpha,
        phi_closed=0.5 * math.log1p(-2.0 * alpha),
        alphas=alphas,
        phis=np.array([c.phi for c in at_alphas]),
        q_stars=np.array([c.q_star for c in at_alphas]),
        phis_closed=0.5 * np.log1p(-2.0 * alphas),
        annealed=-alphas,
    )


# ---------------------------------------------------------------------------------------------
# Measured thresholds (Fig. C.1)
# ---------------------------------------------------------------------------------------------


def lp_threshold_scan(
    d: int,
    alphas: Any,
    *,
    instances: int = 3,
    problem: str = "original",
    seed: int = 0,
    stop_at_violation: bool = True,
) -> LPScan:
    """Exact feasibility (linear programming) of perfect recall on a grid of loads.

    Notes
    -----
    At each α of the sorted grid, ``instances`` instances with p = p(α, d) are solved by
    ``lp_feasible`` (HiGHS; note §4 algorithm I, [OURS]). Instance r at load α is
    ``sweep_instance(d, α, rep=r)``, the instance that ``accuracy_sweep`` and ``threshold_scan``
    train, so LP and cross-entropy training can be compared instance by instance. With
    ``stop_at_violation`` the scan ends at the first load with an infeasible instance, the
    "first violation" read-out of Fig. C.1. Cost grows fast with d: about 0.05 s per instance at
    d = 8, 0.2 s at d = 10, 0.6 s at d = 12, 0.3-3 s at d = 15 (one core).

    Parameters
    ----------
    d : int
        Embedding dimension, >= 2.
    alphas : float or sequence of float
        Loads > 0, each giving p >= 2 and an LP of at most ``MAX_ELEMENTS`` constraint entries
        (``_validation``); they are sorted.
    instances : int, optional
        Instances per load, >= 1.
    problem : {"original", "decoupled"}, optional
        Eq. (1) or eq. (2).
    seed : int, optional
        Base seed, >= 0.
    stop_at_violation : bool, optional
        Stop after the first load with an infeasible instance (True or False).

    Returns
    -------
    LPScan

    Examples
    --------
    >>> scan = lp_threshold_scan(4, [0.5, 3.0], instances=2)
    >>> scan.feasible.tolist(), scan.first_violation is not None
    ([[True, True], [False, False]], True)
    """
    d = check_positive_int(d, "d", minimum=2)
    grid = np.sort(_check_grid(alphas))
    instances = check_positive_int(instances, "instances", minimum=1, maximum=MAX_STEPS)
    kind = _check_kind(problem)
    seed = check_positive_int(seed, "seed", minimum=0)
    stop_at_violation = check_bool(stop_at_violation, "stop_at_violation")
    ps = _lp_grid_p(grid, d, kind, "alphas")
    rows_f: list[list[bool]] = []
    rows_m: list[list[float]] = []
    for a in grid:
        results = [
            lp_feasible(sweep_instance(d, float(a), rep=r, problem=kind, seed=seed))
            for r in range(instances)
        ]
        rows_f.append([res.feasible for res in results])
        rows_m.append([res.margin for res in results])
        if stop_at_violation and not all(rows_f[-1]):
            break
    scanned = grid[: len(rows_f)]
    ps = ps[: len(rows_f)]
    return LPScan(
        d=d,
        alpha=scanned,
        p=ps,
        alpha_eff=np.array([load(int(v), d) for v in ps]),
        feasible=np.array(rows_f, dtype=bool),
        margin=np.array(rows_m, dtype=float),
        problem=kind,
    )


def _lp_grid_p(grid: np.ndarray, d: int, kind: str, name: str) -> np.ndarray:
    """p(α, d) on a validated grid, with the instance and the LP constraint matrix capped."""
    ps = _grid_p(grid, d, kind, name, scores=False)
    p = int(ps.max())
    check_size(
        _lp_elements(p, d),
        name,
        f"LP constraint entries (p = {p} facts in d = {d})",
        MAX_ELEMENTS,
        "lower the loads or the dimension",
    )
    return ps


def _lp_point(scan: LPScan) -> tuple[float, int, bool]:
    """First-violation load, its p, and whether it is censored (first load failed, or none)."""
    bad = np.flatnonzero(~np.all(scan.feasible, axis=1))
    if bad.size == 0:
        return float(scan.alpha_eff[-1]), int(scan.p[-1]), True
    return float(scan.alpha_eff[bad[0]]), int(scan.p[bad[0]]), bool(bad[0] == 0)


def _ce_points(scan: ThresholdScan) -> list[tuple[float, int, bool]]:
    """The same read-out from a ``threshold_scan`` (one point per d)."""
    out = []
    for i, d in enumerate(scan.d.tolist()):
        idx = int(scan.first_index[i])
        if idx == scan.alpha.size:  # no error on the whole grid: a lower bound
            p = int(scan.p_first[i])
            out.append((load(p, d), p, True))
        else:
            out.append((float(scan.first_violation[i]), int(scan.p_first[i]), idx == 0))
    return out


def _check_dim_list(dims: Any, name: str) -> list[int]:
    """A possibly empty sequence of integer dimensions, each >= 2."""
    if isinstance(dims, str | bytes):
        raise TypeError(f"{name} must be a sequence of integer dimensions, got {dims!r}")
    try:
        empty = len(dims) == 0
    except TypeError as exc:
        raise TypeError(f"{name} must be a sequence of integer dimensions, got {dims!r}") from exc
    if empty:
        return []
    return _check_dims(dims, name)


def _fit_line(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    if x.size < 2 or np.ptp(x) == 0:
        return math.nan, math.nan
    slope, intercept = np.polyfit(x, y, 1)
    return float(slope), float(intercept)


def finite_size_scaling(
    lp_dims: Sequence[int] = (),
    lp_alphas: Any = None,
    ce_dims: Sequence[int] = (),
    ce_alphas: Any = None,
    *,
    instances: int = 3,
    reps: int = 2,
    problem: str = "original",
    seed: int = 0,
    p_curve: Any = None,
    samples: int = 200,
) -> FiniteSizeScaling:
    """Measured thresholds α_c against log log p with the finite-p estimates (Fig. C.1, C23).

    Notes
    -----
    Fig. C.1 plots log(α_c(p) - ½) against log log p and finds slope -1, consistent with
    α_c(p) = ½ + Õ(1/log p) (eq. (C.25)). Here each dimension d contributes one point: the first
    load of a grid at which some instance fails, from exact LP feasibility
    (:func:`lp_threshold_scan`, small d) or from cross-entropy training with the paper's protocol
    (``threshold_scan``: Adam, 512 steps, float32, perfect recall required; larger d). The paper
    defines the threshold both as "the largest α for which no errors occur" (caption) and as the
    first violation (App. A), one grid step apart; we use the first violation. CE is a heuristic
    solver: on the same instance its first violation lies at or below the LP's. The line is a
    least-squares fit over the uncensored points; only its sign and rough size are meaningful
    (C23).

    Parameters
    ----------
    lp_dims : sequence of int, optional
        Dimensions for the LP scans, each >= 2 (d <= 12 keeps each instance under a second).
    lp_alphas : float or sequence of float
        Loads of the LP scans (required with ``lp_dims``; checked whenever given).
    ce_dims : sequence of int, optional
        Dimensions for the training scans, each >= 2.
    ce_alphas : float or sequence of float
        Loads of the training scans (required with ``ce_dims``; checked whenever given).
    instances, reps : int, optional
        LP instances and training repetitions per load, >= 1.
    problem : {"original", "decoupled"}, optional
        Eq. (1) or eq. (2).
    seed : int, optional
        Base seed, >= 0.
    p_curve : array_like of int, optional
        Values of p >= 2 for the estimates (default 25 values from 10 to 10⁶, log spaced).
    samples : int, optional
        Monte-Carlo samples per p for :func:`finite_p_capacity_mc`, >= 2.

    Returns
    -------
    FiniteSizeScaling
    """
    lp_dims = _check_dim_list(lp_dims, "lp_dims")
    ce_dims = _check_dim_list(ce_dims, "ce_dims")
    if not lp_dims and not ce_dims:
        raise ValueError("lp_dims and ce_dims must not both be empty")
    if lp_dims and lp_alphas is None:
        raise ValueError("lp_alphas must be given with lp_dims")
    if ce_dims and ce_alphas is None:
        raise ValueError("ce_alphas must be given with ce_dims")
    lp_grid = None if lp_alphas is None else np.sort(_check_grid(lp_alphas, "lp_alphas"))
    ce_grid = None if ce_alphas is None else np.sort(_check_grid(ce_alphas, "ce_alphas"))
    instances = check_positive_int(instances, "instances", minimum=1, maximum=MAX_STEPS)
    reps = check_positive_int(reps, "reps", minimum=1, maximum=MAX_STEPS)
    kind = _check_kind(problem)
    seed = check_positive_int(seed, "seed", minimum=0)
    if p_curve is None:
        p_curve = np.unique(np.round(np.geomspace(10, 1e6, 25)).astype(int))
    p_curve = _check_p_values(p_curve, "p_curve")
    samples = check_positive_int(samples, "samples", minimum=2)
    for d in lp_dims:
        _lp_grid_p(lp_grid, d, kind, "lp_alphas")
    for d in ce_dims:
        _grid_p(ce_grid, d, kind, "ce_alphas")
    lp_scans = tuple(
        lp_threshold_scan(d, lp_grid, instances=instances, problem=kind, seed=seed) for d in lp_dims
    )
    ce_scan = (
        threshold_scan(ce_dims, ce_grid, reps=reps, problem=kind, seed=seed) if ce_dims else None
    )
    rows = [("LP", s.d, *_lp_point(s)) for s in lp_scans]
    if ce_scan is not None:
        rows += [
            ("CE", d, *pt) for d, pt in zip(ce_scan.d.tolist(), _ce_points(ce_scan), strict=True)
        ]
    method = tuple(r[0] for r in rows)
    d_arr = np.array([r[1] for r in rows])
    alpha_c = np.array([r[2] for r in rows])
    p_arr = np.array([r[3] for r in rows])
    censored = np.array([r[4] for r in rows], dtype=bool)
    use = ~censored & (alpha_c > 0.5)
    slope, intercept = _fit_line(
        np.log(np.log(p_arr[use].astype(float))), np.log(alpha_c[use] - 0.5)
    )
    limit = finite_p_capacity_mc(p_curve, samples=samples, rng=seed)
    return FiniteSizeScaling(
        label=tuple(f"{m} d = {d}" for m, d in zip(method, d_arr.tolist(), strict=True)),
        method=method,
        d=d_arr,
        p=p_arr,
        alpha_c=alpha_c,
        censored=censored,
        slope=slope,
        intercept=intercept,
        p_curve=limit.p,
        alpha_step=limit.alpha_c_step,
        limit=limit,
        lp_scans=lp_scans,
        ce_scan=ce_scan,
    )
