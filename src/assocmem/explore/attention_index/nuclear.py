"""Figures for the section "Weight decay is a nuclear norm" (``ai-nuclear``).

Sources: E. Troiani, talk slides ("Asymptotics of overparametrized quadratic nets", Vignettes
I–III); Erba, Troiani, Zdeborová and Krzakala, *The nuclear route: sharp asymptotics of ERM in
overparameterized quadratic networks* (arXiv:2505.17958); Martin and Mahoney, *Implicit
self-regularization in deep neural networks* (JMLR 2021) for the names of the spectral phases.

The model quantities come from :mod:`assocmem.quadratic.erm` (sharp asymptotics),
:mod:`assocmem.quadratic.solvers` (FISTA) and :mod:`assocmem.quadratic.thresholds`. Four small
*views* assemble them for one figure each (pure functions returning frozen results, the compute
side of the section's explorations); the ``plot_*`` functions take those results and compute
nothing.

Notation map (A-units: Q* = 1 + ρ*)
-----------------------------------
- ρ* = p*/d, α = n/d², Δ (label noise), λ (nuclear weight per d Tr S)
                                               -> ``rho``, ``alpha``, ``noise``, ``lam``
- E = ‖Â − A*‖²_F/d (matrix error), r̄² (mean training residual)
                                               -> ``error``, ``train_residual``
- α_inter (interpolation threshold, λ → 0⁺)    -> ``alpha_inter``
- α_PR^BO = ρ* − ρ*²/2, α_PR^NN, ℓ2: ½          -> ``bo``, ``nuclear``, ``l2``
- 𝒴 = A* + δZ, b (threshold on its eigenvalues) -> ``point.delta``, ``point.b``

Public functions
----------------
nuclear_curves, fista_points, spectrum_view, threshold_curves
    The views (results ``NuclearCurves``, ``FistaPoints``, ``SpectrumView``,
    ``ThresholdCurves``).
plot_erm_curves
    E(α) per λ with the ℓ2 curve and α_inter (left), the training residual (right), FISTA dots.
plot_spectra
    Learned eigenvalues (FISTA) over the theory: atom at 0 plus μ_𝒴(x + b), one panel per view.
plot_thresholds
    BO, nuclear-norm and ℓ2 perfect-recovery thresholds and α_inter at several Δ, against ρ*.
"""

from __future__ import annotations

import functools
import numbers
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    ConvergenceWarning,
    as_real_vector,
    as_rng,
    check_bool,
    check_fraction,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.backend import to_numpy
from assocmem.quadratic.erm import (
    _ALPHA_RANGE,
    _LAM_RANGE,
    _NOISE_MAX,
    _RHO_RANGE,
    ErmCurves,
    ErmPoint,
    _check_lam,
    _check_noise,
    _check_rho,
    erm_curves,
    erm_point,
    interpolation_threshold,
    learned_spectrum,
)
from assocmem.quadratic.free import free_conv_support
from assocmem.quadratic.sensing import sample_sensing
from assocmem.quadratic.solvers import fista_nuclear
from assocmem.quadratic.thresholds import (
    interpolation_threshold_noiseless_limit,
    l2_error,
    nuclear_recovery_threshold,
    perfect_recovery_threshold,
)

from .._checks import check_height
from .._layout import tidied
from .._panels import _axis, _panels, _vline

__all__ = [
    "FistaPoints",
    "NuclearCurves",
    "SpectrumView",
    "ThresholdCurves",
    "fista_points",
    "nuclear_curves",
    "plot_erm_curves",
    "plot_spectra",
    "plot_thresholds",
    "spectrum_view",
    "threshold_curves",
]

_POINTS_MAX = 200  # α points per curve (each an ERM solve, ~0.05 s)
_CURVES_MAX = 8
_D_MAX = 120  # FISTA dimension (each iteration is O(n d²) with n = α d²)
_SEEDS_MAX = 16
_SIMS_MAX = 64  # α values of FISTA runs per view
_GRID = 400  # points of a theory density
_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
_GREY, _HIST, _THEORY = "#7f7f7f", "rgba(31, 119, 180, 0.45)", "black"
_PEAK = (0.96, 1.0, 1.02, 1.04, 1.08, 1.15)  # α/α_inter where the small-λ peak is resolved
_PHASES = ((0.1, "random-like"), (1.0, "bleeding-out"), (np.inf, "bulk + spikes"))


@dataclass(frozen=True)
class NuclearCurves:
    """ERM learning curves for several λ at one (ρ*, Δ), with the ℓ2 reference.

    Attributes
    ----------
    alpha : ndarray, shape (n,)
    rho, noise : float
    lam : ndarray, shape (k,)
    curves : tuple of ErmCurves
        One per λ (:func:`~assocmem.quadratic.erm.erm_curves`).
    alpha_inter : float
        The λ → 0⁺ interpolation threshold at (ρ*, Δ).
    l2_alpha : ndarray, shape (400,)
        A fine α grid for the ℓ2 curve (closed form).
    l2 : ndarray, shape (400,)
        Error of the min-Frobenius-norm (ℓ2, lazy) interpolator on ``l2_alpha``; inf at α = ½
        when Δ > 0.
    sims : FistaPoints or None
        FISTA runs drawn on the figure, if any.
    """

    alpha: np.ndarray
    rho: float
    noise: float
    lam: np.ndarray
    curves: tuple[ErmCurves, ...]
    alpha_inter: float
    l2_alpha: np.ndarray
    l2: np.ndarray
    sims: FistaPoints | None


@dataclass(frozen=True)
class FistaPoints:
    """FISTA solutions of the nuclear-norm ERM at several α, one row per seed.

    Attributes
    ----------
    alpha : ndarray, shape (m,)
    rho, noise, lam : float
    d : int
    surrogate : bool
        GOE-surrogate sensing matrices (True) or network data (False).
    error, train_residual, rank, trace, objective : ndarray, shape (seeds, m)
        ‖Ŝ − A*‖²_F/d, Σ r²/n, rank fraction, Tr Ŝ/d and the objective per d².
    """

    alpha: np.ndarray
    rho: float
    noise: float
    lam: float
    d: int
    surrogate: bool
    error: np.ndarray
    train_residual: np.ndarray
    rank: np.ndarray
    trace: np.ndarray
    objective: np.ndarray


@dataclass(frozen=True)
class SpectrumView:
    """Learned eigenvalues of one FISTA run beside the ERM theory at the same parameters.

    Attributes
    ----------
    point : ErmPoint
        The theory (:func:`~assocmem.quadratic.erm.erm_point`).
    eigenvalues : ndarray, shape (d,)
        Eigenvalues of the FISTA solution (exact zeros where the prox cut them).
    d : int
    x, density : ndarray, shape (400,)
        Grid on the positive axis and μ_𝒴(x + b), the continuous part of the learned law.
    atom : float
        Theory mass of the zero eigenvalues, 1 − rank.
    edges : ndarray, shape (k, 2)
        Support of μ_𝒴 = μ_{A*} ⊞ SC(δ²) (before the shift by b).
    ks : float
        Kolmogorov–Smirnov distance between the FISTA eigenvalues and the theory law, over
        the distinct values (the atom's ties counted once).
    phase : str
        "random-like", "bleeding-out" or "bulk + spikes": our labels for the slides'
        Martin–Mahoney phases, by the gap g between the two support intervals of 𝒴 against the
        width w of the lower one (g/w < 0.1, < 1, ≥ 1; one interval is "random-like").
    """

    point: ErmPoint
    eigenvalues: np.ndarray
    d: int
    x: np.ndarray
    density: np.ndarray
    atom: float
    edges: np.ndarray
    ks: float
    phase: str


@dataclass(frozen=True)
class ThresholdCurves:
    """Thresholds against ρ*: perfect recovery (BO, nuclear, ℓ2) and interpolation.

    Attributes
    ----------
    rho : ndarray, shape (n,)
    bo, nuclear, l2 : ndarray, shape (n,)
        α_PR^BO = ρ* − ρ*²/2 (½ for ρ* ≥ 1), α_PR^NN and ½.
    noises : ndarray, shape (k,)
    inter : ndarray, shape (k, n)
        α_inter(ρ*, Δ) per Δ.
    inter_limit : ndarray, shape (n,)
        Its Δ → 0⁺ limit ¼(1 + 2ρ* − ρ*²) (½ for ρ* ≥ 1).
    """

    rho: np.ndarray
    bo: np.ndarray
    nuclear: np.ndarray
    l2: np.ndarray
    noises: np.ndarray
    inter: np.ndarray
    inter_limit: np.ndarray


# --- views ------------------------------------------------------------------------------------


def nuclear_curves(
    rho: Any,
    noise: Any,
    lams: Any,
    alpha_max: Any = 1.5,
    points: Any = 12,
    sims: Any = None,
) -> NuclearCurves:
    """ERM learning curves E(α), r̄²(α) for one or several λ, with α_inter and the ℓ2 curve.

    Parameters
    ----------
    rho : float
        Teacher width ρ*, in [1e-3, 100].
    noise : float
        Label-noise variance Δ, in [0, 1000].
    lams : float or array_like, shape (k,)
        Nuclear weights λ, each in [1e-8, 1000]; at most 8.
    alpha_max : float
        End of the α grid, in (0.05, 100]; the grid is geometric from 0.05 (denser at small α).
    points : int
        Points of the geometric α grid, 2 to 200 (an ERM solve each, about 0.03 s); up to six
        more are placed at α_inter × (0.96, 1, 1.02, 1.04, 1.08, 1.15) inside the grid, where
        the small-λ peak sits.
    sims : FistaPoints, optional
        FISTA runs to draw over the curves (at the same ρ*, Δ).

    Returns
    -------
    NuclearCurves

    Notes
    -----
    Each curve is :func:`~assocmem.quadratic.erm.erm_curves` (Troiani, slides, Vignette II;
    arXiv:2505.17958); α_inter is :func:`~assocmem.quadratic.erm.interpolation_threshold` and
    the ℓ2 curve :func:`~assocmem.quadratic.thresholds.l2_error` with Q* = 1 + ρ*. With noise,
    the ℓ2 curve diverges at α = ½ (where it interpolates as many labels as unknowns) and the
    nuclear curves peak near α_inter (double descent), the peak damped by λ. The grid and each
    λ's curve are cached per (ρ*, Δ, λ, alpha_max, points), so a live menu move between computed
    settings costs only the figure.

    Examples
    --------
    Three geometric points and six around α_inter = 0.2569:

    >>> c = nuclear_curves(0.05, 0.5, [1e-3], points=3)
    >>> c.alpha.size, len(c.curves), round(c.alpha_inter, 4)
    (9, 1, 0.2569)
    """
    r, delta = _check_rho(rho), _check_noise(noise)
    lam = as_real_vector(lams, "lams", *_LAM_RANGE)
    check_size(lam.size, "lams", "curves", _CURVES_MAX, "pass fewer λ")
    a_max = check_fraction(alpha_max, "alpha_max", 0.05, _ALPHA_RANGE[1], open_hi=False)
    k = check_positive_int(points, "points", minimum=2, maximum=_POINTS_MAX)
    if sims is not None:
        check_instance(sims, "sims", FistaPoints)
    alpha, a_inter, fine, l2 = _alpha_grid(r, delta, a_max, k)
    curves = tuple(_erm_curve(r, delta, float(x), a_max, k) for x in lam)
    return NuclearCurves(
        alpha=alpha,
        rho=r,
        noise=delta,
        lam=lam,
        curves=curves,
        alpha_inter=a_inter,
        l2_alpha=fine,
        l2=l2,
        sims=sims,
    )


def fista_points(
    alphas: Any,
    rho: Any,
    noise: Any,
    lam: Any,
    d: Any = 40,
    seeds: Any = 1,
    rng: Any = 0,
    surrogate: Any = True,
    max_iter: Any = 5_000,
) -> FistaPoints:
    """FISTA on the nuclear-norm ERM at several α (fresh data per α and seed).

    Parameters
    ----------
    alphas : array_like, shape (m,)
        Sample ratios, each in [1e-3, 100]; at most 64.
    rho, noise, lam : float
        As in :func:`nuclear_curves` (λ a single value).
    d : int
        Dimension, 2 to 120 (GOE-surrogate data store n d² = α d⁴ numbers).
    seeds : int
        Independent draws per α, 1 to 16.
    rng : int or numpy.random.Generator
        Seed or generator for all draws.
    surrogate : bool
        GOE-surrogate sensing matrices (default; closest to the theory at small d) or network
        data x xᵀ.
    max_iter : int
        FISTA iteration cap, 1 to 1e6 (relative objective tolerance 1e-8; runs that stop at the
        cap are kept, without a warning).

    Returns
    -------
    FistaPoints

    Examples
    --------
    >>> s = fista_points([0.3], 0.5, 0.25, 1.0, d=12)
    >>> s.error.shape
    (1, 1)
    """
    a = as_real_vector(alphas, "alphas", *_ALPHA_RANGE)
    check_size(a.size, "alphas", "FISTA runs per seed", _SIMS_MAX, "pass fewer α")
    r, delta, lam_ = _check_rho(rho), _check_noise(noise), _check_lam(lam)
    dim = check_positive_int(d, "d", minimum=2, maximum=_D_MAX)
    k = check_positive_int(seeds, "seeds", minimum=1, maximum=_SEEDS_MAX)
    gen = as_rng(rng)
    goe = check_bool(surrogate, "surrogate")
    cap = check_positive_int(max_iter, "max_iter", minimum=1, maximum=1_000_000)
    out = np.zeros((5, k, a.size))
    for s in range(k):
        for j, alpha in enumerate(a):
            data = sample_sensing(dim, r, float(alpha), gen, noise=delta, surrogate=goe)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                sol = fista_nuclear(data, lam_, max_iter=cap, tol=1e-8)
            out[:, s, j] = (sol.error, sol.train_mse, sol.rank, sol.trace, sol.objective)
    return FistaPoints(a, r, delta, lam_, dim, goe, *out)


def spectrum_view(
    alpha: Any,
    rho: Any,
    noise: Any,
    lam: Any,
    d: Any = 60,
    rng: Any = 0,
    surrogate: Any = False,
) -> SpectrumView:
    """The eigenvalues of one FISTA solution beside the ERM law at the same parameters.

    Parameters
    ----------
    alpha : float
        Sample ratio, in [1e-3, 100].
    rho, noise, lam : float
        As in :func:`nuclear_curves` (λ a single value).
    d : int
        Dimension, 2 to 120.
    rng : int or numpy.random.Generator
        Seed or generator of the data.
    surrogate : bool
        GOE-surrogate sensing matrices, or network data (default).

    Returns
    -------
    SpectrumView

    Notes
    -----
    Â = U ReLU(Λ_𝒴 − b) Uᵀ (Troiani, slides, Vignette I): an atom 1 − rank at zero and the
    density μ_𝒴(x + b) above it (:func:`~assocmem.quadratic.erm.learned_spectrum`). With an
    integer seed ``rng`` the FISTA eigenvalues are cached (a live menu move redraws from them).

    Examples
    --------
    >>> v = spectrum_view(0.3, 0.5, 0.25, 1.0, d=16)
    >>> v.eigenvalues.shape, round(v.atom, 3)
    ((16,), 0.704)
    """
    a = check_fraction(alpha, "alpha", *_ALPHA_RANGE, open_lo=False, open_hi=False)
    r, delta, lam_ = _check_rho(rho), _check_noise(noise), _check_lam(lam)
    dim = check_positive_int(d, "d", minimum=2, maximum=_D_MAX)
    goe = check_bool(surrogate, "surrogate")
    point = erm_point(a, r, delta, lam_)
    gen = as_rng(rng)  # validates a seed too
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        eig = _fista_eigenvalues(a, r, delta, lam_, dim, int(rng), goe)  # a seed: cached
    else:
        eig = _fista_eigenvalues.__wrapped__(a, r, delta, lam_, dim, gen, goe)
    edges = free_conv_support(r, point.delta**2)
    x = np.linspace(0.0, max(float(edges[-1, 1]) - point.b, 1e-6), _GRID)
    atom, density = learned_spectrum(point, x)
    return SpectrumView(
        point=point,
        eigenvalues=eig,
        d=dim,
        x=x,
        density=density,
        atom=atom,
        edges=edges,
        ks=_ks(eig, x, density, atom),
        phase=_phase(edges),
    )


def threshold_curves(rhos: Any, noises: Any = (0.01, 1.0, 100.0)) -> ThresholdCurves:
    """Perfect-recovery and interpolation thresholds against ρ*.

    Parameters
    ----------
    rhos : array_like, shape (n,)
        Teacher widths, each in [1e-3, 100]; at most 200.
    noises : array_like, shape (k,)
        Label-noise variances Δ for α_inter, each in (0, 1000]; at most 8.

    Returns
    -------
    ThresholdCurves

    Notes
    -----
    α_PR^BO from :func:`~assocmem.quadratic.thresholds.perfect_recovery_threshold`, α_PR^NN
    from :func:`~assocmem.quadratic.thresholds.nuclear_recovery_threshold`, the ℓ2 threshold ½
    and α_inter from :func:`~assocmem.quadratic.erm.interpolation_threshold` (a root find per
    point, about 20 ms). Troiani, slides: α_PR^NN → 3ρ*, α_inter → ¼(1 + 2ρ* − ρ*²) as Δ → 0⁺
    and → ¼ as Δ → ∞.

    Examples
    --------
    >>> t = threshold_curves([0.5], noises=[1.0])
    >>> round(float(t.bo[0]), 3), round(float(t.inter[0, 0]), 4)
    (0.375, 0.2911)
    """
    r = as_real_vector(rhos, "rhos", *_RHO_RANGE)
    check_size(r.size, "rhos", "widths", _POINTS_MAX, "pass fewer ρ*")
    n = as_real_vector(noises, "noises", 0.0, _NOISE_MAX, open_lo=True)
    check_size(n.size, "noises", "noise levels", _CURVES_MAX, "pass fewer Δ")
    return ThresholdCurves(
        rho=r,
        bo=np.atleast_1d(perfect_recovery_threshold(r)),
        nuclear=np.atleast_1d(nuclear_recovery_threshold(r).alpha_pr),
        l2=np.full(r.size, 0.5),
        noises=n,
        inter=np.atleast_2d(interpolation_threshold(r[None, :], n[:, None])),
        inter_limit=np.atleast_1d(interpolation_threshold_noiseless_limit(r)),
    )


@functools.lru_cache(maxsize=64)
def _alpha_grid(
    rho: float, delta: float, a_max: float, k: int
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """The α grid of :func:`nuclear_curves` (geometric plus the peak points), α_inter and the
    ℓ2 curve on the fine grid (cached: they do not depend on λ)."""
    a_inter = float(interpolation_threshold(rho, delta))
    near = a_inter * np.array(_PEAK)
    alpha = np.unique(np.r_[np.geomspace(0.05, a_max, k), near[(near > 0.05) & (near < a_max)]])
    fine = np.geomspace(0.05, a_max, _GRID)
    with np.errstate(divide="ignore"):
        l2 = np.asarray(l2_error(fine, 1.0 + rho, delta), dtype=float)
    for arr in (alpha, fine, l2):
        arr.setflags(write=False)  # shared by the cache
    return alpha, a_inter, fine, l2


@functools.lru_cache(maxsize=256)
def _erm_curve(rho: float, delta: float, lam: float, a_max: float, k: int) -> ErmCurves:
    """One λ's ERM curve on the grid of :func:`_alpha_grid` (cached: a live menu move between
    computed settings redraws without the 14 or so ERM solves, about 0.03 s each)."""
    curve = erm_curves(_alpha_grid(rho, delta, a_max, k)[0], rho, delta, lam)
    for value in vars(curve).values():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)  # shared by the cache
    return curve


@functools.lru_cache(maxsize=64)
def _fista_eigenvalues(
    alpha: float, rho: float, noise: float, lam: float, d: int, rng: Any, surrogate: bool
) -> np.ndarray:
    """Eigenvalues of the FISTA solution on one draw (cached for an integer seed)."""
    data = sample_sensing(d, rho, alpha, as_rng(rng), noise=noise, surrogate=surrogate)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        eig = np.array(to_numpy(fista_nuclear(data, lam, tol=1e-8).eigenvalues))
    eig.setflags(write=False)  # shared by the cache
    return eig


def _ks(eig: np.ndarray, x: np.ndarray, density: np.ndarray, atom: float) -> float:
    """KS distance between the eigenvalues and atom + ∫ density, over the distinct values."""
    cdf = atom + np.concatenate([[0.0], np.cumsum(np.diff(x) * (density[1:] + density[:-1]) / 2)])
    pos = np.sort(eig[eig > 0])
    d = eig.size
    zeros = d - pos.size
    gaps = [abs(zeros / d - atom)]
    if pos.size:
        theory = np.interp(pos, x, cdf, right=1.0)
        gaps += [
            float(np.abs((zeros + np.arange(1, pos.size + 1)) / d - theory).max()),
            float(np.abs((zeros + np.arange(pos.size)) / d - theory).max()),
        ]
    return max(gaps)


def _phase(edges: np.ndarray) -> str:
    if edges.shape[0] < 2:
        return _PHASES[0][1]
    ratio = (edges[1, 0] - edges[0, 1]) / (edges[0, 1] - edges[0, 0])
    return next(name for bound, name in _PHASES if ratio < bound)


# --- figures ----------------------------------------------------------------------------------


def _line(x: Any, y: Any, refs: tuple[str, str], name: str, **style: Any) -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "lines",
        "x": np.round(np.asarray(x, dtype=float), 5),
        "y": np.round(np.asarray(y, dtype=float), 5),
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        **style,
    }


def _dots(x: Any, y: Any, refs: tuple[str, str], name: str, legend: bool) -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "markers",
        "x": np.round(np.asarray(x, dtype=float).ravel(), 5),
        "y": np.round(np.asarray(y, dtype=float).ravel(), 5),
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        "showlegend": legend,
        "legendgroup": "fista",
        "marker": {"color": "black", "size": 8, "symbol": "circle-open", "line": {"width": 2}},
    }


@tidied
def plot_erm_curves(curves: Any, height: int = 440) -> go.Figure:
    """ERM test error and training residual against α, per λ, with α_inter and ℓ2.

    Parameters
    ----------
    curves : NuclearCurves
        From :func:`nuclear_curves`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: E(α) per λ (solid), the ℓ2 interpolator's error (grey dashes) and α_inter
        (dotted). Right: the mean training residual r̄²(α). FISTA runs are open circles.
    """
    check_instance(curves, "curves", NuclearCurves)
    height = check_height(height)
    c = curves
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(["test error E", "training residual"])
    traces = []
    for i, (lam, cur) in enumerate(zip(c.lam, c.curves, strict=True)):
        style = {"line": {"color": _COLORS[i % len(_COLORS)], "width": 3}, "legendgroup": str(i)}
        traces.append(_line(c.alpha, cur.error, (x1, y1), f"λ = {lam:.3g}", **style))
        traces.append(_line(c.alpha, cur.train_residual, (x2, y2), "", showlegend=False, **style))
    finite = np.where(np.isfinite(c.l2), c.l2, np.nan)
    traces.append(
        _line(
            c.l2_alpha,
            finite,
            (x1, y1),
            "ℓ2 (lazy) interpolator",
            line={"color": _GREY, "dash": "dash"},
        )
    )
    if c.sims is not None:
        s = c.sims
        name = f"FISTA, d = {s.d}, λ = {s.lam:.3g}"
        traces.append(_dots(np.broadcast_to(s.alpha, s.error.shape), s.error, (x1, y1), name, True))
        traces.append(
            _dots(np.broadcast_to(s.alpha, s.error.shape), s.train_residual, (x2, y2), name, False)
        )
    top = max(float(np.nanmax([cur.error for cur in c.curves])), 1.0 + c.rho) * 1.1
    for ref in ((x1, y1), (x2, y2)):
        layout["shapes"].append(_vline(c.alpha_inter, ref[0], ref[1], color=_GREY))
    traces.append(
        _line(
            [None],
            [None],
            (x1, y1),
            f"α<sub>inter</sub> = {c.alpha_inter:.4f} (λ → 0⁺)",
            line={"color": _GREY, "dash": "dot"},
        )
    )
    layout[_axis(x1)].update(title={"text": "α = n/d²"}, type="log", dtick=1)
    layout[_axis(y1)].update(title={"text": "E = ‖Â − A*‖²/d"}, range=[0.0, top])
    layout[_axis(x2)].update(title={"text": "α = n/d²"}, type="log", dtick=1)
    layout[_axis(y2)].update(title={"text": "Σ r²/n"}, rangemode="tozero")
    title = f"Nuclear-norm ERM at ρ* = {c.rho:.3g}, Δ = {c.noise:.3g}"
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_spectra(views: Any, height: int = 400) -> go.Figure:
    """Learned eigenvalues (FISTA) over the ERM law, one panel per view.

    Parameters
    ----------
    views : SpectrumView or sequence of SpectrumView
        From :func:`spectrum_view`; at most 4.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Per panel: a histogram of the positive FISTA eigenvalues (density per d, so that its
        area is the nonzero fraction), the theory density μ_𝒴(x + b) (black), the atom at zero
        (FISTA against theory) and the phase name in the panel's top right corner; the panel
        title gives α.
    """
    items = [views] if isinstance(views, SpectrumView) else list(_as_views(views))
    height = check_height(height)
    titles = [f"α = {v.point.alpha:.3g}" for v in items]
    layout, refs = _panels(titles, spacing=0.08)
    traces = []
    for i, (v, (x, y, _)) in enumerate(zip(items, refs, strict=True)):
        pos = v.eigenvalues[v.eigenvalues > 0]
        hi = float(v.x[-1])
        counts, bins = np.histogram(pos, bins=24, range=(0.0, hi))
        width = float(bins[1] - bins[0])
        zeros = (v.d - pos.size) / v.d
        traces += [
            {
                "type": "bar",
                "x": np.round(0.5 * (bins[1:] + bins[:-1]), 4),
                "y": np.round(counts / (v.d * width), 4),
                "width": width,
                "xaxis": x,
                "yaxis": y,
                "name": "FISTA eigenvalues > 0 (per d)",
                "showlegend": i == 0,
                "legendgroup": "hist",
                "marker": {"color": _HIST, "line": {"width": 0}},
            },
            _line(
                v.x,
                v.density,
                (x, y),
                "theory μ<sub>Y</sub>(x + b)",
                showlegend=i == 0,
                legendgroup="theory",
                line={"color": _THEORY, "width": 2},
            ),
            {
                "type": "scatter",
                "mode": "markers",
                "x": [0.0, 0.0],
                "y": [zeros, v.atom],
                "xaxis": x,
                "yaxis": y,
                "name": "atom at 0: FISTA (○), theory (×)",
                "showlegend": i == 0,
                "legendgroup": "atom",
                "marker": {"symbol": ["circle-open", "x"], "size": 11, "color": "#d62728"},
            },
        ]
        layout[_axis(x)].update(title={"text": "eigenvalue of Â"}, range=[-0.05 * hi, hi])
        # the y range holds the tallest bar, the theory density and both atom marks, with 10 %
        # to spare, so the atom circle does not sit on the panel's top edge
        density = np.asarray(v.density, dtype=float)
        tallest = max(
            float(counts.max() / (v.d * width)) if counts.size else 0.0,
            float(density[np.isfinite(density)].max(initial=0.0)),
            zeros,
            float(v.atom),
        )
        layout[_axis(y)].update(range=[0.0, 1.1 * tallest if tallest > 0 else 1.0])
        layout["annotations"].append(
            {
                "text": v.phase,
                "x": 0.98,
                "y": 0.98,
                "xref": f"{x} domain",
                "yref": f"{y} domain",
                "xanchor": "right",
                "yanchor": "top",
                "showarrow": False,
                "font": {"size": 12},
            }
        )
    layout[_axis(refs[0][1])].update(title={"text": "density / atom mass"})
    v0 = items[0]
    title = (
        f"Learned spectrum, ρ* = {v0.point.rho:.3g}, Δ = {v0.point.noise:.3g}, "
        f"λ = {v0.point.lam:.3g}, d = {v0.d}"
    )
    layout.update(height=height, bargap=0, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


def _as_views(views: Any) -> Sequence[SpectrumView]:
    if isinstance(views, str | bytes) or not isinstance(views, Sequence):
        raise TypeError(f"views must be a SpectrumView or a sequence of them, got {views!r:.80}")
    if not 1 <= len(views) <= 4:
        raise ValueError(f"views must hold 1 to 4 SpectrumView, got {len(views)}")
    return [check_instance(v, "views", SpectrumView) for v in views]


@tidied
def plot_thresholds(curves: Any, height: int = 440) -> go.Figure:
    """Perfect-recovery and interpolation thresholds against the teacher width ρ*.

    Parameters
    ----------
    curves : ThresholdCurves
        From :func:`threshold_curves`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        α_PR^BO (blue), α_PR^NN (red), the ℓ2 threshold ½ (grey), α_inter per Δ (dashed) with
        its Δ → 0⁺ limit (black dots) and the Δ → ∞ value ¼ (thin grey), on a log ρ* axis.
    """
    check_instance(curves, "curves", ThresholdCurves)
    height = check_height(height)
    c = curves
    refs = ("x", "y")
    traces = [
        _line(c.rho, c.bo, refs, "BO: ρ* − ρ*²/2", line={"color": _COLORS[0], "width": 3}),
        _line(
            c.rho,
            c.nuclear,
            refs,
            "nuclear norm α<sub>PR</sub><sup>NN</sup>",
            line={"color": _COLORS[1], "width": 3},
        ),
        _line(c.rho, c.l2, refs, "ℓ2 / lazy: ½", line={"color": _GREY, "width": 3}),
        _line(
            c.rho,
            3 * c.rho,
            refs,
            "3ρ* (small-ρ* slope of α<sub>PR</sub><sup>NN</sup>)",
            line={"color": _COLORS[1], "dash": "dot", "width": 1},
        ),
        _line(
            c.rho,
            c.inter_limit,
            refs,
            "α<sub>inter</sub>, Δ → 0⁺: ¼(1 + 2ρ* − ρ*²)",
            line={"color": "black", "dash": "dot"},
        ),
    ]
    for i, (delta, row) in enumerate(zip(c.noises, c.inter, strict=True)):
        color = _COLORS[(i + 2) % len(_COLORS)]
        traces.append(
            _line(
                c.rho,
                row,
                refs,
                f"α<sub>inter</sub>, Δ = {delta:.3g}",
                line={"color": color, "dash": "dash"},
            )
        )
    traces.append(
        _line(c.rho, np.full(c.rho.size, 0.25), refs, "Δ → ∞: ¼", line={"color": _GREY, "width": 1})
    )
    layout = go.Layout(
        height=height,
        title={"text": "Thresholds against the teacher width", "font": {"size": 14}},
        xaxis={"type": "log", "dtick": 1, "title": {"text": "ρ* = p*/d"}},
        yaxis={"range": [0.0, 0.6], "title": {"text": "α = n/d²"}},
    )
    return go.Figure(data=traces, layout=layout)
