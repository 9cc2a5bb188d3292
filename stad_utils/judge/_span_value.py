"""The single value one committed span states (`read_value`), or why it states none clearly.

A negated value, or one the span calls wrong, is dropped when a correction follows it; a hedge, a
bound or another relation than ``=`` states no value; an equation states its result; several
values are undecided, unless one is marked as the answer where the question states the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._kinds import Kind, distinct
from ._symbolic import UNKNOWN, solutions_listed

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
# "…, which gives us 20" states a result like "= 20"; only with the number right after ("which gives us the rest")
_RESULT = re.compile(r"(?:=|≈|\\approx|\bwhich gives(?: us)?(?=\s+[-$]?\d))")


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
