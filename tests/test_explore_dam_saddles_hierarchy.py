"""Tests for assocmem.explore.dam_saddles.hierarchy: the views and figures of ``ds-hierarchy``.

"note" below is ``shared/notes/04-dam-saddle-hierarchy.md`` (checks D4, D5, D7 and D11 of its
§3.2); the paper is Thériault & Tantari (2025). The views assemble library results, so the tests
check them against direct library calls and against the closed forms of the note.
"""

from __future__ import annotations

import numpy as np
import pytest

from assocmem.explore.dam_saddles import hierarchy as plots
from assocmem.potts_dam import hierarchy, model
from assocmem.potts_dam.model import DamState


def _instance(seed: int, B: int = 40, N: int = 8, P: int = 5, C: int = 3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((B, N))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    w = rng.standard_normal((P, N))
    w /= np.linalg.norm(w, axis=1, keepdims=True)
    p = rng.random((C + 1, P + 1)) + 0.02
    p /= p.sum()
    Q = rng.dirichlet(np.ones(C + 1), size=B)
    return X, Q, DamState(w=w, p=p, beta=float(rng.uniform(0.5, 20.0)))


def _toy_state(t: plots.TwoGroupSplit):
    n = t.patterns.shape[0]
    Q = model.soft_labels(np.zeros(n, dtype=int), 1)
    s = DamState(w=t.mean_direction[None, :], p=np.array([[0.0, 0.0], [0.0, 1.0]]), beta=t.beta)
    return Q, s


class TestDuplicationCheck:
    @pytest.mark.parametrize("varsigma", [1.0, 0.4])
    def test_d7_identity_holds_to_rounding(self, varsigma: float) -> None:
        # Note D7 (P10): loss, densities, halved w-gradients, equal p-gradients and the
        # marginals are exact under Eq. 13; tolerance 1e-10 as in the note.
        X, Q, s = _instance(2)
        c = plots.duplication_check(X, Q, s, [3, 0, 4], varsigma)
        assert c.units == (0, 3, 4)
        assert c.loss == pytest.approx(model.effective_loss(X, Q, s.w, s.p, s.beta, varsigma))
        assert abs(c.loss_duplicated - c.loss) < 1e-10
        assert max(c.density_error, c.w_grad_error, c.p_grad_error, c.marginal_error) < 1e-10

    def test_a_wrong_duplication_would_show(self) -> None:
        # The check is not vacuous: copies that keep the full class weight change the loss.
        X, Q, s = _instance(3)
        p = np.concatenate([s.p, s.p[:, 1:2]], axis=1)
        p /= p.sum()
        wrong = model.effective_loss(X, Q, np.vstack([s.w, s.w[:1]]), p, s.beta)
        c = plots.duplication_check(X, Q, s, [0])
        assert abs(wrong - c.loss) > 1e-3


class TestCurvatureCurves:
    def test_d5_single_cluster_parabola(self) -> None:
        # Note D5 and §2.6: with responsibility 1, λ_min = β(R̄ − βλ_max), so the sign flips
        # at β_c = R̄/λ_max; the grid crossing is linear interpolation (error < grid step²).
        t = plots.two_group_split(1.0, 0.05, steps=1)
        Q, s = _toy_state(t)
        grid = np.linspace(0.5 * t.beta_c, 1.5 * t.beta_c, 41)
        c = plots.curvature_curves(t.patterns, Q, s, grid)
        np.testing.assert_allclose(
            c.lambda_min[:, 0], grid * (t.R_bar - grid * t.lambda_max), rtol=1e-9, atol=1e-12
        )
        assert c.beta_split[0] == pytest.approx(t.beta_c, rel=1e-3)
        assert c.state_beta == t.beta and c.varsigma == 1.0

    def test_columns_are_the_library_spectrum(self) -> None:
        X, Q, s = _instance(4)
        c = plots.curvature_curves(X, Q, s, [1.0, 5.0, 30.0], 0.5)
        direct = hierarchy.splitting_spectrum(X, Q, DamState(w=s.w, p=s.p, beta=5.0), 0.5)
        np.testing.assert_array_equal(c.lambda_min[1], direct.eigenvalues)

    def test_crossings(self) -> None:
        lam = np.array([[1.0, -1.0, 1.0], [-1.0, -2.0, 2.0], [-3.0, -3.0, 3.0]])
        out = plots._first_crossing(np.array([1.0, 2.0, 3.0]), lam)
        np.testing.assert_allclose(out, [1.5, 1.0, np.inf])

    def test_betas_must_increase(self) -> None:
        X, Q, s = _instance(4)
        with pytest.raises(ValueError, match="betas"):
            plots.curvature_curves(X, Q, s, [2.0, 1.0])


class TestTwoGroupSplit:
    @pytest.mark.parametrize("ratio", [0.9, 0.98])
    def test_d4_copies_merge_below_the_threshold(self, ratio: float) -> None:
        # Note D4: ‖w¹ − w²‖ → 0 below β_c (note: < 1e-4 at 0.90 and 0.98 β_c).
        t = plots.two_group_split(ratio, 0.05)
        assert t.lambda_min > 0
        assert t.separation[-1] < 1e-4 and t.separation[0] > 0.09
        assert abs(t.loss_end) < 1e-10

    @pytest.mark.parametrize("ratio", [1.05, 1.1, 1.5])
    def test_d4_copies_split_above_the_threshold(self, ratio: float) -> None:
        # Note D4: > 0.1 at >= 1.05 β_c (seed-dependent values: 0.27 at 1.02, 0.56 at 1.1, 1.00
        # at 1.5 for the note's seed); splitting lowers the loss.
        t = plots.two_group_split(ratio, 0.05)
        assert t.lambda_min < 0
        assert t.separation[-1] > 0.1 and t.loss_end < 0

    def test_separation_grows_with_beta(self) -> None:
        seps = [plots.two_group_split(r, 0.05).separation[-1] for r in (1.05, 1.1, 1.5)]
        assert np.all(np.diff(seps) > 0)

    def test_threshold_and_curvature_are_the_library_values(self) -> None:
        t = plots.two_group_split(1.1, 0.05, noise=0.6, N=30, rng=3)
        Q, s = _toy_state(t)
        spec = hierarchy.splitting_spectrum(t.patterns, Q, s)
        assert t.lambda_min == pytest.approx(float(spec.eigenvalues[0]), rel=1e-10)
        assert t.beta == pytest.approx(1.1 * t.beta_c)
        assert abs(spec.vectors[0] @ t.direction) == pytest.approx(1.0, abs=1e-8)

    def test_d11_loss_along_the_escape(self) -> None:
        # Note D11: the exact loss change of copies at x̃ ± δu is (δ²/2) uᵀ𝒮u + O(δ⁴); it equals
        # model.loss differences (the view drops only the constant log Ω_N(β)).
        t = plots.two_group_split(1.1, 0.05)
        Q, s = _toy_state(t)
        base = model.loss(t.patterns, Q, s.w, s.p, s.beta)
        for k in (5, 30):
            d = hierarchy.split_units(s, [0], t.direction[None, :], float(t.deltas[k]))
            change = model.loss(t.patterns, Q, d.w, d.p, d.beta) - base
            assert t.loss_change[k] == pytest.approx(change, rel=1e-9, abs=1e-14)
        small = t.loss_change[1] / (t.deltas[1] ** 2 / 2)  # δ = 0.01
        assert small == pytest.approx(t.lambda_min, rel=1e-2)
        np.testing.assert_allclose(t.quadratic, t.deltas**2 / 2 * t.lambda_min)

    def test_start_is_the_escape_and_records_are_ordered(self) -> None:
        t = plots.two_group_split(1.2, 0.1, steps=50)
        assert t.separation[0] == pytest.approx(np.linalg.norm(t.start[0] - t.start[1]))
        assert t.steps[0] == 0 and t.steps[-1] == 50 and np.all(np.diff(t.steps) > 0)
        np.testing.assert_allclose(np.linalg.norm(t.end, axis=1), 1.0)

    def test_n_must_be_even(self) -> None:
        with pytest.raises(ValueError, match="n must be even"):
            plots.two_group_split(1.1, 0.05, n=7)

    def test_generator_and_seed_agree(self) -> None:
        a = plots.two_group_split(1.1, 0.05, steps=5, rng=4)
        b = plots.two_group_split(1.1, 0.05, steps=5, rng=np.random.default_rng(4))
        np.testing.assert_array_equal(a.patterns, b.patterns)


class TestFigures:
    def test_curvature_figure(self) -> None:
        X, Q, s = _instance(5)
        c = plots.curvature_curves(X, Q, s, [0.5, 5.0, 40.0])
        fig = plots.plot_curvature(c)
        names = [t.name for t in fig.data if t.showlegend is not False]
        assert any(n.startswith("split β of a unit") for n in names)
        assert any(n.startswith("trained β") for n in names)
        assert any(n.startswith("λ = 0") for n in names)
        units = [t for t in fig.data if t.legendgroup == "units"]
        assert len(units) == s.w.shape[0] and all(t.opacity < 1 for t in units)
        first = [t for t in fig.data if t.name.endswith("the first to split")]
        assert len(first) == int(np.isfinite(c.beta_split).any())
        assert len(fig.layout.shapes) == 2

    def test_two_group_figure(self) -> None:
        t = plots.two_group_split(1.2, 0.1, steps=100)
        fig = plots.plot_two_group_split(t)
        assert len(fig.data) == 6
        assert fig.layout.xaxis3.type == "log"
        assert "β/β<sub>c</sub> = 1.2" in fig.layout.title.text
        # the separation panel starts at iteration 1 (a log axis)
        assert fig.data[-1].x[0] == 1
