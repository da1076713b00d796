"""Figures for the section "Bayes-optimal learning of a quadratic network" (``ai-bayes``).

Sources: E. Troiani, talk slides ("Learning curves", "Narrow limit"); Maillard, Troiani, Martin,
Krzakala and Zdeborová, arXiv:2408.03733 (Fig. 1: the MMSE family and the (α, ρ) phase diagram).

The model quantities come from :mod:`assocmem.quadratic.bayes`. Four small *views* assemble them
for one figure each (pure functions returning frozen results, the compute side of the section's
explorations); the ``plot_*`` functions take those results (or the library's ``BayesCurve`` and
``BayesOptimal``) and compute nothing. Every curve is the inverse parametrisation α(q̂) of
:func:`~assocmem.quadratic.bayes.bo_curve`; a grid of α is read off it by linear interpolation.

Notation map (A-units: MMSE 1 at α = 0)
---------------------------------------
- ρ = p*/d, α = n/d², Δ (label noise)    -> ``rho``, ``alpha``, ``noise``
- m (matrix MMSE, test MSE = 2m)         -> ``mmse``
- q̂ (precision of the channel A + q̂^{-1/2} Z) -> ``qhat``
- α_PR = ρ − ρ²/2 (½ for ρ ≥ 1)          -> ``alpha_pr``
- ᾱ = α/ρ (narrow limit)                 -> ``alpha_bar``
- m_t (state evolution, m_0 = 1)         -> ``m``

Public functions
----------------
bo_phase_diagram, learning_curves, narrow_limit_curves, se_trajectories
    The views (results ``PhaseDiagram``, ``LearningCurves``, ``NarrowLimitCurves``,
    ``SeTrajectories``).
plot_fixed_point
    The fixed-point condition h(q̂) + Δq̂/2 = 2α read off a curve, with its solution.
plot_learning_curves
    MMSE(α) per ρ with the ρ = ∞ line 1 − 2α (its noisy form at Δ > 0) and α_PR marks.
plot_phase_diagram
    Heat map of the MMSE over (α, ρ) with the α_PR line.
plot_narrow_limit
    MMSE against ᾱ = α/ρ for small ρ, against the ρ → 0 BBP curve.
plot_state_evolution
    m_t against t, and m_t − m* on a log axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    as_real_vector,
    check_fraction,
    check_instance,
    check_positive_int,
    check_size,
)
from assocmem.quadratic.bayes import (
    BayesCurve,
    BayesOptimal,
    bo_curve,
    bo_mmse,
    narrow_limit_mmse,
    state_evolution,
)
from assocmem.quadratic.thresholds import perfect_recovery_threshold

from .._checks import check_height
from .._layout import tidied
from ._common import _COLORS, _GREY, _fmt, _line, _rho_color

__all__ = [
    "LearningCurves",
    "NarrowLimitCurves",
    "PhaseDiagram",
    "SeTrajectories",
    "bo_phase_diagram",
    "learning_curves",
    "narrow_limit_curves",
    "plot_fixed_point",
    "plot_learning_curves",
    "plot_narrow_limit",
    "plot_phase_diagram",
    "plot_state_evolution",
    "se_trajectories",
]

_RHO_MIN, _RHO_MAX = 1e-3, 1e6  # the domain of assocmem.quadratic.bayes
_ALPHA_MAX = 100.0
_NOISE_MAX = 1e4
_POINTS_MAX = 5_000  # points per curve
_GRID_MAX = 1_000_000  # α × ρ cells of a phase diagram
_CURVES_MAX = 50
_STEPS_MAX = 2_000  # state-evolution steps per trajectory (one MMSE_den each)


@dataclass(frozen=True)
class PhaseDiagram:
    """Bayes-optimal MMSE on an (α, ρ) grid.

    Attributes
    ----------
    alpha : ndarray, shape (n_alpha,)
    rho : ndarray, shape (n_rho,)
    noise : float
    mmse : ndarray, shape (n_rho, n_alpha)
        m(α, ρ); 0 beyond α_PR at Δ = 0.
    alpha_pr : ndarray, shape (n_rho,)
        α_PR(ρ) = ρ − ρ²/2 (½ for ρ ≥ 1).
    """

    alpha: np.ndarray
    rho: np.ndarray
    noise: float
    mmse: np.ndarray
    alpha_pr: np.ndarray


@dataclass(frozen=True)
class LearningCurves:
    """MMSE(α) for several ρ at one Δ, the ρ = ∞ reference, and one marked point.

    Attributes
    ----------
    alpha : ndarray, shape (n,)
        The common α grid, from 0 to ``alpha_max``.
    rho : ndarray, shape (k,)
    noise : float
    mmse : ndarray, shape (k, n)
        m(α) per ρ.
    goe : ndarray, shape (n,)
        The ρ → ∞ (GOE-like prior) MMSE, ((2 − 4α − Δ) + √((Δ + 4α − 2)² + 8Δ))/4; 1 − 2α at Δ = 0.
    alpha_pr : ndarray, shape (k,)
    point : BayesOptimal or None
        The marked α on the first ρ (``bo_mmse``), if one was asked for.
    """

    alpha: np.ndarray
    rho: np.ndarray
    noise: float
    mmse: np.ndarray
    goe: np.ndarray
    alpha_pr: np.ndarray
    point: BayesOptimal | None


@dataclass(frozen=True)
class NarrowLimitCurves:
    """MMSE against ᾱ = α/ρ for several small ρ, and the ρ → 0 limit (noiseless).

    Attributes
    ----------
    alpha_bar : ndarray, shape (n,)
    rho : ndarray, shape (k,)
    mmse : ndarray, shape (k, n)
    limit : ndarray, shape (n,)
        1 for ᾱ ≤ ½, 4ᾱ(1 − ᾱ) up to 1, 0 beyond.
    """

    alpha_bar: np.ndarray
    rho: np.ndarray
    mmse: np.ndarray
    limit: np.ndarray


@dataclass(frozen=True)
class SeTrajectories:
    """Undamped state-evolution trajectories m_0 = 1, …, m_steps at several α.

    Attributes
    ----------
    alpha : ndarray, shape (k,)
    rho, noise : float
    m : ndarray, shape (k, steps + 1)
    fixed_point : ndarray, shape (k,)
        The fixed point m* of :func:`~assocmem.quadratic.bayes.bo_mmse` at each α.
    alpha_pr : float
    """

    alpha: np.ndarray
    rho: float
    noise: float
    m: np.ndarray
    fixed_point: np.ndarray
    alpha_pr: float


# --- views ------------------------------------------------------------------------------------


def _check_rhos(rhos: Any, name: str = "rhos", lo: float = _RHO_MIN) -> np.ndarray:
    return as_real_vector(rhos, name, lo, _RHO_MAX)


def _check_noise(noise: Any) -> float:
    return check_fraction(noise, "noise", 0.0, _NOISE_MAX, open_lo=False, open_hi=False)


def _check_points(points: Any, name: str = "points") -> int:
    return check_positive_int(points, name, minimum=2, maximum=_POINTS_MAX)


def _on_grid(alpha: np.ndarray, rho: float, noise: float, points: int) -> np.ndarray:
    """m(α) on a grid of α, linear interpolation of the inverse-parametrised curve (0 ↦ 1)."""
    a_max = max(float(alpha.max()), 1e-3)
    c = bo_curve(rho, noise, n=points, alpha_max=a_max)
    if noise > 0.0:
        return np.interp(alpha, np.r_[0.0, c.alpha], np.r_[1.0, c.mmse], right=c.mmse[-1])
    # Δ = 0: the curve stops just below α_PR (m ≈ 2α/1e6 there); close it with m(α_PR) = 0
    a_pr = max(float(perfect_recovery_threshold(rho)), float(c.alpha[-1]))
    return np.interp(alpha, np.r_[0.0, c.alpha, a_pr], np.r_[1.0, c.mmse, 0.0], right=0.0)


def _goe_mmse(alpha: np.ndarray, noise: float) -> np.ndarray:
    """ρ → ∞ MMSE (Gaussian prior), (−b + √(b² + 8Δ))/4 with b = Δ + 4α − 2 (ours)."""
    b = noise + 4.0 * alpha - 2.0
    return np.maximum(0.5 * (-b + np.sqrt(b * b + 8.0 * noise)) / 2.0, 0.0)


def bo_phase_diagram(alphas: Any, rhos: Any, noise: Any = 0.0, points: Any = 200) -> PhaseDiagram:
    """Bayes-optimal MMSE on an (α, ρ) grid, one inverse-parametrised curve per ρ.

    Parameters
    ----------
    alphas : array_like, shape (n_alpha,)
        Sample ratios α, each in [0, 100].
    rhos : array_like, shape (n_rho,)
        Teacher widths ρ, each in [1e-3, 1e6].
    noise : float
        Label-noise variance Δ, in [0, 1e4].
    points : int
        Points per curve, 2 to 5000 (the interpolation error falls like points⁻²).

    Returns
    -------
    PhaseDiagram

    Notes
    -----
    Each row is :func:`~assocmem.quadratic.bayes.bo_curve` (slides, "Learning curves";
    arXiv:2408.03733, Fig. 1 right) interpolated linearly in α; no root finding. With 200 points
    per curve the values agree with :func:`~assocmem.quadratic.bayes.bo_mmse` to about 1e-4 (4e-4
    at ρ = 0.01, where the whole curve lies in α < 0.01).
    At most 10⁶ cells.

    Examples
    --------
    >>> pd = bo_phase_diagram([0.1, 0.4], [0.5])
    >>> round(float(pd.mmse[0, 0]), 3), float(pd.mmse[0, 1])
    (0.724, 0.0)
    """
    a = as_real_vector(alphas, "alphas", 0.0, _ALPHA_MAX)
    r = _check_rhos(rhos)
    delta = _check_noise(noise)
    k = _check_points(points)
    check_size(a.size * r.size, "alphas", "phase-diagram cells", _GRID_MAX, "pass fewer α or ρ")
    m = np.array([_on_grid(a, float(x), delta, k) for x in r])
    return PhaseDiagram(
        alpha=a, rho=r, noise=delta, mmse=m, alpha_pr=np.atleast_1d(perfect_recovery_threshold(r))
    )


def learning_curves(
    rho: Any,
    noise: Any = 0.0,
    alpha: Any = None,
    alpha_max: Any = 0.6,
    points: Any = 200,
) -> LearningCurves:
    """MMSE(α) curves for one or several ρ at one Δ, with the ρ = ∞ line and a marked point.

    Parameters
    ----------
    rho : float or array_like, shape (k,)
        Teacher widths, each in [1e-3, 1e6]; at most 50.
    noise : float
        Label-noise variance Δ, in [0, 1e4].
    alpha : float, optional
        A sample ratio in [0, ``alpha_max``] marked on the first curve (its MMSE from
        :func:`~assocmem.quadratic.bayes.bo_mmse`, a few ms).
    alpha_max : float
        End of the α grid, in (0, 100].
    points : int
        Points of the α grid and of each curve, 2 to 5000.

    Returns
    -------
    LearningCurves

    Notes
    -----
    The slides' "Learning curves" (arXiv:2408.03733, Fig. 1 left). The ρ → ∞ curve is the
    fixed point with a Gaussian (GOE-like) prior of variance 1, m = MMSE_den = δ²/(1 + δ²) at
    δ² = (Δ + 2m)/(4α), solved in closed form (ours).

    Examples
    --------
    >>> c = learning_curves([0.5, 2.0], points=7)
    >>> c.mmse.shape, float(c.goe[-1])
    ((2, 7), 0.0)
    """
    r = _check_rhos(rho, "rho")
    check_size(r.size, "rho", "curves", _CURVES_MAX, "pass fewer ρ")
    delta = _check_noise(noise)
    a_max = check_fraction(alpha_max, "alpha_max", 0.0, _ALPHA_MAX, open_hi=False)
    k = _check_points(points)
    point = None
    if alpha is not None:
        a0 = check_fraction(alpha, "alpha", 0.0, a_max, open_lo=False, open_hi=False)
        point = bo_mmse(a0, float(r[0]), delta)
    grid = np.linspace(0.0, a_max, k)
    m = np.array([_on_grid(grid, float(x), delta, k) for x in r])
    return LearningCurves(
        alpha=grid,
        rho=r,
        noise=delta,
        mmse=m,
        goe=_goe_mmse(grid, delta),
        alpha_pr=np.atleast_1d(perfect_recovery_threshold(r)),
        point=point,
    )


def narrow_limit_curves(
    rhos: Any, alpha_bar_max: Any = 1.2, points: Any = 300
) -> NarrowLimitCurves:
    """Noiseless MMSE against ᾱ = α/ρ for small ρ, beside the ρ → 0 BBP curve.

    Parameters
    ----------
    rhos : array_like, shape (k,)
        Teacher widths in [1e-3, 1], at most 50.
    alpha_bar_max : float
        End of the ᾱ grid, in (0, 100].
    points : int
        Grid and curve points, 2 to 5000.

    Returns
    -------
    NarrowLimitCurves

    Notes
    -----
    As ρ → 0 the MMSE tends to 1 for ᾱ ≤ ½ (no weak recovery below the BBP point), 4ᾱ(1 − ᾱ)
    up to ᾱ = 1 and 0 beyond (slides, "Narrow limit"; arXiv:2408.03733); at finite ρ the
    approach is slow, with corrections of order √ρ, and perfect recovery sits at ᾱ = 1 − ρ/2.

    Examples
    --------
    >>> nl = narrow_limit_curves([0.01], points=5)
    >>> nl.alpha_bar.tolist(), nl.limit.tolist()
    ([0.0, 0.3, 0.6, 0.9, 1.2], [1.0, 1.0, 0.96, 0.36, 0.0])
    """
    r = as_real_vector(rhos, "rhos", _RHO_MIN, 1.0)
    check_size(r.size, "rhos", "curves", _CURVES_MAX, "pass fewer ρ")
    ab_max = check_fraction(alpha_bar_max, "alpha_bar_max", 0.0, _ALPHA_MAX, open_hi=False)
    k = _check_points(points)
    grid = np.linspace(0.0, ab_max, k)
    m = np.array([_on_grid(grid * x, float(x), 0.0, k) for x in r])
    return NarrowLimitCurves(alpha_bar=grid, rho=r, mmse=m, limit=narrow_limit_mmse(grid))


def se_trajectories(alphas: Any, rho: Any, noise: Any = 0.0, steps: Any = 40) -> SeTrajectories:
    """Undamped state evolution from m_0 = 1 at several α, with the fixed points.

    Parameters
    ----------
    alphas : array_like, shape (k,)
        Sample ratios, each in (0, 100]; at most 50.
    rho : float
        Teacher width, in [1e-3, 1e6].
    noise : float
        Label-noise variance Δ, in [0, 1e4].
    steps : int
        Iterations, 1 to 2000 (about 1 ms each).

    Returns
    -------
    SeTrajectories

    Notes
    -----
    q̂_t = 4α/(Δ + 2m_t), m_{t+1} = MMSE_den(1/q̂_t) (slides, "Learning curves";
    arXiv:2408.03733), by :func:`~assocmem.quadratic.bayes.state_evolution`; m_t decreases to
    the fixed point m*, slowly near α_PR.

    Examples
    --------
    >>> tr = se_trajectories([0.3], 0.5, steps=2)
    >>> [round(float(x), 4) for x in tr.m[0]]
    [1.0, 0.5274, 0.3664]
    """
    a = as_real_vector(alphas, "alphas", 0.0, _ALPHA_MAX, open_lo=True)
    check_size(a.size, "alphas", "trajectories", _CURVES_MAX, "pass fewer α")
    r = check_fraction(rho, "rho", _RHO_MIN, _RHO_MAX, open_lo=False, open_hi=False)
    delta = _check_noise(noise)
    n = check_positive_int(steps, "steps", minimum=1, maximum=_STEPS_MAX)
    m = np.array([state_evolution(float(x), r, delta, steps=n) for x in a])
    return SeTrajectories(
        alpha=a,
        rho=r,
        noise=delta,
        m=m,
        fixed_point=np.atleast_1d(bo_mmse(a, r, delta).mmse),
        alpha_pr=float(perfect_recovery_threshold(r)),
    )


# --- figures ----------------------------------------------------------------------------------


@tidied
def plot_fixed_point(curve: Any, point: Any, height: int = 400) -> go.Figure:
    """The fixed-point condition h(q̂) + Δq̂/2 = 2α read off the inverse parametrisation.

    Parameters
    ----------
    curve : BayesCurve
        From :func:`~assocmem.quadratic.bayes.bo_curve`: 2α(q̂) = h(q̂) + Δq̂/2 along it.
    point : BayesOptimal
        A scalar result of :func:`~assocmem.quadratic.bayes.bo_mmse` at the same ρ and Δ.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: 2α(q̂) on a log q̂ axis, the level 2α of ``point`` and its root q̂*. Right: the
        MMSE m(q̂) = h(q̂)/q̂ along the same curve, with m* = 2α/q̂* − Δ/2.
    """
    check_instance(curve, "curve", BayesCurve)
    check_instance(point, "point", BayesOptimal)
    if np.ndim(point.alpha) != 0:
        raise ValueError("point must be a scalar BayesOptimal (bo_mmse at one alpha)")
    height = check_height(height)
    q, a2 = np.asarray(curve.qhat), 2.0 * np.asarray(curve.alpha)
    traces = [
        _line(q, a2, "h(q̂) + Δq̂/2 (along the curve)", line={"color": _COLORS[0], "width": 3}),
        _line(
            q,
            curve.mmse,
            "m(q̂) = MMSE<sub>den</sub>(1/q̂)",
            xaxis="x2",
            yaxis="y2",
            line={"color": _COLORS[1], "width": 3},
        ),
    ]
    qs = float(point.qhat)
    if math.isfinite(qs) and qs > 0:
        traces += [
            _line(
                [q[0], q[-1]],
                [2 * point.alpha] * 2,
                f"level 2α = {_fmt(2 * point.alpha)}",
                line={"color": _GREY, "dash": "dash"},
            ),
            {
                "type": "scatter",
                "x": [qs, qs],
                "y": [2 * point.alpha, point.mmse],
                "xaxis": "x",
                "yaxis": "y",
                "mode": "markers",
                "showlegend": False,
                "marker": {"symbol": "star", "size": 14, "color": "black"},
                "hoverinfo": "skip",
            },
            {
                "type": "scatter",
                "x": [qs],
                "y": [point.mmse],
                "xaxis": "x2",
                "yaxis": "y2",
                "mode": "markers",
                "name": f"solution q̂* = {_fmt(qs)}, m* = {point.mmse:.4f}",
                "marker": {"symbol": "star", "size": 14, "color": "black"},
            },
        ]
    layout = go.Layout(
        height=height,
        title={"text": "The fixed-point condition and the MMSE along it", "font": {"size": 14}},
        xaxis={"domain": [0.0, 0.45], "type": "log", "title": {"text": "q̂"}},
        yaxis={"title": {"text": "2α = h(q̂) + Δq̂/2"}, "rangemode": "tozero"},
        xaxis2={"domain": [0.57, 1.0], "type": "log", "anchor": "y2", "title": {"text": "q̂"}},
        yaxis2={"anchor": "x2", "range": [0.0, 1.02], "title": {"text": "MMSE m"}},
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_learning_curves(curves: Any, height: int = 420) -> go.Figure:
    """MMSE(α) per ρ with the ρ = ∞ reference, the α_PR marks and the marked point.

    Parameters
    ----------
    curves : LearningCurves
        From :func:`learning_curves`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per ρ (its colour tied to the value of ρ); dotted ticks at α_PR(ρ) on the α
        axis (Δ = 0 only: with noise the MMSE never reaches 0); the dashed ρ = ∞ line; a star
        at the marked point.
    """
    check_instance(curves, "curves", LearningCurves)
    height = check_height(height)
    c = curves
    goe = "ρ = ∞: 1 − 2α" if c.noise == 0.0 else "ρ = ∞ (Gaussian prior)"
    traces = [_line(c.alpha, c.goe, goe, line={"color": "black", "dash": "dash"})]
    shapes = []
    for r, m, apr in zip(c.rho, c.mmse, c.alpha_pr, strict=True):
        color = _rho_color(r)
        traces.append(
            _line(
                c.alpha,
                m,
                f"ρ = {_fmt(r)}",
                line={"color": color, "width": 3},
                hovertemplate="α = %{x:.3f}<br>m = %{y:.4f}<extra></extra>",
            )
        )
        if c.noise == 0.0 and apr <= c.alpha[-1]:
            shapes.append(
                {
                    "type": "line",
                    "xref": "x",
                    "yref": "y",
                    "x0": apr,
                    "x1": apr,
                    "y0": 0.0,
                    "y1": 0.08,
                    "line": {"color": color, "width": 3},
                }
            )
    if c.point is not None:
        p = c.point
        traces.append(
            {
                "type": "scatter",
                "x": [p.alpha],
                "y": [p.mmse],
                "mode": "markers",
                "name": f"α = {p.alpha:.3f}: m = {p.mmse:.4f}",
                "marker": {"symbol": "star", "size": 14, "color": "black"},
            }
        )
    title = f"Δ = {_fmt(c.noise)}" + ("" if c.noise else ": ticks at α<sub>PR</sub>")
    layout = go.Layout(
        height=height,
        title={"text": f"Bayes-optimal MMSE, {title}", "font": {"size": 14}},
        xaxis={"range": [0.0, float(c.alpha[-1])], "title": {"text": "α = n/d²"}},
        yaxis={"range": [0.0, 1.05], "title": {"text": "MMSE (A-units)"}},
        shapes=shapes,
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_phase_diagram(diagram: Any, height: int = 440) -> go.Figure:
    """Heat map of the Bayes-optimal MMSE over (α, ρ) with the α_PR line.

    Parameters
    ----------
    diagram : PhaseDiagram
        From :func:`bo_phase_diagram`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        The MMSE (colour, 0 to 1) with α on x and ρ on y, and α_PR(ρ) = ρ − ρ²/2 (½ for ρ ≥ 1)
        in red: at Δ = 0 the region right of it is perfect recovery.
    """
    check_instance(diagram, "diagram", PhaseDiagram)
    height = check_height(height)
    d = diagram
    traces = [
        {
            "type": "heatmap",
            "x": d.alpha,
            "y": d.rho,
            "z": np.round(d.mmse, 4),
            "zmin": 0.0,
            "zmax": 1.0,
            "colorscale": "Viridis",
            "showlegend": False,
            "colorbar": {"title": {"text": "MMSE", "side": "right"}, "thickness": 14},
            "hovertemplate": "α = %{x:.3f}<br>ρ = %{y:.3f}<br>m = %{z:.4f}<extra></extra>",
        },
        _line(
            d.alpha_pr,
            d.rho,
            "α<sub>PR</sub> = ρ − ρ²/2 (½ for ρ ≥ 1)",
            line={"color": "red", "width": 3},
        ),
    ]
    layout = go.Layout(
        height=height,
        title={"text": f"Bayes-optimal MMSE, Δ = {_fmt(d.noise)}", "font": {"size": 14}},
        xaxis={"range": [float(d.alpha[0]), float(d.alpha[-1])], "title": {"text": "α = n/d²"}},
        yaxis={"range": [float(d.rho[0]), float(d.rho[-1])], "title": {"text": "ρ = p*/d"}},
        showlegend=True,  # the α_PR line is the only legend entry
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_narrow_limit(curves: Any, height: int = 420) -> go.Figure:
    """MMSE against ᾱ = α/ρ for small ρ, converging (slowly) to the BBP curve.

    Parameters
    ----------
    curves : NarrowLimitCurves
        From :func:`narrow_limit_curves`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per ρ and the ρ → 0 curve (black, dashed) with the BBP point ᾱ = ½ marked.
    """
    check_instance(curves, "curves", NarrowLimitCurves)
    height = check_height(height)
    c = curves
    traces = [
        _line(
            c.alpha_bar,
            c.limit,
            "ρ → 0 limit",
            line={"color": "black", "dash": "dash", "width": 3},
        )
    ]
    for r, m in zip(c.rho, c.mmse, strict=True):
        traces.append(
            _line(
                c.alpha_bar,
                m,
                f"ρ = {_fmt(r)}",
                line={"color": _rho_color(r), "width": 2},
                hovertemplate="ᾱ = %{x:.3f}<br>m = %{y:.4f}<extra></extra>",
            )
        )
    layout = go.Layout(
        height=height,
        title={"text": "Narrow limit: MMSE against ᾱ = α/ρ", "font": {"size": 14}},
        xaxis={"range": [0.0, float(c.alpha_bar[-1])], "title": {"text": "ᾱ = α/ρ"}},
        yaxis={"range": [0.0, 1.05], "title": {"text": "MMSE"}},
        shapes=[
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "x0": 0.5,
                "x1": 0.5,
                "y0": 0,
                "y1": 1,
                "line": {"color": _GREY, "dash": "dot"},
            }
        ],
        annotations=[
            {
                "x": 0.5,
                "y": 0.05,
                "xref": "x",
                "yref": "y",
                "text": "BBP",
                "showarrow": False,
                "xanchor": "right",
                "xshift": -4,
            }
        ],
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_state_evolution(trajectories: Any, height: int = 420) -> go.Figure:
    """State-evolution trajectories m_t, and their distance to the fixed point on a log axis.

    Parameters
    ----------
    trajectories : SeTrajectories
        From :func:`se_trajectories`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: m_t against t with the fixed points m* dashed. Right: m_t − m* (log axis; points
        where it is ≤ 1e-12 are left out).
    """
    check_instance(trajectories, "trajectories", SeTrajectories)
    height = check_height(height)
    tr = trajectories
    t = np.arange(tr.m.shape[1])
    traces = []
    for i, (a, m, mstar) in enumerate(zip(tr.alpha, tr.m, tr.fixed_point, strict=True)):
        color = _COLORS[i % len(_COLORS)]
        traces.append(
            _line(
                t,
                m,
                f"α = {_fmt(a)}",
                mode="lines+markers",
                legendgroup=str(i),
                line={"color": color},
                marker={"size": 4},
            )
        )
        traces.append(
            _line(
                [t[0], t[-1]],
                [mstar] * 2,
                "fixed point m*",
                showlegend=i == 0,
                legendgroup="mstar",
                line={"color": color, "dash": "dash"},
            )
        )
        gap = m - mstar
        gap = np.where(gap > 1e-12, gap, np.nan)
        traces.append(
            _line(
                t,
                gap,
                f"α = {_fmt(a)}",
                xaxis="x2",
                yaxis="y2",
                showlegend=False,
                legendgroup=str(i),
                line={"color": color},
            )
        )
    layout = go.Layout(
        height=height,
        title={
            "text": f"State evolution at ρ = {_fmt(tr.rho)}, α<sub>PR</sub> = {tr.alpha_pr:.4g}",
            "font": {"size": 14},
        },
        xaxis={"domain": [0.0, 0.45], "title": {"text": "iteration t"}},
        yaxis={"range": [0.0, 1.02], "title": {"text": "m<sub>t</sub>"}},
        xaxis2={"domain": [0.57, 1.0], "anchor": "y2", "title": {"text": "iteration t"}},
        yaxis2={"anchor": "x2", "type": "log", "title": {"text": "m<sub>t</sub> − m*"}},
    )
    return go.Figure(data=traces, layout=layout)
