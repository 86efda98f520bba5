"""The writing half of :mod:`service.protocol.javaser`: what ``writeObject(o); flush();
reset()`` writes for the registered classes (descriptors, back-references within a message,
``TC_RESET`` after it)."""

from __future__ import annotations

import struct
import uuid
from typing import Any

from service.protocol.javaser import (
    BASE_HANDLE, MAGIC, PRIMITIVES, TC_BLOCKDATA, TC_CLASSDESC, TC_ENDBLOCKDATA,
    TC_ENUM, TC_LONGSTRING, TC_NULL, TC_OBJECT, TC_REFERENCE, TC_RESET, TC_STRING, Field,
    JEnum, Registry, class_of, encode_mutf8,
)


class StreamWriter:
    """Writes ``writeObject(o); reset()`` for each message (the header is written once)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._out = bytearray()
        self._handles: dict[Any, int] = {}
        self._count = 0

    @staticmethod
    def header() -> bytes:
        return MAGIC

    def message(self, value: Any, reset: bool = True) -> bytes:
        """One object; then ``TC_RESET`` (as the original always did), or, with ``reset=False``,
        the handles stay for the next message to refer back to (as a stream without reset)."""
        self._out = bytearray()
        self._content(value)
        if reset:
            self._out.append(TC_RESET)
            self._handles, self._count = {}, 0
        return bytes(self._out)

    def _assign(self, key: Any) -> None:
        self._handles[key] = BASE_HANDLE + self._count
        self._count += 1

    def _reference(self, key: Any) -> bool:
        handle = self._handles.get(key)
        if handle is None:
            return False
        self._out += bytes([TC_REFERENCE]) + struct.pack(">i", handle)
        return True

    def _content(self, value: Any) -> None:
        if value is None:
            self._out.append(TC_NULL)
        elif isinstance(value, str):
            self._string(value)
        elif isinstance(value, JEnum):
            self._enum(value)
        else:
            self._object(value)

    def _string(self, text: str) -> None:
        if self._reference(("s", text)):
            return
        data = encode_mutf8(text)
        if len(data) < 0x10000:
            self._out += bytes([TC_STRING]) + struct.pack(">H", len(data)) + data
        else:
            self._out += bytes([TC_LONGSTRING]) + struct.pack(">q", len(data)) + data
        self._assign(("s", text))

    def _class_desc(self, name: str | None) -> None:
        if name is None:
            self._out.append(TC_NULL)
            return
        if self._reference(("c", name)):
            return
        spec = self.registry.get(name)
        if spec is None:
            raise ValueError(f"class {name} is not registered")
        self._out.append(TC_CLASSDESC)
        self._assign(("c", name))
        data = encode_mutf8(name)
        self._out += struct.pack(">H", len(data)) + data
        self._out += struct.pack(">qBH", spec.suid, spec.flags, len(spec.fields))
        for f in spec.fields:
            data = encode_mutf8(f.name)
            self._out += f.code.encode() + struct.pack(">H", len(data)) + data
            if f.signature is not None:
                self._string(f.signature)
        self._out.append(TC_ENDBLOCKDATA)
        self._class_desc(spec.superclass)

    def _enum(self, value: JEnum) -> None:
        if self._reference(("e", value.cls, value.name)):
            return
        self._out.append(TC_ENUM)
        self._class_desc(value.cls)
        self._assign(("e", value.cls, value.name))
        self._string(value.name)

    def _object(self, value: Any) -> None:
        if self._reference(("o", id(value))):
            return
        cls = class_of(value)
        self._out.append(TC_OBJECT)
        self._class_desc(cls)
        self._assign(("o", id(value)))
        if isinstance(value, list):
            self._out += struct.pack(">i", len(value))
            self._out += bytes([TC_BLOCKDATA, 4]) + struct.pack(">i", len(value))
            for item in value:
                self._content(item)
            self._out.append(TC_ENDBLOCKDATA)
            return
        if isinstance(value, uuid.UUID):
            self._out += struct.pack(">qq", *_uuid_halves(value))
            return
        for part in self.registry.chain(cls):
            for f in part.fields:
                self._field(f, value.fields[f.name])

    def _field(self, f: Field, value: Any) -> None:
        if f.code in PRIMITIVES:
            self._out += struct.pack(PRIMITIVES[f.code], value)
        else:
            self._content(value)


def _uuid_halves(value: uuid.UUID) -> tuple[int, int]:
    """(leastSigBits, mostSigBits) as signed longs, in the stream's field order."""
    def signed(n: int) -> int:
        return n - 2**64 if n >= 2**63 else n
    return signed(value.int & (2**64 - 1)), signed(value.int >> 64)
