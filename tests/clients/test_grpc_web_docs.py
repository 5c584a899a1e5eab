"""docs/api.md "Frontends: what each language gets" gives the protoc command that makes the
official grpc-web client. The code protoc-gen-js writes `require`s the file of every import of
a proto it compiles (`../../google/api/annotations_pb.js` from `games_pb.js`, though the import
is only for options), so the command must compile every imported file but `google/protobuf`'s,
which the `google-protobuf` npm package ships. An outside pass followed the row as written
(`proto/tablero/v1/*.proto` alone) and got a client whose bundle could not resolve
`google/api/annotations_pb.js`; the checked-in client (tests/clients/ts/grpc_web, its README)
was made with the google/api files named.

Checked with Debian's protoc itself and no plugin: the documented inputs, with their imports
(`--include_imports`), must be the documented inputs plus `google/protobuf` only."""

from __future__ import annotations

import glob
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from google.protobuf import descriptor_pb2

ROOT = Path(__file__).resolve().parents[2]


def _documented_command() -> list[str]:
    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    [row] = [line for line in doc.splitlines() if line.startswith("| JavaScript, official `grpc-web` client ")]
    [command] = [c for c in re.findall(r"`([^`]+)`", row) if c.startswith("protoc ")]
    return shlex.split(command)


def test_the_documented_grpc_web_command_compiles_every_file_the_generated_code_requires(tmp_path):
    protoc = shutil.which("protoc")
    assert protoc, "protoc is needed (Debian protobuf-compiler)"
    args = _documented_command()
    includes = [a for i, a in enumerate(args) if args[i - 1] == "-I"]
    inputs: list[str] = []
    for a in args[1:]:
        if a.endswith(".proto"):
            expanded = sorted(glob.glob(a, root_dir=ROOT))
            inputs += expanded or [a]
    assert includes and inputs, args
    out = tmp_path / "set.binpb"
    subprocess.run([protoc, *(f"-I{i}" for i in includes), "--include_imports", f"--descriptor_set_out={out}",
                    *inputs], cwd=ROOT, check=True, capture_output=True, text=True, timeout=60)
    files = {f.name for f in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file}
    named = {i.removeprefix("proto/").removeprefix("third_party/googleapis/") for i in inputs}
    missing = sorted(f for f in files - named if not f.startswith("google/protobuf/"))
    assert not missing, f"the documented protoc command leaves out {missing}, which the generated code requires"
