"""Figures for the section "From a Boltzmann machine to a mixture of vMF densities" (``ds-model``).

Paper: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025):
the model density Eq. 3, the vMF normaliser of App. C (Eqs. 17-18) and the function ς of
Eqs. 9 and 12. The model quantities come from :mod:`assocmem.potts_dam` (``vmf`` and
``model``); three small *views* assemble them for one figure each (pure functions returning
frozen results, the compute side of the section's explorations), and the ``plot_*`` functions
take those results and compute nothing.

Notation map
------------
- x = (cos θ, sin θ) on the circle S¹ (N = 2)            -> ``theta``
- memories w^μ = (cos a_μ, sin a_μ), μ = 1..P             -> ``angles``
- p_h(0), the outside (uniform) unit's weight            -> ``p_outside``; the memories share
  the rest equally, all in one class
- P_β(x) (Eq. 3 summed over the class), E(x) = −log P_β(x) -> ``density``, ``energy``
- τ(β) = log Ω_N(β)/Ω_N(0): exact, Eq. 18, β²/(2N), and the
  textbook route through ``scipy.special.ive``            -> ``exact``, ``eq18``, ``quadratic``,
  ``naive``
- v = β*/N, κ = vN, ς(2v), A_N(κ)                         -> ``v``, ``kappa``, ``varsigma``,
  ``mean_length``

Public functions
----------------
circle_view, normaliser_view, overlap_view
    The views (results ``CircleView``, ``NormaliserView``, ``OverlapView``).
plot_circle
    The density on the circle (radial curve and energy), the memories and a descent path.
plot_normaliser
    τ(β) exact, by Eq. 18, by β²/(2N) and through ``ive`` (left); the errors (right).
plot_overlaps
    Histogram of vMF sample overlaps with ς(2v) and A_N(vN) (left); ς(2v) against v (right).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from scipy.special import gammaln, ive

from assocmem._validation import (
    as_real_vector,
    check_fraction,
    check_instance,
    check_positive_int,
)
from assocmem.potts_dam import model, vmf

from .._checks import check_height
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _vline
from ._common import _COLORS, _GREY, _MEMORY, _THEORY, _finite, _fmt, _line

__all__ = [
    "CircleView",
    "NormaliserView",
    "OverlapView",
    "circle_view",
    "normaliser_view",
    "overlap_view",
    "plot_circle",
    "plot_normaliser",
    "plot_overlaps",
]

_BETA_RANGE = (0.05, 200.0)  # circle: the density is a smooth curve on the 720-point grid
_GRID = 720  # angles of the circle grid (half a degree)
_MEMORIES_MAX = 8
_DESCENT_STEPS = 200
_N_RANGE = (3, 100_000)  # Eq. 18 divides by N − 2
_BETA_MAX_RANGE = (1.0, 1000.0)
_POINTS_RANGE = (20, 1000)
_V_RANGE = (0.01, 100.0)
_SAMPLE_N_RANGE = (3, 2000)
_SAMPLES_RANGE = (10, 20_000)
_CURVE = 100  # points of the ς(2v) curve
_BINS = 40
_TURN = np.linspace(0.0, 2.0 * math.pi, 121)  # the unit circle, drawn


@dataclass(frozen=True)
class CircleView:
    """The Eq. 3 density of a few memories on the circle, and one energy descent.

    Attributes
    ----------
    beta, p_outside : float
        β and the outside unit's weight p_h(0) (the memories share 1 − p_h(0) equally).
    angles : ndarray, shape (P,)
        Angles a_μ of the memories w^μ = (cos a_μ, sin a_μ).
    theta, density, energy : ndarray, shape (720,)
        Grid of angles on [−π, π), P_β(x) on it (Eq. 3 with one class) and −log P_β(x).
    floor : float
        p_h(0)/Ω_2(0) = p_h(0)/(2π), the density of the uniform component alone.
    mass : float
        ∫ P_β(x) dθ on the grid (1 up to quadrature error: Eq. 3 is a probability density).
    minima : ndarray
        Angles of the local minima of the energy on the grid.
    start : float
        Start angle of the descent.
    path : ndarray, shape (201,)
        Angles along 200 steps of Riemannian gradient descent on E with step 1/β.
    path_energy : ndarray, shape (201,)
        E along the path (interpolated on the grid).
    nearest : int
        Index of the memory closest to the end point.
    overlap : float
        Cosine between the end point and that memory (1 when the descent retrieves it).
    """

    beta: float
    p_outside: float
    angles: np.ndarray
    theta: np.ndarray
    density: np.ndarray
    energy: np.ndarray
    floor: float
    mass: float
    minima: np.ndarray
    start: float
    path: np.ndarray
    path_energy: np.ndarray
    nearest: int
    overlap: float


@dataclass(frozen=True)
class NormaliserView:
    """τ(β) = log Ω_N(β)/Ω_N(0) four ways on a β grid, at one N.

    Attributes
    ----------
    N : int
    beta : ndarray, shape (points,)
        Geometric grid from 1e-2 to ``beta_max``.
    exact, eq18, quadratic, naive : ndarray, shape (points,)
        τ exact (log space, :func:`assocmem.potts_dam.vmf.tau`), Eq. 18, β²/(2N), and
        log Γ(N/2) + (1 − N/2) log(β/2) + β + log ive(N/2 − 1, β), which is −inf where ``ive``
        underflows to 0.
    error18, error_quadratic : ndarray, shape (points,)
        |Eq. 18 − exact| and |β²/(2N) − exact|.
    max_error18 : float
        The largest |Eq. 18 − exact| on the grid.
    underflow : float
        The β below which the ``ive`` route gives −inf, found by bisection on the boundary
        (independent of the grid; 0 if it never underflows).
    """

    N: int
    beta: np.ndarray
    exact: np.ndarray
    eq18: np.ndarray
    quadratic: np.ndarray
    naive: np.ndarray
    error18: np.ndarray
    error_quadratic: np.ndarray
    max_error18: float
    underflow: float


@dataclass(frozen=True)
class OverlapView:
    """Overlaps x·w* of vMF(w*, κ = vN) samples against ς(2v) and A_N(κ).

    Attributes
    ----------
    v, kappa : float
        Teacher noise parameter v = β*/N and concentration κ = vN.
    N, n, seed : int
        Dimension, number of samples and seed of the draw.
    overlaps : ndarray, shape (n,)
        x·w* of each sample.
    mean, std : float
        Their sample mean and standard deviation.
    varsigma : float
        ς(2v), the N → ∞ limit of the overlap.
    mean_length : float
        A_N(vN), the exact mean overlap at this N.
    v_grid, varsigma_curve, length_curve : ndarray, shape (100,)
        A geometric v grid from 0.01 to 100, ς(2v) and A_N(vN) on it.
    """

    v: float
    kappa: float
    N: int
    n: int
    seed: int
    overlaps: np.ndarray
    mean: float
    std: float
    varsigma: float
    mean_length: float
    v_grid: np.ndarray
    varsigma_curve: np.ndarray
    length_curve: np.ndarray


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------


def circle_view(
    beta: Any = 8.0,
    p_outside: Any = 0.1,
    start: Any = 2.6,
    angles: Any = (-2.0, 0.3, 1.2),
) -> CircleView:
    """The Eq. 3 density of memories on the circle (N = 2) and a descent of its energy.

    Notes
    -----
    With one class and weights p_h(0) (outside) and (1 − p_h(0))/P per memory, Eq. 3 on S¹ is
    P_β(x) = Σ_μ p^μ e^{β w^μ·x}/Ω_2(β) + p_h(0)/Ω_2(0) with Ω_2(β) = 2π I_0(β)
    (:func:`assocmem.potts_dam.model.log_density`). The energy is E = −log P_β; the descent
    moves θ against dE/dθ = −β Σ_μ r_μ w^μ·t(θ) (t the tangent, r_μ the responsibilities of
    :func:`assocmem.potts_dam.model.responsibilities`), with step 1/β, 200 times.

    Parameters
    ----------
    beta : float
        Inverse temperature, in [0.05, 200].
    p_outside : float
        Outside weight p_h(0), in [0, 1).
    start : float
        Start angle of the descent, in [−π, π].
    angles : sequence of float
        Angles of the memories, 1 to 8 finite numbers (radians).

    Returns
    -------
    CircleView

    Examples
    --------
    One memory at angle 0: the descent from 1 rad retrieves it.

    >>> v = circle_view(4.0, 0.0, 1.0, angles=[0.0])
    >>> round(v.overlap, 6)
    1.0
    """
    beta = check_fraction(beta, "beta", *_BETA_RANGE, open_lo=False, open_hi=False)
    p_out = check_fraction(p_outside, "p_outside", 0.0, 1.0, open_lo=False)
    start = check_fraction(start, "start", -math.pi, math.pi, open_lo=False, open_hi=False)
    a = as_real_vector(angles, "angles", min_size=1)
    if a.size > _MEMORIES_MAX:
        raise ValueError(f"angles must hold at most {_MEMORIES_MAX} memories, got {a.size}")
    if np.any(np.abs(a) > 1e6):
        raise ValueError(
            f"angles must hold numbers of size at most 1e6, got {a[np.abs(a) > 1e6][0]!r}"
        )
    a = np.angle(np.exp(1j * a))  # wrapped to (−π, π]
    w = np.column_stack([np.cos(a), np.sin(a)])
    p = np.zeros((2, a.size + 1))  # row 0: the unused "no class"; row 1: the one class
    p[1, 0] = p_out
    p[1, 1:] = (1.0 - p_out) / a.size
    theta = np.linspace(-math.pi, math.pi, _GRID, endpoint=False)
    X = np.column_stack([np.cos(theta), np.sin(theta)])
    log_p = np.asarray(model.log_density(X, w, p, beta))[:, 1]
    density = np.exp(log_p)
    energy = -log_p
    lower = (energy < np.roll(energy, 1)) & (energy <= np.roll(energy, -1))
    path = _descend(start, theta, w, p, beta, X)
    end = np.array([math.cos(path[-1]), math.sin(path[-1])])
    cos = w @ end
    nearest = int(np.argmax(cos))
    return CircleView(
        beta=beta,
        p_outside=p_out,
        angles=a,
        theta=theta,
        density=density,
        energy=energy,
        floor=p_out / (2.0 * math.pi),
        mass=float(density.sum() * 2.0 * math.pi / _GRID),
        minima=theta[lower],
        start=start,
        path=path,
        path_energy=np.interp(path, theta, energy, period=2.0 * math.pi),
        nearest=nearest,
        overlap=float(cos[nearest]),
    )


def _descend(
    start: float, theta: np.ndarray, w: np.ndarray, p: np.ndarray, beta: float, X: np.ndarray
) -> np.ndarray:
    """Angles of Riemannian gradient descent on E = −log P_β(x) from ``start`` (step 1/β).

    −dE/dθ = β Σ_μ r_μ(x) w^μ·t(θ) is evaluated once on the grid (one call of the library's
    responsibilities) and interpolated, periodically, between grid points.
    """
    one = np.zeros((theta.size, 2))
    one[:, 1] = 1.0  # soft label: all weight on class y = 1
    r = np.asarray(model.responsibilities(X, one, w, p, beta))[:, 1:]
    tangent = np.column_stack([-np.sin(theta), np.cos(theta)])
    drift = np.sum(r * (tangent @ w.T), axis=1)  # (1/β)(−dE/dθ)
    h = theta[1] - theta[0]  # uniform grid from −π
    ring = np.append(drift, drift[0])
    path = np.empty(_DESCENT_STEPS + 1)
    path[0] = th = start
    for k in range(_DESCENT_STEPS):
        u = (th + math.pi) / h
        i = int(u) % theta.size
        f = u - math.floor(u)
        th = math.remainder(th + (1.0 - f) * ring[i] + f * ring[i + 1], 2.0 * math.pi)
        path[k + 1] = th
    return path


def normaliser_view(N: Any = 784, beta_max: Any = 300.0, points: Any = 200) -> NormaliserView:
    """τ(β) exact, by Eq. 18, by β²/(2N) and through ``scipy.special.ive``, at one N.

    Notes
    -----
    Eq. 17 gives τ(β) = log Γ(N/2) + (1 − N/2) log(β/2) + log I_{N/2−1}(β); the textbook
    route writes log I_ν(β) = β + log ive(ν, β), and ``ive`` underflows to 0 for large ν at
    moderate β (N = 784: every β below about 90), so τ becomes −inf. The exact values come from
    :func:`assocmem.potts_dam.vmf.tau` (log space, no underflow), Eq. 18 from the same function
    with ``approx=True``.

    Parameters
    ----------
    N : int
        Dimension, 3 to 100000.
    beta_max : float
        Largest β of the grid, in [1, 1000].
    points : int
        Grid points (geometric from 1e-2 to ``beta_max``), 20 to 1000.

    Returns
    -------
    NormaliserView

    Examples
    --------
    >>> v = normaliser_view(784, 300.0, 50)
    >>> v.max_error18 < 5e-4, 50 < v.underflow < 60
    (True, True)
    """
    N = check_positive_int(N, "N", minimum=_N_RANGE[0], maximum=_N_RANGE[1])
    beta_max = check_fraction(beta_max, "beta_max", *_BETA_MAX_RANGE, open_lo=False, open_hi=False)
    points = check_positive_int(
        points, "points", minimum=_POINTS_RANGE[0], maximum=_POINTS_RANGE[1]
    )
    beta = np.geomspace(1e-2, beta_max, points)
    exact = np.asarray(vmf.tau(N, beta))
    eq18 = np.asarray(vmf.tau(N, beta, approx=True))
    quadratic = beta**2 / (2.0 * N)
    with np.errstate(divide="ignore"):
        naive = (
            gammaln(0.5 * N)
            + (1.0 - 0.5 * N) * np.log(0.5 * beta)
            + beta
            + np.log(ive(0.5 * N - 1.0, beta))
        )
    error18 = np.abs(eq18 - exact)
    return NormaliserView(
        N=N,
        beta=beta,
        exact=exact,
        eq18=eq18,
        quadratic=quadratic,
        naive=naive,
        error18=error18,
        error_quadratic=np.abs(quadratic - exact),
        max_error18=float(error18.max()),
        underflow=_ive_underflow(N),
    )


def _ive_underflow(N: int) -> float:
    """The β below which ``ive(N/2 − 1, β)`` is 0, by bisection on the boundary (0: never).

    It depends on N only, so every view at the same N reports the same threshold.
    """
    nu = 0.5 * N - 1.0
    lo = 1e-2
    if ive(nu, lo) > 0:
        return 0.0
    hi = 2.0 * lo
    while ive(nu, hi) == 0:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if ive(nu, mid) == 0:
            lo = mid
        else:
            hi = mid
    return float(lo)


def overlap_view(v: Any = 1.0, N: Any = 200, n: Any = 400, seed: Any = 0) -> OverlapView:
    """Overlaps of n samples of vMF(w*, κ = vN) on S^{N−1} with w*, against ς(2v).

    Notes
    -----
    The teacher of the paper (Sec. 2.2) draws each example from vMF(w*, β*) with β* = vN. The
    overlap x·w* concentrates, as N → ∞, on ς(2v) = 2v/(√(4v² + 1) + 1), the factor that turns
    β into β_eff = ς(2v) β in Eqs. 9-10; at finite N its mean is A_N(vN) =
    I_{N/2}(vN)/I_{N/2−1}(vN) (:func:`assocmem.potts_dam.vmf.mean_resultant_length`). The
    samples come from :func:`assocmem.potts_dam.vmf.sample_vmf` with w* = e₁.

    Parameters
    ----------
    v : float
        Teacher noise parameter v = β*/N, in [0.01, 100].
    N : int
        Dimension, 3 to 2000.
    n : int
        Number of samples, 10 to 20000.
    seed : int
        Seed of the draw, >= 0.

    Returns
    -------
    OverlapView

    Examples
    --------
    >>> o = overlap_view(1.0, 200, 400, 0)
    >>> abs(o.mean - o.varsigma) < 0.01
    True
    """
    v = check_fraction(v, "v", *_V_RANGE, open_lo=False, open_hi=False)
    N = check_positive_int(N, "N", minimum=_SAMPLE_N_RANGE[0], maximum=_SAMPLE_N_RANGE[1])
    n = check_positive_int(n, "n", minimum=_SAMPLES_RANGE[0], maximum=_SAMPLES_RANGE[1])
    seed = check_positive_int(seed, "seed", minimum=0)
    kappa = v * N
    mu = np.zeros(N)
    mu[0] = 1.0
    overlaps = vmf.sample_vmf(mu, kappa, n, rng=seed)[:, 0]
    grid = np.geomspace(_V_RANGE[0], _V_RANGE[1], _CURVE)
    return OverlapView(
        v=v,
        kappa=kappa,
        N=N,
        n=n,
        seed=seed,
        overlaps=overlaps,
        mean=float(overlaps.mean()),
        std=float(overlaps.std()),
        varsigma=float(vmf.varsigma(2.0 * v)),
        mean_length=float(vmf.mean_resultant_length(N, kappa)),
        v_grid=grid,
        varsigma_curve=np.asarray(vmf.varsigma(2.0 * grid)),
        length_curve=np.asarray(vmf.mean_resultant_length(N, grid * N)),
    )


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------


def _markers(x: Any, y: Any, name: str, refs: tuple[str, str], **marker: Any) -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "markers",
        "x": _finite(x),
        "y": _finite(y),
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        "marker": marker,
    }


@tidied
def plot_circle(view: Any, height: int = 440) -> go.Figure:
    """The density on the circle, its energy and one descent path.

    Parameters
    ----------
    view : CircleView
        From :func:`circle_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: the unit circle (grey), the density drawn radially as r = 1 + P_β(x)/max P_β
        (blue), the memories (red dots), the start (green) and end (black star) of the descent.
        Right: E(θ) = −log P_β against θ, the energy −log[p_h(0)/(2π)] of the uniform floor
        alone (grey dashes, when p_h(0) > 0), the memories' angles (red dotted) and the path.
    """
    check_instance(view, "view", CircleView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["density on the circle", "energy E = −log P"], widths=[1.0, 1.5], spacing=0.1
    )
    scale = 1.0 + v.density / float(v.density.max())
    ring = np.append(v.theta, v.theta[0])
    radial = np.append(scale, scale[0])
    # the path's points where it still moves (> 1e-3 rad from the last drawn one), and its end
    moved = np.abs(np.diff(np.unwrap(v.path))) > 1e-3
    shown = np.unique(np.concatenate([[0], np.flatnonzero(moved) + 1, [v.path.size - 1]]))
    end = float(v.path[-1])
    traces: list[dict[str, Any]] = [
        _line(
            np.cos(_TURN),
            np.sin(_TURN),
            "unit circle",
            xaxis=x1,
            yaxis=y1,
            line={"color": _GREY, "width": 1},
            hoverinfo="skip",
            showlegend=False,
        ),
        _line(
            radial * np.cos(ring),
            radial * np.sin(ring),
            "density (radial)",
            xaxis=x1,
            yaxis=y1,
            line={"color": _COLORS[0], "width": 2},
            hoverinfo="skip",
        ),
        _markers(
            np.cos(v.angles),
            np.sin(v.angles),
            "memories w<sup>μ</sup>",
            (x1, y1),
            color=_MEMORY,
            size=10,
        ),
        _markers(
            [math.cos(v.start)],
            [math.sin(v.start)],
            "start",
            (x1, y1),
            color=_COLORS[2],
            size=10,
            symbol="diamond",
        ),
        _markers(
            [math.cos(end)],
            [math.sin(end)],
            "end of descent",
            (x1, y1),
            color=_THEORY,
            size=12,
            symbol="star",
        ),
        _line(
            v.theta,
            v.energy,
            "E(θ)",
            xaxis=x2,
            yaxis=y2,
            line={"color": _COLORS[0], "width": 2},
            showlegend=False,
        ),
    ]
    traces.append(
        _markers(
            v.path[shown],
            v.path_energy[shown],
            "descent path",
            (x2, y2),
            color=_COLORS[2],
            size=5,
            opacity=0.6,
        )
    )
    for k, color, size, symbol in ((0, _COLORS[2], 10, "diamond"), (-1, _THEORY, 12, "star")):
        mark = _markers(
            [v.path[k]], [v.path_energy[k]], "", (x2, y2), color=color, size=size, symbol=symbol
        )
        traces.append({**mark, "showlegend": False})
    if v.floor > 0:
        layout["shapes"].append(_hline(-math.log(v.floor), x2, y2, color=_GREY))
        traces.append(
            _line(
                [None],
                [None],
                "uniform floor alone",
                xaxis=x2,
                yaxis=y2,
                line={"color": _GREY, "dash": "dash"},
            )
        )
    for a in v.angles:
        layout["shapes"].append(_vline(float(a), x2, y2, color=_MEMORY))
    traces.append(
        _line(
            [None],
            [None],
            "memory angles",
            xaxis=x2,
            yaxis=y2,
            line={"color": _MEMORY, "dash": "dot"},
        )
    )
    lim = 2.1
    layout[_axis(x1)].update(
        range=[-lim, lim], showticklabels=False, zeroline=False, showgrid=False
    )
    layout[_axis(y1)].update(
        range=[-lim, lim],
        showticklabels=False,
        zeroline=False,
        showgrid=False,
        scaleanchor=x1,
        scaleratio=1,
    )
    layout[_axis(x2)].update(title={"text": "θ (radians)"}, range=[-math.pi, math.pi])
    layout[_axis(y2)].update(title={"text": "E(θ)"})
    title = f"Energy on the circle and gradient descent, β = {_fmt(v.beta)}"
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_normaliser(view: Any, height: int = 440) -> go.Figure:
    """τ(β) four ways (left) and the errors of the two approximations (right), log axes.

    Parameters
    ----------
    view : NormaliserView
        From :func:`normaliser_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: τ exact (black), Eq. 18 (blue dashes), β²/(2N) (green dots) and the ``ive``
        route (red; missing where it is −inf, with a dotted line at the largest such β).
        Right: |Eq. 18 − exact| and |β²/(2N) − exact|.
    """
    check_instance(view, "view", NormaliserView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["τ(β) = log Ω<sub>N</sub>(β)/Ω<sub>N</sub>(0)", "absolute error"], spacing=0.12
    )

    def positive(a: np.ndarray) -> np.ndarray:
        return np.where(a > 0, a, np.nan)

    traces = [
        _line(
            v.beta,
            positive(v.exact),
            "exact (log space)",
            xaxis=x1,
            yaxis=y1,
            line={"color": _THEORY, "width": 3},
        ),
        _line(
            v.beta,
            positive(v.eq18),
            "Eq. 18",
            xaxis=x1,
            yaxis=y1,
            line={"color": _COLORS[0], "dash": "dash", "width": 2},
        ),
        _line(
            v.beta,
            positive(v.quadratic),
            "β²/(2N)",
            xaxis=x1,
            yaxis=y1,
            line={"color": _COLORS[2], "dash": "dot", "width": 2},
        ),
        _line(
            v.beta,
            positive(v.naive),
            "through ive (−inf: gap)",
            xaxis=x1,
            yaxis=y1,
            line={"color": _COLORS[1], "width": 2},
        ),
        _line(
            v.beta,
            positive(v.error18),
            "|Eq. 18 − exact|",
            xaxis=x2,
            yaxis=y2,
            line={"color": _COLORS[0], "width": 2},
            showlegend=False,
        ),
        _line(
            v.beta,
            positive(v.error_quadratic),
            "|β²/(2N) − exact|",
            xaxis=x2,
            yaxis=y2,
            line={"color": _COLORS[2], "dash": "dot", "width": 2},
            showlegend=False,
        ),
    ]
    if 0 < v.underflow <= v.beta[-1]:
        layout["shapes"].append(_vline(v.underflow, x1, y1, color=_COLORS[1]))
        layout.setdefault("annotations", []).append(
            {
                "x": math.log10(v.underflow),
                "y": 1.0,
                "xref": x1,
                "yref": f"{y1} domain",
                "text": "ive gives −inf to the left",
                "showarrow": False,
                "xanchor": "right",
                "yanchor": "top",
                "font": {"size": 11, "color": _COLORS[1]},
            }
        )
    for ref in (x1, x2):
        layout[_axis(ref)].update(type="log", dtick=1, title={"text": "β"})
    for ref in (y1, y2):
        layout[_axis(ref)].update(type="log", dtick=1, exponentformat="power")
    layout[_axis(y1)].update(title={"text": "τ(β)"})
    title = f"Log-normaliser τ(β) and its approximations, N = {v.N}"
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_overlaps(view: Any, height: int = 440) -> go.Figure:
    """Histogram of vMF sample overlaps (left) and ς(2v) against v (right).

    Parameters
    ----------
    view : OverlapView
        From :func:`overlap_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: the density histogram of x·w*, ς(2v) (black dashes), A_N(vN) (orange dots) and
        the sample mean (blue). Right: ς(2v) against v (black, log v axis), A_N(vN) at this N
        (orange dots) and the sample mean at the current v (blue circle).
    """
    check_instance(view, "view", OverlapView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["overlaps x·w* of the samples", "ς(2v) = β<sub>eff</sub>/β"], spacing=0.12
    )
    lo, hi = float(v.overlaps.min()), float(v.overlaps.max())
    pad = max(0.05 * (hi - lo), 1e-3)
    counts, edges = np.histogram(v.overlaps, bins=_BINS, range=(lo - pad, hi + pad), density=True)
    traces: list[dict[str, Any]] = [
        {
            "type": "bar",
            "x": _finite(0.5 * (edges[1:] + edges[:-1])),
            "y": _finite(counts),
            "width": float(edges[1] - edges[0]),
            "xaxis": x1,
            "yaxis": y1,
            "name": f"{v.n} samples, N = {v.N}",
            "marker": {"color": "rgba(31, 119, 180, 0.45)", "line": {"width": 0}},
        },
        _line([None], [None], "ς(2v)", xaxis=x1, yaxis=y1, line={"color": _THEORY, "dash": "dash"}),
        _line(
            [None],
            [None],
            "A<sub>N</sub>(vN)",
            xaxis=x1,
            yaxis=y1,
            line={"color": _COLORS[4], "dash": "dot"},
        ),
        _line([None], [None], "sample mean", xaxis=x1, yaxis=y1, line={"color": _COLORS[0]}),
        _line(
            v.v_grid,
            v.varsigma_curve,
            "ς(2v)",
            xaxis=x2,
            yaxis=y2,
            line={"color": _THEORY, "width": 2},
            showlegend=False,
        ),
        _line(
            v.v_grid,
            v.length_curve,
            "A<sub>N</sub>(vN)",
            xaxis=x2,
            yaxis=y2,
            line={"color": _COLORS[4], "dash": "dot", "width": 2},
            showlegend=False,
        ),
        _markers(
            [v.v],
            [v.mean],
            "sample mean",
            (x2, y2),
            color=_COLORS[0],
            size=10,
            symbol="circle-open",
            line={"width": 2},
        ),
    ]
    traces[-1]["showlegend"] = False
    layout["shapes"] += [
        _vline(v.varsigma, x1, y1, dash="dash", color=_THEORY),
        _vline(v.mean_length, x1, y1, dash="dot", color=_COLORS[4]),
        _vline(v.mean, x1, y1, dash="solid", color=_COLORS[0]),
    ]
    layout[_axis(x1)].update(title={"text": "x·w*"})
    layout[_axis(y1)].update(title={"text": "density"}, rangemode="tozero")
    layout[_axis(x2)].update(type="log", dtick=1, title={"text": "v = β*/N"})
    layout[_axis(y2)].update(range=[0, 1.02], title={"text": "mean overlap"})
    title = f"Overlaps of samples with their centre, v = {_fmt(v.v)}, N = {v.N}"
    layout.update(height=height, bargap=0, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)
