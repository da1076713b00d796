"""Input validation shared by every model module.

Validation happens once, at the public boundary; private kernels trust their input. Every message
names the parameter, the value it got and the allowed range.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "MAX_ABS_ENTRY",
    "MAX_ELEMENTS",
    "MAX_STEPS",
    "ConvergenceWarning",
    "as_memories",
    "as_points",
    "as_real_array",
    "as_real_vector",
    "as_rng",
    "as_xp",
    "check_beta",
    "check_bool",
    "check_finite_float",
    "check_fraction",
    "check_index_set",
    "check_instance",
    "check_int_sequence",
    "check_max_abs",
    "check_nonneg_float",
    "check_option",
    "check_positive_float",
    "check_positive_int",
    "check_size",
    "limits",
    "type_names",
]


class _Limit(int):
    """The default of a size cap; :func:`check_size` looks up the value in force by ``key``."""

    key: str

    def __new__(cls, value: int, key: str) -> _Limit:
        obj = super().__new__(cls, value)
        obj.key = key
        return obj


#: Largest number of time steps (or iterations of any loop whose length follows from the
#: arguments) that a public function runs by default; more raises a ValueError that says how to
#: stay under it, or to raise it with :class:`limits`.
MAX_STEPS = _Limit(10_000_000, "max_steps")
#: Largest number of array elements (float64: 8 bytes each) a derived array may hold by
#: default: 2 GiB; :class:`limits` raises it.
MAX_ELEMENTS = _Limit(2**28, "max_elements")
_IN_FORCE = {MAX_STEPS.key: int(MAX_STEPS), MAX_ELEMENTS.key: int(MAX_ELEMENTS)}


class limits:  # lower case: used as a context manager, like numpy.errstate
    """Raise (or lower) the caps on derived sizes inside a ``with`` block.

    Parameters
    ----------
    max_steps : int or None
        Largest number of time steps or loop iterations a public function may run (default
        10⁷); None keeps the value in force.
    max_elements : int or None
        Largest number of elements of a derived array (default 2²⁸, 2 GiB of float64); None
        keeps the value in force.

    Examples
    --------
    >>> import assocmem
    >>> with assocmem.limits(max_steps=10**8):
    ...     pass  # a simulation of 5e7 Euler steps is allowed here
    """

    def __init__(self, max_steps: int | None = None, max_elements: int | None = None) -> None:
        self._new = {
            key: check_positive_int(value, key)
            for key, value in ((MAX_STEPS.key, max_steps), (MAX_ELEMENTS.key, max_elements))
            if value is not None
        }
        self._old: list[dict[str, int]] = []

    def __enter__(self) -> limits:
        self._old.append(dict(_IN_FORCE))
        _IN_FORCE.update(self._new)
        return self

    def __exit__(self, *exc: object) -> None:
        _IN_FORCE.update(self._old.pop())


#: Largest magnitude of a coordinate where a model squares distances (|x| <= 1e100 keeps every
#: squared distance, and sums of many of them, far inside the float64 range).
MAX_ABS_ENTRY = 1e100


class ConvergenceWarning(UserWarning):
    """A solver stopped before meeting its tolerance; the message gives iterations and residual."""


def _real_scalar(value: Any, name: str) -> float:
    """Return ``value`` as a float, rejecting bools, complex numbers and non-numbers."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
            return float(value)
        raise TypeError(
            f"{name} must be a real number, got {value!r} of type {type(value).__name__}"
        )
    return float(value)


def check_beta(beta: Any, name: str = "beta") -> float:
    """Return the inverse temperature as a float; it must be finite and > 0."""
    value = _real_scalar(beta, name)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def check_finite_float(value: Any, name: str) -> float:
    """Return ``value`` as a float; it must be a finite real number (any sign)."""
    out = _real_scalar(value, name)
    if not math.isfinite(out):
        raise ValueError(f"{name} must be a finite number, got {out!r}")
    return out


def check_nonneg_float(value: Any, name: str) -> float:
    """Return ``value`` as a float; it must be finite and >= 0."""
    out = _real_scalar(value, name)
    if not math.isfinite(out) or out < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {out!r}")
    return out


def check_fraction(
    value: Any,
    name: str,
    lo: float = 0.0,
    hi: float = 1.0,
    open_lo: bool = True,
    open_hi: bool = True,
) -> float:
    """Return ``value`` as a float inside the interval from ``lo`` to ``hi`` (open/closed ends)."""
    out = _real_scalar(value, name)
    below = out <= lo if open_lo else out < lo
    above = out >= hi if open_hi else out > hi
    if not math.isfinite(out) or below or above:
        left, right = ("(" if open_lo else "["), (")" if open_hi else "]")
        raise ValueError(f"{name} must lie in {left}{lo}, {hi}{right}, got {out!r}")
    return out


def check_positive_float(value: Any, name: str) -> float:
    """Return ``value`` as a float; it must be finite and > 0."""
    return check_beta(value, name)


def check_bool(value: Any, name: str) -> bool:
    """Return ``value`` as a bool; only ``True``/``False`` (and NumPy bools) are accepted."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(
            f"{name} must be True or False, got {value!r} of type {type(value).__name__}"
        )
    return bool(value)


def check_option(value: Any, name: str, options: Sequence[Any]) -> Any:
    """Return ``value`` if it is one of ``options`` (compared with ``==``, same type family)."""
    for option in options:
        if type(value) is type(option) and value == option:
            return value
    raise ValueError(f"{name} must be one of {tuple(options)!r}, got {value!r}")


def type_names(cls: type | tuple[type, ...]) -> str:
    """The name of a class, or "A or B" for a tuple of classes (for error messages)."""
    return " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))


def check_instance(value: Any, name: str, cls: type | tuple[type, ...]) -> Any:
    """Return ``value`` if it is an instance of ``cls`` (a result type the library built).

    The message shows at most 80 characters of the value's repr (results hold large arrays).
    """
    if not isinstance(value, cls):
        raise TypeError(
            f"{name} must be a {type_names(cls)}, got {value!r:.80} of type {type(value).__name__}"
        )
    return value


def check_size(count: float, name: str, what: str, limit: int, hint: str) -> int:
    """Refuse a derived size (steps, grid points, subsets, elements) above ``limit``.

    ``name`` is the parameter that sets it, ``what`` says what is counted and ``hint`` how to
    stay under the limit; the message states all three and the limit. For the library-wide caps
    :data:`MAX_STEPS` and :data:`MAX_ELEMENTS` the value in force is used (see :class:`limits`),
    and the message says how to raise it.
    """
    key = getattr(limit, "key", None)
    value = _IN_FORCE[key] if key is not None else limit
    if not count <= value:
        shown = f"{count:.3g}" if isinstance(count, float) else f"{count}"
        raise_it = "" if key is None else f", or raise the limit with assocmem.limits({key}=...)"
        raise ValueError(
            f"{name} asks for {shown} {what}, more than the limit of {value}; {hint}{raise_it}"
        )
    return int(count)


def as_xp(xp: Any, name: str = "xp") -> Any:
    """Return an array namespace: None (NumPy unless the inputs say otherwise) or numpy/cupy."""
    if xp is None or xp is np:
        return xp
    if getattr(xp, "__name__", None) == "cupy":
        return xp
    raise TypeError(f"{name} must be None, numpy or cupy (a module), got {xp!r}")


def check_positive_int(value: Any, name: str, minimum: int = 1, maximum: int | None = None) -> int:
    """Return ``value`` as an int with ``minimum <= value <= maximum``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}")
    out = int(value)
    if out < minimum or (maximum is not None and out > maximum):
        upper = "" if maximum is None else f" and <= {maximum}"
        raise ValueError(f"{name} must be an integer >= {minimum}{upper}, got {out}")
    return out


def _as_real_array(a: Any, name: str, xp: Any = None) -> Any:
    """Convert to a float64 array of namespace ``xp`` after checking dtype and finiteness."""
    from assocmem.backend import array_namespace

    if xp is None:
        xp = array_namespace(a) if hasattr(a, "__array_namespace__") or hasattr(a, "device") else np
    arr = _no_ragged(a, name)
    kind = getattr(arr.dtype, "kind", "O")
    if kind not in "iuf":
        raise TypeError(
            f"{name} must hold real numbers (integer or float dtype), got dtype {arr.dtype}"
        )
    arr = xp.asarray(arr, dtype=xp.float64)
    if not bool(xp.all(xp.isfinite(arr))):
        raise ValueError(f"{name} must be finite, got NaN or inf entries")
    return arr


def as_real_array(
    a: Any,
    name: str,
    ndim: int | tuple[int, ...] | None = None,
    min_size: int = 1,
    xp: Any = None,
) -> Any:
    """Return ``a`` as a finite float64 array (bool, complex and object dtypes are refused).

    ``ndim`` restricts the number of dimensions; ``min_size`` is the least number of elements.
    """
    arr = _as_real_array(a, name, xp)
    dims = (ndim,) if isinstance(ndim, int) else ndim
    if dims is not None and arr.ndim not in dims:
        want = " or ".join(str(k) for k in dims)
        raise ValueError(f"{name} must be a {want}-D array, got shape {arr.shape}")
    if arr.size < min_size:
        raise ValueError(f"{name} must hold at least {min_size} value(s), got shape {arr.shape}")
    return arr


def as_real_vector(
    values: Any,
    name: str,
    lo: float = -math.inf,
    hi: float = math.inf,
    open_lo: bool = False,
    open_hi: bool = False,
    min_size: int = 1,
) -> np.ndarray:
    """Return a 1-D finite float64 NumPy array of ``values``, each inside the interval [lo, hi].

    A scalar becomes a one-element array; ends are open where ``open_lo``/``open_hi`` say so.
    """
    if isinstance(values, numbers.Real) and not isinstance(values, bool | np.bool_):
        values = [values]
    arr = np.atleast_1d(as_real_array(values, name, ndim=(0, 1), min_size=min_size, xp=np))
    below = arr <= lo if open_lo else arr < lo
    above = arr >= hi if open_hi else arr > hi
    if bool(np.any(below | above)):
        left, right = ("(" if open_lo else "["), (")" if open_hi else "]")
        bad = arr[below | above][0]
        raise ValueError(f"{name} must hold values in {left}{lo}, {hi}{right}, got {bad!r}")
    return arr


def _no_ragged(a: Any, name: str) -> Any:
    """Refuse None, strings and ragged nested sequences before NumPy turns them into objects."""
    if a is None or isinstance(a, str | bytes):
        raise TypeError(f"{name} must be an array of real numbers, got {a!r}")
    if hasattr(a, "dtype"):
        return a
    try:
        return np.asarray(a)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} must be a rectangular array of real numbers: {exc}") from exc


def as_memories(memories: Any, xp: Any = None) -> Any:
    """Return the stored patterns as a finite float64 array of shape ``(M, d)`` with M, d >= 1."""
    arr = _as_real_array(memories, "memories", xp)
    if arr.ndim != 2:
        raise ValueError(f"memories must have shape (M, d), got an array with shape {arr.shape}")
    if arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(
            f"memories must hold at least one pattern of dimension >= 1, got shape {arr.shape}"
        )
    return arr


def as_points(x: Any, d: int, name: str = "x", xp: Any = None) -> tuple[Any, bool]:
    """Return points as a ``(B, d)`` float64 array, and whether the input was one ``(d,)`` point."""
    arr = _as_real_array(x, name, xp)
    if arr.ndim == 1:
        if arr.shape[0] != d:
            raise ValueError(f"{name} must have shape ({d},) or (B, {d}), got shape {arr.shape}")
        return arr[None, :], True
    if arr.ndim != 2 or arr.shape[1] != d:
        raise ValueError(f"{name} must have shape ({d},) or (B, {d}), got shape {arr.shape}")
    if arr.shape[0] < 1:
        raise ValueError(f"{name} must hold at least one point, got shape {arr.shape}")
    return arr, False


def as_rng(rng: Any) -> np.random.Generator:
    """Return a NumPy Generator from an int seed or a Generator; anything else is refused."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool | np.bool_):
        if int(rng) < 0:
            raise ValueError(f"rng seed must be an integer >= 0, got {int(rng)}")
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"rng must be an int seed or a numpy.random.Generator, "
        f"got {rng!r} of type {type(rng).__name__}"
    )


def check_index_set(index_set: Any, M: int, name: str = "index_set") -> list[int]:
    """Return a subset K of memory indices as a sorted list of distinct ints in [0, M).

    ``name`` is the parameter the messages name.
    """
    if isinstance(index_set, str | bytes):
        raise TypeError(f"{name} must be an iterable of integers, got {index_set!r}")
    try:
        items = list(index_set)
    except TypeError as exc:
        raise TypeError(f"{name} must be an iterable of integers, got {index_set!r}") from exc
    if not items:
        raise ValueError(f"{name} must be a non-empty set of memory indices, got an empty one")
    for i in items:
        if isinstance(i, bool | np.bool_) or not isinstance(i, numbers.Integral):
            raise TypeError(f"{name} must hold integers, got {i!r} of type {type(i).__name__}")
    out = sorted(int(i) for i in items)
    if len(set(out)) != len(out) or out[0] < 0 or out[-1] >= M:
        raise ValueError(f"{name} must hold distinct indices in [0, {M}), got {items!r}")
    return out


def check_int_sequence(
    values: Any, name: str, minimum: int = 1, maximum: int | None = None
) -> list[int]:
    """Return a non-empty sequence of integers as a list, each within [minimum, maximum]."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence | np.ndarray):
        raise TypeError(
            f"{name} must be a sequence of integers, got {values!r} of type {type(values).__name__}"
        )
    if isinstance(values, np.ndarray) and values.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of integers, got shape {values.shape}")
    if len(values) == 0:
        raise ValueError(f"{name} must hold at least one integer, got an empty sequence")
    return [check_positive_int(v, name, minimum=minimum, maximum=maximum) for v in values]


def check_max_abs(arr: Any, name: str, limit: float = MAX_ABS_ENTRY) -> Any:
    """Return a finite array whose entries are at most ``limit`` in magnitude.

    For models that square distances: beyond ``MAX_ABS_ENTRY`` they would overflow to inf.
    """
    top = float(abs(arr).max()) if arr.size else 0.0
    if top > limit:
        raise ValueError(
            f"{name} must have entries of magnitude <= {limit:g} (squared distances must stay "
            f"finite in float64), got an entry of magnitude {top:.3g}; rescale the data"
        )
    return arr
