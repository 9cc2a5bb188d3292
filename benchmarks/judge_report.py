"""How far can the judge be trusted? Precision, recall and undecided share on labelled real replies.

The labelled set, ``tests/fixtures/judge_replies.jsonl``, holds 2,004 replies (one per line):

* real replies of the embedded model (SmolLM2-135M-Instruct, two settings), from the quickstart
  run (every variant of its generated tasks) and to original questions of GSM8K, ToT-Arithmetic
  and MATH Level 5 (collected by ``benchmarks/collect_replies.py``);
* replies written in the styles of common instruct models (bold answer lines, ``####``,
  ``\\boxed{}``, concluding sentences, JSON, hedged, self-correcting and cut-off replies) to real
  benchmark questions.

Each reply was labelled blind (the graders saw the question, the gold answer, the reply and its
finish reason, never a judge verdict) by a careful reading of the final answer it commits to:
``correct``, ``wrong``, ``no_answer`` or ``ambiguous``, with a one-line reason. Benchmark
questions and gold answers are not stored in the fixture; they are read from ``../shared/data``.
The ``dev`` split (618) was used while the judge was built; the ``held_out`` split (213: new
quickstart replies and a second set of styled replies to other questions) was labelled after,
and never looked at during development. ``held_out_r5`` (163) holds classes of replies the judge once failed,
written and labelled blind. ``blind_math`` (240) holds replies in the styles of strong
models to MATH Level 5 and MATH-500 problems (boxed, "Final Answer: The final answer is",
equations, intervals, several solutions, ``<think>`` blocks, chat-template tokens), written and
labelled by someone who never saw the judge (its README: one reply per problem; labels
``correct`` 170, ``wrong`` 50, ``no_answer`` 12, ``ambiguous`` 8), and measured once the judge was
built; its task ids name a line of the benchmark file (``math500-17``). ``blind_math_2`` (150) is a
second such set by another writer, on other problems (labels ``correct`` 101, ``wrong`` 36,
``ambiguous`` 7, ``no_answer`` 6), and ``blind_math_3`` (120) a third, on MATH problems of every level too
(``math-40`` names a line of ``math_test.jsonl``). ``blind_math_4`` (230) holds two more writers' sets
(``setting`` ``blind-writer-4a``: MATH Level 5 and MATH-500, ``blind-writer-4b``: MATH levels 1-4; labels
``correct`` 161, ``wrong`` 50, ``ambiguous`` 10, ``no_answer`` 9), and ``blind_math_5`` (160) two more
(``blind-writer-5a``, ``blind-writer-5b``; ``correct`` 112, ``wrong`` 36, ``ambiguous`` 6, ``no_answer`` 6), and
``blind_math_6`` (110) two more (``correct`` 77, ``wrong`` 25, ``ambiguous`` 4, ``no_answer`` 4).
Each was measured once, blind, then its misses read.

Measures, per split and benchmark (the judge's outcome against the label):

* **precision** of "correct": of the replies the judge calls correct, the share labelled correct;
* **recall** of "correct" on decided items: of the replies labelled correct that the judge
  decided (correct, wrong or no answer), the share it calls correct;
* **undecided**: of the replies that commit to an answer (labelled correct or wrong), the share
  the judge left undecided (for an LLM judge to settle);
* **false wrong**: of the replies labelled correct, the share the judge calls wrong or no answer
  (both count as a failure in k): the harm issue 24 is about.

Beside the judge's measures, every table of splits gives **math-verify alone** on the same
replies (``mv_`` columns: the whole reply parsed and verified against the gold answer; what it
does not credit is wrong).

The tables also split real model replies from styled ones, and give the measures per deciding stage.

**What reaches the LLM stage**, per split and benchmark: the replies the deterministic and
math-verify stages leave undecided (an LLM judge, if one is set, decides them from their bounded
span alone), and the cut-off replies that committed to nothing ("no answer" by design, never sent).

**Baselines** on the same replies (math-verify alone always; lm-eval with ``--baselines``): lm-eval's
GSM8K filters (``strict-match``: the number after ``####``; ``flexible-extract``: the last number in
the reply; both compared as lm-eval does, as text without ``,``, ``$`` and a final ``.``) and
math-verify alone (the whole
reply parsed and verified against the gold answer). A baseline decides every reply: what it does
not credit is wrong.

    python benchmarks/judge_report.py                      # deterministic and math-verify stages
    python benchmarks/judge_report.py --baselines          # and lm-eval's filters
    python benchmarks/judge_report.py --llm-judge embedded  # SmolLM2-135M as the LLM judge for what is left
    python benchmarks/judge_report.py --show-misses         # print every disagreement with its reason
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import pandas as pd

from stad_utils.judge import JudgeItem, LLMJudgeFn, judge_answers
from stad_utils.tasks import load_tasks

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "judge_replies.jsonl"
DATA = ROOT.parent / "shared" / "data"


def benchmark_of(source: str) -> str:
    """``"embedded/gsm8k"`` → ``"gsm8k"``; generated quickstart tasks → ``"generated"``."""
    name = source.split("/")[1]
    return "generated" if name == "generated" else name


_LINE_OF_A_FILE = re.compile(r"(?P<benchmark>gsm8k|math_hard|math500|math|tot_arithmetic)-(?P<line>\d+)")
BY_FILE_LINE = {"held_out_r5", "blind_math", "blind_math_2", "blind_math_3", "blind_math_4",
                "blind_math_5", "blind_math_6"}
"""Splits whose task ids name a line of the benchmark file (``tot_arithmetic-97``), not the project's task id."""
MATH_FILES = {"math500": "math500_test_prm800k.jsonl", "math": "math_test.jsonl"}
"""MATH-500 (``math500-12``) and MATH of every level (``math-40``), posed as the project poses a MATH task
(`stad_utils.tasks.load_tasks` ``math_hard``)."""


def _benchmark_tasks(name: str, data_dir: Path) -> list:
    if name in MATH_FILES:
        return load_tasks("math_hard", data_path=str(data_dir / MATH_FILES[name]))
    return load_tasks(name, data_path=str(data_dir))


def load_labelled(path: Path = FIXTURE, data_dir: Path = DATA) -> list[dict]:
    """The labelled replies, each with its benchmark question, gold answer and answer format as the project poses it.

    Rows without a question name the project's task id. Rows of the splits in `BY_FILE_LINE` name
    a line of the benchmark file and carry the dataset's raw label as their reference
    (``{'answer': 'Saturday'}``): they are judged against the project's task for that line
    (``Saturday``), as the pipeline judges it. The labels are the graders' own, never changed.
    """
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    needed = {benchmark_of(row["source"]) for row in rows if "question" not in row or row["split"] in BY_FILE_LINE}
    tasks = {name: _benchmark_tasks(name, data_dir) for name in needed}
    # MATH-500 is posed as MATH tasks, whose ids ("math_hard-12") would shadow MATH Level 5's: rows name its lines
    by_id = {task.task_id: task for name, found in tasks.items() if name not in MATH_FILES for task in found}
    for row in rows:
        row["benchmark"] = benchmark_of(row["source"])
        if row["split"] in BY_FILE_LINE:
            line = _LINE_OF_A_FILE.fullmatch(row["task_id"])
            task = tasks[line["benchmark"]][int(line["line"])]
        elif "question" not in row:
            task = by_id[row["task_id"]]
        else:
            continue
        row.update(question=task.question, reference=task.answer, answer_format=task.answer_format)
    return rows


def judge_rows(rows: list[dict], llm_judge: LLMJudgeFn | None = None) -> pd.DataFrame:
    """One row per reply: its label and the judge's outcome, deciding stage and explanation."""
    judgements = judge_answers([JudgeItem(row["response"], row["reference"], row["answer_format"],
                                          question=row["question"], truncated=row["finish_reason"] == "length")
                                for row in rows], llm_judge)
    return pd.DataFrame([{"id": row["id"], "split": row["split"], "benchmark": row["benchmark"],
                          # real model replies, or replies written in the style of instruct models
                          "kind": "real" if row["source"].startswith("embedded/") else "styled",
                          "label": row["label"], "outcome": j.outcome, "decided_by": j.decided_by,
                          "truncated": j.truncated,
                          "extracted": j.extracted, "explanation": j.explanation, "reason": row["reason"]}
                         for row, j in zip(rows, judgements)])


def trust_table(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Precision and recall of "correct" and the undecided share (see the module docstring)."""
    def measures(group: pd.DataFrame) -> pd.Series:
        said_correct = group["outcome"] == "correct"
        labelled_correct = group["label"] == "correct"
        decided = group["outcome"].isin(["correct", "wrong", "no_answer"])
        committed = group["label"].isin(["correct", "wrong"])
        undecided = group["outcome"] == "undecided"
        called_wrong = group["outcome"].isin(["wrong", "no_answer"])
        return pd.Series({
            "replies": len(group), "labelled_correct": int(labelled_correct.sum()),
            "judged_correct": int(said_correct.sum()),
            "precision": (said_correct & labelled_correct).sum() / said_correct.sum() if said_correct.any() else None,
            "recall": ((said_correct & labelled_correct).sum() / (labelled_correct & decided).sum()
                       if (labelled_correct & decided).any() else None),
            "undecided_of_committed": (undecided & committed).sum() / committed.sum() if committed.any() else None,
            "false_wrong": (called_wrong & labelled_correct).sum() / labelled_correct.sum()
            if labelled_correct.any() else None,
            "errors": int((group["outcome"] == "error").sum()),
        })

    rows = [measures(group).rename(key) for key, group in frame.groupby(by)]
    rows.append(measures(frame).rename(("all",) * len(by) if len(by) > 1 else "all"))
    return pd.DataFrame(rows).rename_axis(by)


def llm_stage_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per split and benchmark: how many replies reach the LLM stage, and how many cut-off ones committed to nothing."""
    def counts(group: pd.DataFrame) -> pd.Series:
        reach = group["outcome"] == "undecided"
        cut_off = (group["outcome"] == "no_answer") & group["truncated"]
        return pd.Series({
            "replies": len(group), "reach_llm": int(reach.sum()), "reach_llm_share": reach.mean(),
            "of_them_labelled_correct": int((reach & (group["label"] == "correct")).sum()),
            "of_them_labelled_wrong": int((reach & (group["label"] == "wrong")).sum()),
            "cut_off_no_answer": int(cut_off.sum()),
            "cut_off_labelled_correct": int((cut_off & (group["label"] == "correct")).sum()),
        })

    rows = [counts(group).rename(key) for key, group in frame.groupby(["split", "benchmark"])]
    rows.append(counts(frame).rename(("all", "all")))
    return pd.DataFrame(rows).rename_axis(["split", "benchmark"])


_STRICT = re.compile(r"#### (\-?[0-9\.\,]+)")
_FLEXIBLE = re.compile(r"(-?[$0-9.,]{2,})|(-?[0-9]+)")


def _as_lm_eval_compares(text: str) -> str:
    """lm-eval's GSM8K ``exact_match`` normalisation: lower case, no ``,``, ``$``, ``#### `` prefix or final ``.``."""
    for pattern in (",", r"\$", r"(?s).*#### ", r"\.$"):
        text = re.sub(pattern, "", text)
    return text.strip().lower()


def lm_eval_outcome(response: str | None, reference: str, flexible: bool) -> str:
    """``correct`` or ``wrong`` by lm-eval's ``strict-match`` (first ``#### N``) or ``flexible-extract`` (last
    number)."""
    if flexible:
        found = [m.group(0) for m in _FLEXIBLE.finditer(response or "")]
        extracted = found[-1] if found else None
    else:
        match = _STRICT.search(response or "")
        extracted = match.group(1) if match else None
    if extracted is None:
        return "wrong"
    return "correct" if _as_lm_eval_compares(extracted) == _as_lm_eval_compares(reference) else "wrong"


def math_verify_alone_outcome(response: str | None, reference: str, answer_format: str | None) -> str:
    """``correct`` or ``wrong`` by math-verify alone: the whole reply parsed and verified against the gold answer."""
    from math_verify import parse, verify

    gold = parse(f"${reference}$" if answer_format == "latex" else reference)
    answer = parse(response or "")
    return "correct" if gold and answer and verify(gold, answer) else "wrong"


def baseline_frame(rows: list[dict]) -> pd.DataFrame:
    """One row per reply and lm-eval's baseline methods, with its label (see the module docstring)."""
    methods = {
        "lm-eval strict-match": lambda row: lm_eval_outcome(row["response"], row["reference"], flexible=False),
        "lm-eval flexible-extract": lambda row: lm_eval_outcome(row["response"], row["reference"], flexible=True),
    }
    return pd.DataFrame([{"method": name, "split": row["split"], "benchmark": row["benchmark"], "label": row["label"],
                          "outcome": outcome(row)} for name, outcome in methods.items() for row in rows])


def math_verify_alone_frame(rows: list[dict]) -> pd.DataFrame:
    """One row per reply: its label and math-verify alone's outcome."""
    return pd.DataFrame([{"split": row["split"], "benchmark": row["benchmark"], "label": row["label"],
                          "kind": "real" if row["source"].startswith("embedded/") else "styled",
                          "outcome": math_verify_alone_outcome(row["response"], row["reference"],
                                                               row["answer_format"])} for row in rows])


def beside_math_verify_alone(frame: pd.DataFrame, alone: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The judge's trust table with math-verify alone's precision, recall and false-wrong share on the same replies."""
    measures = ["precision", "recall", "false_wrong"]
    theirs = trust_table(alone, by)[measures].rename(columns=lambda name: f"mv_{name}")
    return trust_table(frame, by).join(theirs)


def stage_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The same measures per deciding stage ("none": left undecided, or no answer found)."""
    return trust_table(frame, ["decided_by"])


def open_llm_judge(name: str | None):
    """The LLM judge for ``--llm-judge``: ``embedded`` (SmolLM2-135M) or none."""
    from contextlib import nullcontext

    from stad_utils.method import open_judge

    if name is None:
        return nullcontext(None)
    if name != "embedded":
        raise SystemExit(f"--llm-judge {name!r}: only 'embedded' is available offline")
    return open_judge({"kind": "embedded", "model": "smollm2-135m-instruct", "max_tokens": 128,
                       "json_mode": "llama_schema"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--splits", nargs="+", help="measure only these splits (default: every split)")
    parser.add_argument("--llm-judge", choices=["embedded"], help="an LLM judge for the undecided replies")
    parser.add_argument("--show-misses", action="store_true", help="print every reply the judge and label disagree on")
    parser.add_argument("--baselines", action="store_true",
                        help="also measure lm-eval's GSM8K filters on the same replies")
    args = parser.parse_args(argv)
    rows = [row for row in load_labelled(args.fixture, args.data) if not args.splits or row["split"] in args.splits]
    with open_llm_judge(args.llm_judge) as llm_judge:
        frame = judge_rows(rows, llm_judge)
    alone = math_verify_alone_frame(rows)
    with pd.option_context("display.width", 250, "display.max_columns", 20, "display.float_format", "{:.3f}".format):
        print(f"{len(frame)} labelled replies; labels: {frame['label'].value_counts().to_dict()}\n")
        print("The judge (stages 1-2), and math-verify alone on the same replies (mv_):")
        for by in (["split", "benchmark"], ["split"], ["split", "kind"]):
            print(beside_math_verify_alone(frame, alone, by).to_string(), "\n")
        print(stage_table(frame).to_string(), "\n")
        print("Replies that reach the LLM stage (undecided after stages 1-2), and cut-off replies without an answer:")
        print(llm_stage_table(frame).to_string(), "\n")
        if args.baselines:
            baselines = pd.concat([baseline_frame(rows), alone.assign(method="math-verify alone"),
                                   frame.assign(method="judge (stages 1-2)")])
            print("The judge and the baselines on the same replies:")
            print(trust_table(baselines, ["method", "split", "benchmark"]).to_string(), "\n")
        print(pd.crosstab([frame["split"], frame["label"]], frame["outcome"]).to_string())
    if args.show_misses:
        misses = frame[(frame["outcome"] == "correct") != (frame["label"] == "correct")]
        for miss in misses.itertuples():
            print(f"\n{miss.id} [{miss.split}/{miss.benchmark}] label {miss.label} ({miss.reason}); "
                  f"judge {miss.outcome} by {miss.decided_by}: {miss.extracted!r} — {miss.explanation}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
