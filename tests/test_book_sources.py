"""Checks on the book's sources that need no build: what a reader can follow.

The technical notes in ``shared/notes`` are source material for the authors, not part of the
book, so a page never cites them ("note §2.6", "Pitfall P1", "(note P3)", "chapter note"); it
explains in its own words, links its own section, or cites the paper.
"""

from __future__ import annotations

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
