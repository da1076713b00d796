"""The built book in a real browser: offline, error-free, typeset, and its explorations respond.

Every page of ``_toc.yml`` is served from ``_build/html`` by a local HTTP server on 127.0.0.1 and
opened in headless Debian Chromium through Playwright (which cannot download a browser of its own
here, so ``/usr/bin/chromium`` is used). Every request to another host is aborted and recorded.
Per page the test asserts:

- no request left the machine (the book works with no network);
- no console error and no uncaught page error;
- every plotly figure is drawn (an SVG root and at least one trace);
- moving each visible slider with a real mouse click on a later step changes the plotted data,
  and picking another option of each menu changes the figure;
- the math is typeset by MathJax (every ``.math`` element holds an ``mjx-container``) and no raw
  ``$$`` or ``\\(`` is left in the visible text;
- the page and everything it loads weigh less than 10 MB;
- what a reader sees fits (``reader_view.audit``, before any control is touched): no display
  equation or visible code cell scrolls sideways; in every figure no two texts intersect, none
  leaves the figure or lies over a plotting area, no menu covers a slider, the hover toolbar
  covers no title, legend or annotation, and log axes label decades only; figures are audited
  again after their sliders and menus moved. Each failure names the page, the figure (index and
  title) and the texts involved.

Without a browser, on the built HTML: every claims-table row carries its kind, rule and band, and
``explore._claims.check_row`` (the rule a claim is built under) holds for it again; every table
prints a Tolerance column; and each chapter index's claims summary totals its sections' rows.

After all pages, every file of the build must be loaded by some page (or by the search page),
linked from one (the notebook downloads), named in a loaded stylesheet or script, or be one of
the few files loaded on demand (:data:`ON_DEMAND`).

A full-page screenshot of each page goes to ``_build/screenshots/``, and one per figure
(``<page>__fig<NN>.png``, the figure alone: the full-page capture shifts and clips plotly figures).
``python3 dev.py test`` builds the book before running pytest; when the build is missing or older
than its sources, the session fixture builds it (``ASSOCMEM_BOOK_PREBUILT=1`` skips that check).
Without Chromium the tests skip, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import reader_view
from book_server import _QuietHandler, serve  # noqa: F401  (reader_view imports it here)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
from claims_summary import ClaimRows  # the parser the chapter summaries use

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
# ``python3 dev.py test --toc FILE`` builds another table of contents and passes it on here.
TOC = Path(os.environ.get("ASSOCMEM_TOC") or ROOT / "_toc.yml").resolve()
HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
MAX_PAGE_BYTES = 10 * 1024 * 1024
SOURCE_SUFFIXES = {".md", ".ipynb", ".yml", ".yaml", ".bib", ".py", ".css", ".js"}
CHANGE_TIMEOUT_MS = 5_000
SLIDERS_IN_LAYOUT = re.compile(r'"sliders"\s*:\s*\[\s*\{')
#: Files a page fetches only on demand, with the reason: MathJax fetches a font or a TeX extension
#: when a formula needs it, and its accessibility tools when a reader switches them on in its menu;
#: Sphinx's build record and inventory are for tools, not readers.
ON_DEMAND = {
    "_static/mathjax/output/chtml/fonts/": "a MathJax font, fetched when a formula uses it",
    "_static/mathjax/input/tex/extensions/": "a TeX extension, fetched when a formula needs it",
    "_static/mathjax/a11y/": "MathJax accessibility, fetched when switched on in its menu",
    "_static/mathjax/sre/": "MathJax speech rules, fetched when switched on in its menu",
    ".buildinfo": "Sphinx's incremental-build record",
    "objects.inv": "Sphinx's cross-reference inventory (for other projects' docs)",
}
#: Paths (relative to ``_build/html``) fetched by the pages this session opened.
LOADED: set[str] = set()
#: Docnames opened by :func:`test_page_works_offline_and_responds` in this session.
VISITED: set[str] = set()


@dataclass(frozen=True)
class TocEntry:
    """One page of the table of contents: its docname, depth (0 chapter, 1 section), part."""

    docname: str
    level: int
    part: str | None


def toc_entries(toc: Path = TOC) -> list[TocEntry]:
    """Every document of the table of contents in reading order, with its depth and part."""
    import yaml

    data = yaml.safe_load(toc.read_text())

    def stem(name: str) -> str:
        return str(Path(name).with_suffix("")) if Path(name).suffix else name

    entries = [TocEntry(stem(data["root"]), 0, None)]

    def walk(items: list[dict[str, Any]], level: int, part: str | None) -> None:
        for item in items:
            if "file" in item:
                entries.append(TocEntry(stem(item["file"]), level, part))
            deeper = level + 1 if "file" in item else level
            for key in ("sections", "chapters"):
                walk(item.get(key, []), deeper, part)
            for sub in item.get("parts", []):
                walk(sub.get("chapters", []), deeper, sub.get("caption"))

    walk(data.get("chapters", []), 0, None)
    for part in data.get("parts", []):
        walk(part.get("chapters", []), 0, part.get("caption"))
    return entries


def toc_docnames(toc: Path = TOC) -> list[str]:
    """Every document of the table of contents, in reading order."""
    return [entry.docname for entry in toc_entries(toc)]


DOCNAMES = toc_docnames()


# ---------------------------------------------------------------------------------------------
# Session fixtures: a fresh build, a local server, one browser
# ---------------------------------------------------------------------------------------------


def _newest_source_mtime() -> float:
    """Latest modification time of anything the book is built from."""
    paths = [ROOT / "_config.yml", TOC]
    for folder in (ROOT / "book", ROOT / "src"):
        paths += [
            p
            for p in folder.rglob("*")
            if p.is_file()
            and p.suffix in SOURCE_SUFFIXES
            and "_build" not in p.parts
            and ".ipynb_checkpoints" not in p.parts
        ]
    return max(p.stat().st_mtime for p in paths if p.exists())


def _build_is_fresh() -> bool:
    stamp = HTML / ".buildinfo"
    if not stamp.exists():
        return False
    if any(not (HTML / f"{name}.html").exists() for name in DOCNAMES):
        return False
    return stamp.stat().st_mtime >= _newest_source_mtime()


@pytest.fixture(scope="session")
def built_book() -> Path:
    """``_build/html``, built now only if it is missing or older than its sources.

    ``ASSOCMEM_BOOK_PREBUILT=1`` (set by ``python3 dev.py test``, which has just built the book)
    takes the build as it is.
    """
    if os.environ.get("ASSOCMEM_BOOK_PREBUILT") == "1":
        missing = [name for name in DOCNAMES if not (HTML / f"{name}.html").exists()]
        if missing:
            pytest.fail(f"ASSOCMEM_BOOK_PREBUILT=1 but pages are missing from {HTML}: {missing}")
    elif not _build_is_fresh():
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        proc = subprocess.run(
            [sys.executable, str(ROOT / "dev.py"), "_sphinx", "--toc", str(TOC)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
            pytest.fail(f"building the book failed (exit {proc.returncode}):\n{tail}")
    return HTML


@pytest.fixture(scope="session")
def server(built_book: Path) -> Iterator[str]:
    """Base URL of a local HTTP server (random port, own thread) serving the built book."""
    with serve(built_book, "book-server") as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright (fresh temporary profile per launch)."""
    reason = None
    if not CHROMIUM.exists():
        reason = (
            f"{CHROMIUM} not found: install Debian chromium "
            "(apt-get install -y --no-install-recommends chromium; `python3 dev.py test` does "
            "this itself when run as root)"
        )
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError as exc:
            reason = f"the playwright package is missing: {exc}"
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and the browser test cannot run: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


# ---------------------------------------------------------------------------------------------
# One page
# ---------------------------------------------------------------------------------------------


@dataclass
class PageLog:
    """What one page did while it was open."""

    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    local: dict[str, int] = field(default_factory=dict)  # url -> bytes


def _file_size(url: str) -> int:
    path = HTML / urlsplit(url).path.lstrip("/")
    if path.is_dir():
        path = path / "index.html"
    return path.stat().st_size if path.is_file() else 0


def _open(browser: Any, url: str) -> tuple[Any, Any, PageLog]:
    """Open ``url`` in a fresh context that aborts and records every non-local request."""
    log = PageLog()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")

    def route(route: Any) -> None:
        request_url = route.request.url
        parts = urlsplit(request_url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            log.blocked.append(request_url)
            route.abort("blockedbyclient")
        else:
            route.continue_()

    def finished(request: Any) -> None:
        response = request.response()
        if response is None or urlsplit(request.url).hostname not in LOCAL_HOSTS:
            return
        if response.status >= 400:
            log.errors.append(f"HTTP {response.status} for {request.url}")
        length = response.headers.get("content-length")
        log.local[request.url] = int(length) if length else _file_size(request.url)

    context.route("**/*", route)
    page = context.new_page()
    page.on("requestfinished", finished)
    page.on("requestfailed", lambda r: log.errors.append(f"request failed: {r.url} {r.failure}"))
    page.on(
        "console",
        lambda m: (
            log.errors.append(f"console.{m.type}: {m.text} @ {m.location.get('url')}")
            if m.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda exc: log.errors.append(f"page error: {exc}"))
    page.goto(url, wait_until="load", timeout=60_000)
    return context, page, log


_WAIT_READY = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  const gds = Array.from(document.querySelectorAll('.plotly-graph-div'));
  const t0 = performance.now();
  while (gds.some(gd => !gd._fullLayout || !gd.querySelector('.main-svg'))
         && performance.now() - t0 < 20000) {
    await new Promise(r => setTimeout(r, 100));
  }
}
"""

_FINGERPRINT = """
(gd) => {
  const seen = (t) => t.visible === undefined || t.visible === true;
  const norm = (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);
  const text = JSON.stringify((gd.data || []).filter(seen), norm)
             + JSON.stringify(gd.layout.title || null)
             + JSON.stringify(gd.layout.shapes || null)
             + JSON.stringify(gd.layout.annotations || null);
  let h = 5381;
  for (let i = 0; i < text.length; i++) { h = ((h * 33) ^ text.charCodeAt(i)) >>> 0; }
  return h + ':' + text.length;
}
"""

_DATA_FINGERPRINT = """
(gd) => {
  const seen = (t) => t.visible === undefined || t.visible === true;
  const norm = (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);
  const text = JSON.stringify((gd.data || []).filter(seen), norm);
  let h = 5381;
  for (let i = 0; i < text.length; i++) { h = ((h * 33) ^ text.charCodeAt(i)) >>> 0; }
  return h + ':' + text.length;
}
"""

_FIGURE_STATE = """
(gd) => ({
  drawn: !!gd.querySelector('.main-svg'),
  traces: (gd._fullData || []).filter(t => t.visible === true).length,
  marks: gd.querySelectorAll(
    'g.trace, .heatmaplayer image, .imagelayer image, .gl-container canvas, g.contourlevel, ' +
    'g.table .cell-text'
  ).length,
  sliders: (gd.layout.sliders || []).map(s => ({
    visible: s.visible !== false, active: s.active || 0, n: (s.steps || []).length })),
  menus: (gd.layout.updatemenus || []).map(m => ({
    visible: m.visible !== false, active: m.active === undefined ? 0 : m.active,
    n: (m.buttons || []).length, type: m.type || 'dropdown' })),
})
"""

_MATH_STATE = """
() => {
  const math = Array.from(document.querySelectorAll('.math'));
  const untypeset = math.filter(e => !e.querySelector('mjx-container'))
                        .map(e => e.textContent.trim().slice(0, 80));
  const clone = document.body.cloneNode(true);
  clone.querySelectorAll('pre, code, script, style, textarea, .highlight, mjx-container')
       .forEach(e => e.remove());
  const text = clone.textContent;
  const raw = [];
  for (const token of ['$$', '\\\\(', '\\\\[']) {
    const at = text.indexOf(token);
    if (at >= 0) raw.push(text.slice(Math.max(0, at - 30), at + 50).replace(/\\s+/g, ' '));
  }
  return {math: math.length, mjx: document.querySelectorAll('mjx-container').length,
          untypeset, raw};
}
"""


def _wait_change(page: Any, gd: Any, before: str, script: str) -> bool:
    """Wait until the figure's fingerprint differs from ``before``; return whether it did."""
    try:
        page.wait_for_function(
            f"([gd, before]) => ({script})(gd) !== before",
            arg=[gd, before],
            timeout=CHANGE_TIMEOUT_MS,
        )
    except Exception:  # playwright's TimeoutError; the caller reports what did not change
        return False
    return True


def _exercise_sliders(page: Any, gd: Any, state: dict, label: str, problems: list[str]) -> int:
    """Click a later step of every visible slider; the visible data must change."""
    visible = [s for s in state["sliders"] if s["visible"]]
    groups = gd.query_selector_all("g.slider-group")
    if len(groups) != len(visible):
        problems.append(f"{label}: {len(visible)} visible sliders but {len(groups)} drawn")
        return 0
    moved = 0
    for k, (spec, group) in enumerate(zip(visible, groups, strict=True)):
        if spec["n"] < 2:
            continue
        target = spec["n"] - 1 if spec["active"] != spec["n"] - 1 else 0
        ticks = group.query_selector_all("rect.slider-tick-rect")
        rail = group.query_selector("rect.slider-rail-touch-rect")
        if rail is None or len(ticks) != spec["n"]:
            problems.append(f"{label} slider {k}: rail or ticks not drawn ({len(ticks)} ticks)")
            continue
        rail.scroll_into_view_if_needed()
        tick_box, rail_box = ticks[target].bounding_box(), rail.bounding_box()
        before = gd.evaluate(_DATA_FINGERPRINT)
        x = tick_box["x"] + tick_box["width"] / 2
        y = rail_box["y"] + rail_box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.up()
        if _wait_change(page, gd, before, _DATA_FINGERPRINT):
            moved += 1
        else:
            problems.append(
                f"{label} slider {k}: clicking step {target} of {spec['n']} did not change the data"
            )
    return moved


def _exercise_menus(page: Any, gd: Any, state: dict, label: str, problems: list[str]) -> None:
    """Pick another option of every visible menu; the figure must change."""
    visible = [m for m in state["menus"] if m["visible"]]
    groups = gd.query_selector_all("g.updatemenu-header-group")
    if len(groups) != len(visible):
        problems.append(f"{label}: {len(visible)} visible menus but {len(groups)} drawn")
        return
    for k, (spec, group) in enumerate(zip(visible, groups, strict=True)):
        if spec["n"] < 2:
            continue
        target = (spec["active"] + 1) % spec["n"] if spec["active"] >= 0 else 0
        before = gd.evaluate(_FINGERPRINT)
        if spec["type"] == "dropdown":
            header = group.query_selector("g.updatemenu-header")
            if header is None:
                problems.append(f"{label} menu {k}: dropdown header not drawn")
                continue
            header.scroll_into_view_if_needed()
            header.click()
            page.wait_for_timeout(200)
            buttons = gd.query_selector_all(
                "g.updatemenu-dropdown-button-group g.updatemenu-dropdown-button"
            )
        else:
            buttons = group.query_selector_all("g.updatemenu-button")
        if len(buttons) != spec["n"]:
            problems.append(f"{label} menu {k}: {len(buttons)} buttons drawn, {spec['n']} expected")
            continue
        buttons[target].click()
        if not _wait_change(page, gd, before, _FINGERPRINT):
            problems.append(f"{label} menu {k}: picking option {target} did not change the figure")


def _figure_screenshots(page: Any, docname: str) -> None:
    """One screenshot per figure, the figure alone, before any control is touched."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    stem = docname.replace("/", "__")
    for old in SCREENSHOTS.glob(f"{stem}__fig*.png"):
        old.unlink()
    for i, gd in enumerate(page.query_selector_all(".plotly-graph-div")):
        gd.scroll_into_view_if_needed()
        gd.screenshot(path=str(SCREENSHOTS / f"{stem}__fig{i:02d}.png"))


def _check_figures(page: Any, problems: list[str]) -> int:
    """Every figure drawn; sliders and menus respond. Returns the number of sliders moved."""
    moved = 0
    for i, gd in enumerate(page.query_selector_all(".plotly-graph-div")):
        label = f"figure {i}"
        state = gd.evaluate(_FIGURE_STATE)
        if not state["drawn"] or state["traces"] == 0 or state["marks"] == 0:
            problems.append(f"{label} is not drawn: {state}")
            continue
        moved += _exercise_sliders(page, gd, state, label, problems)
        _exercise_menus(page, gd, state, label, problems)
    return moved


@pytest.mark.parametrize("docname", DOCNAMES)
def test_page_works_offline_and_responds(browser: Any, server: str, docname: str) -> None:
    """One page of the book: offline, no errors, figures drawn and interactive, math typeset."""
    context, page, log = _open(browser, f"{server}/{docname}.html")
    problems: list[str] = []
    try:
        page.evaluate(_WAIT_READY)
        has_figures = page.locator(".plotly-graph-div").count() > 0
        problems += reader_view.problems(reader_view.audit(page))
        _figure_screenshots(page, docname)
        if _check_figures(page, problems) or page.locator(".updatemenu-header-group").count():
            # the steps and options the controls moved to must read cleanly too
            again = reader_view.audit(page)
            again["equations"], again["code"], again["contents"] = [], [], []
            again["tables"] = []
            problems += [f"{p} (after moving its controls)" for p in reader_view.problems(again)]
        math = page.evaluate(_MATH_STATE)
        if math["untypeset"]:
            problems.append(f"math not typeset by MathJax: {math['untypeset'][:5]}")
        if math["raw"]:
            problems.append(f"raw TeX left in the visible text: {math['raw']}")
        page.wait_for_timeout(300)  # let late font and script requests finish
        page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{docname.replace('/', '__')}.png"), full_page=True)
    finally:
        context.close()
    LOADED.update(urlsplit(u).path.lstrip("/") for u in log.local)
    VISITED.add(docname)
    plotly_loads = [u for u in log.local if urlsplit(u).path.endswith("/plotly.min.js")]
    if has_figures and len(plotly_loads) != 1:
        problems.append(f"plotly.min.js loaded {len(plotly_loads)} times (expected once)")
    total = sum(log.local.values())
    if total >= MAX_PAGE_BYTES:
        biggest = sorted(log.local.items(), key=lambda kv: -kv[1])[:5]
        problems.append(f"page transfer {total / 2**20:.1f} MiB >= 10 MB; largest: {biggest}")
    if log.blocked:
        problems.append(f"requests to other hosts (aborted): {sorted(set(log.blocked))}")
    if log.errors:
        problems.append(f"errors: {log.errors}")
    assert not problems, f"{docname}:\n  " + "\n  ".join(problems)


def test_book_has_slider_explorations(built_book: Path) -> None:
    """The explorations exist: some page of the book carries a plotly figure with a slider."""
    pages = [built_book / f"{name}.html" for name in DOCNAMES]
    with_sliders = [
        p.relative_to(built_book).as_posix()
        for p in pages
        if p.exists() and SLIDERS_IN_LAYOUT.search(p.read_text(encoding="utf-8", errors="replace"))
    ]
    assert with_sliders, "no page of the built book has a plotly figure with a slider"


#: The verdict a row of each kind may print (a failing consistency check raises instead).
VERDICTS = {
    "reproduction": {"agree", "disagree"},
    "paper error": {"paper wrong"},
    "consistency": {"holds"},
}


def test_every_claims_row_states_a_tolerance_that_fits_its_kind(built_book: Path) -> None:
    """Every claims table prints a Tolerance column; every row's tolerance fits its kind.

    The rows carry their kind, rule and band (the tolerance as a fraction of the reference) as
    data attributes; ``check_row`` is the rule the library applies when a claim is built, applied
    here again to what the reader sees.
    """
    from assocmem.explore import _claims

    bad, n_rows = [], 0
    for name in DOCNAMES:
        page = ClaimRows()
        page.feed((built_book / f"{name}.html").read_text(encoding="utf-8", errors="replace"))
        bad += [f"{name}: header {h}" for h in page.headers if h[3:4] != ["Tolerance"]]
        for row in page.rows:
            n_rows += 1
            claim, _paper, _ours, tolerance, verdict, why = row["cells"]
            try:
                _claims.check_row(
                    row["data-kind"], row["data-rule"], float(row["data-band"]), f"{claim} {why}"
                )
            except ValueError as err:
                bad.append(f"{name}: {claim!r}: {err}")
            if not tolerance:
                bad.append(f"{name}: {claim!r}: empty tolerance cell")
            if verdict not in VERDICTS[row["data-kind"]]:
                bad.append(f"{name}: {claim!r}: verdict {verdict!r} for a {row['data-kind']}")
    assert not bad, "claims rows:\n  " + "\n  ".join(bad)
    assert n_rows > 150  # the parser sees the tables


def _summary_totals(page: str) -> list[str]:
    """The cells of the "all sections" row of a page's claims summary (empty if none)."""
    table = re.search(r"<table[^>]*claims-summary.*?</table>", page, re.S)
    if table is None:
        return []
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(0), re.S)
    cells = [
        re.sub(r"<[^>]+>", "", c).strip()
        for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", rows[-1], re.S)
    ]
    return cells


def test_chapter_summaries_count_their_sections_rows(built_book: Path) -> None:
    """Each chapter index's claims summary totals the rows its sections' tables print."""
    chapters = sorted({name.rsplit("/", 1)[0] for name in DOCNAMES if name.endswith("/index")})
    assert chapters
    for chapter in chapters:
        totals = _summary_totals((built_book / f"{chapter}/index.html").read_text(encoding="utf-8"))
        assert totals, f"{chapter}/index has no claims summary"
        rows: list[dict[str, Any]] = []
        for name in DOCNAMES:
            if name.startswith(f"{chapter}/") and not name.endswith("/index"):
                page = ClaimRows()
                page.feed((built_book / f"{name}.html").read_text(encoding="utf-8"))
                rows += page.rows
        verdicts = [row["cells"][4] for row in rows]
        expected = [
            "all sections",
            str(len(rows)),
            *(str(verdicts.count(v)) for v in ("agree", "disagree", "paper wrong", "holds")),
        ]
        assert totals == expected, f"{chapter}: summary {totals}, section tables {expected}"


def test_toc_lists_every_planned_page() -> None:
    """The reading order the browser test walks: intro, the chapter, its sections, performance."""
    assert DOCNAMES[0] == "book/intro"
    assert "book/epanechnikov/index" in DOCNAMES
    assert DOCNAMES[-1] == "book/performance"


#: Hosts a page must not link to: the repository placeholder and launchers that cannot run the
#: notebooks (nothing installs assocmem there).
DEAD_LINKS = re.compile(r"github\.com/OWNER|mybinder\.org|colab\.research\.google\.com")


def test_no_link_to_a_placeholder_host(built_book: Path) -> None:
    """No page links to the placeholder repository or to Binder/Colab launchers."""
    bad = [
        f"{p.relative_to(built_book).as_posix()}: {m.group(0)}"
        for p in sorted(built_book.rglob("*.html"))
        for m in DEAD_LINKS.finditer(p.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not bad, "links to hosts that cannot serve the book's notebooks:\n  " + "\n  ".join(bad)


def test_mathjax_ships_only_what_pages_load(built_book: Path) -> None:
    """MathJax is pruned to tex-chtml.js and what it fetches (fonts, TeX extensions, menu)."""
    root = built_book / "_static" / "mathjax"
    assert (root / "tex-chtml.js").is_file()
    assert any((root / "output" / "chtml" / "fonts").rglob("*.woff"))
    unused = ("tex-svg.js", "tex-mml-chtml.js", "tex-chtml-full.js", "mml-svg.js", "adaptors")
    assert not [n for n in unused if (root / n).exists()]
    size = sum(f.stat().st_size for f in root.rglob("*") if f.is_file())
    assert size < 8 * 2**20, f"_static/mathjax holds {size / 2**20:.1f} MiB"


def _referenced(built_book: Path) -> str:
    """Every page's HTML and every loaded stylesheet and script, as one text to search."""
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in built_book.rglob("*.html")]
    for rel in LOADED:
        if rel.endswith((".css", ".js")) and (built_book / rel).is_file():
            texts.append((built_book / rel).read_text(encoding="utf-8", errors="replace"))
    return "\n".join(texts)


def test_every_shipped_file_is_used(built_book: Path, browser: Any, server: str) -> None:
    """No file in the build that no page loads, links or names (after every page was opened)."""
    missing = sorted(set(DOCNAMES) - VISITED)
    if missing:
        pytest.skip(f"needs every page opened in this session; not opened: {missing[:3]} ...")
    context, page, log = _open(browser, f"{server}/search.html?q=memory")
    try:
        page.wait_for_selector("#search-results li, ul.search li", timeout=20_000)
    finally:
        context.close()
    assert not log.errors and not log.blocked, f"search page: {log.errors + log.blocked}"
    loaded = LOADED | {urlsplit(u).path.lstrip("/") for u in log.local}
    text = _referenced(built_book)
    unused = []
    for path in sorted(p for p in built_book.rglob("*") if p.is_file()):
        rel = path.relative_to(built_book).as_posix()
        if rel in loaded or rel.startswith(tuple(ON_DEMAND)) or rel.endswith(".html"):
            continue
        if path.name not in text:
            unused.append(rel)
    assert not unused, f"{len(unused)} shipped files that no page loads or names: {unused[:20]}"
