"""Build @tablero/client (clients/ts) reproducibly: generate, then compile.

    python scripts/build_ts_sdk.py [DIR]   # default clients/ts; DIR gets a copy of the sources

1. the protos' TypeScript (protoc-gen-es, from DIR/node_modules, run by buf) → DIR/src/gen
2. every engine's payload types from its JSON Schemas (scripts/gen_ts_engines.py) → DIR/src/engines
3. tsc → DIR/dist (ESM + .d.ts)

DIR/node_modules must hold the locked packages (`npm ci` in clients/ts, or a link to them).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SDK = ROOT / "clients" / "ts"
SOURCES = ("package.json", "package-lock.json", "tsconfig.json", "src", "examples")


def _buf() -> str:
    buf = shutil.which("buf") or str(Path(sys.executable).with_name("buf"))
    if not Path(buf).exists():
        raise SystemExit("buf is missing: pip install -e '.[test]' (the buf-bin wheel)")
    return buf


def build(out: Path) -> None:
    out = out.resolve()
    if out != SDK:
        for name in SOURCES:
            src, dst = SDK / name, out / name
            if src.is_dir():
                shutil.copytree(src, dst, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("gen", "engines", "out"))
            else:
                shutil.copy(src, dst)
    for generated in (out / "src" / "gen", out / "src" / "engines", out / "dist"):
        shutil.rmtree(generated, ignore_errors=True)
    template = {"version": "v2", "plugins": [{
        "local": str(out / "node_modules" / ".bin" / "protoc-gen-es"), "out": str(out / "src" / "gen"),
        "opt": ["target=ts", "import_extension=js"]}]}
    subprocess.run([_buf(), "generate", "--template", json.dumps(template), "--path", "proto/tablero",
                    "--include-imports"], cwd=ROOT, check=True)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_ts_engines.py"), str(out / "src" / "engines")],
                   check=True)
    node = shutil.which("node") or "node"
    subprocess.run([node, str(out / "node_modules" / "typescript" / "bin" / "tsc"), "-p", str(out)], check=True)


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else SDK)
