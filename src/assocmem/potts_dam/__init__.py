"""Dense associative memory with Potts hidden units and its saddle hierarchy (Thériault, Tantari).

A three-layer Boltzmann machine (data on the unit sphere, a Potts "cluster" layer with P + 1
states, a Potts "class" layer with C + 1 states) marginalises into a mixture of von Mises–Fisher
densities plus a uniform "outside" component: a dense associative memory whose memories are class
prototypes (the paper's Eq. 3). The chapter on it is in progress.

Submodules
----------
vmf
    The von Mises–Fisher normaliser (exact in log space, and the paper's Eq. 18), ς, the mean
    resultant length A_N(κ), Wood's sampler.
data
    Digits on the sphere (scikit-learn's bundled set), an optional local MNIST reader, orthonormal
    and hierarchical teachers and their samples.
model
    Log density, the losses of Eqs. 4 and 12 with their gradients, class prediction (Eq. 14), the
    transportation-polytope update of the class weights and constrained training.
saddle
    The teacher–student saddle-point equations (Eqs. 9–10), split thresholds, the (ϱ, β_eff)
    phase diagram and a Gibbs sampler of the student posterior.
hierarchy
    Duplication of units (Eq. 13), splitting matrices and splitting steepest descent (Alg. 1/2).
"""

from .data import (
    MNIST_ENV,
    DigitsData,
    HierarchicalTeacher,
    TeacherData,
    hierarchical_teacher,
    image_patches,
    load_digits_sphere,
    load_mnist_local,
    orthonormal_teacher,
    sample_teacher_data,
    to_sphere,
)
from .hierarchy import (
    SplitResult,
    SplittingSpectrum,
    duplicate_units,
    split_units,
    splitting_descent,
    splitting_matrices,
    splitting_spectrum,
)
from .model import (
    DamState,
    LossGradients,
    TrainResult,
    class_probabilities,
    effective_loss,
    init_state,
    log_density,
    loss,
    loss_gradients,
    polytope_step,
    predict,
    project_polytope,
    responsibilities,
    soft_labels,
    train,
)
from .saddle import (
    ClusterSplit,
    GibbsSamples,
    SaddlePhaseDiagram,
    SaddlePoint,
    cluster_split_threshold,
    gibbs_student,
    phase_diagram,
    saddle_point,
    split_threshold,
)
from .vmf import (
    inverse_varsigma,
    log_vmf_normaliser,
    mean_resultant_length,
    sample_vmf,
    tau,
    varsigma,
)

__all__ = [
    "MNIST_ENV",
    "ClusterSplit",
    "DamState",
    "DigitsData",
    "GibbsSamples",
    "HierarchicalTeacher",
    "LossGradients",
    "SaddlePhaseDiagram",
    "SaddlePoint",
    "SplitResult",
    "SplittingSpectrum",
    "TeacherData",
    "TrainResult",
    "class_probabilities",
    "cluster_split_threshold",
    "duplicate_units",
    "effective_loss",
    "gibbs_student",
    "hierarchical_teacher",
    "image_patches",
    "init_state",
    "inverse_varsigma",
    "load_digits_sphere",
    "load_mnist_local",
    "log_density",
    "log_vmf_normaliser",
    "loss",
    "loss_gradients",
    "mean_resultant_length",
    "orthonormal_teacher",
    "phase_diagram",
    "polytope_step",
    "predict",
    "project_polytope",
    "responsibilities",
    "saddle_point",
    "sample_teacher_data",
    "sample_vmf",
    "soft_labels",
    "split_threshold",
    "split_units",
    "splitting_descent",
    "splitting_matrices",
    "splitting_spectrum",
    "tau",
    "to_sphere",
    "train",
    "varsigma",
]
