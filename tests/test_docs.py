"""The documentation site builds strictly and offline, and loads nothing from outside (how CI checks the docs).

`mkdocs build --strict` fails on a broken link or anchor, a page missing from the nav or a nav entry
without a page, and a notebook that does not render; any warning fails the test as well.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from check_site import outside_resources  # noqa: E402

pytestmark = pytest.mark.docs
NOTEBOOKS = sorted(path.stem for path in (ROOT / "stad_utils" / "notebooks").glob("0*.ipynb"))
HISTORY = re.compile(r"previous main|this round|issue [0-9]|\.\./shared|worktree", re.I)


def build(config: Path, site: Path, cwd: Path) -> subprocess.CompletedProcess:
    missing = [name for name in ("mkdocs", "material", "mkdocs_jupyter") if importlib.util.find_spec(name) is None]
    if missing:  # fail, not skip: this test is how CI checks the docs
        pytest.fail(f"the docs tools are missing ({', '.join(missing)}): pip install -e '.[docs]'")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("docs")
    result = build(ROOT / "mkdocs.yml", out / "site", cwd=out)
    log = result.stdout + result.stderr
    assert result.returncode == 0, log
    assert "WARNING" not in log, log
    return out / "site"


def test_every_page_and_notebook_is_built(site):
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    pages = re.findall(r"[\w/.-]+\.(?:md|ipynb)", str(nav))
    for page in pages:
        assert (site / re.sub(r"\.(md|ipynb)$", ".html", page)).is_file(), page
    assert {f"notebooks/{name}.ipynb" for name in NOTEBOOKS} <= set(pages)  # every stage notebook is in the nav
    for name in NOTEBOOKS:
        page = (site / "notebooks" / f"{name}.html").read_text()
        assert "jp-Cell" in page and "jp-OutputArea" in page or name == "05_evaluate", name  # cells and outputs
    method = (site / "method.html").read_text()
    assert 'src="figures/method.png"' in method and (site / "figures" / "method.png").is_file()


def test_the_built_site_loads_nothing_from_outside(site):
    assert outside_resources(site) == {}
    assert "fonts.googleapis" not in (site / "index.html").read_text()


def test_the_pages_tell_no_development_history():
    for page in sorted((ROOT / "docs").glob("*.md")):
        found = HISTORY.findall(page.read_text())
        assert not found, f"{page.name}: {found}"


def test_a_broken_link_fails_the_build(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs, symlinks=False)
    with (docs / "method.md").open("a") as page:
        page.write("\nSee [a page that does not exist](nowhere.md).\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: {docs}\nhooks: [{ROOT / 'scripts' / 'mkdocs_hooks.py'}]\n")
    result = build(config, tmp_path / "site", cwd=tmp_path)
    assert result.returncode != 0 and "nowhere.md" in result.stdout + result.stderr
