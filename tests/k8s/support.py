"""Rendering and schema validation of `k8s/`, offline: `kubectl kustomize` + bundled JSON schemas."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import yaml

REPO = Path(__file__).resolve().parents[2]
K8S = REPO / "k8s"
SCHEMAS = Path(__file__).resolve().parent / "schemas"

# Oldest supported cluster (the preStop `sleep` action is on by default from 1.30) and the newest
# schema set kubernetes-validate ships. Validation is strict: unknown fields are errors.
KUBERNETES_VERSIONS = ("1.30", "1.37")

# Kinds that are not in the Kubernetes core schemas, each with a vendored schema under schemas/.
CRD_SCHEMAS = {
    ("monitoring.coreos.com/v1", "ServiceMonitor"): "servicemonitor-monitoring-v1.json",
    ("monitoring.coreos.com/v1", "PrometheusRule"): "prometheusrule-monitoring-v1.json",
    ("gateway.networking.k8s.io/v1", "Gateway"): "gateway-gateway-v1.json",
    ("gateway.networking.k8s.io/v1", "HTTPRoute"): "httproute-gateway-v1.json",
    ("gateway.networking.k8s.io/v1", "GRPCRoute"): "grpcroute-gateway-v1.json",
}


def renderings(extra: bool = False) -> dict[str, Path]:
    """The base and every overlay directory, by a short name ("base", "overlays/production", ...);
    with `extra`, the other kustomizations too (monitoring, edge/ingress, edge/gateway)."""
    found = {"base": K8S / "base"}
    if extra:
        found["monitoring"] = K8S / "monitoring"
        for edge in sorted((K8S / "edge").iterdir()):
            if (edge / "kustomization.yaml").is_file():
                found[f"edge/{edge.name}"] = edge
    for overlay in sorted((K8S / "overlays").iterdir()):
        if (overlay / "kustomization.yaml").is_file():
            found[f"overlays/{overlay.name}"] = overlay
    return found


def kubectl() -> str:
    """The kubectl binary (Debian package `kubectl`; .ci/run installs it when missing)."""
    path = shutil.which("kubectl")
    assert path, ("kubectl is not installed, so k8s/ cannot be rendered: `apt-get install kubectl` "
                  "(its `kubectl kustomize` renders the manifests offline; .ci/run installs it)")
    return path


@cache
def _render(name: str) -> tuple[dict[str, Any], ...]:
    r = subprocess.run([kubectl(), "kustomize", str(renderings(extra=True)[name])], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, f"kubectl kustomize {name} failed: {r.stderr}"
    return tuple(doc for doc in yaml.safe_load_all(r.stdout) if doc)


def render(name: str) -> list[dict[str, Any]]:
    """Rendered objects of a kustomization (a fresh copy each call: tests may mutate it)."""
    return copy.deepcopy(list(_render(name)))


@cache
def _crd_validator(filename: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / filename).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_errors(obj: dict[str, Any], version: str) -> list[str]:
    """Why `obj` is not a valid object for Kubernetes `version` (empty list: valid)."""
    where = f"{obj.get('kind')}/{(obj.get('metadata') or {}).get('name')}"
    crd = CRD_SCHEMAS.get((obj.get("apiVersion"), obj.get("kind")))
    if crd is not None:
        return [
            f"{where}: {'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in _crd_validator(crd).iter_errors(obj)
        ]
    try:
        kubernetes_validate.validate(obj, version, strict=True)
    except kubernetes_validate.ValidationError as e:
        return [f"{where}: {'.'.join(map(str, e.path)) or '<root>'}: {e.message}"]
    except kubernetes_validate.SchemaNotFoundError as e:
        return [f"{where}: {e.message}"]
    return []


# --- reading rendered objects ---------------------------------------------------------------------


def find(objs: list[dict[str, Any]], kind: str, name: str | None = None) -> list[dict[str, Any]]:
    return [o for o in objs if o["kind"] == kind and (name is None or o["metadata"]["name"] == name)]


def one(objs: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = find(objs, kind, name)
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """Does a label selector (matchLabels only, as used here) select these labels? Empty selects nothing."""
    assert set(selector) <= {"matchLabels"}, f"selector features not handled by the test: {selector}"
    wanted = selector.get("matchLabels") or {}
    return bool(wanted) and all(labels.get(k) == v for k, v in wanted.items())


def pod_labels(workload: dict[str, Any]) -> dict[str, str]:
    return workload["spec"]["template"]["metadata"]["labels"]


def containers(workload: dict[str, Any]) -> list[dict[str, Any]]:
    spec = workload["spec"]["template"]["spec"]
    return (spec.get("initContainers") or []) + spec["containers"]


def config_data(objs: list[dict[str, Any]]) -> dict[str, str]:
    """The server's configuration: data of the ConfigMap its Deployment takes env from."""
    server = one(objs, "Deployment", "tablero")
    names = [e["configMapRef"]["name"] for c in containers(server) for e in c.get("envFrom", []) if "configMapRef" in e]
    assert len(names) == 1, names
    return one(objs, "ConfigMap", names[0])["data"]


_SUFFIXES = {"m": Decimal("0.001"), "k": Decimal(10**3), "M": Decimal(10**6), "G": Decimal(10**9),
             "Ki": Decimal(2**10), "Mi": Decimal(2**20), "Gi": Decimal(2**30), "Ti": Decimal(2**40)}


def quantity(value: str | int) -> Decimal:
    """A Kubernetes resource quantity ("250m", "1", "512Mi", "4Gi") as a number."""
    text = str(value)
    for suffix in sorted(_SUFFIXES, key=len, reverse=True):
        if text.endswith(suffix):
            return Decimal(text[: -len(suffix)]) * _SUFFIXES[suffix]
    return Decimal(text)
