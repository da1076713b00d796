"""Linear associative memories for factual recall: capacity and replica-symmetric theory.

A. Giorlandino, S. Goldt and A. Maillard, *Factual recall in linear associative memories: sharp
asymptotics and mechanistic insights*, arXiv:2605.10795. The chapter note
(``shared/notes/01-factual-recall.md``) fixes the conventions: natural log, integer p from the
Lambert W function, and the labels [PAPER] / [OURS] kept in every docstring.

Notation map
------------
- p (associations), d (embedding dimension) -> ``p``, ``d``
- α = p ln p / d² (load, eqs. (3), (5))     -> ``alpha``
- κ = m/d (rank fraction, eq. (9))          -> ``kappa``
- q (replica overlap, eq. (7))              -> ``q``
- φ (free entropy, eqs. (6)-(7))            -> ``rs_free_entropy``

Modules
-------
capacity
    Load and its Lambert-W inverse, two-layer capacity (eq. (9)), finite-p estimate (note §2.3),
    replica-symmetric overlap and free entropy (eq. (7), (C.22)-(C.24)).
energetic
    The energetic function G: finite-p Monte Carlo G_p(t) (App. C.2, note §2.2).
finite_p
    Finite-p capacity α_c(p) from the t → 1 limit of G_p (eq. (8) at fixed p, (C.24), (C.29)).
problem
    The original and decoupled problems, the Hebbian rule (eq. (D.1)), scores and accuracy,
    normalised scores (note pitfall 12), exact feasibility by linear programming.
volume
    Monte-Carlo first moment of the Gardner volume, OP against DP (paper §5.1, App. B).
toy
    Small worked examples: score matrices before and after training, the counting curve.
hebbian
    Theorem D.1 (rate function, the 1/8 threshold) and the finite-d accuracy model (note §2.6).
training
    Cross-entropy training with Adam, warm-up and cosine decay (paper App. A), full rank or
    the two-layer W = Q Rᵀ.
sweep
    Accuracy against load on a grid of α, trained and Hebbian on paired instances (Figs. 1-2).
mechanism
    Normalised score statistics and histograms (Fig. 4, Fig. A.2).
spectra
    Singular-value spectra against the (truncated) quarter circle and the MP⊠MP law.
"""

from .capacity import *  # noqa: F403
from .capacity import __all__ as _capacity_all
from .energetic import *  # noqa: F403
from .energetic import __all__ as _energetic_all
from .finite_p import *  # noqa: F403
from .finite_p import __all__ as _finite_p_all
from .hebbian import *  # noqa: F403
from .hebbian import __all__ as _hebbian_all
from .mechanism import *  # noqa: F403
from .mechanism import __all__ as _mechanism_all
from .problem import *  # noqa: F403
from .problem import __all__ as _problem_all
from .spectra import *  # noqa: F403
from .spectra import __all__ as _spectra_all
from .sweep import *  # noqa: F403
from .sweep import __all__ as _sweep_all
from .toy import *  # noqa: F403
from .toy import __all__ as _toy_all
from .training import *  # noqa: F403
from .training import __all__ as _training_all
from .volume import *  # noqa: F403
from .volume import __all__ as _volume_all

__all__ = sorted(
    {
        *_capacity_all,
        *_energetic_all,
        *_finite_p_all,
        *_hebbian_all,
        *_mechanism_all,
        *_problem_all,
        *_spectra_all,
        *_sweep_all,
        *_toy_all,
        *_training_all,
        *_volume_all,
    }
)
