/**
 * @tablero/client: Tablero's TypeScript SDK (browsers and Node 20+), over Connect.
 * Per-engine payload types come from each engine's own JSON Schemas (./engines).
 */
export * from "./client.js";
export * from "./errors.js";
export type * from "./engines/index.js";
export { ENGINE_NAMES } from "./engines/index.js";
export type { JsonObject, JsonValue } from "./json.js";
export { GameService } from "./gen/tablero/v1/games_pb.js";
export { RankingService } from "./gen/tablero/v1/rankings_pb.js";
export { NotificationService } from "./gen/tablero/v1/notifications_pb.js";
export { MatchmakingService, PlayerService } from "./gen/tablero/v1/players_pb.js";
// The enums of the generated clients' messages (numbers, as protobuf-es has them):
// `MatchTicketStatus[ticket.status]` is its name, `ticket.status === MatchTicketStatus.MATCHED` a test.
export { MatchTicketStatus } from "./gen/tablero/v1/players_pb.js";
export { GameStatus, SeatKind as SeatKindValue } from "./gen/tablero/v1/games_pb.js";
export { UnrankedShare } from "./gen/tablero/v1/rankings_pb.js";
