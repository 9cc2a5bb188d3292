"""What the notebook machinery costs on a small run: the chain through papermill vs the same code in one process.

Both sides run the tiny chain (`benchmarks/tiny_chain.yaml`: 4 generated tasks, the oracle
teacher, one simulated target; no model is called) into fresh run folders, each in a fresh
Python process so that both pay for their imports:

* **papermill**: ``python -m stad_utils.pipeline`` (a kernel per stage, parameters injected,
  executed notebooks saved, then report.html);
* **one process**: the code cells of the same notebooks, with the same injected parameters,
  executed one after another in one interpreter (a fresh namespace per stage), so exactly the
  same `stad_utils` calls run, without kernels, papermill or report.html.

    python benchmarks/chain_overhead.py              # both, twice each, alternating
    python benchmarks/chain_overhead.py --repeats 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARAMS = ROOT / "benchmarks" / "tiny_chain.yaml"


def run_in_one_process(params_path: Path, results_dir: Path) -> dict[str, float]:
    """Execute every stage notebook's code cells in this process; seconds per stage."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from stad_utils.pipeline import NOTEBOOKS, STAGES, load_params, notebook_parameters

    params = load_params(params_path)
    run_dir = results_dir / params["run"]
    run_dir.mkdir(parents=True)
    timings = {}
    os.chdir(NOTEBOOKS)  # where the pipeline runs its kernels
    for stage in STAGES:
        started = time.perf_counter()
        given = {**(params.get("stages", {}).get(stage) or {}), "run_dir": str(run_dir),
                 "cache_path": str(results_dir / "cache.sqlite")}
        injected = notebook_parameters(stage, given, NOTEBOOKS)
        cells = [cell for cell in json.loads((NOTEBOOKS / f"{stage}.ipynb").read_text())["cells"]
                 if cell["cell_type"] == "code"]
        namespace: dict = {"__name__": "__main__"}
        for cell in cells:
            exec(compile("".join(cell["source"]), f"{stage}.ipynb", "exec"), namespace)
            if "parameters" in cell.get("metadata", {}).get("tags", []):
                namespace.update(injected)
        plt.close("all")
        timings[stage] = time.perf_counter() - started
    return timings


def timed_run(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=2, help="runs of each side, alternating (default 2)")
    parser.add_argument("--params", type=Path, default=PARAMS)
    parser.add_argument("--in-process", type=Path, metavar="RESULTS_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.in_process:
        timings = run_in_one_process(args.params, args.in_process)
        (args.in_process / "in_process_timings.json").write_text(json.dumps(timings))
        return 0
    papermill, direct = [], []
    for repeat in range(args.repeats):
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            papermill.append(timed_run([sys.executable, "-m", "stad_utils.pipeline", str(args.params),
                                        "--results-dir", str(folder / "papermill")]))
            stages = json.loads((folder / "papermill" / "tiny-chain" / "timings.json").read_text())
            direct.append(timed_run([sys.executable, __file__, "--params", str(args.params),
                                     "--in-process", str(folder / "direct")]))
            in_process = json.loads((folder / "direct" / "in_process_timings.json").read_text())
        print(f"run {repeat + 1}: papermill {papermill[-1]:.1f} s (stages "
              + ", ".join(f"{stage[:2]} {seconds:.1f}" for stage, seconds in stages.items())
              + f"); one process {direct[-1]:.1f} s (stages "
              + ", ".join(f"{stage[:2]} {seconds:.1f}" for stage, seconds in in_process.items()) + ")")
    papermill_s, direct_s = statistics.median(papermill), statistics.median(direct)
    print(f"tiny chain (4 tasks, simulated target), median of {args.repeats}: through papermill {papermill_s:.1f} s, "
          f"same code in one process {direct_s:.1f} s: {papermill_s / direct_s:.2f}× "
          "(wall time of each command, imports and report.html included on the papermill side)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
