"""Cross-entropy training of the linear memory W and of the two-layer memory W = Q Rᵀ (App. A).

Paper: A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories:
sharp asymptotics and mechanistic insights*, arXiv:2605.10795, App. A (eqs. (A.1), (A.2)).
"note §" refers to the chapter note ``shared/notes/01-factual-recall.md`` (§1.8 protocol,
§4 algorithm C pseudo-code, pitfalls 4, 6, 17).

Notation map
------------
=========================  ==========================  =========================================
paper                      code                        meaning
=========================  ==========================  =========================================
s_μρ = u_ρᵀ W e_μ          ``S[mu, rho]``               scores, row = input μ, column = candidate ρ
L_p (eqs. A.1 / A.2)       :func:`loss_and_grad`        softmax cross-entropy, mean over the p facts
P_μρ                       ``P``                        softmax of row μ of S over the p candidates
Q, R (d × m), m = κ d      ``Q``, ``R``                 two-layer memory W = Q Rᵀ (hidden width m)
κ                          ``kappa`` in (0, 1]          rank fraction, m = max(1, round(κ d))
η = 1e-2                   ``lr``                       peak Adam learning rate
=========================  ==========================  =========================================

The paper's Q (a layer) is unrelated to the replica overlap q of ``capacity``.

Protocol (App. A, note §1.8): full batch, Adam (β₁ = 0.9, β₂ = 0.999, ε = 1e-8, bias-corrected),
peak learning rate 1e-2, at most 512 steps, linear warm-up then cosine decay to 0, early stop as
soon as the training accuracy reaches 99.9 %. κ = 1 trains W directly with i.i.d. N(0, 1/d²)
entries at initialisation; κ < 1 trains Q and R, both i.i.d. N(0, 1/d²) ("same scale", the
literal reading of App. A, note pitfall 6). The warm-up length is not given by the paper; we use
25 steps as in the note's [OURS] runs. No temperature or margin enters the loss (note §1.7).

Public functions
----------------
train, loss_and_grad, loss_and_grad_factors, learning_rate.
Result type: TrainResult.
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
    check_beta,
    check_fraction,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.linear_memory.problem import (
    FactualRecallProblem,
    _check_problem,
    _check_weights,
)

__all__ = [
    "TrainResult",
    "learning_rate",
    "loss_and_grad",
    "loss_and_grad_factors",
    "train",
]

# Adam constants (PyTorch/Optax defaults; App. A does not state them, note §1.8).
_BETA1, _BETA2, _EPS = 0.9, 0.999, 1e-8
# Warm-up length in steps (not given by the paper; note §4 algorithm C uses 25).
_DEFAULT_WARMUP = 25
_DTYPES = ("float64", "float32")
# Host reads of the accuracy and loss per step on a non-NumPy namespace (a GPU) when
# ``check_every`` is None: one read per 16 steps lets the device run ahead of the host instead
# of waiting for it twice per step; NumPy reads every step (no synchronisation to save).
_DEVICE_CHECK_EVERY = 16


@dataclass(frozen=True, eq=False)
class TrainResult:
    """Result of :func:`train`.

    Attributes
    ----------
    weights : array, shape (d, d)
        The trained memory W (W = Q Rᵀ when κ < 1), in the namespace of the problem.
    Q, R : array, shape (d, m), or None
        The two factors when κ < 1; None for direct training of W (κ = 1).
    accuracy_history : ndarray, shape (steps + 1,)
        Training accuracy before each Adam step and after the last one; entry 0 is the
        initialisation, the last entry is the accuracy of ``weights``.
    loss_history : ndarray, shape (steps + 1,)
        Cross-entropy (eq. (A.1) or (A.2)) at the same points.
    steps : int
        Number of Adam updates made (<= the ``steps`` budget of :func:`train`). With
        ``check_every`` = k > 1 an early stop comes ``steps − stop_step`` <= k − 1 updates
        after the threshold was reached.
    converged : bool
        Whether the final accuracy (that of ``weights``) reached ``early_stop`` (1.0 when early
        stopping was off).
    kappa : float
        The rank fraction used.
    m : int
        Hidden width (rank bound) of W; m = d for κ = 1.
    stop_step : int or None
        First step t (0 = the initialisation, t = number of Adam updates made before it) whose
        training accuracy reached ``early_stop``; None when it never did or early stopping was
        off. With ``check_every=1`` it equals ``steps`` whenever it is not None.
    """

    weights: Any
    Q: Any
    R: Any
    accuracy_history: Any
    loss_history: Any
    steps: int
    converged: bool
    kappa: float
    m: int
    stop_step: int | None = None

    @property
    def accuracy(self) -> float:
        """Final training accuracy, ``accuracy_history[-1]``."""
        return float(self.accuracy_history[-1])

    @property
    def loss(self) -> float:
        """Final cross-entropy, ``loss_history[-1]``."""
        return float(self.loss_history[-1])


def learning_rate(
    t: int, *, steps: int = 512, lr: float = 1e-2, warmup: int = _DEFAULT_WARMUP
) -> float:
    """Learning rate of Adam step t (0-based): linear warm-up, then cosine decay (App. A).

    Notes
    -----
    η_t = η (t + 1) / T_w for t < T_w, else η · ½ (1 + cos(π (t − T_w) / (T − T_w))), with
    T = ``steps`` and T_w = ``warmup`` (note §4 algorithm C). The decay ends just above 0 at
    t = T − 1; the paper gives neither T_w nor the end value (note §1.8).

    Parameters
    ----------
    t : int
        Step index, 0 <= t < steps.
    steps : int, optional
        Budget T, 1 <= T <= ``MAX_STEPS`` (``_validation``).
    lr : float, optional
        Peak learning rate η, finite and > 0.
    warmup : int, optional
        T_w >= 0; the schedule is pure warm-up when T_w >= T.

    Returns
    -------
    float

    Examples
    --------
    >>> learning_rate(0, steps=512, lr=1e-2, warmup=25) == 1e-2 / 25
    True
    >>> learning_rate(25, steps=512, lr=1e-2, warmup=25)
    0.01
    """
    steps = _check_steps(steps)
    t = check_positive_int(t, "t", minimum=0, maximum=steps - 1)
    lr = check_beta(lr, "lr")
    warmup = check_positive_int(warmup, "warmup", minimum=0)
    return _lr_at(t, steps, lr, warmup)


def _check_steps(steps: Any, minimum: int = 1) -> int:
    """A step budget: an integer in [minimum, MAX_STEPS] (``_validation``)."""
    return check_positive_int(steps, "steps", minimum=minimum, maximum=MAX_STEPS)


def _check_early_stop(early_stop: Any) -> float | None:
    """None, or an accuracy threshold in (0, 1]."""
    if early_stop is None:
        return None
    return check_fraction(early_stop, "early_stop", 0.0, 1.0, open_hi=False)


def _check_dtype(dtype: Any) -> str:
    return check_option(dtype, "dtype", _DTYPES)


def _check_every(check_every: Any) -> int | None:
    """None, or the number k >= 1 of steps between host reads of the histories."""
    if check_every is None:
        return None
    return check_positive_int(check_every, "check_every", maximum=MAX_STEPS)


def _lr_at(t: int, steps: int, lr: float, warmup: int) -> float:
    """Warm-up + cosine schedule (App. A; note §4 algorithm C)."""
    if t < warmup:
        return lr * (t + 1) / warmup
    return lr * 0.5 * (1.0 + math.cos(math.pi * (t - warmup) / (steps - warmup)))


def _ce_rows(S: Any, cols: Any, p: int, xp: Any) -> tuple[Any, Any]:
    """Log-sum-exp of each row of S and G = dL/dS = (P − I)/p for rows whose targets are ``cols``.

    S has shape (n, p); row i is input μ = ``cols[i]``, whose target is column ``cols[i]``.
    """
    row_max = xp.max(S, axis=1, keepdims=True)
    # Floor the exponent so that every entry of G = softmax / p stays a normal float: in float32,
    # exp(-88) is subnormal and subnormal operands slow the gradient GEMM on x86 by 3-20x once
    # most rows are stored. The floor, log(tiny) + 2 log p + 1, changes G by < tiny * e relative.
    floor = math.log(float(xp.finfo(S.dtype).tiny)) + 2.0 * math.log(p) + 1.0
    G = xp.exp(xp.maximum(S - row_max, floor))
    norm = xp.sum(G, axis=1, keepdims=True)
    lse = row_max[:, 0] + xp.log(norm[:, 0])
    G /= norm
    G[xp.arange(S.shape[0]), cols] -= 1.0
    G /= p
    return lse, G


def _loss_and_recalled(S: Any, lse: Any, xp: Any) -> tuple[Any, Any]:
    """Mean cross-entropy of eqs. (A.1)/(A.2) from the row log-sum-exps, and the recalled mask.

    The mask is True where the target beats every competitor strictly (the convention of
    ``accuracy``). S (p, p) is overwritten on its diagonal.
    """
    idx = xp.arange(S.shape[0])
    target = S[idx, idx].copy()
    loss = xp.mean(lse - target)
    # Strict recall: the target is the row maximum and no other entry ties with it.
    S[idx, idx] = -xp.inf
    return loss, target > xp.max(S, axis=1)


# DP rows per block are chosen so that one block of values (rows × p × d numbers) takes about
# _DP_BLOCK_BYTES: it stays in the L2 cache between the score and the gradient products, so the
# (p, p, d) values are read from memory once per step instead of twice. Below _DP_BLOCK_MIN_BYTES
# the values stay in the last-level cache and one block (two passes, fewer Python calls) is faster
# (benchmarks/bench_linear_memory.py: blocking wins at d = 60, loses at d = 40).
_DP_BLOCK_BYTES = 1 << 20
_DP_BLOCK_MIN_BYTES = 64 << 20


def _dp_block_rows(p: int, d: int, itemsize: int, xp: Any) -> int:
    """Rows μ per block of the DP step; p (one block) on GPUs and for small values."""
    if xp is not np or p * p * d * itemsize < _DP_BLOCK_MIN_BYTES:
        return p
    return max(1, min(p, _DP_BLOCK_BYTES // (p * d * itemsize)))


def _loss_grad(W: Any, keys: Any, values: Any, kind: str, xp: Any) -> tuple[Any, Any, Any]:
    """Loss, dL/dW and the recalled mask (note §4 algorithm C), in the dtype of the arrays.

    OP: S = (E Wᵀ) Uᵀ and dL/dW = (G U)ᵀ E, GEMMs. DP: with y = E Wᵀ (row μ is W e_μ), row μ of
    the scores is S[μ] = U^(μ) y_μ and dL/dW = Zᵀ E with Z[μ] = Σ_ρ G_μρ u_ρ^(μ) = G[μ] U^(μ):
    two batched matrix-vector products over the values. They are done block by block over the
    inputs μ (the softmax of row μ needs only U^(μ)), so each block of values is reused from cache
    for the gradient; no temporary larger than (p, p) is built.
    """
    p = keys.shape[0]
    y = keys @ W.T
    if kind == "original":
        S = y @ values.T
        lse, G = _ce_rows(S, xp.arange(p), p, xp)
        loss, recalled = _loss_and_recalled(S, lse, xp)
        return loss, (G @ values).T @ keys, recalled
    d = keys.shape[1]
    rows = _dp_block_rows(p, d, values.dtype.itemsize, xp)
    S = xp.empty((p, p), dtype=y.dtype)
    Z = xp.empty_like(y)
    lse = xp.empty((p,), dtype=y.dtype)
    for start in range(0, p, rows):
        stop = min(p, start + rows)
        block = values[start:stop]
        S_blk = xp.matmul(block, y[start:stop, :, None])[:, :, 0]
        S[start:stop] = S_blk
        lse[start:stop], G_blk = _ce_rows(S_blk, xp.arange(start, stop), p, xp)
        Z[start:stop] = xp.matmul(G_blk[:, None, :], block)[:, 0, :]
    loss, recalled = _loss_and_recalled(S, lse, xp)
    return loss, Z.T @ keys, recalled


def _problem_arrays(problem: FactualRecallProblem, dtype: Any, xp: Any) -> tuple[Any, Any]:
    return xp.asarray(problem.keys, dtype=dtype), xp.asarray(problem.values, dtype=dtype)


def loss_and_grad(W: Any, problem: FactualRecallProblem) -> tuple[float, Any]:
    """Cross-entropy of eq. (A.1) (OP) or (A.2) (DP) and its gradient with respect to W.

    Notes
    -----
    L(W) = −(1/p) Σ_μ log softmax_ρ(s_μρ)|_{ρ=μ} with s_μρ = u_ρ^(μ)ᵀ W e_μ (u_ρ^(μ) = u_ρ for
    OP), and in closed form

        dL/dW = (1/p) Σ_μ Σ_ρ (P_μρ − δ_μρ) u_ρ^(μ) e_μᵀ,   P_μρ = softmax_ρ(s_μρ).

    OP: dL/dW = Uᵀ Gᵀ E with G = (P − I)/p, two GEMMs. DP: Z[μ] = Σ_ρ G_μρ u_ρ^(μ) by a
    batched matrix-vector product over the (p, p, d) values, then Zᵀ E; the scores and Z are
    computed block by block over μ, so each block of values is read from memory once per step
    and nothing larger than (p, p) is built besides the given arrays. Computed in float64.

    Parameters
    ----------
    W : array, shape (d, d)
        Finite real weights.
    problem : FactualRecallProblem

    Returns
    -------
    loss : float
    grad : array, shape (d, d)
        In the namespace of the problem.

    Examples
    --------
    At W = 0 every candidate is equally likely, so L = log p:

    >>> import numpy as np
    >>> from assocmem.linear_memory.problem import sample_problem
    >>> inst = sample_problem(4, 6, rng=0)
    >>> loss, grad = loss_and_grad(np.zeros((4, 4)), inst)
    >>> bool(np.isclose(loss, np.log(6)))
    True
    """
    problem = _check_problem(problem)
    xp = array_namespace(problem.keys, problem.values)
    W = xp.asarray(_check_weights(W, problem.d, xp), dtype=xp.float64)
    keys, values = _problem_arrays(problem, xp.float64, xp)
    loss, grad, _ = _loss_grad(W, keys, values, problem.kind, xp)
    return float(to_numpy(loss)), grad


def _check_factor(A: Any, name: str, d: int, xp: Any) -> Any:
    if not hasattr(A, "shape"):
        A = np.asarray(A)
    if getattr(A.dtype, "kind", "O") not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {A.dtype}")
    if A.ndim != 2 or A.shape[0] != d or A.shape[1] < 1:
        raise ValueError(f"{name} must have shape ({d}, m) with m >= 1, got shape {A.shape}")
    A = xp.asarray(A, dtype=xp.float64)
    if not bool(xp.all(xp.isfinite(A))):
        raise ValueError(f"{name} must be finite, got NaN or inf entries")
    return A


def loss_and_grad_factors(Q: Any, R: Any, problem: FactualRecallProblem) -> tuple[float, Any, Any]:
    """Cross-entropy of W = Q Rᵀ (two-layer memory, App. A) and its gradients in Q and R.

    Notes
    -----
    By the chain rule with G_W = dL/dW of :func:`loss_and_grad` at W = Q Rᵀ:
    dL/dQ = G_W R and dL/dR = G_Wᵀ Q (note §4 algorithm C).

    Parameters
    ----------
    Q, R : array, shape (d, m)
        Finite real factors with the same shape, m >= 1.
    problem : FactualRecallProblem

    Returns
    -------
    loss : float
    grad_Q, grad_R : array, shape (d, m)

    Examples
    --------
    With Q = 0 the gradient in R vanishes (and vice versa):

    >>> import numpy as np
    >>> from assocmem.linear_memory.problem import sample_problem
    >>> inst = sample_problem(4, 6, rng=0)
    >>> _, gQ, gR = loss_and_grad_factors(np.zeros((4, 2)), np.ones((4, 2)), inst)
    >>> float(np.abs(gR).max())
    0.0
    """
    problem = _check_problem(problem)
    xp = array_namespace(problem.keys, problem.values)
    Q = _check_factor(Q, "Q", problem.d, xp)
    R = _check_factor(R, "R", problem.d, xp)
    if Q.shape != R.shape:
        raise ValueError(f"Q and R must have the same shape, got {Q.shape} and {R.shape}")
    keys, values = _problem_arrays(problem, xp.float64, xp)
    loss, gW, _ = _loss_grad(Q @ R.T, keys, values, problem.kind, xp)
    return float(to_numpy(loss)), gW @ R, gW.T @ Q


def _check_init(init: Any, d: int) -> float:
    if init is None:
        return 1.0 / d
    return check_beta(init, "init")


def train(
    problem: FactualRecallProblem,
    *,
    kappa: float = 1.0,
    steps: int = 512,
    lr: float = 1e-2,
    warmup: int = _DEFAULT_WARMUP,
    early_stop: float | None = 0.999,
    rng: Any = 0,
    init: float | None = None,
    dtype: str = "float64",
    check_every: int | None = None,
) -> TrainResult:
    """Train the memory by full-batch Adam on the cross-entropy, the protocol of App. A.

    Notes
    -----
    Loss: eq. (A.1) (OP) or (A.2) (DP), gradient in closed form (:func:`loss_and_grad`). Each
    step t = 0, 1, ... first evaluates the scores; if the training accuracy (strict recall, as in
    :func:`~assocmem.linear_memory.problem.accuracy`) is >= ``early_stop`` it stops, otherwise it
    makes one Adam step (β₁ = 0.9, β₂ = 0.999, ε = 1e-8, bias-corrected) with the learning rate
    of :func:`learning_rate`. After the last step the final W is evaluated once more.

    κ = 1 trains W directly (App. A), initialised i.i.d. N(0, ``init``²) with ``init`` = 1/d
    by default, so initial scores have variance ≈ 1. κ < 1 trains W = Q Rᵀ with Q, R of shape
    (d, m), m = max(1, round(κ d)), both initialised i.i.d. N(0, ``init``²) (note pitfall 6:
    the paper's "same scale" read literally as 1/d); dL/dQ = G_W R, dL/dR = G_Wᵀ Q. For κ < 1
    the loss is non-convex and Adam is a heuristic (note §1.4). Not converging is not an error:
    above capacity it is the expected outcome, reported by ``converged`` (no warning is raised).

    With ``early_stop=0.999`` (the paper's value) one error is tolerated once p > 1000; use 1.0
    to measure the first violation (note pitfall 4), or None to always run all ``steps``.

    Host reads (``check_every`` = k). The accuracy and loss of every step are written into
    arrays of the problem's namespace and read on the host only after steps k − 1, 2k − 1, ...
    and after the last one, so that a GPU is not made to wait for the host at every step. The
    early-stop and divergence tests are made at those reads, over every step read. k changes no
    arithmetic: with ``early_stop=None`` the weights and histories are those of k = 1 exactly.
    With early stopping, the run stops at the first read that finds a step t0 (``stop_step``)
    whose accuracy reached ``early_stop``; it has then made ``steps`` = t0 + o Adam updates,
    with an overshoot 0 <= o <= k − 1, and returns the weights after them, the histories up to
    them (``steps + 1`` entries) and ``converged`` for those final weights (so it can be False
    in the rare case the accuracy fell back during the overshoot). k = 1 is the protocol of
    App. A. A non-finite loss anywhere in a read raises, even if the threshold was reached
    before it (the returned weights would not be finite).

    Parameters
    ----------
    problem : FactualRecallProblem
        Instance from :func:`~assocmem.linear_memory.problem.sample_problem`; NumPy or CuPy.
    kappa : float, optional
        Rank fraction κ in (0, 1]. κ = 1 trains W directly.
    steps : int, optional
        Budget of Adam steps, 1 <= steps <= ``MAX_STEPS`` (paper: 512).
    lr : float, optional
        Peak learning rate, finite and > 0 (paper: 1e-2).
    warmup : int, optional
        Linear warm-up length in steps, >= 0 (not in the paper; default 25, note §4 algorithm C).
    early_stop : float in (0, 1] or None, optional
        Stop once the training accuracy is >= this value (paper: 0.999).
    rng : int or numpy.random.Generator, optional
        Seed or generator for the initialisation (W, or Q then R).
    init : float or None, optional
        Standard deviation of the initial entries, finite and > 0; None means 1/d.
    dtype : {"float64", "float32"}, optional
        Working precision. float32 halves the memory of the DP values (note pitfall 17); the
        returned arrays have this dtype.
    check_every : int or None, optional
        Steps k between host reads of the accuracy and loss, 1 <= k <= ``MAX_STEPS``. None
        means k = 1 for NumPy arrays (every step, the App. A protocol) and k = 16 for any other
        namespace (CuPy), where a read waits for the device.

    Returns
    -------
    TrainResult
        ``weights`` (d, d), ``Q``/``R`` (d, m) or None, ``accuracy_history``, ``loss_history``,
        ``steps``, ``converged``, ``kappa``, ``m``, ``stop_step``.

    Raises
    ------
    ValueError
        If the scores overflow the working precision during training (the loss is no longer
        finite): ``lr`` or ``init`` is too large.

    Examples
    --------
    Twenty facts in d = 20 (α ≈ 0.15) are stored perfectly, well below capacity:

    >>> from assocmem.linear_memory.problem import sample_problem
    >>> res = train(sample_problem(20, 20, rng=0), rng=0)
    >>> res.accuracy, res.converged
    (1.0, True)
    """
    problem = _check_problem(problem)
    kappa = check_fraction(kappa, "kappa", 0.0, 1.0, open_lo=True, open_hi=False)
    steps = _check_steps(steps)
    lr = check_beta(lr, "lr")
    warmup = check_positive_int(warmup, "warmup", minimum=0)
    early_stop = _check_early_stop(early_stop)
    dtype = _check_dtype(dtype)
    check_every = _check_every(check_every)
    d = problem.d
    init_std = _check_init(init, d)
    gen = as_rng(rng)
    # The problem's p × p scores are held at once (its arrays exist already).
    check_size(
        problem.p * problem.p,
        "problem",
        f"scores (p = {problem.p} facts)",
        MAX_ELEMENTS,
        "use fewer facts",
    )

    xp = array_namespace(problem.keys, problem.values)
    dt = getattr(xp, dtype)
    keys, values = _problem_arrays(problem, dt, xp)
    kind = problem.kind
    factored = kappa < 1.0
    m = max(1, round(kappa * d)) if factored else d
    with np.errstate(over="ignore"):  # an init beyond the dtype's range is reported below
        if factored:
            params = [
                xp.asarray(gen.standard_normal((d, m)) * init_std, dtype=dt),
                xp.asarray(gen.standard_normal((d, m)) * init_std, dtype=dt),
            ]
        else:
            params = [xp.asarray(gen.standard_normal((d, d)) * init_std, dtype=dt)]
    if check_every is None:
        check_every = 1 if xp is np else _DEVICE_CHECK_EVERY
    mom = [xp.zeros_like(a) for a in params]
    vel = [xp.zeros_like(a) for a in params]
    # Recalled counts and losses of every step stay in the namespace until a host read.
    counts = xp.zeros((steps + 1,), dtype=xp.int64)
    losses = xp.zeros((steps + 1,), dtype=xp.float64)
    acc_parts: list[np.ndarray] = []
    loss_parts: list[np.ndarray] = []
    read = 0  # steps [0, read) have been read on the host
    stop_step = None
    for t in range(steps + 1):
        W = params[0] @ params[1].T if factored else params[0]
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
            loss, gW, recalled = _loss_grad(W, keys, values, kind, xp)
        counts[t] = xp.sum(recalled)
        losses[t] = loss
        if t == steps or (t + 1) % check_every == 0:  # a host read of steps [read, t]
            acc_new = to_numpy(counts[read : t + 1]) / problem.p
            loss_new = np.asarray(to_numpy(losses[read : t + 1]))
            bad = np.flatnonzero(~np.isfinite(loss_new))
            if bad.size:
                raise ValueError(
                    f"training diverged: the {dtype} scores overflowed after {read + bad[0]} "
                    f"Adam steps (loss {float(loss_new[bad[0]])}); lower lr (got {lr!r}) or "
                    f"init (got {init!r})"
                )
            acc_parts.append(acc_new)
            loss_parts.append(loss_new)
            hit = np.flatnonzero(acc_new >= early_stop) if early_stop is not None else []
            if len(hit):
                stop_step = read + int(hit[0])
            read = t + 1
            if stop_step is not None:
                break
        if t == steps:
            break
        grads = [gW @ params[1], gW.T @ params[0]] if factored else [gW]
        eta = _lr_at(t, steps, lr, warmup)
        c1 = 1.0 - _BETA1 ** (t + 1)
        c2 = 1.0 - _BETA2 ** (t + 1)
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported above
            for a, g, mo, ve in zip(params, grads, mom, vel, strict=True):
                mo *= _BETA1
                mo += (1.0 - _BETA1) * g
                ve *= _BETA2
                ve += (1.0 - _BETA2) * (g * g)
                a -= (eta / c1) * mo / (xp.sqrt(ve / c2) + _EPS)
    W = params[0] @ params[1].T if factored else params[0]
    acc_hist = np.concatenate(acc_parts)
    final_acc = float(acc_hist[-1])
    return TrainResult(
        weights=W,
        Q=params[0] if factored else None,
        R=params[1] if factored else None,
        accuracy_history=acc_hist,
        loss_history=np.concatenate(loss_parts),
        steps=t,
        converged=bool(final_acc >= (1.0 if early_stop is None else early_stop)),
        kappa=kappa,
        m=m,
        stop_step=stop_step,
    )
