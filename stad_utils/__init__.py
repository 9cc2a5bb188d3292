"""STaD workbench: find where a language model's multi-step reasoning breaks.

The package is laid out as the method runs, one subpackage per concern, each importing only the
ones above it in this list::

    records    the typed record of every stage, the files that hold them, the rules of the logs
    models     one client for every model: endpoints, cache, retries, serving, simulated targets
    judge      does a reply commit to the reference answer? a precision-first cascade
    method     teachers, decomposition, ladders, evaluation, k, skills
    official   the authors' file formats and their published release
    tasks      where tasks come from: the generator, the benchmarks, the release
    analysis   statistics, measures, tested claims, comparisons, their words, summary.json
    exchange   runs exchanged with other tools: STaD inside Inspect and back, Inspect logs, Every Eval Ever
    report     report.md, figures, report.html and the failure browser
    stages     the eight stages, each ``run(paths, Params) -> Result``
    pipeline   parameter files and the runner that chains the stage notebooks
    workshop   the exercise notebook's runs

The names most notebooks need are also here, loaded on first use (PEP 562): ``import stad_utils``
alone imports none of pandas, scipy, openai or the sentence-embedding stack::

    from stad_utils import generate_tasks, decompose, build_ladders, evaluate, summarize
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

_SOURCES = {
    ".records": ["Decomposition", "Ladder", "LevelCheck", "Outcome", "RecordError", "RecordFile", "RunPaths", "Step",
                 "StepSkill", "Task", "Verdict", "evaluation_items", "read_records", "record_usage"],
    ".models": ["ChatResult", "EndpointConfig", "ModelClient", "ResponseCache", "embedded_model_path", "llama_server",
                "open_client"],
    ".judge": ["Judgement", "LLMJudge", "extract_answer", "judge_answers"],
    ".method": ["BUNDLED_MODEL", "OracleTeacher", "SkillMapper", "Teacher", "apply_skill_table", "build_ladders",
                "decompose", "evaluate", "evaluate_targets", "fold_rare_skills", "is_non_monotonic", "k_distribution",
                "label_agreement", "map_skills", "minimal_scaffolding_level", "open_judge", "open_teacher",
                "outcomes", "skill_map_table"],
    ".tasks": ["generate_tasks"],
    ".analysis": ["paired_bootstrap", "skill_table", "success_by_level", "summarize", "summarize_run",
                  "weakness_profile"],
    ".report": ["written_report"],
}
_MODULE_OF = {name: module for module, names in _SOURCES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    if name not in _MODULE_OF:
        if importlib.util.find_spec(f"{__name__}.{name}") is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return importlib.import_module(f".{name}", __name__)  # a subpackage, as `stad_utils.analysis`
    value = getattr(importlib.import_module(_MODULE_OF[name], __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # for type checkers and editors; never executed
    from .analysis import (  # noqa: F401
        paired_bootstrap,
        skill_table,
        success_by_level,
        summarize,
        summarize_run,
        weakness_profile,
    )
    from .judge import Judgement, LLMJudge, extract_answer, judge_answers  # noqa: F401
    from .method import (  # noqa: F401
        BUNDLED_MODEL,
        OracleTeacher,
        SkillMapper,
        Teacher,
        apply_skill_table,
        build_ladders,
        decompose,
        evaluate,
        evaluate_targets,
        fold_rare_skills,
        is_non_monotonic,
        k_distribution,
        label_agreement,
        map_skills,
        minimal_scaffolding_level,
        open_judge,
        open_teacher,
        outcomes,
        skill_map_table,
    )
    from .models import (  # noqa: F401
        ChatResult,
        EndpointConfig,
        ModelClient,
        ResponseCache,
        embedded_model_path,
        llama_server,
        open_client,
    )
    from .records import (  # noqa: F401
        Decomposition,
        Ladder,
        LevelCheck,
        Outcome,
        RecordError,
        RecordFile,
        RunPaths,
        Step,
        StepSkill,
        Task,
        Verdict,
        evaluation_items,
        read_records,
        record_usage,
    )
    from .report import written_report  # noqa: F401
    from .tasks import generate_tasks  # noqa: F401
