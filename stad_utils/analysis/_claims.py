"""Every rule that decides what a sentence may claim, in one place (06, 07 and 08 share them).

A sentence of the report names a weak skill, or says that a model fails to chain steps it
can do alone, only when a test says so; every number it quotes carries its interval and n.
The quantities are defined in `stad_utils.definitions` (section *Claims*); this module tests
them and computes the machine-readable ``diagnosis`` block of ``summary.json``, from which the
report's sentences are written (`stad_utils.analysis._wording`). The intervals and tests themselves are
in `stad_utils.analysis._stats`.

Weak skill, compared like with like
    A step's place matters: a later step, or a step of a longer task, may be answered wrong more
    often whatever its skill, and a skill that sits at such places would look weak against all
    other steps pooled. So a skill's steps are compared only with the other steps standing where
    they stand: at the same position in tasks of the same length. The claimed test is the task
    shuffle (`stad_utils.analysis._stats.task_shuffle_less`: whole tasks of equal length
    exchanged, which also keeps hard tasks from faking a weakness), one-sided, seeded, with
    ``SHUFFLES`` shuffles. Only skills with at least ``MIN_SUPPORT`` answered steps are tested,
    each distinct question and sample once (a question several tasks share word for word is one
    observation). Effect: the neighbours' accuracy − the skill's, on its steps that share a place
    with another skill's (positive = weaker); flagged skills are ranked by it.
Inseparable, unconfirmed
    A skill whose crude deficit (against all other steps pooled: one-sided Fisher) would pass
    the family's first Holm step but that is not named is *inseparable* when no answers of its
    steps could pass it like with like (``min_p`` of the exact stratified law ≥ α/m: its steps
    hardly ever stand where another skill's do), and the report says it cannot tell the skill
    from its place; otherwise *unconfirmed*: weaker overall, not shown weaker than its neighbours.
Context
    Two one-sided stratified Cochran–Armitage trend tests (`stad_utils.analysis._stats.stratified_trend`):
    accuracy asked alone falls with the position of a step within (skill, task length), or with
    the length of its task within (skill, position). Stratifying by skill keeps a weak skill that
    sits late from reading as a position effect. Claimed when adjusted p < α and the slope < 0.
Composition failure
    The *composition gap* (whole-task success − success of every step alone, per task,
    averaged over tasks; negative = the model fails to chain steps it can do alone), tested
    one-sided with McNemar's exact test on the tasks where the two disagree, with Newcombe's
    score interval for a paired difference (method 10, Newcombe 1998), which keeps its
    coverage at small n where a percentile bootstrap does not.
Family
    The skill tests, the two context tests and the composition test of one model form one
    family, corrected with Holm's step-down method at α = 0.05: the chance that a model without
    any weakness gets any claim is at most α, however many skills there are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm

from ..definitions import ALPHA, MIN_SUPPORT
from ..records import UNMAPPED, Ladder, Outcome
from ._frames import OutcomeFrames, as_frames, isolated_steps, whole_and_alone
from ._schema import ContextTest, Diagnosis, Estimate, NamedEstimate, PlaceAccuracy, SkillEvidence, TestedSkill
from ._stats import (
    MAX_STEPS,
    SHUFFLES,
    fisher_less,
    holm,
    mcnemar_exact,
    paired_difference_interval,
    share_estimates,
    smallest_detectable_deficit,
    stratified_exact_less,
    stratified_trend,
    task_shuffle_less,
)

WEAK_SKILL_TEST = ("task shuffle within task length, one-sided (isolated accuracy of a skill vs the other steps at "
                   "the same position in tasks of the same length)")
CONTEXT_TEST = ("stratified Cochran–Armitage trend, one-sided (position within skill and task length; task length "
                "within skill and position)")
COMPOSITION_TEST = "McNemar exact, one-sided (whole task vs every step alone)"
TEST = f"{WEAK_SKILL_TEST}; {CONTEXT_TEST}; {COMPOSITION_TEST}"
CORRECTION = "Holm (over the skills tested, the two context tests and the composition test)"
COMPOSITION_GAP = "composition gap"
"""The one name of the composition measure 06 and 07 report (see `definitions`, Claims)."""


# ------------------------------------------------------------------------------------------ evidence


# ------------------------------------------------------------------------------------------ weak skills


def task_matrices(steps: pd.DataFrame, skills: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(answers: tasks × 6, NaN unanswered; skill codes: tasks × 6, index into ``skills``, −1 for none or
    another skill; K per task) from the isolated-steps frame, a step's answer its mean over samples.
    """
    per_step = steps.groupby(["task_id", "step"], sort=False, observed=True).agg(
        skill=("skill", "first"), n_steps=("n_steps", "first"), answer=("right", "mean")).reset_index()
    task = pd.factorize(per_step["task_id"])[0]
    code = pd.Categorical(per_step["skill"], categories=list(skills)).codes
    answers = np.full((task.max() + 1, MAX_STEPS), np.nan)
    codes = np.full((task.max() + 1, MAX_STEPS), -1)
    n_steps = np.zeros(task.max() + 1, dtype=int)
    column = per_step["step"].to_numpy() - 1
    answers[task, column] = per_step["answer"].to_numpy()
    codes[task, column] = code
    n_steps[task] = per_step["n_steps"].to_numpy()
    return answers, codes, n_steps


SKILL_COLUMNS = ["skill", "right", "asked", "accuracy", "low", "high", "rest_right", "rest_asked", "rest_accuracy",
                 "crude_effect", "crude_p", "comparable", "neighbours", "comparable_right", "comparable_accuracy",
                 "context_accuracy", "effect", "p_value", "p_exact", "min_p"]
"""The columns of `weak_skill_tests`."""


def weak_skill_tests(steps: pd.DataFrame, *, min_support: int = MIN_SUPPORT, shuffles: int = SHUFFLES,
                     seed: int = 0) -> pd.DataFrame:
    """Per skill with at least ``min_support`` answered steps: against all other steps, and like with like.

    Parameters
    ----------
    steps : DataFrame
        `isolated_steps` (``task_id``, ``skill``, ``step``, ``n_steps``, ``right``).
    min_support : int
        Fewest answered steps of a skill for it to be tested (``UNMAPPED`` is never tested, but
        its steps are among the other steps of every stratum).
    shuffles, seed : int
        The task shuffles and their seed (the p-values are reproducible for a given seed).

    Returns
    -------
    DataFrame
        One row per tested skill, lowest adjusted p first:

        * ``right``, ``asked``, ``accuracy``, ``low``, ``high`` (Wilson 95%): the skill's steps;
        * ``rest_right``, ``rest_asked``, ``rest_accuracy``, ``crude_effect`` (rest − skill) and
          ``crude_p``: the one-sided Fisher test against every other step pooled (crude: blind to places);
        * ``comparable``: the skill's steps in strata (position, length) that also hold another
          skill's step, and ``neighbours`` those other steps; ``comparable_accuracy``: the skill's
          accuracy on them;
          ``context_accuracy``: the other steps' accuracy in those strata, weighted by the
          skill's steps there (what the skill would score if its steps were as good as the
          others standing where they stand); ``effect`` = context − comparable accuracy
          (positive = weaker; NaN without a comparable step);
        * ``p_value``: the one-sided task-shuffle p (`task_shuffle_less`), the test that is claimed;
          ``p_exact`` and ``min_p``: the exact stratified p with steps taken as independent and the
          smallest p-value these strata allow (`stratified_exact_less`).

    Examples
    --------
    >>> steps = pd.DataFrame({"task_id": [f"t{i}" for i in range(10)] * 2 + [f"u{i}" for i in range(10)] * 2,
    ...                       "skill": ["a"] * 20 + ["b"] * 20, "step": [1] * 10 + [2] * 10 + [1] * 10 + [2] * 10,
    ...                       "n_steps": 2, "right": [0] * 8 + [1] * 12 + [1] * 20})
    >>> table = weak_skill_tests(steps)
    >>> table[["skill", "comparable", "effect"]].to_dict(orient="records")
    [{'skill': 'a', 'comparable': 20, 'effect': 0.4}, {'skill': 'b', 'comparable': 20, 'effect': -0.4}]
    >>> bool(table.loc[0, "p_value"] < 0.01), bool(table.loc[1, "p_exact"] > 0.99)
    (True, True)
    """
    if steps.empty:
        return pd.DataFrame(columns=SKILL_COLUMNS)
    skill_code, skills = pd.factorize(steps["skill"], sort=True)
    stratum = pd.MultiIndex.from_frame(steps[["step", "n_steps"]]).factorize()[0]
    shape = (len(skills), stratum.max() + 1)
    flat = skill_code * shape[1] + stratum
    right = steps["right"].to_numpy(dtype=float)
    asked_cells = np.bincount(flat, minlength=shape[0] * shape[1]).reshape(shape).astype(float)
    right_cells = np.bincount(flat, right, minlength=shape[0] * shape[1]).reshape(shape)
    stratum_asked, stratum_right = asked_cells.sum(axis=0), right_cells.sum(axis=0)
    other_asked, other_right = stratum_asked - asked_cells, stratum_right - right_cells
    shared = other_asked > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = np.where(shared, asked_cells * other_right / other_asked, 0.0)
    table = pd.DataFrame({"skill": skills, "right": right_cells.sum(axis=1), "asked": asked_cells.sum(axis=1),
                          "comparable": np.where(shared, asked_cells, 0).sum(axis=1),
                          "neighbours": np.where(shared & (asked_cells > 0), other_asked, 0).sum(axis=1),
                          "comparable_right": np.where(shared, right_cells, 0).sum(axis=1),
                          "expected": expected.sum(axis=1), "code": np.arange(len(skills))})
    table["rest_right"] = table["right"].sum() - table["right"]
    table["rest_asked"] = table["asked"].sum() - table["asked"]
    table = table[(table["skill"] != UNMAPPED) & (table["asked"] >= min_support)].reset_index(drop=True)
    if table.empty:
        return pd.DataFrame(columns=SKILL_COLUMNS)
    own = share_estimates(table["right"], table["asked"])
    table["accuracy"], table["low"], table["high"] = own["value"], own["low"], own["high"]
    table["rest_accuracy"] = table["rest_right"] / table["rest_asked"].where(table["rest_asked"] > 0)
    table["crude_effect"] = table["rest_accuracy"] - table["accuracy"]
    table["crude_p"] = np.where(table["rest_asked"] > 0, fisher_less(table["right"], table["asked"],
                                                                     table["rest_right"], table["rest_asked"]), 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        table["comparable_accuracy"] = table["comparable_right"] / table["comparable"].where(table["comparable"] > 0)
        table["context_accuracy"] = table["expected"] / table["comparable"].where(table["comparable"] > 0)
    table["effect"] = table["context_accuracy"] - table["comparable_accuracy"]
    tests = [stratified_exact_less(right_cells[code], asked_cells[code], stratum_right, stratum_asked)
             for code in table["code"]]
    table["p_exact"], table["min_p"] = [p for p, _ in tests], [m for _, m in tests]
    answers, codes, n_steps = task_matrices(steps, table["skill"].tolist())
    table["p_value"] = task_shuffle_less(answers, codes, n_steps, len(table), n_permutations=shuffles,
                                         rng=np.random.default_rng(seed))
    table["right"], table["asked"] = table["right"].astype(int), table["asked"].astype(int)
    table["rest_right"], table["rest_asked"] = table["rest_right"].astype(int), table["rest_asked"].astype(int)
    table["comparable"], table["neighbours"] = table["comparable"].astype(int), table["neighbours"].astype(int)
    return table.sort_values(["p_value", "p_exact", "skill"], ignore_index=True)[SKILL_COLUMNS]


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


# ------------------------------------------------------------------------------------------ context


CONTEXT_COLUMNS = ["context", "strata", "score", "informative", "slope", "z", "p_value"]
CONTEXTS = {"position": (["skill", "n_steps"], "step"), "length": (["skill", "step"], "n_steps")}
"""Each context test: (the stratum columns, the score column)."""


def context_tests(steps: pd.DataFrame) -> pd.DataFrame:
    """The two context tests: does isolated accuracy fall with step position, or with task length?

    Parameters
    ----------
    steps : DataFrame
        `isolated_steps` (every step, ``UNMAPPED`` ones too: its own stratum).

    Returns
    -------
    DataFrame
        Rows ``position`` (strata (skill, K), score i) and ``length`` (strata (skill, i), score K):
        ``strata`` and ``score`` (the column names), ``informative`` (steps in strata with two
        scores and both answers), ``slope`` (accuracy change per later position / per extra step,
        within strata; negative = falls), ``z`` and the one-sided ``p_value`` (1 without information).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> n_steps = rng.integers(2, 6, 600)
    >>> rows = [(s, i, k) for k, s in zip(n_steps, rng.choice(["a", "b"], 600)) for i in range(1, k + 1)]
    >>> steps = pd.DataFrame(rows, columns=["skill", "step", "n_steps"])
    >>> steps["right"] = (rng.random(len(steps)) < 0.97 - 0.05 * steps["step"]).astype(int)
    >>> result = context_tests(steps).set_index("context")
    >>> bool(result.loc["position", "p_value"] < 1e-6), bool(result.loc["length", "p_value"] > 0.01)
    (True, True)
    """
    rows = []
    for context, (strata, score) in CONTEXTS.items():
        if steps.empty:
            rows.append((context, " × ".join(strata), score, 0, float("nan"), 0.0, 1.0))
            continue
        stratum = steps.groupby(strata, sort=False, observed=True).ngroup().to_numpy()
        slope, z, informative = stratified_trend(steps[score].to_numpy(), steps["right"].to_numpy(), stratum)
        rows.append((context, " × ".join(strata), score, informative, slope, z,
                     float(norm.cdf(z)) if informative else 1.0))
    return pd.DataFrame(rows, columns=CONTEXT_COLUMNS)


# ------------------------------------------------------------------------------------------ the family


# ------------------------------------------------------------------------------------------ the diagnosis


def flag_weak_skills(items: Sequence[Outcome], ladders: Sequence[Ladder] = (), *, alpha: float = ALPHA,
                     min_support: int = 1, shuffles: int = SHUFFLES, seed: int = 0) -> pd.DataFrame:
    """Per skill: `weak_skill_tests` with Holm's adjustment over the skills alone, and the flag.

    The skill-only family that ``08_validate`` and the power curves use; the report's diagnosis
    (`diagnose`) adds the context and composition tests to the family. Columns: ``skill``,
    ``right``, ``asked``, ``accuracy``, ``context_accuracy``, ``effect``, ``p_value``, ``p_holm``,
    ``flagged``.

    Examples
    --------
    >>> def outcome(i):  # 'sub' is right one time in four, as step 2 of half the tasks and step 1 of the others
    ...     skills, isolated = (["add", "sub"], [True, i % 4 == 0]) if i < 40 else (["sub", "add"], [i % 4 == 0, True])
    ...     return Outcome(task_id=f"t{i}", model="m", source="s", n_steps=2, skills=skills, curve=[None, None],
    ...                    isolated=isolated, k=None, non_monotonic=False, n_errors=0)
    >>> table = flag_weak_skills([outcome(i) for i in range(80)])
    >>> table[["skill", "right", "asked", "flagged"]].to_dict(orient="records")  # doctest: +NORMALIZE_WHITESPACE
    [{'skill': 'sub', 'right': 20, 'asked': 80, 'flagged': True},
     {'skill': 'add', 'right': 80, 'asked': 80, 'flagged': False}]
    """
    if len({o.model for o in items}) > 1:
        raise ValueError("flag_weak_skills compares the skills of one model; got outcomes of several")
    table = weak_skill_tests(isolated_steps(items, ladders), min_support=min_support, shuffles=shuffles, seed=seed)
    columns = ["skill", "right", "asked", "accuracy", "context_accuracy", "effect", "p_value", "p_holm", "flagged"]
    if table.empty:
        return pd.DataFrame(columns=columns)
    table["p_holm"] = holm(table["p_value"])
    table["flagged"] = (table["p_holm"] < alpha) & (table["effect"] > 0)
    return table[columns]


def _share(successes: float, n: float) -> Estimate:
    """``successes`` of ``n`` as an estimate with its Wilson 95% interval."""
    share = share_estimates([successes], [n]).iloc[0]
    return Estimate.of(share["value"], share["low"], share["high"], n)


def accuracy_by_place(steps: pd.DataFrame, place: str) -> list[PlaceAccuracy]:
    """Accuracy asked alone by ``place`` (``"step"``: position, ``"n_steps"``: task length), Wilson 95%."""
    counts = steps.groupby(place)["right"].agg(["sum", "size"]).reset_index()
    shares = share_estimates(counts["sum"], counts["size"])
    return [PlaceAccuracy.of(row.value, row.low, row.high, row.n, place=int(where))
            for where, row in zip(counts[place], shares.itertuples())]


def diagnose(items: Sequence[Outcome] | OutcomeFrames, ladders: Sequence[Ladder] = (), *, alpha: float = ALPHA,
             min_support: int = MIN_SUPPORT, shuffles: int = SHUFFLES, seed: int = 0) -> Diagnosis:
    """The tested claims of one model: weak skills (like with like), context and composition failure.

    ``weak_skills``: named, largest effect first, with their ``weak_skill_evidence``;
    ``tested_skills``: every skill tested, most significant first, with its ``standing`` (weak,
    inseparable, unconfirmed or not weak; the front page draws these); ``inseparable`` and
    ``unconfirmed`` (see the module docstring); ``context``: the two context tests with the
    accuracy by position and by task length they rest on; ``composition_failure`` with
    ``composition_effect`` (the composition gap, ``None`` when it cannot be computed) and
    ``composition_p_adjusted``; ``smallest_detectable_effect``: the smallest deficit against its
    neighbours that the family's first Holm step detects with 80% power for the skill with the
    most comparable steps (``None`` without one); ``family_size``. Its sentences, ``headline``,
    are written by `stad_utils.analysis.headline` (`diagnosis_block` sets it).
    """
    frames = as_frames(items)
    steps = isolated_steps(frames.items, ladders)
    tests = weak_skill_tests(steps, min_support=min_support, shuffles=shuffles, seed=seed)
    contexts = context_tests(steps)
    gap = composition_gap(frames)
    tested_gap = gap if gap is not None and gap.p_value is not None else None  # None: no gap to test
    p_values = [*tests["p_value"], *contexts["p_value"], *([tested_gap.p_value] if tested_gap is not None else [])]
    adjusted = holm(p_values)
    family = len(p_values)
    tests["p_adjusted"] = adjusted[:len(tests)]
    contexts["p_adjusted"] = adjusted[len(tests):len(tests) + len(contexts)]
    flagged = tests[(tests["p_adjusted"] < alpha) & (tests["effect"] > 0)].sort_values(
        ["effect", "p_value"], ascending=[False, True])
    crude_only = tests[~tests["skill"].isin(flagged["skill"]) & (tests["crude_p"] < alpha / family)]
    inseparable = set(crude_only.loc[crude_only["min_p"] >= alpha / family, "skill"])
    unconfirmed = set(crude_only["skill"]) - inseparable
    composition_p = float(adjusted[-1]) if tested_gap is not None else None
    detectable = None
    if not tests.empty:
        widest = tests.sort_values(["comparable", "asked"], ascending=False).iloc[0]
        detectable = smallest_detectable_deficit(widest["comparable"], widest["neighbours"],
                                                 widest["context_accuracy"], alpha=alpha / family)
    named = set(flagged["skill"])

    def accuracies(row) -> dict[str, Estimate | None]:
        # The neighbours' share is weighted by the skill's steps per place; its Wilson interval counts them as
        # the neighbouring steps there are, an approximation that only the figure and the words use.
        return {"isolated_accuracy": _share(row.right, row.asked), "others_accuracy": _share(row.rest_right,
                                                                                             row.rest_asked),
                "comparable_accuracy": _share(row.comparable_right, row.comparable),
                "neighbours_accuracy": (_share(row.context_accuracy * row.neighbours, row.neighbours)
                                        if row.neighbours else None)}

    def standing(skill: str) -> str:
        return ("weak" if skill in named else "inseparable" if skill in inseparable
                else "unconfirmed" if skill in unconfirmed else "not weak")

    return Diagnosis(
        weak_skills=flagged["skill"].tolist(),
        weak_skill_evidence=[SkillEvidence(skill=row.skill, **accuracies(row), effect=float(row.effect),
                                           p_adjusted=float(row.p_adjusted)) for row in flagged.itertuples()],
        tested_skills=[TestedSkill(skill=row.skill, **accuracies(row), p_adjusted=float(row.p_adjusted),
                                   weak=row.skill in named, effect=None if pd.isna(row.effect) else float(row.effect),
                                   standing=standing(row.skill))
                       for row in tests.sort_values(["p_adjusted", "skill"]).itertuples()],
        inseparable=sorted(inseparable), unconfirmed=sorted(unconfirmed),
        context=[ContextTest(context=row.context, slope=None if pd.isna(row.slope) else float(row.slope),
                             informative=int(row.informative), p_adjusted=float(row.p_adjusted),
                             claimed=bool(row.p_adjusted < alpha and row.slope < 0),
                             by_place=accuracy_by_place(steps, CONTEXTS[row.context][1]) if not steps.empty else [])
                 for row in contexts.itertuples()],
        composition_failure=bool(tested_gap is not None and composition_p is not None and composition_p < alpha
                                 and tested_gap.estimate.value is not None and tested_gap.estimate.value < 0),
        composition_effect=tested_gap.estimate if tested_gap is not None else None,
        composition_p_adjusted=composition_p,
        test=TEST, correction=CORRECTION, alpha=alpha,
        skills_tested=len(tests),
        smallest_detectable_effect=detectable,
        family_size=family,
    )
