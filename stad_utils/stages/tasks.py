"""Stage 01: the tasks of a run, generated or loaded from a benchmark, into ``tasks.jsonl``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..records import RecordFile, RunPaths, Task
from ..report import task_table
from ..tasks import load_tasks
from . import StageParams, StageResult, run_paths


class Params(StageParams):
    """The parameters of stage 01 (the notebook's ``parameters`` cell)."""

    source: str = "generated"
    data_path: str = ""
    release: str = ""
    n_tasks: int = 4
    seed: int = 0
    families: list[str] = ["word", "time"]
    min_steps: int = 2
    max_steps: int = 3
    max_number: int = 5
    keep_format_instruction: bool = True
    skip_invalid: bool = False


@dataclass
class Result(StageResult):
    """What stage 01 wrote and what its notebook shows."""

    tasks: list[Task] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """The bad lines of a local file that ``skip_invalid`` skipped, each naming its file, line and field."""

    def __str__(self) -> str:
        return "\n".join([*(f"skipped: {problem}" for problem in self.skipped),
                          f"{len(self.tasks)} tasks in {self.written[0]}"])

    def table(self) -> pd.DataFrame:
        """One row per task kept (`stad_utils.report.task_table`)."""
        return task_table(self.tasks)


def candidates(params: Params, skipped: list | None = None) -> list[Task]:
    """The tasks ``params`` name, loaded or generated (the bad lines ``skip_invalid`` skips go to ``skipped``)."""
    return load_tasks(params.source, data_path=params.data_path or None, release=params.release or None,
                      n_tasks=params.n_tasks, seed=params.seed, families=params.families,
                      min_steps=params.min_steps, max_steps=params.max_steps, max_number=params.max_number,
                      keep_format_instruction=params.keep_format_instruction,
                      skip_invalid=params.skip_invalid, problems=skipped)


def run(run: RunPaths | Path | str, params: Params | None = None) -> Result:
    """Load or generate the tasks and append the new ones to ``tasks.jsonl`` (a re-run keeps what it holds)."""
    paths, params = run_paths(run), params or Params()

    skipped: list = []
    tasks = RecordFile(paths.tasks, Task).extend(candidates(params, skipped), compute=lambda todo: todo)
    return Result(written=[paths.tasks], tasks=tasks, skipped=[str(problem) for problem in skipped])
