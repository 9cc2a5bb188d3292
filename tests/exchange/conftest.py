import pytest

from stad_utils.records import open_run


@pytest.fixture
def example_run(tmp_path):
    """A copy of the saved example run (01–05), in a folder of its own."""
    return open_run(tmp_path / "example")
