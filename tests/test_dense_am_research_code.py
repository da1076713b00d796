"""Tests for assocmem.dense_am.research_code: the public counting code and its exact arbiter.

Reference behaviour: the paper's public repository (GitHub ``bhoov/EpanechnikovDenseAM``), files
``exp_LMIN0.py`` (brute force, float32, ‖∇E‖ < 5e-6) and ``QBVAE_utils.py``
(``compute_minima_information``: rounding to 6 decimals, ‖∇E‖ < 1e-5, > 15 neighbours skipped).
The exact rule is note §1.7: a subset is a strict minimum iff every member is strictly inside
the support sphere of its centroid and every non-member strictly outside.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from assocmem.dense_am import (
    CountingComparison,
    ExactVerdict,
    PublicMinima,
    beta_thresholds,
    compare_counting_methods,
    counting_survey,
    exact_self_consistency,
    fig3_beta_grid,
    lsr_minima,
    public_bruteforce_minima,
    public_neighbourhood_minima,
)

# d = 1: patterns at 0 and 1 far apart (R = 0.2 at β = 50) and one at 0.5 + 2**-20. The
# centroid of {0, 1} is 0.5, about 1e-6 from the true minimum ξ_2, so its float32 gradient
# (≈ 2**-20 ≈ 9.5e-7) passes the brute force's 5e-6 although {0, 1} is not self-consistent;
# so does {0, 1, 2}, whose centroid is 2**-20 / 3 from ξ_2.
NEAR_DUPLICATE = np.array([[0.0], [1.0], [0.5 + 2.0**-20]])
NEAR_DUPLICATE_BETA = 50.0


def shallow_pair(eta: float) -> tuple[np.ndarray, float]:
    """A float32 pair whose midpoint is a minimum with each ReLU term equal to η (depth).

    The members sit at squared distance (1 − η)·2/β from the midpoint, so the denominator of
    the gradient is 2η. The midpoint 0.4234567 has seven decimals: rounding it to six moves it
    by ≈ 3e-7, so the rounded gradient is ≈ 6e-7 / (2η) (above 1e-5 for η = 0.03).
    """
    X = np.array([[0.1234567], [0.7234567]], dtype=np.float32).astype(np.float64)
    a = X[1, 0] - X[0, 0]
    return X, 2.0 / ((a / 2) ** 2 / (1.0 - eta))


class TestPublicBruteforceMinima:
    def test_agrees_with_exact_on_two_patterns_in_the_window(self):
        # note §2.9: two patterns at distance 1 have three minima for 2 < β < 8
        out = public_bruteforce_minima([[0.0], [1.0]], beta=5.0)
        assert isinstance(out, PublicMinima)
        assert out.index_sets == ((0,), (1,), (0, 1))  # increasing bitmask order
        assert out.count == 3 and out.skipped == ()
        assert out.grad_norms.dtype == np.float32

    def test_over_counts_near_duplicate_centroids(self):
        out = public_bruteforce_minima(NEAR_DUPLICATE, NEAR_DUPLICATE_BETA)
        assert lsr_minima(NEAR_DUPLICATE, NEAR_DUPLICATE_BETA) == [(0,), (1,), (2,)]
        assert set(out.index_sets) == {(0,), (1,), (2,), (0, 1), (0, 1, 2)}
        assert np.all(out.grad_norms < 5e-6)

    def test_tighter_tolerance_removes_the_near_duplicates(self):
        # the reported gradient of {0, 1} is ≈ 2**-20; a threshold below it drops the pair
        out = public_bruteforce_minima(NEAR_DUPLICATE, NEAR_DUPLICATE_BETA, grad_tol=1e-7)
        assert set(out.index_sets) == {(0,), (1,), (2,)}

    def test_misses_a_shallow_pair(self):
        # depth η = 1e-3: float32 rounding of the centroid and of the differences leaves a
        # gradient ≈ 1e-8 / 2e-3 > 5e-6 (found by construction, exact verdict below)
        X, beta = shallow_pair(1e-3)
        assert (0, 1) in lsr_minima(X, beta)
        assert (0, 1) not in public_bruteforce_minima(X, beta).index_sets
        assert exact_self_consistency(X, [0, 1], beta).verdict == "minimum"

    def test_drops_unsupported_centroids(self):
        # β = 200 (R = 0.1): the midpoint of 0 and 1 has no pattern within R, E = inf
        out = public_bruteforce_minima([[0.0], [1.0]], beta=200.0)
        assert out.index_sets == ((0,), (1,))

    def test_refuses_too_many_subsets(self):
        with pytest.raises(ValueError, match="memories"):
            public_bruteforce_minima(np.zeros((23, 1)), beta=1.0)

    @pytest.mark.parametrize("grad_tol", [0.0, -1.0, float("nan")])
    def test_bad_grad_tol(self, grad_tol):
        with pytest.raises(ValueError, match="grad_tol"):
            public_bruteforce_minima([[0.0], [1.0]], beta=5.0, grad_tol=grad_tol)


class TestPublicNeighbourhoodMinima:
    def test_agrees_with_exact_on_a_deep_pair(self):
        X, beta = shallow_pair(0.1)
        out = public_neighbourhood_minima(X, beta)
        assert sorted(out.index_sets) == lsr_minima(X, beta) == [(0,), (0, 1), (1,)]

    def test_rounding_under_counts_a_shallow_pair(self):
        # depth η = 0.03: the brute force (no rounding) keeps the pair, the rounded test fails
        X, beta = shallow_pair(0.03)
        assert (0, 1) in lsr_minima(X, beta)
        assert (0, 1) in public_bruteforce_minima(X, beta).index_sets
        assert sorted(public_neighbourhood_minima(X, beta).index_sets) == [(0,), (1,)]

    def test_skips_patterns_with_more_than_15_neighbours(self):
        # 17 patterns on [0, 0.16] at β = 2 (R = 1): one minimum, the global centroid (C3);
        # every pattern has 17 neighbours within 2R, so all are skipped and nothing is found
        X = np.linspace(0.0, 0.16, 17)[:, None]
        out = public_neighbourhood_minima(X, beta=2.0)
        assert lsr_minima(X, 2.0) == [tuple(range(17))]
        assert out.count == 0 and out.skipped == tuple(range(17))

    def test_labels_are_active_sets(self):
        # the public code labels a point with the patterns strictly within R of it
        out = public_neighbourhood_minima(NEAR_DUPLICATE, NEAR_DUPLICATE_BETA)
        assert sorted(out.index_sets) == [(0,), (1,), (2,)]

    @pytest.mark.parametrize("beta", [0.0, -1.0, float("inf")])
    def test_bad_beta(self, beta):
        with pytest.raises(ValueError, match="beta"):
            public_neighbourhood_minima([[0.0], [1.0]], beta=beta)


class TestExactSelfConsistency:
    def test_two_points_at_beta_2_singletons_are_ties(self):
        # issue 9 §1: at β = 2/a² each singleton has the other pattern exactly on its sphere
        v0 = exact_self_consistency([[0.0], [1.0]], [0], beta=2.0)
        assert isinstance(v0, ExactVerdict)
        assert v0.verdict == "tie" and not v0.is_minimum
        assert v0.member_slack == Fraction(1) and v0.nonmember_slack == Fraction(0)
        assert exact_self_consistency([[0.0], [1.0]], [1], beta=2.0).verdict == "tie"
        both = exact_self_consistency([[0.0], [1.0]], [0, 1], beta=2.0)
        assert both.verdict == "minimum" and both.nonmember_slack is None

    def test_two_points_at_beta_8_the_pair_is_a_tie(self):
        # β = 8/a²: the midpoint is exactly R = 1/2 from both members
        v = exact_self_consistency([[0.0], [1.0]], [0, 1], beta=8.0)
        assert v.verdict == "tie" and v.member_slack == 0
        assert exact_self_consistency([[0.0], [1.0]], [0], beta=8.0).verdict == "minimum"

    def test_point_equidistant_from_two_others_is_a_tie(self):
        # -1, 0, 1 at β = 2 (R = 1): both neighbours of {1} sit exactly on its sphere
        X = [[-1.0], [0.0], [1.0]]
        assert exact_self_consistency(X, [1], beta=2.0).verdict == "tie"
        assert exact_self_consistency(X, [0], beta=2.0).verdict == "tie"

    def test_violation_beats_tie(self):
        # {0} at β = 0.5 (R = 2): pattern 1 is strictly inside, so not a minimum
        v = exact_self_consistency([[0.0], [1.0]], [0], beta=0.5)
        assert v.verdict == "not a minimum" and v.nonmember_slack == Fraction(-3)

    def test_slacks_are_exact_fractions_of_the_float_values(self):
        # 0.1 is not 1/10 in binary: the verdict uses the float's exact value
        v = exact_self_consistency([[0.0], [0.1]], [0], beta=2.0)
        assert v.nonmember_slack == Fraction(0.1) ** 2 - 1
        assert v.member_slack == 1

    def test_equals_lsr_minima_on_random_instances(self):
        # no ties with probability one: the exact test and lsr_minima agree on every subset
        rng = np.random.default_rng(7)
        for M, d, beta in ((6, 1, 30.0), (6, 2, 12.0), (7, 3, 6.0)):
            X = rng.random((M, d))
            exact = set(lsr_minima(X, beta))
            for k in range(1, M + 1):
                for K in itertools.combinations(range(M), k):
                    v = exact_self_consistency(X, K, beta)
                    assert v.is_minimum == (K in exact), (M, d, K)

    def test_bad_index_set(self):
        with pytest.raises(ValueError, match="index_set"):
            exact_self_consistency([[0.0], [1.0]], [], beta=2.0)
        with pytest.raises(ValueError, match="index_set"):
            exact_self_consistency([[0.0], [1.0]], [2], beta=2.0)


class TestCompareCountingMethods:
    def test_near_duplicates_are_settled_as_not_minima(self):
        c = compare_counting_methods(NEAR_DUPLICATE, NEAR_DUPLICATE_BETA)
        assert isinstance(c, CountingComparison)
        assert c.brute_added == ((0, 1), (0, 1, 2)) and c.brute_missed == ()
        assert c.neighbourhood_added == () and c.neighbourhood_missed == ()
        assert {v.index_set: v.verdict for v in c.verdicts} == {
            (0, 1): "not a minimum",
            (0, 1, 2): "not a minimum",
        }
        assert c.settled and c.n_disagreements == 2

    def test_shallow_pair_is_settled_as_a_minimum(self):
        X, beta = shallow_pair(0.03)
        c = compare_counting_methods(X, beta)
        assert c.neighbourhood_missed == ((0, 1),) and c.neighbourhood_missed_skipped == ()
        assert c.verdicts[0].verdict == "minimum" and c.settled

    def test_counts_add_up(self):
        s = counting_survey(Ms=[8], ds=[1, 5], n_instances=2, beta_indices=[10, 30], rng=3)
        for c in s.comparisons:
            assert c.brute.count == c.n_exact + len(c.brute_added) - len(c.brute_missed)
            distinct = c.neighbourhood.count - c.neighbourhood_duplicates
            assert distinct == c.n_exact + len(c.neighbourhood_added) - len(c.neighbourhood_missed)

    def test_memories_are_rounded_to_float32_once(self):
        X = np.array([[0.1], [0.7]])
        c = compare_counting_methods(X, beta=5.0)
        assert np.array_equal(c.memories, X.astype(np.float32).astype(np.float64))


class TestCountingSurvey:
    def test_every_disagreement_is_settled_for_lsr_minima(self):
        # the chapter's claim on a smaller survey: exact arithmetic sides with lsr_minima
        s = counting_survey(
            Ms=(6, 12), ds=(1, 3, 8), n_instances=2, beta_indices=(4, 14, 24, 34, 44), rng=1
        )
        assert s.n_comparisons == 2 * 3 * 2 * 5
        assert all(c.settled for c in s.comparisons)
        assert sum(c.n_disagreements for c in s.comparisons) > 0
        assert np.array_equal(s.n_exact, [c.n_exact for c in s.comparisons])

    def test_reproducible(self):
        a = counting_survey(Ms=[5], ds=[2], n_instances=2, beta_indices=[20], rng=4)
        b = counting_survey(Ms=[5], ds=[2], n_instances=2, beta_indices=[20], rng=4)
        assert np.array_equal(a.beta, b.beta) and np.array_equal(a.n_brute, b.n_brute)

    @pytest.mark.parametrize(
        ("kwargs", "name"),
        [
            ({"Ms": [1]}, "Ms"),
            ({"Ms": [30]}, "Ms"),
            ({"ds": []}, "ds"),
            ({"beta_indices": [50]}, "beta_indices"),
            ({"n_beta": 1}, "n_beta"),
            ({"Ms": [2.5]}, "Ms"),
        ],
    )
    def test_bad_arguments(self, kwargs, name):
        with pytest.raises((ValueError, TypeError), match=name):
            counting_survey(**kwargs)


class TestFig3BetaGridPaperSpacing:
    def test_linear_from_2_over_d_to_8_over_r2(self):
        # exp_LMIN0.py: np.linspace(2/d, 2/(r_min/2)^2, nbetas) with nbetas = 50
        X = np.random.default_rng(0).random((10, 8))
        grid = fig3_beta_grid(X, n=50, spacing="paper")
        assert grid.shape == (50,)
        assert grid[0] == 2.0 / 8 and grid[-1] == beta_thresholds(X).stored_only
        assert np.allclose(np.diff(grid), (grid[-1] - grid[0]) / 49, rtol=1e-12)

    def test_default_is_unchanged(self):
        X = np.random.default_rng(0).random((10, 8))
        assert np.array_equal(fig3_beta_grid(X), fig3_beta_grid(X, spacing="geometric"))

    @pytest.mark.parametrize("spacing", ["linear", "", None, 1])
    def test_bad_spacing(self, spacing):
        with pytest.raises(ValueError, match="spacing"):
            fig3_beta_grid([[0.0, 0.0], [1.0, 0.0]], spacing=spacing)

    def test_extend_is_checked_with_paper_spacing(self):
        with pytest.raises(TypeError, match="extend"):
            fig3_beta_grid([[0.0, 0.0], [1.0, 0.0]], extend="no", spacing="paper")
