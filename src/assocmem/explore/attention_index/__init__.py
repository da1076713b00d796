"""Figures for the chapter "Attention-index models and quadratic networks" (``book/attention-index``).

Each module takes the result objects of :mod:`assocmem.quadratic` and returns plotly figures;
every public plotting function is also importable from this package, so a section's notebook
reads ``from assocmem.explore import attention_index as plots`` and calls ``plots.plot_...``.
"""

__all__: list[str] = []
