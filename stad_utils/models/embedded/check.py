"""Is the installed llama.cpp library one that runs on this CPU? One completion tells.

    python -m stad_utils.models.embedded.check          # `python -m stad_utils.models.embedded.build` ends with this

llama.cpp compiled with ``GGML_NATIVE`` uses every instruction set the *build* machine
advertises. Some machines (Xeons in a VM) advertise AMX but do not let a process use the
tiles: the first completion of such a build dies with a general protection fault (exit 139,
``ldtilecfg`` in ``libggml-cpu.so``), with or without the server. `stad_utils.models.embedded.build`
therefore builds a portable wheel on x86-64 (AVX2/FMA/F16C/BMI2, no native flags), and this
check runs one real completion of the embedded model in a child process, so a crash becomes
a clear message instead of a run whose every verdict is an error.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys

from .._extras import MissingExtra

UNPORTABLE_FEATURES = ("AVX512", "AMX_INT8", "AMX_BF16", "AMX")
"""Instruction sets a portable build must not use: a machine may advertise them and still refuse them."""

_ONE_COMPLETION = """
import json, sys, time
from llama_cpp import Llama, llama_print_system_info
from stad_utils.models import embedded_model_path
model = Llama(str(embedded_model_path()), n_ctx=256, n_threads=1, verbose=False, seed=0)
started = time.perf_counter()
reply = model.create_chat_completion([{"role": "user", "content": "What is 2 + 3?"}], max_tokens=16,
                                     temperature=0.0)
seconds = time.perf_counter() - started
print(json.dumps({"text": reply["choices"][0]["message"]["content"], "tokens": reply["usage"]["completion_tokens"],
                  "seconds": seconds, "system_info": llama_print_system_info().decode(errors="replace")}))
"""


class EmbeddedModelBroken(RuntimeError):
    """The installed llama.cpp cannot answer one completion on this machine."""


def compiled_features(system_info: str) -> set[str]:
    """The instruction sets a llama.cpp build reports as used (``NAME = 1`` in its system info).

    Examples
    --------
    >>> sorted(compiled_features("CPU : SSE3 = 1 | AVX = 1 | AVX2 = 1 | AVX512 = 0 | AMX_INT8 = 1 | REPACK = 1"))
    ['AMX_INT8', 'AVX', 'AVX2', 'REPACK', 'SSE3']
    """
    return {name for name, value in re.findall(r"([A-Z0-9_]+) = (\d+)", system_info) if value != "0"}


def explain_exit(returncode: int) -> str:
    """Words for a child's exit status: a signal by name, with what it means for a llama.cpp build."""
    if returncode < 0 and -returncode in (signal.SIGSEGV, signal.SIGILL, signal.SIGBUS):
        name = signal.Signals(-returncode).name
        return (f"the completion crashed with {name}. This llama.cpp build uses instructions this CPU refuses (a "
                "build made with GGML_NATIVE on a machine that advertises AMX or AVX-512). Rebuild it portable: "
                "python -m stad_utils.models.embedded.build")
    return f"the completion process exited with status {returncode}"


def smoke_test(timeout_s: float = 120.0) -> dict:
    """Run one completion of the embedded model in a child process; its reply, speed and build features.

    Raises `EmbeddedModelBroken` naming the cause when the child crashes, hangs or answers nothing.
    """
    try:
        child = subprocess.run([sys.executable, "-c", _ONE_COMPLETION], capture_output=True, text=True,
                               timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise EmbeddedModelBroken(f"one completion of the embedded model took longer than {timeout_s:.0f} s") from None
    if child.returncode != 0:
        tail = "\n".join(child.stderr.strip().splitlines()[-5:])
        raise EmbeddedModelBroken(f"{explain_exit(child.returncode)}\n{tail}".rstrip())
    result = json.loads(child.stdout.strip().splitlines()[-1])
    if not result["text"].strip():
        raise EmbeddedModelBroken("the embedded model answered with empty text")
    result["features"] = sorted(compiled_features(result["system_info"]))
    return result


def main() -> int:
    """Run the smoke test and print its result; the exit status (0: it passed)."""
    from ._servers import embedded_model_path

    try:
        embedded_model_path()  # names a missing extra, before a child fails to import it
        result = smoke_test()
    except (MissingExtra, EmbeddedModelBroken) as exc:
        print(f"embedded model check FAILED: {exc}", file=sys.stderr)
        return 1
    unportable = sorted(set(result["features"]) & set(UNPORTABLE_FEATURES))
    print(f"embedded model check: one completion in {result['seconds']:.2f} s "
          f"({result['tokens']} tokens), reply {result['text'].strip()[:40]!r}")
    if unportable:
        print(f"note: this llama.cpp build uses {', '.join(unportable)}; it runs here but not on every x86-64 "
              "machine (python -m stad_utils.models.embedded.build builds a portable one)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
