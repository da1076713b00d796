"""Checks on the book's sources that need no build: what a reader can follow.

The technical notes in ``shared/notes`` are source material for the authors, not part of the
book, so a page never cites them ("note §2.6", "Pitfall P1", "(note P3)", "chapter note"); it
explains in its own words, links its own section, or cites the paper. Plumbing runs but hides its
input: every cell that builds a claims table and every code cell of a *Checks* section carries
the ``hide-input`` (or ``remove-input``) tag, so the reader sees the table, not its f-strings.
No ``Claim`` call passes a literal ``True``/``False`` (a verdict typed by hand), and every one
states its ``test=`` tolerance.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTE_REFERENCE = re.compile(r"note §[0-9.]+|[Pp]itfall [0-9P]+|\bnote P[0-9]+|chapter note")


def test_the_book_never_cites_the_authors_notes() -> None:
    sources = sorted((ROOT / "book").rglob("*.ipynb")) + sorted((ROOT / "book").rglob("*.md"))
    found = [
        f"{path.relative_to(ROOT).as_posix()}: {m.group(0)!r}"
        for path in sources
        if "_build" not in path.parts
        for m in NOTE_REFERENCE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"{len(found)} references to the notes:\n  " + "\n  ".join(found[:20])


HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


def _last_heading(markdown: str) -> str | None:
    """The last heading of a markdown cell outside fenced blocks, as "## Title", or None."""
    last, fenced = None, False
    for line in markdown.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and (m := HEADING.match(line)):
            last = f"{m.group(1)} {m.group(2)}"
    return last


def _plumbing_cells(path: Path) -> list[tuple[int, dict]]:
    """(index, cell) of the code cells that build claims tables or sit under "## Checks"."""
    out, in_checks = [], False
    for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            heading = _last_heading(text)
            if heading is not None:
                in_checks = heading == "## Checks"
            continue
        if in_checks or "claims_table(" in text:
            out.append((i, cell))
    return out


def test_claims_tables_and_checks_hide_their_input() -> None:
    notebooks = sorted((ROOT / "book").rglob("*.ipynb"))
    shown = [
        f"{path.relative_to(ROOT).as_posix()} cell {i}"
        for path in notebooks
        if "_build" not in path.parts
        for i, cell in _plumbing_cells(path)
        if not {"hide-input", "remove-input"} & set(cell.get("metadata", {}).get("tags", []))
    ]
    assert not shown, "plumbing cells that show their input:\n  " + "\n  ".join(shown)
    assert sum(len(_plumbing_cells(p)) for p in notebooks) > 50  # the check sees the cells


# A code cell of the built book at 1280 px is a 684 px <pre> with 16 px padding on each side, set
# in a 14 px monospace font of 8.43 px per character (DejaVu Sans Mono, measured in Chromium):
# 77 characters fit before the cell scrolls sideways. 76 leaves one character for a wider
# fallback font. ``ruff format`` wraps the notebooks at this length (book/ruff.toml); long strings
# and comments, which it cannot wrap, are what this test catches. It covers every code cell,
# hidden-input ones included, since a reader who expands one should not have to scroll either.
CODE_COLUMNS = 76


def test_book_ruff_config_wraps_at_the_code_column() -> None:
    config = (ROOT / "book" / "ruff.toml").read_text(encoding="utf-8")
    match = re.search(r"^line-length\s*=\s*(\d+)", config, re.MULTILINE)
    assert match and int(match.group(1)) == CODE_COLUMNS, "book/ruff.toml line-length"


def test_notebook_code_lines_fit_the_column() -> None:
    notebooks = sorted(p for p in (ROOT / "book").rglob("*.ipynb") if "_build" not in p.parts)
    long = [
        f"{path.relative_to(ROOT).as_posix()} cell {i}: {len(line)} > {CODE_COLUMNS}: {line[:60]}"
        for path in notebooks
        for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"])
        if cell["cell_type"] == "code"
        for line in "".join(cell["source"]).splitlines()
        if len(line) > CODE_COLUMNS
    ]
    assert not long, f"{len(long)} code lines wider than a code cell:\n  " + "\n  ".join(long[:20])
    assert len(notebooks) > 20  # the test sees the notebooks


def _claim_calls(path: Path) -> list[ast.Call]:
    """Every ``Claim(...)`` / ``explore.Claim(...)`` call in the notebook's code cells."""
    calls = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name == "Claim":
                    calls.append(node)
    return calls


def _literal_bools(call: ast.Call) -> list[str]:
    """The literal ``True``/``False`` inside a call (a verdict typed by hand).

    A flag passed by keyword to a function inside the call (``at_most(strict=True)``,
    ``zip(..., strict=True)``) is an option, not a verdict, and is skipped.
    """
    flags = {
        id(kw.value)
        for node in ast.walk(call)
        if isinstance(node, ast.Call) and node is not call
        for kw in node.keywords
    }
    return [
        f"line {node.lineno}: {node.value}"
        for node in ast.walk(call)
        if isinstance(node, ast.Constant) and isinstance(node.value, bool) and id(node) not in flags
    ]


def test_no_claim_takes_a_literal_verdict() -> None:
    # A verdict is derived by Claim from measured, reference and test; a literal True/False in a
    # Claim call (as a verdict, or as measured/reference standing in for one) would let a table
    # say what the numbers do not.
    notebooks = [p for p in sorted((ROOT / "book").rglob("*.ipynb")) if "_build" not in p.parts]
    calls = {p: _claim_calls(p) for p in notebooks}
    found = [
        f"{path.relative_to(ROOT).as_posix()} {where}"
        for path, cs in calls.items()
        for call in cs
        for where in _literal_bools(call)
    ]
    untested = [
        f"{path.relative_to(ROOT).as_posix()} line {call.lineno}"
        for path, cs in calls.items()
        for call in cs
        if "test" not in {k.arg for k in call.keywords}
    ]
    assert not found, "Claim calls with a literal bool:\n  " + "\n  ".join(found)
    assert not untested, "Claim calls without test=:\n  " + "\n  ".join(untested)
    assert sum(len(cs) for cs in calls.values()) > 150  # the scan sees the calls
