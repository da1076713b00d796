"""Tests for assocmem.linear_memory.volume: Monte-Carlo first moment of the solution volume.

Reference values: the paper's §5.1 (E V_DP = p^(-p) exactly) and App. B (no closed form for OP),
and the chapter note shared/notes/01-factual-recall.md §1.3 (Monte-Carlo table, 2e5 draws) with
checks C5 and C6 of its §3. Every statistical check uses a fixed seed and states its tolerance
in binomial standard errors (s.e.); the seeds are not tuned, the tolerances are honest for any.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.linear_memory.volume import (
    SAMPLERS,
    FirstMoment,
    FirstMomentPair,
    _bartlett,
    _direct_scores,
    _gram_scores,
    first_moment_mc,
    first_moment_pair,
)


def _diff_z(a: FirstMoment, b: FirstMoment) -> float:
    """Difference of two independent estimates in units of its standard error."""
    return (a.estimate - b.estimate) / math.hypot(a.stderr, b.stderr)


class TestFirstMomentMc:
    @pytest.mark.parametrize(("d", "p", "draws"), [(5, 3, 200_000), (10, 4, 100_000)])
    def test_decoupled_equals_p_to_minus_p(self, d, p, draws):
        # C5 (note §3), paper §5.1: E V_DP = p^(-p) exactly; the direct sampler draws W, keys and
        # all p² candidate values, so this is an independent check. Tolerance 3 s.e.
        fm = first_moment_mc(d, p, "decoupled", draws, rng=1)
        assert fm.decoupled_value == p ** (-p)
        assert abs(fm.z_score) < 3.0

    def test_original_below_p_to_minus_p_at_small_d(self):
        # C6 (note §3, App. B): at d = 5, p = 3 the note measures 0.0322 against 0.0370, a gap of
        # about 12 s.e. at 2e5 draws; the check asks for more than 5 s.e.
        fm = first_moment_mc(5, 3, "original", 200_000, rng=2)
        assert fm.z_score < -5.0
        # and agrees with the note's value within 4 s.e. of the difference of two estimates
        assert abs(fm.estimate - 0.0322) < 4.0 * math.sqrt(2.0) * fm.stderr

    @pytest.mark.parametrize(
        ("d", "p", "note"), [(5, 3, 0.0322), (10, 3, 0.0347), (10, 4, 0.00325), (20, 4, 0.00367)]
    )
    def test_original_reproduces_note_table(self, d, p, note):
        # note §1.3 table (2e5 draws each, s.e. 4e-4 for p = 3 and 1.4e-4 for p = 4): our
        # estimate and the note's are independent, so their difference has √2 times our s.e.
        fm = first_moment_mc(d, p, "original", 200_000, rng=3, sampler="gram")
        assert abs(fm.estimate - note) < 4.0 * math.sqrt(2.0) * fm.stderr

    def test_gap_shrinks_with_d(self):
        # C6: "difference shrinks with d". At p = 3 the ratio E V_OP / p^(-p) is ≈ 0.87 at d = 5
        # and ≈ 0.98 at d = 20 (note §1.3); each has s.e. ≈ 1.1 %, we ask for 5 s.e.
        small = first_moment_mc(5, 3, "original", 200_000, rng=4, sampler="gram")
        large = first_moment_mc(20, 3, "original", 200_000, rng=5, sampler="gram")
        assert _diff_z(large, small) > 5.0
        assert large.ratio > small.ratio

    @pytest.mark.parametrize(("d", "p"), [(5, 3), (2, 3)])
    def test_gram_and_direct_samplers_agree(self, d, p):
        # The gram sampler draws the exact law of the score matrix (Bartlett factors; d < p in
        # the second case). Two independent estimates: their difference within 4 s.e.
        direct = first_moment_mc(d, p, "original", 150_000, rng=6)
        gram = first_moment_mc(d, p, "original", 150_000, rng=7, sampler="gram")
        assert abs(_diff_z(direct, gram)) < 4.0

    @pytest.mark.parametrize(("d", "p"), [(2, 3), (4, 4), (8, 5), (30, 3)])
    def test_original_never_above_p_to_minus_p(self, d, p):
        # [note, OURS] AM-GM: given (W, U) the p row probabilities sum to one, so their product,
        # the conditional probability of success, is at most p^(-p). Tolerance 3 s.e.
        fm = first_moment_mc(d, p, "original", 100_000, rng=8, sampler="gram")
        assert fm.z_score < 3.0

    @pytest.mark.parametrize("sampler", SAMPLERS)
    def test_one_dimension_recalls_at_most_two_facts(self, sampler):
        # d = 1: s_μρ = w e_μ u_ρ, so every row retrieves the largest or the smallest u_ρ and at
        # most two facts can be recalled: E V_OP = 0 exactly for p >= 3.
        assert first_moment_mc(1, 3, "original", 20_000, rng=0, sampler=sampler).successes == 0

    def test_decoupled_two_facts_is_one_quarter(self):
        # p = 2: each row holds with probability 1/2, independently: 1/4 (tolerance 4 s.e.)
        fm = first_moment_mc(3, 2, "decoupled", 50_000, rng=9)
        assert fm.decoupled_value == 0.25 and abs(fm.z_score) < 4.0

    def test_reproducible_and_seed_dependent(self):
        a = first_moment_mc(4, 3, "original", 30_000, rng=11)
        b = first_moment_mc(4, 3, "original", 30_000, rng=np.random.default_rng(11))
        c = first_moment_mc(4, 3, "original", 30_000, rng=12)
        assert a == b and a.successes != c.successes

    @settings(max_examples=25, deadline=None)
    @given(
        d=st.integers(1, 6),
        p=st.integers(2, 5),
        draws=st.integers(1, 300),
        problem=st.sampled_from(["original", "decoupled"]),
        sampler=st.sampled_from(SAMPLERS),
    )
    def test_result_fields_are_consistent(self, d, p, draws, problem, sampler):
        fm = first_moment_mc(d, p, problem, draws, rng=0, sampler=sampler)
        assert (fm.d, fm.p, fm.problem, fm.draws, fm.sampler) == (d, p, problem, draws, sampler)
        assert 0 <= fm.successes <= draws
        assert 0.0 <= fm.estimate <= 1.0 and fm.stderr >= 0.0
        assert math.isfinite(fm.z_score)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"d": 0}, "d"),
            ({"p": 1}, "p"),
            ({"draws": 0}, "draws"),
            ({"problem": "both"}, "problem"),
            ({"sampler": "exact"}, "sampler"),
            ({"rng": -1}, "seed"),
        ],
    )
    def test_bad_input_raises_value_error(self, kwargs, match):
        args = {"d": 3, "p": 3, "problem": "original", "draws": 10, "rng": 0, **kwargs}
        with pytest.raises(ValueError, match=match):
            first_moment_mc(**args)

    @pytest.mark.parametrize(("kwargs", "match"), [({"d": 2.0}, "d"), ({"draws": 1e3}, "draws")])
    def test_non_integers_raise_type_error(self, kwargs, match):
        with pytest.raises(TypeError, match=match):
            first_moment_mc(**{"d": 3, "p": 3, "draws": 10, **kwargs})


class TestFirstMoment:
    def test_standard_errors_and_ratio(self):
        fm = FirstMoment(d=5, p=3, problem="original", draws=1000, successes=30, sampler="direct")
        assert fm.estimate == 0.03
        assert fm.stderr == pytest.approx(math.sqrt(0.03 * 0.97 / 1000), rel=1e-15)
        assert fm.ratio == pytest.approx(0.03 * 27, rel=1e-15)
        q = 1 / 27
        assert fm.z_score == pytest.approx((0.03 - q) / math.sqrt(q * (1 - q) / 1000))

    def test_z_score_finite_without_successes(self):
        fm = FirstMoment(d=1, p=3, problem="original", draws=100, successes=0, sampler="gram")
        assert fm.stderr == 0.0 and math.isfinite(fm.z_score) and fm.z_score < 0


class TestFirstMomentPair:
    def test_both_problems_and_reproducible(self):
        a = first_moment_pair(4, 3, draws=20_000, seed=1)
        b = first_moment_pair(4, 3, draws=20_000, seed=1)
        assert isinstance(a, FirstMomentPair) and a == b
        assert (a.d, a.p) == (4, 3)
        assert a.original.problem == "original" and a.decoupled.problem == "decoupled"
        assert a.original.sampler == a.decoupled.sampler == "gram"

    def test_every_dimension_has_its_own_stream(self):
        # The DP gram sampler does not use d, so equal counts would betray a shared stream (two
        # independent counts may still coincide by chance: s.d. ≈ 27, so compare five of them).
        counts = {
            first_moment_pair(d, 3, draws=20_000, seed=1).decoupled.successes for d in range(3, 8)
        }
        assert len(counts) >= 4

    def test_op_below_dp_at_small_d(self):
        # App. B / C6 at d = 3, p = 3, where the OP ratio is ≈ 0.68 (s.e. ≈ 2 %): > 5 s.e.
        pair = first_moment_pair(3, 3, draws=100_000, seed=0)
        assert _diff_z(pair.decoupled, pair.original) > 5.0

    def test_bad_seed(self):
        with pytest.raises(ValueError, match="seed"):
            first_moment_pair(4, 3, draws=10, seed=-1)


class TestSamplers:
    @pytest.mark.parametrize(("kind", "shape"), [("original", (7, 3, 3)), ("decoupled", (7, 3, 3))])
    def test_score_shapes(self, kind, shape):
        gen = np.random.default_rng(0)
        assert _direct_scores(gen, 7, 5, 3, kind).shape == shape
        assert _gram_scores(gen, 7, 5, 3, kind).shape == shape

    @pytest.mark.parametrize(("p", "d"), [(3, 6), (5, 2)])
    def test_bartlett_gram_matrix_is_wishart(self, p, d):
        # X X^T for X (p × d) Gaussian has mean d I_p and Var[(XX^T)_ij] = d (1 + δ_ij); with
        # 20000 samples the entries of the mean are within 5 s.e. (≈ 5 √(2d / 20000)).
        L = _bartlett(np.random.default_rng(1), 20_000, p, d).astype(np.float64)
        assert L.shape == (20_000, p, min(p, d))
        assert np.all(np.triu(L[0], 1) == 0.0)
        gram = np.einsum("bik,bjk->bij", L, L).mean(axis=0)
        assert np.abs(gram - d * np.eye(p)).max() < 5.0 * math.sqrt(2.0 * d / 20_000)
