"""docker-compose.yml's cluster profile and deploy/haproxy.cfg agree: 3 nodes with distinct
ids over the same database and bus, the default services untouched by the profile, and
HAProxy in front of every port the single service exposes, pointing at all 3 nodes and
checking them on /api/health. (Read as files: no Docker daemon is needed; `haproxy -c` and
`docker-compose config` are run too where they are installed.)"""

from __future__ import annotations

import re
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from service.sessions.dialects import DIALECTS

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
HAPROXY = ROOT / "deploy" / "haproxy.cfg"
NODES = {"tavolo-1", "tavolo-2", "tavolo-3"}
#: what the service exposes: HTTP and every dialect's port (tests/test_repo_docs.py checks
#: that the single service publishes exactly these)
PORTS = {8080, *(d.default_port for d in DIALECTS.values() if d.default_port)}


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml", reason="PyYAML reads docker-compose.yml")
    found: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return found


def container_port(mapping: str) -> int:
    return int(str(mapping).split("#")[0].strip().rsplit(":", 1)[-1])


def sections(text: str) -> dict[tuple[str, str], list[str]]:
    """``(kind, name) -> its lines`` for every section of an HAProxy configuration."""
    found: dict[tuple[str, str], list[str]] = {}
    current: list[str] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        if not line[0].isspace():
            kind, _, name = line.partition(" ")
            current = found.setdefault((kind, name.strip()), [])
        else:
            current.append(line.strip())
    return found


def test_the_default_services_do_not_start_the_cluster(services: dict[str, Any]) -> None:
    defaults = {name for name, service in services.items() if not service.get("profiles")}
    assert defaults == {"postgres", "tavolo"}
    assert "TAVOLO_CLUSTER_BUS" not in services["tavolo"]["environment"]
    for name in NODES | {"nats", "haproxy"}:
        assert services[name]["profiles"] == ["cluster"], name


def test_three_nodes_with_their_own_ids_over_one_database_and_bus(
        services: dict[str, Any]) -> None:
    envs = {name: services[name]["environment"] for name in NODES}
    assert {env["TAVOLO_NODE_ID"] for env in envs.values()} == NODES
    assert {env["TAVOLO_DATABASE_URL"] for env in envs.values()} == {
        services["tavolo"]["environment"]["TAVOLO_DATABASE_URL"]}
    assert {env["TAVOLO_CLUSTER_BUS"] for env in envs.values()} == {"nats://nats:4222"}
    assert services["nats"]["image"] == "nats:2"
    for name in NODES:
        assert "ports" not in services[name]  # reached through HAProxy only
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "nats" in services[name]["depends_on"]


def test_compose_runs_haproxy_on_every_port_of_the_service(services: dict[str, Any]) -> None:
    exposed = {container_port(p) for p in services["tavolo"]["ports"]}
    assert exposed == PORTS
    haproxy = services["haproxy"]
    assert haproxy["image"] == "haproxy:2.9"
    assert {container_port(p) for p in haproxy["ports"]} == exposed
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in haproxy["volumes"]
    for name in NODES:
        assert {int(p) for p in services[name]["expose"]} == exposed


def test_haproxy_fronts_every_port_for_all_nodes_checking_their_health() -> None:
    config = sections(HAPROXY.read_text())
    defaults = config[("defaults", "")]
    assert "mode tcp" in defaults and "option httpchk" in defaults
    assert any(re.fullmatch(r"http-check send meth GET uri /api/health\b.*", l) for l in defaults)
    assert "http-check expect status 200" in defaults
    assert any(l.startswith("default-server check port 8080") for l in defaults)
    frontends = {name: lines for (kind, name), lines in config.items() if kind == "frontend"}
    backends = {name: lines for (kind, name), lines in config.items() if kind == "backend"}
    bound: set[int] = set()
    for name, lines in frontends.items():
        port = int(next(l for l in lines if l.startswith("bind ")).rsplit(":", 1)[1])
        bound.add(port)
        backend = next(l for l in lines if l.startswith("default_backend ")).split()[1]
        servers = [l.split() for l in backends[backend] if l.startswith("server ")]
        assert {s[1] for s in servers} == NODES, name
        assert {s[2] for s in servers} == {f"{node}:{port}" for node in NODES}, name
        assert not any("no-check" in s or "disabled" in s for s in servers), name
    assert bound == PORTS


def missing(tool: str) -> bool:
    """``tool`` is not installed: skipped on a developer's machine; on CI (.ci/run installs
    it) the test runs and fails."""
    return shutil.which(tool) is None and not os.environ.get("CI")


@pytest.mark.skipif(missing("haproxy"), reason="haproxy is not installed")
def test_haproxy_accepts_the_configuration() -> None:
    done = subprocess.run(["haproxy", "-c", "-f", str(HAPROXY)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(missing("docker-compose"), reason="docker-compose is not installed")
def test_docker_compose_accepts_both_profiles() -> None:
    for extra in ([], ["--profile", "cluster"]):
        done = subprocess.run(["docker-compose", "-f", str(COMPOSE), *extra, "config", "-q"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
