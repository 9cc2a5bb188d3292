"""Reading and writing whole official files (one JSON object per line, as the authors' scripts write them)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..records import Decomposition, Ladder, RecordError, Task, Verdict, read_records
from ._fields import FINAL, SCAFFOLDING, TEST, FileKind, fields_of, file_name, kind_named, kinds_up_to
from ._rows import Imported, from_row, identity, to_row


def read_official(path: Path | str, *, model: str = "official", source: str = "official", skip_invalid: bool = False,
                  problems: list[RecordError] | None = None) -> list[Imported]:
    """Every row of an official file, of any kind, as the project's records (see `from_row`).

    A bad line raises `RecordError` naming the file, line and field; with ``skip_invalid`` it
    is collected in ``problems`` and skipped (the official loader skips bad lines silently).
    Rows without ``id`` get `task_id_for` their question; a row repeating an earlier row's id
    or question is such a bad line (see `identity`; ToT-Arithmetic repeats two of its questions).

    Examples
    --------
    >>> rows = read_official("tests/fixtures/official/sample_final.jsonl")  # doctest: +SKIP
    >>> rows[0].ladder.scaffolds                                            # doctest: +SKIP
    """
    return read_records(path, lambda row: from_row(row, model=model, source=source), skip_invalid=skip_invalid,
                        problems=problems, unique_by=lambda imported: identity(imported.task))


def write_official(path: Path | str, records: Iterable[Task | Decomposition | Ladder], verdicts: Iterable[Verdict] = (),
                   *, kind: str | FileKind, model: str | None = None) -> int:
    """Write the ``kind`` file the official script would write for these records; returns the number of rows.

    Rows are kept by the official rules of every mode up to ``kind`` (e.g. a final file holds
    only ladders whose every verification score is 1; the variant files only tasks whose
    original scored 0). A final file holds verified ladders; a test-chain file holds the
    ladders ``model`` answered (``model`` may be left out when the verdicts are of one model).
    Lines are ``json.dumps(row, ensure_ascii=False)``, as the official writer makes them.
    """
    kind = kind_named(kind) if isinstance(kind, str) else kind
    by_task = _verdicts_by_task(verdicts, model)
    rows = [to_row(record, by_task.get(record.task_id, []), kind=kind)
            for record in records if _reaches(record, kind, by_task)]
    kept = [row for row in rows if all(step.keeps(row) for step in kinds_up_to(kind))]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in kept)
    return len(kept)


def write_test_chain(folder: Path | str, stem: str, ladders: Sequence[Ladder], verdicts: Iterable[Verdict], *,
                     model: str | None = None) -> list[Path]:
    """The official test script's input (``<stem>.jsonl``, a final file) and its six files for one model's verdicts.

    The names are the ones the official script gives them, e.g. ``<stem>_evaluation_scored.jsonl``
    and, last, ``<stem>_evaluation_scored_decomposition_evaluation_scaffolding_evaluation_scored_scored.jsonl``.
    """
    folder, verdicts = Path(folder), list(verdicts)
    written = [folder / f"{stem}.jsonl"]
    write_official(written[0], ladders, kind=FINAL)
    for kind in TEST:
        written.append(folder / file_name(stem, kind))
        write_official(written[-1], ladders, verdicts, kind=kind, model=model)
    return written


def _verdicts_by_task(verdicts: Iterable[Verdict], model: str | None) -> dict[str, list[Verdict]]:
    verdicts = [verdict for verdict in verdicts if model is None or verdict.model == model]
    models = sorted({verdict.model for verdict in verdicts})
    if len(models) > 1:
        raise ValueError(f"verdicts of several models {models}: an official file holds one model's; pass model=")
    grouped: dict[str, list[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        grouped[verdict.task_id].append(verdict)
    return grouped


def _reaches(record: Task | Decomposition | Ladder, kind: FileKind, by_task: dict[str, list[Verdict]]) -> bool:
    """Whether the record got as far as ``kind``.

    Scaffolds need a ladder (a decomposition without one failed the consistency filter), a
    final file a verified ladder, a test-chain file a ladder the model answered.
    """
    if kind in TEST:
        return any(verdict.variant == "original" for verdict in by_task.get(record.task_id, []))
    if SCAFFOLDING in fields_of(kind):
        return isinstance(record, Ladder) and (kind is not FINAL or record.verified)
    return True
