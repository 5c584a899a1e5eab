// TableroError carries the ErrorInfo's metadata, as the Python SDK's `.metadata` does
// (tests/clients/test_ts_sdk_error_metadata.py runs it with node against a real server).
import { Client, TableroError } from "@tablero/client";

const client = new Client({ baseUrl: process.argv[2], retries: 0 });
const created = await client.create("tic-tac-toe", { seats: ["human", "human"] });
const out = {};
try {
  await created.seat(0).act({ type: "place", cell: 4 }, { expectedVersion: 9 });
} catch (e) {
  out.stale = { tablero: e instanceof TableroError, reason: e.reason, metadata: e.metadata };
}
try {
  await created.seat(1).act({ type: "place", cell: 0 });
} catch (e) {
  out.outOfTurn = { reason: e.reason, metadata: e.metadata };
}
console.log(JSON.stringify(out));
