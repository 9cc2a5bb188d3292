"""STaD workbench: find where a language model's multi-step reasoning breaks.

Import everything a notebook needs from here::

    from stad_utils import generate_tasks, decompose, build_ladders, evaluate, summarize
"""

from .analysis import (paired_bootstrap, skill_table, success_by_level, summarize, summarize_run, weakness_profile,
                       written_report)
from .client import ChatResult, EndpointConfig, ModelClient, ResponseCache
from .judge import Judgement, extract_answer, judge_answers
from .metrics import is_non_monotonic, k_distribution, minimal_scaffolding_level, outcomes
from .records import Decomposition, Ladder, LevelCheck, Outcome, Step, StepSkill, Task, Verdict
from .roles import LLMJudge, open_judge, open_teacher
from .serving import embedded_model_path, llama_server, open_client
from .skills import BUNDLED_MODEL, SkillMapper, apply_skill_table, fold_rare_skills, skill_map_table, label_agreement, map_skills
from .stages import build_ladders, decompose, evaluate, evaluate_targets, evaluation_items
from .store import RecordError, RecordFile, RunPaths, read_records, record_usage
from .tasks import generate_tasks
from .teachers import OracleTeacher, Teacher

__all__ = [
    "BUNDLED_MODEL", "ChatResult", "Decomposition", "EndpointConfig", "Judgement", "LLMJudge", "Ladder",
    "LevelCheck", "ModelClient", "OracleTeacher", "Outcome", "RecordError", "RecordFile", "ResponseCache",
    "RunPaths", "SkillMapper", "skill_map_table", "Step", "StepSkill", "Task", "Teacher", "Verdict", "apply_skill_table",
    "paired_bootstrap", "build_ladders", "decompose", "embedded_model_path", "evaluate", "evaluate_targets", "evaluation_items",
    "extract_answer", "fold_rare_skills", "generate_tasks", "is_non_monotonic", "judge_answers", "k_distribution", "label_agreement",
    "llama_server", "map_skills", "minimal_scaffolding_level", "open_client", "open_judge", "open_teacher",
    "outcomes", "read_records", "record_usage", "skill_table", "success_by_level", "summarize", "summarize_run", "written_report",
    "weakness_profile",
]
