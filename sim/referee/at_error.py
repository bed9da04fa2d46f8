"""`durak replay --at-error`: the position where a strategy made an illegal move, as the referee sees it,
and the strategy's answer with the referee's ruling on it.

The compiled core stops a deal at an illegal answer and records who answered what; its trace holds every
legal action before it. This module plays the game again traced (without raising at the error), replays the
legal actions through the reference referee, and shows the referee's position at the moment of the error.
"""
from __future__ import annotations

import numpy as np

from sim.core import layout as E
from sim.core.cards import card_name, cards_of
from sim.core.lib import SHOW
from sim.core.records import move_text
from sim.core.rules import resolve
from sim.referee import game as G


def traced_with_error(runner, seed: int, series: int, deals: int = 1) -> tuple[list[dict], np.ndarray]:
    """Like Runner.trace, but returns the traces and the raw records instead of raising at an illegal move."""
    return runner.trace(seed, series, deals, with_raw=True, check=False)


def answer_as_action(kind: int, value: int, seat: int) -> dict | None:
    """The core's (kind, value) of an illegal answer as a position-format action, when it is one."""
    if kind == 5 and 0 <= value < (1 << 36):  # K_SWAP (VAR-PO1): a mask of hand cards
        return {"type": "swap", "player": seat, "cards": [card_name(c) for c in cards_of(value)]}
    if kind == 0 and value == (1 << 36):  # FROM_TALON (armenian, RUL-45)
        return {"type": "attack", "player": seat, "from_talon": True}
    if kind == 0 and 0 < value < (1 << 36):
        return {"type": "attack", "player": seat, "cards": [card_name(c) for c in cards_of(value)]}
    if value == -1:
        return {1: {"type": "take", "player": seat}, 2: {"type": "pass", "player": seat}}.get(kind)
    if kind == 3 and SHOW <= value < SHOW + 36:
        return {"type": "transfer_by_showing", "player": seat, "card": card_name(value - SHOW)}
    if 0 <= value < 36:
        if kind == 2:
            return {"type": "throw_in", "player": seat, "cards": [card_name(value)]}
        if kind == 3:
            return {"type": "transfer", "player": seat, "card": card_name(value)}
        if kind == 4:
            return {"type": "exchange_trump_six", "player": seat}
    return None  # e.g. a cover: the core knows which attack card it answers, the action format needs it too


def at_error(trace: dict, rec: np.ndarray, seat_names: list[str]) -> dict:
    """The referee's position just before the illegal answer, the answer, and the referee's ruling."""
    rules = resolve(trace["family"], trace["num_players"], dict(trace["toggles"]))
    later = trace.get("deal", 0) > 0
    st = G.new_deal(rules, trace["deck"], trace["dealer"], later_deal=later,
                    previous_fool=trace.get("previous_fool") if later else None)
    for a in trace["actions"]:
        G.apply(st, a)
    seat, kind, value = int(rec[E.F_ERR_SEAT]), int(rec[E.F_ERR_KIND]), int(rec[E.F_ERR_VALUE])
    action = answer_as_action(kind, value, seat)
    if kind == 1 and 0 <= value < 36 and not rules.family.startswith("prostoy"):
        # a cover answers the first uncovered attack card (the core's order, RUL-17)
        open_cards = [t["attack"] for t in st.to_position()["table"] if t["cover"] is None]
        if open_cards:
            action = {"type": "cover", "player": seat, "attack": open_cards[0], "cover": card_name(value)}
    ruling = G.check(st, action).as_dict() if action else None
    return {"family": trace["family"], "toggles": trace["toggles"], "seed": trace["seed"],
            "game_index": trace["game_index"], "deal": trace.get("deal", 0), "seat": seat,
            "strategy": seat_names[seat], "answer": move_text(kind, value), "action": action,
            "ruling": ruling, "actions_before": len(trace["actions"]), "position": st.to_position()}


def describe(d: dict) -> list[str]:
    """Readable lines for at_error()'s result."""
    p = d["position"]
    lines = [f"{d['family']}: seed {d['seed']}, game {d['game_index']}, deal {d['deal']}: after "
             f"{d['actions_before']} legal actions, strategy {d['strategy']!r} (seat {d['seat']}) answered: "
             f"{d['answer']}"]
    if d["ruling"]:
        r = d["ruling"]
        lines.append(f"referee: {'LEGAL' if r['legal'] else 'ILLEGAL'} ({r['rule']}): {r['reason']}"
                     f"   (durak rules --explain {r['rule']})")
    lines += ["", "the position, as the referee sees it:",
              f"  trump {p['trump_card']} ({p['trump_suit']}), talon {p['talon_size']} cards, "
              f"discard pile {p['discard_count']}",
              f"  attacker {p['attacker']}, defender {p['defender']}"
              + (f", out: {p['out_players']}" if p.get("out_players") else "")]
    for s, cards in p["hands"].items():
        mark = "  <- answered" if int(s) == d["seat"] else ""
        lines.append(f"  player {s} holds {' '.join(cards) or '(nothing)'}{mark}")
    table = "  ".join(f"{t['attack']}/{t['cover'] or '-'}" for t in p["table"]) or "(empty)"
    lines.append(f"  table (attack/cover): {table}")
    lines.append("")
    lines.append("--json prints this position with the answer in the format of `durak judge` (docs/positions.md).")
    return lines


def judge_document(d: dict) -> dict:
    """The position and the answer as one `durak judge` example."""
    doc = {"id": f"seed{d['seed']}-game{d['game_index']}-deal{d['deal']}", "family": d["family"],
           "toggles": d["toggles"], "position": d["position"],
           "question": f"strategy {d['strategy']} answered: {d['answer']}"}
    if d["action"]:
        doc["action"] = d["action"]
    return doc
