"""The typed record of every stage, one JSONL file each.

The data flows one way::

    Task ─► Decomposition ─► Ladder ─► StepSkill ─► Verdict ─► Outcome
    01_tasks  02_decompose   03_scaffold  04_skills   05_evaluate

Every record keeps the ``task_id`` it was born with in ``01_tasks``. Records are
pydantic models so that a malformed file fails loudly, naming the field.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

AnswerFormat = Literal["number", "clock", "duration", "date", "latex", "list", "set", "record", "text"]
"""How a gold answer is written, which decides how the judge compares it."""

VariantKind = Literal["original", "scaffold", "isolated"]


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


class Decomposition(BaseModel):
    """A teacher's steps for one task and the consistency check of its last step (stage 02)."""

    task: Task
    teacher: str
    steps: list[Step]
    consistent: bool  # the last step's answer equals the gold answer
    drop_reason: str | None = None

    @property
    def task_id(self) -> str:
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
    verification: list[LevelCheck] = []
    verified: bool = True
    drop_reason: str | None = None

    @property
    def task_id(self) -> str:
        return self.task.task_id

    @property
    def n_steps(self) -> int:
        return len(self.steps)


class StepSkill(BaseModel):
    """The skill of one step (stage 04)."""

    task_id: str
    step: int  # 1-based
    description: str
    label: str | None  # the known label, if any
    cluster: int
    skill: str  # the name used in the analysis


class Verdict(BaseModel):
    """One question put to the target and the judge's decision on its answer (stage 05).

    ``level`` is the scaffold level *j* for originals (0) and scaffolds, and the step
    number *i* for isolated questions. ``correct`` is ``None`` when no answer could be
    obtained (``error`` says why): such items are never scored as wrong.
    """

    task_id: str
    model: str
    variant: VariantKind
    level: int
    prompt: str
    reference: str
    response: str | None
    error: str | None = None
    extracted: str | None = None
    correct: bool | None
    decided_by: str  # "deterministic", "math_verify", "llm_judge", "no_answer" or "error"
    latency_s: float | None = None
    cached: bool = False


class Outcome(BaseModel):
    """A task's success curve over scaffold levels and its minimal scaffolding level k (stage 05)."""

    task_id: str
    model: str
    source: str
    n_steps: int
    skills: list[str]
    curve: list[bool | None]  # success at level j = 0…K−1, None where no answer was obtained
    isolated: list[bool | None]  # success on step i = 1…K asked alone
    k: int | None  # 0, j > 0, −1 (intractable) or None (undetermined because of errors)
    non_monotonic: bool  # solved at some level but failed at a higher one
    n_errors: int
