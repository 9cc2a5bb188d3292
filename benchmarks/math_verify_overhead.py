"""What math-verify costs through the judge's worker process, against calling it in the same process.

The judge runs math-verify in a worker process so that its timeout works from evaluation's
threads (`stad_utils.judge._symbolic`). This measures, on the LaTeX answers of the labelled set
(each gold answer against itself and against the next one), the time per comparison called
directly on the main thread and through the worker, and the worker's start-up.

    python benchmarks/math_verify_overhead.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from judge_report import load_labelled  # noqa: E402

from stad_utils.judge import _symbolic  # noqa: E402


def timed(compare, pairs) -> list[float]:
    times = []
    for span, reference in pairs:
        started = time.perf_counter()
        compare(span, reference)
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    golds = sorted({row["reference"] for row in load_labelled() if row["answer_format"] == "latex"})
    pairs = [(gold, gold) for gold in golds] + list(zip(golds, golds[1:]))
    started = time.perf_counter()
    _symbolic.compare_math_verify("1", "1")
    start_up = time.perf_counter() - started
    through_worker = timed(_symbolic.compare_math_verify, pairs)
    in_process = timed(_symbolic.verify_in_this_process, pairs)  # warm: math-verify is imported by now
    print(f"{len(pairs)} comparisons of the labelled set's LaTeX answers ({len(golds)} distinct)")
    print(f"worker start (first call): {start_up * 1000:.0f} ms")
    for name, times in (("in process (main thread)", in_process), ("through the worker", through_worker)):
        median, mean = statistics.median(times) * 1000, statistics.mean(times) * 1000
        print(f"{name:26s} median {median:6.2f} ms   mean {mean:6.2f} ms   total {sum(times):.2f} s")
    overhead = statistics.median(through_worker) - statistics.median(in_process)
    print(f"overhead per comparison (difference of medians): {overhead * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
