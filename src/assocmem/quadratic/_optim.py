"""Adam on array-API tensors: the optimiser behind the gradient-descent experiments.

Sources: Kingma and Ba, arXiv:1412.6980 (Adam, Algorithm 1); Maillard, Troiani, Martin, Krzakala
and Zdeborová, arXiv:2408.03733 (their vanilla-GD runs use PyTorch's Adam, lr 0.01, full batch).

Adam acts entry by entry, so one step on a batched tensor of shape ``(K, ...)`` updates K
independent runs at once: run k of the batch equals a separate run on ``params[k]`` (the moments
of different entries never mix). The state is plain arrays in the parameters' namespace ``xp``
(NumPy or CuPy), so the step runs on a GPU when the parameters live there.

Notation map (Kingma and Ba, Algorithm 1)
-----------------------------------------
- θ (parameters), g (gradient)        -> ``params``, ``grad``
- m, v (first and second moments)     -> ``AdamState.m``, ``AdamState.v``
- t (step count)                      -> ``AdamState.t``
- η (learning rate; not the papers' α, which is the sample ratio here) -> ``lr``
- β₁, β₂, ε                           -> ``beta1``, ``beta2``, ``eps``

Private helpers for :mod:`assocmem.quadratic.descent` and :mod:`assocmem.quadratic.attention_gd`;
callers validate their inputs at their own public boundary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assocmem.backend import array_namespace

__all__ = ["AdamState", "adam_init", "adam_step"]


@dataclass(frozen=True)
class AdamState:
    """Adam's moments after ``t`` steps.

    Attributes
    ----------
    m : array
        First-moment estimate, the shape of the parameters.
    v : array
        Second-moment estimate, the shape of the parameters.
    t : int
        Steps taken so far (0 before the first step).
    """

    m: Any
    v: Any
    t: int


def adam_init(params: Any) -> AdamState:
    """Zero moments shaped like ``params``, in its array namespace.

    Parameters
    ----------
    params : array
        Parameters, any shape; a leading axis of K independent runs is allowed.

    Returns
    -------
    AdamState
        ``m = v = 0``, ``t = 0``.

    Examples
    --------
    >>> import numpy as np
    >>> adam_init(np.ones((2, 3))).m.shape
    (2, 3)
    """
    xp = array_namespace(params)
    return AdamState(m=xp.zeros_like(params), v=xp.zeros_like(params), t=0)


def adam_step(
    params: Any,
    grad: Any,
    state: AdamState,
    *,
    lr: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    eps: float = 1e-8,
) -> tuple[Any, AdamState]:
    """One Adam step; returns new parameters and state (the inputs are not modified).

    Notes
    -----
    Kingma and Ba, Algorithm 1, with PyTorch's placement of ε (outside the square root):

    .. math::
        m_t = β_1 m_{t-1} + (1-β_1) g,\\quad v_t = β_2 v_{t-1} + (1-β_2) g^2,\\quad
        θ_t = θ_{t-1} - η\\,\\frac{m_t/(1-β_1^t)}{\\sqrt{v_t/(1-β_2^t)} + ε}.

    Every operation is elementwise, so a batch ``(K, ...)`` is K independent optimisers.

    Parameters
    ----------
    params, grad : array
        Parameters and the loss gradient at them, same shape and namespace.
    state : AdamState
        The state returned by :func:`adam_init` or the previous step.
    lr : float
        Learning rate η > 0.
    beta1, beta2 : float
        Moment decay rates in [0, 1).
    eps : float
        Denominator floor ε > 0.

    Returns
    -------
    params : array
        The updated parameters.
    state : AdamState
        Moments and step count after this step.

    Examples
    --------
    The first step moves every entry by lr against the sign of its gradient (up to ε):

    >>> import numpy as np
    >>> p, s = adam_step(np.zeros(2), np.array([3.0, -0.5]), adam_init(np.zeros(2)), lr=0.1)
    >>> np.round(p, 6)
    array([-0.1,  0.1])
    """
    xp = array_namespace(params, grad)
    t = state.t + 1
    m = beta1 * state.m + (1.0 - beta1) * grad
    v = beta2 * state.v + (1.0 - beta2) * grad * grad
    step = (lr / (1.0 - beta1**t)) * m / (xp.sqrt(v / (1.0 - beta2**t)) + eps)
    return params - step, AdamState(m=m, v=v, t=t)
