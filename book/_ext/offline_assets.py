"""Sphinx extension: make the built book work with no network.

What it does
------------
- Copies ``plotly.min.js`` from the installed ``plotly`` package into ``_static/`` at build time
  (the file is never committed) and loads it, synchronously in ``<head>``, on every page whose
  body contains a plotly figure. ``assocmem.explore`` writes its figures with
  ``plotly.io.to_html(fig, include_plotlyjs=False, full_html=False)``: a ``<div>`` and a script
  that calls the global ``Plotly.newPlot``, so the library must be loaded before the body is parsed.
- Removes duplicate inline scripts. Sphinx 7.4 registers a script added with
  ``app.add_js_file(None, body=...)`` after the builder started twice (once as ``None``, once as
  ``""``), so sphinx-thebe's ``const THEBE_JS_URL = ...`` appeared twice and every page raised
  "Identifier 'THEBE_JS_URL' has already been declared".
- Removes the ``application/vnd.jupyter.widget-state+json`` script that myst-nb embeds when a
  notebook stored widget state: without a widget manager (``nb_ipywidgets_js: {}``) it is dead
  weight, and it can be megabytes.
- Prunes the MathJax copy to what a page can load: ``tex-chtml.js`` (the one script pages load)
  and the files it fetches itself: the CHTML fonts, the TeX extensions that ``autoload`` and
  ``\require`` fetch, and the accessibility tools its menu can switch on (the menu itself is
  part of ``tex-chtml.js``). The other combined builds (SVG, MathML input, full and speech
  bundles), the optional ``ui`` components and the node adaptors go.
- Deletes theme files no page loads: translations, source maps, launch-button logos, TrueType
  font copies, unused icon-font styles, webpack templates.
- Declares two extensions parallel-safe that do not say so themselves: ``sphinx-mathjax-offline``
  (it only copies MathJax into ``_static/mathjax`` when the build finishes) and
  ``sphinx_multitoc_numbering`` (always loaded by sphinx-external-toc; it renumbers sections in
  the main process after reading). Sphinx's "does not declare if it is safe for parallel
  reading" warning would fail a ``-W`` build and turn off parallel notebook execution.
- Fails the build (a warning, fatal under ``-W``) if a page still loads a script, stylesheet,
  image or frame from another host, in its head or in a notebook output.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

__all__ = ["setup"]

LOGGER = logging.getLogger(__name__)
PLOTLY_JS = "plotly.min.js"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
MATHJAX_EXT = "sphinx-mathjax-offline"
# What tex-chtml.js can load, as prefixes of paths inside _static/mathjax (see the docstring).
_MATHJAX_KEEP = ("tex-chtml.js", "output/chtml/", "input/tex/extensions/", "a11y/", "sre/")
# Theme files no page loads (glob patterns inside the output folder): the theme's translations
# (the book is English), source maps (fetched only by a developer's tools), the logos of the
# launch buttons the book does not show, TrueType copies of fonts every browser takes as WOFF2,
# the two icon-font styles no page uses, the theme's webpack templates, and files that scripts
# which pages load carry inlined.
_UNUSED_THEME_FILES = (
    "_static/locales",
    "**/*.map",
    "_static/images/logo_*",
    "_static/vendor/fontawesome/webfonts/*.ttf",
    "_static/vendor/fontawesome/webfonts/fa-brands-400.*",
    "_static/vendor/fontawesome/webfonts/fa-regular-400.*",
    "_static/*webpack-macros.html",
    # sphinx-copybutton's icons and module source: its copybutton.js inlines both
    "_static/check-solid.svg",
    "_static/copy-button.svg",
    "_static/copybutton_funcs.js",
    "_static/play-solid.svg",
)
# Extensions that are parallel-safe but do not declare it (see the module docstring).
UNDECLARED_PARALLEL_SAFE = (MATHJAX_EXT, "sphinx_multitoc_numbering")
_PLOTLY_MARKERS = ("plotly-graph-div", "Plotly.newPlot")
_REMOTE = re.compile(r"^(?:https?:)?//", re.IGNORECASE)
# An element in a page body that makes the browser fetch from another host by itself.
_REMOTE_IN_BODY = re.compile(
    r"<(?:script|img|iframe|audio|video|source|embed)\b[^>]*?\ssrc\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)"
    r"|<link\b[^>]*?\shref\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)",
    re.IGNORECASE,
)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the event handlers (Sphinx entry point)."""
    app.setup_extension(MATHJAX_EXT)
    app.connect("builder-inited", _declare_parallel_safe)
    app.connect("builder-inited", _copy_plotly_js)
    app.connect("html-page-context", _page_assets, priority=900)
    # After sphinx-mathjax-offline's own build-finished handler (default priority 500) copied it.
    app.connect("build-finished", _prune_mathjax, priority=900)
    app.connect("build-finished", _prune_theme_files, priority=900)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}


def _declare_parallel_safe(app: Sphinx) -> None:
    """Mark the extensions of :data:`UNDECLARED_PARALLEL_SAFE` that are loaded as parallel-safe."""
    for name in UNDECLARED_PARALLEL_SAFE:
        ext = app.extensions.get(name)
        if ext is not None and ext.parallel_read_safe is None:
            ext.parallel_read_safe = True
        if ext is not None and ext.parallel_write_safe is None:
            ext.parallel_write_safe = True


def _prune_mathjax(app: Sphinx, exception: Exception | None) -> None:
    """Delete the MathJax files no page can load (everything outside :data:`_MATHJAX_KEEP`)."""
    root = Path(app.outdir) / "_static" / "mathjax"
    if exception is not None or app.builder.format != "html" or not root.is_dir():
        return
    for path in sorted(root.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith(_MATHJAX_KEEP):
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def _prune_theme_files(app: Sphinx, exception: Exception | None) -> None:
    """Delete the theme files of :data:`_UNUSED_THEME_FILES` (the browser test checks the rest)."""
    out = Path(app.outdir)
    if exception is not None or app.builder.format != "html":
        return
    for pattern in _UNUSED_THEME_FILES:
        for path in sorted(out.glob(pattern), key=lambda p: len(p.parts), reverse=True):
            if path.is_dir():
                shutil.rmtree(path)
            elif path.is_file():
                path.unlink()


def _plotly_js_source() -> Path:
    """Path of the plotly.js bundle shipped inside the installed ``plotly`` package."""
    import plotly

    path = Path(plotly.__file__).parent / "package_data" / PLOTLY_JS
    if not path.is_file():
        raise FileNotFoundError(f"plotly.js bundle not found at {path}")
    return path


def _unique(scripts: Any) -> list[Any]:
    """Scripts in order, without repeats (``None`` and ``""`` file names count as equal)."""
    seen: set[tuple[str, int, tuple[tuple[str, str], ...]]] = set()
    out = []
    for js in scripts:
        key = (str(js.filename or ""), js.priority, tuple(sorted(js.attributes.items())))
        if key not in seen:
            seen.add(key)
            out.append(js)
    return out


def _copy_plotly_js(app: Sphinx) -> None:
    """Copy plotly.min.js into the output's ``_static`` folder (html builders only)."""
    if app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_plotly_js_source(), static / PLOTLY_JS)


def _page_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Per page: add plotly.js where figures are, drop widget state, refuse remote assets."""
    if app.builder.format != "html":
        return
    scripts = context.get("script_files")
    if scripts is None:
        return
    body = context.get("body") or ""
    if any(marker in body for marker in _PLOTLY_MARKERS):
        # Priority 200 puts it before the theme and MathJax scripts; no defer/async attribute,
        # so it is loaded and run before the figure scripts in the body.
        app.add_js_file(PLOTLY_JS, priority=200)
    scripts[:] = _unique(js for js in scripts if js.attributes.get("type") != WIDGET_STATE)
    remote = [str(a.filename) for a in [*scripts, *(context.get("css_files") or [])]]
    remote = [url for url in remote if _REMOTE.match(url)]
    remote += [m.group(1) or m.group(2) for m in _REMOTE_IN_BODY.finditer(body)]
    for url in remote:
        LOGGER.warning(
            "page %s loads %s from another host; the book must work offline",
            pagename,
            url,
            type="offline_assets",
        )
