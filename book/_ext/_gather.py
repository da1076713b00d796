"""Shared by the appendix extensions (``errata``, ``exercise_index``): records gathered per page.

Each extension stores some records of every document while it is read, keeps them in the build
environment across parallel readers and incremental builds, and fills its directive once every
document was read, grouping the records by chapter in reading order. :class:`PerDocument` is that
plumbing; :func:`reading_order`, :func:`chapter_of` and :func:`chapter_link` are the grouping.
Not a Sphinx extension itself (it has no ``setup``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from claims_summary import _link

__all__ = ["PerDocument", "chapter_link", "chapter_of", "reading_order"]

_SKIP = ("book/appendix",)  # folders that are not chapters

Record = dict[str, Any]
Pairs = list[tuple[str, Record]]


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


class PerDocument:
    """Records of each document, kept in the environment as ``{docname: [record, ...]}``.

    ``attr`` names the environment attribute; ``directive`` is the text (``"{exercise-index}"``)
    that marks a source page to re-read when any page changed. The methods ``purge``, ``merge``
    and ``outdated`` are Sphinx event handlers; :meth:`connect` registers them.
    """

    def __init__(self, attr: str, directive: str) -> None:
        self.attr = attr
        self.directive = directive

    def data(self, env: Any) -> dict[str, list[Record]]:
        """The stored records (an empty mapping is created on first use)."""
        if not hasattr(env, self.attr):
            setattr(env, self.attr, {})
        return getattr(env, self.attr)

    def purge(self, app: Sphinx | None, env: Any, docname: str) -> None:
        """``env-purge-doc``: forget a document."""
        self.data(env).pop(docname, None)

    def merge(self, app: Sphinx | None, env: Any, docnames: set[str], other: Any) -> None:
        """``env-merge-info``: copy a parallel reader's documents, and only those."""
        theirs = self.data(other)
        self.data(env).update({d: theirs[d] for d in docnames if d in theirs})

    def outdated(
        self, app: Sphinx | None, env: Any, added: set[str], changed: set[str], removed: set[str]
    ) -> list[str]:
        """In an incremental build, re-read the pages that use the directive when any changed."""
        if not (added or changed or removed):
            return []
        return sorted(
            d
            for d in env.found_docs - added - changed
            if self.directive in Path(env.doc2path(d)).read_text(encoding="utf-8", errors="replace")
        )

    def connect(self, app: Sphinx, collect: Callable[[nodes.document], list[Record]]) -> None:
        """Store ``collect(doctree)`` for each document read, and keep it across builds."""

        def store(app: Sphinx, doctree: nodes.document) -> None:
            records = collect(doctree)
            data = self.data(app.env)
            data.pop(app.env.docname, None)
            if records:
                data[app.env.docname] = records

        app.connect("doctree-read", store)
        app.connect("env-purge-doc", self.purge)
        app.connect("env-merge-info", self.merge)
        app.connect("env-get-outdated", self.outdated)

    def by_group(
        self, env: BuildEnvironment, group: Callable[[str], str | None]
    ) -> dict[str, Pairs]:
        """``{group(doc): [(doc, record), ...]}`` in reading order (a None group is left out)."""
        order = reading_order(env)
        groups: dict[str, Pairs] = {}
        data = self.data(env)
        for doc in sorted(data, key=lambda d: (order.get(d, len(order)), d)):
            key = group(doc)
            if key is not None:
                groups.setdefault(key, []).extend((doc, record) for record in data[doc])
        return groups
