"""Benchmark: a Bayes-optimal learning curve and the (α, ρ) phase diagram, against root finding.

What it measures
----------------
1. A whole noiseless learning curve at ρ = 0.5 with 300 points by the inverse parametrisation,
   ``assocmem.quadratic.bayes.bo_curve(0.5, n=300)`` (one vectorised ``rie_mmse`` call),
   against ``bo_mmse`` (Brent on log q̂) at the same 300 values of α, one point at a time.
2. The 200 × 100 phase diagram of the section ``ai-bayes`` (α in [0, 0.6], ρ in [0.01, 2]) by
   ``assocmem.explore.attention_index.bayes.bo_phase_diagram`` (one ``bo_curve`` per ρ,
   interpolated in α), against a per-point ``bo_mmse`` loop over the same 20,000 cells, measured
   on every ``--stride``-th ρ and extrapolated linearly to the full grid.

Both in one run, best of ``--repeats`` calls each (the loops once), BLAS pinned to one thread.
The largest difference between the two routes is printed (interpolation error for the diagram).

Run
---
``.venv/bin/python benchmarks/bench_quadratic_bayes.py [--repeats 3] [--stride 20]``
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from _common import best_time, machine
from threadpoolctl import threadpool_limits

from assocmem.explore.attention_index.bayes import bo_phase_diagram
from assocmem.quadratic.bayes import bo_curve, bo_mmse

ALPHA_GRID = np.linspace(0.0, 0.6, 200)
RHO_GRID = np.linspace(0.01, 2.0, 100)


def _loop(alphas: np.ndarray, rho: float) -> np.ndarray:
    return np.array([bo_mmse(float(a), rho).mmse for a in alphas])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--stride", type=int, default=20)
    args = parser.parse_args()
    sub = RHO_GRID[:: args.stride]
    with warnings.catch_warnings(), threadpool_limits(limits=1):
        warnings.simplefilter("ignore")  # timing only; the library's warnings are its tests'
        t_curve, curve = best_time(lambda: bo_curve(0.5, n=300), args.repeats)
        t_curve_loop, m_loop = best_time(lambda: _loop(curve.alpha, 0.5), 1)
        t_pd, pd = best_time(lambda: bo_phase_diagram(ALPHA_GRID, RHO_GRID), args.repeats)
        t_sub, rows = best_time(lambda: [_loop(ALPHA_GRID, float(r)) for r in sub], 1)
    t_pd_loop = t_sub * RHO_GRID.size / sub.size
    curve_err = float(np.max(np.abs(m_loop - curve.mmse)))
    pd_err = float(np.max(np.abs(np.array(rows) - pd.mmse[:: args.stride])))
    n = ALPHA_GRID.size * RHO_GRID.size
    print(f"## Bayes-optimal curves (1 thread, {machine()})\n")
    print("| task | inverse parametrisation (s) | bo_mmse loop (s) | ratio | max difference |")
    print("|---|---|---|---|---|")
    print(
        f"| curve, 300 α, ρ = 0.5 | {t_curve:.3f} | {t_curve_loop:.2f} | "
        f"{t_curve_loop / t_curve:.0f}x | {curve_err:.1e} |"
    )
    print(
        f"| phase diagram, {ALPHA_GRID.size} α × {RHO_GRID.size} ρ = {n} | {t_pd:.2f} | "
        f"{t_pd_loop:.0f} ({sub.size} ρ, extrapolated) | {t_pd_loop / t_pd:.0f}x | {pd_err:.1e} |"
    )


if __name__ == "__main__":
    main()
