// A portal frontend's calls through @tablero/client (tests/clients/test_ts_sdk_portal.py runs it
// with node): a game's turn deadlines, the notification list, players and quick match, with the
// Client's JWT sent for the user. Prints one JSON object of what it saw.
import { Client, MatchTicketStatus } from "@tablero/client";

const [base, jwt, otherJwt] = process.argv.slice(2);
const out = {};
const client = new Client({ baseUrl: base, token: jwt });
const other = new Client({ baseUrl: base, token: otherJwt });

const created = await client.create("tic-tac-toe", {
  seats: ["me", "open"], clock: { moveSeconds: 120, onTimeout: "forfeit" }, rated: true,
});
await other.join(created.gameId, "tic-tac-toe");
const game = await created.seat(0).game();
out.deadlines = game.deadlines.map((d) => [d.seat, d.deadline instanceof Date, Math.round((d.deadline.getTime() - Date.now()) / 1000)]);

let turns = [];
for (let i = 0; i < 100 && !turns.length; i++) {  // the notification worker derives it shortly after
  const page = await client.notifications.listNotifications({ pageSize: 10 });
  turns = page.notifications.filter((n) => n.gameId === created.gameId && n.kind === "turn").map((n) => n.seat);
  if (!turns.length) await new Promise((r) => setTimeout(r, 100));
}
out.turns = turns;
const ticket = (await client.matchmaking.createMatchTicket({ engine: "riverboat", requestId: "ts-portal-calls-1" })).ticket;
out.ticket = [ticket.engine, (await client.matchmaking.getMatchTicket({ ticketId: ticket.id })).ticket.id === ticket.id];
setTimeout(() => client.matchmaking.cancelMatchTicket({ ticketId: ticket.id }), 300);
out.watched = [];  // a server stream: the Client's JWT goes with it too
for await (const m of client.matchmaking.watchMatchTicket({ ticketId: ticket.id })) {
  // (a keep-alive is an empty message); the status by its name, from the SDK's own exports
  if (m.ticket) out.watched.push([m.ticket.status, MatchTicketStatus[m.ticket.status]]);
}
const board = await client.players.getLeaderboard({ engine: "tic-tac-toe" });
out.leaderboard = board.engine;
console.log(JSON.stringify(out));
