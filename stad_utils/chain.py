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

from .client import ChatResult
from .definitions import check_policy
from .judge import JudgeItem, Judgement, LLMJudgeFn, judge_answers, judge_version
from .metrics import is_error, latest_verdicts
from .monitor import ProgressLog
from .records import (
    AnswerFormat,
    Decomposition,
    Ladder,
    LadderPolicy,
    LevelCheck,
    Task,
    VariantKind,
    Verdict,
    drop_code_of,
    evaluation_items,
)
from .store import RecordFile
from .structured import RAN_OUT_WHILE_REASONING, Unavailable, Unusable
from .teachers import Teacher

MAX_STEPS = 6


def decompose(tasks: Sequence[Task], teacher: Teacher, llm_judge: LLMJudgeFn | None = None) -> list[Decomposition]:
    """The teacher's steps for each task, with the paper's consistency filter.

    A decomposition is kept (``consistent=True``) when it has 1…6 steps and its last
    step's answer equals the gold answer; otherwise ``drop_reason`` says why. Tasks the
    teacher could not be reached for are left out (with a warning), so a re-run retries them.
    """
    proposals = teacher.decompose(tasks)
    _warn_unavailable(proposals, "decomposed")
    checks = judge_answers(
        [(steps[-1].answer if isinstance(steps, list) and steps else None, task.answer, task.answer_format)
         for task, steps in zip(tasks, proposals)],
        llm_judge,
    )
    result = []
    for task, steps, check in zip(tasks, proposals, checks):
        if isinstance(steps, Unavailable) or (isinstance(steps, list) and steps and check.outcome == "error"):
            continue  # the teacher or the judge was unavailable: not a failed filter, retried on re-run
        if isinstance(steps, str):
            result.append(Decomposition(task=task, teacher=teacher.name, steps=[], consistent=False,
                                        drop_reason=steps, drop_code=drop_code_of(steps)))
            continue
        reason, code = None, None
        if not steps:
            reason, code = "no steps", "no_steps"
        elif len(steps) > MAX_STEPS:
            reason, code = f"{len(steps)} steps (at most {MAX_STEPS})", "too_many_steps"
        elif check.outcome == "undecided":
            reason = f"the judge could not decide whether the last step answer {steps[-1].answer!r} equals the " \
                     f"gold answer {task.answer!r} ({check.explanation}; configure an LLM judge)"
            code = "last_step_undecided"
        elif not check.correct:
            reason = f"last step answer {steps[-1].answer!r} does not match the gold answer {task.answer!r}"
            code = "last_step_mismatch"
        result.append(Decomposition(task=task, teacher=teacher.name, steps=steps, consistent=reason is None,
                                    drop_reason=reason, drop_code=code))
    return result


def build_ladders(
    decompositions: Sequence[Decomposition], teacher: Teacher, llm_judge: LLMJudgeFn | None = None, *,
    placebo: bool = False, drop_single_step: bool = False,
) -> list[Ladder]:
    """Scaffold and isolated variants for each consistent decomposition, then verification.

    A ladder is ``verified`` when the teacher's answer to every scaffold level matches
    the gold final answer (the paper's verification filter); the checks are kept.
    With ``placebo`` the teacher also writes each scaffold level's placebo (`stad_utils.placebo`)
    into ``Ladder.placebos``; a ladder whose placebos could not be written keeps none (warned).
    With ``drop_single_step`` a one-step task gets no variants and is dropped, as the official code drops it.
    """
    single = [d for d in decompositions if d.consistent and drop_single_step and len(d.steps) == 1]
    kept = [d for d in decompositions if d.consistent and not (drop_single_step and len(d.steps) == 1)]
    variants = teacher.write_variants([(d.task, d.steps) for d in kept])
    _warn_unavailable(variants, "scaffolded")
    placebos = _placebo_levels(kept, teacher) if placebo else [[] for _ in kept]
    ladders = [Ladder(task=d.task, teacher=teacher.name, steps=d.steps, scaffolds=[], isolated=[], verified=False,
                      drop_reason="a single step, so no scaffold level (drop_single_step)", drop_code="single_step")
               for d in single]
    for decomposition, written, controls in zip(kept, variants, placebos):
        if isinstance(written, Unavailable) or isinstance(controls, Unavailable):
            continue
        if isinstance(written, str):
            ladders.append(Ladder(task=decomposition.task, teacher=teacher.name, steps=decomposition.steps,
                                  scaffolds=[], isolated=[], verified=False, drop_reason=written,
                                  drop_code=drop_code_of(written)))
            continue
        scaffolds, isolated = written
        expected = (len(decomposition.steps) - 1, len(decomposition.steps))
        reason = None
        if (len(scaffolds), len(isolated)) != expected:
            reason = f"expected {expected[0]} scaffolds and {expected[1]} isolated questions, " \
                     f"got {len(scaffolds)} and {len(isolated)}"
        ladders.append(Ladder(task=decomposition.task, teacher=teacher.name, steps=decomposition.steps,
                              scaffolds=scaffolds, isolated=isolated, placebos=controls, verified=reason is None,
                              drop_reason=reason, drop_code="wrong_variant_count" if reason else None))
    return _verify(ladders, teacher, llm_judge)


def _placebo_levels(kept: Sequence[Decomposition], teacher: Teacher) -> list[list[str] | Unavailable]:
    """The teacher's placebo levels per decomposition: none (warned) where it says why not or miscounts."""
    if not hasattr(teacher, "write_placebos"):
        raise ValueError(f"teacher {teacher.name!r} cannot write placebos")
    written = teacher.write_placebos([(d.task, d.steps) for d in kept])
    _warn_unavailable(written, "given placebos")
    levels, problems = [], []
    for decomposition, placebos in zip(kept, written):
        if not isinstance(placebos, Unavailable) and (isinstance(placebos, str)
                                                      or len(placebos) != len(decomposition.steps) - 1):
            problems.append(placebos if isinstance(placebos, str)
                            else f"{len(placebos)} placebos for {len(decomposition.steps) - 1} scaffold levels")
            placebos = []
        levels.append(placebos)
    if problems:
        warnings.warn(f"{len(problems)} ladder(s) have no placebos ({problems[0]})", stacklevel=3)
    return levels


def _warn_unavailable(results: Sequence, what: str) -> None:
    missing = [r for r in results if isinstance(r, Unavailable)]
    if missing:
        warnings.warn(f"{len(missing)} task(s) could not be {what} ({missing[0]}); re-run the stage to retry them",
                      stacklevel=3)


def _verify(ladders: list[Ladder], teacher: Teacher, llm_judge: LLMJudgeFn | None) -> list[Ladder]:
    """Set each ladder's verification; ladders whose teacher answers did not arrive are left out."""
    todo = [(ladder, level, text) for ladder in ladders if ladder.verified
            for level, text in enumerate(ladder.scaffolds, start=1)]
    answers = teacher.solve([(ladder.task, text) for ladder, _, text in todo])
    # An answer the teacher could not give within its tokens (`Unusable`) fails its level, judged as no answer.
    checks = judge_answers(
        [("" if isinstance(answer, Unusable) else answer, ladder.task.answer, ladder.task.answer_format)
         for (ladder, _, _), answer in zip(todo, answers)],
        llm_judge,
    )
    # No teacher reply, or no usable judge verdict: the ladder is unavailable (retried on re-run), not failed.
    unanswered = {id(ladder) for (ladder, _, _), answer, check in zip(todo, answers, checks)
                  if answer is None or check.outcome == "error"}
    undecided: dict[int, list[int]] = {}
    cut_off: dict[int, list[int]] = {}
    for (ladder, level, _), answer, check in zip(todo, answers, checks):
        if isinstance(answer, Unusable):
            cut_off.setdefault(id(ladder), []).append(level)
            ladder.verification.append(LevelCheck(level=level, answer=None, correct=False, decided_by="none",
                                                  justification=str(answer)))
            continue
        ladder.verification.append(LevelCheck(level=level, answer=answer, correct=bool(check.correct),
                                              decided_by=check.decided_by, justification=check.explanation))
        if check.outcome == "undecided":
            undecided.setdefault(id(ladder), []).append(level)
    if unanswered:
        warnings.warn(f"{len(unanswered)} ladder(s) could not be verified (no teacher reply or judge verdict); "
                      "re-run to retry them", stacklevel=3)
    for ladder in ladders:
        unsure, ran_out = undecided.get(id(ladder), []), cut_off.get(id(ladder), [])
        failed = [check.level for check in ladder.verification
                  if not check.correct and check.level not in unsure + ran_out]
        if ladder.verified and (failed or unsure or ran_out):
            ladder.verified = False
            ladder.drop_code = ("teacher_out_of_tokens" if ran_out else "teacher_failed_level" if failed
                                else "level_undecided")  # the first of the reasons written below
            ladder.drop_reason = "; ".join(
                ([f"{RAN_OUT_WHILE_REASONING} at scaffold level(s) {ran_out}"] if ran_out else [])
                + ([f"teacher failed scaffold level(s) {failed}"] if failed else [])
                + ([f"the judge could not decide the teacher's answer at level(s) {unsure} (configure an LLM "
                    "judge to decide them)"] if unsure else []))
    return [ladder for ladder in ladders if id(ladder) not in unanswered]


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
    def key(self) -> tuple[str, str, int, int]:
        """What identifies the question among a run's: task, variant, level and sample."""
        return self.ladder.task_id, self.variant, self.level, self.sample

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


def _questions(ladders: Sequence[Ladder], n_samples: int, **which: bool) -> list[Question]:
    return [Question(ladder, variant, level, prompt, reference, sample)
            for ladder in ladders for sample in range(n_samples)
            for variant, level, prompt, reference in evaluation_items(ladder, **which)]


def _question_key(verdict: Verdict) -> tuple[str, str, int, int]:
    """The question a verdict of one model answers (`Question.key`)."""
    return verdict.task_id, verdict.variant, verdict.level, verdict.sample


def verdict_store(path: Path | str) -> RecordFile[Verdict]:
    """The append-only verdict file of a run (several targets may append to it at once)."""
    return RecordFile(path, Verdict, key=lambda v: f"{v.task_id}|{v.model}|{v.variant}|{v.level}|{v.sample}")


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
    simulated = target.endpoint.kind == "simulated"
    if placebo and not any(ladder.placebos for ladder in ladders):
        warnings.warn("placebo levels were asked for, but the ladders have none: run 03_scaffold with "
                      "placebo: true on a fresh run (existing ladders are not rewritten)", stacklevel=2)

    def current() -> dict[tuple[str, str, int, int], Verdict]:
        return {_question_key(v): v for v in latest_verdicts(store.read()).values() if v.model == target.model}

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
            verdict = _judged(question, reply, target.model, llm_judge, policy, simulated)
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
        ask(_questions(ladders, n_samples, placebo=placebo), f"target {target.model}")
    else:
        ask(_questions(ladders, n_samples, variants=False), f"target {target.model}, originals")
        failed = {(task_id, sample) for (task_id, variant, _, sample), v in current().items()
                  if variant == "original" and v.outcome in ("wrong", "no_answer")}
        ask([q for q in _questions(ladders, n_samples, original=False, placebo=placebo)
             if (q.ladder.task_id, q.sample) in failed], f"target {target.model}, variants")
    return list(current().values())


def _judged(question: Question, reply: ChatResult, model: str, llm_judge: LLMJudgeFn | None,
            policy: LadderPolicy, simulated: bool) -> Verdict:
    task = question.ladder.task
    [judgement] = judge_answers([judge_item(question.variant, task.answer_format, question.reference, question.prompt,
                                            reply.text, reply.finish_reason)], llm_judge)
    judged = judged_fields(judgement, llm_judge)
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


def decomposition_agreement(candidate: Sequence[Decomposition], reference: Sequence[Decomposition]) -> pd.DataFrame:
    """How a teacher's decompositions compare with reference ones (e.g. an LLM teacher vs GSM8K's solutions).

    One row per task both have: step counts, whether both passed the consistency filter, and the
    share of the reference's step answers that also appear among the candidate's step answers
    (compared by value with the judge's deterministic stage).
    """
    by_id = {d.task_id: d for d in reference}
    rows = []
    for mine in candidate:
        theirs = by_id.get(mine.task_id)
        if theirs is None:
            continue
        matched = [any(judge_answers([(m.answer, t.answer, None)])[0].correct for m in mine.steps)
                   for t in theirs.steps]
        rows.append({"task_id": mine.task_id, "steps": len(mine.steps), "reference_steps": len(theirs.steps),
                     "both_consistent": mine.consistent and theirs.consistent,
                     "reference_answers_found": sum(matched) / len(matched) if matched else None})
    return pd.DataFrame(rows, columns=["task_id", "steps", "reference_steps", "both_consistent",
                                       "reference_answers_found"])
