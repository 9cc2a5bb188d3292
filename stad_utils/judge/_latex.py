"""Reading MATH's kinds of answer whole: relations, lists of solutions, intervals and LaTeX numbers.

A MATH gold answer is LaTeX (``2x+4y-3=0``, ``-1, \\frac{15}{8}``, ``(-\\infty, 0] \\cup (\\tfrac12,
\\tfrac32]``, ``14{,}916``, ``6\\frac15``, ``45^\\circ``). Each reader here compares a committed
answer with such a gold answer only when it reads both whole, as one value of the gold's kind:
``True`` (the same value), ``False`` (read whole, and different: only numbers are told apart
so surely) or ``None`` (it cannot tell, and hands the reply on to math-verify). A reader never
looks inside an expression for a number, and never compares one side of a relation or one of
several solutions with the whole gold answer.

* `same_relation`: equations and inequalities (``=``, ``\\neq``, ``\\le`` …), written the same way
  up to spacing and spelling (``\\ne`` and ``\\neq``); any other writing is math-verify's to compare
  (``y=-\\frac12x+\\frac34`` and ``2x+4y-3=0`` are one line);
* `same_solutions`: a list or set of solutions (``x=1, x=2``, ``\\{1,2\\}``, ``1 \\text{ and } 2``, several
  boxes), compared as a set, item by item;
* `same_intervals`: intervals, half-open ones included, and their unions, in any order;
* `same_number`: one number written in LaTeX (``\\dfrac{3}{4}``, ``6\\frac15``, ``14{,}916``, ``30\\%``,
  ``45^\\circ``, ``575\\text{ students}``), by value.

The tables of real cases are ``tests/fixtures/judge_math_readers.json``.
"""

from __future__ import annotations

import re

from ._extract import without_answer_words
from ._numbers import LATEX_UNIT, as_number
from ._symbolic import MATH_SEGMENT as _MATH_SEGMENT
from ._symbolic import UNKNOWN, math_expression

# ---------------------------------------------------------------- what of a committed span is the answer

_PROSE = re.compile(r"[A-Za-z]{2,}[\s,]+[A-Za-z]{2,}")
_NOT_PROSE = re.compile(r"\\(?:text|mbox|textbf|mathrm)\{[^{}]*\}|\\[A-Za-z]+|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]",
                        re.DOTALL)


_CONNECTIVE = re.compile(r"^(?:so|thus|hence|therefore)\b,?\s*", re.IGNORECASE)  # "Therefore, x = 5" states x = 5


def answer_math(span: str) -> str | None:
    """What of a committed span math-verify and the readers may read: the span without the words that announce it
    ("The final answer is"), or, when prose remains, the one expression it states (`math_expression`); never a
    sentence of prose, whose words math-verify would parse as symbols.

    Examples
    --------
    >>> answer_math("The final answer is $\\\\frac{3}{4}$"), answer_math("Jane started growing Sphere 3 hours ago")
    ('\\\\frac{3}{4}', '3')
    >>> answer_math("Therefore, $x = \\\\frac{3}{4}$."), answer_math("3\\\\text{ hours}"), answer_math("Thus, x = 5")
    ('x = \\\\frac{3}{4}', '3\\\\text{ hours}', 'x = 5')
    """
    span = _CONNECTIVE.sub("", without_answer_words(span.strip()))
    segments = _MATH_SEGMENT.findall(span)
    if len(segments) == 1 and not re.search(r"\d", _MATH_SEGMENT.sub(" ", span)):
        return next(part for part in segments[0] if part)  # "Therefore, $x = \\frac34$." is its math
    if segments or _PROSE.search(_NOT_PROSE.sub(" ", span)):
        return math_expression(span)
    return span


# ---------------------------------------------------------------- units in words

_SPACE = r"(?:\s|\\[ ,;:!]|~)*"
_UNIT_AT_THE_END = re.compile(rf"(?<=\S){_SPACE}(?:(?P<words>{LATEX_UNIT})|(?P<sign>\\?%|\^\{{?\\circ\}}?|°))\s*\.?$")


def split_unit(latex: str) -> tuple[str, str]:
    """An answer's value and the unit written after it, as compared (``""`` for none): ``5\\text{ cm}^2`` has
    ``cm^2`` (a plural is its singular), ``30\\%`` has ``%`` and ``30^\\circ`` has ``°``. The one reader of
    "the unit after a value": math-verify's inputs (`without_unit`) and one number's (`same_number`) use it.

    Examples
    --------
    >>> split_unit(r"8\\sqrt{3} \\text { square inches}"), split_unit("5"), split_unit(r"5\\text{ cm}^2")
    (('8\\\\sqrt{3}', 'inch^2'), ('5', ''), ('5', 'cm^2'))
    >>> split_unit(r"864 \\mbox{ inches}^2"), split_unit(r"\\frac{270}7\\text{ degrees}")
    (('864', 'inch^2'), ('\\\\frac{270}7', '°'))
    >>> split_unit(r"30\\%"), split_unit(r"30^\\circ"), split_unit(r"12\\pi\\ \\text{inches per second}")
    (('30', '%'), ('30', '°'), ('12\\\\pi', 'inchespersecond'))
    >>> split_unit(r"\\text{(C)}"), split_unit(r"9\\text{ a.m.}")
    (('\\\\text{(C)}', ''), ('9\\\\text{ a.m.}', ''))
    """
    found = _UNIT_AT_THE_END.search(latex)
    if not found:
        return latex, ""
    if found["sign"]:
        return latex[:found.start()], "%" if "%" in found["sign"] else "°"
    words = re.sub(r"\s", "", found["unit_words"]).lower()
    if len(words) > 3:  # "inches" is "inch", "units" is "unit"; "ms" stays milliseconds, never metres
        words = words.removesuffix("es") if words.endswith("ches") else words.removesuffix("s")
    power = found["unit_power"]
    if (named := _NAMED_POWER.match(words)) and not power:  # "square inches" is inch^2
        words, power = named["unit"], _POWERS[named["power"]]
    value = latex[:found.start()]
    if words == "degree" and not power:
        return value, "°"
    return value, f"{words}^{power}" if power else words


_NAMED_POWER = re.compile(r"(?P<power>square|cubic)(?P<unit>[a-z]+)$")
_POWERS = {"square": "2", "cubic": "3"}


def without_unit(latex: str) -> str:
    """The answer without a unit written in words after its value (``8\\sqrt{3} \\text { square inches}``,
    ``575\\text{ students}``, ``45 \\text{ units}^2``): MATH graders accept an answer with or without it.
    A percent or degree sign stays: math-verify reads them.

    Examples
    --------
    >>> without_unit(r"8\\sqrt{3} \\text { square inches}"), without_unit(r"\\text{(C)}"), without_unit(r"30\\%")
    ('8\\\\sqrt{3}', '\\\\text{(C)}', '30\\\\%')
    >>> without_unit(r"12\\pi\\ \\text{inches per second}"), without_unit(r"5\\,\\text{cm}")
    ('12\\\\pi', '5')
    """
    found = _UNIT_AT_THE_END.search(latex)
    return latex[:found.start()] if found and found["words"] else latex


_COLUMN = re.compile(r"^\s*\\begin\{(?P<env>[pbBvV]?)matrix\}(?P<rows>[^&]*?)\\end\{(?P=env)matrix\}\s*$", re.DOTALL)


def column_as_tuple(latex: str) -> str | None:
    """A column vector written as a tuple, which math-verify compares entry by entry; ``None`` for any other answer.

    Examples
    --------
    >>> column_as_tuple(r"\\begin{pmatrix} 2 \\\\ -11 \\end{pmatrix}")
    '(2, -11)'
    >>> column_as_tuple(r"\\begin{pmatrix} 1 & 0 \\end{pmatrix}") is None
    True
    """
    found = _COLUMN.match(latex)
    if not found:
        return None
    rows = [row.strip() for row in found["rows"].split("\\\\")]
    return f"({', '.join(rows)})" if len(rows) > 1 and all(rows) else None


# ---------------------------------------------------------------- a normal form of LaTeX

_SPACING = re.compile(r"\\[!,;:> ]|\\(?:left|right|big|Big|bigg|Bigg)(?![A-Za-z])|\\displaystyle|~|\s+|(?<!\\)\$")
_SPELLINGS = ((r"\\[dt]frac", r"\\frac"), (r"\\ne(?![A-Za-z])", r"\\neq"), (r"\\le(?![A-Za-z])", r"\\leq"),
              (r"\\ge(?![A-Za-z])", r"\\geq"), ("≤", r"\\leq"), ("≥", r"\\geq"), ("≠", r"\\neq"),
              (r"\\mbox", r"\\text"), (r"\^\{?\\circ\}?|°", r"^{\\circ}"))
_BARE_ARGUMENT = re.compile(r"\\(frac|sqrt)(\d|[A-Za-z](?![A-Za-z]))(\d|[A-Za-z](?![A-Za-z]))?")
_GROUPED_THOUSANDS = re.compile(r"(?<=\d)(?:\{,\}|,\\!\s*)(?=\d{3}(?!\d))")


def _braced_arguments(match: re.Match) -> str:
    command, first, second = match.groups()
    if command == "sqrt":
        return rf"\sqrt{{{first}}}{second or ''}"
    return rf"\frac{{{first}}}{{{second}}}" if second else match.group(0)


def normal_form(text: str) -> str:
    """The LaTeX of an answer without what does not change its value: spacing, ``\\left``/``\\right``, math
    delimiters, a final full stop, spellings of one command (``\\dfrac``, ``\\ne``), unbraced arguments
    (``\\frac12``, ``\\sqrt2``) and LaTeX thousands separators.

    Examples
    --------
    >>> normal_form(r"$\\left( -\\infty, \\tfrac12 \\right]$."), normal_form(r"14,\\!916"), normal_form(r"x \\ne 5")
    ('(-\\\\infty,\\\\frac{1}{2}]', '14916', 'x\\\\neq5')
    """
    text = re.sub(r"^\\\(|\\\)$|^\\\[|\\\]$", "", text.strip().rstrip(".").strip())
    for spelling, canonical in _SPELLINGS:  # before the spaces go, which end a command ("\\le k")
        text = re.sub(spelling, canonical, text)
    text = _SPACING.sub("", _GROUPED_THOUSANDS.sub("", text))
    return _BARE_ARGUMENT.sub(_braced_arguments, text).rstrip(".")


_DECIMAL = re.compile(r"(?<![\d.,])(?P<whole>\d+)\.(?P<digits>\d{1,4})(?![\d.,])")


_REPEATING = re.compile(r"(?<![\d.,])(?P<whole>\d+)?\.(?P<fixed>\d*)\\overline\s*\{(?P<period>\d+)\}")


def _repeating_as_fraction(found: re.Match) -> str:
    """``0.1\\overline{6}`` is (16 − 1) / 90: the digits through one period, less those before it, over as many
    nines as the period has digits followed by as many zeros as the fixed part.
    """
    whole, fixed, period = found["whole"] or "0", found["fixed"], found["period"]
    numerator = int(whole + fixed + period) - int(whole + fixed)
    return rf"\frac{{{numerator}}}{{{'9' * len(period) + '0' * len(fixed)}}}"


def decimals_as_fractions(latex: str) -> str:
    """Every repeating decimal, and every decimal of at most four places, written as the fraction it is exactly
    (``0.2i`` → ``\\frac{2}{10}i``, ``0.1\\overline{6}`` → ``\\frac{15}{90}``);
    a longer one stays: math-verify would find ``1.4142135623730951`` as a fraction equal to ``\\sqrt2``.

    math-verify compares ``0.2x`` with ``\\frac{x}{5}`` as equal but ``0.2i`` with ``\\frac{i}{5}`` as different;
    the exact fraction removes the floating point from its comparison.

    Examples
    --------
    >>> decimals_as_fractions(r"0.1\\overline{6}"), decimals_as_fractions(r"0.\\overline{3}")
    ('\\\\frac{15}{90}', '\\\\frac{3}{9}')
    >>> decimals_as_fractions("z = 0.2i"), decimals_as_fractions("1 + 12.25i"), decimals_as_fractions("1,234.5")
    ('z = \\\\frac{2}{10}i', '1 + \\\\frac{1225}{100}i', '1,234.5')
    """
    def as_fraction(found: re.Match) -> str:
        return rf"\frac{{{int(found['whole'] + found['digits'])}}}{{{10 ** len(found['digits'])}}}"

    return _DECIMAL.sub(as_fraction, _REPEATING.sub(_repeating_as_fraction, latex))


# ---------------------------------------------------------------- splitting at the top level

_OPENING, _CLOSING = "([{", ")]}"


def _top_level_split(text: str, separator: re.Pattern) -> list[str]:
    """``text`` split at the separators that lie outside every bracket (``(2,2),(6,2)`` → two items)."""
    parts, depth, start, position = [], 0, 0, 0
    while position < len(text):
        char = text[position]
        if text.startswith((r"\{", r"\}"), position):
            depth += 1 if char == "\\" and text[position + 1] == "{" else -1
            position += 2
            continue
        if char in _OPENING:
            depth += 1
        elif char in _CLOSING:
            depth -= 1
        elif depth == 0 and (found := separator.match(text, position)) and found.end() > position:
            parts.append(text[start:position])
            start = position = found.end()
            continue
        position += 1
    parts.append(text[start:])
    return parts


# ---------------------------------------------------------------- numbers

def _as_latex_number(text: str):
    """``text`` as one number with at most a unit after it (``575\\text{ students}``, ``45^\\circ``), else ``None``.

    The unit is given back, so that ``30\\%`` is not taken for ``0.3`` nor ``30`` for ``30\\%`` by
    mistake: a percent or a degree sign on one side only leaves the reader unsure.
    """
    number_text, unit = split_unit(text)
    number = as_number(number_text)
    return (number.value, unit) if number is not None and number_text else None


def same_number(reply: str, gold: str) -> bool | None:
    """One number in LaTeX, by value: ``\\dfrac{3}{4}`` is ``\\frac34``, ``6\\frac15`` is ``\\frac{31}{5}``,
    ``14{,}916`` is 14916, ``575\\text{ students}`` is 575; ``None`` unless both are one number, or when a
    percent or degree sign is on one side only (``0.3`` against ``30\\%``).

    Examples
    --------
    >>> same_number(r"\\dfrac{9}{4}", r"2\\frac14"), same_number("7", r"7\\text{ dollars}")
    (True, True)
    >>> same_number(r"\\sqrt{4}", "4") is None, same_number(r"5\\text{ cm}", r"5\\text{ m}") is None
    (True, True)
    """
    read = _as_latex_number(normal_form(reply)), _as_latex_number(normal_form(gold))
    if None in read:
        return None
    (value, marked), (gold_value, gold_marked) = read
    if marked and gold_marked and marked != gold_marked:
        return None  # 5 cm for 5 m, 30° for 30%: the same number of another unit is not the answer
    if bool(marked) != bool(gold_marked) and value != gold_value and {marked, gold_marked} & {"%", "°"}:
        return None  # 0.3 for 30%: only a reader of the question can tell
    return value == gold_value


def _same_item(reply: str, gold: str) -> bool | None:
    if normal_form(reply) == normal_form(gold):
        return True
    return same_number(reply, gold)


# ---------------------------------------------------------------- relations

_RELATION = re.compile(r"\\neq|\\leq|\\geq|\\lt|\\gt|(?<![<>\\])[<>=](?![<>])")


def relations_in(text: str) -> list[str]:
    """The relation signs of an answer at the top level (``x=1`` has one, ``F_{k=0}`` none).

    Examples
    --------
    >>> relations_in(r"-x \\geq -1"), relations_in(r"F_n=\\sum_{k=0}^{n-1} F_k"), relations_in("5")
    (['\\\\geq'], ['='], [])
    """
    return _RELATION.findall(_without_groups(normal_form(text)))


def _without_groups(text: str) -> str:
    """The text with every bracketed group emptied, so that only its top level is seen."""
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"\{[^{}]*\}|\([^()]*\)|\[[^\[\]]*\]", "", text)
    return text


def same_relation(reply: str, gold: str) -> bool | None:
    """An equation or inequality against a gold relation: ``True`` when both are written the same way (up to
    spacing and spellings: ``x \\ne 5`` and ``x \\neq 5``); else ``None``: a relation rewritten
    (``-x \\geq -1`` for ``x \\le 1``) is math-verify's to compare, and a value is no relation.

    Examples
    --------
    >>> same_relation(r"x \\neq 5", r"x \\ne 5"), same_relation(r"-x \\geq -1", r"x \\le 1"), same_relation("5", "x=5")
    (True, None, None)
    """
    if len(relations_in(reply)) != 1 or len(relations_in(gold)) != 1:
        return None
    return True if normal_form(reply) == normal_form(gold) else None


# ---------------------------------------------------------------- lists and sets of solutions

_SOLUTION_SEPARATOR = re.compile(r",|;|\\text\{\s*(?:and|or|,)\s*\}|\\q?quad|\band\b|\bor\b")
_NAMED = re.compile(rf"^(?P<name>{UNKNOWN})=(?P<value>.+)$")
_SET_BRACES = re.compile(r"^\\\{(?P<items>.*)\\\}$")


def solutions_in(text: str) -> list[str]:
    """The solutions an answer lists, in its normal form: top-level items of ``1, 2``, ``\\{1,2\\}``,
    ``1 \\text{ and } 2`` or ``x=1, x=2`` (the name of the unknown dropped when every item names the same one).

    Examples
    --------
    >>> solutions_in(r"p=-1, p=\\frac{15}{8}"), solutions_in(r"\\{1, 2\\}"), solutions_in("(2,2), (6,2)")
    (['-1', '\\\\frac{15}{8}'], ['1', '2'], ['(2,2)', '(6,2)'])
    """
    text = normal_form(text)
    braces = _SET_BRACES.match(text)
    items = [item for item in _top_level_split(braces["items"] if braces else text, _SOLUTION_SEPARATOR) if item]
    named = [match for item in items if (match := _NAMED.match(item))]
    if len(named) == len(items) and len({match["name"] for match in named}) == 1:
        # of a chain "r=\\frac{\\sqrt{596}}{3}=\\frac{2\\sqrt{149}}{3}", the value it ends on
        items = [_top_level_split(match["value"], re.compile("="))[-1] for match in named]
    return items


def _pairs_up(items: list, gold_items: list, same) -> bool:
    """Whether each item equals (``same``) a different gold item and no gold item is left over: sets compared
    whatever their order, a repeated item needing a repeated gold item.
    """
    unmatched = list(gold_items)
    for item in items:
        match = next((gold for gold in unmatched if same(item, gold)), None)
        if match is None:
            return False
        unmatched.remove(match)
    return not unmatched


def same_solutions(reply: str, gold: str) -> bool | None:
    """A list of solutions against a gold list, as sets: ``True`` when each solution of one is one of the other;
    ``False`` only when both are lists of numbers read whole that differ; else ``None``.

    Examples
    --------
    >>> same_solutions(r"x=1 \\text{ or } x=2", "2, 1"), same_solutions("1, 3", "1, 2"), same_solutions("1", "1, 2")
    (True, False, None)
    """
    items, gold_items = solutions_in(reply), solutions_in(gold)
    if len(items) < 2 or len(gold_items) < 2:
        return None
    if _pairs_up(items, gold_items, _same_item):
        return True
    every_number = all(same_number(item, item) for item in items + gold_items)
    return False if every_number else None


# ---------------------------------------------------------------- intervals

_INTERVAL = re.compile(r"^(?P<open>[(\[])(?P<low>[^,]+),(?P<high>[^,]+)(?P<close>[)\]])$")
_MEMBERSHIP = re.compile(r"^[A-Za-z]\\in")


_BOUND = r"(?P<{0}>[^<>=\\]+|[^<>=]*?\\(?:frac|sqrt|pi|infty)[^<>=]*?)"
_CHAIN = re.compile(rf"^{_BOUND.format('low')}(?P<low_sign><|\\leq)(?P<name>[A-Za-z])"
                    rf"(?P<high_sign><|\\leq){_BOUND.format('high')}$")
_UPPER = re.compile(rf"^(?P<name>[A-Za-z])(?P<sign><|\\leq){_BOUND.format('bound')}$")
_LOWER = re.compile(rf"^(?P<name>[A-Za-z])(?P<sign>>|\\geq){_BOUND.format('bound')}$")
_OR = re.compile(r"\\text\{or\}|\bor\b|\\cup|\\lor")


def _interval_of(part: str) -> tuple[str, str, str, str] | None:
    """An interval, or the inequality of one unknown that states it (``-4 \\le k < 0`` is ``[-4,0)``)."""
    if found := _INTERVAL.match(part):
        return found["open"], found["low"], found["high"], found["close"]
    if found := _CHAIN.match(part):
        return ("(" if found["low_sign"] == "<" else "["), found["low"], found["high"], \
            (")" if found["high_sign"] == "<" else "]")
    if found := _UPPER.match(part):
        return "(", "-\\infty", found["bound"], ")" if found["sign"] == "<" else "]"
    if found := _LOWER.match(part):
        return "(" if found["sign"] == ">" else "[", found["bound"], "\\infty", ")"
    return None


def intervals_in(text: str) -> list[tuple[str, str, str, str]] | None:
    """The intervals of an answer written as intervals or a union of them (``x \\in`` dropped), or as inequalities
    of one unknown (``x < 2 \\text{ or } x > 3``), each as its two brackets and endpoints; ``None`` unless the
    whole answer is one.

    Examples
    --------
    >>> intervals_in(r"(-\\infty, 0] \\cup (\\tfrac12, \\tfrac32]")
    [('(', '-\\\\infty', '0', ']'), ('(', '\\\\frac{1}{2}', '\\\\frac{3}{2}', ']')]
    >>> intervals_in(r"x < 2 \\text{ or } x > 3"), intervals_in(r"-4 \\le k < 0")
    ([('(', '-\\\\infty', '2', ')'), ('(', '3', '\\\\infty', ')')], [('[', '-4', '0', ')')])
    """
    parts = _top_level_split(_MEMBERSHIP.sub("", normal_form(text)), _OR)
    found = [interval for part in parts if (interval := _interval_of(part)) is not None]
    names = {match["name"] for part in parts for pattern in (_CHAIN, _UPPER, _LOWER) if (match := pattern.match(part))}
    if len(found) < len(parts) or len(names) > 1:
        return None
    return found


_INFINITY = re.compile(r"[-+]?\\infty")


def _same_endpoint(one: str, other: str) -> bool | None:
    return True if one == other else same_number(one, other)


def same_intervals(reply: str, gold: str) -> bool | None:
    """Intervals and unions of intervals, in any order: ``True`` when the brackets match and the endpoints are
    equal; ``False`` when every endpoint is a number or infinity and some differ; else ``None``.

    A pair ``(2,4)`` reads as an interval too; it is compared only against a gold answer that is one.

    Examples
    --------
    >>> same_intervals(r"(3,\\infty) \\cup (-\\infty,-1)", r"(-\\infty,-1)\\cup(3,\\infty)")
    True
    >>> same_intervals("(-1,3]", "(-1,3)")
    False
    """
    read, gold_read = intervals_in(reply), intervals_in(gold)
    if not read or not gold_read:
        return None
    if _pairs_up(read, gold_read, lambda interval, candidate: (interval[0], interval[3]) == (candidate[0], candidate[3])
                 and all(_same_endpoint(a, b) for a, b in zip(interval[1:3], candidate[1:3]))):
        return True
    every_end_a_number = all(_INFINITY.fullmatch(end) or same_number(end, end)
                             for interval in read + gold_read for end in interval[1:3])
    return False if every_end_a_number else None


# ---------------------------------------------------------------- choices

_CHOICE = re.compile(r"^\(?(?P<letter>[A-E])\)?$")
_CHOICE_FIRST = re.compile(r"^\((?P<letter>[A-E])\)")
_TEXT_WRAPPER = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\{([^{}]*)\}")


def _unwrapped(latex: str) -> str:
    return _TEXT_WRAPPER.sub(r"\1", normal_form(latex))


def same_choice(reply: str, gold: str) -> bool | None:
    """The letter of a multiple choice (``\\text{(C)}``): the reply's first label, whatever words follow it
    (``\\text{(C) Plane}``); ``None`` unless the gold is a letter and the reply opens with a label.

    Examples
    --------
    >>> same_choice(r"\\text{(C) Plane}", r"\\text{(C)}"), same_choice("(B)", r"\\text{(C)}"), same_choice("C", "(C)")
    (True, False, True)
    """
    gold_choice = _CHOICE.match(_unwrapped(gold))
    choice = _CHOICE.match(_unwrapped(reply)) or _CHOICE_FIRST.match(_unwrapped(reply))
    if gold_choice is None or choice is None:
        return None
    return choice["letter"] == gold_choice["letter"]


# ---------------------------------------------------------------- all readers

def same_answer(reply: str, gold: str) -> bool | None:
    """A committed LaTeX answer against a LaTeX gold answer, by the first reader that reads the gold's kind whole.

    Examples
    --------
    >>> same_answer("x = 2", "2"), same_answer(r"\\frac{6}{8}", r"\\frac34"), same_answer(r"2\\sqrt{5}", r"\\sqrt{20}")
    (True, True, None)
    """
    if normal_form(reply) == normal_form(gold):
        return True
    if _CHOICE.match(_unwrapped(gold)):
        return same_choice(reply, gold)
    if relations_in(gold):
        return same_relation(reply, gold)
    if intervals_in(gold) and (len(solutions_in(gold)) == 1 or "\\cup" in gold):
        return same_intervals(reply, gold)
    number = same_number(reply, gold)  # "14,916" is one number, not the solutions 14 and 916
    if number is not None:
        return number
    if len(solutions_in(gold)) > 1 or len(solutions_in(reply)) > 1:
        return same_solutions(reply, gold)
    [item] = solutions_in(reply) or [reply]
    return same_number(item, gold)
