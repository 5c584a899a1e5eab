"""The manifests under k8s/: rendered offline (base and every overlay), schema-valid, and consistent.

Schemas: kubernetes-validate's bundled Kubernetes JSON schemas (strict), for the versions in
support.KUBERNETES_VERSIONS; the ServiceMonitor CRD against the hand-written subset in schemas/.
"""

from __future__ import annotations

import copy
import re
from urllib.parse import urlsplit

import pytest

from tests.k8s.support import (
    KUBERNETES_VERSIONS,
    config_data,
    containers,
    find,
    one,
    pod_labels,
    quantity,
    render,
    renderings,
    schema_errors,
    selects,
)

RENDERINGS = list(renderings())
SCALED_OUT = [name for name in RENDERINGS if find(render(name), "StatefulSet", "redis")]
PLACEHOLDER = "CHANGE-ME"


def server(objs):
    return one(objs, "Deployment", "tablero")


def server_container(objs):
    return next(c for c in server(objs)["spec"]["template"]["spec"]["containers"] if c["name"] == "server")


def port_number(container, port):
    """A probe's or Service's target port (number or name) as the container port number."""
    if isinstance(port, int):
        return port
    return next(p["containerPort"] for p in container["ports"] if p.get("name") == port)


# --- every rendering is there and valid ----------------------------------------------------------


def test_base_and_production_and_dev_are_rendered():
    assert {"base", "overlays/production", "overlays/dev"} <= set(RENDERINGS)
    assert {"base", "overlays/production"} <= set(SCALED_OUT)


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("name", RENDERINGS)
def test_every_object_validates_against_the_kubernetes_schemas(name, version):
    objs = render(name)
    assert objs
    errors = [err for obj in objs for err in schema_errors(obj, version)]
    assert errors == []


@pytest.mark.parametrize("name", RENDERINGS)
def test_object_names_are_unique_and_dns_safe(name):
    objs = render(name)
    keys = [(o["kind"], o["metadata"].get("namespace"), o["metadata"]["name"]) for o in objs]
    assert len(keys) == len(set(keys))
    for kind, _, obj_name in keys:
        assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", obj_name) and len(obj_name) <= 63, (kind, obj_name)


# --- the validator can fail ----------------------------------------------------------------------


def _broken_variants(deployment):
    def typo(d):
        d["spec"]["replica"] = 3

    def wrong_type(d):
        d["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = "fifty"

    def missing_required(d):
        del d["spec"]["template"]["spec"]["containers"][0]["name"]

    def nested_typo(d):
        d["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["grpc"]["prot"] = 50051

    def removed_api(d):
        d["apiVersion"] = "extensions/v1beta1"

    for mutate in (typo, wrong_type, missing_required, nested_typo, removed_api):
        broken = copy.deepcopy(deployment)
        mutate(broken)
        yield mutate.__name__, broken


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_validator_rejects_broken_deployments(version):
    deployment = server(render("base"))
    assert schema_errors(deployment, version) == []
    for label, broken in _broken_variants(deployment):
        assert schema_errors(broken, version), f"{label} was not caught"


def test_schemas_are_versioned_so_the_prestop_sleep_is_unknown_to_1_28():
    # Why 1.30 is the oldest supported version: the native sleep action came (alpha) in 1.29.
    deployment = server(render("base"))
    assert any("sleep" in e for e in schema_errors(deployment, "1.28"))


def test_validator_rejects_broken_service_monitors():
    monitor = one(render("base"), "ServiceMonitor", "tablero")
    assert schema_errors(monitor, KUBERNETES_VERSIONS[0]) == []
    broken = []
    for path, value in [
        (("spec", "endpoints", 0, "port"), 8080),
        (("spec", "endpoints", 0, "interval"), "30 seconds"),
        (("spec", "endpoints", 0, "scheme"), "grpc"),
        (("spec", "endpoints", 0, "pth"), "/metrics"),
        (("spec", "selecter"), {}),
    ]:
        obj = copy.deepcopy(monitor)
        node = obj
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        broken.append(obj)
    no_selector = copy.deepcopy(monitor)
    del no_selector["spec"]["selector"]
    broken.append(no_selector)
    for obj in broken:
        assert schema_errors(obj, KUBERNETES_VERSIONS[0]), obj["spec"]


def test_unknown_kinds_are_errors_not_silently_skipped():
    unknown = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}
    assert schema_errors(unknown, KUBERNETES_VERSIONS[0])


# --- the server Deployment ------------------------------------------------------------------------


@pytest.mark.parametrize("name", SCALED_OUT)
def test_scaled_out_renderings_run_at_least_two_replicas_under_an_hpa(name):
    objs = render(name)
    deployment = server(objs)
    hpa = one(objs, "HorizontalPodAutoscaler")
    assert deployment["spec"]["replicas"] >= 2
    assert hpa["spec"]["minReplicas"] >= 2
    # The Deployment starts where the HPA's floor is, so an apply never scales below it.
    assert deployment["spec"]["replicas"] == hpa["spec"]["minReplicas"]
    assert hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == ("apps/v1", "Deployment", "tablero")
    cpu = [m for m in hpa["spec"]["metrics"] if m["type"] == "Resource" and m["resource"]["name"] == "cpu"]
    assert cpu and cpu[0]["resource"]["target"]["type"] == "Utilization"


@pytest.mark.parametrize("name", RENDERINGS)
def test_probes_use_grpc_health_for_liveness_and_the_store_aware_api_service_for_readiness(name):
    container = server_container(render(name))
    grpc_port = port_number(container, "grpc")
    assert grpc_port == 50051
    for probe in ("startupProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == grpc_port, probe
        assert container[probe]["grpc"].get("service", "") == "", probe
    readiness = container["readinessProbe"]["grpc"]
    assert readiness["port"] == grpc_port
    assert readiness["service"] == "tablero.v1.GameService"


@pytest.mark.parametrize("name", RENDERINGS)
def test_config_ports_match_container_ports(name):
    objs = render(name)
    data = config_data(objs)
    container = server_container(objs)
    assert int(data["TABLERO_GRPC_PORT"]) == port_number(container, "grpc")
    assert int(data["TABLERO_HTTP_PORT"]) == port_number(container, "http")


@pytest.mark.parametrize("name", RENDERINGS)
def test_grace_period_covers_prestop_sleep_and_server_drain(name):
    objs = render(name)
    pod = server(objs)["spec"]["template"]["spec"]
    sleep = server_container(objs)["lifecycle"]["preStop"]["sleep"]["seconds"]
    drain = float(config_data(objs)["TABLERO_SHUTDOWN_GRACE"])
    assert 1 <= sleep <= 15
    assert pod["terminationGracePeriodSeconds"] >= 30
    assert pod["terminationGracePeriodSeconds"] >= sleep + drain + 5


@pytest.mark.parametrize("name", RENDERINGS)
def test_every_container_has_requests_and_limits(name):
    for workload in find(render(name), "Deployment") + find(render(name), "StatefulSet"):
        for container in containers(workload):
            resources = container["resources"]
            for kind in ("cpu", "memory"):
                request, limit = resources["requests"][kind], resources["limits"][kind]
                assert quantity(request) <= quantity(limit), (workload["metadata"]["name"], kind)


@pytest.mark.parametrize("name", RENDERINGS)
def test_pods_meet_the_restricted_pod_security_standard(name):
    for workload in find(render(name), "Deployment") + find(render(name), "StatefulSet"):
        pod = workload["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] > 0
        assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
        assert pod["automountServiceAccountToken"] is False
        assert not pod.get("hostNetwork") and not pod.get("hostPID")
        for container in containers(workload):
            security = container["securityContext"]
            assert security["allowPrivilegeEscalation"] is False
            assert security["readOnlyRootFilesystem"] is True
            assert security["capabilities"]["drop"] == ["ALL"]
            assert "add" not in security["capabilities"]


@pytest.mark.parametrize("name", RENDERINGS)
def test_server_replicas_spread_across_nodes(name):
    deployment = server(render(name))
    spread = deployment["spec"]["template"]["spec"]["topologySpreadConstraints"]
    by_key = {c["topologyKey"]: c for c in spread}
    node = by_key["kubernetes.io/hostname"]
    assert node["whenUnsatisfiable"] == "DoNotSchedule" and node["maxSkew"] == 1
    assert node["nodeTaintsPolicy"] == "Honor"
    for constraint in spread:
        assert selects(constraint["labelSelector"], pod_labels(deployment))


# --- selectors and ports line up -------------------------------------------------------------------


@pytest.mark.parametrize("name", RENDERINGS)
def test_deployment_and_statefulset_selectors_match_their_templates(name):
    for workload in find(render(name), "Deployment") + find(render(name), "StatefulSet"):
        assert selects(workload["spec"]["selector"], pod_labels(workload)), workload["metadata"]["name"]


@pytest.mark.parametrize("name", RENDERINGS)
def test_service_selects_the_server_pods_and_exposes_grpc_and_http(name):
    objs = render(name)
    service = one(objs, "Service", "tablero")
    container = server_container(objs)
    assert selects({"matchLabels": service["spec"]["selector"]}, pod_labels(server(objs)))
    ports = {p["name"]: p for p in service["spec"]["ports"]}
    assert ports["grpc"]["port"] == 50051 and ports["grpc"]["appProtocol"] == "grpc"
    assert ports["http"]["port"] == 8080
    for port in ports.values():
        assert port_number(container, port["targetPort"]) == port["port"]


@pytest.mark.parametrize("name", SCALED_OUT)
def test_pdb_covers_the_server_pods_and_leaves_room_to_drain(name):
    objs = render(name)
    pdb = one(objs, "PodDisruptionBudget", "tablero")
    assert selects(pdb["spec"]["selector"], pod_labels(server(objs)))
    assert 1 <= pdb["spec"]["minAvailable"] < server(objs)["spec"]["replicas"]


@pytest.mark.parametrize("name", SCALED_OUT)
def test_service_monitor_scrapes_metrics_on_their_own_port_not_published_by_the_api_service(name):
    objs = render(name)
    monitor = one(objs, "ServiceMonitor", "tablero")
    metrics = one(objs, "Service", "tablero-metrics")
    api = one(objs, "Service", "tablero")
    container = server_container(objs)
    assert selects(monitor["spec"]["selector"], metrics["metadata"]["labels"])
    # It must not also pick the API Service or the Redis Service.
    assert not selects(monitor["spec"]["selector"], api["metadata"]["labels"])
    assert not selects(monitor["spec"]["selector"], one(objs, "Service", "redis")["metadata"]["labels"])
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["port"] == "metrics" and endpoint["path"] == "/metrics"
    (port,) = metrics["spec"]["ports"]
    assert port["name"] == "metrics" and metrics["spec"]["clusterIP"] == "None"
    assert port_number(container, port["targetPort"]) == int(config_data(objs)["TABLERO_METRICS_PORT"]) == 9090
    assert selects({"matchLabels": metrics["spec"]["selector"]}, pod_labels(server(objs)))
    assert 9090 not in {p["port"] for p in api["spec"]["ports"]}
    assert "metrics" not in {p["name"] for p in api["spec"]["ports"]}


@pytest.mark.parametrize("name", SCALED_OUT)
def test_redis_exporter_is_scraped_beside_each_redis(name):
    objs = render(name)
    monitor = one(objs, "ServiceMonitor", "redis")
    service = one(objs, "Service", "redis")
    redis = one(objs, "StatefulSet", "redis")
    assert selects(monitor["spec"]["selector"], service["metadata"]["labels"])
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["port"] in {p["name"] for p in service["spec"]["ports"]}
    exporter = next(c for c in containers(redis) if c["name"] == "exporter")
    assert exporter["image"].startswith("oliver006/redis_exporter:v")
    assert port_number(exporter, "metrics") == 9121


@pytest.mark.parametrize("name", RENDERINGS)
def test_network_policy_lets_clients_reach_the_server_and_the_server_reach_only_redis_and_dns(name):
    objs = render(name)
    policy = one(objs, "NetworkPolicy", "tablero")
    assert selects(policy["spec"]["podSelector"], pod_labels(server(objs)))
    assert set(policy["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    public, metrics = policy["spec"]["ingress"]
    assert {(p["port"], p["protocol"]) for p in public["ports"]} == {(50051, "TCP"), (8080, "TCP")}
    assert "from" not in public
    # /metrics: from the monitoring namespace only
    assert [(p["port"], p["protocol"]) for p in metrics["ports"]] == [(9090, "TCP")]
    (peer,) = metrics["from"]
    assert peer == {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}
    egress_ports = set()
    for rule in policy["spec"]["egress"]:
        assert rule.get("to"), "an egress rule without `to` would allow every destination"
        egress_ports |= {(p["port"], p["protocol"]) for p in rule["ports"]}
    sentinel = {(26379, "TCP")} if name == "overlays/ha" else set()
    assert egress_ports == {(6379, "TCP"), (53, "UDP"), (53, "TCP")} | sentinel
    redis_rule = next(r for r in policy["spec"]["egress"] if r["ports"][0]["port"] == 6379)
    for redis in find(objs, "StatefulSet", "redis"):
        assert selects(redis_rule["to"][0]["podSelector"], pod_labels(redis))


@pytest.mark.parametrize("name", SCALED_OUT)
def test_redis_accepts_only_server_pods_on_6379(name):
    objs = render(name)
    redis = one(objs, "StatefulSet", "redis")
    policy = one(objs, "NetworkPolicy", "redis")
    assert selects(policy["spec"]["podSelector"], pod_labels(redis))
    assert "Ingress" in policy["spec"]["policyTypes"]
    backup = pod_labels({"spec": one(objs, "CronJob", "redis-backup")["spec"]["jobTemplate"]["spec"]})
    admitted: dict[tuple[int, str], list] = {}
    for rule in policy["spec"]["ingress"]:
        for p in rule["ports"]:
            admitted.setdefault((p["port"], p["protocol"]), []).extend(rule["from"])
    ha = name == "overlays/ha"
    assert set(admitted) == {(6379, "TCP"), (9121, "TCP")} | ({(26379, "TCP")} if ha else set())
    # (HA: bot-worker pods too, when k8s/components/bot-workers-ha adds them: its patch of this
    # policy replaces the list, after any component)
    bots = {"app.kubernetes.io/name": "tablero", "app.kubernetes.io/component": "bot-worker"}
    for peer in admitted[(6379, "TCP")]:
        assert set(peer) == {"podSelector"}
        # server pods, the backup job, and (HA: replication) the Redis pods themselves
        assert any(selects(peer["podSelector"], labels) for labels in
                   (pod_labels(server(objs)), backup, *([pod_labels(redis), bots] if ha else [])))
    assert any(selects(p["podSelector"], pod_labels(server(objs))) for p in admitted[(6379, "TCP")])
    assert any(selects(p["podSelector"], backup) for p in admitted[(6379, "TCP")])
    assert ha == any(selects(p["podSelector"], pod_labels(redis)) for p in admitted[(6379, "TCP")])
    assert admitted[(9121, "TCP")] == [{"namespaceSelector": {"matchLabels": {
        "kubernetes.io/metadata.name": "monitoring"}}}]


# --- Redis, configuration, secrets ------------------------------------------------------------------


def _flags(args):
    return {args[i]: args[i + 1] for i in range(0, len(args) - 1, 2) if args[i].startswith("--")}


@pytest.mark.parametrize("name", SCALED_OUT)
def test_redis_persists_an_append_only_file_on_a_claimed_volume(name):
    objs = render(name)
    redis = one(objs, "StatefulSet", "redis")
    container = next(c for c in containers(redis) if c["name"] == "redis")
    flags = _flags(container["args"])
    assert flags["--appendonly"] == "yes"
    assert flags["--appendfsync"] in {"everysec", "always"}
    assert flags["--maxmemory-policy"] == "noeviction"
    assert quantity(flags["--maxmemory"].replace("gb", "Gi").replace("mb", "Mi")) < quantity(
        container["resources"]["limits"]["memory"]
    )
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    assert claim["spec"]["accessModes"] == ["ReadWriteOnce"]
    assert quantity(claim["spec"]["resources"]["requests"]["storage"]) >= quantity("1Gi")
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts[claim["metadata"]["name"]] == flags["--dir"]
    assert claim["metadata"]["name"] not in {v["name"] for v in redis["spec"]["template"]["spec"].get("volumes", [])}


@pytest.mark.parametrize("name", SCALED_OUT)
def test_server_points_at_the_headless_redis_service(name):
    objs = render(name)
    service = one(objs, "Service", "redis")
    redis = one(objs, "StatefulSet", "redis")
    assert service["spec"]["clusterIP"] == "None"
    assert redis["spec"]["serviceName"] == "redis"
    assert selects({"matchLabels": service["spec"]["selector"]}, pod_labels(redis))
    env = {e["name"]: e for e in server_container(objs).get("env", [])}
    if "TABLERO_REDIS_URL" in env:  # the ha overlay: through the Sentinels, password from the Secret
        text = env["TABLERO_REDIS_URL"]["value"]
        assert env["REDIS_PASSWORD"]["valueFrom"]["secretKeyRef"] == {"name": "redis-auth", "key": "REDIS_PASSWORD"}
        assert list(env).index("REDIS_PASSWORD") < list(env).index("TABLERO_REDIS_URL")  # $(...) expands
        assert text.startswith("rediss+sentinel://:$(REDIS_PASSWORD)@")  # TLS (tests/k8s/test_redis_tls.py)
        from tablero.server.store.redis_sentinel import parse

        parsed = parse(text)
        assert parsed.tls and dict(parsed.tls_options)["ssl_ca_certs"]
        pods = redis["spec"]["replicas"]
        assert pods == 3 and parsed.master == "tablero"
        assert parsed.sentinels == tuple((f"redis-{i}.redis", 26379) for i in range(pods))
        assert 26379 in {p["port"] for p in service["spec"]["ports"]}
        return
    url = urlsplit(config_data(objs)["TABLERO_REDIS_URL"])
    assert url.scheme == "redis"
    namespace = redis["metadata"].get("namespace")
    allowed_hosts = {"redis"} | ({f"redis.{namespace}", f"redis.{namespace}.svc"} if namespace else set())
    assert url.hostname in allowed_hosts
    assert url.port == service["spec"]["ports"][0]["port"] == 6379


@pytest.mark.parametrize("name", RENDERINGS)
def test_several_replicas_never_run_on_per_pod_sqlite(name):
    objs = render(name)
    data = config_data(objs)
    if not data.get("TABLERO_REDIS_URL"):
        assert server(objs)["spec"]["replicas"] == 1
        assert not find(objs, "HorizontalPodAutoscaler")
        assert data["TABLERO_DB"].startswith("/")
        mounts = [m["mountPath"] for m in server_container(objs)["volumeMounts"]]
        assert any(data["TABLERO_DB"].startswith(m + "/") for m in mounts), "SQLite file on a read-only root"


@pytest.mark.parametrize("name", RENDERINGS)
def test_env_sources_exist_except_the_out_of_band_production_secret(name):
    objs = render(name)
    for container in containers(server(objs)):
        for source in container["envFrom"]:
            if "configMapRef" in source:
                assert find(objs, "ConfigMap", source["configMapRef"]["name"])
            else:
                secret = source["secretRef"]["name"]
                present = find(objs, "Secret", secret)
                assert present if name not in ("overlays/production", "overlays/ha") else not present, secret


def test_dev_is_one_replica_on_sqlite_without_the_scale_out_pieces():
    objs = render("overlays/dev")
    assert server(objs)["spec"]["replicas"] == 1
    # Never two pods at once, each on its own SQLite file: a rollout stops the old pod first.
    assert server(objs)["spec"]["strategy"] == {"type": "Recreate"}
    data = config_data(objs)
    assert "TABLERO_REDIS_URL" not in data and data["TABLERO_DB"]
    for kind in ("HorizontalPodAutoscaler", "PodDisruptionBudget", "ServiceMonitor", "StatefulSet", "CronJob"):
        assert not find(objs, kind), kind
    assert [s["metadata"]["name"] for s in find(objs, "Service")] == ["tablero"]


def test_base_ships_only_an_obvious_placeholder_secret():
    (secret,) = find(render("base"), "Secret")
    assert set(secret["stringData"]) == {"TABLERO_SECRET"}
    assert secret["stringData"]["TABLERO_SECRET"].startswith(PLACEHOLDER)


@pytest.mark.parametrize("name", RENDERINGS)
def test_no_rendering_embeds_a_real_looking_secret(name):
    for secret in find(render(name), "Secret"):
        values = list((secret.get("stringData") or {}).values()) + list((secret.get("data") or {}).values())
        assert all(v.startswith(PLACEHOLDER) for v in values)


# --- production -----------------------------------------------------------------------------------


def test_production_is_namespaced_pinned_and_bigger_than_base():
    base, prod = render("base"), render("overlays/production")
    for obj in prod:
        if obj["kind"] == "Namespace":
            assert obj["metadata"]["name"] == "tablero"
        else:
            assert obj["metadata"]["namespace"] == "tablero", obj["kind"]
    assert not find(prod, "Secret"), "the placeholder secret must not reach production"
    for workload in find(prod, "Deployment") + find(prod, "StatefulSet"):
        for container in containers(workload):
            image = container["image"]
            assert re.search(r":[\w][\w.-]*$", image.split("/")[-1]), image
            assert not image.endswith(":latest"), image
    assert server_container(prod)["image"].startswith("ghcr.io/")
    assert server(prod)["spec"]["replicas"] > server(base)["spec"]["replicas"]
    assert one(prod, "HorizontalPodAutoscaler")["spec"]["maxReplicas"] > one(base, "HorizontalPodAutoscaler")["spec"][
        "maxReplicas"
    ]
    for kind in ("cpu", "memory"):
        assert quantity(server_container(prod)["resources"]["limits"][kind]) > quantity(
            server_container(base)["resources"]["limits"][kind]
        )
    (claim,) = one(prod, "StatefulSet", "redis")["spec"]["volumeClaimTemplates"]
    (base_claim,) = one(base, "StatefulSet", "redis")["spec"]["volumeClaimTemplates"]
    assert claim["spec"]["storageClassName"]
    assert quantity(claim["spec"]["resources"]["requests"]["storage"]) > quantity(
        base_claim["spec"]["resources"]["requests"]["storage"]
    )
    namespace = one(prod, "Namespace")
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"


def test_a_config_change_renames_the_config_map_so_pods_roll():
    base, prod = config_data(render("base")), config_data(render("overlays/production"))
    assert base != prod
    base_name = server_container(render("base"))["envFrom"][0]["configMapRef"]["name"]
    prod_name = server_container(render("overlays/production"))["envFrom"][0]["configMapRef"]["name"]
    assert base_name.startswith("tablero-config-") and prod_name.startswith("tablero-config-")
    assert base_name != prod_name


@pytest.mark.parametrize("name", RENDERINGS)
def test_server_processes_per_pod_match_the_cpu_request(name):
    # One Python process uses one core at most: TABLERO_WORKERS is the pod's CPU request in
    # whole cores (docs/operations.md, "Processes per pod"), and the dev overlay keeps one.
    objs = render(name)
    workers = int(config_data(objs)["TABLERO_WORKERS"])
    request = quantity(server_container(objs)["resources"]["requests"]["cpu"])
    assert workers >= 1
    assert workers == max(1, int(request)), (workers, request)
