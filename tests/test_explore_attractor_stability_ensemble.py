"""Tests for explore.attractor_stability.ensemble: figures of the linearisation section
(Eqs. 9, 21-23, Fig. 7) built from assocmem.attractor.ensemble results."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem import explore
from assocmem.attractor.ensemble import (
    ensemble_grid,
    ensemble_view,
    reduction_check,
    surrogate_view,
)
from assocmem.attractor.meanfield import theory
from assocmem.attractor.network import pinv_weights
from assocmem.attractor.rates import sample_patterns
from assocmem.explore._layout import legend_on_top
from assocmem.explore.attractor_stability import ensemble as plots


@pytest.fixture(scope="module")
def grid():
    return ensemble_grid((0.2, 0.5), (0.0, 0.5, 0.9), N=100, seed=0)


class TestPlotReduction:
    def test_full_lowrank_and_counted_pile_at_minus_one(self):
        net = pinv_weights(sample_patterns(80, 20, 1.0, rng=1), 1.0, 1.0)
        chk = reduction_check(net, 0)
        fig = plots.plot_reduction(chk)
        assert isinstance(fig, go.Figure) and len(fig.data) == 3
        full, low, pile = fig.data
        # pitfall 4: the N − P eigenvalues at −1 are one counted marker, not 60 points
        assert len(full.x) == 80 - chk.n_at_minus_one and len(low.x) == 20
        assert pile.x == (-1.0,) and str(chk.n_at_minus_one) in pile.text[0]
        assert fig.layout.yaxis.scaleanchor == "x"
        assert f"N − P = {chk.n_trivial}" in fig.layout.title.text
        assert any(s.x0 == s.x1 == 0.0 for s in fig.layout.shapes)


class TestPlotEnsemble:
    def test_disc_edges_boundary_and_title(self):
        v = ensemble_view(200, 0.5, 0.5, sigma_ratio=0.5, c=1.0, seed=2)
        fig = plots.plot_ensemble(v)
        points, circle, edges, trivial = fig.data
        assert len(points.x) == v.P
        # the circle is the Eq. 21 support: every point at the radius (coordinates shipped to 4 dp)
        r = np.hypot(np.asarray(circle.x) - v.disc.center, np.asarray(circle.y))
        np.testing.assert_allclose(r, v.disc.radius, atol=1e-4)
        assert edges.x == pytest.approx((v.disc.lambda_minus, v.disc.lambda_plus))
        assert trivial.x == (-1.0,) and trivial.text == (f"{v.n_trivial}×",)
        assert any(s.type == "line" and s.x0 == s.x1 == 0.0 for s in fig.layout.shapes)
        assert fig.layout.yaxis.scaleanchor == "x"
        assert f"α<sub>S</sub> (Eq. 23) = {v.alpha_s:.3f}" in fig.layout.title.text
        assert fig.layout.title.text.endswith("stable")
        assert legend_on_top(fig)

    def test_no_stable_load_and_unstable_draw(self):
        v = ensemble_view(100, 0.5, 0.9, sigma_ratio=2.0, c=1.0)  # centre −1 + 1.8 > 0
        title = plots.plot_ensemble(v).layout.title.text
        assert "no stable load" in title and title.endswith("unstable")

    def test_surrogate_view_is_drawn_too(self):
        v = surrogate_view(theory(1.0, 1.0, 1.0), 200, 0.2, seed=1)
        assert len(plots.plot_ensemble(v).data[0].x) == 40

    def test_static_exploration_over_alpha_and_rho(self):
        ex = explore.static_figure(
            ensemble_view,
            plots.plot_ensemble,
            [explore.Slider("alpha", 0.1, 0.9, steps=3), explore.Choice("rho_xy", (0.0, 0.9))],
            {"N": 100},
        )
        assert len(ex.data) == 3 * 2 * 4
        assert len(ex.layout.sliders) == 2 and len(ex.layout.sliders[0].steps) == 3
        titles = {s.args[1]["title.text"] for s in ex.layout.sliders[1].steps}
        assert len(titles) == 3 and all("0.864" in t for t in titles)  # Eq. 23 at ρ = 0.9


class TestPlotEnsembleGrid:
    def test_panels_equal_aspect_and_labels(self, grid):
        fig = plots.plot_ensemble_grid(grid)
        assert len(fig.data) == 2 * 6
        assert sum(bool(t.showlegend) for t in fig.data) == 2
        for k in range(1, 7):
            x, y = ("x", "yaxis") if k == 1 else (f"x{k}", f"yaxis{k}")
            assert fig.layout[y].scaleanchor == x
        texts = [a.text for a in fig.layout.annotations]
        assert texts == ["ρ<sub>xy</sub> = 0", "ρ<sub>xy</sub> = 0.5", "ρ<sub>xy</sub> = 0.9"]
        assert "α = 0.5" in fig.layout.yaxis4.title.text
        # each panel has its own range, around its own disc (Fig. 7 caption)
        assert fig.layout.xaxis.range != fig.layout.xaxis3.range


class TestPlotEnsembleTable:
    def test_rows_and_reference_columns(self, grid):
        fig = plots.plot_ensemble_table(grid, {(0.2, 0.0): (0.25, 0.279)})
        (table,) = fig.data
        assert table.type == "table" and len(table.header.values) == 8
        cols = table.cells.values
        assert all(len(c) == 6 for c in cols)
        assert cols[5][0] == "0.250" and cols[7][0] == "0.279" and cols[5][1] == "–"
        assert list(cols[0]) == ["0.2"] * 3 + ["0.5"] * 3
