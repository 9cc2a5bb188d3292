"""Every sentence of the analysis, and every number in words (template text, no model involved).

Owns: percents, points, shares, differences, counts and p-values in words; the notes of a
policy; the headline of a diagnosis and a model's weakness profile; the statement of a
pairwise comparison; the words of the task funnel and of replies cut off by ``max_tokens``;
and the "(simulated)" mark of a model's name. It reads the numbers `stad_utils.analysis._summary`
assembles (by attribute, as `stad_utils.analysis._schema` describes them) and computes none.
"""

from __future__ import annotations

from ..definitions import ALPHA, MIN_SUPPORT, UNRESOLVED
from ._schema import (
    Diagnosis,
    Estimate,
    Funnel,
    ModelSummary,
    NamedEstimate,
    PairComparison,
    SkillEvidence,
    TruncationRow,
    Undetermined,
)

POLICY_NOTES = {
    "full": [],
    "on_failure": [
        "Policy on_failure: variants were asked only for tasks failed as asked, so success at levels ≥ 1, "
        "isolated accuracy and help from content describe those tasks only.",
        "Not computed under on_failure (fixed by the selection): the isolated-vs-whole gap, the pair composition "
        "gap, and 'solved although a step failed'.",
    ],
}


def percent_text(value: float | None) -> str:
    """'42%', or '–' for a missing value."""
    return "–" if value is None else f"{value:.0%}"


def n_words(n: float) -> str:
    """'n = 20'; per-task weighting over samples can make a count fractional: 'n ≈ 20'.

    Examples
    --------
    >>> n_words(20), n_words(20.33)
    ('n = 20', 'n ≈ 20')
    """
    return f"n = {n:g}" if float(n).is_integer() else f"n ≈ {n:.0f}"


def points(value: float | None) -> str:
    """A difference of shares in percentage points, with its sign, or '–' for a missing value.

    Examples
    --------
    >>> points(0.123), points(-0.05), points(None)
    ('+12', '−5', '–')
    """
    return "–" if value is None else f"{value * 100:+.0f}".replace("-", "−")


def share_words(entry: Estimate) -> str:
    """'42% (95% CI 30–55%, n = 50)', or '– (n = 0)' without a value.

    Examples
    --------
    >>> share_words(Estimate(value=0.5, ci95=[0.3, 0.7], n=20)), share_words(Estimate(value=None, ci95=[None, None],
    ...                                                                                n=0))
    ('50% (95% CI 30%–70%, n = 20)', '– (n = 0)')
    """
    low, high = entry.ci95
    if entry.value is None:
        return f"– ({n_words(entry.n)})"
    return f"{percent_text(entry.value)} (95% CI {percent_text(low)}–{percent_text(high)}, {n_words(entry.n)})"


def difference_words(entry: Estimate) -> str:
    """'+12 points (95% CI −3 to +25)' for an estimate of a difference of shares.

    Examples
    --------
    >>> difference_words(Estimate(value=0.12, ci95=[-0.03, 0.25], n=40))
    '+12 points (95% CI −3 to +25, n = 40)'
    """
    low, high = entry.ci95
    interval = "no interval" if low is None else f"95% CI {points(low)} to {points(high)}"
    return f"{points(entry.value)} points ({interval}, {n_words(entry.n)})"


def undetermined_words(counts: Undetermined) -> str:
    """'3 outcome(s) without a determined k (2 errors, 1 undecided)', or '' when there are none.

    Examples
    --------
    >>> undetermined_words(Undetermined.model_validate({"error": 2, "undecided": 1, "not asked": 0, "total": 3}))
    '3 outcome(s) without a determined k (2 errors, 1 undecided)'
    """
    if not counts.total:
        return ""
    parts = [f"{counts.error} error{'s' if counts.error != 1 else ''}"] if counts.error else []
    parts += [f"{counts.undecided} undecided"] if counts.undecided else []
    parts += [f"{counts.not_asked} not asked"] if counts.not_asked else []
    return f"{counts.total} outcome(s) without a determined k ({', '.join(parts)})"


def p_text(p: float) -> str:
    """A p-value for a table: '0.012', or '< 0.001'."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def p_words(p: float) -> str:
    """A p-value for a sentence: 'p = 0.012', or 'p < 0.001'.

    Examples
    --------
    >>> p_words(0.0123), p_words(1e-6)
    ('p = 0.012', 'p < 0.001')
    """
    text = p_text(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def _skill_words(evidence: SkillEvidence) -> str:
    if evidence.comparable_accuracy is None or evidence.neighbours_accuracy is None:  # a version-1 file
        return (f"'{evidence.skill}' (asked alone, right in {share_words(evidence.isolated_accuracy)} against "
                f"{share_words(evidence.others_accuracy)} for the other skills; Holm-adjusted "
                f"{p_words(evidence.p_adjusted)})")
    return (f"'{evidence.skill}' (asked alone, right in {share_words(evidence.comparable_accuracy)} against "
            f"{share_words(evidence.neighbours_accuracy)} for the other steps at the same positions in tasks of the "
            f"same length; Holm-adjusted {p_words(evidence.p_adjusted)})")


CONTEXT_WORDS = {"position": ("Steps late in a task are answered wrong more often, whatever their skill",
                              "per later position"),
                 "length": ("Steps of longer tasks are answered wrong more often, whatever their skill",
                            "per extra step of the task")}
"""Each context claim's sentence, and the unit of its slope."""


def context_sentences(diagnosis: Diagnosis) -> list[str]:
    """The sentences of the context claims and of the skills the diagnosis cannot tell from their place.

    Examples
    --------
    >>> from stad_utils.analysis import ContextTest
    >>> diagnosis = Diagnosis(weak_skills=[], weak_skill_evidence=[], composition_failure=False,
    ...                       composition_effect=None, composition_p_adjusted=None, test="t", correction="c",
    ...                       alpha=0.05, skills_tested=3, smallest_detectable_effect=None, inseparable=["average"],
    ...                       context=[ContextTest(context="position", slope=-0.04, informative=900,
    ...                                            p_adjusted=0.001, claimed=True, by_place=[])])
    >>> for sentence in context_sentences(diagnosis):  # doctest: +NORMALIZE_WHITESPACE
    ...     print(sentence)
    Steps late in a task are answered wrong more often, whatever their skill (accuracy asked alone falls by 4 points
    per later position, within skill and task length; Holm-adjusted p = 0.001).
    'average' is answered wrong more often than the other steps, but its steps seldom stand where another skill's
    do: these tasks cannot tell a weak 'average' from a hard place in its tasks, so neither is named.
    """
    sentences = []
    for test in diagnosis.context:
        if test.claimed:
            claim, unit = CONTEXT_WORDS[test.context]
            within = "skill and task length" if test.context == "position" else "skill and position"
            fall = round(-100 * (test.slope or 0))
            sentences.append(f"{claim} (accuracy asked alone falls by {fall} point{'' if fall == 1 else 's'} {unit}, "
                             f"within {within}; Holm-adjusted {p_words(test.p_adjusted)}).")
    for skill in diagnosis.inseparable:
        sentences.append(f"'{skill}' is answered wrong more often than the other steps, but its steps seldom stand "
                         f"where another skill's do: these tasks cannot tell a weak '{skill}' from a hard place in "
                         "its tasks, so neither is named.")
    return sentences


def composition_words(effect: NamedEstimate) -> str:
    """'composition gap −40 points (95% CI −44 to −36, n = 1178 tasks)'."""
    return f"{effect.name} {difference_words(effect).replace(')', ' tasks)', 1)}"


def headline(diagnosis: Diagnosis) -> str:
    """The sentences of a ``diagnosis`` block: where the model's reasoning breaks, each number with its
    interval and n, or that no test found a weakness and what the sample could have detected; then
    what the context claims (`context_sentences`).
    """
    return " ".join([_main_sentence(diagnosis), *context_sentences(diagnosis)])


def _main_sentence(diagnosis: Diagnosis) -> str:
    """The headline's first sentence: the weak skills and the failure to chain, or what no test found."""
    weak, evidence, effect = diagnosis.weak_skills, diagnosis.weak_skill_evidence, diagnosis.composition_effect
    chaining = ""
    if diagnosis.composition_failure:
        p_adjusted = diagnosis.composition_p_adjusted
        assert effect is not None and p_adjusted is not None  # a composition failure is a gap tested (claims)
        chaining = ("it fails to chain steps it can do alone, solving whole tasks less often than their steps "
                    f"alone ({composition_words(effect)}, Holm-adjusted {p_words(p_adjusted)})")
    if weak:
        named = "; ".join(_skill_words(e) for e in evidence)
        where = "the skill" if len(weak) == 1 else f"{len(weak)} skills, most severe first"
        first = f"Its reasoning breaks at {where}: {named}"
        return f"{first}{'; and ' + chaining if chaining else ''}."
    tested = diagnosis.skills_tested
    reach = diagnosis.smallest_detectable_effect
    nothing = (f"no skill stands out ({tested} skill{'' if tested == 1 else 's'} tested"
               + (f"; this sample detects only a deficit of about {reach * 100:.0f} points or more against its "
                  "neighbours, for the skill with the most comparable steps" if reach
                  else "; too few answers to detect any deficit") + ")") if tested else \
        f"no skill has {MIN_SUPPORT} answered isolated questions, so none is tested"
    if chaining:
        return f"Its reasoning breaks when chaining: {chaining}; {nothing}."
    composition = (f"; no composition failure detected ({composition_words(effect)})" if effect and effect.value
                   is not None else "")
    opening = "No weakness detected" if tested else "Too little evidence for a diagnosis"
    return f"{opening}: {nothing}{composition}."


def weakness_profile(summary: ModelSummary) -> str:
    """A plain-language paragraph from `stad_utils.analysis.summarize`'s numbers (template text, no model involved).

    The diagnosis comes first, written from the ``diagnosis`` block (`stad_utils.analysis._claims`): a
    skill is named, or a composition failure stated, only when its test says so. Every rate
    is given with its 95% interval and n.

    Examples
    --------
    >>> from stad_utils.analysis._summary import summarize
    >>> weakness_profile(ModelSummary.model_validate(summarize([])))[:58]
    'No task was answered as asked: all 0 outcome(s) lack a dec'
    """
    asked = summary.accuracy_original
    if not asked.n:
        reasons = undetermined_words(summary.undetermined)
        return (f"No task was answered as asked: all {summary.n_outcomes} outcome(s) lack a decided verdict "
                f"({summary.n_errors} errored and {summary.n_undecided} undecided verdicts; {reasons}). "
                "Check the target endpoint and the judge; no statistic is computed.")
    parts = [summary.diagnosis.headline,
             f"As asked, the model solves {share_words(asked)} of the tasks it answered; with scaffolding, "
             f"{share_words(summary.accuracy_scaffolded)} of the tasks where that is decided."]
    for skill in summary.diagnosis.unconfirmed:
        parts.append(f"'{skill}' is answered wrong more often than all other steps pooled, but not than the steps "
                     "standing where its steps stand: its harder places explain it, and no weakness is claimed.")
    if summary.undetermined.total:
        parts.append(f"k is based on the others: {undetermined_words(summary.undetermined)}.")
    parts += summary.notes
    unresolved = summary.bottlenecks.get(UNRESOLVED)
    if unresolved and unresolved.n >= summary.min_support:
        parts.append(f"Of the tasks that needed help, {share_words(unresolved)} stayed unresolved (k = −1).")
    if summary.help_from_content:
        first = summary.help_from_content[0]
        parts.append(f"Help from content at level {first.level} (scaffold − placebo): {difference_words(first)}.")
    if summary.k_stability:
        parts.append(f"Over {summary.n_samples} samples per task, k is the same in every sample for "
                     f"{share_words(summary.k_stability.same_k)} of the tasks.")
    return " ".join(parts)


def simulated_label(model: str, simulated: bool) -> str:
    """A model's name as shown: marked "(simulated)" for a simulated target, unless its name says so already.

    Examples
    --------
    >>> simulated_label("weak skill", True), simulated_label("simulated-7b", True), simulated_label("gpt", False)
    ('weak skill (simulated)', 'simulated-7b', 'gpt')
    """
    return f"{model} (simulated)" if simulated and "simulat" not in model.lower() else model


def accuracy_statement(result: PairComparison) -> str:
    """The first claim of `comparison_statement`: each model's accuracy as asked on the same tasks, their
    paired difference with its interval, and whether it is significant (else the smallest difference
    the sample could detect). The front page of report.html says this of every pair.
    """
    a, b = (simulated_label(model, model in result.simulated) for model in result.models)
    if result.difference_original is None or result.accuracy_original is None:
        return f"No task was answered as asked by both {a} and {b}, so nothing is compared (check the endpoints)."
    accuracy, difference = result.accuracy_original, result.difference_original
    p_value = difference.p_value
    assert p_value is not None  # compare_models tests the tasks both answered whenever there are some
    parts = [f"On the {difference.n} tasks both answered as asked, {a} solves "
             f"{share_words(accuracy[result.models[0]])} and {b} {share_words(accuracy[result.models[1]])}; "
             f"{a} − {b} = {difference_words(difference)}."]
    if p_value < ALPHA:
        parts.append(f"The difference is significant ({difference.test} {p_words(p_value)}, "
                     f"n = {difference.n}).")
    else:
        detectable = difference.minimal_detectable_difference
        reach = (f"smallest difference this sample could detect ≈ {detectable * 100:.0f} points" if detectable
                 else "too few tasks to detect any difference")
        parts.append(f"No significant difference detected ({difference.test} {p_words(p_value)}, "
                     f"n = {difference.n}; {reach}).")
    return " ".join(parts)


def comparison_statement(result: PairComparison) -> str:
    """Plain-language sentences for one pair of ``comparison.json``: each claim with its interval, test and n.

    A non-significant difference is written as "no significant difference detected" with the
    smallest difference the sample could detect; a difference in bottleneck profiles is called
    a difference in skills only if the help needed does not differ significantly as well.
    """
    parts = [accuracy_statement(result)]
    if result.difference_original is None or result.accuracy_original is None:
        return parts[0]
    a, b = (simulated_label(model, model in result.simulated) for model in result.models)
    p_value = result.difference_original.p_value
    accuracy_differs = p_value is not None and p_value < ALPHA  # (accuracy_statement: it is there)
    help_numbers = result.help_needed
    help_differs = False
    if help_numbers.n:
        wilcoxon_p, mean_difference = help_numbers.wilcoxon_p, help_numbers.mean_difference
        assert wilcoxon_p is not None and mean_difference is not None  # compare.help_comparison: with tasks, both
        help_differs = wilcoxon_p < ALPHA
        if help_differs:
            less = a if mean_difference < 0 else b
            parts.append(f"{less} needs less help: k differs on {help_numbers.k_differs_on} of {help_numbers.n} "
                         f"tasks (mean help needed {a} − {b} = {mean_difference:+.2f} steps, Wilcoxon "
                         f"{p_words(wilcoxon_p)}).")
        else:
            parts.append(f"No significant difference in the help needed detected (k differs on "
                         f"{help_numbers.k_differs_on} of {help_numbers.n} tasks, Wilcoxon "
                         f"{p_words(wilcoxon_p)}).")
    parts += _skill_sentences(result, a, b)
    parts.append(_profile_sentence(result, a, b, accuracy_differs, help_differs))
    return " ".join(parts)


def _skill_sentences(result: PairComparison, a: str, b: str) -> list[str]:
    """Per-skill isolated accuracy (paired, Holm) and the composition gaps of the two models."""
    sentences = []
    skills = result.isolated_accuracy
    differing = [row for row in skills if row.differs]
    for row in differing:
        weaker, stronger = (a, b) if row.difference < 0 else (b, a)
        interval = difference_words(Estimate(value=row.difference, ci95=[row.low, row.high], n=row.n))
        sentences.append(f"Asked alone, {weaker} is right less often than {stronger} at '{row.skill}': "
                         f"{percent_text(row.a)} vs {percent_text(row.b)}, {a} − {b} = "
                         f"{interval[:-1]}; McNemar exact, Holm-adjusted {p_words(row.p_adjusted)}).")
    if skills and not differing:
        sentences.append(f"No skill's isolated accuracy differs significantly ({len(skills)} skill"
                         f"{'' if len(skills) == 1 else 's'} with at least {result.min_support} "
                         "steps both answered alone, McNemar exact, Holm-corrected).")
    composition = result.composition
    if composition and composition.difference.n:
        first, second = (composition.gaps[model] for model in result.models)
        difference = composition.difference
        assert difference.p_value is not None  # tested whenever a task has both gaps (composition_comparison)
        interval = ("no interval below 30 tasks" if difference.ci95[0] is None
                    else f"95% CI {points(difference.ci95[0])} to {points(difference.ci95[1])}")
        verdict = ("differ significantly" if difference.p_value is not None and difference.p_value < ALPHA
                   else "do not differ significantly")
        sentences.append(f"Composition gap (whole task − every step alone): {a} {composition_words(first)}, {b} "
                         f"{composition_words(second)}; they {verdict} ({a} − {b} = {points(difference.value)} points, "
                         f"{interval}, Wilcoxon {p_words(difference.p_value)}, n = {difference.n} tasks).")
    return sentences


def _profile_sentence(result: PairComparison, a: str, b: str, accuracy_differs: bool, help_differs: bool) -> str:
    profile = result.profile
    if profile.refused is not None:
        return f"Bottleneck profiles are not compared: {profile.refused}."
    where = f"on the {profile.n_tasks} tasks where both needed help"
    p_value, skills, largest = profile.p_value, profile.skills, profile.largest_difference
    assert p_value is not None and skills is not None and largest is not None  # compared: all of them are there
    if p_value >= ALPHA:
        n_skills = len(skills)
        return (f"No significant difference in bottleneck profiles detected {where} (permutation "
                f"{p_words(p_value)}, {n_skills} skill{'' if n_skills == 1 else 's'}).")
    rate_a, rate_b = (largest.rates[model] for model in result.models)
    detail = (f"bottleneck-rate distance {profile.distance:.2f}, permutation {p_words(p_value)}; "
              f"largest at '{largest.skill}': {a} {share_words(rate_a)}, {b} {share_words(rate_b)}")
    if help_differs:
        return (f"Their bottleneck profiles differ {where} ({detail}), but so does the help they need, which by "
                "itself moves the bottleneck step: the profiles cannot separate skill gaps from the help needed "
                "(the isolated accuracies above can).")
    if accuracy_differs:
        return f"{where[0].upper()}{where[1:]} they are also blocked at different skills ({detail})."
    return f"Their accuracy as asked does not differ significantly, yet {where} they are blocked at different skills " \
           f"({detail})."


def funnel_words(funnel: Funnel | None) -> str:
    """'Tasks: 1319 loaded → 1178 consistent → 1178 verified → 1178 evaluated; dropped: 92 last step ≠ …'.

    Examples
    --------
    >>> funnel_words(Funnel(loaded=3, consistent=2, verified=2, evaluated=2, dropped={"no step": 1}))
    'Tasks: 3 loaded → 2 consistent → 2 verified → 2 evaluated; dropped: 1 no step.'
    """
    if not funnel:
        return ""
    reasons = ", ".join(f"{count} {reason}" for reason, count in funnel.dropped.items()) or "none"
    return (f"Tasks: {funnel.loaded} loaded → {funnel.consistent} consistent → {funnel.verified} verified → "
            f"{funnel.evaluated} evaluated; dropped: {reasons}.")


def truncation_words(rows: list[TruncationRow], threshold: float = 0.1) -> str:
    """A sentence naming the variants and levels where at least ``threshold`` of the replies were cut off."""
    heavy = [row for row in rows if row.share >= threshold]
    if not heavy:
        return ""
    where = ", ".join(f"{row.variant} {row.level}: {row.share:.0%} of {row.replies}" for row in heavy)
    return (f" Replies cut off by max_tokens ({where}) count as no answer when they committed to none: "
            "raise max_tokens to see what the model would conclude.")
