"""Tests for assocmem.attractor.dynamics: kicks, decay rates, basins, Lyapunov covariances.

Source of the reference values: shared/notes/03-attractor-stability.md, §3.3 "Dynamics"
(measured distances and the n = 1.5 runaway), §4.4 (basins, noisy dynamics; an extension: the
paper does only linear stability) and pitfall 12 (slow modes, blow-up). T14 of note §3.4 lives in
tests/test_attractor_network.py and is not repeated here.
"""

from __future__ import annotations

import warnings
from typing import ClassVar

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem import attractor as at
from assocmem.attractor.network import Trajectory


@pytest.fixture(scope="module")
def stable_net():
    # N = 300, α = 0.05, CV = σ = n = 1: abscissa ≈ −0.03 (note §3.3: −0.031 at α = 0.1)
    return at.pinv_weights(at.sample_patterns(300, 15, 1.0, rng=0), 1.0, 1.0)


@pytest.fixture(scope="module")
def small_net():
    return at.pinv_weights(at.sample_patterns(60, 3, 1.0, rng=2), 1.0, 1.0)


class TestKickStates:
    def test_directions_have_the_stated_geometry(self):
        rng = np.random.default_rng(0)
        r = np.exp(rng.standard_normal(50))
        nu = np.exp(rng.standard_normal(50))
        X = at.kick_states(r, [0.1, 0.2, 0.3], ["random", "pattern", "other"], rng=1, other=nu)
        assert X.shape == (50, 3)
        # random: relative distance exactly ε
        assert np.linalg.norm(X[:, 0] - r) / np.linalg.norm(r) == pytest.approx(0.1, rel=1e-12)
        np.testing.assert_allclose(X[:, 1], 1.2 * r)
        np.testing.assert_allclose(X[:, 2], 0.7 * r + 0.3 * nu)

    def test_count_is_eps_major_and_cycles_targets(self):
        r = np.ones(4)
        others = np.column_stack([2 * np.ones(4), 3 * np.ones(4)])
        X = at.kick_states(r, [0.5, 1.0], "other", other=others, count=2)
        np.testing.assert_allclose(X[0], [1.5, 2.0, 2.0, 3.0])

    def test_seeded(self):
        r = np.linspace(0.5, 2.0, 20)
        a = at.kick_states(r, 0.1, "random", rng=3, count=4)
        b = at.kick_states(r, 0.1, "random", rng=3, count=4)
        np.testing.assert_array_equal(a, b)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"eps": 0.0}, "eps"),
            ({"eps": [0.1, np.nan]}, "eps"),
            ({"direction": "sideways"}, "direction"),
            ({"direction": ["random"] * 3}, "direction"),
            ({"direction": "other"}, "other"),
            ({"count": 0}, "count"),
        ],
    )
    def test_bad_input(self, kwargs, match):
        args = {"r": np.ones(5), "eps": [0.1, 0.2], "direction": "random", **kwargs}
        with pytest.raises(ValueError, match=match):
            at.kick_states(**args)

    def test_random_kick_of_a_pattern_whose_norm_squared_overflows(self):
        # ‖r‖² = 2.5e401 overflows float64, ‖r‖ = 5e200 does not: the kick is still of relative
        # size exactly ε (the norm is taken on r / max|r|), with no overflow warning.
        r = np.array([3e200, 4e200])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            X = at.kick_states(r, 0.1, "random", rng=0)
        assert np.linalg.norm((X[:, 0] - r) / 1e200) / 5.0 == pytest.approx(0.1, rel=1e-12)

    def test_other_is_checked_even_when_unused(self):
        # the target patterns are validated whenever given, not only for direction "other"
        with pytest.raises(ValueError, match="other"):
            at.kick_states(np.ones(5), 0.1, "random", other=[1.0, np.nan, 1.0, 1.0, 1.0])
        with pytest.raises(TypeError, match="direction"):
            at.kick_states(np.ones(5), 0.1, 3)

    def test_bad_shapes(self):
        with pytest.raises(ValueError, match="r must"):
            at.kick_states(np.ones((3, 2)), 0.1, "random")
        with pytest.raises(ValueError, match="other"):
            at.kick_states(np.ones(5), 0.1, "other", other=np.ones(4))
        with pytest.raises(TypeError, match="count"):
            at.kick_states(np.ones(5), 0.1, "random", count=1.5)


class TestKickExperiment:
    def test_batch_equals_single_runs(self, small_net):
        batch = at.kick_experiment(small_net, 1, [0.01, 0.05], "pattern", T=10.0)
        for b, eps in enumerate((0.01, 0.05)):
            one = at.kick_experiment(small_net, 1, eps, "pattern", T=10.0)
            np.testing.assert_allclose(batch.distance[:, b], one.distance[:, 0], rtol=1e-10)
        assert batch.direction == ("pattern", "pattern")
        np.testing.assert_array_equal(batch.eps, [0.01, 0.05])

    def test_stable_pattern_returns_and_reports_spectrum(self, stable_net):
        run = at.kick_experiment(stable_net, 0, [0.01, 0.1], "random", T=150.0, rng=0, count=2)
        spec = at.jacobian_spectrum(stable_net, [0])
        assert run.abscissa == pytest.approx(float(spec.abscissa[0]))
        assert run.abscissa < 0 and not run.blew_up
        # note §3.3: 1 % and 10 % kicks at α = 0.1 reach ≲ 4e-4 by t = 100; here α = 0.05
        assert run.distance[-1].max() < 1e-3
        np.testing.assert_array_less(0.999, run.corr)

    def test_unstable_pattern_escapes(self):
        # note §3.3: α = 0.35 > α_S, a 1 % kick ends elsewhere (corr ≈ 0.15 at N = 1000)
        net = at.pinv_weights(at.sample_patterns(200, 70, 1.0, rng=0), 1.0, 1.0)
        run = at.kick_experiment(net, 0, 0.01, "random", T=400.0, rng=1)
        assert run.abscissa > 0
        assert run.distance[-1, 0] > 0.3 and run.corr[0] < 0.7

    def test_supralinear_runaway_stops_only_that_run(self):
        # note §3.3: n = 1.5, α = 0.1 (λ_mem ≈ +0.17): 1 % scale-up diverges within ~50τ
        net = at.pinv_weights(at.sample_patterns(300, 30, 1.0, rng=0), 1.0, 1.5)
        run = at.kick_experiment(net, 0, [0.01, 0.01], ["pattern", "random"], T=100.0)
        assert run.blew_up and run.blown[0] and run.t_stop[0] < 60
        # the random kick is not stopped with it: it runs on past the scale-up's blow-up
        assert run.t_stop[1] > run.t_stop[0] and np.all(np.isfinite(run.corr))
        k_stop = np.searchsorted(run.times, run.t_stop[0])
        assert np.all(np.isfinite(run.distance[: k_stop + 1, 0]))
        assert np.all(np.isnan(run.distance[k_stop + 1 :, 0]))
        assert run.mem_corr > 0.9 and run.lambda_mem.real > 0.1  # T8 tolerance, note §3.4
        assert run.distance.shape == (run.times.size, 2)

    def test_bad_input(self, small_net):
        with pytest.raises(TypeError, match="net"):
            at.kick_experiment(np.eye(3), 0, 0.1, "random", T=1.0)
        with pytest.raises(ValueError, match="mu"):
            at.kick_experiment(small_net, 3, 0.1, "random", T=1.0)
        with pytest.raises(ValueError, match="T"):
            at.kick_experiment(small_net, 0, 0.1, "random", T=-1.0)
        one = at.pinv_weights(at.sample_patterns(20, 1, 1.0, rng=0), 1.0, 1.0)
        with pytest.raises(ValueError, match="P >= 2"):
            at.kick_experiment(one, 0, 0.1, "other", T=1.0)
        with pytest.raises(TypeError, match="rng"):  # checked although no kick is random
            at.kick_experiment(small_net, 0, 0.1, "pattern", T=1.0, rng="abc")

    def test_huge_duration_is_refused_at_once(self, small_net):
        # T = 1e300 used to loop over ceil(T/dt) Euler steps; the cap is MAX_STEPS = 1e7.
        with pytest.raises(ValueError, match=r"T asks for 1e\+301 Euler steps.*limit"):
            at.kick_experiment(small_net, 0, 0.1, "random", T=1e300)


class TestDecayRate:
    def test_exact_exponential(self):
        t = np.linspace(0.0, 20.0, 201)
        d = np.column_stack([np.exp(-0.3 * t), 1e-3 * np.exp(0.1 * t)])
        fit = at.decay_rate(Trajectory(t, d, None, False, 20.0), t_min=2.0, t_max=18.0)
        np.testing.assert_allclose(fit.rate, [-0.3, 0.1], atol=1e-10)
        np.testing.assert_allclose(fit.intercept, [0.0, np.log(1e-3)], atol=1e-9)
        assert (fit.t_lo, fit.t_hi) == (2.0, 18.0)

    def test_points_below_floor_are_ignored(self):
        t = np.linspace(0.0, 10.0, 11)
        d = np.exp(-t)
        d[6:] = 0.0  # round-off floor
        fit = at.decay_rate(Trajectory(t, d, None, False, 10.0), t_min=0.0, floor=1e-12)
        assert fit.rate[0] == pytest.approx(-1.0)
        empty = at.decay_rate(Trajectory(t, np.zeros(11), None, False, 10.0))
        assert np.isnan(empty.rate[0])

    def test_rate_matches_abscissa(self, stable_net):
        # Linear stability (Eq. 5): the late decay of an along-pattern kick is e^{λ* t}. The
        # slow mode is well separated here, so 20 % is loose (measured within 2 %, 4 seeds).
        run = at.kick_experiment(stable_net, 0, 0.01, "pattern", T=200.0)
        fit = at.decay_rate(run, t_min=80.0)
        assert fit.rate[0] / run.abscissa == pytest.approx(1.0, abs=0.2)

    def test_bad_input(self):
        t = np.linspace(0.0, 1.0, 5)
        run = Trajectory(t, np.ones(5), None, False, 1.0)
        with pytest.raises(TypeError, match="run"):
            at.decay_rate(object())
        with pytest.raises(ValueError, match="t_min"):
            at.decay_rate(run, t_min=0.8, t_max=0.2)
        with pytest.raises(ValueError, match="floor"):
            at.decay_rate(run, floor=0.0)
        with pytest.raises(ValueError, match="3 recorded"):
            at.decay_rate(Trajectory(t[:2], np.ones(2), None, False, 0.25))


class TestBasinCurve:
    KW: ClassVar[dict] = {"N": 100, "eps_grid": (1e-3, 0.1, 0.6, 1.0), "kicks": 2, "T": 120.0}

    def test_stable_load_has_a_basin_unstable_load_none(self):
        low = at.basin_curve(alpha=0.05, direction="other", **self.KW)
        high = at.basin_curve(alpha=0.4, **self.KW)
        assert low.abscissa < 0 < high.abscissa
        assert low.radius >= 0.1 and low.recovered[0] == 1.0
        assert low.recovered[-1] == 0.0  # ε = 1 is the other stored pattern itself
        assert high.radius == 0.0 and np.all(high.recovered == 0.0)
        # small kicks grow at about the abscissa above α_S (pitfall 12: report the rate)
        assert high.rate[0] > 0

    def test_radius_is_contiguous_from_below(self):
        c = at.basin_curve(alpha=0.05, direction="other", **self.KW)
        ok = c.recovered >= 0.5
        k = int(np.argmin(ok)) if not ok.all() else ok.size
        assert c.radius == (c.eps[k - 1] if k else 0.0)

    def test_cached_and_deterministic(self):
        a = at.basin_curve(alpha=0.05, **self.KW)
        b = at.basin_curve(alpha=0.05, **self.KW)
        assert a is b
        assert not a.recovered.flags.writeable
        c = at.basin_curve(alpha=0.05, seed=1, **self.KW)
        assert c is not a

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"alpha": 0.95}, "alpha"),
            ({"alpha": 0.01}, "alpha"),
            ({"eps_grid": (0.1, 0.01)}, "eps_grid"),
            ({"eps_grid": (0.0, 0.1)}, "eps_grid"),
            ({"direction": "up"}, "direction"),
            ({"shrink": 1.0}, "shrink"),
            ({"N": 5}, "N"),
            ({"kicks": 0}, "kicks"),
            ({"T": 1e300}, "T asks for 1e\\+301 Euler steps"),  # used to hang
        ],
    )
    def test_bad_input(self, kwargs, match):
        args = {"N": 100, "alpha": 0.1, **kwargs}
        with pytest.raises(ValueError, match=match):
            at.basin_curve(**args)


def _stable_matrix(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, n)) / np.sqrt(n)
    return A - (np.linalg.eigvals(A).real.max() + 0.2) * np.eye(n)


class TestLyapunovCovariance:
    def test_solves_the_continuous_equation(self):
        J = _stable_matrix(0, 40)
        C = at.lyapunov_covariance(J, 0.3)
        assert np.abs(J @ C + C @ J.T + 0.09 * np.eye(40)).max() < 1e-10
        np.testing.assert_allclose(C, C.T)
        assert np.linalg.eigvalsh(C).min() > 0

    def test_discrete_equation_and_small_dt_limit(self):
        J = _stable_matrix(1, 20)
        dt = 0.1
        Cd = at.lyapunov_covariance(J, 1.0, dt=dt)
        A = np.eye(20) + dt * J
        assert np.abs(A @ Cd @ A.T + dt * np.eye(20) - Cd).max() < 1e-10
        Cc = at.lyapunov_covariance(J, 1.0)
        # Euler–Maruyama bias is O(dt): relative difference shrinks ~10x with dt
        err = [np.abs(at.lyapunov_covariance(J, 1.0, dt=h) - Cc).max() for h in (0.1, 0.01)]
        assert err[1] < 0.2 * err[0]

    def test_scalar_ou(self):
        # one mode at −λ: variance η²/(2λ); Euler map: η² dt/(1 − (1 − λ dt)²)
        assert at.lyapunov_covariance([[-0.25]], 0.5)[0, 0] == pytest.approx(0.5)
        disc = at.lyapunov_covariance([[-0.25]], 0.5, dt=0.1)[0, 0]
        assert disc == pytest.approx(0.25 * 0.1 / (1 - 0.975**2))

    @settings(max_examples=15, deadline=None)
    @given(st.integers(0, 10_000), st.integers(2, 12), st.floats(0.01, 2.0))
    def test_property_equation_holds(self, seed, n, eta):
        J = _stable_matrix(seed, n)
        C = at.lyapunov_covariance(J, eta)
        resid = J @ C + C @ J.T + eta**2 * np.eye(n)
        assert np.abs(resid).max() < 1e-10 * max(1.0, np.abs(C).max())
        assert np.linalg.eigvalsh(C).min() > -1e-12

    def test_bad_input(self):
        with pytest.raises(ValueError, match="stable"):
            at.lyapunov_covariance(np.eye(3), 1.0)
        with pytest.raises(ValueError, match="square"):
            at.lyapunov_covariance(np.ones((2, 3)), 1.0)
        with pytest.raises(ValueError, match="eta"):
            at.lyapunov_covariance(-np.eye(2), -1.0)
        with pytest.raises(ValueError, match="dt"):
            at.lyapunov_covariance(-30.0 * np.eye(2), 1.0, dt=0.1)  # |1 + dt λ| = 2

    def test_linear_in_eta_squared_and_overflow_refused(self):
        # C solves a linear equation with right-hand side η² I, so C(η) = η² C(1) exactly; at
        # η = 1e200 the variance η²/(2λ) = 1e400 exceeds float64 and is refused (it used to
        # reach scipy as η² = inf and fail with "array must not contain infs or NaNs").
        assert at.lyapunov_covariance([[-0.5]], 1e150)[0, 0] == pytest.approx(1e300)
        with pytest.raises(ValueError, match="eta=1e"):
            at.lyapunov_covariance([[-0.5]], 1e200)


@pytest.fixture(scope="module")
def fluct():
    net = at.pinv_weights(at.sample_patterns(80, 4, 1.0, rng=0), 1.0, 1.0)
    return at.stationary_covariance(net, 0, 0.01, T=200.0, burn_in=80.0, walkers=8, rng=1)


class TestStationaryCovariance:
    def test_matches_lyapunov(self, fluct):
        # tr C is dominated by modes with correlation time ~1τ: 8 walkers × 200τ give a
        # relative sampling error of about sqrt(2/1600) ≈ 4 %, so 10 % is ~3 s.d.
        assert fluct.total_var_emp / fluct.total_var_pred == pytest.approx(1.0, abs=0.1)
        # slow mode, correlation time 1/|λ*|: error ≈ sqrt(2/(8·200·|λ*|)); allow 3 s.d.
        sd = np.sqrt(2 / (8 * 200 * abs(fluct.abscissa)))
        assert abs(fluct.slow_var_emp / fluct.slow_var_pred - 1) < 3 * sd
        assert fluct.slow_var_pred == pytest.approx(fluct.eta**2 / (2 * abs(fluct.abscissa)))
        assert fluct.samples == 8 * 200

    def test_lyapunov_fields_solve_their_equations(self, fluct):
        assert fluct.C_cont.shape == fluct.C_lyap.shape == fluct.C_emp.shape == (80, 80)
        ev = scipy.linalg.eigvals(fluct.C_cont)
        assert ev.real.min() > 0

    def test_bad_input(self, small_net):
        unstable = at.pinv_weights(at.sample_patterns(100, 40, 1.0, rng=0), 1.0, 1.0)
        with pytest.raises(ValueError, match="stable"):
            at.stationary_covariance(unstable, 0, 0.01, T=1.0)
        with pytest.raises(ValueError, match="stride"):
            at.stationary_covariance(small_net, 0, 0.01, T=1.0, dt=0.1, stride=0.05)
        with pytest.raises(ValueError, match="eta"):
            at.stationary_covariance(small_net, 0, 0.0, T=1.0)
        with pytest.raises(TypeError, match="net"):
            at.stationary_covariance("net", 0, 0.01)

    @pytest.mark.parametrize("param", ["T", "burn_in", "stride"])
    def test_huge_durations_are_refused_at_once(self, small_net, param):
        # each used to loop over ceil(duration/dt) Euler steps; the cap is MAX_STEPS = 1e7
        kwargs = {"T": 1.0, "burn_in": 0.0, "stride": 1.0, param: 1e300}
        with pytest.raises(ValueError, match=rf"{param} asks for .* Euler steps"):
            at.stationary_covariance(small_net, 0, 0.01, **kwargs)
