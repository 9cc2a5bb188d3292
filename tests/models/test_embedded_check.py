"""The embedded llama.cpp build runs on any x86-64 CPU with AVX2, and a build that cannot run fails loudly."""

import signal

import pytest

from stad_utils.models import EmbeddedModelBroken, compiled_features, explain_exit, smoke_test
from stad_utils.models.embedded import check as embedded_check


@pytest.mark.slow
def test_the_installed_build_answers_and_uses_no_instruction_set_a_vm_may_refuse():
    result = smoke_test()
    assert result["text"].strip() and result["tokens"] > 0
    # AVX-512 and AMX are advertised by some VMs that refuse them; a native build on such a machine
    # crashes on its first completion. This machine may run them fine, so the check is on the build itself.
    assert {"AVX", "AVX2"} <= set(result["features"])
    assert not set(result["features"]) & set(embedded_check.UNPORTABLE_FEATURES), result["system_info"]


def test_a_crashing_completion_is_reported_with_the_signal_and_the_fix(monkeypatch):
    monkeypatch.setattr(embedded_check, "_ONE_COMPLETION", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    with pytest.raises(EmbeddedModelBroken, match=r"SIGSEGV.*stad_utils.models.embedded.build"):
        smoke_test(timeout_s=30)


def test_a_hanging_completion_is_reported_not_waited_for(monkeypatch):
    monkeypatch.setattr(embedded_check, "_ONE_COMPLETION", "import time; time.sleep(60)")
    with pytest.raises(EmbeddedModelBroken, match="longer than 1 s"):
        smoke_test(timeout_s=1)


def test_the_check_reads_the_features_a_build_reports():
    info = ("CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | AVX512 = 1 | "
            "AVX512_VBMI = 1 | AMX_INT8 = 1 | LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 |")
    assert {"AVX512", "AMX_INT8", "AVX2"} <= compiled_features(info)
    assert "AVX512" not in compiled_features(info.replace("AVX512 = 1", "AVX512 = 0"))


def test_an_ordinary_failure_is_not_blamed_on_the_cpu():
    assert "instructions" not in explain_exit(1)
    assert "SIGILL" in explain_exit(-signal.SIGILL)
