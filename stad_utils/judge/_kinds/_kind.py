"""What a kind of answer value is: how it is read from text and compared (`Kind`), the other kinds an answer to
it is sometimes written in (`OtherKind`), and how a question and reply adapt it (`in_context`). Every kind module
of this folder builds its kind from these.

A `Kind` reads every value of its kind in a text (in order) and compares a candidate with the
reference: ``True`` (equal), ``False`` (different) or ``None`` (it cannot tell: free text that
differs from the reference, a time without AM/PM that is the reference in one half of the day,
a decimal more precise than the reference that rounds to it).

A kind may also name the *other* kinds an answer to it is sometimes written in by mistake
(`OtherKind`: a number where a date is asked), each with whether such a value could still state
the reference, whole or in part; the cascade calls an explicit answer of another kind wrong only
when it could not.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


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
    adapt : callable or None
        ``adapt(kind, question, reply) -> Kind``: the kind as this question and reply write its values
        (`in_context`); ``None`` for a kind that reads every reply alike.
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
    adapt: Callable[[Kind, str | None, str], Kind] | None = None


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


def in_context(kind: Kind, question: str | None, reply: str) -> Kind:
    """The kind as this question and reply write its values (`Kind.adapt`).

    A number asked in a unit of time ("How many minutes …?") reads a duration as a number in that
    unit ("2 hours and 40 minutes" is 160); a number in a reply that groups thousands with dots or
    spaces (``3.000``, ``21 000``) is read so (``1.875`` is 1875); a clock time in a reply that
    writes the 24-hour clock reads a zero-padded hour as 24-hour ("01:15" is 1:15 AM).

    Examples
    --------
    >>> from . import CLOCK, NUMBER_ANSWER
    >>> kind = in_context(NUMBER_ANSWER, "How many minutes does the walk take?", "")
    >>> [str(n.value) for n in kind.read("2 hours and 40 minutes")]
    ['160']
    >>> [c.unambiguous for c in in_context(CLOCK, None, "She left at 22:30 and came back at 01:15.").read("01:15")]
    [True]
    """
    return kind if kind.adapt is None else kind.adapt(kind, question, reply)
