/**
 * The browser client's bundle (clients/web/js/vendor/tablero-client.js, built by
 * `python scripts/build_ts_sdk.py --web`): the SDK, plus the protobuf JSON codec and the
 * generated messages, so the page can keep the REST/JSON shapes it renders.
 */
export * from "./index.js";
export { fromJson, toJson } from "@bufbuild/protobuf";
export { createGrpcWebTransport } from "@connectrpc/connect-web";
export * as pb from "./gen/tablero/v1/games_pb.js";
