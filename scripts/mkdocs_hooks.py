"""MkDocs hooks (mkdocs.yml `hooks:`): the built site loads nothing from outside.

nbconvert's page template, which mkdocs-jupyter renders the notebooks with, carries a MathJax
loader (an empty ``<script src="">`` here, as no MathJax URL is set) and a module script that
imports mermaid from cdnjs when a notebook holds a mermaid diagram. The notebooks hold neither
formulas nor diagrams, so both are removed from the notebook pages; `scripts/check_site.py`
fails the build's test on any outside resource that is left.
"""

from __future__ import annotations

import re

_EMPTY_SCRIPT = re.compile(r'<script src="">\s*</script>')
_OUTSIDE_MODULE = re.compile(r'<script type="module">(?:(?!</script>).)*?https?://(?:(?!</script>).)*?</script>', re.S)


def on_post_page(output: str, page, config) -> str:
    if not page.file.src_path.endswith(".ipynb"):
        return output
    return _OUTSIDE_MODULE.sub("", _EMPTY_SCRIPT.sub("", output))
