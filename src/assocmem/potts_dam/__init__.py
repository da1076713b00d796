"""Dense associative memory with Potts hidden units and its saddle hierarchy (Thériault & Tantari 2025).

A three-layer Boltzmann machine (data on the unit sphere, a Potts "cluster" layer with P + 1
states, a Potts "class" layer) marginalises into a mixture of von Mises–Fisher densities: a dense
associative memory whose memories are class prototypes. Chapter in progress; the submodules are
imported as ``assocmem.potts_dam.<module>`` until the chapter lands.
"""

__all__: list[str] = []
