"""Just enough PNG (8-bit RGB/RGBA, not interlaced: what Chromium writes) to tell a real render from a blank
one, and to shrink the README's screenshot, without an imaging library."""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from pathlib import Path


def _unfilter(raw: bytes, width: int, height: int, bpp: int) -> list[bytes]:
    stride, rows, prev = width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        prev = line
    return rows


def read_rows(path: Path) -> tuple[int, int, int, list[bytes]]:
    """(width, height, bytes a pixel, unfiltered rows) of an 8-bit RGB or RGBA PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert header is not None
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {header}"
    bpp = 3 if colour == 2 else 4
    return width, height, bpp, _unfilter(zlib.decompress(idat), width, height, bpp)


def write_rows(path: Path, width: int, height: int, bpp: int, rows: list[bytes]) -> None:
    """An 8-bit RGB/RGBA PNG, every row with the Up filter (good for flat UI pictures), at zlib level 9."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    prev, raw = bytes(width * bpp), bytearray()
    for row in rows:
        raw.append(2)
        raw += bytes((a - b) & 0xFF for a, b in zip(row, prev, strict=True))
        prev = row
    header = struct.pack(">IIBBBBB", width, height, 8, 2 if bpp == 3 else 6, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
                     + chunk(b"IEND", b""))


def colour_census(path: Path) -> tuple[int, int, Counter[bytes]]:
    """(width, height, how many pixels of each RGB colour)."""
    width, height, bpp, rows = read_rows(path)
    census: Counter[bytes] = Counter()
    for row in rows:
        census.update(row[i:i + 3] for i in range(0, len(row), bpp))
    return width, height, census
