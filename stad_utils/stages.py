"""One function per arrow of the method; the notebooks call these and nothing else of substance.

    tasks ─decompose─► decompositions ─build_ladders─► ladders ─evaluate─► verdicts ─► outcomes
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import pandas as pd

from .judge import LLMJudgeFn, judge_answers
from .metrics import latest_verdicts
from .records import Decomposition, Ladder, LevelCheck, Task, Verdict
from .store import RecordFile
from .structured import Unavailable
from .teachers import Teacher

MAX_STEPS = 6
LadderPolicy = Literal["full", "on_failure"]


def decompose(tasks: Sequence[Task], teacher: Teacher, llm_judge: LLMJudgeFn | None = None) -> list[Decomposition]:
    """The teacher's steps for each task, with the paper's consistency filter.

    A decomposition is kept (``consistent=True``) when it has 1…6 steps and its last
    step's answer equals the gold answer; otherwise ``drop_reason`` says why. Tasks the
    teacher could not be reached for are left out (with a warning), so a re-run retries them.
    """
    proposals = teacher.decompose(tasks)
    _warn_unavailable(proposals, "decomposed")
    checks = judge_answers(
        [(steps[-1].answer if isinstance(steps, list) and steps else None, task.answer, task.answer_format)
         for task, steps in zip(tasks, proposals)],
        llm_judge,
    )
    result = []
    for task, steps, check in zip(tasks, proposals, checks):
        if isinstance(steps, Unavailable):
            continue
        if isinstance(steps, str):
            result.append(Decomposition(task=task, teacher=teacher.name, steps=[], consistent=False,
                                        drop_reason=steps))
            continue
        reason = None
        if not steps:
            reason = "no steps"
        elif len(steps) > MAX_STEPS:
            reason = f"{len(steps)} steps (at most {MAX_STEPS})"
        elif not check.correct:
            reason = f"last step answer {steps[-1].answer!r} does not match the gold answer {task.answer!r}"
        result.append(Decomposition(task=task, teacher=teacher.name, steps=steps, consistent=reason is None,
                                    drop_reason=reason))
    return result


def build_ladders(
    decompositions: Sequence[Decomposition], teacher: Teacher, llm_judge: LLMJudgeFn | None = None
) -> list[Ladder]:
    """Scaffold and isolated variants for each consistent decomposition, then verification.

    A ladder is ``verified`` when the teacher's answer to every scaffold level matches
    the gold final answer (the paper's verification filter); the checks are kept.
    """
    kept = [d for d in decompositions if d.consistent]
    variants = teacher.write_variants([(d.task, d.steps) for d in kept])
    _warn_unavailable(variants, "scaffolded")
    ladders = []
    for decomposition, written in zip(kept, variants):
        if isinstance(written, Unavailable):
            continue
        if isinstance(written, str):
            ladders.append(Ladder(task=decomposition.task, teacher=teacher.name, steps=decomposition.steps,
                                  scaffolds=[], isolated=[], verified=False, drop_reason=written))
            continue
        scaffolds, isolated = written
        expected = (len(decomposition.steps) - 1, len(decomposition.steps))
        reason = None
        if (len(scaffolds), len(isolated)) != expected:
            reason = f"expected {expected[0]} scaffolds and {expected[1]} isolated questions, " \
                     f"got {len(scaffolds)} and {len(isolated)}"
        ladders.append(Ladder(task=decomposition.task, teacher=teacher.name, steps=decomposition.steps,
                              scaffolds=scaffolds, isolated=isolated, verified=reason is None, drop_reason=reason))
    return _verify(ladders, teacher, llm_judge)


def _warn_unavailable(results: Sequence, what: str) -> None:
    missing = [r for r in results if isinstance(r, Unavailable)]
    if missing:
        warnings.warn(f"{len(missing)} task(s) could not be {what} ({missing[0]}); re-run the stage to retry them",
                      stacklevel=3)


def _verify(ladders: list[Ladder], teacher: Teacher, llm_judge: LLMJudgeFn | None) -> list[Ladder]:
    """Set each ladder's verification; ladders whose teacher answers did not arrive are left out."""
    todo = [(ladder, level, text) for ladder in ladders if ladder.verified
            for level, text in enumerate(ladder.scaffolds, start=1)]
    answers = teacher.solve([(ladder.task, text) for ladder, _, text in todo])
    checks = judge_answers(
        [(answer, ladder.task.answer, ladder.task.answer_format) for (ladder, _, _), answer in zip(todo, answers)],
        llm_judge,
    )
    unanswered = {id(ladder) for (ladder, _, _), answer in zip(todo, answers) if answer is None}
    for (ladder, level, _), answer, check in zip(todo, answers, checks):
        ladder.verification.append(LevelCheck(level=level, answer=answer, correct=bool(check.correct),
                                              decided_by=check.decided_by, justification=check.explanation))
    if unanswered:
        warnings.warn(f"{len(unanswered)} ladder(s) could not be verified (no teacher reply); re-run to retry them",
                      stacklevel=3)
    for ladder in ladders:
        failed = [check.level for check in ladder.verification if not check.correct]
        if ladder.verified and failed:
            ladder.verified = False
            ladder.drop_reason = f"teacher failed scaffold level(s) {failed}"
    return [ladder for ladder in ladders if id(ladder) not in unanswered]


def evaluation_items(ladder: Ladder, *, original: bool = True, variants: bool = True
                     ) -> list[tuple[str, int, str, str]]:
    """The ``(variant, level, prompt, reference)`` questions to put to the target for one ladder.

    Scaffold levels are judged against the gold final answer, isolated steps against the
    teacher's answer for that step.
    """
    items = [("original", 0, ladder.task.question, ladder.task.answer)] if original else []
    if variants:
        items += [("scaffold", j, text, ladder.task.answer) for j, text in enumerate(ladder.scaffolds, start=1)]
        items += [("isolated", i, text, step.answer)
                  for i, (text, step) in enumerate(zip(ladder.isolated, ladder.steps), start=1)]
    return items


def evaluate(
    ladders: Sequence[Ladder],
    target,
    store: RecordFile[Verdict] | Path | str,
    *,
    llm_judge: LLMJudgeFn | None = None,
    policy: LadderPolicy = "full",
) -> list[Verdict]:
    """Ask the target every question of every verified ladder, judge each answer, append verdicts.

    ``policy="full"`` asks the original, every scaffold level and every isolated step;
    ``policy="on_failure"`` (the authors' scripts) asks the variants only of tasks whose
    original was failed, which saves calls but leaves curves of solved tasks unknown.

    Resumable: questions that already have a verdict without error in ``store`` are not
    asked again; errored ones are re-asked, and the new verdict supersedes the old.
    Returns the current verdict of every question of this model.
    """
    if not isinstance(store, RecordFile):
        store = RecordFile(store, Verdict, key=lambda v: f"{v.task_id}|{v.model}|{v.variant}|{v.level}")
    ladders = [ladder for ladder in ladders if ladder.verified]
    done = {key for key, verdict in latest_verdicts(store.read()).items() if verdict.error is None}

    def ask(items: list[tuple[Ladder, tuple[str, int, str, str]]], desc: str) -> None:
        items = [(ladder, item) for ladder, item in items if (ladder.task_id, target.model, item[0], item[1]) not in done]
        if not items:
            return
        replies = target.chat([prompt for _, (_, _, prompt, _) in items], desc=desc)
        judgements = judge_answers(
            [(reply.text, reference, ladder.task.answer_format if variant != "isolated" else None)
             for (ladder, (variant, _, _, reference)), reply in zip(items, replies)],
            llm_judge,
        )
        store.append(
            Verdict(task_id=ladder.task_id, model=target.model, variant=variant, level=level, prompt=prompt,
                    reference=reference, response=reply.text, extracted=judgement.extracted,
                    error=reply.error or (f"judge: {judgement.explanation}" if judgement.decided_by == "error" else None),
                    correct=judgement.correct, decided_by=judgement.decided_by, latency_s=reply.latency_s,
                    cached=reply.cached)
            for (ladder, (variant, level, prompt, reference)), reply, judgement in zip(items, replies, judgements)
        )

    if policy == "full":
        ask([(ladder, item) for ladder in ladders for item in evaluation_items(ladder)], f"target {target.model}")
    else:  # the authors' policy: variants only for tasks whose original was failed
        ask([(ladder, item) for ladder in ladders for item in evaluation_items(ladder, variants=False)],
            f"target {target.model}, originals")
        current = latest_verdicts(store.read())
        failed = [ladder for ladder in ladders
                  if getattr(current.get((ladder.task_id, target.model, "original", 0)), "correct", None) is False]
        ask([(ladder, item) for ladder in failed for item in evaluation_items(ladder, original=False)],
            f"target {target.model}, variants")
    return [v for v in latest_verdicts(store.read()).values() if v.model == target.model]


def decomposition_agreement(candidate: Sequence[Decomposition], reference: Sequence[Decomposition]) -> pd.DataFrame:
    """How a teacher's decompositions compare with reference ones (e.g. an LLM teacher vs GSM8K's solutions).

    One row per task both have: step counts, whether both passed the consistency filter, and the
    share of the reference's step answers that also appear among the candidate's step answers
    (compared by value with the judge's deterministic stage).
    """
    by_id = {d.task_id: d for d in reference}
    rows = []
    for mine in candidate:
        theirs = by_id.get(mine.task_id)
        if theirs is None:
            continue
        matched = [any(judge_answers([(m.answer, t.answer, None)])[0].correct for m in mine.steps) for t in theirs.steps]
        rows.append({"task_id": mine.task_id, "steps": len(mine.steps), "reference_steps": len(theirs.steps),
                     "both_consistent": mine.consistent and theirs.consistent,
                     "reference_answers_found": sum(matched) / len(matched) if matched else None})
    return pd.DataFrame(rows, columns=["task_id", "steps", "reference_steps", "both_consistent",
                                       "reference_answers_found"])
