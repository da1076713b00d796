"""Benchmark: one live update of each exploration of the attractor-stability chapter.

What it measures
----------------
For each *Explore* cell of ``book/attractor-stability/*.ipynb``, the work one control move
triggers in the live ipywidgets panel: the compute function from ``assocmem.attractor``, the
plot function from ``assocmem.explore.as_*`` and the in-place update of the plotly
``FigureWidget`` (Python side, no browser rendering), with the notebook's parameters. Two kinds
of move are timed:

- a move that reuses cached draws (σ, n or θ for the spectra, c for the ensemble; patterns and
  R† are cached per (N, α, CV, seed)), cycling between two values;
- a move that needs new draws: the seed slider stepped to a value not seen before.

Target: < 100 ms per update.

Run
---
``OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_as_widgets.py [--repeats 5]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from threadpoolctl import threadpool_limits

from assocmem import attractor as at
from assocmem import explore
from assocmem.explore.attractor_stability import ensemble as as_ensemble
from assocmem.explore.attractor_stability import loads as as_loads
from assocmem.explore.attractor_stability import outliers as as_outliers
from assocmem.explore.attractor_stability import spectra as as_spectra
from assocmem.explore.attractor_stability import structure as as_structure


def _control(panel: Any, name: str) -> Any:
    """The widget of the panel whose description is ``name``."""
    stack = [panel]
    while stack:
        w = stack.pop()
        if getattr(w, "description", None) == name:
            return w
        stack.extend(getattr(w, "children", ()))
    raise KeyError(name)


def _mover(ex: explore.Exploration, name: str, values: Sequence[Any] | None) -> Callable[[], Any]:
    """Move control ``name`` cyclically through ``values``, or to a new integer each call."""
    ctl = _control(ex.widget(), name)
    state = {"i": 0}

    def move() -> Any:
        state["i"] += 1
        ctl.value = values[state["i"] % len(values)] if values else 100 + state["i"]
        return ctl

    return move


def _median_ms(fn: Callable[[], Any], repeats: int) -> float:
    fn()  # warm-up (first draw of the figure widget)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(1e3 * (time.perf_counter() - t0))
    return statistics.median(times)


def _cases() -> list[tuple[str, explore.Exploration, str, Sequence[Any] | None]]:
    S, C = explore.Slider, explore.Choice
    spectrum = explore.explore(
        at.spectrum_view, as_spectra.plot_spectrum,
        [S("alpha", 0.05, 0.5, value=0.3, label="α"), C("cv", (1.0, 2.0), label="CV"),
         S("sigma", 0.05, 10.0, log=True, value=1.0, label="σ"),
         S("seed", 0, 10**6, integer=True, value=0, label="seed")], N=500)
    ensemble = explore.explore(
        at.ensemble_view, as_ensemble.plot_ensemble,
        [S("alpha", 0.05, 0.95, value=0.45, label="α"), C("rho_xy", (0.5, 0.9), label="ρ_xy"),
         S("c", 0.0, 2.0, value=1.0, label="c"),
         S("seed", 0, 10**6, integer=True, value=0, label="seed")], N=500)
    outliers = explore.explore(
        at.outlier_view, as_outliers.plot_outlier_view,
        [S("theta_shift", -1.5, 1.5, value=0.0, label="θ − θ*"), C("n", (1.0, 1.5), label="n"),
         S("seed", 0, 10**6, integer=True, value=0, label="seed")],
        N=500, alpha=0.2, cv=1.0, sigma=1.0)
    storing = explore.explore(
        at.weight_snapshot, as_structure.plot_weight_snapshot,
        [S("alpha", 0.05, 0.9, value=0.3, label="α"), C("cv", (1.0, 2.0), label="CV")], N=400)
    phase = explore.explore(
        at.phase_view, as_loads.plot_phase_diagram,
        [S("cv", 0.25, 4.0, log=True, value=1.0, label="CV")], n_points=76, sigma_points=27)
    return [
        ("spectrum of J_μ, N = 500, α = 0.3: σ move (04)", spectrum, "σ", (1.0, 1.2)),
        ("spectrum of J_μ, N = 500, α = 0.3: new patterns (04)", spectrum, "seed", None),
        ("paired ensemble, N = 500: c move (03)", ensemble, "c", (1.0, 0.8)),
        ("paired ensemble, N = 500: new draw (03)", ensemble, "seed", None),
        ("outliers, N = 500: θ move (05)", outliers, "θ − θ*", (0.0, 0.5)),
        ("outliers, N = 500: new patterns (05)", outliers, "seed", None),
        ("weights, N = 400: α move (02)", storing, "α", (0.3, 0.35)),
        ("phase diagram 76 × 27: CV move (06)", phase, "CV", (1.0, 1.3)),
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    with threadpool_limits(1):
        print(f"{'exploration':58s} {'median ms':>10s}")
        for name, ex, control, values in _cases():
            print(f"{name:58s} {_median_ms(_mover(ex, control, values), args.repeats):10.1f}")


if __name__ == "__main__":
    main()
