"""Core of :mod:`assocmem.explore`: parameter specs, static slider figures, live widgets."""

from __future__ import annotations

import inspect
import itertools
import math
import numbers
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.io._base_renderers import MimetypeRenderer

from assocmem._validation import (
    as_real_vector,
    check_bool,
    check_finite_float,
    check_instance,
    check_positive_int,
    check_size,
)

from . import _layout
from ._checks import check_results
from ._layout import PLOT_CONFIG
from ._payload import compact_traces

__all__ = [
    "BOOK_RENDERER",
    "Choice",
    "Exploration",
    "Slider",
    "explore",
    "figure_html",
    "setup",
    "static_figure",
]

#: Name of the plotly renderer that emits ``text/html`` calling the page's global ``Plotly``.
#: The book loads plotly.js once per page from its own ``_static`` folder (no CDN).
BOOK_RENDERER = "assocmem_book"

# Dropdown options of a static exploration restyle (which traces show) and then relayout (which
# slider shows). They are "skip" buttons run by this script, because plotly.js's combined
# ``Plotly.update`` fails on heatmaps when it also switches slider visibility ("Cannot read
# properties of undefined (reading 'length')"), while the two calls in sequence work.
_MENU_SCRIPT = """
var gd = document.getElementById('{plot_id}');
if (gd && gd.on) {
  gd.on('plotly_buttonclicked', function (ev) {
    var a = ev.button.args;
    if (ev.button.method !== 'skip' || !a || a.length < 2) { return; }
    Plotly.restyle(gd, a[0]).then(function () { return Plotly.relayout(gd, a[1]); });
  });
}
"""

# Layout properties that may differ between precomputed steps and are sent with each step.
_STEP_LAYOUT_KEYS = ("title.text", "shapes", "annotations")
_LIVE_RESOLUTION = 200  # number of slider positions over a continuous range
#: Most figures one exploration precomputes for the book (slider steps times dropdown options).
MAX_PRECOMPUTED = 500
#: Most BLAS threads :func:`setup` accepts.
MAX_THREADS = 1024
_threadpool_limiter: Any = None


def setup(seed: int = 0, threads: int = 1) -> np.random.Generator:
    """Prepare a notebook: plotly renderer, BLAS threads and a seeded generator.

    Parameters
    ----------
    seed : int, default 0
        Seed (>= 0) of the returned generator; the same seed gives the same figures.
    threads : int, default 1
        BLAS threads, from 1 to ``MAX_THREADS``. One thread is much faster for the small
        products used here.

    Returns
    -------
    numpy.random.Generator
        ``numpy.random.default_rng(seed)``.

    Raises
    ------
    TypeError
        If ``seed`` or ``threads`` is not an integer.
    ValueError
        If ``seed`` < 0 or ``threads`` is outside [1, ``MAX_THREADS``].

    Notes
    -----
    Plotly's default renderer shows nothing in Jupyter Book. The renderer set here,
    ``plotly_mimetype+assocmem_book``, gives JupyterLab its native plotly output and the book a
    ``text/html`` figure drawn by the plotly.js that each page loads once from ``_static``. In
    Google Colab the ``colab`` renderer is used instead.
    """
    global _threadpool_limiter
    seed = check_positive_int(seed, "seed", minimum=0)
    threads = check_positive_int(threads, "threads", minimum=1, maximum=MAX_THREADS)
    rng = np.random.default_rng(seed)
    from threadpoolctl import threadpool_limits

    _threadpool_limiter = threadpool_limits(limits=threads)
    if BOOK_RENDERER not in pio.renderers:
        pio.renderers[BOOK_RENDERER] = _BookRenderer()
    in_colab = "google.colab" in sys.modules
    pio.renderers.default = "colab" if in_colab else f"plotly_mimetype+{BOOK_RENDERER}"
    pio.templates.default = "plotly_white"
    return rng


def figure_html(fig: go.Figure | dict[str, Any]) -> str:
    """Return the book's HTML for a figure: a div and a script using the page's plotly.js.

    Neither plotly.js nor MathJax is referenced: the book serves both from ``_static``.
    ``fig`` is a plotly ``Figure`` or its dict form; anything else raises a TypeError.
    """
    check_instance(fig, "fig", (go.Figure, dict))
    return pio.to_html(
        fig,
        include_plotlyjs=False,
        include_mathjax=False,
        full_html=False,
        config=PLOT_CONFIG,
        post_script=_MENU_SCRIPT,
    )


class _BookRenderer(MimetypeRenderer):
    """Plotly renderer whose ``text/html`` uses the page's plotly.js and loads nothing else.

    Plotly's own ``HtmlRenderer`` asks for MathJax from a CDN, which the offline book refuses.
    """

    def to_mimebundle(self, fig_dict: dict[str, Any]) -> dict[str, str]:
        return {"text/html": figure_html(fig_dict)}


def _fmt(value: Any) -> str:
    """Short label for a parameter value (3 significant digits for floats)."""
    if isinstance(value, float | np.floating):
        return f"{value:.3g}"
    return str(value)


@dataclass(frozen=True)
class Slider:
    """A numeric parameter: a continuous range live, a few precomputed steps in the book.

    Parameters
    ----------
    name : str
        Keyword argument of the compute function.
    lo, hi : float
        The valid range, both ends included (finite, ``lo < hi``). Take it from the function's
        domain.
    steps : int, default 9
        Number of precomputed values for the book (geometric if ``log``), from 2 to
        ``MAX_PRECOMPUTED``.
    log : bool, default False
        Logarithmic slider (``lo`` must be > 0).
    integer : bool, default False
        Integer parameter.
    value : float, optional
        Initial value; defaults to the precomputed step nearest the middle of the range.
    values : sequence of float, optional
        Explicit precomputed values for the book, each in [lo, hi] (overrides ``steps``); at
        most ``MAX_PRECOMPUTED``.
    label : str, optional
        Text shown beside the control (defaults to ``name``).
    continuous_update : bool, default False
        Recompute while dragging (for computations well under 100 ms).

    Raises
    ------
    TypeError, ValueError
        If an argument has the wrong type or lies outside its range; the message names it.
    """

    name: str
    lo: float
    hi: float
    steps: int = 9
    log: bool = False
    integer: bool = False
    value: float | None = None
    values: tuple[float, ...] | None = None
    label: str | None = None
    continuous_update: bool = False

    def __post_init__(self) -> None:
        _check_param_name(self.name)
        lo, hi = check_finite_float(self.lo, "lo"), check_finite_float(self.hi, "hi")
        if not lo < hi:
            raise ValueError(f"slider {self.name!r} needs lo < hi, got lo={lo!r}, hi={hi!r}")
        check_positive_int(self.steps, "steps", minimum=2, maximum=MAX_PRECOMPUTED)
        for flag in ("log", "integer", "continuous_update"):
            check_bool(getattr(self, flag), flag)
        if self.log and lo <= 0:
            raise ValueError(f"lo must be > 0 for a log slider (log=True), got lo={lo!r}")
        if self.label is not None and not isinstance(self.label, str):
            raise TypeError(f"label must be a string or None, got {self.label!r}")
        if self.value is not None:
            value = check_finite_float(self.value, "value")
            if not lo <= value <= hi:
                raise ValueError(
                    f"value must lie in [lo, hi] = [{lo}, {hi}] (slider {self.name!r}), "
                    f"got {value!r}"
                )
            if self.integer and value != round(value):
                raise ValueError(
                    f"value must be a whole number for the integer slider {self.name!r}, "
                    f"got {value!r}"
                )
        if self.values is not None:
            if isinstance(self.values, numbers.Real) and not isinstance(self.values, bool):
                raise TypeError(f"values must be a sequence of numbers, got {self.values!r}")
            vals = as_real_vector(self.values, "values", min_size=2)
            if vals.min() < lo or vals.max() > hi:
                bad = vals[(vals < lo) | (vals > hi)][0]
                raise ValueError(
                    f"values must lie in [lo, hi] = [{lo}, {hi}] (slider {self.name!r}), "
                    f"got {float(bad)!r}"
                )
            check_size(len(vals), "values", "precomputed steps", MAX_PRECOMPUTED, "give fewer")
            object.__setattr__(self, "values", tuple(float(v) for v in vals))

    def static_values(self) -> list[Any]:
        """Values precomputed for the book, in increasing order."""
        if self.values is not None:
            vals = [float(v) for v in self.values]
        elif self.log:
            vals = list(np.geomspace(self.lo, self.hi, self.steps))
        else:
            vals = list(np.linspace(self.lo, self.hi, self.steps))
        if self.integer:
            return sorted({round(float(v)) for v in vals})
        return [float(v) for v in vals]

    def initial(self) -> Any:
        """Initial value: ``value`` if given, else the precomputed step nearest the middle."""
        vals = self.static_values()
        if self.value is not None:
            return int(self.value) if self.integer else float(self.value)
        return vals[(len(vals) - 1) // 2]

    def initial_index(self) -> int:
        """Index of the static step nearest the initial value."""
        vals = np.asarray(self.static_values(), dtype=float)
        target = float(self.initial())
        dist = np.abs(np.log(vals) - np.log(target)) if self.log else np.abs(vals - target)
        return int(np.argmin(dist))

    def widget(self) -> Any:
        """The ipywidgets control over the continuous range."""
        import ipywidgets as w

        common = {
            "description": self.label or self.name,
            "description_allow_html": True,  # labels write sub- and superscripts as <sub>/<sup>
            "continuous_update": self.continuous_update,
            "style": {"description_width": "initial"},
            "layout": w.Layout(width="420px"),
        }
        if self.integer:
            return w.IntSlider(
                value=int(self.initial()), min=int(self.lo), max=int(self.hi), **common
            )
        if self.log:
            lo, hi = math.log10(self.lo), math.log10(self.hi)
            return w.FloatLogSlider(
                value=float(self.initial()),
                base=10,
                min=lo,
                max=hi,
                step=(hi - lo) / _LIVE_RESOLUTION,
                readout_format=".3g",
                **common,
            )
        return w.FloatSlider(
            value=float(self.initial()),
            min=self.lo,
            max=self.hi,
            step=(self.hi - self.lo) / _LIVE_RESOLUTION,
            readout_format=".3g",
            **common,
        )


@dataclass(frozen=True)
class Choice:
    """A parameter with a few options: a dropdown live and in the book.

    Parameters
    ----------
    name : str
        Keyword argument of the compute function.
    options : sequence
        The allowed values (a non-empty list or tuple, at most ``MAX_PRECOMPUTED``).
    labels : sequence of str, optional
        Display labels, one per option (default ``str`` of each option).
    value : optional
        Initial option (default the first).
    label : str, optional
        Text beside the control.
    continuous_update : bool, default False
        Unused by a dropdown; accepted so that every control has the attribute.

    Raises
    ------
    TypeError, ValueError
        If an argument has the wrong type or an invalid value; the message names it.
    """

    name: str
    options: tuple[Any, ...]
    labels: tuple[str, ...] | None = None
    value: Any = None
    label: str | None = None
    continuous_update: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        _check_param_name(self.name)
        if not isinstance(self.options, list | tuple):
            raise TypeError(f"options must be a list or tuple of values, got {self.options!r:.80}")
        if len(self.options) < 1:
            raise ValueError(f"options must hold at least one value (choice {self.name!r})")
        check_size(len(self.options), "options", "options", MAX_PRECOMPUTED, "give fewer")
        object.__setattr__(self, "options", tuple(self.options))
        if self.labels is not None:
            if not isinstance(self.labels, list | tuple) or not all(
                isinstance(t, str) for t in self.labels
            ):
                raise TypeError(f"labels must be a list or tuple of strings, got {self.labels!r}")
            if len(self.labels) != len(self.options):
                raise ValueError(
                    f"labels must hold one label per option: {len(self.labels)} labels for "
                    f"{len(self.options)} options"
                )
            object.__setattr__(self, "labels", tuple(self.labels))
        if self.value is not None and _option_index(self.options, self.value) is None:
            raise ValueError(f"value must be one of options {self.options!r}, got {self.value!r}")
        if self.label is not None and not isinstance(self.label, str):
            raise TypeError(f"label must be a string or None, got {self.label!r}")
        check_bool(self.continuous_update, "continuous_update")

    def static_values(self) -> list[Any]:
        """All options (each is precomputed for the book)."""
        return list(self.options)

    def initial(self) -> Any:
        """Initial option."""
        return self.options[0] if self.value is None else self.value

    def initial_index(self) -> int:
        """Index of the initial option."""
        return 0 if self.value is None else int(_option_index(self.options, self.value))

    def option_labels(self) -> list[str]:
        """Display label of each option."""
        return list(self.labels) if self.labels is not None else [_fmt(o) for o in self.options]

    def widget(self) -> Any:
        """The ipywidgets dropdown."""
        import ipywidgets as w

        return w.Dropdown(
            options=list(zip(self.option_labels(), self.options, strict=True)),
            value=self.initial(),
            description=self.label or self.name,
            description_allow_html=True,
            style={"description_width": "initial"},
        )


Param = Slider | Choice


def _check_param_name(name: Any) -> str:
    """A control's name is a keyword argument of the compute function: a Python identifier."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a string (a keyword argument), got {name!r}")
    if not name.isidentifier():
        raise ValueError(f"name must be a Python identifier (a keyword argument), got {name!r}")
    return name


def _option_index(options: tuple[Any, ...], value: Any) -> int | None:
    """Index of ``value`` among ``options`` (a bool never matches a number), or None."""
    for k, option in enumerate(options):
        if isinstance(option, bool | np.bool_) != isinstance(value, bool | np.bool_):
            continue
        try:
            if option is value or bool(option == value):
                return k
        except (TypeError, ValueError):  # e.g. comparing arrays
            continue
    return None


def _check_exploration(
    compute: Any, plot: Any, params: Any, fixed: Any
) -> tuple[tuple[Param, ...], dict[str, Any]]:
    """Check the arguments shared by :func:`static_figure` and :class:`Exploration`."""
    for name, func in (("compute", compute), ("plot", plot)):
        if not callable(func):
            raise TypeError(f"{name} must be a callable, got {func!r:.80}")
    params = tuple(check_results(params, "params", (Slider, Choice), single=False))
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError(f"params must have distinct names, got {names}")
    if fixed is None:
        fixed = {}
    if not isinstance(fixed, Mapping):
        raise TypeError(f"fixed must be a mapping of keyword arguments, got {fixed!r:.80}")
    fixed = dict(fixed)
    for key in fixed:
        if not isinstance(key, str):
            raise TypeError(f"fixed must have string keys (keyword arguments), got {key!r}")
    clash = sorted(set(fixed) & set(names))
    if clash:
        raise ValueError(f"fixed must not set the parameters of the controls, got {clash}")
    try:
        signature = inspect.signature(compute)
    except (TypeError, ValueError):  # a builtin without a signature: nothing to check
        signature = None
    if signature is not None:
        try:
            signature.bind_partial(**fixed, **dict.fromkeys(names))
        except TypeError as exc:
            raise TypeError(
                f"compute must take the keyword arguments of params and fixed "
                f"({sorted([*names, *fixed])}): {exc}"
            ) from None
    s_count = len(params[0].static_values())
    m_count = len(params[1].static_values()) if len(params) > 1 else 1
    check_size(
        s_count * m_count,
        "params",
        "precomputed figures (slider steps times dropdown options)",
        MAX_PRECOMPUTED,
        "use fewer slider steps or dropdown options",
    )
    return params, fixed


def _layout_step(fig: go.Figure) -> dict[str, Any]:
    """Layout properties of one precomputed figure that a step must restore."""
    layout = fig.layout
    out: dict[str, Any] = {
        "title.text": layout.title.text,
        "shapes": [s.to_plotly_json() for s in layout.shapes],
        "annotations": [a.to_plotly_json() for a in layout.annotations],
    }
    for key in layout.to_plotly_json():
        if key.startswith(("xaxis", "yaxis")):
            axis = layout[key]
            fixed_range = axis.range is not None
            out[f"{key}.range"] = list(axis.range) if fixed_range else None
            # Keep a reversed axis reversed; otherwise autorange exactly when no range is set.
            out[f"{key}.autorange"] = (
                "reversed" if axis.autorange == "reversed" else (not fixed_range)
            )
            # the step's own axis type and tick step: steps may differ in type (a log axis for
            # a diverged run, linear otherwise), and a log step's dtick = 1 (decades) on a linear
            # axis spanning 1e9 would ask the browser for a billion ticks
            out[f"{key}.type"] = axis.type
            out[f"{key}.dtick"] = axis.dtick
            if key.startswith("xaxis") and axis.domain is not None:
                # the panel gaps that the step's own tick labels need (see _layout.tidy)
                out[f"{key}.domain"] = list(axis.domain)
    return out


def static_figure(
    compute: Callable[..., Any],
    plot: Callable[[Any], go.Figure],
    params: Sequence[Param],
    fixed: Mapping[str, Any] | None = None,
) -> go.Figure:
    """Precompute an exploration as one plotly figure with a slider (and a dropdown).

    The first parameter becomes the slider; the second, if any, a dropdown that switches between
    one slider per option. Further parameters stay at their initial values in the book (the live
    widget varies them all).

    Parameters
    ----------
    compute : callable
        Pure function ``compute(**kwargs) -> result``.
    plot : callable
        ``plot(result) -> plotly.graph_objects.Figure``. Every result must give the same layout
        apart from the title, shapes, annotations and axis ranges.
    params : sequence of Slider or Choice
        At least one parameter.
    fixed : mapping, optional
        Keyword arguments passed unchanged to ``compute``.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces of every step, only the initial step's visible; ``layout.sliders`` has one slider
        per dropdown option.

    Raises
    ------
    TypeError
        If ``compute`` or ``plot`` is not callable, ``params`` is not a non-empty list of
        Slider/Choice, ``fixed`` is not a mapping, or ``compute`` does not take their names.
    ValueError
        If names repeat, ``fixed`` sets a control's parameter, or the slider steps times the
        dropdown options exceed ``MAX_PRECOMPUTED``.
    """
    params, fixed = _check_exploration(compute, plot, params, fixed)
    return _static_figure(compute, plot, params, fixed)


def _static_figure(
    compute: Callable[..., Any],
    plot: Callable[[Any], go.Figure],
    params: Sequence[Param],
    fixed: dict[str, Any],
) -> go.Figure:
    """:func:`static_figure` on checked arguments."""
    rest = {p.name: p.initial() for p in params[2:]}
    slider, menu = params[0], (params[1] if len(params) > 1 else None)
    s_vals = slider.static_values()
    m_vals = menu.static_values() if menu is not None else [None]
    s0 = slider.initial_index()
    m0 = menu.initial_index() if menu is not None else 0

    figs: dict[tuple[int, int], go.Figure] = {}
    for (j, mv), (i, sv) in itertools.product(enumerate(m_vals), enumerate(s_vals)):
        kwargs = {**fixed, **rest, slider.name: sv}
        if menu is not None:
            kwargs[menu.name] = mv
        figs[i, j] = plot(compute(**kwargs))
    needs = [_layout.measure(fig) for fig in figs.values()]
    rows = {
        "title_lines": max(n["title"] for n in needs),
        "legend_rows": max(n["legend"] for n in needs),
        "band_lines": max(n["band"] for n in needs),
    }
    for fig in figs.values():
        _layout.tidy(fig, **rows)

    out = go.Figure(layout=figs[s0, m0].layout)
    spans: dict[tuple[int, int], range] = {}
    for key, fig in figs.items():
        start = len(out.data)
        out.add_traces(compact_traces(fig))
        spans[key] = range(start, len(out.data))
    n_traces = len(out.data)
    for k, trace in enumerate(out.data):
        trace.visible = k in spans[s0, m0]

    def visible(i: int, j: int) -> list[bool]:
        return [k in spans[i, j] for k in range(n_traces)]

    # a Choice in the slider's place keeps its own labels ("∞", not "inf")
    s_labels = slider.option_labels() if isinstance(slider, Choice) else [_fmt(v) for v in s_vals]
    sliders = []
    for j in range(len(m_vals)):
        steps = [
            {
                "method": "update",
                "label": s_labels[i],
                "args": [{"visible": visible(i, j)}, _layout_step(figs[i, j])],
            }
            for i, sv in enumerate(s_vals)
        ]
        sliders.append(
            {
                "active": s0,
                "steps": steps,
                "visible": j == m0,
                "currentvalue": {"prefix": f"{slider.label or slider.name} = "},
            }
        )
    out.update_layout(sliders=sliders)
    if menu is not None:
        labels = menu.option_labels()
        if menu.labels is None:
            labels = [f"{menu.label or menu.name} = {v}" for v in labels]
        buttons = []
        for j, lab in enumerate(labels):
            layout_args = _layout_step(figs[s0, j])
            for jj in range(len(m_vals)):
                layout_args[f"sliders[{jj}].visible"] = jj == j
                layout_args[f"sliders[{jj}].active"] = s0
            buttons.append(
                {
                    "method": "skip",  # run by _MENU_SCRIPT: restyle, then relayout
                    "label": lab,
                    "args": [{"visible": visible(s0, j)}, layout_args],
                }
            )
        out.update_layout(updatemenus=[{"buttons": buttons, "active": m0}])
    # One layout for all steps: the menu in its own row above the plot, the slider below the
    # x axes, and as many title lines, legend rows and subplot-title lines as the most any
    # step needs (the steps only swap texts, shapes and ranges).
    return _layout.tidy(out, **rows)


class Exploration:
    """One exploration, shown as a live widget in Jupyter and as a static figure in the book.

    Build it with :func:`explore`. ``figure`` is the precomputed plotly figure, ``widget()``
    builds the ipywidgets panel, and ``render(**values)`` is the pure figure for given values
    (what each live update shows).
    """

    def __init__(
        self,
        compute: Callable[..., Any],
        plot: Callable[[Any], go.Figure],
        params: Sequence[Param],
        fixed: Mapping[str, Any] | None = None,
    ) -> None:
        self.params, self.fixed = _check_exploration(compute, plot, params, fixed)
        self.compute = compute
        self.plot = plot
        self.figure = _static_figure(compute, plot, self.params, self.fixed)
        self._widget: Any = None

    def render(self, **values: Any) -> go.Figure:
        """The figure at ``values`` (missing parameters take their initial values)."""
        kwargs = {p.name: p.initial() for p in self.params}
        kwargs.update(values)
        return self.plot(self.compute(**self.fixed, **kwargs))

    def widget(self) -> Any:
        """The live panel: one control per parameter above the live figure.

        Each control change sends ``render(**values)`` to the browser as one message, drawn
        with one ``Plotly.react`` (see :class:`assocmem.explore._live.LiveFigure`).
        """
        if self._widget is not None:
            return self._widget
        import ipywidgets as w

        from ._live import LiveFigure

        controls = {p.name: p.widget() for p in self.params}
        fig = LiveFigure(self.render())
        status = w.HTML(value="")

        def refresh(_change: Any = None) -> None:
            try:
                new = self.render(**{k: c.value for k, c in controls.items()})
            except (ValueError, TypeError) as exc:  # the controls' ranges should prevent this
                status.value = f"<span style='color:#b00'>{exc}</span>"
                return
            status.value = ""
            fig.show(new)

        for control in controls.values():
            control.observe(refresh, names="value")
        self._widget = w.VBox([*controls.values(), status, fig])
        return self._widget

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle = dict(self.widget()._repr_mimebundle_())
        bundle["text/html"] = figure_html(self.figure)
        return bundle


def explore(
    compute: Callable[..., Any],
    plot: Callable[[Any], go.Figure],
    params: Sequence[Param],
    **fixed: Any,
) -> Exploration:
    """Build a dual-mode exploration (the one call of every *Explore* cell).

    Parameters
    ----------
    compute : callable
        Pure compute function from the library; called with ``fixed`` and one keyword per
        parameter.
    plot : callable
        Plotting function from :mod:`assocmem.explore`, taking the result.
    params : sequence of Slider or Choice
        Controls. Ranges must come from the compute function's valid domain, so that no control
        reaches an invalid state. The first becomes the book's slider, the second its dropdown.
    **fixed
        Keyword arguments held fixed.

    Returns
    -------
    Exploration
        Displays as an ipywidgets panel in Jupyter and as a static slider figure in the book.

    Raises
    ------
    TypeError, ValueError
        As :func:`static_figure`.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> ex = explore(lambda a: a, lambda r: go.Figure(go.Scatter(y=[0, r])),
    ...              [Slider("a", 0.0, 1.0, steps=3)])
    >>> len(ex.figure.layout.sliders[0].steps)
    3
    """
    return Exploration(compute, plot, params, fixed)
