"""Every setting of service/settings.py comes from a flag of ``serve`` and from its
``TAVOLO_<NAME>`` variable alike (the log's level and format too), a flag winning."""

from __future__ import annotations

from typing import Any

import pytest

from service import cli
from service.cli_settings import flag_of
from service.settings import Settings, database_url_from_env

#: a value other than the default for each setting that is not a plain number: (text, value)
SPECIAL: dict[str, tuple[str, Any]] = {
    "database_url": ("sqlite+aiosqlite:///elsewhere.db", "sqlite+aiosqlite:///elsewhere.db"),
    "host": ("127.0.0.2", "127.0.0.2"),
    "listen": ('{"santorini": 0}', {"santorini": 0}),
    "migrate": ("false", False),
    "reuse_port": ("true", True),
    "cors_origins": ("https://a.example,https://b.example",
                     ["https://a.example", "https://b.example"]),
    "sqlite_synchronous": ("NORMAL", "NORMAL"),
    "stand_in_level": ("mcts", "mcts"),
    "admin_token": ("0123456789012345678", "0123456789012345678"),  # digits stay text
    "cluster_bus": ("nats://127.0.0.1:4222", "nats://127.0.0.1:4222"),
    "node_id": ("node-7", "node-7"),
    "waiting_abort_after": ("null", None),
    "tcp_idle_timeout": ("null", None),
}


def samples() -> dict[str, tuple[str, Any]]:
    """(text, value) of every setting: numbers one step past their default."""
    found = dict(SPECIAL)
    for name, field in Settings.model_fields.items():
        if name in found:
            continue
        default = field.get_default(call_default_factory=True)
        assert type(default) in (int, float), f"give {name} a sample in SPECIAL"
        value = default + 1 if type(default) is int else default + 0.5
        found[name] = (str(value), value)
    return found


def settings_of(argv: list[str]) -> Settings:
    args = cli.build_parser().parse_args(["serve", *argv])
    return cli.serve_settings(args, database_url_from_env(args.database_url))


def flags(values: dict[str, tuple[str, Any]]) -> list[str]:
    argv: list[str] = []
    for name, (text, _) in values.items():
        if name == "listen":
            argv += ["--listen", "santorini=0"]
        else:
            argv += [flag_of(name), text]
    return argv


@pytest.fixture(autouse=True)
def no_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [*Settings.model_fields, "log_level", "log_format"]:
        monkeypatch.delenv(f"TAVOLO_{name.upper()}", raising=False)


def test_every_setting_has_a_flag_of_its_own_name() -> None:
    serve = cli.build_parser()._subparsers._group_actions[0].choices["serve"]  # type: ignore[union-attr]
    options = {o for action in serve._actions for o in action.option_strings}
    assert {flag_of(name) for name in Settings.model_fields} <= options
    assert {"--log-level", "--log-format"} <= options


def test_every_setting_comes_from_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    values = samples()
    for name, (text, _) in values.items():
        monkeypatch.setenv(f"TAVOLO_{name.upper()}", text)
    settings = settings_of([])
    assert {name: getattr(settings, name) for name in values} == {
        name: value for name, (_, value) in values.items()}
    defaults = Settings.model_construct()  # the defaults, no variable read
    assert all(getattr(settings, name) != getattr(defaults, name) for name in values)


def test_every_setting_comes_from_its_flag() -> None:
    values = samples()
    settings = settings_of(flags(values))
    assert {name: getattr(settings, name) for name in values} == {
        name: value for name, (_, value) in values.items()}


def test_a_flag_wins_over_the_variable_and_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVOLO_OUTBOX", "100")
    monkeypatch.setenv("TAVOLO_WAITING_ABORT_AFTER", "60")
    assert settings_of([]).outbox == 100
    assert settings_of(["--set", "outbox=200"]).outbox == 200
    settings = settings_of(["--set", "outbox=200", "--outbox", "300",
                            "--waiting-abort-after", "null"])
    assert settings.outbox == 300 and settings.waiting_abort_after is None


def test_a_bad_value_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="outbox"):
        settings_of(["--outbox", "0"])
    monkeypatch.setenv("TAVOLO_BOT_PACE", "slow")
    with pytest.raises(ValueError, match="bot_pace"):
        settings_of([])


def test_the_log_level_and_format_from_flags_and_variables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def options(*argv: str) -> tuple[str, str]:
        return cli.log_options(cli.build_parser().parse_args(["serve", *argv]))

    assert options() == ("INFO", "text")
    assert options("--log-level", "debug", "--log-format", "json") == ("DEBUG", "json")
    monkeypatch.setenv("TAVOLO_LOG_LEVEL", "warning")
    monkeypatch.setenv("TAVOLO_LOG_FORMAT", "json")
    assert options() == ("WARNING", "json")
    assert options("--log-level", "ERROR", "--log-format", "text") == ("ERROR", "text")
