"""Helpers of the workshop notebook (``09_workshop``): plant a weakness, run, read.

A workshop exercise plants weaknesses in one or more simulated targets (`stad_utils.models._simulated`),
or asks a real model the lecturer serves for the room, runs the whole chain on generated tasks —
01 tasks → 02 decompose → 03 scaffold (the oracle teacher) → 04 skills (the generator's labels, no
embedding model) → 05 evaluate (the judge reads every reply) → 06 analyze, and 07 compare when
asked — by calling the stages from Python, and returns what the notebook shows: each target's
diagnosis headline, its evidence figure and, for two targets, the accuracy statement of the comparison.

Nothing here needs an extra: no embedded model, no sentence-transformers, no torch (a served model
is asked over HTTP).
"""

from __future__ import annotations

import contextlib
import io
import shutil
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis import (
    Comparison,
    Estimate,
    ModelSummary,
    PenaltyFit,
    RunSummary,
    estimate_composition_penalty,
    p_text,
    percent_text,
    points,
)
from ..definitions import ALPHA
from ..models import EndpointConfig, Simulation, record_name
from ..records import RunPaths

MARKER = ".workshop-run"
"""The file that marks a folder as a workshop run, which the next run of an exercise may clear."""

TASK_OPTIONS: dict[str, Any] = {"families": ["word", "time"], "min_steps": 2, "max_steps": 3, "max_number": 5}
"""The generated tasks of every exercise (the quickstart's): word problems and clock times, two or three steps."""


def simulated_target(name: str, step_accuracy: dict[str, float] | None = None, composition_penalty: float = 0.0,
                     seed: int = 0, *, position_logit_drop: float = 0.0, length_logit_drop: float = 0.0,
                     task_logit_sd: float = 0.0) -> dict:
    """The endpoint block of a simulated target with planted weaknesses (05_evaluate's ``targets`` entry).

    Parameters
    ----------
    name : its label; records and figures call it ``simulated:<name>`` unless it says "simulat" itself.
    step_accuracy : skill label → chance of doing a step of that skill alone; ``"default"``: every other skill.
    composition_penalty : the chance that one link of a chain fails although both steps would be done alone.
    seed : the seed of its draws.
    position_logit_drop, length_logit_drop, task_logit_sd : context effects (`stad_utils.models.step_chance`):
        later steps, longer tasks, harder tasks; the block names only those planted.
    """
    context = {"position_logit_drop": position_logit_drop, "length_logit_drop": length_logit_drop,
               "task_logit_sd": task_logit_sd}
    simulation = Simulation(step_accuracy=step_accuracy or {"default": 0.95},
                            composition_penalty=composition_penalty, seed=seed, **context)
    unplanted = {effect for effect, value in context.items() if not value}
    return {"name": name, "kind": "simulated", "model": "planted-weakness",
            "simulation": simulation.model_dump(exclude=unplanted)}


def served_target(base_url: str, model: str, *, name: str | None = None, max_tokens: int = 256) -> dict:
    """The endpoint block of a real model on an OpenAI-compatible server (the one the lecturer serves for the room).

    Greedy, one user turn and no system prompt (the paper's protocol); ``max_tokens`` kept short, as the
    quickstart does for a small model on a CPU (a reply cut off without an answer counts as *no answer*).
    """
    block = {"name": name or model, "kind": "openai", "base_url": base_url, "model": model, "max_tokens": max_tokens}
    EndpointConfig.model_validate(block)  # a misspelt setting fails here, not in the middle of a run
    return block


def _label(target: dict) -> str:
    """The name the target's records carry (a simulated target's is marked as a simulation)."""
    config = EndpointConfig.model_validate(target)
    return record_name(config.label) if config.kind == "simulated" else config.label


def _planted(target: dict) -> str:
    """What was planted in a target, as the front page words it; a real model's weaknesses are what we look for."""
    if target.get("kind") != "simulated":
        return "nothing: a real model, whose weaknesses are unknown"
    return Simulation.model_validate(target["simulation"]).planted()


def _fresh(folder: Path) -> None:
    """Empty ``folder`` for a new run; refuse a folder with files that no workshop run wrote."""
    if folder.exists() and any(folder.iterdir()):
        if not (folder / MARKER).is_file():
            raise FileExistsError(f"{folder} holds files that no workshop run wrote; choose another folder")
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).write_text("written by stad_utils.workshop.run_exercise; the next run clears this folder\n",
                                 encoding="utf-8")


@contextlib.contextmanager
def _quiet():
    """Hide progress bars (written to stderr) but keep every warning: they are issued again afterwards."""
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stderr(io.StringIO()):
        yield
    for warning in caught:
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)


@dataclass
class WorkshopRun:
    """What one exercise's run produced (see `run_exercise`)."""

    folder: Path
    targets: list[dict]
    n_tasks: int
    summary: RunSummary
    """06_analyze's ``summary.json``: per model (``summary.models[label]``) its numbers and diagnosis."""
    comparison: Comparison | None = None
    """07_compare's ``comparison.json``, when the run compared its targets."""
    seconds: dict = field(default_factory=dict)
    """Wall-clock seconds per stage, and ``"total"``."""

    @property
    def models(self) -> list[str]:
        """The targets' labels, in the order they were given."""
        return [_label(target) for target in self.targets]

    def numbers(self, model: str | None = None) -> ModelSummary:
        """One model's entry of ``summary.json`` (the first target's by default)."""
        return self.summary.models[model or self.models[0]]

    def headlines(self) -> pd.DataFrame:
        """Per target: what was planted, and the diagnosis headline that 06 and report.html write."""
        rows = []
        for target, model in zip(self.targets, self.models):
            rows.append({"target": model, "tasks": self.n_tasks, "planted": _planted(target),
                         "diagnosis": self.numbers(model).diagnosis.headline})
        return pd.DataFrame(rows)

    def tested_skills(self, model: str | None = None) -> pd.DataFrame:
        """The skills the diagnosis tested for one model: accuracy alone against its neighbours (the other
        steps at the same positions in tasks of the same length), Holm-adjusted p.

        A skill with fewer answered isolated questions than the analysis' ``min_support`` is not
        tested; ``untested`` lists the skills of the run's steps that were left out.
        """
        rows = [{"skill": entry.skill, "n alone": entry.isolated_accuracy.n,
                 "right alone": percent_text(entry.isolated_accuracy.value),
                 "its neighbours": percent_text((entry.neighbours_accuracy or entry.others_accuracy).value),
                 "Holm-adjusted p": p_text(entry.p_adjusted), "named weak": entry.weak}
                for entry in self.numbers(model).diagnosis.tested_skills]
        return pd.DataFrame(rows, columns=["skill", "n alone", "right alone", "its neighbours", "Holm-adjusted p",
                                           "named weak"])

    def two_readings(self, model: str | None = None, *, alpha: float = ALPHA) -> pd.DataFrame:
        """Each tested skill read two ways: against every other step pooled, and against its neighbours.

        The **pooled** reading is the rule the report used before it compared like with like: one-sided
        Fisher of a skill's steps asked alone against all other steps, Holm over the skills. It cannot
        tell a weak skill from a skill that stands where every skill does worse (late in a task, in
        long tasks). The **like-with-like** reading is the diagnosis' own (``summary.json``): the
        skill against the other steps at the same position of tasks of the same length.
        """
        from ..analysis import holm, isolated_steps, weak_skill_tests

        model = model or self.models[0]
        # one shuffle: only the pooled columns (crude_p, rest_accuracy, crude_effect) are read here
        pooled = weak_skill_tests(isolated_steps(self._outcomes(model)), shuffles=1).set_index("skill")
        pooled["p_holm"] = holm(pooled["crude_p"].tolist())
        rows = []
        for entry in self.numbers(model).diagnosis.tested_skills:
            crude = pooled.loc[entry.skill]
            neighbours = entry.neighbours_accuracy
            rows.append({"skill": entry.skill, "right alone": percent_text(entry.isolated_accuracy.value),
                         "all other steps": percent_text(crude["rest_accuracy"]),
                         "pooled: named weak": bool(crude["p_holm"] < alpha and crude["crude_effect"] > 0),
                         "its neighbours": percent_text(neighbours.value) if neighbours else "none",
                         "like with like": entry.standing or ("weak" if entry.weak else "not weak")})
        return pd.DataFrame(rows)

    def untested(self, model: str | None = None) -> dict[str, int]:
        """Skills of the run's steps that the diagnosis did not test, with their number of steps."""
        numbers = self.numbers(model)
        tested = {entry.skill for entry in numbers.diagnosis.tested_skills}
        return {skill: int(entry.occurrences) for skill, entry in sorted(numbers.per_skill.items())
                if skill not in tested}

    def scores_and_gaps(self) -> pd.DataFrame:
        """Per target: accuracy as asked, the composition gap, and the skills named weak (each with its interval)."""
        rows = []
        for model in self.models:
            numbers = self.numbers(model)
            diagnosis, gap = numbers.diagnosis, numbers.diagnosis.composition_effect
            rows.append({"target": model, "tasks": numbers.n_tasks,
                         "accuracy as asked": _interval(numbers.accuracy_original, percent=True),
                         "composition gap (points)": (_interval(gap, percent=False) if gap and gap.value is not None
                                                      else "not computed"),
                         "fails to chain": diagnosis.composition_failure,
                         "skills named weak": ", ".join(diagnosis.weak_skills) or "none"})
        return pd.DataFrame(rows)

    def accuracy_statement(self) -> str:
        """07's first claim for the first pair: both accuracies as asked on the same tasks and their difference."""
        from ..analysis import accuracy_statement

        if not self.comparison or not self.comparison.comparisons:
            raise ValueError("this run compared no targets: run_exercise(..., compare=True) with two targets")
        return accuracy_statement(self.comparison.comparisons[0])

    def penalty_fit(self, model: str | None = None) -> PenaltyFit:
        """The composition penalty estimated from one model's outcomes (`estimate_composition_penalty`), to set beside
        the planted one, with its 95% likelihood-ratio interval and the tasks behind it.
        """
        return estimate_composition_penalty(self._outcomes(model or self.models[0]))

    def _outcomes(self, model: str) -> list:
        """One model's outcomes of this run (``outcomes.jsonl``)."""
        from ..records import Outcome, read_records

        return [o for o in read_records(RunPaths(self.folder).outcomes, Outcome.model_validate) if o.model == model]

    def evidence(self, model: str | None = None):
        """The front-page evidence figure of one model's diagnosis (`stad_utils.report.figures.plot_diagnosis`)."""
        from ..report import plot_diagnosis

        model = model or self.models[0]
        return plot_diagnosis(self.numbers(model), model)

    def context_evidence(self, model: str | None = None):
        """Accuracy asked alone by step position and by task length, with intervals (`plot_context`): the
        evidence of a sentence about a harder context.
        """
        from ..report import plot_context

        model = model or self.models[0]
        return plot_context(self.numbers(model), model)

    def side_by_side(self):
        """Every target in a column of its own (`plot_same_score_different_breaks`): accuracy as asked, then
        where each one breaks, with 07's accuracy statement when the run compared them.
        """
        from ..report import plot_same_score_different_breaks

        return plot_same_score_different_breaks(self.summary, self.models, comparison=self.comparison)


def headlines_markdown(*runs: WorkshopRun) -> str:
    """Each run's targets, what was planted in them and their diagnosis headline, as markdown paragraphs."""
    return "\n\n".join(f"**{run.n_tasks} tasks · `{row['target']}`** (planted: {row['planted']})  \n{row['diagnosis']}"
                        for run in runs for _, row in run.headlines().iterrows())


def _interval(entry: Estimate, *, percent: bool) -> str:
    low, high = entry.ci95
    if percent:
        return f"{percent_text(entry.value)} ({percent_text(low)}–{percent_text(high)}, n = {entry.n:g})"
    return f"{points(entry.value).replace('+0', '0')} ({points(low)} to {points(high)}, n = {entry.n:g})"


def run_exercise(folder: Path | str, targets: Sequence[dict], *, n_tasks: int = 30, seed: int = 0,
                 compare: bool = False, n_resamples: int = 1000, n_permutations: int = 1000) -> WorkshopRun:
    """Run 01 → 06 (and 07 with ``compare``) on generated tasks for the targets, into a fresh ``folder``.

    Parameters
    ----------
    folder : the run folder. It is emptied first if an earlier workshop run wrote it; a folder holding
        anything else is refused.
    targets : simulated targets (`simulated_target`) or models on an OpenAI-compatible server
        (`served_target`); the embedded model is left out, as it needs an extra a workshop laptop lacks.
    n_tasks, seed : the generated tasks (`TASK_OPTIONS` fixes the rest).
    compare : also run 07_compare (two targets or more).
    n_resamples, n_permutations : 06's and 07's bootstrap resamples, 07's permutations.
    """
    from ..stages import analyze, decompose, evaluate, scaffold, skills, tasks
    from ..stages import compare as compare_stage

    targets = [dict(target) for target in targets]
    if not targets or any(target.get("kind", "openai") not in ("simulated", "openai") for target in targets):
        raise ValueError("the workshop asks simulated targets (simulated_target) or a served model (served_target)")
    if compare and len(targets) < 2:
        raise ValueError("compare needs two targets")
    folder = Path(folder)
    _fresh(folder)
    paths, cache = RunPaths(folder), str(folder / "cache.sqlite")
    seconds: dict[str, float] = {}
    started = time.perf_counter()

    def timed(stage: str, call):
        begun = time.perf_counter()
        with _quiet():
            result = call()
        seconds[stage] = round(time.perf_counter() - begun, 2)
        return result

    timed("01_tasks", lambda: tasks.run(paths, tasks.Params(n_tasks=n_tasks, seed=seed, **TASK_OPTIONS)))
    timed("02_decompose", lambda: decompose.run(paths, decompose.Params(cache_path=cache)))
    timed("03_scaffold", lambda: scaffold.run(paths, scaffold.Params(cache_path=cache)))
    timed("04_skills", lambda: skills.run(paths, skills.Params(embedding_model="tfidf", skill_source="label",
                                                                  cache_path=cache)))
    timed("05_evaluate", lambda: evaluate.run(paths, evaluate.Params(targets=targets, cache_path=cache)))
    analysis = timed("06_analyze", lambda: analyze.run(paths, analyze.Params(n_resamples=n_resamples)))
    comparison = None
    if compare:
        comparison = timed("07_compare", lambda: compare_stage.run(paths, compare_stage.Params(
            n_permutations=n_permutations, n_resamples=n_resamples))).comparison
    seconds["total"] = round(time.perf_counter() - started, 2)
    return WorkshopRun(folder=folder, targets=targets, n_tasks=n_tasks, summary=analysis.summary,
                       comparison=comparison, seconds=seconds)


def how_often_found(simulation: dict, sizes: Sequence[int] = (30, 100, 200), repetitions: int = 20, *,
                    seed: int = 0) -> pd.DataFrame:
    """How often a planted weak skill is named, per number of tasks, over repeated runs on fresh tasks.

    `stad_utils.analysis.power_curve` (08's read-out): repetition *r* generates new tasks with seed
    ``seed + r`` (the exercise's families and numbers of steps; operands up to 9) and lets the target draw
    afresh; the skills are flagged by `stad_utils.analysis.flag_weak_skills` (Holm over the skills alone, without
    the composition test the diagnosis adds to the family). One row per number of tasks: the runs, the share
    that named each planted skill, the share that named exactly the planted skills, and the share with any
    skill named wrongly.
    """
    from ..analysis import power_curve, power_table

    planted = Simulation.model_validate(simulation)
    trials = power_curve({**planted.model_dump(), "seed": seed}, sizes, repetitions, seed=seed,
                         families=TASK_OPTIONS["families"], min_steps=TASK_OPTIONS["min_steps"],
                         max_steps=TASK_OPTIONS["max_steps"])
    table = power_table(trials, planted.weak_skills())
    found = [column for column in table.columns if column.startswith("found: ")]
    table = table[["n_tasks", "repetitions", *found, "skills_recovered", "any_false_flag"]].rename(columns={
        "n_tasks": "tasks", "repetitions": "runs", "skills_recovered": "named exactly the planted skills",
        "any_false_flag": "named a skill wrongly", **{column: f"named {column[len('found: '):]}" for column in found}})
    return table.reset_index(drop=True)


def exercise_ladders(n_tasks: int = 200, seed: int = 0) -> list:
    """The exercises' generated tasks as verified ladders of their reference steps (what the oracle teacher builds)."""
    from ..records import Ladder
    from ..tasks import generate_tasks

    options: dict[str, Any] = {k: tuple(v) if k == "families" else v for k, v in TASK_OPTIONS.items()}
    tasks = generate_tasks(n_tasks, seed=seed, **options)
    return [Ladder(task=task, teacher="oracle", steps=task.reference_steps, scaffolds=task.reference_scaffolds,
                   isolated=task.reference_isolated, verified=True) for task in tasks]


def matching_penalty(step_accuracy: dict[str, float], *, n_tasks: int = 200, seed: int = 0) -> float:
    """The composition penalty that gives a target without weak skills the accuracy as asked of ``step_accuracy``.

    The target without weak skills does every step alone with the ``default`` chance of
    ``step_accuracy``; both targets then solve the exercise's generated tasks as asked equally often
    in expectation (`stad_utils.models.matching_penalty`), one because it misses a skill, the other
    because it fails to chain.
    """
    from ..models import expected_accuracy
    from ..models import matching_penalty as penalty_for

    ladders = exercise_ladders(n_tasks, seed)
    weak = Simulation(step_accuracy=step_accuracy)
    chaining = Simulation(step_accuracy={"default": weak.accuracy(None)})
    goal = expected_accuracy(weak, ladders)
    if expected_accuracy(chaining, ladders) <= goal:
        return 0.0
    return penalty_for(chaining, goal, ladders)
