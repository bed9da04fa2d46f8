"""Between the core and the referee: the core's action rows turned into positions.json actions, and a
referee position turned back into a core state.

A trace (``make_traces``) is what the reference referee replays (format at the end of ``sim/RULINGS.md``);
``to_core`` rebuilds a judge-format position on the core, where ``durak hint``, the search player and the
tests ask strategies for their answers.
"""
from __future__ import annotations

import numpy as np

from sim.core import kernels as K
from sim.core import layout as E
from sim.core.cards import N_CARDS, RANKS, card_name, cards_of, lead_cards, parse_card
from sim.core.lib import attack_ok
from sim.core.records import OUTCOMES
from sim.core.rules import PROSTOY, R_HAND, Rules, resolve
from sim.referee.game import load_position, swap_offered


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


def _attack_ok(ws, mask) -> bool:
    return bool(attack_ok(ws, np.int64(ws[E.S_LEGAL]), np.int64(mask)))


# ---- the other way: a referee position as a core state resting at its pending decision -------------------------------------------------------------
def start_position(doc: dict) -> dict:
    """A start-of-deal request as a judge-format position (the seat leads the first bout)."""
    n = int(doc["num_players"])
    seat = int(doc.get("seat", 0))
    rules = resolve(doc["family"], n, doc.get("toggles") or {})
    h = int(rules.vector()[R_HAND])
    hand = list(doc["hand"])
    if len(hand) != h:
        raise ValueError(f"a start-of-deal hand holds {h} cards in {doc['family']}, got {len(hand)}")
    attacker = int(doc.get("attacker", seat))
    pos = {"num_players": n, "trump_card": doc["trump_card"], "trump_card_location": "talon_bottom",
           "talon_size": N_CARDS - n * h, "hands": {str(seat): hand},
           "hand_sizes": {str(s): h for s in range(n) if s != seat},
           "attacker": attacker, "defender": (attacker + 1) % n, "table": [], "first_bout": True,
           "dealer": doc.get("dealer"), "out_players": [], "teams": doc.get("teams"), "discard_count": 0,
           "discard": []}
    return pos


def to_core(family: str, toggles: dict | None, position: dict, seed: int = 0):
    """(rules, ws): a core state resting at the position's pending decision. Hidden cards that the
    position leaves unknown are filled at random (seeded); only the actor's observation is used."""
    st = load_position(family, toggles, position)
    rules = st.rules
    if rules.toggles.get("two_packs"):
        raise ValueError("durak hint does not read two-pack positions yet (VAR-BD1): the judge does (durak judge)")
    rv = rules.vector()
    n = st.n
    rnd = np.random.default_rng(seed)
    placed = set()
    for h in st.hands:
        placed |= {c for c in h if c is not None}
    for a, c in st.table:
        placed |= {a} | ({c} if c is not None else set())
    placed |= {c for c in st.talon if c is not None}
    placed |= set(st.removed)
    if st.trump_card is not None and st.trump_card_location == "talon_bottom":
        placed.add(st.trump_card)
    pool = [c for c in range(N_CARDS) if c not in placed]
    hidden_slots = sum(h.count(None) for h in st.hands)
    if "discard" in position:
        discard = [parse_card(x) for x in position["discard"]]
        if len(discard) != len(st.discard):
            raise ValueError(f"discard lists {len(discard)} cards but discard_count is {len(st.discard)}")
        if set(discard) - set(pool):
            raise ValueError("a card of the discard is also elsewhere in the position")
        pool = [c for c in pool if c not in set(discard)]
    elif hidden_slots and st.discard:
        raise ValueError("with hidden hands (hand_sizes) the discarded cards must be listed: add \"discard\": [...]")
    else:
        # every hand is known, the talon's order not: which of the other cards were discarded is not in
        # the format (only a count). They are drawn at random (seeded) from the cards not placed; list
        # "discard" to give them.
        discard = None
    pool = list(rnd.permutation(pool))
    hands = []
    for h in st.hands:
        hh = [c if c is not None else int(pool.pop()) for c in h]
        hands.append(hh)
    talon = [c if c is not None else int(pool.pop()) for c in st.talon]
    if discard is None:
        discard = [int(c) for c in pool]
        pool = []
    if pool:
        raise ValueError(f"{len(pool)} cards are not accounted for")
    # take the table back into the hands
    att, dfn = int(st.attacker), int(st.defender)
    for a, c in st.table:
        hands[att].append(a)
        if c is not None:
            hands[dfn].append(c)
    ws = np.zeros(E.STATE_SIZE, dtype=np.int64)
    K.new_series(rv, ws)
    for s in range(6):
        m = 0
        if s < n:
            for c in hands[s]:
                m |= 1 << c
        ws[E.S_HANDS + s] = m
        ws[E.O_HAND_SIZE + s] = len(hands[s]) if s < n else 0
        ws[E.O_KNOWN + s] = 0
    for i, c in enumerate(talon):
        ws[E.S_TALON + i] = c
    ws[E.S_TP] = 0
    ws[E.S_TEND] = len(talon)
    ws[E.S_TALON_MASK] = sum(1 << c for c in talon)
    trump = -1 if st.trump_suit is None else st.trump_suit  # no_trump (RUL-30, RUL-31): -1
    tc = st.trump_card if st.trump_card is not None else trump  # unknown drawn card: the suit's six
    ws[E.O_TRUMP_CARD] = tc
    ws[E.O_TRUMP_SUIT] = trump
    ws[E.O_TRUMP_IN_TALON] = 1 if st.trump_card_location == "talon_bottom" and talon and tc >= 0 else 0
    ws[E.O_TRUMP_UNDER] = 1 if st.card_under_trump and ws[E.O_TRUMP_IN_TALON] else 0  # VAR-SM1
    for s in range(n):
        ws[E.O_SEAT_TRUMPS + s] = st.seat_trumps[s] if st.seat_trumps is not None else 0  # VAR-DK1
    ws[E.O_TALON] = len(talon)
    ws[E.O_DEALER] = st.dealer if st.dealer is not None else 0
    ws[E.O_DISCARD] = sum(1 << c for c in discard)
    out = sum(1 << s for s in range(n) if st.is_out[s])
    rec = np.zeros(E.F_SIZE, dtype=np.int64)
    trace = np.zeros((1, 4), dtype=np.int64)
    tn = np.zeros(1, dtype=np.int64)
    bout = 0 if st.first_bout else 5
    K.begin(rv, ws, rec, np.int64(att), np.int64(out), np.int64(bout), bool(st.discard_happened), trace, tn, False)
    if int(ws[E.O_DEFENDER]) != dfn:
        raise ValueError(f"the core's defender after seat {att} is {int(ws[E.O_DEFENDER])}, the position says {dfn}")
    # lay the table again
    table = st.table
    laid, covered = 0, set()
    take = bool(st.take_declared)
    for _ in range(500):
        kind = int(ws[E.O_KIND])
        seat = int(ws[E.O_ACTOR])
        if kind < 0:
            raise ValueError("the deal is over at this position: nothing to hint")
        a = None
        if kind == E.K_EXCHANGE:
            a = 0 if table else None
        elif kind == E.K_SWAP:  # VAR-PO1: an offer met while the table is laid again was declined or made already
            pending = laid < len(table) or take or any(r[1] is not None and i not in covered
                                                       for i, r in enumerate(table))
            a = 0 if pending or seat in swap_offered(st) else None
        elif kind == E.K_ATTACK:
            if table and laid == 0:
                if family in PROSTOY:
                    a, laid = sum(1 << r[0] for r in table), len(table)
                else:  # the longest run of same-rank cards the core accepts as one lead
                    k = 1  # a several-card lead only while its cards are all uncovered (the core covers in card order)
                    while k < len(table) and table[k][0] // 4 == table[0][0] // 4 and table[k][1] is None \
                            and table[0][1] is None:
                        k += 1
                    while k > 1 and not _attack_ok(ws, sum(1 << r[0] for r in table[:k])):
                        k -= 1
                    a, laid = sum(1 << r[0] for r in table[:k]), k
            # laid > 0: the table's bout ended by itself (e.g. its attack limit): the next bout's lead
        elif kind == E.K_TRANSFER:
            if any(r[1] is not None for r in table[:laid]) or laid < len(table) or take:
                a = E.NO_CARD
        elif kind == E.K_COVER:
            tgt = int(ws[E.O_TABLE_ATT + ws[E.O_COVER_TARGET]])
            i = next(j for j, r in enumerate(table) if r[0] == tgt)
            if table[i][1] is not None and i not in covered:
                a = table[i][1]
                covered.add(i)
            elif laid < len(table) and family not in PROSTOY:
                raise ValueError("this table cannot be reached on the core (a card thrown in before a cover was answered)")
            elif take and table[i][1] is None:
                a = E.NO_CARD
                take = False
        elif kind == E.K_THROW_IN:
            if laid < len(table):
                c = table[laid][0]
                if (int(ws[E.S_HANDS + seat]) >> c) & 1:
                    a = c
                    laid += 1
                else:
                    a = E.NO_CARD
        if a is None:
            break
        if not K.apply_any(rv, ws, rec, np.int64(a), trace, tn, False):
            raise ValueError(f"the core refuses to rebuild this table (step {E.KIND_NAMES[kind]} {a})")
    else:
        raise ValueError("could not rebuild the table")
    # the scoring variants' counts so far are the position's (RUL-60..62), not the rebuilt table's
    for s in range(6):
        ws[E.O_POINTS + s] = st.points[s] if s < n else 0
        ws[E.O_POGONY + s] = st.pogony[s] if s < n else 0
        ws[E.O_POGON_TOP + s] = st.pogon_top[s] if s < n and st.pogon_top[s] is not None else -1
    for i, (a, _) in enumerate(table):
        ws[E.O_TABLE_BY + i] = st.laid_by.get(a, int(ws[E.O_TABLE_BY + i]))
    return rules, ws


# ---- options in words ---------------------------------------------------------------------------
