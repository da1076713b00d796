"""Tests for assocmem.attractor.sparse: QP weights, replica row moments, kink, margin, scans.

Oracles: note §2.1 (α_C table, replica recipe), §3.3 "Sparse case" (row moments, kink counts,
margin), §3.4 T15-T16. Fixed seeds; tolerances cover the seed-to-seed scatter we measured.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import lsq_linear

from assocmem import attractor as at
from assocmem.attractor import sparse


def _fields(net):
    return net.W @ net.R - net.theta


@pytest.fixture(scope="module")
def kink_net():
    # note §3.3: N = 200, f = 0.2, α = 0.2, θ = −0.5, κ = 0
    R = at.sample_patterns(200, 40, 1.0, 0, f=0.2)
    return at.sparse_weights(R, theta=-0.5)


# --------------------------------------------------------------------------------------------
# sparse_weights
# --------------------------------------------------------------------------------------------


class TestSparseWeights:
    def test_constraints_met_and_no_self_coupling(self, kink_net):
        net = kink_net
        H = _fields(net)
        on = net.R > 0
        assert net.all_feasible and net.max_violation.max() < 1e-9
        assert np.abs(H[on] - net.R[on]).max() < 1e-9  # W r − θ = r^{1/n} (n = 1)
        assert H[~on].max() < 1e-9
        assert np.all(np.diag(net.W) == 0)

    @settings(max_examples=6, deadline=None)
    @given(
        N=st.integers(8, 16),
        load=st.floats(0.1, 0.6),
        f=st.floats(0.2, 1.0),
        theta=st.floats(-1.0, 0.5),
        kappa=st.sampled_from([0.0, 0.2]),
        seed=st.integers(0, 1000),
    )
    def test_kkt_conditions(self, N, load, f, theta, kappa, seed):
        # Min-norm optimality: w = −Σ_μ λ_μ r^μ (self-coupling removed) with λ_μ >= 0 on the
        # inequalities and λ_μ = 0 unless the constraint is tight (complementary slackness).
        R = at.sample_patterns(N, max(1, round(load * N)), 1.0, seed, f=f)
        net = at.sparse_weights(R, theta, kappa=kappa)
        # tiny random instances can hold a genuinely infeasible row (e.g. a pattern whose only
        # active unit is k itself); those are flagged and excluded from the KKT check
        assert np.all(net.max_violation[net.feasible] < 1e-9)
        assert np.all(np.isinf(net.max_violation[~net.feasible]))
        for k in np.flatnonzero(net.feasible):
            A = R.T.copy()
            A[:, k] = 0.0
            slack = A @ net.W[k] - (theta - kappa)
            eq = R[k] > 0
            keep = eq | (np.abs(slack) < 1e-8)
            lo = np.where(eq[keep], -np.inf, 0.0)
            if not keep.any():
                assert np.abs(net.W[k]).max() < 1e-12
                continue
            fit = lsq_linear(-A[keep].T, net.W[k], bounds=(lo, np.inf), method="bvls")
            assert np.abs(-A[keep].T @ fit.x - net.W[k]).max() < 1e-7

    def test_margin_keeps_silent_units_below_threshold(self):
        R = at.sample_patterns(60, 15, 1.0, 3, f=0.3)
        net = at.sparse_weights(R, theta=-0.5, kappa=0.2)
        assert _fields(net)[R == 0].max() < -0.2 + 1e-9

    def test_rows_subset_equals_full_solution(self, kink_net):
        part = at.sparse_weights(kink_net.R, theta=-0.5, rows=[3, 7])
        assert part.W.shape == (2, 200)
        np.testing.assert_allclose(part.W, kink_net.W[[3, 7]], atol=1e-10)

    def test_above_capacity_rows_are_flagged_not_hidden(self):
        # α = 4 > α_C(0.5) = 1.4375 (note §2.1): rows infeasible, certified by the LP
        R = at.sample_patterns(20, 80, 1.0, 0, f=0.5)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            net = at.sparse_weights(R, theta=-0.5)
        assert not net.all_feasible
        assert np.all(np.isinf(net.max_violation[~net.feasible]))
        assert np.all(net.W[~net.feasible] == 0)

    def test_dense_linear_equals_zero_diagonal_pinv(self):
        # f = 1, n = 1: only equalities, so the QP is Eq. 20 with σ = 0
        R = at.sample_patterns(30, 6, 1.0, 1)
        net = at.sparse_weights(R, theta=-0.3)
        ref = at.zero_diag_weights(R, 0.0, 1.0, theta=-0.3)
        np.testing.assert_allclose(net.W, ref.W, atol=1e-9)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"kappa": -0.1}, "kappa"),
            ({"theta": float("nan")}, "theta"),
            ({"n": 0.0}, "n"),
            ({"rows": [5]}, "rows"),  # names sparse_weights' own parameter
        ],
    )
    def test_bad_parameters(self, kwargs, match):
        R = np.array([[1.0, 0.0], [0.5, 2.0], [0.0, 1.0]])
        args = {"theta": -0.5, **kwargs}
        with pytest.raises(ValueError, match=match):
            at.sparse_weights(R, **args)

    def test_negative_rates_rejected(self):
        with pytest.raises(ValueError, match="R"):
            at.sparse_weights(np.array([[1.0, -0.1], [0.5, 1.0]]), theta=0.0)


# --------------------------------------------------------------------------------------------
# replica theory
# --------------------------------------------------------------------------------------------


class TestReplicaRowMoments:
    def test_note_values(self):
        # note §3.3: f = 0.3, α = 0.6, θ = −0.5: q = 1.133, m = −1.226; f = 0.5: 1.282, −0.229.
        # Our solver agrees to < 1 % (the note's values carry its own rounding).
        for f, q, m in [(0.3, 1.133, -1.226), (0.5, 1.282, -0.229)]:
            mom = at.replica_row_moments(f, 0.6, -0.5)
            assert mom.q == pytest.approx(q, rel=0.01)
            assert mom.m == pytest.approx(m, abs=0.01)

    def test_dense_limit_is_eqs_6_and_7(self):
        # f = 1: q = α/(1−α) Var u / Var r (Eq. 6), m = (θ + ⟨u⟩)/⟨r⟩ (Eq. 7); σ = 0, n = 1.5
        cv, n, alpha, theta = 0.7, 1.5, 0.4, -0.3
        s2 = np.log1p(cv**2)
        Eu = np.exp(-s2 / 2 / n + s2 / 2 / n**2)
        var_u = np.exp(-s2 / n + 2 * s2 / n**2) - Eu**2
        mom = at.replica_row_moments(1.0, alpha, theta, cv=cv, n=n)
        assert mom.q == pytest.approx(alpha / (1 - alpha) * var_u / cv**2, rel=1e-12)
        assert mom.m == pytest.approx(theta + Eu, rel=1e-12)

    def test_q_independent_of_theta_and_diverges_at_capacity(self):
        a = at.replica_row_moments(0.2, 1.0, -1.0)
        b = at.replica_row_moments(0.2, 1.0, 0.7)
        assert a.q == pytest.approx(b.q, rel=1e-10)
        near = at.replica_row_moments(0.2, 0.999 * at.sparse_capacity(0.2).alpha_c, 0.0)
        assert near.q > 100 * a.q

    @pytest.mark.parametrize(
        ("args", "match"),
        [((0.0, 0.5, 0.0), "f"), ((1.2, 0.5, 0.0), "f"), ((0.5, 1.5, 0.0), "alpha")],
    )
    def test_bad_input(self, args, match):
        with pytest.raises(ValueError, match=match):
            at.replica_row_moments(*args)

    @pytest.mark.slow  # the note lists T15 as slow; the active-set QP takes < 1.5 s, CI runs it
    def test_t15_qp_rows_match_replica(self):
        # T15 (note §3.4): N = 300, f = 0.5, α = 0.6, θ = −0.5. Measured (3 seeds, 100 rows):
        # q 6-14 % above theory, m within 0.04; tolerance 25 % / 0.15 as in the note.
        R = at.sample_patterns(300, 180, 1.0, 0, f=0.5)
        rows = at.sparse_weights(R, theta=-0.5, rows=range(100))
        mom = at.replica_row_moments(0.5, 0.6, -0.5)
        assert rows.all_feasible
        assert abs(rows.q.mean() / mom.q - 1) < 0.25
        assert abs(rows.m.mean() - mom.m) < 0.15


class TestCapacityCurve:
    def test_matches_sparse_capacity_and_note_table(self):
        # note §2.1 table
        curve = at.capacity_curve([0.5, 0.1, 0.01])
        np.testing.assert_allclose(curve.alpha_c, [1.4375, 3.7693, 19.150], rtol=1e-3)
        f = curve.f
        np.testing.assert_allclose(curve.asymptote, 1 / (2 * f * np.log(1 / f)))

    def test_dense_point(self):
        curve = at.capacity_curve(1.0)
        assert curve.alpha_c[0] == 1.0 and np.isnan(curve.asymptote[0])

    def test_bad_f(self):
        with pytest.raises(ValueError, match="f"):
            at.capacity_curve([0.5, 0.0])


# --------------------------------------------------------------------------------------------
# kink, spectra
# --------------------------------------------------------------------------------------------


class TestKinkCount:
    def test_many_silent_units_sit_at_threshold(self, kink_net):
        # note §3.3: ~110 of 160 silent units (64-114 in general) at f = 0.2, N = 200, α = 0.2
        counts = at.kink_count(kink_net.W, kink_net.R, -0.5)
        silent = np.sum(kink_net.R == 0, axis=0)
        assert counts.mean() > 0.4 * silent.mean()

    def test_margin_removes_kinks(self, kink_net):
        net = at.sparse_weights(kink_net.R[:, :10], theta=-0.5, kappa=0.1)
        assert np.all(at.kink_count(net.W, net.R, -0.5) == 0)

    def test_bad_shapes(self):
        with pytest.raises(ValueError, match="W"):
            at.kink_count(np.zeros((3, 3)), np.ones((2, 1)), 0.0)


class TestSparseSpectrum:
    def test_active_set_equals_full_jacobian(self):
        # block-triangular structure (note §4.2); κ = 0.1 so that no h sits at the kink
        R = at.sample_patterns(60, 12, 1.0, 5, f=0.3)
        net = at.sparse_weights(R, theta=-0.5, kappa=0.1)
        spec = at.sparse_spectrum(net, [0, 1])
        for i, mu in enumerate([0, 1]):
            full = np.linalg.eigvals(at.jacobian(net.W, R[:, mu], 0.0, 1.0, -0.5))
            assert spec.abscissa[i] == pytest.approx(full.real.max(), abs=1e-10)
            assert np.sum(np.abs(full + 1) < 1e-9) >= 60 - spec.n_active[i]

    def test_conventions_agree_with_margin(self):
        R = at.sample_patterns(50, 10, 1.0, 2, f=0.3)
        net = at.sparse_weights(R, theta=-0.5, kappa=0.1)
        a = at.sparse_spectrum(net, kink="zero").abscissa
        b = at.sparse_spectrum(net, kink="one").abscissa
        np.testing.assert_allclose(a, b)

    def test_bad_input(self, kink_net):
        with pytest.raises(ValueError, match="kink"):
            at.sparse_spectrum(kink_net, 0, kink="half")
        part = at.sparse_weights(kink_net.R, theta=-0.5, rows=[0])
        with pytest.raises(ValueError, match="rows"):
            at.sparse_spectrum(part)
        R = at.sample_patterns(20, 80, 1.0, 0, f=0.5)
        with pytest.raises(ValueError, match="infeasible"):
            at.sparse_spectrum(at.sparse_weights(R, theta=-0.5, rows=None))


class TestKinkAndMarginT16:
    # T15/T16 are listed as slow in note §3.4 (L-BFGS-B, 5-20 s). They carry the slow marker,
    # so ``-m "not slow"`` leaves them out locally; with the active-set solver each takes < 1.5 s,
    # well inside the CI budget, so CI always runs them.

    def test_g0_zero_prediction_fails_in_simulation(self):
        # note §3.3: α = 0.5, θ = −0.5, κ = 0: g'(0) = 0 predicts stable (≈ −0.19), g'(0) = 1
        # unstable, and 1e−3 kicks escape for 3 of 4 patterns
        R = at.sample_patterns(200, 100, 1.0, 2, f=0.2)
        net = at.sparse_weights(R, theta=-0.5)
        assert np.all(at.sparse_spectrum(net, range(4)).abscissa < 0)
        assert np.all(at.sparse_spectrum(net, range(4), kink="one").abscissa > 0)
        kick = np.random.default_rng(0).standard_normal((200, 4))
        kick *= 1e-3 * np.linalg.norm(R[:, :4], axis=0) / np.linalg.norm(kick, axis=0)
        run = at.simulate(
            net.W, np.maximum(R[:, :4] + kick, 0), 0.0, 1.0, -0.5, dt=0.1, T=200, reference=R[:, :4]
        )
        assert np.sum(run.distance[-1] > 2e-3) >= 2

    @pytest.mark.slow
    def test_t16_margin_makes_linearisation_valid(self):
        # T16 (note §3.4): N = 150, f = 0.2, α = 0.3, θ = −0.5, κ = 0.1
        R = at.sample_patterns(150, 45, 1.0, 0, f=0.2)
        net = at.sparse_weights(R, theta=-0.5, kappa=0.1)
        assert _fields(net)[R == 0].max() <= -0.1 + 1e-6
        spec = at.sparse_spectrum(net, range(4))
        assert np.all(spec.abscissa < 0)
        kick = np.random.default_rng(1).standard_normal((150, 4))
        kick *= 1e-2 * np.linalg.norm(R[:, :4], axis=0) / np.linalg.norm(kick, axis=0)
        run = at.simulate(
            net.W, np.maximum(R[:, :4] + kick, 0), 0.0, 1.0, -0.5, dt=0.1, T=200, reference=R[:, :4]
        )
        assert np.all(run.distance[-1] < 1e-6)


# --------------------------------------------------------------------------------------------
# scans and the exploration
# --------------------------------------------------------------------------------------------


class TestStorageFraction:
    def test_drop_around_alpha_c(self):
        scan = at.storage_fraction(40, 0.5, [0.5, 3.0], rows=6, rng=0)
        assert scan.stored_fraction.tolist() == [1.0, 0.0]
        assert scan.alpha_c == pytest.approx(1.4375, abs=1e-3)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="rows"):
            at.storage_fraction(20, 0.5, [0.5], rows=30)
        with pytest.raises(ValueError, match="alphas"):
            at.storage_fraction(20, 0.5, [0.01])


class TestStorageMidpoints:
    def test_rows_are_storage_fraction_by_seed(self):
        a = [0.5, 1.0, 1.5, 3.0]
        mid = at.storage_midpoints(40, 0.5, a, rows=5, seeds=3)
        for s in range(3):
            ref = at.storage_fraction(40, 0.5, a, rows=5, rng=s).stored_fraction
            np.testing.assert_array_equal(mid.stored_fraction[s], ref)
        assert mid.alpha_c == pytest.approx(1.4375, abs=1e-3)

    def test_half_point_interpolates_the_first_drop(self):
        a = np.array([1.0, 2.0, 3.0, 4.0])
        # from 0.9 at α = 2 to 0.1 at α = 3: half-way at 2.5; a later rise does not count
        assert sparse._half_point(a, np.array([1.0, 0.9, 0.1, 0.8])) == pytest.approx(2.5)
        assert np.isnan(sparse._half_point(a, np.array([0.4, 0.3, 0.2, 0.1])))
        assert np.isnan(sparse._half_point(a, np.array([1.0, 1.0, 0.9, 0.5])))

    def test_bad_input(self):
        with pytest.raises(ValueError, match="seeds"):
            at.storage_midpoints(20, 0.5, [0.5], seeds=0)
        with pytest.raises(ValueError, match="rows"):
            at.storage_midpoints(20, 0.5, [0.5], rows=30)


class TestRowMomentSample:
    def test_rows_are_the_qp_rows_of_each_network(self):
        s = at.row_moment_sample(40, 0.3, 0.4, -0.5, networks=2, rows=4, rng=5)
        gen = np.random.default_rng(5)
        for i in range(2):
            R = at.sample_patterns(40, 16, 1.0, gen, f=0.3)
            net = at.sparse_weights(R, theta=-0.5, rows=range(4))
            np.testing.assert_allclose(s.q[i], net.q, rtol=1e-12)
            np.testing.assert_allclose(s.m[i], net.m, rtol=1e-12)

    def test_above_capacity_raises(self):
        with pytest.raises(ValueError, match="capacity"):
            at.row_moment_sample(30, 0.5, 3.0, -0.5, networks=1, rows=2)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="networks"):
            at.row_moment_sample(40, 0.3, 0.4, -0.5, networks=0)
        with pytest.raises(ValueError, match="rows"):
            at.row_moment_sample(40, 0.3, 0.4, -0.5, rows=41)


class TestSparseStabilityScan:
    def test_dense_linear_network_is_marginal(self):
        # C14 / pitfall 9: f = 1, σ = 0, n = 1 has a continuum of fixed points (abscissa 0)
        scan = at.sparse_stability_scan(40, 1.0, [0.2, 0.4], theta=-0.5, kappa=0.1, patterns=2)
        assert np.all(np.abs(scan.mean_abscissa) < 1e-8)
        assert np.all(scan.stable_fraction == 0)
        assert np.all(scan.stored_fraction == 1)

    def test_sparse_low_load_is_stable(self):
        scan = at.sparse_stability_scan(60, 0.2, [0.1], theta=-0.5, kappa=0.1, patterns=3)
        assert scan.stable_fraction[0] == 1.0 and scan.mean_kink[0] == 0

    def test_above_capacity_reports_not_stored(self):
        scan = at.sparse_stability_scan(20, 0.5, [5.0], theta=-0.5, patterns=1)
        assert scan.stored_fraction[0] < 1 and scan.stable_fraction[0] == 0
        assert np.isnan(scan.mean_abscissa[0])

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [({"N": 5}, "N"), ({"f": 0.0}, "f"), ({"kappa": -1.0}, "kappa"), ({"kink": "x"}, "kink")],
    )
    def test_bad_input(self, kwargs, match):
        args = {"N": 20, "f": 0.5, "alphas": [0.2], "theta": -0.5, **kwargs}
        with pytest.raises(ValueError, match=match):
            at.sparse_stability_scan(**args)


class TestSparseThresholdScan:
    def test_theta_zero_marginal_and_best_theta_negative(self):
        # C15 and note §3.3: θ = 0 with n = 1 is exactly marginal (homogeneity)
        scan = at.sparse_threshold_scan(60, 0.2, 0.3, [-0.75, -0.5, 0.0, 0.25], patterns=3)
        assert abs(scan.mean_abscissa[2]) < 1e-8
        assert scan.best_theta < 0 and scan.mean_abscissa.min() < 0

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            # used to fail inside numpy: "attempt to get argmin of an empty sequence"
            ({"thetas": []}, "thetas must hold at least 1 value"),
            ({"thetas": [0.0, np.nan]}, "thetas must be finite"),
            ({"alpha": 0.01}, "alpha must give P"),  # used to blame "alphas"
            ({"kappa": -0.1}, "kappa"),
        ],
    )
    def test_bad_input(self, kwargs, match):
        args = {"N": 10, "f": 0.5, "alpha": 0.2, "thetas": [-0.5], **kwargs}
        with pytest.raises(ValueError, match=match):
            at.sparse_threshold_scan(**args)


class TestThresholdOptima:
    def test_entries_are_the_scans_best_theta(self):
        th = [-1.0, -0.5, 0.0, 0.5]
        o = at.threshold_optima(40, [0.2, 0.4], [0.2], th, seeds=2, patterns=2)
        assert o.f.tolist() == [0.2, 0.2, 0.4, 0.4] and o.seed.tolist() == [0, 1, 0, 1]
        for k in range(4):
            scan = at.sparse_threshold_scan(
                40, o.f[k], 0.2, th, 0.1, patterns=2, rng=int(o.seed[k])
            )
            assert o.best_theta[k] == scan.best_theta
            assert o.best_abscissa[k] == scan.mean_abscissa.min()

    def test_bad_input(self):
        with pytest.raises(ValueError, match="seeds"):
            at.threshold_optima(40, [0.2], [0.2], [-0.5], seeds=0)
        with pytest.raises(ValueError, match="fs"):
            at.threshold_optima(40, [1.5], [0.2], [-0.5])
        with pytest.raises(ValueError, match="alphas must lie below capacity"):
            at.threshold_optima(20, [0.5], [3.0], [-0.5], seeds=1, patterns=1)


class TestKinkProfile:
    def test_kink_mass_and_margin(self):
        zero = at.kink_profile(0.2, 0.0, N=60)
        margin = at.kink_profile(0.2, 0.1, N=60)
        assert zero.n_kink > 0 and np.abs(zero.h_silent[-zero.n_kink :]).max() < 1e-7
        assert margin.n_kink == 0 and margin.h_silent.max() < -0.1 + 1e-9
        assert margin.abscissa == pytest.approx(margin.abscissa_one)

    def test_above_capacity_raises(self):
        with pytest.raises(ValueError, match="capacity"):
            at.kink_profile(0.5, 0.0, N=20, alpha=5.0)
