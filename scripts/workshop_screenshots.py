"""Screenshots of what a workshop projects at 1024 px, for the lecturer's guide (docs/workshop.md).

    make workshop      # writes results/workshop/report.html
    python scripts/workshop_screenshots.py results/workshop/report.html docs/figures/workshop

Writes into OUT ``report_1024_top.png`` (the front page of the run's report.html; the other two shots of
`report_screenshots.py` come along) and ``figure_<n>.png``: each figure of the workshop notebook's
instructor copy, as JupyterLab shows it in a 1024 × 768 window with the file browser closed. Debian's
chromium through playwright; JupyterLab on loopback in a Jupyter home of its own, stopped afterwards.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from lab_screenshot import jupyterlab
from report_screenshots import shoot

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "stad_utils/notebooks/09_workshop.ipynb"
WIDTH, HEIGHT = 1024, 768
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def lab_figures(out: Path, browser) -> list[Path]:
    """Each figure output of the instructor copy, scrolled into a 1024 × 768 JupyterLab window."""
    home = Path(tempfile.mkdtemp(prefix="lab-home-"))
    environment = {**os.environ, **{f"JUPYTER_{part}_DIR": str(home / part.lower())
                                    for part in ("CONFIG", "RUNTIME", "DATA")}}
    news = home / "config" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)  # no "Would you like to get notified about Jupyter news?" over the figures
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    shots = []
    with jupyterlab(ROOT, environment) as lab:
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        page.goto(f"{lab}/lab/tree/{NOTEBOOK}?reset")
        page.wait_for_selector(".jp-Notebook .jp-OutputArea-output img", timeout=120_000)
        page.keyboard.press("Control+b")  # close the file browser: the notebook gets the window's width
        page.wait_for_timeout(3000)  # let images and fonts settle
        figures = page.locator(".jp-Notebook .jp-OutputArea-output img")
        for index in range(figures.count()):
            figures.nth(index).scroll_into_view_if_needed()
            page.evaluate("(image) => image.scrollIntoView({block: 'center'})", figures.nth(index).element_handle())
            page.wait_for_timeout(500)
            shots.append(out / f"figure_{index + 1}.png")
            page.screenshot(path=str(shots[-1]))
        page.close()
    return shots


def main(report: str, out: str) -> None:
    """Shoot the front page of ``report`` and every figure of the workshop notebook into ``out``."""
    from playwright.sync_api import sync_playwright

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("figure_*.png"):  # the notebook may show fewer figures than last time
        old.unlink()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        written = shoot(Path(report), folder, WIDTH, browser) + lab_figures(folder, browser)
        browser.close()
    for path in written:
        print(path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(*sys.argv[1:3])
