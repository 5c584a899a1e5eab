"""A digest of engine behaviour, to prove a speed change changes nothing a player sees.

    python bench/behaviour_hash.py [seeds per setup, default 8] [engine ...] > hashes.txt

For every engine, seat count and option set (the engine's `kit_options`, plus the setups of
`bench/all_engines.py`), it plays seeded random games and hashes, at every decision, the legal
action list of the seat to act, the events the action made and the views of every seat and of
a spectator; one line per setup. Run it before and after an optimisation and `diff` the files.
"""

from __future__ import annotations

import hashlib
import random
import sys

from tablero.engines.core import InvalidOptions, LocalGame, canonical_json

from tablero import engines

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from all_engines import setups  # noqa: E402


def digest(name: str, seats: int, options: dict, seed: int) -> str:
    h = hashlib.sha256()
    g = LocalGame(name, seats=seats, seed=seed, options=options)
    engine = g.engine
    rng = random.Random(seed)
    viewers = [None, *range(seats)]

    def put(what: str, value: object) -> None:
        h.update(what.encode())
        h.update(canonical_json(value).encode())

    put("start", g.events)
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        actions = g.legal_actions(seat)
        put("legal", actions)
        for v in viewers:
            put("view", engine.view(g.state, v))
        put("events", g.act(seat, engine.random_action(g.state, seat, actions, rng)))
    for v in viewers:
        put("view", engine.view(g.state, v))
    put("outcome", g.outcome())
    return h.hexdigest()[:16]


def main(argv: list[str]) -> None:
    seeds = int(argv[0]) if argv and argv[0].isdigit() else 8
    names = [a for a in argv if not a.isdigit()] or engines.names()
    for name in names:
        engine = engines.get(name)
        runs = [(n, o) for n in range(engine.min_seats, engine.max_seats + 1)
                for o in getattr(engine, "kit_options", [{}])]
        runs += [(n, o) for n, o, _ in setups(engine)]
        seen = set()
        for seats, opts in runs:
            key = (seats, canonical_json(opts))
            if key in seen:
                continue
            seen.add(key)
            try:
                hashes = [digest(name, seats, opts, 1000 + s) for s in range(seeds)]
            except InvalidOptions:
                continue
            print(f"{name} {seats}p {canonical_json(opts)}: {' '.join(hashes)}", flush=True)

if __name__ == "__main__":
    main(sys.argv[1:])
