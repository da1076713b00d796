"""What a reader sees on one page of the built book: text that collides, overflows or scrolls.

``audit(page)`` runs one script in an open Playwright page (1280 px wide) and returns the
defects it measured from the rendered geometry, each as a sentence that names the figure or the
element and the texts involved:

- a display equation wider than its container (MathJax output that would scroll sideways);
- a visible code cell whose source is wider than its box (a horizontal scroll bar);
- in each plotly figure, two text boxes that intersect (title, subplot titles, axis titles,
  tick labels, legend entries and title, annotations, colour-bar text, the menu's label, the
  slider's labels, data labels), a text box that extends outside the figure, a data label cut
  at the edge of its plotting area, a table whose rows do not all fit (it scrolls), an axis
  title or tick label over a plotting area, a menu over a slider, and the hover toolbar over a
  title, legend or annotation;
- an entry of the right-hand contents box that is cut off or covered (cannot be clicked);
- a claims table wider than the page's text column, whose right-hand cells are
  cut off or scroll (a word too long to wrap widens it);
- a log axis spanning a decade or more that labels ticks between decades (``2``, ``5``, ``10⁻³²``
  next to ``10⁻³``).

Text boxes are the browser's bounding boxes of the SVG ``text`` elements, shrunk by ``SLACK``
pixels on each side so that glyph boxes which merely touch do not count. Run as a script it
audits pages of an existing build (``python tests/reader_view.py [docname ...]``) and prints the
defects, so an author can check a page without the whole browser test.
"""

from __future__ import annotations

import json
import sys
from typing import Any

SLACK = 1.0  # px: boxes must overlap by more than this (both ways) to count

_AUDIT = r"""
(slack) => {
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 0.5 || r.height < 0.5) return false;
    return el.checkVisibility({opacityProperty: true, visibilityProperty: true});
  };
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const overlap = (a, b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > slack
                         && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > slack;
  const outside = (a, f) => a.x0 < f.x0 - slack || a.x1 > f.x1 + slack
                         || a.y0 < f.y0 - slack || a.y1 > f.y1 + slack;
  const words = (s) => s.replace(/\s+/g, ' ').trim().slice(0, 60);
  const out = {equations: [], code: [], figures: [], contents: [], tables: []};

  for (const a of document.querySelectorAll('.bd-sidebar-secondary nav a, .bd-toc-nav a')) {
    if (!a.textContent.trim() || !a.checkVisibility()) continue;
    a.scrollIntoView({block: 'nearest'});
    const r = a.getBoundingClientRect();
    const x = r.left + Math.min(r.width / 2, 20), y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(a === hit || a.contains(hit))) out.contents.push(words(a.textContent));
  }
  window.scrollTo(0, 0);

  for (const c of document.querySelectorAll('mjx-container[display="true"]')) {
    if (!shown(c)) continue;
    const host = c.closest('div.math, div.math-wrapper, .cell_output, p, li, section') || c;
    const math = c.querySelector('mjx-math') || c;
    const need = math.getBoundingClientRect().width;
    const room = host.clientWidth;
    const scrolls = c.scrollWidth > c.clientWidth + 1;
    if (need > room + 1 || scrolls) {
      const tex = (c.parentElement && c.parentElement.getAttribute('data-tex'))
               || c.getAttribute('aria-label') || c.textContent;
      out.equations.push({text: words(tex || ''), need: Math.round(need), room: Math.round(room)});
    }
  }

  const column = document.querySelector('article.bd-article, main') || document.body;
  for (const t of document.querySelectorAll('table.assocmem-claims')) {
    if (!shown(t)) continue;
    const room = column.getBoundingClientRect().right;
    const right = t.getBoundingClientRect().right;
    let host = t.parentElement, scrolls = false;
    for (; host && host !== column; host = host.parentElement) {
      if (host.scrollWidth > host.clientWidth + 1) { scrolls = true; break; }
    }
    if (right > room + 1 || scrolls) {
      const head = t.querySelector('th, td');
      out.tables.push({text: words(head ? head.textContent : t.textContent),
                       need: Math.round(t.scrollWidth),
                       room: Math.round(t.parentElement.clientWidth)});
    }
  }

  for (const pre of document.querySelectorAll('.cell_input pre, div.highlight pre')) {
    if (!shown(pre)) continue;
    if (pre.scrollWidth > pre.clientWidth + 1) {
      const lines = pre.textContent.split('\n');
      const longest = lines.reduce((a, b) => (b.length > a.length ? b : a), '');
      out.code.push({line: words(longest), need: pre.scrollWidth, room: pre.clientWidth,
                     output: !pre.closest('.cell_input')});
    }
  }

  const KINDS = [
    ['title', '.g-gtitle text'],
    ['legend title', '.legend .legendtitletext'],
    ['legend entry', '.legend text.legendtext'],
    ['annotation', 'g.annotation text'],
    ['axis title', '.infolayer g[class^="g-x"] text, .infolayer g[class^="g-y"] text'],
    ['colour-bar text', '.colorbar text'],
    ['tick label', '.cartesianlayer g[class$="tick"] > text, ' +
                   '.cartesianlayer g[class$="tick2"] > text, .polarlayer text'],
    ['menu label', 'g.updatemenu-header-group text'],
    ['slider label', 'g.slider-group text'],
    ['data label', '.textpoint text, text.bartext'],
  ];
  document.querySelectorAll('.plotly-graph-div').forEach((gd, index) => {
    const fig = box(gd);
    const texts = [];
    const seen = new Set();
    for (const [kind, selector] of KINDS) {
      for (const el of gd.querySelectorAll(selector)) {
        if (seen.has(el) || !shown(el) || !el.textContent.trim()) continue;
        seen.add(el);
        texts.push({kind, text: words(el.textContent), b: box(el), el});
      }
    }
    const titleEl = gd.querySelector('.g-gtitle text');
    const name = titleEl ? words(titleEl.textContent) : '(untitled)';
    const defects = [];
    const label = (t) => `${t.kind} "${t.text}"`;
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const a = texts[i], b = texts[j];
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        if (overlap(a.b, b.b)) defects.push(`${label(a)} overlaps ${label(b)}`);
      }
      if (outside(texts[i].b, fig)) defects.push(`${label(texts[i])} extends outside the figure`);
    }
    const areas = Array.from(gd.querySelectorAll('.draglayer rect.nsewdrag'))
                       .filter(shown).map(box);
    for (const t of texts) {
      if (t.kind !== 'axis title' && t.kind !== 'tick label') continue;
      if (areas.some(a => overlap(t.b, a))) defects.push(`${label(t)} lies over a plotting area`);
    }
    const inside = (a, b) => a.x0 >= b.x0 - slack && a.x1 <= b.x1 + slack
                          && a.y0 >= b.y0 - slack && a.y1 <= b.y1 + slack;
    for (const t of texts) {
      if (t.kind !== 'data label') continue;
      if (areas.some(a => overlap(t.b, a)) && !areas.some(a => inside(t.b, a))) {
        defects.push(`${label(t)} crosses the edge of its plotting area (cut off)`);
      }
    }
    for (const table of gd.querySelectorAll('g.table')) {
      // cells below the visible area (plotly clips them; the reader must scroll the table)
      const view = Array.from(table.querySelectorAll('.scroll-background')).map(box);
      const bottom = Math.max(...view.map(r => r.y1));
      const hidden = Array.from(table.querySelectorAll('.cell-text'))
        .filter(e => e.textContent.trim() && box(e).y1 > bottom + slack);
      if (view.length && hidden.length) {
        defects.push(`a table scrolls: ${hidden.length} cells are hidden below its edge`);
      }
    }
    const menus = Array.from(gd.querySelectorAll('g.updatemenu-header-group')).filter(shown);
    const sliders = Array.from(gd.querySelectorAll('g.slider-group')).filter(shown);
    for (const m of menus) for (const s of sliders) {
      if (overlap(box(m), box(s))) defects.push('a menu overlaps a slider');
    }
    const bar = gd.querySelector('.modebar');
    if (bar) {
      const r = box(bar);
      for (const t of texts) {
        if (['title', 'legend entry', 'legend title', 'annotation'].includes(t.kind)
            && overlap(t.b, r)) defects.push(`the hover toolbar covers ${label(t)}`);
      }
    }
    const full = gd._fullLayout || {};
    for (const key of Object.keys(full).filter(k => /^[xy]axis\d*$/.test(k)).sort()) {
      const ax = full[key];
      if (ax.type !== 'log' || !ax.visible || !ax._vals || !ax.range) continue;
      if (Math.abs(ax.range[1] - ax.range[0]) < 1) continue;
      const between = ax._vals.filter(v => v.text && Math.abs(v.x - Math.round(v.x)) > 1e-6);
      if (between.length) {
        const shown = between.slice(0, 4).map(v => words(v.text.replace(/<[^>]+>/g, '')));
        defects.push(`log axis ${key} labels ticks between decades (${shown.join(', ')})`);
      }
    }
    out.figures.push({index, name, defects});
  });
  return out;
}
"""


def audit(page: Any) -> dict[str, Any]:
    """The page's measured defects: ``{"equations", "code", "figures", "contents", "tables"}``."""
    return page.evaluate(_AUDIT, SLACK)


def problems(report: dict[str, Any]) -> list[str]:
    """One sentence per defect of an :func:`audit` report."""
    out = [
        f"display equation scrolls sideways (math {e['need']} px, column {e['room']} px): "
        f"{e['text']}"
        for e in report["equations"]
    ]
    out += [
        f"{'code output' if c['output'] else 'code cell'} scrolls sideways "
        f"({c['need']} > {c['room']} px): {c['line']}"
        for c in report["code"]
    ]
    out += [f"contents entry cut off or covered: {c}" for c in report.get("contents", [])]
    out += [
        f"table wider than the column ({t['need']} > {t['room']} px), first cell: {t['text']}"
        for t in report.get("tables", [])
    ]
    for fig in report["figures"]:
        out += [f"figure {fig['index']} ({fig['name']}): {d}" for d in fig["defects"]]
    return out


def main(argv: list[str]) -> int:
    """Audit pages of ``_build/html`` (all of ``_toc.yml`` without arguments); print defects."""
    import functools
    import http.server
    import os
    import threading
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).parent))
    from test_book_browser import (
        _WAIT_READY,
        CHROMIUM,
        CHROMIUM_ARGS,
        DOCNAMES,
        HTML,
        _QuietHandler,
    )

    names = argv or DOCNAMES
    root = os.environ.get("ASSOCMEM_HTML", str(HTML))  # another build, e.g. a fresh clone's
    handler = functools.partial(_QuietHandler, directory=root)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    counts: dict[str, int] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name in names:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{base}/{name}.html", wait_until="load")
            page.evaluate(_WAIT_READY)
            report = audit(page)
            found = problems(report)
            counts[name] = len(found)
            for line in found:
                print(f"{name}: {line}")
            page.close()
        browser.close()
    httpd.shutdown()
    print(json.dumps(counts), file=sys.stderr)
    return 1 if any(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
