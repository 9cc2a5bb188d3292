"""The kinds of ToT records, registered for the ``record`` format (`record_kind`): a record of time units compared as
one duration, or a record compared field by field (``{"day": "+1", "time": "04:31"}``); each with the other kinds
such a record is sometimes answered with (a bare number, a time alone, a duration).
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable
from fractions import Fraction

from ...models import literal_value
from .._numbers import Number
from ._clock import CLOCK, Clock, clocks_in, could_be_the_same_clock, number_could_state_clock
from ._duration import DURATION, durations_in, show_duration
from ._free_text import normalise_text
from ._kind import Kind, OtherKind
from ._number import NUMBER, equal_at_its_precision, number_value, run_together
from ._registry import register

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

    return Kind("duration", read, operator.eq, show=show_duration, scalar=False, restatable=False,
                others=(OtherKind(NUMBER, _number_could_state_duration(units)),))


def _number_could_state_duration(units: dict[str, int]) -> Callable[[Number, Fraction], bool]:
    """Whether a bare number could be a duration record, or a part of it: one of its fields, its total in one
    of its units (``39495`` seconds, ``10.97`` hours), or its two largest fields run together (``10.58``).

    Examples
    --------
    >>> from .._numbers import numbers_in
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
        parts = set(fields) | (run_together(*fields[:2]) if len(fields) > 1 else set())
        return number.value in parts or any(equal_at_its_precision(number, seconds / size) for size in sizes)

    return could_state


def _field_matches(candidate, reference) -> bool:
    """One field of a record: numbers by value (``"+1"`` = 1), clock times as times, else the text."""
    candidate, reference = str(candidate), str(reference)
    numbers = number_value(candidate), number_value(reference)
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
    >>> from .._numbers import numbers_in
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
        written = (number_value(str(value)) for key, value in record.items() if key != clock_key)
        return {days for days in written if days is not None} | {Fraction(0)}

    def clock_could_state(clock: Clock, record: dict) -> bool:
        return _same_minute_of_day(clock, time_of(record))

    def duration_could_state(seconds: Fraction, record: dict) -> bool:
        since_midnight = (time_of(record).seconds, 0)
        return any(seconds // 60 == (days * 86400 + time) // 60
                   for days in day_offsets(record) for time in since_midnight)

    def number_could_state(number: Number, record: dict) -> bool:
        return number_could_state_clock(number, time_of(record)) or number.value in day_offsets(record)

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


register("record", record_kind, recognises=lambda reference: reference.startswith("{")
         and reference.endswith("}") and record_kind(reference) is not None)
