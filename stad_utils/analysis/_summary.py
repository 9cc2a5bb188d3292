"""Assembling ``summary.json`` and ``comparison.json`` from the measures, the claims and their words.

Owns: one model's numbers (`summarize`), the diagnosis block with its headline
(`diagnosis_block`), a run's summary (`summarize_run`), one pair's comparison with its
statement (`compare_pair`) and a run's comparison (`compare_run`). The parts are JSON-ready
dicts; a run's files are validated into `stad_utils.analysis._schema`'s models (`RunSummary`,
`Comparison`), which the words, the report and the notebooks read by attribute. The computing
is done in `analysis`, `claims`, `compare`, `validity` and `funnel`; the sentences in `wording`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..definitions import ALPHA, MIN_SUPPORT
from ..method import k_distribution
from ..records import Ladder, Outcome
from ._claims import diagnose
from ._compare import PAIR_GAP_REFUSAL, compare_models, pair_composition_gaps
from ._frames import ModelFrames, outcome_frame, policy_of
from ._funnel import truncation_table
from ._measures import (
    accuracy_scaffolded,
    bottleneck_attribution,
    help_from_content,
    k_order,
    k_shares,
    k_stability,
    skill_table,
    success_by_level,
    undetermined_counts,
)
from ._schema import SCHEMA_VERSION, Comparison, Diagnosis, ModelSummary, PairComparison, RunSummary
from ._stats import estimate, share_estimates
from ._validity import validity_checks
from ._wording import POLICY_NOTES, comparison_statement, headline, truncation_words, weakness_profile


def diagnosis_block(items: Sequence[Outcome], ladders: Sequence[Ladder] = (), *, alpha: float = ALPHA,
                    min_support: int = MIN_SUPPORT) -> dict:
    """The ``diagnosis`` block of ``summary.json``: `claims.diagnose` and its ``headline`` (`wording.headline`)."""
    diagnosis = diagnose(items, ladders, alpha=alpha, min_support=min_support)
    diagnosis["headline"] = headline(Diagnosis.model_validate(diagnosis))
    return diagnosis


def summarize(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0,
              min_support: int = MIN_SUPPORT, ladders: Sequence[Ladder] = ()) -> dict:
    """The numbers of one model's run, as written to ``summary.json`` (see `definitions` for each).

    Keys: ``model``, ``simulated``, ``policy``, ``notes`` (what the policy restricts),
    ``n_tasks``, ``n_samples``, ``n_outcomes``, ``n_errors``/``n_undecided`` (verdicts),
    ``undetermined`` (outcomes without k, by reason), ``accuracy_original`` and
    ``accuracy_scaffolded`` (estimates: value, ci95, n), ``success_by_level`` (one estimate per
    level with ``unanswered`` and ``population``), ``k_distribution`` (counts of determined
    outcomes), ``k_share`` (estimates), ``categories``, ``non_monotonic``, ``bottlenecks``
    (attribution), ``per_skill``, ``help_from_content`` and ``k_stability`` (``None`` when
    there is no placebo / a single sample), ``min_support``, and ``diagnosis``
    (`diagnosis_block`: the tested claims the sentences are written from; given the
    ``ladders``, an isolated question asked in several tasks counts once).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, curve, k):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["add", "mul"], curve=curve,
    ...                    isolated=[True, True], k=k, undetermined_by="error" if k is None else None,
    ...                    non_monotonic=False, n_errors=curve.count(None))
    >>> summary = summarize([o("t1", [True, True], 0), o("t2", [False, None], None), o("t3", [None, None], None)],
    ...                     n_resamples=0)
    >>> summary["accuracy_original"]["value"], summary["accuracy_original"]["n"], summary["undetermined"]["total"]
    (0.5, 2, 2)
    """
    frame = outcome_frame(items)
    policy = policy_of(items)
    levels = success_by_level(items)
    scaffolded = accuracy_scaffolded(items)
    skills = skill_table(items, min_support=min_support, n_resamples=n_resamples, seed=seed)
    content = help_from_content(items, n_resamples=n_resamples, seed=seed)
    stability = k_stability(items)
    multi_sample = bool((stability["samples"] > 1).any()) if not stability.empty else False
    return {
        "model": frame["model"].iloc[0] if not frame.empty else None,
        "simulated": bool(frame["simulated"].any()),
        "policy": policy,
        "notes": POLICY_NOTES[policy],
        "min_support": min_support,
        "n_tasks": int(frame["task_id"].nunique()),
        "n_samples": int(frame.groupby("task_id")["sample"].nunique().max()) if not frame.empty else 0,
        "n_outcomes": len(frame),
        "n_errors": int(frame["n_errors"].sum()),
        "n_undecided": int(frame["n_undecided"].sum()),
        "undetermined": undetermined_counts(items),
        "accuracy_original": _level_estimate(levels, 0),
        "accuracy_scaffolded": (estimate(*scaffolded.iloc[0][["value", "low", "high", "n"]]) if not scaffolded.empty
                                else estimate(np.nan, np.nan, np.nan, 0)),
        "success_by_level": [_level_estimate(levels, level) for level in levels["level"]],
        "k_distribution": k_distribution(items),
        "k_share": {str(row.k): estimate(row.value, row.low, row.high, row.n)
                    for row in k_shares(items).sort_values("k", key=lambda ks: ks.map(k_order)).itertuples()},
        "categories": frame["category"].value_counts().to_dict(),
        "non_monotonic": int(frame["non_monotonic"].sum()),
        "bottlenecks": {row.bottleneck: estimate(row.value, row.low, row.high, row.n, tasks=float(row.tasks))
                        for row in bottleneck_attribution(items).itertuples()},
        "per_skill": {row["skill"]: _skill_entry(row) for row in skills.to_dict(orient="records")},
        "help_from_content": ([estimate(row.estimate, row.low, row.high, row.n, level=int(row.level),
                                        scaffold=float(row.scaffold), placebo=float(row.placebo))
                               for row in content.itertuples()] if not content.empty else None),
        "k_stability": _stability_entry(stability, items) if multi_sample else None,
        "diagnosis": diagnosis_block(items, ladders, min_support=min_support),
    }


def _level_estimate(levels: pd.DataFrame, level: int) -> dict:
    rows = levels[levels["level"] == level]
    if rows.empty:
        return estimate(np.nan, np.nan, np.nan, 0, level=level, unanswered=0, population="all tasks")
    row = rows.iloc[0]
    return estimate(row["value"], row["low"], row["high"], row["n"], level=int(level),
                    unanswered=int(row["unanswered"]), population=row["population"])


def _skill_entry(row: dict) -> dict:
    entry: dict[str, Any] = {"occurrences": int(row["occurrences"])}
    for name, n in (("isolated_accuracy", "isolated_n"), ("whole_task_success", "whole_n"),
                    ("isolated_vs_whole_gap", "gap_n"), ("bottleneck_rate", "at_risk")):
        entry[name] = estimate(row[name], row[f"{name}_low"], row[f"{name}_high"], row[n])
    entry["bottlenecks"] = float(row["bottlenecks"])
    entry["unresolved_share"] = None if pd.isna(row["unresolved_share"]) else float(row["unresolved_share"])
    entry["needed_scaffold_share"] = (None if pd.isna(row["needed_scaffold_share"])
                                      else float(row["needed_scaffold_share"]))
    return entry


def _stability_entry(stability: pd.DataFrame, items: Sequence[Outcome]) -> dict:
    repeated = stability[stability["samples"] > 1]
    share = share_estimates([repeated["same_k"].sum()], [len(repeated)]).iloc[0]
    by_sample = pd.crosstab(pd.Series([o.sample for o in items if o.k is not None], name="sample"),
                            pd.Series([o.k for o in items if o.k is not None], name="k"))
    return {"same_k": estimate(share["value"], share["low"], share["high"], share["n"]),
            "k_distribution_by_sample": {str(sample): {str(k): int(c) for k, c in row.items() if c}
                                         for sample, row in by_sample.iterrows()}}


def summarize_run(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0,
                  min_support: int = MIN_SUPPORT, truncation: pd.DataFrame | None = None,
                  ladders: Sequence[Ladder] = (), funnel: dict | None = None) -> RunSummary:
    """``summary.json`` of a run (`schema.RunSummary`): per model, `summarize`, its `weakness_profile`,
    and (given the run's ``truncation``: `truncation_table` or `run_truncation_table`) the replies cut
    off by ``max_tokens`` per variant and level; ``funnel`` (`task_funnel`) as given, else ``None``.
    The caller adds ``usage`` (`stad_utils.report.usage_table`) and writes `RunSummary.json_text`.
    """
    truncation = truncation_table([]) if truncation is None else truncation
    per_model = {}
    for model in sorted({o.model for o in items}):
        summary = summarize([o for o in items if o.model == model], n_resamples=n_resamples, seed=seed,
                            min_support=min_support, ladders=ladders)
        summary["truncated"] = truncation[truncation["model"] == model].drop(columns="model").to_dict(orient="records")
        numbers = ModelSummary.model_validate(summary)
        numbers.weakness_profile = weakness_profile(numbers) + truncation_words(numbers.truncated)
        per_model[model] = numbers
    return RunSummary.model_validate({"schema_version": SCHEMA_VERSION, "funnel": funnel, "models": per_model})


def compare_pair(items: Sequence[Outcome], model_a: str, model_b: str, *, n_permutations: int = 1000,
                 n_resamples: int = 1000, seed: int = 0, min_support: int = MIN_SUPPORT,
                 frames: ModelFrames | None = None) -> dict:
    """One pair of ``comparison.json``: `compare.compare_models` and its ``statement``.

    The statement is `wording.comparison_statement`'s.
    """
    result = compare_models(items, model_a, model_b, n_permutations=n_permutations, n_resamples=n_resamples,
                            seed=seed, min_support=min_support, frames=frames)
    result["statement"] = comparison_statement(PairComparison.model_validate(result))
    return result


def compare_run(items: Sequence[Outcome], ladders: Sequence[Ladder], *, n_permutations: int = 1000,
                n_resamples: int = 1000, seed: int = 0, min_support: int = MIN_SUPPORT) -> Comparison:
    """``comparison.json`` (`schema.Comparison`): `compare_pair` for every pair of models, pair gaps and
    validity checks; the caller writes `Comparison.json_text`.

    ``pair_gaps`` holds `pair_composition_gaps` records, or ``{"refused": reason}``.
    """
    models = sorted({o.model for o in items})
    frames = ModelFrames(items)  # each model's frames serve every pair it is in
    comparisons = [compare_pair(items, a, b, n_permutations=n_permutations, n_resamples=n_resamples, seed=seed,
                                min_support=min_support, frames=frames) for a, b in itertools.combinations(models, 2)]
    policy = policy_of(items)
    pair_gaps = (pair_composition_gaps(items).to_dict(orient="records") if policy == "full"
                 else {"refused": PAIR_GAP_REFUSAL})
    return Comparison.model_validate({
        "schema_version": SCHEMA_VERSION, "models": models, "policy": policy, "min_support": min_support,
        "comparisons": comparisons, "pair_gaps": pair_gaps, "validity": validity_checks(ladders, items)})
