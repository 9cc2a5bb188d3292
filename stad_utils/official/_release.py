"""The published scaffolded tasks (HF ``ibm-research/STaD``) as tasks the ``oracle`` teacher serves.

The release holds one final-file row per task, with an ``id`` (see `stad_utils.official` for
every field)::

    id, question, answer, solution, category (MATH-Hard), sub-task [{segment, skill}],
    sub-task-answer [{explanation, answer}], scaffolding [str], scaffolding_verification
    [{score, justification}], decompositions [str], …

`release_task` turns a row into a `Task` carrying the row's steps and variants as its
reference, so already-scaffolded data is evaluated without a teacher model. `load_release`
reads a local JSONL file, or one benchmark's file through `datasets` from the hub or from a
local folder in the same layout.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..records import RecordError, Task, collect_records, parse_record, read_records
from ._rows import from_row, identity

RELEASE_DATASET = "ibm-research/STaD"
RELEASE_FILES = {"gsm8k": "gsm8k_scaffolded.jsonl", "math_hard": "math_hard_scaffolded.jsonl",
                 "tot_arithmetic": "tot_arithmetic_scaffolded.jsonl"}
"""The release's file per benchmark (1,176, 773 and 1,448 tasks according to its dataset card)."""


def release_task(row: dict, *, source: str = "stad_release") -> Task:
    """A `Task` carrying a release row's steps, scaffolds and isolated questions as its reference.

    Rows the authors' verification did not pass, or that do not say it passed (no
    ``scaffolding_verification``), are refused (`RecordError`): the paper would not have
    evaluated them either.

    Examples
    --------
    >>> row = {"id": 3, "question": "Ann is free 9-11 and Bo 10-12. For how many hours do both?", "answer": 1,
    ...        "sub-task": [{"segment": "Find the overlap", "skill": "interval overlap"},
    ...                     {"segment": "Measure it", "skill": "duration"}],
    ...        "sub-task-answer": [{"explanation": "10 to 11", "answer": "10-11"}, {"explanation": "", "answer": 1}],
    ...        "scaffolding": ["Ann and Bo are both free 10-11. For how many hours?"],
    ...        "scaffolding_verification": [{"score": 1, "justification": "1 equals 1"}],
    ...        "decompositions": ["When are both free?", "How long is 10-11?"]}
    >>> task = release_task(row)
    >>> task.task_id, task.answer, [step.answer for step in task.reference_steps]
    ('3', '1', ['10-11', '1'])
    """
    ladder = from_row(row, source=source).ladder
    if ladder is None:
        raise KeyError("scaffolding")
    if not ladder.verified:
        raise RecordError("", 0, "scaffolding_verification",
                          f"not a scaffolded task of the release: {ladder.drop_reason}")
    return ladder.task.model_copy(update={"reference_steps": ladder.steps, "reference_scaffolds": ladder.scaffolds,
                                          "reference_isolated": ladder.isolated})


def load_release(benchmark: str | None = None, path: Path | str | None = None, *, skip_invalid: bool = False,
                 problems: list[RecordError] | None = None) -> list[Task]:
    """The release's tasks of one benchmark.

    Parameters
    ----------
    benchmark : ``gsm8k``, ``math_hard`` or ``tot_arithmetic`` (its file of `RELEASE_FILES`);
        not needed when ``path`` is a file.
    path : a local JSONL file; or a local folder holding the release's files, read with
        ``datasets.load_dataset(path, data_files=…)``; ``None`` loads them from the hub
        (``datasets.load_dataset("ibm-research/STaD", data_files=…)``).
    skip_invalid, problems : skip bad rows and collect them (each names file, row and field); a row
        repeating an earlier row's id (or question, without ids) is one (`stad_utils.official.identity`).

    Examples
    --------
    >>> tasks = load_release("tot_arithmetic")                   # doctest: +SKIP
    >>> tasks = load_release(path="tot_arithmetic_scaffolded.jsonl")  # doctest: +SKIP
    """
    if path and Path(path).is_file():
        return read_records(path, release_task, skip_invalid=skip_invalid, problems=problems, unique_by=identity)
    if benchmark not in RELEASE_FILES:
        raise ValueError(f"which benchmark of the release? choose from {sorted(RELEASE_FILES)} (got {benchmark!r})")
    from datasets import load_dataset

    where = str(path) if path else RELEASE_DATASET
    rows = load_dataset(where, data_files=RELEASE_FILES[benchmark], split="train")
    return _convert(rows, Path(where) / RELEASE_FILES[benchmark], skip_invalid, problems)


def _convert(rows: Iterable[dict], where: Path, skip_invalid: bool, problems: list[RecordError] | None) -> list[Task]:
    return collect_records(enumerate(rows, start=1), lambda number, row: parse_record(where, number, row, release_task),
                           skip_invalid=skip_invalid, problems=problems, unique_by=identity, source=where)
