"""Accuracy against load: the experiment behind Figs. 1 and 2 of the paper.

Paper: Giorlandino, Goldt and Maillard, arXiv:2605.10795, App. A.1-A.2 (protocol) and
Figs. 1, 2, C.1 (read-outs). "note §" refers to ``shared/notes/01-factual-recall.md``.

For every load α on a grid and every repetition, one instance is drawn with p = p(α, d) from
:func:`~assocmem.linear_memory.capacity.p_at_load`, trained by :func:`~.training.train` and,
at full rank, stored with the Hebbian rule on the *same* instance (note §4 algorithm E,
pitfall 18). Seeds are a deterministic function of (seed, d, α, rep), so OP, DP and Hebbian
comparisons are paired and a figure never changes.

Public functions
----------------
accuracy_sweep
    Returns an :class:`AccuracySweep` with per-repetition accuracies, losses and step counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import check_beta, check_fraction, check_positive_int

from .capacity import load, p_at_load
from .problem import _check_kind, accuracy, hebbian_weights, sample_problem
from .training import train

__all__ = ["AccuracySweep", "accuracy_sweep"]


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


def _seeds(seed: int, d: int, alpha: float, rep: int, kappa: float) -> tuple[Any, Any]:
    """Two independent generators (instance, initialisation) keyed on the sweep point."""
    key = [seed, d, round(alpha * 1_000_000), rep, round(kappa * 1_000_000)]
    inst, init = np.random.SeedSequence(key).spawn(2)
    return np.random.default_rng(inst), np.random.default_rng(init)


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
    alphas : sequence of float
        Loads α > 0, each giving p >= 2.
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
    d = check_positive_int(d, "d", minimum=2)
    reps = check_positive_int(reps, "reps", minimum=1)
    seed = check_positive_int(seed, "seed", minimum=0)
    kind = _check_kind(problem)
    kappa = check_fraction(kappa, "kappa", 0.0, 1.0, open_lo=True, open_hi=False)
    grid = np.atleast_1d(np.asarray(alphas, dtype=float))
    if grid.ndim != 1 or grid.size == 0:
        raise ValueError(f"alphas must be a non-empty 1-D sequence of loads, got {alphas!r}")
    for a in grid:
        check_beta(a, "alphas")
    ps = np.array([p_at_load(a, d) for a in grid])
    shape = (grid.size, reps)
    acc, loss, n_steps = np.empty(shape), np.empty(shape), np.empty(shape, dtype=int)
    hebb = np.empty(shape) if kappa == 1.0 else None
    for i, (a, p) in enumerate(zip(grid, ps, strict=True)):
        for r in range(reps):
            inst_rng, init_rng = _seeds(seed, d, float(a), r, float(kappa))
            inst = sample_problem(d, int(p), kind, rng=inst_rng)
            res = train(inst, kappa=kappa, steps=steps, lr=lr, early_stop=early_stop,
                        rng=init_rng, dtype=dtype)
            acc[i, r], loss[i, r], n_steps[i, r] = res.accuracy, res.loss, res.steps
            if hebb is not None:
                hebb[i, r] = accuracy(hebbian_weights(inst), inst)
    return AccuracySweep(
        d=d, alpha=grid, p=ps, alpha_eff=np.array([load(int(p), d) for p in ps]),
        accuracy=acc, hebbian=hebb, loss=loss, steps=n_steps, problem=kind, kappa=float(kappa),
    )
