"""The response cache: one SQLite file that answers a request already made."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..records import DiskFull, set_aside
from ._replies import Messages

_SQLITE_FULL, _SQLITE_CORRUPT, _SQLITE_NOTADB = 13, 11, 26


class ResponseCache:
    """Responses keyed by model, messages and every sampling parameter (SQLite, WAL mode).

    A file that is not a database at all is set aside (``cache.sqlite.corrupt-<time>``) and a new
    cache started; a database damaged in places answers what it can and treats the rest as misses,
    with one warning naming the file and the fix.
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._warned = False
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if _is_disk_full(exc):
                raise DiskFull(self.path, "opening the response cache") from None
            if not _is_corrupt(exc):  # e.g. locked by another process for longer than the timeout
                raise
            aside = [set_aside(file) for file in (self.path, *_sqlite_side_files(self.path)) if file.exists()]
            warnings.warn(f"{self.path} is not a readable response cache ({exc}); it was moved to "
                          f"{aside[0].name} and a new cache is started", stacklevel=2)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, timeout=60)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, request TEXT, response TEXT)"
            )
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _damaged(self, exc: sqlite3.DatabaseError) -> None:
        """Warn once about a damaged page (the caller then treats the entry as missing); re-raise anything else."""
        if _is_disk_full(exc):
            raise DiskFull(self.path, "writing the response cache") from None
        if not _is_corrupt(exc):
            raise exc
        if not self._warned:
            self._warned = True
            warnings.warn(f"{self.path} is damaged ({exc}): entries that cannot be read are asked again. "
                          f"To start a clean cache, move it aside (mv {self.path} {self.path}.old)", stacklevel=3)

    @staticmethod
    def key(model: str, messages: Messages, params: dict[str, Any], sample: int = 0) -> str:
        """A hash of the request; the sample index enters only from the second sample on, so that
        caches written before repeated trials existed still answer sample 0.
        """
        request: dict[str, Any] = {"model": model, "messages": messages, "params": params}
        if sample:
            request["sample"] = sample
        return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()

    def get(self, key: str) -> dict | None:
        """The stored response, or ``None`` when there is none or it cannot be read (then it is asked again)."""
        try:
            with self._lock:
                row = self._db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return None
        try:
            stored = json.loads(row[0]) if row else None
        except (TypeError, json.JSONDecodeError):
            return None
        return stored if isinstance(stored, dict) else None

    def holds(self, keys: Iterable[str]) -> set[str]:
        """Those of ``keys`` the cache has an entry for (not read: `get` may still find one unusable)."""
        wanted, found = list(dict.fromkeys(keys)), set[str]()
        with self._lock:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                rows = self._db.execute(f"SELECT key FROM responses WHERE key IN ({','.join('?' * len(chunk))})",
                                        chunk).fetchall()
                found.update(row[0] for row in rows)
        return found

    def put(self, key: str, model: str, request: dict, response: dict) -> None:
        """Store a response under ``key``, the moment it arrives (a damaged database only warns)."""
        try:
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                    (key, model, json.dumps(request), json.dumps(response)),
                )
                self._db.commit()
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _sqlite_side_files(path: Path) -> tuple[Path, Path]:
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _sqlite_code(exc: sqlite3.DatabaseError) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+; an extended code keeps the primary in its low byte
    return None if code is None else code & 0xFF


def _is_disk_full(exc: sqlite3.DatabaseError) -> bool:
    return _sqlite_code(exc) == _SQLITE_FULL or "disk is full" in str(exc)


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    code = _sqlite_code(exc)
    if code is not None:
        return code in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    return "malformed" in str(exc) or "not a database" in str(exc)
