"""Running a params file: check it, then run the stage notebooks in order with papermill.

``python -m stad_utils.pipeline PARAMS.yaml`` (``stad-run``) is `main`; ``_params`` loads and
checks a params file before anything runs, ``_plan`` says what a run will call before its first
call, ``_runner`` runs the notebooks in one kernel (within the run's limit) and writes
report.html, ``_manifest`` records how a run was made.
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
from ._plan import Plan, PlanRow, estimated_tokens, plan_run
from ._runner import (
    LimitReached,
    StageFailed,
    forget_stage,
    kernel_for_this_python,
    main,
    parse_limit,
    plan_for,
    preflight,
    run_pipeline,
    shared_kernel,
)

__all__ = [
    "LimitReached", "Plan", "PlanRow", "estimated_tokens", "parse_limit", "plan_for", "plan_run",
    "NOTEBOOKS", "RUNNER_PARAMETERS", "STAGES", "StageFailed", "check_params", "declared_parameters",
    "forget_stage", "kernel_for_this_python", "load_params", "main", "notebook_parameters", "preflight",
    "run_pipeline", "shared_kernel",
]
