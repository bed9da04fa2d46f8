"""The referee's decision procedure: who is asked next, what kind of decision, and every legal answer.

This is the fixed asking order of ``sim/RULINGS.md`` (RUL-9, RUL-11..13, RUL-14..19) written from
the referee's own state and its own rule checks (``sim.referee.game.check``); it never imports the
compiled core. The vocabulary is the core's strategy vocabulary, so that the referee's legal set can
be compared with the core's at every decision:

- ``K_ATTACK``: an int bitmask of cards (card = rank*4 + suit, bit ``1 << card``).
- ``K_COVER``: a card that covers the current target card, or ``-1`` (take; in simple durak: leave
  this card uncovered).
- ``K_THROW_IN``: a card to throw in, or ``-1`` (pass).
- ``K_TRANSFER``: a card to lay, ``64 + card`` to show (``transfer_by_showing``), or ``-1`` (no transfer).
- ``K_EXCHANGE``: ``0`` keep, ``1`` swap the trump six for the face-up trump card.
- ``K_SWAP`` (poker_swap, VAR-PO1): an int bitmask of 0..2 hand cards to give for the top talon cards
  (``0``: no swap); asked of the defender right before a cover decision (RUL-55).

Public API
----------
- ``to_act(state) -> (seat, kind) | None``
- ``legal_options(state) -> frozenset[int]``
- ``apply_option(state, option) -> list[dict]`` (events, as ``game.apply``)
- ``walk_trace(trace, on_decision=None) -> State``: replays a core trace decision by decision,
  checking at every recorded action that the seat and kind are ``to_act`` and the answer is in
  ``legal_options``; raises ``DecisionError``.
- ``describe_option(kind, option)`` and ``diff_legal(kind, core, referee)`` for readable diffs.

Procedure state the positions format does not carry (kept as plain attributes on the ``State``,
copied by ``State.clone``): whether the trump-six holder has been asked this bout, whether the
defender has declined to transfer at this table, the simple-durak defence chosen so far, and
whether the ``any_time`` round right after the lead is still open.
"""
from __future__ import annotations

from itertools import combinations

from sim.core.cards import N_CARDS, card_name, lead_cards, rank_of
from sim.core.cards import parse_card
from sim.referee import chain
from sim.referee.game import RESULT_KEYS, State, _cover_problem, apply, check, nm, trace_state

K_ATTACK, K_COVER, K_THROW_IN, K_TRANSFER, K_EXCHANGE, K_SWAP = 0, 1, 2, 3, 4, 5
KIND_NAMES = ("attack", "cover", "throw_in", "transfer", "exchange", "swap")
NO_CARD = -1
SHOW = 64
FROM_TALON = 1 << 36  # attack: lead the top card of the talon (armenian, RUL-45)
TWIN_LEAD = 37  # attack, two packs (RUL-83): bit TWIN_LEAD + suit = the led card of that suit laid twice


class DecisionError(Exception):
    """The core asked another seat or kind than the procedure, or answered outside the legal set."""


# ---- procedure state (additive attributes on State) ---------------------------------------
def _g(st: State, name: str, default=None):
    return getattr(st, name, default)


def _exchange_asked(st: State) -> bool:
    return _g(st, "_dec_exchange_bout") == st.bout


def _transfer_key(st: State):
    return (st.bout, st.defender, len(st.table))


def _pending(st: State) -> tuple:
    """Simple durak: the covers (card or None) chosen so far for the attack cards in table order."""
    p = _g(st, "_dec_pending")
    if p is None or p[0] != st.bout or not st.table:
        return ()
    return p[1]


def _anytime_open(st: State) -> bool:
    """RUL-17 any_time: the others' round right after the lead, before the defender's first answer."""
    return (_g(st, "_dec_anytime") == (st.bout, st.defender, len(st.table))
            and not st.covers_on_table() and not st.take_declared)


# ---- who acts -------------------------------------------------------------------------------
def _swap_due(st: State) -> bool:
    """VAR-PO1 / RUL-55: the defender is offered the poker swap now (before the cover decision the procedure
    would ask next): the referee's check of a declined swap says whether the offer stands."""
    return bool(st.t("poker_swap")) and check(st, {"type": "swap", "player": st.defender, "cards": []}).legal


def _exchange_holder(st: State):
    """RUL-9: the seat the core offers the exchange to at the start of this bout, or None."""
    if not st.t("trump_six_exchange") or _exchange_asked(st) or st.trump_suit is None:
        return None
    for p in range(st.n):
        if check(st, {"type": "exchange_trump_six", "player": p}).legal:
            return p
    return None


def _throw_cards(st: State, p: int) -> list[int]:
    """The cards p may throw in now, by the referee's check (passes aside: checked by the caller)."""
    return [c for c in st.hands[p] if c is not None
            and check(st, {"type": "throw_in", "player": p, "cards": [card_name(c)]}).legal]


def _next_thrower(st: State, skip_attacker: bool):
    """RUL-17: the attacker, then the others clockwise from him; the first who has a legal
    throw-in and has not passed since the table last changed."""
    a = st.attacker
    for k in range(st.n):
        p = (a + k) % st.n
        if k == 0 and skip_attacker:
            continue
        if p == st.defender or not st.active(p) or p in st.passed:
            continue
        if _throw_cards(st, p):
            return p
    return None


def _transfer_options(st: State) -> set[int]:
    """RUL-19 / PER-1..6: cards the defender may lay or (64 + card) show to transfer."""
    if st.family != "perevodnoy" or _g(st, "_dec_no_transfer") == _transfer_key(st):
        return set()
    d = st.defender
    out = set()
    for c in st.hands[d]:
        if c is None:
            continue
        if check(st, {"type": "transfer", "player": d, "card": card_name(c)}).legal:
            out.add(c)
        if check(st, {"type": "transfer_by_showing", "player": d, "card": card_name(c)}).legal:
            out.add(SHOW + c)
    return out


def to_act(st: State):
    """``(seat, kind)`` of the next decision the fixed procedure asks for, or None if the deal is over."""
    if st.over:
        return None
    if chain.on(st):
        return chain.to_act(st)
    if not st.table:
        h = _exchange_holder(st)
        if h is not None:
            return h, K_EXCHANGE
        return st.attacker, K_ATTACK
    d = st.defender
    if st.prostoy:
        if not _pending(st) and _swap_due(st):  # RUL-55: once, before the one-move defence
            return d, K_SWAP
        return d, K_COVER  # RUL-12: one cover decision per attack card, in table order
    if _anytime_open(st):  # RUL-17: with any_time the others may throw in before the defender answers
        p = _next_thrower(st, skip_attacker=True)
        if p is not None:
            return p, K_THROW_IN
    if st.uncovered() and not st.take_declared:
        if st.covers_on_table() == 0 and _transfer_options(st):
            return d, K_TRANSFER
        if _swap_due(st):
            return d, K_SWAP
        return d, K_COVER
    p = _next_thrower(st, skip_attacker=False)
    if p is None:  # the referee ends the bout by itself when nobody may throw in (RUL-17)
        raise DecisionError(f"nobody is to act, yet the bout is open: {st!r}")
    return p, K_THROW_IN


# ---- legal options --------------------------------------------------------------------------
def _mask(cards) -> int:
    """Cards -> an attack option: their bits; a card named twice (two packs, RUL-83) adds bit
    TWIN_LEAD + its suit."""
    m = 0
    for c in cards:
        m |= (1 << (TWIN_LEAD + c % 4)) if m >> c & 1 else 1 << c
    return m


def _prostoy_candidates(hand: list[int], max_cards: int):
    """Every card set of at most ``max_cards`` cards that may be a legal simple-durak lead (RUL-11):
    singles, pairs, pair + one, two disjoint pairs + 1 or 2 (a superset: sizes are not filtered by
    the toggles here). The referee's check decides which of them are legal."""
    hand = sorted(c for c in hand if c is not None)
    seen = set()
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        by_rank.setdefault(rank_of(c), []).append(c)
    pairs = [p for cs in by_rank.values() for p in combinations(cs, 2)]
    for c in hand:
        seen.add(1 << c)
    for p in pairs if max_cards >= 2 else ():
        seen.add(_mask(p))
        for c in hand if max_cards >= 3 else ():
            if c not in p:
                seen.add(_mask(p + (c,)))
    for p, q in combinations(pairs, 2) if max_cards >= 5 else ():
        if set(p) & set(q):
            continue
        rest = [c for c in hand if c not in p and c not in q]
        for k in range(1, min(2, max_cards - 4) + 1):
            for extra in combinations(rest, k):
                seen.add(_mask(p + q + extra))
    return seen


def _prostoy_cap(st: State) -> int:
    """A bound on the size of a simple-durak lead used only to keep the enumeration small: sets the
    toggles allow (RUL-11) and no more than 6 cards. The defender-hand cap is left to the check."""
    if st.t("prostoy_attack_sets") == "single_or_pair":
        return 2
    return max(3, int(st.t("prostoy_two_pair_lead_size")))


def _attack_options(st: State) -> set[int]:
    p = st.attacker
    hand = [c for c in st.hands[p] if c is not None]
    if st.t("lead_rule") == "tryoshka":
        # VAR-TR1: any cards up to three (a superset; the check decides the size and the shape)
        cap = min(3, len(hand), st.hand_size(st.defender))
        cands = {_mask(sub) for k in range(1, cap + 1) for sub in combinations(hand, k)}
    elif st.prostoy:
        cands = _prostoy_candidates(hand, _prostoy_cap(st))
    else:
        by_rank: dict[int, list[int]] = {}
        for c in hand:
            by_rank.setdefault(rank_of(c), []).append(c)
        cands = {_mask(sub) for cs in by_rank.values() for k in range(1, len(cs) + 1)
                 for sub in combinations(sorted(cs), k)}
    out = set()
    for m in cands:
        cards = [card_name(c) for c in lead_cards(m)]
        if check(st, {"type": "attack", "player": p, "cards": cards}).legal:
            out.add(m)
    if st.t("armenian") and check(st, {"type": "attack", "player": p, "from_talon": True}).legal:
        out.add(FROM_TALON)  # VAR-AR1: the top card of the talon (RUL-45)
    return out


def cover_target(st: State):
    """The attack card the defender answers now: in simple durak the next one of the defence in
    table order (RUL-12), otherwise the first uncovered attack card in table order (RUL-17)."""
    if st.prostoy:
        i = len(_pending(st))
        return st.table[i][0] if i < len(st.table) else None
    return next((a for a, c in st.table if c is None), None)


def _prostoy_cover_options(st: State) -> set[int]:
    """RUL-12 / RUL-10: covers for the next attack card, judged on the hand at that moment
    (the covers already chosen in this defence are no longer in it)."""
    pend = _pending(st)
    target = st.table[len(pend)][0]
    held = [c for c in st.hands[st.defender] if c is not None and c not in pend]
    out = {NO_CARD}
    for c in held:
        if _cover_problem(st, target, c, [x for x in held if x != c]) is None:
            out.add(c)
    return out


def legal_options(st: State) -> frozenset[int]:
    """Every legal answer to the decision ``to_act`` names (empty when the deal is over)."""
    if chain.on(st):
        return chain.legal_options(st)
    who = to_act(st)
    if who is None:
        return frozenset()
    p, kind = who
    if kind == K_EXCHANGE:
        return frozenset({0, 1})
    if kind == K_SWAP:
        return frozenset(_swap_options(st, p))
    if kind == K_ATTACK:
        return frozenset(_attack_options(st))
    if kind == K_COVER:
        if st.prostoy:
            return frozenset(_prostoy_cover_options(st))
        target = cover_target(st)
        out = {c for c in st.hands[p] if c is not None and check(
            st, {"type": "cover", "player": p, "attack": card_name(target), "cover": card_name(c)}).legal}
        if check(st, {"type": "take", "player": p}).legal:
            out.add(NO_CARD)
        return frozenset(out)
    if kind == K_THROW_IN:
        out = set(_throw_cards(st, p))
        if check(st, {"type": "pass", "player": p}).legal:
            out.add(NO_CARD)
        return frozenset(out)
    return frozenset(_transfer_options(st) | {NO_CARD})


def _swap_options(st: State, p: int) -> set[int]:
    """VAR-PO1: every set of at most two hand cards the referee's check allows (the empty set: no swap)."""
    hand = sorted(c for c in st.hands[p] if c is not None)
    cands = [()] + [(c,) for c in hand] + list(combinations(hand, 2))
    return {_mask(sub) for sub in cands
            if check(st, {"type": "swap", "player": p, "cards": [card_name(c) for c in sub]}).legal}


# ---- applying an option ---------------------------------------------------------------------
def apply_option(st: State, option: int, *, legal: frozenset | None = None) -> list[dict]:
    """Play ``option`` for the seat ``to_act`` names; raises DecisionError if it is not legal.
    ``legal``: the legal set already computed for this state (saves computing it again)."""
    who = to_act(st)
    if who is None:
        raise DecisionError("the deal is over")
    p, kind = who
    option = int(option)
    if option not in (legal_options(st) if legal is None else legal):
        raise DecisionError(f"{describe_option(kind, option)} is not a legal {KIND_NAMES[kind]} for seat {p}")
    if chain.on(st):  # K_ATTACK: one card; K_COVER: beat the top card, or take / agree to the discard
        if kind == K_ATTACK:
            return apply(st, {"type": "attack", "player": p, "cards": [card_name(c) for c in range(N_CARDS)
                                                                       if option >> c & 1]})
        if option != NO_CARD:
            return apply(st, {"type": "cover", "player": p, "attack": card_name(chain.chain(st)[-1]),
                              "cover": card_name(option)})
        return apply(st, {"type": "pass" if chain.road(st) and p == st.attacker else "take", "player": p})
    if not (kind == K_THROW_IN and option == NO_CARD):
        st._dec_anytime = None  # only passes keep the any_time round after the lead open (RUL-17)
    if kind == K_EXCHANGE:
        st._dec_exchange_bout = st.bout
        return apply(st, {"type": "exchange_trump_six", "player": p}) if option == 1 else []
    if kind == K_SWAP:
        return apply(st, {"type": "swap", "player": p, "cards": [card_name(c) for c in range(N_CARDS)
                                                                  if option >> c & 1]})
    if kind == K_ATTACK:
        cards = [card_name(c) for c in lead_cards(option)]  # table order: ascending (RUL-11), twins last (RUL-83)
        bout = st.bout
        if option == FROM_TALON:
            ev = apply(st, {"type": "attack", "player": p, "from_talon": True})
        else:
            ev = apply(st, {"type": "attack", "player": p, "cards": cards})
        if st.prostoy:
            st._dec_pending = (bout, ())
        elif st.t("others_throw_in_timing") == "any_time":
            st._dec_anytime = (bout, st.defender, len(st.table))
        return ev
    if kind == K_COVER and st.prostoy:
        pend = _pending(st) + (None if option == NO_CARD else option,)
        st._dec_pending = (st.bout, pend)
        take_all = option == NO_CARD and not st.t("partial_defence")
        if len(pend) < len(st.table) and not take_all:
            return []
        covers = [] if take_all else [{"attack": card_name(a), "cover": card_name(c)}
                                      for (a, _), c in zip(st.table, pend) if c is not None]
        st._dec_pending = None
        return apply(st, {"type": "defend", "player": p, "covers": covers})
    if kind == K_COVER:
        if option == NO_CARD:
            return apply(st, {"type": "take", "player": p})
        return apply(st, {"type": "cover", "player": p, "attack": card_name(cover_target(st)),
                          "cover": card_name(option)})
    if kind == K_THROW_IN:
        if option == NO_CARD:
            return apply(st, {"type": "pass", "player": p})
        return apply(st, {"type": "throw_in", "player": p, "cards": [card_name(option)]})
    # K_TRANSFER
    if option == NO_CARD:
        st._dec_no_transfer = _transfer_key(st)
        return []
    if option >= SHOW:
        return apply(st, {"type": "transfer_by_showing", "player": p, "card": card_name(option - SHOW)})
    return apply(st, {"type": "transfer", "player": p, "card": card_name(option)})


# ---- readable options and diffs -------------------------------------------------------------
def describe_option(kind: int, option: int) -> str:
    if kind == K_EXCHANGE:
        return {0: "keep the trump six", 1: "swap the trump six"}.get(option, f"exchange answer {option}")
    if kind == K_SWAP:
        if option == 0:
            return "no swap"
        if option < 0 or option >> N_CARDS:
            return f"swap mask {option}"
        return "swap " + "+".join(card_name(c) for c in range(N_CARDS) if option >> c & 1)
    if kind == K_ATTACK:
        if option == FROM_TALON:
            return "lead the top talon card"
        if option <= 0:
            return f"attack mask {option}"
        return "lead " + "+".join(card_name(c) for c in range(N_CARDS) if option >> c & 1)
    if option == NO_CARD:
        return {K_COVER: "take", K_THROW_IN: "pass", K_TRANSFER: "no transfer"}[kind]
    if kind == K_TRANSFER and SHOW <= option < SHOW + N_CARDS:
        return f"show {card_name(option - SHOW)}"
    if 0 <= option < N_CARDS:
        return card_name(option)
    return f"option {option}"


def diff_legal(kind: int, core, referee, context: str = "") -> str | None:
    """None when the two legal sets are equal; otherwise a readable message, e.g.
    "cover: core offers 6S, referee does not; referee offers take, core does not"."""
    core, referee = set(core), set(referee)
    if core == referee:
        return None
    parts = []
    only_core = sorted(core - referee)
    only_ref = sorted(referee - core)
    if only_core:
        parts.append("core offers " + ", ".join(describe_option(kind, o) for o in only_core) + ", referee does not")
    if only_ref:
        parts.append("referee offers " + ", ".join(describe_option(kind, o) for o in only_ref) + ", core does not")
    both = sorted(core & referee)
    msg = f"{KIND_NAMES[kind]}: " + "; ".join(parts)
    msg += " (both offer " + (", ".join(describe_option(kind, o) for o in both) or "nothing") + ")"
    return msg + (f" [{context}]" if context else "")


# ---- trace walking (the referee's fresh deal for a trace: game.trace_state) ------------------
def _decisions_of(st: State, a: dict) -> list[tuple[int, int, int]]:
    """A trace action -> the (seat, kind, option) decisions it records."""
    t, p = a["type"], int(a.get("player", -1))
    if t == "attack":
        if a.get("from_talon"):
            return [(p, K_ATTACK, FROM_TALON)]
        return [(p, K_ATTACK, _mask(_card(x) for x in a["cards"]))]
    if t == "cover":
        return [(p, K_COVER, _card(a["cover"]))]
    if t == "take":
        return [(p, K_COVER, NO_CARD)]
    if t == "throw_in":
        return [(p, K_THROW_IN, _card(x)) for x in a["cards"]]
    if t == "pass":
        return [(p, K_COVER if chain.on(st) else K_THROW_IN, NO_CARD)]
    if t == "transfer":
        return [(p, K_TRANSFER, _card(a["card"]))]
    if t == "transfer_by_showing":
        return [(p, K_TRANSFER, SHOW + _card(a["card"]))]
    if t == "exchange_trump_six":
        return [(p, K_EXCHANGE, 1)]
    if t == "swap":
        return [(p, K_SWAP, _mask(_card(x) for x in a.get("cards") or []))]
    if t == "defend":
        covers = {_card(x["attack"]): _card(x["cover"]) for x in a.get("covers") or []}
        out = []
        for att, _ in st.table:
            c = covers.get(att, NO_CARD)
            out.append((p, K_COVER, c))
            if c == NO_CARD and not st.t("partial_defence"):
                break  # take-all: the core's covers before its "take" are not traced (RUL-12)
        return out
    raise DecisionError(f"unknown action type {t!r}")


def _card(x) -> int:
    return x if isinstance(x, int) else parse_card(x)


def _table_text(st: State) -> str:
    return "[" + ", ".join(nm(a) + ("/" + nm(c) if c is not None else "") for a, c in st.table) + "]"


def walk_trace(trace: dict, on_decision=None) -> State:
    """Replay a core trace decision by decision. At every recorded action: the seat and kind are
    ``to_act`` and the answer is in ``legal_options``. Decisions a trace does not record (keeping
    the trump six, declining a transfer) are inferred: when the procedure asks for one and the
    trace goes on with something else, the silent answer (0 / -1) is applied.
    ``on_decision(state, seat, kind, legal, option)`` is called before each decision is applied.
    Raises DecisionError naming the action index."""
    st = trace_state(trace)
    for i, a in enumerate(trace.get("actions") or []):
        for p, kind, opt in _decisions_of(st, a):
            while True:
                who = to_act(st)
                if who is None:
                    raise DecisionError(f"action {i} {a}: the deal is already over for the referee")
                if who != (p, kind) and who[1] in (K_EXCHANGE, K_TRANSFER):
                    silent = 0 if who[1] == K_EXCHANGE else NO_CARD
                    legal = legal_options(st)
                    if on_decision:
                        on_decision(st, who[0], who[1], legal, silent)
                    apply_option(st, silent, legal=legal)
                    continue
                break
            if who != (p, kind):
                raise DecisionError(
                    f"action {i} {a}: the core asked seat {p} to {KIND_NAMES[kind]}, the procedure asks "
                    f"seat {who[0]} to {KIND_NAMES[who[1]]} (bout {st.bout}, attacker {st.attacker}, "
                    f"defender {st.defender}, table {_table_text(st)}, "
                    f"passed {sorted(st.passed)}, out {[s for s in range(st.n) if st.is_out[s]]})")
            legal = legal_options(st)
            if on_decision:
                on_decision(st, p, kind, legal, opt)
            if opt not in legal:
                raise DecisionError(
                    f"action {i} {a}: {describe_option(kind, opt)} is not among the legal options of seat {p} "
                    f"({', '.join(describe_option(kind, o) for o in sorted(legal))})")
            apply_option(st, opt, legal=legal)
    # silent answers after the last action cannot be needed: the last action ends the deal
    if not st.over:
        if int((trace.get("result") or {}).get("bouts") or 0) >= 1000:
            return st  # RUL-22: unfinished deal
        raise DecisionError(f"after all actions the deal is not over for the referee (to act: {to_act(st)})")
    theirs = trace.get("result")
    if theirs is not None:
        diffs = [k for k in RESULT_KEYS if theirs.get(k) != st.result[k]]
        if diffs:
            raise DecisionError(f"results differ in {diffs}: trace {theirs}, referee {st.result}")
    return st


def walk_decisions(trace: dict, decisions) -> State:
    """Drive the referee from a core's full decision stream (the state-machine core): ``trace``
    gives the deal (family, num_players, toggles, deck, dealer, deal, previous_fool, result) and
    ``decisions`` yields ``(seat, kind, legal, answer)`` for EVERY decision the core asked, silent
    ones included. At each: ``(seat, kind) == to_act``, the core's legal set equals
    ``legal_options`` (``diff_legal`` names the difference) and the answer is applied.
    Raises DecisionError at the first disagreement."""
    st = trace_state(trace)
    for i, (seat, kind, legal, answer) in enumerate(decisions):
        who = to_act(st)
        if who != (int(seat), int(kind)):
            raise DecisionError(f"decision {i}: the core asks seat {seat} to {KIND_NAMES[kind]}, the procedure "
                                f"asks {who and (who[0], KIND_NAMES[who[1]])} (bout {st.bout}, attacker "
                                f"{st.attacker}, defender {st.defender}, table "
                                f"{_table_text(st)})")
        mine = legal_options(st)
        diff = diff_legal(kind, legal, mine, context=f"decision {i}, seat {seat}, bout {st.bout}, table "
                                                      f"{_table_text(st)}")
        if diff:
            raise DecisionError(f"decision {i}: {diff}")
        apply_option(st, answer, legal=mine)
    if not st.over and int((trace.get("result") or {}).get("bouts") or 0) < 1000:
        raise DecisionError(f"after all decisions the deal is not over for the referee (to act: {to_act(st)})")
    return st
