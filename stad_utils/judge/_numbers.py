"""Reading numbers from text: one small named reader per way of writing a number.

Each reader finds, in a text, the expressions it knows how to read (`Found`: where, and the
`Number` it states), or marks an expression that reads two ways as *unclear* (``number is None``):
a reply whose span holds one is undecided, never a guess. `numbers_in` runs the readers in order
of precedence: an expression one reader has taken (``$70K``) is not read again by a later one
(as ``70``). The readers and the real replies they were written for are tabled in
``tests/fixtures/judge_number_readers.json``.

* `digit_numbers`: ``18``, ``-3``, ``$1,234.50``, ``3/4``, ``\\frac{3}{4}``, ``45%``;
* `magnitudes`: ``$70K``, ``$1.2 million``, ``70 thousand``, ``3 dozen``; a suffix that could be a
  unit (``70k`` with no currency, ``5M``) is unclear; the magnitude is never dropped;
* `number_words`: ``ten``, ``twenty-five``, ``one hundred and five``, ``three-fourths``; "one" as a
  pronoun ("one of them", "each one") is no number;
* `ordinals`: ``13th``;
* `decimal_commas`: ``€3,50``, ``2,5 kg``, ``1.234,56``; ``2,5`` with no currency or unit is unclear,
  and a pair in brackets (``(2,18)``) is no number;
* `durations_in` (made by `durations_in_unit`): ``2 hours and 40 minutes`` as ``160`` when the
  question asks for minutes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Number:
    """A number stated in text.

    Attributes
    ----------
    value : Fraction
    decimals : int or None
        Digits written after the decimal point; ``None`` for integers and fractions.
    unscaled : Fraction or None
        For a number written with a magnitude (``$70K``), the number before it (``70``): a
        reference equal to that alone may have been asked "in thousands", so it leaves the
        answer undecided rather than wrong.
    """

    value: Fraction
    decimals: int | None
    unscaled: Fraction | None = None


@dataclass(frozen=True)
class Found:
    """An expression a reader read: where it is, and its number (``None``: it reads two ways)."""

    start: int
    end: int
    number: Number | None


Reader = Callable[[str], list[Found]]

# ---------------------------------------------------------------- digits

# A thousands separator: a comma, or LaTeX's "{,}", ",\!" (MATH writes 14,916 as "14{,}916" or "14,\!916") or "\,".
_THOUSANDS = r"(?:,|\{,\}|,\\!\s?|\\,)"
_TEX_FRACTION = (r"\\[dt]?frac\s*(?:\{(?P<tex_num>\d+)\}|(?P<tex_num_digit>\d))"   # \frac{3}{4}, \tfrac34, \frac 12
                 r"\s*(?:\{(?P<tex_den>\d+)\}|(?P<tex_den_digit>\d))")
_DIGITS = (r"(?P<sign>[-−])?(?P<currency>\\?\$\s?|[€£]\s?)?"
           rf"(?:{_TEX_FRACTION}"
           rf"|(?P<int>\d{{1,3}}(?:{_THOUSANDS}\d{{3}})+|\d+)(?P<dec>\.\d+)?"  # 1,234.50 (groups of three)
           r"(?:\s*/\s*(?P<den>\d+)(?![/\d]))?)")                    # 3/4
_DIGIT_NUMBER = re.compile(
    rf"""(?<![\w.,/:\-−–])        # not inside a word, a decimal, a list "1,2", a date or a clock
        {_DIGITS}
        (?P<percent>\s?\\?%)?
        (?![\-/:,.–]?\d|st\b|nd\b|rd\b|th\b)   # not followed by more digits of a date, list or clock
    """,
    re.VERBOSE,
)


def _number_from(match: re.Match) -> Number | None:
    sign = -1 if match["sign"] else 1
    if match["tex_num"] or match["tex_num_digit"]:
        numerator: int | Fraction = int(match["tex_num"] or match["tex_num_digit"])
        denominator, decimals = int(match["tex_den"] or match["tex_den_digit"]), None
    else:
        written = re.sub(r"\D", "", match["int"]) + (match["dec"] or "")
        numerator = Fraction(written)
        denominator = int(match["den"]) if match["den"] else 1
        decimals = len(match["dec"]) - 1 if match["dec"] and not match["den"] else None
    if denominator == 0:
        return None
    return Number(sign * Fraction(numerator) / denominator, decimals)


_STEP_LABEL = re.compile(r"\bsteps?\s+\d+\b", re.IGNORECASE)
LATEX_UNIT = (r"\\(?:text|mbox|textrm|mathrm(?!\s*\{\s*[eid]\s*\}))\s*\{\s*(?P<unit_words>[A-Za-z][A-Za-z/\s]*)\}"
              r"(?:\^\{?(?P<unit_power>\d)\}?)?")
"""A unit in words written in LaTeX, with its power: ``\\text{ cm}^2``, ``\\mathrm{m/s}``, ``\\text{ square inches}``
(not ``\\text{ a.m.}``, whose letters are a time's, nor the constants ``\\mathrm{e}``, ``\\mathrm{i}``,
``\\mathrm{d}``). Its power is no number of the reply's."""
_LATEX_UNIT = re.compile(LATEX_UNIT)
ROMAN_CONSTANT = r"\\mathrm\s*\{\s*(?P<constant>[ei])\s*\}"
"""Euler's number or the imaginary unit in roman type (``\\mathrm{e}``, ``\\mathrm{i}``): a constant, never a unit."""
# A number that is an operand of LaTeX, not a value of its own: under a root, in a power or subscript, in a
# command's argument (``\sqrt{17}``, ``2^{10}``, ``\frac{\sqrt3}{2}``), or a
# coefficient (``2\sqrt5``, ``12\pi``, ``4i``).
_OPERAND_AFTER = re.compile(r"(?:[\^_]|\\sqrt(?:\[\d+\])?|(?:\\(?!(?:text\w*|mbox|math\w*|boxed|fbox|displaystyle)\b)"
                            r"[A-Za-z]+|\}|[\^_])\s*\{)\s*$")
# (a factorial "5!" and an imaginary "4i" only written against the digits: "18 in all", "It is 18! So" are prose;
# "2\mathrm{i}" and "4\mathrm{e}^3" are the constants)
_OPERAND_BEFORE = re.compile(r"^(?:\s*(?:\^(?!\s*\{?\s*\\circ)|_|\\(?:sqrt|pi|frac|dfrac|tfrac|theta|alpha|beta|phi|"
                             rf"infty|sin|cos|tan|cot|sec|csc|log|ln|exp)(?![A-Za-z])|{ROMAN_CONSTANT})|i\b|"
                             r"!(?!=|\s*(?:[A-Z]|$)))")


def _an_operand(text: str, match: re.Match) -> bool:
    return bool(_OPERAND_AFTER.search(text[:match.start()]) or _OPERAND_BEFORE.match(text[match.end():]))


def _blank(match: re.Match) -> str:
    """The match as spaces: positions in the text stay where they were."""
    return " " * len(match.group(0))


def digit_numbers(text: str) -> list[Found]:
    """Numbers written in digits: ``18``, ``-3``, ``$1,234.50``, ``3/4``, ``\\frac{3}{4}``, ``\\tfrac34``, ``45%``,
    ``14{,}916``.

    Thousands separators count only in groups of three (``1,2,3`` holds no number); digits of
    clock times, dates and labels (``E49``, ``Step 2``) are not numbers. A number that is an
    operand of LaTeX (``\\sqrt{17}``, ``2^{10}``, ``2\\sqrt5``) is unclear: the expression, not
    the number, is the value, and only a reader of the whole expression may compare it.

    Examples
    --------
    >>> [str(f.number.value) for f in digit_numbers("She pays $1,234.50 for 3/4 of it, not 1,2,3 (Step 2).")]
    ['2469/2', '3/4']
    >>> [f.number and str(f.number.value) for f in digit_numbers(r"$14{,}916$ $\\frac3{3}$ $\\sqrt{17}$ $90^\\circ$")]
    ['14916', '1', None, '90']
    >>> [str(f.number.value) for f in digit_numbers(r"$\\boxed{40 \\text{ cm}^3}$")]
    ['40']
    """
    blanked = _LATEX_UNIT.sub(_blank, _STEP_LABEL.sub(_blank, text))
    found = []
    for match in _DIGIT_NUMBER.finditer(blanked):
        number = _number_from(match)
        if number is not None:
            found.append(Found(match.start(), match.end(), None if _an_operand(blanked, match) else number))
    return found


_MIXED_NUMBER = re.compile(rf"(?<![\w.,/:\-−–^_])(?P<sign>[-−])?(?P<whole>\d+)\s*{_TEX_FRACTION}")


def mixed_numbers(text: str) -> list[Found]:
    """Mixed numbers in LaTeX: ``2\\frac{1}{2}`` is 5/2 (MATH writes its answers so: ``6\\frac15``,
    ``137 \\frac{1}{2}``); a whole number before an improper fraction is a product, left unclear.

    Examples
    --------
    >>> [f.number and str(f.number.value) for f in mixed_numbers(r"$6\\frac15$, $137 \\frac{1}{2}$, $2\\frac{5}{3}$")]
    ['31/5', '275/2', None]
    """
    found = []
    for match in _MIXED_NUMBER.finditer(text):
        numerator = int(match["tex_num"] or match["tex_num_digit"])
        denominator = int(match["tex_den"] or match["tex_den_digit"])
        proper = 0 < numerator < denominator and not _OPERAND_AFTER.search(text[:match.start()])
        value = (int(match["whole"]) + Fraction(numerator, denominator)) * (-1 if match["sign"] else 1) if proper \
            else None
        found.append(Found(match.start(), match.end(), Number(value, None) if value is not None else None))
    return found


# ---------------------------------------------------------------- magnitudes

_SCALE_WORDS = {"dozen": 12, "hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9,
                "trillion": 10**12}
_SUFFIXES = {"k": 10**3, "m": 10**6, "mn": 10**6, "b": 10**9, "bn": 10**9}
_MAGNITUDE = re.compile(
    rf"(?<![\w.,/:\-−–]){_DIGITS}"
    r"(?:\s*(?P<word>dozens?|hundreds?|thousands?|millions?|billions?|trillions?)\b"
    r"|(?P<suffix>[kKmMbB]|bn|mn)\b(?!\.\w))",
)
# "21k = 1575", "$4b$": a letter after digits in algebra is a variable, not a magnitude
_ALGEBRA_AFTER = re.compile(r"^\s*(?:[=+\-/^$)]|\*(?!\*))")  # "**" after "$262.5K" is Markdown bold
_ALGEBRA_BEFORE = re.compile(r"(?:[=+\-/^(]|(?<!\*)\*)\s*$")


def _in_algebra(text: str, match: re.Match) -> bool:
    inside_math = text[:match.start()].count("$") % 2 == 1 and not match["currency"]
    return bool(inside_math or _ALGEBRA_AFTER.match(text[match.end():])
                or _ALGEBRA_BEFORE.search(text[:match.start()]))


def magnitudes(text: str) -> list[Found]:
    """Numbers with a magnitude: ``$70K``, ``$1.2 million``, ``70 thousand``, ``3 dozen``.

    A magnitude word always scales. A suffix scales money (``$70K``, ``€2.5M``); without a
    currency it could be a unit (``5k`` run, ``5M`` solution): ``k``, ``K``, ``M``, ``B`` are
    unclear, and ``m`` and ``b`` are left to the digit reader (metres, minutes). In algebra
    (``21k = 1575``, ``$4b$``) a letter after digits is a variable: unclear, as no number is
    written. Never is the magnitude dropped: ``$70k`` is 70000, ``**$262.5K**`` 262500.

    Examples
    --------
    >>> [(f.number and f.number.value) for f in magnitudes("$70K, $1.2 million, 70 thousand, 70k, 5m, 21k = 3")]
    [Fraction(70000, 1), Fraction(1200000, 1), Fraction(70000, 1), None, None]
    >>> magnitudes("= **$262.5K**")[0].number.value
    Fraction(262500, 1)
    """
    found = []
    for match in _MAGNITUDE.finditer(text):
        number = _number_from(match)
        if number is None or match["suffix"] in ("m", "b") and not match["currency"] and not _in_algebra(text, match):
            continue  # metres, minutes: the digits are the number
        if match["suffix"] and _in_algebra(text, match):
            found.append(Found(match.start(), match.end(), None))  # 21 times k: no number of its own
            continue
        if match["word"]:
            scale = _SCALE_WORDS[match["word"].lower().rstrip("s")]
        elif match["currency"]:
            scale = _SUFFIXES[match["suffix"].lower()]
        else:
            found.append(Found(match.start(), match.end(), None))
            continue
        found.append(Found(match.start(), match.end(), Number(number.value * scale, None, number.value)))
    return found


# ---------------------------------------------------------------- number words

_UNITS = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())}
_TENS = {word: 10 * value for value, word in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4,
                 "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7,
                 "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10}
_WORD = "|".join(sorted([*_UNITS, *_TENS, *_SCALE_WORDS], key=len, reverse=True))
_AFTER_A_SCALE = "|".join(f"(?<={word})" for word in _SCALE_WORDS)  # "one hundred and five", not "three and four"
_NUMBER_WORDS = re.compile(
    rf"\b(?P<words>(?:a\s+(?={'|'.join(_SCALE_WORDS)}))?(?:{_WORD})"
    rf"(?:(?:(?:{_AFTER_A_SCALE})\s+and\s+|[\s-]+)(?:{_WORD}))*)\b"
    rf"(?:[\s-]+(?P<denominator>{'|'.join(_DENOMINATORS)})\b)?(?P<and_a_half>\s+and\s+a\s+half\b)?",
    re.IGNORECASE,
)
# "one" that stands for a thing, not a count: "one of them", "each one", "the one left", "one another"
_PRONOUN_ONE_BEFORE = re.compile(r"\b(?:the|each|every|no|any|this|that|which|another|some|a|one|last|other)\s+$",
                                 re.IGNORECASE)
_PRONOUN_ONE_AFTER = re.compile(r"^\s*(?:of|another|by|more|other|at a time|day)\b", re.IGNORECASE)
_AFTER_A_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][a-z]+\s+$")  # "Sally Four" is a name


def _words_value(words: list[str]) -> Fraction | None:
    """The value of a run of number words, or ``None`` if they do not make one number ("five twenty")."""
    total, current, last = 0, 0, None
    for word in words:
        if word in _UNITS or word in _TENS:
            value = _UNITS[word] if word in _UNITS else _TENS[word]
            if last in ("unit", "teen") or (last == "tens" and (word in _TENS or value >= 10)):
                return None
            current += value
            last = "tens" if word in _TENS else "teen" if value >= 10 else "unit"
        else:
            scale = _SCALE_WORDS[word]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total, current = total + (current or 1) * scale, 0
            last = "scale"
    return Fraction(total + current)


def number_words(text: str) -> list[Found]:
    """Numbers written in words: ``ten``, ``twenty-five``, ``one hundred and five``, ``a million``,
    ``three-fourths``, ``two and a half``.

    "one" that stands for a thing ("one of the boxes", "each one") is no number, nor is a
    capitalised word after a name ("Sally Four"); a run of words that makes no one number ("one
    two three") is unclear.

    Examples
    --------
    >>> [str(f.number.value) for f in number_words("ten dollars, twenty-five, one hundred and five, three-fourths")]
    ['10', '25', '105', '3/4']
    >>> number_words("each one of them")
    []
    """
    found = []
    for match in _NUMBER_WORDS.finditer(text):
        words = [word.lower() for word in re.split(r"[\s-]+", match["words"]) if word.lower() not in ("a", "and")]
        if match["words"][0].isupper() and _AFTER_A_NAME.search(text[:match.start()]):
            continue
        if words == ["one"] and not match["denominator"] and (
                _PRONOUN_ONE_BEFORE.search(text[:match.start()]) or _PRONOUN_ONE_AFTER.match(text[match.end():])):
            continue
        value = _words_value(words)
        if value is not None and match["denominator"]:
            value /= _DENOMINATORS[match["denominator"].lower()]
        if value is not None and match["and_a_half"]:
            value += Fraction(1, 2)
        found.append(Found(match.start(), match.end(), None if value is None else Number(value, None)))
    return found


# ---------------------------------------------------------------- ordinals

_ORDINAL = re.compile(r"(?<![\w.])(\d+)(?:st|nd|rd|th)\b")


def ordinals(text: str) -> list[Found]:
    """Ordinals written in digits: ``13th`` is 13 ("in the 13th year").

    Examples
    --------
    >>> [int(f.number.value) for f in ordinals("in the 13th year, the 1st and 22nd")]
    [13, 1, 22]
    """
    return [Found(m.start(), m.end(), Number(Fraction(int(m[1])), None)) for m in _ORDINAL.finditer(text)]


# ---------------------------------------------------------------- decimal commas

# LaTeX's decimal comma 4{,}5; "{,}" before a group of three is a thousands separator (14{,}916)
_LATEX_DECIMAL_COMMA = re.compile(r"(?<![\w.,])(?P<sign>[-−])?(?P<int>\d+)\{,\}(?P<dec>\d{1,2}|\d{4,})(?!\d)")
_EUROPEAN = re.compile(r"(?<![\w.,])(?P<sign>[-−])?(?P<int>\d{1,3}(?:\.\d{3})+),(?P<dec>\d{1,2})(?![\d,.]?\d)")
_COMMA_DECIMAL = re.compile(r"(?<![\w.,\-−])(?P<sign>[-−])?(?P<int>\d+),(?P<dec>\d{1,2})(?!\d|,\s?\d|\.\d)")
_CURRENCY_BEFORE = re.compile(r"[€£$]\s?$|\b(?:EUR|euros?)\s?$", re.IGNORECASE)
_UNIT_AFTER = re.compile(
    r"^\s?(?:[€$£]|%|euros?\b|units?\b|square\s+units?\b|cl\b|dl\b|EUR\b|kg\b|g\b|km\b|cm\b|mm\b|m\b|l\b|"
    r"ml\b|litres?\b|liters?\b|h\b|Std\b|Stunden\b|"
    r"hours?\b|minutes?\b|seconds?\b|days?\b|kilos?\b|kilograms?\b|grams?\b|metres?\b|meters?\b|miles?\b|km/h\b|"
    r"°|degrees?\b|degrés\b)",
    re.IGNORECASE)


def _inside_brackets(text: str, position: int) -> bool:
    before = text[:position]
    return any(before.count(opening) > before.count(closing) for opening, closing in ("()", "[]", "{}"))


def decimal_commas(text: str) -> list[Found]:
    """Decimals written with a comma, where nothing else can be meant: ``1.234,56``, ``€3,50``, ``2,5 kg``,
    ``18,00 $``, LaTeX's ``4{,}5``.

    ``2,5`` without a currency or unit could be a list: unclear. Inside brackets or math
    (``(2,18)``, ``$-7,-6$``) it is a pair or a list, no number.

    Examples
    --------
    >>> [(f.number and str(f.number.value)) for f in decimal_commas("€3,50 and 2,5 kg, 1.234,56; 2,5 (2,18)")]
    ['7/2', '5/2', '30864/25', None]
    """
    found = []
    for match in _LATEX_DECIMAL_COMMA.finditer(text):
        value = Fraction(match["int"] + "." + match["dec"])
        found.append(Found(match.start(), match.end(), Number(-value if match["sign"] else value, len(match["dec"]))))
    for match in _EUROPEAN.finditer(text):
        value = Fraction(match["int"].replace(".", "") + "." + match["dec"])
        found.append(Found(match.start(), match.end(), Number(-value if match["sign"] else value, len(match["dec"]))))
    for match in _COMMA_DECIMAL.finditer(text):
        inside_math = text[:match.start()].count("$") % 2 == 1
        if inside_math or _inside_brackets(text, match.start()) or any(f.start <= match.start() < f.end for f in found):
            continue
        value = Fraction(match["int"] + "." + match["dec"])
        said = _CURRENCY_BEFORE.search(text[:match.start()]) or _UNIT_AFTER.match(text[match.end():])
        number = Number(-value if match["sign"] else value, len(match["dec"])) if said else None
        found.append(Found(match.start(), match.end(), number))
    return sorted(found, key=lambda f: f.start)


# ---------------------------------------------------------------- thousands grouped with dots or spaces

_GROUPS = {".": r"\.", " ": "[ \u00a0\u202f]"}


def _grouped(separator: str, last_group: str = r"\d{3}") -> re.Pattern:
    group = _GROUPS[separator]
    return re.compile(rf"(?<![\w.,])(?P<sign>[-−])?(?P<int>\d{{1,3}}(?:{group}\d{{3}})*{group}{last_group})"
                      rf"(?![\d]|[.,]\d)")


def writes_thousands_with(text: str) -> str | None:
    """The separator a text groups thousands with, when it shows one only thousands could explain: ``"."`` for
    ``3.000`` or ``1.234,56``, ``" "`` for ``21 000``; else ``None`` (``1.875`` alone is a decimal).

    Examples
    --------
    >>> [writes_thousands_with(text) for text in ("3.000 / 2 = 1.500", "21 000 $ × 12", "1.875")]
    ['.', ' ', None]
    """
    if _grouped(".", "000").search(text) or _EUROPEAN.search(text):
        return "."
    if _grouped(" ", "000").search(text):
        return " "
    return None


def grouped_thousands(separator: str) -> Reader:
    """A reader of numbers whose thousands are grouped with ``separator`` (a text that writes ``3.000`` has
    ``1.875`` for 1875; one that writes ``21 000`` has ``1 875``).

    Examples
    --------
    >>> [int(f.number.value) for f in grouped_thousands(".")("3.000 - 1.125 = 1.875")]
    [3000, 1125, 1875]
    """
    pattern = _grouped(separator)

    def read(text: str) -> list[Found]:
        return [Found(m.start(), m.end(), Number(Fraction(re.sub(r"\D", "", m["int"])) * (-1 if m["sign"] else 1),
                                                 None)) for m in pattern.finditer(text)]

    return read


# ---------------------------------------------------------------- durations in the unit asked for

UNIT_SECONDS = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60, "s": 1}
_AMOUNT = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
DURATION_PART = re.compile(
    rf"(?<![\w.,])(?P<amount>{_AMOUNT})"
    r"(?:\s*(?P<unit>weeks?|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)\b|\s?(?P<short>[dhs])\b|(?P<m>m)\b)",
    re.IGNORECASE,
)
_JOINER = re.compile(r"\s*(?:,|and|,\s*and|&)?\s*", re.IGNORECASE)


def duration_parts(text: str) -> list[tuple[int, int, Fraction, int]]:
    """Each contiguous duration expression, units from larger to smaller: ``(start, end, seconds, parts)``.

    Examples
    --------
    >>> [(int(seconds), parts) for _, _, seconds, parts in duration_parts("2 hours and 40 minutes, or 7,380 seconds")]
    [(9600, 2), (7380, 1)]
    """
    found: list[list] = []
    previous_unit = None
    for match in DURATION_PART.finditer(text):
        unit = UNIT_SECONDS[(match["unit"] or match["short"] or match["m"])[0].lower()]
        amount = Fraction(match["amount"].replace(",", "")) * unit
        if found and previous_unit is not None and unit < previous_unit \
                and _JOINER.fullmatch(text[found[-1][1]:match.start()]) is not None:
            found[-1][1:4] = [match.end(), found[-1][2] + amount, found[-1][3] + 1]
        else:
            found.append([match.start(), match.end(), amount, 1])
        previous_unit = unit
    return [tuple(expression) for expression in found]


_ASKED_UNIT = re.compile(r"\bhow\s+many\s+(?:\w+\s+){0,2}?(?P<many>weeks|days|hours|minutes|seconds)\b"
                         r"|\bhow\s+(?:long|much\s+time)\b[^?]*?\bin\s+(?P<long>weeks|days|hours|minutes|seconds)\b",
                         re.IGNORECASE)


def asked_unit(question: str | None) -> str | None:
    """The unit of time a question asks its answer in, if it names exactly one.

    Examples
    --------
    >>> asked_unit("How many minutes does she spend?"), asked_unit("How long, in hours, is the trip?")
    ('minutes', 'hours')
    >>> asked_unit("How many hours and how many minutes?") is None
    True
    """
    asked = {(match["many"] or match["long"]).lower() for match in _ASKED_UNIT.finditer(question or "")}
    return asked.pop() if len(asked) == 1 else None


def durations_in_unit(unit: str) -> Reader:
    """A reader of durations as numbers in ``unit`` (``"minutes"``): ``2 hours and 40 minutes`` is 160.

    A duration in the unit itself ("100 minutes") is left to the digit reader.

    Examples
    --------
    >>> [int(f.number.value) for f in durations_in_unit("minutes")("2 hours and 40 minutes, not 100 minutes")]
    [160]
    """
    size = UNIT_SECONDS[unit[0]]

    def durations_in(text: str) -> list[Found]:
        found = []
        for start, end, seconds, parts in duration_parts(text):
            part = DURATION_PART.match(text, start)
            assert part is not None  # duration_parts found a part there
            written_in_the_unit = parts == 1 and part[0].lower().rstrip("s").endswith(unit.rstrip("s"))
            if not written_in_the_unit:
                found.append(Found(start, end, Number(seconds / size, None)))
        return found

    return durations_in


def compound_durations(text: str) -> list[Found]:
    """A duration in several units ("2 hours and 40 minutes") where no unit is asked: 160 minutes or 2 2/3 hours,
    so unclear; in a unit the question asks it is read by `durations_in_unit` instead.

    Examples
    --------
    >>> [f.number for f in compound_durations("It takes 2 hours and 40 minutes, or 100 minutes.")]
    [None]
    """
    return [Found(start, end, None) for start, end, _, parts in duration_parts(text) if parts > 1]


# ---------------------------------------------------------------- all readers

READERS: tuple[Reader, ...] = (compound_durations, magnitudes, decimal_commas, ordinals, number_words, mixed_numbers,
                               digit_numbers)
"""The readers in order of precedence: an expression taken by one is not read by a later one."""


def found_in(text: str, readers: tuple[Reader, ...] = READERS) -> list[Found]:
    """Every expression the readers read in ``text``, in order, none overlapping an earlier reader's."""
    kept: list[Found] = []
    for reader in readers:
        kept += [found for found in reader(text) if not any(found.start < k.end and k.start < found.end for k in kept)]
    return sorted(kept, key=lambda found: found.start)


def numbers_in(text: str, readers: tuple[Reader, ...] = READERS) -> list[Number]:
    """The numbers written in ``text``, in order, by every reader (module docstring).

    Examples
    --------
    >>> [str(n.value) for n in numbers_in("She pays $70K, which is ten dollars more than in the 13th year")]
    ['70000', '10', '13']
    """
    return [found.number for found in found_in(text, readers) if found.number is not None]


def unclear_numbers_in(text: str, readers: tuple[Reader, ...] = READERS) -> list[str]:
    """The expressions in ``text`` that read as two different numbers (``70k``, ``2,5``), as written.

    Examples
    --------
    >>> unclear_numbers_in("It is 70k, or 2,5, or one two three.")
    ['70k', '2,5', 'one two three']
    """
    return [text[found.start:found.end] for found in found_in(text, readers) if found.number is None]


def as_number(text: str) -> Number | None:
    """``text`` as exactly one number (a leading ``+`` and a final full stop allowed), else ``None``.

    Examples
    --------
    >>> [as_number(t) and str(as_number(t).value) for t in ("$1,234.50", "+1", "twelve", "3 11 33", "70k")]
    ['2469/2', '1', '12', None, None]
    """
    stripped = text.strip().rstrip(".").lstrip("+")
    found = found_in(stripped)
    if len(found) != 1 or found[0].number is None or (found[0].start, found[0].end) != (0, len(stripped)):
        return None
    return found[0].number
