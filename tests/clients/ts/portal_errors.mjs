// A portal frontend on @tablero/client (tests/clients/test_ts_sdk_portal.py): the generated
// clients fail with TableroError (code, reason) as the SDK's own calls do, `client.games` sends
// the Client's JWT ("My games"), and a seat resigns through its handle. Prints one JSON object.
import { Client, TableroError } from "@tablero/client";

const [base, jwt] = process.argv.slice(2);
const client = new Client({ baseUrl: base, token: jwt });
const anonymous = new Client({ baseUrl: base });
const out = {};

async function refusal(run) {
  try {
    await run();
    return "no error";
  } catch (e) {
    return [e instanceof TableroError, e.code, e.reason ?? null];
  }
}

out.errors = {
  ticket: await refusal(() => client.matchmaking.getMatchTicket({ ticketId: "t-nope" })),
  player: await refusal(() => client.players.getPlayer({ userId: "nobody-at-all" })),
  notifications: await refusal(() => anonymous.notifications.listNotifications({})),
  game: await refusal(() => client.games.getGame({ gameId: "no-such-game" })),
  watch: await refusal(async () => { for await (const _ of client.games.watchGame({ gameId: "no-such-game" })) { /* none */ } }),
  rankings: await refusal(() => client.rankings.aggregateRankings({ lists: [] })),
};
const created = await client.create("tic-tac-toe", { seats: ["me", "open"] });
out.mine = (await client.games.listGames({ mine: true })).games.map((g) => g.id === created.gameId);
out.anonymousMine = await refusal(() => anonymous.games.listGames({ mine: true }));
const human = await anonymous.create("tic-tac-toe", { seats: ["human", "human"] });
const after = await human.seat(1).resign();
out.resigned = [after.finished, after.outcome?.winners ?? null, after.engine];
console.log(JSON.stringify(out));
