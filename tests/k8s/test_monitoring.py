"""k8s/monitoring (issue 36): the PrometheusRule passes `promtool check rules` and `promtool test
rules`; every alert has a runbook in docs/operations.md; the Grafana dashboard is valid for the
Grafana version the manifests name (schema subset + structure; Grafana's own types in
test_grafana_schema.py), its queries are PromQL promtool
accepts, and every series it or the rules read is one the server or redis_exporter exposes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml
from prometheus_client.metrics import MetricWrapperBase
from tablero.server import metrics

from tests.k8s.support import K8S, REPO, SCHEMAS, one, render, schema_errors

MONITORING = K8S / "monitoring"
DASHBOARD = json.loads((MONITORING / "grafana-dashboard-tablero.json").read_text())
RULE = yaml.safe_load((MONITORING / "prometheusrule.yaml").read_text())
DOC = (REPO / "docs" / "operations.md").read_text()

# The newest dashboard schemaVersion each Grafana release reads and writes (Grafana migrates
# older ones on load; a newer one is refused or mis-read): the version the manifests name must
# know the dashboard's.
GRAFANA_SCHEMA = {"10.4": 39, "11.0": 39, "11.1": 39, "11.2": 39}
# Panel plugins built into Grafana 11.2 (no plugin install needed).
BUILTIN_PANELS = {"row", "timeseries", "stat", "gauge", "bargauge", "table", "text", "heatmap", "piechart",
                  "state-timeline", "status-history", "histogram", "logs", "barchart", "alertlist"}
# Series from redis_exporter (oliver006/redis_exporter v1.6x) the dashboard and alerts read.
EXPORTER_SERIES = {"redis_up", "redis_memory_used_bytes", "redis_memory_max_bytes", "redis_connected_slaves",
                   "redis_connected_slave_lag_seconds", "redis_instance_info", "redis_master_link_up"}


def promtool() -> str:
    path = shutil.which("promtool")
    assert path, ("promtool is not installed, so the alerting rules cannot be checked: `apt-get install "
                  "prometheus` (Debian's package ships promtool; .ci/run installs it)")
    return path


def _promtool(*args: str, cwd: Path) -> str:
    r = subprocess.run([promtool(), *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert r.returncode == 0, f"promtool {' '.join(args)} failed:\n{r.stdout}\n{r.stderr}"
    return r.stdout


def test_the_rules_pass_promtool_check_and_their_unit_tests(tmp_path):
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(RULE["spec"]))
    shutil.copy(MONITORING / "tests" / "rules.test.yaml", tmp_path / "rules.test.yaml")
    assert "SUCCESS" in _promtool("check", "rules", "rules.yaml", cwd=tmp_path)
    assert "SUCCESS" in _promtool("test", "rules", "rules.test.yaml", cwd=tmp_path)


def test_promtool_test_can_fail(tmp_path):
    """A rule changed under its unit tests is caught (the threshold of the fast burn raised)."""
    broken = json.loads(json.dumps(RULE["spec"]))
    for group in broken["groups"]:
        for rule in group["rules"]:
            if rule.get("alert") == "TableroErrorBudgetBurnFast":
                rule["expr"] = rule["expr"].replace("14.4", "144")
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(broken))
    shutil.copy(MONITORING / "tests" / "rules.test.yaml", tmp_path / "rules.test.yaml")
    r = subprocess.run([promtool(), "test", "rules", "rules.test.yaml"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode != 0 and "TableroErrorBudgetBurnFast" in r.stdout + r.stderr


def _alerts() -> list[dict]:
    return [r for g in RULE["spec"]["groups"] for r in g["rules"] if "alert" in r]


def test_the_alerts_cover_the_issue_and_each_has_a_runbook_section():
    names = {a["alert"] for a in _alerts()}
    assert {"TableroErrorBudgetBurnFast", "TableroErrorBudgetBurnSlow", "TableroLatencyBudgetBurn", "RedisDown",
            "RedisFailover", "RedisMemoryNearMaxmemory", "RedisReplicationLag", "TableroBotQueueBacklog"} <= names
    headings = {h.strip() for h in re.findall(r"^#### (\w+)", DOC, re.M)}
    for alert in _alerts():
        assert alert["labels"]["severity"] in {"page", "ticket"}, alert["alert"]
        anchor = alert["annotations"]["runbook_url"].rsplit("#", 1)[1]
        assert anchor in {h.lower() for h in headings}, (alert["alert"], anchor)
    assert sorted(n for n in names if n not in headings and n != "RedisReplicaLinkDown") == []


def _exposed() -> set[str]:
    from tablero.server.notify import metrics as notify_metrics

    out = set()
    for value in [*vars(metrics).values(), *vars(notify_metrics).values()]:
        if isinstance(value, MetricWrapperBase):
            for family in value.describe():
                base = family.name
                out |= {base + "_total"} if family.type == "counter" else {base}
                if family.type == "histogram":
                    out |= {base + "_bucket", base + "_count", base + "_sum"}
    return out


def _series(expr: str) -> set[str]:
    return {m for m in re.findall(r"\b((?:tablero|redis)_[a-z_]+)\b", expr) if not m.startswith("tablero:")}


def test_every_series_read_exists():
    exposed = _exposed()
    exprs = [r["expr"] for g in RULE["spec"]["groups"] for r in g["rules"]]
    exprs += [t["expr"] for p in DASHBOARD["panels"] for t in p.get("targets", [])]
    read = set().union(*map(_series, exprs))
    assert sorted(s for s in read if s.startswith("tablero_") and s not in exposed) == []
    assert sorted(s for s in read if s.startswith("redis_") and s not in EXPORTER_SERIES) == []


def test_the_dashboard_validates_against_the_schema_of_the_grafana_version_the_manifests_name():
    configmap = one(render("monitoring"), "ConfigMap", "grafana-dashboard-tablero")
    named = configmap["metadata"]["annotations"]["tablero.dev/grafana-version"]
    assert configmap["metadata"]["labels"]["grafana_dashboard"] == "1"  # the sidecar provisions it
    assert json.loads(configmap["data"]["grafana-dashboard-tablero.json"]) == DASHBOARD
    required = {r["id"]: r["version"] for r in DASHBOARD["__requires"]}
    assert required["grafana"] == named
    assert DASHBOARD["schemaVersion"] <= GRAFANA_SCHEMA[".".join(named.split(".")[:2])]
    schema = json.loads((SCHEMAS / "grafana-dashboard-v39.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
              for e in jsonschema.Draft202012Validator(schema).iter_errors(DASHBOARD)]
    assert errors == []


def test_the_dashboard_schema_can_fail():
    schema = json.loads((SCHEMAS / "grafana-dashboard-v39.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for mutate in (lambda d: d["panels"][1].pop("targets"), lambda d: d["panels"][1]["gridPos"].update(w=30),
                   lambda d: d["panels"][1].update(tagets=[]), lambda d: d.pop("schemaVersion"),
                   lambda d: d["panels"][1]["targets"][0].update(refId="a b")):
        broken = json.loads(json.dumps(DASHBOARD))
        mutate(broken)
        assert list(validator.iter_errors(broken)), mutate


def test_the_dashboard_is_well_formed_for_grafana():
    panels = DASHBOARD["panels"]
    ids = [p["id"] for p in panels]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    variables = {v["name"]: v for v in DASHBOARD["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["datasource"]["query"] == "prometheus"
    cells: set[tuple[int, int]] = set()
    for p in panels:
        assert p["type"] in BUILTIN_PANELS, p["type"]
        g = p["gridPos"]
        assert g["x"] + g["w"] <= 24, p["title"]
        mine = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
        assert not mine & cells, f"panel {p['title']!r} overlaps another"
        cells |= mine
        if p["type"] == "row":
            continue
        assert p["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, p["title"]
        refs = [t["refId"] for t in p["targets"]]
        assert len(refs) == len(set(refs)), p["title"]
        for t in p["targets"]:
            assert t["datasource"] == p["datasource"]
            for var in re.findall(r"\$(\w+)", t["expr"]):
                assert var in variables or var.startswith("__"), (p["title"], var)


def test_the_dashboard_covers_what_the_issue_lists():
    exprs = " ".join(t["expr"] for p in DASHBOARD["panels"] for t in p.get("targets", []))
    for series in ("tablero_rpc_requests_total", "tablero_rpc_latency_seconds_bucket", "tablero_actions_total",
                   "tablero_watch_streams", "tablero_store_latency_seconds_bucket", "tablero_append_conflicts_total",
                   "tablero_cache_hits_total", "tablero_bot_backlog", "tablero_games_running",
                   "tablero_notify_queue_depth",
                   "redis_memory_used_bytes", "redis_connected_slave_lag_seconds"):
        assert series in exprs, series
    assert "by (method, transport)" in exprs and "by (engine" in exprs


def test_the_dashboard_queries_are_promql(tmp_path):
    """Each query, with Grafana's variables put in, as a recording rule: promtool parses it."""
    rules = []
    for p in DASHBOARD["panels"]:
        for t in p.get("targets", []):
            expr = t["expr"].replace("$__rate_interval", "5m").replace("$namespace", ".*")
            rules.append({"record": f"dashboard:panel{p['id']}:{t['refId'].lower()}", "expr": expr})
    (tmp_path / "dashboard.yaml").write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    assert "SUCCESS" in _promtool("check", "rules", "dashboard.yaml", cwd=tmp_path)


@pytest.mark.parametrize("name", ["monitoring", "edge/ingress", "edge/gateway"])
def test_the_other_kustomizations_render_and_validate(name):
    objs = render(name)
    assert objs
    assert [e for o in objs for e in schema_errors(o, "1.30")] == []


def test_ingress_and_gateway_routes_reach_the_api_service_over_tls_and_never_metrics():
    base = render("base")
    service = one(base, "Service", "tablero")
    ports = {p["name"]: p["port"] for p in service["spec"]["ports"]}
    ingresses = render("edge/ingress")
    for ingress in ingresses:
        assert ingress["spec"]["tls"] and ingress["spec"]["tls"][0]["secretName"] == "tablero-tls"
        hosts = {r["host"] for r in ingress["spec"]["rules"]}
        assert hosts <= set(ingress["spec"]["tls"][0]["hosts"])
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                assert backend["name"] == "tablero" and backend["port"]["name"] in ports
    grpc_ingress = one(ingresses, "Ingress", "tablero-grpc")
    assert grpc_ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/backend-protocol"] == "GRPC"
    objs = render("edge/gateway")
    gateway = one(objs, "Gateway")
    listeners = {listener["name"]: listener for listener in gateway["spec"]["listeners"]}
    for listener in listeners.values():
        assert listener["protocol"] == "HTTPS" and listener["tls"]["mode"] == "Terminate"
    http, grpc = one(objs, "HTTPRoute"), one(objs, "GRPCRoute")
    for route, port in ((http, ports["http"]), (grpc, ports["grpc"])):
        (parent,) = route["spec"]["parentRefs"]
        assert parent["name"] == gateway["metadata"]["name"]
        assert set(route["spec"]["hostnames"]) == {listeners[parent["sectionName"]]["hostname"]}
        assert {b["port"] for r in route["spec"]["rules"] for b in r["backendRefs"]} == {port}
    assert set(http["spec"]["hostnames"]).isdisjoint(grpc["spec"]["hostnames"])
    assert 9090 not in ports.values()


def test_the_ha_overlay_runs_three_redis_with_sentinels_and_replicated_acks():
    objs = render("overlays/ha")
    redis = one(objs, "StatefulSet", "redis")
    names = [c["name"] for c in redis["spec"]["template"]["spec"]["containers"]]
    assert redis["spec"]["replicas"] == 3 and sorted(names) == ["exporter", "redis", "sentinel"]
    data = {k: v for o in objs if o["kind"] == "ConfigMap" for k, v in (o.get("data") or {}).items()}
    assert "sentinel monitor tablero $master 6379 2" in data["start-sentinel.sh"]
    assert data["TABLERO_REDIS_MIN_REPLICAS_ACK"] == "1"
    assert one(objs, "PodDisruptionBudget", "redis")["spec"]["minAvailable"] == 2
    assert one(objs, "Service", "redis")["spec"]["publishNotReadyAddresses"] is True
    for script in ("start-redis.sh", "start-sentinel.sh"):
        r = subprocess.run(["sh", "-n", str(K8S / "overlays" / "ha" / script)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    for o in objs:
        for c in (o.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or []):
            for e in c.get("env", []):
                ref = (e.get("valueFrom") or {}).get("secretKeyRef")
                if ref and ref["name"] == "redis-auth":
                    assert not find_secret(objs, "redis-auth"), "the password is created out of band"


def find_secret(objs: list[dict], name: str) -> list[dict]:
    return [o for o in objs if o["kind"] == "Secret" and o["metadata"]["name"] == name]


def _targets() -> list[tuple[str, dict]]:
    def panels(ps: list[dict]) -> list[dict]:
        return [x for p in ps for x in (p, *panels(p.get("panels", [])))]

    return [(p.get("title", ""), t) for p in panels(DASHBOARD["panels"]) for t in p.get("targets", [])]


def test_the_dashboard_legends_are_grafana_templates_not_escaped_braces():
    """`{{{{target}}}}` (a Python format string's escape, written out) rendered literally."""
    assert "{{{" not in json.dumps(DASHBOARD) and "}}}" not in json.dumps(DASHBOARD)
    for title, t in _targets():
        for label in re.findall(r"\{\{\s*(\w+)\s*\}\}", t.get("legendFormat", "")):
            assert re.search(rf"by \([^)]*\b{label}\b", t["expr"]) or label in ("pod",), (title, label)


def test_store_wide_gauges_are_aggregated_with_max_not_summed_over_replicas():
    """Every replica (and worker) reports the same store-wide figure (metrics.GAUGE_MAX): a sum
    over replicas overstates it by their number."""
    store_wide = metrics.GAUGE_MAX - {"tablero_build_info"}  # (build_info: counted, one per replica)
    read = 0
    for title, t in _targets():
        for name in store_wide & _series(t["expr"]):
            read += 1
            assert re.search(rf"\bmax(?: by \([^)]*\))? ?\({name}\b", t["expr"]), (title, t["expr"])
    for rule in (r for g in RULE["spec"]["groups"] for r in g["rules"]):
        for name in store_wide & _series(rule["expr"]):
            assert re.search(rf"\bmax(?: by \([^)]*\))? ?\({name}\b", rule["expr"]), rule
    assert read >= 4  # the bot queue's two and the notify queue's two
