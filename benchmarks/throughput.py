"""Client throughput against a latency-injecting OpenAI-compatible server on loopback.

Every latency server runs in a process of its own with Nagle's algorithm disabled
(`latency_server.py`), as a real inference server would: a server in the client's own process
shares its interpreter lock and flatters neither strategy equally. Compares, at the same concurrency, the project's streaming pool (`ModelClient.chat`: a new
request starts as soon as any finishes) with the batch-barrier strategy of the authors'
scripts (batches of 100 requests, each batch waiting for its slowest member), for a fixed
and a long-tailed latency; six targets on six loopback endpoints evaluated at the same time
vs one after another (`stad_utils.evaluate_targets`); the embedded model's tokens per second
as one 2-thread llama.cpp server vs one 1-thread server per core. Also reports, from a
finished quickstart run, the model calls per task of the full ladder vs the "variants only
when the original fails" policy, and the time of a fully cached re-run of the quickstart chain.

    python benchmarks/throughput.py                  # N = 2,000 requests, concurrency 16
    python benchmarks/throughput.py --requests 500 --skip-rerun
    python benchmarks/throughput.py --repeats 2 --skip-embedded --skip-rerun   # is it reproducible?
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from latency_server import LatencyServer, latency_draws  # noqa: E402

from stad_utils.models import EndpointConfig, ModelClient  # noqa: E402


def batch_barrier(client: ModelClient, prompts: list[str], batch_size: int) -> None:
    """The authors' strategy: submit a batch, wait for all of it, then the next batch.

    Each request goes through the client's own request path (``_call``: the same SDK call and
    retries), so only the scheduling differs from `ModelClient.chat`.
    """
    with ThreadPoolExecutor(max_workers=client.endpoint.concurrency) as pool:
        for start in range(0, len(prompts), batch_size):
            list(pool.map(lambda p: client._call([{"role": "user", "content": p}], client.endpoint.sampling()),
                          prompts[start:start + batch_size]))


def measure(latency_name: str, latency: str, n_requests: int, concurrency: int, batch_size: int) -> dict:
    """Seconds for ``n_requests`` by the streaming pool and by batch barriers, each against a fresh server
    process drawing the same latencies in the same order."""
    draws = latency_draws(latency, n_requests, seed=0)
    mean = sum(draws) / len(draws)
    prompts = [f"request {i}" for i in range(n_requests)]

    def client(base_url: str) -> ModelClient:
        config = EndpointConfig(model="bench", base_url=base_url, concurrency=concurrency, max_retries=0)
        return ModelClient(config, progress=False)

    with LatencyServer(latency, count=n_requests) as base_url:
        started = time.perf_counter()
        client(base_url).chat(prompts)
        streaming = time.perf_counter() - started
    with LatencyServer(latency, count=n_requests) as base_url:
        started = time.perf_counter()
        batch_barrier(client(base_url), prompts, batch_size)
        barrier = time.perf_counter() - started
    ideal = n_requests * mean / concurrency
    return {"latency": latency_name, "mean_latency_s": round(mean, 4), "ideal_s": round(ideal, 2),
            "streaming_s": round(streaming, 2), "batch_barrier_s": round(barrier, 2),
            "barrier_vs_streaming": round(barrier / streaming, 2),
            "streaming_vs_ideal": round(streaming / ideal, 2), "barrier_vs_ideal": round(barrier / ideal, 2)}


def embedded_generation_speed(n_prompts: int = 24, repeats: int = 3) -> list[dict]:
    """Tokens per second on the same prompts: one 2-thread llama.cpp server vs one 1-thread server per core.

    The two set-ups take turns ``repeats`` times (so that a busy moment of the machine does not
    fall on one of them only); the median of each is reported.
    """
    import statistics

    from stad_utils.models import embedded_model_path, llama_servers

    prompts = [f"Maya has {i} bags with 4 apples in each. She sells all of them for $3 each. "
               "How many dollars does she make?" for i in range(2, 2 + n_prompts)]
    setups = ((1, 2), (2, 1))
    rates: dict[tuple[int, int], list[float]] = {setup: [] for setup in setups}
    tokens = 0
    for _ in range(repeats):
        for n_servers, n_threads in setups:
            with llama_servers(embedded_model_path(), alias="smollm2", n_servers=n_servers,
                               n_threads=n_threads) as urls:
                client = ModelClient(EndpointConfig(model="smollm2", base_url=urls, max_tokens=160, concurrency=1,
                                                    extra_body={"repeat_penalty": 1.0}), progress=False)
                started = time.perf_counter()
                replies = client.chat(prompts)
                seconds = time.perf_counter() - started
            tokens = sum(r.completion_tokens for r in replies)
            rates[n_servers, n_threads].append(tokens / seconds)
    return [{"servers": n_servers, "threads_each": n_threads, "prompts": n_prompts, "completion_tokens": tokens,
             "repeats": repeats, "median_tokens_per_s": round(statistics.median(rates[n_servers, n_threads]), 1),
             "all_tokens_per_s": [round(rate, 1) for rate in rates[n_servers, n_threads]]}
            for n_servers, n_threads in setups]


def concurrent_targets(n_targets: int, n_tasks: int, concurrency: int, latency_s: float) -> dict:
    """Six targets on six loopback endpoints: `evaluate_targets` (all at once) vs one target after another.

    The whole evaluation path runs (asking, judging, appending verdicts); each scripted server
    answers after ``latency_s``. The ideal times assume nothing but the latency costs time.
    """
    import tempfile

    from stad_utils.method import OracleTeacher, build_ladders, decompose, evaluate, evaluate_targets
    from stad_utils.tasks import generate_tasks

    teacher = OracleTeacher()
    ladders = build_ladders(decompose(generate_tasks(n_tasks, seed=1), teacher), teacher)
    questions = sum(2 * ladder.n_steps for ladder in ladders)
    servers = [LatencyServer(f"fixed:{latency_s}", reply="Answer: 7") for _ in range(n_targets)]
    urls = [server.__enter__() for server in servers]
    try:
        def targets() -> list[ModelClient]:
            return [ModelClient(EndpointConfig(model=f"target-{i}", base_url=url, concurrency=concurrency),
                                progress=False) for i, url in enumerate(urls)]

        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            for target in targets():
                evaluate(ladders, target, Path(folder) / "sequential.jsonl", progress=False)
            sequential = time.perf_counter() - started
            started = time.perf_counter()
            evaluate_targets(ladders, targets(), Path(folder) / "concurrent.jsonl", progress=False)
            concurrent = time.perf_counter() - started
    finally:
        for server in servers:
            server.__exit__(None, None, None)
    one_target = questions * latency_s / concurrency
    return {"targets": n_targets, "questions_per_target": questions, "latency_s": latency_s,
            "concurrency_per_target": concurrency, "ideal_concurrent_s": round(one_target, 2),
            "concurrent_s": round(concurrent, 2), "ideal_sequential_s": round(n_targets * one_target, 2),
            "sequential_s": round(sequential, 2), "speedup": round(sequential / concurrent, 2)}


def calls_per_task(run_dir: Path) -> dict | None:
    """Model calls per task and model: the full ladder vs the authors' on-failure policy."""
    from stad_utils.records import Verdict, latest_verdicts, read_records

    path = run_dir / "verdicts.jsonl"
    if not path.exists():
        return None
    verdicts = latest_verdicts(read_records(path, Verdict.model_validate)).values()
    per_task: dict[tuple[str, str], list] = {}
    for v in verdicts:
        per_task.setdefault((v.task_id, v.model), []).append(v)
    full = [len(vs) for vs in per_task.values()]
    on_failure = [len(vs) if any(v.variant == "original" and v.outcome in ("wrong", "no_answer") for v in vs) else 1
                  for vs in per_task.values()]
    return {"tasks_x_models": len(per_task), "full_ladder": round(sum(full) / len(full), 2),
            "on_failure": round(sum(on_failure) / len(on_failure), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--skip-rerun", action="store_true", help="do not time a cached re-run of the quickstart")
    parser.add_argument("--skip-embedded", action="store_true", help="do not measure the embedded model's servers")
    parser.add_argument("--repeats", type=int, default=1, help="measure the client strategies this many times")
    parser.add_argument("--embedded-prompts", type=int, default=24, help="prompts per embedded measurement")
    parser.add_argument("--embedded-repeats", type=int, default=3, help="turns of each embedded layout")
    args = parser.parse_args(argv)
    latencies = {
        "fixed 50 ms": "fixed:0.05",
        "long-tailed (lognormal, median 30 ms, capped at 2 s)": "lognormal:-3.5:1.0:2.0",
    }
    print(f"N = {args.requests} requests, concurrency {args.concurrency}, barrier batches of {args.batch_size}; "
          "each server in its own process, TCP_NODELAY")
    ratios: dict[str, list[float]] = {name: [] for name in latencies}
    for repeat in range(args.repeats):
        for name, latency in latencies.items():
            row = measure(name, latency, args.requests, args.concurrency, args.batch_size)
            ratios[name].append(row["barrier_vs_streaming"])
            print(f"run {repeat + 1}:", json.dumps(row))
    for name, values in ratios.items():
        print(f"{name}: the authors' batch barrier takes {statistics.median(values):.2f}× the streaming pool's time "
              f"(runs: {', '.join(f'{value:.2f}' for value in values)})")
    quickstart = ROOT / "results" / "quickstart"
    print("model calls per task (quickstart):", json.dumps(calls_per_task(quickstart)))
    print("six targets:", json.dumps(concurrent_targets(6, 40, 4, 0.05)))
    if not args.skip_embedded:
        rows = embedded_generation_speed(args.embedded_prompts, args.embedded_repeats)
        for row in rows:
            print("embedded SmolLM2 generation:", json.dumps(row))
        fastest = max(rows, key=lambda row: row["median_tokens_per_s"])
        print(f"fastest embedded layout on this machine: {fastest['servers']} server(s) × "
              f"{fastest['threads_each']} thread(s) ({fastest['median_tokens_per_s']} tokens/s)")
    if not args.skip_rerun and (quickstart / "summary.json").exists():
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "stad_utils.pipeline", "params/quickstart.yaml"], cwd=ROOT, check=True,
                       capture_output=True)
        usage = json.loads((quickstart / "usage.json").read_text())
        calls = sum(stats["calls"] for roles in usage.values() for models in roles.values() for stats in models.values())
        print(f"fully cached re-run of the quickstart chain: {time.perf_counter() - started:.1f} s, "
              f"model calls: {calls}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
