"""Tests of the shared input validators: every message names the parameter, value and range."""

from __future__ import annotations

import math

import numpy as np
import pytest

import assocmem
from assocmem import _validation as v
from assocmem._validation import MAX_ELEMENTS, MAX_STEPS, check_size


class TestCheckBeta:
    @pytest.mark.parametrize("beta", [1, 2.5, np.float32(3.0), np.int64(4), np.array(2.0)])
    def test_accepts_positive_finite_reals(self, beta):
        assert v.check_beta(beta) == float(beta)

    @pytest.mark.parametrize("beta", [0, -1.0, math.inf, math.nan])
    def test_refuses_nonpositive_or_nonfinite(self, beta):
        with pytest.raises(ValueError, match=r"beta must be a finite number > 0"):
            v.check_beta(beta)

    @pytest.mark.parametrize("beta", [True, "1", 1 + 0j, None, [1.0]])
    def test_refuses_non_real_types(self, beta):
        with pytest.raises(TypeError, match="beta"):
            v.check_beta(beta)


class TestCheckPositiveInt:
    def test_bounds_are_named_in_the_message(self):
        with pytest.raises(ValueError, match=r"M must be an integer >= 2 and <= 5, got 7"):
            v.check_positive_int(7, "M", minimum=2, maximum=5)

    @pytest.mark.parametrize("value", [2.0, True, "3"])
    def test_refuses_non_integers(self, value):
        with pytest.raises(TypeError, match="n"):
            v.check_positive_int(value, "n")


class TestCheckFraction:
    def test_open_interval_refuses_its_ends(self):
        with pytest.raises(ValueError, match=r"frac must lie in \(0.0, 1.0\), got 1.0"):
            v.check_fraction(1.0, "frac")

    def test_closed_interval_accepts_its_ends(self):
        assert v.check_fraction(0.0, "frac", open_lo=False) == 0.0


class TestCheckNonnegFloat:
    def test_refuses_negative(self):
        with pytest.raises(ValueError, match="eps must be a finite number >= 0"):
            v.check_nonneg_float(-1e-9, "eps")


class TestAsMemories:
    def test_returns_float64_copy_of_integer_input(self):
        out = v.as_memories([[0, 1], [2, 3]])
        assert out.dtype == np.float64 and out.shape == (2, 2)

    @pytest.mark.parametrize(
        ("memories", "match"),
        [
            (np.zeros((0, 3)), "at least one pattern"),
            (np.zeros(3), r"shape \(M, d\)"),
            (np.zeros((2, 2, 2)), r"shape \(M, d\)"),
            ([[0.0, np.nan]], "finite"),
            ([[0.0, np.inf]], "finite"),
        ],
    )
    def test_refuses_bad_shapes_and_values(self, memories, match):
        with pytest.raises(ValueError, match=match):
            v.as_memories(memories)

    @pytest.mark.parametrize("memories", [np.zeros((2, 2), complex), np.array([["a", "b"]])])
    def test_refuses_non_real_dtypes(self, memories):
        with pytest.raises(TypeError, match="memories must hold real numbers"):
            v.as_memories(memories)


class TestAsPoints:
    def test_single_point_is_flagged(self):
        pts, single = v.as_points([1.0, 2.0], d=2)
        assert single and pts.shape == (1, 2)

    def test_batch_keeps_its_shape(self):
        pts, single = v.as_points(np.zeros((5, 3)), d=3)
        assert not single and pts.shape == (5, 3)

    @pytest.mark.parametrize("x", [np.zeros(3), np.zeros((4, 3)), np.zeros((0, 2))])
    def test_dimension_mismatch_names_the_parameter(self, x):
        with pytest.raises(ValueError, match="x0 must"):
            v.as_points(x, d=2, name="x0")


class TestAsRng:
    def test_seed_gives_reproducible_generator(self):
        assert v.as_rng(5).random() == v.as_rng(5).random()

    def test_generator_is_passed_through(self):
        g = np.random.default_rng(1)
        assert v.as_rng(g) is g

    @pytest.mark.parametrize("rng", [None, 1.5, "seed", True])
    def test_refuses_anything_else(self, rng):
        with pytest.raises(TypeError, match="rng"):
            v.as_rng(rng)

    def test_refuses_negative_seed(self):
        with pytest.raises(ValueError, match="rng seed"):
            v.as_rng(-1)


class TestCheckIndexSet:
    def test_returns_sorted_distinct_indices(self):
        assert v.check_index_set((2, np.int64(0)), M=3) == [0, 2]

    @pytest.mark.parametrize("index_set", [(), (0, 0), (3,), (-1,)])
    def test_refuses_empty_repeated_or_out_of_range(self, index_set):
        with pytest.raises(ValueError, match=r"index_set"):
            v.check_index_set(index_set, M=3)

    @pytest.mark.parametrize("index_set", ["01", 1, (0.0,), (True,)])
    def test_refuses_non_integer_items(self, index_set):
        with pytest.raises(TypeError, match="index_set"):
            v.check_index_set(index_set, M=3)


class TestCheckIntSequence:
    def test_returns_a_list_of_ints(self):
        assert v.check_int_sequence((2, np.int64(3)), "ds") == [2, 3]
        assert v.check_int_sequence(np.array([4, 5]), "ds", minimum=2) == [4, 5]

    @pytest.mark.parametrize("values", [None, 3, 2.5, "12"])
    def test_refuses_non_sequences(self, values):
        with pytest.raises(TypeError, match=r"\bds\b"):
            v.check_int_sequence(values, "ds")

    @pytest.mark.parametrize("values", [[], [0], [1, 30], np.zeros((2, 2), dtype=int)])
    def test_refuses_empty_out_of_range_or_not_1d(self, values):
        with pytest.raises(ValueError, match=r"\bds\b"):
            v.check_int_sequence(values, "ds", maximum=20)

    @pytest.mark.parametrize("values", [[1.0], [True], np.array([1.5])])
    def test_refuses_non_integer_items(self, values):
        with pytest.raises(TypeError, match=r"\bds\b"):
            v.check_int_sequence(values, "ds")


class TestCheckMaxAbs:
    def test_passes_moderate_entries_through(self):
        arr = np.array([[1e100, -3.0]])
        assert v.check_max_abs(arr, "memories") is arr

    def test_refuses_entries_whose_squares_overflow(self):
        # (1e300)^2 overflows float64; the limit 1e100 keeps squared distances finite
        with pytest.raises(ValueError, match=r"memories.*1e\+100.*1e\+300"):
            v.check_max_abs(np.array([[0.0], [1e300]]), "memories")


class TestCheckSizeAndLimits:
    def test_message_states_parameter_limit_and_remedy(self):
        with pytest.raises(ValueError, match=r"T asks for 2e\+07 Euler steps.*limit of 10000000"):
            check_size(2e7, "T", "Euler steps", MAX_STEPS, "use a larger dt")

    def test_limits_raises_the_cap_inside_the_block_only(self):
        with assocmem.limits(max_steps=10**8):
            assert check_size(2e7, "T", "steps", MAX_STEPS, "") == 20_000_000
        with pytest.raises(ValueError, match=r"assocmem.limits\(max_steps=\.\.\.\)"):
            check_size(2e7, "T", "steps", MAX_STEPS, "")

    def test_limits_nest_and_restore(self):
        with assocmem.limits(max_elements=10):
            with assocmem.limits(max_elements=1000):
                assert check_size(500, "N", "elements", MAX_ELEMENTS, "") == 500
            with pytest.raises(ValueError, match="limit of 10;"):
                check_size(500, "N", "elements", MAX_ELEMENTS, "")
        assert check_size(500, "N", "elements", MAX_ELEMENTS, "") == 500

    def test_a_local_limit_is_not_raised_by_limits(self):
        with assocmem.limits(max_steps=10**9), pytest.raises(ValueError, match="limit of 5;"):
            check_size(6, "n", "points", 5, "use fewer points")

    @pytest.mark.parametrize("value", [0, -1, 2.5, True, "10"])
    def test_limits_refuse_bad_values_by_name(self, value):
        with pytest.raises((ValueError, TypeError), match="max_steps"):
            assocmem.limits(max_steps=value)
