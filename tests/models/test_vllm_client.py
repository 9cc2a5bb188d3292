"""The vLLM in-process client, with a stand-in `vllm` module (the real engine needs a GPU).

What is tested is the project's side: questions asked one per thread reach the engine in
batches, each with its own sampling settings, answers return to the right caller, and the
cache and errors behave as for the OpenAI-compatible client.
"""

import sys
import threading
import types
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from stad_utils.models import EndpointConfig, MicroBatcher, ResponseCache


@dataclass
class SamplingParams:
    temperature: float
    max_tokens: int
    seed: int | None = None
    top_p: float | None = None


class FakeLLM:
    """Answers each conversation with its last message reversed; remembers every batch it was given."""

    batches: list = []

    def __init__(self, model, seed, **_):
        self.model = model

    def chat(self, conversations, sampling, use_tqdm=False):
        FakeLLM.batches.append((len(conversations), [s.seed for s in sampling]))
        if any(c[-1]["content"] == "explode" for c in conversations):
            raise RuntimeError("CUDA out of memory")
        return [types.SimpleNamespace(prompt_token_ids=[0] * 3, outputs=[types.SimpleNamespace(
            text=c[-1]["content"][::-1], finish_reason="stop", token_ids=[0] * 2)]) for c in conversations]


@pytest.fixture
def vllm_client(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "vllm", types.SimpleNamespace(LLM=FakeLLM, SamplingParams=SamplingParams))
    FakeLLM.batches = []
    from stad_utils.models import VLLMEngineClient

    return VLLMEngineClient(EndpointConfig(kind="vllm", model="fake"), ResponseCache(tmp_path / "cache.sqlite"))


def test_questions_asked_one_per_thread_reach_the_engine_in_batches(vllm_client):
    prompts = [f"question {i}" for i in range(40)]
    with ThreadPoolExecutor(max_workers=40) as pool:
        replies = list(pool.map(lambda p: vllm_client.chat_one(p, sample=int(p.split()[1]) % 2), prompts))
    assert [r.text for r in replies] == [p[::-1] for p in prompts]  # each caller gets its own answer
    assert len(FakeLLM.batches) < 40 and max(size for size, _ in FakeLLM.batches) > 1
    assert {seed for _, seeds in FakeLLM.batches for seed in seeds} == {0, 1}  # per-request sampling settings
    again = vllm_client.chat(prompts[0::2]) + vllm_client.chat(prompts[1::2], sample=1)
    assert all(r.cached for r in again) and sum(size for size, _ in FakeLLM.batches) == 40  # nothing asked twice


def test_an_engine_failure_is_an_error_result_never_a_reply(vllm_client):
    [result] = vllm_client.chat(["explode"])
    assert result.text is None and "CUDA out of memory" in result.error


def test_the_batcher_hands_a_failure_to_every_waiting_caller():
    def answer_batch(batch):
        raise ValueError("broken batch")

    batcher = MicroBatcher(answer_batch)
    errors = []

    def ask():
        try:
            batcher.submit("q")
        except ValueError as exc:
            errors.append(str(exc))

    threads = [threading.Thread(target=ask) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert errors == ["broken batch"] * 5
