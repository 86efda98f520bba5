"""The import contract of DESIGN.md ("imports point down"), checked with ast on every file.

Every ``service.*`` import counts, wherever it stands: inside functions, under
``if TYPE_CHECKING:``, relative (``from .board import ...``) or absolute.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

import service

PACKAGE_DIR = Path(service.__file__).resolve().parent
ROOT = "service"
TOP = {"service.app", "service.cli", "service.__main__"}

#: layer -> the layers of ours it may import besides itself
ALLOWED: dict[str, set[str]] = {
    "service.games": {"service.errors"},
    "service.protocol": {"service.games", "service.errors"},
    # service.metrics is a leaf (prometheus counters only) that the layers below may count in
    "service.store": {"service.games", "service.errors", "service.metrics"},
    "service.sessions": {"service.games", "service.protocol", "service.store", "service.errors",
                         "service.metrics", "service.cluster"},
    "service.metrics": set(),
    # the cluster room (bus, ownership) stands on the engines' clients alone, below sessions
    "service.cluster": {"service.errors", "service.metrics"},
}


@dataclass(frozen=True)
class Import:
    importer: str  # dotted module name
    target: str  # dotted name of what is imported (module or name in a module)
    line: int
    path: Path

    def __str__(self) -> str:
        where = self.path.relative_to(PACKAGE_DIR.parent)
        return f"{where}:{self.line}: {self.importer} imports {self.target}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_in(text: str, path: Path) -> list[Import]:
    """Every import of ``service.*`` in ``text`` (the source of ``path``), in line order."""
    importer = module_name(path)
    found: list[Import] = []
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.Import):
            found += [Import(importer, a.name, node.lineno, path) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = resolve(importer, path.name == "__init__.py", node)
            # `from service import app` imports the module service.app: keep the name on
            found += [Import(importer, f"{base}.{a.name}", node.lineno, path) for a in node.names]
    ours = [i for i in found if within(i.target, ROOT)]
    return sorted(ours, key=lambda i: (i.line, i.target))


def all_imports() -> list[Import]:
    return [imp for path in sorted(PACKAGE_DIR.rglob("*.py"))
            for imp in imports_in(path.read_text(encoding="utf-8"), path)]


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def layer_of(name: str) -> str:
    return ".".join(name.split(".")[:2])


def broken_rule(imp: Import) -> str | None:
    """Which rule ``imp`` breaks, or None."""
    source = layer_of(imp.importer)
    if imp.importer not in TOP and any(within(imp.target, top) for top in TOP):
        return "only the top (app, cli, __main__) may import service.app or service.cli"
    if source == "service.gateway" and within(imp.target, "service.cli"):
        return "service.gateway may import anything but service.cli"
    if source in ALLOWED and imp.target != ROOT:
        allowed = ALLOWED[source] | {source}
        if not any(within(imp.target, ok) for ok in allowed):
            return f"{source} may import only {', '.join(sorted(allowed))}"
    return None


def violations(imports: list[Import]) -> list[tuple[Import, str]]:
    return [(imp, rule) for imp in imports if (rule := broken_rule(imp)) is not None]


def report(found: list[tuple[Import, str]]) -> str:
    return "\n".join(f"{imp}  -- breaks: {rule}" for imp, rule in found)


# --- the checker itself --------------------------------------------------------------------


def test_the_walk_sees_every_layer_and_resolves_relative_imports() -> None:
    imports = all_imports()
    assert {"service.games", "service.protocol", "service.store", "service.sessions",
            "service.gateway"} <= {layer_of(i.importer) for i in imports}
    assert any(i.target.startswith("service.games.santorini.") and i.path.parent.name == "santorini"
               for i in imports), "relative imports must be resolved"


def test_the_walk_finds_type_checking_function_level_and_relative_imports() -> None:
    source = ("from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from service.app import create_app\n"
              "def f():\n    import service.cli\n"
              "from . import sibling\nfrom ..store import Store\nimport os, service.errors\n")
    found = imports_in(source, PACKAGE_DIR / "games" / "x.py")
    assert [(i.target, i.line) for i in found] == [
        ("service.app.create_app", 3), ("service.cli", 5), ("service.games.sibling", 6),
        ("service.store.Store", 7), ("service.errors", 8)]
    assert [rule.split(" ")[0] for _, rule in violations(found)] == [
        "only", "only", "service.games"]


def test_the_checker_accepts_what_the_contract_allows() -> None:
    source = "from service.games.base import Game\nfrom service.errors import ProtocolError\n"
    assert violations(imports_in(source, PACKAGE_DIR / "protocol" / "x.py")) == []
    assert len(violations(imports_in(source, PACKAGE_DIR / "games" / "x.py"))) == 0
    upward = "from service.sessions.hub import Hub\n"
    assert len(violations(imports_in(upward, PACKAGE_DIR / "store" / "x.py"))) == 1
    assert violations(imports_in(upward, PACKAGE_DIR / "gateway" / "x.py")) == []
    assert len(violations(imports_in("import service.cli\n", PACKAGE_DIR / "gateway" / "x.py"))) == 1


def test_relative_imports_resolve_from_packages_and_modules() -> None:
    node = ast.parse("from ..errors import X").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert resolve("service.games.santorini", True, node) == "service.games.errors"
    assert resolve("service.games.santorini.turn", False, node) == "service.games.errors"


# --- the contract ------------------------------------------------------------------------------


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_lower_layer_imports_only_what_it_may(layer: str) -> None:
    found = [(i, r) for i, r in violations(all_imports()) if layer_of(i.importer) == layer]
    assert not found, report(found)


def test_the_gateway_does_not_import_the_cli() -> None:
    found = [(i, r) for i, r in violations(all_imports()) if layer_of(i.importer) == "service.gateway"]
    assert not found, report(found)


def test_nothing_below_imports_app_or_cli() -> None:
    found = [(i, r) for i, r in violations(all_imports()) if r.startswith("only the top")]
    assert not found, report(found)


def test_games_import_nothing_of_ours_but_errors() -> None:
    outside = sorted({str(i) for i in all_imports() if within(i.importer, "service.games")
                      and not within(i.target, "service.games")
                      and not within(i.target, "service.errors")})
    assert not outside, "\n".join(outside)
