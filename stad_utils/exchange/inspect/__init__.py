"""STaD and Inspect (``inspect_ai``, the ``inspect`` extra): the task, reading its logs back, exporting a run.

``task`` is the Inspect task `stad_ladders` with its scorer (registered as ``stad_utils/stad_ladders``
through the package's ``inspect_ai`` entry point); ``_read`` turns its logs into a run's verdicts
(`read_logs`); ``_export`` writes a finished run as one log per target (`export_logs`). Every
module here imports ``inspect_ai`` (about two seconds): `stad_utils.exchange` loads them on first use.
"""

from __future__ import annotations

from ._export import export_logs
from ._read import read_logs

__all__ = ["export_logs", "read_logs"]
