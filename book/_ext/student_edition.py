"""Sphinx extension: the student edition of the book, without exercise solutions.

``python3 dev.py book --student`` loads it (the full edition never does) together with
sphinx-exercise's ``hide_solutions = True`` and ``nb_execution_mode = "off"``. It does three things:

- **Gated solutions go entirely.** With ``hide_solutions`` sphinx-exercise drops the
  ``{solution}`` directive and the ``{solution-start}`` marker, but the cells between
  ``{solution-start}`` and ``{solution-end}`` (the solution's code and its output) stay on the page.
  Here ``{solution-start}`` leaves a marker instead, and a transform removes everything from the
  marker to its ``{solution-end}``: the markdown, the code cells and their outputs.
- **No notebook runs twice.** The full build writes every executed notebook to
  ``_build/jupyter_execute`` (myst-nb's output folder). When a source notebook's cells equal those
  of its executed copy (same types, same sources), the student build reads the executed copy
  instead, outputs included, and nothing executes. A notebook whose executed copy is missing or
  stale (edited since the full build) is executed by this build (myst-nb's per-notebook
  ``mystnb.execution_mode`` metadata), and the build log names it.
- **The downloads match the pages.** The ``.ipynb`` and ``.md`` sources a page offers for download
  (``_sources/``) lose the same solution cells and blocks.

Config values: ``student_executed_dir`` (the full build's ``jupyter_execute`` folder; empty: always
execute). Everything is a no-op unless ``hide_solutions`` is true.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx_exercise.directive import SolutionStartDirective
from sphinx_exercise.nodes import solution_end_node, solution_node

__all__ = ["setup", "strip_solutions_md", "strip_solutions_notebook"]

LOGGER = logging.getLogger(__name__)

# An opening fence of a solution directive (backticks or colons, any length) and its name.
_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>solution(?:-start|-end)?)\}")


class solution_cut(nodes.Element):
    """Where a ``{solution-start}`` stood: everything up to its ``{solution-end}`` goes."""


class HiddenSolutionStart(SolutionStartDirective):
    """``{solution-start}`` that leaves a :class:`solution_cut` marker when solutions are hidden."""

    def run(self) -> list[nodes.Node]:
        shown = super().run()  # registers the gated start; returns [] under hide_solutions
        return [solution_cut()] if self.config.hide_solutions else shown


class RemoveGatedSolutions(SphinxTransform):
    """Remove each marker, the nodes after it and its ``{solution-end}`` (student edition only)."""

    default_priority = 5  # before sphinx-exercise merges gated directives (priority 10)

    def apply(self, **kwargs: Any) -> None:
        if not self.config.hide_solutions:
            return
        for cut in list(self.document.findall(solution_cut)):
            parent = cut.parent
            start = parent.index(cut)
            end = next(
                (
                    i
                    for i in range(start, len(parent.children))
                    if isinstance(parent.children[i], solution_end_node)
                ),
                None,
            )
            if end is None:
                LOGGER.warning(
                    "student edition: a {solution-start} without a {solution-end} after it in "
                    "the same section; its solution cannot be removed",
                    location=cut,
                )
                parent.remove(cut)
                continue
            del parent.children[start : end + 1]
        for node in list(self.document.findall(solution_node)):  # none expected: belt and braces
            node.parent.remove(node)


def _cells(notebook: dict[str, Any]) -> list[tuple[str, str]]:
    def text(source: str | list[str]) -> str:
        return source if isinstance(source, str) else "".join(source)

    return [(c.get("cell_type", ""), text(c.get("source", ""))) for c in notebook.get("cells", [])]


def _use_executed_notebook(app: Sphinx, docname: str, source: list[str]) -> None:
    """``source-read``: a notebook's text becomes its executed copy from the full build."""
    if not app.config.hide_solutions or not str(app.env.doc2path(docname)).endswith(".ipynb"):
        return
    notebook = json.loads(source[0])
    folder = app.config.student_executed_dir
    executed = Path(folder) / f"{docname}.ipynb" if folder else None
    if executed is not None and executed.is_file():
        text = executed.read_text(encoding="utf-8")
        if _cells(json.loads(text)) == _cells(notebook):
            source[0] = text
            return
    reason = "missing" if executed is None or not executed.is_file() else "stale"
    LOGGER.info(
        f"student edition: {docname}: the full build's executed copy is {reason}; executing it"
    )
    notebook.setdefault("metadata", {}).setdefault("mystnb", {})["execution_mode"] = "force"
    source[0] = json.dumps(notebook)


def _skip_block(lines: list[str], i: int, fence: str) -> int:
    """Index of the line after the closing ``fence`` of the block that opens at line ``i``."""
    j = i + 1
    while j < len(lines) and lines[j].strip() != fence:
        j += 1
    return j + 1


def _strip(text: str, gated: bool) -> tuple[str, bool]:
    """``text`` without solution blocks; ``gated``: whether a gated solution is open (in, out)."""
    out: list[str] = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        if gated and (match is None or match["name"] != "solution-end"):
            i += 1
        elif match is not None:
            i = _skip_block(lines, i, match["fence"])
            gated = match["name"] == "solution-start"
        else:
            out.append(lines[i])
            i += 1
    return "".join(out), gated


def strip_solutions_md(text: str) -> str:
    """MyST text without ``{solution}`` blocks and ``{solution-start}``…``{solution-end}`` spans."""
    return _strip(text, False)[0]


def strip_solutions_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """The notebook without its solutions: the gated spans' cells and lines, ``{solution}`` blocks.

    A gated solution runs from the ``{solution-start}`` block of a markdown cell to the
    ``{solution-end}`` block of a later one; the text before the start and after the end stays.
    """
    cells, gated = [], False
    for cell in notebook.get("cells", []):
        kind, text = _cells({"cells": [cell]})[0]
        if kind != "markdown":
            if not gated:
                cells.append(cell)
            continue
        stripped, gated_after = _strip(text, gated)
        if stripped.strip() or not (gated or gated_after or stripped != text):
            cells.append({**cell, "source": stripped} if stripped != text else cell)
        gated = gated_after
    return {**notebook, "cells": cells}


def _strip_downloads(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: the downloadable sources in ``_sources/`` lose their solutions."""
    if exception is not None or not app.config.hide_solutions:
        return
    root = Path(app.outdir) / "_sources"
    for path in sorted(root.rglob("*")):
        if path.suffix == ".ipynb":
            notebook = json.loads(path.read_text(encoding="utf-8"))
            path.write_text(json.dumps(strip_solutions_notebook(notebook), indent=1) + "\n")
        elif path.suffix in (".md", ".txt"):
            path.write_text(strip_solutions_md(path.read_text(encoding="utf-8")), encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the marker, the transform and the event handlers (Sphinx entry point)."""
    app.setup_extension("sphinx_exercise")
    app.add_config_value("student_executed_dir", "", "env")
    app.add_node(solution_cut)
    app.add_directive("solution-start", HiddenSolutionStart, override=True)
    app.add_transform(RemoveGatedSolutions)
    app.connect("source-read", _use_executed_notebook)
    app.connect("build-finished", _strip_downloads)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
