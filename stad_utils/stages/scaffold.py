"""Stage 03: scaffold ladders and isolated questions of the consistent tasks, verified, into ``ladders.jsonl``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..method import build_ladders, open_judge, open_teacher
from ..records import Decomposition, Ladder, RecordFile, RunPaths, read_records, record_usage
from ..report import ladder_table
from . import StageParams, StageResult, run_paths


class Params(StageParams):
    """The parameters of stage 03 (the notebook's ``parameters`` cell)."""

    teacher: str | dict = "oracle"
    judge: dict = {}
    drop_single_step: bool = False
    placebo: bool = False
    cache_path: str = "results/cache.sqlite"


@dataclass
class Result(StageResult):
    """What stage 03 wrote and what its notebook shows."""

    ladders: list[Ladder] = field(default_factory=list)

    @property
    def verified(self) -> list[Ladder]:
        """The ladders whose every scaffold level the teacher solved."""
        return [ladder for ladder in self.ladders if ladder.verified]

    def __str__(self) -> str:
        return f"{len(self.verified)} of {len(self.ladders)} ladders pass verification"

    def first_ladder(self) -> pd.DataFrame | None:
        """The first verified ladder, from the original question down to the last step (None without one)."""
        return ladder_table(self.verified[0]) if self.verified else None


def run(run: RunPaths | Path | str, params: Params | None = None) -> Result:
    """Build and verify the ladders of the consistent decompositions not scaffolded yet."""
    paths, params = run_paths(run), params or Params()

    consistent = [d for d in read_records(paths.decompositions, Decomposition.model_validate) if d.consistent]
    with open_teacher(params.teacher, cache_path=params.cache_path) as teaching, \
            open_judge(params.judge, cache_path=params.cache_path) as llm_judge:
        ladders = RecordFile(paths.ladders, Ladder).extend(
            consistent, key=lambda d: d.task.task_id,
            compute=lambda todo: build_ladders(todo, teaching, llm_judge, drop_single_step=params.drop_single_step,
                                               placebo=params.placebo))
    record_usage(paths, "03_scaffold", {"teacher": teaching, "judge": llm_judge})
    return Result(written=[paths.ladders, paths.usage], ladders=ladders)
