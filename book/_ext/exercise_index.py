"""Sphinx extension: the book's index of exercises, and a tag badge on every exercise.

Every ``{exercise}`` (sphinx-exercise) carries, in its ``:class:`` option, one kind and one level:

- kinds: ``ex-predict`` (guess the outcome, then check), ``ex-derive`` (pen and paper),
  ``ex-compute`` (write or run code for a number or a figure), ``ex-explore`` (open-ended use of a
  widget or a parameter scan);
- levels: ``ex-level-1`` (warm-up), ``ex-level-2`` (standard), ``ex-level-3`` (challenging).

The exercise appendix writes

    ```{exercise-index} counts
    ```

    ```{exercise-index} list
    ```

The first becomes two tables of counts per chapter, by kind and by level (each with the untagged
exercises, the chapter's total and a row for the whole book). The second lists, chapter by
chapter, every exercise (its numbered title linked to it, its section, kind and level). An
exercise without exactly one kind and one level (or with an ``ex-`` class that is neither) is
listed as untagged.

While each document is read, its exercise nodes are stored in the environment (label, title,
classes), merged across parallel readers; the directives are filled after every document was
read. On the chapter pages a badge ("predict · level 1") is appended to each tagged exercise's
title (a post-transform after sphinx-exercise has built the title); ``exercise_index.css``
styles it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node, exercise_subtitle

from _gather import PerDocument, chapter_link, chapter_of
from claims_summary import _link, _table

__all__ = ["KINDS", "LEVELS", "exercise_tags", "setup"]

#: The kinds of exercise, in the order the index shows them.
KINDS = ("predict", "derive", "compute", "explore")
#: The levels of difficulty.
LEVELS = ("1", "2", "3")
STATIC = Path(__file__).resolve().parent / "static"
_CSS = "exercise_index.css"
_PARTS = ("counts", "list")
#: ``{docname: [exercise, ...]}`` in the build environment.
_STORE = PerDocument("assocmem_exercises", "{exercise-index}")
_EXERCISES = (exercise_node, exercise_enumerable_node)


def exercise_tags(classes: list[str]) -> tuple[str, str] | None:
    """``(kind, level)`` of an exercise's classes, or None unless exactly one of each is there.

    Examples
    --------
    >>> exercise_tags(["exercise", "ex-predict", "ex-level-1"])
    ('predict', '1')
    >>> exercise_tags(["exercise", "ex-predict"]) is None
    True
    """
    tags = [c[3:] for c in classes if c.startswith("ex-")]
    kinds = [t for t in tags if t in KINDS]
    levels = [t[6:] for t in tags if t.startswith("level-") and t[6:] in LEVELS]
    if len(kinds) != 1 or len(levels) != 1 or len(tags) != 2:
        return None
    return kinds[0], levels[0]


class exercise_index(nodes.General, nodes.Element):
    """Placeholder, replaced once every document has been read."""


class ExerciseIndex(SphinxDirective):
    """``exercise-index counts|list``: the book's exercise counts, or every exercise by chapter."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        part = self.arguments[0].strip()
        if part not in _PARTS:
            raise self.error(f"exercise-index: part must be one of {_PARTS}, got {part!r}")
        return [exercise_index(docname=self.env.docname, part=part)]


class ExerciseBadges(SphinxPostTransform):
    """Append "kind · level N" to each tagged exercise's title (after sphinx-exercise's, at 20)."""

    default_priority = 25
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        for node in self.document.findall(lambda n: isinstance(n, _EXERCISES)):
            tags = exercise_tags(node["classes"])
            title = node.children[0] if node.children else None
            if tags is None or not isinstance(title, nodes.title):
                continue
            kind, level = tags
            badge = nodes.inline(
                "", f"{kind} · level {level}", classes=["ex-badge", f"ex-badge-{kind}"]
            )
            title += badge


def _subtitle(node: nodes.Element) -> list[nodes.Node]:
    title = node.children[0] if node.children else None
    for child in title.children if title is not None else []:
        if isinstance(child, exercise_subtitle):
            return [c.deepcopy() for c in child.children]
    return []


def _exercises(doctree: nodes.document) -> list[dict[str, Any]]:
    return [
        {
            "label": node["ids"][0] if node["ids"] else "",
            "classes": list(node["classes"]),
            "subtitle": _subtitle(node),
            "numbered": isinstance(node, exercise_enumerable_node),
        }
        for node in doctree.findall(lambda n: isinstance(n, _EXERCISES))
    ]


def _by_chapter(app: Sphinx) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Every chapter's (docname, exercise) pairs, in reading order.

    A document outside ``book/<chapter>/`` is its own group, keyed by its docname.
    """
    return _STORE.by_group(app.env, lambda doc: chapter_of(doc) or doc)


def _group_link(app: Sphinx, fromdoc: str, key: str) -> nodes.paragraph:
    if key in app.env.found_docs:  # a document outside the chapters
        return _link(app, fromdoc, key)
    return chapter_link(app, fromdoc, key)


def _counts(app: Sphinx, docname: str) -> list[nodes.Node]:
    """Two tables of counts per chapter: by kind, then by level (untagged and total in both)."""
    by_kind = [*KINDS, "untagged", "total"]
    by_level = [*(f"level {n}" for n in LEVELS), "untagged", "total"]
    kind_rows: list[list[nodes.Node | str]] = [["Chapter", *by_kind]]
    level_rows: list[list[nodes.Node | str]] = [["Chapter", *by_level]]
    totals: Counter[str] = Counter()
    for key, pairs in _by_chapter(app).items():
        counts: Counter[str] = Counter(total=len(pairs))
        for _, ex in pairs:
            tags = exercise_tags(ex["classes"])
            if tags is None:
                counts["untagged"] += 1
            else:
                counts[tags[0]] += 1
                counts[f"level {tags[1]}"] += 1
        totals += counts
        kind_rows.append([_group_link(app, docname, key), *(str(counts[c]) for c in by_kind)])
        level_rows.append([_group_link(app, docname, key), *(str(counts[c]) for c in by_level)])
    kind_rows.append(["all chapters", *(str(totals[c]) for c in by_kind)])
    level_rows.append(["all chapters", *(str(totals[c]) for c in by_level)])
    return [
        _table(kind_rows, [34, 11, 11, 11, 11, 11, 11], ("exercise-counts", "colwidths-given")),
        _table(level_rows, [34, 13, 13, 13, 14, 13], ("exercise-levels", "colwidths-given")),
    ]


def _number(app: Sphinx, doc: str, ex: dict[str, Any]) -> str:
    numbers = app.env.toc_fignumbers.get(doc, {}).get("exercise", {}).get(ex["label"])
    if not ex["numbered"] or not numbers:
        return "Exercise"
    return "Exercise " + ".".join(map(str, numbers))


def _title(app: Sphinx, fromdoc: str, doc: str, ex: dict[str, Any]) -> nodes.paragraph:
    uri = app.builder.get_relative_uri(fromdoc, doc) + f"#{ex['label']}"
    ref = nodes.reference("", "", internal=True, refuri=uri)
    ref += nodes.Text(_number(app, doc, ex))
    if ex["subtitle"]:
        ref += nodes.Text(" (")
        ref += [c.deepcopy() for c in ex["subtitle"]]
        ref += nodes.Text(")")
    return nodes.paragraph("", "", ref)


def _list(app: Sphinx, docname: str) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    has_math = False
    for key, pairs in _by_chapter(app).items():
        link = _group_link(app, docname, key)
        out.append(nodes.rubric("", "", *link.children, classes=["exercise-chapter"]))
        rows: list[list[nodes.Node | str]] = [["Exercise", "Section", "Kind", "Level"]]
        for doc, ex in pairs:
            tags = exercise_tags(ex["classes"])
            kind, level = tags if tags is not None else ("untagged", "untagged")
            has_math = has_math or any(isinstance(c, nodes.math) for c in ex["subtitle"])
            rows.append([_title(app, docname, doc, ex), _link(app, docname, doc), kind, level])
        out.append(_table(rows, [40, 32, 15, 13], classes=("exercise-list", "colwidths-given")))
    if has_math:  # MathJax is loaded only on pages that the math domain knows hold math
        app.env.get_domain("math").data["has_equations"][docname] = True
    if not out:
        out.append(nodes.paragraph("", "No page of this build has an exercise."))
    return out


def _resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(exercise_index)):
        render = _counts if node["part"] == "counts" else _list
        node.replace_self(render(app, node["docname"]))


def _static_path(app: Sphinx, config: Config) -> None:
    config.html_static_path = [*config.html_static_path, str(STATIC)]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register ``exercise-index`` and the title badges; store each document's exercises."""
    app.setup_extension("sphinx_exercise")
    app.add_node(exercise_index)
    app.add_directive("exercise-index", ExerciseIndex)
    app.add_post_transform(ExerciseBadges)
    app.add_css_file(_CSS)
    app.connect("config-inited", _static_path)
    _STORE.connect(app, _exercises)
    app.connect("doctree-resolved", _resolve)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
