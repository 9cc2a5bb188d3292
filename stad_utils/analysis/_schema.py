"""What ``summary.json`` and ``comparison.json`` hold: pydantic models, versioned, read by attribute.

`RunSummary` is ``summary.json`` (06_analyze), `Comparison` is ``comparison.json`` (07_compare).
`stad_utils.analysis._summary` assembles them and validates them here; the report, the words and the
notebooks read them by attribute (``summary.models[name].diagnosis.headline``). Every quantity is
defined in `stad_utils.definitions`.

Each file carries ``schema_version`` (`SCHEMA_VERSION`); a file written before the field existed
has the same content and loads as version 1. A change of what a file holds raises the version
and is listed here. The JSON Schemas in ``docs/schemas/`` are exported from these models by
``scripts/export_schemas.py`` (a test checks that they are current).

Version history
    1: the content of both files as it was when they were first described here.
    2: ``summary.json``'s diagnosis compares a skill like with like (with the steps standing at the
    same position in tasks of the same length: ``neighbours_accuracy``, ``comparable_accuracy``
    and ``effect`` of each tested skill), names the skills it cannot tell from their place
    (``inseparable``) and those weaker overall but not than their neighbours (``unconfirmed``),
    and tests the context (``context``: isolated accuracy by position and by task length); the
    family's size is ``family_size``. A version-1 file reads with these empty.

Fields a file lacks are not written back (`Record.as_dict` leaves out what was never set), so a
file read and written again is unchanged. Model and skill names are keys of dictionaries, so a
name is never a field name.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator
from typing_extensions import Self

SCHEMA_VERSION = 2
"""The version of ``summary.json`` and ``comparison.json`` this code writes."""

Count = int | float  # a number of units: whole, or fractional when each task weighs 1 over its samples


class Record(BaseModel):
    """A part of ``summary.json`` or ``comparison.json``: no unknown key, written back as read."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, validate_assignment=True)

    def as_dict(self) -> dict:
        """The JSON-ready content, with the keys the file had (or that were set), and none else."""
        return self.model_dump(by_alias=True, exclude_unset=True)

    def json_text(self) -> str:
        """The file's text: `as_dict` as indented JSON."""
        return json.dumps(self.as_dict(), indent=2, default=float)

    @classmethod
    def read(cls, path: Path | str):
        """The file at ``path``, validated (a `pydantic.ValidationError` names the field that is wrong)."""
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------ estimates


def _number(x: Any) -> float | None:
    """A float, or ``None`` for a missing or NaN value (JSON has no NaN)."""
    return None if x is None or (isinstance(x, float) and math.isnan(x)) or x != x else float(x)


class Estimate(Record):
    """A share or difference with its 95% interval and its units (``None`` where not computed)."""

    value: float | None
    ci95: list[float | None] = Field(min_length=2, max_length=2)
    n: Count

    @classmethod
    def of(cls, value: Any, low: Any, high: Any, n: Any, **fields: Any) -> Self:
        """An estimate from computed numbers (NumPy or pandas scalars, NaN where not computed), with the
        fields of its kind (``level=``, ``test=`` …).

        Examples
        --------
        >>> Estimate.of(0.5, float("nan"), 0.9, 4.0).as_dict()
        {'value': 0.5, 'ci95': [None, 0.9], 'n': 4}
        """
        count = float(n)
        return cls(value=_number(value), ci95=[_number(low), _number(high)],
                   n=int(count) if count.is_integer() else count, **fields)


class LevelEstimate(Estimate):
    """Success at one scaffold level: the tasks answered there, those asked but unanswered, who was asked."""

    level: int
    unanswered: int
    population: str


class BottleneckEstimate(Estimate):
    """The share of tasks needing help whose bottleneck step has this skill, and their (weighted) count."""

    tasks: float


class ContentHelp(Estimate):
    """Help from content at one level: success with the scaffold − with its placebo, on the same tasks."""

    level: int
    scaffold: float
    placebo: float


class NamedEstimate(Estimate):
    """An estimate with the name of its measure (the composition gap)."""

    name: str


class PairedDifference(Estimate):
    """A paired difference with its test and p-value."""

    test: str
    p_value: float | None


class DetectableDifference(PairedDifference):
    """A paired difference with its test, p-value and the smallest difference the sample could detect."""

    minimal_detectable_difference: float | None


# ------------------------------------------------------------------------------------------ summary.json


class Undetermined(Record):
    """Outcomes without a determined k, by reason."""

    error: int
    undecided: int
    not_asked: int = Field(alias="not asked")
    total: int


class SkillEntry(Record):
    """The measures of one skill (`stad_utils.analysis.skill_table`)."""

    occurrences: int
    isolated_accuracy: Estimate
    whole_task_success: Estimate
    isolated_vs_whole_gap: Estimate
    bottleneck_rate: Estimate
    bottlenecks: float
    unresolved_share: float | None
    needed_scaffold_share: float | None


class KStability(Record):
    """With repeated samples: the share of tasks with one k in every sample, and k's distribution per sample."""

    same_k: Estimate
    k_distribution_by_sample: dict[str, dict[str, int]]


class SkillEvidence(Record):
    """Why a skill is called weak: its accuracy asked alone against the other steps standing where its
    steps stand (``comparable_accuracy`` vs ``neighbours_accuracy``), their difference ``effect`` and the
    adjusted p; ``isolated_accuracy`` and ``others_accuracy`` are all its steps against all other steps.
    """

    skill: str
    isolated_accuracy: Estimate
    others_accuracy: Estimate
    effect: float
    p_adjusted: float
    comparable_accuracy: Estimate | None = None  # version 2 on
    neighbours_accuracy: Estimate | None = None  # version 2 on


class TestedSkill(Record):
    """One skill the diagnosis tested: its accuracy asked alone against the other steps standing where its
    steps stand, and whether it is named (``weak``), inseparable from its place or unconfirmed.
    """

    skill: str
    isolated_accuracy: Estimate
    others_accuracy: Estimate
    p_adjusted: float
    weak: bool
    comparable_accuracy: Estimate | None = None  # version 2 on: its steps that share a place with another skill's
    neighbours_accuracy: Estimate | None = None  # version 2 on: the other steps at those places, weighted alike
    effect: float | None = None  # version 2 on: neighbours − comparable accuracy (positive = weaker)
    standing: Literal["weak", "inseparable", "unconfirmed", "not weak"] | None = None  # version 2 on


class PlaceAccuracy(Estimate):
    """Accuracy asked alone of the steps at one position (or of the steps of tasks of one length)."""

    place: int


class ContextTest(Record):
    """Does accuracy asked alone fall with a step's position, or with its task's length, whatever its skill?

    A stratified Cochran–Armitage trend test (`stad_utils.analysis.context_tests`): position within
    (skill, task length), length within (skill, position); ``slope`` is the change of accuracy per
    later position (or extra step) within those strata, ``informative`` the steps that carry
    information, ``claimed`` whether the report says so; ``by_place`` is the figure's evidence.
    """

    context: Literal["position", "length"]
    slope: float | None
    informative: int
    p_adjusted: float
    claimed: bool
    by_place: list[PlaceAccuracy]


class Diagnosis(Record):
    """The tested claims of one model (`stad_utils.analysis.diagnose`) and their sentence."""

    weak_skills: list[str]
    weak_skill_evidence: list[SkillEvidence]
    tested_skills: list[TestedSkill] = []  # every skill tested (files written before it was recorded: none)
    composition_failure: bool
    composition_effect: NamedEstimate | None
    composition_p_adjusted: float | None
    test: str
    correction: str
    alpha: float
    skills_tested: int
    smallest_detectable_effect: float | None
    inseparable: list[str] = []  # version 2 on: weaker overall, but never standing where another skill does
    unconfirmed: list[str] = []  # version 2 on: weaker overall, not shown weaker than its neighbours
    context: list[ContextTest] = []  # version 2 on
    family_size: int | None = None  # version 2 on: the tests Holm's correction runs over
    headline: str = ""  # `stad_utils.analysis.headline`


class TruncationRow(Record):
    """Replies of one variant and level, and how many ``max_tokens`` cut off."""

    variant: str
    level: int
    replies: int
    cut_off: int
    share: float


class ModelSummary(Record):
    """One model's numbers (`stad_utils.analysis.summarize`), its cut-off replies and its weakness profile."""

    model: str | None
    simulated: bool
    policy: Literal["full", "on_failure"]
    notes: list[str]
    min_support: int
    n_tasks: int
    n_samples: int
    n_outcomes: int
    n_errors: int
    n_undecided: int
    undetermined: Undetermined
    accuracy_original: LevelEstimate
    accuracy_scaffolded: Estimate
    success_by_level: list[LevelEstimate]
    k_distribution: dict[str, int]
    k_share: dict[str, Estimate]
    categories: dict[str, int]
    non_monotonic: int
    bottlenecks: dict[str, BottleneckEstimate]
    per_skill: dict[str, SkillEntry]
    help_from_content: list[ContentHelp] | None
    k_stability: KStability | None
    diagnosis: Diagnosis
    truncated: list[TruncationRow] = []
    weakness_profile: str = ""  # `stad_utils.analysis.weakness_profile`


class Funnel(Record):
    """Tasks loaded → consistent → verified → evaluated, and the tasks dropped per reason (`task_funnel`)."""

    loaded: int
    consistent: int
    verified: int
    evaluated: int
    dropped: dict[str, int]


class UsageRow(Record):
    """Calls, tokens and seconds of one stage, role and model (`stad_utils.report.usage_table`); other
    counts a client reports are kept as they come.
    """

    model_config = ConfigDict(extra="allow")

    stage: str
    role: str
    model: str
    calls: Count
    cache_hits: Count
    errors: Count
    prompt_tokens: Count
    completion_tokens: Count
    seconds: float | None = None
    cost_usd: float | None = None


class RunSummary(Record):
    """``summary.json``: per model its numbers, the task funnel, and what the run cost."""

    schema_version: int = 1  # a file written before the field existed is version 1
    funnel: Funnel | None
    models: dict[str, ModelSummary]
    usage: list[UsageRow] | None = None


# ------------------------------------------------------------------------------------------ comparison.json


class PairedLevel(Record):
    """Paired success of two models at one scaffold level (`stad_utils.analysis.paired_levels`)."""

    level: int
    tasks: int
    a: float
    b: float
    difference: float
    low: float | None
    high: float | None
    interval: str
    a_better: int
    b_better: int
    tied: int
    test: str
    p_value: float
    minimal_detectable_difference: float | None
    population: str


class HelpNeeded(Record):
    """How much more help one model needs than the other (`stad_utils.analysis._compare.help_comparison`)."""

    n: int
    mean_difference: float | None
    k_differs_on: int
    wilcoxon_p: float | None


class SkillComparison(Record):
    """Two models' isolated accuracy at one skill, paired and Holm-corrected."""

    skill: str
    n: int
    a: float
    b: float
    difference: float
    low: float | None
    high: float | None
    p_value: float
    p_adjusted: float
    differs: bool


class LargestDifference(Record):
    """The skill whose bottleneck rates differ most between two models, and each model's rate there.

    Written as one mapping, as the file always has: ``skill``, and each model's name to its rate.
    """

    skill: str
    rates: dict[str, Estimate]

    @model_validator(mode="before")
    @classmethod
    def _from_the_file(cls, data: Any) -> Any:
        if isinstance(data, dict) and "rates" not in data:
            return {"skill": data.get("skill"), "rates": {key: value for key, value in data.items() if key != "skill"}}
        return data

    @model_serializer(mode="wrap")
    def _as_the_file(self, write) -> dict[str, Any]:
        written = write(self)
        return {"skill": written["skill"], **written["rates"]}

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler) -> dict[str, Any]:
        """The file's form: ``skill``, and each model's name to its rate."""
        return _file_form(cls, handler, {"skill": str}, Estimate)


class Profile(Record):
    """Bottleneck profiles of two models (`stad_utils.analysis._compare.profile_comparison`), or why not compared.

    ``largest_difference``: the skill and each model's bottleneck rate there.
    """

    refused: str | None = None
    n_tasks: int | None = None
    skills: list[str] | None = None
    distance: float | None = None
    p_value: float | None = None
    largest_difference: LargestDifference | None = None


def _file_form(record: type[Record], handler, fixed: dict[str, Any], per_model: type[Record]) -> dict[str, Any]:
    """The JSON Schema of a record written as one mapping of fixed keys and model names (its `model_serializer`)."""
    def schema_of(kind: Any) -> dict[str, Any]:
        return {"type": "string"} if kind is str else handler(kind.__pydantic_core_schema__)

    shapes = [schema_of(kind) for kind in (*fixed.values(), per_model)]
    return {"type": "object", "title": record.__name__, "description": (record.__doc__ or "").strip(),
            "required": list(fixed), "additionalProperties": {"anyOf": shapes}}


class CompositionComparison(Record):
    """Each model's composition gap and their paired difference A − B (`analysis.composition_comparison`).

    The file writes them in one mapping, as it always has: each model's name to its gap, and
    ``difference`` to the difference; read here, the model names and the fixed key are apart.
    """

    gaps: dict[str, NamedEstimate]
    difference: PairedDifference

    @model_validator(mode="before")
    @classmethod
    def _from_the_file(cls, data: Any) -> Any:
        if isinstance(data, dict) and "gaps" not in data:
            return {"gaps": {key: value for key, value in data.items() if key != "difference"},
                    "difference": data.get("difference")}
        return data

    @model_serializer(mode="wrap")
    def _as_the_file(self, write) -> dict[str, Any]:
        written = write(self)
        return {**written["gaps"], "difference": written["difference"]}

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler) -> dict[str, Any]:
        """The file's form: one object whose values are each model's gap or, under ``difference``, the difference."""
        return _file_form(cls, handler, {"difference": PairedDifference}, NamedEstimate)


class PairComparison(Record):
    """Two models on the same tasks (`stad_utils.analysis.compare_pair`).

    ``accuracy_original``: per model name its success as asked on the tasks both answered.
    """

    models: list[str] = Field(min_length=2, max_length=2)
    min_support: int
    simulated: list[str]
    n_tasks: int
    levels: list[PairedLevel]
    help_needed: HelpNeeded
    isolated_accuracy: list[SkillComparison]
    composition: CompositionComparison | None
    profile: Profile
    accuracy_original: dict[str, Estimate] | None = None
    difference_original: DetectableDifference | None = None
    statement: str = ""  # `stad_utils.analysis._wording.comparison_statement`


class PairGap(Record):
    # The docstring is this record's description in docs/schemas: one line, continued with backslashes.
    """Success with a final skill pair left minus the product of the two steps alone \
(`compare.pair_composition_gaps`).\
"""

    model: str
    first: str
    second: str
    tasks: int
    composed: float
    expected: float
    gap: float
    low: float
    high: float


class Refusal(Record):
    """Why a part is not computed."""

    refused: str


class Validity(Record):
    """Places to look (`stad_utils.analysis.validity_checks`)."""

    possible_leakage: int
    leaking_tasks: list[str]
    non_monotonic: int
    solved_but_steps_failed: int | None


class Comparison(Record):
    """``comparison.json``: every pair of models, the pair composition gaps and the validity checks."""

    schema_version: int = 1  # a file written before the field existed is version 1
    models: list[str]
    policy: Literal["full", "on_failure"]
    min_support: int
    comparisons: list[PairComparison]
    pair_gaps: list[PairGap] | Refusal
    validity: Validity


SCHEMAS: dict[str, type[Record]] = {"summary": RunSummary, "comparison": Comparison}
"""The files described here, by the name of their JSON Schema in ``docs/schemas/``."""


def json_schema(name: str) -> str:
    """The JSON Schema of ``<name>.json`` as the text of ``docs/schemas/<name>.schema.json``."""
    schema = SCHEMAS[name].model_json_schema(by_alias=True)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{name}.schema.json", **schema}
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
