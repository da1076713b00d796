"""Tests for benchmarks/paper_scale.py: the paper-scale runs of issue 14, at the tiny CPU size.

The script reruns the Fig. 1 OP/DP sweep (Giorlandino et al.) and the empirical α_S
(Cohen & Lengyel) at the papers' sizes on a GPU; here it runs at ``--size tiny --backend numpy``
into a temporary folder (about 2 s), and its file must pass the loader's schema and provenance
checks and equal the library functions it claims to call. No GPU file is checked here: the
book's ``book/_data/paper_scale.json`` exists only once a GPU run produced it.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assocmem import attractor as at
from assocmem import linear_memory as lm
from assocmem.backend import has_gpu

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "paper_scale.py"
_spec = importlib.util.spec_from_file_location("paper_scale", SCRIPT)
ps = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ps)


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "OPENBLAS_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("paper_scale") / "tiny.json"
    proc = _run("--size", "tiny", "--backend", "numpy", "--seed", "3", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    return out, ps.load(out)


class TestTinyRun:
    def test_file_passes_the_loader_with_its_provenance(self, tiny):
        _, data = tiny
        prov = data["provenance"]
        assert data["schema"] == 1 and data["size"] == "tiny"
        assert prov["backend"] == "numpy" and prov["cupy"] is None and prov["complete"] is True
        assert prov["numpy"] == np.__version__ and prov["seeds"]["base"] == 3
        assert "--size tiny" in prov["command"]
        assert set(prov["wall_s"]) == {"factual_recall", "attractor"}

    def test_sweep_equals_accuracy_sweep(self, tiny):
        # The script trains point by point; on NumPy its instances and initialisations are those
        # of lm.accuracy_sweep (same seeds, same protocol), so the accuracies are identical.
        _, data = tiny
        fr = data["factual_recall"]
        assert [s["kind"] for s in fr["sweeps"]] == ["original", "decoupled"]
        for s in fr["sweeps"]:
            kw = {"reps": fr["reps"], "problem": s["kind"], "seed": 3}
            ref = lm.accuracy_sweep(s["d"], fr["alphas"], **kw)
            np.testing.assert_array_equal(np.array(s["accuracy"]), ref.accuracy)
            assert s["p"] == ref.p.tolist() and s["first_violation"] == ref.first_violation

    def test_alpha_s_is_the_mean_over_seeded_comparisons(self, tiny):
        _, data = tiny
        a = data["attractor"]
        assert a["seeds"] == [3, 4, 5]
        first = at.alpha_s_comparison([(1.0, 1.0, 1.0)], N=a["N"], patterns=4, seed=3)
        assert a["alpha_s_trials"][0] == float(first.alpha_s_emp[0])
        # Eq. 19 at CV = σ = n = 1 is 0.302 (the chapter's theory row); the measurement lies
        # 25-50 % below it near n = σ = 1 (note §3.3), so well inside (0, 0.302).
        assert a["alpha_s_theory"] == pytest.approx(0.3017, abs=1e-3)
        assert 0 < a["alpha_s"] < a["alpha_s_theory"] and a["alpha_s_se"] > 0

    def test_only_one_experiment_is_an_incomplete_but_valid_file(self, tmp_path):
        out = tmp_path / "att.json"
        args = ("--size", "tiny", "--backend", "numpy", "--only", "attractor")
        proc = _run(*args, "--out", str(out))
        assert proc.returncode == 0, proc.stderr
        data = ps.load(out)
        assert data["factual_recall"] is None and data["provenance"]["complete"] is False


class TestValidate:
    @pytest.mark.parametrize(
        ("edit", "field"),
        [
            (lambda d: d.update(schema=2), "schema"),
            (lambda d: d["provenance"].pop("device"), "provenance"),
            (lambda d: d["provenance"].update(backend="torch"), "provenance.backend"),
            (lambda d: d["provenance"].update(cupy="14.2"), "provenance.cupy"),
            (lambda d: d["provenance"].update(date="yesterday"), "provenance.date"),
            (lambda d: d["provenance"]["wall_s"].pop("attractor"), "wall_s.attractor"),
            (lambda d: d.update(attractor=None), "attractor"),
            (lambda d: d["attractor"].update(alpha_s=0.9), "attractor.alpha_s"),
            (
                lambda d: d["factual_recall"]["sweeps"][0]["accuracy"][0].__setitem__(0, 1.5),
                "accuracy",
            ),
            (lambda d: d["factual_recall"]["sweeps"][1].update(kind="op"), "kind"),
        ],
    )
    def test_corrupt_file_is_refused_naming_the_field(self, tiny, edit, field):
        data = copy.deepcopy(tiny[1])
        edit(data)
        with pytest.raises(ValueError, match=field.replace(".", r"\.")):
            ps.validate(data)

    def test_load_reads_what_the_script_wrote(self, tiny):
        path, _ = tiny
        assert ps.load(path) == json.loads(path.read_text())


class TestCommandLine:
    @pytest.mark.parametrize(
        ("args", "message"),
        [
            (["--size", "huge", "--out", "x.json"], "--size: invalid choice: 'huge'"),
            (["--backend", "torch"], "--backend: invalid choice: 'torch'"),
            (["--seed", "-1", "--size", "tiny", "--out", "x.json"], "seed must be an integer >= 0"),
            (["--seed", "a", "--size", "tiny", "--out", "x.json"], "seed must be an integer >= 0"),
            (["--size", "tiny", "--backend", "numpy"], "--size tiny needs --out"),
        ],
    )
    def test_bad_values_exit_2_with_a_clear_message(self, capsys, args, message):
        with pytest.raises(SystemExit) as exc:
            ps.parse_args(args)
        assert exc.value.code == 2 and message in capsys.readouterr().err

    def test_out_directory_is_refused(self, capsys, tmp_path):
        with pytest.raises(SystemExit):
            ps.parse_args(["--size", "tiny", "--backend", "numpy", "--out", str(tmp_path)])
        assert "--out must be a file path" in capsys.readouterr().err

    @pytest.mark.skipif(has_gpu(), reason="a GPU is present: the cupy backend is valid there")
    def test_cupy_without_cupy_says_so(self, capsys, tmp_path):
        with pytest.raises(SystemExit):
            ps.parse_args(["--size", "tiny", "--backend", "cupy", "--out", str(tmp_path / "a")])
        assert "--backend cupy" in capsys.readouterr().err

    def test_script_reports_the_error_and_writes_nothing(self, tmp_path):
        proc = _run("--size", "tiny", "--seed", "-2", "--out", str(tmp_path / "a.json"))
        assert proc.returncode == 2 and "seed must be an integer >= 0, got '-2'" in proc.stderr
        assert not (tmp_path / "a.json").exists()
