"""Regenerate the README's screenshot of the web page (docs/screenshot.png): kb's page in headless Chromium,
one question asked, cropped to the answer and its first fit-check chart.

    .venv/bin/python scripts/web_screenshot.py [OUT.png]

Uses the index in KB_INDEX_DIR (default .kb-index), building it first if it is missing or stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kb.engine import Engine  # noqa: E402
from kb.settings import get_settings  # noqa: E402
from service.app import create_app  # noqa: E402
from service.web.browser import launch  # noqa: E402
from tests.support.png import read_rows, write_rows  # noqa: E402
from tests.support.servers import LiveServer  # noqa: E402

QUESTION = "能用一张4090 QLoRA微调13B模型吗？"
LIMIT = 150_000  # bytes: the README's picture stays small in git


def posterize(path: Path) -> None:
    """16 levels a channel (the nearest multiple of 17): invisible on a page of flat colours and text, a third
    smaller in git."""
    width, height, bpp, rows = read_rows(path)
    table = bytes(min(255, round(v / 17) * 17) for v in range(256))
    write_rows(path, width, height, bpp, [row.translate(table) for row in rows])


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshot.png"
    settings = get_settings()
    engine = Engine.open(settings, build_if_needed=True)
    with LiveServer(create_app(settings, engine)) as server, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1040, "height": 800}, locale="zh-CN")
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        page.fill("#question", QUESTION)
        page.press("#question", "Enter")
        page.wait_for_selector("#answer[data-answers='1'] #fit-1")
        page.evaluate("document.activeElement.blur()")
        box = page.locator("#fit-1").bounding_box()
        out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out), full_page=True,
                        clip={"x": 0, "y": 0, "width": 1040, "height": box["y"] + box["height"] + 16})
        browser.close()
    posterize(out)
    size = out.stat().st_size
    print(f"{out}: {size} bytes")
    if size > LIMIT:
        raise SystemExit(f"{out} is over {LIMIT} bytes")


if __name__ == "__main__":
    main()
