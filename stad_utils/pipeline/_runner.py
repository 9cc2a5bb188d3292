"""Run the stage notebooks in order with papermill, from one YAML parameter file.

    python -m stad_utils.pipeline params/quickstart.yaml                # the whole chain
    python -m stad_utils.pipeline params/quickstart.yaml --stage 05_evaluate   # one stage again
    python -m stad_utils.pipeline params/quickstart.yaml --from 04_skills      # from a stage on
    python -m stad_utils.pipeline params/quickstart.yaml --check        # validate and plan, run nothing
    python -m stad_utils.pipeline params/quickstart.yaml --plan         # what it will call, per stage and model
    python -m stad_utils.pipeline params/quickstart.yaml --limit calls=100   # stop after 100 calls; re-run to go on

The params file format is described in `stad_utils.pipeline._params`. Every stage reads and writes
``results/<run>/`` (see `RunPaths`); the executed notebooks land in
``results/<run>/notebooks/`` and ``manifest.json`` records how the run was made. Stages
resume: what a stage already wrote is kept and not recomputed, and model calls are answered
from the response cache. Before any stage runs, every remote endpoint the chosen stages use is
asked for its models, so a server that is down fails the run at once, naming its URL.

While a stage runs, the progress lines its kernel writes (``logs/progress.log``: questions done,
errored and answered per second per target in 05_evaluate) are printed to the console. A stage
that fails stops the chain with a non-zero exit naming the stage and why: among others an
embedded server that died twice (`stad_utils.models.embedded.EmbeddedServerDied`, with the end of its
log), or a target that errored on more than ``max_error_share`` of its questions
(`stad_utils.models.ErrorBudgetExceeded`). A finished run names its ``report.html``.

``--check`` and ``--plan`` print, per stage and model, the calls the run would make, the cache
hits, and the prompt and answer tokens (and dollars, with prices), without calling anything
(`stad_utils.pipeline._plan`). A ``limit`` (``--limit`` or the params file's ``limit:`` block)
stops the run cleanly once this invocation has spent it (`LimitReached`, exit status 3); running
the same command again goes on where it stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import yaml

from ..models import LIMIT_KINDS, LIMIT_VARIABLE, EndpointUnavailable, MissingExtra, follow
from ..records import (
    DiskFull,
    RunLocked,
    RunPaths,
    configured_secrets,
    exclusive_run,
    is_disk_full,
    mask_secrets,
    read_json_or_rebuild,
    remove_partial_files,
    write_atomic,
    write_json_atomic,
)
from ..report import write_html_report
from ._manifest import stage_finished, start_manifest
from ._params import (
    NOTEBOOKS,
    STAGES,
    check_loaded_params,
    check_params,
    endpoint_blocks,
    load_params,
    notebook_parameters,
    resolve_paths,
)
from ._plan import Plan, plan_run


class StageFailed(RuntimeError):
    """A stage's notebook raised: names the stage, the cell, the error and the executed notebook."""


class LimitReached(StageFailed):
    """A stage stopped at the run's limit: what it computed is kept, and running again goes on."""


def kernel_for_this_python(name: str = "stad-python") -> str:
    """A Jupyter kernel that runs this very interpreter, so notebooks see this environment's packages.

    Checked at every run: a spec whose Python no longer exists or is another one (the checkout or the
    venv moved) is written again. Its log level is ERROR: a local batch run needs no warning about
    unencrypted loopback sockets.
    """
    from ipykernel.kernelspec import write_kernel_spec
    from jupyter_client.kernelspec import KernelSpecManager

    if not _runs_this_python(Path(sys.prefix) / "share" / "jupyter" / "kernels" / name / "kernel.json"):
        spec_dir = write_kernel_spec(overrides={"display_name": f"Python ({name})"},
                                     extra_arguments=["--log-level=ERROR"])
        KernelSpecManager().install_kernel_spec(spec_dir, name, prefix=sys.prefix)
        shutil.rmtree(spec_dir, ignore_errors=True)
    return name


def _runs_this_python(spec_file: Path) -> bool:
    try:
        argv = json.loads(spec_file.read_text())["argv"]
    except (OSError, ValueError, KeyError, TypeError):  # missing, unreadable or not a kernel spec
        return False
    return bool(argv) and argv[0] == sys.executable and Path(argv[0]).exists()


def run_pipeline(
    params_path: Path | str,
    *,
    stages: list[str] | None = None,
    results_dir: Path | str | None = None,
    fresh: bool = False,
    overrides: dict[str, dict] | None = None,
    notebooks_dir: Path | str = NOTEBOOKS,
    limit: dict | None = None,
) -> Path:
    """Execute the chosen stages (default: all) and return the run folder.

    ``overrides`` replace stage parameters of the file, e.g. ``{"01_tasks": {"n_tasks": 5}}``.
    ``limit`` replaces the params file's ``limit`` block (``{"calls": 100}``): the stage that reaches it raises
    `LimitReached`. Raises `StageFailed` naming the stage, the cell and the executed notebook to open,
    `RunLocked` when another invocation is writing the same run folder, and `DiskFull` when the disk is full.
    """
    params, results, run_dir = _run_of(params_path, results_dir, overrides, limit)
    with exclusive_run(run_dir):
        if fresh:
            _empty_run_folder(run_dir)
        return _run_locked(params, params_path, run_dir, results, stages or list(STAGES), Path(notebooks_dir))


def _run_of(params_path: Path | str, results_dir: Path | str | None, overrides: dict[str, dict] | None,
            limit: dict | None) -> tuple[dict, Path, Path]:
    """The params with the overrides and the limit given, the results folder and the run folder."""
    params = load_params(params_path)
    overrides = resolve_paths({"stages": overrides or {}}, Path.cwd())["stages"]  # typed relative to here
    for stage, values in overrides.items():
        if stage not in STAGES:
            raise ValueError(f"unknown stage {stage!r} in overrides; stages are {list(STAGES)}")
        params.setdefault("stages", {}).setdefault(stage, {}).update(values)
    if limit:
        params["limit"] = {**(params.get("limit") or {}), **limit}
    results = Path(results_dir or params["results_dir"]).resolve()
    return params, results, results / params["run"]


def plan_for(params_path: Path | str, *, stages: list[str] | None = None, results_dir: Path | str | None = None,
             fresh: bool = False, overrides: dict[str, dict] | None = None, limit: dict | None = None,
             cache_mode: str = "use") -> Plan:
    """What `run_pipeline` with these arguments would call, per stage and model (`plan_run`); calls nothing."""
    params, results, run_dir = _run_of(params_path, results_dir, overrides, limit)
    return plan_run(params, stages=stages or list(STAGES), run_dir=run_dir, fresh=fresh, cache_mode=cache_mode,
                    cache_path=Path(params.get("cache", results / "cache.sqlite")).resolve())


@contextmanager
def _limit_for_the_kernel(params: dict):
    """``STAD_LIMIT`` set to the run's limit and 06_analyze's prices while the block runs (the kernel inherits it)."""
    limit = {kind: value for kind, value in (params.get("limit") or {}).items() if kind in LIMIT_KINDS}
    before = os.environ.pop(LIMIT_VARIABLE, None)
    if limit:
        prices = ((params.get("stages") or {}).get("06_analyze") or {}).get("prices") or {}
        os.environ[LIMIT_VARIABLE] = json.dumps({**limit, "prices": prices})
    try:
        yield
    finally:
        os.environ.pop(LIMIT_VARIABLE, None)
        if before is not None:
            os.environ[LIMIT_VARIABLE] = before


def _empty_run_folder(run_dir: Path) -> None:
    """Delete what a run folder holds, but not its lock (a new one would let a second writer in)."""
    for entry in run_dir.iterdir():
        if entry.name != ".lock":
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()


def _run_locked(params: dict, params_path: Path | str, run_dir: Path, results: Path, chosen: list[str],
                notebooks_dir: Path) -> Path:
    import papermill as pm

    paths = RunPaths(run_dir)
    paths.notebooks.mkdir(parents=True, exist_ok=True)
    remove_partial_files(run_dir)  # left by an invocation killed while writing; none is running now (the lock)
    cache_path = Path(params.get("cache", results / "cache.sqlite")).resolve()
    stage_params = {stage: notebook_parameters(stage, {"interactive": False,  # unless the params file says otherwise
                                                       **(params.get("stages", {}).get(stage) or {}),
                                                       "run_dir": str(run_dir), "cache_path": str(cache_path)},
                                               notebooks_dir)
                    for stage in chosen}  # a misspelt parameter stops the run before anything is computed
    report = check_loaded_params(params, params_path, notebooks_dir, stages=chosen)
    if not report.ok:  # types and ranges, named by key, before anything is computed
        raise ValueError("\n".join(report.errors))
    write_atomic(run_dir / "params.yaml", yaml.safe_dump(params, sort_keys=False))
    endpoints = preflight({stage: params.get("stages", {}).get(stage) or {} for stage in chosen})
    start_manifest(paths.manifest, params, endpoints, chosen)
    timings = read_json_or_rebuild(run_dir / "timings.json", dict)
    secrets = configured_secrets(params)
    # The kernel works in the run folder: every path it is given is absolute, and nothing a stage might write
    # relative to its working directory can land among the installed notebooks.
    with _limit_for_the_kernel(params), shared_kernel(run_dir) as kernel:
        for number, stage in enumerate(chosen, start=1):
            notebook = Path(notebooks_dir) / f"{stage}.ipynb"
            output = paths.notebooks / f"{stage}.ipynb"
            print(f"[{number}/{len(chosen)}] {stage} …", flush=True)
            started = time.perf_counter()
            try:
                with follow(paths.progress):  # what the stage's kernel reports while it runs (`ProgressLog`)
                    execute_notebook(notebook, output, stage_params[stage], cwd=run_dir, kernel=kernel,
                                     secrets=secrets)
            except pm.PapermillExecutionError as exc:
                if "no space left" in exc.evalue.lower():  # the stage's own writes (records, figures) hit a full disk
                    raise DiskFull(stage, "running stage") from None
                if exc.ename == "RunLimitReached":
                    write_json_atomic(run_dir / "timings.json", timings)
                    raise LimitReached(f"stage {stage} stopped: {exc.evalue}") from None
                headline, _, details = exc.evalue.partition("\n")
                raise StageFailed(mask_secrets(
                    f"stage {stage} failed in cell {exc.exec_count} ({exc.ename}: {headline})\n"
                    + (f"{details}\n" if details else "") + f"Open {output} to see the cell and its traceback.",
                    secrets)) from None
            forget_stage(kernel)
            stage_finished(paths.manifest, stage, last=number == len(chosen))
            timings[stage] = round(time.perf_counter() - started, 1)
            print(f"      done in {timings[stage]} s", flush=True)
            write_json_atomic(run_dir / "timings.json", timings)
    write_html_report(paths, other_runs=tuple(params.get("stages", {}).get("07_compare", {}).get("other_runs") or ()))
    return run_dir


def execute_notebook(notebook: Path, output: Path, parameters: dict, *, cwd: Path, kernel,
                     secrets: list[str]) -> None:
    """Execute a stage notebook with papermill into ``output``, which is always a whole notebook.

    ``kernel`` is the run's `shared_kernel`. Papermill writes the notebook as it runs; it writes a
    temporary file here, renamed when the execution ends (a failed cell included, so its traceback can
    be read), with every secret masked.
    """
    import papermill as pm

    failure: pm.PapermillExecutionError | None = None

    def execute(temporary: Path) -> None:
        nonlocal failure
        try:
            pm.execute_notebook(notebook, temporary, parameters=parameters, cwd=str(cwd), progress_bar=False,
                                kernel_name=kernel.kernel_name, km=kernel)
        except pm.PapermillExecutionError as exc:  # the notebook, with the failed cell, is written
            failure = exc
        text = temporary.read_text(encoding="utf-8")
        masked = mask_secrets(text, secrets)
        if masked != text:
            temporary.write_text(masked, encoding="utf-8")

    write_atomic(output, execute)
    if failure is not None:
        raise failure


@contextmanager
def shared_kernel(cwd: Path | str):
    """One kernel for all the stages of a run, shut down at the end.

    A kernel per stage would pay its start-up and re-imports (pandas, scipy, `stad_utils`) for
    stages that work for a few milliseconds on a small run (``benchmarks/chain_overhead.py``
    measures what the machinery costs); `forget_stage` empties the namespace
    between stages, so a stage sees only its own variables, as in a fresh kernel.
    """
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync

    kernel = AsyncKernelManager(kernel_name=kernel_for_this_python())
    run_sync(kernel.start_kernel)(cwd=str(cwd))
    try:
        yield kernel
    finally:
        run_sync(kernel.shutdown_kernel)(now=True)


def forget_stage(kernel) -> None:
    """Clear what the last stage left in the shared kernel: its variables and its open figures."""
    client = kernel.blocking_client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        client.execute_interactive("get_ipython().run_line_magic('reset', '-f')\n"
                                   "import sys\n"
                                   "if 'matplotlib.pyplot' in sys.modules: "
                                   "sys.modules['matplotlib.pyplot'].close('all')",
                                   store_history=False, timeout=60)
    finally:
        client.stop_channels()


def preflight(stage_params: dict[str, dict]) -> dict[str, list[dict]]:
    """What each endpoint of these stages serves, for the manifest, as its kind tells (`EndpointKind.preflight`).

    A remote endpoint is asked for its models, and one short question, to say whether its replies
    carry a reasoning trace and where (`ModelClient.probe_trace`); a line on the console names each
    endpoint that thinks aloud.

    Raises `EndpointUnavailable` naming the first endpoint that does not answer. The embedded
    model and simulated targets need no server yet (their servers start with their stage); a
    simulated target's entry holds its planted setting in words (`Simulation.planted`).
    """
    from ..models import endpoint_config, endpoint_kind

    served: dict[str, list[dict]] = {}
    for stage, values in stage_params.items():
        for where, block in endpoint_blocks(stage, values):
            config = endpoint_config(block, where)
            served[where] = endpoint_kind(config.kind).preflight(config, where)
            _say_where_the_trace_is(where, served[where][0])
    return served


def _say_where_the_trace_is(where: str, probed: dict) -> None:
    """One console line per endpoint whose replies carry a reasoning trace (or whose probe failed); none for
    an endpoint that was not probed.
    """
    if probed.get("trace_probe_error"):
        print(f"{where}: could not ask whether replies carry a reasoning trace ({probed['trace_probe_error']})",
              flush=True)
    elif probed.get("trace"):
        print(f"{where}: replies carry a reasoning trace ({probed['trace']}); judges and teachers read the answer "
              "without it" + (" — the short probe ran out of tokens while reasoning: give the endpoint "
                              "reasoning.trace_tokens" if probed.get("trace_cut_off") else ""), flush=True)


def parse_overrides(assignments: list[str]) -> dict[str, dict]:
    """``["01_tasks.n_tasks=5"]`` → ``{"01_tasks": {"n_tasks": 5}}`` (values parsed as YAML)."""
    overrides: dict[str, dict] = {}
    for assignment in assignments:
        target, separator, value = assignment.partition("=")
        stage, dot, name = target.partition(".")
        if not separator or not dot or not name:
            raise ValueError(f"--set {assignment!r}: expected STAGE.NAME=VALUE, e.g. 01_tasks.n_tasks=5")
        overrides.setdefault(stage, {})[name] = yaml.safe_load(value)
    return overrides


def parse_limit(assignments: list[str]) -> dict[str, float]:
    """``["calls=100"]`` → ``{"calls": 100}`` (a kind of `stad_utils.models.LIMIT_KINDS`, a positive number)."""
    from ..models import check_limit

    limit: dict[str, float] = {}
    for assignment in assignments:
        kind, separator, value = assignment.partition("=")
        number = yaml.safe_load(value) if separator else None
        if not isinstance(number, (int, float)):
            raise ValueError(f"--limit {assignment!r}: expected KIND=NUMBER, e.g. calls=100 "
                             f"(KIND: {', '.join(LIMIT_KINDS)})")
        problems = check_limit({kind: number})
        if problems:
            raise ValueError("; ".join(problems))
        limit[kind] = number
    return limit


def _check_and_plan(params_path: str, options: dict, cache_mode: str, *, check: bool) -> int:
    """``--check`` (the params file's report, then the plan) or ``--plan`` (the plan); the exit status."""
    report = check_params(params_path)
    if check or not report.ok:
        print(f"{params_path}: {report}")
    if not report.ok:
        return 1
    try:
        plan = plan_for(params_path, cache_mode=cache_mode, **options)
    except Exception as exc:  # noqa: BLE001 - the plan informs; an unplannable run is said, not a traceback
        secrets = configured_secrets(load_params(params_path))
        print(f"plan: not available ({type(exc).__name__}: {mask_secrets(str(exc), secrets)})")
        return 0 if check else 1
    print(plan.text())
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line (``stad-run``, ``python -m stad_utils.pipeline``); the exit status."""
    parser = argparse.ArgumentParser(prog="python -m stad_utils.pipeline", description=__doc__.split("\n")[0])
    parser.add_argument("params", help="a YAML parameter file, e.g. params/quickstart.yaml")
    parser.add_argument("--stage", action="append", choices=STAGES, help="run only this stage (repeatable)")
    parser.add_argument("--from", dest="start", choices=STAGES, help="run this stage and the ones after it")
    parser.add_argument("--results-dir",
                        help="where run folders go (default: the params file's results_dir, else results/ beside it)")
    parser.add_argument("--fresh", action="store_true", help="delete the run folder first (the cache is kept)")
    cache = parser.add_mutually_exclusive_group()
    cache.add_argument("--no-cache", action="store_true", help="bypass the response cache (call every model)")
    cache.add_argument("--refresh-cache", action="store_true", help="call every model and overwrite cached responses")
    parser.add_argument("--check", action="store_true",
                        help="validate the params file (stages, parameters, endpoints, paths), print the plan (as "
                             "--plan) and run nothing")
    parser.add_argument("--plan", action="store_true",
                        help="print, per stage and model, the calls the run would make, the cache hits, the prompt "
                             "and answer tokens (and dollars, with prices in 06_analyze) and run nothing")
    parser.add_argument("--limit", action="append", default=[], metavar="KIND=VALUE",
                        help="stop cleanly once this invocation has made VALUE model calls, used VALUE tokens or "
                             "spent VALUE dollars (KIND: calls, tokens, usd); running again goes on")
    parser.add_argument("--set", action="append", default=[], metavar="STAGE.NAME=VALUE",
                        help="override a stage parameter, e.g. --set 01_tasks.n_tasks=5 (VALUE is read as YAML)")
    args = parser.parse_args(argv)
    stages = args.stage or (list(STAGES[STAGES.index(args.start):]) if args.start else None)
    cache_mode = "off" if args.no_cache else "refresh" if args.refresh_cache else os.environ.get("STAD_CACHE", "use")
    options = {"stages": stages, "results_dir": args.results_dir, "fresh": args.fresh,
               "overrides": parse_overrides(args.set), "limit": parse_limit(args.limit)}
    if args.check or args.plan:
        return _check_and_plan(args.params, options, cache_mode, check=args.check)
    if args.no_cache or args.refresh_cache:
        os.environ["STAD_CACHE"] = cache_mode  # read by every stage's kernel
    started = time.perf_counter()
    try:
        run_dir = run_pipeline(args.params, **options)
    except LimitReached as exc:
        print(f"stopped: {exc}", file=sys.stderr)
        return 3
    except (StageFailed, ValueError, FileNotFoundError, EndpointUnavailable, MissingExtra, RunLocked, DiskFull) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        if not is_disk_full(exc):
            raise
        print(f"error: {DiskFull(exc.filename)}", file=sys.stderr)
        return 1
    print(f"finished in {time.perf_counter() - started:.0f} s; results in {run_dir}")
    html = RunPaths(run_dir).html
    if html.exists():
        print(f"report: {html}\n  open it in any browser, offline: python -m webbrowser {html.as_uri()}")
    return 0

