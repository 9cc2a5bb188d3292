"""Interop with the authors' code (``ibm-granite/scaffolded-task-design``, tag ``stad-acl_2026``, folder ``STaD/``).

The project contains none of the authors' code or prompt text. It reads and writes their
files, and reads their prompts at run time from a checkout the user provides.

Files
    `read_official` reads any file of the official generation chain (``X.jsonl``,
    ``X_segment.jsonl`` … ``X_final.jsonl``) or test chain (``Y_evaluation.jsonl`` …
    ``…_scored_scored.jsonl``) into the project's records (`Imported`: task, decomposition,
    ladder, one model's verdicts); `write_official` writes a file of any kind from records,
    keeping the rows the official mode would keep; `write_test_chain` writes the official
    test script's input (a final file of verified ladders) and its six files for one model.
    Rows carry no id: a task's id is `task_id_for` its question (see `from_row` for the
    field mapping, and why official file → project → official file gives every field back).

Runs
    `import_chain` reads official files or folders of them into a run folder (``python -m
    stad_utils.official import PATH… --run NAME``), `export_run` writes a run's official files
    (``python -m stad_utils.official export RUN --to DIR``; ``05_evaluate``'s ``export_official``).

The published release
    `load_release` reads the published scaffolded tasks (HF ``ibm-research/STaD``) as tasks the
    ``oracle`` teacher serves (`release_task` per row).

Prompts
    The authors' prompts are read by `stad_utils.method.load_official_prompts` (``prompts: official``
    in an LLM teacher), which the method owns.

Examples
--------
>>> from stad_utils.official import read_official, write_official
>>> rows = read_official("X_final.jsonl")                                   # doctest: +SKIP
>>> write_official("again_final.jsonl", [r.ladder for r in rows], kind="final")  # doctest: +SKIP
"""

from __future__ import annotations

from ._fields import (
    ANSWER,
    CATEGORY,
    CHAIN,
    DECOMPOSITION_EVALUATION,
    DECOMPOSITION_SCORE,
    DECOMPOSITIONS,
    EVALUATION,
    EVALUATION_SCORE,
    FINAL,
    GENERATION,
    ID,
    KINDS,
    QUESTION,
    SCAFFOLDING,
    SCAFFOLDING_EVALUATION,
    SCAFFOLDING_SCORE,
    SCAFFOLDING_VERIFICATION,
    SOLUTION,
    SUB_TASK,
    SUB_TASK_ANSWER,
    TEST,
    FileKind,
    file_name,
    kind_of,
)
from ._files import read_official, write_official, write_test_chain
from ._release import RELEASE_FILES, load_release, release_task
from ._rows import MODELLED, Imported, from_row, identity, official_score, task_id_for, to_row
from ._run import Chain, ImportReport, chain_files, export_run, import_chain, read_chain

__all__ = [
    "ANSWER", "CATEGORY", "CHAIN", "Chain", "DECOMPOSITIONS", "DECOMPOSITION_EVALUATION", "DECOMPOSITION_SCORE",
    "EVALUATION", "EVALUATION_SCORE", "FINAL", "FileKind", "GENERATION", "ID", "ImportReport", "Imported", "KINDS",
    "MODELLED", "QUESTION", "RELEASE_FILES", "SCAFFOLDING", "SCAFFOLDING_EVALUATION", "SCAFFOLDING_SCORE",
    "SCAFFOLDING_VERIFICATION", "SOLUTION", "SUB_TASK", "SUB_TASK_ANSWER", "TEST", "chain_files", "export_run",
    "file_name", "from_row", "identity", "import_chain", "kind_of", "load_release", "official_score", "read_chain",
    "read_official", "release_task", "task_id_for", "to_row", "write_official", "write_test_chain",
]
