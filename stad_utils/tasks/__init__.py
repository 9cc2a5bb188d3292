"""Where tasks come from: the built-in generator and the benchmark loaders."""

from __future__ import annotations

import random

from ..records import Task
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
               keep_format_instruction: bool = False) -> list[Task]:
    """Tasks for stage 01: ``"generated"`` or a benchmark of `BENCHMARKS` (sampled with ``seed``)."""
    if source == "generated":
        return generate_tasks(n_tasks or 30, seed=seed, families=families, min_steps=min_steps,
                              max_steps=max_steps, max_number=max_number)
    tasks = load_benchmark(source, data_path, keep_format_instruction=keep_format_instruction)
    return sample(tasks, n_tasks, seed)
