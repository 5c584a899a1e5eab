"""kustomize_lite renders like kustomize v5 for the features it claims, and refuses the rest."""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
import yaml

from tests.k8s.kustomize_lite import KustomizeError, Unsupported, build, kustomize_hash, split_image, strategic_merge
from tests.k8s.support import renderings

DEPLOYMENT = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: registry.local:5000/team/web:1.0
          args: [--a, --b]
          env:
            - name: MODE
              valueFrom:
                configMapKeyRef: {name: settings, key: MODE}
          envFrom:
            - configMapRef: {name: settings}
          volumeMounts:
            - {name: tmp, mountPath: /tmp}
        - name: sidecar
          image: busybox
      volumes:
        - name: tmp
          emptyDir: {}
        - name: conf
          configMap: {name: settings}
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A base and an overlay exercising every feature kustomize_lite implements."""
    return write(
        tmp_path,
        {
            "base/kustomization.yaml": """
                resources: [deployment.yaml, ns.yaml]
                labels:
                  - pairs: {team: games}
                configMapGenerator:
                  - name: settings
                    literals: [MODE=fast, "URL=redis://r:6379/0?a=1&b=<2>"]
            """,
            "base/deployment.yaml": DEPLOYMENT,
            "base/ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: whatever\n",
            "overlay/kustomization.yaml": """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                namespace: prod
                resources: [../base, svc.yaml]
                images:
                  - name: registry.local:5000/team/web
                    newName: ghcr.io/team/web
                    newTag: "2.0"
                  - name: busybox
                    newTag: "1.36"
                configMapGenerator:
                  - name: settings
                    behavior: merge
                    literals: [MODE=slow]
                patches:
                  - path: patch.yaml
                  - patch: |-
                      $patch: delete
                      apiVersion: v1
                      kind: Service
                      metadata:
                        name: gone
            """,
            "overlay/svc.yaml": """
                apiVersion: v1
                kind: Service
                metadata: {name: gone}
                spec:
                  ports: [{port: 80}]
            """,
            "overlay/patch.yaml": """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  replicas: 3
                  template:
                    spec:
                      containers:
                        - name: web
                          args: [--c]
                          env:
                            - {name: EXTRA, value: "1"}
                          volumeMounts:
                            - {name: data, mountPath: /data}
                      volumes:
                        - name: data
                          emptyDir: {}
                        - name: conf
                          configMap: {defaultMode: 420}
                  selector: null
            """,
        },
    )


def by_kind(objs):
    return {o["kind"]: o for o in objs}


def test_config_map_hash_matches_kustomize_v5_outputs():
    # Golden names printed by `kubectl kustomize` (kustomize v5.5.0) for these literals.
    plain = {"kind": "ConfigMap", "metadata": {"name": "cfg"}, "data": {"A": "1", "B": "2"}}
    escaped = {"kind": "ConfigMap", "metadata": {"name": "cfg"}, "data": {"A": "1", "B": "<x>&é"}}
    assert kustomize_hash(plain) == "66h9cbh964"
    assert kustomize_hash(escaped) == "585b9h92b4"


def test_split_image_handles_registry_ports_tags_and_digests():
    assert split_image("redis") == ("redis", None, None)
    assert split_image("redis:7.4-alpine") == ("redis", "7.4-alpine", None)
    assert split_image("registry.local:5000/team/web") == ("registry.local:5000/team/web", None, None)
    assert split_image("registry.local:5000/web:1@sha256:ab") == ("registry.local:5000/web", "1", "sha256:ab")


def test_base_generates_hashed_config_map_and_rewrites_every_reference(project):
    objs = by_kind(build(project / "base"))
    name = objs["ConfigMap"]["metadata"]["name"]
    assert name == "settings-" + kustomize_hash(objs["ConfigMap"])
    pod = objs["Deployment"]["spec"]["template"]["spec"]
    web = pod["containers"][0]
    assert web["envFrom"][0]["configMapRef"]["name"] == name
    assert web["env"][0]["valueFrom"]["configMapKeyRef"]["name"] == name
    assert pod["volumes"][1]["configMap"]["name"] == name
    # labels: metadata only, never selectors or templates
    assert objs["Deployment"]["metadata"]["labels"] == {"app": "web", "team": "games"}
    assert objs["Deployment"]["spec"]["selector"]["matchLabels"] == {"app": "web"}
    assert objs["Deployment"]["spec"]["template"]["metadata"]["labels"] == {"app": "web"}
    assert objs["ConfigMap"]["metadata"]["labels"] == {"team": "games"}
    assert "namespace" not in objs["Deployment"]["metadata"]


def test_overlay_merges_generator_patches_namespaces_and_retags(project):
    objs = build(project / "overlay")
    kinds = by_kind(objs)
    assert "Service" not in kinds  # deleted by the inline $patch: delete
    assert kinds["Namespace"]["metadata"]["name"] == "prod"
    assert all(o["metadata"]["namespace"] == "prod" for o in objs if o["kind"] != "Namespace")
    config = kinds["ConfigMap"]
    assert config["data"] == {"MODE": "slow", "URL": "redis://r:6379/0?a=1&b=<2>"}
    deployment = kinds["Deployment"]
    assert deployment["spec"]["replicas"] == 3
    assert "selector" not in deployment["spec"]  # null deletes
    web, sidecar = deployment["spec"]["template"]["spec"]["containers"]
    assert web["image"] == "ghcr.io/team/web:2.0"
    assert sidecar["image"] == "busybox:1.36"
    assert web["args"] == ["--c"]  # atomic list: replaced
    assert [e["name"] for e in web["env"]] == ["EXTRA", "MODE"]  # merged by name, patch first
    assert [m["mountPath"] for m in web["volumeMounts"]] == ["/data", "/tmp"]
    volumes = {v["name"]: v for v in deployment["spec"]["template"]["spec"]["volumes"]}
    assert volumes["conf"]["configMap"] == {"name": config["metadata"]["name"], "defaultMode": 420}
    assert web["envFrom"][0]["configMapRef"]["name"] == config["metadata"]["name"]


def test_replace_behavior_drops_the_base_keys(project):
    kust = project / "overlay" / "kustomization.yaml"
    kust.write_text(kust.read_text().replace("behavior: merge", "behavior: replace"))
    assert by_kind(build(project / "overlay"))["ConfigMap"]["data"] == {"MODE": "slow"}


@pytest.mark.parametrize(
    ("edit", "error"),
    [
        (("namespace: prod", "namePrefix: x-\nnamespace: prod"), Unsupported),
        (("behavior: merge", "behavior: create"), KustomizeError),
        (("behavior: merge", "behavior: merge\n    files: [a.env]"), Unsupported),
        (("name: gone", "name: absent"), KustomizeError),
        (("  - path: patch.yaml", "  - path: patch.yaml\n    target: {kind: Deployment}"), Unsupported),
        (("resources: [../base, svc.yaml]", "resources: [../base, svc.yaml, svc.yaml]"), KustomizeError),
        (("resources: [../base, svc.yaml]", "resources: [../base, https://example.com/x.yaml]"), KustomizeError),
        (("newTag: \"2.0\"", "digest: sha256:00"), Unsupported),
    ],
)
def test_refuses_what_it_does_not_implement_or_cannot_resolve(project, edit, error):
    kust = project / "overlay" / "kustomization.yaml"
    old, new = edit
    assert old in kust.read_text()
    kust.write_text(kust.read_text().replace(old, new, 1))
    with pytest.raises(error):
        build(project / "overlay")


def test_refuses_lists_whose_merge_semantics_it_does_not_know():
    base = {"spec": {"ports": [{"port": 80}]}}
    with pytest.raises(Unsupported):
        strategic_merge(base, {"spec": {"ports": [{"port": 81}]}})
    with pytest.raises(Unsupported):
        strategic_merge(base, {"spec": {"$retainKeys": ["ports"]}})


def test_refuses_multi_document_patches_and_unknown_kinds(project):
    patch = project / "overlay" / "patch.yaml"
    patch.write_text(patch.read_text() + "---\n" + patch.read_text())
    with pytest.raises(Unsupported):
        build(project / "overlay")
    write(project, {"base/cron.yaml": "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\n"})
    kust = project / "base" / "kustomization.yaml"
    kust.write_text(kust.read_text().replace("ns.yaml]", "ns.yaml, cron.yaml]"))
    with pytest.raises(Unsupported):
        build(project / "base")


# --- against the real thing -----------------------------------------------------------------------

KUBECTL = shutil.which("kubectl")
needs_kubectl = pytest.mark.skipif(KUBECTL is None, reason="kubectl (with built-in kustomize) is not installed")


def kubectl_kustomize(path: Path) -> list[dict]:
    out = subprocess.run([KUBECTL, "kustomize", str(path)], capture_output=True, text=True, check=True, timeout=60)
    return [d for d in yaml.safe_load_all(out.stdout) if d]


def keyed(objs: list[dict]) -> dict[tuple, dict]:
    return {(o["apiVersion"], o["kind"], o["metadata"].get("namespace"), o["metadata"]["name"]): o for o in objs}


@needs_kubectl
@pytest.mark.parametrize("name", list(renderings()))
def test_renders_k8s_exactly_like_kubectl_kustomize(name):
    path = renderings()[name]
    assert keyed(build(path)) == keyed(kubectl_kustomize(path))


@needs_kubectl
def test_renders_the_feature_fixture_exactly_like_kubectl_kustomize(project):
    for directory in ("base", "overlay"):
        assert keyed(build(project / directory)) == keyed(kubectl_kustomize(project / directory))

