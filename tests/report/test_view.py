"""A report that opens at any size: the bounded drill-downs of report.html, and the local viewer.

Uses the failure browser's hand-made run (`test_browser.write_run`) and its headless Chromium.
"""

import urllib.error
import urllib.request

import pytest
from browser_run import GRANITE, QWEN, write_run

from stad_utils.report import browser
from stad_utils.report.browser import browser_data, browser_html, carried_tasks
from stad_utils.report.view import serving


@pytest.fixture
def run(tmp_path):
    return write_run(tmp_path / "demo-run")


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_carried_tasks_are_bounded_and_take_failures_and_disagreements_first(run):
    tasks = browser_data(run.root, max_details=0)["tasks"]
    assert not any(task["detailed"] for task in tasks)
    assert carried_tasks(tasks, None) == carried_tasks(tasks, 6) == {task["id"] for task in tasks}
    two = carried_tasks(tasks, 2)
    assert len(two) == 2
    failed = {"t3", "t4", "t5", "t6"}  # k = -1 / undetermined or a validity flag
    assert two & failed and two & {"t1", "t3", "t6"}  # one failed task, one the models disagree on
    assert carried_tasks(tasks, 2) == two  # seeded


def test_a_bounded_page_says_so_and_carries_only_its_tasks(run):
    data = browser_data(run.root, max_details=2)
    assert data["n_detailed"] == 2 and sum(task["detailed"] for task in data["tasks"]) == 2
    carried = next(task for task in data["tasks"] if task["detailed"])
    assert any("response" in reply for variant in carried["variants"] for replies in variant["replies"].values()
               for reply in replies)
    other = next(task for task in data["tasks"] if not task["detailed"])
    assert "variants" not in other and other["k"]  # its facets, not its replies
    page = browser_html(data)
    assert "carries the replies of 2 of 6" in page and "python -m stad_utils.report.view demo-run" in page
    assert "carries the replies of" not in browser_html(browser_data(run.root))


def test_report_drill_down_of_a_task_not_carried_says_where_to_read_it(run, chromium, tmp_path):
    path = tmp_path / "report.html"  # the browser as report.html embeds it, carrying one task's replies
    section = browser.browser_section(browser.browser_data(run.root, max_details=1))
    path.write_text(f"<html><body>{section}</body></html>", encoding="utf-8")
    page = chromium.new_page()
    page.goto(path.as_uri())
    page.wait_for_selector("tr.stad-task-row")
    opened = []
    for row in range(6):
        page.locator("tr.stad-task-row").nth(row).click()
        detail = page.locator(".stad-detail-row")
        detail.wait_for()
        opened.append("replies" if detail.locator(".stad-reply").count() else detail.inner_text())
        page.locator("tr.stad-task-row").nth(row).click()  # close it again
    page.close()
    assert opened.count("replies") == 1
    assert all("python -m stad_utils.report.view" in text for text in opened if text != "replies")


def test_viewer_serves_the_table_and_any_task_on_demand(run):
    with serving(run.root) as url:
        status, page = get(url)
        assert status == 200 and "stad-browser-tasks" in page and 'data-source="task/"' in page
        status, detail = get(url + "task/t3")
        assert status == 200 and "HTTP 500: internal server error" in detail and GRANITE in detail
        status, message = get(url + "task/no-such-task")
        assert status == 404 and "no-such-task" in message


def test_viewer_in_chromium_opens_a_task_and_shows_an_error_instead_of_nothing(run, chromium):
    with serving(run.root) as url:
        page = chromium.new_page()
        page.goto(url)
        page.wait_for_selector("tr.stad-task-row")
        assert page.locator(".stad-count").inner_text() == "6 of 6 tasks"
        page.fill("input[data-filter=text]", "ducks")
        page.click("tr.stad-task-row")
        page.wait_for_selector(".stad-detail-row .stad-reply")
        assert f"[{QWEN}] I added one too many" in page.locator(".stad-detail-row").inner_text()
        page.click("tr.stad-task-row")
        run.verdicts.write_text("not json\n")  # the records break while the viewer runs
        page.fill("input[data-filter=text]", "")
        page.locator("tr.stad-task-row").nth(1).click()
        page.wait_for_selector(".stad-detail-row")
        assert "could not be read" in page.locator(".stad-detail-row").inner_text()
        page.close()


def test_a_large_table_lists_the_first_rows_and_says_how_to_find_the_others(run, chromium, tmp_path):
    data = browser_data(run.root)
    many = [{**task, "id": f"{task['id']}-{copy}"} for copy in range(100) for task in data["tasks"]]  # 600 tasks
    path = tmp_path / "large.html"
    path.write_text(browser_html({**data, "tasks": many}), encoding="utf-8")
    page = chromium.new_page()
    page.goto(path.as_uri())
    page.wait_for_selector("tr.stad-task-row")
    assert page.locator("tr.stad-task-row").count() == 500
    assert page.locator(".stad-count").inner_text() == (
        "600 of 600 tasks (the first 500 listed: filter or search to find the others)")
    page.fill("input[data-filter=text]", "t1-99")
    assert page.locator("tr.stad-task-row").count() == 1  # the 600th task is found by searching
    page.close()
