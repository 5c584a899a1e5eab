// The official grpc-web client as a web developer uses it: protoc-gen-grpc-web's generated
// GameServicePromiseClient (mode=grpcwebtext, import_style=commonjs: application/grpc-web-text,
// the only mode in which it streams) with protoc-gen-js messages (gen/, see README.md), over the
// `grpc-web` runtime. It plays a Tic-Tac-Toe game on the server's HTTP port, another origin, and
// watches it live with WatchGame.
import * as grpcWeb from "grpc-web";
import structPb from "google-protobuf/google/protobuf/struct_pb.js";
import games from "./gen/tablero/v1/games_grpc_web_pb.js";

const { Struct } = structPb;
const server = new URLSearchParams(location.search).get("server");
const log = (line) => { document.getElementById("log").textContent += line + "\n"; };

function submit(gameId, cell) {
  const req = new games.SubmitActionRequest();
  req.setGameId(gameId);
  req.setAction(Struct.fromJavaScript({ type: "place", cell }));
  return req;
}

async function main() {
  const client = new games.GameServicePromiseClient(server);
  const create = new games.CreateGameRequest();
  create.setEngine("tic-tac-toe");
  create.setSeatsList(["human", "human"]);
  const created = await client.createGame(create);
  const gameId = created.getGame().getId();
  const tokens = created.getSeatsList().map((s) => s.getToken());
  const auth = (seat) => ({ authorization: `Bearer ${tokens[seat]}` });

  const watched = [];
  const waiting = new Map(); // version → resolve, for the moves that wait for their event
  const seen = (version) => new Promise((resolve, reject) => {
    if (watched.some(([v]) => v >= version)) return resolve();
    waiting.set(version, resolve);
    setTimeout(() => reject(new Error(`v${version} was not watched within 10 s`)), 10000);
  });
  const watchReq = new games.WatchGameRequest();
  watchReq.setGameId(gameId);
  const watch = new Promise((resolve, reject) => {
    const stream = client.watchGame(watchReq);
    stream.on("data", (r) => {
      if (r.getVersion() === 0) return; // a keep-alive
      const type = r.getEvent()?.toJavaScript().type ?? null;
      watched.push([r.getVersion(), type, Date.now()]);
      log(`watched v${r.getVersion()} ${type}`);
      waiting.get(r.getVersion())?.();
    });
    stream.on("status", (s) => log(`status ${s.code}`));
    stream.on("error", (e) => reject(new Error(`watch failed: ${e.code} ${e.message}`)));
    stream.on("end", () => resolve());
  });
  await seen(1); // the stream is live before the first move

  let refused = null;
  try {
    await client.submitAction(submit(gameId, 0), auth(1));
  } catch (e) {
    refused = { code: e.code, rpcError: e instanceof grpcWeb.RpcError,
                details: Boolean(e.metadata?.["grpc-status-details-bin"]) };
  }
  const moved = [];
  for (const [seat, cell] of [[0, 4], [1, 0], [0, 3], [1, 1], [0, 5]]) {
    const r = await client.submitAction(submit(gameId, cell), auth(seat));
    moved.push([r.getGame().getVersion(), Date.now()]);
    await seen(r.getGame().getVersion()); // live: the move's event arrives while the game goes on
  }
  await watch;
  const get = new games.GetGameRequest();
  get.setGameId(gameId);
  const game = (await client.getGame(get)).getGame();
  return {
    gameId, refused, moved, watched, version: game.getVersion(),
    finished: game.getStatus() === games.GameStatus.GAME_STATUS_FINISHED,
    winners: game.getOutcome()?.toJavaScript().winners ?? null,
    rows: game.getView()?.toJavaScript().rows ?? null,
  };
}

window.result = main().catch((e) => ({ error: String(e && e.stack || e) }));
