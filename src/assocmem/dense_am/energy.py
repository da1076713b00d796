"""LSE and LSR (Epanechnikov) energies of a dense associative memory, with derivatives.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*. Equation numbers refer to the paper; "note §" refers to the chapter note
``shared/notes/05-epanechnikov-dense-am.md``.

Notation map
------------
======================  =========================  ==============================================
paper                   code                       meaning
======================  =========================  ==============================================
Ξ = {ξ_μ}               ``memories``, (M, d)       stored patterns
x                       ``x``, (d,) or (B, d)      query point(s); B is a batch size here
β                       ``beta``                   inverse temperature, > 0
ϵ (eq. 3)               ``eps``                    floor inside the LSR log, >= 0
√(2/β)                  ``support_radius(beta)``   radius R of every LSR support ball
B(x)                    ``active_set(...)``        strict active set {μ : ‖x − ξ_μ‖² < 2/β}
p_μ(x)                  (internal)                 softmax weights of the LSE energy
======================  =========================  ==============================================

Conventions (note §0, Pitfall P1): the active set is *strict*; squared distances are computed in
the difference form ``sum_k (x_k - xi_k)**2`` (accumulated over k in order), never through
``|x|² − 2x·ξ + |ξ|²``, and compared against ``2.0 / beta``, never against ``R * R``.

Shapes: a single point ``x`` of shape (d,) gives a Python ``float`` energy, a (d,) gradient and a
(d, d) Hessian; a batch of shape (B, d) gives (B,), (B, d) and (B, d, d) arrays in the namespace
of the inputs (NumPy or CuPy).

Public functions
----------------
sqdist, support_radius, active_set, separation_function,
lse_energy, lse_grad, lse_hessian,
lsr_energy, lsr_grad, lsr_hessian, centroid_energy.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from assocmem._validation import (
    as_memories,
    as_points,
    check_beta,
    check_index_set,
    check_nonneg_float,
)
from assocmem.backend import array_namespace

__all__ = [
    "active_set",
    "centroid_energy",
    "lse_energy",
    "lse_grad",
    "lse_hessian",
    "lsr_energy",
    "lsr_grad",
    "lsr_hessian",
    "separation_function",
    "sqdist",
    "support_radius",
]

# Entries per block of rows in the (B, M) kernels: cache-sized (512 KiB) on the CPU, where
# blocking makes a 200x200 grid with M = 50 about twice as fast, and large on a GPU.
_BLOCK_ELEMENTS_CPU = 1 << 16
_BLOCK_ELEMENTS_GPU = 1 << 24


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def sqdist(x: Any, memories: Any) -> Any:
    """Squared Euclidean distances from query points to the memories, in difference form.

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.

    Returns
    -------
    array, shape (M,) or (B, M)
        ``sum_k (x_k - xi_k)**2``, accumulated over the coordinates k = 0, ..., d-1 in order.

    Notes
    -----
    The difference form is exact enough for tie-sensitive tests (``d2 < 2/beta``): a point equal
    to a memory has distance exactly 0.0, which the GEMM form ``|x|² − 2x·ξ + |ξ|²`` does not
    guarantee (note §4.6, Pitfall P1). The temporaries are (B, M), never (B, M, d).

    Examples
    --------
    >>> sqdist([0.0, 0.0], [[3.0, 4.0], [0.0, 0.0]])
    array([25.,  0.])
    """
    X, Xi, single, xp = _prepare(x, memories)
    D2 = _sqdist(X, Xi, xp)
    return D2[0] if single else D2


def support_radius(beta: float) -> float:
    """Radius R = √(2/β) of every LSR support ball (note §0).

    Parameters
    ----------
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    float
        ``sqrt(2 / beta)``.

    Examples
    --------
    >>> support_radius(2.0)
    1.0
    """
    return math.sqrt(2.0 / check_beta(beta))


def active_set(x: Any, memories: Any, beta: float) -> Any:
    """Strict active set B(x) = {μ : ‖x − ξ_μ‖² < 2/β} as a boolean mask.

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    array of bool, shape (M,) or (B, M)
        ``True`` where memory μ supports the point.

    Notes
    -----
    The paper uses ``<=`` in D.1, Prop. 2 and Alg. 1 and ``<`` in D.3/D.4; we use the strict set
    everywhere (note §0, Pitfall P1), which matches autodiff's ReLU'(0) = 0. Distances are in
    difference form and compared with ``2.0 / beta``.

    Examples
    --------
    >>> active_set([0.0], [[0.0], [0.5], [1.0]], beta=2.0)
    array([ True,  True, False])
    """
    beta = check_beta(beta)
    X, Xi, single, xp = _prepare(x, memories)
    A = _sqdist(X, Xi, xp) < 2.0 / beta
    return A[0] if single else A


def separation_function(s: Any, beta: float, kind: str = "lse") -> Any:
    """Separation function F(β s) of the LSE or LSR energy (paper eq. (1), Fig. 2).

    Parameters
    ----------
    s : float or array_like
        Similarity values S = −½‖x − ξ‖² (usually <= 0, but any finite real is accepted).
    beta : float
        Inverse temperature, finite and > 0.
    kind : {"lse", "lsr"}
        ``"lse"`` gives exp(β s); ``"lsr"`` gives ReLU(1 + β s).

    Returns
    -------
    float or array
        F(β s), with the shape of ``s`` (a Python float for scalar input).

    Notes
    -----
    LSE: F(βs) = exp(βs) never reaches zero. LSR: F(βs) = ReLU(1 + βs) decays linearly and is
    exactly zero for s <= −1/β, i.e. outside the support ball ‖x − ξ‖ >= √(2/β) (note §1.1).

    Examples
    --------
    >>> separation_function(-0.5, beta=2.0, kind="lsr")
    0.0
    >>> separation_function(0.0, beta=2.0, kind="lse")
    1.0
    """
    beta = check_beta(beta)
    if kind not in ("lse", "lsr"):
        raise ValueError(f"kind must be 'lse' or 'lsr', got {kind!r}")
    scalar = isinstance(s, numbers.Real) and not isinstance(s, bool | np.bool_)
    xp = array_namespace(s)
    S = _as_real_values(s, "s", xp)
    with np.errstate(over="ignore"):  # exp(β s) beyond the float64 range is +inf
        out = xp.exp(beta * S) if kind == "lse" else xp.maximum(1.0 + beta * S, 0.0)
    return float(out) if scalar else out


def lse_energy(x: Any, memories: Any, beta: float) -> Any:
    """Log-sum-exp energy E_LSE(x) = −(1/β) log Σ_μ exp(−β/2 ‖x − ξ_μ‖²) (note §1.3).

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    float or array, shape (B,)
        The energy; a Python float for a single point. +inf where the energy exceeds the
        float64 range (points about 1e154 or more from every memory), never NaN.

    Raises
    ------
    ValueError
        For invalid ``x``, ``memories`` or ``beta``, or for coordinates so large (near 1e308)
        that even differences of squared distances overflow.

    Notes
    -----
    Paper eq. (1) with F = exp, Q = log, S = −½‖·‖² (Sec. 2). The log-sum-exp is shifted by the
    smallest squared distance, so far-away points do not underflow. Where every squared
    distance overflows float64, the shift uses the exact differences
    d²_μ − d²_ν = 2 Σ_k (ξ_νk − ξ_μk)(x_k − (ξ_μk + ξ_νk)/2) and ½ min d² from a rescaled norm,
    so the value is exact when representable and +inf otherwise (:func:`lse_grad` and
    :func:`lse_hessian` use the same weights and stay finite). The unnormalised Gaussian
    KDE is exp(−β E_LSE) (note §1.2, fix P12).

    Examples
    --------
    With one memory the energy is half the squared distance:

    >>> lse_energy([3.0, 4.0], [[0.0, 0.0]], beta=1.0)
    12.5
    """
    beta = check_beta(beta)
    X, Xi, single, xp = _prepare(x, memories)
    E = _lse_energy(X, Xi, beta, xp)
    return float(E[0]) if single else E


def lse_grad(x: Any, memories: Any, beta: float) -> Any:
    """Gradient of the LSE energy, ∇E_LSE(x) = x − Σ_μ p_μ(x) ξ_μ (note §1.3, App. D.5 fixed).

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    array, shape (d,) or (B, d)

    Notes
    -----
    p(x) = softmax_μ(−β/2 ‖x − ξ_μ‖²). App. D.5 prints ‖x − ξ_μ‖ without the square; the square
    is needed (note §1.3). At large β the softmax saturates and the gradient at a stored pattern
    becomes exactly 0.0 in float64 even though it is not zero mathematically (Pitfall P8).

    Examples
    --------
    >>> lse_grad([2.0], [[0.0]], beta=1.0)
    array([2.])
    """
    beta = check_beta(beta)
    X, Xi, single, xp = _prepare(x, memories)
    G = _lse_grad(X, Xi, beta, xp)
    return G[0] if single else G


def lse_hessian(x: Any, memories: Any, beta: float) -> Any:
    """Hessian of the LSE energy, ∇²E_LSE(x) = I − β Cov_{p(x)}(ξ) (note §1.3).

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    array, shape (d, d) or (B, d, d)

    Notes
    -----
    Cov_p = Σ_μ p_μ (ξ_μ − ξ̄_p)(ξ_μ − ξ̄_p)ᵀ with ξ̄_p = Σ_μ p_μ ξ_μ, computed in centred form
    (no cancellation). Derived in note §1.3; the paper uses the Hessian only in Definition 1.

    Examples
    --------
    The centroid of two memories at ±1 with β = 1 has curvature 1 − β·1 = 0:

    >>> lse_hessian([0.0], [[-1.0], [1.0]], beta=1.0)
    array([[0.]])
    """
    beta = check_beta(beta)
    X, Xi, single, xp = _prepare(x, memories)
    H = _lse_hessian(X, Xi, beta, xp)
    return H[0] if single else H


def lsr_energy(x: Any, memories: Any, beta: float, eps: float = 0.0) -> Any:
    """LSR (Epanechnikov) energy, paper eq. (3).

    E_LSR(x) = −(1/β) log(ϵ + Σ_μ ReLU(1 − β/2 ‖x − ξ_μ‖²)).

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.
    eps : float, default 0.0
        The floor ϵ >= 0 inside the log (the paper never gives its value, Pitfall P5).

    Returns
    -------
    float or array, shape (B,)
        The energy; ``+inf`` where the argument of the log is 0, i.e. outside every support ball
        when ``eps == 0``.

    Notes
    -----
    With ϵ = 0 the energy is +∞ on the complement of ∪_μ S_μ (zero density; note §1.4). With
    ϵ > 0 the exterior is a flat plateau at −(1/β) log ϵ.

    Examples
    --------
    A stored pattern with no neighbour inside its ball has energy −(1/β) log(1 + ϵ) = 0 at ϵ = 0:

    >>> lsr_energy([0.0], [[0.0], [5.0]], beta=2.0)
    -0.0
    >>> lsr_energy([2.5], [[0.0], [5.0]], beta=2.0)
    inf
    """
    beta = check_beta(beta)
    eps = check_nonneg_float(eps, "eps")
    X, Xi, single, xp = _prepare(x, memories)
    E = _lsr_energy(X, Xi, beta, eps, xp)
    return float(E[0]) if single else E


def lsr_grad(x: Any, memories: Any, beta: float, eps: float = 0.0) -> Any:
    """Gradient of the LSR energy, paper eqs. (7)-(8): ∇E = N(x)/D(x).

    N(x) = Σ_{μ∈B(x)} (x − ξ_μ) = |B|(x − ξ̄_B) and D(x) = ϵ + Σ_ν ReLU(1 − β/2 ‖x − ξ_ν‖²).

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.
    eps : float, default 0.0
        The floor ϵ >= 0 inside the log of eq. (3).

    Returns
    -------
    array, shape (d,) or (B, d)
        The gradient. Where D(x) = 0 (no support and ϵ = 0) the gradient is **undefined**
        (the energy is +∞ there; App. A) and this function returns 0 by convention, never NaN.

    Notes
    -----
    The indicator uses the strict active set (note §0). Outside the support the gradient is
    exactly zero for ϵ > 0; near a support boundary with small D it blows up like ‖x − ξ‖/ϵ
    (Pitfall P6). At a stored pattern whose ball holds no other memory, N = x − ξ_μ = 0 exactly,
    so the gradient is exactly 0.0 (Remark 1, note §2.3, corollary C1).

    Examples
    --------
    >>> lsr_grad([0.0], [[0.0], [5.0]], beta=2.0)
    array([0.])
    >>> lsr_grad([2.5], [[0.0], [5.0]], beta=2.0)  # unsupported: undefined, returned as 0
    array([0.])
    """
    beta = check_beta(beta)
    eps = check_nonneg_float(eps, "eps")
    X, Xi, single, xp = _prepare(x, memories)
    N, D, _ = _lsr_parts(X, Xi, beta, eps, xp)
    G = _safe_divide(N, D[:, None], xp)
    return G[0] if single else G


def lsr_hessian(x: Any, memories: Any, beta: float, eps: float = 0.0) -> Any:
    """Hessian of the LSR energy inside a cell of constant active set (note §1.4, App. D.2).

    ∇²E_LSR(x) = |B|/D · I + β/D² · N Nᵀ, with N and D as in :func:`lsr_grad`.

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s).
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    beta : float
        Inverse temperature, finite and > 0.
    eps : float, default 0.0
        The floor ϵ >= 0 inside the log of eq. (3).

    Returns
    -------
    array, shape (d, d) or (B, d, d)
        Positive definite wherever B(x) is non-empty: LSR is convex inside every cell of the
        sphere arrangement. Zero where B(x) is empty (flat plateau for ϵ > 0; undefined for
        ϵ = 0, returned as 0). On a sphere boundary the energy has a kink and this is the
        one-sided value of the strict active set.

    Notes
    -----
    At a critical point (N = 0) this reduces to |B|/D · I, the formula of App. D.2.

    Examples
    --------
    >>> lsr_hessian([0.0], [[0.0]], beta=2.0)
    array([[1.]])
    """
    beta = check_beta(beta)
    eps = check_nonneg_float(eps, "eps")
    X, Xi, single, xp = _prepare(x, memories)
    N, D, count = _lsr_parts(X, Xi, beta, eps, xp)
    d = X.shape[1]
    inv = _safe_divide(xp.ones_like(D), D, xp)
    H = (count * inv)[:, None, None] * xp.eye(d, dtype=xp.float64)[None]
    H = H + (beta * inv * inv)[:, None, None] * (N[:, :, None] * N[:, None, :])
    return H[0] if single else H


def centroid_energy(
    memories: Any, index_set: Iterable[int], beta: float, eps: float = 0.0
) -> float:
    """Closed-form LSR energy at the centroid of a subset K of memories (note §1.4).

    E(ξ̄_K) = −(1/β) log(ϵ + |K| − β/2 Σ_{μ∈K} ‖ξ_μ − ξ̄_K‖²).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns Ξ.
    index_set : iterable of int
        Distinct indices in [0, M) of the subset K (non-empty).
    beta : float
        Inverse temperature, finite and > 0.
    eps : float, default 0.0
        The floor ϵ >= 0 inside the log of eq. (3).

    Returns
    -------
    float
        The energy; ``+inf`` if the argument of the log is <= 0.

    Notes
    -----
    This is the within-cell formula: it equals ``lsr_energy(centroid, ...)`` exactly when K is
    self-consistent, B(ξ̄_K) = K (note §1.7), i.e. when ξ̄_K is an LSR minimum. For other K it
    ignores non-members inside the support and counts members outside it with a negative
    weight. A singleton gives −(1/β) log(1 + ϵ); an emergent minimum is deeper than a stored
    one iff |K|(1 − β/2 s²_K) > 1 with s²_K the mean squared distance to the centroid.

    Examples
    --------
    Two memories at distance 1 with β = 4 (R ≈ 0.707): the midpoint has energy −¼ log(2 − 1) = 0.

    >>> centroid_energy([[0.0], [1.0]], (0, 1), beta=4.0)
    -0.0
    """
    beta = check_beta(beta)
    eps = check_nonneg_float(eps, "eps")
    xp = array_namespace(memories)
    Xi = as_memories(memories, xp=xp)
    idx = check_index_set(index_set, Xi.shape[0])
    return _centroid_energy(Xi, idx, beta, eps, xp)


# --------------------------------------------------------------------------------------------
# Private kernels (trust their input: float64 arrays of matching shapes in namespace xp)
# --------------------------------------------------------------------------------------------


def _centroid_energy(Xi: Any, idx: list[int], beta: float, eps: float, xp: Any) -> float:
    """−(1/β) log(ϵ + |K| − β/2 Σ_{μ∈K} ‖ξ_μ − ξ̄_K‖²) for a validated index list (note §1.4)."""
    sub = Xi[xp.asarray(idx)]
    with np.errstate(over="ignore"):  # a spread beyond float64 is +inf: the log argument is < 0
        centred = sub - xp.mean(sub, axis=0)[None, :]
        spread = float(xp.sum(centred * centred))
        arg = eps + len(idx) - 0.5 * beta * spread
    return -math.log(arg) / beta if arg > 0 else math.inf


def _prepare(x: Any, memories: Any) -> tuple[Any, Any, bool, Any]:
    """Validate ``x`` and ``memories`` once; return (X (B, d), Xi (M, d), was_1d, xp)."""
    xp = array_namespace(x, memories)
    Xi = as_memories(memories, xp=xp)
    X, single = as_points(x, Xi.shape[1], xp=xp)
    return X, Xi, single, xp


def _as_real_values(s: Any, name: str, xp: Any) -> Any:
    """Return ``s`` as a finite float64 array of any shape (real dtype, no NaN/inf)."""
    arr = s if hasattr(s, "dtype") else np.asarray(s)
    if getattr(arr.dtype, "kind", "O") not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    arr = xp.asarray(arr, dtype=xp.float64)
    if not bool(xp.all(xp.isfinite(arr))):
        raise ValueError(f"{name} must be finite, got NaN or inf entries")
    return arr


def _row_blocks(n_rows: int, width: int, xp: Any) -> list[slice]:
    """Slices of at most ``budget // width`` rows: cache-sized on the CPU, large on a GPU."""
    budget = _BLOCK_ELEMENTS_CPU if xp is np else _BLOCK_ELEMENTS_GPU
    rows = max(1, budget // max(width, 1))
    return [slice(start, start + rows) for start in range(0, n_rows, rows)]


def _sqdist_block(X: Any, Xi: Any, xp: Any) -> Any:
    """(B, M) squared distances in difference form, accumulated coordinate by coordinate.

    The summation order is k = 0, ..., d-1 for every entry; temporaries are (B, M). A squared
    distance beyond the float64 range is +inf (the honest overflow); callers run this inside
    ``np.errstate(over="ignore")`` (once per call, not per block: it costs microseconds).
    """
    Xt = xp.ascontiguousarray(X.T)
    Xit = xp.ascontiguousarray(Xi.T)
    D2 = Xt[0][:, None] - Xit[0][None, :]
    D2 *= D2
    for k in range(1, X.shape[1]):
        diff = Xt[k][:, None] - Xit[k][None, :]
        diff *= diff
        D2 += diff
    return D2


def _sqdist(X: Any, Xi: Any, xp: Any) -> Any:
    """(B, M) squared distances, filled block by block (same values as one big block)."""
    D2 = xp.empty((X.shape[0], Xi.shape[0]), dtype=xp.float64)
    with np.errstate(over="ignore"):
        for sl in _row_blocks(X.shape[0], Xi.shape[0], xp):
            D2[sl] = _sqdist_block(X[sl], Xi, xp)
    return D2


def _lse_energy(X: Any, Xi: Any, beta: float, xp: Any) -> Any:
    """−(1/β) logsumexp(−β/2 d²) per row, shifted by the row's smallest d² (note §4.6).

    Rows whose squared distances all overflow float64 are recomputed by :func:`_far_rows`.
    """
    E = xp.empty(X.shape[0], dtype=xp.float64)
    m_all = xp.empty(X.shape[0], dtype=xp.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        for sl in _row_blocks(X.shape[0], Xi.shape[0], xp):
            Z = _sqdist_block(X[sl], Xi, xp)
            m = xp.min(Z, axis=1)
            Z -= m[:, None]
            Z *= -0.5 * beta
            xp.exp(Z, out=Z)
            E[sl] = 0.5 * m - xp.log(xp.sum(Z, axis=1)) / beta
            m_all[sl] = m
    far = ~xp.isfinite(m_all)
    if bool(xp.any(far)):
        rows = xp.nonzero(far)[0]
        _, half_d2, log_s = _far_rows(X[rows], Xi, beta, xp)
        with np.errstate(over="ignore"):
            E[rows] = half_d2 - log_s / beta
    return E


def _lse_weights(X: Any, Xi: Any, beta: float, xp: Any) -> Any:
    """(B, M) LSE weights p_μ(x) = softmax_μ(−β/2 d²_μ) (note §1.3), shifted by min d².

    Exact also where every d² of a row overflows (those rows come from :func:`_far_rows`).
    Callers run this inside ``np.errstate(over="ignore", invalid="ignore")``.
    """
    P = _sqdist_block(X, Xi, xp)
    m = xp.min(P, axis=1)
    P -= m[:, None]
    P *= -0.5 * beta
    xp.exp(P, out=P)
    P /= xp.sum(P, axis=1)[:, None]
    if bool(xp.max(m) == xp.inf):
        rows = xp.nonzero(m == xp.inf)[0]
        P[rows] = _far_rows(X[rows], Xi, beta, xp)[0]
    return P


def _far_rows(X: Any, Xi: Any, beta: float, xp: Any) -> tuple[Any, Any, Any]:
    """LSE weights, ½ min_μ d²_μ and log Σ_μ exp(−β/2 (d²_μ − d²_min)) without forming d².

    For points so far from the memories that every d² overflows float64 (``x = 1e160``), the
    differences d²_μ − d²_0 = 2 Σ_k (ξ_0k − ξ_μk)(x_k − (ξ_μk + ξ_0k)/2) are still finite, so
    the softmax is exact; ½ d²_min is formed as 2 s² Σ_k (h_k/s)² from h = x/2 − ξ/2 and
    s = max_k |h_k|, which is +inf only when the value itself exceeds the float64 range.
    Raises ValueError if even these differences overflow (coordinates near 1e308).
    """
    n, M = X.shape[0], Xi.shape[0]
    H = xp.zeros((n, M), dtype=xp.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(X.shape[1]):
            a = Xi[0, k] - Xi[:, k]
            b = X[:, k][:, None] - 0.5 * Xi[:, k][None, :] - 0.5 * Xi[0, k]
            H += a[None, :] * b
        if not bool(xp.all(xp.isfinite(H))):
            raise ValueError(
                "x and memories must be closer than about 1e300 in every coordinate: their "
                "distance differences overflow float64"
            )
        nearest = xp.argmin(H, axis=1)
        logits = -beta * (H - xp.min(H, axis=1)[:, None])
        W = xp.exp(logits)
        S = xp.sum(W, axis=1)
        h = 0.5 * X - 0.5 * Xi[nearest]
        s = xp.max(xp.abs(h), axis=1)
        t = xp.sum((h / s[:, None]) ** 2, axis=1)
        half_d2 = ((2.0 * t) * s) * s
    return W / S[:, None], half_d2, xp.log(S)


def _lse_mean_raw(X: Any, Xi: Any, beta: float, xp: Any) -> Any:
    """p(x) @ Ξ per row; call inside ``np.errstate(over="ignore", invalid="ignore")``."""
    out = xp.empty_like(X)
    for sl in _row_blocks(X.shape[0], Xi.shape[0], xp):
        out[sl] = _lse_weights(X[sl], Xi, beta, xp) @ Xi
    return out


def _lse_mean(X: Any, Xi: Any, beta: float, xp: Any) -> Any:
    """p(x) @ Ξ per row: the Gaussian mean-shift image of x (note §1.3, §4.1)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return _lse_mean_raw(X, Xi, beta, xp)


def _lse_grad(X: Any, Xi: Any, beta: float, xp: Any) -> Any:
    """x − p(x) @ Ξ per row (note §1.3, App. D.5 with the square restored)."""
    return X - _lse_mean(X, Xi, beta, xp)


def _lse_hessian(X: Any, Xi: Any, beta: float, xp: Any) -> Any:
    """I − β Cov_p in centred form, in blocks of rows (note §1.3)."""
    B, d = X.shape
    M = Xi.shape[0]
    H = xp.empty((B, d, d), dtype=xp.float64)
    eye = xp.eye(d, dtype=xp.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        for sl in _row_blocks(B, M * d, xp):
            P = _lse_weights(X[sl], Xi, beta, xp)
            centred = Xi[None, :, :] - (P @ Xi)[:, None, :]
            cov = xp.matmul(xp.swapaxes(centred * P[:, :, None], 1, 2), centred)
            H[sl] = eye[None] - beta * cov
    return H


def _lsr_energy(X: Any, Xi: Any, beta: float, eps: float, xp: Any) -> Any:
    """Paper eq. (3) per row; +inf where ϵ + Σ ReLU(·) = 0."""
    den = xp.empty(X.shape[0], dtype=xp.float64)
    with np.errstate(over="ignore"):
        for sl in _row_blocks(X.shape[0], Xi.shape[0], xp):
            Z = _sqdist_block(X[sl], Xi, xp)
            Z *= -0.5 * beta
            Z += 1.0
            xp.maximum(Z, 0.0, out=Z)
            den[sl] = eps + xp.sum(Z, axis=1)
    positive = den > 0
    safe = xp.where(positive, den, 1.0)
    return xp.where(positive, -xp.log(safe) / beta, xp.inf)


def _lsr_parts(X: Any, Xi: Any, beta: float, eps: float, xp: Any) -> tuple[Any, Any, Any]:
    """N(x) = |B| x − Σ_{B} ξ_μ, D(x) = ϵ + Σ ReLU(1 − β/2 d²), and |B| (paper eqs. (7)-(8))."""
    B = X.shape[0]
    N = xp.empty_like(X)
    D = xp.empty(B, dtype=xp.float64)
    count = xp.empty(B, dtype=xp.float64)
    with np.errstate(over="ignore"):
        for sl in _row_blocks(B, Xi.shape[0], xp):
            D2 = _sqdist_block(X[sl], Xi, xp)
            A = (D2 < 2.0 / beta).astype(xp.float64)
            count[sl] = xp.sum(A, axis=1)
            N[sl] = count[sl][:, None] * X[sl] - A @ Xi
            D[sl] = eps + xp.sum(xp.maximum(1.0 - 0.5 * beta * D2, 0.0), axis=1)
    return N, D, count


def _safe_divide(num: Any, den: Any, xp: Any) -> Any:
    """num / den where den > 0, else 0 (the undefined LSR gradient off the support, App. A)."""
    positive = den > 0
    return xp.where(positive, num / xp.where(positive, den, 1.0), 0.0)
