"""@tablero/client's TableroError exposes the ErrorInfo metadata (docs/api.md "Error reasons":
STALE_VERSION names the game's `version`, RATE_LIMITED `retryAfter`), as the Python SDK's
`.metadata` does; a refusal without metadata has an empty object."""

from __future__ import annotations

import json
import subprocess

from tests.clients.test_ts_sdk import HERE, _node, sdk, serve  # noqa: F401 (fixtures)


def test_a_refusal_carries_its_errorinfo_metadata(sdk, serve):  # noqa: F811
    assert "metadata" in (sdk / "dist" / "errors.d.ts").read_text()
    (sdk / "examples" / "error_metadata.mjs").write_text((HERE / "error_metadata.mjs").read_text())
    run = subprocess.run([_node(), str(sdk / "examples" / "error_metadata.mjs"), serve.http], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["stale"] == {"tablero": True, "reason": "STALE_VERSION", "metadata": {"version": "1"}}
    assert out["outOfTurn"] == {"reason": "NOT_YOUR_TURN", "metadata": {}}
