"""Bad-input matrix over ``assocmem.potts_dam.data`` (the harness is ``tests/badinput.py``).

The MNIST baseline reads a tiny fake ``mnist.npz`` written to a temporary folder at import (the
real file is never needed, and nothing is downloaded). ``path=None`` is valid only when the
environment variable ``ASSOCMEM_MNIST`` names a file.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.potts_dam import data

_FOLDER = Path(tempfile.mkdtemp(prefix="assocmem-mnist-"))
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
_GEN = np.random.default_rng(0)
np.savez(
    _FOLDER / "mnist.npz",
    x_train=_GEN.integers(0, 256, size=(4, 28, 28), dtype=np.uint8),
    y_train=np.array([0, 1, 2, 3], dtype=np.uint8),
    x_test=_GEN.integers(0, 256, size=(2, 28, 28), dtype=np.uint8),
    y_test=np.array([4, 5], dtype=np.uint8),
)
W_STAR = data.orthonormal_teacher(6, 2, rng=0)

BASELINES = [
    Baseline(
        data.to_sphere, {"X": [[0.0, 1.0, 3.0], [2.0, 2.0, 2.0]]}, accepts={"X": bad.FINITE_ENTRIES}
    ),
    Baseline(
        data.image_patches,
        {"images": np.arange(32.0).reshape(2, 4, 4) ** 2, "size": 2, "stride": 2},
        accepts={"images": bad.FINITE_ENTRIES},
    ),
    Baseline(
        data.load_digits_sphere,
        {"rng": 0, "test_size": 597},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        data.load_mnist_local,
        {"path": str(_FOLDER / "mnist.npz")},
        accepts={"path": bad.NONE_OK if os.environ.get(data.MNIST_ENV) else ()},
    ),
    Baseline(
        data.orthonormal_teacher,
        {"N": 6, "P_star": 2, "rng": 0},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        data.hierarchical_teacher,
        {"N": 10, "branching": (2, 2), "scales": [1.0, 0.5], "rng": 1},
        accepts={"rng": bad.SEED},
    ),
    Baseline(
        data.sample_teacher_data,
        {"w_star": W_STAR, "v": 1.0, "M": 5, "rng": 0, "g_star": [[0.5, 0.5], [0.0, 1.0]]},
        accepts={
            "w_star": bad.FINITE_ENTRIES,
            "v": bad.SMALL_NONNEG,
            "rng": bad.SEED,
            "g_star": bad.NONE_OK,
        },
    ),
]

MODULES = ["assocmem.potts_dam.data"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
