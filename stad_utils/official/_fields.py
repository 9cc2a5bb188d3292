"""The official JSONL field names and the file kinds of the authors' two scripts.

Each mode of the official scripts reads the previous file, adds one field and keeps some rows
(``../shared/docs/official-files.md``, beside the project, describes them in §1–2). A
`FileKind` is one such file: the field it adds, the suffix it appends to the file name, and
the rule that decides which rows it keeps. The rules are written on the row, as the official
code tests them, so that a file the project writes holds exactly the rows the official script
would have kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

QUESTION, ANSWER = "question", "answer"
SUB_TASK, SUB_TASK_ANSWER = "sub-task", "sub-task-answer"
SCAFFOLDING, SCAFFOLDING_VERIFICATION, DECOMPOSITIONS = "scaffolding", "scaffolding_verification", "decompositions"
EVALUATION, EVALUATION_SCORE = "evaluation", "evaluation_score"
DECOMPOSITION_EVALUATION, SCAFFOLDING_EVALUATION = "decomposition_evaluation", "scaffolding_evaluation"
DECOMPOSITION_SCORE, SCAFFOLDING_SCORE = "decomposition_score", "scaffolding_score"
ID, SOLUTION, CATEGORY = "id", "solution", "category"
"""Fields of the published release (HF ``ibm-research/STaD``) that the scripts carry through as extra keys."""

TASK_FIELDS = (ID, QUESTION, ANSWER, SOLUTION, CATEGORY)
"""The fields a `Task` holds, in the order the project writes them."""


@dataclass(frozen=True)
class FileKind:
    """One file of the official chain.

    Attributes
    ----------
    name : the project's name for it ("segment", "final", "evaluation_scored", …).
    script, mode : the official script and its mode that writes it.
    suffix : appended to the input's file name (``X.jsonl`` → ``X_segment.jsonl``).
    fields : the fields the mode adds.
    keeps : which rows of its input the mode writes, tested on the finished row.
    """

    name: str
    script: str
    mode: str
    suffix: str
    fields: tuple[str, ...]
    keeps: Callable[[dict], bool] = lambda row: True


def _failed_original(row: dict) -> bool:
    return row.get(EVALUATION_SCORE) == 0  # as in the official code: "0", 1, -1 and null stop here


GENERATION = (
    FileKind("input", "", "", "", (QUESTION, ANSWER)),
    FileKind("segment", "generate_variations", "segment", "_segment", (SUB_TASK,)),
    FileKind("answers", "generate_variations", "answers", "_answers", (SUB_TASK_ANSWER,),
             lambda row: bool(row.get(SUB_TASK))),
    FileKind("scaffolding", "generate_variations", "scaffolding", "_scaffolding", (SCAFFOLDING,),
             lambda row: bool(row.get(SUB_TASK_ANSWER))),  # and the consistency filter: only ladders reach it
    FileKind("verify", "generate_variations", "verify", "_verify", (SCAFFOLDING_VERIFICATION,),
             lambda row: bool(row.get(SCAFFOLDING))),
    FileKind("final", "generate_variations", "decomposition", "_final", (DECOMPOSITIONS,),
             lambda row: all(isinstance(item, dict) and item.get("score") == 1
                             for item in row.get(SCAFFOLDING_VERIFICATION, []))),  # "1" fails, as in the official code
)
"""``X.jsonl`` → ``X_segment.jsonl`` → … → ``X_final.jsonl`` (the last replaces the accumulated suffixes)."""

TEST = (
    FileKind("evaluation", "test_variations", "bench_eval", "_evaluation", (EVALUATION,)),
    FileKind("evaluation_scored", "test_variations", "bench_judge", "_scored", (EVALUATION_SCORE,)),
    FileKind("decomposition_evaluation", "test_variations", "var_eval", "_decomposition_evaluation",
             (DECOMPOSITION_EVALUATION,), lambda row: bool(row.get(DECOMPOSITIONS)) and _failed_original(row)),
    FileKind("scaffolding_evaluation", "test_variations", "var_scaff_eval", "_scaffolding_evaluation",
             (SCAFFOLDING_EVALUATION,), lambda row: bool(row.get(SCAFFOLDING)) and _failed_original(row)),
    FileKind("decomposition_scored", "test_variations", "var_judge", "_scored", (DECOMPOSITION_SCORE,),
             lambda row: bool(row.get(DECOMPOSITION_EVALUATION))),
    FileKind("scaffolding_scored", "test_variations", "var_scaff_judge", "_scored", (SCAFFOLDING_SCORE,),
             lambda row: bool(row.get(SCAFFOLDING_EVALUATION))),
)
"""``Y.jsonl`` (a final file) → ``Y_evaluation.jsonl`` → … → ``Y_…_scaffolding_evaluation_scored_scored.jsonl``."""

FINAL = GENERATION[-1]
"""The generation chain's last file, which the test script reads."""
CHAIN = GENERATION + TEST
"""Every file kind in order (the test script reads a final file)."""
KINDS: dict[str, FileKind] = {kind.name: kind for kind in CHAIN}
CHAIN_FIELDS = tuple(field for kind in CHAIN for field in kind.fields)
"""Every field the two scripts add, in the order they add them."""


def kind_named(name: str) -> FileKind:
    """The `FileKind` called ``name`` (a `ValueError` lists the names otherwise)."""
    if name not in KINDS:
        raise ValueError(f"unknown official file kind {name!r}; kinds are {list(KINDS)}")
    return KINDS[name]


def kinds_up_to(kind: FileKind) -> tuple[FileKind, ...]:
    """The kinds of ``kind``'s script that a row passes through to reach it (the test script starts from a final file).

    Examples
    --------
    >>> [k.name for k in kinds_up_to(KINDS["answers"])]
    ['input', 'segment', 'answers']
    >>> [k.name for k in kinds_up_to(KINDS["evaluation_scored"])]
    ['evaluation', 'evaluation_scored']
    """
    chain = TEST if kind in TEST else GENERATION
    return chain[: chain.index(kind) + 1]


def kind_of(row: dict) -> FileKind:
    """The furthest kind whose field ``row`` holds (``input`` for a raw row).

    Examples
    --------
    >>> kind_of({"question": "Q?", "answer": 1, "sub-task": []}).name
    'segment'
    """
    found = GENERATION[0]
    for kind in CHAIN:
        if any(field in row for field in kind.fields):
            found = kind
    return found


def file_name(stem: str, kind: FileKind, *, test_input: str | None = None) -> str:
    """The name the official scripts give the ``kind`` file made from ``stem.jsonl``.

    For the test chain, ``stem`` is the test input's stem (e.g. ``"X_final"``).

    Examples
    --------
    >>> file_name("sample", KINDS["verify"])
    'sample_segment_answers_scaffolding_verify.jsonl'
    >>> file_name("sample", KINDS["final"])
    'sample_final.jsonl'
    >>> file_name("sample_final", KINDS["decomposition_scored"])
    'sample_final_evaluation_scored_decomposition_evaluation_scaffolding_evaluation_scored.jsonl'
    """
    if kind.name == "final":
        return f"{stem}_final.jsonl"
    chain = TEST if kind in TEST else GENERATION
    return stem + "".join(k.suffix for k in chain[: chain.index(kind) + 1]) + ".jsonl"


def fields_of(kind: FileKind) -> tuple[str, ...]:
    """Every chain field a row of ``kind`` holds (a test-chain row also holds the whole final row).

    Examples
    --------
    >>> fields_of(KINDS["segment"])
    ('question', 'answer', 'sub-task')
    """
    return tuple(field for earlier in CHAIN[: CHAIN.index(kind) + 1] for field in earlier.fields)
