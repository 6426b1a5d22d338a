"""A headless Chromium for the session, driven by Playwright, or a skip that says how to get it.

The browser is Debian's `chromium` (Playwright's own download is not used): set
`JSONDRIP_CHROMIUM` to another executable if it lives elsewhere.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import missing, need_module

INSTALL_HINT = (
    "the browser tests need Chromium and Playwright: apt-get install -y chromium "
    "chromium-driver && pip install playwright (no `playwright install`: the system Chromium "
    "is used; set JSONDRIP_CHROMIUM to its path if it is not on PATH). .ci/install-browser "
    "does it"
)


def chromium_path() -> str | None:
    """The Chromium executable: $JSONDRIP_CHROMIUM, else chromium on PATH."""
    configured = os.environ.get("JSONDRIP_CHROMIUM")
    if configured:
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(name="browser", scope="session")
def browser_fixture() -> Iterator[Any]:
    """One headless Chromium (one context of it) for every browser test of the session."""
    # Playwright has no wheels for some interpreters (PyPy): a plain skip there, a failure
    # under JSONDRIP_NO_SKIP=1 where the test extra installs it.
    need_module("playwright")
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        missing(INSTALL_HINT)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=path, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        context = chromium.new_context(viewport={"width": 1280, "height": 800})
        try:
            yield context
        finally:
            chromium.close()


@pytest.fixture(name="tab")
def tab_fixture(browser: Any) -> Iterator[Any]:
    """A fresh page: a new document, so no state is shared with the previous test."""
    fresh = browser.new_page()
    try:
        yield fresh
    finally:
        fresh.close()
