#!/usr/bin/env python3
"""Developer entry point for the assocmem book. Needs only ``python3`` (3.10 or newer).

Commands
--------
``python3 dev.py book``
    Create or reuse ``.venv``, then build the book (executing every notebook) into ``_build/html``.
``python3 dev.py test``
    Create or reuse ``.venv``, then: ruff, the book build, and one pytest run over ``tests/`` and
    the notebooks under ``book/`` (unit tests, nbval notebook execution, headless-browser test).
    The student edition is built after the book, and its test and the PDF's run with the rest.
``python3 dev.py book --student``
    The student edition (no exercise solutions) into ``_build/student/html``, from the executed
    notebooks of the last full build (a notebook edited since then executes again).
``python3 dev.py pdf``
    Print the built book (building it first if there is none) to one PDF,
    ``_build/pdf/assocmem-book.pdf``, through headless Chromium (``tests/book_pdf.py``).
``python3 dev.py lab``
    Open JupyterLab on ``book/`` inside ``.venv``.
``python3 dev.py lock``
    Regenerate ``requirements.txt`` from a fresh virtual environment (``pip freeze``).
``python3 dev.py gpu [--dry-run] [--out FILE]``
    With the current interpreter (no ``.venv``): the ``gpu``-marked tests, then
    ``benchmarks/gpu_check.py`` (NumPy against CuPy, one ratio table); needs NumPy, SciPy, pytest,
    hypothesis and CuPy only, and skips cleanly without CuPy or a GPU.

The environment ``.venv`` is reused while a stamp file inside it records the sha256 of
``requirements.txt`` and ``pyproject.toml``; otherwise it is (re)installed with
``pip install -r requirements.txt`` and ``pip install --no-deps -e .``.
Every subprocess runs with single-threaded BLAS (multithreaded BLAS on two cores is 20-200x slower).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".assocmem-install.sha256"
REQUIREMENTS = ROOT / "requirements.txt"
PYPROJECT = ROOT / "pyproject.toml"
BUILD_DIR = ROOT / "_build"
HTML_DIR = BUILD_DIR / "html"
# The student edition (``book --student``): no exercise solutions, built from the full build's
# executed notebooks (book/_ext/student_edition.py).
STUDENT_HTML_DIR = BUILD_DIR / "student" / "html"
EXECUTED_DIR = BUILD_DIR / "jupyter_execute"
PDF_PATH = BUILD_DIR / "pdf" / "assocmem-book.pdf"
LOG_DIR = BUILD_DIR / "logs"
CHROMIUM = Path("/usr/bin/chromium")
LINT_PATHS = ("src", "tests", "benchmarks", "dev.py", "book", "notebooks")
BOOK_JOBS = 2
TEST_WORKERS = "2"
NOTEBOOK_CELL_TIMEOUT_S = "120"
# Tools of the development environment that are not dependencies of the package or its extras.
LOCK_TOOLS = ("jupyterlab", "ruff", "nbstripout", "coverage")
LOCK_EXTRAS = "test,book"

ENV_OVERRIDES = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",  # silences debugpy's frozen-modules note in kernels
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "PYTHONUNBUFFERED": "1",
}


class Failure(Exception):
    """A phase failed; the message says which and how."""


# ---------------------------------------------------------------------------------------------
# Environment
# ---------------------------------------------------------------------------------------------


def venv_bin(name: str) -> Path:
    """Path of an executable inside ``.venv``."""
    sub = "Scripts" if os.name == "nt" else "bin"
    suffix = ".exe" if os.name == "nt" else ""
    return VENV / sub / f"{name}{suffix}"


def subprocess_env() -> dict[str, str]:
    """The environment of every subprocess: single-threaded BLAS, ``.venv`` first on PATH."""
    env = dict(os.environ)
    env.update(ENV_OVERRIDES)
    env["VIRTUAL_ENV"] = str(VENV)
    env["PATH"] = os.pathsep.join([str(venv_bin("python").parent), env.get("PATH", "")])
    env.pop("PYTHONHOME", None)
    return env


def run(
    cmd: Sequence[str | Path], *, check: bool = True, extra_env: dict[str, str] | None = None
) -> int:
    """Run a command from the repository root with :func:`subprocess_env`; echo it first."""
    args = [str(c) for c in cmd]
    print("+ " + " ".join(args), flush=True)
    env = {**subprocess_env(), **(extra_env or {})}
    proc = subprocess.run(args, cwd=ROOT, env=env, check=False)
    if check and proc.returncode != 0:
        raise Failure(f"command failed with exit code {proc.returncode}: {' '.join(args)}")
    return proc.returncode


def install_digest() -> str:
    """sha256 over requirements.txt and pyproject.toml: the key of the stamp file."""
    h = hashlib.sha256()
    for path in (REQUIREMENTS, PYPROJECT):
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def venv_works() -> bool:
    """Whether ``.venv`` has a Python that starts."""
    python = venv_bin("python")
    if not python.exists():
        return False
    proc = subprocess.run([str(python), "-c", "pass"], capture_output=True, check=False)
    return proc.returncode == 0


def ensure_venv() -> None:
    """Reuse ``.venv`` when its stamp matches; otherwise (re)create and install it."""
    digest = install_digest()
    if venv_works() and STAMP.exists() and STAMP.read_text().strip() == digest:
        print(f"reusing {VENV.name} (stamp {digest[:12]} matches)", flush=True)
        return
    if not venv_works():
        print(f"creating {VENV.name} with {sys.executable}", flush=True)
        run([sys.executable, "-m", "venv", "--clear", VENV])
    else:
        print(f"{VENV.name} is out of date with requirements.txt/pyproject.toml; reinstalling")
    STAMP.unlink(missing_ok=True)
    python = venv_bin("python")
    run([python, "-m", "pip", "install", "-r", REQUIREMENTS])
    run([python, "-m", "pip", "install", "--no-deps", "-e", ROOT])
    STAMP.write_text(digest + "\n")


# ---------------------------------------------------------------------------------------------
# Phases
# ---------------------------------------------------------------------------------------------


def build_book(toc: str | None = None, student: bool = False) -> None:
    """Build the HTML book (executing every notebook) into ``_build/html``; fail on any warning.

    ``student=True`` builds the student edition into ``_build/student/html`` instead: the same
    pages without exercise solutions, from the executed notebooks of the last full build.
    """
    cmd: list[str | Path] = [venv_bin("python"), Path(__file__).resolve(), "_sphinx"]
    if toc:
        cmd += ["--toc", toc]
    if student:
        cmd += ["--student"]
    run(cmd)


def student_overrides() -> dict[str, object]:
    """Sphinx settings of the student edition (run inside ``.venv``).

    sphinx-exercise's ``hide_solutions``; the ``student_edition`` extension (book/_ext), which
    also removes the cells of gated solutions and reads the full build's executed notebooks, so
    that ``nb_execution_mode = "off"`` (a notebook edited since that build still executes).
    """
    from jupyter_book.config import get_final_config

    config, _ = get_final_config(
        user_yaml=ROOT / "_config.yml",
        cli_config={"latex_individualpages": False},
        sourcedir=ROOT,
        use_external_toc=True,
    )
    return {
        "extensions": [*config["extensions"], "student_edition"],
        "hide_solutions": True,
        "nb_execution_mode": "off",
        "student_executed_dir": EXECUTED_DIR.as_posix(),
    }


def sphinx_build(toc: str | None, student: bool = False) -> int:
    """Run Jupyter Book's Sphinx build in this (virtual-environment) Python.

    This is ``jupyter-book build . --all -W -n --keep-going`` plus parallel reading: the
    ``jupyter-book`` command line has no ``-j`` option, but its ``build_sphinx`` accepts ``jobs``,
    so two notebooks execute at once on two cores.
    """
    from jupyter_book.sphinx import build_sphinx

    sys.path.insert(0, str(ROOT / "tests"))
    from kernel_transport import use_ipc_kernels

    use_ipc_kernels()  # two readers start kernels at once: no TCP port races between them
    toc_path = Path(toc).resolve() if toc else ROOT / "_toc.yml"
    out_dir = STUDENT_HTML_DIR if student else HTML_DIR
    if student:  # no page of an earlier student build survives a failed one
        shutil.rmtree(STUDENT_HTML_DIR.parent, ignore_errors=True)
    print(f"building {ROOT} with {toc_path.name} into {out_dir}", flush=True)
    result = build_sphinx(
        ROOT,
        out_dir,
        use_external_toc=True,
        noconfig=True,
        path_config=str(ROOT / "_config.yml"),
        confoverrides={
            "external_toc_path": toc_path.as_posix(),
            "latex_individualpages": False,
            "nitpicky": True,
            **(student_overrides() if student else {}),
        },
        builder="html",
        freshenv=True,
        warningiserror=True,
        keep_going=True,
        jobs=int(os.environ.get("ASSOCMEM_BOOK_JOBS", BOOK_JOBS)),
    )
    if result != 0:
        print(f"book build failed: {result!r}", file=sys.stderr, flush=True)
        return 1
    print(f"book built: {out_dir / 'index.html'}", flush=True)
    return 0


def start_chromium_install() -> subprocess.Popen | None:
    """Start installing Debian chromium in the background when it is missing and we are root."""
    if CHROMIUM.exists():
        return None
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("apt-get") is None:
        print(
            f"{CHROMIUM} is missing and cannot be installed here (not root or no apt-get); "
            "the browser test will skip (or fail when CI=true)",
            flush=True,
        )
        return None
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    log = (LOG_DIR / "apt-chromium.log").open("w")
    script = "apt-get update && apt-get install -y --no-install-recommends chromium"
    print(f"installing chromium in the background (log: {log.name})", flush=True)
    env = subprocess_env()
    env["DEBIAN_FRONTEND"] = "noninteractive"
    return subprocess.Popen(
        ["bash", "-c", script], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT
    )


def finish_chromium_install(proc: subprocess.Popen | None) -> None:
    """Wait for the background chromium install; fail if it failed."""
    if proc is None:
        return
    code = proc.wait()
    log = LOG_DIR / "apt-chromium.log"
    if code != 0 or not CHROMIUM.exists():
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-20:])
        raise Failure(f"installing chromium failed (exit {code}):\n{tail}")
    print(f"chromium installed: {CHROMIUM}", flush=True)


def lint() -> None:
    """ruff over the code, the tests, dev.py and the book (notebooks included)."""
    paths = [p for p in LINT_PATHS if (ROOT / p).exists()]
    run([venv_bin("ruff"), "check", *paths])


def pytest(extra: Sequence[str], *, skip_browser: bool, toc: str | None = None) -> None:
    """One pytest run: unit tests, nbval over book/**/*.ipynb, the browser test."""
    cmd: list[str | Path] = [
        venv_bin("python"),
        "-m",
        "pytest",
        "tests",
        "book",
        "--nbval-lax",
        "--nbval-current-env",
        f"--nbval-cell-timeout={NOTEBOOK_CELL_TIMEOUT_S}",
        "-n",
        TEST_WORKERS,
        "--dist",
        "loadfile",
        "--durations=15",
    ]
    if skip_browser:
        cmd += ["-m", "not browser"]
    # The book was built just before: the browser test takes it as it is.
    env = {"ASSOCMEM_BOOK_PREBUILT": "1"}
    if toc:
        env["ASSOCMEM_TOC"] = str(Path(toc).resolve())
    run([*cmd, *extra], extra_env=env)


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------


class Timer:
    """Record and print the wall time of each phase."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, str]] = []

    def phase(self, name: str, func, *args, **kwargs) -> bool:
        """Run one phase; return whether it passed (a :class:`Failure` is reported, not raised)."""
        print(f"\n=== {name} ===", flush=True)
        start = time.perf_counter()
        ok = True
        try:
            func(*args, **kwargs)
        except Failure as exc:
            ok = False
            print(f"FAILED: {exc}", file=sys.stderr, flush=True)
        elapsed = time.perf_counter() - start
        self.rows.append((name, elapsed, "ok" if ok else "FAILED"))
        print(f"=== {name}: {'ok' if ok else 'FAILED'} in {elapsed:.1f} s ===", flush=True)
        return ok

    def report(self) -> None:
        """Print the table of phases."""
        total = sum(row[1] for row in self.rows)
        print("\nphase timings", flush=True)
        for name, elapsed, status in self.rows:
            print(f"  {name:<28} {elapsed:8.1f} s  {status}")
        print(f"  {'total':<28} {total:8.1f} s", flush=True)


def cmd_book(args: argparse.Namespace) -> int:
    timer = Timer()
    ok = timer.phase("environment", ensure_venv)
    if args.student:
        ok = ok and timer.phase("student edition", build_book, args.toc, student=True)
    else:
        ok = ok and timer.phase("book build", build_book, args.toc)
    timer.report()
    return 0 if ok else 1


def cmd_test(args: argparse.Namespace) -> int:
    timer = Timer()
    chromium = start_chromium_install()
    results = {"environment": timer.phase("environment", ensure_venv)}
    if not results["environment"]:
        if chromium is not None:
            chromium.wait()
        timer.report()
        return 1
    results["lint"] = timer.phase("lint (ruff)", lint)
    results["book"] = timer.phase("book build", build_book, args.toc)
    if results["book"]:  # from the executed notebooks the full build just wrote
        results["student"] = timer.phase("student edition", build_book, args.toc, student=True)
    results["chromium"] = timer.phase("chromium", finish_chromium_install, chromium)
    # Without a fresh book the browser test would check stale pages: leave it out and fail.
    skip_browser = not results["book"]
    results["pytest"] = timer.phase(
        "pytest", pytest, args.pytest_args, skip_browser=skip_browser, toc=args.toc
    )
    timer.report()
    failed = [name for name, ok in results.items() if not ok]
    if failed:
        print(f"\nFAILED phases: {', '.join(failed)}", file=sys.stderr, flush=True)
        return 1
    print("\nall phases passed", flush=True)
    return 0


def print_pdf(toc: str | None = None) -> None:
    """Print the built book to ``_build/pdf/assocmem-book.pdf`` (``tests/book_pdf.py``)."""
    cmd: list[str | Path] = [venv_bin("python"), ROOT / "tests" / "book_pdf.py", "--out", PDF_PATH]
    if toc:
        cmd += ["--toc", Path(toc).resolve()]
    run(cmd)


def cmd_pdf(args: argparse.Namespace) -> int:
    timer = Timer()
    chromium = start_chromium_install()
    ok = timer.phase("environment", ensure_venv)
    if ok and not (HTML_DIR / "index.html").exists():
        ok = timer.phase("book build", build_book, args.toc)
    ok = timer.phase("chromium", finish_chromium_install, chromium) and ok
    ok = ok and timer.phase("pdf", print_pdf, args.toc)
    timer.report()
    return 0 if ok else 1


def cmd_lab(args: argparse.Namespace) -> int:
    ensure_venv()
    return run([venv_bin("jupyter"), "lab", "book/", *args.lab_args], check=False)


def cmd_lock(args: argparse.Namespace) -> int:
    """pip freeze of a fresh environment with the package's extras and the development tools."""
    header = (
        [line for line in REQUIREMENTS.read_text().splitlines() if line.startswith("#")]
        if REQUIREMENTS.exists()
        else []
    )
    with tempfile.TemporaryDirectory(prefix="assocmem-lock-") as tmp:
        env_dir = Path(tmp) / "venv"
        run([sys.executable, "-m", "venv", env_dir])
        python = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
        run([python, "-m", "pip", "install", f".[{LOCK_EXTRAS}]", *LOCK_TOOLS])
        frozen = subprocess.run(
            [str(python), "-m", "pip", "freeze", "--exclude-editable"],
            capture_output=True,
            text=True,
            check=True,
            env=subprocess_env(),
            cwd=ROOT,
        ).stdout.splitlines()
    pins = sorted(
        (line for line in frozen if line and not line.lower().startswith("assocmem")),
        key=str.lower,
    )
    REQUIREMENTS.write_text("\n".join([*header, *pins]) + "\n")
    print(f"wrote {len(pins)} pins to {REQUIREMENTS.name}", flush=True)
    return 0


def cmd_gpu(args: argparse.Namespace) -> int:
    """The gpu-marked tests, then ``benchmarks/gpu_check.py``, in the current interpreter.

    Not ``.venv``: a GPU machine may have CuPy, NumPy, SciPy, pytest and hypothesis but not the
    book's tools (``.venv`` needs the network to build). ``tests/conftest.py`` skips the test
    modules that need those tools; without CuPy or a GPU the tests skip and the check says so.
    """
    paths = [str(ROOT / "src"), str(ROOT / "benchmarks"), os.environ.get("PYTHONPATH", "")]
    extra_env = {"PYTHONPATH": os.pathsep.join(p for p in paths if p)}

    # Only the test files that can hold gpu tests (they name CuPy, the gpu mark or has_gpu):
    # collecting all of tests/ takes minutes, most of it in modules without a gpu test.
    pattern = re.compile(r"cupy|mark\.gpu|has_gpu", re.IGNORECASE)
    files = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").glob("test_*.py")
        if pattern.search(path.read_text(encoding="utf-8", errors="replace"))
    )
    # A module that fails to import (a missing test dependency) fails the phase but does not stop
    # the gpu tests of the other modules.
    tests = [sys.executable, "-m", "pytest", "-m", "gpu", *files, "-p", "no:cacheprovider"]
    tests.append("--continue-on-collection-errors")
    check = [sys.executable, str(ROOT / "benchmarks" / "gpu_check.py")]
    check += ["--dry-run"] if args.dry_run else []
    check += ["--out", str(args.out)] if args.out else []
    timer = Timer()
    ok_tests = timer.phase("gpu tests (pytest -m gpu)", run, tests, extra_env=extra_env)
    ok_check = timer.phase("gpu check (benchmarks/gpu_check.py)", run, check, extra_env=extra_env)
    timer.report()
    return 0 if ok_tests and ok_check else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 dev.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_book = sub.add_parser("book", help="build the book into _build/html")
    p_book.add_argument("--toc", help="another table of contents (default: _toc.yml)")
    p_book.add_argument(
        "--student",
        action="store_true",
        help="the student edition (no solutions) into _build/student/html, reusing the "
        "executed notebooks of the last full build",
    )
    p_test = sub.add_parser("test", help="lint, build the book, run every test")
    p_test.add_argument("--toc", help="another table of contents (default: _toc.yml)")
    p_test.add_argument("pytest_args", nargs="*", help="extra arguments for pytest (after --)")
    p_lab = sub.add_parser("lab", help="open JupyterLab on book/")
    p_lab.add_argument("lab_args", nargs="*", help="extra arguments for jupyter lab (after --)")
    sub.add_parser("lock", help="regenerate requirements.txt from a fresh environment")
    p_pdf = sub.add_parser("pdf", help="print the built book to _build/pdf/assocmem-book.pdf")
    p_pdf.add_argument("--toc", help="another table of contents (default: _toc.yml)")
    p_gpu = sub.add_parser("gpu", help="gpu-marked tests and the NumPy/CuPy ratio table")
    p_gpu.add_argument("--dry-run", action="store_true", help="NumPy on both sides, tiny sizes")
    p_gpu.add_argument("--out", help="JSON file of the table (default benchmarks/results/...)")
    p_sphinx = sub.add_parser("_sphinx", help=argparse.SUPPRESS)
    p_sphinx.add_argument("--toc")
    p_sphinx.add_argument("--student", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "_sphinx":
        return sphinx_build(args.toc, student=args.student)
    commands = {
        "book": cmd_book,
        "test": cmd_test,
        "lab": cmd_lab,
        "lock": cmd_lock,
        "pdf": cmd_pdf,
        "gpu": cmd_gpu,
    }
    try:
        return commands[args.command](args)
    except Failure as exc:
        print(f"FAILED: {exc}", file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
