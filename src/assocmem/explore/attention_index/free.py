"""Figures for matrix denoising and free probability (attention-index chapter, ``ai-free``).

Source: E. Troiani, talk slides ("Denoising subproblem", "BO denoising and HCIZ integrals"), and
Bun, Allez, Bouchaud and Potters (2016) for the rotation-invariant estimator (RIE). The theory
(density of μ_Y = μ_A ⊞ SC(δ²), its support, the RIE map and its MMSE) comes from
:mod:`assocmem.quadratic.free`; the two view functions below draw one finite-d instance next to
it, so that the slider figure, the live widget and the tests call one function.

Notation map (A-units)
----------------------
- A = Wᵀ W/√(p d), p = max(1, round(ρ d)) (the Wishart signal)   -> ``sensing.sample_teacher``
- Z ~ GOE(d), Z = (H + Hᵀ)/√(2d)                               -> drawn here
- Y = A + δ Z, eigenvalues λ_i, eigenvectors u_i                  -> ``eigenvalues``
- ξ_i = u_iᵀ A u_i, the oracle eigenvalue (ours: the best value   -> ``oracle``
  any estimator with the eigenvectors of Y can give λ_i)
- f(λ) = λ − 2δ² v_Y(λ), the RIE map                             -> ``shrinkage``, ``shrunk``
- MMSE_den(δ²) = δ² − (4π²/3) δ⁴ ∫ μ_Y³                          -> ``mmse``

Public functions
----------------
denoising_view
    One draw of Y = A + δ Z at (ρ, δ², d): eigenvalues against the theory density and CDF (KS
    distance), the RIE map against the oracle eigenvalues, and the denoising error.
denoising_curves
    MMSE_den(δ²) for several ρ with finite-d RIE errors over seeds.
plot_denoising
    Histogram of the spectrum of Y over μ_Y with its edges; the RIE map over the oracle values.
plot_mmse_curves
    MMSE_den against δ² per ρ, simulation dots, and the Gaussian-prior and no-denoising lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    as_real_vector,
    as_rng,
    check_fraction,
    check_instance,
    check_positive_int,
)
from assocmem.quadratic import free, sensing

from .._checks import check_height
from .._layout import tidied
from .._panels import _axis, _hline, _panels, _vline
from ._common import _ks_sorted

__all__ = [
    "DenoisingCurves",
    "DenoisingView",
    "denoising_curves",
    "denoising_view",
    "plot_denoising",
    "plot_mmse_curves",
]

_D_RANGE = (20, 2000)  # eigh of a 2000 x 2000 matrix takes a few seconds on one core
_RHO_RANGE = (1e-3, 1e3)
_DELTA2_RANGE = (1e-3, 1e2)
_GRID = 400  # density points of a view
_CDF_NODES = 2000  # θ-nodes per support interval of the theory CDF
_MAX_CURVE_POINTS = 400
_MAX_SIMULATIONS = 400  # (ρ, δ², seed) triples of one denoising_curves call
_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
_HIST, _THEORY, _ORACLE, _PRIOR = "#9ecae1", "black", "#ff7f0e", "rgba(44, 160, 44, 0.15)"
_GREY_DASH = {"color": "grey", "dash": "dash"}
_ATOM = "#2ca02c"


@dataclass(frozen=True)
class DenoisingView:
    """One draw of Y = A + δ Z against the free-probability theory.

    Attributes
    ----------
    rho, delta2 : float
        ρ and δ².
    d, seed : int
        Dimension and seed of the draw.
    eigenvalues, oracle, shrunk : ndarray, shape (d,)
        λ_i (ascending), ξ_i = u_iᵀ A u_i and f(λ_i) (clipped to the support).
    edges : ndarray, shape (k, 2)
        Support of μ_Y (k = 1 or 2 intervals).
    x, density : ndarray, shape (400,)
        A grid over the support (with a margin) and μ_Y on it.
    map_x, shrinkage : ndarray
        Points of the support and f on them (NaN between two intervals: a gap in the line).
    prior_bulk : tuple of float
        The Wishart prior's bulk [√ρ + 1/√ρ − 2, √ρ + 1/√ρ + 2]; its atom (1 − ρ)₊ sits at 0.
    mse, mmse : float
        (1/d)‖Â − A‖²_F of the RIE on this draw, and MMSE_den(δ²) (d → ∞).
    ks : float
        Kolmogorov-Smirnov distance between the eigenvalues and the CDF of μ_Y.
    """

    rho: float
    delta2: float
    d: int
    seed: int
    eigenvalues: np.ndarray
    oracle: np.ndarray
    shrunk: np.ndarray
    edges: np.ndarray
    x: np.ndarray
    density: np.ndarray
    map_x: np.ndarray
    shrinkage: np.ndarray
    prior_bulk: tuple[float, float]
    mse: float
    mmse: float
    ks: float

    @property
    def atom(self) -> float:
        """Mass (1 − ρ)₊ of the prior's zero eigenvalue."""
        return max(0.0, 1.0 - self.rho)


@dataclass(frozen=True)
class DenoisingCurves:
    """MMSE_den(δ²) per ρ with the RIE's error on finite-d draws.

    Attributes
    ----------
    rhos : ndarray, shape (k,)
    delta2 : ndarray, shape (m,)
        The theory grid.
    mmse : ndarray, shape (k, m)
        MMSE_den(δ²) per ρ.
    sim_delta2 : ndarray, shape (s,)
    sim_mse : ndarray, shape (k, s, seeds)
        (1/d)‖Â − A‖²_F of the RIE (with clipping) per ρ, δ² and seed.
    d : int
    """

    rhos: np.ndarray
    delta2: np.ndarray
    mmse: np.ndarray
    sim_delta2: np.ndarray
    sim_mse: np.ndarray
    d: int


# --------------------------------------------------------------------------------------------
# Compute
# --------------------------------------------------------------------------------------------


def _check_rho(rho: Any, name: str = "rho") -> float:
    return check_fraction(rho, name, *_RHO_RANGE, open_lo=False, open_hi=False)


def _check_delta2(delta2: Any, name: str = "delta2") -> float:
    return check_fraction(delta2, name, *_DELTA2_RANGE, open_lo=False, open_hi=False)


def _check_d(d: Any) -> int:
    return check_positive_int(d, "d", minimum=_D_RANGE[0], maximum=_D_RANGE[1])


def denoising_view(rho: Any, delta2: Any, d: Any = 300, seed: Any = 0) -> DenoisingView:
    """Draw Y = A + δ Z once and set it against μ_Y and the RIE (slides, "Denoising subproblem").

    Parameters
    ----------
    rho : float
        ρ = p/d of the Wishart prior, in [1e-3, 1e3].
    delta2 : float
        Noise variance δ², in [1e-3, 1e2].
    d : int
        Dimension, 20 to 2000.
    seed : int
        Seed of the draw (A, then Z), >= 0.

    Returns
    -------
    DenoisingView

    Notes
    -----
    The RIE keeps the eigenvectors u_i of Y and replaces λ_i by f(λ_i) = λ_i − 2δ² v_Y(λ_i)
    (Ledoit-Péché; Bun et al. 2016). Among all estimators with those eigenvectors, the one with
    values ξ_i = u_iᵀ A u_i minimises ‖Â − A‖_F (it is the projection of A); it needs A, so it
    is an oracle, and f(λ_i) ≈ ξ_i is what makes the RIE optimal as d → ∞ (ours).

    Examples
    --------
    >>> v = denoising_view(0.5, 0.6, d=200)
    >>> abs(v.mse - v.mmse) < 0.03
    True
    """
    rho, delta2 = _check_rho(rho), _check_delta2(delta2)
    d = _check_d(d)
    seed = check_positive_int(seed, "seed", minimum=0)
    A, Z = _draw(d, rho, seed)
    lam, U = np.linalg.eigh(A + math.sqrt(delta2) * Z)
    oracle = np.sum(U * (A @ U), axis=0)
    shrunk = np.asarray(free.rie_shrinkage(lam, rho, delta2))
    # ‖U diag(f) Uᵀ − A‖²_F = Σ f² − 2 Σ f·(uᵢᵀ A uᵢ) + ‖A‖²_F (U orthogonal): no d³ product for Â
    sq_error = float(shrunk @ shrunk - 2.0 * shrunk @ oracle + np.sum(A * A))
    edges = free.free_conv_support(rho, delta2)
    x = _grid(edges)
    map_x = _map_points(edges)
    inside = ~np.isnan(map_x)
    shrinkage = np.full(map_x.shape, np.nan)
    shrinkage[inside] = free.rie_shrinkage(map_x[inside], rho, delta2)
    centre = math.sqrt(rho) + 1.0 / math.sqrt(rho)
    return DenoisingView(
        rho=rho,
        delta2=delta2,
        d=d,
        seed=seed,
        eigenvalues=lam,
        oracle=oracle,
        shrunk=shrunk,
        edges=edges,
        x=x,
        density=np.asarray(free.free_conv_density(x, rho, delta2)),
        map_x=map_x,
        shrinkage=shrinkage,
        prior_bulk=(centre - 2.0, centre + 2.0),
        mse=sq_error / d,
        mmse=float(free.rie_mmse(delta2, rho)),
        ks=_ks(lam, edges, rho, delta2),
    )


def denoising_curves(
    rhos: Any,
    delta2: Any,
    sim_delta2: Any,
    d: Any = 300,
    seeds: Any = 2,
) -> DenoisingCurves:
    """MMSE_den(δ²) per ρ (theory) and the RIE's error on ``seeds`` draws at each ``sim_delta2``.

    Parameters
    ----------
    rhos : sequence of float
        Values of ρ, each in [1e-3, 1e3] (at most 6).
    delta2 : sequence of float
        Theory grid, each in [1e-3, 1e2] (at most 400 points).
    sim_delta2 : sequence of float
        Noise levels of the simulations, each in [1e-3, 1e2].
    d : int
        Dimension of the simulations, 20 to 2000.
    seeds : int
        Draws per (ρ, δ²), 1 to 20; draw ``s`` uses seed ``s`` (A and Z shared across δ²).

    Returns
    -------
    DenoisingCurves

    Examples
    --------
    >>> c = denoising_curves([0.5], [0.1, 1.0], [0.6], d=100, seeds=1)
    >>> c.sim_mse.shape
    (1, 1, 1)
    """
    rhos = _values(rhos, "rhos", _check_rho, len(_COLORS))
    grid = _values(delta2, "delta2", _check_delta2, _MAX_CURVE_POINTS)
    sims = _values(sim_delta2, "sim_delta2", _check_delta2, _MAX_CURVE_POINTS)
    d = _check_d(d)
    seeds = check_positive_int(seeds, "seeds", minimum=1, maximum=20)
    if rhos.size * sims.size * seeds > _MAX_SIMULATIONS:
        raise ValueError(
            f"seeds must keep len(rhos) * len(sim_delta2) * seeds <= {_MAX_SIMULATIONS}, got "
            f"{rhos.size} * {sims.size} * {seeds}; simulate fewer points"
        )
    mmse = np.array([free.rie_mmse(grid, r) for r in rhos])
    sim = np.empty((rhos.size, sims.size, seeds))
    for i, r in enumerate(rhos):
        for s in range(seeds):
            A, Z = _draw(d, float(r), s)
            for j, t in enumerate(sims):
                A_hat = free.rie_denoise(A + math.sqrt(t) * Z, float(r), float(t))
                sim[i, j, s] = np.sum((A_hat - A) ** 2) / d
    return DenoisingCurves(rhos, grid, mmse, sims, sim, d)


def _values(values: Any, name: str, check: Any, most: int) -> np.ndarray:
    arr = as_real_vector(values, name, min_size=1)
    if arr.size > most:
        raise ValueError(f"{name} must have at most {most} entries, got {arr.size}")
    return np.array([check(float(v), name) for v in arr])


def _draw(d: int, rho: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The Wishart signal A (A-units) and a GOE(d) matrix Z from one seed."""
    gen = as_rng(seed)
    A = sensing.sample_teacher(d, rho, gen)
    H = gen.standard_normal((d, d))
    return A, (H + H.T) / math.sqrt(2.0 * d)


def _grid(edges: np.ndarray) -> np.ndarray:
    lo, hi = float(edges[0, 0]), float(edges[-1, 1])
    pad = 0.05 * (hi - lo)
    return np.linspace(lo - pad, hi + pad, _GRID)


def _map_points(edges: np.ndarray) -> np.ndarray:
    """Points on each support interval (cos-spaced, edges included), NaN between intervals."""
    n = _GRID // len(edges)
    parts = []
    for lo, hi in edges:
        parts.append(0.5 * (lo + hi) - 0.5 * (hi - lo) * np.cos(np.linspace(0.0, np.pi, n)))
        parts.append(np.array([np.nan]))
    return np.concatenate(parts[:-1])


def _ks(lam: np.ndarray, edges: np.ndarray, rho: float, delta2: float) -> float:
    """Kolmogorov-Smirnov distance of the sorted ``lam`` to the CDF of μ_Y."""
    theta = np.linspace(0.0, np.pi, _CDF_NODES)
    xs, cdf, total = [], [], 0.0
    for lo, hi in edges:
        half = 0.5 * (hi - lo)
        x = 0.5 * (lo + hi) - half * np.cos(theta)
        w = np.asarray(free.free_conv_density(x, rho, delta2)) * half * np.sin(theta)
        steps = 0.5 * (w[1:] + w[:-1]) * np.diff(theta)
        xs.append(x)
        cdf.append(total + np.concatenate([[0.0], np.cumsum(steps)]))
        total = float(cdf[-1][-1])
    return _ks_sorted(np.interp(lam, np.concatenate(xs), np.concatenate(cdf) / total))


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------


def _line(x: Any, y: Any, refs: tuple[str, str], name: str, **style: Any) -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "lines",
        "x": x,
        "y": y,
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        **style,
    }


@tidied
def plot_denoising(view: Any, height: int = 460) -> go.Figure:
    """The spectrum of Y = A + δ Z over μ_Y, and the RIE map over the oracle eigenvalues.

    Parameters
    ----------
    view : DenoisingView
        From :func:`denoising_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: histogram (density) of the d eigenvalues of Y, the density of μ_A ⊞ SC(δ²)
        (black) and its support edges (dotted). Right: the oracle values ξ_i = u_iᵀ A u_i
        (orange dots), the RIE map f(λ) = λ − 2δ² v(λ) on the support (black), the identity
        (grey dashes) and the prior's bulk (green band; its atom is the line at 0 for ρ < 1).
    """
    check_instance(view, "view", DenoisingView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["spectrum of Y", "RIE map f(λ)"], widths=[1.2, 1.0], spacing=0.1
    )
    lo, hi = float(v.x[0]), float(v.x[-1])
    bins = max(20, min(60, v.d // 6))  # six or more eigenvalues per bin on average
    counts, bins = np.histogram(v.eigenvalues, bins=bins, range=(lo, hi), density=True)
    traces: list[dict[str, Any]] = [
        {
            "type": "bar",
            "x": np.round(0.5 * (bins[1:] + bins[:-1]), 4),
            "y": np.round(counts, 4),
            "width": float(bins[1] - bins[0]),
            "xaxis": x1,
            "yaxis": y1,
            "name": f"eigenvalues of Y (d = {v.d})",
            "marker": {"color": _HIST, "line": {"width": 0}},
            "hovertemplate": "λ = %{x:.3f}<br>density %{y:.3f}<extra></extra>",
        },
        _line(
            np.round(v.x, 4),
            np.round(v.density, 4),
            (x1, y1),
            "μ<sub>A</sub> ⊞ SC(δ²)",
            line={"color": _THEORY, "width": 2},
        ),
    ]
    for edge in np.unique(v.edges):
        layout["shapes"].append(_vline(float(edge), x1, y1, color=_THEORY))
    traces += [
        _line(
            np.round(v.map_x, 4),
            np.round(v.shrinkage, 4),
            (x2, y2),
            "f(λ) = λ − 2δ²v(λ)",
            line={"color": _THEORY, "width": 1.5},
            connectgaps=False,
        ),
        {
            "type": "scatter",
            "mode": "markers",
            "x": np.round(v.eigenvalues, 4),
            "y": np.round(v.oracle, 4),
            "xaxis": x2,
            "yaxis": y2,
            "name": "oracle ξ<sub>i</sub> = u<sub>i</sub><sup>T</sup>Au<sub>i</sub>",
            "marker": {"color": _ORACLE, "size": 4, "opacity": 0.45},
            "hovertemplate": "λ = %{x:.3f}<br>ξ = %{y:.3f}<extra></extra>",
        },
        _line([lo, hi], [lo, hi], (x2, y2), "identity", line={"color": "grey", "dash": "dash"}),
    ]
    layout["shapes"].append(_band(v.prior_bulk, x2, y2))
    if v.atom > 0:
        layout["shapes"].append(_hline(0.0, x2, y2, dash="solid", color=_ATOM))
    traces.append(_prior_key(x2, y2))
    layout[_axis(x1)].update(title={"text": "λ"}, range=[lo, hi])
    layout[_axis(y1)].update(title={"text": "density"}, rangemode="tozero")
    layout[_axis(x2)].update(title={"text": "λ"}, range=[lo, hi])
    layout[_axis(y2)].update(title={"text": "estimated eigenvalue"})
    title = (
        f"Y = A + δZ at ρ = {v.rho:.3g}, δ² = {v.delta2:.3g}: RIE error {v.mse:.4f} "
        f"(MMSE {v.mmse:.4f}), KS {v.ks:.3f}"
    )
    layout.update(height=height, bargap=0, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


def _band(bulk: tuple[float, float], xref: str, yref: str) -> dict[str, Any]:
    return {
        "type": "rect",
        "xref": f"{xref} domain",
        "yref": yref,
        "x0": 0,
        "x1": 1,
        "y0": max(bulk[0], 0.0),
        "y1": bulk[1],
        "fillcolor": _PRIOR,
        "line": {"width": 0},
        "layer": "below",
    }


def _prior_key(x: str, y: str) -> dict[str, Any]:
    """A legend entry for the prior's bulk band (shapes have none)."""
    return {
        "type": "scatter",
        "mode": "markers",
        "x": [None],
        "y": [None],
        "xaxis": x,
        "yaxis": y,
        "name": "spectrum of the prior A",
        "marker": {"symbol": "square", "size": 12, "color": "rgba(44, 160, 44, 0.4)"},
    }


@tidied
def plot_mmse_curves(curves: Any, height: int = 430) -> go.Figure:
    """MMSE_den(δ²) against δ² per ρ, with the RIE's error on finite-d draws.

    Parameters
    ----------
    curves : DenoisingCurves
        From :func:`denoising_curves`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per ρ (theory), its simulation means ± one standard deviation over the seeds
        (dots), the Gaussian-prior MMSE δ²/(1 + δ²) (grey dashes, the ρ → ∞ limit) and the
        error δ² of Y itself (grey dots); log δ² axis.
    """
    check_instance(curves, "curves", DenoisingCurves)
    height = check_height(height)
    c = curves
    t = c.delta2
    traces: list[dict[str, Any]] = []
    for i, rho in enumerate(c.rhos):
        color = _COLORS[i]
        traces.append(
            _line(t, np.round(c.mmse[i], 5), ("x", "y"), f"ρ = {rho:g}", line={"color": color})
        )
        sims = c.sim_mse[i]
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": c.sim_delta2,
                "y": np.round(sims.mean(axis=1), 5),
                "error_y": {"type": "data", "array": np.round(sims.std(axis=1), 5)},
                "marker": {"color": color, "size": 8, "symbol": "circle-open"},
                "name": f"RIE at ρ = {rho:g}",
                "showlegend": False,
            }
        )
    traces += [
        {
            "type": "scatter",
            "mode": "markers",
            "x": [None],
            "y": [None],
            "name": f"RIE on draws at d = {c.d} (mean ± sd)",
            "marker": {"color": "grey", "size": 8, "symbol": "circle-open"},
        },
        _line(t, t / (1 + t), ("x", "y"), "δ²/(1 + δ²): Gaussian prior", line=_GREY_DASH),
        _line(t, t, ("x", "y"), "δ²: Y itself", line={"color": "grey", "dash": "dot"}),
    ]
    layout = {
        "height": height,
        "title": {"text": "denoising MMSE against the noise", "font": {"size": 14}},
        "xaxis": {"title": {"text": "δ²"}, "type": "log"},
        "yaxis": {"title": {"text": "(1/d)‖Â − A‖²"}, "range": [0, 1.05]},
    }
    return go.Figure(data=traces, layout=layout)
