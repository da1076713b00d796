"""The bad-input matrix: every public function, every parameter, every kind of bad value.

Each test module ``test_bad_input_<package>.py`` lists one :class:`Baseline` per public name: a
small valid call with every parameter given by keyword. :func:`matrix_cases` then replaces one
parameter at a time by each value of :data:`BAD_SCALARS` (and, for array parameters, by the
array variants of :func:`array_variants`) and :func:`run_case` classifies what happens:

``clean``
    a ``ValueError`` or ``TypeError`` whose message names the parameter (as a word);
``accepted``
    a result, for a value the baseline declares valid for that parameter, with no NaN where the
    baseline result has none;
``unclear``
    a ``ValueError``/``TypeError`` that does not name the parameter;
``crash``
    any other exception;
``silent``
    a result for a value that is not valid for the parameter;
``nan``
    a result holding NaN where the baseline result holds none (an overflow must give +-inf or
    an error, never NaN);
``warning``
    a warning escaped the call;
``hang``
    the call ran longer than :data:`CASE_SECONDS`.

Only ``clean`` and ``accepted`` pass. ``python tests/badinput.py`` prints the outcome counts
over the whole matrix (the closing notes quote them).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import math
import re
import signal
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Seconds a single bad call may take before it counts as a hang (the baselines take < 0.2 s).
CASE_SECONDS = 5.0

#: Bad scalar values tried for every parameter, by label.
BAD_SCALARS: dict[str, Any] = {
    "nan": math.nan,
    "inf": math.inf,
    "-inf": -math.inf,
    "zero": 0,
    "minus_one": -1,
    "huge": 1e300,
    "str": "abc",
    "none": None,
    "true": True,
    "complex": 1 + 1j,
    "float_for_int": 2.5,
}

#: Shorthands for ``Baseline.accepts``: the labels that are valid values of a parameter.
ANY_REAL = frozenset({"zero", "minus_one", "huge", "float_for_int"})
POSITIVE_REAL = frozenset({"huge", "float_for_int"})
NONNEG_REAL = frozenset({"zero", "huge", "float_for_int"})
NONE_OK = frozenset({"none"})
BOOL = frozenset({"true"})
SEED = frozenset({"zero"})  # an rng given as an int seed: 0 is a valid seed
ZERO = frozenset({"zero"})  # a count, an index or a load that may be 0
STR = frozenset({"str"})  # a free-text parameter (a name, a label, a title)
#: Moderate reals: valid unless huge (1e300 overflows, or leaves the parameter's range).
SMALL_POSITIVE = frozenset({"float_for_int"})
SMALL_NONNEG = frozenset({"zero", "float_for_int"})
SMALL_REAL = frozenset({"zero", "minus_one", "float_for_int"})
FINITE_ENTRIES = frozenset({"huge_entry"})  # an array whose entries may be any finite reals
ARRAY_LABELS = frozenset(
    {"nan_entry", "inf_entry", "huge_entry", "complex_array", "bool_array", "empty", "misshaped"}
)
ANY_VALUE = frozenset(BAD_SCALARS) | ARRAY_LABELS  # a parameter that takes any object


@dataclass(frozen=True)
class Baseline:
    """A valid call of ``func`` with every parameter by keyword, and what each parameter accepts.

    Attributes
    ----------
    func : callable
        The public function or class.
    kwargs : dict
        A small, fast, valid call; every parameter of the signature appears here.
    accepts : dict of str to iterable of str
        For each parameter, the labels of bad values that are in fact valid for it (for
        example ``{"theta": ANY_REAL}``); every other label must be refused by name.
    name : str
        The public name (defaults to ``func.__name__``).
    """

    func: Callable[..., Any]
    kwargs: dict[str, Any]
    accepts: dict[str, Iterable[str]] = field(default_factory=dict)
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self.func.__name__)

    def parameters(self) -> list[str]:
        """Names of the signature's parameters (``*args``/``**kwargs`` excluded)."""
        sig = inspect.signature(self.func)
        kinds = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        return [p.name for p in sig.parameters.values() if p.kind not in kinds]

    def call(self, **override: Any) -> Any:
        """Call with the baseline arguments (deep-copied) and ``override``."""
        kwargs = {k: v for k, v in self.kwargs.items() if k not in override}
        kwargs = copy.deepcopy(kwargs) if _copyable(kwargs) else dict(kwargs)
        return self.func(**kwargs, **override)


@dataclass(frozen=True)
class Case:
    """One cell of the matrix: ``baseline`` with ``param`` replaced by the value of ``label``."""

    baseline: Baseline
    param: str
    label: str
    value: Any

    @property
    def id(self) -> str:
        return f"{self.baseline.name}-{self.param}-{self.label}"


#: Every baseline of every matrix module imported so far (the global coverage test reads it).
REGISTERED: list[Baseline] = []


class _Timeout(Exception):
    pass


def _copyable(kwargs: dict[str, Any]) -> bool:
    """Whether deep copies are safe (modules and generators are passed as they are)."""
    return not any(inspect.ismodule(v) for v in kwargs.values())


def array_variants(value: Any) -> dict[str, Any]:
    """Bad versions of an array argument: NaN, inf and huge entries, complex, bool, empty, 3-D."""
    if isinstance(value, str | bytes) or inspect.ismodule(value):
        return {}
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):  # pragma: no cover - ragged input
        return {}
    if arr.ndim == 0 or arr.size == 0 or arr.dtype.kind not in "iuf":
        return {}
    out: dict[str, Any] = {}
    flat = arr.astype(np.float64).copy()
    for label, bad in (("nan_entry", np.nan), ("inf_entry", np.inf), ("huge_entry", 1e300)):
        v = flat.copy()
        v.flat[0] = bad
        out[label] = v
    out["complex_array"] = arr.astype(np.complex128)
    out["bool_array"] = np.ones(arr.shape, dtype=bool)
    out["empty"] = np.zeros((0, *arr.shape[1:]))
    out["misshaped"] = np.zeros((2, 3, 4, 5)) if arr.ndim != 4 else np.zeros((2, 3))
    return out


def matrix_cases(baselines: Iterable[Baseline]) -> Iterator[Case]:
    """Every (baseline, parameter, bad value) of the matrix."""
    for b in baselines:
        for param in b.parameters():
            values = dict(BAD_SCALARS)
            values.update(array_variants(b.kwargs.get(param)))
            for label, value in values.items():
                yield Case(b, param, label, value)


def _has_nan(obj: Any, depth: int = 0) -> bool:
    """Whether a result (array, number, dataclass, tuple, dict, ...) holds a NaN anywhere."""
    if depth > 6 or obj is None or isinstance(obj, str | bytes | bool):
        return False
    if isinstance(obj, float | complex | np.floating | np.complexfloating):
        return bool(np.isnan(obj))
    if isinstance(obj, np.ndarray):
        return obj.dtype.kind in "fc" and bool(np.isnan(obj).any())
    if hasattr(obj, "get") and hasattr(obj, "shape") and hasattr(obj, "dtype"):  # CuPy
        return _has_nan(obj.get(), depth + 1)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return any(_has_nan(getattr(obj, f.name), depth + 1) for f in dataclasses.fields(obj))
    if isinstance(obj, dict):
        return any(_has_nan(v, depth + 1) for v in obj.values())
    if isinstance(obj, list | tuple):
        return any(_has_nan(v, depth + 1) for v in obj[:10_000])
    return False


def _names(message: str, param: str) -> bool:
    """Whether an error message names the parameter as a word."""
    return re.search(rf"(?<![\w.]){re.escape(param)}(?!\w)", message) is not None


def run_case(case: Case, baseline_result: Any = None) -> tuple[str, str]:
    """Run one cell; return (outcome, detail). See the module docstring for the outcomes."""
    accepted = set(case.baseline.accepts.get(case.param, ()))
    old = signal.signal(signal.SIGALRM, _raise_timeout)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = case.baseline.call(**{case.param: case.value})
            except _Timeout:
                return "hang", f"more than {CASE_SECONDS} s"
            except (ValueError, TypeError) as exc:
                if _names(str(exc), case.param):
                    return "clean", str(exc)
                return "unclear", f"{type(exc).__name__}: {exc}"
            except Exception as exc:
                return "crash", f"{type(exc).__name__}: {exc}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    if caught:
        w = caught[0]
        return "warning", f"{w.category.__name__}: {w.message}"
    if case.label not in accepted:
        return "silent", f"returned {_short(result)}"
    nan_in = case.label in ("nan", "nan_entry")  # a NaN accepted as input may come back out
    if not nan_in and _has_nan(result) and not _has_nan(baseline_result):
        return "nan", f"returned NaN: {_short(result)}"
    return "accepted", ""


def _raise_timeout(signum: int, frame: Any) -> None:
    raise _Timeout


def _short(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) < 160 else text[:157] + "..."


def public_names(module_name: str) -> list[str]:
    """The names in a module's ``__all__`` that are functions or classes (not constants)."""
    module = importlib.import_module(module_name)
    return [
        n
        for n in module.__all__
        if inspect.isfunction(getattr(module, n)) or inspect.isclass(getattr(module, n))
    ]


def is_result_type(obj: Any) -> bool:
    """Frozen dataclasses (result records) and exception classes need no baseline."""
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return True
    params = getattr(obj, "__dataclass_params__", None)
    return inspect.isclass(obj) and params is not None and params.frozen


def outcome_counts(baselines: Iterable[Baseline]) -> tuple[Counter[str], list[str]]:
    """Run the whole matrix; return the outcome counts and a line per failing cell."""
    counts: Counter[str] = Counter()
    failures: list[str] = []
    for b in baselines:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                reference = b.call()
        except Exception as exc:  # a baseline the library under test cannot run
            n = sum(1 for _ in matrix_cases([b]))
            counts["no baseline"] += n
            failures.append(f"no baseline {b.name}: {type(exc).__name__}: {exc}"[:200])
            continue
        for case in matrix_cases([b]):
            outcome, detail = run_case(case, reference)
            counts[outcome] += 1
            if outcome not in ("clean", "accepted"):
                failures.append(f"{outcome:9s} {case.id}: {detail}")
    return counts, failures


def matrix_tests(baselines: list[Baseline], modules: list[str]) -> tuple[Callable[..., None], ...]:
    """The three tests of a ``test_bad_input_<package>.py`` module.

    ``test_matrix`` runs every bad value of one (function, parameter) pair; ``test_coverage``
    fails when a public name of ``modules`` has no baseline (result records excepted) or a
    baseline leaves a parameter out; ``test_baseline`` checks each baseline runs cleanly.
    """
    import pytest

    REGISTERED.extend(baselines)
    pairs = [(b, p) for b in baselines for p in b.parameters()]

    @pytest.mark.parametrize(("baseline", "param"), pairs, ids=[f"{b.name}-{p}" for b, p in pairs])
    def test_matrix(baseline: Baseline, param: str) -> None:
        reference = baseline.call()
        bad = []
        for case in matrix_cases([baseline]):
            if case.param != param:
                continue
            outcome, detail = run_case(case, reference)
            if outcome not in ("clean", "accepted"):
                bad.append(f"{case.label}: {outcome}: {detail}")
        assert not bad, f"{baseline.name}({param}=...):\n" + "\n".join(bad)

    def test_coverage() -> None:
        covered = {b.name for b in baselines}
        missing = [
            f"{m}.{n}"
            for m in modules
            for n in public_names(m)
            if n not in covered and not is_result_type(getattr(importlib.import_module(m), n))
        ]
        assert not missing, f"public names without a bad-input baseline: {missing}"
        incomplete = [
            f"{b.name}: {sorted(set(b.parameters()) - set(b.kwargs))}"
            for b in baselines
            if set(b.parameters()) - set(b.kwargs)
        ]
        assert not incomplete, f"baselines that leave parameters out: {incomplete}"

    @pytest.mark.parametrize("baseline", baselines, ids=[b.name for b in baselines])
    def test_baseline(baseline: Baseline) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            baseline.call()

    return test_matrix, test_coverage, test_baseline


if __name__ == "__main__":  # pragma: no cover - the report quoted in closing notes
    here = __import__("pathlib").Path(__file__).parent
    sys.path.insert(0, str(here))
    modules = sys.argv[1:] or sorted(
        p.stem for p in here.glob("test_bad_input_*.py") if p.stem != "test_bad_input_coverage"
    )
    total: Counter[str] = Counter()
    for name in modules:
        counts, failures = outcome_counts(importlib.import_module(name).BASELINES)
        total += counts
        print(f"{name}: {dict(sorted(counts.items()))}")
        for line in failures:
            print("   ", line)
    print(f"total {sum(total.values())} cells: {dict(sorted(total.items()))}")
