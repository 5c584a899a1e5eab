"""Webhooks and Web Push on Kubernetes (outside operator pass): the server pods' NetworkPolicy let
them out only to Redis and DNS, so an operator who set TABLERO_WEBHOOKS as docs/webhooks.md says
saw every delivery time out and end as a dead letter. k8s/components/notify-egress opens HTTPS to
public addresses, and only that."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import yaml

from tests.k8s.support import K8S, KUBERNETES_VERSIONS, kubectl, one, schema_errors


@pytest.fixture(scope="module", params=["production", "ha"])
def objs(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("k8s") / "k8s"
    shutil.copytree(K8S, root)
    overlay = root / "overlays" / request.param / "kustomization.yaml"
    overlay.write_text(overlay.read_text() + "\ncomponents:\n  - ../../components/notify-egress\n")
    r = subprocess.run([kubectl(), "kustomize", str(overlay.parent)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [d for d in yaml.safe_load_all(r.stdout) if d]


def test_the_server_pods_may_reach_https_on_public_addresses_only(objs):
    egress = one(objs, "NetworkPolicy", "tablero")["spec"]["egress"]
    https = [rule for rule in egress if [p["port"] for p in rule.get("ports", [])] == [443]]
    assert len(https) == 1, egress
    blocks = {b["ipBlock"]["cidr"]: set(b["ipBlock"].get("except", [])) for b in https[0]["to"]}
    assert set(blocks) == {"0.0.0.0/0", "::/0"}
    assert {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16"} <= blocks["0.0.0.0/0"]
    assert {"fc00::/7", "fe80::/10"} <= blocks["::/0"]
    # Redis and DNS are still reached as before; nothing else is opened.
    ports = sorted(p["port"] for rule in egress for p in rule.get("ports", []))
    assert 443 in ports and 53 in ports and 6379 in ports
    assert all(p in (53, 443, 6379, 26379) for p in ports), ports


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_object_validates(objs, version):
    assert not [e for o in objs for e in schema_errors(o, version)]
