"""Convex solvers of PSD matrix sensing: nuclear-norm ERM by FISTA and the ℓ2 interpolator.

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*, "L2 regularized quadratic networks" and Vignettes I–III); Erba, Troiani,
Zdeborová and Krzakala, *The nuclear route: sharp asymptotics of ERM in overparameterized
quadratic networks* (arXiv:2505.17958); Beck and Teboulle, *A fast iterative
shrinkage-thresholding algorithm* (SIAM J. Imaging Sci. 2009).

A width-p ≥ d quadratic network trained with weight decay is the convex problem

    min_{S ⪰ 0}  Σ_μ (y_μ − Tr[G_μ S])² + λ d Tr S                    (nuclear route)

because ‖W‖²_F = √(p d) Tr Â for Â = Wᵀ W/√(p d) (λ = √(p/d) λ_W). Lazy (NTK) training is the
Frobenius-regularised problem without the PSD constraint; its λ → 0⁺ limit is the
minimum-Frobenius-norm interpolator over symmetric matrices.

Notation map (A-units)
----------------------
- data: y_μ, G_μ (implicit for network data), A*    -> ``SensingData`` (quadratic.sensing)
- 𝒜(S) = (Tr[G_μ S])_μ, adjoint 𝒜*(g) = Σ_μ g_μ G_μ -> ``sensing_forward``, ``sensing_adjoint``
- λ (nuclear weight per d Tr S)                      -> ``lam``
- L = 2‖𝒜‖²_op (Lipschitz constant of the gradient)  -> private ``_lipschitz``
- E = ‖Ŝ − A*‖²_F/d (matrix error)                   -> ``error``

Every heavy array operation runs in the namespace of the data (NumPy, or CuPy for data drawn
with ``xp=cupy``); scalars come back as Python floats.

Public functions
----------------
``fista_nuclear`` (result ``NuclearSolution``), ``min_frobenius_interpolator``.
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
    check_fraction,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace
from assocmem.quadratic.sensing import SensingData, _adjoint, _forward

__all__ = ["NuclearSolution", "fista_nuclear", "min_frobenius_interpolator"]

_LAM_RANGE = (0.0, 1e6)  # λ accepted by fista_nuclear (0 is plain PSD least squares)
_TOL_RANGE = (0.0, 1.0)  # open at 0: a zero tolerance never stops
_MAX_ITER = 10_000_000
_POWER_STEPS = 50  # power iterations for ‖𝒜‖²_op (then inflated by _LIPSCHITZ_SAFETY)
_LIPSCHITZ_SAFETY = 1.02
_CHECK_EVERY = 50  # iterations between objective checks


@dataclass(frozen=True)
class NuclearSolution:
    """Result of :func:`fista_nuclear`.

    Attributes
    ----------
    S : ndarray, shape (d, d)
        The PSD minimiser Ŝ (namespace of the data).
    objective : float
        [Σ_μ (y_μ − Tr[G_μ Ŝ])² + λ d Tr Ŝ]/d², comparable to the theory's per-d² objective.
    train_mse : float
        Mean training residual Σ_μ r_μ²/n.
    error : float
        ‖Ŝ − A*‖²_F/d.
    trace : float
        Tr Ŝ/d.
    rank : float
        Fraction of nonzero eigenvalues of Ŝ (the prox sets the others exactly to 0).
    eigenvalues : ndarray, shape (d,)
        Eigenvalues of Ŝ, ascending (NumPy).
    n_iter : int
        Iterations run.
    converged : bool
        Whether the relative objective change between checks fell below ``tol``.
    """

    S: Any
    objective: float
    train_mse: float
    error: float
    trace: float
    rank: float
    eigenvalues: np.ndarray
    n_iter: int
    converged: bool


def fista_nuclear(
    data: Any, lam: Any, *, max_iter: Any = 20_000, tol: Any = 1e-10
) -> NuclearSolution:
    """Minimise Σ_μ (y_μ − Tr[G_μ S])² + λ d Tr S over PSD S by FISTA.

    Parameters
    ----------
    data : SensingData
        Labels and sensing matrices (network data or the GOE surrogate), from
        :func:`assocmem.quadratic.sensing.sample_sensing`.
    lam : float
        Nuclear weight λ per d Tr S, in [0, 1e6] (λ = √(p/d) λ_W for weight decay λ_W on a
        width-p ≥ d network).
    max_iter : int
        Iteration cap, 1 to 1e7.
    tol : float
        Stop when the relative change of the objective over 50 iterations is below ``tol``,
        in (0, 1).

    Returns
    -------
    NuclearSolution

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` iterations end before the tolerance is met (iterations and relative
        change in the message).

    Notes
    -----
    Gradient step S ← Z + (2/L) 𝒜*(y − 𝒜(Z)) from the momentum point Z, then the prox of
    λ d Tr S + ι_{S⪰0}: eigen-decompose and set each eigenvalue to max(λ_i − λd/L, 0) (Beck and
    Teboulle 2009, with the adaptive restart of O'Donoghue and Candès 2015 when the objective
    rises). L = 2‖𝒜‖²_op is estimated by 50 power iterations on 𝒜*𝒜 and inflated by 2%.
    Its minimiser is what weight decay trains a width-p ≥ d network to (Troiani, slides,
    "L2 regularized quadratic networks").

    Examples
    --------
    With a large penalty the solution is 0:

    >>> from assocmem.quadratic.sensing import sample_sensing
    >>> data = sample_sensing(8, 0.5, 0.5, rng=0)
    >>> float(fista_nuclear(data, 1e3).trace)
    0.0
    """
    data = check_instance(data, "data", SensingData)
    lam = check_fraction(lam, "lam", *_LAM_RANGE, open_lo=False, open_hi=False)
    max_iter = check_positive_int(max_iter, "max_iter", minimum=1, maximum=_MAX_ITER)
    tol = check_fraction(tol, "tol", *_TOL_RANGE, open_lo=True, open_hi=True)
    xp = array_namespace(data.A)
    L = _lipschitz(data, xp)
    return _fista(data, lam, L, max_iter, tol, xp)


def min_frobenius_interpolator(data: Any) -> Any:
    """The minimum-Frobenius-norm symmetric S fitting Tr[G_μ S] = y_μ (ℓ2 / lazy estimator).

    Parameters
    ----------
    data : SensingData
        Labels and sensing matrices; the design matrix has n × d(d+1)/2 entries, capped by the
        library's element limit.

    Returns
    -------
    ndarray, shape (d, d)
        Symmetric, no PSD constraint: the least-squares solution of minimal ‖S‖_F (an exact
        interpolator while n <= d(d+1)/2 and the labels are generic).

    Notes
    -----
    In upper-triangular coordinates u_ii = S_ii, u_ij = √2 S_ij (i < j), ‖S‖²_F = ‖u‖² and
    Tr[G S] = Σ_i G_ii u_ii + √2 Σ_{i<j} G_ij u_ij, so the minimum-norm least-squares solution
    in u (``lstsq``) is the minimum-Frobenius-norm one in S. It projects A* onto an
    n-dimensional subspace of the N = d(d+1)/2 dimensional Sym(d): E ≈ Q*(1 − n/N) without
    noise, which becomes Q*(1 − 2α) as d → ∞ (Troiani, slides: "NTK, kernel (aka ℓ2)" learning
    needs α = 1/2; the limit form is ours).

    Examples
    --------
    With as many samples as coordinates the target is recovered exactly:

    >>> from assocmem.quadratic.sensing import sample_sensing
    >>> data = sample_sensing(4, 0.5, 1.0, rng=0, surrogate=True)
    >>> S = min_frobenius_interpolator(data)
    >>> bool(np.allclose(S, data.A))
    True
    """
    data = check_instance(data, "data", SensingData)
    xp = array_namespace(data.A)
    d, n = data.d, data.n
    N = d * (d + 1) // 2
    check_size(float(n) * N, "data", "design-matrix entries", MAX_ELEMENTS, "use a smaller d")
    rows, cols = np.triu_indices(d)
    weight = xp.asarray(np.where(rows == cols, 1.0, math.sqrt(2.0)))
    design = _design(data, xp, xp.asarray(rows), xp.asarray(cols)) * weight
    u = xp.linalg.lstsq(design, data.y, rcond=None)[0] / weight
    S = xp.zeros((d, d))
    S[rows, cols] = u
    return S + xp.triu(S, 1).T


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


def _design(data: SensingData, xp: Any, rows: Any, cols: Any) -> Any:
    """Entries (G_μ)_ij, i <= j, of every sensing matrix: shape (n, d(d+1)/2)."""
    if data.G is not None:
        return data.G[:, rows, cols]
    X = data.X
    out = X[:, rows] * X[:, cols]
    return (out - (rows == cols)[None, :]) / math.sqrt(data.d)


def _lipschitz(data: SensingData, xp: Any) -> float:
    """L = 2‖𝒜‖²_op from power iterations on the symmetric map B ↦ 𝒜*(𝒜(B))."""
    B = xp.asarray(np.random.default_rng(0).standard_normal((data.d, data.d)))
    B = (B + B.T) / 2
    norm = 0.0
    for _ in range(_POWER_STEPS):
        B = _adjoint(data, _forward(data, B, xp), xp)
        norm = float(xp.linalg.norm(B))
        if norm == 0.0:
            return 1.0
        B = B / norm
    return 2.0 * _LIPSCHITZ_SAFETY * norm


def _prox(V: Any, shift: float, xp: Any) -> tuple[Any, Any]:
    """Projection onto PSD matrices after shifting the eigenvalues down by ``shift``."""
    w, U = xp.linalg.eigh((V + V.T) / 2)
    w = xp.maximum(w - shift, 0.0)
    return (U * w) @ U.T, w


def _objective(data: SensingData, S: Any, lam: float, xp: Any) -> tuple[float, Any]:
    r = data.y - _forward(data, S, xp)
    return float(r @ r) + lam * data.d * float(xp.trace(S)), r


def _fista(
    data: SensingData, lam: float, L: float, max_iter: int, tol: float, xp: Any
) -> NuclearSolution:
    d = data.d
    S = xp.zeros((d, d))
    w = xp.zeros(d)
    Z, t = S, 1.0
    last, _ = _objective(data, S, lam, xp)
    converged, change, it = False, math.inf, 0
    while it < max_iter:
        it += 1
        r = data.y - _forward(data, Z, xp)
        S_new, w = _prox(Z + (2.0 / L) * _adjoint(data, r, xp), lam * d / L, xp)
        t_new = (1.0 + math.sqrt(1.0 + 4.0 * t * t)) / 2.0
        Z = S_new + ((t - 1.0) / t_new) * (S_new - S)
        S, t = S_new, t_new
        if it % _CHECK_EVERY == 0 or it == max_iter:
            value, _ = _objective(data, S, lam, xp)
            if value > last:  # adaptive restart: drop the momentum
                Z, t = S, 1.0
            change = abs(last - value) / max(abs(value), 1e-300)
            last = value
            if change < tol:
                converged = True
                break
    if not converged:
        warnings.warn(
            f"fista_nuclear stopped after {it} iterations with relative objective change "
            f"{change:.2e} > tol = {tol:g}; raise max_iter",
            ConvergenceWarning,
            stacklevel=3,
        )
    value, r = _objective(data, S, lam, xp)
    eig = np.sort(np.asarray(w.get() if hasattr(w, "get") else w))
    diff = S - data.A
    return NuclearSolution(
        S=S,
        objective=value / d**2,
        train_mse=float(r @ r) / data.n,
        error=float(xp.sum(diff * diff)) / d,
        trace=float(xp.trace(S)) / d,
        rank=float(np.count_nonzero(eig > 0)) / d,
        eigenvalues=eig,
        n_iter=it,
        converged=converged,
    )
