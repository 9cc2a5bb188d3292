"""Run the stage notebooks in order with papermill, from one YAML parameter file.

    python -m stad_utils.pipeline params/quickstart.yaml                # the whole chain
    python -m stad_utils.pipeline params/quickstart.yaml --stage 05_evaluate   # one stage again
    python -m stad_utils.pipeline params/quickstart.yaml --from 04_skills      # from a stage on
    python -m stad_utils.pipeline params/quickstart.yaml --check        # validate, run nothing

The params file format is described in `stad_utils.params`. Every stage reads and writes
``results/<run>/`` (see `RunPaths`); the executed notebooks land in
``results/<run>/notebooks/`` and ``manifest.json`` records how the run was made. Stages
resume: what a stage already wrote is kept and not recomputed, and model calls are answered
from the response cache. Before any stage runs, every remote endpoint the chosen stages use is
asked for its models, so a server that is down fails the run at once, naming its URL.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import yaml

from .client import EndpointUnavailable
from .manifest import stage_finished, start_manifest
from .params import NOTEBOOKS, STAGES, check_params, endpoint_blocks, load_params, notebook_parameters, resolve_paths
from .store import RunPaths

TEMPLATES = Path(__file__).resolve().parent / "templates"  # report/: nbconvert's lab page without CDN scripts
RESULTS = NOTEBOOKS.parent / "results"  # where run folders go unless the params file says otherwise


class StageFailed(RuntimeError):
    pass


def kernel_for_this_python(name: str = "stad-python") -> str:
    """A Jupyter kernel that runs this very interpreter, so notebooks see this environment's packages.

    Its log level is ERROR: a local batch run needs no warning about unencrypted loopback sockets.
    """
    from ipykernel.kernelspec import write_kernel_spec
    from jupyter_client.kernelspec import KernelSpecManager

    if not (Path(sys.prefix) / "share" / "jupyter" / "kernels" / name / "kernel.json").exists():
        spec_dir = write_kernel_spec(overrides={"display_name": f"Python ({name})"},
                                     extra_arguments=["--log-level=ERROR"])
        KernelSpecManager().install_kernel_spec(spec_dir, name, prefix=sys.prefix)
        shutil.rmtree(spec_dir, ignore_errors=True)
    return name


def run_pipeline(
    params_path: Path | str,
    *,
    stages: list[str] | None = None,
    results_dir: Path | str | None = None,
    fresh: bool = False,
    overrides: dict[str, dict] | None = None,
    notebooks_dir: Path | str = NOTEBOOKS,
) -> Path:
    """Execute the chosen stages (default: all) and return the run folder.

    ``overrides`` replace stage parameters of the file, e.g. ``{"01_tasks": {"n_tasks": 5}}``.
    Raises `StageFailed` naming the stage, the cell and the executed notebook to open.
    """
    import papermill as pm

    params = load_params(params_path)
    overrides = resolve_paths({"stages": overrides or {}}, Path.cwd())["stages"]  # typed relative to here
    for stage, values in overrides.items():
        if stage not in STAGES:
            raise ValueError(f"unknown stage {stage!r} in overrides; stages are {list(STAGES)}")
        params.setdefault("stages", {}).setdefault(stage, {}).update(values)
    results = Path(results_dir or params.get("results_dir") or RESULTS).resolve()
    run_dir = results / params["run"]
    if fresh and run_dir.exists():
        shutil.rmtree(run_dir)
    paths = RunPaths(run_dir)
    paths.notebooks.mkdir(parents=True, exist_ok=True)
    cache_path = Path(params.get("cache", results / "cache.sqlite")).resolve()
    (run_dir / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    chosen = stages or list(STAGES)
    stage_params = {stage: notebook_parameters(stage, {**(params.get("stages", {}).get(stage) or {}),
                                                       "run_dir": str(run_dir), "cache_path": str(cache_path)},
                                               notebooks_dir)
                    for stage in chosen}  # a misspelt parameter stops the run before anything is computed
    endpoints = preflight({stage: params.get("stages", {}).get(stage) or {} for stage in chosen})
    start_manifest(paths.manifest, params, endpoints, chosen)
    timings = json.loads((run_dir / "timings.json").read_text()) if (run_dir / "timings.json").exists() else {}
    with shared_kernel(notebooks_dir) as kernel:
        for number, stage in enumerate(chosen, start=1):
            notebook = Path(notebooks_dir) / f"{stage}.ipynb"
            output = paths.notebooks / f"{stage}.ipynb"
            print(f"[{number}/{len(chosen)}] {stage} …", flush=True)
            started = time.perf_counter()
            try:
                pm.execute_notebook(notebook, output, parameters=stage_params[stage], cwd=str(notebooks_dir),
                                    progress_bar=False, kernel_name=kernel.kernel_name, km=kernel)
            except pm.PapermillExecutionError as exc:
                raise StageFailed(
                    f"stage {stage} failed in cell {exc.exec_count} ({exc.ename}: {exc.evalue}).\n"
                    f"Open {output} to see the cell and its traceback."
                ) from None
            forget_stage(kernel)
            stage_finished(paths.manifest, stage, last=number == len(chosen))
            timings[stage] = round(time.perf_counter() - started, 1)
            print(f"      done in {timings[stage]} s", flush=True)
            (run_dir / "timings.json").write_text(json.dumps(timings, indent=2))
    write_html_report(paths, other_runs=tuple(params.get("stages", {}).get("07_compare", {}).get("other_runs") or ()))
    return run_dir


@contextmanager
def shared_kernel(cwd: Path | str):
    """One kernel for all the stages of a run, shut down at the end.

    A kernel per stage cost ~2.3 s of start-up and re-imports (pandas, scipy, `stad_utils`) for
    stages that work for a few milliseconds on a small run; `forget_stage` empties the namespace
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
                                   "if 'matplotlib.pyplot' in sys.modules: sys.modules['matplotlib.pyplot'].close('all')",
                                   store_history=False, timeout=60)
    finally:
        client.stop_channels()


def preflight(stage_params: dict[str, dict]) -> dict[str, list[dict]]:
    """Ask every remote endpoint of these stages for its models; what each serves, for the manifest.

    Raises `EndpointUnavailable` naming the first endpoint that does not answer. The embedded
    model and simulated targets need no server yet (their servers start with their stage).
    """
    from .client import EndpointConfig, ModelClient
    from .serving import embedded_model_path

    served: dict[str, list[dict]] = {}
    for stage, values in stage_params.items():
        for where, block in endpoint_blocks(stage, values):
            config = EndpointConfig.model_validate(block)
            if config.kind == "openai":
                served[where] = ModelClient(config, role=where).preflight()
            elif config.kind == "embedded":
                served[where] = [{"kind": "embedded", "model": config.model, "gguf": embedded_model_path().name,
                                  "server": f"llama_cpp.server {importlib.metadata.version('llama_cpp_python')}"}]
            else:
                served[where] = [{"kind": config.kind, "model": config.model}]
    return served


def write_html_report(paths: RunPaths, stages: tuple[str, ...] = ("06_analyze", "07_compare"),
                      other_runs: tuple[Path | str, ...] = ()) -> Path | None:
    """One self-contained HTML page of the executed analysis notebooks (outputs and figures, no code),
    followed by the failure browser of the run's tasks and of ``other_runs`` (`stad_utils.browser`)."""
    import nbformat
    from nbconvert import HTMLExporter

    from .browser import embed_browser

    executed = [paths.notebooks / f"{stage}.ipynb" for stage in stages if (paths.notebooks / f"{stage}.ipynb").exists()]
    if not executed:
        return None
    combined = nbformat.read(executed[0], as_version=4)
    for notebook in executed[1:]:
        combined.cells.extend(nbformat.read(notebook, as_version=4).cells)
    combined.cells = [cell for cell in combined.cells if "parameters" not in cell.metadata.get("tags", [])
                      and "injected-parameters" not in cell.metadata.get("tags", [])]
    exporter = HTMLExporter(template_name="report", extra_template_basedirs=[str(TEMPLATES)], exclude_input=True,
                            exclude_input_prompt=True, exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(combined)
    paths.html.write_text(embed_browser(body, [paths.root, *other_runs]), encoding="utf-8")
    return paths.html


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stad_utils.pipeline", description=__doc__.split("\n")[0])
    parser.add_argument("params", help="a YAML parameter file, e.g. params/quickstart.yaml")
    parser.add_argument("--stage", action="append", choices=STAGES, help="run only this stage (repeatable)")
    parser.add_argument("--from", dest="start", choices=STAGES, help="run this stage and the ones after it")
    parser.add_argument("--results-dir", help="where run folders go (default: the params' results_dir or results/)")
    parser.add_argument("--fresh", action="store_true", help="delete the run folder first (the cache is kept)")
    cache = parser.add_mutually_exclusive_group()
    cache.add_argument("--no-cache", action="store_true", help="bypass the response cache (call every model)")
    cache.add_argument("--refresh-cache", action="store_true", help="call every model and overwrite cached responses")
    parser.add_argument("--check", action="store_true",
                        help="validate the params file (stages, parameters, endpoints, paths) and run nothing")
    parser.add_argument("--set", action="append", default=[], metavar="STAGE.NAME=VALUE",
                        help="override a stage parameter, e.g. --set 01_tasks.n_tasks=5 (VALUE is read as YAML)")
    args = parser.parse_args(argv)
    if args.check:
        report = check_params(args.params)
        print(f"{args.params}: {report}")
        return 0 if report.ok else 1
    if args.no_cache or args.refresh_cache:
        os.environ["STAD_CACHE"] = "off" if args.no_cache else "refresh"  # read by every stage's kernel
    stages = args.stage or (list(STAGES[STAGES.index(args.start):]) if args.start else None)
    started = time.perf_counter()
    try:
        run_dir = run_pipeline(args.params, stages=stages, results_dir=args.results_dir, fresh=args.fresh,
                               overrides=parse_overrides(args.set))
    except (StageFailed, ValueError, FileNotFoundError, EndpointUnavailable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"finished in {time.perf_counter() - started:.0f} s; results in {run_dir}")
    summary = RunPaths(run_dir).summary
    if summary.exists():
        report = RunPaths(run_dir).report
        print(report.read_text() if report.exists() else summary.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
