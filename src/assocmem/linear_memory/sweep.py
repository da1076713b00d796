"""Accuracy against load: the experiment behind Figs. 1 and 2 of the paper, and its read-outs.

Paper: Giorlandino, Goldt and Maillard, arXiv:2605.10795, App. A.1-A.2 (protocol) and
Figs. 1, 2, C.1 (read-outs). "note §" refers to ``shared/notes/01-factual-recall.md``.

For every load α on a grid and every repetition, one instance is drawn with p = p(α, d) from
:func:`~assocmem.linear_memory.capacity.p_at_load`, trained by :func:`~.training.train` and,
at full rank, stored with the Hebbian rule on the *same* instance (note §4 algorithm E,
pitfall 18). Seeds are a deterministic function of (seed, d, α, rep, κ), so OP, DP and Hebbian
comparisons are paired, every function below sees the same instance at the same point
(:func:`sweep_instance` returns it), and a figure never changes.

Public functions
----------------
accuracy_sweep
    Returns an :class:`AccuracySweep` with per-repetition accuracies, losses and step counts.
threshold_scan
    Returns a :class:`ThresholdScan`: the first violation (Fig. C.1 read-out) for several d,
    walking up a grid of loads and stopping at the first error, with the corrected finite-p
    estimate α_c(p) of :func:`~.finite_p.finite_p_capacity_mc` for comparison.
sweep_instance
    The instance that the functions above train at (d, α, rep): to inspect a failed run, e.g.
    with the exact linear program :func:`~.problem.lp_feasible`.
learning_curve
    Returns a :class:`LearningCurve`: accuracy and loss after every Adam step of one run, with
    the learning rate used and the Hebbian accuracy on the same instance.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_STEPS,
    as_real_vector,
    check_beta,
    check_fraction,
    check_int_sequence,
    check_positive_int,
)

from .capacity import _p_at, load
from .finite_p import finite_p_capacity_mc
from .problem import (
    FactualRecallProblem,
    _check_instance_size,
    _check_kind,
    accuracy,
    hebbian_weights,
    sample_problem,
)
from .training import (
    _DEFAULT_WARMUP,
    TrainResult,
    _check_dtype,
    _check_early_stop,
    _check_steps,
    _lr_at,
    train,
)

__all__ = [
    "AccuracySweep",
    "LearningCurve",
    "ThresholdScan",
    "accuracy_sweep",
    "learning_curve",
    "sweep_instance",
    "threshold_scan",
]

# Monte-Carlo samples of the finite-p estimate attached to a ThresholdScan (stderr ≈ 0.005)
_FINITE_P_SAMPLES = 2000


@dataclass(frozen=True, eq=False)
class AccuracySweep:
    """Result of :func:`accuracy_sweep`.

    Attributes
    ----------
    d : int
        Embedding dimension.
    alpha : ndarray, shape (n,)
        Requested loads α.
    p : ndarray of int, shape (n,)
        Number of associations p(α, d) (Lambert W, rounded; note pitfall 2).
    alpha_eff : ndarray, shape (n,)
        Effective load p ln p / d² of the integer p.
    accuracy : ndarray, shape (n, reps)
        Training accuracy of the trained memory.
    hebbian : ndarray, shape (n, reps), or None
        Accuracy of the Hebbian rule on the same instances (κ = 1 only).
    loss : ndarray, shape (n, reps)
        Final cross-entropy.
    steps : ndarray of int, shape (n, reps)
        Adam steps used (fewer than the budget when early stopping fired).
    problem : str
        "original" or "decoupled".
    kappa : float
        Rank fraction κ of W = Q Rᵀ.
    budget : int
        The step budget passed as ``steps`` to :func:`accuracy_sweep`.
    lr : float
        Peak learning rate.
    """

    d: int
    alpha: np.ndarray
    p: np.ndarray
    alpha_eff: np.ndarray
    accuracy: np.ndarray
    hebbian: np.ndarray | None
    loss: np.ndarray
    steps: np.ndarray
    problem: str
    kappa: float
    budget: int = 512
    lr: float = 1e-2

    @property
    def mean_accuracy(self) -> np.ndarray:
        """Mean training accuracy over repetitions, shape (n,)."""
        return self.accuracy.mean(axis=1)

    @property
    def all_correct(self) -> np.ndarray:
        """Whether every repetition stored every association, shape (n,)."""
        return np.all(self.accuracy == 1.0, axis=1)

    @property
    def first_violation(self) -> float | None:
        """Smallest effective α of the grid where some repetition made an error (Fig. C.1).

        None when no error occurred on the whole grid.
        """
        bad = np.flatnonzero(~self.all_correct)
        return float(self.alpha_eff[bad[0]]) if bad.size else None

    @property
    def last_clean(self) -> float | None:
        """Largest effective α of the grid below the first violation ("no errors occur", App. A.2).

        The whole grid when no error occurred; None when the smallest α already has one. The
        empirical threshold lies between ``last_clean`` and ``first_violation``.
        """
        order = np.argsort(self.alpha_eff)
        clean = self.all_correct[order]
        n_ok = int(np.argmin(clean)) if not clean.all() else clean.size
        return float(self.alpha_eff[order][n_ok - 1]) if n_ok else None


@dataclass(frozen=True, eq=False)
class ThresholdScan:
    """Result of :func:`threshold_scan`: empirical thresholds of CE + Adam for several d.

    Attributes
    ----------
    d : ndarray of int, shape (k,)
        Embedding dimensions.
    alpha : ndarray, shape (n,)
        The requested grid of loads, increasing.
    first_violation : ndarray, shape (k,)
        Effective α of the first grid point where some repetition made an error (App. A.2,
        Fig. C.1); NaN where no error occurred on the whole grid.
    last_clean : ndarray, shape (k,)
        Effective α of the grid point just below it (every repetition perfect); NaN where the
        smallest α already had an error. For a d without errors, the largest grid α.
    first_index : ndarray of int, shape (k,)
        Index into ``alpha`` of the first violation; ``len(alpha)`` where there was none.
    first_rep : ndarray of int, shape (k,)
        Repetition that made the first error (-1 where there was none): with
        ``alpha[first_index]`` it names the failed instance for :func:`sweep_instance`.
    p_first : ndarray of int, shape (k,)
        p at the first violation (at the largest grid α where there was none).
    finite_p : ndarray, shape (k,)
        The corrected finite-p estimate α_c(p) at ``p_first``,
        ``finite_p.finite_p_capacity_mc(p_first).alpha_c`` (OURS, not the paper's).
    finite_p_stderr : ndarray, shape (k,)
        Monte-Carlo standard error of ``finite_p``.
    finite_p_step : ndarray, shape (k,)
        The note's step-function estimate ``capacity.finite_p_capacity(p_first)`` (note §2.3),
        superseded and lower than ``finite_p``; kept for comparison.
    runs : ndarray of int, shape (k,)
        Training runs made for each d (the scan stops at the first error).
    reps, budget : int
        Repetitions per load and Adam step budget.
    lr : float
        Peak learning rate.
    problem : str
        "original" or "decoupled".
    kappa : float
        Rank fraction κ.
    """

    d: np.ndarray
    alpha: np.ndarray
    first_violation: np.ndarray
    last_clean: np.ndarray
    first_index: np.ndarray
    first_rep: np.ndarray
    p_first: np.ndarray
    finite_p: np.ndarray
    finite_p_stderr: np.ndarray
    finite_p_step: np.ndarray
    runs: np.ndarray
    reps: int
    budget: int
    lr: float
    problem: str
    kappa: float


@dataclass(frozen=True, eq=False)
class LearningCurve:
    """Result of :func:`learning_curve`: one training run, step by step.

    Attributes
    ----------
    d, p : int
        Dimension and number of associations p(α, d).
    alpha, alpha_eff : float
        Requested and effective load p ln p / d².
    accuracy : ndarray, shape (steps + 1,)
        Training accuracy after t = 0, 1, ..., ``steps`` Adam updates (t = 0: initialisation).
    loss : ndarray, shape (steps + 1,)
        Cross-entropy (eq. (A.1) or (A.2)) at the same points.
    learning_rate : ndarray, shape (steps,)
        Learning rate of update t (warm-up then cosine decay over ``budget``).
    hebbian : float or None
        Accuracy of the Hebbian rule (eq. (D.1)) on the same instance; None for κ < 1.
    steps : int
        Adam updates made (< ``budget`` when early stopping fired).
    budget : int
        The step budget T of the schedule.
    converged : bool
        Whether ``early_stop`` was reached.
    problem : str
        "original" or "decoupled".
    kappa : float
        Rank fraction κ.
    """

    d: int
    p: int
    alpha: float
    alpha_eff: float
    accuracy: np.ndarray
    loss: np.ndarray
    learning_rate: np.ndarray
    hebbian: float | None
    steps: int
    budget: int
    converged: bool
    problem: str
    kappa: float

    @property
    def uniform_loss(self) -> float:
        """Cross-entropy of W = 0, ln p: every candidate equally likely (eqs. (A.1)/(A.2))."""
        return math.log(self.p)


def _seeds(seed: int, d: int, alpha: float, rep: int, kappa: float) -> tuple[Any, Any]:
    """Two independent generators (instance, initialisation) keyed on the sweep point."""
    key = [seed, d, round(alpha * 1_000_000), rep, round(kappa * 1_000_000)]
    inst, init = np.random.SeedSequence(key).spawn(2)
    return np.random.default_rng(inst), np.random.default_rng(init)


def _check_run(
    d: Any, problem: Any, kappa: Any, steps: Any, lr: Any, seed: Any, d_name: str = "d"
) -> tuple[int, str, float, int, float, int]:
    """Validate the arguments shared by the public functions (public boundary)."""
    return (
        check_positive_int(d, d_name, minimum=2),
        _check_kind(problem),
        check_fraction(kappa, "kappa", 0.0, 1.0, open_lo=True, open_hi=False),
        _check_steps(steps),
        check_beta(lr, "lr"),
        check_positive_int(seed, "seed", minimum=0),
    )


def _check_train(early_stop: Any, dtype: Any) -> tuple[float | None, str]:
    """Validate the training options passed on to :func:`~.training.train`."""
    return _check_early_stop(early_stop), _check_dtype(dtype)


def _check_point(alpha: Any, rep: Any) -> tuple[float, int]:
    """Validate the load and repetition index of one sweep point."""
    return check_beta(alpha, "alpha"), check_positive_int(rep, "rep", minimum=0)


def _check_grid(alphas: Any, name: str = "alphas") -> np.ndarray:
    """Validate a non-empty 1-D grid of finite loads α > 0 (not sorted); a scalar is one load."""
    grid = as_real_vector(alphas, name, lo=0.0, open_lo=True, min_size=0)
    if grid.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of loads, got {alphas!r}")
    return grid


def _grid_p(
    grid: np.ndarray, d: int, kind: str, name: str = "alphas", scores: bool = True
) -> np.ndarray:
    """p(α, d) at every load of a validated grid, with the instance size capped.

    Errors name the caller's parameter ``name``: p < 2, p > 2**53, or an instance (with its
    p × p scores if ``scores``) above ``MAX_ELEMENTS`` numbers.
    """
    ps = np.array([_p_at(float(a), d, name) for a in grid], dtype=np.int64)
    _check_instance_size(int(ps.max()), d, kind, name, scores=scores)
    return ps


def _check_dims(ds: Any, name: str) -> list[int]:
    """One integer dimension or a non-empty 1-D sequence of them, each >= 2, as Python ints."""
    if isinstance(ds, numbers.Integral) and not isinstance(ds, bool | np.bool_):
        ds = [ds]
    return check_int_sequence(ds, name, minimum=2)


def _instance(
    d: int, alpha: float, p: int, rep: int, kind: str, kappa: float, seed: int
) -> tuple[FactualRecallProblem, Any]:
    """The instance of (seed, d, α, rep, κ), and the generator left for its initialisation."""
    inst_rng, init_rng = _seeds(seed, d, alpha, rep, kappa)
    return sample_problem(d, p, kind, rng=inst_rng), init_rng


def _train_kw(steps: int, lr: float, early_stop: float | None, dtype: str) -> dict[str, Any]:
    """The keyword arguments of :func:`~.training.train` shared by the public functions."""
    return {"steps": steps, "lr": lr, "early_stop": early_stop, "dtype": dtype}


def _run(
    d: int, alpha: float, p: int, rep: int, kind: str, kappa: float, seed: int, **train_kw: Any
) -> tuple[FactualRecallProblem, TrainResult]:
    """Draw the instance of (seed, d, α, rep, κ) and train it (paper App. A protocol)."""
    inst, init_rng = _instance(d, alpha, p, rep, kind, kappa, seed)
    return inst, train(inst, kappa=kappa, rng=init_rng, **train_kw)


def sweep_instance(
    d: int,
    alpha: float,
    *,
    rep: int = 0,
    problem: str = "original",
    kappa: float = 1.0,
    seed: int = 0,
) -> FactualRecallProblem:
    """The instance trained by :func:`accuracy_sweep` at load α, repetition ``rep``.

    Notes
    -----
    p = p(α, d) facts drawn from the stream keyed on (seed, d, α, rep, κ) (note pitfall 18),
    exactly as :func:`accuracy_sweep`, :func:`threshold_scan` and :func:`learning_curve` draw
    them; pass the *requested* α of the grid, not the effective one.

    Parameters
    ----------
    d : int
        Embedding dimension, >= 2.
    alpha : float
        Requested load α > 0 with p(α, d) >= 2.
    rep : int, optional
        Repetition index, >= 0.
    problem, kappa, seed
        As in :func:`accuracy_sweep`.

    Returns
    -------
    FactualRecallProblem

    Examples
    --------
    OP and DP instances of one sweep point share their keys:

    >>> import numpy as np
    >>> op = sweep_instance(10, 0.5, rep=1)
    >>> dp = sweep_instance(10, 0.5, rep=1, problem="decoupled")
    >>> op.p, bool(np.array_equal(op.keys, dp.keys))
    (17, True)
    """
    d, kind, kappa, _, _, seed = _check_run(d, problem, kappa, 1, 1.0, seed)
    alpha, rep = _check_point(alpha, rep)
    p = int(_grid_p(np.array([alpha]), d, kind, "alpha", scores=False)[0])
    return _instance(d, alpha, p, rep, kind, kappa, seed)[0]


def accuracy_sweep(
    d: int,
    alphas: Any,
    *,
    reps: int = 3,
    problem: str = "original",
    kappa: float = 1.0,
    steps: int = 512,
    lr: float = 1e-2,
    early_stop: float | None = 0.999,
    dtype: str = "float32",
    seed: int = 0,
) -> AccuracySweep:
    """Train on a grid of loads and record accuracy, the experiment of Figs. 1-2 (App. A).

    Notes
    -----
    At each α the number of facts is p(α, d) = round(c / W₀(c)), c = α d², and the reported
    load is the effective α = p ln p / d² (eq. (3)). Training is :func:`~.training.train`
    with the paper's protocol (Adam, lr 1e-2, warm-up then cosine decay, at most ``steps`` full
    batch steps, early stop at 99.9 %). For p <= 1000 the 99.9 % stop equals perfect recall;
    beyond, pass ``early_stop=1.0`` to measure the first violation (note pitfall 4).

    The instance of repetition r at load α depends only on (seed, d, α, r, κ), not on the
    problem kind's storage: OP and DP instances with equal seeds share their keys.

    Parameters
    ----------
    d : int
        Embedding dimension, >= 2.
    alphas : float or sequence of float
        Loads α > 0, each giving p >= 2, and an instance with its p × p scores of at most
        ``MAX_ELEMENTS`` numbers (``_validation``).
    reps : int, optional
        Independent instances per α, >= 1 (paper: 5).
    problem : {"original", "decoupled"}, optional
        Eq. (1) or eq. (2).
    kappa : float, optional
        Rank fraction κ in (0, 1]; the Hebbian baseline is only recorded at κ = 1 (Fig. 2).
    steps, lr, early_stop, dtype
        Passed to :func:`~.training.train`; ``dtype`` defaults to float32 as on the paper's GPU.
    seed : int, optional
        Base seed, >= 0.

    Returns
    -------
    AccuracySweep

    Examples
    --------
    Well below capacity every fact is stored; the Hebbian rule already errs:

    >>> sw = accuracy_sweep(20, [0.3], reps=2)
    >>> sw.p.tolist(), sw.accuracy.tolist(), bool(sw.hebbian.max() < 1)
    ([34], [[1.0, 1.0]], True)
    """
    d, kind, kappa, steps, lr, seed = _check_run(d, problem, kappa, steps, lr, seed)
    early_stop, dtype = _check_train(early_stop, dtype)
    reps = check_positive_int(reps, "reps", minimum=1, maximum=MAX_STEPS)
    grid = _check_grid(alphas)
    ps = _grid_p(grid, d, kind)
    shape = (grid.size, reps)
    acc, loss, n_steps = np.empty(shape), np.empty(shape), np.empty(shape, dtype=int)
    hebb = np.empty(shape) if kappa == 1.0 else None
    train_kw = _train_kw(steps, lr, early_stop, dtype)
    for i, (a, p) in enumerate(zip(grid, ps, strict=True)):
        for r in range(reps):
            inst, res = _run(d, float(a), int(p), r, kind, kappa, seed, **train_kw)
            acc[i, r], loss[i, r], n_steps[i, r] = res.accuracy, res.loss, res.steps
            if hebb is not None:
                hebb[i, r] = accuracy(hebbian_weights(inst), inst)
    return AccuracySweep(
        d=d,
        alpha=grid,
        p=ps,
        alpha_eff=np.array([load(int(p), d) for p in ps]),
        accuracy=acc,
        hebbian=hebb,
        loss=loss,
        steps=n_steps,
        problem=kind,
        kappa=float(kappa),
        budget=steps,
        lr=lr,
    )


def _first_violation_index(
    d: int, grid: np.ndarray, reps: int, kind: str, kappa: float, seed: int, train_kw: Any
) -> tuple[int, int, int]:
    """Grid index and repetition of the first error (len(grid), -1 if none), and the runs."""
    runs = 0
    for i, a in enumerate(grid):
        p = _p_at(float(a), d, "alphas")
        for r in range(reps):
            runs += 1
            if _run(d, float(a), p, r, kind, kappa, seed, **train_kw)[1].accuracy < 1.0:
                return i, r, runs
    return grid.size, -1, runs


def threshold_scan(
    ds: Any,
    alphas: Any,
    *,
    reps: int = 3,
    problem: str = "original",
    kappa: float = 1.0,
    steps: int = 512,
    lr: float = 1e-2,
    early_stop: float | None = 1.0,
    dtype: str = "float32",
    seed: int = 0,
) -> ThresholdScan:
    """Empirical capacity threshold of CE + Adam: first violation on a grid of loads (Fig. C.1).

    Notes
    -----
    App. A.2 of the paper estimates α_c(p) at each d as "the value of α at which the first
    violation is encountered" on the α-grid of Fig. 1. For each d this function walks up the
    (sorted) grid, trains the repetitions of each α with the instances of
    :func:`accuracy_sweep` (same seeds), and stops at the first run that misses an association:
    the result equals ``accuracy_sweep(d, alphas, ...).first_violation`` at a fraction of the
    cost, since only one failing run is trained to the full budget. ``early_stop`` defaults to
    1.0 (perfect recall; note pitfall 4) rather than the paper's 0.999, which tolerates an error
    once p > 1000.

    The threshold measured this way depends on the optimiser budget (note C25): CE + Adam is a
    heuristic solver of the zero-margin feasibility problem (eq. (4)), so ``first_violation`` is
    a lower estimate of the exact finite-size threshold (note §3, LP table). For comparison each
    d carries the corrected finite-p estimate α_c(p) (OURS) at ``p_first``, from
    :func:`~.finite_p.finite_p_capacity_mc` with 2000 samples and seed 0 (standard error about
    0.005), and the note's lower step-function estimate (§2.3, superseded).

    Parameters
    ----------
    ds : int or sequence of int
        Embedding dimensions, each >= 2.
    alphas : float or sequence of float
        Grid of loads α > 0 (with the instance size bound of :func:`accuracy_sweep`); it is
        sorted.
    reps, problem, kappa, steps, lr, early_stop, dtype, seed
        As in :func:`accuracy_sweep`.

    Returns
    -------
    ThresholdScan

    Examples
    --------
    Far below capacity no error occurs, and far above, the first load already fails:

    >>> scan = threshold_scan([12], [0.3, 3.0], reps=1)
    >>> scan.last_clean.round(3).tolist(), scan.first_violation.round(3).tolist()
    ([0.308], [3.004])
    """
    dims = _check_dims(ds, "ds")
    checked = [_check_run(d, problem, kappa, steps, lr, seed, d_name="ds") for d in dims]
    _, kind, kappa, steps, lr, seed = checked[0]
    early_stop, dtype = _check_train(early_stop, dtype)
    reps = check_positive_int(reps, "reps", minimum=1, maximum=MAX_STEPS)
    grid = np.sort(_check_grid(alphas))
    for d in dims:
        _grid_p(grid, d, kind)
    train_kw = _train_kw(steps, lr, early_stop, dtype)
    first, clean, index, rep, p_first, runs = [], [], [], [], [], []
    for d in (c[0] for c in checked):
        i, r, n = _first_violation_index(d, grid, reps, kind, kappa, seed, train_kw)
        index.append(i)
        rep.append(r)
        eff = [load(_p_at(float(a), d, "alphas"), d) for a in grid]
        first.append(eff[i] if i < grid.size else math.nan)
        clean.append(eff[i - 1] if i > 0 else math.nan)
        p_first.append(_p_at(float(grid[min(i, grid.size - 1)]), d, "alphas"))
        runs.append(n)
    est = finite_p_capacity_mc(np.array(p_first), samples=_FINITE_P_SAMPLES, rng=0)
    return ThresholdScan(
        d=np.array([c[0] for c in checked]),
        alpha=grid,
        first_violation=np.array(first),
        last_clean=np.array(clean),
        first_index=np.array(index),
        first_rep=np.array(rep),
        p_first=np.array(p_first),
        finite_p=est.alpha_c,
        finite_p_stderr=est.alpha_c_stderr,
        finite_p_step=est.alpha_c_step,
        runs=np.array(runs),
        reps=reps,
        budget=steps,
        lr=lr,
        problem=kind,
        kappa=float(kappa),
    )


def learning_curve(
    d: int = 30,
    alpha: float = 0.9,
    *,
    steps: int = 512,
    problem: str = "original",
    kappa: float = 1.0,
    lr: float = 1e-2,
    early_stop: float | None = 0.999,
    dtype: str = "float32",
    seed: int = 0,
    rep: int = 0,
) -> LearningCurve:
    """Accuracy and loss after every Adam step of one training run (App. A protocol).

    Notes
    -----
    Trains repetition ``rep`` of :func:`accuracy_sweep` at (d, α), so the last point of the
    curve is that sweep's accuracy, and records the histories of :func:`~.training.train`, the
    learning rate η_t of each update (warm-up then cosine decay over the budget, App. A) and the
    Hebbian accuracy (eq. (D.1)) on the same instance. The loss starts near ln p: the initial
    W (std 1/d) gives scores of variance ≈ 1, close to the uniform softmax of W = 0.

    Parameters
    ----------
    d : int, optional
        Embedding dimension, >= 2.
    alpha : float, optional
        Load α > 0 with p(α, d) >= 2.
    steps : int, optional
        Step budget T >= 1 (paper: 512).
    problem, kappa, lr, early_stop, dtype, seed
        As in :func:`accuracy_sweep`.
    rep : int, optional
        Repetition index, >= 0.

    Returns
    -------
    LearningCurve

    Examples
    --------
    Well below capacity the run stops early with every fact stored:

    >>> lc = learning_curve(20, 0.3)
    >>> float(lc.accuracy[-1]), lc.converged, lc.steps < lc.budget
    (1.0, True, True)
    """
    d, kind, kappa, steps, lr, seed = _check_run(d, problem, kappa, steps, lr, seed)
    early_stop, dtype = _check_train(early_stop, dtype)
    alpha, rep = _check_point(alpha, rep)
    p = int(_grid_p(np.array([alpha]), d, kind, "alpha")[0])
    inst, res = _run(d, alpha, p, rep, kind, kappa, seed, **_train_kw(steps, lr, early_stop, dtype))
    return LearningCurve(
        d=d,
        p=p,
        alpha=alpha,
        alpha_eff=load(p, d),
        accuracy=res.accuracy_history,
        loss=res.loss_history,
        learning_rate=np.array([_lr_at(t, steps, lr, _DEFAULT_WARMUP) for t in range(res.steps)]),
        hebbian=accuracy(hebbian_weights(inst), inst) if kappa == 1.0 else None,
        steps=res.steps,
        budget=steps,
        converged=res.converged,
        problem=kind,
        kappa=kappa,
    )
