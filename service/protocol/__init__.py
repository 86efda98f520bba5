"""Sans-I/O codecs: bytes <-> messages, one module per wire dialect plus the canonical one."""
