"""A disk that is full for some files, in any process that starts with this folder on PYTHONPATH (tests only:
`tests/test_faults.py` puts it there for the kernel of a run).

Writing a file whole goes through a temporary file that is synced and renamed (`stad_utils.records.write_atomic`):
syncing a temporary file of one of the names in ``STAD_FULL_DISK_FILES`` fails as a full disk does (ENOSPC).
"""

import errno
import os

_FULL = set(filter(None, os.environ.get("STAD_FULL_DISK_FILES", "").split(",")))
_sync = os.fsync


def _fsync(fd):
    name = os.path.basename(os.readlink(f"/proc/self/fd/{fd}")) if isinstance(fd, int) else ""
    if any(name.startswith(f".{full}.") for full in _FULL):  # write_atomic's temporary file of that name
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return _sync(fd)


os.fsync = _fsync
