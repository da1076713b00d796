"""The student edition (``python3 dev.py book --student``): the book without exercise solutions.

Against the build in ``_build/student/html`` (``python3 dev.py test`` builds it right after the
full edition; without it these tests skip, except under ``CI=true``, where they fail):

- every page of ``_toc.yml`` exists;
- no page shows a solution: no ``solution`` admonition, and nothing of any solution block of the
  full edition (``_build/html``), neither its code nor its text, is on the student page (the
  code cells between ``{solution-start}`` and ``{solution-end}`` included);
- every exercise of the full edition is still there, with its title;
- the notebook downloads (``_sources/``) hold no solution cell;
- a sample of pages opens in headless Chromium (the browser test's fixtures) offline, with no
  console error, its figures drawn and its math typeset.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from book_server import in_own_thread, serve
from test_book_browser import (
    _FIGURE_STATE,
    _MATH_STATE,
    _WAIT_READY,
    CHROMIUM,
    CHROMIUM_ARGS,
    DOCNAMES,
    ROOT,
    _open,
    built_book,  # noqa: F401  (the full edition)
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
from student_edition import strip_solutions_md, strip_solutions_notebook

STUDENT = ROOT / "_build" / "student" / "html"
#: Pages opened in Chromium: the intro, and per chapter its index and first section.
SAMPLE = [DOCNAMES[0]] + [
    name
    for name in DOCNAMES
    if name.endswith("/index") or re.search(r"/01_[^/]+$", name) is not None
]


@pytest.fixture(scope="session")
def student_book() -> Path:
    """``_build/student/html``; skip (or fail under ``CI=true``) when it was not built."""
    missing = [name for name in DOCNAMES if not (STUDENT / f"{name}.html").is_file()]
    if missing:
        reason = f"student edition not built ({len(missing)} pages missing, e.g. {missing[0]}): "
        reason += "python3 dev.py book --student"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {reason}")
        pytest.skip(reason)
    return STUDENT


class Blocks(HTMLParser):
    """Exercise and solution admonitions of a page: their classes, text and code.

    A block is an element whose class list holds ``exercise`` or ``solution`` (sphinx-exercise's
    admonitions); ``blocks`` lists one dict per block with its ``kind``, its ``text`` (all text
    inside but scripts and styles, whitespace collapsed) and ``code`` (the text of each ``<pre>``
    inside). ``pre`` holds the text of every ``<pre>`` of the page, ``text`` all its text.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[dict[str, Any]] = []
        self.pre: list[str] = []
        self._open: list[tuple[str, int, dict[str, Any]]] = []  # (tag, depth, block)
        self._depth = 0
        self._pre_depth: int | None = None
        self._pre_text: list[str] = []
        self._skip: str | None = None  # inside <script> or <style>
        self.text: str | list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "input", "meta", "link", "hr", "wbr", "source"):
            return
        self._depth += 1
        if tag in ("script", "style"):
            self._skip = tag
        classes = (dict(attrs).get("class") or "").split()
        kind = next((k for k in ("exercise", "solution") if k in classes), None)
        if kind is not None:
            block = {"kind": kind, "classes": classes, "text": [], "code": []}
            self.blocks.append(block)
            self._open.append((tag, self._depth, block))
        if tag == "pre" and self._pre_depth is None:
            self._pre_depth, self._pre_text = self._depth, []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "input", "meta", "link", "hr", "wbr", "source"):
            return
        if tag == self._skip:
            self._skip = None
        if self._pre_depth == self._depth and tag == "pre":
            code = "".join(self._pre_text)
            self.pre.append(code)
            for _, _, block in self._open:
                block["code"].append(code)
            self._pre_depth = None
        if self._open and self._open[-1][1] == self._depth:
            self._open.pop()
        self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._skip is not None:
            return
        self.text.append(data)
        for _, _, block in self._open:
            block["text"].append(data)
        if self._pre_depth is not None:
            self._pre_text.append(data)

    @classmethod
    def of(cls, path: Path) -> Blocks:
        parser = cls()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        for block in parser.blocks:
            block["text"] = " ".join("".join(block["text"]).split())
        parser.text = " ".join("".join(parser.text).split())
        return parser


def _title(block: dict[str, Any]) -> str:
    """An exercise's title and first words, without its number (which depends on the toc)."""
    return re.sub(r"^Exercise \d+\s*", "", block["text"])[:60]


def _squash(text: str) -> str:
    return "".join(text.split())


@pytest.mark.browser
def test_every_page_of_the_toc_is_built(student_book: Path) -> None:
    """The student edition has every page of the table of contents and its own index."""
    assert (student_book / "index.html").is_file()
    assert [n for n in DOCNAMES if not (student_book / f"{n}.html").is_file()] == []


@pytest.mark.browser
def test_no_solution_is_left_and_every_exercise_is(student_book: Path, built_book: Path) -> None:  # noqa: F811
    """Per page: no solution admonition, none of the full edition's solution code or text.

    A solution's code must be absent from every ``<pre>`` of the student page; its text (the
    code's output included) must be absent from the page's text. The exercises are the full
    edition's, in the same order and with the same titles.
    """
    problems, n_solutions, n_exercises = [], 0, 0
    for name in DOCNAMES:
        full, student = (
            Blocks.of(built_book / f"{name}.html"),
            Blocks.of(student_book / f"{name}.html"),
        )
        page_text = _squash(student.text)
        student_code = [_squash(code) for code in student.pre]
        left = [b for b in student.blocks if b["kind"] == "solution"]
        if left:
            problems.append(f"{name}: {len(left)} solution admonitions")
        for block in (b for b in full.blocks if b["kind"] == "solution"):
            n_solutions += 1
            for code in block["code"]:
                squashed = _squash(code)
                if len(squashed) >= 12 and any(squashed in pre for pre in student_code):
                    problems.append(f"{name}: solution code left: {code.strip()[:80]!r}")
            body = _squash(block["text"].removeprefix("Solution to"))
            if len(body) > 40 and body[-200:] in page_text:
                problems.append(f"{name}: solution text left: {block['text'][:80]!r}")
        exercises = [_title(b) for b in full.blocks if b["kind"] == "exercise"]
        kept = [_title(b) for b in student.blocks if b["kind"] == "exercise"]
        n_exercises += len(exercises)
        if kept != exercises:
            problems.append(f"{name}: exercises {kept} in the student edition, {exercises} in full")
    assert not problems, "student edition:\n  " + "\n  ".join(problems[:40])
    assert n_solutions > 50 and n_exercises > 50  # the parser sees the solutions it checks


@pytest.mark.browser
def test_notebook_downloads_hold_no_solution(student_book: Path) -> None:
    """The ``.ipynb`` a student page offers for download has no solution cell left."""
    notebooks = sorted((student_book / "_sources").rglob("*.ipynb"))
    assert notebooks
    left = []
    for path in notebooks:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            if re.search(r"\{solution(-start|-end)?\}", source):
                left.append(f"{path.relative_to(student_book)}: {source[:60]!r}")
    assert not left, "solution cells in the downloads:\n  " + "\n  ".join(left[:20])


@pytest.fixture(scope="module")
def student_server(student_book: Path) -> Iterator[str]:
    """Base URL of a local HTTP server (random port, own thread) serving the student edition."""
    with serve(student_book, "student-server") as base:
        yield base


def _page_problems(chromium: Any, base: str, docname: str) -> list[str]:
    """Open one student page: offline, no console error, figures and math drawn, no solution."""
    context, page, log = _open(chromium, f"{base}/{docname}.html")
    problems: list[str] = []
    try:
        page.evaluate(_WAIT_READY)
        for i, gd in enumerate(page.query_selector_all(".plotly-graph-div")):
            state = gd.evaluate(_FIGURE_STATE)
            if not state["drawn"] or state["traces"] == 0:
                problems.append(f"figure {i} is not drawn")
        math = page.evaluate(_MATH_STATE)
        if math["untypeset"]:
            problems.append(f"math not typeset: {math['untypeset'][:3]}")
        solutions = page.locator(".solution").count()
        if solutions:
            problems.append(f"{solutions} solution elements in the page")
        page.wait_for_timeout(300)
    finally:
        context.close()
    if log.blocked:
        problems.append(f"requests to other hosts (aborted): {sorted(set(log.blocked))}")
    if log.errors:
        problems.append(f"errors: {log.errors}")
    return problems


@pytest.fixture(scope="module")
def student_page_problems(student_server: str) -> dict[str, list[str]]:
    """The problems of every sampled student page, from one Chromium run in its own thread.

    The browser test's session Chromium may already be a sync Playwright session in this
    thread (pytest-xdist puts several files in one worker), and a second sync session in the
    same thread fails ("Sync API inside the asyncio loop"); a thread of its own has no loop.
    """
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} not found"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and the browser test cannot run: {reason}")
        pytest.skip(reason)

    def work() -> dict[str, list[str]]:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                return {name: _page_problems(chromium, student_server, name) for name in SAMPLE}
            finally:
                chromium.close()

    return in_own_thread(work, "student-pages")


@pytest.mark.browser
@pytest.mark.parametrize("docname", SAMPLE)
def test_student_page_opens_without_errors(
    student_page_problems: dict[str, list[str]], docname: str
) -> None:
    """A sample page of the student edition: offline, no console error, figures and math drawn."""
    problems = student_page_problems[docname]
    assert not problems, f"student {docname}:\n  " + "\n  ".join(problems)


def test_sample_covers_every_chapter() -> None:
    """The pages opened in Chromium include each chapter's index and first section."""
    chapters = {n.rsplit("/", 1)[0] for n in DOCNAMES if n.endswith("/index")}
    assert len(chapters) >= 5 and all(f"{c}/index" in SAMPLE for c in chapters)


def _cell(kind: str, source: str) -> dict[str, Any]:
    return {"cell_type": kind, "metadata": {}, "source": source}


def test_downloads_lose_gated_solutions_and_solution_blocks() -> None:
    """The download stripper drops a gated solution's cells and a ``{solution}`` block only."""
    exercise = "```{exercise} Two\n:label: ex-two\n\nWhat is 1 + 1?\n```"
    notebook = {
        "cells": [
            _cell("markdown", exercise),
            _cell("markdown", "```{solution-start} ex-two\n:class: dropdown\n```"),
            _cell("code", "answer = 1 + 1"),
            _cell("markdown", "It is two."),
            _cell("markdown", "```{solution-end}\n```\n\n## Checks"),
            _cell("markdown", "Before\n\n````{solution} ex-two\n```python\n2\n```\n````\n\nAfter"),
            _cell("code", "kept = True"),
        ],
        "metadata": {},
    }
    sources = [c["source"] for c in strip_solutions_notebook(notebook)["cells"]]
    assert sources == [exercise, "\n## Checks", "Before\n\n\nAfter", "kept = True"]
    shared = "Text before.\n\n```{solution-start} ex-two\n```"
    notebook["cells"][1] = _cell("markdown", shared)
    sources = [c["source"] for c in strip_solutions_notebook(notebook)["cells"]]
    assert sources[:2] == [exercise, "Text before.\n\n"]
    text = "A\n:::{solution-start} x\n:::\nsecret\n:::{solution-end}\n:::\nB\n"
    assert strip_solutions_md(text) == "A\nB\n"
