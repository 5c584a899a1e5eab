// A quick-match ticket's watch across two server restarts (tests/clients/test_ts_sdk_portal.py):
// client.watchTicket with small knobs, so that the restarts' gap outlasts the patience. Prints
// each state and ticket with the time (ms since the epoch), then how it ended.
import { Client } from "@tablero/client";

const [base, jwt, ticketId] = process.argv.slice(2);
const client = new Client({ baseUrl: base, token: jwt, retries: 2, backoffMs: 50, maxBackoffMs: 200,
  watchPatienceMs: 12000 });
const onState = (s, e) => console.log(`state ${s} ${Date.now()} ${e?.code ?? ""}`);
try {
  for await (const t of client.watchTicket(ticketId, { onState })) {
    console.log(`ticket ${t.status} ${t.version} ${Date.now()}`);
  }
  console.log("ended");
} catch (e) {
  console.log(`gave up ${e.code} ${e.message}`);
}
