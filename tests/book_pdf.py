"""Print the built book to one PDF through headless Chromium (``python3 dev.py pdf``).

Every page of ``_toc.yml`` is served from ``_build/html`` on 127.0.0.1 (as in the browser test,
whose Chromium and server this module reuses) and printed by Chromium's own PDF printer
(``page.pdf``), after MathJax typeset the page and every plotly figure was drawn at its default
state (sliders and menus at their first step, as a reader first sees them). The theme's print
stylesheet already hides the header, the sidebars and the navigation; :data:`PRINT_CSS` keeps
figures, display equations and table rows from splitting across sheets (longer blocks, such
as outputs and tables, may split: keeping them whole left near-empty sheets), and a sheet that
Chromium leaves blank at the end of a page is dropped. The pages are then joined with pypdf:

1. a title page (the book's title and authors from ``_config.yml``);
2. a table of contents: the parts of ``_toc.yml``, each chapter and section with the page number
   where it starts in this PDF (the front matter is laid out twice if its own length changes);
3. every page of the table of contents, in reading order, each starting on a new sheet.

Page numbers ("n / N", from the contents page on) run across the whole PDF: Chromium prints a
document of N empty sheets whose footer holds its own page number, and each of those footers is
stamped onto the sheet of the book with the same number. The PDF also gets a bookmark (outline)
entry per page of the book.

The module lives beside the browser test because it drives the same Chromium through the same
helpers (``test_book_browser``); ``dev.py`` runs it with the environment's Python, and
``tests/test_book_pdf.py`` calls :func:`print_book` and checks its result.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import io
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from book_server import serve
from test_book_browser import (
    _WAIT_READY,
    CHROMIUM,
    CHROMIUM_ARGS,
    HTML,
    ROOT,
    TOC,
    TocEntry,
    toc_entries,
)

__all__ = ["PDF_PATH", "PrintedBook", "print_book", "toc_entries"]

PDF_PATH = ROOT / "_build" / "pdf" / "assocmem-book.pdf"
#: A4 with 14 mm margins (16 mm at the bottom, for the page number).
PAPER = {
    "format": "A4",
    "margin": {"top": "14mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
}
#: Chromium lays the page out at ``VIEWPORT`` width in CSS pixels and prints it scaled by SCALE:
#: 182 mm of printable width are 688 px, so 0.72 fits a 955 px wide layout (the theme's one-column
#: layout, with figures at the width they have in the browser) on the sheet.
SCALE = 0.72
VIEWPORT = {"width": 955, "height": 1200}
#: Pages printed at once (each page's MathJax and plotly work runs in its own renderer process).
CONCURRENCY = 3
PRINT_CSS = """
@media print {
  .plotly-graph-div, figure, .math-wrapper, mjx-container[display="true"], tr {
    break-inside: avoid;
  }
  h1, h2, h3, h4 { break-after: avoid; }
  a.headerlink { display: none !important; }
  .bd-footer, .bd-footer-article, .prev-next-area, #pst-back-to-top { display: none !important; }
}
"""
_PAGE_INFO = """
() => {
  const h1 = document.querySelector('article h1, main h1, h1');
  let title = '';
  if (h1) {
    const clone = h1.cloneNode(true);
    clone.querySelectorAll('.headerlink').forEach(e => e.remove());
    title = clone.textContent.replace(/\\s+/g, ' ').trim();
  }
  const figures = Array.from(document.querySelectorAll('.plotly-graph-div'));
  return {title, figures: figures.length,
          drawn: figures.filter(gd => gd._fullLayout && gd.querySelector('.main-svg')).length};
}
"""


@dataclass
class PrintedPage:
    """One page of the book as printed: its title, figure counts and its sheets in the PDF."""

    docname: str
    title: str
    level: int
    part: str | None
    figures: int
    drawn: int
    seconds: float  # opening, typesetting, drawing and printing it
    first_sheet: int = 0  # 0-based index in the final PDF
    sheets: int = 0


@dataclass
class PrintedBook:
    """What :func:`print_book` wrote: the PDF's path, page count, size, and each page's sheets."""

    path: Path
    sheets: int
    bytes: int
    seconds: float
    front_sheets: int
    pages: list[PrintedPage] = field(default_factory=list)


async def _print_page(browser: Any, url: str) -> tuple[dict[str, Any], bytes]:
    """One page, typeset and drawn, printed to PDF bytes; with its title and figure counts."""
    start = time.perf_counter()
    context = await browser.new_context(viewport=VIEWPORT, service_workers="block")
    try:
        page = await context.new_page()
        await page.goto(url, wait_until="load", timeout=60_000)
        await page.evaluate(_WAIT_READY)
        await page.add_style_tag(content=PRINT_CSS)
        info = await page.evaluate(_PAGE_INFO)
        data = await page.pdf(**PAPER, scale=SCALE, print_background=True)
    finally:
        await context.close()
    info["seconds"] = time.perf_counter() - start
    return info, data


def _front_matter_html(title: str, author: str, pages: list[PrintedPage], offset: int) -> str:
    """Title page and table of contents; page numbers are 1-based sheet numbers + ``offset``."""
    rows, part = [], None
    for p in pages:
        if p.part != part and p.part is not None:
            rows.append(f'<tr class="part"><td colspan="2">{html.escape(p.part)}</td></tr>')
        part = p.part
        rows.append(
            f'<tr class="level{p.level}"><td>{html.escape(p.title)}</td>'
            f"<td>{p.first_sheet + 1 + offset}</td></tr>"
        )
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body {{ font-family: 'DejaVu Sans', sans-serif; color: #222; }}
.title {{ height: 240mm; display: flex; flex-direction: column; justify-content: center;
          text-align: center; break-after: page; }}
.title h1 {{ font-size: 30pt; font-weight: 600; margin: 0 0 12mm; }}
.title p {{ font-size: 14pt; }}
h2 {{ font-size: 20pt; font-weight: 600; }}
table {{ width: 100%; border-collapse: collapse; font-size: 10.5pt; }}
td {{ padding: 1.2mm 0; vertical-align: bottom; }}
td:last-child {{ text-align: right; width: 14mm; }}
tr {{ break-inside: avoid; }}
tr.part td {{ font-weight: 600; font-size: 12pt; padding-top: 5mm; border-bottom: 1px solid #999;
             text-align: left; }}
tr.level0 td:first-child {{ padding-left: 0; font-weight: 600; }}
tr.level1 td:first-child {{ padding-left: 8mm; }}
tr.level2 td:first-child {{ padding-left: 16mm; }}
</style></head><body>
<section class="title"><h1>{html.escape(title)}</h1><p>{html.escape(author)}</p>
<p>Printed from the built HTML book</p></section>
<h2>Contents</h2><table>{"".join(rows)}</table></body></html>"""


_NUMBERS_FOOTER = (
    '<div style="font-size: 9px; width: 100%; text-align: center; color: #444;">'
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)


async def _render_html(browser: Any, content: str, **options: Any) -> bytes:
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.set_content(content, wait_until="load")
        return await page.pdf(**PAPER, **options)
    finally:
        await context.close()


async def _print_all(html_dir: Path, entries: list[TocEntry], concurrency: int):
    from playwright.async_api import async_playwright

    config = _book_config()
    with serve(html_dir, "pdf-server") as base:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                gate = asyncio.Semaphore(concurrency)

                async def one(entry: TocEntry) -> tuple[dict[str, Any], bytes]:
                    async with gate:
                        return await _print_page(browser, f"{base}/{entry.docname}.html")

                printed = await asyncio.gather(*(one(e) for e in entries))
                pages = [
                    PrintedPage(
                        e.docname,
                        info["title"] or e.docname,
                        e.level,
                        e.part,
                        info["figures"],
                        info["drawn"],
                        info["seconds"],
                    )
                    for e, (info, _) in zip(entries, printed, strict=True)
                ]
                bodies = [_without_blank_end(data) for _, data in printed]
                front, offset = b"", 0
                for _ in range(3):  # the contents' page numbers depend on its own length
                    first = offset
                    for page, body in zip(pages, bodies, strict=True):
                        page.first_sheet = first
                        page.sheets = _count(body)
                        first += page.sheets
                    html_text = _front_matter_html(config["title"], config["author"], pages, 0)
                    front = await _render_html(browser, html_text, print_background=True)
                    if _count(front) == offset:
                        break
                    offset = _count(front)
                total = offset + sum(p.sheets for p in pages)
                blank = '<div style="break-after: page; height: 1px;"></div>' * (total - 1)
                numbers = await _render_html(
                    browser,
                    f"<!DOCTYPE html><html><body>{blank}<div></div></body></html>",
                    display_header_footer=True,
                    header_template="<span></span>",
                    footer_template=_NUMBERS_FOOTER,
                )
            finally:
                await browser.close()
    return pages, front, bodies, numbers


def _without_blank_end(data: bytes) -> bytes:
    """The printed page without the blank sheets Chromium may leave at its end (no text, no
    image or form)."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(data))
    keep = len(reader.pages)
    while keep > 1:
        last = reader.pages[keep - 1]
        if last.extract_text().strip() or (last.get("/Resources") or {}).get("/XObject"):
            break
        keep -= 1
    if keep == len(reader.pages):
        return data
    writer = PdfWriter()
    for page in reader.pages[:keep]:
        writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _count(data: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


def _book_config() -> dict[str, str]:
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return {"title": str(config.get("title", "")), "author": str(config.get("author", ""))}


def print_book(
    html_dir: Path = HTML,
    out: Path = PDF_PATH,
    toc: Path = TOC,
    concurrency: int = CONCURRENCY,
) -> PrintedBook:
    """Print every page of ``toc`` from the built book in ``html_dir`` to one PDF at ``out``."""
    from pypdf import PdfReader, PdfWriter

    entries = toc_entries(toc)
    missing = [e.docname for e in entries if not (html_dir / f"{e.docname}.html").is_file()]
    if missing:
        raise FileNotFoundError(
            f"html_dir {html_dir} lacks built pages {missing[:5]}: build the book first "
            "(python3 dev.py book)"
        )
    start = time.perf_counter()
    pages, front, bodies, numbers = asyncio.run(_print_all(html_dir, entries, concurrency))
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(front)))
    front_sheets = len(writer.pages)
    for body in bodies:
        writer.append(PdfReader(io.BytesIO(body)))
    parents: dict[str | None, Any] = {}
    for page in pages:
        if page.part is not None and page.part not in parents:
            parents[page.part] = writer.add_outline_item(
                title=page.part, page_number=page.first_sheet
            )
        chapter = parents.get(page.part) if page.level == 0 else parents.get(("ch", page.part))
        item = writer.add_outline_item(
            title=page.title, page_number=page.first_sheet, parent=chapter
        )
        if page.level == 0:
            parents[("ch", page.part)] = item
    stamps = PdfReader(io.BytesIO(numbers)).pages
    if len(stamps) != len(writer.pages):
        raise RuntimeError(f"{len(stamps)} page-number sheets for {len(writer.pages)} pages")
    for i, sheet in enumerate(writer.pages):
        if i > 0:  # the title page carries no number
            sheet.merge_page(stamps[i])
            sheet.compress_content_streams()  # merge_page leaves the merged stream uncompressed
    writer.add_metadata({"/Title": _book_config()["title"], "/Author": _book_config()["author"]})
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as fh:
        writer.write(fh)
    return PrintedBook(
        path=out,
        sheets=len(writer.pages),
        bytes=out.stat().st_size,
        seconds=time.perf_counter() - start,
        front_sheets=front_sheets,
        pages=pages,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=HTML, help="built book (default _build/html)")
    parser.add_argument("--out", type=Path, default=PDF_PATH, help="the PDF to write")
    parser.add_argument("--toc", type=Path, default=TOC, help="table of contents (_toc.yml)")
    args = parser.parse_args(argv)
    book = print_book(args.html, args.out, args.toc)
    undrawn = [f"{p.docname} ({p.drawn}/{p.figures})" for p in book.pages if p.drawn < p.figures]
    print(
        f"wrote {book.path}: {book.sheets} pages ({book.front_sheets} front matter), "
        f"{book.bytes / 2**20:.1f} MiB, {len(book.pages)} book pages, "
        f"{sum(p.figures for p in book.pages)} figures, in {book.seconds:.0f} s",
        flush=True,
    )
    slowest = sorted(book.pages, key=lambda p: -p.seconds)[:5]
    print("slowest pages: " + ", ".join(f"{p.docname} {p.seconds:.1f} s" for p in slowest))
    if undrawn:
        print(f"figures not drawn before printing: {undrawn}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
