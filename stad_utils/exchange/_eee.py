"""A run's results in the Every Eval Ever schema (``every-eval-ever`` 0.3.0), one record per target model.

Each model of ``summary.json`` gets an aggregate file ``data/<collection>/<developer>/<model>/<uuid>.json``
and its instance rows ``<uuid>_samples.jsonl`` beside it (the datastore's layout; the collection
is ``stad-<benchmark>``, the developer and model come from the target's model id). Its results:

* ``accuracy``: success as asked, with its 95% Wilson interval; ``accuracy_scaffolded``;
* ``success_rate@L<j>``: success at each scaffold level j;
* ``minimal_scaffolding_level``: the distribution of k as the ``levels`` score type, level *j*
  named ``k=j``, the unknown level (−1) for tasks no level solved (k = −1); its score is the
  median k, and its details hold the distribution; ``k_share@<k>`` is each level's share with its
  interval;
* ``isolated_accuracy@<skill>``: each skill's steps asked alone, with intervals;
* the diagnosis: ``composition_gap`` (with its interval), ``composition_failure`` and
  ``weak_skill@<skill>`` (binary: the tested claims), the headline and the whole diagnosis as
  JSON in their details (details hold strings only);
* every result carries the judge cascade (``metric_config.additional_details``; ``llm_scoring``
  when an LLM judge decided replies) and the generation settings, reasoning included.

Instance rows: one per latest verdict (its prompt, reply, trace, extracted answer, deciding stage
and outcome: an undecided reply or an error scores 0 and says so in ``metadata.outcome``, an error
in ``error`` too), and one per task and sample with its k. Written with the standard library only:
the package needs Python ≥ 3.12, so it is not a dependency; the tests validate the files with its
own validator in a separate environment (``make eee-validator``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..analysis import Estimate, ModelSummary, RunSummary
from ..judge import JUDGE_VERSION
from ..method import k_category
from ..models import EndpointConfig
from ..records import Outcome, RunPaths, Task, Verdict, latest_records, latest_verdicts, read_records
from ._run import params_of, run_name, sample_id, slug, stable_uuid, stage_params, target_settings, verified_ladders

EEE_SCHEMA_VERSION = "0.3.0"
"""The version of the Every Eval Ever schema these files follow."""

HUB = {"gsm8k": ("openai/gsm8k", "test"), "math_hard": ("lighteval/MATH-Hard", "test"),
       "tot_arithmetic": ("baharef/ToT", "test")}
"""The Hugging Face dataset behind each benchmark the tasks can come from."""

EMBEDDED_MODEL_ID = "HuggingFaceTB/SmolLM2-135M-Instruct"
"""The model the embedded target serves (``kind: embedded``)."""

CASCADE = "deterministic reading of the committed answer, then math-verify, then an LLM judge when one is configured"


def export_eee(run_dir: Path | str, out_dir: Path | str, *, params: Path | str | None = None,
               organization: str = "unknown") -> list[Path]:
    """Write every model of ``run_dir``'s ``summary.json`` as an Every Eval Ever record under ``out_dir/data``.

    ``params`` is the params file the run was made with (default: the run's ``params.yaml``): it gives
    each target's model id and generation settings, and the LLM judge. ``organization`` is who ran
    the evaluation (``source_metadata.source_organization_name``). Returns the aggregate files
    written; each has its ``_samples.jsonl`` beside it. Needs 06_analyze.
    """
    paths = RunPaths(Path(run_dir))
    if not paths.summary.exists():
        raise FileNotFoundError(f"{paths.summary} does not exist: run 06_analyze first")
    summary = RunSummary.read(paths.summary)
    ladders = verified_ladders(paths)
    benchmark = ladders[0].task.source.partition("/")[0] if ladders else "stad"
    tasks = {ladder.task_id: ladder.task for ladder in ladders}
    verdicts = list(latest_verdicts(read_records(paths.verdicts, Verdict.model_validate)).values())
    outcomes = list(latest_records(read_records(paths.outcomes, Outcome.model_validate),
                                   ("task_id", "model", "sample")).values())
    params_file = params_of(paths, params)
    settings = target_settings(params_file)
    judge = _llm_judge(params_file)
    stamp = paths.summary.stat().st_mtime
    written = []
    for label, numbers in summary.models.items():
        setting = settings.get(label)
        model_id = _model_id(label, setting)
        uuid = stable_uuid(run_name(paths), label, "eee")
        folder = Path(out_dir) / "data" / f"stad-{benchmark}" / model_id
        folder.mkdir(parents=True, exist_ok=True)
        evaluation_id = f"stad-{benchmark}/{model_id}/{run_name(paths)}/{slug(label)}"
        mine = [v for v in verdicts if v.model == label]
        rows = [_reply_row(v, evaluation_id, model_id) for v in mine] + [
            _k_row(o, tasks[o.task_id], evaluation_id, model_id) for o in outcomes
            if o.model == label and o.k is not None]
        samples_text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        (folder / f"{uuid}_samples.jsonl").write_text(samples_text, encoding="utf-8")
        context = _Context(benchmark, len(ladders), _generation(setting, mine, params_file), judge)
        record = {
            "schema_version": EEE_SCHEMA_VERSION, "evaluation_id": evaluation_id,
            "evaluation_timestamp": datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="seconds"),
            "retrieved_timestamp": f"{stamp:.0f}",
            "source_metadata": {"source_name": "STaD workbench", "source_type": "evaluation_run",
                                "source_organization_name": organization, "evaluator_relationship": "third_party",
                                "additional_details": {"run": run_name(paths), "policy": numbers.policy}},
            "eval_library": {"name": "stad_utils", "version": _version(),
                             "additional_details": {"judge_version": JUDGE_VERSION, "method": "STaD (An et al. 2026)"}},
            "model_info": _model_info(label, model_id, setting),
            "evaluation_results": _results(numbers, context),
            "detailed_evaluation_results": {
                "format": "jsonl", "file_path": f"data/stad-{benchmark}/{model_id}/{uuid}_samples.jsonl",
                "hash_algorithm": "sha256", "checksum": hashlib.sha256(samples_text.encode()).hexdigest(),
                "total_rows": len(rows)},
        }
        path = folder / f"{uuid}.json"
        path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


class _Context:
    """What every result of one model shares: where the tasks come from, the generation settings, the judge."""

    def __init__(self, benchmark: str, n_tasks: int, generation: dict, judge: dict | None):
        hub = HUB.get(benchmark)
        self.source = ({"dataset_name": benchmark, "source_type": "hf_dataset", "hf_repo": hub[0], "hf_split": hub[1],
                        "samples_number": n_tasks} if hub else
                       {"dataset_name": benchmark, "source_type": "other",
                        "additional_details": {"tasks": str(n_tasks), "generator": "stad_utils.tasks"}})
        self.generation, self.judge = generation, judge

    def result(self, result_id: str, description: str, metric: dict, score: dict) -> dict:
        """One entry of ``evaluation_results``."""
        config = {"evaluation_description": description, "metric_id": f"stad.{result_id.partition('@')[0]}",
                  "metric_name": result_id, **metric,
                  "additional_details": {"judge": JUDGE_VERSION, "cascade": CASCADE}}
        if self.judge:
            config["llm_scoring"] = self.judge
        return {"evaluation_result_id": result_id, "evaluation_name": result_id, "source_data": self.source,
                "metric_config": config, "score_details": score, "generation_config": self.generation}


def _share(estimate: Estimate, **parameters: Any) -> tuple[dict, dict] | None:
    """A share's metric and score (``None`` where it was not computed), with its interval."""
    if estimate.value is None:
        return None
    metric: dict[str, Any] = {"metric_kind": "accuracy", "metric_unit": "proportion", "lower_is_better": False,
                              "score_type": "continuous", "min_score": 0.0, "max_score": 1.0}
    if parameters:
        metric["metric_parameters"] = parameters
    return metric, {"score": estimate.value, "uncertainty": _uncertainty(estimate)}


def _uncertainty(estimate: Estimate) -> dict:
    low, high = estimate.ci95
    uncertainty: dict[str, Any] = {"num_samples": math.ceil(estimate.n)}
    if low is not None and high is not None:
        uncertainty["confidence_interval"] = {"lower": low, "upper": high, "confidence_level": 0.95}
        if float(estimate.n).is_integer():
            uncertainty["confidence_interval"]["method"] = "wilson"
    return uncertainty


def _results(numbers: ModelSummary, context: _Context) -> list[dict]:
    results = []

    def add(result_id: str, description: str, made: tuple[dict, dict] | None) -> None:
        if made is not None:
            results.append(context.result(result_id, description, *made))

    add("accuracy", "Success on the original questions, as asked (k = 0)", _share(numbers.accuracy_original))
    add("accuracy_scaffolded", "Success at the highest scaffold level", _share(numbers.accuracy_scaffolded))
    for level in numbers.success_by_level:
        add(f"success_rate@L{level.level}", f"Success with the first {level.level} steps given ({level.population})",
            _share(level, scaffold_level=level.level))
    results.append(context.result("minimal_scaffolding_level", "k: the fewest steps given with which a task is "
                                  "solved; unknown (-1): not solved even at the highest level", *_k_levels(numbers)))
    for k, estimate in numbers.k_share.items():
        add(f"k_share@{k}", f"Share of tasks with k = {k} ({k_category(int(k))})", _share(estimate, k=int(k)))
    for skill, entry in numbers.per_skill.items():
        add(f"isolated_accuracy@{skill}", f"Steps of skill '{skill}' answered right when asked alone",
            _share(entry.isolated_accuracy, skill=skill))
    results += _diagnosis(numbers, context)
    return results


def _k_levels(numbers: ModelSummary) -> tuple[dict, dict]:
    """The k distribution as a ``levels`` result: its median k (−1 when most tasks were never solved)."""
    counts = {int(k): n for k, n in numbers.k_distribution.items()}
    top = max([k for k in counts if k >= 0] + [len(numbers.success_by_level) - 1, 0])
    names = [f"k={k}" for k in range(top + 1)]
    ordered = sorted((k if k >= 0 else top + 1 for k, n in counts.items() for _ in range(n)))
    middle = ordered[(len(ordered) - 1) // 2] if ordered else top + 1
    metric = {"metric_kind": "level", "lower_is_better": True, "score_type": "levels", "level_names": names,
              "level_metadata": [f"solved with the first {k} steps given" for k in range(top + 1)],
              "has_unknown_level": True}
    details = {"distribution": json.dumps({f"k={k}" if k >= 0 else "unknown": n for k, n in sorted(counts.items())}),
               "undetermined": str(numbers.undetermined.total), "reduction": "median over determined tasks"}
    return metric, {"score": middle if middle <= top else -1, "details": details}


def _diagnosis(numbers: ModelSummary, context: _Context) -> list[dict]:
    diagnosis = numbers.diagnosis
    words = {"headline": diagnosis.headline, "weakness_profile": numbers.weakness_profile,
             "diagnosis_json": json.dumps(diagnosis.as_dict()), "test": diagnosis.test,
             "correction": diagnosis.correction}
    binary = {"metric_kind": "claim", "lower_is_better": True, "score_type": "binary"}
    results = []
    effect = diagnosis.composition_effect
    if effect is not None and effect.value is not None:
        results.append(context.result(
            "composition_gap", "Whole-task success as asked minus the success of every step asked alone (negative: "
            "fails to chain steps it can do)",
            {"metric_kind": "difference", "lower_is_better": False, "score_type": "continuous", "min_score": -1.0,
             "max_score": 1.0}, {"score": effect.value, "uncertainty": _uncertainty(effect)}))
    p_value = diagnosis.composition_p_adjusted
    results.append(context.result(
        "composition_failure", f"A failure to chain steps, tested ({diagnosis.test}, {diagnosis.correction})", binary,
        {"score": float(diagnosis.composition_failure),
         "details": {**words, "p_adjusted": "" if p_value is None else f"{p_value:.4g}"}}))
    for tested in diagnosis.tested_skills:
        results.append(context.result(
            f"weak_skill@{tested.skill}", f"Skill '{tested.skill}' weaker alone than the others, tested", binary,
            {"score": float(tested.weak), "details": {"p_adjusted": f"{tested.p_adjusted:.4g}",
                                                      "headline": diagnosis.headline}}))
    return results


def _reply_row(verdict: Verdict, evaluation_id: str, model_id: str) -> dict:
    result_id = {"original": "accuracy", "scaffold": f"success_rate@L{verdict.level}"}.get(verdict.variant)
    row: dict[str, Any] = {
        "schema_version": EEE_SCHEMA_VERSION, "evaluation_id": evaluation_id, "model_id": model_id,
        "evaluation_name": result_id or f"{verdict.variant}@{verdict.level}",
        "sample_id": sample_id(verdict.task_id, verdict.variant, verdict.level) + (
            f"#{verdict.sample}" if verdict.sample else ""),
        "sample_hash": hashlib.sha256(f"{verdict.prompt}\0{verdict.reference}".encode()).hexdigest(),
        "interaction_type": "single_turn",
        "input": {"raw": verdict.prompt, "reference": [verdict.reference]},
        "output": {"raw": [verdict.response or ""],
                   **({"reasoning_trace": [verdict.reasoning]} if verdict.reasoning else {})},
        "messages": None,
        "answer_attribution": [{"turn_idx": 0, "source": "output.raw", "extracted_value": verdict.extracted or "",
                                "extraction_method": f"stad judge: {verdict.decided_by}", "is_terminal": True}],
        "evaluation": {"score": 1.0 if verdict.correct else 0.0, "is_correct": bool(verdict.correct)},
        "metadata": {"task_id": verdict.task_id, "variant": verdict.variant, "level": str(verdict.level),
                     "sample": str(verdict.sample), "outcome": verdict.outcome or "", "decided_by": verdict.decided_by,
                     "truncated": str(verdict.truncated).lower(), "finish_reason": verdict.finish_reason or ""},
    }
    if result_id:
        row["evaluation_result_id"] = result_id
    if verdict.completion_tokens is not None or verdict.prompt_tokens is not None:
        prompt, completion = verdict.prompt_tokens or 0, verdict.completion_tokens or 0
        row["token_usage"] = {"input_tokens": prompt, "output_tokens": completion, "total_tokens": prompt + completion,
                              **({"reasoning_tokens": verdict.reasoning_tokens} if verdict.reasoning_tokens else {})}
    if verdict.latency_s is not None:
        row["performance"] = {"latency_ms": round(verdict.latency_s * 1000, 1)}
    if verdict.response is None:
        row["error"] = verdict.error or "no reply"
    return row


def _k_row(outcome: Outcome, task: Task, evaluation_id: str, model_id: str) -> dict:
    return {"schema_version": EEE_SCHEMA_VERSION, "evaluation_id": evaluation_id, "model_id": model_id,
            "evaluation_name": "minimal_scaffolding_level", "evaluation_result_id": "minimal_scaffolding_level",
            "sample_id": outcome.task_id + (f"#{outcome.sample}" if outcome.sample else ""),
            "interaction_type": "single_turn", "input": {"raw": task.question, "reference": [task.answer]},
            "output": {"raw": [json.dumps(outcome.curve)]}, "messages": None, "answer_attribution": [],
            "evaluation": {"score": outcome.k, "is_correct": outcome.k != -1},
            "metadata": {"k": str(outcome.k), "category": k_category(outcome.k), "n_steps": str(outcome.n_steps),
                         "curve": json.dumps(outcome.curve), "skills": json.dumps(outcome.skills)}}


def _model_id(label: str, setting: EndpointConfig | None) -> str:
    """``developer/model``: the endpoint's model id when it names a developer, else one made from the label."""
    if setting is None:
        return f"unknown/{slug(label)}"
    if setting.kind == "embedded":
        return EMBEDDED_MODEL_ID
    if setting.kind == "simulated":
        return f"stad-simulated/{slug(setting.model)}"
    developer, _, model = setting.model.partition("/")
    return f"{slug(developer)}/{slug(model)}" if model else f"unknown/{slug(setting.model)}"


def _model_info(label: str, model_id: str, setting: EndpointConfig | None) -> dict:
    kind = setting.kind if setting else "unknown"
    deployment = "self_deployed" if kind in ("embedded", "vllm", "simulated") else "unknown"
    availability = "open_weights" if kind == "embedded" else "unknown"
    info = {"name": label, "id": model_id, "developer": model_id.partition("/")[0],
            "additional_details": {"deployment_type": deployment, "model_availability": availability, "kind": kind,
                                   "served_model": setting.model if setting else ""}}
    if kind == "embedded":
        info["inference_engine"] = {"name": "llama.cpp", "version": "llama-cpp-python"}
    return info


def _generation(setting: EndpointConfig | None, verdicts: Sequence[Verdict], params: Path) -> dict:
    """The generation settings of a target: sampling, token limits and reasoning (``reasoning``: a trace came back)."""
    traced = any(v.reasoning for v in verdicts)
    command = f"python -m stad_utils.pipeline {params}" if params.exists() else "stad_utils.stages.evaluate"
    if setting is None:
        return {"generation_args": {"reasoning": traced, "execution_command": command}}
    args: dict[str, Any] = {"temperature": setting.temperature, "top_p": setting.top_p,
                            "max_tokens": setting.max_tokens + setting.reasoning.trace_tokens,
                            "reasoning": traced or setting.reasoning_effort not in (None, "none"),
                            "execution_command": command}
    if setting.system_prompt:
        args["prompt_template"] = setting.system_prompt + "\n\n{question}"
    details = {"seed": str(setting.seed), "n_samples": str(setting.n_samples),
               "max_tokens_variants": str(setting.variant_tokens() + setting.reasoning.trace_tokens),
               "answer_tokens": str(setting.max_tokens), "trace_tokens": str(setting.reasoning.trace_tokens),
               "reasoning_effort": str(setting.reasoning_effort), "traces_returned": str(traced).lower(),
               "chat_template_kwargs": json.dumps(setting.chat_template_kwargs)}
    return {"generation_args": {key: value for key, value in args.items() if value is not None},
            "additional_details": details}


def _llm_judge(params: Path) -> dict | None:
    """``llm_scoring`` for the LLM judge of 05, when the run's params name one."""
    judge = stage_params(params, "05_evaluate").get("judge") or {}
    endpoint = judge.get("endpoint", judge) if isinstance(judge, dict) else {}
    if not endpoint:
        return None
    config = EndpointConfig.model_validate(endpoint)
    model_id = _model_id(config.label, config)
    return {"judges": [{"model_info": _model_info(config.label, model_id, config),
                        "temperature": config.temperature}],
            "input_prompt": f"the {judge.get('prompts', 'project')} judge prompt of stad_utils.judge (only for "
                            "replies the deterministic stages leave undecided)"}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("stad-utils")
    except PackageNotFoundError:
        return "unknown"

