// A spectator's watch that outlives a server restart (tests/clients/test_ts_sdk.py): prints
// each version as it comes, then a summary line.
import { Client } from "@tablero/client";

const [base, gameId] = process.argv.slice(2);
const client = new Client({ baseUrl: base, retries: 8, backoffMs: 100, maxBackoffMs: 1000 });
const seen = [];
for await (const e of client.watch(gameId)) {
  seen.push(e.version);
  console.log(`v ${e.version} ${e.event.type}`);
}
console.log(JSON.stringify({ seen, retries: client.retryCount }));
