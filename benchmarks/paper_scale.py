"""Paper-scale reruns (issue 14): the Fig. 1 OP/DP accuracy sweep and the empirical α_S at N = 4000.

The book runs both experiments at CI size; this script reruns them at the papers' sizes on a GPU
(``--size paper --backend cupy``) or checks the harness at a tiny size on the CPU (``--size tiny
--backend numpy``, a few seconds; ``tests/test_paper_scale.py``). It uses the library's functions
only and writes one JSON file with provenance; :func:`load` reads such a file back and validates
it.

Experiments
-----------
factual_recall
    Giorlandino, Goldt and Maillard, Fig. 1 (right) and App. A: for each problem (original OP,
    decoupled DP) and dimension d, ``ALPHAS`` loads α, ``reps`` independent instances each, p =
    p(α, d) facts (``linear_memory.p_at_load``), trained by ``linear_memory.train`` with the
    paper's protocol (full-batch Adam, lr 1e-2, warm-up then cosine decay, at most 512 steps,
    early stop at 99.9 % training accuracy, float32). The paper: 25 α evenly spaced in
    [0.4, 1.0], 5 repetitions, OP at d = 50-500 and DP at d <= 150. ``--size paper`` runs OP and
    DP at d = 150 (DP at d = 150 and α = 1 holds 1.2e9 float32 numbers, 4.8 GB).
    On NumPy every instance is ``linear_memory.sweep_instance`` (so the accuracies equal
    ``accuracy_sweep``'s, tested); on CuPy the embeddings are drawn on the device with
    ``cupy.random.RandomState`` seeded from the same (seed, d, α, rep) key (drawing 10⁹ normals
    on the host would dominate the run): same law, other numbers. OP and DP instances of one
    point share their keys on both backends; the initialisation of W is the sweep's. On CuPy
    ``train`` reads accuracy and loss on the host every 16 steps (``check_every=16``, no host
    synchronisation in between), so a run that reaches 99.9 % stops at most 15 updates later.
attractor
    Cohen and Lengyel, Fig. 8a,b and the chapter's section on the phase diagram: the empirical
    critical load α_S (first zero crossing of the mean spectral abscissa over 4 patterns per
    load; Eq. 8 weights at θ*_bulk; loads 0.025, 0.05, … scanned upwards, stopped two loads
    after the crossing) at CV = σ = n = 1, with ``attractor.alpha_s_comparison`` once per seed
    seed, seed + 1, …; the estimate is the mean over these trials and its uncertainty the
    standard error. ``--size paper``: N = 4000, 6 trials. ``empirical_critical_load`` has no
    CuPy path, so this part runs on the host CPU, in a second (spawned) process while the
    sweep trains on the GPU, with whatever BLAS threads the environment allows (recorded).

The file (``--out``; default ``book/_data/paper_scale.json`` for ``--size paper``, which a tiny
run must not overwrite, so ``--size tiny`` needs an explicit ``--out``) is written after each
experiment, so a run cut short keeps what it finished (``provenance.complete`` is false then)::

    {"schema": 1, "size": "paper" | "tiny",
     "provenance": {device, backend, numpy, scipy, cupy (or null), python, platform, date,
                    blas_threads, seeds, wall_s: {experiment: seconds}, command, complete},
     "factual_recall": {protocol, alphas, reps, steps, lr, early_stop, dtype, instances,
                        sweeps: [{kind, d, p, alpha_eff, accuracy (n_alpha × reps),
                                  accuracy_mean, accuracy_sd, steps_mean,
                                  first_violation, wall_s}]} or null,
     "attractor": {protocol, N, cv, sigma, n, patterns, trials, seeds, alpha_s_trials,
                   alpha_s, alpha_s_se, alpha_s_theory, status, wall_s} or null}

Run
---
``PYTHONPATH=src python benchmarks/paper_scale.py --size paper --backend cupy`` (about 4-5 min
on an H100: see ``benchmarks/run_gpu_all.sh``), or
``PYTHONPATH=src python benchmarks/paper_scale.py --size tiny --out /tmp/ps.json`` (seconds).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import multiprocessing
import os
import platform
import shlex
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:  # run from a checkout without installing the package
    sys.path.insert(0, str(ROOT / "src"))

import scipy  # noqa: E402

import assocmem  # noqa: E402
from assocmem import attractor as at  # noqa: E402
from assocmem import linear_memory as lm  # noqa: E402
from assocmem.backend import get_namespace  # noqa: E402
from assocmem.linear_memory.sweep import _seeds  # noqa: E402  the sweep's (instance, init) key

SCHEMA = 1
DEFAULT_OUT = ROOT / "book" / "_data" / "paper_scale.json"
KINDS = ("original", "decoupled")
# Paper App. A: Adam, lr 1e-2, at most 512 full-batch steps, early stop at 99.9 %; float32 as on
# the paper's GPU (accuracy_sweep's default).
STEPS, LR, EARLY_STOP, DTYPE = 512, 1e-2, 0.999, "float32"
# Fig. 1 (right): 25 loads evenly spaced in [0.4, 1.0], 5 repetitions.
PAPER_ALPHAS = tuple(round(float(a), 4) for a in np.linspace(0.4, 1.0, 25))
SIZES: dict[str, dict[str, Any]] = {
    "tiny": {
        "dims": {"original": (12,), "decoupled": (12,)},
        "alphas": (0.4, 0.7, 1.0),
        "reps": 2,
        "N": 200,
        "trials": 3,
    },
    "paper": {
        "dims": {"original": (150,), "decoupled": (150,)},
        "alphas": PAPER_ALPHAS,
        "reps": 5,
        "N": 4000,
        "trials": 6,
    },
}
# The attractor chapter's main case and scan (06_phase_diagram: alpha_s_comparison defaults).
CASE = (1.0, 1.0, 1.0)  # CV, σ, n
PATTERNS = 4
FR_PROTOCOL = (
    "Giorlandino et al. App. A / Fig. 1 (right): p = p_at_load(alpha, d) facts, i.i.d. N(0, 1) "
    "keys and values; linear_memory.train: full-batch Adam (lr 1e-2, 25-step warm-up, cosine "
    "decay), at most 512 steps, early stop at 99.9 % training accuracy, float32, W initialised "
    "with std 1/d; accuracy = fraction of facts recalled (training set)"
)
AT_PROTOCOL = (
    "Cohen & Lengyel Fig. 8a,b: attractor.alpha_s_comparison at CV = sigma = n = 1 (Eq. 8 "
    "weights, theta = theta*_bulk, low-rank spectra, 4 patterns per load, loads 0.025-0.95 in "
    "steps of 0.025 scanned upwards and stopped 2 loads after the mean abscissa turns >= 0); "
    "alpha_S = first zero crossing; one trial per seed; estimate = mean, uncertainty = standard "
    "error over trials"
)
PROVENANCE_KEYS = (
    "device",
    "backend",
    "numpy",
    "scipy",
    "cupy",
    "python",
    "platform",
    "date",
    "blas_threads",
    "seeds",
    "wall_s",
    "command",
    "complete",
)


# ---------------------------------------------------------------------------------------------
# Experiments
# ---------------------------------------------------------------------------------------------


def _device_instance(d: int, p: int, kind: str, key: list[int], xp: Any) -> lm.FactualRecallProblem:
    """An instance drawn on the GPU in float32, keys first (so OP and DP share them)."""
    # The sweep's key spawns (instance, initialisation) streams; the instance one seeds CuPy.
    seed = int(np.random.SeedSequence(key).spawn(2)[0].generate_state(1)[0])
    rs = xp.random.RandomState(seed)
    keys = rs.standard_normal((p, d), dtype=xp.float32)
    shape = (p, d) if kind == "original" else (p, p, d)
    values = rs.standard_normal(shape, dtype=xp.float32)
    return lm.FactualRecallProblem(keys=keys, values=values, kind=kind)


def _instance(d: int, alpha: float, p: int, rep: int, kind: str, seed: int, xp: Any):
    """The instance of point (d, α, rep): the sweep's on NumPy, a device draw on CuPy."""
    if xp is np:
        return lm.sweep_instance(d, alpha, rep=rep, problem=kind, seed=seed)
    return _device_instance(d, p, kind, [seed, d, round(alpha * 1_000_000), rep, 1_000_000], xp)


def _check_every(xp: Any) -> int:
    """Host reads of ``train``: every step on NumPy (accuracy_sweep's run), every 16 on a GPU."""
    return 1 if xp is np else 16


def fr_sweep(kind: str, d: int, alphas: tuple[float, ...], reps: int, seed: int, xp: Any) -> dict:
    """One accuracy-against-load curve (Fig. 1), trained with ``xp`` arrays."""
    t0 = time.perf_counter()
    ps = [lm.p_at_load(a, d) for a in alphas]
    acc = np.empty((len(alphas), reps))
    steps = np.empty((len(alphas), reps), dtype=int)
    for i, (a, p) in enumerate(zip(alphas, ps, strict=True)):
        for r in range(reps):
            inst = _instance(d, float(a), p, r, kind, seed, xp)
            init = _seeds(seed, d, float(a), r, 1.0)[1]  # as accuracy_sweep initialises W
            res = lm.train(
                inst,
                rng=init,
                steps=STEPS,
                lr=LR,
                early_stop=EARLY_STOP,
                dtype=DTYPE,
                check_every=_check_every(xp),
            )
            acc[i, r], steps[i, r] = res.accuracy, res.steps
            del inst, res
    bad = np.flatnonzero(~np.all(acc == 1.0, axis=1))
    alpha_eff = [lm.load(p, d) for p in ps]
    return {
        "kind": kind,
        "d": d,
        "p": ps,
        "alpha_eff": alpha_eff,
        "accuracy": acc.tolist(),
        "accuracy_mean": acc.mean(axis=1).tolist(),
        "accuracy_sd": (acc.std(axis=1, ddof=1) if reps > 1 else np.zeros(len(alphas))).tolist(),
        "steps_mean": steps.mean(axis=1).tolist(),
        "first_violation": float(alpha_eff[bad[0]]) if bad.size else None,
        "wall_s": time.perf_counter() - t0,
    }


def factual_recall(size: str, seed: int, xp: Any, on_sweep=None) -> dict:
    """The Fig. 1 sweep at ``size``: every (kind, d) curve; ``on_sweep`` sees the partial result."""
    cfg = SIZES[size]
    out = {
        "protocol": FR_PROTOCOL,
        "alphas": list(cfg["alphas"]),
        "reps": cfg["reps"],
        "steps": STEPS,
        "lr": LR,
        "early_stop": EARLY_STOP,
        "dtype": DTYPE,
        # k > 1: the early stop is tested every k steps, so a run that reached 99.9 % stops at
        # most k - 1 Adam updates later (its accuracy is >= 0.999 either way).
        "check_every": _check_every(xp),
        "instances": (
            "linear_memory.sweep_instance (equal to accuracy_sweep's)"
            if xp is np
            else "drawn on the GPU (cupy RandomState, float32) from the sweep's (seed, d, alpha, "
            "rep) key; initialisation as accuracy_sweep"
        ),
        "sweeps": [],
    }
    for kind in KINDS:
        for d in cfg["dims"][kind]:
            out["sweeps"].append(fr_sweep(kind, d, cfg["alphas"], cfg["reps"], seed, xp))
            print(_fr_line(out["sweeps"][-1]), flush=True)
            if on_sweep is not None:
                on_sweep(out)
    return out


def attractor(size: str, seed: int) -> dict:
    """Empirical α_S at N (``size``) over ``trials`` seeds, with Eq. 19 alongside."""
    cfg = SIZES[size]
    t0 = time.perf_counter()
    seeds = [seed + k for k in range(cfg["trials"])]
    runs = [at.alpha_s_comparison([CASE], N=cfg["N"], patterns=PATTERNS, seed=s) for s in seeds]
    vals = np.array([float(r.alpha_s_emp[0]) for r in runs])
    se = float(vals.std(ddof=1) / math.sqrt(vals.size)) if vals.size > 1 else float("nan")
    return {
        "protocol": AT_PROTOCOL,
        "N": cfg["N"],
        "cv": CASE[0],
        "sigma": CASE[1],
        "n": CASE[2],
        "patterns": PATTERNS,
        "trials": len(seeds),
        "seeds": seeds,
        "alpha_s_trials": vals.tolist(),
        "status": [r.status[0] for r in runs],
        "alpha_s": float(vals.mean()),
        "alpha_s_se": se,
        "alpha_s_theory": float(runs[0].alpha_s_theory[0]),
        "wall_s": time.perf_counter() - t0,
    }


def _fr_line(s: dict) -> str:
    acc = " ".join(f"{a:.3f}" for a in s["accuracy_mean"])
    fv = "none" if s["first_violation"] is None else f"{s['first_violation']:.3f}"
    return f"{s['kind']} d = {s['d']}: accuracy {acc}; first violation {fv}; {s['wall_s']:.1f} s"


# ---------------------------------------------------------------------------------------------
# Provenance, writing and validation
# ---------------------------------------------------------------------------------------------


def _device(backend: str, xp: Any) -> str:
    if backend == "cupy":
        name = xp.cuda.runtime.getDeviceProperties(0)["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            model = next((ln.split(":", 1)[1].strip() for ln in fh if "model name" in ln), "")
    except OSError:
        pass
    return f"CPU: {model or platform.processor() or platform.machine()} ({os.cpu_count()} cores)"


def provenance(backend: str, xp: Any, seed: int, argv: list[str]) -> dict:
    """Device, versions, date, seeds and command of a run (wall times are added as it goes)."""
    threads = {v: os.environ.get(v) for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    return {
        "device": _device(backend, xp),
        "backend": backend,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "cupy": xp.__version__ if backend == "cupy" else None,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "blas_threads": threads,
        "seeds": {
            "base": seed,
            "factual_recall": "per point: SeedSequence((seed, d, round(alpha 1e6), rep, 1e6))",
            "attractor": "one alpha_s_comparison per seed: seed, seed + 1, ...",
        },
        "wall_s": {},
        "command": shlex.join(["python", *argv]),
        "complete": False,
    }


def _write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, allow_nan=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def _fail(field: str, why: str, value: Any) -> None:
    raise ValueError(f"paper-scale file: {field} {why}, got {value!r}")


def _need(obj: Any, field: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(obj, dict) or field.split(".")[-1] not in obj:
        _fail(field, "is missing", None if not isinstance(obj, dict) else sorted(obj))
    value = obj[field.split(".")[-1]]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        _fail(field, "must be " + " or ".join(k.__name__ for k in kinds), value)
    return value


def _check_fr(fr: dict) -> None:
    alphas = _need(fr, "factual_recall.alphas", list)
    reps = _need(fr, "factual_recall.reps", int)
    if not alphas or reps < 1:
        _fail("factual_recall.alphas/reps", "must be non-empty and >= 1", (alphas, reps))
    _need(fr, "factual_recall.protocol", str)
    for i, s in enumerate(_need(fr, "factual_recall.sweeps", list)):
        name = f"factual_recall.sweeps[{i}]"
        if _need(s, f"{name}.kind", str) not in KINDS:
            _fail(f"{name}.kind", f"must be one of {KINDS}", s["kind"])
        _need(s, f"{name}.d", int)
        acc = np.asarray(_need(s, f"{name}.accuracy", list), dtype=float)
        if acc.shape != (len(alphas), reps) or np.any((acc < 0) | (acc > 1)):
            _fail(f"{name}.accuracy", f"must be {len(alphas)} × {reps} values in [0, 1]", acc)
        for key in ("accuracy_mean", "accuracy_sd", "p", "alpha_eff", "steps_mean"):
            if len(_need(s, f"{name}.{key}", list)) != len(alphas):
                _fail(f"{name}.{key}", f"must have {len(alphas)} entries", s[key])
        if not np.allclose(s["accuracy_mean"], acc.mean(axis=1)):
            _fail(f"{name}.accuracy_mean", "must be the mean of accuracy", s["accuracy_mean"])


def _check_at(a: dict) -> None:
    trials = _need(a, "attractor.trials", int)
    vals = _need(a, "attractor.alpha_s_trials", list)
    if _need(a, "attractor.N", int) < 2 or trials < 1 or len(vals) != trials:
        _fail("attractor.N/trials/alpha_s_trials", "must agree", (a["N"], trials, vals))
    est = _need(a, "attractor.alpha_s", (int, float))
    mean = float(np.mean(vals))
    if not (math.isclose(est, mean, rel_tol=1e-12) or (math.isnan(est) and math.isnan(mean))):
        _fail("attractor.alpha_s", "must be the mean of alpha_s_trials", est)
    _need(a, "attractor.alpha_s_se", (int, float))
    _need(a, "attractor.protocol", str)


def validate(data: Any) -> dict:
    """Check the schema and provenance of a paper-scale result; return it unchanged.

    Raises
    ------
    ValueError
        Naming the first field that is missing or wrong, with its value.
    """
    if not isinstance(data, dict):
        _fail("top level", "must be a JSON object", type(data).__name__)
    if data.get("schema") != SCHEMA:
        _fail("schema", f"must be {SCHEMA}", data.get("schema"))
    if _need(data, "size", str) not in SIZES:
        _fail("size", f"must be one of {tuple(SIZES)}", data["size"])
    prov = _need(data, "provenance", dict)
    missing = [k for k in PROVENANCE_KEYS if k not in prov]
    if missing:
        _fail("provenance", f"lacks {missing}", sorted(prov))
    if prov["backend"] not in ("numpy", "cupy"):
        _fail("provenance.backend", "must be 'numpy' or 'cupy'", prov["backend"])
    if (prov["cupy"] is None) != (prov["backend"] == "numpy"):
        _fail("provenance.cupy", "must be a version exactly when backend is cupy", prov["cupy"])
    for key in ("device", "numpy", "scipy", "python", "platform", "command"):
        if not isinstance(prov[key], str) or not prov[key]:
            _fail(f"provenance.{key}", "must be a non-empty string", prov[key])
    try:
        dt.datetime.fromisoformat(prov["date"])
    except (TypeError, ValueError):
        _fail("provenance.date", "must be an ISO 8601 date", prov["date"])
    if not isinstance(prov["seeds"], dict) or not isinstance(prov["seeds"].get("base"), int):
        _fail("provenance.seeds", "must hold the integer base seed", prov["seeds"])
    wall = _need(prov, "provenance.wall_s", dict)
    for part, check in (("factual_recall", _check_fr), ("attractor", _check_at)):
        if part not in data:
            _fail(part, "is missing (null when not run)", None)
        if data[part] is None:
            if prov["complete"]:
                _fail(part, "is null in a complete run", None)
            continue
        check(data[part])
        w = wall.get(part)
        if not isinstance(w, int | float) or isinstance(w, bool) or not w >= 0:
            _fail(f"provenance.wall_s.{part}", "must be a number >= 0", w)
    return data


def load(path: str | Path) -> dict:
    """Read a paper-scale JSON file and :func:`validate` it."""
    with open(path, encoding="utf-8") as fh:
        return validate(json.load(fh))


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed must be an integer >= 0, got {text!r}")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("numpy", "cupy"), default="cupy")
    parser.add_argument("--size", choices=tuple(SIZES), default="paper")
    parser.add_argument("--seed", type=_seed, default=0, help="base seed, an integer >= 0")
    parser.add_argument("--out", type=Path, help=f"JSON file (default {DEFAULT_OUT} for paper)")
    parser.add_argument(
        "--only", choices=("factual_recall", "attractor"), help="run one experiment only"
    )
    args = parser.parse_args(argv)
    if args.out is None:
        if args.size != "paper":
            parser.error(
                f"--size {args.size} needs --out: the default {DEFAULT_OUT.relative_to(ROOT)} "
                "holds the paper-scale run only"
            )
        args.out = DEFAULT_OUT
    if args.out.exists() and args.out.is_dir():
        parser.error(f"--out must be a file path, got the directory {str(args.out)!r}")
    try:
        args.xp = get_namespace(args.backend)
    except RuntimeError as exc:
        parser.error(f"--backend {args.backend}: {exc}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raw = list(sys.argv if argv is None else ["benchmarks/paper_scale.py", *argv])
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "size": args.size,
        "provenance": provenance(args.backend, args.xp, args.seed, raw),
        "factual_recall": None,
        "attractor": None,
    }
    wall = data["provenance"]["wall_s"]
    print(f"paper_scale --size {args.size} on {data['provenance']['device']}", flush=True)
    lock = threading.Lock()

    def save() -> None:
        with lock:
            _write(args.out, data)

    def attractor_done(fut: Future) -> None:
        if fut.exception() is None:
            with lock:
                data["attractor"] = a = fut.result()
                wall["attractor"] = a["wall_s"]
            save()
            print(
                f"attractor N = {a['N']}: alpha_S = {a['alpha_s']:.4f} ± {a['alpha_s_se']:.4f} "
                f"({a['trials']} trials; Eq. 19: {a['alpha_s_theory']:.4f}); {a['wall_s']:.1f} s",
                flush=True,
            )

    # The attractor part is CPU work (NumPy) and the sweep GPU work: a spawned process runs the
    # first while this one trains, so the run takes the longer of the two, not their sum.
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending = None
        if args.only in (None, "attractor"):
            pending = pool.submit(attractor, args.size, args.seed)
            pending.add_done_callback(attractor_done)
        if args.only in (None, "factual_recall"):
            t0 = time.perf_counter()

            def partial(fr: dict) -> None:
                with lock:
                    data["factual_recall"], wall["factual_recall"] = fr, time.perf_counter() - t0
                save()

            # Paper size: DP instances of up to 1.2e9 numbers, above the library's default cap.
            with assocmem.limits(max_elements=2**31):
                partial(factual_recall(args.size, args.seed, args.xp, on_sweep=partial))
        if pending is not None:
            pending.result()  # re-raises an error of the attractor part
    data["provenance"]["complete"] = args.only is None
    _write(args.out, validate(data))
    print(f"wrote {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
