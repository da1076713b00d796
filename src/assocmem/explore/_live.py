"""The live figure of an exploration: one message per update, drawn with ``Plotly.react``.

A plotly ``FigureWidget`` updated by a relayout, a deletion and an addition of every trace sends
three messages per slider move; the browser redraws after each (first the new layout over the
old data, then an empty plot, then the new figure) and echoes the full trace and layout state
back to the kernel after each. :class:`LiveFigure` sends the new figure as one state update
instead: the traces with their arrays as plotly.js typed-array specs (float32, base64; NaN cells
stay gaps, 2-D grids keep their shape), and the layout. The browser hands it to
``Plotly.react``, which redraws once and sends nothing back.

plotly.js itself comes from the page when it already has one (``window.Plotly``); otherwise the
copy that ships with plotly.py is loaded once per page from the widget's state.
"""

from __future__ import annotations

import base64
import math
from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import plotly
import plotly.graph_objects as go
import traitlets

from assocmem._validation import check_instance

from ._layout import PLOT_CONFIG
from ._payload import compact

__all__ = ["LiveFigure", "figure_message"]

_PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"

# Typed arrays plotly.js decodes (``{dtype, bdata, shape}``); other dtypes travel as lists.
_DTYPES = {
    "float32": "f4",
    "float64": "f8",
    "int8": "i1",
    "uint8": "u1",
    "int16": "i2",
    "uint16": "u2",
    "int32": "i4",
    "uint32": "u4",
}

_ESM = """
function plotlyFrom(model) {
  if (window.Plotly) { return window.Plotly; }
  const script = document.createElement("script");
  script.textContent = model.get("_plotly_js");  // sets window.Plotly
  document.head.appendChild(script);
  return window.Plotly;
}

async function render({ model, el }) {
  const Plotly = plotlyFrom(model);
  const gd = document.createElement("div");
  gd.className = "assocmem-live-figure";
  el.appendChild(gd);
  // One Plotly.react at a time; while one draws, only the newest figure waits.
  let drawing = false, waiting = false;
  async function draw() {
    if (drawing) { waiting = true; return; }
    drawing = true;
    try {
      do {
        waiting = false;
        const fig = model.get("figure");
        await Plotly.react(gd, fig.data || [], fig.layout || {}, model.get("config"));
      } while (waiting);
    } finally {
      drawing = false;
    }
  }
  model.on("change:figure", draw);
  await draw();
  // The panel may be drawn before it is attached: resize once it has a width.
  const resize = new ResizeObserver(() => { if (gd.offsetWidth) { Plotly.Plots.resize(gd); } });
  resize.observe(el);
  return () => { resize.disconnect(); model.off("change:figure", draw); Plotly.purge(gd); };
}

export default { render };
"""


class LiveFigure(anywidget.AnyWidget):
    """A plotly figure in a live panel, replaced as a whole by :meth:`show`.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The first figure shown.

    Attributes
    ----------
    figure : dict
        The figure as sent to the browser (see :func:`figure_message`).
    """

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    _plotly_js = traitlets.Unicode().tag(sync=True)
    figure = traitlets.Dict().tag(sync=True)
    #: The book's plotly config (the same hover toolbar the layout leaves room for).
    config = traitlets.Dict(PLOT_CONFIG).tag(sync=True)

    def __init__(self, fig: go.Figure) -> None:
        super().__init__(_plotly_js=_PLOTLY_JS.read_text(encoding="utf-8"))
        self.show(fig)

    def show(self, fig: go.Figure) -> None:
        """Replace the figure: one state update, one ``Plotly.react`` in the browser."""
        self.figure = figure_message(fig)


def figure_message(fig: go.Figure) -> dict[str, Any]:
    """The JSON-safe form of ``fig`` that :class:`LiveFigure` sends.

    Long float arrays become float32 (as in the book's figures), and every numeric array of a
    trace becomes a plotly.js typed-array spec ``{"dtype", "bdata", "shape"}``, so that NaN and
    infinite entries travel unchanged in the binary data (plotly.js draws them as gaps), where
    JSON would refuse them. Any other non-finite float, in the layout or a short list, becomes
    ``None``. ``fig`` must be a plotly ``Figure``; anything else raises a TypeError.
    """
    check_instance(fig, "fig", go.Figure)
    data = [_typed(compact(trace.to_plotly_json())) for trace in fig.data]
    return {"data": data, "layout": _typed(fig.layout.to_plotly_json(), arrays=False)}


def _typed(value: Any, arrays: bool = True) -> Any:
    """``value`` with arrays as typed-array specs (or lists if not ``arrays``), JSON-safe."""
    if isinstance(value, dict):
        return {k: _typed(v, arrays and k != "range") for k, v in value.items()}
    if isinstance(value, np.ndarray):
        dtype = _DTYPES.get(value.dtype.name)
        if value.dtype == np.int64 and value.size and np.abs(value).max() < 2**31:
            value, dtype = value.astype(np.int32), "i4"
        if arrays and dtype is not None and value.size:
            spec = {"dtype": dtype, "bdata": base64.b64encode(value.tobytes()).decode("ascii")}
            if value.ndim > 1:
                spec["shape"] = ", ".join(str(n) for n in value.shape)
            return spec
        return _typed(value.tolist(), arrays)
    if isinstance(value, list | tuple):
        return [_typed(v, arrays) for v in value]
    if isinstance(value, float | np.floating):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.integer | np.bool_):
        return value.item()
    return value
