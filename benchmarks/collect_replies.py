"""Collect real replies of the embedded model to real benchmark questions, for the judge's labelled set.

Asks SmolLM2-135M-Instruct (served by llama.cpp, as in the quickstart) a seeded sample of the
original questions of GSM8K, ToT-Arithmetic and MATH Level 5 from local files, in the two
settings of the quickstart (the question alone, and a system prompt asking for an answer line),
and writes one JSON line per reply: the question, the gold reference and its format, the reply,
the server's finish reason and the token counts. Replies are real model outputs; nothing is
rewritten. The labels come later, from a careful reading of each reply (see judge_report.py).

    python benchmarks/collect_replies.py --data ../shared/data --out /tmp/replies/embedded.jsonl
    python benchmarks/collect_replies.py --from-run results/quickstart --out /tmp/replies/quickstart.jsonl

``--from-run`` takes the replies a finished run already holds (its verdicts, every variant),
with the question each answered and its reference; finish reasons missing from older verdict
files are recovered from the run's response cache (a reply exactly ``max_tokens`` long was cut off).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import yaml

from stad_utils.models import open_client
from stad_utils.tasks import load_tasks

SETTINGS = {
    "plain": None,
    "answer-line": "Solve the problem step by step. End with a line of the form 'Answer: <value>'.",
}


def collect(data: Path, per_benchmark: dict[str, int], max_tokens: int, seed: int) -> list[dict]:
    rows = []
    for benchmark, count in per_benchmark.items():
        tasks = load_tasks(benchmark, data_path=str(data), n_tasks=count, seed=seed)
        for setting, system_prompt in SETTINGS.items():
            endpoint = {"kind": "embedded", "model": "smollm2-135m-instruct", "max_tokens": max_tokens,
                        "system_prompt": system_prompt}
            with open_client(endpoint, role="target") as client:
                replies = client.chat([task.question for task in tasks], desc=f"{benchmark} ({setting})")
            rows += [{"source": f"embedded/{benchmark}", "setting": setting, "task_id": task.task_id,
                      "question": task.question, "reference": task.answer, "answer_format": task.answer_format,
                      "response": reply.text, "finish_reason": reply.finish_reason, "max_tokens": max_tokens,
                      "completion_tokens": reply.completion_tokens}
                     for task, reply in zip(tasks, replies) if reply.ok]
    return rows


def from_run(run_dir: Path, cache_path: Path) -> list[dict]:
    from stad_utils.models import ResponseCache
    from stad_utils.records import Ladder, Verdict, read_records

    ladders = {ladder.task_id: ladder for ladder in read_records(run_dir / "ladders.jsonl", Ladder.model_validate)}
    targets = {t.get("name") or t["model"]: t for t in yaml.safe_load((run_dir / "params.yaml").read_text())
               ["stages"]["05_evaluate"]["targets"]}
    cache = ResponseCache(cache_path)
    rows = []
    for verdict in read_records(run_dir / "verdicts.jsonl", Verdict.model_validate):
        if verdict.response is None:
            continue
        finish_reason = verdict.finish_reason or _cached_finish_reason(cache, targets[verdict.model], verdict.prompt)
        task = ladders[verdict.task_id].task
        rows.append({"source": f"embedded/{task.source}", "setting": verdict.model, "task_id": verdict.task_id,
                     "variant": verdict.variant, "level": verdict.level, "question": verdict.prompt,
                     "reference": verdict.reference,
                     "answer_format": task.answer_format if verdict.variant != "isolated" else None,
                     "response": verdict.response, "finish_reason": finish_reason})
    return rows


def _cached_finish_reason(cache, target: dict, prompt: str) -> str | None:
    from stad_utils.models import EndpointConfig, ModelClient, from_cache

    config = EndpointConfig.model_validate({**target, "kind": "openai", "base_url": "http://unused/v1"})
    extra = {"repeat_penalty": 1.0, **config.extra_body} if target.get("kind") == "embedded" else config.extra_body
    key, _, params = ModelClient(config.model_copy(update={"extra_body": extra}), progress=False).request(prompt)
    stored = cache.get(key)
    return from_cache(stored, params).finish_reason if stored else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--gsm8k", type=int, default=40)
    parser.add_argument("--tot", type=int, default=40)
    parser.add_argument("--math", type=int, default=20)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--from-run", type=Path, help="take the replies of a finished run instead of asking")
    args = parser.parse_args()
    if args.from_run:
        rows = from_run(args.from_run, args.from_run.parent / "cache.sqlite")
    else:
        rows = collect(args.data, {"gsm8k": args.gsm8k, "tot_arithmetic": args.tot, "math_hard": args.math},
                       args.max_tokens, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    print(f"{len(rows)} replies written to {args.out}")


if __name__ == "__main__":
    main()
