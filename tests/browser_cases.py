"""Seeded run folders that exercise every corner of the failure browser's data, for `test_browser_golden.py`.

Two runs on overlapping tasks: several samples, re-asked questions (a later line replaces an
earlier one), a later run replacing an earlier run's record, verdicts written before outcomes
existed (``outcome`` missing, read from ``correct``), a judge stage outside the cascade, a
question the ladder does not have, placebo levels, a task with verdicts but no outcome and one
with an outcome but no verdict, a task with records but no ladder, a ladder never evaluated,
steps without a skill record, a scaffold that states the answer, and a model name outside ASCII.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from stad_utils.records import Ladder, Outcome, RunPaths, Step, StepSkill, Task, Verdict

OUTCOMES = ("correct", "correct", "wrong", "no_answer", "undecided", "error")
STAGES = ("deterministic", "math_verify", "llm_judge", "custom-judge")


def _ladder(rng: random.Random, task_id: str) -> Ladder:
    n_steps = rng.randint(1, 4)
    answer = str(rng.randint(10, 99))
    steps = [Step(description=f"step {i} of {task_id}", answer=str(rng.randint(1, 9)),
                  skill=rng.choice(["addition", "subtraction", None])) for i in range(1, n_steps + 1)]
    steps[-1].answer = answer
    question = f"Question {task_id}: what is it?"
    scaffolds = [f"{question} Known: step {j} gives {answer if task_id.endswith('7') else j}."
                 for j in range(1, n_steps)]
    return Ladder(task=Task(task_id=task_id, source=rng.choice(["gsm8k", "math_hard"]), question=question,
                            answer=answer),
                  teacher="oracle", steps=steps, scaffolds=scaffolds,
                  isolated=[f"Alone: step {i} of {task_id}?" for i in range(1, n_steps + 1)],
                  placebos=[f"{question} A robe is a garment." for _ in scaffolds] if rng.random() < 0.3 else [])


def _questions(ladder: Ladder) -> list[tuple[str, int, str]]:
    final = ladder.task.answer
    return ([("original", 0, final)] + [("scaffold", j, final) for j in range(1, ladder.n_steps)]
            + [("isolated", i, step.answer) for i, step in enumerate(ladder.steps, start=1)]
            + [("placebo", j, final) for j in range(1, len(ladder.placebos) + 1)])


def _verdict_line(rng: random.Random, task_id: str, model: str, variant: str, level: int, sample: int,
                  reference: str) -> str:
    outcome = rng.choice(OUTCOMES)
    verdict = Verdict(
        task_id=task_id, model=model, variant=variant, level=level, sample=sample, prompt=f"{variant} {level}?",
        reference=reference, response=None if outcome == "error" else f"[{model}] it is {rng.randint(1, 99)}",
        error="HTTP 500" if outcome == "error" else None, extracted=None if outcome == "error" else reference,
        outcome=outcome, correct={"correct": True, "wrong": False, "no_answer": False}.get(outcome),
        decided_by=("error" if outcome == "error" else "none" if outcome in ("undecided", "no_answer")
                    else rng.choice(STAGES)),
        truncated=outcome == "no_answer" and rng.random() < 0.5, judge_version="test")
    fields = verdict.model_dump(mode="json")
    if rng.random() < 0.1:  # written before outcomes existed
        del fields["outcome"]
    return json.dumps(fields, ensure_ascii=False)


def _outcome_line(rng: random.Random, ladder: Ladder, model: str, sample: int) -> str:
    def marks(n: int) -> list[bool | None]:
        return [rng.choice([True, True, False, None]) for _ in range(n)]

    outcome = Outcome(task_id=ladder.task_id, model=model, source=ladder.task.source, n_steps=ladder.n_steps,
                      skills=["addition"] * ladder.n_steps, curve=marks(ladder.n_steps), isolated=marks(ladder.n_steps),
                      placebo=marks(len(ladder.placebos)), k=rng.choice([None, -1, *range(ladder.n_steps)]),
                      non_monotonic=rng.random() < 0.2, n_errors=0, sample=sample)
    return outcome.model_dump_json()


def _write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _write_run(rng: random.Random, root: Path, ladders: list[Ladder], evaluated: list[Ladder], models: list[str],
               samples: int) -> RunPaths:
    paths = RunPaths(root)
    _write_lines(paths.ladders, [ladder.model_dump_json() for ladder in ladders])
    _write_lines(paths.skills, [StepSkill(task_id=ladder.task_id, step=i, description=step.description,
                                          label=step.skill, cluster=0, skill=f"skill {i % 3}").model_dump_json()
                                for ladder in ladders for i, step in enumerate(ladder.steps, start=1)
                                if rng.random() < 0.8])
    verdicts, outcomes = [], []
    for ladder in evaluated:
        for model in models:
            for sample in range(rng.randint(1, samples)):
                if not ladder.task_id.endswith("5"):  # task …5: an outcome without verdicts
                    questions = _questions(ladder) + [("scaffold", ladder.n_steps + 3, ladder.task.answer)]
                    verdicts += [_verdict_line(rng, ladder.task_id, model, variant, level, sample, reference)
                                 for variant, level, reference in questions]
                    if rng.random() < 0.3:  # re-asked: the later line wins
                        variant, level, reference = rng.choice(questions)
                        verdicts.append(_verdict_line(rng, ladder.task_id, model, variant, level, sample, reference))
                if not ladder.task_id.endswith("6"):  # task …6: verdicts without an outcome
                    outcomes.append(_outcome_line(rng, ladder, model, sample))
    rng.shuffle(verdicts)
    _write_lines(paths.verdicts, verdicts)
    _write_lines(paths.outcomes, outcomes)
    return paths


def write_cases(root: Path, seed: int = 0) -> list[Path]:
    """Two run folders under ``root`` (the second adds a model and replaces some records); their paths."""
    rng = random.Random(seed)
    ladders = [_ladder(rng, f"t{i:02d}") for i in range(14)]
    first = _write_run(rng, root / "first", ladders[:12], ladders[:10] + ladders[11:12], ["qwen-7b", "granite-8b"],
                       samples=2)
    # the second run repeats t00–t03 (its ladders are ignored: the first run's win), adds t12, evaluates t13 without
    # a ladder, and answers as a new model and again as qwen-7b
    second_ladders = ladders[:4] + ladders[12:13]
    second = _write_run(rng, root / "second", second_ladders, second_ladders + ladders[13:14],
                        ["llama-ü-8b", "qwen-7b"], samples=3)
    return [first.root, second.root]
