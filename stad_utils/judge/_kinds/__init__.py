"""Kinds of answer values, one small module per kind, and the registry that picks the kind for a reference.

A `Kind` reads every value of its kind in a text and compares a candidate with the reference
(`_kind`). Each kind module defines its kind and registers it for the answer format it reads
(`_registry`): numbers (`_number`, `_number_answer`), clock times (`_clock`), durations
(`_duration`), years with an era (`_year`), calendar dates (`_calendar_date`), weekdays
(`_weekday`), entity names (`_entity`), free text (`_free_text`), LaTeX expressions
(`_latex_expression`), lists and sets (`_lists`) and ToT records (`_tot_record`). Importing this
package registers them all: the judge asks `kind_for` and `infer_format` here, never in a kind
module alone.
"""

from __future__ import annotations

from ._calendar_date import CALENDAR_DATE, calendar_dates_in
from ._clock import CLOCK, clocks_in
from ._duration import DURATION, durations_in
from ._entity import ENTITY
from ._free_text import FREE_TEXT, normalise_text
from ._kind import Kind, OtherKind, distinct, in_context
from ._latex_expression import LATEX, written_plainly
from ._lists import ORDERED_LIST, UNORDERED_LIST, lists_in
from ._number import NUMBER, mentions_a_number, parse_number
from ._number_answer import NUMBER_ANSWER
from ._registry import infer_format, kind_for
from ._tot_record import record_kind
from ._weekday import WEEKDAY
from ._year import YEAR, years_in

__all__ = [
    "CALENDAR_DATE", "CLOCK", "DURATION", "ENTITY", "FREE_TEXT", "LATEX", "NUMBER", "NUMBER_ANSWER", "ORDERED_LIST",
    "UNORDERED_LIST", "WEEKDAY", "YEAR", "Kind", "OtherKind", "calendar_dates_in", "clocks_in", "distinct",
    "durations_in", "in_context", "infer_format", "kind_for", "lists_in", "mentions_a_number", "normalise_text",
    "parse_number", "record_kind", "written_plainly", "years_in",
]
