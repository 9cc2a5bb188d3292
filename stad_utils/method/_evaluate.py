"""One function per arrow of the method; the stages (`stad_utils.stages`) call these with the records they read.

tasks ─decompose─► decompositions ─build_ladders─► ladders ─evaluate─► verdicts ─► outcomes
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from ..judge import JudgeItem, Judgement, LLMJudgeFn, judge_answers, judge_version
from ..models import ChatResult, ProgressLog, endpoint_kind
from ..records import (
    AnswerFormat,
    Ladder,
    LadderPolicy,
    RecordFile,
    VariantKind,
    Verdict,
    check_policy,
    evaluation_items,
    is_error,
    latest_verdicts,
    question_key,
    verdict_store,
)


@dataclass(frozen=True)
class Question:
    """One question of a ladder put to the target: what is asked, and against what it is judged."""

    ladder: Ladder
    variant: VariantKind
    level: int
    prompt: str
    reference: str
    sample: int = 0

    @property
    def task_id(self) -> str:
        """The id of the task the question belongs to."""
        return self.ladder.task_id

    @property
    def key(self) -> tuple[str, str, int, int]:
        """What identifies the question among a run's (`stad_utils.records.QUESTION_KEY`)."""
        return question_key(self)

def judge_item(variant: VariantKind, task_format: AnswerFormat, reference: str, prompt: str, response: str | None,
               finish_reason: str | None) -> JudgeItem:
    """What the judge needs of one reply: evaluation and re-judging build it the same way.

    Isolated steps have no declared format (the judge infers it from the step's answer); the
    original, scaffold and placebo levels are compared as the task's answer.
    """
    return JudgeItem(response, reference, None if variant == "isolated" else task_format, question=prompt,
                     truncated=finish_reason == "length")


def judged_fields(judgement: Judgement, llm_judge: LLMJudgeFn | None) -> dict:
    """The fields of a `Verdict` that the judge sets (the reply's fields stay as they were).

    ``error`` says why a judge gave no usable verdict; a reply that never came has its own error.
    """
    return {"outcome": judgement.outcome, "correct": judgement.correct, "extracted": judgement.extracted,
            "decided_by": judgement.decided_by, "explanation": judgement.explanation,
            "judge_version": judge_version(llm_judge), "truncated": judgement.truncated,
            "error": f"judge: {judgement.explanation}" if judgement.outcome == "error" else None}


def ladder_questions(ladders: Sequence[Ladder], n_samples: int = 1, **which: bool) -> list[Question]:
    """Every question of ``ladders`` put to a target, ``n_samples`` times each, in the order 05 asks them.

    ``which`` chooses the kinds as `stad_utils.records.evaluation_items` does (``original``,
    ``variants``, ``placebo``).
    """
    return [Question(ladder, variant, level, prompt, reference, sample)
            for ladder in ladders for sample in range(n_samples)
            for variant, level, prompt, reference in evaluation_items(ladder, **which)]


def evaluate(
    ladders: Sequence[Ladder],
    target,
    store: RecordFile[Verdict] | Path | str,
    *,
    llm_judge: LLMJudgeFn | None = None,
    policy: LadderPolicy = "full",
    placebo: bool = False,
    progress: bool = True,
    progress_log: ProgressLog | None = None,
) -> list[Verdict]:
    """Ask the target every question of every verified ladder, judge each reply, append its verdict.

    Parameters
    ----------
    ladders : the ladders; unverified ones are skipped.
    target : a model client (`ModelClient`, `VLLMEngineClient` or `SimulatedTarget`); its endpoint's
        ``n_samples`` replies are asked per question, originals with ``max_tokens`` and variants
        with ``max_tokens_variants``.
    store : the run's verdict file.
    llm_judge : the cascade's last stage; without it, replies no earlier stage can decide stay undecided.
    policy : ``"full"`` asks the original, every scaffold level and every isolated step;
        ``"on_failure"`` (the authors' scripts) asks the variants only of (task, sample) pairs whose
        original was answered wrong, which saves calls but leaves the curves of solved tasks unknown.
    placebo : also ask the placebo level of every scaffold level (`Ladder.placebos`).
    progress : show a progress bar (inside the kernel).
    progress_log : where to count the questions done and errored, for the runner's console.

    Each question is judged as soon as its reply arrives (the LLM judge included) and its verdict
    appended at once, so a kill loses no judged verdict. Resumable: questions that already have a
    verdict without error are not asked again; errored ones are re-asked and the new verdict
    supersedes the old. Returns the current verdict of every question of this model.
    """
    check_policy(policy)
    store = store if isinstance(store, RecordFile) else verdict_store(store)
    ladders = [ladder for ladder in ladders if ladder.verified]
    n_samples = target.endpoint.n_samples
    simulated = endpoint_kind(target.endpoint.kind).simulated  # its verdicts say no model wrote the replies
    if placebo and not any(ladder.placebos for ladder in ladders):
        warnings.warn("placebo levels were asked for, but the ladders have none: run 03_scaffold with "
                      "placebo: true on a fresh run (existing ladders are not rewritten)", stacklevel=2)

    def current() -> dict[tuple[str, str, int, int], Verdict]:
        return {question_key(v): v for v in latest_verdicts(store.read()).values() if v.model == target.model}

    def ask(questions: list[Question], desc: str) -> None:
        done = {key for key, verdict in current().items() if verdict.error is None}
        todo = [q for q in questions if q.key not in done]
        if not todo:
            return
        bar = tqdm(total=len(todo), desc=desc, unit="question", leave=False, disable=not progress)
        if progress_log is not None:
            progress_log.expect(target.model, len(todo))

        def answer(question: Question) -> None:
            tokens = target.endpoint.max_tokens if question.variant == "original" else target.endpoint.variant_tokens()
            reply = target.chat_one(question.prompt, sample=question.sample, max_tokens=tokens)
            verdict = answered_verdict(question, reply, target.model, judge_reply(question, reply, llm_judge),
                                       policy=policy, simulated=simulated)
            store.append([verdict])
            bar.update(1)
            if progress_log is not None:
                progress_log.count(target.model, errored=is_error(verdict))

        # The target's client bounds what is in flight; twice as many workers keep its slots busy
        # while other workers wait for the LLM judge.
        slots = target.endpoint.concurrency * len(getattr(target, "urls", [None]))
        with ThreadPoolExecutor(max_workers=2 * slots) as pool:
            futures = [pool.submit(answer, q) for q in todo]
            try:
                for finished in as_completed(futures):
                    finished.result()
            except BaseException:  # a failure (a bug, an interrupt) stops the queue instead of asking everything
                for future in futures:
                    future.cancel()
                raise
        bar.close()

    if policy == "full":
        ask(ladder_questions(ladders, n_samples, placebo=placebo), f"target {target.model}")
    else:
        ask(ladder_questions(ladders, n_samples, variants=False), f"target {target.model}, originals")
        failed = {(task_id, sample) for (task_id, variant, _, sample), v in current().items()
                  if variant == "original" and v.outcome in ("wrong", "no_answer")}
        ask([q for q in ladder_questions(ladders, n_samples, original=False, placebo=placebo)
             if (q.ladder.task_id, q.sample) in failed], f"target {target.model}, variants")
    return list(current().values())


def judge_reply(question: Question, reply: ChatResult, llm_judge: LLMJudgeFn | None = None) -> dict:
    """The judge's fields of the verdict on ``reply`` to ``question`` (`judged_fields`)."""
    [judgement] = judge_answers([judge_item(question.variant, question.ladder.task.answer_format, question.reference,
                                            question.prompt, reply.text, reply.finish_reason)], llm_judge)
    return judged_fields(judgement, llm_judge)


def answered_verdict(question: Question, reply: ChatResult, model: str, judged: dict, *,
                     policy: LadderPolicy = "full", simulated: bool = False) -> Verdict:
    """The verdict on ``reply`` to ``question`` by ``model``, with the judge's fields ``judged`` (`judge_reply`).

    A reply that never came keeps its own error; otherwise a judge that gave no verdict says why.
    """
    return Verdict(
        task_id=question.ladder.task_id, model=model, variant=question.variant, level=question.level,
        sample=question.sample, prompt=question.prompt, reference=question.reference, response=reply.text,
        **{**judged, "error": reply.error or judged["error"]}, finish_reason=reply.finish_reason,
        prompt_tokens=reply.prompt_tokens or None, completion_tokens=reply.completion_tokens or None,
        policy=policy, simulated=simulated, latency_s=reply.latency_s, cached=reply.cached,
        reasoning=reply.reasoning, reasoning_tokens=reply.reasoning_tokens or None,
    )


def evaluate_targets(ladders: Sequence[Ladder], targets: Sequence, store: Path | str, *,
                     progress_path: Path | str | None = None, **options) -> dict[str, list[Verdict]]:
    """`evaluate` every target at the same time, each with its own pool, into one verdict file.

    Targets on separate endpoints then keep every server busy instead of waiting for each other.
    With ``progress_path`` (a run's ``logs/progress.log``) each target's progress is written there
    every few seconds (`ProgressLog`), for the runner's console. Returns each target's verdicts by
    model label.
    """
    labels = [target.model for target in targets]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:  # their verdicts would share keys and overwrite each other
        raise ValueError(f"two targets have the same name {repeated}: give each a distinct 'name'")
    shared = verdict_store(store)
    with ExitStack() as opened:
        progress_log = opened.enter_context(ProgressLog(progress_path)) if progress_path else None
        pool = opened.enter_context(ThreadPoolExecutor(max_workers=max(len(targets), 1)))
        futures = {target.model: pool.submit(evaluate, ladders, target, shared, progress_log=progress_log, **options)
                   for target in targets}
        return {model: future.result() for model, future in futures.items()}


def usage_by_option(verdicts: Sequence[Verdict]) -> pd.DataFrame:
    """Model calls per target and evaluation option: what repeated samples and placebo levels cost.

    One row per (model, variant, first sample or repeat): questions asked, calls sent (not answered
    from the cache), cache hits, and completion tokens. From the verdicts, so it covers every
    invocation of the stage, not only the last.
    """
    frame = pd.DataFrame([{"model": v.model, "variant": v.variant, "samples": "first" if v.sample == 0 else "repeats",
                           "call": not v.cached and v.response is not None, "cache_hit": v.cached,
                           "completion_tokens": v.completion_tokens or 0} for v in verdicts],
                         columns=["model", "variant", "samples", "call", "cache_hit", "completion_tokens"])
    return (frame.groupby(["model", "variant", "samples"], as_index=False)
            .agg(questions=("call", "size"), calls=("call", "sum"), cache_hits=("cache_hit", "sum"),
                 completion_tokens=("completion_tokens", "sum")))
