"""A reasoning trace in the failure browser and the viewer: folded under its reply, and bounded in size.

Uses the failure browser's hand-made run (`test_browser.write_run`) with one reply that came with a
trace of 20,000 tokens, and its headless Chromium.
"""

import random
import re
import urllib.request

import pytest
from browser_run import QWEN, write_run

from stad_utils.records import RecordFile, Verdict, read_records
from stad_utils.report.browser import (
    TRACE_HEAD_CHARS,
    TRACE_TAIL_CHARS,
    BrowserRecords,
    browser_data,
    browser_html,
    detail_html,
    task_detail_html,
    write_browser,
)
from stad_utils.report.view import serving

TRACE_TOKENS = 20_000


def long_trace(tokens: int = TRACE_TOKENS, seed: int = 0) -> str:
    """A trace of about ``tokens`` tokens (4 characters each) that compresses as prose does, not as a repeat."""
    rng = random.Random(seed)
    words = ["so", "the", "eggs", "left", "per", "day", "wait", "check", "again", "then", "multiply", "add",
             "subtract", "hmm", "which", "means", "price", "dollars", "each", "total"]
    parts, length = ["<<trace start>>"], 0
    while length < 4 * tokens:
        part = rng.choice(words) if rng.random() < 0.8 else str(rng.randint(0, 999))
        parts.append(part)
        length += len(part) + 1
    return " ".join(parts) + " so the answer is 18. <<trace end>>"


@pytest.fixture
def run(tmp_path):
    paths = write_run(tmp_path / "demo-run")
    [original] = [v for v in read_records(paths.verdicts, Verdict.model_validate)
                  if (v.task_id, v.model, v.variant) == ("t1", QWEN, "original")]
    thought = original.model_copy(update={"reasoning": long_trace(), "reasoning_tokens": TRACE_TOKENS})
    RecordFile(paths.verdicts, Verdict).append([thought])  # supersedes the reply without a trace
    return paths


def detail_of(data: dict, task_id: str) -> str:
    task = next(task for task in data["tasks"] if task["id"] == task_id)
    return str(task_detail_html(task, data["models"], data["short"]))


def test_the_trace_is_folded_under_its_reply_and_only_its_ends_are_carried(run):
    data = browser_data(run.root)
    html = detail_of(data, "t1")
    reply = html[html.index(f"[{QWEN}] I added one too many"):]
    folded = re.search(r'<details class="stad-trace">\s*<summary>(.*?)</summary>', reply, re.DOTALL)
    assert folded and reply.index("<details") < reply.index("</article>")  # under its own reply, folded
    assert "80,0" in folded.group(1) and "20,000 tokens" in folded.group(1) and "not judged" in folded.group(1)
    assert "&lt;&lt;trace start&gt;&gt;" in reply and "so the answer is 18. &lt;&lt;trace end&gt;&gt;" in reply
    assert "characters left out here" in reply and "verdicts.jsonl" in reply
    assert html.count('class="stad-trace"') == 1  # the other replies came without one


def test_a_twenty_thousand_token_trace_keeps_the_drill_down_and_the_page_within_their_bound(run, tmp_path):
    without = tmp_path / "without"
    write_run(without)
    plain, thought = browser_data(without), browser_data(run.root)
    growth = len(detail_of(thought, "t1").encode()) - len(detail_of(plain, "t1").encode())
    assert len(long_trace()) > 79_000
    assert growth < TRACE_HEAD_CHARS + TRACE_TAIL_CHARS + 1_000  # the ends and their markup, not 80,000 characters
    page_growth = len(browser_html(thought).encode()) - len(browser_html(plain).encode())
    assert page_growth < 5_000  # compressed, as the page carries it: within "about 20 KB" a task


def test_the_viewer_shows_the_trace_folded_on_demand_within_the_same_bound(run, tmp_path):
    with serving(run.root) as url:
        with urllib.request.urlopen(url + "task/t1", timeout=30) as response:
            detail = response.read()
    assert detail.decode().count('<details class="stad-trace">') == 1 and b"characters left out here" in detail
    without = str(detail_html(BrowserRecords(write_run(tmp_path / "without").root), "t1")).encode()
    assert len(detail) - len(without) < TRACE_HEAD_CHARS + TRACE_TAIL_CHARS + 1_000


def test_the_trace_opens_in_chromium_and_is_folded_until_then(run, chromium, tmp_path):
    page_path = write_browser(run.root, tmp_path / "browser.html")
    page = chromium.new_page(viewport={"width": 1400, "height": 1100})
    page.route("http*://**", lambda route: route.abort())
    page.goto(page_path.as_uri())
    page.wait_for_selector(".stad-browser tr.stad-task-row")
    page.fill("input[data-filter=text]", "ducks")
    page.click("tr.stad-task-row")
    trace = page.locator(".stad-detail-row details.stad-trace")
    trace.wait_for()
    assert trace.count() == 1 and not trace.evaluate("node => node.open")
    assert not page.locator(".stad-detail-row .stad-trace-text").first.is_visible()
    trace.locator("summary").click()
    assert trace.evaluate("node => node.open")
    assert "<<trace start>>" in page.locator(".stad-detail-row .stad-trace-text").first.inner_text()
    trace.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "trace.png"), full_page=False)
    page.close()

