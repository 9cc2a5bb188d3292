"""The failure browser's data: for each evaluated task of run folders, what the records hold about it.

Everything the page, the widget and the viewer show is gathered here as JSON-ready dicts
(`browser_data`, `BrowserRecords`), and so is the table of disagreements (`disagreements`); the
HTML is `stad_utils.report.browser._html`'s, the widget `stad_utils.report.browser._widget`'s.

At scale a page cannot carry every reply: the table's facets are computed by DuckDB from the
verdicts without their texts (`stad_utils.records.columnar`), and a task's texts are read on demand
(`BrowserRecords.task`), or for a bounded set of tasks (`carried_tasks`).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from ...analysis import possible_leakage
from ...method import k_category
from ...records import (
    QUESTION_KEY,
    VERDICT_KEY,
    Ladder,
    RunPaths,
    StepSkill,
    Verdict,
    collector_paused,
    columnar,
    evaluation_items,
    file_stamp,
    judged_outcome,
    read_records,
)
from ...records.columnar import RunDirs
from .._names import short_names

FLAGS = {
    "non_monotonic": "non-monotonic curve",
    "step_failed_alone": "solved, but a step failed alone",
    "undecided": "undecided verdict",
    "error": "error",
    "truncated": "truncated reply",
    "possible_leakage": "a variant may state the answer",
}
"""The validity flags a task can raise for a model, each a place to look rather than a fault.

``step_failed_alone``: solved as asked (k = 0) although an isolated step was failed, which
questions the teacher's step answer or the isolated wording. ``possible_leakage`` belongs to the
task (`stad_utils.analysis.possible_leakage`) and is raised for every model.
"""

JUDGE_STAGES = ("deterministic", "math_verify", "llm_judge", "none", "error")
"""The values of `Verdict.decided_by`, in the order of the judge cascade."""

UNDETERMINED = "undetermined"
"""The k label of an outcome whose k is ``None``."""


class _Outcome(NamedTuple):
    """The fields of an `Outcome` the browser shows and filters on."""

    sample: int
    k: int | None
    curve: list[bool | None]
    isolated: list[bool | None]
    placebo: list[bool | None]
    non_monotonic: bool


class _Judged(NamedTuple):
    """What one model's verdicts on one task say (`_JUDGED`), in place of the verdicts themselves."""

    stages: list[str]
    undecided: bool
    error: bool
    truncated: bool
    last_sample: int


@dataclass
class _TaskFacets:
    """What the records say of one evaluated task, apart from its ladder."""

    models: list[str]  # the models with a verdict or an outcome on it, in name order
    judged: dict[str, _Judged]  # by model (one without verdicts is left out)
    outcomes: dict[str, list[_Outcome]]  # by model, in the order of their samples
    differing: list[tuple[str, int, int, dict[str, str]]]  # see `_DIFFERING`
    n_samples: int
    k_differs: bool  # two models have different determined k on the same sample


@dataclass
class _RunRecords:
    """The records of one or more run folders as the browser needs them, the latest record of each key winning.

    The verdicts are not held, only what the browser shows and filters on, per task (`_TaskFacets`,
    grouped by DuckDB from the Parquet copies of the logs, `stad_utils.records.columnar`): a million
    verdicts as Python objects took longer to build than everything else the browser does. Their
    texts are read per task, on demand (`BrowserRecords.texts`).
    """

    ladders: list[Ladder]
    skills: dict[tuple[str, int], str]
    facets: dict[str, _TaskFacets]  # by task: the tasks with a verdict or an outcome


_FACTS = f"""
    CREATE TEMP TABLE facts AS
    SELECT {', '.join(VERDICT_KEY)}, judged, decided_by, truncated FROM verdicts"""
"""The latest verdicts without their texts, chosen once for the queries that follow (`columnar.query`)."""

_JUDGED = """
    SELECT task_id, model, list(DISTINCT decided_by), bool_or(judged = 'undecided'), bool_or(judged = 'error'),
           coalesce(bool_or(truncated), false), max(sample)
    FROM facts GROUP BY task_id, model"""
"""Per task and model, the fields of `_Judged`: judge stages, an undecided, error or truncated verdict, last sample."""

_DIFFERING = f"""
    SELECT {', '.join(QUESTION_KEY)}, list(model), list(judged)
    FROM facts WHERE judged IN ('correct', 'wrong', 'no_answer')
    GROUP BY {', '.join(QUESTION_KEY)} HAVING min(judged = 'correct') <> max(judged = 'correct')"""
"""The questions (task, variant, level, sample) on which the models' decided verdicts differ, each model's verdict.

The lists are in no order (ordered lists took DuckDB longer than sorting them in Python).
"""

_OUTCOMES = f"SELECT task_id, model, {', '.join(_Outcome._fields)} FROM outcomes ORDER BY sample"


def _read_runs(runs: Sequence[Path]) -> _RunRecords:
    """Read every run folder; a task's ladder comes from the first run that has it.

    Verdicts are append-only: the last one per (task, model, variant, level, sample) wins,
    runs read in the order given (`columnar.query`). Outcomes: the last per (task, model, sample).
    """
    ladders: dict[str, Ladder] = {}
    skills: dict[tuple[str, int], str] = {}
    for run in map(RunPaths, runs):
        for ladder in read_records(run.ladders, Ladder.model_validate, missing_ok=True):
            ladders.setdefault(ladder.task_id, ladder)
        skills.update({(s.task_id, s.step): s.skill
                       for s in read_records(run.skills, StepSkill.model_validate, missing_ok=True)})
    judged: dict[str, dict[str, _Judged]] = defaultdict(dict)
    outcomes: dict[str, dict[str, list[_Outcome]]] = defaultdict(lambda: defaultdict(list))
    differing: dict[str, list] = defaultdict(list)
    with columnar.views(runs) as connection:
        connection.execute(_FACTS)
        for task_id, model, *fields in connection.execute(_JUDGED).fetchall():
            judged[task_id][model] = _Judged._make(fields)
        for task_id, model, *fields in connection.execute(_OUTCOMES).fetchall():
            outcomes[task_id][model].append(_Outcome._make(fields))
        for task_id, variant, level, sample, models, verdicts in connection.execute(_DIFFERING).fetchall():
            differing[task_id].append((variant, level, sample, dict(sorted(zip(models, verdicts)))))
    facets = {task_id: _task_facets(judged.get(task_id, {}), dict(outcomes.get(task_id, {})),
                                    differing.get(task_id, []))
              for task_id in judged.keys() | outcomes.keys()}
    return _RunRecords(list(ladders.values()), skills, facets)


def _task_facets(judged: dict[str, _Judged], outcomes: dict[str, list[_Outcome]],
                 differing: list[tuple[str, int, int, dict[str, str]]]) -> _TaskFacets:
    """A task's facets from its models' verdict summaries and outcomes (in the order of their samples)."""
    samples = [entry.last_sample for entry in judged.values()] + [o.sample for mine in outcomes.values() for o in mine]
    return _TaskFacets(sorted(judged.keys() | outcomes.keys()), judged, outcomes, differing,
                       n_samples=1 + max(samples, default=0),
                       k_differs=_k_differs(outcome for mine in outcomes.values() for outcome in mine))


def _by_task(records: Iterable) -> dict[str, list]:
    grouped: dict[str, list] = defaultdict(list)
    for record in records:
        grouped[record.task_id].append(record)
    return grouped


def k_filter_value(k: int | None) -> str:
    """``"0"``, ``"2"``, ``"-1"`` or ``"undetermined"``: k as the filters name it."""
    return UNDETERMINED if k is None else str(k)


def variant_label(kind: str, level: int) -> str:
    """How the browser names a variant.

    >>> variant_label("scaffold", 2), variant_label("isolated", 1)
    ('scaffold 2 (2 steps given)', 'isolated step 1')
    """
    if kind == "scaffold":
        return f"scaffold {level} ({level} step{'s' if level > 1 else ''} given)"
    if kind == "isolated":
        return f"isolated step {level}"
    return kind if kind == "original" else f"{kind} {level}"


TRACE_HEAD_CHARS, TRACE_TAIL_CHARS = 1000, 3000
"""How much of a reasoning trace a drill-down shows: its start and its end, where it concludes. A
20,000-token trace (80,000 characters) would otherwise outweigh a whole task; verdicts.jsonl keeps it whole."""


def shown_trace(trace: str) -> tuple[str, str, int]:
    """``(start, end, characters left out between them)`` of a trace as a drill-down shows it.

    >>> shown_trace("short")
    ('short', '', 0)
    >>> start, end, left_out = shown_trace("a" * 5000)
    >>> len(start), len(end), left_out
    (1000, 3000, 1000)
    """
    if len(trace) <= TRACE_HEAD_CHARS + TRACE_TAIL_CHARS:
        return trace, "", 0
    return trace[:TRACE_HEAD_CHARS], trace[-TRACE_TAIL_CHARS:], len(trace) - TRACE_HEAD_CHARS - TRACE_TAIL_CHARS


def _reply(verdict: Verdict) -> dict:
    reply: dict[str, Any] = {"sample": verdict.sample, "response": verdict.response, "error": verdict.error,
             "extracted": verdict.extracted, "outcome": judged_outcome(verdict), "decided_by": verdict.decided_by,
             "explanation": verdict.explanation, "truncated": verdict.truncated,
             "finish_reason": verdict.finish_reason}
    if verdict.reasoning is not None:  # only then: the replies of other models keep their shape
        start, end, left_out = shown_trace(verdict.reasoning)
        reply["trace"] = {"start": start, "end": end, "left_out": left_out, "chars": len(verdict.reasoning),
                          "tokens": verdict.reasoning_tokens}
    return reply


def _variant_entry(kind: str, level: int, text: str, reference: str, verdicts: Sequence[Verdict]) -> dict:
    """One variant with each model's replies (one per sample), ``{}`` for a model not asked it.

    ``verdicts`` are the task's verdicts of this variant (or more: others are left out).
    """
    replies: dict[str, list[dict]] = defaultdict(list)
    for verdict in sorted(verdicts, key=lambda v: (v.model, v.sample)):
        if (verdict.variant, verdict.level) == (kind, level):
            replies[verdict.model].append(_reply(verdict))
    return {"kind": kind, "level": level, "label": variant_label(kind, level), "text": text,
            "reference": reference, "replies": dict(replies)}


def _differing_verdicts(ladder: Ladder, questions: Sequence[tuple[str, int, int, dict[str, str]]]) -> list[dict]:
    """The questions (variant and sample) on which the models' decided verdicts differ, in reading order.

    ``questions``: the task's `_RunRecords.differing`; a question the ladder does not have is left out.
    """
    if not questions:
        return []
    variants = evaluation_items(ladder, placebo=True)  # every variant, in reading order
    order: dict[tuple[str, int], int] = {(kind, level): position
                                         for position, (kind, level, _, _) in enumerate(variants)}
    return [{"variant": variant_label(kind, level), "sample": sample, "verdicts": verdicts}
            for kind, level, sample, verdicts in sorted((q for q in questions if (q[0], q[1]) in order),
                                                        key=lambda q: (order[q[0], q[1]], q[2]))]


def _k_differs(outcomes: Iterable[_Outcome]) -> bool:
    """True if two models have different determined k on the same sample."""
    by_sample: dict[int, set[int]] = defaultdict(set)
    for outcome in outcomes:
        if outcome.k is not None:
            by_sample[outcome.sample].add(outcome.k)
    return any(len(ks) > 1 for ks in by_sample.values())


def _flags(outcomes: Sequence[_Outcome], judged: _Judged | None, leaking: bool) -> list[str]:
    """The `FLAGS` that one model's outcomes and verdicts on a task raise, and the task's own (``leaking``)."""
    raised = {
        "non_monotonic": any(o.non_monotonic for o in outcomes),
        "step_failed_alone": any(k_category(o.k) == "independent" and False in o.isolated for o in outcomes),
        "undecided": judged is not None and judged.undecided,
        "error": judged is not None and judged.error,
        "truncated": judged is not None and judged.truncated,
        "possible_leakage": leaking,
    }
    return [flag for flag in FLAGS if raised[flag]]


def _model_entry(outcomes: Sequence[_Outcome], judged: _Judged | None, leaking: bool) -> dict:
    """One model on one task: k, curve and isolated steps per sample, judge stages and flags.

    ``outcomes`` in the order of their samples; ``judged``: ``None`` for a model without verdicts.
    """
    return {
        "samples": [{"sample": o.sample, "k": k_filter_value(o.k), "curve": o.curve, "isolated": o.isolated,
                     "placebo": o.placebo} for o in outcomes],
        "k": [k_filter_value(o.k) for o in outcomes],
        "stages": [] if judged is None else sorted(judged.stages, key=_stage_order),
        "flags": _flags(outcomes, judged, leaking),
    }


def _stage_order(stage: str) -> tuple[int, str]:
    return (JUDGE_STAGES.index(stage) if stage in JUDGE_STAGES else len(JUDGE_STAGES), stage)


def _possible_leakage(ladder: Ladder) -> bool:
    """`stad_utils.analysis.possible_leakage`, asked only of a ladder with a variant that holds the answer's text.

    A variant can state the answer only if it holds it as a substring: this test spares most ladders,
    which do not leak, the regular expressions.
    """
    answer = ladder.task.answer
    return any(answer in text for text in (*ladder.scaffolds, *ladder.isolated)) and possible_leakage(ladder)


def _task_entry(ladder: Ladder, records: _RunRecords, leaking: bool, texts: Sequence[Verdict] | None = None) -> dict:
    """Everything the browser shows and filters on for one evaluated task (JSON-ready).

    The variants and the replies (``variants``) are in it only when the task's verdicts are given
    with their texts as ``texts`` (``detailed`` then is true). ``leaking``: `possible_leakage`,
    a flag of every model.
    """
    facets = records.facets[ladder.task_id]
    per_model = {model: _model_entry(facets.outcomes.get(model, []), facets.judged.get(model), leaking)
                 for model in facets.models}
    steps = [{"number": i, "description": step.description, "answer": step.answer,
              "skill": records.skills.get((ladder.task_id, i), step.skill or "unmapped"),
              "bottleneck_of": [model for model, entry in per_model.items() if str(i) in entry["k"]]}
             for i, step in enumerate(ladder.steps, start=1)]
    differs = _differing_verdicts(ladder, facets.differing)
    return {
        "id": ladder.task_id, "source": ladder.task.source, "question": ladder.task.question,
        "answer": ladder.task.answer, "n_steps": ladder.n_steps, "n_samples": facets.n_samples,
        "steps": steps, "skills": list(dict.fromkeys(step["skill"] for step in steps)),
        **({} if texts is None else {"variants": _variant_entries(ladder, texts)}), "models": per_model,
        "k": {model: entry["k"] for model, entry in per_model.items()},
        "stages": {model: entry["stages"] for model, entry in per_model.items()},
        "flags": {model: entry["flags"] for model, entry in per_model.items()},
        "differs": differs, "disagree": bool(differs) or facets.k_differs, "detailed": texts is not None,
    }


def _variant_entries(ladder: Ladder, texts: Sequence[Verdict]) -> list[dict]:
    """Every variant of the ladder with each model's replies (`_variant_entry`)."""
    by_question = defaultdict(list)
    for verdict in texts:
        by_question[verdict.variant, verdict.level].append(verdict)
    return [_variant_entry(kind, level, text, reference, by_question.get((kind, level), []))
            for kind, level, text, reference in evaluation_items(ladder, placebo=True)]


def _filter_options(tasks: Sequence[dict]) -> dict:
    """The values each filter offers: those that occur, in a natural order."""
    def occurring(facet: str) -> set[str]:
        return {value for task in tasks for values in task[facet].values() for value in values}

    ks, flags = occurring("k"), occurring("flags")
    return {
        "k": sorted(ks - {UNDETERMINED, "-1"}, key=int) + [k for k in ("-1", UNDETERMINED) if k in ks],
        "skill": sorted({skill for task in tasks for skill in task["skills"]}),
        "stage": sorted(occurring("stages"), key=_stage_order),
        "flag": [flag for flag in FLAGS if flag in flags],
    }


class BrowserRecords:
    """The records of run folders as the browser reads them: texts are read per task, on demand.

    `BrowserRecords.of` keeps the last one read in this process, so that the notebooks' widgets
    and tables (06_analyze, then 07_compare in the same kernel) read a large run once.
    """

    _last: tuple[tuple, BrowserRecords] | None = None

    @classmethod
    def of(cls, run_dirs: RunDirs) -> BrowserRecords:
        """The records of the runs, read again only when one of their files has changed since."""
        runs = columnar.run_list(run_dirs)
        stamp = tuple((path, file_stamp(path)) for run in map(RunPaths, runs)
                      for path in (run.ladders, run.skills, run.verdicts, run.outcomes) if path.exists())
        if cls._last is None or cls._last[0] != stamp:
            cls._last = None  # let the old records go before reading the new ones
            cls._last = (stamp, cls(runs))
        return cls._last[1]

    @collector_paused()
    def __init__(self, run_dirs: RunDirs):
        self.runs = columnar.run_list(run_dirs)
        self.records = _read_runs(self.runs)
        self.models = sorted({model for facets in self.records.facets.values() for model in facets.models})
        self.ladders = {ladder.task_id: ladder for ladder in self.records.ladders
                        if ladder.task_id in self.records.facets}
        self.leaking = {task_id for task_id, ladder in self.ladders.items() if _possible_leakage(ladder)}
        skills = {self.records.skills.get((task_id, i), step.skill or "unmapped")
                  for task_id, ladder in self.ladders.items() for i, step in enumerate(ladder.steps, start=1)}
        self.short = {**short_names(sorted(skills), 28), **short_names(self.models, 18)}  # display names; full on hover
        self._data: dict[tuple, dict] = {}  # `data` by its arguments: a widget and a table read the same

    def texts(self, task_ids: Iterable[str]) -> dict[str, list[Verdict]]:
        """The latest verdicts of these tasks with their texts, by task."""
        return _by_task(Verdict.model_validate(row) for row in columnar.reply_records(self.runs, task_ids))

    def task(self, task_id: str) -> dict:
        """One task's entry of `browser_data` with every reply, read now; `KeyError` for a task not evaluated."""
        return _task_entry(self.ladders[task_id], self.records, task_id in self.leaking,
                           self.texts([task_id]).get(task_id, []))

    def data(self, max_details: int | None = None, seed: int = 0) -> dict:
        """`browser_data`, the drill-downs' texts read for at most ``max_details`` tasks (`carried_tasks`).

        The result is shared by later calls with the same arguments: do not change it.
        """
        if (max_details, seed) not in self._data:
            self._data[max_details, seed] = self._gather(max_details, seed)
        return self._data[max_details, seed]

    @collector_paused()
    def _gather(self, max_details: int | None, seed: int) -> dict:
        tasks = [_task_entry(ladder, self.records, task_id in self.leaking) for task_id, ladder in self.ladders.items()]
        carried = carried_tasks(tasks, max_details, seed)
        if carried:
            texts = self.texts(carried)
            tasks = [_task_entry(self.ladders[task["id"]], self.records, task["id"] in self.leaking,
                                 texts.get(task["id"], []))
                     if task["id"] in carried else task for task in tasks]
        return {"runs": [run.name for run in self.runs], "models": self.models, "tasks": tasks,
                "options": _filter_options(tasks), "n_detailed": len(carried), "short": self.short}


def carried_tasks(tasks: Sequence[dict], limit: int | None, seed: int = 0) -> set[str]:
    """The ids of the tasks whose drill-down a page carries: all of them when they are at most ``limit``.

    Otherwise a third of the budget each, drawn with a seeded generator: tasks some model failed
    (k = −1 or undetermined, or a validity flag), tasks the models disagree on, and a sample of
    all tasks; whatever a group leaves unused goes to the next.
    """
    if limit is None or len(tasks) <= limit:
        return {task["id"] for task in tasks}
    rng = random.Random(seed)
    failed = [task["id"] for task in tasks
              if any(k in ("-1", UNDETERMINED) for ks in task["k"].values() for k in ks)
              or any(task["flags"].values())]
    disagreeing = [task["id"] for task in tasks if task["disagree"]]
    groups = [failed, disagreeing, [task["id"] for task in tasks]]
    carried: set[str] = set()
    for number, group in enumerate(groups):
        share = -(-(limit - len(carried)) // (len(groups) - number))  # rounded up
        fresh = [task_id for task_id in group if task_id not in carried]
        carried.update(rng.sample(fresh, min(share, len(fresh))))
    return carried


def browser_data(run_dirs: RunDirs, max_details: int | None = None) -> dict:
    """Gather, for every evaluated task of the run folders, what the browser shows.

    Parameters
    ----------
    run_dirs
        A run folder, or several (e.g. other models evaluated on the same tasks, as
        ``07_compare``'s ``other_runs``). A task's ladder comes from the first folder that has
        it; a later folder's verdict or outcome replaces an earlier one with the same key.
    max_details
        Read the replies' texts of at most this many tasks (`carried_tasks`); ``None``: all.

    Returns
    -------
    dict
        ``runs`` (folder names), ``models``, ``tasks`` (one JSON-ready dict per task that has
        a verdict or an outcome, in ladder order, with its question, steps, variants and
        replies (``variants``: only when ``detailed``), and the filter facets ``k``, ``stages``
        and ``flags`` as ``{model: [value]}``, ``skills`` and ``disagree``; each step's
        ``bottleneck_of``: the models whose k is that step), ``options`` (the values each filter
        offers), ``n_detailed``, and ``short`` (a short display name of every model and skill,
        `stad_utils.report._names.short_names`; the full name shows on hover).
    """
    return BrowserRecords.of(run_dirs).data(max_details)


def matching_tasks(data: dict, *, model: str = "", k: str = "", skill: str = "", stage: str = "", flag: str = "",
                   disagree: bool = False, text: str = "") -> list[dict]:
    """The tasks of `browser_data` that pass the filters (an empty value: no filter).

    The same rules as the page's script (``templates/browser.js``): ``model`` keeps the tasks
    the model answered and narrows ``k``, ``stage`` and ``flag`` to it; ``text`` is searched,
    ignoring case, in the task id and question.
    """
    def facet(task: dict, name: str) -> list[str]:
        by_model = task[name]
        return by_model.get(model, []) if model else [value for values in by_model.values() for value in values]

    return [task for task in data["tasks"]
            if (not model or model in task["stages"])
            and (not k or k in facet(task, "k"))
            and (not stage or stage in facet(task, "stages"))
            and (not flag or flag in facet(task, "flags"))
            and (not skill or skill in task["skills"])
            and (not disagree or task["disagree"])
            and text.lower() in f"{task['id']} {task['question']}".lower()]



@collector_paused()
def disagreements(run_dirs: RunDirs) -> pd.DataFrame:
    """The tasks on which the models disagree: one row per task and sample, for ``07_compare``.

    Columns: ``task_id``, ``source``, ``sample``, ``k <model>`` for each model (``<NA>`` when
    undetermined or missing), and ``verdicts that differ`` (e.g. ``original: a correct, b
    wrong``). A row is listed when the models' k differ or a decided verdict differs (see the
    module's docstring).
    """
    records = BrowserRecords.of(run_dirs)
    rows = [row for task_id, ladder in records.ladders.items()
            for row in _disagreement_rows(ladder, records.records.facets[task_id], records.models)]
    columns = ["task_id", "source", "sample", *(f"k {model}" for model in records.models), "verdicts that differ"]
    return pd.DataFrame(rows, columns=columns).astype({f"k {model}": "Int64" for model in records.models})


def disagreement_table(run_dirs: RunDirs):
    """`disagreements` for a notebook: the table, or a sentence saying that there are none."""
    from IPython.display import Markdown

    table = disagreements(run_dirs)
    return Markdown("None: the models agree on every task (same k, same decided verdicts).") if table.empty else table


def _determined_k(outcomes: Sequence[_Outcome], sample: int) -> int | None:
    return next((o.k for o in outcomes if o.sample == sample and o.k is not None), None)


def _disagreement_rows(ladder: Ladder, facets: _TaskFacets, models: Sequence[str]) -> list[dict]:
    """A task's rows of `disagreements`, one per sample on which the models disagree.

    Read from the task's facets, without the rest of its browser entry (`_task_entry`).
    """
    differs = _differing_verdicts(ladder, facets.differing)
    if not differs and not facets.k_differs:
        return []
    rows = []
    for sample in range(facets.n_samples):
        ks = {model: _determined_k(facets.outcomes.get(model, []), sample) for model in models}
        differing = [d for d in differs if d["sample"] == sample]
        if len({k for k in ks.values() if k is not None}) < 2 and not differing:
            continue
        described = "; ".join(f"{d['variant']}: " + ", ".join(f"{model} {outcome}"
                                                             for model, outcome in d["verdicts"].items())
                              for d in differing)
        rows.append({"task_id": ladder.task_id, "source": ladder.task.source, "sample": sample,
                     **{f"k {model}": k for model, k in ks.items()}, "verdicts that differ": described})
    return rows
