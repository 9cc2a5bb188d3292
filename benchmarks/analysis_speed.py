"""Time of the analysis stages (06_analyze + 07_compare) on the full GSM8K test set, two models.

The ladders are real: GSM8K's test set (../shared/data/gsm8k_test.jsonl) decomposed by the
teacher-free `gsm8k_solution` teacher (1,178 tasks, 3,869 steps), each step's skill its
operation label. The verdicts are simulated (no model is called): each model solves a step
with a probability set per skill (one planted weak skill per model) and chains the remaining
steps with a small composition penalty; 2% of the questions error and 1% stay undecided.
Everything is seeded. The script prints the time of each analysis function the two
notebooks call, and their total.

    python benchmarks/analysis_speed.py                        # one sample per question
    python benchmarks/analysis_speed.py --samples 3 --placebo  # repeated trials and placebo levels
    python benchmarks/analysis_speed.py --notebooks            # also the two notebooks, end to end

``--notebooks`` writes the records to a run folder and executes the two stage notebooks through
the pipeline runner, so kernel start-up, imports, reading the records, the figures, the failure
browser widget and report.html are all counted.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "gsm8k_test.jsonl"

from stad_utils.analysis import (
    compare_run,  # noqa: E402
    summarize_run,  # noqa: E402
)
from stad_utils.method import (  # noqa: E402
    GSM8KSolutionTeacher,  # noqa: E402
    build_ladders,
    decompose,
    outcomes,  # noqa: E402
)
from stad_utils.records import (
    Ladder,  # noqa: E402
    StepSkill,
    Verdict,
)
from stad_utils.report import (  # noqa: E402
    analysis_figures,
    comparison_figures,
    comparison_report,  # noqa: E402
    written_report,  # noqa: E402
)
from stad_utils.tasks import load_benchmark  # noqa: E402

WEAK_SKILL = {"model-a": "subtraction", "model-b": "price times quantity"}


def gsm8k_ladders() -> list[Ladder]:
    """The verified ladders of the whole GSM8K test set under the `gsm8k_solution` teacher."""
    teacher = GSM8KSolutionTeacher()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ladders = build_ladders(decompose(load_benchmark("gsm8k", DATA), teacher), teacher)
    return [ladder for ladder in ladders if ladder.verified]


def simulated_verdicts(ladders: list[Ladder], model: str, n_samples: int, placebo: bool, seed: int) -> list[Verdict]:
    """Verdicts of a simulated model: step accuracy 0.95 (0.6 for its weak skill), composition penalty 0.97."""
    rng = random.Random(f"{seed}-{model}")
    verdicts = []

    def verdict(ladder: Ladder, variant: str, level: int, sample: int, p_correct: float) -> Verdict:
        draw = rng.random()
        outcome = "error" if draw < 0.02 else "undecided" if draw < 0.03 else (
            "correct" if rng.random() < p_correct else "wrong")
        return Verdict(task_id=ladder.task_id, model=model, variant=variant, level=level, sample=sample, prompt="…",
                       reference="…", response=None if outcome == "error" else "…",
                       error="simulated HTTP 500" if outcome == "error" else None, outcome=outcome,
                       correct={"correct": True, "wrong": False}.get(outcome),
                       decided_by="error" if outcome == "error" else "deterministic", simulated=True)

    for ladder in ladders:
        accuracy = [0.6 if step.skill == WEAK_SKILL[model] else 0.95 for step in ladder.steps]

        def chained(first_step: int) -> float:
            p = 0.97 ** (ladder.n_steps - first_step - 1)
            for a in accuracy[first_step:]:
                p *= a
            return p

        for sample in range(n_samples):
            verdicts.append(verdict(ladder, "original", 0, sample, chained(0)))
            verdicts += [verdict(ladder, "scaffold", j, sample, chained(j)) for j in range(1, ladder.n_steps)]
            verdicts += [verdict(ladder, "isolated", i, sample, accuracy[i - 1]) for i in range(1, ladder.n_steps + 1)]
            if placebo:
                verdicts += [verdict(ladder, "placebo", j, sample, chained(0) + 0.02) for j in range(1, ladder.n_steps)]
    return verdicts


def timed(timings: dict[str, float], name: str, function: Callable, *args, **kwargs):
    started = time.perf_counter()
    result = function(*args, **kwargs)
    timings[name] = time.perf_counter() - started
    return result


def save(figures: dict, folder: Path) -> None:
    for name, figure in figures.items():
        figure.savefig(folder / f"{name}.png", dpi=110)
        plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=1, help="repeated trials per question (default 1)")
    parser.add_argument("--placebo", action="store_true", help="also simulate placebo levels")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (06's default: 1000)")
    parser.add_argument("--permutations", type=int, default=1000, help="profile permutations (07's default: 1000)")
    parser.add_argument("--figures", type=Path, help="keep the figures in this folder (default: a temporary one)")
    parser.add_argument("--notebooks", action="store_true", help="also time 06_analyze and 07_compare end to end")
    args = parser.parse_args(argv)

    setup = time.perf_counter()
    ladders = gsm8k_ladders()
    skills = [StepSkill(task_id=ladder.task_id, step=i, description=step.description, label=step.skill, cluster=0,
                        skill=step.skill or "unmapped") for ladder in ladders for i, step in enumerate(ladder.steps, 1)]
    verdicts = [v for model in WEAK_SKILL for v in simulated_verdicts(ladders, model, args.samples, args.placebo, 0)]
    print(f"setup (not timed below): {len(ladders)} ladders, {len(skills)} steps, {len(verdicts)} simulated verdicts "
          f"for {len(WEAK_SKILL)} models in {time.perf_counter() - setup:.1f} s")

    timings: dict[str, float] = {}
    results = timed(timings, "metrics.outcomes (05_evaluate's last step)", outcomes, ladders, verdicts, skills)
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.figures or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        summary = timed(timings, "06 summarize_run", summarize_run, results, n_resamples=args.resamples)
        timed(timings, "06 written_report", written_report, "gsm8k", summary)
        timed(timings, "06 summary.json_text()", summary.json_text)
        figures = timed(timings, "06 analysis_figures", analysis_figures, results, n_resamples=args.resamples)
        timed(timings, "06 savefig", save, figures, folder)
        comparison = timed(timings, "07 compare_run", compare_run, results, ladders, n_permutations=args.permutations,
                           n_resamples=args.resamples)
        timed(timings, "07 comparison_report", comparison_report, comparison)
        figures = timed(timings, "07 comparison_figures", comparison_figures, results, comparison)
        timed(timings, "07 savefig", save, figures, folder)

    width = max(map(len, timings))
    for name, seconds in timings.items():
        print(f"{name:<{width}}  {seconds:6.2f} s")
    analysis = sum(seconds for name, seconds in timings.items() if name[:2] in ("06", "07"))
    print(f"{'06_analyze + 07_compare (analysis functions)':<{width}}  {analysis:6.2f} s")
    for comparison_result in comparison.comparisons:
        print(comparison_result.statement)
    if args.notebooks:
        for stage, seconds in time_notebooks(ladders, skills, verdicts, results).items():
            print(f"{stage + ' notebook (end to end)':<{width}}  {seconds:6.2f} s")
    return 0


def time_notebooks(ladders: list[Ladder], skills: list[StepSkill], verdicts: list[Verdict], results) -> dict:
    """Seconds of the 06_analyze and 07_compare notebooks run by the pipeline on these records."""
    import yaml

    from stad_utils.pipeline import run_pipeline
    from stad_utils.records import RunPaths

    with tempfile.TemporaryDirectory() as scratch:
        paths = RunPaths(Path(scratch) / "speed")
        paths.root.mkdir()
        for path, records in ((paths.ladders, ladders), (paths.skills, skills), (paths.verdicts, verdicts),
                              (paths.outcomes, results)):
            path.write_text("".join(record.model_dump_json() + "\n" for record in records))
        params = Path(scratch) / "params.yaml"
        params.write_text(yaml.safe_dump({"run": "speed", "results_dir": scratch}))
        run_pipeline(params, stages=["06_analyze", "07_compare"])
        return json.loads((paths.root / "timings.json").read_text())


if __name__ == "__main__":
    sys.exit(main())
