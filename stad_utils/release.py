"""Exchange with the paper's release format (HF ``ibm-research/STaD``, the authors' JSONL fields).

One official record is one scaffolded task::

    id, question, answer, solution, category,
    sub-task [{segment, skill}], sub-task-answer [{explanation, answer}],
    scaffolding [str], scaffolding_verification [{score, justification}], decompositions [str],
    evaluation, evaluation_score, scaffolding_evaluation, scaffolding_score,
    decomposition_evaluation, decomposition_score

`to_official` writes a `Ladder` (and, optionally, one model's verdicts) in that shape;
`from_official` reads it back, so already-scaffolded data can be evaluated without a
teacher. The evaluation fields' inner shape is not documented by the release; we write
``scaffolding_evaluation``/``decomposition_evaluation`` as lists of ``{"response": …}`` and
the scores as lists of 0/1, and read back strings or dicts alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from .judge import infer_format
from .records import Ladder, LevelCheck, Step, Task, Verdict
from .store import RecordError


def to_official(ladder: Ladder, verdicts: Iterable[Verdict] = ()) -> dict:
    """The official JSONL record of a ladder, with the evaluation fields of ``verdicts`` if given."""
    task = ladder.task
    record = {
        "id": task.task_id,
        "question": task.question,
        "answer": task.answer,
        **({"solution": task.solution} if task.solution is not None else {}),
        **({"category": task.category} if task.category is not None else {}),
        "sub-task": [{"segment": s.description, "skill": s.skill or ""} for s in ladder.steps],
        "sub-task-answer": [{"explanation": s.explanation, "answer": s.answer} for s in ladder.steps],
        "scaffolding": list(ladder.scaffolds),
        "scaffolding_verification": [{"score": int(c.correct), "justification": c.justification or c.answer or ""}
                                     for c in ladder.verification],
        "decompositions": list(ladder.isolated),
    }
    by_variant: dict[str, dict[int, Verdict]] = {"original": {}, "scaffold": {}, "isolated": {}}
    for verdict in verdicts:
        if verdict.task_id == task.task_id:
            by_variant[verdict.variant][verdict.level] = verdict
    if by_variant["original"]:
        original = by_variant["original"][0]
        record["evaluation"] = original.response or ""
        record["evaluation_score"] = int(bool(original.correct))
    for variant, field, count in (("scaffold", "scaffolding", len(ladder.scaffolds)),
                                  ("isolated", "decomposition", len(ladder.isolated))):
        found = by_variant[variant]
        if found:
            levels = [found.get(level) for level in range(1, count + 1)]
            record[f"{field}_evaluation"] = [{"response": v.response if v else None} for v in levels]
            record[f"{field}_score"] = [int(bool(v and v.correct)) for v in levels]
    return record


def from_official(record: dict, *, source: str = "stad_release") -> Ladder:
    """A `Ladder` from an official record (raises `KeyError` naming a missing field)."""
    segments, answers = record["sub-task"], record["sub-task-answer"]
    if len(segments) != len(answers):
        raise RecordError("", 0, "sub-task-answer", f"{len(answers)} answers for {len(segments)} sub-tasks")
    steps = [Step(description=_text(seg, "segment"), skill=(seg.get("skill") or None) if isinstance(seg, dict) else None,
                  explanation=str(ans.get("explanation", "")) if isinstance(ans, dict) else "",
                  answer=_text(ans, "answer")) for seg, ans in zip(segments, answers)]
    answer = str(record["answer"])
    task = Task(task_id=str(record["id"]), source=source, question=record["question"], answer=answer,
                answer_format=infer_format(answer), solution=record.get("solution"), category=record.get("category"))
    checks = [LevelCheck(level=level, answer=None, correct=int(check.get("score", 0)) == 1, decided_by="release",
                         justification=str(check.get("justification", "")))
              for level, check in enumerate(record.get("scaffolding_verification") or [], start=1)]
    return Ladder(task=task, teacher="stad_release", steps=steps, scaffolds=list(record.get("scaffolding") or []),
                  isolated=list(record.get("decompositions") or []), verification=checks,
                  verified=all(check.correct for check in checks))


def _text(item: dict | str, key: str) -> str:
    return str(item.get(key, "")) if isinstance(item, dict) else str(item)


def release_task(record: dict, *, source: str = "stad_release") -> Task:
    """A `Task` carrying an official record's steps and variants as its reference.

    The ``oracle`` teacher then serves it like a generated task, so already-scaffolded data
    is evaluated without a teacher model. Records that failed the authors' verification are
    refused (`RecordError`), since they would not be evaluated in the paper either.
    """
    ladder = from_official(record, source=source)
    if not ladder.verified:
        raise RecordError("", 0, "scaffolding_verification", "the record failed the authors' verification")
    return ladder.task.model_copy(update={"reference_steps": ladder.steps, "reference_scaffolds": ladder.scaffolds,
                                          "reference_isolated": ladder.isolated})
