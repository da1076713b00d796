"""Placeholder: filled in by the factual-recall chapter work (issue 3)."""

__all__: list[str] = []
