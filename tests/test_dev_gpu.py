"""Tests for ``python3 dev.py gpu`` and the import-light test setup it relies on (issue 14).

A GPU machine may have NumPy, SciPy, pytest, hypothesis and CuPy but none of the book's tools.
The tests here start Pythons whose ``sys.meta_path`` refuses plotly, ipywidgets, the Jupyter
packages, nbval, threadpoolctl and playwright (a ``sitecustomize`` on ``PYTHONPATH``) and check
that the model subpackages import, that ``pytest -m gpu`` still collects the gpu tests, and that
``benchmarks/gpu_check.py --dry-run`` runs its whole harness. ``dev.py gpu`` itself is checked
for the commands it runs (the real run needs a GPU).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assocmem.backend import has_gpu

ROOT = Path(__file__).resolve().parents[1]
BLOCKED = (
    "plotly",
    "ipywidgets",
    "jupyter",  # every jupyter* package: jupyter_client, jupyter_core, jupyter_book, ...
    "nbval",
    "nbformat",
    "nbclient",
    "ipykernel",
    "IPython",
    "threadpoolctl",
    "playwright",
)
BLOCKER = f"""
import sys

BLOCKED = {BLOCKED!r}


class _Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0].startswith(BLOCKED):
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None


sys.meta_path.insert(0, _Blocker())
"""
# nbval's pytest plugin is registered by its installed entry point; absent nbval means absent
# plugin, so the blocked run leaves it out the same way.
NO_NBVAL = ("-p", "no:nbval")


@pytest.fixture(scope="module")
def light_env(tmp_path_factory) -> dict[str, str]:
    """An environment whose Python cannot import the book's tools."""
    folder = tmp_path_factory.mktemp("blocker")
    (folder / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    paths = [str(folder), str(ROOT / "src"), str(ROOT / "benchmarks")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "OPENBLAS_NUM_THREADS": "1"}


def _python(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
        check=False,
    )


IMPORT_ALL = """
import importlib, pkgutil, sys
import assocmem

for tool in ("plotly", "ipywidgets", "jupyter_client", "threadpoolctl", "nbformat"):
    try:
        importlib.import_module(tool)
    except ModuleNotFoundError:
        pass
    else:
        raise SystemExit(f"the blocker let {tool} through")
names = [m.name for m in pkgutil.walk_packages(assocmem.__path__, "assocmem.")
         if not m.name.startswith("assocmem.explore")]
for name in names:
    importlib.import_module(name)
print(len(names), sorted({m.split(".")[1] for m in names if m.count(".") == 1}))
"""


class TestImportLight:
    def test_every_model_module_imports_without_the_book_tools(self, light_env):
        proc = _python(light_env, "-c", IMPORT_ALL)
        assert proc.returncode == 0, proc.stderr[-3000:]
        count, _, packages = proc.stdout.strip().partition(" ")
        assert int(count) > 40  # 56 modules when this test was written
        for sub in ("attractor", "dense_am", "linear_memory", "potts_dam", "quadratic", "backend"):
            assert f"'{sub}'" in packages

    @pytest.mark.slow
    def test_pytest_collects_the_gpu_tests_without_the_book_tools(self, light_env):
        args = ("-m", "pytest", "--collect-only", "-q", "-m", "gpu", "tests", *NO_NBVAL)
        proc = _python(light_env, *args, "-p", "no:cacheprovider")
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out[-3000:]
        # Marked gpu tests, and one that conftest marks because it skips without CuPy.
        assert "tests/test_backend.py::TestCupyBackend::test_get_namespace_returns_cupy" in out
        assert "tests/test_linear_memory_training.py::" in out
        assert "needs plotly (not installed)" in out and "ERROR" not in out


class TestGpuCheck:
    def test_dry_run_times_every_kernel_with_numpy_on_both_sides(self, light_env, tmp_path):
        out = tmp_path / "check.json"
        proc = _python(light_env, "benchmarks/gpu_check.py", "--dry-run", "--out", str(out))
        assert proc.returncode == 0, proc.stderr[-3000:]
        data = json.loads(out.read_text())
        prov, rows = data["provenance"], data["rows"]
        assert prov["dry_run"] is True and prov["cupy"] is None and prov["device"]
        assert prov["complete"] is True and prov["wall_s"] > 0
        kernels = {r["kernel"].split(" (")[0] for r in rows}
        assert kernels == {
            "train OP",
            "train DP",
            "energetic_G_mc",
            "lsr_minima_bruteforce",
            "attractor eigvals",
            "attractor simulate",
            "gamp_rie",
            "potts_dam epoch",
        }
        for r in rows:
            assert r["numpy_ms"] > 0 and r["gpu_ms"] > 0
            assert r["ratio"] == pytest.approx(r["numpy_ms"] / r["gpu_ms"])
        assert "| kernel | size | NumPy (ms) |" in proc.stdout

    @pytest.mark.skipif(has_gpu(), reason="a GPU is present: the real check would run")
    def test_without_a_gpu_it_says_so_and_exits_0(self, light_env, tmp_path):
        proc = _python(light_env, "benchmarks/gpu_check.py", "--out", str(tmp_path / "x.json"))
        assert proc.returncode == 0 and "not available" in proc.stdout
        assert not (tmp_path / "x.json").exists()


def _dev():
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestDevGpu:
    def _calls(self, monkeypatch, codes):
        dev = _dev()
        calls = []

        def fake_run(cmd, cwd, env, check):
            calls.append((cmd, env))
            return subprocess.CompletedProcess(cmd, codes[len(calls) - 1])

        monkeypatch.setattr(dev.subprocess, "run", fake_run)
        return dev, calls

    def test_runs_gpu_tests_then_the_check_with_this_interpreter(self, monkeypatch, tmp_path):
        dev, calls = self._calls(monkeypatch, [0, 0])
        out = str(tmp_path / "t.json")
        assert dev.main(["gpu", "--dry-run", "--out", out]) == 0
        (tests, env), (check, _) = calls
        assert tests[:5] == [sys.executable, "-m", "pytest", "-m", "gpu"]
        assert "tests/test_backend.py" in tests and "tests/test_linear_memory_training.py" in tests
        assert "tests/test_explore_layout.py" not in tests  # no gpu test there
        script = str(ROOT / "benchmarks" / "gpu_check.py")
        assert check == [sys.executable, script, "--dry-run", "--out", out]
        assert env["PYTHONPATH"].split(os.pathsep)[0] == str(ROOT / "src")
        assert env["OPENBLAS_NUM_THREADS"] == "1"

    def test_a_failing_phase_fails_the_command_but_both_run(self, monkeypatch):
        dev, calls = self._calls(monkeypatch, [1, 0])
        assert dev.main(["gpu"]) == 1 and len(calls) == 2
