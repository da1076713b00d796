"""The bulk of the Jacobian spectrum at a stored pattern against Eqs. 10-11 of the paper.

Paper: U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor
neural networks*. "note §" refers to ``shared/notes/03-attractor-stability.md`` (§1.6, §2.3,
§3.3 "Bulk edge vs Eq. 10", pitfalls 4-7).

Notation map
------------
- N, P, α = P/N, CV, σ, n        -> ``N``, ``P``, ``alpha``, ``cv``, ``sigma``, ``n``
- θ, θ − θ*_bulk (Eq. 16)         -> ``theta``, ``theta_shift`` (θ* is the empirical −mean g⁻¹(R))
- R, R† = (RᵀR)⁻¹Rᵀ, V = u + θ    -> cached per (N, P, CV, seed); V per call
- D_μ = diag(d(r^μ))              -> the row gains; ``gain_mode`` substitutes them
- K_μ = R† D_μ V (P × P)          -> the low-rank part of J*_μ = −I + D_μ V R† (Eq. 9)
- φ(r) = d(r)(u(r) + θ)           -> ``SpectrumView.phi`` (Fig. 2a inset, Eq. 13)
- τ_mem (Eq. 14)                  -> ``SpectrumView.tau_mem`` (one pattern, over neurons)
- λ_bulk (Eq. 10)                 -> ``SpectrumView.lambda_bulk`` = ``theory.bulk_edge(alpha)``

Eigenvalues are in units of 1/τ (τ = 1). Weights are the pseudo-inverse rule (Eq. 8), whose
Jacobian has N − P eigenvalues exactly −1 (kept out of ``eigenvalues``, counted in
``n_trivial``, pitfall 4); the other P are eig(K_μ) − 1 (note §1.6).

``gain_mode`` is an experiment of the note (§3.3, [measured]), not the paper's: replacing
D_μ by ⟨d⟩I (``"mean"``) or by a random permutation of the same gains (``"shuffled"``) shows
that the bulk's extension beyond Eq. 10 comes from the row-multiplicative gain heterogeneity.
Outside ``"pattern"`` the matrix is no longer the network's Jacobian.

Public functions
----------------
spectrum_view (result ``SpectrumView``), bulk_edge_table (rows ``BulkEdgeRow``),
edge_deviations (result ``EdgeDeviations``), gain_swap (result ``GainSwap``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    as_real_array,
    as_real_vector,
    check_fraction,
    check_option,
    check_positive_int,
)
from assocmem.attractor._domain import (
    check_cv,
    check_exponent,
    check_matrix_size,
    check_sigma,
    check_theta,
    cv_vector,
)
from assocmem.attractor.meanfield import StabilityTheory, theory
from assocmem.attractor.network import _memory_outliers
from assocmem.attractor.rates import activation_inverse, gain, sample_patterns

__all__ = [
    "GAIN_MODES",
    "BulkEdgeRow",
    "EdgeDeviations",
    "GainSwap",
    "SpectrumView",
    "bulk_edge_table",
    "edge_deviations",
    "gain_swap",
    "spectrum_view",
]

#: Row gains used in K_μ = R† D V: the pattern's own (the Jacobian), their mean, or shuffled.
GAIN_MODES = ("pattern", "mean", "shuffled")
_RADIUS_QUANTILE = 0.9  # radius containing 90 % of the P eigenvalues (robust to outliers)


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SpectrumView:
    """Spectrum of J_μ at the first ``patterns`` stored patterns, with the theory (Eqs. 10-15).

    Attributes
    ----------
    N, P : int
        Neurons and stored patterns; ``alpha`` = P/N.
    cv, sigma, n : float
        Pattern CV and activation parameters (Eq. 3).
    theta, theta_shift : float
        The network's threshold θ = θ*_bulk + ``theta_shift`` (θ*_bulk = −mean g⁻¹(R), Eq. 16).
    seed : int
        Seed of the patterns.
    gain_mode : str
        One of :data:`GAIN_MODES`.
    eigenvalues : ndarray of complex, shape (m, P)
        The P nontrivial eigenvalues per examined pattern.
    n_trivial : int
        N − P eigenvalues exactly −1, not in ``eigenvalues`` (pitfall 4).
    abscissa : ndarray, shape (m,)
        Spectral abscissa max Re λ (the −1's included).
    lambda_mem : ndarray of complex, shape (m,)
        Empirical λ_mem: eigenvalue whose eigenvector correlates most with r^μ (pitfall 7).
    mem_corr : ndarray, shape (m,)
        That |correlation|; λ_mem is a clean outlier only when it is > 0.8.
    bulk_edge : ndarray, shape (m,)
        Largest real part once λ_mem (and its conjugate) is removed (note §3.3).
    bulk_mean : ndarray, shape (m,)
        Mean real part of the P nontrivial eigenvalues (compare with ``theory.center``).
    bulk_radius : ndarray, shape (m,)
        90 % quantile of |λ − mean λ| over the P eigenvalues (a size robust to the outliers).
    theory : StabilityTheory
        :func:`assocmem.attractor.theory` at (CV, σ, n) and the network's θ.
    r, phi : ndarray, shape (N,)
        Rates r^μ and φ(r^μ) = d(r^μ)(g⁻¹(r^μ) + θ) of the first examined pattern (Eq. 13).
    tau_mem : float
        corrcoef(r^μ, φ(r^μ)) of that pattern (Eq. 14, one pattern).
    slope, intercept : float
        OLS fit φ ≈ intercept + slope · r; slope − 1 is that pattern's λ^μ_mem (Eq. 15).
    """

    N: int
    P: int
    cv: float
    sigma: float
    n: float
    theta: float
    theta_shift: float
    seed: int
    gain_mode: str
    eigenvalues: np.ndarray
    n_trivial: int
    abscissa: np.ndarray
    lambda_mem: np.ndarray
    mem_corr: np.ndarray
    bulk_edge: np.ndarray
    bulk_mean: np.ndarray
    bulk_radius: np.ndarray
    theory: StabilityTheory
    r: np.ndarray
    phi: np.ndarray
    tau_mem: float
    slope: float
    intercept: float

    @property
    def alpha(self) -> float:
        """Load α = P/N."""
        return self.P / self.N

    @property
    def lambda_bulk(self) -> float:
        """Right edge of the theory disc at this load, Eq. 10."""
        return float(self.theory.bulk_edge(self.alpha))

    @property
    def radius(self) -> float:
        """Radius of the theory disc, k √(α/(1−α)) (Eq. 10)."""
        return self.theory.radius_coef * float(np.sqrt(self.alpha / (1.0 - self.alpha)))


@dataclass(frozen=True)
class BulkEdgeRow:
    """One row of the bulk-edge table (note §3.3): Eq. 10 against the measured edge.

    Attributes
    ----------
    cv, sigma, n, alpha : float
        Parameters (θ = θ*_bulk).
    N, patterns : int
        Network size and number of patterns examined.
    lambda_bulk : float
        Eq. 10.
    edge_mean, edge_std : float
        Mean and standard deviation over patterns of the empirical bulk edge.
    center, bulk_mean : float
        Theory centre −1 + c_rf/c_rr and the mean real part of the P eigenvalues.
    lambda_mem, lambda_mem_emp, mem_corr : float
        Eq. 15, the mean empirical λ_mem (real part) and the mean |correlation|.
    abscissa : float
        Mean spectral abscissa.
    """

    cv: float
    sigma: float
    n: float
    alpha: float
    N: int
    patterns: int
    lambda_bulk: float
    edge_mean: float
    edge_std: float
    center: float
    bulk_mean: float
    lambda_mem: float
    lambda_mem_emp: float
    mem_corr: float
    abscissa: float

    @property
    def diff(self) -> float:
        """Empirical bulk edge − λ_bulk (> 0: the bulk reaches further right than Eq. 10)."""
        return self.edge_mean - self.lambda_bulk


@dataclass(frozen=True)
class EdgeDeviations:
    """Empirical bulk edge − λ_bulk (Eq. 10) over patterns, loads and seeds, per CV (Fig. 2c).

    Attributes
    ----------
    cvs : ndarray, shape (c,)
        Pattern CVs.
    alphas : ndarray, shape (a,)
        Loads pooled.
    sigma, n : float
        Activation parameters (θ = θ*_bulk).
    N : int
        Network size.
    diffs : ndarray, shape (c, k)
        Every difference (k = a · seeds · patterns per CV).
    edges : ndarray, shape (bins + 1,)
        Histogram bin edges, shared by all CVs.
    density : ndarray, shape (c, bins)
        Normalised histograms of ``diffs`` (area 1 per CV).
    """

    cvs: np.ndarray
    alphas: np.ndarray
    sigma: float
    n: float
    N: int
    diffs: np.ndarray
    edges: np.ndarray
    density: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        """Mean difference per CV, shape (c,)."""
        return self.diffs.mean(axis=1)


@dataclass(frozen=True, eq=False)
class GainSwap:
    """The same network's K_μ = R† D V with D from each of :data:`GAIN_MODES` (note §3.3).

    Attributes
    ----------
    views : tuple of SpectrumView
        One per mode, in the order of ``modes``.
    modes : tuple of str
        The gain modes.
    """

    views: tuple[SpectrumView, ...]
    modes: tuple[str, ...]

    def view(self, mode: str) -> SpectrumView:
        """The view of one gain mode."""
        return self.views[self.modes.index(mode)]


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def spectrum_view(
    N: int = 500,
    alpha: float = 0.3,
    cv: float = 1.0,
    sigma: float = 1.0,
    n: float = 1.0,
    theta_shift: float = 0.0,
    seed: int = 0,
    patterns: int = 1,
    gain_mode: str = "pattern",
) -> SpectrumView:
    """Eigenvalues of J_μ = −I + D_μ V R† at stored patterns, next to Eqs. 10, 12, 14, 15.

    Notes
    -----
    P = round(α N) log-normal patterns (mean 1, coefficient of variation CV) are stored with the
    pseudo-inverse rule W = V R† (Eq. 8), θ = θ*_bulk + ``theta_shift`` (Eq. 16, empirical
    mean). J*_μ (Eq. 9) has N − P eigenvalues −1; the other P are eig(K_μ) − 1 with the P × P
    matrix K_μ = R† D_μ V (note §1.6), so W is never formed. R and R† are cached per
    (N, P, CV, seed) (``functools.lru_cache``); a change of σ, n or θ recomputes only
    V = g⁻¹(R) + θ, the gains and K_μ, which keeps a live update at N = 500 under 0.1 s.

    The theory (``theory``) is :func:`assocmem.attractor.theory` at the network's θ: the disc of
    Eq. 10 (centre −1 + c_rf/c_rr, radius k √(α/(1−α))), λ_ave (Eq. 12), λ_mem (Eq. 15).
    Eq. 10 is approximate for the real Jacobian (note §3.3, pitfall 5): the centre is right,
    the right edge is usually further right at α <= 0.3, and the disc moves with θ (through
    c_ff) while the true bulk does not (pitfall 6).

    ``gain_mode`` (note §3.3, [measured], not the paper's): ``"pattern"`` uses D_μ (the
    Jacobian), ``"mean"`` replaces D_μ by ⟨d⟩I (the mean of d(r^μ)), ``"shuffled"`` by a random
    permutation of d(r^μ) over the neurons (fixed seed), breaking the link between a row's gain
    and its stored rate while keeping the gain distribution.

    Parameters
    ----------
    N : int
        Neurons, >= 10 (the N × P pattern matrix is capped at ``MAX_ELEMENTS`` entries).
    alpha : float
        Load in (0, 1); P = round(α N) must satisfy 2 <= P < N.
    cv : float
        Coefficient of variation of the rates, in (0, 1e6].
    sigma : float
        Smoothness σ of Eq. 3, in [0, 1e6].
    n : float
        Exponent n of Eq. 3, in (0, 100].
    theta_shift : float
        θ − θ*_bulk, in [−1e6, 1e6].
    seed : int
        Seed (>= 0) of the patterns.
    patterns : int
        Number of patterns examined (the first ones), in [1, P].
    gain_mode : {"pattern", "mean", "shuffled"}
        Row gains used in K_μ.

    Returns
    -------
    SpectrumView

    Examples
    --------
    The low-rank part holds P eigenvalues, the rest sit at −1; the bulk centre matches the
    theory (note §3.4 T7):

    >>> v = spectrum_view(N=200, alpha=0.25)
    >>> v.eigenvalues.shape, v.n_trivial
    ((1, 50), 150)
    >>> bool(abs(v.bulk_mean[0] - v.theory.center) < 0.05)
    True
    """
    N = check_positive_int(N, "N", minimum=10)
    P = _check_load(alpha, N, "alpha")
    cv, sigma, n = check_cv(cv), check_sigma(sigma), check_exponent(n)
    theta_shift = check_theta(theta_shift, "theta_shift")
    seed = check_positive_int(seed, "seed", minimum=0)
    gain_mode = check_option(gain_mode, "gain_mode", GAIN_MODES)
    m = check_positive_int(patterns, "patterns", minimum=1, maximum=P)
    return _spectrum_view(N, P, cv, sigma, n, theta_shift, seed, m, gain_mode)


def _check_load(alpha: Any, N: int, name: str) -> int:
    """P = round(α N) for a load α in (0, 1); 2 <= P < N is required (and a size cap)."""
    alpha = check_fraction(alpha, name, 0.0, 1.0)
    P = round(alpha * N)
    if not 2 <= P < N:
        raise ValueError(f"{name} must give 2 <= P = round({name} N) < N, got P={P} for N={N}")
    check_matrix_size(N, P, "N")
    return P


def _spectrum_view(
    N: int,
    P: int,
    cv: float,
    sigma: float,
    n: float,
    theta_shift: float,
    seed: int,
    m: int,
    gain_mode: str,
) -> SpectrumView:
    """:func:`spectrum_view` on validated arguments (P patterns, the first m examined)."""
    R, R_pinv = _patterns_and_pinv(N, P, cv, seed)
    U = activation_inverse(R, sigma, n)
    theta = -float(U.mean()) + theta_shift  # Eq. 16 (empirical) + shift
    V = U + theta
    Rm = R[:, :m]
    D = _row_gains(Rm, sigma, n, gain_mode, seed)
    lam, lam_mem, corr, edge = _lowrank_spectra(R_pinv, V, D, Rm)
    r0 = R[:, 0]
    phi = gain(r0, sigma, n) * (U[:, 0] + theta)  # φ(r) = d(r)(u + θ), Eq. 13
    tau_mem, slope, intercept = _affine_fit(r0, phi)
    dev = np.abs(lam - lam.mean(axis=1, keepdims=True))
    return SpectrumView(
        N=N,
        P=P,
        cv=cv,
        sigma=sigma,
        n=n,
        theta=theta,
        theta_shift=theta_shift,
        seed=seed,
        gain_mode=gain_mode,
        eigenvalues=lam,
        n_trivial=N - P,
        abscissa=np.maximum(lam.real.max(axis=1), -1.0),
        lambda_mem=lam_mem,
        mem_corr=corr,
        bulk_edge=edge,
        bulk_mean=lam.real.mean(axis=1),
        bulk_radius=np.quantile(dev, _RADIUS_QUANTILE, axis=1),
        theory=theory(cv, sigma, n, theta=theta),
        r=r0,
        phi=phi,
        tau_mem=tau_mem,
        slope=slope,
        intercept=intercept,
    )


def bulk_edge_table(
    rows: Sequence[Sequence[float]], N: int = 1000, patterns: int = 4, seed: int = 0
) -> tuple[BulkEdgeRow, ...]:
    """Eq. 10 against the measured right edge of the bulk, one row per (CV, σ, n, α) (note §3.3).

    Notes
    -----
    For every row one network is built at θ = θ*_bulk (Eq. 8 weights) and the first
    ``patterns`` Jacobians are diagonalised (:func:`spectrum_view`). The empirical edge is the
    largest real part after removing the λ_mem eigenvalue (note §3.3). The paper presents
    Eq. 10 as predicting the edge; the note measured it further right at α <= 0.3 (by +0.01 to
    +0.035 at CV <= 1 and up to +0.2 at CV = 3 or n ≠ 1) and left of it at large α or small σ.

    Parameters
    ----------
    rows : array_like, shape (k, 4)
        Parameter sets (cv, sigma, n, alpha), k >= 1; each is validated as in
        :func:`spectrum_view` and named ``rows[i]`` in an error.
    N : int
        Neurons (>= 10).
    patterns : int
        Patterns examined per row (>= 1, at most P).
    seed : int
        Seed of the patterns (the same for every row, so rows sharing (CV, α) share R).

    Returns
    -------
    tuple of BulkEdgeRow

    Examples
    --------
    >>> t = bulk_edge_table([(1.0, 1.0, 1.0, 0.3)], N=200, patterns=2)
    >>> bool(abs(t[0].bulk_mean - t[0].center) < 0.05)
    True
    """
    table = as_real_array(rows, "rows", ndim=2)
    if table.shape[1] != 4:
        raise ValueError(f"rows must have shape (k, 4): (cv, sigma, n, alpha), got {table.shape}")
    N = check_positive_int(N, "N", minimum=10)
    patterns = check_positive_int(patterns, "patterns", minimum=1)
    seed = check_positive_int(seed, "seed", minimum=0)
    items = []
    for i, (cv, sigma, n, alpha) in enumerate(table.tolist()):
        where = f"rows[{i}]"
        P = _check_load(alpha, N, f"{where} alpha")
        if patterns > P:
            raise ValueError(f"patterns must be <= P = {P} of {where}, got {patterns}")
        params = (check_cv(cv, f"{where} cv"), check_sigma(sigma, f"{where} sigma"))
        items.append((*params, check_exponent(n, f"{where} n"), alpha, P))
    out = []
    for cv, sigma, n, alpha, P in items:
        v = _spectrum_view(N, P, cv, sigma, n, 0.0, seed, patterns, "pattern")
        out.append(
            BulkEdgeRow(
                cv=v.cv,
                sigma=v.sigma,
                n=v.n,
                alpha=float(alpha),
                N=v.N,
                patterns=len(v.abscissa),
                lambda_bulk=v.lambda_bulk,
                edge_mean=float(v.bulk_edge.mean()),
                edge_std=float(v.bulk_edge.std()),
                center=v.theory.center,
                bulk_mean=float(v.bulk_mean.mean()),
                lambda_mem=v.theory.lambda_mem,
                lambda_mem_emp=float(v.lambda_mem.real.mean()),
                mem_corr=float(v.mem_corr.mean()),
                abscissa=float(v.abscissa.mean()),
            )
        )
    return tuple(out)


def edge_deviations(
    cvs: Sequence[float] = (0.5, 1.0, 2.0, 3.0),
    alphas: Sequence[float] = (0.1, 0.2, 0.3, 0.4),
    N: int = 500,
    sigma: float = 1.0,
    n: float = 1.0,
    patterns: int = 4,
    seeds: int = 2,
    bins: int = 30,
) -> EdgeDeviations:
    """Empirical bulk edge − λ_bulk (Eq. 10) pooled over loads, seeds and patterns (Fig. 2c).

    Notes
    -----
    For each CV, every load in ``alphas`` and seeds 0 … ``seeds`` − 1 give one network at
    θ = θ*_bulk; the first ``patterns`` Jacobians each contribute one difference. The densities
    are histograms over common bins spanning all differences (plus a margin), so the figure
    ships no raw samples.

    Parameters
    ----------
    cvs : sequence of float
        Pattern CVs in (0, 1e6], at least one.
    alphas : sequence of float
        Loads in (0, 1), at least one, each with 2 <= round(α N) < N.
    N : int
        Neurons (>= 10).
    sigma, n : float
        Activation parameters, σ in [0, 1e6], n in (0, 100].
    patterns, seeds, bins : int
        Patterns per network (1 <= patterns <= P at the smallest load), networks per load
        (>= 1), histogram bins (>= 2).

    Returns
    -------
    EdgeDeviations

    Examples
    --------
    >>> dev = edge_deviations(cvs=(1.0,), alphas=(0.2,), N=100, patterns=2, seeds=1, bins=4)
    >>> dev.diffs.shape, dev.density.shape
    ((1, 2), (1, 4))
    """
    cv_arr = cv_vector(cvs, "cvs")
    a_arr = as_real_vector(alphas, "alphas", 0.0, 1.0, open_lo=True, open_hi=True)
    N = check_positive_int(N, "N", minimum=10)
    sigma, n = check_sigma(sigma), check_exponent(n)
    loads = [(float(a), _check_load(a, N, "alphas")) for a in a_arr]
    patterns = check_positive_int(patterns, "patterns", minimum=1, maximum=min(P for _, P in loads))
    seeds = check_positive_int(seeds, "seeds")
    bins = check_positive_int(bins, "bins", minimum=2)
    diffs = np.asarray([_edge_minus_eq10(c, loads, N, sigma, n, patterns, seeds) for c in cv_arr])
    lo, hi = float(diffs.min()), float(diffs.max())
    pad = 0.05 * max(hi - lo, 1e-3)
    edges = np.linspace(lo - pad, hi + pad, bins + 1)
    density = np.asarray([np.histogram(d, bins=edges, density=True)[0] for d in diffs])
    return EdgeDeviations(
        cvs=cv_arr,
        alphas=a_arr,
        sigma=float(sigma),
        n=float(n),
        N=int(N),
        diffs=diffs,
        edges=edges,
        density=density,
    )


def gain_swap(
    N: int = 1000,
    alpha: float = 0.2,
    cv: float = 1.0,
    sigma: float = 1.0,
    n: float = 1.0,
    patterns: int = 2,
    seed: int = 0,
) -> GainSwap:
    """The swap experiment of note §3.3: the same network with D_μ, ⟨d⟩I and shuffled gains.

    Notes
    -----
    [measured, note §3.3] With D_μ → ⟨d⟩I the cloud shrinks to a radius of about 0.03 (at
    CV = σ = n = 1, α = 0.2); with the gains shuffled over the neurons the edge does not move.
    So the bulk's extension beyond Eq. 10 comes from the row-multiplicative gain heterogeneity,
    not from the non-Gaussian rates.

    Parameters
    ----------
    N, alpha, cv, sigma, n, patterns, seed
        As in :func:`spectrum_view` (θ = θ*_bulk).

    Returns
    -------
    GainSwap

    Examples
    --------
    >>> sw = gain_swap(N=300, patterns=1)
    >>> bool(sw.view("mean").bulk_radius[0] < sw.view("pattern").bulk_radius[0])
    True
    """
    N = check_positive_int(N, "N", minimum=10)
    P = _check_load(alpha, N, "alpha")
    cv, sigma, n = check_cv(cv), check_sigma(sigma), check_exponent(n)
    m = check_positive_int(patterns, "patterns", minimum=1, maximum=P)
    seed = check_positive_int(seed, "seed", minimum=0)
    views = tuple(_spectrum_view(N, P, cv, sigma, n, 0.0, seed, m, mode) for mode in GAIN_MODES)
    return GainSwap(views=views, modes=GAIN_MODES)


# --------------------------------------------------------------------------------------------
# Private kernels
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)
def _patterns_and_pinv(N: int, P: int, cv: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """R (N × P, log-normal, mean 1) and R† = solve(RᵀR, Rᵀ) (Eq. 8), read-only, cached."""
    R = sample_patterns(N, P, cv, rng=seed)
    R_pinv = np.linalg.solve(R.T @ R, R.T)
    R.flags.writeable = False
    R_pinv.flags.writeable = False
    return R, R_pinv


def _row_gains(Rm: np.ndarray, sigma: float, n: float, mode: str, seed: int) -> np.ndarray:
    """Row gains (m, N): d(r^μ) (Eq. 5), their mean ⟨d⟩, or a permutation (note §3.3)."""
    D = gain(Rm, sigma, n).T
    if mode == "mean":
        return np.broadcast_to(D.mean(axis=1, keepdims=True), D.shape)
    if mode == "shuffled":
        gen = np.random.default_rng(seed + 1)
        return np.asarray([gen.permutation(d) for d in D])
    return D


def _lowrank_spectra(
    R_pinv: np.ndarray, V: np.ndarray, D: np.ndarray, Rm: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """eig(K_μ) − 1 with K_μ = R† D_μ V (Eq. 9, note §1.6), λ_mem, |corr| and the bulk edge."""
    Vbar = D[:, :, None] * V[None, :, :]  # D_μ V, (m, N, P)
    ev, vecs = np.linalg.eig(R_pinv[None, :, :] @ Vbar)
    lam = ev - 1.0
    lam_mem, corr, edge = _memory_outliers(lam, vecs, Vbar, Rm.T)
    return lam, lam_mem, corr, edge


def _edge_minus_eq10(
    cv: float,
    loads: list[tuple[float, int]],
    N: int,
    sigma: float,
    n: float,
    patterns: int,
    seeds: int,
) -> np.ndarray:
    """Empirical bulk edge − λ_bulk (Eq. 10) for every (α, P), seed and pattern at one CV."""
    th = theory(cv, sigma, n)
    out = [
        _spectrum_view(N, P, cv, sigma, n, 0.0, s, patterns, "pattern").bulk_edge - th.bulk_edge(a)
        for a, P in loads
        for s in range(seeds)
    ]
    return np.concatenate(out)


def _affine_fit(r: np.ndarray, phi: np.ndarray) -> tuple[float, float, float]:
    """corrcoef(r, φ) (Eq. 14) and the OLS line φ ≈ a + b r (b − 1 = λ^μ_mem, Eq. 15)."""
    rc, pc = r - r.mean(), phi - phi.mean()
    var_r, var_p = float(rc @ rc), float(pc @ pc)
    slope = float(rc @ pc) / var_r
    tau = float(rc @ pc) / np.sqrt(var_r * var_p) if var_p > 0 else 1.0
    return float(tau), slope, float(phi.mean() - slope * r.mean())
