"""Tests for explore.attention_index.attention: the attention-indexed model's views and figures.

Reference values: the slides (E. Troiani, talk, "BO attention": T(T+1)/2 − 1 identifiable logits,
the (T² + T − 2) scaling, β-independence) and the chapter note's §9.1 table (ρ = 0.5).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.explore._layout import legend_on_top
from assocmem.explore.attention_index import attention as plots
from assocmem.quadratic import bayes
from assocmem.quadratic.attention import sample_attention
from assocmem.quadratic.attention_gd import gd_attention


@pytest.fixture(scope="module")
def curves():
    return plots.aim_curves(0.5, points=120)


@pytest.fixture(scope="module")
def averaging():
    data = sample_attention(10, 2, 0.5, 0.1, rng=0)
    res = gd_attention(data, 0.5, runs=3, steps=60, rng=1, record_every=20)
    return plots.gd_averaging(res, data, bayes.aim_mmse(0.1, 0.5, T=2))


class TestIdentifiableCount:
    @pytest.mark.parametrize("T", range(2, 9))
    def test_one_combination_lost(self, T):
        # Slides: each sequence gives T(T+1)/2 − 1 = (T² + T − 2)/2 measurements.
        assert plots.identifiable_count(T) == T * (T + 1) // 2 - 1 == (T * T + T - 2) // 2


class TestLogitRecovery:
    @pytest.mark.parametrize("beta", [0.3, 1.0, 5.0])
    def test_exact_for_every_beta(self, beta):
        # Note R23: softmax_β gives back h_ab − h_aT to 1e-10 for β in {0.3, 1, 5}.
        r = plots.logit_recovery_at(beta, 4)
        assert r.max_error < 1e-10
        assert (r.rank, r.n_logits) == (9, 10)
        assert np.all((r.output > 0) & (r.output < 1))

    def test_same_draw_at_every_beta(self):
        a, b = plots.logit_recovery_at(0.5, 3), plots.logit_recovery_at(2.0, 3)
        np.testing.assert_array_equal(a.true, b.true)
        assert not np.allclose(a.output, b.output)  # the outputs change, the logits do not

    def test_points_cap(self):
        data = sample_attention(8, 3, 0.5, 0.5, rng=0)
        assert plots.logit_recovery(data, points=7).true.size == 7

    def test_hardmax_refused(self):
        data = sample_attention(8, 2, 0.5, 0.5, rng=0, output="hardmax")
        with pytest.raises(ValueError, match="data"):
            plots.logit_recovery(data)


class TestAimCurves:
    def test_collapse_onto_quadratic_network(self, curves):
        # Slides: the AIM curve at α is the quadratic network's at α(T² + T − 2)/2; the
        # view rescales one inverse-parametrised curve, aim_mmse solves each α by Brent.
        i3 = int(np.flatnonzero(curves.T == 3)[0])
        sample = curves.alpha[i3][[10, 40, 80]]
        direct = bayes.aim_mmse(sample, 0.5, T=3).mmse
        np.testing.assert_allclose(curves.mmse[[10, 40, 80]], direct, atol=1e-6)

    def test_perfect_recovery_thresholds(self, curves):
        # Note §9.1: α_PR = 0.1875, 0.075, 0.04167 for T = 2, 3, 4 at ρ = 0.5.
        np.testing.assert_allclose(curves.alpha_pr[:3], [0.1875, 0.075, 0.0416667], atol=1e-6)
        np.testing.assert_allclose(curves.alpha[:, -1], curves.alpha_pr, rtol=1e-5)

    def test_note_table(self, curves):
        # Note §9.1 table (ρ = 0.5, 4 decimals) read off the interpolated curves.
        for i, row in enumerate([[0.9567, 0.9066, 0.7237], [0.8792, 0.7237, 0.2473]]):
            got = np.interp([0.01, 0.02, 0.05], curves.alpha[i], curves.mmse)
            np.testing.assert_allclose(got, row, atol=5e-4)

    def test_single_T_and_bad_tokens(self):
        assert plots.aim_curves(0.5, T=4, points=10).T.tolist() == [4]
        with pytest.raises(ValueError, match="T"):
            plots.aim_curves(0.5, T=[2, 2.5], points=10)


class TestGdAveraging:
    def test_fields(self, averaging):
        g = averaging
        assert g.k.tolist() == [1, 2, 3]
        assert g.prefix[0] == pytest.approx(g.single[0], rel=1e-12)
        np.testing.assert_allclose(g.nishimori, g.mmse * (1 + 1 / g.k))
        assert g.trajectory.shape == (4, 3) and g.steps.tolist() == [0, 20, 40, 60]

    def test_wrong_dimension_refused(self):
        data = sample_attention(10, 2, 0.5, 0.1, rng=0)
        other = sample_attention(8, 2, 0.5, 0.1, rng=0)
        res = gd_attention(other, 0.5, runs=1, steps=2)
        with pytest.raises(ValueError, match="result"):
            plots.gd_averaging(res, data, bayes.aim_mmse(0.1, 0.5))


class TestFigures:
    def test_logit_recovery(self):
        fig = plots.plot_logit_recovery(plots.logit_recovery_at(1.0, 3))
        assert isinstance(fig, go.Figure) and legend_on_top(fig)
        assert len(fig.data) == 3

    def test_collapse(self, curves):
        fig = plots.plot_aim_collapse(curves)
        assert legend_on_top(fig)
        assert len(fig.data) == 1 + 2 * curves.T.size
        assert fig.layout.xaxis.type == "log" and fig.layout.xaxis.dtick == 1
        assert not fig.layout.title.text.startswith("ρ")

    def test_gd_averaging(self, averaging):
        fig = plots.plot_gd_averaging(averaging)
        assert legend_on_top(fig)
        # 3 left traces, 3 runs + their mean on the right, and m, 2m as named lines per panel
        assert len(fig.data) == 3 + 3 + 1 + 2 * 2
        shown = [t.name for t in fig.data if t.showlegend is not False]
        assert f"MMSE m = {averaging.mmse:.3f}" in shown and "2m" in shown
        assert "dotted" not in fig.layout.title.text

    def test_explorations_build(self):
        fig = explore.static_figure(
            lambda T, rho: plots.aim_curves(rho, T=T, points=40),
            plots.plot_aim_collapse,
            [explore.Slider("T", 2, 4, steps=3, integer=True), explore.Choice("rho", (0.5, 1.0))],
        )
        assert len(fig.layout.sliders) == 2
        fig = explore.static_figure(
            plots.logit_recovery_at,
            plots.plot_logit_recovery,
            [explore.Slider("beta", 0.3, 3.0, steps=3, log=True), explore.Choice("T", (2, 5))],
        )
        assert len(fig.layout.sliders) == 2
