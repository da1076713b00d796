"""GPU run: one MNIST-size training epoch of the Potts DAM, and the saddle-point phase diagram.

What it measures
----------------
``potts_dam.model.train`` for one epoch (batch 50, momentum SGD on the sphere, trained β) on
synthetic data of MNIST's size: n = 60 000 (``--n``) unit vectors in N = 784 dimensions, drawn
around 10 random class centres, with P = 1000 memories (``--P``); and
``potts_dam.saddle.phase_diagram`` on a 100 × 100 (ϱ, β_eff) grid (P* = 2, P = 2). Each with
NumPy (one BLAS thread) and with CuPy (data on the GPU, timings end with a synchronisation);
the ratio is printed. The first CuPy call of each is a warm-up and not timed.

Run (on a machine with CuPy and a GPU)
---
``PYTHONPATH=src python benchmarks/gpu_potts_epoch.py [--n 60000] [--P 1000]``
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from assocmem._validation import ConvergenceWarning
from assocmem.backend import get_namespace
from assocmem.potts_dam import model, saddle


def _data(n: int, N: int, classes: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((classes, N))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    labels = rng.integers(0, classes, n)
    X = centres[labels] + 0.05 * rng.standard_normal((n, N))
    return X / np.linalg.norm(X, axis=1, keepdims=True), labels


def _epoch(X, labels, P: int, xp, sync) -> float:
    state = model.init_state(X, labels, P, beta=16.0, rng=1)
    t = time.perf_counter()
    model.train(X, labels, state, train_beta=True, varsigma=0.5, epochs=1, rng=2)
    sync()
    return time.perf_counter() - t


def _diagram(xp, sync) -> float:
    rho = np.geomspace(0.1, 10.0, 100)
    beta = np.linspace(0.5, 4.0, 100)
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        saddle.phase_diagram(rho, beta, 2, 2, xp=xp)
    sync()
    return time.perf_counter() - t


def _sync(xp):
    """A function that waits for the device (CuPy) or does nothing (NumPy)."""
    return (lambda: xp.cuda.Device().synchronize()) if xp.__name__ == "cupy" else (lambda: None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=60_000)
    parser.add_argument("--P", type=int, default=1000)
    args = parser.parse_args()
    X, labels = _data(args.n, 784, 10)
    rows = {}
    for name in ("numpy", "cupy"):
        xp = get_namespace(name)
        sync = _sync(xp)
        Xd = xp.asarray(X)
        if name == "cupy":  # warm-up: kernels compile on first use
            _epoch(Xd[:2000], xp.asarray(labels[:2000]), args.P, xp, sync)
            _diagram(xp, sync)
        labels_d = xp.asarray(labels)
        rows[name] = (_epoch(Xd, labels_d, args.P, xp, sync), _diagram(xp, sync))
        print(
            f"{name}: epoch {rows[name][0]:.2f} s, phase diagram {rows[name][1]:.2f} s", flush=True
        )
    e, d = (rows["numpy"][k] / rows["cupy"][k] for k in (0, 1))
    print("\n| n | N | P | NumPy epoch (s) | CuPy epoch (s) | ratio ", end="")
    print("| NumPy diagram (s) | CuPy diagram (s) | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {args.n} | 784 | {args.P} | {rows['numpy'][0]:.2f} | {rows['cupy'][0]:.2f} | {e:.1f}x "
        f"| {rows['numpy'][1]:.2f} | {rows['cupy'][1]:.3f} | {d:.1f}x |"
    )


if __name__ == "__main__":
    main()
