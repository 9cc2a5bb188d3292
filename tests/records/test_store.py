import gc
import weakref

import pytest

from stad_utils.records import RecordError, RecordFile, RunPaths, Task, collector_paused, read_records

GOOD = '{"task_id": "t1", "source": "s", "question": "Q?", "answer": "1"}\n'


def test_bad_lines_are_named_by_file_line_and_field(tmp_path):
    path = tmp_path / "tasks.jsonl"
    path.write_text(GOOD + "{not json\n")
    with pytest.raises(RecordError, match=r"tasks.jsonl, line 2: malformed JSON"):
        read_records(path, Task.model_validate)
    path.write_text(GOOD + '{"task_id": "t2", "source": "s", "answer": "1"}\n')
    with pytest.raises(RecordError, match=r"line 2, field 'question'"):
        read_records(path, Task.model_validate)
    path.write_text(GOOD + '{"task_id": "t2", "source": "s", "question": "", "answer": "1"}\n')
    with pytest.raises(RecordError, match=r"line 2, field 'question'"):
        read_records(path, Task.model_validate)
    path.write_bytes(GOOD.encode() + b'{"task_id": "\xff"}\n')
    with pytest.raises(RecordError, match=r"line 2: not valid UTF-8"):
        read_records(path, Task.model_validate)
    path.write_text("[1, 2]\n")
    with pytest.raises(RecordError, match=r"line 1: expected a JSON object"):
        read_records(path, Task.model_validate)


def test_skip_invalid_keeps_the_valid_lines_and_reports_the_rest(tmp_path):
    path = tmp_path / "tasks.jsonl"
    path.write_text(GOOD + "{broken\n\n" + GOOD.replace("t1", "t3") + '{"task_id": "t4"}\n')
    problems = []
    tasks = read_records(path, Task.model_validate, skip_invalid=True, problems=problems)
    assert [t.task_id for t in tasks] == ["t1", "t3"]
    assert [(p.line, p.field) for p in problems] == [(2, None), (5, "source")]


def test_a_torn_last_line_is_cut_and_extend_resumes(tmp_path):
    path = tmp_path / "tasks.jsonl"
    path.write_text(GOOD + '{"task_id": "t2", "sou')  # a process killed mid-write
    store = RecordFile(path, Task)
    assert [t.task_id for t in store.read()] == ["t1"]
    computed = []

    def compute(todo):
        computed.extend(t.task_id for t in todo)
        return todo

    tasks = [Task(task_id=f"t{i}", source="s", question="Q?", answer="1") for i in (1, 2, 3)]
    assert [t.task_id for t in store.extend(tasks, compute)] == ["t1", "t2", "t3"]
    assert computed == ["t2", "t3"]
    store.extend(tasks, compute)
    assert computed == ["t2", "t3"]  # nothing recomputed


def test_run_paths_name_one_file_per_stage(tmp_path):
    paths = RunPaths(tmp_path)
    files = [paths.tasks, paths.decompositions, paths.ladders, paths.skills, paths.verdicts, paths.outcomes]
    assert len(set(files)) == 6 and all(f.parent == tmp_path for f in files)


def test_a_missing_file_is_no_records_only_when_asked(tmp_path):
    missing = tmp_path / "ladders.jsonl"
    assert read_records(missing, dict, missing_ok=True) == []
    with pytest.raises(FileNotFoundError):
        read_records(missing, dict)


def test_the_collector_is_paused_in_the_block_and_its_garbage_collected_afterwards():
    class Node:
        pass

    @collector_paused()
    def make_a_cycle() -> weakref.ref:
        assert not gc.isenabled()
        with collector_paused():  # nested: the outer block resumes the collector
            pass
        assert not gc.isenabled()
        node = Node()
        node.itself = node
        return weakref.ref(node)

    assert gc.isenabled()
    cycle = make_a_cycle()
    assert gc.isenabled() and gc.get_freeze_count() == 0  # nothing stays frozen
    gc.collect()  # the cycle made while the collector was paused is collected all the same
    assert cycle() is None
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a collector paused by the caller stays paused
    finally:
        gc.enable()
    theirs = Node()
    gc.freeze()  # as a forking server does before it forks
    try:
        with collector_paused():
            ours = Node()
        # The freeze count is no measure here: frozen objects that die meanwhile leave it. An object is frozen
        # when no generation holds it.
        tracked = {id(o) for o in gc.get_objects()}
        assert id(theirs) not in tracked  # what someone else froze stays frozen
        assert id(ours) in tracked  # and the block's objects are not frozen with it
    finally:
        gc.unfreeze()
