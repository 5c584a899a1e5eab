// create() as a portal integrator uses it (tests/clients/test_ts_sdk_portal.py runs it with node):
// a JWT on the Client or on the call, "me" seats, seatSpecs, a clock, onLeave, rated, bot levels.
// Prints one JSON object of what it saw.
import { Client, TableroError } from "@tablero/client";

const [base, jwt, otherJwt] = process.argv.slice(2);
const out = {};

async function refusal(run) {
  try {
    await run();
    return null;
  } catch (e) {
    return { tablero: e instanceof TableroError, code: e.code, reason: e.reason ?? null };
  }
}

const anonymous = new Client({ baseUrl: base });
out.noJwt = await refusal(() => anonymous.create("tic-tac-toe", { seats: ["me", "open"] }));
const perCall = await anonymous.create("tic-tac-toe", { seats: ["me", "open"], token: otherJwt });
out.perCall = perCall.game.seats.map((s) => [s.claimed, s.userId ?? null]);

const client = new Client({ baseUrl: base, token: jwt });
const mine = await client.create("tic-tac-toe", { seats: ["me", "open"] });
out.mine = mine.game.seats.map((s) => [s.claimed, s.userId ?? null]);
await mine.seat(0).act({ type: "place", cell: 4 });  // the "me" seat's token came back

const bots = await client.create("riverboat", { seats: ["human", "bot:hard", "bot"] });
out.bots = bots.game.seats.map((s) => [s.kind, s.botLevel ?? null]);

const specs = await client.create("tic-tac-toe", {
  seatSpecs: [{ kind: "me" }, { kind: "human", userId: "bob", userName: "Bob" }],
  onLeave: "bot", clock: { moveSeconds: 120, onTimeout: "forfeit" }, rated: false,
});
out.specs = specs.game.seats.map((s) => [s.userId ?? null, s.userName ?? null]);
const raw = await fetch(`${base}/v1/games/${specs.gameId}`).then((r) => r.json());
out.deadlines = (raw.deadlines ?? []).map((d) => d.seat);
out.badClock = await refusal(() => client.create("tic-tac-toe", { seats: ["me", "open"], clock: { moveSeconds: 0 } }));
console.log(JSON.stringify(out));
