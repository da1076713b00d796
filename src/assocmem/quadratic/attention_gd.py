"""Gradient descent on softmax attention: single runs and the average over initialisations.

Sources: E. Troiani, talk slides (*Attention-index models and how to solve them using tools for
quadratic networks*, "BO attention"); Boncoraglio, Troiani, Erba and Zdeborová, arXiv:2506.01582
(attention-indexed models; their figure of single and averaged GD runs, and its code
``GD_softmax_averaged.py``, whose conventions this module follows).

Notation map (A-units: Â = WᵀW/√(pd), the target A* of :mod:`assocmem.quadratic.attention`)
--------------------------------------------------------------------------------------------
- X_μ ∈ ℝ^{T×d}, y_μ ∈ ℝ^{T×T}, n = αd² sequences        -> ``data.X``, ``data.y``, ``data.n``
- p = max(1, round(ρd)) (student width)                  -> ``rho`` (the student's ρ)
- W ∈ ℝ^{p×d} per run, K runs batched as (K, p, d)      -> ``runs`` = K
- Z = X Wᵀ/√d (projected tokens, T × p per sequence)     -> private ``Z``
- Ĥ = (Z Zᵀ − (‖W‖²_F/d) I_T)/√p = (X Â Xᵀ − Tr(Â) I_T)/√d (student logits)
- ŷ = softmax_β(Ĥ) row-wise, with the data's β          -> ``data.beta``
- L(W) = Σ_μ ‖ŷ_μ − y_μ‖²_F / d (training loss)          -> minimised by Adam
- η (Adam learning rate; α is the sample ratio here)    -> ``lr``
- m_k = ‖Â_k − A*‖²_F/d, m̄ = ‖Ā − A*‖²_F/d             -> ``error_single``, ``error_mean``

The claim (slides, "BO attention"; Boncoraglio et al. 2025, figure of GD runs): started in the
prior, W_ij ~ N(0, 1), and trained on the square loss, a single run of gradient descent on the
attention weights has about twice the Bayes-optimal error (a posterior sample, by the Nishimori
identity), and the average of K runs about MMSE·(1 + 1/K) (ours, from the same identity). The
student is the teacher's architecture: the same width and β, and the diagonal of its logits
centred by Tr(Â)/√d exactly as the teacher's. The defaults are the papers' optimiser (Adam,
lr 0.1, 1000 full-batch steps); their runs have d = 200 and 32 averaged runs. The learning rate
matters: at d = 60 a run with lr 0.01 ends further from the target (its implicit bias is not
that of a posterior sample), so the factor 2 is a statement about this protocol.

Every array lives in the namespace of the data (NumPy, or CuPy when the data were sampled with
``xp=cupy``); the initial weights are drawn from a NumPy Generator and moved there, so a seed
gives the same runs on both.

Public functions
----------------
``gd_attention`` (result :class:`assocmem.quadratic.descent.DescentResult`).
"""

from __future__ import annotations

import math
from typing import Any

from assocmem._validation import MAX_ELEMENTS, check_instance, check_size
from assocmem.backend import array_namespace
from assocmem.quadratic.attention import AttentionData, _softmax
from assocmem.quadratic.descent import (
    DescentResult,
    _adam_descent,
    _check_training,
    _estimates,
)

__all__ = ["gd_attention"]

_RHO_MAX = 100.0  # the teacher range of assocmem.quadratic.attention


def gd_attention(
    data: Any,
    rho: Any,
    *,
    runs: Any = 4,
    steps: Any = 1000,
    lr: Any = 0.1,
    rng: Any = 0,
    record_every: Any = None,
) -> DescentResult:
    """Train K tied softmax-attention students with full-batch Adam and average them.

    Parameters
    ----------
    data : AttentionData
        Sequences and softmax outputs from :func:`assocmem.quadratic.attention.sample_attention`
        (``output="softmax"``; the hardmax outputs have no gradient). The student uses the
        data's β.
    rho : float
        Student width ratio, p = max(1, round(ρd)), ρ in (0, 100]; the papers take the
        teacher's ρ.
    runs, steps, lr, rng, record_every
        As in :func:`assocmem.quadratic.descent.gd_quadnet`: K >= 1 runs trained as one
        (K, p, d) tensor, Adam steps and learning rate η in (0, 1e3], the seed of the initial
        weights W_ij ~ N(0, 1) (K runs from a generator equal K successive single runs from
        it), and the recording interval of the trajectory (None: none). Defaults here: 4 runs,
        1000 steps, lr 0.1.

    Returns
    -------
    DescentResult
        Per-run and averaged errors m_k, m̄ (A-units), the estimates Â_k and Ā, the training
        MSE of each run (the mean of (ŷ_ab − y_ab)² over the n T² attention entries), and the
        optional trajectory.

    Raises
    ------
    ValueError
        If the data are hardmax outputs, the training loss becomes non-finite (the learning
        rate is too large), or a derived size (K p d weights, K n T p projected tokens, K n T²
        attention entries, K d² estimates) exceeds the element cap.

    Notes
    -----
    Slides, "BO attention"; Boncoraglio et al. 2025. With Z = X Wᵀ/√d the student's logits are
    Ĥ = (Z Zᵀ − c I_T)/√p, c = ‖W‖²_F/d, and ŷ = softmax_β(Ĥ) row by row; the loss is
    L = Σ_μ ‖ŷ_μ − y_μ‖²_F/d. Backpropagation through the softmax (ours, by the chain rule):
    with G = ∂L/∂ŷ = 2(ŷ − y)/d,

    .. math::
        R_{ab} = \\frac{∂L}{∂Ĥ_{ab}} = β\\,ŷ_{ab}\\Big(G_{ab} − \\sum_c G_{ac}ŷ_{ac}\\Big),\\qquad
        ∇_W L = \\frac{1}{\\sqrt{pd}} \\sum_μ \\big((R_μ + R_μ^⊤) Z_μ\\big)^⊤ X_μ
        − \\frac{2}{d\\sqrt p}\\Big(\\sum_μ \\mathrm{Tr}\\,R_μ\\Big) W .

    Each step costs O(K n T p d) (two batched products with the tokens) plus O(K n T² p) for
    the logits. Softmax rows forget one constant each, so the logit differences are what the
    data fix; training is a fixed number of steps, not a solver with a tolerance: read
    ``train_mse`` to see whether the runs interpolate.

    Examples
    --------
    Far above the perfect-recovery threshold (ρ = 0.5, T = 2: α_PR = 0.1875) a run finds the
    target:

    >>> from assocmem.quadratic.attention import sample_attention
    >>> data = sample_attention(8, 2, 0.5, 1.5, rng=0)
    >>> res = gd_attention(data, 0.5, runs=1, steps=1500, lr=0.02, rng=1)
    >>> bool(res.error_mean < 1e-3)
    True
    """
    data = check_instance(data, "data", AttentionData)
    if data.output != "softmax":
        raise ValueError(
            f"data must hold softmax outputs (output='softmax'), got output={data.output!r}: "
            "hardmax outputs have no gradient"
        )
    k, p, n_steps, eta, every, gen = _check_training(
        rho, runs, steps, lr, rng, record_every, data.d, _RHO_MAX
    )
    _check_sizes(k, p, data)
    xp = array_namespace(data.X)
    W = xp.asarray(gen.standard_normal((k, p, data.d)))
    return _adam_descent(
        W,
        lambda V: _loss_grad(V, data, xp),
        lambda V: _estimates(V, xp),
        data.A,
        n_steps,
        eta,
        every,
        xp,
    )


def _check_sizes(k: int, p: int, data: AttentionData) -> None:
    """Refuse the derived tensors above the element cap."""
    hint = "use fewer runs or a smaller d"
    d, nT = data.d, data.n * data.T
    check_size(float(k) * p * d, "runs", "weights (K p d)", MAX_ELEMENTS, hint)
    check_size(float(k) * d * d, "runs", "estimate entries (K d²)", MAX_ELEMENTS, hint)
    check_size(float(k) * nT * p, "runs", "projected tokens (K n T p)", MAX_ELEMENTS, hint)
    check_size(float(k) * nT * data.T, "runs", "attention entries (K n T²)", MAX_ELEMENTS, hint)


def _loss_grad(W: Any, data: AttentionData, xp: Any) -> tuple[Any, Any]:
    """Residuals ŷ − y (K, n, T, T) and ∇L (K, p, d) (gd_attention's Notes; trusted input)."""
    K, p, d = W.shape
    n, T = data.n, data.T
    Xf = xp.reshape(data.X, (n * T, d))
    Z = xp.reshape(xp.matmul(Xf, xp.swapaxes(W, 1, 2)), (K, n, T, p)) / math.sqrt(d)
    c = xp.sum(W * W, axis=(1, 2)) / d
    H = (xp.einsum("knap,knbp->knab", Z, Z) - c[:, None, None, None] * xp.eye(T)) / math.sqrt(p)
    S = _softmax(H, data.beta, xp)
    res = S - data.y
    G = (2.0 / d) * res
    R = data.beta * S * (G - xp.sum(G * S, axis=-1, keepdims=True))
    dZ = xp.einsum("knab,knbp->knap", R + xp.swapaxes(R, -1, -2), Z)
    back = xp.matmul(xp.swapaxes(xp.reshape(dZ, (K, n * T, p)), 1, 2), Xf)
    trace = xp.sum(xp.trace(R, axis1=-2, axis2=-1), axis=-1)
    grad = back / math.sqrt(p * d) - (2.0 / (d * math.sqrt(p))) * trace[:, None, None] * W
    return res, grad
