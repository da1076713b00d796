"""Attention-indexed models: data, softmax's identifiable logits and the hardmax T = 2 channel.

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*, "BO attention"); Boncoraglio, Troiani, Erba and Zdeborová, arXiv:2506.01582
(attention-indexed models: the teacher, the softmax and hardmax state evolutions and their code).

Notation map (A-units: the target A* = Wᵀ W / √(p d) has Q* = Tr(A*²)/d = 1 + ρ)
----------------------------------------------------------------------------------
- X_μ ∈ ℝ^{T×d} (the tokens of sequence μ, rows x_a ~ N(0, I_d))  -> ``X``, shape (n, T, d)
- A* (tied key = query matrix, rank p = ρd)                       -> ``A``, shape (d, d)
- ρ = p/d, α = n/d², β (softmax inverse temperature)             -> ``rho``, ``alpha``, ``beta``
- h_ab = (x_aᵀ A x_b − δ_ab Tr A)/√d (the logits, H = X A Xᵀ
  centred on the diagonal)                                        -> ``h``, shape (n, T, T)
- y = softmax_β(H) row-wise (or the row argmax, hardmax)          -> ``y``, shape (n, T, T)
- h_ab − h_aT (what a softmax output determines)                  -> ``logit_differences``

The teacher's logits follow the code of arXiv:2506.01582: the diagonal is centred by
Tr(A*)/√d, so every h_ab has mean zero, the diagonal ones variance 2Q* and the off-diagonal ones
variance Q* (slides, "BO attention"). Softmax with β < ∞ forgets exactly one constant per row,
so each sequence carries T(T+1)/2 − 1 = (T² + T − 2)/2 Gaussian measurements of A*: the
Bayes-optimal theory is the quadratic network's at α(T² + T − 2)/2 for every β (slides, "Simple
scaling for tokens"; :func:`assocmem.quadratic.bayes.aim_mmse`).

Public functions
----------------
``sample_attention`` (result ``AttentionData``), ``attention_logits``, ``softmax_attention``,
``logit_differences``; the hardmax T = 2 channel: ``hardmax_state_evolution`` (result
``HardmaxSE``), ``hardmax_curve`` (result ``HardmaxCurve``), ``hardmax_narrow_limit`` and
``gamp_hardmax`` (GAMP with the exact g_out; result
:class:`assocmem.quadratic.gamp.GampResult`).

The hardmax T = 2 state evolution
---------------------------------
Each sequence gives two bits, y₁₁ = 1[h₁₁ > h₁₂] and y₂₂ = 1[h₂₂ > h₁₂] (slides, "BO attention",
hardmax). The channel side is E[2g₁₁² + 2g₂₂² + g₁₂²] of
:func:`assocmem.quadratic.thresholds.hardmax_fisher`; the prior side is the quadratic network's
denoiser, m = MMSE_den(1/q̂) (:mod:`assocmem.quadratic.bayes`), with overlap q = Q₀ − m,
Q₀ = 1 + ρ, and variance V = m:

.. math::

    \\hat q = 2α\\,F(q, V), \\qquad m = \\mathrm{MMSE}_{\\rm den}(1/\\hat q).

``exact=True`` uses the derivative ∂ᵢΦ₂ of the likelihood Φ₂(κ₁, κ₂; c); ``exact=False``
reproduces the public code of arXiv:2506.01582 (``SE_hardmax.py``), which puts the bivariate
density φ₂ in its place. That is not the derivative of log Z (our correction): it lowers the
channel's information, and with it the whole published curve, and moves the narrow-limit
weak-recovery threshold from ᾱ = 0.40341 to 0.56327.

F depends on q and V only through r = q/V, F = f(r)/(3V), because the channel sees the two
differences u_i = ω_ii − ω₁₂ (variances 3q, covariance q) in units of √(3V); f is one
two-dimensional integral over t = u/√(3V) ~ N(0, rΣ), Σ = [[1, ⅓], [⅓, 1]]. We evaluate it
once on a sinh-stretched grid in t (exact to 1e-12 against the three-dimensional Gauss–Hermite
sum at small r, and resolving the sharp boundaries t_i ≈ 0 that a fixed Hermite grid misses at
large r), and interpolate log f in log r.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.interpolate import CubicSpline, PchipInterpolator

from assocmem._validation import (
    MAX_ELEMENTS,
    ConvergenceWarning,
    as_real_array,
    as_real_vector,
    as_rng,
    as_xp,
    check_beta,
    check_bool,
    check_fraction,
    check_instance,
    check_max_abs,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.quadratic.bayes import _den_mmse, bo_curve
from assocmem.quadratic.gamp import GampResult, _denoise, _mse, _warn
from assocmem.quadratic.sensing import sample_teacher
from assocmem.quadratic.thresholds import _phi2_cdf, _phi2_density, _phi2_grad

__all__ = [
    "AttentionData",
    "HardmaxCurve",
    "HardmaxSE",
    "attention_logits",
    "gamp_hardmax",
    "hardmax_curve",
    "hardmax_narrow_limit",
    "hardmax_state_evolution",
    "logit_differences",
    "sample_attention",
    "softmax_attention",
]

_RHO_MAX = 100.0  # teacher width p = ρd at most 100 d
_ALPHA_MAX = 1e4
_T_MAX = 64  # tokens per sequence
_D_MAX = 4096
_BETA_MAX = 1e6
_OUTPUTS = ("softmax", "hardmax")
_SE_RHO_MIN, _SE_RHO_MAX = 1e-3, 1e3  # the range of bayes' denoising MMSE
_SE_ALPHA_MAX = 100.0
_SE_STEPS_MAX = 10_000
_CURVE_POINTS = 240  # q̂ grid of the inverse parametrisation (bo_curve's, 1e-3 to 1e6)
_CURVE_POINTS_MAX = 2_000
_NARROW_POINTS = 600
# Grid of the channel integral: t = a sinh(s), s uniform with step h, |t| <= t_max.
_GRID_A, _GRID_H, _GRID_T_MAX = 0.02, 0.15, 2e6
# log f is tabulated at 8 points per decade of r on [1e-4, 1e10] (F = f(r)/(3V), r = q/V); below
# 1e-4 the grid no longer resolves the N(0, rΣ) density, and f is linear from f(0) (error O(r²)).
_R_LO, _R_HI, _R_PER_DECADE = 1e-4, 1e10, 8
_GAMP_ITER_MAX = 10_000
_KAPPA_MAX = 30.0  # |κ| clip in g_out: Φ₂ stays far above the float64 underflow
_ENTRY_MAX = 1e50  # |X|, |A| entries: x_aᵀ A x_b stays far inside the float64 range


@dataclass(frozen=True)
class AttentionData:
    """One draw of the attention-indexed model: tokens, teacher, logits and outputs.

    Attributes
    ----------
    X : ndarray, shape (n, T, d)
        Tokens, iid N(0, 1) entries.
    y : ndarray, shape (n, T, T)
        Outputs: softmax_β of each row of ``h`` (rows sum to 1), or one-hot row argmaxes
        (``output="hardmax"``).
    A : ndarray, shape (d, d)
        The teacher A* = Wᵀ W/√(p d) (A-units).
    h : ndarray, shape (n, T, T)
        The teacher's logits h_ab = (x_aᵀ A* x_b − δ_ab Tr A*)/√d.
    T, d, n : int
        Tokens per sequence, dimension and number of sequences n = round(α d²).
    rho, alpha, beta : float
        Teacher width ρ, sample ratio α and inverse temperature β (ignored by hardmax).
    output : {"softmax", "hardmax"}
        The output channel.
    """

    X: Any
    y: Any
    A: Any
    h: Any
    T: int
    d: int
    n: int
    rho: float
    alpha: float
    beta: float
    output: str


@dataclass(frozen=True)
class HardmaxSE:
    """Trajectories of the hardmax T = 2 state evolution, one column per α.

    Attributes
    ----------
    alpha : ndarray, shape (K,)
        The sample ratios α = n/d².
    rho : float
        Teacher width ρ.
    exact : bool
        True: the exact derivative ∂Φ₂; False: the public code's bivariate density.
    mmse : ndarray, shape (K,)
        The last iterate m (A-units).
    qhat : ndarray, shape (K,)
        The last precision q̂ = 2αF.
    trajectory : ndarray, shape (n_iter + 1, K)
        m_t from the uninformed m₀ = 1.
    converged : ndarray of bool, shape (K,)
        Whether |m_{t+1} − m_t| fell below ``tol``.
    """

    alpha: np.ndarray
    rho: float
    exact: bool
    mmse: np.ndarray
    qhat: np.ndarray
    trajectory: np.ndarray
    converged: np.ndarray


@dataclass(frozen=True)
class HardmaxCurve:
    """The hardmax T = 2 learning curve (fixed point reached from the uninformed start).

    Attributes
    ----------
    alpha : ndarray, shape (K,)
        The sample ratios asked for.
    rho : float
        Teacher width ρ.
    exact : bool
        True: the exact derivative ∂Φ₂; False: the public code's bivariate density.
    mmse : ndarray, shape (K,)
        Matrix MMSE m (A-units); 1 at α = 0.
    qhat : ndarray, shape (K,)
        The channel precision q̂ = 2αF (0 at α = 0).
    """

    alpha: np.ndarray
    rho: float
    exact: bool
    mmse: np.ndarray
    qhat: np.ndarray


def sample_attention(
    d: Any,
    T: Any,
    rho: Any,
    alpha: Any,
    rng: Any,
    *,
    beta: Any = 1.0,
    output: str = "softmax",
    xp: Any = None,
) -> AttentionData:
    """Draw n = α d² sequences of T tokens, a rank-ρd teacher and its attention outputs.

    Notes
    -----
    The attention-indexed model (slides, "BO attention"; arXiv:2506.01582): tokens
    X_μ ∈ ℝ^{T×d} with iid N(0, 1) entries, a teacher A* = Wᵀ W/√(p d) with W ∈ ℝ^{p×d} iid
    N(0, 1) and p = max(1, round(ρd)), logits

    .. math::

        h_{ab} = \\frac{x_a^⊤ A^* x_b − δ_{ab}\\,\\mathrm{Tr} A^*}{\\sqrt d},

    (the diagonal centred as in the paper's code) and outputs y = softmax_β(H) row by row,
    y_ab = e^{β h_ab}/Σ_c e^{β h_ac}, or the one-hot argmax of each row (hardmax). The draws
    come from ``rng`` in NumPy (W first, then X), so a seed gives the same data on every
    backend; ``xp`` only says where the arrays live.

    Parameters
    ----------
    d : int
        Dimension, 2 to 4096.
    T : int
        Tokens per sequence, 2 to 64 (T = 1 carries no information).
    rho : float
        Teacher width ρ = p/d, in (0, 100].
    alpha : float
        Sample ratio α = n/d², in (0, 1e4]; n = round(α d²) must be at least 1, and the
        n·T·d token entries at most the library's element cap.
    rng : int or numpy.random.Generator
        Seed or generator.
    beta : float
        Softmax inverse temperature, in (0, 1e6].
    output : {"softmax", "hardmax"}
        The output channel.
    xp : None, numpy or cupy
        Namespace of the returned arrays (None: NumPy).

    Returns
    -------
    AttentionData
        Tokens, teacher, logits and outputs.

    Examples
    --------
    >>> data = sample_attention(20, 3, 0.5, 0.1, rng=0)
    >>> data.X.shape, data.y.shape, round(float(data.y.sum(axis=-1).mean()), 12)
    ((40, 3, 20), (40, 3, 3), 1.0)
    """
    dd = check_positive_int(d, "d", minimum=2, maximum=_D_MAX)
    t = check_positive_int(T, "T", minimum=2, maximum=_T_MAX)
    r = check_fraction(rho, "rho", 0.0, _RHO_MAX, open_lo=True, open_hi=False)
    a = check_fraction(alpha, "alpha", 0.0, _ALPHA_MAX, open_lo=True, open_hi=False)
    b = _check_beta(beta)
    out = check_option(output, "output", _OUTPUTS)
    gen = as_rng(rng)
    xp = as_xp(xp) or np
    n = round(a * dd * dd)
    if n < 1:
        raise ValueError(
            f"alpha must give at least one sequence (round(alpha d^2) >= 1), got alpha = {a!r} "
            f"at d = {dd}"
        )
    check_size(
        float(n) * t * dd, "alpha", "token entries (n T d)", MAX_ELEMENTS, "lower alpha or d"
    )
    A = sample_teacher(dd, r, gen, xp=xp)
    X = xp.asarray(gen.standard_normal((n, t, dd)))
    h = _logits(X, A, xp)
    y = _softmax(h, b, xp) if out == "softmax" else _hardmax(h, xp)
    return AttentionData(X=X, y=y, A=A, h=h, T=t, d=dd, n=n, rho=r, alpha=a, beta=b, output=out)


def attention_logits(X: Any, A: Any) -> Any:
    """The centred logits H = (X A Xᵀ − Tr(A) I_T)/√d of each sequence.

    Notes
    -----
    h_ab = (x_aᵀ A x_b − δ_ab Tr A)/√d (the teacher of arXiv:2506.01582, slides "BO attention").
    ``A`` need not be symmetric; the namespace (NumPy or CuPy) is taken from ``X``.

    Parameters
    ----------
    X : array, shape (n, T, d) or (T, d)
        Tokens, entries of magnitude at most 1e50.
    A : array, shape (d, d)
        The matrix, entries of magnitude at most 1e50.

    Returns
    -------
    array, shape (n, T, T) or (T, T)
        The logits.

    Examples
    --------
    >>> import numpy as np
    >>> attention_logits(np.eye(2), np.eye(2)).tolist()  # x_a = e_a: h = (I − 2 I)/√2
    [[-0.7071067811865475, 0.0], [0.0, -0.7071067811865475]]
    """
    Xa, Aa, xp, single = _check_pair(X, A)
    h = _logits(Xa, Aa, xp)
    return h[0] if single else h


def softmax_attention(X: Any, A: Any, beta: Any = 1.0) -> Any:
    """Row-wise softmax_β of the centred logits: the attention matrix of each sequence.

    Notes
    -----
    y_ab = e^{β h_ab}/Σ_c e^{β h_ac} with h from :func:`attention_logits` (slides, "BO
    attention"). Evaluated stably (the row maximum is subtracted first).

    Parameters
    ----------
    X : array, shape (n, T, d) or (T, d)
        Tokens, entries of magnitude at most 1e50.
    A : array, shape (d, d)
        The matrix, entries of magnitude at most 1e50.
    beta : float
        Inverse temperature, in (0, 1e6].

    Returns
    -------
    array, shape (n, T, T) or (T, T)
        Row-stochastic attention matrices.

    Examples
    --------
    >>> import numpy as np
    >>> softmax_attention(np.ones((2, 3)), np.zeros((3, 3))).tolist()  # A = 0: uniform rows
    [[0.5, 0.5], [0.5, 0.5]]
    """
    Xa, Aa, xp, single = _check_pair(X, A)
    b = _check_beta(beta)
    y = _softmax(_logits(Xa, Aa, xp), b, xp)
    return y[0] if single else y


def logit_differences(y: Any, beta: Any = 1.0) -> Any:
    """Recover h_ab − h_aT from softmax outputs: β⁻¹ log(y_ab / y_aT).

    Notes
    -----
    Softmax with β < ∞ is injective up to one constant per row: log y_ab = β h_ab − log Z_a, so
    β⁻¹ log(y_ab/y_aT) = h_ab − h_aT exactly, whatever β (slides, "No effect of β < ∞"). With a
    symmetric H these differences fix H up to c·11ᵀ, one lost combination out of T(T+1)/2: the
    origin of the factor (T² + T − 2)/2 (our reading of the slides' scaling). The last column
    of the result is 0.

    Parameters
    ----------
    y : array, shape (n, T, T) or (T, T)
        Softmax outputs: entries in (0, 1] (an entry that underflowed to 0 carries no logit;
        lower β).
    beta : float
        The inverse temperature that produced ``y``, in (0, 1e6].

    Returns
    -------
    array, same shape as ``y``
        h_ab − h_aT.

    Examples
    --------
    >>> import numpy as np
    >>> h = np.array([[0.3, -1.0], [-1.0, 2.0]])
    >>> y = np.exp(2.0 * h) / np.exp(2.0 * h).sum(axis=1, keepdims=True)
    >>> np.round(logit_differences(y, beta=2.0), 12).tolist()
    [[1.3, 0.0], [-3.0, 0.0]]
    """
    arr = as_real_array(y, "y", ndim=(2, 3))
    xp = array_namespace(arr)
    if arr.shape[-1] != arr.shape[-2] or arr.shape[-1] < 2:
        raise ValueError(f"y must hold square T x T matrices with T >= 2, got shape {arr.shape}")
    if not bool(xp.all(arr > 0)) or not bool(xp.all(arr <= 1)):
        raise ValueError(
            "y must hold softmax outputs in (0, 1] (an entry of 0 has no logit: lower beta), "
            f"got entries in [{float(xp.min(arr))!r}, {float(xp.max(arr))!r}]"
        )
    b = _check_beta(beta)
    logy = xp.log(arr)
    return (logy - logy[..., -1:]) / b


def hardmax_state_evolution(
    alpha: Any,
    rho: Any,
    *,
    exact: Any = True,
    steps: Any = 300,
    tol: Any = 1e-9,
) -> HardmaxSE:
    """Iterate the hardmax T = 2 state evolution from the uninformed start, for every α at once.

    Notes
    -----
    m₀ = 1 and, for t ≥ 0 (slides, "BO attention"; arXiv:2506.01582, ``SE_hardmax.py``, with
    the exact derivative where ``exact``),

    .. math::

        q_t = 1 + ρ − m_t, \\quad \\hat q_t = 2α F(q_t, m_t), \\quad
        m_{t+1} = \\mathrm{MMSE}_{\\rm den}(1/\\hat q_t),

    with F the channel's E[2g₁₁² + 2g₂₂² + g₁₂²] (see the module notes) and MMSE_den the
    quadratic network's denoising error (:func:`assocmem.quadratic.free.rie_mmse`, through the
    private ``bayes._den_mmse``, which extends it outside its δ² range). m_t decreases to the
    smallest-q̂ fixed point, the value :func:`hardmax_curve` gives; slowly near a threshold.
    Stops when every |m_{t+1} − m_t| < ``tol``; a ConvergenceWarning says when some did not.

    Parameters
    ----------
    alpha : float or array_like, 1-D
        Sample ratios α, each in (0, 100].
    rho : float
        Teacher width ρ, in [1e-3, 1e3].
    exact : bool
        The exact derivative (True) or the public code's density (False).
    steps : int
        Largest number of iterations, 1 to 10000 (each is one batched denoising MMSE).
    tol : float
        Stopping tolerance on |m_{t+1} − m_t|, in (0, 1).

    Returns
    -------
    HardmaxSE
        Trajectories, last iterates and convergence flags.

    Examples
    --------
    >>> se = hardmax_state_evolution(0.1416, 0.5)
    >>> round(float(se.mmse[0]), 3)  # the exact curve; the published code gives 0.803
    0.643
    """
    a = as_real_vector(alpha, "alpha", 0.0, _SE_ALPHA_MAX, open_lo=True)
    r = _check_se_rho(rho)
    ex = check_bool(exact, "exact")
    k = check_positive_int(steps, "steps", maximum=_SE_STEPS_MAX)
    tl = check_fraction(tol, "tol", 0.0, 1.0, open_lo=True, open_hi=True)
    f = _channel(ex)
    m = np.ones_like(a)
    rows = [m]
    done = np.zeros(a.shape, dtype=bool)
    qhat = np.zeros_like(a)
    for _ in range(k):
        qhat = 2.0 * a * _fisher_qv(f, 1.0 + r - m, m)
        m_new = _den_mmse(qhat, r)
        done = np.abs(m_new - m) < tl
        m = m_new
        rows.append(m)
        if bool(np.all(done)):
            break
    if not bool(np.all(done)):
        worst = float(np.max(np.abs(rows[-1] - rows[-2])))
        warnings.warn(
            f"hardmax_state_evolution: {int(np.sum(~done))} of {a.size} alphas not converged "
            f"after {k} steps (largest last change {worst:.2e} > tol = {tl:g}); raise steps",
            ConvergenceWarning,
            stacklevel=2,
        )
    return HardmaxSE(
        alpha=a,
        rho=r,
        exact=ex,
        mmse=m,
        qhat=qhat,
        trajectory=np.array(rows),
        converged=done,
    )


def hardmax_curve(
    alpha: Any, rho: Any, *, exact: Any = True, n: Any = _CURVE_POINTS
) -> HardmaxCurve:
    """The hardmax T = 2 learning curve m(α) by inverse parametrisation (no iteration).

    Notes
    -----
    A fixed point of :func:`hardmax_state_evolution` at precision q̂ sits at
    α(q̂) = q̂/(2F(q, m)) with m = MMSE_den(1/q̂) and q = 1 + ρ − m. On the q̂ grid of
    :func:`assocmem.quadratic.bayes.bo_curve` (``n`` points, 1e-3 to 1e6, computed once per ρ
    and ``n`` and cached) this gives the curve without root finding. The iteration from m₀ = 1
    stops at the smallest q̂ whose α(q̂) reaches α, so only the running records of α(q̂) are
    kept (a jump, if α(q̂) turns back, is a first-order transition); log m and log q̂ are
    interpolated in log α (monotone cubic). Agrees with the iterated state evolution to 1e-4 at
    the default ``n``.

    Parameters
    ----------
    alpha : float or array_like, 1-D
        Sample ratios α >= 0, each at most 100 and inside the range the q̂ grid reaches (a
        ValueError gives it).
    rho : float
        Teacher width ρ, in [1e-3, 1e3].
    exact : bool
        The exact derivative (True) or the public code's density (False).
    n : int
        q̂ grid points, 20 to 2000.

    Returns
    -------
    HardmaxCurve
        m and q̂ at each α.

    Examples
    --------
    >>> c = hardmax_curve([0.02, 1.0027], 0.5, exact=False)  # the published curve
    >>> [round(float(x), 3) for x in c.mmse]
    [0.974, 0.315]
    """
    a = as_real_vector(alpha, "alpha", 0.0, _SE_ALPHA_MAX, min_size=0)
    r = _check_se_rho(rho)
    ex = check_bool(exact, "exact")
    k = check_positive_int(n, "n", minimum=20, maximum=_CURVE_POINTS_MAX)
    q_grid, m_grid = _prior_curve(r, k)
    a_grid = q_grid / (2.0 * _fisher_qv(_channel(ex), 1.0 + r - m_grid, m_grid))
    m, qhat = _invert(a_grid, m_grid, q_grid, a, "alpha")
    return HardmaxCurve(alpha=a, rho=r, exact=ex, mmse=m, qhat=qhat)


def hardmax_narrow_limit(alpha_bar: Any, *, exact: Any = True) -> Any:
    """The hardmax T = 2 learning curve in the narrow limit ρ → 0, against ᾱ = α/ρ.

    Notes
    -----
    As ρ → 0 (Q₀ → 1) the prior side is spiked Wigner per direction: with q̂ = ρ q̄,
    m = 1 − (1 − 1/q̄)² for q̄ > 1 and m = 1 below the BBP point q̄ = 1 (slides, "Narrow limit
    ρ → 0"; the same map as :func:`assocmem.quadratic.bayes.narrow_limit_mmse`). The fixed
    point q̄ = 2ᾱF(1 − m, m) leaves m = 1 at ᾱ_c = 1/(2F(0, 1)): 0.40341 with the exact
    derivative, 0.56327 with the public code's density (``SE_hardmax_rho=0.py`` of
    arXiv:2506.01582; its figure marks 0.56345), as in
    :func:`assocmem.quadratic.thresholds.hardmax_threshold`. Computed by inverse
    parametrisation over q̄ ∈ [1, 1e6].

    Parameters
    ----------
    alpha_bar : float or array_like
        ᾱ = α/ρ, each in [0, 100].
    exact : bool
        The exact derivative (True) or the public code's density (False).

    Returns
    -------
    float or ndarray
        The MMSE (A-units), shaped like ``alpha_bar``.

    Examples
    --------
    >>> round(hardmax_narrow_limit(1.0), 3), round(hardmax_narrow_limit(1.0, exact=False), 3)
    (0.43, 0.783)
    """
    ab = as_real_array(alpha_bar, "alpha_bar", min_size=0)
    bad = (ab < 0) | (ab > _SE_ALPHA_MAX)
    if bool(np.any(bad)):
        raise ValueError(
            f"alpha_bar must hold values in [0, {_SE_ALPHA_MAX:g}], got {float(ab[bad][0])!r}"
        )
    ex = check_bool(exact, "exact")
    qbar = np.logspace(0.0, 6.0, _NARROW_POINTS)
    m_grid = 1.0 - (1.0 - 1.0 / qbar) ** 2
    a_grid = qbar / (2.0 * _fisher_qv(_channel(ex), 1.0 - m_grid, m_grid))
    m, _ = _invert(a_grid, m_grid, qbar, ab.ravel(), "alpha_bar", flat_below=True)
    m = m.reshape(ab.shape)
    return float(m) if m.ndim == 0 else m


def gamp_hardmax(
    data: Any,
    *,
    clip: Any = True,
    damping: Any = 0.5,
    max_iter: Any = 150,
    tol: Any = 1e-8,
) -> GampResult:
    """GAMP-RIE for the hardmax T = 2 attention channel (two bits per sequence).

    Notes
    -----
    Each sequence gives three bilinear forms of A, Tr[G_k A] with G₁₁ = (x₁x₁ᵀ − I)/√d,
    G₂₂ = (x₂x₂ᵀ − I)/√d and G₁₂ = (x₁x₂ᵀ + x₂x₁ᵀ)/(2√d), i.e. the logits h₁₁, h₂₂, h₁₂ of
    :func:`attention_logits`; the outputs are the two bits y₁₁ = 1[h₁₁ > h₁₂],
    y₂₂ = 1[h₂₂ > h₁₂] (slides, "BO attention"). GAMP as for quadratic networks (Maillard et al.
    2024; the structure of ``AMP_hardmax.py`` of arXiv:2506.01582), with variances
    V₁₁ = V₂₂ = 2m and V₁₂ = m of the three forms:

    1. ω_k = Tr[G_k Â] − V_k g_k (Onsager term with the previous g);
    2. g = ∂_ω log Φ₂(κ₁, κ₂; c), κ_i = s_i(ω_ii − ω₁₂)/√(3m), c = s₁s₂/3, s_i = 2y_ii − 1:
       g₁₁ = s₁∂₁Φ₂/(√(3m)Φ₂), g₂₂ = s₂∂₂Φ₂/(√(3m)Φ₂), g₁₂ = −(g₁₁ + g₂₂) (the exact
       derivative; the public code's bivariate density in its place is not a score, and the
       iteration built on it does not track A*);
    3. q̂ = 2α F(1 + ρ − m, m), the state evolution's precision (as :func:`hardmax_curve`);
    4. R = Â + (2/(q̂ d)) Σ_{μ,k} g_{μk} G_{μk} ≈ A* + q̂^{-1/2} Z (our normalisation:
       E[G_k Tr(G_k B)] = c_k B/d with c = 2, 2, 1, the weights of F);
    5. Â_new = RIE of R with eigenvalues clipped to the support of A ⊞ SC(1/q̂)
       (:func:`assocmem.quadratic.free.rie_shrinkage`), m_new = MMSE_den(1/q̂);
    6. damping: Â, m ← γ(Â, m) + (1 − γ)(Â_new, m_new); stop when (1/d)‖Â_new − Â‖² < tol.

    The namespace (NumPy or CuPy) follows the data; g_out and the eigenvalue map run in NumPy
    (n × 3 numbers, d eigenvalues). A ConvergenceWarning says when the loop stopped early or
    diverged.

    Parameters
    ----------
    data : AttentionData
        Hardmax data with T = 2 (``sample_attention(..., T=2, output="hardmax")``).
    clip : bool
        Clip R's eigenvalues to the theoretical support before the RIE map.
    damping : float
        γ, in [0, 1).
    max_iter : int
        Largest number of iterations, 1 to 10000.
    tol : float
        Stopping tolerance, in (0, 1).

    Returns
    -------
    GampResult
        Â, the empirical error per iteration, the theory's m and q̂ per iteration (q̂_t is the
        state evolution's 2αF at m_t), and the convergence flags.

    Examples
    --------
    >>> data = sample_attention(30, 2, 0.5, 0.5, rng=0, output="hardmax")
    >>> res = gamp_hardmax(data)
    >>> bool(res.error[-1] < 0.5 * res.error[0])
    True
    """
    data = check_instance(data, "data", AttentionData)
    if data.T != 2 or data.output != "hardmax":
        raise ValueError(
            "data must be hardmax attention data with T = 2 "
            f"(sample_attention(..., T=2, output='hardmax')), got T = {data.T}, "
            f"output = {data.output!r}"
        )
    cl = check_bool(clip, "clip")
    gamma = check_fraction(damping, "damping", 0.0, 1.0, open_lo=False, open_hi=True)
    n_max = check_positive_int(max_iter, "max_iter", maximum=_GAMP_ITER_MAX)
    tl = check_fraction(tol, "tol", 0.0, 1.0, open_lo=True, open_hi=True)
    return _gamp_hardmax(data, cl, gamma, n_max, tl)


# --------------------------------------------------------------------------- private kernels


def _check_beta(beta: Any) -> float:
    b = check_beta(beta)
    if b > _BETA_MAX:
        raise ValueError(f"beta must be a finite number in (0, {_BETA_MAX:g}], got {b!r}")
    return b


def _check_pair(X: Any, A: Any) -> tuple[Any, Any, Any, bool]:
    """Validate tokens (n, T, d) or (T, d) and a (d, d) matrix in the tokens' namespace."""
    Xa = check_max_abs(as_real_array(X, "X", ndim=(2, 3)), "X", _ENTRY_MAX)
    xp = array_namespace(Xa)
    Aa = check_max_abs(as_real_array(A, "A", ndim=2, xp=xp), "A", _ENTRY_MAX)
    d = Xa.shape[-1]
    if Aa.shape != (d, d):
        raise ValueError(f"A must have shape (d, d) = ({d}, {d}) to match X, got {Aa.shape}")
    single = Xa.ndim == 2
    return (Xa[None] if single else Xa), Aa, xp, single


def _logits(X: Any, A: Any, xp: Any) -> Any:
    """(X A Xᵀ − Tr(A) I)/√d for X of shape (n, T, d)."""
    d = X.shape[-1]
    h = (X @ A) @ xp.swapaxes(X, -1, -2)
    T = X.shape[-2]
    h = h - xp.trace(A) * xp.eye(T, dtype=h.dtype)
    return h / math.sqrt(d)


def _softmax(h: Any, beta: float, xp: Any) -> Any:
    z = beta * (h - xp.max(h, axis=-1, keepdims=True))
    e = xp.exp(z)
    return e / xp.sum(e, axis=-1, keepdims=True)


def _hardmax(h: Any, xp: Any) -> Any:
    """One-hot row argmax (ties, of probability 0, go to the first index)."""
    idx = xp.argmax(h, axis=-1)
    return (xp.arange(h.shape[-1]) == idx[..., None]).astype(h.dtype)


def _check_se_rho(rho: Any) -> float:
    return check_fraction(rho, "rho", _SE_RHO_MIN, _SE_RHO_MAX, open_lo=False, open_hi=False)


@lru_cache(maxsize=16)
def _prior_curve(rho: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(q̂, MMSE_den(1/q̂)) on bo_curve's grid (the costly prior side, shared by both formulas)."""
    c = bo_curve(rho, n=n)
    q, m = np.asarray(c.qhat, dtype=float), np.asarray(c.mmse, dtype=float)
    q.setflags(write=False)
    m.setflags(write=False)
    return q, m


def _invert(
    a_grid: np.ndarray,
    m_grid: np.ndarray,
    q_grid: np.ndarray,
    a: np.ndarray,
    name: str,
    flat_below: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """m and q̂ at loads ``a`` from a parametrised curve (a(q̂), m(q̂)), records of a only.

    Below the first grid point: the uninformed branch m = 1 (``flat_below``, the narrow limit's
    q̂ = ρ start) or the straight line from (0, 1, q̂ = 0) (the finite-ρ curve).
    """
    rec = a_grid > np.maximum.accumulate(np.concatenate(([-np.inf], a_grid[:-1])))
    a_r, m_r, q_r = a_grid[rec], m_grid[rec], q_grid[rec]
    if a.size and float(np.max(a)) > a_r[-1]:
        raise ValueError(
            f"{name} must be at most {a_r[-1]:.4g} here (the end of the q̂ grid), "
            f"got {float(np.max(a))!r}"
        )
    la = np.log(a_r)
    lm = PchipInterpolator(la, np.log(m_r))
    lq = PchipInterpolator(la, np.log(q_r))
    below = a < a_r[0]
    inside = ~below
    m = np.empty_like(a)
    q = np.empty_like(a)
    m[inside] = np.exp(lm(np.log(a[inside])))
    q[inside] = np.exp(lq(np.log(a[inside])))
    if flat_below:
        m[below], q[below] = 1.0, 0.0
    else:
        frac = a[below] / a_r[0]
        m[below] = 1.0 - frac * (1.0 - m_r[0])
        q[below] = frac * q_r[0]
    return m, q


def _fisher_qv(f: Any, q: np.ndarray, V: np.ndarray) -> np.ndarray:
    """F(q, V) = f(q/V)/(3V), f from the tabulated channel integral."""
    return f(np.maximum(q, 0.0) / V) / (3.0 * V)


@lru_cache(maxsize=2)
def _channel(exact: bool) -> Any:
    """f(r) = E_t[Σ_s N_s/Z_s], t ~ N(0, rΣ), as a callable: spline of log f in log r.

    Tabulated once per formula: the grid sums of :func:`_channel_f` at 8 points per decade of
    r ∈ [1e-4, 1e10] (spline error < 1e-6 relative); below 1e-4 linear from f(0), above 1e10 the
    last slope's power law.
    """
    r = np.logspace(
        math.log10(_R_LO), math.log10(_R_HI), int(_R_PER_DECADE * math.log10(_R_HI / _R_LO)) + 1
    )
    f0 = float(_channel_f(np.array([0.0]), exact)[0])
    fr = _channel_f(r, exact)
    spline = CubicSpline(np.log(r), np.log(fr))
    slope_hi = float(spline(np.log(r[-1]), 1))

    def f(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        lx = np.log(np.clip(x, _R_LO, _R_HI))
        out = np.exp(spline(lx))
        low = x < _R_LO
        out = np.where(low, f0 + (fr[0] - f0) * x / _R_LO, out)
        high = x > _R_HI
        return np.where(high, fr[-1] * (np.maximum(x, _R_HI) / _R_HI) ** slope_hi, out)

    return f


@lru_cache(maxsize=1)
def _channel_grid() -> tuple[np.ndarray, np.ndarray, dict[tuple[bool, int], np.ndarray]]:
    """Grid t = a sinh(s) per axis, its trapezoid weights, and Σ-summands N/Z for c = ±⅓.

    For the sign pattern s = (s₁, s₂), κ = (s₁t₁, s₂t₂) and c = s₁s₂/3; summing over the four
    patterns on a grid symmetric in each axis folds into two evaluations at κ with c = ±⅓
    (see :func:`_channel_f`). N = 2d₁² + 2d₂² + (d₁ + s₁s₂d₂)² with dᵢ = ∂ᵢΦ₂ (exact) or φ₂
    (the public code), Z = Φ₂ (the private kernels of
    :mod:`assocmem.quadratic.thresholds`).
    """
    top = math.asinh(_GRID_T_MAX / _GRID_A)
    k = math.ceil(top / _GRID_H)
    s = np.arange(-k, k + 1) * _GRID_H
    t = _GRID_A * np.sinh(s)
    w = _GRID_A * np.cosh(s) * _GRID_H
    k1, k2 = np.meshgrid(t, t, indexing="ij")
    out = {}
    for sign in (1, -1):
        c = np.full(k1.shape, sign / 3.0)
        z = _phi2_cdf(k1, k2, c)
        ok = z > 1e-300  # outcomes of vanishing probability contribute N/Z -> 0
        zs = np.where(ok, z, 1.0)
        d1, d2 = _phi2_grad(k1, k2, c)
        p = _phi2_density(k1, k2, c)
        for exact, (e1, e2) in ((True, (d1, d2)), (False, (p, p))):
            num = 2.0 * e1**2 + 2.0 * e2**2 + (e1 + sign * e2) ** 2
            out[exact, sign] = np.where(ok, num / zs, 0.0)
    return t, w, out


def _channel_f(r: np.ndarray, exact: bool) -> np.ndarray:
    """f(r) by the grid sum: Σ W(κ)[2 p_r(κ) G₊(κ) + 2 p_r(κ₁, −κ₂) G₋(κ)] (r = 0: 2G₊ + 2G₋).

    p_r is the N(0, rΣ) density, Σ = [[1, ⅓], [⅓, 1]]; the patterns (−, −) and (−, +) equal
    (+, +) and (+, −) after t → −t, which leaves p_r unchanged.
    """
    t, w, g = _channel_grid()
    gp, gm = g[exact, 1], g[exact, -1]
    mid = t.size // 2
    W = w[:, None] * w[None, :]
    t1, t2 = t[:, None], t[None, :]
    same = t1**2 + t2**2 - (2.0 / 3.0) * t1 * t2
    flip = t1**2 + t2**2 + (2.0 / 3.0) * t1 * t2
    out = np.empty(r.shape)
    norm = 2.0 * math.pi * math.sqrt(8.0 / 9.0)
    for i, rr in enumerate(r):
        if rr == 0.0:
            out[i] = 2.0 * (gp[mid, mid] + gm[mid, mid])
            continue
        pp = np.exp(-(9.0 / 8.0) * same / (2.0 * rr))
        pm = np.exp(-(9.0 / 8.0) * flip / (2.0 * rr))
        out[i] = 2.0 * float(np.sum(W * (pp * gp + pm * gm))) / (norm * rr)
    return out


def _gamp_hardmax(
    data: AttentionData, clip: bool, gamma: float, n_max: int, tol: float
) -> GampResult:
    """The GAMP loop of :func:`gamp_hardmax`; trusted input."""
    X, A = data.X, data.A
    xp = array_namespace(X)
    d, rho, alpha = data.d, data.rho, data.n / data.d**2
    signs = 2.0 * np.asarray(to_numpy(xp.stack([data.y[:, 0, 0], data.y[:, 1, 1]], axis=1))) - 1
    f = _channel(True)
    A_hat = math.sqrt(rho) * xp.eye(d)
    m = 1.0
    g = np.zeros((data.n, 3))
    errors, ms = [_mse(A_hat, A, xp)], [m]
    converged = diverged = False
    residual = math.inf
    for _ in range(n_max):
        h = np.asarray(to_numpy(_logits(X, A_hat, xp)))
        omega = np.stack([h[:, 0, 0], h[:, 1, 1], h[:, 0, 1]], axis=1)
        omega = omega - np.array([2.0 * m, 2.0 * m, m]) * g
        g = _g_out(omega, signs, m)
        q_hat = float(2.0 * alpha * _fisher_qv(f, np.array(1.0 + rho - m), np.array(m)))
        R = A_hat + (2.0 / (q_hat * d)) * _back_project(X, xp.asarray(g), xp)
        delta2 = min(max(1.0 / q_hat, 1e-6), 1e4)
        A_new = _denoise(R, rho, delta2, clip, xp)
        if A_new is None:
            diverged = True
            break
        residual = _mse(A_new, A_hat, xp)
        m_new = float(_den_mmse(np.array([q_hat]), rho)[0])
        A_hat = gamma * A_hat + (1.0 - gamma) * A_new
        m = gamma * m + (1.0 - gamma) * m_new
        errors.append(_mse(A_hat, A, xp))
        ms.append(m)
        if residual < tol:
            converged = True
            break
    _warn(converged, diverged, len(ms) - 1, residual, tol, "gamp_hardmax")
    m_arr = np.array(ms)
    q_arr = 2.0 * alpha * _fisher_qv(f, 1.0 + rho - m_arr, m_arr)
    return GampResult(
        A_hat=A_hat,
        error=np.array(errors),
        m=m_arr,
        q_hat=q_arr,
        converged=converged,
        n_iter=len(ms) - 1,
        diverged=diverged,
    )


def _g_out(omega: np.ndarray, signs: np.ndarray, m: float) -> np.ndarray:
    """(g₁₁, g₂₂, g₁₂) per sequence: ∂_ω log Φ₂(κ₁, κ₂; c)."""
    scale = math.sqrt(3.0 * m)
    s1, s2 = signs[:, 0], signs[:, 1]
    k1 = np.clip(s1 * (omega[:, 0] - omega[:, 2]) / scale, -_KAPPA_MAX, _KAPPA_MAX)
    k2 = np.clip(s2 * (omega[:, 1] - omega[:, 2]) / scale, -_KAPPA_MAX, _KAPPA_MAX)
    c = s1 * s2 / 3.0
    z = np.maximum(_phi2_cdf(k1, k2, c), 1e-300)
    d1, d2 = _phi2_grad(k1, k2, c)
    g11 = s1 * d1 / (scale * z)
    g22 = s2 * d2 / (scale * z)
    return np.stack([g11, g22, -(g11 + g22)], axis=1)


def _back_project(X: Any, g: Any, xp: Any) -> Any:
    """Σ_μ [g₁₁G₁₁ + g₂₂G₂₂ + g₁₂G₁₂] = (X₁ᵀ g₁₁ X₁ + X₂ᵀ g₂₂ X₂ − Σ(g₁₁ + g₂₂) I
    + (X₁ᵀ g₁₂ X₂ + X₂ᵀ g₁₂ X₁)/2)/√d."""
    X1, X2 = X[:, 0, :], X[:, 1, :]
    d = X.shape[-1]
    S = X1.T @ (g[:, 0:1] * X1) + X2.T @ (g[:, 1:2] * X2)
    C = X1.T @ (g[:, 2:3] * X2)
    S = S + 0.5 * (C + C.T) - float(xp.sum(g[:, 0] + g[:, 1])) * xp.eye(d)
    return S / math.sqrt(d)
