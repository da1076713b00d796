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
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from claims_summary import _link, _table, doctree_rows

__all__ = ["chapter_of", "reading_order", "setup"]

#: Scoreboard columns: heading and the (kind, verdict) it counts.
SCOREBOARD = (
    ("agree", ("reproduction", "agree")),
    ("disagree", ("reproduction", "disagree")),
    ("paper wrong", ("paper error", "paper wrong")),
    ("consistency holds", ("consistency", "holds")),
)
#: The six cells of a claims row, as its table's header names them.
CELLS = ("Claim", "Paper", "Ours", "Tolerance", "Verdict", "Why")
_ENV = "assocmem_claim_rows"  # {docname: [row, ...]} in the build environment
_PARTS = ("scoreboard", "errata")
_SKIP = ("book/appendix",)  # folders that are not chapters


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


def reading_order(env: BuildEnvironment) -> dict[str, int]:
    """Position of every document in the table of contents (unlisted documents come last)."""
    order: dict[str, int] = {}

    def walk(doc: str) -> None:
        if doc in order:
            return
        order[doc] = len(order)
        for child in env.toctree_includes.get(doc, []):
            walk(child)

    walk(env.config.root_doc)
    for doc in sorted(env.found_docs):
        order.setdefault(doc, len(order))
    return order


def chapter_of(docname: str) -> str | None:
    """The chapter folder ``book/<chapter>`` of a document, or None outside a chapter."""
    folder = docname.rsplit("/", 1)[0] if "/" in docname else ""
    if folder.count("/") != 1 or folder in _SKIP:
        return None
    return folder


def chapter_link(app: Sphinx, fromdoc: str, chapter: str) -> nodes.paragraph:
    """A paragraph holding a link to the chapter's index page (or its name, without one)."""
    index = f"{chapter}/index"
    if index in app.env.found_docs:
        return _link(app, fromdoc, index)
    return nodes.paragraph("", chapter.rsplit("/", 1)[-1])


def _store(app: Sphinx, doctree: nodes.document) -> None:
    rows = [
        {"kind": r["data-kind"], "cells": list(r["cells"]), "anchor": r["anchor"]}
        for r in doctree_rows(doctree)
    ]
    data = _data(app.env)
    data.pop(app.env.docname, None)
    if rows:
        data[app.env.docname] = rows


def _data(env: BuildEnvironment) -> dict[str, list[dict[str, Any]]]:
    if not hasattr(env, _ENV):
        setattr(env, _ENV, {})
    return getattr(env, _ENV)


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _data(env).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    theirs = _data(other)
    _data(env).update({d: theirs[d] for d in docnames if d in theirs})


def _outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """In an incremental build, re-read the pages that use the directive when any page changed."""
    if not (added or changed or removed):
        return []
    return sorted(
        d
        for d in env.found_docs - added - changed
        if "{claims-appendix}"
        in Path(env.doc2path(d)).read_text(encoding="utf-8", errors="replace")
    )


def _by_chapter(app: Sphinx) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Every chapter's (docname, row) pairs, chapters and documents in reading order."""
    order = reading_order(app.env)
    chapters: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    data = _data(app.env)
    for doc in sorted(data, key=lambda d: (order.get(d, len(order)), d)):
        chapter = chapter_of(doc)
        if chapter is not None:
            chapters.setdefault(chapter, []).extend((doc, row) for row in data[doc])
    return chapters


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


def _is_erratum(row: dict[str, Any]) -> bool:
    return row["kind"] == "paper error" or (
        row["kind"] == "reproduction" and row["cells"][4] == "disagree"
    )


def _evidence(app: Sphinx, fromdoc: str, doc: str, anchor: str) -> nodes.paragraph:
    title = app.env.titles[doc].astext() if doc in app.env.titles else doc
    uri = app.builder.get_relative_uri(fromdoc, doc) + (f"#{anchor}" if anchor else "")
    ref = nodes.reference("", title, internal=True, refuri=uri)
    return nodes.paragraph("", "", nodes.Text("Evidence: "), ref)


def _errata(app: Sphinx, docname: str) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for chapter, pairs in _by_chapter(app).items():
        wrong = [(d, r) for d, r in pairs if r["kind"] == "paper error"]
        disagree = [(d, r) for d, r in pairs if _is_erratum(r) and r["kind"] != "paper error"]
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
    app.connect("doctree-read", _store)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-get-outdated", _outdated)
    app.connect("doctree-resolved", _resolve)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
