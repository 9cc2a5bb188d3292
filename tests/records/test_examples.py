"""The saved example run that 06_analyze and 07_compare open by default."""

from stad_utils.records import SAVED_RUN, Outcome, RunPaths, open_run, read_records


def test_a_folder_named_example_is_filled_with_the_saved_run_once(tmp_path):
    run = open_run(tmp_path / "example")
    outcomes = read_records(RunPaths(run).outcomes, Outcome.model_validate)
    models = {o.model for o in outcomes}
    assert any("simulated" in model for model in models) and len(models) >= 2  # real replies and the simulation
    (RunPaths(run).outcomes).write_text("")  # a user's own results there are never overwritten
    open_run(run)
    assert RunPaths(run).outcomes.read_text() == ""


def test_any_other_folder_is_read_as_it_is(tmp_path):
    assert open_run(tmp_path / "mine") == tmp_path / "mine"
    assert not (tmp_path / "mine").exists()


def test_the_saved_run_ships_every_record_file_the_analysis_reads():
    saved = RunPaths(SAVED_RUN)
    for path in (saved.tasks, saved.decompositions, saved.ladders, saved.skills, saved.verdicts, saved.outcomes):
        assert path.stat().st_size > 0, path
