"""The typed record of every stage, one JSONL file each.

The data flows one way::

    Task ─► Decomposition ─► Ladder ─► StepSkill ─► Verdict ─► Outcome
    01_tasks  02_decompose   03_scaffold  04_skills   05_evaluate

Every record keeps the ``task_id`` it was born with in ``01_tasks``. Records are
pydantic models so that a malformed file fails loudly, naming the field.
"""

from __future__ import annotations

import re
from typing import Any, Literal, TypeVar, get_args

from pydantic import BaseModel, Field, model_serializer, model_validator

AnswerFormat = Literal["number", "clock", "duration", "date", "latex", "list", "set", "record", "text"]
"""How a gold answer is written, which decides how the judge compares it."""

VariantKind = Literal["original", "scaffold", "isolated", "placebo"]
"""``placebo`` j: as long as scaffold j, stating j true but useless facts (a control for the content of a scaffold)."""

JudgeOutcome = Literal["correct", "wrong", "undecided", "no_answer", "error"]
"""What the judge made of one reply.

* ``correct`` / ``wrong``: the committed answer equals / differs from the reference in value;
* ``undecided``: the reply commits to something no stage could decide (a hedge, two answers,
  a form without a comparator, and no LLM judge); kept out of k like an error, and counted;
* ``no_answer``: the reply commits to no answer at all (a wrong answer; ``truncated`` tells
  whether ``max_tokens`` cut it off);
* ``error``: no reply could be obtained, or the LLM judge gave no usable verdict; never wrong.
"""

LadderPolicy = Literal["full", "on_failure"]
"""Which questions the target is asked: ``full`` (every level), or ``on_failure`` (the authors'
scripts: scaffold and isolated variants only for tasks whose original was failed)."""


class Step(BaseModel):
    """One minimal step of a task (a "segment" in the paper's code)."""

    description: str  # the action, never its result
    answer: str  # the step's intermediate result
    explanation: str = ""
    skill: str | None = None  # a known label (generated tasks, the official release)


class Task(BaseModel):
    """A benchmark question with its normalised gold answer (stage 01)."""

    task_id: str
    source: str  # e.g. "generated/word", "gsm8k", "math_hard", "tot_arithmetic"
    question: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    answer_format: AnswerFormat = "text"
    solution: str | None = None
    category: str | None = None
    # Generated tasks know their steps and variants exactly; the oracle teacher reads them.
    reference_steps: list[Step] | None = None
    reference_scaffolds: list[str] | None = None
    reference_isolated: list[str] | None = None
    # The row of an official file this task was read from, as read (`stad_utils.official`): its keys the
    # project does not model are written back, and so is each value while the project's value is unchanged.
    official: dict[str, Any] = {}
    reference_placebos: list[str] | None = None  # placebo levels 1…K−1 (see `stad_utils.method._placebo`)


DropCode = Literal["no_steps", "too_many_steps", "last_step_mismatch", "last_step_undecided", "single_step",
                   "wrong_variant_count", "teacher_failed_level", "level_undecided", "teacher_out_of_tokens",
                   "teacher_other"]
"""Why a filter dropped a task (``Decomposition.drop_code``, ``Ladder.drop_code``); ``drop_reason`` says it in words.

* 02 (`stages.decompose`): ``no_steps``, ``too_many_steps`` (more than ``MAX_STEPS``),
  ``last_step_mismatch`` (the last step's answer is not the gold answer), ``last_step_undecided``
  (the judge could not decide whether it is);
* 03 (`stages.build_ladders`): ``single_step`` (``drop_single_step``), ``wrong_variant_count``
  (not K−1 scaffolds and K isolated questions), ``teacher_failed_level`` (the teacher's answer
  to a scaffold level is wrong), ``level_undecided`` (the judge could not decide it);
* a reason the teacher gave itself: ``teacher_out_of_tokens`` (it ran out of tokens while
  reasoning) or ``teacher_other``.
"""

_DROP_SENTENCES: tuple[tuple[str, DropCode], ...] = (
    (r"^\d+ steps \(at most", "too_many_steps"),
    (r"^no (annotated )?steps?\b", "no_steps"),
    (r"does not match the gold answer", "last_step_mismatch"),
    (r"could not decide whether the last step", "last_step_undecided"),
    (r"^a single step", "single_step"),
    (r"teacher failed scaffold level", "teacher_failed_level"),
    (r"could not decide the teacher's answer", "level_undecided"),
    (r"^expected \d+ scaffolds", "wrong_variant_count"),
    (r"ran out of tokens", "teacher_out_of_tokens"),
)
"""The sentences the filters wrote before records carried a code, and the teachers' own reasons."""


def drop_code_of(reason: str | None) -> DropCode:
    """The code of a drop reason written in words: a record written before ``drop_code`` existed
    (derived once, when it is read), or a reason a teacher gave itself.

    Examples
    --------
    >>> drop_code_of("7 steps (at most 6)"), drop_code_of("last step answer '3' does not match the gold answer '4'")
    ('too_many_steps', 'last_step_mismatch')
    >>> drop_code_of("no annotated step in the solution"), drop_code_of("the teacher declined"), drop_code_of(None)
    ('no_steps', 'teacher_other', 'teacher_other')
    """
    return next((code for pattern, code in _DROP_SENTENCES if re.search(pattern, reason or "")), "teacher_other")


_Dropped = TypeVar("_Dropped", "Decomposition", "Ladder")


def _with_drop_code(record: _Dropped, *, kept: bool) -> _Dropped:
    """``record`` with the code of its drop reason when it was dropped and, written before codes existed, has none."""
    if not kept and record.drop_code is None:
        record.drop_code = drop_code_of(record.drop_reason)
    return record


class Decomposition(BaseModel):
    """A teacher's steps for one task and the consistency check of its last step (stage 02)."""

    task: Task
    teacher: str
    steps: list[Step]
    consistent: bool  # the last step's answer equals the gold answer
    drop_reason: str | None = None
    drop_code: DropCode | None = None  # set when not consistent; derived from drop_reason for older files

    @model_validator(mode="after")
    def _code_of_older_records(self) -> Decomposition:
        return _with_drop_code(self, kept=self.consistent)

    @property
    def task_id(self) -> str:
        """The id of the task decomposed."""
        return self.task.task_id


class LevelCheck(BaseModel):
    """The teacher's answer to one scaffold level during verification."""

    level: int
    answer: str | None
    correct: bool
    decided_by: str
    justification: str = ""


class Ladder(BaseModel):
    """A scaffolded task: the original, K−1 scaffold levels and K isolated steps (stage 03).

    ``scaffolds[j-1]`` is variant *j*: the question with the first *j* steps already solved.
    ``isolated[i-1]`` asks for step *i* alone, with the results of steps 1…i−1 given.
    """

    task: Task
    teacher: str
    steps: list[Step]
    scaffolds: list[str]
    isolated: list[str]
    placebos: list[str] = []  # placebos[j-1]: level j's control, the length of scaffold j, no step solved
    verification: list[LevelCheck] = []
    verified: bool = True
    drop_reason: str | None = None
    drop_code: DropCode | None = None  # set when not verified; derived from drop_reason for older files

    @model_validator(mode="after")
    def _code_of_older_records(self) -> Ladder:
        return _with_drop_code(self, kept=self.verified)

    @property
    def task_id(self) -> str:
        """The id of the task the ladder is built on."""
        return self.task.task_id

    @property
    def n_steps(self) -> int:
        """K, the number of steps."""
        return len(self.steps)


def evaluation_items(ladder: Ladder, *, original: bool = True, variants: bool = True, placebo: bool = False
                     ) -> list[tuple[VariantKind, int, str, str]]:
    """The ``(variant, level, prompt, reference)`` questions to put to the target for one ladder.

    Scaffold and placebo levels are judged against the gold final answer, isolated steps
    against the teacher's answer for that step.
    """
    items: list[tuple[VariantKind, int, str, str]] = []
    if original:
        items.append(("original", 0, ladder.task.question, ladder.task.answer))
    if variants:
        items += [("scaffold", j, text, ladder.task.answer) for j, text in enumerate(ladder.scaffolds, start=1)]
        items += [("isolated", i, text, step.answer)
                  for i, (text, step) in enumerate(zip(ladder.isolated, ladder.steps), start=1)]
        if placebo:
            items += [("placebo", j, text, ladder.task.answer) for j, text in enumerate(ladder.placebos, start=1)]
    return items


class StepSkill(BaseModel):
    """The skill of one step (stage 04)."""

    task_id: str
    step: int  # 1-based
    description: str
    label: str | None  # the known label, if any
    cluster: int
    skill: str  # the name used in the analysis


class Verdict(BaseModel):
    """One question put to the target and the judge's decision on its reply (stage 05).

    ``level`` is the scaffold (or placebo) level *j* for originals (0) and scaffolds, and the
    step number *i* for isolated questions; ``sample`` numbers repeated trials (0 … n−1).
    ``outcome`` is the judge's verdict (see `JudgeOutcome`); ``correct`` is ``True`` for
    ``correct``, ``False`` for ``wrong`` and ``no_answer``, and ``None`` when the reply could
    not be obtained or judged (``error``) or no stage could decide it (``undecided``): such
    items are never scored as wrong.
    """

    task_id: str
    model: str
    variant: VariantKind
    level: int
    sample: int = 0
    prompt: str
    reference: str
    response: str | None  # the answer: the reply without its reasoning trace, which is all the judge reads
    error: str | None = None
    extracted: str | None = None
    outcome: JudgeOutcome | None = None  # None only in files written before outcomes existed
    correct: bool | None
    decided_by: str  # "deterministic", "math_verify", "llm_judge", "none" (undecided / no answer) or "error"
    explanation: str = ""  # the deciding stage's reason, in a few words
    judge_version: str = ""  # which judge wrote this verdict (`stad_utils.judge.JUDGE_VERSION` + LLM judge model)
    finish_reason: str | None = None  # "stop", "length" (cut off by max_tokens), … as the server reported it
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    truncated: bool = False  # the reply was cut off by max_tokens
    policy: LadderPolicy = "full"
    simulated: bool = False  # written by a simulated target (`kind: simulated`), not by a model
    latency_s: float | None = None
    cached: bool = False
    reasoning: str | None = None  # a reasoning model's trace, kept apart from its answer (shown, never judged)
    reasoning_tokens: int | None = None  # of completion_tokens, the trace's, as the server reported them

    @model_serializer(mode="wrap")
    def _trace_fields_only_when_there_is_a_trace(self, write) -> dict[str, Any]:
        """A reply without a trace is written as before the trace fields existed, byte for byte."""
        written = write(self)
        for name in _TRACE_FIELDS:
            if written.get(name) is None:
                written.pop(name, None)
        return written


_TRACE_FIELDS = ("reasoning", "reasoning_tokens")


class Outcome(BaseModel):
    """A task's success curve over scaffold levels and its minimal scaffolding level k (stage 05).

    One outcome per (task, model, sample). Entries of ``curve``, ``isolated`` and ``placebo``
    are ``None`` where there is no decided verdict: not asked (``policy``), an error, or undecided.
    """

    task_id: str
    model: str
    source: str
    n_steps: int
    skills: list[str]
    curve: list[bool | None]  # success at level j = 0…K−1
    isolated: list[bool | None]  # success on step i = 1…K asked alone
    placebo: list[bool | None] = []  # success on placebo level j = 1…K−1 (empty when not asked)
    k: int | None  # 0, j > 0, −1 (intractable) or None (undetermined: an error or undecided verdict on the way)
    undetermined_by: Literal["error", "undecided"] | None = None  # why k is None: the first unanswered level's verdict
    non_monotonic: bool  # solved at some level but failed at a higher one
    n_errors: int
    n_undecided: int = 0
    truncated: list[bool] = []  # per curve level: the reply was cut off by max_tokens
    sample: int = 0
    policy: LadderPolicy = "full"
    simulated: bool = False

UNMAPPED = "unmapped"
"""The skill of a step that has no `StepSkill` record."""

POLICIES: tuple[str, ...] = get_args(LadderPolicy)


def check_policy(name: str) -> str:
    """Return ``name`` if it is a known ladder policy, else raise `ValueError`.

    Examples
    --------
    >>> check_policy("on_failure")
    'on_failure'
    >>> check_policy("on-failure")
    Traceback (most recent call last):
    ...
    ValueError: unknown policy 'on-failure'; known policies: full, on_failure
    """
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; known policies: {', '.join(POLICIES)}")
    return name


# ---------------------------------------------------------------- time problems

def clock(minutes: int) -> str:
    """Minutes after midnight as a 12-hour clock time, e.g. ``575 -> '9:35 AM'``."""
    hours, mins = divmod(minutes % (24 * 60), 60)
    suffix = "AM" if hours < 12 else "PM"
    return f"{(hours % 12) or 12}:{mins:02d} {suffix}"
