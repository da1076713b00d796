"""Figure texts of ``assocmem.explore`` show notation as plotly renders it, never as typed TeX.

Plotly draws a small HTML subset in every figure text (``<sub>``, ``<sup>``, ``<br>``), so
``r<sub>i</sub><sup>μ</sup>`` reads as r with a subscript i and a superscript μ, while ``r_i^μ``
reads literally (issue 10, item 11). Every plot-function baseline of
``tests/test_bad_input_explore.py`` is drawn, plus a few calls that reach other branches
(gain modes, colourings, laws), and every text a reader can see is checked:

- layout title, legend title, the titles of every axis and colour bar;
- annotations (subplot titles included);
- trace names (legend entries, and the hover box's trace label), hover and text templates;
- slider prefixes and step labels, menu button labels, table headers and cells.

``RAW`` flags an underscore or caret glued between a word character, closing bracket, star or
prime and a word character, an opening brace or an opening parenthesis: ``r_i``, ``x^2``,
``x_{ab}``, ``e^(−2αd)``, ``(W r)_i``, ``2^M``, ``MP_κ``, ``θ*_bulk``, ``J*_μ`` and also
``snake_case`` identifiers, which have no place in a figure either. ``TEX`` flags backslash
commands (``\\alpha``) and ``$…$`` math (plotly renders it only with MathJax configured for the
figure, which the book does not do).
Allowed: the HTML tags, Unicode super- and subscripts (``p⁻ᵖ``, ``radius₉₀``, ``M²``), a lone
``_`` or ``^`` with a space on one side, plotly's own ``%{…}`` template fields (stripped before
the check) and file names ending in ``.py`` (stripped: a file name is shown as spelled).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest
from test_bad_input_explore import BASELINES

from assocmem import attractor as at
from assocmem import linear_memory as lm
from assocmem.dense_am import landscape as ls
from assocmem.explore.attractor_stability import spectra as as_spectra
from assocmem.explore.epanechnikov import landscapes as epa_landscapes
from assocmem.explore.factual_recall import mechanism as fr_mechanism
from assocmem.explore.factual_recall import spectra as fr_spectra

RAW = re.compile(r"[\w)\]*′'][_^][\w{(]")
TEX = re.compile(r"\\[a-zA-Z]+|\$[^$]+\$")
_STRIP = re.compile(r"%\{[^}]*\}|\S+\.py\b")

# Strings that the baselines themselves pass in (threshold labels): a caller's text, written here
# as a notebook should write it, so the check sees what the plot function adds.
CALLER_TEXT: dict[str, dict[str, Any]] = {
    "plot_accuracy_curves": {"thresholds": {"α<sub>c</sub>": 0.5}},
    "plot_training_vs_hebbian": {"thresholds": {"α<sub>c</sub>": 0.5}},
}


def raw_notation(text: str) -> list[str]:
    """The raw-notation fragments in one figure text (empty when it reads cleanly)."""
    text = _STRIP.sub(" ", text)
    return [m.group(0) for m in RAW.finditer(text)] + [m.group(0) for m in TEX.finditer(text)]


def _title(obj: Any) -> Any:
    return obj.get("text") if isinstance(obj, dict) else obj


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def visible_texts(fig: go.Figure) -> Iterator[tuple[str, str]]:
    """(where, text) for every text of ``fig`` that a reader sees, in the figure or on hover."""
    d = fig.to_plotly_json()
    layout = d.get("layout", {})
    yield "title", _title(layout.get("title"))
    yield "legend title", _title(layout.get("legend", {}).get("title"))
    for key, sub in layout.items():
        if not isinstance(sub, dict):
            continue
        if key.startswith(("xaxis", "yaxis")):
            yield f"{key} title", _title(sub.get("title"))
        if key.startswith("coloraxis"):
            yield f"{key} colorbar", _title(sub.get("colorbar", {}).get("title"))
        if key.startswith(("scene", "polar", "ternary")):
            for axis, spec in sub.items():
                if isinstance(spec, dict):
                    yield f"{key}.{axis} title", _title(spec.get("title"))
    for i, ann in enumerate(layout.get("annotations", ())):
        yield f"annotation {i}", ann.get("text")
    for slider in layout.get("sliders", ()):
        yield "slider prefix", slider.get("currentvalue", {}).get("prefix")
        for step in slider.get("steps", ()):
            yield "slider step", step.get("label")
    for menu in layout.get("updatemenus", ()):
        for button in menu.get("buttons", ()):
            yield "menu button", button.get("label")
    for i, trace in enumerate(d.get("data", ())):
        where = f"trace {i} ({trace.get('type', 'scatter')})"
        hidden_legend = trace.get("showlegend") is False
        hover_off = str(trace.get("hoverinfo", "")) in ("skip", "none")
        named_in_hover = "hovertemplate" not in trace and not hover_off
        if trace.get("name") and (not hidden_legend or named_in_hover):
            yield f"{where} name", trace["name"]
        yield f"{where} legend group title", _title(trace.get("legendgrouptitle"))
        for key in ("hovertemplate", "texttemplate"):
            for s in _strings(trace.get(key)):
                yield f"{where} {key}", s
        for s in _strings(trace.get("text")):
            yield f"{where} text", s
        for owner in (trace, trace.get("marker") or {}):
            if isinstance(owner.get("colorbar"), dict):
                yield f"{where} colorbar", _title(owner["colorbar"].get("title"))
        if trace.get("type") == "table":
            for part in ("header", "cells"):
                for s in _strings((trace.get(part) or {}).get("values")):
                    yield f"{where} table {part}", s


def _figure_cases() -> list[Any]:
    cases = [
        pytest.param(b, CALLER_TEXT.get(b.name, {}), id=b.name)
        for b in BASELINES
        if b.name[:1].islower()  # the plot functions; classes (Slider, Claim, ...) draw nothing
    ]
    # Branches the baselines do not reach: small inputs, a few ms each.
    extra = [
        (epa_landscapes.plot_landscape_2d, "active",
         {"result": ls.landscape_2d("triangle", 1.0, n_grid=10), "color": "active"}),
        (fr_mechanism.plot_row_view, "hebbian",
         {"result": lm.score_mechanism_sweep(d=8, alphas=(0.3,), problem="original", seed=0)
          .at(0.3), "rule": "hebbian"}),
        (fr_spectra.plot_spectrum_comparisons, "mp_product",
         {"comparisons": [lm.spectrum_comparison(np.eye(4), "mp_product", bins=4)]}),
        (as_spectra.plot_spectrum, "mean gains",
         {"view": at.spectrum_view(N=20, alpha=0.25, patterns=1, gain_mode="mean")}),
        (as_spectra.plot_spectrum, "shuffled gains",
         {"view": at.spectrum_view(N=20, alpha=0.25, patterns=1, gain_mode="shuffled")}),
    ]  # fmt: skip
    for func, tag, kwargs in extra:
        cases.append(pytest.param(func, kwargs, id=f"{func.__name__}[{tag}]"))
    return cases


@pytest.mark.parametrize(("plot", "kwargs"), _figure_cases())
def test_figure_texts_have_no_raw_notation(plot: Any, kwargs: dict[str, Any]) -> None:
    fig = plot.call(**kwargs) if hasattr(plot, "call") else plot(**kwargs)
    if not isinstance(fig, go.Figure):
        pytest.skip(f"returns {type(fig).__name__}, not a figure")
    bad = [
        f"{where}: {text!r} ({', '.join(frags)})"
        for where, text in visible_texts(fig)
        if isinstance(text, str) and (frags := raw_notation(text))
    ]
    assert not bad, "raw notation in figure text:\n" + "\n".join(bad)


def test_collector_sees_every_kind_of_text() -> None:
    # One figure carrying each kind of text once, each with raw notation: the collector must
    # report all of them, or a text kind could slip past the figure test unchecked.
    fig = go.Figure(
        data=[
            go.Scatter(y=[0, 1], name="legend a_b", hovertemplate="%{y} hover c_d<extra></extra>"),
            go.Heatmap(z=[[0, 1]], colorbar={"title": {"text": "bar e_f"}}, showlegend=False),
            go.Table(header={"values": ["head g_h"]}, cells={"values": [["cell i^j"]]}),
        ],
        layout={
            "title": {"text": "title k_l"},
            "xaxis": {"title": {"text": "x m_n"}},
            "yaxis2": {"title": {"text": "y o^p"}},
            "legend": {"title": {"text": "legend q_r"}},
            "annotations": [{"text": "note s_t"}],
            "sliders": [{"currentvalue": {"prefix": "u_v = "}, "steps": [{"label": "w^x"}]}],
            "updatemenus": [{"buttons": [{"label": "menu y_z"}]}],
        },
    )
    found = [t for _, t in visible_texts(fig) if isinstance(t, str) and raw_notation(t)]
    assert len(found) == 13, found


@pytest.mark.parametrize(
    "text",
    ["r_i^μ", "λ^μ_mem", "α_S^bulk", "x_{ab}", "e^(−2αd)", "(W r)_i", "2^M − 1", "MP_κ⊠MP_κ",
     "Δλ_mem", "\\alpha", "$x^2$", "alpha_s", "θ*_bulk", "J*_μ", "x′_i"],
)  # fmt: skip
def test_raw_notation_is_flagged(text: str) -> None:
    assert raw_notation(text)


@pytest.mark.parametrize(
    "text",
    ["r<sub>i</sub><sup>μ</sup>", "λ<sup>μ</sup><sub>mem</sub>", "α<sub>S</sub><sup>bulk</sup>",
     "p⁻ᵖ = %{customdata[0]:.3f}", "radius₉₀ 0.5<br>M² V<sub>d</sub>", "a _ b", "x ^ 2",
     "brute force (exp_LMIN0.py)", "%{x:.3f}<extra>λ<sub>mem</sub>, Eq. 15</extra>"],
)  # fmt: skip
def test_rendered_notation_is_allowed(text: str) -> None:
    assert not raw_notation(text)
