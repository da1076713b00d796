"""Data on the unit sphere for the Potts-hidden DAM: digits, a local MNIST file, synthetic teachers.

Paper: R. Thériault and D. Tantari, *Saddle hierarchy in dense associative memory* (2025),
Sec. 2.2 (teacher–student setting), Sec. 4 and App. I (MNIST, preprocessing, initialisation).

Notation map
------------
- x ∈ S^{N−1} (data layer), N = 64 for the 8×8 digits, 784 for MNIST -> rows of ``X_train`` etc.
- y ∈ {0, …, C} (class), here the digit 0–9 as given by the data set -> ``y_train``, ``y_test``
- w* ∈ R^{P*×N} (teacher memories, rows on the sphere), P*            -> ``w_star``, ``P_star``
- g*^μ = P* p*^μ (soft label of teacher unit μ, Sec. 2.2)              -> ``g_star``, shape (P*, K)
- v = β*/N (teacher signal-to-noise), κ = β* = vN (vMF concentration) -> ``v``, ``kappa``
- M = αN = ϱP*N (number of examples)                                   -> ``M``

Conventions
-----------
Preprocessing follows the authors' code for Sec. 4: each image is flattened, its own mean is
subtracted and it is divided by its Euclidean norm (the paper says only "normalised by the
Euclidean norm"; without the centring all non-negative images have large mutual cosines). An
image that is constant becomes 0/0 and is dropped (the authors' code maps NaN to 0 instead). The
train/test split of the digits is a permutation drawn from ``rng``; nothing is downloaded: the
digits ship with scikit-learn and :func:`load_mnist_local` only reads a file the reader has.

Public functions
----------------
``to_sphere``, ``load_digits_sphere`` and ``load_mnist_local`` (result ``DigitsData``),
``image_patches``,
``orthonormal_teacher``, ``hierarchical_teacher`` (result ``HierarchicalTeacher``),
``sample_teacher_data`` (result ``TeacherData``).
"""

from __future__ import annotations

import gzip
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    as_real_array,
    as_rng,
    check_int_sequence,
    check_nonneg_float,
    check_positive_int,
    check_size,
)
from assocmem.potts_dam.vmf import KAPPA_MAX, _sample_rows

__all__ = [
    "MNIST_ENV",
    "DigitsData",
    "HierarchicalTeacher",
    "TeacherData",
    "hierarchical_teacher",
    "image_patches",
    "load_digits_sphere",
    "load_mnist_local",
    "orthonormal_teacher",
    "sample_teacher_data",
    "to_sphere",
]

#: Environment variable naming a local MNIST file or folder for :func:`load_mnist_local`.
MNIST_ENV = "ASSOCMEM_MNIST"
_DIGITS_N_IMAGES = 1797  # sklearn.datasets.load_digits
_ROW_TOL = 1e-9  # rows of g* must sum to 1 within this
_IDX_NAMES = {
    "x_train": "train-images-idx3-ubyte",
    "y_train": "train-labels-idx1-ubyte",
    "x_test": "t10k-images-idx3-ubyte",
    "y_test": "t10k-labels-idx1-ubyte",
}


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DigitsData:
    """A labelled image set on the unit sphere with a train/test split.

    Attributes
    ----------
    X_train, X_test : numpy.ndarray, shape (n_train, N), (n_test, N)
        Centred, unit-norm images (rows on S^{N−1}).
    y_train, y_test : numpy.ndarray of int, shape (n_train,), (n_test,)
        Digit labels 0–9.
    idx_train, idx_test : numpy.ndarray of int
        Row indices of the images in the source data set.
    image_shape : tuple of int
        Shape of one image ((8, 8) for the digits, (28, 28) for MNIST); ``X.reshape(-1,
        *image_shape)`` gives images.
    source : str
        Where the images came from.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    idx_train: np.ndarray
    idx_test: np.ndarray
    image_shape: tuple[int, int]
    source: str

    @property
    def N(self) -> int:
        """Dimension of the data layer (pixels per image)."""
        return int(self.X_train.shape[1])

    @property
    def n_classes(self) -> int:
        """Number of classes C (labels 0..C−1 present in the training set)."""
        return int(self.y_train.max()) + 1

    @property
    def class_proportions(self) -> np.ndarray:
        """Class frequencies of the training set, shape (C,): the marginal p_q of App. I."""
        counts = np.bincount(self.y_train, minlength=self.n_classes)
        return counts / counts.sum()


@dataclass(frozen=True)
class HierarchicalTeacher:
    """Teacher patterns built as a tree: x* = normalise(Σ_level scale_level · g_node(level)).

    Attributes
    ----------
    patterns : numpy.ndarray, shape (L, N)
        The leaves, unit rows (L = product of ``branching``).
    groups : numpy.ndarray of int, shape (L, depth)
        ``groups[l, k]`` is the index of leaf l's ancestor at level k (0 = top level).
    branching : tuple of int
        Children per node at each level.
    scales : tuple of float
        Weight of each level's Gaussian direction.
    """

    patterns: np.ndarray
    groups: np.ndarray
    branching: tuple[int, ...]
    scales: tuple[float, ...]


@dataclass(frozen=True)
class TeacherData:
    """Examples drawn from a teacher DAM (Sec. 2.2): unit μ*, class y ~ g*^μ*, x ~ vMF(w*^μ*, vN).

    Attributes
    ----------
    X : numpy.ndarray, shape (M, N)
        Examples on the sphere.
    y : numpy.ndarray of int, shape (M,)
        Classes (column indices of ``g_star``; all 0 when no soft labels were given).
    unit : numpy.ndarray of int, shape (M,)
        The teacher unit μ* that generated each example.
    kappa : float
        vMF concentration κ = β* = vN.
    """

    X: np.ndarray
    y: np.ndarray
    unit: np.ndarray
    kappa: float


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def to_sphere(X: Any) -> tuple[np.ndarray, np.ndarray]:
    """Centre each row on its own mean and scale it to unit norm; drop constant rows.

    Notes
    -----
    The preprocessing of Thériault & Tantari 2025, Sec. 4, as in the authors' code: pixels
    are flattened, the per-image mean is subtracted and each image is divided by its L2 norm.
    A constant row has zero norm after centring; it is dropped (``keep`` is False there); at
    least one row must survive.

    Parameters
    ----------
    X : array_like, shape (n, ...)
        Images or vectors (each row is flattened); n >= 1, at least 2 values per row.

    Returns
    -------
    X_sphere : numpy.ndarray, shape (n_kept, N)
        Unit-norm, zero-mean rows.
    keep : numpy.ndarray of bool, shape (n,)
        Which input rows were kept.

    Examples
    --------
    >>> Xs, keep = to_sphere([[0.0, 1.0], [2.0, 2.0]])
    >>> Xs.round(6).tolist(), keep.tolist()
    ([[-0.707107, 0.707107]], [True, False])
    """
    arr = as_real_array(X, "X", xp=np)
    if arr.ndim < 2 or arr.shape[0] < 1 or math.prod(arr.shape[1:]) < 2:
        raise ValueError(f"X must have shape (n, N) with n >= 1 and N >= 2, got {arr.shape}")
    return _centre_normalise(arr.reshape(arr.shape[0], -1), "X")


def load_digits_sphere(rng: Any = 123, test_size: Any = 597) -> DigitsData:
    """scikit-learn's bundled 8×8 digits on S^63, split at random into train and test.

    Notes
    -----
    The offline stand-in for the MNIST experiments of Thériault & Tantari 2025, Sec. 4:
    ``sklearn.datasets.load_digits`` (1797 images, gray levels 0–16, 10 balanced classes; no
    download), preprocessed by :func:`to_sphere`. The split is a permutation drawn from
    ``rng``; the default (seed 123, 597 test images) is the 1200/597 split of our reference
    measurements.

    Parameters
    ----------
    rng : int or numpy.random.Generator
        Seed or generator for the split.
    test_size : int or float
        Number of test images (1..1796) or a fraction in (0, 1).

    Returns
    -------
    DigitsData
        N = 64, labels 0–9, ``image_shape`` (8, 8).

    Examples
    --------
    >>> d = load_digits_sphere()
    >>> d.X_train.shape, d.X_test.shape
    ((1200, 64), (597, 64))
    """
    from sklearn.datasets import load_digits

    n_test = _check_test_size(test_size, _DIGITS_N_IMAGES)
    gen = as_rng(rng)
    bunch = load_digits()
    X, keep = to_sphere(np.asarray(bunch.data, dtype=np.float64))
    y = np.asarray(bunch.target, dtype=np.int64)[keep]
    idx = np.flatnonzero(keep)
    perm = gen.permutation(X.shape[0])
    test, train = np.sort(perm[:n_test]), np.sort(perm[n_test:])
    return DigitsData(
        X[train], y[train], X[test], y[test], idx[train], idx[test], (8, 8), "sklearn digits"
    )


def load_mnist_local(path: Any = None) -> DigitsData:
    """Read MNIST from a local file on the reader's machine (never downloads), on S^783.

    Notes
    -----
    Thériault & Tantari 2025 train on MNIST (60 000 training and 10 000 test images of 28×28
    pixels). Two layouts are read: a ``.npz`` with arrays ``x_train``, ``y_train``,
    ``x_test``, ``y_test`` (Keras's ``mnist.npz``), or a folder with the four IDX files
    (``train-images-idx3-ubyte`` …, optionally ``.gz``). The images go through
    :func:`to_sphere`; the split is MNIST's own.

    Parameters
    ----------
    path : str, os.PathLike or None
        The file or folder; None reads the environment variable ``ASSOCMEM_MNIST``.

    Returns
    -------
    DigitsData
        N = 784, ``image_shape`` (28, 28) (or the shape stored in the file).

    Raises
    ------
    ValueError
        If the path is not given and the variable is unset, or it does not exist, or the file
        lacks the arrays.
    """
    where = _mnist_path(path)
    arrays = _read_npz(where) if where.is_file() else _read_idx_folder(where)
    x_tr, y_tr, x_te, y_te = (arrays[k] for k in ("x_train", "y_train", "x_test", "y_test"))
    if x_tr.ndim < 2 or x_te.shape[1:] != x_tr.shape[1:] or len(x_tr) != len(y_tr):
        raise ValueError(f"path = {str(where)!r}: image arrays have inconsistent shapes")
    if len(x_te) != len(y_te):
        raise ValueError(f"path = {str(where)!r}: x_test and y_test differ in length")
    real = all(a.dtype.kind in "iuf" and np.isfinite(a).all() for a in (x_tr, x_te))
    if not real or x_tr.shape[0] < 1:
        raise ValueError(f"path = {str(where)!r}: the images must be non-empty finite real arrays")
    Xtr, ktr = _centre_normalise(x_tr.reshape(len(x_tr), -1).astype(np.float64), "path")
    Xte, kte = _centre_normalise(x_te.reshape(len(x_te), -1).astype(np.float64), "path")
    return DigitsData(
        Xtr,
        np.asarray(y_tr, dtype=np.int64)[ktr],
        Xte,
        np.asarray(y_te, dtype=np.int64)[kte],
        np.flatnonzero(ktr),
        np.flatnonzero(kte),
        _image_shape(x_tr.shape[1:]),
        f"MNIST ({where})",
    )


def image_patches(images: Any, size: int = 4, stride: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Square patches of images, each centred and normalised, for unsupervised training.

    Notes
    -----
    Thériault & Tantari 2025 (Sec. 4.2, Fig. 4) train the unsupervised DAM (Eq. 15) on 6×6
    patches of MNIST; the authors' code takes them with stride 2 and no padding (144 per
    28×28 image). On the 8×8 digits, 4×4 patches with stride 2 give 9 per image (N = 16).
    Each patch goes through :func:`to_sphere`, so constant (blank) patches are dropped; the
    result does not change if the images were centred or scaled first.

    Parameters
    ----------
    images : array_like, shape (n, h, w)
        Images, n >= 1.
    size : int
        Side of a patch, 2 <= size <= min(h, w).
    stride : int
        Step between patches, >= 1.

    Returns
    -------
    patches : numpy.ndarray, shape (n_kept, size²)
        Unit-norm, zero-mean patches, image by image, row-major within an image.
    image : numpy.ndarray of int, shape (n_kept,)
        Index of the image each patch comes from.

    Examples
    --------
    >>> d = load_digits_sphere()
    >>> X, img = image_patches(d.X_train.reshape(-1, 8, 8))
    >>> X.shape[1], int(np.bincount(img).max())
    (16, 9)
    """
    arr = as_real_array(images, "images", ndim=3, xp=np)
    n, h, w = arr.shape
    size = check_positive_int(size, "size", minimum=2)
    if size > min(h, w):
        raise ValueError(f"size must be <= the image side min(h, w) = {min(h, w)}, got {size}")
    stride = check_positive_int(stride, "stride", maximum=max(h, w))
    per_image = ((h - size) // stride + 1) * ((w - size) // stride + 1)
    check_size(n * per_image * size * size, "images", "patch values", MAX_ELEMENTS, "use fewer")
    windows = np.lib.stride_tricks.sliding_window_view(arr, (size, size), axis=(1, 2))
    flat = windows[:, ::stride, ::stride].reshape(n * per_image, size * size)
    patches, keep = _centre_normalise(flat, "images")
    return patches, np.repeat(np.arange(n), per_image)[keep]


def orthonormal_teacher(N: int, P_star: int, rng: Any = 0) -> np.ndarray:
    """P* orthonormal teacher memories, uniformly (Haar) oriented in R^N.

    Notes
    -----
    The orthonormal teacher of our checks of Eq. 9 (Thériault & Tantari 2025): m*ᵀm* = I, for
    which the first split happens at β_eff = √(P* + 2/ϱ). The rows are the Q factor of a
    Gaussian N × P* matrix with the signs fixed by diag(R) (Haar measure on the Stiefel
    manifold).

    Parameters
    ----------
    N : int
        Dimension, >= 2.
    P_star : int
        Number of teacher units, 1 <= P* <= N.
    rng : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    numpy.ndarray, shape (P_star, N)
        Orthonormal rows.

    Examples
    --------
    >>> w = orthonormal_teacher(10, 3, rng=0)
    >>> bool(np.allclose(w @ w.T, np.eye(3)))
    True
    """
    N = check_positive_int(N, "N", minimum=2)
    P_star = check_positive_int(P_star, "P_star", maximum=N)
    check_size(N * P_star, "N", "teacher entries (N·P*)", MAX_ELEMENTS, "use a smaller N or P*")
    gen = as_rng(rng)
    q, r = np.linalg.qr(gen.standard_normal((N, P_star)))
    signs = np.where(np.diag(r) < 0, -1.0, 1.0)
    return np.ascontiguousarray((q * signs).T)


def hierarchical_teacher(
    N: int,
    branching: Any = (2, 2, 3),
    scales: Any = (1.0, 0.7, 0.5),
    rng: Any = 5,
) -> HierarchicalTeacher:
    """Teacher patterns with a multi-level cluster tree (super-groups, sub-groups, leaves).

    Notes
    -----
    Each node of the tree at level k gets its own Gaussian direction g (entries N(0, 1/N),
    drawn level by level with ``rng``); leaf l is x*_l = normalise(Σ_k scales[k] g_{k, a_k(l)})
    with a_k(l) its ancestor at level k. Every subtree is then a cluster whose patterns split
    off from one another at its own β_split (Thériault & Tantari 2025, App. G; the general
    threshold R̄/λ_max(P⊥M₂P⊥) is in :mod:`assocmem.potts_dam.saddle`). The defaults are our
    check D12: N = 60, 2 super-groups × 2 sub-groups × 3 leaves, x* = normalise(1.0 c + 0.7 s +
    0.5 ℓ), seed 5.

    Parameters
    ----------
    N : int
        Dimension, >= 2.
    branching : sequence of int
        Children per node at each level, each >= 1 (1 to 6 levels); at most 10 000 leaves.
    scales : sequence of float
        One weight per level, each finite and >= 0, not all 0.
    rng : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    HierarchicalTeacher
        Patterns (L, N) and each leaf's ancestors.

    Examples
    --------
    >>> t = hierarchical_teacher(60)
    >>> t.patterns.shape, t.groups[:4].tolist()
    ((12, 60), [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 3]])
    """
    N = check_positive_int(N, "N", minimum=2)
    levels = _check_branching(branching)
    weights = _check_scales(scales, len(levels))
    L = math.prod(levels)
    check_size(2 * L * N, "N", "tree directions (≈ 2·L·N)", MAX_ELEMENTS, "use a smaller N")
    gen = as_rng(rng)
    leaf = np.arange(L)
    groups = np.empty((L, len(levels)), dtype=np.int64)
    total = np.zeros((L, N))
    for k, w in enumerate(weights):
        nodes = math.prod(levels[: k + 1])
        g = gen.standard_normal((nodes, N)) / math.sqrt(N)
        groups[:, k] = leaf // math.prod(levels[k + 1 :])
        total += w * g[groups[:, k]]
    norm = np.linalg.norm(total, axis=1, keepdims=True)
    return HierarchicalTeacher(total / norm, groups, tuple(levels), tuple(weights))


def sample_teacher_data(
    w_star: Any, v: float, M: int, rng: Any = 0, g_star: Any = None
) -> TeacherData:
    """Draw M examples from a teacher DAM (Thériault & Tantari 2025, Sec. 2.2).

    Notes
    -----
    The teacher has no outside unit (p*_h(0) = 0) and equal units (p*_h(μ) = 1/P*): each
    example picks μ* uniformly in {1..P*}, its class y from the soft label g*^μ*, and
    x ~ vMF(w*^μ*, κ = β* = vN) (Eq. 3 read generatively). For large N the overlap x·w*^μ*
    concentrates at ς(2v) (:func:`assocmem.potts_dam.vmf.varsigma`); the draws are those of
    :func:`assocmem.potts_dam.vmf.sample_vmf`. M = ϱ P* N examples give
    the load ϱ of Eqs. 9-10.

    Parameters
    ----------
    w_star : array_like, shape (P_star, N)
        Teacher memories (non-zero rows; each is normalised), N >= 2.
    v : float
        Signal-to-noise β*/N, >= 0 (0: uniform examples), with vN <= 1e15.
    M : int
        Number of examples, >= 1 (M·N at most ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator
        Seed or generator.
    g_star : array_like, shape (P_star, K), optional
        Soft labels: row μ is the law of y given unit μ (non-negative, sums to 1). None: C = 0,
        every y is 0.

    Returns
    -------
    TeacherData
        Examples, classes, generating units and κ.

    Examples
    --------
    >>> w = orthonormal_teacher(200, 2, rng=0)
    >>> data = sample_teacher_data(w, 1.0, 400, rng=1)
    >>> data.X.shape, round(float(np.mean(np.sum(data.X * w[data.unit], axis=1))), 2)
    ((400, 200), 0.62)
    """
    w = _check_teacher(w_star)
    P_star, N = w.shape
    v = check_nonneg_float(v, "v")
    kappa = v * N
    if kappa > KAPPA_MAX:
        raise ValueError(f"v must make κ = vN <= {KAPPA_MAX:g}, got v = {v!r} (κ = {kappa:.3g})")
    M = check_positive_int(M, "M")
    check_size(M * N, "M", "example coordinates (M·N)", MAX_ELEMENTS, "draw fewer examples")
    g = None if g_star is None else _check_soft_labels(g_star, P_star)
    gen = as_rng(rng)
    unit = gen.integers(0, P_star, size=M)
    y = np.zeros(M, dtype=np.int64)
    if g is not None:
        cdf = np.cumsum(g, axis=1)
        u = gen.random(M)
        y = np.minimum((u[:, None] >= cdf[unit]).sum(axis=1), g.shape[1] - 1)
    X = _sample_rows(w[unit], kappa, gen)
    return TeacherData(X, y.astype(np.int64), unit.astype(np.int64), float(kappa))


# --------------------------------------------------------------------------------------------
# Private helpers
# --------------------------------------------------------------------------------------------


def _centre_normalise(flat: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows minus their mean, over their norm; constant rows dropped (Sec. 4 preprocessing)."""
    flat = flat / np.abs(flat).max(axis=1, keepdims=True).clip(min=np.finfo(float).tiny)
    centred = flat - flat.mean(axis=1, keepdims=True)
    norm = np.linalg.norm(centred, axis=1)
    keep = norm > 1e-12 * np.sqrt(flat.shape[1])
    if not bool(keep.any()):
        raise ValueError(f"{name} must hold at least one non-constant row or patch, all are flat")
    return centred[keep] / norm[keep, None], keep


def _check_test_size(test_size: Any, n: int) -> int:
    """The number of test rows from an int count (1..n−1) or a fraction in (0, 1)."""
    if isinstance(test_size, bool | np.bool_):
        raise TypeError(f"test_size must be an int or a float, got {test_size!r}")
    if isinstance(test_size, int | np.integer):
        return check_positive_int(test_size, "test_size", maximum=n - 1)
    if isinstance(test_size, float | np.floating):
        if not 0.0 < float(test_size) < 1.0:
            raise ValueError(f"test_size must be a fraction in (0, 1), got {test_size!r}")
        return min(max(1, round(float(test_size) * n)), n - 1)
    raise TypeError(
        f"test_size must be an int or a float, got {test_size!r} of type {type(test_size).__name__}"
    )


def _check_branching(branching: Any) -> list[int]:
    levels = check_int_sequence(branching, "branching", minimum=1)
    if len(levels) > 6 or math.prod(levels) > 10_000:
        raise ValueError(
            f"branching must have 1 to 6 levels and at most 10000 leaves, got {list(levels)}"
        )
    return levels


def _check_scales(scales: Any, depth: int) -> list[float]:
    arr = as_real_array(scales, "scales", ndim=1, xp=np)
    if arr.shape[0] != depth:
        raise ValueError(f"scales must hold one weight per level ({depth}), got {arr.shape[0]}")
    if bool(np.any(arr < 0)) or not bool(np.any(arr > 0)) or float(arr.max()) > 1e100:
        raise ValueError(f"scales must be in [0, 1e100] and not all 0, got {arr.tolist()}")
    return [float(s) for s in arr]


def _check_teacher(w_star: Any) -> np.ndarray:
    w = as_real_array(w_star, "w_star", ndim=2, xp=np)
    if w.shape[0] < 1 or w.shape[1] < 2:
        raise ValueError(f"w_star must have shape (P_star, N) with N >= 2, got {w.shape}")
    scale = np.abs(w).max(axis=1, keepdims=True)
    if bool(np.any(scale == 0)):
        raise ValueError("w_star must have non-zero rows (teacher memories), got a zero row")
    w = w / scale
    return w / np.linalg.norm(w, axis=1, keepdims=True)


def _check_soft_labels(g_star: Any, P_star: int) -> np.ndarray:
    g = as_real_array(g_star, "g_star", ndim=2, xp=np)
    if g.shape[0] != P_star:
        raise ValueError(f"g_star must have shape ({P_star}, K) (one row per unit), got {g.shape}")
    if bool(np.any(g < 0)) or bool(np.any(np.abs(g.sum(axis=1) - 1.0) > _ROW_TOL)):
        raise ValueError("g_star must have non-negative rows that sum to 1 (laws of y given μ)")
    return g / g.sum(axis=1, keepdims=True)


def _image_shape(dims: tuple[int, ...]) -> tuple[int, int]:
    """The 2-D shape of one image: as stored, or square when stored flat, else (N, 1)."""
    if len(dims) == 2:
        return int(dims[0]), int(dims[1])
    n = int(math.prod(dims))
    side = math.isqrt(n)
    return (side, side) if side * side == n else (n, 1)


def _mnist_path(path: Any) -> Path:
    if path is None:
        env = os.environ.get(MNIST_ENV)
        if not env:
            raise ValueError(
                f"path must name a local MNIST file or folder (or set {MNIST_ENV}); got None "
                "and the variable is unset. Nothing is downloaded."
            )
        path = env
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or a path, got {path!r} of type {type(path).__name__}")
    where = Path(path)
    if not where.exists():
        raise ValueError(f"path must name an existing MNIST file or folder, got {str(where)!r}")
    return where


def _read_npz(where: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(where, allow_pickle=False) as f:
            return {k: np.asarray(f[k]) for k in _IDX_NAMES}
    except (OSError, ValueError, KeyError) as err:
        raise ValueError(
            f"path = {str(where)!r} is not an .npz with x_train, y_train, x_test, y_test: {err}"
        ) from err


def _read_idx_folder(where: Path) -> dict[str, np.ndarray]:
    out = {}
    for key, stem in _IDX_NAMES.items():
        found = [p for p in (where / stem, where / f"{stem}.gz") if p.is_file()]
        if not found:
            raise ValueError(f"path = {str(where)!r} lacks the MNIST file {stem} (or {stem}.gz)")
        out[key] = _read_idx(found[0])
    return out


def _read_idx(file: Path) -> np.ndarray:
    """One IDX file (big-endian header: magic 0x0000 0x08 ndim, then the sizes; uint8 data)."""
    opener = gzip.open if file.suffix == ".gz" else open
    with opener(file, "rb") as f:
        raw = f.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] != 8:
        raise ValueError(f"path: {str(file)!r} is not an IDX file of unsigned bytes")
    ndim = raw[3]
    dims = np.frombuffer(raw, dtype=">u4", count=ndim, offset=4).astype(np.int64)
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim)
    if data.size != int(np.prod(dims)):
        raise ValueError(f"path: {str(file)!r} holds {data.size} bytes, header says {dims}")
    return data.reshape(tuple(int(d) for d in dims))
