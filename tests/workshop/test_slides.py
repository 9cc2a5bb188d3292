"""The workshop's slides build offline and are legible on a 1024 × 768 projector (how CI checks them)."""

from __future__ import annotations

import re
import sys

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from build_slides import build  # noqa: E402

SOURCE = ROOT / "workshop" / "slides" / "workshop.py"
SMALLEST_PX = 24
"""The smallest text on a slide, in pixels of the 1024 px projector: read from the back of a room."""

MEASURE = """() => {
  const slide = Reveal.getCurrentSlide(), scale = Reveal.getScale();
  const small = [], outside = [];
  const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim(), element = walker.currentNode.parentElement;
    if (!text || !element.offsetParent || element.closest("aside.notes")) continue;
    const size = parseFloat(getComputedStyle(element).fontSize) * scale;
    if (size < %d) small.push([text.slice(0, 40), Math.round(size)]);
  }
  for (const element of slide.querySelectorAll("p, li, h1, h2, img, pre")) {
    const box = element.getBoundingClientRect();
    if (box.width && (box.left < 0 || box.right > innerWidth + 1 || box.bottom > innerHeight + 1))
      outside.push(element.tagName + ": " + (element.textContent || element.alt || "").trim().slice(0, 40));
  }
  return {small, outside, title: (slide.querySelector("h1, h2") || {}).textContent};
}""" % SMALLEST_PX


@pytest.fixture(scope="module")
def deck():
    return build(SOURCE)


def test_the_slides_load_nothing_from_another_host(deck):
    page = deck.read_text(encoding="utf-8")
    loaded = re.findall(r'<(?:script|link|img)[^>]*\b(?:src|href)="([^"]+)"', page)
    assert loaded and all(url.startswith(("vendor/", "data:", "#")) for url in loaded), loaded
    assert all((deck.parent / url).is_file() for url in loaded if url.startswith("vendor/"))


def test_every_slide_is_legible_at_1024_px(deck, chromium):
    page = chromium.new_page(viewport={"width": 1024, "height": 768})
    tried = []
    page.route(re.compile(r"^https?://"), lambda route: (tried.append(route.request.url), route.abort()))
    page.goto(deck.as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady()")
    slides = page.evaluate("() => Reveal.getSlides().map(s => Reveal.getIndices(s))")
    assert len(slides) >= 15
    problems = {}
    for index in slides:
        page.evaluate(f"() => Reveal.slide({index['h']}, {index.get('v') or 0})")
        page.wait_for_timeout(100)
        found = page.evaluate(MEASURE)
        if found["small"] or found["outside"]:
            problems[found["title"]] = found
    page.close()
    assert not problems, problems
    assert not tried
