"""STaD workbench: find where a language model's multi-step reasoning breaks.

Import everything a notebook needs from here::

    from stad_utils import generate_tasks, decompose, build_ladders, evaluate, summarize

The names are loaded on first use (PEP 562): ``import stad_utils`` alone imports none of pandas,
scipy, openai or the sentence-embedding stack, so a stage's kernel pays only for what it calls.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

_SOURCES = {
    ".analysis": ["skill_table", "success_by_level"],
    ".client": ["ChatResult", "EndpointConfig", "ModelClient", "ResponseCache"],
    ".judge": ["Judgement", "extract_answer", "judge_answers"],
    ".markdown": ["written_report"],
    ".metrics": ["is_non_monotonic", "k_distribution", "minimal_scaffolding_level", "outcomes"],
    ".records": ["Decomposition", "Ladder", "LevelCheck", "Outcome", "Step", "StepSkill", "Task", "Verdict"],
    ".roles": ["LLMJudge", "open_judge", "open_teacher"],
    ".serving": ["embedded_model_path", "llama_server", "open_client"],
    ".stats": ["paired_bootstrap"],
    ".summary": ["summarize", "summarize_run"],
    ".wording": ["weakness_profile"],
    ".skills": ["BUNDLED_MODEL", "SkillMapper", "apply_skill_table", "fold_rare_skills", "skill_map_table",
                "label_agreement", "map_skills"],
    ".chain": ["build_ladders", "decompose", "evaluate", "evaluate_targets", "evaluation_items"],
    ".store": ["RecordError", "RecordFile", "RunPaths", "read_records", "record_usage"],
    ".tasks": ["generate_tasks"],
    ".teachers": ["OracleTeacher", "Teacher"],
}
_MODULE_OF = {name: module for module, names in _SOURCES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    if name not in _MODULE_OF:
        if importlib.util.find_spec(f"{__name__}.{name}") is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return importlib.import_module(f".{name}", __name__)  # a submodule, as `stad_utils.analysis`
    value = getattr(importlib.import_module(_MODULE_OF[name], __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # for type checkers and editors; never executed
    from .analysis import skill_table, success_by_level  # noqa: F401
    from .chain import build_ladders, decompose, evaluate, evaluate_targets, evaluation_items  # noqa: F401
    from .client import ChatResult, EndpointConfig, ModelClient, ResponseCache  # noqa: F401
    from .judge import Judgement, extract_answer, judge_answers  # noqa: F401
    from .markdown import written_report  # noqa: F401
    from .metrics import is_non_monotonic, k_distribution, minimal_scaffolding_level, outcomes  # noqa: F401
    from .records import Decomposition, Ladder, LevelCheck, Outcome, Step, StepSkill, Task, Verdict  # noqa: F401
    from .roles import LLMJudge, open_judge, open_teacher  # noqa: F401
    from .serving import embedded_model_path, llama_server, open_client  # noqa: F401
    from .skills import (  # noqa: F401
        BUNDLED_MODEL,
        SkillMapper,
        apply_skill_table,
        fold_rare_skills,
        label_agreement,
        map_skills,
        skill_map_table,
    )
    from .stats import paired_bootstrap  # noqa: F401
    from .store import RecordError, RecordFile, RunPaths, read_records, record_usage  # noqa: F401
    from .summary import summarize, summarize_run  # noqa: F401
    from .tasks import generate_tasks  # noqa: F401
    from .teachers import OracleTeacher, Teacher  # noqa: F401
    from .wording import weakness_profile  # noqa: F401
