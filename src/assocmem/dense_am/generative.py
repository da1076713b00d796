"""Generative quality of LSR vs LSE memories, Algorithm 2, and emergent digits.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*: Sec. 4.2 and Fig. 3 (right), App. C.3 and Figs. 6-7 (Gaussian-mixture experiment);
Sec. 4.3, App. C.4, Algorithm 2 and Fig. 4 (emergent memories in a latent space). Chapter note
§3.2 (T18, T19), §3.3, §4.4, §4.5, §4.6.

Notation map
------------
- Ξ = {ξ_μ}                   -> ``memories``, shape ``(M, d)``
- β                           -> ``beta``; R = sqrt(2/β) the support radius
- mixture means μ_i, k of them -> ``means``, shape ``(k, d)``; σ -> ``sigma``
- shell width δ (Sec. 4.2)    -> ``frac`` = δ / (2/β), the relative width in squared distance
- K (Algorithm 2 target)      -> ``target_k``
- B(x)                        -> strict active set {μ : ||x - ξ_μ||² < 2/β} (note §0)

Choices the paper leaves open (note P19, §4.5), stated once here:

- starts: ``n_per_memory`` points uniform (in volume) in the shell 2/β - δ <= ||x - ξ_μ||² < 2/β
  around every memory, δ = 0.05 · 2/β; the same starts seed LSR and LSE (paper footnote 2);
- LSR memories: Algorithm 1 (exact fixed points) from the starts;
- LSE memories: the step-1 update x <- softmax(-β/2 ||x - ξ||²) Ξ (gradient descent on eq. (6) with
  α = 1, i.e. Gaussian mean shift) instead of 13 000 cosine-decayed steps; same fixed points;
- log-likelihood: mean of log p over all retrieved samples (not over unique memories);
- unique: LSR distinct active index sets (exact); LSE leader clustering at radius 2/sqrt(β)
  (paper App. C.3.3);
- recovered: LSR counts ξ_μ with no other pattern within R (then ξ_μ is an exact fixed point);
  LSE counts ξ_μ whose descent from ξ_μ ends within 0.05 · 2/sqrt(β) of ξ_μ. That tolerance
  scales with the kernel width, so at β far below the paper's grid (β << 2/d) it exceeds the
  spread of the data and every ξ_μ counts as recovered; read it only on the grid β >= 2/d.

Public functions
----------------
``gmm_sample``, ``gmm_log_density``, ``shell_starts``, ``beta_search``, ``compare_lse_lsr``,
``generative_sweep``, ``digits_latent``, ``decode``, ``digits_memories``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.spatial.distance import pdist, squareform

from assocmem._validation import (
    MAX_ELEMENTS,
    MAX_STEPS,
    as_memories,
    as_points,
    as_real_array,
    as_real_vector,
    as_rng,
    check_beta,
    check_fraction,
    check_int_sequence,
    check_max_abs,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.dense_am.energy import sqdist, support_radius
from assocmem.dense_am.minima import lsr_minima
from assocmem.dense_am.retrieval import lse_descend, lsr_retrieve

__all__ = [
    "DigitsCounts",
    "DigitsLatent",
    "DigitsMemories",
    "GenerativeComparison",
    "GenerativeSweep",
    "beta_search",
    "compare_lse_lsr",
    "decode",
    "digits_latent",
    "digits_memories",
    "digits_memory_counts",
    "generative_sweep",
    "gmm_log_density",
    "gmm_sample",
    "shell_starts",
]

# Relative radius of the "recovered" test for LSE (note §3.2, T18): 0.05 of the merge radius.
_LSE_RECOVER_FRACTION = 0.05
# Largest σ of generative_sweep: the drawn patterns (means in [0, 1]^d plus σ N(0, 1) noise)
# then stay far below MAX_ABS_ENTRY, so their squared distances are finite.
_MAX_SIGMA = 1e90
# Largest per-seed β grid of generative_sweep (one LSR and one LSE run per point).
_MAX_BETA_POINTS = 10_000


@dataclass(frozen=True)
class GenerativeComparison:
    """Metrics of paper Fig. 3 (right) at one β (note §4.5).

    Attributes
    ----------
    beta : float
        Inverse temperature.
    lsr_logp, lse_logp : float
        Mean log p(x*) of the retrieved samples under the true mixture.
    lsr_unique, lse_unique : int
        Number of distinct memories reached (LSR: index sets; LSE: 2/sqrt(β) leader clusters).
    lsr_recovered, lse_recovered : int
        Number of stored patterns that are (LSR) exact minima / (LSE) kept within 0.05·2/sqrt(β).
    n_samples : int
        Number of starts N = M · n_per_memory.
    """

    beta: float
    lsr_logp: float
    lse_logp: float
    lsr_unique: int
    lse_unique: int
    lsr_recovered: int
    lse_recovered: int
    n_samples: int


@dataclass(frozen=True)
class GenerativeSweep:
    """Fig. 3 (right) / Figs. 6-7 curves: metrics against β, averaged over seeds by β index.

    Attributes
    ----------
    betas : numpy.ndarray, shape (S, n_beta)
        The β grid of every seed (it depends on r_min when built per seed, paper C.3.2).
    beta_mean : numpy.ndarray, shape (n_beta,)
        Seed-mean β per index (the x-axis of Fig. 3 right, note P23).
    seeds : tuple of int
        The seeds.
    lsr_logp, lse_logp, lsr_unique, lse_unique, lsr_recovered, lse_recovered : numpy.ndarray
        Seed means per β index, shape (n_beta,).
    lsr_logp_se, lse_logp_se, lsr_unique_se, lse_unique_se, lsr_recovered_se,
    lse_recovered_se : numpy.ndarray
        Standard errors std(ddof=1)/sqrt(S) per β index (0 for one seed).
    per_seed : tuple of tuple of GenerativeComparison
        The raw results, ``per_seed[s][j]`` for seed s and β index j.
    """

    betas: np.ndarray
    beta_mean: np.ndarray
    seeds: tuple[int, ...]
    lsr_logp: np.ndarray
    lse_logp: np.ndarray
    lsr_unique: np.ndarray
    lse_unique: np.ndarray
    lsr_recovered: np.ndarray
    lse_recovered: np.ndarray
    lsr_logp_se: np.ndarray
    lse_logp_se: np.ndarray
    lsr_unique_se: np.ndarray
    lse_unique_se: np.ndarray
    lsr_recovered_se: np.ndarray
    lse_recovered_se: np.ndarray
    per_seed: tuple[tuple[GenerativeComparison, ...], ...]


@dataclass(frozen=True)
class DigitsLatent:
    """Digits encoded by PCA: the offline stand-in for the 10-d MNIST VAE latent (note §3.3).

    Attributes
    ----------
    memories : numpy.ndarray, shape (n_images, n_components)
        PCA codes of the chosen images (the stored patterns).
    images : numpy.ndarray, shape (n_images, 8, 8)
        The original images (pixel values 0-16).
    indices : numpy.ndarray, shape (n_images,)
        Row indices into ``sklearn.datasets.load_digits()``.
    labels : numpy.ndarray, shape (n_images,)
        Digit classes.
    pca : sklearn.decomposition.PCA
        The encoder/decoder, fitted on all 1797 digits.
    """

    memories: np.ndarray
    images: np.ndarray
    indices: np.ndarray
    labels: np.ndarray
    pca: Any


@dataclass(frozen=True)
class DigitsMemories:
    """LSR and LSE memories of the digit latents at the Algorithm-2 β (paper Fig. 4 analogue).

    Attributes
    ----------
    latent : DigitsLatent
        The stored data.
    target_k : float
        Algorithm 2 target K.
    beta : float
        β from :func:`beta_search`.
    minima : list of tuple of int
        Every LSR local minimum as its sorted index set (exact, note §1.7).
    stored_retained : numpy.ndarray of bool, shape (n_images,)
        Whether ξ_μ is itself an LSR minimum (grey boxes in Fig. 4 mark the lost ones).
    emergent : list of tuple of int
        LSR minima with at least two parents (novel memories).
    emergent_images : numpy.ndarray, shape (n_emergent, 8, 8)
        Decoded centroids of the emergent minima.
    lse_memories : numpy.ndarray, shape (n_lse, n_components)
        Distinct LSE memories: descent from every ξ_μ, merged at radius 2/sqrt(β).
    lse_images : numpy.ndarray, shape (n_lse, 8, 8)
        Their decoded images.
    stored_images : numpy.ndarray, shape (n_images, 8, 8)
        Decoded stored codes (what the memory can reproduce at best).
    """

    latent: DigitsLatent
    target_k: float
    beta: float
    minima: list[tuple[int, ...]]
    stored_retained: np.ndarray
    emergent: list[tuple[int, ...]]
    emergent_images: np.ndarray
    lse_memories: np.ndarray
    lse_images: np.ndarray
    stored_images: np.ndarray

    @property
    def n_lsr_minima(self) -> int:
        """Total number of LSR memories (stored retained plus emergent)."""
        return len(self.minima)

    @property
    def n_lse_unique(self) -> int:
        """Number of distinct LSE memories."""
        return int(self.lse_memories.shape[0])


@dataclass(frozen=True)
class DigitsCounts:
    """Memory counts of :func:`digits_memories` over many random choices of the stored images.

    Attributes
    ----------
    n_lsr, n_lse, n_lost : numpy.ndarray of int, shape (n_sets,)
        Per set: every LSR minimum, the distinct LSE memories, and the stored patterns that are
        not LSR minima (the grey boxes of Fig. 4).
    n_images : int
        Stored images per set.
    target_k : float
        Algorithm 2 target K.
    """

    n_lsr: np.ndarray
    n_lse: np.ndarray
    n_lost: np.ndarray
    n_images: int
    target_k: float

    @property
    def ratio(self) -> np.ndarray:
        """LSR memories per LSE memory, one per set."""
        return self.n_lsr / self.n_lse


def gmm_sample(k: int, d: int, sigma: float, M: int, rng: Any) -> tuple[np.ndarray, np.ndarray]:
    """Draw the stored patterns of paper Sec. 4.2 from a mixture of k isotropic Gaussians.

    Notes
    -----
    p(x) = (1/k) Σ_i N(x | μ_i, σ² I_d) with μ_i ~ U([0, 1]^d) (paper Sec. 4.2, App. C.3). The
    generator draws the means first, then the component labels, then the noise.

    Parameters
    ----------
    k : int
        Number of components, >= 1.
    d : int
        Dimension, >= 1.
    sigma : float
        Component standard deviation, > 0 (paper: 0.1).
    M : int
        Number of stored patterns, >= 1 (k·d and M·d at most ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator
        Randomness.

    Returns
    -------
    memories : numpy.ndarray, shape (M, d)
        Samples ξ_μ ~ p.
    means : numpy.ndarray, shape (k, d)
        Component means μ_i.

    Examples
    --------
    >>> xi, mu = gmm_sample(10, 8, 0.1, 100, rng=0)
    >>> xi.shape, mu.shape
    ((100, 8), (10, 8))
    """
    k = check_positive_int(k, "k")
    d = check_positive_int(d, "d")
    sigma = check_beta(sigma, "sigma")
    M = check_positive_int(M, "M")
    gen = as_rng(rng)
    check_size(k * d, "k", "mean coordinates (k·d)", MAX_ELEMENTS, "use fewer components")
    check_size(M * d, "M", "pattern coordinates (M·d)", MAX_ELEMENTS, "use fewer patterns")
    means = gen.random((k, d))
    labels = gen.integers(0, k, size=M)
    memories = means[labels] + sigma * gen.standard_normal((M, d))
    return memories, means


def gmm_log_density(x: Any, means: Any, sigma: float) -> Any:
    """log p(x) of the equal-weight isotropic Gaussian mixture of paper Sec. 4.2 (note §4.5).

    Notes
    -----
    log p(x) = logsumexp_i(-||x - μ_i||² / (2σ²)) - log k - (d/2) log(2πσ²). At a mean far from
    the others the last term dominates: -(d/2) log(2πσ²) = 11.069 for d = 8, σ = 0.1 (note §4.6).
    The log-sum-exp is shifted by its largest term and log σ is used instead of σ², so the
    result is a finite number, or -inf where log p lies below the float range (a point so far
    from every mean that its squared distance overflows); never NaN.

    Parameters
    ----------
    x : array_like, shape (d,) or (B, d)
        Query point(s), finite.
    means : array_like, shape (k, d)
        Component means, finite.
    sigma : float
        Component standard deviation, finite and > 0.

    Returns
    -------
    float or array, shape (B,)
        log p(x), in the namespace of the inputs.

    Examples
    --------
    >>> round(gmm_log_density([0.0], [[0.0]], 1.0), 6)  # log N(0 | 0, 1) = -log(2 pi)/2
    -0.918939
    """
    mu = as_real_array(means, "means", ndim=2)
    sigma = check_beta(sigma, "sigma")
    xp = array_namespace(x, mu)
    X, single = as_points(x, mu.shape[1], xp=xp)
    k, d = mu.shape
    with np.errstate(over="ignore", divide="ignore"):
        # -||x - μ||² / (2σ²), divided by σ twice so that σ² cannot underflow; a point so far
        # that its squared distance overflows gets -inf, never inf - inf = NaN below
        a = -0.5 * ((sqdist(X, mu) / sigma) / sigma)
        top = xp.max(a, axis=1, keepdims=True)
        top = xp.where(xp.isfinite(top), top, 0.0)
        lse = top[:, 0] + xp.log(xp.sum(xp.exp(a - top), axis=1))
    out = lse - math.log(k) - 0.5 * d * (math.log(2.0 * math.pi) + 2.0 * math.log(sigma))
    return float(out[0]) if single else out


def shell_starts(
    memories: Any, beta: float, n_per_memory: int, rng: Any, frac: float = 0.05
) -> Any:
    """Initial points on the thin support boundary of every memory (paper Sec. 4.2, App. C.3.3).

    Notes
    -----
    The paper samples from supp[ξ_μ; δ] = {x : 2/β - δ <= ||x - ξ_μ||² < 2/β} without giving δ;
    we take δ = ``frac`` · 2/β (note §4.6, choice 0.05) and draw uniformly in volume: a direction u
    uniform on the sphere and radius R ((1 - frac)^(d/2) + t (1 - (1 - frac)^(d/2)))^(1/d) with
    t ~ U(0, 1). Any point that rounding puts on or outside the boundary is pulled just inside
    (checked in the difference form), so every start is supported by its own memory.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns.
    beta : float
        Inverse temperature, > 0.
    n_per_memory : int
        Starts per memory, >= 1 (M·n_per_memory·d at most ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator
        Randomness.
    frac : float
        Relative shell width in squared distance, in (0, 1].

    Returns
    -------
    array, shape (M * n_per_memory, d)
        Starts, memory-major: rows ``mu * n_per_memory ... (mu + 1) * n_per_memory - 1`` belong
        to memory ``mu``. In the namespace of ``memories``.

    Examples
    --------
    >>> x = shell_starts([[0.0, 0.0]], beta=2.0, n_per_memory=5, rng=0)
    >>> r2 = (x**2).sum(axis=1)
    >>> bool(((r2 >= 0.95) & (r2 < 1.0)).all())
    True
    """
    xi = as_memories(memories)
    beta = check_beta(beta)
    n = check_positive_int(n_per_memory, "n_per_memory")
    gen = as_rng(rng)
    frac = check_fraction(frac, "frac", open_hi=False)
    _check_starts_size(xi.shape, n)
    return _shell_starts(xi, beta, n, gen, frac)


def beta_search(memories: Any, target_k: float, n_max: int = 100) -> float:
    """Algorithm 2 of the paper: bisection for the β at which each pattern meets about K others.

    Notes
    -----
    With D the pairwise distances, bisect r in (0.5 min_{μ≠ν} D, 4 max D) on
    K'(r) = mean_μ Σ_ν 1[D_μν <= 2r] until K' = K or n_max steps, and return β* = 2/r²
    (paper Algorithm 2, App. C.4; note §4.4). Two support balls of radius r overlap when their
    centres are within 2r.

    Choice (note P17): K' counts the pattern itself (D_μμ = 0), as the paper's pseudo-code does,
    although its text says "~K *other* patterns". So K = 1 means isolated patterns and the paper's
    K = 4 means three neighbours on average. The exact stop K' = K rarely fires (K' is a mean of
    integers), so the loop usually runs n_max steps and r converges to the distance where K'
    crosses K; the returned β can then sit on a support-boundary tie (note P1).

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns, M >= 2, pairwise distinct, entries of magnitude <= 1e100 (M² at most
        ``MAX_ELEMENTS``).
    target_k : float
        Target K, 1 <= K <= M.
    n_max : int
        Maximum number of bisection steps, 1..``MAX_STEPS`` (paper: unspecified; default 100).

    Returns
    -------
    float
        β* = 2/r².

    Examples
    --------
    >>> b = beta_search([[0.0], [1.0], [10.0], [11.0]], target_k=2.0)
    >>> 2.0 / b > 0.25  # r with 2r >= 1: each pattern meets its partner (K' counts itself)
    True
    """
    xi = check_max_abs(to_numpy(as_memories(memories)), "memories")
    if xi.shape[0] < 2:
        raise ValueError(f"memories must hold at least 2 patterns, got shape {xi.shape}")
    check_size(
        xi.shape[0] ** 2, "memories", "pairwise distances (M²)", MAX_ELEMENTS, "use fewer patterns"
    )
    k = check_beta(target_k, "target_k")
    if not 1.0 <= k <= xi.shape[0]:
        raise ValueError(f"target_k must lie in [1, {xi.shape[0]}], got {k!r}")
    n_max = check_positive_int(n_max, "n_max", maximum=MAX_STEPS)
    dist = squareform(pdist(xi))
    off = dist[~np.eye(xi.shape[0], dtype=bool)]
    if float(off.min()) <= 0.0:
        i, j = np.argwhere((dist == 0.0) & ~np.eye(xi.shape[0], dtype=bool))[0]
        raise ValueError(
            "memories must be distinct (Algorithm 2 needs min pairwise distance > 0), but "
            f"memories[{i}] and memories[{j}] are equal"
        )
    return _beta_search(dist, 0.5 * float(off.min()), 4.0 * float(dist.max()), k, n_max)


def compare_lse_lsr(
    memories: Any,
    means: Any,
    sigma: float,
    beta: float,
    n_per_memory: int,
    rng: Any,
    lse_max_iter: int = 2000,
    lse_tol: float = 1e-8,
) -> GenerativeComparison:
    """LSR vs LSE memories from shared shell starts, scored under the true mixture (Fig. 3 right).

    Notes
    -----
    Paper Sec. 4.2: starts on the support shell of every memory (:func:`shell_starts`); LSR
    memories by Algorithm 1 (``lsr_retrieve``), LSE memories by descent on eq. (6) with step 1
    (``lse_descend``, Gaussian mean shift, same fixed points as the paper's small-step GD).
    Metrics as in note §4.5 with the choices stated in the module docstring.

    Parameters
    ----------
    memories : array_like, shape (M, d)
        Stored patterns, entries of magnitude <= 1e100 (``MAX_ABS_ENTRY``).
    means : array_like, shape (k, d)
        Mixture means (the true density).
    sigma : float
        Mixture standard deviation, > 0.
    beta : float
        Inverse temperature, > 0.
    n_per_memory : int
        Shell starts per memory, >= 1 (M·n_per_memory·d at most ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator
        Randomness for the starts.
    lse_max_iter : int
        Iteration cap of the LSE descent, 1..``MAX_STEPS`` (a ``ConvergenceWarning`` reports
        hitting it).
    lse_tol : float
        Gradient-norm tolerance of the LSE descent, > 0.

    Returns
    -------
    GenerativeComparison
        The six metrics.

    Examples
    --------
    >>> xi, mu = gmm_sample(3, 2, 0.1, 6, rng=0)
    >>> c = compare_lse_lsr(xi, mu, 0.1, beta=1e4, n_per_memory=3, rng=0)
    >>> c.lsr_unique >= c.lse_unique  # tiny supports: every memory is its own minimum
    True
    """
    xi = check_max_abs(as_memories(memories), "memories")
    mu = as_real_array(means, "means", ndim=2, xp=array_namespace(xi))
    if mu.shape[1] != xi.shape[1]:
        raise ValueError(f"means must have shape (k, {xi.shape[1]}), got shape {mu.shape}")
    sigma = check_beta(sigma, "sigma")
    beta = check_beta(beta)
    n = check_positive_int(n_per_memory, "n_per_memory")
    gen = as_rng(rng)
    max_iter = check_positive_int(lse_max_iter, "lse_max_iter", maximum=MAX_STEPS)
    tol = check_beta(lse_tol, "lse_tol")
    _check_starts_size(xi.shape, n)
    return _compare(xi, mu, sigma, beta, n, gen, max_iter, tol)


def generative_sweep(
    k: int,
    d: int,
    sigma: float,
    M: int,
    betas: int | Sequence[float],
    seeds: Sequence[int],
    n_per_memory: int,
    lse_max_iter: int = 2000,
) -> GenerativeSweep:
    """Fig. 3 (right) / Figs. 6-7: the three metrics against β, mean and SE over seeds.

    Notes
    -----
    For each seed: draw Ξ ~ p (:func:`gmm_sample`, generator seeded with the seed), then run
    :func:`compare_lse_lsr` at every β with the same generator. With an integer ``betas`` the grid
    is per seed, geometric from 2/d to 2/r_min² (paper App. C.2), and the curves are averaged by β
    index with the seed-mean β on the x-axis (paper App. C.3.2, note P23). With an explicit array
    the same grid is used for every seed. A per-seed grid needs 2/r_min² > 2/d.

    Parameters
    ----------
    k, d : int
        Components and dimension, >= 1.
    sigma : float
        Component standard deviation, in (0, 1e90] (the patterns' squared distances must stay
        finite).
    M : int
        Stored patterns per seed, >= 2.
    betas : int or sequence of float
        Number of grid points (2..10000, per-seed grid) or the β values themselves (finite,
        > 0; a non-empty 1-D sequence).
    seeds : sequence of int
        Seeds (>= 0), at least one.
    n_per_memory : int
        Shell starts per memory, >= 1 (M·n_per_memory·d at most ``MAX_ELEMENTS``).
    lse_max_iter : int
        Iteration cap of the LSE descent, 1..``MAX_STEPS``.

    Returns
    -------
    GenerativeSweep
        Means and standard errors per β index.
    """
    k = check_positive_int(k, "k")
    d = check_positive_int(d, "d")
    sigma = check_fraction(sigma, "sigma", 0.0, _MAX_SIGMA, open_hi=False)
    M = check_positive_int(M, "M", minimum=2)
    check_size(k * d, "k", "mean coordinates (k·d)", MAX_ELEMENTS, "use fewer components")
    check_size(M * M, "M", "pairwise distances (M²)", MAX_ELEMENTS, "use fewer patterns")
    grid = _check_betas(betas)
    seed_list = check_int_sequence(seeds, "seeds", minimum=0)
    n = check_positive_int(n_per_memory, "n_per_memory")
    _check_starts_size((M, d), n)
    max_iter = check_positive_int(lse_max_iter, "lse_max_iter", maximum=MAX_STEPS)
    rows, grids = [], []
    for seed in seed_list:
        gen = as_rng(seed)
        xi, mu = gmm_sample(k, d, sigma, M, gen)
        b = _seed_grid(xi, d, grid)
        grids.append(b)
        rows.append(tuple(_compare(xi, mu, sigma, float(bb), n, gen, max_iter, 1e-8) for bb in b))
    return _aggregate(np.array(grids), tuple(seed_list), tuple(rows))


def digits_latent(n_images: int = 24, n_components: int = 10, rng: Any = 0) -> DigitsLatent:
    """Encode random scikit-learn digits with PCA: the offline Fig. 4 stand-in (note §3.3).

    Notes
    -----
    The paper stores 24 MNIST images as 10-d β-VAE latents (App. C.4). Offline we use
    ``sklearn.datasets.load_digits`` (1797 images of 8×8 pixels, shipped with scikit-learn, no
    download) and ``sklearn.decomposition.PCA`` fitted on all 1797 digits; the chosen images
    are drawn without replacement with ``rng``.

    Parameters
    ----------
    n_images : int
        Number of stored images, 2 <= n_images <= 1797.
    n_components : int
        Latent dimension, 1 <= n_components <= 64.
    rng : int or numpy.random.Generator
        Randomness for choosing the images.

    Returns
    -------
    DigitsLatent
        Codes, images, indices, labels and the fitted PCA.

    Examples
    --------
    >>> lat = digits_latent(24, 10, rng=0)
    >>> lat.memories.shape, lat.images.shape
    ((24, 10), (24, 8, 8))
    """
    n_images = check_positive_int(n_images, "n_images", minimum=2, maximum=1797)
    n_components = check_positive_int(n_components, "n_components", maximum=64)
    gen = as_rng(rng)
    data, target, pca = _digits_pca(n_components)
    idx = np.sort(gen.choice(data.shape[0], size=n_images, replace=False))
    codes = pca.transform(data[idx])
    return DigitsLatent(codes, data[idx].reshape(-1, 8, 8), idx, target[idx], pca)


def decode(latent: Any, pca: Any) -> np.ndarray:
    """Decode PCA codes to 8×8 images (``pca.inverse_transform``), the Fig. 4 decoder stand-in.

    Parameters
    ----------
    latent : array_like, shape (n, n_components) or (n_components,)
        Codes (stored patterns or minima).
    pca : sklearn.decomposition.PCA
        A fitted PCA on 64-pixel digits (``DigitsLatent.pca``).

    Returns
    -------
    numpy.ndarray, shape (n, 8, 8)
        Images (pixel scale 0-16, not clipped).

    Examples
    --------
    >>> lat = digits_latent(4, 10, rng=0)
    >>> decode(lat.memories, lat.pca).shape
    (4, 8, 8)
    """
    n_comp = getattr(pca, "n_components_", None)
    if n_comp is None or getattr(pca, "components_", np.empty((0, 0))).shape[1] != 64:
        raise TypeError(f"pca must be a fitted PCA on 64-pixel digits, got {type(pca).__name__}")
    codes, _ = as_points(to_numpy(latent), int(n_comp), name="latent")
    return np.asarray(pca.inverse_transform(to_numpy(codes))).reshape(-1, 8, 8)


def digits_memories(
    n_images: int = 24,
    n_components: int = 10,
    target_k: float = 4.0,
    rng: Any = 0,
    lse_max_iter: int = 5000,
) -> DigitsMemories:
    """All LSR minima and the LSE memories of digit latents at the Algorithm-2 β (Fig. 4).

    Notes
    -----
    β comes from Algorithm 2 with target K (:func:`beta_search`; the paper uses K ≈ 4 for MNIST).
    LSR memories are every local minimum, found exactly by ``lsr_minima`` (note §1.7). LSE
    memories follow App. C.4: descend from every stored ξ_μ (here with the step-1 update of
    eq. (6)) and merge results within 2/sqrt(β) (App. C.3.3).

    Parameters
    ----------
    n_images, n_components : int
        As in :func:`digits_latent`.
    target_k : float
        Algorithm 2 target K, 1 <= K <= n_images.
    rng : int or numpy.random.Generator
        Randomness for choosing the images.
    lse_max_iter : int
        Iteration cap of the LSE descent.

    Returns
    -------
    DigitsMemories
        Minima, retained mask, decoded emergent and LSE images.
    """
    n_images = check_positive_int(n_images, "n_images", minimum=2, maximum=1797)
    n_components = check_positive_int(n_components, "n_components", maximum=64)
    target_k = check_beta(target_k, "target_k")
    if not 1.0 <= target_k <= n_images:
        raise ValueError(f"target_k must lie in [1, {n_images}], got {target_k!r}")
    gen = as_rng(rng)
    max_iter = check_positive_int(lse_max_iter, "lse_max_iter", maximum=MAX_STEPS)
    latent = digits_latent(n_images, n_components, gen)
    beta = beta_search(latent.memories, target_k)
    minima = lsr_minima(latent.memories, beta)
    singles = {m[0] for m in minima if len(m) == 1}
    retained = np.array([i in singles for i in range(latent.memories.shape[0])])
    emergent = [m for m in minima if len(m) > 1]
    centroids = np.array([latent.memories[list(m)].mean(axis=0) for m in emergent])
    emergent_images = (
        decode(centroids, latent.pca) if emergent else np.empty((0, 8, 8), dtype=float)
    )
    desc = lse_descend(latent.memories, latent.memories, beta, step=1.0, max_iter=max_iter)
    lse = _leader_representatives(to_numpy(desc.points), 2.0 / math.sqrt(beta))
    return DigitsMemories(
        latent=latent,
        target_k=float(target_k),
        beta=beta,
        minima=minima,
        stored_retained=retained,
        emergent=emergent,
        emergent_images=emergent_images,
        lse_memories=lse,
        lse_images=decode(lse, latent.pca),
        stored_images=decode(latent.memories, latent.pca),
    )


def digits_memory_counts(
    n_sets: int = 30,
    n_images: int = 24,
    n_components: int = 10,
    target_k: float = 4.0,
    rng: Any = 0,
    lse_max_iter: int = 5000,
) -> DigitsCounts:
    """Counts of :func:`digits_memories` for ``n_sets`` random choices of the stored images.

    Notes
    -----
    Sec. 4.3 of the paper reports one MNIST instance (Fig. 4): at the Algorithm-2 β, LSR has an
    order of magnitude more memories than LSE, and some stored patterns are lost. One instance of
    the digits analogue costs tens of milliseconds, so this draws many and returns the counts;
    each set is :func:`digits_memories` with the next draws of one generator.

    Parameters
    ----------
    n_sets : int
        Number of random image sets, 1 <= n_sets <= 10 000.
    n_images, n_components, target_k, lse_max_iter
        As in :func:`digits_memories`.
    rng : int or numpy.random.Generator
        Seed or generator for choosing the images of every set.

    Returns
    -------
    DigitsCounts

    Examples
    --------
    With K = 1 every ball holds only its own pattern, so nothing is lost:

    >>> c = digits_memory_counts(n_sets=2, n_images=6, n_components=4, target_k=1.0)
    >>> c.n_lost.tolist()
    [0, 0]
    """
    n_sets = check_positive_int(n_sets, "n_sets", maximum=10_000)
    gen = as_rng(rng)
    runs = [
        digits_memories(n_images, n_components, target_k, gen, lse_max_iter) for _ in range(n_sets)
    ]
    return DigitsCounts(
        n_lsr=np.array([r.n_lsr_minima for r in runs]),
        n_lse=np.array([r.n_lse_unique for r in runs]),
        n_lost=np.array([int(np.sum(~r.stored_retained)) for r in runs]),
        n_images=runs[0].latent.memories.shape[0],
        target_k=runs[0].target_k,
    )


# --------------------------------------------------------------------------------------------
# private kernels


def _shell_starts(xi: Any, beta: float, n: int, gen: np.random.Generator, frac: float) -> Any:
    """Uniform-in-volume starts in the shell (1 - frac) 2/β <= ||x - ξ||² < 2/β (Sec. 4.2)."""
    xp = array_namespace(xi)
    m, d = xi.shape
    u = gen.standard_normal((m * n, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    inner = (1.0 - frac) ** (0.5 * d)
    scale = (inner + gen.random(m * n) * (1.0 - inner)) ** (1.0 / d)
    radius = support_radius(beta)
    centre = xp.repeat(xi, n, axis=0)
    starts = centre + xp.asarray(radius * scale[:, None] * u)
    # pull rounding casualties strictly inside the support (difference form, note §0)
    for _ in range(60):
        outside = xp.sum((starts - centre) ** 2, axis=1) >= 2.0 / beta
        if not bool(xp.any(outside)):
            break
        starts[outside] = centre[outside] + (1.0 - 1e-12) * (starts[outside] - centre[outside])
    return starts


def _beta_search(dist: np.ndarray, r_lo: float, r_hi: float, k: float, n_max: int) -> float:
    """Bisection of paper Algorithm 2 on K'(r) = mean_μ #{ν : D_μν <= 2r} (self included)."""
    r = 0.5 * (r_lo + r_hi)
    for _ in range(n_max):
        k_prime = float(np.mean(np.sum(dist <= 2.0 * r, axis=1)))
        if k_prime == k:
            break
        if k_prime < k:
            r_lo = r
        else:
            r_hi = r
        r = 0.5 * (r_lo + r_hi)
    return 2.0 / (r * r)


def _leader_representatives(points: np.ndarray, radius: float) -> np.ndarray:
    """Leader clustering: scan in order; a point within ``radius`` of a leader joins it (C.3.3)."""
    leaders: list[np.ndarray] = []
    remaining = points
    while remaining.shape[0]:
        lead = remaining[0]
        leaders.append(lead)
        far = np.sum((remaining - lead) ** 2, axis=1) > radius * radius
        remaining = remaining[far]
    return np.array(leaders).reshape(-1, points.shape[1])


def _compare(
    xi: Any,
    mu: Any,
    sigma: float,
    beta: float,
    n: int,
    gen: np.random.Generator,
    max_iter: int,
    tol: float,
) -> GenerativeComparison:
    """One β of Fig. 3 right (paper Sec. 4.2; metrics of note §4.5)."""
    starts = _shell_starts(xi, beta, n, gen, 0.05)
    lsr = lsr_retrieve(starts, xi, beta)
    lse = lse_descend(starts, xi, beta, step=1.0, max_iter=max_iter, tol=tol)
    lse_self = lse_descend(xi, xi, beta, step=1.0, max_iter=max_iter, tol=tol)
    merge = 2.0 / math.sqrt(beta)
    xi_np = to_numpy(xi)
    d2 = to_numpy(sqdist(xi, xi))
    np.fill_diagonal(d2, np.inf)
    moved = np.sqrt(np.sum((to_numpy(lse_self.points) - xi_np) ** 2, axis=1))
    return GenerativeComparison(
        beta=beta,
        lsr_logp=float(np.mean(to_numpy(gmm_log_density(lsr.points, mu, sigma)))),
        lse_logp=float(np.mean(to_numpy(gmm_log_density(lse.points, mu, sigma)))),
        lsr_unique=int(np.unique(to_numpy(lsr.active), axis=0).shape[0]),
        lse_unique=int(_leader_representatives(to_numpy(lse.points), merge).shape[0]),
        lsr_recovered=int(np.sum(np.min(d2, axis=1) >= 2.0 / beta)),
        lse_recovered=int(np.sum(moved <= _LSE_RECOVER_FRACTION * merge)),
        n_samples=int(starts.shape[0]),
    )


def _check_betas(betas: Any) -> int | np.ndarray:
    """``betas`` of :func:`generative_sweep`: a grid size or a 1-D array of finite β > 0."""
    if isinstance(betas, numbers.Integral) and not isinstance(betas, bool | np.bool_):
        return check_positive_int(betas, "betas", minimum=2, maximum=_MAX_BETA_POINTS)
    if isinstance(betas, numbers.Real) and not isinstance(betas, bool | np.bool_):
        raise TypeError(f"betas must be an int >= 2 or a 1-D array of values, got {betas!r}")
    arr = as_real_vector(betas, "betas", lo=0.0, open_lo=True)
    if np.ndim(betas) != 1:
        raise ValueError(f"betas must be an int >= 2 or a 1-D array of values, got {betas!r}")
    return arr


def _check_starts_size(shape: tuple[int, ...], n: int) -> None:
    """Cap the (M·n_per_memory, d) array of shell starts."""
    check_size(
        shape[0] * n * shape[1],
        "n_per_memory",
        "start coordinates (M·n_per_memory·d)",
        MAX_ELEMENTS,
        "use fewer starts per memory",
    )


def _seed_grid(xi: np.ndarray, d: int, grid: int | np.ndarray) -> np.ndarray:
    """Per-seed geometric grid 2/d .. 2/r_min² (paper App. C.2), or the fixed grid."""
    if not isinstance(grid, int):
        return grid
    hi = 2.0 / float(np.min(pdist(xi))) ** 2
    lo = 2.0 / d
    if hi <= lo:
        raise ValueError(f"betas grid 2/d .. 2/r_min^2 is empty: 2/d = {lo!r} >= {hi!r}")
    return np.geomspace(lo, hi, grid)


def _aggregate(
    grids: np.ndarray, seeds: tuple[int, ...], rows: tuple[tuple[GenerativeComparison, ...], ...]
) -> GenerativeSweep:
    """Mean and standard error by β index across seeds (paper App. C.3.2)."""
    names = ("lsr_logp", "lse_logp", "lsr_unique", "lse_unique", "lsr_recovered", "lse_recovered")
    stats: dict[str, np.ndarray] = {}
    s = len(rows)
    for name in names:
        vals = np.array([[getattr(c, name) for c in row] for row in rows], dtype=float)
        stats[name] = vals.mean(axis=0)
        se = vals.std(axis=0, ddof=1) / math.sqrt(s) if s > 1 else np.zeros(vals.shape[1])
        stats[f"{name}_se"] = se
    return GenerativeSweep(
        betas=grids, beta_mean=grids.mean(axis=0), seeds=seeds, per_seed=rows, **stats
    )


def _digits_pca(n_components: int) -> tuple[np.ndarray, np.ndarray, Any]:
    """Load the bundled digits and fit PCA on all of them (note §3.3; no download)."""
    from sklearn.datasets import load_digits
    from sklearn.decomposition import PCA

    bunch = load_digits()
    data = np.asarray(bunch.data, dtype=float)
    pca = PCA(n_components=n_components, svd_solver="full").fit(data)
    return data, np.asarray(bunch.target), pca
