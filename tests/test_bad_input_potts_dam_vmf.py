"""Bad-input matrix over ``assocmem.potts_dam.vmf`` (the harness is ``tests/badinput.py``).

β and κ are any finite numbers >= 0 (1e300 gives a finite τ); N is an integer >= 2 (>= 3 for
Eq. 18); ς takes any finite real, its inverse values in (−1, 1). The sampler's mean direction
is any non-zero finite vector (it is normalised) and κ is capped at 1e15.
"""

from __future__ import annotations

import badinput as bad
from badinput import Baseline, matrix_tests

from assocmem.potts_dam import vmf

NONNEG_ARRAY = bad.NONNEG_REAL | {"huge_entry", "misshaped"}

# The three functions of (N, β) share one shape of baseline: N, an array of β (or κ), approx.
BESSEL = [
    Baseline(
        func,
        {"N": N, name: [0.5, 40.0], "approx": approx},
        accepts={name: NONNEG_ARRAY, "approx": bad.BOOL},
    )
    for func, N, name, approx in (
        (vmf.log_vmf_normaliser, 10, "beta", False),
        (vmf.tau, 784, "beta", True),
        (vmf.mean_resultant_length, 64, "kappa", False),
    )
]

BASELINES = [
    *BESSEL,
    Baseline(
        vmf.varsigma,
        {"x": [-1.0, 2.0]},
        accepts={"x": bad.ANY_REAL | {"huge_entry", "misshaped"}},
    ),
    Baseline(
        vmf.inverse_varsigma,
        {"s": [-0.5, 0.25]},
        accepts={"s": bad.ZERO | {"misshaped"}},
    ),
    Baseline(
        vmf.sample_vmf,
        {"mu": [0.6, 0.8, 0.0], "kappa": 5.0, "n": 4, "rng": 0},
        accepts={"mu": bad.FINITE_ENTRIES, "kappa": bad.SMALL_NONNEG, "rng": bad.SEED},
    ),
]

MODULES = ["assocmem.potts_dam.vmf"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
