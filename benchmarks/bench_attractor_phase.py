"""Benchmark: the (n, σ) phase diagram of the critical load α_S (Fig. 4a-c, note §2.9).

What it measures
----------------
``phase_diagram`` on the note's grid, n in [0.5, 2] step 0.01 (151 points) x σ in [0.05, 10]
(53 log-spaced points), θ = θ*_bulk: the quadrature of note §2.8 vectorised over a
(n, σ, 201 nodes) array. Median of ``--repeats`` calls after one warm-up call. The baseline,
measured in the same run, is a Python loop of ``theory`` over every ``--stride``-th grid point,
extrapolated linearly to the full grid. The optimum (α_S*, n*, σ*) is printed next to the
note's value as a sanity check.

Run
---
``OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_attractor_phase.py [--repeats 7]``
``[--stride 10] [--cv 1.0]``

BLAS is pinned to one thread with threadpoolctl.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from threadpoolctl import threadpool_limits

from assocmem.attractor.meanfield import phase_diagram, theory

N_GRID = np.round(np.arange(0.5, 2.0 + 1e-9, 0.01), 2)
SIGMA_GRID = np.geomspace(0.05, 10.0, 53)
# Note §2.9, second table: CV -> (α_S*, n*, σ*).
NOTE_OPTIMA = {0.5: (0.207, 1.04, 0.35), 1.0: (0.385, 1.09, 0.71), 1.5: (0.492, 1.05, 1.18),
               2.0: (0.564, 1.01, 1.77), 3.0: (0.651, 0.98, 2.40), 4.0: (0.708, 0.95, 4.00)}


def _median_s(fn, repeats: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _loop(cv: float, points: list[tuple[float, float]]) -> None:
    for n, s in points:
        theory(cv, s, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--stride", type=int, default=10)
    parser.add_argument("--cv", type=float, default=1.0)
    args = parser.parse_args()
    grid = [(float(n), float(s)) for n in N_GRID for s in SIGMA_GRID]
    sub = grid[:: args.stride]
    with threadpool_limits(limits=1):
        t_vec = _median_s(lambda: phase_diagram(args.cv, N_GRID, SIGMA_GRID), args.repeats)
        t_sub = _median_s(lambda: _loop(args.cv, sub), max(3, args.repeats // 2))
        pd = phase_diagram(args.cv, N_GRID, SIGMA_GRID)
    t_loop = t_sub * len(grid) / len(sub)
    print(f"## Phase diagram, CV = {args.cv}, {len(N_GRID)} x {len(SIGMA_GRID)} grid (1 thread)\n")
    print("| method | time (s) | ratio |")
    print("|---|---|---|")
    print(f"| `phase_diagram` (vectorised) | {t_vec:.3f} | 1 |")
    print(f"| loop of `theory` ({len(sub)} points, extrapolated) | {t_loop:.3f} | "
          f"{t_loop / t_vec:.0f}x |")
    a, n, s = pd.optimum
    ref = NOTE_OPTIMA.get(args.cv)
    ref_txt = f"{ref[0]:.3f} at n = {ref[1]:.2f}, σ = {ref[2]:.2f}" if ref else "n/a"
    print(f"\nOptimum: α_S* = {a:.3f} at n = {n:.2f}, σ = {s:.2f} (note §2.9: {ref_txt})")


if __name__ == "__main__":
    main()
