"""The printed book (``python3 dev.py pdf``): one PDF with every chapter and its figures.

The module prints the built book once (``book_pdf.print_book`` on ``_build/html``, as the command
does, into a temporary folder) and reads the PDF back with pypdf. What it checks, and why this way:

- **Structure.** The PDF has the title page, the contents and every page of ``_toc.yml`` in
  order, each starting on its own sheet; its outline (bookmarks) names them in that order.
- **Chapter titles.** Each chapter's title, read from the ``<h1>`` of its built index page (not
  from the printer), is in the text of the sheet where the chapter starts and in the contents.
- **Page numbers** run across the whole PDF: the footer of sheet k reads "k / N".
- **Figures are embedded**, checked on one page per chapter (the first section that has
  figures; extracting the text of all ~500 sheets would take about a minute): every titled
  figure's title, read from the figure's plotly JSON in the built HTML, is in the text of that
  page's sheets. Plotly draws its titles as SVG text when it renders the figure, and Chromium
  prints SVG text as PDF text, so the title is there only if the figure was drawn and printed;
  an undrawn figure leaves an empty ``<div>``, and a figure printed as a blank raster would carry
  no text. For every page, the printer also reports that every figure was drawn before printing.

Without Chromium, Playwright or pypdf the tests skip, except under ``CI=true``, where they fail.
The printing takes about 1.5 min on two cores (more while other tests run beside it).
"""

from __future__ import annotations

import html
import json
import os
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from book_server import in_own_thread
from test_book_browser import CHROMIUM, DOCNAMES, built_book  # noqa: F401

pytestmark = pytest.mark.browser

_NEWPLOT = re.compile(r'Plotly\.newPlot\(\s*"[^"]+",\s*')


def _requirements() -> None:
    reason = None
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} not found"
    else:
        try:
            import playwright.async_api  # noqa: F401
            import pypdf  # noqa: F401
        except ImportError as exc:
            reason = f"a package is missing: {exc}"
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and the PDF cannot be printed: {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="module")
def printed(built_book: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:  # noqa: F811
    """The book printed once into a temporary folder: (``PrintedBook``, ``PdfReader``)."""
    _requirements()
    import book_pdf
    from pypdf import PdfReader

    out = tmp_path_factory.mktemp("pdf") / "book.pdf"
    # its own thread: asyncio.run beside the browser test's sync Playwright
    book = in_own_thread(lambda: book_pdf.print_book(built_book, out), "print-book")
    return book, PdfReader(out)


def _norm(text: str) -> str:
    """Text without whitespace, ligatures unfolded (pypdf returns "ﬁ" where the font has one)."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def _h1(path: Path) -> str:
    match = re.search(r"<h1[^>]*>(.*?)</h1>", path.read_text(encoding="utf-8"), re.S)
    assert match, f"{path} has no <h1>"
    text = re.sub(r'<a class="headerlink".*?</a>', "", match.group(1), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())


def figure_titles(page_html: str) -> list[str | None]:
    """The title of each plotly figure of a built page (None if it has none), from its JSON."""
    decoder, titles = json.JSONDecoder(), []
    for match in _NEWPLOT.finditer(page_html):
        _, end = decoder.raw_decode(page_html, match.end())  # the traces
        layout_at = re.compile(r"\s*,\s*").match(page_html, end).end()
        layout, _ = decoder.raw_decode(page_html, layout_at)
        title = layout.get("title")
        text = title.get("text") if isinstance(title, dict) else title
        if text:
            text = html.unescape(re.sub(r"<[^>]+>", " ", str(text)))
        titles.append(text or None)
    return titles


def _sheets_text(reader: Any, first: int, count: int) -> str:
    return "\n".join(reader.pages[i].extract_text() for i in range(first, first + count))


def test_every_toc_page_is_printed_in_order(printed: Any) -> None:
    """Title page, contents, then every page of the toc, each on its own sheets, in order."""
    book, reader = printed
    assert [p.docname for p in book.pages] == DOCNAMES
    assert len(reader.pages) == book.sheets
    assert book.front_sheets >= 2  # the title page and at least one page of contents
    first = book.front_sheets
    for page in book.pages:
        assert page.sheets >= 1, page.docname
        assert page.first_sheet == first, page.docname
        first += page.sheets
    assert first == book.sheets
    outline = [item for item in _flatten(reader.outline) if not isinstance(item, list)]
    starts = {p.title: p.first_sheet for p in book.pages}
    for item in outline:
        if item.title in starts:
            assert reader.get_destination_page_number(item) == starts[item.title], item.title
    assert {p.title for p in book.pages} <= {item.title for item in outline}


def _flatten(items: list[Any]) -> list[Any]:
    out = []
    for item in items:
        out += _flatten(item) if isinstance(item, list) else [item]
    return out


def test_every_chapter_title_is_in_the_pdf(printed: Any, built_book: Path) -> None:  # noqa: F811
    """Each chapter's title (its index page's <h1>) starts its sheets and is in the contents."""
    book, reader = printed
    contents = _norm(_sheets_text(reader, 1, book.front_sheets - 1))
    chapters = [p for p in book.pages if p.docname.endswith("/index")]
    assert len(chapters) >= 5
    for page in chapters:
        title = _h1(built_book / f"{page.docname}.html")
        assert _norm(title) in _norm(reader.pages[page.first_sheet].extract_text()), title
        assert _norm(title) in contents, f"{title} not in the contents"


def test_page_numbers_run_across_the_pdf(printed: Any) -> None:
    """The footer of sheet k reads "k / N" (sampled: the contents, a middle and the last sheet)."""
    book, reader = printed
    for k in (2, book.sheets // 2, book.sheets):
        text = reader.pages[k - 1].extract_text()
        assert re.search(rf"(?<!\d){k}\s*/\s*{book.sheets}(?!\d)", text), f"sheet {k}: no '{k} /'"


def test_figures_are_drawn_and_embedded(printed: Any, built_book: Path) -> None:  # noqa: F811
    """Every figure was drawn before printing; per chapter, one page's figure titles are printed."""
    book, reader = printed
    assert [p.docname for p in book.pages if p.drawn < p.figures] == []
    assert sum(p.figures for p in book.pages) > 100
    checked, missing = 0, []
    chapters = {p.docname.rsplit("/", 1)[0] for p in book.pages if p.docname.endswith("/index")}
    for chapter in sorted(chapters):
        page = next(
            (
                p
                for p in book.pages
                if p.docname.startswith(f"{chapter}/")
                and p.figures
                and any(figure_titles((built_book / f"{p.docname}.html").read_text("utf-8")))
            ),
            None,
        )
        if page is None:
            continue
        titles = figure_titles((built_book / f"{page.docname}.html").read_text("utf-8"))
        assert len(titles) == page.figures, page.docname
        text = _norm(_sheets_text(reader, page.first_sheet, page.sheets))
        for title in filter(None, titles):
            checked += 1
            if "$" not in title and _norm(title) not in text:
                missing.append(f"{page.docname}: {title!r}")
    assert checked >= 5
    assert not missing, "figure titles not in the PDF's text:\n  " + "\n  ".join(missing)
