"""A run in Inspect's viewer: bundled offline by ``inspect view bundle``, one STaD sample opened in headless Chromium,
and nothing asked of any host but the loopback server (the script that draws docs/figures/inspect_view_sample.png)."""

import importlib.util

from helpers import ROOT, chromium_path

SCRIPT = ROOT / "scripts" / "inspect_view_screenshot.py"
spec = importlib.util.spec_from_file_location("inspect_view_screenshot", SCRIPT)
screenshot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(screenshot)


def test_a_bundled_run_shows_a_sample_with_its_variant_and_k_asking_only_the_loopback_server(tmp_path):
    chromium_path()  # a missing chromium fails naming the package that provides it
    site, logs = screenshot.bundle(tmp_path)
    assert (site / "index.html").exists() and len(logs) == 4
    assert {path.name for path in (site / "logs").glob("*.eval")} == {path.name for path in logs.values()}
    requests, shown = screenshot.shoot(site, logs[screenshot.MODEL], screenshot.SAMPLE, tmp_path / "sample.png")
    assert (tmp_path / "sample.png").stat().st_size > 10_000
    assert screenshot.SAMPLE in shown and "stad_k" in shown.lower() and "simulated: weak chaining" in shown
    assert len(requests) > 5 and screenshot.hosts(requests) == [requests[0].split("/")[2]]
    assert requests[0].startswith("http://127.0.0.1:")
