"""The workshop's helpers: a simulated chain run from Python into a folder, read back as the notebook shows it."""

from __future__ import annotations

import pytest

from stad_utils.workshop import MARKER, how_often_found, matching_penalty, run_exercise, served_target, simulated_target

WEAK = {"subtraction": 0.4, "default": 0.95}


def test_a_simulated_target_is_an_endpoint_block_of_kind_simulated():
    target = simulated_target("weak", WEAK, 0.1, seed=3)
    assert target == {"name": "weak", "kind": "simulated", "model": "planted-weakness",
                      "simulation": {"step_accuracy": WEAK, "composition_penalty": 0.1, "seed": 3}}
    with pytest.raises(ValueError):
        simulated_target("bad", {"subtraction": 1.5})


def test_a_run_reads_back_the_diagnosis_of_each_target(tmp_path):
    targets = [simulated_target("skill-weak", {"subtraction": 0.0, "default": 1.0}),
               simulated_target("perfect", {"default": 1.0})]
    run = run_exercise(tmp_path / "run", targets, n_tasks=40, compare=True, n_resamples=100, n_permutations=50)
    assert run.models == ["simulated:skill-weak", "simulated:perfect"]
    assert set(run.summary.models) == set(run.models)
    headlines = run.headlines()
    assert list(headlines["target"]) == run.models and headlines["diagnosis"].str.len().gt(0).all()
    assert list(headlines["planted"]) == ["subtraction 0, every other skill 1, no composition penalty",
                                          "every skill 1, no composition penalty"]
    assert "subtraction" in run.tested_skills("simulated:skill-weak")["skill"].tolist() or \
        "subtraction" in run.untested("simulated:skill-weak")
    gaps = run.scores_and_gaps()
    assert list(gaps.columns) == ["target", "tasks", "accuracy as asked", "composition gap (points)",
                                  "fails to chain", "skills named weak"]
    assert run.accuracy_statement().startswith("On the ")
    assert set(run.seconds) >= {"01_tasks", "05_evaluate", "06_analyze", "07_compare", "total"}
    fit = run.penalty_fit("simulated:perfect")
    assert fit.estimate == 0.0 and fit.n > 0  # a perfect target never fails to chain
    figure = run.evidence("simulated:skill-weak")
    assert figure.axes
    assert (run.folder / MARKER).is_file() and (run.folder / "summary.json").is_file()


def test_a_second_run_clears_its_own_folder_but_never_a_foreign_one(tmp_path):
    folder = tmp_path / "run"
    target = [simulated_target("t", WEAK)]
    run_exercise(folder, target, n_tasks=6, n_resamples=50)
    run = run_exercise(folder, target, n_tasks=4, n_resamples=50)  # fewer tasks: nothing of the first run kept
    assert run.numbers().n_tasks == 4
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep")
    with pytest.raises(FileExistsError):
        run_exercise(foreign, target, n_tasks=4)
    assert (foreign / "notes.txt").read_text() == "keep"


def test_a_run_refuses_a_target_a_workshop_laptop_cannot_ask(tmp_path):
    with pytest.raises(ValueError, match="served_target"):
        run_exercise(tmp_path / "run", [{"kind": "embedded", "model": "smollm2-135m-instruct"}])
    with pytest.raises(ValueError, match="two targets"):
        run_exercise(tmp_path / "run", [simulated_target("one")], compare=True)


def test_the_matching_penalty_equalises_the_expected_accuracy_as_asked():
    from stad_utils.models import Simulation, expected_accuracy
    from stad_utils.workshop import exercise_ladders

    weak = {"multiplication": 0.4, "default": 0.95}
    penalty = matching_penalty(weak, n_tasks=100)
    assert 0 < penalty < 1
    ladders = exercise_ladders(100)
    chaining = Simulation(step_accuracy={"default": 0.95}, composition_penalty=penalty)
    assert expected_accuracy(chaining, ladders) == pytest.approx(
        expected_accuracy(Simulation(step_accuracy=weak), ladders), abs=1e-5)
    assert matching_penalty({"default": 0.95}) == 0.0  # nothing weak: no penalty needed


def test_how_often_found_counts_the_runs_that_named_the_planted_skill():
    table = how_often_found({"step_accuracy": {"multiplication": 0.0, "default": 1.0}}, [10, 40], 2)
    assert list(table.columns) == ["tasks", "runs", "named multiplication", "named exactly the planted skills",
                                   "named a skill wrongly"]
    assert table["tasks"].tolist() == [10, 40] and table["runs"].tolist() == [2, 2]
    assert table.iloc[-1]["named multiplication"] == 1.0  # never right alone among perfect steps: always found


def test_a_model_served_for_the_room_runs_the_same_chain(tmp_path):
    """Exercise 5: an OpenAI-compatible server as the target; nothing was planted, and the headline says so."""
    from scripted_server import ScriptedServer

    with ScriptedServer(lambda messages: "Answer: 1") as server:
        target = served_target(server.base_url, "scripted", name="room model")
        run = run_exercise(tmp_path / "room", [target], n_tasks=6, n_resamples=50)
    assert run.models == ["room model"]
    assert run.headlines()["planted"].tolist() == ["nothing: a real model, whose weaknesses are unknown"]
    assert run.numbers().n_tasks == 6 and run.scores_and_gaps()["target"].tolist() == ["room model"]
