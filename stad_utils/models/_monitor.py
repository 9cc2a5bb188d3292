"""Watching a stage from outside its kernel: progress on the runner's console, and the error budget.

papermill keeps what a stage's notebook prints inside the executed notebook, so a long stage
would be silent on the console. In the kernel, `ProgressLog` appends a line per target every few
seconds to the run's ``logs/progress.log``; in the runner, `follow` prints the lines appended
while a stage runs. `check_error_budget` stops a run in which a target errored on more than its
share of questions, instead of letting an analysis of nothing pass for a success.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..records import PROGRESS_LOG, Verdict, is_error


def tell_console(log_dir: Path | str, line: str) -> None:
    """Append ``line`` to the run's progress log, for the runner to print (see `follow`)."""
    with open(Path(log_dir) / PROGRESS_LOG, "a", encoding="utf-8") as log:
        log.write(line + "\n")


@dataclass
class _Count:
    expected: int = 0
    done: int = 0
    errors: int = 0
    started: float = field(default_factory=time.monotonic)
    reported: tuple[int, int] | None = None  # (done, errors) at the last line written once all were done


class ProgressLog:
    """Questions done, errored and answered per second, per target, written as lines to ``path``.

    Use it as a context manager: a thread appends one line per target every ``every_s`` seconds
    (also while nothing finishes, so a stall shows), and a last line per target at the end.

    Examples
    --------
    >>> with ProgressLog(tmp / "progress.log") as progress:  # doctest: +SKIP
    ...     progress.expect("smollm2", 144)
    ...     progress.count("smollm2", errored=False)
    """

    def __init__(self, path: Path | str, every_s: float = 10.0):
        self.path, self.every_s = Path(path), every_s
        self._counts: dict[str, _Count] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._writer: threading.Thread | None = None

    def expect(self, target: str, questions: int) -> None:
        """``questions`` more questions will be put to ``target``."""
        with self._lock:
            self._counts.setdefault(target, _Count()).expected += questions

    def count(self, target: str, errored: bool) -> None:
        """One question of ``target`` is done (judged), with an error or not."""
        with self._lock:
            count = self._counts.setdefault(target, _Count())
            count.done += 1
            count.errors += errored

    def __enter__(self) -> ProgressLog:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = threading.Thread(target=self._write_every_interval, daemon=True, name="progress-log")
        self._writer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._writer is not None:
            self._writer.join()
        self._write_lines()

    def _write_every_interval(self) -> None:
        while not self._stop.wait(self.every_s):
            self._write_lines()

    def _write_lines(self) -> None:
        now = time.monotonic()
        with self._lock:
            lines = []
            for target, count in self._counts.items():
                if count.reported == (count.done, count.errors):
                    continue  # finished, and already said so
                if count.done >= count.expected:
                    count.reported = (count.done, count.errors)
                seconds = now - count.started
                lines.append(f"[{seconds:5.0f} s] {target}: {count.done}/{count.expected} done, "
                             f"{count.errors} errors, {count.done / max(seconds, 1e-9):.1f} questions/s\n")
        if lines:
            with open(self.path, "a", encoding="utf-8") as log:
                log.writelines(lines)


@contextmanager
def follow(path: Path | str, out: TextIO | None = None, prefix: str = "      ", poll_s: float = 0.5
           ) -> Iterator[None]:
    """Print to ``out`` (default: stdout) every whole line appended to ``path`` inside the ``with`` block."""
    path, out = Path(path), out or sys.stdout
    offset = path.stat().st_size if path.exists() else 0
    stop = threading.Event()

    def print_new_lines() -> None:
        nonlocal offset
        if not path.exists():
            return
        with open(path, "rb") as log:
            log.seek(offset)
            data = log.read()
        whole = data[:data.rfind(b"\n") + 1]
        offset += len(whole)
        for line in whole.decode("utf-8", errors="replace").splitlines():
            print(prefix + line, file=out, flush=True)

    def poll() -> None:
        while not stop.wait(poll_s):
            print_new_lines()

    watcher = threading.Thread(target=poll, daemon=True, name="follow-progress")
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()
        print_new_lines()


class ErrorBudgetExceeded(RuntimeError):
    """A target errored on more than its share of questions (`check_error_budget`)."""


def error_kind(error: str) -> str:
    """The kind of a recorded error: what it says before its first ``": "``.

    >>> error_kind("InternalServerError (HTTP 500): Error code: 500"), error_kind("empty response")
    ('InternalServerError (HTTP 500)', 'empty response')
    """
    return error.split(": ", 1)[0]


def check_error_budget(verdicts_by_target: Mapping[str, Sequence[Verdict]], max_error_share: float,
                       logs: Path | str | None = None) -> None:
    """Raise `ErrorBudgetExceeded` naming every target whose errored share of questions exceeds
    ``max_error_share``, the kinds of its errors with their counts, and what to do.

    ``verdicts_by_target`` holds each target's current verdicts (what `stad_utils.method.evaluate`
    returns); ``logs`` is the run's log folder, named in the advice.
    """
    over = []
    for target, verdicts in verdicts_by_target.items():
        errors = [verdict.error or "error" for verdict in verdicts if is_error(verdict)]
        if verdicts and len(errors) / len(verdicts) > max_error_share:
            kinds = ", ".join(f"{kind} ×{n}" for kind, n in Counter(map(error_kind, errors)).most_common())
            over.append(f"target {target}: {len(errors)} of {len(verdicts)} questions errored "
                        f"({len(errors) / len(verdicts):.0%}; max_error_share allows {max_error_share:.0%}): {kinds}")
    if over:
        where = f" (an embedded model's server logs are in {logs})" if logs else ""
        raise ErrorBudgetExceeded(
            "\n".join(over) + f"\nThe verdicts already judged are kept. Check the target's endpoint{where}, then "
            "run 05_evaluate again (--from 05_evaluate): it asks only the errored questions again.")
