"""Verdicts and outcomes as Parquet: the DuckDB queries give what the JSONL records give through pandas.

The run folder is the failure browser's hand-made one (`test_browser.write_run`): 6 tasks, 2
models, an error re-asked and answered later in the log, a truncated reply, undecided verdicts.
"""

import json
from operator import attrgetter

import pandas as pd
import pytest
from browser_run import GRANITE, QWEN, make_ladder, make_verdicts, write_run

from stad_utils.analysis import run_truncation_table, truncation_table
from stad_utils.records import (
    OUTCOME_KEY,
    VERDICT_KEY,
    Outcome,
    RecordError,
    RecordFile,
    RunPaths,
    Verdict,
    judged_outcome,
    latest_records,
    latest_verdicts,
    read_records,
)
from stad_utils.records.columnar import (
    TEXT_COLUMNS,
    connect,
    parquet_copy,
    query,
    reply_records,
    reply_texts,
    schema_of,
    sql_text,
    verdict_facts,
    views,
)

FACTS = ["task_id", "model", "variant", "level", "sample", "outcome", "correct", "decided_by", "truncated",
         "finish_reason"]


@pytest.fixture
def run(tmp_path) -> RunPaths:
    return write_run(tmp_path / "demo-run")


def latest_frame(paths: list[RunPaths]) -> pd.DataFrame:
    """The latest verdicts as the rest of the project reads them: JSONL → pydantic → pandas."""
    verdicts = latest_verdicts(v for path in paths for v in read_records(path.verdicts, Verdict.model_validate))
    frame = pd.DataFrame([v.model_dump() for v in verdicts.values()])
    return frame.sort_values(["task_id", "model", "variant", "level", "sample"]).reset_index(drop=True)


def facts_frame(runs) -> pd.DataFrame:
    return pd.DataFrame(verdict_facts(runs))


def test_verdict_facts_are_the_latest_verdicts_without_texts(run):
    expected = latest_frame([run])[FACTS]
    facts = facts_frame(run.root)
    pd.testing.assert_frame_equal(facts[FACTS], expected, check_dtype=False)
    superseded = facts[(facts.task_id == "t2") & (facts.model == QWEN) & (facts.variant == "original")]
    assert superseded.outcome.tolist() == ["correct"]  # the re-asked error lost to its answer, later in the log
    assert not set(TEXT_COLUMNS) & set(facts.columns)
    assert (facts.replied == latest_frame([run]).response.notna()).all()


def test_truncation_table_from_facts_and_from_sql_equals_the_one_from_records(run):
    from_records = truncation_table(list(latest_verdicts(read_records(run.verdicts, Verdict.model_validate)).values()))
    from_facts = truncation_table(verdict_facts(run.root))
    pd.testing.assert_frame_equal(from_facts, from_records)
    pd.testing.assert_frame_equal(run_truncation_table(run), from_records)  # counted in SQL, as 06 does
    assert from_facts["cut_off"].sum() == 1  # granite's truncated reply to t3


def test_sql_counts_equal_pandas_counts(run):
    counted = query("SELECT model, judged AS outcome, count(*) AS n FROM verdicts GROUP BY ALL ORDER BY ALL",
                    run.root)
    expected = (latest_frame([run]).groupby(["model", "outcome"]).size().reset_index(name="n")
                .sort_values(["model", "outcome"]).reset_index(drop=True))
    pd.testing.assert_frame_equal(counted, expected, check_dtype=False)
    outcomes = pd.DataFrame([o.model_dump() for o in read_records(run.outcomes, Outcome.model_validate)])
    ks = query("SELECT model, k, count(*) AS n FROM outcomes GROUP BY ALL ORDER BY model, k NULLS LAST", run.root)
    expected_ks = (outcomes.groupby(["model", "k"], dropna=False).size().reset_index(name="n")
                   .sort_values(["model", "k"], na_position="last").reset_index(drop=True))
    pd.testing.assert_frame_equal(ks, expected_ks, check_dtype=False)


def test_many_runs_and_a_folder_of_parquet_files_give_the_same_answers(run, tmp_path):
    other = RunPaths(tmp_path / "other")
    RecordFile(other.verdicts, Verdict).append(make_verdicts(make_ladder("t2"), "llama-8b", "WW|CW"))
    together = facts_frame([run.root, other.root])
    pd.testing.assert_frame_equal(together[FACTS], latest_frame([run, other])[FACTS], check_dtype=False)
    gathered = tmp_path / "gathered"
    gathered.mkdir()
    for number, source in enumerate((run, other)):  # as copied from several machines, named in order
        parquet_copy(source.verdicts).rename(gathered / f"verdicts-{number}.parquet")
    pd.testing.assert_frame_equal(facts_frame(gathered), together)


def test_the_parquet_copy_follows_the_log(run):
    assert len(verdict_facts(run.root)) == len(latest_frame([run]))
    RecordFile(run.verdicts, Verdict).append(make_verdicts(make_ladder("t1"), GRANITE, "WWW|CCC"))  # re-judged
    facts = facts_frame(run.root)
    original = facts[(facts.task_id == "t1") & (facts.model == GRANITE) & (facts.variant == "original")]
    assert original.outcome.tolist() == ["wrong"]


def test_reply_texts_reads_only_the_tasks_asked_for(run):
    texts = reply_texts(run.root, ["t3"])
    assert set(texts.task_id) == {"t3"} and len(texts) == 12
    assert "HTTP 500: internal server error" in texts.error.tolist()


def test_reply_records_are_the_reply_texts_as_dicts_with_none_for_missing_values(run):
    texts = reply_texts(run.root, ["t3", "t1"])
    records = reply_records(run.root, ["t3", "t1"])
    assert records == texts.astype(object).where(texts.notna(), None).to_dict(orient="records")
    latest = latest_verdicts(read_records(run.verdicts, Verdict.model_validate)).values()
    in_order = sorted(latest, key=lambda v: (v.task_id, v.model, v.variant, v.level, v.sample))
    assert [Verdict.model_validate(record) for record in records] == [v for v in in_order if v.task_id in ("t1", "t3")]
    assert reply_records(run.root, []) == [] and reply_records(run.root / "no-such-run", ["t1"]) == []


def test_views_serve_several_queries_on_one_connection(run):
    with views(run.root) as connection:
        verdicts = connection.execute("SELECT count(*) FROM verdicts").fetchone()[0]
        outcomes = connection.execute("SELECT count(*) FROM outcomes").fetchone()[0]
    assert (verdicts, outcomes) == (len(latest_frame([run])), 12)


def test_an_outcome_lacking_a_required_field_names_its_line_and_field(run):
    """DuckDB reads an absent field as NULL; the Parquet copy must refuse the line as the record type does."""
    outcome = json.loads(run.outcomes.read_text().splitlines()[0])
    del outcome["isolated"]
    line = len(run.outcomes.read_text().splitlines()) + 1
    with open(run.outcomes, "a", encoding="utf-8") as log:
        log.write(json.dumps(outcome) + "\n")
    with pytest.raises(RecordError, match=rf"outcomes.jsonl, line {line}, field 'isolated'"):
        parquet_copy(run.outcomes)
    assert not (run.root / "columnar" / "outcomes.parquet").exists()


def test_a_malformed_line_names_the_file_line_and_field(run):
    bad = {**make_verdicts(make_ladder("t1"), QWEN, "CCC|CCC")[0].model_dump(), "level": "not a number"}
    line = len(run.verdicts.read_text().splitlines()) + 1
    with open(run.verdicts, "a", encoding="utf-8") as log:
        log.write(json.dumps(bad) + "\n")
    with pytest.raises(RecordError, match=rf"verdicts.jsonl, line {line}, field 'level'"):
        verdict_facts(run.root)


# ---------------------------------------------------------------- the rules, each written once

SCHEMA_BEFORE_GENERATION = {
    "verdicts": {
        "task_id": "VARCHAR", "model": "VARCHAR", "variant": "VARCHAR", "level": "INTEGER", "sample": "INTEGER",
        "prompt": "VARCHAR", "reference": "VARCHAR", "response": "VARCHAR", "error": "VARCHAR",
        "extracted": "VARCHAR", "outcome": "VARCHAR", "correct": "BOOLEAN", "decided_by": "VARCHAR",
        "explanation": "VARCHAR", "judge_version": "VARCHAR", "finish_reason": "VARCHAR",
        "prompt_tokens": "BIGINT", "completion_tokens": "BIGINT", "truncated": "BOOLEAN", "policy": "VARCHAR",
        "simulated": "BOOLEAN", "latency_s": "DOUBLE", "cached": "BOOLEAN", "reasoning": "VARCHAR",
        "reasoning_tokens": "BIGINT",
    },
    "outcomes": {
        "task_id": "VARCHAR", "model": "VARCHAR", "source": "VARCHAR", "n_steps": "INTEGER",
        "skills": "VARCHAR[]", "curve": "BOOLEAN[]", "isolated": "BOOLEAN[]", "placebo": "BOOLEAN[]",
        "k": "INTEGER", "undetermined_by": "VARCHAR", "non_monotonic": "BOOLEAN", "n_errors": "INTEGER",
        "n_undecided": "INTEGER", "truncated": "BOOLEAN[]", "sample": "INTEGER", "policy": "VARCHAR",
        "simulated": "BOOLEAN",
    },
}
"""The columns columnar.py declared by hand before they were generated from the record types."""

DEFAULTS_BEFORE_GENERATION = {
    "verdicts": {"sample": "0", "policy": "'full'", "simulated": "false", "truncated": "false", "cached": "false",
                 "explanation": "''", "judge_version": "''"},
    "outcomes": {"sample": "0", "policy": "'full'", "simulated": "false", "truncated": "[]::BOOLEAN[]",
                 "n_undecided": "0", "placebo": "[]::BOOLEAN[]"},
}
"""What a line lacking a field read as, declared by hand before it was generated from the record types."""


def test_the_generated_schema_is_the_one_the_copies_were_written_with():
    for name, record in (("verdicts", Verdict), ("outcomes", Outcome)):
        schema = schema_of(record)
        assert list(schema.columns.items()) == list(SCHEMA_BEFORE_GENERATION[name].items())
        assert schema.defaults == DEFAULTS_BEFORE_GENERATION[name]


def test_a_field_without_a_column_type_is_named():
    class Tagged(Verdict):
        tags: dict[str, str] = {}

    with pytest.raises(TypeError, match="the field 'tags'"):
        schema_of(Tagged)


def test_a_new_field_of_a_record_type_is_a_column_of_its_copy(run, tmp_path):
    """Adding a field to a record type is all it takes: columnar.py names no field."""

    class LaterVerdict(Verdict):
        confidence: float | None = None
        attempts: int = 1
        hints: list[str] = []

    log = tmp_path / "verdicts.jsonl"
    log.write_bytes(run.verdicts.read_bytes())  # written before the fields existed
    newer = LaterVerdict(**make_verdicts(make_ladder("t1"), QWEN, "CCC|CCC")[0].model_dump(), confidence=0.9,
                         attempts=3, hints=["units"])
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(newer.model_dump_json() + "\n")
    connection = connect()
    try:
        def read(copy):
            return connection.execute(f"SELECT * FROM read_parquet({sql_text(copy)})")

        rows = read(parquet_copy(log, LaterVerdict))
        columns = {name: str(kind) for name, kind, *_ in rows.description}
        read_back = [dict(zip(columns, row)) for row in rows.fetchall()]
        assert [LaterVerdict.model_validate(row) for row in read_back] == \
            read_records(log, LaterVerdict.model_validate)
        assert (read_back[0]["attempts"], read_back[0]["confidence"], read_back[0]["hints"]) == (1, None, [])
        assert (read_back[-1]["attempts"], read_back[-1]["confidence"], read_back[-1]["hints"]) == (3, 0.9, ["units"])
        assert "confidence" not in [name for name, *_ in read(parquet_copy(log)).description]  # rebuilt as Verdict
    finally:
        connection.close()


def _repeated_keys(run: RunPaths, tmp_path) -> list[RunPaths]:
    """The run and a second one whose verdicts and outcomes repeat keys of the first, and their own."""
    other = RunPaths(tmp_path / "other")
    t1 = make_ladder("t1")
    RecordFile(other.verdicts, Verdict).append(make_verdicts(t1, QWEN, "WWW|CCC") + make_verdicts(t1, QWEN, "CWC|WCC"))
    RecordFile(run.verdicts, Verdict).append(make_verdicts(make_ladder("t4"), GRANITE, "CC|WC"))  # re-judged
    first = read_records(run.outcomes, Outcome.model_validate)
    RecordFile(run.outcomes, Outcome).append([first[0].model_copy(update={"k": -1})])
    RecordFile(other.outcomes, Outcome).append([first[1].model_copy(update={"k": None, "n_errors": 2}), first[2]])
    return [run, other]


def _rows(sql: str, runs: list[RunPaths]) -> list[dict]:
    with views([paths.root for paths in runs]) as connection:
        result = connection.execute(sql)
        columns = [name for name, *_ in result.description]
        return [dict(zip(columns, row)) for row in result.fetchall()]


def test_the_latest_record_of_a_key_is_the_same_in_sql_and_in_python(run, tmp_path):
    runs = _repeated_keys(run, tmp_path)
    for name, record, key, sql in (("verdicts", Verdict, VERDICT_KEY, "SELECT * EXCLUDE (judged) FROM verdicts"),
                                   ("outcomes", Outcome, OUTCOME_KEY, "SELECT * FROM outcomes")):
        every = [r for paths in runs for r in read_records(getattr(paths, name), record.model_validate)]
        in_python = latest_records(every, key)
        assert len(in_python) < len(every)  # keys do repeat, within a log and across the two
        in_sql = [record.model_validate(row) for row in _rows(sql, runs)]
        key_of = attrgetter(*key)
        assert sorted(in_sql, key=key_of) == sorted(in_python.values(), key=key_of)


def test_the_judged_column_is_judged_outcome(run, tmp_path):
    """Verdicts written before outcomes existed carry only ``correct``: both paths read the same outcome."""
    old = RunPaths(tmp_path / "old")
    lines = [{key: value for key, value in verdict.model_dump().items() if key != "outcome"}
             for verdict in make_verdicts(make_ladder("t3"), GRANITE, "EWC|CWC")]
    old.verdicts.parent.mkdir(parents=True)
    old.verdicts.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for paths in (run, old):
        verdicts = latest_verdicts(read_records(paths.verdicts, Verdict.model_validate)).values()
        in_python = sorted((attrgetter(*VERDICT_KEY)(v), judged_outcome(v)) for v in verdicts)
        in_sql = sorted((tuple(row[field] for field in VERDICT_KEY), row["judged"])
                        for row in _rows("SELECT * FROM verdicts", [paths]))
        assert in_sql == in_python
    assert {outcome for _, outcome in in_python} == {"correct", "wrong", "error"}
