"""GPU run: averaged gradient descent against GAMP-RIE as d grows (the papers' d = 100-200 scale).

What it measures
----------------
For d in ``--dims`` (default 40, 100, 200) at ρ = 0.5, α = 0.2 (noiseless network data, one
instance per d, seed 0): GAMP-RIE's error on the instance, and ``gd_quadnet`` with K = 64 Adam
runs (lr 0.01, ``--steps`` steps) batched as one (K, p, d) tensor on the GPU: the mean single-run
error, the averaged predictor's error and the largest training MSE. A run that samples the
posterior has twice the MMSE, and the average of K such runs has MMSE (1 + 1/K) (the Nishimori
identity); the ratios compare both against GAMP-RIE on the same instance, which removes most of
the finite-size bias. The Bayes-optimal MMSE of the d → ∞ theory is printed alongside.

Run (on a machine with CuPy and a GPU)
---
``PYTHONPATH=src python benchmarks/gpu_quadratic_scale.py [--dims 40 100 200] [--steps 4000]``
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import warnings

import numpy as np

from assocmem._validation import ConvergenceWarning
from assocmem.backend import get_namespace
from assocmem.quadratic import bo_mmse, gamp_rie, gd_quadnet, sample_sensing

RHO, ALPHA, RUNS = 0.5, 0.2, 64


def _host(a) -> np.ndarray:
    """A NumPy copy of a NumPy or CuPy array."""
    return a.get() if hasattr(a, "get") else np.asarray(a)


def _row(d: int, steps: int, lr: float, xp) -> dict:
    data = sample_sensing(d, RHO, ALPHA, rng=0, xp=xp)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        g = float(gamp_rie(data, RHO).error[-1])
    t1 = time.perf_counter()
    res = gd_quadnet(data, RHO, runs=RUNS, steps=steps, lr=lr, rng=1)
    t2 = time.perf_counter()
    return {
        "d": d,
        "n": data.n,
        "steps": steps,
        "lr": lr,
        "runs": RUNS,
        "gamp": g,
        "single_mean": float(np.mean(_host(res.error_single))),
        "averaged": float(res.error_mean),
        "max_train_mse": float(np.max(_host(res.train_mse))),
        "gamp_s": t1 - t0,
        "gd_s": t2 - t1,
    }


def _line(r: dict) -> str:
    g, single, mean = r["gamp"], r["single_mean"], r["averaged"]
    ratios = f"{mean / (g * (1 + 1 / RUNS)):.3f} | {single / (2 * g):.3f}"
    return (
        f"| {r['d']} | {r['n']} | {r['lr']:g} | {r['steps']} | {g:.4f} | {single:.4f} | {mean:.4f} "
        f"| {r['max_train_mse']:.1e} | {ratios} | {r['gamp_s']:.1f} | {r['gd_s']:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[40, 100, 200])
    parser.add_argument("--steps", type=int, nargs="+", default=[4000])
    parser.add_argument("--lrs", type=float, nargs="+", default=[0.01])
    parser.add_argument("--xp", choices=["numpy", "cupy"], default="cupy")
    parser.add_argument("--json", help="also write the rows and the device to this file")
    args = parser.parse_args()
    xp = get_namespace(args.xp)
    mmse = float(bo_mmse(ALPHA, RHO).mmse)
    print(f"## averaged GD (K = {RUNS} Adam runs) vs GAMP-RIE, ρ = {RHO}, α = {ALPHA}")
    avg = mmse * (1 + 1 / RUNS)
    print(f"BO MMSE (d → ∞) {mmse:.4f}; 2 MMSE {2 * mmse:.4f}; MMSE (1 + 1/K) {avg:.4f}\n")
    print(
        "| d | n | Adam lr | steps | GAMP-RIE | single GD (mean) | averaged GD | max train MSE "
        "| AGD / [GAMP (1 + 1/K)] | single / (2 GAMP) | GAMP (s) | GD (s) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for d in args.dims:
        for lr in args.lrs:
            for steps in args.steps:
                rows.append(_row(d, steps, lr, xp))
                print(_line(rows[-1]), flush=True)
    if args.json:
        device = (
            xp.cuda.runtime.getDeviceProperties(0)["name"].decode() if args.xp == "cupy" else ""
        )
        meta = {
            "rho": RHO,
            "alpha": ALPHA,
            "runs": RUNS,
            "bo_mmse": mmse,
            "xp": args.xp,
            "device": device or platform.machine(),
            "script": "benchmarks/gpu_quadratic_scale.py",
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"meta": meta, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
