"""`durak hint`: every legal action of the player to act, with its estimated fool probability.

A position in the judge's format (docs/positions.md) is converted into a core state
(`to_core`): the table is taken back into the hands (attack cards to the attacker, covers to the
defender), the bout is begun on the core and the table is laid again through the core's own
`apply` until the first decision the table does not settle -- the decision to hint. Cards the
asking seat cannot see (other hands given only as `hand_sizes`, an unknown talon order) are filled
at random for the conversion only: the search sees nothing but the actor's observation
(`kernels.observe`), and every estimate comes from `sample_hidden` over that observation.

Start of a deal: `{"family": ..., "start_of_deal": true, "num_players": n, "seat": s,
"hand": [...], "trump_card": "7H"}` -- who attacks first is estimated over the deals consistent
with the hand, and the leads are evaluated as if `seat` leads the first bout.

For each legal option: `samples` sampled deals, the option applied, the deal played to the end with
`expert` (or `greedy`) in every seat; fool probability of the actor (its team) with a 95% Wilson
interval (a playout cut off by RUL-22, a cycle, counts as a draw). Every option sees the same sampled
deals (paired). Known limits: positions after a
transfer, or with throw-ins by several players, are rebuilt as if the attacker had thrown in every
attack card (the cards and the decision are right; per-bout transfer bookkeeping is not).
"""
from __future__ import annotations

import math
import time

import numpy as np

from sim.core import kernels as K
from sim.core import layout as L
from sim.core.cards import N_CARDS, card_name, lead_cards, parse_card
from sim.core.lib import attack_ok, seed_stream
from sim.core.machine import Deal
from sim.core.rules import MODE_PROSTOY, PROSTOY, R_HAND, R_MODE, resolve
from sim.referee.game import load_position, swap_offered

Z95 = 1.959963984540054
BUDGETS = {"fast": 200, "normal": 1000, "deep": 4000}


def wilson(k: int, n: int, z: float = Z95):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def K_attack_ok(ws, mask) -> bool:
    return bool(attack_ok(ws, np.int64(ws[L.S_LEGAL]), np.int64(mask)))


# ---- the position -> a core state -------------------------------------------------------------
def _start_position(doc: dict) -> dict:
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
    ws = np.zeros(L.STATE_SIZE, dtype=np.int64)
    K.new_series(rv, ws)
    for s in range(6):
        m = 0
        if s < n:
            for c in hands[s]:
                m |= 1 << c
        ws[L.S_HANDS + s] = m
        ws[L.O_HAND_SIZE + s] = len(hands[s]) if s < n else 0
        ws[L.O_KNOWN + s] = 0
    for i, c in enumerate(talon):
        ws[L.S_TALON + i] = c
    ws[L.S_TP] = 0
    ws[L.S_TEND] = len(talon)
    ws[L.S_TALON_MASK] = sum(1 << c for c in talon)
    trump = -1 if st.trump_suit is None else st.trump_suit  # no_trump (RUL-30, RUL-31): -1
    tc = st.trump_card if st.trump_card is not None else trump  # unknown drawn card: the suit's six
    ws[L.O_TRUMP_CARD] = tc
    ws[L.O_TRUMP_SUIT] = trump
    ws[L.O_TRUMP_IN_TALON] = 1 if st.trump_card_location == "talon_bottom" and talon and tc >= 0 else 0
    ws[L.O_TRUMP_UNDER] = 1 if st.card_under_trump and ws[L.O_TRUMP_IN_TALON] else 0  # VAR-SM1
    for s in range(n):
        ws[L.O_SEAT_TRUMPS + s] = st.seat_trumps[s] if st.seat_trumps is not None else 0  # VAR-DK1
    ws[L.O_TALON] = len(talon)
    ws[L.O_DEALER] = st.dealer if st.dealer is not None else 0
    ws[L.O_DISCARD] = sum(1 << c for c in discard)
    out = sum(1 << s for s in range(n) if st.is_out[s])
    rec = np.zeros(L.F_SIZE, dtype=np.int64)
    trace = np.zeros((1, 4), dtype=np.int64)
    tn = np.zeros(1, dtype=np.int64)
    bout = 0 if st.first_bout else 5
    K.begin(rv, ws, rec, np.int64(att), np.int64(out), np.int64(bout), bool(st.discard_happened), trace, tn, False)
    if int(ws[L.O_DEFENDER]) != dfn:
        raise ValueError(f"the core's defender after seat {att} is {int(ws[L.O_DEFENDER])}, the position says {dfn}")
    # lay the table again
    table = st.table
    laid, covered = 0, set()
    take = bool(st.take_declared)
    for _ in range(500):
        kind = int(ws[L.O_KIND])
        seat = int(ws[L.O_ACTOR])
        if kind < 0:
            raise ValueError("the deal is over at this position: nothing to hint")
        a = None
        if kind == L.K_EXCHANGE:
            a = 0 if table else None
        elif kind == L.K_SWAP:  # VAR-PO1: an offer met while the table is laid again was declined or made already
            pending = laid < len(table) or take or any(r[1] is not None and i not in covered
                                                       for i, r in enumerate(table))
            a = 0 if pending or seat in swap_offered(st) else None
        elif kind == L.K_ATTACK:
            if table and laid == 0:
                if family in PROSTOY:
                    a, laid = sum(1 << r[0] for r in table), len(table)
                else:  # the longest run of same-rank cards the core accepts as one lead
                    k = 1  # a several-card lead only while its cards are all uncovered (the core covers in card order)
                    while k < len(table) and table[k][0] // 4 == table[0][0] // 4 and table[k][1] is None \
                            and table[0][1] is None:
                        k += 1
                    while k > 1 and not K_attack_ok(ws, sum(1 << r[0] for r in table[:k])):
                        k -= 1
                    a, laid = sum(1 << r[0] for r in table[:k]), k
            # laid > 0: the table's bout ended by itself (e.g. its attack limit): the next bout's lead
        elif kind == L.K_TRANSFER:
            if any(r[1] is not None for r in table[:laid]) or laid < len(table) or take:
                a = L.NO_CARD
        elif kind == L.K_COVER:
            tgt = int(ws[L.O_TABLE_ATT + ws[L.O_COVER_TARGET]])
            i = next(j for j, r in enumerate(table) if r[0] == tgt)
            if table[i][1] is not None and i not in covered:
                a = table[i][1]
                covered.add(i)
            elif laid < len(table) and family not in PROSTOY:
                raise ValueError("this table cannot be reached on the core (a card thrown in before a cover was answered)")
            elif take and table[i][1] is None:
                a = L.NO_CARD
                take = False
        elif kind == L.K_THROW_IN:
            if laid < len(table):
                c = table[laid][0]
                if (int(ws[L.S_HANDS + seat]) >> c) & 1:
                    a = c
                    laid += 1
                else:
                    a = L.NO_CARD
        if a is None:
            break
        if not K.apply_any(rv, ws, rec, np.int64(a), trace, tn, False):
            raise ValueError(f"the core refuses to rebuild this table (step {L.KIND_NAMES[kind]} {a})")
    else:
        raise ValueError("could not rebuild the table")
    # the scoring variants' counts so far are the position's (RUL-60..62), not the rebuilt table's
    for s in range(6):
        ws[L.O_POINTS + s] = st.points[s] if s < n else 0
        ws[L.O_POGONY + s] = st.pogony[s] if s < n else 0
        ws[L.O_POGON_TOP + s] = st.pogon_top[s] if s < n and st.pogon_top[s] is not None else -1
    for i, (a, _) in enumerate(table):
        ws[L.O_TABLE_BY + i] = st.laid_by.get(a, int(ws[L.O_TABLE_BY + i]))
    return rules, ws


# ---- options in words ---------------------------------------------------------------------------
def describe(kind: int, option: int, ws) -> tuple[str, dict]:
    """(text, judge-format action) of a core option at the state's pending decision."""
    p = int(ws[L.O_ACTOR])
    if kind == L.K_ATTACK:
        if option == L.FROM_TALON:
            return "lead the top card of the talon", {"type": "attack", "player": p, "from_talon": True}
        cards = [card_name(c) for c in lead_cards(option)]  # two packs: a twin named twice (RUL-83)
        return "lead " + " ".join(cards), {"type": "attack", "player": p, "cards": cards}
    if kind == L.K_EXCHANGE:
        return ("exchange the trump six", {"type": "exchange_trump_six", "player": p}) if option == 1 else \
            ("keep the trump six", {"type": "keep_trump_six", "player": p})
    if kind == L.K_SWAP:
        cards = [card_name(c) for c in range(36) if (option >> c) & 1]
        return ("swap " + " ".join(cards) if cards else "no swap"), {"type": "swap", "player": p, "cards": cards}
    if kind == L.K_COVER:
        tgt = int(ws[L.O_TABLE_ATT + ws[L.O_COVER_TARGET]])
        if option == L.NO_CARD:
            prost = int(ws[L.O_RULES + R_MODE]) == MODE_PROSTOY
            word = f"leave {card_name(tgt)} uncovered" if prost else "take"
            return word, {"type": "take", "player": p}
        return f"cover {card_name(tgt)} with {card_name(option)}", \
            {"type": "cover", "player": p, "attack": card_name(tgt), "cover": card_name(option)}
    if kind == L.K_THROW_IN:
        if option == L.NO_CARD:
            return "pass", {"type": "pass", "player": p}
        return f"throw in {card_name(option)}", {"type": "throw_in", "player": p, "cards": [card_name(option)]}
    if option == L.NO_CARD:
        return "no transfer", {"type": "no_transfer", "player": p}
    if option >= L.SHOW:
        return f"transfer by showing {card_name(option - L.SHOW)}", \
            {"type": "transfer_by_showing", "player": p, "card": card_name(option - L.SHOW)}
    return f"transfer with {card_name(option)}", {"type": "transfer", "player": p, "card": card_name(option)}


def library_choices(ws, names=("greedy", "expert", "counting", "tactics", "random")) -> dict:
    """What each library strategy would answer at the state's pending decision (its default parameters)."""
    from sim.core import dispatch
    kind = int(ws[L.O_KIND])
    actor = int(ws[L.O_ACTOR])
    obs = np.zeros(L.O_SIZE, dtype=np.int64)
    K.observe(ws, np.int64(actor), obs)
    legal = np.int64(ws[L.S_LEGAL])
    out = {}
    for name in names:
        try:
            info = dispatch.info(name)
            mod = dispatch.load_module(info.path)
        except Exception:  # noqa: BLE001 - a strategy missing from this checkout
            continue
        fn = getattr(mod, L.KIND_NAMES[kind], None)
        if fn is None and kind == L.K_SWAP:
            out[name] = 0  # no swap function: it never swaps (sim.core.dispatch.NO_DEFAULT)
            continue
        if fn is None:
            from strategies import greedy as fn_mod
            fn = getattr(fn_mod, L.KIND_NAMES[kind])
        params = np.zeros(16)
        for i, v in enumerate(info.params.values()):
            params[i] = v[0]
        rng = np.zeros(1, dtype=np.uint64)
        seed_stream(rng, np.int64(1), np.int64(0), np.int64(5))
        ro = obs.copy()
        ro.flags.writeable = False
        out[name] = int(fn(ro, legal, params, rng))
    return out


# ---- the estimate ---------------------------------------------------------------------------------
def estimate(rules, ws, samples: int = 1000, playout: int = 1, seed: int = 0) -> list[dict]:
    """Every legal option of the pending decision with the actor's fool probability and 95% interval,
    best (lowest fool probability, then highest escape probability) first."""
    from strategies import search as S
    d = Deal.from_state(rules, ws)
    kind = int(ws[L.O_KIND])
    actor = int(ws[L.O_ACTOR])
    opts = sorted(d.legal_options())
    obs = np.zeros(L.O_SIZE, dtype=np.int64)
    K.observe(ws, np.int64(actor), obs)
    cands = np.array(opts, dtype=np.int64)
    tally = np.zeros((len(opts), 3), dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, np.int64(seed), np.int64(0), np.int64(7))
    done = S.evaluate(obs, cands, np.int64(len(opts)), np.int64(samples), np.int64(playout), rng, tally)
    if done == 0:
        raise ValueError("no deal of the hidden cards fits this position")
    rows = []
    for j, o in enumerate(opts):
        esc, drew, fool = (int(x) for x in tally[j])
        m = esc + drew + fool
        lo, hi = wilson(fool, m)
        text, action = describe(kind, o, ws)
        rows.append({"option": int(o), "action": text, "judge_action": action, "fool": fool / m if m else None,
                     "fool_lo": lo, "fool_hi": hi, "escape": esc / m if m else None, "draw": drew / m if m else None,
                     "playouts": m})
    rows.sort(key=lambda r: (r["fool"], -r["escape"]))
    return rows


def first_attacker_odds(rules, ws, seat: int, samples: int = 2000, seed: int = 0) -> float:
    """Probability that `seat` leads the first bout, over the deals consistent with its hand."""
    obs = np.zeros(L.O_SIZE, dtype=np.int64)
    K.observe(ws, np.int64(seat), obs)
    rv = rules.vector()
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, np.int64(seed), np.int64(0), np.int64(9))
    full = np.zeros(L.STATE_SIZE, dtype=np.int64)
    hits = m = 0
    for _ in range(samples):
        if not K.sample_hidden(obs, rng, full):
            continue
        m += 1
        hits += int(K.first_attacker(rv, full, np.int64(ws[L.O_DEALER]), True, np.int64(-1))) == seat
    return hits / m if m else float("nan")


def hint(doc: dict, samples: int = 1000, playout: int = 1, seed: int = 0, library: bool = True) -> dict:
    """The answer of `durak hint` for one position (judge format) or start-of-deal request."""
    t0 = time.perf_counter()
    start = bool(doc.get("start_of_deal"))
    family = doc["family"]
    position = _start_position(doc) if start else doc["position"]
    rules, ws = to_core(family, doc.get("toggles"), position, seed)
    kind = int(ws[L.O_KIND])
    actor = int(ws[L.O_ACTOR])
    asking = doc.get("seat", position.get("seat"))
    if asking is not None and int(asking) != actor:
        raise ValueError(f"seat {asking} asks, but seat {actor} is to act at this position")
    hand = [c for c in range(36) if (int(ws[L.S_HANDS + actor]) >> c) & 1]
    out = {"family": family, "num_players": rules.num_players, "to_act": actor, "decision": L.KIND_NAMES[kind],
           "hand": [card_name(c) for c in hand], "trump": card_name(int(ws[L.O_TRUMP_CARD])),
           "talon": int(ws[L.O_TALON]), "samples": samples, "playout": "expert" if playout else "greedy"}
    if start:
        out["leads_first_probability"] = first_attacker_odds(rules, ws, actor, seed=seed)
    out["options"] = estimate(rules, ws, samples, playout, seed)
    if library:
        picks = library_choices(ws)
        out["library"] = {k: describe(kind, v, ws)[0] for k, v in picks.items()}
    out["seconds"] = time.perf_counter() - t0
    return out


def format_text(res: dict) -> str:
    lines = [f"{res['family']}, {res['num_players']} players: seat {res['to_act']} to {res['decision'].replace('_', ' ')}; "
             f"hand {' '.join(res['hand'])}; trump {res['trump']}; talon {res['talon']}"]
    if "leads_first_probability" in res:
        lines.append(f"seat {res['to_act']} leads the first bout with probability {res['leads_first_probability']:.2f} "
                     "(over the deals consistent with the hand); the leads below assume it does")
    lines.append(f"fool probability of seat {res['to_act']} after each action ({res['samples']} sampled deals, "
                 f"{res['playout']} playouts, 95% interval), best first:")
    w = max(len(r["action"]) for r in res["options"])
    for i, r in enumerate(res["options"], 1):
        lines.append(f"  {i:2d}. {r['action']:<{w}}  fool {100 * r['fool']:5.1f}%  "
                     f"[{100 * r['fool_lo']:.1f}, {100 * r['fool_hi']:.1f}]  escape {100 * r['escape']:5.1f}%")
    if res.get("library"):
        lines.append("library strategies would play: " + "; ".join(f"{k}: {v}" for k, v in res["library"].items()))
    lines.append(f"({res['seconds']:.2f} s)")
    return "\n".join(lines)
