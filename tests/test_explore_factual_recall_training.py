"""Tests for explore.factual_recall.training (and common.plot_accuracy_curves): figures built
from the results of assocmem.linear_memory.sweep. Results are small synthetic objects or cheap
runs at d <= 15, so the figures' structure is tested, not the science."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.explore.factual_recall import common as fr_common
from assocmem.explore.factual_recall import training as fr_training
from assocmem.linear_memory import (
    AccuracySweep,
    ThresholdScan,
    learning_curve,
    learning_rate,
)


def _sweep(hebbian: bool = True, reps: int = 2, problem: str = "original") -> AccuracySweep:
    eff = np.array([0.3, 0.6, 0.9])
    acc = np.array([[1.0, 1.0], [1.0, 0.98], [0.6, 0.7]])[:, :reps]
    return AccuracySweep(
        d=20, alpha=eff, p=np.array([40, 70, 100]), alpha_eff=eff, accuracy=acc,
        hebbian=np.full(acc.shape, 0.5) if hebbian else None, loss=np.zeros(acc.shape),
        steps=np.zeros(acc.shape, dtype=int), problem=problem, kappa=1.0,
    )


def _scan(budget: int = 512) -> ThresholdScan:
    return ThresholdScan(
        d=np.array([20, 30]), alpha=np.array([0.7, 0.8, 0.9]),
        first_violation=np.array([0.8, math.nan]), last_clean=np.array([0.7, 0.9]),
        first_index=np.array([1, 3]), first_rep=np.array([0, -1]),
        p_first=np.array([74, 160]), finite_p=np.array([0.97, 0.93]),
        finite_p_stderr=np.array([0.006, 0.004]), finite_p_step=np.array([0.62, 0.61]),
        runs=np.array([4, 9]),
        reps=3, budget=budget, lr=1e-2, problem="original", kappa=1.0,
    )


@pytest.fixture(scope="module")
def curve():
    return learning_curve(12, 1.5, steps=40)


class TestPlotAccuracyCurves:
    def test_band_mean_and_hebbian_traces(self):
        fig = fr_common.plot_accuracy_curves(_sweep(), thresholds={"α_c = 1/2": 0.5})
        assert isinstance(fig, go.Figure)
        # ±1 std band (no legend), mean, Hebbian dotted
        assert [t.name for t in fig.data] == [None, "OP d = 20, trained", "OP d = 20, Hebbian"]
        np.testing.assert_allclose(fig.data[1].y, [1.0, 0.99, 0.65])
        assert fig.data[2].line.dash == "dot"
        assert [s.x0 for s in fig.layout.shapes] == [0.5]

    def test_one_repetition_has_no_band_and_hebbian_can_be_hidden(self):
        fig = fr_common.plot_accuracy_curves([_sweep(reps=1), _sweep(problem="decoupled")],
                                             hebbian=False)
        assert [t.name for t in fig.data] == ["OP d = 20, trained", None, "DP d = 20, trained"]

    def test_threshold_labels_clear_of_curves_and_lines(self):
        # curves at accuracy 1 right of every threshold: a label at the top would sit on them
        marks = {"first (a long label, 0.30)": 0.3, "second = 0.35": 0.35, "third": 0.4}
        fig = fr_common.plot_accuracy_curves(_sweep(), thresholds=marks)
        notes = {a.text: a for a in fig.layout.annotations}
        lines = {s.x0: s for s in fig.layout.shapes}
        mean = fig.data[1]
        ys = [notes[name].y for name in marks]
        assert ys == sorted(ys, reverse=True)  # left to right ever lower
        for name, x in marks.items():
            y = notes[name].y
            # the curve near the label's left end lies well away from its middle
            assert abs(np.interp(x, mean.x, mean.y) - y) > 0.03
            # its own line stops below it; the lines to its right stop below it too
            assert lines[x].y1 < y
            assert all(s.y1 < y for x0, s in lines.items() if x0 > x)

    def test_labels_must_match_sweeps(self):
        with pytest.raises(ValueError):
            fr_common.plot_accuracy_curves([_sweep(), _sweep()], labels=["one"])


class TestPlotSchedule:
    def test_one_line_per_budget(self):
        sched = {T: [learning_rate(t, steps=T) for t in range(T)] for T in (64, 256)}
        fig = fr_training.plot_schedule(sched)
        assert [t.name for t in fig.data] == ["T = 64 steps", "T = 256 steps"]
        assert len(fig.data[1].x) == 256 and fig.layout.xaxis.type == "log"
        assert max(fig.data[0].y) == pytest.approx(1e-2)

    def test_empty_mapping_is_rejected(self):
        with pytest.raises(ValueError, match="schedules"):
            fr_training.plot_schedule({})


class TestPlotTrainingVsHebbian:
    def test_reference_markers_are_added(self):
        ref = {"note, trained": {0.5: 1.0, 0.9: 0.77}, "note, Hebbian": {0.5: 0.47}}
        fig = fr_training.plot_training_vs_hebbian(_sweep(), thresholds={"1/2": 0.5},
                                                   reference=ref)
        names = [t.name for t in fig.data]
        assert names[-2:] == ["note, trained", "note, Hebbian"]
        assert list(fig.data[-2].x) == [0.5, 0.9] and list(fig.data[-2].y) == [1.0, 0.77]
        assert fig.data[-1].marker.symbol == "diamond-open"

    def test_without_reference_equals_the_shared_figure(self):
        fig = fr_training.plot_training_vs_hebbian(_sweep())
        assert len(fig.data) == len(fr_common.plot_accuracy_curves(_sweep()).data)


class TestPlotThresholdScan:
    def test_intervals_estimate_and_asymptote(self):
        fig = fr_training.plot_threshold_scan(_scan(), reference={"LP": [(15, 1.0, 1.1)]})
        assert [t.name for t in fig.data] == [
            "CE + Adam, 512 steps, lr 0.01",
            "finite-p estimate α<sub>c</sub>(p) (ours, corrected; replica section)",
            "step-function estimate (superseded)", "LP"]
        scan_trace = fig.data[0]
        # the bar goes down from the first violation to the last clean load; NaN -> no bar
        np.testing.assert_allclose(scan_trace.error_y.arrayminus, [0.1, 0.0])
        # corrected estimate with its Monte-Carlo error bar; the step estimate drawn beside it
        np.testing.assert_allclose(fig.data[1].y, [0.97, 0.93])
        np.testing.assert_allclose(fig.data[1].error_y.array, [0.006, 0.004])
        np.testing.assert_allclose(fig.data[2].y, [0.62, 0.61])
        assert fig.data[3].y[0] == pytest.approx(1.05)
        assert [s.y0 for s in fig.layout.shapes] == [0.5]

    def test_two_budgets_side_by_side(self):
        fig = fr_training.plot_threshold_scan([_scan(), _scan(2048)], labels=["a", "b"])
        assert [t.name for t in fig.data][:2] == ["a", "b"]
        assert fig.data[0].x[0] < 20 < fig.data[1].x[0]


class TestPlotLearningCurve:
    def test_panels_and_reference_lines(self, curve):
        fig = fr_training.plot_learning_curve(curve)
        names = [t.name for t in fig.data]
        assert names == ["trained (CE + Adam)", "cross-entropy", "ln p (W = 0)",
                         "Hebbian, same facts"]
        assert len(fig.data[0].x) == curve.steps  # step 0 is left off the log axis
        assert fig.data[3].y[0] == curve.hebbian
        assert fig.data[2].y[0] == pytest.approx(math.log(curve.p))
        assert fig.layout.xaxis.range == (0.0, math.log10(40))
        assert f"p = {curve.p}" in fig.layout.title.text
        # the title gives the α the slider set (1.5), and the effective α of the integer p
        assert "α = 1.5 " in fig.layout.title.text
        assert f"effective α {curve.alpha_eff:.3f}" in fig.layout.title.text
        # the cross-entropy is the trained memory's: solid, as its legend entry shows
        assert fig.data[1].line.dash is None and fig.data[1].legendgroup == fig.data[0].name

    def test_low_rank_curve_has_no_hebbian_line(self):
        fig = fr_training.plot_learning_curve(learning_curve(12, 0.5, kappa=0.5, steps=5))
        assert "Hebbian, same facts" not in [t.name for t in fig.data]

    def test_static_exploration_over_load_and_budget(self):
        fig = explore.static_figure(
            learning_curve, fr_training.plot_learning_curve,
            [explore.Slider("alpha", 0.3, 1.2, steps=3), explore.Choice("steps", (16, 32))],
            {"d": 10},
        )
        assert len(fig.layout.sliders) == 2
        assert [len(s.steps) for s in fig.layout.sliders] == [3, 3]
        assert sum(bool(t.visible) for t in fig.data) == 4
