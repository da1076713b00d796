"""Tests for assocmem.explore.dam_saddles.growing: the views and figures of ``ds-growing``.

The learning tree is checked against the App. G split thresholds of the hierarchical teacher
(our check D12 of the chapter's source note, whose values cluster_split_threshold reproduces);
the growth view against direct calls of the library, and the figures against what they say.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from assocmem.explore.dam_saddles import growing as plots
from assocmem.potts_dam import data, hierarchy, saddle


@pytest.fixture(scope="module")
def tree() -> plots.LearningTree:
    return plots.learning_tree(P=16, seed=0)


@pytest.fixture(scope="module")
def runs() -> plots.GrowthRuns:
    return plots.growth_runs(P_max=20, P_init=5, epochs_first=6, epochs_after=3, epochs_scratch=8)


class TestLearningTree:
    def test_predicted_thresholds_are_the_subtree_thresholds(self, tree) -> None:
        # D12 (note §3.2): root 1.505, groups 3.740, 3.458 at N = 60, teacher seed 5
        t = data.hierarchical_teacher(60)
        assert tree.predicted[0][0] == saddle.cluster_split_threshold(t.patterns).beta_split
        np.testing.assert_allclose(tree.predicted[0], [1.505], atol=5e-4)
        np.testing.assert_allclose(tree.predicted[1], [3.740, 3.458], atol=5e-4)
        assert tree.predicted[2].shape == (4,)

    def test_memories_split_just_above_each_threshold(self, tree) -> None:
        # App. G: a subtree's memories separate once β passes its β_split. The grid steps by
        # 3.4 % and the split amplitude grows like √(β − β_split), so the measured β lies at
        # most ~6 % above (we measure 0.3-5 %); below the prediction it must not split.
        for pred, meas in zip(tree.predicted, tree.measured, strict=True):
            ratio = meas / pred
            assert np.all(ratio > 0.99) and np.all(ratio < 1.08), ratio

    def test_one_memory_before_the_root_split_and_one_per_leaf_at_the_end(self, tree) -> None:
        below = tree.beta < tree.predicted[0][0]
        assert np.all(tree.counts[below] == 1)
        assert 11 <= tree.counts[-1] <= 12
        assert tree.position.shape == (tree.beta.size, 16)
        assert set(tree.leaf_group.tolist()) == {0, 1}

    def test_same_arguments_same_result_and_seeds_differ(self) -> None:
        a = plots.learning_tree(P=4, steps=20, iterations=50, seed=3)
        assert plots.learning_tree(P=4, steps=20, iterations=50, seed=3) is a
        b = plots.learning_tree(P=4, steps=20, iterations=50, seed=4)
        assert not np.array_equal(a.position, b.position)

    def test_never_split_is_inf(self) -> None:
        t = plots.learning_tree(P=2, beta_max=1.2, steps=5, iterations=20)
        assert np.all(np.isinf(t.measured[0])) and np.all(t.counts == 1)


class TestGrowthRuns:
    def test_split_run_is_the_library_run(self, runs) -> None:
        d = data.load_digits_sphere()
        direct = hierarchy.splitting_descent(
            d.X_train, d.y_train, P_init=5, P_max=20, epochs_first=6, epochs_after=3,
            X_test=d.X_test, labels_test=d.y_test, rng=0,
        )  # fmt: skip
        np.testing.assert_array_equal(runs.split.work, direct.work)
        np.testing.assert_array_equal(runs.split.test_accuracy, direct.test_accuracy)

    def test_work_bookkeeping(self, runs) -> None:
        # scratch: P_max unit-epochs per epoch; split: Σ P per epoch plus P per split round
        np.testing.assert_array_equal(runs.scratch_work, 20.0 * runs.scratch_epoch)
        s = runs.split
        train = float(np.sum(s.P[1:]))
        assert s.work[-1] == pytest.approx(train + s.split_work)
        assert runs.work_ratio == pytest.approx(s.work[-1] / 160.0)
        assert runs.accuracy_gap == pytest.approx(s.test_accuracy[-1] - runs.scratch_accuracy[-1])

    def test_match_work_is_the_first_epoch_within_tol(self, runs) -> None:
        s = runs.split
        target = runs.scratch_accuracy[-1] - runs.tol
        if math.isinf(runs.match_work):
            assert np.all(s.test_accuracy < target)
        else:
            i = int(np.flatnonzero(s.work == runs.match_work)[0])
            assert s.test_accuracy[i] >= target - 1e-12
            assert np.all(s.test_accuracy[:i] < target)

    def test_p_init_above_p_max_is_refused(self) -> None:
        with pytest.raises(ValueError, match="P_init"):
            plots.growth_runs(P_max=5, P_init=6)


class TestFigures:
    def test_tree_figure(self, tree) -> None:
        fig = plots.plot_learning_tree(tree)
        names = [t.name for t in fig.data if t.showlegend is not False]
        assert "distinct memories" in names
        assert sum(n.startswith("memories ending") for n in names) == 2
        # one vertical line per finite predicted threshold inside the β range (1 + 2 + 4)
        assert len(fig.layout.shapes) == 7
        assert fig.layout.xaxis.type == "log"

    def test_growth_figure(self, runs) -> None:
        fig = plots.plot_growth(runs)
        names = [t.name for t in fig.data if t.showlegend is not False]
        assert names == [
            "splitting descent",
            "scratch, P = 20",
            "final accuracy from scratch",
            "total work of growing",
        ]
        assert fig.data[2].y[-1] == runs.split.P[-1]
        assert len(fig.layout.shapes) == 2
