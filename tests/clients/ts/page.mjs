// Plays a Tic-Tac-Toe game over Connect with @tablero/client, watches it live, and reads it
// back over gRPC-Web with the official client (createGrpcWebTransport + the generated service).
import { Client, GameService, TableroError } from "@tablero/client";
import { createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";

const server = new URLSearchParams(location.search).get("server");
const log = (line) => { document.getElementById("log").textContent += line + "\n"; };

async function main() {
  const client = new Client({ baseUrl: server });
  const created = await client.create("tic-tac-toe", { seats: ["human", "human"] });
  const [x, o] = [created.seat(0), created.seat(1)];
  const seen = [];
  const watching = (async () => {
    for await (const e of created.watch()) {
      seen.push(e.version);
      log(`watched v${e.version} ${e.event.type}`);
    }
  })();
  let refused = null;
  try {
    await o.act({ type: "place", cell: 0 });
  } catch (e) {
    refused = { tablero: e instanceof TableroError, code: e.code };
  }
  const moves = [[x, 4], [o, 0], [x, 3], [o, 1], [x, 5]];
  let game = created.game;
  for (const [seat, cell] of moves) game = await seat.act({ type: "place", cell });
  await watching;
  const grpcWeb = createClient(GameService, createGrpcWebTransport({ baseUrl: server }));
  const read = await grpcWeb.getGame({ gameId: created.gameId }, { headers: { authorization: `Bearer ${x.token}` } });
  // The SDK over gRPC-Web: the same watch, replayed from the start.
  const overGrpcWeb = new Client({ baseUrl: server, transport: createGrpcWebTransport({ baseUrl: server }) });
  const replayed = [];
  for await (const e of overGrpcWeb.watch(created.gameId)) replayed.push(e.event.type);
  return { gameId: created.gameId, finished: game.finished, winners: game.outcome?.winners ?? null, seen, refused,
           grpcWebVersion: read.game?.version ?? null, grpcWebRows: read.game?.view?.rows ?? null, replayed };
}

window.result = main().catch((e) => ({ error: String(e && e.stack || e) }));
