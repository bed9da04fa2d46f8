"""Full traces of single deals: the core's action rows turned into positions.json actions.

A trace is what the reference referee replays (format at the end of ``sim/RULINGS.md``).
"""
from __future__ import annotations

import numpy as np

from sim.core import layout as E
from sim.core.cards import RANKS, card_name, cards_of, lead_cards
from sim.core.rules import Rules
from sim.core.records import OUTCOMES


def decode_actions(rows: np.ndarray) -> list[list[dict]]:
    """Trace rows -> one list of action dicts per deal."""
    return decode(rows)[0]


def decode_shuffles(rows: np.ndarray) -> list[list[list[str]]]:
    """Trace rows -> per deal, the talon orders (top first) after each otboyny shuffle (VAR-OT1)."""
    return decode(rows)[1]


def decode(rows: np.ndarray) -> tuple[list[list[dict]], list[list[list[str]]]]:
    """Trace rows -> (one list of action dicts per deal, per deal the talons shuffled in by otboyny)."""
    deals: list[list[dict]] = []
    shuffles: list[list[list[str]]] = []
    acts: list[dict] = []
    shuf: list[list[str]] = []
    covers: list[dict] = []
    for code, p, a, b in rows.tolist():
        if code == E.T_DEAL:
            acts = []
            shuf = []
            deals.append(acts)
            shuffles.append(shuf)
        elif code == E.T_RESHUFFLE:  # not an action: the new talon order, one row per card
            if b == 0:
                shuf.append([])
            shuf[-1].append(card_name(a))
        elif code == E.T_ATTACK:
            act = {"type": "attack", "player": p, "cards": [card_name(c) for c in lead_cards(a)]}
            if b == 1:  # armenian: led from the top of the talon (RUL-45)
                act["from_talon"] = True
            acts.append(act)
        elif code == E.T_COVER:
            acts.append({"type": "cover", "player": p, "attack": card_name(a), "cover": card_name(b)})
        elif code == E.T_TAKE:
            acts.append({"type": "take", "player": p})
        elif code == E.T_THROW_IN:
            acts.append({"type": "throw_in", "player": p, "cards": [card_name(a)]})
        elif code == E.T_PASS:
            acts.append({"type": "pass", "player": p})
        elif code == E.T_TRANSFER:
            acts.append({"type": "transfer", "player": p, "card": card_name(a)})
        elif code == E.T_SHOW:
            acts.append({"type": "transfer_by_showing", "player": p, "card": card_name(a)})
        elif code == E.T_EXCHANGE:
            acts.append({"type": "exchange_trump_six", "player": p})
        elif code == E.T_SWAP:  # VAR-PO1: also a declined swap (no cards), so replay needs no inference
            acts.append({"type": "swap", "player": p, "cards": [card_name(c) for c in cards_of(a)]})
        elif code == E.T_DEFEND:
            if a >= 0:
                covers.append({"attack": card_name(a), "cover": card_name(b)})
            else:
                acts.append({"type": "defend", "player": p, "covers": covers,
                             "take": [card_name(c) for c in cards_of(b)]})
                covers = []
        else:
            raise ValueError(f"unknown trace code {code}")
    return deals, shuffles


def result_of(rec: np.ndarray, rules: Rules) -> dict:
    n = rules.num_players
    teams = rules.teams
    return {
        "fool": None if rec["fool"] < 0 or teams is not None else int(rec["fool"]),
        "losing_team": (None if teams is None or rec["losing_team"] < 0 else int(rec["losing_team"])),
        "outcome": [OUTCOMES[o] for o in rec["outcome"][:n]],
        "places": [int(x) for x in rec["place"][:n]],
        "bouts": int(rec["bouts"]),
        **score_result_of(rec, rules),
    }


def score_result_of(rec: np.ndarray, rules: Rules) -> dict:
    """The scoring variants' part of a result (RUL-62); None throughout without one."""
    n = rules.num_players
    if rules.toggles.get("scoring", "fool") == "fool":
        return {"points": None, "pogony": None, "pogon_top": None, "score_winners": None}
    return {"points": [int(x) for x in rec["points"][:n]], "pogony": [int(x) for x in rec["pogony"][:n]],
            "pogon_top": [None if x < 0 else RANKS[int(x)] for x in rec["pogon_top"][:n]],
            "score_winners": [s for s in range(n) if (int(rec["score_win"]) >> s) & 1]}


def make_traces(rules: Rules, recs: np.ndarray, decks: np.ndarray, rows: np.ndarray, seed: int) -> list[dict]:
    out = []
    prev_fool = None
    deals, shuffles = decode(rows)
    for d, acts in enumerate(deals):
        rec = recs[d]
        out.append({
            "family": rules.family, "num_players": rules.num_players, "toggles": dict(rules.toggles),
"seed": int(seed), "game_index": int(rec["game"]),
            "deal": d, "previous_fool": prev_fool,
            "dealer": int(rec["dealer"]), "first_attacker": int(rec["first_attacker"]),
            "deck": [card_name(int(c)) for c in decks[d]], "actions": acts, "result": result_of(rec, rules),
        })
        if shuffles[d]:
            out[-1]["talon_shuffles"] = shuffles[d]
        prev_fool = out[-1]["result"]["fool"]
    return out
