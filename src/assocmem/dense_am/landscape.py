"""Energy landscapes, separation functions and the Theorem 1 experiment, for figures and widgets.

Paper: Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy* (Fig. 1, Fig. 2, eq. (3), Thm 1, Alg. 1). "note §" refers to the chapter note
``shared/notes/05-epanechnikov-dense-am.md``. Every function here is a pure computation whose
result a plotting function in :mod:`assocmem.explore.epanechnikov.landscapes` draws; the static book
figure, the live widget and the tests all call the same function.

Notation map
------------
======================  =========================  ==============================================
paper                   code                       meaning
======================  =========================  ==============================================
Ξ = {ξ_μ}               ``memories``, (M, d)       stored patterns
β                       ``beta``                   inverse temperature, > 0
ϵ (eq. 3)               ``eps``                    floor inside the LSR log, >= 0
√(2/β)                  ``radius``                 support radius R of every LSR ball
B(x)                    ``n_active`` (its size)    strict active set {μ : ‖x − ξ_μ‖² < 2/β}
K (index set)           ``minima[k]``              a self-consistent subset, B(ξ̄_K) = K
r, Δ (Thm 1)            ``r``, ``delta``           min pairwise distance, basin radius
S = −½‖x − x'‖²         ``s``                      similarity (Fig. 2 abscissa)
======================  =========================  ==============================================

LSR minima are always the *exact* set of self-consistent centroids from
:func:`~assocmem.dense_am.lsr_minima` (note §1.7), identified by their index sets; a minimum is
*stored* if its index set is a singleton and *emergent* otherwise.

Public functions
----------------
preset_memories, random_memories, landscape_1d, lse_minima_1d, landscape_2d, lsr_minima_2d,
count_curve,
minima_counts_1d, separation_curves, thm1_experiment, thm1_sweep.
alg1_descent_check, lse_stored_gradient_log10.
Result types: Landscape1D, Landscape2D, CountCurve, MinimaCounts1D, SeparationCurves, Thm1Result,
Thm1Sweep, Alg1Check. Preset names: PRESETS_1D, PRESETS_2D.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ABS_ENTRY,
    MAX_ELEMENTS,
    MAX_STEPS,
    as_memories,
    as_points,
    as_real_array,
    as_real_vector,
    as_rng,
    check_beta,
    check_bool,
    check_finite_float,
    check_fraction,
    check_nonneg_float,
    check_option,
    check_positive_int,
    check_size,
)
from assocmem.backend import array_namespace, to_numpy
from assocmem.dense_am.energy import (
    _centroid_energy,
    _lse_energy,
    _lse_grad,
    _lsr_energy,
    _lsr_parts,
    _safe_divide,
    _sqdist,
)
from assocmem.dense_am.minima import lsr_minima
from assocmem.dense_am.retrieval import (
    _algorithm1,
    _dedupe_minima,
    _lse_descend_checked,
    _thm1_beta,
)

__all__ = [
    "PRESETS_1D",
    "PRESETS_2D",
    "Alg1Check",
    "CountCurve",
    "Landscape1D",
    "Landscape2D",
    "MinimaCounts1D",
    "SeparationCurves",
    "Thm1Result",
    "Thm1Sweep",
    "alg1_descent_check",
    "count_curve",
    "landscape_1d",
    "landscape_2d",
    "lse_minima_1d",
    "lse_stored_gradient_log10",
    "lsr_minima_2d",
    "minima_counts_1d",
    "preset_memories",
    "random_memories",
    "separation_curves",
    "thm1_experiment",
    "thm1_sweep",
]

#: Named 1-D memory sets (shape (M, 1)) for the 1-D landscape widget.
PRESETS_1D: tuple[str, ...] = ("two points", "three points", "five points", "six random")
#: Named 2-D memory sets (shape (M, 2)) for the 2-D landscape widget.
PRESETS_2D: tuple[str, ...] = (
    "two points",
    "triangle",
    "square",
    "random 10",
    "random 25",
    "random 50",
)

# Relative width of the band around a support circle inside which the 2-D arrangement
# enumeration treats a memory as possibly on either side (rounding of intersection points).
_TIE_RTOL = 1e-9
# Relative tolerance of "one Thm-1 step lands on ξ_μ": the step is computed literally as
# x − η∇E, which agrees with ξ_μ to rounding only (see retrieval.lsr_one_step).
_ONE_STEP_RTOL = 1e-12


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


class _StoredAndEmergent:
    """Split of a result's LSR minima (index sets in ``self.minima``) into stored and emergent."""

    minima: tuple[tuple[int, ...], ...]

    @property
    def is_stored(self) -> np.ndarray:
        """Whether each LSR minimum is a stored pattern (a singleton index set)."""
        return np.array([len(k) == 1 for k in self.minima], dtype=bool)

    @property
    def n_stored(self) -> int:
        """Number of stored patterns that are LSR minima."""
        return int(self.is_stored.sum())

    @property
    def n_emergent(self) -> int:
        """Number of emergent LSR minima (index sets of size >= 2)."""
        return len(self.minima) - self.n_stored


@dataclass(frozen=True)
class Landscape1D(_StoredAndEmergent):
    """A 1-D LSE and LSR landscape on a grid with its exact minima (Fig. 1 left).

    Attributes
    ----------
    memories : array, shape (M, 1)
        Stored patterns.
    beta, eps, radius : float
        Inverse temperature, LSR floor ϵ and support radius R = √(2/β).
    x : array, shape (n,)
        Grid.
    lse_energy, lsr_energy : array, shape (n,)
        E_LSE and E_LSR (paper eq. (3)); E_LSR is +inf off the support when ``eps == 0``.
    lse_density, lsr_density : array, shape (n,)
        exp(−β E): Σ_μ exp(−β/2 (x − ξ_μ)²) and ϵ + Σ_μ ReLU(1 − β/2 (x − ξ_μ)²) (note §1.2).
    supported : array of bool, shape (n,)
        Grid points inside some support ball (|B(x)| >= 1).
    minima : tuple of tuple of int
        Index sets K of all LSR minima (exact, note §1.7), sorted.
    lsr_points, lsr_energies : array, shape (K,)
        Centroids ξ̄_K and their energies (closed form, note §1.4).
    lse_points, lse_energies : array, shape (L,)
        LSE minima from :func:`lse_minima_1d` and their energies.
    """

    memories: Any
    beta: float
    eps: float
    radius: float
    x: Any
    lse_energy: Any
    lsr_energy: Any
    lse_density: Any
    lsr_density: Any
    supported: Any
    minima: tuple[tuple[int, ...], ...]
    lsr_points: Any
    lsr_energies: Any
    lse_points: Any
    lse_energies: Any

    @property
    def n_lse(self) -> int:
        """Number of LSE minima."""
        return int(self.lse_points.shape[0])


@dataclass(frozen=True)
class Landscape2D(_StoredAndEmergent):
    """A 2-D LSR landscape on a grid with its exact minima (Fig. 1 right).

    Attributes
    ----------
    memories : array, shape (M, 2)
        Stored patterns.
    beta, radius : float
        Inverse temperature and support radius R = √(2/β).
    xs, ys : array, shape (nx,), (ny,)
        Grid axes; ``energy[i, j]`` is at (xs[j], ys[i]).
    energy : array, shape (ny, nx)
        E_LSR with ϵ = 0 (paper eq. (3)): +inf off the support.
    n_active : array of int, shape (ny, nx)
        |B(x)|, the number of support balls containing each grid point (the cell arrangement).
    minima : tuple of tuple of int
        Index sets K of all LSR minima (exact, note §1.7), sorted.
    centroids : array, shape (K, 2)
        The minima ξ̄_K.
    minima_energy : array, shape (K,)
        E_LSR(ξ̄_K) from the closed form of note §1.4.
    starts : array, shape (S, 2)
        Start points of the Algorithm-1 trajectories (S may be 0).
    trajectories : tuple of arrays, each (T, 2)
        Algorithm-1 iterates from each start (the start first).
    """

    memories: Any
    beta: float
    radius: float
    xs: Any
    ys: Any
    energy: Any
    n_active: Any
    minima: tuple[tuple[int, ...], ...]
    centroids: Any
    minima_energy: Any
    starts: Any
    trajectories: tuple[Any, ...]

    @property
    def supported_fraction(self) -> float:
        """Fraction of grid points inside the support (finite energy)."""
        return float(np.mean(to_numpy(self.n_active) > 0))


@dataclass(frozen=True)
class CountCurve:
    """Numbers of LSR and LSE minima of one memory set along a β grid.

    Attributes
    ----------
    betas : array, shape (n,)
        The β grid.
    n_lsr, n_stored, n_emergent : array of int, shape (n,)
        All LSR minima, stored patterns among them, emergent ones (exact, note §1.7).
    n_lse : array of int, shape (n,)
        LSE minima (1-D: :func:`lse_minima_1d`; d >= 2: distinct minima of multistart descent).
    M : int
        Number of memories.
    """

    betas: Any
    n_lsr: Any
    n_stored: Any
    n_emergent: Any
    n_lse: Any
    M: int


@dataclass(frozen=True)
class MinimaCounts1D:
    """LSE and LSR minimum counts for many random 1-D memory sets (note §2.9 item 4, T9).

    Attributes
    ----------
    betas : array, shape (n_beta,)
        The β grid.
    lse, lsr : array of int, shape (n_sets, n_beta)
        Numbers of LSE and LSR minima per memory set and β.
    M : int
        Memories per set.
    """

    betas: Any
    lse: Any
    lsr: Any
    M: int

    @property
    def max_lse_ratio(self) -> float:
        """Largest LSE count divided by M (at most 1 in 1-D)."""
        return float(np.max(self.lse)) / self.M

    @property
    def max_lsr_ratio(self) -> float:
        """Largest LSR count divided by M."""
        return float(np.max(self.lsr)) / self.M


@dataclass(frozen=True)
class SeparationCurves:
    """Separation functions F(β s) of LSE and LSR (paper Fig. 2, eq. (1)).

    Attributes
    ----------
    betas : array, shape (n_beta,)
        Inverse temperatures.
    kind : str
        ``"lse"``, ``"lsr"`` or ``"both"``.
    s : array, shape (n,)
        Similarity values S = −½‖x − x'‖² from ``s_min`` to 0, increasing: half of them equally
        spaced in s and half equally spaced in the distance √(−2s), so that the curves are
        smooth on both axes.
    distance : array, shape (n,)
        ‖x − x'‖ = √(−2s) for the same points.
    lse, lsr : array, shape (n_beta, n), or None
        exp(β s) and ReLU(1 + β s) (None when not requested).
    radius : array, shape (n_beta,)
        Support radius R = √(2/β), where the ReLU reaches zero.
    """

    betas: Any
    kind: str
    s: Any
    distance: Any
    lse: Any
    lsr: Any
    radius: Any


@dataclass(frozen=True)
class Alg1Check:
    """Energies along Algorithm 1 from many starts (:func:`alg1_descent_check`).

    Attributes
    ----------
    n_iter : array of int, shape (S,)
        Centroid updates until the active set stopped changing.
    max_increase : float
        Largest increase of E_LSR between consecutive iterates over all starts (<= 0 up to
        rounding if the monotonicity lemma holds).
    energy_start, energy_end : array, shape (S,)
        E_LSR at the start and at the fixed point.
    self_consistent : array of bool, shape (S,)
        The end point's active set K satisfies B(ξ̄_K) = K (it is an exact minimum).
    """

    n_iter: Any
    max_increase: float
    energy_start: Any
    energy_end: Any
    self_consistent: Any


@dataclass(frozen=True)
class Thm1Result:
    """Theorem 1 experiment: uniform starts in every basin S_μ(Δ), at β = 2/(r − Δ)².

    Attributes
    ----------
    memories : array, shape (M, d)
        Stored patterns.
    delta_over_r : float
        Δ/r in (0, 1).
    r, delta, beta, radius : float
        Minimum pairwise distance, basin radius Δ, β = 2/(r − Δ)² and R = r − Δ.
    starts : array, shape (M * n_per_basin, d)
        Start points, uniform in the balls of radius Δ around each memory.
    basin : array of int, shape (M * n_per_basin,)
        The memory μ whose basin each start was drawn from.
    alg1_points : array, shape (M * n_per_basin, d)
        End points of Algorithm 1.
    retrieved : array of bool, shape (M * n_per_basin,)
        Algorithm 1 ended exactly (bit for bit) on ξ_μ.
    one_step_retrieved : array of bool, shape (M * n_per_basin,)
        One GD step with Thm 1's η lands on ξ_μ (to relative rounding 1e-12).
    supported : array of bool, shape (M * n_per_basin,)
        The start lies inside some support ball.
    n_iter : array of int, shape (M * n_per_basin,)
        Centroid updates of Algorithm 1 (1 for every retrieved start that is not the memory
        itself, 0 for unsupported starts).
    predicted : float
        Fraction predicted by the corrected theorem (note §2.2): 1 for Δ <= r/2, else
        ((r − Δ)/Δ)^d.
    """

    memories: Any
    delta_over_r: float
    r: float
    delta: float
    beta: float
    radius: float
    starts: Any
    basin: Any
    alg1_points: Any
    retrieved: Any
    one_step_retrieved: Any
    supported: Any
    n_iter: Any
    predicted: float

    @property
    def fraction(self) -> float:
        """Fraction of starts retrieved exactly by Algorithm 1."""
        return float(np.mean(to_numpy(self.retrieved)))

    @property
    def fraction_one_step(self) -> float:
        """Fraction of starts retrieved by one Thm-1 gradient step."""
        return float(np.mean(to_numpy(self.one_step_retrieved)))

    @property
    def paper_fraction(self) -> float:
        """Fraction the theorem as printed claims: 1 for every Δ in (0, r)."""
        return 1.0


@dataclass(frozen=True)
class Thm1Sweep:
    """Theorem 1 experiment along a grid of Δ/r values (:func:`thm1_sweep`).

    Attributes
    ----------
    delta_over_r : array, shape (n,)
        The Δ/r grid.
    fraction, fraction_one_step : array, shape (n,)
        Measured retrieved fractions (Algorithm 1, one Thm-1 step).
    predicted : array, shape (n,)
        Corrected prediction: 1 for Δ <= r/2, ((r − Δ)/Δ)^d above.
    n_starts : int
        Starts per Δ value (M · n_per_basin).
    d : int
        Dimension.
    """

    delta_over_r: Any
    fraction: Any
    fraction_one_step: Any
    predicted: Any
    n_starts: int
    d: int


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def random_memories(M: int, d: int, rng: Any = 0) -> np.ndarray:
    """M patterns drawn uniformly from the unit cube [0, 1]^d (the paper's Sec. 4.1 setup).

    Parameters
    ----------
    M, d : int
        Number of patterns (>= 1) and dimension (>= 1).
    rng : int or numpy.random.Generator, default 0
        Seed or generator.

    Returns
    -------
    numpy.ndarray, shape (M, d)

    Examples
    --------
    >>> random_memories(3, 2, rng=0).shape
    (3, 2)
    """
    M = check_positive_int(M, "M")
    d = check_positive_int(d, "d")
    gen = as_rng(rng)
    check_size(M * d, "M", "coordinates (M * d)", MAX_ELEMENTS, "use a smaller M or d")
    return gen.random((M, d))


def preset_memories(name: str, d: int = 2) -> np.ndarray:
    """Named memory sets for the landscape figures and widgets.

    Parameters
    ----------
    name : str
        For ``d = 1`` one of :data:`PRESETS_1D`: ``"two points"`` (0 and 1),
        ``"three points"`` (0, 1, 3; the Prop. 2 counter-example of note §1.7),
        ``"five points"`` (0, 0.7, 1.6, 2.4, 3.5; gaps 0.7 to 1.1, so that for 0.55 < R < 0.7
        all five are minima together with the four midpoints), ``"six random"`` (6 uniform
        points in [0, 1], seed 0).
        For ``d = 2`` one of :data:`PRESETS_2D`: ``"two points"`` (distance 1),
        ``"triangle"`` (equilateral, circumradius 1, note §2.9 item 2), ``"square"`` (side 1),
        ``"random M"`` (M uniform points in the unit square, seed 0).
    d : {1, 2}, default 2
        Dimension of the preset.

    Returns
    -------
    numpy.ndarray, shape (M, d)

    Examples
    --------
    >>> preset_memories("triangle").round(3).tolist()
    [[0.0, 1.0], [-0.866, -0.5], [0.866, -0.5]]
    """
    if isinstance(d, bool | np.bool_) or not isinstance(d, numbers.Integral):
        raise TypeError(f"d must be 1 or 2 (an integer), got {d!r} of type {type(d).__name__}")
    if d not in (1, 2):
        raise ValueError(f"d must be 1 or 2, got {d!r}")
    names = PRESETS_1D if d == 1 else PRESETS_2D
    check_option(name, "name", names)
    return _preset_1d(name) if d == 1 else _preset_2d(name)


def lse_minima_1d(memories: Any, beta: float, n_grid: int = 4000, refine: bool = True) -> Any:
    """All local minima of a 1-D LSE energy, from sign changes of the gradient on a fine grid.

    Parameters
    ----------
    memories : array_like, shape (M, 1)
        Stored patterns (1-D).
    beta : float
        Inverse temperature, finite and > 0.
    n_grid : int, default 4000
        Grid points over [min ξ, max ξ] (>= 16, at most ``MAX_ELEMENTS``).
    refine : bool, default True
        Polish each minimum to machine precision with :func:`scipy.optimize.brentq` on
        E'(x) = x − Σ_μ p_μ(x) ξ_μ; if False return the bracket midpoints (enough for counting).

    Returns
    -------
    array, shape (L,)
        The minima, increasing (L <= M in 1-D).

    Notes
    -----
    Every critical point is a convex combination of the memories (x* = Σ_μ p_μ ξ_μ, note §1.3),
    so the grid spans the memories' range, widened by one step. A minimum is a sign change of
    the gradient from − to + between neighbouring grid points (exact zeros in between are
    skipped). A pair of critical points closer than a grid step can be missed; with the
    default 4000 points this needs β within about 1e-6 of a bifurcation. In 1-D an isotropic
    Gaussian mixture has at most M modes (Carreira-Perpiñán and Williams 2003), which is the
    part of the paper's Fig. 1 caption that holds (note §2.9 item 4, P9).

    Examples
    --------
    Two memories at distance 1 merge into one LSE minimum for β < 4 (note §2.9 item 1):

    >>> lse_minima_1d([[0.0], [1.0]], beta=3.0)
    array([0.5])
    >>> lse_minima_1d([[0.0], [1.0]], beta=5.0).shape
    (2,)
    """
    beta = check_beta(beta)
    n_grid = _check_grid(n_grid, 16, 1)
    refine = check_bool(refine, "refine")
    Xi = _resolve_memories(memories, 1)
    return _lse_minima_1d(Xi, beta, n_grid, refine)


def lsr_minima_2d(memories: Any, beta: float) -> list[tuple[int, ...]]:
    """All LSR minima of 2-D memories, from the arrangement of the support circles.

    Same result as :func:`~assocmem.dense_am.lsr_minima` (the exact set of self-consistent
    index sets K, B(ξ̄_K) = K, note §1.7), for d = 2 only, in O(M³) time whatever the overlap.

    Parameters
    ----------
    memories : array_like, shape (M, 2)
        Stored patterns in the plane.
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    list of tuple of int
        Sorted list of sorted index tuples.

    Notes
    -----
    A minimum ξ̄_K lies in an open face of the arrangement of the circles ‖x − ξ_μ‖ = R whose
    active set is K. Every face has on its boundary either a vertex (an intersection point v
    of circles i and j: the four faces at v have the active sets B'(v) ∪ S, S ⊆ {i, j}, where
    B'(v) holds the other memories strictly within R of v) or a whole circle that meets no other
    circle (the faces just inside and just outside it). These O(M²) candidate sets contain every
    minimum; each is then checked exactly, B(ξ̄_K) == K, with the arithmetic of
    :func:`~assocmem.dense_am.lsr_minima` (centroid (AΞ)/|K|, difference-form distances, strict
    test). Memories within a relative 1e-9 of the support circle through a vertex are tried on
    both sides, so the rounding of the vertex loses no face. The general search of
    ``lsr_minima`` is exponential in the overlap at low β (about 1 s for M = 50 at R = 0.5 in the
    unit square, against 7 ms here), which matters for a live widget.

    Examples
    --------
    Equilateral triangle with circumradius 1 and R = 1.2: all 2³ − 1 subsets (note §2.9 item 2).

    >>> len(lsr_minima_2d(preset_memories("triangle"), beta=2 / 1.2**2))
    7
    """
    beta = check_beta(beta)
    Xi = _resolve_memories(memories, 2)
    return _lsr_minima_plane(Xi, beta, array_namespace(Xi))


def landscape_1d(
    memories: Any,
    beta: float,
    eps: float = 0.0,
    n_grid: int = 800,
    bounds: tuple[float, float] | None = None,
) -> Landscape1D:
    """LSE and LSR energies of 1-D memories on a grid, with all their minima (Fig. 1 left).

    Parameters
    ----------
    memories : array_like, shape (M, 1), or str
        Stored patterns, or the name of a preset in :data:`PRESETS_1D`.
    beta : float
        Inverse temperature, finite and > 0.
    eps : float, default 0.0
        The floor ϵ >= 0 inside the LSR log (paper eq. (3)).
    n_grid : int, default 800
        Number of grid points (>= 16, at most ``MAX_ELEMENTS``).
    bounds : (float, float), optional
        Plot interval (finite, lo < hi). Default: the memories' range widened by 0.6 of its
        length on each side (at least 1), independent of β so that a β slider keeps the view.

    Returns
    -------
    Landscape1D

    Notes
    -----
    E_LSE(x) = −(1/β) log Σ_μ exp(−β/2 (x − ξ_μ)²) and
    E_LSR(x) = −(1/β) log(ϵ + Σ_μ ReLU(1 − β/2 (x − ξ_μ)²)) (paper eq. (3)). The LSR minima
    are the exact self-consistent centroids (note §1.7), including with ϵ > 0, where the flat
    exterior plateau is excluded (P5). LSE minima come from :func:`lse_minima_1d`.

    Examples
    --------
    Two memories at distance 1 inside the window 2 < β < 8 (note §2.9 item 1): three LSR minima
    (both memories and the midpoint), one LSE minimum below β = 4.

    >>> L = landscape_1d([[0.0], [1.0]], beta=3.0)
    >>> L.minima, L.n_lse
    (((0,), (0, 1), (1,)), 1)
    """
    beta = check_beta(beta)
    eps = check_nonneg_float(eps, "eps")
    n_grid = _check_grid(n_grid, 16, 1)
    Xi = _resolve_memories(memories, 1)
    xp = array_namespace(Xi)
    lo, hi = _bounds_1d(Xi, bounds)
    x = xp.linspace(lo, hi, n_grid)
    X = x[:, None]
    lse = _lse_energy(X, Xi, beta, xp)
    lsr = _lsr_energy(X, Xi, beta, eps, xp)
    relu_sum = _relu_sum(X, Xi, beta, xp)
    minima, points, energies = _lsr_minima_with_energy(Xi, beta, eps, xp)
    lse_pts = _lse_minima_1d(Xi, beta, 4000, True)
    lse_E = _lse_energy(lse_pts[:, None], Xi, beta, xp) if lse_pts.shape[0] else xp.zeros(0)
    with np.errstate(over="ignore"):  # exp(−β E) beyond float64 is +inf
        lse_density = xp.exp(-beta * lse)
    return Landscape1D(
        memories=Xi,
        beta=beta,
        eps=eps,
        radius=_radius(beta),
        x=x,
        lse_energy=lse,
        lsr_energy=lsr,
        lse_density=lse_density,
        lsr_density=eps + relu_sum,
        supported=relu_sum > 0,
        minima=minima,
        lsr_points=points[:, 0],
        lsr_energies=energies,
        lse_points=lse_pts,
        lse_energies=lse_E,
    )


def landscape_2d(
    memories: Any,
    beta: float,
    n_grid: int = 200,
    bounds: tuple[float, float, float, float] | None = None,
    starts: Any = None,
) -> Landscape2D:
    """LSR energy of 2-D memories on a grid, its cells |B(x)| and exact minima (Fig. 1 right).

    Parameters
    ----------
    memories : array_like, shape (M, 2), or str
        Stored patterns, or the name of a preset in :data:`PRESETS_2D`.
    beta : float
        Inverse temperature, finite and > 0.
    n_grid : int, default 200
        Grid points per axis (>= 4; n_grid² at most ``MAX_ELEMENTS``).
    bounds : (x0, x1, y0, y1), optional
        Plot window (finite, x0 < x1, y0 < y1). Default: the memories' bounding box widened by
        0.35 of its larger side (at least 1) on every side, independent of β so that a β slider
        keeps the view.
    starts : array_like, shape (S, 2) or (2,), optional
        Start points of Algorithm-1 trajectories (mean-shift jumps) to overlay.

    Returns
    -------
    Landscape2D

    Notes
    -----
    E_LSR(x) = −(1/β) log Σ_μ ReLU(1 − β/2 ‖x − ξ_μ‖²), paper eq. (3) with ϵ = 0, is +inf
    outside every support ball (unsupported, grey in Fig. 1). On the rectilinear grid the
    squared distance splits as (x − ξ_μ1)² + (y − ξ_μ2)², so the (rows, n, M) blocks are sums of
    two small tables; this is the difference form of note §0 and agrees bit for bit with
    :func:`~assocmem.dense_am.sqdist` (IEEE addition is commutative). The minima are the exact
    self-consistent index sets of :func:`~assocmem.dense_am.lsr_minima` (note §1.7); their
    energies use the closed form of note §1.4.

    Examples
    --------
    Equilateral triangle with circumradius 1 at R = 1.2 (β ≈ 1.39): all 2³ − 1 = 7 subsets are
    minima (note §2.9 item 2).

    >>> L = landscape_2d("triangle", beta=2 / 1.2**2, n_grid=50)
    >>> len(L.minima), L.n_stored, L.n_emergent
    (7, 3, 4)
    """
    beta = check_beta(beta)
    n_grid = _check_grid(n_grid, 4, 2)
    Xi = _resolve_memories(memories, 2)
    xp = array_namespace(Xi)
    x0, x1, y0, y1 = _bounds_2d(Xi, bounds)
    S = xp.zeros((0, 2)) if starts is None else as_points(starts, 2, name="starts", xp=xp)[0]
    xs, ys = xp.linspace(x0, x1, n_grid), xp.linspace(y0, y1, n_grid)
    f, count = _grid_relu_sum(xs, ys, Xi, beta, xp)
    positive = f > 0
    energy = xp.where(positive, -xp.log(xp.where(positive, f, 1.0)) / beta, xp.inf)
    minima, centroids, energies = _lsr_minima_with_energy(Xi, beta, 0.0, xp)
    trajectories = _trajectories(S, Xi, beta, xp)
    return Landscape2D(
        memories=Xi,
        beta=beta,
        radius=_radius(beta),
        xs=xs,
        ys=ys,
        energy=energy,
        n_active=count,
        minima=minima,
        centroids=centroids,
        minima_energy=energies,
        starts=S,
        trajectories=trajectories,
    )


def count_curve(
    memories: Any,
    betas: Sequence[float] | Any,
    lse_starts: int = 200,
    rng: Any = 0,
) -> CountCurve:
    """Numbers of LSR minima (stored, emergent) and LSE minima along a β grid.

    Parameters
    ----------
    memories : array_like, shape (M, d), or str
        Stored patterns (or a preset name; 2-D presets, or 1-D if the name is only in
        :data:`PRESETS_1D`).
    betas : float or sequence of float
        β values (at least one, each finite and > 0).
    lse_starts : int, default 200
        Random starts (>= 0) for the LSE minima when d >= 2 (ignored, but checked, in 1-D).
    rng : int or numpy.random.Generator, default 0
        Seed for those starts (checked in 1-D too).

    Returns
    -------
    CountCurve

    Notes
    -----
    LSR counts are exact (note §1.7). LSE counts: in 1-D the grid sign-change count of
    :func:`lse_minima_1d`; for d >= 2 the distinct minima of multistart mean-shift descent
    (:func:`~assocmem.dense_am.lse_minima` from the memories, their centroid and
    ``lse_starts`` uniform points, with merge radius 1e-6·R instead of the paper's 2/√β, which
    would merge distinct minima, P16), so an LSE count can miss a minimum with a tiny basin.

    Examples
    --------
    Two points at distance 1 (note §2.9 item 1, [calib] counts 1, 3, 3, 3, 2):

    >>> count_curve([[0.0], [1.0]], [1.9, 2.1, 5.0, 7.9, 8.1]).n_lsr.tolist()
    [1, 3, 3, 3, 2]
    """
    Xi = _resolve_memories(memories, None)
    xp = array_namespace(Xi)
    bs = _check_betas(betas)
    lse_starts = check_positive_int(lse_starts, "lse_starts", minimum=0)
    gen = as_rng(rng)
    check_size(
        len(bs) * (Xi.shape[0] + 1 + lse_starts) * Xi.shape[1],
        "lse_starts",
        "start coordinates over all betas",
        MAX_ELEMENTS,
        "use fewer starts or fewer betas",
    )
    sizes = [[len(k) for k in lsr_minima(Xi, b)] for b in bs]
    n_lse = [_count_lse(Xi, b, lse_starts, gen, xp) for b in bs]
    n_lsr = np.array([len(s) for s in sizes], dtype=np.int64)
    n_stored = np.array([sum(1 for k in s if k == 1) for s in sizes], dtype=np.int64)
    return CountCurve(
        betas=np.asarray(bs),
        n_lsr=n_lsr,
        n_stored=n_stored,
        n_emergent=n_lsr - n_stored,
        n_lse=np.asarray(n_lse, dtype=np.int64),
        M=int(Xi.shape[0]),
    )


def minima_counts_1d(
    M: int = 6,
    n_sets: int = 50,
    betas: Sequence[float] | None = None,
    rng: Any = 0,
    n_grid: int = 4000,
    gaps: Sequence[float] | None = None,
) -> MinimaCounts1D:
    """Count LSE and LSR minima for many random 1-D memory sets (note §2.9 item 4, test T9).

    Parameters
    ----------
    M : int, default 6
        Memories per set, uniform in [0, 1].
    n_sets : int, default 50
        Number of random sets.
    betas : float or sequence of float, optional
        β grid (each finite and > 0); default 30 values geometric from 1 to 1e4 (R from 1.4
        down to 0.014).
    rng : int or numpy.random.Generator, default 0
        Seed or generator for the sets.
    n_grid : int, default 4000
        Grid of :func:`lse_minima_1d` (counting only, no refinement), >= 16.
    gaps : pair of float, optional
        ``(lo, hi)`` with ``0 < lo <= hi``: draw each set as a chain from 0 whose M - 1
        consecutive gaps are uniform in [lo, hi] (the five points of Fig. 1 left have gaps 0.7
        to 1.1), instead of M points uniform in [0, 1].

    Raises
    ------
    ValueError
        For invalid arguments, or when ``n_sets`` times the number of betas exceeds
        ``MAX_STEPS`` or n_sets * M coordinates exceed ``MAX_ELEMENTS``, or when the chain's
        length ``(M - 1) * hi`` exceeds ``MAX_ABS_ENTRY``.

    Returns
    -------
    MinimaCounts1D

    Notes
    -----
    The Fig. 1 caption says "LSE is never capable of having more local minima than the number
    of stored patterns". In 1-D this is a theorem (modes of an isotropic Gaussian mixture,
    Carreira-Perpiñán and Williams 2003) and ``max_lse_ratio <= 1``; the LSR count exceeds M
    at intermediate β ([calib] 11/6). In 2-D the caption fails (see :func:`count_curve` on the
    triangle, note §2.9 item 4).

    Examples
    --------
    >>> res = minima_counts_1d(M=4, n_sets=3, betas=[10.0, 100.0])
    >>> res.lse.shape, res.max_lse_ratio <= 1.0
    ((3, 2), True)

    Gaps of 0.7 to 1.1 at R = 0.65 (Fig. 1 left): every pattern and every midpoint is an LSR
    minimum, 2M - 1 in all.

    >>> chain = minima_counts_1d(M=5, n_sets=4, betas=[2 / 0.65**2], gaps=(0.7, 1.1))
    >>> chain.lsr[:, 0].tolist()
    [9, 9, 9, 9]
    """
    M = check_positive_int(M, "M")
    n_sets = check_positive_int(n_sets, "n_sets")
    n_grid = _check_grid(n_grid, 16, 1)
    bs = _check_betas(np.geomspace(1.0, 1e4, 30) if betas is None else betas)
    spacing = None if gaps is None else _check_gaps(gaps, M)
    gen = as_rng(rng)
    check_size(n_sets * M, "n_sets", "memory coordinates", MAX_ELEMENTS, "use fewer sets")
    check_size(
        n_sets * len(bs), "n_sets", "(set, beta) counts", MAX_STEPS, "use fewer sets or betas"
    )
    lse = np.zeros((n_sets, len(bs)), dtype=np.int64)
    lsr = np.zeros_like(lse)
    for i in range(n_sets):
        if spacing is None:
            Xi = gen.random((M, 1))
        else:
            steps = gen.uniform(spacing[0], spacing[1], size=M - 1)
            Xi = np.concatenate([[0.0], np.cumsum(steps)])[:, None]
        for j, b in enumerate(bs):
            lse[i, j] = _lse_minima_1d(Xi, b, n_grid, False).shape[0]
            lsr[i, j] = len(lsr_minima(Xi, b))
    return MinimaCounts1D(betas=np.asarray(bs), lse=lse, lsr=lsr, M=M)


def separation_curves(
    beta: float | Sequence[float],
    kind: str = "both",
    s_min: float = -2.0,
    n_points: int = 401,
) -> SeparationCurves:
    """Separation functions F(β s) of LSE and LSR on s ∈ [s_min, 0] (paper Fig. 2).

    Parameters
    ----------
    beta : float or sequence of float
        One or several inverse temperatures (each finite and > 0).
    kind : {"both", "lse", "lsr"}, default "both"
        Which curves to compute.
    s_min : float, default -2.0
        Left end of the similarity axis (< 0).
    n_points : int, default 401
        Number of points (>= 2, times the number of betas at most ``MAX_ELEMENTS``).

    Returns
    -------
    SeparationCurves

    Notes
    -----
    Paper eq. (1) with S(x, x') = −½‖x − x'‖²: F(βs) = exp(βs) for LSE and ReLU(1 + βs) for
    LSR (note §1.1). The ReLU decays linearly and is exactly 0 for s <= −1/β, i.e. at distances
    ‖x − x'‖ >= R = √(2/β); the exponential never vanishes.

    Examples
    --------
    The ReLU is zero at s = −1 (distance √2 > R = 1) and 1 at s = 0:

    >>> c = separation_curves(2.0, s_min=-1.0, n_points=3)
    >>> c.lsr[0, [0, -1]].tolist(), float(c.radius[0])
    ([0.0, 1.0], 1.0)
    """
    betas = _check_betas(beta, "beta")
    kind = check_option(kind, "kind", ("both", "lse", "lsr"))
    s_min = check_finite_float(s_min, "s_min")
    if s_min >= 0.0:
        raise ValueError(f"s_min must be a finite number < 0, got {s_min!r}")
    n_points = check_positive_int(n_points, "n_points", minimum=2)
    check_size(
        2 * len(betas) * n_points, "n_points", "curve values", MAX_ELEMENTS, "use fewer points"
    )
    s = _similarity_grid(s_min, n_points)
    bs = np.asarray(betas)[:, None]
    lse = None
    if kind in ("both", "lse"):
        lse = np.exp(bs * s[None, :])  # paper eq. (1): F(βs) = exp(βs), s <= 0: no overflow
    lsr = None
    if kind in ("both", "lsr"):
        lsr = np.maximum(1.0 + bs * s[None, :], 0.0)  # F(βs) = ReLU(1 + βs)
    return SeparationCurves(
        betas=np.asarray(betas),
        kind=kind,
        s=s,
        distance=np.sqrt(np.abs(2.0 * s)),
        lse=lse,
        lsr=lsr,
        radius=np.sqrt(2.0 / np.asarray(betas)),
    )


def thm1_experiment(
    memories: Any, delta_over_r: float, n_per_basin: int = 400, rng: Any = 0
) -> Thm1Result:
    """Theorem 1 tested: retrieve from uniform starts in every basin S_μ(Δ) at β = 2/(r − Δ)².

    Parameters
    ----------
    memories : array_like, shape (M, d), M >= 2, or str
        Stored patterns (distinct), or a 2-D preset name.
    delta_over_r : float
        Basin radius as a fraction of r = min_{μ≠ν} ‖ξ_μ − ξ_ν‖, in (0, 1) (the paper's range).
    n_per_basin : int, default 400
        Uniform starts per basin ball (M * n_per_basin * d at most ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator, default 0
        Seed or generator of the starts.

    Returns
    -------
    Thm1Result

    Raises
    ------
    ValueError
        For invalid arguments, for memories with M < 2 or a repeated pattern, or when
        β = 2/(r − Δ)² falls outside the float64 range (memories about 1e154 or more apart).

    Notes
    -----
    Thm 1 (paper) claims exact retrieval from every x ∈ S_μ(Δ) for Δ ∈ (0, r), with β = 2/(r − Δ)²
    (so R = r − Δ), and that one GD step with η = ϵ + ReLU(1 − β/2 ‖x − ξ_μ‖²) suffices.
    **Correction** (note §2.2, P2): the proof needs Δ < r/2. For Δ > r/2 the shell
    R <= ‖x − ξ_μ‖ <= Δ is outside every support ball (other memories are at least
    r − Δ = R away), the gradient is zero or undefined, and the start never moves; for uniform
    starts the retrieved fraction is (R/Δ)^d = ((r − Δ)/Δ)^d. The starts fill the whole ball
    (no clipping to a domain 𝒳). Algorithm 1 (:func:`~assocmem.dense_am.lsr_retrieve`) is
    checked for bit-exact equality with ξ_μ; the one step
    (:func:`~assocmem.dense_am.lsr_one_step`, η = D/|B|, equal to Thm 1's η when |B| = 1) to
    relative rounding 1e-12.

    Examples
    --------
    >>> res = thm1_experiment([[0.0, 0.0], [1.0, 0.0]], 0.3, n_per_basin=50)
    >>> res.fraction, res.predicted
    (1.0, 1.0)
    """
    t = check_fraction(delta_over_r, "delta_over_r")
    n_per_basin = check_positive_int(n_per_basin, "n_per_basin")
    gen = as_rng(rng)
    Xi = _resolve_memories(memories, None)
    _check_starts_size(Xi, n_per_basin)
    xp = array_namespace(Xi)
    r = _min_pairwise_distance(Xi, xp)
    _check_thm1_beta(r, [t], "delta_over_r")
    return _thm1(Xi, r, t, n_per_basin, gen, xp)


def thm1_sweep(
    memories: Any,
    deltas_over_r: Sequence[float],
    n_per_basin: int = 400,
    rng: Any = 0,
) -> Thm1Sweep:
    """Run :func:`thm1_experiment` along a grid of Δ/r values.

    Parameters
    ----------
    memories : array_like, shape (M, d), M >= 2, or str
        Stored patterns, or a 2-D preset name.
    deltas_over_r : float or sequence of float
        At least one value, each in (0, 1).
    n_per_basin : int, default 400
        Starts per basin and Δ value.
    rng : int or numpy.random.Generator, default 0
        Seed or generator (one stream, used in order).

    Returns
    -------
    Thm1Sweep

    Examples
    --------
    >>> sw = thm1_sweep([[0.0], [1.0]], [0.25, 0.75], n_per_basin=200)
    >>> sw.fraction.tolist()[0], round(float(sw.predicted[1]), 4)
    (1.0, 0.3333)
    """
    values = as_real_vector(deltas_over_r, "deltas_over_r", 0.0, 1.0, open_lo=True, open_hi=True)
    ts = [float(t) for t in values]
    n_per_basin = check_positive_int(n_per_basin, "n_per_basin")
    gen = as_rng(rng)
    Xi = _resolve_memories(memories, None)
    _check_starts_size(Xi, n_per_basin)
    check_size(
        len(ts) * Xi.shape[0] * n_per_basin,
        "n_per_basin",
        "starts over all deltas_over_r",
        MAX_ELEMENTS,
        "use fewer starts or fewer values",
    )
    xp = array_namespace(Xi)
    r = _min_pairwise_distance(Xi, xp)
    _check_thm1_beta(r, ts, "deltas_over_r")
    runs = [_thm1(Xi, r, t, n_per_basin, gen, xp) for t in ts]
    return Thm1Sweep(
        delta_over_r=np.asarray(ts),
        fraction=np.array([run.fraction for run in runs]),
        fraction_one_step=np.array([run.fraction_one_step for run in runs]),
        predicted=np.array([run.predicted for run in runs]),
        n_starts=int(Xi.shape[0]) * n_per_basin,
        d=int(Xi.shape[1]),
    )


def alg1_descent_check(
    memories: Any, beta: float, n_starts: int = 2000, rng: Any = 0, max_iter: int = 1000
) -> Alg1Check:
    """Run Algorithm 1 from many supported starts and record the energy after every step.

    Parameters
    ----------
    memories : array_like, shape (M, d), or str
        Stored patterns (or a 2-D preset name).
    beta : float
        Inverse temperature, finite and > 0.
    n_starts : int, default 2000
        Starts: a memory chosen uniformly, plus a uniform point of the ball of radius R around
        it, so every start is supported (n_starts * d at most ``MAX_ELEMENTS``).
    rng : int or numpy.random.Generator, default 0
        Seed or generator of the starts.
    max_iter : int, default 1000
        Cap on the iterations, at most ``MAX_STEPS`` (the lemma guarantees termination long
        before).

    Returns
    -------
    Alg1Check

    Notes
    -----
    *Monotonicity lemma* (note §1.5, derived, not in the paper). With
    f(x) = Σ_μ ReLU(1 − β/2 ‖x − ξ_μ‖²), B = B(x) and y = ξ̄_B: ReLU(a) >= a gives
    f(y) >= Σ_{μ∈B} (1 − β/2 ‖y − ξ_μ‖²), and the centroid minimises the sum of squared
    distances, so this is >= Σ_{μ∈B} (1 − β/2 ‖x − ξ_μ‖²) = f(x). Hence E = −log(f)/β never
    increases along Algorithm 1; since y depends only on B and f strictly increases while the
    point moves, no active set repeats, and the iteration stops after at most 2^M steps.
    The step is x ← (A Ξ)/|B| with the strict active set A in difference form (note §0), the
    arithmetic of :func:`~assocmem.dense_am.lsr_retrieve`.

    Examples
    --------
    >>> chk = alg1_descent_check([[0.0], [1.0], [3.0]], beta=1.0, n_starts=50)
    >>> chk.max_increase <= 0.0, bool(chk.self_consistent.all())
    (True, True)
    """
    beta = check_beta(beta)
    n_starts = check_positive_int(n_starts, "n_starts")
    gen = as_rng(rng)
    max_iter = check_positive_int(max_iter, "max_iter", maximum=MAX_STEPS)
    Xi = _resolve_memories(memories, None)
    check_size(
        n_starts * (Xi.shape[1] + Xi.shape[0]),
        "n_starts",
        "start coordinates and active-set entries",
        MAX_ELEMENTS,
        "use fewer starts",
    )
    xp = array_namespace(Xi)
    X = to_numpy(Xi)
    pick = gen.integers(0, X.shape[0], n_starts)
    Z = xp.asarray(X[pick] + _ball_samples(np.zeros((1, X.shape[1])), _radius(beta), n_starts, gen))
    return _alg1_check(Xi, Z, beta, max_iter, xp)


def lse_stored_gradient_log10(memories: Any, beta: float) -> Any:
    """log10 ‖∇E_LSE(ξ_μ)‖ at every stored pattern, computed in log space (Remark 1, P8).

    Parameters
    ----------
    memories : array_like, shape (M, d), M >= 2, or str
        Stored patterns (distinct), or a 2-D preset name.
    beta : float
        Inverse temperature, finite and > 0.

    Returns
    -------
    array, shape (M,)
        log10 of the gradient norm; finite for any β, where the float64 gradient of
        :func:`~assocmem.dense_am.lse_grad` underflows to exactly 0.0, unless
        β/2 ‖ξ_μ − ξ_ν‖² itself exceeds the float64 range for every ν ≠ μ (patterns about
        1e154 apart), where the honest limit −inf is returned.

    Notes
    -----
    ∇E_LSE(ξ_μ) = ξ_μ − Σ_ν p_ν ξ_ν = Σ_{ν≠μ} p_ν (ξ_μ − ξ_ν) with
    log p_ν = −β/2 ‖ξ_μ − ξ_ν‖² − logsumexp_κ(−β/2 ‖ξ_μ − ξ_κ‖²) (note §1.3). Factoring out the
    largest p_ν (ν ≠ μ) leaves a sum of O(1) terms, so nothing underflows. Remark 1 of the
    paper: the LSE gradient at a memory is only approximately zero at finite β; in float64 it
    is *exactly* 0.0 once the softmax saturates (note §2.3, Pitfall P8), and this function
    shows the true, nonzero value.

    Examples
    --------
    Two memories at distance 1: ‖∇E(ξ_0)‖ = 1/(1 + e^{β/2}); at β = 2000 that is 10^(−434).

    >>> round(float(lse_stored_gradient_log10([[0.0], [1.0]], 2000.0)[0]), 3)
    -434.294
    """
    from scipy.special import logsumexp

    beta = check_beta(beta)
    Xi = _resolve_memories(memories, None)
    X = np.asarray(to_numpy(Xi), dtype=np.float64)
    _min_pairwise_distance(Xi, array_namespace(Xi))
    with np.errstate(over="ignore"):
        logits = -0.5 * beta * _sqdist(X, X, np)
    logp = logits - logsumexp(logits, axis=1, keepdims=True)
    np.fill_diagonal(logp, -np.inf)
    top = np.max(logp, axis=1)
    finite = np.isfinite(top)  # top = −inf: every other pattern's weight is below 1e-308
    w = np.exp(logp - np.where(finite, top, 0.0)[:, None])
    v = np.einsum("mn,mnk->mk", w, X[:, None, :] - X[None, :, :])
    with np.errstate(divide="ignore"):
        out = np.where(finite, top + np.log(np.linalg.norm(v, axis=1)), -np.inf) / math.log(10.0)
    return array_namespace(Xi).asarray(out)


# --------------------------------------------------------------------------------------------
# Private kernels (trust their input)
# --------------------------------------------------------------------------------------------


def _radius(beta: float) -> float:
    """Support radius R = √(2/β) of a validated β (note §0)."""
    return math.sqrt(2.0 / beta)


def _check_grid(n_grid: Any, minimum: int, dims: int) -> int:
    """Validate a grid size (points per axis) and cap the n_grid**dims grid points."""
    n = check_positive_int(n_grid, "n_grid", minimum=minimum)
    check_size(n**dims, "n_grid", "grid points", MAX_ELEMENTS, "use a coarser grid")
    return n


def _check_betas(betas: Any, name: str = "betas") -> list[float]:
    """A β grid: one or more finite values > 0, as a list of floats."""
    values = as_real_vector(betas, name, lo=0.0, open_lo=True)
    return [float(b) for b in values]


def _check_gaps(gaps: Any, M: int) -> tuple[float, float]:
    """``(lo, hi)`` with 0 < lo <= hi and a chain of M - 1 gaps within ``MAX_ABS_ENTRY``."""
    lo, hi = _as_bounds(gaps, 2, "gaps")
    if not 0 < lo <= hi:
        raise ValueError(f"gaps must be (lo, hi) with 0 < lo <= hi, got {gaps!r}")
    if hi * max(M - 1, 1) > MAX_ABS_ENTRY:
        raise ValueError(
            f"gaps must keep the chain's length (M - 1) * hi <= {MAX_ABS_ENTRY:g} (squared "
            f"distances must stay finite), got hi = {hi!r} with M = {M}"
        )
    return lo, hi


def _check_starts_size(Xi: Any, n_per_basin: int) -> None:
    """Cap the M * n_per_basin * d start coordinates of the Theorem-1 experiment."""
    M, d = Xi.shape
    check_size(
        M * n_per_basin * d, "n_per_basin", "start coordinates", MAX_ELEMENTS, "use fewer starts"
    )


def _check_thm1_beta(r: float, ts: Sequence[float], name: str) -> None:
    """Refuse memories whose r makes β = 2/(r − Δ)² leave the float64 range for some Δ = t r."""
    for t in ts:
        beta = _thm1_beta(r, t * r)
        if not 0.0 < beta < math.inf:
            raise ValueError(
                f"memories and {name} must give a representable beta = 2/(r - delta)**2, got "
                f"r = {r!r} (min pairwise distance of memories), {name} = {t!r}, beta = {beta!r}"
            )


def _similarity_grid(s_min: float, n: int) -> np.ndarray:
    """n increasing values in [s_min, 0]: half uniform in s, half uniform in √(−2s)."""
    n_s = (n + 1) // 2
    uniform_s = np.linspace(s_min, 0.0, n_s)
    uniform_d = -0.5 * np.linspace(0.0, math.sqrt(-2.0 * s_min), n - n_s + 2)[1:-1] ** 2
    return np.sort(np.concatenate([uniform_s, uniform_d]))


def _preset_1d(name: str) -> np.ndarray:
    """The 1-D presets of :data:`PRESETS_1D`."""
    if name == "two points":
        return np.array([[0.0], [1.0]])
    if name == "three points":
        return np.array([[0.0], [1.0], [3.0]])
    if name == "five points":
        return np.array([[0.0], [0.7], [1.6], [2.4], [3.5]])
    return np.sort(np.random.default_rng(0).random((6, 1)), axis=0)


def _preset_2d(name: str) -> np.ndarray:
    """The 2-D presets of :data:`PRESETS_2D`."""
    if name == "two points":
        return np.array([[0.0, 0.0], [1.0, 0.0]])
    if name == "triangle":
        angles = np.pi / 2 + 2 * np.pi * np.arange(3) / 3
        return np.stack([np.cos(angles), np.sin(angles)], axis=1).round(15) + 0.0
    if name == "square":
        return np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    M = int(name.split()[1])
    return np.random.default_rng(0).random((M, 2))


def _resolve_memories(memories: Any, d: int | None) -> Any:
    """Validate memories; a string is a preset name (of dimension ``d``, default 2)."""
    if isinstance(memories, str):
        if d is None:
            d = 2 if memories in PRESETS_2D else 1
        names = PRESETS_1D if d == 1 else PRESETS_2D
        if memories not in names:
            raise ValueError(
                f"memories must be an array of shape (M, d) or a preset name, one of {names} "
                f"for d = {d}, got {memories!r}"
            )
        return _preset_1d(memories) if d == 1 else _preset_2d(memories)
    Xi = as_memories(memories, xp=array_namespace(memories))
    if d is not None and Xi.shape[1] != d:
        raise ValueError(f"memories must have shape (M, {d}), got shape {Xi.shape}")
    return Xi


def _bounds_1d(Xi: Any, bounds: Any) -> tuple[float, float]:
    """Plot interval: given, or the memories' range widened by 0.6 of its length (>= 1)."""
    if bounds is not None:
        lo, hi = _as_bounds(bounds, 2)
        if not lo < hi:
            raise ValueError(f"bounds must be finite with lo < hi, got {bounds!r}")
        return lo, hi
    a, b = float(Xi.min()), float(Xi.max())
    pad = 0.6 * max(b - a, 1.0)
    return a - pad, b + pad


def _bounds_2d(Xi: Any, bounds: Any) -> tuple[float, float, float, float]:
    """Plot window: given, or the bounding box widened by 0.35 of its larger side (>= 1)."""
    if bounds is not None:
        vals = _as_bounds(bounds, 4)
        if not (vals[0] < vals[1] and vals[2] < vals[3]):
            raise ValueError(f"bounds must satisfy x0 < x1 and y0 < y1, got {bounds!r}")
        return vals  # type: ignore[return-value]
    lo, hi = to_numpy(Xi.min(axis=0)), to_numpy(Xi.max(axis=0))
    pad = 0.35 * max(float(np.max(hi - lo)), 1.0)
    return lo[0] - pad, hi[0] + pad, lo[1] - pad, hi[1] + pad


def _as_bounds(bounds: Any, n: int, name: str = "bounds") -> tuple[float, ...]:
    """``n`` finite real numbers (a plot window, an interval), as floats."""
    if isinstance(bounds, str | bytes):
        raise TypeError(f"{name} must be a sequence of {n} finite numbers, got {bounds!r}")
    arr = as_real_array(bounds, name, xp=np)
    if arr.shape != (n,):
        raise ValueError(f"{name} must hold {n} finite numbers, got shape {arr.shape}")
    return tuple(float(v) for v in arr)


def _relu_sum(X: Any, Xi: Any, beta: float, xp: Any) -> Any:
    """Σ_μ ReLU(1 − β/2 ‖x − ξ_μ‖²) per row (the unnormalised Epanechnikov KDE, note §1.2)."""
    with np.errstate(over="ignore"):
        return xp.sum(xp.maximum(1.0 - 0.5 * beta * _sqdist(X, Xi, xp), 0.0), axis=1)


def _grid_relu_sum(xs: Any, ys: Any, Xi: Any, beta: float, xp: Any) -> tuple[Any, Any]:
    """Σ_μ ReLU(1 − β/2 d²) and |B| on the grid ys × xs (paper eq. (3)).

    Each memory only touches the grid points of the square of half-width R around it, so the
    loop over memories visits one small patch each (found by bisection on the sorted axes):
    the cost is M·(2R/h)² instead of M·n². d² = (x − ξ_μ1)² + (y − ξ_μ2)² is the difference
    form of note §0.
    """
    R = _radius(beta)
    two_over_beta, half_beta = 2.0 / beta, 0.5 * beta
    f = xp.zeros((ys.shape[0], xs.shape[0]), dtype=xp.float64)
    count = xp.zeros((ys.shape[0], xs.shape[0]), dtype=xp.int64)
    centres = to_numpy(Xi)
    cols = np.searchsorted(to_numpy(xs), np.stack([centres[:, 0] - R, centres[:, 0] + R]))
    rows = np.searchsorted(to_numpy(ys), np.stack([centres[:, 1] - R, centres[:, 1] + R]))
    for mu in range(centres.shape[0]):
        c0, c1, r0, r1 = cols[0, mu], cols[1, mu], rows[0, mu], rows[1, mu]
        if c0 >= c1 or r0 >= r1:
            continue
        dx = xs[c0:c1] - Xi[mu, 0]
        dy = ys[r0:r1] - Xi[mu, 1]
        D2 = (dy * dy)[:, None] + (dx * dx)[None, :]
        count[r0:r1, c0:c1] += D2 < two_over_beta
        D2 *= -half_beta
        D2 += 1.0
        xp.maximum(D2, 0.0, out=D2)
        f[r0:r1, c0:c1] += D2
    return f, count


def _lsr_minima_with_energy(
    Xi: Any, beta: float, eps: float, xp: Any
) -> tuple[tuple[tuple[int, ...], ...], Any, Any]:
    """Exact LSR minima (index sets), their centroids (K, d) and energies (note §1.4, §1.7)."""
    sets = _lsr_minima_plane(Xi, beta, xp) if Xi.shape[1] == 2 else lsr_minima(Xi, beta)
    minima = tuple(tuple(int(i) for i in k) for k in sets)
    A = np.zeros((len(minima), Xi.shape[0]))
    for row, k in enumerate(minima):
        A[row, list(k)] = 1.0
    A = xp.asarray(A)
    centroids = (A @ Xi) / xp.sum(A, axis=1)[:, None] if minima else xp.zeros((0, Xi.shape[1]))
    energies = xp.asarray(
        [_centroid_energy(Xi, list(k), beta, eps, xp) for k in minima], dtype=xp.float64
    )
    return minima, centroids, energies


def _lsr_minima_plane(Xi: Any, beta: float, xp: Any) -> list[tuple[int, ...]]:
    """Candidates from the circle arrangement, then the exact test (see :func:`lsr_minima_2d`)."""
    X = np.asarray(to_numpy(Xi), dtype=np.float64)
    M, t = X.shape[0], 2.0 / beta
    D2 = _sqdist(X, X, np)
    iu, ju = np.triu_indices(M, 1)
    d2 = D2[iu, ju]
    hit = (d2 > 0.0) & (d2 < 4.0 * t)
    i, j, d2 = iu[hit], ju[hit], d2[hit]
    u = (X[j] - X[i]) / np.sqrt(d2)[:, None]
    h = np.sqrt(np.maximum(t - 0.25 * d2, 0.0))[:, None]
    mid = 0.5 * (X[i] + X[j])
    perp = np.column_stack([-u[:, 1], u[:, 0]])
    V = np.concatenate([mid + h * perp, mid - h * perp])
    ci, cj = np.concatenate([i, i]), np.concatenate([j, j])
    lone = np.ones(M, dtype=bool)
    lone[i] = lone[j] = False
    V = np.concatenate([V, X[lone] + np.array([math.sqrt(t), 0.0])])
    ci = np.concatenate([ci, np.nonzero(lone)[0]])
    cj = np.concatenate([cj, np.nonzero(lone)[0]])
    return _check_candidates(X, t, _face_candidates(X, V, ci, cj, t))


def _face_candidates(X: np.ndarray, V: np.ndarray, ci: Any, cj: Any, t: float) -> np.ndarray:
    """Active sets of the faces around each point V[k] on circles ci[k] and cj[k] (rows, bool)."""
    n, M = V.shape[0], X.shape[0]
    DV = _sqdist(V, X, np) if n else np.zeros((0, M))
    rows = np.arange(n)
    base = DV < t
    base[rows, ci] = base[rows, cj] = False
    near = np.abs(DV - t) <= _TIE_RTOL * t
    near[rows, ci] = near[rows, cj] = False
    parts = []
    for with_i in (False, True):
        for with_j in (False, True):
            A = base.copy()
            A[rows, ci] |= with_i
            A[rows, cj] |= with_j
            parts.append(A)
    cands = np.concatenate(parts)
    extra = [cands]
    for k in np.nonzero(near.any(axis=1))[0]:  # rounding ties: try both sides of each circle
        rows_k = cands[k::n]
        for mu in np.nonzero(near[k])[0]:
            flipped = rows_k.copy()
            flipped[:, mu] = ~flipped[:, mu]
            extra.append(flipped)
            rows_k = np.concatenate([rows_k, flipped])
    return np.concatenate(extra)


def _check_candidates(X: np.ndarray, t: float, cands: np.ndarray) -> list[tuple[int, ...]]:
    """The distinct non-empty candidate sets K with B(ξ̄_K) == K (exact float test)."""
    cands = cands[cands.any(axis=1)]
    if cands.shape[0] == 0:
        return []
    packed = np.ascontiguousarray(np.packbits(cands, axis=1))
    keys = packed.view(np.dtype((np.void, packed.shape[1])))[:, 0]
    _, first = np.unique(keys, return_index=True)
    A = cands[np.sort(first)].astype(np.float64)
    C = (A @ X) / np.sum(A, axis=1)[:, None]
    ok = np.all((_sqdist(C, X, np) < t) == (A > 0), axis=1)
    return sorted(tuple(int(m) for m in np.nonzero(row)[0]) for row in A[ok])


def _lse_minima_1d(Xi: Any, beta: float, n_grid: int, refine: bool) -> Any:
    """1-D LSE minima: − to + sign changes of E' on a grid over the memories' range."""
    xp = array_namespace(Xi)
    lo, hi = float(Xi.min()), float(Xi.max())
    step = max(hi - lo, 1e-12) / (n_grid - 3)
    x = np.linspace(lo - step, hi + step, n_grid)
    g = to_numpy(_lse_grad(xp.asarray(x)[:, None], Xi, beta, xp))[:, 0]
    nz = np.nonzero(g != 0.0)[0]
    left, right = nz[:-1], nz[1:]
    hit = (g[left] < 0.0) & (g[right] > 0.0)
    left, right = left[hit], right[hit]
    if not refine:
        return xp.asarray(0.5 * (x[left] + x[right]))
    from scipy.optimize import brentq

    def grad(t: float) -> float:
        return float(_lse_grad(xp.asarray([[t]]), Xi, beta, xp)[0, 0])

    roots = []
    for a, b in zip(left, right, strict=True):
        if b > a + 1:  # exact zeros on the grid between a and b: the middle one is the root
            roots.append(x[(a + b) // 2])
        else:
            roots.append(brentq(grad, x[a], x[b], xtol=1e-15, rtol=4 * np.finfo(float).eps))
    return xp.asarray(np.asarray(roots, dtype=np.float64))


def _count_lse(Xi: Any, beta: float, n_starts: int, gen: np.random.Generator, xp: Any) -> int:
    """Number of LSE minima: exact 1-D grid count, or distinct multistart minima for d >= 2.

    The starts for d >= 2 are the memories, their global centroid (where a merged minimum sits
    for symmetric sets, e.g. the triangle of note §2.9 item 4) and ``n_starts`` uniform points
    in the bounding box widened by R.
    """
    if Xi.shape[1] == 1:
        return int(_lse_minima_1d(Xi, beta, 4000, False).shape[0])
    R = _radius(beta)
    X = to_numpy(Xi)
    lo, hi = X.min(axis=0) - R, X.max(axis=0) + R
    box = lo + (hi - lo) * gen.random((n_starts, X.shape[1]))
    starts = xp.asarray(np.concatenate([X, X.mean(axis=0, keepdims=True), box]))
    P, _, _, _ = _lse_descend_checked(starts, Xi, beta, 1.0, 5000, 1e-10, xp, "count_curve")
    return int(_dedupe_minima(P, Xi, beta, 1e-6 * R, xp).points.shape[0])


def _trajectories(S: Any, Xi: Any, beta: float, xp: Any) -> tuple[Any, ...]:
    """Algorithm-1 iterates (start first) from each validated start, row of S."""
    out = []
    for k in range(S.shape[0]):
        rows: list[Any] = [S[k]]
        _algorithm1(S[k : k + 1], Xi, beta, 10_000, xp, record=rows)
        out.append(xp.stack(rows))
    return tuple(out)


def _min_pairwise_distance(Xi: Any, xp: Any) -> float:
    """r = min_{μ≠ν} ‖ξ_μ − ξ_ν‖ (Thm 1); M >= 2 distinct memories are required."""
    M = Xi.shape[0]
    if M < 2:
        raise ValueError(f"memories must hold at least 2 patterns to define r, got M = {M}")
    D2 = to_numpy(_sqdist(Xi, Xi, xp))
    D2[np.diag_indices(M)] = np.inf
    r2 = float(D2.min())
    if r2 <= 0.0:
        raise ValueError("memories must be distinct (min pairwise distance r > 0), got r = 0")
    return math.sqrt(r2)


def _ball_samples(centres: np.ndarray, radius: float, n: int, gen: np.random.Generator) -> Any:
    """``n`` uniform points in the ball of ``radius`` around each centre, grouped by centre."""
    M, d = centres.shape
    u = gen.standard_normal((M, n, d))
    u /= np.linalg.norm(u, axis=2, keepdims=True)
    rad = radius * gen.random((M, n, 1)) ** (1.0 / d)
    return (centres[:, None, :] + rad * u).reshape(M * n, d)


def _alg1_check(Xi: Any, Z: Any, beta: float, max_iter: int, xp: Any) -> Alg1Check:
    """Algorithm 1 on all rows of Z, recording E_LSR after each step (see alg1_descent_check)."""
    t = 2.0 / beta
    E0 = _lsr_energy(Z, Xi, beta, 0.0, xp)
    E = xp.array(E0, copy=True)
    A = _sqdist(Z, Xi, xp) < t
    n_iter = xp.zeros(Z.shape[0], dtype=xp.int64)
    moving = xp.ones(Z.shape[0], dtype=bool)
    worst = -math.inf
    for _ in range(max_iter):
        if not bool(xp.any(moving)):
            break
        W = A[moving].astype(xp.float64)
        Z_new = (W @ Xi) / xp.sum(W, axis=1)[:, None]
        E_new = _lsr_energy(Z_new, Xi, beta, 0.0, xp)
        worst = max(worst, float(xp.max(E_new - E[moving])))
        A_new = _sqdist(Z_new, Xi, xp) < t
        idx = xp.nonzero(moving)[0]
        Z[idx], E[idx], n_iter[idx] = Z_new, E_new, n_iter[idx] + 1
        changed = xp.any(A_new != A[idx], axis=1)
        A[idx] = A_new
        moving[idx[~changed]] = False
    W = A.astype(xp.float64)
    C = (W @ Xi) / xp.sum(W, axis=1)[:, None]
    consistent = xp.all((_sqdist(C, Xi, xp) < t) == A, axis=1)
    return Alg1Check(
        n_iter=n_iter,
        max_increase=worst,
        energy_start=E0,
        energy_end=E,
        self_consistent=consistent,
    )


def _thm1(Xi: Any, r: float, t: float, n: int, gen: np.random.Generator, xp: Any) -> Thm1Result:
    """One Thm-1 run at Δ = t·r (see :func:`thm1_experiment`)."""
    M, d = Xi.shape
    delta = t * r
    beta = _thm1_beta(r, delta)
    starts = xp.asarray(_ball_samples(to_numpy(Xi), delta, n, gen))
    basin = xp.repeat(xp.arange(M), n)
    target = Xi[basin]
    points, _, supported, n_iter = _algorithm1(starts, Xi, beta, 10_000, xp, record=None)
    exact = xp.all(points == target, axis=1)
    N, D, count = _lsr_parts(starts, Xi, beta, 0.0, xp)  # one Thm-1 step, η = D/|B|
    one = starts - _safe_divide(D, count, xp)[:, None] * _safe_divide(N, D[:, None], xp)
    tol = _ONE_STEP_RTOL * (1.0 + xp.abs(target))
    one_ok = xp.all(xp.abs(one - target) <= tol, axis=1)
    predicted = 1.0 if t <= 0.5 else ((1.0 - t) / t) ** d
    return Thm1Result(
        memories=Xi,
        delta_over_r=t,
        r=r,
        delta=delta,
        beta=beta,
        radius=r - delta,
        starts=starts,
        basin=basin,
        alg1_points=points,
        retrieved=exact,
        one_step_retrieved=one_ok,
        supported=supported,
        n_iter=n_iter,
        predicted=predicted,
    )
