"""Benchmark: one live update of each exploration of the attention-index chapter.

What it measures
----------------
For every *Explore* cell of ``book/attention-index/0*.ipynb`` (``explore.explore(compute, plot,
[controls], **fixed)``), the work one control move triggers in the live panel: the compute
function from ``assocmem.explore.attention_index`` and its plot function, ``plot(compute(...))``
(Python side; the figure message and the browser's ``Plotly.react`` are not timed).

Live, a Slider moves over its whole range (200 positions, or every integer), not only over the
``values`` the book precomputed. So each slider is moved to 5 positions a reader can reach but the
book did not precompute, drawn with a fixed seed from the slider's live grid, with the other
controls at their initial values, and again at each other option of a live-only menu (a third
control, which the book's figure does not vary); the panel has drawn the initial figure first
(warm-up), as it does when it opens. The row "slowest menu" repeats the moves at every option of
every menu and keeps the option with the slowest median. A Choice has only precomputed options:
for a Choice-only exploration the table gives the move to an option already computed in this
kernel (cached) and the first computation of an option (uncached: every ``functools.lru_cache``
of the library is cleared before each move), at the settings the book precomputes, and the
first visit of a live-only menu's other options.

Each row: median and max of the 5 moves, one BLAS thread. Target: < 100 ms (issue 12).

Run
---
``.venv/bin/python benchmarks/bench_ai_widgets.py [--repeats 5] [--seed 0]``
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from assocmem import explore
from assocmem.explore._core import _LIVE_RESOLUTION
from assocmem.explore.attention_index import (
    attention,
    bayes,
    descent,
    free,
    gamp,
    hardmax,
    nuclear,
    sensing,
)

S, C = explore.Slider, explore.Choice


def _live_values(
    s: explore.Slider, count: int, rng: np.random.Generator
) -> tuple[list[Any], bool]:
    """``count`` distinct positions of the live slider ``s`` that are not precomputed steps, and
    True; or, where every live position is precomputed (an integer slider over all its
    integers), positions other than the initial one, and False."""
    static = np.asarray(s.static_values(), dtype=float)
    if s.integer:
        grid = np.arange(int(s.lo), int(s.hi) + 1, dtype=float)
    elif s.log:
        lo, hi = math.log10(s.lo), math.log10(s.hi)
        grid = 10.0 ** np.linspace(lo, hi, _LIVE_RESOLUTION + 1)
    else:
        grid = np.linspace(s.lo, s.hi, _LIVE_RESOLUTION + 1)
    away = [g for g in grid if abs(g - float(s.initial())) > 1e-9 * max(1.0, abs(g))]
    fresh = [g for g in away if np.min(np.abs(static - g)) > 1e-9 * max(1.0, abs(g))]
    pool = fresh or away
    picks = rng.choice(len(pool), size=count, replace=len(pool) < count)
    return [int(pool[i]) if s.integer else float(pool[i]) for i in picks], bool(fresh)


def _clear_caches() -> None:
    """Clear every ``functools.lru_cache`` of the library (the cold-kernel cost of a move)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("assocmem."):
            for obj in list(vars(module).values()):
                if isinstance(obj, functools._lru_cache_wrapper):
                    obj.cache_clear()


def _time(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return 1e3 * (time.perf_counter() - t0)


def _cases() -> list[tuple[str, Callable, Callable, list, dict]]:
    """The chapter's explorations, with the controls and fixed arguments of their cells."""
    # 05_gradient_descent cell d479ecbc takes the sweep of the cell above it (not timed here).
    sweep = descent.gd_sweep([0.05, 0.1, 0.15, 0.2, 0.25, 0.3], rng=2)
    return [
        # 01_attention_to_matrices cell-17
        ("01 counting_view", sensing.counting_view, sensing.plot_counting,
         [S("rho", 0.01, 2.0, values=(0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0),
            value=0.5, label="ρ"),
          C("d", (8, 16, 24), value=16, label="d")], {}),
        # 01_attention_to_matrices cell-22
        ("01 token_view", sensing.token_view, sensing.plot_tokens,
         [S("T", 2, 8, integer=True, steps=7, value=4, label="T"),
          C("beta", (0.3, 1.0, 5.0), value=1.0, label="β")], {}),
        # 02_free_probability cell-18
        ("02 denoising_view", free.denoising_view, free.plot_denoising,
         [S("rho", 0.02, 3.0, log=True, values=(0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.0),
            value=0.5, label="ρ"),
          C("delta2", (0.01, 0.03, 0.1, 0.3, 0.6, 1.5, 4.0), value=0.6, label="δ²"),
          C("d", (100, 300, 500), value=300, label="d"),
          S("seed", 0, 20, integer=True, value=0, label="seed")], {}),
        # 03_bayes_optimal cell 77b87103
        ("03 learning_curves", bayes.learning_curves, bayes.plot_learning_curves,
         [S("rho", 0.01, 2.0, steps=9, log=True, value=0.532, label="ρ"),
          C("noise", (0.0, 0.25, 0.5, 1.0, 2.0), value=0.0, label="Δ"),
          S("alpha", 0.0, 0.6, value=0.2, label="α")],
         {"alpha_max": 0.6, "points": 120}),
        # 04_gamp_rie cell 9105e056
        ("04 gamp_trajectories", gamp.gamp_trajectories, gamp.plot_trajectories,
         [C("alpha", (0.05, 0.1, 0.2, 0.3), label="α"),
          C("clip", (True, False), labels=("clip on", "clip off"), label="eigenvalues")],
         {"d": 60, "kinds": ("network",)}),
        # 05_gradient_descent cell d479ecbc
        ("05 sweep_view", descent.sweep_view, descent.plot_sweep,
         [S("runs", 1, 16, integer=True, values=(1, 2, 4, 8, 16), value=16),
          C("alpha", tuple(float(a) for a in sweep.alpha), value=0.2)],
         {"sweep": sweep}),
        # 06_nuclear_norm cell d9fa6580
        ("06 nuclear_curves", nuclear.nuclear_curves, nuclear.plot_erm_curves,
         [C("lams", (1e-4, 1e-3, 1e-2, 0.1, 1.0), value=1e-2, label="λ"),
          C("rho", (0.05, 0.2, 0.5, 1.0), value=0.2, label="ρ*")],
         {"noise": 0.5, "alpha_max": 1.5, "points": 8}),
        # 06_nuclear_norm cell 11fb43ec
        ("06 spectrum_view", nuclear.spectrum_view, nuclear.plot_spectra,
         [C("alpha", (0.2, 0.3, 0.55, 1.0), value=0.55, label="α"),
          C("lam", (1e-3, 0.1), value=1e-3, label="λ")],
         {"rho": 0.05, "noise": 0.5, "d": 40, "rng": 6}),
        # 07_attention cell 7d3a58e7
        ("07 logit_recovery_at", attention.logit_recovery_at,
         attention.plot_logit_recovery,
         [S("beta", 0.1, 10.0, steps=5, log=True, value=1.0, label="β"),
          C("T", (2, 3, 5, 8), value=3, label="T")],
         {"d": 20, "rng": 0}),
        # 07_attention cell 329dfd84
        ("07 aim_curves", attention.aim_curves, attention.plot_aim_collapse,
         [S("T", 2, 8, steps=7, integer=True, value=3, label="T"),
          C("rho", (0.1, 0.2, 0.5, 1.0, 2.0), value=0.5, label="ρ")],
         {"points": 100}),
        # 08_hardmax cell 30c919af
        ("08 hardmax_curves", hardmax.hardmax_curves, hardmax.plot_hardmax_curves,
         [S("rho", 0.05, 5.0, steps=7, log=True, value=0.5, label="ρ"),
          C("show", ("both", "exact", "published"), labels=("both", "exact", "published"),
            label="curves")],
         {"points": 40}),
    ]


def _rows(repeats: int, seed: int) -> list[tuple[str, str, list[float]]]:
    """(exploration, move, times in ms) for every slider, and for each Choice-only panel."""
    rng = np.random.default_rng(seed)
    rows = []
    for name, compute, plot, params, fixed in _cases():
        init = {p.name: p.initial() for p in params}

        def render(compute=compute, plot=plot, fixed=fixed, init=init, **kw: Any) -> Any:
            return plot(compute(**fixed, **{**init, **kw}))

        _clear_caches()
        render()  # the panel draws its initial figure when it opens
        sliders = [p for p in params if isinstance(p, explore.Slider)]
        # live-only menus (third control on): the slider is also moved at their other options
        settings = [{}] + [{p.name: v} for p in params[2:] if isinstance(p, explore.Choice)
                           for v in p.options if v != p.initial()]
        for s in sliders:
            for setting in settings:
                values, fresh = _live_values(s, repeats, rng)
                render(**setting)  # the menu move itself is not timed here
                times = [_time(lambda v=v, k=s.name, o=setting: render(**o, **{k: v}))
                         for v in values]
                kind = "live values" if fresh else "all positions precomputed"
                at = "".join(f", {k} = {v}" for k, v in setting.items())
                rows.append((name, f"{s.label or s.name} slider, {kind}{at}", times))
            # the slider at every option of every menu: the setting with the slowest median
            worst: tuple[float, str, list[float]] = (-1.0, "", [])
            for p in params:
                for v in getattr(p, "options", ()):
                    render(**{p.name: v})
                    values, _ = _live_values(s, repeats, rng)
                    times = [_time(lambda x=x, k=s.name, o={p.name: v}: render(**o, **{k: x}))
                             for x in values]
                    if statistics.median(times) > worst[0]:
                        worst = (statistics.median(times), f"{p.label or p.name} = {v}", times)
            if worst[2]:
                rows.append((name, f"{s.label or s.name} slider, slowest menu ({worst[1]})",
                             worst[2]))
        if not sliders:
            # the settings the book precomputes (first control x second, the rest at their
            # initial values): computed when the cell runs, so cached for the live panel
            options = [dict(zip([p.name for p in params[:2]], combo, strict=True))
                       for combo in itertools.product(*[p.options for p in params[:2]])]
            for opt in options:
                render(**opt)
            picks = [options[int(i)] for i in rng.choice(len(options), repeats)]
            cached = [_time(lambda o=o: render(**o)) for o in picks]
            uncached = []
            for o in picks:
                _clear_caches()
                uncached.append(_time(lambda o=o: render(**o)))
            rows.append((name, "menu move, cached", cached))
            rows.append((name, "menu move, uncached (once, when the cell runs)", uncached))
            for p in params[2:]:  # live-only menus: a setting the book did not compute
                others = [v for v in p.options if v != p.initial()]
                combos = list(itertools.product(range(len(options)), others))
                first = []
                for i in rng.choice(len(combos), min(repeats, len(combos)), replace=False):
                    o, v = combos[int(i)]
                    first.append(_time(lambda o=options[o], v=v, k=p.name: render(**o, **{k: v})))
                rows.append((name, f"{p.label or p.name} menu, first visit (live only)", first))
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    """Print one markdown row per move: exploration, moved control, median and max ms."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    explore.setup(seed=0)
    with threadpool_limits(limits=1):
        rows = _rows(args.repeats, args.seed)
    print("| exploration (notebook, compute) | move | median ms | max ms |\n|---|---|---:|---:|")
    for name, move, times in rows:
        flag = " ⚠" if statistics.median(times) > 100 and "cell runs" not in move else ""
        print(f"| {name} | {move} | {statistics.median(times):.0f}{flag} | {max(times):.0f} |")


if __name__ == "__main__":
    main()
