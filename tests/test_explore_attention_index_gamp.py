"""Tests for explore.attention_index.gamp: the GAMP-RIE views and their figures.

Reference values: the Bayes-optimal MMSE (note §6.4 table, via ``assocmem.quadratic.bayes``), the
first-step formulas of the note's §7.2 (δ0² = (Δ + 2)/(4α), overlap 1 − (Δ + 2)/(4ᾱ)) and the
divergence without clipping of its §7.1 (d = 60, α <= 0.1).
"""

from __future__ import annotations

import warnings

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.explore.attention_index import gamp as plots
from assocmem.quadratic import bayes


@pytest.fixture(scope="module")
def trajectories():
    return plots.gamp_trajectories(0.2, d=30, seeds=(0, 1))


@pytest.fixture(scope="module")
def sweep():
    return plots.gamp_sweep([0.1, 0.2], d=30, kinds=("goe",), seeds=(0, 1))


@pytest.fixture(scope="module")
def first():
    return plots.first_step([0.2, 0.5], [0.25, 3.0], d=40, d_spectral=200, rho_narrow=0.02)


class TestGampTrajectories:
    def test_runs_per_kind_and_seed(self, trajectories):
        assert trajectories.kinds == ("network", "network", "goe", "goe")
        assert trajectories.seeds == (0, 1, 0, 1)
        assert len(trajectories.runs) == 4
        # the Bayes-optimal level is bo_mmse's (note §6.4: 0.3922 at ρ = 0.5, α = 0.2)
        assert trajectories.mmse == pytest.approx(0.3922, abs=1e-4)

    def test_every_m_ends_at_the_mmse(self, trajectories):
        for res in trajectories.runs:
            assert res.converged
            assert res.m[-1] == pytest.approx(trajectories.mmse, abs=1e-6)

    def test_runs_are_cached(self, trajectories):
        again = plots.gamp_trajectories(0.2, d=30, seeds=(0, 1))
        assert all(a is b for a, b in zip(again.runs, trajectories.runs, strict=True))

    def test_no_clip_diverges_without_a_warning(self):
        # note §7.1: without the clip GAMP-RIE diverged at d = 60, α <= 0.1; the view records
        # it in the result instead of warning
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            tr = plots.gamp_trajectories(0.1, d=60, kinds=("network",), clip=False)
        assert tr.runs[0].diverged and not tr.clip

    def test_run_cap(self):
        with pytest.raises(ValueError, match="seeds"):
            plots.gamp_trajectories(0.2, d=10, seeds=list(range(40)))

    def test_kinds_are_checked(self):
        with pytest.raises(ValueError, match="kinds"):
            plots.gamp_trajectories(0.2, d=10, kinds=("gaussian",))


class TestGampSweep:
    def test_shapes_and_theory(self, sweep):
        assert sweep.error.shape == sweep.converged.shape == (1, 2, 2)
        np.testing.assert_allclose(sweep.mmse, bayes.bo_mmse([0.1, 0.2], 0.5).mmse)
        assert sweep.curve_alpha[0] == 0.0 and sweep.curve_mmse[0] == 1.0
        assert np.all(np.diff(sweep.curve_mmse) <= 1e-12)

    def test_goe_errors_near_the_curve(self, sweep):
        # GOE surrogate, d = 30, two seeds: within 20 % of the MMSE (finite-size spread at
        # this small d; measured ratios 0.93-1.12)
        ratio = sweep.error[0].mean(axis=1) / sweep.mmse
        assert np.all(np.abs(ratio - 1) < 0.2)

    def test_curve_closes_at_perfect_recovery(self):
        sw = plots.gamp_sweep([0.4], d=10, kinds=("goe",))
        assert sw.curve_mmse[-1] == 0.0 and sw.mmse[0] == 0.0


class TestFirstStep:
    def test_linear_theory(self, first):
        d2 = 2.0 / (4.0 * first.alpha_grid)
        np.testing.assert_allclose(first.linear_theory, d2 / (1 + d2))
        # note §7.2: error δ0²/(1 + δ0²) = 0.5 at α = 0.5; d = 40 network data sits above
        assert 0.45 < first.linear_error[1] < 0.65

    def test_bbp_on_the_channel(self, first):
        # overlap ≈ 0 below ᾱ = 1/2, near 1 − 1/(2ᾱ) = 0.83 at ᾱ = 3 (p = 4: loose bands)
        assert first.channel_overlap[0] < 0.3 < first.channel_overlap[1]
        assert first.channel_overlap[1] == pytest.approx(5 / 6, abs=0.2)
        assert first.overlap_theory[0] == 0.0
        assert first.overlap_theory[-1] == pytest.approx(1 - 2 / (4 * first.alpha_bar_grid[-1]))


class TestFigures:
    def test_trajectories_figure(self, trajectories):
        fig = plots.plot_trajectories(trajectories)
        assert isinstance(fig, go.Figure)
        # no run diverged: the curves lie within one decade, so the y axis is linear, with the
        # MMSE line above its lower edge (not drawn on the x axis)
        assert not any(res.diverged for res in trajectories.runs)
        assert fig.layout.yaxis.type == "linear"
        assert fig.layout.yaxis.range[0] < trajectories.mmse
        names = {t.name for t in fig.data if t.showlegend is not False}
        assert {"Gaussian x (network)", "GOE surrogate"} <= names

    def test_diverged_run_is_marked(self):
        tr = plots.gamp_trajectories(0.1, d=60, kinds=("network",), clip=False)
        fig = plots.plot_trajectories(tr)
        cross = next(t for t in fig.data if t.name == "diverged")
        # log axis with decade ticks only; the cross sits inside the x range, not on its edge
        assert fig.layout.yaxis.type == "log" and fig.layout.yaxis.dtick == 1
        assert cross.x[0] < fig.layout.xaxis.range[1]

    def test_clip_menu_switches_the_axis_type(self):
        # clipped runs converge (linear axis), an unclipped one diverges (log axis): each step
        # must carry its own axis type and tick step, or the browser draws a log step's
        # decade ticks (dtick = 1) on a linear axis reaching 1e9
        fig = explore.static_figure(
            plots.gamp_trajectories,
            plots.plot_trajectories,
            [explore.Choice("clip", (True, False))],
            {"alpha": 0.1, "d": 60, "kinds": ("network",)},
        )
        on, off = (step.args[1] for step in fig.layout.sliders[0].steps)
        assert (on["yaxis.type"], on["yaxis.dtick"]) == ("linear", None)
        assert (off["yaxis.type"], off["yaxis.dtick"]) == ("log", 1)

    def test_sweep_figure(self, sweep):
        fig = plots.plot_gamp_sweep(sweep)
        assert fig.data[0].name == "Bayes-optimal MMSE"
        assert len(fig.data) == 2

    def test_first_step_figure(self, first):
        fig = plots.plot_first_step(first)
        assert len(fig.data) == 5 and fig.layout.shapes[0].x0 == 0.5
