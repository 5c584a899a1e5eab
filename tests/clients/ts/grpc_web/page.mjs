// The official grpc-web client (npm `grpc-web`, GrpcWebClientBase) in its default text mode
// (application/grpc-web-text, the only mode in which it streams) plays a Tic-Tac-Toe game on the
// server's HTTP port and watches it live with WatchGame.
//
// GameServiceClient below has the shape protoc-gen-grpc-web emits for `mode=grpcwebtext`
// (`options.format = 'text'`, one grpcWeb.MethodDescriptor per method, rpcCall/unaryCall for
// unary methods and serverStreaming for streams), built from the service descriptor; its
// messages are @bufbuild/protobuf's (toBinary/fromBinary) instead of protoc-gen-js classes.
import * as grpcWeb from "grpc-web";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import * as pb from "./dist/gen/tablero/v1/games_pb.js";

export class GameServiceClient {
  constructor(hostname, credentials, options) {
    if (!options) options = {};
    if (!credentials) credentials = {};
    options["format"] = "text";
    this.client_ = new grpcWeb.GrpcWebClientBase(options);
    this.hostname_ = hostname.replace(/\/+$/, "");
    this.descriptors_ = {};
    for (const m of pb.GameService.methods) {
      this.descriptors_[m.localName] = new grpcWeb.MethodDescriptor(
        `/${pb.GameService.typeName}/${m.name}`,
        m.methodKind === "server_streaming" ? grpcWeb.MethodType.SERVER_STREAMING : grpcWeb.MethodType.UNARY,
        null, null,
        (request) => toBinary(m.input, request),
        (bytes) => fromBinary(m.output, bytes));
    }
  }

  path_(name) {
    return this.hostname_ + this.descriptors_[name].getName();
  }

  unary(name, request, metadata) {
    return this.client_.unaryCall(this.path_(name), request, metadata || {}, this.descriptors_[name]);
  }

  serverStreaming(name, request, metadata) {
    return this.client_.serverStreaming(this.path_(name), request, metadata || {}, this.descriptors_[name]);
  }
}

const server = new URLSearchParams(location.search).get("server");
const log = (line) => { document.getElementById("log").textContent += line + "\n"; };

async function main() {
  const client = new GameServiceClient(server);
  const created = await client.unary("createGame", create(pb.CreateGameRequestSchema, {
    engine: "tic-tac-toe", seats: ["human", "human"] }));
  const gameId = created.game.id;
  const auth = (seat) => ({ authorization: `Bearer ${created.seats[seat].token}` });
  const watched = [];
  const waiting = new Map(); // version → resolve, for the moves that wait for their event
  const seen = (version) => new Promise((resolve, reject) => {
    if (watched.some(([v]) => v >= version)) return resolve();
    waiting.set(version, resolve);
    setTimeout(() => reject(new Error(`v${version} was not watched within 10 s`)), 10000);
  });
  const watch = new Promise((resolve, reject) => {
    const stream = client.serverStreaming("watchGame", create(pb.WatchGameRequestSchema, { gameId }));
    stream.on("data", (r) => {
      if (r.version === 0) return; // a keep-alive
      watched.push([r.version, r.event?.type ?? null, Date.now()]);
      log(`watched v${r.version} ${r.event?.type}`);
      waiting.get(r.version)?.();
    });
    stream.on("status", (s) => log(`status ${s.code}`));
    stream.on("error", (e) => reject(new Error(`watch failed: ${e.code} ${e.message}`)));
    stream.on("end", () => resolve());
  });
  await seen(1); // the stream is live before the first move
  let refused = null;
  try {
    await client.unary("submitAction", create(pb.SubmitActionRequestSchema, {
      gameId, action: { type: "place", cell: 0 } }), auth(1));
  } catch (e) {
    refused = { code: e.code, rpcError: e instanceof grpcWeb.RpcError, details: Boolean(e.metadata?.["grpc-status-details-bin"]) };
  }
  const moved = [];
  for (const [seat, cell] of [[0, 4], [1, 0], [0, 3], [1, 1], [0, 5]]) {
    const r = await client.unary("submitAction", create(pb.SubmitActionRequestSchema, {
      gameId, action: { type: "place", cell } }), auth(seat));
    moved.push([r.game.version, Date.now()]);
    await seen(r.game.version); // live: the move's event arrives while the game goes on
  }
  await watch;
  const game = (await client.unary("getGame", create(pb.GetGameRequestSchema, { gameId }))).game;
  return {
    gameId, refused, moved, watched, version: game.version,
    finished: game.status === pb.GameStatus.FINISHED,
    winners: game.outcome?.winners ?? null,
    rows: game.view?.rows ?? null,
  };
}

window.result = main().catch((e) => ({ error: String(e && e.stack || e) }));
