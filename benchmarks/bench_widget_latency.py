"""Benchmark: key press to new figure for the live widgets in JupyterLab (headless Chromium).

What it measures
----------------
For one exploration per chapter, the first *Explore* cell of

- ``book/epanechnikov/03_lse_vs_lsr.ipynb`` (1-D landscape, β slider),
- ``book/factual-recall/03_hebbian.ipynb`` (Hebbian score histogram, α slider),
- ``book/attractor-stability/04_bulk.ipynb`` (spectrum of J_μ at N = 500, α slider),

the script writes a small notebook into a temporary folder: the chapter's setup cell and its
explore call, copied verbatim from the book notebook, then one cell showing the panel of the
*old* live path (a plotly ``FigureWidget`` updated by a relayout, a delete and an add of every
trace, as ``Exploration.widget`` did before; its code is kept below, ``_LEGACY``) and one cell
showing ``ex.widget()`` (the library's current path). It starts JupyterLab from ``.venv`` (one
BLAS thread), opens each notebook in headless Chromium (1280 x 900), runs all cells, focuses the
first slider of each panel and presses ArrowRight ``--presses`` times, waiting for each update to
settle. Per key press, measured in the page with ``performance.now()``:

- ``first``: key down to the first DOM change of the plot (a MutationObserver on the plotly div);
- ``settled``: key down to the last DOM change, once the plot has not changed for 150 ms.

In the page, each Plotly call (``react``, ``relayout``, ``deleteTraces``, ...) is timed too. In
the same run, outside the browser, the Python side of the same slider moves is timed:
``compute`` (the library function), ``plot`` (the figure) and ``send`` (what the panel does
with the figure: the old path's ``widget_figure`` + ``replace_figure`` on an undisplayed
``FigureWidget``, or the new path's ``figure_message``). The breakdown of ``first``:

- ``messages`` = (key down to the first Plotly call) − compute − plot − send: the slider's
  message to the kernel, the widget machinery on both sides, the figure's way to the browser;
- ``draw`` = first Plotly call to first DOM change (decoding and drawing).

A last notebook shows only the new panel of the first exploration, where no ``FigureWidget``
has put plotly.js on the page, so the live figure loads its own copy; its row checks that this
path draws and responds too.

Run
---
``flock /tmp/assocmem-build.lock .venv/bin/python benchmarks/bench_widget_latency.py``
(about 2 minutes; it starts a kernel per notebook, hence the build lock). ``--presses N``
changes the number of key presses, ``--write-readme`` replaces the table in
``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np
from _common import machine, write_section

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
CHROMIUM = "/usr/bin/chromium"
NOTEBOOKS = {
    "Epanechnikov 03 (β)": "book/epanechnikov/03_lse_vs_lsr.ipynb",
    "Factual recall 03 (α)": "book/factual-recall/03_hebbian.ipynb",
    "Attractor stability 04 (α)": "book/attractor-stability/04_bulk.ipynb",
}
PATHS = ("old", "new")  # order of the panel cells in each generated notebook
# A notebook with the new panel only (the first exploration): there no FigureWidget has put
# plotly.js on the page, so the live figure loads its own copy.
ALONE = "alone"
QUIET_MS = 150  # a plot is settled when it has not changed for this long
THREADS_ENV = {
    k: "1"
    for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")
}

# The live path before this benchmark's fix: a FigureWidget, updated by a relayout, a
# deleteTraces and an addTraces message (three redraws, three echoes from the browser).
_LEGACY = '''
import numpy as np
import plotly.graph_objects as go


def _compact(value):
    if isinstance(value, np.ndarray) and value.dtype == np.float64:
        return value.astype(np.float32)
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items()}
    if (isinstance(value, (list, tuple)) and len(value) >= 16
            and all(isinstance(v, (float, int)) and not isinstance(v, bool) for v in value)):
        return np.asarray(value, dtype=np.float32)
    return value


def _heatmap_columns(trace):
    z = trace.get("z")
    if not (isinstance(z, np.ndarray) and z.ndim == 2):
        return {}
    ny, nx = z.shape
    x = np.asarray(trace.get("x", np.arange(nx)), dtype=np.float32)
    y = np.asarray(trace.get("y", np.arange(ny)), dtype=np.float32)
    if x.shape != (nx,) or y.shape != (ny,):
        return {}
    return {"x": np.tile(x, ny), "y": np.repeat(y, nx),
            "z": np.ascontiguousarray(z, dtype=np.float32).ravel(), "connectgaps": False}


def widget_figure(fig):
    traces = []
    for trace in [_compact(t.to_plotly_json()) for t in fig.data]:
        if trace.get("type") == "heatmap":
            trace.update(_heatmap_columns(trace))
        for key, value in trace.items():
            if isinstance(value, np.ndarray) and value.ndim >= 2 and value.dtype.kind == "f":
                if not np.isfinite(value).all():
                    trace[key] = np.where(np.isfinite(value), value, None).tolist()
        traces.append(trace)
    return go.Figure(data=traces, layout=fig.layout)


def replace_figure(target, new):
    with target.batch_update():
        target.layout = new.layout
    target.data = ()
    target.add_traces(list(new.data))


def widget(ex):
    import ipywidgets as w

    controls = {p.name: p.widget() for p in ex.params}
    fig = go.FigureWidget(widget_figure(ex.render()))

    def refresh(_change=None):
        new = ex.render(**{k: c.value for k, c in controls.items()})
        replace_figure(fig, widget_figure(new))

    for control in controls.values():
        control.observe(refresh, names="value")
    return w.VBox([*controls.values(), fig])
'''


def _cells(nb_path: Path) -> tuple[str, str]:
    """The setup cell and the first explore call of a book notebook, verbatim."""
    nb = json.loads(nb_path.read_text())
    sources = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    setup = next(s for s in sources if "explore.setup(" in s)
    call = next(s for s in sources if s.lstrip().startswith("explore.explore("))
    return setup, call


def _notebook(setup: str, call: str, old: bool = True) -> dict:
    """A notebook: setup, the exploration, the old panel (if ``old``), the new panel."""

    def cell(src: str) -> dict:
        return {"cell_type": "code", "metadata": {}, "outputs": [], "source": src,
                "execution_count": None}

    return {
        "cells": [
            cell(setup),
            cell("ex = " + call),
            *([cell("import _legacy_live\n_legacy_live.widget(ex)")] if old else []),
            cell("ex.widget()"),
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_lab(folder: Path, port: int, token: str) -> subprocess.Popen:
    env = {**os.environ, **THREADS_ENV, "PYTHONPATH": str(folder),
           "JUPYTER_CONFIG_DIR": str(folder / ".jupyter"),
           "JUPYTER_RUNTIME_DIR": str(folder / ".runtime")}
    cmd = [
        str(VENV_BIN / "jupyter"), "lab", "--no-browser", f"--port={port}",
        "--ServerApp.ip=127.0.0.1", "--ServerApp.allow_root=True",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={folder}", "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=", "--LabApp.check_for_updates_class="
        "jupyterlab.NeverCheckForUpdate", f"--LabApp.workspaces_dir={folder / '.ws'}",
        f"--LabApp.user_settings_dir={folder / '.settings'}",
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                            stderr=open(folder / "lab.log", "w"))
    url = f"http://127.0.0.1:{port}/api/status?token={token}"
    for _ in range(120):
        try:
            urllib.request.urlopen(url, timeout=1)
            return proc
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise SystemExit("JupyterLab did not start:\n" + (folder / "lab.log").read_text()[-3000:])


_OBSERVE = """(gd) => {
  if (window.__obs) { window.__obs.disconnect(); }
  window.__muts = [];
  window.__obs = new MutationObserver(() => window.__muts.push(performance.now()));
  window.__obs.observe(gd, {subtree: true, childList: true, attributes: true,
                            characterData: true});
  window.__calls = [];
  if (!window.__wrapped && window.Plotly) {  // time when the browser starts drawing
    window.__wrapped = true;
    for (const m of ['react', 'relayout', 'update', 'restyle', 'deleteTraces', 'addTraces']) {
      const f = window.Plotly[m];
      window.Plotly[m] = function (...a) {
        window.__calls.push(performance.now());
        return f.apply(this, a);
      };
    }
  }
  if (!window.__keyHook) {
    window.__keyHook = true;
    document.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
  }
}"""

_POLL = """(quiet) => {
  const m = window.__muts.filter((t) => t >= window.__t0);
  if (!m.length) { return null; }
  const last = m[m.length - 1];
  if (performance.now() - last < quiet) { return null; }
  const c = window.__calls.filter((t) => t >= window.__t0);
  return [m[0] - window.__t0, last - window.__t0, c.length ? c[0] - window.__t0 : NaN];
}"""


def _press_and_time(page, handle, gd, presses: int) -> tuple[list, list, list, list]:
    """Press ArrowRight on ``handle`` and time the plot ``gd``'s DOM changes per press."""
    gd.evaluate(_OBSERVE)
    readouts, first, settled, called = [], [], [], []
    handle.focus()
    for _ in range(presses):
        page.evaluate("window.__muts = []; window.__calls = []; window.__t0 = Infinity;")
        page.keyboard.press("ArrowRight")
        deadline = time.monotonic() + 20.0
        result = None
        while result is None and time.monotonic() < deadline:
            time.sleep(0.02)
            result = page.evaluate(_POLL, QUIET_MS)
        if result is None:
            raise SystemExit("the plot did not change within 20 s of a key press")
        first.append(result[0])
        settled.append(result[1])
        called.append(result[2])
        time.sleep(0.4)  # let the kernel finish (the old path handles the browser's echoes)
        readouts.append(handle.evaluate(
            "(h) => h.closest('.widget-slider').querySelector('.widget-readout').textContent"))
    return first, settled, called, readouts


def _browser_run(folder: Path, names: list[str], presses: int, shots: Path | None) -> dict:
    """Open each notebook, run it and time the key presses of every panel."""
    from playwright.sync_api import sync_playwright

    port, token = _free_port(), secrets.token_hex(16)
    lab = _start_lab(folder, port, token)
    out: dict = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for name in names:
                paths = ("new",) if name == ALONE else PATHS
                # A fresh page and workspace per notebook, so no other notebook reopens.
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(f"http://127.0.0.1:{port}/lab/tree/{name}.ipynb?reset&token={token}")
                page.wait_for_function("window.jupyterapp && document.querySelector("
                                       "'.jp-Notebook .jp-Cell')", timeout=120_000)
                page.wait_for_timeout(2000)  # kernel start
                _log(f"{name}: running all cells")
                page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
                cells = page.locator(".jp-Notebook .jp-Cell")
                for k in range(len(paths)):
                    cell = cells.nth(2 + k)
                    cell.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=300_000)
                page.wait_for_timeout(3000)
                for k, path in enumerate(paths):
                    cell = cells.nth(2 + k)
                    cell.scroll_into_view_if_needed()
                    handle = cell.locator(".widget-slider .noUi-handle").first.element_handle()
                    gd = cell.locator(".js-plotly-plot").first.element_handle()
                    first, settled, called, readouts = _press_and_time(page, handle, gd, presses)
                    out[name, path] = {"first": first, "settled": settled, "called": called,
                                       "values": readouts}
                    if shots is not None:
                        shots.mkdir(parents=True, exist_ok=True)
                        cell.screenshot(path=str(shots / f"{name}_{path}.png"))
                    _log(f"{name} {path}: first {statistics.median(first):.0f} ms, "
                         f"settled {statistics.median(settled):.0f} ms, "
                         f"slider {readouts[0]} -> {readouts[-1]}")
                page.evaluate("window.jupyterapp.serviceManager.sessions.shutdownAll()")
                page.close()
            browser.close()
    finally:
        lab.terminate()
        lab.wait(timeout=30)
    return out


def _values(ex, presses: int) -> list[float]:
    """The first control's values after each ArrowRight (one slider step each)."""
    control = ex.params[0].widget()
    values, v = [], control.value
    for _ in range(presses):
        if hasattr(control, "base"):  # FloatLogSlider: the step is in the exponent
            v = min(control.base ** (np.log10(v) + control.step), 10**control.max)
        else:
            v = min(v + control.step, control.max)
        values.append(v)
    return values


def _python_run(setup: str, call: str, presses: int) -> dict:
    """Time compute, plot and each path's send for the same slider moves, in this process."""
    import plotly.graph_objects as go

    legacy: dict = {}
    exec(_LEGACY, legacy)
    ns: dict = {}
    exec(setup, ns)
    ex = eval(call, ns)
    name = ex.params[0].name
    base = {p.name: p.initial() for p in ex.params}
    old_target = go.FigureWidget(legacy["widget_figure"](ex.render()))
    from assocmem.explore import _live

    times: dict = {"compute": [], "plot": [], "old": [], "new": []}
    for v in _values(ex, presses):
        kwargs = {**ex.fixed, **base, name: v}
        t0 = time.perf_counter()
        result = ex.compute(**kwargs)
        t1 = time.perf_counter()
        fig = ex.plot(result)
        t2 = time.perf_counter()
        legacy["replace_figure"](old_target, legacy["widget_figure"](fig))
        t3 = time.perf_counter()
        _live.figure_message(fig)
        t4 = time.perf_counter()
        for key, dt in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            times[key].append(1e3 * dt)
    return times


def _stats(xs: list[float]) -> tuple[float, float]:
    return statistics.median(xs), float(np.percentile(xs, 90))


def main() -> None:
    """Run the browser part, then the Python part, and print (or write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=15)
    parser.add_argument("--write-readme", action="store_true")
    parser.add_argument("--screenshots", type=Path, help="folder for a picture of each panel")
    args = parser.parse_args()
    os.environ.update(THREADS_ENV)

    with tempfile.TemporaryDirectory(prefix="widget-latency-") as tmp:
        folder = Path(tmp)
        (folder / "_legacy_live.py").write_text(_LEGACY)
        sources = {}
        for k, (label, rel) in enumerate(NOTEBOOKS.items()):
            setup, call = _cells(ROOT / rel)
            sources[label] = (setup, call)
            (folder / f"nb{k}.ipynb").write_text(json.dumps(_notebook(setup, call)))
        names = [f"nb{k}" for k in range(len(NOTEBOOKS))]
        setup, call = next(iter(sources.values()))
        (folder / f"{ALONE}.ipynb").write_text(json.dumps(_notebook(setup, call, old=False)))
        browser = _browser_run(folder, [*names, ALONE], args.presses, args.screenshots)

    from threadpoolctl import threadpool_limits

    rows = []
    with threadpool_limits(limits=1):
        for (label, (setup, call)), name in zip(sources.items(), names, strict=True):
            py = _python_run(setup, call, args.presses)
            for path in PATHS:
                b = browser[name, path]
                f_med, f_p90 = _stats(b["first"])
                s_med, s_p90 = _stats(b["settled"])
                c, pl, send = (statistics.median(py[k]) for k in ("compute", "plot", path))
                to_browser = statistics.median(b["called"])
                draw = statistics.median(np.subtract(b["first"], b["called"]))
                rows.append(
                    f"| {label} | {path} | {f_med:.0f} | {f_p90:.0f} | {s_med:.0f} | "
                    f"{s_p90:.0f} | {c:.1f} | {pl:.1f} | {send:.1f} | "
                    f"{to_browser - c - pl - send:.0f} | {draw:.0f} |"
                )
    alone = browser[ALONE, "new"]
    rows.append(
        f"| {next(iter(sources))}, new panel alone in its notebook | new | "
        f"{_stats(alone['first'])[0]:.0f} | {_stats(alone['first'])[1]:.0f} | "
        f"{_stats(alone['settled'])[0]:.0f} | {_stats(alone['settled'])[1]:.0f} "
        "| | | | | |"
    )
    table = "\n".join(
        [
            f"Measured on {machine()}, JupyterLab + headless Chromium 1280 x 900, one BLAS "
            f"thread, {args.presses} ArrowRight presses on the first slider per panel; "
            "milliseconds (median and 90th percentile; Python parts: medians).",
            "",
            "| exploration | path | first median | first p90 | settled median | settled p90 "
            "| compute | plot | send | messages | draw |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    print(table)
    if args.write_readme:
        write_section("bench_widget_latency", table)


if __name__ == "__main__":
    sys.exit(main())
