"""Quadratic networks and attention-indexed models (Troiani, talk slides; chapter in progress).

A quadratic network with teacher width p* = ρd is PSD matrix sensing: the labels are
y = Tr[G A*] with G = (x xᵀ − I)/√d and A* = Wᵀ W/√(p d). Bayes-optimal learning reduces to
matrix denoising with a free-probability formula; weight decay turns training into nuclear-norm
minimisation. Every public result is in A-units (MMSE = 1 at α = 0) unless its name says otherwise.

Submodules
----------
free
    Free convolution of the Wishart prior with a semicircle, the rotation-invariant estimator
    (RIE) and its MMSE.
thresholds
    Perfect-recovery and interpolation thresholds in closed or quadrature form (BO, nuclear
    norm, ℓ2), and the hardmax T = 2 attention channel's weak-recovery threshold.
"""
