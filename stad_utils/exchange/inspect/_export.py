"""A finished run as Inspect logs, one per target model, for ``inspect view`` and ``inspect view bundle``.

Each latest verdict of a target is one sample of its log, with the id the task gives the same
question (`stad_utils.exchange._run.sample_id`) and epoch sample + 1: the prompt (after the
target's system prompt, when params.yaml gives one), the reply with its reasoning trace as a
reasoning part, its tokens and seconds, a cut-off reply's stop reason ``max_tokens``, and a reply
that never came as the sample's error. Two scores: ``stad_judge``, the verdict as the task's scorer
records it (value C, I, or unscored for undecided and errors; the outcome and the deciding stage
in its metadata), and ``stad_k``, the k of the question's task in that sample (−1 unresolved;
unscored when undetermined). The metadata holds the task, variant, level, step, skill and k.
Written with `inspect_ai.log.write_eval_log`; read back with `read_eval_log` (and into a run
with `stad_utils.exchange.inspect.read_logs`, which gives the same verdicts).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path

from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalError,
    EvalLog,
    EvalMetric,
    EvalPlan,
    EvalPlanStep,
    EvalResults,
    EvalSample,
    EvalScore,
    EvalSpec,
    EvalStats,
    write_eval_log,
)
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    Content,
    ContentReasoning,
    ContentText,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.scorer import Score

from ...method import k_category, ladder_questions
from ...models import EndpointConfig
from ...records import (
    Outcome,
    RunPaths,
    Verdict,
    latest_records,
    latest_verdicts,
    outcome_key,
    read_records,
    read_usage,
)
from .._run import (
    params_of,
    question_metadata,
    run_name,
    sample_id,
    slug,
    stable_uuid,
    step_skills,
    target_settings,
    verified_ladders,
)
from .task import JUDGED, SCORER, score_of

K_SCORER = "stad_k"
"""The score holding the k of a sample's task."""

STOP_REASONS = {"stop": "stop", "length": "max_tokens", "content_filter": "content_filter", "tool_calls": "tool_calls"}
"""A reply's finish reason as Inspect's stop reason (anything else: ``unknown``)."""


def export_logs(run_dir: Path | str, out_dir: Path | str, *, params: Path | str | None = None) -> list[Path]:
    """Write one ``.eval`` log per target of ``run_dir`` into ``out_dir``; returns the files, by target order.

    ``params`` is the params file the run was made with (default: the run's ``params.yaml``): it gives
    each target's system prompt and sampling settings.
    The names start with the time of the export (``inspect view`` lists a log by such a name) and end in
    the target's label; exporting again writes the same ids under a new time.
    """
    paths = RunPaths(Path(run_dir))
    ladders = verified_ladders(paths)
    skills = step_skills(paths)
    order = {sample_id(q.task_id, q.variant, q.level): (number, q)
             for number, q in enumerate(ladder_questions(ladders, placebo=True))}
    ks = {key: outcome.k for key, outcome in latest_records(
        read_records(paths.outcomes, Outcome.model_validate), ("task_id", "model", "sample")).items()}
    by_model: dict[str, list[Verdict]] = defaultdict(list)
    for verdict in latest_verdicts(read_records(paths.verdicts, Verdict.model_validate)).values():
        by_model[verdict.model].append(verdict)
    settings = target_settings(params_of(paths, params))
    usage = read_usage(paths).get("05_evaluate", {}).get("target", {})
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S+00-00")
    written = []
    for label, verdicts in by_model.items():
        setting = settings.get(label)
        samples = []
        for verdict in sorted(verdicts, key=lambda v: (order[_id(v)][0], v.sample)):
            metadata = question_metadata(order[_id(verdict)][1], skills)
            samples.append(_sample(verdict, metadata, ks.get(outcome_key(verdict)), setting))
        log = _log(paths, label, samples, setting, usage.get(label, {}))
        path = out / f"{stamp}_stad-ladders_{slug(label)}.eval"
        write_eval_log(log, str(path))
        written.append(path)
    return written


def _id(verdict: Verdict) -> str:
    return sample_id(verdict.task_id, verdict.variant, verdict.level)


def _sample(verdict: Verdict, metadata: dict, k: int | None, setting: EndpointConfig | None) -> EvalSample:
    system: list[ChatMessage] = ([ChatMessageSystem(content=setting.system_prompt)]
                                 if setting is not None and setting.system_prompt else [])
    asked: list[ChatMessage] = [*system, ChatMessageUser(content=verdict.prompt)]
    usage = ModelUsage(input_tokens=verdict.prompt_tokens or 0, output_tokens=verdict.completion_tokens or 0,
                       total_tokens=(verdict.prompt_tokens or 0) + (verdict.completion_tokens or 0),
                       reasoning_tokens=verdict.reasoning_tokens)
    output, messages = ModelOutput(model=verdict.model), asked
    if verdict.response is not None:
        content: list[Content] = ([ContentReasoning(reasoning=verdict.reasoning)] if verdict.reasoning else [])
        content.append(ContentText(text=verdict.response))
        reply = ChatMessageAssistant(content=content, model=verdict.model, source="generate")
        output = ModelOutput(model=verdict.model, usage=usage, choices=[ChatCompletionChoice(
            message=reply, stop_reason=STOP_REASONS.get(verdict.finish_reason or "", "unknown"))])
        messages = [*asked, reply]
    k_score = (Score(value=k, explanation=f"k = {k} ({k_category(k)})") if k is not None
               else Score.unscored(reason="undetermined", explanation="k undetermined: a level before the first "
                                                                      "success has no decided verdict"))
    k_score.metadata = {"k": k, "category": k_category(k), "n_steps": metadata["n_steps"]}
    return EvalSample(
        id=_id(verdict), epoch=verdict.sample + 1, input=asked if system else verdict.prompt, target=verdict.reference,
        messages=messages, output=output,
        metadata={**metadata, "sample": verdict.sample, "k": k, "policy": verdict.policy,
                  "simulated": verdict.simulated},
        scores={SCORER: score_of({field: getattr(verdict, field) for field in JUDGED}), K_SCORER: k_score},
        model_usage={verdict.model: usage} if verdict.response is not None else {},
        total_time=verdict.latency_s, working_time=verdict.latency_s,
        error=(EvalError(message=verdict.error or "no reply", traceback="", traceback_ansi="")
               if verdict.response is None else None))


def _log(paths: RunPaths, label: str, samples: list[EvalSample], setting: EndpointConfig | None,
         usage: dict) -> EvalLog:
    run = run_name(paths)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    ids = list(dict.fromkeys(str(sample.id) for sample in samples))
    epochs = max((sample.epoch for sample in samples), default=1)
    config = (GenerateConfig(temperature=setting.temperature, top_p=setting.top_p, max_tokens=setting.max_tokens,
                             seed=setting.seed, system_message=setting.system_prompt,
                             reasoning_effort=setting.reasoning_effort)
              if setting is not None else GenerateConfig())
    prompt, completion = int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))
    total = ModelUsage(input_tokens=prompt, output_tokens=completion, total_tokens=prompt + completion,
                       reasoning_tokens=int(usage.get("reasoning_tokens", 0)) or None)
    errored = sum(sample.error is not None for sample in samples)
    return EvalLog(
        version=2, status="success",
        eval=EvalSpec(
            eval_id=stable_uuid(run, label, "eval"), run_id=stable_uuid(run, "run"), created=now, task="stad_ladders",
            task_id=stable_uuid(run, label, "task"), task_registry_name="stad_utils/stad_ladders",
            task_args={"run": run, "n_samples": epochs},
            dataset=EvalDataset(name=run, samples=len(ids), sample_ids=ids), model=label,
            model_generate_config=config, config=EvalConfig(epochs=epochs),
            metadata={"stad": {"run": run, "exported_by": "stad_utils.exchange", "target": label,
                               "model": setting.model if setting else None,
                               "kind": setting.kind if setting else None}}),
        plan=EvalPlan(name="plan", steps=[EvalPlanStep(solver="ask_target", params={})]),
        results=EvalResults(total_samples=len(samples), completed_samples=len(samples) - errored,
                            scores=[_judge_metrics(samples), _k_metrics(samples)]),
        stats=EvalStats(started_at=now, completed_at=now, model_usage={label: total}),
        samples=samples)


def _judge_metrics(samples: list[EvalSample]) -> EvalScore:
    """Decided replies answered right, overall and per variant (undecided and errors left out, as the method does)."""
    def share(values: Iterable[float]) -> float:
        decided = [value for value in values if not math.isnan(value)]
        return sum(decided) / len(decided) if decided else float("nan")

    values = [(str(s.metadata["variant"]), _float((s.scores or {})[SCORER].value)) for s in samples]
    metrics = {"accuracy": EvalMetric(name="accuracy", value=share(value for _, value in values))}
    for variant in dict.fromkeys(variant for variant, _ in values):
        metrics[variant] = EvalMetric(name=variant, value=share(v for kind, v in values if kind == variant))
    return EvalScore(name=SCORER, scorer=SCORER, scored_samples=sum(not math.isnan(v) for _, v in values),
                     unscored_samples=sum(math.isnan(v) for _, v in values), metrics=metrics)


def _k_metrics(samples: list[EvalSample]) -> EvalScore:
    """The share of tasks (each sample once) by k's category: as asked, with help, unresolved, undetermined."""
    per_task = {(s.metadata["task_id"], s.epoch): s.metadata["k"] for s in samples}
    categories = [k_category(k) for k in per_task.values()]
    metrics = {name: EvalMetric(name=name, value=categories.count(name) / len(categories) if categories else 0.0)
               for name in ("independent", "scaffoldable", "unresolved", "undetermined")}
    return EvalScore(name=K_SCORER, scorer=K_SCORER, scored_samples=len(categories), metrics=metrics)


def _float(value) -> float:
    return {"C": 1.0, "I": 0.0}.get(value, float("nan")) if isinstance(value, str) else float(value)
