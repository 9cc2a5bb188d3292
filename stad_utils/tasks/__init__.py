"""Where tasks come from: the built-in generator and the benchmark loaders."""

from __future__ import annotations

import random

from ..records import Task
from ..release import release_task
from ..store import read_records
from ._benchmarks import BENCHMARKS, load_benchmark
from ._generator import FAMILIES, clock, generate_tasks

__all__ = ["BENCHMARKS", "FAMILIES", "clock", "generate_tasks", "load_benchmark", "load_tasks", "sample"]


def sample(tasks: list[Task], n_tasks: int | None, seed: int) -> list[Task]:
    """A seeded sample of ``n_tasks`` in their original order (all if ``n_tasks`` is None or too large)."""
    if n_tasks is None or n_tasks >= len(tasks):
        return list(tasks)
    chosen = sorted(random.Random(seed).sample(range(len(tasks)), n_tasks))
    return [tasks[i] for i in chosen]


def load_tasks(source: str, *, n_tasks: int | None = None, seed: int = 0, data_path: str | None = None,
               families=FAMILIES, min_steps: int = 2, max_steps: int = 4, max_number: int = 9,
               keep_format_instruction: bool = False, skip_invalid: bool = False,
               problems: list | None = None) -> list[Task]:
    """Tasks for stage 01, sampled with ``seed``.

    ``source`` is ``"generated"`` (the built-in generator), a benchmark of `BENCHMARKS` (from
    ``data_path`` or the hub), or ``"stad_release"`` (a local JSONL file of the official release,
    whose steps and variants the ``oracle`` teacher then serves). With ``skip_invalid`` bad lines
    of a local file are collected in ``problems`` (each naming file, line and field) and skipped.
    """
    if source == "generated":
        return generate_tasks(n_tasks or 30, seed=seed, families=families, min_steps=min_steps,
                              max_steps=max_steps, max_number=max_number)
    if source == "stad_release":
        if not data_path:
            raise ValueError("source 'stad_release' needs data_path: a JSONL file of the official STaD release")
        return sample(read_records(data_path, release_task, skip_invalid=skip_invalid, problems=problems),
                      n_tasks or None, seed)
    tasks = load_benchmark(source, data_path, keep_format_instruction=keep_format_instruction,
                           skip_invalid=skip_invalid, problems=problems)
    return sample(tasks, n_tasks or None, seed)
