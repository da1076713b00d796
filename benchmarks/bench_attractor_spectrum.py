"""Benchmark: low-rank Jacobian spectrum (Eq. 9, note §1.6) against full ``numpy.linalg.eigvals``.

Setup: log-normal patterns (CV = 1), σ = 1, n = 1, Eq. 8 (pseudo-inverse) weights at θ*_bulk,
α = 0.2, N = 1000 and 2000. The reduced method builds the P × P matrix K_μ = R† D_μ V and takes
its eigenvalues (``jacobian_spectrum(net, 0)``); the baseline builds the N × N J_μ = −I + D_μ W
(Eq. 5) and calls ``numpy.linalg.eigvals`` on it, measured in the same run. Both must give the
same spectral abscissa (to 1e-8); the script stops with an error otherwise.

Also timed: one empirical α_S scan (``empirical_critical_load``) at N = 1000 on a small α grid
with a few patterns per load, to check it fits a 60 s notebook budget.

Timing: one BLAS thread (threadpoolctl); each entry is the median of ``--repeats`` runs.

Usage::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_attractor_spectrum.py
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_attractor_spectrum.py --repeats 5
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np
from threadpoolctl import threadpool_limits

from assocmem.attractor.network import empirical_critical_load, jacobian_spectrum, pinv_weights
from assocmem.attractor.rates import gain, sample_patterns


def median_time(fn, repeats: int) -> tuple[float, object]:
    """Median wall time of ``repeats`` calls and the last result."""
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def full_abscissa(net) -> float:
    """Baseline: eigvals of the full N × N Jacobian of Eq. 5 at pattern 0."""
    d = gain(net.R[:, 0], net.sigma, net.n)
    J = d[:, None] * net.W - np.eye(net.N)
    return float(np.linalg.eigvals(J).real.max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--alpha", type=float, default=0.2)
    args = parser.parse_args()
    rows = []
    with threadpool_limits(limits=1):
        for N in (1000, 2000):
            P = round(args.alpha * N)
            net = pinv_weights(sample_patterns(N, P, 1.0, rng=0), 1.0, 1.0)
            t_low, spec = median_time(lambda net=net: jacobian_spectrum(net, 0), args.repeats)
            t_full, ab_full = median_time(lambda net=net: full_abscissa(net), args.repeats)
            if abs(spec.abscissa[0] - ab_full) > 1e-8:
                raise SystemExit(f"abscissa mismatch at N={N}: {spec.abscissa[0]} vs {ab_full}")
            rows.append((N, P, t_low, t_full, float(spec.abscissa[0])))
        alphas = [0.1, 0.15, 0.2, 0.25, 0.3]
        t0 = time.perf_counter()
        scan = empirical_critical_load(1000, 1.0, 1.0, 1.0, alphas, patterns=4, rng=0)
        t_scan = time.perf_counter() - t0

    print(f"Machine: {platform.processor() or platform.machine()}, 1 BLAS thread, "
          f"median of {args.repeats} runs, α = {args.alpha}, CV = σ = n = 1\n")
    print("| N | P | low-rank (s) | full eigvals (s) | speedup | abscissa |")
    print("|---|---|---|---|---|---|")
    for N, P, t_low, t_full, ab in rows:
        print(f"| {N} | {P} | {t_low:.3f} | {t_full:.3f} | {t_full / t_low:.0f}× | {ab:+.4f} |")
    print(f"\nEmpirical α_S scan, N = 1000, α ∈ {alphas}, 4 patterns per load: {t_scan:.1f} s")
    print("stable fraction:", scan.stable_fraction.tolist())
    print("mean abscissa:", np.round(scan.mean_abscissa, 4).tolist())
    print(f"α_S (zero crossing of the mean abscissa) = {scan.alpha_s:.3f} "
          "(note §3.3: 0.20; Eq. 19: 0.30)")


if __name__ == "__main__":
    main()
