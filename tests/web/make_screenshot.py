"""Take docs/web-preview.png: `jsondrip preview --web` on the bundled demo, mid-stream.

    python tests/web/make_screenshot.py [--at SECONDS]

Replays the demo at a model's pace (speed 1) in headless Chromium and shoots the page `--at`
seconds after it opened (default 4.2: two calls complete, the file's content drawn as text,
the third call streaming). The demo's text is Chinese: the machine needs a CJK font (Debian's
fonts-noto-cjk, or any .ttc/.otf given to Chromium's fontconfig through FONTCONFIG_FILE).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

from _browser import INSTALL_HINT, chromium_path

from jsondrip.cli.source import open_demo
from jsondrip.cli.web_cmd import serve

OUT = Path(__file__).resolve().parents[2] / "docs" / "web-preview.png"


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--at", type=float, default=4.2)
    args = options.parse_args()
    from playwright.sync_api import sync_playwright

    if chromium_path() is None:
        sys.exit(INSTALL_HINT)
    server = serve(open_demo(), speed=1.0)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium_path(), args=["--no-sandbox"]
            )
            page = browser.new_page(viewport={"width": 1280, "height": 880})
            page.goto(server.url)
            time.sleep(args.at)
            page.screenshot(path=str(OUT))
            ended = page.evaluate("() => window.jsondripPage.ended")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"{OUT} ({'after the end: use a smaller --at' if ended else 'mid-stream'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
