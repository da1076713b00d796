"""Tests for explore.factual_recall.spectra: figures of the two-layer (rank κ) section."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem import linear_memory as lm
from assocmem.explore._layout import legend_on_top
from assocmem.explore.factual_recall import spectra as plots


@pytest.fixture(scope="module")
def trained():
    # Cheap runs (d = 16-20, well below threshold): the figures, not the physics, are tested.
    return [lm.trained_spectrum(a, 0.5, d=20, reps=1, bins=12) for a in (0.3, 0.5)]


class TestPlotEckartYoung:
    def test_panels_traces_and_readout(self):
        ey = lm.eckart_young(0.25, d=120, rng=0, bins=20)
        fig = plots.plot_eckart_young(ey)
        assert isinstance(fig, go.Figure)
        names = [t.name for t in fig.data]
        assert names[:2] == ["other 90 SVs", "top κd = 30 SVs"]
        assert "½ × top-κd energy fraction" in names and "α<sub>c</sub>(κ), eq. (9)" in names
        # The shaded region starts at X_qc(1 - κ) and the markers sit at the current κ.
        shade = fig.data[2]
        assert shade.fill == "tozeroy" and shade.x[0] == pytest.approx(ey.capacity.cutoff)
        emp = next(t for t in fig.data if t.name == "½ × top-κd energy fraction")
        assert emp.x[0] == 0.25 and emp.y[0] == pytest.approx(ey.alpha_estimate)
        assert f"{ey.capacity.alpha_c:.4f}" in fig.layout.title.text
        assert fig.layout.xaxis2.domain[0] > fig.layout.xaxis.domain[1]
        assert fig.layout.barmode == "stack"

    def test_bars_are_prebinned(self):
        ey = lm.eckart_young(0.5, d=80, rng=0, bins=15)
        fig = plots.plot_eckart_young(ey)
        assert len(fig.data[0].x) == len(fig.data[1].x) == 15

    def test_static_exploration_over_kappa(self):
        fig = explore.static_figure(
            lm.eckart_young,
            plots.plot_eckart_young,
            [explore.Slider("kappa", 0.05, 1.0, steps=3)],
            {"d": 60, "rng": 0},
        )
        assert len(fig.layout.sliders) == 1 and len(fig.layout.sliders[0].steps) == 3
        assert legend_on_top(fig)  # legend above the panels, the slider sits below


class TestPlotSpectrumComparisons:
    def test_one_panel_per_comparison(self):
        rng = np.random.default_rng(0)
        factors = {k: rng.standard_normal((2, 60, round(k * 60))) for k in (0.25, 0.5, 1.0)}
        comps = [
            lm.spectrum_comparison(U @ V.T, "mp_product", kappa=k, bins=10)
            for k, (U, V) in factors.items()
        ]
        fig = plots.plot_spectrum_comparisons(comps)
        assert len(fig.data) == 6
        assert [t.type for t in fig.data[:2]] == ["bar", "scatter"]
        assert fig.layout.xaxis3.domain[1] == pytest.approx(1.0)
        assert "KS" in fig.layout.annotations[0].text
        # The law's step curve closes at the last edge: one more point than bins.
        assert len(fig.data[1].x) == 11 and len(fig.data[1].y) == 11

    def test_custom_titles(self):
        comp = lm.spectrum_comparison(np.eye(4), "quarter_circle", bins=4)
        fig = plots.plot_spectrum_comparisons([comp], titles=["identity"])
        assert fig.layout.annotations[0].text == "identity"


class TestPlotTrainedSpectrum:
    def test_fig3_traces_and_title(self, trained):
        fig = plots.plot_trained_spectrum(trained[0])
        assert [t.name for t in fig.data] == [
            "at initialisation",
            "trained",
            "eq. (10): ρ<sub>qc</sub>/κ on [X<sub>qc</sub>(1−κ), 2]",
            "init law MP<sub>κ</sub>⊠MP<sub>κ</sub>, (C.70)",
        ]
        assert f"{trained[0].ks:.3f}" in fig.layout.title.text
        assert fig.data[3].line.dash == "dash"

    def test_kappa_one_names_quarter_circle_init(self):
        ts = lm.trained_spectrum(0.3, 1.0, d=12, reps=1, bins=8)
        fig = plots.plot_trained_spectrum(ts)
        assert fig.data[3].name == "init law: quarter circle"

    def test_static_exploration_over_alpha_and_kappa(self):
        fig = explore.static_figure(
            lm.trained_spectrum,
            plots.plot_trained_spectrum,
            [
                explore.Slider("alpha", 0.2, 0.4, values=(0.2, 0.4)),
                explore.Choice("kappa", (0.5, 0.25)),
            ],
            {"d": 16, "reps": 1, "bins": 8},
        )
        assert len(fig.layout.sliders) == 2
        assert len(fig.layout.updatemenus[0].buttons) == 2
        assert len(fig.data) == 2 * 2 * 4


class TestPlotKsAgainstLoad:
    def test_one_trained_and_one_init_line_per_kappa(self, trained):
        extra = lm.trained_spectrum(0.3, 0.25, d=20, reps=1, bins=12)
        fig = plots.plot_ks_against_load([*trained, extra])
        assert [t.name for t in fig.data] == [
            "κ = 0.25, trained",
            "κ = 0.25, initialisation",
            "κ = 0.5, trained",
            "κ = 0.5, initialisation",
        ]
        assert list(fig.data[2].x) == sorted(r.alpha_eff for r in trained)
        assert list(fig.data[2].y) == [r.ks for r in sorted(trained, key=lambda r: r.alpha_eff)]
