"""Benchmark: exact LSR minima by search (`lsr_minima`) against brute force over all subsets.

Setup (paper Sec. 4.1 and App. C.2, Fig. 3 left): M memories uniform in [0, 1]^d with d = 8 and
M = 16, 18, 20, 22; β runs over ``fig3_beta_grid`` (24 geometric points from 2/d to 2/r_min²,
extended with the same ratio to 8/r_min², note P3). The baseline is the paper's method, every
non-empty subset checked in vectorised NumPy blocks (``lsr_minima_bruteforce``), measured in the
same run. Both results must be identical at every β; the script stops with an error otherwise.

Timing: one BLAS thread (threadpoolctl). Each timing is the best of ``--repeats`` runs, except
the brute force for M >= 20, which is run once (it takes seconds, so noise is relatively small;
this is stated in the table). To keep the default run near 10 minutes on 2 cores, M = 22 is
measured at every second β (17 of 33, from the first); ``--bf-every 1`` measures all.

Usage::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_lsr_minima.py            # M = 16..22, ~8 min
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_lsr_minima.py --quick    # M = 16, 18
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_lsr_minima.py --write-readme

``--write-readme`` replaces the section between the markers in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys

import numpy as np
from _common import best_time, machine, write_section
from threadpoolctl import threadpool_limits

from assocmem.dense_am.minima import (
    beta_thresholds,
    fig3_beta_grid,
    lsr_minima,
    lsr_minima_bruteforce,
)


def run_one(M: int, d: int, seed: int, repeats: int, bf_every: int) -> list[dict]:
    """Time both methods on the Fig. 3 grid for one random memory set.

    The brute force runs at every ``bf_every``-th β (from the first); only those β are reported.
    """
    memories = np.random.default_rng([seed, M]).random((M, d))
    betas = fig3_beta_grid(memories)
    c3 = beta_thresholds(memories).single_minimum
    lsr_minima(memories, float(betas[len(betas) // 2]))  # warm caches and imports
    rows = []
    for i, beta in enumerate(betas):
        if i % bf_every:
            continue
        beta = float(beta)
        t_fast, fast = best_time(lambda b=beta: lsr_minima(memories, b), repeats)
        bf_reps = 1 if M >= 20 else repeats
        t_bf, brute = best_time(lambda b=beta: lsr_minima_bruteforce(memories, b), bf_reps)
        if fast != brute:
            raise SystemExit(f"MISMATCH at M={M}, beta={beta!r}: {len(fast)} vs {len(brute)}")
        rows.append(
            dict(M=M, i=i, beta=beta, count=len(fast), t_fast=t_fast, t_bf=t_bf, c3=beta < c3)
        )
        print(
            f"M={M:2d} beta[{i:2d}]={beta:8.3f} minima={len(fast):5d} brute={t_bf * 1e3:9.1f} ms "
            f"search={t_fast * 1e3:8.2f} ms speedup={t_bf / t_fast:8.1f}x",
            file=sys.stderr,
            flush=True,
        )
    return rows


def markdown(results: dict[int, list[dict]], d: int, seed: int, repeats: int) -> str:
    """Summary table per M and per-β tables."""
    lines = [
        f"Measured on {machine()}, one BLAS thread, d = {d}, "
        f"seed = {seed}, best of {repeats} (brute force for M >= 20: one run). All results "
        "identical to brute force at every β.",
        "",
        "| M | β values measured | brute force total (s) | search total (s) | median speedup | "
        "min speedup (at β) | max speedup | β < 2/diam² (C3) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for M, rows in results.items():
        sp = [r["t_bf"] / r["t_fast"] for r in rows]
        j = int(np.argmin(sp))
        lines.append(
            f"| {M} | {len(rows)} | {sum(r['t_bf'] for r in rows):.2f} | "
            f"{sum(r['t_fast'] for r in rows):.3f} | {statistics.median(sp):.0f}x | "
            f"{sp[j]:.1f}x (β = {rows[j]['beta']:.3g}, {rows[j]['count']} minima) | "
            f"{max(sp):.0f}x | {sum(r['c3'] for r in rows)} |"
        )
    for M, rows in results.items():
        lines += [
            "",
            f"<details><summary>Per-β timings, M = {M}</summary>",
            "",
            "| i | β | minima | brute force (ms) | search (ms) | speedup |",
            "|---|---|---|---|---|---|",
        ]
        for r in rows:
            flag = " (C3)" if r["c3"] else ""
            lines.append(
                f"| {r['i']} | {r['beta']:.4g}{flag} | {r['count']} | {r['t_bf'] * 1e3:.1f} | "
                f"{r['t_fast'] * 1e3:.2f} | {r['t_bf'] / r['t_fast']:.1f}x |"
            )
        lines += ["", "</details>"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--M", type=int, nargs="+", default=[16, 18, 20, 22])
    parser.add_argument("--quick", action="store_true", help="only M = 16, 18")
    parser.add_argument("--d", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--bf-every",
        type=int,
        default=0,
        help="measure every k-th β only (default: every β for M <= 20, every 2nd for M >= 22)",
    )
    parser.add_argument("--write-readme", action="store_true")
    args = parser.parse_args()
    Ms = [16, 18] if args.quick else args.M
    with threadpool_limits(limits=1):
        results = {
            M: run_one(M, args.d, args.seed, args.repeats, args.bf_every or (2 if M >= 22 else 1))
            for M in Ms
        }
    table = markdown(results, args.d, args.seed, args.repeats)
    print(table)
    if args.write_readme:
        write_section("bench_lsr_minima", table)


if __name__ == "__main__":
    main()
