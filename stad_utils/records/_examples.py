"""A small saved run that ships with the package, so 06_analyze and 07_compare open with something to show.

It is the quickstart (`params/quickstart.yaml`: 30 generated tasks, the oracle teacher) up to
05_evaluate: real replies of SmolLM2-135M in two settings and the simulated target with a planted
weakness, judged by the cascade. A workshop can step through the analysis without running a model.

    python -m stad_utils.records._examples save results/quickstart   # refresh the saved run from a finished quickstart
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from ._store import RunPaths

SAVED_RUN = Path(__file__).resolve().parents[1] / "example_run"
"""The record files of the saved run (package data)."""

EXAMPLE_NAME = "example"
"""A run folder of this name, when empty, is filled with the saved run (the notebooks' default)."""


def _record_files(paths: RunPaths) -> list[Path]:
    return [paths.tasks, paths.decompositions, paths.ladders, paths.skills, paths.verdicts, paths.outcomes,
            paths.usage]


def open_run(run_dir: Path | str) -> Path:
    """``run_dir``, first filled with the saved example run if it is named ``example`` and holds no outcomes.

    Any other folder is returned as it is: the analysis notebooks read whatever run they are given.
    """
    run_dir = Path(run_dir)
    paths = RunPaths(run_dir)
    if run_dir.name == EXAMPLE_NAME and not paths.outcomes.exists():
        run_dir.mkdir(parents=True, exist_ok=True)
        for saved, wanted in zip(_record_files(RunPaths(SAVED_RUN)), _record_files(paths)):
            shutil.copyfile(saved, wanted)
    return run_dir


def save_example(finished_run: Path | str) -> None:
    """Copy the record files of a finished run (01–05) into the package as the saved example run."""
    source = RunPaths(finished_run)
    missing = [path for path in _record_files(source) if not path.exists()]
    if missing:
        raise FileNotFoundError(f"{finished_run} lacks {', '.join(p.name for p in missing)}: run 01–05 first")
    SAVED_RUN.mkdir(exist_ok=True)
    for path, saved in zip(_record_files(source), _record_files(RunPaths(SAVED_RUN))):
        shutil.copyfile(path, saved)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "save":
        sys.exit("usage: python -m stad_utils.records._examples save RUN_DIR")
    save_example(sys.argv[2])
