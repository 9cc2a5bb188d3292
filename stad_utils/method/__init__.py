"""The method's arrows, from records to records: decompose, scaffold, evaluate, k, skills.

    tasks ─decompose─► decompositions ─build_ladders─► ladders ─evaluate─► verdicts ─outcomes─► k

``_teachers`` (who decomposes and writes variants: the oracle, GSM8K's solutions, an LLM) with
``_placebo`` and the authors' prompts (``_official_prompts``); ``_decompose``, ``_ladders`` and
``_evaluate`` are the arrows; ``_outcomes`` derives each task's success curve and its minimal
scaffolding level k; ``_skills`` maps steps to named skills; ``_roles`` opens a stage's teacher
and LLM judge from its parameters; ``rejudge`` scores saved replies again.
"""

from __future__ import annotations

from ._decompose import decompose, decomposition_agreement
from ._evaluate import (
    Question,
    answered_verdict,
    evaluate,
    evaluate_targets,
    judge_reply,
    ladder_questions,
    usage_by_option,
)
from ._ladders import build_ladders
from ._official_prompts import (
    OFFICIAL_REPOSITORY,
    OFFICIAL_TAG,
    REPO_VARIABLE,
    OfficialPrompts,
    OfficialRepoMissing,
    fill_isolated,
    fill_judge,
    fill_scaffold,
    fill_segment,
    fill_step_answers,
    load_official_prompts,
    read_judge_reply,
    read_judge_score,
    read_rewritten_question,
    read_segments,
    read_step_answers,
)
from ._outcomes import (
    UNRESOLVED_K,
    help_needed,
    is_non_monotonic,
    k_category,
    k_distribution,
    k_order,
    minimal_scaffolding_level,
    needs_step,
    outcomes,
)
from ._roles import check_judge_options, open_judge, open_teacher
from ._skills import (
    BUNDLED_MODEL,
    SkillMapper,
    abstract_descriptions,
    apply_skill_table,
    fold_rare_skills,
    label_agreement,
    map_skills,
    name_skills_with_llm,
    skill_map_table,
    skill_summary,
)
from ._teachers import (
    GSM8KSolutionTeacher,
    LLMTeacher,
    OracleTeacher,
    Teacher,
    gsm8k_solution_steps,
    operation_skill,
    template_variants,
)
from .rejudge import agreement_table, main, rejudge_run

__all__ = [
    "UNRESOLVED_K", "answered_verdict", "help_needed", "judge_reply", "ladder_questions", "k_category", "k_order",
    "needs_step",
    "BUNDLED_MODEL", "GSM8KSolutionTeacher", "LLMTeacher", "OFFICIAL_REPOSITORY", "OFFICIAL_TAG", "OfficialPrompts",
    "OfficialRepoMissing", "OracleTeacher", "Question", "REPO_VARIABLE", "SkillMapper", "Teacher",
    "abstract_descriptions", "agreement_table", "apply_skill_table", "build_ladders", "check_judge_options",
    "decompose", "decomposition_agreement", "evaluate", "evaluate_targets", "fill_isolated", "fill_judge",
    "fill_scaffold", "fill_segment", "fill_step_answers", "fold_rare_skills", "gsm8k_solution_steps",
    "is_non_monotonic", "k_distribution", "label_agreement", "load_official_prompts", "main", "map_skills",
    "minimal_scaffolding_level", "name_skills_with_llm", "open_judge", "open_teacher", "operation_skill",
    "outcomes", "read_judge_reply", "read_judge_score", "read_rewritten_question", "read_segments",
    "read_step_answers", "rejudge_run", "skill_map_table", "skill_summary", "template_variants", "usage_by_option",
]
