"""``report.html``: a front page, the executed analysis notebooks, and the failure browser, in one offline page.

The page opens on what a newcomer asks first: which run, when, judged by which judge, which
models (real or simulated), how many tasks survived each stage, and for each model one
sentence on where its reasoning breaks, beside the figure that shows it. A table of contents
follows, then the methods and results of ``06_analyze`` and ``07_compare`` (their outputs,
no code), then the failure browser (`stad_utils.report.browser`).

Safe by construction: skill names, model names, replies and errors are data. The front page
and the browser are rendered by jinja with autoescape; the notebooks' HTML is sanitised with
``nh3`` (no script, no event handler, no link but to an anchor of the page, no image but an
embedded one), and the widget state papermill saved is dropped, so nothing loads from a CDN.
The page's only scripts are the browser's, inserted after sanitising.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2
import nbformat
from markupsafe import Markup

from ..analysis import Comparison, ModelSummary, RunSummary
from ..records import RunPaths, collector_paused, write_atomic

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"  # report/: nbconvert's lab page without CDN scripts
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
NOTEBOOK_ONLY = "notebook-only"
"""The tag of a notebook cell that speaks of the notebook itself (e.g. of its widget), left out of the page."""
ID_PREFIX = "nb-"  # the notebooks' heading anchors, kept apart from the page's own ids

_TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                                undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


# ------------------------------------------------------------------------------------------ sanitising


def _keep_attribute(tag: str, attribute: str, value: str) -> str | None:
    """nh3's filter: links only to anchors of the page, images only embedded, ids prefixed."""
    if attribute == "href":
        return ID_PREFIX.join(("#", value[1:])) if value.startswith("#") else None
    if attribute == "src":
        return value if re.match(r"data:image/(png|jpeg);base64,", value) else None
    if attribute == "id":
        return ID_PREFIX + value
    return value


def sanitise(html: str) -> str:
    """``html`` with nothing that runs or loads: no script, style, event handler, form, frame,
    inline style, outside link or outside image (see `_keep_attribute`).

    Examples
    --------
    >>> sanitise('<p onclick="x()">a<script>alert(1)</script><a href="javascript:x()">b</a><img src=x></p>')
    '<p>a<a rel="noopener noreferrer">b</a><img></p>'
    """
    import nh3

    return nh3.clean(html, tags=nh3.ALLOWED_TAGS | {"main", "section"},
                     attributes={"*": {"class", "id", "title"}, "img": {"src", "alt", "width", "height"},
                                 "a": {"href"}, "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan"}},
                     url_schemes={"data"}, attribute_filter=_keep_attribute)


# ------------------------------------------------------------------------------------------ the notebooks


def _report_cells(notebooks: Sequence[Path]) -> nbformat.NotebookNode:
    """The notebooks as one, without parameter cells, notebook-only cells and widget outputs.

    A widget's output is its saved state plus a text repr: the state would make nbconvert load
    the widget manager from a CDN, and the repr is no use on a page without a kernel (the
    failure browser at the end of the page is the same view).
    """
    combined = nbformat.read(notebooks[0], as_version=4)
    for notebook in notebooks[1:]:
        combined.cells.extend(nbformat.read(notebook, as_version=4).cells)
    skipped = {"parameters", "injected-parameters", NOTEBOOK_ONLY}
    combined.cells = [cell for cell in combined.cells if not skipped & set(cell.metadata.get("tags", []))]
    for cell in combined.cells:
        if cell.cell_type == "code":
            cell.outputs = [output for output in cell.outputs if WIDGET_VIEW not in output.get("data", {})]
    combined.metadata.pop("widgets", None)
    return combined


def notebook_html(notebooks: Sequence[Path]) -> tuple[str, str]:
    """The notebooks' outputs and markdown as sanitised HTML, and the exporter's style sheets."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="report", extra_template_basedirs=[str(TEMPLATES)], exclude_input=True,
                            exclude_input_prompt=True, exclude_output_prompt=True)
    page, _ = exporter.from_notebook_node(_report_cells(notebooks))
    head, _, rest = page.partition("<body")
    body = rest[rest.index(">") + 1:rest.rindex("</body>")]
    styles = "".join(re.findall(r"<style[^>]*>.*?</style>", head, flags=re.S))  # the template's, no data
    return sanitise(body), styles


def headings(html: str, levels: str = "12") -> list[dict]:
    """``{"id", "text", "level"}`` of the ``<h1>``/``<h2>`` of sanitised HTML, for a table of contents."""
    found = re.finditer(rf'<h([{levels}])[^>]*\bid="([^"]+)"[^>]*>(.*?)</h\1>', html, flags=re.S)
    return [{"level": int(match[1]), "id": match[2], "text": Markup(re.sub(r"<[^>]+>", "", match[3])).unescape()
             .replace("¶", "").strip()} for match in found]


# ------------------------------------------------------------------------------------------ the front page


def _figure_uri(fig) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80, bbox_inches="tight")  # labels and notes beside the axes
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def _judge_versions(paths: RunPaths) -> list[str]:
    """Every judge version in the verdict log, read from its Parquet copy (06 made it; one column, no reply texts)."""
    if not paths.verdicts.exists():
        return []
    from ..records.columnar import connect, parquet_copy, sql_text

    connection = connect()
    try:
        rows = connection.execute("SELECT DISTINCT judge_version FROM "
                                  f"read_parquet({sql_text(parquet_copy(paths.verdicts))})").fetchall()
    finally:
        connection.close()
    return sorted({version or "unrecorded" for (version,) in rows})


def funnel_steps(summary: RunSummary | None, paths: RunPaths) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """The funnel of tasks, stage by stage, and the tasks dropped by reason: the summary's, else the
    run's files' (`stad_utils.analysis.run_funnel`; none for a run without its stage files).
    """
    from ..analysis import run_funnel

    funnel = summary.funnel if summary is not None and summary.funnel else run_funnel(paths)
    if funnel is None:
        return [], {}
    return [(stage, getattr(funnel, stage)) for stage in ("loaded", "consistent", "verified", "evaluated")], \
        dict(funnel.dropped)


def planted_settings(manifest: dict) -> dict[str, str]:
    """Each simulated target's record name → its planted setting in words, as the runs' preflights recorded it."""
    return {entry["label"]: entry["planted"] for invocation in manifest.get("invocations") or []
            for entries in (invocation.get("endpoints") or {}).values() for entry in entries
            if entry.get("kind") == "simulated" and "planted" in entry}


@dataclass(frozen=True)
class ModelEntry:
    """What the front page says of one model: where it breaks, in one sentence, and how sure that is.

    ``planted``: a simulated target's whole planted setting, which its short name leaves out;
    ``figure``: the evidence of its diagnosis as an embedded PNG (a ``data:`` URI); ``context_figure``:
    accuracy asked alone by position and by task length, the evidence of the context sentence.
    """

    name: str
    simulated: bool
    planted: str | None
    sentence: str
    facts: list[str]
    figure: str | None
    context_figure: str | None = None


def model_entry(model: str, numbers: ModelSummary, figure: str | None, planted: str | None = None,
                context_figure: str | None = None) -> ModelEntry:
    """The front page's `ModelEntry` of one model of ``summary.json``."""
    from ..analysis import difference_words

    diagnosis = numbers.diagnosis
    facts = []
    if diagnosis.weak_skills:
        facts.append("weak skills: " + ", ".join(diagnosis.weak_skills))
    effect = diagnosis.composition_effect
    if effect and effect.value is not None:
        facts.append(f"{effect.name or 'composition effect'}: {difference_words(effect)}")
    facts.append(f"test: {diagnosis.test}" + (f" ({diagnosis.correction})" if diagnosis.correction else ""))
    return ModelEntry(name=model, simulated=numbers.simulated, planted=planted,
                      sentence=diagnosis.headline or numbers.weakness_profile, facts=facts, figure=figure,
                      context_figure=context_figure)


def _model_figures(models: dict[str, ModelSummary]) -> dict[str, tuple[str, str | None]]:
    """Per model of ``summary.json``, the evidence of its diagnosis (`plot_diagnosis`) and of its context
    sentence (`plot_context`, for a summary that tested the context) as embedded PNGs.
    """
    from .figures import plot_context, plot_diagnosis

    return {model: (_figure_uri(plot_diagnosis(numbers, model)),
                    _figure_uri(plot_context(numbers, model)) if numbers.diagnosis.context else None)
            for model, numbers in models.items()}


@dataclass(frozen=True)
class FrontPage:
    """The front page's facts: the run, its date and judge, each model's `ModelEntry`, each pair's
    accuracy as asked on the same tasks (from 07), and the funnel with the tasks dropped by reason.
    """

    run: str
    date: str
    judge: list[str]
    models: list[ModelEntry]
    pairs: list[str]
    funnel: list[tuple[str, int]]
    dropped: dict[str, int]


def front_page(paths: RunPaths) -> FrontPage:
    """The `FrontPage` of a run folder, from its summary, comparison and manifest."""
    from ..analysis import accuracy_statement

    summary = RunSummary.read(paths.summary) if paths.summary.exists() else None
    comparison = Comparison.read(paths.comparison) if paths.comparison.exists() else None
    manifest = _read_json(paths.manifest)
    invocations = manifest.get("invocations") or [{}]
    models = summary.models if summary is not None else {}
    figures = _model_figures(models)
    planted = planted_settings(manifest)
    funnel, dropped = funnel_steps(summary, paths)
    return FrontPage(
        run=manifest.get("run") or paths.root.name,
        date=(invocations[-1].get("finished") or invocations[-1].get("started") or "")[:16].replace("T", " "),
        judge=_judge_versions(paths),
        models=[model_entry(model, numbers, *figures[model][:1], planted.get(model), figures[model][1])
                for model, numbers in models.items()],
        pairs=[accuracy_statement(pair) for pair in comparison.comparisons] if comparison is not None else [],
        funnel=funnel, dropped=dropped)


# ------------------------------------------------------------------------------------------ the page


@collector_paused()
def write_html_report(paths: RunPaths, stages: tuple[str, ...] = ("06_analyze", "07_compare"),
                      other_runs: tuple[Path | str, ...] = ()) -> Path | None:
    """Write ``report.html`` of a run folder (see the module's docstring); ``None`` before 06 or 07 ran.

    The garbage collector is paused meanwhile (`collector_paused`): with the browser's records of a
    large run in memory, each of its full collections took seconds.
    """
    from .browser import REPORT_DETAILS, browser_data, browser_section

    executed = [paths.notebooks / f"{stage}.ipynb" for stage in stages if (paths.notebooks / f"{stage}.ipynb").exists()]
    if not executed:
        return None
    body, styles = notebook_html(executed)
    data = browser_data([paths.root, *other_runs], max_details=REPORT_DETAILS)
    page = _TEMPLATES.get_template("report.html.jinja").render(
        front=front_page(paths), contents=headings(body), styles=Markup(styles), body=Markup(body),
        browser=Markup(browser_section(data)) if data["tasks"] else None)
    write_atomic(paths.html, page)
    return paths.html
