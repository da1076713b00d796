"""Small worked examples: the score matrix of a tiny memory and the counting argument.

Paper: A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories:
sharp asymptotics and mechanistic insights*, arXiv:2605.10795, eqs. (1)-(3), (5) and §5.1.
"note §" refers to the chapter note ``shared/notes/01-factual-recall.md`` (§1.1, §1.6, §3 p(α, d)
table, pitfalls 1 and 2). These functions feed the first two sections of the chapter.

Notation map
------------
- s_μρ = u_ρᵀ W e_μ (row = input μ, column = candidate ρ, eq. (1)) -> ``ScoreSnapshot.scores``
- α = p ln p / d² (eq. (5), natural log)                          -> ``alpha``
- p_c(α, d): the integer p with p ln p ≈ α d² (Lambert W)          -> ``CountingCurve.p``
- p log₂ p / d² = α / ln 2 (bits per entry of W, note §1.6, OURS)  -> ``bits_per_entry``

Public functions
----------------
score_snapshot
    Scores, predictions and accuracy of one small instance, for the initial W, a W trained with
    a budget of Adam steps, or the Hebbian W (section fr-facts).
snapshot_accuracies
    The accuracy of :func:`score_snapshot` on many instances (seeds 0, 1, ...), for claims
    that rest on more than one draw.
counting_curve
    p_c(α, d) against d, with the naive count p = d², the log₂ misreading and the bits per
    entry of W (section fr-counting).
load_table
    p(α, d) on a grid of loads and dimensions (the note's §3 table).
Result types: ScoreSnapshot, CountingCurve, LoadTable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import MAX_ELEMENTS, check_beta, check_option, check_positive_int

from .capacity import _p_at, load, p_at_load
from .problem import (
    _check_instance_size,
    _check_kind,
    accuracy,
    hebbian_weights,
    normalised_scores,
    sample_problem,
    scores,
)
from .sweep import _check_grid
from .training import _check_steps, train

# Largest number of instances snapshot_accuracies draws (each is a training run).
_MAX_INSTANCES = 10_000

__all__ = [
    "RULES",
    "CountingCurve",
    "LoadTable",
    "ScoreSnapshot",
    "counting_curve",
    "load_table",
    "score_snapshot",
    "snapshot_accuracies",
]

#: The memories of :func:`score_snapshot`: trained by Adam (the initial random W at 0 steps) or
#: the Hebbian rule (eq. (D.1)).
RULES = ("trained", "hebbian")


@dataclass(frozen=True, eq=False)
class ScoreSnapshot:
    """The score matrix of one small instance for one memory W (eq. (1) or (2)).

    Attributes
    ----------
    d, p : int
        Dimension and number of facts.
    alpha : float
        Load p ln p / d² (eq. (5)).
    problem : {"original", "decoupled"}
        Eq. (1) or eq. (2).
    rule : {"trained", "hebbian"}
        How W was obtained.
    steps : int
        Adam steps made (0: W is the random initialisation; 0 for the Hebbian rule).
    scores : ndarray, shape (p, p)
        s_μρ = u_ρ^(μ)ᵀ W e_μ; row μ is input μ, column ρ candidate ρ, targets on the diagonal.
    scale : float
        Standard deviation of the p(p − 1) non-target scores (Fig. 4 normalisation, note
        pitfall 12); retrieval does not depend on it.
    predicted : ndarray of int, shape (p,)
        argmax_ρ s_μρ, the output retrieved for each input.
    accuracy : float
        Fraction of facts recalled (target strictly above every competitor).
    """

    d: int
    p: int
    alpha: float
    problem: str
    rule: str
    steps: int
    scores: np.ndarray
    scale: float
    predicted: np.ndarray
    accuracy: float

    @property
    def normalised(self) -> np.ndarray:
        """Scores divided by ``scale``: non-target scores have unit variance."""
        return self.scores / self.scale

    @property
    def label(self) -> str:
        """Short description of the memory, e.g. "trained W, 200 Adam steps"."""
        if self.rule == "hebbian":
            return "Hebbian W"
        if self.steps == 0:
            return "random W (initialisation)"
        return f"trained W, {self.steps} Adam steps"


def _initial_weights(gen: np.random.Generator, d: int) -> np.ndarray:
    """W at initialisation, drawn as ``training.train`` draws it: i.i.d. N(0, 1/d²) (App. A)."""
    return gen.standard_normal((d, d)) / d


def score_snapshot(
    d: int = 8,
    p: int = 10,
    steps: int = 0,
    problem: str = "original",
    *,
    rule: str = "trained",
    seed: int = 0,
    lr: float = 1e-2,
) -> ScoreSnapshot:
    """Scores of a small factual-recall instance for the initial, trained or Hebbian memory.

    Notes
    -----
    One instance of eq. (1) or (2) (``sample_problem``) is drawn from ``seed``; the memory is

    - ``rule="trained"``: W after a budget of ``steps`` full-batch Adam steps on the
      cross-entropy (``train``: App. A protocol, warm-up then cosine decay over the budget, no
      early stopping, so the scores keep growing after every fact is recalled). ``steps=0`` is
      the random initialisation W ~ N(0, 1/d²) of the same run.
    - ``rule="hebbian"``: W_Hebb = (1/d) Σ_μ u_μ e_μᵀ (eq. (D.1)); ``steps`` must be 0.

    The instance and the initialisation use two generators spawned from ``seed``, so runs with
    different budgets share both. Each budget is a separate run (the cosine schedule spans the
    budget), not a snapshot of one long run.

    Parameters
    ----------
    d : int, optional
        Embedding dimension, >= 1.
    p : int, optional
        Number of facts, >= 2 (the instance and its p × p scores at most ``MAX_ELEMENTS``
        numbers). The heat-maps of :mod:`assocmem.explore.factual_recall.basics` are meant
        for p <= 30.
    steps : int, optional
        Adam budget, 0 <= steps <= ``MAX_STEPS``.
    problem : {"original", "decoupled"}, optional
        Eq. (1) or eq. (2).
    rule : {"trained", "hebbian"}, optional
    seed : int, optional
        Seed, >= 0.
    lr : float, optional
        Peak Adam learning rate, finite and > 0 (paper: 1e-2).

    Returns
    -------
    ScoreSnapshot

    Examples
    --------
    A random W recalls about one fact in p; 200 Adam steps store all ten:

    >>> score_snapshot(8, 10, 200).accuracy
    1.0
    """
    d = check_positive_int(d, "d", minimum=1)
    p = check_positive_int(p, "p", minimum=2)
    steps = _check_steps(steps, minimum=0)
    kind = _check_kind(problem)
    rule = check_option(rule, "rule", RULES)
    _check_instance_size(p, d, kind, "p", scores=True)
    if rule == "hebbian" and steps != 0:
        raise ValueError(f"steps must be 0 for the Hebbian rule (it is not trained), got {steps}")
    seed = check_positive_int(seed, "seed", minimum=0)
    lr = check_beta(lr, "lr")
    inst_seq, init_seq = np.random.SeedSequence(seed).spawn(2)
    inst = sample_problem(d, p, kind, rng=np.random.default_rng(inst_seq))
    if rule == "hebbian":
        W = hebbian_weights(inst)
    elif steps == 0:
        W = _initial_weights(np.random.default_rng(init_seq), d)
    else:
        res = train(inst, steps=steps, lr=lr, early_stop=None, rng=np.random.default_rng(init_seq))
        W = res.weights
    S = np.asarray(scores(W, inst))
    return ScoreSnapshot(
        d=d,
        p=p,
        alpha=load(p, d),
        problem=kind,
        rule=rule,
        steps=steps,
        scores=S,
        scale=normalised_scores(W, inst).scale,
        predicted=np.argmax(S, axis=1),
        accuracy=accuracy(W, inst),
    )


def snapshot_accuracies(
    d: int = 8,
    p: int = 10,
    steps: int = 0,
    problem: str = "original",
    *,
    rule: str = "trained",
    instances: int = 20,
    lr: float = 1e-2,
) -> np.ndarray:
    """Accuracy of :func:`score_snapshot` on ``instances`` independent draws (seeds 0, 1, ...).

    Notes
    -----
    Instance ``k`` is ``score_snapshot(d, p, steps, problem, rule=rule, seed=k, lr=lr)``, so
    the trained and the Hebbian memories of one seed see the same instance, and entry ``k``
    of two calls with different budgets is the same instance trained twice.

    Parameters
    ----------
    d, p, steps, problem, rule, lr
        As for :func:`score_snapshot`.
    instances : int, optional
        Number of draws, 1 <= instances <= 10000.

    Returns
    -------
    ndarray, shape (instances,)
        Fraction of the p facts recalled on each instance.

    Examples
    --------
    A random W recalls one fact in p on average (§5.1 of the paper); 200 Adam steps store
    the first instance completely:

    >>> snapshot_accuracies(8, 10, 200, instances=1).tolist()
    [1.0]
    """
    instances = check_positive_int(instances, "instances", minimum=1, maximum=_MAX_INSTANCES)
    first = score_snapshot(d, p, steps, problem, rule=rule, seed=0, lr=lr)  # validates the rest
    rest = [
        score_snapshot(d, p, steps, problem, rule=rule, seed=k, lr=lr).accuracy
        for k in range(1, instances)
    ]
    return np.array([first.accuracy, *rest])


@dataclass(frozen=True)
class CountingCurve:
    """Number of facts at a fixed load α, against the dimension d (eqs. (3), (5)).

    Attributes
    ----------
    alpha : float
        Load α = p ln p / d².
    d : ndarray of int, shape (n,)
        Dimensions, increasing.
    p : ndarray of int, shape (n,)
        p(α, d) = round(c / W₀(c)), c = α d² (``p_at_load``; at α = 1/2 this is p_c).
    alpha_eff : ndarray, shape (n,)
        Effective load p ln p / d² of the integer p (note pitfall 2).
    naive : ndarray of int, shape (n,)
        d², the count of entries of W: the naive guess "one fact per parameter".
    p_log2 : ndarray of int, shape (n,)
        The p with p log₂ p = α d²: what the threshold becomes if α is misread with log₂
        (note pitfall 1); equal to p(α ln 2, d).
    """

    alpha: float
    d: np.ndarray
    p: np.ndarray
    alpha_eff: np.ndarray
    naive: np.ndarray
    p_log2: np.ndarray

    @property
    def bits_per_entry(self) -> float:
        """α / ln 2: bits of facts per entry of W, p log₂ p / d² (note §1.6, OURS)."""
        return self.alpha / math.log(2.0)

    @property
    def bits_per_entry_eff(self) -> np.ndarray:
        """p log₂ p / d² of the integer p at every d (approaches ``bits_per_entry``)."""
        return self.alpha_eff / math.log(2.0)


def counting_curve(
    alpha: float = 0.5, d_min: int = 10, d_max: int = 1000, n: int = 40
) -> CountingCurve:
    """p(α, d) against d on a geometric grid, with the naive d² and the log₂ misreading.

    Notes
    -----
    The counting argument of §5.1: a random W satisfies all p independent constraints of the
    decoupled problem with probability (1/p)^p = e^(−p ln p); balancing against the d² degrees
    of freedom gives the load α = p ln p / d² (eq. (5)), and the capacity is α_c = 1/2
    (Conjecture 1). Inverting with the Lambert W function, p = c / W₀(c), c = α d²
    (``p_at_load``), grows like d² / (2 ln d) at α = 1/2: slower than the naive d² by a
    logarithm, the entropic cost of beating p − 1 competitors.

    Parameters
    ----------
    alpha : float, optional
        Load α, finite and > 0, with α d_min² >= 1.5 ln 1.5 (so that p >= 2 at every d).
    d_min, d_max : int, optional
        Range of dimensions, 1 <= d_min < d_max.
    n : int, optional
        Number of grid points, 2 <= n <= ``MAX_ELEMENTS``, before removing repeated integers.

    Returns
    -------
    CountingCurve

    Examples
    --------
    >>> c = counting_curve(0.5, 40, 1000, n=2)
    >>> c.d.tolist(), c.p.tolist()  # note §3 table: p(0.5, 40) = 158
    ([40, 1000], [158, 46522])
    >>> round(c.bits_per_entry, 2)
    0.72
    """
    alpha = check_beta(alpha, "alpha")
    d_min = check_positive_int(d_min, "d_min", minimum=1)
    d_max = check_positive_int(d_max, "d_max", minimum=d_min + 1)
    n = check_positive_int(n, "n", minimum=2, maximum=MAX_ELEMENTS)
    ds = np.unique(np.round(np.geomspace(d_min, d_max, n)).astype(int))
    ps = np.array([p_at_load(alpha, int(d)) for d in ds])
    # log₂ misreading: p log₂ p = α d²  <=>  p ln p = (α ln 2) d²; p >= 2 needs its own floor.
    p2 = np.array([_p_at_load_floor(alpha * math.log(2.0), int(d)) for d in ds])
    return CountingCurve(
        alpha=alpha,
        d=ds,
        p=ps,
        alpha_eff=np.array([load(int(p), int(d)) for p, d in zip(ps, ds, strict=True)]),
        naive=ds**2,
        p_log2=p2,
    )


def _p_at_load_floor(alpha: float, d: int) -> int:
    """``p_at_load``, or 2 where α d² is too small for p >= 2 (the curve's lower end)."""
    if alpha * d * d < 1.5 * math.log(1.5):
        return 2
    return p_at_load(alpha, d)


@dataclass(frozen=True)
class LoadTable:
    """p(α, d) on a grid, the note's §3 table.

    Attributes
    ----------
    alphas : ndarray, shape (n_alpha,)
        Loads (columns).
    ds : ndarray of int, shape (n_d,)
        Dimensions (rows).
    p : ndarray of int, shape (n_d, n_alpha)
        p(α, d) from ``p_at_load``.
    alpha_eff : ndarray, shape (n_d, n_alpha)
        p ln p / d² of the integer p.
    """

    alphas: np.ndarray
    ds: np.ndarray
    p: np.ndarray
    alpha_eff: np.ndarray


def load_table(alphas: Any, ds: Any) -> LoadTable:
    """Integer number of facts p(α, d) = round(c / W₀(c)), c = α d², on a grid (eq. (5)).

    Parameters
    ----------
    alphas : float or sequence of float
        Loads, each finite and > 0 (with 1.5 ln 1.5 <= α d² <= 2**53 ln 2**53 for every d, see
        :func:`~.capacity.p_at_load`).
    ds : int or sequence of int
        Dimensions, each >= 1.

    Returns
    -------
    LoadTable

    Examples
    --------
    >>> load_table([0.5, 1.0], [40]).p.tolist()  # note §3 table
    [[158, 283]]
    """
    a = _check_grid(alphas)
    if ds is None or isinstance(ds, str | bytes):
        raise TypeError(f"ds must be an integer or a sequence of integers, got {ds!r}")
    d_arr = np.atleast_1d(np.asarray(ds))
    if d_arr.ndim != 1 or d_arr.size == 0:
        raise ValueError(f"ds must be a non-empty 1-D sequence of dimensions, got {ds!r}")
    dims = [check_positive_int(d, "ds") for d in d_arr.tolist()]
    ps = np.array([[_p_at(float(x), d, "alphas") for x in a] for d in dims], dtype=np.int64)
    eff = np.array([[load(int(p), d) for p in row] for d, row in zip(dims, ps, strict=True)])
    return LoadTable(alphas=a, ds=np.array(dims), p=ps, alpha_eff=eff)
