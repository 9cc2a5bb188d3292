"""What every exchange reads of a run folder: its verified ladders, each step's skill, each question's
id and metadata in other tools, and the settings its targets were asked with.

A question keeps one id in every file this package writes: ``<task>-<variant>-<level>`` (e.g.
``gen0-0003-scaffold-1``); a repeated sample is Inspect's epoch (sample *s* is epoch *s* + 1).
"""

from __future__ import annotations

import hashlib
import re
import uuid
from pathlib import Path

import yaml

from ..method import Question
from ..models import EndpointConfig, record_name
from ..records import UNMAPPED, Ladder, RunPaths, StepSkill, read_records


def verified_ladders(paths: RunPaths) -> list[Ladder]:
    """The run's verified ladders: the questions 05 asks (a run without ladders is an error naming the file)."""
    if not paths.ladders.exists():
        raise FileNotFoundError(f"{paths.ladders} does not exist: run 01_tasks to 03_scaffold (or 04_skills) first")
    return [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]


def step_skills(paths: RunPaths) -> dict[tuple[str, int], str]:
    """Each (task, step)'s skill from ``skills.jsonl`` (none before 04_skills: every step is ``unmapped``)."""
    return {(s.task_id, s.step): s.skill for s in read_records(paths.skills, StepSkill.model_validate, missing_ok=True)}


def sample_id(task_id: str, variant: str, level: int) -> str:
    """The id of a question in other tools' files.

    Examples
    --------
    >>> sample_id("gen0-0003", "scaffold", 1)
    'gen0-0003-scaffold-1'
    """
    return f"{task_id}-{variant}-{level}"


def question_metadata(question: Question, skills: dict[tuple[str, int], str]) -> dict:
    """What a question is in the method's terms: its task, variant, level, the step it isolates and that
    step's skill (``None`` for the original, scaffold and placebo levels), the skills of all its steps, K.
    """
    ladder = question.ladder
    task_skills = [skills.get((ladder.task_id, i), UNMAPPED) for i in range(1, ladder.n_steps + 1)]
    step = question.level if question.variant == "isolated" else None
    return {"task_id": ladder.task_id, "variant": question.variant, "level": question.level, "step": step,
            "skill": task_skills[step - 1] if step else None, "skills": task_skills, "n_steps": ladder.n_steps,
            "source": ladder.task.source, "answer_format": ladder.task.answer_format}


def params_of(paths: RunPaths, params_file: Path | str | None = None) -> Path:
    """The params file a run was made with: ``params_file`` if given, else the run's own ``params.yaml``
    (written by the runner; a run made otherwise, such as the saved example run, has none).
    """
    return Path(params_file) if params_file else paths.root / "params.yaml"


def stage_params(params_file: Path, stage: str) -> dict:
    """One stage's block of a params file (empty when the file or the block is missing)."""
    if not params_file.exists():
        return {}
    return ((yaml.safe_load(params_file.read_text(encoding="utf-8")) or {}).get("stages") or {}).get(stage) or {}


def target_settings(params_file: Path) -> dict[str, EndpointConfig]:
    """The endpoint of each target of 05_evaluate in ``params_file``, by the name its records carry (a simulated
    target's is marked, `stad_utils.models.record_name`); empty without the file.
    """
    settings = [EndpointConfig.model_validate(target)
                for target in stage_params(params_file, "05_evaluate").get("targets") or []]
    return {record_name(setting.label) if setting.kind == "simulated" else setting.label: setting
            for setting in settings}


def slug(text: str) -> str:
    """``text`` as a file or folder name: letters, digits, dots and dashes.

    Examples
    --------
    >>> slug("simulated: weak skill")
    'simulated-weak-skill'
    """
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-") or "model"


def stable_uuid(*parts: str) -> str:
    """A version-4-shaped UUID derived from ``parts``: exporting the same run again writes the same names.

    Examples
    --------
    >>> stable_uuid("run", "model") == stable_uuid("run", "model"), stable_uuid("run", "model")[14]
    (True, '4')
    """
    digest = hashlib.sha256("\0".join(parts).encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


def run_name(paths: RunPaths) -> str:
    """The run's name: its folder's."""
    return Path(paths.root).resolve().name
