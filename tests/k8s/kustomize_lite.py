"""A small kustomize, enough to render `k8s/` offline in tests without a kustomize binary.

It implements exactly the features the kustomizations under `k8s/` use, with kustomize v5
semantics, and raises `Unsupported` for anything else rather than guessing:

- `resources`: YAML files (one or more documents) and directories holding a kustomization;
- `namespace`: set on every namespaced object; a `Namespace` object is renamed to it (as kustomize does);
- `labels`: `pairs` added to `metadata.labels` only (no selectors, no templates);
- `images`: `name` matched against container images, replaced by `newName` and/or `newTag`;
- `configMapGenerator`: `literals`, `behavior` create/merge/replace; the name gets kustomize's content
  hash suffix at the end of the build and references from pod templates are rewritten to it;
- `patches`: strategic-merge patches, from a `path` or an inline `patch`, one document each,
  including `$patch: delete` of a whole object. Lists are merged by key for the fields in
  `_MERGE_KEYS`, replaced for the fields in `_ATOMIC_LISTS`; a list anywhere else is refused.

Transformers run in kustomize's order: patches, namespace, labels, images. The test suite checks
this renderer against `kubectl kustomize` whenever that binary is installed.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_SUPPORTED_FIELDS = {"apiVersion", "kind", "namespace", "labels", "resources", "images", "configMapGenerator", "patches"}
# Kinds this renderer knows how to treat (scope, pod template location). Anything else is refused.
_NAMESPACED_KINDS = {
    "ServiceAccount",
    "ConfigMap",
    "Secret",
    "Service",
    "Deployment",
    "StatefulSet",
    "HorizontalPodAutoscaler",
    "PodDisruptionBudget",
    "NetworkPolicy",
    "ServiceMonitor",
}
_CLUSTER_KINDS = {"Namespace"}
_WORKLOAD_KINDS = {"Deployment", "StatefulSet"}
# Strategic-merge list semantics of the built-in types, for the list fields our patches touch.
_MERGE_KEYS = {"containers": "name", "initContainers": "name", "env": "name", "volumes": "name", "volumeMounts": "mountPath"}
_ATOMIC_LISTS = {"args", "command", "volumeClaimTemplates", "accessModes"}


class Unsupported(Exception):
    """The kustomization uses a feature this renderer does not implement."""


class KustomizeError(Exception):
    """The kustomization is wrong (missing file, patch without target, duplicate object, ...)."""


@dataclass
class _Resource:
    obj: dict[str, Any]
    generated: bool = False  # a generator's output: hash suffix appended at the end of the build

    @property
    def key(self) -> tuple[str, str, str, str]:
        meta = self.obj.get("metadata") or {}
        return (_group(self.obj["apiVersion"]), self.obj["kind"], meta.get("namespace", ""), meta["name"])


def build(path: str | Path) -> list[dict[str, Any]]:
    """Render the kustomization in directory `path`, like `kustomize build path`."""
    resources = _accumulate(Path(path), seen=())
    _apply_name_hashes(resources)
    return [r.obj for r in resources]


# --- accumulation ---------------------------------------------------------------------------------


def _load_kustomization(directory: Path) -> dict[str, Any]:
    for name in KUSTOMIZATION_FILES:
        candidate = directory / name
        if candidate.is_file():
            data = yaml.safe_load(candidate.read_text()) or {}
            break
    else:
        raise KustomizeError(f"{directory}: no kustomization file")
    unknown = set(data) - _SUPPORTED_FIELDS
    if unknown:
        raise Unsupported(f"{directory}: kustomization fields {sorted(unknown)}")
    if data.get("apiVersion", "kustomize.config.k8s.io/v1beta1") != "kustomize.config.k8s.io/v1beta1":
        raise Unsupported(f"{directory}: apiVersion {data['apiVersion']}")
    if data.get("kind", "Kustomization") != "Kustomization":
        raise Unsupported(f"{directory}: kind {data['kind']} (components are not supported)")
    return data


def _accumulate(directory: Path, seen: tuple[Path, ...]) -> list[_Resource]:
    directory = directory.resolve()
    if directory in seen:
        raise KustomizeError(f"cycle: {directory} includes itself")
    kust = _load_kustomization(directory)
    resources: list[_Resource] = []
    for entry in kust.get("resources") or []:
        target = directory / entry
        if target.is_dir():
            loaded = _accumulate(target, seen + (directory,))
        elif target.is_file():
            loaded = [_Resource(doc) for doc in _load_documents(target.read_text(), str(target))]
        else:
            raise KustomizeError(f"{directory}: resource {entry!r} not found (remote resources are not supported)")
        for resource in loaded:
            _check_known(resource.obj, str(target))
            if any(r.key == resource.key for r in resources):
                raise KustomizeError(f"{directory}: {resource.key} defined twice")
            resources.append(resource)

    for generator in kust.get("configMapGenerator") or []:
        _run_config_map_generator(generator, resources, directory)
    for spec in kust.get("patches") or []:
        _apply_patch(spec, resources, directory)
    if kust.get("namespace"):
        _set_namespace(resources, kust["namespace"])
    for spec in kust.get("labels") or []:
        _add_labels(resources, spec)
    for spec in kust.get("images") or []:
        _set_images(resources, spec)
    return resources


def _load_documents(text: str, origin: str) -> list[dict[str, Any]]:
    docs = [d for d in yaml.safe_load_all(text) if d is not None]
    for doc in docs:
        if not isinstance(doc, dict) or not doc.get("kind") or not doc.get("apiVersion"):
            raise KustomizeError(f"{origin}: a document without apiVersion/kind")
        if "List" in doc["kind"]:
            raise Unsupported(f"{origin}: {doc['kind']}")
    return docs


def _check_known(obj: dict[str, Any], origin: str) -> None:
    if obj["kind"] not in _NAMESPACED_KINDS | _CLUSTER_KINDS:
        raise Unsupported(f"{origin}: kind {obj['kind']}")
    if not (obj.get("metadata") or {}).get("name"):
        raise KustomizeError(f"{origin}: {obj['kind']} without metadata.name")


def _group(api_version: str) -> str:
    return api_version.rsplit("/", 1)[0] if "/" in api_version else ""


# --- generators -----------------------------------------------------------------------------------


def _run_config_map_generator(spec: dict[str, Any], resources: list[_Resource], directory: Path) -> None:
    unknown = set(spec) - {"name", "behavior", "literals"}
    if unknown:
        raise Unsupported(f"{directory}: configMapGenerator fields {sorted(unknown)}")
    data: dict[str, str] = {}
    for literal in spec.get("literals") or []:
        key, sep, value = str(literal).partition("=")
        if not sep or not key:
            raise KustomizeError(f"{directory}: literal {literal!r} is not KEY=VALUE")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            raise Unsupported(f"{directory}: quoted literal {literal!r}")
        data[key] = value
    name = spec["name"]
    behavior = spec.get("behavior", "create")
    existing = [r for r in resources if r.obj["kind"] == "ConfigMap" and r.obj["metadata"]["name"] == name]
    if behavior == "create":
        if existing:
            raise KustomizeError(f"{directory}: ConfigMap {name} already exists (use behavior merge/replace)")
        obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}
        resources.append(_Resource(obj, generated=True))
    elif behavior in ("merge", "replace"):
        if len(existing) != 1 or not existing[0].generated:
            raise KustomizeError(f"{directory}: no generated ConfigMap {name} to {behavior}")
        target = existing[0].obj
        target["data"] = {**target.get("data", {}), **data} if behavior == "merge" else data
    else:
        raise Unsupported(f"{directory}: configMapGenerator behavior {behavior!r}")


def kustomize_hash(obj: dict[str, Any]) -> str:
    """kustomize's name suffix for a generated ConfigMap (api/hasher, kustomize v5).

    The name enters the hash as "": kustomize v5 looks the name up with a path that never
    matches, and its output (which this reproduces) is what clusters see.
    """
    if obj["kind"] != "ConfigMap" or obj.get("binaryData"):
        raise Unsupported("hashing anything but a ConfigMap with data")
    encoded = _go_json({"kind": "ConfigMap", "name": "", "data": obj.get("data") or {}})
    digest = hashlib.sha256(encoded.encode()).hexdigest()[:10]
    return digest.translate(str.maketrans({"0": "g", "1": "h", "3": "k", "a": "m", "e": "t"}))


def _go_json(value: Any) -> str:
    """encoding/json.Marshal: sorted keys, no spaces, UTF-8 kept, <, > and & escaped."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escaped)
    return text


def _apply_name_hashes(resources: list[_Resource]) -> None:
    renamed: dict[tuple[str, str], str] = {}  # (namespace, old name) -> new name
    for resource in resources:
        if resource.generated:
            meta = resource.obj["metadata"]
            new_name = f"{meta['name']}-{kustomize_hash(resource.obj)}"
            renamed[(meta.get("namespace", ""), meta["name"])] = new_name
            meta["name"] = new_name
    for resource in resources:
        if resource.obj["kind"] not in _WORKLOAD_KINDS:
            continue
        namespace = resource.obj["metadata"].get("namespace", "")
        pod = resource.obj["spec"]["template"]["spec"]
        for ref in _config_map_refs(pod):
            ref["name"] = renamed.get((namespace, ref["name"]), ref["name"])


def _config_map_refs(pod: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object in a pod spec whose `name` names a ConfigMap."""
    refs = []
    for container in (pod.get("initContainers") or []) + (pod.get("containers") or []):
        refs += [e["configMapRef"] for e in container.get("envFrom") or [] if "configMapRef" in e]
        for env in container.get("env") or []:
            if "configMapKeyRef" in (env.get("valueFrom") or {}):
                refs.append(env["valueFrom"]["configMapKeyRef"])
    for volume in pod.get("volumes") or []:
        if "configMap" in volume:
            refs.append(volume["configMap"])
        for source in (volume.get("projected") or {}).get("sources") or []:
            if "configMap" in source:
                refs.append(source["configMap"])
    return refs


# --- transformers ---------------------------------------------------------------------------------


def _set_namespace(resources: list[_Resource], namespace: str) -> None:
    for resource in resources:
        meta = resource.obj.setdefault("metadata", {})
        if resource.obj["kind"] == "Namespace":
            meta["name"] = namespace
        elif resource.obj["kind"] in _NAMESPACED_KINDS:
            meta["namespace"] = namespace


def _add_labels(resources: list[_Resource], spec: dict[str, Any]) -> None:
    unknown = set(spec) - {"pairs"}
    if unknown or spec.get("includeSelectors") or spec.get("includeTemplates"):
        raise Unsupported(f"labels options {sorted(unknown)}: only metadata.labels pairs are supported")
    for resource in resources:
        labels = resource.obj.setdefault("metadata", {}).setdefault("labels", {})
        labels.update({k: str(v) for k, v in spec["pairs"].items()})


def split_image(image: str) -> tuple[str, str | None, str | None]:
    """`registry:5000/name:tag@sha256:...` -> (name with registry, tag, digest)."""
    name, _, digest = image.partition("@")
    tag = None
    slash = name.rfind("/")
    colon = name.rfind(":")
    if colon > slash:
        name, tag = name[:colon], name[colon + 1 :]
    return name, tag, digest or None


def _set_images(resources: list[_Resource], spec: dict[str, Any]) -> None:
    unknown = set(spec) - {"name", "newName", "newTag"}
    if unknown:
        raise Unsupported(f"images fields {sorted(unknown)}")
    for resource in resources:
        if resource.obj["kind"] not in _WORKLOAD_KINDS:
            continue
        pod = resource.obj["spec"]["template"]["spec"]
        for container in (pod.get("initContainers") or []) + (pod.get("containers") or []):
            name, tag, digest = split_image(container["image"])
            if name != spec["name"]:
                continue
            name = spec.get("newName", name)
            tag = str(spec["newTag"]) if "newTag" in spec else tag
            container["image"] = name + (f":{tag}" if tag else "") + (f"@{digest}" if digest else "")


# --- strategic-merge patches ----------------------------------------------------------------------


def _apply_patch(spec: dict[str, Any], resources: list[_Resource], directory: Path) -> None:
    unknown = set(spec) - {"path", "patch"}
    if unknown or len(spec) != 1:
        raise Unsupported(f"{directory}: patch fields {sorted(spec)} (only one of path/patch, no target)")
    text = (directory / spec["path"]).read_text() if "path" in spec else spec["patch"]
    docs = _load_documents(text, str(directory / spec.get("path", "<inline patch>")))
    if len(docs) != 1:
        raise Unsupported(f"{directory}: a patch must hold exactly one document")
    patch = docs[0]
    meta = patch.get("metadata") or {}
    matches = [
        r
        for r in resources
        if r.obj["kind"] == patch["kind"]
        and _group(r.obj["apiVersion"]) == _group(patch["apiVersion"])
        and r.obj["metadata"]["name"] == meta.get("name")
        and ("namespace" not in meta or r.obj["metadata"].get("namespace") == meta["namespace"])
    ]
    if len(matches) != 1:
        raise KustomizeError(f"{directory}: patch for {patch['kind']}/{meta.get('name')} matches {len(matches)} objects")
    target = matches[0]
    directive = patch.pop("$patch", None)
    if directive == "delete":
        resources.remove(target)
        return
    if directive is not None:
        raise Unsupported(f"{directory}: $patch: {directive}")
    if patch["kind"] not in (_NAMESPACED_KINDS - {"ServiceMonitor"}) | _CLUSTER_KINDS:
        raise Unsupported(f"{directory}: strategic merge into {patch['kind']} (no merge schema)")
    target.obj = strategic_merge(target.obj, patch)


def strategic_merge(base: dict[str, Any], patch: dict[str, Any], path: str = "") -> dict[str, Any]:
    """Strategic merge of `patch` into a copy of `base` (maps merge, null deletes, lists per field)."""
    result = copy.deepcopy(base)
    for key, value in patch.items():
        where = f"{path}.{key}" if path else key
        if key.startswith("$"):
            raise Unsupported(f"directive {key} at {where}")
        if value is None:
            result.pop(key, None)
        elif isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = strategic_merge(result[key], value, where)
        elif isinstance(value, list):
            result[key] = _merge_list(result.get(key), value, key, where)
        else:
            result[key] = copy.deepcopy(value)
    return result


def _merge_list(base: list[Any] | None, patch: list[Any], key: str, where: str) -> list[Any]:
    if key in _ATOMIC_LISTS:
        return copy.deepcopy(patch)
    if key not in _MERGE_KEYS:
        raise Unsupported(f"list field {where}: merge semantics unknown to this renderer")
    merge_key = _MERGE_KEYS[key]
    base = base or []
    patched = {item[merge_key] for item in patch}
    merged = []
    # kustomize (kyaml) puts the patch's elements first, merged with their base element, then the rest.
    for item in patch:
        original = next((b for b in base if b.get(merge_key) == item[merge_key]), None)
        merged.append(strategic_merge(original, item, f"{where}[{item[merge_key]}]") if original else copy.deepcopy(item))
    merged += [copy.deepcopy(b) for b in base if b.get(merge_key) not in patched]
    return merged
