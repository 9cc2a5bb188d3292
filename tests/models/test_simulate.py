"""The simulated target: its answers follow the stated model, reproducibly, and the judge reads them right."""

import numpy as np
import pytest
from scipy.stats import binomtest

from stad_utils.analysis import run_chain
from stad_utils.models import EndpointConfig, SimulatedTarget
from stad_utils.records import Ladder, evaluation_items
from stad_utils.tasks import generate_tasks


def ladders_of(tasks):
    return [Ladder(task=t, teacher="oracle", steps=t.reference_steps, scaffolds=t.reference_scaffolds,
                   isolated=t.reference_isolated, placebos=t.reference_placebos) for t in tasks]


LADDERS = ladders_of(generate_tasks(400, seed=11, min_steps=2, max_steps=4))


def target(simulation=None, ladders=LADDERS, **endpoint):
    return SimulatedTarget(EndpointConfig(kind="simulated", model="toy", simulation=simulation or {}, **endpoint),
                           ladders)


def right(reply, reference) -> bool:
    return reply.text == f"Answer: {reference}"


def replies(simulated, sample=0):
    """{(task, variant, level): answered right} over every question of every ladder."""
    return {(ladder.task_id, variant, level): right(simulated.chat_one(prompt, sample=sample), reference)
            for ladder in simulated.ladders
            for variant, level, prompt, reference in evaluation_items(ladder, placebo=True)}


def test_the_label_says_simulation_and_a_given_name_is_kept_if_it_does():
    assert target().model == "simulated:toy"
    assert target(name="simulated (planted)").model == "simulated (planted)"
    assert target(name="qwen").model == "simulated:qwen"


def test_a_prompt_outside_the_ladders_is_an_error_not_a_guess():
    reply = target().chat_one("What is 6 times 7?")
    assert reply.text is None and reply.error


def test_a_perfect_target_answers_everything_right_and_counts_its_calls():
    perfect = target()
    assert all(replies(perfect).values())
    assert perfect.usage.calls == sum(len(evaluation_items(ladder, placebo=True)) for ladder in LADDERS)


def test_message_lists_with_a_system_prompt_are_recognised():
    ladder = LADDERS[0]
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": ladder.task.question}]
    assert right(target().chat_one(messages), ladder.task.answer)


def test_same_seed_and_sample_same_answers_other_seed_or_sample_other_answers():
    weak = {"step_accuracy": {"default": 0.7}, "composition_penalty": 0.2, "seed": 3}
    first = replies(target(weak))
    assert replies(target(weak)) == first
    assert replies(target({**weak, "seed": 4})) != first
    assert replies(target(weak), sample=1) != first


def test_wrong_answers_differ_in_value_and_keep_the_kind():
    hopeless = target({"step_accuracy": {"default": 0.0}})
    for ladder in LADDERS[:40]:
        for _, _, prompt, reference in evaluation_items(ladder):
            text = hopeless.chat_one(prompt).text.removeprefix("Answer: ")
            assert text != reference
            assert (":" in text) == (":" in reference)


def test_answers_are_coherent_within_a_task():
    simulated = target({"step_accuracy": {"default": 0.6}, "composition_penalty": 0.3})
    answers = replies(simulated)
    for ladder in LADDERS:
        curve = [answers[ladder.task_id, "original", 0]] + [answers[ladder.task_id, "scaffold", j]
                                                             for j in range(1, ladder.n_steps)]
        assert curve == sorted(curve), "a level solved and a higher level failed"
        for j in range(1, ladder.n_steps):
            assert answers[ladder.task_id, "placebo", j] == curve[0]
        for i in range(1, ladder.n_steps + 1):
            if not answers[ladder.task_id, "isolated", i]:
                assert not any(curve[:i]), "a step failed alone was composed successfully"


@pytest.mark.parametrize("level", [0, 1, 2])
def test_success_rates_match_the_documented_model(level):
    """P(level j solved) = Π_{i>j} p_i · (1 − c)^(K−j−1); here K = 3, p = 0.8 for every skill, c = 0.25."""
    three_steps = ladders_of(generate_tasks(1500, seed=2, min_steps=3, max_steps=3))
    simulated = target({"step_accuracy": {"default": 0.8}, "composition_penalty": 0.25}, ladders=three_steps)
    prompts = [(ladder.task.question if level == 0 else ladder.scaffolds[level - 1], ladder.task.answer)
               for ladder in three_steps]
    solved = sum(right(simulated.chat_one(prompt), answer) for prompt, answer in prompts)
    expected = 0.8 ** (3 - level) * 0.75 ** (3 - level - 1)
    assert binomtest(solved, len(prompts), expected).pvalue > 0.001


def test_one_skill_is_weak_alone_and_the_others_are_not():
    simulated = target({"step_accuracy": {"subtraction": 0.3, "default": 1.0}})
    answers = replies(simulated)
    alone = {}
    for ladder in LADDERS:
        for i, step in enumerate(ladder.steps, start=1):
            alone.setdefault(step.skill, []).append(answers[ladder.task_id, "isolated", i])
    assert all(all(results) for skill, results in alone.items() if skill != "subtraction")
    assert binomtest(sum(alone["subtraction"]), len(alone["subtraction"]), 0.3).pvalue > 0.001


def test_a_planted_skill_absent_from_the_ladders_is_warned_about():
    with pytest.warns(UserWarning, match="substraction"):
        target({"step_accuracy": {"substraction": 0.4}})


def test_the_judge_reads_every_simulated_reply_as_the_simulation_decided(tmp_path):
    planted = {"step_accuracy": {"subtraction": 0.4, "default": 0.8}, "composition_penalty": 0.3, "seed": 5}
    judged = run_chain(40, planted, seed=5, store=tmp_path / "verdicts.jsonl", placebo=True)
    direct = run_chain(40, planted, seed=5, placebo=True)

    def by_task(chain):
        return {o.task_id: (o.curve, o.isolated, o.placebo, o.k, o.simulated) for o in chain.outcomes}

    assert by_task(judged) == by_task(direct)
    assert len(judged.outcomes) == 40 and all(o.placebo for o in judged.outcomes if o.n_steps > 1)
    assert 0 < np.mean([o.k == 0 for o in judged.outcomes]) < 1


def test_context_effects_follow_the_documented_logit_model():
    """Later steps and longer tasks are harder by the planted logit drops; a task's difficulty is shared
    by its steps and samples; without effects the chance is the planted accuracy."""
    from scipy.special import expit, logit

    from stad_utils.models import step_chance, task_z
    from stad_utils.models._simulated import uniform

    simulated = target({"step_accuracy": {"default": 0.9}, "position_logit_drop": 0.5, "length_logit_drop": 0.25})
    alone: dict[tuple[int, int], list[bool]] = {}
    for ladder in simulated.ladders:
        for step, prompt in enumerate(ladder.isolated, start=1):
            answered = right(simulated.chat_one(prompt), ladder.steps[step - 1].answer)
            alone.setdefault((step, ladder.n_steps), []).append(answered)
    tested = 0
    for (step, n_steps), answers in alone.items():
        if len(answers) >= 50:
            expected = expit(logit(0.9) - 0.5 * (step - 1) - 0.25 * (n_steps - 1))
            assert binomtest(sum(answers), len(answers), expected).pvalue > 1e-4, (step, n_steps)
            tested += 1
    assert tested >= 2
    assert step_chance([0.9, 0.3], [1, 4], 4).tolist() == [0.9, 0.3]
    spread = target({"step_accuracy": {"default": 0.9}, "task_logit_sd": 3.0})
    ladder = spread.ladders[0]
    answers = [[right(spread.chat_one(prompt, sample=sample), step.answer)
                for prompt, step in zip(ladder.isolated, ladder.steps)] for sample in range(200)]
    difficulty = task_z(uniform(0, "task difficulty", ladder.task.question))
    expected = expit(logit(0.9) + 3.0 * difficulty)
    assert binomtest(sum(map(sum, answers)), 200 * ladder.n_steps, expected).pvalue > 1e-4
