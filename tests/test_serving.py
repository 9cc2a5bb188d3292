"""The embedded model's servers: one single-thread server per core, gone when their parent dies."""

import signal
import subprocess
import sys

import psutil
import pytest

from stad_utils.serving import embedded_model_path, open_client

SERVE_THEN_WAIT = """
import sys, time
from stad_utils.serving import embedded_model_path, llama_servers
with llama_servers(embedded_model_path(), alias="smollm2", n_servers=2) as urls:
    print(" ".join(urls), flush=True)
    time.sleep(600)
"""


def guarded_servers(parent: psutil.Process) -> list[psutil.Process]:
    return [p for p in parent.children(recursive=True) if "stad_utils._orphan_guard" in " ".join(p.cmdline())]


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
