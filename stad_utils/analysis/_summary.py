"""Assembling ``summary.json`` and ``comparison.json`` from the measures, the claims and their words.

Owns: a run analysed once per model (`analyze_run`: each model's frames built once, its
measures computed once, its claims tested once; summary.json and the figures read the result),
one model's summary (`summarize`), the diagnosis with its headline (`diagnosis_block`), one
pair's comparison with its statement (`compare_pair`) and a run's comparison (`compare_run`).
Every part is a record of `stad_utils.analysis`'s schema (`RunSummary`, `Comparison` …), read by
attribute. The computing is done in ``_measures``, ``_claims``, ``_compare``, ``_validity`` and
``_funnel``; the sentences in ``_wording``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ..definitions import ALPHA, MIN_SUPPORT
from ..method import fold_rare_skills, k_distribution, k_order
from ..records import Ladder, Outcome
from ._claims import diagnose
from ._compare import PAIR_GAP_REFUSAL, compare_models, pair_composition_gaps
from ._frames import ModelFrames, OutcomeFrames, as_frames, policy_of
from ._funnel import truncation_table
from ._measures import ModelMeasures, k_stability, measure
from ._schema import (
    SCHEMA_VERSION,
    BottleneckEstimate,
    Comparison,
    ContentHelp,
    Diagnosis,
    Estimate,
    Funnel,
    KStability,
    LevelEstimate,
    ModelSummary,
    PairComparison,
    PairGap,
    Refusal,
    RunSummary,
    SkillEntry,
    TruncationRow,
    Undetermined,
)
from ._stats import share_estimates
from ._validity import validity_checks
from ._wording import POLICY_NOTES, comparison_statement, headline, truncation_words, weakness_profile


def diagnosis_block(items: Sequence[Outcome] | OutcomeFrames, ladders: Sequence[Ladder] = (), *,
                    alpha: float = ALPHA, min_support: int = MIN_SUPPORT) -> Diagnosis:
    """The ``diagnosis`` of ``summary.json``: `diagnose` and its ``headline`` (`stad_utils.analysis.headline`)."""
    diagnosis = diagnose(items, ladders, alpha=alpha, min_support=min_support)
    diagnosis.headline = headline(diagnosis)
    return diagnosis


def model_summary(frames: OutcomeFrames, measures: ModelMeasures, diagnosis: Diagnosis,
                  stability: pd.DataFrame, *, min_support: int = MIN_SUPPORT) -> ModelSummary:
    """One model's ``summary.json`` entry, from its frames, its measures, its diagnosis and its `k_stability`.

    Nothing is computed here that a measure computed; the counts are read off the frames.
    """
    frame = frames.outcomes
    levels = measures.levels
    scaffolded = measures.scaffolded
    shares = measures.k_shares[measures.k_shares["value"] > 0]  # the k this model reached
    return ModelSummary(
        model=frame["model"].iloc[0] if not frame.empty else None,
        simulated=bool(frame["simulated"].any()),
        policy=frames.policy,
        notes=POLICY_NOTES[frames.policy],
        min_support=min_support,
        n_tasks=int(frame["task_id"].nunique()),
        n_samples=int(frame.groupby("task_id")["sample"].nunique().max()) if not frame.empty else 0,
        n_outcomes=len(frame),
        n_errors=int(frame["n_errors"].sum()),
        n_undecided=int(frame["n_undecided"].sum()),
        undetermined=Undetermined.model_validate(measures.undetermined),
        accuracy_original=_level_estimate(levels, 0),
        accuracy_scaffolded=(Estimate.of(*scaffolded.iloc[0][["value", "low", "high", "n"]]) if not scaffolded.empty
                             else Estimate.of(None, None, None, 0)),
        success_by_level=[_level_estimate(levels, level) for level in levels["level"]],
        k_distribution=k_distribution(frames.items),
        k_share={str(row.k): Estimate.of(row.value, row.low, row.high, row.n)
                 for row in shares.sort_values("k", key=lambda ks: ks.map(k_order)).itertuples()},
        categories=frame["category"].value_counts().to_dict(),
        non_monotonic=int(frame["non_monotonic"].sum()),
        bottlenecks={row.bottleneck: BottleneckEstimate.of(row.value, row.low, row.high, row.n, tasks=float(row.tasks))
                     for row in measures.bottlenecks.itertuples()},
        per_skill={row["skill"]: _skill_entry(row) for row in measures.skills.to_dict(orient="records")},
        help_from_content=([ContentHelp.of(row.estimate, row.low, row.high, row.n, level=int(row.level),
                                           scaffold=float(row.scaffold), placebo=float(row.placebo))
                            for row in measures.content.itertuples()] if not measures.content.empty else None),
        k_stability=(_stability_entry(stability, frames.items)
                     if not stability.empty and (stability["samples"] > 1).any() else None),
        diagnosis=diagnosis,
    )


def summarize(items: Sequence[Outcome] | OutcomeFrames, *, n_resamples: int = 1000, seed: int = 0,
              min_support: int = MIN_SUPPORT, ladders: Sequence[Ladder] = ()) -> ModelSummary:
    """The numbers of one model's outcomes, as ``summary.json`` holds them (see `definitions` for each).

    ``model``, ``simulated``, ``policy``, ``notes`` (what the policy restricts), ``n_tasks``,
    ``n_samples``, ``n_outcomes``, ``n_errors``/``n_undecided`` (verdicts), ``undetermined``
    (outcomes without k, by reason), ``accuracy_original`` and ``accuracy_scaffolded``,
    ``success_by_level``, ``k_distribution`` (counts of determined outcomes), ``k_share``,
    ``categories``, ``non_monotonic``, ``bottlenecks`` (attribution), ``per_skill``,
    ``help_from_content`` and ``k_stability`` (``None`` without placebos / a single sample),
    ``min_support``, and ``diagnosis`` (`diagnosis_block`; given the ``ladders``, an isolated
    question asked in several tasks counts once). A run's summary is `analyze_run`'s.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, curve, k):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["add", "mul"], curve=curve,
    ...                    isolated=[True, True], k=k, undetermined_by="error" if k is None else None,
    ...                    non_monotonic=False, n_errors=curve.count(None))
    >>> summary = summarize([o("t1", [True, True], 0), o("t2", [False, None], None), o("t3", [None, None], None)],
    ...                     n_resamples=0)
    >>> summary.accuracy_original.value, summary.accuracy_original.n, summary.undetermined.total
    (0.5, 2, 2)
    """
    frames = as_frames(items)
    return model_summary(frames, measure(frames, min_support=min_support, n_resamples=n_resamples, seed=seed),
                         diagnosis_block(frames, ladders, min_support=min_support), k_stability(frames),
                         min_support=min_support)


def _level_estimate(levels: pd.DataFrame, level: int) -> LevelEstimate:
    rows = levels[levels["level"] == level]
    if rows.empty:
        return LevelEstimate.of(None, None, None, 0, level=level, unanswered=0, population="all tasks")
    row = rows.iloc[0]
    return LevelEstimate.of(row["value"], row["low"], row["high"], row["n"], level=int(level),
                            unanswered=int(row["unanswered"]), population=row["population"])


def _skill_entry(row: dict) -> SkillEntry:
    estimates = {name: Estimate.of(row[name], row[f"{name}_low"], row[f"{name}_high"], row[n])
                 for name, n in (("isolated_accuracy", "isolated_n"), ("whole_task_success", "whole_n"),
                                 ("isolated_vs_whole_gap", "gap_n"), ("bottleneck_rate", "at_risk"))}
    return SkillEntry(occurrences=int(row["occurrences"]), **estimates, bottlenecks=float(row["bottlenecks"]),
                      unresolved_share=None if pd.isna(row["unresolved_share"]) else float(row["unresolved_share"]),
                      needed_scaffold_share=(None if pd.isna(row["needed_scaffold_share"])
                                             else float(row["needed_scaffold_share"])))


def _stability_entry(stability: pd.DataFrame, items: Sequence[Outcome]) -> KStability:
    repeated = stability[stability["samples"] > 1]
    share = share_estimates([repeated["same_k"].sum()], [len(repeated)]).iloc[0]
    by_sample = pd.crosstab(pd.Series([o.sample for o in items if o.k is not None], name="sample"),
                            pd.Series([o.k for o in items if o.k is not None], name="k"))
    return KStability(same_k=Estimate.of(share["value"], share["low"], share["high"], share["n"]),
                      k_distribution_by_sample={str(sample): {str(k): int(c) for k, c in row.items() if c}
                                                for sample, row in by_sample.iterrows()})


@dataclass(frozen=True)
class RunAnalysis:
    """A run's outcomes analysed once per model: what ``summary.json`` holds and what the figures draw.

    ``frames`` holds each model's frames; ``measures`` each model's `ModelMeasures` (rare skills
    folded by the run's ``folding`` for the figures); ``stability`` the run's `k_stability`
    (``k_by_task.csv``); ``summary`` the `RunSummary`.
    """

    frames: ModelFrames
    measures: dict[str, ModelMeasures]
    stability: pd.DataFrame
    summary: RunSummary

    @property
    def simulated(self) -> dict[str, bool]:
        """Per model, whether a simulated target answered it."""
        return {model: numbers.simulated for model, numbers in self.summary.models.items()}

    @property
    def undetermined(self) -> dict[str, Undetermined]:
        """Per model, its outcomes without a determined k, by reason."""
        return {model: numbers.undetermined for model, numbers in self.summary.models.items()}

    @property
    def policy(self) -> str:
        """The run's ladder policy: ``on_failure`` if any model was asked under it."""
        return "on_failure" if any(n.policy == "on_failure" for n in self.summary.models.values()) else "full"

    def table(self, measure: str) -> pd.DataFrame:
        """One measure of `ModelMeasures` (``"k_shares"``, ``"shown_skills"`` …) for every model, model by model."""
        tables = [getattr(measures, measure) for measures in self.measures.values()]
        return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()


def analyze_run(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0,
                min_support: int = MIN_SUPPORT, max_shown: int = 12, truncation: pd.DataFrame | None = None,
                ladders: Sequence[Ladder] = (), funnel: Funnel | None = None) -> RunAnalysis:
    """A run's `RunAnalysis`: per model its frames, measures, diagnosis and words, each computed once.

    Per model, `summarize`'s numbers, its `weakness_profile` and (given the run's ``truncation``:
    `truncation_table` or `run_truncation_table`) the replies cut off by ``max_tokens`` per
    variant and level; ``funnel`` (`task_funnel`) as given. Skills beyond the ``max_shown`` most
    frequent are folded in the figures' tables. The caller adds ``usage``
    (`stad_utils.report.usage_table`) and writes `RunSummary.json_text`.
    """
    truncation = truncation_table([]) if truncation is None else truncation
    frames = ModelFrames(items)
    folding = fold_rare_skills([skill for o in items for skill in o.skills], max_shown=max_shown)
    k_values = sorted({o.k for o in items if o.k is not None})
    stability = k_stability(items)
    measures, per_model = {}, {}
    for model in frames.models:
        own = frames.of(model)
        measures[model] = measure(own, folding=folding, k_values=k_values, min_support=min_support,
                                  n_resamples=n_resamples, seed=seed)
        numbers = model_summary(own, measures[model], diagnosis_block(own, ladders, min_support=min_support),
                                stability[stability["model"] == model], min_support=min_support)
        numbers.truncated = [TruncationRow(**row) for row in truncation[truncation["model"] == model]
                             .drop(columns="model").to_dict(orient="records")]
        numbers.weakness_profile = weakness_profile(numbers) + truncation_words(numbers.truncated)
        per_model[model] = numbers
    summary = RunSummary(schema_version=SCHEMA_VERSION, funnel=funnel, models=per_model)
    return RunAnalysis(frames=frames, measures=measures, stability=stability, summary=summary)


def summarize_run(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0,
                  min_support: int = MIN_SUPPORT, truncation: pd.DataFrame | None = None,
                  ladders: Sequence[Ladder] = (), funnel: Funnel | None = None) -> RunSummary:
    """``summary.json`` of a run (`RunSummary`): `analyze_run`'s summary."""
    return analyze_run(items, n_resamples=n_resamples, seed=seed, min_support=min_support, truncation=truncation,
                       ladders=ladders, funnel=funnel).summary


def compare_pair(items: Sequence[Outcome], model_a: str, model_b: str, *, n_permutations: int = 1000,
                 n_resamples: int = 1000, seed: int = 0, min_support: int = MIN_SUPPORT,
                 frames: ModelFrames | None = None) -> PairComparison:
    """One pair of ``comparison.json``: `compare_models` and its ``statement`` (`comparison_statement`).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(model, task, solved):
    ...     return Outcome(task_id=task, model=model, source="s", n_steps=1, skills=["add"], curve=[solved],
    ...                    isolated=[True], k=0 if solved else -1, non_monotonic=False, n_errors=0)
    >>> items = [o("A", f"t{i}", i < 9) for i in range(12)] + [o("B", f"t{i}", i < 6) for i in range(12)]
    >>> result = compare_pair(items, "A", "B", n_permutations=50, n_resamples=200)
    >>> result.difference_original.value, round(result.difference_original.p_value, 3)
    (0.25, 0.25)
    >>> result.statement[:90]
    'On the 12 tasks both answered as asked, A solves 75% (95% CI 47%–91%, n = 12) and B 50% (9'
    """
    result = compare_models(items, model_a, model_b, n_permutations=n_permutations, n_resamples=n_resamples,
                            seed=seed, min_support=min_support, frames=frames)
    result.statement = comparison_statement(result)
    return result


def compare_run(items: Sequence[Outcome], ladders: Sequence[Ladder], *, n_permutations: int = 1000,
                n_resamples: int = 1000, seed: int = 0, min_support: int = MIN_SUPPORT,
                frames: ModelFrames | None = None) -> Comparison:
    """``comparison.json`` (`schema.Comparison`): `compare_pair` for every pair of models, pair gaps and
    validity checks; the caller writes `Comparison.json_text`. ``frames`` (`ModelFrames` of ``items``), when
    the caller has built them.

    ``pair_gaps`` holds `pair_composition_gaps` records, or the reason they are refused.
    """
    models = sorted({o.model for o in items})
    frames = frames or ModelFrames(items)  # each model's frames serve every pair it is in
    comparisons = [compare_pair(items, a, b, n_permutations=n_permutations, n_resamples=n_resamples, seed=seed,
                                min_support=min_support, frames=frames) for a, b in itertools.combinations(models, 2)]
    policy = policy_of(items)
    pair_gaps: list[PairGap] | Refusal = (
        [PairGap(**row) for row in pair_composition_gaps(items).to_dict(orient="records")] if policy == "full"
        else Refusal(refused=PAIR_GAP_REFUSAL))
    return Comparison(schema_version=SCHEMA_VERSION, models=models, policy=policy, min_support=min_support,
                      comparisons=comparisons, pair_gaps=pair_gaps, validity=validity_checks(ladders, items))
