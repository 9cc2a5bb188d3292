import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(Path(__file__).parent))  # for scripted_server


def pytest_sessionstart(session):
    # nbval runs the committed notebooks on their default parameters, which write here;
    # start from nothing so that stale records of an older run cannot leak into the outputs.
    for run in ("notebook-defaults", "example"):  # 06 and 07 fill "example" from the saved run again
        shutil.rmtree(ROOT / "results" / run, ignore_errors=True)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(f"the benchmark data folder {SHARED_DATA} is missing (../shared beside the project)")
    return SHARED_DATA
