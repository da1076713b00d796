"""Dynamical stability of dense patterns in rate attractor networks.

U. Cohen and M. Lengyel, *Dynamical stability for dense patterns in discrete attractor neural
networks*. Chapter note ``shared/notes/03-attractor-stability.md``.

Modules
-------
rates
    Eq. 3 (g, g⁻¹, the gain d(r)) and log-normal patterns.
meanfield
    Population theory: covariances, bulk disc (Eqs. 10-11), outliers (Eqs. 12-15), optimal
    threshold (Eq. 16), critical load α_S (Eq. 19), the Gaussian paired pseudo-inverse ensemble
    (Eqs. 21-23), replica capacity α_C(f), the (n, σ) phase diagram.
network
    Weights (Eqs. 8, 20), Jacobians and their low-rank spectra (Eqs. 5, 9), Euler dynamics,
    empirical critical loads.
structure
    Activation curves, pattern densities, row statistics of the weights (Eqs. 6, 7), asymmetry
    and non-normality, a recall demo.
ensemble
    The paired Gaussian pseudo-inverse ensemble (Eqs. 21-23): playground, Fig. 7 grid, the
    mapping onto J_μ, the low-rank reduction check.
spectra
    The spectrum of J_μ against the bulk disc (Eqs. 10-11), the bulk-edge table, the gain swap.
outliers
    λ_ave and λ_mem (Eqs. 12-15) against the threshold, the threshold window (Eqs. 16-18), the
    2×2 outlier refinement (an extension).
loads
    The critical load α_S (Eq. 19): transition scans, the phase-diagram view, optima against CV,
    theory against simulation.
dynamics
    Kicks, decay rates, basins of attraction and the Lyapunov covariance of noisy dynamics
    (extensions: the paper studies linear stability only).
sparse
    Sparse patterns: least-norm weights by quadratic programming, replica row moments, the
    kink at threshold and the margin κ (an extension), stability scans.
"""

from .dynamics import *  # noqa: F403
from .dynamics import __all__ as _dynamics_all
from .ensemble import *  # noqa: F403
from .ensemble import __all__ as _ensemble_all
from .loads import *  # noqa: F403
from .loads import __all__ as _loads_all
from .meanfield import *  # noqa: F403
from .meanfield import __all__ as _meanfield_all
from .network import *  # noqa: F403
from .network import __all__ as _network_all
from .outliers import *  # noqa: F403
from .outliers import __all__ as _outliers_all
from .rates import *  # noqa: F403
from .rates import __all__ as _rates_all
from .sparse import *  # noqa: F403
from .sparse import __all__ as _sparse_all
from .spectra import *  # noqa: F403
from .spectra import __all__ as _spectra_all
from .structure import *  # noqa: F403
from .structure import __all__ as _structure_all

__all__ = sorted(
    {
        *_dynamics_all,
        *_ensemble_all,
        *_loads_all,
        *_meanfield_all,
        *_network_all,
        *_outliers_all,
        *_rates_all,
        *_sparse_all,
        *_spectra_all,
        *_structure_all,
    }
)
