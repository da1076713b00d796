#!/usr/bin/env bash
# The attention-index chapter's GPU checks in one run (issue 12): CuPy-equals-NumPy tests, GAMP-RIE
# at d = 300 and gd_quadnet at d = 200, K = 64 (CuPy against one-thread NumPy), and averaged GD
# against GAMP-RIE as d grows. Run from the repository root on a machine with CuPy and a GPU.
set -u
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
export PYTHONPATH="src:benchmarks${PYTHONPATH:+:$PYTHONPATH}"
if ! python -c "import threadpoolctl" 2>/dev/null; then  # the env pins BLAS already
    shim=$(mktemp -d)
    printf 'import contextlib\n\n\n@contextlib.contextmanager\ndef threadpool_limits(*a, **k):\n    yield\n' >"$shim/threadpoolctl.py"
    export PYTHONPATH="$PYTHONPATH:$shim"
fi
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
echo "### tests (GPU only)"
timeout 90 python -m pytest -q -p no:cacheprovider --noconftest \
    tests/test_quadratic_sensing.py tests/test_quadratic_gamp.py tests/test_quadratic_descent.py \
    tests/test_quadratic_attention_gd.py -k "cupy or gpu or GPU" 2>&1 | tail -5
echo "### GAMP-RIE"
timeout 150 python benchmarks/bench_quadratic_gamp.py --d 300 --alpha 0.3 --xp cupy --iters 10 --repeats 2
echo "### gd_quadnet step"
timeout 90 python benchmarks/bench_quadratic_descent.py --repeats 2 --steps 3
timeout 60 python benchmarks/bench_quadratic_descent.py --xp cupy --repeats 2 --steps 3
echo "### averaged GD vs GAMP-RIE"
timeout 200 python benchmarks/gpu_quadratic_scale.py --dims 40 100 200 --steps 4000
