"""The registry of kinds: which kind reads the answers to a reference of a given format (`kind_for`), and which
format a reference is written in when its task does not say (`infer_format`).

Each kind module registers its kind for the format it reads (`register`). A format has one
default kind, for every reference that no more specific kind of the format claims (a year with an
era among dates, a weekday or a name among text); the specific kinds of one format claim
different references, so the order in which the modules register does not matter. Where order
does matter, in telling one format from another, it is written once: `INFERENCE_ORDER`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...records import AnswerFormat
from ._kind import Kind

INFERENCE_ORDER: tuple[AnswerFormat, ...] = ("clock", "date", "number", "list", "record", "latex", "duration", "text")
"""The formats `infer_format` tries, in order; the first that one of its kinds recognises is the reference's. A
record comes before LaTeX, whose test its braces would pass; text comes last and takes what no other format
recognises. A set is never inferred: a reference written as a list is a list."""


@dataclass(frozen=True)
class _Registration:
    """One kind registered for one format."""

    kind_of: Callable[[str], Kind | None]
    claims: Callable[[str], bool] | None  # None: the format's default kind
    recognises: Callable[[str], bool]


_REGISTERED: dict[AnswerFormat, list[_Registration]] = {}
"""Each format's kinds, the specific ones first and its default last."""


def register(answer_format: AnswerFormat, kind: Kind | Callable[[str], Kind | None], *,
             claims: Callable[[str], bool] | None = None, recognises: Callable[[str], bool] = lambda reference: False,
             ) -> None:
    """Register ``kind`` as a reader of the answers to references of ``answer_format``.

    Parameters
    ----------
    answer_format : str
        The format (`stad_utils.records.AnswerFormat`) of the references it reads.
    kind : Kind or callable
        The kind, or ``kind(reference) -> Kind | None`` where the kind is built from the reference
        (a ToT record's keys); ``None``: no kind reads that reference.
    claims : callable, optional
        ``claims(reference) -> bool``: the references of the format that this kind reads instead of
        the format's default kind. Without it, the kind is the format's default (one per format).
    recognises : callable, optional
        ``recognises(reference) -> bool``, on a stripped reference whose format is not given: whether
        it is written in ``answer_format`` (`infer_format`). By default the kind recognises none.
    """
    registered = _REGISTERED.setdefault(answer_format, [])
    if claims is None and any(entry.claims is None for entry in registered):
        raise ValueError(f"the {answer_format} format has a default kind already")
    kind_of = _always(kind) if isinstance(kind, Kind) else kind
    _REGISTERED[answer_format] = sorted([*registered, _Registration(kind_of, claims, recognises)],
                                        key=lambda entry: entry.claims is None)


def _always(kind: Kind) -> Callable[[str], Kind]:
    return lambda reference: kind


def kind_for(reference: str, answer_format: AnswerFormat) -> Kind | None:
    """The kind that reads and compares answers to ``reference``; ``None`` for a record that is no JSON object.

    Examples
    --------
    >>> [kind_for(r, f).name for r, f in (("352 BC", "date"), ("Thursday", "text"), (r"\\sqrt{2}", "latex"))]
    ['year', 'weekday', 'expression']
    """
    chosen = next(entry for entry in _REGISTERED[answer_format] if entry.claims is None or entry.claims(reference))
    return chosen.kind_of(reference)


def infer_format(reference: str) -> AnswerFormat:
    """Guess how a reference answer is written when the task does not say.

    Examples
    --------
    >>> [infer_format(r) for r in ("18", "11:15 AM", "352 BC", "95 minutes", r"\\frac{1}{2}", "E49")]
    ['number', 'clock', 'date', 'duration', 'latex', 'text']
    """
    ref = reference.strip()
    return next(answer_format for answer_format in INFERENCE_ORDER
                if any(entry.recognises(ref) for entry in _REGISTERED[answer_format]))
