"""The embedded model served for a room (the workshop's fifth exercise): one server, stopped by one signal."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request

import pytest

from stad_utils.models import free_port
from stad_utils.models.embedded.serve import server_command


def test_the_room_server_listens_on_every_interface_under_the_embedded_name():
    command = server_command("0.0.0.0", 8000, 2)
    assert command[1:3] == ["-m", "llama_cpp.server"] and command[command.index("--model") + 1].endswith(".gguf")
    assert command[command.index("--host") + 1] == "0.0.0.0" and command[command.index("--port") + 1] == "8000"
    assert command[command.index("--model_alias") + 1] == "smollm2-135m-instruct"


@pytest.mark.slow
def test_the_room_server_answers_and_one_signal_stops_it():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "stad_utils.models.embedded.serve", "--host", "127.0.0.1",
                               "--port", str(port), "--threads", "1"], stdout=subprocess.PIPE, text=True)
    try:
        assert "room_model = \"smollm2-135m-instruct\"" in "".join(server.stdout.readline() for _ in range(3))
        for _ in range(240):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as reply:
                    served = json.load(reply)
                break
            except OSError:
                time.sleep(0.5)
        assert served["data"][0]["id"] == "smollm2-135m-instruct"
    finally:
        server.terminate()  # the server itself, not a wrapper: nothing is left listening
        assert server.wait(timeout=30) is not None
