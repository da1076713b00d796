"""Parameter domains of the rate model shared by the simulation modules of this subpackage.

The finite-size experiments (spectra, outliers, loads, dynamics, sparse) sample log-normal
patterns, invert the activation g of Eq. 3 and form products such as σ ln(1 − e^{−πr/σ}),
d (g⁻¹(r) + θ) and W r^μ. The bounds below lie far beyond every value the paper or the book
uses (CV <= 3, σ <= 10, n <= 2, |θ| of order 1) and keep those float64 products clear of
overflow; past them the functions would return an overflowed or cancelled (meaningless)
number. ``CV_MAX`` and ``EXPONENT_MAX`` (with their checks) are those of :mod:`.rates`.
Every check names the calling function's parameter.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assocmem._validation import (
    MAX_ELEMENTS,
    as_real_vector,
    check_fraction,
    check_size,
)
from assocmem.attractor.rates import CV_MAX, EXPONENT_MAX, check_cv, check_exponent

__all__ = [
    "CV_MAX",
    "EPS_MAX",
    "EXPONENT_MAX",
    "SIGMA_MAX",
    "THETA_MAX",
    "check_cv",
    "check_exponent",
    "check_kappa",
    "check_matrix_size",
    "check_sigma",
    "check_theta",
    "cv_vector",
    "theta_vector",
]

#: Largest smoothness σ of Eq. 3.
SIGMA_MAX = 1e6
#: Largest |θ| (thresholds, threshold shifts) and margin κ.
THETA_MAX = 1e6
#: Largest kick size ε (relative to ‖r^μ‖).
EPS_MAX = 1e3


def check_sigma(value: Any, name: str = "sigma", positive: bool = False) -> float:
    """Smoothness σ in [0, SIGMA_MAX], or (0, SIGMA_MAX] when ``positive``."""
    return check_fraction(value, name, 0.0, SIGMA_MAX, open_lo=positive, open_hi=False)


def check_theta(value: Any, name: str = "theta") -> float:
    """A threshold or threshold shift in [−THETA_MAX, THETA_MAX]."""
    return check_fraction(value, name, -THETA_MAX, THETA_MAX, open_lo=False, open_hi=False)


def check_kappa(value: Any, name: str = "kappa") -> float:
    """Margin κ in [0, THETA_MAX]."""
    return check_fraction(value, name, 0.0, THETA_MAX, open_lo=False, open_hi=False)


def theta_vector(values: Any, name: str) -> np.ndarray:
    """A non-empty 1-D grid of thresholds (or shifts), each in [−THETA_MAX, THETA_MAX]."""
    return as_real_vector(values, name, -THETA_MAX, THETA_MAX)


def cv_vector(values: Any, name: str = "cvs") -> np.ndarray:
    """A non-empty 1-D grid of CVs, each in (0, CV_MAX]."""
    return as_real_vector(values, name, 0.0, CV_MAX, open_lo=True)


def check_matrix_size(N: int, P: int, name: str) -> None:
    """Refuse an N × N weight matrix (or N × P pattern matrix) above MAX_ELEMENTS entries."""
    check_size(
        N * max(N, P),
        name,
        f"matrix entries (N = {N}, P = {P})",
        MAX_ELEMENTS,
        "use a smaller network",
    )
