"""Kernel density estimation background: kernels, efficiencies and the AMISE bandwidth.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*, Sec. 2 (eq. (2)), App. B and Fig. 5. Chapter note §1.2 and §2.1.

Notation map
------------
- samples ξ_μ (1-D)            -> ``samples``, shape ``(M,)``
- bandwidth h                  -> ``h``
- μ_K = ∫ x² K(x) dx           -> ``KernelStats.mu_K``
- σ_K = ∫ K(x)² dx  (= R(K))   -> ``KernelStats.sigma_K``
- ∫ |f''|² (roughness of f'')  -> ``roughness_f2``
- M (number of samples)        -> ``M``

The paper defines Eff(K) = σ_K / σ_Epan under μ_K = 1, a ratio >= 1, yet Fig. 5 prints values
<= 100 % with "higher is better". We compute the scale-free Wand–Jones efficiency that Fig. 5
actually shows, eff(K) = sqrt(μ_E) σ_E / (sqrt(μ_K) σ_K) (note §2.1).

The paper's eq. (2) prints h* = (σ_K / (M μ_K²) · 4 / ∫|f''|²)^(1/5). Minimising the AMISE it
displays gives no factor 4 (note §2.1 [fix]); :func:`amise_optimal_bandwidth` returns the
corrected value and :func:`paper_bandwidth` the printed one, so the book can show both.

Public functions
----------------
``kernel``, ``kernel_table``, ``kde_1d``, ``amise``, ``amise_optimal_bandwidth``,
``amise_optimal_value``, ``paper_bandwidth``, ``gmm_1d_density``,
``gmm_1d_second_derivative_roughness``, ``ise``, ``ise_curves``; the table ``KERNELS``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np
from scipy import integrate

from assocmem._validation import as_real_array, check_beta, check_positive_int
from assocmem.backend import array_namespace

__all__ = [
    "KERNELS",
    "ISECurves",
    "Kernel",
    "KernelStats",
    "amise",
    "amise_optimal_bandwidth",
    "amise_optimal_value",
    "gmm_1d_density",
    "gmm_1d_second_derivative_roughness",
    "ise",
    "ise_curves",
    "kde_1d",
    "kernel",
    "kernel_table",
    "paper_bandwidth",
]


@dataclass(frozen=True)
class Kernel:
    """A normalised, symmetric, non-negative 1-D kernel (paper Sec. 2, App. B, Fig. 5).

    Attributes
    ----------
    name : str
        Key in :data:`KERNELS`.
    formula : str
        The normalised kernel as text (for tables and hover labels).
    support : float
        Half-width of the support: 1.0 for compact kernels, ``inf`` otherwise.
    function : callable
        Vectorised evaluation ``u -> K(u)`` on an array of any shape (NumPy or CuPy).
    """

    name: str
    formula: str
    support: float
    function: Callable[[Any], Any]

    def __call__(self, u: Any) -> Any:
        """Evaluate the kernel elementwise at ``u``."""
        return self.function(u)


@dataclass(frozen=True)
class KernelStats:
    """Kernel constants of paper Sec. 2 and the efficiency plotted in Fig. 5.

    Attributes
    ----------
    name : str
        Kernel name.
    mu_K : float
        Scale constant μ_K = ∫ x² K(x) dx.
    sigma_K : float
        Regularity constant σ_K = ∫ K(x)² dx.
    efficiency : float
        Wand–Jones efficiency sqrt(μ_E) σ_E / (sqrt(μ_K) σ_K), in (0, 1], 1 for Epanechnikov.
    """

    name: str
    mu_K: float
    sigma_K: float
    efficiency: float


@dataclass(frozen=True)
class ISECurves:
    """Integrated squared error of the KDE against bandwidth, one curve per kernel.

    Attributes
    ----------
    h : numpy.ndarray, shape (H,)
        Bandwidths.
    kernels : tuple of str
        Kernel names, one per row of ``ise``.
    ise : numpy.ndarray, shape (K, H)
        ISE(h) for each kernel.
    h_best : numpy.ndarray, shape (K,)
        Grid bandwidth with the smallest ISE, per kernel.
    h_amise : numpy.ndarray, shape (K,)
        Corrected AMISE-optimal bandwidth (note §2.1) per kernel for the same target density.
    """

    h: np.ndarray
    kernels: tuple[str, ...]
    ise: np.ndarray
    h_best: np.ndarray
    h_amise: np.ndarray


def kernel(name: str) -> Kernel:
    """Return the normalised kernel called ``name`` (paper App. B, Fig. 5).

    Parameters
    ----------
    name : str
        One of the keys of :data:`KERNELS` ("epanechnikov", "cosine", "tricube", "biweight",
        "triweight", "triangular", "gaussian", "uniform", "logistic", "sigmoid").

    Returns
    -------
    Kernel
        Callable object; ``kernel(name)(u)`` evaluates K elementwise.

    Examples
    --------
    >>> float(kernel("epanechnikov")(0.0))  # 3/4 (1 - 0^2)
    0.75
    """
    return KERNELS[_check_kernel(name, "name")]


def kernel_table() -> list[KernelStats]:
    """Return μ_K, σ_K and the efficiency of every kernel in :data:`KERNELS`.

    Notes
    -----
    The constants are computed with ``scipy.integrate.quad`` from the kernel functions, not
    copied from a table: μ_K = ∫ x² K, σ_K = ∫ K² (paper Sec. 2). The efficiency is the
    scale-free Wand–Jones quantity that paper Fig. 5 shows,

        eff(K) = sqrt(μ_E) σ_E / (sqrt(μ_K) σ_K),

    with E the Epanechnikov kernel (note §2.1; the paper's Eff(K) = σ_K/σ_E is its inverse at
    μ_K = 1). Expected: Gaussian 0.9512, Uniform 0.9295 (paper: 95.1 % and 92.9 %).

    Returns
    -------
    list of KernelStats
        In the order of :data:`KERNELS` (Epanechnikov first).

    Examples
    --------
    >>> table = kernel_table()
    >>> round(table[0].mu_K, 6), round(table[0].sigma_K, 6), table[0].efficiency
    (0.2, 0.6, 1.0)
    """
    return list(_kernel_table_cached())


def kde_1d(x_grid: Any, samples: Any, h: float, kernel: str = "epanechnikov") -> Any:
    """Evaluate the 1-D kernel density estimate on a grid (paper Sec. 2).

    Notes
    -----
    f̂_h(x) = (M h)^(-1) Σ_μ K((x - ξ_μ) / h)  (paper Sec. 2). The LSR energy of paper eq. (3)
    is, up to its 1/β prefactor and the normalisation, the log of this estimate with the
    Epanechnikov kernel at bandwidth h = sqrt(2/β) (note §1.2).

    Parameters
    ----------
    x_grid : array_like, shape (G,)
        Evaluation points (finite).
    samples : array_like, shape (M,)
        Data ξ_μ, M >= 1.
    h : float
        Bandwidth, finite and > 0.
    kernel : str
        Kernel name from :data:`KERNELS`.

    Returns
    -------
    array, shape (G,)
        Density estimate, in the namespace of ``samples``.

    Examples
    --------
    >>> float(kde_1d([0.0], [0.0], h=1.0)[0])  # one sample, Epanechnikov peak 3/4
    0.75
    """
    grid = _as_1d(x_grid, "x_grid")
    data = _as_1d(samples, "samples")
    h = check_beta(h, "h")
    k = KERNELS[_check_kernel(kernel)]
    return _kde(grid, data, h, k)


def amise(h: Any, kernel: str, roughness_f2: float, M: int) -> Any:
    """Asymptotic mean integrated squared error of a KDE (paper Sec. 2).

    Notes
    -----
    AMISE(h) = μ_K² h⁴ ∫|f''|² / 4 + σ_K / (M h)  (paper Sec. 2, the display before eq. (2)).

    Parameters
    ----------
    h : float or array_like
        Bandwidth(s), finite and > 0.
    kernel : str
        Kernel name from :data:`KERNELS`.
    roughness_f2 : float
        ∫ f''(x)² dx of the target density, finite and > 0.
    M : int
        Sample size, >= 1.

    Returns
    -------
    float or numpy.ndarray
        AMISE at each ``h`` (+inf where it exceeds the float64 range).

    Examples
    --------
    >>> a = amise(1.0, "gaussian", roughness_f2=4.0, M=1)  # 1/4 * 4 + 1/(2 sqrt(pi))
    >>> round(a, 6)
    1.282095
    """
    h_arr, scalar = _as_bandwidths(h)
    stats = _stats(kernel)
    r = check_beta(roughness_f2, "roughness_f2")
    m = check_positive_int(M, "M")
    with np.errstate(over="ignore"):  # h⁴ beyond the float64 range: the AMISE is +inf
        out = stats.mu_K**2 * h_arr**4 * r / 4.0 + stats.sigma_K / (m * h_arr)
    return float(out[0]) if scalar else out


def amise_optimal_bandwidth(kernel: str, roughness_f2: float, M: int) -> float:
    """Bandwidth minimising the AMISE, corrected (note §2.1 [fix]).

    Notes
    -----
    Setting dAMISE/dh = 0 gives h* = (σ_K / (M μ_K² ∫|f''|²))^(1/5). The paper's eq. (2)
    prints an extra factor 4 inside the bracket; see :func:`paper_bandwidth`.

    Parameters
    ----------
    kernel : str
        Kernel name from :data:`KERNELS`.
    roughness_f2 : float
        ∫ f''² of the target density, finite and > 0.
    M : int
        Sample size, >= 1.

    Returns
    -------
    float
        The corrected h*.

    Examples
    --------
    >>> h = amise_optimal_bandwidth("epanechnikov", roughness_f2=0.6 / 0.04, M=1)
    >>> round(h, 12)  # sigma_K / (mu_K^2 R) = 1
    1.0
    """
    stats = _stats(kernel)
    r = check_beta(roughness_f2, "roughness_f2")
    m = check_positive_int(M, "M")
    return _h_star(stats, r, m)


def amise_optimal_value(kernel: str, roughness_f2: float, M: int) -> float:
    """The AMISE at the corrected optimum h* (note §2.1 [fix]).

    Notes
    -----
    AMISE(h*) = (5/4) (sqrt(μ_K) σ_K)^(4/5) (∫|f''|²)^(1/5) M^(-4/5). The kernel enters only
    through sqrt(μ_K) σ_K, which is why the efficiency of Fig. 5 is the ratio of that quantity.
    The paper's eq. (2) misplaces the exponent of ∫|f''|².

    Parameters
    ----------
    kernel : str
        Kernel name from :data:`KERNELS`.
    roughness_f2 : float
        ∫ f''² of the target density, finite and > 0.
    M : int
        Sample size, >= 1.

    Returns
    -------
    float
        min_h AMISE(h).

    Examples
    --------
    >>> round(amise_optimal_value("epanechnikov", 0.6 / 0.04, 1), 12)  # 5/4 * 0.6 at h* = 1
    0.75
    """
    stats = _stats(kernel)
    r = check_beta(roughness_f2, "roughness_f2")
    m = check_positive_int(M, "M")
    return 1.25 * (math.sqrt(stats.mu_K) * stats.sigma_K) ** 0.8 * r**0.2 * m**-0.8


def paper_bandwidth(kernel: str, roughness_f2: float, M: int) -> float:
    """The bandwidth exactly as printed in paper eq. (2), with its extra factor 4.

    Notes
    -----
    h*_paper = (σ_K / (M μ_K²) · 4 / ∫|f''|²)^(1/5) = 4^(1/5) h* ≈ 1.3195 h*, where h* is the
    true AMISE minimiser (:func:`amise_optimal_bandwidth`, note §2.1 [fix]). Kept so the book can
    show the misprint next to the correction.

    Parameters
    ----------
    kernel : str
        Kernel name from :data:`KERNELS`.
    roughness_f2 : float
        ∫ f''² of the target density, finite and > 0.
    M : int
        Sample size, >= 1.

    Returns
    -------
    float
        The printed h*.

    Examples
    --------
    >>> round(paper_bandwidth("epanechnikov", 0.6 / 0.04, 1) ** 5, 9)
    4.0
    """
    stats = _stats(kernel)
    r = check_beta(roughness_f2, "roughness_f2")
    m = check_positive_int(M, "M")
    return (stats.sigma_K / (m * stats.mu_K**2) * 4.0 / r) ** 0.2


def gmm_1d_density(x: Any, weights: Any, means: Any, sds: Any) -> Any:
    """Density of a 1-D Gaussian mixture, the target f of the KDE experiments.

    Notes
    -----
    f(x) = Σ_i w_i φ((x - m_i)/s_i) / s_i with φ the standard normal density.

    Parameters
    ----------
    x : array_like, shape (G,) or scalar
        Evaluation points (finite; G may be 0).
    weights : array_like, shape (k,)
        Mixture weights, >= 0, summing to 1 (within 1e-9).
    means : array_like, shape (k,)
        Component means.
    sds : array_like, shape (k,)
        Component standard deviations, > 0.

    Returns
    -------
    float or array, shape (G,)
        f(x).

    Examples
    --------
    >>> round(gmm_1d_density(0.0, [1.0], [0.0], [1.0]), 6)  # 1/sqrt(2 pi)
    0.398942
    """
    xs = np.asarray(as_real_array(x, "x", ndim=(0, 1), min_size=0, xp=np))
    w, m, s = _check_gmm(weights, means, sds)
    out = _gmm_pdf(np.atleast_1d(xs), w, m, s)
    return float(out[0]) if xs.ndim == 0 else out


def gmm_1d_second_derivative_roughness(weights: Any, means: Any, sds: Any) -> float:
    """∫ f''(x)² dx for a 1-D Gaussian mixture, in closed form.

    Notes
    -----
    The roughness ∫|f''|² enters the AMISE and h* of paper Sec. 2 / eq. (2). For Gaussian
    components the integral is exact (Wand and Jones 1995, §2.6):

        ∫ f''² = Σ_ij w_i w_j φ⁽⁴⁾_{σ_ij}(m_i − m_j),  σ_ij = sqrt(s_i² + s_j²),

    with φ⁽⁴⁾_σ(x) = φ_σ(x) (u⁴ − 6u² + 3)/σ⁴ and u = x/σ. Unlike quadrature, this stays exact
    for components far apart or far from 0 (means of 1e300), where an integration interval
    cannot be resolved in float64; pairs with |u| > 40 contribute exactly 0 (φ(40) < 1e-347).
    The tests check it against ``scipy.integrate.quad``.

    Parameters
    ----------
    weights, means, sds : array_like, shape (k,)
        As in :func:`gmm_1d_density`.

    Returns
    -------
    float
        ∫ f''² (+inf if it exceeds the float64 range, e.g. for sds near 1e-62).

    Examples
    --------
    >>> r = gmm_1d_second_derivative_roughness([1.0], [0.0], [1.0])
    >>> round(r, 8)  # 3 / (8 sqrt(pi))
    0.21157109
    """
    w, m, s = _check_gmm(weights, means, sds)
    return _roughness(w, m, s)


def ise(h: Any, samples: Any, f: Any, kernel: str, grid: Any) -> Any:
    """Integrated squared error ∫ (f̂_h - f)² of a KDE, by the trapezoid rule on ``grid``.

    Notes
    -----
    The MISE of paper Sec. 2 is the expectation of this quantity over the sample; one sample
    gives one ISE curve, whose minimiser fluctuates around the AMISE-optimal h* (note §2.1).

    Parameters
    ----------
    h : float or array_like, shape (H,)
        Bandwidth(s), finite and > 0.
    samples : array_like, shape (M,)
        Data ξ_μ.
    f : callable or array_like, shape (G,)
        The true density, as a vectorised function or as its values on ``grid`` (finite).
    kernel : str
        Kernel name from :data:`KERNELS`.
    grid : array_like, shape (G,)
        Increasing integration grid, G >= 2, covering the support of f and of f̂_h.

    Returns
    -------
    float or numpy.ndarray, shape (H,)
        ISE at each bandwidth.

    Examples
    --------
    >>> g = np.linspace(-3, 3, 2001)
    >>> ise(1.0, [0.0], lambda x: 0.75 * np.clip(1 - x**2, 0, None), "epanechnikov", g) < 1e-12
    True
    """
    h_arr, scalar = _as_bandwidths(h)
    data = _as_1d(samples, "samples")
    if not callable(f):
        f = as_real_array(f, "f", ndim=1, xp=np)
    k = KERNELS[_check_kernel(kernel)]
    x, fx = _check_grid_and_target(grid, f)
    out = np.array([_ise(x, fx, data, hh, k) for hh in h_arr])
    return float(out[0]) if scalar else out


def ise_curves(
    h: Any,
    samples: Any,
    weights: Any,
    means: Any,
    sds: Any,
    grid: Any,
    kernels: Sequence[str] = ("epanechnikov", "gaussian", "uniform", "triangular"),
) -> ISECurves:
    """ISE(h) of several kernels against a 1-D Gaussian-mixture target (KDE explorer panel).

    Notes
    -----
    For each kernel, ISE(h) = ∫ (f̂_h - f)² on ``grid`` (see :func:`ise`), plus the corrected
    AMISE-optimal h* = (σ_K / (M μ_K² ∫|f''|²))^(1/5) (note §2.1) for comparison.

    Parameters
    ----------
    h : float or array_like, shape (H,)
        Bandwidths, finite and > 0.
    samples : array_like, shape (M,)
        Data drawn from the mixture.
    weights, means, sds : array_like, shape (k,)
        The mixture (see :func:`gmm_1d_density`).
    grid : array_like, shape (G,)
        Increasing integration grid; it must hold at least 99 % of the mixture's mass.
    kernels : sequence of str
        Kernel names from :data:`KERNELS`, at least one.

    Returns
    -------
    ISECurves
        Curves, grid minimisers and AMISE optima.

    Raises
    ------
    ValueError
        For invalid arguments, or when [grid[0], grid[-1]] holds less than 99 % of the mass of
        the mixture (the ISE on the grid would then miss most of the target).
    """
    h_arr, _ = _as_bandwidths(h)
    names = _check_kernels(kernels)
    data = _as_1d(samples, "samples")
    w, m, s = _check_gmm(weights, means, sds)
    x, fx = _check_grid_and_target(grid, lambda t: _gmm_pdf(t, w, m, s))
    mass = _gmm_mass(x[0], x[-1], w, m, s)
    if not mass >= _MIN_GRID_MASS:
        raise ValueError(
            f"grid must cover the mixture (weights, means, sds): [{x[0]!r}, {x[-1]!r}] holds "
            f"{mass:.3g} of its mass, need at least {_MIN_GRID_MASS}"
        )
    curves = np.array([[_ise(x, fx, data, hh, KERNELS[n]) for hh in h_arr] for n in names])
    rough = _roughness(w, m, s)
    h_amise = np.array([_h_star(_stats(n), rough, data.shape[0]) for n in names])
    h_best = h_arr[np.argmin(curves, axis=1)]
    return ISECurves(h=h_arr, kernels=names, ise=curves, h_best=h_best, h_amise=h_amise)


# --------------------------------------------------------------------------------------------
# private kernels


def _xp(u: Any) -> Any:
    return array_namespace(u)


def _compact(u: Any, body: Callable[[Any, Any], Any]) -> Any:
    """Evaluate ``body`` on |u| <= 1 and 0 outside (compact kernels of paper Fig. 5)."""
    xp = _xp(u)
    a = xp.abs(xp.asarray(u, dtype=xp.float64))
    inside = a <= 1.0
    return xp.where(inside, body(xp.where(inside, a, 0.0), xp), 0.0)


def _epanechnikov(u: Any) -> Any:
    return _compact(u, lambda a, xp: 0.75 * (1.0 - a * a))


def _cosine(u: Any) -> Any:
    return _compact(u, lambda a, xp: (math.pi / 4.0) * xp.cos(math.pi * a / 2.0))


def _tricube(u: Any) -> Any:
    return _compact(u, lambda a, xp: (70.0 / 81.0) * (1.0 - a**3) ** 3)


def _biweight(u: Any) -> Any:
    return _compact(u, lambda a, xp: (15.0 / 16.0) * (1.0 - a * a) ** 2)


def _triweight(u: Any) -> Any:
    return _compact(u, lambda a, xp: (35.0 / 32.0) * (1.0 - a * a) ** 3)


def _triangular(u: Any) -> Any:
    return _compact(u, lambda a, xp: 1.0 - a)


def _uniform(u: Any) -> Any:
    return _compact(u, lambda a, xp: 0.5 + 0.0 * a)


def _gaussian(u: Any) -> Any:
    xp = _xp(u)
    u = xp.asarray(u, dtype=xp.float64)
    with np.errstate(over="ignore"):  # u² beyond float64: the density is exactly 0
        return xp.exp(-0.5 * u * u) / math.sqrt(2.0 * math.pi)


def _logistic(u: Any) -> Any:
    # 1 / (e^u + 2 + e^-u) written with e^-|u| so it never overflows
    xp = _xp(u)
    t = xp.exp(-xp.abs(xp.asarray(u, dtype=xp.float64)))
    return t / (1.0 + t) ** 2


def _sigmoid(u: Any) -> Any:
    # (2/pi) / (e^u + e^-u) written with e^-|u| so it never overflows
    xp = _xp(u)
    t = xp.exp(-xp.abs(xp.asarray(u, dtype=xp.float64)))
    return (2.0 / math.pi) * t / (1.0 + t * t)


_INF = math.inf

KERNELS: Mapping[str, Kernel] = MappingProxyType(
    {
        "epanechnikov": Kernel("epanechnikov", "3/4 (1 - u²) 1{|u|≤1}", 1.0, _epanechnikov),
        "cosine": Kernel("cosine", "π/4 cos(πu/2) 1{|u|≤1}", 1.0, _cosine),
        "tricube": Kernel("tricube", "70/81 (1 - |u|³)³ 1{|u|≤1}", 1.0, _tricube),
        "biweight": Kernel("biweight", "15/16 (1 - u²)² 1{|u|≤1}", 1.0, _biweight),
        "triweight": Kernel("triweight", "35/32 (1 - u²)³ 1{|u|≤1}", 1.0, _triweight),
        "triangular": Kernel("triangular", "(1 - |u|) 1{|u|≤1}", 1.0, _triangular),
        "gaussian": Kernel("gaussian", "exp(-u²/2) / sqrt(2π)", _INF, _gaussian),
        "uniform": Kernel("uniform", "1/2 1{|u|≤1}", 1.0, _uniform),
        "logistic": Kernel("logistic", "1 / (e^u + 2 + e^-u)", _INF, _logistic),
        "sigmoid": Kernel("sigmoid", "2/π / (e^u + e^-u)", _INF, _sigmoid),
    }
)
"""The kernels of paper Fig. 5, normalised (∫K = 1), keyed by lower-case name."""


# Least share of the target mixture's mass that the grid of ise_curves must hold.
_MIN_GRID_MASS = 0.99


def _check_kernel(name: Any, param: str = "kernel") -> str:
    """A kernel name (case-insensitive) of :data:`KERNELS`; the message names ``param``."""
    if not isinstance(name, str) or name.lower() not in KERNELS:
        raise ValueError(f"{param} must be one of the kernels {tuple(KERNELS)}, got {name!r}")
    return name.lower()


def _check_kernels(kernels: Any) -> tuple[str, ...]:
    """A non-empty sequence of kernel names."""
    if isinstance(kernels, str | bytes) or not isinstance(kernels, Sequence | np.ndarray):
        raise TypeError(
            f"kernels must be a sequence of kernel names, got {kernels!r} of type "
            f"{type(kernels).__name__}"
        )
    names = tuple(_check_kernel(n, "kernels") for n in kernels)
    if not names:
        raise ValueError("kernels must name at least one kernel, got an empty sequence")
    return names


def _h_star(stats: KernelStats, r: float, m: int) -> float:
    """Corrected AMISE optimum (σ_K / (M μ_K² ∫f''²))^(1/5) (note §2.1); 0 for r = +inf."""
    return (stats.sigma_K / (m * stats.mu_K**2 * r)) ** 0.2


def _roughness(w: np.ndarray, m: np.ndarray, s: np.ndarray) -> float:
    """Σ_ij w_i w_j φ⁽⁴⁾_{σ_ij}(m_i − m_j) (see :func:`gmm_1d_second_derivative_roughness`)."""
    sig = np.hypot(s[:, None], s[None, :])
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        u = (m[:, None] - m[None, :]) / sig
        near = np.abs(u) <= 40.0
        u2 = np.where(near, u, 0.0) ** 2
        phi = np.exp(-0.5 * u2) / math.sqrt(2.0 * math.pi)
        terms = (w[:, None] * w[None, :]) * phi * (u2 * u2 - 6.0 * u2 + 3.0) / sig**5
        value = float(np.sum(np.where(near, terms, 0.0)))
    # the integral is > 0; NaN only when sig**5 underflows on both signs of terms (sds < 1e-62),
    # where the true value is beyond the float64 range
    return math.inf if math.isnan(value) else value


def _gmm_mass(a: float, b: float, w: np.ndarray, m: np.ndarray, s: np.ndarray) -> float:
    """Mass of the mixture on [a, b]: Σ_i w_i (Φ((b − m_i)/s_i) − Φ((a − m_i)/s_i))."""
    from scipy.special import ndtr

    with np.errstate(over="ignore"):
        return float(np.sum(w * (ndtr((b - m) / s) - ndtr((a - m) / s))))


def _quad_even(fun: Callable[[float], float], support: float) -> float:
    """2 ∫_0^support fun for an even integrand (all kernels are symmetric, paper Sec. 2)."""
    value, _ = integrate.quad(fun, 0.0, support, limit=200, epsabs=1e-14, epsrel=1e-12)
    return 2.0 * value


def _moments(k: Kernel) -> tuple[float, float]:
    """(μ_K, σ_K) of paper Sec. 2 by quadrature."""

    def f(t: float) -> float:
        return float(k.function(np.float64(t)))

    mu = _quad_even(lambda t: t * t * f(t), k.support)
    sigma = _quad_even(lambda t: f(t) ** 2, k.support)
    return mu, sigma


@lru_cache(maxsize=1)
def _kernel_table_cached() -> tuple[KernelStats, ...]:
    moments = {name: _moments(k) for name, k in KERNELS.items()}
    mu_e, sigma_e = moments["epanechnikov"]
    ref = math.sqrt(mu_e) * sigma_e
    return tuple(
        KernelStats(name, mu, sigma, ref / (math.sqrt(mu) * sigma))
        for name, (mu, sigma) in moments.items()
    )


def _stats(name: Any) -> KernelStats:
    key = _check_kernel(name)
    return next(s for s in _kernel_table_cached() if s.name == key)


def _as_1d(a: Any, name: str) -> Any:
    xp = array_namespace(a)
    arr = xp.asarray(a) if hasattr(a, "dtype") else np.asarray(a)
    if getattr(arr.dtype, "kind", "O") not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    arr = xp.asarray(arr, dtype=xp.float64)
    if arr.ndim != 1 or arr.shape[0] < 1:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {arr.shape}")
    if not bool(xp.all(xp.isfinite(arr))):
        raise ValueError(f"{name} must be finite, got NaN or inf entries")
    return arr


def _as_bandwidths(h: Any) -> tuple[np.ndarray, bool]:
    if np.ndim(h) == 0:
        return np.array([check_beta(h, "h")]), True
    arr = np.asarray(h)
    if arr.dtype.kind not in "iuf" or arr.ndim != 1 or arr.size < 1:
        raise ValueError(f"h must be a number or a non-empty 1-D array of numbers, got {h!r}")
    arr = arr.astype(float)
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"h must hold finite numbers > 0, got min {arr.min()!r}")
    return arr, False


def _check_gmm(weights: Any, means: Any, sds: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    w = np.asarray(_as_1d(weights, "weights"))
    m = np.asarray(_as_1d(means, "means"))
    s = np.asarray(_as_1d(sds, "sds"))
    if not (w.shape == m.shape == s.shape):
        raise ValueError(
            f"weights, means and sds must have the same length, got {w.shape}, {m.shape}, {s.shape}"
        )
    if np.any(w < 0) or abs(w.sum() - 1.0) > 1e-9:
        raise ValueError(f"weights must be >= 0 and sum to 1, got sum {w.sum()!r}")
    if np.any(s <= 0):
        raise ValueError(f"sds must be > 0, got min {s.min()!r}")
    return w, m, s


def _check_grid_and_target(grid: Any, f: Any) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(_as_1d(grid, "grid"))
    if x.shape[0] < 2 or np.any(np.diff(x) <= 0):
        raise ValueError(f"grid must be strictly increasing with >= 2 points, got shape {x.shape}")
    fx = np.asarray(f(x) if callable(f) else f, dtype=float)
    if fx.shape != x.shape or not np.all(np.isfinite(fx)):
        raise ValueError(f"f must give finite values of shape {x.shape} on grid, got {fx.shape}")
    return x, fx


def _kde(grid: Any, data: Any, h: float, k: Kernel) -> Any:
    """(M h)^-1 Σ_μ K((x - ξ_μ)/h) (paper Sec. 2), chunked over the grid.

    For a compact kernel only the samples within h of x contribute; with the samples sorted,
    each grid point reads a window of at most ``width`` consecutive samples.
    """
    xp = array_namespace(grid, data)
    m = data.shape[0]
    if math.isfinite(k.support):
        srt = xp.sort(data)
        lo = xp.searchsorted(srt, grid - h * k.support, side="left")
        hi = xp.searchsorted(srt, grid + h * k.support, side="right")
        width = int(xp.max(hi - lo)) if grid.shape[0] else 0
        if width < m:
            return _kde_windowed(grid, srt, lo, hi, max(width, 1), h, k.function, xp) / (m * h)
    step = max(1, (1 << 22) // m)
    parts = [
        xp.sum(k.function((grid[i : i + step, None] - data[None, :]) / h), axis=1)
        for i in range(0, grid.shape[0], step)
    ]
    return xp.concatenate(parts) / (m * h)


def _kde_windowed(
    grid: Any, srt: Any, lo: Any, hi: Any, width: int, h: float, kfun: Callable, xp: Any
) -> Any:
    """Σ_μ K((x - ξ_μ)/h) over the sorted-sample window [lo, hi) of every grid point."""
    m = srt.shape[0]
    offsets = xp.arange(width)
    step = max(1, (1 << 22) // width)
    parts = []
    for i in range(0, grid.shape[0], step):
        idx = lo[i : i + step, None] + offsets[None, :]
        valid = idx < hi[i : i + step, None]
        vals = kfun((grid[i : i + step, None] - srt[xp.minimum(idx, m - 1)]) / h)
        parts.append(xp.sum(xp.where(valid, vals, 0.0), axis=1))
    return xp.concatenate(parts)


def _ise(x: np.ndarray, fx: np.ndarray, data: Any, h: float, k: Kernel) -> float:
    est = np.asarray(_kde(x, np.asarray(data), h, k))
    with np.errstate(over="ignore"):  # a squared error beyond float64 is +inf
        return float(integrate.trapezoid((est - fx) ** 2, x))


def _gmm_pdf(x: np.ndarray, w: np.ndarray, m: np.ndarray, s: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # z² beyond float64: the component density is exactly 0
        z = (x[:, None] - m[None, :]) / s[None, :]
        return np.sum(w * np.exp(-0.5 * z * z) / (s * math.sqrt(2.0 * math.pi)), axis=1)
