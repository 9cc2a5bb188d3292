"""STaD inside Inspect and back, and runs as Inspect logs: against a scripted server replaying the example run."""

import json

import pytest
import tomllib
from helpers import ROOT
from inspect_ai.log import read_eval_log
from replay import (
    FAILING,
    SERVED,
    SYSTEM_PROMPT,
    entry_point_shim,
    inspect_eval,
    replaying_server,
    run_before_evaluation,
)

from stad_utils.exchange import export_inspect_logs, read_inspect_logs, sample_id
from stad_utils.records import RunPaths, Verdict, latest_verdicts, read_records
from stad_utils.stages import analyze, evaluate


def summary_without_usage(run_dir):
    """summary.json without what the run cost (calls and seconds differ between two ways of asking)."""
    summary = json.loads(RunPaths(run_dir).summary.read_text())
    summary.pop("usage", None)
    return summary


def latest(run_dir):
    return latest_verdicts(read_records(RunPaths(run_dir).verdicts, Verdict.model_validate))


@pytest.mark.slow
def test_the_example_ladders_asked_through_inspect_give_the_summary_05_gives(tmp_path):
    by_05 = run_before_evaluation(tmp_path / "by-05")
    by_inspect = run_before_evaluation(tmp_path / "by-inspect")
    shim = entry_point_shim(tmp_path / "shim")
    with replaying_server() as server:
        targets = [{"name": label, "kind": "openai", "model": model, "base_url": server.base_url, "max_tokens": 256,
                    "max_retries": 0, **({"system_prompt": SYSTEM_PROMPT} if model == "answer-line" else {})}
                   for label, model in SERVED.items()]
        evaluate.run(RunPaths(by_05), evaluate.Params(targets=targets, cache_path=str(tmp_path / "cache.sqlite")))
        asked_by_05 = len(server.requests)
        logs = tmp_path / "logs"
        plain = [model for model in SERVED.values() if model != "answer-line"]
        for models, task_args in ((plain, ()), (["answer-line"], ("-T", f"system_prompt={json.dumps(SYSTEM_PROMPT)}"))):
            ran = inspect_eval(by_inspect, models, logs, server.base_url, shim, *task_args)
            assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
        asked_by_inspect = server.requests[asked_by_05:]
    questions = sum(1 for v in latest(by_05).values())
    assert questions == 4 * 144
    assert len(asked_by_inspect) == questions  # one request per sample: --max-retries 0 and -M max_retries=0 hold
    names = {f"openai-api/scripted/{model}": label for label, model in SERVED.items()}
    for path in logs.glob("*.eval"):  # the key Inspect sent is in no log
        assert b"placeholder-key" not in read_eval_log(str(path)).model_dump_json().encode()
    read = read_inspect_logs(sorted(logs.glob("*.eval")), by_inspect, names)
    assert {label: len(verdicts) for label, verdicts in read.items()} == dict.fromkeys(SERVED, 144)

    # the same verdicts, field by field, for the same replies
    mine, theirs = latest(by_inspect), latest(by_05)
    assert mine.keys() == theirs.keys()
    fields = ("response", "outcome", "correct", "extracted", "decided_by", "explanation", "judge_version", "truncated",
              "finish_reason", "reasoning", "prompt_tokens", "completion_tokens")
    for key, verdict in mine.items():
        assert {f: getattr(verdict, f) for f in fields} == {f: getattr(theirs[key], f) for f in fields}, key
    assert sum(v.truncated for v in mine.values()) > 10  # replies cut off by max_tokens, as truncated
    outcomes = {v.outcome for v in mine.values()}
    assert {"correct", "wrong", "no_answer", "undecided", "error"} <= outcomes
    failed = next(v for v in mine.values() if (SERVED[v.model], v.task_id, v.variant, v.level) == FAILING)
    assert failed.outcome == "error" and failed.response is None and failed.correct is None and failed.error
    traced = [v for v in mine.values() if v.model == "smollm2-plain" and v.response is not None]
    assert all(v.reasoning.startswith("Let me think about:") and "Let me think" not in v.response for v in traced)

    # 06 reads both runs alike
    for run_dir in (by_05, by_inspect):
        analyze.run(RunPaths(run_dir), analyze.Params(n_resamples=200))
    assert summary_without_usage(by_inspect) == summary_without_usage(by_05)


def test_the_task_is_declared_where_inspect_finds_it():
    """``inspect eval stad_utils/stad_ladders``: the entry point the round trip's shim declares is the package's."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["entry-points"]["inspect_ai"] == {"stad_utils": "stad_utils.exchange.inspect.task"}
    extra = pyproject["project"]["optional-dependencies"]["inspect"]
    assert any(requirement.startswith("inspect_ai>=0.3.285") for requirement in extra)


def test_a_run_exported_to_inspect_logs_reads_back_with_every_sample(tmp_path, example_run):
    written = export_inspect_logs(example_run, tmp_path / "logs", params=ROOT / "params" / "quickstart.yaml")
    assert len(written) == 4
    verdicts = latest(example_run)
    for path in written:
        log = read_eval_log(str(path))
        label = log.eval.model
        mine = [v for v in verdicts.values() if v.model == label]
        assert len(log.samples) == len(mine) == 144 and log.eval.dataset.samples == 144
        assert log.status == "success" and path.name.endswith(".eval")
        by_id = {(s.id, s.epoch): s for s in log.samples}
        for verdict in mine:
            sample = by_id[sample_id(verdict.task_id, verdict.variant, verdict.level), verdict.sample + 1]
            assert sample.metadata["variant"] == verdict.variant and "k" in sample.metadata
            judged = sample.scores["stad_judge"]
            assert judged.metadata["outcome"] == verdict.outcome and judged.metadata["decided_by"] == verdict.decided_by
            assert (judged.value == "C") == bool(verdict.correct)
            assert sample.scores["stad_k"].metadata["k"] == sample.metadata["k"]
            assert (sample.output.stop_reason == "max_tokens") == (verdict.finish_reason == "length")
        if label == "smollm2-answer-line":
            assert log.samples[0].input[0].role == "system" and log.samples[0].input[0].content == SYSTEM_PROMPT
    # read back into a copy of the run, the logs give its verdicts again
    copy = run_before_evaluation(tmp_path / "copy")
    read_inspect_logs(written, copy)
    again = latest(copy)
    assert again.keys() == verdicts.keys()
    for key, verdict in again.items():
        assert verdict.model_dump(exclude={"latency_s", "cached"}) == verdicts[key].model_dump(
            exclude={"latency_s", "cached"}), key


def test_a_sample_that_is_not_a_question_of_the_run_is_refused(tmp_path, example_run):
    written = export_inspect_logs(example_run, tmp_path / "logs")
    other = run_before_evaluation(tmp_path / "other")
    ladders = RunPaths(other).ladders
    ladders.write_text("".join(line for line in ladders.read_text().splitlines(keepends=True)
                               if '"gen0-0000"' not in line))
    with pytest.raises(ValueError, match="sample gen0-0000-.* is not a question of the ladders"):
        read_inspect_logs(written[:1], other)

