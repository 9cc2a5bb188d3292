"""What a run will cost before its first call: model calls, cache hits, tokens and dollars per stage and model.

`plan_run` follows the chain as the runner would run it, without calling any model:

* **Which questions.** What a run folder already holds is not asked again (each stage resumes),
  so the plan starts from its records (none with ``fresh``). Generated tasks, tasks of a local
  file, and the oracle and GSM8K-solution teachers need no model: the plan makes their tasks,
  decompositions and ladders as the stages would, and counts every question of 05 from them.
  Benchmarks loaded from the hub (not read for a plan) count their known test split; an LLM
  teacher's steps are not known before it answers, so each task counts the steps of its gold
  solution (GSM8K) or `ASSUMED_STEPS`, and every task is assumed to pass the filters (an upper bound).
* **Calls and cache hits.** Each request of a target is built as its client builds it
  (`stad_utils.models.request_of`), and its cache key looked up in the response cache (read only);
  a request the cache holds, or one asked earlier in the same stage, is a hit. Teachers', judges'
  and namers' requests depend on their own earlier replies: they are counted, not looked up. An
  LLM judge is asked only for replies the deterministic stages leave undecided, and ``on_failure``
  asks variants only of failed originals: those rows say *at most*. Re-asks of unusable replies
  are not counted.
* **Tokens.** Prompt tokens are estimated from the prompts themselves, `CHARS_PER_TOKEN`
  characters a token plus `TOKENS_PER_MESSAGE` per message (the tokenizer of a given model may
  differ by a third); answer tokens are each call's token limit (and reasoning trace budget): a
  bound, not a forecast. With ``prices`` in 06_analyze (USD per million prompt and completion
  tokens per model) the plan gives dollars, from those two counts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..method import (
    GSM8KSolutionTeacher,
    OracleTeacher,
    build_ladders,
    decompose,
    gsm8k_solution_steps,
    ladder_questions,
)
from ..models import (
    EndpointConfig,
    ResponseCache,
    engine_request,
    record_name,
    render,
    request_of,
    served_endpoint,
)
from ..records import Decomposition, Ladder, RunPaths, Step, Task, Verdict, latest_verdicts, read_records
from ..stages import tasks as tasks_stage
from ..tasks import BENCHMARKS
from ._params import STAGES

CHARS_PER_TOKEN = 4
"""Characters per token of English prose with GPT-style tokenizers: the plan's rate for prompts."""

TOKENS_PER_MESSAGE = 4
"""Tokens a chat template adds around each message."""

ASSUMED_STEPS = 3
"""The steps an LLM teacher is assumed to find in a task with no gold solution to count them from."""

HUB_TASKS = {"gsm8k": (1319, 240), "math_hard": (1324, 248), "tot_arithmetic": (1850, 394)}
"""Each benchmark's test split loaded from the hub: its tasks, and the mean characters of a question
(measured on the files of ``../shared/data``)."""

SKILL_NAME_TOKENS = 40
"""The token limit of a skill-naming call (`stad_utils.method.name_skills_with_llm`)."""


@dataclass
class PlanRow:
    """The calls of one role's model in one stage."""

    stage: str
    role: str
    model: str
    calls: int = 0
    cache_hits: int | None = 0  # None: not looked up
    prompt_tokens: int = 0
    answer_tokens: int = 0
    usd: float | None = None
    basis: str = "counted"


@dataclass
class Plan:
    """The rows of a run's plan, what they rest on, and the run's limit."""

    rows: list[PlanRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    limit: dict = field(default_factory=dict)

    @property
    def calls(self) -> int:
        """Model calls over all rows."""
        return sum(row.calls for row in self.rows)

    def text(self) -> str:
        """The plan as a table, then the notes."""
        header = ("stage", "role", "model", "calls", "cache hits", "prompt tokens", "answer tokens ≤", "USD", "basis")
        lines = [header] + [
            (row.stage, row.role, row.model, f"{row.calls:,}", "–" if row.cache_hits is None else f"{row.cache_hits:,}",
             f"{row.prompt_tokens:,}", f"{row.answer_tokens:,}", "–" if row.usd is None else f"{row.usd:,.2f}",
             row.basis) for row in self.rows]
        priced = [row.usd for row in self.rows if row.usd is not None]
        lines.append(("total", "", "", f"{self.calls:,}", f"{sum(row.cache_hits or 0 for row in self.rows):,}",
                      f"{sum(row.prompt_tokens for row in self.rows):,}",
                      f"{sum(row.answer_tokens for row in self.rows):,}", f"{sum(priced):,.2f}" if priced else "–", ""))
        widths = [max(len(line[i]) for line in lines) for i in range(len(header) - 1)]
        table = ["  ".join(cell.ljust(width) if i < 3 else cell.rjust(width)
                           for i, (cell, width) in enumerate(zip(line, widths))) + "  " + line[-1] for line in lines]
        return "\n".join(table + [f"- {note}" for note in self.notes + self._limit_notes()])

    def _limit_notes(self) -> list[str]:
        if not self.limit:
            return []
        said = ", ".join(f"{kind} {value:,}" for kind, value in self.limit.items())
        over = self.limit.get("calls") is not None and self.calls > self.limit["calls"]
        return [f"limit per invocation: {said}" + (f"; the plan's {self.calls:,} calls exceed it: the run stops "
                                                    "there, and each re-run goes on" if over else "")]


def estimated_tokens(messages: Sequence[dict]) -> int:
    """The prompt tokens of a chat, estimated (`CHARS_PER_TOKEN`, `TOKENS_PER_MESSAGE`).

    Examples
    --------
    >>> estimated_tokens([{"role": "user", "content": "What is 2 + 3?"}])
    8
    """
    return sum(math.ceil(len(message["content"]) / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE for message in messages)


@dataclass
class _Chain:
    """What the chain holds entering a stage (known records, or planned ones where they are not known yet), and
    where the plan looks up what is done and what is cached.
    """

    tasks: list[Task]
    decompositions: list[Decomposition]
    ladders: list[Ladder]
    paths: RunPaths
    fresh: bool
    cache: ResponseCache | None  # None: nothing is looked up (no cache file, or the cache off or refreshed)
    shared: bool  # a key planned by an earlier row is a hit (one cache for all clients)
    known: bool = True  # the records are the ones the stages will make (no estimate so far)
    notes: list[str] = field(default_factory=list)
    planned_keys: set[str] = field(default_factory=set)


def plan_run(params: dict, *, stages: Sequence[str], run_dir: Path, cache_path: Path | None, fresh: bool = False,
             cache_mode: str = "use") -> Plan:
    """The plan of running ``stages`` of the loaded ``params`` into ``run_dir`` (see the module docstring).

    ``cache_mode`` is the runner's (``use``, ``off``: only repeats within a stage are hits, or
    ``refresh``: none is); a cache file that does not exist holds nothing.
    """
    blocks = params.get("stages") or {}
    paths = RunPaths(run_dir)
    cache = ResponseCache(cache_path) if cache_mode == "use" and cache_path and cache_path.exists() else None
    chain = _Chain(*_held(paths, fresh), paths=paths, fresh=fresh, cache=cache, shared=cache_mode == "use")
    prices = (blocks.get("06_analyze") or {}).get("prices") or {}
    plan = Plan(limit={kind: value for kind, value in (params.get("limit") or {}).items() if value is not None})
    try:
        for stage in STAGES:
            rows = _STAGES.get(stage, _no_calls)(blocks.get(stage) or {}, chain)
            if stage in stages:
                plan.rows += rows or [PlanRow(stage, "–", "–", cache_hits=None, basis="no model calls")]
    finally:
        if cache is not None:
            cache.close()
    for row in plan.rows:
        price = prices.get(row.model)
        if price:
            row.usd = (row.prompt_tokens * price.get("prompt", 0)
                       + row.answer_tokens * price.get("completion", 0)) / 1e6
    plan.notes = [*dict.fromkeys(chain.notes), f"prompt tokens: ≈ {CHARS_PER_TOKEN} characters a token + "
                  f"{TOKENS_PER_MESSAGE} a message; answer tokens: each call's token limit (a bound)"]
    return plan


def _held(paths: RunPaths, fresh: bool) -> tuple[list[Task], list[Decomposition], list[Ladder]]:
    if fresh:
        return [], [], []
    return (read_records(paths.tasks, Task.model_validate, missing_ok=True),
            read_records(paths.decompositions, Decomposition.model_validate, missing_ok=True),
            read_records(paths.ladders, Ladder.model_validate, missing_ok=True))


def _no_calls(values: dict, chain: _Chain) -> list[PlanRow]:
    return []


def _tasks(values: dict, chain: _Chain) -> list[PlanRow]:
    """01: the tasks it would add (generated or read from a local file; a hub benchmark counted)."""
    stage_params = tasks_stage.Params(**{key: value for key, value in values.items()
                                         if key in tasks_stage.Params.model_fields})
    if stage_params.source in BENCHMARKS and not stage_params.data_path:
        rows, chars = HUB_TASKS[stage_params.source]
        count = min(stage_params.n_tasks or rows, rows) - len(chain.tasks)
        chain.tasks += [Task(task_id=f"planned-{i}", source=stage_params.source, question="x" * chars, answer="0")
                        for i in range(max(count, 0))]
        chain.known = False
        chain.notes.append(f"{stage_params.source} from the hub is not read for a plan: {rows:,} test items of "
                           f"{chars} characters on average (give 01_tasks a local data_path to count its questions)")
        return []
    have = {task.task_id for task in chain.tasks}
    chain.tasks += [task for task in tasks_stage.candidates(stage_params) if task.task_id not in have]
    return []


def _steps(task: Task) -> list[Step]:
    """A task's steps before a teacher gives them: its reference steps, its GSM8K solution's, or `ASSUMED_STEPS`."""
    if task.reference_steps:
        return task.reference_steps
    if task.solution and (steps := gsm8k_solution_steps(task.solution)):
        return steps
    return [Step(description="x" * 60, answer="0") for _ in range(ASSUMED_STEPS)]


def _decompose(values: dict, chain: _Chain) -> list[PlanRow]:
    """02: the teacher's calls for the tasks without a decomposition (none for the oracle and GSM8K solutions)."""
    done = {d.task_id for d in chain.decompositions}
    todo = [task for task in chain.tasks if task.task_id not in done]
    teacher = values.get("teacher", "oracle")
    if teacher in ("oracle", "gsm8k_solution") and chain.known:
        made = decompose(todo, OracleTeacher() if teacher == "oracle" else GSM8KSolutionTeacher())
        chain.decompositions += made
        return []
    chain.decompositions += [Decomposition(task=task, teacher="planned", steps=_steps(task), consistent=True)
                             for task in todo]
    if not isinstance(teacher, dict):
        return []
    chain.known = False
    chain.notes.append(f"an LLM teacher's steps: a task's gold solution steps, else {ASSUMED_STEPS}; every task "
                       "assumed to pass the consistency and verification filters")
    config = EndpointConfig.model_validate(teacher["endpoint"])
    segments = [render("segment", question=task.question, max_steps=teacher.get("max_steps", 6)) for task in todo]
    answers = [render("solve_steps", question=task.question, steps=[s.description for s in _steps(task)])
               for task in todo]
    rows = [_counted("02_decompose", "teacher", config, segments + answers, teacher.get("step_tokens", 1024))]
    return rows + _judge_rows("02_decompose", values, [task.answer for task in todo])


def _scaffold(values: dict, chain: _Chain) -> list[PlanRow]:
    """03: the teacher's rewrites and verifications for the consistent decompositions without a ladder."""
    done = {ladder.task_id for ladder in chain.ladders}
    todo = [d for d in chain.decompositions if d.consistent and d.task_id not in done]
    teacher = values.get("teacher", "oracle")
    if teacher in ("oracle", "gsm8k_solution") and chain.known:
        chain.ladders += build_ladders(todo, OracleTeacher() if teacher == "oracle" else GSM8KSolutionTeacher(),
                                       placebo=bool(values.get("placebo")),
                                       drop_single_step=bool(values.get("drop_single_step")))
        return []
    question, placebo = (lambda d, n: [d.task.question] * n), bool(values.get("placebo"))
    chain.ladders += [Ladder(task=d.task, teacher="planned", steps=d.steps, scaffolds=question(d, len(d.steps) - 1),
                             isolated=question(d, len(d.steps)), placebos=question(d, (len(d.steps) - 1) * placebo))
                      for d in todo]
    if not isinstance(teacher, dict):
        return []
    config = EndpointConfig.model_validate(teacher["endpoint"])
    rewrites, verifications = [], []
    for d in todo:
        steps = d.steps
        rewrites += [render("scaffold", question=d.task.question, solved=steps[:j]) for j in range(1, len(steps))]
        rewrites += [render("isolated", question=d.task.question, earlier=steps[:i - 1], target=steps[i - 1])
                     for i in range(1, len(steps) + 1)]
        if values.get("placebo"):
            rewrites += [render("placebo", question=d.task.question, count=j) for j in range(1, len(steps))]
        verifications += [render("solve", question=d.task.question)] * (len(steps) - 1)
    rows = [_counted("03_scaffold", "teacher", config, rewrites + verifications, teacher.get("rewrite_tokens", 2000))]
    return rows + _judge_rows("03_scaffold", values, [d.task.answer for d in todo for _ in d.steps[1:]])


def _skills(values: dict, chain: _Chain) -> list[PlanRow]:
    """04: a namer names each cluster of steps: at most ``n_clusters`` (else ``max_clusters``) calls."""
    if not values.get("namer"):
        return []
    config = EndpointConfig.model_validate(values["namer"])
    clusters = values.get("n_clusters") or values.get("max_clusters", 30)
    descriptions = [step.description for ladder in chain.ladders for step in ladder.steps][:8] or ["x" * 60] * 8
    prompt = render("name_skill", examples=descriptions)
    row = _counted("04_skills", "namer", config, [prompt] * clusters, SKILL_NAME_TOKENS)
    row.basis = "at most (one call per cluster)"
    return [row]


def _evaluate(values: dict, chain: _Chain) -> list[PlanRow]:
    """05: every question each target has not answered yet, built as its client builds it, looked up in the cache."""
    ladders = [ladder for ladder in chain.ladders if ladder.verified]
    answered = set() if chain.fresh else {key for key, verdict in latest_verdicts(
        read_records(chain.paths.verdicts, Verdict.model_validate, missing_ok=True)).items() if verdict.error is None}
    on_failure = values.get("policy", "full") == "on_failure"
    rows = []
    for block in values.get("targets") or []:
        config = EndpointConfig.model_validate(block)
        label = record_name(config.label) if config.kind == "simulated" else config.label
        questions = [q for q in ladder_questions(ladders, config.n_samples, placebo=bool(values.get("placebo")))
                     if (q.task_id, label, q.variant, q.level, q.sample) not in answered]
        basis = ("estimated: from planned ladders" if not chain.known else
                 "at most: on_failure asks the variants of failed originals only" if on_failure else "counted")
        if config.kind == "simulated":
            rows.append(PlanRow("05_evaluate", "target", label, calls=len(questions), cache_hits=None,
                                basis=f"simulated (no model); {basis}"))
            continue
        requests = []
        for q in questions:
            limit = config.max_tokens if q.variant == "original" else config.variant_tokens()
            requests.append(engine_request(config, q.prompt, q.sample, {"max_tokens": limit}) if config.kind == "vllm"
                            else request_of(served_endpoint(config), q.prompt, sample=q.sample, max_tokens=limit))
        if chain.known:
            rows.append(_looked_up("05_evaluate", "target", label, requests, chain, basis))
        else:  # planned questions: their texts are stand-ins, so their keys mean nothing
            rows.append(PlanRow("05_evaluate", "target", label, calls=len(requests), cache_hits=None, basis=basis,
                                prompt_tokens=sum(estimated_tokens(messages) for _, messages, _ in requests),
                                answer_tokens=sum(params["max_tokens"] for _, _, params in requests)))
    references = [q.reference for q in ladder_questions(ladders, placebo=bool(values.get("placebo")))]
    return rows + _judge_rows("05_evaluate", values, references * len(values.get("targets") or []))


def _looked_up(stage: str, role: str, model: str, requests: Iterable[tuple[str, list, dict]], chain: _Chain,
               basis: str) -> PlanRow:
    """A row of requests built exactly: distinct keys are calls unless the cache holds them (or, with one cache for
    all clients, an earlier row asks them); repeats are hits.
    """
    row = PlanRow(stage, role, model, basis=basis)
    first: dict[str, tuple[list, dict]] = {}
    for key, messages, params in requests:
        if key in first:
            row.cache_hits = (row.cache_hits or 0) + 1
            continue
        first[key] = (messages, params)
    held = (chain.cache.holds(first) if chain.cache is not None else set()) | (
        chain.planned_keys if chain.shared else set())
    for key, (messages, params) in first.items():
        if key in held:
            row.cache_hits = (row.cache_hits or 0) + 1
            continue
        row.calls += 1
        row.prompt_tokens += estimated_tokens(messages)
        row.answer_tokens += params.get("max_tokens") or 0
    chain.planned_keys.update(first)
    return row


def _counted(stage: str, role: str, config: EndpointConfig, prompts: Sequence[str], max_tokens: int) -> PlanRow:
    """A row of requests counted, not looked up (their prompts rest on earlier replies)."""
    limit = max_tokens + config.reasoning.trace_tokens
    return PlanRow(stage, role, config.label, calls=len(prompts), cache_hits=None,
                   prompt_tokens=sum(estimated_tokens([{"content": p}] + ([{"content": config.system_prompt}]
                                                                          if config.system_prompt else []))
                                     for p in prompts),
                   answer_tokens=limit * len(prompts), basis="estimated: prompts rest on the teacher's earlier replies")


def _judge_rows(stage: str, values: dict, references: Sequence[str]) -> list[PlanRow]:
    """The LLM judge of a stage: at most one call per reply (only the undecided ones are asked)."""
    spec = values.get("judge")
    if not spec:
        return []
    config = EndpointConfig.model_validate(spec.get("endpoint", spec) if isinstance(spec, dict) else spec)
    prompts = [render("judge", candidate="x" * 20, reference=reference, tag="answer") for reference in references]
    row = _counted(stage, "judge", config, prompts, config.max_tokens)
    row.basis = "at most: the judge is asked only where the deterministic stages cannot decide"
    return [row]


_STAGES = {"01_tasks": _tasks, "02_decompose": _decompose, "03_scaffold": _scaffold, "04_skills": _skills,
           "05_evaluate": _evaluate}
"""The planner of each stage that may call models (or makes what later stages ask about)."""
