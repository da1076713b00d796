"""Tests for assocmem.explore.attention_index.nuclear: the views and figures of ``ai-nuclear``.

The views only assemble library results, so the tests check that they pass those results through
unchanged (against direct calls), the reference phases of the learned spectrum (note §8.3 of
``shared/notes/02-attention-index-models.md``) and that the figures draw what they say.
"""

from __future__ import annotations

import numpy as np
import pytest

from assocmem.explore.attention_index import nuclear as plots
from assocmem.quadratic import erm, solvers, thresholds
from assocmem.quadratic.sensing import sample_sensing


@pytest.fixture(scope="module")
def curves() -> plots.NuclearCurves:
    sims = plots.fista_points([0.2, 0.6], 0.2, 0.5, 0.1, d=12)
    return plots.nuclear_curves(0.2, 0.5, [1e-2, 1e-1], points=4, sims=sims)


class TestViews:
    def test_curves_are_the_library_curves(self, curves) -> None:
        assert curves.alpha[0] == pytest.approx(0.05) and curves.alpha[-1] == pytest.approx(1.5)
        direct = erm.erm_curves(curves.alpha, 0.2, 0.5, 0.1)
        np.testing.assert_array_equal(curves.curves[1].error, direct.error)
        np.testing.assert_allclose(curves.l2, thresholds.l2_error(curves.l2_alpha, 1.2, 0.5))
        # the grid is refined just above α_inter, where the small-λ peak sits
        assert np.sum(np.abs(curves.alpha / curves.alpha_inter - 1.04) < 0.1) >= 4
        assert curves.alpha_inter == erm.interpolation_threshold(0.2, 0.5)

    def test_fista_points_repeat_a_direct_run(self) -> None:
        s = plots.fista_points([0.3], 0.5, 0.25, 1.0, d=10, rng=7, surrogate=False)
        data = sample_sensing(10, 0.5, 0.3, np.random.default_rng(7), noise=0.25)
        sol = solvers.fista_nuclear(data, 1.0, max_iter=5000, tol=1e-8)
        assert s.error[0, 0] == sol.error and s.rank[0, 0] == sol.rank

    def test_fista_points_seeds_differ(self) -> None:
        s = plots.fista_points([0.3], 0.5, 0.25, 1.0, d=10, seeds=2)
        assert s.error.shape == (2, 1) and s.error[0, 0] != s.error[1, 0]

    @pytest.mark.parametrize(
        ("alpha", "phase"), [(0.3, "random-like"), (0.55, "bleeding-out"), (1.0, "bulk + spikes")]
    )
    def test_martin_mahoney_phases(self, alpha, phase) -> None:
        # Note §8.3: ρ* = 0.05, Δ = 0.5, λ = 1e-3 at α = 0.3, 0.55, 1.0.
        v = plots.spectrum_view(alpha, 0.05, 0.5, 1e-3, d=10)
        assert v.phase == phase
        assert v.atom == pytest.approx(1 - v.point.rank)

    def test_spectrum_law_at_d60(self) -> None:
        # Note R14: KS < 0.05 (measured 0.020 there; 0.023 here) on GOE sensing at d = 60.
        v = plots.spectrum_view(0.3, 0.5, 0.25, 1.0, d=60, surrogate=True)
        assert v.ks < 0.05
        assert v.density[0] == 0.0 and v.density[1] > 0 and v.x[0] == 0.0

    def test_threshold_curves(self) -> None:
        t = plots.threshold_curves([0.1, 0.5], noises=[1.0, 100.0])
        np.testing.assert_allclose(t.bo, [0.095, 0.375])
        np.testing.assert_allclose(
            t.nuclear, thresholds.nuclear_recovery_threshold([0.1, 0.5]).alpha_pr
        )
        assert t.inter.shape == (2, 2)
        assert t.inter[1, 1] == erm.interpolation_threshold(0.5, 100.0)
        np.testing.assert_allclose(t.inter_limit, [0.2975, 0.4375])


class TestFigures:
    def test_learning_curves(self, curves) -> None:
        fig = plots.plot_erm_curves(curves)
        names = [t.name for t in fig.data if t.showlegend is not False]
        assert "λ = 0.01" in names and "λ = 0.1" in names
        assert any(n.startswith("FISTA, d = 12") for n in names)
        assert any("inter" in n for n in names)
        assert fig.layout.xaxis.type == "log" and len(fig.layout.shapes) == 2

    def test_spectra_panels(self) -> None:
        views = [plots.spectrum_view(a, 0.05, 0.5, 1e-3, d=10) for a in (0.3, 1.0)]
        fig = plots.plot_spectra(views)
        assert sum(t.type == "bar" for t in fig.data) == 2
        atoms = [t for t in fig.data if t.name and t.name.startswith("atom")]
        assert atoms[0].y[1] == pytest.approx(views[0].atom)
        # short panel titles; the phase is an in-panel label; both atom marks lie below the top
        texts = [a.text for a in fig.layout.annotations]
        assert "α = 0.3" in texts and views[0].phase in texts
        assert max(atoms[0].y) < fig.layout.yaxis.range[1]
        assert len(plots.plot_spectra(views[0]).data) == 3

    def test_spectra_refuses_too_many_panels(self) -> None:
        v = plots.spectrum_view(0.3, 0.5, 0.25, 1.0, d=8)
        with pytest.raises(ValueError, match="views"):
            plots.plot_spectra([v] * 5)

    def test_thresholds(self) -> None:
        fig = plots.plot_thresholds(plots.threshold_curves([0.1, 0.5], noises=[1.0]))
        assert len(fig.data) == 7 and fig.layout.xaxis.type == "log"
