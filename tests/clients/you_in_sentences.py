"""Sentences that name a seat that may be the viewer's, as both clients must word them
(tests/clients/test_you_in_sentences.py, the terminal; tests/web/test_you_in_sentences.py, the
browser).

Spanish read "la loseta es de Rojo (tú)", "la Oficina de Correos paga 2$ a Rojo (tú)", "El turno
pasa a Rojo (tú)": the seat's name with its "(tú)" marker dropped into a sentence whose grammar it
does not fit (after "de", "a", "por"; a verb in the third person). Each template now has
`<field>_you` beside `<field>_who` and says "la loseta es tuya", "te paga 2$", "El turno pasa a ti",
and English "the tile is yours", "pays you $2", "The turn passes to you".
The cases are each engine's own events, worded for the viewer at seat 0; `{p1}` and `{p2}` stand
for seats 1 and 2 as each client names them.

WAITING: who is waited for, the viewer's seat among two others, as each client's waiting line
words it (the terminal's `play.waiting`, the browser's `web.waiting`; Phoenicia's board line)."""

from __future__ import annotations

# (engine, the event, {lang: the sentence})
CASES = [
    ("riverboat", {"type": "phase_started", "phase": "cultivation", "holder": 0},
     {"es": "Empieza la fase de cultivo (la loseta es tuya).", "en": "The cultivation phase starts (the tile is yours)."}),
    ("riverboat", {"type": "phase_started", "phase": "cultivation", "holder": 1},
     {"es": "Empieza la fase de cultivo (la loseta es de {p1}).", "en": "The cultivation phase starts ({p1} holds the tile)."}),
    ("riverboat", {"type": "round_ended", "round": 2, "first_player": 0},
     {"es": "Termina la ronda 2; la próxima empiezas tú.", "en": "Round 2 ends; you go first next."}),
    ("riverboat", {"type": "game_started", "seats": 2, "first_player": 0},
     {"es": "Empieza la partida con 2 jugadores; empiezas tú.", "en": "The game starts with 2 players; you go first."}),
    ("new-bedford", {"type": "round_ended", "round": 2, "post_office": {"seat": 0, "money": 2}, "first_player": 1},
     {"es": "Termina la ronda 2; la Oficina de Correos te paga 2$; la próxima empieza {p1}.",
      "en": "Round 2 ends; the Post Office pays you $2; {p1} goes first next."}),
    ("new-bedford", {"type": "worker_placed", "seat": 1, "space": "bakery", "fee": 1, "owner": 0},
     {"es": "{p1} coloca un trabajador en la Panadería, pagándote 1$ de tarifa.",
      "en": "{p1} places a worker on the Bakery, paying you a $1 fee."}),
    ("founders-of-gloomhaven", {"type": "turn_passed", "active": 0},
     {"es": "El turno pasa a ti.", "en": "The turn passes to you."}),
    ("founders-of-gloomhaven", {"type": "vote_opened", "caller": 0},
     {"es": "Se abre la votación (convocada por ti).", "en": "The vote opens (called by you)."}),
    ("new-bedford", {"type": "sale_opened", "seat": 0, "space": "market", "kinds": ["food"]},
     {"es": "Vas a vender en el Mercado: se puede vender comida.", "en": "You go to sell at the Market: food may be sold."}),
    ("founders-of-gloomhaven", {"type": "achievement_scored", "achievement": "a", "value": 3, "scorers": [0, 1]},
     {"es": "El logro a da 3 a ti y a {p1}.", "en": "Achievement a scores 3 for you and {p1}."}),
    ("founders-of-gloomhaven", {"type": "achievement_scored", "achievement": "a", "value": 3, "scorers": [1, 0]},
     {"es": "El logro a da 3 a ti y a {p1}.", "en": "Achievement a scores 3 for you and {p1}."}),
    # Three seats or more: a list ("a ti, a {p1} y a {p2}"), not "a ti y a {p1} y {p2}" (outside review)
    ("founders-of-gloomhaven", {"type": "achievement_scored", "achievement": "a", "value": 3, "scorers": [1, 0, 2]},
     {"es": "El logro a da 3 a ti, a {p1} y a {p2}.", "en": "Achievement a scores 3 for you, {p1} and {p2}."}),
    ("phoenicia", {"type": "round_started", "round": 2, "overlord": 0},
     {"es": "Empieza la ronda 2; tú eres el Overlord.", "en": "Round 2 starts; you are the Overlord."}),
    ("goofspiel", {"type": "bids_revealed", "bids": [3, 2], "winner": 0},
     {"es": "; ganas tú el premio.", "en": "; you win the prize."}),
]

WAITING = {
    "play.waiting": {"es": "esperando tu jugada, la de {p1} y la de {p2}…", "en": "waiting for you, {p1} and {p2}…"},
    "web.waiting": {"es": "Esperando tu jugada, la de {p1} y la de {p2}.", "en": "Waiting for you, {p1} and {p2}."},
}


def said(line: str, words: str) -> bool:
    """Whether `line` is the sentence `words` (a seat's name at its start capitalised or not), or,
    for words from "; " on (Goofspiel's: the end of its sentence), ends with them."""
    if words.startswith(";"):
        return line.endswith(words)
    return line[:1].lower() + line[1:] == words[:1].lower() + words[1:]
