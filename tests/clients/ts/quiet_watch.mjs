// A spectator's watch of a quiet game (nobody moves) across two server restarts
// (tests/clients/test_ts_sdk.py): small knobs, so that the restarts' gap outlasts the patience.
// Prints each state and event with the time (ms since the epoch), then how it ended.
import { Client } from "@tablero/client";

const [base, gameId, after] = process.argv.slice(2);
const client = new Client({ baseUrl: base, retries: 2, backoffMs: 50, maxBackoffMs: 200, watchPatienceMs: 12000 });
const onState = (s, e) => console.log(`state ${s} ${Date.now()} ${e?.code ?? ""}`);
try {
  for await (const e of client.watch(gameId, { afterVersion: Number(after), onState })) {
    console.log(`v ${e.version} ${Date.now()}`);
  }
  console.log("ended");
} catch (e) {
  console.log(`gave up ${e.code} ${e.message}`);
}
