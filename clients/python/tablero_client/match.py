"""`tablero match ENGINE`: quick match for a portal user, then play the game it finds.

    tablero match tic-tac-toe --token "$PORTAL_JWT"            # wait for another player
    tablero match new-bedford --players 2,3 --bots-after 30    # bots fill after 30 s

The portal user's JWT is the --token (or TABLERO_TOKEN). The ticket is made with
POST /v1/matchmaking/tickets and followed until it is matched (then the game is played as
`tablero play --game ... --token <seat token>` would), expired or cancelled. Ctrl-C while
waiting cancels the ticket. Over REST only (--url).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid

import httpx

from .cli import usage_error

POLL = 0.5


def add_arguments(s: argparse.ArgumentParser) -> None:
    s.add_argument("engine")
    s.add_argument("--players", help="table sizes you accept, e.g. 2 or 2,3 (default: the engine's smallest)")
    s.add_argument("--options", help="engine options as JSON (only tickets with the same options match)")
    s.add_argument("--bots-after", type=float, default=0, help="seconds after which bots fill the empty seats")
    s.add_argument("--window", type=float, default=0, help="the widest rating difference you accept")
    s.add_argument("--wait", type=float, default=120, help="seconds before the ticket expires (default 120)")
    s.add_argument("--page", type=int, help="list at most this many actions at once (default: as many as fit "
                                             "the terminal's height, at most 24)")
    s.add_argument("--width", type=int, help="terminal width for the rendering")
    s.add_argument("--no-play", action="store_true", help="print the match (game, seat, token) and stop")


def _body(args: argparse.Namespace) -> dict:
    body: dict = {"engine": args.engine, "requestId": uuid.uuid4().hex, "timeoutSeconds": args.wait}
    if args.players:
        try:
            body["players"] = [int(p) for p in args.players.split(",")]
        except ValueError:
            raise usage_error(f"--players must be numbers separated by commas, not {args.players!r}") from None
    if args.options:
        try:
            body["options"] = json.loads(args.options)
        except ValueError as e:
            raise usage_error(f"--options must be a JSON object: {e}") from None
    if args.bots_after:
        body["botsAfterSeconds"] = args.bots_after
    if args.window:
        body["ratingWindow"] = args.window
    return body


def _wait(http: httpx.Client, base: str, ticket: dict) -> dict:
    start = time.monotonic()
    shown = -1
    while ticket["status"] == "MATCH_TICKET_STATUS_WAITING":
        waited = int(time.monotonic() - start)
        if waited != shown and waited % 5 == 0:
            print(T("match.waiting", {"seconds": waited}), flush=True)
            shown = waited
        time.sleep(POLL)
        try:
            r = http.get(f"{base}/v1/matchmaking/tickets/{ticket['id']}")
        except httpx.TransportError:  # the server restarting, a network blip: ask again
            continue
        if r.status_code == 429 or r.status_code >= 500:
            continue
        if r.status_code != 200:  # e.g. the portal JWT expired while we waited
            raise SystemExit(f"error: {_message(r)}\nticket {ticket['id']} may still be matched: "
                             "cancel it (or run tablero match again) with a fresh portal JWT")
        ticket = r.json()["ticket"]
    return ticket


def _words(args: argparse.Namespace) -> None:
    """The platform's words (`match.*`) in the player's language (--lang, else LANG), as `play` has them."""
    from .cli import _client
    from .render import i18n

    i18n.set_language(getattr(args, "lang", None))
    with _client(args) as c:
        i18n.load(c, "tablero")


def T(key: str, args: dict | None = None) -> str:  # noqa: N802 - the platform's words
    from .play import T as words

    return words(key, args)


def _rating(r: float) -> str:
    """A rating to one decimal, with the language's decimal mark ("0,0" in Spanish)."""
    from babel.numbers import format_decimal

    from .render import i18n

    return format_decimal(r, format="0.0", locale=i18n.current_language())


def _message(r: httpx.Response) -> str:
    try:
        return str(r.json()["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return f"HTTP {r.status_code}"


def run(args: argparse.Namespace) -> int:
    if args.grpc:
        raise usage_error("match: over REST only (--url)")
    if not args.token:
        raise usage_error("match needs your portal JWT: --token JWT (or TABLERO_TOKEN)")
    base = args.url.rstrip("/")
    _words(args)
    with httpx.Client(timeout=args.timeout, headers={"Authorization": f"Bearer {args.token}"}) as http:
        r = http.post(f"{base}/v1/matchmaking/tickets", json=_body(args))
        if r.status_code != 200:
            print(f"error: {r.json().get('error', {}).get('message', r.text)}", file=sys.stderr)
            return 1
        ticket = r.json()["ticket"]
        # Two short lines: an 80-column terminal would cut one long line mid-phrase.
        print(T("match.looking", {"engine": args.engine, "rating": _rating(ticket["rating"])}))
        print(T("match.ticket", {"id": ticket["id"]}), flush=True)
        try:
            ticket = _wait(http, base, ticket)
        except KeyboardInterrupt:
            http.post(f"{base}/v1/matchmaking/tickets/{ticket['id']}:cancel", json={})
            print(T("match.cancelled"))
            return 130
    if ticket["status"] != "MATCH_TICKET_STATUS_MATCHED":
        print(T("match.no_game", {"status": ticket["status"].rsplit("_", 1)[1].lower()}))
        return 1
    print(T("match.matched", {"game": ticket["gameId"], "seat": ticket["seat"] + 1}), flush=True)  # from 1, as the game's screens
    if args.no_play:
        print(json.dumps({"gameId": ticket["gameId"], "seat": ticket["seat"], "token": ticket["seatToken"]}))
        return 0
    from .play import play

    args.game, args.token, args.join = ticket["gameId"], ticket["seatToken"], None
    return play(args)
