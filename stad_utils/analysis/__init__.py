"""What the outcomes say, each claim tested: statistics, measures, claims, comparisons, words, summary.json.

From the bottom up: ``_stats`` (every interval and test, once) and ``_schema`` (what summary.json
and comparison.json hold); ``_frames`` (the tables every measure is computed from); ``_measures``
(accuracy per level, k, bottlenecks, skills), ``_claims`` (the tested claims a sentence may
make), ``_funnel`` and ``_validity``; ``_compare`` (two models on the same tasks); ``_wording``
(every sentence); ``_summary`` (summary.json and comparison.json); ``_validation`` (does the
diagnosis find a planted weakness). Every quantity is defined in `stad_utils.definitions`.
"""

from __future__ import annotations

from ..definitions import BOOTSTRAP_MIN_TASKS, MIN_SUPPORT, UNRESOLVED
from ._claims import (
    CompositionGap,
    accuracy_by_place,
    composition_gap,
    context_tests,
    diagnose,
    flag_weak_skills,
    weak_skill_tests,
)
from ._compare import (
    PAIR_GAP_REFUSAL,
    ComparisonTables,
    comparison_tables,
    composition_comparison,
    pair_composition_gaps,
    paired_levels,
    profile_matrices,
    profile_permutation_test,
    skill_accuracy_comparison,
)
from ._frames import (
    ModelFrames,
    OutcomeFrames,
    answer_frame,
    as_frames,
    isolated_steps,
    outcome_frame,
    policy_of,
    step_frame,
)
from ._funnel import DROP_NAMES, run_funnel, run_truncation_table, task_funnel, truncation_table
from ._measures import (
    ModelMeasures,
    accuracy_scaffolded,
    bottleneck_attribution,
    help_from_content,
    k_shares,
    k_stability,
    measure,
    skill_table,
    success_by_level,
    undetermined_counts,
)
from ._schema import (
    SCHEMA_VERSION,
    SCHEMAS,
    Comparison,
    ContextTest,
    Diagnosis,
    Estimate,
    Funnel,
    ModelSummary,
    NamedEstimate,
    PairComparison,
    PlaceAccuracy,
    RunSummary,
    TestedSkill,
    Undetermined,
    json_schema,
)
from ._stats import (
    holm,
    minimal_detectable_difference,
    paired_bootstrap,
    paired_difference_interval,
    paired_test,
    share_estimates,
    smallest_detectable_deficit,
)
from ._summary import (
    RunAnalysis,
    analyze_run,
    compare_pair,
    compare_run,
    diagnosis_block,
    model_summary,
    summarize,
    summarize_run,
)
from ._validation import (
    PLANTED,
    Chain,
    PenaltyFit,
    Recovery,
    estimate_composition_penalty,
    power_curve,
    power_table,
    recovery,
    run_chain,
    tasks_needed,
)
from ._validity import possible_leakage, validity_checks
from ._wording import (
    accuracy_statement,
    difference_words,
    funnel_words,
    p_text,
    p_words,
    percent_text,
    points,
    share_words,
    simulated_label,
    undetermined_words,
    weakness_profile,
)

__all__ = [
    "ContextTest", "PlaceAccuracy", "TestedSkill",
    "accuracy_by_place", "context_tests",
    "PenaltyFit", "Recovery",
    "ComparisonTables", "comparison_tables",
    "CompositionGap", "ModelMeasures", "OutcomeFrames", "RunAnalysis", "analyze_run", "as_frames", "measure",
    "model_summary",
    "BOOTSTRAP_MIN_TASKS", "Chain", "Comparison", "DROP_NAMES", "Diagnosis", "Estimate", "Funnel", "MIN_SUPPORT",
    "ModelFrames", "ModelSummary", "NamedEstimate", "PAIR_GAP_REFUSAL", "PLANTED", "PairComparison", "RunSummary",
    "SCHEMAS", "SCHEMA_VERSION", "UNRESOLVED", "Undetermined", "accuracy_scaffolded", "accuracy_statement",
    "answer_frame", "bottleneck_attribution", "compare_pair", "compare_run", "composition_comparison",
    "composition_gap", "diagnose", "diagnosis_block", "difference_words", "estimate_composition_penalty",
    "flag_weak_skills", "funnel_words", "help_from_content", "holm", "isolated_steps", "json_schema",
    "k_shares", "k_stability", "minimal_detectable_difference", "outcome_frame", "p_text", "p_words",
    "pair_composition_gaps", "paired_bootstrap", "paired_difference_interval", "paired_levels", "paired_test",
    "percent_text", "points", "policy_of", "possible_leakage", "power_curve", "power_table", "profile_matrices",
    "profile_permutation_test", "recovery", "run_chain", "run_funnel", "run_truncation_table", "share_estimates",
    "share_words", "simulated_label", "skill_accuracy_comparison", "skill_table", "smallest_detectable_deficit",
    "step_frame", "success_by_level", "summarize", "summarize_run", "task_funnel", "tasks_needed",
    "truncation_table", "undetermined_counts", "undetermined_words", "validity_checks", "weak_skill_tests",
    "weakness_profile",
]
