"""Stage 02: the teacher splits each task into steps and solves them, into ``decompositions.jsonl``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..method import decompose, open_judge, open_teacher
from ..records import Decomposition, RecordFile, RunPaths, Task, read_records, record_usage
from ..report import decomposition_table
from . import StageParams, StageResult, run_paths


class Params(StageParams):
    """The parameters of stage 02 (the notebook's ``parameters`` cell)."""

    teacher: str | dict = "oracle"
    judge: dict = {}
    cache_path: str = "results/cache.sqlite"


@dataclass
class Result(StageResult):
    """What stage 02 wrote and what its notebook shows."""

    decompositions: list[Decomposition] = field(default_factory=list)

    @property
    def consistent(self) -> list[Decomposition]:
        """The decompositions whose last step equals the gold answer."""
        return [d for d in self.decompositions if d.consistent]

    def __str__(self) -> str:
        return f"{len(self.consistent)} of {len(self.decompositions)} decompositions pass the consistency filter"

    def table(self) -> pd.DataFrame:
        """One row per decomposition: its steps and whether it passed (`stad_utils.report.decomposition_table`)."""
        return decomposition_table(self.decompositions)


def run(run: RunPaths | Path | str, params: Params | None = None) -> Result:
    """Decompose the tasks not decomposed yet, with the consistency filter, and record the teacher's usage."""
    paths, params = run_paths(run), params or Params()

    tasks = read_records(paths.tasks, Task.model_validate)
    with open_teacher(params.teacher, cache_path=params.cache_path) as teaching, \
            open_judge(params.judge, cache_path=params.cache_path) as llm_judge:
        decompositions = RecordFile(paths.decompositions, Decomposition).extend(
            tasks, compute=lambda todo: decompose(todo, teaching, llm_judge))
    record_usage(paths, "02_decompose", {"teacher": teaching, "judge": llm_judge})
    return Result(written=[paths.decompositions, paths.usage], decompositions=decompositions)
