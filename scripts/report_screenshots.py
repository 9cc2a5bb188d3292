"""Screenshots of a run's report.html in headless Chromium, as the README shows them.

    python scripts/report_screenshots.py results/quickstart/report.html docs/figures

Writes, for each window width (1,400 and 1,024 px), ``report_<width>_top.png`` (the first screen),
``report_<width>_front.png`` (the whole front page: every model's sentence and figures),
``report_<width>_figures.png`` (the first figures of the analysis) and ``report_<width>_browser.png``
(the failure browser with its first task opened). Uses Debian's chromium through playwright, as
tests/test_browser.py; every request to a host is refused, and printed if any was tried.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

WIDTHS = (1400, 1024)
HEIGHT = 900


def shoot(report: Path, out: Path, width: int, browser) -> list[Path]:
    page = browser.new_page(viewport={"width": width, "height": HEIGHT})
    tried: list[str] = []
    page.route(re.compile(r"^https?://"), lambda route: (tried.append(route.request.url), route.abort()))
    page.goto(report.resolve().as_uri())
    page.wait_for_selector(".stad-browser tr.stad-task-row")
    shots = [out / f"report_{width}_{name}.png" for name in ("top", "front", "figures", "browser")]
    page.screenshot(path=str(shots[0]))
    page.locator("#front").screenshot(path=str(shots[1]))
    page.locator(".stad-notebooks img").first.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -60)")
    page.screenshot(path=str(shots[2]))
    page.locator("tr.stad-task-row").first.click()
    detail = page.locator(".stad-detail-row")
    detail.wait_for()
    page.locator(".stad-browser h2").scroll_into_view_if_needed()
    page.evaluate("document.querySelector('#stad-browser').scrollIntoView()")
    page.screenshot(path=str(shots[3]))
    page.close()
    if tried:
        print(f"{width} px: the page tried to load {tried}", file=sys.stderr)
    return shots


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                             args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                                                   "--disable-background-networking", "--disable-component-update",
                                                   "--disable-sync"])
        for width in WIDTHS:
            for path in shoot(args.report, args.out, width, browser):
                print(path)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
