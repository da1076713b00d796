"""The storage mechanism: target scores just above the extreme value of their competitors.

Paper: A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories:
sharp asymptotics and mechanistic insights*, arXiv:2605.10795, §3.3, §4, Fig. 4, App. A (Fig. A.2)
and App. C.2.1. "note §" refers to the chapter note ``shared/notes/01-factual-recall.md`` (§2.7,
§2.3, pitfalls 11, 12, 20; checks C18, C19).

A fact μ is recalled when its target score beats all p − 1 competitors of its row,
s_μμ > max_{ρ≠μ} s_μρ. In the Fig. 4 normalisation (every score divided by the pooled standard
deviation σ of the p(p − 1) non-target scores, note pitfall 12) the paper reads the mechanism of
a trained memory off the histograms: the non-target scores stay standard Gaussian, and the
targets are raised into the right tail, "larger than the maximum of the other p − 1 Gaussian
random variables, which is around √(2 log p)", with a small spread below capacity that grows
across it. The Hebbian rule (eq. D.1) instead has target scores of variance ≈ 1 at every load.

Notation map
------------
=========================  ===============================  ====================================
paper / note               code                             meaning
=========================  ===============================  ====================================
s_μρ / σ                   ``target``, ``non_target``       normalised scores (Fig. 4)
max_{ρ≠μ} s_μρ / σ         ``row_max``                      strongest competitor of fact μ
s_μμ − max_{ρ≠μ} s_μρ      ``margins`` (÷ σ)                recalled iff > 0 (Fig. A.2)
M_n                        :func:`expected_gaussian_max`    max of n i.i.d. N(0, 1); E M_{p−1}
√(2 log p)                 ``extreme_value``                its leading asymptotics (§3.3)
=========================  ===============================  ====================================

[OURS, note §2.7] At the sizes simulated here (d <= 150) the trained mean target is beyond
√(2 log p) only at the smallest loads; the facts are recalled because the trained memory's row
maxima lie below E M_{p−1} (its upper non-target tail is thinned), while the Hebbian row maxima
sit on E M_{p−1}. Cross-entropy training is not the uniform measure on the solution cone.

Public functions
----------------
expected_gaussian_max
    E M_n by quadrature (the finite-p extreme value of note §2.3).
score_summary
    Normalised-score statistics and fixed-grid histograms of one memory W (note §2.7 table).
row_view
    One row's target against its p − 1 competitors (Fig. A.2, note pitfall 11).
score_mechanism
    Train (App. A protocol, float32) and Hebbian memories on one paired instance, summarised.
score_mechanism_sweep
    :func:`score_mechanism` on a grid of loads.
Result types: ScoreSummary, RowView, ScoreMechanism, ScoreMechanismSweep.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import check_beta, check_positive_int
from assocmem.backend import to_numpy

from .capacity import _gaussian_max_density, load
from .problem import (
    FactualRecallProblem,
    NormalisedScores,
    _check_kind,
    _check_problem,
    accuracy,
    hebbian_weights,
    normalised_scores,
)
from .sweep import _check_grid, _grid_p, _run
from .training import _check_steps

__all__ = [
    "SCORE_BIN_EDGES",
    "TAIL_THRESHOLD",
    "RowView",
    "ScoreMechanism",
    "ScoreMechanismSweep",
    "ScoreSummary",
    "expected_gaussian_max",
    "row_view",
    "score_mechanism",
    "score_mechanism_sweep",
    "score_summary",
]

#: Default histogram grid for normalised scores: 80 bins of width 0.2 on [−6, 10]. It holds the
#: trained and Hebbian targets (Hebbian means reach ≈ 4 with spread ≈ 1.6 at d = 40) and the
#: non-target bulk; scores beyond it are counted in the outer bins.
SCORE_BIN_EDGES = np.linspace(-6.0, 10.0, 81)
SCORE_BIN_EDGES.setflags(write=False)

#: Normalised score above which ``ScoreSummary.non_target_tail`` counts the non-target scores.
TAIL_THRESHOLD = 3.0


@dataclass(frozen=True, eq=False)
class ScoreSummary:
    """Normalised-score statistics of one memory (one row of the note's §2.7 table).

    Attributes
    ----------
    rule : str
        Label of the memory ("trained", "hebbian" or the caller's).
    accuracy : float
        Fraction of facts recalled, :func:`~assocmem.linear_memory.accuracy`.
    target_mean, target_std : float
        Mean and standard deviation (ddof 0) of the p normalised target scores s_μμ/σ.
    non_target_mean, non_target_std : float
        The same for the p(p − 1) non-target scores; ``non_target_std`` is 1 by construction.
    row_max_mean : float
        Mean over rows of the strongest competitor max_{ρ≠μ} s_μρ/σ.
    non_target_tail : float
        Fraction of the non-target scores above :data:`TAIL_THRESHOLD` = 3 (for i.i.d. standard
        normal scores: 1 − Φ(3) ≈ 1.35e-3); a thinned upper tail lowers the row maxima.
    margins : ndarray, shape (p,)
        (s_μμ − max_{ρ≠μ} s_μρ)/σ; fact μ is recalled iff its margin is > 0.
    target_counts, non_target_counts : ndarray of int, shape (n_bins,)
        Histograms on ``bin_edges``; the outer bins also count the scores beyond the grid, so
        they sum to p and p(p − 1).
    bin_edges : ndarray, shape (n_bins + 1,)
        The histogram grid.
    scale : float
        σ, the pooled non-target standard deviation of the unnormalised scores.
    """

    rule: str
    accuracy: float
    target_mean: float
    target_std: float
    non_target_mean: float
    non_target_std: float
    row_max_mean: float
    non_target_tail: float
    margins: np.ndarray
    target_counts: np.ndarray
    non_target_counts: np.ndarray
    bin_edges: np.ndarray
    scale: float


@dataclass(frozen=True, eq=False)
class RowView:
    """One fact's target against its own p − 1 competitors (Fig. A.2), in Fig. 4 units.

    Attributes
    ----------
    row : int
        The fact μ.
    target : float
        s_μμ/σ.
    competitors : ndarray, shape (p − 1,)
        s_μρ/σ for ρ ≠ μ, in the order of ρ.
    row_max : float
        Their maximum.
    recalled : bool
        ``target > row_max`` (strict, as :func:`~assocmem.linear_memory.accuracy`).
    counts : ndarray of int, shape (n_bins,)
        Histogram of ``competitors`` on ``bin_edges`` (outer bins count the overflow).
    bin_edges : ndarray, shape (n_bins + 1,)
    aggregate_above : float
        Fraction of *all* p(p − 1) non-target scores of the memory that exceed this row's target:
        how deep the target sits inside the aggregated grey histogram of Fig. 4.
    """

    row: int
    target: float
    competitors: np.ndarray
    row_max: float
    recalled: bool
    counts: np.ndarray
    bin_edges: np.ndarray
    aggregate_above: float


@dataclass(frozen=True, eq=False)
class ScoreMechanism:
    """Result of :func:`score_mechanism`: a trained and a Hebbian memory on one instance.

    Attributes
    ----------
    d, p : int
        Embedding dimension and number of facts p(α, d).
    alpha : float
        Requested load; ``alpha_eff`` = p ln p / d² is that of the integer p.
    alpha_eff : float
    problem : str
        "original" (eq. 1) or "decoupled" (eq. 2).
    seed : int
        Base seed; the instance is that of repetition 0 of
        :func:`~assocmem.linear_memory.accuracy_sweep` with the same seed.
    trained, hebbian : ScoreSummary
        Cross-entropy + Adam memory (App. A protocol, float32) and W_Hebb (eq. D.1).
    trained_row, hebbian_row : RowView
        The row with the smallest normalised target score of each memory.
    extreme_value : float
        √(2 log p), the paper's value for the competitors' maximum (§3.3).
    expected_max : float
        E M_{p−1}, the mean maximum of p − 1 i.i.d. standard normals (note §2.3).
    steps : int
        Adam steps used; ``converged``: whether training reached the early-stop accuracy.
    converged : bool
    """

    d: int
    p: int
    alpha: float
    alpha_eff: float
    problem: str
    seed: int
    trained: ScoreSummary
    hebbian: ScoreSummary
    trained_row: RowView
    hebbian_row: RowView
    extreme_value: float
    expected_max: float
    steps: int
    converged: bool


@dataclass(frozen=True, eq=False)
class ScoreMechanismSweep:
    """Result of :func:`score_mechanism_sweep`: one :class:`ScoreMechanism` per load.

    Attributes
    ----------
    d : int
    problem : str
    results : tuple of ScoreMechanism
        In the order of the requested loads.
    """

    d: int
    problem: str
    results: tuple[ScoreMechanism, ...]

    @property
    def alpha_eff(self) -> np.ndarray:
        """Effective loads p ln p / d², shape (n,)."""
        return np.array([r.alpha_eff for r in self.results])

    @property
    def p(self) -> np.ndarray:
        """Numbers of facts, shape (n,)."""
        return np.array([r.p for r in self.results])

    @property
    def expected_max(self) -> np.ndarray:
        """E M_{p−1} at each load, shape (n,)."""
        return np.array([r.expected_max for r in self.results])

    @property
    def extreme_value(self) -> np.ndarray:
        """√(2 log p) at each load, shape (n,)."""
        return np.array([r.extreme_value for r in self.results])

    def stat(self, rule: str, name: str) -> np.ndarray:
        """One :class:`ScoreSummary` field along the sweep, e.g. ``stat("trained", "target_std")``.

        Parameters
        ----------
        rule : {"trained", "hebbian"}
        name : str
            A scalar field of :class:`ScoreSummary`.

        Returns
        -------
        ndarray, shape (n,)
        """
        if rule not in ("trained", "hebbian"):
            raise ValueError(f"rule must be 'trained' or 'hebbian', got {rule!r}")
        if name not in _SCALAR_FIELDS:
            raise ValueError(f"name must be one of {_SCALAR_FIELDS}, got {name!r}")
        return np.array([getattr(getattr(r, rule), name) for r in self.results])

    def at(self, alpha: float) -> ScoreMechanism:
        """The result whose requested load is nearest ``alpha``."""
        alpha = check_beta(alpha, "alpha")
        return min(self.results, key=lambda r: abs(r.alpha - alpha))


_SCALAR_FIELDS = (
    "accuracy",
    "target_mean",
    "target_std",
    "non_target_mean",
    "non_target_std",
    "row_max_mean",
    "non_target_tail",
    "scale",
)


def expected_gaussian_max(n: int) -> float:
    """Mean E M_n of the maximum of n i.i.d. standard normal variables, by quadrature.

    Notes
    -----
    E M_n = ∫ x d/dx[Φ(x)^n] dx = ∫ x n φ(x) Φ(x)^(n−1) dx, Φ the standard normal CDF, evaluated
    by the trapezoidal rule on 20 001 points of [−10, √(2 log n) + 10] with Φ^(n−1) in log space
    (exponentially accurate for this smooth, Gaussian-tailed integrand). With n = p − 1 this is
    the finite-p extreme value that a target score must beat (note §2.3 table: 2.24 at p = 50,
    2.50 at p = 100, 3.24 at p = 10³). Its leading asymptotics is the paper's √(2 log n) (§3.3);
    the classical correction is −(log log n + log 4π)/(2√(2 log n)) + γ/√(2 log n), γ Euler's
    constant, so √(2 log p) overestimates E M_{p−1} by ≈ 0.5 for p in the hundreds.

    Parameters
    ----------
    n : int
        Number of variables, >= 1.

    Returns
    -------
    float
        E M_n; 0 for n = 1, 1/√π for n = 2.

    Examples
    --------
    >>> round(expected_gaussian_max(2), 12), round(1 / math.sqrt(math.pi), 12)
    (0.564189583548, 0.564189583548)
    >>> round(expected_gaussian_max(99), 2)  # p = 100 in the note's §2.3 table
    2.5
    """
    n = check_positive_int(n, "n", minimum=1)
    x, density = _gaussian_max_density(n)
    return float(np.trapezoid(x * density, x))


def _check_edges(bin_edges: Any) -> np.ndarray:
    """Return the histogram grid as a read-only float array: 1-D, finite, strictly increasing."""
    if bin_edges is None:
        return SCORE_BIN_EDGES
    edges = np.asarray(bin_edges)
    if edges.dtype.kind not in "iuf":
        raise TypeError(f"bin_edges must hold real numbers, got dtype {edges.dtype}")
    edges = edges.astype(float)
    if edges.ndim != 1 or edges.size < 2 or not np.all(np.isfinite(edges)):
        raise ValueError(f"bin_edges must be a finite 1-D array of >= 2 edges, got {bin_edges!r}")
    if not np.all(np.diff(edges) > 0):
        raise ValueError(f"bin_edges must be strictly increasing, got {bin_edges!r}")
    edges.setflags(write=False)
    return edges


def _counts(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Histogram on ``edges`` with the overflow clipped into the outer bins (counts sum to n)."""
    clipped = np.clip(values.ravel(), edges[0], edges[-1])
    return np.histogram(clipped, bins=edges)[0]


def _summarise(ns: NormalisedScores, acc: float, rule: str, edges: np.ndarray) -> ScoreSummary:
    """ScoreSummary from normalised scores (all non-target scores, shape (p, p − 1))."""
    target = np.asarray(to_numpy(ns.target))
    others = np.asarray(to_numpy(ns.non_target))
    row_max = np.asarray(to_numpy(ns.row_max))
    margins = target - row_max
    margins.setflags(write=False)
    return ScoreSummary(
        rule=rule,
        accuracy=acc,
        target_mean=float(target.mean()),
        target_std=float(target.std()),
        non_target_mean=float(others.mean()),
        non_target_std=float(others.std()),
        row_max_mean=float(row_max.mean()),
        non_target_tail=float(np.mean(others > TAIL_THRESHOLD)),
        margins=margins,
        target_counts=_counts(target, edges),
        non_target_counts=_counts(others, edges),
        bin_edges=edges,
        scale=float(ns.scale),
    )


def _row_view(ns: NormalisedScores, row: int | None, edges: np.ndarray) -> RowView:
    """RowView of ``row`` (None: the smallest target) from all normalised scores."""
    target = np.asarray(to_numpy(ns.target))
    others = np.asarray(to_numpy(ns.non_target))
    mu = int(np.argmin(target)) if row is None else row
    competitors = others[mu].copy()
    competitors.setflags(write=False)
    t = float(target[mu])
    row_max = float(competitors.max())
    return RowView(
        row=mu,
        target=t,
        competitors=competitors,
        row_max=row_max,
        recalled=t > row_max,
        counts=_counts(competitors, edges),
        bin_edges=edges,
        aggregate_above=float(np.mean(others > t)),
    )


def score_summary(
    W: Any, problem: FactualRecallProblem, *, rule: str = "", bin_edges: Any = None
) -> ScoreSummary:
    """Normalised-score statistics and histograms of a memory W (Fig. 4, note §2.7 table).

    Notes
    -----
    Scores are normalised as in Fig. 4 of the paper: divided by the pooled standard deviation σ
    of all p(p − 1) non-target scores, without centring or per-row normalisation (note
    pitfall 12; :func:`~assocmem.linear_memory.normalised_scores`). Reported: accuracy, the mean
    and spread of the targets and of the non-targets, the mean strongest competitor per row, the
    per-row margins and fixed-grid histograms for plotting (pre-binned, so a figure never ships
    the p² raw scores). Memory: all p(p − 1) scores are held at once.

    Parameters
    ----------
    W : array, shape (d, d)
        Finite real weights with non-constant non-target scores.
    problem : FactualRecallProblem
    rule : str, optional
        Label stored in the result.
    bin_edges : array_like or None, optional
        Histogram grid, strictly increasing, >= 2 edges; None means :data:`SCORE_BIN_EDGES`.

    Returns
    -------
    ScoreSummary

    Examples
    --------
    The non-target scores have unit spread by construction, and the histograms count every
    score:

    >>> from assocmem.linear_memory import hebbian_weights, sample_problem
    >>> inst = sample_problem(20, 50, rng=0)
    >>> s = score_summary(hebbian_weights(inst), inst)
    >>> round(s.non_target_std, 12), int(s.target_counts.sum()), int(s.non_target_counts.sum())
    (1.0, 50, 2450)
    """
    problem = _check_problem(problem)
    if not isinstance(rule, str):
        raise TypeError(f"rule must be a string label, got {rule!r}")
    edges = _check_edges(bin_edges)
    ns = normalised_scores(W, problem)
    return _summarise(ns, accuracy(W, problem), rule, edges)


def row_view(
    W: Any, problem: FactualRecallProblem, *, row: int | None = None, bin_edges: Any = None
) -> RowView:
    """One fact's target score against its own p − 1 competitors (Fig. A.2 of the paper).

    Notes
    -----
    Fact μ is recalled iff s_μμ > max_{ρ≠μ} s_μρ: a target competes only with its own row, so
    an overlap of the *aggregated* target and non-target histograms of Fig. 4 does not imply an
    error (App. A; note pitfall 11). Scores are in Fig. 4 units (pooled non-target σ of the whole
    memory). ``aggregate_above`` measures how far inside the aggregated non-target histogram the
    target lies.

    Parameters
    ----------
    W : array, shape (d, d)
        Finite real weights.
    problem : FactualRecallProblem
    row : int or None, optional
        The fact μ in [0, p); None picks the fact with the smallest normalised target score.
    bin_edges : array_like or None, optional
        Histogram grid of the competitors; None means :data:`SCORE_BIN_EDGES`.

    Returns
    -------
    RowView

    Examples
    --------
    >>> from assocmem.linear_memory import hebbian_weights, sample_problem
    >>> inst = sample_problem(20, 50, rng=0)
    >>> v = row_view(hebbian_weights(inst), inst, row=3)
    >>> v.row, v.competitors.shape, v.recalled == bool(v.target > v.competitors.max())
    (3, (49,), True)
    """
    problem = _check_problem(problem)
    edges = _check_edges(bin_edges)
    if row is not None:
        row = check_positive_int(row, "row", minimum=0, maximum=problem.p - 1)
    return _row_view(normalised_scores(W, problem), row, edges)


def score_mechanism(
    *,
    d: int,
    alpha: float,
    problem: str = "original",
    seed: int = 0,
    steps: int = 512,
    bin_edges: Any = None,
) -> ScoreMechanism:
    """Trained against Hebbian memory on one instance, in the Fig. 4 normalisation.

    Notes
    -----
    Draws the instance with p = p(α, d) facts (Lambert W, note pitfall 2) that repetition 0 of
    :func:`~assocmem.linear_memory.accuracy_sweep` draws with the same seed, trains it by
    :func:`~assocmem.linear_memory.train` with the paper's protocol (App. A: Adam, lr 1e-2,
    warm-up and cosine decay, ``steps`` full-batch steps, early stop at 99.9 %) in float32, and
    builds W_Hebb (eq. D.1) on the same instance (note pitfall 18). Both memories are summarised
    by :func:`score_summary` and by the :func:`row_view` of their weakest row, next to the two
    reference values of the competitors' maximum: √(2 log p) (paper §3.3) and E M_{p−1}
    (:func:`expected_gaussian_max`).

    Cost on one CPU core, float32: d = 40 at most ≈ 0.5 s (OP) and 1.5 s (DP) per call, d = 60
    OP ≈ 2 s at α = 1.2 (p = 665); below capacity early stopping makes it much cheaper.

    Parameters
    ----------
    d : int
        Embedding dimension, >= 2.
    alpha : float
        Load α > 0 with p(α, d) >= 2 and at most ``MAX_ELEMENTS`` p × p scores
        (``_validation``).
    problem : {"original", "decoupled"}, optional
        Eq. (1) or eq. (2).
    seed : int, optional
        Base seed, >= 0.
    steps : int, optional
        Adam budget, 1 <= steps <= ``MAX_STEPS`` (paper: 512).
    bin_edges : array_like or None, optional
        Histogram grid; None means :data:`SCORE_BIN_EDGES`.

    Returns
    -------
    ScoreMechanism

    Examples
    --------
    Below capacity training recalls everything, with targets far less spread than Hebbian ones:

    >>> r = score_mechanism(d=20, alpha=0.3)
    >>> r.p, r.trained.accuracy, bool(r.trained.target_std < 0.6 * r.hebbian.target_std)
    (34, 1.0, True)
    """
    d = check_positive_int(d, "d", minimum=2)
    alpha = check_beta(alpha, "alpha")
    kind = _check_kind(problem)
    seed = check_positive_int(seed, "seed", minimum=0)
    steps = _check_steps(steps)
    edges = _check_edges(bin_edges)
    p = int(_grid_p(np.array([alpha]), d, kind, "alpha")[0])
    return _score_mechanism(d, alpha, p, kind, seed, steps, edges)


def _score_mechanism(
    d: int, alpha: float, p: int, kind: str, seed: int, steps: int, edges: np.ndarray
) -> ScoreMechanism:
    """:func:`score_mechanism` for validated arguments and p = p(α, d)."""
    inst, res = _run(d, alpha, p, 0, kind, 1.0, seed, steps=steps, dtype="float32")
    summaries, rows = {}, {}
    for rule, W in (("trained", res.weights), ("hebbian", hebbian_weights(inst))):
        ns = normalised_scores(W, inst)
        summaries[rule] = _summarise(ns, accuracy(W, inst), rule, edges)
        rows[rule] = _row_view(ns, None, edges)
    return ScoreMechanism(
        d=d,
        p=p,
        alpha=alpha,
        alpha_eff=load(p, d),
        problem=kind,
        seed=seed,
        trained=summaries["trained"],
        hebbian=summaries["hebbian"],
        trained_row=rows["trained"],
        hebbian_row=rows["hebbian"],
        extreme_value=math.sqrt(2.0 * math.log(p)),
        expected_max=expected_gaussian_max(p - 1),
        steps=res.steps,
        converged=res.converged,
    )


def score_mechanism_sweep(
    *,
    d: int,
    alphas: Any,
    problem: str = "original",
    seed: int = 0,
    steps: int = 512,
    bin_edges: Any = None,
) -> ScoreMechanismSweep:
    """:func:`score_mechanism` on a grid of loads (target spread against α, check C18).

    Parameters
    ----------
    d : int
        Embedding dimension, >= 2.
    alphas : float or sequence of float
        Loads α > 0, non-empty, each as in :func:`score_mechanism`.
    problem, seed, steps, bin_edges
        As in :func:`score_mechanism`.

    Returns
    -------
    ScoreMechanismSweep

    Examples
    --------
    >>> sw = score_mechanism_sweep(d=20, alphas=[0.2, 0.4])
    >>> sw.p.tolist(), sw.stat("trained", "accuracy").tolist()
    ([25, 43], [1.0, 1.0])
    """
    d = check_positive_int(d, "d", minimum=2)
    grid = _check_grid(alphas)
    kind = _check_kind(problem)
    seed = check_positive_int(seed, "seed", minimum=0)
    steps = _check_steps(steps)
    edges = _check_edges(bin_edges)
    ps = _grid_p(grid, d, kind)
    results = tuple(
        _score_mechanism(d, float(a), int(p), kind, seed, steps, edges)
        for a, p in zip(grid, ps, strict=True)
    )
    return ScoreMechanismSweep(d=d, problem=kind, results=results)
