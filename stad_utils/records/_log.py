"""The rules by which every reader takes the append-only logs: the key of a verdict and of an
outcome, the latest record of a key wins, and a verdict's judged outcome (older files included).

Every reader applies them from here: `stad_utils.records.columnar` in SQL (its keys and
orderings are these tuples joined), the evaluation to resume, the browser and the figures.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from pathlib import Path
from typing import TypeVar

from ._records import JudgeOutcome, Verdict
from ._store import RecordFile

R = TypeVar("R")

VERDICT_KEY = ("task_id", "model", "variant", "level", "sample")
"""The fields naming one question put to one model once: a verdict's key (`latest_records`)."""

QUESTION_KEY = tuple(field for field in VERDICT_KEY if field != "model")
"""The fields naming one question of a run, whichever model it is put to: task, variant, level and sample."""

verdict_key = attrgetter(*VERDICT_KEY)
"""A verdict's values of `VERDICT_KEY`."""

question_key = attrgetter(*QUESTION_KEY)
"""A verdict's (or an asked question's) values of `QUESTION_KEY`."""

OUTCOME_KEY = ("task_id", "model", "sample")
"""The fields naming one task's outcome for one model and sample: an outcome's key (`latest_records`)."""

outcome_key = attrgetter(*OUTCOME_KEY)
"""An outcome's values of `OUTCOME_KEY` (and a verdict's: the outcome it counts toward)."""

VerdictKey = tuple[str, str, str, int, int]
"""A verdict's values of `VERDICT_KEY`."""

OUTCOME_BEFORE_OUTCOMES: dict[bool | None, JudgeOutcome] = {True: "correct", False: "wrong", None: "error"}
"""A verdict's outcome read from ``correct``, for files written before verdicts had an ``outcome``."""


def verdict_store(path: Path | str) -> RecordFile[Verdict]:
    """The append-only verdict file of a run, keyed by `VERDICT_KEY` (several targets may append to it at once)."""
    return RecordFile(path, Verdict, key=lambda verdict: "|".join(map(str, verdict_key(verdict))))


def latest_records(records: Iterable[R], key: Sequence[str]) -> dict[tuple, R]:
    """The last record of each key, by its values of the ``key`` fields, in the order the keys first come.

    The logs are append-only: a re-asked question, a re-judged reply or a re-derived outcome is a
    later line of the same key, and supersedes the earlier ones; several logs read one after the
    other, a later log's record wins. `stad_utils.records.columnar` applies the same rule in SQL.
    """
    key_of = attrgetter(*key)
    return {key_of(record): record for record in records}


def latest_verdicts(verdicts: Iterable[Verdict]) -> dict[VerdictKey, Verdict]:
    """The last verdict per `VERDICT_KEY` (`latest_records`): a re-asked item supersedes an error.

    Examples
    --------
    >>> from stad_utils.records import Verdict
    >>> def ask(correct, sample=0):
    ...     return Verdict(task_id="t", model="m", variant="original", level=0, sample=sample, prompt="p",
    ...                    reference="1", response="1", correct=correct, decided_by="deterministic")
    >>> latest = latest_verdicts([ask(None), ask(True), ask(False, sample=1)])
    >>> [(key[-1], v.correct) for key, v in latest.items()]
    [(0, True), (1, False)]
    """
    return latest_records(verdicts, VERDICT_KEY)


def judged_outcome(verdict: Verdict) -> JudgeOutcome:
    """The judge's outcome of a verdict, read from ``correct`` for files written before outcomes existed.

    The column ``judged`` of `stad_utils.records.columnar`'s verdicts is the same rule in SQL.

    >>> from stad_utils.records import Verdict
    >>> old = Verdict(task_id="t", model="m", variant="original", level=0, prompt="p", reference="1",
    ...               response="2", correct=False, decided_by="deterministic")
    >>> judged_outcome(old), judged_outcome(old.model_copy(update={"outcome": "no_answer"}))
    ('wrong', 'no_answer')
    """
    return verdict.outcome or OUTCOME_BEFORE_OUTCOMES[verdict.correct]


def is_undecided(verdict: Verdict) -> bool:
    """A reply no judge stage could decide (never an error, never wrong)."""
    return verdict.outcome == "undecided"


def is_error(verdict: Verdict) -> bool:
    """No usable verdict for a reason other than indecision: no reply, or no usable judge verdict."""
    return verdict.correct is None and not is_undecided(verdict)
