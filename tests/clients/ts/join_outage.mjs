// A join sent while the server is away (tests/clients/test_ts_sdk_join_outage.py): it prints
// "joining", then, once the server is back, the seat it got (or the error it failed with).
import { Client } from "@tablero/client";

const [base, gameId] = process.argv.slice(2);
const client = new Client({ baseUrl: base, retries: 100, backoffMs: 100, maxBackoffMs: 300 });
console.log("joining");
try {
  const seat = await client.join(gameId, "tic-tac-toe");
  console.log(JSON.stringify({ seat: seat.seat, token: seat.token.startsWith(`${gameId}.`), retries: client.retryCount }));
} catch (e) {
  console.log(JSON.stringify({ error: e.code, reason: e.reason ?? null, message: e.message }));
  process.exitCode = 1;
}
