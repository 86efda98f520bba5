"""Java's modified UTF-8 (DataOutput.writeUTF), which both Java wires speak: NUL as C0 80, and
a character beyond the BMP as its two UTF-16 surrogates, three bytes each."""

from __future__ import annotations

import re

#: a character beyond the BMP (Java writes it as two surrogates)
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def encode(text: str) -> bytes:
    """``text`` in modified UTF-8. Only the characters beyond the BMP are looked at one by
    one (a frame is mostly ASCII)."""
    if not text.isascii():
        text = _ASTRAL.sub(_surrogates, text)
    return text.encode("utf-8", "surrogatepass").replace(b"\x00", b"\xc0\x80")


def _surrogates(found: re.Match[str]) -> str:
    code = ord(found.group()) - 0x10000
    return chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))


def decode(data: bytes) -> str:
    """The inverse of :func:`encode` (plain UTF-8 is accepted too); UnicodeError when the
    bytes are neither, or hold a surrogate without its pair."""
    text = data.replace(b"\xc0\x80", b"\x00").decode("utf-8", "surrogatepass")
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        text = text.encode("utf-16-be", "surrogatepass").decode("utf-16-be")
    return text
