"""Benchmark: one GAMP-RIE iteration against its O(n d²) flop count and this machine's GEMM rate.

What it measures
----------------
The time per iteration of :func:`assocmem.quadratic.gamp.gamp_rie` on network data at ρ = 0.5
(default d = 100, α = 0.2: n = 2000), over ``--iters`` iterations (the stop rule is disabled,
the cache of denoising MMSE values is cleared before each timing). An iteration does two
(n, d) × (d, d) products, the forward map Tr[G_μ Â] and the adjoint Σ_μ g_μ G_μ (4 n d² flops),
one ``eigh`` of a d × d matrix and the RIE map and denoising MMSE on the CPU. In the same run the
script times the pieces separately and measures the GEMM rate of one (n, d) × (d, d) product;
"fraction" is 4 n d² / (time per iteration) over that rate, the share of the machine's matrix
speed the whole iteration reaches.

With ``--xp cupy`` the same rows are timed with NumPy and with CuPy (data on the GPU, every
timing ends with a device synchronisation) and the ratio is printed; the RIE map and the MMSE
stay on the CPU in both.

Run
---
``.venv/bin/python benchmarks/bench_quadratic_gamp.py [--d 100] [--alpha 0.2] [--xp cupy]
[--iters 20] [--repeats 3]``

BLAS is pinned to one thread with threadpoolctl (NumPy).
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from _common import best_time, machine
from threadpoolctl import threadpool_limits

from assocmem._validation import ConvergenceWarning
from assocmem.backend import get_namespace
from assocmem.quadratic import gamp
from assocmem.quadratic.free import rie_mmse, rie_shrinkage
from assocmem.quadratic.sensing import _adjoint, _forward, sample_sensing

RHO = 0.5


def _sync(xp):
    return (lambda: xp.cuda.Device().synchronize()) if xp.__name__ == "cupy" else (lambda: None)


def _iteration_time(data, iters: int, repeats: int, sync) -> float:
    """Seconds per iteration of gamp_rie with the stop rule off (cold MMSE cache each time)."""

    def run() -> None:
        gamp._den_mmse.cache_clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            gamp.gamp_rie(data, RHO, max_iter=iters, tol=1e-300)
        sync()

    return best_time(run, repeats)[0] / iters


def _pieces(data, xp, repeats: int, sync) -> dict[str, float]:
    """Seconds of each piece of one iteration, timed alone."""
    rng = np.random.default_rng(0)
    B = xp.asarray(rng.standard_normal((data.d, data.d)))
    g = xp.asarray(rng.standard_normal(data.n))
    lam = np.sort(rng.uniform(-1.0, 3.0, data.d))

    def timed(fn) -> float:
        return best_time(lambda: (fn(), sync()), repeats)[0]

    return {
        "gemm": timed(lambda: data.X @ B),
        "forward": timed(lambda: _forward(data, B, xp)),
        "adjoint": timed(lambda: _adjoint(data, g, xp)),
        "eigh": timed(lambda: xp.linalg.eigh(B + B.T)),
        "rie": timed(lambda: rie_shrinkage(lam, RHO, 1.0) + rie_mmse(1.0, RHO)),
    }


def _row(name: str, data, xp, args) -> tuple[str, float]:
    sync = _sync(xp)
    per_iter = _iteration_time(data, args.iters, args.repeats, sync)
    p = _pieces(data, xp, max(args.repeats, 5), sync)
    n, d = data.n, data.d
    rate = 2.0 * n * d * d / p["gemm"]  # flop/s of one (n, d) x (d, d) product
    fraction = 4.0 * n * d * d / per_iter / rate
    row = (
        f"| {name} | {d} | {n} | {1e3 * per_iter:.3g} | {1e3 * (p['forward'] + p['adjoint']):.3g}"
        f" | {1e3 * p['eigh']:.3g} | {1e3 * p['rie']:.3g} | {rate / 1e9:.2f} | {fraction:.2f} |"
    )
    return row, per_iter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=100)
    parser.add_argument("--alpha", type=float, default=0.2)
    parser.add_argument("--xp", choices=["numpy", "cupy"], default="numpy")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    names = ["numpy"] if args.xp == "numpy" else ["numpy", "cupy"]
    print(f"## gamp_rie, one iteration, ρ = {RHO}, α = {args.alpha} (1 BLAS thread, {machine()})\n")
    print(
        "| backend | d | n | ms/iteration | forward + adjoint (ms) | eigh (ms) "
        "| RIE map + MMSE (ms) | GEMM GFLOP/s | fraction of GEMM rate |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    times = {}
    with threadpool_limits(limits=1):
        for name in names:
            xp = get_namespace(name)
            data = sample_sensing(args.d, RHO, args.alpha, rng=0, xp=xp)
            row, times[name] = _row(name, data, xp, args)
            print(row, flush=True)
    if len(times) == 2:
        print(f"\nCuPy vs NumPy, time per iteration: {times['numpy'] / times['cupy']:.1f}x faster")


if __name__ == "__main__":
    main()
