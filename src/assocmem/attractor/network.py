"""Placeholder: filled in by the attractor-stability work (issue 4)."""

__all__: list[str] = []
