"""The eight stages of a run, each a function ``run(paths, params) -> Result`` in its own module.

    tasks ─► decompose ─► scaffold ─► skills ─► evaluate ─► analyze ─► compare        validate

A stage reads its inputs from the run folder (`stad_utils.records.RunPaths`), computes with the
functions of the method (`stad_utils.method._evaluate`, `stad_utils.method._skills`, `stad_utils.analysis`, …),
writes its outputs (append-only records through `stad_utils.records.RecordFile`, every other file
through `stad_utils.records.write_atomic`) and returns what its notebook shows. The notebooks are
these calls with an explanation, a ``parameters`` cell and display cells; the papermill chain
(`stad_utils.pipeline`) runs the notebooks, and Python code can call the stages directly::

    from stad_utils.stages import analyze

    result = analyze.run("results/quickstart", analyze.Params(n_resamples=200))
    print(list(result.summary.models))

Each module's ``Params`` is a pydantic model of the stage's parameters, with the same names and
defaults as its notebook's ``parameters`` cell (a test checks that they agree). A notebook hands
its parameters over with ``Params.from_cell(globals())``, so that each name is written once, in the
``parameters`` cell, and the values papermill injects are the ones the stage gets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

from ..records import RunPaths

STAGE_MODULES = {"01_tasks": "tasks", "02_decompose": "decompose", "03_scaffold": "scaffold", "04_skills": "skills",
                 "05_evaluate": "evaluate", "06_analyze": "analyze", "07_compare": "compare", "08_validate": "validate"}
"""Each notebook's stage module in this package."""


Parameters = TypeVar("Parameters", bound="StageParams")


class StageParams(BaseModel):
    """A stage's parameters: unknown names are refused (a typo), types are checked."""

    model_config = ConfigDict(extra="forbid")

    @classmethod
    def from_cell(cls: type[Parameters], namespace: Mapping[str, Any]) -> Parameters:
        """The parameters a notebook's ``parameters`` cell set, papermill's injected values included.

        A notebook passes ``globals()``: each field of the stage is taken from the variable of its
        name, so the cell is the one place where a parameter is written. A field without a variable
        keeps its default (the notebook and ``Params`` declare the same names: a test checks it).
        """
        return cls(**{name: namespace[name] for name in cls.model_fields if name in namespace})


def run_paths(run: RunPaths | Path | str) -> RunPaths:
    """The files of the run folder ``run`` (a folder path, or its `RunPaths` already)."""
    return run if isinstance(run, RunPaths) else RunPaths(run)


@dataclass
class StageResult:
    """What every stage returns: the files it wrote (its notebook shows the rest of its result)."""

    written: list[Path] = field(default_factory=list)
