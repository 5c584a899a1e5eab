// A client a web developer would write: generated types (openapi-typescript) and openapi-fetch,
// strict TypeScript, no non-null assertions and no type assertions. Creates a game against a
// bot, watches it over SSE while acting, and prints what it saw as JSON.
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Game = components["schemas"]["Game"];
type WatchEvent = components["schemas"]["WatchGameResponse"];
type WatchEnd = components["schemas"]["WatchEnd"];

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8080";
const client = createClient<paths>({ baseUrl });

async function watch(gameId: string, token: string): Promise<{ events: WatchEvent[]; end: WatchEnd }> {
  const { data, response } = await client.GET("/v1/games/{gameId}/watch", {
    params: { path: { gameId } },
    headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
    parseAs: "stream",
  });
  if (data === undefined || data === null) throw new Error(`watch refused: HTTP ${response.status}`);
  const reader = data.pipeThrough(new TextDecoderStream()).getReader();
  const events: WatchEvent[] = [];
  let buffer = "";
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error("the stream closed before its end message");
    buffer += chunk.value;
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf("\n\n");
      let name = "message";
      let text = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice("event: ".length);
        else if (line.startsWith("data: ")) text += line.slice("data: ".length);
      }
      if (text === "") continue; // a comment (keepalive)
      if (name === "message") {
        const event: WatchEvent = JSON.parse(text);
        events.push(event);
      } else if (name === "end") {
        const end: WatchEnd = JSON.parse(text);
        await reader.cancel();
        return { events, end };
      } else {
        throw new Error(`watch stopped: ${name} ${text}`);
      }
    }
  }
}

async function main(): Promise<void> {
  const created = await client.POST("/v1/games", {
    body: { engine: "tic-tac-toe", players: 2, seats: ["human", "bot"] },
  });
  if (created.data === undefined) throw new Error(`create refused: ${created.error.error.message}`);
  const { game, seats } = created.data;
  const mine = seats[0];
  if (mine === undefined) throw new Error("no token for the human seat");
  const headers = { Authorization: `Bearer ${mine.token}` };
  const path = { gameId: game.id };

  const watching = watch(game.id, mine.token);
  let current: Game = game;
  let actions = 0;
  while (current.status === "GAME_STATUS_RUNNING") {
    const legal = await client.GET("/v1/games/{gameId}/legal-actions", { params: { path }, headers });
    if (legal.data === undefined) throw new Error(`legal actions refused: ${legal.error.error.message}`);
    const action = legal.data.actions[0];
    if (action === undefined) throw new Error(`seat ${legal.data.seat} has no legal action`);
    const acted = await client.POST("/v1/games/{gameId}/actions", {
      params: { path },
      headers,
      body: { action, expectedVersion: legal.data.version, requestId: `move-${actions}` },
    });
    if (acted.data === undefined) throw new Error(`action refused: ${acted.error.error.code}`);
    current = acted.data;
    actions += 1;
  }
  const { events, end } = await watching;
  const last = events[events.length - 1];
  // The log after version 2 (the typed query takes afterVersion as a number).
  const tail = await client.GET("/v1/games/{gameId}/events", {
    params: { path, query: { afterVersion: 2, pageSize: 100 } },
  });
  if (tail.data === undefined) throw new Error(`events refused: ${tail.error.error.message}`);
  console.log(JSON.stringify({
    gameId: game.id,
    status: current.status,
    version: current.version,
    winners: current.outcome?.["winners"] ?? null,
    versions: events.map((e) => e.version),
    after2: tail.data.events.map((e) => e.version),
    lastEventType: last?.event["type"] ?? null,
    end: end.status,
    actions,
  }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
