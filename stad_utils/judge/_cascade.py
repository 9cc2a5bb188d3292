"""The cascade: read the committed answer, compare its value deterministically, then math-verify, then an LLM."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..records import AnswerFormat, JudgeOutcome
from ._extract import Commitment, Reading, concluding_sentence, read_reply, sentences
from ._kinds import (
    LATEX,
    NUMBER,
    Kind,
    OtherKind,
    distinct,
    in_context,
    infer_format,
    kind_for,
    mentions_a_number,
    normalise_text,
    parse_number,
    written_plainly,
)
from ._latex import (
    answer_math,
    column_as_tuple,
    decimals_as_fractions,
    normal_form,
    solutions_in,
    split_unit,
    without_unit,
)
from ._numbers import ROMAN_CONSTANT
from ._symbolic import UNKNOWN, compare_math_verify, math_expression, solutions_listed

JUDGE_VERSION = "cascade-8"
"""The verdict rules of this module; bumped whenever they change, and stored with every verdict."""


@dataclass(frozen=True)
class JudgeItem:
    """One reply to judge.

    Attributes
    ----------
    response : str or None
        The reply; ``None`` when no reply was obtained (an infrastructure error).
    reference : str
        The gold answer.
    answer_format : str or None
        How the reference is written (`stad_utils.records.AnswerFormat`); ``None``: inferred from it.
    question : str or None
        The question asked, so that a concluding sentence that only restates it is not credited.
    truncated : bool
        The server cut the reply off at ``max_tokens`` (``finish_reason == "length"``).
    """

    response: str | None
    reference: str
    answer_format: AnswerFormat | None = None
    question: str | None = None
    truncated: bool = False


@dataclass(frozen=True)
class Judgement:
    """The judge's decision on one reply.

    Attributes
    ----------
    outcome : str
        ``correct``, ``wrong``, ``undecided``, ``no_answer`` or ``error`` (`stad_utils.records.JudgeOutcome`).
    extracted : str or None
        The committed answer (its value, or the span) the decision rests on.
    decided_by : str
        ``deterministic``, ``math_verify``, ``llm_judge``, ``none`` (undecided or no answer) or ``error``.
    explanation : str
        One short reason, e.g. ``"hedged: maybe"``.
    truncated : bool
        The reply was cut off by ``max_tokens``.
    """

    outcome: JudgeOutcome
    extracted: str | None
    decided_by: str
    explanation: str = ""
    truncated: bool = False

    @property
    def correct(self) -> bool | None:
        """``True`` for correct; ``False`` for wrong and no answer; ``None`` for undecided and errors."""
        return {"correct": True, "wrong": False, "no_answer": False}.get(self.outcome)


LLMJudgeFn = Callable[[Sequence[tuple[str, str]]], list[Judgement]]
"""Judges (committed span, reference) pairs in one batch; see `stad_utils.judge.LLMJudge`."""


def judge_version(llm_judge: LLMJudgeFn | None = None) -> str:
    """The version stored with verdicts: `JUDGE_VERSION`, plus the LLM judge's model if there is one.

    Examples
    --------
    >>> judge_version()
    'cascade-8'
    """
    if llm_judge is None:
        return JUDGE_VERSION
    model = getattr(getattr(llm_judge, "client", None), "model", None) or getattr(llm_judge, "__name__", "llm")
    return f"{JUDGE_VERSION}+llm:{model}"


# ---------------------------------------------------------------- reading the value of one commitment

# A bound ("more than 18", "at least 18") names a value the answer is not, or need not be.
_HEDGE = re.compile(r"\b(?:maybe|perhaps|possibly|probably|likely|either|might be|could be|I guess|unsure|uncertain|"
                    r"ambiguous|(?:not|cannot|can['’]t) (?:\w+ )?(?:sure|certain)|"
                    r"(?:more|less|fewer|greater) than|at (?:least|most))\b", re.IGNORECASE)
# "The largest value that $n$ could be is 12": a modal inside the subject of "is" restates the question, hedging nothing
_MODAL = re.compile(r"\b(?:could|might) be\b", re.IGNORECASE)
_COPULA = re.compile(r"\b(?:is|are|equals?)\b|=")
# A relation other than "=" states a bound or an exclusion, not a value: "x \neq 5", "x \geq 5", "x > 5"
_RELATION_SIGN = re.compile(r"\\(?:neq?|leq?|geq?|lt|gt)(?![A-Za-z])|[≤≥≠]"
                            r"|(?<=[\w)}$])\s*[<>](?!-)(?=\s*[-\w(\\$])")
_NEGATION = re.compile(r"\b(?:not|never|cannot|no longer|neither|nor)\b|n['’]t\b", re.IGNORECASE)
_NEGATED_WINDOW = re.compile(r"^\W*(?:\w+(?:\W+|$)){0,3}")  # the few words a negation applies to
_ASSERTION_AFTER_NEGATION = re.compile(
    r"[,;]?\s*(?:but|rather|instead|it['’]?s|it is|it was|the (?:correct )?answer is)\b\s*:?", re.IGNORECASE)
# A value the span itself calls wrong: "18 is wrong", "The answer 18 is not correct."
_CALLED_WRONG = re.compile(
    r"(?:\s+(?:is|was)|['’]s)\s+(?:not\s+(?:correct|right|the\s+(?:correct\s+|right\s+|final\s+)?answer)|"
    r"incorrect|wrong|a\s+mistake|an\s+error)\b", re.IGNORECASE)
_REFUSAL = re.compile(
    r"\b(?:cannot|can['’]t|can not|unable to|impossible to)\s+(?:be\s+)?(?:determined?|answer(?:ed)?|calculated?|"
    r"computed?|solved?|tell|know)\b|\b(?:not enough|insufficient) information\b", re.IGNORECASE)
# "…, which gives us 20" states a result like "= 20"; only with the number right after ("which gives us the rest")
_RESULT = re.compile(r"(?:=|≈|\\approx|\bwhich gives(?: us)?(?=\s+[-$]?\d))")
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
class _Read:
    """The value one commitment states, or why it states none clearly."""

    value: object = None
    problem: str | None = None  # a hedge, a negation or several values: undecided, never a guess
    restated: tuple = ()  # values set aside because the question states them


def _assertion_past_negation(span: str, kind: Kind) -> tuple[str, str | None]:
    """The span with a negated value dropped when a correction follows ("not 18, it's 17" → "17").

    A negated value without such a correction makes the span unclear.
    """
    for negation in _NEGATION.finditer(span):
        rest = span[negation.end():]
        window = _NEGATED_WINDOW.match(rest)
        assert window is not None  # it matches any text, if only with no word
        if not kind.read(window.group(0)):
            continue  # the negation is about something else ("doesn't eat the remaining 9 eggs")
        assertion = _ASSERTION_AFTER_NEGATION.search(rest)
        if assertion is None:
            return span, f"negated: {span.strip()[:60]!r}"
        return _assertion_past_negation(rest[assertion.end():], kind)
    return span, None


def _assertion_past_a_value_called_wrong(span: str, kind: Kind) -> tuple[str, str | None]:
    """The span with a value it calls wrong dropped when a correction follows ("18 is wrong; it's 17" → "17").

    A value called wrong without such a correction makes the span unclear ("So 18 is wrong.").
    """
    called = _CALLED_WRONG.search(span)
    if called is None or not kind.read(span[:called.start()]):
        return span, None
    rest = span[called.end():]
    assertion = _ASSERTION_AFTER_NEGATION.search(rest)
    if assertion is None:
        return span, f"calls a value wrong: {span.strip()[:60]!r}"
    return _assertion_past_a_value_called_wrong(rest[assertion.end():], kind)


# "p=-1, p=\frac{15}{8}", "x = 2 and x = 3": several solutions of one unknown; no one of them is the result (but
# "a = 4, b = \frac12 and a + b = \frac92" states one)
_NAMED_SOLUTION = re.compile(r"(?:^|[,;]|\band\b|\bor\b|\\text\{\s*(?:and|or)\s*\})\s*\$?\s*"
                             rf"(?P<name>{UNKNOWN})\s*=(?!=)")


def _result_part(span: str) -> tuple[str, bool]:
    """What an equation in the span evaluates to: the text after its last ``=`` outside braces (``F_n=\\sum_{k=0}``
    is cut at ``F_n=``), and whether there is one. A list of several named solutions has no one result.

    Examples
    --------
    >>> _result_part("9 eggs * $2 = $18"), _result_part("p=-1, p=\\\\frac{15}{8}")
    ((' $18', True), ('p=-1, p=\\\\frac{15}{8}', False))
    >>> _result_part("So the solutions are $x = 3$ and $x = -3$.")
    ('So the solutions are $x = 3$ and $x = -3$.', False)
    """
    names = _NAMED_SOLUTION.findall(span)
    if len(names) > len(set(names)) or solutions_listed(span):
        return span, False
    signs = [sign for sign in _RESULT.finditer(span)
             if span.count("{", 0, sign.start()) == span.count("}", 0, sign.start())]
    rest = span[signs[-1].end():] if signs else ""
    return (rest, True) if rest.strip() else (span, False)


def _hedge(span: str, kind: Kind) -> re.Match | None:
    """The first hedge of the span, passing over a modal inside the subject of "is" ("the largest value that
    $n$ could be is 12"), which states no value before its copula.
    """
    for hedge in _HEDGE.finditer(span):
        copula = _COPULA.search(span, hedge.end()) if _MODAL.fullmatch(hedge.group(0)) else None
        if copula is None or kind.read(span[hedge.end():copula.start()]):
            return hedge
    return None


_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_TOTAL_BEFORE = re.compile(r"\b(?:a\s+total\s+of|totals?|totalling|totaling)\s*:?\s*$", re.IGNORECASE)
_TOTAL_AFTER = re.compile(r"^\W*(?:\w+\W+){0,2}?(?:in\s+total|altogether|in\s+all)\b", re.IGNORECASE)


def _marked(span: str, value, kind: Kind) -> bool:
    """Whether the span marks ``value`` as its answer: in Markdown bold ("Ella would earn **$132** after 12 hours"),
    or as a total ("a total of 36 hours across the 8 weeks", "35 apples in total").
    """
    if any(len(found := kind.read(next(g for g in bold.groups() if g))) == 1 and kind.same(found[0], value)
           for bold in _BOLD.finditer(span)):
        return True
    for word in re.finditer(r"\S+", span):
        read = kind.read(word.group(0))
        if len(read) == 1 and kind.same(read[0], value) and (
                _TOTAL_BEFORE.search(span[:word.start()]) or _TOTAL_AFTER.match(span[word.end():])):
            return True
    return False


def read_value(span: str, kind: Kind, restated_by: list | None = None) -> _Read:
    """The single value of ``kind`` a committed span states.

    ``restated_by`` holds the question's own values, on the concluding-sentence path: they are
    not credited as an answer, and a sentence that states one of them besides another value
    states several quantities; the other is its answer only when it is marked, as the result of
    an equation ("45 + 25 = 70 goats in the two farms") or in bold ("**$132** after 12 hours"),
    never as "the one number left" ("… walking at 4 miles per hour for the remaining 6 miles", 4
    given). So is one marked value among several ("7 × 5 = **35 seconds** to set off all 8
    fountains").

    Examples
    --------
    >>> from ._kinds import NUMBER
    >>> read_value("so she has 30 crayons left of her 120 crayons", NUMBER, NUMBER.read("30 crayons")).problem
    'states several quantities (30, 120), none marked as the answer'
    >>> read_value("So 45 + 25 = 70 goats are left in the 2 farms.", NUMBER, NUMBER.read("2 farms")).value.value
    Fraction(70, 1)
    >>> read_value("It costs 70k.", NUMBER).problem
    "reads two ways: '70k'"
    """
    span, problem = _assertion_past_negation(span, kind)
    if not problem:
        span, problem = _assertion_past_a_value_called_wrong(span, kind)
    if problem:
        return _Read(problem=problem)
    hedge = _hedge(span, kind)
    if hedge:
        return _Read(problem=f"hedged: {hedge.group(0)!r}")
    part, has_result = _result_part(span) if kind.scalar else (span, False)
    relation = _RELATION_SIGN.search(part) if kind.scalar else None
    if relation:
        return _Read(problem=f"states a relation, not a value: {relation.group(0).strip()!r}")
    unclear = kind.unclear(part)
    if unclear:
        return _Read(problem=f"reads two ways: {unclear[0]!r}")
    values = distinct(kind.read(part), kind)
    restated = tuple(v for v in values if any(kind.same(v, given) for given in restated_by or ()))
    left = [v for v in values if v not in restated]
    if len(left) > 1 and restated_by is not None:
        marked = [v for v in left if has_result and v is values[0] or _marked(span, v, kind)]
        left = marked if len(marked) == 1 else left
        if len(left) == 1:
            return _Read(value=left[0], restated=restated)
    if len(left) > 1:
        return _Read(problem=f"several values: {', '.join(kind.show(v) for v in left[:4])}")
    if left and restated and not (has_result and values[0] is left[0]) and not _marked(span, left[0], kind):
        shown = ", ".join(kind.show(v) for v in values[:4])
        return _Read(problem=f"states several quantities ({shown}), none marked as the answer")
    return _Read(value=left[0] if left else None, restated=restated)


# ---------------------------------------------------------------- from commitments to one answer

@dataclass(frozen=True)
class _Answer:
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


def _question_values(item: JudgeItem, kind: Kind) -> list:
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


def _reconcile(reading: Reading, kind: Kind) -> _Answer:
    """The last commitment's value, if every earlier commitment agrees with it or was explicitly corrected.

    Commitments without a value of the kind ("The answer is as follows:") are passed over.
    """
    commitments, cut = _whole_commitments(reading)
    if cut:
        return _Answer(commitments[-1], problem=cut)
    reads = [(c, read_value(c.text, kind)) for c in commitments]
    stated = [(c, r) for c, r in reads if r.value is not None or r.problem]
    if not stated:
        return _Answer(commitments[-1])
    final, final_read = stated[-1]
    if final_read.problem:
        return _Answer(final, problem=final_read.problem)
    for earlier, earlier_read in stated[:-1]:
        agrees = earlier_read.problem is None and kind.same(earlier_read.value, final_read.value)
        if not agrees and not _corrected_between(reading.reply, earlier, final):
            shown = earlier.text[:40] if earlier_read.problem else kind.show(earlier_read.value)
            return _Answer(final, problem=f"two committed answers disagree: {shown} and {kind.show(final_read.value)}",
                           disputed=reading.reply[earlier.start:final.end])
    return _unless_corrected_afterwards(reading.reply, _Answer(final, value=final_read.value), kind)


def _states_only(sentence: str, value, kind: Kind) -> bool:
    """Whether a sentence clearly states ``value`` and no other value of the kind (an equation by its result)."""
    read = read_value(sentence, kind)
    return read.problem is None and read.value is not None and kind.same(read.value, value)


def _unless_corrected_afterwards(reply: str, answer: _Answer, kind: Kind) -> _Answer:
    """The last commitment's answer, unless the reply corrects it afterwards, on the same line or a later one.

    From the first correction after the commitment on, every sentence that states a value of the
    kind must state the answer again; one that states another value ("The answer is 18. Wait, no,
    it is 17."), or a retraction that nothing restates ("I said 18 but that's wrong."), leaves the
    answer undecided. The corrected value is not credited either: what follows a correction is
    prose, not a commitment, and a re-check states values of its own ("Let me recompute: 15 − 7 =
    8 women remain. Check: 22 men + 8 women = 30 people").

    Examples
    --------
    >>> from ._kinds import NUMBER
    >>> def after(reply):
    ...     commitment = read_reply(reply).commitments[-1]
    ...     answer = _unless_corrected_afterwards(reply, _Answer(commitment, NUMBER.read("18")[0]), NUMBER)
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
            return _Answer(answer.commitment, problem=f"corrected after committing to {kind.show(answer.value)}: "
                                                      f"{sentence.strip()[:60]!r}",
                           disputed=reply[answer.commitment.start:correction.start() + end])
    retraction = _RETRACTION.search(reply, answer.commitment.end)
    if retraction and not kind.read(reply[retraction.end():]):
        return _Answer(answer.commitment, problem=f"takes back {kind.show(answer.value)} without restating it",
                       disputed=reply[answer.commitment.start:])
    return answer


def _checked_against_conclusion(item: JudgeItem, reading: Reading, answer: _Answer, kind: Kind) -> _Answer:
    """An explicit answer, unless the reply goes on to conclude another value ("#### 15 … Lena has 1 cupcake.").

    A correction between them does not make the concluded value the answer: an answer corrected
    to another value was already left undecided (`_unless_corrected_afterwards`).
    """
    conclusion = reading.conclusion
    assert conclusion is not None  # asked only of a reply that concludes
    concluded = read_value(conclusion.text, kind, _question_values(item, kind)).value
    if concluded is None or kind.same(concluded, answer.value):
        return answer
    return _Answer(answer.commitment,
                   problem=f"concludes {kind.show(concluded)} after committing to {kind.show(answer.value)}",
                   disputed=reading.reply[answer.commitment.start:conclusion.end])


# ---------------------------------------------------------------- the deterministic stage

@dataclass(frozen=True)
class _Undecided:
    """An item the deterministic stage leaves to the later stages."""

    span: str
    reason: str
    math: str | None  # what math-verify may compare: an explicit commitment, or the one expression a concluding
    # sentence states (`math_expression`); None after a hedge, a negation or a disagreement


@dataclass(frozen=True)
class _Unheard:
    """A reader's "wrong" that math-verify must hear first: the reference is LaTeX, or the answer is written in it.

    It stands only if math-verify also finds the answer different; otherwise the reply is undecided
    (a reader may have missed what the LaTeX does to a value: ``2\\frac{1}{2}``, ``\\sqrt4``).
    """

    wrong: Judgement
    span: str
    math: str | None


def _no_answer(item: JudgeItem, reason: str, extracted: str | None = None) -> Judgement:
    return Judgement("no_answer", extracted, "none", reason, item.truncated)


def _math_of(item: JudgeItem, answer: _Answer) -> str | None:
    if answer.commitment.form != "conclusion":
        return answer_math(answer.span)
    return math_expression(_without_the_questions_math(answer.span, item.question))


_LATEX_MARK = re.compile(r"\\[A-Za-z]|[\^_{}]")  # a command, a power, a subscript or a group; "$" may be money


def _heard_first(item: JudgeItem, span: str) -> bool:
    """Whether a reader's "wrong" waits for math-verify: for a LaTeX reference, or an answer written in LaTeX."""
    return (item.answer_format or infer_format(item.reference)) == "latex" or bool(_LATEX_MARK.search(span))


def _compare(item: JudgeItem, answer: _Answer, kind: Kind, gold) -> Judgement | _Undecided | _Unheard:
    span = answer.span
    if answer.problem:
        return _Undecided(span, answer.problem, math=None)
    math = _math_of(item, answer)
    if answer.value is None:
        where = "the committed answer" if answer.commitment.form != "conclusion" else "the concluding sentence"
        return _Undecided(span, f"no {kind.name} in {where}", math)
    equal = kind.matches(answer.value, gold)
    if equal is None:
        # free text other than the reference's, a time without AM/PM, a decimal more precise than the reference
        return _Undecided(span, f"cannot tell whether the {kind.name} is the reference", math)
    verdict = Judgement("correct" if equal else "wrong", kind.show(answer.value), "deterministic",
                        f"{kind.name} {'equals' if equal else 'differs from'} the reference", item.truncated)
    return _Unheard(verdict, span, math) if not equal and _heard_first(item, span) else verdict


_INLINE_EQUATION = re.compile(r"\$[^$]*=[^$]*\$")


def _without_the_questions_math(sentence: str, question: str | None) -> str:
    """The sentence without the equations it copies from the question, whose ``=`` states no result of the reply.

    Examples
    --------
    >>> _without_the_questions_math("There are 6 solutions to $x^2 + 5a = 0$.", "How many … $x^2 + 5a = 0$ …?")
    'There are 6 solutions to .'
    """
    copied = [m.group(0) for m in _INLINE_EQUATION.finditer(sentence) if question and m.group(0) in question]
    for formula in copied:
        sentence = sentence.replace(formula, "")
    return sentence


_CLOSING_ASIDE = re.compile(r"\((?P<aside>[^()]*)\)[\s.!*_]*$")
_RECAP = re.compile(r"^\W*(?:to\s+recap|in\s+summary|to\s+summari[sz]e|recap|summary)\b", re.IGNORECASE)


def _before_a_closing_recap(reading: Reading) -> Commitment:
    """The concluding sentence, or the one before a closing recap: a bracketed aside that ends the reply, or a last
    sentence opening "To recap", "In summary" …

    "Each person got 20 seashells. (Jim collected 27, Carlos 22 and Carrey 11, for 60 in total.)"
    concludes 20: a recap repeats the working, it does not answer again.
    """
    conclusion = reading.conclusion
    assert conclusion is not None  # asked of a reply without commitments whose final answer is its conclusion
    aside = _CLOSING_ASIDE.search(reading.reply)
    if aside and aside.start() <= conclusion.start and reading.reply[:aside.start()].strip():
        end = aside.start()
    elif _RECAP.match(conclusion.text):
        end = conclusion.start
    else:
        return conclusion
    return concluding_sentence(reading.reply[:end]) or conclusion


def _without_a_closing_aside(sentence: str, kind: Kind) -> str:
    """The sentence without a bracketed aside at its end, when the rest states a value of the kind
    ("6 + 3 + 8 = 17 hours (1,020 minutes)." → 17 hours; "11 cups of flour (5,5 dozen × 2 cups per dozen)").
    """
    aside = _CLOSING_ASIDE.search(sentence)
    if aside and kind.read(sentence[:aside.start()]):
        return sentence[:aside.start()]
    return sentence


# A concluding sentence that opens by supposing, testing or doubting states no answer ("Suppose the value of $x$
# is $5$.", "We cannot say that …"); no concluding sentence labelled correct in the judge's fixture opens so.
_SUPPOSITION = re.compile(r"^\W*(?:if|suppose|assume|assuming|let(?: us|['’]s) (?:test|check|see|verify)|"
                          r"we (?:check|test|verify)|check(?:ing)? (?:whether|if)|whether|"
                          r"it is (?:false|not true) that|we cannot (?:say|conclude|be sure)|"
                          r"i (?:initially )?thought)\b", re.IGNORECASE)


def _judge_conclusion(item: JudgeItem, conclusion: Commitment, kind: Kind,
                      gold) -> Judgement | _Undecided | _Unheard:
    """A reply without explicit commitment, by its concluding sentence.

    Values the question already states are not credited: a concluding sentence that only
    restates them states no answer, unless one of them is the reference's (then it is undecided);
    nor does one that declines to answer ("I cannot determine …"). One that supposes or doubts
    ("If …", "Suppose …", "We cannot say that …") is undecided.
    """
    if _REFUSAL.search(conclusion.text) and not mentions_a_number(conclusion.text) \
            and normalise_text(item.reference) != "unanswerable":  # ToT's answer to a question that has none
        return _no_answer(item, "declines to answer")
    text = _without_a_closing_aside(_without_the_questions_math(conclusion.text, item.question), kind)
    read = read_value(text, kind, _question_values(item, kind))
    if read.value is None and read.problem is None:
        if read.restated:
            shown = ", ".join(kind.show(v) for v in read.restated)
            if any(kind.matches(value, gold) is not False for value in read.restated):
                # "each of his four friends received five lollipops" for 5: a given that is also the answer
                return _Undecided(conclusion.text, f"the concluding sentence restates {shown} from the question, "
                                                   "which may be the answer", math=None)
            return _no_answer(item, f"the concluding sentence only restates {shown} from the question", shown)
        if kind.written_with_digits and not mentions_a_number(conclusion.text):
            return _no_answer(item, "no answer stated")
    if supposed := _SUPPOSITION.match(conclusion.text):
        return _Undecided(conclusion.text, f"the concluding sentence supposes or doubts: {supposed.group(0).strip()!r}",
                          math=None)
    return _compare(item, _Answer(conclusion, read.value, read.problem), kind, gold)


def _could_state_the_reference(reading: Reading, kind: Kind, gold) -> bool:
    """Whether any value of another kind that the reply commits to or concludes could be the reference in part."""
    spans = [c.text for c in reading.commitments] + ([reading.conclusion.text] if reading.conclusion else [])
    return any(other.could_state(value, gold) for other in kind.others for span in spans
               for value in other.kind.read(span))


def _wrong_unless_it_could_state(item: JudgeItem, reading: Reading, answer: _Answer, other: OtherKind, kind: Kind,
                                 gold) -> Judgement | _Undecided:
    """An answer of another kind is wrong unless a value of another kind in the reply could be the reference in part."""
    shown = other.kind.show(answer.value)
    if _could_state_the_reference(reading, kind, gold):
        return _Undecided(answer.span, f"commits to the {other.kind.name} {shown}, which may be part of the reference",
                          math=None)
    return Judgement("wrong", shown, "deterministic", f"commits to the {other.kind.name} {shown}, not a {kind.name}",
                     item.truncated)


def _judge_other_kind(item: JudgeItem, reading: Reading, kind: Kind,
                      gold) -> Judgement | _Undecided | _Unheard | None:
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
        answer = _reconcile(reading, other.kind)
        if answer.problem:
            return _Undecided(answer.span, answer.problem, math=None)
        if answer.value is not None:
            return _wrong_unless_it_could_state(item, reading, answer, other, kind, gold)
    return None


def _judge_commitments(item: JudgeItem, reading: Reading, kind: Kind, gold) -> Judgement | _Undecided | _Unheard:
    """A reply by its explicit commitments (and a later concluding sentence that disagrees with them)."""
    answer = _reconcile(reading, kind)
    if answer.value is not None and reading.conclusion is not None:
        answer = _checked_against_conclusion(item, reading, answer, kind)
    if answer.value is None and answer.problem is None:
        return _judge_other_kind(item, reading, kind, gold) or _compare(item, answer, kind, gold)
    return _compare(item, answer, kind, gold)


def _judge_reading(item: JudgeItem, reading: Reading, kind: Kind, gold) -> Judgement | _Undecided | _Unheard:
    """A reply by its explicit commitments, or else by its concluding sentence."""
    if not reading.commitments:
        return _judge_conclusion(item, _before_a_closing_recap(reading), kind, gold)
    return _judge_commitments(item, reading, kind, gold)


def _another_number(item: JudgeItem, reading: Reading, undecided: _Undecided) -> _Unheard | _Undecided:
    """A LaTeX reference that is one number (``\\frac{5}{16}``), answered in plain text with another number: wrong,
    once math-verify agrees (`_hear`).

    "The probability … is 1/100." is read as a number. An equal number is left to math-verify or
    a later stage: the number reader does not see everything a plain sentence may do to a number
    ("5/16 of the whole board").
    """
    if parse_number(item.reference) is None or not written_plainly(undecided.span):
        return undecided
    verdict = _judge_reading(item, reading, NUMBER, NUMBER.read(item.reference)[0])
    return verdict if isinstance(verdict, _Unheard) else undecided


def _record_keys(reference: str, answer_format: AnswerFormat) -> tuple[str, ...]:
    return tuple(json.loads(reference)) if answer_format == "record" else ()


def judge_deterministically(item: JudgeItem) -> Judgement | _Undecided | _Unheard:
    """Stage 1: read the committed answer and compare its value with the reference, or leave it undecided."""
    if item.response is None:
        return Judgement("error", None, "error", "no reply was obtained", item.truncated)
    answer_format = item.answer_format or infer_format(item.reference)
    reading = read_reply(item.response, truncated=item.truncated,
                         record_keys=_record_keys(item.reference, answer_format))
    if reading.final is None:
        return _no_answer(item, "cut off before any answer" if reading.cut_off else "no answer stated")
    kind = kind_for(item.reference, answer_format)
    gold = kind.read(item.reference) if kind else []
    if kind is None or len(gold) != 1:
        return _Undecided(reading.final.text, f"no deterministic comparison for this {answer_format} reference",
                          math=answer_math(reading.final.text) if reading.commitments else None)
    kind = in_context(kind, item.question, item.response)
    verdict = _judge_reading(item, reading, kind, gold[0])
    if isinstance(verdict, _Undecided) and kind is LATEX:
        return _another_number(item, reading, verdict)
    return verdict


# ---------------------------------------------------------------- the later stages

_APPROXIMATE = re.compile(r"≈|\\approx|\b(?:approximately|approx\.?|roughly|about|around|nearly)\b", re.IGNORECASE)


def _math_verify_says(math: str, reference: str) -> bool | None:
    """math-verify on an answer and the reference, both without a unit in words, which it would read as a
    factor (``8\\sqrt{3} \\text { square inches}`` is ``8\\sqrt{3}``), and on their values alone when both
    name the same unit; ``None`` when the units differ (``5\\text{ cm}`` for ``5\\text{ m}`` is not the
    answer, nor surely wrong), and for a "different" on a matrix or vector reference that the answer does
    not write as a matrix. A column vector reference is compared as a tuple with an answer written as one.
    """
    # math-verify drops \mathrm{i} and \mathrm{e}: they reach it as i and e
    math, reference = (_CONSTANT.sub(r"\g<constant>", text) for text in (math, reference))
    (value, unit), (gold_value, gold_unit) = split_unit(math), split_unit(reference)
    if unit and gold_unit:
        if unit != gold_unit:
            return None
        math, reference = value, gold_value  # "\frac{270}{7}^\circ" for "\frac{270}7\text{ degrees}"
    else:
        math, reference = without_unit(math), without_unit(reference)
    if _MATRIX.search(math) is None and _MATRIX.search(reference) is not None:
        # a vector or matrix written another way ("(1,4,3)", "-\mathbf{I}") may be credited, never called wrong;
        # a column vector is compared as the tuple MATH's graders accept for it
        equal = compare_math_verify(math, column_as_tuple(reference) or reference)
        return True if equal else None
    if len(solutions_in(math)) > 1 and _one_tuple_or_interval(reference):
        return None  # math-verify finds "x = 1, x = 2" equal to the pair or interval "(1, 2)"
    equal = compare_math_verify(math, reference)
    if equal is False and (exact := decimals_as_fractions(math)) != math:
        equal = compare_math_verify(exact, reference)  # "0.2i" for "\frac{i}{5}": a decimal is a fraction exactly
    if equal is False and unit != gold_unit and {unit, gold_unit} & {"°", "%"}:
        return None  # "30^\circ" for "\frac{\pi}{6}", "0.3" for "30\%": only a reader of the question can tell
    return equal


_MATRIX = re.compile(r"\\begin\{[pbBvV]?matrix\}")
_CONSTANT = re.compile(ROMAN_CONSTANT)


def _one_tuple_or_interval(reference: str) -> bool:
    return len(solutions_in(reference)) == 1 and normal_form(reference)[:1] in ("(", "[")


def _hear(item: JudgeItem, unheard: _Unheard) -> Judgement | _Undecided:
    """A reader's "wrong" stands when math-verify also finds the answer different; otherwise it is undecided."""
    different = unheard.math is not None and _math_verify_says(unheard.math, item.reference) is False
    if different:
        return replace(unheard.wrong, explanation=f"{unheard.wrong.explanation}; math-verify agrees")
    return _Undecided(unheard.span, f"{unheard.wrong.explanation}, but math-verify does not find it different",
                      math=None)


def _math_verify(item: JudgeItem, undecided: _Undecided | _Unheard) -> Judgement | _Undecided:
    """Stage 2 for a LaTeX reference or span; the item stays undecided if math-verify cannot read it."""
    if isinstance(undecided, _Unheard):
        return _hear(item, undecided)
    symbolic = (item.answer_format or infer_format(item.reference)) == "latex" or "\\" in (undecided.math or "")
    equal = _math_verify_says(undecided.math, item.reference) if symbolic and undecided.math else None
    if equal is None or not equal and _APPROXIMATE.search(undecided.span):
        return undecided  # "15π ≈ 47.12. So the area is approximately 47.12." rounds what may be the reference
    return Judgement("correct" if equal else "wrong", undecided.math, "math_verify",
                     "symbolically equal" if equal else "symbolically different", item.truncated)


_LOWEST_TERMS = re.compile(r"\b(?:lowest|simplest) terms\b|\bsimplest form\b|\breduced fraction\b", re.IGNORECASE)
_IMPROPER = re.compile(r"\bimproper fraction\b", re.IGNORECASE)
_MIXED = re.compile(r"\bmixed number\b", re.IGNORECASE)
# one fraction or mixed number in `normal_form` (``\\frac{10}{25}``, ``3\\frac{283}{999}``, ``10/25``)
_ONE_FRACTION = re.compile(r"^(?:(?P<whole>\d+)?\\frac\{(?P<num>\d+)\}\{(?P<den>\d+)\}"
                           r"|(?P<slash_num>\d+)/(?P<slash_den>\d+))$")


def _form_not_as_asked(question: str | None, credited: str | None) -> str | None:
    """Why a credited answer is not in the form its question demands, read whole: a fraction not in lowest terms
    where they are asked for, a mixed number where an improper fraction is, or the reverse; else ``None``.

    Examples
    --------
    >>> _form_not_as_asked("Express your answer as a common fraction in lowest terms.", r"\\frac{10}{25}")
    'not in lowest terms, as the question asks'
    >>> _form_not_as_asked("Express your answer as an improper fraction.", r"3\\frac{283}{999}")
    'a mixed number, where the question asks for an improper fraction'
    >>> _form_not_as_asked("Express your answer as a common fraction in lowest terms.", r"\\frac{2}{5}") is None
    True
    """
    if not question or credited is None:
        return None
    values = solutions_in(credited)  # in normal form, "x=" dropped
    if len(values) != 1:
        return None
    value, _ = split_unit(values[0])
    fraction = _ONE_FRACTION.match(value.replace("-", "", 1))
    if fraction is None:
        return None
    numerator, denominator = (int(fraction[name] or fraction[f"slash_{name}"]) for name in ("num", "den"))
    if _LOWEST_TERMS.search(question) and math.gcd(numerator, denominator) > 1:
        return "not in lowest terms, as the question asks"
    if _IMPROPER.search(question) and fraction["whole"]:
        return "a mixed number, where the question asks for an improper fraction"
    if _MIXED.search(question) and not fraction["whole"] and numerator > denominator:
        return "an improper fraction, where the question asks for a mixed number"
    return None


def _as_asked(item: JudgeItem, verdict: Judgement | _Undecided) -> Judgement | _Undecided:
    """A "correct" whose answer is not in the form the question demands is wrong: the value alone is not what
    was asked ("as a common fraction in lowest terms" against ``\\frac{10}{25}``).
    """
    if not isinstance(verdict, Judgement) or verdict.outcome != "correct":
        return verdict
    problem = _form_not_as_asked(item.question, verdict.extracted)
    if problem is None:
        return verdict
    return replace(verdict, outcome="wrong", explanation=f"{verdict.explanation}, but {problem}")


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
    verdicts: list[Judgement | _Undecided] = [
        _as_asked(item, _math_verify(item, v) if isinstance(v, (_Undecided, _Unheard)) else v)
        for item, v in zip(judged, deterministic)]
    pending = {i: verdict for i, verdict in enumerate(verdicts) if isinstance(verdict, _Undecided)}
    if pending and llm_judge is not None:
        decided = llm_judge([(verdict.span, judged[i].reference) for i, verdict in pending.items()])
        for i, judgement in zip(pending, decided):
            verdicts[i] = replace(judgement, truncated=judged[i].truncated)
    return [Judgement("undecided", v.span, "none", v.reason, item.truncated) if isinstance(v, _Undecided) else v
            for item, v in zip(judged, verdicts)]
