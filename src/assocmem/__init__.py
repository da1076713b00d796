"""assocmem: the library behind the interactive book on the theory of associative memory.

Subpackages and modules
-----------------------
dense_am
    Dense associative memory with log-sum-exp (LSE) and Epanechnikov log-sum-ReLU (LSR) energies.
linear_memory
    Factual recall in linear associative memories: capacity, Hebbian and trained memories.
attractor
    Dynamical stability of dense rate patterns in attractor networks.
backend
    Array backend selection (NumPy or CuPy).
explore
    Dual-mode explorations: ipywidgets in a live notebook, plotly sliders in the built book.

Errors and limits
-----------------
Every public function checks every argument and raises a ValueError or TypeError that names
the parameter, its value and the allowed range. Sizes derived from the arguments (time steps,
grid points, array elements) are capped; ``limits`` raises the caps inside a ``with`` block.
"""

from assocmem._validation import limits

__version__ = "0.1.0"

__all__ = ["__version__", "limits"]
