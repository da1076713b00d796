"""Sharp asymptotics of weight-decay ERM in overparametrised quadratic networks (nuclear route).

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*, "Asymptotics of overparametrized quadratic nets" and Vignettes I–III);
Erba, Troiani, Zdeborová and Krzakala, *The nuclear route: sharp asymptotics of ERM in
overparameterized quadratic networks* (arXiv:2505.17958; authors as the slides list them). The
computable form of the slides' equations below is ours.

A width-p ≥ d student Â = Wᵀ W/√(p d) trained with the square loss and weight decay λ_W is the
convex problem min_{S ⪰ 0} Σ_μ (y_μ − Tr[G_μ S])² + λ d Tr S with λ = √(p/d) λ_W, since
‖W‖²_F = √(p d) Tr Â. Its high-dimensional limit is an effective denoising channel
𝒴 = A* + δ Z (Z ~ GOE) followed by an eigenvalue soft threshold at b = λε.

Notation map (A-units; Q* = Tr(A*²)/d = 1 + ρ*)
-----------------------------------------------
- ρ* = p*/d (teacher width), α = n/d², Δ (label noise)     -> ``rho``, ``alpha``, ``noise``
- λ (nuclear weight per d Tr S)                             -> ``lam``
- δ (std of the effective noise; the slides' first argument
  of J, *not* a precision)                                  -> ``delta``
- b = λε (eigenvalue threshold), ε (response)               -> ``b``, ``epsilon``
- μ_𝒴 = μ_{A*} ⊞ SC(δ²), v its Hilbert transform            -> :mod:`assocmem.quadratic.free`
- J₀ = ∫_b μ_𝒴 (x − b)², J₁ = ∫_b μ_𝒴 (x − b),
  K = ∫_b μ_𝒴 (x − b) v(x)                                  -> private ``_integrals``
- E = ‖Â − A*‖²_F/d (matrix error; test MSE = 2E + Δ)        -> ``error``, ``test_mse``

Equations (the slides' ∂₁J, ∂₂J written out with ∂_b J₀ = −2 J₁ and ∂_δ J₀ = 4δK; ours):

    ε = 1/(4(α − K)),    2αδ² − Δ/2 = Q* − J₀ − 2b J₁ + 4δ² K = E,    b = λε.

They are solved as nested one-dimensional root finds: for each δ, Brent's method on
φ(b) = 4b(α − K(δ, b)) − λ (φ(0) = −λ < 0, φ > 0 above the support); then Brent's method on
log δ ∈ [log 1e-6, log 50] for F(δ) = 2αδ² − Δ/2 − E(δ, b(δ)) (negative below its root and
positive above: one sign change on 360 parameter sets scanned with 60 δ each). The
integrals use the support and Stieltjes root of :mod:`assocmem.quadratic.free` with
Gauss–Legendre nodes in θ of the substitution x = c − r cos θ on the part of each support
interval above b (spectrally accurate for square-root edges and any cut b).

Public functions
----------------
``erm_point`` (result ``ErmPoint``), ``erm_curves`` (result ``ErmCurves``),
``interpolation_threshold``, ``learned_spectrum``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.optimize import brentq

from assocmem._validation import (
    ConvergenceWarning,
    as_real_array,
    as_real_vector,
    check_fraction,
    check_instance,
    check_option,
    check_size,
)
from assocmem.quadratic.free import _stieltjes, _support
from assocmem.quadratic.thresholds import interpolation_threshold_noiseless_limit

__all__ = [
    "ErmCurves",
    "ErmPoint",
    "erm_curves",
    "erm_point",
    "interpolation_threshold",
    "learned_spectrum",
]

_RHO_RANGE = (1e-3, 1e2)  # ρ* accepted (free-convolution support and quadrature stay accurate)
_ALPHA_RANGE = (1e-3, 1e2)  # α accepted by erm_point
_NOISE_MAX = 1e3  # Δ accepted
_LAM_RANGE = (1e-8, 1e3)  # λ accepted (λ → 0⁺ is the min-nuclear-norm interpolator)
_DELTA_RANGE = (1e-6, 50.0)  # bracket of the effective noise std δ
_PANEL_NODES = 16  # Gauss–Legendre nodes per panel in θ
_PANEL_TOL = 1e-12  # a panel is bisected while its mass and its halves' differ by more
_MAX_DEPTH = 40  # bisections at most (a panel of width π 2⁻⁴⁰)
_MAX_PANELS = 2_000  # panels per support interval at most
_XTOL = 1e-13
_CURVE_MAX = 1_000  # α points per erm_curves call (each is a nested root find, ~0.05 s)
_THRESHOLD_MAX = 10_000  # (ρ*, Δ) pairs per interpolation_threshold call
_DELTA_BAR = (1e-5, 1e4)  # bracket of the interpolation threshold's δ̄
_SPECTRUM_MAX = 2**24  # points per learned_spectrum call


@dataclass(frozen=True)
class ErmPoint:
    """Solution of the ERM equations at one (α, ρ*, Δ, λ) (A-units).

    Attributes
    ----------
    alpha, rho, noise, lam : float
        The parameters.
    delta : float
        Std δ of the effective channel 𝒴 = A* + δ Z.
    b, epsilon : float
        Soft threshold b = λε on the eigenvalues of 𝒴 and the response ε = 1/(4(α − K)).
    error : float
        Matrix error E = ‖Â − A*‖²_F/d = 2αδ² − Δ/2.
    test_mse : float
        Test MSE on fresh noisy labels, 2E + Δ.
    train_residual : float
        Mean training residual r̄² = Σ_μ r_μ²/n = 4δ²(α − K)²/α.
    objective : float
        Training objective per d², [Σ_μ r_μ² + λ d Tr Â]/d² = α r̄² + λ J₁ (the slides'
        "training loss", which includes the penalty).
    trace : float
        Tr Â/d = J₁.
    rank : float
        Rank fraction of Â, ∫_b μ_𝒴.
    """

    alpha: float
    rho: float
    noise: float
    lam: float
    delta: float
    b: float
    epsilon: float
    error: float
    test_mse: float
    train_residual: float
    objective: float
    trace: float
    rank: float


@dataclass(frozen=True)
class ErmCurves:
    """:class:`ErmPoint` fields as arrays over a sweep of α (ρ*, Δ, λ fixed).

    Attributes
    ----------
    alpha, delta, b, epsilon, error, test_mse, train_residual, objective, trace, rank : ndarray
        Shape (n,), one entry per α (see :class:`ErmPoint`).
    rho, noise, lam : float
        The fixed parameters.
    """

    alpha: np.ndarray
    rho: float
    noise: float
    lam: float
    delta: np.ndarray
    b: np.ndarray
    epsilon: np.ndarray
    error: np.ndarray
    test_mse: np.ndarray
    train_residual: np.ndarray
    objective: np.ndarray
    trace: np.ndarray
    rank: np.ndarray


# --------------------------------------------------------------------------------------------
# Validation at the boundary
# --------------------------------------------------------------------------------------------


def _check_rho(rho: Any) -> float:
    return check_fraction(rho, "rho", *_RHO_RANGE, open_lo=False, open_hi=False)


def _check_noise(noise: Any) -> float:
    return check_fraction(noise, "noise", 0.0, _NOISE_MAX, open_lo=False, open_hi=False)


def _check_lam(lam: Any) -> float:
    return check_fraction(lam, "lam", *_LAM_RANGE, open_lo=False, open_hi=False)


def _check_alpha(alpha: Any) -> float:
    return check_fraction(alpha, "alpha", *_ALPHA_RANGE, open_lo=False, open_hi=False)


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def erm_point(alpha: Any, rho: Any, noise: Any, lam: Any) -> ErmPoint:
    """Test error, training loss, trace and rank of weight-decay ERM at one α (sharp asymptotics).

    Parameters
    ----------
    alpha : float
        Sample ratio α = n/d², in [1e-3, 100].
    rho : float
        Teacher width ρ* = p*/d, in [1e-3, 100].
    noise : float
        Label-noise variance Δ, in [0, 1000].
    lam : float
        Nuclear weight λ per d Tr S, in [1e-8, 1000]; λ = √(p/d) λ_W for weight decay λ_W on a
        width-p ≥ d network. Small λ approaches the min-nuclear-norm interpolator.

    Returns
    -------
    ErmPoint
        δ, b, ε and the observables (see :class:`ErmPoint`).

    Notes
    -----
    Solves ε = 1/(4(α − K)), 2αδ² − Δ/2 = Q* − J₀ − 2bJ₁ + 4δ²K, b = λε with
    Q* = 1 + ρ* (Troiani, slides, "Asymptotics of overparametrized quadratic nets"; the slides
    write the noise std δ as the first argument of J and use ∂₁J, ∂₂J; this closed form is
    ours). Â has the eigenvectors of 𝒴 and eigenvalues (λ_𝒴 − b)₊. Below the interpolation
    threshold and as λ → 0⁺, ε → ∞, b stays positive and the training residual vanishes
    (memorisation).
    When δ of the solution lies below 1e-6 (noiseless data recovered, small λ), the point is
    reported at δ = 1e-6, where the error is below 2α·10⁻¹².

    Examples
    --------
    Theory values at ρ* = 0.5, α = 0.3, Δ = 0.25, λ = 1 (E = 0.6161, rank 0.2964):

    >>> p = erm_point(0.3, 0.5, 0.25, 1.0)
    >>> round(p.error, 4), round(p.rank, 4)
    (0.6161, 0.2964)
    """
    alpha, rho = _check_alpha(alpha), _check_rho(rho)
    noise, lam = _check_noise(noise), _check_lam(lam)
    return _solve_point(alpha, rho, noise, lam)


def erm_curves(alphas: Any, rho: Any, noise: Any, lam: Any) -> ErmCurves:
    """:func:`erm_point` over a sweep of α, fields gathered into arrays.

    Parameters
    ----------
    alphas : array_like, shape (n,)
        Sample ratios, each in [1e-3, 100]; at most 1000 (about 0.05 s each).
    rho, noise, lam : float
        As in :func:`erm_point`.

    Returns
    -------
    ErmCurves
        Every field of :class:`ErmPoint` as an array over ``alphas``.

    Examples
    --------
    The double-descent peak of ρ* = 0.05, Δ = 0.5, λ = 1e-3 sits near α_inter = 0.2569:

    >>> c = erm_curves([0.2, 0.3, 0.4], 0.05, 0.5, 1e-3)
    >>> int(np.argmax(c.error))
    1
    """
    a = as_real_vector(alphas, "alphas", *_ALPHA_RANGE)
    check_size(a.size, "alphas", "ERM points", _CURVE_MAX, "sweep fewer alphas per call")
    rho, noise, lam = _check_rho(rho), _check_noise(noise), _check_lam(lam)
    points, guess = [], None
    for x in a:
        points.append(_solve_point(float(x), rho, noise, lam, guess))
        guess = points[-1].delta
    names = [f.name for f in fields(ErmPoint) if f.name not in ("rho", "noise", "lam")]
    arrays = {n: np.array([getattr(p, n) for p in points], dtype=float) for n in names}
    return ErmCurves(rho=rho, noise=noise, lam=lam, **arrays)


def interpolation_threshold(rho: Any, noise: Any) -> Any:
    """Interpolation threshold α_inter(ρ*, Δ) of min-nuclear-norm regression (λ → 0⁺).

    Parameters
    ----------
    rho : float or array_like
        Teacher width ρ*, each in [1e-3, 100].
    noise : float or array_like
        Label-noise variance Δ, each in [0, 1000]; broadcast against ``rho``. Δ = 0 returns the
        Δ → 0⁺ limit ¼(1 + 2ρ* − ρ*²) (½ for ρ* ≥ 1).

    Returns
    -------
    float or ndarray
        α_inter, the broadcast shape of ``rho`` and ``noise``: below it the λ → 0⁺ solution
        fits every training label.

    Notes
    -----
    At the edge of the interpolating regime the threshold b* → 0 (ours, from the ERM
    equations with ε → ∞): J₀(δ̄, 0) − 2δ̄² K(δ̄, 0) = Q* + Δ/2 fixes δ̄ (Brent on log δ̄), and
    α_inter = K(δ̄, 0). Troiani, slides (Vignette II): α_inter → ¼ as Δ → ∞ (ellipsoid fitting)
    and → ¼(1 + 2ρ* − ρ*²) as Δ → 0⁺; the latter gap closes slowly, like Δ^{1/3}.

    Examples
    --------
    >>> round(interpolation_threshold(0.5, 1.0), 4)
    0.2911
    """
    r = as_real_array(rho, "rho", xp=np)
    n = as_real_array(noise, "noise", xp=np)
    _check_each(r, "rho", *_RHO_RANGE)
    _check_each(n, "noise", 0.0, _NOISE_MAX)
    try:
        r, n = np.broadcast_arrays(r, n)
    except ValueError as exc:
        raise ValueError(
            f"rho and noise must broadcast together, got shapes {r.shape} and {n.shape}"
        ) from exc
    check_size(r.size, "rho", "(rho, noise) pairs", _THRESHOLD_MAX, "pass fewer pairs")
    out = np.array(
        [_alpha_inter(float(a), float(b)) for a, b in zip(r.ravel(), n.ravel(), strict=True)]
    )
    out = out.reshape(r.shape)
    return float(out) if out.ndim == 0 else out


def learned_spectrum(point: Any, x: Any, form: str = "eigenvalue") -> tuple[float, Any]:
    """Spectrum of the ERM estimator: an atom at 0 and the shifted density μ_𝒴(x + b).

    Parameters
    ----------
    point : ErmPoint
        A solution from :func:`erm_point`.
    x : float or array_like
        Points at which to evaluate the continuous part (any shape), |x| <= 1e6: eigenvalues of
        Â, or singular values of W/(pd)^{1/4} when ``form`` is "singular".
    form : {"eigenvalue", "singular"}
        The law of the eigenvalues of Â (default) or of the singular values s = √x of the
        weights W/(pd)^{1/4} (Â = (W/(pd)^{1/4})ᵀ (W/(pd)^{1/4})).

    Returns
    -------
    atom : float
        Mass 1 − rank = ∫_{−∞}^b μ_𝒴 of the zero eigenvalues (or singular values).
    density : float or ndarray
        μ_𝒴(x + b) (eigenvalues) or 2x μ_𝒴(x² + b) (singular values) for x > 0, and 0 for
        x <= 0; the shape of ``x``.

    Notes
    -----
    Â = U ReLU(Λ_𝒴 − b) Uᵀ (Troiani, slides, "Spectrum of Â at convergence":
    Â ≐ ReLU(A* + δZ − λε)). The singular-value form is the slides' μ_Ŵ(x) =
    C δ(x) + 1(x > 0) 2x μ_𝒴(x² + λε).

    Examples
    --------
    The atom and the continuous part together have mass 1:

    >>> p = erm_point(0.3, 0.5, 0.25, 1.0)
    >>> atom, _ = learned_spectrum(p, 1.0)
    >>> round(atom + p.rank, 10)
    1.0
    """
    point = check_instance(point, "point", ErmPoint)
    form = check_option(form, "form", ("eigenvalue", "singular"))
    arr = as_real_array(x, "x", xp=np)
    check_size(arr.size, "x", "points", _SPECTRUM_MAX, "evaluate fewer points at a time")
    if arr.size and float(np.abs(arr).max()) > 1e6:
        raise ValueError(
            f"x must have entries of magnitude <= 1e6, got {float(np.abs(arr).max()):.3g}"
        )
    flat = arr.ravel()
    eig = flat * flat if form == "singular" else flat
    out = _shifted_density(point, eig) * (flat > 0)
    if form == "singular":
        out = 2.0 * flat * out
    out = out.reshape(arr.shape)
    return 1.0 - point.rank, (float(out) if out.ndim == 0 else out)


def _shifted_density(point: ErmPoint, x: np.ndarray) -> np.ndarray:
    """μ_𝒴(x + b) at the solution's δ (0 off the support)."""
    delta2 = point.delta**2
    shifted = x + point.b
    edges = _support(point.rho, delta2)
    inside = np.any(
        (shifted[:, None] > edges[None, :, 0]) & (shifted[:, None] < edges[None, :, 1]), axis=1
    )
    out = np.zeros_like(x)
    g = _stieltjes(shifted[inside], point.rho, delta2, eta=0.0)
    out[inside] = np.maximum(g.imag, 0.0) / np.pi
    return out


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


def _check_each(arr: np.ndarray, name: str, lo: float, hi: float) -> None:
    if arr.size == 0:
        raise ValueError(f"{name} must hold at least one value, got shape {arr.shape}")
    bad = (arr < lo) | (arr > hi)
    if bool(np.any(bad)):
        raise ValueError(f"{name} must hold values in [{lo}, {hi}], got {arr[bad].ravel()[0]!r}")


@lru_cache(maxsize=64)
def _gauss(nodes: int) -> tuple[np.ndarray, np.ndarray]:
    return np.polynomial.legendre.leggauss(nodes)


@lru_cache(maxsize=256)
def _layout(rho: float, delta: float) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """Support of μ_𝒴 = μ_{A*} ⊞ SC(δ²) and, per interval, the panel cuts in θ.

    One Gauss–Legendre panel in θ is spectrally accurate for square-root edges, but where a
    zero-mode bulk is merging with the main one (ρ* < 1) or the lower edge is 1/√x-like
    (ρ* ≈ 1, small δ) the density has features on a scale δ or finer. The panels are bisected
    where a panel's rule and its two halves' rules disagree on the mass by more than 1e-12
    (adaptive Gauss–Legendre, once per δ; the inner root find on b reuses them).
    """
    edges = _support(rho, delta * delta)
    cuts = tuple(_adaptive_cuts(rho, delta, lo, hi) for lo, hi in edges)
    return edges, cuts


def _adaptive_cuts(rho: float, delta: float, lo: float, hi: float) -> np.ndarray:
    c, r = 0.5 * (lo + hi), 0.5 * (hi - lo)

    def mass(t0: np.ndarray, t1: np.ndarray) -> np.ndarray:
        theta, w = _panel_nodes(np.stack([t0, t1], axis=-1))
        g = _stieltjes(c - r * np.cos(theta.ravel()), rho, delta * delta, eta=0.0)
        return (w * r * np.sin(theta) * np.maximum(g.imag, 0.0).reshape(theta.shape)).sum(1)

    done, todo = [], np.array([[0.0, math.pi]])
    for _ in range(_MAX_DEPTH):
        mid = todo.mean(axis=1)
        whole = mass(todo[:, 0], todo[:, 1])
        halves = mass(todo[:, 0], mid) + mass(mid, todo[:, 1])
        ok = np.abs(whole - halves) <= _PANEL_TOL
        done.append(todo[ok])
        todo = np.concatenate(
            [np.stack([todo[~ok, 0], mid[~ok]], -1), np.stack([mid[~ok], todo[~ok, 1]], -1)]
        )
        if todo.size == 0 or todo.shape[0] + sum(map(len, done)) > _MAX_PANELS:
            break
    panels = np.concatenate([*done, todo])
    return np.unique(panels.ravel())


def _panel_nodes(panels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Legendre nodes and weights on each panel [t0, t1] (rows of ``panels``)."""
    u, w = _gauss(_PANEL_NODES)
    a, h = panels[:, :1], 0.5 * (panels[:, 1:] - panels[:, :1])
    return a + h * (u + 1.0), h * w


def _integrals(rho: float, delta: float, b: float) -> tuple[float, ...]:
    """(∫_b μ, J₀, J₁, K) of μ_𝒴 = μ_{A*} ⊞ SC(δ²) above the cut b (see the module notes).

    On each support interval [l, h], x = c − r cos θ (c, r the centre and half-width) and the
    part x > b is θ ∈ [θ_b, π]; Gauss–Legendre in θ with weight r sin θ integrates the
    square-root edges and the cut spectrally.
    """
    edges, cuts = _layout(rho, delta)
    xs, ws = [], []
    for (lo, hi), at in zip(edges, cuts, strict=True):
        if b >= hi:
            continue
        c, r = 0.5 * (lo + hi), 0.5 * (hi - lo)
        t0 = 0.0 if b <= lo else math.acos(min(1.0, max(-1.0, (c - b) / r)))
        inner = at[at > t0]
        theta, w = _panel_nodes(np.stack([np.r_[t0, inner[:-1]], inner], axis=-1))
        theta, w = theta.ravel(), w.ravel()
        xs.append(c - r * np.cos(theta))
        ws.append(w * r * np.sin(theta))
    if not xs:
        return 0.0, 0.0, 0.0, 0.0
    x, wt = np.concatenate(xs), np.concatenate(ws)
    g = _stieltjes(x, rho, delta * delta, eta=0.0)
    mu = wt * np.maximum(g.imag, 0.0) / np.pi
    y = x - b if math.isfinite(b) else x
    return float(mu.sum()), float(mu @ (y * y)), float(mu @ y), float(mu @ (y * g.real))


def _threshold(alpha: float, rho: float, delta: float, lam: float) -> tuple[float, tuple]:
    """b(δ) solving φ(b) = 4b(α − K(δ, b)) − λ = 0 by Brent, and the integrals at it."""

    def phi(b: float) -> float:
        return 4.0 * b * (alpha - _integrals(rho, delta, b)[3]) - lam

    top = float(_layout(rho, delta)[0][-1, 1]) + lam / (4.0 * alpha) + 1.0
    b = brentq(phi, 0.0, top, xtol=_XTOL, rtol=4 * np.finfo(float).eps, maxiter=200)
    return b, _integrals(rho, delta, b)


def _gap(alpha: float, rho: float, noise: float, lam: float, delta: float) -> float:
    """F(δ) = 2αδ² − Δ/2 − E(δ, b(δ)) (zero at the ERM fixed point)."""
    b, (_, j0, j1, k) = _threshold(alpha, rho, delta, lam)
    return 2.0 * alpha * delta**2 - 0.5 * noise - _error(rho, delta, b, j0, j1, k)


def _error(rho: float, delta: float, b: float, j0: float, j1: float, k: float) -> float:
    """E = Q* − J₀ − 2bJ₁ + 4δ²K with Q* = 1 + ρ* (A-units)."""
    return 1.0 + rho - j0 - 2.0 * b * j1 + 4.0 * delta**2 * k


def _solve_point(
    alpha: float, rho: float, noise: float, lam: float, guess: float | None = None
) -> ErmPoint:
    """δ from F(δ) = 0 by Brent on log δ (F < 0 below its one root, > 0 above).

    The bracket is [1e-6, 50], or, with a ``guess`` (the previous point of a curve), the guess
    widened by factors of 1.5 until F changes sign, which saves about half of the evaluations.
    """
    lo, hi = _DELTA_RANGE

    def gap(u: float) -> float:
        return _gap(alpha, rho, noise, lam, math.exp(u))

    u_lo, u_hi = math.log(lo), math.log(hi)
    if guess is not None:
        u_lo, u_hi = _bracket(gap, math.log(guess), u_lo, u_hi)
    if u_lo == math.log(lo) and gap(u_lo) >= 0.0:
        # δ < 1e-6: only at Δ < 4α·1e-12 (noiseless data, recovered); E < 2α·1e-12 there
        return _observables(alpha, rho, noise, lam, lo)
    if u_hi == math.log(hi) and gap(u_hi) <= 0.0:
        raise ValueError(
            f"no ERM solution with delta in [{lo:g}, {hi:g}] at alpha = {alpha!r}, rho = {rho!r},"
            f" noise = {noise!r}, lam = {lam!r}"
        )
    u = brentq(gap, u_lo, u_hi, xtol=1e-12, rtol=1e-12, maxiter=200)
    return _observables(alpha, rho, noise, lam, math.exp(u))


def _bracket(gap: Any, u0: float, u_min: float, u_max: float) -> tuple[float, float]:
    """[u₋, u₊] around u0 with gap(u₋) < 0 < gap(u₊), widened by log 1.5 steps (clipped)."""
    step = math.log(1.5)
    lo, hi = max(u0 - step, u_min), min(u0 + step, u_max)
    while lo > u_min and gap(lo) >= 0.0:
        lo, hi = max(lo - 2 * step, u_min), lo
    while hi < u_max and gap(hi) <= 0.0:
        lo, hi = hi, min(hi + 2 * step, u_max)
    return lo, hi


def _observables(alpha: float, rho: float, noise: float, lam: float, delta: float) -> ErmPoint:
    b, (mass, j0, j1, k) = _threshold(alpha, rho, delta, lam)
    error = 2.0 * alpha * delta**2 - 0.5 * noise
    resid = 4.0 * delta**2 * (alpha - k) ** 2 / alpha
    eps = math.inf if alpha - k <= 0.0 else 1.0 / (4.0 * (alpha - k))
    mismatch = abs(error - _error(rho, delta, b, j0, j1, k))
    if mismatch > 1e-8 * (1.0 + abs(error)):
        warnings.warn(
            f"ERM fixed point at alpha = {alpha!r}, rho = {rho!r}: the two expressions of the "
            f"error differ by {mismatch:.2e}",
            ConvergenceWarning,
            stacklevel=3,
        )
    return ErmPoint(
        alpha=alpha,
        rho=rho,
        noise=noise,
        lam=lam,
        delta=delta,
        b=b,
        epsilon=eps,
        error=error,
        test_mse=2.0 * error + noise,
        train_residual=resid,
        objective=alpha * resid + lam * j1,
        trace=j1,
        rank=mass,
    )


def _alpha_inter(rho: float, noise: float) -> float:
    """α_inter = K(δ̄, 0) with J₀(δ̄, 0) − 2δ̄²K(δ̄, 0) = Q* + Δ/2 (Brent on log δ̄)."""
    if noise == 0.0:
        return float(interpolation_threshold_noiseless_limit(rho))

    def f(u: float) -> float:
        delta = math.exp(u)
        _, j0, _, k = _integrals(rho, delta, 0.0)
        return j0 - 2.0 * delta**2 * k - (1.0 + rho + 0.5 * noise)

    lo, hi = (math.log(v) for v in _DELTA_BAR)
    u = brentq(f, lo, hi, xtol=1e-12, rtol=1e-12, maxiter=200)
    return _integrals(rho, math.exp(u), 0.0)[3]
