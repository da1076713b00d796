"""Bad-input matrix over ``assocmem.explore.attention_index.descent`` (``tests/badinput.py``).

The views take α in (0, 10], ρ in [1e-3, 10], d from 2 to 200, K from 2 to 256 runs, the
learning rate in (0, 1]; the plot functions take their results. Each view baseline trains two
networks at d = 6 for three steps and runs GAMP-RIE once (tens of ms); the results for the
plot functions are built once, at import.
"""

from __future__ import annotations

from pathlib import Path

import badinput as bad
import numpy as np
from badinput import Baseline, matrix_tests

from assocmem.explore.attention_index import descent as plots

SMALL = {"d": 6, "rho": 0.5, "runs": 2, "steps": 3, "lr": 0.01, "rng": 0}
_INST = plots.gd_instances(0.2, instances=1, record_every=1, **SMALL)
_SWEEP = plots.gd_sweep([0.1, 0.2], **SMALL)
_VIEW = plots.sweep_view(_SWEEP, 0.2, 2)
_GPU_JSON = str(
    Path(__file__).parents[1] / "benchmarks" / "results" / "gpu_quadratic_scale_h200.json"
)
_GPU = plots.load_gpu_scale(_GPU_JSON)

ACCEPTS = {
    "rho": bad.SMALL_POSITIVE,
    "rng": bad.SEED,
}

BASELINES = [
    Baseline(
        plots.gd_instances,
        {"alpha": 0.2, "instances": 1, "record_every": 2, **SMALL},
        accepts={**ACCEPTS, "alpha": bad.SMALL_POSITIVE, "record_every": bad.NONE_OK},
    ),
    Baseline(
        plots.gd_sweep,
        {"alphas": np.array([0.1, 0.2]), **SMALL},
        accepts={**ACCEPTS, "alphas": bad.SMALL_POSITIVE},
    ),
    Baseline(
        plots.sweep_view,
        {"sweep": _SWEEP, "alpha": 0.2, "runs": 2},
        accepts={"alpha": bad.ANY_REAL},
    ),
    Baseline(plots.plot_training, {"instances": _INST, "height": 420}),
    Baseline(plots.plot_averaging, {"instances": _INST, "height": 420}),
    Baseline(plots.plot_sweep, {"view": _VIEW, "height": 440}),
    Baseline(plots.load_gpu_scale, {"path": _GPU_JSON}),
    Baseline(plots.plot_gpu_scale, {"scale": _GPU, "height": 400}),
]

MODULES = ["assocmem.explore.attention_index.descent"]

test_matrix, test_coverage, test_baseline = matrix_tests(BASELINES, MODULES)
