// A whole Riverboat game through @tablero/client: two seats play, a spectator watches live,
// and the winner is printed. Compiled with --strict and noUncheckedIndexedAccess; no casts,
// no non-null assertions (tests/clients/test_ts_sdk.py checks both).
//
//   node examples/out/riverboat.js http://127.0.0.1:8080
import { Client, TableroError, type RiverboatAction, type RiverboatEvent } from "@tablero/client";

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8080";
const client = new Client({ baseUrl });

/** How much this simple player likes an action (switch narrows on the action's type). */
function preference(action: RiverboatAction): number {
  switch (action.type) {
    case "plant":
      return 10 + action.cells.length;
    case "place_worker":
      return action.coin ? 1 : 5;
    case "choose_phase":
      return action.phase === "planting" ? 4 : 3;
    case "skip":
    case "return_workers":
      return 0;
    default:
      return 2;
  }
}

let seed = 12345;
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

function pick(actions: RiverboatAction[]): RiverboatAction | undefined {
  let best: RiverboatAction | undefined;
  let bestScore = -1;
  for (const a of actions) {
    const score = preference(a) + random() * 3;
    if (score > bestScore) {
      best = a;
      bestScore = score;
    }
  }
  return best;
}

function describe(event: RiverboatEvent): string | undefined {
  if (event.type === "game_ended") {
    return event.details.map((row) => `seat ${row.seat}: ${row.total} VP`).join(", ");
  }
  return undefined;
}

async function main(): Promise<void> {
  const created = await client.create("riverboat", { seats: ["human", "human"] });
  const seats = [created.seat(0), created.seat(1)];

  const watched: number[] = [];
  let scores: string | undefined;
  const watching = (async () => {
    for await (const item of created.watch()) {
      watched.push(item.version);
      const event = item.event;
      if (event.type === "game_ended") scores = describe(event);
    }
  })();

  let game = created.game;
  let moves = 0;
  while (!game.finished) {
    const who = game.toAct[0];
    const seat = who === undefined ? undefined : seats[who];
    if (seat === undefined) throw new Error(`no seat of ours to act (toAct ${game.toAct.join(",")})`);
    const legal = await seat.legalActions();
    const action = pick(legal.actions);
    if (action === undefined) throw new Error(`seat ${who} has no legal action`);
    try {
      game = await seat.act(action);
    } catch (e) {
      if (e instanceof TableroError) {
        console.error(`refused: ${e.code} ${e.reason ?? ""} ${e.message}`);
      }
      throw e;
    }
    moves++;
  }
  await watching;

  const outcome = game.outcome;
  if (outcome === undefined) throw new Error("a finished game without an outcome");
  const winners = outcome.winners.map((w) => `seat ${w}`).join(" and ");
  // The whole outcome as Riverboat declares it (its outcomeSchema), or the platform's when
  // seats forfeited early: narrowed by `endedBy`, each seat's in-game VP read without a cast.
  const raw = outcome.raw;
  const inGameVp = "endedBy" in raw ? [] : raw.details.map((d) => d.in_game.vp);
  console.log(JSON.stringify({
    gameId: game.id, moves, version: game.version, winners: outcome.winners, scores: outcome.scores,
    watched: watched.length, lastWatched: watched[watched.length - 1] ?? 0, details: scores ?? "", inGameVp,
  }));
  console.log(`winner: ${winners}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
