import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { Code, ConnectError } from "@connectrpc/connect";

const ERROR_INFO = "google.rpc.ErrorInfo";

/** The gRPC name of a Connect code: FAILED_PRECONDITION, UNAVAILABLE, ... */
export type ErrorCode =
  | "CANCELLED" | "UNKNOWN" | "INVALID_ARGUMENT" | "DEADLINE_EXCEEDED" | "NOT_FOUND" | "ALREADY_EXISTS"
  | "PERMISSION_DENIED" | "RESOURCE_EXHAUSTED" | "FAILED_PRECONDITION" | "ABORTED" | "OUT_OF_RANGE"
  | "UNIMPLEMENTED" | "INTERNAL" | "UNAVAILABLE" | "DATA_LOSS" | "UNAUTHENTICATED";

const CODES: Record<Code, ErrorCode> = {
  [Code.Canceled]: "CANCELLED",
  [Code.Unknown]: "UNKNOWN",
  [Code.InvalidArgument]: "INVALID_ARGUMENT",
  [Code.DeadlineExceeded]: "DEADLINE_EXCEEDED",
  [Code.NotFound]: "NOT_FOUND",
  [Code.AlreadyExists]: "ALREADY_EXISTS",
  [Code.PermissionDenied]: "PERMISSION_DENIED",
  [Code.ResourceExhausted]: "RESOURCE_EXHAUSTED",
  [Code.FailedPrecondition]: "FAILED_PRECONDITION",
  [Code.Aborted]: "ABORTED",
  [Code.OutOfRange]: "OUT_OF_RANGE",
  [Code.Unimplemented]: "UNIMPLEMENTED",
  [Code.Internal]: "INTERNAL",
  [Code.Unavailable]: "UNAVAILABLE",
  [Code.DataLoss]: "DATA_LOSS",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
};

/**
 * A refusal or failure of a call. `code` is the status (as on gRPC), `reason` the stable
 * machine-readable reason when the server names one (google.rpc.ErrorInfo, e.g.
 * NOT_YOUR_TURN, ILLEGAL_ACTION), `metadata` the ErrorInfo's (STALE_VERSION: the game's
 * `version`; empty when none), `retryAfter` the seconds a rate-limited caller waits.
 */
export class TableroError extends Error {
  override readonly name = "TableroError";
  readonly metadata: Readonly<Record<string, string>>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly reason: string | undefined = undefined,
    readonly retryAfter: number | undefined = undefined,
    options?: { cause?: unknown; metadata?: Record<string, string> },
  ) {
    super(message, options);
    this.metadata = options?.metadata ?? {};
  }

  /** Retrying the same call may succeed (the server or the network was away). */
  get transient(): boolean {
    return this.code === "UNAVAILABLE";
  }
}

/** ErrorInfo's `reason` (field 1) and `metadata` (field 3, map<string, string>) from its binary form. */
function errorInfo(bytes: Uint8Array): { reason: string | undefined; metadata: Record<string, string> } {
  const r = new BinaryReader(bytes);
  let reason: string | undefined;
  const metadata: Record<string, string> = {};
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WireType.LengthDelimited) reason = r.string();
    else if (field === 3 && wire === WireType.LengthDelimited) {
      const entry = new BinaryReader(r.bytes());
      let key = "", value = "";
      while (entry.pos < entry.len) {
        const [f, w] = entry.tag();
        if (f === 1 && w === WireType.LengthDelimited) key = entry.string();
        else if (f === 2 && w === WireType.LengthDelimited) value = entry.string();
        else entry.skip(w);
      }
      metadata[key] = value;
    } else r.skip(wire);
  }
  return { reason, metadata };
}

function infoOf(e: ConnectError): { reason: string | undefined; metadata: Record<string, string> } {
  for (const d of e.details) {
    if ("type" in d && d.type === ERROR_INFO) {
      const info = errorInfo(d.value);
      if (info.reason) return info;
    }
  }
  return { reason: undefined, metadata: {} };
}

/** Any failure of a call → TableroError (network failures are UNAVAILABLE: retried). */
export function toTableroError(e: unknown): TableroError {
  if (e instanceof TableroError) return e;
  const c = ConnectError.from(e);
  let code = CODES[c.code];
  // fetch() failing (server down, connection reset) reaches us as UNKNOWN with a TypeError.
  if (code === "UNKNOWN" && !c.isWireError) code = "UNAVAILABLE";
  const wait = c.metadata.get("retry-after");
  const { reason, metadata } = infoOf(c);
  return new TableroError(code, c.rawMessage, reason, wait ? Number(wait) : undefined, { cause: e, metadata });
}
