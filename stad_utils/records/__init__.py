"""The typed record of every stage, the files that hold them, and the rules by which they are read.

    Task ─► Decomposition ─► Ladder ─► StepSkill ─► Verdict ─► Outcome
    01_tasks  02_decompose   03_scaffold  04_skills   05_evaluate

``_records`` defines the records (pydantic: a malformed line fails naming its field); ``_store``
appends them to one JSONL file per stage (`RecordFile`, resumable) and says where each stage
writes (`RunPaths`); ``_log`` holds the rules every reader applies to the append-only logs (the
key of a verdict, the latest record of a key wins); ``_files`` rewrites side files atomically;
``_secrets`` masks keys before anything is stored; ``_examples`` is the saved run the analysis
notebooks open. ``columnar`` (DuckDB over Parquet copies) is imported on its own: it loads duckdb.
"""

from __future__ import annotations

from ._examples import SAVED_RUN, open_run
from ._files import (
    DiskFull,
    RunLocked,
    exclusive_run,
    is_disk_full,
    read_json_or_rebuild,
    remove_partial_files,
    set_aside,
    write_atomic,
    write_json_atomic,
)
from ._log import (
    OUTCOME_KEY,
    QUESTION_KEY,
    VERDICT_KEY,
    is_error,
    is_undecided,
    judged_outcome,
    latest_records,
    latest_verdicts,
    outcome_key,
    question_key,
    verdict_key,
    verdict_store,
)
from ._records import (
    UNMAPPED,
    AnswerFormat,
    Decomposition,
    DropCode,
    JudgeOutcome,
    Ladder,
    LadderPolicy,
    LevelCheck,
    Outcome,
    Step,
    StepSkill,
    Task,
    VariantKind,
    Verdict,
    check_policy,
    clock,
    drop_code_of,
    evaluation_items,
)
from ._secrets import configured_secrets, mask_secrets
from ._store import (
    PROGRESS_LOG,
    RESULTS,
    RecordError,
    RecordFile,
    RunPaths,
    collect_records,
    collector_paused,
    file_stamp,
    parse_record,
    read_records,
    read_usage,
    record_usage,
)

__all__ = [
    "QUESTION_KEY", "outcome_key", "question_key", "verdict_key",
    "AnswerFormat", "Decomposition", "DiskFull", "DropCode", "JudgeOutcome", "Ladder", "LadderPolicy", "LevelCheck",
    "OUTCOME_KEY", "Outcome", "PROGRESS_LOG", "RESULTS", "RecordError", "RecordFile", "RunLocked", "RunPaths",
    "SAVED_RUN", "Step", "StepSkill", "Task", "UNMAPPED", "VERDICT_KEY", "VariantKind", "Verdict", "check_policy",
    "clock", "collect_records", "collector_paused", "configured_secrets", "drop_code_of", "evaluation_items",
    "exclusive_run", "file_stamp", "is_disk_full", "is_error", "is_undecided", "judged_outcome", "latest_records",
    "latest_verdicts", "mask_secrets", "open_run", "parse_record", "read_json_or_rebuild", "read_records",
    "read_usage", "record_usage", "remove_partial_files", "set_aside", "verdict_store", "write_atomic",
    "write_json_atomic",
]
