"""Weights, Jacobian spectra, Euler dynamics and empirical critical loads of the rate network.

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks*. "note §" refers to ``shared/notes/03-attractor-stability.md`` (§1.5, §1.6,
§2.2, §4.1–4.4, pitfalls 4, 6, 7, 11, 12, 15).

Notation map
------------
=========================  ==========================  =========================================
paper                      code                        meaning
=========================  ==========================  =========================================
R (N × P), r^μ = R[:, μ]   ``R``                        stored rates, column μ is pattern μ
θ (shared scalar)          ``theta``                    threshold; input is W r − θ (Eq. 2)
V = g⁻¹(R) + θ             ``Network.V``                target voltages (Eq. 8)
R† = (RᵀR)⁻¹Rᵀ             ``Network.R_pinv``           pseudo-inverse, by ``solve``, never SVD
W* = V R†                  :func:`pinv_weights`         Eq. 8 (self-couplings allowed)
Eq. 20 (W_ii = 0)          :func:`zero_diag_weights`    minimum-norm weights without self-coupling
D_μ = diag(d(r^μ))         :func:`gain`                 gain at the fixed point
J_μ = −I + D_μ W           :func:`jacobian`             Eq. 5 (r-form, τ = 1)
K_μ = R† D_μ V (P × P)     :func:`jacobian_spectrum`    low-rank part of J*_μ (Eq. 9, note §1.6)
α = P/N                    ``alpha``                    load; α_S the critical load for stability
(σ_x, σ_y, τ)              ``sigma_x, sigma_y, tau``    Gaussian paired ensemble of Eq. 21
=========================  ==========================  =========================================

Time is in units of τ (τ = 1), so eigenvalues are in units of 1/τ (pitfall 18). The paper's τ
(correlation of the Gaussian pairs, Eq. 21) is ``tau`` only in :func:`paired_ensemble_spectrum`.

Public functions
----------------
pinv_weights, zero_diag_weights, jacobian, jacobian_spectrum, simulate,
empirical_critical_load, paired_ensemble_spectrum.
Result types: Network, Spectrum, Trajectory, CriticalLoad.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    _as_real_array,
    as_real_vector,
    as_rng,
    check_beta,
    check_bool,
    check_finite_float,
    check_fraction,
    check_instance,
    check_nonneg_float,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.attractor.rates import (
    _as_rates,
    _g,
    _g_inverse,
    _gain,
    _sample,
    _slope,
    check_cv,
    check_exponent,
)
from assocmem.backend import array_namespace, to_numpy

__all__ = [
    "CriticalLoad",
    "Network",
    "Spectrum",
    "Trajectory",
    "empirical_critical_load",
    "jacobian",
    "jacobian_spectrum",
    "paired_ensemble_spectrum",
    "pinv_weights",
    "simulate",
    "zero_diag_weights",
]

_METHODS = ("auto", "lowrank", "full")


class _StoredPatterns:
    """N, P and the load α = P/N of a result that holds its (N, P) pattern matrix as ``R``."""

    R: Any

    @property
    def N(self) -> int:
        """Number of neurons."""
        return int(self.R.shape[0])

    @property
    def P(self) -> int:
        """Number of stored patterns."""
        return int(self.R.shape[1])

    @property
    def alpha(self) -> float:
        """Load α = P/N."""
        return self.P / self.N


@dataclass(frozen=True, eq=False)
class Network(_StoredPatterns):
    """Weights storing the columns of ``R`` as fixed points (result of the weight rules).

    Attributes
    ----------
    W : array, shape (N, N)
        Weights; ``W[i, j]`` is the weight from j to i.
    theta : float
        Shared threshold θ (the input is W r − θ).
    R : array, shape (N, P)
        Stored patterns.
    V : array, shape (N, P)
        Target voltages g⁻¹(R) + θ.
    R_pinv : array, shape (P, N)
        R† = (RᵀR)⁻¹Rᵀ.
    sigma, n : float
        Activation parameters of Eq. 3.
    zero_diag : bool
        True for Eq. 20 weights (W_ii = 0), False for Eq. 8.
    """

    W: Any
    theta: float
    R: Any
    V: Any
    R_pinv: Any
    sigma: float
    n: float
    zero_diag: bool


@dataclass(frozen=True, eq=False)
class Spectrum:
    """Jacobian spectra at a batch of stored patterns (result of :func:`jacobian_spectrum`).

    Attributes
    ----------
    patterns : ndarray of int, shape (m,)
        Pattern indices μ.
    eigenvalues : ndarray of complex, shape (m, k)
        The P nontrivial eigenvalues (``method="lowrank"``, k = P) or all N (``"full"``).
    n_trivial : int
        Eigenvalues exactly −1 left out of ``eigenvalues`` (N − P for low rank, else 0).
    abscissa : ndarray, shape (m,)
        Spectral abscissa max Re λ over the whole spectrum (trivial −1's included).
    lambda_mem : ndarray of complex, shape (m,), or None
        Empirical λ_mem: the eigenvalue whose eigenvector's real part has the largest |Pearson
        correlation| with r^μ (note pitfall 7); None unless eigenvectors were requested.
    mem_corr : ndarray, shape (m,), or None
        That |correlation|; trust λ_mem only when it is > 0.8.
    bulk_edge : ndarray, shape (m,), or None
        Largest real part after removing the λ_mem eigenvalue (and its conjugate), note §3.3.
    method : str
        ``"lowrank"`` or ``"full"``.
    """

    patterns: np.ndarray
    eigenvalues: np.ndarray
    n_trivial: int
    abscissa: np.ndarray
    lambda_mem: np.ndarray | None
    mem_corr: np.ndarray | None
    bulk_edge: np.ndarray | None
    method: str


@dataclass(frozen=True, eq=False)
class Trajectory:
    """Summary of an Euler run of Eq. 2 (result of :func:`simulate`).

    Attributes
    ----------
    times : ndarray, shape (k,)
        Times of the recorded steps (0 included), in units of τ.
    distance : ndarray, shape (k,) or (k, B)
        Relative distance ‖r(t) − r_ref‖ / ‖r_ref‖ per trajectory.
        After a trajectory blew up its entries are NaN (it has no state there).
    final : array, shape (N,) or (N, B)
        Last finite state of each trajectory (at ``t_stop``).
    blew_up : bool
        True when any trajectory became non-finite or exceeded ``max_rate``.
    t_final : float
        Time of the last recorded step (``times[-1]``).
    blown : ndarray of bool, shape () or (B,)
        Which trajectories blew up; default: none.
    t_stop : ndarray, shape () or (B,)
        Time of each trajectory's ``final`` state: its last finite step, or ``t_final``;
        default: ``t_final`` for all.
    """

    times: np.ndarray
    distance: np.ndarray
    final: Any
    blew_up: bool
    t_final: float
    blown: np.ndarray = None  # type: ignore[assignment]
    t_stop: np.ndarray = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        shape = np.shape(self.distance)[1:]
        if self.blown is None:
            object.__setattr__(self, "blown", np.zeros(shape, dtype=bool))
        if self.t_stop is None:
            object.__setattr__(self, "t_stop", np.full(shape, float(self.t_final)))


@dataclass(frozen=True, eq=False)
class CriticalLoad:
    """Empirical stability scan over the load (result of :func:`empirical_critical_load`).

    Attributes
    ----------
    alphas : ndarray, shape (k,)
        Loads scanned (P = round(α N)).
    stable_fraction : ndarray, shape (k,)
        Fraction of the examined patterns with abscissa < −tol.
    mean_abscissa, std_abscissa : ndarray, shape (k,)
        Mean and standard deviation of the spectral abscissa over the examined patterns.
    alpha_s : float
        Linearly interpolated first zero crossing of the mean abscissa (note §4.3); NaN when the
        grid does not bracket one (see ``bracketed``).
    bracketed : bool
        Whether the mean abscissa changes sign from < 0 to >= 0 inside the grid.
    """

    alphas: np.ndarray
    stable_fraction: np.ndarray
    mean_abscissa: np.ndarray
    std_abscissa: np.ndarray
    alpha_s: float
    bracketed: bool


# --------------------------------------------------------------------------------------------
# Weights
# --------------------------------------------------------------------------------------------


def pinv_weights(R: Any, sigma: float, n: float, theta: float | None = None) -> Network:
    """Pseudo-inverse weights W = V R†, V = g⁻¹(R) + θ (Eq. 8 of the paper).

    Notes
    -----
    Eq. 8 is the minimum-Frobenius-norm solution of W R = V (Eq. 4 without the zero-diagonal
    constraint); every column of R is an exact fixed point of Eq. 2, r^μ = g(W r^μ − θ). R† is
    computed as ``solve(RᵀR, Rᵀ)`` (never an SVD ``pinv``, note pitfall 15). With ``theta=None``
    the threshold is θ*_bulk = −mean(g⁻¹(R)), the empirical version of Eq. 16.

    Parameters
    ----------
    R : array_like, shape (N, P)
        Patterns, finite, > 0 when σ > 0 (dense case) and >= 0 when σ = 0; P/N < 1.
    sigma : float
        Smoothness σ >= 0 of Eq. 3.
    n : float
        Exponent n of Eq. 3, in (0, 100] (``rates.EXPONENT_MAX``).
    theta : float, optional
        Threshold θ (finite); default θ*_bulk of Eq. 16.

    Returns
    -------
    Network
        With ``zero_diag=False``.

    Raises
    ------
    ValueError
        If α = P/N >= 1, if R has non-positive rates while σ > 0, or non-finite entries, or
        if its columns are linearly dependent (RᵀR singular).

    Examples
    --------
    With one pattern the pattern is a fixed point:

    >>> import numpy as np
    >>> from assocmem.attractor.rates import activation
    >>> R = np.array([[1.0], [2.0], [0.5]])
    >>> net = pinv_weights(R, 1.0, 1.0)
    >>> bool(np.allclose(activation(net.W @ R - net.theta, 1.0, 1.0), R))
    True
    """
    return _weights(R, sigma, n, theta, zero_diag=False)


def zero_diag_weights(R: Any, sigma: float, n: float, theta: float | None = None) -> Network:
    """Minimum-norm weights without self-couplings, Eq. 20 of the paper.

    Notes
    -----
    W = V R† − γ∘(I − R R†), γ_i = [V R†]_ii / [I − R R†]_ii, where γ∘M scales row i by γ_i
    (note §1.5). This is Eq. 4 with W_ii = 0; the fixed points stay exact because
    (I − R R†) R = 0. Cost O(N² P) for the projector.

    Parameters
    ----------
    R, sigma, n, theta
        As in :func:`pinv_weights`.

    Returns
    -------
    Network
        With ``zero_diag=True``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[1.0], [2.0], [0.5]])
    >>> net = zero_diag_weights(R, 1.0, 1.0)
    >>> float(np.abs(np.diag(net.W)).max()) < 1e-12
    True
    """
    return _weights(R, sigma, n, theta, zero_diag=True)


def _pinv(R: Any, xp: Any) -> Any:
    """R† = (RᵀR)⁻¹Rᵀ by ``solve`` (note pitfall 15), with columns scaled by powers of two.

    R = R̃ S with S = diag(2^e_j) and the columns of R̃ of order 1, so R† = S⁻¹ R̃†: RᵀR cannot
    leave the float range whatever the magnitude of the rates, and the scaling is exact. Columns
    whose largest rate lies in [2^-100, 2^100] are left as they are (e_j = 0).
    """
    top = to_numpy(xp.max(xp.abs(R), axis=0))
    _, expo = np.frexp(np.where(top > 0, top, 1.0))
    expo = np.where(np.abs(expo) > 100, expo, 0)
    scale = xp.asarray(np.ldexp(1.0, expo))
    Rs = R / scale[None, :]
    gram = Rs.T @ Rs
    try:
        pinv = xp.linalg.solve(gram, Rs.T)  # R̃†, P × N
    except np.linalg.LinAlgError:
        pinv = None
    if pinv is None or not bool(xp.all(xp.isfinite(pinv))):
        raise ValueError(
            "R must have linearly independent columns (RᵀR is singular), "
            f"got shape {tuple(R.shape)}"
        )
    return pinv / scale[:, None]


def _check_patterns(R: Any, sigma: float, xp: Any) -> Any:
    R = _as_real_array(R, "R", xp)
    if R.ndim != 2:
        raise ValueError(f"R must have shape (N, P), got an array with shape {R.shape}")
    N, P = R.shape
    if N < 2 or P < 1:
        raise ValueError(f"R must have N >= 2 neurons and P >= 1 patterns, got shape {R.shape}")
    check_size(N * N, "R", "weight entries (N * N)", MAX_ELEMENTS, "store fewer neurons")
    if P >= N:
        raise ValueError(
            f"alpha = P/N must be < 1 for the dense pseudo-inverse (Eq. 8), got alpha={P / N!r}"
            f" (N={N}, P={P})"
        )
    return _as_rates(R, sigma, xp, "R")


def _weights(R: Any, sigma: Any, n: Any, theta: Any, zero_diag: bool) -> Network:
    """Eqs. 8 and 20 (note §4.1 ``dense_weights``)."""
    sigma = check_nonneg_float(sigma, "sigma")
    n = check_exponent(n)
    if theta is not None:
        theta = check_finite_float(theta, "theta")
    xp = array_namespace(R)
    R = _check_patterns(R, sigma, xp)
    return _build(R, sigma, n, theta, zero_diag, xp)


def _build(R: Any, sigma: float, n: float, theta: Any, zero_diag: bool, xp: Any) -> Network:
    """Eqs. 8 and 20 on trusted input (the kernel of the weight rules)."""
    U = _g_inverse(R, sigma, n, xp)
    # Eq. 16 with the empirical mean of g⁻¹(R) when no threshold is given.
    theta = -float(xp.mean(U)) if theta is None else theta
    V = U + theta
    R_pinv = _pinv(R, xp)
    W = V @ R_pinv  # Eq. 8
    if zero_diag:
        N = R.shape[0]
        Pperp = xp.eye(N) - R @ R_pinv  # projector on the complement of span R
        gamma = xp.diagonal(W) / xp.diagonal(Pperp)
        W = W - gamma[:, None] * Pperp  # Eq. 20
        idx = xp.arange(N)
        W[idx, idx] = 0.0  # exact zero (round-off of the subtraction is ~1e-16)
    return Network(W=W, theta=theta, R=R, V=V, R_pinv=R_pinv, sigma=sigma, n=n, zero_diag=zero_diag)


# --------------------------------------------------------------------------------------------
# Jacobians and spectra
# --------------------------------------------------------------------------------------------


def jacobian(W: Any, r: Any, sigma: float, n: float, theta: float) -> Any:
    """Jacobian of Eq. 2 at the state r: J = −I + diag(g'(W r − θ)) W (Eq. 5, τ = 1).

    Notes
    -----
    At a stored pattern g'(W r^μ − θ) = g'(g⁻¹(r^μ)) = d(r^μ), so this is J_μ of Eq. 5 (and
    J*_μ of Eq. 9 for Eq. 8 weights). Away from fixed points it is the Jacobian of the flow.
    For σ = 0 the convention g'(0) = 0 is used (note pitfall 13).

    Parameters
    ----------
    W : array_like, shape (N, N)
        Weights, finite.
    r : array_like, shape (N,)
        State (rates), finite.
    sigma, n : float
        Activation parameters (σ >= 0, n > 0).
    theta : float
        Threshold, finite.

    Returns
    -------
    array, shape (N, N)

    Examples
    --------
    Zero weights give J = −I:

    >>> import numpy as np
    >>> jacobian(np.zeros((2, 2)), np.ones(2), 1.0, 1.0, 0.0).tolist()
    [[-1.0, 0.0], [0.0, -1.0]]
    """
    sigma = check_nonneg_float(sigma, "sigma")
    n = check_beta(n, "n")
    theta = check_finite_float(theta, "theta")
    xp = array_namespace(W, r)
    W, r = _check_square(W, xp), _as_real_array(r, "r", xp)
    if r.shape != (W.shape[0],):
        raise ValueError(f"r must have shape ({W.shape[0]},), got shape {r.shape}")
    d = _slope(W @ r - theta, sigma, n, xp)
    with np.errstate(over="ignore", invalid="ignore"):  # an infinite slope times W_ij = 0 is 0
        DW = xp.where(W == 0, 0.0, d[:, None] * W)
    return DW - xp.eye(W.shape[0])


def _check_square(W: Any, xp: Any) -> Any:
    W = _as_real_array(W, "W", xp)
    if W.ndim != 2 or W.shape[0] != W.shape[1] or W.shape[0] < 1:
        raise ValueError(f"W must be a square (N, N) matrix, got shape {W.shape}")
    return W


def jacobian_spectrum(
    net: Network,
    patterns: int | Sequence[int] | None = None,
    *,
    method: str = "auto",
    eigenvectors: bool = False,
) -> Spectrum:
    """Eigenvalues of J_μ at stored patterns, by the low-rank reduction of Eq. 9 or in full.

    Notes
    -----
    For Eq. 8 weights, J*_μ = −I + D_μ V R† (Eq. 9) has N − P eigenvalues exactly −1; the other
    P are eig(K_μ) − 1 with K_μ = R† D_μ V (P × P), and their eigenvectors are D_μ V a for the
    eigenvectors a of K_μ (note §1.6). This costs O(N P²) per pattern instead of O(N³).
    ``method="full"`` computes ``eig`` of the N × N J_μ of Eq. 5 (needed for Eq. 20 weights,
    for which the reduction is not exact). The K_μ or J_μ of the batch are built in the
    namespace of the network; the eigenproblems are solved with NumPy on the host (CuPy has no
    general ``eig``).

    Empirical λ_mem (note pitfall 7): the eigenvalue whose eigenvector (real part) has the
    largest |Pearson correlation| with r^μ; ``bulk_edge`` is the largest real part once that
    eigenvalue and its conjugate are removed (note §3.3).

    Parameters
    ----------
    net : Network
        From :func:`pinv_weights` or :func:`zero_diag_weights`.
    patterns : int or sequence of int, optional
        Pattern indices in [0, P); default all patterns.
    method : {"auto", "lowrank", "full"}
        ``"auto"`` uses the reduction for Eq. 8 weights and the full problem for Eq. 20.
    eigenvectors : bool
        Compute eigenvectors to fill ``lambda_mem``, ``mem_corr`` and ``bulk_edge``.

    Returns
    -------
    Spectrum

    Examples
    --------
    One linear pattern with θ = 0: W = r rᵀ/‖r‖² is a projector, so the nontrivial eigenvalue
    is d − 1 = 0 (a line of fixed points):

    >>> import numpy as np
    >>> net = pinv_weights(np.array([[1.0], [2.0]]), 0.0, 1.0, theta=0.0)
    >>> spec = jacobian_spectrum(net)
    >>> spec.n_trivial, round(float(spec.abscissa[0]), 12)
    (1, 0.0)
    """
    check_instance(net, "net", Network)
    check_option(method, "method", _METHODS)
    eigenvectors = check_bool(eigenvectors, "eigenvectors")
    if method == "auto":
        method = "full" if net.zero_diag else "lowrank"
    if method == "lowrank" and net.zero_diag:
        raise ValueError(
            "method='lowrank' is exact only for Eq. 8 (pinv) weights; use method='full' "
            "for zero-diagonal weights"
        )
    mus = _check_pattern_indices(patterns, net.P)
    per = net.N * (net.P if method == "lowrank" else net.N)
    check_size(
        len(mus) * per,
        "patterns",
        f"matrix entries ({len(mus)} patterns of {per})",
        MAX_ELEMENTS,
        "select fewer patterns per call",
    )
    D = _gain(net.R[:, mus], net.sigma, net.n, array_namespace(net.R)).T  # (m, N), D_μ (Eq. 5)
    if method == "lowrank":
        Vbar = D[:, :, None] * net.V[None, :, :]  # D_μ V, (m, N, P)
        mats = to_numpy(net.R_pinv[None, :, :] @ Vbar)  # K_μ, (m, P, P)
        n_trivial, shift = net.N - net.P, 1.0
    else:
        mats = to_numpy(D[:, :, None] * net.W[None, :, :])  # D_μ W, (m, N, N)
        Vbar, n_trivial, shift = None, 0, 1.0
    mats = np.asarray(mats)
    if eigenvectors:
        ev, vecs = np.linalg.eig(mats)
    else:
        ev, vecs = np.linalg.eigvals(mats), None
    lam = ev - shift
    abscissa = lam.real.max(axis=1)
    if n_trivial > 0:
        abscissa = np.maximum(abscissa, -1.0)
    lam_mem = corr = edge = None
    if vecs is not None:
        lam_mem, corr, edge = _memory_outliers(lam, vecs, Vbar, to_numpy(net.R[:, mus]).T)
    return Spectrum(
        patterns=np.asarray(mus),
        eigenvalues=lam,
        n_trivial=n_trivial,
        abscissa=abscissa,
        lambda_mem=lam_mem,
        mem_corr=corr,
        bulk_edge=edge,
        method=method,
    )


def _check_pattern_indices(patterns: Any, P: int) -> list[int]:
    if patterns is None:
        return list(range(P))
    items = [patterns] if np.ndim(patterns) == 0 else list(np.asarray(patterns).ravel())
    out = []
    for i in items:
        if isinstance(i, bool | np.bool_) or not isinstance(i, int | np.integer):
            raise TypeError(f"patterns must hold integers, got {i!r}")
        if not 0 <= int(i) < P:
            raise ValueError(f"patterns must hold indices in [0, {P}), got {int(i)}")
        out.append(int(i))
    if not out:
        raise ValueError("patterns must select at least one pattern, got an empty selection")
    return out


def _memory_outliers(
    lam: np.ndarray, vecs: np.ndarray, Vbar: Any, Rm: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """λ_mem by the largest |corr(r^μ, Re x)| (note pitfall 7) and the remaining bulk edge."""
    if Vbar is not None:  # eigenvectors in R^N: x = D_μ V a (note §1.6)
        X = to_numpy(Vbar) @ vecs  # (m, N, P)
    else:
        X = vecs
    Xr = X.real - X.real.mean(axis=1, keepdims=True)
    rc = Rm - Rm.mean(axis=1, keepdims=True)  # (m, N)
    num = np.einsum("mn,mnk->mk", rc, Xr)
    den = np.linalg.norm(rc, axis=1)[:, None] * np.linalg.norm(Xr, axis=1)
    c = np.abs(num) / np.where(den > 0, den, np.inf)
    k = c.argmax(axis=1)
    rows = np.arange(lam.shape[0])
    lam_mem = lam[rows, k]
    keep = np.abs(lam - lam_mem[:, None]) > 1e-12 * (1.0 + np.abs(lam_mem[:, None]))
    keep &= np.abs(lam - np.conj(lam_mem)[:, None]) > 1e-12 * (1.0 + np.abs(lam_mem[:, None]))
    edge = np.where(keep, lam.real, -np.inf).max(axis=1)
    return lam_mem, c[rows, k], edge


# --------------------------------------------------------------------------------------------
# Dynamics
# --------------------------------------------------------------------------------------------


def simulate(
    W: Any,
    r0: Any,
    sigma: float,
    n: float,
    theta: float,
    dt: float,
    T: float,
    noise: float = 0.0,
    rng: Any = None,
    *,
    reference: Any = None,
    max_rate: float = 1e6,
) -> Trajectory:
    """Euler integration of τṙ = −r + g(W r − θ) (Eq. 2 with τ = 1), optionally noisy.

    Notes
    -----
    r ← r + dt (−r + g(W r − θ)) + η √dt ξ, ξ ~ N(0, I) (Euler–Maruyama when η = ``noise`` > 0,
    note §4.4, an extension: the paper studies only linear stability). A batch of B initial
    states (columns of ``r0``) runs as one matrix product per step. A trajectory that becomes
    non-finite or exceeds ``max_rate`` (supralinear blow-up, note pitfall 12) is stopped at its
    last finite state (``blown``, ``t_stop``; its distance is NaN afterwards) while the others
    run on; the run ends early only when every trajectory has blown up. Use dt <= 0.1.

    Parameters
    ----------
    W : array_like, shape (N, N)
        Weights.
    r0 : array_like, shape (N,) or (N, B)
        Initial state(s).
    sigma, n : float
        Activation parameters (σ >= 0, n > 0).
    theta : float
        Threshold.
    dt : float
        Time step in (0, 1].
    T : float
        Duration > 0; ceil(T/dt) steps, at most ``MAX_STEPS`` (1e7).
    noise : float
        Additive noise amplitude η >= 0 per unit √time.
    rng : int or numpy.random.Generator, optional
        Used only when ``noise > 0`` (default seed 0), but checked always.
    reference : array_like, shape (N,) or like ``r0``, optional
        State the distance is measured to (default ``r0``); one (N,) state serves a batch.
    max_rate : float
        Blow-up bound on max |r| (> 0); every entry of ``r0`` must lie within it.

    Returns
    -------
    Trajectory

    Raises
    ------
    ValueError
        If ceil(T/dt) exceeds ``MAX_STEPS``, or an entry of ``r0`` exceeds ``max_rate``.

    Examples
    --------
    A stored pattern stays put:

    >>> import numpy as np
    >>> R = np.array([[1.0], [2.0], [0.5]])
    >>> net = pinv_weights(R, 1.0, 1.0)
    >>> run = simulate(net.W, R[:, 0], 1.0, 1.0, net.theta, dt=0.1, T=1.0)
    >>> float(run.distance[-1]) < 1e-12, run.blew_up
    (True, False)
    """
    sigma = check_nonneg_float(sigma, "sigma")
    n = check_beta(n, "n")
    theta = check_finite_float(theta, "theta")
    dt = check_fraction(dt, "dt", 0.0, 1.0, open_lo=True, open_hi=False)
    T = check_beta(T, "T")
    steps = _check_steps(T, dt)
    noise = check_nonneg_float(noise, "noise")
    gen = as_rng(0 if rng is None else rng)
    max_rate = check_beta(max_rate, "max_rate")
    xp = array_namespace(W, r0)
    W = _check_square(W, xp)
    r = _as_real_array(r0, "r0", xp)
    N = W.shape[0]
    if r.ndim not in (1, 2) or r.shape[0] != N or r.size == 0:
        raise ValueError(f"r0 must have shape ({N},) or ({N}, B), got shape {r.shape}")
    if bool(xp.any(xp.abs(r) > max_rate)):
        raise ValueError(
            f"r0 must lie within max_rate={max_rate!r} (the blow-up bound), "
            f"got max |r0| = {float(xp.max(xp.abs(r)))!r}"
        )
    ref = r if reference is None else _as_real_array(reference, "reference", xp)
    if ref.ndim == 1 and r.ndim == 2:
        ref = ref[:, None]
    if ref.shape != r.shape and not (r.ndim == 2 and ref.shape == (N, 1)):
        raise ValueError(f"reference must have shape {r.shape} or ({N},), got {ref.shape}")
    gen = gen if noise > 0 else None
    ref_norm = _column_norm(ref, xp)
    ref_norm = xp.where(ref_norm > 0, ref_norm, 1.0)
    dists = [to_numpy(_column_norm(r - ref, xp) / ref_norm)]
    alive = np.ones(r.shape[1:], dtype=bool)
    t_stop = np.full(r.shape[1:], np.nan)
    done = 0
    with np.errstate(over="ignore", invalid="ignore"):  # a blow-up is detected, not warned
        for _ in range(steps):
            r_in = r if alive.all() else xp.where(xp.asarray(alive), r, 0.0)  # no blown inputs
            r_new = r_in + dt * (_g(W @ r_in - theta, sigma, n, xp) - r_in)  # Eq. 2, Euler
            if gen is not None:
                r_new = r_new + noise * math.sqrt(dt) * xp.asarray(gen.standard_normal(r.shape))
            bad = alive & _runaway(r_new, max_rate, xp)
            if bad.any():
                t_stop[bad] = dt * done
                alive &= ~bad
                if not alive.any():
                    break
            if not alive.all():
                r_new = xp.where(xp.asarray(alive), r_new, r)  # blown ones keep their state
            r, done = r_new, done + 1
            dist = to_numpy(_column_norm(r - ref, xp) / ref_norm)
            dists.append(np.where(alive, dist, np.nan))
    t_stop[alive] = dt * done
    return Trajectory(
        times=dt * np.arange(done + 1),
        distance=np.asarray(dists),
        final=r,
        blew_up=bool(not alive.all()),
        t_final=dt * done,
        blown=~alive,
        t_stop=t_stop,
    )


def _check_steps(T: float, dt: float, t_name: str = "T") -> int:
    """ceil(T/dt) Euler steps, refused above ``MAX_STEPS`` with a message naming T and dt."""
    steps = T / dt - 1e-9
    check_size(
        steps,
        t_name,
        f"Euler steps (ceil({t_name}/dt) with dt={dt!r})",
        MAX_STEPS,
        f"shorten {t_name} or lengthen dt (<= 1) so that {t_name}/dt <= {MAX_STEPS}",
    )
    return math.ceil(steps)


def _column_norm(x: Any, xp: Any) -> Any:
    """Euclidean norm along axis 0, scaled by the largest entry so that no square overflows."""
    top = xp.max(xp.abs(x), axis=0)
    if bool(xp.all(top < 1e150)):
        return xp.linalg.norm(x, axis=0)  # the common case: as before, bit for bit
    safe = xp.where(top > 0, top, 1.0)
    return safe * xp.linalg.norm(x / safe, axis=0)


def _runaway(r: Any, max_rate: float, xp: Any) -> np.ndarray:
    """Per trajectory (column, or the whole vector): non-finite or beyond ``max_rate``."""
    finite = xp.isfinite(r)
    big = xp.max(xp.where(finite, xp.abs(r), 0.0), axis=0) > max_rate
    return to_numpy(~xp.all(finite, axis=0) | big)


# --------------------------------------------------------------------------------------------
# Critical load and the Gaussian ensemble
# --------------------------------------------------------------------------------------------


def empirical_critical_load(
    N: int,
    cv: float,
    sigma: float,
    n: float,
    alphas: Sequence[float],
    patterns: int = 4,
    rng: Any = 0,
    *,
    theta_shift: float = 0.0,
    zero_diag: bool = False,
    tol: float = 1e-6,
) -> CriticalLoad:
    """Scan the load α and locate the empirical critical load for stability α_S (note §4.3).

    Notes
    -----
    For each α, P = round(α N) fresh log-normal patterns are stored with Eq. 8 (or Eq. 20)
    weights at θ = θ*_bulk + ``theta_shift`` (Eq. 16, empirical), and the spectral abscissa of
    J_μ (Eq. 5) is computed for the first ``patterns`` patterns. A pattern counts as stable when
    its abscissa is < −``tol`` (note pitfall 11). α_S is the linear interpolation of the first
    sign change of the mean abscissa. Compare with Eq. 19 only loosely: empirically α_S lies
    25–50 % below it near n = σ = 1 (note §3.3, pitfall 5).

    Parameters
    ----------
    N : int
        Neurons (>= 2; N² at most ``MAX_ELEMENTS``).
    cv : float
        Coefficient of variation of the patterns, in (0, 1e6].
    sigma, n : float
        Activation parameters (σ >= 0, 0 < n <= 100).
    alphas : sequence of float
        Increasing loads in (0, 1), each giving P = round(α N) >= 1.
    patterns : int
        Patterns examined per load (at most P).
    rng : int or numpy.random.Generator
        Seed or generator for the patterns.
    theta_shift : float
        θ − θ*_bulk.
    zero_diag : bool
        Use Eq. 20 weights (full N × N spectra) instead of Eq. 8 (low-rank spectra).
    tol : float
        Stability margin (>= 0).

    Returns
    -------
    CriticalLoad

    Examples
    --------
    >>> res = empirical_critical_load(100, 1.0, 1.0, 1.0, [0.05, 0.6], patterns=2, rng=1)
    >>> res.stable_fraction.tolist(), res.bracketed
    ([1.0, 0.0], True)
    """
    N = check_positive_int(N, "N", minimum=2)
    check_size(N * N, "N", "weight entries (N * N)", MAX_ELEMENTS, "use fewer neurons")
    cv = check_cv(cv)
    sigma = check_nonneg_float(sigma, "sigma")
    n = check_exponent(n)
    a = as_real_vector(alphas, "alphas", 0.0, 1.0, open_lo=True, open_hi=True)
    patterns = check_positive_int(patterns, "patterns")
    shift = check_finite_float(theta_shift, "theta_shift")
    zero_diag = check_bool(zero_diag, "zero_diag")
    tol = check_nonneg_float(tol, "tol")
    if np.any(np.diff(a) <= 0):
        raise ValueError(f"alphas must be strictly increasing, got {a.tolist()}")
    Ps = np.rint(a * N).astype(int)
    if np.any(Ps < 1) or np.any(Ps >= N):
        raise ValueError(f"alphas must give 1 <= P = round(alpha N) < N, got P = {Ps.tolist()}")
    gen = as_rng(rng)
    frac, mean, std = (np.empty(a.size) for _ in range(3))
    for j, P in enumerate(Ps):
        R = _sample(N, int(P), cv, gen)
        theta = -float(np.mean(_g_inverse(R, sigma, n, np))) + shift
        net = _build(R, sigma, n, theta, zero_diag, np)
        ab = jacobian_spectrum(net, list(range(min(patterns, int(P))))).abscissa
        with np.errstate(over="ignore"):  # abscissae beyond 1e154: the spread is +inf
            frac[j], mean[j], std[j] = np.mean(ab < -tol), ab.mean(), ab.std()
    alpha_s, bracketed = _zero_crossing(a, mean)
    return CriticalLoad(
        alphas=a,
        stable_fraction=frac,
        mean_abscissa=mean,
        std_abscissa=std,
        alpha_s=alpha_s,
        bracketed=bracketed,
    )


def _zero_crossing(a: np.ndarray, y: np.ndarray) -> tuple[float, bool]:
    """First crossing of y from < 0 to >= 0, linearly interpolated (note §4.3)."""
    for j in range(1, a.size):
        if y[j - 1] < 0 <= y[j]:
            t = -y[j - 1] / (y[j] - y[j - 1])
            return float(a[j - 1] + t * (a[j] - a[j - 1])), True
    return float("nan"), False


def paired_ensemble_spectrum(
    N: int, alpha: float, sigma_x: float, sigma_y: float, tau: float, rng: Any = 0
) -> np.ndarray:
    """Nonzero eigenvalues of X Y† for the Gaussian paired pseudo-inverse ensemble (Eq. 21).

    Notes
    -----
    X, Y are N × P with i.i.d. entry pairs (x, y) of standard deviations σ_x, σ_y and
    correlation τ (the paper's τ of Eq. 21, not the time constant). X Y† has N − P zero
    eigenvalues; the other P are those of the P × P matrix Y† X = solve(YᵀY, Yᵀ) X, which fill
    the disc of Eq. 21: centre τσ_x/σ_y, radius (σ_x/σ_y)√(1 − τ²)√(α/(1 − α)) (note §2.2).

    Parameters
    ----------
    N : int
        Rows (>= 2).
    alpha : float
        P/N in (0, 1); P = round(α N) >= 1.
    sigma_x, sigma_y : float
        Standard deviations (> 0).
    tau : float
        Correlation in [−1, 1].
    rng : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    ndarray of complex, shape (P,)

    Examples
    --------
    With τ = 1, X = (σ_x/σ_y) Y, so every eigenvalue equals σ_x/σ_y:

    >>> ev = paired_ensemble_spectrum(50, 0.2, 1.0, 2.0, 1.0, rng=0)
    >>> bool(np.allclose(ev, 0.5))
    True
    """
    N = check_positive_int(N, "N", minimum=2)
    alpha = check_fraction(alpha, "alpha", 0.0, 1.0)
    sigma_x, sigma_y = check_beta(sigma_x, "sigma_x"), check_beta(sigma_y, "sigma_y")
    tau = check_fraction(tau, "tau", -1.0, 1.0, open_lo=False, open_hi=False)
    P = round(alpha * N)
    if not 1 <= P < N:
        raise ValueError(f"alpha must give 1 <= P = round(alpha N) < N, got P={P} for N={N}")
    check_size(N * P, "N", "entries of X and Y (N * P)", MAX_ELEMENTS, "use a smaller N")
    ratio = sigma_x / sigma_y
    if not math.isfinite(ratio) or ratio == 0.0:
        raise ValueError(
            f"sigma_x / sigma_y must be a finite number > 0, got sigma_x={sigma_x!r}, "
            f"sigma_y={sigma_y!r}"
        )
    gen = as_rng(rng)
    Y = gen.standard_normal((N, P))
    E = gen.standard_normal((N, P))
    # The spectrum scales with σ_x/σ_y only: draw unit pairs and scale the eigenvalues, so no
    # product of large or small scales leaves the float range.
    X = tau * Y + math.sqrt(max(0.0, 1.0 - tau * tau)) * E
    K = np.linalg.solve(Y.T @ Y, Y.T @ X)  # Y† X for unit scales, P × P
    return ratio * np.linalg.eigvals(K)
