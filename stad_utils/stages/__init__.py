"""The eight stages of a run, each a function ``run(paths, params) -> Result`` in its own module.

    tasks ─► decompose ─► scaffold ─► skills ─► evaluate ─► analyze ─► compare        validate

A stage reads its inputs from the run folder (`stad_utils.records.RunPaths`), computes with the
functions of the method (`stad_utils.method._evaluate`, `stad_utils.method._skills`, `stad_utils.analysis`, …),
writes its outputs (append-only records through `stad_utils.records.RecordFile`, every other file
through `stad_utils.records.write_atomic`) and returns what its notebook shows. The notebooks are
these calls with an explanation, a ``parameters`` cell and display cells; the papermill chain
(`stad_utils.pipeline`) runs the notebooks, and Python code can call the stages directly::

    from stad_utils import RunPaths
    from stad_utils.stages import analyze

    result = analyze.run(RunPaths("results/quickstart"), analyze.Params(n_resamples=200))
    print(result.summary["models"].keys())

Each module's ``Params`` is a pydantic model of the stage's parameters, with the same names and
defaults as its notebook's ``parameters`` cell (a test checks that they agree).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict

STAGE_MODULES = {"01_tasks": "tasks", "02_decompose": "decompose", "03_scaffold": "scaffold", "04_skills": "skills",
                 "05_evaluate": "evaluate", "06_analyze": "analyze", "07_compare": "compare", "08_validate": "validate"}
"""Each notebook's stage module in this package."""


class StageParams(BaseModel):
    """A stage's parameters: unknown names are refused (a typo), types are checked."""

    model_config = ConfigDict(extra="forbid")


@dataclass
class StageResult:
    """What every stage returns: the files it wrote (its notebook shows the rest of its result)."""

    written: list[Path] = field(default_factory=list)
