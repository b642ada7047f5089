"""The encodings of the files clubs exchange: Windows-1252 as the KNSB and the Windows
programs write, UTF-8 as a file saved again elsewhere may be."""

from __future__ import annotations

WINDOWS = "cp1252"
UTF8 = "utf-8"


def decode(data: bytes) -> str:
    """UTF-8 when the bytes are valid UTF-8 (Windows-1252 text with accents almost never
    is), else Windows-1252; raises UnicodeError for neither, or for UTF-16 (NUL bytes)."""
    if b"\x00" in data:
        raise UnicodeError("NUL bytes: UTF-16 or not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode(WINDOWS)


def fit(text: str, charset: str) -> str:
    """`text` as `charset` can hold it: a character it lacks is written in Latin letters
    (`Ł` is `L`, `Ζωή` is `Zoi`: anyascii, letter by letter), never as `?`."""
    out = []
    for char in text:
        try:
            char.encode(charset)
            out.append(char)
        except UnicodeEncodeError:
            from anyascii import anyascii  # only for a character the charset lacks

            out.append(anyascii(char))
    return "".join(out)
