"""Every public function and class of the library has a bad-input baseline somewhere.

Each ``test_bad_input_<part>.py`` checks the modules it names; this test walks the whole package,
so a new module (or a name re-exported by a package) that no matrix file lists fails here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import badinput

import assocmem


def _all_public() -> dict[str, object]:
    """Every function or non-result class named in any ``__all__`` of a public module.

    Private modules (``_validation``, ``explore._core``) are reached through the public packages
    that re-export their names.
    """
    found: dict[str, object] = {}
    modules = [assocmem] + [
        importlib.import_module(m.name)
        for m in pkgutil.walk_packages(assocmem.__path__, prefix="assocmem.")
        if not m.name.rsplit(".", 1)[-1].startswith("_")
    ]
    for module in modules:
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            callable_ = inspect.isfunction(obj) or inspect.isclass(obj)
            if callable_ and not badinput.is_result_type(obj):
                found.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    return found


def test_every_public_name_has_a_baseline() -> None:
    for path in sorted(Path(__file__).parent.glob("test_bad_input_*.py")):
        if path.stem != Path(__file__).stem:
            importlib.import_module(path.stem)
    covered = {id(b.func) for b in badinput.REGISTERED}
    missing = sorted(name for name, obj in _all_public().items() if id(obj) not in covered)
    assert not missing, f"public names without a bad-input baseline: {missing}"


def test_the_matrix_is_large() -> None:
    # A guard against a matrix that silently shrinks (e.g. a file whose BASELINES is emptied).
    for path in sorted(Path(__file__).parent.glob("test_bad_input_*.py")):
        if path.stem != Path(__file__).stem:
            importlib.import_module(path.stem)
    cells = sum(1 for _ in badinput.matrix_cases(badinput.REGISTERED))
    assert cells > 10_000
