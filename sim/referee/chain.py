"""The referee's chain bout (VAR-DR1 Дорожный, VAR-CN1 Китайский), written from docs/rules.md §6 and
sim/RULINGS.md RUL-70..RUL-79 (never from the compiled core).

In a chain bout each player beats only the TOP card of a chain of single cards. The chain lies on the
table in pairs, bottom first: ``[[c0, c1], [c2, c3], ...]`` (the last pair may be ``[c, None]``).

- Дорожный (``bout_rule=chain_road``): the attacker leads one card at the defender (the next player).
  Whenever the top card is the attacker's, the defender beats it ("cover") or takes every card of the
  chain ("take") and loses his turn (RUL-73). Whenever the top card is the defender's, the attacker beats
  it ("cover") or agrees to the discard ("pass"), after which the defender leads (RUL-72).
- Китайский (``bout_rule=chain_chinese``): the leader leads one card at the next player; the player the
  chain is at beats the top card ("cover") or does not ("take"): he takes the bottom card (RUL-78). The
  chain then goes on to the next player; a chain holding one card per player still in is discarded and its
  last beater leads next (RUL-76); when a player takes the chain's last card the next player leads (or,
  with ``chinese_next_lead=taker``, he himself: RUL-78).

The end of a chain is the podkidnoy bout end (``game._end_bout``): take or discard, refill (the leader first,
the player the chain ended at last), going out, the result, the next roles.
"""
from __future__ import annotations

import sys

from sim.core.cards import N_CARDS, card_name, rank_of, suit_of
from sim.referee import game as G

K_ATTACK, K_COVER = 0, 1
NO_CARD = -1
CLUBS, SPADES = 0, 3
SIX, ACE = 0, 8
# RUL-77 (ten_above_king): the order 6 7 8 9 J Q K 10 A, as a rank key by rank index (6 7 8 9 10 J Q K A)
TEN_ABOVE_KING_KEY = {0: 0, 1: 1, 2: 2, 3: 3, 4: 7, 5: 4, 6: 5, 7: 6, 8: 8}


def on(st) -> bool:
    return st.t("bout_rule", "standard") != "standard"


def road(st) -> bool:
    return st.t("bout_rule") == "chain_road"


def rule_id(st) -> str:
    return "VAR-DR1" if road(st) else "VAR-CN1"


# ---- the deal ---------------------------------------------------------------------------------
def deal_size(st, hand_size: int) -> int:
    """RUL-71: Дорожный deals the whole pack equally (the dealer's last card is the trump card he keeps)."""
    return N_CARDS // st.n if on(st) and road(st) else hand_size


def after_deal(st) -> None:
    """RUL-71 / RUL-75: trumps and the first leader."""
    if road(st):
        # the holder of the lowest trump leads (the whole pack is dealt, so somebody holds the trump six)
        best = min((c, s) for s in range(st.n) for c in st.hands[s] if st.is_trump(c))
        st.attacker = best[1]
    else:
        st.trump_suit = SPADES  # RUL-75: spades are always trumps; the turned card only lies under the talon
        st.attacker = (st.dealer + 1) % st.n  # 004: "the first player leads"
    st.defender = st.defender_for(st.attacker)
    st.bout_opener = st.attacker


# ---- the chain --------------------------------------------------------------------------------
def chain(st) -> list:
    return [c for pair in st.table for c in pair if c is not None]


def _lay(st, cards: list) -> None:
    st.table = [[cards[i], cards[i + 1] if i + 1 < len(cards) else None] for i in range(0, len(cards), 2)]


def _key(st, c: int) -> int:
    return TEN_ABOVE_KING_KEY[rank_of(c)] if st.t("ten_above_king") else rank_of(c)


def chain_beats(st, attack: int, cover: int) -> bool:
    """RUL-77: a higher card of the same suit (with ten_above_king the ten ranks between the king and the
    ace), or a trump on a non-trump, except that with clubs_only_by_clubs nothing but a club beats a club."""
    if suit_of(cover) == suit_of(attack):
        if _key(st, cover) > _key(st, attack):
            return True
        return bool(st.t("trump_six_beats_trump_ace") and st.is_trump(attack) and rank_of(attack) == ACE
                    and rank_of(cover) == SIX)
    if st.t("clubs_only_by_clubs") and suit_of(attack) == CLUBS:
        return False
    return st.is_trump(cover) and not st.is_trump(attack)


def beat_problem(st, p: int, attack: int, cover: int) -> str | None:
    """Why player p may not beat ``attack`` with ``cover``; None when he may."""
    if cover not in st.hands[p]:
        return f"player {p} does not hold {card_name(cover)}"
    if not chain_beats(st, attack, cover):
        return f"{card_name(cover)} does not beat {card_name(attack)}"
    if st.t("trump_only_if_cannot_follow") and st.is_trump(cover) and not st.is_trump(attack):
        follow = [c for c in st.hands[p] if c is not None and c != cover and suit_of(c) == suit_of(attack)
                  and chain_beats(st, attack, c)]
        if follow:
            return f"{card_name(cover)} is a trump, but {card_name(follow[0])} beats {card_name(attack)} in suit"
    return None


def to_act(st):
    """(seat, kind): the leader leads on an empty table; otherwise the player the chain is at beats."""
    if st.over:
        return None
    ch = chain(st)
    if not ch:
        return st.attacker, K_ATTACK
    if road(st):
        return (st.defender if len(ch) % 2 else st.attacker), K_COVER
    return st.defender, K_COVER


def legal_options(st) -> frozenset:
    who = to_act(st)
    if who is None:
        return frozenset()
    p, kind = who
    if kind == K_ATTACK:
        return frozenset(1 << c for c in st.hands[p] if c is not None)
    top = chain(st)[-1]
    return frozenset({c for c in st.hands[p] if c is not None and beat_problem(st, p, top, c) is None} | {NO_CARD})


# ---- checking and playing actions -------------------------------------------------------------------
def check(st, a: dict):
    """The referee's verdict on one action in a chain bout."""
    rid = rule_id(st)
    try:
        kind = a.get("type")
        if kind not in ("attack", "cover", "take", "pass"):
            return G.Verdict(False, rid, f"a chain bout knows only attack, cover, take and pass, not {kind!r}")
        p = G._seat(st, a.get("player"))
        G._not_over(st)
        seat, k = to_act(st)
        ch = chain(st)
        if kind == "attack":
            cards = G._card_list(a.get("cards"))
            G._require(not ch, rid, "a card is led only on an empty table")
            G._require(p == seat, "RUL-72" if road(st) else "RUL-76", f"player {seat} leads, not player {p}")
            G._require(len(cards) == 1, "RUL-72" if road(st) else "RUL-76", "a chain is led with one card")
            G._in_hand(st, p, cards[0])
            return G.Verdict(True, rid, f"player {p} leads {card_name(cards[0])}")
        G._require(ch, rid, "nothing has been led yet")
        G._require(p == seat, rid, f"the chain is at player {seat}, not player {p}")
        if kind == "cover":
            att, cov = G._card(a.get("attack"), "attack card"), G._card(a.get("cover"), "cover card")
            G._require(att == ch[-1], "RUL-77", f"only the top card {card_name(ch[-1])} is beaten")
            why = beat_problem(st, p, att, cov)
            G._require(why is None, "RUL-77", why or "")
            return G.Verdict(True, "RUL-77", f"{card_name(cov)} beats {card_name(att)}")
        if road(st):
            if kind == "take":
                G._require(p == st.defender, "RUL-72", "the attacker does not take: he beats or agrees to the discard")
                return G.Verdict(True, "RUL-73", f"player {p} takes the {len(ch)} card(s) of the chain")
            G._require(p == st.attacker, "RUL-73", "the defender does not pass: he beats the top card or takes")
            return G.Verdict(True, "RUL-72", f"player {p} agrees to the discard")
        G._require(kind == "take", "RUL-78", "a player who does not beat takes the bottom card (take), not pass")
        return G.Verdict(True, "RUL-78", f"player {p} does not beat and takes the bottom card {card_name(ch[0])}")
    except G._Illegal as e:
        return G.Verdict(False, e.rule, e.reason)


def do(st, a: dict) -> list[dict]:
    """Play an action already ruled legal, with every automatic consequence."""
    events: list[dict] = []
    kind, p = a["type"], int(a["player"])
    ch = chain(st)
    if kind == "attack":
        c = G._card(a["cards"][0])
        st.hands[p].remove(c)
        _lay(st, [c])
        events.append({"event": "attack", "player": p, "cards": [card_name(c)]})
        return events
    if kind == "cover":
        c = G._card(a["cover"])
        st.hands[p].remove(c)
        _lay(st, ch + [c])
        events.append({"event": "cover", "player": p, "attack": card_name(ch[-1]), "cover": card_name(c)})
        if not road(st):
            if len(ch) + 1 >= len(st.active_seats()):  # RUL-76: one card per player still in: the discard
                st.defender = p                          # the last beater leads next
                G._end_bout(st, taken=False, events=events)
            else:
                st.defender = st.next_active(p)
        return events
    if road(st):
        if kind == "take":  # RUL-73: the defender takes every card and loses his turn
            events.append({"event": "take_declared", "player": p})
            G._end_bout(st, taken=True, events=events)
        else:               # RUL-72: the attacker agrees to the discard; the defender leads next
            events.append({"event": "pass", "player": p})
            G._end_bout(st, taken=False, events=events)
        return events
    # Китайский: RUL-78, he takes the bottom card
    bottom = ch[0]
    st.hands[p].append(bottom)
    _lay(st, ch[1:])
    events.append({"event": "pick_up", "player": p, "cards": [card_name(bottom)]})
    if not ch[1:]:
        st.defender = p if st.t("chinese_next_lead", "next_player") == "taker" else st.next_active(p)
        G._end_bout(st, taken=False, events=events)
    else:
        st.defender = st.next_active(p)
    return events


G.BOUT_RULES.update({"chain_road": sys.modules[__name__], "chain_chinese": sys.modules[__name__]})
