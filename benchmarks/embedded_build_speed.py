"""Generation speed of the embedded model under two llama.cpp builds, side by side.

    python benchmarks/embedded_build_speed.py                       # the installed (portable) build only
    python benchmarks/embedded_build_speed.py --build native=/tmp/llama-native --rounds 3

`make install` builds llama.cpp without native flags so it runs on any AVX2 machine. What that
costs is measured against a native build on a machine where both run: install the native wheel
elsewhere (``pip wheel --no-cache-dir --no-deps llama-cpp-python==0.3.36 -w W`` then ``pip install
--no-deps --target DIR W/*.whl``) and name DIR with ``--build``. Each round runs every build once,
in alternation (the machine's load drifts), in a fresh process with one thread, on the same
prompts at temperature 0; the median of the rounds is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

PROMPTS = [
    "A farmer has 3 boxes with 4 apples in each box. He eats 2 apples. How many apples are left? Explain.",
    "Write three sentences about why the sky looks blue.",
    "What time is it 45 minutes after 10:30 AM? Show your steps.",
    "List five prime numbers and say why each is prime.",
]

_ONE_ROUND = """
import json, sys, time
from llama_cpp import Llama, llama_print_system_info
from stad_utils.models import embedded_model_path
model = Llama(str(embedded_model_path()), n_ctx=1024, n_threads=1, verbose=False, seed=0)
tokens = seconds = 0.0
for prompt in json.loads(sys.argv[1]):
    started = time.perf_counter()
    reply = model.create_chat_completion([{"role": "user", "content": prompt}], max_tokens=%d, temperature=0.0)
    seconds += time.perf_counter() - started
    tokens += reply["usage"]["completion_tokens"]
print(json.dumps({"tokens": tokens, "seconds": seconds,
                  "features": llama_print_system_info().decode(errors="replace")}))
"""


def one_round(site_dir: str | None, max_tokens: int) -> dict:
    env = dict(os.environ)
    if site_dir:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [site_dir, env.get("PYTHONPATH")]))
    child = subprocess.run([sys.executable, "-c", _ONE_ROUND % max_tokens, json.dumps(PROMPTS)], env=env,
                           capture_output=True, text=True, check=True)
    return json.loads(child.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", action="append", default=[], metavar="NAME=SITE_DIR",
                        help="another llama_cpp install to compare with the installed one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=128)
    args = parser.parse_args()
    builds = {"installed": None, **dict(spec.split("=", 1) for spec in args.build)}
    speeds: dict[str, list[float]] = {name: [] for name in builds}
    features: dict[str, str] = {}
    for round_number in range(args.rounds):
        for name, site_dir in builds.items():
            result = one_round(site_dir, args.max_tokens)
            speeds[name].append(result["tokens"] / result["seconds"])
            features[name] = result["features"]
            print(f"round {round_number + 1} {name}: {result['tokens']:.0f} tokens in {result['seconds']:.1f} s "
                  f"= {speeds[name][-1]:.1f} tokens/s", flush=True)
    print()
    for name in builds:
        print(f"{name}: median {statistics.median(speeds[name]):.1f} tokens/s over {args.rounds} rounds "
              f"(range {min(speeds[name]):.1f}-{max(speeds[name]):.1f}); {features[name].strip()}")


if __name__ == "__main__":
    main()
