"""Tests of assocmem.explore.epanechnikov.samples: each figure shows what its result holds.

The figures only draw library results; these tests build small results (directly from the result
classes where the compute function is slow) and check trace counts, shading, boxes and that
every figure is JSON-safe (no NaN) for any front end.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem.dense_am import generative as gen
from assocmem.dense_am import kde
from assocmem.dense_am import limitations as lim
from assocmem.explore._layout import text_width
from assocmem.explore.epanechnikov import samples as plots


def _strict_json(fig: go.Figure) -> None:
    """Raise if the figure holds NaN or inf (strict JSON has neither)."""
    json.loads(fig.to_json(), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def _sweep(lsr_logp, lse_logp):
    n = len(lsr_logp)
    z = np.zeros(n)
    return gen.GenerativeSweep(
        betas=np.tile(np.geomspace(1.0, 100.0, n), (2, 1)),
        beta_mean=np.geomspace(1.0, 100.0, n),
        seeds=(0, 1),
        lsr_logp=np.asarray(lsr_logp, float),
        lse_logp=np.asarray(lse_logp, float),
        lsr_unique=np.arange(n, dtype=float) + 1,
        lse_unique=np.ones(n),
        lsr_recovered=z,
        lse_recovered=z,
        **{f"{a}_{b}_se": z for a in ("lsr", "lse") for b in ("logp", "unique", "recovered")},
        per_seed=(),
    )


def _digits(
    n_images=6, emergent=((0, 1), (2, 3, 4)), retained=(False, False, False, False, False, True)
):
    img = np.full((n_images, 8, 8), 8.0)
    latent = gen.DigitsLatent(
        memories=np.zeros((n_images, 2)),
        images=img,
        indices=np.arange(n_images),
        labels=np.zeros(n_images, dtype=int),
        pca=None,
    )
    stored = [(i,) for i in range(n_images) if retained[i]]
    return gen.DigitsMemories(
        latent=latent,
        target_k=4.0,
        beta=0.01,
        minima=stored + list(emergent),
        stored_retained=np.array(retained),
        emergent=list(emergent),
        emergent_images=np.full((len(emergent), 8, 8), 4.0),
        lse_memories=np.zeros((2, 2)),
        lse_images=img[:2],
        stored_images=img,
    )


class TestKernelFigure:
    def test_one_curve_per_kernel_and_one_bar_each(self):
        table = kde.kernel_table()
        fig = plots.kernel_figure(table, kde.KERNELS)
        lines = [t for t in fig.data if isinstance(t, go.Scatter) and t.mode == "lines"]
        bars = [t for t in fig.data if isinstance(t, go.Bar)]
        assert len(lines) == len(table) and len(bars[0].x) == len(table)

    def test_rescaled_kernels_have_unit_variance(self):
        # K_s(u) = s K(s u) with s = sqrt(mu_K) has variance 1 (note §2.1)
        table = kde.kernel_table()
        fig = plots.kernel_figure(table, kde.KERNELS)
        epan = next(t for t in fig.data if t.name == "epanechnikov")
        u, y = np.asarray(epan.x), np.asarray(epan.y)
        assert np.trapezoid(u**2 * y, u) == pytest.approx(1.0, abs=1e-3)

    def test_efficiency_axis_leaves_room_for_the_longest_bar_label(self):
        table = kde.kernel_table()
        fig = plots.kernel_figure(table, kde.KERNELS)
        bar = next(t for t in fig.data if isinstance(t, go.Bar))
        lo, hi = fig.layout.xaxis2.range
        # px of the widest label against px after the longest bar on a 190 px panel
        room = (hi - max(bar.x)) / (hi - lo) * 190
        widest = max(text_width(t, bar.textfont.size) for t in bar.text)
        assert room >= widest


class TestKdeFigure:
    def test_curves_and_optimum_markers(self):
        v = lim.kde_explorer(50, 0.5, "epanechnikov", seed=0)
        fig = plots.kde_figure(v)
        assert len(fig.data) == 3 + 2 * len(v.curves.kernels)
        _strict_json(fig)


class TestGenerativeFigure:
    def test_orange_band_where_lsr_wins(self):
        # paper Fig. 3 right: shading where the LSR mean beats LSE (strictly): log p at 2 β,
        # unique (1, 2, 3, 4 vs 1) at 3 β, recovered (equal) at none
        fig = plots.generative_figure(_sweep([1, 3, 0, 5], [2, 2, 2, 2]))
        assert len(fig.layout.shapes) == 2 + 3 + 0
        assert len(fig.data) == 6

    def test_no_band_when_lse_always_wins(self):
        s = _sweep([0, 0, 0], [1, 1, 1])
        s = dataclasses.replace(s, lsr_unique=s.lse_unique)
        assert len(plots.generative_figure(s).layout.shapes) == 0


class TestGenerative2DFigure:
    def test_marks_stored_and_emergent_lsr_memories(self):
        g = lim.generative_2d(20, 200.0, seed=0, n_per_memory=5, n_grid=15)
        fig = plots.generative_2d_figure(g)
        emergent = next(t for t in fig.data if t.name == "LSR: emergent")
        assert len(emergent.x) == int(np.sum(g.lsr_sizes > 1))
        _strict_json(fig)


class TestDigitsFigure:
    def test_grey_box_for_each_lost_pattern(self):
        fig = plots.digits_figure(_digits())
        assert len(fig.layout.shapes) == 5
        assert len(fig.data) == 3

    def test_emergent_labels_name_the_parents(self):
        texts = [a.text for a in plots.digits_figure(_digits()).layout.annotations]
        assert "0+1" in texts and "2+3+4" in texts

    def test_is_json_safe_for_the_live_widget(self):
        _strict_json(plots.digits_figure(_digits()))

    def test_panels_fit_their_tiles_unless_given_room(self):
        def panel_heights(fig):
            return [a.domain[1] - a.domain[0] for a in (fig.layout.yaxis, fig.layout.yaxis2)]

        tight = plots.digits_figure(_digits(), n_cols=2)
        # 6 stored and 2 emergent in 2 columns: 3 rows against 1
        stored, emergent = panel_heights(tight)
        assert stored == pytest.approx(3 * emergent)
        roomy = plots.digits_figure(_digits(), n_cols=2, max_emergent=6, max_lse=6)
        stored, emergent = panel_heights(roomy)
        assert stored == pytest.approx(emergent)
        assert roomy.layout.height > tight.layout.height


class TestParentsChildFigure:
    def test_largest_family_first(self):
        fig = plots.parents_child_figure(_digits(), n_rows=1)
        texts = [a.text for a in fig.layout.annotations]
        assert texts[:3] == ["ξ2", "ξ3", "ξ4"]
        _strict_json(fig)

    def test_placeholder_without_emergent_memories(self):
        fig = plots.parents_child_figure(_digits(emergent=()))
        assert "no emergent" in fig.layout.title.text


class TestFarQueryFigure:
    def test_two_panels_two_rules(self):
        res = lim.far_query(np.array([[0.1, 0.0], [2.0, 0.0]]), np.zeros((1, 2)), beta=2.0)
        fig = plots.far_query_figure(res)
        assert {t.name for t in fig.data} == {"LSR", "LSE"} and len(fig.data) == 4


class TestLimitationsFigure:
    def test_stuck_queries_and_support_discs(self):
        xi = np.array([[0.0, 0.0], [1.0, 1.0]])
        q = np.array([[0.1, 0.0], [3.0, 3.0], [-2.0, 0.5]])
        pg = lim.limitations_playground(xi, q, beta=8.0, method="lsr")
        fig = plots.limitations_figure(pg)
        stuck = next(t for t in fig.data if str(t.name).startswith("stuck"))
        assert len(stuck.x) == 2 and len(fig.layout.shapes) == 2
        _strict_json(fig)

    @pytest.mark.parametrize("method", lim.METHODS)
    def test_title_names_the_rule_for_a_reader(self, method):
        xi = np.array([[0.0, 0.0], [1.0, 1.0]])
        q = np.array([[0.1, 0.0], [0.6, 0.5]])
        pg = lim.limitations_playground(xi, q, beta=8.0, method=method)
        title = plots.limitations_figure(pg).layout.title.text
        assert title.startswith(plots.METHOD_NAMES[method])
        assert "beta_x" not in title and "lsr" not in title
