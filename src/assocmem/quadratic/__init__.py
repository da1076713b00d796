"""Quadratic networks and attention-indexed models (Troiani, talk slides; chapter in progress).

A quadratic network with teacher width p* = ρd is PSD matrix sensing: the labels are
y = Tr[G A*] with G = (x xᵀ − I)/√d and A* = Wᵀ W/√(p d). Bayes-optimal learning reduces to
matrix denoising with a free-probability formula; weight decay turns training into nuclear-norm
minimisation. Every public result is in A-units (MMSE = 1 at α = 0) unless its name says otherwise.

Submodules
----------
bayes
    Bayes-optimal learning: the MMSE fixed point, the learning curve by inverse
    parametrisation, the narrow (ρ → 0) limit, the state-evolution trajectory, and the
    softmax attention-indexed model's MMSE (the (T² + T − 2)/2 collapse).
free
    Free convolution of the Wishart prior with a semicircle, the rotation-invariant estimator
    (RIE) and its MMSE.
thresholds
    Perfect-recovery and interpolation thresholds in closed or quadrature form (BO, nuclear
    norm, ℓ2), and the hardmax T = 2 attention channel's weak-recovery threshold.
"""

from .bayes import (
    BayesCurve,
    BayesOptimal,
    aim_mmse,
    bo_curve,
    bo_mmse,
    narrow_limit_mmse,
    state_evolution,
)
from .free import (
    S_UNIT_FACTORS,
    TEST_MSE_PER_MATRIX_MSE,
    FreeConvQuadrature,
    free_conv_density,
    free_conv_quadrature,
    free_conv_support,
    rie_denoise,
    rie_mmse,
    rie_shrinkage,
    to_a_units,
    to_s_units,
)
from .thresholds import (
    HardmaxThreshold,
    NuclearThreshold,
    aim_sample_factor,
    hardmax_fisher,
    hardmax_threshold,
    interpolation_threshold_noiseless_limit,
    l2_error,
    nuclear_recovery_threshold,
    perfect_recovery_threshold,
)

__all__ = [
    "S_UNIT_FACTORS",
    "TEST_MSE_PER_MATRIX_MSE",
    "BayesCurve",
    "BayesOptimal",
    "FreeConvQuadrature",
    "HardmaxThreshold",
    "NuclearThreshold",
    "aim_mmse",
    "aim_sample_factor",
    "bo_curve",
    "bo_mmse",
    "free_conv_density",
    "free_conv_quadrature",
    "free_conv_support",
    "hardmax_fisher",
    "hardmax_threshold",
    "interpolation_threshold_noiseless_limit",
    "l2_error",
    "narrow_limit_mmse",
    "nuclear_recovery_threshold",
    "perfect_recovery_threshold",
    "rie_denoise",
    "rie_mmse",
    "rie_shrinkage",
    "state_evolution",
    "to_a_units",
    "to_s_units",
]
