"""Every quantity the analysis reports, defined once; the other modules refer here.

Notation: a task has K steps (1 ≤ K ≤ 6). The target is asked the original question
(level 0), scaffold levels j = 1…K−1 (the first j steps solved and stated), isolated steps
i = 1…K (step i alone, earlier results given) and, when the teacher wrote them, placebo
levels j = 1…K−1. With repeated trials every question is asked n times (samples 0…n−1);
one `Outcome` holds one sample of one task for one model.

Answers
-------
*answered*
    A question with a decided verdict: correct, or wrong (a wrong value or no answer).
    An *error* (no reply, or no usable judge verdict) or an *undecided* reply is
    *unanswered*: never scored as wrong, never part of an accuracy, always counted beside
    it. A question the policy did not put is *not asked*.
*per-task rate*
    With n samples, a task's value of an indicator is its mean over the samples where the
    indicator is defined. Every share below averages per-task rates, so each task weighs
    the same whatever n; with n = 1 they are the single-sample statistics.

Per task
--------
*success curve* ``curve[j]``
    Whether level j was solved (``None``: unanswered or not asked).
*minimal scaffolding level* k
    The first solved level j; −1 ("unresolved") when every level was answered and failed;
    ``None`` ("undetermined") when a level before the first success is unanswered.
    k-based statistics use determined outcomes only; the undetermined ones are counted,
    split by the verdict that left k open (``error`` or ``undecided``).
*category*
    independent (k = 0), scaffoldable (k > 0), unresolved (k = −1), undetermined.
*help needed* h
    k for k ≥ 0 and K for k = −1, so that "never solved" orders last.
*non-monotonic*
    Some level solved and a higher level failed.

Per level
---------
*success at level j* (``success_by_level``)
    Share solved among the tasks answered at level j.
*accuracy as asked* (``accuracy_original``)
    Success at level 0: over every task answered as asked, whatever happened later.
*accuracy with scaffolding* (``accuracy_scaffolded``)
    Share of tasks solved at some level, among tasks where that is decided (a level was
    solved, or every level was answered and failed).
*k share*
    Share of determined outcomes with that k.

Bottlenecks
-----------
*bottleneck step*
    For k > 0, step k: level k−1 (steps 1…k−1 given) failed and level k (step k given
    too) succeeded, so providing step k turned failure into success. Tasks with k = 0
    have none; k = −1 is its own category, *unresolved* (no step's provision sufficed).
*bottleneck attribution*
    Among determined tasks that needed help (k ≠ 0): the share whose bottleneck step has
    skill s, and the share unresolved.
*at risk*
    An occurrence of skill s at step i is at risk when i ≤ K−1 and level i−1 failed
    (k = −1 or k ≥ i): the task was still unsolved with s the next step to be given.
*bottleneck rate* of s
    Bottleneck occurrences of s over its at-risk occurrences: how often giving s solved a
    task that was unsolved with s next. Descriptive only (see *Claims*): it depends on where
    s stands and on the steps that follow it, so no sentence names a skill by it.
*needed-scaffold share* of s
    The old "blocking rate", kept only under this name: the share of occurrences of s
    inside steps 1…k (all K steps when k = −1). Earlier steps are inside more often
    whatever the model does, so it mostly measures step position; no sentence, figure or
    test of a difference uses it.
*unresolved share* of s
    Share of the occurrences of s that lie in tasks with k = −1.

Worked example (the paper's Figure 1): Janet's ducks has K = 3 steps, s1 addition
(3 + 4 eggs used), s2 subtraction (16 − 7 left), s3 multiplication (9 × 2 dollars). The
target fails the original and scaffold 1 and solves scaffold 2, so k = 2. The bottleneck
is step 2, subtraction: giving the addition (level 1) did not help, giving the
subtraction as well (level 2) did. Addition (step 1, level 0 failed) and subtraction
(step 2, level 1 failed) are at risk; only subtraction is a bottleneck; multiplication
(step 3 = K, never given) is not at risk. The needed-scaffold share counts both addition
and subtraction. Had level 2 failed too, k = −1: the task is unresolved, addition and
subtraction are at risk and neither is a bottleneck.

Skills alone and in composition
-------------------------------
*isolated accuracy* of s
    Share of the occurrences of s answered correctly when asked alone.
*whole-task success* of s
    Share of the occurrences of s whose task was solved as asked (level 0).
*isolated-vs-whole gap* of s
    Isolated accuracy − whole-task success, paired on the occurrences where both are
    answered. Descriptive only: it compares one step with a whole task, which has more
    steps, so it is positive even for a model without any weakness; it is not a composition
    measure and no sentence quotes it.
*composition gap* (the composition measure of 06 and 07)
    Whole-task success as asked − success of every step of the task asked alone, per task
    (per-task rates over samples), averaged over the tasks where level 0 and every isolated
    step are answered. Negative: the model fails to chain steps it can do alone. Every step
    of the task counts, whatever its position; 0 when chaining costs nothing (also when a
    step's success is noisy, as long as it is as likely alone as in the chain).
*pair composition gap* of skills (a, b) (as in Compositional GSM)
    The composition gap of the last two steps only: success at level K−2 (only those two
    steps left) − the product of the two steps' isolated successes, averaged over tasks
    whose last two steps have skills a, b. Same sign: negative = fails to chain.
*composition penalty* c (08_validate and the simulated target only)
    The chance that one link of a chain fails although the steps it joins would each be
    done alone (`stad_utils.models._simulated`); positive = fails to chain. Under that model a task of
    K steps has expected composition gap −Π p(skill_i) · (1 − (1 − c)^(K−1)).
*help from content* at level j
    Success of scaffold j − success of placebo j, paired on tasks where both were
    answered. A placebo is as long as scaffold j but only restates givens, so the
    difference is the help from the solved steps' content, not from length or form.

Policies
--------
``full`` asks every question. ``on_failure`` (the authors' scripts) asks variants only for
tasks failed as asked. Then success at levels ≥ 1, isolated accuracy, help from content and
the paired tests at levels ≥ 1 describe those tasks only, and say so; the isolated-vs-whole
gap, the pair composition gap and "solved although a step failed" would be fixed by the
selection (the whole task, or level 0 for K = 2, is failed by construction) and are refused.
k-based statistics need no unasked level (k = 0 needs level 0 only). An unknown policy name
is an error (`check_policy`).

Uncertainty and words
---------------------
*share interval*
    Wilson score 95% interval over the n units (tasks, or step occurrences) behind the
    share, each unit's value its per-task rate. With repeated samples it is conservative:
    a rate's variance is at most p(1 − p).
*difference interval*
    With one sample per task, Newcombe's score interval for a paired difference of shares
    (method 10: the two Wilson intervals combined with the pairs' correlation), which keeps
    its coverage at n ≤ 10. With repeated samples, a paired percentile bootstrap (resample
    tasks with replacement and, within each drawn task, its samples, each side
    independently; 1,000 times), and no interval below ``BOOTSTRAP_MIN_TASKS`` tasks.
*paired test* at level j
    On tasks both models answered at level j: McNemar's exact test when every task has one
    sample, else the Wilcoxon signed-rank test of the per-task rate differences.
*minimal detectable difference*
    The smallest |A − B| the paired test detects with 80% power at α = 0.05 (two-sided),
    from the normal approximation for paired proportions (Connor 1987):
    √n·δ = z₀.₉₇₅·√ψ + z₀.₈·√(ψ − δ²), ψ the mean squared per-task difference (the share
    of discordant tasks when n = 1), taken at least δ (a difference δ needs that much
    discordance).
*skill profile*
    A model's bottleneck rate per skill on the tasks where both models needed help. The
    distance between two profiles is the mean absolute difference over the skills at risk
    at least ``MIN_SUPPORT`` times in both; its p-value comes from a paired permutation test
    that swaps the two models' outcomes within tasks.
*minimum support*
    No sentence names a skill with fewer than ``MIN_SUPPORT`` units behind its rate, and
    none names ``UNMAPPED`` (steps without a skill).

Claims
------
What a sentence may claim is decided by `stad_utils.analysis._claims`, the one module 06, 07 and 08
share; the report's sentences are written from each model's ``diagnosis`` block.

*weak skill*
    A skill (with at least ``MIN_SUPPORT`` answered isolated questions) whose isolated
    accuracy is lower than that of all other steps by a one-sided Fisher exact test, after
    Holm's correction over the skills tested and the composition test (α = 0.05). Its
    *effect* is the deficit, other steps' accuracy − its accuracy; flagged skills are ranked
    by it. A step asked alone does not depend on where it stands, so neither does the rank.
*composition failure*
    A composition gap below 0 by a one-sided McNemar exact test (tasks with every step right
    alone and the whole wrong, against the reverse), in the same Holm family.
*smallest detectable effect*
    When nothing is flagged: the smallest deficit that the first Holm step (level α over
    the family's size) detects with 80% power for the most-asked skill (arcsine transform of
    the two proportions, Cohen's h, close to Fisher's power near 0.95); rarer skills need more.

Why the bottleneck rate no longer names skills. Under a control whose every step is done
alone with chance 0.95 and chained without cost, on the 1,178 kept GSM8K tasks
(`python benchmarks/diagnosis_calibration.py`, section "Bottleneck rate by step position"),
the bottleneck rate of a step is 0.50 one step before the last, 0.32 two steps before, then
0.28, 0.21 and 0.14 (10 runs, 142–1,143 at-risk steps per position), while its isolated accuracy
is 0.94–0.95 everywhere; a last step is never at risk. So the highest bottleneck rate names
the skill that most often comes one step before the last (issue 15: some skill was named so in
90% of ~90-task controls), and a weak skill that is mostly a last step is seldom at risk.
Adjusting the rate for position would need the model's own per-step accuracies, which the
isolated questions measure directly: the diagnosis therefore
leads with isolated accuracy and the composition gap, and the bottleneck rate stays in the
descriptive tables.
"""

from __future__ import annotations

MIN_SUPPORT = 5
"""Fewest units (tasks, occurrences, at-risk steps) behind a rate that a sentence may quote."""

ALPHA = 0.05
"""Significance level of every test."""

POWER = 0.8
"""Power at which the minimal detectable difference is computed."""

CONFIDENCE = 0.95
"""Coverage of every interval."""

BOOTSTRAP_MIN_TASKS = 30
"""Fewest tasks for a bootstrap interval; below, only an exact or score interval is given, or none."""

UNRESOLVED = "unresolved (k = −1)"
"""The bottleneck category of tasks no scaffold level solved."""
