"""Linearisation at a stored pattern and the paired Gaussian pseudo-inverse ensemble.

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks* (Eqs. 5, 9, 10, 21-23 and Fig. 7), building on U. Cohen, *Eigenvalue spectrum
support of paired random matrices with pseudo-inverse* (arXiv:2506.21244, the paper's ref. 22).
"note §" refers to ``shared/notes/03-attractor-stability.md`` (§1.6, §2.2, §2.3, §3.3, pitfall 4).

Notation map
------------
=============================  ======================  ==========================================
paper                          code                    meaning
=============================  ======================  ==========================================
X, Y (N × P), α = P/N          (drawn internally)      paired Gaussian matrices, i.i.d. pairs
σ_x, σ_y                       ``sigma_x, sigma_y``    entry standard deviations
τ (correlation of the pairs)   ``rho_xy``              renamed: τ is the time constant (pitfall 1)
σ_x/σ_y                        ``sigma_ratio``         the only scale the spectrum depends on
M = −cI + X Y†                 ``EnsembleView``        the ensemble; ``c`` the diagonal shift
Eq. 21 disc, λ± (Eq. 22)       ``EnsembleView.disc``   :class:`~.meanfield.EnsembleDisc`
α_S (Eq. 23)                   ``alpha_s``             load where λ₊ crosses 0
J*_μ = −I + D_μ V R† (Eq. 9)   :func:`reduction_check` full N × N spectrum against the P × P one
c_rr, c_rf, c_ff (note §2.3)   :func:`network_ensemble` the ensemble that models J*_μ (Eq. 10)
=============================  ======================  ==========================================

Eigenvalues are in units of 1/τ (τ = 1). Only the P non-trivial eigenvalues of M belong to the
disc; the other N − P sit exactly at −c (at −1 for the Jacobian) and are counted, never mixed
into the disc statistics (note pitfall 4).

Why a disc (note §2.2): with unit-variance Y and E independent, X = σ_x(ρ Y + √(1−ρ²) E) and
Y† X = ρ(σ_x/σ_y) I + (σ_x/σ_y)√(1−ρ²) G with G = Y†E. So every spectrum of the ensemble is
one draw of eig(G), shifted and scaled: :func:`ensemble_view` caches eig(G) per (N, α, seed)
and maps it, which makes a live update for new ρ, σ_x/σ_y or c free.

Public functions
----------------
ensemble_view (result ``EnsembleView``), ensemble_grid (result ``EnsembleGrid``, Fig. 7),
finite_size_edge (result ``FiniteSizeEdge``), network_ensemble, surrogate_view,
reduction_check (result ``ReductionCheck``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from assocmem._validation import (
    MAX_ELEMENTS,
    as_real_vector,
    as_rng,
    check_beta,
    check_finite_float,
    check_fraction,
    check_instance,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.attractor.meanfield import (
    EnsembleDisc,
    StabilityTheory,
    ensemble_alpha_s,
    ensemble_disc,
)
from assocmem.attractor.network import Network, jacobian_spectrum, paired_ensemble_spectrum
from assocmem.attractor.rates import _sample
from assocmem.backend import to_numpy

__all__ = [
    "EnsembleGrid",
    "EnsembleView",
    "FiniteSizeEdge",
    "ReductionCheck",
    "ensemble_grid",
    "ensemble_view",
    "finite_size_edge",
    "network_ensemble",
    "reduction_check",
    "surrogate_view",
]

_SURROGATES = ("gaussian", "lognormal")


@dataclass(frozen=True, eq=False)
class EnsembleView:
    """One draw of M = −cI + X Y† with its Eq. 21 disc and Eq. 23 critical load.

    Attributes
    ----------
    N, P : int
        Rows and columns of X and Y; α = P/N.
    seed : int
        Seed of the draw.
    eigenvalues : ndarray of complex, shape (P,)
        The P non-trivial eigenvalues of M (those of −cI + Y†X).
    n_trivial : int
        N − P eigenvalues exactly at −c, not part of the disc (note pitfall 4).
    disc : EnsembleDisc
        Eq. 21 support and Eq. 22 extremes (``center``, ``radius``, ``lambda_plus``, …).
    alpha_s : float
        Eq. 23: the load at which λ₊ crosses 0 for these σ_x, σ_y, ρ_xy, c.
    kind : str
        ``"gaussian"`` (the paper's ensemble) or ``"lognormal"`` (Y log-normal, note §3.3).
    """

    N: int
    P: int
    seed: int
    eigenvalues: np.ndarray
    n_trivial: int
    disc: EnsembleDisc
    alpha_s: float
    kind: str = "gaussian"

    @property
    def alpha(self) -> float:
        """Load α = P/N (the P actually drawn, P = round(α N))."""
        return self.P / self.N

    @property
    def center_measured(self) -> float:
        """Mean real part of the P non-trivial eigenvalues (Eq. 21 predicts ``disc.center``)."""
        return float(self.eigenvalues.real.mean())

    @property
    def max_real(self) -> float:
        """Largest real part of the P non-trivial eigenvalues (Eq. 22 predicts λ₊)."""
        return float(self.eigenvalues.real.max())

    @property
    def abscissa(self) -> float:
        """Spectral abscissa of M: ``max_real``, or −c when that is larger (trivial part)."""
        return max(self.max_real, -self.disc.c) if self.n_trivial else self.max_real

    @property
    def max_distance(self) -> float:
        """max |λ − centre| over the P eigenvalues (Eq. 21 predicts the radius)."""
        return float(np.abs(self.eigenvalues - self.disc.center).max())


@dataclass(frozen=True, eq=False)
class EnsembleGrid:
    """Ensemble draws on an (α, ρ_xy) grid: the panels of Fig. 7.

    Attributes
    ----------
    alphas, rhos : tuple of float
        Loads (rows) and correlations (columns).
    views : tuple of tuple of EnsembleView
        ``views[i][j]`` at ``alphas[i]``, ``rhos[j]``.
    """

    alphas: tuple[float, ...]
    rhos: tuple[float, ...]
    views: tuple[tuple[EnsembleView, ...], ...]

    def rows(self) -> list[dict[str, float]]:
        """One record per panel: the note §3.3 table (theory radius against measurements).

        Returns
        -------
        list of dict
            Keys ``alpha``, ``rho_xy``, ``radius`` (Eq. 21), ``center_error`` (mean Re λ minus
            the Eq. 21 centre), ``edge`` (max Re λ − centre), ``max_distance``
            (max |λ − centre|), rounded to 4 decimals.
        """
        out = []
        for a, row in zip(self.alphas, self.views, strict=True):
            for rho, v in zip(self.rhos, row, strict=True):
                out.append(
                    {
                        "alpha": a,
                        "rho_xy": rho,
                        "radius": round(v.disc.radius, 4),
                        "center_error": round(v.center_measured - v.disc.center, 4),
                        "edge": round(v.max_real - v.disc.center, 4),
                        "max_distance": round(v.max_distance, 4),
                    }
                )
        return out


@dataclass(frozen=True, eq=False)
class FiniteSizeEdge:
    """How sharp the Eq. 21 edge is at finite N: seed statistics per size.

    Attributes
    ----------
    N : ndarray of int, shape (k,)
        Sizes.
    alpha, rho_xy, sigma_ratio : float
        Load, correlation and σ_x/σ_y of every draw.
    seeds : int
        Independent draws per size (seeds 0, …, seeds − 1).
    mean_distance, max_distance : ndarray, shape (k,)
        Mean and largest over seeds of max |λ − centre| / radius (1 at N → ∞).
    edge_min, edge_max : ndarray, shape (k,)
        Smallest and largest over seeds of (max Re λ − centre) / radius (λ₊ of Eq. 22 gives 1).
    """

    N: np.ndarray
    alpha: float
    rho_xy: float
    sigma_ratio: float
    seeds: int
    mean_distance: np.ndarray
    max_distance: np.ndarray
    edge_min: np.ndarray
    edge_max: np.ndarray


@dataclass(frozen=True, eq=False)
class ReductionCheck:
    """Full N × N Jacobian spectrum against the low-rank P × P one (Eq. 9, note §1.6).

    Attributes
    ----------
    N, P, pattern : int
        Network size, patterns stored, and the pattern μ linearised around.
    full : ndarray of complex, shape (N,)
        ``eig`` of J*_μ = −I + D_μ W (Eq. 5 with Eq. 8 weights).
    lowrank : ndarray of complex, shape (P,)
        eig(K_μ) − 1, K_μ = R† D_μ V.
    n_trivial : int
        N − P, the eigenvalues the reduction predicts exactly at −1.
    n_at_minus_one : int
        Eigenvalues of the full spectrum with |λ + 1| < ``tol``.
    max_difference : float
        Largest |λ_full − λ_lowrank| after removing the N − P full eigenvalues nearest −1 and
        pairing the rest with the low-rank ones (optimal assignment).
    abscissa_full, abscissa_lowrank : float
        Spectral abscissae (the low-rank one includes the trivial −1).
    tol : float
        Tolerance used for ``n_at_minus_one``.
    """

    N: int
    P: int
    pattern: int
    full: np.ndarray
    lowrank: np.ndarray
    n_trivial: int
    n_at_minus_one: int
    max_difference: float
    abscissa_full: float
    abscissa_lowrank: float
    tol: float


# --------------------------------------------------------------------------------------------
# The ensemble
# --------------------------------------------------------------------------------------------


def ensemble_view(
    N: int,
    alpha: float,
    rho_xy: float,
    sigma_ratio: float = 0.5,
    c: float = 1.0,
    seed: int = 0,
) -> EnsembleView:
    """Eigenvalues of M = −cI + X Y† for paired Gaussian X, Y, with the Eq. 21-23 theory.

    Notes
    -----
    Entry pairs (x, y) are i.i.d. Gaussian with standard deviations σ_x, σ_y and correlation
    ρ_xy (the paper's τ). The spectrum depends on σ_x/σ_y only: the view uses σ_y = 1,
    σ_x = ``sigma_ratio``. The P non-trivial eigenvalues of M are −c + eig(Y†X) and fill the disc
    of Eq. 21, centre −c + ρ σ_x/σ_y, radius (σ_x/σ_y)√(1−ρ²)√(α/(1−α)); λ± of Eq. 22 are its
    extreme real parts and α_S of Eq. 23 is where λ₊ = 0. The N − P others sit at −c.

    Y†X = ρ(σ_x/σ_y) I + (σ_x/σ_y)√(1−ρ²) Y†E with E independent of Y (note §2.2), so the draw
    eig(Y†E) = ``paired_ensemble_spectrum(N, alpha, 1, 1, 0, seed)`` is cached per
    (N, α, seed) and mapped affinely; the result equals
    ``paired_ensemble_spectrum(N, alpha, sigma_ratio, 1, rho_xy, seed) − c`` up to rounding.
    Cost: one P × P eigenproblem per new (N, α, seed), microseconds otherwise.

    Parameters
    ----------
    N : int
        Rows (>= 2).
    alpha : float
        Load in (0, 1); P = round(α N) must satisfy 1 <= P < N.
    rho_xy : float
        Correlation of the pairs, in [−1, 1].
    sigma_ratio : float
        σ_x/σ_y > 0 (Fig. 7: σ_x = 1, σ_y = 2, ratio 0.5).
    c : float
        Diagonal shift, finite (c = 1 for a Jacobian; Fig. 7 shows c = 0).
    seed : int
        Seed (>= 0) of the draw.

    Returns
    -------
    EnsembleView

    References
    ----------
    Cohen and Lengyel, Eqs. 21-23 and Fig. 7; Cohen (2025), arXiv:2506.21244.

    Examples
    --------
    With ρ_xy = 1, X = (σ_x/σ_y) Y and every non-trivial eigenvalue is −c + σ_x/σ_y:

    >>> v = ensemble_view(40, 0.25, 1.0, sigma_ratio=0.5, c=1.0)
    >>> v.P, v.n_trivial, bool(np.allclose(v.eigenvalues, -0.5)), v.disc.radius
    (10, 30, True, 0.0)
    """
    return _view(N, alpha, rho_xy, check_beta(sigma_ratio, "sigma_ratio"), 1.0, c, seed)


def ensemble_grid(
    alphas: Sequence[float],
    rhos: Sequence[float],
    N: int = 500,
    sigma_x: float = 1.0,
    sigma_y: float = 2.0,
    c: float = 0.0,
    seed: int = 0,
) -> EnsembleGrid:
    """Fig. 7 of the paper: ensemble spectra over loads α (rows) and correlations ρ_xy (columns).

    Notes
    -----
    Each panel is :func:`ensemble_view` at its (α, ρ_xy), with the paper's σ_x = 1, σ_y = 2,
    N = 500 and M = X Y† (c = 0) as defaults. Panel (i, j) is an independent draw with seed
    ``seed + i * len(rhos) + j``, so the nine measurements of the note §3.3 table are
    independent.

    Parameters
    ----------
    alphas : sequence of float
        Loads in (0, 1), at least one.
    rhos : sequence of float
        Correlations in [−1, 1], at least one.
    N : int
        Rows of X and Y (>= 2).
    sigma_x, sigma_y : float
        Entry standard deviations (> 0).
    c : float
        Diagonal shift (finite).
    seed : int
        Seed (>= 0).

    Returns
    -------
    EnsembleGrid

    Examples
    --------
    >>> g = ensemble_grid([0.2, 0.5], [0.0, 0.9], N=100)
    >>> len(g.views), len(g.views[0]), g.views[1][0].P
    (2, 2, 50)
    """
    a = tuple(as_real_vector(alphas, "alphas", 0.0, 1.0, open_lo=True, open_hi=True).tolist())
    r = tuple(as_real_vector(rhos, "rhos", -1.0, 1.0).tolist())
    N = check_positive_int(N, "N", minimum=2)
    for ai in a:
        _draw_size(N, ai, 0, alpha_name="alphas")
    sx, sy = check_beta(sigma_x, "sigma_x"), check_beta(sigma_y, "sigma_y")
    c = check_finite_float(c, "c")
    seed = check_positive_int(seed, "seed", minimum=0)
    views = tuple(
        tuple(_view(N, ai, rj, sx, sy, c, seed + i * len(r) + j) for j, rj in enumerate(r))
        for i, ai in enumerate(a)
    )
    return EnsembleGrid(alphas=a, rhos=r, views=views)


def finite_size_edge(
    N_values: Sequence[int],
    alpha: float = 0.2,
    rho_xy: float = 0.0,
    sigma_ratio: float = 0.5,
    seeds: int = 8,
) -> FiniteSizeEdge:
    """Finite-N overshoot of the Eq. 21 support: farthest eigenvalue and right edge vs radius.

    Notes
    -----
    Eq. 21 is exact as N → ∞; at finite N the farthest of the P eigenvalues lies outside the
    circle and the largest real part scatters around λ₊ (note §3.3: up to 10 % at N = 500,
    α = 0.8). Draws are :func:`ensemble_view` with c = 0 and seeds 0, …, ``seeds`` − 1 (the
    ratios do not depend on c). Cost: ``seeds`` P × P eigenproblems per size.

    Parameters
    ----------
    N_values : sequence of int
        Sizes (each >= 2, with 1 <= round(α N) < N).
    alpha : float
        Load in (0, 1).
    rho_xy : float
        Correlation in (−1, 1) (the radius must be > 0).
    sigma_ratio : float
        σ_x/σ_y > 0.
    seeds : int
        Draws per size (>= 1).

    Returns
    -------
    FiniteSizeEdge

    Examples
    --------
    >>> e = finite_size_edge([100, 400], seeds=3)
    >>> e.N.tolist(), bool(np.all(e.max_distance >= e.mean_distance))
    ([100, 400], True)
    """
    sizes = [check_positive_int(n, "N_values", minimum=2) for n in _int_sequence(N_values)]
    alpha = check_fraction(alpha, "alpha", 0.0, 1.0)
    for n in sizes:
        _draw_size(n, alpha, 0, n_name="N_values")
    rho = check_fraction(rho_xy, "rho_xy", -1.0, 1.0)
    sigma_ratio = check_beta(sigma_ratio, "sigma_ratio")
    seeds = check_positive_int(seeds, "seeds")
    dist = np.empty((len(sizes), seeds))
    edge = np.empty((len(sizes), seeds))
    for i, n in enumerate(sizes):
        for s in range(seeds):
            v = _view(n, alpha, rho, sigma_ratio, 1.0, 0.0, s)
            dist[i, s] = v.max_distance / v.disc.radius
            edge[i, s] = (v.max_real - v.disc.center) / v.disc.radius
    return FiniteSizeEdge(
        N=np.asarray(sizes),
        alpha=float(alpha),
        rho_xy=rho,
        sigma_ratio=float(sigma_ratio),
        seeds=seeds,
        mean_distance=dist.mean(axis=1),
        max_distance=dist.max(axis=1),
        edge_min=edge.min(axis=1),
        edge_max=edge.max(axis=1),
    )


def network_ensemble(theory: StabilityTheory, alpha: float) -> EnsembleDisc:
    """The Gaussian ensemble that models the bulk of J*_μ: σ_x² = c_ff, σ_y² = c_rr, c = 1.

    Notes
    -----
    The paper maps J*_μ = −I + V̄_μ R† (Eq. 9) onto M = −I + X Y† with X ↔ V̄_μ, Y ↔ R, choosing
    σ_x = √c_ff, σ_y = √c_rr and ρ_xy = c_rf/√(c_rr c_ff) (note §2.3). Eq. 21 then gives the
    centre −1 + c_rf/c_rr and the radius √(c_rr c_ff − c_rf²)/c_rr · √(α/(1−α)) of Eq. 10, and
    Eq. 23 gives α_S^bulk of Eq. 11.

    Parameters
    ----------
    theory : StabilityTheory
        From :func:`~assocmem.attractor.meanfield.theory`.
    alpha : float
        Load in [0, 1).

    Returns
    -------
    EnsembleDisc
        Its ``lambda_plus`` is λ_bulk of Eq. 10.

    Examples
    --------
    >>> from assocmem.attractor.meanfield import theory
    >>> th = theory(1.0, 1.0, 1.0)
    >>> e = network_ensemble(th, 0.2)
    >>> round(e.center, 4), round(e.lambda_plus, 4), round(float(th.bulk_edge(0.2)), 4)
    (-0.1366, -0.0327, -0.0327)
    """
    check_instance(theory, "theory", StabilityTheory)
    sx, sy, rho = _ensemble_parameters(theory)
    return ensemble_disc(alpha, sx, sy, rho, 1.0)


def surrogate_view(
    theory: StabilityTheory,
    N: int,
    alpha: float,
    kind: str = "lognormal",
    seed: int = 0,
) -> EnsembleView:
    """Universality check of note §3.3: the Eq. 10 disc from non-Gaussian surrogates of J*_μ.

    Notes
    -----
    ``kind="lognormal"``: Y = R log-normal (mean 1, the theory's CV) and X = β δR + ξ with
    β = c_rf/c_rr, δR = R − 1 and ξ Gaussian of variance c_ff − β² c_rr, independent, so that
    (x, y) has the moments c_ff, c_rf, c_rr of note §2.3 but Y is log-normal with a non-zero
    mean. The P eigenvalues of −I + Y†X are returned (one of them, along the mean of R, sits
    near −1). ``kind="gaussian"``: the paired Gaussian ensemble with the same moments
    (:func:`ensemble_view`). Both should have the edge λ_bulk of Eq. 10 (measured at N = 2000,
    α = 0.2, CV = σ = n = 1: −0.033 and −0.035 against −0.0327). This is not the network: the
    gain heterogeneity of D_μ is absent (note §3.3).

    Parameters
    ----------
    theory : StabilityTheory
        Moments c_rr, c_rf, c_ff and the CV of the patterns.
    N : int
        Rows (>= 2).
    alpha : float
        Load in (0, 1), 1 <= round(α N) < N.
    kind : {"lognormal", "gaussian"}
        Surrogate.
    seed : int
        Seed (>= 0).

    Returns
    -------
    EnsembleView
        With ``disc = network_ensemble(theory, alpha)`` and c = 1.

    Examples
    --------
    >>> from assocmem.attractor.meanfield import theory
    >>> v = surrogate_view(theory(1.0, 1.0, 1.0), 400, 0.2, seed=1)
    >>> v.kind, v.P, v.n_trivial
    ('lognormal', 80, 320)
    """
    check_instance(theory, "theory", StabilityTheory)
    N, P, seed = _draw_size(N, alpha, seed)
    check_option(kind, "kind", _SURROGATES)
    sx, sy, rho = _ensemble_parameters(theory)
    if kind == "gaussian":
        return _view(N, alpha, rho, sx, sy, 1.0, seed)
    gen = as_rng(seed)
    R = _sample(N, P, theory.cv, gen)
    beta = theory.c_rf / theory.c_rr
    noise = math.sqrt(max(0.0, theory.c_ff - beta * beta * theory.c_rr))
    X = beta * (R - 1.0) + noise * gen.standard_normal((N, P))
    ev = np.linalg.eigvals(np.linalg.solve(R.T @ R, R.T @ X)) - 1.0  # −I + R†X, P × P
    return _assemble(N, P, seed, ev, (sx, sy, rho, 1.0), "lognormal")


# --------------------------------------------------------------------------------------------
# The low-rank reduction of the Jacobian
# --------------------------------------------------------------------------------------------


def reduction_check(net: Network, pattern: int = 0, tol: float = 1e-8) -> ReductionCheck:
    """Compare the full spectrum of J*_μ with the P × P reduction K_μ = R† D_μ V (Eq. 9).

    Notes
    -----
    With Eq. 8 weights J*_μ + I = D_μ V R† has rank P: its null space gives N − P eigenvalues
    exactly −1, and for an eigenvector a of K_μ = R† D_μ V, x = D_μ V a satisfies
    (J*_μ + I) x = D_μ V K_μ a, so the other P eigenvalues are eig(K_μ) − 1 (note §1.6). Both
    spectra come from :func:`~assocmem.attractor.network.jacobian_spectrum`
    (``method="full"`` and ``"lowrank"``). No timing is done here; the cost ratio O(N³)/O(NP²)
    is measured in the book and in ``benchmarks/bench_attractor_spectrum.py``.

    Parameters
    ----------
    net : Network
        Eq. 8 (pinv) weights from :func:`~assocmem.attractor.network.pinv_weights`.
    pattern : int
        Pattern index μ in [0, P).
    tol : float
        |λ + 1| below which a full eigenvalue counts as −1 (> 0).

    Returns
    -------
    ReductionCheck

    Examples
    --------
    >>> from assocmem.attractor.network import pinv_weights
    >>> from assocmem.attractor.rates import sample_patterns
    >>> chk = reduction_check(pinv_weights(sample_patterns(60, 12, 1.0, rng=0), 1.0, 1.0))
    >>> chk.n_trivial, chk.n_at_minus_one >= 48, chk.max_difference < 1e-9
    (48, True, True)
    """
    check_instance(net, "net", Network)
    if net.zero_diag:
        raise ValueError(
            "net must hold Eq. 8 (pinv) weights: the reduction is not exact for zero-diagonal "
            "weights (Eq. 20)"
        )
    pattern = check_positive_int(pattern, "pattern", minimum=0, maximum=net.P - 1)
    tol = check_beta(tol, "tol")
    full = jacobian_spectrum(net, pattern, method="full")
    low = jacobian_spectrum(net, pattern, method="lowrank")
    f, lr = np.asarray(to_numpy(full.eigenvalues[0])), np.asarray(to_numpy(low.eigenvalues[0]))
    rest = f[np.argsort(np.abs(f + 1.0))[low.n_trivial :]]  # drop the N − P nearest −1
    cost = np.abs(rest[:, None] - lr[None, :])
    i, j = linear_sum_assignment(cost)
    return ReductionCheck(
        N=net.N,
        P=net.P,
        pattern=int(full.patterns[0]),
        full=f,
        lowrank=lr,
        n_trivial=low.n_trivial,
        n_at_minus_one=int(np.sum(np.abs(f + 1.0) < tol)),
        max_difference=float(cost[i, j].max()),
        abscissa_full=float(full.abscissa[0]),
        abscissa_lowrank=float(low.abscissa[0]),
        tol=tol,
    )


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


def _int_sequence(values: Any) -> list[Any]:
    items = list(values) if isinstance(values, Sequence | np.ndarray) else None
    if not items:
        raise ValueError(f"N_values must be a non-empty sequence of integers, got {values!r}")
    return [int(v) if isinstance(v, np.integer) else v for v in items]


def _draw_size(
    N: Any, alpha: Any, seed: Any, n_name: str = "N", alpha_name: str = "alpha"
) -> tuple[int, int, int]:
    """Validated (N, P = round(α N), seed) with 1 <= P < N; messages use the callers' names."""
    N = check_positive_int(N, n_name, minimum=2)
    alpha = check_fraction(alpha, alpha_name, 0.0, 1.0)
    seed = check_positive_int(seed, "seed", minimum=0)
    P = round(alpha * N)
    if not 1 <= P < N:
        raise ValueError(
            f"{alpha_name} must give 1 <= P = round(alpha N) < {n_name}, got alpha={alpha!r} "
            f"(P={P}, N={N})"
        )
    check_size(N * P, n_name, "entries of X and Y (N * P)", MAX_ELEMENTS, "use a smaller N")
    return N, P, seed


def _view(
    N: Any, alpha: Any, rho_xy: Any, sigma_x: Any, sigma_y: Any, c: Any, seed: Any
) -> EnsembleView:
    """Eq. 21-23 view: cached eig(Y†E), mapped to −c + ρ s + s√(1−ρ²) eig(Y†E), s = σ_x/σ_y."""
    N, P, seed = _draw_size(N, alpha, seed)
    sx, sy = check_beta(sigma_x, "sigma_x"), check_beta(sigma_y, "sigma_y")
    rho = check_fraction(rho_xy, "rho_xy", -1.0, 1.0, open_lo=False, open_hi=False)
    c = check_finite_float(c, "c")
    s = sx / sy
    ev = -c + s * rho + s * math.sqrt(max(0.0, 1.0 - rho * rho)) * _unit_draw(N, P, seed)
    return _assemble(N, P, seed, ev, (sx, sy, rho, c), "gaussian")


def _assemble(
    N: int, P: int, seed: int, ev: np.ndarray, params: tuple[float, ...], kind: str
) -> EnsembleView:
    """EnsembleView with the Eq. 21-22 disc at the drawn load P/N and α_S of Eq. 23."""
    sx, sy, rho, c = params
    return EnsembleView(
        N=N,
        P=P,
        seed=seed,
        eigenvalues=ev,
        n_trivial=N - P,
        disc=ensemble_disc(P / N, sx, sy, rho, c),
        alpha_s=ensemble_alpha_s(sx, sy, rho, c),
        kind=kind,
    )


@functools.lru_cache(maxsize=256)
def _unit_draw(N: int, P: int, seed: int) -> np.ndarray:
    """eig(Y†E) for unit, independent Y and E: ``paired_ensemble_spectrum`` with ρ = 0."""
    ev = paired_ensemble_spectrum(N, P / N, 1.0, 1.0, 0.0, rng=seed)
    ev.setflags(write=False)  # shared by every cached caller
    return ev


def _ensemble_parameters(theory: StabilityTheory) -> tuple[float, float, float]:
    """(σ_x, σ_y, ρ_xy) = (√c_ff, √c_rr, c_rf/√(c_rr c_ff)) of note §2.3, ρ clipped to [−1, 1]."""
    sx, sy = math.sqrt(theory.c_ff), math.sqrt(theory.c_rr)
    return sx, sy, min(1.0, max(-1.0, theory.c_rf / (sx * sy)))
