"""Input cases shared by several test files (pytest puts tests/ on the import path)."""

from __future__ import annotations

import numpy as np
import pytest

#: Stored patterns that every public function must refuse, with the exception it must raise.
#: The validators are tested in test_validation.py; these cases check that each function uses them.
BAD_MEMORIES = pytest.mark.parametrize(
    ("memories", "exc"),
    [
        (np.zeros((0, 2)), ValueError),
        (np.array([1.0, 2.0]), ValueError),
        (np.array([[1 + 1j, 2.0]]), TypeError),
        (np.array([[1.0, None]], dtype=object), TypeError),
        (np.array([[np.nan, 0.0]]), ValueError),
    ],
    ids=["empty", "1d", "complex", "object", "nan"],
)

#: (p, d) pairs that every function validating p >= 2 and d >= 1 as integers must refuse, with the
#: exception and message it must raise (``capacity.load`` and the Hebbian models).
BAD_P_D = pytest.mark.parametrize(
    ("args", "exc", "match"),
    [
        ((1, 10), ValueError, "p must be an integer >= 2"),
        ((2.5, 10), TypeError, "p must be an integer"),
        ((10, 0), ValueError, "d must be an integer >= 1"),
        ((10, 3.0), TypeError, "d must be an integer"),
    ],
    ids=["p<2", "p-float", "d<1", "d-float"],
)
