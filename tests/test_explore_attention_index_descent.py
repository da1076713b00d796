"""Tests for explore.attention_index.descent: the gradient-descent views and their figures.

The views wrap :func:`assocmem.quadratic.descent.gd_quadnet`, GAMP-RIE and the Bayes-optimal
theory; the tests check that they return exactly what those library calls give on the same
seeds, and the invariants of the averaging curves. Sizes are tiny (d <= 12, a few hundred steps).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem.explore.attention_index import descent as plots
from assocmem.quadratic import bayes, gamp
from assocmem.quadratic.descent import gd_quadnet, prefix_mean_errors
from assocmem.quadratic.sensing import sample_sensing

SMALL = {"d": 12, "runs": 4, "steps": 300, "lr": 0.03}


@pytest.fixture(scope="module")
def inst():
    return plots.gd_instances(0.2, instances=2, record_every=50, rng=0, **SMALL)


@pytest.fixture(scope="module")
def sweep():
    return plots.gd_sweep([0.1, 0.2, 0.6], rng=1, **SMALL)


class TestGdInstances:
    def test_equals_the_library_calls_on_the_same_draws(self, inst):
        gen = np.random.default_rng(0)
        for i in range(2):
            data = sample_sensing(12, 0.5, 0.2, rng=gen)
            res = gd_quadnet(data, 0.5, runs=4, steps=300, lr=0.03, rng=gen)
            np.testing.assert_allclose(inst.errors[i], res.error_single, rtol=1e-10)
            np.testing.assert_allclose(
                inst.prefix[i], prefix_mean_errors(res.A_runs, data.A), rtol=1e-10
            )
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = gamp.gamp_rie(data, 0.5, max_iter=80, tol=1e-6).error[-1]
            assert inst.gamp[i] == pytest.approx(ref, rel=1e-12)

    def test_prefix_starts_at_run_one_and_ends_at_the_mean(self, inst):
        np.testing.assert_allclose(inst.prefix[:, 0], inst.errors[:, 0], rtol=1e-12)
        ends = [r.error_mean for r in inst.results]
        np.testing.assert_allclose(inst.prefix[:, -1], ends, rtol=1e-12)

    def test_only_the_first_instance_has_a_trajectory(self, inst):
        assert inst.results[0].record_steps.tolist() == [0, 50, 100, 150, 200, 250, 300]
        assert inst.results[1].record_steps is None

    def test_mmse_is_the_bayes_optimal_value(self, inst):
        # note §6.4: 0.3922 at ρ = 0.5, α = 0.2
        assert inst.mmse == pytest.approx(bayes.bo_mmse(0.2, 0.5).mmse, rel=1e-12)
        assert inst.mmse == pytest.approx(0.3922, abs=1e-4)

    def test_work_cap(self):
        with pytest.raises(ValueError, match="steps"):
            plots.gd_instances(5.0, d=200, runs=256, steps=100_000)


class TestGdSweep:
    def test_shapes_and_theory(self, sweep):
        assert sweep.errors.shape == sweep.prefix.shape == sweep.train_mse.shape == (3, 4)
        np.testing.assert_allclose(sweep.mmse, bayes.bo_mmse(sweep.alpha, 0.5).mmse, rtol=1e-12)
        assert sweep.curve_alpha[0] < 1e-3 and np.all(np.diff(sweep.curve_mmse) <= 0)
        assert sweep.alpha_pr == 0.375
        assert sweep.curve_alpha[-1] >= 0.6

    def test_averaging_helps_below_and_nothing_is_left_above_alpha_pr(self, sweep):
        # below α_PR the runs differ; above it (α = 0.6) they all approach A*
        assert np.all(sweep.prefix[:2, -1] < 0.8 * sweep.errors[:2].mean(axis=1))
        assert sweep.errors[2].mean() < 0.2 * sweep.errors[0].mean()

    def test_alphas_must_increase(self):
        with pytest.raises(ValueError, match="alphas"):
            plots.gd_sweep([0.2, 0.1], **SMALL)


class TestSweepView:
    def test_nearest_alpha_and_runs(self, sweep):
        view = plots.sweep_view(sweep, 0.19, 3)
        assert view.index == 1 and view.runs == 3 and view.sweep is sweep

    def test_runs_capped_by_the_sweep(self, sweep):
        with pytest.raises(ValueError, match="runs"):
            plots.sweep_view(sweep, 0.2, 5)


class TestPlots:
    def test_training_figure(self, inst):
        fig = plots.plot_training(inst)
        assert isinstance(fig, go.Figure)
        # two traces per run (error, training MSE), the mean and two reference levels
        assert len(fig.data) == 2 * 4 + 3
        assert fig.layout.yaxis2.type == "log"

    def test_training_needs_a_trajectory(self, inst):
        bare = plots.gd_instances(0.2, instances=1, rng=0, **SMALL)
        with pytest.raises(ValueError, match="instances"):
            plots.plot_training(bare)

    def test_averaging_figure(self, inst):
        fig = plots.plot_averaging(inst)
        assert len(fig.data) == 2 * 2 + 1
        np.testing.assert_allclose(fig.data[0].y, inst.prefix[0])

    def test_sweep_figure_follows_the_view(self, sweep):
        fig = plots.plot_sweep(plots.sweep_view(sweep, 0.2, 2))
        named = {t.name: t for t in fig.data}
        np.testing.assert_allclose(named["mean of 2 runs"].y, sweep.prefix[:, 1])
        np.testing.assert_allclose(named["m̄"].y, sweep.prefix[1, :2])


GPU_JSON = Path(__file__).parents[1] / "benchmarks" / "results" / "gpu_quadratic_scale_h200.json"


class TestGpuScale:
    def test_reads_the_stored_gpu_rows(self):
        # benchmarks/gpu_quadratic_scale.py on an H200: d = 100, 200, 300 at four Adam rates.
        scale = plots.load_gpu_scale(GPU_JSON)
        assert set(scale.d) == {100, 200, 300} and scale.runs == 64
        assert scale.mmse == pytest.approx(bayes.bo_mmse(scale.alpha, scale.rho).mmse, abs=1e-12)
        # every run interpolated; GAMP-RIE on the instances within 5 % of the d → ∞ MMSE
        assert scale.train.max() < 1e-2
        assert np.all(np.abs(scale.gamp / scale.mmse - 1) < 0.05)

    def test_figure_plots_the_two_ratios(self):
        scale = plots.load_gpu_scale(GPU_JSON)
        fig = plots.plot_gpu_scale(scale)
        first = scale.lr == scale.lr.max()
        expected = scale.averaged[first] / (scale.gamp[first] * (1 + 1 / scale.runs))
        np.testing.assert_allclose(fig.data[0].y, expected)
        np.testing.assert_allclose(fig.data[1].y, scale.single[first] / (2 * scale.gamp[first]))

    def test_a_file_without_rows_is_refused(self, tmp_path):
        bad = tmp_path / "rows.json"
        bad.write_text('{"meta": {}, "rows": []}', encoding="utf-8")
        with pytest.raises(ValueError, match="no rows"):
            plots.load_gpu_scale(bad)
        bad.write_text("not json", encoding="utf-8")
        with pytest.raises(ValueError, match="not a JSON"):
            plots.load_gpu_scale(bad)
