/** JSON values as the generated messages carry them (google.protobuf.Struct fields). */
export type { JsonObject, JsonValue } from "@bufbuild/protobuf";
