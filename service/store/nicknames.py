"""The one rule for nicknames, the same on every dialect (docs/protocol.md, "Nicknames").

A nickname is normalised before it is used or saved:

1. Unicode NFKC (full-width ``ａｌｉｃｅ`` is ``alice``, ligatures are split);
2. leading and trailing white space removed, inner runs of white space made one space;
3. refused (``session/bad_nickname``) when it is empty or longer than 32 characters, holds a
   control, format (zero-width, bidi), private-use, unassigned or invisible character, or
   mixes letters of two scripts (``аlice`` with a Cyrillic ``а``; Chinese and Japanese may mix);
4. refused when a combining mark is stray: one that does not sit on a letter (``alice7\u0301``),
   one left over on a Latin, Greek or Cyrillic letter after NFKC composed what it could
   (``e\u0301`` becomes ``é`` and is kept; ``x\u0301`` has no composed form: refused), or more
   than MAX_MARKS marks stacked on one letter (scripts that write with marks, such as
   Devanagari or Thai, keep them).

Two nicknames are the same player when their keys are equal: the case-folded name, where a
name written only with letters that look like Latin ones (Cyrillic ``аӏісе``) is read as
those Latin letters. Digits are not folded (``bob1`` and ``bobl`` are two players).
"""

from __future__ import annotations

import unicodedata

from service.errors import BadNickname

MAX_NICKNAME = 32
#: combining marks one letter may carry once composed (Devanagari, Thai, Hebrew points)
MAX_MARKS = 2

#: letters that do not look like anything (they render as blank)
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
#: categories refused anywhere in a nickname
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: scripts that may share one nickname
_MIXABLE = frozenset({"CJK", "HIRAGANA", "KATAKANA"})
#: scripts whose letters with marks all have composed forms: a mark left over is a disguise
_COMPOSED = frozenset({"LATIN", "GREEK", "CYRILLIC"})
#: lower-case Cyrillic and Greek letters that look like a Latin letter
_LATIN_LOOKALIKE = dict(zip(
    "аеорсухіјѕԁһԛԝӏкαεικνορυχ",
    "aeopcyxijsdhqwlkaeikvopux"))


def normalise_nickname(raw: str) -> str:
    """The nickname as Tavolo keeps it; SessionError ``session/bad_nickname`` if refused."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not 0 < len(name) <= MAX_NICKNAME:
        raise _bad(f"a nickname has 1 to {MAX_NICKNAME} characters")
    for char in name:
        if unicodedata.category(char) in _REFUSED or char in _INVISIBLE:
            raise _bad(f"a nickname may not hold the character U+{ord(char):04X}")
    scripts = {_script(c) for c in name if c.isalpha()}
    if len(scripts - _MIXABLE) + bool(scripts & _MIXABLE) > 1:
        raise _bad("a nickname may not mix the letters of several scripts")
    _check_marks(name)
    return name


def _check_marks(name: str) -> None:
    """Refuse a stray combining mark (rule 4 of the module docs); ``name`` is NFKC already."""
    base, stacked = "", 0
    for char in name:
        if not unicodedata.category(char).startswith("M"):
            base, stacked = char, 0
            continue
        stacked += 1
        where = f"U+{ord(char):04X}"
        if not base.isalpha():
            raise _bad(f"the combining mark {where} must follow a letter")
        if _script(base) in _COMPOSED:
            raise _bad(f"the combining mark {where} does not combine with {base!r}")
        if stacked > MAX_MARKS:
            raise _bad(f"a letter may carry at most {MAX_MARKS} combining marks")


def nickname_key(nickname: str) -> str:
    """The identity of a nickname: equal keys are one player (see the module docs)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", nickname).casefold())
    letters = [c for c in folded if c.isalpha()]
    if letters and all(c in _LATIN_LOOKALIKE or c.isascii() for c in letters):
        return "".join(_LATIN_LOOKALIKE.get(c, c) for c in folded)
    return folded


def _script(char: str) -> str:
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def _bad(message: str) -> BadNickname:
    return BadNickname(message)
