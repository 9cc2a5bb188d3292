"""``results/<run>/manifest.json``: what is needed to tell later exactly how a run was made.

One entry per invocation of the runner (a run is often made by several: the chain, then a
stage again), each with the project's git commit (and whether the tree had uncommitted
changes), the versions of the packages that shape results, a hash of the resolved params,
every endpoint's served model ids and ``Server`` header (from its models listing), the seeds,
the stages asked for and completed, and the start and end times.
"""

from __future__ import annotations

import datetime
import hashlib
import importlib.metadata
import json
import platform
import subprocess
from pathlib import Path
from typing import Any

from ..records import read_json_or_rebuild, write_json_atomic

PACKAGES = ("stad-utils", "openai", "math-verify", "llama_cpp_python", "scikit-learn", "sentence-transformers",
            "torch", "numpy", "pandas", "scipy", "statsmodels", "papermill", "datasets", "vllm")
ROOT = Path(__file__).resolve().parents[2]


def now() -> str:
    """The time now in UTC, ISO 8601 to the second."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def package_versions(names: tuple[str, ...] = PACKAGES) -> dict[str, str | None]:
    """Installed version of each package, ``None`` when it is not installed."""
    versions: dict[str, str | None] = {}
    for name in names:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def git_state(root: Path = ROOT) -> dict[str, Any]:
    """The commit of the project checkout and whether it has uncommitted changes (``None`` outside git)."""
    def git(*arguments: str) -> str | None:
        try:
            return subprocess.run(["git", "-C", str(root), *arguments], capture_output=True, text=True,
                                  check=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no") if commit else None
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def params_hash(params: dict) -> str:
    """The SHA-256 of the parameters as sorted JSON: equal parameters, equal hash."""
    return hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode()).hexdigest()


def seeds(node: Any, where: str = "") -> dict[str, Any]:
    """Every ``seed`` value in the params, by its dotted location."""
    found = {}
    if isinstance(node, dict):
        for key, value in node.items():
            location = f"{where}.{key}" if where else str(key)
            if key == "seed":
                found[location] = value
            else:
                found.update(seeds(value, location))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            found.update(seeds(item, f"{where}[{index}]"))
    return found


def start_manifest(path: Path, params: dict, endpoints: dict[str, Any], stages: list[str]) -> dict:
    """Record this invocation of the runner (earlier invocations of the same run are kept)."""
    manifest = read_json_or_rebuild(path, lambda: {"run": params["run"], "invocations": []}, valid=_is_manifest)
    manifest["invocations"].append({
        "stages": stages, "started": now(), "finished": None, "completed": [], "git": git_state(),
        "python": platform.python_version(), "platform": platform.platform(), "packages": package_versions(),
        "params_sha256": params_hash(params), "seeds": seeds(params.get("stages") or {}), "endpoints": endpoints,
    })
    write_json_atomic(path, manifest)
    return manifest


def stage_finished(path: Path, stage: str, *, last: bool) -> None:
    """Note a completed stage of the current invocation (and its end time after the last one)."""
    manifest = json.loads(path.read_text())  # written by this invocation a moment ago, atomically
    invocation = manifest["invocations"][-1]
    invocation["completed"].append(stage)
    if last:
        invocation["finished"] = now()
    write_json_atomic(path, manifest)


def _is_manifest(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("invocations"), list)
