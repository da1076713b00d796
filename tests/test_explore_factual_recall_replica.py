"""Tests for explore.factual_recall.replica: figures built from energetic results."""

from __future__ import annotations

import warnings

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.explore._layout import legend_on_top
from assocmem.explore.factual_recall import replica as plots
from assocmem.linear_memory import energetic


@pytest.fixture(scope="module")
def landscape():
    return energetic.free_entropy_landscape(0.3, n_q=41, n_alpha=6)


@pytest.fixture(scope="module")
def g_mc():
    return [energetic.energetic_G_mc([0.0, 0.5, 0.9], p, samples=3, rng=0) for p in (20, 200)]


@pytest.fixture(scope="module")
def scaling():
    return energetic.finite_size_scaling(
        lp_dims=(4, 5), lp_alphas=[0.5, 3.0], ce_dims=(6,), ce_alphas=[6.0, 7.0],
        instances=1, reps=1, p_curve=[10, 100, 1000], samples=10,
    )


class TestPlotFreeEntropy:
    def test_panels_and_minimum(self, landscape):
        fig = plots.plot_free_entropy(landscape)
        assert isinstance(fig, go.Figure)
        assert len(fig.data) == 9
        assert fig.layout.xaxis2.anchor == "y2"
        stars = [t for t in fig.data if t.mode == "markers"]
        assert [(t.x[0], t.y[0]) for t in stars] == [(landscape.q_star, landscape.phi),
                                                     (landscape.alpha, landscape.phi)]
        assert "q* = 0.6000" in fig.layout.title.text
        # the band sits between h with the lower and the upper bound on G
        np.testing.assert_allclose(fig.data[0].y, landscape.h_lower)
        np.testing.assert_allclose(fig.data[1].y, landscape.h_upper)
        assert legend_on_top(fig)  # legend above the plot, clear of the book's slider

    def test_static_exploration_over_alpha(self):
        fig = explore.static_figure(
            energetic.free_entropy_landscape, plots.plot_free_entropy,
            [explore.Slider("alpha", 0.1, 0.4, steps=3)], {"n_q": 21, "n_alpha": 4},
        )
        assert len(fig.data) == 3 * 9
        assert len(fig.layout.sliders[0].steps) == 3


class TestPlotEnergeticMC:
    def test_theory_and_points(self, g_mc):
        fig = plots.plot_energetic_mc(g_mc)
        names = [t.name for t in fig.data]
        assert names[:4] == ["lower bound (C.35)", "upper bound (C.38), k = 1",
                             "upper bound (C.38), k → ∞", "p → ∞: (1−t) G(t)"]
        assert names[4].startswith("p = 20 (3 samples)") and names[5].startswith("p = 200")
        r = g_mc[1]
        np.testing.assert_allclose(fig.data[5].y, (1 - r.t) * r.mean)
        np.testing.assert_allclose(fig.data[5].error_y.array, 2 * (1 - r.t) * r.stderr)
        # the p → ∞ limit is (1-t) G(t) = -1 (numerical G, [OURS] closed form)
        np.testing.assert_allclose(fig.data[3].y, -1.0, atol=1e-9)

    def test_single_result_and_sampled_label(self):
        r = energetic.energetic_G_mc([0.0, 0.5], 10, samples=2, rng=0, eta1="sample")
        fig = plots.plot_energetic_mc(r)
        assert len(fig.data) == 5 and "η₁ sampled" in fig.data[-1].name

    def test_endpoints(self, g_mc):
        ends = energetic.finite_p_capacity_mc([20, 200], samples=20, rng=0)
        fig = plots.plot_energetic_mc(g_mc, endpoints=ends)
        limit, step = fig.data[-2], fig.data[-1]
        assert list(limit.x) == [1.0, 1.0]
        np.testing.assert_allclose(limit.y, -ends.cost)
        np.testing.assert_allclose(step.y, -0.5 / ends.alpha_c_step)
        assert list(limit.marker.color) == [fig.data[4].line.color, fig.data[5].line.color]

    def test_static_exploration_over_p_and_estimator(self):
        fig = explore.static_figure(
            energetic.energetic_G_mc, plots.plot_energetic_mc,
            [explore.Slider("p", 10, 100, log=True, integer=True, values=(10, 100)),
             explore.Choice("eta1", energetic.ETA1_METHODS)],
            {"t": [0.0, 0.5], "samples": 2, "rng": 0},
        )
        assert len(fig.data) == 2 * 2 * 5
        assert len(fig.layout.sliders) == 2 and len(fig.layout.updatemenus[0].buttons) == 2


class TestPlotFiniteSize:
    def test_points_fit_and_curves(self, scaling):
        fig = plots.plot_finite_size(scaling)
        names = [t.name for t in fig.data]
        assert "exact LP feasibility" in names
        assert "CE + Adam, first violation (censored)" in names
        assert f"fit: slope {scaling.slope:.2f}" in names and "slope −1 (Fig. C.1)" in names
        lp = fig.data[names.index("exact LP feasibility")]
        np.testing.assert_allclose(lp.y, np.log(scaling.alpha_c[:2] - 0.5))
        step = fig.data[names.index("[ours] step-function estimate")]
        np.testing.assert_allclose(step.y, np.log(scaling.alpha_step - 0.5))
        # the top axis labels p at log log p
        assert list(fig.layout.xaxis2.ticktext) == ["10", "10<sup>2</sup>", "10<sup>3</sup>"]
        np.testing.assert_allclose(fig.layout.xaxis2.tickvals[0], np.log(np.log(10)))

    def test_estimate_below_one_half_is_a_gap_without_warning(self):
        # log(α_c − ½) is undefined for a noisy finite-p estimate α_c <= ½ (few samples): the
        # curve has a gap there instead of NaN from np.log of a negative number and a warning
        few = energetic.finite_size_scaling(lp_dims=(4,), lp_alphas=[0.5], ce_dims=(4,),
                                            ce_alphas=[6.0], instances=1, reps=1,
                                            p_curve=[10, 100], samples=2)
        assert few.limit.alpha_c[0] <= 0.5 < few.limit.alpha_c[1]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            fig = plots.plot_finite_size(few)
        limit = next(t for t in fig.data
                     if (t.name or "").startswith("[ours] α<sub>c</sub>(p) = 1/(2c(p))"))
        y = np.asarray(limit.y, dtype=float)
        assert np.isnan(y[0]) and y[1] == pytest.approx(np.log(few.limit.alpha_c[1] - 0.5))

    def test_bad_input(self, scaling):
        with pytest.raises(TypeError, match="scaling"):
            plots.plot_finite_size(None)
        with pytest.raises(TypeError, match="height"):
            plots.plot_finite_size(scaling, height=450.0)

    def test_no_fit_line_with_one_point(self):
        one = energetic.finite_size_scaling(lp_dims=(4,), lp_alphas=[0.5, 3.0],
                                            p_curve=[10, 100], samples=4)
        names = [t.name for t in plots.plot_finite_size(one).data]
        assert not any(n and n.startswith("fit") for n in names)
