"""Two models on the same tasks: paired tests of accuracy and of skill profiles, and validity checks.

Definitions:

* **Help needed** ``h`` of a task: k if k ≥ 0, else K (no scaffold level sufficed, so more
  than K−1 given steps would be needed). It orders k so that −1 is the worst, for the
  Wilcoxon signed-rank test of paired differences.
* **McNemar at level j**: the paired 2×2 table of (model A solved, model B solved) at
  scaffold level j over tasks both were asked at that level; exact binomial McNemar test.
* **Skill profile**: a model's blocking rate per skill (see `stad_utils.analysis`). Its
  difference between two models is the mean absolute difference over skills; the p-value
  comes from a paired permutation test that swaps the two models' outcomes within each task.
* **Composition gap of a skill pair** (in the sense of Compositional GSM): for the last two
  steps (skills a, b) of a task, success at level K−2 (only those two steps left to do)
  minus the product of the isolated successes of the two steps; averaged per pair.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon
from statsmodels.stats.contingency_tables import mcnemar

from .analysis import needed_depth
from .records import Ladder, Outcome

ALPHA = 0.05


def help_needed(outcome: Outcome) -> int | None:
    """k with "never solved" (−1) ordered last, as K."""
    if outcome.k is None:
        return None
    return outcome.n_steps if outcome.k == -1 else outcome.k


def _paired(items: Sequence[Outcome], model_a: str, model_b: str) -> list[tuple[Outcome, Outcome]]:
    by_model = {m: {o.task_id: o for o in items if o.model == m} for m in (model_a, model_b)}
    common = sorted(set(by_model[model_a]) & set(by_model[model_b]))
    return [(by_model[model_a][t], by_model[model_b][t]) for t in common
            if by_model[model_a][t].k is not None and by_model[model_b][t].k is not None]


def mcnemar_by_level(pairs: list[tuple[Outcome, Outcome]]) -> pd.DataFrame:
    """Per scaffold level: both/only-A/only-B/neither counts and the exact McNemar p-value."""
    rows = []
    deepest = max((a.n_steps for a, _ in pairs), default=0)
    for level in range(deepest):
        cells = [(a.curve[level], b.curve[level]) for a, b in pairs
                 if level < a.n_steps and a.curve[level] is not None and b.curve[level] is not None]
        if not cells:
            continue
        both = sum(x and y for x, y in cells)
        only_a = sum(x and not y for x, y in cells)
        only_b = sum(y and not x for x, y in cells)
        neither = len(cells) - both - only_a - only_b
        p_value = mcnemar([[both, only_a], [only_b, neither]], exact=True).pvalue if only_a + only_b else 1.0
        rows.append({"level": level, "tasks": len(cells), "both": both, "only_a": only_a, "only_b": only_b,
                     "neither": neither, "p_value": float(p_value)})
    return pd.DataFrame(rows)


def _blocking_counts(items: Sequence[Outcome], skills: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per outcome and skill: occurrences inside the needed scaffold, and occurrences (see `analysis`)."""
    index = {skill: i for i, skill in enumerate(skills)}
    needed, occurring = np.zeros((len(items), len(skills))), np.zeros((len(items), len(skills)))
    for row, o in enumerate(items):
        depth = needed_depth(o)
        for step, skill in enumerate(o.skills, start=1):
            occurring[row, index[skill]] += 1
            needed[row, index[skill]] += step <= depth
    return needed, occurring


def _distance(needed_a, occurring_a, needed_b, occurring_b) -> float:
    shared = (occurring_a > 0) & (occurring_b > 0)
    if not shared.any():
        return 0.0
    rate_a = needed_a[shared] / occurring_a[shared]
    rate_b = needed_b[shared] / occurring_b[shared]
    return float(np.abs(rate_a - rate_b).mean())


def profile_permutation_test(pairs: list[tuple[Outcome, Outcome]], n_permutations: int = 1000,
                             seed: int = 0) -> tuple[float, float]:
    """(profile distance, p-value): mean absolute difference of per-skill blocking rates, and how often
    swapping the two models' outcomes at random within tasks gives a distance at least as large."""
    skills = sorted({s for a, b in pairs for s in a.skills + b.skills})
    needed_a, occurring_a = _blocking_counts([a for a, _ in pairs], skills)
    needed_b, occurring_b = _blocking_counts([b for _, b in pairs], skills)
    observed = _distance(needed_a.sum(0), occurring_a.sum(0), needed_b.sum(0), occurring_b.sum(0))
    rng = np.random.default_rng(seed)
    exceed = 0
    for _ in range(n_permutations):
        swap = (rng.random(len(pairs)) < 0.5)[:, None]
        distance = _distance(np.where(swap, needed_b, needed_a).sum(0), np.where(swap, occurring_b, occurring_a).sum(0),
                             np.where(swap, needed_a, needed_b).sum(0), np.where(swap, occurring_a, occurring_b).sum(0))
        exceed += distance >= observed - 1e-12
    return observed, (exceed + 1) / (n_permutations + 1)


def compare_models(items: Sequence[Outcome], model_a: str, model_b: str, *, n_permutations: int = 1000,
                   seed: int = 0) -> dict:
    """Paired comparison of two models on the tasks both have a determined k for.

    Returns accuracies, the McNemar table per level, the Wilcoxon test on help needed,
    the skill-profile permutation test, and a plain-language ``statement``.
    """
    pairs = _paired(items, model_a, model_b)
    if not pairs:
        return {"models": [model_a, model_b], "n_tasks": 0, "statement": "No task has a determined k for both."}
    levels = mcnemar_by_level(pairs)
    differences = [help_needed(a) - help_needed(b) for a, b in pairs]
    wilcoxon_p = (float(wilcoxon(differences, zero_method="zsplit").pvalue)
                  if any(differences) else 1.0)
    distance, profile_p = profile_permutation_test(pairs, n_permutations, seed)
    accuracy_a = float(np.mean([a.k == 0 for a, _ in pairs]))
    accuracy_b = float(np.mean([b.k == 0 for _, b in pairs]))
    original_p = float(levels.loc[levels["level"] == 0, "p_value"].iloc[0]) if not levels.empty else 1.0
    result = {
        "models": [model_a, model_b], "n_tasks": len(pairs),
        "accuracy_original": {model_a: accuracy_a, model_b: accuracy_b}, "mcnemar_original_p": original_p,
        "mean_help_difference": float(np.mean(differences)), "wilcoxon_help_p": wilcoxon_p,
        "k_differs_on": int(sum(d != 0 for d in differences)),
        "profile_distance": distance, "profile_p": profile_p,
        "mcnemar_by_level": levels.to_dict(orient="records"),
    }
    result["statement"] = comparison_statement(result)
    return result


def comparison_statement(result: dict) -> str:
    a, b = result["models"]
    same_accuracy = result["mcnemar_original_p"] >= ALPHA
    different_profile = result["profile_p"] < ALPHA
    accuracy = result["accuracy_original"]
    head = (f"On {result['n_tasks']} shared tasks, {a} solves {accuracy[a]:.0%} and {b} {accuracy[b]:.0%} as asked "
            f"(McNemar p = {result['mcnemar_original_p']:.3f}); k differs on {result['k_differs_on']} tasks "
            f"(Wilcoxon p = {result['wilcoxon_help_p']:.3f}); skill profiles differ by "
            f"{result['profile_distance']:.2f} in blocking rate (permutation p = {result['profile_p']:.3f}).")
    if same_accuracy and different_profile:
        verdict = " Their accuracy is statistically indistinguishable, but they fail on different skills."
    elif same_accuracy:
        verdict = " Neither their accuracy nor their skill profiles differ detectably on these tasks."
    elif different_profile:
        verdict = " They differ both in accuracy and in which skills block them."
    else:
        verdict = " They differ in accuracy; their skill profiles do not differ detectably."
    return head + verdict


def pair_composition_gaps(items: Sequence[Outcome]) -> pd.DataFrame:
    """Per model and final skill pair (a, b): observed success with two steps left minus the isolated product."""
    rows = []
    for o in items:
        if o.n_steps < 2 or o.curve[o.n_steps - 2] is None or None in o.isolated[-2:]:
            continue
        rows.append({"model": o.model, "first": o.skills[-2], "second": o.skills[-1],
                     "composed": float(o.curve[o.n_steps - 2]),
                     "expected": float(o.isolated[-2]) * float(o.isolated[-1])})
    frame = pd.DataFrame(rows, columns=["model", "first", "second", "composed", "expected"])
    grouped = frame.groupby(["model", "first", "second"]).agg(
        tasks=("composed", "size"), composed=("composed", "mean"), expected=("expected", "mean")).reset_index()
    grouped["gap"] = grouped["composed"] - grouped["expected"]
    return grouped


def _mentions(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w.:/]){re.escape(value)}(?![\w:/]|\.\d)", text) is not None


def validity_checks(ladders: Sequence[Ladder], items: Sequence[Outcome]) -> dict:
    """Counts of suspicious variants and outcomes (each a place to look, not proof of a fault).

    * ``possible_leakage``: ladders with a scaffold, or an isolated question before the last,
      that states the final answer although the original question does not;
    * ``non_monotonic``: outcomes solved at some level and failed at a higher one;
    * ``solved_but_steps_failed``: outcomes solved as asked (k = 0) with an isolated step
      failed, which questions the teacher's step answers or the isolated wording.
    """
    leaking = [ladder.task_id for ladder in ladders if not _mentions(ladder.task.question, ladder.task.answer)
               and any(_mentions(text, ladder.task.answer) for text in ladder.scaffolds + ladder.isolated[:-1])]
    return {
        "possible_leakage": len(leaking), "leaking_tasks": leaking[:20],
        "non_monotonic": sum(o.non_monotonic for o in items),
        "solved_but_steps_failed": sum(o.k == 0 and False in o.isolated for o in items),
    }
