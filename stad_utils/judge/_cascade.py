"""The cascade, the judge's entry point (`judge_answers`): the deterministic readers
(`judge_deterministically`), then math-verify, then an LLM judge, each verdict naming the stage that decided it;
a credited answer not in the form its question asks for is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from ..records import AnswerFormat
from ._deterministic import another_number, judge_reading, no_answer
from ._extract import read_reply
from ._form_as_asked import as_asked
from ._kinds import LATEX, in_context, infer_format, kind_for
from ._latex import answer_math
from ._math_verify_stage import judge_by_math_verify
from ._types import JudgeItem, Judgement, LLMJudgeFn, Undecided, Unheard


def _record_keys(reference: str, answer_format: AnswerFormat) -> tuple[str, ...]:
    return tuple(json.loads(reference)) if answer_format == "record" else ()


def judge_deterministically(item: JudgeItem) -> Judgement | Undecided | Unheard:
    """Stage 1: read the committed answer and compare its value with the reference, or leave it undecided."""
    if item.response is None:
        return Judgement("error", None, "error", "no reply was obtained", item.truncated)
    answer_format = item.answer_format or infer_format(item.reference)
    reading = read_reply(item.response, truncated=item.truncated,
                         record_keys=_record_keys(item.reference, answer_format))
    if reading.final is None:
        return no_answer(item, "cut off before any answer" if reading.cut_off else "no answer stated")
    kind = kind_for(item.reference, answer_format)
    gold = kind.read(item.reference) if kind else []
    if kind is None or len(gold) != 1:
        return Undecided(reading.final.text, f"no deterministic comparison for this {answer_format} reference",
                         math=answer_math(reading.final.text) if reading.commitments else None)
    kind = in_context(kind, item.question, item.response)
    verdict = judge_reading(item, reading, kind, gold[0])
    if isinstance(verdict, Undecided) and kind is LATEX:
        return another_number(item, reading, verdict)
    return verdict


def _as_item(item: JudgeItem | tuple) -> JudgeItem:
    return item if isinstance(item, JudgeItem) else JudgeItem(*item)


def judge_answers(items: Sequence[JudgeItem | tuple], llm_judge: LLMJudgeFn | None = None) -> list[Judgement]:
    """Judge replies through the cascade: deterministic, then math-verify, then the LLM judge.

    Parameters
    ----------
    items : sequence of JudgeItem or (response, reference, answer_format) tuples
    llm_judge : callable, optional
        Judges the committed spans no earlier stage decided, in one batch. Without it they stay
        ``undecided`` (kept out of k, and counted), never wrong.

    Returns
    -------
    list of Judgement
        One per item, in order. A ``None`` response is an ``error``, never wrong; a reply that
        commits to no answer is ``no_answer`` (wrong).

    Examples
    --------
    >>> [j.outcome for j in judge_answers([("so it is 11:15 AM", "11:15 AM", "clock"), ("I get 7", "8", None),
    ...                                    ("Maybe 18 or 17", "18", None), (None, "18", None)])]
    ['correct', 'wrong', 'undecided', 'error']
    """
    judged = [_as_item(item) for item in items]
    deterministic = [judge_deterministically(item) for item in judged]
    verdicts: list[Judgement | Undecided] = [
        as_asked(item, judge_by_math_verify(item, v) if isinstance(v, (Undecided, Unheard)) else v)
        for item, v in zip(judged, deterministic)]
    pending = {i: verdict for i, verdict in enumerate(verdicts) if isinstance(verdict, Undecided)}
    if pending and llm_judge is not None:
        decided = llm_judge([(verdict.span, judged[i].reference) for i, verdict in pending.items()])
        for i, judgement in zip(pending, decided):
            verdicts[i] = replace(judgement, truncated=judged[i].truncated)
    return [Judgement("undecided", v.span, "none", v.reason, item.truncated) if isinstance(v, Undecided) else v
            for item, v in zip(judged, verdicts)]
