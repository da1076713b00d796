"""Benchmark: ``rie_mmse`` on a 200 x 100 (δ², ρ) grid, the MMSE calls of an (α, ρ) phase diagram.

What it measures
----------------
``assocmem.quadratic.free.rie_mmse(delta2, rho)`` with 200 noise levels δ² in [1e-3, 1e2]
(log-spaced) per call, for 100 values of ρ in [0.05, 20]: 20,000 MMSE values, the count of the
Bayes-optimal (α, ρ) phase diagram. The current path solves the Stieltjes cubic in closed form
for every quadrature node of every δ² at once. The baseline, measured in the same run, is the
path before it (commit 91e9413's ``_mmse`` and ``_support``, copied below): per δ², the
discriminant quartic's roots via ``numpy.polynomial`` and one ``np.linalg.eigvals`` call on the
(nodes, 3, 3) companion matrices (the library's ``_stieltjes_eigvals``, still used off the
support), on every ``--stride``-th ρ, extrapolated linearly to the full grid. Best of
``--repeats`` calls each. The largest relative difference between the two on those ρ is
printed (the library promises 1e-10).

Run
---
``.venv/bin/python benchmarks/bench_quadratic_free.py [--repeats 3] [--stride 10]``

BLAS is pinned to one thread with threadpoolctl.
"""

from __future__ import annotations

import argparse
import itertools
import math
import warnings

import numpy as np
from _common import best_time, machine
from threadpoolctl import threadpool_limits

from assocmem.quadratic.free import _stieltjes_eigvals, rie_mmse

DELTA2_GRID = np.geomspace(1e-3, 1e2, 200)
RHO_GRID = np.geomspace(0.05, 20.0, 100)


def _old_support(rho: float, delta2: float) -> np.ndarray:
    P = np.polynomial.Polynomial
    s = math.sqrt(rho)
    a, e = delta2, -s
    b = P([-delta2 * s, -1.0])
    c = P([1.0 - rho, s])
    disc = 18 * a * b * c * e - 4 * b**3 * e + b**2 * c**2 - 4 * a * c**3 - 27 * a**2 * e**2
    roots = disc.roots()
    real = np.sort(roots[np.abs(roots.imag) <= 1e-7 * (1.0 + np.abs(roots))].real)
    return np.array(
        [(lo, hi) for lo, hi in itertools.pairwise(real) if disc((lo + hi) / 2) < 0], dtype=float
    )


def _old_mmse(rho: float, delta2: float) -> float:
    """The pre-batching ``rie_mmse`` for one δ² (commit 91e9413's ``_mmse``)."""
    edges = _old_support(rho, delta2)
    nodes = 96
    for _ in range(8):
        theta = (np.arange(nodes) + 0.5) * np.pi / nodes
        half = (edges[:, 1] - edges[:, 0])[:, None] / 2
        x = ((edges[:, 0] + edges[:, 1])[:, None] / 2 - half * np.cos(theta)).ravel()
        w = (half * np.sin(theta) * np.pi / nodes).ravel()
        density = np.maximum(_stieltjes_eigvals(x + 0j, rho, delta2).imag, 0.0) / np.pi
        if abs(float(w @ density) - 1.0) <= 1e-10:
            break
        nodes *= 2
    return delta2 - 4.0 * np.pi**2 / 3.0 * delta2**2 * float(w @ density**3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--stride", type=int, default=10)
    args = parser.parse_args()
    sub = RHO_GRID[:: args.stride]
    warnings.simplefilter("ignore")  # both paths warn alike at a few necks; timing only
    with threadpool_limits(limits=1):
        t_new, _ = best_time(lambda: [rie_mmse(DELTA2_GRID, r) for r in RHO_GRID], args.repeats)
        t_sub, _ = best_time(
            lambda: [[_old_mmse(r, t) for t in DELTA2_GRID] for r in sub], max(1, args.repeats // 2)
        )
        new = np.array([rie_mmse(DELTA2_GRID, r) for r in sub])
        old = np.array([[_old_mmse(r, t) for t in DELTA2_GRID] for r in sub])
    t_old = t_sub * len(RHO_GRID) / len(sub)
    n = DELTA2_GRID.size * RHO_GRID.size
    head = f"## rie_mmse, {DELTA2_GRID.size} δ² x {RHO_GRID.size} ρ = {n} values"
    print(f"{head} (1 thread, {machine()})\n")
    print("| method | time (s) | per value (ms) | ratio |")
    print("|---|---|---|---|")
    print(f"| batched closed-form cubic | {t_new:.3f} | {1e3 * t_new / n:.4f} | 1 |")
    print(
        f"| per-δ² eigvals ({len(sub)} ρ, extrapolated) | {t_old:.3f} | {1e3 * t_old / n:.4f} | "
        f"{t_old / t_new:.1f}x |"
    )
    print(f"\nLargest relative difference on the {len(sub)} ρ: {np.max(np.abs(new / old - 1)):.2e}")


if __name__ == "__main__":
    main()
