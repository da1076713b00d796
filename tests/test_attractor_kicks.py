"""Tests for assocmem.attractor.kicks: scale-up kicks on many patterns against λ_mem (Eq. 15).

An extension (the paper does only linear stability). Reference values: the empirical λ_mem of
each J_μ (the linear prediction for a kick along the pattern) and Eq. 15 of the paper via
``at.theory``; the tolerances are explained at each assertion.
"""

from __future__ import annotations

import numpy as np
import pytest

from assocmem import attractor as at
from assocmem.attractor import kicks


@pytest.fixture(scope="module")
def supralinear_net():
    # N = 200, α = 0.1, CV = σ = 1, n = 1.5: λ_mem ≈ +0.17 > 0 (Eq. 15), every pattern unstable
    return at.pinv_weights(at.sample_patterns(200, 20, 1.0, rng=0), 1.0, 1.5)


class TestPatternKickRates:
    def test_small_kicks_grow_at_each_patterns_lambda_mem(self, supralinear_net):
        k = kicks.pattern_kick_rates(supralinear_net, [0, 1, 2, 3], eps=[1e-3, 3e-3])
        assert k.rate.shape == (4, 2) and k.patterns.tolist() == [0, 1, 2, 3]
        assert np.all(k.mem_corr > 0.8)  # the λ_mem eigenvector is clean at α = 0.1
        # Linear theory: a kick along the pattern grows at λ_mem of J_μ; the 5 % allow for the
        # nonlinearity at the end of the window (d ≈ 0.03 for the larger kick).
        assert np.all(np.abs(k.rate / k.lambda_mem[:, None] - 1) < 0.05)

    def test_mean_over_patterns_is_near_eq15(self, supralinear_net):
        k = kicks.pattern_kick_rates(supralinear_net)
        assert k.rate.shape == (20, 1)
        # Eq. 15 is a population value; at N = 200 λ_mem scatters by about 20 % from pattern
        # to pattern, so the mean of 20 patterns is held to 15 %.
        eq15 = at.theory(1.0, 1.0, 1.5).lambda_mem
        assert abs(k.rate.mean() / eq15 - 1) < 0.15

    def test_one_pattern_equals_the_batch_row(self, supralinear_net):
        both = kicks.pattern_kick_rates(supralinear_net, [2, 5])
        one = kicks.pattern_kick_rates(supralinear_net, 5)
        np.testing.assert_allclose(one.rate[0], both.rate[1], rtol=1e-12)
        assert one.lambda_mem[0] == both.lambda_mem[1]

    def test_stable_patterns_decay(self):
        net = at.pinv_weights(at.sample_patterns(100, 5, 1.0, rng=0), 1.0, 1.0)
        k = kicks.pattern_kick_rates(net, eps=1e-3, T=60.0, t_min=30.0, t_max=60.0)
        assert np.all(k.rate < 0) and np.all(k.abscissa < 0)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"patterns": [20]}, "patterns"),
            ({"t_min": 10.0, "t_max": 5.0}, "t_min"),
            ({"t_max": 40.0}, "t_max"),
            ({"T": -1.0}, "T"),
            ({"eps": -0.1}, "eps"),
        ],
    )
    def test_bad_input_names_the_parameter(self, supralinear_net, kwargs, match):
        with pytest.raises(ValueError, match=match):
            kicks.pattern_kick_rates(supralinear_net, **kwargs)
