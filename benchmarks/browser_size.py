"""Size and speed of the failure browser on a paper-sized run: every kept GSM8K task (1,178) × 6 models.

The run is synthetic but realistically shaped: real GSM8K test questions, steps and template
variants (the `gsm8k_solution` teacher's verified ladders, as in `analysis_speed.py`); each reply is two to four real GSM8K *train*
solutions joined (so replies read like reasoning), 3% cut off at 7,000 characters, 2% errors,
2% undecided. No model is called. Prints the page size and the time to build it, then opens it
in headless Chromium (Debian's `chromium`) and times the table, a filter and a drill-down.

    python benchmarks/browser_size.py                 # 1,178 tasks × 6 models
    python benchmarks/browser_size.py --tasks 300 --no-browser
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "tests"))

sys.path.insert(0, str(ROOT / "benchmarks"))

from analysis_speed import gsm8k_ladders  # noqa: E402  (the verified ladders of the whole GSM8K test set)

from stad_utils.method import is_non_monotonic, minimal_scaffolding_level  # noqa: E402
from stad_utils.records import Ladder, Outcome, RunPaths, StepSkill, Verdict  # noqa: E402
from stad_utils.report.browser import browser_data, browser_html, disagreements  # noqa: E402

MODELS = ["qwen2.5-3b", "qwen2.5-7b", "llama-3.2-3b", "llama-3.1-8b", "granite-3.3-2b", "granite-3.3-8b"]


def simulated_run(ladders: Iterable[Ladder], models: Sequence[str] = MODELS,
                  seed: int = 0) -> Iterator[tuple[list[Verdict], Outcome]]:
    """The verdicts and the outcome of each task and model, one task and model at a time."""
    rng = random.Random(seed)
    train = [re.sub(r"<<[^>]*>>", "", json.loads(line)["answer"]).split("####")[0].strip()
             for line in open(DATA / "gsm8k_train.jsonl", encoding="utf-8")]
    for ladder in ladders:
        questions = ([("original", 0, ladder.task.question, ladder.task.answer)]
                     + [("scaffold", j, text, ladder.task.answer) for j, text in enumerate(ladder.scaffolds, 1)]
                     + [("isolated", i, text, step.answer)
                        for i, (text, step) in enumerate(zip(ladder.isolated, ladder.steps), 1)])
        for model in models:
            ability, mine = rng.random(), []
            for variant, level, prompt, reference in questions:
                reply, roll = "\n\n".join(rng.sample(train, rng.randint(2, 4))), rng.random()
                if roll < 0.02:
                    outcome, reply = "error", None
                elif roll < 0.04:
                    outcome, reply = "undecided", f"{reply}\nSo it is {reference} or 12."
                elif roll < 0.07:
                    outcome, reply = "no_answer", (reply * 5)[:7000]
                else:
                    outcome = "correct" if rng.random() < ability + 0.15 * level else "wrong"
                    reply = f"{reply}\nAnswer: {reference if outcome == 'correct' else rng.randint(1, 500)}"
                mine.append(Verdict(
                    task_id=ladder.task_id, model=model, variant=variant, level=level, prompt=prompt,
                    reference=reference, response=reply, error="APITimeoutError" if reply is None else None,
                    outcome=outcome, correct={"correct": True, "wrong": False, "no_answer": False}.get(outcome),
                    decided_by={"error": "error", "undecided": "none", "no_answer": "none"}.get(outcome,
                                                                                                "deterministic"),
                    truncated=outcome == "no_answer", finish_reason="length" if outcome == "no_answer" else "stop"))
            answered = {(v.variant, v.level): v.correct for v in mine}
            curve = [answered[("original", 0)]] + [answered[("scaffold", j)] for j in range(1, ladder.n_steps)]
            yield mine, Outcome(
                task_id=ladder.task_id, model=model, source="gsm8k", n_steps=ladder.n_steps,
                skills=[step.skill or "unmapped" for step in ladder.steps], curve=curve,
                isolated=[answered[("isolated", i)] for i in range(1, ladder.n_steps + 1)],
                k=minimal_scaffolding_level(curve), non_monotonic=is_non_monotonic(curve),
                n_errors=sum(v.outcome == "error" for v in mine))


def simulated_records(ladders: list[Ladder], seed: int = 0) -> tuple[list[Verdict], list[Outcome]]:
    verdicts, outcomes = [], []
    for mine, outcome in simulated_run(ladders, MODELS, seed):
        verdicts += mine
        outcomes.append(outcome)
    return verdicts, outcomes


def timed(label: str, function, *args):
    started = time.perf_counter()
    result = function(*args)
    print(f"{label}: {time.perf_counter() - started:.1f} s")
    return result


def open_in_chromium(page_path: Path) -> None:
    from playwright.sync_api import sync_playwright
    from test_browser import CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        started = time.perf_counter()
        page.goto(page_path.as_uri())
        page.wait_for_function("document.querySelector('.stad-count').textContent.includes(' of ')", timeout=120_000)
        print(f"chromium, open until the table shows: {time.perf_counter() - started:.1f} s "
              f"({page.locator('.stad-count').inner_text()})")
        started = time.perf_counter()
        page.select_option("select[data-filter=k]", "-1")
        print(f"chromium, filter k = -1: {time.perf_counter() - started:.2f} s ({page.locator('.stad-count').inner_text()})")
        started = time.perf_counter()
        page.locator("tr.stad-task-row").first.click()
        page.wait_for_selector(".stad-detail-row")
        print(f"chromium, open a drill-down: {time.perf_counter() - started:.2f} s")
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=None, help="the first N tasks (default: all)")
    parser.add_argument("--no-browser", action="store_true", help="skip the headless Chromium timings")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        paths = RunPaths(Path(scratch) / "run")
        paths.root.mkdir()
        ladders = gsm8k_ladders()[:args.tasks]
        verdicts, outcomes = simulated_records(ladders)
        skills = [StepSkill(task_id=ladder.task_id, step=i, description=step.description, label=step.skill,
                            cluster=0, skill=step.skill or "unmapped")
                  for ladder in ladders for i, step in enumerate(ladder.steps, 1)]
        for path, records in ((paths.ladders, ladders), (paths.skills, skills), (paths.verdicts, verdicts),
                              (paths.outcomes, outcomes)):
            path.write_text("".join(record.model_dump_json() + "\n" for record in records), encoding="utf-8")
        print(f"{len(ladders)} tasks × {len(MODELS)} models, {len(verdicts)} verdicts "
              f"(verdicts.jsonl {paths.verdicts.stat().st_size / 1e6:.0f} MB)")
        data = timed("browser_data", browser_data, paths.root)
        page = timed("browser_html (render and compress)", browser_html, data)
        page_path = paths.root / "browser.html"
        page_path.write_text(page, encoding="utf-8")
        print(f"page: {page_path.stat().st_size / 1e6:.1f} MB, self-contained")
        timed("disagreements", disagreements, paths.root)
        if not args.no_browser:
            open_in_chromium(page_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
