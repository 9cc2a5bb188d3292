"""The judge on MATH's own worked solutions: does it credit a real, correct solution text against its gold answer?

Every solution of MATH Level 5 (``math_hard``), of MATH (all levels) and of MATH-500 ends in the boxed gold
answer it was written for, so each should be judged correct; what is not is either undecided (for an LLM
judge) or wrong. These texts were written by MATH's authors, not from the judge's rules. A wrong here is a
false "wrong", or a gold answer that keeps only part of what its solution boxes (two solutions boxed, one
in the answer field).

    python benchmarks/judge_on_solutions.py                      # ../shared/data beside the checkout
    python benchmarks/judge_on_solutions.py --data DIR --show-wrong
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from stad_utils.judge import JudgeItem, judge_answers
from stad_utils.tasks import load_tasks

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
FILES = {"MATH Level 5": "math_hard_test.jsonl", "MATH": "math_test.jsonl", "MATH-500": "math500_test_prm800k.jsonl"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the folder holding the MATH files")
    parser.add_argument("--show-wrong", action="store_true", help="print every solution judged wrong")
    args = parser.parse_args()
    for name, file_name in FILES.items():
        if not (args.data / file_name).exists():
            print(f"{name}: {args.data / file_name} not found, skipped")
            continue
        tasks = load_tasks("math_hard", data_path=str(args.data / file_name))
        verdicts = judge_answers([JudgeItem(task.solution, task.answer, task.answer_format, question=task.question)
                                  for task in tasks])
        outcomes = Counter(verdict.outcome for verdict in verdicts)
        print(f"{len(tasks)} {name} solutions ({file_name}) against their gold answers: " +
              ", ".join(f"{outcomes[outcome]} {outcome}" for outcome in ("correct", "undecided", "wrong", "no_answer")))
        if args.show_wrong:
            for line, (task, verdict) in enumerate(zip(tasks, verdicts)):
                if verdict.outcome == "wrong":
                    print(f"- line {line}: gold {task.answer!r}, read {verdict.extracted!r} ({verdict.explanation})")

if __name__ == "__main__":
    main()
