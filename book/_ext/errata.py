"""Sphinx extension: the errata and reproduction scoreboard, gathered from every claims table.

The errata appendix writes

    ```{claims-appendix} scoreboard
    ```

    ```{claims-appendix} errata
    ```

The first becomes a table with one row per chapter (linked to its index page): how many rows of
its sections' claims tables agree, disagree, show the paper wrong or are consistency checks that
hold, with a total row. The second lists, chapter by chapter, every row of kind "paper error"
and every reproduction row whose verdict is "disagree", with its six printed cells (claim, paper,
ours, tolerance, verdict, why) and a link to the section of the page whose table printed it.

Nothing is typed: while each document is read, the rows of its executed notebook's
``assocmem-claims`` tables are stored in the environment (``claims_summary.doctree_rows``, the
reader the chapters' own summaries use), merged across parallel readers, and the directives are
filled after every document was read, so the counts are those of the same build. A chapter is a
folder ``book/<chapter>/`` whose documents print claims rows; chapters and rows come in reading
order (the table of contents).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from _gather import PerDocument, chapter_link, chapter_of
from claims_summary import _link, _table, doctree_rows

__all__ = ["setup"]

#: Scoreboard columns: heading and the (kind, verdict) it counts.
SCOREBOARD = (
    ("agree", ("reproduction", "agree")),
    ("disagree", ("reproduction", "disagree")),
    ("paper wrong", ("paper error", "paper wrong")),
    ("consistency holds", ("consistency", "holds")),
)
#: The six cells of a claims row, as its table's header names them.
CELLS = ("Claim", "Paper", "Ours", "Tolerance", "Verdict", "Why")
_PARTS = ("scoreboard", "errata")
#: ``{docname: [row, ...]}`` in the build environment.
_STORE = PerDocument("assocmem_claim_rows", "{claims-appendix}")


class claims_appendix(nodes.General, nodes.Element):
    """Placeholder, replaced once every document has been read."""


class ClaimsAppendix(SphinxDirective):
    """``claims-appendix scoreboard|errata``: the book's claims counts, or its errata rows."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        part = self.arguments[0].strip()
        if part not in _PARTS:
            raise self.error(f"claims-appendix: part must be one of {_PARTS}, got {part!r}")
        return [claims_appendix(docname=self.env.docname, part=part)]


def _rows(doctree: nodes.document) -> list[dict[str, Any]]:
    return [
        {"kind": r["data-kind"], "cells": list(r["cells"]), "anchor": r["anchor"]}
        for r in doctree_rows(doctree)
    ]


def _by_chapter(app: Sphinx) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Every chapter's (docname, row) pairs, chapters and documents in reading order."""
    return _STORE.by_group(app.env, chapter_of)


def _scoreboard(app: Sphinx, docname: str) -> list[nodes.Node]:
    header: list[nodes.Node | str] = ["Chapter", *(c for c, _ in SCOREBOARD), "total"]
    rows: list[list[nodes.Node | str]] = [header]
    totals: Counter[tuple[str, str]] = Counter()
    n_total = 0
    for chapter, pairs in _by_chapter(app).items():
        counts = Counter((row["kind"], row["cells"][4]) for _, row in pairs)
        totals += counts
        n_total += len(pairs)
        cells = [str(counts[key]) for _, key in SCOREBOARD]
        rows.append([chapter_link(app, docname, chapter), *cells, str(len(pairs))])
    rows.append(["all chapters", *(str(totals[key]) for _, key in SCOREBOARD), str(n_total)])
    return [
        _table(rows, [36, 12, 12, 14, 14, 12], classes=("claims-scoreboard", "colwidths-given"))
    ]


def _evidence(app: Sphinx, fromdoc: str, doc: str, anchor: str) -> nodes.paragraph:
    link = _link(app, fromdoc, doc, anchor)
    return nodes.paragraph("", "", nodes.Text("Evidence: "), *link.children)


def _errata(app: Sphinx, docname: str) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for chapter, pairs in _by_chapter(app).items():
        wrong = [(d, r) for d, r in pairs if r["kind"] == "paper error"]
        disagree = [
            (d, r) for d, r in pairs if r["kind"] == "reproduction" and r["cells"][4] == "disagree"
        ]
        if not wrong and not disagree:
            continue
        link = chapter_link(app, docname, chapter)
        out.append(nodes.rubric("", "", *link.children, classes=["errata-chapter"]))
        summary = f"{len(wrong)} rows where the paper is wrong, {len(disagree)} where we disagree."
        out.append(nodes.paragraph("", summary))
        rows: list[list[nodes.Node | str]] = [list(CELLS)]
        for doc, row in wrong + disagree:
            claim = nodes.container("")
            claim += nodes.paragraph("", row["cells"][0])
            claim += _evidence(app, docname, doc, row["anchor"])
            rows.append([claim, *row["cells"][1:]])
        out.append(
            _table(rows, [24, 14, 19, 15, 12, 16], classes=("claims-errata", "colwidths-given"))
        )
    if not out:
        out.append(
            nodes.paragraph("", "No claims row of this build is a paper error or disagrees.")
        )
    return out


def _resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(claims_appendix)):
        render = _scoreboard if node["part"] == "scoreboard" else _errata
        node.replace_self(render(app, node["docname"]))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register ``claims-appendix``; store each document's claims rows as it is read."""
    app.add_node(claims_appendix)
    app.add_directive("claims-appendix", ClaimsAppendix)
    _STORE.connect(app, _rows)
    app.connect("doctree-resolved", _resolve)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
