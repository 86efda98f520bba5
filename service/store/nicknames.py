"""The one rule for nicknames, the same on every dialect (docs/protocol.md, "Nicknames").

A nickname is normalised before it is used or saved:

1. Unicode NFKC (full-width ``ａｌｉｃｅ`` is ``alice``, ligatures are split);
2. leading and trailing white space removed, inner runs of white space made one space;
3. refused (``session/bad_nickname``) when it is empty or longer than 32 characters, holds a
   control, format (zero-width, bidi), private-use, unassigned or invisible character, or
   mixes letters of two scripts (``аlice`` with a Cyrillic ``а``; Chinese and Japanese may mix).

Two nicknames are the same player when their keys are equal: the case-folded name, where a
name written only with letters that look like Latin ones (Cyrillic ``аӏісе``) is read as
those Latin letters. Digits are not folded (``bob1`` and ``bobl`` are two players).
"""

from __future__ import annotations

import unicodedata

from service.errors import BadNickname

MAX_NICKNAME = 32

#: letters that do not look like anything (they render as blank)
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
#: categories refused anywhere in a nickname
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: scripts that may share one nickname
_MIXABLE = frozenset({"CJK", "HIRAGANA", "KATAKANA"})
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
    return name


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
