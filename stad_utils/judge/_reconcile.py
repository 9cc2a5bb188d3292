"""From a reply's commitments to one answer (`reconcile`): the last commitment's value, if every earlier one agrees
with it or was explicitly corrected, no correction follows it, the cut did not run through it, and the reply does
not go on to conclude another value (`checked_against_conclusion`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._extract import Commitment, Reading, sentences
from ._kinds import Kind
from ._span_value import read_value
from ._types import JudgeItem

# A retraction says that what came before is wrong: "that's wrong", "I made a sign error", "Correction:", "No, …".
_RETRACTION = re.compile(
    r"\b(?:that|this|it)(?:['’]s|\s+(?:is|was|seems|looks))\s+(?:\w+\s+)?(?:wrong|incorrect|not right|not correct|"
    r"a mistake|an error)\b|\bI\s+(?:was|am)\s+wrong\b|\bI\s+made\s+an?\s+(?:\w+\s+)?(?:mistake|error)\b|"
    r"\bscratch that\b|\bcorrection\b|\bno\b(?=\s*(?:[,.;:!—–]|-\s))",
    re.IGNORECASE,
)
# A correction: a retraction, or a second thought that may lead to another value ("wait", "actually", "let me recheck").
_CORRECTION = re.compile(
    rf"{_RETRACTION.pattern}|\b(?:wait|actually|oops|sorry|hold on|on second thought|never ?mind|I meant|make that|"
    r"mistake|let me (?:re-?check|re-?calculate|re-?compute|re-?do|correct|reconsider|fix|try again))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Answer:
    """The reply's answer, once its commitments are reconciled."""

    commitment: Commitment
    value: object = None
    problem: str | None = None
    disputed: str | None = None  # the reply's text from one disagreeing answer to the other, for a later stage

    @property
    def span(self) -> str:
        """What a later stage sees: the committed span, or all of a disagreement."""
        return self.disputed or self.commitment.text


def _corrected_between(reply: str, earlier: Commitment, later: Commitment) -> bool:
    return _CORRECTION.search(reply, earlier.end, later.start) is not None


def question_values(item: JudgeItem, kind: Kind) -> list:
    """The values of the kind the question states (which a concluding sentence may only restate)."""
    return kind.read(item.question) if item.question and kind.restatable else []


def _cut_through(reading: Reading, commitment: Commitment) -> bool:
    """Whether the reply breaks off at the end of the committed span, so that its value may be cut short
    ("The answer is: 4" of 47); a span followed by anything, even a line break, was written whole.
    """
    return reading.cut_off and reading.reply.rstrip(" \t*_`").endswith(commitment.text)


def _whole_commitments(reading: Reading) -> tuple[tuple[Commitment, ...], str | None]:
    """The commitments whose value is whole, or why the answer cannot be read.

    A last commitment that the cut runs through counts only as a repetition of the one before
    it, cut short ("#### 47 / The answer is: 4"): it is dropped when that one's text begins with
    it and no correction comes between; otherwise the answer is unclear.
    """
    *earlier, last = reading.commitments
    if not _cut_through(reading, last):
        return reading.commitments, None
    if earlier and earlier[-1].text.startswith(last.text) and not _corrected_between(reading.reply, earlier[-1], last):
        return tuple(earlier), None
    return reading.commitments, f"cut off inside the committed answer: {last.text[-40:]!r}"


def reconcile(reading: Reading, kind: Kind) -> Answer:
    """The last commitment's value, if every earlier commitment agrees with it or was explicitly corrected.

    Commitments without a value of the kind ("The answer is as follows:") are passed over.
    """
    commitments, cut = _whole_commitments(reading)
    if cut:
        return Answer(commitments[-1], problem=cut)
    reads = [(c, read_value(c.text, kind)) for c in commitments]
    stated = [(c, r) for c, r in reads if r.value is not None or r.problem]
    if not stated:
        return Answer(commitments[-1])
    final, final_read = stated[-1]
    if final_read.problem:
        return Answer(final, problem=final_read.problem)
    for earlier, earlier_read in stated[:-1]:
        agrees = earlier_read.problem is None and kind.same(earlier_read.value, final_read.value)
        if not agrees and not _corrected_between(reading.reply, earlier, final):
            shown = earlier.text[:40] if earlier_read.problem else kind.show(earlier_read.value)
            return Answer(final, problem=f"two committed answers disagree: {shown} and {kind.show(final_read.value)}",
                          disputed=reading.reply[earlier.start:final.end])
    return _unless_corrected_afterwards(reading.reply, Answer(final, value=final_read.value), kind)


def _states_only(sentence: str, value, kind: Kind) -> bool:
    """Whether a sentence clearly states ``value`` and no other value of the kind (an equation by its result)."""
    read = read_value(sentence, kind)
    return read.problem is None and read.value is not None and kind.same(read.value, value)


def _unless_corrected_afterwards(reply: str, answer: Answer, kind: Kind) -> Answer:
    """The last commitment's answer, unless the reply corrects it afterwards, on the same line or a later one.

    From the first correction after the commitment on, every sentence that states a value of the
    kind must state the answer again; one that states another value ("The answer is 18. Wait, no,
    it is 17."), or a retraction that nothing restates ("I said 18 but that's wrong."), leaves the
    answer undecided. The corrected value is not credited either: what follows a correction is
    prose, not a commitment, and a re-check states values of its own ("Let me recompute: 15 − 7 =
    8 women remain. Check: 22 men + 8 women = 30 people").

    Examples
    --------
    >>> from ._extract import read_reply
    >>> from ._kinds import NUMBER
    >>> def after(reply):
    ...     commitment = read_reply(reply).commitments[-1]
    ...     answer = _unless_corrected_afterwards(reply, Answer(commitment, NUMBER.read("18")[0]), NUMBER)
    ...     return answer.problem or "kept"
    >>> after("The answer is 18. Wait, let me check: 9 * 2 = 18. Yes.")
    'kept'
    >>> after("The answer is 18. Wait, no, it is 17.")
    "corrected after committing to 18: 'Wait, no, it is 17.'"
    >>> after("The answer is 18. I said 18 but that's wrong.")
    'takes back 18 without restating it'
    """
    correction = _CORRECTION.search(reply, answer.commitment.end)
    if correction is None:
        return answer
    for sentence, _, end in sentences(reply[correction.start():]):
        if kind.read(sentence) and not _states_only(sentence, answer.value, kind):
            return Answer(answer.commitment, problem=f"corrected after committing to {kind.show(answer.value)}: "
                                                     f"{sentence.strip()[:60]!r}",
                          disputed=reply[answer.commitment.start:correction.start() + end])
    retraction = _RETRACTION.search(reply, answer.commitment.end)
    if retraction and not kind.read(reply[retraction.end():]):
        return Answer(answer.commitment, problem=f"takes back {kind.show(answer.value)} without restating it",
                      disputed=reply[answer.commitment.start:])
    return answer


def checked_against_conclusion(item: JudgeItem, reading: Reading, answer: Answer, kind: Kind) -> Answer:
    """An explicit answer, unless the reply goes on to conclude another value ("#### 15 … Lena has 1 cupcake.").

    A correction between them does not make the concluded value the answer: an answer corrected
    to another value was already left undecided (`_unless_corrected_afterwards`).
    """
    conclusion = reading.conclusion
    assert conclusion is not None  # asked only of a reply that concludes
    concluded = read_value(conclusion.text, kind, question_values(item, kind)).value
    if concluded is None or kind.same(concluded, answer.value):
        return answer
    return Answer(answer.commitment,
                  problem=f"concludes {kind.show(concluded)} after committing to {kind.show(answer.value)}",
                  disputed=reading.reply[answer.commitment.start:conclusion.end])
