"""assocmem: the library behind the interactive book on the theory of associative memory.

Subpackages and modules
-----------------------
dense_am
    Dense associative memory with log-sum-exp (LSE) and Epanechnikov log-sum-ReLU (LSR) energies.
backend
    Array backend selection (NumPy or CuPy).
explore
    Dual-mode explorations: ipywidgets in a live notebook, plotly sliders in the built book.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
