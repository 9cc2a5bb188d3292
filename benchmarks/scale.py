"""Paper-scale runs: time, peak memory, report size and browser speed of 06_analyze + 07_compare, per size.

For each size (tasks × models) a run folder is written with records shaped like a real run
(`browser_size.simulated_run`: the verified GSM8K test ladders, repeated under new task ids
beyond their 1,178, replies made of real GSM8K train solutions, 2% errors, 2% undecided, 3% cut
off). No model is called. Then, as a user would:

1. ``python -m stad_utils.pipeline --stage 06_analyze --stage 07_compare`` (kernels, figures
   and report.html included; the pipeline builds no widget): wall time, each stage's time, and the peak memory of the
   whole process tree (the runner and its kernel, sampled every 0.2 s with psutil), and the tree's CPU
   seconds with the load average (on a shared machine, wall time grows with the load; CPU time less so);
2. report.html's size, and in headless Chromium (Debian's ``chromium``) the time until the task
   table shows and until an opened task's drill-down shows;
3. ``python -m stad_utils.report.view`` on the same run: time until it serves, and in Chromium the
   time until a task's drill-down shows (read from the records on demand).

    python benchmarks/scale.py                             # 1,000 × 2 and 5,000 × 2 (13k and 66k verdicts)
    python benchmarks/scale.py --sizes 20000x6,25000x6     # ~790k and ~1M verdicts (≈ 3 GB of JSONL each)
    python benchmarks/scale.py --sizes 1000x2 --keep /tmp/scale   # keep the run folders
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from analysis_speed import gsm8k_ladders  # noqa: E402
from browser_size import MODELS, simulated_run  # noqa: E402

from stad_utils.records import Ladder, RunPaths, StepSkill  # noqa: E402


def ladders_for(n_tasks: int, base: list[Ladder]) -> list[Ladder]:
    """``n_tasks`` ladders: the real ones, then copies of them under new task ids (``<id>~2``, …)."""
    ladders = []
    for copy, ladder in zip(range(n_tasks), itertools.cycle(base)):
        round_ = copy // len(base)
        if round_:
            ladder = ladder.model_copy(update={"task": ladder.task.model_copy(
                update={"task_id": f"{ladder.task_id}~{round_ + 1}"})})
        ladders.append(ladder)
    return ladders


def write_run(root: Path, ladders: list[Ladder], models: list[str]) -> int:
    """The run folder's records, written as they are simulated; the number of verdicts."""
    paths = RunPaths(root)
    root.mkdir(parents=True)
    with open(paths.ladders, "w", encoding="utf-8") as out:
        out.writelines(ladder.model_dump_json() + "\n" for ladder in ladders)
    with open(paths.skills, "w", encoding="utf-8") as out:
        out.writelines(StepSkill(task_id=ladder.task_id, step=i, description=step.description, label=step.skill,
                                 cluster=0, skill=step.skill or "unmapped").model_dump_json() + "\n"
                       for ladder in ladders for i, step in enumerate(ladder.steps, 1))
    n_verdicts = 0
    with open(paths.verdicts, "w", encoding="utf-8") as verdicts, open(paths.outcomes, "w",
                                                                       encoding="utf-8") as outcomes:
        for mine, outcome in simulated_run(ladders, models):
            verdicts.writelines(verdict.model_dump_json() + "\n" for verdict in mine)
            outcomes.write(outcome.model_dump_json() + "\n")
            n_verdicts += len(mine)
    return n_verdicts


class TreeUsage:
    """The peak summed resident memory of a process and all its descendants, and their CPU seconds,
    sampled in a thread (CPU seconds say what the work costs when other jobs share the machine)."""

    def __init__(self, pid: int, every_s: float = 0.2):
        self.process, self.every_s, self.peak = psutil.Process(pid), every_s, 0
        self._cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            try:
                tree = [self.process, *self.process.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            total = 0
            for process in tree:
                try:
                    total += process.memory_info().rss
                    times = process.cpu_times()
                    self._cpu[process.pid] = times.user + times.system
                except psutil.NoSuchProcess:
                    pass
            self.peak = max(self.peak, total)
            self._stop.wait(self.every_s)

    def stop(self) -> tuple[int, float]:
        """Peak bytes and CPU seconds (up to the last sample)."""
        self._stop.set()
        self._thread.join()
        return self.peak, sum(self._cpu.values())


def run_analysis(results: Path, run: str) -> dict:
    params = results / f"{run}.yaml"
    params.write_text(json.dumps({"run": run, "results_dir": str(results)}))
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "stad_utils.pipeline", str(params), "--stage", "06_analyze",
                                "--stage", "07_compare"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    usage = TreeUsage(process.pid)
    output, _ = process.communicate()
    peak, cpu_s = usage.stop()
    seconds = time.perf_counter() - started
    if process.returncode:
        raise RuntimeError(f"the pipeline failed on {run}:\n{output[-3000:]}")
    stages = json.loads((results / run / "timings.json").read_text())
    return {"seconds": seconds, "cpu_seconds": cpu_s, "stages": stages, "peak_bytes": peak}


def chromium_timings(url: str) -> dict:
    """Seconds until the task table shows and until the first task's drill-down shows (and what it showed)."""
    from playwright.sync_api import sync_playwright
    from test_browser import CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        started = time.perf_counter()
        page.goto(url, timeout=600_000)
        page.wait_for_function("document.querySelector('.stad-count').textContent.includes(' of ')",
                               timeout=600_000)
        table_s = time.perf_counter() - started
        # the first failed task (k = -1) whose replies the page holds: a report carries a bounded set
        page.select_option("select[data-filter=k]", "-1")
        rows = page.locator("tr.stad-task-row")
        for row in range(min(rows.count(), 50)):
            started = time.perf_counter()
            rows.nth(row).click()
            detail = page.locator(".stad-detail-row")
            detail.wait_for(timeout=120_000)
            opened_s = time.perf_counter() - started
            shown = ("replies" if detail.locator(".stad-reply").count() else
                     "not carried" if detail.locator(".stad-not-carried").count() else
                     "error: " + detail.inner_text()[:200])
            if shown != "not carried":
                break
            rows.nth(row).click()  # close it, try the next
        shown += f" (row {row + 1})"
        browser.close()
    return {"table_s": table_s, "task_s": opened_s, "task_shows": shown, "page_errors": errors}


def viewer_timings(run_dir: Path) -> dict:
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "stad_utils.report.view", str(run_dir), "--port", "0"], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    usage = TreeUsage(process.pid)
    try:
        line = process.stdout.readline()
        start_s = time.perf_counter() - started
        url = line.split("open ", 1)[1].split()[0]
        return {"start_s": start_s, **chromium_timings(url), "peak_bytes": usage.stop()[0]}
    finally:
        process.terminate()
        process.wait(timeout=30)


def measure(size: str, results: Path, base: list[Ladder], browser: bool) -> None:
    n_tasks, n_models = (int(part) for part in size.lower().split("x"))
    run = f"scale-{n_tasks}x{n_models}"
    started = time.perf_counter()
    n_verdicts = write_run(results / run, ladders_for(n_tasks, base), MODELS[:n_models])
    log_mb = (results / run / "verdicts.jsonl").stat().st_size / 1e6
    print(f"{size}: {n_verdicts:,} verdicts ({log_mb:,.0f} MB of verdicts.jsonl) written in "
          f"{time.perf_counter() - started:.0f} s (not timed below)", flush=True)
    analysis = run_analysis(results, run)
    report = results / run / "report.html"
    row = {"size": size, "verdicts": n_verdicts, "06+07 and report.html (s)": round(analysis["seconds"], 1),
           "CPU (s)": round(analysis["cpu_seconds"], 1), "load average": round(psutil.getloadavg()[0], 1),
           **{f"{stage} (s)": seconds for stage, seconds in analysis["stages"].items()},
           "peak memory (GB)": round(analysis["peak_bytes"] / 1e9, 2),
           "report.html (MB)": round(report.stat().st_size / 1e6, 1)}
    if browser:
        page = chromium_timings(report.as_uri())
        row.update({"report: table shown (s)": round(page["table_s"], 1),
                    "report: task opened (s)": round(page["task_s"], 2), "report: task shows": page["task_shows"],
                    "report: page errors": page["page_errors"]})
        viewer = viewer_timings(results / run)
        row.update({"viewer: serving after (s)": round(viewer["start_s"], 1),
                    "viewer: table shown (s)": round(viewer["table_s"], 1),
                    "viewer: task opened (s)": round(viewer["task_s"], 2), "viewer: task shows": viewer["task_shows"],
                    "viewer: peak memory (GB)": round(viewer["peak_bytes"] / 1e9, 2),
                    "viewer: page errors": viewer["page_errors"]})
    print(json.dumps(row), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000x2,5000x2",
                        help="comma-separated TASKSxMODELS (at most 6 models; default 1000x2,5000x2)")
    parser.add_argument("--no-browser", action="store_true", help="skip Chromium and the viewer")
    parser.add_argument("--keep", type=Path, help="write the run folders here and keep them")
    args = parser.parse_args(argv)
    base = gsm8k_ladders()
    with tempfile.TemporaryDirectory() as scratch:
        results = args.keep or Path(scratch)
        results.mkdir(parents=True, exist_ok=True)
        for size in args.sizes.split(","):
            measure(size, results, base, browser=not args.no_browser)
            if not args.keep:
                shutil.rmtree(results / f"scale-{size.lower()}", ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
