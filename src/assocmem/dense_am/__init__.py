"""Dense associative memory with log-sum-exp and Epanechnikov (log-sum-ReLU) energies.

Hoover, Shi, Balasubramanian, Krotov and Ram, *Dense Associative Memory with Epanechnikov
Energy*. The chapter note (``shared/notes/05-epanechnikov-dense-am.md``) fixes the conventions:
strict active set, squared distances in difference form, ``eps`` for the floor inside the LSR log.

Modules
-------
energy
    LSE and LSR energies, gradients, Hessians (paper eqs. (3), (7)-(8)).
retrieval
    Algorithm 1 (flat-kernel mean shift), Theorem 1's one-step retrieval, LSE descent and minima.
minima
    The exact set of LSR minima (self-consistent centroids), counts versus β, support fractions.
landscape
    1-D and 2-D energy landscapes, separation functions, the Theorem 1 experiment.
emergence
    Emergent memories: simplex and polygon puzzles, Prop. 1-3 checks, counts versus β.
capacity
    Theorem 2(a): collision bound, α-form, active-set sizes (eqs. (10)-(11)).
kde
    Kernel table, 1-D KDE, AMISE optimum (paper eq. (2), corrected).
generative
    Gaussian-mixture comparison of LSE and LSR memories, Algorithm 2, the digits analogue.
limitations
    Appendix A: far queries, hybrid energy and query-dependent β (not in the paper's experiments).
research_code
    The paper's public counting code (brute force and neighbourhood search) re-implemented, and
    exact-arithmetic verdicts on where it disagrees with exact enumeration (Sec. 4.1, App. C.2).
"""

from .capacity import *  # noqa: F403
from .capacity import __all__ as _capacity_all
from .emergence import *  # noqa: F403
from .emergence import __all__ as _emergence_all
from .energy import *  # noqa: F403
from .energy import __all__ as _energy_all
from .generative import *  # noqa: F403
from .generative import __all__ as _generative_all
from .kde import *  # noqa: F403
from .kde import __all__ as _kde_all
from .landscape import *  # noqa: F403
from .landscape import __all__ as _landscape_all
from .limitations import *  # noqa: F403
from .limitations import __all__ as _limitations_all
from .minima import *  # noqa: F403
from .minima import __all__ as _minima_all
from .research_code import *  # noqa: F403
from .research_code import __all__ as _research_code_all
from .retrieval import *  # noqa: F403
from .retrieval import __all__ as _retrieval_all

__all__ = sorted(
    {
        *_capacity_all,
        *_emergence_all,
        *_energy_all,
        *_generative_all,
        *_kde_all,
        *_landscape_all,
        *_limitations_all,
        *_minima_all,
        *_research_code_all,
        *_retrieval_all,
    }
)
