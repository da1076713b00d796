"""The generated appendices against the chapter pages of the same build.

``book/appendix/errata.md`` and ``book/appendix/exercises.md`` are filled at build time by
``book/_ext/errata.py`` and ``book/_ext/exercise_index.py``. Against the built HTML (the full
edition in ``_build/html`` and, when it was built, the student edition in
``_build/student/html``), read page by page without a browser:

- the errata list every claims row of kind paper error and every reproduction that disagrees, of
  every chapter page (each read with ``ClaimRows``, the parser of the chapter summaries), and
  nothing else; each links to its page, at an anchor that exists there;
- the scoreboard's counts per chapter and in all equal those of the section tables;
- the exercise index lists every exercise of every page (sphinx-exercise's ``div.exercise``), and
  its counts tables (by kind, by level) add up to the exercises found on the pages;
- every exercise carries one kind and one level, and its title shows them as a badge.

The pages come from ``_toc.yml`` (``ASSOCMEM_TOC`` names another table of contents, as for the
browser test); without the appendix pages in it the tests skip. A missing build skips them too,
except under ``CI=true``, where it fails. Nothing here builds the book: ``python3 dev.py test``
builds it first, and ``python3 dev.py book`` builds it by hand.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest
from test_book_browser import DOCNAMES, ROOT, ClaimRows

sys.path.insert(0, str(ROOT / "book" / "_ext"))
from exercise_index import KINDS, LEVELS, exercise_tags

ERRATA = "book/appendix/errata"
EXERCISES = "book/appendix/exercises"
EDITIONS = {"full": ROOT / "_build" / "html", "student": ROOT / "_build" / "student" / "html"}
#: The verdict columns of the scoreboard and what each counts.
SCOREBOARD = {
    "agree": ("reproduction", "agree"),
    "disagree": ("reproduction", "disagree"),
    "paper wrong": ("paper error", "paper wrong"),
    "consistency holds": ("consistency", "holds"),
}
#: Chapter pages: documents of ``book/<chapter>/`` (the appendix is not a chapter).
CHAPTER_PAGES = [
    name for name in DOCNAMES if name.count("/") == 2 and not name.startswith("book/appendix/")
]


def _chapter(name: str) -> str:
    return name.rsplit("/", 1)[0]


@pytest.fixture(scope="module", params=sorted(EDITIONS))
def book(request: pytest.FixtureRequest) -> Path:
    """A built edition whose pages include both appendices; skip (or fail under CI) without it."""
    if ERRATA not in DOCNAMES or EXERCISES not in DOCNAMES:
        pytest.skip(f"the table of contents lists neither {ERRATA} nor {EXERCISES}")
    html = EDITIONS[request.param]
    missing = [name for name in DOCNAMES if not (html / f"{name}.html").is_file()]
    if missing:
        reason = f"{request.param} edition not built in {html} ({len(missing)} pages missing, "
        reason += f"e.g. {missing[0]}): python3 dev.py book" + (
            " --student" if request.param == "student" else ""
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {reason}")
        pytest.skip(reason)
    return html


class Tables(HTMLParser):
    """The tables of a page whose class holds ``wanted``: per row, its cells' text and links.

    ``tables`` holds one list of rows per table; a row is a list of cells, and a cell a dict with
    ``text`` (whitespace collapsed) and ``hrefs`` (the links inside it).
    """

    def __init__(self, wanted: str) -> None:
        super().__init__(convert_charrefs=True)
        self.wanted = wanted
        self.tables: list[list[list[dict[str, Any]]]] = []
        self._depth = 0
        self._cell: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table" and self.wanted in (a.get("class") or "").split():
            self._depth = 1
            self.tables.append([])
        elif self._depth and tag == "table":
            self._depth += 1
        elif self._depth == 1 and tag == "tr":
            self.tables[-1].append([])
        elif self._depth == 1 and tag in ("td", "th"):
            self._cell = {"text": [], "hrefs": []}
        elif self._cell is not None and tag == "a" and a.get("href"):
            self._cell["hrefs"].append(a["href"])

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell["text"].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._depth == 1 and tag in ("td", "th") and self._cell is not None:
            self._cell["text"] = " ".join("".join(self._cell["text"]).split())
            self.tables[-1][-1].append(self._cell)
            self._cell = None
        elif self._depth and tag == "table":
            self._depth -= 1


class Exercises(HTMLParser):
    """sphinx-exercise's exercise admonitions of a page: id, classes and the title's badges."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.exercises: list[dict[str, Any]] = []
        self._in_title = False
        self._badge: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "div" and {"exercise", "exercise-start"} & set(classes):
            self.exercises.append({"id": dict(attrs).get("id"), "classes": classes, "badges": []})
        elif tag == "p" and "admonition-title" in classes and self.exercises:
            self._in_title = "title" not in self.exercises[-1]  # its own title, the first one
        elif self._in_title and tag == "span" and "ex-badge" in classes:
            self._badge = []

    def handle_data(self, data: str) -> None:
        if self._badge is not None:
            self._badge.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._badge is not None:
            self.exercises[-1]["badges"].append("".join(self._badge).strip())
            self._badge = None
        elif tag == "p" and self._in_title:
            self.exercises[-1]["title"] = True
            self._in_title = False


def _page(book: Path, name: str) -> str:
    return (book / f"{name}.html").read_text(encoding="utf-8")


def _target(book: Path, page: str, href: str) -> tuple[str, str]:
    """(docname, fragment) of a link on ``page`` (a docname)."""
    parts = urlsplit(href)
    path = (book / page).parent / parts.path
    doc = path.resolve().relative_to(book.resolve()).with_suffix("").as_posix()
    return doc, parts.fragment


def _section_rows(book: Path) -> dict[str, list[dict[str, Any]]]:
    rows = {}
    for name in CHAPTER_PAGES:
        parser = ClaimRows()
        parser.feed(_page(book, name))
        rows[name] = parser.rows
    return rows


def test_errata_list_every_paper_error_and_disagreement(book: Path) -> None:
    """Each chapter page's paper-error and disagree rows, and no other, appear in the errata."""
    expected: Counter[tuple[str, ...]] = Counter()
    for name, rows in _section_rows(book).items():
        for row in rows:
            if row["data-kind"] == "paper error" or row["cells"][4] == "disagree":
                expected[(name, *row["cells"])] += 1
    assert len(expected) > 10  # the parser sees the chapters' tables

    parser = Tables("claims-errata")
    parser.feed(_page(book, ERRATA))
    listed: Counter[tuple[str, ...]] = Counter()
    bad = []
    for table in parser.tables:
        assert [c["text"] for c in table[0]] == [
            "Claim",
            "Paper",
            "Ours",
            "Tolerance",
            "Verdict",
            "Why",
        ]
        for cells in table[1:]:
            assert len(cells[0]["hrefs"]) == 1, f"errata row without one evidence link: {cells}"
            doc, anchor = _target(book, ERRATA + ".html", cells[0]["hrefs"][0])
            if anchor and f'id="{anchor}"' not in _page(book, doc):
                bad.append(f"{doc}#{anchor}: no such anchor")
            claim = cells[0]["text"].rsplit(" Evidence: ", 1)[0]
            listed[(doc, claim, *(c["text"] for c in cells[1:]))] += 1
    normalised = Counter(
        {(k[0], *(" ".join(c.split()) for c in k[1:])): v for k, v in expected.items()}
    )
    assert not bad, "\n".join(bad)
    assert listed == normalised, (
        f"missing from the errata: {sorted((normalised - listed).elements())[:5]}\n"
        f"listed but not on a chapter page: {sorted((listed - normalised).elements())[:5]}"
    )


def test_scoreboard_counts_equal_the_section_tables(book: Path) -> None:
    """Per chapter and in all, the scoreboard counts the verdicts the section tables print."""
    per_chapter: dict[str, Counter[str]] = {}
    for name, rows in _section_rows(book).items():
        if rows:
            counts = per_chapter.setdefault(_chapter(name), Counter())
            for row in rows:
                for column, (kind, verdict) in SCOREBOARD.items():
                    counts[column] += row["data-kind"] == kind and row["cells"][4] == verdict
                counts["total"] += 1
    parser = Tables("claims-scoreboard")
    parser.feed(_page(book, ERRATA))
    assert len(parser.tables) == 1
    header, *body, last = parser.tables[0]
    columns = [c["text"] for c in header]
    assert columns == ["Chapter", *SCOREBOARD, "total"]
    shown = {}
    for cells in body:
        doc, _ = _target(book, ERRATA + ".html", cells[0]["hrefs"][0])
        shown[_chapter(doc)] = Counter(
            {c: int(cell["text"]) for c, cell in zip(columns[1:], cells[1:], strict=True)}
        )
    assert shown == per_chapter, f"scoreboard {shown}, section tables {per_chapter}"
    assert last[0]["text"] == "all chapters"
    totals = sum(per_chapter.values(), Counter())
    assert [int(c["text"]) for c in last[1:]] == [totals[c] for c in columns[1:]]


def _page_exercises(book: Path) -> dict[str, list[dict[str, Any]]]:
    found = {}
    for name in DOCNAMES:
        if name.startswith("book/appendix/"):
            continue
        parser = Exercises()
        parser.feed(_page(book, name))
        if parser.exercises:
            found[name] = parser.exercises
    return found


def test_exercise_index_lists_every_exercise(book: Path) -> None:
    """Every exercise of every page is linked once from the index, with the tags it carries."""
    pages = _page_exercises(book)
    expected = Counter()
    for name, exercises in pages.items():
        for ex in exercises:
            tags = exercise_tags(ex["classes"])
            kind, level = tags if tags is not None else ("untagged", "untagged")
            expected[(name, ex["id"], kind, level)] += 1
    assert sum(expected.values()) > 40  # the parser sees the exercises

    parser = Tables("exercise-list")
    parser.feed(_page(book, EXERCISES))
    listed = Counter()
    for table in parser.tables:
        assert [c["text"] for c in table[0]] == ["Exercise", "Section", "Kind", "Level"]
        for cells in table[1:]:
            doc, anchor = _target(book, EXERCISES + ".html", cells[0]["hrefs"][0])
            assert _target(book, EXERCISES + ".html", cells[1]["hrefs"][0]) == (doc, "")
            listed[(doc, anchor, cells[2]["text"], cells[3]["text"])] += 1
    assert listed == expected, (
        f"missing from the index: {sorted((expected - listed).elements())[:5]}\n"
        f"in the index but not on a page: {sorted((listed - expected).elements())[:5]}"
    )

    # the two counts tables: per chapter by kind and by level; each row adds up, and the last row
    # holds the column sums, which equal the exercises found on the pages
    wanted = {
        "exercise-counts": ([*KINDS], 2),
        "exercise-levels": ([f"level {n}" for n in LEVELS], 3),
    }
    for css, (tags, position) in wanted.items():
        counts = Tables(css)
        counts.feed(_page(book, EXERCISES))
        assert len(counts.tables) == 1, css
        header, *body, last = counts.tables[0]
        columns = [c["text"] for c in header][1:]
        assert columns == [*tags, "untagged", "total"]
        numbers = [[int(c["text"]) for c in cells[1:]] for cells in body]
        assert all(sum(row[:-1]) == row[-1] for row in numbers), f"{css}: {numbers}"
        sums = [sum(col) for col in zip(*numbers, strict=True)]
        assert sums == [int(c["text"]) for c in last[1:]], css
        total = dict(zip(columns, sums, strict=True))
        assert total["total"] == sum(expected.values())
        assert total["untagged"] == sum(v for k, v in expected.items() if k[2] == "untagged")
        for column, tag in zip(tags, [*KINDS] if position == 2 else [*LEVELS], strict=True):
            assert total[column] == sum(v for k, v in expected.items() if k[position] == tag)


def test_every_exercise_has_one_kind_and_one_level(book: Path) -> None:
    """Every exercise is tagged (c15's ex-<kind> ex-level-<n>) and its title shows the badge."""
    untagged, bad_badge = [], []
    for name, exercises in _page_exercises(book).items():
        for ex in exercises:
            tags = exercise_tags(ex["classes"])
            if tags is None:
                tagged = [c for c in ex["classes"] if c.startswith("ex-")]
                untagged.append(f"{name}#{ex['id']}: {tagged}")
            elif ex["badges"] != [f"{tags[0]} · level {tags[1]}"]:
                bad_badge.append(f"{name}#{ex['id']}: badges {ex['badges']} for {tags}")
    assert not bad_badge, "\n".join(bad_badge)
    assert not untagged, f"{len(untagged)} exercises without one kind and one level:\n" + "\n".join(
        untagged
    )


# ---------------------------------------------------------------------------------------------
# The extensions' own logic (no build needed)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("classes", "tags"),
    [
        (["exercise", "ex-predict", "ex-level-1"], ("predict", "1")),
        (["exercise", "ex-level-3", "ex-explore", "dropdown"], ("explore", "3")),
        (["exercise", "ex-predict"], None),  # no level
        (["exercise", "ex-level-2"], None),  # no kind
        (["exercise", "ex-predict", "ex-derive", "ex-level-1"], None),  # two kinds
        (["exercise", "ex-compute", "ex-level-4"], None),  # no such level
        (["exercise", "ex-compute", "ex-level-1", "ex-hard"], None),  # an unknown ex- tag
    ],
)
def test_exercise_tags_need_one_kind_and_one_level(classes: list[str], tags: Any) -> None:
    assert exercise_tags(classes) == tags


@pytest.mark.parametrize("module", ["errata", "exercise_index"])
def test_parallel_readers_merge_their_documents(module: str) -> None:
    """env-merge-info copies a reader's documents into the main environment, and only those."""
    store = __import__(module)._STORE  # a _gather.PerDocument
    main, other = SimpleNamespace(), SimpleNamespace()
    setattr(main, store.attr, {"a": [1]})
    setattr(other, store.attr, {"b": [2], "c": [3]})
    store.merge(None, main, {"b"}, other)
    assert getattr(main, store.attr) == {"a": [1], "b": [2]}
    store.purge(None, main, "a")
    assert getattr(main, store.attr) == {"b": [2]}


@pytest.mark.parametrize(
    ("module", "directive"),
    [("errata", "{claims-appendix}"), ("exercise_index", "{exercise-index}")],
)
def test_incremental_build_rereads_the_appendix(
    module: str, directive: str, tmp_path: Path
) -> None:
    """When a page changed, the pages using the directive are read again (and only then)."""
    store = __import__(module)._STORE
    sources = {"appendix": f"```{directive} list\n```\n", "a": "# A\n", "b": "# B\n"}
    for name, text in sources.items():
        (tmp_path / f"{name}.md").write_text(text)
    env = SimpleNamespace(found_docs=set(sources), doc2path=lambda d: tmp_path / f"{d}.md")
    assert store.outdated(None, env, set(), {"a"}, set()) == ["appendix"]
    assert store.outdated(None, env, set(), set(), set()) == []
    assert store.outdated(None, env, set(), {"appendix"}, set()) == []  # re-read already
