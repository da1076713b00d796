"""Quadratic networks as PSD matrix sensing: the teacher, the data and the sensing operators.

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*, "Quadratic networks" and "Sketch of analysis through AMP"); Maillard,
Troiani, Martin, Krzakala and Zdeborová, arXiv:2408.03733.

Notation map (A-units: A* = Wᵀ W / √(p d), spectrum O(1), Tr(A*²)/d → 1 + ρ)
-----------------------------------------------------------------------------
- d (input dimension), p* = max(1, round(ρ d)) (teacher width)  -> ``d``, ``p``, ``rho``
- n = max(1, round(α d²)) samples, α = n/d²                      -> ``n``, ``alpha``
- W ∈ R^{p×d}, rows w_i ~ N(0, I_d) (teacher weights)            -> ``W``
- A* = Wᵀ W / √(p d)                                            -> ``A``
- x_μ ~ N(0, I_d), the rows of X ∈ R^{n×d}                       -> ``X``
- G_μ = (x_μ x_μᵀ − I)/√d (sensing matrices)                    -> never formed for network data
- y_μ = Tr[G_μ A*] + √Δ ξ_μ (labels, Δ = label-noise variance)   -> ``y``, ``noise``
- GOE(d): Z = (H + Hᵀ)/√(2d), H_ij iid N(0, 1)                   -> ``G`` of the surrogate data

A width-p network with centred quadratic activation,
y = (1/√p) Σ_i [(w_i·x)² − ‖w_i‖²]/d, equals Tr[G A] with G = (xxᵀ − I)/√d and A = WᵀW/√(pd)
(slides, "Quadratic networks"). Learning it from n = αd² samples is sensing of a PSD matrix.
For network data the operators use Tr[G_μ B] = (x_μᵀ B x_μ − Tr B)/√d and
Σ_μ g_μ G_μ = (Xᵀ diag(g) X − (Σ_μ g_μ) I)/√d: O(n d²) work and O(n d) memory.
The "Gaussian equivalence" of the slides replaces G_μ by independent GOE(d) matrices, which have
the same first two moments, E[G_ij G_kl] = (δ_ik δ_jl + δ_il δ_jk)/d; the surrogate data store
the (n, d, d) stack (capped in size).

Every array lives in the namespace ``xp`` (NumPy by default, CuPy on request); random draws
come from a NumPy Generator and are moved to ``xp``, so a seed gives the same data on both.

Public functions
----------------
``sample_teacher``, ``sample_sensing`` (result ``SensingData``), ``sensing_forward``,
``sensing_adjoint``, ``quadnet_output``.
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
    check_bool,
    check_fraction,
    check_instance,
    check_max_abs,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace

__all__ = [
    "SensingData",
    "quadnet_output",
    "sample_sensing",
    "sample_teacher",
    "sensing_adjoint",
    "sensing_forward",
]

_ALPHA_MAX = 1e4
_NOISE_MAX = 1e4  # the label-noise range of assocmem.quadratic.bayes
_RHO_MAX = 1e6


@dataclass(frozen=True)
class SensingData:
    """One draw of the matrix-sensing problem y_μ = Tr[G_μ A*] + √Δ ξ_μ.

    Attributes
    ----------
    A : ndarray, shape (d, d)
        The target A* = WᵀW/√(pd) (A-units).
    y : ndarray, shape (n,)
        The labels.
    X : ndarray, shape (n, d) or None
        The Gaussian inputs x_μ (network data); None for the GOE surrogate.
    G : ndarray, shape (n, d, d) or None
        The GOE(d) sensing matrices of the surrogate; None for network data (G_μ is implicit).
    d, n : int
        Dimension and number of samples.
    rho : float
        ρ as asked; the teacher width is ``W.shape[0]`` = max(1, round(ρd)).
    noise : float
        Label-noise variance Δ.
    W : ndarray, shape (p, d)
        The teacher weights.
    """

    A: Any
    y: Any
    X: Any
    G: Any
    d: int
    n: int
    rho: float
    noise: float
    W: Any

    @property
    def alpha(self) -> float:
        """The realised sample ratio α = n/d²."""
        return self.n / self.d**2

    @property
    def surrogate(self) -> bool:
        """Whether the sensing matrices are the GOE surrogate (``G`` stored, ``X`` None)."""
        return self.G is not None


def _check_d(d: Any) -> int:
    out = check_positive_int(d, "d", minimum=1)
    check_size(out * out, "d", "elements of A (d²)", MAX_ELEMENTS, "use a smaller d")
    return out


def _check_rho(rho: Any, d: int) -> tuple[float, int]:
    r = check_fraction(rho, "rho", 0.0, _RHO_MAX, open_lo=True, open_hi=False)
    p = max(1, round(r * d))
    check_size(p * d, "rho", "teacher weights (p d)", MAX_ELEMENTS, "use a smaller rho or d")
    return r, p


def _weights(d: int, p: int, gen: np.random.Generator) -> np.ndarray:
    return gen.standard_normal((p, d))


def _teacher(W: Any) -> Any:
    p, d = W.shape
    return (W.T @ W) / math.sqrt(p * d)


def sample_teacher(d: Any, rho: Any, rng: Any = 0, *, xp: Any = None) -> Any:
    """Draw the target A* = WᵀW/√(pd) with p = max(1, round(ρd)) Gaussian rows w_i.

    Parameters
    ----------
    d : int
        Dimension, >= 1 (d² <= 2²⁸).
    rho : float
        Width ratio ρ = p*/d, in (0, 1e6].
    rng : int or numpy.random.Generator
        Seed or generator (the weights are drawn from it).
    xp : module or None
        ``numpy`` (default) or ``cupy``: the namespace of the result.

    Returns
    -------
    ndarray, shape (d, d)
        A*, symmetric PSD with rank min(p, d).

    Notes
    -----
    Slides, "Quadratic networks": A = Σ_i w_i w_iᵀ/√(pd), w_i ~ N(0, I_d). In A-units
    E Tr A*/d = √ρ and Tr(A*²)/d → 1 + ρ (Maillard et al. 2024).

    Examples
    --------
    >>> A = sample_teacher(200, 0.5, rng=0)
    >>> round(float(np.trace(A) / 200), 1)  # √0.5 ≈ 0.71
    0.7
    """
    n_d = _check_d(d)
    _, p = _check_rho(rho, n_d)
    gen = as_rng(rng)
    xp = as_xp(xp) or np
    return xp.asarray(_teacher(_weights(n_d, p, gen)))


def sample_sensing(
    d: Any,
    rho: Any,
    alpha: Any,
    rng: Any = 0,
    *,
    noise: Any = 0.0,
    surrogate: Any = False,
    xp: Any = None,
) -> SensingData:
    """Draw a teacher and n = max(1, round(αd²)) labelled samples of the sensing problem.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    rho : float
        Teacher width ratio ρ, in (0, 1e6].
    alpha : float
        Sample ratio α = n/d², in (0, 1e4]; n·d (network data) or n·d² (surrogate) must stay
        under the library's element cap (2²⁸ by default, see :class:`assocmem.limits`).
    rng : int or numpy.random.Generator
        Seed or generator; the draws are, in order, W, then X (or the GOE stack), then ξ.
    noise : float
        Label-noise variance Δ, in [0, 1e4].
    surrogate : bool
        False (default): network data, x_μ ~ N(0, I_d) and G_μ = (x_μx_μᵀ − I)/√d.
        True: the Gaussian-equivalent GOE(d) sensing matrices, stored as an (n, d, d) stack.
    xp : module or None
        ``numpy`` (default) or ``cupy``: the namespace of every array of the result.

    Returns
    -------
    SensingData

    Notes
    -----
    y_μ = Tr[G_μ A*] + √Δ ξ_μ (slides, "L2-regularised quadratic networks"). For network data
    the labels are computed as the network's output (:func:`quadnet_output`), which equals
    Tr[G_μ A*]. E Tr[G B]² = 2‖B‖²_F/d for both kinds of G.

    Examples
    --------
    >>> data = sample_sensing(20, 0.5, 0.2, rng=1)
    >>> data.n, data.X.shape, data.G is None
    (80, (80, 20), True)
    """
    n_d = _check_d(d)
    r, p = _check_rho(rho, n_d)
    a = check_fraction(alpha, "alpha", 0.0, _ALPHA_MAX, open_lo=True, open_hi=False)
    delta = check_fraction(noise, "noise", 0.0, _NOISE_MAX, open_lo=False, open_hi=False)
    goe = check_bool(surrogate, "surrogate")
    gen = as_rng(rng)
    xp = as_xp(xp) or np
    n = max(1, round(a * n_d * n_d))
    per_sample = n_d * n_d if goe else n_d
    hint = "use a smaller alpha or d"
    check_size(float(n) * per_sample, "alpha", "elements of the samples", MAX_ELEMENTS, hint)
    W = xp.asarray(_weights(n_d, p, gen))
    A = _teacher(W)
    if goe:
        H = gen.standard_normal((n, n_d, n_d))
        G = xp.asarray((H + H.transpose(0, 2, 1)) / math.sqrt(2.0 * n_d))
        X = None
        clean = xp.reshape(G, (n, -1)) @ xp.reshape(A, (-1,))
    else:
        X = xp.asarray(gen.standard_normal((n, n_d)))
        G = None
        clean = _network(W, X, xp)
    y = clean + math.sqrt(delta) * xp.asarray(gen.standard_normal(n))
    return SensingData(A=A, y=y, X=X, G=G, d=n_d, n=n, rho=r, noise=delta, W=W)


def sensing_forward(data: Any, B: Any) -> Any:
    """The sensing operator B ↦ (Tr[G_μ B])_μ.

    Parameters
    ----------
    data : SensingData
        The sensing matrices (implicit through X, or the GOE stack G).
    B : array_like, shape (d, d)
        A matrix with |B_ij| <= 1e100, in the namespace of the data.

    Returns
    -------
    ndarray, shape (n,)

    Notes
    -----
    For network data Tr[G_μ B] = (x_μᵀ B x_μ − Tr B)/√d: one (n, d) × (d, d) product, O(n d²).

    Examples
    --------
    The labels of noiseless data are the forward map of the target:

    >>> data = sample_sensing(10, 0.5, 0.3, rng=0)
    >>> bool(np.allclose(sensing_forward(data, data.A), data.y))
    True
    """
    data = check_instance(data, "data", SensingData)
    xp = array_namespace(data.A)
    arr = _check_matrix(B, "B", (data.d, data.d), xp)
    return _forward(data, arr, xp)


def sensing_adjoint(data: Any, g: Any) -> Any:
    """The adjoint of the sensing operator, g ↦ Σ_μ g_μ G_μ.

    Parameters
    ----------
    data : SensingData
        The sensing matrices.
    g : array_like, shape (n,)
        Weights, |g_μ| <= 1e100, in the namespace of the data.

    Returns
    -------
    ndarray, shape (d, d)
        Symmetric.

    Notes
    -----
    For network data Σ_μ g_μ G_μ = (Xᵀ diag(g) X − (Σ_μ g_μ) I)/√d, O(n d²). It is the adjoint:
    ⟨forward(B), g⟩ = Tr[B adjoint(g)].

    Examples
    --------
    >>> data = sample_sensing(10, 0.5, 0.3, rng=0)
    >>> g = np.ones(data.n)
    >>> B = np.eye(10)
    >>> bool(np.isclose(sensing_forward(data, B) @ g, np.trace(B @ sensing_adjoint(data, g))))
    True
    """
    data = check_instance(data, "data", SensingData)
    xp = array_namespace(data.A)
    arr = _check_matrix(g, "g", (data.n,), xp)
    return _adjoint(data, arr, xp)


def quadnet_output(W: Any, X: Any) -> Any:
    """Output of the width-p centred quadratic network, y = (1/√p) Σ_i [(w_i·x)² − ‖w_i‖²]/d.

    Parameters
    ----------
    W : array_like, shape (p, d)
        First-layer weights (rows w_i), |W_ij| <= 1e100; NumPy or CuPy.
    X : array_like, shape (n, d) or (d,)
        Inputs, |X_ij| <= 1e100, in the namespace of ``W``.

    Returns
    -------
    ndarray, shape (n,), or float for one input

    Notes
    -----
    Slides, "Quadratic networks": with σ(h) = h² − ‖w‖²/d at h = w·x/√d, this is Tr[G A] with
    G = (xxᵀ − I)/√d and A = WᵀW/√(pd) (checked to 1e-12 in the tests).

    Examples
    --------
    One neuron w = e_1 in d = 1 and x = 2: ((2)² − 1)/1 = 3.

    >>> float(quadnet_output(np.array([[1.0]]), np.array([2.0])))
    3.0
    """
    xp = array_namespace(W, X)
    w = check_max_abs(as_real_array(W, "W", ndim=2, xp=xp), "W")
    if w.shape[0] < 1 or w.shape[1] < 1:
        raise ValueError(f"W must have shape (p, d) with p, d >= 1, got shape {w.shape}")
    x = check_max_abs(as_real_array(X, "X", ndim=(1, 2), xp=xp), "X")
    single = x.ndim == 1
    x2 = x[None, :] if single else x
    if x2.shape[1] != w.shape[1] or x2.shape[0] < 1:
        d = w.shape[1]
        raise ValueError(f"X must have shape ({d},) or (n, {d}) with n >= 1, got {x.shape}")
    out = _network(w, x2, xp)
    return float(out[0]) if single else out


def _check_matrix(B: Any, name: str, shape: tuple[int, ...], xp: Any) -> Any:
    arr = as_real_array(B, name, ndim=len(shape), xp=xp)
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got shape {arr.shape}")
    return check_max_abs(arr, name)


def _network(W: Any, X: Any, xp: Any) -> Any:
    """(1/√p) Σ_i [(w_i·x_μ)² − ‖w_i‖²]/d for every row of X (slides, "Quadratic networks")."""
    p, d = W.shape
    H = X @ W.T
    return (xp.sum(H * H, axis=1) - xp.sum(W * W)) / (d * math.sqrt(p))


def _forward(data: SensingData, B: Any, xp: Any) -> Any:
    """Tr[G_μ B] for every μ (trusted input)."""
    if data.G is not None:
        return xp.reshape(data.G, (data.n, -1)) @ xp.reshape(B, (-1,))  # G_μ symmetric
    X = data.X
    return (xp.sum((X @ B) * X, axis=1) - xp.trace(B)) / math.sqrt(data.d)


def _adjoint(data: SensingData, g: Any, xp: Any) -> Any:
    """Σ_μ g_μ G_μ (trusted input)."""
    if data.G is not None:
        return xp.reshape(g @ xp.reshape(data.G, (data.n, -1)), (data.d, data.d))
    X = data.X
    M = X.T @ (g[:, None] * X)
    return (M - xp.sum(g) * xp.eye(data.d)) / math.sqrt(data.d)
