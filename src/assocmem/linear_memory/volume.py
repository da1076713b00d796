"""First moment of the solution volume: the original against the decoupled problem.

Paper: A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories:
sharp asymptotics and mechanistic insights*, arXiv:2605.10795, §5.1 (the scaling argument) and
App. B (why the original problem resists the same computation). "note §" refers to the chapter
note ``shared/notes/01-factual-recall.md`` (§1.3 Monte-Carlo table, checks C5 and C6).

The volume of eq. (4) under the Gaussian prior P_d is the probability that a random W solves a
fixed instance, so its expectation over instances is the probability that a random W solves a
*fresh random* instance:

    E V = P_{W, E, U}[ for all μ: argmax_ρ u_ρ^(μ)ᵀ W e_μ = μ ]      (eq. (B.2) for OP).

For the decoupled problem (eq. (2)) the p rows are independent and each holds with probability
exactly 1/p by permutation symmetry, so E V_DP = p^(-p) = e^(-p ln p) (§5.1). For the original
problem (eq. (1)) the rows share the outputs U; conditionally on (W, U) the row scores are
N(0, Σ^U) with Σ^U = U W Wᵀ Uᵀ, and each row is an orthant probability with no closed form
(eq. (B.3)). [note, OURS] Those p row probabilities sum to 1, so by the inequality of arithmetic
and geometric means their product is at most p^(-p): E V_OP <= p^(-p) at every (d, p).

Notation map
------------
- W (d × d, i.i.d. N(0, 1); the prior's scale is irrelevant, the event is scale invariant) -> W
- e_μ, u_ρ, u_ρ^(μ) (i.i.d. N(0, I_d))                       -> keys, values, as in ``problem``
- s_μρ = u_ρ^(μ)ᵀ W e_μ, row = input, column = candidate     -> S[mu, rho]
- E V_OP, E V_DP                                             -> ``FirstMoment.estimate``

Public functions
----------------
first_moment_mc
    Monte-Carlo estimate of E V for one problem, with its standard error.
first_moment_pair
    The same for both problems at one (d, p) (the exploration of section fr-op-vs-dp).
Result types: FirstMoment, FirstMomentPair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    as_rng,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy

from .problem import _check_kind

__all__ = ["SAMPLERS", "FirstMoment", "FirstMomentPair", "first_moment_mc", "first_moment_pair"]

#: The two samplers of :func:`first_moment_mc`: W and the embeddings themselves, or the exact law
#: of the p × p score matrix.
SAMPLERS = ("direct", "gram")

# Random numbers per batch (float32): about 16 MB of working memory per batch.
_BATCH_NUMBERS = 4_000_000


@dataclass(frozen=True)
class FirstMoment:
    """Monte-Carlo estimate of the first moment E V of the solution volume (eq. (4), (B.2)).

    Attributes
    ----------
    d, p : int
        Dimension and number of associations.
    problem : {"original", "decoupled"}
        Eq. (1) or eq. (2).
    draws : int
        Number of independent (W, instance) pairs.
    successes : int
        How many of them were solved (every row's target strictly beats its competitors).
    sampler : {"direct", "gram"}
        How the pairs were drawn (see :func:`first_moment_mc`).
    """

    d: int
    p: int
    problem: str
    draws: int
    successes: int
    sampler: str

    @property
    def estimate(self) -> float:
        """Fraction of solved pairs, the unbiased estimate of E V."""
        return self.successes / self.draws

    @property
    def stderr(self) -> float:
        """Binomial standard error √(v̂ (1 − v̂) / draws) of the estimate v̂."""
        v = self.estimate
        return math.sqrt(v * (1.0 - v) / self.draws)

    @property
    def decoupled_value(self) -> float:
        """p^(-p) = e^(-p ln p), the exact E V_DP (§5.1 of the paper)."""
        return float(self.p) ** (-self.p)

    @property
    def ratio(self) -> float:
        """Estimate divided by p^(-p) (1 for the decoupled problem)."""
        return self.estimate / self.decoupled_value

    @property
    def z_score(self) -> float:
        """(estimate − p^(-p)) in units of the binomial standard error at p^(-p).

        The standard error under the hypothesis E V = p^(-p), √(q (1 − q) / draws) with
        q = p^(-p), stays positive even when no pair was solved.
        """
        q = self.decoupled_value
        return (self.estimate - q) / math.sqrt(q * (1.0 - q) / self.draws)


@dataclass(frozen=True)
class FirstMomentPair:
    """First moments of both problems at one (d, p), from :func:`first_moment_pair`.

    Attributes
    ----------
    original, decoupled : FirstMoment
        E V_OP and E V_DP estimated with independent random numbers.
    """

    original: FirstMoment
    decoupled: FirstMoment

    @property
    def d(self) -> int:
        """Dimension."""
        return self.original.d

    @property
    def p(self) -> int:
        """Number of associations."""
        return self.original.p


def _check_sampler(sampler: Any) -> str:
    return check_option(sampler, "sampler", SAMPLERS)


def _check_draws(draws: Any) -> int:
    return check_positive_int(draws, "draws", minimum=1, maximum=MAX_STEPS)


def _per_draw(d: int, p: int, kind: str, sampler: str) -> int:
    """Random numbers (and scores) drawn per (W, instance) pair by each sampler."""
    if sampler == "direct":
        return d * d + p * d + (p * d if kind == "original" else p * p * d) + p * p
    return 2 * p * min(p, d) + min(p, d) ** 2 + p * p


def _check_pair_size(d: int, p: int, kind: str, sampler: str) -> None:
    check_size(
        _per_draw(d, p, kind, sampler),
        "p",
        f"random numbers per draw (d = {d}, {kind} problem, {sampler} sampler)",
        MAX_ELEMENTS,
        "lower p or d",
    )


def _solved(S: Any, xp: Any) -> Any:
    """Boolean (b,): in each (p, p) score matrix every row μ has its maximum on ρ = μ.

    Ties have probability zero for Gaussian scores; argmax resolves them to the first index.
    """
    p = S.shape[-1]
    return xp.all(xp.argmax(S, axis=2) == xp.arange(p), axis=1)


def _direct_scores(gen: np.random.Generator, b: int, d: int, p: int, kind: str) -> Any:
    """Scores of b fresh (W, instance) pairs: W, keys and values drawn i.i.d. N(0, 1).

    V[μ] = W e_μ; OP: S = V Uᵀ (eq. (1)); DP: S[μ, ρ] = u_ρ^(μ) · V[μ] (eq. (2)).
    """
    f32 = np.float32
    W = gen.standard_normal((b, d, d), dtype=f32)
    keys = gen.standard_normal((b, p, d), dtype=f32)
    V = np.matmul(keys, W.transpose(0, 2, 1))
    if kind == "original":
        values = gen.standard_normal((b, p, d), dtype=f32)
        return np.matmul(V, values.transpose(0, 2, 1))
    values = gen.standard_normal((b, p, p, d), dtype=f32)
    return np.matmul(values, V[:, :, :, None])[:, :, :, 0]


def _bartlett(gen: np.random.Generator, b: int, p: int, d: int) -> np.ndarray:
    """b lower-trapezoidal (p, k) factors L, k = min(p, d), with X =d L Q for X (p × d) Gaussian.

    Bartlett decomposition: L_ii = χ_{d−i} (i < k, 0-based), L_ij ~ N(0, 1) for j < i, and Q has
    orthonormal rows, independent of L. Then X Xᵀ = L Lᵀ.
    """
    k = min(p, d)
    L = np.tril(gen.standard_normal((b, p, k), dtype=np.float32), -1)
    diag = np.arange(k)
    L[:, diag, diag] = np.sqrt(gen.chisquare(d - diag, size=(b, k)))
    return L


def _gram_scores(gen: np.random.Generator, b: int, d: int, p: int, kind: str) -> Any:
    """Scores with the exact law of ``_direct_scores``, drawn in O(p²) numbers per pair.

    OP: with E = L_E Q_E and U = L_U Q_U (Bartlett), S = E Wᵀ Uᵀ = L_E (Q_E Wᵀ Q_Uᵀ) L_Uᵀ, and
    Q_E Wᵀ Q_Uᵀ is a k × k matrix of i.i.d. N(0, 1) entries (W is rotation invariant and
    independent of the embeddings). DP: row μ is ‖W e_μ‖ times p i.i.d. N(0, 1) candidates,
    independent across rows; the positive row scale does not change the argmax, so the rows are
    drawn as i.i.d. N(0, 1). This is the permutation argument of §5.1 written as a sampler.
    """
    if kind == "decoupled":
        return gen.standard_normal((b, p, p), dtype=np.float32)
    k = min(p, d)
    L_E = _bartlett(gen, b, p, d)
    Z = gen.standard_normal((b, k, k), dtype=np.float32)
    L_U = _bartlett(gen, b, p, d)
    return np.einsum("bij,bjk,blk->bil", L_E, Z, L_U, optimize=True)


def _count(gen: np.random.Generator, d: int, p: int, kind: str, draws: int, sampler: str) -> int:
    """Number of solved pairs among ``draws``, in batches of about _BATCH_NUMBERS numbers."""
    per_draw = _per_draw(d, p, kind, sampler)
    draw_scores = _direct_scores if sampler == "direct" else _gram_scores
    batch = max(1, _BATCH_NUMBERS // per_draw)
    successes = 0
    for start in range(0, draws, batch):
        S = draw_scores(gen, min(batch, draws - start), d, p, kind)
        xp = array_namespace(S)
        successes += int(to_numpy(xp.sum(_solved(S, xp))))
    return successes


def first_moment_mc(
    d: int,
    p: int,
    problem: str = "decoupled",
    draws: int = 200_000,
    rng: Any = 0,
    *,
    sampler: str = "direct",
) -> FirstMoment:
    """Monte-Carlo estimate of E V: how often a random W solves a fresh random instance.

    Notes
    -----
    Each draw is an independent triple (W, E, U) and counts as a success when every row of the
    score matrix s_μρ = u_ρ^(μ)ᵀ W e_μ has its maximum, strictly, on the target ρ = μ (eq. (1)
    or (2)). The fraction of successes is an unbiased estimate of E V (eq. (B.2); the volume of
    eq. (4) with W Gaussian, whose scale does not matter since the solution set is a cone).
    For the decoupled problem E V_DP = p^(-p) exactly (§5.1; note C5). For the original problem
    the first moment is an orthant probability (eq. (B.3)); it lies below p^(-p) (note §1.3 and
    C6; the bound E V_OP <= p^(-p) is ours, see the module docstring).

    Samplers:

    - ``"direct"``: W (d × d), the keys (p × d) and the values ((p, d) or (p, p, d)) are drawn
      i.i.d. N(0, 1), float32, and the scores computed as in ``problem.scores``. Cost
      ≈ d² + 2pd (OP) or d² + pd + p²d (DP) random numbers per draw.
    - ``"gram"`` [OURS, exact]: the p × p score matrix is drawn from its exact law,
      S = L_E Z L_Uᵀ with Bartlett factors L of the Gram matrices and Z a min(p, d)-square
      Gaussian matrix (OP), or i.i.d. rows (DP), O(p²) numbers per draw whatever d is.

    Draws are made in batches on the CPU (the cost is in the random numbers, which the NumPy
    generator draws); the estimate depends only on (d, p, problem, draws, rng, sampler).

    Parameters
    ----------
    d : int
        Embedding dimension, >= 1.
    p : int
        Number of associations, >= 2.
    problem : {"original", "decoupled"}, optional
        Eq. (1) or eq. (2).
    draws : int, optional
        Number of independent (W, instance) pairs, 1 <= draws <= ``MAX_STEPS``
        (``_validation``); one pair at most ``MAX_ELEMENTS`` random numbers. The standard
        error is about √(p^(-p) / draws): 4e-4 for p = 3 and 1.4e-4 for p = 4 at 2e5 draws
        (note §1.3).
    rng : int or numpy.random.Generator, optional
        Seed (>= 0) or generator.
    sampler : {"direct", "gram"}, optional
        See the notes.

    Returns
    -------
    FirstMoment
        ``estimate``, ``stderr``, ``decoupled_value`` = p^(-p), ``ratio``, ``z_score``.

    Examples
    --------
    With p = 2 a random W solves a decoupled instance with probability 1/4 (one half per row):

    >>> fm = first_moment_mc(3, 2, "decoupled", draws=40_000, rng=0)
    >>> fm.decoupled_value, abs(fm.z_score) < 4
    (0.25, True)
    """
    d = check_positive_int(d, "d", minimum=1)
    p = check_positive_int(p, "p", minimum=2)
    kind = _check_kind(problem)
    draws = _check_draws(draws)
    sampler = _check_sampler(sampler)
    gen = as_rng(rng)
    _check_pair_size(d, p, kind, sampler)
    successes = _count(gen, d, p, kind, draws, sampler)
    return FirstMoment(d=d, p=p, problem=kind, draws=draws, successes=successes, sampler=sampler)


def first_moment_pair(
    d: int, p: int, *, draws: int = 100_000, seed: int = 0, sampler: str = "gram"
) -> FirstMomentPair:
    """E V_OP and E V_DP at one (d, p), with independent random numbers (App. B, §5.1).

    Notes
    -----
    Calls :func:`first_moment_mc` for both problems, with generators spawned from
    ``numpy.random.SeedSequence([seed, d, p])``, so every (d, p) gets its own stream and the
    result depends only on the arguments. The default ``"gram"`` sampler costs O(p²) random
    numbers per draw, independent of d, which keeps an exploration over d fast.

    Parameters
    ----------
    d : int
        Embedding dimension, >= 1.
    p : int
        Number of associations, >= 2.
    draws : int, optional
        Draws per problem, 1 <= draws <= ``MAX_STEPS``.
    seed : int, optional
        Base seed, >= 0.
    sampler : {"direct", "gram"}, optional
        See :func:`first_moment_mc`.

    Returns
    -------
    FirstMomentPair

    Examples
    --------
    >>> pair = first_moment_pair(5, 3, draws=50_000)
    >>> bool(pair.original.estimate < pair.decoupled.decoupled_value)  # App. B: OP is harder
    True
    """
    d = check_positive_int(d, "d", minimum=1)
    p = check_positive_int(p, "p", minimum=2)
    draws = _check_draws(draws)
    seed = check_positive_int(seed, "seed", minimum=0)
    sampler = _check_sampler(sampler)
    for kind in ("original", "decoupled"):
        _check_pair_size(d, p, kind, sampler)
    op_seq, dp_seq = np.random.SeedSequence([seed, d, p]).spawn(2)
    return FirstMomentPair(
        original=first_moment_mc(
            d, p, "original", draws, np.random.default_rng(op_seq), sampler=sampler
        ),
        decoupled=first_moment_mc(
            d, p, "decoupled", draws, np.random.default_rng(dp_seq), sampler=sampler
        ),
    )
