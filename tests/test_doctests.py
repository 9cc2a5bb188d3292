"""The examples in every docstring of the package hold: each module's doctests run with the test suite."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import stad_utils

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(stad_utils.__path__, "stad_utils.")
                 if not name.endswith("__main__"))  # a __main__ module runs its command when imported


def test_the_package_has_modules_with_examples():
    """A guard against a finder that silently finds nothing (every module would then pass)."""
    with_examples = [name for name in MODULES
                     if any(test.examples for test in doctest.DocTestFinder().find(importlib.import_module(name)))]
    assert len(with_examples) >= 20, with_examples


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_its_docstrings_hold(name, capsys):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0, capsys.readouterr().out
