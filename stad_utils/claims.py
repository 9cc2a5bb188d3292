"""Every rule that decides what a sentence may claim, in one place (06, 07 and 08 share them).

A sentence of the report names a weak skill, or says that a model fails to chain steps it
can do alone, only when a test says so; every number it quotes carries its interval and n.
The quantities are defined in `stad_utils.definitions` (section *Claims*); this module tests
them and writes the machine-readable ``diagnosis`` block of ``summary.json``, from which the
report's sentences are written.

Weak skill
    Per skill, a one-sided Fisher exact test of "a step of this skill, asked alone, is
    answered right as often as a step of any other skill" against "less often", on the
    2 × 2 table (skill, every other skill) × (right, wrong) over the decided isolated
    questions, each distinct question and sample counted once (a question several tasks share
    word for word is one observation). Only skills with at least ``MIN_SUPPORT`` answered
    questions are tested. Effect: the accuracy deficit, other skills' accuracy − this skill's
    (positive = weaker); a step asked alone does not depend on where it stands in its task,
    so neither does the effect. Fisher's exact p, not its less conservative mid-p: with the
    mid-p, 6–7% of full-size control runs of the calibration battery got a claim.
Composition failure
    The *composition gap* (whole-task success − success of every step alone, per task,
    averaged over tasks; negative = the model fails to chain steps it can do alone), tested
    one-sided with McNemar's exact test on the tasks where the two disagree, with Newcombe's
    score interval for a paired difference (method 10, Newcombe 1998), which keeps its
    coverage at small n where a percentile bootstrap does not.
Family
    The skill tests and the composition test of one model form one family, corrected with
    Holm's step-down method at α = 0.05: the chance that a model without any weakness gets
    any claim is at most α, however many skills there are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.optimize import brentq
from scipy.stats import binomtest, hypergeom, norm

from .analysis import difference_words, estimate, policy_of, share_estimates, share_words
from .definitions import ALPHA, MIN_SUPPORT, POWER, UNMAPPED
from .records import Ladder, Outcome

WEAK_SKILL_TEST = "Fisher exact, one-sided (isolated accuracy of a skill vs all other skills)"
COMPOSITION_TEST = "McNemar exact, one-sided (whole task vs every step alone)"
TEST = f"{WEAK_SKILL_TEST}; {COMPOSITION_TEST}"
CORRECTION = "Holm (over the skills tested and the composition test)"
COMPOSITION_GAP = "composition gap"
"""The one name of the composition measure 06 and 07 report (see `definitions`, Claims)."""


# ------------------------------------------------------------------------------------------ intervals


def paired_difference_interval(both: float, first_only: float, second_only: float, neither: float,
                               confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's score interval (method 10) for p₁ − p₂ of paired binary outcomes.

    ``both``: pairs with both outcomes 1; ``first_only``: first 1, second 0; ``second_only``;
    ``neither``. Counts may be fractional (per-task rates over samples). It combines the two
    Wilson intervals with the correlation φ of the pairs (continuity-corrected when positive),
    and keeps ≥ 90% coverage at n ≤ 10 where a percentile bootstrap gives zero-width intervals.

    Examples
    --------
    >>> [round(x, 3) for x in paired_difference_interval(1, 0, 0, 0)]  # one tied pair: wide, not zero-width
    [-0.793, 0.793]
    >>> [round(x, 3) for x in paired_difference_interval(12, 8, 2, 32)]  # 8 vs 2 discordant of 54: +0.111
    [-0.006, 0.225]
    """
    a, b, c, d = (float(x) for x in (both, first_only, second_only, neither))
    n = a + b + c + d
    if n <= 0:
        return math.nan, math.nan
    wilson = share_estimates([a + b, a + c], [n, n], confidence=confidence)
    p1, l1, u1 = wilson.loc[0, ["value", "low", "high"]]
    p2, l2, u2 = wilson.loc[1, ["value", "low", "high"]]
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    association = a * d - b * c
    if association > 0:
        association = max(association - n / 2, 0.0)
    phi = association / math.sqrt(margins) if margins > 0 else 0.0
    difference = p1 - p2
    low = difference - math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    high = difference + math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return max(low, -1.0), min(high, 1.0)


def mcnemar_exact(first_only: float, second_only: float, alternative: str = "two-sided") -> float:
    """McNemar's exact p for paired binary outcomes from the discordant counts (rounded to whole pairs).

    ``alternative="less"``: the first outcome is 1 less often than the second.

    Examples
    --------
    >>> mcnemar_exact(0, 6, "less"), mcnemar_exact(0, 0)
    (0.015625, 1.0)
    """
    first, second = round(first_only), round(second_only)
    if first + second == 0:
        return 1.0
    return float(binomtest(first, first + second, 0.5, alternative=alternative).pvalue)


def smallest_detectable_deficit(asked: float, rest_asked: float, rest_accuracy: float, *, alpha: float,
                                power: float = POWER) -> float | None:
    """The smallest accuracy deficit of a skill asked ``asked`` times that a one-sided level-``alpha``
    test against ``rest_asked`` other steps (accuracy ``rest_accuracy``) detects with ``power``.

    From the arcsine transform of the two proportions (Cohen's h), which stays close to the
    power of Fisher's test near accuracies of 0.95, where the plain normal approximation
    promises deficits that Fisher's test detects in only 55–70% of samples. ``None`` when not
    even a skill that is never right would be detected.

    Examples
    --------
    >>> round(smallest_detectable_deficit(20, 300, 0.95, alpha=0.05 / 15), 2)
    0.3
    >>> smallest_detectable_deficit(1, 10, 0.95, alpha=0.05 / 15) is None
    True
    """
    if asked < 1 or rest_asked < 1 or not 0 < rest_accuracy <= 1:
        return None
    needed = (norm.ppf(1 - alpha) + norm.ppf(power)) * math.sqrt(1 / asked + 1 / rest_asked)

    def shortfall(deficit: float) -> float:
        return 2 * math.asin(math.sqrt(rest_accuracy)) - 2 * math.asin(math.sqrt(rest_accuracy - deficit)) - needed

    if shortfall(rest_accuracy) < 0:
        return None
    return float(brentq(shortfall, 0.0, rest_accuracy))


# ------------------------------------------------------------------------------------------ evidence


def isolated_answers(items: Sequence[Outcome], ladders: Sequence[Ladder] = ()) -> pd.DataFrame:
    """One row per distinct decided isolated question and sample: ``skill``, ``right`` (0/1).

    With ``ladders``, a question is its text (asked in several tasks, it keeps the answer of its
    first occurrence); without, it is (task, step).
    """
    questions = {(ladder.task_id, step): text for ladder in ladders
                 for step, text in enumerate(ladder.isolated, start=1)}
    rows = [(questions.get((o.task_id, step), (o.task_id, step)), o.sample, skill, int(alone)) for o in items
            for step, (skill, alone) in enumerate(zip(o.skills, o.isolated), start=1) if alone is not None]
    answers = pd.DataFrame(rows, columns=["question", "sample", "skill", "right"])
    return answers.drop_duplicates(["question", "sample"])[["skill", "right"]].reset_index(drop=True)


def fisher_less(right, asked, rest_right, rest_asked) -> np.ndarray:
    """One-sided p of Fisher's exact test that ``right`` of ``asked`` is too few given the other steps
    (element-wise over arrays): under the null the count right is hypergeometric given the margins.

    Examples
    --------
    >>> from scipy.stats import fisher_exact
    >>> print(f"{float(fisher_less(6, 12, 250, 265)):.4e}", f"{fisher_exact([[6, 6], [250, 15]], 'less').pvalue:.4e}")
    6.2944e-05 6.2944e-05
    """
    right, asked, rest_right, rest_asked = (np.asarray(x, dtype=float) for x in (right, asked, rest_right, rest_asked))
    return hypergeom.cdf(right, asked + rest_asked, right + rest_right, asked)


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the order given.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).round(2).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(p[order] * (len(p) - np.arange(len(p))))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def weak_skill_tests(answers: pd.DataFrame, *, min_support: int = MIN_SUPPORT) -> pd.DataFrame:
    """Per skill with at least ``min_support`` answered questions: its isolated accuracy against every
    other step's (mapped or not), the deficit and the unadjusted one-sided Fisher p-value.

    Columns: ``skill``, ``right``, ``asked``, ``accuracy``, ``low``, ``high`` (Wilson 95%),
    ``rest_right``, ``rest_asked``, ``rest_accuracy``, ``rest_low``, ``rest_high``, ``effect``
    (rest − skill), ``p_value``; lowest p first.
    """
    columns = ["skill", "right", "asked", "accuracy", "low", "high", "rest_right", "rest_asked", "rest_accuracy",
               "rest_low", "rest_high", "effect", "p_value"]
    if answers.empty:
        return pd.DataFrame(columns=columns)
    table = answers.groupby("skill")["right"].agg(right="sum", asked="size").reset_index()
    table["rest_right"] = table["right"].sum() - table["right"]
    table["rest_asked"] = table["asked"].sum() - table["asked"]
    table = table[(table["skill"] != UNMAPPED) & (table["asked"] >= min_support)].reset_index(drop=True)
    if table.empty:
        return pd.DataFrame(columns=columns)
    own = share_estimates(table["right"], table["asked"])
    rest = share_estimates(table["rest_right"], table["rest_asked"])
    table["accuracy"], table["low"], table["high"] = own["value"], own["low"], own["high"]
    table["rest_accuracy"], table["rest_low"], table["rest_high"] = rest["value"], rest["low"], rest["high"]
    table["effect"] = table["rest_accuracy"] - table["accuracy"]
    table["p_value"] = np.where(table["rest_asked"] > 0, fisher_less(table["right"], table["asked"],
                                                                     table["rest_right"], table["rest_asked"]), 1.0)
    return table.sort_values(["p_value", "skill"], ignore_index=True)[columns]


def whole_and_alone(outcome: Outcome) -> tuple[bool, bool] | None:
    """(solved as asked, every step solved alone), or ``None`` when level 0 or a step alone is unanswered:
    the pair every composition measure is built on.

    Examples
    --------
    >>> def o(whole, alone):
    ...     return Outcome(task_id="t", model="m", source="s", n_steps=2, skills=["a", "b"], curve=[whole, True],
    ...                    isolated=alone, k=None, non_monotonic=False, n_errors=0)
    >>> whole_and_alone(o(False, [True, True])), whole_and_alone(o(True, [True, None]))
    ((False, True), None)
    """
    if outcome.curve and outcome.curve[0] is not None and outcome.isolated and None not in outcome.isolated:
        return bool(outcome.curve[0]), all(outcome.isolated)
    return None


def composition_cells(items: Sequence[Outcome]) -> dict[str, float]:
    """The paired 2 × 2 table of (whole task solved as asked) × (every step solved alone), over tasks.

    A task counts when level 0 and every isolated step are answered in some sample; with
    repeated samples each task weighs 1, split over its samples' cells. Keys ``both``,
    ``whole_only``, ``alone_only``, ``neither`` and ``n`` (tasks).

    Examples
    --------
    >>> def o(task, whole, alone):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["a", "b"], curve=[whole, True],
    ...                    isolated=alone, k=0 if whole else 1, non_monotonic=False, n_errors=0)
    >>> composition_cells([o("t1", False, [True, True]), o("t2", True, [True, False]), o("t3", True, [None, True])])
    {'both': 0.0, 'whole_only': 1.0, 'alone_only': 1.0, 'neither': 0.0, 'n': 2}
    """
    samples: dict[str, list[tuple[bool, bool]]] = {}
    for o in items:
        if (pair := whole_and_alone(o)) is not None:
            samples.setdefault(o.task_id, []).append(pair)
    cells = dict.fromkeys(("both", "whole_only", "alone_only", "neither"), 0.0)
    for pairs in samples.values():
        for whole, alone in pairs:
            name = "both" if whole and alone else "whole_only" if whole else "alone_only" if alone else "neither"
            cells[name] += 1 / len(pairs)
    return {**cells, "n": len(samples)}


def composition_gap(items: Sequence[Outcome]) -> dict | None:
    """The composition gap of one model with its Newcombe interval and one-sided McNemar p (unadjusted).

    ``None`` under policy ``on_failure`` (the whole task is failed by selection). Keys
    ``value``, ``ci95``, ``n`` (tasks), ``name``, ``whole`` and ``alone`` (the two success
    rates), ``fails_to_chain`` (tasks with every step right alone and the whole wrong),
    ``chains_anyway`` (the reverse) and ``p_value``.

    Examples
    --------
    >>> def o(task, whole):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=3, skills=["a"] * 3, curve=[whole, True, True],
    ...                    isolated=[True] * 3, k=0 if whole else 1, non_monotonic=False, n_errors=0)
    >>> gap = composition_gap([o(f"t{i}", i % 2 == 0) for i in range(20)])
    >>> gap["value"], gap["n"], gap["fails_to_chain"], gap["p_value"] < 0.001
    (-0.5, 20, 10.0, True)
    """
    if policy_of(items) == "on_failure":
        return None
    cells = composition_cells(items)
    if not cells["n"]:
        return {**estimate(math.nan, math.nan, math.nan, 0), "name": COMPOSITION_GAP, "whole": None, "alone": None,
                "fails_to_chain": 0.0, "chains_anyway": 0.0, "p_value": None}
    n = cells["n"]
    low, high = paired_difference_interval(cells["both"], cells["whole_only"], cells["alone_only"], cells["neither"])
    return {**estimate((cells["whole_only"] - cells["alone_only"]) / n, low, high, n), "name": COMPOSITION_GAP,
            "whole": (cells["both"] + cells["whole_only"]) / n, "alone": (cells["both"] + cells["alone_only"]) / n,
            "fails_to_chain": cells["alone_only"], "chains_anyway": cells["whole_only"],
            "p_value": mcnemar_exact(cells["whole_only"], cells["alone_only"], "less")}


# ------------------------------------------------------------------------------------------ the diagnosis


def flag_weak_skills(items: Sequence[Outcome], ladders: Sequence[Ladder] = (), *, alpha: float = ALPHA,
                     min_support: int = 1) -> pd.DataFrame:
    """Per skill: `weak_skill_tests` with Holm's adjustment over the skills alone, and the flag.

    The skill-only family that ``08_validate`` and the power curves use; the report's diagnosis
    (`diagnose`) adds the composition test to the family. Columns: ``skill``, ``right``,
    ``asked``, ``accuracy``, ``rest_accuracy``, ``effect``, ``p_value``, ``p_holm``, ``flagged``.

    Examples
    --------
    >>> def outcome(task, isolated):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["add", "sub"],
    ...                    curve=[None, None], isolated=isolated, k=None, non_monotonic=False, n_errors=0)
    >>> table = flag_weak_skills([outcome(f"t{i}", [True, i % 4 == 0]) for i in range(40)])
    >>> table[["skill", "right", "asked", "flagged"]].to_dict(orient="records")
    [{'skill': 'sub', 'right': 10, 'asked': 40, 'flagged': True}, {'skill': 'add', 'right': 40, 'asked': 40, 'flagged': False}]
    """
    if len({o.model for o in items}) > 1:
        raise ValueError("flag_weak_skills compares the skills of one model; got outcomes of several")
    table = weak_skill_tests(isolated_answers(items, ladders), min_support=min_support)
    columns = ["skill", "right", "asked", "accuracy", "rest_accuracy", "effect", "p_value", "p_holm", "flagged"]
    if table.empty:
        return pd.DataFrame(columns=columns)
    table["p_holm"] = holm(table["p_value"])
    table["flagged"] = table["p_holm"] < alpha
    table["right"] = table["right"].astype(int)
    return table[columns]


def diagnose(items: Sequence[Outcome], ladders: Sequence[Ladder] = (), *, alpha: float = ALPHA,
             min_support: int = MIN_SUPPORT) -> dict:
    """The ``diagnosis`` block of one model: weak skills and composition failure, each claimed by a test.

    Keys: ``weak_skills`` (flagged, largest effect first), ``weak_skill_evidence`` (per
    flagged skill: ``isolated_accuracy``, ``others_accuracy``, ``effect``, ``p_adjusted``),
    ``tested_skills`` (every skill tested, most significant first: ``isolated_accuracy``,
    ``others_accuracy``, ``p_adjusted`` and ``weak``, whether it is named: the front page draws these),
    ``composition_failure``, ``composition_effect`` (the composition gap: ``value``, ``ci95``,
    ``n``, ``name``; ``None`` when it cannot be computed), ``test``, ``correction``, ``alpha``,
    ``skills_tested``, ``smallest_detectable_effect`` (the smallest deficit the family's first
    Holm step detects with 80% power for the most-asked skill; ``None`` without one),
    ``composition_p_adjusted`` and ``headline`` (`headline`).
    """
    tests = weak_skill_tests(isolated_answers(items, ladders), min_support=min_support)
    gap = composition_gap(items)
    has_gap = gap is not None and gap["p_value"] is not None
    p_values = list(tests["p_value"]) + ([gap["p_value"]] if has_gap else [])
    adjusted = holm(p_values)
    tests["p_adjusted"] = adjusted[:len(tests)]
    flagged = tests[(tests["p_adjusted"] < alpha) & (tests["effect"] > 0)].sort_values(
        ["effect", "p_value"], ascending=[False, True])
    composition_p = float(adjusted[-1]) if has_gap else None
    detectable = None
    if not tests.empty:
        widest = tests.sort_values("asked", ascending=False).iloc[0]
        detectable = smallest_detectable_deficit(widest["asked"], widest["rest_asked"], widest["rest_accuracy"],
                                                 alpha=alpha / len(p_values))
    diagnosis = {
        "weak_skills": flagged["skill"].tolist(),
        "weak_skill_evidence": [
            {"skill": row.skill, "isolated_accuracy": estimate(row.accuracy, row.low, row.high, row.asked),
             "others_accuracy": estimate(row.rest_accuracy, row.rest_low, row.rest_high, row.rest_asked),
             "effect": float(row.effect), "p_adjusted": float(row.p_adjusted)} for row in flagged.itertuples()],
        "tested_skills": [
            {"skill": row.skill, "isolated_accuracy": estimate(row.accuracy, row.low, row.high, row.asked),
             "others_accuracy": estimate(row.rest_accuracy, row.rest_low, row.rest_high, row.rest_asked),
             "p_adjusted": float(row.p_adjusted), "weak": row.skill in set(flagged["skill"])}
            for row in tests.sort_values(["p_adjusted", "skill"]).itertuples()],
        "composition_failure": bool(composition_p is not None and composition_p < alpha and gap["value"] < 0),
        "composition_effect": ({key: gap[key] for key in ("value", "ci95", "n", "name")} if has_gap else None),
        "composition_p_adjusted": composition_p,
        "test": TEST, "correction": CORRECTION, "alpha": alpha,
        "skills_tested": len(tests),
        "smallest_detectable_effect": detectable,
    }
    diagnosis["headline"] = headline(diagnosis)
    return diagnosis


def p_words(p: float) -> str:
    """'p = 0.012', or 'p < 0.001'.

    Examples
    --------
    >>> p_words(0.0123), p_words(1e-6)
    ('p = 0.012', 'p < 0.001')
    """
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _skill_words(evidence: dict) -> str:
    return (f"'{evidence['skill']}' (asked alone, right in {share_words(evidence['isolated_accuracy'])} against "
            f"{share_words(evidence['others_accuracy'])} for the other skills; Holm-adjusted "
            f"{p_words(evidence['p_adjusted'])})")


def composition_words(effect: dict) -> str:
    """'composition gap −40 points (95% CI −44 to −36, n = 1178 tasks)'."""
    return f"{effect['name']} {difference_words(effect).replace(')', ' tasks)', 1)}"


def headline(diagnosis: dict) -> str:
    """One sentence from a ``diagnosis`` block: where the model's reasoning breaks, each number with
    its interval and n, or that no test found a weakness and what the sample could have detected."""
    weak, evidence, effect = diagnosis["weak_skills"], diagnosis["weak_skill_evidence"], diagnosis["composition_effect"]
    chaining = ""
    if diagnosis["composition_failure"]:
        chaining = ("it fails to chain steps it can do alone: whole tasks are solved less often than its steps "
                    f"alone ({composition_words(effect)}, Holm-adjusted {p_words(diagnosis['composition_p_adjusted'])})")
    if weak:
        named = "; ".join(_skill_words(e) for e in evidence)
        first = f"Its reasoning breaks at {'the skill' if len(weak) == 1 else f'{len(weak)} skills, most severe first'}: {named}"
        return f"{first}{'; and ' + chaining if chaining else ''}."
    tested = diagnosis["skills_tested"]
    reach = diagnosis["smallest_detectable_effect"]
    nothing = (f"no skill stands out ({tested} skill{'' if tested == 1 else 's'} tested"
               + (f"; this sample detects only a deficit of about {reach * 100:.0f} points or more, for the most-asked "
                  "skill" if reach else "; too few answers to detect any deficit") + ")") if tested else \
        f"no skill has {MIN_SUPPORT} answered isolated questions, so none is tested"
    if chaining:
        return f"Its reasoning breaks when chaining: {chaining}; {nothing}."
    composition = (f"; no composition failure detected ({composition_words(effect)})" if effect and effect["value"]
                   is not None else "")
    opening = "No weakness detected" if tested else "Too little evidence for a diagnosis"
    return f"{opening}: {nothing}{composition}."
