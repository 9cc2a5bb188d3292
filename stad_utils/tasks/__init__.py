"""Where tasks come from: the built-in generator, the benchmark loaders, the release and official files."""

from __future__ import annotations

import random
from pathlib import Path

from ..records import Task
from ..official import read_official
from ..release import RELEASE_DATASET, load_release
from ._benchmarks import BENCHMARKS, _unique, load_benchmark
from ._generator import FAMILIES, clock, generate_tasks

__all__ = ["BENCHMARKS", "FAMILIES", "clock", "generate_tasks", "load_benchmark", "load_tasks", "sample"]


def sample(tasks: list[Task], n_tasks: int | None, seed: int) -> list[Task]:
    """A seeded sample of ``n_tasks`` in their original order (all if ``n_tasks`` is None or too large)."""
    if n_tasks is None or n_tasks >= len(tasks):
        return list(tasks)
    chosen = sorted(random.Random(seed).sample(range(len(tasks)), n_tasks))
    return [tasks[i] for i in chosen]


def load_tasks(source: str, *, n_tasks: int | None = None, seed: int = 0, data_path: str | None = None,
               release: str | None = None, families=FAMILIES, min_steps: int = 2, max_steps: int = 4,
               max_number: int = 9, keep_format_instruction: bool = True, skip_invalid: bool = False,
               problems: list | None = None) -> list[Task]:
    """Tasks for stage 01, sampled with ``seed``.

    Parameters
    ----------
    source : where the tasks come from:

        * ``"generated"``: the built-in generator (``families``, ``min_steps``, ``max_steps``, ``max_number``);
        * a benchmark of `BENCHMARKS`: from ``data_path`` (a JSONL file or folder) or else the hub;
        * ``"stad_release"``: the published scaffolded tasks (`stad_utils.release.load_release`), whose
          steps and variants the ``oracle`` teacher then serves: a JSONL file at ``data_path``, or the
          ``release`` benchmark's file from a local folder at ``data_path`` or else from the hub;
        * ``"official"``: the rows of a file of the authors' pipeline at ``data_path``, e.g. its raw input
          (``question``, ``answer``), as tasks (`stad_utils.official.read_official`).
    keep_format_instruction : ToT-Arithmetic: keep the question's answer-format instruction
        (see `stad_utils.tasks._benchmarks.tot_task` for the evidence behind the default).
    skip_invalid, problems : skip bad lines of a local file and collect them (each names file, line and field).

    Examples
    --------
    >>> [task.task_id for task in load_tasks("generated", n_tasks=2, seed=1)]
    ['gen1-0000', 'gen1-0001']
    """
    if source == "generated":
        return generate_tasks(n_tasks or 30, seed=seed, families=families, min_steps=min_steps,
                              max_steps=max_steps, max_number=max_number)
    if source == "stad_release":
        tasks = _unique(load_release(release or None, data_path or None, skip_invalid=skip_invalid, problems=problems),
                        Path(data_path or RELEASE_DATASET))
    elif source == "official":
        if not data_path:
            raise ValueError("source 'official' needs data_path: a JSONL file of the authors' pipeline")
        tasks = [row.task for row in read_official(data_path, skip_invalid=skip_invalid, problems=problems)]
    else:
        tasks = load_benchmark(source, data_path, keep_format_instruction=keep_format_instruction,
                               skip_invalid=skip_invalid, problems=problems)
    return sample(tasks, n_tasks or None, seed)
