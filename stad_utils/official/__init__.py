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

Prompts
    ``prompts: official`` in an LLM teacher uses `load_official_prompts` and the ``fill_*`` /
    ``read_*`` functions, which fill and read as the official helpers do.

Examples
--------
>>> from stad_utils.official import read_official, write_official
>>> rows = read_official("X_final.jsonl")                                   # doctest: +SKIP
>>> write_official("again_final.jsonl", [r.ladder for r in rows], kind="final")  # doctest: +SKIP
"""

from __future__ import annotations

from ..method import (
    OFFICIAL_REPOSITORY,
    OFFICIAL_TAG,
    REPO_VARIABLE,
    OfficialPrompts,
    OfficialRepoMissing,
    fill_isolated,
    fill_judge,
    fill_scaffold,
    fill_segment,
    fill_step_answers,
    load_official_prompts,
    read_judge_reply,
    read_judge_score,
    read_rewritten_question,
    read_segments,
    read_step_answers,
)
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

__all__ = ['MODELLED', 'RELEASE_FILES', 'load_release', 'release_task',
    "ANSWER", "CATEGORY", "CHAIN", "DECOMPOSITIONS", "DECOMPOSITION_EVALUATION", "DECOMPOSITION_SCORE", "EVALUATION",
    "EVALUATION_SCORE", "FINAL", "GENERATION", "ID", "KINDS", "OFFICIAL_REPOSITORY", "OFFICIAL_TAG", "QUESTION",
    "REPO_VARIABLE", "Chain", "ImportReport", "chain_files", "export_run", "import_chain", "read_chain", "SCAFFOLDING",
    "SCAFFOLDING_EVALUATION", "SCAFFOLDING_SCORE", "SCAFFOLDING_VERIFICATION",
    "SOLUTION", "SUB_TASK", "SUB_TASK_ANSWER", "TEST", "FileKind", "Imported", "OfficialPrompts",
    "OfficialRepoMissing", "file_name", "fill_isolated", "fill_judge", "fill_scaffold", "fill_segment",
    "fill_step_answers", "from_row", "identity", "kind_of", "load_official_prompts", "official_score",
    "read_judge_reply",
    "read_judge_score", "read_official", "read_rewritten_question", "read_segments", "read_step_answers",
    "task_id_for", "to_row", "write_official", "write_test_chain",
]
