"""Verdicts and outcomes as Parquet, queried with DuckDB without holding reply texts in memory.

The JSONL files stay the append-only, crash-safe log every stage writes (`stad_utils.records._store`);
this module keeps a Parquet copy of each beside it, in ``<run>/columnar/``, rebuilt whenever the
JSONL file or the record type's fields have changed (`parquet_copy`). DuckDB reads only the
columns a query names, so counting verdicts of a million replies never reads a reply.

It owns the SQL side of the read layer, generated from the Python side: the columns and their
defaults from the record types' fields (`schema_of`), the latest record of a key from
`stad_utils.records.latest_records`'s keys (`_latest`), and the column ``judged`` from
`stad_utils.records.judged_outcome`'s mapping (`JUDGED`).

The same queries take one run folder or many (e.g. every run of a study, or a folder of Parquet
files gathered from several machines): a later file's record replaces an earlier one with the
same key, as when the JSONL files are read in that order.

    from stad_utils.records.columnar import verdict_facts, reply_texts, query
    facts = verdict_facts("results/quickstart")                 # one row per latest verdict, no texts
    query("SELECT model, outcome, count(*) FROM verdicts GROUP BY ALL", "results/quickstart")
"""

from __future__ import annotations

import json
import os
import types
import typing
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import NamedTuple

import duckdb
import pandas as pd
from pydantic import BaseModel

from ._log import OUTCOME_BEFORE_OUTCOMES, OUTCOME_KEY, VERDICT_KEY
from ._records import Outcome, Verdict
from ._store import RunPaths, file_stamp, parse_jsonl_line, parse_record

RunDirs = Path | str | Iterable[Path | str]
"""One run folder (or Parquet file, or folder of Parquet files), or several, read in this order."""


def run_list(runs: RunDirs) -> list[Path]:
    """``runs`` as a list of paths, in order."""
    return [Path(runs)] if isinstance(runs, (str, Path)) else [Path(run) for run in runs]


def sql_text(value: object) -> str:
    """A SQL string literal of ``value``: a run folder's name is data and may hold a quote.

    >>> sql_text("it's")
    "'it''s'"
    """
    return "'" + str(value).replace("'", "''") + "'"


_SCALAR_TYPES = {str: "VARCHAR", bool: "BOOLEAN", int: "INTEGER", float: "DOUBLE"}


def _duckdb_type(name: str, annotation: object) -> str:
    """The DuckDB type of a record field of this name and annotation (``None`` in a union is DuckDB's NULL).

    A count of tokens (a field named ``*_tokens``) is BIGINT: the Parquet copies written so far have
    it so, and a query summing a million of them must not overflow.
    """
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        [kind] = [argument for argument in arguments if argument is not type(None)]
        return _duckdb_type(name, kind)
    if origin is typing.Literal:
        return _duckdb_type(name, type(arguments[0]))
    if origin is list:
        return _duckdb_type(name, arguments[0]) + "[]"
    if annotation is int and name.endswith("_tokens"):
        return "BIGINT"
    if annotation not in _SCALAR_TYPES:
        raise TypeError(f"the field {name!r} ({annotation}) has no DuckDB column type here")
    return _SCALAR_TYPES[annotation]


def _sql_value(value: object, kind: str) -> str:
    """``value`` as a SQL literal of the DuckDB type ``kind``.

    >>> _sql_value(False, "BOOLEAN"), _sql_value("full", "VARCHAR"), _sql_value([], "BOOLEAN[]")
    ('false', "'full'", '[]::BOOLEAN[]')
    """
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return sql_text(value)
    if isinstance(value, list):
        return "[" + ", ".join(_sql_value(item, kind[:-2]) for item in value) + f"]::{kind}"
    raise TypeError(f"no SQL literal for {value!r}")


class Schema(NamedTuple):
    """A record type's Parquet columns, generated from its pydantic fields (`schema_of`)."""

    record: type[BaseModel]
    columns: dict[str, str]  # every field, in field order: its DuckDB type
    defaults: dict[str, str]  # the fields whose default is not None: the default as SQL, for lines that lack them


@cache
def schema_of(record: type[BaseModel]) -> Schema:
    """The columns and defaults of a record type: its fields' annotations and defaults, read in one place.

    A field added to `stad_utils.records.Verdict` or `Outcome` is a column of the Parquet copies,
    and a line written before it existed reads as its default.
    """
    columns = {name: _duckdb_type(name, field.annotation) for name, field in record.model_fields.items()}
    defaults = {name: _sql_value(field.get_default(call_default_factory=True), columns[name])
                for name, field in record.model_fields.items()
                if not field.is_required() and field.get_default(call_default_factory=True) is not None}
    return Schema(record, columns, defaults)


VERDICT_COLUMNS = schema_of(Verdict).columns
"""The fields of `stad_utils.records.Verdict` and their DuckDB types."""

OUTCOME_COLUMNS = schema_of(Outcome).columns
"""The fields of `stad_utils.records.Outcome` and their DuckDB types."""

TEXT_COLUMNS = ("prompt", "reference", "response", "error", "extracted", "explanation", "reasoning")
"""The verdict columns holding texts; `verdict_facts` leaves them out."""

JUDGED = ("coalesce(outcome, CASE correct "
          + " ".join(f"WHEN {_sql_value(correct, 'BOOLEAN')} THEN {sql_text(outcome)}"
                     for correct, outcome in OUTCOME_BEFORE_OUTCOMES.items() if correct is not None)
          + f" ELSE {sql_text(OUTCOME_BEFORE_OUTCOMES[None])} END)")
"""`stad_utils.records.judged_outcome` in SQL: the column ``judged`` of the view ``verdicts``."""

MEMORY_LIMIT = os.environ.get("STAD_DUCKDB_MEMORY", "2GB")
"""DuckDB's own memory limit (it spills to disk beyond it); ``STAD_DUCKDB_MEMORY`` overrides it."""


def connect() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with a bounded memory budget."""
    connection = duckdb.connect()
    connection.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    connection.execute("SET preserve_insertion_order = true")  # the Parquet copy keeps the log's order
    return connection


def parquet_copy(jsonl: Path | str, record: type[BaseModel] | None = None) -> Path:
    """The Parquet copy of a verdicts or outcomes JSONL file, converted now if missing or out of date.

    ``record``: the file's record type (by default `Outcome` for ``outcomes*.jsonl``, else `Verdict`),
    whose fields are the copy's columns (`schema_of`). The copy is out of date when the log's
    `stad_utils.records.file_stamp` or the columns have changed. Rows keep the order of the log's
    lines. A line that is not valid JSON, or not a valid record, raises `RecordError` naming the
    file, the line and the field.
    """
    jsonl = Path(jsonl)
    schema = schema_of(record or (Outcome if jsonl.name.startswith("outcomes") else Verdict))
    target = jsonl.parent / "columnar" / f"{jsonl.stem}.parquet"
    source_path = target.with_suffix(".source.json")
    source = {"source": jsonl.name, **file_stamp(jsonl)._asdict(), "columns": schema.columns}
    if target.exists() and source_path.exists() and json.loads(source_path.read_text()) == source:
        return target
    target.parent.mkdir(exist_ok=True)
    partial = target.with_suffix(".parquet.partial")
    declared = ", ".join(f"'{name}': '{kind}'" for name, kind in schema.columns.items())
    selected = ", ".join(f"coalesce({name}, {schema.defaults[name]}) AS {name}" if name in schema.defaults else name
                         for name in schema.columns)
    connection = connect()
    try:
        connection.execute(
            f"COPY (SELECT {selected} FROM read_json(?, format = 'newline_delimited', columns = {{{declared}}}, "
            "maximum_object_size = 16777216)) "
            f"TO {sql_text(partial)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 65536)", [str(jsonl)])
        missing = _missing_required(connection, partial, schema.record)
    except duckdb.Error as exc:
        partial.unlink(missing_ok=True)
        _raise_first_bad_line(jsonl, schema.record)
        raise RuntimeError(f"{jsonl}: DuckDB could not convert it to Parquet: {exc}") from None
    finally:
        connection.close()
    if missing:  # DuckDB reads an absent field as NULL; the record type would have refused the line
        partial.unlink(missing_ok=True)
        _raise_first_bad_line(jsonl, schema.record)
        raise RuntimeError(f"{jsonl}: a record lacks the field(s) {missing}")
    os.replace(partial, target)
    source_path.write_text(json.dumps(source))
    return target


def _missing_required(connection: duckdb.DuckDBPyConnection, parquet: Path, record: type[BaseModel]) -> list[str]:
    """The fields that the record type requires and forbids to be null, and that some row of ``parquet`` lacks.

    A required field that may be null (`Outcome.k`, `Verdict.response`, `Verdict.correct`) reads as
    null whether it is missing or null, so a line lacking it is not caught here; the JSONL readers
    (`store.read_records`) catch it.
    """
    required = [name for name, field in record.model_fields.items()
                if field.is_required() and type(None) not in typing.get_args(field.annotation)]
    nulls = connection.execute(f"SELECT {', '.join(f'count(*) FILTER ({name} IS NULL)' for name in required)} "
                               f"FROM read_parquet({sql_text(parquet)})").fetchone()
    if nulls is None:  # an aggregate without GROUP BY always returns its one row
        raise RuntimeError(f"{parquet}: duckdb returned no row counting the null fields")
    return [name for name, count in zip(required, nulls) if count]


def _raise_first_bad_line(jsonl: Path, record: type[BaseModel]) -> None:
    """Raise `RecordError` naming the first line of ``jsonl`` that is not a valid record, if there is one."""
    with open(jsonl, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            obj = parse_jsonl_line(jsonl, number, raw)
            if obj is not None:
                parse_record(jsonl, number, obj, record.model_validate)


def _files(runs: RunDirs, name: str) -> list[Path]:
    """The Parquet files of ``name`` ("verdicts" or "outcomes") of the runs, in order.

    A run is a run folder (its JSONL log is converted when needed), a Parquet file, or a folder
    of Parquet files (taken in name order).
    """
    files: list[Path] = []
    for run in run_list(runs):
        log = getattr(RunPaths(run), name)
        if run.suffix == ".parquet":
            files.append(run)
        elif log.exists():
            files.append(parquet_copy(log))
        elif run.is_dir() and not RunPaths(run).ladders.exists():  # a folder of Parquet files, not a run
            files += sorted(run.glob(f"**/{name}*.parquet"))
    return files


def _latest(files: Sequence[Path], key: Sequence[str], columns: str, where: str = "true") -> str:
    """SQL for the latest record per key, as `stad_utils.records.latest_records`: later files win, then later rows.

    ``where`` may only test key columns (it is applied before choosing the latest record).
    """
    listed = "[" + ", ".join(map(sql_text, files)) + "]"
    return (f"SELECT {columns} FROM read_parquet({listed}, filename = true, file_row_number = true, "
            f"union_by_name = true) WHERE {where} QUALIFY row_number() OVER (PARTITION BY {', '.join(key)} "
            f"ORDER BY list_position({listed}, filename) DESC, file_row_number DESC) = 1")


def query(sql: str, runs: RunDirs, connection: duckdb.DuckDBPyConnection | None = None,
          parameters: Sequence | None = None) -> pd.DataFrame:
    """Run ``sql`` over the runs' latest records, available as the views ``verdicts`` and ``outcomes``.

    ``verdicts`` also has the column ``judged``: the verdict's outcome, for files written before
    outcomes existed read from ``correct`` (`JUDGED`, `stad_utils.records.judged_outcome`).
    """
    if connection is not None:
        _create_views(connection, runs)
        return connection.execute(sql, parameters or []).df()
    with views(runs) as connection:
        return connection.execute(sql, parameters or []).df()


@contextmanager
def views(runs: RunDirs) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection with the views ``verdicts`` and ``outcomes`` of the runs (see `query`), closed afterwards.

    For several queries over the same runs, or rows fetched as Python tuples instead of a DataFrame.
    """
    connection = connect()
    try:
        _create_views(connection, runs)
        yield connection
    finally:
        connection.close()


def _create_views(connection: duckdb.DuckDBPyConnection, runs: RunDirs) -> None:
    """The views ``verdicts`` and ``outcomes`` of the runs' latest records (see `query`)."""
    runs = run_list(runs)
    for name, key, columns in (("verdicts", VERDICT_KEY, VERDICT_COLUMNS), ("outcomes", OUTCOME_KEY, OUTCOME_COLUMNS)):
        files = _files(runs, name)
        if files:
            source = _latest(files, key, "* EXCLUDE (filename, file_row_number)")
        else:  # no such records yet: an empty table of the right columns
            source = "SELECT " + ", ".join(f"NULL::{kind} AS {column}" for column, kind in columns.items()) \
                + " WHERE false"
        judged = f", {JUDGED} AS judged" if name == "verdicts" else ""
        connection.execute(f"CREATE OR REPLACE TEMP VIEW {name} AS SELECT *{judged} FROM ({source})")


class VerdictFacts(NamedTuple):
    """A verdict without its texts (prompt, reference, reply, explanation): what statistics count.

    ``response`` only says whether a reply came (``""`` when one did, ``None`` when not), so
    code written for `stad_utils.records.Verdict` that tests ``v.response is not None`` counts
    the same; the text itself is read with `reply_texts`.
    """

    task_id: str
    model: str
    variant: str
    level: int
    sample: int
    outcome: str
    correct: bool | None
    decided_by: str
    judge_version: str
    finish_reason: str | None
    truncated: bool
    policy: str
    simulated: bool
    cached: bool
    replied: bool

    @property
    def response(self) -> str | None:
        """``""`` if the target replied, else None (the text itself is not kept)."""
        return "" if self.replied else None


def verdict_facts(runs: RunDirs) -> list[VerdictFacts]:
    """The latest verdict of every key of the runs, without texts, in the order of the log."""
    selected = ", ".join("judged" if field == "outcome" else "response IS NOT NULL" if field == "replied" else field
                         for field in VerdictFacts._fields)
    with views(runs) as connection:
        rows = connection.execute(f"SELECT {selected} FROM verdicts ORDER BY {', '.join(VERDICT_KEY)}")
        return [VerdictFacts._make(row) for row in rows.fetchall()]


def reply_texts(runs: RunDirs, task_ids: Iterable[str]) -> pd.DataFrame:
    """Every column of the latest verdicts of these tasks only (texts included): a drill-down's data.

    Only these tasks' rows are decompressed: the task filter comes before choosing the latest.
    """
    with _replies(runs, task_ids) as result:
        return pd.DataFrame(columns=list(VERDICT_COLUMNS)) if result is None else result.df()


def reply_records(runs: RunDirs, task_ids: Iterable[str]) -> list[dict]:
    """`reply_texts` as one dict per verdict (``None`` where a value is missing), for building records.

    Reading DuckDB's rows directly takes a fraction of the time of a DataFrame whose missing values
    are then turned into ``None``: the failure browser reads the replies of a thousand tasks so.
    """
    with _replies(runs, task_ids) as result:
        if result is None:
            return []
        columns = [column for column, *_ in result.description]
        return [dict(zip(columns, row)) for row in result.fetchall()]


@contextmanager
def _replies(runs: RunDirs,
             task_ids: Iterable[str]) -> Iterator[duckdb.DuckDBPyConnection | None]:
    """The query of `reply_texts`, executed (``None`` when there is no verdict file or no task)."""
    files = _files(runs, "verdicts")
    wanted = pd.DataFrame({"task_id": sorted(set(task_ids))})
    if not files or wanted.empty:
        yield None
        return
    connection = connect()
    try:
        connection.register("wanted", wanted)
        latest = _latest(files, VERDICT_KEY, "* EXCLUDE (filename, file_row_number)",
                         where="task_id IN (SELECT task_id FROM wanted)")
        yield connection.execute(f"SELECT * FROM ({latest}) ORDER BY {', '.join(VERDICT_KEY)}")
    finally:
        connection.close()
