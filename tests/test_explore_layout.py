"""Tests of :mod:`assocmem.explore._layout`, the one layout of every chapter figure.

The rules (module docstring of ``_layout``): a strip at the top for the hover toolbar; title,
legend, menu and subplot titles each in their own row; the slider below the x axes; gaps
between panels that hold the right panel's y-axis texts; decade ticks on log axes spanning a
decade or more. The last class checks them on one figure of every public plot function (the
baselines of the bad-input matrix).
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest
from test_bad_input_explore import BASELINES

from assocmem import explore
from assocmem.explore import _layout
from assocmem.explore._layout import (
    COLUMN_WIDTH,
    MODEBAR_STRIP,
    legend_on_top,
    text_width,
    tidy,
)
from assocmem.explore._panels import _panels


def _title_top(fig: go.Figure) -> float:
    """Px from the figure's top to the top of the title's first line (plotly's anchoring)."""
    title = fig.layout.title
    height = float(fig.layout.height or 450)
    size = float(title.font.size or 17)
    return (1.0 - title.y) * height - size


def _legend_top(fig: go.Figure) -> float:
    return (1.0 - fig.layout.legend.y) * float(fig.layout.height or 450)


def _two_lines(n_legend: int = 2, title: str = "a title") -> go.Figure:
    traces = [
        go.Scatter(x=[1, 2, 3], y=[1, 4, 9], name=f"curve number {k}") for k in range(n_legend)
    ]
    return go.Figure(traces, layout={"title": {"text": title}, "height": 400})


class TestTextWidth:
    def test_grows_with_text_and_size(self):
        assert text_width("abcdef", 12) > text_width("abc", 12) > 0
        assert text_width("abc", 24) == pytest.approx(2 * text_width("abc", 12))

    def test_tags_do_not_count_and_scripts_are_small(self):
        # <sub>/<sup> text is drawn at 70 % of the size (plotly.js)
        assert text_width("<b>r</b>", 12) == pytest.approx(text_width("r", 12))
        assert text_width("r<sub>i</sub>", 12) == pytest.approx(
            text_width("r", 12) + 0.7 * text_width("i", 12)
        )


class TestTitle:
    def test_title_sits_below_the_toolbar_strip(self):
        fig = tidy(_two_lines())
        assert fig.layout.title.yref == "container"
        assert _title_top(fig) >= MODEBAR_STRIP - 1

    def test_long_title_wraps_to_the_figure_width(self):
        words = " ".join(f"word{k}" for k in range(40))
        fig = tidy(_two_lines(title=words))
        lines = fig.layout.title.text.split("<br>")
        assert len(lines) >= 3
        assert all(text_width(line, 17) <= COLUMN_WIDTH - 40 for line in lines)
        assert " ".join(lines) == words  # nothing lost, only line breaks added

    def test_each_title_line_gets_its_row(self):
        one = tidy(_two_lines(title="short"))
        three = tidy(_two_lines(title="a<br>b<br>c"))
        # two more lines of 17 px text at a line height of 1.3
        assert three.layout.margin.t - one.layout.margin.t == pytest.approx(2 * 1.3 * 17, abs=1)
        assert _legend_top(three) - _legend_top(one) == pytest.approx(2 * 1.3 * 17, abs=1)

    def test_tidy_is_idempotent(self):
        fig = tidy(_two_lines(n_legend=5, title="a long title " * 8))
        before = fig.layout.to_plotly_json()
        assert tidy(fig).layout.to_plotly_json() == before


class TestLegend:
    def test_legend_is_horizontal_below_the_title_and_above_the_plot(self):
        fig = tidy(_two_lines())
        assert legend_on_top(fig)
        assert _legend_top(fig) >= _title_top(fig) + 1.3 * 17

    def test_many_entries_reserve_more_rows(self):
        few, many = tidy(_two_lines(n_legend=2)), tidy(_two_lines(n_legend=12))
        rows = _layout.measure(many)["legend"]
        assert rows >= 3 and _layout.measure(few)["legend"] == 1
        assert many.layout.margin.t - few.layout.margin.t >= (rows - 1) * 20

    def test_room_below_the_legend_keeps_plotly_from_moving_the_plot(self):
        # plotly.js adds a container legend's extent to the top margin unless the margin
        # leaves that much room above the tallest push (tick labels, menu): see tidy's Notes.
        fig = tidy(_two_lines(n_legend=3))
        rows = _layout.measure(fig)["legend"]
        legend_bottom = _legend_top(fig) + rows * 21
        assert fig.layout.margin.t - legend_bottom >= 20

    def test_one_trace_has_no_legend(self):
        fig = tidy(go.Figure(go.Scatter(y=[1, 2], name="alone")))
        assert fig.layout.showlegend is False

    def test_hidden_entries_do_not_count(self):
        traces = [go.Scatter(y=[1, 2], name="a"), go.Scatter(y=[1, 2], name="b")]
        traces += [go.Scatter(y=[1, 2], name=f"hidden {k}", visible=False) for k in range(20)]
        assert _layout.measure(go.Figure(traces))["legend"] == 1


class TestLogAxes:
    def test_axis_over_decades_gets_decade_ticks(self):
        x = np.geomspace(1e-3, 1e2, 30)
        fig = tidy(go.Figure(go.Scatter(x=x, y=x), layout={"xaxis": {"type": "log"}}))
        assert fig.layout.xaxis.dtick == 1 and fig.layout.xaxis.exponentformat == "power"

    def test_crowded_decades_are_thinned_to_every_kth(self):
        y = np.geomspace(1e-12, 1e12, 30)  # 24 decades on a 400 px tall figure
        fig = tidy(go.Figure(go.Scatter(x=y, y=y), layout={"yaxis": {"type": "log"}}))
        step = fig.layout.yaxis.dtick
        assert isinstance(step, int) and step >= 2
        plot_h = 450 - fig.layout.margin.t - fig.layout.margin.b
        assert plot_h / (24 * 1.1 / step) >= 20  # a label row of 20 px per labelled decade

    def test_short_span_keeps_plotly_ticks(self):
        x = np.linspace(2.0, 5.0, 10)  # 0.4 decades: no decade inside, plotly's ticks stay
        fig = tidy(go.Figure(go.Scatter(x=x, y=x), layout={"xaxis": {"type": "log"}}))
        assert fig.layout.xaxis.dtick is None

    def test_almost_a_decade_is_widened_to_two_decades(self):
        x = np.linspace(1.5, 11.0, 10)  # 0.87 decades: one decade tick only inside
        fig = tidy(go.Figure(go.Scatter(x=x, y=x), layout={"xaxis": {"type": "log"}}))
        assert list(fig.layout.xaxis.range) == [0, 2] and fig.layout.xaxis.dtick == 1

    def test_chosen_ticks_on_less_than_a_decade_keep_the_range_under_a_decade(self):
        x = [4.0, 8.0, 16.0, 32.0]
        layout = {"xaxis": {"type": "log", "tickvals": x}}
        fig = tidy(go.Figure(go.Scatter(x=x, y=x, mode="markers"), layout=layout))
        lo, hi = fig.layout.xaxis.range
        assert hi - lo < 1 and lo < math.log10(4) and hi > math.log10(32)


class TestPanels:
    def test_gap_holds_the_right_panels_tick_labels_and_title(self):
        layout = {
            "xaxis": {"domain": [0.0, 0.5]},
            "xaxis2": {"domain": [0.51, 1.0]},
            "yaxis2": {"anchor": "x2", "title": {"text": "a long y-axis title"}},
            "yaxis": {},
        }
        traces = [
            go.Scatter(y=[1000.5, 2000.5]),
            go.Scatter(y=[-0.00125, 1], xaxis="x2", yaxis="y2"),
        ]
        fig = tidy(go.Figure(traces, layout=layout))
        gap_px = (fig.layout.xaxis2.domain[0] - fig.layout.xaxis.domain[1]) * (COLUMN_WIDTH - 90)
        need = text_width("−0.0005", 12) + 1.3 * 14  # tick label and one title line
        assert gap_px >= need

    def test_long_subplot_titles_wrap_to_their_panel(self):
        layout, _ = _panels(["a rather long subplot title for a narrow panel"] * 3)
        fig = tidy(go.Figure(layout=layout))
        plot_w = COLUMN_WIDTH - 90
        for ann in fig.layout.annotations:
            panel = next(
                fig.layout[k].domain
                for k in ("xaxis", "xaxis2", "xaxis3")
                if fig.layout[k].domain[0] <= ann.x <= fig.layout[k].domain[1]
            )
            room = (panel[1] - panel[0]) * plot_w
            size = ann.font.size or 15
            assert all(text_width(line, size) <= room for line in ann.text.split("<br>"))


@pytest.fixture(scope="module")
def static():
    """A precomputed exploration: a slider, and a menu whose options differ in title length."""

    def plot(r):
        return go.Figure(
            [go.Scatter(x=[1, 2], y=[0, r[0]], name="a"), go.Scatter(y=[1, 2], name="b")],
            layout={
                "title": {"text": "value " * (30 if r[1] == "long" else 1)},
                "xaxis": {"title": {"text": "x"}},
            },
        )

    return explore.static_figure(
        lambda a, b: (a, b),
        plot,
        [explore.Slider("a", 0.0, 1.0, steps=3), explore.Choice("b", ("short", "long"))],
    )


class TestStaticFigure:
    def test_slider_spans_the_width_below_the_x_axis(self, static):
        fig = static
        for slider in fig.layout.sliders:
            assert slider.x == 0 and slider.len == 1 and slider.yanchor == "top"
            # below tick labels (8 + 8 + 15.6 px) and the axis title (12 + 18.2 px)
            assert slider.pad.t >= 60

    def test_menu_has_its_own_row_above_the_plot(self, static):
        fig = static
        menu = fig.layout.updatemenus[0]
        assert menu.y == 1 and menu.yanchor == "bottom" and menu.direction == "down"
        # the header (33 px) sits between the legend's bottom and the plotting area
        legend_bottom = _legend_top(fig) + 21
        menu_top = fig.layout.margin.t - menu.pad.b - 33
        assert menu_top >= legend_bottom and menu.pad.b >= 0

    def test_every_step_shares_the_tallest_title(self, static):
        # the first option's title is one line, the second's three: all steps get three rows
        long = static.layout.updatemenus[0].buttons[1].args[1]["title.text"]
        assert static.layout.title.text.count("<br>") == 0 and long.count("<br>") >= 2
        rows = long.count("<br>") + 1
        assert static.layout.margin.t >= MODEBAR_STRIP + rows * 1.3 * 17 + 21 + 51


def _figures():
    for baseline in BASELINES:
        out = baseline.call()
        if isinstance(out, go.Figure):
            yield pytest.param(out, id=baseline.name)
        elif hasattr(out, "figure"):
            yield pytest.param(out.figure, id=baseline.name)


def _axes(fig):
    return [k for k in fig.layout.to_plotly_json() if k[1:5] == "axis" and k[0] in "xy"]


@pytest.mark.parametrize("fig", list(_figures()))
class TestEveryPlotFunction:
    def test_title_below_the_toolbar_strip(self, fig):
        if fig.layout.title.text:
            assert fig.layout.title.yref == "container"
            assert _title_top(fig) >= MODEBAR_STRIP - 1

    def test_legend_in_its_row_on_top(self, fig):
        if fig.layout.showlegend:
            assert legend_on_top(fig)

    def test_log_axes_over_a_decade_tick_at_decades(self, fig):
        for key in _axes(fig):
            ax = fig.layout[key]
            if ax.type != "log" or ax.tickvals is not None:
                continue
            lo, hi = _layout._log_span(fig, key)
            if ax.range is not None:
                lo, hi = sorted(ax.range)
            if lo is not None and hi - lo >= 1:
                assert isinstance(ax.dtick, int) and ax.dtick >= 1, key
                assert ax.exponentformat == "power", key

    def test_sliders_full_width_and_menus_above(self, fig):
        for slider in fig.layout.sliders:
            assert slider.x == 0 and slider.len == 1 and slider.pad.t >= 30
        for menu in fig.layout.updatemenus:
            assert menu.y == 1 and menu.yanchor == "bottom"
