"""Headless Chromium for the report checks (issue 37: every page loads in a real browser, every
image and link resolves, no console errors). Debian's chromium and chromium-driver, driven by
selenium; `.ci/run` installs them. Off CI a machine without them skips the check; on CI (CI set)
their absence fails it, so the check cannot pass unrun."""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# The flags a root, offline, headless run needs (no sandbox as root; nothing fetched in the background).
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1200,1600")


def browser_missing() -> str:
    """Why the browser check cannot run here ('' when it can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.exists(path) or shutil.which(os.path.basename(path))):
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    return ""


@contextmanager
def chromium():
    """A headless Chromium session that keeps the pages' console messages."""
    missing = browser_missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the browser check must run on CI: {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


BROKEN_IMAGES = "return [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
LINKS = "return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))"
