"""Tests for assocmem.linear_memory.toy: score snapshots, the counting curve, the p(α, d) table.

Reference values: the paper's eqs. (1), (5) and §5.1, and the chapter note
shared/notes/01-factual-recall.md (§1.6 bits per entry, §3 p(α, d) table, pitfalls 1, 2, 12).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.linear_memory.capacity import load, p_at_load
from assocmem.linear_memory.problem import hebbian_weights, sample_problem, scores
from assocmem.linear_memory.toy import (
    RULES,
    CountingCurve,
    LoadTable,
    ScoreSnapshot,
    counting_curve,
    load_table,
    score_snapshot,
    snapshot_accuracies,
)
from assocmem.linear_memory.training import train

# Note §3, "Table of p(α, d)": three rows, compared exactly (integers).
NOTE_ALPHAS = [0.125, 0.2, 0.3115, 0.4, 0.4469, 0.5, 0.6, 0.8, 1.0, 1.2]
NOTE_ROWS = {
    15: [12, 16, 23, 27, 30, 32, 37, 47, 56, 65],
    40: [51, 74, 107, 131, 144, 158, 184, 235, 283, 331],
    500: [3792, 5773, 8596, 10771, 11905, 13177, 15542, 20177, 24715, 29179],
}


def _instance_and_init(d: int, p: int, problem: str, seed: int):
    """The instance and initialisation generator that ``score_snapshot`` uses for ``seed``."""
    inst_seq, init_seq = np.random.SeedSequence(seed).spawn(2)
    inst = sample_problem(d, p, problem, rng=np.random.default_rng(inst_seq))
    return inst, np.random.default_rng(init_seq)


class TestScoreSnapshot:
    @pytest.mark.parametrize("problem", ["original", "decoupled"])
    def test_fields_and_shapes(self, problem):
        snap = score_snapshot(6, 9, 20, problem, seed=3)
        assert isinstance(snap, ScoreSnapshot)
        assert (snap.d, snap.p, snap.problem, snap.steps) == (6, 9, problem, 20)
        assert snap.rule == "trained"
        assert snap.scores.shape == (9, 9) and snap.predicted.shape == (9,)
        assert snap.alpha == pytest.approx(load(9, 6), rel=1e-15)
        np.testing.assert_array_equal(snap.predicted, np.argmax(snap.scores, axis=1))
        # accuracy is the fraction of rows whose argmax is the target (no ties here)
        assert snap.accuracy == np.mean(snap.predicted == np.arange(9))

    def test_zero_steps_is_the_initialisation_of_the_training_run(self):
        # steps = 0 must show the W that train() starts from: same instance, same generator.
        snap = score_snapshot(8, 10, 0, seed=5)
        inst, init = _instance_and_init(8, 10, "original", 5)
        res = train(inst, steps=1, early_stop=None, rng=init)
        assert snap.accuracy == res.accuracy_history[0]
        assert snap.label == "random W (initialisation)"

    def test_trained_scores_equal_a_direct_training_run(self):
        snap = score_snapshot(8, 10, 30, seed=2)
        inst, init = _instance_and_init(8, 10, "original", 2)
        W = train(inst, steps=30, early_stop=None, rng=init).weights
        np.testing.assert_allclose(snap.scores, scores(W, inst), rtol=1e-12, atol=1e-12)
        assert snap.label == "trained W, 30 Adam steps"

    def test_hebbian_rule_is_eq_d1(self):
        snap = score_snapshot(8, 10, rule="hebbian", seed=4)
        inst, _ = _instance_and_init(8, 10, "original", 4)
        np.testing.assert_allclose(snap.scores, scores(hebbian_weights(inst), inst), rtol=1e-12)
        assert snap.label == "Hebbian W" and snap.steps == 0

    def test_normalised_non_target_scores_have_unit_variance(self):
        # Fig. 4 normalisation (note pitfall 12): pooled non-target std, no mean removed.
        snap = score_snapshot(8, 12, 40, "decoupled", seed=1)
        off = snap.normalised[~np.eye(12, dtype=bool)]
        assert off.std() == pytest.approx(1.0, rel=1e-12)

    def test_training_stores_the_toy_example(self):
        # d = 8, p = 10 (α = 0.36, well below the finite-size thresholds of note §3): 200 Adam
        # steps recall every fact, for both problems, on these seeds.
        for problem in ("original", "decoupled"):
            assert score_snapshot(8, 10, 200, problem, seed=0).accuracy == 1.0

    def test_random_w_recalls_one_fact_in_p_on_average(self):
        # §5.1: for a fixed W each association holds with probability 1/p (permutation
        # symmetry over the instance). Mean over 300 independent (instance, W) pairs; the
        # tolerance is 4 empirical s.e. (facts of one instance are correlated in OP).
        acc = np.array([score_snapshot(8, 10, 0, seed=s).accuracy for s in range(300)])
        assert abs(acc.mean() - 0.1) < 4.0 * acc.std(ddof=1) / math.sqrt(acc.size)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"d": 0}, "d"),
            ({"p": 1}, "p"),
            ({"steps": -1}, "steps"),
            ({"problem": "both"}, "problem"),
            ({"rule": "oja"}, "rule"),
            ({"rule": "hebbian", "steps": 5}, "steps"),
            ({"seed": -2}, "seed"),
            ({"lr": 0.0}, "lr"),
        ],
    )
    def test_bad_input(self, kwargs, match):
        with pytest.raises(ValueError, match=match):
            score_snapshot(**{"d": 4, "p": 5, **kwargs})

    def test_rules_constant(self):
        assert RULES == ("trained", "hebbian")


class TestSnapshotAccuracies:
    def test_entry_k_is_the_snapshot_of_seed_k(self):
        # A batch equals a loop: entry k is score_snapshot(..., seed=k).
        acc = snapshot_accuracies(6, 5, 3, "decoupled", instances=4)
        loop = [score_snapshot(6, 5, 3, "decoupled", seed=k).accuracy for k in range(4)]
        assert acc.shape == (4,)
        np.testing.assert_array_equal(acc, loop)

    def test_hebbian_and_trained_share_the_instances(self):
        # Same seeds, same instances: the Hebbian accuracy of seed k is that of the instance
        # drawn by _instance_and_init(k).
        acc = snapshot_accuracies(8, 10, 0, rule="hebbian", instances=3)
        for k in range(3):
            inst, _ = _instance_and_init(8, 10, "original", k)
            W = hebbian_weights(inst)
            recalled = np.argmax(scores(W, inst), axis=1) == np.arange(10)
            assert acc[k] == pytest.approx(recalled.mean())

    def test_400_steps_store_every_toy_instance(self):
        # d = 8, p = 10 (α = 0.36, below the finite-size thresholds): 400 Adam steps store all
        # 20 instances (200 steps leave a few at 0.9, the budget of section fr-facts).
        assert np.all(snapshot_accuracies(8, 10, 400, instances=20) == 1.0)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [({"instances": 0}, "instances"), ({"instances": 10_001}, "instances"), ({"d": 0}, "d")],
    )
    def test_bad_input(self, kwargs, match):
        with pytest.raises(ValueError, match=match):
            snapshot_accuracies(**{"d": 4, "p": 5, **kwargs})


class TestCountingCurve:
    def test_matches_p_at_load_and_is_increasing(self):
        c = counting_curve(0.5, 10, 1000, n=30)
        assert isinstance(c, CountingCurve)
        assert c.d[0] == 10 and c.d[-1] == 1000 and np.all(np.diff(c.d) > 0)
        assert c.p.tolist() == [p_at_load(0.5, int(d)) for d in c.d]
        assert np.all(np.diff(c.p) >= 0)
        np.testing.assert_array_equal(c.naive, c.d**2)

    def test_capacity_grows_slower_than_d_squared(self):
        # p_c ln p_c = d²/2 gives p_c / d² = 1 / (2 ln p_c): 0.047 at d = 1000 and falling.
        c = counting_curve(0.5, 10, 1000, n=20)
        ratio = c.p / c.naive
        assert np.all(np.diff(ratio) < 0)
        assert ratio[-1] == pytest.approx(1 / (2 * math.log(c.p[-1])), rel=1e-4)

    def test_bits_per_entry(self):
        # Note §1.6 [OURS]: p log₂ p / d² = α / ln 2 ≈ 0.72 at α = 1/2.
        c = counting_curve(0.5)
        assert c.bits_per_entry == pytest.approx(0.5 / math.log(2), rel=1e-15)
        assert round(c.bits_per_entry, 2) == 0.72
        # the integer p moves the effective load (note pitfall 2): within 2 % at d >= 100
        assert np.all(np.abs(c.bits_per_entry_eff[c.d >= 100] / c.bits_per_entry - 1) < 0.02)

    def test_log2_misreading_shifts_the_load_by_ln2(self):
        # Note pitfall 1: p log₂ p = α d² is p ln p = (α ln 2) d², fewer facts.
        c = counting_curve(0.5, 20, 400, n=5)
        assert c.p_log2.tolist() == [p_at_load(0.5 * math.log(2), int(d)) for d in c.d]
        assert np.all(c.p_log2 < c.p)

    @settings(max_examples=40, deadline=None)
    @given(alpha=st.floats(0.05, 1.5), d_min=st.integers(10, 200), span=st.integers(1, 800))
    def test_p_solves_p_ln_p_equals_alpha_d2(self, alpha, d_min, span):
        # Rounding p by at most 1/2 moves p ln p by at most (ln p + 1)/2 (note pitfall 2).
        c = counting_curve(alpha, d_min, d_min + span, n=4)
        target = alpha * c.d.astype(float) ** 2
        assert np.all(np.abs(c.p * np.log(c.p) - target) <= 0.5 * (np.log(c.p + 1) + 1) + 1e-9)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"alpha": 0.0}, "alpha"),
            ({"alpha": float("nan")}, "alpha"),
            ({"alpha": 1e-4}, "alpha"),
            ({"d_min": 0}, "d_min"),
            ({"d_min": 50, "d_max": 50}, "d_max"),
            ({"n": 1}, "n"),
        ],
    )
    def test_bad_input(self, kwargs, match):
        with pytest.raises(ValueError, match=match):
            counting_curve(**kwargs)


class TestLoadTable:
    def test_reproduces_note_table(self):
        t = load_table(NOTE_ALPHAS, list(NOTE_ROWS))
        assert isinstance(t, LoadTable)
        assert t.p.tolist() == list(NOTE_ROWS.values())
        assert t.alpha_eff.shape == (3, 10)
        # effective loads are within rounding of the requested ones: ±0.01 at d = 15 (pitfall 2)
        assert np.abs(t.alpha_eff[0] - NOTE_ALPHAS).max() < 0.015

    @pytest.mark.parametrize(
        ("alphas", "ds", "err", "match"),
        [
            ([], [10], ValueError, "alphas"),
            ([0.5], [], ValueError, "ds"),
            ([-0.5], [10], ValueError, "alpha"),
            ([0.5], [10.5], TypeError, "ds"),
            ([0.5], [0], ValueError, "ds"),
        ],
    )
    def test_bad_input(self, alphas, ds, err, match):
        with pytest.raises(err, match=match):
            load_table(alphas, ds)
