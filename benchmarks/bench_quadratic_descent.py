"""Benchmark: one full-batch Adam step of ``gd_quadnet``, K runs batched against a loop over K.

What it measures
----------------
The time of one step of :func:`assocmem.quadratic.descent.gd_quadnet` (loss gradient plus Adam
update) on network data at ρ = 0.5, α = 0.2, for (d, K) = (40, 16), the notebook's size, and
(200, 64), the papers' scale (64 initialisations at d = 200). "batched" trains the K runs as one
(K, p, d) tensor (two (Kp × d)·(d × n) products per step); "loop" does the same K times on a
(1, p, d) tensor, as K separate runs would. The GEMM rate is the step's 4 K p n d flops over its
time. Best of ``--repeats`` timings of ``--steps`` steps each.

Run
---
``.venv/bin/python benchmarks/bench_quadratic_descent.py [--xp cupy] [--repeats 2] [--steps 3]``

BLAS is pinned to one thread with threadpoolctl (NumPy); with ``--xp cupy`` every timing ends
with a device synchronisation.
"""

from __future__ import annotations

import argparse

import numpy as np
from _common import best_time, machine
from threadpoolctl import threadpool_limits

from assocmem.backend import get_namespace
from assocmem.quadratic import descent
from assocmem.quadratic._optim import adam_init, adam_step
from assocmem.quadratic.sensing import sample_sensing

RHO, ALPHA, LR = 0.5, 0.2, 0.01
SIZES = [(40, 16), (200, 64)]


def _steps(data, W, steps: int, xp, sync) -> None:
    """``steps`` Adam steps of the quadratic-network loss on the batch W (K, p, d)."""
    state = adam_init(W)
    for _ in range(steps):
        _, grad = descent._loss_grad(W, data, xp)
        W, state = adam_step(W, grad, state, lr=LR)
    sync()


def _row(d: int, K: int, xp, sync, args) -> str:
    data = sample_sensing(d, RHO, ALPHA, rng=0, xp=xp)
    p = max(1, round(RHO * d))
    W = xp.asarray(np.random.default_rng(1).standard_normal((K, p, d)))
    t_batch, _ = best_time(lambda: _steps(data, W, args.steps, xp, sync), args.repeats)
    singles = [W[k : k + 1] for k in range(K)]
    t_loop, _ = best_time(
        lambda: [_steps(data, w, args.steps, xp, sync) for w in singles], args.repeats
    )
    per_batch, per_loop = t_batch / args.steps, t_loop / args.steps
    gflops = 4.0 * K * p * data.n * d / per_batch / 1e9
    return (
        f"| {d} | {K} | {data.n} | {1e3 * per_batch:.3g} | {1e3 * per_loop:.3g} | "
        f"{per_loop / per_batch:.1f}x | {gflops:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xp", choices=["numpy", "cupy"], default="numpy")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    xp = get_namespace(args.xp)
    sync = (lambda: xp.cuda.Device().synchronize()) if args.xp == "cupy" else (lambda: None)
    print(f"## gd_quadnet, one Adam step, ρ = {RHO}, α = {ALPHA} ({args.xp}, {machine()})\n")
    print("| d | K | n | batched (ms/step) | loop over K (ms/step) | ratio | batched GFLOP/s |")
    print("|---|---|---|---|---|---|---|")
    with threadpool_limits(limits=1):
        for d, K in SIZES:
            print(_row(d, K, xp, sync, args), flush=True)


if __name__ == "__main__":
    main()
