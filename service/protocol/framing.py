"""Framers turn a byte stream into frames (and frames back into bytes); no I/O here.

A framer never raises into the transport: bad input comes out as a
:class:`FrameError` item among the frames, and the transport decides whether to
answer it or to close.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class FrameError:
    """Something in the stream that is not a valid frame."""

    code: str
    message: str


class Framer(Protocol):
    def feed(self, data: bytes) -> list[str | FrameError]: ...

    def encode(self, frame: str) -> bytes: ...


class LineFramer:
    """UTF-8 text, one frame per line (``\\n``; a trailing ``\\r`` is dropped).

    A line longer than ``max_line`` bytes is reported once as ``frame_too_long``
    and skipped up to its end, so the connection can go on.
    """

    def __init__(self, max_line: int = 4096) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[str | FrameError]:
        out: list[str | FrameError] = []
        self._buffer += data
        while True:
            newline = self._buffer.find(b"\n")
            if newline < 0:
                self._check_overflow(out)
                return out
            raw = bytes(self._buffer[:newline])
            del self._buffer[: newline + 1]
            if self._skipping:
                self._skipping = False
                continue
            out.append(self._decode(raw))

    def _check_overflow(self, out: list[str | FrameError]) -> None:
        excess = len(self._buffer) - self.max_line
        if excess > 1 or (excess == 1 and not self._buffer.endswith(b"\r")):  # a CR may end a CRLF
            self._buffer.clear()
            if not self._skipping:
                self._skipping = True
                out.append(self._too_long())

    def _too_long(self) -> FrameError:
        return FrameError("protocol/frame_too_long", f"a line may hold at most {self.max_line} bytes")

    def _decode(self, raw: bytes) -> str | FrameError:
        if raw.endswith(b"\r"):  # part of a CRLF terminator, not of the line
            raw = raw[:-1]
        if len(raw) > self.max_line:
            return self._too_long()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return FrameError("protocol/bad_encoding", "a line must be valid UTF-8")

    def encode(self, frame: str) -> bytes:
        return frame.encode("utf-8") + b"\n"
