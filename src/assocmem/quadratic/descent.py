"""Gradient descent on quadratic networks: single runs and the average over initialisations.

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*, "Gradient descent"); Maillard, Troiani, Martin, Krzakala and Zdeborová,
arXiv:2408.03733 (averaged GD reaches the Bayes-optimal error; their runs use Adam, full batch).

Notation map (A-units: Â = WᵀW/√(pd), the target A* of :mod:`assocmem.quadratic.sensing`)
-------------------------------------------------------------------------------------------
- d, n = αd² (dimension, samples)                      -> ``data.d``, ``data.n``
- p = max(1, round(ρd)) (student width)                 -> ``rho`` (the student's ρ)
- W ∈ R^{p×d} per run, K runs batched as (K, p, d)     -> ``runs`` = K
- Â_k = W_kᵀW_k/√(pd) (run k's estimate)               -> ``DescentResult.A_runs[k]``
- Ā = (1/K) Σ_k Â_k (averaged predictor)               -> ``DescentResult.A_mean``
- ŷ_μ = Tr[G_μ Â] = (1/√p) Σ_i [(w_i·x_μ)² − ‖w_i‖²]/d -> the centred network's output
- L(W) = ¼ Σ_μ (ŷ_μ − y_μ)² (training loss)            -> minimised by Adam
- η (Adam learning rate; α is the sample ratio here)   -> ``lr``
- m_k = ‖Â_k − A*‖²_F/d, m̄ = ‖Ā − A*‖²_F/d            -> ``error_single``, ``error_mean``

The claim (slides; Maillard et al. 2024): started in the prior, W_ij ~ N(0, 1), and trained
without a regulariser to zero training loss, a single run behaves like a sample of the posterior,
so its error is 2·MMSE (Nishimori identity), and the average of K runs has error
MMSE·(1 + 1/K) (ours, from the same identity), which reaches the Bayes-optimal MMSE as K → ∞.
Why GD samples the posterior is open.

Differences from the papers' code: the network here is centred, (w·x)² − ‖w‖², as in the
theory; their runs use an uncentred network (the trace is learned too), d = 100–200, 1000 steps
and 64 initialisations. The step count and learning rate are arguments.

Every array lives in the namespace of the data (NumPy, or CuPy when the data were sampled with
``xp=cupy``); the initial weights are drawn from a NumPy Generator and moved there, so a seed
gives the same runs on both.

Public functions
----------------
``gd_quadnet`` (result ``DescentResult``), ``prefix_mean_errors``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    as_real_array,
    as_rng,
    check_fraction,
    check_instance,
    check_max_abs,
    check_positive_float,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace
from assocmem.quadratic._optim import adam_init, adam_step
from assocmem.quadratic.sensing import SensingData

__all__ = ["DescentResult", "gd_quadnet", "prefix_mean_errors"]

_RHO_MAX = 1e6  # the range of assocmem.quadratic.sensing
_LR_MAX = 1e3


@dataclass(frozen=True)
class DescentResult:
    """K gradient-descent runs from independent initialisations and their average.

    Attributes
    ----------
    A_runs : ndarray, shape (K, d, d)
        The estimates Â_k = W_kᵀW_k/√(pd) at the last step.
    A_mean : ndarray, shape (d, d)
        The averaged predictor Ā = (1/K) Σ_k Â_k.
    error_single : ndarray, shape (K,)
        m_k = ‖Â_k − A*‖²_F/d (A-units; the test MSE is twice this).
    error_mean : float
        m̄ = ‖Ā − A*‖²_F/d.
    train_mse : ndarray, shape (K,)
        (1/n) Σ_μ (ŷ_μ − y_μ)² of each run at the last step.
    record_steps : ndarray, shape (R,) or None
        Steps at which the trajectory was recorded (0 and every ``record_every`` steps, and the
        last step); None when no trajectory was asked for.
    error_trajectory : ndarray, shape (R, K) or None
        m_k at the recorded steps.
    error_mean_trajectory : ndarray, shape (R,) or None
        m̄ at the recorded steps.
    train_trajectory : ndarray, shape (R, K) or None
        The training MSE at the recorded steps.
    """

    A_runs: Any
    A_mean: Any
    error_single: Any
    error_mean: float
    train_mse: Any
    record_steps: Any = None
    error_trajectory: Any = None
    error_mean_trajectory: Any = None
    train_trajectory: Any = None


def gd_quadnet(
    data: Any,
    rho: Any,
    *,
    runs: Any = 16,
    steps: Any = 4000,
    lr: Any = 0.01,
    rng: Any = 0,
    record_every: Any = None,
) -> DescentResult:
    """Train K width-p centred quadratic networks with full-batch Adam and average them.

    Parameters
    ----------
    data : SensingData
        Labelled samples from :func:`assocmem.quadratic.sensing.sample_sensing`: network data
        (inputs X) or the GOE surrogate (matrices G, then ŷ_μ = Tr[G_μ Â]).
    rho : float
        Student width ratio, p = max(1, round(ρd)), ρ in (0, 1e6]; the papers take the
        teacher's ρ.
    runs : int
        Number K >= 1 of independent initialisations, trained together as one (K, p, d) tensor.
    steps : int
        Adam steps >= 1 (at most the library's step cap).
    lr : float
        Adam learning rate η in (0, 1e3].
    rng : int or numpy.random.Generator
        Seed or generator of the initial weights W_ij ~ N(0, 1), drawn as one (K, p, d) array,
        so K runs from a generator equal K successive single runs from it.
    record_every : int or None
        Record the errors and training MSE every this many steps (and at steps 0 and
        ``steps``); None records nothing.

    Returns
    -------
    DescentResult
        Per-run and averaged errors, training MSE, the estimates and the optional trajectory.

    Raises
    ------
    ValueError
        If the training loss becomes non-finite (too large a learning rate or labels), or a derived
        size (K p d weights, K n p pre-activations, K d² estimates) exceeds the element cap.

    Notes
    -----
    Slides, "Gradient descent"; Maillard et al. 2024. The loss is L = ¼ Σ_μ (ŷ_μ − y_μ)² with
    ŷ_μ = (1/√p) Σ_i [(w_i·x_μ)² − ‖w_i‖²]/d, whose gradient is (ours, by the chain rule)

    .. math::
        ∇_{w_i} L = \\frac{1}{d\\sqrt p}\\Big[\\sum_μ r_μ (w_i·x_μ)\\, x_μ
        - \\Big(\\sum_μ r_μ\\Big) w_i\\Big] = \\frac{1}{\\sqrt{pd}}\\, W M,
        \\quad M = \\sum_μ r_μ G_μ,\\ r_μ = ŷ_μ − y_μ.

    For network data it is two (Kp × d)·(d × n) products per step, O(K n p d), and G_μ is never
    formed. Below the perfect-recovery threshold α_PR = ρ − ρ²/2 the runs interpolate (training
    loss → 0) and differ; above it they all reach A* (noiseless labels). Training is a fixed
    number of steps, not a solver with a tolerance: read ``train_mse`` to see whether the runs
    interpolate. The error can dip below its final value mid-training (early stopping); the
    trajectory shows it.

    Examples
    --------
    Above α_PR (ρ = 0.5: α_PR = 0.375) every run recovers the target:

    >>> from assocmem.quadratic.sensing import sample_sensing
    >>> data = sample_sensing(10, 0.5, 0.8, rng=0)
    >>> res = gd_quadnet(data, 0.5, runs=2, steps=3000, lr=0.02, rng=1)
    >>> bool(res.error_mean < 1e-3)
    True
    """
    data = check_instance(data, "data", SensingData)
    d, n = data.d, data.n
    k, p, n_steps, eta, every, gen = _check_training(
        rho, runs, steps, lr, rng, record_every, d, _RHO_MAX
    )
    _check_sizes(k, p, d, n, data.surrogate)
    xp = array_namespace(data.A)
    W = xp.asarray(gen.standard_normal((k, p, d)))
    with np.errstate(over="ignore", invalid="ignore"):  # a blow-up raises below, by name
        return _train(data, W, n_steps, eta, every, xp)


def prefix_mean_errors(A_runs: Any, A: Any) -> Any:
    """Errors of the averages of the first k runs, k = 1..K: ‖(1/k) Σ_{j<k} Â_j − A*‖²_F/d.

    Parameters
    ----------
    A_runs : array_like, shape (K, d, d)
        Estimates of K runs (e.g. ``DescentResult.A_runs``), NumPy or CuPy; |entries| <= 1e100.
    A : array_like, shape (d, d)
        The target A*, in the namespace of ``A_runs``; |entries| <= 1e100.

    Returns
    -------
    ndarray, shape (K,)
        Entry k − 1 is the error of the mean of the first k runs (entry 0 is run 0's error).

    Notes
    -----
    If the runs were posterior samples, the expected value of entry k − 1 would be
    MMSE·(1 + 1/k) (Nishimori identity; slides, "Gradient descent").

    Examples
    --------
    Two runs at ±E around the target: each has error ‖E‖²/d, their mean has error 0.

    >>> import numpy as np
    >>> E = np.eye(2)
    >>> prefix_mean_errors(np.stack([E, -E]), np.zeros((2, 2))).tolist()
    [1.0, 0.0]
    """
    xp = array_namespace(A_runs, A)
    runs_arr = check_max_abs(as_real_array(A_runs, "A_runs", ndim=3, xp=xp), "A_runs")
    K, d = runs_arr.shape[0], runs_arr.shape[1]
    if K < 1 or d < 1 or runs_arr.shape[2] != d:
        raise ValueError(f"A_runs must have shape (K, d, d) with K, d >= 1, got {runs_arr.shape}")
    target = check_max_abs(as_real_array(A, "A", ndim=2, xp=xp), "A")
    if target.shape != (d, d):
        raise ValueError(f"A must have shape ({d}, {d}), got shape {target.shape}")
    counts = xp.arange(1, K + 1, dtype=xp.float64)[:, None, None]
    means = xp.cumsum(runs_arr, axis=0) / counts
    return xp.sum((means - target) ** 2, axis=(1, 2)) / d


def _check_training(
    rho: Any, runs: Any, steps: Any, lr: Any, rng: Any, record_every: Any, d: int, rho_max: float
) -> tuple[int, int, int, float, int | None, Any]:
    """Validate the Adam arguments shared by gd_quadnet and gd_attention.

    Returns K, the width p = max(1, round(ρd)), the step count, η, the recording interval
    (None: none) and the NumPy Generator of the initial weights.
    """
    r = check_fraction(rho, "rho", 0.0, rho_max, open_lo=True, open_hi=False)
    k = check_positive_int(runs, "runs")
    n_steps = check_positive_int(steps, "steps")
    check_size(n_steps, "steps", "Adam steps", MAX_STEPS, "use fewer steps")
    eta = check_positive_float(lr, "lr")
    if eta > _LR_MAX:
        raise ValueError(f"lr must lie in (0, {_LR_MAX}], got {eta!r}")
    every = None if record_every is None else check_positive_int(record_every, "record_every")
    gen = as_rng(rng)
    return k, max(1, round(r * d)), n_steps, eta, every, gen


def _check_sizes(k: int, p: int, d: int, n: int, surrogate: bool) -> None:
    """Refuse the derived tensors above the element cap (weights, pre-activations, estimates)."""
    hint = "use fewer runs or a smaller d"
    check_size(float(k) * p * d, "runs", "weights (K p d)", MAX_ELEMENTS, hint)
    check_size(float(k) * d * d, "runs", "estimate entries (K d²)", MAX_ELEMENTS, hint)
    if not surrogate:
        check_size(float(k) * n * p, "runs", "pre-activations (K n p)", MAX_ELEMENTS, hint)


def _estimates(W: Any, xp: Any) -> Any:
    """Â_k = W_kᵀW_k/√(pd) for every run, shape (K, d, d)."""
    _, p, d = W.shape
    return xp.matmul(xp.swapaxes(W, 1, 2), W) / math.sqrt(p * d)


def _loss_grad(W: Any, data: SensingData, xp: Any) -> tuple[Any, Any]:
    """Residuals r (K, n) and ∇L (K, p, d) of L = ¼ Σ r² (gd_quadnet's Notes; trusted input)."""
    K, p, d = W.shape
    if data.X is None:
        Gf = xp.reshape(data.G, (data.n, d * d))
        r = xp.reshape(_estimates(W, xp), (K, d * d)) @ Gf.T - data.y
        M = xp.reshape(r @ Gf, (K, d, d))
        return r, xp.matmul(W, M) / math.sqrt(p * d)
    X = data.X
    Z = xp.reshape(xp.reshape(W, (K * p, d)) @ X.T, (K, p, data.n))  # z_{kiμ} = w_ki·x_μ
    norms = xp.sum(W * W, axis=(1, 2))
    r = (xp.einsum("kin,kin->kn", Z, Z) - norms[:, None]) / (d * math.sqrt(p)) - data.y
    Z *= r[:, None, :]  # in place: Z is the step's largest array (K n p)
    back = xp.reshape(xp.reshape(Z, (K * p, data.n)) @ X, (K, p, d))
    grad = (back - xp.sum(r, axis=1)[:, None, None] * W) / (d * math.sqrt(p))
    return r, grad


def _snapshot(A_runs: Any, r: Any, A: Any, xp: Any) -> tuple[Any, float, Any]:
    """Per-run errors, error of the mean and training MSE (mean of r² per run)."""
    d, K = A.shape[0], A_runs.shape[0]
    err = xp.sum((A_runs - A) ** 2, axis=(1, 2)) / d
    err_mean = float(xp.sum((xp.mean(A_runs, axis=0) - A) ** 2)) / d
    return err, err_mean, xp.mean(xp.reshape(r * r, (K, -1)), axis=1)


def _train(
    data: SensingData, W: Any, steps: int, lr: float, every: int | None, xp: Any
) -> DescentResult:
    """Full-batch Adam on the quadratic networks' loss (gd_quadnet's Notes)."""
    return _adam_descent(
        W,
        lambda V: _loss_grad(V, data, xp),
        lambda V: _estimates(V, xp),
        data.A,
        steps,
        lr,
        every,
        xp,
    )


def _adam_descent(
    W: Any,
    loss_grad: Callable[[Any], tuple[Any, Any]],
    estimates: Callable[[Any], Any],
    A: Any,
    steps: int,
    lr: float,
    every: int | None,
    xp: Any,
) -> DescentResult:
    """Full-batch Adam on K runs at once, recording every ``every`` steps (trusted input).

    ``loss_grad(W)`` returns the residuals (K, ...) and the gradient of the loss (shape of W);
    ``estimates(W)`` the (K, d, d) estimates of A. Shared with
    :mod:`assocmem.quadratic.attention_gd`; a non-finite final loss raises ValueError.
    """
    state = adam_init(W)
    trail: list[tuple[int, Any, float, Any]] = []
    for t in range(steps + 1):
        r, grad = loss_grad(W)
        if every is not None and (t % every == 0 or t == steps):
            trail.append((t, *_snapshot(estimates(W), r, A, xp)))
        if t < steps:
            W, state = adam_step(W, grad, state, lr=lr)
    A_runs = estimates(W)
    err, err_mean, mse = _snapshot(A_runs, r, A, xp)
    if not (bool(xp.all(xp.isfinite(mse))) and math.isfinite(err_mean)):
        raise ValueError(
            f"the training loss became non-finite within {steps} steps at lr = {lr!r}; "
            "use a smaller lr (the papers use 0.01) or labels of moderate size"
        )
    extra = {}
    if trail:
        extra = {
            "record_steps": np.array([s[0] for s in trail]),
            "error_trajectory": xp.stack([s[1] for s in trail]),
            "error_mean_trajectory": np.array([s[2] for s in trail]),
            "train_trajectory": xp.stack([s[3] for s in trail]),
        }
    return DescentResult(
        A_runs=A_runs,
        A_mean=xp.mean(A_runs, axis=0),
        error_single=err,
        error_mean=err_mean,
        train_mse=mse,
        **extra,
    )
