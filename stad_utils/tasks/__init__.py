"""Where tasks come from: the built-in generator, the benchmark loaders, the release and official files."""

from __future__ import annotations

import random

from ..official import load_release, read_official
from ..records import Task
from ._benchmarks import BENCHMARKS, load_benchmark, strip_format_instruction, tot_gold
from ._generator import FAMILIES, generate_tasks

__all__ = ["BENCHMARKS", "FAMILIES", "generate_tasks", "load_benchmark", "load_tasks", "sample",
           "strip_format_instruction", "tot_gold"]


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
        * ``"stad_release"``: the published scaffolded tasks (`stad_utils.official.load_release`), whose
          steps and variants the ``oracle`` teacher then serves: a JSONL file at ``data_path``, or the
          ``release`` benchmark's file from a local folder at ``data_path`` or else from the hub;
        * ``"official"``: the raw input rows (``question``, ``answer``) of the authors' generation script
          at ``data_path`` (`stad_utils.official.read_official`). A later file of their chain is refused
          with advice: its steps and variants would be lost (`_official_input`).
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
        tasks = load_release(release or None, data_path or None, skip_invalid=skip_invalid, problems=problems)
    elif source == "official":
        tasks = _official_input(data_path, skip_invalid, problems)
    else:
        tasks = load_benchmark(source, data_path, keep_format_instruction=keep_format_instruction,
                               skip_invalid=skip_invalid, problems=problems)
    return sample(tasks, n_tasks or None, seed)


def _official_input(data_path: str | None, skip_invalid: bool, problems: list | None) -> list[Task]:
    """The tasks of an official raw input file; a later file of the chain is refused, saying what reads it."""
    if not data_path:
        raise ValueError("source 'official' needs data_path: a JSONL file of the authors' pipeline")
    imported = read_official(data_path, skip_invalid=skip_invalid, problems=problems)
    later = next((row.kind.name for row in imported if row.kind.name != "input"), None)
    if later:
        raise ValueError(
            f"{data_path} holds '{later}' rows of the authors' chain, not their raw input (question, answer): "
            "source 'official' would keep only each row's question and answer. Evaluate the verified ladders of a "
            "final or test-chain file with source: stad_release (data_path: the same file) and teacher: oracle; "
            "import the whole chain with its verdicts with `python -m stad_utils.official import PATH… --run NAME`; "
            "or give the raw input file X.jsonl to decompose the questions again.")
    return [row.task for row in imported]
