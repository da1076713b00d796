"""Figures for the section "Reading research code critically: the hardmax channel" (``ai-hardmax``).

Sources: E. Troiani, talk slides ("BO attention", hardmax example); Boncoraglio, Troiani, Erba
and Zdeborová, arXiv:2506.01582 (the hardmax T = 2 state evolution, its code ``SE_hardmax.py``,
``SE_hardmax_rho=0.py`` and ``AMP_hardmax.py``, and its hardmax figure).

The model quantities come from :mod:`assocmem.quadratic.attention` (curves, narrow limit, GAMP)
and :mod:`assocmem.quadratic.thresholds` (the threshold). Five small *views* assemble them for
one figure each (pure functions returning frozen results); the ``plot_*`` functions take those
results and compute nothing.

Notation map (A-units: MMSE 1 at α = 0)
---------------------------------------
- u_i = h_ii − h₁₂ (what bit i compares), y_ii = 1[u_i > 0]    -> ``u``, ``bits``
- κ_i = s_i(ω_ii − ω₁₂)/√(3V), c = s₁s₂/3                       -> ``kappa``, ``c``
- Z = Φ₂(κ₁, κ₂; c) (likelihood), ∂₁ log Z (score)              -> ``likelihood``, ``score_*``
- ρ, α = n/d², ᾱ = α/ρ                                          -> ``rho``, ``alpha``,
  ``alpha_bar``
- m (matrix MMSE), exact / as published                        -> ``exact``, ``published``

Public functions
----------------
channel_samples, score_slice, hardmax_curves, narrow_limit_view, gamp_view
    The views (results ``ChannelSamples``, ``ScoreSlice``, ``HardmaxCurves``, ``NarrowLimit``,
    ``GampView``).
plot_channel
    The two differences u₁, u₂ of each sequence, coloured by its two bits.
plot_score_slice
    Z = Φ₂ along κ₁, and its score: finite differences, ∂₁Φ₂/Φ₂ and the code's φ₂/Φ₂.
plot_hardmax_curves
    Exact against published learning curves per ρ (log–log, the paper's layout), with GAMP.
plot_hardmax_narrow_limit
    The ρ → 0 curves against ᾱ with both weak-recovery thresholds.
plot_gamp
    GAMP's error per iteration against the exact and the published state evolution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from scipy.integrate import quad
from scipy.special import ndtr

from assocmem._validation import (
    as_real_vector,
    check_fraction,
    check_instance,
    check_option,
    check_positive_int,
)
from assocmem.quadratic.attention import (
    AttentionData,
    hardmax_curve,
    hardmax_narrow_limit,
)
from assocmem.quadratic.gamp import GampResult
from assocmem.quadratic.thresholds import hardmax_threshold

from .._checks import check_height, check_results
from .._layout import tidied
from .._panels import _panels, _vline
from ._common import _COLORS, _GREY, _fmt, _line

__all__ = [
    "ChannelSamples",
    "GampView",
    "HardmaxCurves",
    "NarrowLimit",
    "ScoreSlice",
    "channel_samples",
    "gamp_view",
    "hardmax_curves",
    "narrow_limit_view",
    "plot_channel",
    "plot_gamp",
    "plot_hardmax_curves",
    "plot_hardmax_narrow_limit",
    "plot_score_slice",
    "score_slice",
]

_RHO_MIN, _RHO_MAX = 1e-3, 1e3  # attention.hardmax_curve's domain
_ALPHA_MAX = 100.0
_POINTS_MAX = 2_000
_CURVES_MAX = 12
_KAPPA_MAX = 8.0
_SHOW = ("both", "exact", "published")
_PAPER_LINE = 0.56345  # the vertical line of the paper's narrow-limit figure
_BITS = {
    (1, 1): ("y₁₁ = 1, y₂₂ = 1", "#1f77b4"),
    (1, 0): ("y₁₁ = 1, y₂₂ = 0", "#ff7f0e"),
    (0, 1): ("y₁₁ = 0, y₂₂ = 1", "#2ca02c"),
    (0, 0): ("y₁₁ = 0, y₂₂ = 0", "#d62728"),
}


@dataclass(frozen=True)
class ChannelSamples:
    """The two compared differences and the two bits of each sequence (hardmax, T = 2).

    Attributes
    ----------
    u : ndarray, shape (k, 2)
        u₁ = h₁₁ − h₁₂ and u₂ = h₂₂ − h₂₁ of the first k sequences.
    bits : ndarray of int, shape (k, 2)
        y₁₁ and y₂₂ (1 where the diagonal logit wins its row).
    fractions : dict
        Fraction of all n sequences with each bit pattern (y₁₁, y₂₂).
    d, n : int
        Dimension and number of sequences of the data.
    """

    u: np.ndarray
    bits: np.ndarray
    fractions: dict
    d: int
    n: int


@dataclass(frozen=True)
class ScoreSlice:
    """The likelihood Z = Φ₂(κ₁, κ₂; c) along κ₁ and three versions of its score ∂₁ log Z.

    Attributes
    ----------
    kappa : ndarray, shape (k,)
        κ₁ values.
    kappa2, c : float
        The fixed κ₂ and correlation c.
    likelihood : ndarray, shape (k,)
        Φ₂ by one-dimensional quadrature, ∫_{-∞}^{κ₁} φ(x) Φ((κ₂ − cx)/√(1 − c²)) dx.
    score_fd : ndarray, shape (k,)
        Central finite differences of log Φ₂ (step ``step``).
    score_exact : ndarray, shape (k,)
        φ(κ₁) Φ((κ₂ − cκ₁)/√(1 − c²)) / Φ₂: the derivative of the integral's upper limit.
    score_code : ndarray, shape (k,)
        φ₂(κ₁, κ₂; c) / Φ₂: the public code's bivariate density in place of ∂₁Φ₂.
    step : float
        The finite-difference step.
    """

    kappa: np.ndarray
    kappa2: float
    c: float
    likelihood: np.ndarray
    score_fd: np.ndarray
    score_exact: np.ndarray
    score_code: np.ndarray
    step: float


@dataclass(frozen=True)
class HardmaxCurves:
    """Exact and published hardmax T = 2 learning curves on one α grid, per ρ.

    Attributes
    ----------
    alpha : ndarray, shape (n,)
        Log-spaced α.
    rho : ndarray, shape (k,)
    exact, published : ndarray, shape (k, n)
        The MMSE with the exact derivative and with the public code's density.
    show : {"both", "exact", "published"}
        Which curves a plot draws.
    """

    alpha: np.ndarray
    rho: np.ndarray
    exact: np.ndarray
    published: np.ndarray
    show: str


@dataclass(frozen=True)
class NarrowLimit:
    """The ρ → 0 hardmax curves against ᾱ = α/ρ and the two weak-recovery thresholds.

    Attributes
    ----------
    alpha_bar : ndarray, shape (n,)
    exact, published : ndarray, shape (n,)
    threshold_exact, threshold_published : float
        ᾱ_c = 1/(2E[·]_{q=0}): 0.40341 and 0.56327.
    paper_line : float
        Where the paper's figure draws its threshold, 0.56345.
    rho : ndarray, shape (k,)
        Small ρ whose exact curves are drawn against α/ρ (may be empty).
    finite : ndarray, shape (k, n)
        Their MMSE.
    """

    alpha_bar: np.ndarray
    exact: np.ndarray
    published: np.ndarray
    threshold_exact: float
    threshold_published: float
    paper_line: float
    rho: np.ndarray
    finite: np.ndarray


@dataclass(frozen=True)
class GampView:
    """One GAMP run on hardmax data against the two state evolutions.

    Attributes
    ----------
    d, n : int
    rho, alpha : float
    error : ndarray, shape (t + 1,)
        (1/d)‖Â_t − A*‖² per iteration.
    m : ndarray, shape (t + 1,)
        GAMP's own (damped state-evolution) prediction.
    exact, published : float
        The exact and the published fixed point at (α, ρ).
    """

    d: int
    n: int
    rho: float
    alpha: float
    error: np.ndarray
    m: np.ndarray
    exact: float
    published: float


# --- views ------------------------------------------------------------------------------------


def channel_samples(data: Any, points: Any = 400) -> ChannelSamples:
    """The differences u₁ = h₁₁ − h₁₂, u₂ = h₂₂ − h₂₁ and the two bits of hardmax T = 2 data.

    Parameters
    ----------
    data : AttentionData
        From :func:`~assocmem.quadratic.attention.sample_attention` with T = 2.
    points : int
        How many sequences to keep for the scatter, 1 to 5000.

    Returns
    -------
    ChannelSamples

    Notes
    -----
    Hardmax keeps, of the three logits h₁₁, h₂₂, h₁₂ of a sequence, only the signs of u₁ and
    u₂: two bits (slides, "BO attention"). The bits are the argmaxes of the rows of h (for
    softmax data too, where they are what a hardmax would have output).
    """
    check_instance(data, "data", AttentionData)
    if data.T != 2:
        raise ValueError(f"data must have T = 2 tokens, got T = {data.T}")
    k = check_positive_int(points, "points", maximum=5_000)
    h = np.asarray(data.h)
    u = np.column_stack([h[:, 0, 0] - h[:, 0, 1], h[:, 1, 1] - h[:, 1, 0]])
    bits = (u > 0).astype(int)
    fractions = {
        key: float(np.mean((bits[:, 0] == key[0]) & (bits[:, 1] == key[1]))) for key in _BITS
    }
    return ChannelSamples(u=u[:k], bits=bits[:k], fractions=fractions, d=data.d, n=data.n)


def score_slice(
    kappa2: Any = 0.0,
    c: Any = 1.0 / 3.0,
    lo: Any = -4.0,
    hi: Any = 4.0,
    points: Any = 41,
    step: Any = 1e-4,
) -> ScoreSlice:
    """Φ₂(κ₁, κ₂; c) along κ₁ by quadrature, and its score three ways.

    Parameters
    ----------
    kappa2 : float
        Fixed κ₂, in [−8, 8].
    c : float
        Correlation, in (−1, 1) (the channel has c = ±⅓).
    lo, hi : float
        Range of κ₁, −8 <= lo < hi <= 8.
    points : int
        Number of κ₁ values, 2 to 2000.
    step : float
        Finite-difference step, in [1e-6, 1e-1].

    Returns
    -------
    ScoreSlice

    Notes
    -----
    The likelihood of the two bits is a bivariate normal CDF,
    Φ₂(κ₁, κ₂; c) = ∫_{-∞}^{κ₁} φ(x) Φ((κ₂ − cx)/√(1 − c²)) dx, evaluated here with
    :func:`scipy.integrate.quad` (an independent route: no formula for the derivative enters).
    Its κ₁-derivative is the integrand at the upper limit; the public code divides the joint
    density φ₂(κ₁, κ₂; c) instead, which differs by the factor
    φ((κ₂ − cκ₁)/√(1 − c²))/(√(1 − c²) Φ((κ₂ − cκ₁)/√(1 − c²))) (our correction).

    Examples
    --------
    >>> s = score_slice(points=3)
    >>> round(float(s.score_fd[1] * s.likelihood[1]), 4)  # ∂₁Φ₂ at 0: φ(0)/2
    0.1995
    """
    k2 = check_fraction(kappa2, "kappa2", -_KAPPA_MAX, _KAPPA_MAX)
    cc = check_fraction(c, "c", -1.0, 1.0, open_lo=True, open_hi=True)
    a = check_fraction(lo, "lo", -_KAPPA_MAX, _KAPPA_MAX)
    b = check_fraction(hi, "hi", -_KAPPA_MAX, _KAPPA_MAX)
    if not a < b:
        raise ValueError(f"lo must be < hi, got lo = {a!r}, hi = {b!r}")
    k = check_positive_int(points, "points", minimum=2, maximum=_POINTS_MAX)
    h = check_fraction(step, "step", 1e-6, 0.1)
    kappa = np.linspace(a, b, k)
    sq = math.sqrt(1.0 - cc * cc)

    def phi2_cdf(x: float) -> float:
        def inner(t: float) -> float:
            return math.exp(-0.5 * t * t) * float(ndtr((k2 - cc * t) / sq)) / math.sqrt(2 * math.pi)

        return quad(inner, -np.inf, x, epsabs=1e-14, epsrel=1e-12, limit=200)[0]

    z = np.array([phi2_cdf(x) for x in kappa])
    zp = np.array([phi2_cdf(x + h) for x in kappa])
    zm = np.array([phi2_cdf(x - h) for x in kappa])
    pdf = np.exp(-0.5 * kappa**2) / math.sqrt(2 * math.pi)
    exact = pdf * ndtr((k2 - cc * kappa) / sq)
    joint = np.exp(-(kappa**2 + k2**2 - 2 * cc * kappa * k2) / (2 * sq * sq)) / (2 * math.pi * sq)
    return ScoreSlice(
        kappa=kappa,
        kappa2=k2,
        c=cc,
        likelihood=z,
        score_fd=(np.log(zp) - np.log(zm)) / (2 * h),
        score_exact=exact / z,
        score_code=joint / z,
        step=h,
    )


def hardmax_curves(
    rho: Any = (0.1, 0.2, 0.5, 1.0, 2.0),
    show: str = "both",
    alpha_min: Any = 0.03,
    alpha_max: Any = 10.0,
    points: Any = 60,
) -> HardmaxCurves:
    """Exact and published hardmax learning curves for one or several ρ.

    Parameters
    ----------
    rho : float or array_like
        Teacher widths, each in [1e-3, 1e3]; at most 12.
    show : {"both", "exact", "published"}
        Which curves :func:`plot_hardmax_curves` draws (both are computed).
    alpha_min, alpha_max : float
        Range of the log-spaced α grid, 0 < alpha_min < alpha_max <= 100.
    points : int
        Number of α, 2 to 2000.

    Returns
    -------
    HardmaxCurves

    Notes
    -----
    :func:`~assocmem.quadratic.attention.hardmax_curve` with ``exact=True`` and ``False`` (the
    published ``SE_hardmax.py`` of arXiv:2506.01582). The prior side (one
    :func:`~assocmem.quadratic.bayes.bo_curve` per ρ) is cached, so both formulas and repeated
    calls at the same ρ cost one sweep.

    Examples
    --------
    >>> c = hardmax_curves(0.5, alpha_min=0.1, alpha_max=1.0, points=2)
    >>> bool(np.all(c.exact < c.published))
    True
    """
    r = as_real_vector(rho, "rho", _RHO_MIN, _RHO_MAX)
    if r.size > _CURVES_MAX:
        raise ValueError(f"rho must hold at most {_CURVES_MAX} values, got {r.size}")
    which = check_option(show, "show", _SHOW)
    a_hi = check_fraction(alpha_max, "alpha_max", 0.0, _ALPHA_MAX, open_lo=True)
    a_lo = check_fraction(alpha_min, "alpha_min", 0.0, a_hi, open_lo=True, open_hi=True)
    k = check_positive_int(points, "points", minimum=2, maximum=_POINTS_MAX)
    alpha = np.geomspace(a_lo, a_hi, k)
    exact = np.array([hardmax_curve(alpha, x).mmse for x in r])
    published = np.array([hardmax_curve(alpha, x, exact=False).mmse for x in r])
    return HardmaxCurves(alpha=alpha, rho=r, exact=exact, published=published, show=which)


def narrow_limit_view(alpha_bar_max: Any = 10.0, points: Any = 200, rho: Any = ()) -> NarrowLimit:
    """The ρ → 0 hardmax curves, exact and published, and both thresholds.

    Parameters
    ----------
    alpha_bar_max : float
        Largest ᾱ = α/ρ, in (0.6, 100].
    points : int
        Number of ᾱ (linear from 0), 2 to 2000.
    rho : array_like
        Small ρ in [1e-3, 1] whose exact curves are drawn against α/ρ (at most 12; may be
        empty).

    Returns
    -------
    NarrowLimit

    Notes
    -----
    :func:`~assocmem.quadratic.attention.hardmax_narrow_limit` for both formulas and
    :func:`~assocmem.quadratic.thresholds.hardmax_threshold`. The finite-ρ curves approach the
    limit slowly (corrections of order √ρ, as for the quadratic network).

    Examples
    --------
    >>> v = narrow_limit_view(points=3)
    >>> round(v.threshold_exact, 5), round(v.threshold_published, 5)
    (0.40341, 0.56327)
    """
    top = check_fraction(alpha_bar_max, "alpha_bar_max", 0.6, _ALPHA_MAX, open_lo=True)
    k = check_positive_int(points, "points", minimum=2, maximum=_POINTS_MAX)
    r = as_real_vector(rho, "rho", _RHO_MIN, 1.0, min_size=0)
    if r.size > _CURVES_MAX:
        raise ValueError(f"rho must hold at most {_CURVES_MAX} values, got {r.size}")
    ab = np.linspace(0.0, top, k)
    th = hardmax_threshold()
    finite = np.array([hardmax_curve(ab * x, x).mmse for x in r]).reshape(r.size, k)
    return NarrowLimit(
        alpha_bar=ab,
        exact=np.asarray(hardmax_narrow_limit(ab)),
        published=np.asarray(hardmax_narrow_limit(ab, exact=False)),
        threshold_exact=th.alpha_bar_exact,
        threshold_published=th.alpha_bar_code,
        paper_line=_PAPER_LINE,
        rho=r,
        finite=finite,
    )


def gamp_view(data: Any, result: Any) -> GampView:
    """A GAMP run on hardmax data with the exact and the published fixed point at its (α, ρ).

    Parameters
    ----------
    data : AttentionData
        The data GAMP ran on.
    result : GampResult
        From :func:`~assocmem.quadratic.attention.gamp_hardmax` on ``data``.

    Returns
    -------
    GampView
    """
    check_instance(data, "data", AttentionData)
    check_instance(result, "result", GampResult)
    alpha = data.n / data.d**2
    return GampView(
        d=data.d,
        n=data.n,
        rho=data.rho,
        alpha=alpha,
        error=np.asarray(result.error),
        m=np.asarray(result.m),
        exact=float(hardmax_curve(alpha, data.rho).mmse[0]),
        published=float(hardmax_curve(alpha, data.rho, exact=False).mmse[0]),
    )


# --- figures ----------------------------------------------------------------------------------


@tidied
def plot_channel(samples: Any, height: int = 440) -> go.Figure:
    """The differences (u₁, u₂) of each sequence, coloured by its two bits.

    Parameters
    ----------
    samples : ChannelSamples
        From :func:`channel_samples`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        One colour per bit pattern (with its fraction over all sequences): the bits say only
        in which quadrant the point lies.
    """
    check_instance(samples, "samples", ChannelSamples)
    height = check_height(height)
    s = samples
    traces = []
    for key, (label, color) in _BITS.items():
        sel = (s.bits[:, 0] == key[0]) & (s.bits[:, 1] == key[1])
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": np.round(s.u[sel, 0], 4),
                "y": np.round(s.u[sel, 1], 4),
                "name": f"{label} ({100 * s.fractions[key]:.0f} %)",
                "marker": {"color": color, "size": 5, "opacity": 0.7},
                "hovertemplate": "u₁ = %{x:.3f}<br>u₂ = %{y:.3f}<extra></extra>",
            }
        )
    lim = float(np.max(np.abs(s.u))) * 1.05 if s.u.size else 1.0
    layout = go.Layout(
        height=height,
        title={"text": "Hardmax, T = 2: two bits per sequence", "font": {"size": 14}},
        xaxis={"range": [-lim, lim], "title": {"text": "u₁ = h₁₁ − h₁₂"}, "zeroline": True},
        yaxis={
            "range": [-lim, lim],
            "title": {"text": "u₂ = h₂₂ − h₂₁"},
            "zeroline": True,
        },
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_score_slice(slice_: Any, height: int = 420) -> go.Figure:
    """The likelihood Φ₂ along κ₁ and its score: finite differences, exact and the code's.

    Parameters
    ----------
    slice_ : ScoreSlice
        From :func:`score_slice`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: Z = Φ₂(κ₁, κ₂; c). Right: ∂₁ log Z by central differences (markers), by the exact
        formula ∂₁Φ₂/Φ₂ (line) and as the public code computes it, φ₂/Φ₂ (dashed).
    """
    check_instance(slice_, "slice_", ScoreSlice)
    height = check_height(height)
    s = slice_
    layout, refs = _panels(["likelihood Z = Φ₂", "score ∂₁ log Z"])
    (x1, y1, _), (x2, y2, _) = refs
    traces = [
        _line(
            s.kappa,
            s.likelihood,
            "Φ₂(κ₁, κ₂; c)",
            xaxis=x1,
            yaxis=y1,
            line={"color": "black", "width": 3},
        ),
        {
            "type": "scatter",
            "mode": "markers",
            "x": s.kappa,
            "y": s.score_fd,
            "xaxis": x2,
            "yaxis": y2,
            "name": f"finite differences (step {s.step:g})",
            "marker": {"color": "black", "size": 7, "symbol": "circle-open"},
        },
        _line(
            s.kappa,
            s.score_exact,
            "exact: ∂₁Φ₂/Φ₂",
            xaxis=x2,
            yaxis=y2,
            line={"color": _COLORS[0], "width": 3},
        ),
        _line(
            s.kappa,
            s.score_code,
            "public code: φ₂/Φ₂",
            xaxis=x2,
            yaxis=y2,
            line={"color": _COLORS[1], "width": 3, "dash": "dash"},
        ),
    ]
    layout["xaxis"]["title"] = {"text": "κ₁"}
    layout["xaxis2"]["title"] = {"text": "κ₁"}
    layout["yaxis"]["title"] = {"text": "Z"}
    layout["yaxis2"]["title"] = {"text": "∂ log Z / ∂κ₁"}
    layout["height"] = height
    layout["title"] = {"text": "The hardmax likelihood and its score", "font": {"size": 14}}
    return go.Figure(data=traces, layout=go.Layout(**layout))


@tidied
def plot_hardmax_curves(curves: Any, gamp: Any = None, height: int = 460) -> go.Figure:
    """Exact (solid) against published (dashed) hardmax learning curves, log–log.

    Parameters
    ----------
    curves : HardmaxCurves
        From :func:`hardmax_curves`.
    gamp : GampView or list of GampView, optional
        GAMP runs drawn as markers at their final error.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        The paper's layout: log α on [0.03, 10] (or the curves' range), log MMSE; one colour
        per ρ (one legend entry each); ``curves.show`` selects the solid (exact), dashed
        (published) or both, and with both two black legend entries name the line styles.
    """
    check_instance(curves, "curves", HardmaxCurves)
    runs = [] if gamp is None else check_results(gamp, "gamp", GampView)
    height = check_height(height)
    c = curves
    traces = []
    # One legend entry per ρ (its exact and published curves share it, so a wrapped legend
    # never splits a pair), and, when both are drawn, two black entries for the line styles.
    kinds = [k for k in ("exact", "published") if c.show in ("both", k)]
    styles = {"exact": {"width": 3}, "published": {"width": 2, "dash": "dash"}}
    for i, r in enumerate(c.rho):
        color = _COLORS[i % len(_COLORS)]
        for j, kind in enumerate(kinds):
            traces.append(
                _line(
                    c.alpha,
                    c.exact[i] if kind == "exact" else c.published[i],
                    f"ρ = {_fmt(r)}",
                    legendgroup=str(i),
                    showlegend=j == 0,
                    line={"color": color, **styles[kind]},
                    hovertemplate=f"ρ = {_fmt(r)}, {kind}<br>α = %{{x:.3g}}<br>"
                    "m = %{y:.4f}<extra></extra>",
                )
            )
    if len(kinds) == 2:
        traces += [
            _line([None], [None], kind, line={"color": "black", **styles[kind]}, hoverinfo="skip")
            for kind in kinds
        ]
    if runs:
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": [v.alpha for v in runs],
                "y": [float(v.error[-1]) for v in runs],
                "name": "GAMP, exact g<sub>out</sub> (d = "
                + ", ".join(sorted({str(v.d) for v in runs}))
                + ")",
                "marker": {"color": "black", "size": 10, "symbol": "diamond"},
            }
        )
    lo = float(min(np.min(c.exact), np.min(c.published)))
    layout = go.Layout(
        height=height,
        title={"text": "Hardmax T = 2: exact vs published state evolution", "font": {"size": 14}},
        xaxis={
            "type": "log",
            "range": [math.log10(c.alpha[0]), math.log10(c.alpha[-1])],
            "title": {"text": "α = n/d²"},
        },
        yaxis={
            "type": "log",
            "range": [math.log10(max(min(lo, 0.03), 1e-6)), math.log10(1.1)],
            "title": {"text": "MMSE (A-units)"},
        },
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_hardmax_narrow_limit(view: Any, height: int = 420) -> go.Figure:
    """The ρ → 0 hardmax curves against ᾱ with both thresholds and the paper's line.

    Parameters
    ----------
    view : NarrowLimit
        From :func:`narrow_limit_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        Exact (solid) and published (dashed) ρ → 0 curves, finite-ρ exact curves (thin), and
        dotted lines at ᾱ_c = 0.40341 (exact) and 0.56327 (published; the paper's figure draws
        0.56345), labelled with their values to three decimals.
    """
    check_instance(view, "view", NarrowLimit)
    height = check_height(height)
    v = view
    traces = [
        _line(v.alpha_bar, v.exact, "ρ → 0, exact", line={"color": _COLORS[0], "width": 3}),
        _line(
            v.alpha_bar,
            v.published,
            "ρ → 0, published",
            line={"color": _COLORS[1], "width": 3, "dash": "dash"},
        ),
    ]
    for i, (r, m) in enumerate(zip(v.rho, v.finite, strict=True)):
        traces.append(
            _line(
                v.alpha_bar,
                m,
                f"ρ = {_fmt(r)}, exact",
                line={"color": _COLORS[(i + 2) % len(_COLORS)], "width": 1.5},
            )
        )
    shapes = [
        _vline(v.threshold_exact, "x", "y", color=_COLORS[0]),
        _vline(v.threshold_published, "x", "y", color=_COLORS[1]),
    ]
    annotations = [
        {
            # two lines, so that the label fits between the y axis and its line
            "x": v.threshold_exact,
            "y": 0.04,
            "xref": "x",
            "yref": "y",
            "showarrow": False,
            "text": f"exact<br>ᾱ<sub>c</sub> = {v.threshold_exact:.3f}",
            "xanchor": "right",
            "yanchor": "bottom",
            "align": "right",
            "xshift": -3,
        },
        {
            "x": v.threshold_published,
            "y": 0.05,
            "xref": "x",
            "yref": "y",
            "showarrow": False,
            "text": f"published {v.threshold_published:.3f}",
            "xanchor": "left",
            "xshift": 3,
        },
    ]
    layout = go.Layout(
        height=height,
        title={"text": "Narrow limit: MMSE against ᾱ = α/ρ", "font": {"size": 14}},
        xaxis={"range": [0.0, float(v.alpha_bar[-1])], "title": {"text": "ᾱ = α/ρ"}},
        yaxis={"range": [0.0, 1.05], "title": {"text": "MMSE"}},
        shapes=shapes,
        annotations=annotations,
    )
    return go.Figure(data=traces, layout=layout)


@tidied
def plot_gamp(view: Any, height: int = 400) -> go.Figure:
    """GAMP's error per iteration against the exact and the published fixed point.

    Parameters
    ----------
    view : GampView
        From :func:`gamp_view`.
    height : int
        Figure height in pixels, from 100 to 5000.

    Returns
    -------
    plotly.graph_objects.Figure
        The empirical error and GAMP's own prediction m_t, with the exact (solid) and the
        published (dashed) state-evolution values as horizontal lines.
    """
    check_instance(view, "view", GampView)
    height = check_height(height)
    v = view
    t = np.arange(v.error.size)
    traces = [
        _line(
            t,
            v.error,
            "GAMP error (1/d)‖Â − A*‖²",
            mode="lines+markers",
            line={"color": "black"},
            marker={"size": 4},
        ),
        _line(t, v.m, "GAMP's prediction m<sub>t</sub>", line={"color": _GREY, "dash": "dot"}),
        _line(
            [t[0], t[-1]],
            [v.exact] * 2,
            f"exact SE: {v.exact:.3f}",
            line={"color": _COLORS[0], "width": 3},
        ),
        _line(
            [t[0], t[-1]],
            [v.published] * 2,
            f"published SE: {v.published:.3f}",
            line={"color": _COLORS[1], "width": 3, "dash": "dash"},
        ),
    ]
    layout = go.Layout(
        height=height,
        title={"text": "GAMP on hardmax data (T = 2)", "font": {"size": 14}},
        xaxis={"title": {"text": "iteration t"}},
        yaxis={
            "range": [0.0, 1.05 * max(1.0, float(np.max(v.error)))],
            "title": {"text": "error (A-units)"},
        },
    )
    return go.Figure(data=traces, layout=layout)
