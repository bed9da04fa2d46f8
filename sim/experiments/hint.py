"""`durak hint`: every legal action of the player to act, with its estimated fool probability.

A position in the judge's format (docs/positions.md) is converted into a core state
(`sim.referee.trace.to_core`): the table is taken back into the hands (attack cards to the attacker, covers to the
defender), the bout is begun on the core and the table is laid again through the core's own
`apply` until the first decision the table does not settle -- the decision to hint. Cards the
asking seat cannot see (other hands given only as `hand_sizes`, an unknown talon order) are filled
at random for the conversion only: the search sees nothing but the actor's observation
(`kernels.observe`), and every estimate comes from `sample_hidden` over that observation.

Start of a deal: `{"family": ..., "start_of_deal": true, "num_players": n, "seat": s,
"hand": [...], "trump_card": "7H"}` -- who attacks first is estimated over the deals consistent
with the hand, and the leads are evaluated as if `seat` leads the first bout.

What the estimate knows is said in its answer (`knowledge`): by default the actor's own view, every other
hand hidden (listed in the file or given as `hand_sizes`) and sampled from its observation; with
`open_hands` (`--open`) the listed hands are used as known (the observation's known cards) and only the
rest is sampled. When what the actor knows fixes the deal, the one deal is played out once per option (the
playout policies are deterministic), not `samples` times.

For each legal option: `samples` sampled deals, the option applied, the deal played to the end with
`expert` (or `greedy`) in every seat; fool probability of the actor (its team) with a 95% Wilson
interval (a playout cut off by RUL-22, a cycle, counts as a draw). Every option sees the same sampled
deals (paired). Known limits: positions after a
transfer, or with throw-ins by several players, are rebuilt as if the attacker had thrown in every
attack card (the cards and the decision are right; per-bout transfer bookkeeping is not).
"""
from __future__ import annotations

import time

import numpy as np

from sim.core import dispatch
from sim.core import kernels as K
from sim.core import layout as L
from sim.core.cards import card_name, lead_cards
from sim.core.lib import seed_stream
from sim.core.machine import Deal
from sim.core.rules import MODE_PROSTOY, R_MODE
from sim.experiments.stats import wilson
from sim.referee import schema
from sim.referee.game import load_position
from sim.referee.trace import start_position, to_core

BUDGETS = {"fast": 200, "normal": 1000, "deep": 4000}


class HintError(ValueError):
    """A request `durak hint` cannot read: the message names the file, the position and the JSON path."""


def request_problem(doc) -> str | None:
    """The first problem of one hint request (a position without an action, or a start of a deal), or None."""
    if not isinstance(doc, dict):
        return (f"$: expected a JSON object with family and position (or start_of_deal), got "
                f"{type(doc).__name__ if doc is not None else 'null'}")
    return schema.problem(doc, schema.HINT_START if doc.get("start_of_deal") else schema.HINT_POSITION)


def read_requests(path, only: str | None = None) -> list[dict]:
    """The requests of a hint file (one position, or an `examples` list), each checked before any play;
    `only`: the one with this id. A HintError names the file, the id and the JSON path of the problem."""
    import json
    try:
        doc = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise HintError(f"{path.name} is not valid JSON: {e}") from None
    if isinstance(doc, dict) and "examples" in doc:
        problem = schema.problem(doc, schema.EXAMPLES)
        if problem:
            raise HintError(f"{path.name} at {problem}")
        docs = list(enumerate(doc["examples"]))
    else:
        docs = [(None, doc)]
    if only:
        docs = [(i, d) for i, d in docs if isinstance(d, dict) and d.get("id") == only]
        if not docs:
            raise HintError(f"no position with id {only!r} in {path.name}")
    for i, d in docs:
        problem = request_problem(d)
        if problem:
            name = d.get("id") if isinstance(d, dict) and d.get("id") else path.name
            if i is not None:
                problem = problem.replace("$", f"$.examples[{i}]", 1)
            raise HintError(f"cannot hint {name}: {problem}")
    return [d for _, d in docs]


# ---- the pending decision -------------------------------------------------------------------
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
        fn = dispatch.decision(mod, L.KIND_NAMES[kind])
        if fn is None:
            out[name] = 0  # no swap function: it never swaps
            continue
        params = dispatch.params_vector(info)
        rng = np.zeros(1, dtype=np.uint64)
        seed_stream(rng, np.int64(1), np.int64(0), np.int64(5))
        ro = obs.copy()
        ro.flags.writeable = False
        out[name] = int(fn(ro, legal, params, rng))
    return out


# ---- the estimate ---------------------------------------------------------------------------------
def estimate(rules, ws, samples: int = 1000, playout: int = 1, seed: int = 0, open_hands: bool = False,
             free_discard: int = 0) -> list[dict]:
    """Every legal option of the pending decision with the actor's fool probability and 95% interval,
    best (lowest fool probability, then highest escape probability) first.

    `open_hands`: every other hand is known to the actor (the observation's known cards), so only the talon
    is sampled. `free_discard`: a mask of the cards that are in the talon or the discard, it is not known
    which (every hand given, the discard not listed): each sampled deal splits them afresh."""
    S = dispatch.module("search")
    d = Deal.from_state(rules, ws)
    kind = int(ws[L.O_KIND])
    actor = int(ws[L.O_ACTOR])
    opts = sorted(d.legal_options())
    obs = np.zeros(L.O_SIZE, dtype=np.int64)
    K.observe(ws, np.int64(actor), obs)
    if open_hands:
        for s in range(rules.num_players):
            if s != actor:
                obs[L.O_KNOWN + s] = ws[L.S_HANDS + s]
    cands = np.array(opts, dtype=np.int64)
    tally = np.zeros((len(opts), 3), dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, np.int64(seed), np.int64(0), np.int64(7))
    if free_discard:
        pool = [c for c in range(36) if (free_discard >> c) & 1]
        n_discard = bin(int(obs[L.O_DISCARD]) & free_discard).count("1")
        split = np.random.default_rng([seed, 7])
        done = 0
        for _ in range(samples):  # one deal at a time: each with its own split of talon and discard
            obs[L.O_DISCARD] = (int(obs[L.O_DISCARD]) & ~free_discard) | sum(
                1 << int(c) for c in split.choice(pool, n_discard, replace=False))
            done += S.evaluate(obs, cands, np.int64(len(opts)), np.int64(1), np.int64(playout), rng, tally)
    else:
        done = S.evaluate(obs, cands, np.int64(len(opts)), np.int64(samples), np.int64(playout), rng, tally)
    if done == 0:
        raise ValueError("no deal of the hidden cards fits this position")
    rows = []
    for j, o in enumerate(opts):
        esc, drew, fool = (int(x) for x in tally[j])
        m = esc + drew + fool
        lo, hi = (float(x) for x in wilson(fool, m))  # m == 0: (0.0, 1.0)
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


def hint(doc: dict, samples: int = 1000, playout: int = 1, seed: int = 0, library: bool = True,
         open_hands: bool = False) -> dict:
    """The answer of `durak hint` for one position (judge format) or start-of-deal request."""
    t0 = time.perf_counter()
    start = bool(doc.get("start_of_deal"))
    family = doc["family"]
    position = start_position(doc) if start else doc["position"]
    rules, ws = to_core(family, doc.get("toggles"), position, seed)
    kind = int(ws[L.O_KIND])
    actor = int(ws[L.O_ACTOR])
    asking = doc.get("seat", position.get("seat"))
    if asking is not None and int(asking) != actor:
        raise ValueError(f"seat {asking} asks, but seat {actor} is to act at this position")
    hand = [c for c in range(36) if (int(ws[L.S_HANDS + actor]) >> c) & 1]
    know = knowledge(family, doc.get("toggles"), position, ws, actor, open_hands)
    samples = samples if know["sampled"] else 1
    out = {"family": family, "num_players": rules.num_players, "to_act": actor, "decision": L.KIND_NAMES[kind],
           "hand": [card_name(c) for c in hand], "trump": card_name(int(ws[L.O_TRUMP_CARD])),
           "talon": int(ws[L.O_TALON]), "samples": samples, "playout": "expert" if playout else "greedy",
           "knowledge": {k: v for k, v in know.items() if k != "free_discard"}}
    if start:
        out["leads_first_probability"] = first_attacker_odds(rules, ws, actor, seed=seed)
    out["options"] = estimate(rules, ws, samples, playout, seed, open_hands=know["open_hands"],
                              free_discard=know["free_discard"])
    if library:
        picks = library_choices(ws)
        out["library"] = {k: describe(kind, v, ws)[0] for k, v in picks.items()}
    out["seconds"] = time.perf_counter() - t0
    return out


def knowledge(family, toggles, position, ws, actor, open_hands: bool = False) -> dict:
    """What the actor is taken to know at a position, and so what is sampled.

    By default the actor's own view: every other hand is hidden from it (whether or not the file lists it),
    and so is the talon's order. `open_hands`: the hands the file lists are used as known (open cards; a hand
    given as hand_sizes stays hidden), and cards that are in the talon or the discard, the file not saying
    which, are split afresh in every sampled deal (`free_discard`, a mask). `sampled` is False when the
    actor's knowledge fixes the deal (the cards it cannot see all lie in one hand, or nowhere): then the one
    deal is played out once. `text` says all this in one line."""
    st = load_position(family, toggles, position)
    n = st.n
    sizes = {s: len(h) for s, h in enumerate(st.hands) if s != actor and len(h) and not st.is_out[s]}
    unlisted = {s: h.count(None) for s, h in enumerate(st.hands) if s != actor and h.count(None)}
    talon_hidden = sum(c is None for c in st.talon) if open_hands else int(ws[L.O_TALON]) - int(ws[L.O_TRUMP_IN_TALON])
    hidden = unlisted if open_hands else sizes
    places = len(hidden) + (1 if talon_hidden else 0)
    free = 0
    if open_hands and not unlisted and talon_hidden and "discard" not in position and int(ws[L.O_DISCARD]):
        free = int(ws[L.O_DISCARD]) | sum(1 << int(ws[L.S_TALON + i]) for i in range(int(ws[L.S_TP]), int(ws[L.S_TEND])))
        if ws[L.O_TRUMP_IN_TALON]:
            free &= ~(1 << int(ws[L.O_TRUMP_CARD]))
    sampled = places > 1 or talon_hidden > 1  # one hand alone is known card by card; a talon's order is not
    hands = ", ".join(f"seat {s}'s hand ({k} card{'s' if k != 1 else ''})" for s, k in hidden.items())
    talon = f"the talon ({talon_hidden} card{'s' if talon_hidden != 1 else ''})" if talon_hidden else ""
    unseen = " and ".join(x for x in (hands, talon) if x) or "no card"
    if open_hands:
        text = "--open: the hands the file lists are used as known (more than a player at the table sees). "
        text += (f"Sampled: {unseen}" + (" and which of the other cards were discarded (list \"discard\" to fix "
                                         "them)." if free else ".") if sampled else
                 "Nothing else is hidden: the one deal, played out once.")
    else:
        listed = [s for s in hidden if s not in unlisted]
        text = f"seat {actor}'s own view: it cannot see {unseen}"
        text += (", so they are sampled, consistent with what it has seen." if sampled else
                 ", but it knows which cards those are: nothing is hidden, the one deal is played out once.")
        if listed:
            text += (f" The file lists {', '.join(f'seat {s}' for s in listed)}'s hand: not used (--open uses "
                     "the listed hands).")
        if sampled and "discard" not in position and int(ws[L.O_DISCARD]) and not unlisted:
            text += " Which cards were discarded is not listed: drawn once at random (list \"discard\")."
    return {"hidden_hands": {str(s): k for s, k in hidden.items()}, "open_hands": open_hands,
            "talon_hidden": talon_hidden, "free_discard": free, "sampled": sampled, "text": text}


def format_text(res: dict) -> str:
    lines = [f"{res['family']}, {res['num_players']} players: seat {res['to_act']} to {res['decision'].replace('_', ' ')}; "
             f"hand {' '.join(res['hand'])}; trump {res['trump']}; talon {res['talon']}"]
    if "leads_first_probability" in res:
        lines.append(f"seat {res['to_act']} leads the first bout with probability {res['leads_first_probability']:.2f} "
                     "(over the deals consistent with the hand); the leads below assume it does")
    know = res.get("knowledge") or {"sampled": True, "text": ""}
    if know["text"]:
        lines.append("known: " + know["text"])
    w = max(len(r["action"]) for r in res["options"])
    if not know["sampled"]:
        lines.append(f"how the deal ends for seat {res['to_act']} after each action ({res['playout']} plays every "
                     "seat), best first:")
        for i, r in enumerate(res["options"], 1):
            end = "fool" if r["fool"] else "draw" if r["draw"] else "escapes"
            lines.append(f"  {i:2d}. {r['action']:<{w}}  {end}")
    else:
        lines.append(f"fool probability of seat {res['to_act']} after each action ({res['samples']} sampled deals, "
                     f"{res['playout']} playouts, 95% interval), best first; fool + escape + draw = 100%:")
        for i, r in enumerate(res["options"], 1):
            lines.append(f"  {i:2d}. {r['action']:<{w}}  fool {100 * r['fool']:5.1f}%  "
                         f"[{100 * r['fool_lo']:.1f}, {100 * r['fool_hi']:.1f}]  escape {100 * r['escape']:5.1f}%  "
                         f"draw {100 * r['draw']:5.1f}%")
    if res.get("library"):
        lines.append("library strategies would play: " + "; ".join(f"{k}: {v}" for k, v in res["library"].items()))
    lines.append(f"({res['seconds']:.2f} s)")
    return "\n".join(lines)
