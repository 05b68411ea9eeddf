"""Headless Chromium for the page's tests, benchmark and README screenshot: Debian's /usr/bin/chromium driven
by Playwright (which never downloads a browser of its own here), with no way out of the machine.

Needs the dev extra (playwright) and Debian's chromium (`scripts/setup.sh dev` installs both).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# As root Chromium needs --no-sandbox; the background-networking flags stop its own calls home, and the
# resolver rule makes any host but loopback unresolvable, so a stray request fails instead of leaving.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
         "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]


def chromium_path() -> Path:
    """Debian's Chromium, or an error that says how to get it."""
    found = CHROMIUM if CHROMIUM.exists() else Path(shutil.which("chromium") or CHROMIUM)
    if not found.exists():
        raise RuntimeError("Debian's chromium is not installed: run scripts/setup.sh dev as root "
                           "(or apt-get install chromium chromium-driver)")
    return found


def launch(playwright: Any) -> Any:
    """A headless Chromium browser (Playwright gives each launch a fresh, empty user-data-dir)."""
    return playwright.chromium.launch(executable_path=str(chromium_path()), headless=True, args=FLAGS)
