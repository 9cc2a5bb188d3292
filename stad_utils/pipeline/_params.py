"""Parameter files: loading, resolving relative paths, and checking them before anything runs.

A params file names the run and gives each stage's notebook parameters::

    run: quickstart
    results_dir: ../results          # relative paths resolve against this file's folder
    stages:
      01_tasks: {source: gsm8k, data_path: ../../shared/data}
      05_evaluate: {targets: [{kind: embedded, model: smollm2-135m-instruct}]}

Where a relative path points never depends on the working directory of the command: a path written
in the file resolves against the file's folder (``results_dir``, ``cache``, ``data_path``, …; without
``results_dir``, runs go to ``results/`` in that folder), and a path typed on the command line
(``--results-dir``, ``--set``) against the folder it is typed in, as any shell command's argument.

`check_params` validates a file without running anything: the stages, each stage's
parameters (names and basic types, as the notebook declares them), every endpoint block
(`EndpointConfig`, which rejects unknown keys such as ``max_token``), the teacher blocks,
and that the paths exist. ``python -m stad_utils.pipeline FILE --check`` prints its findings.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

STAGES = ("01_tasks", "02_decompose", "03_scaffold", "04_skills", "05_evaluate", "06_analyze", "07_compare")
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
"""The stage notebooks, shipped inside the package (found from any working directory)."""
PATH_KEYS = {"data_path", "skill_map_edits", "official_repo", "other_runs"}
"""Parameters (at any depth of a stage block) that hold file or folder paths."""
OUTPUT_PATH_KEYS = {"export_official"}
"""Parameters that name folders a stage writes: resolved like `PATH_KEYS`, and need not exist yet."""
RUNNER_PARAMETERS = {"run_dir", "cache_path", "interactive"}
"""Parameters the runner sets itself for every stage that declares them (``interactive`` is False unless
the params file says otherwise: a widget shown in a batch run has no frontend to draw it, and
report.html has its own browser)."""
SETTINGS = {"run", "results_dir", "cache", "stages", "anchors", "limit"}
"""The top-level keys of a params file; ``anchors`` holds blocks the stages refer to (``teacher: &teacher …``);
``limit`` caps what one invocation may spend (``{calls: N, tokens: N, usd: X}``, `stad_utils.models.RunLimit`)."""


DEFAULT_RESULTS_DIR = "results"
"""Where runs go when a params file names no ``results_dir``: ``results/`` in the file's own folder, as if the
file said ``results_dir: results``. Like every path of the file it never depends on the working directory."""


def load_params(path: Path | str) -> dict:
    """Read a params file and resolve its relative paths against the file's folder.

    A file that names no ``results_dir`` gets `DEFAULT_RESULTS_DIR`.
    """
    path = Path(path)
    with open(path, encoding="utf-8") as handle:
        params = yaml.safe_load(handle) or {}
    if not isinstance(params, dict):
        raise ValueError(f"{path}: expected a mapping with 'run' and 'stages', got {type(params).__name__}")
    if "run" not in params:
        raise ValueError(f"{path}: missing field 'run' (the name of the results folder)")
    unknown = set(params.get("stages") or {}) - set(STAGES)
    if unknown:
        raise ValueError(f"{path}: unknown stage(s) {sorted(unknown)}; stages are {list(STAGES)}")
    return resolve_paths({"results_dir": DEFAULT_RESULTS_DIR, **params}, path.resolve().parent)


def resolve_paths(params: dict, base: Path) -> dict:
    """``params`` with every relative path (`PATH_KEYS`, ``results_dir``, ``cache``) made absolute from ``base``.

    Empty strings mean "none" (e.g. ``data_path: ""`` loads from the hub) and stay empty;
    ``${VARIABLE}`` is expanded from the environment.

    >>> resolve_paths({"results_dir": "../results", "stages": {"01_tasks": {"data_path": "data"}}}, Path("/p/params"))
    {'results_dir': '/p/results', 'stages': {'01_tasks': {'data_path': '/p/params/data'}}}
    """
    def absolute(value):
        if isinstance(value, list):
            return [absolute(item) for item in value]
        if not isinstance(value, str) or not value:
            return value
        value = os.path.expandvars(value)  # ${STAD_OFFICIAL_REPO}; left as written when unset
        if "$" in value:
            return value
        return str(Path(os.path.normpath(base / Path(value).expanduser())))

    def walk(node):
        if isinstance(node, dict):
            return {key: absolute(value) if key in PATH_KEYS | OUTPUT_PATH_KEYS else walk(value)
                    for key, value in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    resolved = {**params, "stages": walk(params.get("stages") or {})}
    for key in ("results_dir", "cache"):
        if key in params:
            resolved[key] = absolute(params[key])
    if "stages" not in params:
        del resolved["stages"]
    return resolved


def declared_parameters(stage: str, notebooks_dir: Path | str = NOTEBOOKS) -> dict[str, dict]:
    """The parameters a stage's notebook declares (name → papermill's description with type and help)."""
    import papermill as pm

    return pm.inspect_notebook(str(Path(notebooks_dir) / f"{stage}.ipynb"))


def notebook_parameters(stage: str, given: dict, notebooks_dir: Path | str = NOTEBOOKS) -> dict:
    """The parameters to inject: the ones the notebook declares; an unknown name is an error (a typo)."""
    declared = declared_parameters(stage, notebooks_dir)
    unknown = set(given) - set(declared) - RUNNER_PARAMETERS
    if unknown:
        raise ValueError(f"stage {stage} has no parameter(s) {sorted(unknown)}; it takes {sorted(declared)}")
    return {name: value for name, value in given.items() if name in declared}


@dataclass
class CheckReport:
    """What `check_params` found: errors stop a run; warnings (an unset environment variable) do not."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the check found no error."""
        return not self.errors

    def __str__(self) -> str:
        lines = [f"error: {e}" for e in self.errors] + [f"warning: {w}" for w in self.warnings]
        return "\n".join(lines) or "ok"


_PYTHON_TYPES: dict[str, type | tuple[type, ...]] = {"str": str, "int": int, "float": (int, float), "bool": bool,
                                                     "list": list, "dict": dict}


def check_params(path: Path | str, notebooks_dir: Path | str = NOTEBOOKS) -> CheckReport:
    """Validate a params file without running anything (see the module docstring)."""
    try:
        params = load_params(path)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        return CheckReport(errors=[str(exc)])
    return check_loaded_params(params, path, notebooks_dir)


def check_loaded_params(params: dict, path: Path | str, notebooks_dir: Path | str = NOTEBOOKS,
                        stages: Iterable[str] | None = None) -> CheckReport:
    """Validate loaded params (of the file ``path``, overrides applied), only ``stages`` if given.

    The runner calls this before any stage, so a run fails on what ``--check`` reports, naming the key.
    """
    from ..models import check_limit

    report = CheckReport()
    for key in sorted(set(params) - SETTINGS):
        report.errors.append(f"{path}: unknown top-level key '{key}'; the keys are {sorted(SETTINGS)} "
                             "(put blocks that stages refer to under 'anchors')")
    if params.get("limit") is not None:
        report.errors += [f"{path}: {problem}" for problem in check_limit(params["limit"])]
    for stage, values in (params.get("stages") or {}).items():
        if stages is not None and stage not in stages:
            continue
        if not isinstance(values, dict):
            report.errors.append(f"{path}: stages.{stage} must be a mapping of parameters")
            continue
        _check_stage(stage, values, report, notebooks_dir)
    return report


def _check_stage(stage: str, values: dict, report: CheckReport, notebooks_dir: Path | str) -> None:
    declared = declared_parameters(stage, notebooks_dir)
    for name, value in values.items():
        where = f"stages.{stage}.{name}"
        if name not in declared:
            report.errors.append(f"{where}: {stage} has no such parameter; it takes {sorted(declared)}")
            continue
        expected = _PYTHON_TYPES.get(declared[name]["inferred_type_name"])
        wrong_kind = isinstance(value, bool) and expected in (int, (int, float))  # YAML's true is not a number
        if expected and value is not None and (wrong_kind or not isinstance(value, expected)):
            report.errors.append(f"{where}: expected {declared[name]['inferred_type_name']}, got {value!r}")
    for where, block in endpoint_blocks(stage, values):
        _check_endpoint(where, block, report)
    for where, teacher in _teacher_blocks(stage, values):
        _check_teacher(where, teacher, report)
    judge = values.get("judge")
    if isinstance(judge, dict) and "endpoint" in judge:
        from ..method import check_judge_options

        try:
            check_judge_options(judge)
        except ValueError as exc:
            report.errors.append(f"stages.{stage}.judge: {exc}")
    for where, value in _paths(values, f"stages.{stage}"):
        if "$" in value:
            report.warnings.append(f"{where}: {value} names an environment variable that is not set (needed to run)")
        elif not Path(value).exists():
            report.errors.append(f"{where}: {value} does not exist")


def endpoint_blocks(stage: str, values: dict) -> Iterator[tuple[str, Any]]:
    """Every endpoint block of a stage's parameters, with where it is (``stages.<stage>.targets[i]``, ``.judge``…)."""
    prefix = f"stages.{stage}"
    for index, target in enumerate(values.get("targets") or []):
        yield f"{prefix}.targets[{index}]", target
    for role in ("judge", "namer"):
        block = values.get(role)
        if isinstance(block, dict) and "endpoint" in block:  # a judge with options: {endpoint, prompts, …}
            yield f"{prefix}.{role}.endpoint", block["endpoint"]
        elif block:
            yield f"{prefix}.{role}", block
    teacher = values.get("teacher")
    if isinstance(teacher, dict) and "endpoint" in teacher:
        yield f"{prefix}.teacher.endpoint", teacher["endpoint"]


def _teacher_blocks(stage: str, values: dict) -> Iterator[tuple[str, Any]]:
    if "teacher" in values:
        yield f"stages.{stage}.teacher", values["teacher"]


def _check_endpoint(where: str, block: Any, report: CheckReport) -> None:
    from ..models import EndpointConfig, endpoint_kind

    try:
        config = EndpointConfig.model_validate(block)
    except ValidationError as exc:
        for problem in exc.errors():
            field_name = ".".join(str(part) for part in problem["loc"])
            report.errors.append(f"{where}.{field_name}: {problem['msg']}")
        return
    for variable in (config.base_url_env, config.api_key_env):
        if variable and not os.environ.get(variable):
            report.warnings.append(f"{where}: environment variable {variable} is not set (needed to run)")
    report.errors.extend(f"{where}: {problem}" for problem in endpoint_kind(config.kind).check(config))


def _check_teacher(where: str, teacher: Any, report: CheckReport) -> None:
    from ..method import LLMTeacher

    if teacher in ("oracle", "gsm8k_solution"):
        return
    if not isinstance(teacher, dict) or "endpoint" not in teacher:
        report.errors.append(f"{where}: use 'oracle', 'gsm8k_solution' or {{endpoint: {{...}}, options…}}")
        return
    accepted = set(inspect.signature(LLMTeacher).parameters) - {"client"}
    unknown = set(teacher) - accepted - {"endpoint"}
    if unknown:
        report.errors.append(f"{where}: unknown teacher option(s) {sorted(unknown)}; options are {sorted(accepted)}")


def _paths(node: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in PATH_KEYS:
                for index, item in enumerate(value if isinstance(value, list) else [value]):
                    if isinstance(item, str) and item:
                        yield f"{where}.{key}" + (f"[{index}]" if isinstance(value, list) else ""), item
            else:
                yield from _paths(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _paths(item, f"{where}[{index}]")
