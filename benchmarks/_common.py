"""Helpers the benchmark scripts share: timing, the machine line, the README tables."""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def best_time(fn: Callable[[], object], repeats: int) -> tuple[float, object]:
    """Best wall time of ``repeats`` calls and the last result."""
    best, out = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def machine() -> str:
    """The machine and versions a table was measured with, e.g. "x86_64 (CPython 3.11, NumPy 2)"."""
    return (
        f"{platform.machine()} ({platform.python_implementation()} "
        f"{platform.python_version()}, NumPy {np.__version__})"
    )


def write_section(name: str, table: str) -> None:
    """Replace the section between ``<!-- name:start -->`` and ``<!-- name:end -->`` of
    benchmarks/README.md with ``table`` (the markers are appended if missing)."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    path = Path(__file__).with_name("README.md")
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    block = f"{start}\n{table}\n{end}"
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)
