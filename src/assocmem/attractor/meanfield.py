"""Population theory of attractor stability for dense (and sparse) graded patterns.

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks*. "note §" refers to ``shared/notes/03-attractor-stability.md``.

Notation map
------------
- CV, σ, n, θ (pattern CV, smoothness, exponent, threshold) -> ``cv``, ``sigma``, ``n``, ``theta``
- α = P/N (load)                                             -> ``alpha``
- u = g⁻¹(r), d(r) = g'(g⁻¹(r)), φ(r) = d(r)(u(r) + θ)     -> internal quadrature arrays
- c_rr, c_rf, c_ff, c_rφ (Eqs. 10-15)                       -> ``c_rr``, ``c_rf``, ``c_ff``,
  ``c_rphi``
- disc centre −1 + c_rf/c_rr, radius k √(α/(1−α))           -> ``center``, ``radius_coef``
- λ_ave, λ_mem, τ_mem (Eqs. 12, 15, 14)                     -> ``lambda_ave``, ``lambda_mem``,
  ``tau_mem``
- θ*_bulk (Eq. 16)                                           -> ``theta_star``
- α_S^bulk, α_S (Eqs. 11, 19)                                -> ``alpha_s_bulk``, ``alpha_s``
- Gaussian ensemble σ_x, σ_y, τ, c (Eqs. 21-23)              -> ``sigma_x``, ``sigma_y``,
  ``rho_xy``, ``c``. The paper's correlation τ is renamed ``rho_xy`` because τ is also the time
  constant and τ_mem (note pitfall 1).
- sparseness f, replica order parameter θ₀ (appendix)        -> ``f``, ``theta0``

Conventions
-----------
All expectations over one log-normal rate r (mean 1, coefficient of variation CV) are computed
with probabilists' Gauss-Hermite quadrature, 201 nodes, weights normalised to sum 1 (note §2.8).
σ = 0 is allowed and means the hard-rectified power law (g⁻¹(r) = r^{1/n}, d = n r^{(n−1)/n});
its gain diverges at r → 0 for n < 1 but every log-normal moment stays finite. The linear,
noiseless corner (n = 1, σ → 0) is a 0/0: it is guarded as note §2.8 prescribes and gives α_S = 0
(a linear network is marginal, note pitfall 9). Eigenvalues are in units of 1/τ (τ = 1).

Public functions
----------------
``theory`` (result ``StabilityTheory``), ``phase_diagram`` (result ``PhaseDiagram``),
``ensemble_disc`` (result ``EnsembleDisc``), ``ensemble_alpha_s``, ``sparse_capacity``
(result ``SparseCapacity``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from scipy.optimize import brentq
from scipy.special import ndtr

from assocmem._validation import (
    MAX_ELEMENTS,
    as_real_array,
    as_real_vector,
    check_beta,
    check_finite_float,
    check_fraction,
    check_nonneg_float,
    check_size,
)
from assocmem.attractor.rates import EXPONENT_MAX, check_cv, check_exponent

__all__ = [
    "EnsembleDisc",
    "PhaseDiagram",
    "SparseCapacity",
    "StabilityTheory",
    "ensemble_alpha_s",
    "ensemble_disc",
    "phase_diagram",
    "sparse_capacity",
    "theory",
]

_N_NODES = 201
_TAU_MEM_CUT = 0.9  # Eq. 19: ad hoc cut on τ_mem
_GUARD_REL = 1e-10  # note §2.8: 0/0 guard relative to c_rr²


def _nodes() -> tuple[np.ndarray, np.ndarray]:
    z, w = hermegauss(_N_NODES)
    return z, w / w.sum()


def _check_load(alpha: Any) -> np.ndarray:
    """α as a float array in [0, 1); the message names ``alpha``, the value and the range."""
    a = as_real_array(alpha, "alpha", min_size=0, xp=np)
    bad = (a < 0) | (a >= 1)
    if bool(np.any(bad)):
        raise ValueError(f"alpha must lie in [0, 1), got {a[bad].ravel()[0]!r}")
    return a


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StabilityTheory:
    """Population theory of the Jacobian spectrum at a stored dense pattern (Eqs. 6-19).

    Attributes
    ----------
    cv, sigma, n, theta : float
        Pattern CV, smoothness σ, exponent n and the threshold θ used.
    theta_star : float
        θ*_bulk = −⟨g⁻¹(r)⟩, the threshold minimising c_ff (Eq. 16).
    mean_r, mean_u, var_u, cov_ru : float
        ⟨r⟩ (= 1), ⟨u⟩, Var u and Cov(r, u) with u = g⁻¹(r).
    mean_d, mean_d2, cov_rd, cov_rdu : float
        ⟨d⟩, ⟨d²⟩, Cov(r, d) and Cov(r, d u) with d = g'(g⁻¹(r)).
    var_phi : float
        Var φ, φ = d (u + θ).
    c_rr, c_rf, c_ff, c_rphi : float
        Entry statistics of the paired ensemble (note §2.3) and c_rφ = Cov(r, φ) (Eq. 15).
    center, radius_coef : float
        Disc centre −1 + c_rf/c_rr and k = √(c_rr c_ff − c_rf²)/c_rr (Eq. 10).
    lambda_ave, lambda_mem, tau_mem : float
        Outliers along the uniform vector (Eq. 12) and the pattern (Eq. 15); τ_mem is the
        population correlation of r and φ(r) (Eq. 14).
    alpha_s_bulk, alpha_s : float
        Critical loads of Eq. 11 and Eq. 19.
    guarded : bool
        True when the note §2.8 0/0 guard fired (α_S^bulk set to 0).
    """

    cv: float
    sigma: float
    n: float
    theta: float
    theta_star: float
    mean_r: float
    mean_u: float
    var_u: float
    cov_ru: float
    mean_d: float
    mean_d2: float
    cov_rd: float
    cov_rdu: float
    var_phi: float
    c_rr: float
    c_rf: float
    c_ff: float
    c_rphi: float
    center: float
    radius_coef: float
    lambda_ave: float
    lambda_mem: float
    tau_mem: float
    alpha_s_bulk: float
    alpha_s: float
    guarded: bool

    def bulk_edge(self, alpha: Any) -> Any:
        """Right edge of the bulk disc, λ_bulk(α) = centre + k √(α/(1−α)) (Eq. 10).

        Parameters
        ----------
        alpha : float or array_like
            Load(s) α in [0, 1).

        Returns
        -------
        float or numpy.ndarray
            λ_bulk, same shape as ``alpha``; it crosses 0 at α = ``alpha_s_bulk``.
        """
        a = _check_load(alpha)
        out = self.center + self.radius_coef * np.sqrt(a / (1.0 - a))
        return float(out) if out.ndim == 0 else out

    def row_norm_sq(self, alpha: Any) -> Any:
        """Squared row norm N⟨W²⟩ = (α/(1−α)) Var g⁻¹(r) / Var r (Eq. 6, zero-diagonal W).

        ``alpha`` is as in :meth:`bulk_edge`; the result has its shape and diverges as α → 1
        (Fig. 1c inset).
        """
        a = _check_load(alpha)
        out = a / (1.0 - a) * self.var_u / self.c_rr
        return float(out) if out.ndim == 0 else out

    @property
    def row_sum(self) -> float:
        """Row sum N⟨W⟩ = (θ + ⟨g⁻¹(r)⟩)/⟨r⟩ (Eq. 7); independent of α, 0 at θ = θ*_bulk."""
        return (self.theta + self.mean_u) / self.mean_r

    def theta_bounds(self) -> tuple[float, float]:
        """Open interval of thresholds with λ_ave < 0 and λ_mem < 0 (Eqs. 17, 18 corrected).

        Notes
        -----
        Eq. 17: θ < −⟨g⁻¹(r)⟩ + ⟨r⟩/⟨d⟩ (λ_ave < 0). Eq. 18 is printed without its "<"; we use
        the form re-derived from c_rφ < c_rr with c_rφ = Cov(r, d u) + θ Cov(r, d)
        (note §2.5): Cov(r, d) θ < Var r − Cov(r, d u). The other statistics are held at their
        values for the θ of this result (λ_ave and λ_mem are affine in θ).

        Returns
        -------
        tuple of float
            (lo, hi); ``lo`` may be −inf, ``hi`` +inf. The set is empty when lo >= hi.
        """
        lo, hi = -math.inf, -self.mean_u + self.mean_r / self.mean_d
        rhs = self.c_rr - self.cov_rdu
        if self.cov_rd > 0:
            hi = min(hi, rhs / self.cov_rd)
        elif self.cov_rd < 0:
            lo = rhs / self.cov_rd
        elif rhs <= 0:
            lo, hi = math.inf, -math.inf
        return lo, hi


@dataclass(frozen=True)
class PhaseDiagram:
    """The (n, σ) phase diagram of the critical load at θ = θ*_bulk (Fig. 3).

    Attributes
    ----------
    cv : float
        Pattern CV.
    n : numpy.ndarray, shape (A,)
        Exponents (rows).
    sigma : numpy.ndarray, shape (B,)
        Smoothness values (columns).
    alpha_s, alpha_s_bulk, lambda_mem, lambda_ave, tau_mem, theta : numpy.ndarray, shape (A, B)
        Eq. 19, Eq. 11, Eq. 15, Eq. 12, Eq. 14 and θ*_bulk (Eq. 16) at every grid point.
    """

    cv: float
    n: np.ndarray
    sigma: np.ndarray
    alpha_s: np.ndarray
    alpha_s_bulk: np.ndarray
    lambda_mem: np.ndarray
    lambda_ave: np.ndarray
    tau_mem: np.ndarray
    theta: np.ndarray

    @property
    def optimum(self) -> tuple[float, float, float]:
        """(α_S*, n*, σ*): the grid maximum of α_S (first one in row-major order on ties)."""
        i, j = np.unravel_index(int(np.argmax(self.alpha_s)), self.alpha_s.shape)
        return float(self.alpha_s[i, j]), float(self.n[i]), float(self.sigma[j])


@dataclass(frozen=True)
class EnsembleDisc:
    """Spectrum of M = −cI + X Y† for the Gaussian paired pseudo-inverse ensemble (Eqs. 21-22).

    Attributes
    ----------
    alpha, sigma_x, sigma_y, rho_xy, c : float
        Load, entry scales, entry correlation (the paper's τ) and the diagonal shift.
    center : float
        Disc centre −c + ρ σ_x/σ_y.
    radius : float
        (σ_x/σ_y) √(1−ρ²) √(α/(1−α)).
    lambda_plus, lambda_minus : float
        Extreme real parts centre ± radius (Eq. 22).
    """

    alpha: float
    sigma_x: float
    sigma_y: float
    rho_xy: float
    c: float
    center: float
    radius: float
    lambda_plus: float
    lambda_minus: float


@dataclass(frozen=True)
class SparseCapacity:
    """Replica capacity of the min-norm network storing sparse patterns (appendix).

    Attributes
    ----------
    f : float
        Sparseness (fraction of non-zero rates).
    theta0_c : float
        The order parameter θ₀ at capacity (root of f t + (1−f)(t H(t) − h(t))).
    alpha_c : float
        α_C(f); 1 at f = 1, ≈ 1/(2 f ln(1/f)) as f → 0.
    """

    f: float
    theta0_c: float
    alpha_c: float


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def theory(cv: float, sigma: float, n: float, theta: float | None = None) -> StabilityTheory:
    """Population theory of stability at a dense pattern: Eqs. 6, 7, 10-16 and 19.

    Notes
    -----
    The recipe of note §2.8. With u = g⁻¹(r), d = n r^{(n−1)/n}(1 − e^{−π r^{1/n}/σ}) and
    φ = d (u + θ), averaged over one log-normal r:
    c_rr = Var r, c_rf = ⟨d⟩ Cov(r, u), c_ff = ⟨d²⟩ Var u + Var d (⟨u⟩ + θ)², c_rφ = Cov(r, φ).
    Bulk edge λ_bulk = −1 + c_rf/c_rr + √(α/(1−α)(c_rr c_ff − c_rf²))/c_rr (Eq. 10);
    α_S^bulk = max(0, c_rr − c_rf)² / (c_rr c_ff − c_rf² + (c_rr − c_rf)²) (Eq. 11);
    λ_ave = −1 + ⟨d⟩(θ + ⟨u⟩)/⟨r⟩ (Eq. 12); λ_mem = −1 + c_rφ/c_rr (Eq. 15);
    τ_mem = c_rφ/√(c_rr Var φ) (Eq. 14, population form);
    α_S = α_S^bulk Θ(−λ_mem) Θ(−λ_ave) Θ(τ_mem − 0.9) (Eq. 19).

    Guard (note §2.8): when both (c_rr − c_rf)² and |c_rr c_ff − c_rf²| are below 1e−10 c_rr²
    (n ≈ 1 with σ ≲ 0.05, a 0/0 of rounding errors), α_S^bulk is set to 0, the limit for a
    marginal linear network.

    Parameters
    ----------
    cv : float
        Coefficient of variation of the log-normal rates (mean 1), in (0, 1e6]
        (``rates.CV_MAX``: the quadrature is exact there).
    sigma : float
        Smoothness σ >= 0 (σ = 0: hard-rectified power law), finite. For large σ the
        statistics that grow like σ or σ² (⟨u⟩, Var u, ...) may be ±inf, their true limits.
    n : float
        Exponent n in (0, 100] (``rates.EXPONENT_MAX``).
    theta : float, optional
        Threshold θ; default θ*_bulk = −⟨g⁻¹(r)⟩ (Eq. 16).

    Returns
    -------
    StabilityTheory

    References
    ----------
    Cohen and Lengyel, Eqs. 6-19; note §2.3-§2.9.

    Examples
    --------
    Note §2.9, first table, CV = σ = n = 1:

    >>> t = theory(1.0, 1.0, 1.0)
    >>> round(t.theta, 4), round(t.alpha_s, 4)
    (-0.9271, 0.3017)
    >>> abs(t.bulk_edge(t.alpha_s)) < 1e-12
    True
    """
    cv = check_cv(cv)
    sigma = check_nonneg_float(sigma, "sigma")
    n = check_exponent(n)
    if theta is not None:
        theta = check_finite_float(theta, "theta")
    m = _moments(cv, np.array(sigma), np.array(n), None if theta is None else np.array(theta))
    vals = {k: (bool(v) if k == "guarded" else float(v)) for k, v in m.items()}
    return StabilityTheory(cv=cv, sigma=sigma, n=n, **vals)


def phase_diagram(cv: float, n_grid: Any, sigma_grid: Any) -> PhaseDiagram:
    """α_S, α_S^bulk, λ_mem, λ_ave and τ_mem over an (n, σ) grid at θ = θ*_bulk (Fig. 3).

    Notes
    -----
    The recipe of :func:`theory`, vectorised over an (n, σ, node) array: no Python loop per grid
    point. The note's grid (n in [0.5, 2] step 0.01, σ in [0.05, 10] at 53 log-spaced points)
    takes well under a second; the optimum lies on the λ_mem = 0 border (note §2.9).

    Parameters
    ----------
    cv : float
        Coefficient of variation, in (0, 1e6].
    n_grid : array_like, shape (A,)
        Exponents, each in (0, 100].
    sigma_grid : array_like, shape (B,)
        Smoothness values, each finite and >= 0.

    Raises
    ------
    ValueError
        If the grid needs more than ``MAX_ELEMENTS`` quadrature values (A × B × 201).

    Returns
    -------
    PhaseDiagram
        Arrays of shape (A, B); entry [i, j] equals ``theory(cv, sigma_grid[j], n_grid[i])``.

    Examples
    --------
    >>> pd = phase_diagram(1.0, [1.0, 1.5], [1.0])
    >>> [round(float(a), 4) for a in pd.alpha_s[:, 0]]  # note §2.9: 0.3017 and 0 (λ_mem > 0)
    [0.3017, 0.0]
    """
    cv = check_cv(cv)
    n_arr = as_real_vector(n_grid, "n_grid", 0.0, EXPONENT_MAX, open_lo=True)
    s_arr = as_real_vector(sigma_grid, "sigma_grid", 0.0)
    check_size(
        n_arr.size * s_arr.size * _N_NODES,
        "n_grid",
        "quadrature values (len(n_grid) * len(sigma_grid) * 201)",
        MAX_ELEMENTS,
        "use coarser grids",
    )
    m = _moments(cv, s_arr[None, :], n_arr[:, None], None)
    fields = ("alpha_s", "alpha_s_bulk", "lambda_mem", "lambda_ave", "tau_mem", "theta")
    return PhaseDiagram(cv=cv, n=n_arr, sigma=s_arr, **{k: m[k] for k in fields})


def ensemble_disc(
    alpha: float, sigma_x: float, sigma_y: float, rho_xy: float, c: float = 1.0
) -> EnsembleDisc:
    """Support of the spectrum of −cI + X Y† for Gaussian paired entries (Eqs. 21-22).

    Notes
    -----
    X, Y are N × P with i.i.d. pairs (x, y) of variances σ_x², σ_y² and correlation ρ (the
    paper's τ), α = P/N < 1. The P non-trivial eigenvalues fill the disc (Eq. 21)
    (Re λ + c − ρ σ_x/σ_y)² + (Im λ)² <= (σ_x²/σ_y²)(1 − ρ²) α/(1−α); the other N − P sit at −c.
    λ± = −c + (σ_x/σ_y)(ρ ± √(α/(1−α)) √(1−ρ²)) (Eq. 22).

    Parameters
    ----------
    alpha : float
        Load in [0, 1).
    sigma_x, sigma_y : float
        Entry standard deviations, > 0.
    rho_xy : float
        Entry correlation in [−1, 1].
    c : float, optional
        Diagonal shift, finite (the Jacobian has c = 1).

    Returns
    -------
    EnsembleDisc

    Examples
    --------
    Uncorrelated entries at α = 1/2 give a disc of radius σ_x/σ_y around −c:

    >>> e = ensemble_disc(0.5, 1.0, 2.0, 0.0)
    >>> e.center, e.radius, e.lambda_plus
    (-1.0, 0.5, -0.5)
    """
    a = float(_check_load(check_finite_float(alpha, "alpha")))
    sx, sy = check_beta(sigma_x, "sigma_x"), check_beta(sigma_y, "sigma_y")
    rho = _correlation(rho_xy)
    c = check_finite_float(c, "c")
    center = -c + rho * sx / sy
    radius = sx / sy * math.sqrt(1.0 - rho * rho) * math.sqrt(a / (1.0 - a))
    return EnsembleDisc(a, sx, sy, rho, c, center, radius, center + radius, center - radius)


def ensemble_alpha_s(sigma_x: float, sigma_y: float, rho_xy: float, c: float = 1.0) -> float:
    """Stability transition of the Gaussian ensemble, where λ₊ of Eq. 22 crosses 0 (Eq. 23).

    Notes
    -----
    α_S = max(0, c σ_y² − ρ σ_x σ_y)² / (σ_x² σ_y² (1 − ρ²) + (c σ_y² − ρ σ_x σ_y)²) (Eq. 23).
    When c σ_y² <= ρ σ_x σ_y the centre is already >= 0 and α_S = 0 (the paper: "no solution").

    Parameters
    ----------
    sigma_x, sigma_y : float
        Entry standard deviations, > 0.
    rho_xy : float
        Entry correlation in [−1, 1].
    c : float, optional
        Diagonal shift, finite.

    Returns
    -------
    float
        α_S in [0, 1].

    Examples
    --------
    >>> ensemble_alpha_s(1.0, 2.0, 0.0)  # centre −1, radius (1/2)√(α/(1−α)) -> α_S = 4/5
    0.8
    """
    sx, sy = check_beta(sigma_x, "sigma_x"), check_beta(sigma_y, "sigma_y")
    rho = _correlation(rho_xy)
    c = check_finite_float(c, "c")
    # Divided through by σ_y² b² (so no product leaves the float range): with b = c σ_y − ρ σ_x,
    # α_S = 1 / (1 + (σ_x √(1−ρ²) / b)²) for b > 0, else 0. ρ σ_x <= σ_x is finite; c σ_y = ±inf
    # gives the limits 1 and 0.
    b = c * sy - rho * sx
    if not b > 0.0:  # the centre is already >= 0 (a point at or right of 0 when ρ = ±1)
        return 0.0
    t = sx * math.sqrt(max(0.0, 1.0 - rho * rho)) / b
    return 1.0 / (1.0 + t * t) if t < 1e150 else 0.0


def sparse_capacity(f: float) -> SparseCapacity:
    """Replica capacity α_C(f) of the min-norm network for sparse patterns (appendix).

    Notes
    -----
    At capacity (q → ∞) the self-consistent equations reduce to
    0 = f θ₀ + (1−f)(θ₀ H(θ₀) − h(θ₀)) and
    α_C⁻¹ = f θ₀² + f + (1−f)((θ₀² + 1) H(θ₀) − θ₀ h(θ₀)), h the standard normal density and
    H its upper tail. The first function of t is strictly increasing (derivative
    f + (1−f) H(t) > 0); its root is found with ``brentq`` on [−20, 40] (note §2.1). α_C depends
    only on f: not on CV, θ, σ, n or N.

    Parameters
    ----------
    f : float
        Sparseness, the fraction of non-zero rates, in (0, 1].

    Returns
    -------
    SparseCapacity

    Examples
    --------
    Dense patterns store up to N of them; note §2.1 table, f = 0.5:

    >>> sparse_capacity(1.0).alpha_c
    1.0
    >>> round(sparse_capacity(0.5).alpha_c, 4)
    1.4375
    """
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    if f == 1.0:
        return SparseCapacity(f=1.0, theta0_c=0.0, alpha_c=1.0)

    def h(t: float) -> float:
        return math.exp(-0.5 * t * t) / math.sqrt(2.0 * math.pi)

    def upper(t: float) -> float:
        return float(ndtr(-t))

    t0 = brentq(lambda t: f * t + (1.0 - f) * (t * upper(t) - h(t)), -20.0, 40.0, xtol=1e-14)
    inv = f * t0 * t0 + f + (1.0 - f) * ((t0 * t0 + 1.0) * upper(t0) - t0 * h(t0))
    return SparseCapacity(f=f, theta0_c=float(t0), alpha_c=1.0 / inv)


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


def _correlation(rho: Any) -> float:
    return check_fraction(rho, "rho_xy", -1.0, 1.0, open_lo=False, open_hi=False)


def _moments(cv: float, sigma: np.ndarray, n: np.ndarray, theta: np.ndarray | None) -> dict:
    """Note §2.8 steps 1-10 on broadcast arrays ``sigma``, ``n`` (shape S); nodes on a new axis.

    g⁻¹ and d are evaluated in log space (note §1.2, pitfall 9): with ln x = ln(π/σ) + ln(r)/n,
    L = ln(1 − e^{−x}) (≈ ln x for tiny x), u = r^{1/n} + (σ/π) L and
    d = exp(ln n + ((n−1)/n) ln r + L). σ = 0 gives L = 0 (hard-rectified power law).

    For σ > π the statistics are computed from u/s and d·s with s = σ/π (both O(1) however
    large σ is): c_rf, c_ff, c_rφ, Var φ, λ_ave and λ_mem do not depend on s, so they stay
    finite where u² or d² would leave the float range; the reported ⟨u⟩, Var u, ... are scaled
    back and may be ±inf or 0 (their true limits). For σ <= π, s = 1 and nothing changes.
    """
    z, w = _nodes()
    s2 = math.log1p(cv * cv)
    ln_r = -0.5 * s2 + math.sqrt(s2) * z  # step 1, shape (K,)
    sig = np.asarray(sigma, dtype=float)[..., None]
    nn = np.asarray(n, dtype=float)[..., None]
    k = np.where(sig > 0, sig / np.pi, 0.0)
    sc = np.maximum(k, 1.0)  # the scale s of the docstring; 1 for σ <= π
    with np.errstate(divide="ignore", over="ignore", invalid="ignore", under="ignore"):
        ln_x = np.log(np.pi) - np.log(sig) + ln_r / nn
        x = np.exp(np.minimum(ln_x, 700.0))
        big_l = np.where(ln_x < -30.0, ln_x, np.log(-np.expm1(-x)))
        u = np.exp(ln_r / nn) / sc + (k / sc) * big_l  # step 2, u/s
        d = np.exp(np.log(nn) + (nn - 1.0) / nn * ln_r + big_l + np.log(sc))  # d·s
        r = np.exp(ln_r)
        return _statistics(r, u, d, sc[..., 0], w, theta)


def _statistics(
    r: np.ndarray, u: np.ndarray, d: np.ndarray, sc: np.ndarray, w: np.ndarray, theta: Any
) -> dict:
    """Steps 3-10 of note §2.8 from u/s and d·s on the nodes (see :func:`_moments`)."""

    def mean(a: np.ndarray) -> np.ndarray:  # step 3: E[.] = sum_k w_k (.)
        return a @ w

    e_r = float(w @ r)
    dr = r - e_r
    e_u, e_d = mean(u), mean(d)
    du, dd = u - e_u[..., None], d - e_d[..., None]
    var_u, var_d = mean(du * du), mean(dd * dd)
    cov_ru = mean(du * dr)
    cov_rd = mean(dd * dr)
    du_prod = d * u
    cov_rdu = mean((du_prod - mean(du_prod)[..., None]) * dr)
    th_s = -e_u if theta is None else np.broadcast_to(theta, e_u.shape).astype(float) / sc
    # Step 4, φ/q with q a power of two >= |θ/s| (exact scaling): for a huge θ, φ ≈ θ d would
    # leave the float range, while τ_mem has the finite limit Cov(r, d)/√(c_rr Var d).
    _, expo = np.frexp(np.abs(th_s))
    q = np.where(np.abs(th_s) > 1.0, np.ldexp(1.0, expo), 1.0)
    phi = d * ((u + th_s[..., None]) / q[..., None])
    dphi = phi - mean(phi)[..., None]
    var_phi_q = mean(dphi * dphi)
    c_rr = float(w @ (dr * dr))  # step 5
    c_rf = e_d * cov_ru
    mean_d2 = mean(d * d)
    c_ff = mean_d2 * var_u + var_d * (e_u + th_s) ** 2
    c_rphi_q = mean(dphi * dr)
    var_phi, c_rphi = var_phi_q * q * q, c_rphi_q * q
    det = c_rr * c_ff - c_rf * c_rf
    gap = c_rr - c_rf
    guarded = (gap * gap < _GUARD_REL * c_rr**2) & (np.abs(det) < _GUARD_REL * c_rr**2)
    center = -1.0 + c_rf / c_rr  # step 6
    radius = np.sqrt(np.maximum(det, 0.0)) / c_rr
    pos = np.maximum(gap, 0.0)
    a_bulk = np.where(guarded | (pos == 0.0), 0.0, pos * pos / (det + gap * gap))  # step 8
    tau_mem = c_rphi_q / np.sqrt(c_rr * var_phi_q)  # step 9 (q-free)
    lam_ave = -1.0 + e_d * (th_s + e_u) / e_r
    lam_mem = -1.0 + c_rphi / c_rr
    ok = (lam_mem < 0) & (lam_ave < 0) & (tau_mem > _TAU_MEM_CUT)
    a_s = np.where(ok, a_bulk, 0.0)  # step 10, Eq. 19
    return {
        "theta": th_s * sc if theta is None else np.broadcast_to(theta, e_u.shape).astype(float),
        "theta_star": -e_u * sc,
        "mean_r": np.full_like(e_u, e_r),
        "mean_u": e_u * sc,
        "var_u": var_u * sc * sc,
        "cov_ru": cov_ru * sc,
        "mean_d": e_d / sc,
        "mean_d2": mean_d2 / (sc * sc),
        "cov_rd": cov_rd / sc,
        "cov_rdu": cov_rdu,
        "var_phi": var_phi,
        "c_rr": np.full_like(e_u, c_rr),
        "c_rf": c_rf,
        "c_ff": c_ff,
        "c_rphi": c_rphi,
        "center": center,
        "radius_coef": radius,
        "lambda_ave": lam_ave,
        "lambda_mem": lam_mem,
        "tau_mem": tau_mem,
        "alpha_s_bulk": a_bulk,
        "alpha_s": a_s,
        "guarded": guarded,
    }
