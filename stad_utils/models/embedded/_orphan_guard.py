"""Run a Python module as a child that exits as soon as the process that started it dies.

    python path/to/stad_utils/models/embedded/_orphan_guard.py <parent pid> <module> [arguments …]

The embedded llama.cpp server is started this way: if the notebook kernel (or the whole
pipeline) is killed with SIGKILL, nothing can stop its children in an orderly way, and an
orphaned server would keep every core busy. A daemon thread compares the parent pid twice a
second and ends the process when it changes (portable, unlike Linux's PR_SET_PDEATHSIG,
which fires when the parent *thread* exits).

It is run as a script, not with ``-m``: ``-m`` would import the whole package first, which
costs seconds at every start (and every restart) of a server.
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
import time


def exit_when_orphaned(parent_pid: int, poll_s: float = 0.5) -> None:
    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(poll_s)
        os._exit(0)  # no cleanup to wait for: the server holds nothing worth flushing

    threading.Thread(target=watch, daemon=True, name="orphan-guard").start()


def main() -> None:
    parent_pid, module, *arguments = sys.argv[1:]
    exit_when_orphaned(int(parent_pid))
    sys.argv = [module, *arguments]
    sys.path[0] = os.getcwd()  # as ``python -m module`` would have it, not this package's folder
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
