"""Finite-p capacity: the exact t → 1 limit of the energetic function G_p, by Monte Carlo.

Paper: A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories:
sharp asymptotics and mechanistic insights*, arXiv:2605.10795, §5 and App. C.2. "note §" refers
to the chapter note ``shared/notes/01-factual-recall.md``.

Notation map
------------
- p (associations), η ∈ R^p i.i.d. N(0, 1), η₁ the target (eq. (C.21))  -> ``p``
- t (replica overlap, App. C.2), β_t = √(t/(1-t)) (eq. (C.20))          -> (the limit t → 1)
- G_p(t) = E_η[log f_p(t; η)] / log p (eq. (C.23)), f_p as in (C.29)     -> see ``energetic``
- c(p) = -lim_{t→1} (1-t) G_p(t) = E[V_p] / log p                       -> ``cost``
- α_c(p) = 1/(2 c(p)), the fixed-p version of (C.24)                     -> ``alpha_c``

Provenance
----------
[PAPER] eq. (8) read at fixed p with G_p in place of G, the representation (C.29) of f_p, and
the limit α_c → 1/2 of (C.24)-(C.25).
[OURS, this module] the Laplace evaluation of (C.29) as β_t → ∞ that gives c(p) as a
water-filling cost, sampled exactly from the top order statistics of η₂..η_p. It corrects note
§2.3: replacing each Φ in (C.29) by a step (``capacity.finite_p_capacity``) drops the
competitors' own noise and doubles the cost at p = 2 (see :func:`finite_p_capacity_mc`, Notes).

This module sits below ``energetic`` (the finite-t solver of G_p, the finite-size scaling of
Fig. C.1) and ``sweep`` (``threshold_scan`` attaches α_c(p) to every measured threshold); it
imports neither.

Public functions
----------------
finite_p_capacity_mc (result ``FinitePCapacity``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from scipy.special import gammaincinv, ndtri

from assocmem._validation import MAX_ELEMENTS, as_rng, check_positive_int, check_size

from .capacity import finite_p_capacity

__all__ = ["FinitePCapacity", "finite_p_capacity_mc"]

# Samples per vectorised batch in finite_p_capacity_mc.
_BATCH = 128


@dataclass(frozen=True, eq=False)
class FinitePCapacity:
    """Finite-p capacity from the t → 1 limit of G_p, from :func:`finite_p_capacity_mc`.

    Attributes
    ----------
    p : ndarray of int, shape (n,)
        Numbers of associations.
    cost : ndarray, shape (n,)
        c(p) = -lim_{t→1} (1-t) G_p(t) = E[V_p] / log p (Monte Carlo); → 1 as p → ∞.
    cost_stderr : ndarray, shape (n,)
        Standard error of ``cost``.
    alpha_c : ndarray, shape (n,)
        1 / (2 c(p)): where the finite-p potential (eq. (8) with G_p) loses its minimum.
    alpha_c_stderr : ndarray, shape (n,)
        Standard error of ``alpha_c`` (delta method).
    alpha_c_step : ndarray, shape (n,)
        The step-function estimate ``finite_p_capacity(p)`` (note §2.3), for comparison.
    samples : int
        Monte-Carlo samples per p.
    """

    p: np.ndarray
    cost: np.ndarray
    cost_stderr: np.ndarray
    alpha_c: np.ndarray
    alpha_c_stderr: np.ndarray
    alpha_c_step: np.ndarray
    samples: int


def finite_p_capacity_mc(
    p: Any, samples: int = 400, rng: Any = 0, *, top: int = 256, nodes: int = 40
) -> FinitePCapacity:
    """Finite-p capacity α_c(p) = 1/(2 c(p)) from the exact t → 1 limit of G_p [OURS].

    Notes
    -----
    Read eq. (8) at fixed p with G_p in place of G (the paper's finite-size statement). If
    (1-t) G_p(t) → -c(p) as t → 1, then h_α(q) ~ (1 - 2α c(p)) / (2(1-q)) near q = 1, which
    tends to +∞ (a finite minimum, φ > -∞) iff α < 1/(2 c(p)): the finite-p threshold is
    α_c(p) = 1/(2 c(p)), the fixed-p version of (C.24).

    c(p) follows from a Laplace evaluation of (C.29) as β → ∞ at fixed η: with ξ = β y and
    c_ρ = η_ρ - η₁, log Φ(β(y - c_ρ)) ≈ -β²(c_ρ - y)_+²/2, so
    log f_p ≈ -β² V, V = min_y [y²/2 + ½ Σ_{ρ>=2} (c_ρ - y)_+²],
    and (1-t) G_p → -E[V] / log p. The target and the leading competitors share the cost: for
    p = 2, f_2 = Φ(β(η₁ - η₂)/√2) exactly and V = (η₂ - η₁)_+²/4. The step-function estimate of
    note §2.3 (``finite_p_capacity``) replaces each Φ by a step, which keeps only y = max c_ρ
    and overstates the cost (V → (M - η₁)_+²/2): by a factor 2 at p = 2, by 1.6 at p = 100; the
    two agree only as p → ∞, where α_c(p) → 1/2 in both.

    E over η₁ is done by Gauss-Hermite quadrature; the top ``top`` order statistics of
    η₂..η_p are sampled exactly (Rényi representation), enough as long as fewer than ``top``
    competitors are active (checked; about 10-60 are for p <= 10¹²). The same base draws serve
    every p (common random numbers), so the curve α_c(p) is smooth.

    Parameters
    ----------
    p : int or array_like of int, shape (n,)
        Numbers of associations, each >= 2.
    samples : int, optional
        Monte-Carlo samples of η₂..η_p per p, >= 2.
    rng : int or numpy.random.Generator, optional
        Seed (>= 0) or generator.
    top : int, optional
        Order statistics kept, >= 2.
    nodes : int, optional
        Gauss-Hermite nodes for η₁, >= 2.

    Returns
    -------
    FinitePCapacity

    Raises
    ------
    ValueError
        If ``top`` order statistics were all active in some sample (raise ``top``).

    Examples
    --------
    p = 2 is exact: E[V] = E[(η₂ - η₁)_+²]/4 = 1/4, so α_c(2) = 2 ln 2 (the step estimate gives
    ln 2):

    >>> r = finite_p_capacity_mc(2, samples=20000, rng=0)
    >>> bool(abs(r.alpha_c[0] - 2 * np.log(2)) < 0.05), round(float(r.alpha_c_step[0]), 4)
    (True, 0.6931)
    """
    ps = _check_p_values(p, "p")
    samples = check_positive_int(samples, "samples", minimum=2)
    top = check_positive_int(top, "top", minimum=2)
    nodes = check_positive_int(nodes, "nodes", minimum=2)
    gen = as_rng(rng)
    check_size(
        samples * top,
        "samples",
        "order statistics (samples × top)",
        MAX_ELEMENTS,
        "lower samples or top",
    )
    check_size(
        _BATCH * top * nodes,
        "nodes",
        "water-filling entries per batch (128 × top × nodes)",
        MAX_ELEMENTS,
        "lower top or nodes",
    )
    z, w = _gauss_hermite(nodes)
    keep = w > 1e-14  # nodes beyond |z| ≈ 7.5 change E[V] by < 1e-11
    z, w = z[keep], w[keep] / w[keep].sum()
    spacings = gen.standard_exponential((samples, top))
    uniforms = gen.uniform(size=samples)
    cost = np.empty(ps.size)
    cost_se = np.empty(ps.size)
    for i, pv in enumerate(ps.tolist()):
        per_sample = np.empty(samples)
        for s0 in range(0, samples, _BATCH):
            rows = slice(s0, min(samples, s0 + _BATCH))
            eta = _top_order_statistics(pv - 1, top, spacings[rows], uniforms[rows])
            # the leading 65 columns almost always hold the active set; else use them all
            head = eta[:, : min(eta.shape[1], 65)]
            v, active = _waterfill_cost(_shifted(head, z))
            if head.shape[1] < eta.shape[1] and int(active.max()) >= head.shape[1] - 1:
                v, active = _waterfill_cost(_shifted(eta, z))
            if eta.shape[1] == top and int(active.max()) >= top:
                raise ValueError(f"top={top} order statistics were all active at p={pv}; raise top")
            per_sample[rows] = v.reshape(eta.shape[0], z.size) @ w
        log_p = math.log(pv)
        cost[i] = per_sample.mean() / log_p
        cost_se[i] = per_sample.std(ddof=1) / math.sqrt(samples) / log_p
    return FinitePCapacity(
        p=ps.astype(int),
        cost=cost,
        cost_stderr=cost_se,
        alpha_c=0.5 / cost,
        alpha_c_stderr=0.5 * cost_se / cost**2,
        alpha_c_step=np.array([finite_p_capacity(int(v)) for v in ps]),
        samples=samples,
    )


# ---------------------------------------------------------------------------------------------
# Private kernels
# ---------------------------------------------------------------------------------------------


def _gauss_hermite(nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Probabilists' Gauss-Hermite nodes and weights normalised to a N(0, 1) expectation."""
    z, w = hermegauss(nodes)
    return z, w / w.sum()


def _top_order_statistics(n: int, k: int, spacings: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """The min(n, k) largest of n i.i.d. N(0, 1), decreasing, one row per draw (exact in law).

    Rényi representation of uniform order statistics: with Γ_j = E_1 + ... + E_j (``spacings``,
    i.i.d. Exp(1), shape (S, k)) and Γ_{n+1} = Γ_m + Gamma(n + 1 - m), m = min(n, k) (drawn by
    inversion from ``uniforms``, shape (S,)), the j-th largest of n uniforms is 1 - Γ_j/Γ_{n+1},
    so the j-th largest normal is -Φ⁻¹(Γ_j / Γ_{n+1}). The same base draws serve every n (common
    random numbers), which makes α_c(p) smooth in p.
    """
    m = min(n, k)
    gam = np.cumsum(spacings[:, :m], axis=1)
    total = gam[:, -1:] + gammaincinv(n + 1 - m, uniforms)[:, None]
    return -ndtri(gam / total)


def _check_p_values(p: Any, name: str) -> np.ndarray:
    """One integer or a non-empty 1-D array of integers, each >= 2, as an int64 array."""
    if isinstance(p, bool | np.bool_) or p is None or isinstance(p, str | bytes):
        raise TypeError(f"{name} must be an integer or a 1-D array of integers, got {p!r}")
    ps = np.atleast_1d(np.asarray(p))
    if ps.dtype.kind not in "iu" or ps.ndim != 1 or ps.size == 0:
        raise TypeError(f"{name} must be an integer or a 1-D array of integers, got {p!r}")
    for v in ps.tolist():
        check_positive_int(v, name, minimum=2)
    return ps.astype(np.int64)


def _waterfill_cost(c: np.ndarray, width: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """V = min_y [y²/2 + ½ Σ_ρ (c_ρ - y)_+²] per row of c (rows sorted decreasing), and |A|.

    The minimiser solves y = Σ_ρ (c_ρ - y)_+: with the k largest active, y_k = S_k/(1 + k), and
    k is the unique index with c_k > y_k >= c_{k+1}. V = 0 when every c_ρ <= 0. Only the first
    ``width`` columns are examined unless some row needs more (then all are).
    """
    n_rows, n_cols = c.shape
    w = min(width, n_cols)
    k = np.arange(1, w + 1)
    y = np.cumsum(c[:, :w], axis=1) / (1.0 + k)
    if w == n_cols:
        nxt = np.concatenate([c[:, 1:], np.full((n_rows, 1), -np.inf)], axis=1)
    else:
        nxt = c[:, 1 : w + 1]
    ok = (c[:, :w] > y) & (nxt <= y)
    found = ok.any(axis=1) | (c[:, 0] <= 0.0)
    if w < n_cols and not found.all():
        return _waterfill_cost(c, width=n_cols)
    j = np.argmax(ok, axis=1)
    active = np.where(ok.any(axis=1), j + 1, 0)
    yy = np.where(active > 0, y[np.arange(n_rows), j], 0.0)
    cost = 0.5 * yy**2 + 0.5 * (np.clip(c[:, :w] - yy[:, None], 0.0, None) ** 2).sum(axis=1)
    return cost, active


def _shifted(eta: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Rows c = η_(·) - z_k for every draw and node, shape (draws * nodes, columns)."""
    return (eta[:, None, :] - z[None, :, None]).reshape(-1, eta.shape[1])
