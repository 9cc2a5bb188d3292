"""Append-only JSONL files of typed records: the one writer of records in the project.

A stage appends each record the moment it is computed and flushes it, so a crash loses
at most the line being written; on reopening, a torn last line is cut off and the stage
resumes with the ids it does not have yet.
"""

from __future__ import annotations

import gc
import json
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from pydantic import BaseModel, ValidationError

from ._files import read_json_or_rebuild, write_json_atomic

R = TypeVar("R")  # a parsed record: a model or whatever a converter returns
RESULTS = Path(__file__).resolve().parents[2] / "results"
"""Where run folders go unless a params file or a command says otherwise."""

PROGRESS_LOG = "progress.log"
"""The file of ``logs/`` holding what the runner prints while a stage runs (`stad_utils.models.ProgressLog`)."""

M = TypeVar("M", bound=BaseModel)  # the model of a RecordFile
T = TypeVar("T")

UniqueBy = Callable[[Any], tuple[str, str]]
"""The field of its line a record's task id comes from, and the id: ``("id", "7")``, ``("question", "official-…")``."""


class RecordError(ValueError):
    """A line of an input file that is not a valid record; names the file, line and field."""

    def __init__(self, path: Path | str, line: int, field: str | None, problem: str):
        self.path, self.line, self.field, self.problem = Path(path), line, field, problem
        where = f"{path}, line {line}" + (f", field '{field}'" if field else "")
        super().__init__(f"{where}: {problem}")


def parse_jsonl_line(path: Path | str, number: int, raw: bytes) -> dict | None:
    """Decode one line of a JSONL file; ``None`` for a blank line, `RecordError` for a bad one."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(path, number, None, f"not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    if not text.strip():
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(path, number, None, f"malformed JSON ({exc.msg}, column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise RecordError(path, number, None, f"expected a JSON object, got {type(obj).__name__}")
    return obj


class FileStamp(NamedTuple):
    """A file's size and modification time: what tells a copy or a cache made from it that it has changed."""

    size: int
    mtime_ns: int


def file_stamp(path: Path | str) -> FileStamp:
    """The `FileStamp` of a file as it is now."""
    status = os.stat(path)
    return FileStamp(status.st_size, status.st_mtime_ns)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block (or the function it decorates).

    Reading a large run makes millions of objects that all live on (the failure browser's ladders,
    facets and entries, a report's outcomes), and the collector scans them again and again as they
    grow, a large share of the time of reading them. When the block ends, what it made goes straight
    to the oldest generation (``gc.freeze`` then ``gc.unfreeze``) instead of being scanned as young
    objects first, twice; cyclic garbage made meanwhile is collected by the next full collection.
    Objects someone else froze stay frozen: then the block's are left to the collector.
    """
    enabled, frozen = gc.isenabled(), gc.get_freeze_count()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not frozen:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def read_records(
    path: Path | str,
    parse: Callable[[dict], R],
    *,
    skip_invalid: bool = False,
    problems: list[RecordError] | None = None,
    unique_by: UniqueBy | None = None,
    missing_ok: bool = False,
) -> list[R]:
    """Read a JSONL file into records with ``parse`` (a model's ``model_validate`` or a converter).

    ``parse`` may raise `pydantic.ValidationError`, `KeyError` (a missing field) or
    `RecordError`. With ``skip_invalid`` bad lines are collected in ``problems`` instead of
    raising, so one broken line never costs the valid ones. With ``unique_by`` a repeated
    record is a bad line too (see `collect_records`). With ``missing_ok`` a file that does not
    exist (a stage not run yet) holds no records.
    """
    def read_line(number: int, raw: bytes) -> R | None:
        obj = parse_jsonl_line(path, number, raw)
        return None if obj is None else parse_record(path, number, obj, parse)

    if missing_ok and not Path(path).exists():
        return []
    with open(path, "rb") as handle:
        return collect_records(enumerate(handle, start=1), read_line, skip_invalid=skip_invalid, problems=problems,
                               unique_by=unique_by, source=path)


def collect_records(numbered: Iterable[tuple[int, T]], build: Callable[[int, T], R | None], *,
                    skip_invalid: bool = False, problems: list[RecordError] | None = None,
                    unique_by: UniqueBy | None = None, source: Path | str = "") -> list[R]:
    """``build`` a record from each numbered item (a file's line, a dataset's row); ``None`` is skipped.

    A `RecordError` stops the reading, or with ``skip_invalid`` is collected in ``problems``.
    With ``unique_by``, a record whose task id an earlier one has is such an error: it names
    ``source``, the line, the field the id comes from and the line of the first.
    """
    records: list[R] = []
    first_line: dict[str, int] = {}
    for number, item in numbered:
        try:
            record = build(number, item)
            if record is not None and unique_by is not None:
                field, task_id = unique_by(record)
                if task_id in first_line:
                    raise RecordError(source, number, field,
                                      f"duplicate task id {task_id!r} (first at line {first_line[task_id]})")
                first_line[task_id] = number
        except RecordError as error:
            if not skip_invalid:
                raise
            if problems is not None:
                problems.append(error)
            continue
        if record is not None:
            records.append(record)
    return records


def parse_record(path: Path | str, number: int, obj: dict, parse: Callable[[dict], R]) -> R:
    """``parse(obj)``, its failures turned into a `RecordError` naming the file, the line and the field."""
    try:
        return parse(obj)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or None
        raise RecordError(path, number, field, first["msg"]) from None
    except KeyError as exc:
        raise RecordError(path, number, str(exc.args[0]), "missing") from None
    except RecordError as exc:
        raise RecordError(path, number, exc.field, exc.problem) from None


def _task_id(item: Any) -> str:
    """The record's (or input's) ``task_id``: `RecordFile`'s default key."""
    return item.task_id


class RecordFile(Generic[M]):
    """An append-only JSONL file of one record type, keyed for resuming.

    Examples
    --------
    >>> store = RecordFile(tmp / "tasks.jsonl", Task)            # doctest: +SKIP
    >>> todo = [t for t in tasks if t.task_id not in store.keys()]  # doctest: +SKIP
    >>> store.append(todo)                                       # doctest: +SKIP
    """

    _locks: dict[Path, threading.Lock] = {}  # one per file, shared by every RecordFile of this process

    def __init__(self, path: Path | str, model: type[M], key: Callable[[M], str] = _task_id):
        self.path = Path(path)
        self.model = model
        self.key = key
        self._lock = self._locks.setdefault(self.path.resolve(), threading.Lock())
        self._repair_torn_tail()

    def _repair_torn_tail(self) -> None:
        """Cut a last line that a killed process left without its newline."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with open(self.path, "rb+") as handle:
            data = handle.read()
            if data.endswith(b"\n"):
                return
            handle.truncate(data.rfind(b"\n") + 1)

    def read(self) -> list[M]:
        """The records in the file (none if it does not exist)."""
        with self._lock:  # never a line half written by another thread of this process
            return read_records(self.path, self.model.model_validate, missing_ok=True)

    def keys(self) -> set[str]:
        """The keys of the records in the file."""
        return {self.key(record) for record in self.read()}

    def extend(self, inputs: Sequence[T], compute: Callable[[list[T]], Iterable[M]],
               key: Callable[[T], str] = _task_id) -> list[M]:
        """Compute records for the inputs that have none yet, append them, return every record.

        This is how a stage resumes: re-running it computes only what is missing.
        """
        have = self.keys()
        todo = [item for item in inputs if key(item) not in have]
        if todo:
            self.append(compute(todo))
        return self.read()

    def append(self, records: Iterable[M]) -> int:
        """Append records, one flushed and synced line each; returns how many were written."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        written = 0
        with self._lock, open(self.path, "a", encoding="utf-8") as handle:
            for record in records:
                handle.write(record.model_dump_json() + "\n")
                handle.flush()
                os.fsync(handle.fileno())
                written += 1
        return written


class RunPaths:
    """Where each stage of a run writes: one record file per stage, plus figures and notebooks."""

    def __init__(self, root: Path | str):
        self.root = Path(root)
        self.tasks = self.root / "tasks.jsonl"  # 01_tasks: Task
        self.decompositions = self.root / "decompositions.jsonl"  # 02_decompose: Decomposition
        self.ladders = self.root / "ladders.jsonl"  # 03_scaffold: Ladder
        self.skills = self.root / "skills.jsonl"  # 04_skills: StepSkill
        self.skill_map = self.root / "skill_map.csv"  # 04_skills: the editable step → skill table
        self.skill_examples = self.root / "skill_examples.csv"  # 04_skills: each shown skill's share and examples
        self.verdicts = self.root / "verdicts.jsonl"  # 05_evaluate: Verdict
        self.outcomes = self.root / "outcomes.jsonl"  # 05_evaluate: Outcome (derived from verdicts)
        self.usage = self.root / "usage.json"  # every stage with a model: calls, cache hits, tokens, seconds
        self.summary = self.root / "summary.json"  # 06_analyze
        self.report = self.root / "report.md"  # 06_analyze, 07_compare: the written summary and comparison
        self.k_by_task = self.root / "k_by_task.csv"  # 06_analyze, with repeated samples: k of every sample per task
        self.comparison = self.root / "comparison.json"  # 07_compare: paired tests and validity checks
        self.html = self.root / "report.html"  # the analysis and the failure browser, readable without a kernel
        self.manifest = self.root / "manifest.json"  # the runner: versions, commit, params hash, endpoints, times
        self.figures = self.root / "figures"
        self.validation = self.root / "validation"  # 08_validate: its simulated chain, power curve and findings
        self.notebooks = self.root / "notebooks"
        self.logs = self.root / "logs"  # the embedded servers' logs, and the progress lines the runner prints
        self.progress = self.logs / PROGRESS_LOG  # what the runner prints while a stage runs


def record_usage(paths: RunPaths, stage: str, clients: dict[str, object]) -> dict:
    """Write the usage of this stage's model clients into ``usage.json``.

    ``clients`` maps a role to a client, a list of clients, or an object holding one in
    ``.client`` (a teacher, a judge); anything without a client (the oracle teacher, no judge)
    is skipped. The file holds ``{stage: {role: {model: {calls, cache_hits, errors, tokens,
    seconds}}}}``; re-running a stage replaces its entry.
    """
    usage = read_usage(paths)
    entry: dict[str, dict] = {}
    for role, holders in clients.items():
        for holder in holders if isinstance(holders, list) else [holders]:
            client: Any = getattr(holder, "client", holder)
            if client is not None and hasattr(client, "usage"):
                entry.setdefault(role, {})[client.model] = client.usage.as_dict()
    usage[stage] = entry
    write_json_atomic(paths.usage, usage)
    return entry


def read_usage(paths: RunPaths) -> dict:
    """``usage.json`` (empty when missing; a damaged file is set aside and rebuilt)."""
    return read_json_or_rebuild(paths.usage, dict)
