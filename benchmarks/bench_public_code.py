"""Benchmark: exact LSR minima (`lsr_minima`) against the paper's public brute force.

Setup (paper Sec. 4.1, as the public code runs it): M memories drawn uniformly from [0, 1]^d in
float32 with d = 8 and M = 16, 18, 20; β runs over the public code's own grid,
``fig3_beta_grid(memories, n=50, spacing="paper")``: 50 points spaced linearly from 2/d to
8/r_min² (``exp_LMIN0.py`` with ``LMIN0_utils.py``). The baseline is
``public_bruteforce_minima``, our NumPy float32 re-implementation of that code's brute force
(every non-empty subset, kept when ‖∇E‖ < 5e-6 at its centroid), measured in the same run on the
same memories. Its count is reported beside the exact one; they need not agree (see the chapter
section "Reading the public counting code").

Timing: one BLAS thread (threadpoolctl). ``lsr_minima`` is the best of ``--repeats`` runs; the
brute force, which takes seconds for M >= 18, is run once there (best of ``--repeats`` for
M = 16). The last grid point, β = 8/r_min² exactly, is a tie point (the closest pair sits on the
support sphere to rounding); it is timed like the others.

Usage::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_public_code.py                 # ~5-10 min
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_public_code.py --M 16          # ~30 s
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_public_code.py --write-readme

``--write-readme`` replaces the section between the markers in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys

import numpy as np
from _common import best_time, machine, write_section
from threadpoolctl import threadpool_limits

from assocmem.dense_am import fig3_beta_grid, lsr_minima, public_bruteforce_minima


def run_one(M: int, d: int, seed: int, n_beta: int, repeats: int) -> list[dict]:
    """Time both methods at every β of the public code's grid for one memory set."""
    memories = np.random.default_rng([seed, M]).random((M, d), dtype=np.float32)
    memories = memories.astype(np.float64)  # float32 values, seen identically by both methods
    betas = fig3_beta_grid(memories, n=n_beta, spacing="paper")
    lsr_minima(memories, float(betas[len(betas) // 2]))  # warm caches and imports
    rows = []
    for i, beta in enumerate(betas):
        beta = float(beta)
        t_fast, exact = best_time(lambda b=beta: lsr_minima(memories, b), repeats)
        bf_reps = 1 if M >= 18 else repeats
        t_bf, public = best_time(lambda b=beta: public_bruteforce_minima(memories, b), bf_reps)
        rows.append(
            dict(M=M, i=i, beta=beta, exact=len(exact), public=public.count, t_fast=t_fast,
                 t_bf=t_bf)
        )  # fmt: skip
        print(
            f"M={M:2d} beta[{i:2d}]={beta:8.3f} exact={len(exact):5d} public={public.count:5d} "
            f"public brute force={t_bf * 1e3:9.1f} ms lsr_minima={t_fast * 1e3:8.2f} ms "
            f"speedup={t_bf / t_fast:8.1f}x",
            file=sys.stderr,
            flush=True,
        )
    return rows


def markdown(results: dict[int, list[dict]], d: int, seed: int, repeats: int) -> str:
    """Summary table per M and per-β tables."""
    lines = [
        f"Measured on {machine()}, one BLAS thread, d = {d}, "
        f"seed = {seed}, β on the public code's grid (linear, 2/d to 8/r_min²). lsr_minima: best "
        f"of {repeats}; public brute force: best of {repeats} for M = 16, one run for M >= 18.",
        "",
        "| M | β values | public brute force total (s) | lsr_minima total (s) | median speedup "
        "| smallest speedup (at β, exact minima) | β where the counts differ |",
        "|---|---|---|---|---|---|---|",
    ]
    for M, rows in results.items():
        sp = [r["t_bf"] / r["t_fast"] for r in rows]
        j = int(np.argmin(sp))
        differ = sum(r["public"] != r["exact"] for r in rows)
        lines.append(
            f"| {M} | {len(rows)} | {sum(r['t_bf'] for r in rows):.1f} | "
            f"{sum(r['t_fast'] for r in rows):.2f} | {statistics.median(sp):.0f}× | "
            f"{sp[j]:.1f}× (β = {rows[j]['beta']:.3g}, {rows[j]['exact']}) | {differ} |"
        )
    for M, rows in results.items():
        lines += [
            "",
            f"<details><summary>Per-β timings, M = {M}</summary>",
            "",
            "| i | β | exact minima | public count | public brute force (ms) | lsr_minima (ms) "
            "| speedup |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            lines.append(
                f"| {r['i']} | {r['beta']:.4g} | {r['exact']} | {r['public']} | "
                f"{r['t_bf'] * 1e3:.1f} | {r['t_fast'] * 1e3:.2f} | "
                f"{r['t_bf'] / r['t_fast']:.1f}× |"
            )
        lines += ["", "</details>"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--M", type=int, nargs="+", default=[16, 18, 20])
    parser.add_argument("--d", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-beta", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write-readme", action="store_true")
    args = parser.parse_args()
    with threadpool_limits(limits=1):
        results = {M: run_one(M, args.d, args.seed, args.n_beta, args.repeats) for M in args.M}
    table = markdown(results, args.d, args.seed, args.repeats)
    print(table)
    if args.write_readme:
        write_section("bench_public_code", table)


if __name__ == "__main__":
    main()
