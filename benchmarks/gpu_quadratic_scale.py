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


def _row(d: int, steps: int, xp) -> str:
    data = sample_sensing(d, RHO, ALPHA, rng=0, xp=xp)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        g = float(gamp_rie(data, RHO).error[-1])
    t1 = time.perf_counter()
    res = gd_quadnet(data, RHO, runs=RUNS, steps=steps, lr=0.01, rng=1)
    single = float(np.mean(_host(res.error_single)))
    mean = float(res.error_mean)
    train = float(np.max(_host(res.train_mse)))
    t2 = time.perf_counter()
    ratios = f"{mean / (g * (1 + 1 / RUNS)):.3f} | {single / (2 * g):.3f}"
    return (
        f"| {d} | {data.n} | {g:.4f} | {single:.4f} | {mean:.4f} | {train:.1e} "
        f"| {ratios} | {t1 - t0:.1f} | {t2 - t1:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[40, 100, 200])
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--xp", choices=["numpy", "cupy"], default="cupy")
    args = parser.parse_args()
    xp = get_namespace(args.xp)
    mmse = float(bo_mmse(ALPHA, RHO).mmse)
    print(
        f"## averaged GD (K = {RUNS}, {args.steps} Adam steps) vs GAMP-RIE, ρ = {RHO}, α = {ALPHA}"
    )
    avg = mmse * (1 + 1 / RUNS)
    print(f"BO MMSE (d → ∞) {mmse:.4f}; 2 MMSE {2 * mmse:.4f}; MMSE (1 + 1/K) {avg:.4f}\n")
    print(
        "| d | n | GAMP-RIE | single GD (mean) | averaged GD | max train MSE "
        "| AGD / [GAMP (1 + 1/K)] | single / (2 GAMP) | GAMP (s) | GD (s) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d in args.dims:
        print(_row(d, args.steps, xp), flush=True)


if __name__ == "__main__":
    main()
