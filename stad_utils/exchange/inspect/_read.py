"""Inspect logs of `stad_ladders` read back into a run folder as 05_evaluate would have written it.

Each sample becomes the `Verdict` 05 records for the same reply (`stad_utils.method.answered_verdict`):
the answer apart from its reasoning trace, Inspect's ``max_tokens`` stop as the finish reason
``length`` (judged as truncated), a sample that errored as an error (never wrong), epoch *e* as
sample *e* − 1 (a log exported from a run also keeps each verdict's policy and whether a simulated
target wrote it). The judged fields are those the scorer recorded in the score's metadata; a sample
without them (a log scored otherwise, or not scored) is judged here by the same cascade. The
verdicts are appended to ``verdicts.jsonl``, ``outcomes.jsonl`` is derived again from all of them,
and each target's calls and tokens go to ``usage.json`` under 05_evaluate, so 06_analyze and
07_compare read the run as any run of 05.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from inspect_ai.log import read_eval_log

from ...method import answered_verdict, judge_reply, ladder_questions, outcomes
from ...records import (
    RunPaths,
    StepSkill,
    Verdict,
    read_records,
    read_usage,
    verdict_store,
    write_atomic,
    write_json_atomic,
)
from .._run import sample_id, verified_ladders
from .task import JUDGED, SCORER, reply_of


def read_logs(logs: Sequence[Path | str], run_dir: Path | str, names: dict[str, str] | None = None
              ) -> dict[str, list[Verdict]]:
    """Append the verdicts of Inspect logs of ``run_dir``'s questions to it, and derive its outcomes.

    Parameters
    ----------
    logs : ``.eval`` or ``.json`` logs of the `stad_ladders` task on this run.
    run_dir : the run folder whose ladders the task was built from.
    names : the label of each Inspect model in the run (``{"openai/gpt-4o": "gpt-4o"}``); by default the
        model's Inspect name.

    Returns each label's verdicts. A sample that is not a question of the run raises `ValueError`.
    """
    paths = RunPaths(Path(run_dir))
    ladders = verified_ladders(paths)
    questions = {sample_id(q.task_id, q.variant, q.level): q for q in ladder_questions(ladders, placebo=True)}
    read: dict[str, list[Verdict]] = {}
    for path in logs:
        log = read_eval_log(str(path))
        label = (names or {}).get(log.eval.model, log.eval.model)
        for sample in log.samples or []:
            question = questions.get(str(sample.id))
            if question is None:
                raise ValueError(f"{path}: sample {sample.id} is not a question of the ladders of {paths.root}")
            question = replace(question, sample=sample.epoch - 1)
            reply = replace(reply_of(sample.output, sample.error.message if sample.error else None),
                            latency_s=sample.total_time or 0.0)
            score = (sample.scores or {}).get(SCORER)
            recorded = score.metadata if score is not None and score.metadata else {}
            judged = ({field: recorded.get(field) for field in JUDGED} if "outcome" in recorded
                      else judge_reply(question, reply))
            asked = {key: sample.metadata[key] for key in ("policy", "simulated") if key in sample.metadata}
            read.setdefault(label, []).append(answered_verdict(question, reply, label, judged, **asked))
    verdict_store(paths.verdicts).append([verdict for verdicts in read.values() for verdict in verdicts])
    skills = read_records(paths.skills, StepSkill.model_validate, missing_ok=True)
    derived = outcomes(ladders, read_records(paths.verdicts, Verdict.model_validate), skills)
    write_atomic(paths.outcomes, "".join(outcome.model_dump_json() + "\n" for outcome in derived))
    _record_usage(paths, read)
    return read


def _record_usage(paths: RunPaths, read: dict[str, list[Verdict]]) -> None:
    """Each label's calls, errors, tokens and seconds under 05_evaluate's targets in ``usage.json``."""
    usage = read_usage(paths)
    targets = usage.setdefault("05_evaluate", {}).setdefault("target", {})
    for label, verdicts in read.items():
        targets[label] = {
            "calls": len(verdicts), "cache_hits": 0, "errors": sum(v.response is None for v in verdicts),
            "prompt_tokens": sum(v.prompt_tokens or 0 for v in verdicts),
            "completion_tokens": sum(v.completion_tokens or 0 for v in verdicts),
            "reasoning_tokens": sum(v.reasoning_tokens or 0 for v in verdicts),
            "traces": sum(v.reasoning is not None for v in verdicts),
            "seconds": sum(v.latency_s or 0.0 for v in verdicts)}
    write_json_atomic(paths.usage, usage)
