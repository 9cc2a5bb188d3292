import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(Path(__file__).parent))  # for scripted_server and the helper modules

from helpers import CHROMIUM_ARGS, chromium_path  # noqa: E402


def pytest_sessionstart(session):
    # nbval runs the committed notebooks on their default parameters, which write into results/ beside them;
    # start from nothing so that stale records of an older run cannot leak into the outputs
    # (06 and 07 fill "example" from the saved run again).
    shutil.rmtree(ROOT / "stad_utils" / "notebooks" / "results", ignore_errors=True)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(f"the benchmark data folder {SHARED_DATA} is missing (../shared beside the project)")
    return SHARED_DATA


# ---------------------------------------------------------------- headless Chromium, for the page tests

@pytest.fixture(scope="module")
def chromium():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the page tests need the pip package playwright: `pip install -e .[dev]` "
                    "(never `playwright install`: it drives Debian's chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
