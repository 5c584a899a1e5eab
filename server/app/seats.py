"""Seats: the seat kinds a new game is created with, and the seat directory of each game
(which seat is taken, and by which portal user), with the claims behind joined seats' tokens.

The directory lives in the lobby (server.portal.lobby): once every seat of a game is taken it
never changes, so each replica keeps it (bounded like the game cache) instead of asking the
lobby on every reply; a game created with every seat taken carries it in its metadata.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from tablero.engines.core import Engine
from tablero.engines.core.search import LEVELS as BOT_LEVELS
from tablero.server.errors import InvalidArgument, PermissionDenied, Unauthenticated
from tablero.server.portal.identity import User, has_control

from . import commands as cmd
from . import rules
from .replies import SEAT_KINDS as KIND_ENUM
from .repository import GameRepository, LoadedGame

SEAT_KINDS = ("human", "open", "bot")
CREATE_KINDS = (*SEAT_KINDS, "me")
# A joined seat's token names its claim (server/portal/tokens.py). It is checked against the
# claims in the replica's cached meta (no store read); the meta is read again at a mismatch, and
# at most every CLAIM_RECHECK seconds per game while joined seats' tokens are used, so a claim
# the store lost (a failover, a restored backup) stops opening its seat within that long on
# every replica, at once on one that saw the new claim.
CLAIM_RECHECK = 5.0
CLAIMS_CHECKED_MAX = 10_000


class SeatDirectory:
    """Who holds each seat of a game (`directory`), and whether a seat token's claim still
    stands (`check_claim`)."""

    def __init__(self, games: GameRepository, lobby: Any, cache_size: int) -> None:
        self.games = games
        self.lobby = lobby
        self.cache_size = cache_size
        # Directories of games whose every seat is taken (they never change again).
        self._seated: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._claims_checked: OrderedDict[str, float] = OrderedDict()  # game -> when its claims were read
        self._played: OrderedDict[tuple[str, int], None] = OrderedDict()  # seats marked as having moved, here

    def known(self, game_id: str, meta: dict[str, Any] | None = None) -> list[dict[str, Any]] | None:
        """The seat directory when this replica has it without asking the lobby (kept, or in
        `meta`), else None."""
        seats = self._seated.get(game_id)
        if seats is not None:
            self._seated.move_to_end(game_id)
            return seats
        if meta is not None and "users" in meta and "open" not in meta["seats"]:
            entry = {"seats": [{"seat": s, "kind": k, "user": u, "taken": True}
                               for s, (k, u) in enumerate(zip(meta["seats"], meta["users"], strict=True))]}
            self.remember(game_id, entry)
            return entry["seats"]
        return None

    async def directory(self, game_id: str, meta: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The seat directory of a game: each seat's kind, whether it is taken and by which
        portal user. Once every seat is taken it never changes: then it is kept per replica.
        A game created with every seat taken has it in its metadata (`meta`, when given)."""
        seats = self.known(game_id, meta)
        if seats is not None:
            return seats
        entry = await self.lobby.get(game_id)
        if entry is None:
            return []
        self.remember(game_id, entry)
        return entry["seats"]

    def played_known(self, game_id: str, meta: dict[str, Any], seat: int) -> bool:
        """Whether `played` has nothing to do: marked already here, or an anonymous game (the
        caller need not make its coroutine)."""
        return (game_id, seat) in self._played or ("users" in meta and not any(meta["users"]))

    async def played(self, game_id: str, meta: dict[str, Any], seat: int) -> None:
        """`seat` made a move of its own: its portal user's seat is marked so in the lobby entry,
        once (per replica): a game some user never moved in is not rated (docs/ratings.md), so a
        game nobody came to cannot be won or lost by a clock."""
        key = (game_id, seat)
        if self.played_known(game_id, meta, seat):
            return
        seats = await self.directory(game_id, meta)
        if any(s["seat"] == seat and s.get("user") for s in seats):
            await self.lobby.mark(game_id, acted=[seat])
        self._played[key] = None
        while len(self._played) > CLAIMS_CHECKED_MAX:
            self._played.popitem(last=False)

    def remember(self, game_id: str, entry: dict[str, Any]) -> None:
        """A game's lobby entry, as written or read: kept once every seat is taken."""
        if all(s["taken"] for s in entry["seats"]):
            self._seated[game_id] = entry["seats"]
            while len(self._seated) > self.cache_size:
                self._seated.popitem(last=False)

    async def seat_of(self, game_id: str, user: User) -> int | None:
        """The seat `user` holds in `game_id`, if any."""
        for s in await self.directory(game_id):
            if (s.get("user") or {}).get("id") == user.id:
                return s["seat"]
        return None

    async def user_seat(self, game_id: str, user: User, *, required: bool) -> int | None:
        await self.games.meta(game_id)  # NotFound first
        seat = await self.seat_of(game_id, user)
        if seat is None and required:
            raise PermissionDenied(f"user {user.id!r} holds no seat in game {game_id}", "NOT_SEATED")
        return seat

    async def check_claim(self, game_id: str, seat: int, claim: str) -> None:
        """Unauthenticated unless `claim` is the claim the store holds for `seat` (see
        CLAIM_RECHECK): no store read while the cached claim matches and is recent."""
        meta = await self.games.meta(game_id)
        now = time.monotonic()
        fresh = now - self._claims_checked.get(game_id, -CLAIM_RECHECK) < CLAIM_RECHECK
        if not fresh or (meta.get("claims") or {}).get(str(seat)) != claim:
            meta = await self.games.meta(game_id, exact=True)
            self._claims_checked[game_id] = now
            self._claims_checked.move_to_end(game_id)
            while len(self._claims_checked) > CLAIMS_CHECKED_MAX:
                self._claims_checked.popitem(last=False)
        held = (meta.get("claims") or {}).get(str(seat))
        if held != claim:
            taken = "another player holds it now" if held is not None or seat in meta.get("claimed", ()) \
                else "it is open again"
            raise Unauthenticated(f"this seat token's claim no longer stands: the server lost the join that took "
                                  f"seat {seat} (a store failover or restore), and {taken}; join the game again",
                                  "CLAIM_LOST")


def seat_reply(e: dict[str, Any]) -> dict[str, Any]:
    """A seat of the directory in the API's shape (kind enum, claimed, the user)."""
    out: dict[str, Any] = {"seat": e["seat"], "kind": KIND_ENUM[e["kind"]], "claimed": bool(e["taken"])}
    if e.get("level") and e["kind"] == "bot":
        out["botLevel"] = e["level"]
    if e.get("user"):
        out["userId"] = e["user"]["id"]
        if e["user"].get("name"):
            out["userName"] = e["user"]["name"]
    return out


# --- a new game's seats ---------------------------------------------------------------------
def bot_levels(c: cmd.CreateGame, kinds: list[str]) -> list[str | None] | None:
    """The bot seats' levels from `seatSpecs` ({"kind": "bot", "level": ...}) or `seats`
    ("bot:hard"); None when no seat names a level (plain "bot": easy, as games were before
    levels). A level named, "easy" too, is kept and shown (botLevel).
    A seatSpec's empty level is the default (proto3: gRPC and Connect cannot tell "" from no
    level); `"bot:"`, a level left out after the colon, is refused as a typo."""
    for i, k in enumerate(() if c.seat_specs else c.seats):
        if isinstance(k, str) and k.startswith("bot:") and not k[4:].strip():
            raise InvalidArgument(f'seat {i}: "{k}" names no bot level: write "bot" (easy) or one of '
                                  f'{", ".join("bot:" + lv for lv in BOT_LEVELS)}')
    raw = [x.get("level") or None for x in c.seat_specs] if c.seat_specs else \
        [k.partition(":")[2] or None for k in c.seats]
    raw += [None] * (len(kinds) - len(raw))
    for i, lv in enumerate(raw):
        if lv is None:
            continue
        if kinds[i] != "bot":
            raise InvalidArgument(f'seat {i}: only a bot seat has a level, not this {kinds[i]!r} seat')
        if lv not in BOT_LEVELS:
            raise InvalidArgument(f'seat {i}: the bot level must be one of {", ".join(BOT_LEVELS)}, not {lv!r}')
    return raw if any(lv is not None for lv in raw) else None


def seat_specs(c: cmd.CreateGame, engine: Engine) -> list[tuple[str, dict[str, Any] | None]]:
    """(kind, portal user or None) per seat, from `seats` (kinds) or `seatSpecs` (objects)."""
    if c.seats and c.seat_specs:
        raise InvalidArgument('give either "seats" or "seatSpecs", not both')
    raw = [{"kind": k.partition(":")[0] if k.startswith("bot:") else k} for k in c.seats] if c.seats \
        else [dict(x) for x in c.seat_specs]
    for i, spec in enumerate(raw):
        if spec.get("kind") not in CREATE_KINDS:
            given = f'not {spec["kind"]!r}' if spec.get("kind") is not None else "and it is missing"
            raise InvalidArgument(f'seat {i}: the kind must be one of {", ".join(CREATE_KINDS)}, {given}')
    kinds = seat_kinds(engine, c.players, tuple("human" if x["kind"] == "me" else x["kind"] for x in raw))
    out = [_seat_spec(c, i, kind, raw[i] if raw else {"kind": kind}) for i, kind in enumerate(kinds)]
    held = [u["id"] for _, u in out if u is not None]
    if len(held) != len(set(held)):
        raise InvalidArgument("a portal user can hold only one seat of a game")
    return out


def _seat_spec(c: cmd.CreateGame, i: int, kind: str, spec: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """Seat `i`'s (kind, portal user or None): "me" (the creator), a seat reserved for a
    user, or a seat of `kind` nobody holds yet."""
    uid, name = spec.get("userId") or None, spec.get("userName") or None
    if any(isinstance(v, str) and has_control(v) for v in (uid, name)):
        raise InvalidArgument(f"seat {i}: userId and userName cannot hold control characters or lone surrogates")
    if spec["kind"] == "me":
        if c.user is None:
            raise Unauthenticated('a "me" seat needs a portal JWT: Authorization: Bearer <jwt>', "TOKEN_MISSING")
        if uid is not None:
            raise InvalidArgument(f'seat {i}: a "me" seat names no other user')
        if name is not None:
            raise InvalidArgument(f'seat {i}: a "me" seat takes its name from the portal JWT, not userName')
        return "me", {"id": c.user.id, "name": c.user.name}
    if uid is not None:
        if kind != "human":
            raise InvalidArgument(f'seat {i}: only a human seat can name a user')
        if c.user is None:
            raise Unauthenticated(f'seat {i}: reserving a seat for a user needs a portal JWT: '
                                  'Authorization: Bearer <jwt>', "TOKEN_MISSING")
        if len(uid) > 128 or (name is not None and len(name) > 64):
            raise InvalidArgument(f"seat {i}: userId is at most 128 characters, userName at most 64")
        return kind, {"id": uid, "name": name}
    if name is not None:
        raise InvalidArgument(f"seat {i}: userName names the user of userId; give both, or neither")
    return kind, None


def seat_kinds(engine: Engine, players: int | None, seats: tuple[str, ...]) -> list[str]:
    if players is None:
        players = len(seats) or engine.min_seats
    elif seats and len(seats) != players:
        raise InvalidArgument(f'"players" is {players} but "seats" lists {len(seats)}: give one seat kind per player')
    if not engine.min_seats <= players <= engine.max_seats:
        span = f"{engine.min_seats}" if engine.min_seats == engine.max_seats else \
            f"{engine.min_seats}-{engine.max_seats}"
        raise InvalidArgument(f"{engine.title} takes {span} players, not {players}")
    kinds = list(seats) or ["human"] * players
    if any(k not in SEAT_KINDS for k in kinds):
        raise InvalidArgument(f'"seats" must list {players} seat kinds, each one of {", ".join(SEAT_KINDS)}')
    return kinds


def lobby_entry(c: cmd.CreateGame, game: LoadedGame, kinds: list[str],
                users: list[dict[str, Any] | None]) -> dict[str, Any]:
    """A new game's lobby entry (ListGames): its seats, who holds them, who was invited; for a
    game of bots only that a portal user started, that user (`owner`: it counts against their
    open-games cap, GameLobby.check_open_games)."""
    return {
        "gameId": game.id, "engine": game.engine.name, "players": len(kinds), "created": game.meta["created"],
        "status": "FINISHED" if game.finished else "RUNNING",
        "acting": True,  # its seats are marked "acted" at their first move (older entries were not)
        **({"owner": c.user.id} if c.user is not None and rules.bot_only({"seats": kinds}) else {}),
        "seats": [{"seat": s, "kind": k, "user": users[s], "taken": k != "open",
                   **({"invited": True} if users[s] is not None and not c.matched
                      and (c.user is None or users[s]["id"] != c.user.id)
                      else {}),
                   **({"level": game.levels[s]} if game.levels and game.levels[s] else {})}
                  for s, k in enumerate(kinds)],
    }
