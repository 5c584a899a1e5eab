# syntax=docker/dockerfile:1
# Tablero server image.
#   docker build -t tablero:dev .
#   docker run --rm -p 50051:50051 -p 8080:8080 -e TABLERO_SECRET=... tablero:dev
# Arguments after the image name are flags of `tablero serve` (e.g. --redis-url redis://host:6379/0).

# --- build stage: the project and its pinned dependencies in a virtualenv --------------------------
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
# .dockerignore admits only what the install needs (pyproject, setup.py, README, the packages and
# the Python SDK in clients/python, which `tablero` depends on).
COPY . .
# pip compiles the bytecode at install time: the runtime root filesystem is read-only.
RUN pip install ./clients/python .

# --- runtime stage: the virtualenv only, no sources, no build tools, not root ----------------------
FROM python:3.11-slim
LABEL org.opencontainers.image.title="tablero" \
      org.opencontainers.image.description="Tablero turn-based board-game server (gRPC + REST/JSON)"
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
# A fixed numeric uid/gid, so Kubernetes can check runAsNonRoot (k8s/base/deployment.yaml uses the same).
RUN groupadd --system --gid 10001 tablero \
 && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/tablero --no-create-home \
            --shell /usr/sbin/nologin tablero \
 && install -d -o 10001 -g 10001 -m 0750 /var/lib/tablero
COPY --from=build /opt/venv /opt/venv
# Writable working directory for a SQLite file (TABLERO_DB) when no Redis is configured.
WORKDIR /var/lib/tablero
USER 10001:10001
# gRPC (with grpc.health.v1 and reflection), HTTP (REST/JSON, /healthz, /readyz), and Prometheus
# /metrics on a port of its own (TABLERO_METRICS_PORT; not on the HTTP port).
EXPOSE 50051 8080 9090
# Exec form: the server is PID 1 and receives SIGTERM itself (graceful drain, TABLERO_SHUTDOWN_GRACE).
ENTRYPOINT ["tablero", "serve"]
