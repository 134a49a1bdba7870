"""Vega-Lite pictures measured in a real browser (issue 24): each spec is drawn by vega-embed in
Debian's headless Chromium (SVG renderer), and the scenegraph Vega built there is read back:

- every text mark's box as the browser measured it (Vega measures text with the canvas's own font
  metrics when a canvas exists, as in Chromium), its font size, the row of data behind it;
- every line mark as a polyline in pixels, with the row of data of its first point (which arrow);
- every rectangle (the boxes under the texts) and the picture's size.

Boxes are in pixels of the whole picture (group offsets added up), y counting down.  The number of
SVG ``<text>`` elements is read too: a text Vega measured but did not draw would be caught.

Needs vega, vega-lite and vega-embed from npm in .venv/vega (the Makefile's $(VEGA), which ``make test``
builds).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
VEGA = REPO / ".venv" / "vega" / "node_modules"
SCRIPTS = ("vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js")
CHROMIUM = "/usr/bin/chromium"

#: Walks Vega's scenegraph: groups add their x/y to what they hold.
_READ = """async (spec) => {
  const host = document.getElementById('vis');
  host.innerHTML = '';
  const result = await vegaEmbed(host, spec, {renderer: 'svg', actions: false});
  const texts = [], lines = [], rects = [];
  const walk = (mark, ox, oy) => {
    for (const item of mark.items || []) {
      if (mark.marktype === 'group') {
        const x = ox + (item.x || 0), y = oy + (item.y || 0);
        for (const inner of item.items || []) walk(inner, x, y);
      } else if (mark.marktype === 'text' && item.text !== undefined && String(item.text).trim() !== '') {
        const b = item.bounds;
        texts.push({text: Array.isArray(item.text) ? item.text.join('\\n') : String(item.text),
                    font: item.fontSize, role: mark.role, datum: item.datum || {},
                    box: [ox + b.x1, oy + b.y1, ox + b.x2, oy + b.y2]});
      } else if (mark.marktype === 'rect' && item.x2 !== undefined) {
        rects.push([ox + item.x, oy + item.y, ox + item.x2, oy + item.y2]);
      }
    }
    if (mark.marktype === 'line' && (mark.items || []).length > 1) {
      lines.push({datum: mark.items[0].datum || {},
                  points: mark.items.map((p) => [ox + p.x, oy + p.y])});
    }
  };
  walk(result.view.scenegraph().root, 0, 0);
  const svg = host.querySelector('svg');
  return {texts, lines, rects, svg_texts: svg.querySelectorAll('text').length,
          width: svg.getBoundingClientRect().width, height: svg.getBoundingClientRect().height};
}"""


def available() -> str | None:
    """Why the measure cannot run here, or None when it can."""
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM}"
    missing = [s for s in SCRIPTS if not (VEGA / s).exists()]
    if missing:
        return f"vega not installed in {VEGA} ({', '.join(missing)}): make test installs it"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (make .venv/.installed-browser)"
    return None


def measure(specs: list[dict[str, Any]], out: Path, screenshots: bool = True) -> list[dict[str, Any]]:
    """Draw each spec in Chromium and read back its texts, lines and boxes (and a PNG of each in
    ``out``)."""
    from playwright.sync_api import sync_playwright

    scripts = "".join(f"<script src='{(VEGA / s).as_uri()}'></script>" for s in SCRIPTS)
    page_file = out / "vega.html"
    page_file.write_text(f"<!doctype html><html><meta charset='utf-8'>{scripts}"
                         "<body style='margin:0'><div id='vis'></div></body></html>", encoding="utf-8")
    found = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        for number, spec in enumerate(specs):
            found.append(page.evaluate(_READ, json.loads(json.dumps(spec))))
            if screenshots:
                page.locator("#vis").screenshot(path=str(out / f"vega-{number}.png"))
        browser.close()
    assert not errors, f"the page reported errors: {errors}"
    return found


# --- what is wrong in a measured picture -------------------------------------------------------------

Box = tuple[float, float, float, float]


def overlap(a: Box, b: Box, slack: float = 0.5) -> bool:
    """Whether two boxes share more than ``slack`` pixels each way."""
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def crosses(box: Box, points: list[list[float]], slack: float = 1.0) -> bool:
    """Whether a polyline passes through ``box`` (shrunk by ``slack``): a point inside, or a segment
    cutting one of its sides."""
    x0, y0, x1, y1 = box[0] + slack, box[1] + slack, box[2] - slack, box[3] - slack
    if x0 >= x1 or y0 >= y1:
        return False

    def inside(p: list[float]) -> bool:
        return x0 < p[0] < x1 and y0 < p[1] < y1

    def cut(p: list[float], q: list[float]) -> bool:  # Liang-Barsky: the segment's part inside the box
        t0, t1, dx, dy = 0.0, 1.0, q[0] - p[0], q[1] - p[1]
        for d, lo in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
            if d == 0:
                if lo < 0:
                    return False
            elif d < 0:
                t0 = max(t0, lo / d)
            else:
                t1 = min(t1, lo / d)
        return t0 < t1
    return any(inside(p) for p in points) or any(cut(p, q) for p, q in zip(points, points[1:], strict=False))


def owner(datum: dict[str, Any]) -> Any:
    """Which arrow a text or a line belongs to (a label carries its arrow's number)."""
    return datum.get("edge", datum.get("arrow"))


def problems(measured: dict[str, Any], smallest: float = 14.0) -> dict[str, list[Any]]:
    """Texts under ``smallest`` pixels, pairs of texts that cover each other, texts an arrow runs
    across (other than the arrow the text is the label of)."""
    texts = measured["texts"]
    small = [(t["text"], t["font"]) for t in texts if t["font"] < smallest]
    covered = [(a["text"], b["text"]) for i, a in enumerate(texts) for b in texts[i + 1:]
               if overlap(a["box"], b["box"])]
    over_edge = [(t["text"], owner(line["datum"])) for t in texts for line in measured["lines"]
                 if (owner(t["datum"]) is None or owner(t["datum"]) != owner(line["datum"]))
                 and crosses(t["box"], line["points"])]
    return {"small": small, "covered": covered, "over_edge": over_edge}
