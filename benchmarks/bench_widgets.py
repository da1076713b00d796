"""Benchmark: one live update of the 2-D LSR landscape widget.

What it measures
----------------
The work a slider move triggers in the 2-D landscape exploration (exploration 4 of the chapter
note §5.1, used in ``book/epanechnikov/05_emergent_memories.ipynb``): ``landscape_2d`` on a
200 x 200 grid (energy, |B(x)|, exact minima, two Algorithm-1 trajectories) followed by
``plot_landscape_2d``. Memories: M = 10, 25, 50 uniform points in the unit square (seed 0).
β is set so that the support radius is R = 0.15 (β ≈ 88.9, overlapping supports, emergent
minima) and, as a worst case for the minima, R = 0.5 (β = 8, every pair of supports overlaps).

Columns (milliseconds, median of the repeats, [min, max] for the first):

- ``update``: ``landscape_2d`` + ``plot_landscape_2d`` (the target: < 100 ms);
- ``widget``: the same through the live ipywidgets panel, i.e. moving the β slider of
  ``explore.explore(...).widget()`` programmatically, which adds the in-place update of the
  plotly ``FigureWidget`` (no browser rendering);
- ``grid``: ``landscape_2d`` alone;
- ``minima (2-D)``: ``lsr_minima_2d``, the exact arrangement enumeration used by ``landscape_2d``;
- ``lsr_minima``: the general exact search of ``dense_am.lsr_minima`` (any d), for comparison.

Run
---
``OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_widgets.py [--repeats 15]``

BLAS is pinned to one thread with threadpoolctl (multithreaded BLAS is much slower on small
products).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

import numpy as np
from threadpoolctl import threadpool_limits

from assocmem import explore
from assocmem.dense_am.landscape import landscape_2d, lsr_minima_2d, random_memories
from assocmem.dense_am.minima import lsr_minima
from assocmem.explore.epanechnikov import landscapes as plots

RADII = (0.15, 0.5)
SIZES = (10, 25, 50)
N_GRID = 200
STARTS = np.array([[0.2, 0.8], [0.7, 0.3]])


def _time(fn: Callable[[], object], repeats: int) -> tuple[float, float, float]:
    """Median, min and max wall time of ``fn`` in milliseconds (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(1e3 * (time.perf_counter() - t0))
    return statistics.median(times), min(times), max(times)


def _widget_refresh(Xi: np.ndarray, beta: float) -> Callable[[], object]:
    """A function that moves the β slider of a live 2-D landscape widget (two values)."""
    ex = explore.explore(
        landscape_2d,
        plots.plot_landscape_2d,
        [explore.Slider("beta", 0.5 * beta, 2.0 * beta, steps=2, log=True)],
        memories=Xi,
        n_grid=N_GRID,
        starts=STARTS,
    )
    slider = ex.widget().children[0]
    values = iter(np.tile([beta, 1.01 * beta], 10_000))

    def move() -> object:
        slider.value = float(next(values))
        return slider

    return move


def main() -> None:
    """Time one widget update per M and R and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    print(
        f"# {platform.machine()}, numpy {np.__version__}, 1 BLAS thread, "
        f"grid {N_GRID}x{N_GRID}, median of {args.repeats} repeats (ms)"
    )
    print(
        f"{'R':>5} {'beta':>6} {'M':>3} {'minima':>6} {'update [min, max]':>22} "
        f"{'widget':>7} {'grid':>6} {'minima (2-D)':>12} {'lsr_minima':>10}"
    )
    with threadpool_limits(limits=1):
        for R in RADII:
            beta = 2.0 / R**2
            for M in SIZES:
                Xi = random_memories(M, 2, rng=0)

                def update(Xi: np.ndarray = Xi, beta: float = beta) -> object:
                    res = landscape_2d(Xi, beta, n_grid=N_GRID, starts=STARTS)
                    return plots.plot_landscape_2d(res)

                med, lo, hi = _time(update, args.repeats)
                wid, _, _ = _time(_widget_refresh(Xi, beta), args.repeats)
                grid, _, _ = _time(
                    lambda Xi=Xi, b=beta: landscape_2d(Xi, b, n_grid=N_GRID), args.repeats
                )
                plane, _, _ = _time(lambda Xi=Xi, b=beta: lsr_minima_2d(Xi, b), args.repeats)
                general, _, _ = _time(
                    lambda Xi=Xi, b=beta: lsr_minima(Xi, b), max(1, args.repeats // 5)
                )
                n_min = len(lsr_minima_2d(Xi, beta))
                print(
                    f"{R:>5} {beta:>6.1f} {M:>3} {n_min:>6} "
                    f"{med:>8.1f} [{lo:.1f}, {hi:.1f}]{'':>3} {wid:>7.1f} {grid:>6.1f} "
                    f"{plane:>12.1f} {general:>10.1f}"
                )


if __name__ == "__main__":
    main()
