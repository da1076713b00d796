"""Sphinx extension: a chapter's claims summary, gathered from its sections' claims tables.

A chapter's ``index.md`` writes

    ```{claims-summary}
    ```

and the built page shows, per section of the chapter (the other documents of its folder), how
many claims-table rows that section's notebook computed, by kind and verdict, and then every row
of kind "paper error" with a link to its section. Nothing is typed: the rows are read from the
executed notebooks' ``assocmem-claims`` tables (their ``data-kind`` attributes and verdict
cells), after all documents were read, so the counts are those of the same build.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

__all__ = ["ClaimRows", "doctree_rows", "setup"]

#: Column headings and the (kind, verdict) each counts.
_COLUMNS = (
    ("agree", ("reproduction", "agree")),
    ("disagree", ("reproduction", "disagree")),
    ("paper wrong", ("paper error", "paper wrong")),
    ("consistency checks", ("consistency", "holds")),
)


class claims_summary(nodes.General, nodes.Element):
    """Placeholder, replaced once every document of the chapter has been read."""


class ClaimsSummary(SphinxDirective):
    """``claims-summary``: the counts of the chapter's claims rows and its paper-error rows."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        return [claims_summary(docname=self.env.docname)]


class ClaimRows(HTMLParser):
    """The rows of every ``assocmem-claims`` table in some HTML: data attributes and cell texts.

    ``rows`` holds one dict per row (its attributes, ``data-kind`` and the rest, and ``cells``,
    the six printed cells); ``headers`` the header cells of each table. The book's tests read
    the built pages with it too.
    """

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []
        self.headers: list[list[str]] = []
        self._depth = 0  # > 0 inside a claims table
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table" and "assocmem-claims" in (a.get("class") or ""):
            self._depth += 1
            self.headers.append([])
        elif self._depth and tag == "tr" and "data-kind" in a:
            self.rows.append({**a, "cells": []})
        elif self._depth and tag in ("td", "th"):
            self._cell = []

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._depth and tag in ("td", "th") and self._cell is not None:
            text, self._cell = "".join(self._cell).strip(), None
            if tag == "td" and self.rows:
                self.rows[-1]["cells"].append(text)
            elif tag == "th" and len(self.headers[-1]) < 6:
                self.headers[-1].append(text)
        elif tag == "table" and self._depth:
            self._depth -= 1


def doctree_rows(doctree: nodes.Node) -> list[dict[str, Any]]:
    """Every claims-table row of a doctree, as :class:`ClaimRows` reads it, in page order.

    Each row also carries ``anchor``: the id of the innermost section that holds its table (empty
    if none), so that another page can link to the evidence. The errata appendix
    (``errata.py``) reads the rows with it too.
    """
    rows: list[dict[str, Any]] = []
    for raw in doctree.findall(nodes.raw):
        text = raw.astext()
        if "assocmem-claims" not in text:
            continue
        parser = ClaimRows()
        parser.feed(text)
        section = raw.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        anchor = section["ids"][0] if section is not None and section["ids"] else ""
        rows += [{**row, "anchor": anchor} for row in parser.rows]
    return rows


def _section_rows(app: Sphinx, docname: str) -> list[tuple[str, str, str]]:
    rows = doctree_rows(app.env.get_doctree(docname))
    return [(r["data-kind"], r["cells"][4], r["cells"][0]) for r in rows]


def _link(app: Sphinx, fromdoc: str, todoc: str, anchor: str = "") -> nodes.paragraph:
    """A paragraph holding a link to ``todoc`` (at ``#anchor`` if given), titled by its title."""
    title = app.env.titles[todoc].astext() if todoc in app.env.titles else todoc
    uri = app.builder.get_relative_uri(fromdoc, todoc) + (f"#{anchor}" if anchor else "")
    return nodes.paragraph("", "", nodes.reference("", title, internal=True, refuri=uri))


def _row(cells: list[nodes.Node | str]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell if isinstance(cell, nodes.Node) else nodes.paragraph("", str(cell))
        row += entry
    return row


def _table(
    rows: list[list[nodes.Node | str]],
    widths: list[int],
    classes: tuple[str, ...] = ("claims-summary",),
) -> nodes.table:
    """A docutils table: the first row is the header (the appendix pages use it too)."""
    group = nodes.tgroup(cols=len(widths))
    group += [nodes.colspec(colwidth=w) for w in widths]
    group += nodes.thead("", _row(rows[0]))
    group += nodes.tbody("", *(_row(r) for r in rows[1:]))
    return nodes.table("", group, classes=list(classes))


def _summary(app: Sphinx, docname: str) -> list[nodes.Node]:
    folder = docname.rsplit("/", 1)[0] + "/"
    sections = sorted(d for d in app.env.found_docs if d.startswith(folder) and d != docname)
    header: list[nodes.Node | str] = ["Section", "rows", *(c for c, _ in _COLUMNS)]
    table_rows: list[list[nodes.Node | str]] = [header]
    totals: Counter[tuple[str, str]] = Counter()
    errors: list[tuple[str, str]] = []
    for doc in sections:
        rows = _section_rows(app, doc)
        if not rows:
            continue
        counts = Counter((kind, verdict) for kind, verdict, _ in rows)
        totals += counts
        errors += [(doc, claim) for kind, _, claim in rows if kind == "paper error"]
        cells = [str(counts[key]) for _, key in _COLUMNS]
        table_rows.append([_link(app, docname, doc), str(len(rows)), *cells])
    total = sum(totals.values())
    table_rows.append(["all sections", str(total), *(str(totals[key]) for _, key in _COLUMNS)])
    out: list[nodes.Node] = [_table(table_rows, [40, 10, 10, 10, 12, 18])]
    if errors:
        out.append(
            nodes.paragraph(
                "", "Rows where a section's measurement shows the paper wrong (kind paper error):"
            )
        )
        items = nodes.bullet_list()
        for doc, claim in errors:
            link = _link(app, docname, doc)
            item = nodes.list_item()
            item += nodes.paragraph("", "", nodes.Text(f"{claim} — "), *link.children)
            items += item
        out.append(items)
    return out


def _resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(claims_summary)):
        node.replace_self(_summary(app, node["docname"]))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ``claims-summary`` directive and fill it once every page was read."""
    app.add_node(claims_summary)
    app.add_directive("claims-summary", ClaimsSummary)
    app.connect("doctree-resolved", _resolve)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
