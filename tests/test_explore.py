"""Tests of assocmem.explore: parameter specs, static slider figures and the live widget."""

from __future__ import annotations

import base64
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from assocmem import explore as ex
from assocmem.explore._live import figure_message


def _line(result: tuple[float, str]) -> go.Figure:
    """A plot function: one line whose height is the slider value, named by the choice."""
    a, b = result
    return go.Figure(
        go.Scatter(x=[0, 1], y=[0, a], name=b),
        layout={"title": {"text": f"a={a:.3g} b={b}"}, "yaxis": {"range": [0, a + 1]}},
    )


def _compute(a: float, b: str = "x") -> tuple[float, str]:
    return float(a), b


class TestSetup:
    def test_same_seed_gives_same_draws(self):
        assert ex.setup(3).random() == ex.setup(3).random()

    def test_sets_book_renderer(self):
        ex.setup(0)
        assert pio.renderers.default == f"plotly_mimetype+{ex.BOOK_RENDERER}"

    def test_book_html_uses_page_plotly_not_a_cdn(self):
        ex.setup(0)
        html = ex.figure_html(go.Figure(go.Scatter(y=[1, 2])))
        assert "Plotly.newPlot" in html
        assert "cdn" not in html.lower() and "<script src" not in html

    def test_renderer_output_loads_nothing_from_the_network(self):
        ex.setup(0)
        fig = go.Figure(go.Scatter(y=[1, 2]), layout={"title": {"text": "β = 1"}})
        html = pio.renderers[ex.BOOK_RENDERER].to_mimebundle(fig.to_dict())["text/html"]
        assert "Plotly.newPlot" in html
        assert "http" not in html.replace("http://www.w3.org", "")  # no CDN plotly.js or MathJax

    def test_bad_seed_is_refused(self):
        with pytest.raises(TypeError, match="seed"):
            ex.setup("zero")

    @pytest.mark.parametrize("threads", [2.5, "2", True, None])
    def test_threads_must_be_an_int(self, threads):
        # issue 9: setup(threads=2.5) was accepted (int(2.5) = 2 threads)
        with pytest.raises(TypeError, match="threads"):
            ex.setup(0, threads=threads)

    def test_threads_must_be_positive(self):
        with pytest.raises(ValueError, match="threads"):
            ex.setup(0, threads=0)


class TestSlider:
    def test_log_steps_are_geometric(self):
        vals = ex.Slider("beta", 0.1, 10.0, steps=3, log=True).static_values()
        np.testing.assert_allclose(vals, [0.1, 1.0, 10.0])

    def test_integer_steps_are_unique_ints(self):
        vals = ex.Slider("M", 2, 5, steps=9, integer=True).static_values()
        assert vals == [2, 3, 4, 5]

    def test_initial_defaults_to_middle_step(self):
        assert ex.Slider("a", 0.0, 1.0, steps=5).initial() == 0.5

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"lo": 1.0, "hi": 1.0},
            {"lo": 0.0, "hi": 1.0, "log": True},
            {"lo": 0.0, "hi": 1.0, "value": 2.0},
        ],
    )
    def test_invalid_range_is_refused(self, kwargs):
        with pytest.raises(ValueError, match="slider"):
            ex.Slider("a", **kwargs)

    def test_each_argument_is_named_in_its_error(self):
        with pytest.raises(ValueError, match="steps"):
            ex.Slider("a", 0.0, 1.0, steps=ex._core.MAX_PRECOMPUTED + 1)  # capped: no huge grid
        with pytest.raises(TypeError, match="steps"):
            ex.Slider("a", 0.0, 1.0, steps=9.0)
        with pytest.raises(TypeError, match="log"):
            ex.Slider("a", 1.0, 2.0, log="yes")
        with pytest.raises(ValueError, match="values"):
            ex.Slider("a", 0.0, 1.0, values=(0.5, float("nan")))
        with pytest.raises(ValueError, match="name"):
            ex.Slider("not a keyword", 0.0, 1.0)
        with pytest.raises(ValueError, match="lo"):
            ex.Slider("a", float("-inf"), 1.0)

    def test_live_widget_spans_the_whole_range(self):
        w = ex.Slider("beta", 0.5, 50.0, log=True).widget()
        assert 10**w.min == pytest.approx(0.5) and 10**w.max == pytest.approx(50.0)

    def test_labels_render_sub_and_superscripts(self):
        # The book's static slider (plotly) renders <sub>; the live control must too.
        slider = ex.Slider("rho", 0.0, 1.0, label="ρ<sub>xy</sub>").widget()
        menu = ex.Choice("cv", (1.0, 2.0), label="σ<sub>x</sub>").widget()
        assert slider.description_allow_html and menu.description_allow_html


class TestStaticFigure:
    def test_one_visible_step_and_a_step_per_value(self):
        fig = ex.static_figure(_compute, _line, [ex.Slider("a", 1.0, 3.0, steps=3)])
        assert len(fig.data) == 3
        assert [t.visible for t in fig.data] == [False, True, False]
        assert len(fig.layout.sliders[0].steps) == 3

    def test_slider_steps_carry_each_steps_data_and_title(self):
        fig = ex.static_figure(_compute, _line, [ex.Slider("a", 1.0, 3.0, steps=3)])
        step = fig.layout.sliders[0].steps[2]
        visible = step.args[0]["visible"]
        shown = [t for t, v in zip(fig.data, visible, strict=True) if v]
        assert shown[0].y[1] == 3.0
        assert step.args[1]["title.text"] == "a=3 b=x"
        assert step.args[1]["yaxis.range"] == [0, 4.0]

    def test_a_choice_in_the_sliders_place_keeps_its_labels(self):
        # The first control becomes the book's slider; a Choice there shows its own labels.
        params = [ex.Choice("a", (1.0, 2.0), labels=("one", "∞"))]
        fig = ex.static_figure(_compute, _line, params)
        assert [st.label for st in fig.layout.sliders[0].steps] == ["one", "∞"]

    def test_dropdown_switches_between_sliders(self):
        params = [ex.Slider("a", 1.0, 2.0, steps=2), ex.Choice("b", ("x", "y"))]
        fig = ex.static_figure(_compute, _line, params)
        assert len(fig.data) == 4 and len(fig.layout.sliders) == 2
        button = fig.layout.updatemenus[0].buttons[1]
        assert button.method == "skip"  # the page's script restyles, then relayouts
        assert "plotly_buttonclicked" in ex.figure_html(fig)
        assert button.args[1]["sliders[1].visible"] is True
        assert button.args[1]["sliders[0].visible"] is False
        names = {t.name for t, v in zip(fig.data, button.args[0]["visible"], strict=True) if v}
        assert names == {"y"}

    def test_long_float_data_is_stored_as_float32(self):
        def heat(result: tuple[float, str]) -> go.Figure:
            return go.Figure(go.Heatmap(z=np.full((20, 20), result[0])))

        fig = ex.static_figure(_compute, heat, [ex.Slider("a", 1.0, 2.0, steps=2)])
        assert fig.data[0].z.dtype == np.float32
        assert float(fig.data[1].z[0, 0]) == 2.0

    def test_no_params_is_refused(self):
        with pytest.raises(ValueError, match="params"):
            ex.static_figure(_compute, _line, [])

    def test_precomputed_figures_are_capped(self):
        # 300 slider steps times 2 options = 600 figures > MAX_PRECOMPUTED = 500: refused before
        # any compute call, with the limit in the message
        params = [ex.Slider("a", 1.0, 2.0, steps=300), ex.Choice("b", ("x", "y"))]
        with pytest.raises(ValueError, match=r"params asks for 600 .* limit of 500"):
            ex.static_figure(_compute, _line, params)

    def test_callables_and_names_are_checked(self):
        slider = [ex.Slider("a", 1.0, 2.0, steps=2)]
        with pytest.raises(TypeError, match="compute"):
            ex.static_figure(None, _line, slider)
        with pytest.raises(TypeError, match="plot"):
            ex.explore(_compute, "line", slider)
        with pytest.raises(TypeError, match="compute"):  # _compute has no parameter c
            ex.static_figure(_compute, _line, [ex.Slider("c", 1.0, 2.0, steps=2)])
        with pytest.raises(ValueError, match="fixed"):
            ex.static_figure(_compute, _line, slider, {"a": 1.0})
        with pytest.raises(TypeError, match="params"):
            ex.static_figure(_compute, _line, [("a", 1.0, 2.0)])


class TestExploration:
    def test_bundle_has_widget_view_and_static_html(self):
        e = ex.explore(_compute, _line, [ex.Slider("a", 1.0, 3.0, steps=3)])
        bundle = e._repr_mimebundle_()
        assert "application/vnd.jupyter.widget-view+json" in bundle
        assert "Plotly.newPlot" in bundle["text/html"]

    def test_moving_a_control_recomputes_the_figure(self):
        e = ex.explore(_compute, _line, [ex.Slider("a", 1.0, 3.0, steps=3)])
        panel = e.widget()
        panel.children[0].value = 2.5
        live = panel.children[-1].figure
        assert live == figure_message(e.render(a=2.5))  # exactly what render gives
        assert live["layout"]["title"]["text"] == "a=2.5 b=x"

    def test_live_figure_uses_the_books_plot_config(self):
        # tidy() leaves room for the hover toolbar of PLOT_CONFIG; the live panel must show
        # that toolbar, not plotly's wider default one.
        from assocmem.explore._layout import PLOT_CONFIG

        panel = ex.explore(_compute, _line, [ex.Slider("a", 1.0, 3.0, steps=3)]).widget()
        assert panel.children[-1].config == PLOT_CONFIG
        assert 'model.get("config")' in panel.children[-1]._esm

    def test_one_control_change_sends_one_message(self, monkeypatch):
        # The old path sent a relayout, a deleteTraces and an addTraces message (three redraws
        # in the browser); the live figure sends the new figure as one state update.
        params = [ex.Slider("a", 1.0, 3.0, steps=3), ex.Choice("b", ("x", "y"))]
        panel = ex.explore(_compute, _line, params).widget()
        sent = []
        monkeypatch.setattr(panel.children[-1], "_send", lambda msg, buffers=None: sent.append(msg))
        panel.children[0].value = 2.5
        panel.children[1].value = "y"
        assert [(m["method"], sorted(m["state"])) for m in sent] == [("update", ["figure"])] * 2
        assert sent[-1]["state"]["figure"] == figure_message(_line((2.5, "y")))

    def test_invalid_value_shows_message_not_traceback(self):
        def picky(a: float) -> tuple[float, str]:
            if a > 2:
                raise ValueError(f"a must be <= 2, got {a}")
            return a, "x"

        e = ex.Exploration(picky, _line, [ex.Slider("a", 1.0, 2.0, steps=2)])
        panel = e.widget()
        e.compute = lambda a: picky(a + 5)
        panel.children[0].value = 1.5
        assert "a must be" in panel.children[1].value

    def test_live_heatmap_with_masked_cells_keeps_its_grid_and_gaps(self):
        # JSON has no NaN; the arrays travel as plotly.js typed arrays (float32, base64), where
        # a masked cell stays NaN (a gap) and the 2-D grid keeps its shape.
        def heat(a: float) -> go.Figure:
            z = np.full((2, 3), a)
            z[0, 0] = np.nan
            return go.Figure(go.Heatmap(x=[0.0, 1.0, 2.0], y=[5.0, 6.0], z=z))

        panel = ex.explore(lambda a: a, heat, [ex.Slider("a", 1.0, 2.0, steps=2)]).widget()
        panel.children[0].value = 1.25
        trace = panel.children[-1].figure["data"][0]
        assert trace["x"] == [0.0, 1.0, 2.0] and trace["z"]["shape"] == "2, 3"
        z = np.frombuffer(base64.b64decode(trace["z"]["bdata"]), dtype=trace["z"]["dtype"])
        assert np.isnan(z[0]) and z[4] == 1.25
        json.dumps(panel.children[-1].figure, allow_nan=False)  # a JSON-safe message

    def test_other_non_finite_values_become_gaps(self):
        fig = go.Figure(go.Scatter(x=[0.0, 1.0], y=[np.inf, 2.0]), layout={"title": "t"})
        fig.add_contour(z=np.array([[1.0, np.inf], [2.0, 3.0]]))
        live = figure_message(fig)
        assert live["data"][0]["y"] == [None, 2.0]
        z = np.frombuffer(base64.b64decode(live["data"][1]["z"]["bdata"]), dtype="f4")
        assert np.isinf(z[1]) and live["data"][1]["z"]["shape"] == "2, 2"
        json.dumps(live, allow_nan=False)

    def test_figure_message_takes_a_figure(self):
        with pytest.raises(TypeError, match="fig"):
            figure_message({"data": []})

    def test_render_is_pure(self):
        e = ex.explore(_compute, _line, [ex.Slider("a", 1.0, 3.0, steps=3)], b="z")
        assert e.render(a=1.5).to_plotly_json() == e.render(a=1.5).to_plotly_json()
        assert e.render(a=1.5).data[0].name == "z"
