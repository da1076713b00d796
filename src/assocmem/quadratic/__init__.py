"""Quadratic networks and attention-indexed models (Troiani, talk slides).

A quadratic network with teacher width p* = ρd is PSD matrix sensing: the labels are
y = Tr[G A*] with G = (x xᵀ − I)/√d and A* = Wᵀ W/√(p d). Bayes-optimal learning reduces to
matrix denoising with a free-probability formula; weight decay turns training into nuclear-norm
minimisation. Every public result is in A-units (MMSE = 1 at α = 0) unless its name says otherwise.

Submodules
----------
sensing
    The teacher, quadratic-network and GOE-surrogate data, and the sensing operator
    B ↦ (Tr[G_μ B])_μ with its adjoint; the network form of the labels.
attention
    Attention-indexed models: softmax (and hardmax) attention data, the logit differences a
    softmax keeps, and the hardmax T = 2 channel's state evolution (exact and as published)
    and GAMP.
bayes
    Bayes-optimal learning: the MMSE fixed point, the learning curve by inverse
    parametrisation, the narrow (ρ → 0) limit, the state-evolution trajectory, and the
    softmax attention-indexed model's MMSE (the (T² + T − 2)/2 collapse).
descent, attention_gd
    Gradient descent (Adam, full batch) on K quadratic networks or K softmax-attention
    students at once, single-run and averaged errors.
erm, solvers
    Weight-decay (nuclear-norm) ERM: the sharp-asymptotics equations, the interpolation
    threshold, the learned spectrum; FISTA and the minimum-Frobenius-norm interpolator.
free
    Free convolution of the Wishart prior with a semicircle, the rotation-invariant estimator
    (RIE) and its MMSE.
gamp
    GAMP-RIE, its first-step (linear and spectral) estimators.
thresholds
    Perfect-recovery and interpolation thresholds in closed or quadrature form (BO, nuclear
    norm, ℓ2), and the hardmax T = 2 attention channel's weak-recovery threshold.
"""

from .attention import (
    AttentionData,
    HardmaxCurve,
    HardmaxSE,
    attention_logits,
    gamp_hardmax,
    hardmax_curve,
    hardmax_narrow_limit,
    hardmax_state_evolution,
    logit_differences,
    sample_attention,
    softmax_attention,
)
from .attention_gd import (
    gd_attention,
)
from .bayes import (
    BayesCurve,
    BayesOptimal,
    aim_mmse,
    bo_curve,
    bo_mmse,
    narrow_limit_mmse,
    state_evolution,
)
from .descent import (
    DescentResult,
    gd_quadnet,
    prefix_mean_errors,
)
from .erm import (
    ErmCurves,
    ErmPoint,
    erm_curves,
    erm_point,
    interpolation_threshold,
    learned_spectrum,
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
from .gamp import (
    GampResult,
    SpectralEstimate,
    gamp_rie,
    linear_estimator,
    spectral_channel,
    spectral_estimator,
)
from .sensing import (
    SensingData,
    quadnet_output,
    sample_sensing,
    sample_teacher,
    sensing_adjoint,
    sensing_forward,
)
from .solvers import (
    NuclearSolution,
    fista_nuclear,
    min_frobenius_interpolator,
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
    "AttentionData",
    "BayesCurve",
    "BayesOptimal",
    "DescentResult",
    "ErmCurves",
    "ErmPoint",
    "FreeConvQuadrature",
    "GampResult",
    "HardmaxCurve",
    "HardmaxSE",
    "HardmaxThreshold",
    "NuclearSolution",
    "NuclearThreshold",
    "SensingData",
    "SpectralEstimate",
    "aim_mmse",
    "aim_sample_factor",
    "attention_logits",
    "bo_curve",
    "bo_mmse",
    "erm_curves",
    "erm_point",
    "fista_nuclear",
    "free_conv_density",
    "free_conv_quadrature",
    "free_conv_support",
    "gamp_hardmax",
    "gamp_rie",
    "gd_attention",
    "gd_quadnet",
    "hardmax_curve",
    "hardmax_fisher",
    "hardmax_narrow_limit",
    "hardmax_state_evolution",
    "hardmax_threshold",
    "interpolation_threshold",
    "interpolation_threshold_noiseless_limit",
    "l2_error",
    "learned_spectrum",
    "linear_estimator",
    "logit_differences",
    "min_frobenius_interpolator",
    "narrow_limit_mmse",
    "nuclear_recovery_threshold",
    "perfect_recovery_threshold",
    "prefix_mean_errors",
    "quadnet_output",
    "rie_denoise",
    "rie_mmse",
    "rie_shrinkage",
    "sample_attention",
    "sample_sensing",
    "sample_teacher",
    "sensing_adjoint",
    "sensing_forward",
    "softmax_attention",
    "spectral_channel",
    "spectral_estimator",
    "state_evolution",
    "to_a_units",
    "to_s_units",
]
