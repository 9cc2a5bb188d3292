"""Every interval and test of the package, once: the statistics that analysis, claims and compare share.

Owns: Wilson score intervals of shares (`share_estimates`), the two-stage paired bootstrap
(`paired_bootstrap`), Newcombe's score interval of a paired difference
(`paired_difference_interval`), McNemar's exact test (`mcnemar_exact`), the paired test of
per-task differences (`paired_test`), Fisher's exact test (`fisher_less`), its exact stratified
form (`stratified_exact_less`: Zelen's test of a common odds ratio, the exact one-sided
Cochran–Mantel–Haenszel test), the task-shuffle test of a skill against the steps standing
where its steps stand (`task_shuffle_less`), the stratified Cochran–Armitage trend test
(`stratified_trend`), Holm's step-down adjustment (`holm`), and the one power solver
(`smallest_detectable`) behind the smallest detectable deficit of a skill and the minimal
detectable difference of two models. Nothing here knows of outcomes or sentences.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.optimize import brentq
from scipy.special import gammaln
from scipy.stats import binomtest, hypergeom, norm, wilcoxon
from statsmodels.stats.proportion import proportion_confint

from ..definitions import ALPHA, CONFIDENCE, POWER


def share_estimates(successes, n, *, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Shares ``successes / n`` with Wilson score intervals; NaN where ``n`` is 0.

    ``successes`` may be fractional (a sum of per-task rates); see `definitions` (share interval).

    Examples
    --------
    >>> share_estimates([5, 0], [5, 0]).round(3).to_dict(orient="records")
    [{'value': 1.0, 'low': 0.566, 'high': 1.0, 'n': 5.0}, {'value': nan, 'low': nan, 'high': nan, 'n': 0.0}]
    >>> share_estimates([0], [25])["low"].item()  # never above its estimate (statsmodels gives 1.4e-17)
    0.0
    """
    successes, n = np.asarray(successes, dtype=float), np.asarray(n, dtype=float)
    has = n > 0
    value, low, high = (np.full(n.shape, np.nan) for _ in range(3))
    if has.any():
        value[has] = successes[has] / n[has]
        low[has], high[has] = proportion_confint(successes[has], n[has], alpha=1 - confidence, method="wilson")
        # statsmodels' bounds can miss an estimate of exactly 0 or 1 by rounding (1e-17): keep it inside
        low[has], high[has] = np.minimum(low[has], value[has]), np.maximum(high[has], value[has])
    return pd.DataFrame({"value": value, "low": low, "high": high, "n": n})


def paired_bootstrap(units: pd.DataFrame, by: str | list[str], *, n_resamples: int = 1000,
                     confidence: float = CONFIDENCE, seed: int = 0) -> pd.DataFrame:
    """Mean over units of ``rate_a − rate_b`` per group, with a two-stage percentile bootstrap interval.

    Parameters
    ----------
    units : DataFrame
        One row per unit (a task at a level, a step occurrence …) with ``task_id``, the ``by``
        columns, ``a_successes``/``a_trials`` and, for a difference, ``b_successes``/``b_trials``
        (successes and answered samples of each side). Units with no answered sample on a side
        are left out. Without the ``b_`` columns the mean of ``rate_a`` is bootstrapped.
    by : str or list of str
        The columns that name a group (one estimate each).
    n_resamples, confidence, seed
        Resamples (0: point estimates only, NaN bounds), interval coverage and the random seed.

    Returns
    -------
    DataFrame
        The ``by`` columns, ``estimate`` (the observed mean), ``low``, ``high`` and ``n`` (units).

    Notes
    -----
    Each resample draws tasks with replacement (all units of a drawn task come along, so the
    pairing is kept) and, within each copy of a task, its samples with replacement, each side
    independently. A unit's re-drawn rate over ``w`` copies is Binomial(w·trials, rate)/trials,
    so the second stage is one vectorised draw, and vanishes when a unit's samples agree
    (always, with one sample per task).

    Examples
    --------
    >>> units = pd.DataFrame({"task_id": ["t1", "t2", "t3", "t4"], "level": 0, "a_successes": [1, 1, 1, 0],
    ...                       "a_trials": 1, "b_successes": [0, 1, 0, 0], "b_trials": 1})
    >>> paired_bootstrap(units, "level", n_resamples=200)[["level", "estimate", "n"]].to_dict(orient="records")
    [{'level': 0, 'estimate': 0.5, 'n': 4}]
    """
    by = [by] if isinstance(by, str) else list(by)
    sides = [("a", 1.0)] + ([("b", -1.0)] if "b_trials" in units else [])
    columns = by + ["estimate", "low", "high", "n"]
    units = units[(units[[f"{side}_trials" for side, _ in sides]] > 0).all(axis=1)]
    if units.empty:
        return pd.DataFrame(columns=columns)
    difference = sum(sign * units[f"{side}_successes"] / units[f"{side}_trials"] for side, sign in sides)
    result = units.assign(difference=difference).groupby(by, sort=True).agg(
        estimate=("difference", "mean"), n=("difference", "size")).reset_index()
    result["low"], result["high"] = np.nan, np.nan
    if n_resamples:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a group absent from a resample is NaN there
            tail = (1 - confidence) / 2 * 100
            means = _resampled_means(units, by, sides, n_resamples, np.random.default_rng(seed))
            result["low"], result["high"] = np.nanpercentile(means, [tail, 100 - tail], axis=0)
    return result[columns]


RESAMPLE_CHUNK = 100
"""Resamples drawn at once: memory holds this many rows of task copies (100 × 25,000 tasks ≈ 20 MB)."""


def _resampled_means(units: pd.DataFrame, by: list[str], sides: list[tuple[str, float]], n_resamples: int,
                     rng: np.random.Generator) -> np.ndarray:
    """Resamples × groups: the mean of ``rate_a − rate_b`` in each two-stage resample (see `paired_bootstrap`)."""
    task = units["task_id"].factorize()[0]
    group = units.groupby(by, sort=True).ngroup().to_numpy()
    n_tasks, n_groups = task.max() + 1, group.max() + 1

    def per_task_group(values: np.ndarray) -> np.ndarray:
        matrix = np.zeros((n_tasks, n_groups))
        np.add.at(matrix, (task, group), values)
        return matrix

    trials = {side: units[f"{side}_trials"].to_numpy(dtype=float) for side, _ in sides}
    rates = {side: units[f"{side}_successes"].to_numpy(dtype=float) / trials[side] for side, _ in sides}
    sums = {side: per_task_group(rates[side]) for side, _ in sides}
    units_per_task = per_task_group(np.ones(len(units)))
    mixed = {side: np.flatnonzero((rates[side] > 0) & (rates[side] < 1)) for side, _ in sides}  # samples disagree
    membership = {side: sparse.csr_matrix((np.ones(mixed[side].size), (np.arange(mixed[side].size),
                                                                       group[mixed[side]])),
                                          shape=(mixed[side].size, n_groups)) for side, _ in sides}
    means = []
    for start in range(0, n_resamples, RESAMPLE_CHUNK):
        copies = _task_copies(n_tasks, min(RESAMPLE_CHUNK, n_resamples - start), rng)
        totals = np.zeros((len(copies), n_groups))
        for side, sign in sides:
            totals += sign * (copies @ sums[side])
            if mixed[side].size:  # second stage: re-draw the samples of units whose samples disagree
                unit_copies = copies[:, task[mixed[side]]]
                side_trials, side_rate = trials[side][mixed[side]], rates[side][mixed[side]]
                redrawn = rng.binomial((unit_copies * side_trials).astype(np.int64), side_rate) / side_trials
                totals += sign * (membership[side].T @ (redrawn - unit_copies * side_rate).T).T
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(totals / (copies @ units_per_task))
    return np.vstack(means)


def _task_copies(n_tasks: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Resamples × tasks: how often each task is drawn when ``n_tasks`` are drawn with replacement.

    Counting uniform draws gives the multinomial counts faster than `Generator.multinomial` with
    many tasks (``benchmarks/scale.py`` measures the analysis at that size).
    """
    drawn = rng.integers(0, n_tasks, size=(n_resamples, n_tasks)) + np.arange(n_resamples)[:, None] * n_tasks
    return np.bincount(drawn.ravel(), minlength=n_resamples * n_tasks).reshape(n_resamples, n_tasks).astype(float)


def paired_difference_interval(both: float, first_only: float, second_only: float, neither: float,
                               confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's score interval (method 10) for p₁ − p₂ of paired binary outcomes.

    ``both``: pairs with both outcomes 1; ``first_only``: first 1, second 0; ``second_only``;
    ``neither``. Counts may be fractional (per-task rates over samples). It combines the two
    Wilson intervals with the correlation φ of the pairs (continuity-corrected when positive),
    and keeps ≥ 90% coverage at n ≤ 10 where a percentile bootstrap gives zero-width intervals.

    Examples
    --------
    >>> [round(x, 3) for x in paired_difference_interval(1, 0, 0, 0)]  # one tied pair: wide, not zero-width
    [-0.793, 0.793]
    >>> [round(x, 3) for x in paired_difference_interval(12, 8, 2, 32)]  # 8 vs 2 discordant of 54: +0.111
    [-0.006, 0.225]
    """
    a, b, c, d = (float(x) for x in (both, first_only, second_only, neither))
    n = a + b + c + d
    if n <= 0:
        return math.nan, math.nan
    wilson = share_estimates([a + b, a + c], [n, n], confidence=confidence)
    p1, l1, u1 = wilson.loc[0, ["value", "low", "high"]]
    p2, l2, u2 = wilson.loc[1, ["value", "low", "high"]]
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    association = a * d - b * c
    if association > 0:
        association = max(association - n / 2, 0.0)
    phi = association / math.sqrt(margins) if margins > 0 else 0.0
    difference = p1 - p2
    low = difference - math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    high = difference + math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return max(low, -1.0), min(high, 1.0)


def mcnemar_exact(first_only: float, second_only: float, alternative: str = "two-sided") -> float:
    """McNemar's exact p for paired binary outcomes from the discordant counts (rounded to whole pairs).

    ``alternative="less"``: the first outcome is 1 less often than the second.

    Examples
    --------
    >>> mcnemar_exact(0, 6, "less"), mcnemar_exact(0, 0)
    (0.015625, 1.0)
    """
    first, second = round(first_only), round(second_only)
    if first + second == 0:
        return 1.0
    return float(binomtest(first, first + second, 0.5, alternative=alternative).pvalue)


def fisher_less(right, asked, rest_right, rest_asked) -> np.ndarray:
    """One-sided p of Fisher's exact test that ``right`` of ``asked`` is too few given the other steps
    (element-wise over arrays): under the null the count right is hypergeometric given the margins.

    Examples
    --------
    >>> from scipy.stats import fisher_exact
    >>> print(f"{float(fisher_less(6, 12, 250, 265)):.4e}", f"{fisher_exact([[6, 6], [250, 15]], 'less').pvalue:.4e}")
    6.2944e-05 6.2944e-05
    """
    right, asked, rest_right, rest_asked = (np.asarray(x, dtype=float) for x in (right, asked, rest_right, rest_asked))
    return hypergeom.cdf(right, asked + rest_asked, right + rest_right, asked)


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the order given.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).round(2).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(p[order] * (len(p) - np.arange(len(p))))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def smallest_detectable(shortfall: Callable[[float], float], smallest: float, largest: float) -> float | None:
    """The power solver: the effect in [``smallest``, ``largest``] where ``shortfall`` (what the
    effect lacks to be detected with the wanted power, increasing in the effect) crosses 0;
    ``None`` when even ``largest`` falls short.

    Examples
    --------
    >>> round(smallest_detectable(lambda effect: effect - 0.25, 0.0, 1.0), 6), smallest_detectable(lambda e: e - 2,
    ...                                                                                             0, 1)
    (0.25, None)
    """
    if shortfall(largest) < 0:
        return None
    return float(brentq(shortfall, smallest, largest))


def smallest_detectable_deficit(asked: float, rest_asked: float, rest_accuracy: float, *, alpha: float,
                                power: float = POWER) -> float | None:
    """The smallest accuracy deficit of a skill asked ``asked`` times that a one-sided level-``alpha``
    test against ``rest_asked`` other steps (accuracy ``rest_accuracy``) detects with ``power``.

    From the arcsine transform of the two proportions (Cohen's h), which stays close to the
    power of Fisher's test near accuracies of 0.95, where the plain normal approximation
    promises deficits that Fisher's test detects in only 55–70% of samples. ``None`` when not
    even a skill that is never right would be detected.

    Examples
    --------
    >>> round(smallest_detectable_deficit(20, 300, 0.95, alpha=0.05 / 15), 2)
    0.3
    >>> smallest_detectable_deficit(1, 10, 0.95, alpha=0.05 / 15) is None
    True
    """
    if asked < 1 or rest_asked < 1 or not 0 < rest_accuracy <= 1:
        return None
    needed = (norm.ppf(1 - alpha) + norm.ppf(power)) * math.sqrt(1 / asked + 1 / rest_asked)

    def shortfall(deficit: float) -> float:
        return 2 * math.asin(math.sqrt(rest_accuracy)) - 2 * math.asin(math.sqrt(rest_accuracy - deficit)) - needed

    return smallest_detectable(shortfall, 0.0, rest_accuracy)


def minimal_detectable_difference(n: int, second_moment: float, *, alpha: float = ALPHA,
                                  power: float = POWER) -> float | None:
    """The smallest |A − B| a paired test on ``n`` tasks detects with the given power (see `definitions`).

    Solves √n·δ = z_(1−α/2)·√ψ + z_power·√(ψ − δ²) with ψ = max(``second_moment``, δ), the
    normal approximation for paired proportions (Connor 1987). ``second_moment`` is the mean
    squared per-task difference (the discordant share with one sample per task). ``None``
    when even a difference of 1 would not be detected (too few tasks).

    Examples
    --------
    >>> round(minimal_detectable_difference(30, 0.2), 2), round(minimal_detectable_difference(1000, 0.2), 3)
    (0.24, 0.04)
    >>> minimal_detectable_difference(3, 0.5) is None
    True
    """
    z_alpha, z_power = norm.ppf(1 - alpha / 2), norm.ppf(power)

    def shortfall(delta: float) -> float:
        psi = max(second_moment, delta)
        return np.sqrt(n) * delta - z_alpha * np.sqrt(psi) - z_power * np.sqrt(max(psi - delta ** 2, 0.0))

    return smallest_detectable(shortfall, 1e-12, 1.0) if n >= 1 else None


def paired_test(differences: np.ndarray, single_sample: bool) -> tuple[str, float]:
    """(test name, two-sided p) for per-task differences A − B: McNemar's exact test on the
    discordant tasks with one sample per task, else the Wilcoxon signed-rank test.

    Examples
    --------
    >>> paired_test(np.array([1, 1, 1, 1, 1, 1, 0, 0]), single_sample=True)
    ('McNemar exact', 0.03125)
    """
    a_better, b_better = int((differences > 0).sum()), int((differences < 0).sum())
    if not a_better + b_better:
        return ("McNemar exact" if single_sample else "Wilcoxon signed-rank"), 1.0
    if single_sample:
        return "McNemar exact", mcnemar_exact(a_better, b_better)
    return "Wilcoxon signed-rank", float(wilcoxon(differences[differences != 0]).pvalue)


# ------------------------------------------------------------------------------------------ like with like

SHUFFLES = 10_000
"""Task shuffles of `task_shuffle_less` in a report: p ≥ 1/10,001, below α/m for families of up to ~500 tests."""

MAX_STEPS = 6
"""The most steps a task has (the method's K ≤ 6): the width of `task_shuffle_less`'s matrices."""


def _log_choose(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    return gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)


def stratified_exact_less(right: np.ndarray, asked: np.ndarray, stratum_right: np.ndarray,
                          stratum_asked: np.ndarray) -> tuple[float, float]:
    """(p, min_p) of the one-sided exact stratified test that a skill's steps are right less often.

    Strata h (a position in tasks of one length); within stratum h, given its margins, the number
    X_h of the skill's steps answered right is hypergeometric, and T = Σ_h X_h has the convolution
    of those laws (Zelen's exact test of a common odds ratio of 1: the one-sided exact
    Cochran–Mantel–Haenszel test; Fisher's exact test with one stratum). Steps are taken as
    independent, which a per-task difficulty breaks: `task_shuffle_less` is the claimed test,
    this one measures what the strata allow (``min_p``: 1 for a skill that shares no stratum
    with another skill's step).

    Parameters
    ----------
    right, asked : ndarray
        Per stratum, the skill's right and asked steps (X_h and n_sh).
    stratum_right, stratum_asked : ndarray
        Per stratum, all steps' right and asked (R_h and N_h), the skill's included.

    Returns
    -------
    p : float
        P(T ≤ t_obs) under the convolution of the strata's hypergeometric laws.
    min_p : float
        P(T = smallest attainable T): the smallest p-value these margins allow.

    Examples
    --------
    >>> from scipy.stats import fisher_exact  # one stratum: Fisher's exact test
    >>> p, _ = stratified_exact_less(np.array([6]), np.array([12]), np.array([256]), np.array([277]))
    >>> bool(abs(p - fisher_exact([[6, 6], [250, 15]], "less").pvalue) < 1e-12)
    True
    >>> stratified_exact_less(np.array([3, 0]), np.array([5, 0]), np.array([3, 9]), np.array([5, 10]))
    (1.0, 1.0)
    """
    right, asked = np.asarray(right, dtype=float), np.asarray(asked, dtype=float)
    total_right, total = np.asarray(stratum_right, dtype=float), np.asarray(stratum_asked, dtype=float)
    low = np.maximum(0.0, total_right - (total - asked))
    high = np.minimum(asked, total_right)
    random = (asked > 0) & (asked < total) & (high > low)  # the other strata are point masses
    if not random.any():
        return 1.0, 1.0
    distribution = np.ones(1)
    for n, r, m, k_low, k_high in zip(total[random], total_right[random], asked[random], low[random], high[random]):
        k = np.arange(k_low, k_high + 1)
        log_pmf = _log_choose(r, k) + _log_choose(n - r, m - k) - _log_choose(n, m)
        distribution = np.convolve(distribution, np.exp(log_pmf))
    observed = int(round((right[random] - low[random]).sum()))  # T − its smallest attainable value
    return float(min(distribution[:observed + 1].sum(), 1.0)), float(distribution[0])


def task_shuffle_less(answers: np.ndarray, codes: np.ndarray, n_steps: np.ndarray, n_skills: int, *,
                      n_permutations: int = SHUFFLES, rng: np.random.Generator,
                      chunk: int = 250) -> np.ndarray:
    """One-sided Monte Carlo p per skill code 0 … ``n_skills`` − 1: is the skill right less often than the
    other steps standing where its steps stand (the same position in tasks of the same length)?

    Statistic: D_s = Σ over the steps of s of (y − m_(i,K)), y a step's answer and m_(i,K) the mean
    answer at position i over the tasks of length K (an unanswered step adds 0). Under the null
    "a step of s is right as often as any other step at the same (i, K)", and tasks being
    independent, the answer vectors of tasks of equal length are exchangeable whatever the
    position effects, the length effects and each task's difficulty: shuffling whole answer
    vectors among tasks of equal K (each answer kept at its position, the skills where they are)
    gives the reference law, and p = (1 + #{D*_s ≤ D_s}) / (1 + B). The shuffle keeps every
    dependence between the steps of one task, so hard tasks whose steps fail together cannot
    make a skill look weak; a length with one task, or a position every step of which has
    skill s, leaves D_s unchanged: no evidence, never an error.

    Parameters
    ----------
    answers : ndarray
        Tasks × 6: each step's answer (share right over samples), NaN when unanswered or past K.
    codes : ndarray
        Tasks × 6: each step's skill code, −1 for a step of an untested skill or past K (such steps
        are shuffled with the rest but counted for no skill).
    n_steps : ndarray
        K per task: tasks are shuffled among those of equal K.
    n_skills : int
        The number of skill codes.
    n_permutations : int
        B, the number of shuffles.
    rng : numpy.random.Generator
        The shuffles' random stream.
    chunk : int
        Shuffles drawn at once (memory: chunk × tasks × 6 floats).

    Returns
    -------
    ndarray
        p per skill code, in [1/(B + 1), 1].

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> codes = np.tile([0, 1, 2, -1, -1, -1], (200, 1)); n_steps = np.full(200, 3)
    >>> codes[:100, :3] = [1, 2, 0]  # half the tasks hold the skills in another order
    >>> chance = np.where(codes == 2, 0.6, 0.9)
    >>> answers = np.where(np.arange(6) < 3, (rng.random((200, 6)) < chance).astype(float), np.nan)
    >>> p = task_shuffle_less(answers, codes, n_steps, 3, n_permutations=999, rng=rng)
    >>> bool(p[2] < 0.01), bool(p[0] > 0.05)
    (True, True)
    """
    observed = np.zeros(n_skills)
    blocks = []  # per length K: (centred answers of its tasks, tasks × K; their skill codes, 0 for none)
    for k in np.unique(n_steps):
        rows = np.flatnonzero(n_steps == k)
        block = answers[rows, :k]
        answered = ~np.isnan(block)
        mean = np.where(answered, block, 0.0).sum(axis=0) / np.maximum(answered.sum(axis=0), 1)
        centred = np.where(answered, block - mean, 0.0)
        counted = codes[rows, :k] >= 0
        shifted = np.where(counted, codes[rows, :k] + 1, 0).ravel()  # 0: counted for no skill
        observed += np.bincount(shifted, np.where(counted, centred, 0.0).ravel(), minlength=n_skills + 1)[1:]
        blocks.append((centred, shifted))
    exceed = np.zeros(n_skills)
    for start in range(0, n_permutations, chunk):
        size = min(chunk, n_permutations - start)
        shuffled = np.zeros(size * (n_skills + 1))
        for centred, shifted in blocks:
            order = np.argsort(rng.random((size, len(centred))), axis=1)
            index = (np.arange(size)[:, None] * (n_skills + 1) + shifted[None, :]).ravel()
            shuffled += np.bincount(index, centred[order].ravel(), minlength=size * (n_skills + 1))
        exceed += (shuffled.reshape(size, n_skills + 1)[:, 1:] <= observed + 1e-9).sum(axis=0)
    return (1 + exceed) / (1 + n_permutations)


def stratified_trend(score: np.ndarray, right: np.ndarray, stratum: np.ndarray) -> tuple[float, float, int]:
    """(slope, z, informative steps) of the stratified Cochran–Armitage trend of ``right`` on ``score``.

    Mantel's extension with the permutation variance: within stratum h (N_h steps, R_h right,
    scores x), T_h = Σ x·y has mean R_h·x̄_h and variance R_h(N_h − R_h)/(N_h(N_h − 1))·Σ(x − x̄_h)²
    under exchangeable answers; z = Σ_h (T_h − E T_h)/√(Σ_h Var T_h), and Φ(z) is the one-sided p
    that accuracy falls with the score.

    The slope is the pooled within-stratum least-squares slope of accuracy on the score
    (Σ_h Σ (x − x̄_h)(y − ȳ_h) / Σ_h Σ (x − x̄_h)²; NaN when no stratum has two scores); z uses
    the permutation variance given each stratum's right count (see the module docstring) and is
    0 without information. Informative steps lie in strata with two scores and both answers.

    Examples
    --------
    >>> score, right = np.array([1, 1, 2, 2, 1, 2]), np.array([1, 1, 1, 0, 1, 0])
    >>> stratum = np.array([0, 0, 0, 0, 1, 1])
    >>> slope, z, informative = stratified_trend(score, right, stratum)
    >>> round(slope, 3), round(z, 3), informative
    (-0.667, -1.414, 6)
    """
    score, right = np.asarray(score, dtype=float), np.asarray(right, dtype=float)
    stratum = np.unique(np.asarray(stratum), return_inverse=True)[1]
    n = np.bincount(stratum).astype(float)
    r = np.bincount(stratum, right)
    sx, sxx, sxy = np.bincount(stratum, score), np.bincount(stratum, score ** 2), np.bincount(stratum, score * right)
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = np.where(n > 0, sxx - sx ** 2 / n, 0.0)
        deviation = sxy - r * sx / n
        variance = np.where(n > 1, r * (n - r) / (n * (n - 1)) * spread, 0.0)
    spread = np.clip(spread, 0.0, None)  # rounding of Σx² − (Σx)²/N
    slope = float(deviation.sum() / spread.sum()) if spread.sum() > 1e-9 else float("nan")
    total_variance = variance.sum()
    z = float(deviation.sum() / np.sqrt(total_variance)) if total_variance > 1e-9 else 0.0
    informative = int(n[(variance > 1e-9)].sum())
    return slope, z, informative
