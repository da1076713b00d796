"""Free convolution of the Wishart prior with a semicircle, the RIE and its MMSE.

Source: E. Troiani, *Attention-index models and how to solve them using tools for quadratic
networks* (talk slides, "Matrix denoising" and "Bayes-optimal learning" slides), and the papers
they rest on: Maillard, Troiani, Martin, Krzakala and Zdeborová, *Bayes-optimal learning of an
extensive-width neural network from quadratically many samples* (NeurIPS 2024,
arXiv:2408.03733); Bun, Allez, Bouchaud and Potters, *Rotational invariant estimator for general
noisy matrices* (IEEE Trans. Inf. Theory 2016).

Notation map
------------
- ρ = p*/d (teacher width; "κ" in the papers' code)          -> ``rho``
- δ² (variance of the GOE noise in Y = A + δ Z)              -> ``delta2``
- A = Wᵀ W/√(p d) (the signal, A-units)                      -> ``A`` (in tests)
- Y = A + δ Z, Z ~ GOE(d) (the observation)                  -> ``Y``, shape ``(d, d)``
- μ_Y = μ_A ⊞ SC(δ²) (spectral density of Y)                 -> :func:`free_conv_density`
- g(z) = ∫ μ(t)/(z − t) dt, v(x) = Re g(x − i0) (Hilbert)    -> ``stieltjes``, ``hilbert``
- f(λ) = λ − 2δ² v(λ) (RIE shrinkage)                        -> :func:`rie_shrinkage`
- MMSE_den(δ²) = δ² − (4π²/3) δ⁴ ∫ μ_Y³                      -> :func:`rie_mmse`

Conventions
-----------
Everything is in **A-units**: the prior is A = Wᵀ W/√(p d), with mean eigenvalue √ρ, an atom
(1 − ρ)₊ at 0 and a bulk on [√ρ + 1/√ρ − 2, √ρ + 1/√ρ + 2]; its second moment is Q₀ = 1 + ρ
and the trivial estimator has MSE 1 per unit (1/d)‖·‖²_F. The official quadratic-network code
works in **S-units**, S = Wᵀ W/p = A/√ρ (Marchenko-Pastur with mean 1). :func:`to_s_units` and
:func:`to_a_units` convert every quantity in one place (:data:`S_UNIT_FACTORS`); the test MSE on
fresh noiseless labels is :data:`TEST_MSE_PER_MATRIX_MSE` = 2 times the matrix MSE.

GOE(d) means Z = (H + Hᵀ)/√(2d) with H_ij iid N(0, 1): off-diagonal variance 1/d, diagonal
2/d, semicircle on [−2, 2]. SC(t) is the semicircle of variance t.

The Stieltjes transform of μ_Y solves the cubic (A-units)
δ² g³ − (z + δ²√ρ) g² + (√ρ z − ρ + 1) g − √ρ = 0, from z = R(g) + 1/g with
R(g) = ρ/(√ρ − g) + δ² g. At z = x − iη exactly one root has Im g > 0; it is the Stieltjes
transform, on and off the support. Inside the support the cubic has a complex pair already at
η = 0, which is used there (exact, no O(√η) bias at the edges), solved in closed form and
vectorised over all points and all δ² of a call; off the support η = 1e-9 picks the real root
on the Stieltjes branch (companion-matrix eigenvalues). The support is where the cubic's
discriminant, a quartic in z, is negative. Integrals over μ_Y use the substitution
x = c − h cos θ on each support interval with the midpoint rule in θ, which is spectrally
accurate for square-root edges.

Public functions
----------------
``free_conv_density``, ``free_conv_support``, ``free_conv_quadrature`` (result
``FreeConvQuadrature``), ``rie_shrinkage``, ``rie_denoise``, ``rie_mmse``, ``to_s_units``,
``to_a_units``; constants ``S_UNIT_FACTORS`` and ``TEST_MSE_PER_MATRIX_MSE``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    ConvergenceWarning,
    as_real_array,
    check_bool,
    check_fraction,
    check_nonneg_float,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy

__all__ = [
    "S_UNIT_FACTORS",
    "TEST_MSE_PER_MATRIX_MSE",
    "FreeConvQuadrature",
    "free_conv_density",
    "free_conv_quadrature",
    "free_conv_support",
    "rie_denoise",
    "rie_mmse",
    "rie_shrinkage",
    "to_a_units",
    "to_s_units",
]

#: A-units -> S-units: multiply by ρ ** exponent. S = A/√ρ; q̂_S = ρ q̂_A, so the noise variance
#: δ²_S = δ²_A/ρ; the matrix MSE m_S = m_A/ρ; the label noise Δ_S = Δ_A/ρ (Maillard et al.
#: 2024's code works in S-units and multiplies by κ = ρ when it plots).
S_UNIT_FACTORS: dict[str, float] = {
    "signal": -0.5,
    "mse": -1.0,
    "delta2": -1.0,
    "precision": 1.0,
    "label_noise": -1.0,
}

#: Test MSE on fresh noiseless labels per unit of matrix MSE: E Tr[G(Â − A)]² = 2 m for
#: G = (x xᵀ − I)/√d (add Δ for noisy test labels).
TEST_MSE_PER_MATRIX_MSE = 2.0

_ETA = 1e-9  # z = x − iη off the support: the side where the Stieltjes root has Im g > 0
_NODES = 96  # cos-substitution nodes per support interval (about 1e-12 on ∫μ³)
_RHO_RANGE = (1e-6, 1e6)  # beyond these the cubic's coefficients over- or underflow
_DELTA2_RANGE = (1e-6, 1e4)  # δ² → 0 degenerates the cubic; above 1e4 the MMSE cancels
_X_MAX = 1e8  # |x| above this overflows the monic cubic's coefficients at small δ²
_MASS_TOL = 1e-5  # reported above this. Where a narrow zero-mode bulk merges into the Wishart
# bulk (ρ ≈ 0.6, δ² ≈ 0.006) the mass converges only like 1/nodes² (1.1e-6 left with 98304
# nodes); the MMSE is then right to about 1e-6 relative, far inside the chapter's tolerances
_MMSE_TOL = 1e-6  # rie_mmse warns where its error bound δ²·|mass − 1| exceeds this ...
_MASS_TOL_MMSE = 1e-3  # ... or the mass itself is this far off
_REFINE_TOL = 1e-10  # nodes double until the mass is this close to 1
_MAX_DOUBLINGS = 7  # at most 2⁷ = 128 times the nodes asked for
_CHUNK = 2**16  # companion matrices per eigvals call (9 MiB), off the support
_NECK_IMAG = 1e-2  # a complex discriminant root this close to the axis marks a neck (see _neck)
_NECK_DEPTH = 0.2  # ... and where μ_Y there is below this fraction of its mean height
_BATCH_NODES = 2**18  # quadrature nodes per block of rie_mmse's batched δ² (a few 10 MiB)
_MAX_POINTS = 2**24  # points per call (about 20 s of eigvals off the support)


@dataclass(frozen=True)
class FreeConvQuadrature:
    """Quadrature nodes for integrals against μ_Y = μ_A ⊞ SC(δ²) (cos substitution).

    Attributes
    ----------
    rho, delta2 : float
        The parameters used.
    edges : ndarray, shape (k, 2)
        Support intervals [l, h] (k = 1 or 2), as :func:`free_conv_support` returns them.
    x, weights : ndarray, shape (k * nodes,)
        Nodes x = (l + h)/2 − (h − l)/2 cos θ_j, θ_j = (j − ½)π/nodes, and weights
        (h − l)/2 sin θ_j π/nodes, so that ∫ φ(x) μ(x) dx ≈ Σ weights φ(x) density.
    density, hilbert : ndarray, shape (k * nodes,)
        μ_Y(x) and its Hilbert transform v(x) = p.v. ∫ μ(t)/(x − t) dt at the nodes.
    """

    rho: float
    delta2: float
    edges: np.ndarray
    x: np.ndarray
    weights: np.ndarray
    density: np.ndarray
    hilbert: np.ndarray


# --------------------------------------------------------------------------------------------
# Validation at the boundary
# --------------------------------------------------------------------------------------------


def _check_range(value: Any, name: str, lo: float, hi: float, zero_ok: bool = False) -> float:
    """A real scalar in [lo, hi], or exactly 0 when ``zero_ok`` (``delta2`` of :func:`rie_mmse`)."""
    if zero_ok:
        out = check_nonneg_float(value, name)
        if out == 0.0:
            return 0.0
        if not lo <= out <= hi:
            raise ValueError(f"{name} must be 0 or lie in [{lo}, {hi}], got {out!r}")
    return check_fraction(value, name, lo, hi, open_lo=False, open_hi=False)


def _check_params(rho: Any, delta2: Any) -> tuple[float, float]:
    return (
        _check_range(rho, "rho", *_RHO_RANGE),
        _check_range(delta2, "delta2", *_DELTA2_RANGE),
    )


def _check_points(x: Any, name: str = "x") -> np.ndarray:
    arr = as_real_array(x, name, xp=np)
    check_size(arr.size, name, "points", _MAX_POINTS, "evaluate fewer points at a time")
    top = float(np.abs(arr).max())
    if top > _X_MAX:
        raise ValueError(
            f"{name} must have entries of magnitude <= {_X_MAX:g} (the spectrum is O(1) in the "
            f"GOE(d) normalisation), got an entry of magnitude {top:.3g}"
        )
    return arr


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def to_s_units(value: Any, quantity: str, rho: Any) -> Any:
    """Convert a quantity from A-units (the library's) to S-units (the papers' code).

    Parameters
    ----------
    value : float or array_like
        The quantity in A-units (any finite reals; arrays keep their shape).
    quantity : {"signal", "mse", "delta2", "precision", "label_noise"}
        What ``value`` is: a signal matrix or eigenvalue (S = A/√ρ), a matrix MSE
        (m_S = m_A/ρ), a denoising noise variance (δ²_S = δ²_A/ρ), a denoising precision
        (q̂_S = ρ q̂_A) or a label-noise variance (Δ_S = Δ_A/ρ).
    rho : float
        Teacher width ratio ρ = p*/d, in [1e-6, 1e6].

    Returns
    -------
    float or ndarray
        ``value * rho ** S_UNIT_FACTORS[quantity]``.

    Notes
    -----
    A-units: A = Wᵀ W/√(p d) (the slides' A; MMSE 1 at α = 0). S-units: S = Wᵀ W/p (Maillard
    et al. 2024's code; MMSE 1/ρ at α = 0). The slides' "2αρ/q̂" mixes the two: it is the
    A-units MMSE written with the S-units precision.

    Examples
    --------
    The A-units MMSE 1 at α = 0 is 1/ρ in S-units:

    >>> to_s_units(1.0, "mse", 0.5)
    2.0
    """
    return _convert(value, quantity, rho, +1.0)


def to_a_units(value: Any, quantity: str, rho: Any) -> Any:
    """Convert a quantity from S-units to A-units; the inverse of :func:`to_s_units`.

    Parameters are those of :func:`to_s_units`, with ``value`` in S-units.

    Examples
    --------
    The repository's denoising noise δ²_S = 1.2 at κ = 0.5 is δ²_A = 0.6:

    >>> to_a_units(1.2, "delta2", 0.5)
    0.6
    """
    return _convert(value, quantity, rho, -1.0)


def free_conv_support(rho: Any, delta2: Any) -> np.ndarray:
    """Support of μ_A ⊞ SC(δ²): one or two intervals where the density is positive.

    Parameters
    ----------
    rho : float
        ρ = p*/d, in [1e-6, 1e6].
    delta2 : float
        Noise variance δ², in [1e-6, 1e4].

    Returns
    -------
    ndarray, shape (k, 2)
        Sorted intervals [l, h], k = 1 or 2. A second, "zero-eigenvalue" bulk separates for
        ρ < 1 and small δ².

    Notes
    -----
    The density is positive exactly where the cubic for the Stieltjes transform has complex
    roots, that is where its discriminant 18abce − 4b³e + b²c² − 4ac³ − 27a²e² < 0, with
    a = δ², b = −(z + δ²√ρ), c = √ρ z − ρ + 1, e = −√ρ. The discriminant is a quartic in z
    whose real roots are the edges (Maillard et al. 2024's code writes the same quartic in
    S-units).

    Examples
    --------
    With ρ = 0.2 and δ² = 0.05 the zero-eigenvalue bulk is separate:

    >>> free_conv_support(0.2, 0.05).round(3)
    array([[-0.405,  0.393],
           [ 0.724,  4.699]])
    """
    rho, delta2 = _check_params(rho, delta2)
    return _support(rho, delta2)


def free_conv_density(x: Any, rho: Any, delta2: Any) -> Any:
    """Density of μ_Y = μ_A ⊞ SC(δ²), the spectrum of Y = A + δ Z (A-units).

    Parameters
    ----------
    x : float or array_like
        Points (any shape), |x| <= 1e8.
    rho, delta2 : float
        As in :func:`free_conv_support`.

    Returns
    -------
    float or ndarray
        μ_Y(x) = Im g(x − i0)/π, the shape of ``x``; exactly 0 outside the support.

    Notes
    -----
    g solves δ² g³ − (z + δ²√ρ) g² + (√ρ z − ρ + 1) g − √ρ = 0 (R-transform of the
    Marchenko-Pastur prior in A-units, ρ/(√ρ − g), plus δ² g for the semicircle; slides
    "Matrix denoising"). Inside the support, where the density is positive, the real cubic has
    one real root and a complex pair, solved in closed form (Cardano, then Newton steps) for all
    x at once; g(x − i0) is the root of the pair with Im g > 0. Off the support (only
    ``rie_shrinkage`` goes there, at x − 1e-9 i) the three roots are the eigenvalues of the
    monic cubic's companion matrix and g is the one with the largest Im g.

    Examples
    --------
    The density integrates to 1 (mass of the atom at 0 included, since δ > 0 smooths it):

    >>> q = free_conv_quadrature(0.5, 0.6)
    >>> round(float(q.weights @ free_conv_density(q.x, 0.5, 0.6)), 8)
    1.0
    """
    arr = _check_points(x)
    rho, delta2 = _check_params(rho, delta2)
    edges = _support(rho, delta2)
    flat = arr.ravel()
    inside = _inside(flat, edges)
    out = np.zeros_like(flat)
    out[inside] = np.maximum(_stieltjes(flat[inside], rho, delta2, eta=0.0).imag, 0.0) / np.pi
    out = out.reshape(arr.shape)
    return float(out) if out.ndim == 0 else out


def free_conv_quadrature(rho: Any, delta2: Any, nodes: Any = _NODES) -> FreeConvQuadrature:
    """Nodes, weights, density and Hilbert transform for integrals against μ_A ⊞ SC(δ²).

    Parameters
    ----------
    rho, delta2 : float
        As in :func:`free_conv_support`.
    nodes : int
        Nodes per support interval, 8 to 100000 (96 gives about 1e-12 on ∫ μ³).

    Returns
    -------
    FreeConvQuadrature
        ``x``, ``weights``, ``density`` and ``hilbert`` on the cos-substitution nodes.

    Warns
    -----
    ConvergenceWarning
        When the quadrature's mass misses 1 by more than 1e-6 (too few nodes).

    Notes
    -----
    On each interval [l, h], x = (l + h)/2 − (h − l)/2 cos θ with the midpoint rule in θ and
    weights (h − l)/2 sin θ · π/nodes; the sin θ factor cancels the square-root edges.

    Examples
    --------
    The mean of μ_Y is √ρ and its second moment 1 + ρ + δ²:

    >>> q = free_conv_quadrature(0.5, 0.6)
    >>> m1 = q.weights @ (q.x * q.density)
    >>> m2 = q.weights @ (q.x**2 * q.density)
    >>> round(float(m1), 8), round(float(m2), 8)
    (0.70710678, 2.1)
    """
    rho, delta2 = _check_params(rho, delta2)
    nodes = check_positive_int(nodes, "nodes", minimum=8, maximum=100_000)
    return _quadrature(rho, delta2, nodes)


def rie_shrinkage(x: Any, rho: Any, delta2: Any, clip: Any = True) -> Any:
    """The RIE's eigenvalue map f(λ) = λ − 2δ² v_Y(λ) for the Wishart prior (A-units).

    Parameters
    ----------
    x : float or array_like
        Eigenvalues λ (any shape), |λ| <= 1e8.
    rho, delta2 : float
        As in :func:`free_conv_support`.
    clip : bool
        Clip λ to the nearest point of the theoretical support first (default). Off the support
        f(λ) ≈ λ does not shrink finite-d outliers; iterative algorithms need the clip.

    Returns
    -------
    float or ndarray
        f(λ), the shape of ``x``.

    Notes
    -----
    Ledoit-Péché / Bun-Allez-Bouchaud-Potters: the Bayes-optimal rotation-equivariant estimator
    keeps the eigenvectors of Y and maps each eigenvalue by f (slides, "Matrix denoising").
    v_Y(λ) = Re g(λ − i0) is the Hilbert transform of μ_Y.

    Examples
    --------
    The noise spreads the spectrum; the map pulls the left edge of the support back to the right:

    >>> lo = free_conv_support(0.5, 0.6)[0, 0]
    >>> bool(rie_shrinkage(lo, 0.5, 0.6) > lo)
    True
    """
    arr = _check_points(x)
    rho, delta2 = _check_params(rho, delta2)
    clip = check_bool(clip, "clip")
    out = _shrink(arr.ravel(), rho, delta2, clip).reshape(arr.shape)
    return float(out) if out.ndim == 0 else out


def rie_denoise(Y: Any, rho: Any, delta2: Any, clip: Any = True) -> Any:
    """Rotation-invariant estimate of A from Y = A + δ Z (Bayes-optimal for a Wishart prior).

    Parameters
    ----------
    Y : array_like, shape (d, d)
        A symmetric observation in the GOE(d) normalisation (spectrum O(1)), |Y_ij| <= 1e8.
        NumPy or CuPy; the eigen-decomposition runs where ``Y`` lives.
    rho, delta2 : float
        As in :func:`free_conv_support`.
    clip : bool
        Clip eigenvalues to the theoretical support before the map (default; see
        :func:`rie_shrinkage`).

    Returns
    -------
    ndarray, shape (d, d)
        Â = U diag(f(λ_i)) Uᵀ with Y = U diag(λ) Uᵀ, in the namespace of ``Y``.

    Raises
    ------
    ValueError
        If ``Y`` is not square or not symmetric (max |Y − Yᵀ| above 1e-10 of max |Y|).

    Notes
    -----
    Slides, "Matrix denoising": f(λ) = λ − 2δ² v_Y(λ). Its MSE (1/d)‖Â − A‖²_F tends to
    :func:`rie_mmse` as d → ∞.

    Examples
    --------
    With a prior of tiny width ρ (mass 1 − ρ at 0), a pure-noise Y (‖Y‖ ≈ 2δ = 2) is mapped
    close to 0:

    >>> rng = np.random.default_rng(0)
    >>> H = rng.standard_normal((200, 200))
    >>> Y = (H + H.T) / np.sqrt(400)
    >>> bool(np.linalg.norm(rie_denoise(Y, 1e-4, 1.0), 2) < 0.1)
    True
    """
    xp = array_namespace(Y)
    arr = as_real_array(Y, "Y", ndim=2, xp=xp)
    d = arr.shape[0]
    if arr.shape != (d, d) or d == 0:
        raise ValueError(f"Y must be a square (d, d) matrix with d >= 1, got shape {arr.shape}")
    check_size(d * d, "Y", "elements", MAX_ELEMENTS, "denoise a smaller matrix")
    top = float(xp.max(xp.abs(arr)))
    if top > _X_MAX:
        raise ValueError(
            f"Y must have entries of magnitude <= {_X_MAX:g} (the GOE(d) normalisation has an "
            f"O(1) spectrum), got an entry of magnitude {top:.3g}"
        )
    asym = float(xp.max(xp.abs(arr - arr.T)))
    if asym > 1e-10 * max(top, 1e-300):
        raise ValueError(f"Y must be symmetric, got max |Y - Y^T| = {asym:.3g}")
    rho, delta2 = _check_params(rho, delta2)
    clip = check_bool(clip, "clip")
    lam, U = xp.linalg.eigh((arr + arr.T) / 2)
    f = xp.asarray(_shrink(np.asarray(to_numpy(lam)), rho, delta2, clip))
    return (U * f) @ U.T


def rie_mmse(delta2: Any, rho: Any) -> Any:
    """Denoising MMSE of the Wishart prior under GOE noise of variance δ² (A-units).

    Parameters
    ----------
    delta2 : float or array_like, shape (n,)
        Noise variance δ², each 0 or in [1e-6, 1e4].
    rho : float
        ρ = p*/d, in [1e-6, 1e6].

    Returns
    -------
    float or ndarray
        MMSE_den(δ²) = lim (1/d) E‖Â − A‖²_F, a float for a scalar ``delta2``. δ² = 0 gives 0.

    Notes
    -----
    MMSE_den(δ²) = δ² − (4π²/3) δ⁴ ∫ μ_Y³ (slides, "Matrix denoising"; Bun et al. 2016). It
    follows from MMSE = Q₀ − ∫ f² μ_Y with ∫ λ² μ_Y = Q₀ + δ², ∫ μ λ v = ½ and
    ∫ μ v² = (π²/3) ∫ μ³. The integral uses the cos-substitution quadrature of
    :func:`free_conv_quadrature`, run for all δ² at once (nodes are doubled only for the δ²
    whose mass is not yet 1 within 1e-10). Maillard et al. 2024's notebook gives 0.28390 at ρ = 0.5,
    δ² = 0.6. Above δ² = 1e4 the difference loses digits (1 − MMSE ≈ 1/δ² while each term is
    ~ δ²), so such δ² are refused; the MMSE is 1 − O(1/δ²) there.

    Examples
    --------
    >>> round(rie_mmse(0.6, 0.5), 5)
    0.2839
    """
    arr = as_real_array(delta2, "delta2", ndim=(0, 1), xp=np)
    check_size(arr.size, "delta2", "values", 100_000, "pass fewer noise levels at a time")
    for value in arr.ravel():
        _check_range(float(value), "delta2", *_DELTA2_RANGE, zero_ok=True)
    rho = _check_range(rho, "rho", *_RHO_RANGE)
    flat = arr.ravel().astype(float)
    out = np.zeros(flat.size)
    positive = flat > 0.0
    if positive.any():
        out[positive] = _mmse_batch(rho, flat[positive])
    out = out.reshape(arr.shape)
    return float(out) if out.ndim == 0 else out


# --------------------------------------------------------------------------------------------
# Private kernels (trust their input)
# --------------------------------------------------------------------------------------------


def _convert(value: Any, quantity: str, rho: Any, sign: float) -> Any:
    quantity = check_option(quantity, "quantity", tuple(S_UNIT_FACTORS))
    rho = _check_range(rho, "rho", *_RHO_RANGE)
    arr = as_real_array(value, "value", min_size=1, xp=np)
    out = arr * rho ** (sign * S_UNIT_FACTORS[quantity])
    if not bool(np.all(np.isfinite(out))):
        raise ValueError(f"value is too large to convert at rho = {rho!r}: the result overflows")
    return float(out) if out.ndim == 0 else out


def _stieltjes(x: np.ndarray, rho: float, delta2: float, eta: float = _ETA) -> np.ndarray:
    """g(x − iη): the root of the A-units cubic with the largest Im g.

    Inside the support the cubic has a complex pair at real z, so η = 0 is exact there (no
    O(√η) bias at the edges) and the closed form :func:`_stieltjes_inside` gives it; off the
    support η > 0 picks the real root of the Stieltjes branch among three nearly real roots,
    which the companion matrices' eigenvalues resolve.
    """
    if eta == 0.0:
        return _stieltjes_inside(x, rho, delta2)
    return _stieltjes_eigvals(x - 1j * eta, rho, delta2)


def _stieltjes_eigvals(z: np.ndarray, rho: float, delta2: float) -> np.ndarray:
    """The cubic's root with the largest Im g at complex z, from companion-matrix eigenvalues."""
    s = math.sqrt(rho)
    out = np.empty(z.size, dtype=complex)
    for start in range(0, z.size, _CHUNK):  # (n, 3, 3) complex companions, a block at a time
        zc = z[start : start + _CHUNK]
        comp = np.zeros((zc.size, 3, 3), dtype=complex)
        comp[:, 0, 0] = (zc + delta2 * s) / delta2
        comp[:, 0, 1] = -(s * zc - rho + 1.0) / delta2
        comp[:, 0, 2] = s / delta2
        comp[:, 1, 0] = 1.0
        comp[:, 2, 1] = 1.0
        roots = np.linalg.eigvals(comp)
        best = np.argmax(roots.imag, axis=1)[:, None]
        out[start : start + _CHUNK] = np.take_along_axis(roots, best, axis=1)[:, 0]
    return out


def _stieltjes_inside(x: np.ndarray, rho: float, delta2: Any) -> np.ndarray:
    """g(x − i0) at real x inside the support, in closed form (``delta2`` broadcasts with x).

    There the real cubic has one real root r and a complex pair u ± iv. The real root is the
    trigonometric-free Cardano root (Numerical Recipes' stable form), polished by two Newton
    steps; the pair follows from Vieta, P = |u + iv|² = −a₀/r and u = S/2 with the pair's sum S
    taken from whichever of −a₂ − r and (a₁ − P)/r does not cancel (r grows like x/δ² at small
    δ², where −a₂ − r would lose digits), and u + iv gets two complex Newton steps on the cubic.
    Rounding at the edges (a double root) gives v = 0, so the density is exactly 0 there.
    """
    s = math.sqrt(rho)
    a3 = delta2
    a2 = -(x + delta2 * s)
    a1 = s * x - rho + 1.0
    a0 = -s
    b2, b1, b0 = a2 / a3, a1 / a3, a0 / a3  # monic: g³ + b2 g² + b1 g + b0
    q = (b2 * b2 - 3.0 * b1) / 9.0
    r_ = (b2 * (2.0 * b2 * b2 - 9.0 * b1) + 27.0 * b0) / 54.0
    big = -np.copysign(np.cbrt(np.abs(r_) + np.sqrt(np.maximum(r_ * r_ - q**3, 0.0))), r_)
    safe = np.where(big == 0.0, 1.0, big)
    root = np.where(big == 0.0, 0.0, big + q / safe) - b2 / 3.0
    for _ in range(2):  # real Newton on the simple real root
        f = ((a3 * root + a2) * root + a1) * root + a0
        df = (3.0 * a3 * root + 2.0 * a2) * root + a1
        root = root - f / np.where(df == 0.0, 1.0, df)
    prod = -b0 / root
    pair_sum = np.where(root * root > np.abs(prod), (b1 - prod) / root, -b2 - root)
    re = pair_sum / 2.0
    g = re + 1j * np.sqrt(np.maximum(prod - re * re, 0.0))
    for _ in range(2):  # complex Newton on the pair's upper root
        f = ((a3 * g + a2) * g + a1) * g + a0
        df = (3.0 * a3 * g + 2.0 * a2) * g + a1
        step = f / np.where(df == 0.0, 1.0, df)
        g = np.where(g.imag > 0.0, g - step, g)
    return g + 0.0j  # complex also for 0-d input


def _support_batch(rho: float, delta2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edges for each δ² at once: intervals ``(K, 3, 2)`` and which of them are in the support.

    The discriminant quartic's coefficients are written out (they match :func:`_support`'s
    polynomial algebra), its roots are the eigenvalues of a (K, 4, 4) stack of companion
    matrices, and of the up to three gaps between consecutive real roots those where the
    discriminant is negative are kept.
    """
    s = math.sqrt(rho)
    a, e = delta2, -s
    zero = np.zeros_like(delta2)
    b = [-delta2 * s, zero - 1.0]  # b = b₀ + b₁ z, c = c₀ + c₁ z, coefficients low to high
    c = [zero + (1.0 - rho), zero + s]
    b2, c2 = _pmul(b, b), _pmul(c, c)
    terms = [
        [18 * a * e * t for t in _pmul(b, c)],
        [-4 * e * t for t in _pmul(b2, b)],
        _pmul(b2, c2),
        [-4 * a * t for t in _pmul(c2, c)],
        [-27 * a**2 * e**2],
    ]
    coef = np.zeros((delta2.size, 5))
    for term in terms:
        for k, t in enumerate(term):
            coef[:, k] += t
    comp = np.zeros((delta2.size, 4, 4))
    comp[:, 1:, :-1] = np.eye(3)
    comp[:, :, -1] = -coef[:, :4] / coef[:, 4:]
    roots = np.linalg.eigvals(comp)
    real = np.abs(roots.imag) <= 1e-7 * (1.0 + np.abs(roots))
    edges = np.sort(np.where(real, roots.real, np.inf), axis=1)
    lo, hi = edges[:, :-1], edges[:, 1:]
    mid = np.where(np.isfinite(hi), (lo + hi) / 2, 0.0)
    value = coef[:, 4:] * mid
    for k in range(3, -1, -1):
        value = (value + coef[:, k : k + 1]) * mid if k else value + coef[:, :1]
    keep = np.isfinite(hi) & (value < 0)
    return np.stack([lo, hi], axis=-1), keep, _neck(roots, real)


def _neck(roots: np.ndarray, real: np.ndarray) -> np.ndarray:
    """Where the density has a thin neck: the real part of a near-real complex root pair, or NaN.

    Just after two bulks merge (ρ < 1, δ² slightly above the merging point) the discriminant's
    complex pair sits near the real axis, at the neck where μ_Y nearly vanishes. A pair further
    than ``_NECK_IMAG`` × (spread of the roots) from the axis is no neck.
    """
    imag = np.where(real, np.inf, np.abs(roots.imag))
    best = np.argmin(imag, axis=1)
    rows = np.arange(roots.shape[0])
    spread = np.ptp(roots.real, axis=1)
    near = imag[rows, best] < _NECK_IMAG * spread
    return np.where(near, roots.real[rows, best], np.nan)


def _quad_intervals(rho: float, delta2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The support's intervals for quadrature: a single interval with a neck is cut at the neck.

    The density vanishes like a cube root where two bulks touch, and nearby it has a deep,
    narrow minimum that cos-substitution nodes on the whole interval resolve slowly (about 1e-6
    of the mass missing with 24576 nodes at ρ = 0.1, δ² = 1.5412); nodes on each side of the cut
    cluster at the neck and resolve it with the default count.
    """
    intervals, keep, neck = _support_batch(rho, delta2)
    lo, hi = intervals[:, 0, 0], intervals[:, 0, 1]
    margin = 0.1 * (hi - lo)  # near an edge the density is small anyway: no neck there
    cut = keep[:, 0] & ~keep[:, 1] & ~keep[:, 2] & (neck > lo + margin) & (neck < hi - margin)
    if cut.any():  # a neck is where the density is far below its mean 1/(h − l)
        height = _stieltjes_inside(neck[cut], rho, delta2[cut]).imag / np.pi
        cut[cut] = height * (hi[cut] - lo[cut]) < _NECK_DEPTH
    intervals[cut, 1] = np.stack([neck[cut], hi[cut]], axis=-1)
    intervals[cut, 0, 1] = neck[cut]
    keep[cut, 1] = True
    return intervals, keep


def _pmul(p: list, q: list) -> list:
    """Product of two polynomials given as lists of coefficient arrays, low to high."""
    out = [0.0] * (len(p) + len(q) - 1)
    for i, pi in enumerate(p):
        for j, qj in enumerate(q):
            out[i + j] = out[i + j] + pi * qj
    return out


def _mmse_batch(rho: float, delta2: np.ndarray) -> np.ndarray:
    """MMSE_den at each δ² > 0: one quadrature for all of them, nodes doubled where needed."""
    intervals, keep = _quad_intervals(rho, delta2)
    intervals = np.where(keep[..., None], intervals, 0.0)  # unused gaps: no inf - inf
    out = np.empty(delta2.size)
    active = np.arange(delta2.size)
    nodes = used = _NODES
    for _ in range(_MAX_DOUBLINGS + 1):
        mass = np.empty(active.size)
        step = max(1, _BATCH_NODES // (3 * nodes))  # δ² per block: bounded memory
        for start in range(0, active.size, step):
            idx = active[start : start + step]
            mass[start : start + step], cube = _cube_integral(
                rho, delta2[idx], intervals[idx], keep[idx], nodes
            )
            out[idx] = delta2[idx] - 4.0 * np.pi**2 / 3.0 * delta2[idx] ** 2 * cube
        done = np.abs(mass - 1.0) <= _REFINE_TOL
        active, mass = active[~done], mass[~done]
        if active.size == 0:
            break
        used, nodes = nodes, 2 * nodes
    # MMSE_den = δ² − (4π²/3) δ⁴ ∫μ³ with 0 ≤ (4π²/3) δ² ∫μ³ ≤ 1, so a relative quadrature error
    # ε moves it by at most about δ² ε: judge the mass residual by that bound, not by itself
    # (at ρ ≈ 1 and δ² ~ 1e-5 the 1/√x edge leaves ε ~ 1e-5 but moves the MMSE by 1e-10).
    for k, m in zip(active, mass, strict=True):
        bound = float(delta2[k]) * abs(m - 1.0)
        if bound > _MMSE_TOL or abs(m - 1.0) > _MASS_TOL_MMSE:
            warnings.warn(
                f"free-convolution quadrature at rho = {rho!r}, delta2 = {float(delta2[k])!r} with "
                f"{used} nodes per interval has mass {m:.8f}: the MMSE may be off by "
                f"{bound:.1e} (> {_MMSE_TOL:g})",
                ConvergenceWarning,
                stacklevel=3,
            )
    return out


def _cube_integral(
    rho: float, delta2: np.ndarray, intervals: np.ndarray, keep: np.ndarray, nodes: int
) -> tuple[np.ndarray, np.ndarray]:
    """∫ μ_Y and ∫ μ_Y³ for each δ² on ``nodes`` cos-substitution nodes per kept interval."""
    theta = (np.arange(nodes) + 0.5) * np.pi / nodes
    half = np.where(keep, (intervals[..., 1] - intervals[..., 0]) / 2, 0.0)[..., None]
    centre = ((intervals[..., 0] + intervals[..., 1]) / 2)[..., None]
    w = half * np.sin(theta) * np.pi / nodes
    mask = np.broadcast_to(keep[..., None], w.shape)
    x = (centre - half * np.cos(theta))[mask]
    t = np.broadcast_to(delta2[:, None, None], w.shape)[mask]
    density = np.zeros(w.shape)
    density[mask] = np.maximum(_stieltjes_inside(x, rho, t).imag, 0.0) / np.pi
    return np.einsum("kij,kij->k", w, density), np.einsum("kij,kij->k", w, density**3)


def _support(rho: float, delta2: float) -> np.ndarray:
    """Edges of the support for one δ² (see :func:`_support_batch`), sorted, shape (k, 2)."""
    found, keep, _ = _support_batch(rho, np.array([delta2]))
    intervals = found[0][keep[0]]
    if intervals.size == 0:  # pragma: no cover - the discriminant of a valid (ρ, δ²) always dips
        raise ValueError(
            f"no support found for rho = {rho!r}, delta2 = {delta2!r}; the discriminant quartic "
            "has no negative interval"
        )
    return intervals


def _inside(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    return np.any((x[:, None] > edges[None, :, 0]) & (x[:, None] < edges[None, :, 1]), axis=1)


def _nodes(edges: np.ndarray, nodes: int) -> tuple[np.ndarray, np.ndarray]:
    theta = (np.arange(nodes) + 0.5) * np.pi / nodes
    half = (edges[:, 1] - edges[:, 0])[:, None] / 2
    x = (edges[:, 0] + edges[:, 1])[:, None] / 2 - half * np.cos(theta)
    w = half * np.sin(theta) * np.pi / nodes
    return x.ravel(), w.ravel()


def _quadrature(rho: float, delta2: float, nodes: int = _NODES) -> FreeConvQuadrature:
    """Cos-substitution nodes, doubled until the mass is 1 within ``_REFINE_TOL``.

    A neck where two bulks are about to separate (ρ < 1, small δ²) or the 1/√x edge of ρ ≈ 1
    at small δ² needs more nodes than a square-root edge; the mass error tracks it.
    """
    edges = _support(rho, delta2)
    found, keep = _quad_intervals(rho, np.array([delta2]))
    for _ in range(_MAX_DOUBLINGS + 1):
        x, w = _nodes(found[0][keep[0]], nodes)
        g = _stieltjes(x, rho, delta2, eta=0.0)
        density = np.maximum(g.imag, 0.0) / np.pi
        mass = float(w @ density)
        if abs(mass - 1.0) <= _REFINE_TOL:
            break
        nodes *= 2
    if abs(mass - 1.0) > _MASS_TOL:
        warnings.warn(
            f"free-convolution quadrature at rho = {rho!r}, delta2 = {delta2!r} with {nodes} "
            f"nodes per interval has mass {mass:.8f} (residual {abs(mass - 1):.2e} > "
            f"{_MASS_TOL:g}); pass more nodes",
            ConvergenceWarning,
            stacklevel=3,
        )
    return FreeConvQuadrature(rho, delta2, edges, x, w, density, g.real)


def _clip_to_support(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Each point moved to the nearest point of the union of the intervals."""
    clipped = np.clip(x[:, None], edges[None, :, 0], edges[None, :, 1])
    best = np.argmin(np.abs(clipped - x[:, None]), axis=1)
    return clipped[np.arange(x.size), best]


def _shrink(lam: np.ndarray, rho: float, delta2: float, clip: bool) -> np.ndarray:
    edges = _support(rho, delta2)
    if clip:
        lam = _clip_to_support(lam, edges)
    inside = np.any((lam[:, None] >= edges[:, 0]) & (lam[:, None] <= edges[:, 1]), axis=1)
    g = np.empty(lam.size, dtype=complex)
    g[inside] = _stieltjes(lam[inside], rho, delta2, eta=0.0)
    g[~inside] = _stieltjes(lam[~inside], rho, delta2)
    return lam - 2.0 * delta2 * g.real
