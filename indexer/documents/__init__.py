"""Teams' own documents, from bytes to located text: one converter a format, then chunks.

This package imports nothing from `kb/` (the layers point one way); its one error, `Unreadable`, is
turned into kb's BadInput by `kb/documents`.
"""
