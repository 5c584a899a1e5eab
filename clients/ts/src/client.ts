import type { DescService } from "@bufbuild/protobuf";
import { type Client as RpcClient, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";

import { ENGINE_NAMES, type EngineName, type Engines, type PlatformEvent } from "./engines/index.js";
import { TableroError, toTableroError } from "./errors.js";
import {
  GameService,
  GameStatus,
  type Engine as EngineMessage,
  type Game as GameMessage,
  SeatKind as SeatKindEnum,
} from "./gen/tablero/v1/games_pb.js";
import { NotificationService } from "./gen/tablero/v1/notifications_pb.js";
import {
  type MatchTicket,
  MatchTicketStatus,
  MatchmakingService,
  PlayerService,
} from "./gen/tablero/v1/players_pb.js";
import { RankingService } from "./gen/tablero/v1/rankings_pb.js";
import type { JsonObject, JsonValue } from "./json.js";

export type ActionOf<E extends EngineName> = Engines[E]["action"];
export type ViewOf<E extends EngineName> = Engines[E]["view"];
export type OptionsOf<E extends EngineName> = Engines[E]["options"];
/** The engine's outcome (its outcomeSchema), or the platform's EndedEarlyOutcome. */
export type OutcomeOf<E extends EngineName> = Engines[E]["outcome"];
export type EventOf<E extends EngineName> = Engines[E]["event"] | PlatformEvent;
/** Any engine's action. */
export type AnyAction = ActionOf<EngineName>;

export type SeatKind = "human" | "open" | "bot";
/** A bot seat's level ("easy" unless asked). */
export type BotLevel = "easy" | "medium" | "hard";
/** A seat as create() asks for it: a kind, "me" (the portal user's own seat: needs a JWT), or
 * a bot of a level ("bot:hard"; plain "bot" is easy). */
export type CreateSeat = SeatKind | "me" | `bot:${BotLevel}`;

/** One seat of create()'s `seatSpecs` (CreateGameRequest.seat_specs): a seat reserved for a
 * portal user (`userId`, `userName`; needs a JWT), the caller's ("me"), or a bot's `level`. */
export interface SeatSpec {
  kind: SeatKind | "me";
  userId?: string;
  userName?: string;
  level?: BotLevel;
}

/** A turn clock: each seat to act has `moveSeconds`; then a bot plays its turn ("bot", the
 * default) or it forfeits. */
export interface TurnClock {
  moveSeconds: number;
  onTimeout?: "bot" | "forfeit";
}

export interface SeatInfo {
  seat: number;
  claimed: boolean;
  kind: SeatKind | "unspecified";
  userId?: string;
  userName?: string;
  /** A bot seat's level, when the server names one. */
  botLevel?: BotLevel;
}

/** The game's result once it is over. `raw` is the whole outcome as the engine declares it
 * (`details` and the engine's own fields), or the platform's when seats forfeited early. */
export interface Outcome<E extends EngineName = EngineName> {
  winners: number[];
  scores: number[];
  /** Set when the platform ended the game early: "forfeit" (those left win) or "abandoned". */
  endedBy: "forfeit" | "abandoned" | undefined;
  raw: OutcomeOf<E>;
}

export interface Game<E extends EngineName> {
  id: string;
  engine: E;
  engineVersion: number;
  /** Number of events in the log. */
  version: number;
  players: number;
  seats: SeatInfo[];
  toAct: number[];
  view: ViewOf<E>;
  /** Set once the game is over. */
  outcome: Outcome<E> | undefined;
  finished: boolean;
  /** The caller's seat; undefined for a spectator. */
  yourSeat: number | undefined;
  /** The turn clock's deadline of each seat that must act now (empty without a clock). */
  deadlines: SeatDeadlineInfo[];
}

export interface SeatDeadlineInfo {
  seat: number;
  /** When the seat's turn times out. */
  deadline: Date;
}

/** Any engine's game: narrow it with `game.engine === "riverboat"`. */
export type AnyGame = { [K in EngineName]: Game<K> }[EngineName];

export interface GameEvent<E extends EngineName> {
  gameId: string;
  version: number;
  /** The hash of the log up to this event (resume a watch with it). */
  hash: string;
  event: EventOf<E>;
}

export interface LegalActions<E extends EngineName> {
  actions: ActionOf<E>[];
  version: number;
  seat: number;
  nextPageToken: string;
  groups: { type: string; count: number; actions: ActionOf<E>[]; nextPageToken: string }[];
}

export interface EngineInfo {
  name: string;
  title: string;
  minSeats: number;
  maxSeats: number;
  version: number;
  optionsSchema: JsonObject;
  actionSchema: JsonObject;
  viewSchema: JsonObject;
  eventSchema: JsonObject;
  /** JSON Schema of Game.outcome (the engine's, or a game ended early). */
  outcomeSchema: JsonObject;
}

export interface ClientOptions {
  /** The server's HTTP address, e.g. http://127.0.0.1:8080 (Connect is served there). */
  baseUrl: string;
  /** Retries of act() on UNAVAILABLE (and of a broken watch), with jittered exponential backoff. */
  retries?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A watch that had been connected keeps reconnecting this long (a server restart). */
  watchPatienceMs?: number;
  /** act(), create() and join() retry UNAVAILABLE this long (default 10000: a server restart)
   * since their first failure, even past `retries`. */
  writePatienceMs?: number;
  /** Per-call deadline of unary calls. */
  timeoutMs?: number;
  /** Binary protobuf (default) or Connect's JSON. */
  useBinaryFormat?: boolean;
  /** Another transport, e.g. @connectrpc/connect-web's createGrpcWebTransport. */
  transport?: Transport;
  fetch?: typeof globalThis.fetch;
  /** A portal JWT: create() and join() send it when given no token of their own ("me" seats,
   * seats reserved for users, a portal user's join). */
  token?: string;
}

export interface CreateOptions<E extends EngineName> {
  players?: number;
  options?: OptionsOf<E>;
  /** One kind per seat: "human" (a token now), "open" (join later), "me" (the portal user's:
   * needs a JWT), "bot" or "bot:medium" / "bot:hard". */
  seats?: CreateSeat[];
  /** Instead of `seats`: one spec per seat (seats reserved for portal users, bot levels). */
  seatSpecs?: SeatSpec[];
  /** What happens to a seat that leaves (resigns, times out): "forfeit" (default) or "bot". */
  onLeave?: "forfeit" | "bot";
  clock?: TurnClock;
  /** Whether a game of portal users counts for their ratings (docs/ratings.md). */
  rated?: boolean;
  /** A portal JWT for this call (default: the client's `token`). */
  token?: string;
  /** Makes a retried create return the same game (one is made when not given). */
  requestId?: string;
}

export interface WatchOptions {
  afterVersion?: number;
  /** The hash of the event at afterVersion as the caller has it. */
  afterHash?: string;
  /** Called when the server's log was rewritten: events after `version` are void. */
  onReset?: (version: number) => void;
  /** Called when the server answers the stream ("live": its first message, an event or a keep-alive),
   * and when it breaks and reconnects ("reconnecting", with the error). */
  onState?: (state: "live" | "reconnecting", error?: TableroError) => void;
  /** A stream silent this long is dead without saying so (the server sends a keep-alive
   * every 15 s): it is dropped and watched again from the last version. Default 45000. */
  silenceMs?: number;
  signal?: AbortSignal;
}

/** watchTicket's options: the portal JWT of the ticket's user (default: the Client's `token`). */
export interface TicketWatchOptions {
  token?: string;
  /** As WatchOptions.onState: the stream answered ("live"), or broken and reconnecting. */
  onState?: (state: "live" | "reconnecting", error?: TableroError) => void;
  /** A stream silent this long is dropped and watched again (keep-alives come every 15 s).
   * Default 45000. */
  silenceMs?: number;
  signal?: AbortSignal;
}

export interface ActOptions {
  requestId?: string;
  expectedVersion?: number;
  /** Retry on ABORTED with reason CONFLICT (concurrent writes) as well as UNAVAILABLE; never a
   *  STALE_VERSION (the expectedVersion is wrong: a retry fails the same way). */
  retryAborted?: boolean;
}

export interface LegalQuery {
  pageSize?: number;
  pageToken?: string;
  type?: string;
  group?: "type";
}

const RESET = /resume from version (\d+)/;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(t); resolve(); }, { once: true });
  });
}

function newRequestId(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === "function") {
    try { return c.randomUUID(); } catch { /* not a secure context */ }
  }
  return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Failures of a stream's messages as TableroError. */
async function* rethrown<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* stream;
  } catch (e) {
    throw toTableroError(e);
  }
}

/**
 * A generated Connect client whose calls fail with TableroError (code, reason, metadata), as the
 * SDK's own calls do, instead of Connect's ConnectError (a numeric code, no reason): the client
 * itself with each unary call and server stream wrapped.
 */
function withTableroErrors<S extends DescService>(service: S, client: RpcClient<S>): RpcClient<S> {
  const calls = client as unknown as Record<string, (request: unknown, options?: unknown) => unknown>;
  const out: Record<string, unknown> = {};
  for (const m of service.methods) {
    const call = calls[m.localName];
    if (call === undefined) continue;
    out[m.localName] = m.methodKind === "unary"
      ? (request: unknown, options?: unknown) =>
        (call(request, options) as Promise<unknown>).catch((e: unknown) => { throw toTableroError(e); })
      : m.methodKind === "server_streaming"
        ? (request: unknown, options?: unknown) => rethrown(call(request, options) as AsyncIterable<unknown>)
        : call;
  }
  return out as unknown as RpcClient<S>;
}

function numbers(v: JsonValue | undefined): number[] {
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : [];
}

function botLevel(v: string | undefined): BotLevel | undefined {
  return v === "easy" || v === "medium" || v === "hard" ? v : undefined;
}

function seatKind(k: SeatKindEnum): SeatInfo["kind"] {
  return k === SeatKindEnum.HUMAN ? "human" : k === SeatKindEnum.OPEN ? "open" : k === SeatKindEnum.BOT ? "bot"
    : "unspecified";
}

// The wire's JSON (google.protobuf.Struct) is the engine's payload, described by the types
// generated from the engine's own schemas: these four are the SDK's only unchecked steps.
function asView<E extends EngineName>(v: JsonObject | undefined): ViewOf<E> {
  return (v ?? {}) as unknown as ViewOf<E>;
}
function asEvent<E extends EngineName>(v: JsonObject | undefined): EventOf<E> {
  return (v ?? {}) as unknown as EventOf<E>;
}
function asAction<E extends EngineName>(v: JsonObject): ActionOf<E> {
  return v as unknown as ActionOf<E>;
}
function asOutcome<E extends EngineName>(v: JsonObject): OutcomeOf<E> {
  return v as unknown as OutcomeOf<E>;
}
function endedBy(v: JsonValue | undefined): Outcome["endedBy"] {
  return v === "forfeit" || v === "abandoned" ? v : undefined;
}
function toJsonObject(v: object): JsonObject {
  return JSON.parse(JSON.stringify(v)) as JsonObject;
}

function toGame<E extends EngineName>(g: GameMessage | undefined, engine: E): Game<E> {
  if (!g) throw new TableroError("INTERNAL", "the answer carries no game", "INTERNAL");
  const outcome = g.outcome
    ? {
      winners: numbers(g.outcome["winners"]), scores: numbers(g.outcome["scores"]),
      endedBy: endedBy(g.outcome["endedBy"]), raw: asOutcome<E>(g.outcome),
    }
    : undefined;
  return {
    id: g.id, engine, engineVersion: g.engineVersion, version: g.version, players: g.players,
    seats: g.seats.map((s) => ({
      seat: s.seat, claimed: s.claimed, kind: seatKind(s.kind),
      ...(s.userId !== undefined ? { userId: s.userId } : {}),
      ...(s.userName !== undefined ? { userName: s.userName } : {}),
      ...(botLevel(s.botLevel) !== undefined ? { botLevel: botLevel(s.botLevel) } : {}),
    })),
    toAct: [...g.toAct], view: asView<E>(g.view), outcome,
    finished: g.status === GameStatus.FINISHED, yourSeat: g.yourSeat,
    deadlines: g.deadlines.map((d) => ({ seat: d.seat, deadline: new Date(Math.round(d.deadline * 1000)) })),
  };
}

function engineInfo(e: EngineMessage): EngineInfo {
  return {
    name: e.name, title: e.title, minSeats: e.minSeats, maxSeats: e.maxSeats, version: e.version,
    optionsSchema: e.optionsSchema ?? {}, actionSchema: e.actionSchema ?? {}, viewSchema: e.viewSchema ?? {},
    eventSchema: e.eventSchema ?? {}, outcomeSchema: e.outcomeSchema ?? {},
  };
}

function isEngine(name: string): name is EngineName {
  return ENGINE_SET.has(name);
}
const ENGINE_SET: ReadonlySet<string> = new Set<string>(ENGINE_NAMES);

function anyGame(g: GameMessage | undefined): AnyGame {
  const name = g?.engine ?? "";
  if (!isEngine(name)) throw new TableroError("UNIMPLEMENTED", `this SDK does not know the engine ${name}`, "UNKNOWN_ENGINE");
  return toGame(g, name) as AnyGame;
}

/** A watch's reconnection counts (watchOf, watchTicket). */
class Outage {
  /** Failed tries since the server last answered: what `retries` bounds. */
  failures = 0;
  /** Since the last message: a server that answers and fails at once is not hammered. */
  backoffs = 0;
  /** When the current outage began (ms since the epoch). */
  brokenSince = 0;
}

/**
 * The Tablero client: the same calls as the Python SDK, over Connect.
 *
 *     const client = new Client({ baseUrl: "http://127.0.0.1:8080" });
 *     const created = await client.create("tic-tac-toe", { seats: ["human", "human"] });
 *     const x = created.seat(0);
 *     await x.act({ type: "place", cell: 4 });
 */
export class Client {
  /**
   * The generated Connect clients, for calls the SDK does not wrap (e.g. ListGames,
   * AggregateRankings). `games` sends the Client's `token` (the portal JWT: `listGames({mine:
   * true})`) unless the call sets its own `authorization` header. Like every call of the SDK
   * they fail with TableroError.
   */
  readonly games: RpcClient<typeof GameService>;
  readonly rankings: RpcClient<typeof RankingService>;
  /**
   * A portal's calls: the user's notification list ("whose turn is it" across games) and
   * Web Push, leaderboards and players, quick match. They send the Client's `token` (the
   * portal JWT) unless the call sets its own `authorization` header, and fail with TableroError.
   */
  readonly notifications: RpcClient<typeof NotificationService>;
  readonly players: RpcClient<typeof PlayerService>;
  readonly matchmaking: RpcClient<typeof MatchmakingService>;
  /** Retries made so far (act and watch). */
  retryCount = 0;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly watchPatienceMs: number;
  private readonly writePatienceMs: number;
  private readonly timeoutMs: number;
  private readonly token: string | undefined;
  /** GameService for the SDK's own calls: each sends the token it is given, never the JWT unasked
   * (a spectator's read stays a spectator's). */
  private readonly rpc: RpcClient<typeof GameService>;

  constructor(opts: ClientOptions) {
    const transport = opts.transport ?? createConnectTransport({
      baseUrl: opts.baseUrl, useBinaryFormat: opts.useBinaryFormat ?? true,
      // A newer server's added fields must not break this client (binary skips them anyway).
      jsonOptions: { ignoreUnknownFields: true },
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    this.rpc = withTableroErrors(GameService, createClient(GameService, transport));
    this.rankings = withTableroErrors(RankingService, createClient(RankingService, transport));
    const jwt = opts.token;
    const signedIn: Interceptor = (next) => (req) => {
      if (jwt && !req.header.has("authorization")) req.header.set("authorization", `Bearer ${jwt}`);
      return next(req);
    };
    // A transport of the caller's own is used as it is (its interceptors are the caller's).
    const portal = opts.transport ?? createConnectTransport({
      baseUrl: opts.baseUrl, useBinaryFormat: opts.useBinaryFormat ?? true,
      jsonOptions: { ignoreUnknownFields: true }, interceptors: [signedIn],
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    this.games = withTableroErrors(GameService, createClient(GameService, portal));
    this.notifications = withTableroErrors(NotificationService, createClient(NotificationService, portal));
    this.players = withTableroErrors(PlayerService, createClient(PlayerService, portal));
    this.matchmaking = withTableroErrors(MatchmakingService, createClient(MatchmakingService, portal));
    this.retries = opts.retries ?? 5;
    this.backoffMs = opts.backoffMs ?? 50;
    this.maxBackoffMs = opts.maxBackoffMs ?? 2000;
    this.watchPatienceMs = opts.watchPatienceMs ?? 30000;
    this.writePatienceMs = opts.writePatienceMs ?? 10000;
    if (!(this.writePatienceMs >= 0)) throw new TypeError("writePatienceMs must be >= 0 (milliseconds)");
    this.timeoutMs = opts.timeoutMs ?? 30000;
    this.token = opts.token;
  }

  private opts(token?: string, signal?: AbortSignal) {
    return {
      timeoutMs: this.timeoutMs,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(signal ? { signal } : {}),
    };
  }

  private backoff(attempt: number): number {
    return Math.random() * Math.min(this.maxBackoffMs, this.backoffMs * 2 ** attempt);
  }

  /** Whether a call a requestId makes safe to repeat (create, join, act), which failed with `err`
   * after `retried` retries and has been failing since `failingSince` (Date.now()), tries again:
   * on UNAVAILABLE while fewer than `retries` retries were made or less than `writePatienceMs`
   * have passed (a restarting server is away 2-3 s, longer than `retries` quick backoffs); on
   * ABORTED CONFLICT (`retryAborted`) `retries` times. */
  private retriesCall(err: TableroError, retried: number, failingSince: number, retryAborted: boolean): boolean {
    if (err.code === "UNAVAILABLE") return retried < this.retries || Date.now() - failingSince < this.writePatienceMs;
    // ABORTED is retried only as CONFLICT (other writers kept moving the game on): a
    // STALE_VERSION (expectedVersion is not the game's) fails the same way every time.
    return retried < this.retries && retryAborted && err.code === "ABORTED" && (err.reason ?? "CONFLICT") === "CONFLICT";
  }

  /** A watch's stream broke (UNAVAILABLE): throws `err` past `retries` failed tries in a row and,
   * once the watch had been `connected`, only when `watchPatienceMs` have passed too since the
   * outage began. */
  private giveUpOr(err: TableroError, outage: Outage, connected: boolean): void {
    const now = Date.now();
    if (outage.failures === 0) outage.brokenSince = now;
    if (outage.failures >= this.retries && (!connected || now - outage.brokenSince >= this.watchPatienceMs)) throw err;
  }

  /** The jittered backoff before a watch's next try, counted. */
  private async backOff(outage: Outage, signal?: AbortSignal): Promise<void> {
    await sleep(this.backoff(outage.backoffs), signal);
    outage.failures++;
    outage.backoffs++;
    this.retryCount++;
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      throw toTableroError(e);
    }
  }

  async engines(): Promise<EngineInfo[]> {
    const r = await this.call(() => this.rpc.listEngines({}, this.opts()));
    return r.engines.map(engineInfo);
  }

  /** One engine, with its schemas. */
  async engine(name: string): Promise<EngineInfo> {
    const r = await this.call(() => this.rpc.getEngine({ name }, this.opts()));
    if (!r.engine) throw new TableroError("NOT_FOUND", `no engine ${name}`, "ENGINE_NOT_FOUND");
    return engineInfo(r.engine);
  }

  /** Create a game; `created.seat(i)` is the handle of human seat i. */
  async create<E extends EngineName>(engine: E, opts: CreateOptions<E> = {}): Promise<CreatedGame<E>> {
    // A requestId of its own: a retry (on UNAVAILABLE, after an answer that was lost) gets the
    // same game and tokens back, never a second game.
    const requestId = opts.requestId ?? newRequestId();
    const r = await this.retried(() => this.rpc.createGame({
      engine,
      requestId,
      players: opts.players ?? opts.seats?.length ?? opts.seatSpecs?.length ?? 0,
      ...(opts.options ? { options: toJsonObject(opts.options) } : {}),
      seats: opts.seats ?? [],
      seatSpecs: (opts.seatSpecs ?? []).map((s) => ({
        kind: s.kind, userId: s.userId ?? "", userName: s.userName ?? "", level: s.level ?? "",
      })),
      onLeave: opts.onLeave ?? "",
      ...(opts.clock ? { clock: { moveSeconds: opts.clock.moveSeconds, onTimeout: opts.clock.onTimeout ?? "" } } : {}),
      ...(opts.rated !== undefined ? { rated: opts.rated } : {}),
    }, this.opts(opts.token ?? this.token)));
    const tokens = new Map(r.seats.map((s) => [s.seat, s.token]));
    return new CreatedGame(this, toGame(r.game, engine), tokens);
  }

  /** Claim an open seat of a game of `engine`; the handle carries its new token. */
  async join<E extends EngineName>(gameId: string, engine: E, token?: string, requestId?: string): Promise<Seat<E>> {
    // The engine is checked first (a spectator's read), so a wrong one claims no seat; a read,
    // retried like the claim while the server is away (a join sent during a restart).
    const g = await this.retried(() => this.rpc.getGame({ gameId }, this.opts()));
    if (g.game?.engine !== engine) {
      throw new TableroError("INVALID_ARGUMENT", `game ${gameId} is ${g.game?.engine}, not ${engine}`, "INVALID_ARGUMENT");
    }
    // A requestId of its own: a retry (on UNAVAILABLE, after an answer that was lost) gets the
    // same seat and token back, never a second seat.
    const body = { gameId, requestId: requestId ?? newRequestId() };
    const r = await this.retried(() => this.rpc.joinGame(body, this.opts(token ?? this.token)));
    return new Seat(this, engine, r.gameId, r.token, r.seat);
  }

  /** `run()`, again after a backoff while it fails with UNAVAILABLE: for calls a requestId
   * makes safe to repeat (see retriesCall). */
  private async retried<T>(run: () => Promise<T>): Promise<T> {
    let failingSince = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call(run);
      } catch (e) {
        const err = toTableroError(e);
        failingSince ||= Date.now();
        if (!this.retriesCall(err, attempt, failingSince, false)) throw err;
      }
      await sleep(this.backoff(attempt));
      this.retryCount++;
    }
  }

  /** A handle for a seat whose token you already hold. */
  seat<E extends EngineName>(engine: E, gameId: string, token: string, seat?: number): Seat<E> {
    return new Seat(this, engine, gameId, token, seat);
  }

  /** A game of any engine (narrow on `.engine`); with a token, as that seat sees it. */
  async game(gameId: string, opts: { token?: string; version?: number } = {}): Promise<AnyGame> {
    const r = await this.call(() => this.rpc.getGame(
      { gameId, ...(opts.version !== undefined ? { version: opts.version } : {}) }, this.opts(opts.token)));
    return anyGame(r.game);
  }

  /** @internal */
  async gameOf<E extends EngineName>(engine: E, gameId: string, token?: string, version?: number): Promise<Game<E>> {
    const r = await this.call(() => this.rpc.getGame(
      { gameId, ...(version !== undefined ? { version } : {}) }, this.opts(token)));
    if (r.game?.engine !== engine) {
      throw new TableroError("INVALID_ARGUMENT", `game ${gameId} is ${r.game?.engine}, not ${engine}`, "INVALID_ARGUMENT");
    }
    return toGame(r.game, engine);
  }

  /** @internal */
  async legalActionsOf<E extends EngineName>(gameId: string, token: string, q: LegalQuery = {}): Promise<LegalActions<E>> {
    const r = await this.call(() => this.rpc.listLegalActions({
      gameId, pageSize: q.pageSize ?? 0, pageToken: q.pageToken ?? "", type: q.type ?? "", group: q.group ?? "",
    }, this.opts(token)));
    return {
      actions: r.actions.map((a) => asAction<E>(a)), version: r.version, seat: r.seat, nextPageToken: r.nextPageToken,
      groups: r.groups.map((g) => ({
        type: g.type, count: g.count, actions: g.actions.map((a) => asAction<E>(a)), nextPageToken: g.nextPageToken,
      })),
    };
  }

  /** Submit an action as the seat `token` opens (see Seat.act for a typed one). */
  act(gameId: string, token: string, action: AnyAction, opts: ActOptions = {}): Promise<AnyGame> {
    return this.submit(gameId, token, action, opts, anyGame);
  }

  /** The seat's legal actions (see Seat.legalActions for typed ones). */
  legalActions(gameId: string, token: string, query: LegalQuery = {}): Promise<LegalActions<EngineName>> {
    return this.legalActionsOf<EngineName>(gameId, token, query);
  }

  /** The log after `afterVersion`, page after page, as `token`'s seat (or a spectator) sees it. */
  events(gameId: string, opts: { token?: string; afterVersion?: number; pageSize?: number } = {}):
    AsyncGenerator<GameEvent<EngineName>> {
    return this.eventsOf<EngineName>(gameId, opts.token, opts);
  }

  /** Live events until the game is over (see watchOf). */
  watch(gameId: string, opts: WatchOptions & { token?: string } = {}): AsyncGenerator<GameEvent<EngineName>> {
    return this.watchOf<EngineName>(gameId, opts.token, opts);
  }

  /** @internal */
  actOf<E extends EngineName>(engine: E, gameId: string, token: string, action: ActionOf<E>,
    opts: ActOptions = {}): Promise<Game<E>> {
    return this.submit(gameId, token, action, opts, (g) => toGame(g, engine));
  }

  /** Submit an action; retried with the same requestId, so never applied twice. */
  private async submit<T>(gameId: string, token: string, action: object, opts: ActOptions,
    convert: (g: GameMessage | undefined) => T): Promise<T> {
    const requestId = opts.requestId ?? newRequestId();
    const body = {
      gameId, action: toJsonObject(action), requestId,
      ...(opts.expectedVersion !== undefined ? { expectedVersion: opts.expectedVersion } : {}),
    };
    let failingSince = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await this.call(() => this.rpc.submitAction(body, this.opts(token)));
        return convert(r.game);
      } catch (e) {
        const err = toTableroError(e);
        failingSince ||= Date.now();
        if (!this.retriesCall(err, attempt, failingSince, opts.retryAborted === true)) throw err;
      }
      await sleep(this.backoff(attempt));
      this.retryCount++;
    }
  }

  /** @internal The log after `afterVersion`, page after page. */
  async *eventsOf<E extends EngineName>(gameId: string, token?: string,
    opts: { afterVersion?: number; pageSize?: number } = {}): AsyncGenerator<GameEvent<E>> {
    let pageToken = "";
    do {
      const r = await this.call(() => this.rpc.listEvents({
        gameId, afterVersion: opts.afterVersion ?? 0, pageSize: opts.pageSize ?? 0, pageToken,
      }, this.opts(token)));
      for (const e of r.events) {
        yield { gameId: e.gameId, version: e.version, hash: e.hash ?? "", event: asEvent<E>(e.event) };
      }
      pageToken = r.nextPageToken;
    } while (pageToken);
  }

  /** The hash of the event at `version` (to resume a watch after a reset). */
  private async hashAt(gameId: string, token: string | undefined, version: number): Promise<string> {
    if (version <= 0) return "";
    for await (const e of this.eventsOf(gameId, token, { afterVersion: version - 1, pageSize: 1 })) {
      return e.version === version ? e.hash : "";
    }
    return "";
  }

  /**
   * Events after `afterVersion`, live, until the game is over. Reconnects after the
   * last version it saw (with its hash) when the stream breaks (UNAVAILABLE: a restart, the
   * network). It gives up after `retries` failed tries in a row, and once it had been connected
   * only when `watchPatienceMs` have passed too since the stream broke; a stream the server
   * answers (its first message: an event, or a keep-alive: 1 s into a quiet stream, then every 15 s) ends
   * the outage, so the next break starts the count again. `onState("live")` is reported then,
   * once per stream, never for a try the server has not answered.
   * When the server's log was rewritten (ABORTED "resume from version N") it calls `onReset(N)`
   * and goes on from N.
   */
  async *watchOf<E extends EngineName>(gameId: string, token?: string, opts: WatchOptions = {}):
    AsyncGenerator<GameEvent<E>> {
    let last = opts.afterVersion ?? 0;
    let lastHash = opts.afterHash ?? "";
    const outage = new Outage();
    let connected = false;
    const silenceMs = opts.silenceMs ?? 45000;
    for (;;) {
      const opened = Date.now();
      const attempt = new AbortController();
      const stop = () => attempt.abort();
      opts.signal?.addEventListener("abort", stop, { once: true });
      let heard = Date.now();
      let silent = false;
      let answered = false;
      // The server answered this try (a first message: an event or a keep-alive; a refusal has
      // none): the watch is live, and an outage before it is over.
      const live = () => {
        if (answered) return;
        answered = true;
        outage.failures = 0;
        connected = true;
        opts.onState?.("live");
      };
      const watchdog = setInterval(() => {
        if (Date.now() - heard > silenceMs) { silent = true; attempt.abort(); }
      }, Math.min(5000, silenceMs / 2));
      try {
        const stream = this.rpc.watchGame({ gameId, afterVersion: last, afterHash: lastHash },
          { ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}), signal: attempt.signal });
        for await (const m of stream) {
          heard = Date.now();
          live();
          outage.backoffs = 0;
          if (m.version <= last) continue; // a keep-alive (version 0), or already seen
          last = m.version;
          lastHash = m.hash ?? "";
          yield { gameId: m.gameId, version: m.version, hash: lastHash, event: asEvent<E>(m.event) };
        }
        return;
      } catch (e) {
        if (opts.signal?.aborted) return;
        const err = silent ? new TableroError("UNAVAILABLE", `the stream was silent for ${silenceMs} ms`, "UNAVAILABLE")
          : toTableroError(e);
        const reset = err.code === "ABORTED" ? RESET.exec(err.message) : null;
        if (reset) {
          last = Number(reset[1]);
          opts.onReset?.(last);
          lastHash = await this.hashAt(gameId, token, last);
          continue;
        }
        if (err.code !== "UNAVAILABLE") throw err;
        opts.onState?.("reconnecting", err);
        connected ||= Date.now() - opened >= 1000;
        this.giveUpOr(err, outage, connected);
      } finally {
        clearInterval(watchdog);
        opts.signal?.removeEventListener("abort", stop);
      }
      await this.backOff(outage, opts.signal);
    }
  }

  /**
   * A quick-match ticket at each change, first as it is now, until it is matched, cancelled or
   * expired (`client.matchmaking.watchMatchTicket` with reconnection). When the stream breaks
   * (UNAVAILABLE: a restart, the network) it watches again, as watchOf does: a new stream starts
   * with the ticket as it is then, and a ticket already yielded is not yielded again; it gives
   * up after `retries` failed tries in a row and, once a ticket came, only when `watchPatienceMs`
   * have passed too since the stream broke. A stream the server answers ends an outage.
   */
  async *watchTicket(ticketId: string, opts: TicketWatchOptions = {}): AsyncGenerator<MatchTicket> {
    const token = opts.token ?? this.token;
    const silenceMs = opts.silenceMs ?? 45000;
    let version = -1;
    const outage = new Outage();
    for (;;) {
      const attempt = new AbortController();
      const stop = () => attempt.abort();
      opts.signal?.addEventListener("abort", stop, { once: true });
      let heard = Date.now();
      let silent = false;
      const watchdog = setInterval(() => {
        if (Date.now() - heard > silenceMs) { silent = true; attempt.abort(); }
      }, Math.min(5000, silenceMs / 2));
      try {
        const stream = this.matchmaking.watchMatchTicket({ ticketId },
          { ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}), signal: attempt.signal });
        let answered = false;
        for await (const m of stream) {
          heard = Date.now();
          if (!answered) {
            answered = true;
            outage.failures = 0;
            opts.onState?.("live");
          }
          outage.backoffs = 0;
          const t = m.ticket;
          if (!t) continue; // a keep-alive
          const done = t.status !== MatchTicketStatus.WAITING;
          if (t.version <= version && !done) continue; // the ticket as it was, after a reconnection
          version = t.version;
          yield t;
          if (done) return;
        }
        return;
      } catch (e) {
        if (opts.signal?.aborted) return;
        const err = silent ? new TableroError("UNAVAILABLE", `the stream was silent for ${silenceMs} ms`, "UNAVAILABLE")
          : toTableroError(e);
        if (err.code !== "UNAVAILABLE") throw err;
        opts.onState?.("reconnecting", err);
        this.giveUpOr(err, outage, version >= 0);
      } finally {
        clearInterval(watchdog);
        opts.signal?.removeEventListener("abort", stop);
      }
      await this.backOff(outage, opts.signal);
    }
  }

  /** Resign the seat `token` opens (see Seat.resign): the game after it. */
  resign(gameId: string, token: string): Promise<AnyGame> {
    return this.call(() => this.rpc.resign({ gameId }, this.opts(token))).then((r) => anyGame(r.game));
  }

  /** @internal */
  async resignOf<E extends EngineName>(engine: E, gameId: string, token: string): Promise<Game<E>> {
    const r = await this.call(() => this.rpc.resign({ gameId }, this.opts(token)));
    return toGame(r.game, engine);
  }
}

/** A seat handle: a game id bound to the token that acts for it, typed by its engine. */
export class Seat<E extends EngineName> {
  constructor(
    readonly client: Client,
    readonly engine: E,
    readonly gameId: string,
    readonly token: string,
    readonly seat: number | undefined = undefined,
  ) {}

  game(version?: number): Promise<Game<E>> {
    return this.client.gameOf(this.engine, this.gameId, this.token, version);
  }

  legalActions(query: LegalQuery = {}): Promise<LegalActions<E>> {
    return this.client.legalActionsOf<E>(this.gameId, this.token, query);
  }

  act(action: ActionOf<E>, opts: ActOptions = {}): Promise<Game<E>> {
    return this.client.actOf(this.engine, this.gameId, this.token, action, opts);
  }

  /** Leave the game (its `onLeave`: the seat forfeits, or a bot takes it): the game after it. */
  resign(): Promise<Game<E>> {
    return this.client.resignOf(this.engine, this.gameId, this.token);
  }

  events(opts: { afterVersion?: number; pageSize?: number } = {}): AsyncGenerator<GameEvent<E>> {
    return this.client.eventsOf<E>(this.gameId, this.token, opts);
  }

  watch(opts: WatchOptions = {}): AsyncGenerator<GameEvent<E>> {
    return this.client.watchOf<E>(this.gameId, this.token, opts);
  }
}

/** CreateGame's answer: the game, and `seat(i)` handles for its human seats. */
export class CreatedGame<E extends EngineName> {
  constructor(
    readonly client: Client,
    readonly game: Game<E>,
    readonly tokens: ReadonlyMap<number, string>,
  ) {}

  get gameId(): string {
    return this.game.id;
  }

  /** The handle of seat `i` (a human seat: one the creator holds a token for). */
  seat(i: number): Seat<E> {
    const token = this.tokens.get(i);
    if (token === undefined) throw new TableroError("INVALID_ARGUMENT", `seat ${i} is not one of your seats`, "INVALID_ARGUMENT");
    return new Seat(this.client, this.game.engine, this.game.id, token, i);
  }

  /** A spectator's watch of the game. */
  watch(opts: WatchOptions = {}): AsyncGenerator<GameEvent<E>> {
    return this.client.watchOf<E>(this.game.id, undefined, opts);
  }
}
