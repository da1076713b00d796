"""Figures for the chapter "The saddle hierarchy of dense associative memory" (book/dam-saddles).

Each module holds the views of one section (pure functions that run :mod:`assocmem.potts_dam` and
return frozen results) and the plotting functions that take those results.
"""

__all__: list[str] = []
