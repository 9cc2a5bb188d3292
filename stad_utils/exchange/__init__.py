"""Runs exchanged with other tools: STaD inside Inspect and back, runs as Inspect logs, Every Eval Ever records.

``inspect`` (the ``inspect`` extra) holds the Inspect task built from a run's ladders and scored by
the judge of 05, the reader that turns its logs into the run's verdicts (`read_inspect_logs`), and
the export of a finished run as one Inspect log per target (`export_inspect_logs`); ``_eee``
writes a run's results in the Every Eval Ever schema (`export_eee`: plain JSON, no extra);
``_run`` is what each reads of a run folder. ``python -m stad_utils.exchange`` is the command
line (``__main__``). ``inspect_ai`` is imported only when an Inspect function is first used: a missing
extra is then named with its install command (`stad_utils.models.MissingExtra`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..models import require
from ._eee import EEE_SCHEMA_VERSION, export_eee
from ._run import sample_id, target_settings, verified_ladders

_INSPECT = {"read_inspect_logs": "read_logs", "export_inspect_logs": "export_logs"}
"""The Inspect functions of this face, by the name they have in `stad_utils.exchange.inspect`."""

__all__ = ["EEE_SCHEMA_VERSION", "export_eee", "export_inspect_logs", "read_inspect_logs", "sample_id",
           "target_settings", "verified_ladders"]


def __getattr__(name: str):
    if name not in _INSPECT:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    require("inspect", ("inspect_ai",), f"stad_utils.exchange.{name}")
    return getattr(importlib.import_module(".inspect", __name__), _INSPECT[name])


if TYPE_CHECKING:  # for type checkers and editors; never executed
    from .inspect import export_logs as export_inspect_logs  # noqa: F401
    from .inspect import read_logs as read_inspect_logs  # noqa: F401
