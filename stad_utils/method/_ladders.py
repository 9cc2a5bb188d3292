"""Ladders: scaffold, isolated and placebo variants of each consistent decomposition, verified."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from ..judge import LLMJudgeFn, judge_answers
from ..models import RAN_OUT_WHILE_REASONING, Unavailable, Unusable
from ..records import (
    Decomposition,
    Ladder,
    LevelCheck,
    drop_code_of,
)
from ._decompose import _warn_unavailable
from ._teachers import Teacher


def build_ladders(
    decompositions: Sequence[Decomposition], teacher: Teacher, llm_judge: LLMJudgeFn | None = None, *,
    placebo: bool = False, drop_single_step: bool = False,
) -> list[Ladder]:
    """Scaffold and isolated variants for each consistent decomposition, then verification.

    A ladder is ``verified`` when the teacher's answer to every scaffold level matches
    the gold final answer (the paper's verification filter); the checks are kept.
    With ``placebo`` the teacher also writes each scaffold level's placebo (`stad_utils.method._placebo`)
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
