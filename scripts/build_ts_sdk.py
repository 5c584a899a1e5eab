"""Build @tablero/client (clients/ts) reproducibly: generate, then compile.

    python scripts/build_ts_sdk.py [DIR]         # default clients/ts; DIR gets a copy of the sources
    python scripts/build_ts_sdk.py --web [DIR]   # also the browser client's bundle (see WEB_BUNDLE)

1. the protos' TypeScript (protoc-gen-es, from DIR/node_modules, run by buf) → DIR/src/gen
2. every engine's payload types from its JSON Schemas (scripts/gen_ts_engines.py) → DIR/src/engines
3. tsc → DIR/dist (ESM + .d.ts)

4. with --web: one ES module of the SDK for the page in clients/web (esbuild, minified), written
   to DIR/web/tablero-client.js, and copied to WEB_BUNDLE when DIR is clients/ts.

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
WEB_BUNDLE = ROOT / "clients" / "web" / "js" / "vendor" / "tablero-client.js"
BANNER = "/* @tablero/client (clients/ts) for the browser client: python scripts/build_ts_sdk.py --web */"


def _buf() -> str:
    buf = shutil.which("buf") or str(Path(sys.executable).with_name("buf"))
    if not Path(buf).exists():
        raise SystemExit("buf is missing: pip install -e '.[test]' (the buf-bin wheel)")
    return buf


def bundle(out: Path) -> Path:
    """The page's bundle: dist/web.js and its dependencies in one minified ES module."""
    target = out / "web" / "tablero-client.js"
    subprocess.run([str(out / "node_modules" / ".bin" / "esbuild"), str(out / "dist" / "web.js"), "--bundle",
                    "--format=esm", "--platform=browser", "--target=es2022", "--minify", "--legal-comments=none",
                    f"--banner:js={BANNER}", f"--outfile={target}"], check=True, capture_output=True)
    if out == SDK:
        WEB_BUNDLE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(target, WEB_BUNDLE)
    return target


def build(out: Path) -> None:
    out = out.resolve()
    if out != SDK:
        for name in SOURCES:
            src, dst = SDK / name, out / name
            if src.is_dir():
                shutil.copytree(src, dst, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("gen", "engines", "out", "web"))
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
    args = [a for a in sys.argv[1:] if a != "--web"]
    where = Path(args[0]).resolve() if args else SDK
    build(where)
    if "--web" in sys.argv:
        bundle(where)
