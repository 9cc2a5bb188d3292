"""Does a built docs site load anything from outside? Lists every resource a page would fetch from another host.

    python scripts/check_site.py site/          # exit 1, listing page: tag attribute=URL, if any

Links a reader may click (``<a href>``) are fine; what a browser fetches by itself is not:
``src`` of scripts, images, frames and media, ``href`` of ``<link>`` (stylesheets, icons,
preloads), ``url(…)`` and ``@import`` in styles, and ``import("…")`` in inline scripts.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

OUTSIDE = re.compile(r"^\s*(?:https?:)?//", re.I)
FETCHED = {"script": "src", "img": "src", "iframe": "src", "source": "src", "video": "src", "audio": "src",
           "embed": "src", "track": "src", "object": "data", "link": "href"}
IN_TEXT = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"]|import\(\s*['"])((?:https?:)?//[^'")\s]+)""", re.I)


class _Resources(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in = None

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        wanted = FETCHED.get(tag)
        if wanted and values.get(wanted) and OUTSIDE.match(values[wanted]):
            self.found.append(f"<{tag} {wanted}={values[wanted]}>")
        if tag == "img" and values.get("srcset") and "//" in values["srcset"]:
            self.found.append(f"<img srcset={values['srcset']}>")
        if "style" in values:
            self.found += [f"style url {url}" for url in IN_TEXT.findall(values["style"] or "")]
        self._in = tag if tag in ("script", "style") else None

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in in ("script", "style"):
            self.found += [f"<{self._in}> fetches {url}" for url in IN_TEXT.findall(data)]


def outside_resources(site: Path) -> dict[str, list[str]]:
    """Per HTML or CSS file of ``site`` (relative path), the outside resources it would fetch."""
    problems = {}
    for path in sorted(site.rglob("*")):
        if path.suffix == ".html":
            parser = _Resources()
            parser.feed(path.read_text(encoding="utf-8", errors="replace"))
            found = parser.found
        elif path.suffix == ".css":
            found = [f"css fetches {url}" for url in IN_TEXT.findall(path.read_text(encoding="utf-8", errors="replace"))]
        else:
            continue
        if found:
            problems[str(path.relative_to(site))] = found
    return problems


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python scripts/check_site.py SITE_DIR")
    problems = outside_resources(Path(sys.argv[1]))
    for page, found in problems.items():
        for item in found:
            print(f"{page}: {item}")
    sys.exit(1 if problems else 0)
