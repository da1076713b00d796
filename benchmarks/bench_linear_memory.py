"""Benchmark: cross-entropy step and Fig. 1 sweep, original vs decoupled linear memory.

What it measures
----------------
(a) One full-batch ``loss_and_grad`` step (loss + dL/dW, float64, the public function) for the
original problem (OP, values (p, d)) and the decoupled problem (DP, values (p, p, d)) at
d = 40 and 60, α = 0.8 and 1.0 (p = ``p_at_load(α, d)``). Median of ``--repeats`` calls after
one warm-up call; both problems are timed in the same run and the ratio DP / OP is reported.
The DP step streams the (p, p, d) values twice (scores, then gradient) with batched
matrix-vector products; the column ``DP f32`` times the same kernel on float32 arrays (the
``dtype="float32"`` option of ``train``). ``DP 2-pass`` is the DP step without blocking
(scores over all the values, then the gradient over all of them: two reads of p² d numbers), the
kernel before the blocked one. ``1 pass`` is one plain matrix-vector product over the DP values
(``values.reshape(p * p, d) @ y``): the memory-bandwidth floor of one read of the p² d numbers,
which any DP step must make; ``1 pass / OP`` is the ratio DP / OP that no DP kernel can beat on
this machine. All callables of one row are interleaved within every repeat, so all see the same
machine load.

(b) The accuracy-versus-α sweep of Fig. 1 at d = 40: 8 values of α in [0.2, 1.2] x 3 repetitions
x both problems, each trained by ``train`` with the default protocol (App. A: full-batch Adam,
lr 1e-2, 512 steps, warm-up 25, early stop at 99.9 %). Instance seed = rep, paired across OP and
DP (same keys); initialisation seed = rep. Reports the total wall time (sampling + training) and
the mean final training accuracy per α and problem.

(c) Whole ``train`` runs without early stopping (``--train-steps`` Adam steps, 512 by default,
float64) at ``--train-d`` (60) and α = ``--train-alpha`` (1.0), OP and DP, with the host reading
the accuracy and loss every step (``check_every=1``, the NumPy default) and every 16 steps
(the CuPy default): ms per step, median of ``--train-repeats`` interleaved runs. The two give
identical weights (checked); on NumPy there is no device to wait for, so they should cost the
same: the column shows what the per-step bookkeeping of the histories costs on the CPU.

Run
---
``OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_linear_memory.py [--repeats 15]``
``[--dims 40 60] [--alphas 0.8 1.0] [--sweep-d 40] [--sweep-dtype float64] [--no-sweep]``
``[--no-step] [--no-train] [--train-d 60] [--train-alpha 1.0] [--train-steps 512]``

BLAS is pinned to one thread with threadpoolctl.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from threadpoolctl import threadpool_limits

from assocmem.linear_memory.capacity import load, p_at_load
from assocmem.linear_memory.problem import sample_problem
from assocmem.linear_memory.training import _loss_grad, loss_and_grad, train


def _median_ms(fns: dict, repeats: int) -> dict:
    """Median time (ms) of each callable; the callables are interleaved within every repeat so
    that all of them see the same machine load (the ratios are measured in the same run)."""
    for fn in fns.values():
        fn()  # warm-up
    times: dict = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: 1e3 * statistics.median(ts) for name, ts in times.items()}


def _dp_two_pass(W, keys, values):
    """Reference DP step without blocking (the kernel before blocking): scores over all the
    values, softmax, then the gradient over all the values again (two reads of p² d numbers)."""
    y = keys @ W.T
    S = np.matmul(values, y[:, :, None])[:, :, 0]
    p = S.shape[0]
    idx = np.arange(p)
    mx = S.max(axis=1, keepdims=True)
    G = np.exp(S - mx)
    norm = G.sum(axis=1, keepdims=True)
    loss = np.mean(mx[:, 0] + np.log(norm[:, 0]) - S[idx, idx])
    G /= norm
    G[idx, idx] -= 1.0
    G /= p
    return loss, np.matmul(G[:, None, :], values)[:, 0, :].T @ keys


def bench_step(dims: list[int], alphas: list[float], repeats: int) -> None:
    print("## One full-batch loss_and_grad step (ms, median, interleaved)\n")
    print(
        "| d | α | p | DP values (MB) | OP | DP | DP / OP | DP 2-pass | DP f32 | DP f32 / OP "
        "| 1 pass | 1 pass / OP |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d in dims:
        for alpha in alphas:
            p = p_at_load(alpha, d)
            op = sample_problem(d, p, "original", rng=0)
            dp = sample_problem(d, p, "decoupled", rng=0)
            W = np.random.default_rng(1).standard_normal((d, d)) / d
            k32 = dp.keys.astype(np.float32)
            v32 = dp.values.astype(np.float32)
            w32 = W.astype(np.float32)
            flat = dp.values.reshape(p * p, d)
            y = np.ones(d)
            t = _median_ms(
                {
                    "op": lambda W=W, op=op: loss_and_grad(W, op),
                    "dp": lambda W=W, dp=dp: loss_and_grad(W, dp),
                    "dp2": lambda W=W, dp=dp: _dp_two_pass(W, dp.keys, dp.values),
                    "dp32": lambda w=w32, k=k32, v=v32: _loss_grad(w, k, v, "decoupled", np),
                    "pass": lambda f=flat, y=y: f @ y,
                },
                repeats,
            )
            print(
                f"| {d} | {alpha:g} | {p} | {dp.values.nbytes / 1e6:.0f} | {t['op']:.2f} | "
                f"{t['dp']:.2f} | {t['dp'] / t['op']:.1f} | {t['dp2']:.2f} | {t['dp32']:.2f} | "
                f"{t['dp32'] / t['op']:.1f} | {t['pass']:.2f} | {t['pass'] / t['op']:.1f} |"
            )
            del op, dp, v32, flat
    print()


def bench_sweep(d: int, n_alpha: int, reps: int, dtype: str) -> None:
    alphas = np.linspace(0.2, 1.2, n_alpha)
    acc = {kind: np.zeros((n_alpha, reps)) for kind in ("original", "decoupled")}
    wall = dict.fromkeys(acc, 0.0)
    for i, alpha in enumerate(alphas):
        p = p_at_load(float(alpha), d)
        for rep in range(reps):
            for kind in acc:
                t0 = time.perf_counter()
                inst = sample_problem(d, p, kind, rng=rep)
                res = train(inst, rng=rep, dtype=dtype)
                wall[kind] += time.perf_counter() - t0
                acc[kind][i, rep] = res.accuracy
    total = sum(wall.values())
    print(f"## Fig. 1 sweep, d = {d}, {n_alpha} α x {reps} reps x 2 problems, {dtype}\n")
    print(
        f"Total wall time: {total:.1f} s (OP {wall['original']:.1f} s, "
        f"DP {wall['decoupled']:.1f} s)\n"
    )
    print("| α (target) | p | α (effective) | accuracy OP | accuracy DP |")
    print("|---|---|---|---|---|")
    for i, alpha in enumerate(alphas):
        p = p_at_load(float(alpha), d)
        print(
            f"| {alpha:.3f} | {p} | {load(p, d):.3f} | {acc['original'][i].mean():.3f} | "
            f"{acc['decoupled'][i].mean():.3f} |"
        )
    print()


def bench_train(d: int, alpha: float, steps: int, repeats: int) -> None:
    p = p_at_load(alpha, d)
    print(f"## Whole train runs, d = {d}, α = {alpha:g} (p = {p}), {steps} steps, float64\n")
    print("| problem | ms/step, check_every = 1 | ms/step, check_every = 16 | ratio |")
    print("|---|---|---|---|")
    for kind in ("original", "decoupled"):
        inst = sample_problem(d, p, kind, rng=0)
        out = {}

        def run(k: int, inst=inst, out=out) -> None:
            out[k] = train(inst, rng=0, steps=steps, early_stop=None, check_every=k)

        t = _median_ms({1: lambda: run(1), 16: lambda: run(16)}, repeats)
        if not np.array_equal(out[1].weights, out[16].weights):
            raise RuntimeError("check_every changed the weights")
        print(f"| {kind} | {t[1] / steps:.2f} | {t[16] / steps:.2f} | {t[16] / t[1]:.3f} |")
        del inst, out
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="timed calls per step (median)")
    parser.add_argument("--dims", type=int, nargs="+", default=[40, 60])
    parser.add_argument("--alphas", type=float, nargs="+", default=[0.8, 1.0])
    parser.add_argument("--sweep-d", type=int, default=40)
    parser.add_argument("--sweep-alphas", type=int, default=8)
    parser.add_argument("--sweep-reps", type=int, default=3)
    parser.add_argument("--sweep-dtype", choices=("float64", "float32"), default="float64")
    parser.add_argument("--no-sweep", action="store_true", help="skip the Fig. 1 sweep")
    parser.add_argument("--no-step", action="store_true", help="skip the step timings")
    parser.add_argument("--no-train", action="store_true", help="skip the whole train runs")
    parser.add_argument("--train-d", type=int, default=60)
    parser.add_argument("--train-alpha", type=float, default=1.0)
    parser.add_argument("--train-steps", type=int, default=512)
    parser.add_argument("--train-repeats", type=int, default=3)
    args = parser.parse_args()
    with threadpool_limits(limits=1):
        if not args.no_step:
            bench_step(args.dims, args.alphas, args.repeats)
        if not args.no_sweep:
            bench_sweep(args.sweep_d, args.sweep_alphas, args.sweep_reps, args.sweep_dtype)
        if not args.no_train:
            bench_train(args.train_d, args.train_alpha, args.train_steps, args.train_repeats)


if __name__ == "__main__":
    main()
