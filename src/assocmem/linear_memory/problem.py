"""Factual-recall instances for the linear associative memory: sampling, scores, accuracy, LP.

Paper: Giorlandino, Goldt and Maillard, *Factual recall in linear associative memories: sharp
asymptotics and mechanistic insights* (arXiv:2605.10795). Equation numbers refer to the paper;
"note §" refers to the chapter note ``shared/notes/01-factual-recall.md``.

Notation map
------------
======================  ===========================  ============================================
paper                   code                         meaning
======================  ===========================  ============================================
e_μ, E                  ``keys``, (p, d)             input embeddings, i.i.d. N(0, I_d)
u_ρ, U  (OP, eq. 1)     ``values``, (p, d)           shared output embeddings, i.i.d. N(0, I_d)
u_ρ^(μ) (DP, eq. 2)     ``values``, (p, p, d)        ``values[mu, rho]`` = u_ρ^(μ)
p                       ``p`` (>= 2)                 number of associations, f*(μ) = μ
d                       ``d`` (>= 1)                 embedding dimension
W                       ``W``, (d, d)                linear memory, F_W(e) = W e
s_μρ = u_ρ^T W e_μ      ``scores(W, problem)[mu,rho]`` row = input μ, column = candidate ρ
W_Hebb (eq. D.1)        :func:`hebbian_weights`      (1/d) Σ_μ u_μ e_μ^T
======================  ===========================  ============================================

The score matrix puts the input on the row and the candidate output on the column, as in
eq. (1); App. D (eq. D.2) transposes the indices (note, pitfall 8), which we do not copy.

Public functions
----------------
sample_problem (eqs. (1)/(2) instances), hebbian_weights (eq. D.1), scores, accuracy,
normalised_scores (Fig. 4 / D.1 normalisation, note pitfall 12), lp_feasible (exact feasibility of
perfect recall by linear programming, note §4 algorithm I).
Result types: FactualRecallProblem, NormalisedScores, LPFeasibility.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    as_rng,
    check_beta,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy

__all__ = [
    "PROBLEMS",
    "FactualRecallProblem",
    "LPFeasibility",
    "NormalisedScores",
    "accuracy",
    "hebbian_weights",
    "lp_feasible",
    "normalised_scores",
    "sample_problem",
    "scores",
]

#: Names of the two storage problems: eq. (1) ("original") and eq. (2) ("decoupled").
PROBLEMS = ("original", "decoupled")

# Rows of the score matrix evaluated at once by accuracy/normalised_scores: the working set is
# chunk_size * p scores (plus chunk_size * p * d values for DP), so memory stays bounded.
_DEFAULT_CHUNK = 512

# Feasibility threshold on the LP margin t* (note §4 algorithm I: "feasible <=> t* > 1e-7").
_LP_TOL = 1e-7


def _check_kind(problem: Any) -> str:
    return check_option(problem, "problem", PROBLEMS)


def _instance_elements(p: int, d: int, kind: str, scores: bool = False) -> int:
    """Numbers held by one instance (keys and values), plus the p × p scores if ``scores``."""
    values = p * p * d if kind == "decoupled" else p * d
    return p * d + values + (p * p if scores else 0)


def _check_instance_size(p: int, d: int, kind: str, name: str, scores: bool = False) -> None:
    """Refuse an instance (and score matrix) above MAX_ELEMENTS numbers; ``name`` sets p."""
    check_size(
        _instance_elements(p, d, kind, scores),
        name,
        f"array elements (p = {p} facts in d = {d}, {kind} problem"
        + (", with the p × p scores)" if scores else ")"),
        MAX_ELEMENTS,
        "lower the number of facts or the dimension",
    )


@dataclass(frozen=True, eq=False)
class FactualRecallProblem:
    """One random instance of the factual-recall storage problem, eq. (1) or eq. (2).

    Attributes
    ----------
    keys : array, shape (p, d)
        Input embeddings; row μ is e_μ.
    values : array, shape (p, d) for "original", (p, p, d) for "decoupled"
        Output embeddings. "original": row ρ is the shared u_ρ. "decoupled": ``values[mu, rho]``
        is u_ρ^(μ), the μ-th private candidate set (p² d numbers, which the definition of eq. (2)
        requires; nothing larger is ever built).
    kind : {"original", "decoupled"}
        Which problem. The target of input μ is always output μ (f* = identity).

    Notes
    -----
    Constructing one directly validates it: ``kind`` must be a known name, the shapes must match
    and every embedding must be finite (ValueError otherwise). Arrays may be NumPy or CuPy; all
    functions of this module then compute in that namespace. Comparison is by identity
    (``eq=False``: arrays have no single truth value). Arrays made by :func:`sample_problem` are
    read-only.
    """

    keys: Any
    values: Any
    kind: str

    def __post_init__(self) -> None:
        kind = _check_kind(self.kind)
        for name in ("keys", "values"):
            arr = getattr(self, name)
            if not hasattr(arr, "dtype") or not hasattr(arr, "shape"):
                raise TypeError(f"{name} must be an array, got {type(arr).__name__}")
            if arr.dtype.kind not in "iuf":
                raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
        keys, values = self.keys, self.values
        if keys.ndim != 2:
            raise ValueError(f"keys must have shape (p, d), got shape {keys.shape}")
        p, d = keys.shape
        if p < 2 or d < 1:
            raise ValueError(f"keys must have p >= 2 rows and d >= 1 columns, got {keys.shape}")
        want = (p, d) if kind == "original" else (p, p, d)
        if tuple(values.shape) != want:
            raise ValueError(
                f"values of the {kind} problem must have shape {want}, got {values.shape}"
            )
        xp = array_namespace(keys, values)
        for name, arr in (("keys", keys), ("values", values)):
            if not bool(xp.all(xp.isfinite(arr))):
                raise ValueError(f"{name} must be finite, got NaN or inf entries")

    @property
    def p(self) -> int:
        """Number of associations."""
        return int(self.keys.shape[0])

    @property
    def d(self) -> int:
        """Embedding dimension."""
        return int(self.keys.shape[1])

    @property
    def alpha(self) -> float:
        """Load α = p log p / d² (eq. (5), natural log)."""
        return self.p * math.log(self.p) / self.d**2


@dataclass(frozen=True)
class NormalisedScores:
    """Scores in the Fig. 4 normalisation (:func:`normalised_scores`).

    Attributes
    ----------
    target : array, shape (p,)
        s_μμ / σ, the target score of each input.
    non_target : array, shape (p, p - 1) or (n_non_target,)
        Competitor scores s_μρ / σ (ρ ≠ μ): all of them row by row, or a uniform random subsample.
    row_max : array, shape (p,)
        max_{ρ≠μ} s_μρ / σ, the strongest competitor of each input (Fig. A.2).
    scale : float
        σ, the standard deviation (ddof 0) of all p(p − 1) non-target scores of ``W``.
    """

    target: Any
    non_target: Any
    row_max: Any
    scale: float


@dataclass(frozen=True)
class LPFeasibility:
    """Result of :func:`lp_feasible`.

    Attributes
    ----------
    feasible : bool
        Whether some W recalls every fact with a strictly positive margin (t* > tol).
    margin : float
        t*, the optimal margin min_{μ, ρ≠μ} (s_μμ − s_μρ) over the box |W_ij| <= 1, capped at 1.
        NaN if the solver failed.
    weights : ndarray, shape (d, d)
        The maximiser W (NumPy); all zeros if the solver failed.
    status : int
        ``scipy.optimize.linprog`` status (0 = optimal).
    message : str
        The solver's message.
    """

    feasible: bool
    margin: float
    weights: Any
    status: int
    message: str


def sample_problem(d: int, p: int, problem: str = "original", rng: Any = 0) -> FactualRecallProblem:
    """Draw one instance of the original (eq. 1) or decoupled (eq. 2) storage problem.

    Notes
    -----
    All embeddings are i.i.d. N(0, 1) entries, without a 1/√d factor (note §1.2, App. A). The
    keys are drawn first, then the values, so an OP and a DP instance with the same seed share
    their keys. The target of input μ is output μ (f* = identity, "associations are ordered").

    Parameters
    ----------
    d : int
        Embedding dimension, >= 1.
    p : int
        Number of associations, >= 2 (with one candidate there is nothing to recall).
    problem : {"original", "decoupled"}
        "original": one shared output set, ``values`` of shape (p, d).
        "decoupled": an independent output set per input, ``values`` of shape (p, p, d)
        (p² d float64 numbers: 8 MB at d = 20, p = 230; see note pitfall 17).
    rng : int or numpy.random.Generator
        Seed (>= 0) or generator.

    Returns
    -------
    FactualRecallProblem
        ``keys`` (p, d), ``values`` (p, d) or (p, p, d), ``kind``.

    Raises
    ------
    ValueError
        If the instance would hold more than ``MAX_ELEMENTS`` numbers (``_validation``).

    Examples
    --------
    >>> inst = sample_problem(5, 7, "decoupled", rng=0)
    >>> inst.keys.shape, inst.values.shape
    ((7, 5), (7, 7, 5))
    """
    kind = _check_kind(problem)
    d = check_positive_int(d, "d", minimum=1)
    p = check_positive_int(p, "p", minimum=2)
    gen = as_rng(rng)
    _check_instance_size(p, d, kind, "p")
    keys = gen.standard_normal((p, d))
    shape = (p, d) if kind == "original" else (p, p, d)
    values = gen.standard_normal(shape)
    keys.setflags(write=False)
    values.setflags(write=False)
    return FactualRecallProblem(keys=keys, values=values, kind=kind)


def _check_problem(problem: Any) -> FactualRecallProblem:
    if not isinstance(problem, FactualRecallProblem):
        raise TypeError(
            "problem must be a FactualRecallProblem (see sample_problem), "
            f"got {type(problem).__name__}"
        )
    return problem


def _check_weights(W: Any, d: int, xp: Any) -> Any:
    if not hasattr(W, "shape"):
        W = np.asarray(W)
    if getattr(W.dtype, "kind", "O") not in "iuf":
        raise TypeError(f"W must hold real numbers, got dtype {W.dtype}")
    if tuple(W.shape) != (d, d):
        raise ValueError(f"W must have shape ({d}, {d}), got shape {tuple(W.shape)}")
    W = xp.asarray(W)
    if not bool(xp.all(xp.isfinite(W))):
        raise ValueError("W must be finite, got NaN or inf entries")
    return W


def _check_chunk(chunk_size: Any) -> int:
    return check_positive_int(chunk_size, "chunk_size", minimum=1)


def hebbian_weights(problem: FactualRecallProblem) -> Any:
    """Hebbian (outer-product) memory W_Hebb = (1/d) Σ_μ u_μ e_μ^T, eq. (D.1).

    Notes
    -----
    For the original problem u_μ is the shared target output, so W = Uᵀ E / d. For the decoupled
    problem the stored output of input μ is its own target u_μ^(μ) (note §4 algorithm D). The
    1/d factor is that of eq. (D.1); §1 of the paper writes the rule without it, and argmax
    retrieval is scale invariant. With this factor ``scores(W, problem) / d`` are the scores of
    eq. (D.2) (indices transposed, see module docstring), whose mean is δ_μρ (eq. D.3).

    Parameters
    ----------
    problem : FactualRecallProblem
        Instance from :func:`sample_problem`.

    Returns
    -------
    array, shape (d, d)
        In the namespace of the embeddings.

    Examples
    --------
    With one dimension and keys = values = 1, W = p / d:

    >>> import numpy as np
    >>> inst = FactualRecallProblem(np.ones((3, 1)), np.ones((3, 1)), "original")
    >>> float(hebbian_weights(inst)[0, 0])
    3.0
    """
    problem = _check_problem(problem)
    xp = array_namespace(problem.keys, problem.values)
    keys = xp.asarray(problem.keys, dtype=xp.float64)
    targets = _targets(problem, xp)
    return (targets.T @ keys) / problem.d


def _targets(problem: FactualRecallProblem, xp: Any) -> Any:
    """The target outputs u_μ (OP) or u_μ^(μ) (DP) as a (p, d) float64 array."""
    values = xp.asarray(problem.values, dtype=xp.float64)
    if problem.kind == "original":
        return values
    idx = xp.arange(problem.p)
    return values[idx, idx]


def _score_rows(W: Any, keys: Any, values: Any, kind: str, start: int, stop: int, xp: Any) -> Any:
    """Rows start:stop of S[μ, ρ] = u_ρ^(μ)T W e_μ (eqs. (1)/(2)); note §4 algorithm B."""
    V = keys[start:stop] @ W.T  # V[μ] = W e_μ, (b, d)
    if kind == "original":
        return V @ values.T
    return xp.matmul(values[start:stop], V[:, :, None])[:, :, 0]


def scores(W: Any, problem: FactualRecallProblem) -> Any:
    """The full score matrix S[μ, ρ] = u_ρᵀ W e_μ (OP) or u_ρ^(μ)ᵀ W e_μ (DP).

    Notes
    -----
    Row μ holds the scores of input μ against all p candidates; the target is on the diagonal
    (eqs. (1), (2); note §1.1). This builds the whole p × p matrix; :func:`accuracy` and
    :func:`normalised_scores` work in row blocks instead.

    Parameters
    ----------
    W : array, shape (d, d)
        Finite real weights (NumPy or CuPy, matching the problem's arrays).
    problem : FactualRecallProblem

    Returns
    -------
    array, shape (p, p)
        float64, in the namespace of the problem's arrays.

    Examples
    --------
    With W = I and orthonormal keys equal to the values, S = I:

    >>> import numpy as np
    >>> inst = FactualRecallProblem(np.eye(2), np.eye(2), "original")
    >>> scores(np.eye(2), inst).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    problem = _check_problem(problem)
    xp = array_namespace(problem.keys, problem.values)
    W = xp.asarray(_check_weights(W, problem.d, xp), dtype=xp.float64)
    keys = xp.asarray(problem.keys, dtype=xp.float64)
    values = xp.asarray(problem.values, dtype=xp.float64)
    return _score_rows(W, keys, values, problem.kind, 0, problem.p, xp)


def _recalled(W: Any, problem: FactualRecallProblem, chunk_size: int, xp: Any) -> Any:
    """Boolean (p,) array: s_μμ > max_{ρ≠μ} s_μρ, computed chunk_size rows at a time."""
    keys = xp.asarray(problem.keys, dtype=xp.float64)
    values = xp.asarray(problem.values, dtype=xp.float64)
    p = problem.p
    out = []
    for start in range(0, p, chunk_size):
        stop = min(start + chunk_size, p)
        S = _score_rows(W, keys, values, problem.kind, start, stop, xp)
        rows = xp.arange(stop - start)
        cols = xp.arange(start, stop)
        target = S[rows, cols].copy()
        S[rows, cols] = -xp.inf
        out.append(target > xp.max(S, axis=1))
    return xp.concatenate(out)


def accuracy(W: Any, problem: FactualRecallProblem, *, chunk_size: int = _DEFAULT_CHUNK) -> float:
    """Fraction of the p stored facts recalled by argmax retrieval.

    Notes
    -----
    Fact μ counts as recalled when its target score beats every competitor strictly,
    s_μμ > max_{ρ≠μ} s_μρ (eqs. (1)/(2); App. A measures accuracy on the stored pairs themselves,
    note §1.8). Whenever the row maximum is unique (almost surely for Gaussian embeddings and
    W ≠ 0) this equals the note's ``argmax(S, axis=1) == arange(p)``. Ties count as failures, so
    the result does not depend on the order of the facts and W = 0 recalls nothing, whereas
    ``argmax`` would credit the first fact of each tied row. Scores are computed ``chunk_size``
    rows at a time: memory is O(chunk_size · p) for OP and O(chunk_size · p · d) for DP.

    Parameters
    ----------
    W : array, shape (d, d)
        Finite real weights.
    problem : FactualRecallProblem
    chunk_size : int, optional
        Rows of the score matrix per block, >= 1. The result does not depend on it.

    Returns
    -------
    float
        In [0, 1], a multiple of 1/p.

    Examples
    --------
    The Hebbian memory of two orthonormal facts recalls both:

    >>> import numpy as np
    >>> inst = FactualRecallProblem(np.eye(2), np.eye(2), "original")
    >>> accuracy(hebbian_weights(inst), inst)
    1.0
    """
    problem = _check_problem(problem)
    chunk_size = _check_chunk(chunk_size)
    xp = array_namespace(problem.keys, problem.values)
    W = xp.asarray(_check_weights(W, problem.d, xp), dtype=xp.float64)
    ok = _recalled(W, problem, chunk_size, xp)
    return float(to_numpy(xp.sum(ok))) / problem.p


def normalised_scores(
    W: Any,
    problem: FactualRecallProblem,
    *,
    n_non_target: int | None = None,
    rng: Any = 0,
    chunk_size: int = _DEFAULT_CHUNK,
) -> NormalisedScores:
    """Target and non-target scores divided by the pooled non-target standard deviation (Fig. 4).

    Notes
    -----
    Fig. 4 (and Fig. D.1) normalise W so that the non-target scores s_μρ, ρ ≠ μ, have unit
    variance and rescale the targets by the same factor. Following note pitfall 12, σ is the
    standard deviation (ddof 0) of all p(p − 1) non-target scores of this W, pooled over every
    row; no row is normalised separately and no mean is subtracted. σ is accumulated over row
    blocks (Chan's pairwise update), so only ``chunk_size`` rows of S exist at a time unless all
    non-target scores are requested.

    Parameters
    ----------
    W : array, shape (d, d)
        Finite real weights, not identically zero on the non-target scores (σ > 0).
    problem : FactualRecallProblem
    n_non_target : int or None, optional
        None returns all non-target scores as a (p, p − 1) array (memory p² floats). An integer
        n >= 1 returns n of them drawn uniformly with replacement, as Fig. D.1 draws N = 2000.
    rng : int or numpy.random.Generator, optional
        Used only for the subsample (checked in every call).
    chunk_size : int, optional
        Rows per block, >= 1; the result does not depend on it.

    Returns
    -------
    NormalisedScores
        ``target`` (p,), ``non_target`` (p, p − 1) or (n,), ``row_max`` (p,), ``scale`` σ.

    Examples
    --------
    >>> inst = sample_problem(20, 50, rng=0)
    >>> ns = normalised_scores(hebbian_weights(inst), inst)
    >>> round(float(ns.non_target.std()), 12)
    1.0
    """
    problem = _check_problem(problem)
    chunk_size = _check_chunk(chunk_size)
    gen = as_rng(rng)
    n = None
    if n_non_target is not None:
        n = check_positive_int(n_non_target, "n_non_target", minimum=1, maximum=MAX_ELEMENTS)
    xp = array_namespace(problem.keys, problem.values)
    W = xp.asarray(_check_weights(W, problem.d, xp), dtype=xp.float64)
    # s/σ does not depend on the scale of W: divide W by a power of two near its largest entry
    # (exact in floating point) so that squared scores cannot overflow, and restore σ at the end.
    w_max = float(to_numpy(xp.max(xp.abs(W))))
    if w_max == 0.0:
        raise ValueError("W gives constant non-target scores (std 0); they cannot be normalised")
    unit = math.ldexp(1.0, math.frexp(w_max)[1])
    W = W / unit
    p = problem.p
    idx_r = idx_c = None
    if n is not None:
        flat = gen.integers(0, p * (p - 1), size=n)
        idx_r, idx_c = flat // (p - 1), flat % (p - 1)  # row μ, position among its p − 1 others
    keys = xp.asarray(problem.keys, dtype=xp.float64)
    values = xp.asarray(problem.values, dtype=xp.float64)
    targets, row_max, kept = [], [], []
    count, mean, m2 = 0, 0.0, 0.0
    for start in range(0, p, chunk_size):
        stop = min(start + chunk_size, p)
        b = stop - start
        S = _score_rows(W, keys, values, problem.kind, start, stop, xp)
        targets.append(S[xp.arange(b), xp.arange(start, stop)])
        others = S[~xp.eye(b, p, k=start, dtype=bool)].reshape(b, p - 1)  # order kept
        row_max.append(xp.max(others, axis=1))
        # Chan's pairwise update of the pooled mean and sum of squared deviations.
        n_b = b * (p - 1)
        mean_b = float(to_numpy(xp.mean(others)))
        m2_b = float(to_numpy(xp.sum((others - mean_b) ** 2)))
        delta, total = mean_b - mean, count + n_b
        mean += delta * n_b / total
        m2 += m2_b + delta * delta * count * n_b / total
        count = total
        if idx_r is None:
            kept.append(others)
        else:
            sel = np.nonzero((idx_r >= start) & (idx_r < stop))[0]
            if sel.size:
                picked = others[xp.asarray(idx_r[sel] - start), xp.asarray(idx_c[sel])]
                kept.append((sel, picked))
    scale = math.sqrt(m2 / count)
    if not scale > 0:
        raise ValueError("W gives constant non-target scores (std 0); they cannot be normalised")
    target_all = xp.concatenate(targets) / scale
    row_max_all = xp.concatenate(row_max) / scale
    if idx_r is None:
        non_target = xp.concatenate(kept, axis=0) / scale
    else:
        non_target = xp.empty(len(idx_r), dtype=xp.float64)
        for sel, picked in kept:
            non_target[xp.asarray(sel)] = picked / scale
    return NormalisedScores(
        target=target_all,
        non_target=non_target,
        row_max=row_max_all,
        scale=scale * unit,
    )


def lp_feasible(problem: FactualRecallProblem, *, tol: float = _LP_TOL) -> LPFeasibility:
    """Exact feasibility of perfect recall, by a max-margin linear program (note §4, algorithm I).

    Notes
    -----
    The solution set of eq. (1)/(2) is the cone of W with (u_μ − u_ρ)ᵀ W e_μ >= 0 for all
    ρ ≠ μ (u_ρ^(μ) for DP; note §1.2). Since the cone is scale invariant we solve

        maximise t  over vec(W) ∈ [−1, 1]^{d²}, t <= 1
        subject to  vec((u_μ − u_ρ) e_μᵀ) · vec(W) >= t   for all μ, ρ ≠ μ,

    and call the instance feasible iff t* > ``tol`` (some W recalls every fact strictly). This is
    [OURS] (note §3, measured LP table), not an algorithm of the paper. The constraint matrix is
    dense, p(p − 1) × d², solved by HiGHS through ``scipy.optimize.linprog(method="highs")`` on
    the CPU (CuPy inputs are copied to the host). Practical for d <= 15 (0.3–3 s per instance).

    Parameters
    ----------
    problem : FactualRecallProblem
    tol : float, optional
        Margin threshold, finite and > 0; default 1e-7.

    Returns
    -------
    LPFeasibility
        ``feasible``, ``margin`` t*, ``weights`` (d, d), ``status``, ``message``.

    Raises
    ------
    ValueError
        If the constraint matrix would hold more than ``MAX_ELEMENTS`` entries (``_validation``).

    Examples
    --------
    In d = 1 a scalar W can favour only the largest and smallest output, so three facts fail:

    >>> import numpy as np
    >>> inst = FactualRecallProblem(np.ones((3, 1)), np.array([[1.0], [2.0], [3.0]]), "original")
    >>> lp_feasible(inst).feasible
    False
    """
    from scipy.optimize import linprog

    problem = _check_problem(problem)
    tol = check_beta(tol, "tol")
    p, d = problem.p, problem.d
    check_size(
        _lp_elements(p, d),
        "problem",
        f"LP constraint entries (p = {p} facts in d = {d})",
        MAX_ELEMENTS,
        "use a smaller instance",
    )
    keys = np.asarray(to_numpy(problem.keys), dtype=np.float64)
    values = np.asarray(to_numpy(problem.values), dtype=np.float64)
    mu, rho = np.nonzero(~np.eye(p, dtype=bool))  # all ordered pairs ρ ≠ μ, row-major
    if problem.kind == "original":
        diff = values[mu] - values[rho]
    else:
        diff = values[mu, mu] - values[mu, rho]
    # Row (μ, ρ): vec((u_μ − u_ρ) e_μ^T), so that row · vec(W) = (u_μ − u_ρ)^T W e_μ.
    A = (diff[:, :, None] * keys[mu][:, None, :]).reshape(len(mu), d * d)
    # linprog form: minimise −t subject to −A vec(W) + t <= 0.
    A_ub = np.hstack([-A, np.ones((len(mu), 1))])
    b_ub = np.zeros(len(mu))
    c = np.zeros(d * d + 1)
    c[-1] = -1.0
    bounds = [(-1.0, 1.0)] * (d * d) + [(None, 1.0)]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
    if res.status != 0 or res.x is None:
        return LPFeasibility(False, math.nan, np.zeros((d, d)), int(res.status), str(res.message))
    margin = float(res.x[-1])
    weights = res.x[:-1].reshape(d, d)
    return LPFeasibility(margin > tol, margin, weights, int(res.status), str(res.message))


def _lp_elements(p: int, d: int) -> int:
    """Entries of the dense LP constraint matrix of :func:`lp_feasible`, p(p − 1) × (d² + 1)."""
    return p * (p - 1) * (d * d + 1)
