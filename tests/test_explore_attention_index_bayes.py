"""Tests for explore.attention_index.bayes: the Bayes-optimal views and their figures.

Reference values: the chapter note's §6.3-6.5 tables (our state-evolution solver, matching the
public code of Maillard et al. 2024 to about 1e-4) and the closed forms of the slides.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.explore._layout import legend_on_top
from assocmem.explore.attention_index import bayes as plots
from assocmem.quadratic import bayes


@pytest.fixture(scope="module")
def diagram():
    return plots.bo_phase_diagram(np.linspace(0.0, 0.6, 13), [0.1, 0.5, 1.0, 2.0])


@pytest.fixture(scope="module")
def curves():
    return plots.learning_curves([0.5, 2.0], alpha=0.2, points=60)


class TestBoPhaseDiagram:
    def test_zero_exactly_beyond_alpha_pr(self, diagram):
        right = diagram.alpha[None, :] >= diagram.alpha_pr[:, None]
        assert np.all(diagram.mmse[right] == 0.0)
        assert np.all(diagram.mmse[~right] > 0.0)
        np.testing.assert_allclose(diagram.alpha_pr, [0.095, 0.375, 0.5, 0.5])

    def test_rows_match_root_finding(self, diagram):
        # interpolated inverse parametrisation vs Brent: measured 7e-5 with 200 points
        for i, r in enumerate(diagram.rho):
            ref = bayes.bo_mmse(diagram.alpha, float(r)).mmse
            np.testing.assert_allclose(diagram.mmse[i], ref, atol=3e-4)

    def test_reference_table(self):
        # note §6.4, ρ = 0.5 row (tolerance 1e-4 of the note plus the interpolation)
        pd = plots.bo_phase_diagram([0.1, 0.2, 0.3], [0.5])
        np.testing.assert_allclose(pd.mmse[0], [0.7237, 0.3922, 0.1281], atol=3e-4)

    def test_noise_keeps_error_positive(self):
        pd = plots.bo_phase_diagram([0.5, 1.0], [0.5], noise=0.25)
        # note §6.4 noisy row: 0.1639 and 0.0629
        np.testing.assert_allclose(pd.mmse[0], [0.1639, 0.0629], atol=3e-4)

    def test_cell_cap(self):
        with pytest.raises(ValueError, match="alphas"):
            plots.bo_phase_diagram(np.linspace(0, 0.5, 2000), np.linspace(0.1, 1, 600))


class TestLearningCurves:
    def test_shapes_start_and_monotone(self, curves):
        assert curves.mmse.shape == (2, 60)
        assert np.all(curves.mmse[:, 0] == 1.0)
        assert np.all(np.diff(curves.mmse, axis=1) <= 1e-12)

    def test_goe_line_noiseless(self, curves):
        np.testing.assert_allclose(curves.goe, np.maximum(1 - 2 * curves.alpha, 0), atol=1e-12)

    def test_goe_line_noisy_solves_linear_fixed_point(self):
        c = plots.learning_curves(1.0, noise=0.7, alpha_max=2.0, points=9)
        a, m = c.alpha[1:], c.goe[1:]
        d2 = (0.7 + 2 * m) / (4 * a)
        np.testing.assert_allclose(m, d2 / (1 + d2), rtol=1e-12)

    def test_wide_teacher_follows_goe_line(self):
        # note §11 R8: ρ = 400 within 2e-3 of the closed form
        c = plots.learning_curves(400.0, noise=0.5, alpha_max=0.5, points=200)
        assert np.max(np.abs(c.mmse[0] - c.goe)) < 2e-3

    def test_point_is_bo_mmse(self, curves):
        assert curves.point.mmse == pytest.approx(0.3922, abs=1e-4)  # note §6.4
        assert plots.learning_curves(0.5, points=5).point is None

    def test_alpha_beyond_grid_refused(self):
        with pytest.raises(ValueError, match="alpha"):
            plots.learning_curves(0.5, alpha=0.7, alpha_max=0.6)


class TestNarrowLimitCurves:
    def test_table_and_limit(self):
        # note §6.3, ρ = 0.05 row at ᾱ = 0.5, 0.75 (tolerance: 1e-4 plus the interpolation)
        nl = plots.narrow_limit_curves([0.05], alpha_bar_max=1.0, points=401)
        at = {ab: float(np.interp(ab, nl.alpha_bar, nl.mmse[0])) for ab in (0.5, 0.75)}
        assert at[0.5] == pytest.approx(0.8206, abs=5e-4)
        assert at[0.75] == pytest.approx(0.5570, abs=5e-4)
        np.testing.assert_allclose(nl.limit, bayes.narrow_limit_mmse(nl.alpha_bar))

    def test_curves_approach_the_limit(self):
        nl = plots.narrow_limit_curves([0.05, 0.01, 0.002], points=61)
        gaps = np.max(np.abs(nl.mmse - nl.limit), axis=1)
        assert np.all(np.diff(gaps) < 0)

    def test_rho_above_one_refused(self):
        with pytest.raises(ValueError, match="rhos"):
            plots.narrow_limit_curves([2.0])


class TestSeTrajectories:
    def test_note_trajectory(self):
        # note §6.5: ρ = 0.5, α = 0.3 starts 1, 0.5274, 0.3664, 0.2874
        tr = plots.se_trajectories([0.3], 0.5, steps=3)
        np.testing.assert_allclose(tr.m[0], [1.0, 0.5274, 0.3664, 0.2874], atol=1e-4)
        assert tr.fixed_point[0] == pytest.approx(0.12813, abs=1e-4)
        assert tr.alpha_pr == 0.375

    def test_monotone_to_fixed_point(self):
        tr = plots.se_trajectories([0.1, 0.2], 0.5, steps=40)
        assert np.all(np.diff(tr.m, axis=1) <= 1e-12)
        np.testing.assert_allclose(tr.m[:, -1], tr.fixed_point, atol=1e-6)


class TestPlots:
    def test_fixed_point(self):
        curve = bayes.bo_curve(0.5, n=40)
        fig = plots.plot_fixed_point(curve, bayes.bo_mmse(0.2, 0.5))
        assert isinstance(fig, go.Figure)
        assert fig.layout.xaxis.type == "log" and fig.layout.xaxis2.type == "log"
        np.testing.assert_allclose(fig.data[0].y, 2 * curve.alpha)
        assert legend_on_top(fig)
        assert fig.layout.title.text

    def test_fixed_point_without_finite_root(self):
        fig = plots.plot_fixed_point(bayes.bo_curve(0.5, n=10), bayes.bo_mmse(0.4, 0.5))
        assert len(fig.data) == 2  # α ≥ α_PR: no level and no star

    def test_fixed_point_needs_a_scalar_point(self):
        with pytest.raises(ValueError, match="point"):
            plots.plot_fixed_point(bayes.bo_curve(0.5, n=10), bayes.bo_mmse([0.1, 0.2], 0.5))

    def test_learning_curves_figure(self, curves):
        fig = plots.plot_learning_curves(curves)
        names = [t.name for t in fig.data]
        assert names[0] == "ρ = ∞: 1 − 2α" and "ρ = 0.5" in names
        assert len(fig.layout.shapes) == 2  # α_PR ticks at 0.375 and 0.5
        assert legend_on_top(fig)

    def test_learning_curves_noisy_has_no_ticks(self):
        fig = plots.plot_learning_curves(plots.learning_curves(0.5, noise=0.5, points=5))
        assert len(fig.layout.shapes) == 0

    def test_phase_diagram(self, diagram):
        fig = plots.plot_phase_diagram(diagram)
        assert fig.data[0].type == "heatmap"
        np.testing.assert_allclose(fig.data[1].x, diagram.alpha_pr)

    def test_narrow_limit(self):
        fig = plots.plot_narrow_limit(plots.narrow_limit_curves([0.01, 0.1], points=11))
        assert len(fig.data) == 3 and fig.layout.shapes[0].x0 == 0.5

    def test_colour_follows_rho_not_trace_order(self):
        def colours(fig):
            return {t.name: t.line.color for t in fig.data if t.name.startswith("ρ = 0")}

        first = colours(plots.plot_learning_curves(plots.learning_curves([0.05, 0.1], points=5)))
        second = colours(plots.plot_learning_curves(plots.learning_curves([0.1, 0.5], points=5)))
        narrow = colours(plots.plot_narrow_limit(plots.narrow_limit_curves([0.1], points=11)))
        assert first["ρ = 0.1"] == second["ρ = 0.1"] == narrow["ρ = 0.1"]
        assert len({first["ρ = 0.05"], first["ρ = 0.1"], second["ρ = 0.5"]}) == 3

    def test_state_evolution(self):
        tr = plots.se_trajectories([0.1, 0.3], 0.5, steps=5)
        fig = plots.plot_state_evolution(tr)
        assert fig.layout.yaxis2.type == "log"
        assert len(fig.data) == 6
        assert not any(np.any(np.asarray(t.y, dtype=float) <= 0) for t in fig.data[2::3])

    def test_static_exploration(self):
        fig = explore.static_figure(
            plots.learning_curves,
            plots.plot_learning_curves,
            [
                explore.Slider("rho", 0.1, 1.0, steps=2, log=True),
                explore.Choice("noise", (0.0, 0.5)),
            ],
            {"alpha": 0.2, "points": 20},
        )
        assert len(fig.layout.sliders) == 2 and len(fig.layout.sliders[0].steps) == 2

    @pytest.mark.parametrize(
        "func", [plots.plot_learning_curves, plots.plot_phase_diagram, plots.plot_narrow_limit]
    )
    def test_wrong_result_type(self, func):
        with pytest.raises(TypeError):
            func(bayes.bo_curve(0.5, n=5))
