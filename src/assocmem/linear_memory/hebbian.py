"""The Hebbian memory and its capacity: the extreme-value race of paper §4 and App. D.

Paper: A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories:
sharp asymptotics and mechanistic insights*, arXiv:2605.10795, §4, App. D (eqs. (D.1)-(D.9),
Thm D.1, Lemma 1, Fig. D.1). "note §" refers to the chapter note
``shared/notes/01-factual-recall.md`` (§2.6, pitfalls 7-10, checks C10-C12).

The Hebbian memory W_Hebb = (1/d) Σ_μ u_μ e_μᵀ (eq. (D.1), :func:`hebbian_weights` in
:mod:`.problem`) gives scores of mean δ_μρ and variance ≈ p/d² ≈ α/ln p (eq. (D.3)). Theorem D.1
models them as independent Gaussians and finds that all p facts are recalled with probability
→ 1 for α < 1/8 and → 0 for α > 1/8: the expected number of errors is p^(1 − inf J_α), with the
rate function J_α of eq. (D.7).

Notation map
------------
==========================  ==============================  ======================================
paper / note                code                            meaning
==========================  ==============================  ======================================
J_α(x) (eq. D.7)            :func:`hebbian_rate_function`   rate of a failure with target at x
inf_x J_α                   :func:`hebbian_rate`            exponent: P[E_1^c] ≈ p^(−inf J)
x*                          ``x_star``                      where the infimum is attained
σ_off², σ_diag²             :func:`hebbian_score_variances` score variances, D.2 units (``MODELS``)
acc = ∫Φ(x/σ_off)^(p−1) N   :func:`hebbian_accuracy_model`  independent-Gaussian accuracy (§2.6)
P(all correct) = acc^p      ``p_all_correct``               in the same model (rows independent)
==========================  ==============================  ======================================

Two conventions of App. D are not copied (note pitfalls 7, 8): there Φ is the Gaussian *upper*
tail (Lemma 1), here Φ is always the CDF; and eq. (D.2) puts the output on the row, whereas the
score matrices of this library put the input on the row (eq. (1)). Neither matters for the
independent-Gaussian model.

Provenance. J_α, inf J_α, its three regimes and the threshold 1/8 are the paper's (Thm D.1). The
following are ours (note §2.6, [OURS]): the expected number of errors p^(1 − inf J) and the error
*fraction* p^(−inf J) (implied by the proof: the accuracy tends to 1 up to α = 1/2); the O(1/d)
terms of the score variances (+2/d off the diagonal, +4/d on it); the one-dimensional quadrature
of the model at finite p and d and the load where P(all correct) = 1/2. New here, in neither the
paper nor the note: the ``"row"`` variance model (+2/d on both), which drops the part of the
diagonal's fluctuation that is common to a whole row of scores and so cannot change its argmax.

Public functions
----------------
hebbian_rate_function, hebbian_rate, hebbian_rate_curve (result HebbianRateCurve),
hebbian_score_variances, hebbian_accuracy_model (result HebbianModel), hebbian_threshold_at_p,
hebbian_threshold_at_d, hebbian_sweep (result HebbianSweep), hebbian_histogram (result
HebbianHistogram).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.special import log_ndtr

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    ConvergenceWarning,
    as_real_array,
    check_beta,
    check_option,
    check_positive_int,
)

from .capacity import _p_at, _real_p, load
from .problem import accuracy, hebbian_weights, normalised_scores
from .sweep import _check_grid, _grid_p, _instance

__all__ = [
    "MODELS",
    "HebbianHistogram",
    "HebbianModel",
    "HebbianRateCurve",
    "HebbianSweep",
    "hebbian_accuracy_model",
    "hebbian_histogram",
    "hebbian_rate",
    "hebbian_rate_curve",
    "hebbian_rate_function",
    "hebbian_score_variances",
    "hebbian_sweep",
    "hebbian_threshold_at_d",
    "hebbian_threshold_at_p",
]

#: Variance models of the independent-Gaussian model (:func:`hebbian_score_variances`).
MODELS = ("leading", "finite_d", "row")

# Thm D.1: the perfect-recall threshold, and where inf J_α reaches 0 (accuracy collapse).
_ALPHA_PERFECT = 0.125
_ALPHA_ACCURACY = 0.5
# Quadrature grid of the independent-Gaussian model (trapezoid in log space). 8001 points on
# [min(−1, 1 − 14 σ_diag), 1 + 14 σ_diag] agree with scipy.integrate.quad to 1e-7 relative on
# the note's table (tests); the narrowest feature, the CDF^(p−1) step of width σ_off/√(2 ln p),
# spans >= 8 grid points up to p = 10¹².
_N_QUAD = 8001
# Bracket of the load in the threshold searches; P(all correct) = 1/2 lies inside for p >= 2.
_ALPHA_BRACKET = (1e-3, 2.0)


# ----------------------------------------------------------------------------- validation


def _check_p_real(p: Any) -> float:
    """p as a finite real >= 2 (the asymptotic formulas are continuous in p)."""
    value = check_beta(p, "p")
    if value < 2.0:
        raise ValueError(f"p must be a finite number >= 2, got {value!r}")
    return value


# ----------------------------------------------------------------------------- rate function


def _rate(x: Any, alpha: float) -> Any:
    """J_α(x) of eq. (D.7): region 1 for x <= √(2α), region 2 above (App. D)."""
    region1 = (x - 1.0) ** 2 / (2.0 * alpha)
    region2 = (2.0 * x * x - 2.0 * x + 1.0) / (2.0 * alpha) - 1.0
    return np.where(x <= math.sqrt(2.0 * alpha), region1, region2)


def hebbian_rate_function(x: Any, alpha: float) -> Any:
    """Rate function J_α(x) of the Hebbian failure event, paper eq. (D.7).

    Notes
    -----
    With target score x (mean 1, variance α/ln p, eq. (D.4)) the failure probability of one
    row is p^(−[J_α(x) − 1] + o(1)) after Laplace's method on eq. (D.5), where

        J_α(x) = (x − 1)²/(2α)                      for x <= √(2α)   (region 1),
        J_α(x) = (2x² − 2x + 1)/(2α) − 1            for x >  √(2α)   (region 2).

    Region 1: a competitor beats x with probability → 1 (Lemma 1, eq. (D.6)); only the cost of
    the target's own deviation counts. Region 2 adds the cost x²/(2α) − 1 of the largest of
    p − 1 competitors reaching x. Both branches equal (1 − √(2α))²/(2α) at x = √(2α), so J_α is
    continuous; it is convex (the slope jumps up by x/α at the junction). Lemma 1's
    min(1 − x²/(2α), 0) is stated for x > 0; for x < 0 the tail probability tends to 1 and
    region 1 applies, as written here.

    Parameters
    ----------
    x : float or array_like
        Target-score level(s), finite, in the D.2 units (mean 1); any shape.
    alpha : float
        Load α, finite and > 0.

    Returns
    -------
    float or numpy.ndarray
        J_α(x) >= 0, a float for scalar x, else the shape of x; +inf where J_α(x) exceeds
        the float range.

    Examples
    --------
    At α = 1/8 both branches meet at x = 1/2 with value 1 (the threshold of Thm D.1):

    >>> float(hebbian_rate_function(0.5, 0.125))
    1.0
    """
    arr = as_real_array(x, "x", min_size=0, xp=np)
    alpha = check_beta(alpha, "alpha")
    with np.errstate(over="ignore"):  # J_α(x) beyond the float range is +inf
        out = _rate(arr, alpha)
    return float(out) if out.ndim == 0 else out


def _minimise_rate(alpha: float) -> tuple[float, float]:
    """(x*, inf_x J_α) by bounded Brent minimisation of each branch of eq. (D.7).

    J_α decreases for x < 0 and increases for x > √(2α) + 1/2, so the minimum lies in
    [0, √(2α) + 1]. Region 1 is searched on [0, min(√(2α), 2)] ((x − 1)² decreases up to 1),
    region 2 on [√(2α), √(2α) + 1]; each is a convex quadratic there, its constrained minimum is
    found numerically and the smaller kept. The search minimises 2α J_α + const, the same
    quadratic without the scale 1/(2α), so that a large α (a flat J_α) does not stall it.
    """
    kink = math.sqrt(2.0 * alpha)
    best = (math.nan, math.inf)
    for (lo, hi), branch in (((0.0, min(kink, 2.0)), 1), ((kink, kink + 1.0), 2)):

        def f(x: float, branch: int = branch) -> float:
            if branch == 1:
                return (x - 1.0) ** 2 / (2.0 * alpha)
            return (2.0 * x * x - 2.0 * x + 1.0) / (2.0 * alpha) - 1.0

        def g(x: float, branch: int = branch) -> float:
            return (x - 1.0) ** 2 if branch == 1 else 2.0 * x * x - 2.0 * x

        res = minimize_scalar(g, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12})
        if not res.success:
            warnings.warn(
                f"hebbian_rate: bounded minimisation of branch {branch} did not converge for "
                f"alpha={alpha!r} after {res.nfev} evaluations ({res.message})",
                ConvergenceWarning,
                stacklevel=3,
            )
        # The two end points are candidates too (the minimum of a branch may sit at the kink).
        for x in (float(res.x), lo, hi):
            value = float(f(x))
            if value < best[1]:
                best = (x, value)
    return best


def hebbian_rate(alpha: float) -> float:
    """inf_x J_α(x), the exponent of the Hebbian failure probability (paper eq. (D.7)).

    Notes
    -----
    Computed by numerical minimisation of :func:`hebbian_rate_function` (bounded Brent on each
    branch). The paper's closed form (proof of Thm D.1), which the tests compare with, is

        inf J_α = 1/(4α) − 1                  for α <= 1/8    (x* = 1/2),
        inf J_α = (1 − √(2α))²/(2α)           for 1/8 <= α <= 1/2 (x* = √(2α)),
        inf J_α = 0                           for α >= 1/2    (x* = 1).

    One row fails with probability P[E_1^c] = p^(−inf J + o(1)), so the expected number of
    errors is p^(1 − inf J) (eq. (D.7)). Thm D.1: all facts are recalled w.h.p. iff inf J > 1,
    i.e. α < 1/8, where both branches equal 1. [note §2.6, OURS, implied by the proof] The
    error fraction p^(−inf J) tends to 0 for every α < 1/2: asymptotically the accuracy leaves
    1 only at α = 1/2, although the first error appears at 1/8.

    Parameters
    ----------
    alpha : float
        Load α, finite and > 0.

    Returns
    -------
    float
        inf_x J_α(x) >= 0; decreasing in α, 0 for α >= 1/2.

    Examples
    --------
    >>> round(hebbian_rate(0.125), 9)  # Thm D.1 threshold: inf J = 1
    1.0
    >>> round(hebbian_rate(0.05), 9)  # 1/(4α) − 1
    4.0
    """
    alpha = check_beta(alpha, "alpha")
    return _minimise_rate(alpha)[1]


@dataclass(frozen=True)
class HebbianRateCurve:
    """inf J_α, the asymptotic error counts and the finite-p model along α at one p.

    Attributes
    ----------
    p : float
        Number of associations.
    alpha : numpy.ndarray, shape (n,)
        Loads, increasing; the grid contains 1/8 and 1/2.
    inf_J : numpy.ndarray, shape (n,)
        inf_x J_α (:func:`hebbian_rate`).
    x_star : numpy.ndarray, shape (n,)
        The minimiser: 1/2, √(2α) or 1 in the three regimes.
    expected_errors : numpy.ndarray, shape (n,)
        p^(1 − inf J): the leading-order number of errors [note §2.6, OURS].
    error_fraction : numpy.ndarray, shape (n,)
        p^(−inf J): the leading-order fraction of errors [note §2.6, OURS].
    model_error : numpy.ndarray, shape (n,)
        P[E_1^c] of the independent-Gaussian model (eq. (D.5)) at this p with σ² = α/ln p,
        by quadrature: 1 − accuracy.
    model_all_correct : numpy.ndarray, shape (n,)
        (1 − P[E_1^c])^p in the same model.
    model_threshold : float
        The load where ``model_all_correct`` = 1/2 (:func:`hebbian_threshold_at_p`).
    """

    p: float
    alpha: np.ndarray
    inf_J: np.ndarray
    x_star: np.ndarray
    expected_errors: np.ndarray
    error_fraction: np.ndarray
    model_error: np.ndarray
    model_all_correct: np.ndarray
    model_threshold: float

    @property
    def model_expected_errors(self) -> np.ndarray:
        """p P[E_1^c]: the model's expected number of errors at this p."""
        return self.p * self.model_error


def hebbian_rate_curve(
    p: float = 1e6, *, alpha_min: float = 0.02, alpha_max: float = 1.0, n: int = 97
) -> HebbianRateCurve:
    """Rate, asymptotic error counts and the finite-p independent-Gaussian model against α.

    Notes
    -----
    The asymptotic counts p^(1 − inf J) and p^(−inf J) drop every sub-polynomial factor of
    eq. (D.8) (√(log p), log(x/√α), ...); the model columns keep them, by one-dimensional
    quadrature of eq. (D.5) with σ_p² = α/ln p (Thm D.1's model at finite p). The gap between the
    two is the slow convergence of the Hebbian threshold to 1/8 (note §2.6).

    Parameters
    ----------
    p : float, optional
        Number of associations, finite and >= 2 (not necessarily an integer).
    alpha_min, alpha_max : float, optional
        Range of loads, 0 < alpha_min < alpha_max.
    n : int, optional
        Number of linearly spaced loads, >= 2; 1/8 and 1/2 are added when inside the range.

    Returns
    -------
    HebbianRateCurve

    Examples
    --------
    >>> c = hebbian_rate_curve(1e12, n=3)
    >>> [round(float(v), 3) for v in c.alpha], round(c.model_threshold, 3)
    ([0.02, 0.125, 0.5, 0.51, 1.0], 0.133)
    """
    p = _check_p_real(p)
    alpha_min = check_beta(alpha_min, "alpha_min")
    alpha_max = check_beta(alpha_max, "alpha_max")
    if alpha_max <= alpha_min:
        raise ValueError(
            f"alpha_max must be > alpha_min, got alpha_min={alpha_min!r}, alpha_max={alpha_max!r}"
        )
    n = check_positive_int(n, "n", minimum=2, maximum=MAX_STEPS)
    grid = np.linspace(alpha_min, alpha_max, n)
    marks = [a for a in (_ALPHA_PERFECT, _ALPHA_ACCURACY) if alpha_min < a < alpha_max]
    grid = np.unique(np.concatenate([grid, marks]))
    rates = [_minimise_rate(float(a)) for a in grid]
    x_star = np.array([r[0] for r in rates])
    inf_J = np.array([r[1] for r in rates])
    log_p = math.log(p)
    # A probability: the quadrature may exceed 1 by rounding where every row fails.
    model_err = np.array([min(math.exp(_log_error(p, a / log_p, a / log_p)), 1.0) for a in grid])
    with np.errstate(over="ignore", divide="ignore"):  # p^(1 - inf J) beyond 1e308 is +inf
        expected = np.exp((1.0 - inf_J) * log_p)
        all_correct = np.exp(p * np.log1p(-model_err))
    return HebbianRateCurve(
        p=p,
        alpha=grid,
        inf_J=inf_J,
        x_star=x_star,
        expected_errors=expected,
        error_fraction=np.exp(-inf_J * log_p),
        model_error=model_err,
        model_all_correct=all_correct,
        model_threshold=_threshold(lambda a: (p, a / log_p, a / log_p)),
    )


# ----------------------------------------------------------------------------- finite-d model


def _check_model(model: Any) -> str:
    return check_option(model, "model", MODELS)


def _variances(p: float, d: float, model: str) -> tuple[float, float]:
    base = p / d**2
    if model == "leading":
        return base, base
    if model == "finite_d":
        return base + 2.0 / d, base + 4.0 / d
    return base + 2.0 / d, base + 2.0 / d  # "row"


def hebbian_score_variances(p: int, d: int, *, model: str = "finite_d") -> tuple[float, float]:
    """Variances of the Hebbian scores of eq. (D.2), off the diagonal and on it.

    Notes
    -----
    Three variants (``MODELS``):

    - ``"leading"``: σ_off² = σ_diag² = p/d², eq. (D.3) (= α/ln p, Thm D.1's model).
    - ``"finite_d"`` [note §2.6, OURS]: s_μρ = d⁻² Σ_ν (u_ρ·u_ν)(e_ν·e_μ) has two terms (ν = μ
      and ν = ρ) of variance ≈ 1/d each off the diagonal, and the diagonal's ν = μ term
      |u_μ|²|e_μ|²/d² has variance ≈ 4/d: σ_off² ≈ p/d² + 2/d, σ_diag² ≈ p/d² + 4/d. (Exactly
      (p − 2)/d² + 2/d + 4/d² and (p − 1)/d² + 4/d + 4/d²; the note's forms are used.) These are
      the variances of the *aggregated* scores (checked by the tests, C11).
    - ``"row"`` [OURS, this module; not in the paper or the note]: half of the diagonal's 4/d
      comes from |e_μ|²/d, a positive factor that also multiplies the ν = μ term of every
      competitor of row μ. Dividing row μ by |e_μ|²/d leaves the argmax unchanged and the
      variances at p/d² + 2/d for the target and for the competitors alike. For recall, which is
      decided within a row, this is the relevant model.

    At d <= 200 the O(1/d) terms are comparable to p/d².

    Parameters
    ----------
    p : int
        Number of associations, >= 2.
    d : int
        Embedding dimension, >= 1.
    model : {"leading", "finite_d", "row"}, optional
        Which variances (default ``"finite_d"``).

    Returns
    -------
    (float, float)
        (σ_off², σ_diag²).

    Examples
    --------
    >>> [round(v, 4) for v in hebbian_score_variances(1137, 200)]  # note §7: 0.0384, 0.0484
    [0.0384, 0.0484]
    """
    p = check_positive_int(p, "p", minimum=2)
    d = check_positive_int(d, "d", minimum=1)
    return _variances(p, d, _check_model(model))


def _log_error(p: float, var_off: float, var_diag: float) -> float:
    """log P[E_1^c] = log ∫ [1 − Φ(x/σ_off)^(p−1)] N(x; 1, σ_diag²) dx (eq. (D.5), Φ the CDF).

    Computed in log space so that error probabilities down to 1e-300 keep their relative
    accuracy (P(all correct) = 1/2 needs P[E_1^c] ≈ ln 2 / p): with L = (p − 1) log Φ(t),
    log(1 − e^L) = log(−expm1(L)), and log(−L) uses log Φ̄(t) directly in the far tail.
    """
    sd_off, sd_diag = math.sqrt(var_off), math.sqrt(var_diag)
    x = np.linspace(min(-1.0, 1.0 - 14.0 * sd_diag), 1.0 + 14.0 * sd_diag, _N_QUAD)
    t = x / sd_off
    log_tail = log_ndtr(-t)  # log Φ̄(t), the upper tail that App. D calls Φ (pitfall 7)
    # log(−log Φ(t)), piecewise so that nothing underflows: −log Φ = −log1p(−Φ̄) ≈ Φ̄ once
    # Φ̄ < e^-20 (relative error < 1e-9).
    log_mlog_cdf = np.empty_like(t)
    neg, far = t < 0.0, (t >= 0.0) & (log_tail < -20.0)
    mid = ~neg & ~far
    log_mlog_cdf[neg] = np.log(-log_ndtr(t[neg]))
    log_mlog_cdf[far] = log_tail[far]
    log_mlog_cdf[mid] = np.log(-np.log1p(-np.exp(log_tail[mid])))
    # log(1 − Φ^(p−1)) = log(−expm1(L)) with −L = (p − 1)(−log Φ); ≈ log(−L) when −L < e^-20.
    log_mL = math.log(p - 1.0) + log_mlog_cdf
    log_fail = log_mL.copy()
    big = log_mL >= -20.0
    log_fail[big] = np.log(-np.expm1(-np.exp(np.minimum(log_mL[big], 700.0))))
    log_pdf = -0.5 * ((x - 1.0) / sd_diag) ** 2 - math.log(sd_diag * math.sqrt(2.0 * math.pi))
    log_f = log_fail + log_pdf
    top = float(log_f.max())
    return top + math.log(float(np.trapezoid(np.exp(log_f - top), x)))


@dataclass(frozen=True)
class HebbianModel:
    """The independent-Gaussian model of the Hebbian memory at one (p, d) (note §2.6).

    Attributes
    ----------
    p, d : int
        Number of associations and embedding dimension.
    alpha : float
        Load p ln p / d².
    model : str
        Which variances: "leading", "finite_d" or "row" (:func:`hebbian_score_variances`).
    var_off, var_diag : float
        Score variances (:func:`hebbian_score_variances`).
    error_probability : float
        P[E_1^c], the probability that one fact is not recalled (eq. (D.5)).
    accuracy : float
        1 − P[E_1^c]: the expected fraction of facts recalled.
    p_all_correct : float
        accuracy^p (rows independent in the model, proof of Thm D.1).
    expected_errors : float
        p P[E_1^c].
    """

    p: int
    d: int
    alpha: float
    model: str
    var_off: float
    var_diag: float
    error_probability: float
    accuracy: float
    p_all_correct: float
    expected_errors: float


def _model(p: int, d: int, model: str) -> HebbianModel:
    var_off, var_diag = _variances(p, d, model)
    err = math.exp(_log_error(p, var_off, var_diag))
    return HebbianModel(
        p=p,
        d=d,
        alpha=load(p, d),
        model=model,
        var_off=var_off,
        var_diag=var_diag,
        error_probability=err,
        accuracy=1.0 - err,
        p_all_correct=math.exp(p * math.log1p(-err)),
        expected_errors=p * err,
    )


def hebbian_accuracy_model(p: int, d: int, *, model: str = "finite_d") -> HebbianModel:
    """Accuracy of the Hebbian memory in the independent-Gaussian model at finite p and d.

    Notes
    -----
    Thm D.1's model (eq. (D.4)): the scores are independent Gaussians, the target of mean 1 and
    variance σ_diag², the p − 1 competitors of mean 0 and variance σ_off². Then (note §2.6)

        acc = ∫ Φ(x/σ_off)^(p−1) N(x; 1, σ_diag²) dx,     P(all correct) = acc^p,

    with Φ the standard normal CDF, evaluated by one-dimensional quadrature in log space. The
    variances are those of :func:`hebbian_score_variances`. With ``"leading"`` (eq. (D.3)) and
    ``"finite_d"`` (the note's O(1/d) terms) this reproduces the note's model columns to
    ±0.005: (d, p) = (50, 73): 0.999 / 0.856; (100, 485): 0.921 / 0.748; (400, 8807):
    0.665 / 0.596; (800, 30948): 0.660 / 0.617, against simulated 0.925, 0.779, 0.598, 0.620.
    ``"row"`` [OURS] removes the fluctuation shared by a whole row and is closer to simulation,
    in the accuracy and in P(all correct) (tests).

    Parameters
    ----------
    p : int
        Number of associations, >= 2.
    d : int
        Embedding dimension, >= 1.
    model : {"leading", "finite_d", "row"}, optional
        Which variances (default ``"finite_d"``, the note's corrected model).

    Returns
    -------
    HebbianModel

    Examples
    --------
    >>> round(hebbian_accuracy_model(485, 100).accuracy, 3)  # note §2.6 table
    0.748
    """
    p = check_positive_int(p, "p", minimum=2)
    d = check_positive_int(d, "d", minimum=1)
    return _model(p, d, _check_model(model))


def _threshold(variances: Any) -> float:
    """Load α where (1 − P[E_1^c])^p = 1/2, by Brent's method; ``variances(α) -> (p, σ², σ²)``."""

    def gap(a: float) -> float:
        p, v_off, v_diag = variances(a)
        err = math.exp(_log_error(p, v_off, v_diag))
        return p * math.log1p(-min(err, 1.0 - 1e-16)) - math.log(0.5)

    lo, hi = _ALPHA_BRACKET
    if not gap(lo) > 0.0 > gap(hi):
        raise ValueError(
            f"P(all correct) = 1/2 is not bracketed by alpha in [{lo}, {hi}]: "
            f"log P(all) + log 2 = {gap(lo):.3g}, {gap(hi):.3g}"
        )
    a, info = brentq(gap, lo, hi, xtol=1e-10, full_output=True, disp=False)
    if not info.converged:
        warnings.warn(
            f"hebbian threshold: Brent did not converge after {info.iterations} iterations "
            f"(residual {abs(gap(a)):.3e})",
            ConvergenceWarning,
            stacklevel=3,
        )
    return float(a)


def hebbian_threshold_at_p(p: float) -> float:
    """Load where P(all correct) = 1/2 in Thm D.1's model at finite p (σ² = α/ln p).

    Notes
    -----
    [note §2.6, OURS] The model of eq. (D.4) depends on p and α only. Its threshold approaches
    the asymptotic 1/8 slowly: 0.169 (p = 10²), 0.154 (10³), 0.147 (10⁴), 0.140 (10⁶),
    0.133 (10¹²) in the note, reproduced by the tests to ±0.002.

    Parameters
    ----------
    p : float
        Number of associations, finite and >= 2 (not necessarily an integer).

    Returns
    -------
    float
        α with (1 − P[E_1^c])^p = 1/2.

    Examples
    --------
    >>> round(hebbian_threshold_at_p(1e4), 3)
    0.147
    """
    p = _check_p_real(p)
    return _threshold(lambda a: (p, a / math.log(p), a / math.log(p)))


def hebbian_threshold_at_d(d: int, *, model: str = "row") -> float:
    """Load where P(all correct) = 1/2 in the independent-Gaussian model at dimension d.

    Notes
    -----
    [OURS] As α varies at fixed d, p is the real solution of p ln p = α d² (p = c/W₀(c), not
    rounded, so the result is a smooth function of d), and the variances are those of
    :func:`hebbian_score_variances`. The default ``"row"`` model predicts the first violation of
    simulations (note §2.6: ≈ 0.07 at d = 50, 0.09 at d = 100, 0.1 at d = 200, 0.125 at
    d = 400-800); ``"finite_d"`` is far too pessimistic in this tail (it counts a fluctuation
    shared by the whole row as independent noise) and ``"leading"`` too optimistic.

    Parameters
    ----------
    d : int
        Embedding dimension, >= 10 (below, the model's P(all correct) = 1/2 may not be
        bracketed).
    model : {"leading", "finite_d", "row"}, optional
        Which variances (default ``"row"``).

    Returns
    -------
    float
        α with P(all correct) = 1/2.

    Examples
    --------
    >>> round(hebbian_threshold_at_d(800), 3)
    0.125
    """
    d = check_positive_int(d, "d", minimum=10)
    model = _check_model(model)

    def variances(a: float) -> tuple[float, float, float]:
        c = a * d * d
        p = max(_real_p(c), 2.0)
        return (p, *_variances(p, d, model))

    return _threshold(variances)


# ----------------------------------------------------------------------------- simulations


@dataclass(frozen=True, eq=False)
class HebbianSweep:
    """Simulated Hebbian accuracy on a grid of loads, next to the model (:func:`hebbian_sweep`).

    Attributes
    ----------
    d : int
        Embedding dimension.
    alpha : numpy.ndarray, shape (n,)
        Requested loads.
    p : numpy.ndarray of int, shape (n,)
        p(α, d) (Lambert W, rounded).
    alpha_eff : numpy.ndarray, shape (n,)
        p ln p / d².
    accuracy : numpy.ndarray, shape (n, reps)
        Simulated accuracy of W_Hebb on the original problem (reps may be 0: model only).
    model_accuracy : dict of str to numpy.ndarray, shape (n,)
        :func:`hebbian_accuracy_model` accuracy at the same p, for each of ``MODELS``.
    model_all_correct : dict of str to numpy.ndarray, shape (n,)
        The model's P(all correct), for each of ``MODELS``.
    seed : int
        Base seed.
    """

    d: int
    alpha: np.ndarray
    p: np.ndarray
    alpha_eff: np.ndarray
    accuracy: np.ndarray
    model_accuracy: dict[str, np.ndarray]
    model_all_correct: dict[str, np.ndarray]
    seed: int

    @property
    def reps(self) -> int:
        """Number of simulated instances per load."""
        return int(self.accuracy.shape[1])

    @property
    def mean_accuracy(self) -> np.ndarray:
        """Mean simulated accuracy per load (NaN where reps = 0)."""
        if self.reps == 0:
            return np.full(self.alpha.shape, np.nan)
        return self.accuracy.mean(axis=1)

    @property
    def all_correct_fraction(self) -> np.ndarray:
        """Fraction of instances with every fact recalled, per load (NaN where reps = 0)."""
        if self.reps == 0:
            return np.full(self.alpha.shape, np.nan)
        return np.mean(self.accuracy == 1.0, axis=1)

    @property
    def first_violation(self) -> float | None:
        """Smallest effective α of the grid where some instance made an error (paper App. A).

        None when no instance erred (or nothing was simulated).
        """
        if self.reps == 0:
            return None
        bad = np.flatnonzero(np.any(self.accuracy < 1.0, axis=1))
        return float(self.alpha_eff[bad[0]]) if bad.size else None


def hebbian_sweep(d: int, alphas: Any, *, reps: int = 3, seed: int = 0) -> HebbianSweep:
    """Hebbian accuracy of simulated instances on a grid of loads, and the model's prediction.

    Notes
    -----
    At each α, p = p(α, d) and ``reps`` original-problem instances (eq. (1)) are stored with
    W_Hebb (eq. (D.1)) and scored by :func:`~.problem.accuracy`. The instance of repetition r is
    the one :func:`~.sweep.accuracy_sweep` draws for (seed, d, α, r) at κ = 1, so these
    accuracies are its Hebbian baseline, without the training. The model columns are
    :func:`hebbian_accuracy_model` at the same integer p, with and without the O(1/d) terms.
    Cost: p² d per instance (d = 200, α = 1: p = 4727, 0.3 s on one core).

    Parameters
    ----------
    d : int
        Embedding dimension, >= 2.
    alphas : float or sequence of float
        Loads > 0, each giving p >= 2; with reps > 0, at most ``MAX_ELEMENTS`` p × p scores
        (``_validation``).
    reps : int, optional
        Instances per load, >= 0 (0: model only, e.g. d = 800 where p ≈ 3·10⁴).
    seed : int, optional
        Base seed, >= 0.

    Returns
    -------
    HebbianSweep

    Examples
    --------
    >>> sw = hebbian_sweep(50, [0.05, 0.5], reps=2)
    >>> sw.p.tolist(), sw.all_correct_fraction.tolist()
    ([35, 230], [1.0, 0.0])
    """
    d = check_positive_int(d, "d", minimum=2)
    reps = check_positive_int(reps, "reps", minimum=0, maximum=MAX_STEPS)
    seed = check_positive_int(seed, "seed", minimum=0)
    grid = _check_grid(alphas)
    if reps > 0:  # every p × p score is computed
        ps = _grid_p(grid, d, "original")
    else:  # the model only: any p up to 2**53
        ps = np.array([_p_at(float(a), d, "alphas") for a in grid], dtype=np.int64)
    acc = np.empty((grid.size, reps))
    for i, (a, p) in enumerate(zip(grid, ps, strict=True)):
        for r in range(reps):
            inst = _instance(d, float(a), int(p), r, "original", 1.0, seed)[0]
            acc[i, r] = accuracy(hebbian_weights(inst), inst)
    models = {name: [_model(int(p), d, name) for p in ps] for name in MODELS}
    return HebbianSweep(
        d=d,
        alpha=grid,
        p=ps,
        alpha_eff=np.array([load(int(p), d) for p in ps]),
        accuracy=acc,
        model_accuracy={k: np.array([m.accuracy for m in v]) for k, v in models.items()},
        model_all_correct={k: np.array([m.p_all_correct for m in v]) for k, v in models.items()},
        seed=seed,
    )


@dataclass(frozen=True)
class HebbianHistogram:
    """Normalised Hebbian score histograms at one (α, d), pre-binned (Fig. D.1 / Fig. 4 units).

    Attributes
    ----------
    d, p : int
        Dimension and number of associations.
    alpha, alpha_eff : float
        Requested and effective load.
    edges : numpy.ndarray, shape (bins + 1,)
        Common bin edges of both histograms.
    target_density, non_target_density : numpy.ndarray, shape (bins,)
        Histogram densities (each integrates to 1) of the p target scores and of a uniform
        subsample of the p(p − 1) non-target scores, all divided by the pooled non-target std.
    grid : numpy.ndarray, shape (K,)
        Abscissae of the reference curves.
    non_target_pdf : numpy.ndarray, shape (K,)
        N(0, 1), the paper's non-target law in these units.
    paper_target_pdf : numpy.ndarray, shape (K,)
        N(√(ln p/α), 1), the paper's target law (§4, eq. (D.3) normalised).
    finite_d_target_pdf : numpy.ndarray, shape (K,)
        N(1/σ_off, σ_diag²/σ_off²) with the O(1/d) variances [note §2.6/§2.7, OURS].
    extreme_value : float
        √(2 ln p), the typical maximum of the p − 1 competitors (§3.3).
    paper_target_mean, finite_d_target_mean, finite_d_target_std : float
        √(ln p/α_eff); 1/σ_off; σ_diag/σ_off.
    target_mean, target_std : float
        Measured mean and std (ddof 0) of the normalised target scores.
    row_max_mean : float
        Mean over facts of the strongest normalised competitor.
    accuracy : float
        Fraction of facts recalled on this instance.
    model_accuracy : float
        :func:`hebbian_accuracy_model` (``"row"``) at this (p, d).
    """

    d: int
    p: int
    alpha: float
    alpha_eff: float
    edges: np.ndarray
    target_density: np.ndarray
    non_target_density: np.ndarray
    grid: np.ndarray
    non_target_pdf: np.ndarray
    paper_target_pdf: np.ndarray
    finite_d_target_pdf: np.ndarray
    extreme_value: float
    paper_target_mean: float
    finite_d_target_mean: float
    finite_d_target_std: float
    target_mean: float
    target_std: float
    row_max_mean: float
    accuracy: float
    model_accuracy: float

    @property
    def all_correct(self) -> bool:
        """Whether every fact of this instance is recalled."""
        return self.accuracy == 1.0


def _gauss(x: np.ndarray, mean: float, std: float) -> np.ndarray:
    return np.exp(-0.5 * ((x - mean) / std) ** 2) / (std * math.sqrt(2.0 * math.pi))


def hebbian_histogram(
    alpha: float,
    d: int,
    *,
    seed: int = 0,
    bins: int = 60,
    n_non_target: int = 20_000,
) -> HebbianHistogram:
    """Target and non-target Hebbian score histograms in the Fig. 4 / D.1 normalisation.

    Notes
    -----
    One original-problem instance (repetition 0 of :func:`hebbian_sweep` at this α) is stored
    with W_Hebb; :func:`~.problem.normalised_scores` divides every score by the pooled std of
    the p(p − 1) non-target scores (note pitfall 12). Like Fig. D.1 (N = 2000 random scores) the
    non-target histogram uses a uniform subsample. The paper (§4) predicts N(0, 1) for the
    non-targets and N(√(ln p/α), 1) for the targets; at finite d the target law is
    N(1/σ_off, σ_diag²/σ_off²) with the O(1/d) variances [OURS]. Cost ≈ p² d (0.7 s at d = 200,
    α = 1 on one core; < 0.1 s for d <= 100).

    Parameters
    ----------
    alpha : float
        Load α > 0 (with α d² large enough that p >= 2, and at most ``MAX_ELEMENTS`` p × p
        scores).
    d : int
        Embedding dimension, >= 2.
    seed : int, optional
        Base seed, >= 0.
    bins : int, optional
        Number of bins, >= 2.
    n_non_target : int, optional
        Size of the non-target subsample, 1 <= n <= ``MAX_ELEMENTS``.

    Returns
    -------
    HebbianHistogram

    Examples
    --------
    >>> h = hebbian_histogram(0.05, 50)
    >>> h.p, h.all_correct, round(h.finite_d_target_mean, 2)
    (35, True, 4.3)
    """
    d = check_positive_int(d, "d", minimum=2)
    seed = check_positive_int(seed, "seed", minimum=0)
    bins = check_positive_int(bins, "bins", minimum=2, maximum=MAX_ELEMENTS)
    n_non_target = check_positive_int(n_non_target, "n_non_target", minimum=1, maximum=MAX_ELEMENTS)
    alpha = check_beta(alpha, "alpha")
    p = int(_grid_p(np.array([alpha]), d, "original", "alpha")[0])
    inst, sub_rng = _instance(d, alpha, p, 0, "original", 1.0, seed)
    ns = normalised_scores(hebbian_weights(inst), inst, n_non_target=n_non_target, rng=sub_rng)
    target, others = np.asarray(ns.target), np.asarray(ns.non_target)
    a_eff = load(p, d)
    var_off, var_diag = _variances(p, d, "finite_d")  # aggregated over rows (C11)
    paper_mean = math.sqrt(math.log(p) / a_eff)
    fd_mean, fd_std = 1.0 / math.sqrt(var_off), math.sqrt(var_diag / var_off)
    lo = min(-5.0, float(others.min()), float(target.min()))
    hi = max(5.0, float(target.max()), paper_mean + 4.0, fd_mean + 4.0 * fd_std)
    edges = np.linspace(lo, hi, bins + 1)
    grid = np.linspace(lo, hi, 400)
    return HebbianHistogram(
        d=d,
        p=p,
        alpha=alpha,
        alpha_eff=a_eff,
        edges=edges,
        target_density=np.histogram(target, edges, density=True)[0],
        non_target_density=np.histogram(others, edges, density=True)[0],
        grid=grid,
        non_target_pdf=_gauss(grid, 0.0, 1.0),
        paper_target_pdf=_gauss(grid, paper_mean, 1.0),
        finite_d_target_pdf=_gauss(grid, fd_mean, fd_std),
        extreme_value=math.sqrt(2.0 * math.log(p)),
        paper_target_mean=paper_mean,
        finite_d_target_mean=fd_mean,
        finite_d_target_std=fd_std,
        target_mean=float(target.mean()),
        target_std=float(target.std()),
        row_max_mean=float(np.mean(ns.row_max)),
        accuracy=float(np.mean(target > ns.row_max)),
        model_accuracy=_model(p, d, "row").accuracy,
    )
