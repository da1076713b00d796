"""Figures for quadratic networks as matrix sensing (attention-index chapter, ``ai-sensing``).

Source: E. Troiani, talk slides ("Multi-index models", "The attention is an index", "Quadratic
networks", "BO attention"); Maillard et al. 2024 (arXiv:2408.03733) and Boncoraglio et al. 2025
(arXiv:2506.01582). The data come from :mod:`assocmem.quadratic.sensing` and
:mod:`assocmem.quadratic.attention`; the three view functions below measure, on one draw, what
the section's figures show, so that the slider figure, the live widget and the tests call one
function.

Notation map
------------
- W ∈ R^{p×d}, A = Wᵀ W/√(p d), p = max(1, round(ρ d))          -> ``W``, ``A``, ``rho``
- G_μ = (x_μ x_μᵀ − I)/√d, y_μ = Tr[G_μ A]                       -> ``sensing``
- dimension of rank-p PSD matrices, pd − p(p−1)/2 (d(d+1)/2 for  -> ``rank``, measured as the
  p ≥ d)                                                            rank of W ↦ Wᵀ W's tangent map
- α_PR = ρ − ρ²/2 (ρ < 1), ½ (ρ ≥ 1)                              -> ``alpha_pr``
- T tokens, logits h_ab = (x_aᵀ A x_b − δ_ab Tr A)/√d              -> ``T``, ``H``
- identifiable forms of a softmax, T(T+1)/2 − 1                   -> ``identifiable``

Public functions
----------------
counting_view
    The measured dimension of rank-p PSD d × d matrices for every p ≤ 2d, against α_PR(ρ).
token_view
    Logits, the rank of what a softmax reveals, and the one lost direction c·11ᵀ, for T tokens.
equivalence_view
    Labels and the sensing adjoint's spectrum for network data against the GOE surrogate.
plot_counting, plot_tokens, plot_equivalence
    Their figures.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import (
    as_rng,
    check_fraction,
    check_instance,
    check_positive_int,
)
from assocmem.quadratic import attention, sensing, thresholds

from .._checks import check_height
from .._layout import tidied
from .._panels import _axis, _hline, _panels
from ._common import _ks_sorted

__all__ = [
    "CountingView",
    "EquivalenceView",
    "TokenView",
    "counting_view",
    "equivalence_view",
    "plot_counting",
    "plot_equivalence",
    "plot_tokens",
    "token_view",
]

_T_MAX = 8  # tokens shown in the count (a softmax over 8 tokens: 35 forms)
_RHO_GRID = np.geomspace(0.01, 2.0, 200)
_BLUE, _ORANGE, _GREY, _GREEN = "#1f77b4", "#ff7f0e", "#7f7f7f", "#2ca02c"


@dataclass(frozen=True)
class CountingView:
    """Degrees of freedom of a rank-p PSD matrix, measured, against α_PR.

    Attributes
    ----------
    rho : float
        ρ as asked; the width used is p = max(1, round(ρ d)).
    d, p : int
    widths : ndarray, shape (2d,)
        p' = 1, …, 2d.
    ranks : ndarray, shape (2d,)
        Rank of the tangent map δW ↦ δWᵀW + WᵀδW at a Gaussian W ∈ R^{p'×d}: the dimension of
        the rank-p' PSD matrices near WᵀW.
    formula : ndarray, shape (2d,)
        p'd − p'(p'−1)/2 for p' ≤ d, d(d+1)/2 above.
    rho_grid, alpha_pr_curve : ndarray, shape (200,)
        α_PR(ρ) on ρ ∈ [0.01, 2].
    alpha_pr : float
        α_PR at ``rho``.
    """

    rho: float
    d: int
    p: int
    widths: np.ndarray
    ranks: np.ndarray
    formula: np.ndarray
    rho_grid: np.ndarray
    alpha_pr_curve: np.ndarray
    alpha_pr: float

    @property
    def rank(self) -> int:
        """The measured dimension at p."""
        return int(self.ranks[self.p - 1])


@dataclass(frozen=True)
class TokenView:
    """What a softmax over T tokens reveals about the symmetric logits.

    Attributes
    ----------
    T : int
    beta : float
    tokens : ndarray, shape (8,)
        T' = 1, …, 8.
    logits, identifiable : ndarray, shape (8,)
        T'(T'+1)/2, and the measured rank of H ↦ (h_ab − h_aT')_ab on symmetric H (0 at T' = 1).
    H, H_rec : ndarray, shape (T, T)
        The logits of one sequence and the minimum-norm symmetric logits with the same softmax.
    """

    T: int
    beta: float
    tokens: np.ndarray
    logits: np.ndarray
    identifiable: np.ndarray
    H: np.ndarray
    H_rec: np.ndarray

    @property
    def shift(self) -> float:
        """The mean of H_rec − H: the constant c of the lost direction c·11ᵀ."""
        return float(np.mean(self.H_rec - self.H))

    @property
    def spread(self) -> float:
        """max − min of the entries of H_rec − H (0 when the difference is c·11ᵀ)."""
        diff = self.H_rec - self.H
        return float(diff.max() - diff.min())


@dataclass(frozen=True)
class EquivalenceView:
    """Network data against the Gaussian-equivalent GOE surrogate at one (d, ρ, α).

    Attributes
    ----------
    d, n : int
    rho, alpha : float
    Q : float
        Tr(A²)/d of the network data's teacher; the labels have variance 2Q.
    labels, labels_goe : ndarray, shape (n,)
        y_μ = Tr[G_μ A] for network data and for the surrogate (its own teacher).
    identity_error : float
        max_μ |quadnet_output(W, x_μ) − Tr[G_μ A]| on the network data.
    spectrum, spectrum_goe : ndarray, shape (d,)
        Eigenvalues of Σ_μ ξ_μ G_μ/√n, ξ_μ ~ N(0, 1), for each kind of data.
    ks, ks_goe : float
        Kolmogorov-Smirnov distances of those spectra to the semicircle on [−2, 2].
    """

    d: int
    n: int
    rho: float
    alpha: float
    Q: float
    labels: np.ndarray
    labels_goe: np.ndarray
    identity_error: float
    spectrum: np.ndarray
    spectrum_goe: np.ndarray
    ks: float
    ks_goe: float


# --------------------------------------------------------------------------------------------
# Compute
# --------------------------------------------------------------------------------------------


def counting_view(rho: Any, d: Any = 16, seed: Any = 0) -> CountingView:
    """Measure the dimension of rank-p PSD matrices (p = 1, …, 2d) and set it against α_PR.

    Parameters
    ----------
    rho : float
        ρ = p/d, in [0.01, 2].
    d : int
        Dimension, 2 to 24 (the first call at a d measures 2d ranks: 2 s at d = 24, then
        cached).
    seed : int
        Seed of the Gaussian W's, >= 0.

    Returns
    -------
    CountingView

    Notes
    -----
    The map W ↦ WᵀW from R^{p×d} is invariant under W ↦ OW, O ∈ O(p), a group of dimension
    p(p−1)/2; its image near a generic W has dimension pd − p(p−1)/2 for p ≤ d, and the whole
    d(d+1)/2 of Sym(d) for p ≥ d. Dividing by d² gives α_PR = ρ − ρ²/2 and ½ (slides,
    "Learning curves": "α_c = ρ − ρ²/2"). We measure the rank of the tangent map.

    Examples
    --------
    >>> v = counting_view(0.5, d=8)
    >>> v.p, v.rank  # 4 * 8 − 4 * 3 / 2
    (4, 26)
    """
    r = check_fraction(rho, "rho", 0.01, 2.0, open_lo=False, open_hi=False)
    d = check_positive_int(d, "d", minimum=2, maximum=24)
    seed = check_positive_int(seed, "seed", minimum=0)
    widths = np.arange(1, 2 * d + 1)
    small = np.minimum(widths, d)
    formula = small * d - small * (small - 1) // 2
    return CountingView(
        rho=r,
        d=d,
        p=max(1, round(r * d)),
        widths=widths,
        ranks=_tangent_ranks(d, seed).copy(),
        formula=formula,
        rho_grid=_RHO_GRID,
        alpha_pr_curve=np.asarray(thresholds.perfect_recovery_threshold(_RHO_GRID)),
        alpha_pr=float(thresholds.perfect_recovery_threshold(r)),
    )


@functools.lru_cache(maxsize=8)
def _tangent_ranks(d: int, seed: int) -> np.ndarray:
    """Rank of δW ↦ δWᵀW + WᵀδW on upper-triangular coordinates, for p = 1, …, 2d."""
    gen = as_rng(seed)
    eye = np.eye(d)
    iu = np.triu_indices(d)
    out = np.empty(2 * d, dtype=int)
    for p in range(1, 2 * d + 1):
        W = gen.standard_normal((p, d))
        J = np.einsum("jk,il->ijkl", eye, W) + np.einsum("ik,jl->ijkl", W, eye)
        out[p - 1] = np.linalg.matrix_rank(J[:, :, iu[0], iu[1]].reshape(p * d, -1))
    return out


def token_view(T: Any, beta: Any = 1.0, d: Any = 40, rho: Any = 0.5, seed: Any = 0) -> TokenView:
    """Measure what a softmax over T tokens reveals about the logits (slides, "BO attention").

    Parameters
    ----------
    T : int
        Tokens, 2 to 8.
    beta : float
        Inverse temperature, in [0.01, 10].
    d : int
        Token dimension of the example sequence, 2 to 500.
    rho : float
        Width ratio of its teacher, in [0.01, 10].
    seed : int
        Seed of the teacher and the tokens, >= 0.

    Returns
    -------
    TokenView

    Notes
    -----
    A softmax row determines h_ab − h_aT (β⁻¹ log(y_ab/y_aT),
    :func:`assocmem.quadratic.attention.logit_differences`). On symmetric H the map
    H ↦ (h_ab − h_aT)_ab has the kernel {c·11ᵀ} (a symmetric matrix with constant rows), so
    its rank is T(T+1)/2 − 1 = (T² + T − 2)/2: the slides' "n → n/(T² + T − 2)" per factor
    2 of the quadratic network (ours). We measure the rank through the library's softmax and
    ``logit_differences``, and recover H up to that kernel.

    Examples
    --------
    >>> v = token_view(3)
    >>> v.identifiable[:4].tolist(), v.spread < 1e-9
    ([0, 2, 5, 9], True)
    """
    T = check_positive_int(T, "T", minimum=2, maximum=_T_MAX)
    b = check_fraction(beta, "beta", 0.01, 10.0, open_lo=False, open_hi=False)
    d = check_positive_int(d, "d", minimum=2, maximum=500)
    r = check_fraction(rho, "rho", 0.01, 10.0, open_lo=False, open_hi=False)
    seed = check_positive_int(seed, "seed", minimum=0)
    tokens = np.arange(1, _T_MAX + 1)
    ranks = np.array([0] + [np.linalg.matrix_rank(_softmax_map(t, b)) for t in tokens[1:]])
    gen = as_rng(seed)
    A = sensing.sample_teacher(d, r, gen)
    X = gen.standard_normal((T, d))
    H = np.asarray(attention.attention_logits(X, A))
    diffs = attention.logit_differences(attention.softmax_attention(X, A, b), b)
    coef = np.linalg.lstsq(_softmax_map(T, b), diffs.ravel(), rcond=None)[0]
    return TokenView(
        T=T,
        beta=b,
        tokens=tokens,
        logits=tokens * (tokens + 1) // 2,
        identifiable=ranks,
        H=H,
        H_rec=np.tensordot(coef, _sym_basis(T), axes=1),
    )


def _sym_basis(T: int) -> np.ndarray:
    """The T(T+1)/2 symmetric matrices e_a e_bᵀ + e_b e_aᵀ (a < b) and e_a e_aᵀ."""
    a, b = np.triu_indices(T)
    E = np.zeros((a.size, T, T))
    E[np.arange(a.size), a, b] = 1.0
    E[np.arange(a.size), b, a] = 1.0
    return E


def _softmax_map(T: int, beta: float) -> np.ndarray:
    """Matrix of H ↦ (h_ab − h_aT) on the symmetric basis, through softmax_β and back."""
    E = _sym_basis(T)
    z = np.exp(beta * (E - E.max(axis=2, keepdims=True)))
    y = z / z.sum(axis=2, keepdims=True)
    return attention.logit_differences(y, beta).reshape(len(E), -1).T


def equivalence_view(
    d: Any = 60, rho: Any = 0.5, alpha: Any = 0.3, seed: Any = 0
) -> EquivalenceView:
    """Network data against the GOE surrogate: labels and the sensing adjoint's spectrum.

    Parameters
    ----------
    d : int
        Dimension, 4 to 100 (the surrogate stores n d² = α d⁴ numbers).
    rho : float
        Teacher width ratio, in [0.01, 10].
    alpha : float
        Sample ratio n/d², in [0.01, 2].
    seed : int
        Seed; both data sets and the weights ξ derive from it, >= 0.

    Returns
    -------
    EquivalenceView

    Notes
    -----
    G_μ = (x_μx_μᵀ − I)/√d has the GOE's first two moments,
    E[G_ij G_kl] = (δ_ik δ_jl + δ_il δ_jk)/d (slides, "Sketch of analysis through AMP": "G_μ ~
    GOE(d)"), but one G_μ is far from a GOE matrix: it has one eigenvalue (‖x‖² − 1)/√d ≈ √d.
    What the analysis uses is the sensing operator: Σ_μ ξ_μ G_μ/√n is close to GOE(d) for both
    kinds of data, with semicircle spectrum on [−2, 2].

    Examples
    --------
    >>> v = equivalence_view(d=30, alpha=0.5)
    >>> v.identity_error < 1e-10, v.n
    (True, 450)
    """
    d = check_positive_int(d, "d", minimum=4, maximum=100)
    r = check_fraction(rho, "rho", 0.01, 10.0, open_lo=False, open_hi=False)
    a = check_fraction(alpha, "alpha", 0.01, 2.0, open_lo=False, open_hi=False)
    seed = check_positive_int(seed, "seed", minimum=0)
    net = sensing.sample_sensing(d, r, a, seed)
    goe = sensing.sample_sensing(d, r, a, seed + 1, surrogate=True)
    xi = as_rng(seed + 2).standard_normal(net.n) / math.sqrt(net.n)
    spec = np.linalg.eigvalsh(sensing.sensing_adjoint(net, xi))
    spec_goe = np.linalg.eigvalsh(sensing.sensing_adjoint(goe, xi))
    direct = sensing.quadnet_output(net.W, net.X)
    return EquivalenceView(
        d=d,
        n=net.n,
        rho=r,
        alpha=a,
        Q=float(np.sum(net.A**2) / d),
        labels=np.asarray(net.y),
        labels_goe=np.asarray(goe.y),
        identity_error=float(np.max(np.abs(direct - sensing.sensing_forward(net, net.A)))),
        spectrum=spec,
        spectrum_goe=spec_goe,
        ks=_ks_semicircle(spec),
        ks_goe=_ks_semicircle(spec_goe),
    )


def _semicircle_cdf(x: np.ndarray) -> np.ndarray:
    t = np.clip(x, -2.0, 2.0)
    return 0.5 + t * np.sqrt(4.0 - t**2) / (4.0 * np.pi) + np.arcsin(t / 2.0) / np.pi


def _ks_semicircle(lam: np.ndarray) -> float:
    return _ks_sorted(_semicircle_cdf(np.sort(lam)))


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------


def _scatter(x: Any, y: Any, refs: tuple[str, str], name: str, **style: Any) -> dict[str, Any]:
    base = {"type": "scatter", "x": x, "y": y, "xaxis": refs[0], "yaxis": refs[1], "name": name}
    return base | style


@tidied
def plot_counting(view: Any, height: int = 430) -> go.Figure:
    """Measured dimension of rank-p PSD matrices over d², against α_PR(ρ).

    Parameters
    ----------
    view : CountingView
        From :func:`counting_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        α_PR(ρ) = ρ − ρ²/2 (½ above ρ = 1, black), the naive count ρ = pd/d² (dotted), the
        dimension of Sym(d) over d², ½ (dashed); the measured dimensions over d² at ρ = p/d
        (blue dots), with the current p (orange) and α_PR(ρ) (black circle).
    """
    check_instance(view, "view", CountingView)
    height = check_height(height)
    v = view
    d2 = v.d**2
    grid = v.rho_grid
    traces = [
        _scatter(grid, v.alpha_pr_curve, ("x", "y"), "α<sub>PR</sub> = ρ − ρ²/2 (½ for ρ ≥ 1)")
        | {"mode": "lines", "line": {"color": "black"}},
        _scatter(grid[grid <= 0.6], grid[grid <= 0.6], ("x", "y"), "pd/d² = ρ (no gauge)")
        | {"mode": "lines", "line": {"color": _GREY, "dash": "dot"}},
        _scatter(v.widths / v.d, v.ranks / d2, ("x", "y"), f"measured dimension / d² (d = {v.d})")
        | {
            "mode": "markers",
            "marker": {"color": _BLUE, "size": 7},
            "customdata": v.ranks,
            "hovertemplate": "p/d = %{x:.3f}<br>dimension %{customdata}<extra></extra>",
        },
        _scatter([v.p / v.d], [v.rank / d2], ("x", "y"), f"p = {v.p}: dimension {v.rank}")
        | {"mode": "markers", "marker": {"color": _ORANGE, "size": 13, "symbol": "diamond"}},
        _scatter([v.rho], [v.alpha_pr], ("x", "y"), "α<sub>PR</sub>(ρ)")
        | {
            "mode": "markers",
            "marker": {"color": "black", "size": 12, "symbol": "circle-open", "line": {"width": 2}},
        },
    ]
    layout = {
        "height": height,
        "title": {
            "text": f"ρ = {v.rho:.3g}: α<sub>PR</sub> = {v.alpha_pr:.4f}; p = {v.p}, d = {v.d}: "
            f"pd − p(p−1)/2 = {int(v.formula[v.p - 1])}, measured {v.rank}",
            "font": {"size": 14},
        },
        "xaxis": {"title": {"text": "ρ = p/d"}, "range": [0, 2.05]},
        "yaxis": {"title": {"text": "samples per d² for perfect recovery"}, "range": [0, 0.65]},
        "shapes": [_hline(0.5, "x", "y", dash="dash", color=_GREY)],
        "annotations": [
            {
                "text": "dim Sym(d)/d² → ½",
                "x": 1.6,
                "y": 0.49,
                "xref": "x",
                "yref": "y",
                "yanchor": "top",
                "showarrow": False,
                "font": {"color": _GREY},
            }
        ],
    }
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_tokens(view: Any, height: int = 430) -> go.Figure:
    """Logits against identifiable forms per sequence, and the one direction a softmax loses.

    Parameters
    ----------
    view : TokenView
        From :func:`token_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: T(T+1)/2 logits (grey bars; the current T in blue), the measured rank of what the
        softmax reveals (orange dots) and (T² + T − 2)/2 (black line). Right: for the current T,
        the minimum-norm logits with the same softmax against the true ones (one dot per
        h_ab, a ≤ b): all on the line h + c (blue) beside the diagonal (dotted), since
        H_rec − H = c·11ᵀ.
    """
    check_instance(view, "view", TokenView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["forms per sequence", "recovered logits"], widths=[1.4, 1.0], spacing=0.12
    )
    colors = [_BLUE if t == v.T else "#c7c7c7" for t in v.tokens]
    factor = (v.tokens**2 + v.tokens - 2) // 2
    # the T(T+1)/2 distinct logits h_ab (a ≤ b) and their recovered values: all on one line of
    # slope 1, shifted by c, which is the direction c·11ᵀ the softmax loses
    upper = np.triu_indices(v.T)
    h, h_rec = np.round(v.H[upper], 6), np.round(v.H_rec[upper], 6)
    span = np.array([float(min(h.min(), h_rec.min())), float(max(h.max(), h_rec.max()))])
    pad = 0.08 * max(float(span[1] - span[0]), 1e-3)
    span = span + np.array([-pad, pad])
    traces = [
        {
            "type": "bar",
            "x": v.tokens,
            "y": v.logits,
            "xaxis": x1,
            "yaxis": y1,
            "name": "logits T(T+1)/2",
            "marker": {"color": colors},
        },
        _scatter(v.tokens, factor, (x1, y1), "(T² + T − 2)/2")
        | {"mode": "lines", "line": {"color": "black"}},
        _scatter(v.tokens, v.identifiable, (x1, y1), f"measured rank (β = {v.beta:g})")
        | {"mode": "markers", "marker": {"color": _ORANGE, "size": 10}},
        _scatter(span, span, (x2, y2), "diagonal h<sub>rec</sub> = h")
        | {"mode": "lines", "line": {"color": "#c7c7c7", "dash": "dot"}},
        _scatter(span, span + v.shift, (x2, y2), f"h + c, c = {v.shift:+.3f}")
        | {"mode": "lines", "line": {"color": _BLUE, "width": 1.5}},
        _scatter(h, h_rec, (x2, y2), f"logits h<sub>ab</sub>, a ≤ b (T = {v.T})")
        | {
            "mode": "markers",
            "marker": {"color": _BLUE, "size": 9},
            "hovertemplate": "h = %{x:.3f}<br>h<sub>rec</sub> = %{y:.3f}<extra></extra>",
        },
    ]
    layout[_axis(x1)].update(title={"text": "tokens T"}, dtick=1)
    layout[_axis(y1)].update(title={"text": "count"}, rangemode="tozero")
    layout[_axis(x2)].update(title={"text": "true logit h<sub>ab</sub>"}, range=list(span))
    layout[_axis(y2)].update(title={"text": "recovered h<sub>rec</sub>"})
    title = (
        f"T = {v.T}, β = {v.beta:g}: {int(v.identifiable[v.T - 1])} identifiable forms of "
        f"{int(v.logits[v.T - 1])}; H<sub>rec</sub> − H = {v.shift:+.3f}·11ᵀ "
        f"(spread {v.spread:.0e})"
    )
    layout.update(height=height, title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_equivalence(view: Any, height: int = 430) -> go.Figure:
    """Labels and the sensing adjoint's spectrum: network data against the GOE surrogate.

    Parameters
    ----------
    view : EquivalenceView
        From :func:`equivalence_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: histograms of the labels y_μ of both data sets and the Gaussian density of
        variance 2Q. Right: empirical CDFs of the eigenvalues of Σ_μ ξ_μ G_μ/√n and the
        semicircle's CDF on [−2, 2].
    """
    check_instance(view, "view", EquivalenceView)
    height = check_height(height)
    v = view
    layout, ((x1, y1, _), (x2, y2, _)) = _panels(
        ["labels y<sub>μ</sub>", "spectral CDF of Σ ξ<sub>μ</sub>G<sub>μ</sub>/√n"], spacing=0.1
    )
    sd = math.sqrt(2.0 * v.Q)
    y_grid = np.linspace(-4.0 * sd, 4.0 * sd, 201)
    s_grid = np.linspace(-2.0, 2.0, 201)
    traces = [
        _hist(v.labels, (x1, y1), "network data x<sub>μ</sub> ~ N(0, I)", _BLUE, True),
        _hist(v.labels_goe, (x1, y1), "GOE surrogate", _ORANGE, True),
        _scatter(
            y_grid,
            np.exp(-(y_grid**2) / (2 * sd**2)) / (sd * math.sqrt(2 * np.pi)),
            (x1, y1),
            "N(0, 2Q)",
        )
        | {"mode": "lines", "line": {"color": "black"}},
        _cdf(v.spectrum, (x2, y2), "network data", _BLUE),
        _cdf(v.spectrum_goe, (x2, y2), "GOE surrogate", _ORANGE),
        _scatter(s_grid, np.round(_semicircle_cdf(s_grid), 5), (x2, y2), "semicircle")
        | {"mode": "lines", "line": {"color": "black", "dash": "dash"}},
    ]
    layout[_axis(x1)].update(title={"text": "y"})
    layout[_axis(y1)].update(title={"text": "density"}, rangemode="tozero")
    layout[_axis(x2)].update(title={"text": "λ"})
    layout[_axis(y2)].update(title={"text": "fraction of eigenvalues ≤ λ"}, range=[0, 1.02])
    title = (
        f"d = {v.d}, n = {v.n}, ρ = {v.rho:g}: KS to the semicircle {v.ks:.3f} (network), "
        f"{v.ks_goe:.3f} (GOE)"
    )
    layout.update(height=height, barmode="overlay", title={"text": title, "font": {"size": 14}})
    return go.Figure(data=traces, layout=layout)


def _cdf(values: np.ndarray, refs: tuple[str, str], name: str, color: str) -> dict[str, Any]:
    lam = np.sort(values)
    frac = np.arange(1, lam.size + 1) / lam.size
    return _scatter(np.round(lam, 4), np.round(frac, 5), refs, name) | {
        "mode": "lines",
        "line": {"color": color, "shape": "hv"},
        "legendgroup": name.split(" ")[0],
        "showlegend": False,
    }


def _hist(values: np.ndarray, refs: tuple[str, str], name: str, color: str, legend: bool) -> dict:
    counts, edges = np.histogram(values, bins=40, density=True)
    return {
        "type": "bar",
        "x": np.round(0.5 * (edges[1:] + edges[:-1]), 4),
        "y": np.round(counts, 4),
        "width": float(edges[1] - edges[0]),
        "xaxis": refs[0],
        "yaxis": refs[1],
        "name": name,
        "opacity": 0.5,
        "marker": {"color": color, "line": {"width": 0}},
        "legendgroup": name.split(" ")[0],
        "showlegend": legend,
    }
