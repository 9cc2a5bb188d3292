"""A supervised embedded server, an error budget per target, and a console that says what happens.

The embedded server is replaced by a stand-in (``tests/stand_in/llama_cpp/server``), found first
because its folder leads PYTHONPATH: the project starts it exactly as it starts llama.cpp's server.
"""

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest
import yaml
from helpers import ROOT, TESTS, verdict
from scripted_server import ScriptedServer
from test_reliability import deterministic_reply

from stad_utils.models import (
    EmbeddedServerDied,
    ErrorBudgetExceeded,
    ProgressLog,
    check_error_budget,
    follow,
    open_client,
)
from stad_utils.pipeline import main, run_pipeline
from stad_utils.records import Ladder, RunPaths, Verdict, evaluation_items, read_records

STAND_IN = TESTS / "stand_in"
PREPARE = ["01_tasks", "02_decompose", "03_scaffold", "04_skills"]


@pytest.fixture
def stand_in_server(monkeypatch, tmp_path) -> Path:
    """``python -m llama_cpp.server`` runs the stand-in in this process's children; returns its answer log."""
    answered = tmp_path / "answered.jsonl"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(STAND_IN), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("STAND_IN_ANSWERED", str(answered))
    monkeypatch.setenv("STAND_IN_LATENCY_S", "0.05")
    return answered


def server_processes(ancestor: psutil.Process) -> list[psutil.Process]:
    found = []
    for process in ancestor.children(recursive=True):
        try:
            if "_orphan_guard" in " ".join(process.cmdline()):
                found.append(process)
        except psutil.NoSuchProcess:
            pass
    return found


def wait_for(condition, timeout_s: float, what: str):
    deadline = time.monotonic() + timeout_s
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(0.05)
    return value


def answered_prompts(path: Path) -> list[str]:
    return [json.loads(line)["prompt"] for line in path.read_text().splitlines()] if path.exists() else []


def test_a_dead_server_is_restarted_once_then_its_clients_raise_quoting_its_log(stand_in_server, tmp_path):
    endpoint = {"kind": "embedded", "model": "smollm2-135m-instruct", "name": "plain", "n_servers": 1,
                "max_retries": 8}
    with open_client(endpoint, role="target", log_dir=tmp_path / "logs") as client:
        assert client.chat_one("What is 2 + 3?").ok
        [first] = server_processes(psutil.Process())
        first.kill()
        restarted = wait_for(lambda: [p for p in server_processes(psutil.Process()) if p.pid != first.pid], 10,
                             "the server to be restarted")
        assert client.chat_one("What is 3 + 4?").ok  # the same URL, served by the restarted process
        restarted[0].kill()
        killed = time.monotonic()
        with pytest.raises(EmbeddedServerDied) as died:
            wait_for(lambda: not client.chat_one("What is 5 + 6?").ok, 10, "a reply to fail")
        assert time.monotonic() - killed < 5
    message = str(died.value)
    assert "target plain" in message and "killed by SIGKILL" in message
    assert f"stand-in llama.cpp server {restarted[0].pid} listening" in message  # the end of its log
    log = (tmp_path / "logs" / "llama-server-0.log").read_text()  # kept after the servers stopped
    assert "started:" in log and "restarted after it exited (killed by SIGKILL)" in log
    assert not server_processes(psutil.Process())


def write_params(tmp_path: Path, target: dict, **stages) -> Path:
    params = tmp_path / "params.yaml"
    params.write_text(yaml.safe_dump({
        "run": "supervised", "results_dir": str(tmp_path / "results"), "cache": str(tmp_path / "cache.sqlite"),
        "stages": {"01_tasks": {"n_tasks": 10, "seed": 6, "min_steps": 2, "max_steps": 3},
                   "05_evaluate": {"targets": [target]}, "06_analyze": {"n_resamples": 20},
                   "07_compare": {"n_permutations": 10}, **stages}}))
    return params


def test_killing_the_embedded_server_mid_evaluation_stops_the_run_then_a_rerun_asks_nothing_twice(
        stand_in_server, tmp_path):
    """The issue's acceptance: the run stops within 30 s, non-zero, quoting the server's log; a re-run completes."""
    target = {"kind": "embedded", "model": "smollm2-135m-instruct", "name": "embedded-plain", "n_servers": 1}
    params = write_params(tmp_path, target)
    run_pipeline(params, stages=PREPARE)
    command = [sys.executable, "-m", "stad_utils.pipeline", str(params), "--stage", "05_evaluate"]
    runner = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        wait_for(lambda: len(answered_prompts(stand_in_server)) >= 5, 120, "the first answers")
        [first] = server_processes(psutil.Process(runner.pid))
        first.kill()
        [second] = wait_for(lambda: [p for p in server_processes(psutil.Process(runner.pid)) if p.pid != first.pid],
                            10, "the server to be restarted")
        answered_by_first = len(answered_prompts(stand_in_server))
        wait_for(lambda: len(answered_prompts(stand_in_server)) >= answered_by_first + 5, 30,
                 "answers from the restarted server")
        second.kill()
        killed = time.monotonic()
        out, err = runner.communicate(timeout=60)
        stopped_after_s = time.monotonic() - killed
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
    print(f"the run stopped {stopped_after_s:.1f} s after the second kill")
    assert runner.returncode != 0 and stopped_after_s < 30
    assert "exited (killed by SIGKILL); restarting it once" in out  # the first death, told on the console
    assert "EmbeddedServerDied" in err and "target embedded-plain" in err
    assert f"stand-in llama.cpp server {second.pid} listening" in err  # the log's tail, on the console

    paths = RunPaths(tmp_path / "results" / "supervised")
    assert (paths.logs / "llama-server-0.log").exists()
    asked_before = len(answered_prompts(stand_in_server))
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
    distinct = {prompt for ladder in ladders for _, _, prompt, _ in evaluation_items(ladder)}
    answered = answered_prompts(stand_in_server)
    assert asked_before < len(distinct)  # the first run really stopped before the end
    assert set(answered) == distinct and max(Counter(answered).values()) == 1  # every question answered once
    verdicts = read_records(paths.verdicts, Verdict.model_validate)
    assert all(v.error is None for v in verdicts)  # the deaths left no error verdict behind


def test_a_target_over_its_error_budget_fails_the_run_naming_it_and_its_errors(tmp_path, capsys):
    # The runner's preflight asks one trace probe before the stage (None: answered); then 8 questions fail
    with ScriptedServer(deterministic_reply, faults=[None] + [500] * 8) as server:
        target = {"name": "flaky", "model": "scripted", "base_url": server.base_url, "max_retries": 0}
        params = write_params(tmp_path, target, **{"01_tasks": {"n_tasks": 6, "seed": 3, "min_steps": 2,
                                                                 "max_steps": 3}})
        run_pipeline(params, stages=PREPARE)
        assert main([str(params), "--stage", "05_evaluate"]) == 1
        out, err = capsys.readouterr()
        paths = RunPaths(tmp_path / "results" / "supervised")
        verdicts = read_records(paths.verdicts, Verdict.model_validate)
        questions, errors = len(verdicts), sum(v.outcome == "error" for v in verdicts)
        assert errors >= 8 and errors / questions > 0.1  # (a prompt asked twice at once shares its error)
        assert f"target flaky: {errors} of {questions} questions errored" in err
        assert f"InternalServerError (HTTP 500) ×{errors}" in err and "--from 05_evaluate" in err
        assert f"flaky: {questions}/{questions} done, {errors} errors" in out  # progress reached the console
        assert paths.outcomes.exists()  # what was computed stays

        server.faults = [None, 500]  # the re-run (after its trace probe) asks only the errored questions again;
        # one of them errs again
        sent_before = len(server.requests)
        assert main([str(params), "--from", "05_evaluate"]) == 0, capsys.readouterr().err
        out, err = capsys.readouterr()
    assert len(server.requests) - sent_before <= errors
    assert f"flaky: {errors}/{errors} done, 1 errors" in out or f"flaky: {errors}/{errors} done, 2 errors" in out
    assert f"report: {paths.html}" in out and f"python -m webbrowser {paths.html.as_uri()}" in out
    assert paths.report.read_text().splitlines()[0] not in out  # the report is named, not printed


def test_the_error_budget_counts_errors_against_every_question_of_a_target():
    within = [verdict("t1", "original", 0, True, "ok")] * 9 + [verdict("t1", "scaffold", 1, None, "ok")]
    over = [verdict("t1", "original", 0, False, "bad")] * 8 + [verdict("t1", "scaffold", 1, None, "bad")] * 2
    check_error_budget({"ok": within}, 0.1)  # 10% is not more than 10%
    with pytest.raises(ErrorBudgetExceeded, match=r"target bad: 2 of 10 questions errored \(20%.*HTTP 500 ×2"):
        check_error_budget({"ok": within, "bad": over}, 0.1, logs="/run/logs")
    check_error_budget({"bad": over}, 0.25)


def test_progress_lines_reach_a_follower_while_they_are_written(tmp_path):
    printed = []

    class Console:
        def write(self, text):
            printed.append(text)

        def flush(self):
            pass

    path = tmp_path / "logs" / "progress.log"
    path.parent.mkdir()
    path.write_text("an earlier run's line\n")
    with follow(path, out=Console(), poll_s=0.05), ProgressLog(path, every_s=0.1) as progress:
        progress.expect("m", 3)
        progress.count("m", errored=True)
        wait_for(lambda: any("m: 1/3 done, 1 errors" in text for text in printed), 5, "a progress line")
        progress.count("m", errored=False)
        progress.count("m", errored=False)
    lines = "".join(printed)
    assert "an earlier run's line" not in lines
    assert lines.count("m: 3/3 done, 1 errors") == 1  # the last line, said once
