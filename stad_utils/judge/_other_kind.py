"""Answers of another kind (`judge_other_kind`): explicit answers that state no value of the reference's kind, judged
by the value of another kind they state (`stad_utils.judge._kinds.OtherKind`: a number where a date is asked).
"""

from __future__ import annotations

from ._extract import Reading
from ._kinds import Kind, OtherKind
from ._reconcile import Answer, reconcile
from ._types import JudgeItem, Judgement, Undecided, Unheard


def _could_state_the_reference(reading: Reading, kind: Kind, gold) -> bool:
    """Whether any value of another kind that the reply commits to or concludes could be the reference in part."""
    spans = [c.text for c in reading.commitments] + ([reading.conclusion.text] if reading.conclusion else [])
    return any(other.could_state(value, gold) for other in kind.others for span in spans
               for value in other.kind.read(span))


def _wrong_unless_it_could_state(item: JudgeItem, reading: Reading, answer: Answer, other: OtherKind, kind: Kind,
                                 gold) -> Judgement | Undecided:
    """An answer of another kind is wrong unless a value of another kind in the reply could be the reference in part."""
    shown = other.kind.show(answer.value)
    if _could_state_the_reference(reading, kind, gold):
        return Undecided(answer.span, f"commits to the {other.kind.name} {shown}, which may be part of the reference",
                         math=None)
    return Judgement("wrong", shown, "deterministic", f"commits to the {other.kind.name} {shown}, not a {kind.name}",
                     item.truncated)


def judge_other_kind(item: JudgeItem, reading: Reading, kind: Kind,
                     gold) -> Judgement | Undecided | Unheard | None:
    """Explicit answers without a value of the reference's kind, by the value of another kind they state.

    Read with the same rules (hedges, negations, agreement between commitments), such an answer
    ("368" for a date) is wrong unless something the reply commits to could be the reference in
    part ("2013" for 08/24/2013, "15:08" for a {day, time} record), and unless the reply then
    concludes a value of the reference's kind. ``None`` when the commitments state no value of
    another kind either.
    """
    if reading.conclusion is not None and kind.read(reading.conclusion.text):
        return None
    for other in kind.others:
        answer = reconcile(reading, other.kind)
        if answer.problem:
            return Undecided(answer.span, answer.problem, math=None)
        if answer.value is not None:
            return _wrong_unless_it_could_state(item, reading, answer, other, kind, gold)
    return None
