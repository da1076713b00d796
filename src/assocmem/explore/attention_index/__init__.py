"""Figures for the chapter "Attention-index models and quadratic networks" (book/attention-index).

Each module holds the views of one section (pure functions that run the library and return frozen
results) and the plotting functions that take those results; every public name is also importable
from this package, so a notebook may read ``from assocmem.explore import attention_index as plots``.

Modules
-------
sensing
    From attention to matrix sensing (01).
free
    Matrix denoising and free probability (02).
bayes
    Bayes-optimal learning curves, phase diagram, narrow limit (03).
gamp
    GAMP-RIE and its first-step estimators (04).
descent
    Gradient descent, single and averaged (05).
nuclear
    Weight decay as a nuclear norm (06).
attention
    Attention-indexed models (07).
hardmax
    The hardmax channel (08).
"""

from .attention import (
    AimCurves,
    GdAveraging,
    LogitRecovery,
    aim_curves,
    gd_averaging,
    identifiable_count,
    logit_recovery,
    logit_recovery_at,
    plot_aim_collapse,
    plot_gd_averaging,
    plot_logit_recovery,
)
from .bayes import (
    LearningCurves,
    NarrowLimitCurves,
    PhaseDiagram,
    SeTrajectories,
    bo_phase_diagram,
    learning_curves,
    narrow_limit_curves,
    plot_fixed_point,
    plot_learning_curves,
    plot_narrow_limit,
    plot_phase_diagram,
    plot_state_evolution,
    se_trajectories,
)
from .descent import (
    GdInstances,
    GdSweep,
    GpuScale,
    SweepView,
    gd_instances,
    gd_sweep,
    load_gpu_scale,
    plot_averaging,
    plot_gpu_scale,
    plot_sweep,
    plot_training,
    sweep_view,
)
from .free import (
    DenoisingCurves,
    DenoisingView,
    denoising_curves,
    denoising_view,
    plot_denoising,
    plot_mmse_curves,
)
from .gamp import (
    KINDS,
    FirstStep,
    GampSweep,
    GampTrajectories,
    first_step,
    gamp_sweep,
    gamp_trajectories,
    plot_first_step,
    plot_gamp_sweep,
    plot_trajectories,
)
from .hardmax import (
    ChannelSamples,
    GampView,
    HardmaxCurves,
    NarrowLimit,
    ScoreSlice,
    channel_samples,
    gamp_view,
    hardmax_curves,
    narrow_limit_view,
    plot_channel,
    plot_gamp,
    plot_hardmax_curves,
    plot_hardmax_narrow_limit,
    plot_score_slice,
    score_slice,
)
from .nuclear import (
    FistaPoints,
    NuclearCurves,
    SpectrumView,
    ThresholdCurves,
    fista_points,
    nuclear_curves,
    plot_erm_curves,
    plot_spectra,
    plot_thresholds,
    spectrum_view,
    threshold_curves,
)
from .sensing import (
    CountingView,
    EquivalenceView,
    TokenView,
    counting_view,
    equivalence_view,
    plot_counting,
    plot_equivalence,
    plot_tokens,
    token_view,
)

__all__ = [
    "KINDS",
    "AimCurves",
    "ChannelSamples",
    "CountingView",
    "DenoisingCurves",
    "DenoisingView",
    "EquivalenceView",
    "FirstStep",
    "FistaPoints",
    "GampSweep",
    "GampTrajectories",
    "GampView",
    "GdAveraging",
    "GdInstances",
    "GdSweep",
    "GpuScale",
    "HardmaxCurves",
    "LearningCurves",
    "LogitRecovery",
    "NarrowLimit",
    "NarrowLimitCurves",
    "NuclearCurves",
    "PhaseDiagram",
    "ScoreSlice",
    "SeTrajectories",
    "SpectrumView",
    "SweepView",
    "ThresholdCurves",
    "TokenView",
    "aim_curves",
    "bo_phase_diagram",
    "channel_samples",
    "counting_view",
    "denoising_curves",
    "denoising_view",
    "equivalence_view",
    "first_step",
    "fista_points",
    "gamp_sweep",
    "gamp_trajectories",
    "gamp_view",
    "gd_averaging",
    "gd_instances",
    "gd_sweep",
    "hardmax_curves",
    "identifiable_count",
    "learning_curves",
    "load_gpu_scale",
    "logit_recovery",
    "logit_recovery_at",
    "narrow_limit_curves",
    "narrow_limit_view",
    "nuclear_curves",
    "plot_aim_collapse",
    "plot_averaging",
    "plot_channel",
    "plot_counting",
    "plot_denoising",
    "plot_equivalence",
    "plot_erm_curves",
    "plot_first_step",
    "plot_fixed_point",
    "plot_gamp",
    "plot_gamp_sweep",
    "plot_gd_averaging",
    "plot_gpu_scale",
    "plot_hardmax_curves",
    "plot_hardmax_narrow_limit",
    "plot_learning_curves",
    "plot_logit_recovery",
    "plot_mmse_curves",
    "plot_narrow_limit",
    "plot_phase_diagram",
    "plot_score_slice",
    "plot_spectra",
    "plot_state_evolution",
    "plot_sweep",
    "plot_thresholds",
    "plot_tokens",
    "plot_training",
    "plot_trajectories",
    "score_slice",
    "se_trajectories",
    "spectrum_view",
    "sweep_view",
    "threshold_curves",
    "token_view",
]
