"""Kinds of answer values: how to read each from text and how to compare it with a reference.

A `Kind` reads every value of its kind in a text (in order) and compares a candidate with the
reference: ``True`` (equal), ``False`` (different) or ``None`` (it cannot tell: free text that
differs from the reference). The kinds are numbers, clock times, durations, years with an era,
calendar dates, weekdays, entity names (``E49``), free text, lists, sets and ToT records.
"""

from __future__ import annotations

import ast
import json
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..records import AnswerFormat


@dataclass(frozen=True)
class Kind:
    """How one kind of value is read from text and compared.

    Attributes
    ----------
    name : str
        Shown in explanations ("number", "clock time" …).
    read : callable
        ``read(text) -> list`` of the values of this kind in ``text``, in order.
    matches : callable
        ``matches(candidate, reference) -> bool | None``.
    same : callable
        Whether two values found in a reply are one value written twice (``"$18"`` and ``"18"``).
    show : callable
        A value as short text, for `Judgement.extracted`.
    scalar : bool
        A single value, read after the last ``=`` of an equation; lists and records are read whole.
    restatable : bool
        The question may state such a value without it being the answer (numbers, times, dates,
        weekdays); a name the question offers as a choice (``E49``) is not.
    written_with_digits : bool
        Values of this kind contain digits, so a concluding sentence without any states no answer.
    """

    name: str
    read: Callable[[str], list]
    matches: Callable[[Any, Any], bool | None]
    same: Callable[[Any, Any], bool] = operator.eq
    show: Callable[[Any], str] = str
    scalar: bool = True
    restatable: bool = True
    written_with_digits: bool = True


def distinct(values: list, kind: Kind) -> list:
    """The values in order, each value kept once (by `Kind.same`)."""
    kept: list = []
    for value in values:
        if not any(kind.same(value, seen) for seen in kept):
            kept.append(value)
    return kept


# ---------------------------------------------------------------- numbers

@dataclass(frozen=True)
class Number:
    value: Fraction
    decimals: int | None  # digits written after the decimal point; None for integers and fractions


_NUMBER = re.compile(
    r"""(?<![\w.,/:\-−–])                           # not inside a word, a decimal, a list "1,2", a date or a clock
        (?P<sign>[-−])?(?:\\?\$\s?)?
        (?:\\d?frac\{(?P<tex_num>\d+)\}\{(?P<tex_den>\d+)\}   # \frac{3}{4}
          |(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<dec>\.\d+)?      # 1,234.50 (separators only in groups of three)
           (?:\s*/\s*(?P<den>\d+)(?![/\d]))?                   # 3/4
        )
        (?P<percent>\s?%)?
        (?![\-/:,.–]?\d|st\b|nd\b|rd\b|th\b)          # not followed by more digits of a date, list or clock
    """,
    re.VERBOSE,
)


def _number_from(match: re.Match) -> Number | None:
    sign = -1 if match["sign"] else 1
    if match["tex_num"]:
        numerator, denominator, decimals = int(match["tex_num"]), int(match["tex_den"]), None
    else:
        written = match["int"].replace(",", "") + (match["dec"] or "")
        numerator = Fraction(written)
        denominator = int(match["den"]) if match["den"] else 1
        decimals = len(match["dec"]) - 1 if match["dec"] and not match["den"] else None
    if denominator == 0:
        return None
    return Number(sign * Fraction(numerator) / denominator, decimals)


_STEP_LABEL = re.compile(r"\bsteps?\s+\d+\b", re.IGNORECASE)


def numbers_in(text: str) -> list[Number]:
    """The numbers written in ``text``: ``18``, ``-3``, ``$1,234.50``, ``3/4``, ``\\frac{3}{4}``, ``45%``.

    Thousands separators count only in groups of three, so ``1,2,3`` holds no number; digits
    of clock times, dates and labels (``E49``, ``Step 2``, ``3rd``) are not numbers.

    Examples
    --------
    >>> [float(n.value) for n in numbers_in("She pays $1,234.50 for 3/4 of it, not 1,2,3.")]
    [1234.5, 0.75]
    """
    found = (_number_from(match) for match in _NUMBER.finditer(_STEP_LABEL.sub(" ", text)))
    return [number for number in found if number is not None]


def _as_number(text: str) -> Fraction | None:
    """``text`` as exactly one number (a leading ``+`` allowed), else ``None``."""
    match = _NUMBER.fullmatch(text.strip().rstrip(".").lstrip("+"))
    number = _number_from(match) if match else None
    return number.value if number else None


def parse_number(text: str) -> float | None:
    """``text`` as one number, or ``None`` if it is not exactly one number.

    Examples
    --------
    >>> parse_number("$1,234.50"), parse_number("3 11 33")
    (1234.5, None)
    """
    value = _as_number(text)
    return None if value is None else float(value)


def _round_half_up(value: Fraction, decimals: int) -> Fraction:
    scale = 10**decimals
    magnitude = Fraction(math.floor(abs(value) * scale + Fraction(1, 2)), scale)
    return magnitude if value >= 0 else -magnitude


def number_matches(candidate: Number, reference: Number) -> bool:
    """Integers exactly; a decimal reference at its own precision; fractions within a relative 1e-9.

    Examples
    --------
    >>> [n] = numbers_in("1000001"); [gold] = numbers_in("1000000"); number_matches(n, gold)
    False
    >>> [n] = numbers_in("0.333"); [gold] = numbers_in("0.33"); number_matches(n, gold)
    True
    """
    if candidate.value == reference.value:
        return True
    if reference.decimals:
        return _round_half_up(candidate.value, reference.decimals) == reference.value
    if reference.value.denominator == 1:
        return False
    return math.isclose(candidate.value, reference.value, rel_tol=1e-9)


def _show_number(number: Number) -> str:
    if number.value.denominator == 1:
        return str(number.value.numerator)
    if number.decimals:
        return f"{float(number.value):.{number.decimals}f}"
    return str(number.value)


NUMBER = Kind("number", numbers_in, number_matches, lambda a, b: a.value == b.value, _show_number)

_NUMBER_WORD = re.compile(r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|"
                          r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|half)\b",
                          re.IGNORECASE)


def mentions_a_number(text: str) -> bool:
    """Whether ``text`` holds a digit or a number word (which only a later stage can read)."""
    return bool(re.search(r"\d", text) or _NUMBER_WORD.search(text))


# ---------------------------------------------------------------- clock times

@dataclass(frozen=True)
class Clock:
    seconds: int  # after midnight, 24-hour
    unambiguous: bool  # written with AM/PM, or an hour only a 24-hour clock has (0, 13…23)


_CLOCK = re.compile(
    r"(?<![\d:.])(?P<h>\d{1,2})(?::(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?)?(?![\d:])"
    r"(?:\s*(?P<half>[AaPp])\.?\s?[Mm]\b\.?)?"
)


def clocks_in(text: str) -> list[Clock]:
    """Clock times: ``11:15``, ``11:15 AM``, ``21:44:10``, ``9am``, ``5 p.m.``.

    Examples
    --------
    >>> [c.seconds // 60 for c in clocks_in("from 9am to 1:40 PM")]
    [540, 820]
    """
    found = []
    for match in _CLOCK.finditer(text):
        if match["m"] is None and match["half"] is None:
            continue  # a bare number
        hour, minute, second = int(match["h"]), int(match["m"] or 0), int(match["s"] or 0)
        half = (match["half"] or "").lower()
        if hour > 23 or (half and not 1 <= hour <= 12):
            continue
        if half:
            hour = hour % 12 + (12 if half == "p" else 0)
        found.append(Clock(hour * 3600 + minute * 60 + second, bool(half) or hour == 0 or hour > 12))
    return found


def clock_matches(candidate: Clock, reference: Clock) -> bool:
    """Equal times of day; a time written without AM/PM may be either half of the day."""
    if candidate.seconds == reference.seconds:
        return True
    return not candidate.unambiguous and candidate.seconds % 43200 == reference.seconds % 43200


def _show_clock(clock: Clock) -> str:
    hours, rest = divmod(clock.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


CLOCK = Kind("clock time", clocks_in, clock_matches,
             lambda a, b: clock_matches(a, b) or clock_matches(b, a), _show_clock)


# ---------------------------------------------------------------- durations

_UNIT_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_DURATION_PART = re.compile(
    r"(?<![\w.])(?P<amount>\d+(?:\.\d+)?)"
    r"(?:\s*(?P<unit>days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)\b|(?P<short>[dhms])\b)",
    re.IGNORECASE,
)
_JOINER = re.compile(r"\s*(?:,|and|,\s*and|&)?\s*", re.IGNORECASE)


def durations_in(text: str) -> list[Fraction]:
    """Durations in seconds, each one contiguous expression with units from larger to smaller.

    ``1 hour 35 minutes`` is one duration; ``1 hour 35 minutes (95 minutes)`` holds the same
    duration twice; ``1 hour, 1 hour, 1 hour`` is three durations of an hour, not one of three.

    Examples
    --------
    >>> [int(s) for s in durations_in("It takes 1 hour 35 minutes (95 minutes), or 2h 5m.")]
    [5700, 5700, 7500]
    """
    found: list[Fraction] = []
    previous_unit, previous_end = None, None
    for match in _DURATION_PART.finditer(text):
        unit = _UNIT_SECONDS[(match["unit"] or match["short"])[0].lower()]
        amount = Fraction(match["amount"]) * unit
        continues = (previous_unit is not None and unit < previous_unit
                     and _JOINER.fullmatch(text[previous_end:match.start()]) is not None)
        if continues:
            found[-1] += amount
        else:
            found.append(amount)
        previous_unit, previous_end = unit, match.end()
    return found


def _show_duration(seconds: Fraction) -> str:
    """``5700`` → ``"1 h 35 min"``."""
    parts, rest = [], seconds
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        whole, rest = divmod(rest, size)
        if whole:
            parts.append(f"{whole} {unit}")
    if rest or not parts:
        parts.append(f"{float(rest):g} s")
    return " ".join(parts)


DURATION = Kind("duration", durations_in, operator.eq, show=_show_duration)


# ---------------------------------------------------------------- years and calendar dates

_YEAR = re.compile(r"(?<![\w.])(?P<year>\d{1,5})\s*(?P<era>BCE|BC|AD|CE|B\.C\.(?:E\.)?|A\.D\.|C\.E\.)(?![\w])"
                   r"|(?<![\w.])(?P<era_first>AD|A\.D\.)\s*(?P<year_after>\d{1,5})(?![\w.])")


def years_in(text: str) -> list[int]:
    """Years written with an era, BC as negative: ``352 BC -> -352``, ``AD 1057 -> 1057``.

    Examples
    --------
    >>> years_in("from 360 BC to 302 AD")
    [-360, 302]
    """
    found = []
    for match in _YEAR.finditer(text):
        era = (match["era"] or match["era_first"]).replace(".", "")
        year = int(match["year"] or match["year_after"])
        found.append(-year if era.startswith("B") else year)
    return found


YEAR = Kind("year", years_in, operator.eq, show=lambda y: f"{-y} BC" if y < 0 else f"{y} AD")

_CALENDAR = re.compile(
    r"\b(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/-]\d{1,2}[/-]\d{4}|\d{4}-[A-Za-z]{3}-\d{1,2}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9},?\s+\d{4}|[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})\b"
)


@dataclass(frozen=True)
class CalendarDate:
    readings: frozenset  # one date; two when day and month could be either way round ("09-04-2014")
    digits: tuple[int, ...] | None  # the numbers as written, for an all-numeric date


_EITHER_ORDER = re.compile(r"(\d{1,2})-(\d{1,2})-\d{4}")  # ToT writes both dd-mm-yyyy and mm-dd-yyyy


def calendar_dates_in(text: str) -> list[CalendarDate]:
    """Calendar dates: ``2004-01-11``, ``12/11/2011`` (month first), ``24 May, 2023``, ``Dec 11, 2011``…

    ``07-27-2002`` is month first because 27 is no month; ``09-04-2014`` may be either.

    Examples
    --------
    >>> [sorted(d.isoformat() for d in found.readings) for found in calendar_dates_in("Dec 11, 2011 or 09-04-2014")]
    [['2011-12-11'], ['2014-04-09', '2014-09-04']]
    """
    from dateutil import parser

    found = []
    for match in _CALENDAR.finditer(text):
        written = match.group(0)
        try:
            readings = {parser.parse(written, dayfirst=False).date()}
        except (ValueError, OverflowError):
            continue  # a word that only looked like a month
        either = _EITHER_ORDER.fullmatch(written)
        if either and max(int(either[1]), int(either[2])) <= 12:
            readings.add(parser.parse(written, dayfirst=True).date())
        digits = tuple(map(int, re.findall(r"\d+", written))) if re.fullmatch(r"[\d/-]+", written) else None
        found.append(CalendarDate(frozenset(readings), digits))
    return found


def calendar_matches(candidate: CalendarDate, reference: CalendarDate) -> bool | None:
    """The same date; ``None`` when it depends on an unknown day-month order."""
    if candidate.digits is not None and candidate.digits == reference.digits:
        return True
    if not candidate.readings & reference.readings:
        return False
    return True if len(candidate.readings) == len(reference.readings) == 1 else None


CALENDAR_DATE = Kind("date", calendar_dates_in, calendar_matches, lambda a, b: a.readings == b.readings,
                     show=lambda date: " or ".join(sorted(d.isoformat() for d in date.readings)))


# ---------------------------------------------------------------- names and free text

def normalise_text(text: str) -> str:
    """Lower case, words only: ``"The  E49-era."`` → ``"the e49 era"``."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


_WEEKDAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE)
WEEKDAY = Kind("weekday", lambda text: [day.lower() for day in _WEEKDAY.findall(text)], operator.eq,
               written_with_digits=False)

_ENTITY = re.compile(r"\b[A-Za-z]+\d+\b")
ENTITY = Kind("name", lambda text: [name.upper() for name in _ENTITY.findall(text)], operator.eq,
              restatable=False, written_with_digits=False)


def _equal_or_unknown(candidate: str, reference: str) -> bool | None:
    return True if candidate == reference else None


FREE_TEXT = Kind("text", lambda text: [normalise_text(text)] if normalise_text(text) else [], _equal_or_unknown,
                 restatable=False, written_with_digits=False)
"""The whole span as one value: equal text is correct; other text is left to a later stage."""


def _compact_latex(text: str) -> list[str]:
    compact = re.sub(r"\s+|\$", "", text).rstrip(".")
    return [compact] if compact else []


LATEX = Kind("expression", _compact_latex, _equal_or_unknown, restatable=False, written_with_digits=False)
"""A LaTeX answer: the same text is correct; any other is left to math-verify."""


# ---------------------------------------------------------------- lists and sets

_LEAD_IN = re.compile(r"^.*(?::|\b(?:is|are|was|were)\b)\s*", re.IGNORECASE | re.DOTALL)
_LIST_SEPARATOR = re.compile(r"\s*(?:,\s*(?:and|then)\b|,|;|\band\b|\bthen\b|->|→|\bfollowed by\b)\s*",
                             re.IGNORECASE)
_MAX_ITEM_WORDS = 3  # "working out", "plant watering"; longer is a clause, not an item
_ITEM = re.compile(rf"[\w'-]+(?:\s[\w'-]+){{0,{_MAX_ITEM_WORDS - 1}}}")


def _literal_list(text: str) -> list | None:
    for loader in (json.loads, ast.literal_eval):
        try:
            value = loader(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, (list, tuple)):
            return list(value)
    return None


def _prose_list(text: str) -> list[str] | None:
    """``"The days are Thursday and Friday."`` → ``["Thursday", "Friday"]``; ``None`` unless every item is short."""
    body = _LEAD_IN.sub("", text).strip().strip(".!*_`\"'")
    items = [re.sub(r"^(?:the|a|an)\s+", "", item.strip("*_`\"' "), flags=re.IGNORECASE)
             for item in _LIST_SEPARATOR.split(body)]
    if not items or not all(_ITEM.fullmatch(item) for item in items):
        return None
    return items


def lists_in(text: str) -> list[tuple[str, ...]]:
    """The list a span states, as normalised items: a JSON or Python list, or a plain prose list.

    Examples
    --------
    >>> lists_in("The days are Thursday and Friday."), lists_in("Joe, then Jenny, then Jason")
    ([('thursday', 'friday')], [('joe', 'jenny', 'jason')])
    >>> lists_in("Kyle and Joe have exams after the cut-off.")
    []
    """
    stripped = text.strip().rstrip(".")
    bracketed = re.findall(r"\[[^\[\]]*\]", stripped)
    items = _literal_list(bracketed[-1]) if bracketed else _prose_list(stripped)
    return [] if items is None else [tuple(normalise_text(str(item)) for item in items)]


ORDERED_LIST = Kind("list", lists_in, operator.eq, show=", ".join, scalar=False, restatable=False,
                    written_with_digits=False)
UNORDERED_LIST = Kind("set", lists_in, lambda a, b: sorted(a) == sorted(b), show=", ".join, scalar=False,
                      restatable=False, written_with_digits=False)


# ---------------------------------------------------------------- ToT records

_TIME_KEYS = {"days": 86400, "hours": 3600, "minutes": 60, "seconds": 1}
_LETTER_TRIPLES = ("HMS", "XYZ", "ABC")  # ToT names hours, minutes and seconds by these letters


def _record_objects(text: str) -> list[dict]:
    """JSON or Python-style objects in a span (the committed-answer reader writes records as JSON)."""
    found = []
    for candidate in re.findall(r"\{[^{}]*\}", text):
        for loader in (json.loads, ast.literal_eval):
            try:
                value = loader(candidate)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            if isinstance(value, dict):
                found.append(value)
            break
    return found


def _unit_seconds(keys: set[str]) -> dict[str, int] | None:
    """Seconds per key when a record's keys are time units (``hours/minutes/seconds``, ``H/M/S`` …)."""
    if keys and keys <= set(_TIME_KEYS):
        return {key: _TIME_KEYS[key] for key in keys}
    for letters in _LETTER_TRIPLES:
        if keys == set(letters):
            return dict(zip(letters, (3600, 60, 1)))
    return None


_HMS = re.compile(r"(?<![\d:])(\d{1,3}):([0-5]\d):([0-5]\d)(?![\d:])")


def _time_record_kind(units: dict[str, int]) -> Kind:
    """A record of time units compared as one duration, read from the record or from prose."""

    def read(text: str) -> list[Fraction]:
        from_records = []
        for record in _record_objects(text):
            try:
                from_records.append(sum(Fraction(str(record[key])) * unit for key, unit in units.items()))
            except (KeyError, ValueError, TypeError):
                continue
        if from_records:
            return from_records
        return durations_in(text) or [Fraction(int(h) * 3600 + int(m) * 60 + int(s)) for h, m, s in _HMS.findall(text)]

    return Kind("duration", read, operator.eq, show=_show_duration, scalar=False, restatable=False)


def _field_matches(candidate, reference) -> bool:
    """One field of a record: numbers by value (``"+1"`` = 1), clock times as times, else the text."""
    candidate, reference = str(candidate), str(reference)
    numbers = _as_number(candidate), _as_number(reference)
    if None not in numbers:
        return numbers[0] == numbers[1]
    clocks = clocks_in(candidate), clocks_in(reference)
    if all(len(found) == 1 for found in clocks):
        return clocks[0][0].seconds == clocks[1][0].seconds
    return normalise_text(candidate) == normalise_text(reference)


def _fields_record_kind(keys: list[str]) -> Kind:
    """A record compared field by field (ToT's ``{"day": "+1", "time": "04:31"}``)."""

    def read(text: str) -> list[dict]:
        return [{key: record[key] for key in keys} for record in _record_objects(text) if set(keys) <= set(record)]

    def matches(candidate: dict, reference: dict) -> bool:
        return all(_field_matches(candidate[key], reference[key]) for key in keys)

    return Kind("record", read, matches, same=matches, show=json.dumps, scalar=False, restatable=False,
                written_with_digits=False)


def record_kind(reference: str) -> Kind | None:
    """The kind that reads and compares a ToT record reference (a JSON object)."""
    try:
        gold = json.loads(reference)
    except json.JSONDecodeError:
        return None
    if not isinstance(gold, dict) or not gold:
        return None
    units = _unit_seconds(set(gold))
    return _time_record_kind(units) if units else _fields_record_kind(list(gold))


# ---------------------------------------------------------------- choosing the kind

def infer_format(reference: str) -> AnswerFormat:
    """Guess how a reference answer is written when the task does not say.

    Examples
    --------
    >>> [infer_format(r) for r in ("18", "11:15 AM", "352 BC", "95 minutes", r"\\frac{1}{2}", "E49")]
    ['number', 'clock', 'date', 'duration', 'latex', 'text']
    """
    ref = reference.strip()
    if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?\s*([AaPp]\.?[Mm]\.?)?", ref):
        return "clock"
    if _YEAR.fullmatch(ref) or _CALENDAR.fullmatch(ref):
        return "date"
    if parse_number(ref) is not None and "\\" not in ref:
        return "number"
    if ref.startswith("[") and ref.endswith("]"):
        return "list"
    if ref.startswith("{") and ref.endswith("}") and record_kind(ref) is not None:
        return "record"
    if "\\" in ref or "^" in ref or "{" in ref:
        return "latex"
    if re.fullmatch(r"(\s*\d+(\.\d+)?\s*(days?|hours?|minutes?|seconds?)\s*,?\s*(and)?)+", ref, re.IGNORECASE):
        return "duration"
    return "text"


def _text_kind(reference: str) -> Kind:
    if _WEEKDAY.fullmatch(reference.strip()):
        return WEEKDAY
    if _ENTITY.fullmatch(reference.strip()):
        return ENTITY
    return FREE_TEXT


def kind_for(reference: str, answer_format: AnswerFormat) -> Kind | None:
    """The kind that reads and compares answers to ``reference``; ``None`` for a record that is no JSON object.

    Examples
    --------
    >>> [kind_for(r, f).name for r, f in (("352 BC", "date"), ("Thursday", "text"), (r"\\sqrt{2}", "latex"))]
    ['year', 'weekday', 'expression']
    """
    if answer_format == "date":
        return YEAR if years_in(reference) else CALENDAR_DATE
    if answer_format == "record":
        return record_kind(reference)
    if answer_format == "text":
        return _text_kind(reference)
    return {"number": NUMBER, "clock": CLOCK, "duration": DURATION, "list": ORDERED_LIST, "set": UNORDERED_LIST,
            "latex": LATEX}[answer_format]
