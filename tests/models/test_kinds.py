"""The registry of endpoint kinds: every kind-dependent decision is asked of it, so a new kind is one object."""

from contextlib import contextmanager

import pytest
import tomllib
from helpers import ROOT, ladder

from stad_utils.method import evaluate
from stad_utils.models import (
    ChatResult,
    EndpointConfig,
    EndpointKind,
    UsageStats,
    endpoint_config,
    endpoint_kind,
    open_client,
    register_kind,
)
from stad_utils.models import _endpoint as registry
from stad_utils.pipeline import check_params, preflight


def test_the_built_in_kinds_and_what_each_says_of_itself():
    built_in = {name: endpoint_kind(name) for name in ("openai", "embedded", "vllm", "simulated")}
    assert {name for name, kind in built_in.items() if kind.cached} == {"openai", "embedded", "vllm"}
    assert {name for name, kind in built_in.items() if kind.sends_requests} == {"openai", "embedded"}
    assert {name for name, kind in built_in.items() if kind.simulated} == {"simulated"}
    assert {name: kind.extra for name, kind in built_in.items()} == {
        "openai": None, "embedded": "embedded", "vllm": "vllm", "simulated": None}


def test_every_extra_a_kind_needs_is_declared():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    needed = {kind.extra for kind in registry._KINDS.values() if kind.extra}
    assert needed <= set(declared)


def test_an_unknown_kind_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown endpoint kind 'openia': use 'openai', 'embedded', 'vllm' or "
                                         "'simulated'"):
        endpoint_kind("openia")
    with pytest.raises(ValueError, match=r"target\.kind: Input should be 'openai', 'embedded', 'vllm' or 'simulated'"):
        endpoint_config({"model": "m", "kind": "openia"}, "target")


def test_a_name_registered_twice_is_refused():
    with pytest.raises(ValueError, match="'openai' is registered already"):
        register_kind(EndpointKind("openai", open=endpoint_kind("openai").open))


class Echo:
    """A client of the new kind: answers every prompt with itself."""

    def __init__(self, endpoint: EndpointConfig):
        self.endpoint, self.usage, self.model = endpoint, UsageStats(), endpoint.label

    def chat_one(self, prompt, *, sample=0, response_format=None, **overrides):
        result = ChatResult(f"Answer: {prompt}", finish_reason="stop")
        self.usage.add(result)
        return result

    def chat(self, prompts, *, desc=None, response_format=None, sample=0, **overrides):
        return [self.chat_one(prompt, sample=sample) for prompt in prompts]


@pytest.fixture
def echo_kind(monkeypatch):
    """A kind that is one registered object, gone from the registry after the test."""
    monkeypatch.setattr(registry, "_KINDS", dict(registry._KINDS))
    opened = []

    @contextmanager
    def open_echo(config, options):
        opened.append(options)
        yield Echo(config)

    return opened, register_kind(EndpointKind(
        "echo", open=open_echo, preflight=lambda config, where: [{"kind": "echo", "where": where}],
        check=lambda config: [] if config.system_prompt else ["an echo endpoint needs a system_prompt"],
        cached=False, sends_requests=False, simulated=True))


def test_a_new_kind_is_opened_checked_preflighted_and_evaluated_through_the_registry(echo_kind, tmp_path):
    opened, _ = echo_kind
    block = {"kind": "echo", "model": "parrot"}
    assert "'echo'" in registry.known_kinds()
    with open_client(block, cache_path=tmp_path / "cache.sqlite", role="target", ladders=[]) as client:
        assert client.chat_one("What is 2 + 3?").text == "Answer: What is 2 + 3?"
        verdicts = evaluate([ladder()], client, tmp_path / "verdicts.jsonl", progress=False)
    assert opened[0].cache is None and opened[0].role == "target" and opened[0].ladders == []
    assert not (tmp_path / "cache.sqlite").exists()  # the cache does not apply to this kind
    assert verdicts and all(verdict.simulated for verdict in verdicts)
    assert preflight({"05_evaluate": {"targets": [block]}}) == {
        "stages.05_evaluate.targets[0]": [{"kind": "echo", "where": "stages.05_evaluate.targets[0]"}]}
    with pytest.raises(ValueError, match="kind 'echo' takes none of them"):
        endpoint_config({**block, "reasoning_effort": "low"}, "target")
    params = tmp_path / "params.yaml"
    params.write_text("run: echo\nstages:\n  05_evaluate:\n    targets: [{kind: echo, model: parrot}]\n")
    assert "stages.05_evaluate.targets[0]: an echo endpoint needs a system_prompt" in check_params(params).errors
