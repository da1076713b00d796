"""GPU check (issue 14): NumPy on one BLAS thread against CuPy for the library's heavy kernels.

What it measures
----------------
For each kernel and a few sizes, the median wall time of repeated calls with NumPy (one BLAS
thread) and with CuPy (data on the GPU; the first CuPy call is an untimed warm-up, and every
timed call ends with a device synchronisation), and their ratio:

- ``linear_memory.train``, full-batch Adam steps at α = 0.8, float32 (ms per step): OP at
  d = 60, 150, 300 and DP at d = 60, 100;
- ``linear_memory.energetic_G_mc`` at t = 0.5, 4 samples: p = 10⁴ and 10⁵;
- ``dense_am.lsr_minima_bruteforce`` on M = 16 and 20 memories uniform in [0, 1]⁸, β = 6;
- attractor spectra: ``xp.linalg.eigvals`` of the N × N Jacobian J_μ = D_μ W (Eq. 5) with
  Eq. 8 weights (``attractor.pinv_weights``, α = 0.2, CV = σ = n = 1) at N = 1000, 2000, 4000;
  and ``attractor.simulate`` of 64 kicked states (one batch) for 100 Euler steps at N = 2000;
- ``quadratic.gamp_rie`` (ms per iteration, stop rule off) at d = 100 and 300, α = 0.2, ρ = 0.5;
- ``potts_dam.model.train``, one epoch (batch 50) on n = 10 000 synthetic unit vectors in
  N = 784 with P = 1000 memories (the data and epoch of ``gpu_potts_epoch.py``).

A call is repeated up to 3 times, fewer once one call takes over 5 s (the NumPy side of the
largest eigenproblems); the median is reported. The sizes are chosen so that the whole run stays
well under 8 minutes on an H100 host: about 3 minutes expected, nearly all of it NumPy (eigvals at
N = 4000 alone takes tens of seconds on one thread), an estimate from one-thread CPU timings,
not yet a measurement on an H100.

It prints one table (kernel, size, NumPy ms, CuPy ms, ratio) and writes it as JSON to ``--out``
(default ``benchmarks/results/gpu_check_<device>.json``) with provenance (device, CuPy and NumPy
versions, date), row by row, so a run cut short keeps what it measured (``complete`` is false
then). Without CuPy or a GPU it says so and exits 0. ``--dry-run`` runs the whole
harness with NumPy on both sides at tiny sizes (seconds; no file unless ``--out`` is given):
that is what CI tests.

Run
---
``python3 dev.py gpu`` (the gpu-marked tests, then this script), or
``PYTHONPATH=src:benchmarks python benchmarks/gpu_check.py [--dry-run] [--out FILE]``
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy loads: the baseline is one BLAS thread

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
for _p in (HERE.parent / "src", HERE):  # run from a checkout without installing the package
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import gpu_potts_epoch  # noqa: E402
import gpu_quadratic_scale  # noqa: E402

from assocmem import attractor as at  # noqa: E402
from assocmem import linear_memory as lm  # noqa: E402
from assocmem._validation import ConvergenceWarning  # noqa: E402
from assocmem.backend import get_namespace, has_gpu  # noqa: E402
from assocmem.dense_am import minima  # noqa: E402
from assocmem.quadratic import gamp, sample_sensing  # noqa: E402

REPEATS, SLOW_S = 3, 5.0
RESULTS = HERE / "results"


@dataclass(frozen=True)
class Case:
    """One row: a kernel at one size. ``make(xp)`` returns the call to time (with its divisor)."""

    kernel: str
    size: str
    make: Callable[[Any], tuple[Callable[[], Any], int]]
    unit: str = "ms"


def _train(kind: str, d: int, steps: int) -> Callable:
    def make(xp):
        inst = lm.sample_problem(d, lm.p_at_load(0.8, d), kind, rng=0)
        prob = lm.FactualRecallProblem(xp.asarray(inst.keys), xp.asarray(inst.values), kind)
        run = lambda: lm.train(prob, steps=steps, early_stop=None, dtype="float32", rng=0)  # noqa: E731
        return run, steps

    return make


def _energetic(p: int) -> Callable:
    def make(xp):
        return (lambda: lm.energetic_G_mc([0.5], p, samples=4, rng=0, backend=xp.__name__)), 1

    return make


def _bruteforce(M: int) -> Callable:
    def make(xp):
        mem = xp.asarray(np.random.default_rng(M).uniform(size=(M, 8)))
        return (lambda: minima.lsr_minima_bruteforce(mem, 6.0, xp=xp)), 1

    return make


def _network(N: int, xp) -> tuple[Any, Any]:
    R = xp.asarray(at.sample_patterns(N, N // 5, 1.0, rng=0))
    return at.pinv_weights(R, 1.0, 1.0), R


def _eigvals(N: int) -> Callable:
    def make(xp):
        net, R = _network(N, xp)
        J = at.jacobian(net.W, R[:, 0], 1.0, 1.0, net.theta)
        return (lambda: xp.linalg.eigvals(J)), 1

    return make


def _simulate(N: int, batch: int, steps: int) -> Callable:
    def make(xp):
        net, R = _network(N, xp)
        kick = np.random.default_rng(1).standard_normal((N, batch))
        r0 = R[:, :1] * (1.0 + 0.1 * xp.asarray(kick))
        return (lambda: at.simulate(net.W, r0, 1.0, 1.0, net.theta, 0.1, 0.1 * steps)), 1

    return make


def _gamp(d: int, iters: int) -> Callable:
    def make(xp):
        data = sample_sensing(d, gpu_quadratic_scale.RHO, 0.2, rng=0, xp=xp)

        def run():
            gamp._den_mmse.cache_clear()  # cold MMSE cache each call, as bench_quadratic_gamp
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                gamp.gamp_rie(data, gpu_quadratic_scale.RHO, max_iter=iters, tol=1e-300)

        return run, iters

    return make


def _potts(n: int, N: int, P: int) -> Callable:
    def make(xp):
        X, labels = gpu_potts_epoch._data(n, N, 10)
        Xd, yd = xp.asarray(X), xp.asarray(labels)
        sync = gpu_potts_epoch._sync(xp)
        # _epoch times one epoch itself (after init_state) and synchronises: its value is used.
        return (lambda: gpu_potts_epoch._epoch(Xd, yd, P, xp, sync)), 1

    return make


def cases(dry_run: bool) -> list[Case]:
    """The rows: real sizes, or tiny ones for ``--dry-run``."""
    if dry_run:
        return [
            Case("train OP (ms/step)", "d = 12", _train("original", 12, 3)),
            Case("train DP (ms/step)", "d = 10", _train("decoupled", 10, 3)),
            Case("energetic_G_mc", "p = 200", _energetic(200)),
            Case("lsr_minima_bruteforce", "M = 8", _bruteforce(8)),
            Case("attractor eigvals", "N = 100", _eigvals(100)),
            Case("attractor simulate (64 kicks, 100 steps)", "N = 100", _simulate(100, 64, 100)),
            Case("gamp_rie (ms/iteration)", "d = 20", _gamp(20, 3)),
            Case("potts_dam epoch", "n = 300, N = 64, P = 20", _potts(300, 64, 20)),
        ]
    return [
        *(
            Case("train OP (ms/step)", f"d = {d}", _train("original", d, s))
            for d, s in ((60, 20), (150, 20), (300, 2))
        ),
        *(
            Case("train DP (ms/step)", f"d = {d}", _train("decoupled", d, s))
            for d, s in ((60, 10), (100, 3))
        ),
        *(Case("energetic_G_mc", f"p = {p:.0e}", _energetic(p)) for p in (10**4, 10**5)),
        *(Case("lsr_minima_bruteforce", f"M = {M}", _bruteforce(M)) for M in (16, 20)),
        *(Case("attractor eigvals", f"N = {N}", _eigvals(N)) for N in (1000, 2000, 4000)),
        Case("attractor simulate (64 kicks, 100 steps)", "N = 2000", _simulate(2000, 64, 100)),
        *(Case("gamp_rie (ms/iteration)", f"d = {d}", _gamp(d, 5)) for d in (100, 300)),
        Case("potts_dam epoch", "n = 10000, N = 784, P = 1000", _potts(10_000, 784, 1000)),
    ]


def _sync(xp) -> Callable[[], None]:
    return gpu_potts_epoch._sync(xp)


def median_ms(run: Callable[[], Any], divisor: int, xp, warm_up: bool) -> float:
    """Median over up to ``REPEATS`` calls (fewer once one exceeds ``SLOW_S``), ms per unit."""
    sync = _sync(xp)
    if warm_up:
        run()
        sync()
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        out = run()
        sync()
        elapsed = time.perf_counter() - t0
        times.append(out if isinstance(out, float) else elapsed)
        if elapsed > SLOW_S:
            break
    return 1e3 * statistics.median(times) / divisor


def measure(rows: list[Case], gpu_name: str, on_row=None) -> list[dict]:
    """Time every case with NumPy and with ``gpu_name`` ("cupy", or "numpy" for a dry run).

    ``on_row`` sees the rows measured so far after each one (the script saves them).
    """
    xp_gpu = get_namespace(gpu_name)
    out = []
    print(f"| kernel | size | NumPy (ms) | {gpu_name} (ms) | ratio |\n|---|---|---|---|---|")
    for case in rows:
        t_np = median_ms(*case.make(np), np, warm_up=False)
        t_gpu = median_ms(*case.make(xp_gpu), xp_gpu, warm_up=True)
        row = {
            "kernel": case.kernel,
            "size": case.size,
            "numpy_ms": t_np,
            "gpu_ms": t_gpu,
            "ratio": t_np / t_gpu if t_gpu > 0 else float("inf"),
        }
        out.append(row)
        print(
            f"| {row['kernel']} | {row['size']} | {t_np:.3g} | {t_gpu:.3g} | {row['ratio']:.1f}× |",
            flush=True,
        )
        if on_row is not None:
            on_row(out)
    return out


def device_name(xp) -> str:
    """The GPU's name (CuPy), or the host's processor for a NumPy dry run."""
    if xp.__name__ == "cupy":
        name = xp.cuda.runtime.getDeviceProperties(0)["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    return f"CPU {platform.processor() or platform.machine()}"


def slug(name: str) -> str:
    """A file-name part from a device name: "NVIDIA H100 80GB HBM3" -> "nvidia_h100_80gb_hbm3"."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "device"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dry-run", action="store_true", help="NumPy on both sides, tiny sizes (tests the harness)"
    )
    parser.add_argument("--out", type=Path, help="JSON file (default results/gpu_check_<device>)")
    args = parser.parse_args(argv)
    if args.dry_run:
        gpu_name = "numpy"
    elif has_gpu():
        gpu_name = "cupy"
    else:
        print("gpu_check: CuPy or a CUDA device is not available; no GPU benchmarks run (exit 0)")
        return 0
    xp = get_namespace(gpu_name)
    t0 = time.perf_counter()
    name = device_name(xp)
    out = args.out
    if out is None and not args.dry_run:
        out = RESULTS / f"gpu_check_{slug(name)}.json"
    result = {
        "provenance": {
            "device": name,
            "dry_run": args.dry_run,
            "numpy": np.__version__,
            "cupy": xp.__version__ if gpu_name == "cupy" else None,
            "python": platform.python_version(),
            "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
            "wall_s": 0.0,
            "complete": False,
            "script": "benchmarks/gpu_check.py",
        },
        "rows": [],
    }

    def save(rows: list[dict]) -> None:
        """Write the rows so far: a run cut short keeps what it measured."""
        result["rows"] = rows
        result["provenance"]["wall_s"] = time.perf_counter() - t0
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")

    rows = measure(cases(args.dry_run), gpu_name, on_row=save)
    result["provenance"]["complete"] = True
    save(rows)
    if out is not None:
        print(f"wrote {out}")
    print(f"gpu_check: {len(rows)} rows in {result['provenance']['wall_s']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
