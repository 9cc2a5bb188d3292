"""A STaD sample in Inspect's log viewer: the saved example run exported, bundled offline, shot in headless Chromium.

    python scripts/inspect_view_screenshot.py                      # writes docs/figures/inspect_view_sample.png

Exports the saved example run (`stad_utils/example_run/`, with the quickstart's target settings) as
Inspect logs (`stad_utils.exchange.export_inspect_logs`), bundles them with ``inspect view bundle``
into a static site, serves it on loopback and opens one sample in Debian's chromium through
playwright: by default the scaffold-2 question of the task docs/method.md walks through
(``gen0-0009``, k = 2) as the simulated target that fails to chain answered it. Every request the
page makes is recorded and printed by host; one to any host but the loopback server is an error.
Needs the ``inspect`` extra and ``playwright`` (``pip install -e '.[dev,inspect]'``).
"""

from __future__ import annotations

import argparse
import functools
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, urlparse

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MODEL = "simulated: weak chaining"
SAMPLE = "gen0-0009-scaffold-2"


def bundle(work: Path) -> tuple[Path, dict[str, Path]]:
    """The example run exported into ``work/logs`` and bundled into ``work/bundle``: the bundle, each log by model."""
    from inspect_ai.log import read_eval_log

    from stad_utils.exchange import export_inspect_logs
    from stad_utils.records import open_run

    run = open_run(work / "example")
    logs = export_inspect_logs(run, work / "logs", params=ROOT / "params" / "quickstart.yaml")
    inspect = Path(sys.executable).with_name("inspect")
    subprocess.run([str(inspect), "view", "bundle", "--log-dir", str(work / "logs"), "--output-dir",
                    str(work / "bundle"), "--overwrite"], check=True, capture_output=True, text=True)
    return work / "bundle", {read_eval_log(str(path), header_only=True).eval.model: path for path in logs}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the page's requests are recorded in the browser
        pass


def shoot(site: Path, log: Path, sample: str, out: Path) -> tuple[list[str], str]:
    """Open ``sample`` (epoch 1) of ``log`` in the bundled ``site`` and screenshot it to ``out``.

    Returns the page's requests and the text it showed.
    """
    from playwright.sync_api import sync_playwright

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    requests: list[str] = []
    try:
        with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile, sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                profile, executable_path=shutil.which("chromium"), headless=True, args=CHROMIUM_ARGS,
                viewport={"width": 1400, "height": 740})
            browser.on("request", lambda request: requests.append(request.url))
            page = browser.new_page()
            page.goto(f"{base}#/logs/{quote(log.name)}/samples/sample/{quote(sample)}/1/", wait_until="networkidle")
            page.get_by_text(sample).first.wait_for(timeout=60_000)
            page.get_by_text("Scoring", exact=True).first.click()  # the verdict: outcome, deciding stage, k
            page.get_by_text("decided_by").first.wait_for(timeout=60_000)
            page.wait_for_timeout(1000)  # the last paint
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
            shown = page.inner_text("body")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return requests, shown


def hosts(requests: list[str]) -> list[str]:
    """The hosts the page asked, in order of first request."""
    return list(dict.fromkeys(urlparse(url).netloc or urlparse(url).scheme for url in requests))


def main(argv: list[str] | None = None) -> int:
    """Export, bundle and shoot; 1 if the page asked another host."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures" / "inspect_view_sample.png")
    parser.add_argument("--model", default=MODEL, help=f"the target whose log is opened (default: {MODEL!r})")
    parser.add_argument("--sample", default=SAMPLE, help=f"the sample id (default: {SAMPLE})")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="inspect-view-") as work:
        site, logs = bundle(Path(work))
        requests, _ = shoot(site, logs[args.model], args.sample, args.out)
    seen = hosts(requests)
    print(f"{args.out}: {len(requests)} requests, to {', '.join(seen)}")
    if any(not host.startswith("127.0.0.1") for host in seen):
        print(f"the page asked another host: {seen}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
