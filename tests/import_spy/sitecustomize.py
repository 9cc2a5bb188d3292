"""Records every import of the watched top-level modules, in any process that starts with this folder on PYTHONPATH
(tests only: `tests/test_core_install.py` puts it there for a run and for the kernel the run starts).

A module counts as imported when its code runs, not when it is looked for: libraries that only ask
whether torch is installed (``importlib.util.find_spec``) are not reported.
"""

import os
import sys

_WATCHED = set(filter(None, os.environ.get("STAD_IMPORT_SPY_MODULES", "").split(",")))
_LOG = os.environ.get("STAD_IMPORT_SPY_LOG")


class _ImportSpy:
    def find_spec(self, name, path=None, target=None):
        if name not in _WATCHED:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                run = spec.loader.exec_module

                def exec_module(module, run=run):
                    with open(_LOG, "a", encoding="utf-8") as log:
                        log.write(f"{name} (pid {os.getpid()})\n")
                    run(module)

                spec.loader.exec_module = exec_module
                return spec
        return None


if _WATCHED and _LOG:
    sys.meta_path.insert(0, _ImportSpy())
