"""Kinds of answer values: how to read each from text and how to compare it with a reference.

A `Kind` reads every value of its kind in a text (in order) and compares a candidate with the
reference: ``True`` (equal), ``False`` (different) or ``None`` (it cannot tell: free text that
differs from the reference, a time without AM/PM that is the reference in one half of the day,
a decimal more precise than the reference that rounds to it). The kinds are numbers, clock
times, durations, years with an era, calendar dates, weekdays, entity names (``E49``), free
text, lists, sets and ToT records.

A kind may also name the *other* kinds an answer to it is sometimes written in by mistake
(`OtherKind`: a number where a date is asked), each with whether such a value could still state
the reference, whole or in part; the cascade calls an explicit answer of another kind wrong only
when it could not.
"""

from __future__ import annotations

import json
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from typing import Any

from ..models import literal_value
from ..records import AnswerFormat
from ._latex import answer_math, normal_form, same_answer
from ._numbers import (
    READERS,
    Number,
    as_number,
    asked_unit,
    compound_durations,
    duration_parts,
    durations_in_unit,
    grouped_thousands,
    numbers_in,
    unclear_numbers_in,
    writes_thousands_with,
)


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
    others : tuple of OtherKind
        Kinds an answer may be written in instead of this one, most specific first ("368" where a
        date is asked); none where another kind could be a legitimate writing of the answer.
    unclear : callable
        ``unclear(text) -> list[str]``: the expressions in ``text`` that read as two different
        values of the kind ("70k", "2,5"); a span holding one is undecided.
    """

    name: str
    read: Callable[[str], list]
    matches: Callable[[Any, Any], bool | None]
    same: Callable[[Any, Any], bool] = operator.eq
    show: Callable[[Any], str] = str
    scalar: bool = True
    restatable: bool = True
    written_with_digits: bool = True
    others: tuple[OtherKind, ...] = ()
    unclear: Callable[[str], list[str]] = lambda text: []


@dataclass(frozen=True)
class OtherKind:
    """A kind of value an answer may state instead of the reference's kind.

    Attributes
    ----------
    kind : Kind
        Reads the values of the other kind.
    could_state : callable
        ``could_state(value, reference) -> bool``: whether the value could still be the reference,
        or a part of it, written another way (a date's year for a number, a ToT record's time).
        An explicit answer of the other kind that could not is wrong; one that could is undecided.
    """

    kind: Kind
    could_state: Callable[[Any, Any], bool]


def distinct(values: list, kind: Kind) -> list:
    """The values in order, each value kept once (by `Kind.same`)."""
    kept: list = []
    for value in values:
        if not any(kind.same(value, seen) for seen in kept):
            kept.append(value)
    return kept


# ---------------------------------------------------------------- numbers

def _as_number(text: str) -> Fraction | None:
    """``text`` as exactly one number (a leading ``+`` allowed), else ``None``."""
    number = as_number(text)
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


def _more_precise(candidate: Number, decimals: int) -> bool:
    """Whether the candidate is written with more decimals than a decimal reference with ``decimals`` (a fraction
    has no end).
    """
    if candidate.decimals is None:
        return candidate.value.denominator != 1
    return candidate.decimals > decimals


def _rounds_to(candidate: Number, reference: Fraction, decimals: int) -> bool:
    """Whether the candidate is within half a unit of the reference's last decimal, its ``decimals``-th (rounded
    either way on a tie).
    """
    return abs(candidate.value - reference) <= Fraction(1, 2 * 10**decimals)


def number_matches(candidate: Number, reference: Number) -> bool | None:
    """Integers and decimals exactly; a more precise candidate that rounds to a decimal reference is undecided.

    The reference may itself be rounded ("2.5" for 2.45), or may not ("0.3" when 0.34 is wrong):
    only a later stage, which sees the question, can tell. Fractions match within a relative 1e-9.

    Examples
    --------
    >>> [n] = numbers_in("1000001"); [gold] = numbers_in("1000000"); number_matches(n, gold)
    False
    >>> [gold] = numbers_in("2.5"); [number_matches(n, gold) for n in numbers_in("2.50 5/2 2.45 2.4 1/3")]
    [True, True, None, False, False]
    >>> [gold] = numbers_in("70"); [number_matches(n, gold) for n in numbers_in("$70K, $70, 70 thousand, 7 dozen")]
    [None, True, None, False]
    """
    if candidate.value == reference.value:
        return True
    if candidate.unscaled == reference.value:
        return None  # "$70K" for 70: the question may ask in thousands
    if reference.decimals:
        decimals = reference.decimals
        rounded = _more_precise(candidate, decimals) and _rounds_to(candidate, reference.value, decimals)
        return None if rounded else False
    if reference.value.denominator == 1:
        return False
    return math.isclose(candidate.value, reference.value, rel_tol=1e-9)


def _show_number(number: Number) -> str:
    if number.value.denominator == 1:
        return str(number.value.numerator)
    if number.decimals:
        return f"{float(number.value):.{number.decimals}f}"
    return str(number.value)


NUMBER = Kind("number", numbers_in, number_matches, lambda a, b: a.value == b.value, _show_number,
              unclear=unclear_numbers_in)


def _equal_at_its_precision(number: Number, value: Fraction) -> bool:
    """Whether ``number`` is ``value``, written exactly or rounded to the decimals it is written with.

    Examples
    --------
    >>> [_equal_at_its_precision(n, Fraction(39495, 3600)) for n in numbers_in("10.97 10.9708 11")]
    [True, True, False]
    """
    if number.value == value:
        return True
    decimals = number.decimals
    return decimals is not None and decimals != 0 and _round_half_up(value, decimals) == number.value


def _run_together(larger: int, smaller: int) -> set[Fraction]:
    """Two parts of a time written as one number: 17 and 55 as ``1755`` or ``17.55``."""
    return {Fraction(100 * larger + smaller), larger + Fraction(smaller, 100)}


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


def clocks_in(text: str, twenty_four_hour: bool = False) -> list[Clock]:
    """Clock times: ``11:15``, ``11:15 AM``, ``21:44:10``, ``9am``, ``5 p.m.``.

    A time in the 1–12 hour range without AM/PM may be either half of the day, unless
    ``twenty_four_hour`` says that the text writes the 24-hour clock: then a zero-padded hour
    (``01:15``) is that hour of the morning (`writes_the_24_hour_clock`).

    Examples
    --------
    >>> [c.seconds // 60 for c in clocks_in("from 9am to 1:40 PM")]
    [540, 820]
    >>> [c.unambiguous for c in clocks_in("01:15 1:15")], [c.unambiguous for c in clocks_in("01:15 1:15", True)]
    ([False, False], [True, False])
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
        zero_padded = twenty_four_hour and match["h"].startswith("0")
        found.append(Clock(hour * 3600 + minute * 60 + second, bool(half) or hour == 0 or hour > 12 or zero_padded))
    return found


_HALF_OF_THE_DAY = re.compile(r"\d\s*[AaPp]\.?\s?[Mm]\b")
_TWENTY_FOUR_HOUR = re.compile(r"(?<![\d:])(?:1[3-9]|2[0-3]|00):[0-5]\d|\b24[- ]?(?:hour|hr|h)\b", re.IGNORECASE)


def writes_the_24_hour_clock(text: str) -> bool:
    """Whether a text writes the 24-hour clock: a time only it has (``13:40``, ``00:15``) or says so ("24-hour"),
    and no AM or PM anywhere. Then ``01:15`` in it is a quarter past one in the morning.

    Examples
    --------
    >>> [writes_the_24_hour_clock(t) for t in ("From 22:30 to 01:15.", "01:15", "13:00 or 1:15 PM", "01:15 (24hr)")]
    [True, False, False, True]
    """
    return bool(_TWENTY_FOUR_HOUR.search(text)) and not _HALF_OF_THE_DAY.search(text)


def _either_half_of_the_day(candidate: Clock, reference: Clock) -> bool:
    """Whether one of the two readings of a time without AM/PM (``10:50``: 10:50 or 22:50) is the reference."""
    return candidate.seconds % 43200 == reference.seconds % 43200


def clock_matches(candidate: Clock, reference: Clock) -> bool | None:
    """Equal times of day; a time without AM/PM against a reference whose half of the day is known is undecided.

    A candidate in the 1–12 hour range without AM/PM could be either half of the day. Against a
    reference written with AM/PM, or a 24-hour one from 13:00 or before 01:00, it is undecided
    when one of its readings is the reference and wrong when neither is. A 24-hour candidate
    (``13:40``), or a reference without AM/PM in the 1–12 range (ToT's ``04:31``), compares as
    24-hour.

    Examples
    --------
    >>> [clock_matches(c, clocks_in("10:50 PM")[0]) for c in clocks_in("22:50 10:50 10:50 AM 11:50")]
    [True, None, False, False]
    >>> [clock_matches(c, clocks_in("04:31")[0]) for c in clocks_in("4:31 4:31 PM 16:31")]
    [True, False, False]
    """
    if not candidate.unambiguous and reference.unambiguous:
        return None if _either_half_of_the_day(candidate, reference) else False
    return candidate.seconds == reference.seconds


def could_be_the_same_clock(one: Clock, other: Clock) -> bool:
    """Whether two times may be one time written twice: equal, or equal in some half of the day if one leaves it unsaid.

    Examples
    --------
    >>> [could_be_the_same_clock(c, clocks_in("10:50 PM")[0]) for c in clocks_in("10:50 22:50 10:50 AM")]
    [True, True, False]
    """
    if one.seconds == other.seconds:
        return True
    return (not one.unambiguous or not other.unambiguous) and _either_half_of_the_day(one, other)


def _show_clock(clock: Clock) -> str:
    hours, rest = divmod(clock.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


def _number_could_state_clock(number: Number, clock: Clock) -> bool:
    """Whether a number could be the clock time, or a part of it: its hour (12- or 24-hour), its minute or
    second, or its hour and minute run together (``1755``, ``5.55``).

    Examples
    --------
    >>> [_number_could_state_clock(n, clocks_in("5:55 PM")[0]) for n in numbers_in("5 17 55 555 5.55 250")]
    [True, True, True, True, True, False]
    """
    hour, rest = divmod(clock.seconds, 3600)
    minute, second = divmod(rest, 60)
    hours = {hour, hour % 12 or 12}
    parts = hours | {minute, second} | {written for h in hours for written in _run_together(h, minute)}
    return number.value in parts


CLOCK = Kind("clock time", clocks_in, clock_matches, could_be_the_same_clock, _show_clock,
             others=(OtherKind(NUMBER, _number_could_state_clock),))


# ---------------------------------------------------------------- durations

def durations_in(text: str) -> list[Fraction]:
    """Durations in seconds, each one contiguous expression with units from larger to smaller.

    ``1 hour 35 minutes`` is one duration; ``1 hour 35 minutes (95 minutes)`` holds the same
    duration twice; ``1 hour, 1 hour, 1 hour`` is three durations of an hour, not one of three;
    ``7,380 seconds`` is 7380 seconds.

    Examples
    --------
    >>> [int(s) for s in durations_in("It takes 1 hour 35 minutes (95 minutes), or 2h 5m.")]
    [5700, 5700, 7500]
    """
    return [seconds for _, _, seconds, _ in duration_parts(text)]


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


def _date_parts(date: CalendarDate) -> set[int]:
    """The numbers a date is written with, alone or run together: ``2013``, ``8``, ``24``, ``20130824`` …"""
    parts = set()
    for day in date.readings:
        parts |= {day.year, day.month, day.day}
        parts |= {int(day.strftime(order)) for order in ("%Y%m%d", "%m%d%Y", "%d%m%Y")}
    return parts


def _number_could_state_date(number: Number, date: CalendarDate) -> bool:
    """Whether a number could be the date, or a part of it (its year, month or day; ``20130824``); the same
    question tells whether a date could hold the number asked for ("What year …?" answered with a date).

    Examples
    --------
    >>> [gold] = calendar_dates_in("08/24/2013")
    >>> [_number_could_state_date(n, gold) for n in numbers_in("2013 24 20130824 368 22.14")]
    [True, True, True, False, False]
    """
    return number.value in _date_parts(date)


CALENDAR_DATE = Kind("date", calendar_dates_in, calendar_matches, lambda a, b: a.readings == b.readings,
                     show=lambda date: " or ".join(sorted(d.isoformat() for d in date.readings)),
                     others=(OtherKind(NUMBER, _number_could_state_date),))
NUMBER_ANSWER = replace(NUMBER, others=(
    OtherKind(CALENDAR_DATE, lambda date, gold: _number_could_state_date(gold, date)),))
"""A number asked for: a calendar date in its place is another kind of answer ("2005-01-13" for 21)."""


# ---------------------------------------------------------------- names and free text

def normalise_text(text: str) -> str:
    """Lower case, words only: ``"The  E49-era."`` → ``"the e49 era"``."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _could_be_a_weekday_number(number: Number, _weekday) -> bool:
    """Whether a number could name a day of the week: 0 to 7, as weeks are counted from 0 or 1, Sunday or Monday."""
    return 0 <= number.value <= 7


WEEKDAY_NUMBER = OtherKind(NUMBER, _could_be_a_weekday_number)
"""A number or ordinal where a weekday is asked ("19", "the 27th day of the week")."""

_WEEKDAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE)
WEEKDAY = Kind("weekday", lambda text: [day.lower() for day in _WEEKDAY.findall(text)], operator.eq,
               written_with_digits=False, others=(WEEKDAY_NUMBER,))

_ENTITY = re.compile(r"\b[A-Za-z]+\d+\b")
ENTITY = Kind("name", lambda text: [name.upper() for name in _ENTITY.findall(text)], operator.eq,
              restatable=False, written_with_digits=False)


def _equal_or_unknown(candidate: str, reference: str) -> bool | None:
    return True if candidate == reference else None


FREE_TEXT = Kind("text", lambda text: [normalise_text(text)] if normalise_text(text) else [], _equal_or_unknown,
                 restatable=False, written_with_digits=False)
"""The whole span as one value: equal text is correct; other text is left to a later stage."""


_LAYOUT = re.compile(r"\\(?:begin|end)\{[^{}]*\}|\\\\|&")  # "\end{align*}" closing a display is no expression


def _latex_answer(text: str) -> list[str]:
    answer = answer_math(text)
    return [answer] if answer and normal_form(_LAYOUT.sub("", answer)) else []


LATEX = Kind("expression", _latex_answer, same_answer, lambda a, b: normal_form(a) == normal_form(b), scalar=False,
             restatable=False, written_with_digits=False)
"""A LaTeX answer, read whole by the readers of `_latex`; what they cannot tell is left to math-verify."""

_SYMBOLIC = re.compile(r"[\\$^_{}π√∞%]|\d\s*!|\b(?:sqrt|pi|log|ln|exp|sin|cos|tan|cot|sec|csc)\b", re.IGNORECASE)


def written_plainly(text: str) -> bool:
    """Whether ``text`` writes its numbers plainly: no LaTeX, root, power, percent, factorial or function
    that changes what a number in it is worth (``\\sqrt{25/256}``, ``31.25%``, ``3!``).

    Examples
    --------
    >>> [written_plainly(text) for text in ("The probability is 1/100.", "It is $\\frac{1}{100}$", "31.25%")]
    [True, False, False]
    """
    return _SYMBOLIC.search(text) is None


# ---------------------------------------------------------------- lists and sets

_LEAD_IN = re.compile(r"^.*(?::|\b(?:is|are|was|were)\b)\s*", re.IGNORECASE | re.DOTALL)
_LIST_SEPARATOR = re.compile(r"\s*(?:,\s*(?:and|then)\b|,|;|\band\b|\bthen\b|->|→|\bfollowed by\b)\s*",
                             re.IGNORECASE)
_MAX_ITEM_WORDS = 3  # "working out", "plant watering"; longer is a clause, not an item
_ITEM = re.compile(rf"[\w'-]+(?:\s[\w'-]+){{0,{_MAX_ITEM_WORDS - 1}}}")


def _literal_list(text: str) -> list | None:
    value = literal_value(text)
    return list(value) if isinstance(value, (list, tuple)) else None


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
    values = (literal_value(candidate) for candidate in re.findall(r"\{[^{}]*\}", text))
    return [value for value in values if isinstance(value, dict)]


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
                from_records.append(sum((Fraction(str(record[key])) * unit for key, unit in units.items()),
                                        Fraction(0)))
            except (KeyError, ValueError, TypeError):
                continue
        if from_records:
            return from_records
        return durations_in(text) or [Fraction(int(h) * 3600 + int(m) * 60 + int(s)) for h, m, s in _HMS.findall(text)]

    return Kind("duration", read, operator.eq, show=_show_duration, scalar=False, restatable=False,
                others=(OtherKind(NUMBER, _number_could_state_duration(units)),))


def _number_could_state_duration(units: dict[str, int]) -> Callable[[Number, Fraction], bool]:
    """Whether a bare number could be a duration record, or a part of it: one of its fields, its total in one
    of its units (``39495`` seconds, ``10.97`` hours), or its two largest fields run together (``10.58``).

    Examples
    --------
    >>> could_state = _number_could_state_duration({"H": 3600, "M": 60, "S": 1})
    >>> [could_state(n, Fraction(39495)) for n in numbers_in("58 39495 10.97 10.58 4 175")]
    [True, True, True, True, False, False]
    """
    sizes = sorted(set(units.values()), reverse=True)

    def could_state(number: Number, seconds: Fraction) -> bool:
        fields, rest = [], seconds
        for size in sizes:
            whole, rest = divmod(rest, size)
            fields.append(whole)
        parts = set(fields) | (_run_together(*fields[:2]) if len(fields) > 1 else set())
        return number.value in parts or any(_equal_at_its_precision(number, seconds / size) for size in sizes)

    return could_state


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


def _same_minute_of_day(candidate: Clock, reference: Clock) -> bool:
    """The same time to the minute (either may leave the seconds out), in either half of the day if unsaid."""
    def to_the_minute(clock: Clock) -> Clock:
        return Clock(clock.seconds - clock.seconds % 60, clock.unambiguous)

    return could_be_the_same_clock(to_the_minute(candidate), to_the_minute(reference))


def _time_of_day_others(clock_key: str) -> tuple[OtherKind, ...]:
    """What a ToT ``{"day": "+3", "time": "20:48:33"}`` record is sometimes answered with instead.

    A time alone leaves the day out: it could state the record only when it is the record's time
    (to the minute). A duration could be the time, the day offset, or both, counted from midnight;
    a bare number one of the record's day offset, hour, minute or second.

    Examples
    --------
    >>> clock, duration, number = _time_of_day_others("time")
    >>> gold = {"day": "+3", "time": "20:48:33"}
    >>> [clock.could_state(c, gold) for c in clocks_in("20:48 8:48:33 12:08:58")]
    [True, True, False]
    >>> [duration.could_state(d, gold) for d in durations_in("3 days or 4.8 hours")]
    [True, False]
    >>> [number.could_state(n, gold) for n in numbers_in("3 48 175")]
    [True, True, False]
    """

    def time_of(record: dict) -> Clock:
        return clocks_in(str(record[clock_key]))[0]

    def day_offsets(record: dict) -> set[Fraction]:
        written = (_as_number(str(value)) for key, value in record.items() if key != clock_key)
        return {days for days in written if days is not None} | {Fraction(0)}

    def clock_could_state(clock: Clock, record: dict) -> bool:
        return _same_minute_of_day(clock, time_of(record))

    def duration_could_state(seconds: Fraction, record: dict) -> bool:
        since_midnight = (time_of(record).seconds, 0)
        return any(seconds // 60 == (days * 86400 + time) // 60
                   for days in day_offsets(record) for time in since_midnight)

    def number_could_state(number: Number, record: dict) -> bool:
        return _number_could_state_clock(number, time_of(record)) or number.value in day_offsets(record)

    return (OtherKind(CLOCK, clock_could_state), OtherKind(DURATION, duration_could_state),
            OtherKind(NUMBER, number_could_state))


def _fields_record_kind(keys: list[str], others: tuple[OtherKind, ...] = ()) -> Kind:
    """A record compared field by field (ToT's ``{"day": "+1", "time": "04:31"}``)."""

    def read(text: str) -> list[dict]:
        return [{key: record[key] for key in keys} for record in _record_objects(text) if set(keys) <= set(record)]

    def matches(candidate: dict, reference: dict) -> bool:
        return all(_field_matches(candidate[key], reference[key]) for key in keys)

    return Kind("record", read, matches, same=matches, show=json.dumps, scalar=False, restatable=False,
                written_with_digits=False, others=others)


def record_kind(reference: str) -> Kind | None:
    """The kind that reads and compares a ToT record reference (a JSON object)."""
    try:
        gold = json.loads(reference)
    except json.JSONDecodeError:
        return None
    if not isinstance(gold, dict) or not gold:
        return None
    units = _unit_seconds(set(gold))
    if units:
        return _time_record_kind(units)
    clock_keys = [key for key, value in gold.items() if ":" in str(value) and len(clocks_in(str(value))) == 1]
    others = _time_of_day_others(clock_keys[0]) if len(clock_keys) == 1 else ()
    return _fields_record_kind(list(gold), others)


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


def _list_kind(kind: Kind, reference: str) -> Kind:
    """A list or set of weekdays may be answered with a day's number instead; other lists are not."""
    items = lists_in(reference)
    if items and items[0] and all(_WEEKDAY.fullmatch(item) for item in items[0]):
        return replace(kind, others=(WEEKDAY_NUMBER,))
    return kind


def in_context(kind: Kind, question: str | None, reply: str) -> Kind:
    """The kind as this question and reply write its values.

    A number asked in a unit of time ("How many minutes …?") reads a duration as a number in that
    unit ("2 hours and 40 minutes" is 160); a number in a reply that groups thousands with dots or
    spaces (``3.000``, ``21 000``) is read so (``1.875`` is 1875); a clock time in a reply that
    writes the 24-hour clock reads a zero-padded hour as 24-hour ("01:15" is 1:15 AM).

    Examples
    --------
    >>> kind = in_context(NUMBER_ANSWER, "How many minutes does the walk take?", "")
    >>> [str(n.value) for n in kind.read("2 hours and 40 minutes")]
    ['160']
    >>> [c.unambiguous for c in in_context(CLOCK, None, "She left at 22:30 and came back at 01:15.").read("01:15")]
    [True]
    """
    unit, separator = asked_unit(question), writes_thousands_with(reply)
    if kind is NUMBER_ANSWER and (unit or separator):
        readers = READERS
        if unit:
            readers = (durations_in_unit(unit), *(reader for reader in readers if reader is not compound_durations))
        if separator:
            readers = (grouped_thousands(separator), *readers)
        return replace(kind, read=partial(numbers_in, readers=readers), unclear=partial(unclear_numbers_in,
                                                                                          readers=readers))
    if kind is CLOCK and writes_the_24_hour_clock(reply):
        return replace(kind, read=partial(clocks_in, twenty_four_hour=True))
    return kind


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
    if answer_format in ("list", "set"):
        return _list_kind(ORDERED_LIST if answer_format == "list" else UNORDERED_LIST, reference)
    return {"number": NUMBER_ANSWER, "clock": CLOCK, "duration": DURATION, "latex": LATEX}[answer_format]
