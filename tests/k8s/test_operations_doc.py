"""docs/operations.md stays in step with the server it documents and the files it points to."""

from __future__ import annotations

import contextlib
import io
import re

from prometheus_client.metrics import MetricWrapperBase
from tablero.server import metrics
from tablero.server.__main__ import main

from tests.k8s.support import REPO

DOC = (REPO / "docs" / "operations.md").read_text()


def test_every_environment_variable_the_server_reads_is_documented():
    read = set(re.findall(r"TABLERO_[A-Z_]+", (REPO / "server" / "config.py").read_text()))
    assert read, "server/config.py reads no TABLERO_ variable?"
    assert sorted(v for v in read if f"`{v}`" not in DOC) == []


def test_every_serve_flag_is_documented():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["serve", "--help"])
    flags = set(re.findall(r"--[a-z][a-z-]+", out.getvalue())) - {"--help"}
    assert {"--grpc-port", "--http-port", "--redis-url"} <= flags
    assert sorted(f for f in flags if f"`{f}`" not in DOC) == []


def test_every_metric_is_documented_under_its_exposed_name():
    exposed = []
    for value in vars(metrics).values():
        if isinstance(value, MetricWrapperBase):
            for family in value.describe():
                exposed.append(family.name + ("_total" if family.type == "counter" else ""))
    assert "tablero_rpc_requests_total" in exposed
    assert sorted(name for name in exposed if f"`{name}`" not in DOC) == []


def test_paths_in_the_doc_exist():
    paths = set(re.findall(r"\bk8s/[\w./-]+", DOC))
    assert "k8s/overlays/production" in paths
    assert sorted(p for p in paths if not (REPO / p.rstrip(".")).exists()) == []
    for name in re.findall(r"`((?:base|overlays/\w+)/[\w.*-]+)`", DOC):
        if "*" in name:
            assert list((REPO / "k8s").glob(name)), name
        else:
            assert (REPO / "k8s" / name).exists(), name
