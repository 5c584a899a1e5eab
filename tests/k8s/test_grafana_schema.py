"""The Grafana dashboard against Grafana's own schema (issue 36): @grafana/schema, the npm package
Grafana publishes with the TypeScript types it generates from its CUE dashboard and panel
schemas, pinned (tests/k8s/grafana_schema/package-lock.json) to the Grafana version the
manifests name. No JSON Schema ships in it (nor in any Grafana package on npm or PyPI), so the
check is tsc's: the dashboard as an object literal typed `Dashboard`, each panel typed `Panel`
with its plugin's Options and FieldConfig; an unknown field, a missing required one or a wrong
type fails. Node comes from the machine; the npm packages are installed into a cache folder,
once per lock file."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.k8s.support import K8S

HERE = Path(__file__).resolve().parent / "grafana_schema"
DASHBOARD = json.loads((K8S / "monitoring" / "grafana-dashboard-tablero.json").read_text())
# "Export for sharing externally" adds these around the dashboard model; import strips them.
EXPORT_ENVELOPE = ("__inputs", "__requires", "__elements")
PANEL_TYPES = {"timeseries": "TimeSeriesPanel", "stat": "StatPanel"}


@pytest.fixture(scope="module")
def node_modules() -> Path:
    lock = (HERE / "package-lock.json").read_bytes()
    home = Path(os.environ.get("TABLERO_TEST_CACHE", Path.home() / ".cache" / "tablero-tests"))
    cache = home / f"grafana-schema-{hashlib.sha256(lock).hexdigest()[:16]}"
    if not (cache / "node_modules" / ".package-lock.json").exists():
        cache.mkdir(parents=True, exist_ok=True)
        shutil.copy(HERE / "package.json", cache)
        shutil.copy(HERE / "package-lock.json", cache)
        npm = shutil.which("npm")
        assert npm, "npm is missing (Debian package npm)"
        r = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=cache, capture_output=True, text=True,
                           timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
    return cache / "node_modules"


def _tsc(dashboard: dict, node_modules: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    assert node, "node is missing (Debian package nodejs)"
    model = {k: v for k, v in dashboard.items() if k not in EXPORT_ENVELOPE}
    code = [(HERE / "check.head.ts").read_text(), f"export const dashboard: Json<Dashboard> = {json.dumps(model, indent=1)};"]
    panels = [p for p in model["panels"] if p["type"] != "row"]
    assert {p["type"] for p in panels} <= set(PANEL_TYPES), "a panel type this check does not type yet"
    for i, panel in enumerate(panels):
        code.append(f"export const panel{i}: {PANEL_TYPES[panel['type']]} = {json.dumps(panel, indent=1)};")
    (tmp / "check.ts").write_text("\n".join(code) + "\n")
    shutil.copy(HERE / "tsconfig.json", tmp)
    (tmp / "node_modules").symlink_to(node_modules)
    return subprocess.run([node, str(node_modules / "typescript" / "bin" / "tsc"), "-p", str(tmp)],
                          capture_output=True, text=True, timeout=300)


def test_the_pinned_schema_is_the_grafana_version_the_manifests_name():
    lock = json.loads((HERE / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/@grafana/schema"]["version"]
    required = {r["id"]: r["version"] for r in DASHBOARD["__requires"]}["grafana"]
    kustomization = (K8S / "monitoring" / "kustomization.yaml").read_text()
    assert pinned == required and f'tablero.dev/grafana-version: "{pinned}"' in kustomization


def test_the_dashboard_type_checks_against_grafanas_schema(node_modules, tmp_path):
    r = _tsc(DASHBOARD, node_modules, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("breakage", ["unknown panel field", "typo in options", "wrong type", "bad enum",
                                      "missing gridPos.h"])
def test_the_check_can_fail(node_modules, tmp_path, breakage):
    d = copy.deepcopy(DASHBOARD)
    ts = next(p for p in d["panels"] if p["type"] == "timeseries")
    stat = next(p for p in d["panels"] if p["type"] == "stat")
    if breakage == "unknown panel field":
        ts["datasorce"] = ts.get("datasource")
    elif breakage == "typo in options":
        ts.setdefault("options", {})["legnd"] = {"showLegend": True}
    elif breakage == "wrong type":
        d["refresh"] = 30
    elif breakage == "bad enum":
        stat.setdefault("options", {})["graphMode"] = "sparkline"
    else:
        del ts["gridPos"]["h"]
    r = _tsc(d, node_modules, tmp_path)
    assert r.returncode != 0, f"tsc accepted the dashboard with a {breakage}"
    assert "check.ts" in r.stdout
