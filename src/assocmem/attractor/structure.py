"""The model and its minimum-norm weights: activation, patterns, row statistics, non-normality.

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks*. "note §" refers to ``shared/notes/03-attractor-stability.md`` (§1.2, §1.4,
§1.5, §2.1, §2.7, §3.3 "Weights", "Non-normality" and "Dynamics"; pitfalls 2, 3, 9, 10, 16).

Notation map
------------
==============================  ===============================  ==============================
paper                           code                             meaning
==============================  ===============================  ==============================
g (Eq. 3), g'                   ``ActivationCurves.g, slope``    soft-rectified power law
⟨⌊v + σz⌋₊ⁿ⟩, z ~ N(0, 1)       ``ActivationCurves.noisy``       the noisy-voltage story of Eq. 3
CV, f                           ``cv``, ``f``                    log-normal patterns (mean 1)
N⟨W⟩, N⟨W²⟩ (Eqs. 7, 6)         ``row_sum``, ``row_norm_sq``     mean row sum, mean row norm²
ρ = Var u/Var r                 ``pinv_row_norm_sq``             [derived] norm of Eq. 8 weights
β = Cov(r, u)/Var r             ``pinv_self_coupling``           [derived] W_ii ≈ αβ (Eq. 8)
asymmetry index (Details)       ``asymmetry_index``              ‖W_asym‖/(‖W_sym‖ + ‖W_asym‖)
Henrici index (Details)         ``henrici_departure``            √(‖J‖² − Σ|λ|²)/‖J‖ (relative)
==============================  ===============================  ==============================

u = g⁻¹(r). The threshold θ enters as W r − θ (Eq. 2), so θ*_bulk = −⟨u⟩ (Eq. 16) makes the mean
weight 0. Eigenvalues are in units of 1/τ (τ = 1).

Public functions
----------------
activation_curves (Eq. 3 against the Gaussian-noise average it approximates),
lognormal_density and pattern_density (note §1.4, Fig. 1f, Fig. 5a),
asymmetry_index, henrici_departure (Details, note §2.7),
weight_statistics (one network), weight_load_sweep (Fig. 1b,c,e,j), weight_snapshot (exploration),
pinv_row_norm_sq, pinv_self_coupling ([derived], note §3.3),
recall_demo (a fixed point that is or is not an attractor, note §3.3 "Dynamics").
Result types: ActivationCurves, PatternDensity, WeightStatistics, WeightSweep, WeightSnapshot,
RecallDemo.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from scipy.special import gammaln, pbdv

from assocmem._validation import (
    MAX_ELEMENTS,
    _as_real_array,
    as_real_vector,
    as_rng,
    check_beta,
    check_bool,
    check_finite_float,
    check_fraction,
    check_instance,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.attractor.meanfield import StabilityTheory, _check_load, theory
from assocmem.attractor.network import (
    Network,
    Trajectory,
    _build,
    _check_steps,
    jacobian_spectrum,
    simulate,
)
from assocmem.attractor.rates import (
    _g,
    _g_inverse,
    _gain,
    _sample,
    _slope,
    check_cv,
    check_exponent,
)
from assocmem.backend import to_numpy

__all__ = [
    "ActivationCurves",
    "PatternDensity",
    "RecallDemo",
    "WeightSnapshot",
    "WeightStatistics",
    "WeightSweep",
    "activation_curves",
    "asymmetry_index",
    "henrici_departure",
    "lognormal_density",
    "pattern_density",
    "pinv_row_norm_sq",
    "pinv_self_coupling",
    "recall_demo",
    "weight_load_sweep",
    "weight_snapshot",
    "weight_statistics",
]

_GH_NODES = 201
_PBDV_MAX = 8.0  # above v/σ = 8 the Gauss-Hermite average is exact enough (kink weight < 1e-15)
_DIRECTIONS = ("pattern", "random")


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ActivationCurves:
    """Eq. 3 on a voltage grid, next to the Gaussian-noise average it approximates.

    Attributes
    ----------
    sigma, n : float
        Smoothness σ and exponent n.
    v : ndarray, shape (k,)
        Voltages.
    g, slope : ndarray, shape (k,)
        g(v) of Eq. 3 and its derivative g'(v).
    noisy : ndarray, shape (k,)
        ⟨⌊v + σz⌋₊ⁿ⟩ over z ~ N(0, 1), the noisy hard-rectified power law (exact integral).
    hard : ndarray, shape (k,)
        ⌊v⌋₊ⁿ, the σ = 0 limit.
    """

    sigma: float
    n: float
    v: np.ndarray
    g: np.ndarray
    slope: np.ndarray
    noisy: np.ndarray
    hard: np.ndarray


@dataclass(frozen=True, eq=False)
class PatternDensity:
    """Analytic density of log-normal (optionally sparse) rates and a histogram of a sample.

    Attributes
    ----------
    cv, f : float
        Coefficient of variation of the non-zero rates and the fraction f of non-zero rates.
    r : ndarray, shape (k,)
        Log-spaced rates where ``pdf`` is evaluated.
    pdf : ndarray, shape (k,)
        f × the log-normal density (the continuous part; the rest, 1 − f, is a point mass at 0).
    centers, density : ndarray, shape (b,)
        Histogram of the positive entries of one ``sample_patterns`` draw on log-spaced bins,
        normalised like ``pdf`` (it integrates to the sampled fraction of non-zero rates).
    zero_fraction : float
        Sampled fraction of rates exactly 0 (≈ 1 − f).
    sample_mean, sample_cv : float
        Mean and CV of all sampled entries (mean ≈ f; ≈ 1 and ``cv`` when f = 1).
    """

    cv: float
    f: float
    r: np.ndarray
    pdf: np.ndarray
    centers: np.ndarray
    density: np.ndarray
    zero_fraction: float
    sample_mean: float
    sample_cv: float


@dataclass(frozen=True)
class WeightStatistics:
    """Row statistics and non-normality of one network (result of :func:`weight_statistics`).

    Attributes
    ----------
    N, P : int
        Neurons and patterns; ``alpha`` = P/N.
    zero_diag : bool
        True for Eq. 20 weights, False for Eq. 8.
    theta : float
        Threshold used.
    row_sum : float
        N⟨W⟩, the mean over rows of Σ_j W_ij (Eq. 7).
    row_norm_sq : float
        N⟨W²⟩, the mean over rows of Σ_j W_ij² (Eq. 6 for zero-diagonal weights).
    mean_diag : float
        Mean self-coupling ⟨W_ii⟩ (0 for Eq. 20, ≈ αβ for Eq. 8).
    fixed_point_error : float
        max |g(W R − θ) − R| over all neurons and patterns.
    asymmetry : float
        Asymmetry index of W (:func:`asymmetry_index`).
    henrici : float
        Relative Henrici departure of J_μ at pattern ``pattern`` (NaN when not computed).
    pattern : int
        Pattern μ of the Jacobian.
    """

    N: int
    P: int
    zero_diag: bool
    theta: float
    row_sum: float
    row_norm_sq: float
    mean_diag: float
    fixed_point_error: float
    asymmetry: float
    henrici: float
    pattern: int

    @property
    def alpha(self) -> float:
        """Load α = P/N."""
        return self.P / self.N


@dataclass(frozen=True, eq=False)
class WeightSweep:
    """Measured row statistics over the load next to the theory (result of
    :func:`weight_load_sweep`).

    Attributes
    ----------
    N : int
        Neurons.
    cv, sigma, n, theta_shift : float
        Pattern CV, activation parameters and θ − θ*_bulk.
    zero_diag : bool
        Weight rule measured (Eq. 20 if True, Eq. 8 if False).
    alphas : ndarray, shape (k,)
        Loads P/N actually used (P = round(α N)).
    row_sum, row_norm_sq, mean_diag, fixed_point_error, asymmetry, henrici : ndarray, shape (k,)
        :class:`WeightStatistics` fields per load (``henrici`` NaN when not computed).
    row_sum_eq7 : float
        Eq. 7 at θ = θ*_bulk + ``theta_shift`` (population θ*).
    row_norm_sq_eq6, row_norm_sq_pinv, self_coupling_pinv : ndarray, shape (k,)
        Eq. 6, the [derived] Eq. 8 norm (α/(1−α))(ρ − αβ²) and the Eq. 8 diagonal αβ.
    theory : StabilityTheory
        :func:`assocmem.attractor.theory` at these parameters.
    """

    N: int
    cv: float
    sigma: float
    n: float
    theta_shift: float
    zero_diag: bool
    alphas: np.ndarray
    row_sum: np.ndarray
    row_norm_sq: np.ndarray
    mean_diag: np.ndarray
    fixed_point_error: np.ndarray
    asymmetry: np.ndarray
    henrici: np.ndarray
    row_sum_eq7: float
    row_norm_sq_eq6: np.ndarray
    row_norm_sq_pinv: np.ndarray
    self_coupling_pinv: np.ndarray
    theory: StabilityTheory


@dataclass(frozen=True, eq=False)
class WeightSnapshot:
    """One network at one load, for the storing exploration (result of :func:`weight_snapshot`).

    Attributes
    ----------
    stats : WeightStatistics
        Row statistics and non-normality.
    cv, sigma, n : float
        Pattern CV and activation parameters.
    row_norms_sq : ndarray, shape (N,)
        Σ_j W_ij² per row.
    w_ij, w_ji : ndarray, shape (m,)
        A random sample of m off-diagonal pairs (W_ij, W_ji), i < j.
    row_norm_sq_eq6, row_norm_sq_pinv : float
        Eq. 6 and the [derived] Eq. 8 formula at this load.
    """

    stats: WeightStatistics
    cv: float
    sigma: float
    n: float
    row_norms_sq: np.ndarray
    w_ij: np.ndarray
    w_ji: np.ndarray
    row_norm_sq_eq6: float
    row_norm_sq_pinv: float


@dataclass(frozen=True, eq=False)
class RecallDemo:
    """A stored pattern, its linear stability and one kicked trajectory (:func:`recall_demo`).

    Attributes
    ----------
    N, P : int
        Neurons and patterns.
    cv, sigma, n : float
        Pattern CV and activation parameters.
    fixed_point_error : float
        max |g(W r^μ − θ) − r^μ| at the pattern.
    abscissa : float
        Spectral abscissa of J_μ (max Re λ; < 0 means linearly stable).
    lambda_mem : float
        λ_mem of Eq. 15 (population theory).
    direction : str
        ``"pattern"`` (r^μ scaled by 1 + kick) or ``"random"`` (Gaussian kick of relative size
        ``kick``).
    kick : float
        Relative size of the initial perturbation.
    trajectory : Trajectory
        Distance ‖r(t) − r^μ‖/‖r^μ‖ over time (:func:`assocmem.attractor.simulate`).
    """

    N: int
    P: int
    cv: float
    sigma: float
    n: float
    fixed_point_error: float
    abscissa: float
    lambda_mem: float
    direction: str
    kick: float
    trajectory: Trajectory

    @property
    def alpha(self) -> float:
        """Load α = P/N."""
        return self.P / self.N

    @property
    def label(self) -> str:
        """Short legend text."""
        return f"n = {self.n:g}, α = {self.alpha:.2f}, {self.direction} kick"


# --------------------------------------------------------------------------------------------
# The model: activation and patterns
# --------------------------------------------------------------------------------------------


def activation_curves(
    sigma: float, n: float, v_min: float = -3.0, v_max: float = 3.0, points: int = 301
) -> ActivationCurves:
    """Eq. 3, its slope and the noisy hard-rectified power law it approximates.

    Notes
    -----
    The paper motivates Eq. 3 as an approximation of g(v) = ⟨⌊v + σz⌋₊ⁿ⟩, z ~ N(0, 1)
    (noisy voltages). That average is computed exactly with the parabolic cylinder function,
    ⟨⌊v + σz⌋₊ⁿ⟩ = σⁿ Γ(n+1) e^{−v²/4σ²} D_{−n−1}(−v/σ)/√(2π) [derived], and with 201-node
    Gauss-Hermite quadrature where v/σ > 8 (D overflows there; the kink has no weight). Eq. 3
    matches it only loosely (note §1.2, pitfall 16): for n = 1, g(0) = (σ/π) ln 2 ≈ 0.221σ,
    while the noisy average is σ/√(2π) ≈ 0.399σ.

    Parameters
    ----------
    sigma : float
        Smoothness / noise σ > 0.
    n : float
        Exponent n in (0, 100] (``rates.EXPONENT_MAX``).
    v_min, v_max : float
        Voltage range, v_min < v_max.
    points : int
        Grid points (>= 2, at most ``MAX_ELEMENTS``).

    Returns
    -------
    ActivationCurves
        Curves that exceed the float range are +inf there (their true limit).

    Examples
    --------
    >>> c = activation_curves(1.0, 1.0, -1.0, 1.0, 3)
    >>> round(float(c.g[1]), 4), round(float(c.noisy[1]), 4)  # (σ/π) ln 2 and σ/√(2π)
    (0.2206, 0.3989)
    """
    sigma, n = check_beta(sigma, "sigma"), check_exponent(n)
    v_min, v_max = check_finite_float(v_min, "v_min"), check_finite_float(v_max, "v_max")
    if v_min >= v_max:
        raise ValueError(f"v_min must be < v_max, got v_min={v_min!r}, v_max={v_max!r}")
    points = check_positive_int(points, "points", minimum=2, maximum=MAX_ELEMENTS)
    v = np.linspace(v_min, v_max, points)
    with np.errstate(over="ignore"):  # beyond the float range: +inf, the true limit
        hard = np.maximum(v, 0.0) ** n
    return ActivationCurves(
        sigma=sigma,
        n=n,
        v=v,
        g=_g(v, sigma, n, np),
        slope=_slope(v, sigma, n, np),
        noisy=_noisy_power(v, sigma, n),
        hard=hard,
    )


def _noisy_power(v: np.ndarray, sigma: float, n: float) -> np.ndarray:
    """⟨⌊v + σz⌋₊ⁿ⟩ by the parabolic cylinder function, or Gauss-Hermite far above the kink."""
    x = v / sigma
    out = np.empty_like(v)
    low = x <= _PBDV_MAX
    D, _ = pbdv(-n - 1.0, -x[low])
    # In log space: σⁿ Γ(n+1) alone leaves the float range for large σ or n.
    with np.errstate(divide="ignore", over="ignore"):
        log_val = (
            n * math.log(sigma)
            + gammaln(n + 1.0)
            - x[low] ** 2 / 4.0
            + np.log(D)
            - 0.5 * math.log(2 * np.pi)
        )
        out[low] = np.exp(log_val)
        if np.any(~low):
            z, w = hermegauss(_GH_NODES)
            vals = np.maximum(v[~low, None] + sigma * z[None, :], 0.0) ** n
            out[~low] = vals @ (w / w.sum())
    return out


def lognormal_density(r: Any, cv: float, f: float = 1.0) -> np.ndarray:
    """Density of the non-zero rates: f × log-normal with mean 1 and coefficient of variation CV.

    Notes
    -----
    r = exp(μ + s z), s² = ln(1 + CV²), μ = −s²/2 (note §1.4, pitfall 10), so
    p(r) = f exp(−(ln r − μ)²/2s²) / (r s √(2π)) for r > 0. For f < 1 the remaining mass 1 − f
    is a point mass at r = 0 (Fig. 5a), not included here.

    Parameters
    ----------
    r : array_like
        Rates, finite and >= 0 (the density is 0 at r = 0).
    cv : float
        Coefficient of variation, in (0, 1e6] (``rates.CV_MAX``).
    f : float
        Fraction of non-zero rates, in (0, 1].

    Returns
    -------
    ndarray
        Same shape as ``r``.

    Examples
    --------
    The density integrates to f and has mean 1 given r > 0:

    >>> import numpy as np
    >>> r = np.linspace(1e-6, 60, 600001)
    >>> p = lognormal_density(r, 1.0)
    >>> round(float(np.trapezoid(p, r)), 4), round(float(np.trapezoid(r * p, r)), 4)
    (1.0, 1.0)
    """
    cv = check_cv(cv)
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    r = np.asarray(_as_real_array(r, "r", np))
    if np.any(r < 0):
        raise ValueError(f"r must contain rates >= 0, got min {float(r.min())!r}")
    s2 = math.log1p(cv * cv)
    pos = r > 0
    safe = np.where(pos, r, 1.0)
    pdf = np.exp(-((np.log(safe) + 0.5 * s2) ** 2) / (2 * s2)) / (safe * math.sqrt(2 * np.pi * s2))
    return f * np.where(pos, pdf, 0.0)


def pattern_density(
    cv: float, f: float = 1.0, N: int = 20000, rng: Any = 0, bins: int = 50
) -> PatternDensity:
    """The analytic density of the rates and a histogram of one sample (Fig. 1f, Fig. 5a).

    Notes
    -----
    Draws an N × 1 pattern with :func:`assocmem.attractor.sample_patterns` and bins its non-zero
    rates on log-spaced bins between the 0.05 % and 99.95 % quantiles of the log-normal;
    ``pdf`` is :func:`lognormal_density` on 200 log-spaced rates over the same range.

    Parameters
    ----------
    cv : float
        Coefficient of variation, in (0, 1e6].
    f : float
        Fraction of non-zero rates, in (0, 1].
    N : int
        Sample size (>= 100, at most ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator
        Seed or generator.
    bins : int
        Histogram bins (>= 2, at most ``MAX_ELEMENTS``).

    Returns
    -------
    PatternDensity

    Examples
    --------
    >>> d = pattern_density(1.0, f=0.5, N=10000, rng=1)
    >>> round(d.zero_fraction, 1), round(d.sample_mean, 1)
    (0.5, 0.5)
    """
    cv = check_cv(cv)
    f = check_fraction(f, "f", 0.0, 1.0, open_lo=True, open_hi=False)
    N = check_positive_int(N, "N", minimum=100, maximum=MAX_ELEMENTS)
    gen = as_rng(rng)
    bins = check_positive_int(bins, "bins", minimum=2, maximum=MAX_ELEMENTS)
    x = _sample(N, 1, cv, gen, f)[:, 0]
    s = math.sqrt(math.log1p(cv * cv))
    lo, hi = math.exp(-0.5 * s * s - 3.29 * s), math.exp(-0.5 * s * s + 3.29 * s)
    edges = np.geomspace(lo, hi, bins + 1)
    counts, _ = np.histogram(x[x > 0], bins=edges)
    r = np.geomspace(lo, hi, 200)
    return PatternDensity(
        cv=cv,
        f=f,
        r=r,
        pdf=lognormal_density(r, cv, f),
        centers=np.sqrt(edges[1:] * edges[:-1]),
        density=counts / (N * np.diff(edges)),
        zero_fraction=float(np.mean(x == 0)),
        sample_mean=float(x.mean()),
        sample_cv=float(x.std() / x.mean()),
    )


# --------------------------------------------------------------------------------------------
# Non-normality measures
# --------------------------------------------------------------------------------------------


def asymmetry_index(W: Any) -> float:
    """Asymmetry index ‖W_asym‖_F / (‖W_sym‖_F + ‖W_asym‖_F) (Details of the paper).

    Notes
    -----
    W_sym = (W + Wᵀ)/2, W_asym = (W − Wᵀ)/2. The index is 0 for symmetric W, 1 for
    antisymmetric W and 1/2 when both parts have equal norm.

    Parameters
    ----------
    W : array_like, shape (N, N)
        Square matrix, finite, not all zero.

    Returns
    -------
    float

    Examples
    --------
    >>> asymmetry_index([[0.0, 1.0], [0.0, 0.0]])  # equal symmetric and antisymmetric parts
    0.5
    """
    W = _square(W, "W")
    top = float(np.max(np.abs(W)))
    if top == 0.0:
        raise ValueError("W must not be the zero matrix (the asymmetry index is 0/0)")
    W = W / top  # the index is scale-free; norms of the scaled W stay in the float range
    sym = float(np.linalg.norm(0.5 * (W + W.T)))
    asym = float(np.linalg.norm(0.5 * (W - W.T)))
    return asym / (sym + asym)


def henrici_departure(J: Any, eigenvalues: Any = None) -> float:
    """Relative Henrici departure from normality √(‖J‖_F² − Σ_i |λ_i|²) / ‖J‖_F.

    Notes
    -----
    Henrici's index (paper ref. 46) measures how far J is from a normal matrix (0 iff J is
    normal). The paper's Details print √(‖J‖_F² − Σ_i|λ_i|²/‖J‖_F), which mixes units: its
    division is misplaced (note §2.7, pitfall 2). We use the standard relative form. The
    numerator is invariant under J → J + cI but the denominator is not; here J is the full
    Jacobian −I + D_μ W of Eq. 5.

    Parameters
    ----------
    J : array_like, shape (N, N)
        Square matrix, finite, not all zero.
    eigenvalues : array_like, optional
        All N eigenvalues of J (real or complex, finite), if already known (computed with
        ``numpy.linalg.eigvals`` otherwise). They must obey Schur's inequality
        Σ|λ_i|² <= ‖J‖_F² (to a relative 1e-6), as the eigenvalues of J do.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    A Jordan block is as non-normal as a 2 × 2 matrix with these entries can be:

    >>> henrici_departure([[0.0, 1.0], [0.0, 0.0]])
    1.0
    """
    J = _square(J, "J")
    ev = None if eigenvalues is None else _eigenvalues(eigenvalues, J.shape[0])
    top = float(np.max(np.abs(J)))
    if top == 0.0:
        raise ValueError("J must not be the zero matrix (the relative index is 0/0)")
    J = J / top  # the index is scale-free; squares of the scaled J stay in the float range
    if ev is None:
        ev = np.linalg.eigvals(J)
    else:
        with np.errstate(over="ignore"):
            ev = ev / top
    fro2 = float(np.sum(J * J))
    with np.errstate(over="ignore"):
        ev2 = float(np.sum(np.abs(ev) ** 2))
    if eigenvalues is not None and not ev2 <= fro2 * (1.0 + 1e-6):
        raise ValueError(
            "eigenvalues must be the eigenvalues of J: the sum of their squared moduli "
            f"exceeds ||J||_F^2 (Schur's inequality), {ev2 * top * top!r} > {fro2 * top * top!r}"
        )
    return math.sqrt(max(fro2 - ev2, 0.0) / fro2)


def _eigenvalues(values: Any, N: int) -> np.ndarray:
    """N finite real or complex eigenvalues (bool and object dtypes are refused)."""
    if values is None or isinstance(values, str | bytes):
        raise TypeError(f"eigenvalues must be an array of numbers, got {values!r}")
    try:
        ev = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"eigenvalues must be a rectangular array of numbers: {exc}") from exc
    if ev.dtype.kind not in "iufc":
        raise TypeError(f"eigenvalues must hold real or complex numbers, got dtype {ev.dtype}")
    ev = ev.ravel()
    if ev.shape != (N,) or not np.all(np.isfinite(ev)):
        raise ValueError(f"eigenvalues must hold {N} finite values, got shape {ev.shape}")
    return ev


def _square(A: Any, name: str) -> np.ndarray:
    A = np.asarray(to_numpy(_as_real_array(A, name)))
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] < 1:
        raise ValueError(f"{name} must be a square (N, N) matrix, got shape {A.shape}")
    return A


# --------------------------------------------------------------------------------------------
# Weight statistics
# --------------------------------------------------------------------------------------------


def weight_statistics(net: Network, pattern: int = 0, henrici: bool = True) -> WeightStatistics:
    """Row sum, row norm, self-coupling, fixed-point error and non-normality of a network.

    Notes
    -----
    N⟨W⟩ and N⟨W²⟩ are the mean over rows of Σ_j W_ij and Σ_j W_ij² (the quantities of
    Eqs. 7 and 6, Fig. 1b,c). The Henrici index is taken for J_μ = −I + D_μ W (Eq. 5) at
    ``pattern``; its eigenvalues come from :func:`assocmem.attractor.jacobian_spectrum`
    (low rank for Eq. 8 weights, N − P of them exactly −1; full N × N for Eq. 20).

    Parameters
    ----------
    net : Network
        From :func:`assocmem.attractor.pinv_weights` or ``zero_diag_weights``.
    pattern : int
        Pattern μ in [0, P) of the Jacobian.
    henrici : bool
        Compute the Henrici index (one eigenproblem; NaN when False).

    Returns
    -------
    WeightStatistics

    Examples
    --------
    >>> import numpy as np
    >>> from assocmem.attractor import pinv_weights
    >>> R = np.array([[1.0], [2.0], [0.5]])
    >>> s = weight_statistics(pinv_weights(R, 1.0, 1.0))
    >>> s.fixed_point_error < 1e-12, s.P
    (True, 1)
    """
    check_instance(net, "net", Network)
    pattern = _check_pattern(pattern, net.P)
    henrici = check_bool(henrici, "henrici")
    W, R = np.asarray(to_numpy(net.W)), np.asarray(to_numpy(net.R))
    with np.errstate(over="ignore", invalid="ignore"):
        err = float(np.max(np.abs(_g(W @ R - net.theta, net.sigma, net.n, np) - R)))
    h = float("nan")
    if henrici:
        h = _henrici_at(net, W, R[:, pattern], pattern)
    with np.errstate(over="ignore"):  # a norm beyond the float range is +inf
        row_norm_sq = float((W * W).sum(axis=1).mean())
    return WeightStatistics(
        N=net.N,
        P=net.P,
        zero_diag=net.zero_diag,
        theta=float(net.theta),
        row_sum=float(W.sum(axis=1).mean()),
        row_norm_sq=row_norm_sq,
        mean_diag=float(np.diagonal(W).mean()),
        fixed_point_error=err,
        asymmetry=asymmetry_index(W),
        henrici=h,
        pattern=pattern,
    )


def _check_pattern(pattern: Any, P: int) -> int:
    """A pattern index μ in [0, P), named ``pattern`` in the message."""
    return check_positive_int(pattern, "pattern", minimum=0, maximum=P - 1)


def _henrici_at(net: Network, W: np.ndarray, r: np.ndarray, mu: int) -> float:
    # J_μ = −I + D_μ W with D_μ = d(r^μ) (Eq. 5 at the stored pattern): the same matrix whose
    # spectrum jacobian_spectrum returns, also where rounding spoils the fixed point.
    D = _gain(r, net.sigma, net.n, np)
    J = D[:, None] * W - np.eye(W.shape[0])
    spec = jacobian_spectrum(net, mu)
    ev = spec.eigenvalues[0]
    if spec.n_trivial:  # the N − P eigenvalues exactly −1 of Eq. 9 (note §1.6)
        ev = np.concatenate([ev, -np.ones(spec.n_trivial)])
    return henrici_departure(J, ev)


def pinv_row_norm_sq(theory: StabilityTheory, alpha: Any) -> Any:
    """[derived] Squared row norm of Eq. 8 weights, N⟨W²⟩ = (α/(1−α))(ρ − αβ²).

    Notes
    -----
    ρ = Var u / Var r and β = Cov(r, u) / Var r with u = g⁻¹(r) (note §3.3, pitfall 3). Not in
    the paper: Eq. 6 describes zero-diagonal weights (Eq. 20), whose extra norm is
    Σ_i W_ii²/[I − R R†]_ii ≈ (αβ)²/(1 − α) per row; adding it gives Eq. 6 exactly. The two
    differ a lot: Eq. 8 weights diverge as α → 1 only through ρ − β² (the part of u not linear
    in r).

    Parameters
    ----------
    theory : StabilityTheory
        From :func:`assocmem.attractor.theory`.
    alpha : float or array_like
        Load(s) in [0, 1).

    Returns
    -------
    float or ndarray

    Examples
    --------
    Note §3.3 (CV = σ = n = 1): 0.2212 at α = 0.2 and 0.5554 at α = 0.5:

    >>> from assocmem.attractor import theory
    >>> t = theory(1.0, 1.0, 1.0)
    >>> [round(pinv_row_norm_sq(t, a), 4) for a in (0.2, 0.5)]
    [0.2212, 0.5554]
    """
    a = _check_theory_load(theory, alpha)
    rho, beta = theory.var_u / theory.c_rr, theory.cov_ru / theory.c_rr
    with np.errstate(over="ignore", invalid="ignore"):
        out = a / (1.0 - a) * (rho - a * beta * beta)
    if math.isinf(rho):  # Var u beyond the float range (huge σ): ρ − αβ² >= (1 − α)ρ = +inf
        out = np.where(a > 0, math.inf, 0.0)
    return float(out) if out.ndim == 0 else out


def pinv_self_coupling(theory: StabilityTheory, alpha: Any) -> Any:
    """[derived] Mean self-coupling of Eq. 8 weights, ⟨W_ii⟩ ≈ αβ with β = Cov(r, u)/Var r.

    Notes
    -----
    Write u = ⟨u⟩ + β δr + e with e uncorrelated with r. The linear part gives
    W ⊃ β R R† (+ a rank-one part), and R R† is a projector of rank P with diagonal ≈ α, hence
    W_ii ≈ αβ: O(1), not small (note §3.3, pitfall 3).

    Parameters
    ----------
    theory : StabilityTheory
        From :func:`assocmem.attractor.theory`.
    alpha : float or array_like
        Load(s) in [0, 1).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> from assocmem.attractor import theory
    >>> round(pinv_self_coupling(theory(1.0, 1.0, 1.0), 0.5), 3)
    0.524
    """
    a = _check_theory_load(theory, alpha)
    out = a * theory.cov_ru / theory.c_rr
    return float(out) if out.ndim == 0 else out


def _check_theory_load(t: Any, alpha: Any) -> np.ndarray:
    check_instance(t, "theory", StabilityTheory)
    return _check_load(alpha)


def weight_load_sweep(
    N: int,
    cv: float,
    sigma: float,
    n: float,
    alphas: Sequence[float],
    rng: Any = 0,
    *,
    theta_shift: float = 0.0,
    zero_diag: bool = True,
    henrici: bool = False,
) -> WeightSweep:
    """Row sum, row norm and non-normality against the load, next to Eqs. 6, 7 (Fig. 1b,c,e,j).

    Notes
    -----
    For each α, P = round(α N) fresh patterns (:func:`assocmem.attractor.sample_patterns`) are
    stored with Eq. 20 (``zero_diag=True``) or Eq. 8 weights at θ = θ*_bulk + ``theta_shift``
    (θ*_bulk = −mean g⁻¹(R), the empirical Eq. 16), and :func:`weight_statistics` is recorded.
    The theory columns use the population θ* of :func:`assocmem.attractor.theory`. Measured at
    N = 1000 (note §3.3): the zero-diagonal norm is about 3 % above Eq. 6, the Eq. 8 norm within
    1 % of :func:`pinv_row_norm_sq`.

    Parameters
    ----------
    N : int
        Neurons (>= 2; N² at most ``MAX_ELEMENTS``).
    cv : float
        Pattern CV, in (0, 1e6].
    sigma, n : float
        Activation parameters (σ > 0, 0 < n <= 100: dense patterns).
    alphas : sequence of float
        Loads in (0, 1), each giving 1 <= P = round(α N) < N.
    rng : int or numpy.random.Generator
        Seed or generator.
    theta_shift : float
        θ − θ*_bulk.
    zero_diag : bool
        Eq. 20 (True) or Eq. 8 (False) weights.
    henrici : bool
        Also compute the Henrici index of J at pattern 0 (an N × N eigenproblem per load for
        Eq. 20 weights: about 0.1 s at N = 500).

    Returns
    -------
    WeightSweep

    Examples
    --------
    >>> sw = weight_load_sweep(200, 1.0, 1.0, 1.0, [0.2, 0.5], rng=0)
    >>> bool(sw.row_norm_sq[1] > sw.row_norm_sq[0]), bool(sw.fixed_point_error.max() < 1e-9)
    (True, True)
    """
    N = _check_neurons(N, 2)
    cv, sigma, n = check_cv(cv), check_beta(sigma, "sigma"), check_exponent(n)
    a = _check_alphas(alphas, N)
    gen = as_rng(rng)
    shift = check_finite_float(theta_shift, "theta_shift")
    zero_diag = check_bool(zero_diag, "zero_diag")
    henrici = check_bool(henrici, "henrici")
    rows = []
    for P in np.rint(a * N).astype(int):
        R = _sample(N, int(P), cv, gen)
        theta = -float(np.mean(_g_inverse(R, sigma, n, np))) + shift
        rows.append(weight_statistics(_build(R, sigma, n, theta, zero_diag, np), henrici=henrici))
    t = theory(cv, sigma, n)
    used = np.array([s.alpha for s in rows])
    t_shift = theory(cv, sigma, n, t.theta_star + shift)

    def col(name: str) -> np.ndarray:
        return np.array([getattr(s, name) for s in rows])

    return WeightSweep(
        N=N,
        cv=cv,
        sigma=sigma,
        n=n,
        theta_shift=shift,
        zero_diag=bool(zero_diag),
        alphas=used,
        row_sum=col("row_sum"),
        row_norm_sq=col("row_norm_sq"),
        mean_diag=col("mean_diag"),
        fixed_point_error=col("fixed_point_error"),
        asymmetry=col("asymmetry"),
        henrici=col("henrici"),
        row_sum_eq7=t_shift.row_sum,
        row_norm_sq_eq6=np.asarray(t.row_norm_sq(used)),
        row_norm_sq_pinv=np.asarray(pinv_row_norm_sq(t, used)),
        self_coupling_pinv=np.asarray(pinv_self_coupling(t, used)),
        theory=t,
    )


def _row_norms_sq(W: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # a norm beyond the float range is +inf
        return (W * W).sum(axis=1)


def _check_neurons(N: Any, minimum: int) -> int:
    """N neurons, with the N × N weights capped at ``MAX_ELEMENTS`` entries."""
    N = check_positive_int(N, "N", minimum=minimum)
    check_size(N * N, "N", "weight entries (N * N)", MAX_ELEMENTS, "use fewer neurons")
    return N


def _check_alphas(alphas: Any, N: int) -> np.ndarray:
    a = as_real_vector(alphas, "alphas", 0.0, 1.0, open_lo=True, open_hi=True)
    Ps = np.rint(a * N).astype(int)
    if np.any(Ps < 1) or np.any(Ps >= N):
        raise ValueError(f"alphas must give 1 <= P = round(alpha N) < N, got P = {Ps.tolist()}")
    return a


def weight_snapshot(
    alpha: float,
    cv: float,
    N: int = 400,
    sigma: float = 1.0,
    n: float = 1.0,
    rng: Any = 0,
    zero_diag: bool = True,
    pairs: int = 800,
) -> WeightSnapshot:
    """One network at load α: per-row norms, a sample of (W_ij, W_ji) pairs and the statistics.

    Notes
    -----
    The pure compute function of the storing exploration: patterns from
    :func:`assocmem.attractor.sample_patterns` at θ = θ*_bulk (empirical Eq. 16), Eq. 20 or
    Eq. 8 weights, :func:`weight_statistics` with the Henrici index. About 0.05 s at N = 400
    (one N × N eigenproblem).

    Parameters
    ----------
    alpha : float
        Load in (0, 1), giving 1 <= P = round(α N) < N.
    cv : float
        Pattern CV, in (0, 1e6].
    N : int
        Neurons (>= 4; N² at most ``MAX_ELEMENTS``).
    sigma, n : float
        Activation parameters (σ > 0, 0 < n <= 100).
    rng : int or numpy.random.Generator
        Seed or generator (patterns, then the sampled pairs).
    zero_diag : bool
        Eq. 20 (True) or Eq. 8 (False) weights.
    pairs : int
        Number of sampled off-diagonal pairs (>= 1, at most ``MAX_ELEMENTS``).

    Returns
    -------
    WeightSnapshot

    Examples
    --------
    >>> snap = weight_snapshot(0.3, 1.0, N=100, pairs=10)
    >>> snap.stats.P, snap.w_ij.shape
    (30, (10,))
    """
    N = _check_neurons(N, 4)
    alpha = check_fraction(alpha, "alpha", 0.0, 1.0)
    cv, sigma, n = check_cv(cv), check_beta(sigma, "sigma"), check_exponent(n)
    zero_diag = check_bool(zero_diag, "zero_diag")
    pairs = check_positive_int(pairs, "pairs", maximum=MAX_ELEMENTS)
    P = round(alpha * N)
    if not 1 <= P < N:
        raise ValueError(f"alpha must give 1 <= P = round(alpha N) < N, got P={P} for N={N}")
    gen = as_rng(rng)
    R = _sample(N, P, cv, gen)
    net = _build(R, sigma, n, None, zero_diag, np)
    W = np.asarray(to_numpy(net.W))
    i = gen.integers(0, N, size=pairs)
    j = (i + gen.integers(1, N, size=pairs)) % N  # j != i
    t = theory(cv, sigma, n)
    return WeightSnapshot(
        stats=weight_statistics(net),
        cv=cv,
        sigma=sigma,
        n=n,
        row_norms_sq=_row_norms_sq(W),
        w_ij=W[i, j],
        w_ji=W[j, i],
        row_norm_sq_eq6=t.row_norm_sq(net.alpha),
        row_norm_sq_pinv=pinv_row_norm_sq(t, net.alpha),
    )


# --------------------------------------------------------------------------------------------
# A fixed point that is (not) an attractor
# --------------------------------------------------------------------------------------------


def recall_demo(
    alpha: float,
    n: float,
    N: int = 400,
    cv: float = 1.0,
    sigma: float = 1.0,
    kick: float = 0.01,
    direction: str = "pattern",
    T: float = 150.0,
    dt: float = 0.1,
    rng: Any = 0,
) -> RecallDemo:
    """Store patterns (Eq. 20 weights, θ*), kick pattern 0 and integrate Eq. 2 (note §3.3).

    Notes
    -----
    The pattern is an exact fixed point whatever the parameters (fixed-point error ~1e−13);
    whether it is an attractor depends on the spectral abscissa of J_0 (Eq. 5), computed in
    full. ``direction="pattern"`` starts from (1 + kick) r⁰, the direction of the λ_mem outlier
    (Eq. 15); ``"random"`` adds a Gaussian vector of norm kick‖r⁰‖ (rates clipped at 1e−12).
    Note §3.3 (N = 1000): n = 1, α = 0.1 returns; n = 1, α = 0.35 (above α_S) drifts away;
    n = 1.5, α = 0.1 (λ_mem = +0.17) blows up along the pattern within about 50τ.

    Parameters
    ----------
    alpha : float
        Load in (0, 1) with 1 <= P = round(α N) < N.
    n : float
        Exponent, in (0, 100].
    N : int
        Neurons (>= 4; N² at most ``MAX_ELEMENTS``).
    cv, sigma : float
        Pattern CV in (0, 1e6] and smoothness (> 0).
    kick : float
        Relative size of the perturbation, in (0, 1]: at most the pattern's own norm.
    direction : {"pattern", "random"}
        Kick direction.
    T, dt : float
        Duration (> 0) and Euler step (0 < dt <= 1) in units of τ; T/dt at most
        ``MAX_STEPS`` (1e7).
    rng : int or numpy.random.Generator
        Seed or generator (patterns, then the random kick).

    Returns
    -------
    RecallDemo

    Examples
    --------
    >>> d = recall_demo(0.1, 1.0, N=100, T=40.0)
    >>> d.fixed_point_error < 1e-9, bool(d.trajectory.distance[-1] < d.kick)
    (True, True)
    """
    N = _check_neurons(N, 4)
    alpha = check_fraction(alpha, "alpha", 0.0, 1.0)
    n, cv, sigma = check_exponent(n), check_cv(cv), check_beta(sigma, "sigma")
    kick = check_fraction(kick, "kick", 0.0, 1.0, open_lo=True, open_hi=False)
    check_option(direction, "direction", _DIRECTIONS)
    T = check_beta(T, "T")
    dt = check_fraction(dt, "dt", 0.0, 1.0, open_lo=True, open_hi=False)
    _check_steps(T, dt)
    P = round(alpha * N)
    if not 1 <= P < N:
        raise ValueError(f"alpha must give 1 <= P = round(alpha N) < N, got P={P} for N={N}")
    gen = as_rng(rng)
    net = _build(_sample(N, P, cv, gen), sigma, n, None, True, np)
    W, r = np.asarray(to_numpy(net.W)), np.asarray(to_numpy(net.R))[:, 0]
    if direction == "pattern":
        r0 = (1.0 + kick) * r
    else:
        xi = gen.standard_normal(N)
        r0 = np.maximum(r + kick * np.linalg.norm(r) * xi / np.linalg.norm(xi), 1e-12)
    run = simulate(W, r0, sigma, n, net.theta, dt=dt, T=T, reference=r)
    with np.errstate(over="ignore", invalid="ignore"):
        err = float(np.max(np.abs(_g(W @ r - net.theta, sigma, n, np) - r)))
    return RecallDemo(
        N=N,
        P=P,
        cv=cv,
        sigma=sigma,
        n=n,
        fixed_point_error=err,
        abscissa=float(jacobian_spectrum(net, 0).abscissa[0]),
        lambda_mem=theory(cv, sigma, n).lambda_mem,
        direction=direction,
        kick=kick,
        trajectory=run,
    )
