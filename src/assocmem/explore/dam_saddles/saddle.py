"""Figures for the section "Teacher–student: the saddle-point equations" (``ds-saddle``).

Source: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025),
Sec. 2.2 and 3.1, Eqs. 9 and 22, App. E and G. The model quantities come from
:mod:`assocmem.potts_dam.saddle` (the damped saddle-point iteration, the batched phase diagram,
the split threshold and the Gibbs sampler of the student posterior) and
:mod:`assocmem.potts_dam.data` (orthonormal teacher, teacher examples). Four small *views*
assemble them for one figure each (pure functions returning frozen results); the ``plot_*``
functions take those results and compute nothing.

Notation map
------------
- β_eff = ς(2v) β, ϱ = M/(P* N), P*, P, p_h(0)   -> ``beta_eff``, ``rho``, ``P_star``, ``P``,
  ``p_h0``
- m^{μ*μ} (teacher–student overlaps, shape (P*, P))      -> ``SaddlePoint.overlaps``
- β_eff,c = √(P* + P/ϱ) (first split of P copies)         -> ``threshold``
- f/ϱ (free entropy of Eq. 22 per ϱ, up to a constant)    -> ``free_entropy``
- v = β*/N, ς(2v), β (the student's), N, M                -> ``v``, ``varsigma``, ``beta``,
  ``N``, ``M``

Every view silences the library's ``ConvergenceWarning`` (the iteration is capped so that a live
update stays fast; critical slowing down near the split line is what the figures show) and keeps
the ``converged`` flags instead.

Public functions
----------------
solver_view, pitchfork_view, phase_view, gibbs_view, threshold_scan
    The views (results ``SolverView``, ``PitchforkView``, ``PhaseView``, ``GibbsView``,
    ``ThresholdScan``; the last is a table, with no figure).
plot_solver
    The overlap matrix, the convergence trace and the free entropy of two branches.
plot_pitchfork
    Overlaps and free-entropy gain of the split branch against β_eff (the pitchfork).
plot_phase
    Heat map of the split amplitude over (ϱ, β_eff) with the analytic line.
plot_gibbs
    Specialisation and mean overlap of Gibbs samples against the saddle-point curves.
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    ConvergenceWarning,
    as_real_vector,
    as_rng,
    check_fraction,
    check_instance,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.potts_dam import data as teacher_data
from assocmem.potts_dam import saddle, vmf
from assocmem.potts_dam.saddle import SaddlePhaseDiagram, SaddlePoint

from .._checks import check_height
from .._layout import tidied
from .._panels import _axis, _panels, _vline

__all__ = [
    "GibbsView",
    "PhaseView",
    "PitchforkView",
    "SolverView",
    "ThresholdScan",
    "gibbs_view",
    "phase_view",
    "pitchfork_view",
    "plot_gibbs",
    "plot_phase",
    "plot_pitchfork",
    "plot_solver",
    "solver_view",
    "threshold_scan",
]

_INITS = ("symmetric", "specialised", "random")
_UNITS_MAX = 8  # P*, P: the figures draw a (P*, P) matrix and P lines
_BETA_MAX = 20.0  # β_eff (and the student's β of the Gibbs view) in the figures
_RHO_RANGE = (1e-2, 1e4)
_GRID_MAX = 200  # points per grid axis
_ITER_MAX = 100_000
_PITCH_ITER = 3_000  # points within ~1 % of the split line stop here (``converged`` False)
_N_MAX = 1000  # Gibbs dimension
_SWEEPS_MAX = 20_000
_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
_GREY = "#7f7f7f"


# --- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SolverView:
    """One damped solve of Eq. 9 from a chosen start, beside the symmetric branch.

    Attributes
    ----------
    point : SaddlePoint
        The solve from ``init`` (with the library's 1e-4 antisymmetric kick).
    symmetric : SaddlePoint
        The symmetric branch: symmetric start without a kick, which the iteration never leaves
        (it exists at every β_eff; above the split line it is a saddle).
    init : str
        "symmetric", "specialised" or "random".
    P_star, P : int
    p_h0 : float
        Mass p_h(0) of the outside unit.
    threshold : float or None
        β_eff,c = √(P* + P/ϱ) (:func:`~assocmem.potts_dam.saddle.split_threshold`); None when
        it does not apply (P* = 1, P = 1 or p_h(0) > 0).
    """

    point: SaddlePoint
    symmetric: SaddlePoint
    init: str
    P_star: int
    P: int
    p_h0: float
    threshold: float | None


@dataclass(frozen=True)
class PitchforkView:
    """The split and the symmetric branch of Eq. 9 along β_eff at one ϱ.

    Attributes
    ----------
    beta_eff : ndarray, shape (n,)
    rho : float
    P_star, P : int
    split : ndarray, shape (n, P*, P)
        Overlaps from the symmetric start with a 1e-4 antisymmetric kick (the stable branch).
    symmetric : ndarray, shape (n, P*, P)
        Overlaps from the symmetric start without a kick (the symmetric branch).
    gain : ndarray, shape (n,)
        f/ϱ of the split branch minus that of the symmetric branch (Eq. 22): 0 below the split
        line, > 0 above it.
    split_amplitude : ndarray, shape (n,)
        max over μ* of (max_μ − min_μ) m^{μ*μ} on the split branch.
    converged : ndarray of bool, shape (n,)
    threshold : float or None
        β_eff,c = √(P* + P/ϱ); None when P* = 1 or P = 1.
    """

    beta_eff: np.ndarray
    rho: float
    P_star: int
    P: int
    split: np.ndarray
    symmetric: np.ndarray
    gain: np.ndarray
    split_amplitude: np.ndarray
    converged: np.ndarray
    threshold: float | None


@dataclass(frozen=True)
class PhaseView:
    """The (ϱ, β_eff) phase diagram of the split amplitude, with the analytic split line.

    Attributes
    ----------
    diagram : SaddlePhaseDiagram
        From :func:`~assocmem.potts_dam.saddle.phase_diagram` (symmetric start, 1e-4 kick).
    line_rho, line_beta : ndarray, shape (200,)
        β_eff,c = √(P* + P/ϱ) on a fine ϱ grid over the diagram's range.
    P_star, P : int
    """

    diagram: SaddlePhaseDiagram
    line_rho: np.ndarray
    line_beta: np.ndarray
    P_star: int
    P: int


@dataclass(frozen=True)
class GibbsView:
    """Gibbs samples of the student posterior (Eq. 5) against the saddle point of Eq. 9.

    Attributes
    ----------
    beta : ndarray, shape (k,)
        The student's β of each Gibbs run.
    N, M, P_star, P : int
        Dimension, examples M = ϱ P* N, teacher and student units.
    v, rho, varsigma : float
        Teacher signal-to-noise β*/N, load ϱ and ς(2v), so that β_eff = ς(2v) β.
    specialisation, mean_overlap : ndarray, shape (k,)
        Gibbs averages after burn-in (see :class:`~assocmem.potts_dam.saddle.GibbsSamples`).
    theory_beta : ndarray, shape (n,)
        Fine grid of β for the saddle-point curves.
    theory_specialisation, theory_mean : ndarray, shape (n,)
        The same quantities at the saddle point, β_eff = ς(2v) β.
    theory_at_beta : ndarray, shape (k, 2)
        (specialisation, mean overlap) of the saddle point at each Gibbs β.
    beta_c : float or None
        β_c = √(P* + P/ϱ)/ς(2v); None when P* = 1 or P = 1.
    """

    beta: np.ndarray
    N: int
    M: int
    P_star: int
    P: int
    v: float
    rho: float
    varsigma: float
    specialisation: np.ndarray
    mean_overlap: np.ndarray
    theory_beta: np.ndarray
    theory_specialisation: np.ndarray
    theory_mean: np.ndarray
    theory_at_beta: np.ndarray
    beta_c: float | None


@dataclass(frozen=True)
class ThresholdScan:
    """The split amplitude of Eq. 9 at multiples of the analytic split line (check D3).

    Attributes
    ----------
    P_star : ndarray of int, shape (k,)
    rho : ndarray, shape (r,)
    factors : ndarray, shape (f,)
        β_eff/β_eff,c of the solves.
    P : int
    threshold : ndarray, shape (k, r)
        β_eff,c = √(P* + P/ϱ).
    split_amplitude : ndarray, shape (k, r, f)
    converged : ndarray of bool, shape (k, r, f)
        Whether max|Δm| < 1e-12 within ``max_iter`` (a split start with P* ≥ 3 drifts slowly
        along a flat direction just above the line; its amplitude is then the last iterate's).
    """

    P_star: np.ndarray
    rho: np.ndarray
    factors: np.ndarray
    P: int
    threshold: np.ndarray
    split_amplitude: np.ndarray
    converged: np.ndarray


# --- validation -------------------------------------------------------------------------------


def _check_beta_eff(value: Any, name: str = "beta_eff") -> float:
    return check_fraction(value, name, 0.0, _BETA_MAX, open_hi=False)


def _check_rho(value: Any, name: str = "rho") -> float:
    """ϱ in [1e-2, 1e4], or inf (the loss limit)."""
    if isinstance(value, float | int | np.floating | np.integer) and not isinstance(
        value, bool | np.bool_
    ):
        if math.isinf(float(value)) and float(value) > 0:
            return math.inf
    return check_fraction(value, name, *_RHO_RANGE, open_lo=False, open_hi=False)


def _check_units(value: Any, name: str) -> int:
    return check_positive_int(value, name, minimum=1, maximum=_UNITS_MAX)


def _threshold(P_star: int, rho: float, P: int, p_h0: float = 0.0) -> float | None:
    if P_star < 2 or P < 2 or p_h0 > 0:
        return None
    return float(saddle.split_threshold(P_star, rho, P))


# --- views ------------------------------------------------------------------------------------


def solver_view(
    beta_eff: Any = 2.5,
    rho: Any = 1.0,
    P_star: Any = 2,
    P: Any = 2,
    init: Any = "symmetric",
    damping: Any = 0.5,
    p_h0: Any = 0.0,
    max_iter: Any = 300,
) -> SolverView:
    """Solve Eq. 9 from ``init`` and on the symmetric branch, for the solver figure.

    Parameters
    ----------
    beta_eff : float
        β_eff in (0, 20].
    rho : float
        ϱ in [0.01, 10000], or inf.
    P_star, P : int
        Teacher and student units, 1 to 8.
    init : {"symmetric", "specialised", "random"}
        Start of the iteration (:func:`~assocmem.potts_dam.saddle.saddle_point`).
    damping : float
        d in [0, 0.95].
    p_h0 : float
        Mass of the outside unit p_h(0), in [0, 0.9].
    max_iter : int
        Iteration cap, 1 to 100000 (default 300: a live update stays under 100 ms; within a
        few per cent of the split line the trace ends unconverged).

    Returns
    -------
    SolverView

    Notes
    -----
    Thériault & Tantari 2025, Eq. 9 with C = 0. The symmetric branch is solved with no kick,
    so it stays in the symmetric subspace whether or not it is stable; its free entropy is the
    baseline against which a split solution wins (higher f/ϱ). The results are cached.

    Examples
    --------
    >>> v = solver_view(3.0, 1.0, 2, 2, init="specialised")
    >>> round(v.threshold, 4), v.point.free_entropy > v.symmetric.free_entropy
    (2.0, True)
    """
    b = _check_beta_eff(beta_eff)
    r = _check_rho(rho)
    K, Pn = _check_units(P_star, "P_star"), _check_units(P, "P")
    start = check_option(init, "init", _INITS)
    d = check_fraction(damping, "damping", 0.0, 0.95, open_lo=False, open_hi=False)
    p0 = check_fraction(p_h0, "p_h0", 0.0, 0.9, open_lo=False, open_hi=False)
    n = check_positive_int(max_iter, "max_iter", maximum=_ITER_MAX)
    point = _solve(b, r, K, Pn, start, 1e-4, d, p0, n)
    sym = _solve(b, r, K, Pn, "symmetric", 0.0, d, p0, n)
    return SolverView(point, sym, start, K, Pn, p0, _threshold(K, r, Pn, p0))


def pitchfork_view(
    rho: Any = 1.0,
    P_star: Any = 2,
    P: Any = 2,
    beta_max: Any = 5.0,
    points: Any = 120,
) -> PitchforkView:
    """The two branches of Eq. 9 on a β_eff grid at one ϱ (the pitchfork).

    Parameters
    ----------
    rho : float
        ϱ in [0.01, 10000], or inf.
    P_star, P : int
        Teacher and student units, 1 to 8.
    beta_max : float
        End of the β_eff grid, in (0, 20]; the grid starts at beta_max/points.
    points : int
        Grid points, 2 to 200.

    Returns
    -------
    PitchforkView

    Notes
    -----
    Two calls of :func:`~assocmem.potts_dam.saddle.phase_diagram` (batched over the grid,
    tolerance 1e-9, at most 3000 iterations, about 0.3 s): from the symmetric start with the
    1e-4 kick and without it. Above β_eff,c = √(P* + P/ϱ) the kick grows into the split
    branch, whose amplitude grows like √(β_eff − β_eff,c) (a supercritical pitchfork; our
    derivation from App. G). Cached per argument set.

    Examples
    --------
    >>> v = pitchfork_view(1.0, 2, 2, beta_max=4.0, points=4)
    >>> v.beta_eff.tolist(), (v.split_amplitude > 0.1).tolist()
    ([1.0, 2.0, 3.0, 4.0], [False, False, True, True])
    """
    r = _check_rho(rho)
    K, Pn = _check_units(P_star, "P_star"), _check_units(P, "P")
    top = _check_beta_eff(beta_max, "beta_max")
    n = check_positive_int(points, "points", minimum=2, maximum=_GRID_MAX)
    return _pitchfork(r, K, Pn, top, n)


def phase_view(
    P_star: Any = 2,
    P: Any = 2,
    n_rho: Any = 60,
    n_beta: Any = 60,
    beta_max: Any = 5.0,
) -> PhaseView:
    """The split amplitude of Eq. 9 on a (ϱ, β_eff) grid, ϱ from 0.1 to 100 (log grid).

    Parameters
    ----------
    P_star, P : int
        Teacher and student units, 2 to 8.
    n_rho, n_beta : int
        Grid points in ϱ and β_eff, 2 to 200 each (100 × 100 costs a few seconds).
    beta_max : float
        Top of the β_eff grid, in (0, 20]; the grid starts at beta_max/n_beta.

    Returns
    -------
    PhaseView

    Notes
    -----
    :func:`~assocmem.potts_dam.saddle.phase_diagram` from the symmetric start with the 1e-4
    kick, tolerance 1e-9 and at most 30000 iterations (points that hit the cap, next to the
    line, keep their last iterate). Cached per argument set, so that a menu over precomputed
    settings only redraws.

    Examples
    --------
    >>> v = phase_view(2, 2, n_rho=3, n_beta=4, beta_max=4.0)
    >>> v.diagram.split_amplitude.shape
    (3, 4)
    """
    K = check_positive_int(P_star, "P_star", minimum=2, maximum=_UNITS_MAX)
    Pn = check_positive_int(P, "P", minimum=2, maximum=_UNITS_MAX)
    nr = check_positive_int(n_rho, "n_rho", minimum=2, maximum=_GRID_MAX)
    nb = check_positive_int(n_beta, "n_beta", minimum=2, maximum=_GRID_MAX)
    top = _check_beta_eff(beta_max, "beta_max")
    return _phase(K, Pn, nr, nb, top)


def gibbs_view(
    betas: Any = (2.0, 3.0, 3.6, 4.5, 6.0, 9.0),
    P: Any = 2,
    P_star: Any = 2,
    N: Any = 200,
    v: Any = 1.0,
    rho: Any = 1.0,
    n_sweeps: Any = 600,
    burn_in: Any = 200,
    rng: Any = 0,
) -> GibbsView:
    """Gibbs sampling of the student posterior against Eq. 9, at several student β.

    Parameters
    ----------
    betas : array_like, shape (k,)
        Student inverse temperatures, each in (0, 20]; at most 12.
    P, P_star : int
        Student and teacher units, 1 to 8 (P* <= N).
    N : int
        Dimension, 10 to 1000.
    v : float
        Teacher signal-to-noise β*/N, in [0.05, 100].
    rho : float
        Load ϱ in [0.01, 100]; M = round(ϱ P* N) examples (at least 1).
    n_sweeps, burn_in : int
        Gibbs sweeps (2 to 20000) and the number discarded first (0 <= burn_in < n_sweeps).
    rng : int or numpy.random.Generator
        Seed of the teacher (orthonormal), the examples and every chain.

    Returns
    -------
    GibbsView

    Notes
    -----
    The teacher is :func:`~assocmem.potts_dam.data.orthonormal_teacher`, the examples
    :func:`~assocmem.potts_dam.data.sample_teacher_data` (vMF, κ = vN), the chains
    :func:`~assocmem.potts_dam.saddle.gibbs_student` (C = 0, p_h(0) = 0, τ = 0: the outside
    unit is off). The replica theory (Thériault & Tantari 2025, Sec. 2.2, Eq. 9) predicts the
    overlaps at β_eff = ς(2v) β as N → ∞; at finite N the symmetric phase shows a
    specialisation of order N^(-1/2) and the transition is rounded.

    Examples
    --------
    >>> g = gibbs_view([2.0], P=1, N=50, n_sweeps=50, burn_in=10)
    >>> g.mean_overlap.shape, round(g.varsigma, 4)
    ((1,), 0.618)
    """
    b = as_real_vector(betas, "betas", 0.0, _BETA_MAX, open_lo=True)
    check_size(b.size, "betas", "Gibbs runs", 12, "pass fewer β")
    Pn, K = _check_units(P, "P"), _check_units(P_star, "P_star")
    dim = check_positive_int(N, "N", minimum=10, maximum=_N_MAX)
    sn = check_fraction(v, "v", 0.05, 100.0, open_lo=False, open_hi=False)
    load = check_fraction(rho, "rho", 0.01, 100.0, open_lo=False, open_hi=False)
    sweeps = check_positive_int(n_sweeps, "n_sweeps", minimum=2, maximum=_SWEEPS_MAX)
    burn = check_positive_int(burn_in, "burn_in", minimum=0, maximum=sweeps - 1)
    M = max(1, round(load * K * dim))
    check_size(float(sweeps) * M * b.size, "n_sweeps", "example draws", 10**8, "sample less")
    gen = as_rng(rng)
    teacher = teacher_data.orthonormal_teacher(dim, K, rng=gen)
    X = teacher_data.sample_teacher_data(teacher, sn, M, rng=gen).X
    runs = [
        saddle.gibbs_student(X, teacher, Pn, float(beta), n_sweeps=sweeps, burn_in=burn, rng=gen)
        for beta in b
    ]
    s = float(vmf.varsigma(2.0 * sn))
    fine = np.linspace(b.min() / 4, b.max() * 1.1, 120)
    grid = np.unique(np.concatenate([fine, b]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        pd = saddle.phase_diagram([load], s * grid, K, Pn, max_iter=30_000)
    at = np.searchsorted(grid, b)
    spec, mean = pd.specialisation[0], pd.mean_overlap[0]
    return GibbsView(
        beta=b,
        N=dim,
        M=M,
        P_star=K,
        P=Pn,
        v=sn,
        rho=load,
        varsigma=s,
        specialisation=np.array([g.specialisation for g in runs]),
        mean_overlap=np.array([float(g.mean_overlap.mean()) for g in runs]),
        theory_beta=grid,
        theory_specialisation=spec,
        theory_mean=mean,
        theory_at_beta=np.stack([spec[at], mean[at]], axis=1),
        beta_c=None if K < 2 or Pn < 2 else _threshold(K, load, Pn) / s,
    )


def threshold_scan(
    P_stars: Any = (2, 3, 4),
    rhos: Any = (math.inf, 2.0, 0.5),
    factors: Any = (0.99, 1.01, 1.1),
    P: Any = 2,
    max_iter: Any = 4000,
) -> ThresholdScan:
    """Solve Eq. 9 just below and above β_eff,c = √(P* + P/ϱ) for several P* and ϱ.

    Parameters
    ----------
    P_stars : array_like of int, shape (k,)
        Teacher units, each 2 to 8; at most 8 values.
    rhos : array_like, shape (r,)
        Loads ϱ, each in [0.01, 10000] or inf; at most 8 values.
    factors : array_like, shape (f,)
        β_eff/β_eff,c, each in [0.5, 2]; at most 8 values.
    P : int
        Student units, 2 to 8.
    max_iter : int
        Iteration cap per (P*, ϱ), 1 to 100000.

    Returns
    -------
    ThresholdScan

    Notes
    -----
    One batched :func:`~assocmem.potts_dam.saddle.phase_diagram` per (P*, ϱ), from the
    symmetric start with the 1e-4 kick, tolerance 1e-12. Below the line the kick decays (split
    amplitude 0); above it the solution splits (our derivation of the line from Thériault &
    Tantari 2025, Eq. 9 and App. G; note check D3: amplitude ≈ 0.10-0.15 at 1.01 β_eff,c and
    0.29-0.48 at 1.1 β_eff,c).

    Examples
    --------
    >>> t = threshold_scan([2], [1.0], [0.9, 1.2])
    >>> t.threshold.tolist(), (t.split_amplitude > 0.05).tolist()
    ([[2.0]], [[[False, True]]])
    """
    Ks = as_real_vector(P_stars, "P_stars", 2, _UNITS_MAX, open_lo=False, open_hi=False)
    if bool(np.any(Ks != np.round(Ks))):
        raise ValueError(f"P_stars must hold whole numbers in [2, {_UNITS_MAX}], got {Ks!r}")
    rs = _check_rhos(rhos)
    fs = as_real_vector(factors, "factors", 0.5, 2.0, open_lo=False, open_hi=False)
    for name, arr in (("P_stars", Ks), ("rhos", rs), ("factors", fs)):
        check_size(arr.size, name, "values", 8, "pass fewer")
    Pn = check_positive_int(P, "P", minimum=2, maximum=_UNITS_MAX)
    n = check_positive_int(max_iter, "max_iter", maximum=_ITER_MAX)
    K_int = Ks.astype(int)
    line = np.array([[_threshold(int(K), float(r), Pn) for r in rs] for K in K_int])
    amp = np.zeros((Ks.size, rs.size, fs.size))
    conv = np.zeros(amp.shape, dtype=bool)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for i, K in enumerate(K_int):
            for j, r in enumerate(rs):
                pd = saddle.phase_diagram([r], line[i, j] * fs, int(K), Pn, tol=1e-12, max_iter=n)
                amp[i, j], conv[i, j] = pd.split_amplitude[0], pd.converged[0]
    return ThresholdScan(K_int, rs, fs, Pn, line, amp, conv)


def _check_rhos(values: Any) -> np.ndarray:
    """ϱ values as a 1-D float array, each in [0.01, 1e4] or inf."""
    if isinstance(values, numbers.Real) and not isinstance(values, bool | np.bool_):
        values = [values]
    arr = np.asarray(values) if isinstance(values, list | tuple | np.ndarray) else None
    if arr is None or arr.dtype.kind not in "iuf" or arr.ndim != 1 or arr.size == 0:
        raise TypeError(f"rhos must be a non-empty 1-D sequence of numbers, got {values!r:.80}")
    return np.array([_check_rho(float(x), "rhos") for x in arr])


@functools.lru_cache(maxsize=256)
def _solve(
    b: float, r: float, K: int, P: int, init: str, kick: float, d: float, p0: float, n: int
) -> SaddlePoint:
    """saddle_point with its warning silenced (cached: a live move back redraws only)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return saddle.saddle_point(
            b, r, K, P, init=init, perturbation=kick, damping=d, p_h=p0, max_iter=n
        )


@functools.lru_cache(maxsize=64)
def _pitchfork(r: float, K: int, P: int, top: float, n: int) -> PitchforkView:
    grid = np.linspace(top / n, top, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        split = saddle.phase_diagram([r], grid, K, P, max_iter=_PITCH_ITER)
        sym = saddle.phase_diagram([r], grid, K, P, perturbation=0.0, max_iter=_PITCH_ITER)
    return PitchforkView(
        beta_eff=grid,
        rho=r,
        P_star=K,
        P=P,
        split=split.overlaps[0],
        symmetric=sym.overlaps[0],
        gain=split.free_entropy[0] - sym.free_entropy[0],
        split_amplitude=split.split_amplitude[0],
        converged=split.converged[0],
        threshold=_threshold(K, r, P),
    )


@functools.lru_cache(maxsize=16)
def _phase(K: int, P: int, nr: int, nb: int, top: float) -> PhaseView:
    rho = np.geomspace(0.1, 100.0, nr)
    beta = np.linspace(top / nb, top, nb)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        pd = saddle.phase_diagram(rho, beta, K, P, max_iter=30_000)
    line_rho = np.geomspace(0.1, 100.0, 200)
    return PhaseView(pd, line_rho, saddle.split_threshold(K, line_rho, P), K, P)


# --- figures ----------------------------------------------------------------------------------


def _line(x: Any, y: Any, refs: tuple[str, str], name: str, **style: Any) -> dict[str, Any]:
    y = np.asarray(y, dtype=float)
    return {
        "type": "scatter",
        "mode": "lines",
        "x": np.round(np.asarray(x, dtype=float), 5),
        "y": _significant(y) if style.pop("log", False) else np.round(y, 5),
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        **style,
    }


def _significant(y: np.ndarray) -> np.ndarray:
    """Four significant digits (values on a log axis span many decades)."""
    return np.array([float(f"{v:.4g}") for v in y])


def _threshold_name(value: float | None) -> str:
    return f"β<sub>eff,c</sub> = √(P* + P/ϱ) = {value:.3f}"


@tidied
def plot_solver(view: Any, height: int = 400) -> go.Figure:
    """The overlap matrix, the convergence trace and the free entropy of two branches.

    Parameters
    ----------
    view : SolverView
        From :func:`solver_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: m^{μ*μ} as a heat map (rows teacher units μ*, columns student units μ, values
        printed). Middle: max|Δm| per iteration (log scale) from ``init`` and on the symmetric
        branch. Right: f/ϱ of Eq. 22 on both (bars "split", or "from <init>" when the
        solution is symmetric, and "symmetric" with its overlap m; higher wins; axis from 0).
    """
    check_instance(view, "view", SolverView)
    height = check_height(height)
    v, pt = view, view.point
    layout, ((x1, y1, _), (x2, y2, _), (x3, y3, _)) = _panels(
        ["overlaps m<sup>μ*μ</sup>", "convergence", "f/ϱ"],
        widths=[1.0, 1.3, 0.8],
        spacing=0.1,
    )
    for ref in (x1, x2, x3):  # the widths' sum may round past 1
        lo, hi = layout[_axis(ref)]["domain"]
        layout[_axis(ref)]["domain"] = [lo, min(hi, 1.0)]
    units = [f"μ = {k + 1}" for k in range(v.P)]
    teachers = [f"μ* = {k + 1}" for k in range(v.P_star)]
    traces: list[dict[str, Any]] = [
        {
            "type": "heatmap",
            "z": np.round(pt.overlaps, 4),
            "x": units,
            "y": teachers,
            "zmin": -1.0,
            "zmax": 1.0,
            "colorscale": "RdBu",
            "reversescale": True,
            "showscale": False,
            "texttemplate": "%{z:.2f}",
            "xaxis": x1,
            "yaxis": y1,
            "name": "m",
            "showlegend": False,
        },
    ]
    lowest, highest = 1.0, 1e-16
    for sp, name, color in ((pt, f"from {v.init}", _COLORS[0]), (v.symmetric, "symmetric", _GREY)):
        res = np.maximum(np.asarray(sp.residuals, dtype=float), 1e-16)
        lowest, highest = min(lowest, float(res.min())), max(highest, float(res.max()))
        traces.append(
            _line(
                np.arange(1, res.size + 1),
                res,
                (x2, y2),
                name + ("" if sp.converged else " (cap)"),
                log=True,
                line={"color": color, "width": 2, "dash": "solid" if color != _GREY else "dash"},
            )
        )
    split = float(np.max(np.abs(pt.overlaps - v.symmetric.overlaps))) > 1e-6
    m_sym = float(np.asarray(v.symmetric.overlaps).flat[0])
    f = (pt.free_entropy, v.symmetric.free_entropy)
    traces.append(
        {
            "type": "bar",
            "x": ["split" if split else f"from {v.init}", "symmetric"],
            "y": [round(pt.free_entropy, 5), round(v.symmetric.free_entropy, 5)],
            "text": [f"{f[0]:.3f}", f"{f[1]:.3f}<br>m = {m_sym:.2f}"],
            "textposition": "outside",
            "cliponaxis": False,
            "marker": {"color": [_COLORS[0], _GREY]},
            "xaxis": x3,
            "yaxis": y3,
            "name": "f/ϱ",
            "showlegend": False,
        }
    )
    layout[_axis(y1)].update(autorange="reversed")
    layout[_axis(x2)].update(title={"text": "iteration"})
    span = [math.floor(math.log10(lowest)), math.ceil(math.log10(highest))]
    layout[_axis(y2)].update(
        title={"text": "max|Δm|"},
        type="log",
        range=span,
        dtick=2 if span[1] - span[0] > 6 else 1,
        exponentformat="power",
    )
    # Bars start at 0 (a truncated axis would exaggerate a few-percent difference).
    layout[_axis(y3)].update(range=[min(0.0, *f) * 1.25, max(0.0, *f) * 1.25])
    title = f"Eq. 9 at β<sub>eff</sub> = {pt.beta_eff:.3g}, ϱ = {pt.rho:.3g}"
    layout.update(
        height=height,
        title={"text": title, "font": {"size": 14}},
        legend={"orientation": "h"},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_pitchfork(view: Any, height: int = 420) -> go.Figure:
    """Overlaps of both branches and the free-entropy gain of the split against β_eff.

    Parameters
    ----------
    view : PitchforkView
        From :func:`pitchfork_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: m^{1μ} of each student unit μ on the split branch (solid) and on the symmetric
        branch (grey dashes). Right: f/ϱ(split) − f/ϱ(symmetric). The dotted line is β_eff,c.
    """
    check_instance(view, "view", PitchforkView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["overlaps with teacher unit 1", "free-entropy gain"], widths=[1.3, 1.0]
    )
    traces = [
        _line(
            v.beta_eff,
            v.split[:, 0, mu],
            (x1, y1),
            f"m<sup>1{mu + 1}</sup>, split branch",
            line={"color": _COLORS[mu % len(_COLORS)], "width": 3},
        )
        for mu in range(v.P)
    ]
    traces.append(
        _line(
            v.beta_eff,
            v.symmetric[:, 0, 0],
            (x1, y1),
            "symmetric branch",
            line={"color": _GREY, "dash": "dash", "width": 2},
        )
    )
    traces.append(
        _line(v.beta_eff, v.gain, (x2, y2), "", showlegend=False, line={"color": "black"})
    )
    if v.threshold is not None:
        for ref in ((x1, y1), (x2, y2)):
            layout["shapes"].append(_vline(v.threshold, ref[0], ref[1], color=_GREY))
        traces.append(
            _line(
                [None],
                [None],
                (x1, y1),
                _threshold_name(v.threshold),
                line={"color": _GREY, "dash": "dot"},
            )
        )
    for x in (x1, x2):
        layout[_axis(x)].update(title={"text": "β<sub>eff</sub>"})
    layout[_axis(y1)].update(title={"text": "m<sup>1μ</sup>"})
    layout[_axis(y2)].update(title={"text": "Δ(f/ϱ)"}, rangemode="tozero")
    rho = "∞" if math.isinf(v.rho) else f"{v.rho:.3g}"
    title = f"Pitchfork of Eq. 9, P* = {v.P_star}, P = {v.P}, ϱ = {rho}"
    for key in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        layout[key].update(zeroline=False)
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_phase(view: Any, height: int = 440) -> go.Figure:
    """Heat map of the split amplitude over (ϱ, β_eff), with the analytic split line.

    Parameters
    ----------
    view : PhaseView
        From :func:`phase_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        The split amplitude max_μ*(max_μ − min_μ) m^{μ*μ} on log10 ϱ (x) and β_eff (y), and
        the line β_eff,c = √(P* + P/ϱ) (black), with its ϱ → ∞ limit √P* (dotted).
    """
    check_instance(view, "view", PhaseView)
    height = check_height(height)
    pd = view.diagram
    lr = np.log10(pd.rho)
    ticks = [0.1, 1.0, 10.0, 100.0]
    traces = [
        {
            "type": "heatmap",
            "x": np.round(lr, 5),
            "y": np.round(pd.beta_eff, 5),
            "z": np.round(pd.split_amplitude.T, 4),
            "zmin": 0.0,
            "colorscale": "Viridis",
            "colorbar": {"title": {"text": "split"}, "len": 0.8},
            "name": "split amplitude",
            "showlegend": False,
            "hovertemplate": "ϱ = 10^%{x:.2f}<br>β<sub>eff</sub> = %{y:.3f}<br>"
            "split = %{z:.3f}<extra></extra>",
        },
        _line(
            np.log10(view.line_rho),
            view.line_beta,
            ("x", "y"),
            "β<sub>eff,c</sub> = √(P* + P/ϱ)",
            line={"color": "white", "width": 3},
        ),
        _line(
            [lr[0], lr[-1]],
            [math.sqrt(view.P_star)] * 2,
            ("x", "y"),
            "ϱ → ∞: √P*",
            line={"color": "white", "dash": "dot", "width": 2},
        ),
    ]
    layout = go.Layout(
        height=height,
        title={
            "text": f"Split amplitude of Eq. 9, P* = {view.P_star}, P = {view.P}",
            "font": {"size": 14},
        },
        xaxis={
            "title": {"text": "ϱ = M/(P*N)"},
            "tickvals": [math.log10(t) for t in ticks],
            "ticktext": [f"{t:g}" for t in ticks],
            "range": [float(lr[0]), float(lr[-1])],
        },
        yaxis={
            "title": {"text": "β<sub>eff</sub>"},
            "range": [float(pd.beta_eff[0]), float(pd.beta_eff[-1])],
        },
        legend={"orientation": "h", "bgcolor": "#d9d9d9"},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_gibbs(view: Any, height: int = 420) -> go.Figure:
    """Gibbs sampling (dots) against the saddle point (lines), against the student's β.

    Parameters
    ----------
    view : GibbsView
        From :func:`gibbs_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: the specialisation (mean over μ of max − min over μ* of m^{μ*μ}). Right: the
        mean overlap. The dotted line is β_c = √(P* + P/ϱ)/ς(2v).
    """
    check_instance(view, "view", GibbsView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(["specialisation", "mean overlap"])
    traces = []
    for ref, theory, sampled, show in (
        ((x1, y1), v.theory_specialisation, v.specialisation, True),
        ((x2, y2), v.theory_mean, v.mean_overlap, False),
    ):
        traces.append(
            _line(
                v.theory_beta,
                theory,
                ref,
                "saddle point, Eq. 9",
                showlegend=show,
                legendgroup="theory",
                line={"color": _COLORS[0], "width": 3},
            )
        )
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": np.round(v.beta, 5),
                "y": np.round(sampled, 5),
                "xaxis": ref[0],
                "yaxis": ref[1],
                "name": f"Gibbs, N = {v.N}, M = {v.M}",
                "showlegend": show,
                "legendgroup": "gibbs",
                "marker": {"color": "black", "size": 9, "symbol": "circle-open"},
            }
        )
    if v.beta_c is not None:
        for ref in ((x1, y1), (x2, y2)):
            layout["shapes"].append(_vline(v.beta_c, ref[0], ref[1], color=_GREY))
        traces.append(
            _line(
                [None],
                [None],
                (x1, y1),
                f"β<sub>c</sub> = √(P* + P/ϱ)/ς(2v) = {v.beta_c:.3f}",
                line={"color": _GREY, "dash": "dot"},
            )
        )
    for x in (x1, x2):
        layout[_axis(x)].update(title={"text": "student β"})
    layout[_axis(y1)].update(rangemode="tozero")
    title = (
        f"Student posterior vs Eq. 9, P* = {v.P_star}, P = {v.P}, v = {v.v:.3g}, ϱ = {v.rho:.3g}"
    )
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)
