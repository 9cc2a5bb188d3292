"""One official row ↔ the project's records.

Reading (`from_row`) maps each field onto a record:

====================================  ==========================================================
official field                        project record
====================================  ==========================================================
``id`` (release only), ``question``   ``Task.task_id`` (else `task_id_for` the question), ``Task.question``
``answer`` (string or number)         ``Task.answer`` (as text; null or empty is an error)
``solution``, ``category``            ``Task.solution``, ``Task.category``
``sub-task`` [{segment, skill?}]      ``Decomposition.steps[i].description`` / ``.skill``
``sub-task-answer`` [{explanation,    ``Decomposition.steps[i].explanation`` / ``.answer`` (paired
answer}]                              as the official code pairs them: ``zip``, the shorter wins;
                                      an item without ``answer``, or with a null one, is an error)
``scaffolding`` [str | null]          ``Ladder.scaffolds`` (null → "")
``scaffolding_verification``          ``Ladder.verification``: `LevelCheck` (answer, correct =
[{answer?, score, justification}]     ``score == 1`` as in the official filter, justification);
                                      a row with ``decompositions`` but no verification is an error
``decompositions`` [str]              ``Ladder.isolated``
``evaluation``, ``evaluation_score``  the original's `Verdict` (response; outcome from the score)
``decomposition_evaluation`` [str],   one isolated `Verdict` per step
``decomposition_score``
{"decomposition": [...]}
``scaffolding_evaluation`` [str],     one scaffold `Verdict` per level
``scaffolding_score``
{"scaffolding": [...]}
any other key                         kept in ``Task.official``
====================================  ==========================================================

Rows never guess: a ``null`` never becomes the text ``"None"``, and a value the official
scripts always write is never made up when it is missing; such a row is a `RecordError` naming the
field (readers skip it with ``skip_invalid``). A file's rows must be distinct tasks: see `identity`.

A score means: 1 correct, 0 wrong (``no_answer`` for an empty reply), −1 an error (the
official code's failed call or unparsable judge reply), anything else undecided; a score
written as a string (``"1"``) is read by its number. A reply not scored yet is undecided.

Writing (`to_row`) does the reverse for one `FileKind`. The project writes an error or an
undecided verdict as ``null``, never as 0. ``Task.official`` holds the row as read: its keys
the project does not model are written back as they were, and so is every modelled value
while the project's value for it is unchanged — so a numeric ``answer`` stays a number, a
score ``"1"`` stays a string and a ``null`` scaffold stays ``null``. In particular
official file → project → official file gives the same rows, field for field.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..judge import infer_format
from ..records import Decomposition, Ladder, LevelCheck, RecordError, Step, Task, Verdict
from ._fields import (
    ANSWER,
    CATEGORY,
    CHAIN,
    CHAIN_FIELDS,
    DECOMPOSITION_EVALUATION,
    DECOMPOSITION_SCORE,
    DECOMPOSITIONS,
    EVALUATION,
    EVALUATION_SCORE,
    ID,
    QUESTION,
    SCAFFOLDING,
    SCAFFOLDING_EVALUATION,
    SCAFFOLDING_SCORE,
    SCAFFOLDING_VERIFICATION,
    SOLUTION,
    SUB_TASK,
    SUB_TASK_ANSWER,
    TASK_FIELDS,
    FileKind,
    fields_of,
    kind_of,
)

TEACHER = "official"
"""The ``teacher`` of records read from official files."""
DECIDED_BY = "official_judge"
"""The ``decided_by`` of verdicts whose score an official file gives."""


def task_id_for(question: str) -> str:
    """The task id of an official row without ``id``: ``official-`` and 12 hex digits of the question's SHA-256.

    The official scripts never change ``question``, and join files on it, so every file of
    both chains gives a task the same id.

    Examples
    --------
    >>> task_id_for("How many slots?")
    'official-01ddd69834da'
    """
    return "official-" + hashlib.sha256(question.encode("utf-8")).hexdigest()[:12]


def identity(task: Task) -> tuple[str, str]:
    """The field a task read from an official row is known by, and its id: ``id``, else its ``question``.

    Readers of official rows pass it as ``unique_by`` (`stad_utils.records.read_records`): a row
    repeating an earlier row's id, or its question when the rows have no id, is refused like any
    bad row, never renamed (the official scripts join their files on the question, so they could
    not tell such rows apart either).

    Examples
    --------
    >>> identity(from_row({"question": "Q?", "answer": 1}).task)
    ('question', 'official-c1ce7ac69e62')
    """
    return (ID if task.official.get(ID) is not None else QUESTION), task.task_id


@dataclass
class Imported:
    """What the project makes of one official row: the records its fields fill.

    ``decomposition`` is set when the row has ``sub-task``, ``ladder`` when it has
    ``scaffolding``, ``verdicts`` when it has evaluation fields; ``kind`` is the furthest file
    kind the row's fields reach.
    """

    task: Task
    kind: FileKind
    decomposition: Decomposition | None = None
    ladder: Ladder | None = None
    verdicts: list[Verdict] = field(default_factory=list)

    @property
    def record(self) -> Task | Decomposition | Ladder:
        """The most advanced record: the ladder, else the decomposition, else the task."""
        return self.ladder or self.decomposition or self.task


# ---------------------------------------------------------------- reading


def from_row(row: dict, *, model: str = "official", source: str = "official") -> Imported:
    """The project's records for one official row (a `RecordError` names a bad field).

    Parameters
    ----------
    row : one line of any official file, or of the published release.
    model : the target named in evaluation verdicts (the official config's ``debugging_model_name``).
    source : ``Task.source`` of the task.

    Examples
    --------
    >>> imported = from_row({"question": "Ann is free 9-11, Bo 10-12. Overlap in hours?", "answer": 1})
    >>> imported.task.task_id, imported.task.answer, imported.kind.name
    ('official-a2147b1ea20d', '1', 'input')
    """
    task = _task(row, source)
    imported = Imported(task=task, kind=kind_of(row))
    if SUB_TASK in row:
        imported.decomposition = _decomposition(row, task)
    if SCAFFOLDING in row:
        imported.ladder = _ladder(row, imported.decomposition)
    imported.verdicts = _verdicts(row, task, imported.ladder, model)
    return imported


def _task(row: dict, source: str) -> Task:
    question = row.get(QUESTION)
    if not isinstance(question, str) or not question.strip():
        raise RecordError("", 0, QUESTION, "missing or empty: every official row needs its question text")
    if ANSWER not in row:
        raise KeyError(ANSWER)
    if row[ANSWER] is None:
        raise RecordError("", 0, ANSWER, "null: the gold answer is needed to judge replies")
    answer = _text(row[ANSWER])
    if not answer.strip():
        raise RecordError("", 0, ANSWER, "empty: the gold answer is needed to judge replies")
    task_id = str(row[ID]) if row.get(ID) is not None else task_id_for(question)
    return Task(task_id=task_id, source=source, question=question, answer=answer, answer_format=infer_format(answer),
                solution=_optional_text(row.get(SOLUTION)), category=_optional_text(row.get(CATEGORY)),
                official=dict(row))


def _decomposition(row: dict, task: Task) -> Decomposition:
    segments = _list(row, SUB_TASK)
    if SUB_TASK_ANSWER in row:
        answers = _list(row, SUB_TASK_ANSWER)
        steps = [Step(description=_item_text(segment, "segment"), skill=_skill(segment),
                      explanation=_item_text(answer, "explanation"), answer=_step_answer(number, answer))
                 for number, (segment, answer) in enumerate(zip(segments, answers), start=1)]
    else:
        steps = [Step(description=_item_text(segment, "segment"), skill=_skill(segment), answer="")
                 for segment in segments]
    passed = SCAFFOLDING in row  # only rows that passed the consistency filter get scaffolds
    reason = None if passed else (
        "not solved yet: the row has no 'sub-task-answer'" if SUB_TASK_ANSWER not in row
        else "the official consistency filter has not run yet: the row has no 'scaffolding'")
    return Decomposition(task=task, teacher=TEACHER, steps=steps, consistent=passed, drop_reason=reason)


def _step_answer(number: int, item: Any) -> str:
    """Step ``number``'s answer; the official code keeps only items with both ``explanation`` and ``answer``."""
    if not isinstance(item, dict) or ANSWER not in item:
        raise RecordError("", 0, SUB_TASK_ANSWER, f"item {number} has no 'answer': {item!r}")
    if item[ANSWER] is None:
        raise RecordError("", 0, SUB_TASK_ANSWER, f"item {number}'s 'answer' is null")
    return _text(item[ANSWER])


def _ladder(row: dict, decomposition: Decomposition | None) -> Ladder:
    if decomposition is None:
        raise KeyError(SUB_TASK)
    if DECOMPOSITIONS in row and SCAFFOLDING_VERIFICATION not in row:
        raise RecordError("", 0, SCAFFOLDING_VERIFICATION, "missing: a row with 'decompositions' (a final row) "
                                                           "passed verification only if it says so")
    checks = [_level_check(level, item) for level, item in
              enumerate(_list(row, SCAFFOLDING_VERIFICATION) if SCAFFOLDING_VERIFICATION in row else [], start=1)]
    failed = [check.level for check in checks if not check.correct]
    reason = (f"the official verification failed at level(s) {failed}" if failed
              else "not finished yet: the row has no 'decompositions'" if DECOMPOSITIONS not in row else None)
    return Ladder(task=decomposition.task, teacher=TEACHER, steps=decomposition.steps,
                  scaffolds=[_optional_text(text) or "" for text in _list(row, SCAFFOLDING)],
                  isolated=[_optional_text(text) or "" for text in row.get(DECOMPOSITIONS) or []],
                  verification=checks, verified=reason is None, drop_reason=reason)


def _level_check(level: int, item: Any) -> LevelCheck:
    if not isinstance(item, dict):
        raise RecordError("", 0, SCAFFOLDING_VERIFICATION, f"item {level} is not an object: {item!r}")
    return LevelCheck(level=level, answer=_optional_text(item.get("answer")), correct=item.get("score") == 1,
                      decided_by=DECIDED_BY, justification=_item_text(item, "justification"))


def _verdicts(row: dict, task: Task, ladder: Ladder | None, model: str) -> list[Verdict]:
    verdicts = []
    if EVALUATION in row:
        verdicts.append(_verdict(task, model, "original", 0, task.question, task.answer,
                                 _optional_text(row[EVALUATION]) or "", _score(row, EVALUATION_SCORE)))
    if ladder is None:
        return verdicts
    for variant, replies_field, scores_field, prompts, references in (
            ("isolated", DECOMPOSITION_EVALUATION, DECOMPOSITION_SCORE, ladder.isolated,
             [step.answer for step in ladder.steps]),
            ("scaffold", SCAFFOLDING_EVALUATION, SCAFFOLDING_SCORE, ladder.scaffolds,
             [task.answer] * len(ladder.scaffolds))):
        if replies_field not in row:
            continue
        replies = _list(row, replies_field)
        scores = _score_list(row, scores_field, len(replies))
        for level, (reply, score) in enumerate(zip(replies, scores), start=1):
            verdicts.append(_verdict(task, model, variant, level, _at(prompts, level), _at(references, level),
                                     _optional_text(reply) or "", score))
    return verdicts


_UNSCORED = object()


def _score(row: dict, name: str) -> Any:
    return row[name] if name in row else _UNSCORED


def _score_list(row: dict, name: str, count: int) -> list:
    if name not in row:
        return [_UNSCORED] * count
    wrapper = row[name]
    key = name.removesuffix("_score")
    if not isinstance(wrapper, dict) or not isinstance(wrapper.get(key), list):
        raise RecordError("", 0, name, f'expected {{"{key}": [scores]}}, got {wrapper!r}')
    if len(wrapper[key]) != count:
        raise RecordError("", 0, name, f"{len(wrapper[key])} scores for {count} replies")
    return wrapper[key]


def _verdict(task: Task, model: str, variant: str, level: int, prompt: str, reference: str, response: str,
             score: Any) -> Verdict:
    outcome = "undecided" if score is _UNSCORED else _outcome(score, response)
    correct = {"correct": True, "wrong": False, "no_answer": False}.get(outcome)
    explanation = "not scored yet in the official file" if score is _UNSCORED else f"official score {score!r}"
    error = "the official code's call or judge failed (score -1)" if outcome == "error" else None
    return Verdict(task_id=task.task_id, model=model, variant=variant, level=level, prompt=prompt,
                   reference=reference, response=response, outcome=outcome, correct=correct, error=error,
                   decided_by="error" if error else DECIDED_BY if correct is not None else "none",
                   explanation=explanation, policy="on_failure")


def _outcome(score: Any, response: str) -> str:
    """What an official score says: 1 correct, 0 wrong (or no answer), −1 error, else undecided.

    Examples
    --------
    >>> [_outcome(s, "x") for s in (1, "1", 1.0, 0, -1, "yes", None)]
    ['correct', 'correct', 'correct', 'wrong', 'error', 'undecided', 'undecided']
    """
    try:
        value = float(score) if isinstance(score, (int, float, str)) and not isinstance(score, bool) else None
    except ValueError:
        value = None
    if value == 1:
        return "correct"
    if value == 0:
        return "wrong" if response.strip() else "no_answer"
    return "error" if value == -1 else "undecided"


# ---------------------------------------------------------------- writing

MODELLED = frozenset(TASK_FIELDS + CHAIN_FIELDS)
"""The keys whose values the project's records hold (every other key is carried through)."""


def to_row(record: Task | Decomposition | Ladder, verdicts: Iterable[Verdict] = (), *, kind: FileKind) -> dict:
    """The official row of ``kind`` for one record and, for the test chain, one model's verdicts on it.

    Fields come from the records; ``record``'s ``Task.official`` (the row it was read from,
    if any) gives the order of the keys, the keys the project does not model, and each value
    the project has not changed (see the module docstring). Of the verdicts, sample 0 counts,
    and the last one per question (a re-asked error is superseded).
    """
    fields = _fields(record, list(verdicts), kind)
    original = _task_of(record).official
    if not original:
        return fields
    as_read = _fields_as_read(original, kind)
    row = {}
    for key, value in original.items():
        if key not in MODELLED:
            row[key] = value
        elif key in fields:
            row[key] = value if key in as_read and as_read[key] == fields[key] else fields[key]
    return row | {key: value for key, value in fields.items() if key not in row}


def _fields_as_read(row: dict, kind: FileKind) -> dict:
    """The fields the project wrote for ``row`` right after reading it (at most up to ``kind``)."""
    imported = from_row(row)
    return _fields(imported.record, imported.verdicts, min(kind, imported.kind, key=CHAIN.index))


def _fields(record: Task | Decomposition | Ladder, verdicts: list[Verdict], kind: FileKind) -> dict:
    task = _task_of(record)
    row: dict[str, Any] = {} if _derived_id(task) else {ID: task.task_id}
    row |= {QUESTION: task.question, ANSWER: task.answer}
    row |= {name: value for name, value in ((SOLUTION, task.solution), (CATEGORY, task.category)) if value is not None}
    wanted = fields_of(kind)
    if SUB_TASK in wanted:
        row |= _step_fields(_steps_of(record, kind), wanted)
    if SCAFFOLDING in wanted:
        row |= _ladder_fields(_ladder_of(record, kind), wanted)
    if EVALUATION in wanted:
        row |= _evaluation_fields(_ladder_of(record, kind), verdicts, wanted)
    return row


def _step_fields(steps: list[Step], wanted: Sequence[str]) -> dict:
    row = {SUB_TASK: [{"segment": step.description} | ({"skill": step.skill} if step.skill is not None else {})
                      for step in steps]}
    if SUB_TASK_ANSWER in wanted:
        row[SUB_TASK_ANSWER] = [{"explanation": step.explanation, "answer": step.answer} for step in steps]
    return row


def _ladder_fields(ladder: Ladder, wanted: Sequence[str]) -> dict:
    row: dict[str, Any] = {SCAFFOLDING: list(ladder.scaffolds)}
    if SCAFFOLDING_VERIFICATION in wanted:
        row[SCAFFOLDING_VERIFICATION] = [
            ({"answer": check.answer} if check.answer is not None else {})
            | {"score": int(check.correct), "justification": check.justification}
            for check in ladder.verification]
    if DECOMPOSITIONS in wanted:
        row[DECOMPOSITIONS] = list(ladder.isolated)
    return row


def _evaluation_fields(ladder: Ladder, verdicts: list[Verdict], wanted: Sequence[str]) -> dict:
    by_question: dict[tuple[str, int], Verdict] = {(v.variant, v.level): v for v in verdicts
                                                   if v.task_id == ladder.task_id and v.sample == 0}
    if len({v.model for v in by_question.values()}) > 1:
        raise ValueError(f"verdicts of several models for task {ladder.task_id}: write one model's verdicts per file")
    original = by_question.get(("original", 0))
    row: dict[str, Any] = {EVALUATION: _reply(original)}
    if EVALUATION_SCORE in wanted:
        row[EVALUATION_SCORE] = official_score(original)
    for variant, count, replies_field, scores_field in (
            ("isolated", len(ladder.isolated), DECOMPOSITION_EVALUATION, DECOMPOSITION_SCORE),
            ("scaffold", len(ladder.scaffolds), SCAFFOLDING_EVALUATION, SCAFFOLDING_SCORE)):
        asked = [by_question.get((variant, level)) for level in range(1, count + 1)]
        if replies_field in wanted:
            row[replies_field] = [_reply(verdict) for verdict in asked]
        if scores_field in wanted:
            row[scores_field] = {scores_field.removesuffix("_score"): [official_score(v) for v in asked]}
    return {name: value for name, value in row.items() if name in wanted}


def official_score(verdict: Verdict | None) -> int | None:
    """A verdict's score in an official file: 1 correct, 0 wrong, ``None`` (null) for an error, undecided or missing.

    Examples
    --------
    >>> from stad_utils.records import Verdict
    >>> ask = dict(task_id="t", model="m", variant="original", level=0, prompt="Q?", reference="1", decided_by="x")
    >>> [official_score(Verdict(**ask, response=r, correct=c)) for r, c in (("1", True), ("2", False), (None, None))]
    [1, 0, None]
    """
    if verdict is None or verdict.correct is None:
        return None
    return int(verdict.correct)


# ---------------------------------------------------------------- small helpers


def _derived_id(task: Task) -> bool:
    """Whether the task's id is `task_id_for` its question (the row had no ``id``)."""
    return task.task_id == task_id_for(task.question)


def _task_of(record: Task | Decomposition | Ladder) -> Task:
    return record if isinstance(record, Task) else record.task


def _steps_of(record: Task | Decomposition | Ladder, kind: FileKind) -> list[Step]:
    if isinstance(record, Task):
        raise ValueError(f"a '{kind.name}' file needs decompositions or ladders, not tasks ({record.task_id})")
    return record.steps


def _ladder_of(record: Task | Decomposition | Ladder, kind: FileKind) -> Ladder:
    if not isinstance(record, Ladder):
        raise ValueError(f"a '{kind.name}' file needs ladders ({_task_of(record).task_id} has none)")
    return record


def _reply(verdict: Verdict | None) -> str:
    return (verdict.response or "") if verdict is not None else ""


def _list(row: dict, name: str) -> list:
    value = row[name]
    if not isinstance(value, list):
        raise RecordError("", 0, name, f"expected a list, got {type(value).__name__}")
    return value


def _at(values: Sequence[str], level: int) -> str:
    return values[level - 1] if level <= len(values) else ""


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _optional_text(value: Any) -> str | None:
    return None if value is None else _text(value)


def _item_text(item: Any, key: str) -> str:
    """``item[key]`` as text ("" when missing or null); an item that is no object is its own text."""
    return (_optional_text(item.get(key)) or "") if isinstance(item, dict) else _text(item)


def _skill(segment: Any) -> str | None:
    return _optional_text(segment.get("skill")) if isinstance(segment, dict) else None
