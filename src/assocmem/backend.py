"""Array backend selection: NumPy everywhere, CuPy on request.

Heavy functions take ``xp = array_namespace(*inputs)`` once and route every array call through
``xp``, so the same code runs on a GPU when its inputs are CuPy arrays. CuPy is imported only
when asked for, and asking for it without a working GPU raises; nothing falls back silently.

The default namespace is NumPy. ``get_namespace("cupy")`` or the environment variable
``ASSOCMEM_BACKEND=cupy`` selects CuPy.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["BACKEND_ENV", "array_namespace", "get_namespace", "has_gpu", "to_numpy"]

BACKEND_ENV = "ASSOCMEM_BACKEND"
_CHOICES = ("numpy", "cupy")


def _import_cupy() -> ModuleType:
    """Import CuPy and check that a CUDA device answers; raise RuntimeError otherwise."""
    try:
        import cupy
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise RuntimeError(
            "backend 'cupy' was requested but CuPy is not installed; "
            "install the optional extra with `pip install assocmem[gpu]`"
        ) from exc
    try:
        n_devices = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # pragma: no cover - depends on the machine
        raise RuntimeError(
            f"backend 'cupy' was requested but no CUDA device is usable: {exc}"
        ) from exc
    if n_devices < 1:  # pragma: no cover - depends on the machine
        raise RuntimeError("backend 'cupy' was requested but no CUDA device is present")
    return cupy


def get_namespace(name: str | None = None) -> ModuleType:
    """Return the array module for ``name`` ("numpy" or "cupy").

    Parameters
    ----------
    name : {"numpy", "cupy"} or None
        The backend. ``None`` reads ``ASSOCMEM_BACKEND`` and defaults to NumPy.

    Returns
    -------
    module
        ``numpy`` or ``cupy``.

    Raises
    ------
    ValueError
        If ``name`` is not one of the two choices.
    RuntimeError
        If CuPy is requested but missing or no GPU is present.

    Examples
    --------
    >>> get_namespace("numpy").__name__
    'numpy'
    """
    if name is None:
        chosen = os.environ.get(BACKEND_ENV, "numpy")
        source = f"the environment variable {BACKEND_ENV}"
    else:
        chosen, source = name, "name"
    if not isinstance(chosen, str) or chosen.lower() not in _CHOICES:
        raise ValueError(f"{source} must name a backend, one of {_CHOICES}, got {chosen!r}")
    return np if chosen.lower() == "numpy" else _import_cupy()


def array_namespace(*arrays: Any) -> ModuleType:
    """Return CuPy if any argument is a CuPy array, else NumPy (CuPy is never imported here)."""
    for a in arrays:
        module = type(a).__module__
        if module.startswith("cupy"):
            import cupy

            return cupy
    return np


def to_numpy(a: Any) -> Any:
    """Return ``a`` as a NumPy array (Python scalars unchanged); CuPy arrays are copied to host."""
    if type(a).__module__.startswith("cupy"):
        return a.get()
    if isinstance(a, int | float | bool | complex):
        return a
    return np.asarray(a)


def has_gpu() -> bool:
    """Whether CuPy imports and sees at least one CUDA device."""
    try:
        _import_cupy()
    except RuntimeError:
        return False
    return True
