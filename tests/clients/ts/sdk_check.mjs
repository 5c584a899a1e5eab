// The SDK's surface against a real server (tests/clients/test_ts_sdk.py runs it with node).
// Prints one JSON object of what it saw.
import { Client, TableroError } from "@tablero/client";

const base = process.argv[2];
const client = new Client({ baseUrl: base, retries: 2, backoffMs: 20 });
const out = {};

async function refusal(run) {
  try {
    await run();
    return null;
  } catch (e) {
    return { tablero: e instanceof TableroError, code: e.code, reason: e.reason ?? null, message: e.message };
  }
}

const engines = await client.engines();
out.engines = engines.map((e) => e.name);
out.outcomeSchemaTitle = engines.find((e) => e.name === "tic-tac-toe")?.outcomeSchema["title"] ?? null;
const created = await client.create("tic-tac-toe", { seats: ["human", "open"] });
out.createdVersion = created.game.version;
out.viewType = created.game.view.type;
const x = created.seat(0);
// A create retried with its requestId is the same game; the same id with other choices is refused.
const made = await client.create("tic-tac-toe", { seats: ["human", "open"], requestId: "create-1-0123456789ab" });
const remade = await client.create("tic-tac-toe", { seats: ["human", "open"], requestId: "create-1-0123456789ab" });
out.createRetried = [made.gameId === remade.gameId, made.gameId !== created.gameId];
out.createReused = await refusal(() => client.create("goofspiel", { requestId: "create-1-0123456789ab" }));
const o = await client.join(created.gameId, "tic-tac-toe");
out.joinedSeat = o.seat;
out.outOfTurn = await refusal(() => o.act({ type: "place", cell: 0 }));
out.badToken = await refusal(() => client.seat("tic-tac-toe", created.gameId, "not-a-token").act({ type: "place", cell: 0 }));
out.unknownGame = await refusal(() => client.game("nosuchgame"));
out.wrongEngine = await refusal(() => client.join(created.gameId, "riverboat"));
// A STALE_VERSION is not retried, even with retryAborted (a retry fails the same way).
out.stale = await refusal(() => x.act({ type: "place", cell: 4 }, { expectedVersion: 99, retryAborted: true }));
out.staleRetries = client.retryCount;
const first = await x.act({ type: "place", cell: 4 }, { requestId: "req-1" });
const again = await x.act({ type: "place", cell: 4 }, { requestId: "req-1" });
out.idempotent = [first.version, again.version];
out.occupied = await refusal(() => o.act({ type: "place", cell: 4 }));
out.legal = (await o.legalActions()).actions.map((a) => a.cell);

const events = [];
for await (const e of x.events({ pageSize: 1 })) events.push(e);
out.events = events.map((e) => e.version);
out.hashes = events.every((e) => typeof e.hash === "string" && e.hash.length > 0);

// A watch from version 1 (with its hash), while the game is played to its end.
const seen = [];
const watching = (async () => {
  for await (const e of o.watch({ afterVersion: events[0].version, afterHash: events[0].hash })) {
    seen.push([e.version, e.event.type]);
  }
})();
await o.act({ type: "place", cell: 0 });
await x.act({ type: "place", cell: 3 });
await o.act({ type: "place", cell: 1 });
const last = await x.act({ type: "place", cell: 5 });
await watching;
out.seen = seen;
out.finished = last.finished;
out.winners = last.outcome ? last.outcome.winners : null;
out.outcomeDetails = last.outcome ? last.outcome.raw.details : null;
out.endedBy = last.outcome ? last.outcome.endedBy ?? null : null;
out.over = await refusal(() => o.act({ type: "place", cell: 8 }));
const any = await client.game(created.gameId);
out.anyEngine = any.engine;
out.retryCount = client.retryCount;
console.log(JSON.stringify(out));
