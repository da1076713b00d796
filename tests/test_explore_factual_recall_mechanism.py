"""Tests for explore.factual_recall.mechanism: figures built from score-mechanism results."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.explore._layout import legend_on_top
from assocmem.explore.factual_recall import mechanism as plots
from assocmem.linear_memory.mechanism import score_mechanism, score_mechanism_sweep


@pytest.fixture(scope="module")
def sweep():
    return score_mechanism_sweep(d=16, alphas=(0.3, 0.6, 1.2), problem="original", seed=0)


def _vlines(fig: go.Figure) -> list[float]:
    return [s.x0 for s in fig.layout.shapes if s.type == "line" and s.x0 == s.x1]


class TestPlotScoreHistograms:
    def test_two_panels_of_target_and_non_target_densities(self, sweep):
        r = sweep.at(0.6)
        fig = plots.plot_score_histograms(r)
        assert isinstance(fig, go.Figure)
        bars = [t for t in fig.data if t.type == "bar"]
        assert len(bars) == 4 and [t.xaxis for t in bars] == ["x", "x", "x2", "x2"]
        assert [t.showlegend for t in bars] == [True, True, False, False]
        for t in bars:  # pre-binned densities: area 1 each
            assert float(np.sum(np.asarray(t.y) * np.asarray(t.width))) == pytest.approx(1.0)
        # the two lines are named in the legend (dashed, dotted), not by labels on the bars
        keys = [t for t in fig.data if t.type == "scatter"]
        assert [(t.name, t.line.dash) for t in keys] == [
            ("√(2 log p)", "dash"), ("E M<sub>p−1</sub>", "dot")]
        # the read-outs sit in the top 40 % of each panel, above the tallest bar
        for ya, pair in (("yaxis", bars[:2]), ("yaxis2", bars[2:])):
            tallest = max(float(np.max(t.y)) for t in pair)
            assert tallest <= 0.6 * fig.layout[ya].range[1] + 1e-12
        # √(2 log p) and E M_{p-1} in both panels, and the read-outs
        lines = _vlines(fig)
        assert lines.count(r.extreme_value) == 2 and lines.count(r.expected_max) == 2
        texts = " ".join(a.text for a in fig.layout.annotations)
        assert f"accuracy {r.trained.accuracy:.3f}" in texts
        assert f"target {r.hebbian.target_mean:.2f} ± {r.hebbian.target_std:.2f}" in texts
        assert legend_on_top(fig)  # legend above the panels: the book's slider sits below

    def test_static_exploration_over_alpha_and_problem(self):
        fig = explore.static_figure(
            score_mechanism,
            plots.plot_score_histograms,
            [explore.Slider("alpha", 0.2, 1.2, steps=2),
             explore.Choice("problem", ("original", "decoupled"))],
            {"d": 10},
        )
        assert len(fig.layout.sliders) == 2 and len(fig.layout.sliders[0].steps) == 2
        assert len(fig.layout.updatemenus[0].buttons) == 2
        assert sum(bool(t.visible) for t in fig.data) == 6


class TestPlotHistogramGrid:
    def test_fig4_layout_rows_trained_and_hebbian(self, sweep):
        fig = plots.plot_histogram_grid(sweep.results)
        n = len(sweep.results)
        assert len(fig.data) == 4 * n + 2  # and the legend entries of the two lines
        assert not any("log p" in (a.text or "") for a in fig.layout.annotations)
        axes = {t.xaxis for t in fig.data if t.type == "bar"}
        assert axes == {"x"} | {f"x{k}" for k in range(2, 2 * n + 1)}
        titles = [a.text for a in fig.layout.annotations if a.yref == "paper"]
        assert titles[0].startswith("trained, α = 0.30") and titles[n].startswith("Hebbian")
        assert fig.layout.yaxis.domain[0] > fig.layout[f"yaxis{n + 1}"].domain[1]


class TestPlotTargetSpread:
    def test_trained_and_hebbian_std_and_accuracy(self, sweep):
        fig = plots.plot_target_spread({"OP d = 16": sweep, "again": sweep})
        assert len(fig.data) == 8
        std = fig.data[0]
        assert std.name == "OP d = 16, trained"
        np.testing.assert_allclose(std.y, sweep.stat("trained", "target_std"))
        np.testing.assert_allclose(fig.data[3].y, sweep.stat("hebbian", "accuracy"))
        assert fig.data[2].line.dash == "dot"
        assert 0.5 in _vlines(fig)  # asymptotic α_c = 1/2 (Conj. 1)
        assert any(s.y0 == 0.6 for s in fig.layout.shapes)  # note C18 bound

    def test_no_bound_line(self, sweep):
        fig = plots.plot_target_spread({"OP": sweep}, std_bound=None)
        assert not any(s.y0 == 0.6 and s.y1 == 0.6 for s in fig.layout.shapes)


class TestPlotExtremeValue:
    def test_reference_lines_and_statistics(self, sweep):
        fig = plots.plot_extreme_value(sweep)
        by_name = {t.name: t for t in fig.data if t.name}
        np.testing.assert_allclose(by_name["√(2 log p) (paper §3.3)"].y, sweep.extreme_value)
        em = next(t for n, t in by_name.items() if n.startswith("E M"))
        np.testing.assert_allclose(em.y, sweep.expected_max)
        np.testing.assert_allclose(by_name["trained: mean row max"].y,
                                   sweep.stat("trained", "row_max_mean"))
        assert fig.data[0].fill == "toself"  # ±1 std band of the trained targets


class TestPlotRowView:
    @pytest.mark.parametrize("rule", ["trained", "hebbian"])
    def test_weakest_row_against_aggregate(self, sweep, rule):
        r = sweep.at(0.6)
        view = getattr(r, f"{rule}_row")
        fig = plots.plot_row_view(r, rule=rule)
        assert [t.type for t in fig.data] == ["bar", "bar", "scatter", "scatter", "bar",
                                              "scatter", "scatter", "histogram", "histogram"]
        assert _vlines(fig).count(view.target) == 2 and view.row_max in _vlines(fig)
        assert int(np.sum(fig.data[4].y)) == r.p - 1  # the row's competitors, as counts
        np.testing.assert_allclose(fig.data[7].x, r.trained.margins)
        # every line style in the figure has its legend entry, none means two things
        keys = [(t.line.dash, t.line.color) for t in fig.data if t.type == "scatter"]
        assert len(set(keys)) == len(keys) == 4
        title = fig.layout.title.text.replace("<br>", " ")  # the layout wraps long titles
        assert f"{100 * view.aggregate_above:.1f} %" in title
        verdict = "recalled" if view.recalled else "not recalled"
        middle = [a.text.replace("<br>", " ") for a in fig.layout.annotations
                  if a.text.startswith("row μ")]
        assert len(middle) == 1 and middle[0].endswith(f"alone: {verdict}")
        # the values of the middle panel's two lines are in their legend entries
        names = [t.name for t in fig.data]
        assert f"that row's target ({view.target:.2f})" in names
        assert f"its strongest competitor ({view.row_max:.2f})" in names

    def test_bad_rule(self, sweep):
        with pytest.raises(ValueError, match="rule must be one of"):
            plots.plot_row_view(sweep.results[0], rule="optimal")


class TestSummaryTable:
    def test_height_follows_the_rows(self, sweep):
        def area(sweeps):
            fig = plots.summary_table(sweeps)
            return fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
        one, two = area({"OP d = 16": sweep}), area({"OP d = 16": sweep, "DP d = 16": sweep})
        n = len(sweep.results)
        # every row gets at least the cell height; the wrapped header more than one line
        assert two - one >= n * 24 and one >= n * 24 + 2 * 15

    def test_one_row_per_load(self, sweep):
        fig = plots.summary_table({"OP d = 16": sweep})
        table = fig.data[0]
        assert isinstance(table, go.Table)
        cells = table.cells.values
        assert len(cells) == len(table.header.values) == 15
        assert list(cells[2]) == [str(p) for p in sweep.p]
        assert list(cells[3]) == [f"{a:.3f}" for a in sweep.stat("trained", "accuracy")]
