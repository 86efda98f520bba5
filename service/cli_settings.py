"""A flag of ``serve`` for every field of service/settings.py: ``--<name-with-dashes> VALUE``
(VALUE read as JSON, else as text: ``--waiting-abort-after null``, ``--outbox 256``;
a text setting keeps its text), beside
its ``TAVOLO_<NAME>`` variable. Settings that have a flag of their own (``--host``,
``--http-port``, ``--listen DIALECT=PORT``, ``--database-url``...) keep it; ``--set NAME=VALUE``
still sets any of them. A flag wins over ``--set``, which wins over the variable, which wins
over the default."""

from __future__ import annotations

import argparse
import json
from typing import Any

from service.settings import Settings

#: where a setting's flag is stored in the parsed arguments
DEST = "setting_{}"


def flag_of(name: str) -> str:
    return "--" + name.replace("_", "-")


def value_of(raw: str) -> Any:
    """A flag's or ``--set``'s VALUE: JSON when it parses (numbers, true, null, objects),
    else the text itself."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _text_setting(name: str) -> bool:
    return Settings.model_fields[name].annotation in (str, str | None)


def _parser_of(name: str) -> Any:
    """How a setting's VALUE is read: text settings keep their text (a token of digits stays
    text), ``null`` aside; the others as ``value_of``."""
    if not _text_setting(name):
        return value_of
    return lambda raw: None if raw == "null" else raw


def parse(name: str, raw: str) -> Any:
    """The VALUE of setting ``name`` (an unknown name is read as JSON, else text: Settings
    then refuses the name)."""
    return _parser_of(name)(raw) if name in Settings.model_fields else value_of(raw)


def _help(name: str) -> str:
    field = Settings.model_fields[name]
    default = field.get_default(call_default_factory=True)
    shown = json.dumps(default) if not isinstance(default, str) else default
    return f"setting {name} (${'TAVOLO_' + name.upper()}; default {shown})"


def add_setting_flags(parser: argparse.ArgumentParser) -> None:
    """``--<name>`` for every setting that has no flag yet on ``parser``."""
    taken = {option for action in parser._actions for option in action.option_strings}
    for name in Settings.model_fields:
        if flag_of(name) in taken:
            continue
        parser.add_argument(flag_of(name), dest=DEST.format(name), type=_parser_of(name),
                            default=argparse.SUPPRESS, metavar="VALUE", help=_help(name))


def setting_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given by their generic flags (a flag left out is absent; ``null`` given
    is None)."""
    return {name: getattr(args, DEST.format(name)) for name in Settings.model_fields
            if hasattr(args, DEST.format(name))}
