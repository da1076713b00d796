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
``logit_differences``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    as_real_array,
    as_rng,
    as_xp,
    check_beta,
    check_fraction,
    check_max_abs,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace

__all__ = [
    "AttentionData",
    "attention_logits",
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
    A = xp.asarray(_teacher(dd, r, gen))
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


def _teacher(d: int, rho: float, rng: np.random.Generator) -> np.ndarray:
    """A* = Wᵀ W/√(p d), W ∈ ℝ^{p×d} iid N(0, 1), p = max(1, round(ρd))."""
    p = max(1, round(rho * d))
    W = rng.standard_normal((p, d))
    return (W.T @ W) / math.sqrt(p * d)


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
