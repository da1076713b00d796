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
"""

from .meanfield import *  # noqa: F403
from .meanfield import __all__ as _meanfield_all
from .network import *  # noqa: F403
from .network import __all__ as _network_all
from .rates import *  # noqa: F403
from .rates import __all__ as _rates_all

__all__ = sorted({*_meanfield_all, *_network_all, *_rates_all})
