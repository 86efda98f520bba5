"""Java Object Serialization Stream Protocol (``ObjectOutputStream``), sans I/O, for a fixed
list of classes only.

A :class:`Registry` lists every class that may travel: name, serialVersionUID, flags, fields in
stream order, superclass. The :class:`StreamReader` refuses any descriptor that is not in it, or
differs from it in anything (no class is ever looked up by name beyond that dict, nothing is
instantiated but our own value types), bounds nesting depth, handles, string and collection
sizes and the bytes of one object, and reports every malformed stream as a
:class:`JavaStreamError` item; it never raises. The ``StreamWriter``
(:mod:`service.protocol.javaser_writer`) writes what
``writeObject(o); flush(); reset()`` writes: class descriptors, back-references to a
descriptor, string, enum constant or object already written in the same message, and
``TC_RESET`` after each message.

Values: registered plain classes are :class:`JObject` (class name + field dict, superclass
fields included), enum constants :class:`JEnum`, ``java.util.ArrayList`` a Python ``list``,
``java.util.UUID`` a :class:`uuid.UUID`, ``java.lang.String`` a ``str``, ``null`` ``None``.
No class of the reference is an array, so ``TC_ARRAY`` is refused like any type code not
accepted. Boxed primitives are plain registered classes
(``java.lang.Integer{value:I}`` under ``java.lang.Number``).

No library: the maintained Python ones (javaobj-py3) instantiate whatever class a stream names
and are built for reading dumps, not for a hostile peer; this one is small and strict.
"""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass, field
from typing import Any

from service.protocol import mutf8

MAGIC = b"\xac\xed\x00\x05"
TC_NULL, TC_REFERENCE, TC_CLASSDESC, TC_OBJECT, TC_STRING = 0x70, 0x71, 0x72, 0x73, 0x74
TC_ARRAY, TC_CLASS, TC_BLOCKDATA, TC_ENDBLOCKDATA, TC_RESET = 0x75, 0x76, 0x77, 0x78, 0x79
TC_BLOCKDATALONG, TC_EXCEPTION, TC_LONGSTRING, TC_PROXYCLASSDESC, TC_ENUM = (
    0x7A, 0x7B, 0x7C, 0x7D, 0x7E)
BASE_HANDLE = 0x7E0000
SC_WRITE_METHOD, SC_SERIALIZABLE, SC_ENUM = 0x01, 0x02, 0x10

ARRAYLIST, UUID_CLASS, STRING, ENUM = (
    "java.util.ArrayList", "java.util.UUID", "java.lang.String", "java.lang.Enum")
#: what each primitive type code reads as: struct format
PRIMITIVES: dict[str, str] = {"B": ">b", "C": ">H", "D": ">d", "F": ">f", "I": ">i",
                              "J": ">q", "S": ">h", "Z": ">?"}


@dataclass(frozen=True)
class Field:
    """One serializable field: type code, name, and for ``L``/``[`` its JVM signature."""

    code: str
    name: str
    signature: str | None = None

    @property
    def declared(self) -> str | None:
        """The declared class of an object field (``Ljava/util/List;`` -> ``java.util.List``)."""
        sig = self.signature
        if sig is None:
            return None
        return sig[1:-1].replace("/", ".") if sig.startswith("L") else sig.replace("/", ".")


@dataclass(frozen=True)
class ClassSpec:
    """A class allowed on the wire, exactly as its descriptor must read."""

    name: str
    suid: int
    flags: int = SC_SERIALIZABLE
    fields: tuple[Field, ...] = ()
    superclass: str | None = None
    #: enum constants (enums only)
    constants: tuple[str, ...] = ()

    @property
    def is_enum(self) -> bool:
        return bool(self.flags & SC_ENUM)


class Registry:
    """The classes a stream may hold, by name; nothing outside it is ever accepted."""

    def __init__(self, specs: list[ClassSpec], interfaces: dict[str, tuple[str, ...]]) -> None:
        self.specs = {s.name: s for s in specs}
        #: interface name -> the registered classes that implement it (java.util.List -> ArrayList)
        self.interfaces = interfaces

    def get(self, name: str) -> ClassSpec | None:
        return self.specs.get(name)

    def chain(self, name: str) -> list[ClassSpec]:
        """The class and its serializable superclasses, topmost first."""
        out: list[ClassSpec] = []
        spec = self.specs.get(name)
        while spec is not None:
            out.append(spec)
            spec = self.specs.get(spec.superclass) if spec.superclass else None
        return out[::-1]

    def is_a(self, name: str, declared: str) -> bool:
        if name == declared or declared == "java.lang.Object":
            return True
        if name in self.interfaces.get(declared, ()):
            return True
        return any(spec.name == declared for spec in self.chain(name))


@dataclass
class JObject:
    """An instance of a registered plain class: its fields by name (superclasses' too)."""

    cls: str
    fields: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]


@dataclass(frozen=True)
class JEnum:
    cls: str
    name: str


@dataclass(frozen=True)
class Limits:
    max_object_bytes: int = 64 * 1024
    max_depth: int = 24
    max_handles: int = 4096
    max_string: int = 4096
    max_items: int = 1024


class JavaStreamError(Exception):
    """The stream is not one we accept; ``code`` is a stable ``protocol/...`` code."""

    def __init__(self, message: str, code: str = "protocol/bad_stream") -> None:
        super().__init__(message)
        self.message, self.code = message, code


class _Incomplete(Exception):
    """More bytes are needed (internal: the reader waits for them)."""


# --- modified UTF-8 ----------------------------------------------------------------------


encode_mutf8 = mutf8.encode


def decode_mutf8(data: bytes) -> str:
    """A string of the stream; JavaStreamError when the bytes are not modified UTF-8."""
    try:
        return mutf8.decode(data)
    except UnicodeError:
        raise JavaStreamError("a string is not valid modified UTF-8",
                              "protocol/bad_encoding") from None


# --- reading ----------------------------------------------------------------------------


class _Cursor:
    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data, self.pos = data, pos

    def take(self, n: int) -> bytes:
        if n < 0:
            raise JavaStreamError("a negative length")
        end = self.pos + n
        if end > len(self.data):
            raise _Incomplete
        out = self.data[self.pos:end]
        self.pos = end
        return out

    def peek(self) -> int:
        if self.pos >= len(self.data):
            raise _Incomplete
        return self.data[self.pos]

    def unpack(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]


_DESC_PENDING = object()  # a descriptor handle whose descriptor is still being read


class StreamReader:
    """Feed bytes of one direction of a connection; get top-level objects (or errors).

    The stream header comes first. After an error the reader is broken: a Java stream cannot
    be resynchronised, so every later byte is ignored."""

    def __init__(self, registry: Registry, limits: Limits = Limits()) -> None:
        self.registry, self.limits = registry, limits
        self._buffer = bytearray()
        self._header = False
        self._handles: list[Any] = []
        self.broken = False

    def feed(self, data: bytes) -> list[Any | JavaStreamError]:
        if self.broken:
            return []
        self._buffer += data
        out: list[Any | JavaStreamError] = []
        try:
            while self._one(out):
                pass
        except JavaStreamError as exc:
            self._break()
            out.append(exc)
        return out

    def _break(self) -> None:
        self.broken = True
        self._buffer.clear()
        self._handles.clear()

    def _one(self, out: list[Any | JavaStreamError]) -> bool:
        """Read one header, reset or object from the buffer; False when more bytes are needed."""
        if not self._header:
            if len(self._buffer) < 4:
                return False
            if bytes(self._buffer[:4]) != MAGIC:
                raise JavaStreamError("not a Java serialization stream (bad header)")
            del self._buffer[:4]
            self._header = True
        if not self._buffer:
            return False
        if self._buffer[0] == TC_RESET:
            del self._buffer[:1]
            self._handles.clear()
            return True
        mark = len(self._handles)
        cursor = _Cursor(bytes(self._buffer[:self.limits.max_object_bytes]))
        try:
            value = self._content(cursor, 0)
        except _Incomplete:
            del self._handles[mark:]
            if len(self._buffer) >= self.limits.max_object_bytes:
                raise JavaStreamError(f"an object may take at most {self.limits.max_object_bytes}"
                                      " bytes", "protocol/frame_too_long") from None
            return False
        del self._buffer[:cursor.pos]
        out.append(value)
        return True

    # --- content --------------------------------------------------------------------

    def _content(self, c: _Cursor, depth: int) -> Any:
        if depth > self.limits.max_depth:
            raise JavaStreamError(f"objects nested deeper than {self.limits.max_depth}",
                                  "protocol/too_deep")
        tc = c.take(1)[0]
        if tc == TC_NULL:
            return None
        if tc == TC_REFERENCE:
            return self._reference(c, desc=False)
        if tc == TC_STRING:
            return self._new(self._utf(c, c.unpack(">H")))
        if tc == TC_LONGSTRING:
            return self._new(self._utf(c, c.unpack(">q")))
        if tc == TC_OBJECT:
            return self._object(c, depth)
        if tc == TC_ENUM:
            return self._enum(c, depth)
        if tc == TC_RESET:
            raise JavaStreamError("TC_RESET inside an object")
        raise JavaStreamError(f"type code 0x{tc:02x} is not accepted here")

    def _utf(self, c: _Cursor, length: int) -> str:
        if length > self.limits.max_string:
            raise JavaStreamError(f"a string may hold at most {self.limits.max_string} bytes",
                                  "protocol/too_long")
        return decode_mutf8(c.take(length))

    def _new(self, value: Any) -> Any:
        if len(self._handles) >= self.limits.max_handles:
            raise JavaStreamError(f"more than {self.limits.max_handles} objects between resets",
                                  "protocol/too_many_objects")
        self._handles.append(value)
        return value

    def _reference(self, c: _Cursor, *, desc: bool) -> Any:
        index = c.unpack(">i") - BASE_HANDLE
        if not 0 <= index < len(self._handles):
            raise JavaStreamError("a back-reference to no object")
        value = self._handles[index]
        if value is _DESC_PENDING or isinstance(value, ClassSpec) != desc:
            raise JavaStreamError("a back-reference to the wrong kind of thing")
        return value

    # --- class descriptors ------------------------------------------------------------

    def _class_desc(self, c: _Cursor, depth: int) -> ClassSpec | None:
        tc = c.take(1)[0]
        if tc == TC_NULL:
            return None
        if tc == TC_REFERENCE:
            spec: ClassSpec = self._reference(c, desc=True)
            return spec
        if tc != TC_CLASSDESC:
            raise JavaStreamError(f"type code 0x{tc:02x} where a class descriptor belongs")
        handle = len(self._handles)
        self._new(_DESC_PENDING)
        name = self._utf(c, c.unpack(">H"))
        spec_or_none = self.registry.get(name)
        if spec_or_none is None:
            raise JavaStreamError(f"class {name[:80]!r} is not accepted", "protocol/refused_class")
        spec = spec_or_none
        suid, flags, count = c.unpack(">q"), c.take(1)[0], c.unpack(">H")
        if suid != spec.suid or flags != spec.flags or count != len(spec.fields):
            raise JavaStreamError(f"class {name} does not match ours (serialVersionUID, flags "
                                  "or fields)", "protocol/refused_class")
        for expected in spec.fields:
            self._field(c, expected, name, depth)
        if c.take(1)[0] != TC_ENDBLOCKDATA:
            raise JavaStreamError(f"class {name}: class annotations are not accepted")
        parent = self._class_desc(c, depth + 1)
        if (parent.name if parent else None) != spec.superclass:
            raise JavaStreamError(f"class {name}: wrong superclass", "protocol/refused_class")
        self._handles[handle] = spec
        return spec

    def _field(self, c: _Cursor, expected: Field, owner: str, depth: int) -> None:
        code = chr(c.take(1)[0])
        name = self._utf(c, c.unpack(">H"))
        signature = None
        if code in "L[":
            signature = self._content(c, depth + 1)
        if (code, name, signature) != (expected.code, expected.name, expected.signature):
            raise JavaStreamError(f"class {owner}: field {name[:40]!r} does not match ours",
                                  "protocol/refused_class")

    # --- objects ----------------------------------------------------------------------

    def _object(self, c: _Cursor, depth: int) -> Any:
        spec = self._class_desc(c, depth + 1)
        if spec is None or spec.is_enum or spec.name.startswith("["):
            raise JavaStreamError("TC_OBJECT of no plain class")
        handle = len(self._handles)
        self._new(None)
        if spec.name == ARRAYLIST:
            items: list[Any] = []
            self._handles[handle] = items
            self._arraylist(c, items, depth)
            return items
        obj = JObject(spec.name)
        self._handles[handle] = obj
        for part in self.registry.chain(spec.name):
            for f in part.fields:
                obj.fields[f.name] = self._value(c, f, depth)
        if spec.name == UUID_CLASS:
            value = _to_uuid(obj)
            self._handles[handle] = value
            return value
        return obj

    def _value(self, c: _Cursor, f: Field, depth: int) -> Any:
        if f.code in PRIMITIVES:
            return c.unpack(PRIMITIVES[f.code])
        value = self._content(c, depth + 1)
        declared = f.declared
        if value is not None and declared is not None and not self._fits(value, declared):
            raise JavaStreamError(f"field {f.name} holds a value of the wrong class")
        return value

    def _fits(self, value: Any, declared: str) -> bool:
        return self.registry.is_a(class_of(value), declared)

    def _arraylist(self, c: _Cursor, items: list[Any], depth: int) -> None:
        size = c.unpack(">i")
        if not 0 <= size <= self.limits.max_items:
            raise JavaStreamError(f"a list may hold 0 to {self.limits.max_items} items",
                                  "protocol/too_long")
        if c.take(1)[0] != TC_BLOCKDATA or c.take(1)[0] != 4 or c.unpack(">i") < size:
            raise JavaStreamError("java.util.ArrayList without its capacity block")
        for _ in range(size):
            items.append(self._content(c, depth + 1))
        if c.take(1)[0] != TC_ENDBLOCKDATA:
            raise JavaStreamError("java.util.ArrayList: extra data after the elements")

    def _enum(self, c: _Cursor, depth: int) -> JEnum:
        spec = self._class_desc(c, depth + 1)
        if spec is None or not spec.is_enum or spec.name == ENUM:
            raise JavaStreamError("TC_ENUM of no enum class")
        handle = len(self._handles)
        self._new(None)
        name = self._content(c, depth + 1)
        if not isinstance(name, str) or name not in spec.constants:
            raise JavaStreamError(f"{spec.name} has no constant {str(name)[:40]!r}",
                                  "protocol/bad_enum")
        value = JEnum(spec.name, name)
        self._handles[handle] = value
        return value


def _to_uuid(obj: JObject) -> uuid.UUID:
    most, least = obj.fields["mostSigBits"], obj.fields["leastSigBits"]
    return uuid.UUID(int=((most & (2**64 - 1)) << 64) | (least & (2**64 - 1)))


def class_of(value: Any) -> str:
    """The Java class name of a value as this module represents it."""
    if isinstance(value, (JObject, JEnum)):
        return value.cls
    if isinstance(value, str):
        return STRING
    if isinstance(value, list):
        return ARRAYLIST
    if isinstance(value, uuid.UUID):
        return UUID_CLASS
    raise TypeError(f"no Java class for {type(value).__name__}")
