"""Deciding whether an answer equals the reference *in value*: a cascade of three stages.

1. ``deterministic``: extract the final answer from free text and compare it with the
   reference after normalisation (numbers with tolerance, money, fractions, percentages,
   clock times, durations, years with BC/AD, lists).
2. ``math_verify``: `math-verify` for LaTeX references (MATH).
3. ``llm_judge``: an LLM sees only the extracted answer and the reference, for what the
   first two stages cannot decide. Optional; without it such items are ``no_answer``.

Every `Judgement` records which stage decided.
"""

from __future__ import annotations

import ast
import datetime
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .records import AnswerFormat
from .structured import parse_json_object


@dataclass(frozen=True)
class Judgement:
    correct: bool | None
    extracted: str | None
    decided_by: str  # "deterministic", "math_verify", "llm_judge", "no_answer" or "error"
    explanation: str = ""


# ---------------------------------------------------------------- extraction

_BOXED = re.compile(r"\\boxed\s*\{")
_ANSWER_LINE = re.compile(
    r"(?:final answer|the answer is|answer)\s*(?:is)?\s*[:=]?\s*(.+)", re.IGNORECASE
)


def last_boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{…}`` with balanced braces, or ``None``."""
    starts = [m.end() for m in _BOXED.finditer(text)]
    if not starts:
        return None
    depth, start = 1, starts[-1]
    for position in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[position], 0)
        if depth == 0:
            return text[start:position].strip()
    return None


def _last_json_object(text: str) -> dict | None:
    """The last JSON object in the text, or else the last flat Python-style dict (ToT labels use both)."""
    found = parse_json_object(text)
    if found is not None:
        return found
    for match in reversed(list(re.finditer(r"\{[^{}]*\}", text))):
        try:
            obj = ast.literal_eval(match.group(0))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(obj, dict):
            return obj
    return None


def _json_answer(text: str) -> str | None:
    """The answer field of the last JSON-like object in the text (ToT's answer format)."""
    obj = _last_json_object(text)
    for key in ("answer", "date", "ordered_list", "unordered_list"):
        if obj is not None and key in obj:
            value = obj[key]
            return json.dumps(value) if isinstance(value, list) else str(value)
    return None


def extract_answer(text: str) -> str:
    """The span of ``text`` that holds the final answer.

    In order: the last ``\\boxed{}``, the ``answer`` of a JSON object, the rest of the
    last line that announces an answer ("Answer: 42", "the answer is 42"); failing
    those, the whole text (the comparison then takes the last value of the right kind,
    which is what small models that never announce their answer need).

    Examples
    --------
    >>> extract_answer("so we get 5. Answer: $42")
    '$42'
    >>> extract_answer(r"thus \\boxed{\\frac{1}{2}}.")
    '\\\\frac{1}{2}'
    """
    boxed = last_boxed(text)
    if boxed is not None:
        return boxed
    from_json = _json_answer(text)
    if from_json is not None:
        return from_json
    lines = [m.group(1).strip() for m in _ANSWER_LINE.finditer(text)]
    lines = [line for line in lines if line]
    return lines[-1] if lines else text


# ---------------------------------------------------------------- normalisation

_NUMBER = re.compile(r"(?<![\w.])[-−]?\$?\s?\d[\d,]*(?:\.\d+)?(?:\s*/\s*\d+(?:\.\d+)?)?%?")
_CLOCK = re.compile(r"\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp])?\.?\s*(?:[Mm]\.?)?(?![\w:])")
_YEAR = re.compile(r"\b(\d{1,5})\s*(BC|BCE|AD|CE)\b", re.IGNORECASE)
_DURATION_PART = re.compile(
    r"(\d+(?:\.\d+)?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b", re.IGNORECASE
)
_UNIT_MINUTES = {"d": 1440, "h": 60, "m": 1, "s": 1 / 60}


def parse_number(text: str) -> float | None:
    """A number written as ``42``, ``-3``, ``$1,234.50``, ``3/4``, ``45%`` or ``2.5``; else ``None``.

    ``"3 11 33"`` (three numbers) is not a number.
    """
    cleaned = text.strip().replace("−", "-").replace("$", "").replace(",", "").rstrip("%.").strip()
    match = re.fullmatch(r"(-?\d+(?:\.\d+)?)(?:\s*/\s*(\d+(?:\.\d+)?))?", cleaned)
    if not match:
        return None
    numerator, denominator = match.groups()
    if denominator is not None:
        return float(numerator) / float(denominator) if float(denominator) else None
    return float(numerator)


def numbers_in(text: str) -> list[float]:
    values = (parse_number(match.group(0)) for match in _NUMBER.finditer(text))
    return [value for value in values if value is not None]


def clocks_in(text: str) -> list[tuple[int, bool]]:
    """Clock times as ``(minutes after midnight, has_am_pm)``; 12-hour times are made 24-hour."""
    found = []
    for hours, minutes, _seconds, half in _CLOCK.findall(text):
        h, m = int(hours), int(minutes)
        if h > 23 or m > 59:
            continue
        if half:
            h = h % 12 + (12 if half.lower() == "p" else 0)
        found.append((h * 60 + m, bool(half)))
    return found


def duration_minutes(text: str) -> float | None:
    """A duration such as ``1 hour 35 minutes`` or ``2h 5m`` in minutes; ``None`` if none."""
    parts = _DURATION_PART.findall(text)
    if not parts:
        return None
    return sum(float(amount) * _UNIT_MINUTES[unit[0].lower()] for amount, unit in parts)


def years_in(text: str) -> list[int]:
    """Years with an era, BC as negative: ``352 BC -> -352``."""
    return [(-1 if era.upper().startswith("B") else 1) * int(year) for year, era in _YEAR.findall(text)]


def normalise_text(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def infer_format(reference: str) -> AnswerFormat:
    """Guess how a reference answer is written when the task does not say."""
    ref = reference.strip()
    if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?\s*([AaPp]\.?[Mm]\.?)?", ref):
        return "clock"
    if _YEAR.fullmatch(ref) or _CALENDAR.fullmatch(ref):
        return "date"
    if parse_number(ref) is not None:
        return "number"
    if ref.startswith("[") and ref.endswith("]"):
        return "list"
    if ref.startswith('{"') and ref.endswith("}"):
        return "record"
    if "\\" in ref or "^" in ref or "{" in ref:
        return "latex"
    if re.fullmatch(r"(\s*\d+(\.\d+)?\s*(days?|hours?|minutes?|seconds?)\s*,?\s*(and)?)+", ref, re.IGNORECASE):
        return "duration"
    return "text"


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


_CALENDAR = re.compile(
    r"\b(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{4}|\d{4}-[A-Za-z]{3}-\d{1,2}"
    r"|\d{1,2}\s+[A-Za-z]{3,9},?\s+\d{4}|[A-Za-z]{3,9}\s+\d{1,2},?\s+\d{4})\b"
)


def calendar_dates_in(text: str) -> list[datetime.date]:
    """Calendar dates written as ``2004-01-11``, ``12/11/2011`` (month first), ``24 May, 2023``, ``May 24 2023``."""
    from dateutil import parser

    found = []
    for match in _CALENDAR.finditer(text):
        try:
            found.append(parser.parse(match.group(0), dayfirst=False).date())
        except (ValueError, OverflowError):
            continue
    return found


def _items(text: str) -> list[str] | None:
    """A list from JSON or Python syntax, or else comma-separated text."""
    for loader in (json.loads, ast.literal_eval):
        try:
            value = loader(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, (list, tuple)):
            return [normalise_text(str(item)) for item in value]
    parts = [normalise_text(part) for part in re.split(r",|\band\b", text.strip("[]() .")) if part.strip()]
    return parts or None


_TIME_KEYS = {"days": 86400, "hours": 3600, "minutes": 60, "seconds": 1}
_LETTER_TRIPLES = ({"H", "M", "S"}, {"X", "Y", "Z"}, {"A", "B", "C"})


def _seconds_of(record: dict) -> float | None:
    """A record of time units (``hours/minutes/seconds`` or ``H/M/S``-style triples) in seconds."""
    keys = set(record)
    try:
        if keys <= set(_TIME_KEYS):
            return sum(float(record[k]) * _TIME_KEYS[k] for k in keys)
        if keys in _LETTER_TRIPLES:
            first, second, third = sorted(keys, key="HMSXYZABC".index)
            return float(record[first]) * 3600 + float(record[second]) * 60 + float(record[third])
    except (TypeError, ValueError):
        return None
    return None


def _same_value(a, b) -> bool:
    x, y = parse_number(str(a)), parse_number(str(b))
    if x is not None and y is not None:
        return _close(x, y)
    return normalise_text(str(a)) == normalise_text(str(b))


def _compare_record(response: str, reference: str) -> Judgement | None:
    gold = json.loads(reference)
    candidate = _last_json_object(response)
    if candidate is not None and set(gold) <= set(candidate):
        equal = all(_same_value(candidate[key], gold[key]) for key in gold)
        return Judgement(equal, json.dumps({k: candidate[k] for k in gold}), "deterministic")
    gold_seconds, found = _seconds_of(gold), duration_minutes(extract_answer(response))
    if gold_seconds is not None and found is not None:
        return Judgement(_close(found * 60, gold_seconds), f"{found:g} min", "deterministic")
    return None


def compare_deterministic(response: str, reference: str, answer_format: AnswerFormat) -> Judgement | None:
    """Stage 1. A verdict if the reference's kind of value can be read from the response, else ``None``.

    Inside an announced answer ("Answer: 18. I checked 3 ways") the first value counts;
    in unannounced free text, the last one.
    """
    span = extract_answer(response)
    announced = span != response

    def pick(in_span: list, in_response: list):
        return (in_span[0] if announced else in_span[-1]) if in_span else (in_response[-1] if in_response else None)

    if answer_format == "clock":
        gold, found = clocks_in(reference), pick(clocks_in(span), clocks_in(response))
        if not gold or found is None:
            return None
        (gold_minutes, _), (minutes, has_half) = gold[0], found
        equal = minutes == gold_minutes or (not has_half and minutes % 720 == gold_minutes % 720)
        return Judgement(equal, _clock_text(minutes), "deterministic")
    if answer_format == "date":
        gold_years = years_in(reference)
        if gold_years:
            year = pick(years_in(span), years_in(response))
            return None if year is None else Judgement(year == gold_years[0], str(year), "deterministic")
        gold_dates, found_date = calendar_dates_in(reference), pick(calendar_dates_in(span), calendar_dates_in(response))
        if not gold_dates or found_date is None:
            return None
        return Judgement(found_date == gold_dates[0], found_date.isoformat(), "deterministic")
    if answer_format == "duration":
        gold_minutes, found_minutes = duration_minutes(reference), duration_minutes(span)
        if gold_minutes is None or found_minutes is None:
            return None
        return Judgement(_close(found_minutes, gold_minutes), f"{found_minutes:g} min", "deterministic")
    if answer_format in ("list", "set"):
        gold_items, found_items = _items(reference), _items(span)
        if gold_items is None or not found_items:
            return None
        equal = gold_items == found_items if answer_format == "list" else sorted(gold_items) == sorted(found_items)
        return Judgement(equal, span, "deterministic")
    if answer_format == "record":
        return _compare_record(response, reference)
    if answer_format == "number":
        gold, found = parse_number(reference), pick(numbers_in(span), numbers_in(response))
        if gold is None or found is None:
            return None
        return Judgement(_close(found, gold), f"{found:g}", "deterministic")
    if answer_format == "text" and normalise_text(span) == normalise_text(reference):
        return Judgement(True, span, "deterministic")
    return None


def _clock_text(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def compare_math_verify(response: str, reference: str) -> Judgement | None:
    """Stage 2: symbolic equivalence of LaTeX answers with `math-verify`."""
    from math_verify import parse, verify

    gold = parse(f"${reference}$")
    answer = parse(response)
    if not gold or not answer:
        return None
    return Judgement(bool(verify(gold, answer)), str(answer[-1]), "math_verify")


LLMJudgeFn = Callable[[Sequence[tuple[str, str]]], list[Judgement]]
"""Judges (extracted answer, reference) pairs in one batch; see `stad_utils.teacher.LLMJudge`."""


def judge_answers(
    items: Sequence[tuple[str | None, str, AnswerFormat | None]],
    llm_judge: LLMJudgeFn | None = None,
) -> list[Judgement]:
    """Judge ``(response, reference, answer_format)`` triples through the cascade.

    A ``None`` response (no answer could be obtained) gives ``correct=None`` and
    ``decided_by="error"``: it is never scored as wrong. Undecided items go to
    ``llm_judge`` in one batch; without it they are wrong with ``decided_by="no_answer"``.

    Examples
    --------
    >>> [j.correct for j in judge_answers([("so it is 11:15", "11:15 AM", "clock"), ("I get 7", "8", None)])]
    [True, False]
    """
    verdicts: list[Judgement | None] = []
    for response, reference, answer_format in items:
        if response is None:
            verdicts.append(Judgement(None, None, "error"))
            continue
        fmt = answer_format or infer_format(reference)
        verdict = compare_deterministic(response, reference, fmt)
        if verdict is None and fmt in ("latex", "number", "text", "list"):
            verdict = compare_math_verify(response, reference)
        verdicts.append(verdict)
    undecided = [i for i, verdict in enumerate(verdicts) if verdict is None]
    if undecided and llm_judge is not None:
        pairs = [(extract_answer(items[i][0] or ""), items[i][1]) for i in undecided]
        for i, verdict in zip(undecided, llm_judge(pairs)):
            verdicts[i] = verdict
    return [
        verdict if verdict is not None else Judgement(False, None, "no_answer", "no comparable answer found")
        for verdict in verdicts
    ]
