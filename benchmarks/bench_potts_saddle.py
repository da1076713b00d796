"""Benchmark: the (ϱ, β_eff) phase diagram of the Potts-DAM saddle-point equations (Eq. 9).

What it measures
----------------
``assocmem.potts_dam.saddle.phase_diagram`` on a 100 x 100 grid, ϱ log-spaced in [0.1, 100] and
β_eff in [0.06, 6] (the chapter's exploration range, note §5.2 item 4), P* = 2, 3, 4 teacher
memories and P = 2 student copies from the symmetric start with the default kick, tol = 1e-9.
All grid points iterate as one batch; converged points leave it. Median of ``--repeats`` calls
after one warm-up call. The baseline, measured in the same run, is a Python loop of
``saddle_point`` over every ``--stride``-th grid point with the same settings, extrapolated
linearly to the full grid. The issue's target is 100 x 100 solves in under 10 s.

Points within a few per cent above the split line √(P* + 2/ϱ) are critically slow and may stop
at the 20000-iteration cap (a ConvergenceWarning, counted here and silenced); the table gives
their share.

Run
---
``OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_potts_saddle.py [--repeats 3]``
``[--stride 50]``

BLAS is pinned to one thread with threadpoolctl.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from assocmem._validation import ConvergenceWarning
from assocmem.potts_dam.saddle import phase_diagram, saddle_point

RHO = np.geomspace(0.1, 100.0, 100)
BETA_EFF = np.linspace(0.06, 6.0, 100)
TOL = 1e-9


def _median_s(fn, repeats: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _loop(points: list[tuple[float, float]], P_star: int) -> None:
    for rho, beta in points:
        saddle_point(beta, rho, P_star, 2, tol=TOL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--stride", type=int, default=50)
    args = parser.parse_args()
    grid = [(float(r), float(b)) for r in RHO for b in BETA_EFF]
    sub = grid[:: args.stride]
    print(f"## Saddle-point phase diagram, {len(RHO)} x {len(BETA_EFF)} grid, P = 2 (1 thread)\n")
    print("| P* | `phase_diagram` (s) | loop of `saddle_point` (s, extrapolated) | ratio "
          "| converged |")  # fmt: skip
    print("|---|---|---|---|---|")
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for P_star in (2, 3, 4):
            t_vec = _median_s(lambda k=P_star: phase_diagram(RHO, BETA_EFF, k, 2), args.repeats)
            t_sub = _median_s(lambda k=P_star: _loop(sub, k), 1)
            pd = phase_diagram(RHO, BETA_EFF, P_star, 2)
            t_loop = t_sub * len(grid) / len(sub)
            print(f"| {P_star} | {t_vec:.2f} | {t_loop:.1f} | {t_loop / t_vec:.0f}x "
                  f"| {100 * pd.converged.mean():.1f} % |")  # fmt: skip


if __name__ == "__main__":
    main()
