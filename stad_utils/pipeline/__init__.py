"""Running a params file: check it, then run the stage notebooks in order with papermill.

``python -m stad_utils.pipeline PARAMS.yaml`` (``stad-run``) is `main`; ``_params`` loads and
checks a params file before anything runs, ``_runner`` runs the notebooks in one kernel and
writes report.html, ``_manifest`` records how a run was made.
"""

from __future__ import annotations

from ._params import (
    NOTEBOOKS,
    RUNNER_PARAMETERS,
    STAGES,
    check_params,
    declared_parameters,
    load_params,
    notebook_parameters,
)
from ._runner import (
    StageFailed,
    forget_stage,
    kernel_for_this_python,
    main,
    preflight,
    run_pipeline,
    shared_kernel,
)

__all__ = [
    "NOTEBOOKS", "RUNNER_PARAMETERS", "STAGES", "StageFailed", "check_params", "declared_parameters",
    "forget_stage", "kernel_for_this_python", "load_params", "main", "notebook_parameters", "preflight",
    "run_pipeline", "shared_kernel",
]
