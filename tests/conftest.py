"""Shared pytest configuration: single-threaded BLAS and a per-notebook timing summary.

The thread variables are set before NumPy is imported anywhere in the test process (and the
notebook kernels that nbval starts inherit them): on two cores a multithreaded BLAS is 20-200x
slower for the small products used here. ``threadpoolctl`` pins the pools that are already loaded.

Notebooks are collected by nbval when pytest runs with ``--nbval-lax`` over ``book/`` (as
``python3 dev.py test`` does); each runs in its own folder with the test process's Python.
Their kernels talk over IPC sockets (``kernel_transport``): two xdist workers starting kernels
at once could otherwise race for the same TCP port. This file adds no fixtures that other
test modules could collide with.

Without the book's tools (plotly, Jupyter, threadpoolctl, scikit-learn: a GPU machine with only
NumPy, SciPy, pytest, hypothesis and CuPy, as ``python3 dev.py gpu`` expects) the test modules
that import them are skipped at collection and every other test runs.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")

import importlib.util  # noqa: E402
from collections import defaultdict  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402
from kernel_transport import use_ipc_kernels  # noqa: E402

# The book's tools: a machine with only NumPy, SciPy, pytest, hypothesis and CuPy (``python3
# dev.py gpu``) lacks them. A test module whose import fails because one of them is missing is
# skipped, with the missing name as the reason, instead of erroring the collection; any other
# import error still fails. Every ``jupyter*`` package counts too. In the full environment (.venv,
# CI) nothing is skipped this way.
BOOK_TOOLS = frozenset(
    {
        "IPython",
        "ipykernel",
        "ipywidgets",
        "nbclient",
        "nbformat",
        "nbval",
        "playwright",
        "plotly",
        "sklearn",
        "threadpoolctl",
    }
)


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


if _importable("threadpoolctl"):
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1)  # without it, the variables set above pin BLAS
if _importable("jupyter_client"):
    use_ipc_kernels()  # nbval's kernels in two xdist workers: no TCP port races between them


class _ModuleNeedingTools(pytest.Module):
    """A test module that is skipped when its import fails for want of one of ``BOOK_TOOLS``."""

    def _getobj(self):
        try:
            return super()._getobj()
        except self.CollectError as exc:
            cause = exc.__cause__
            missing = getattr(cause, "name", None) or ""
            top = missing.split(".")[0]
            if isinstance(cause, ModuleNotFoundError) and (
                top in BOOK_TOOLS or top.startswith("jupyter")
            ):
                reason = f"{self.path.name} needs {missing} (not installed)"
                pytest.skip(reason, allow_module_level=True)
            raise


def pytest_pycollect_makemodule(module_path, parent):
    return _ModuleNeedingTools.from_parent(parent, path=module_path)


class NotebookGuard:
    """Skip the remaining cells of a notebook once one of its cells failed.

    nbval runs a notebook's cells in order in one kernel, so after a failure every later cell
    fails too (NameError and the like), burying the real error. Registered as a plugin (not as
    conftest hooks) so that it also sees the notebooks under ``book/``, outside this folder.
    """

    def __init__(self) -> None:
        self.first_failure: dict[str, str] = {}

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo) -> Any:
        report = yield
        path = str(item.path)
        if path.endswith(".ipynb") and report.failed and path not in self.first_failure:
            self.first_failure[path] = item.name
        return report

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        failed = self.first_failure.get(str(item.path))
        if failed is not None:
            pytest.skip(f"not run: {failed} of this notebook failed")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(NotebookGuard(), "assocmem-notebook-guard")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the wall time and outcome of every executed notebook (nbval reports per cell)."""
    seconds: dict[str, float] = defaultdict(float)
    failed: set[str] = set()
    for outcome in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            path = nodeid.split("::", 1)[0]
            if not path.endswith(".ipynb"):
                continue
            seconds[path] += getattr(report, "duration", 0.0)
            if outcome in ("failed", "error"):
                failed.add(path)
    if not seconds:
        return
    terminalreporter.section("notebook execution times")
    for path in sorted(seconds):
        status = "FAILED" if path in failed else "ok"
        terminalreporter.write_line(f"{seconds[path]:8.1f} s  {status:<6}  {path}")
    terminalreporter.write_line(f"{sum(seconds.values()):8.1f} s  total")
