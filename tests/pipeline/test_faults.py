"""The fault battery: torn files, a full disk, bad replies, slow bodies, a damaged cache, two writers,
echoed secrets and a stale environment. Every server is a scripted one on loopback."""

import errno
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, TESTS, ladder
from scripted_server import Raw, ScriptedServer

from stad_utils.method import evaluate
from stad_utils.models import EndpointConfig, EndpointUnavailable, ModelClient, ResponseCache
from stad_utils.pipeline import kernel_for_this_python, main, run_pipeline
from stad_utils.records import Verdict, read_records


def answer_five(messages):
    return "The answer is 5."


def completion(content: str) -> bytes:
    """A chat completion body with ``content`` as the reply (JSON escapes kept as written)."""
    return ('{"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [{"index": 0, '
            '"finish_reason": "stop", "message": {"role": "assistant", "content": "' + content + '"}}], '
            '"usage": {"prompt_tokens": 3, "completion_tokens": 2}}').encode()


def on_post(reply: Raw):
    """A ``raw`` hook that answers every chat request with ``reply`` and leaves ``GET /models`` alone."""
    return lambda path, request: reply if "body" in request else None


def client_for(server, cache=None, **overrides):
    config = {"model": "m", "base_url": server.base_url, "max_retries": 1, "timeout_s": 5, **overrides}
    return ModelClient(EndpointConfig(**config), cache, progress=False)


def write_params(tmp_path, run="faults", **stages):
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump({"run": run, "results_dir": str(tmp_path / "results"),
                                    "cache": str(tmp_path / "cache.sqlite"),
                                    "stages": {"01_tasks": {"n_tasks": 3, "seed": 2}, **stages}}))
    return path


# --- 4. no torn state ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["manifest.json", "usage.json", "timings.json"])
def test_a_torn_side_file_is_set_aside_and_the_run_completes(tmp_path, name):
    params = write_params(tmp_path)
    run_dir = tmp_path / "results" / "faults"
    run_dir.mkdir(parents=True)
    (run_dir / name).write_text('{"01_tasks": {"role": {"model": "cut off by a full dis')
    run_pipeline(params, stages=["01_tasks", "02_decompose"])  # 02 records its usage
    assert json.loads((run_dir / name).read_text())  # rebuilt, whole
    [aside] = run_dir.glob(f"{name}.corrupt-*")
    assert aside.read_text().startswith('{"01_tasks": {"role"')  # kept for inspection
    assert json.loads((run_dir / "manifest.json").read_text())["invocations"][-1]["completed"] == [
        "01_tasks", "02_decompose"]


def test_a_full_disk_stops_with_one_line_and_the_next_run_loses_nothing(tmp_path, monkeypatch, capsys):
    import papermill.iorw

    params = write_params(tmp_path)
    run_dir = tmp_path / "results" / "faults"
    write = papermill.iorw.LocalHandler.write
    writes = []

    def disk_fills_up(self, buf, path):  # the third notebook write is cut off, as on a full disk
        writes.append(path)
        if len(writes) == 3:
            with open(path, "w") as handle:
                handle.write(buf[:4096])
            raise OSError(errno.ENOSPC, "No space left on device", path)
        return write(self, buf, path)

    monkeypatch.setattr(papermill.iorw.LocalHandler, "write", disk_fills_up)
    assert main([str(params), "--stage", "01_tasks", "--stage", "02_decompose"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: no space left") and "Traceback" not in err and len(err.splitlines()) == 1
    for path in run_dir.rglob("*"):
        assert ".partial" not in path.name, path  # no temporary file left behind
        if path.suffix in (".json", ".ipynb"):
            json.loads(path.read_text())  # every file there is whole

    monkeypatch.setattr(papermill.iorw.LocalHandler, "write", write)  # space again
    left_by_a_kill = run_dir / "notebooks" / ".01_tasks.ipynb.x1y2.partial.ipynb"
    left_by_a_kill.write_text('{"cells": [')
    assert main([str(params), "--stage", "01_tasks", "--stage", "02_decompose"]) == 0
    assert not left_by_a_kill.exists()
    assert len((run_dir / "tasks.jsonl").read_text().splitlines()) == 3
    for stage in ("01_tasks", "02_decompose"):
        assert json.loads((run_dir / "notebooks" / f"{stage}.ipynb").read_text())["cells"]


def test_a_full_disk_inside_a_stage_stops_with_one_line(tmp_path, capsys, monkeypatch):
    params = write_params(tmp_path)
    # The disk fills while stage 04 writes skills.jsonl, inside the stage's kernel (tests/full_disk).
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS / "full_disk"),
                                                      os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("STAD_FULL_DISK_FILES", "skills.jsonl")
    skills = tmp_path / "results" / "faults" / "skills.jsonl"
    first_four = [arg for stage in ("01_tasks", "02_decompose", "03_scaffold", "04_skills") for arg in ("--stage", stage)]
    assert main([str(params), *first_four]) == 1
    err = capsys.readouterr().err.strip()
    assert err == ("error: no space left on the device while running stage 04_skills. Free some space and run "
                   "again: what was finished is kept and the run resumes from there")
    assert not skills.exists() and not list(skills.parent.glob(".skills.jsonl.*"))  # no torn or partial file
    monkeypatch.delenv("STAD_FULL_DISK_FILES")  # space again
    assert main([str(params), *first_four]) == 0 and skills.read_text().count("\n") >= 3


# --- 5. bad replies are errors, never crashes ---------------------------------------------------------------

@pytest.mark.parametrize("reply, error", [
    (Raw(b"<html><body><h1>Gateway</h1></body></html>", content_type="text/html"), "not JSON"),
    (Raw(b"{'choices': broken", content_type="application/json"), "not JSON"),
    (Raw(b'{"object": "chat.completion", "choices": []}'), "empty response"),
    (Raw(b'{"object": "chat.completion", "choices": [{"index": 0, "message": null}]}'), "empty response"),
])
def test_a_reply_that_is_no_completion_is_a_recorded_error(reply, error):
    with ScriptedServer(answer_five, raw=on_post(reply)) as server:
        [result] = client_for(server).chat(["2 + 3?"])
    assert result.text is None and error in result.error


def test_invalid_text_in_a_reply_is_stored_as_replacement_characters(tmp_path):
    bodies = {"lone surrogate": completion(r"The answer is 5 \ud800."),
              "invalid UTF-8": completion("The answer is 5 INVALID.").replace(b"INVALID", b"\xe9")}
    for name, body in bodies.items():
        with ScriptedServer(answer_five, raw=on_post(Raw(body))) as server:
            store = tmp_path / f"{name}.jsonl"
            cache = ResponseCache(tmp_path / f"{name}.sqlite")
            [verdict, *_] = evaluate([ladder("a", 2, answer="5")], client_for(server, cache), store, progress=False)
        assert verdict.error is None and verdict.response == "The answer is 5 \ufffd.", name
        assert read_records(store, Verdict.model_validate)  # the verdicts can be read back


def test_a_bad_cached_entry_is_asked_again(tmp_path):
    cache = ResponseCache(tmp_path / "cache.sqlite")
    with ScriptedServer(answer_five) as server:
        client = client_for(server, cache)
        prompts = ["surrogate", "not json", "not a reply"]
        keys = [client.request(prompt)[0] for prompt in prompts]
        cache.put(keys[0], "m", {}, {"text": "The answer is \ud800", "finish_reason": "stop"})  # written by old code
        with sqlite3.connect(cache.path) as db:
            db.execute("INSERT INTO responses VALUES (?, 'm', '{}', ?)", (keys[1], '{"text": "cut'))
            db.execute("INSERT INTO responses VALUES (?, 'm', '{}', ?)", (keys[2], '{"choices": []}'))
        results = client.chat(prompts)
        assert [r.ok for r in results] == [True, True, True]
        assert results[0].text == "The answer is \ufffd" and results[0].cached
        assert [r.text for r in results[1:]] == ["The answer is 5."] * 2 and len(server.requests) == 2
        json.dumps([r.text for r in results]).encode("utf-8")


def test_the_preflight_of_an_html_endpoint_names_the_url():
    page = Raw(b"<html><body>Welcome to nginx!</body></html>", content_type="text/html")
    with ScriptedServer(answer_five, raw=lambda path, request: page) as server:
        with pytest.raises(EndpointUnavailable, match=server.base_url.replace(".", r"\.")) as failure:
            client_for(server).preflight()
    assert "text/html" in str(failure.value) and "nginx" in str(failure.value)


def test_a_body_that_trickles_in_is_cut_off_at_the_deadline_and_retried():
    slow = Raw(completion("The answer is 5." + " " * 200), seconds_per_byte=0.05)  # ~20 s in all
    with ScriptedServer(answer_five, raw=on_post(slow)) as server:
        started = time.perf_counter()
        [result] = client_for(server, timeout_s=1.0, max_retries=1).chat(["2 + 3?"])
        elapsed = time.perf_counter() - started
        assert result.text is None and "timeout_s" in result.error
        assert len(server.requests) == 2  # retried like a timeout
    assert elapsed < 6


def test_a_body_cut_off_mid_read_is_retried():
    replies = iter([Raw(completion("The answer is 5."), cut_after=40), None])  # then the scripted reply
    with ScriptedServer(answer_five, raw=lambda path, request: next(replies) if "body" in request else None) as server:
        [result] = client_for(server, max_retries=1).chat(["2 + 3?"])
        assert result.error is None and result.text == "The answer is 5."
        assert len(server.requests) == 2


def test_a_cache_file_that_is_not_a_database_is_set_aside(tmp_path):
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"this was never a database " * 200)
    with pytest.warns(UserWarning, match=str(path)):
        cache = ResponseCache(path)
    with ScriptedServer(answer_five) as server:
        [result] = client_for(server, cache).chat(["2 + 3?"])
    assert result.text == "The answer is 5." and len(cache) == 1
    [aside] = tmp_path.glob("cache.sqlite.corrupt-*")
    assert aside.read_bytes().startswith(b"this was never")


def test_a_damaged_page_of_the_cache_is_asked_again_with_one_warning(tmp_path):
    path = tmp_path / "cache.sqlite"
    prompts = [f"question {i} " + "padding " * 100 for i in range(200)]
    with ScriptedServer(answer_five) as server:
        cache = ResponseCache(path)
        client_for(server, cache).chat(prompts)
        cache.close()
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        data = bytearray(path.read_bytes())
        data[len(data) // 2:len(data) // 2 + 8192] = b"\xff" * 8192  # two pages in the middle
        path.write_bytes(bytes(data))
        asked = len(server.requests)
        with pytest.warns(UserWarning, match=f"{path} is damaged") as warned:
            results = client_for(server, ResponseCache(path)).chat(prompts)
    assert all(r.text == "The answer is 5." for r in results)
    assert 0 < len(server.requests) - asked < len(prompts)  # only what could not be read was asked again
    assert len([w for w in warned if "damaged" in str(w.message)]) == 1


# --- 6. one writer per run folder ---------------------------------------------------------------------------

@pytest.mark.slow
def test_a_second_invocation_is_refused_naming_the_first_and_a_killed_one_leaves_no_lock(tmp_path, capsys):
    with ScriptedServer(answer_five, latency=lambda: 0.2) as server:
        target = {"name": "scripted", "model": "scripted", "base_url": server.base_url, "concurrency": 1}
        params = write_params(tmp_path, **{"05_evaluate": {"targets": [target]}})
        run_pipeline(params, stages=["01_tasks", "02_decompose", "03_scaffold", "04_skills"])
        first = subprocess.Popen([sys.executable, "-m", "stad_utils.pipeline", str(params), "--stage", "05_evaluate"],
                                 start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.05)
            assert server.requests, "the first invocation never asked its target"
            started = time.perf_counter()
            assert main([str(params), "--stage", "05_evaluate"]) == 1
            assert time.perf_counter() - started < 5  # refused at once
            assert f"process {first.pid}" in capsys.readouterr().err
        finally:
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
        assert main([str(params), "--stage", "05_evaluate"]) == 0  # the killed holder's lock died with it
    verdicts = read_records(tmp_path / "results" / "faults" / "verdicts.jsonl", Verdict.model_validate)
    keys = [(v.task_id, v.variant, v.level) for v in verdicts]
    assert len(keys) == len(set(keys))


# --- 7. secrets never stored --------------------------------------------------------------------------------

SECRET = "sk-FAKE-9d2b7c4e1a0f3e5d"


def echo_the_key(path, request):
    """A 401 whose body quotes the Authorization header it was sent, as some gateways do."""
    if "body" not in request:
        return None
    message = f"Incorrect API key provided: {request['headers'].get('authorization')} (key {SECRET})"
    return Raw(json.dumps({"error": {"message": message}}).encode(), status=401)


def test_a_401_that_echoes_the_key_leaves_it_in_no_verdict(tmp_path, monkeypatch):
    monkeypatch.setenv("STAD_FAKE_KEY", SECRET)
    with ScriptedServer(answer_five, raw=echo_the_key) as server:
        client = client_for(server, api_key_env="STAD_FAKE_KEY")
        verdicts = evaluate([ladder("a", 2)], client, tmp_path / "verdicts.jsonl", progress=False)
    assert server.requests[0]["headers"]["authorization"] == f"Bearer {SECRET}"
    assert verdicts and all("401" in v.error and "***" in v.error for v in verdicts)
    stored = (tmp_path / "verdicts.jsonl").read_text()
    assert SECRET not in stored and "Bearer sk" not in stored


@pytest.mark.slow
def test_a_run_against_a_key_echoing_endpoint_stores_the_key_nowhere(tmp_path, monkeypatch):
    monkeypatch.setenv("STAD_FAKE_KEY", SECRET)
    with ScriptedServer(answer_five, raw=echo_the_key) as server:
        target = {"model": "scripted", "base_url": server.base_url, "api_key_env": "STAD_FAKE_KEY", "max_retries": 0}
        params = write_params(tmp_path, **{"05_evaluate": {"targets": [target]}, "06_analyze": {"n_resamples": 20},
                                           "07_compare": {"n_permutations": 10}})
        main([str(params)])  # 05's errors may fail the run; what matters is what was written
    files = [path for path in (tmp_path / "results").rglob("*") if path.is_file()]
    assert any(path.name == "verdicts.jsonl" for path in files)
    for path in files:
        data = path.read_bytes()
        assert SECRET.encode() not in data, path


# --- 8. the environment checks itself -----------------------------------------------------------------------

def test_a_stale_kernel_spec_is_rewritten(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    spec = tmp_path / "share" / "jupyter" / "kernels" / "stad-python" / "kernel.json"
    kernel_for_this_python()
    written = json.loads(spec.read_text())
    assert written["argv"][0] == sys.executable
    spec.write_text(json.dumps({**written, "argv": ["/moved/venv/bin/python", *written["argv"][1:]]}))
    kernel_for_this_python()
    assert json.loads(spec.read_text())["argv"][0] == sys.executable


@pytest.mark.skipif(os.geteuid() != 0, reason="only root needs --allow-root")
def test_make_lab_starts_as_root(tmp_path):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (tmp_path / "jupyter_server_config.json").write_text(json.dumps(
        {"ServerApp": {"port": port, "ip": "127.0.0.1", "open_browser": False}}))
    venv = Path(sys.executable).parent.parent
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path), "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    lab = subprocess.Popen(["make", "-o", f"{venv}/.installed-stamp", "lab", f"VENV={venv}"], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        log = []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = lab.stdout.readline()
            if not line:
                break
            log.append(line)
            if f"127.0.0.1:{port}/lab" in line:
                break
        assert any(f"127.0.0.1:{port}/lab" in line for line in log), "".join(log)
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        lab.wait(timeout=30)


def test_check_refuses_a_negative_max_tokens_naming_the_key_and_target(tmp_path, capsys):
    params = write_params(tmp_path, **{"05_evaluate": {"targets": [
        {"model": "m", "base_url": "http://127.0.0.1:9/v1", "max_tokens": -5}]}})
    assert main([str(params), "--check"]) == 1
    assert "stages.05_evaluate.targets[0].max_tokens" in capsys.readouterr().out


def test_a_run_refuses_a_mistyped_parameter_naming_the_key_before_any_stage(tmp_path):
    params = write_params(tmp_path)
    with pytest.raises(ValueError, match=r"stages\.01_tasks\.n_tasks: expected int, got 'ten'"):
        run_pipeline(params, stages=["01_tasks"], overrides={"01_tasks": {"n_tasks": "ten"}})
    assert not (tmp_path / "results" / "faults" / "tasks.jsonl").exists()


def test_a_run_names_the_target_of_a_bad_endpoint_block(tmp_path, capsys):
    params = write_params(tmp_path, **{"05_evaluate": {"targets": [
        {"model": "m", "base_url": "http://127.0.0.1:9/v1"}, {"model": "m2", "kind": "openai", "concurrency": 0}]}})
    assert main([str(params), "--stage", "05_evaluate"]) == 1
    err = capsys.readouterr().err
    assert "stages.05_evaluate.targets[1].concurrency" in err and "validation error for EndpointConfig" not in err


def test_a_server_without_a_models_listing_is_checked_with_a_one_token_request():
    def no_listing(path, request):
        return Raw(b'{"detail": "Not Found"}', status=404) if "body" not in request else None

    with ScriptedServer(answer_five, raw=no_listing) as server:
        [served] = client_for(server).preflight()
        [probe] = server.requests
    assert served["url"] == server.base_url and served["models"] is None and "404" in served["checked_by"]
    assert probe["body"]["max_tokens"] == 1
