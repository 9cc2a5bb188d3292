"""The embedded model's servers: one single-thread server per core, gone when their parent dies."""

import signal
import subprocess
import sys
import time

import psutil
import pytest

from stad_utils.models import embedded_model_path, open_client

SERVE_THEN_WAIT = """
import sys, time
from stad_utils.models import embedded_model_path, llama_servers
with llama_servers(embedded_model_path(), alias="smollm2", n_servers=2) as urls:
    print(" ".join(urls), flush=True)
    time.sleep(600)
"""


def guarded_servers(parent: psutil.Process) -> list[psutil.Process]:
    return [p for p in parent.children(recursive=True) if "_orphan_guard" in " ".join(p.cmdline())]


@pytest.mark.slow
def test_servers_exit_when_the_process_that_started_them_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", SERVE_THEN_WAIT], stdout=subprocess.PIPE, text=True)
    try:
        urls = parent.stdout.readline().split()
        servers = guarded_servers(psutil.Process(parent.pid))
        assert len(urls) == 2 and len(servers) == 2
        assert all("--n_threads" in s.cmdline() and s.cmdline()[s.cmdline().index("--n_threads") + 1] == "1"
                   for s in servers)
        parent.send_signal(signal.SIGKILL)  # no cleanup code of the parent can run
        parent.wait()
        gone, alive = psutil.wait_procs(servers, timeout=15)
        assert not alive, [p.cmdline() for p in alive]
    finally:
        parent.kill()


@pytest.mark.slow
def test_two_settings_of_the_embedded_model_share_one_set_of_servers(tmp_path):
    plain = {"kind": "embedded", "model": "smollm2-135m-instruct", "max_tokens": 8}
    with open_client(plain) as first, open_client({**plain, "name": "other", "system_prompt": "Be brief."}) as second:
        assert first.urls == second.urls and len(first.urls) >= 1
        replies = first.chat(["What is 2 + 3?"]) + second.chat(["What is 2 + 3?"])
    assert all(reply.ok and reply.finish_reason in ("stop", "length") for reply in replies)
    assert all(reply.completion_tokens <= 8 for reply in replies)


def test_the_gguf_file_of_the_embedded_model_is_found():
    assert embedded_model_path().suffix == ".gguf" and embedded_model_path().stat().st_size > 50_000_000


@pytest.mark.slow
def test_killing_the_pipeline_mid_evaluation_leaves_no_server_behind(tmp_path):
    """The issue's scenario: `kill -9` of the runner; its kernel, then the kernel's servers, must exit."""
    import yaml

    from stad_utils.pipeline import run_pipeline

    params = tmp_path / "params.yaml"
    params.write_text(yaml.safe_dump({"run": "killed", "results_dir": str(tmp_path / "results"),
                                      "cache": str(tmp_path / "cache.sqlite"), "stages": {
                                          "01_tasks": {"n_tasks": 6, "seed": 2},
                                          "05_evaluate": {"targets": [{"kind": "embedded", "model": "smollm2",
                                                                       "max_tokens": 256}]}}}))
    run_pipeline(params, stages=["01_tasks", "02_decompose", "03_scaffold", "04_skills"])
    runner = subprocess.Popen([sys.executable, "-m", "stad_utils.pipeline", str(params), "--stage", "05_evaluate"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (servers := guarded_servers(psutil.Process(runner.pid))) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert servers, "the embedded servers never started"
        kernel = [p for p in psutil.Process(runner.pid).children() if "ipykernel" in " ".join(p.cmdline())]
        runner.send_signal(signal.SIGKILL)  # the runner only: nothing of it can clean up
        runner.wait()
        gone, alive = psutil.wait_procs(servers + kernel, timeout=30)
        assert not alive, [p.cmdline()[:4] for p in alive]
    finally:
        runner.kill()
