"""``report.md``: the tables and text of the written report, every name escaped for markdown.

Owns: a table in markdown (`markdown_table`), the per-model report tables (levels,
bottlenecks, skills, tested claims), the report of one run's summary (`written_report`), the
comparison tables and the comparison section (`comparison_report`). The sentences come from
`wording`; the numbers from ``summary.json`` and ``comparison.json``.
"""

from __future__ import annotations

import pandas as pd

from ..analysis import (
    BOOTSTRAP_MIN_TASKS,
    Comparison,
    Diagnosis,
    ModelSummary,
    PairComparison,
    RunSummary,
    difference_words,
    funnel_words,
    p_text,
    percent_text,
    points,
    share_words,
    undetermined_words,
)
from ._escaping import markdown_text


def markdown_table(table: pd.DataFrame, **options) -> str:
    """A table for ``report.md`` (``options`` go to `DataFrame.to_markdown`), every text cell and header
    escaped: skill and model names are data.
    """
    escaped = table.rename(columns=markdown_text).map(
        lambda cell: markdown_text(cell) if isinstance(cell, str) else cell)
    return escaped.to_markdown(index=False, **options)


def level_table(summary: ModelSummary) -> pd.DataFrame:
    """Success per level of one model's summary, formatted for the report."""
    return pd.DataFrame([{"level j": e.level, "success": percent_text(e.value),
                          "95% CI": f"{percent_text(e.ci95[0])}–{percent_text(e.ci95[1])}", "tasks answered": e.n,
                          "unanswered": e.unanswered, "asked of": e.population}
                         for e in summary.success_by_level])


def bottleneck_report_table(summary: ModelSummary, max_rows: int = 10) -> pd.DataFrame:
    """The most frequent bottleneck categories of one model's summary, formatted for the report."""
    rows = sorted(summary.bottlenecks.items(), key=lambda item: -item[1].tasks)[:max_rows]
    return pd.DataFrame([{"bottleneck (step k's skill)": name, "tasks": round(e.tasks, 1),
                          "share of tasks needing help": share_words(e)} for name, e in rows])


def skill_report_table(summary: ModelSummary, max_rows: int = 15) -> pd.DataFrame:
    """The most frequent skills with at least ``min_support`` occurrences, formatted for the report."""
    shown = [(name, e) for name, e in summary.per_skill.items() if e.occurrences >= summary.min_support]
    return pd.DataFrame([{"skill": name, "occurrences": e.occurrences,
                          "isolated accuracy": share_words(e.isolated_accuracy),
                          "bottleneck rate (descriptive)": share_words(e.bottleneck_rate),
                          "isolated − whole (points)": ("–" if e.isolated_vs_whole_gap.value is None
                                                        else points(e.isolated_vs_whole_gap.value))}
                         for name, e in shown[:max_rows]])


def diagnosis_table(diagnosis: Diagnosis) -> pd.DataFrame:
    """The claims of one model's ``diagnosis`` block, one row each, formatted for the report."""
    rows = [{"claim": f"weak skill '{e.skill}'", "estimate": share_words(e.comparable_accuracy or e.isolated_accuracy),
             "compared with": (f"other steps at its places {share_words(e.neighbours_accuracy)}"
                               if e.neighbours_accuracy else f"other skills {share_words(e.others_accuracy)}"),
             "Holm-adjusted p": f"{e.p_adjusted:.2g}"} for e in diagnosis.weak_skill_evidence]
    rows += [{"claim": f"cannot tell '{skill}' from its place", "estimate": "–",
              "compared with": "its steps seldom stand where another skill's do", "Holm-adjusted p": "–"}
             for skill in diagnosis.inseparable]
    for test in diagnosis.context:
        if test.informative:
            place = "later position" if test.context == "position" else "extra step of the task"
            rows.append({"claim": (f"{'later steps' if test.context == 'position' else 'longer tasks'} answered wrong "
                                   "more often" if test.claimed else f"no fall with {test.context} detected"),
                         "estimate": f"{100 * (test.slope or 0):+.0f} points per {place}",
                         "compared with": "0 (within skill and the other place)",
                         "Holm-adjusted p": f"{test.p_adjusted:.2g}"})
    effect = diagnosis.composition_effect
    if effect and effect.value is not None:
        adjusted = diagnosis.composition_p_adjusted
        rows.append({"claim": "fails to chain steps it can do alone" if diagnosis.composition_failure
                     else "no composition failure detected", "estimate": f"{effect.name} {difference_words(effect)}",
                     "compared with": "0 (whole task as likely as every step alone)",
                     "Holm-adjusted p": f"{adjusted:.2g}"})
    return pd.DataFrame(rows, columns=["claim", "estimate", "compared with", "Holm-adjusted p"])


def written_report(run: str, summary: RunSummary) -> str:
    """``report.md``: the task funnel, then per model the weakness profile (diagnosis first) and tables
    of the tested claims, levels, bottlenecks and skills.

    Every name and sentence is escaped for markdown (`stad_utils.report.markdown_text`): a
    skill or model name shows as typed, never as a tag or a link.
    """
    parts = [f"# STaD summary: {markdown_text(run)}\n"]
    if summary.funnel:
        parts.append(f"{funnel_words(summary.funnel)}\n")
    for model, numbers in summary.models.items():
        label = f"{model} (simulated target)" if numbers.simulated else model
        parts.append(f"## {markdown_text(label)}\n\n{markdown_text(numbers.weakness_profile)}\n")
        if not numbers.accuracy_original.n:
            continue
        diagnosis = numbers.diagnosis
        claims = diagnosis_table(diagnosis)
        tests = "the context and composition tests" if diagnosis.context else "the composition test"
        parts.append(f"### Diagnosis: {diagnosis.skills_tested} skills tested, with {tests}, "
                     f"Holm-corrected at α = {diagnosis.alpha}\n\n"
                     + (markdown_table(claims) if not claims.empty else "Nothing to test.") + "\n")
        parts.append(f"### Success per scaffold level\n\n{markdown_table(level_table(numbers))}\n")
        k_rows = [{"k": k, "share of determined tasks": share_words(e)} for k, e in numbers.k_share.items()]
        reasons = undetermined_words(numbers.undetermined) or "none undetermined"
        parts.append(f"### Minimal scaffolding level k ({reasons})\n\n{markdown_table(pd.DataFrame(k_rows))}\n")
        if numbers.bottlenecks:
            parts.append("### Bottlenecks (descriptive: step k's skill depends on where the skill stands in its "
                         f"tasks, see `stad_utils.definitions`)\n\n"
                         f"{markdown_table(bottleneck_report_table(numbers))}\n")
        skills = skill_report_table(numbers)
        parts.append(f"### Skills with at least {numbers.min_support} occurrences\n\n"
                     + (f"{markdown_table(skills)}\n" if not skills.empty else "None.\n"))
        if any(row.cut_off for row in numbers.truncated):
            cut = pd.DataFrame([row.as_dict() for row in numbers.truncated]).assign(
                share=lambda t: t["share"].map("{:.0%}".format))
            parts.append(f"### Replies cut off by max_tokens\n\n{markdown_table(cut)}\n")
    return "\n".join(parts)


COMPARISON_COLUMNS = ["A", "B", "level j", "tasks", "A solves", "B solves", "A − B (points)", "95% CI", "test", "p",
                      "detectable ≈", "asked of"]


def comparison_table(comparison: Comparison) -> pd.DataFrame:
    """Every paired level of every model pair, formatted for a notebook or report."""
    return pd.DataFrame([[c.models[0], c.models[1], row.level, row.tasks, percent_text(row.a),
                          percent_text(row.b), points(row.difference),
                          "none (< 30 tasks)" if row.low is None else f"{points(row.low)} to {points(row.high)}",
                          row.test, p_text(row.p_value),
                          "–" if row.minimal_detectable_difference is None
                          else f"{row.minimal_detectable_difference * 100:.0f}", row.population]
                         for c in comparison.comparisons for row in c.levels], columns=COMPARISON_COLUMNS)


def skill_comparison_table(result: PairComparison) -> pd.DataFrame:
    """One pair's `compare.skill_accuracy_comparison`, formatted for a notebook or report."""
    a, b = result.models
    return pd.DataFrame([{"skill": row.skill, "steps both answered": row.n, f"{a} alone": percent_text(row.a),
                          f"{b} alone": percent_text(row.b), "A − B (points)": points(row.difference),
                          "95% CI": f"{points(row.low)} to {points(row.high)}",
                          "Holm-adjusted p": p_text(row.p_adjusted)} for row in result.isolated_accuracy])


def comparison_report(comparison: Comparison) -> str:
    """The comparison section of ``report.md``: per pair its statement and paired levels, then validity checks."""
    parts = ["## Comparisons\n"]
    if not comparison.comparisons:
        parts.append(f"Only one model ({markdown_text(', '.join(comparison.models))}): nothing to compare.\n")
    table = comparison_table(comparison)
    for c in comparison.comparisons:
        a, b = c.models
        rows = table[(table["A"] == a) & (table["B"] == b)].drop(columns=["A", "B"])
        a, b = markdown_text(a), markdown_text(b)  # model names and the statement's skill names are data
        parts.append(f"### {a} vs {b}\n\n{markdown_text(c.statement)}\n")
        if not rows.empty:
            parts.append(f"Paired success per scaffold level (A = {a}, B = {b}; differences in percentage points, "
                         "95% Newcombe score intervals, or paired bootstrap with repeated samples and none below "
                         f"{BOOTSTRAP_MIN_TASKS} tasks):\n\n{markdown_table(rows, disable_numparse=True)}\n")
        skills = skill_comparison_table(c)
        if not skills.empty:
            parts.append(f"Isolated accuracy per skill on the same questions (McNemar exact, Holm-corrected):\n\n"
                         f"{markdown_table(skills, disable_numparse=True)}\n")
    validity = comparison.validity
    parts.append(f"### Validity checks\n\n{validity.possible_leakage} ladder(s) may leak the answer in a variant; "
                 f"{validity.non_monotonic} outcome(s) are non-monotonic; "
                 + ("'solved although a step failed' is not computed under on_failure."
                    if validity.solved_but_steps_failed is None else
                    f"{validity.solved_but_steps_failed} outcome(s) were solved as asked although a step failed "
                    "alone.") + "\n")
    return "\n".join(parts)
