# Tavolo: one service process; the database URL comes from TAVOLO_DATABASE_URL.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the service needs (there is no .dockerignore: never copy .venv or local databases).
COPY pyproject.toml alembic.ini ./
COPY service ./service
COPY migrations ./migrations

# Editable on purpose: service.store.migrate looks for migrations/ beside the service package
# (the repository root), which a plain `pip install .` would leave behind in /app.
RUN pip install -e . \
    && useradd --create-home --uid 10001 tavolo \
    && mkdir -p /data && chown tavolo /data

USER tavolo

# SQLite in /data unless the environment names another database (compose sets Postgres).
ENV TAVOLO_DATABASE_URL=sqlite+aiosqlite:////data/tavolo.db
VOLUME ["/data"]

# 8080 HTTP + WebSocket; 7002 dolphinfox (seed 002). Other dialects: 6556, 4567, 1337.
EXPOSE 8080 7002

# `serve` migrates the database to head before it listens; SIGTERM stops it cleanly.
CMD ["python", "-m", "service", "serve", "--host", "0.0.0.0", "--http-port", "8080"]
