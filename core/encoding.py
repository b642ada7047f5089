"""The encodings of the files clubs exchange: Windows-1252 as the KNSB and the Windows
programs write, UTF-8 as a file saved again elsewhere may be."""

from __future__ import annotations

import unicodedata

WINDOWS = "cp1252"


def decode(data: bytes) -> str:
    """UTF-8 when the bytes are valid UTF-8 (Windows-1252 text with accents almost never
    is), else Windows-1252; raises UnicodeError for neither, or for UTF-16 (NUL bytes)."""
    if b"\x00" in data:
        raise UnicodeError("NUL bytes: UTF-16 or not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode(WINDOWS)


def to_windows(text: str) -> bytes:
    """Windows-1252, one byte a character, so fixed columns stay in place; a letter it has
    no room for loses its accent (`ő` is `o`), anything else is `?`."""
    out = []
    for char in text:
        try:
            out.append(char.encode(WINDOWS))
        except UnicodeEncodeError:
            plain = "".join(c for c in unicodedata.normalize("NFKD", char)
                            if not unicodedata.combining(c))
            out.append(plain.encode(WINDOWS, errors="replace")[:1] or b"?")
    return b"".join(out)
