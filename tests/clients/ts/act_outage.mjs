// A move sent while the server is away (tests/clients/test_ts_sdk_write_patience.py), by a Client
// of the default knobs: it prints "acting", then, once the server is back, the game it got (or
// the error it failed with). First, that a negative writePatienceMs is refused.
import { Client } from "@tablero/client";

const [base, gameId, token] = process.argv.slice(2);
let refused = null;
try {
  new Client({ baseUrl: base, writePatienceMs: -1 });
} catch (e) {
  refused = e instanceof TypeError && /writePatienceMs/.test(e.message);
}
const client = new Client({ baseUrl: base });
console.log("acting");
try {
  const game = await client.act(gameId, token, { type: "place", cell: 4 });
  console.log(JSON.stringify({ version: game.version, retries: client.retryCount, refused }));
} catch (e) {
  console.log(JSON.stringify({ error: e.code, reason: e.reason ?? null, message: e.message, refused }));
  process.exitCode = 1;
}
