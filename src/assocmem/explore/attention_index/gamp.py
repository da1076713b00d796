"""Figures for GAMP-RIE and its first step (attention-index chapter, ``ai-gamp``).

Source: E. Troiani, talk slides ("Sketch of analysis through AMP"); Maillard, Troiani, Martin,
Krzakala and Zdeborová, arXiv:2408.03733 (GAMP-RIE). The algorithm and its estimators come from
:mod:`assocmem.quadratic.gamp`, the data from :mod:`assocmem.quadratic.sensing` and the theory from
:mod:`assocmem.quadratic.bayes`; the view functions below run them at stated sizes and seeds, so
that the static figure, the live widget and the tests call one function.

Notation map (A-units)
----------------------
- "network" data: x_μ ~ N(0, I_d), G_μ = (x_μx_μᵀ − I)/√d; "goe": G_μ ~ GOE(d) -> ``kinds``
- error_t = (1/d)‖Â_t − A*‖²_F per iteration, m_t its damped SE prediction  -> ``runs``
- MMSE(α) the Bayes-optimal error (:func:`~assocmem.quadratic.bayes.bo_mmse`) -> ``mmse``
- δ0² = (Δ + 2)/(4α), the noise of GAMP's first step R⁰ ≈ A* + δ0 Z         -> ``delta2``
- ᾱ = α/ρ; top-p overlap of the spectral estimator, 1 − 1/(2ᾱ) above ᾱ = ½   -> ``overlap``

Runs are cached (at most 256 GAMP runs of a process, keyed by every argument; the theory values
too), and their ConvergenceWarnings are recorded in the results (``converged``, ``diverged``)
instead of printed.

Public functions
----------------
gamp_trajectories
    GAMP-RIE runs at one (d, ρ, α, Δ) on network and GOE data, clipped or not.
gamp_sweep
    Final GAMP-RIE errors over α against the Bayes-optimal curve.
first_step
    The linear estimator's error over α and the spectral estimator's overlap over ᾱ, on the
    GOE denoising channel and on network data.
plot_trajectories, plot_gamp_sweep, plot_first_step
    Their figures.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    ConvergenceWarning,
    as_real_vector,
    check_bool,
    check_fraction,
    check_instance,
    check_int_sequence,
    check_positive_int,
    check_size,
)
from assocmem.quadratic import bayes, gamp, sensing
from assocmem.quadratic.thresholds import perfect_recovery_threshold

from .._checks import check_height
from .._layout import tidied
from ._common import _GREY, _fmt

__all__ = [
    "KINDS",
    "FirstStep",
    "GampSweep",
    "GampTrajectories",
    "first_step",
    "gamp_sweep",
    "gamp_trajectories",
    "plot_first_step",
    "plot_gamp_sweep",
    "plot_trajectories",
]

#: The two kinds of sensing data: Gaussian inputs (the quadratic network) and the GOE surrogate.
KINDS = ("network", "goe")
_LABELS = {"network": "Gaussian x (network)", "goe": "GOE surrogate"}
_COLORS = {"network": "#1f77b4", "goe": "#ff7f0e"}
_D_MAX = 200  # GAMP views: d <= 200 (n d² work per iteration)
_D_SPECTRAL_MAX = 1000
_RHO_RANGE = (1e-3, 10.0)
_ALPHA_MAX = 2.0
_NOISE_MAX = 100.0
_RUNS_MAX = 64  # GAMP runs per view
_POINTS_MAX = 50  # α or ᾱ values per view
_ITER_MAX = 1000
_GRID = 200  # points of the theory curves


@dataclass(frozen=True)
class GampTrajectories:
    """GAMP-RIE runs at one (d, ρ, α, Δ): one per (kind, seed).

    Attributes
    ----------
    d : int
    rho, alpha, noise : float
    clip : bool
        Whether the eigenvalues were clipped to the theoretical support.
    kinds, seeds : tuple
        Data kind ("network" or "goe") and seed of each run.
    runs : tuple of GampResult
        The runs (error and m per iteration, converged, diverged).
    mmse : float
        The Bayes-optimal MMSE at (α, ρ, Δ): the fixed point of every run's m.
    """

    d: int
    rho: float
    alpha: float
    noise: float
    clip: bool
    kinds: tuple[str, ...]
    seeds: tuple[int, ...]
    runs: tuple[gamp.GampResult, ...]
    mmse: float


@dataclass(frozen=True)
class GampSweep:
    """Final GAMP-RIE errors over α, per data kind and seed, with the Bayes-optimal curve.

    Attributes
    ----------
    alpha : ndarray, shape (k,)
    d : int
    rho, noise : float
    kinds : tuple of str
    seeds : tuple of int
    error : ndarray, shape (len(kinds), k, len(seeds))
        Final (1/d)‖Â − A*‖²_F.
    converged : ndarray of bool, same shape
    mmse : ndarray, shape (k,)
        Bayes-optimal MMSE at each α.
    curve_alpha, curve_mmse : ndarray, shape (m,)
        The Bayes-optimal curve on a fine grid from 0 (inverse parametrisation).
    """

    alpha: np.ndarray
    d: int
    rho: float
    noise: float
    kinds: tuple[str, ...]
    seeds: tuple[int, ...]
    error: np.ndarray
    converged: np.ndarray
    mmse: np.ndarray
    curve_alpha: np.ndarray
    curve_mmse: np.ndarray


@dataclass(frozen=True)
class FirstStep:
    """The linear estimator's error and the spectral estimator's overlap.

    Attributes
    ----------
    alpha : ndarray, shape (k,)
        Sample ratios of the linear estimator (network data, d = ``d``, ρ = ``rho``).
    linear_error : ndarray, shape (k,)
        (1/d)‖Â_lin − A*‖²_F.
    alpha_grid, linear_theory : ndarray, shape (200,)
        δ0²/(1 + δ0²) with δ0² = (Δ + 2)/(4α).
    alpha_bar : ndarray, shape (m,)
        ᾱ = α/ρ of the spectral estimator (ρ = ``rho_narrow``, d = ``d_spectral``).
    channel_overlap, data_overlap : ndarray, shape (m,)
        Top-p squared overlap on the GOE denoising channel A* + δ0 Z and on network data.
    alpha_bar_grid, overlap_theory : ndarray, shape (200,)
        The narrow-limit prediction max(0, 1 − 1/(2ᾱ)) (Δ = 0; (Δ + 2)/(4ᾱ) in general).
    d, d_spectral : int
    rho, rho_narrow, noise : float
    """

    alpha: np.ndarray
    linear_error: np.ndarray
    alpha_grid: np.ndarray
    linear_theory: np.ndarray
    alpha_bar: np.ndarray
    channel_overlap: np.ndarray
    data_overlap: np.ndarray
    alpha_bar_grid: np.ndarray
    overlap_theory: np.ndarray
    d: int
    d_spectral: int
    rho: float
    rho_narrow: float
    noise: float


# --- views ------------------------------------------------------------------------------------


def _check_kinds(kinds: Any) -> tuple[str, ...]:
    if isinstance(kinds, str) or not isinstance(kinds, list | tuple) or not kinds:
        raise TypeError(
            f"kinds must be a non-empty list or tuple drawn from {KINDS}, got {kinds!r}"
        )
    for k in kinds:
        if k not in KINDS:
            raise ValueError(f"kinds must hold values from {KINDS}, got {k!r}")
    return tuple(kinds)


def _check_common(d: Any, rho: Any, noise: Any, d_max: int = _D_MAX) -> tuple[int, float, float]:
    n_d = check_positive_int(d, "d", minimum=2, maximum=d_max)
    r = check_fraction(rho, "rho", *_RHO_RANGE, open_lo=False, open_hi=False)
    delta = check_fraction(noise, "noise", 0.0, _NOISE_MAX, open_lo=False, open_hi=False)
    return n_d, r, delta


def _check_seeds(seeds: Any) -> tuple[int, ...]:
    return tuple(check_int_sequence(seeds, "seeds", minimum=0))


@functools.lru_cache(maxsize=256)
def _run(
    d: int,
    rho: float,
    alpha: float,
    noise: float,
    seed: int,
    kind: str,
    clip: bool,
    max_iter: int,
) -> gamp.GampResult:
    """One GAMP-RIE run on freshly drawn data (cached; warnings recorded in the result)."""
    data = sensing.sample_sensing(d, rho, alpha, rng=seed, noise=noise, surrogate=kind == "goe")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return gamp.gamp_rie(data, rho, noise, clip=clip, max_iter=max_iter)


def gamp_trajectories(
    alpha: Any,
    d: Any = 60,
    rho: Any = 0.5,
    noise: Any = 0.0,
    *,
    seeds: Any = (0,),
    kinds: Any = KINDS,
    clip: Any = True,
    max_iter: Any = 150,
) -> GampTrajectories:
    """GAMP-RIE runs at one (d, ρ, α, Δ), one per data kind and seed.

    Parameters
    ----------
    alpha : float
        Sample ratio α, in (0, 2].
    d : int
        Dimension, 2 to 200 (a run at d = 60 takes about 0.5 s).
    rho : float
        Teacher width ρ, in [1e-3, 10].
    noise : float
        Label-noise variance Δ, in [0, 100].
    seeds : sequence of int
        Data seeds (>= 0).
    kinds : sequence of str
        Data kinds from :data:`KINDS`; at most 64 runs in all.
    clip : bool
        Clip the eigenvalues to the theoretical support (see
        :func:`~assocmem.quadratic.gamp.gamp_rie`).
    max_iter : int
        Iterations per run, 1 to 1000 (damping 0.5, tol 1e-8).

    Returns
    -------
    GampTrajectories

    Notes
    -----
    Each run draws its own teacher and data with its seed (Maillard et al. 2024's setting).
    The GOE surrogate stores n d² numbers: at d = 100, α = 0.2, 160 MB.

    Examples
    --------
    >>> tr = gamp_trajectories(0.2, d=20, kinds=("goe",))
    >>> bool(tr.runs[0].error[0] > tr.runs[0].error[-1]), round(tr.mmse, 4)
    (True, 0.3922)
    """
    a = check_fraction(alpha, "alpha", 0.0, _ALPHA_MAX, open_hi=False)
    n_d, r, delta = _check_common(d, rho, noise)
    s = _check_seeds(seeds)
    k = _check_kinds(kinds)
    use_clip = check_bool(clip, "clip")
    n_it = check_positive_int(max_iter, "max_iter", maximum=_ITER_MAX)
    check_size(len(s) * len(k), "seeds", "runs", _RUNS_MAX, "pass fewer seeds or kinds")
    pairs = [(kind, seed) for kind in k for seed in s]
    runs = tuple(_run(n_d, r, a, delta, seed, kind, use_clip, n_it) for kind, seed in pairs)
    return GampTrajectories(
        d=n_d,
        rho=r,
        alpha=a,
        noise=delta,
        clip=use_clip,
        kinds=tuple(p[0] for p in pairs),
        seeds=tuple(p[1] for p in pairs),
        runs=runs,
        mmse=_bo_level(a, r, delta),
    )


@functools.lru_cache(maxsize=64)
def _bo_level(alpha: float, rho: float, noise: float) -> float:
    """The Bayes-optimal MMSE at one α (cached: a Brent solve)."""
    return float(bayes.bo_mmse(alpha, rho, noise).mmse)


@functools.lru_cache(maxsize=64)
def _bo_curve(rho: float, noise: float, alpha_max: float) -> tuple[np.ndarray, np.ndarray]:
    """The Bayes-optimal curve from α = 0 to ``alpha_max`` (closed at α_PR when Δ = 0)."""
    c = bayes.bo_curve(rho, noise, n=_GRID, alpha_max=alpha_max)
    a, m = np.r_[0.0, c.alpha], np.r_[1.0, c.mmse]
    if noise == 0.0 and float(perfect_recovery_threshold(rho)) <= alpha_max:
        a_pr = float(perfect_recovery_threshold(rho))
        a, m = np.r_[a, a_pr, alpha_max], np.r_[m, 0.0, 0.0]
    return a, m


def gamp_sweep(
    alphas: Any,
    d: Any = 60,
    rho: Any = 0.5,
    noise: Any = 0.0,
    *,
    seeds: Any = (0,),
    kinds: Any = KINDS,
    max_iter: Any = 150,
) -> GampSweep:
    """Final GAMP-RIE errors at several α against the Bayes-optimal curve.

    Parameters
    ----------
    alphas : array_like, shape (k,)
        Sample ratios, each in (0, 2]; at most 50.
    d, rho, noise, seeds, kinds, max_iter
        As in :func:`gamp_trajectories` (clipping on); at most 64 runs in all.

    Returns
    -------
    GampSweep

    Notes
    -----
    Slides, "GAMP-RIE reaches the MMSE" (Maillard et al. 2024, Fig. 2): the points should lie on
    the curve up to finite-size effects, which push network data upward.

    Examples
    --------
    >>> sw = gamp_sweep([0.1, 0.2], d=20, kinds=("goe",))
    >>> sw.error.shape, [round(float(m), 4) for m in sw.mmse]
    ((1, 2, 1), [0.7237, 0.3922])
    """
    a = as_real_vector(alphas, "alphas", 0.0, _ALPHA_MAX, open_lo=True)
    check_size(a.size, "alphas", "values", _POINTS_MAX, "pass fewer α")
    n_d, r, delta = _check_common(d, rho, noise)
    s = _check_seeds(seeds)
    k = _check_kinds(kinds)
    n_it = check_positive_int(max_iter, "max_iter", maximum=_ITER_MAX)
    check_size(a.size * len(s) * len(k), "alphas", "runs", _RUNS_MAX, "pass fewer α or seeds")
    runs = [
        [[_run(n_d, r, float(x), delta, seed, kind, True, n_it) for seed in s] for x in a]
        for kind in k
    ]
    curve_a, curve_m = _bo_curve(r, delta, max(float(a.max()) * 1.1, 0.05))
    return GampSweep(
        alpha=a,
        d=n_d,
        rho=r,
        noise=delta,
        kinds=k,
        seeds=s,
        error=np.array([[[res.error[-1] for res in row] for row in kr] for kr in runs]),
        converged=np.array([[[res.converged for res in row] for row in kr] for kr in runs]),
        mmse=np.array([_bo_level(float(x), r, delta) for x in a]),
        curve_alpha=curve_a.copy(),
        curve_mmse=curve_m.copy(),
    )


def first_step(
    alphas: Any,
    alpha_bars: Any,
    *,
    d: Any = 60,
    rho: Any = 0.5,
    d_spectral: Any = 400,
    rho_narrow: Any = 0.02,
    noise: Any = 0.0,
    seed: Any = 0,
) -> FirstStep:
    """The linear estimator over α and the spectral estimator over ᾱ = α/ρ.

    Parameters
    ----------
    alphas : array_like, shape (k,)
        Sample ratios of the linear estimator, each in (0, 2]; at most 50.
    alpha_bars : array_like, shape (m,)
        ᾱ values of the spectral estimator, each in (0, 10]; at most 50.
    d : int
        Dimension of the linear estimator's data, 2 to 200.
    rho : float
        Its teacher width, in [1e-3, 10].
    d_spectral : int
        Dimension of the spectral estimator's channel and data, 2 to 1000.
    rho_narrow : float
        Their (small) teacher width, in [1e-3, 10].
    noise : float
        Label-noise variance Δ, in [0, 100].
    seed : int
        Seed of every draw (>= 0).

    Returns
    -------
    FirstStep

    Notes
    -----
    GAMP's first step from the prior mean is R⁰ ≈ A* + δ0 Z with δ0² = (Δ + 2)/(4α); the linear
    estimator shrinks it to error δ0²/(1 + δ0²), and in the narrow limit its top-p eigenvectors
    detach at ᾱ = 1/2 (Δ = 0) with overlap 1 − 1/(2ᾱ) (ours; the BBP point of the slides'
    "Narrow limit"). On network data single samples add spikes |y_μ|/(2α√d) above the bulk
    that raise the overlap below the transition.

    Examples
    --------
    >>> fs = first_step([0.5], [3.0], d=30, d_spectral=100, rho_narrow=0.05)
    >>> float(fs.linear_theory[-1]) < 0.5, bool(fs.channel_overlap[0] > 0.5)
    (True, True)
    """
    a = as_real_vector(alphas, "alphas", 0.0, _ALPHA_MAX, open_lo=True)
    check_size(a.size, "alphas", "values", _POINTS_MAX, "pass fewer α")
    ab = as_real_vector(alpha_bars, "alpha_bars", 0.0, 10.0, open_lo=True)
    check_size(ab.size, "alpha_bars", "values", _POINTS_MAX, "pass fewer ᾱ")
    n_d, r, delta = _check_common(d, rho, noise)
    n_s = check_positive_int(d_spectral, "d_spectral", minimum=2, maximum=_D_SPECTRAL_MAX)
    r_n = check_fraction(rho_narrow, "rho_narrow", *_RHO_RANGE, open_lo=False, open_hi=False)
    s = check_positive_int(seed, "seed", minimum=0)
    lin = []
    for x in a:
        data = sensing.sample_sensing(n_d, r, float(x), rng=s, noise=delta)
        lin.append(float(np.sum((gamp.linear_estimator(data, r) - data.A) ** 2)) / n_d)
    chan, dat = [], []
    for x in ab:
        chan.append(gamp.spectral_channel(n_s, r_n, float(x) * r_n, rng=s, noise=delta).overlap)
        data = sensing.sample_sensing(n_s, r_n, float(x) * r_n, rng=s, noise=delta)
        dat.append(gamp.spectral_estimator(data, r_n).overlap)
    grid = np.linspace(float(a.min()) * 0.8, float(a.max()) * 1.1, _GRID)
    d2 = (delta + 2.0) / (4.0 * grid)
    ab_grid = np.linspace(0.0, float(ab.max()) * 1.05, _GRID)
    with np.errstate(divide="ignore"):
        theory = np.maximum(0.0, 1.0 - (delta + 2.0) / (4.0 * ab_grid))
    return FirstStep(
        alpha=a,
        linear_error=np.array(lin),
        alpha_grid=grid,
        linear_theory=d2 / (1.0 + d2),
        alpha_bar=ab,
        channel_overlap=np.array(chan),
        data_overlap=np.array(dat),
        alpha_bar_grid=ab_grid,
        overlap_theory=np.where(np.isfinite(theory), theory, 0.0),
        d=n_d,
        d_spectral=n_s,
        rho=r,
        rho_narrow=r_n,
        noise=delta,
    )


# --- figures ----------------------------------------------------------------------------------


def _line(x: Any, y: Any, name: str, **style: Any) -> dict[str, Any]:
    return {"type": "scatter", "x": np.asarray(x), "y": np.asarray(y), "name": name, **style}


@tidied
def plot_trajectories(trajectories: Any, height: int = 420) -> go.Figure:
    """GAMP-RIE error per iteration, its own prediction m_t and the Bayes-optimal level.

    Parameters
    ----------
    trajectories : GampTrajectories
        From :func:`gamp_trajectories`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per run (colour: data kind), the damped state evolution m_t
        (black, dashed) and the MMSE (grey, dotted). A diverged run is marked with a cross where
        it stops. The y axis is logarithmic (decade ticks) when a run diverged, linear otherwise.
    """
    check_instance(trajectories, "trajectories", GampTrajectories)
    height = check_height(height)
    tr = trajectories
    traces, shown = [], set()
    longest = max(res.n_iter for res in tr.runs)
    for kind, seed, res in zip(tr.kinds, tr.seeds, tr.runs, strict=True):
        t = np.arange(res.error.size)
        traces.append(
            _line(
                t,
                res.error,
                _LABELS[kind],
                mode="lines",
                legendgroup=kind,
                showlegend=kind not in shown,
                line={"color": _COLORS[kind], "width": 2},
                hovertemplate=f"seed {seed}<br>t = %{{x}}<br>error = %{{y:.4g}}<extra></extra>",
            )
        )
        shown.add(kind)
        if res.diverged:
            traces.append(
                _line(
                    [t[-1]],
                    [res.error[-1]],
                    "diverged",
                    mode="markers",
                    legendgroup="diverged",
                    showlegend="diverged" not in shown,
                    marker={"symbol": "x", "size": 12, "color": "#d62728"},
                )
            )
            shown.add("diverged")
    ref = max(tr.runs, key=lambda res: res.n_iter)
    traces.append(
        _line(
            np.arange(ref.m.size),
            ref.m,
            "GAMP's prediction m<sub>t</sub> (damped SE)",
            mode="lines",
            line={"color": "black", "dash": "dash"},
        )
    )
    if tr.mmse > 0:
        traces.append(
            _line(
                [0, longest],
                [tr.mmse, tr.mmse],
                f"MMSE = {tr.mmse:.4f}",
                mode="lines",
                line={"color": _GREY, "dash": "dot", "width": 2},
            )
        )
    clip = "clipped" if tr.clip else "not clipped"
    # A diverged run spans many decades: log axis with decade ticks only. Otherwise every curve
    # lies within one decade, so a linear axis with a margin keeps the MMSE line off the x axis.
    ytitle = {"text": "(1/d)‖Â<sub>t</sub> − A*‖²"}
    if any(res.diverged for res in tr.runs):
        yaxis = {"type": "log", "dtick": 1, "exponentformat": "power", "title": ytitle}
    else:
        values = [np.asarray(res.error, dtype=float) for res in tr.runs]
        values.append(np.asarray(ref.m, dtype=float))
        if tr.mmse > 0:
            values.append(np.array([tr.mmse]))
        finite = np.concatenate([v[np.isfinite(v)] for v in values])
        lo, hi = float(finite.min()), float(finite.max())
        pad = 0.05 * max(hi - lo, 1e-3 * max(abs(hi), 1.0))
        yaxis = {"type": "linear", "range": [lo - pad, hi + pad], "title": ytitle}
    layout = go.Layout(
        height=height,
        title={
            "text": f"GAMP-RIE error per iteration, α = {_fmt(tr.alpha)} ({clip})",
            "font": {"size": 14},
        },
        # 3 % on either side, so the cross that marks a diverged run is not cut at the edge.
        xaxis={"title": {"text": "iteration t"}, "range": [-0.03 * longest, 1.03 * longest]},
        yaxis=yaxis,
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_gamp_sweep(sweep: Any, height: int = 420) -> go.Figure:
    """Final GAMP-RIE errors against the Bayes-optimal curve.

    Parameters
    ----------
    sweep : GampSweep
        From :func:`gamp_sweep`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        The MMSE curve (black) and, per data kind, the mean final error over seeds with bars
        from the smallest to the largest seed.
    """
    check_instance(sweep, "sweep", GampSweep)
    height = check_height(height)
    sw = sweep
    traces = [
        _line(
            sw.curve_alpha,
            sw.curve_mmse,
            "Bayes-optimal MMSE",
            mode="lines",
            line={"color": "black", "width": 2},
        )
    ]
    for i, kind in enumerate(sw.kinds):
        err = sw.error[i]
        mean = err.mean(axis=1)
        traces.append(
            _line(
                sw.alpha,
                mean,
                f"GAMP-RIE, {_LABELS[kind]}",
                mode="markers",
                marker={"color": _COLORS[kind], "size": 10, "symbol": "circle-open"},
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": err.max(axis=1) - mean,
                    "arrayminus": mean - err.min(axis=1),
                    "color": _COLORS[kind],
                },
                hovertemplate="α = %{x:.3f}<br>error = %{y:.4f}<extra></extra>",
            )
        )
    layout = go.Layout(
        height=height,
        title={"text": f"Final error against the MMSE, d = {sw.d}", "font": {"size": 14}},
        xaxis={"range": [0.0, float(sw.curve_alpha[-1])], "title": {"text": "α = n/d²"}},
        yaxis={"range": [0.0, 1.05], "title": {"text": "(1/d)‖Â − A*‖²"}},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_first_step(view: Any, height: int = 420) -> go.Figure:
    """Linear estimator error over α (left) and spectral overlap over ᾱ with the BBP point (right).

    Parameters
    ----------
    view : FirstStep
        From :func:`first_step`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: measured linear-estimator errors and δ0²/(1 + δ0²). Right: top-p overlaps on the
        GOE channel and on network data, the narrow-limit prediction and ᾱ = ½ (dotted).
    """
    check_instance(view, "view", FirstStep)
    height = check_height(height)
    v = view
    traces = [
        _line(
            v.alpha_grid,
            v.linear_theory,
            "δ<sub>0</sub>²/(1 + δ<sub>0</sub>²)",
            mode="lines",
            line={"color": "black"},
        ),
        _line(
            v.alpha,
            v.linear_error,
            f"linear estimator, d = {v.d}",
            mode="markers",
            marker={"color": _COLORS["network"], "size": 9},
        ),
        _line(
            v.alpha_bar_grid,
            v.overlap_theory,
            "ρ → 0: 1 − (Δ + 2)/(4ᾱ)",
            mode="lines",
            xaxis="x2",
            yaxis="y2",
            line={"color": "black", "dash": "dash"},
        ),
        _line(
            v.alpha_bar,
            v.channel_overlap,
            f"spectral, GOE channel (d = {v.d_spectral})",
            mode="markers+lines",
            xaxis="x2",
            yaxis="y2",
            marker={"color": _COLORS["goe"], "size": 9},
            line={"color": _COLORS["goe"], "width": 1},
        ),
        _line(
            v.alpha_bar,
            v.data_overlap,
            f"spectral, Gaussian x (d = {v.d_spectral})",
            mode="markers+lines",
            xaxis="x2",
            yaxis="y2",
            marker={"color": _COLORS["network"], "size": 9, "symbol": "square"},
            line={"color": _COLORS["network"], "width": 1},
        ),
    ]
    bbp = (v.noise + 2.0) / 4.0
    layout = go.Layout(
        height=height,
        title={"text": "GAMP's first step: linear and spectral estimators", "font": {"size": 14}},
        xaxis={"domain": [0.0, 0.43], "title": {"text": "α = n/d²"}},
        yaxis={"range": [0.0, 1.02], "title": {"text": "(1/d)‖Â − A*‖²"}},
        xaxis2={"domain": [0.57, 1.0], "anchor": "y2", "title": {"text": "ᾱ = α/ρ"}},
        yaxis2={"anchor": "x2", "range": [0.0, 1.02], "title": {"text": "top-p overlap"}},
        shapes=[
            {
                "type": "line",
                "xref": "x2",
                "yref": "y2 domain",
                "x0": bbp,
                "x1": bbp,
                "y0": 0,
                "y1": 1,
                "line": {"color": _GREY, "dash": "dot"},
            }
        ],
        annotations=[
            {
                "x": bbp,
                "y": 0.95,
                "xref": "x2",
                "yref": "y2",
                "text": "BBP",
                "showarrow": False,
                "xanchor": "right",
                "xshift": -4,
            }
        ],
    )
    return go.Figure(data=traces, layout=layout)
