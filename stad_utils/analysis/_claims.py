"""Every rule that decides what a sentence may claim, in one place (06, 07 and 08 share them).

A sentence of the report names a weak skill, or says that a model fails to chain steps it
can do alone, only when a test says so; every number it quotes carries its interval and n.
The quantities are defined in `stad_utils.definitions` (section *Claims*); this module tests
them and computes the machine-readable ``diagnosis`` block of ``summary.json``, from which the
report's sentences are written (`stad_utils.analysis._wording`). The intervals and tests themselves are
in `stad_utils.analysis._stats`.

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
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..definitions import ALPHA, MIN_SUPPORT
from ..records import UNMAPPED, Ladder, Outcome
from ._frames import OutcomeFrames, as_frames, isolated_answers, whole_and_alone
from ._schema import Diagnosis, Estimate, NamedEstimate, SkillEvidence, TestedSkill
from ._stats import (
    fisher_less,
    holm,
    mcnemar_exact,
    paired_difference_interval,
    share_estimates,
    smallest_detectable_deficit,
)

WEAK_SKILL_TEST = "Fisher exact, one-sided (isolated accuracy of a skill vs all other skills)"
COMPOSITION_TEST = "McNemar exact, one-sided (whole task vs every step alone)"
TEST = f"{WEAK_SKILL_TEST}; {COMPOSITION_TEST}"
CORRECTION = "Holm (over the skills tested and the composition test)"
COMPOSITION_GAP = "composition gap"
"""The one name of the composition measure 06 and 07 report (see `definitions`, Claims)."""


# ------------------------------------------------------------------------------------------ evidence


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


def composition_cells(items: Sequence[Outcome] | OutcomeFrames) -> dict[str, float]:
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
    for o in as_frames(items).items:
        if (pair := whole_and_alone(o)) is not None:
            samples.setdefault(o.task_id, []).append(pair)
    cells = dict.fromkeys(("both", "whole_only", "alone_only", "neither"), 0.0)
    for pairs in samples.values():
        for whole, alone in pairs:
            name = "both" if whole and alone else "whole_only" if whole else "alone_only" if alone else "neither"
            cells[name] += 1 / len(pairs)
    return {**cells, "n": len(samples)}


@dataclass(frozen=True)
class CompositionGap:
    """One model's composition gap, its paired cells and its one-sided McNemar p (unadjusted).

    ``estimate`` is the gap with its Newcombe interval over ``estimate.n`` tasks; ``whole`` and
    ``alone`` the two success rates; ``fails_to_chain`` the tasks with every step right alone and
    the whole wrong, ``chains_anyway`` the reverse; ``p_value`` is ``None`` without a task to test.
    """

    estimate: NamedEstimate
    whole: float | None
    alone: float | None
    fails_to_chain: float
    chains_anyway: float
    p_value: float | None


def composition_gap(items: Sequence[Outcome] | OutcomeFrames) -> CompositionGap | None:
    """The composition gap of one model with its Newcombe interval and one-sided McNemar p (unadjusted).

    ``None`` under policy ``on_failure`` (the whole task is failed by selection).

    Examples
    --------
    >>> def o(task, whole):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=3, skills=["a"] * 3, curve=[whole, True, True],
    ...                    isolated=[True] * 3, k=0 if whole else 1, non_monotonic=False, n_errors=0)
    >>> gap = composition_gap([o(f"t{i}", i % 2 == 0) for i in range(20)])
    >>> gap.estimate.value, gap.estimate.n, gap.fails_to_chain, gap.p_value < 0.001
    (-0.5, 20, 10.0, True)
    """
    frames = as_frames(items)
    if frames.policy == "on_failure":
        return None
    cells = composition_cells(frames)
    if not cells["n"]:
        return CompositionGap(NamedEstimate.of(math.nan, math.nan, math.nan, 0, name=COMPOSITION_GAP), None, None,
                              0.0, 0.0, None)
    n = cells["n"]
    low, high = paired_difference_interval(cells["both"], cells["whole_only"], cells["alone_only"], cells["neither"])
    return CompositionGap(
        NamedEstimate.of((cells["whole_only"] - cells["alone_only"]) / n, low, high, n, name=COMPOSITION_GAP),
        whole=(cells["both"] + cells["whole_only"]) / n, alone=(cells["both"] + cells["alone_only"]) / n,
        fails_to_chain=cells["alone_only"], chains_anyway=cells["whole_only"],
        p_value=mcnemar_exact(cells["whole_only"], cells["alone_only"], "less"))


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
    >>> table[["skill", "right", "asked", "flagged"]].to_dict(orient="records")  # doctest: +NORMALIZE_WHITESPACE
    [{'skill': 'sub', 'right': 10, 'asked': 40, 'flagged': True},
     {'skill': 'add', 'right': 40, 'asked': 40, 'flagged': False}]
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


def diagnose(items: Sequence[Outcome] | OutcomeFrames, ladders: Sequence[Ladder] = (), *, alpha: float = ALPHA,
             min_support: int = MIN_SUPPORT) -> Diagnosis:
    """The tested claims of one model: weak skills and composition failure, each claimed by a test.

    ``weak_skills``: flagged, largest effect first, with their ``weak_skill_evidence``;
    ``tested_skills``: every skill tested, most significant first (the front page draws these);
    ``composition_failure`` with ``composition_effect`` (the composition gap, ``None`` when it
    cannot be computed) and ``composition_p_adjusted``; ``smallest_detectable_effect``: the
    smallest deficit the family's first Holm step detects with 80% power for the most-asked skill
    (``None`` without one). Its sentence, ``headline``, is written by `stad_utils.analysis.headline`
    (`summarize` sets it).
    """
    frames = as_frames(items)
    tests = weak_skill_tests(isolated_answers(frames.items, ladders), min_support=min_support)
    gap = composition_gap(frames)
    tested_gap = gap if gap is not None and gap.p_value is not None else None  # None: no gap to test
    p_values = list(tests["p_value"]) + ([tested_gap.p_value] if tested_gap is not None else [])
    adjusted = holm(p_values)
    tests["p_adjusted"] = adjusted[:len(tests)]
    flagged = tests[(tests["p_adjusted"] < alpha) & (tests["effect"] > 0)].sort_values(
        ["effect", "p_value"], ascending=[False, True])
    composition_p = float(adjusted[-1]) if tested_gap is not None else None
    detectable = None
    if not tests.empty:
        widest = tests.sort_values("asked", ascending=False).iloc[0]
        detectable = smallest_detectable_deficit(widest["asked"], widest["rest_asked"], widest["rest_accuracy"],
                                                 alpha=alpha / len(p_values))

    def accuracies(row) -> dict[str, Estimate]:
        return {"isolated_accuracy": Estimate.of(row.accuracy, row.low, row.high, row.asked),
                "others_accuracy": Estimate.of(row.rest_accuracy, row.rest_low, row.rest_high, row.rest_asked)}

    named = set(flagged["skill"])
    return Diagnosis(
        weak_skills=flagged["skill"].tolist(),
        weak_skill_evidence=[SkillEvidence(skill=row.skill, **accuracies(row), effect=float(row.effect),
                                           p_adjusted=float(row.p_adjusted)) for row in flagged.itertuples()],
        tested_skills=[TestedSkill(skill=row.skill, **accuracies(row), p_adjusted=float(row.p_adjusted),
                                   weak=row.skill in named)
                       for row in tests.sort_values(["p_adjusted", "skill"]).itertuples()],
        composition_failure=bool(tested_gap is not None and composition_p is not None and composition_p < alpha
                                 and tested_gap.estimate.value is not None and tested_gap.estimate.value < 0),
        composition_effect=tested_gap.estimate if tested_gap is not None else None,
        composition_p_adjusted=composition_p,
        test=TEST, correction=CORRECTION, alpha=alpha,
        skills_tested=len(tests),
        smallest_detectable_effect=detectable,
    )
