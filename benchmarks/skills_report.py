"""Do the skills mean something? The full GSM8K test set, and the quickstart's generated tasks.

1. GSM8K (every test item, the teacher-free ``gsm8k_solution`` teacher): the steps are mapped
   to skills twice, by clustering the teacher's operation labels (what 04_skills does by
   default) and by clustering the descriptions stripped of their story (the fallback for
   teachers without skill names). For each it prints the criterion that chose the number of
   clusters, the skill table (name, steps, share, examples) with rare skills folded into
   "other (n skills)", and whether the goal is met: at most 30 skills shown by name, covering
   at least 90% of the steps, each with at least 1% of them. It saves both figures.
   The operation labels themselves are checked against a blind annotation of 150 random steps
   (``tests/fixtures/gsm8k_step_skills.jsonl``: an annotator chose one label of the same list per
   step from the question and the solution line, without seeing the labeller's choice):
   agreement and Cohen's kappa.
2. The quickstart's 30 generated tasks (oracle teacher): their steps carry known labels, so
   the description clusters (the mode the quickstart uses) are compared with them (adjusted
   Rand index). Clustering the labels themselves would make that comparison circular.

    python benchmarks/skills_report.py                               # data from ../shared/data
    python benchmarks/skills_report.py --data path/to/gsm8k_test.jsonl --out results/benchmarks
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from stad_utils.method import (
    GSM8KSolutionTeacher,
    OracleTeacher,
    SkillMapper,
    build_ladders,
    decompose,
    gsm8k_solution_steps,
    label_agreement,
    map_skills,
    skill_summary,
)
from stad_utils.report import plot_skill_shares
from stad_utils.tasks import generate_tasks, load_tasks

ROOT = Path(__file__).resolve().parents[1]
MAX_SHOWN, MIN_SHARE, MIN_COVERAGE = 30, 0.01, 0.90


def verified_ladders(tasks, teacher):
    return [ladder for ladder in build_ladders(decompose(tasks, teacher), teacher) if ladder.verified]


def describe_fit(mapper: SkillMapper) -> str:
    return (f"clustered {mapper.cluster_on_} texts ({len(set(mapper.texts_))} distinct) embedded with "
            f"{mapper.embedder_name_}; criterion: {mapper.criterion_} over {mapper.scores_['n_clusters'].min()}–"
            f"{mapper.scores_['n_clusters'].max()} clusters → {mapper.n_clusters_} clusters, "
            f"mean silhouette {mapper.criterion_value_:.3f}")


def print_table(summary: pd.DataFrame) -> None:
    shown = summary.assign(share=(summary["share"] * 100).round(1),
                           examples=summary["examples"].map(lambda e: " · ".join(x[:55] for x in e[:2])))
    print(shown.drop(columns="folded").rename(columns={"share": "share (%)"}).to_markdown(index=False))


def goal_lines(summary: pd.DataFrame) -> list[str]:
    named = summary[~summary["folded"]]
    coverage, smallest = named["share"].sum(), named["share"].min()
    met = len(named) <= MAX_SHOWN and coverage >= MIN_COVERAGE and smallest >= MIN_SHARE
    return [f"{len(named)} skills shown by name cover {coverage:.1%} of the steps; the smallest has {smallest:.1%}",
            f"goal (≤ {MAX_SHOWN} skills covering ≥ {MIN_COVERAGE:.0%}, each ≥ {MIN_SHARE:.0%}): "
            f"{'met' if met else 'NOT met'}"]


def gsm8k_report(data: Path, out: Path) -> None:
    start = time.perf_counter()
    tasks = load_tasks("gsm8k", data_path=str(data))
    ladders = verified_ladders(tasks, GSM8KSolutionTeacher())
    n_steps = sum(ladder.n_steps for ladder in ladders)
    print(f"## GSM8K test set: {len(ladders):,} kept tasks, {n_steps:,} steps "
          f"(loaded and decomposed in {time.perf_counter() - start:.1f} s)\n")
    for cluster_on, figure in (("skill", "skills_gsm8k.png"), ("description", "skills_gsm8k_descriptions.png")):
        start = time.perf_counter()
        mapper = SkillMapper(cluster_on=cluster_on)
        skills = map_skills(ladders, mapper)
        summary = skill_summary(skills, max_shown=MAX_SHOWN, min_share=MIN_SHARE)
        seconds = time.perf_counter() - start
        print(f"### clustering {cluster_on}s ({seconds:.1f} s)\n\n{describe_fit(mapper)}\n")
        print_table(summary)
        print("\n" + "\n".join(goal_lines(summary)))
        if cluster_on == "skill":
            agreement, kappa, confusions = annotation_agreement(tasks)
            print(f"operation labels vs a blind annotation of {ANNOTATION.name}: agreement {agreement:.2f}, "
                  f"Cohen's kappa {kappa:.2f}; most frequent disagreements (annotator → labeller):")
            print(confusions.head(5).to_markdown(index=False))
        if cluster_on == "description":
            print(f"agreement of the description clusters with the operation labels (ARI): "
                  f"{label_agreement(skills):.3f}")
        source = "the teacher's skill names" if cluster_on == "skill" else "story-free step descriptions"
        fig = plot_skill_shares(summary, title=f"GSM8K test set ({n_steps:,} steps): skills from {source}")
        fig.savefig(out / figure, dpi=100)
        width, height = fig.get_size_inches() * 100
        print(f"figure: {out / figure} ({width:.0f} × {height:.0f} px)\n")


ANNOTATION = ROOT / "tests" / "fixtures" / "gsm8k_step_skills.jsonl"


def annotation_agreement(tasks, annotation: Path = ANNOTATION) -> tuple[float, float, pd.DataFrame]:
    """Agreement and Cohen's kappa of the operation labels with the blind annotation, and the disagreements.

    The annotated steps were drawn from every test item, kept by the filters or not.
    """
    from sklearn.metrics import cohen_kappa_score

    labelled = pd.read_json(annotation, lines=True)
    steps = {(task.task_id, i): step.skill for task in tasks
             for i, step in enumerate(gsm8k_solution_steps(task.solution), start=1)}
    labelled["labeller"] = [steps[(task, step)] for task, step in zip(labelled["task_id"], labelled["step"])]
    agreement = float((labelled["labeller"] == labelled["label"]).mean())
    kappa = float(cohen_kappa_score(labelled["labeller"], labelled["label"]))
    confusions = (labelled[labelled["labeller"] != labelled["label"]].groupby(["label", "labeller"]).size()
                  .sort_values(ascending=False).rename("steps").reset_index())
    return agreement, kappa, confusions


def quickstart_report() -> None:
    start = time.perf_counter()
    tasks = generate_tasks(30, seed=0, families=["word", "time"], min_steps=2, max_steps=3, max_number=5)
    mapper = SkillMapper(cluster_on="description")
    skills = map_skills(verified_ladders(tasks, OracleTeacher()), mapper)
    seconds = time.perf_counter() - start
    print(f"## quickstart tasks: {len(skills)} steps with {len({s.label for s in skills})} known labels "
          f"({seconds:.1f} s)\n\n{describe_fit(mapper)}")
    print(f"agreement of the description clusters with the known labels (ARI): {label_agreement(skills):.3f}")
    print("(clustering the labels themselves, cluster_on='skill', would be compared with itself: no ARI reported)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "gsm8k_test.jsonl",
                        help="the GSM8K test set (JSONL file or folder)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "benchmarks", help="folder for the figures")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    gsm8k_report(args.data, args.out.resolve())
    quickstart_report()
    print(f"\ntotal: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
