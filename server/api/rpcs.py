"""The RPCs of the public API, read from the generated descriptors and their
`google.api.http` annotations: the one source of the REST routes and the OpenAPI document."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from google.api import annotations_pb2, field_behavior_pb2
from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor
from tablero.server.grpc.gen import games_pb2, notifications_pb2, players_pb2, rankings_pb2

MODULES = (games_pb2, rankings_pb2, players_pb2, notifications_pb2)
_DESCRIPTORS = Path(games_pb2.__file__).with_name("descriptors.binpb")
_TEMPLATE_VAR = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Rpc:
    service: str  # full name, e.g. tablero.v1.GameService
    name: str  # e.g. SubmitAction
    verb: str  # get, post, ...
    template: str  # the annotation's path, e.g. /v1/games/{game_id}/actions
    body: str  # "" or "*"
    response_body: str  # "" (the whole response message) or the one field REST answers, e.g. "game"
    request: type  # generated message classes
    response: type
    streaming: bool

    # Derived from the descriptors once per RPC (asked on every request): cached_property keeps
    # them in the instance's __dict__, beside the frozen fields.
    @functools.cached_property
    def method(self) -> MethodDescriptor:
        return self.request_descriptor.file.services_by_name[self.service.rsplit(".", 1)[1]].methods_by_name[self.name]

    @functools.cached_property
    def request_descriptor(self) -> Descriptor:
        return self.request.DESCRIPTOR

    @functools.cached_property
    def path_fields(self) -> list[FieldDescriptor]:
        fields = self.request_descriptor.fields_by_name
        return [fields[name] for name in _TEMPLATE_VAR.findall(self.template)]

    @functools.cached_property
    def path(self) -> str:
        """The REST path with JSON (lowerCamelCase) parameter names: /v1/games/{gameId}/actions."""
        fields = self.request_descriptor.fields_by_name
        return _TEMPLATE_VAR.sub(lambda m: "{" + fields[m.group(1)].json_name + "}", self.template)

    @functools.cached_property
    def response_field(self) -> FieldDescriptor | None:
        """The response field REST answers alone (`response_body`), or None for the whole message."""
        return self.response.DESCRIPTOR.fields_by_name[self.response_body] if self.response_body else None

    @functools.cached_property
    def query_fields(self) -> list[FieldDescriptor]:
        """Fields a GET takes from the query string (all but the path's)."""
        if self.body:
            return []
        in_path = {f.name for f in self.path_fields}
        return [f for f in self.request_descriptor.fields if f.name not in in_path]

    @functools.cached_property
    def query_names(self) -> frozenset[str]:
        """The query parameters REST takes (the watch also takes access_token, for EventSource)."""
        return frozenset(f.json_name for f in self.query_fields) | ({"access_token"} if self.streaming else set())

    @functools.cached_property
    def query_aliases(self) -> dict[str, str]:
        """The proto field names a query may use instead of the JSON ones (page_size for
        pageSize), as HTTP transcoding of the google.api.http annotations accepts them."""
        return {f.name: f.json_name for f in self.query_fields if f.name != f.json_name}


def required_strings(rpc: str) -> tuple[str, ...]:
    """The string fields (JSON names) a request of `rpc` must not leave empty: REQUIRED by the
    protos' field_behavior (proto3 cannot tell an empty string from a missing one)."""
    return _REQUIRED.get(rpc, ())


def _required_of(descriptor: Descriptor) -> tuple[str, ...]:
    return tuple(f.json_name for f in descriptor.fields if f.type == FieldDescriptor.TYPE_STRING
                 and field_behavior_pb2.REQUIRED in f.GetOptions().Extensions[field_behavior_pb2.field_behavior])


def _rpcs_of(module) -> list[Rpc]:
    out = []
    for service in module.DESCRIPTOR.services_by_name.values():
        for m in service.methods:
            rule = m.GetOptions().Extensions[annotations_pb2.http]
            verb = rule.WhichOneof("pattern")
            if verb is None:
                continue
            out.append(Rpc(service.full_name, m.name, verb, getattr(rule, verb), rule.body, rule.response_body,
                           getattr(module, m.input_type.name), getattr(module, m.output_type.name),
                           m.server_streaming))
    return out


@functools.cache
def rpcs() -> tuple[Rpc, ...]:
    return tuple(r for module in MODULES for r in _rpcs_of(module))


_REQUIRED = {m.name: _required_of(m.input_type) for module in MODULES
             for service in module.DESCRIPTOR.services_by_name.values() for m in service.methods
             if _required_of(m.input_type)}


def _walk_message(names: dict[tuple[int, ...], str], m, path: tuple[int, ...], prefix: str) -> None:
    """Name the source-info paths of a message and its fields (4 = message_type, 2 = field, 3 = nested)."""
    full = f"{prefix}.{m.name}"
    names[path] = full
    for i, fld in enumerate(m.field):
        names[(*path, 2, i)] = f"{full}.{fld.name}"
    for i, nested in enumerate(m.nested_type):
        _walk_message(names, nested, (*path, 3, i), full)


@functools.cache
def comments() -> dict[str, str]:
    """Leading comments of the protos' services, methods, messages, fields and enum values,
    by full name (e.g. "tablero.v1.Game.version")."""
    fds = descriptor_pb2.FileDescriptorSet.FromString(_DESCRIPTORS.read_bytes())
    out: dict[str, str] = {}
    for f in fds.file:
        names: dict[tuple[int, ...], str] = {}
        pkg = f.package
        for i, m in enumerate(f.message_type):
            _walk_message(names, m, (4, i), pkg)
        for i, e in enumerate(f.enum_type):
            names[(5, i)] = f"{pkg}.{e.name}"
            for j, v in enumerate(e.value):
                names[(5, i, 2, j)] = f"{pkg}.{v.name}"
        for i, s in enumerate(f.service):
            names[(6, i)] = f"{pkg}.{s.name}"
            for j, m in enumerate(s.method):
                names[(6, i, 2, j)] = f"{pkg}.{s.name}.{m.name}"
        for loc in f.source_code_info.location:
            key = names.get(tuple(loc.path))
            if key and loc.leading_comments.strip():
                out[key] = " ".join(line.strip() for line in loc.leading_comments.strip().splitlines())
    return out
