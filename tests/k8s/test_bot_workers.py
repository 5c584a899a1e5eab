"""The bot-worker component (k8s/components/bot-workers, issue 34): rendered on top of the base,
schema-valid, scaled by an HPA on the bot queue's depth, allowed to reach Redis, and the serving
pods then start no thinking processes of their own."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import yaml

from tests.k8s.support import K8S, KUBERNETES_VERSIONS, config_data, kubectl, one, schema_errors


@pytest.fixture(scope="module")
def objs(tmp_path_factory):
    root = tmp_path_factory.mktemp("k8s") / "k8s"
    shutil.copytree(K8S, root)
    overlay = root / "overlays" / "with-bots"
    overlay.mkdir()
    (overlay / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
        "resources:\n  - ../../base\ncomponents:\n  - ../../components/bot-workers\n")
    r = subprocess.run([kubectl(), "kustomize", str(overlay)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [d for d in yaml.safe_load_all(r.stdout) if d]


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_object_validates(objs, version):
    errors = [e for o in objs for e in schema_errors(o, version)]
    assert not errors, errors


def test_the_hpa_scales_the_bot_workers_on_the_queue_depth(objs):
    hpa = one(objs, "HorizontalPodAutoscaler", "tablero-bots")
    assert hpa["spec"]["scaleTargetRef"]["name"] == "tablero-bots"
    (metric,) = hpa["spec"]["metrics"]
    assert metric["external"]["metric"]["name"] == "tablero_bot_queue_depth"
    dep = one(objs, "Deployment", "tablero-bots")
    (c,) = dep["spec"]["template"]["spec"]["containers"]
    assert c["command"][:2] == ["tablero", "bots"]
    assert c["resources"]["requests"] and c["resources"]["limits"]
    assert "--metrics-port" in c["command"]


def test_redis_admits_the_bot_workers_and_servers_start_no_pool(objs):
    policy = one(objs, "NetworkPolicy", "redis")
    # Tablero's pods admitted to Redis's port (the exporter's and the backup's rules aside).
    components = {f["podSelector"]["matchLabels"]["app.kubernetes.io/component"]
                  for rule in policy["spec"]["ingress"] if any(p["port"] == 6379 for p in rule["ports"])
                  for f in rule["from"]
                  if f.get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/name") == "tablero"}
    assert components == {"server", "bot-worker"}
    assert config_data(objs)["TABLERO_BOT_PROCESSES"] == "0"


def test_the_bot_workers_are_held_by_a_network_policy_as_the_servers_are(objs):
    """(outside acceptance pass: no policy selected them, so their egress was open and their
    /metrics reachable from every namespace)"""
    policy = one(objs, "NetworkPolicy", "tablero-bots")
    assert policy["spec"]["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "tablero",
                                                            "app.kubernetes.io/component": "bot-worker"}
    dep = one(objs, "Deployment", "tablero-bots")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert all(labels.get(k) == v for k, v in policy["spec"]["podSelector"]["matchLabels"].items())
    assert set(policy["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    (inbound,) = policy["spec"]["ingress"]
    assert [p["port"] for p in inbound["ports"]] == [9090] and "namespaceSelector" in inbound["from"][0]
    out_ports = sorted(p["port"] for rule in policy["spec"]["egress"] for p in rule["ports"])
    assert out_ports == [53, 53, 6379]


def test_on_the_ha_overlay_the_bot_workers_reach_redis_as_its_servers_do(tmp_path):
    """An outside pass added bot-workers to the `ha` overlay: it built, but the bot workers had the
    ConfigMap's plain redis:// URL (ha's Redis takes TLS and a password, through Sentinels), no CA,
    no place in Redis's NetworkPolicy (ha's patch replaces its list) and no egress to the
    Sentinels. k8s/components/bot-workers-ha gives them what ha's servers have."""
    root = tmp_path / "k8s"
    shutil.copytree(K8S, root)
    ha = root / "overlays" / "ha" / "kustomization.yaml"
    ha.write_text(ha.read_text() + "\ncomponents:\n  - ../../components/bot-workers-ha\n")
    r = subprocess.run([kubectl(), "kustomize", str(ha.parent)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    objs = [d for d in yaml.safe_load_all(r.stdout) if d]
    server = one(objs, "Deployment", "tablero")["spec"]["template"]["spec"]
    bots = one(objs, "Deployment", "tablero-bots")["spec"]["template"]["spec"]
    (sc,), (bc,) = server["containers"], bots["containers"]
    env = {e["name"]: e for e in bc["env"]}
    assert env["TABLERO_REDIS_URL"] == {e["name"]: e for e in sc["env"]}["TABLERO_REDIS_URL"]
    assert env["TABLERO_REDIS_URL"]["value"].startswith("rediss+sentinel://:$(REDIS_PASSWORD)@")
    assert env["REDIS_PASSWORD"]["valueFrom"]["secretKeyRef"]["name"] == "redis-auth"
    assert [m["mountPath"] for m in bc["volumeMounts"] if m["name"] == "redis-tls"] == ["/etc/tablero/redis-tls"]
    assert any(v["name"] == "redis-tls" for v in bots["volumes"])
    redis = one(objs, "NetworkPolicy", "redis")
    admitted = {(f["podSelector"]["matchLabels"].get("app.kubernetes.io/component"), p["port"])
                for rule in redis["spec"]["ingress"] for f in rule["from"] if "podSelector" in f
                for p in rule["ports"]}
    assert {("bot-worker", 6379), ("bot-worker", 26379)} <= admitted
    egress = one(objs, "NetworkPolicy", "tablero-bots")["spec"]["egress"][0]
    assert {p["port"] for p in egress["ports"]} == {6379, 26379}
    assert config_data(objs)["TABLERO_BOT_PROCESSES"] == "0"
    for version in KUBERNETES_VERSIONS:
        assert not [e for o in objs for e in schema_errors(o, version)]


def test_on_the_ha_overlay_every_container_runs_the_pinned_images(tmp_path):
    """Outside operator pass: with bot-workers-ha on the `ha` overlay the bot workers ran image
    `tablero` (docker.io/library/tablero:latest, never the release) and the Sentinels
    `redis:7.4-alpine` beside the pinned `redis:7.4.2-alpine`: production's `images:` pins only what
    production itself renders, not what ha adds on top of it."""
    root = tmp_path / "k8s"
    shutil.copytree(K8S, root)
    ha = root / "overlays" / "ha" / "kustomization.yaml"
    ha.write_text(ha.read_text() + "\ncomponents:\n  - ../../components/bot-workers-ha\n")
    r = subprocess.run([kubectl(), "kustomize", str(ha.parent)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    objs = [d for d in yaml.safe_load_all(r.stdout) if d]
    pins = {p["name"]: p for p in yaml.safe_load((K8S / "overlays" / "production" / "kustomization.yaml")
                                                   .read_text())["images"]}
    tablero = f"{pins['tablero']['newName']}:{pins['tablero']['newTag']}"
    redis = f"redis:{pins['redis']['newTag']}"
    images = {}
    for obj in objs:
        spec = obj.get("spec") or {}
        template = spec.get("template") or spec.get("jobTemplate", {}).get("spec", {}).get("template")
        for c in (template or {}).get("spec", {}).get("containers", []) if template else []:
            images[(obj["metadata"]["name"], c["name"])] = c["image"]
    assert images[("tablero", "server")] == images[("tablero-bots", "bots")] == tablero, images
    assert {i for i in images.values() if i.startswith("redis:")} == {redis}, images
