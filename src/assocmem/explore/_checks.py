"""Argument checks shared by the chapter plot modules (built on :mod:`assocmem._validation`).

The plot functions take the library's result objects; these helpers check them once, at the top
of each public plot function, so that a wrong argument gives a ``TypeError`` or ``ValueError``
naming the parameter instead of an ``AttributeError`` deep inside plotly code.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from assocmem._validation import (
    as_real_vector,
    check_finite_float,
    check_instance,
    check_positive_int,
    type_names,
)

#: Allowed figure heights in pixels.
MIN_HEIGHT, MAX_HEIGHT = 100, 5000


def check_height(height: Any, name: str = "height", optional: bool = False) -> int | None:
    """Return a figure height in pixels, an int in [MIN_HEIGHT, MAX_HEIGHT] (None if optional)."""
    if optional and height is None:
        return None
    return check_positive_int(height, name, minimum=MIN_HEIGHT, maximum=MAX_HEIGHT)


def check_results(
    value: Any, name: str, cls: type | tuple[type, ...], single: bool = True
) -> list[Any]:
    """Return a non-empty list of results of type ``cls``.

    ``value`` is one result (where ``single``) or a non-empty list or tuple of them.
    """
    if single and isinstance(value, cls):
        return [value]
    what = type_names(cls)
    alone = f"a {what} or " if single else ""
    if not isinstance(value, list | tuple):
        raise TypeError(
            f"{name} must be {alone}a non-empty list of {what}, got {value!r:.80} "
            f"of type {type(value).__name__}"
        )
    if not value:
        raise ValueError(f"{name} must be {alone}a non-empty list of {what}, got an empty one")
    for k, item in enumerate(value):
        check_instance(item, f"{name}[{k}]", cls)
    return list(value)


def check_optional_result(value: Any, name: str, cls: type | tuple[type, ...]) -> Any:
    """Return ``value`` if it is None or a result of type ``cls``."""
    return None if value is None else check_instance(value, name, cls)


def check_strings(value: Any, name: str, n: int | None = None) -> list[str] | None:
    """Return None, or a list of strings (one per item when ``n`` is given)."""
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be a sequence of strings, got {value!r:.80} "
            f"of type {type(value).__name__}"
        )
    out = list(value)
    for item in out:
        if not isinstance(item, str):
            raise TypeError(f"{name} must hold strings, got {item!r:.80}")
    if n is not None and len(out) != n:
        raise ValueError(f"{name} must hold {n} string(s), one per result, got {len(out)}")
    return out


def check_title(value: Any, name: str = "title") -> str | None:
    """Return None or a string."""
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name} must be a string or None, got {value!r:.80}")
    return value


def check_mapping(value: Any, name: str, optional: bool = False) -> dict[Any, Any] | None:
    """Return ``value`` as a dict; it must be a mapping (or None where ``optional``)."""
    if optional and value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(
            f"{name} must be a mapping, got {value!r:.80} of type {type(value).__name__}"
        )
    return dict(value)


def check_marks(value: Any, name: str) -> dict[str, float] | None:
    """Return None or a dict of label (str) to a finite real value (lines drawn at values)."""
    marks = check_mapping(value, name, optional=True)
    if marks is None:
        return None
    out = {}
    for label, x in marks.items():
        if not isinstance(label, str):
            raise TypeError(f"{name} keys must be strings (labels), got {label!r:.80}")
        out[label] = check_finite_float(x, f"{name}[{label!r}]")
    return out


def check_values(value: Any, name: str, n: int | None = None) -> np.ndarray:
    """Return a 1-D finite float array (of length ``n`` when given)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be a sequence of numbers, got {value!r}")
    arr = as_real_vector(value, name)
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"{name} must hold {n} values, got {arr.shape[0]}")
    return arr


def check_indices(value: Any, name: str, n: int) -> list[int] | None:
    """Return None or a non-empty list of integer indices into a sequence of length ``n``."""
    if value is None:
        return None
    if isinstance(value, str | bytes) or not hasattr(value, "__len__"):
        raise TypeError(f"{name} must be a sequence of integer indices, got {value!r:.80}")
    arr = np.asarray(value)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of indices, got {value!r:.80}")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    out = [int(i) for i in arr]
    bad = [i for i in out if not -n <= i < n]
    if bad:
        raise ValueError(f"{name} must hold indices in [{-n}, {n}), got {bad[0]}")
    return out


def check_result_map(value: Any, name: str, cls: type | tuple[type, ...]) -> dict[str, Any]:
    """Return a non-empty dict of label (str) to a result of type ``cls``."""
    out = check_mapping(value, name)
    if not out:
        raise ValueError(f"{name} must map at least one label to a {type_names(cls)}")
    for label, item in out.items():
        if not isinstance(label, str):
            raise TypeError(f"{name} keys must be strings (labels), got {label!r:.80}")
        check_instance(item, f"{name}[{label!r}]", cls)
    return out


def check_row_map(
    value: Any, name: str, width: int, none_ok: bool = False
) -> dict[Any, tuple[Any, ...]] | None:
    """Return None or a dict whose values are rows of ``width`` finite numbers (or None)."""
    table = check_mapping(value, name, optional=True)
    if table is None:
        return None
    for key, row in table.items():
        if isinstance(row, str) or not isinstance(row, Sequence) or len(row) != width:
            raise ValueError(f"{name}[{key!r}] must be a row of {width} numbers, got {row!r:.80}")
        for v in row:
            if not (none_ok and v is None):
                check_finite_float(v, f"{name}[{key!r}]")
        table[key] = tuple(row)
    return table
