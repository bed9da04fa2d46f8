"""The reference referee: a slow, readable second implementation of the durak rules.

It is written from ``docs/rules.md`` (rule ids such as ``POD-L3``) and ``sim/RULINGS.md``
(our rulings ``RUL-n``) alone, independently of the compiled core, so that the two can be checked
against each other (``replay``) and so that a human can ask "is this move legal, and what happens?"
(``judge``).

Public API
----------
- ``State``: everything about one deal in progress; mutated in place by ``apply``.
- ``load_position(family, toggles, position) -> State`` and ``State.to_position() -> dict``
  (the format of ``docs/positions.md``, examples in ``docs/examples/positions.json``).
- ``check(state, action) -> Verdict``: never raises for a bad move; an illegal move is a verdict.
- ``apply(state, action) -> list[dict]``: checks, then plays the action and every automatic
  consequence (bout end, refill, players going out, next roles, deal result). Raises ``RefereeError``.
- ``new_deal(rules, deck, dealer) -> State``: deal per RUL-2, first attacker per RUL-7.
- ``replay(trace) -> dict``: replays a core trace, raising ``ReplayError`` at the first problem.
- ``judge(doc) -> dict`` and ``format_judgement(result) -> str`` (in ``sim/referee/judge.py``).

Cards are kept as the integers of ``sim.core.cards`` (``rank*4 + suit``) inside the referee and as text
(``"10S"``) at the edges. A card whose identity the referee cannot know (drawn from a talon whose
order a position did not give, or a discard of a loaded position) is ``None``: the referee never
invents cards.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from sim.core.cards import N_CARDS, RANKS, SUITS, card_name, parse_card, parse_suit, rank_of, suit_of
from sim.core.rules import PROSTOY, THROW_IN, TOGGLE_BY_NAME, Rules, resolve, team_of_seats

SIX, ACE = 0, 8  # rank indices of the six and the ace (sim.core.cards: rank 0..8 = 6..A)
ACTION_TYPES = ("attack", "cover", "defend", "throw_in", "take", "transfer", "transfer_by_showing",
                "exchange_trump_six", "pass", "swap")
RESULT_KEYS = ("fool", "losing_team", "outcome", "places", "bouts",
               "points", "pogony", "pogon_top", "score_winners")  # the last four: scoring variants (else None)


class RefereeError(Exception):
    """An illegal action was applied. The message gives the rule id and the reason."""


class ReplayError(Exception):
    """A trace does not replay: the message names the action index, the action and why."""


@dataclass(frozen=True)
class Verdict:
    legal: bool
    rule: str    # the RULES.md id (e.g. "POD-L3") or RULINGS.md id (e.g. "RUL-17") that decides
    reason: str  # one plain-English sentence

    def as_dict(self) -> dict:
        return {"legal": self.legal, "rule": self.rule, "reason": self.reason}


class _Illegal(Exception):
    """Raised inside the checkers; ``check`` turns it into an illegal Verdict."""

    def __init__(self, rule: str, reason: str):
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


def _require(condition, rule: str, reason: str) -> None:
    if not condition:
        raise _Illegal(rule, reason)


def nm(c) -> str:
    """Card text; '?' for a card the referee cannot see."""
    return "?" if c is None else card_name(c)


def _names(cards) -> list[str]:
    return [nm(c) for c in cards]


def _join(cards) -> str:
    return ", ".join(_names(cards)) if cards else "nothing"


# ============================================================================================
# State
# ============================================================================================
class State:
    """One deal in progress. Seats are 0..n-1 clockwise (RUL-1).

    Card containers hold card ints, or ``None`` for a card whose identity is unknown:
    ``talon`` (top first; while the trump card is under the talon it is the last element),
    ``hands[seat]``, ``table`` (list of ``[attack, cover or None]``), ``discard`` (face down, C-6).
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.family = rules.family
        self.toggles = rules.toggles
        self.n = rules.num_players
        self.team = rules.team_ids()                # team id per seat (the seat itself without teams)
        self.teams = rules.teams                    # list of seat lists, or None
        self.trump_suit: int | None = None
        self.trump_card: int | None = None
        self.trump_card_location = "talon_bottom"   # or "already_drawn"
        # §6 beating modifiers (RUL-30..35): under fixed_trump_suit, or a turned spade under
        # spades_only_by_spades, the face-up card need not be of the trump suit; own_trumps gives each
        # seat a suit (seat_trumps); changing_trump lays a face-down card under the face-up one
        self.seat_trumps: list[int] | None = None
        self.card_under_trump = False               # changing_trump: the talon's last card lies face down
        self.talon: list = []
        self.hands: list[list] = [[] for _ in range(self.n)]
        self.table: list[list] = []
        self.attacker: int | None = None            # current attacker (after a transfer: the transferrer)
        self.defender: int | None = None
        self.bout_opener: int | None = None         # who led this bout (first to refill, RUL-18)
        self.is_out = [False] * self.n
        self.out_order: list[int] = []
        self.out_bout: dict[int, int] = {}          # seat -> bout in which he went out (0: before a loaded position)
        self.discard: list = []
        self.removed: list = []                     # removed_from_play (variants; kept for card conservation)
        self.discard_bouts = 0                      # VAR-OT1: bouts that have sent cards to the discard
        self.talon_shuffles: list = []              # VAR-OT1: the talon orders a trace recorded, in turn
        self.first_bout = True
        self.discard_happened = False               # a bout has ended in "бито" (first_bout_limit_scope)
        self.take_declared = False
        self.passed: set[int] = set()               # players who passed since the table last changed (RUL-17)
        self.shown_players_bout: set[int] = set()   # proezdnoy once_per_bout (PER-P2)
        self.shown_cards_bout: set[int] = set()     # pokaznoy: each card once per bout (VAR-PK1)
        self.shown_trumps_deal: set[int] = set()    # proezdnoy once_per_game_per_card (PER-P2)
        self.transfers_this_bout = 0                # transfers (laid or shown) in this bout (PER-5)
        self.dealer: int | None = None
        self.bout = 1                               # number of the current bout of the deal
        self.bout_known = True                      # False when a loaded position did not say
        self.unknown_draws = [0] * self.n           # cards drawn from a talon of unknown order
        self.result: dict | None = None
        # scoring variants (VAR-OC1, VAR-PG1; RUL-60..62): kept whatever the rules, reported when scoring is on
        self.scoring = self.toggles.get("scoring", "fool")
        self.laid_by: dict[int, int] = {}           # attack card on the table -> the seat that laid it
        self.points = [0] * self.n                  # opponents' cards beaten (RUL-60)
        self.pogony = [0] * self.n                  # pogony inflicted (RUL-61)
        self.pogon_top: list = [None] * self.n      # rank index of the highest pogon inflicted
        # VAR-PO1 poker_swap (RUL-55): the seats already offered the swap at this point of the bout, and
        # that point (bout, covers on the table with every_cover, else 0)
        self.swap_key: tuple | None = None
        self.swap_offered: set[int] = set()

    # ---- small queries -------------------------------------------------------------------
    def t(self, name: str, default=None):
        return self.toggles.get(name, default)

    @property
    def prostoy(self) -> bool:
        return self.family in PROSTOY

    @property
    def throw_in_family(self) -> bool:
        return self.family in THROW_IN

    @property
    def over(self) -> bool:
        return self.result is not None

    def active(self, seat: int) -> bool:
        return not self.is_out[seat]

    def active_seats(self) -> list[int]:
        return [s for s in range(self.n) if not self.is_out[s]]

    def next_active(self, seat: int) -> int | None:
        """The next active seat clockwise after ``seat`` (RUL-1), or None if there is none."""
        for k in range(1, self.n):
            s = (seat + k) % self.n
            if not self.is_out[s]:
                return s
        return None

    def prev_active(self, seat: int) -> int | None:
        for k in range(1, self.n):
            s = (seat - k) % self.n
            if not self.is_out[s]:
                return s
        return None

    def partners(self, a: int, b: int) -> bool:
        return a != b and self.team[a] == self.team[b]

    def defender_for(self, attacker: int) -> int | None:
        """RUL-5: the next active player clockwise of another team than ``attacker``."""
        for k in range(1, self.n):
            s = (attacker + k) % self.n
            if not self.is_out[s] and self.team[s] != self.team[attacker]:
                return s
        return None

    def talon_size(self) -> int:
        return len(self.talon)

    def trump_under_talon(self) -> bool:
        return self.trump_card_location == "talon_bottom" and len(self.talon) > 0

    def attack_cards(self) -> list:
        return [pair[0] for pair in self.table]

    def uncovered(self) -> list:
        return [pair[0] for pair in self.table if pair[1] is None]

    def covers_on_table(self) -> int:
        return sum(1 for pair in self.table if pair[1] is not None)

    def ranks_on_table(self) -> set[int]:
        return {rank_of(c) for pair in self.table for c in pair if c is not None}

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat])

    def discard_count(self) -> int:
        return len(self.discard)

    def is_trump(self, c: int) -> bool:
        return self.trump_suit is not None and suit_of(c) == self.trump_suit

    def trump_for(self, p: int) -> int | None:
        """The trump suit that counts for player p: his own under own_trumps (VAR-DK1), else the deal's."""
        if self.seat_trumps is not None:
            return self.seat_trumps[p]
        return self.trump_suit

    def is_trump_for(self, c: int, p: int) -> bool:
        t = self.trump_for(p)
        return t is not None and suit_of(c) == t

    # ---- copying (check() of sequences and multi-card throw-ins works on a copy) ---------
    def clone(self) -> "State":
        c = State.__new__(State)
        c.__dict__.update(self.__dict__)
        c.talon = list(self.talon)
        c.hands = [list(h) for h in self.hands]
        c.table = [list(p) for p in self.table]
        c.is_out = list(self.is_out)
        c.out_order = list(self.out_order)
        c.out_bout = dict(self.out_bout)
        c.discard = list(self.discard)
        c.removed = list(self.removed)
        c.talon_shuffles = [list(t) for t in self.talon_shuffles]
        c.passed = set(self.passed)
        c.shown_players_bout = set(self.shown_players_bout)
        c.shown_cards_bout = set(self.shown_cards_bout)
        c.shown_trumps_deal = set(self.shown_trumps_deal)
        c.swap_offered = set(self.swap_offered)
        c.unknown_draws = list(self.unknown_draws)
        c.laid_by = dict(self.laid_by)
        c.points, c.pogony, c.pogon_top = list(self.points), list(self.pogony), list(self.pogon_top)
        c.seat_trumps = None if self.seat_trumps is None else list(self.seat_trumps)
        c.result = None if self.result is None else dict(self.result)
        return c

    # ---- card conservation ---------------------------------------------------------------
    def copies(self) -> int:
        """How many copies of every card are in play: 2 with two packs (VAR-BD1), else 1."""
        return 2 if self.toggles.get("two_packs") else 1

    def card_invariant_problem(self, require_known: bool = False) -> str | None:
        """hands + table + talon + discard (+ removed) = 36 distinct cards (two packs: 72 cards, every card
        twice); None when it holds."""
        every = list(self.talon) + list(self.discard) + list(self.removed)
        for h in self.hands:
            every.extend(h)
        for pair in self.table:
            every.append(pair[0])
            if pair[1] is not None:
                every.append(pair[1])
        total = N_CARDS * self.copies()
        known = [c for c in every if c is not None]
        # a card named twice first: it is the likelier slip, and it explains a count one too high
        dup = [card_name(c) for c, k in Counter(known).items() if k > self.copies()]
        if dup and self.copies() == 2:
            return f"card(s) {', '.join(sorted(dup))} are in play more than twice (two packs)"
        if dup:
            return f"card(s) {', '.join(sorted(dup))} are in two places at once"
        if len(every) != total:
            return f"hands, table, talon and discard hold {len(every)} cards, not {total}"
        if require_known and len(known) != total:
            return f"{total - len(known)} cards are of unknown identity"
        return None

    # ---- position output -----------------------------------------------------------------
    def to_position(self) -> dict:
        """This state in the positions.json format, plus the referee's bookkeeping fields.

        Cards the referee cannot know are never invented: if a hand holds cards drawn from a
        talon of unknown order, ``hands`` lists only its known cards and ``hand_sizes`` /
        ``unknown_draws`` say how many others it holds.
        """
        talon_known = all(c is not None for c in self.talon)
        pos = {
            "num_players": self.n,
            "seats_clockwise": list(range(self.n)),
            "trump_suit": None if self.trump_suit is None else SUITS[self.trump_suit],
            "trump_card": None if self.trump_card is None else nm(self.trump_card),
            "trump_card_location": ("talon_bottom" if self.trump_under_talon() else
                                    "removed_from_play" if self.trump_card is not None
                                    and self.trump_card in self.removed else "already_drawn"),
            **({"seat_trumps": [SUITS[t] for t in self.seat_trumps]} if self.seat_trumps is not None else {}),
            **({"card_under_trump": True} if self.card_under_trump and self.trump_under_talon() else {}),
            "talon_size": len(self.talon),
            "talon_order_top_to_bottom": _names(self.talon) if talon_known and self.talon else None,
            "hands": {str(s): [nm(c) for c in self.hands[s] if c is not None] for s in range(self.n)},
            "attacker": self.attacker,
            "defender": self.defender,
            "table": [{"attack": nm(a), "cover": None if c is None else nm(c)} for a, c in self.table],
            "first_bout": self.first_bout,
            "dealer": self.dealer,
            "out_players": list(self.out_order),
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "discard_count": len(self.discard),
        }
        if self.removed:
            pos["removed_from_play"] = _names(self.removed)
        if self.scoring != "fool":  # RUL-60..62: the scores so far, and who laid each attack card
            for row, (a, _) in zip(pos["table"], self.table):
                if a in self.laid_by:
                    row["by"] = self.laid_by[a]
            pos["scores"] = self.scores()
        if self.t("otboyny"):
            pos["discard_bouts"] = self.discard_bouts
        if self.t("poker_swap") and self.table and swap_offered(self):
            pos["swap_offered"] = sorted(swap_offered(self))  # VAR-PO1: who has had the swap at this point
        # The referee's own bookkeeping (read back by load_position; ignored by other readers).
        pos["bout_number"] = self.bout if self.bout_known else None
        pos["bout_opener"] = self.bout_opener
        pos["take_declared"] = self.take_declared
        pos["passed"] = sorted(self.passed)
        pos["first_discard_done"] = self.discard_happened
        if self.transfers_this_bout:
            pos["transfers_this_bout"] = self.transfers_this_bout
        pos["out_bouts"] = {str(s): b for s, b in self.out_bout.items()}
        if self.shown_players_bout:
            pos["shown_this_bout_by"] = sorted(self.shown_players_bout)
        if self.shown_cards_bout:
            pos["shown_cards_this_bout"] = _names(sorted(self.shown_cards_bout))
        if self.shown_trumps_deal:
            pos["shown_trumps_this_deal"] = _names(sorted(self.shown_trumps_deal))
        hidden = {str(s): sum(1 for c in self.hands[s] if c is None) for s in range(self.n)}
        if any(hidden.values()):
            pos["hand_sizes"] = {str(s): len(self.hands[s]) for s in range(self.n)}
            pos["unknown_cards_in_hand"] = {s: k for s, k in hidden.items() if k}
            drew = {str(s): k for s, k in enumerate(self.unknown_draws) if k}
            pos["unknown_draws"] = {
                "drawn": drew,
                "note": "the talon order was not given, so the cards drawn from it are unknown; "
                        "'hands' lists only known cards and 'hand_sizes' the true sizes",
            }
        if self.result is not None:
            pos["result"] = dict(self.result)
        return pos

    def scores(self) -> dict:
        """The scoring variants' counts so far: per seat, cards beaten, pogony inflicted, highest pogon."""
        return {"points": list(self.points), "pogony": list(self.pogony),
                "pogon_top": [None if r is None else RANKS[r] for r in self.pogon_top]}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<State {self.family} bout {self.bout} A={self.attacker} D={self.defender} table={self.table}>"


# ============================================================================================
# Loading positions
# ============================================================================================
def _teams_toggle_for(family: str, n: int, teams) -> str:
    """The ``teams`` toggle value that seats these partnerships (RUL-4), or ValueError."""
    want = sorted(sorted(int(s) for s in t) for t in teams)
    for value in ("2v2", "3v3", "pairs_if_even"):
        try:
            ids = team_of_seats(value, n)
        except ValueError:
            continue
        if ids is None:
            continue
        got = sorted(sorted(s for s in range(n) if ids[s] == k) for k in sorted(set(ids)))
        if got == want:
            return value
    raise ValueError(f"position teams {teams} are not a seating the rules know (RUL-4: partners alternate, "
                     f"or 002's pairs opposite)")


def _missing_cards(st: State, position: dict, problem: str) -> str:
    """The conservation problem with what is missing: seats without a hand and cards placed nowhere."""
    hands_raw = position.get("hands") or {}
    sizes = position.get("hand_sizes") or {}
    no_hand = [s for s in range(st.n) if str(s) not in hands_raw and s not in hands_raw
               and str(s) not in sizes and not st.is_out[s]]
    every = list(st.talon) + list(st.discard) + list(st.removed) + [c for h in st.hands for c in h]
    every += [c for pair in st.table for c in pair if c is not None]
    total = N_CARDS * st.copies()
    if len(every) >= total or st.copies() > 1:
        return problem
    parts = [f"{N_CARDS - len(every)} of the {N_CARDS} cards are missing"]
    if no_hand:
        parts.append(f"position.hands has no hand for seat{'s' if len(no_hand) > 1 else ''} "
                     f"{', '.join(map(str, no_hand))}")
    placed = {c for c in every if c is not None}
    nowhere = [card_name(c) for c in range(N_CARDS) if c not in placed]
    if len(nowhere) == N_CARDS - len(every):  # every unplaced card is known: name them
        parts.append(f"cards placed nowhere: {' '.join(nowhere)}")
    return "; ".join(parts)


def load_position(family: str, toggles: dict | None, position: dict) -> State:
    """A ``State`` from a positions.json position. Missing optional fields get defaults:
    no table, nobody out, not the first bout unless said, talon order unknown, dealer unknown.
    Raises ValueError (or sim.core.rules.RulesError) for a position that cannot be played."""
    toggles = dict(toggles or {})
    hands_raw = position.get("hands") or {}
    n = int(position.get("num_players") or len(hands_raw))
    if not 2 <= n <= 6:
        said = "num_players" if position.get("num_players") else "the hands listed"
        raise ValueError(f"position has {n} players ({said}); Durak is played by 2 to 6")
    seats = position.get("seats_clockwise")
    if seats is not None and [int(s) for s in seats] != list(range(n)):
        raise ValueError(f"seats_clockwise must be 0..{n - 1} in order (RUL-1), got {seats}")
    if "teams" in position and "teams" not in toggles and family in TOGGLE_BY_NAME["teams"].families:
        toggles["teams"] = "none" if position["teams"] is None else _teams_toggle_for(family, n, position["teams"])
    rules = resolve(family, n, toggles)
    if position.get("teams") is not None and sorted(map(sorted, position["teams"])) != sorted(rules.teams or []):
        raise ValueError(f"position teams {position['teams']} disagree with the rules' teams {rules.teams}")
    st = State(rules)

    def cards(raw, what):
        out = []
        for x in raw or []:
            try:
                out.append(parse_card(x))
            except ValueError as e:
                raise ValueError(f"{what}: {e}") from None
        return out

    ts = position.get("trump_suit")
    st.trump_suit = None if ts is None else parse_suit(ts)
    tc = position.get("trump_card")
    st.trump_card = None if tc is None else cards([tc], "trump_card")[0]
    fixed = st.t("fixed_trump_suit", "none")
    if st.t("no_trump"):  # VAR-NT1 / RUL-30: no trump suit and no turned card
        if st.trump_suit is not None or st.trump_card is not None:
            raise ValueError("no_trump (VAR-NT1, RUL-30): there is no trump suit and no turned card; "
                             "give trump_suit and trump_card as null")
    elif fixed != "none":  # VAR-BJ1 / RUL-32: the suit is fixed, the turned card may be of any suit
        want = FULL_SUITS.index(fixed)
        if st.trump_suit is not None and st.trump_suit != want:
            raise ValueError(f"fixed_trump_suit={fixed}: the trump suit is {fixed}, not {ts}")
        st.trump_suit = want
    elif st.t("spades_only_by_spades") and st.trump_card is not None and suit_of(st.trump_card) == 3:
        if st.t("spade_turnup_resolution") != "no_trump" or st.trump_suit is not None:
            raise ValueError("spades_only_by_spades (RUL-31): a turned spade is never trump; with "
                             "spade_turnup_resolution=no_trump give trump_suit null, with redeal it cannot lie there")
    else:
        if st.trump_card is not None and st.trump_suit is not None and suit_of(st.trump_card) != st.trump_suit \
                and st.t("bout_rule") != "chain_chinese":  # RUL-75: spades are trumps whatever card is turned
            raise ValueError(f"trump card {tc} is not of the trump suit {ts}")
        if st.trump_card is not None and st.trump_suit is None:
            st.trump_suit = suit_of(st.trump_card)
    if st.t("spades_only_by_spades") and st.trump_suit == 3:
        raise ValueError("spades_only_by_spades (VAR-PP1): spades are never trumps")
    under = bool(position.get("card_under_trump", False)) and bool(st.t("changing_trump"))
    if position.get("card_under_trump") and not st.t("changing_trump"):
        raise ValueError("card_under_trump needs the changing_trump modifier (VAR-SM1)")
    loc = position.get("trump_card_location") or ("already_drawn" if st.t("no_trump") else "talon_bottom")
    if loc not in ("talon_bottom", "already_drawn", "removed_from_play"):
        raise ValueError(f"trump_card_location must be talon_bottom, already_drawn or removed_from_play, got {loc!r}")
    if st.t("no_trump") and loc != "already_drawn":
        raise ValueError("no_trump (RUL-30): no card lies face up under the talon (trump_card_location: already_drawn)")
    size = int(position.get("talon_size") or 0)
    order = position.get("talon_order_top_to_bottom")
    face_up_at = -2 if under else -1  # RUL-35: the hidden card lies under the face-up one
    if under and loc == "talon_bottom" and (size if order is None else len(order)) < 2:
        raise ValueError("card_under_trump: the talon must hold the face-up card and the card under it")
    if order is not None:
        st.talon = cards(order, "talon_order_top_to_bottom")
        if len(st.talon) != size and "talon_size" in position:
            raise ValueError(f"talon_size {size} but the talon order lists {len(st.talon)} cards")
    elif size:
        st.talon = [None] * size
        if loc == "talon_bottom":
            if st.trump_card is None:
                raise ValueError("the trump card is under the talon but trump_card is not given")
            st.talon[face_up_at] = st.trump_card  # C-3: the face-up trump card is the talon's last card
    if st.trump_card is None and order is not None and st.talon and loc == "talon_bottom":
        st.trump_card = st.talon[face_up_at]
        st.trump_suit = suit_of(st.trump_card) if st.trump_suit is None else st.trump_suit
    st.trump_card_location = loc if st.talon or loc == "removed_from_play" else "already_drawn"
    st.card_under_trump = under and st.trump_card_location == "talon_bottom"
    if st.trump_card_location == "talon_bottom" and st.talon[face_up_at] != st.trump_card:
        raise ValueError("the talon's last card must be the face-up trump card (C-3)"
                         + (" (the one above the hidden card under it, RUL-35)" if under else ""))
    if st.t("own_trumps"):  # VAR-DK1 / RUL-34: each seat's suit, given or from the dealer
        raw = position.get("seat_trumps")
        if raw is not None:
            if len(raw) != n:
                raise ValueError(f"seat_trumps must name one suit per seat ({n}), got {raw}")
            st.seat_trumps = [parse_suit(x) for x in raw]
        elif position.get("dealer") is not None and st.trump_suit is not None:
            st.seat_trumps = own_trump_suits(st, int(position["dealer"]), st.trump_suit)
        else:
            raise ValueError("own_trumps (VAR-DK1): give seat_trumps (one suit per seat), or the dealer and "
                             "the trump suit they follow from")
    elif position.get("seat_trumps") is not None:
        raise ValueError("seat_trumps needs the own_trumps modifier (VAR-DK1)")

    for s in range(n):
        known = cards(hands_raw.get(str(s), hands_raw.get(s, [])), f"hand of seat {s}")
        st.hands[s] = known
    sizes = position.get("hand_sizes") or {}
    for s_raw, k in sizes.items():
        s = int(s_raw)
        extra = int(k) - len(st.hands[s])
        if extra < 0:
            raise ValueError(f"hand_sizes says seat {s} holds {k} cards but his hand lists more")
        st.hands[s].extend([None] * extra)
    for i, row in enumerate(position.get("table") or []):
        a = cards([row["attack"]], f"table row {i}")[0]
        c = row.get("cover")
        if c is not None and family.startswith("prostoy"):
            raise ValueError(f"position.table[{i}].cover: in {family} the defender answers the whole attack in "
                             "one move (defend), so the table of a bout in progress holds no covers")
        st.table.append([a, None if c is None else cards([c], f"table row {i}")[0]])
        if row.get("by") is not None:
            st.laid_by[a] = int(row["by"])

    st.attacker = position.get("attacker")
    st.defender = position.get("defender")
    st.dealer = position.get("dealer")
    st.first_bout = bool(position.get("first_bout", False))
    for s in position.get("out_players") or []:
        s = int(s)
        st.is_out[s] = True
        st.out_order.append(s)
        st.out_bout[s] = 0   # "before this position", unless out_bouts says when
    for s_raw, b in (position.get("out_bouts") or {}).items():
        st.out_bout[int(s_raw)] = int(b)
    st.removed = cards(position.get("removed_from_play"), "removed_from_play")
    if loc == "removed_from_play" and (st.trump_card is None or st.trump_card not in st.removed):
        raise ValueError("trump_card_location is removed_from_play but removed_from_play does not list the trump card")
    st.discard_bouts = int(position.get("discard_bouts", 0))
    if position.get("swap_offered") is not None:
        if not st.t("poker_swap"):
            raise ValueError("swap_offered needs the poker_swap modifier (VAR-PO1)")
        st.swap_offered = {int(s) for s in position["swap_offered"]}
        st.swap_key = "loaded"  # fixed below, once the bout and the table are known
    total_known = len(st.talon) + sum(len(h) for h in st.hands) + sum(1 + (p[1] is not None) for p in st.table)
    total_known += len(st.removed)
    dc = position.get("discard_count")
    dc = N_CARDS * st.copies() - total_known if dc is None else int(dc)  # two packs: 72 cards (RUL-81)
    st.discard = [None] * dc
    problem = st.card_invariant_problem()
    if problem:
        raise ValueError(f"position breaks card conservation: {_missing_cards(st, position, problem)} (C-1)")
    if st.trump_card is not None and st.trump_card_location == "talon_bottom" and st.copies() == 1:
        for s in range(n):  # (two packs: the trump card's twin may be anywhere, RUL-81)
            if st.trump_card in st.hands[s]:
                raise ValueError(f"trump card {tc} is under the talon and in seat {s}'s hand")

    bn = position.get("bout_number")
    if bn is not None:
        st.bout = int(bn)
    elif st.first_bout:
        st.bout = 1
    else:
        st.bout, st.bout_known = 2, False  # "some later bout"; results then report bouts as unknown
    st.discard_happened = bool(position.get("first_discard_done", dc > 0))
    st.take_declared = bool(position.get("take_declared", False))
    st.passed = {int(s) for s in position.get("passed") or []}
    st.transfers_this_bout = int(position.get("transfers_this_bout", 0))
    st.bout_opener = position.get("bout_opener", st.attacker)
    st.shown_players_bout = {int(s) for s in position.get("shown_this_bout_by") or []}
    st.shown_cards_bout = set(cards(position.get("shown_cards_this_bout"), "shown_cards_this_bout"))
    st.shown_trumps_deal = set(cards(position.get("shown_trumps_this_deal"), "shown_trumps_this_deal"))
    for s_raw, k in ((position.get("unknown_draws") or {}).get("drawn") or {}).items():
        st.unknown_draws[int(s_raw)] = int(k)
    for who, name in ((st.attacker, "attacker"), (st.defender, "defender")):
        if who is not None and not (0 <= who < n):
            raise ValueError(f"{name} {who} is not a seat 0..{n - 1}")
    sc = position.get("scores") or {}
    for key in ("points", "pogony", "pogon_top"):
        if sc.get(key) is not None and len(sc[key]) != n:
            raise ValueError(f"scores.{key} must list {n} seats, got {len(sc[key])}")
    st.points = [int(x) for x in sc.get("points") or [0] * n]
    st.pogony = [int(x) for x in sc.get("pogony") or [0] * n]
    st.pogon_top = [None if x is None else RANKS.index(str(x).upper()) for x in sc.get("pogon_top") or [None] * n]
    if st.swap_key == "loaded":
        st.swap_key = _swap_key(st)
    if position.get("result"):
        st.result = dict(position["result"])
    elif st.attacker is None or st.defender is None:
        raise ValueError("a position of a deal in progress needs an attacker and a defender")
    return st


# ============================================================================================
# The deal
# ============================================================================================
def new_deal(rules: Rules, deck: list, dealer: int, *, later_deal: bool = False,
             previous_fool: int | None = None) -> State:
    """Deal a fresh deal (RUL-2) and choose the first attacker (RUL-7).

    ``deck`` is the shuffled pack, 36 card texts (or ints), top first. By default this is the
    first deal of a series (``first_attacker_first_deal``); with ``later_deal=True`` the first
    attacker follows ``first_attacker_later_deals`` using ``previous_fool`` (None after a draw).
    """
    pack = [c if isinstance(c, int) else parse_card(c) for c in deck]
    st = State(rules)
    if st.copies() == 2:  # VAR-BD1 / RUL-81: two packs shuffled together, every card twice
        if len(pack) != 2 * N_CARDS or any(k != 2 for k in Counter(pack).values()) or len(set(pack)) != N_CARDS:
            raise ValueError(f"with two_packs the deck must be the {N_CARDS} cards twice each (72 cards), got "
                             f"{len(pack)} cards")
    elif len(pack) != N_CARDS or len(set(pack)) != N_CARDS:
        raise ValueError(f"the deck must be the {N_CARDS} distinct cards of the pack (C-1), got {len(pack)} "
                         f"cards, {len(set(pack))} distinct")
    bout_rule = _bout_rule(st)
    n, h = st.n, bout_rule.deal_size(st, st.toggles["hand_size"]) if bout_rule else st.toggles["hand_size"]
    if not 0 <= dealer < n:
        raise ValueError(f"dealer {dealer} is not a seat 0..{n - 1}")
    st.dealer = dealer
    deal_rule = st.t("deal_rule", "standard")
    if deal_rule == "navaleny":
        _deal_navaleny(st, pack)
    else:
        i = 0
        for _ in range(h):                     # RUL-2: one at a time clockwise from the dealer's left
            for k in range(1, n + 1):
                st.hands[(dealer + k) % n].append(pack[i])
                i += 1
        if st.t("no_trump"):                   # VAR-NT1 / RUL-30: nothing is turned; the rest is the talon
            st.trump_card = None
            st.talon = pack[i:]
            st.trump_card_location = "already_drawn"
        elif i + 1 < N_CARDS and st.t("changing_trump"):
            # VAR-SM1 / RUL-35: the next card is turned, the one after it lies face down under it
            st.trump_card = pack[i]
            st.talon = pack[i + 2:] + [pack[i], pack[i + 1]]
            st.trump_card_location = "talon_bottom"
            st.card_under_trump = True
        elif i < len(pack):                    # the next card is turned and lies under the talon
            st.trump_card = pack[i]
            face_down = pack[i + 1:]
            if st.t("albanian"):
                # VAR-AL1 / RUL-53: the talon lies sorted by rank, aces on top; equal ranks keep the order
                # they had in the shuffled pack (sorted() is stable); the trump card stays under it
                face_down = sorted(face_down, key=lambda c: -rank_of(c))
            st.talon = face_down + [pack[i]]
            st.trump_card_location = "talon_bottom"
            if deal_rule == "chukotsky":
                # VAR-CH1 / RUL-51: the talon with the trump card leaves play; the trump suit stays
                st.removed = st.talon
                st.talon = []
                st.trump_card_location = "removed_from_play"
        else:                                  # 6 x 6: the dealer's last card is shown and kept
            st.trump_card = pack[-1]
            st.talon = []
            st.trump_card_location = "already_drawn"
    st.trump_suit = _dealt_trump_suit(st)
    if st.t("own_trumps"):
        st.seat_trumps = own_trump_suits(st, dealer, st.trump_suit)
    st.first_bout = True
    st.attacker = _first_attacker(st, later_deal, previous_fool)
    st.defender = st.defender_for(st.attacker)
    st.bout_opener = st.attacker
    if bout_rule:  # VAR-DR1 / VAR-CN1: the chain bout's deal (sim/referee/chain.py)
        bout_rule.after_deal(st)
    return st


def _deal_navaleny(st: State, pack: list) -> None:
    """VAR-NA1 / RUL-52: the whole pack is dealt one at a time clockwise from the dealer's left; with
    navaleny_extra_cards=out_of_play each seat gets 36 // n and the rest leaves play. The last card dealt
    is shown for trump and stays in its hand (RUL-2's 6 x 6 rule), or, with navaleny_trump=leftover_card
    and a card left over, the first leftover card is turned for trump and stays out of play."""
    n = st.n
    per_seat_total = N_CARDS
    if st.t("navaleny_extra_cards") == "out_of_play":
        per_seat_total = (N_CARDS // n) * n
    for i in range(per_seat_total):
        st.hands[(st.dealer + 1 + i) % n].append(pack[i])
    st.removed = pack[per_seat_total:]
    st.talon = []
    if st.removed and st.t("navaleny_trump") == "leftover_card":
        st.trump_card = st.removed[0]
        st.trump_card_location = "removed_from_play"
    else:
        st.trump_card = pack[per_seat_total - 1]
        st.trump_card_location = "already_drawn"
FULL_SUITS = ("clubs", "diamonds", "hearts", "spades")


def _dealt_trump_suit(st: State) -> int | None:
    """The trump suit of a fresh deal: the turned card's suit (C-3), or as the §6 modifiers say."""
    if st.t("no_trump"):
        return None                                     # VAR-NT1 / RUL-30
    fixed = st.t("fixed_trump_suit", "none")
    if fixed != "none":
        return FULL_SUITS.index(fixed)                  # VAR-BJ1 / RUL-32, whatever is turned
    if st.t("spades_only_by_spades") and suit_of(st.trump_card) == 3:
        if st.t("spade_turnup_resolution") == "redeal":  # RUL-31
            raise ValueError(f"the turned card {nm(st.trump_card)} is a spade: with spades_only_by_spades and "
                             "spade_turnup_resolution=redeal this pack is shuffled and dealt again (RUL-31)")
        return None                                     # RUL-31 no_trump: the spade stays, nothing is trump
    return suit_of(st.trump_card)


def own_trump_suits(st: State, dealer: int, first_suit: int) -> list[int]:
    """VAR-DK1 / RUL-34: the turned suit goes to the dealer's left neighbour (or the dealer), each next
    seat clockwise the next suit in the order clubs, diamonds, hearts, spades."""
    start = dealer if st.t("own_trumps_assignment") == "from_dealer" else (dealer + 1) % st.n
    out = [0] * st.n
    for k in range(st.n):
        out[(start + k) % st.n] = (first_suit + k) % 4
    return out


def _first_attacker(st: State, later_deal: bool, previous_fool: int | None) -> int:
    """RUL-7."""
    left = (st.dealer + 1) % st.n
    how = st.toggles["first_attacker_later_deals"] if later_deal else st.toggles["first_attacker_first_deal"]
    if how in ("pod_duraka", "iz_pod_duraka"):
        if previous_fool is None:        # after a draw (or a team game): RUL-7 falls back
            return left
        return (previous_fool - 1) % st.n if how == "pod_duraka" else (previous_fool + 1) % st.n
    if how == "left_of_dealer":
        return left
    # lowest_trump: the holder of the lowest trump (the 6-player dealer's shown trump counts); with two
    # packs both copies of it may be dealt: the first of their holders clockwise from the dealer's left
    # leads (RUL-84), so the seats are searched in that order
    order = [(st.dealer + k) % st.n for k in range(1, st.n + 1)]
    best = None
    for s in order:
        for c in st.hands[s]:
            if st.is_trump_for(c, s) and (best is None or c < best[0]):  # own_trumps: his own (RUL-34)
                best = (c, s)
    if best is not None:
        return best[1]
    if st.toggles["no_trump_in_hands_fallback"] == "lowest_card":
        # lowest rank, ties by suit C < D < H < S: exactly the smallest rank-major card int
        return order[min((c, i) for i, s in enumerate(order) for c in st.hands[s])[1]]
    return left


# ============================================================================================
# Checking
# ============================================================================================
def _seat(st: State, raw) -> int:
    if isinstance(raw, bool) or raw is None:
        raise _Illegal("RUL-1", f"the action names no valid player (got {raw!r})")
    try:
        s = int(raw)
    except (TypeError, ValueError):
        raise _Illegal("RUL-1", f"the action's player {raw!r} is not a seat number") from None
    _require(0 <= s < st.n, "RUL-1", f"player {s} is not a seat of this {st.n}-player deal (seats 0..{st.n - 1})")
    return s


_CARD_BY_TEXT = {card_name(c): c for c in range(N_CARDS)}


def _card(raw, what: str = "card") -> int:
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < N_CARDS:
        return raw
    if isinstance(raw, str) and raw in _CARD_BY_TEXT:
        return _CARD_BY_TEXT[raw]
    try:
        return parse_card(raw)
    except (ValueError, TypeError, AttributeError):
        raise _Illegal("RUL-1", f"the {what} {raw!r} is not a card (write rank+suit, e.g. '10S' or 'QH')") from None


def _card_list(raw, what: str = "cards", copies: int = 1) -> list[int]:
    """The cards of an action; each at most once (with two packs, `copies`=2: at most twice, RUL-83)."""
    if isinstance(raw, str) or not isinstance(raw, (list, tuple)):
        raise _Illegal("RUL-1", f"the action's {what} must be a list of cards, got {raw!r}")
    out = [_card(x) for x in raw]
    _require(out, "RUL-1", f"the action's {what} list is empty")
    dup = [nm(c) for c, k in Counter(out).items() if k > copies]
    _require(not dup, "RUL-1", f"card {', '.join(dup)} is named " + ("twice" if copies == 1 else "three times"))
    return out


def _in_hand(st: State, p: int, c: int) -> None:
    _require(c in st.hands[p], "RUL-1", f"player {p} does not hold {nm(c)}")


def _not_over(st: State) -> None:
    _require(not st.over, "RUL-20", "the deal is already over, so no further action is possible")


def _active_player(st: State, p: int) -> None:
    _require(st.active(p), "RUL-20", f"player {p} has gone out of this deal and takes no further part")


def beats(st: State, attack: int, cover: int) -> bool:
    """C-2 / RUL-10 and the §6 beating modifiers: does ``cover`` beat ``attack`` when the current
    defender covers? (own_trumps: his trump is the one that counts, RUL-34.)"""
    d = st.defender

    def trump(c):
        return st.is_trump_for(c, d) if d is not None else st.is_trump(c)
    spade_a, spade_c = suit_of(attack) == 3, suit_of(cover) == 3
    if st.t("spades_only_by_spades") and spade_a != spade_c:
        return False  # VAR-PP1: a spade only by a spade, and a spade beats nothing else
    if st.t("korolevsky") and rank_of(attack) == SIX:
        # VAR-KO1 / RUL-33: a six only by an ace: of its suit or the trump ace (any ace by toggle)
        if rank_of(cover) != ACE:
            return False
        return st.t("korolevsky_ace") == "any_ace" or suit_of(cover) == suit_of(attack) or trump(cover)
    if suit_of(cover) == suit_of(attack):
        if rank_of(cover) > rank_of(attack):
            return True
        # HR-1: the trump six beats the trump ace (and only it)
        return bool(st.t("trump_six_beats_trump_ace") and trump(attack) and rank_of(attack) == ACE
                    and rank_of(cover) == SIX)
    return trump(cover) and not trump(attack)


def _cover_problem(st: State, attack: int, cover: int, still_held: list) -> tuple[str, str] | None:
    """Why ``cover`` may not beat ``attack``; None when it may. ``still_held`` = the defender's cards
    that stay in his hand besides this cover (for trump_only_if_cannot_follow, RUL-10)."""
    d = st.defender
    if not beats(st, attack, cover):
        if cover == attack:  # two packs (VAR-BD1): "Равной картой по значению и по масти отбиться нельзя"
            return "RUL-85", f"{nm(cover)} does not beat {nm(attack)}: an equal card (same rank and suit) never beats"
        if st.t("spades_only_by_spades") and (suit_of(attack) == 3) != (suit_of(cover) == 3):
            return "VAR-PP1", (f"{nm(cover)} does not beat {nm(attack)}: a spade is beaten only by a higher spade "
                               "and a spade beats no other suit")
        if st.t("korolevsky") and rank_of(attack) == SIX:
            which = "any ace" if st.t("korolevsky_ace") == "any_ace" else "an ace of its suit or the trump ace"
            return "VAR-KO1", f"{nm(cover)} does not beat {nm(attack)}: a six is beaten only by {which}"
        if st.seat_trumps is not None:
            t = st.trump_for(d)
            return "VAR-DK1", (f"{nm(cover)} does not beat {nm(attack)}: player {d}'s own trump is "
                               f"{FULL_SUITS[t]}, so only a higher {SUITS[suit_of(attack)]}"
                               + ("" if suit_of(attack) == t else " or a " + FULL_SUITS[t][:-1]) + " beats it")
        if st.trump_suit is None and suit_of(cover) != suit_of(attack):
            return "VAR-NT1", f"{nm(cover)} does not beat {nm(attack)}: there are no trumps, so only a higher " \
                              f"{SUITS[suit_of(attack)]} beats it"
        if st.is_trump(attack) and st.is_trump(cover):
            rule = {"prostoy_5": "PR5-D2", "prostoy_6": "C-2"}.get(st.family, "POD-D2")
            return rule, f"{nm(cover)} does not beat {nm(attack)}: a trump is beaten only by a higher trump"
        if suit_of(cover) == suit_of(attack):
            why = f"{nm(cover)} is not higher than {nm(attack)}"
        else:
            why = f"{nm(cover)} is neither a higher {SUITS[suit_of(attack)]} nor a trump"
        rule = {"prostoy_5": "PR5-D2"}.get(st.family, "POD-D1" if st.throw_in_family else "C-2")
        return rule, f"{nm(cover)} does not beat {nm(attack)}: {why}"
    if st.t("trump_only_if_cannot_follow") and st.is_trump_for(cover, d) and not st.is_trump_for(attack, d):
        follow = [c for c in still_held if c is not None and suit_of(c) == suit_of(attack) and beats(st, attack, c)]
        if follow:
            return "PR6-D1", (f"{nm(attack)} may be trumped only by a defender who cannot beat it in suit, "
                              f"and he holds {_join(follow)}")
    return None


def _cover_rule(st: State, attack: int, cover: int) -> str:
    d = st.defender
    if st.t("korolevsky") and rank_of(attack) == SIX:
        return "VAR-KO1"
    if st.t("spades_only_by_spades") and suit_of(attack) == 3:
        return "VAR-PP1"
    if st.t("trump_six_beats_trump_ace") and st.is_trump_for(attack, d) and rank_of(attack) == ACE \
            and rank_of(cover) == SIX:
        return "HR-1"
    if st.seat_trumps is not None and st.is_trump_for(cover, d) and not st.is_trump_for(attack, d):
        return "VAR-DK1"
    if st.throw_in_family and st.is_trump_for(cover, d) and not st.is_trump_for(attack, d):
        return "POD-D3"
    return {"prostoy_5": "PR5-D2", "prostoy_6": "PR6-D1"}.get(st.family, "C-2")


# ---- attack limits (RUL-15) -----------------------------------------------------------------
def first_bout_limit_in_force(st: State) -> bool:
    """RUL-15 / POD-L3: is the first-bout attack limit in force now?"""
    if not st.throw_in_family or st.t("first_bout_max_attack") == "none":
        return False
    if st.t("first_bout_limit_scope") == "until_first_discard":
        return not st.discard_happened
    return st.first_bout


def attack_limits(st: State, defender: int | None = None) -> list[tuple[int, str, str]]:
    """Every limit on the number of attack cards of this bout: (limit, rule, explanation).

    POD-L2: the defender may face no more attack cards than he held when he became defender.
    He only loses cards by covering during a bout, so that number is his hand now plus the
    covers he has laid (equivalently: uncovered cards <= cards in his hand, as POD-L2 says)."""
    d = st.defender if defender is None else defender
    held = st.hand_size(d) + (st.covers_on_table() if d == st.defender else 0)
    limits = [(held, "POD-L2", f"the defender (player {d}) had only {held} card(s) when he became defender")]
    if st.throw_in_family:
        m = st.t("max_attack_cards")
        limits.append((m, "POD-L1", f"a bout has at most {m} attack cards"))
        if first_bout_limit_in_force(st):
            f = st.t("first_bout_max_attack")
            scope = ("in the deal's first bout" if st.t("first_bout_limit_scope") == "first_bout"
                     else "until the first discard of the deal")
            limits.append((f, "POD-L3", f"{scope} at most {f} attack cards may be played"))
    return limits


def _tightest_limit(st: State, want: int, defender: int | None = None):
    """The limit that ``want`` attack cards would break (the smallest one), or None."""
    broken = [lim for lim in attack_limits(st, defender) if want > lim[0]]
    if not broken:
        return None
    order = {"POD-L3": 0, "POD-L2": 1, "POD-L1": 2}
    return min(broken, key=lambda lim: (lim[0], order.get(lim[1], 9)))


# ---- who may throw in (RUL-16) --------------------------------------------------------------
def _neighbours_only(st: State) -> bool:
    g = st.t("throw_in_neighbours_only_if_players_gt", "none")
    return g != "none" and st.n > g


def _eligibility_problem(st: State, p: int) -> tuple[str, str] | None:
    """RUL-16: may this player throw in at all in this bout (timing aside)?"""
    if not st.active(p):
        return "RUL-20", f"player {p} has gone out of this deal"
    if p == st.defender:
        return "POD-T1", f"player {p} is the defender and cannot throw in against himself"
    if st.partners(p, st.defender):
        return "TEAM-2", f"player {p} is the defender's partner, and partners do not throw in against each other"
    if _neighbours_only(st):
        near = {st.next_active(st.defender), st.prev_active(st.defender)}
        if p not in near:
            g = st.t("throw_in_neighbours_only_if_players_gt")
            return "HR-3", (f"with more than {g} players only the defender's neighbours "
                            f"({' and '.join(str(x) for x in sorted(near))}) may throw in")
    return None


def _legal_throw_cards(st: State, p: int) -> list[int]:
    """Cards ``p`` may throw in right now, ignoring only whether he has passed."""
    if st.over or not st.table or not st.throw_in_family:
        return []
    if st.take_declared and not st.t("throw_in_after_take"):
        return []
    if _eligibility_problem(st, p) is not None:
        return []
    if p != st.attacker and _timing_problem(st, p) is not None:
        return []
    if _tightest_limit(st, len(st.table) + 1) is not None:
        return []
    ranks = st.ranks_on_table()
    return [c for c in st.hands[p] if c is not None and rank_of(c) in ranks]


def _timing_problem(st: State, p: int) -> tuple[str, str] | None:
    """RUL-16 timing for players other than the current attacker."""
    timing = st.t("others_throw_in_timing")
    if timing == "any_time":
        return None
    if timing == "after_first_cover":
        if st.covers_on_table() or st.take_declared:
            return None
        return "POD-T1", ("players other than the attacker may throw in only once an attack card "
                          "has been covered or the defender has said he takes")
    # after_attacker
    a = st.attacker
    if a in st.passed or not _legal_throw_cards(st, a):
        return None
    return "POD-T1", (f"players other than the attacker may throw in only after the attacker "
                      f"(player {a}) has finished adding cards")


def may_throw_in_now(st: State, p: int) -> bool:
    """RUL-17: a player who may legally throw in a card now and has not passed."""
    return p not in st.passed and bool(_legal_throw_cards(st, p))


def _anyone_may_throw(st: State) -> bool:
    return any(may_throw_in_now(st, p) for p in range(st.n) if p != st.defender)


def _throw_in_card_verdict(st: State, p: int, c: int) -> Verdict:
    _not_over(st)
    if st.prostoy:
        rule = "PR5-A7" if st.family == "prostoy_5" else "PR6-D3"
        raise _Illegal(rule, "in simple durak nothing is added to an attack once it is laid")
    _require(st.table, "RUL-14", "no bout is open: the attacker must lead with an attack first")
    _require(not (st.take_declared and not st.t("throw_in_after_take")), "POD-T4",
             "with throw_in_after_take off nothing may be added once the defender takes")
    problem = _eligibility_problem(st, p)
    if problem:
        raise _Illegal(*problem)
    _require(p not in st.passed, "RUL-17", f"player {p} has passed since the table last changed")
    if p != st.attacker:
        problem = _timing_problem(st, p)
        if problem:
            raise _Illegal(*problem)
    _in_hand(st, p, c)
    ranks = st.ranks_on_table()
    _require(rank_of(c) in ranks, "POD-T2",
             f"{nm(c)} matches no rank on the table (ranks there: "
             f"{', '.join(RANKS[r] for r in sorted(ranks))})")
    broken = _tightest_limit(st, len(st.table) + 1)
    if broken:
        raise _Illegal(broken[1], f"{nm(c)} would be attack card {len(st.table) + 1}, but {broken[2]}")
    if st.take_declared:
        return Verdict(True, "POD-T4", f"player {p} may add {nm(c)} after the defender's 'I take' (vdogonku)")
    return Verdict(True, "POD-T2", f"player {p} may throw in {nm(c)}: its rank is on the table and the limits allow it")


# ---- the individual checkers ----------------------------------------------------------------
def _check_attack(st: State, a: dict) -> Verdict:
    _not_over(st)
    p = _seat(st, a.get("player"))
    if a.get("from_talon"):
        _active_player(st, p)
        _require(not st.table, "RUL-14", "the bout is already open: the lead has been made")
        _require(p == st.attacker, "RUL-6", f"player {p} is not the attacker; player {st.attacker} leads this bout")
        return _check_talon_lead(st, p, a)
    cards = _card_list(a.get("cards"), copies=st.copies())
    _active_player(st, p)
    if st.table:
        rule = ("PR5-A7" if st.family == "prostoy_5" else "PR6-D3") if st.prostoy else "RUL-14"
        raise _Illegal(rule, "the bout is already open: the lead has been made" +
                       ("" if st.prostoy else "; further cards are thrown in with throw_in"))
    _require(p == st.attacker, "RUL-6", f"player {p} is not the attacker; player {st.attacker} leads this bout")
    for c in cards:
        _in_hand(st, p, c)
        _require(cards.count(c) <= st.hands[p].count(c), "RUL-83", f"player {p} holds {nm(c)} only once")
    if st.t("lead_rule") == "tryoshka":
        return _tryoshka_lead(st, p, cards)
    if st.prostoy:
        rule, reason = _prostoy_set(st, cards)
        verdict = Verdict(True, rule, reason)
    else:
        if st.t("initial_lead") == "single":
            _require(len(cards) == 1, "POD-A1", "with initial_lead=single the bout is opened with exactly one card")
        else:
            _require(len({rank_of(c) for c in cards}) == 1, "POD-A1",
                     f"a lead of several cards must be of one rank, and {_join(cards)} are not")
        broken = _tightest_limit(st, len(cards))
        if broken:
            raise _Illegal(broken[1], f"a lead of {len(cards)} cards is too many: {broken[2]}")
        verdict = Verdict(True, "POD-A1", f"player {p} may lead {_join(cards)}")
    if st.t("lead_rule") == "zanudny":
        return _zanudny_lead(st, p, cards)
    return verdict


# ---- the §6 lead modifiers (VAR-ZA1, VAR-TR1, VAR-AR1; RUL-40..47) ----------------------------------
def zanudny_highest(st: State, p: int) -> tuple[int | None, str]:
    """RUL-40/41: the rank a zanudny lead must include, and which cards it was taken over."""
    held = [c for c in st.hands[p] if c is not None]
    over, what = held, "his cards"
    if st.t("zanudny_trumps_apart"):
        plain = [c for c in held if not st.is_trump(c)]
        if plain:
            over, what = plain, "his non-trumps (trumps count apart)"
        else:
            what = "his cards (he holds only trumps)"
    if not over:
        return None, what
    return max(rank_of(c) for c in over), what


def _zanudny_lead(st: State, p: int, cards: list[int]) -> Verdict:
    top, what = zanudny_highest(st, p)
    apart = st.t("zanudny_trumps_apart")
    ok = [c for c in cards if rank_of(c) == top and not (apart and st.is_trump(c) and
                                                         any(not st.is_trump(x) for x in st.hands[p] if x is not None))]
    _require(bool(ok), "VAR-ZA1",
             f"in zanudny a lead must include a card of the highest rank among {what} ({RANKS[top]}), "
             f"and {_join(cards)} does not (RUL-40)")
    return Verdict(True, "VAR-ZA1", f"player {p} may lead {_join(cards)}: it includes {nm(ok[0])}, of the "
                                    f"highest rank among {what} (RUL-40)")


def tryoshka_size(st: State, p: int) -> tuple[int, str]:
    """RUL-42/43: how many cards a tryoshka lead has, and why."""
    held = [c for c in st.hands[p] if c is not None]
    if st.t("tryoshka_lead") == "same_rank":
        most = max(Counter(rank_of(c) for c in held).values()) if held else 0
        need, why = min(3, most), f"he holds at most {most} card(s) of one rank"
    else:
        need, why = min(3, len(st.hands[p])), f"he holds {len(st.hands[p])} card(s)"
    if st.prostoy:
        d = st.defender
        if st.hand_size(d) < need:
            need, why = st.hand_size(d), f"the defender (player {d}) holds only {st.hand_size(d)}"
    else:
        while need > 0 and _tightest_limit(st, need):
            broken = _tightest_limit(st, need)
            need, why = broken[0], broken[2]
    return need, why


def _tryoshka_lead(st: State, p: int, cards: list[int]) -> Verdict:
    need, why = tryoshka_size(st, p)
    _require(len(cards) == need, "VAR-TR1",
             f"in tryoshka every bout opens with exactly {need} card(s) here ({'three' if need == 3 else why}), "
             f"not {len(cards)} (RUL-42)")
    if st.t("tryoshka_lead") == "same_rank":
        _require(len({rank_of(c) for c in cards}) == 1, "VAR-TR1",
                 f"with tryoshka_lead=same_rank the opening cards share a rank, and {_join(cards)} do not (RUL-43)")
    return Verdict(True, "VAR-TR1", f"player {p} may open with {_join(cards)}: {need} card(s) (RUL-42)")


def _check_talon_lead(st: State, p: int, a: dict) -> Verdict:
    """VAR-AR1 / RUL-45..47: the top card of the talon as the whole lead, blind."""
    _require(bool(st.t("armenian")), "VAR-AR1",
             "a bout is opened from the talon only in Armenian durak (armenian=true)")
    # the face-up trump card is never led, nor (VAR-SM1, RUL-35) the hidden card lying under it
    face_down = len(st.talon) - (1 if st.trump_under_talon() else 0) - (1 if st.card_under_trump else 0)
    _require(face_down > 0, "RUL-46",
             "the talon holds no face-down card to lead" + (" (the face-up trump card is never led)"
                                                           if st.trump_under_talon() else ""))
    named = a.get("cards") or []
    _require(len(named) <= 1, "RUL-45", "a lead from the talon is the top card alone, nothing from the hand with it")
    top = st.talon[0]
    if named:
        c = _card(named[0])
        if top is not None:
            _require(c == top, "RUL-45", f"the top card of the talon is {nm(top)}, not {nm(c)}")
        else:
            _require(c not in _known_cards(st), "RUL-45", f"{nm(c)} is not in the talon")
        top = c
    _require(top is not None, "RUL-45", "the talon's order is not known: name the card turned up in 'cards'")
    if st.prostoy:
        _require(st.hand_size(st.defender) >= 1, "PR6-A4", "the defender holds no card")
    else:
        broken = _tightest_limit(st, 1)
        if broken:
            raise _Illegal(broken[1], f"no card may be led: {broken[2]}")
    return Verdict(True, "VAR-AR1", f"player {p} may lead the top card of the talon ({nm(top)}), blind (RUL-45)")


def _known_cards(st: State) -> set:
    every = list(st.discard) + list(st.removed) + [c for h in st.hands for c in h]
    every += [c for pair in st.table for c in pair] + list(st.talon[1:])
    return {c for c in every if c is not None}


def _pairs(cards) -> int:
    return sum(k // 2 for k in Counter(rank_of(c) for c in cards).values())


def _prostoy_set(st: State, cards: list[int]) -> tuple[str, str]:
    """RUL-11: is this a legal simple-durak attack set? Returns (rule, reason) when legal."""
    p5 = st.family == "prostoy_5"
    k = len(cards)
    shown = _join(cards)
    if st.t("prostoy_attack_sets") == "single_or_pair":
        _require(k == 1 or (k == 2 and rank_of(cards[0]) == rank_of(cards[1])), "RUL-11",
                 f"with prostoy_attack_sets=single_or_pair the lead is one card or a pair, not {shown}")
        legal = ("RUL-11", f"{shown} is a single card or a pair")
    else:
        two_pair_size = st.t("prostoy_two_pair_lead_size")
        pairs = _pairs(cards)
        if k == 1:
            legal = ("PR5-A2" if p5 else "PR6-A1", f"{shown} is a one-card attack, which any card may be")
        elif k == 2:
            raise _Illegal("PR5-A5" if p5 else "PR6-A2", "a 2-card attack is not allowed: a pair is led with a third card")
        elif k == 3:
            _require(pairs >= 1, "PR5-A3" if p5 else "PR6-A2",
                     f"a 3-card attack must contain a pair, and {shown} does not")
            legal = ("PR5-A3" if p5 else "PR6-A2", f"{shown} is a pair plus a third card")
        elif k == 4:
            raise _Illegal("PR5-A5" if p5 else "PR6-A3", "a 4-card attack is not allowed")
        elif k == two_pair_size:
            rule = "PR5-A4" if (p5 and k == 5) else "PR6-A3"
            _require(pairs >= 2, rule, f"a {k}-card attack must contain two separate pairs, and {shown} does not")
            legal = (rule, f"{shown} contains two separate pairs")
        elif k in (5, 6):
            raise _Illegal("PR5-A1" if (p5 and k == 6) else "PR6-A3",
                           f"two-pair attacks have {two_pair_size} cards under these rules, not {k}")
        else:
            raise _Illegal("PR5-A1" if p5 else "PR6-A4", f"an attack of {k} cards is not a legal set")
    d = st.defender
    _require(k <= st.hand_size(d), "PR5-A6" if p5 else "PR6-A4",
             f"the attack has {k} cards but the defender (player {d}) holds only {st.hand_size(d)}")
    _require(k <= 6, "PR6-A4", "no more than 6 cards may be led")
    return legal


def _attack_row(st: State, att: int):
    """The table row of attack card `att`: with two packs both copies may lie there, and a cover names the
    first of them still uncovered (RUL-83)."""
    rows = [pair for pair in st.table if pair[0] == att]
    return next((pair for pair in rows if pair[1] is None), rows[0] if rows else None)


def _check_cover(st: State, a: dict) -> Verdict:
    _not_over(st)
    p = _seat(st, a.get("player"))
    att = _card(a.get("attack"), "attack card")
    cov = _card(a.get("cover"), "cover card")
    _require(not st.prostoy, "RUL-12", "in simple durak the defence is one 'defend' action naming all covers")
    _require(st.table, "RUL-14", "no bout is open, so there is nothing to cover")
    _require(p == st.defender, "POD-D4", f"only the defender (player {st.defender}) covers attack cards")
    _require(not st.take_declared, "POD-D5", "the defender has said 'I take', which cannot be taken back")
    row = _attack_row(st, att)
    _require(row is not None, "POD-D4", f"{nm(att)} is not an attack card on the table")
    _require(row[1] is None, "C-5", f"{nm(att)} is already covered by {nm(row[1])}, and a placed card stays")
    _in_hand(st, p, cov)
    problem = _cover_problem(st, att, cov, [c for c in st.hands[p] if c != cov])
    if problem:
        raise _Illegal(*problem)
    return Verdict(True, _cover_rule(st, att, cov), f"{nm(cov)} beats {nm(att)}")


def _check_defend(st: State, a: dict) -> Verdict:
    _not_over(st)
    p = _seat(st, a.get("player"))
    _require(st.prostoy, "RUL-12", "'defend' is simple durak's one-shot defence; here cover each card or take")
    _require(st.table, "RUL-14", "no attack is on the table, so there is nothing to defend")
    _require(p == st.defender, "PR5-S4", f"only the defender (player {st.defender}) defends")
    covers_raw = a.get("covers") or []
    _require(isinstance(covers_raw, (list, tuple)), "RUL-1", "the defence's covers must be a list of {attack, cover}")
    attacks_on_table = st.attack_cards()
    used_attacks, used_covers, pairs = [], [], []
    for item in covers_raw:
        _require(isinstance(item, dict), "RUL-1", f"each cover must be {{attack, cover}}, got {item!r}")
        att = _card(item.get("attack"), "attack card")
        cov = _card(item.get("cover"), "cover card")
        _require(att in attacks_on_table, "PR5-D1", f"{nm(att)} is not an attack card on the table")
        _require(att not in used_attacks, "C-5", f"{nm(att)} is covered twice")
        _require(cov not in used_covers, "RUL-1", f"{nm(cov)} is used as a cover twice")
        _in_hand(st, p, cov)
        used_attacks.append(att)
        used_covers.append(cov)
        pairs.append((att, cov))
    kept = [c for c in st.hands[p] if c not in used_covers]
    for att, cov in pairs:
        # trump_only_if_cannot_follow (RUL-10) in a one-shot defence: a non-trump may be trumped only
        # if no higher card of its suit stays in the hand after this defence (ours, see report).
        problem = _cover_problem(st, att, cov, kept)
        if problem:
            raise _Illegal(*problem)
    rest = [c for c in attacks_on_table if c not in used_attacks]
    if "take" in a and a["take"] is not None:
        take = [_card(x) for x in a["take"]]
        _require(sorted(take) == sorted(rest), "PR5-D1" if st.t("partial_defence") else "PR6-D2",
                 f"the cards taken must be exactly the uncovered attack cards ({_join(rest)}), not {_join(take)}")
    if not rest:
        return Verdict(True, "PR5-T1" if st.family == "prostoy_5" else "PR6-D2",
                       f"player {p} covers every attack card; the bout is beaten off")
    if st.t("partial_defence"):
        return Verdict(True, "PR5-D1", f"player {p} covers {len(pairs)} card(s) and takes {_join(rest)}")
    return Verdict(True, "PR6-D2", f"{_join(rest)} stand(s) uncovered, so player {p} takes all the attack cards")


def _check_take(st: State, a: dict) -> Verdict:
    _not_over(st)
    p = _seat(st, a.get("player"))
    _require(not st.prostoy, "RUL-12", "in simple durak taking is part of the one 'defend' action")
    _require(st.table, "RUL-14", "no bout is open, so there is nothing to take")
    _require(p == st.defender, "POD-R4", f"only the defender (player {st.defender}) takes the table")
    _require(not st.take_declared, "POD-D5", "the defender has already said 'I take'")
    _require(st.uncovered(), "POD-D4", "every attack card is covered, so there is nothing left to give up on")
    return Verdict(True, "POD-D4", f"player {p} gives up the defence and will pick up every card on the table")


def _transfer_common(st: State, p: int, c: int, laid: bool) -> int:
    """Checks shared by transfer and transfer_by_showing (RUL-19). Returns the new defender."""
    _require(st.family == "perevodnoy", "PER-1", "transferring exists only in perevodnoy durak")
    _require(st.table, "RUL-14", "no bout is open, so there is nothing to transfer")
    _require(p == st.defender, "PER-1", f"only the defender (player {st.defender}) may transfer")
    _require(not st.take_declared, "POD-D5", "the defender has said 'I take', which cannot be taken back")
    _require(not st.first_bout or st.t("transfer_in_first_bout"), "PER-2",
             "no transfer is allowed in the deal's first bout")
    _require(st.covers_on_table() == 0, "PER-4", "an attack card has already been beaten, so transfer is no longer possible")
    ranks = {rank_of(x) for x in st.attack_cards()}
    _require(len(ranks) == 1, "PER-1", "the attack cards are not all of one rank, so they cannot be transferred")
    r = next(iter(ranks))
    _in_hand(st, p, c)
    _require(rank_of(c) == r, "PER-1", f"{nm(c)} is not of the attack rank {RANKS[r]}")
    new_d = st.defender_for(p)
    _require(new_d is not None, "RUL-5", "there is nobody to pass the attack to")
    after = len(st.table) + (1 if laid else 0)
    _require(st.hand_size(new_d) >= after, "PER-3",
             f"player {new_d} holds {st.hand_size(new_d)} card(s), fewer than the {after} that would be on the table")
    if laid:
        lims = [lim for lim in attack_limits(st, new_d) if lim[1] != "POD-L2"]
        broken = [lim for lim in lims if after > lim[0]]
        if broken:
            lim = min(broken, key=lambda x: x[0])
            raise _Illegal(lim[1], f"the transfer would make {after} attack cards, but {lim[2]}")
    return new_d


def _check_transfer(st: State, a: dict) -> Verdict:
    _not_over(st)
    p = _seat(st, a.get("player"))
    c = _card(a.get("card"))
    new_d = _transfer_common(st, p, c, laid=True)
    again = " again" if st.transfers_this_bout else ""
    return Verdict(True, "PER-5" if again else "PER-1",
                   f"player {p} lays {nm(c)} and passes the attack{again} to player {new_d}")


def _show_allowance(st: State, p: int, c: int) -> str:
    """Which rule lets ``p`` show ``c`` now: 'VAR-PK1' (pokaznoy) or 'PER-P1' (proezdnoy); or _Illegal.

    With both toggles on, pokaznoy (any card, each once per bout) is tried first and proezdnoy
    second (ours: 004 describes the combination only loosely)."""
    pokaznoy, proezdnoy = st.t("pokaznoy"), st.t("proezdnoy")
    _require(pokaznoy or proezdnoy, "PER-P1",
             "transfer by showing needs the proezdnoy or pokaznoy house rule, and neither is on")
    if pokaznoy and c not in st.shown_cards_bout:
        return "VAR-PK1"
    if proezdnoy and st.is_trump_for(c, p):
        if st.t("proezdnoy_limit") == "once_per_bout":
            _require(p not in st.shown_players_bout, "PER-P2",
                     f"player {p} has already transferred by showing a trump in this bout; now he must lay it")
        else:
            _require(c not in st.shown_trumps_deal, "PER-P2",
                     f"{nm(c)} has already been shown to transfer in this deal; each trump may be shown once")
        return "PER-P1"
    if pokaznoy:
        raise _Illegal("VAR-PK1", f"{nm(c)} has already been shown in this bout; each card may be shown once per bout")
    raise _Illegal("PER-P1", f"only a trump may be shown to transfer (proezdnoy), and {nm(c)} is not a trump")


def _check_show(st: State, a: dict) -> Verdict:
    _not_over(st)
    p = _seat(st, a.get("player"))
    c = _card(a.get("card"))
    new_d = _transfer_common(st, p, c, laid=False)
    rule = _show_allowance(st, p, c)
    return Verdict(True, rule, f"player {p} shows {nm(c)}, keeps it, and passes the attack to player {new_d}")


def _check_exchange(st: State, a: dict) -> Verdict:
    _not_over(st)
    p = _seat(st, a.get("player"))
    rule = {"prostoy_5": "PR5-X1", "prostoy_6": "PR6-X1"}.get(st.family, "HR-4")
    _require(st.t("trump_six_exchange"), rule, "the trump-six exchange is not allowed under these rules")
    _active_player(st, p)
    _require(st.trump_suit is not None and st.trump_card is not None, rule, "there is no face-up trump card")
    six = SIX * 4 + st.trump_suit
    _require(st.trump_under_talon(), "RUL-9", "the face-up trump card has already been drawn")
    if st.t("trump_six_exchange_timing") == "while_face_down_cards_left":
        _require(len(st.talon) >= 2 + st.card_under_trump, "RUL-9",
                 "no face-down card is left above the trump card (while_face_down_cards_left)")
    _require(st.trump_card != six, rule, "the face-up trump card is itself the six")
    _require(six in st.hands[p], rule, f"player {p} does not hold the trump six {nm(six)}")
    return Verdict(True, rule, f"player {p} may swap {nm(six)} for the face-up {nm(st.trump_card)}")


def _swap_key(st: State) -> tuple:
    """RUL-55: the point of the bout a swap offer belongs to: the bout, and with every_cover (not in simple
    durak, whose defence is one move) the number of covers on the table."""
    every = st.t("poker_swap_when") == "every_cover" and not st.prostoy
    return (st.bout, st.covers_on_table() if every else 0)


def swap_offered(st: State) -> set:
    """The seats already offered the poker swap at this point of the bout (VAR-PO1, RUL-55)."""
    return st.swap_offered if st.swap_key == _swap_key(st) else set()


def face_down_talon(st: State) -> int:
    """Talon cards above the face-up trump card (all of them when it has been drawn): what a swap may take."""
    return len(st.talon) - (1 if st.trump_under_talon() else 0)


def _check_swap(st: State, a: dict) -> Verdict:
    """VAR-PO1 (RUL-55..58): before beating, the defender holding at most six cards may give up to two
    cards of his hand (exactly two with poker_swap_count=exactly_two; none = he declines) for as many from
    the top of the talon; never the face-up trump card."""
    _not_over(st)
    p = _seat(st, a.get("player"))
    _require(st.t("poker_swap"), "VAR-PO1", "the poker swap is not played under these rules (poker_swap=false)")
    _require(st.table, "RUL-55", "no bout is open: the swap comes before beating an attack card")
    _require(p == st.defender, "VAR-PO1", f"only the defender (player {st.defender}) may swap before beating")
    _require(not st.take_declared, "POD-D5", "the defender has said 'I take': he beats nothing more")
    _require(st.uncovered(), "RUL-55", "every attack card is covered: there is nothing to beat")
    raw = a.get("cards")
    cards = _card_list(raw) if raw else []
    exact = st.t("poker_swap_count") == "exactly_two"
    need = 2 if exact else 1
    held = len(st.hands[p])
    _require(held <= 6, "VAR-PO1", f"player {p} holds {held} cards: the swap needs six cards or fewer")
    _require(held >= need, "RUL-58", f"player {p} holds {held} card(s): too few to swap {need}")
    fd = face_down_talon(st)
    _require(fd >= need, "RUL-58", f"the talon has {fd} face-down card(s) above the face-up trump card, which is "
                                   f"never taken: no swap of {need} card(s) is possible")
    when = ("before his first cover of the bout" if st.t("poker_swap_when") != "every_cover" or st.prostoy
            else "before this cover")
    _require(p not in swap_offered(st), "RUL-55", f"player {p} has had his swap {when}")
    _require(len(set(cards)) == len(cards), "RUL-56", "a card is named twice")
    for c in cards:
        _in_hand(st, p, c)
    if exact:
        _require(len(cards) in (0, 2), "RUL-56", f"poker_swap_count=exactly_two: swap two cards or none, "
                                                 f"not {len(cards)}")
    else:
        _require(len(cards) <= 2, "RUL-56", f"at most two cards are swapped, not {len(cards)}")
    _require(len(cards) <= fd, "RUL-58", f"the talon has only {fd} face-down card(s) to swap for; the face-up "
                                         f"trump card is never taken")
    if not cards:
        return Verdict(True, "RUL-56", f"player {p} declines the swap")
    return Verdict(True, "VAR-PO1", f"player {p} gives {_join(cards)} for the top {len(cards)} talon card(s); "
                                    f"his go face down under the talon (RUL-57)")


def _check_pass(st: State, a: dict) -> Verdict:
    _not_over(st)
    p = _seat(st, a.get("player"))
    if st.prostoy:
        rule = "PR5-A7" if st.family == "prostoy_5" else "PR6-D3"
        raise _Illegal(rule, "in simple durak nobody adds cards, so there is nothing to pass")
    _require(st.table, "RUL-14", "no bout is open: the attacker must lead")
    _require(p != st.defender, "POD-D4", "the defender does not pass: he covers or takes")
    problem = _eligibility_problem(st, p)
    if problem:
        raise _Illegal(*problem)
    _require(p not in st.passed, "RUL-17", f"player {p} has already passed since the table last changed")
    timing = _timing_problem(st, p) if p != st.attacker else None
    _require(timing is None, "RUL-17",
             f"player {p} may not throw in yet, so there is nothing for him to pass ({timing and timing[1]})")
    _require(_legal_throw_cards(st, p), "RUL-17",
             f"player {p} has no card he may throw in now, so there is nothing for him to pass "
             f"(a pass is recorded only for a player who had a legal throw-in)")
    return Verdict(True, "POD-T3", f"player {p} declines to throw in; throwing in is a right, not a duty")


def _check_throw_in(st: State, a: dict) -> Verdict:
    p = _seat(st, a.get("player"))
    raw = a.get("cards", [a["card"]] if "card" in a else None)
    cards = _card_list(raw)
    if len(cards) == 1:
        return _throw_in_card_verdict(st, p, cards[0])
    # The limits are judged on the whole batch first: otherwise a bout that ends automatically once
    # the limit is reached would hide the limit behind "no bout is open" for the next card.
    if st.table and st.throw_in_family:
        for i, c in enumerate(cards):
            broken = _tightest_limit(st, len(st.table) + i + 1)
            if broken:
                raise _Illegal(broken[1], f"card {nm(c)} would be attack card {len(st.table) + i + 1}, "
                                          f"but {broken[2]}")
    work = st.clone()  # apply one card at a time (the limits and the bout end move with each card)
    v = None
    for c in cards:
        try:
            v = _throw_in_card_verdict(work, p, c)
        except _Illegal as e:
            raise _Illegal(e.rule, f"card {nm(c)}: {e.reason}") from None
        _do_throw_card(work, p, c, [])
    return v


_CHECKERS = {
    "attack": _check_attack, "cover": _check_cover, "defend": _check_defend, "throw_in": _check_throw_in,
    "take": _check_take, "transfer": _check_transfer, "transfer_by_showing": _check_show,
    "exchange_trump_six": _check_exchange, "pass": _check_pass, "swap": _check_swap,
}


def check(state: State, action: dict) -> Verdict:
    """Rule on one action (or a ``{"sequence": [...]}``) without changing ``state``.

    A sequence gets the verdict of its first illegal step (the reason says which step) or,
    when every step is legal, of its last step."""
    if isinstance(action, dict) and "sequence" in action:
        steps = action["sequence"]
        if not isinstance(steps, (list, tuple)) or not steps:
            return Verdict(False, "RUL-1", "a sequence must be a non-empty list of actions")
        work = state.clone()
        v = None
        for i, step in enumerate(steps):
            v = check(work, step)
            if not v.legal:
                return Verdict(False, v.rule, f"step {i} ({_describe(step)}): {v.reason}")
            _do(work, step)
        return v
    if not isinstance(action, dict):
        return Verdict(False, "RUL-1", f"an action must be an object with a 'type', got {action!r}")
    if _bout_rule(state):
        return _bout_rule(state).check(state, action)
    kind = action.get("type")
    checker = _CHECKERS.get(kind)
    if checker is None:
        return Verdict(False, "RUL-1", f"unknown action type {kind!r}; known types: {', '.join(ACTION_TYPES)}")
    try:
        return checker(state, action)
    except _Illegal as e:
        return Verdict(False, e.rule, e.reason)


def _describe(action) -> str:
    try:
        return json.dumps(action, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return repr(action)


# ============================================================================================
# Applying
# ============================================================================================
def apply(state: State, action: dict) -> list[dict]:
    """Check ``action`` and play it with every automatic consequence. Returns the events.
    Raises RefereeError (with the rule and reason) if it is illegal; ``state`` is then unchanged."""
    v = check(state, action)
    if not v.legal:
        raise RefereeError(f"illegal {_describe(action)}: {v.rule}: {v.reason}")
    return _do(state, action)


def _do(st: State, a: dict) -> list[dict]:
    """Play an action already ruled legal."""
    events: list[dict] = []
    if "sequence" in a:
        for step in a["sequence"]:
            events.extend(_do(st, step))
        return events
    if _bout_rule(st):
        return _bout_rule(st).do(st, a)
    kind = a["type"]
    p = int(a["player"])
    if kind == "attack" and a.get("from_talon"):
        top = st.talon.pop(0)  # RUL-45: the top card, face down until it lands on the table
        if top is None:
            top = _card((a.get("cards") or [None])[0])
        st.table.append([top, None])
        st.passed.clear()
        events.append({"event": "attack", "player": p, "cards": [nm(top)], "from_talon": True})
        if st.prostoy and st.t("prostoy_attacker_draw_timing") == "immediately":
            _draw(st, p, events)
    elif kind == "attack":
        cards = [_card(x) for x in a["cards"]]
        for c in cards:
            st.hands[p].remove(c)
            st.table.append([c, None])
            st.laid_by[c] = p
        st.passed.clear()
        events.append({"event": "attack", "player": p, "cards": _names(cards)})
        if st.prostoy and st.t("prostoy_attacker_draw_timing") == "immediately":
            _draw(st, p, events)  # PR5-R1 / RUL-13: the attacker refills right after laying the attack
    elif kind == "cover":
        att, cov = _card(a["attack"]), _card(a["cover"])
        st.hands[p].remove(cov)
        _attack_row(st, att)[1] = cov
        st.passed.clear()
        st.points[p] += 1  # RUL-60: a cover beats the card, whatever becomes of the bout
        events.append({"event": "cover", "player": p, "attack": nm(att), "cover": nm(cov)})
        _maybe_end_bout(st, events)
    elif kind == "defend":
        _do_defend(st, p, a, events)
    elif kind == "take":
        st.take_declared = True
        # The defender's answer restarts the round of throwers (RUL-17: the core asks the attacker
        # again after the defender's answer), so passes made before it no longer count.
        st.passed.clear()
        events.append({"event": "take_declared", "player": p})
        _maybe_end_bout(st, events)
    elif kind == "throw_in":
        raw = a.get("cards", [a.get("card")])
        for c in [_card(x) for x in raw]:
            _do_throw_card(st, p, c, events)
    elif kind in ("transfer", "transfer_by_showing"):
        c = _card(a["card"])
        new_d = st.defender_for(p)
        if kind == "transfer":
            st.hands[p].remove(c)
            st.table.append([c, None])
            st.laid_by[c] = p
        else:
            how = _show_allowance(st, p, c)
            st.shown_cards_bout.add(c)
            if how == "PER-P1":
                st.shown_players_bout.add(p)
                st.shown_trumps_deal.add(c)
        st.attacker, st.defender = p, new_d
        st.transfers_this_bout += 1
        st.passed.clear()
        events.append({"event": kind, "player": p, "card": nm(c), "new_attacker": p, "new_defender": new_d})
    elif kind == "exchange_trump_six":
        six = SIX * 4 + st.trump_suit
        old = st.trump_card
        i = st.hands[p].index(six)
        st.hands[p][i] = old
        st.talon[-2 if st.card_under_trump else -1] = six  # RUL-35: the face-up card is above the hidden one
        st.trump_card = six
        events.append({"event": "exchange_trump_six", "player": p, "gave": nm(six), "got": nm(old)})
    elif kind == "swap":
        _do_swap(st, p, [_card(x) for x in a.get("cards") or []], events)
    elif kind == "pass":
        st.passed.add(p)
        events.append({"event": "pass", "player": p})
        _maybe_end_bout(st, events)
    else:  # pragma: no cover - check() refuses unknown types
        raise RefereeError(f"unknown action type {kind!r}")
    return events


def _do_swap(st: State, p: int, cards: list, events: list) -> None:
    """RUL-57/59: the top len(cards) talon cards to the defender; his cards face down under the talon, above the
    face-up trump card, the lowest first (drawn first). Nobody but him sees any of them."""
    key = _swap_key(st)
    if st.swap_key != key:
        st.swap_key, st.swap_offered = key, set()
    st.swap_offered.add(p)
    if not cards:
        events.append({"event": "swap", "player": p, "gave": [], "got": []})
        return
    got = st.talon[:len(cards)]
    del st.talon[:len(cards)]
    for c in cards:
        st.hands[p].remove(c)
    st.hands[p].extend(got)
    st.unknown_draws[p] += sum(1 for c in got if c is None)
    under = sorted(cards)
    if st.trump_under_talon():
        st.talon[-1:-1] = under
    else:
        st.talon.extend(under)
    events.append({"event": "swap", "player": p, "gave": _names(cards), "got": _names(got)})


def _do_throw_card(st: State, p: int, c: int, events: list) -> None:
    st.hands[p].remove(c)
    st.table.append([c, None])
    st.laid_by[c] = p
    st.passed.clear()
    events.append({"event": "throw_in", "player": p, "card": nm(c)})
    _maybe_end_bout(st, events)


def _do_defend(st: State, p: int, a: dict, events: list) -> None:
    """RUL-12: simple durak's one-shot defence, then the bout ends."""
    for item in a.get("covers") or []:
        att, cov = _card(item["attack"]), _card(item["cover"])
        st.hands[p].remove(cov)
        next(pair for pair in st.table if pair[0] == att)[1] = cov
    events.append({"event": "defend", "player": p,
                   "covers": [{"attack": nm(x), "cover": nm(y)} for x, y in st.table if y is not None],
                   "take": [nm(x) for x, y in st.table if y is None]})
    took_any = bool(st.uncovered())
    if not took_any or st.t("partial_defence"):  # RUL-60: the covered pairs go to the discard: beaten
        st.points[p] += st.covers_on_table()
    if not took_any:
        _end_bout(st, taken=False, events=events)
    elif st.t("partial_defence"):
        # PR5-D3: covered pairs go to the discard, the defender takes only the uncovered cards
        beaten = [c for pair in st.table if pair[1] is not None for c in pair]
        taken = st.uncovered()
        _score_pogony(st, p, taken)
        st.hands[p].extend(taken)
        if beaten:
            _discard(st, beaten, events)
        events.append({"event": "pick_up", "player": p, "cards": _names(taken)})
        st.table = []
        st.laid_by.clear()
        _after_bout(st, defender_took=True, how="partial", events=events)
    else:
        _end_bout(st, taken=True, events=events)  # PR6-D2 / RUL-12: covers come back too


def _maybe_end_bout(st: State, events: list) -> None:
    """RUL-17: end the bout as soon as nobody who may still throw in has not passed."""
    if not st.table or st.over:
        return
    if st.take_declared:
        if not st.t("throw_in_after_take") or not _anyone_may_throw(st):
            _end_bout(st, taken=True, events=events)
    elif not st.uncovered() and not _anyone_may_throw(st):
        _end_bout(st, taken=False, events=events)


def _end_bout(st: State, taken: bool, events: list) -> None:
    d = st.defender
    cards = [c for pair in st.table for c in pair if c is not None]
    if taken:  # POD-R4: the defender picks up everything, covered and uncovered
        _score_pogony(st, d, st.attack_cards())
        st.hands[d].extend(cards)
        events.append({"event": "pick_up", "player": d, "cards": _names(cards)})
        loss = st.t("big_durak_loss_at", "none")
        if st.t("two_packs") and loss != "none" and len(st.hands[d]) >= loss:
            # VAR-BD1 / RUL-82: he has gathered big_durak_loss_at cards: his side loses at once, before
            # anybody draws; the others still in escape together at this bout
            st.table = []
            st.laid_by.clear()
            events.append({"event": "big_durak_loss", "player": d, "cards": len(st.hands[d])})
            st.result = _result(st, st.team[d], st.bout)
            events.append({"event": "deal_over", "result": dict(st.result)})
            st.attacker = st.defender = st.bout_opener = None
            return
    else:      # POD-R1: "бито", the table goes to the closed discard
        _discard(st, cards, events)
    st.table = []
    st.laid_by.clear()
    _after_bout(st, defender_took=taken, how="taken" if taken else "beaten", events=events)


def _score_pogony(st: State, taker: int, attack_cards: list) -> None:
    """RUL-61 (VAR-PG1): every rank of which the taker picks up exactly two of the attack cards (his own
    covers coming back do not count) is one pogon, made by whoever laid the second of the two; it counts
    only for an opponent of the taker (not for himself, not for a partner)."""
    by_rank: dict[int, list[int]] = {}
    for c in attack_cards:  # in the order laid
        by_rank.setdefault(rank_of(c), []).append(c)
    for r, cs in by_rank.items():
        if len(cs) != 2:
            continue
        maker = st.laid_by.get(cs[1], st.attacker)  # a loaded position that did not say: the attacker
        if maker is None or maker == taker or st.team[maker] == st.team[taker]:
            continue
        st.pogony[maker] += 1
        if st.pogon_top[maker] is None or r > st.pogon_top[maker]:
            st.pogon_top[maker] = r
def _discard(st: State, cards: list, events: list) -> None:
    """Beaten cards go to the closed discard. VAR-OT1 otboyny (RUL-54): every second time a bout sends
    cards to the discard they go into the talon instead, shuffled in with its face-down cards (the trump
    card stays at the bottom); if the talon is used up, they are discarded as usual."""
    st.discard_happened = True
    if st.t("otboyny"):
        st.discard_bouts += 1
        if st.discard_bouts % 2 == 0 and st.talon:
            bottom = st.talon[-1] if st.trump_card_location == "talon_bottom" else None
            face_down = st.talon[:-1] if bottom is not None else list(st.talon)
            pool = face_down + list(cards)
            if st.talon_shuffles:  # the whole new talon, top first, the trump card (if any) last
                order = [parse_card(x) if isinstance(x, str) else x for x in st.talon_shuffles.pop(0)]
                if bottom is not None:
                    if not order or order[-1] != bottom:
                        raise RefereeError(f"VAR-OT1: the recorded talon {_names(order)} does not end with the "
                                           f"face-up trump card {nm(bottom)}")
                    order = order[:-1]
                known = [c for c in pool if c is not None]
                if len(order) != len(pool) or not Counter(known) <= Counter(order):
                    raise RefereeError(f"VAR-OT1: the recorded talon {_names(order)} is not the face-down talon "
                                       f"with {_join(cards)} shuffled in")
                new = order
            else:  # the shuffle's outcome is unknown (a judged position): cards of unknown identity
                new = [None] * len(pool)
            st.talon = new + ([bottom] if bottom is not None else [])
            events.append({"event": "shuffled_into_talon", "cards": _names(cards), "talon_size": len(st.talon)})
            return
    st.discard.extend(cards)
    events.append({"event": "discard", "cards": _names(cards)})


def _draw(st: State, p: int, events: list) -> None:
    """Refill one player to the hand size from the top of the talon (extras are kept). VAR-PU1 pustoy:
    only an empty hand draws, up to pustoy_refill_to."""
    if st.t("draw_rule") == "pustoy":
        need = st.toggles["pustoy_refill_to"] if not st.hands[p] else 0
    else:
        need = st.toggles["hand_size"] - len(st.hands[p])
    if need <= 0 or not st.talon:
        return
    got = st.talon[:need]
    del st.talon[:need]
    st.hands[p].extend(got)
    st.unknown_draws[p] += sum(1 for c in got if c is None)
    ev = {"event": "draw", "player": p, "cards": _names(got), "count": len(got)}
    if st.card_under_trump and len(st.talon) <= 1:
        # VAR-SM1 / RUL-35: the face-up trump card has been taken; the card under it is turned and its
        # suit is trump from now on (it is the new face-up card, drawn last)
        st.card_under_trump = False
        new = st.talon[0] if st.talon else got[-1]
        st.trump_card = new
        st.trump_suit = None if new is None else suit_of(new)
        ev["trump_changes_to"] = nm(new)
    if not st.talon and st.trump_card_location == "talon_bottom":
        st.trump_card_location = "already_drawn"  # C-3 / POD-R3: the face-up trump came last
        ev["took_trump_card"] = nm(st.trump_card)
    events.append(ev)


def _refill_order(st: State) -> list[int]:
    """RUL-13 (simple: attacker, defender) and RUL-18 (opener, others clockwise, defender last)."""
    d = st.defender
    opener = st.bout_opener if st.bout_opener is not None else st.attacker
    if st.prostoy:
        return [opener, d]
    order = []
    for k in range(st.n):
        s = (opener + k) % st.n
        if s != d and st.active(s):
            order.append(s)
    return order + [d]


def _after_bout(st: State, defender_took: bool, how: str, events: list) -> None:
    """Everything that follows the end of a bout: refill, going out, result, next roles."""
    d, bout = st.defender, st.bout
    events.append({"event": "bout_end", "bout": bout if st.bout_known else None, "how": how,
                   "attacker": st.attacker, "defender": d})
    for s in _refill_order(st):
        _draw(st, s, events)
    # RUL-20: players go out after the refill: talon empty and hand empty
    if not st.talon:
        for s in range(st.n):
            if st.active(s) and not st.hands[s]:
                st.is_out[s] = True
                st.out_order.append(s)
                st.out_bout[s] = bout
                events.append({"event": "out", "player": s, "bout": bout if st.bout_known else None})
    # reset the bout bookkeeping
    st.take_declared = False
    st.passed.clear()
    st.shown_players_bout.clear()
    st.shown_cards_bout.clear()
    st.transfers_this_bout = 0
    st.first_bout = False
    if _deal_over(st, events):
        st.attacker = st.defender = st.bout_opener = None
        return
    # RUL-6: who attacks next
    if defender_took:
        nxt = st.next_active(d)
    elif st.active(d):
        nxt = d
    else:
        nxt = None
        if st.teams is not None:  # TEAM-4: the next active player of his own team clockwise
            for k in range(1, st.n):
                s = (d + k) % st.n
                if st.active(s) and st.team[s] == st.team[d]:
                    nxt = s
                    break
        if nxt is None:           # (with 3 teams, if his whole team is out: the next active player)
            nxt = st.next_active(d)
    st.attacker = nxt
    st.defender = st.defender_for(nxt)
    st.bout_opener = nxt
    st.bout += 1
    events.append({"event": "roles", "attacker": st.attacker, "defender": st.defender})


def _deal_over(st: State, events: list) -> bool:
    """RUL-20 / RUL-21 / TEAM-3 / HR-2: decide the deal if it is over; True if so."""
    bout = st.bout
    active = st.active_seats()
    teams_in = {st.team[s] for s in active}
    losing_team = None                      # stays None for a draw: nobody (no team) left with cards
    if len(teams_in) == 1:                  # one player (TEAM-3: one team) left with cards: the fool
        losing_team = next(iter(teams_in))
    elif len(teams_in) >= 2:
        if not (st.t("pogony_instant_win") and len(active) == 2):
            return False
        sixes = [s for s in active if len(st.hands[s]) == 2
                 and all(c is not None and rank_of(c) == SIX for c in st.hands[s])]
        # HR-2 speaks of "one of them"; if both hold two sixes no single winner exists and play goes on (ours)
        if len(sixes) != 1:
            return False
        winner = sixes[0]
        loser = next(s for s in active if s != winner)
        losing_team = st.team[loser]
        st.out_bout[winner] = bout
        events.append({"event": "pogony", "player": winner, "cards": _names(st.hands[winner])})
    st.result = _result(st, losing_team, bout)
    events.append({"event": "deal_over", "result": dict(st.result)})
    return True


def _result(st: State, losing_team: int | None, final_bout: int) -> dict:
    """RUL-21: outcome and place per seat; TEAM-3 in team games."""
    n = st.n
    draw = losing_team is None
    final_out_teams = {st.team[s] for s, b in st.out_bout.items() if b == final_bout}
    outcome, places = [], []
    for s in range(n):
        if not draw and st.team[s] == losing_team:
            # the whole team lost (TEAM-3); a member who went out earlier keeps his own place
            outcome.append("fool")
            if s in st.out_bout:
                places.append(1 + sum(1 for o, b in st.out_bout.items() if b < st.out_bout[s]))
            else:
                places.append(n)
            continue
        outcome.append("drew" if draw and st.team[s] in final_out_teams else "escaped")
        mine = st.out_bout.get(s, final_bout)
        places.append(1 + sum(1 for o, b in st.out_bout.items() if b < mine))
    fool = None
    if not draw and st.teams is None:
        fool = losing_team  # without teams, the team id is the seat
    res = {"fool": fool, "losing_team": losing_team if (not draw and st.teams is not None) else None,
           "outcome": outcome, "places": places, "bouts": final_bout if st.bout_known else None}
    res["next_dealer"] = _next_dealer(st, losing_team)
    res.update(_score_result(st))
    return res


def _score_result(st: State) -> dict:
    """RUL-62: with a scoring variant, the scores and the score winners: the side (a player, or a team
    with its members' scores added) with the most cards beaten (ochkovy), or with the most pogony and
    then the highest single pogon (pogonny); sides still level share; a side that scored nothing never
    wins. Without one, these keys are None."""
    if st.scoring == "fool":
        return {"points": None, "pogony": None, "pogon_top": None, "score_winners": None}
    sides = sorted(set(st.team))
    def side_key(t):
        members = [s for s in range(st.n) if st.team[s] == t]
        if st.scoring == "ochkovy":
            return (sum(st.points[s] for s in members), -1)
        tops = [st.pogon_top[s] for s in members if st.pogon_top[s] is not None]
        return (sum(st.pogony[s] for s in members), max(tops) if tops else -1)
    keys = {t: side_key(t) for t in sides}
    best = max(keys.values())
    winners = [s for s in range(st.n) if best[0] > 0 and keys[st.team[s]] == best]
    sc = st.scores()
    sc["score_winners"] = winners
    return sc


def _next_dealer(st: State, losing_team: int | None) -> int | None:
    """RUL-8: the fool deals next; after a draw the same dealer. In a team game the candidates are,
    with ``next_dealer=loser``, the losing team's members still holding cards (000: «Последний с картами
    проигрывает и сдаёт»), with ``team_any_loser`` every member of the losing team, out or not; the one
    who deals is the first candidate clockwise from the previous dealer (the previous dealer himself first:
    ours, following PR6-S2 'keeps dealing until he is no longer the fool')."""
    if losing_team is None or st.dealer is None:
        return st.dealer
    if st.teams is None:
        return losing_team
    any_member = st.t("next_dealer") == "team_any_loser"
    for k in range(st.n):
        s = (st.dealer + k) % st.n
        if st.team[s] == losing_team and (any_member or s not in st.out_bout):
            return s
    return None  # pragma: no cover


# ============================================================================================
# Replay
# ============================================================================================
def trace_state(trace: dict) -> State:
    """The referee's fresh deal for a core trace: its rules, deck, dealer and (later deals) previous fool."""
    family = trace["family"]
    toggles = {k: v for k, v in (trace.get("toggles") or {}).items()
               if k not in TOGGLE_BY_NAME or family in TOGGLE_BY_NAME[k].families}
    rules = resolve(family, trace["num_players"], toggles)
    later = int(trace.get("deal", 0)) > 0
    st = new_deal(rules, trace["deck"], int(trace["dealer"]), later_deal=later,
                  previous_fool=trace.get("previous_fool") if later else None)
    st.talon_shuffles = [list(t) for t in trace.get("talon_shuffles") or []]  # VAR-OT1
    return st


def replay(trace: dict) -> dict:
    """Replay a core trace (format at the end of RULINGS.md) and return the referee's result.

    Every action must be legal; the card invariant must hold after every action; the deal must be
    over at the end and its result must equal ``trace["result"]`` (fool, losing_team, outcome,
    places, bouts). Any failure raises ReplayError naming the action index, the action and why."""
    st = trace_state(trace)
    actions = trace.get("actions") or []
    for i, a in enumerate(actions):
        v = check(st, a)
        if not v.legal:
            raise ReplayError(f"action {i} {_describe(a)} is illegal ({v.rule}): {v.reason}")
        _do(st, a)
        problem = st.card_invariant_problem(require_known=True)
        if problem:
            raise ReplayError(f"after action {i} {_describe(a)} the card invariant fails: {problem}")
    if st.result is None:
        raise ReplayError(f"after all {len(actions)} actions the deal is not over (bout {st.bout}, "
                          f"attacker {st.attacker}, defender {st.defender}, table "
                          f"{[[nm(x), nm(y) if y is not None else None] for x, y in st.table]})")
    mine = {k: st.result[k] for k in RESULT_KEYS}
    mine["next_dealer"] = st.result.get("next_dealer")
    theirs = trace.get("result")
    if theirs is not None:
        diffs = [f"{k}: trace says {theirs.get(k)!r}, referee says {mine[k]!r}"
                 for k in RESULT_KEYS if theirs.get(k) != mine[k]]
        if diffs:
            raise ReplayError(f"the result differs after action {len(actions) - 1}: " + "; ".join(diffs))
    return mine


# ---- bout rules of their own ------------------------------------------------------------------
# A bout played by other rules (chain beating, VAR-DR1 / VAR-CN1) plugs in here: sim/referee/chain.py,
# which builds on this module, registers itself for its bout_rule values when the package loads it.
BOUT_RULES: dict = {}  # bout_rule toggle value -> a module with deal_size, after_deal, check, do


def _bout_rule(st):
    """The module that plays this deal's bouts when they are not the standard bout (else None)."""
    return BOUT_RULES.get(st.t("bout_rule", "standard"))
