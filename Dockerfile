# Tavolo: one service process; the database URL comes from TAVOLO_DATABASE_URL.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the service needs (.dockerignore keeps .venv, databases, .git and caches out of the context).
COPY pyproject.toml alembic.ini ./
COPY service ./service
COPY migrations ./migrations
# each game's rules page, served at /rules/GAME (service/gateway/web.py)
COPY docs/rules ./docs/rules

# Editable on purpose: service.store.migrate looks for migrations/ beside the service package
# (the repository root), which a plain `pip install .` would leave behind in /app.
RUN pip install -e '.[cluster]' \
    && useradd --create-home --uid 10001 tavolo \
    && mkdir -p /data && chown tavolo /data

USER tavolo

# SQLite in /data unless the environment names another database (compose sets Postgres).
ENV TAVOLO_DATABASE_URL=sqlite+aiosqlite:////data/tavolo.db
VOLUME ["/data"]

# 8080 HTTP + WebSocket (/ws, /ws/<dialect>, /api, /metrics); the seed dialects over TCP:
# 7002 dolphinfox (002), 1337 santorini (001), 4567 eriantys-g13 (000), 4568 eriantys-g13-java
# (000, the original's Java serialization), 6556 eriantys-g27 (004), 48745 renaissance (003).
EXPOSE 8080 7002 1337 4567 4568 6556 48745

# Healthy once the HTTP API answers and the database does (GET /api/health is 503 otherwise).
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/api/health', timeout=4).status != 200)"]

# `serve` migrates the database to head before it listens; SIGTERM stops it cleanly. No flags:
# every setting (host, port, log format...) comes from a TAVOLO_* variable (README, "Docker").
CMD ["python", "-m", "service", "serve"]
