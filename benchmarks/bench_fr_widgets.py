"""Benchmark: one live update of each exploration of the factual-recall chapter.

What it measures
----------------
For every *Explore* cell of ``book/factual-recall/*.ipynb`` that recomputes on a slider move,
the work one move triggers in the live ipywidgets panel: the compute function from
``assocmem.linear_memory``, the plot function from ``assocmem.explore.fr_*`` and the in-place
update of the plotly ``FigureWidget`` (Python side, no browser rendering). The slider is moved
programmatically between two admissible values, with the other controls at their defaults.

The cheap explorations (theory curves, Monte Carlo of a few thousand draws, a 400 x 400 SVD)
target < 100 ms. Explorations that train a memory (learning curves, score mechanism, trained
spectra) cost what a training run costs, seconds at d = 40; they are reported separately and are
precomputed in the book.

Run
---
``OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_fr_widgets.py [--repeats 7]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from threadpoolctl import threadpool_limits

from assocmem import explore
from assocmem import linear_memory as lm
from assocmem.explore.factual_recall import basics as fr_basics
from assocmem.explore.factual_recall import hebbian as fr_hebbian
from assocmem.explore.factual_recall import replica as fr_replica
from assocmem.explore.factual_recall import spectra as fr_spectra
from assocmem.explore.factual_recall import training as fr_training


def _mover(compute: Callable, plot: Callable, param: Any, values: Sequence[Any],
           **fixed: Any) -> Callable[[], object]:
    """A function that moves the first control of a live panel through ``values`` cyclically."""
    slider = explore.explore(compute, plot, [param], **fixed).widget().children[0]
    state = {"i": 0}

    def move() -> object:
        state["i"] += 1
        slider.value = values[state["i"] % len(values)]
        return slider

    return move


def _median_ms(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm-up (first draw of the figure widget)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(1e3 * (time.perf_counter() - t0))
    return statistics.median(times)


CASES = [
    ("counting curve (02)", lm.counting_curve, fr_basics.plot_counting_curve,
     explore.Slider("alpha", 0.05, 1.5, steps=12), (0.4, 0.6),
     {"d_min": 10, "d_max": 1000, "n": 41}),
    ("Hebbian histogram, d = 50 (03)", lm.hebbian_histogram, fr_hebbian.plot_score_histogram,
     explore.Slider("alpha", 0.02, 1.0, log=True), (0.2, 0.25), {"d": 50}),
    ("Hebbian histogram, d = 200 (03)", lm.hebbian_histogram, fr_hebbian.plot_score_histogram,
     explore.Slider("alpha", 0.02, 1.0, log=True), (0.2, 0.25), {"d": 200}),
    ("Hebbian rate curves (03)", lm.hebbian_rate_curve, fr_hebbian.plot_rate_curves,
     explore.Slider("p", 1e2, 1e12, log=True), (1e4, 1e6), {"n": 61}),
    ("first moment OP/DP, 5e4 draws (05)", lm.first_moment_pair, fr_basics.plot_first_moments,
     explore.Slider("d", 2, 30, integer=True), (5, 9), {"p": 3, "draws": 50_000}),
    ("free entropy (06)", lm.free_entropy_landscape, fr_replica.plot_free_entropy,
     explore.Slider("alpha", 0.01, 0.49), (0.2, 0.3), {}),
    ("Eckart-Young, d = 400 (08)", lm.eckart_young, fr_spectra.plot_eckart_young,
     explore.Slider("kappa", 0.05, 1.0), (0.25, 0.5), {"d": 400, "rng": 0}),
]
TRAINING_CASES = [
    ("learning curve, d = 40, α = 0.9, 512 steps (04)", lm.learning_curve,
     fr_training.plot_learning_curve, explore.Slider("alpha", 0.3, 1.2), (0.9, 0.95),
     {"d": 40, "steps": 512}),
]


def main() -> None:
    """Print one row per exploration: median milliseconds per slider move."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    explore.setup(seed=0)
    with threadpool_limits(limits=1):
        print("| exploration | live update (ms, median) |\n|---|---|")
        for name, compute, plot, param, values, fixed in CASES + TRAINING_CASES:
            fn = _mover(compute, plot, param, values, **fixed)
            print(f"| {name} | {_median_ms(fn, args.repeats):.0f} |")


if __name__ == "__main__":
    main()
