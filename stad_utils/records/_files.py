"""Files of a run folder. Side files rewritten whole (``manifest.json``, ``usage.json``, ``timings.json``,
executed notebooks) are written so that a crash or a full disk never leaves half a file, and read so
that a file damaged anyway is set aside instead of blocking every later run; one lock keeps a second
invocation from writing the same folder.
"""

from __future__ import annotations

import datetime
import errno
import fcntl
import json
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class DiskFull(OSError):
    """No space left while writing a file: one clear line instead of a traceback."""

    def __init__(self, path: Path | str | None, doing: str = "writing"):
        where = f" while {doing} {path}" if path else ""
        super().__init__(errno.ENOSPC, f"no space left on the device{where}. Free some space and run again: "
                                       "what was finished is kept and the run resumes from there")

    def __str__(self) -> str:
        return self.strerror or ""  # always set: __init__ passes an errno and a message


_UMASK = os.umask(0)
os.umask(_UMASK)


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` is a full disk or an exceeded quota."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def write_atomic(path: Path | str, content: str | bytes | Callable[[Path], None]) -> Path:
    """Replace ``path`` in one step: write a temporary file in its folder, sync it, rename it.

    ``content`` is the text or bytes to write, or a function that writes the temporary file it is
    given (e.g. papermill executing into it). Readers see the old file or the new one, never a part;
    on failure the old file stays and the temporary file is removed. A full disk raises `DiskFull`.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=f".partial{path.suffix}")
    os.close(handle)
    temporary = Path(name)
    try:
        if callable(content):
            content(temporary)
        else:
            temporary.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.chmod(temporary, 0o666 & ~_UMASK)  # as an ordinary write would leave it (mkstemp makes it private)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        if is_disk_full(exc):
            raise DiskFull(path) from None
        raise
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


def remove_partial_files(folder: Path | str) -> list[Path]:
    """Delete the temporary files a killed writer left in ``folder`` (call it holding the folder's lock)."""
    leftovers = [path for path in Path(folder).rglob(".*.partial*") if path.is_file()]
    for path in leftovers:
        path.unlink()
    return leftovers


def write_json_atomic(path: Path | str, value: Any) -> Path:
    """Replace ``path`` in one step (`write_atomic`) with ``value`` as indented JSON."""
    return write_atomic(path, json.dumps(value, indent=2))


def set_aside(path: Path) -> Path:
    """Rename a damaged file to ``<name>.corrupt-<UTC time>`` (kept for inspection) and return the new path."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    os.replace(path, aside)
    return aside


def read_json_or_rebuild(path: Path | str, default: Callable[[], Any], *,
                         valid: Callable[[Any], bool] = lambda value: isinstance(value, dict)) -> Any:
    """The JSON value in ``path``; ``default()`` when it does not exist.

    A file that is not valid JSON (cut off by a full disk, say) or not of the expected shape is set
    aside with a warning naming both paths, and ``default()`` is returned, so the file is rebuilt.
    """
    path = Path(path)
    if not path.exists():
        return default()
    try:
        value = json.loads(path.read_bytes())
        if valid(value):
            return value
        problem = "not of the expected shape"
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        problem = f"not valid JSON ({exc})"
    aside = set_aside(path)
    warnings.warn(f"{path} is {problem}; it was moved to {aside.name} and is rebuilt", stacklevel=2)
    return default()


class RunLocked(RuntimeError):
    """Another process is writing the same run folder."""


@contextmanager
def exclusive_run(folder: Path | str) -> Iterator[Path]:
    """Hold ``<folder>/.lock`` for as long as the block runs; a second holder is refused at once.

    The lock is an ``flock``, which the kernel releases when its holder dies, even by ``kill -9``:
    a killed run never leaves a stale lock behind. The file holds the holder's PID, for the message.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    lock_path = folder / ".lock"
    with open(lock_path, "a+", encoding="utf-8") as handle:  # not inherited by child processes (O_CLOEXEC)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            raise RunLocked(f"{folder} is in use by another run (process {holder}); wait for it to finish or "
                            f"stop it (kill {holder}), then run again") from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield folder
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)
