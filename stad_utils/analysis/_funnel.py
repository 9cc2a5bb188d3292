"""How many tasks reached each stage and why the others were dropped, and how many replies were cut off.

Owns: the task funnel (loaded → consistent → verified → evaluated, with the tasks dropped
per reason, `task_funnel` and `run_funnel`, the one funnel of the package) and the counts of
replies ``max_tokens`` cut off (`truncation_table`, counted by DuckDB in `run_truncation_table`).
Their words are in `wording`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from ..records import Decomposition, DropCode, Ladder, Outcome, RunPaths, Task, Verdict, read_records
from ._schema import Funnel

DROP_NAMES: dict[DropCode, str] = {
    "too_many_steps": "more than 6 steps",
    "no_steps": "no step",
    "last_step_mismatch": "last step ≠ gold answer",
    "last_step_undecided": "judge undecided on the last step",
    "single_step": "single step (drop_single_step)",
    "teacher_failed_level": "teacher failed a scaffold level",
    "level_undecided": "judge undecided on a scaffold level",
    "wrong_variant_count": "wrong number of variants",
    "teacher_out_of_tokens": "teacher ran out of tokens while reasoning",
    "teacher_other": "teacher: other",
}
"""The funnel's name of each drop code (`stad_utils.records.DropCode`), as ``summary.json`` lists them."""


def task_funnel(tasks: Sequence[Task], decompositions: Sequence[Decomposition], ladders: Sequence[Ladder],
                items: Sequence[Outcome]) -> Funnel:
    """Loaded → consistent → verified → evaluated, with the number of tasks dropped per reason.

    *loaded*: tasks of 01; *consistent*: decompositions that passed the consistency filter;
    *verified*: ladders whose every scaffold level the teacher verified; *evaluated*: verified
    tasks with an outcome of some model. Tasks not (yet) decomposed or scaffolded — a teacher
    unavailable, to be retried — and verified tasks no model answered are counted as such.

    Examples
    --------
    >>> task_funnel([], [], [], []).as_dict()
    {'loaded': 0, 'consistent': 0, 'verified': 0, 'evaluated': 0, 'dropped': {}}
    """
    dropped: dict[str, int] = {}

    def drop(reason: str, count: int = 1) -> None:
        if count:
            dropped[reason] = dropped.get(reason, 0) + count

    consistent = {d.task_id for d in decompositions if d.consistent}
    for d in decompositions:
        if not d.consistent:
            drop(DROP_NAMES[d.drop_code or "teacher_other"])
    drop("not decomposed yet", len({t.task_id for t in tasks} - {d.task_id for d in decompositions}))
    verified = {ladder.task_id for ladder in ladders if ladder.verified and ladder.task_id in consistent}
    for ladder in ladders:
        if not ladder.verified and ladder.task_id in consistent:
            drop(DROP_NAMES[ladder.drop_code or "teacher_other"])
    drop("not scaffolded yet", len(consistent - {ladder.task_id for ladder in ladders}))
    evaluated = verified & {o.task_id for o in items}
    drop("no model evaluated", len(verified - evaluated))
    return Funnel(loaded=len(tasks), consistent=len(consistent), verified=len(verified), evaluated=len(evaluated),
                  dropped=dict(sorted(dropped.items(), key=lambda item: -item[1])))


def run_funnel(paths: RunPaths, ladders: Sequence[Ladder] | None = None,
               items: Sequence[Outcome] | None = None) -> Funnel | None:
    """`task_funnel` of a run folder, reading the ``ladders`` and outcomes the caller has not read; ``None``
    when it lacks the tasks, decompositions or ladders (a run put together from verdicts alone has no
    funnel to report).
    """
    if not all(path.exists() for path in (paths.tasks, paths.decompositions, paths.ladders)):
        return None
    ladders = read_records(paths.ladders, Ladder.model_validate) if ladders is None else ladders
    items = read_records(paths.outcomes, Outcome.model_validate, missing_ok=True) if items is None else items
    return task_funnel(read_records(paths.tasks, Task.model_validate),
                       read_records(paths.decompositions, Decomposition.model_validate), ladders, items)


def truncation_table(verdicts: Sequence[Verdict]) -> pd.DataFrame:
    """Per model, variant and level: replies obtained, how many ``max_tokens`` cut off, and their share.

    A high share means the verdicts there mostly say "no answer" because the reply had no room to
    conclude: raise the endpoint's ``max_tokens`` (``max_tokens_variants`` for variants).

    Examples
    --------
    >>> from stad_utils.records import Verdict
    >>> def v(level, truncated):
    ...     return Verdict(task_id=f"t{level}{truncated}", model="m", variant="original", level=level, prompt="q",
    ...                    reference="1", response="…", correct=False, decided_by="none", truncated=truncated)
    >>> truncation_table([v(0, True), v(0, False)]).to_dict(orient="records")
    [{'model': 'm', 'variant': 'original', 'level': 0, 'replies': 2, 'cut_off': 1, 'share': 0.5}]
    """
    columns = ["model", "variant", "level", "replies", "cut_off", "share"]
    frame = pd.DataFrame([{"model": v.model, "variant": v.variant, "level": v.level, "cut_off": v.truncated}
                          for v in verdicts if v.response is not None],
                         columns=["model", "variant", "level", "cut_off"])
    if frame.empty:
        return pd.DataFrame(columns=columns)
    table = frame.groupby(["model", "variant", "level"], as_index=False).agg(replies=("cut_off", "size"),
                                                                             cut_off=("cut_off", "sum"))
    table["share"] = table["cut_off"] / table["replies"]
    return table[columns]


def run_truncation_table(runs: RunPaths | Path | str | Sequence[Path | str]) -> pd.DataFrame:
    """`truncation_table` of the runs' latest verdicts, counted by DuckDB in their Parquet copy.

    No reply is read, and no verdict becomes a Python object, so the count stays fast and small at a
    million verdicts (``benchmarks/scale.py``).
    """
    from ..records.columnar import query

    runs = runs.root if isinstance(runs, RunPaths) else runs
    return query("SELECT model, variant, level::BIGINT AS level, count(*) AS replies, "
                 "count(*) FILTER (truncated) AS cut_off, cut_off / replies AS share FROM verdicts "
                 "WHERE response IS NOT NULL GROUP BY model, variant, level ORDER BY model, variant, level", runs)
