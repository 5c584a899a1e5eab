"""Games moved along through the REST API (random legal moves for our seats, bots for the rest),
to put a browser in front of a position without clicking to it."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from tests import plainhttp


def unwrap(d: dict) -> dict:
    return d.get("game", d) if isinstance(d.get("game"), dict) else d


class ApiGame:
    def __init__(self, base: str, engine: str, seats: list[str], options: dict | None = None) -> None:
        self.base = base
        out = plainhttp.post(f"{base}/v1/games", json={"engine": engine, "players": len(seats), "seats": seats,
                                                   "options": options or {}}, timeout=30).json()
        assert "game" in out, out
        self.id = out["game"]["id"]
        self.engine = engine
        self.tokens = {s["seat"]: s["token"] for s in out["seats"]}
        self.path = f"{base}/v1/games/{self.id}"

    def get(self, seat: int | None = None) -> dict:
        headers = {"Authorization": f"Bearer {self.tokens[seat]}"} if seat is not None else {}
        return unwrap(plainhttp.get(self.path, headers=headers, timeout=30).json())

    def events(self) -> list[dict]:
        return [e["event"] for e in plainhttp.get(f"{self.path}/events?pageSize=1000", timeout=30).json()["events"]]

    def play(self, rng: random.Random, until: Callable[[ApiGame], bool], max_moves: int = 800) -> int:
        """Random legal moves (a random type, then one of its actions) for our seats until
        `until(self)` or the end; bots move on their own. Returns the moves made."""
        moves = 0
        while not until(self):
            g = self.get()
            if g["status"] == "GAME_STATUS_FINISHED":
                return moves
            ours = [s for s in g.get("toAct", []) if s in self.tokens]
            if not ours:
                time.sleep(0.05)  # a bot is moving
                continue
            assert moves < max_moves, f"{self.engine}: not there after {max_moves} moves"
            seat = rng.choice(ours)
            auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
            out = plainhttp.get(f"{self.path}/legal-actions", headers=auth, timeout=30).json()
            actions = out.get("actions") or []
            if not actions:
                continue
            by_type: dict[str, list] = {}
            for a in actions:
                by_type.setdefault(json.dumps(a.get("type")), []).append(a)
            action = rng.choice(by_type[rng.choice(sorted(by_type))])
            r = plainhttp.post(f"{self.path}/actions", headers=auth, timeout=30,
                           json={"action": action, "expectedVersion": out["version"]})
            if r.status_code == 200:
                moves += 1
        return moves

    def hold(self, page, seats: list[int]) -> None:
        """The browser `page` holds these seats (as if it had created the game)."""
        store = {self.id: {"engine": self.engine, "seats": [{"seat": s, "token": self.tokens[s]} for s in seats], "at": 0}}
        page.add_init_script(f"localStorage.setItem('tablero.games.v1', {json.dumps(json.dumps(store))})")
