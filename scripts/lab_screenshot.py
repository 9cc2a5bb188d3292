"""A screenshot of a committed notebook as JupyterLab shows it, for the README.

    python scripts/lab_screenshot.py stad_utils/notebooks/06_analyze.ipynb docs/figures/lab_06_analyze.png

Starts JupyterLab on loopback (no browser, no token, this project's environment), opens the
notebook in Debian's headless chromium through playwright, and saves the window twice: at the
notebook's top (OUT) and scrolled to its first output figure (OUT with ``_outputs`` before the
suffix). JupyterLab is stopped afterwards.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def jupyterlab(root: Path, environment: dict | None = None) -> Iterator[str]:
    """JupyterLab on loopback serving ``root`` without a token; yields its URL once it answers, stops it after."""
    port = free_port()
    lab = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
                            "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.ip=127.0.0.1",
                            f"--ServerApp.root_dir={root}"], env=environment, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}"
    finally:
        lab.terminate()
        lab.wait(timeout=30)


def main(notebook: str, out: str) -> None:
    from playwright.sync_api import sync_playwright

    with jupyterlab(Path.cwd()) as lab:
        url = f"{lab}/lab/tree/{notebook}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.wait_for_selector(".jp-Notebook .jp-OutputArea-output", timeout=60_000)
            page.wait_for_timeout(3000)  # let the outputs' images and fonts settle
            page.screenshot(path=out)
            page.locator(".jp-Notebook .jp-OutputArea-output img").first.scroll_into_view_if_needed()
            page.wait_for_timeout(1000)
            page.screenshot(path=str(Path(out).with_name(Path(out).stem + "_outputs.png")))
            browser.close()


if __name__ == "__main__":
    main(*sys.argv[1:3])
