"""Tests of :mod:`assocmem.backend`: NumPy by default, CuPy only on request, no silent fallback.

The reference behaviour is the shared spec of the library (backend section): ``get_namespace``
reads ``ASSOCMEM_BACKEND`` and defaults to NumPy; asking for CuPy without CuPy or a GPU raises
``RuntimeError``; ``array_namespace`` never imports CuPy for NumPy inputs.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from assocmem import backend
from assocmem.backend import BACKEND_ENV, array_namespace, get_namespace, has_gpu, to_numpy


@pytest.fixture
def no_backend_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test as if ASSOCMEM_BACKEND were unset."""
    monkeypatch.delenv(BACKEND_ENV, raising=False)


def _gpu_available() -> bool:
    """CuPy imports and sees a CUDA device (what the GPU tests need)."""
    return has_gpu()


class TestGetNamespace:
    def test_default_is_numpy(self, no_backend_env: None) -> None:
        assert get_namespace() is np

    def test_explicit_numpy(self) -> None:
        assert get_namespace("numpy") is np

    def test_name_is_case_insensitive(self) -> None:
        assert get_namespace("NumPy") is np

    def test_environment_variable_selects_numpy(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv(BACKEND_ENV, "numpy")
        assert get_namespace() is np

    def test_explicit_name_overrides_environment(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # The environment asks for a backend that does not exist; the explicit name wins.
        monkeypatch.setenv(BACKEND_ENV, "no-such-backend")
        assert get_namespace("numpy") is np

    @pytest.mark.parametrize("name", ["torch", "", "cupy ", "jax"])
    def test_unknown_name_raises_value_error_naming_it(self, name: str) -> None:
        with pytest.raises(ValueError, match="must name a backend, one of"):
            get_namespace(name)

    def test_unknown_environment_value_raises_value_error(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv(BACKEND_ENV, "tensorflow")
        with pytest.raises(ValueError, match="tensorflow"):
            get_namespace()

    def test_non_string_name_raises_value_error(self) -> None:
        with pytest.raises(ValueError, match="backend"):
            get_namespace(3)  # type: ignore[arg-type]

    def test_cupy_without_gpu_raises_runtime_error(self) -> None:
        if _gpu_available():
            pytest.skip("a CUDA device is present; the no-GPU error path cannot be exercised")
        with pytest.raises(RuntimeError, match="cupy"):
            get_namespace("cupy")

    def test_cupy_from_environment_without_gpu_raises_runtime_error(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        if _gpu_available():
            pytest.skip("a CUDA device is present; the no-GPU error path cannot be exercised")
        monkeypatch.setenv(BACKEND_ENV, "cupy")
        with pytest.raises(RuntimeError, match="cupy"):
            get_namespace()


class TestArrayNamespace:
    def test_numpy_arrays_give_numpy(self) -> None:
        assert array_namespace(np.zeros(3), np.ones((2, 2))) is np

    def test_no_arguments_give_numpy(self) -> None:
        assert array_namespace() is np

    def test_python_objects_give_numpy(self) -> None:
        assert array_namespace([1.0, 2.0], 3.0, None) is np

    def test_does_not_import_cupy_for_numpy_inputs(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # Block the import: if array_namespace tried to import CuPy, this would raise.
        monkeypatch.setitem(sys.modules, "cupy", None)
        assert array_namespace(np.zeros(2)) is np


class TestToNumpy:
    def test_numpy_array_is_returned_as_numpy(self) -> None:
        a = np.arange(4.0)
        out = to_numpy(a)
        assert isinstance(out, np.ndarray)
        np.testing.assert_array_equal(out, a)

    def test_list_becomes_ndarray(self) -> None:
        out = to_numpy([[1, 2], [3, 4]])
        assert isinstance(out, np.ndarray)
        assert out.shape == (2, 2)

    @pytest.mark.parametrize("value", [1, 2.5, True, 1 + 2j])
    def test_python_scalar_is_unchanged(self, value: object) -> None:
        out = to_numpy(value)
        assert out == value
        assert type(out) is type(value)


class TestHasGpu:
    def test_returns_bool(self) -> None:
        assert isinstance(has_gpu(), bool)

    def test_false_when_cupy_cannot_be_imported(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setitem(sys.modules, "cupy", None)
        assert has_gpu() is False


@pytest.mark.gpu
class TestCupyBackend:
    """Runs only with CuPy and a CUDA device; skips cleanly everywhere else (CI has no GPU)."""

    @pytest.fixture(autouse=True)
    def _need_gpu(self) -> None:
        pytest.importorskip("cupy")
        if not _gpu_available():
            pytest.skip("CuPy is installed but no CUDA device is usable")

    def test_get_namespace_returns_cupy(self) -> None:
        import cupy

        assert get_namespace("cupy") is cupy

    def test_array_namespace_detects_cupy_arrays(self) -> None:
        import cupy

        assert array_namespace(np.zeros(2), cupy.zeros(2)) is cupy

    def test_to_numpy_copies_to_host_exactly(self) -> None:
        import cupy

        host = np.linspace(0.0, 1.0, 7)
        out = to_numpy(cupy.asarray(host))
        assert isinstance(out, np.ndarray)
        # A device round trip of float64 values is exact.
        np.testing.assert_array_equal(out, host)


def test_module_exports_the_documented_names() -> None:
    assert set(backend.__all__) == {
        "BACKEND_ENV",
        "array_namespace",
        "get_namespace",
        "has_gpu",
        "to_numpy",
    }
