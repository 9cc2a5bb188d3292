"""The deterministic stage's verdict on a read reply (`judge_reading`): by its explicit commitments, reconciled, or
else by its concluding sentence, compared with the reference by the reference's kind. A "wrong" on LaTeX waits
for math-verify (`Unheard`); what the kind cannot tell is left undecided for the later stages.
"""

from __future__ import annotations

import re

from ._extract import Commitment, Reading, concluding_sentence
from ._kinds import NUMBER, Kind, infer_format, mentions_a_number, normalise_text, parse_number, written_plainly
from ._latex import answer_math
from ._other_kind import judge_other_kind
from ._reconcile import Answer, checked_against_conclusion, question_values, reconcile
from ._span_value import read_value
from ._symbolic import math_expression
from ._types import JudgeItem, Judgement, Undecided, Unheard

_REFUSAL = re.compile(
    r"\b(?:cannot|can['’]t|can not|unable to|impossible to)\s+(?:be\s+)?(?:determined?|answer(?:ed)?|calculated?|"
    r"computed?|solved?|tell|know)\b|\b(?:not enough|insufficient) information\b", re.IGNORECASE)


def no_answer(item: JudgeItem, reason: str, extracted: str | None = None) -> Judgement:
    return Judgement("no_answer", extracted, "none", reason, item.truncated)


def _math_of(item: JudgeItem, answer: Answer) -> str | None:
    if answer.commitment.form != "conclusion":
        return answer_math(answer.span)
    return math_expression(_without_the_questions_math(answer.span, item.question))


_LATEX_MARK = re.compile(r"\\[A-Za-z]|[\^_{}]")  # a command, a power, a subscript or a group; "$" may be money


def _heard_first(item: JudgeItem, span: str) -> bool:
    """Whether a reader's "wrong" waits for math-verify: for a LaTeX reference, or an answer written in LaTeX."""
    return (item.answer_format or infer_format(item.reference)) == "latex" or bool(_LATEX_MARK.search(span))


def _compare(item: JudgeItem, answer: Answer, kind: Kind, gold) -> Judgement | Undecided | Unheard:
    span = answer.span
    if answer.problem:
        return Undecided(span, answer.problem, math=None)
    math = _math_of(item, answer)
    if answer.value is None:
        where = "the committed answer" if answer.commitment.form != "conclusion" else "the concluding sentence"
        return Undecided(span, f"no {kind.name} in {where}", math)
    equal = kind.matches(answer.value, gold)
    if equal is None:
        # free text other than the reference's, a time without AM/PM, a decimal more precise than the reference
        return Undecided(span, f"cannot tell whether the {kind.name} is the reference", math)
    verdict = Judgement("correct" if equal else "wrong", kind.show(answer.value), "deterministic",
                        f"{kind.name} {'equals' if equal else 'differs from'} the reference", item.truncated)
    return Unheard(verdict, span, math) if not equal and _heard_first(item, span) else verdict


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
                      gold) -> Judgement | Undecided | Unheard:
    """A reply without explicit commitment, by its concluding sentence.

    Values the question already states are not credited: a concluding sentence that only
    restates them states no answer, unless one of them is the reference's (then it is undecided);
    nor does one that declines to answer ("I cannot determine …"). One that supposes or doubts
    ("If …", "Suppose …", "We cannot say that …") is undecided.
    """
    if _REFUSAL.search(conclusion.text) and not mentions_a_number(conclusion.text) \
            and normalise_text(item.reference) != "unanswerable":  # ToT's answer to a question that has none
        return no_answer(item, "declines to answer")
    text = _without_a_closing_aside(_without_the_questions_math(conclusion.text, item.question), kind)
    read = read_value(text, kind, question_values(item, kind))
    if read.value is None and read.problem is None:
        if read.restated:
            shown = ", ".join(kind.show(v) for v in read.restated)
            if any(kind.matches(value, gold) is not False for value in read.restated):
                # "each of his four friends received five lollipops" for 5: a given that is also the answer
                return Undecided(conclusion.text, f"the concluding sentence restates {shown} from the question, "
                                                  "which may be the answer", math=None)
            return no_answer(item, f"the concluding sentence only restates {shown} from the question", shown)
        if kind.written_with_digits and not mentions_a_number(conclusion.text):
            return no_answer(item, "no answer stated")
    if supposed := _SUPPOSITION.match(conclusion.text):
        return Undecided(conclusion.text, f"the concluding sentence supposes or doubts: {supposed.group(0).strip()!r}",
                         math=None)
    return _compare(item, Answer(conclusion, read.value, read.problem), kind, gold)


def _judge_commitments(item: JudgeItem, reading: Reading, kind: Kind, gold) -> Judgement | Undecided | Unheard:
    """A reply by its explicit commitments (and a later concluding sentence that disagrees with them)."""
    answer = reconcile(reading, kind)
    if answer.value is not None and reading.conclusion is not None:
        answer = checked_against_conclusion(item, reading, answer, kind)
    if answer.value is None and answer.problem is None:
        return judge_other_kind(item, reading, kind, gold) or _compare(item, answer, kind, gold)
    return _compare(item, answer, kind, gold)


def judge_reading(item: JudgeItem, reading: Reading, kind: Kind, gold) -> Judgement | Undecided | Unheard:
    """A reply by its explicit commitments, or else by its concluding sentence."""
    if not reading.commitments:
        return _judge_conclusion(item, _before_a_closing_recap(reading), kind, gold)
    return _judge_commitments(item, reading, kind, gold)


def another_number(item: JudgeItem, reading: Reading, undecided: Undecided) -> Unheard | Undecided:
    """A LaTeX reference that is one number (``\\frac{5}{16}``), answered in plain text with another number: wrong,
    once math-verify agrees (`_math_verify_stage`).

    "The probability … is 1/100." is read as a number. An equal number is left to math-verify or
    a later stage: the number reader does not see everything a plain sentence may do to a number
    ("5/16 of the whole board").
    """
    if parse_number(item.reference) is None or not written_plainly(undecided.span):
        return undecided
    verdict = judge_reading(item, reading, NUMBER, NUMBER.read(item.reference)[0])
    return verdict if isinstance(verdict, Unheard) else undecided
