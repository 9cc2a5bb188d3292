"""Re-score the saved replies of a run with the current judge, without calling the target.

    python -m stad_utils.method.rejudge results/<run> [--judge-endpoint YAML_OR_JSON_BLOCK] [--cache PATH]

Every reply in ``verdicts.jsonl`` (its latest verdict per task, model, variant, level and
sample) is judged again by the current cascade, optionally with an LLM judge endpoint. The new
verdicts are appended to the same append-only file, each with its ``judge_version``; the old
ones stay on disk beside them, and the latest verdict wins downstream. ``outcomes.jsonl`` is
recomputed, and the agreement of old and new outcomes is printed per model.

Replies that were never obtained (errors) are not re-judged: they stay errors, never wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd
import yaml

from ..judge import LLMJudgeFn, judge_answers, judge_version
from ..records import JudgeOutcome, Ladder, RecordFile, RunPaths, StepSkill, Verdict, latest_verdicts, read_records
from ._evaluate import judge_item, judged_fields
from ._outcomes import outcomes


def recorded_outcome(verdict: Verdict) -> JudgeOutcome:
    """A verdict's outcome; files written before outcomes existed have only ``correct`` and ``decided_by``.

    Examples
    --------
    >>> old = Verdict(task_id="t", model="m", variant="original", level=0, prompt="q", reference="1",
    ...               response="x", correct=False, decided_by="no_answer")
    >>> recorded_outcome(old)
    'no_answer'
    """
    if verdict.outcome is not None:
        return verdict.outcome
    if verdict.correct is None:
        return "error"
    if verdict.correct:
        return "correct"
    return "no_answer" if verdict.decided_by == "no_answer" else "wrong"


def rejudge_run(run_dir: Path | str, llm_judge: LLMJudgeFn | None = None) -> pd.DataFrame:
    """Judge a run's saved replies again, append the new verdicts and recompute ``outcomes.jsonl``.

    Parameters
    ----------
    run_dir : path
        A run folder with ``verdicts.jsonl``, ``ladders.jsonl`` and ``skills.jsonl``.
    llm_judge : callable, optional
        The LLM stage for what the deterministic and math-verify stages leave undecided.

    Returns
    -------
    pandas.DataFrame
        One row per re-judged reply: ``task_id, model, variant, level, sample, old_outcome,
        new_outcome, old_extracted, new_extracted, explanation``.

    Examples
    --------
    >>> table = rejudge_run("results/quickstart")  # doctest: +SKIP
    >>> agreement_table(table)  # doctest: +SKIP
    """
    paths = RunPaths(run_dir)
    ladders = read_records(paths.ladders, Ladder.model_validate)
    formats = {ladder.task_id: ladder.task.answer_format for ladder in ladders}
    current = latest_verdicts(read_records(paths.verdicts, Verdict.model_validate)).values()
    old = [v for v in current if v.response is not None]
    judgements = judge_answers([judge_item(v.variant, formats[v.task_id], v.reference, v.prompt, v.response,
                                           "length" if v.truncated else v.finish_reason) for v in old], llm_judge)
    # only the judge's fields change: the reply, its cost and whether it came from the cache stay as they were
    new = [v.model_copy(update=judged_fields(j, llm_judge)) for v, j in zip(old, judgements)]
    RecordFile(paths.verdicts, Verdict).append(new)
    skills = read_records(paths.skills, StepSkill.model_validate, missing_ok=True)
    results = outcomes(ladders, read_records(paths.verdicts, Verdict.model_validate), skills)
    paths.outcomes.write_text("".join(outcome.model_dump_json() + "\n" for outcome in results))
    return pd.DataFrame([
        {"task_id": v.task_id, "model": v.model, "variant": v.variant, "level": v.level, "sample": v.sample,
         "old_outcome": recorded_outcome(v), "new_outcome": n.outcome, "old_extracted": v.extracted,
         "new_extracted": n.extracted, "explanation": n.explanation}
        for v, n in zip(old, new)
    ], columns=["task_id", "model", "variant", "level", "sample", "old_outcome", "new_outcome", "old_extracted",
                "new_extracted", "explanation"])


def agreement_table(rejudged: pd.DataFrame) -> pd.DataFrame:
    """Old outcome (rows, per model) against new outcome (columns), with totals.

    Examples
    --------
    >>> frame = pd.DataFrame({"model": ["m", "m"], "old_outcome": ["correct", "wrong"],
    ...                       "new_outcome": ["no_answer", "wrong"]})
    >>> int(agreement_table(frame).loc[("m", "correct"), "no_answer"])
    1
    """
    return pd.crosstab([rejudged["model"], rejudged["old_outcome"]], rejudged["new_outcome"],
                       rownames=["model", "old"], colnames=["new"], margins=True, margins_name="all")


def main(argv: list[str] | None = None) -> int:
    """The command line (``python -m stad_utils.method.rejudge``); the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run_dir", type=Path, help="the run folder, e.g. results/quickstart")
    parser.add_argument("--judge-endpoint", type=yaml.safe_load, default=None,
                        help="an LLM judge endpoint block in YAML or JSON, e.g. '{kind: embedded, model: x}'")
    parser.add_argument("--cache", type=Path, default=None, help="response cache for the LLM judge")
    args = parser.parse_args(argv)
    from ._roles import open_judge  # starts a server only when an endpoint is given

    with open_judge(args.judge_endpoint, cache_path=args.cache) as llm_judge:
        rejudged = rejudge_run(args.run_dir, llm_judge)
    changed = (rejudged["old_outcome"] != rejudged["new_outcome"]).sum()
    print(f"re-judged {len(rejudged)} replies with {judge_version(llm_judge)}; {changed} changed outcome; "
          f"new verdicts appended to {RunPaths(args.run_dir).verdicts}, outcomes.jsonl recomputed\n")
    print(agreement_table(rejudged).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
