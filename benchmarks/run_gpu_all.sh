#!/usr/bin/env bash
# Issue 14's GPU measurements in one run, at most 9 minutes (the two timeouts) on one H100:
#   1. python dev.py gpu: the gpu-marked tests, then benchmarks/gpu_check.py (NumPy on one BLAS
#      thread against CuPy: training steps, energetic_G_mc, brute-force minima, attractor
#      eigvals/simulate, GAMP-RIE, Potts epoch), one ratio table;          (<= 280 s)
#   2. benchmarks/paper_scale.py --size paper --backend cupy: the Fig. 1 OP/DP sweep at d = 150
#      (25 loads x 5 repetitions) on the GPU while the empirical alpha_S at N = 4000 (6 trials)
#      runs on the host cores.                                             (<= 250 s)
# Needs only Python with NumPy, SciPy, pytest, hypothesis and CuPy. Run from anywhere; results
# go to $OUT when it is set (the device runner's output folder), else to benchmarks/results/ and
# book/_data/paper_scale.json. Every step writes its file as it goes, so a step cut short by its
# timeout keeps what it finished.
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python || command -v python3)}
export PYTHONPATH="src:benchmarks${PYTHONPATH:+:$PYTHONPATH}"
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    check_out=(--out "$OUT/gpu_check.json")
    paper_out=(--out "$OUT/paper_scale.json")
    log_dir=$OUT
else
    check_out=()
    paper_out=()
    log_dir=benchmarks/results
    mkdir -p "$log_dir"
fi
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || echo "nvidia-smi: not available"
"$PY" -c "import numpy, scipy; print('numpy', numpy.__version__, 'scipy', scipy.__version__)"
"$PY" -c "import cupy; print('cupy', cupy.__version__)" || echo "CuPy missing: both steps skip"
start=$SECONDS

echo "### 1. python dev.py gpu"
timeout 280 "$PY" dev.py gpu "${check_out[@]}" 2>&1 | tee "$log_dir/dev_gpu.log"
echo "### step 1 took $((SECONDS - start)) s"

echo "### 2. paper scale"
if "$PY" -c "from assocmem.backend import has_gpu; raise SystemExit(not has_gpu())"; then
    threads=$(( $(nproc) > 2 ? $(nproc) - 2 : 1 ))  # two cores left to drive the GPU
    OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads MKL_NUM_THREADS=$threads \
        timeout 250 "$PY" benchmarks/paper_scale.py --size paper --backend cupy "${paper_out[@]}" \
        2>&1 | tee "$log_dir/paper_scale.log"
else
    echo "no GPU: paper_scale.py --size paper skipped"
fi
echo "### total $((SECONDS - start)) s"
