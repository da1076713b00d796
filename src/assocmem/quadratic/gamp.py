"""GAMP-RIE for quadratic networks, and the linear and spectral estimators of its first step.

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*, "Sketch of analysis through AMP"); Maillard, Troiani, Martin, Krzakala and
Zdeborová, arXiv:2408.03733 (GAMP-RIE and its state evolution).

Notation map (A-units, as in :mod:`assocmem.quadratic.sensing`)
--------------------------------------------------------------
- Â (current estimate of A*), m (its predicted MSE per unit)  -> ``A_hat``, ``m``
- V = 2m (variance of the predicted labels Tr[G_μ Â])         -> private
- ω_μ = Tr[G_μ Â] − V g_μ (Onsager-corrected predictions)      -> private
- g_μ = (y_μ − ω_μ)/(Δ + V) (output residuals)                 -> private
- q̂ = 4α/(Δ + V) (precision of the effective channel)         -> ``q_hat``
- R = Â + (2/(q̂ d)) Σ_μ g_μ G_μ ≈ A* + q̂^{-1/2} Z (denoiser input) -> private
- f(λ) = λ − (2/q̂) v(λ) (the RIE map of :func:`assocmem.quadratic.free.rie_shrinkage`)
- γ (damping), δ0² = (Δ + 2)/(4α) (noise of the first step)  -> ``damping``, ``delta2``

The slides' AMP slide is schematic: it omits the normalisation 2/(q̂d) of the back-projection
and writes the Onsager term without its variance. Here (ours, checked against the state
evolution) the Onsager term is V times the **previous** residual g, and q̂ is the state-evolution
value 4α/(Δ + V). The denoiser's eigenvalues are clipped to the support of μ_{A ⊞ SC(1/q̂)}
first: at finite d single samples create outlier eigenvalues that f leaves in place, and the
iteration diverges without the clip (at d = 60, α ≤ 0.1 in our runs).

Cost per iteration: two (n, d) × (d, d) products (4 n d² flops) and one ``eigh`` of a d × d
matrix, all in the namespace of the data (CuPy on a GPU); the eigenvalue map runs on the CPU.

Public functions
----------------
``gamp_rie`` (result ``GampResult``), ``linear_estimator``, ``spectral_estimator`` and
``spectral_channel`` (result ``SpectralEstimate``).
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    ConvergenceWarning,
    as_rng,
    as_xp,
    check_bool,
    check_fraction,
    check_instance,
    check_positive_float,
    check_positive_int,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.quadratic.free import rie_mmse, rie_shrinkage
from assocmem.quadratic.sensing import (
    _ALPHA_MAX,
    SensingData,
    _adjoint,
    _check_d,
    _check_rho,
    _forward,
    _teacher,
    _weights,
)

__all__ = [
    "GampResult",
    "SpectralEstimate",
    "gamp_rie",
    "linear_estimator",
    "spectral_channel",
    "spectral_estimator",
]

_RHO_RANGE = (1e-6, 1e6)  # the range of the free-probability denoiser
_NOISE_MAX = 1e4
_DELTA2_RANGE = (1e-6, 1e4)  # the denoiser's δ² range; 1/q̂ is clamped into it
_MAX_ITER = 100_000
_BLOWUP = 1e6  # an eigenvalue of R beyond this means the iteration has diverged


@dataclass(frozen=True)
class GampResult:
    """Outcome of :func:`gamp_rie`.

    Attributes
    ----------
    A_hat : ndarray, shape (d, d)
        The final (damped) estimate, in the namespace of the data.
    error : ndarray, shape (n_iter + 1,)
        Empirical error (1/d)‖Â_t − A*‖²_F after each iteration, starting with the prior mean.
    m : ndarray, shape (n_iter + 1,)
        The algorithm's own prediction of that error (damped denoising MMSE), m_0 = 1.
    q_hat : ndarray, shape (n_iter + 1,)
        q̂_t = 4α/(Δ + 2 m_t), the channel precision each m_t implies.
    converged : bool
        Whether (1/d)‖Â_new − Â‖²_F fell below ``tol``.
    n_iter : int
        Iterations run.
    diverged : bool
        Whether an eigenvalue of R left |λ| <= 1e6 (only without clipping, in our runs); the
        trajectories stop at the last finite iterate.
    """

    A_hat: Any
    error: np.ndarray
    m: np.ndarray
    q_hat: np.ndarray
    converged: bool
    n_iter: int
    diverged: bool


@dataclass(frozen=True)
class SpectralEstimate:
    """Outcome of :func:`spectral_estimator`.

    Attributes
    ----------
    vectors : ndarray, shape (d, p)
        The top-p eigenvectors of R⁰ (p = the teacher width of the data).
    eigenvalues : ndarray, shape (d,)
        All eigenvalues of R⁰, ascending.
    overlap : float
        ‖U*ᵀ U‖²_F / p, the squared overlap of the top-p eigenspace with the column space U*
        of A* (1: aligned, ≈ p/d: random).
    delta2 : float
        δ0² = (Δ + 2)/(4α), the noise variance of R⁰ ≈ A* + δ0 Z.
    """

    vectors: Any
    eigenvalues: Any
    overlap: float
    delta2: float


def _check_common(data: Any, rho: Any, noise: Any) -> tuple[SensingData, float, float]:
    data = check_instance(data, "data", SensingData)
    r = check_fraction(rho, "rho", *_RHO_RANGE, open_lo=False, open_hi=False)
    if noise is None:
        return data, r, data.noise
    delta = check_fraction(noise, "noise", 0.0, _NOISE_MAX, open_lo=False, open_hi=False)
    return data, r, delta


def gamp_rie(
    data: Any,
    rho: Any,
    noise: Any = None,
    *,
    clip: Any = True,
    damping: Any = 0.5,
    max_iter: Any = 150,
    tol: Any = 1e-8,
) -> GampResult:
    """GAMP-RIE: Bayes-optimal estimation of A* from quadratic-network (or GOE) measurements.

    Parameters
    ----------
    data : SensingData
        From :func:`assocmem.quadratic.sensing.sample_sensing` (NumPy or CuPy arrays).
    rho : float
        Prior width ratio ρ, in [1e-6, 1e6] (Bayes-optimal when it is the teacher's).
    noise : float or None
        Label-noise variance Δ the algorithm assumes, in [0, 1e4]; None uses ``data.noise``.
    clip : bool
        Clip the eigenvalues of R to the theoretical support before the RIE map (default).
        ``clip=False`` shows the finite-size instability.
    damping : float
        γ in [0, 1): Â ← γÂ + (1 − γ)Â_new, and the same for m.
    max_iter : int
        At most this many iterations, 1 to 100000.
    tol : float
        Stop when (1/d)‖Â_new − Â‖²_F < tol (> 0).

    Returns
    -------
    GampResult

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` iterations end above ``tol``, or the iteration diverges.

    Notes
    -----
    From Â = √ρ I (prior mean), m = 1, g = 0, each iteration (Maillard et al. 2024; the
    normalisation and Onsager term are ours, see the module docstring) computes
    V = 2m, ω = Tr[G Â] − V g (previous g), g = (y − ω)/(Δ + V), q̂ = 4α/(Δ + V),
    R = Â + (2/(q̂d)) Σ_μ g_μ G_μ, Â_new = U f(Λ) Uᵀ with R = UΛUᵀ and f the RIE map at
    δ² = 1/q̂, and m_new = MMSE_den(1/q̂) (:func:`assocmem.quadratic.free.rie_mmse`). Near
    perfect recovery 1/q̂ falls below the denoiser's range and is clamped to 1e-6 (so m stays
    >= MMSE_den(1e-6)). Its fixed point is the Bayes-optimal error of
    :func:`assocmem.quadratic.bayes.bo_mmse` as d → ∞; at d = 60 to 100 the empirical error sits
    a few per cent above it (finite-size bias, upward).

    Examples
    --------
    The predicted error m converges to the Bayes-optimal MMSE (0.3922 at ρ = 0.5, α = 0.2);
    the measured error is above it at this small d:

    >>> from assocmem.quadratic.sensing import sample_sensing
    >>> res = gamp_rie(sample_sensing(40, 0.5, 0.2, rng=0), 0.5)
    >>> res.converged, round(float(res.m[-1]), 4), bool(0.39 < res.error[-1] < 0.5)
    (True, 0.3922, True)
    """
    data, r, delta = _check_common(data, rho, noise)
    use_clip = check_bool(clip, "clip")
    gamma = check_fraction(damping, "damping", 0.0, 1.0, open_lo=False, open_hi=True)
    n_max = check_positive_int(max_iter, "max_iter", minimum=1, maximum=_MAX_ITER)
    stop = check_positive_float(tol, "tol")
    return _iterate(data, r, delta, use_clip, gamma, n_max, stop)


def linear_estimator(data: Any, rho: Any, noise: Any = None) -> Any:
    """The linear (first-step) estimator √ρ I + (R⁰ − √ρ I)/(1 + δ0²).

    Parameters
    ----------
    data : SensingData
        The measurements.
    rho : float
        Prior width ratio ρ, in [1e-6, 1e6].
    noise : float or None
        Label-noise variance Δ, in [0, 1e4]; None uses ``data.noise``.

    Returns
    -------
    ndarray, shape (d, d)
        In the namespace of the data.

    Notes
    -----
    R⁰ = √ρ I + (1/(2αd)) Σ_μ (y_μ − √ρ Tr G_μ) G_μ ≈ A* + δ0 Z with δ0² = (Δ + 2)/(4α) is the
    first GAMP step from the prior mean (ours). The prior has unit variance per unit, so the best
    linear shrinkage has error δ0²/(1 + δ0²) as d → ∞.

    Examples
    --------
    >>> from assocmem.quadratic.sensing import sample_sensing
    >>> data = sample_sensing(50, 0.5, 0.5, rng=0)
    >>> err = ((linear_estimator(data, 0.5) - data.A) ** 2).sum() / 50
    >>> round(float(err), 1)  # δ0² = 1, δ0²/(1 + δ0²) = 0.5
    0.5
    """
    data, r, delta = _check_common(data, rho, noise)
    xp = array_namespace(data.A)
    R, d2 = _first_step(data, r, delta, xp)
    mean = math.sqrt(r) * xp.eye(data.d)
    return mean + (R - mean) / (1.0 + d2)


def spectral_estimator(data: Any, rho: Any, noise: Any = None) -> SpectralEstimate:
    """The top-p eigenvectors of the first-step matrix R⁰ and their overlap with A*.

    Parameters
    ----------
    data : SensingData
        The measurements; p is the teacher width ``data.W.shape[0]`` (at most d).
    rho : float
        Prior width ratio ρ, in [1e-6, 1e6] (sets the prior mean √ρ I of R⁰).
    noise : float or None
        Label-noise variance Δ, in [0, 1e4]; None uses ``data.noise``.

    Returns
    -------
    SpectralEstimate

    Notes
    -----
    R⁰ ≈ A* + δ0 Z (see :func:`linear_estimator`). In the narrow limit ρ → 0 the p signal
    eigenvalues ≈ 1/√ρ detach from the semicircle of radius 2δ0 when 1/√ρ > δ0, i.e. at
    ᾱ = α/ρ > 1/2 for Δ = 0: the same BBP point as the Bayes-optimal error (slides, "Narrow
    limit"; Baik, Ben Arous and Péché 2005). The predicted squared overlap is 1 − 1/(2ᾱ)
    (ours). At moderate d, Gaussian inputs add single-sample spikes |y_μ|/(2α√d) above the bulk,
    which inflate the measured overlap below the transition.

    Examples
    --------
    >>> from assocmem.quadratic.sensing import sample_sensing
    >>> est = spectral_estimator(sample_sensing(40, 0.5, 2.0, rng=0), 0.5)
    >>> est.vectors.shape, bool(est.overlap > 0.8)
    ((40, 20), True)
    """
    data, r, delta = _check_common(data, rho, noise)
    xp = array_namespace(data.A)
    R, d2 = _first_step(data, r, delta, xp)
    return _spectral(R, data.A, data.W.shape[0], d2, xp)


def spectral_channel(
    d: Any, rho: Any, alpha: Any, rng: Any = 0, *, noise: Any = 0.0, xp: Any = None
) -> SpectralEstimate:
    """The spectral estimator on the denoising channel Y = A* + δ0 Z that R⁰ stands for.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    rho : float
        Teacher width ratio ρ, in (0, 1e6].
    alpha : float
        Sample ratio α, in (0, 1e4]: it only sets δ0² = (Δ + 2)/(4α).
    rng : int or numpy.random.Generator
        Seed or generator (the teacher is drawn first, as in
        :func:`assocmem.quadratic.sensing.sample_sensing`, then Z).
    noise : float
        Label-noise variance Δ, in [0, 1e4].
    xp : module or None
        ``numpy`` (default) or ``cupy``.

    Returns
    -------
    SpectralEstimate
        For Y: its top-p eigenvectors, eigenvalues, their overlap with A*'s column space, δ0².

    Notes
    -----
    The first GAMP step is, by Gaussian equivalence, A* observed through GOE noise of variance
    δ0² (Maillard et al. 2024; see :func:`linear_estimator`). Here the noise is exactly GOE, so
    the BBP transition of the spectral estimator (ᾱ = α/ρ = 1/2 as ρ → 0, overlap
    1 − 1/(2ᾱ) above, ours) is seen without the single-sample spikes of Gaussian inputs.

    Examples
    --------
    Far below the transition the top eigenspace is nearly random (overlap ≈ p/d):

    >>> est = spectral_channel(200, 0.05, 0.005, rng=0)
    >>> bool(est.overlap < 0.2)
    True
    """
    n_d = _check_d(d)
    _, p = _check_rho(rho, n_d)
    a = check_fraction(alpha, "alpha", 0.0, _ALPHA_MAX, open_lo=True, open_hi=False)
    delta = check_fraction(noise, "noise", 0.0, _NOISE_MAX, open_lo=False, open_hi=False)
    gen = as_rng(rng)
    xp = as_xp(xp) or np
    A = xp.asarray(_teacher(_weights(n_d, p, gen)))
    H = gen.standard_normal((n_d, n_d))
    d2 = (delta + 2.0) / (4.0 * a)
    Y = A + math.sqrt(d2) * xp.asarray((H + H.T) / math.sqrt(2.0 * n_d))
    return _spectral(Y, A, p, d2, xp)


def _spectral(R: Any, A: Any, p: int, d2: float, xp: Any) -> SpectralEstimate:
    """Top-p eigenvectors of R and their squared overlap with the top-p eigenspace of A."""
    p = min(p, A.shape[0])
    lam, U = xp.linalg.eigh(R)
    top = U[:, -p:]
    _, U_star = xp.linalg.eigh(A)
    overlap = float(xp.sum((U_star[:, -p:].T @ top) ** 2)) / p
    return SpectralEstimate(vectors=top, eigenvalues=lam, overlap=overlap, delta2=d2)


def _first_step(data: SensingData, rho: float, noise: float, xp: Any) -> tuple[Any, float]:
    """R⁰ and δ0² = (Δ + 2)/(4α): GAMP's first step from Â = √ρ I, m = 1, g = 0."""
    mean = math.sqrt(rho) * xp.eye(data.d)
    resid = data.y - _forward(data, mean, xp)
    R = mean + _adjoint(data, resid, xp) / (2.0 * data.alpha * data.d)
    return R, (noise + 2.0) / (4.0 * data.alpha)


def _iterate(
    data: SensingData, rho: float, noise: float, clip: bool, gamma: float, n_max: int, tol: float
) -> GampResult:
    """The GAMP-RIE loop (module docstring); trusted input."""
    xp = array_namespace(data.A)
    d, alpha = data.d, data.alpha
    A_hat = math.sqrt(rho) * xp.eye(d)
    m, g = 1.0, xp.zeros(data.n)
    errors, ms = [_mse(A_hat, data.A, xp)], [m]
    converged = diverged = False
    residual = math.inf
    for _ in range(n_max):
        V = 2.0 * m
        omega = _forward(data, A_hat, xp) - V * g
        g = (data.y - omega) / (noise + V)
        q_hat = 4.0 * alpha / (noise + V)
        R = A_hat + (2.0 / (q_hat * d)) * _adjoint(data, g, xp)
        delta2 = min(max(1.0 / q_hat, _DELTA2_RANGE[0]), _DELTA2_RANGE[1])
        A_new = _denoise(R, rho, delta2, clip, xp)
        if A_new is None:
            diverged = True
            break
        residual = _mse(A_new, A_hat, xp)
        m_new = _den_mmse(delta2, rho)
        A_hat = gamma * A_hat + (1.0 - gamma) * A_new
        m = gamma * m + (1.0 - gamma) * m_new
        errors.append(_mse(A_hat, data.A, xp))
        ms.append(m)
        if residual < tol:
            converged = True
            break
    _warn(converged, diverged, len(ms) - 1, residual, tol)
    m_arr = np.array(ms)
    return GampResult(
        A_hat=A_hat,
        error=np.array(errors),
        m=m_arr,
        q_hat=4.0 * alpha / (noise + 2.0 * m_arr),
        converged=converged,
        n_iter=len(ms) - 1,
        diverged=diverged,
    )


def _denoise(R: Any, rho: float, delta2: float, clip: bool, xp: Any) -> Any:
    """U f(Λ) Uᵀ for R = U Λ Uᵀ, or None when an eigenvalue has left |λ| <= 1e6 (diverged)."""
    lam, U = xp.linalg.eigh((R + R.T) / 2.0)
    lam_np = np.asarray(to_numpy(lam))
    if not np.all(np.isfinite(lam_np)) or np.abs(lam_np).max() > _BLOWUP:
        return None
    f = xp.asarray(rie_shrinkage(lam_np, rho, delta2, clip=clip))
    return (U * f) @ U.T


@functools.lru_cache(maxsize=4096)
def _den_mmse(delta2: float, rho: float) -> float:
    """MMSE_den(δ²), cached.

    The m trajectory does not depend on the data: runs with the same (α, ρ, Δ, γ) on other
    seeds ask for the same δ² sequence.
    """
    return float(rie_mmse(delta2, rho))


def _mse(B: Any, A: Any, xp: Any) -> float:
    return float(xp.sum((B - A) ** 2)) / A.shape[0]


def _warn(
    converged: bool,
    diverged: bool,
    n_iter: int,
    residual: float,
    tol: float,
    name: str = "gamp_rie",
) -> None:
    """Warn that a GAMP loop (``name``: gamp_rie or gamp_hardmax) diverged or stopped early."""
    if diverged:
        warnings.warn(
            f"{name} diverged after {n_iter} iterations: an eigenvalue of R left "
            f"[-{_BLOWUP:g}, {_BLOWUP:g}] (finite-size outliers; use clip=True)",
            ConvergenceWarning,
            stacklevel=3,
        )
    elif not converged:
        warnings.warn(
            f"{name} stopped after {n_iter} iterations with (1/d)|A_new - A|^2 = "
            f"{residual:.3g} > tol = {tol:.3g}; raise max_iter or the damping",
            ConvergenceWarning,
            stacklevel=3,
        )
