"""Build the workshop's slides from their jupytext source, with nbconvert's reveal.js exporter, offline.

    python scripts/build_slides.py workshop/slides/workshop.py      # → workshop/slides/workshop.slides.html

The page is written beside its source, where ``vendor/reveal.js`` (reveal.js 4.0.2 from npm, the
version nbconvert's template is written for) already sits, so it opens from the file system, or
from any static server, in a room without internet. Images are embedded in the page; their paths
start at the repository's root (``docs/figures/method.png``). The template
``offline.html.j2`` beside the source loads nothing else (see its header). Nothing is executed: the
slides are markdown, and the figures they show are the committed screenshots in docs/figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

VENDOR = "vendor/reveal.js"
ROOT = Path(__file__).resolve().parents[1]
"""The folder the slides' image paths start from (nbconvert embeds only images below it): the repository."""


def build(source: Path) -> Path:
    """Write ``<source stem>.slides.html`` beside ``source`` and return its path."""
    import jupytext
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    config = Config()
    config.SlidesExporter.reveal_url_prefix = VENDOR
    config.SlidesExporter.reveal_theme = "white"  # the themes but white and black import Google's fonts
    config.SlidesExporter.template_file = str(source.with_name("offline.html.j2"))
    config.HTMLExporter.embed_images = True
    config.TemplateExporter.exclude_input_prompt = True
    exporter = SlidesExporter(config=config)
    page, _ = exporter.from_notebook_node(jupytext.read(source),
                                          resources={"metadata": {"path": str(ROOT), "name": source.stem}})
    if not (source.parent / VENDOR / "dist" / "reveal.js").is_file():
        raise FileNotFoundError(f"{source.parent / VENDOR} is missing: the page would load nothing")
    out = source.with_name(f"{source.stem}.slides.html")
    out.write_text(page, encoding="utf-8")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    print(build(Path(sys.argv[1]).resolve()))
