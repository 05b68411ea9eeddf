"""The web page at GET / and its static files, served by kb itself: no CDN, no fonts from elsewhere.

`static/` holds the page (plain HTML, CSS and ES modules, no build step); `headers.py` the security headers.
"""

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
