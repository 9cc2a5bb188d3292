"""A scripted OpenAI-compatible server that replays the saved example run's replies, and the runs built on it.

Each target of the example run is served under a short model name; a question gets the reply that
target gave in the example run (its finish reason included: the replies cut off by ``max_tokens``
come back cut off). ``plain`` also sends a reasoning trace apart from its answer, and ``FAILING``
answers HTTP 500, so traces and errors take both ways as well.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import ROOT
from scripted_server import Raw, ScriptedServer

from stad_utils.records import SAVED_RUN, Verdict, latest_verdicts, read_records

SERVED = {"smollm2-plain": "plain", "smollm2-answer-line": "answer-line", "simulated: weak skill": "weak-skill",
          "simulated: weak chaining": "weak-chaining"}
"""Each target of the example run and the model name the server serves it under."""

SYSTEM_PROMPT = "Solve the problem step by step. End with a line of the form 'Answer: <value>'."
"""smollm2-answer-line's system prompt in params/quickstart.yaml."""

FAILING = ("weak-chaining", "gen0-0004", "scaffold", 1)
"""The one question the server fails with HTTP 500 every time (served model, task, variant, level)."""

INSPECT = str(Path(sys.executable).with_name("inspect"))
"""This environment's ``inspect`` command (the ``inspect`` extra)."""

RECORD_FILES = ("tasks.jsonl", "decompositions.jsonl", "ladders.jsonl", "skills.jsonl")
"""What a run holds before 05_evaluate: copied from the example run into each side of a round trip."""


def example_replies() -> dict[tuple[str, str], Verdict]:
    """The example run's reply of each (served model, prompt): the first one when a prompt was asked twice."""
    replies: dict[tuple[str, str], Verdict] = {}
    for verdict in latest_verdicts(read_records(SAVED_RUN / "verdicts.jsonl", Verdict.model_validate)).values():
        replies.setdefault((SERVED[verdict.model], verdict.prompt), verdict)
    return replies


def replaying_server() -> ScriptedServer:
    """The server (start it with ``with``): every chat request answered as the example run's target answered it."""
    replies = example_replies()
    failing = next(v.prompt for v in replies.values()
                   if (SERVED[v.model], v.task_id, v.variant, v.level) == FAILING)

    def raw(path: str, request: dict) -> Raw | None:
        if "body" not in request:  # GET /models: the scripted list
            return None
        body = request["body"]
        model, prompt = body["model"], body["messages"][-1]["content"]
        if (model, prompt) == (FAILING[0], failing):
            return Raw(json.dumps({"error": {"message": "scripted failure"}}).encode(), status=500)
        verdict = replies[model, prompt]
        message = {"role": "assistant", "content": verdict.response}
        if model == "plain":
            message["reasoning_content"] = f"Let me think about: {prompt[:40]}"
        usage = {"prompt_tokens": verdict.prompt_tokens or 20, "completion_tokens": verdict.completion_tokens or 6}
        payload = {"id": "replay", "object": "chat.completion", "created": 0, "model": model,
                   "choices": [{"index": 0, "finish_reason": verdict.finish_reason or "stop", "message": message}],
                   "usage": {**usage, "total_tokens": sum(usage.values())}}
        return Raw(json.dumps(payload).encode())

    return ScriptedServer(lambda messages: "", raw=raw, models=list(SERVED.values()))


def run_before_evaluation(folder: Path) -> Path:
    """A run folder holding the example run's tasks, decompositions, ladders and skills (01–04, no verdict)."""
    folder.mkdir(parents=True)
    for name in RECORD_FILES:
        shutil.copyfile(SAVED_RUN / name, folder / name)
    return folder


def entry_point_shim(folder: Path) -> Path:
    """A folder that, on PYTHONPATH, declares the package's ``inspect_ai`` entry point as an installed
    distribution does (the editable install of this environment may come from another checkout)."""
    info = folder / "stad_entry_point-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: stad-entry-point\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[inspect_ai]\nstad_utils = stad_utils.exchange.inspect.task\n")
    return folder


def installed_from_this_checkout() -> bool:
    """Whether the environment's installed ``stad_utils`` (an editable install) is this checkout's, as a process
    started outside the checkout imports it (pytest puts the checkout on this process' path either way)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    where = subprocess.run([sys.executable, "-c", "import stad_utils; print(stad_utils.__file__)"], env=environment,
                           cwd=Path(os.sep), capture_output=True, text=True, timeout=120).stdout.strip()
    return bool(where) and Path(where).resolve().is_relative_to(ROOT.resolve())


def inspect_eval(run_dir: Path, models: list[str], log_dir: Path, base_url: str, shim: Path, *task_args: str
                 ) -> subprocess.CompletedProcess:
    """``inspect eval stad_utils/stad_ladders`` on ``run_dir`` for the served ``models``, retries set explicitly.

    Four connections per model: the scripted server's listening queue drops what Inspect's default ten per
    model would open at once."""
    environment = {**os.environ, "SCRIPTED_BASE_URL": base_url, "SCRIPTED_API_KEY": "placeholder-key"}
    if not installed_from_this_checkout():
        # this checkout's code, and its entry point, before the other checkout's. Not otherwise: the checkout's
        # own stad_utils.egg-info ahead of site-packages hides the installed task from Inspect's registry
        environment["PYTHONPATH"] = os.pathsep.join([str(shim), str(ROOT)])
    command = [INSPECT, "eval", "stad_utils/stad_ladders", "-T", f"run={run_dir}", "-T", "max_tokens=256", *task_args,
               "--model", ",".join(f"openai-api/scripted/{model}" for model in models),
               "--max-retries", "0", "-M", "max_retries=0", "--max-connections", "4", "--temperature", "0",
               "--no-fail-on-error",
               "--log-dir", str(log_dir), "--display", "none"]
    return subprocess.run(command, env=environment, capture_output=True, text=True, timeout=900, cwd=run_dir.parent)
