"""Rules as data: the four presets and the toggle registry (docs/rules.md names the rules behind each toggle).

A rule set is a family (preset) plus a dict of named toggles. Each toggle knows its
allowed values, the families it applies to, and each preset's default taken from that
preset's source. ``resolve()`` validates user input and returns a frozen ``Rules``;
``Rules.vector()`` packs it into the int64 array the compiled core reads (indices ``R_*``).
Where the sources are silent, the ruling is written in ``sim/RULINGS.md``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
PROSTOY = ("prostoy_5", "prostoy_6")
THROW_IN = ("podkidnoy", "perevodnoy")
ALL = FAMILIES

FAMILY_DOC = {
    "prostoy_5": "Simple durak, 5-card form: attacks of 1, 3 or 5 cards, partial defence, no throw-in (seed 000).",
    "prostoy_6": "Classic simple durak: 6 cards, singles, triples and fives, take all if one card stands (seed 002).",
    "podkidnoy": "Podkidnoy (throw-in) durak: everyone throws in cards of ranks on the table (seeds 001, 004).",
    "perevodnoy": "Perevodnoy (transfer) durak: podkidnoy plus passing the attack on with a same-rank card (seed 004).",
}
FAMILY_SOURCES = {"prostoy_5": "000", "prostoy_6": "002", "podkidnoy": "001, 004", "perevodnoy": "004"}

MIN_PLAYERS, MAX_PLAYERS = 2, 6


class RulesError(ValueError):
    """Bad rules input: the message names the problem and what is allowed."""


@dataclass(frozen=True)
class Toggle:
    name: str
    values: tuple
    defaults: dict  # family -> default value
    rule: str
    doc: str
    families: tuple = ALL
    implemented: tuple | None = None  # values the engine plays today (None: all)
    aliases: tuple = ()
    modifier: bool = False  # a §6 variant's toggle (VARIANTS names the variants that set it)

    def default(self, family: str):
        return self.defaults[family]


def _d(value, **per_family):
    out = {f: value for f in FAMILIES}
    out.update(per_family)
    return out


_NOT_YET = "a §6 variant modifier; the engine does not play it yet (planned next)"

TOGGLES: tuple[Toggle, ...] = (
    Toggle("hand_size", (5, 6), _d(6, prostoy_5=5), "C-1, PR5-S3, PR6-S1, POD-S1",
           "Cards dealt to each player and refilled to after a bout."),
    Toggle("prostoy_attack_sets", ("1_3_5_pairs", "single_or_pair"), _d("1_3_5_pairs"), "PR5-A1..A5, PR6-A1..A3",
           "Which sets may be led in simple durak: 1, 3 (pair+1), 5 (two pairs+1); or 004's one card or a pair.",
           families=PROSTOY),
    Toggle("prostoy_two_pair_lead_size", (5, 6), _d(5, prostoy_6=6), "PR6-A3",
           "Size of a two-pair lead: 5 (two pairs + one, 000; prostoy_5) or 6 (two pairs + two, 002 «со всех "
           "шести карт»; prostoy_6).", families=PROSTOY),
    Toggle("partial_defence", (True, False), _d(False, prostoy_5=True), "PR5-D1, PR5-D3, PR6-D2",
           "true: cover some attack cards and take only the rest (000); false: one card stands, take all (002).",
           families=PROSTOY),
    Toggle("prostoy_attacker_draw_timing", ("immediately", "after_bout"),
           _d("after_bout", prostoy_5="immediately"), "PR5-R1, PR6-R1",
           "When the attacker refills in simple durak: right after laying the attack (000) or after the bout (002).",
           families=PROSTOY),
    Toggle("trump_only_if_cannot_follow", (False, True), _d(False, prostoy_6=True), "PR5-D2, PR6-D1, POD-D3",
           "true: a non-trump may be trumped only if the defender cannot beat it in suit (002 «либо более "
           "старшими..., либо, если их нет, козырем»; prostoy_6); false: any trump may cover (000, 001)."),
    Toggle("first_attacker_first_deal", ("left_of_dealer", "lowest_trump"),
           _d("lowest_trump", prostoy_5="left_of_dealer", prostoy_6="left_of_dealer"), "PR5-S3, PR6-S1, POD-S2",
           "Who attacks first in the first deal of a series."),
    Toggle("no_trump_in_hands_fallback", ("left_of_dealer", "lowest_card"), _d("left_of_dealer"), "POD-S2",
           "With lowest_trump, who attacks when nobody holds a trump."),
    Toggle("first_attacker_later_deals", ("lowest_trump", "pod_duraka", "iz_pod_duraka", "left_of_dealer"),
           _d("lowest_trump", prostoy_5="left_of_dealer", prostoy_6="left_of_dealer"), "POD-S2, PR5-S1, PR6-S2",
           "Who attacks first in later deals of a series: pod_duraka = the fool's right neighbour (the fool "
           "defends), iz_pod_duraka = the fool's left neighbour."),
    Toggle("next_dealer", ("loser", "team_any_loser"), _d("loser"), "PR5-S1, PR5-S2, PR6-S2, POD-S2",
           "Who deals the next deal: the fool (the same dealer after a draw)."),
    Toggle("initial_lead", ("same_rank_multiple", "single"), _d("same_rank_multiple"), "POD-A1",
           "Opening of a bout: any number of cards of one rank (004) or one card (001, pagat, enwiki).",
           families=THROW_IN),
    Toggle("others_throw_in_timing", ("after_first_cover", "after_attacker", "any_time"), _d("after_first_cover"),
           "POD-T1", "When players other than the attacker may throw in.", families=THROW_IN),
    Toggle("throw_in_after_take", (True, False), _d(True), "POD-T4",
           "Throwing in after the defender says 'I take' (vdogonku).", families=THROW_IN),
    Toggle("max_attack_cards", (6,), _d(6), "POD-L1", "At most this many attack cards in a bout.", families=THROW_IN),
    Toggle("first_bout_max_attack", (5, "none"), _d(5), "POD-L3", "Attack-card limit in the first bout.",
           families=THROW_IN),
    Toggle("first_bout_limit_scope", ("first_bout", "until_first_discard"), _d("first_bout"), "POD-L3",
           "Whether the first-bout limit holds for the first bout only or until the first discard.",
           families=THROW_IN),
    Toggle("throw_in_neighbours_only_if_players_gt", ("none", 2, 3, 4, 5), _d("none"), "POD-T1, HR-3",
           "With more players than this, only the defender's neighbours throw in.", families=THROW_IN),
    Toggle("trump_six_beats_trump_ace", (False, True), _d(False), "POD-D2, HR-1",
           "House rule: the trump six beats the trump ace."),
    Toggle("trump_six_exchange", (True, False), _d(False, prostoy_5=True, prostoy_6=True), "PR5-X1, PR6-X1, HR-4",
           "The holder of the trump six may swap it for the face-up trump card."),
    Toggle("trump_six_exchange_timing", ("until_talon_exhausted", "while_trump_card_in_talon",
                                         "while_face_down_cards_left"),
           _d("until_talon_exhausted"), "PR5-X1, HR-4",
           "until_talon_exhausted (000 «до исчерпания колоды»; the face-up trump is the pack's last card): as "
           "long as the trump card is under the talon, the same window as while_trump_card_in_talon (GD); "
           "while_face_down_cards_left: only while a face-down card lies above it (the stricter reading)."),
    Toggle("teams", ("none", "pairs_if_even", "2v2", "3v3"), _d("none", prostoy_6="pairs_if_even"),
           "TEAM-1..4, PR6-T1, PER-T1",
           "Partnerships: partners sit alternately (2v2, 3v3), or 002's pairs when the player count is even.",
           families=("prostoy_6", "podkidnoy", "perevodnoy")),
    Toggle("transfer_in_first_bout", (False, True), _d(False), "PER-2", "Transfers allowed in the first bout.",
           families=("perevodnoy",)),
    Toggle("proezdnoy", (False, True), _d(False), "PER-P1",
           "A trump of the attack rank may be shown instead of laid to transfer.", families=("perevodnoy",)),
    Toggle("proezdnoy_limit", ("once_per_bout", "once_per_game_per_card"), _d("once_per_bout"), "PER-P2",
           "How often a trump may be shown to transfer.", families=("perevodnoy",)),
    Toggle("pokaznoy", (False, True), _d(False), "VAR-PK1",
           "Transfer by showing any card of the attack rank, each card once per bout.", families=("perevodnoy",)),
    Toggle("pogony_instant_win", (False, True), _d(False), "HR-2",
           "Two players left and one holds exactly two sixes: he wins at once.", families=THROW_IN),
    Toggle("pogony_scoring", ("none", "last_lead_sixes"), _d("none"), "§6 (pogony terminology)",
           "Record the sixes in the winner's last lead (the fool 'with pogony'). Pogonny scoring (VAR-PG1) is "
           "the modifier scoring=pogonny (RUL-63)."),
    Toggle("draw_possible", (True,), _d(True), "PR5-E3, POD-E3", "Everybody out at once is a draw."),
)


def _m(name, values, rule, doc, default=None, **kw):
    """A §6 modifier toggle: off (its first value) in every family unless said otherwise; refused until
    the engine plays it (``implemented``: the values played today)."""
    d = values[0] if default is None else default
    kw.setdefault("implemented", (d,))
    return Toggle(name, values, _d(d), rule, doc, modifier=True, **kw)


# ---- §6 modifiers, one block per group; each block owns its R_ slots below ------------------
# beating and trumps
BEATING_TOGGLES = (
    _m("no_trump", (False, True), "VAR-NT1",
       "Play without a trump suit (Бескозырный): no card is turned, the whole rest of the pack is the talon (RUL-30).",
       implemented=None),
    _m("fixed_trump_suit", ("none", "clubs", "diamonds", "hearts", "spades"), "VAR-BJ1, VAR-PP1",
       "The trump suit is always this suit, whatever card is turned; the turned card still lies face up under the "
       "talon and is drawn last (Бешеный: diamonds; RUL-32).", implemented=None),
    _m("spades_only_by_spades", (False, True), "VAR-PP1",
       "Spades are beaten only by higher spades and never beat another suit; spades are never trumps.",
       implemented=None),
    _m("spade_turnup_resolution", ("redeal", "next_card", "no_trump"), "VAR-PP1",
       "With spades_only_by_spades, what a turned-up spade does (004 is silent; RUL-31): redeal = shuffle and deal "
       "again; no_trump = the spade stays face up under the talon and the deal is played without trumps.",
       implemented=("redeal", "no_trump")),
    _m("korolevsky", (False, True), "VAR-KO1",
       "Королевский: a six can be beaten only by an ace; the trump ace beats any lower card.", implemented=None),
    _m("korolevsky_ace", ("same_suit_or_trump", "any_ace"), "VAR-KO1",
       "With korolevsky, which aces beat a six (004 is silent; RUL-33).", implemented=None),
    _m("changing_trump", (False, True), "VAR-SM1",
       "С подкладным козырем: a face-down card lies under the turned trump card; when the face-up card is drawn "
       "the hidden one is turned and its suit is trump from then on (RUL-35).", implemented=None),
    _m("own_trumps", (False, True), "VAR-DK1",
       "Двухкозырной: every player has a trump suit of his own; a cover is judged by the defender's trump (RUL-34).",
       implemented=None),
    _m("own_trumps_assignment", ("from_dealers_left", "from_dealer"), "VAR-DK1",
       "With own_trumps, who gets which suit (004 is silent; RUL-34): the turned suit goes to the dealer's left "
       "neighbour (from_dealers_left) or to the dealer (from_dealer), each next seat clockwise the next suit in the "
       "order clubs, diamonds, hearts, spades.", implemented=None),
)
# leads
LEAD_TOGGLES = (
    _m("lead_rule", ("standard", "zanudny", "tryoshka"), "VAR-ZA1, VAR-TR1",
       "zanudny: a lead must include a card of your highest rank (RUL-40); tryoshka: open with exactly 3 "
       "cards, fewer only when you or the defender hold fewer (RUL-42).", implemented=None),
    _m("zanudny_trumps_apart", (False, True), "VAR-ZA1",
       "With zanudny, trumps count apart: the highest rank is that of your non-trumps, trumps only when "
       "you hold nothing else (004 is silent; RUL-41).", implemented=None),
    _m("tryoshka_lead", ("any_cards", "same_rank"), "VAR-TR1",
       "With tryoshka, whether the three cards may be any cards (shram) or must share a rank (RUL-43).",
       implemented=None),
    _m("armenian", (False, True), "VAR-AR1",
       "Армянский: instead of leading from his hand the attacker may lead the top card of the talon, blind "
       "and alone; never the face-up trump card (RUL-45..47).", implemented=None),
)
# dealing and drawing
DEALING_TOGGLES = (
    _m("deal_rule", ("standard", "navaleny", "chukotsky"), "VAR-NA1, VAR-CH1",
       "navaleny: the whole pack is dealt at once; chukotsky: after the deal the talon and the trump card "
       "are removed from play.", implemented=None),
    _m("navaleny_extra_cards", ("dealt_on", "out_of_play"), "VAR-NA1",
       "With navaleny, when the pack does not split evenly (5 players: 36 = 7 x 5 + 1): dealt_on = the deal "
       "goes on one at a time until the pack is used up, so the first seats from the dealer's left get one "
       "card more (004 «колода карт раздаётся за один раз»: the whole pack is dealt); out_of_play = every "
       "seat gets the same number and the cards left over are put out of play face down (RUL-52).",
       implemented=None),
    _m("navaleny_trump", ("last_card_dealt", "leftover_card"), "VAR-NA1",
       "With navaleny, the trump when no card is left to turn: last_card_dealt = the last card dealt is "
       "shown for trump and stays in that hand (durak.app; RUL-2's 6 x 6 deal); leftover_card = with "
       "navaleny_extra_cards=out_of_play and a card left over, that card is turned for trump and stays out "
       "of play face up (RUL-52).", implemented=None),
    _m("draw_rule", ("standard", "pustoy"), "VAR-PU1", "pustoy: a player draws only when his hand is empty.",
       implemented=None),
    _m("pustoy_refill_to", (6, 1, 2, 3, 4, 5), "VAR-PU1",
       "With pustoy, how many cards an empty hand draws (004 is silent).", implemented=None),
    _m("otboyny", (False, True), "VAR-OT1", "Отбойный: every second discard is shuffled back into the talon.",
       implemented=None),
    _m("albanian", (False, True), "VAR-AL1", "Албанский: the talon is sorted from high to low.",
       implemented=None),
    _m("poker_swap", (False, True), "VAR-PO1",
       "Покерный: before beating, the defender holding six cards or fewer may swap up to two cards of his hand "
       "for the top cards of the talon; his go face down under the talon, above the face-up trump card "
       "(RUL-55..59).", implemented=None),
    _m("poker_swap_when", ("first_cover", "every_cover"), "VAR-PO1",
       "With poker_swap, when the defender is offered the swap (004 is silent; RUL-55): once per bout before "
       "his first cover decision, or before every cover decision (simple durak's one-move defence: once).",
       implemented=None),
    _m("poker_swap_count", ("up_to_two", "exactly_two"), "VAR-PO1",
       "With poker_swap, how many cards (004 «любые 2 карты»; RUL-56): up to two (0 = decline), or exactly two "
       "(or none).", implemented=None),
    _m("poker_swap_return", ("under_talon", "shuffled"), "VAR-PO1",
       "With poker_swap, where the swapped-away cards go (004 is silent; RUL-57): face down under the talon "
       "just above the face-up trump card (drawn last, lowest first), or shuffled into the face-down talon.",
       implemented=("under_talon",)),
)
# scoring
SCORING_TOGGLES = (
    _m("scoring", ("fool", "pogonny", "ochkovy"), "VAR-PG1, VAR-OC1",
       "Who wins: the fool loses (standard); pogonny: most pogony inflicted; ochkovy: most opponent cards "
       "beaten. The score is a result beside the fool, who is still found (RUL-60..63).", implemented=None),
)
# chain beating (VAR-CN1, VAR-DR1): a bout where each player beats only the top card of a chain
# (sim/core/chain.py; RUL-70..RUL-79)
CHAIN_TOGGLES = (
    _m("bout_rule", ("standard", "chain_road", "chain_chinese"), "VAR-DR1, VAR-CN1",
       "chain_road (Дорожный): the whole pack is dealt, the dealer keeps the trump card, the attacker and the "
       "defender beat each other's top card until the defender takes all or the attacker agrees to a discard; "
       "chain_chinese (Китайский): spades are trumps, each player in turn beats only the top card of a chain "
       "that is discarded when it holds one card per player; who does not beat takes the bottom card.",
       families=("podkidnoy",), implemented=None),
    _m("ten_above_king", (False, True), "VAR-CN1",
       "In a chain bout, the ten ranks above the king: 6 7 8 9 J Q K 10 A (Китайский).",
       families=("podkidnoy",), implemented=None),
    _m("clubs_only_by_clubs", (False, True), "VAR-CN1",
       "In a chain bout, clubs are beaten only by higher clubs (a trump does not beat a club) (Китайский).",
       families=("podkidnoy",), implemented=None),
    _m("chinese_next_lead", ("next_player", "taker"), "VAR-CN1",
       "With chain_chinese, who leads after a player who does not beat takes the chain's last card: the next "
       "player (004 «...и ход ... переходит к следующему», our reading) or the taker himself "
       "(«забирает ... ход»).",
       families=("podkidnoy",), implemented=None),
)
# two packs (VAR-BD1, Большой; RUL-80..RUL-86)
BIG_TOGGLES = (
    _m("two_packs", (False, True), "VAR-BD1",
       "Большой: two packs shuffled together (72 cards, every card twice); a card never beats its twin (RUL-80).",
       families=THROW_IN, implemented=None),
    _m("big_durak_loss_at", (52, 20, 30, 40, "none"), "VAR-BD1",
       "With two_packs, a player whose hand reaches this many cards when he takes loses at once (004: 52; "
       "RUL-82); none: the rule is off. The lower values are not from a source: at 52 the rule almost never "
       "fires (RUL-82), they let it be studied and tested.", families=THROW_IN, implemented=None),
)
MODIFIER_TOGGLES = BEATING_TOGGLES + LEAD_TOGGLES + DEALING_TOGGLES + SCORING_TOGGLES + CHAIN_TOGGLES + BIG_TOGGLES
TOGGLES = TOGGLES + MODIFIER_TOGGLES + (
    Toggle("variant", ("none",), _d("none"), "§6",
           "Shorthand for a §6 variant (or several joined by '+'): sets that variant's modifier toggles. "
           "`durak rules` lists the variants.", modifier=True),
)


@dataclass(frozen=True)
class Variant:
    """A named §6 variant: the modifier toggles it sets, or why it is not played."""
    name: str
    ids: str          # VAR ids
    russian: str
    sets: dict        # toggle -> value
    status: str       # "played", "planned" or "not_rules" (social: not a rule of play)
    note: str = ""
    families: tuple = ALL


VARIANTS: tuple[Variant, ...] = (
    Variant("bezkozyrny", "VAR-NT1", "Бескозырный", {"no_trump": True}, "planned",
            "no card is turned; the whole rest of the pack is the talon (RUL-30)"),
    Variant("piki_pikami", "VAR-PP1", "Пики пиками", {"spades_only_by_spades": True}, "planned"),
    Variant("beshenyi_japanese", "VAR-BJ1", "Бешеный (японский)",
            {"fixed_trump_suit": "diamonds", "spades_only_by_spades": True}, "planned"),
    Variant("chervi_piki", "VAR-PP1", "Черви козыри, пики пиками",
            {"fixed_trump_suit": "hearts", "spades_only_by_spades": True}, "planned",
            "the hearts-trump form of spades-by-spades (lang-8)"),
    Variant("korolevsky", "VAR-KO1", "Королевский", {"korolevsky": True}, "planned"),
    Variant("smenny_kozyr", "VAR-SM1", "С подкладным (сменным) козырем", {"changing_trump": True}, "planned"),
    Variant("dvukhkozyrnoy", "VAR-DK1", "Двухкозырной", {"own_trumps": True}, "planned"),
    Variant("zanudny", "VAR-ZA1", "Занудный", {"lead_rule": "zanudny"}, "played",
            "a lead includes a card of the highest rank held (RUL-40/41)"),
    Variant("tryoshka", "VAR-TR1", "Трёшка", {"lead_rule": "tryoshka"}, "played",
            "every bout opens with 3 cards (2 or 1 when fewer are held or allowed; RUL-42/43)"),
    Variant("armyansky", "VAR-AR1", "Армянский", {"armenian": True}, "played",
            "the attacker may lead the top talon card blind (RUL-45..47)"),
    Variant("navaleny", "VAR-NA1", "Наваленный", {"deal_rule": "navaleny", "first_attacker_first_deal": "lowest_trump"},
            "planned", "the whole pack is dealt; the lowest trump leads the first deal (004)"),
    Variant("chukotsky", "VAR-CH1", "Чукотский", {"deal_rule": "chukotsky"}, "planned"),
    Variant("pustoy", "VAR-PU1", "Пустой", {"draw_rule": "pustoy"}, "planned"),
    Variant("otboyny", "VAR-OT1", "Отбойный", {"otboyny": True}, "planned"),
    Variant("albansky", "VAR-AL1", "Албанский", {"albanian": True}, "planned"),
    Variant("pokerny", "VAR-PO1", "Покерный", {"poker_swap": True}, "played",
            "the defender holding six cards or fewer may swap up to two cards with the talon before beating "
            "(RUL-55..59)"),
    Variant("pogonny", "VAR-PG1", "Погонный", {"scoring": "pogonny"}, "played"),
    Variant("ochkovy", "VAR-OC1", "Очковый", {"scoring": "ochkovy"}, "played"),
    Variant("kitaisky", "VAR-CN1", "Китайский (оборотный)",
            {"bout_rule": "chain_chinese", "ten_above_king": True, "clubs_only_by_clubs": True}, "played",
            "chain beating: spades trumps, 10 above K, clubs only by clubs (RUL-75..79)", families=("podkidnoy",)),
    Variant("dorozhny", "VAR-DR1", "Дорожный", {"bout_rule": "chain_road"}, "played",
            "whole pack dealt, the dealer keeps the trump card, chain beating between two players (RUL-70..74; "
            "VAR-DR1 is our id)", families=("podkidnoy",)),
    Variant("bolshoy", "VAR-BD1", "Большой", {"two_packs": True}, "played",
            "two packs (72 cards); a card does not beat its twin; 52 cards in hand lose at once (RUL-80..86)",
            families=THROW_IN),
    Variant("molchalivy", "§6", "Молчаливый", {}, "not_rules", "a rule about talking at the table"),
    Variant("nevidimy", "§6", "Невидимый", {}, "not_rules", "hides the trump card's rank: no change to play"),
    Variant("kitaisky_vslepuyu", "§6", "Китайский вслепую", {}, "not_rules",
            "players do not see their own cards: a memory game, not a rule of play"),
    Variant("magadansky", "§6", "Магаданский", {}, "not_rules", "a player-against-computer app mode"),
    Variant("krugovoy", "§6", "Круговой", {}, "not_rules", "a player-against-computer app mode"),
)
VARIANT_BY_NAME = {v.name: v for v in VARIANTS}


def variant_played(v: Variant) -> bool:
    """A variant is played when the engine plays every value it sets."""
    if v.status == "not_rules" or not v.sets:
        return False
    return all(TOGGLE_BY_NAME[k].implemented is None or val in TOGGLE_BY_NAME[k].implemented
               for k, val in v.sets.items())


TOGGLE_BY_NAME = {t.name: t for t in TOGGLES}
ALIASES = {"transfer_first_bout": "transfer_in_first_bout", "throw_in_vdogonku": "throw_in_after_take",
           "trump_6_exchange": "trump_six_exchange", "trump_6_beats_trump_ace": "trump_six_beats_trump_ace"}


def _fmt(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def parse_value(toggle: Toggle, raw: Any):
    """A value from the command line (text) or JSON (typed) -> the registry's typed value."""
    for allowed in toggle.values:
        if isinstance(raw, str):
            if raw.strip().lower() == _fmt(allowed).lower():
                return allowed
        elif isinstance(allowed, bool) or isinstance(raw, bool):
            if isinstance(allowed, bool) and isinstance(raw, bool) and raw == allowed:
                return allowed
        elif raw == allowed:
            return allowed
    choices = ", ".join(_fmt(v) for v in toggle.values)
    raise RulesError(f"toggle {toggle.name}: value {_fmt(raw)!r} is not allowed; choose one of: {choices}")


def parse_toggle_args(items) -> dict:
    """['name=value', ...] from the command line -> {name: text}."""
    out = {}
    for item in items or ():
        if "=" not in item:
            raise RulesError(f"--toggle expects NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def team_of_seats(teams: str, n: int) -> list[int] | None:
    """Team id per seat, or None for every man for himself. Partners sit alternately."""
    if teams == "none":
        return None
    if teams == "2v2":
        if n != 4:
            raise RulesError(f"teams=2v2 needs exactly 4 players, not {n}")
        return [s % 2 for s in range(n)]
    if teams == "3v3":
        if n != 6:
            raise RulesError(f"teams=3v3 needs exactly 6 players, not {n}")
        return [s % 2 for s in range(n)]
    if teams == "pairs_if_even":  # 002: with an even count they play in pairs (partners opposite)
        if n % 2 or n == 2:
            return None
        k = n // 2
        return [s % k for s in range(n)]
    raise RulesError(f"unknown teams value {teams!r}")


@dataclass(frozen=True)
class Rules:
    family: str
    num_players: int
    toggles: dict = field(hash=False)

    @property
    def teams(self) -> list[list[int]] | None:
        t = team_of_seats(self.toggles["teams"], self.num_players) if "teams" in self.toggles else None
        if t is None:
            return None
        return [[s for s in range(self.num_players) if t[s] == k] for k in sorted(set(t))]

    def team_ids(self) -> list[int]:
        t = team_of_seats(self.toggles["teams"], self.num_players) if "teams" in self.toggles else None
        return list(range(self.num_players)) if t is None else t

    def describe(self) -> str:
        changed = {k: v for k, v in self.toggles.items() if v != TOGGLE_BY_NAME[k].default(self.family)}
        extra = ", ".join(f"{k}={_fmt(v)}" for k, v in changed.items())
        return f"{self.family}, {self.num_players} players" + (f" ({extra})" if extra else "")

    def vector(self) -> np.ndarray:
        return rules_vector(self)


def resolve(family: str, num_players: int = 2, toggles: dict | None = None) -> Rules:
    """Validate a family, player count and toggles; fill in the preset's defaults."""
    if family not in FAMILIES:
        raise RulesError(f"unknown rules preset {family!r}; choose one of: {', '.join(FAMILIES)}")
    try:
        n = int(num_players)
    except (TypeError, ValueError):
        raise RulesError(f"number of players must be an integer, got {num_players!r}") from None
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RulesError(f"{family} is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    values = {t.name: t.default(family) for t in TOGGLES if family in t.families}
    given = {}
    for raw_name, raw in (toggles or {}).items():
        name = ALIASES.get(raw_name, raw_name)
        if name == "variant":
            continue
        t = TOGGLE_BY_NAME.get(name)
        if name == "pogony_scoring" and str(raw).strip().lower() == "pogonny":  # RUL-63
            raise RulesError("pogony_scoring=pogonny is no longer a value: Pogonny scoring (VAR-PG1) is "
                             "scoring=pogonny (or variant=pogonny)")
        if t is None:
            known = ", ".join(sorted(TOGGLE_BY_NAME))
            raise RulesError(f"unknown toggle {raw_name!r}; known toggles: {known}")
        if family not in t.families:
            raise RulesError(f"toggle {name} does not apply to {family} (it applies to {', '.join(t.families)})")
        given[name] = parse_value(t, raw)
    raw_variant = next((v for k, v in (toggles or {}).items() if k == "variant"), "none")
    names, implied = expand_variants(raw_variant, family)
    for k, v in implied.items():
        if k in given and given[k] != v:
            raise RulesError(f"toggle {k}={_fmt(given[k])} contradicts variant {'+'.join(names)} "
                             f"(which sets {k}={_fmt(v)})")
    given.update(implied)
    for name, v in given.items():
        t = TOGGLE_BY_NAME[name]
        if t.implemented is not None and v not in t.implemented:
            raise RulesError(f"toggle {name}={_fmt(v)}: {_NOT_YET}")
        values[name] = v
    values["variant"] = "+".join(names) if names else "none"
    hand = values["hand_size"]
    if n * hand > (72 if values.get("two_packs") else 36):
        raise RulesError(f"{n} players x {hand} cards = {n * hand} cards: more than the 36-card pack can deal")
    if family == "prostoy_5" and values.get("teams", "none") != "none":
        raise RulesError("prostoy_5 has no partnerships: 'каждый играет за себя' (000 §01, PR5-S3)")
    if "teams" in values:
        team_of_seats(values["teams"], n)  # raises on a bad count
    if family == "perevodnoy" and values["proezdnoy"] and values["pokaznoy"]:
        pass  # both may hold: any card shown (pokaznoy) includes the trump (proezdnoy)
    for check in (_check_beating, _check_leads, _check_dealing, _check_scoring, _check_chain, _check_big):
        problem = check(family, n, values)
        if problem:
            raise RulesError(problem)
    return Rules(family, n, values)


def expand_variants(raw, family: str) -> tuple[list[str], dict]:
    """'none', a variant name, or names joined by '+' -> (names, the modifier toggles they set)."""
    text = str(raw).strip().lower()
    if text in ("", "none"):
        return [], {}
    names, implied = [], {}
    for part in text.replace(",", "+").split("+"):
        name = part.strip()
        v = VARIANT_BY_NAME.get(name)
        if v is None:
            known = ", ".join(x.name for x in VARIANTS if x.status != "not_rules")
            raise RulesError(f"unknown variant {name!r}; variants: {known}")
        if v.status == "not_rules":
            raise RulesError(f"variant {name} ({v.russian}) is not a rule of play: {v.note}")
        if not variant_played(v):
            why = v.note or "the engine does not play it yet"
            raise RulesError(f"variant {name} ({v.ids}, {v.russian}): {why}")
        if family not in v.families:
            raise RulesError(f"variant {name} does not apply to {family} (it applies to {', '.join(v.families)})")
        for k, val in v.sets.items():
            if k in implied and implied[k] != val:
                raise RulesError(f"variants {'+'.join(names)} and {name} disagree on {k}")
            implied[k] = val
        if name not in names:
            names.append(name)
    return names, implied


# ---- combination checks, one per modifier group: None, or why the combination cannot be played -------
def _check_beating(family: str, n: int, t: dict) -> str | None:
    nt, fixed, pp = t["no_trump"], t["fixed_trump_suit"], t["spades_only_by_spades"]
    if nt and fixed != "none":
        return f"no_trump and fixed_trump_suit={fixed} contradict each other: choose one"
    if pp and fixed == "spades":
        return "spades_only_by_spades: spades are never trumps, so fixed_trump_suit=spades cannot be played with it"
    if t["own_trumps"] and (nt or pp):
        return ("own_trumps gives every player a trump suit; it cannot be played with "
                + ("no_trump" if nt else "spades_only_by_spades (spades are never trumps)"))
    if t["changing_trump"] and (nt or fixed != "none" or pp or t["own_trumps"]):
        return "changing_trump changes the one trump suit: it cannot be played with no_trump, fixed_trump_suit, " \
               "spades_only_by_spades or own_trumps"
    dealing = [k for k in ("deal_rule", "draw_rule", "otboyny", "albanian", "poker_swap")
               if k in t and t[k] != TOGGLE_BY_NAME[k].default(family)]
    if (nt or t["changing_trump"]) and dealing:
        return (f"{'no_trump' if nt else 'changing_trump'} changes the turned card, which "
                f"{dealing[0]}={_fmt(t[dealing[0]])} also deals with: the two are not combined yet")
    return None


def _check_leads(family: str, n: int, t: dict) -> str | None:
    # zanudny_trumps_apart / tryoshka_lead without their lead_rule are inert (not refused: the fuzzer's
    # sparse draws would be filtered too often)
    if t["armenian"] and t["lead_rule"] == "tryoshka":
        return ("armenian and tryoshka cannot be combined: a one-card lead from the talon is not a "
                "three-card opening (RUL-47)")
    return None


def _check_dealing(family: str, n: int, t: dict) -> str | None:
    if t["albanian"] and t["deal_rule"] != "standard":
        return f"albanian sorts the talon, but deal_rule={t['deal_rule']} leaves no talon to sort"
    if t["albanian"] and t["poker_swap"]:
        return "albanian (a sorted talon) and poker_swap (cards put back under the talon) contradict each other"
    if t["albanian"] and t["otboyny"]:
        return "albanian (a sorted talon) and otboyny (discards shuffled into the talon) contradict each other"
    return None


def _check_scoring(family: str, n: int, t: dict) -> str | None:
    return None


def _check_chain(family: str, n: int, t: dict) -> str | None:
    """RUL-70/RUL-75: what a chain bout cannot be combined with."""
    rule = t.get("bout_rule", "standard")
    if rule == "standard":
        if (t.get("ten_above_king") or t.get("clubs_only_by_clubs")
                or t.get("chinese_next_lead", "next_player") != "next_player"):
            return ("ten_above_king, clubs_only_by_clubs and chinese_next_lead belong to a chain bout "
                    "(bout_rule=chain_road or chain_chinese)")
        return None
    others = [m.name for m in MODIFIER_TOGGLES
              if m.name in t and m not in CHAIN_TOGGLES and t[m.name] != m.default(family)]
    if others:
        return f"bout_rule={rule} is a bout of its own and does not combine with {', '.join(others)} (RUL-70)"
    if team_of_seats(t.get("teams", "none"), n) is not None:
        return f"bout_rule={rule} is played every man for himself, not in teams (RUL-70)"
    if rule == "chain_chinese" and t.get("trump_six_exchange"):
        return "bout_rule=chain_chinese has no trump-six exchange: the turned card is no trump (RUL-70)"
    if rule == "chain_road" and t.get("chinese_next_lead", "next_player") != "next_player":
        return "chinese_next_lead belongs to bout_rule=chain_chinese"
    if rule == "chain_road" and 36 % n:
        return f"bout_rule=chain_road deals the whole pack equally: 36 cards do not split among {n} players (RUL-71)"
    if rule == "chain_chinese" and t.get("trump_six_beats_trump_ace"):
        return "bout_rule=chain_chinese does not combine with trump_six_beats_trump_ace (RUL-77)"
    return None


def _check_big(family: str, n: int, t: dict) -> str | None:
    """RUL-80: what two packs (VAR-BD1) are not played with yet."""
    if not t.get("two_packs"):
        return None  # big_durak_loss_at without two_packs is inert
    others = [m.name for m in MODIFIER_TOGGLES
              if m.name in t and m not in BIG_TOGGLES and t[m.name] != m.default(family)]
    if others:
        return f"two_packs is not combined with other §6 modifiers yet ({', '.join(others)}) (RUL-80)"
    if t.get("trump_six_exchange"):
        return "two_packs has two trump sixes: who may exchange is not settled, so trump_six_exchange is refused (RUL-80)"
    if t.get("pogony_instant_win") or t.get("pogony_scoring", "none") != "none":
        return "two_packs: pogony (two sixes) are not defined with twin sixes; pogony_instant_win and pogony_scoring " \
               "are refused (RUL-80)"
    return None


# ---- the int64 vector read by the compiled core -------------------------------------------
MODE_PROSTOY, MODE_PODKIDNOY, MODE_PEREVODNOY = 0, 1, 2
(R_MODE, R_NPLAYERS, R_HAND, R_SETS_SINGLE_OR_PAIR, R_TWO_PAIR_SIZE, R_PARTIAL, R_ATT_DRAW_NOW,
 R_TRUMP_ONLY_IF_CANNOT_FOLLOW, R_FIRST_LOWEST_TRUMP, R_FALLBACK_LOWEST_CARD, R_LATER_DEALS, R_NEXT_DEALER_TEAM,
 R_LEAD_SINGLE, R_THROW_TIMING, R_THROW_AFTER_TAKE, R_MAX_ATTACK, R_FIRST_BOUT_MAX, R_FIRST_BOUT_UNTIL_DISCARD,
 R_NEIGHBOURS_GT, R_SIX_BEATS_ACE, R_EXCHANGE, R_EXCHANGE_WHILE_TRUMP, R_TRANSFER_FIRST, R_PROEZDNOY,
 R_PROEZDNOY_PER_GAME, R_POKAZNOY, R_POGONY_WIN, R_POGONY_SCORING, R_N_TEAMS, R_TEAM0) = range(30)
# §6 modifiers: a block of slots per group (all zero when no modifier is on)
R_BEATING = R_TEAM0 + 6   # beating and trumps
(R_NO_TRUMP, R_FIXED_TRUMP, R_SPADES_ONLY, R_SPADE_TURNUP, R_KOROLEVSKY, R_KOROLEVSKY_ANY_ACE, R_CHANGING_TRUMP,
 R_OWN_TRUMPS) = range(R_BEATING, R_BEATING + 8)  # R_OWN_TRUMPS: 0 off, 1 from the dealer's left, 2 from the dealer
R_LEADS = R_OWN_TRUMPS + 1  # leads
(R_LEAD_RULE, R_ZANUDNY_TRUMPS_APART, R_TRYOSHKA_SAME_RANK, R_ARMENIAN) = range(R_LEADS, R_LEADS + 4)
R_DEALING = R_ARMENIAN + 1  # dealing and drawing
(R_DEAL_RULE, R_PUSTOY, R_PUSTOY_REFILL, R_OTBOYNY, R_ALBANIAN, R_POKER, R_NAVALENY_OUT, R_NAVALENY_LEFTOVER_TRUMP,
 R_DEALING_ANY, R_POKER_EVERY, R_POKER_EXACT) = range(R_DEALING, R_DEALING + 11)
# R_POKER_EVERY: poker_swap_when=every_cover; R_POKER_EXACT: poker_swap_count=exactly_two (VAR-PO1)
R_SCORING = R_POKER_EXACT + 1  # scoring
(R_SCORING_RULE,) = range(R_SCORING, R_SCORING + 1)
R_CHAIN = R_SCORING_RULE + 1  # chain beating
(R_BOUT_RULE, R_TEN_ABOVE_KING, R_CLUBS_ONLY, R_CHINESE_TAKER_LEADS) = range(R_CHAIN, R_CHAIN + 4)
R_BIG = R_CHINESE_TAKER_LEADS + 1  # two packs
(R_TWO_PACKS, R_BIG_LOSS_AT) = range(R_BIG, R_BIG + 2)  # R_BIG_LOSS_AT: 0 = off
R_VARIANT_ANY = R_BIG_LOSS_AT + 1  # 1 when any §6 modifier is on: the plain families skip every variant branch
R_SIZE = R_VARIANT_ANY + 1
SUITS = ("clubs", "diamonds", "hearts", "spades")
TURNUP_REDEAL, TURNUP_NEXT_CARD, TURNUP_NO_TRUMP = 0, 1, 2
LEAD_STANDARD, LEAD_ZANUDNY, LEAD_TRYOSHKA = 0, 1, 2
DEAL_STANDARD, DEAL_NAVALENY, DEAL_CHUKOTSKY = 0, 1, 2
SCORE_FOOL, SCORE_POGONNY, SCORE_OCHKOVY = 0, 1, 2
BOUT_STANDARD, BOUT_ROAD, BOUT_CHINESE = 0, 1, 2
LATER_LOWEST_TRUMP, LATER_POD, LATER_IZ_POD, LATER_LEFT_OF_DEALER = 0, 1, 2, 3
TIMING_AFTER_FIRST_COVER, TIMING_AFTER_ATTACKER, TIMING_ANY_TIME = 0, 1, 2


def rules_vector(r: Rules) -> np.ndarray:
    t = r.toggles
    v = np.zeros(R_SIZE, dtype=np.int64)
    v[R_MODE] = {"prostoy_5": 0, "prostoy_6": 0, "podkidnoy": 1, "perevodnoy": 2}[r.family]
    v[R_NPLAYERS] = r.num_players
    v[R_HAND] = t["hand_size"]
    if r.family in PROSTOY:
        v[R_SETS_SINGLE_OR_PAIR] = t["prostoy_attack_sets"] == "single_or_pair"
        v[R_TWO_PAIR_SIZE] = t["prostoy_two_pair_lead_size"]
        v[R_PARTIAL] = t["partial_defence"]
        v[R_ATT_DRAW_NOW] = t["prostoy_attacker_draw_timing"] == "immediately"
        v[R_MAX_ATTACK] = 6
    else:
        v[R_LEAD_SINGLE] = t["initial_lead"] == "single"
        v[R_THROW_TIMING] = ("after_first_cover", "after_attacker", "any_time").index(t["others_throw_in_timing"])
        v[R_THROW_AFTER_TAKE] = t["throw_in_after_take"]
        v[R_MAX_ATTACK] = t["max_attack_cards"]
        v[R_FIRST_BOUT_MAX] = 0 if t["first_bout_max_attack"] == "none" else t["first_bout_max_attack"]
        v[R_FIRST_BOUT_UNTIL_DISCARD] = t["first_bout_limit_scope"] == "until_first_discard"
        g = t["throw_in_neighbours_only_if_players_gt"]
        v[R_NEIGHBOURS_GT] = 0 if g == "none" else g
        v[R_POGONY_WIN] = t["pogony_instant_win"]
    v[R_TRUMP_ONLY_IF_CANNOT_FOLLOW] = t["trump_only_if_cannot_follow"]
    v[R_FIRST_LOWEST_TRUMP] = t["first_attacker_first_deal"] == "lowest_trump"
    v[R_FALLBACK_LOWEST_CARD] = t["no_trump_in_hands_fallback"] == "lowest_card"
    v[R_LATER_DEALS] = ("lowest_trump", "pod_duraka", "iz_pod_duraka", "left_of_dealer").index(
        t["first_attacker_later_deals"])
    v[R_NEXT_DEALER_TEAM] = t["next_dealer"] == "team_any_loser"
    v[R_SIX_BEATS_ACE] = t["trump_six_beats_trump_ace"]
    v[R_EXCHANGE] = t["trump_six_exchange"]
    v[R_EXCHANGE_WHILE_TRUMP] = t["trump_six_exchange_timing"] != "while_face_down_cards_left"  # RUL-9
    if r.family == "perevodnoy":
        v[R_TRANSFER_FIRST] = t["transfer_in_first_bout"]
        v[R_PROEZDNOY] = t["proezdnoy"]
        v[R_PROEZDNOY_PER_GAME] = t["proezdnoy_limit"] == "once_per_game_per_card"
        v[R_POKAZNOY] = t["pokaznoy"]
    v[R_POGONY_SCORING] = t["pogony_scoring"] == "last_lead_sixes"
    ids = r.team_ids()
    v[R_N_TEAMS] = len(set(ids))
    for s in range(6):
        v[R_TEAM0 + s] = ids[s] if s < r.num_players else -1
    _pack_beating(v, t)
    _pack_leads(v, t)
    _pack_dealing(v, t)
    _pack_scoring(v, t)
    _pack_chain(v, t, r.num_players)
    _pack_big(v, t)
    v[R_VARIANT_ANY] = any(t[m.name] != m.default(r.family) for m in MODIFIER_TOGGLES if m.name in t)
    return v


def _pack_beating(v, t):
    v[R_NO_TRUMP] = t["no_trump"]
    v[R_FIXED_TRUMP] = -1 if t["fixed_trump_suit"] == "none" else SUITS.index(t["fixed_trump_suit"])
    v[R_SPADES_ONLY] = t["spades_only_by_spades"]
    v[R_SPADE_TURNUP] = ("redeal", "next_card", "no_trump").index(t["spade_turnup_resolution"])
    v[R_KOROLEVSKY] = t["korolevsky"]
    v[R_KOROLEVSKY_ANY_ACE] = t["korolevsky_ace"] == "any_ace"
    v[R_CHANGING_TRUMP] = t["changing_trump"]
    v[R_OWN_TRUMPS] = 0 if not t["own_trumps"] else (2 if t["own_trumps_assignment"] == "from_dealer" else 1)


def _pack_leads(v, t):
    v[R_LEAD_RULE] = ("standard", "zanudny", "tryoshka").index(t["lead_rule"])
    v[R_ZANUDNY_TRUMPS_APART] = t["zanudny_trumps_apart"]
    v[R_TRYOSHKA_SAME_RANK] = t["tryoshka_lead"] == "same_rank"
    v[R_ARMENIAN] = t["armenian"]


def _pack_dealing(v, t):
    v[R_DEAL_RULE] = ("standard", "navaleny", "chukotsky").index(t["deal_rule"])
    v[R_PUSTOY] = t["draw_rule"] == "pustoy"
    v[R_PUSTOY_REFILL] = t["pustoy_refill_to"]
    v[R_OTBOYNY] = t["otboyny"]
    v[R_ALBANIAN] = t["albanian"]
    v[R_POKER] = t["poker_swap"]
    v[R_POKER_EVERY] = t["poker_swap"] and t["poker_swap_when"] == "every_cover"
    v[R_POKER_EXACT] = t["poker_swap"] and t["poker_swap_count"] == "exactly_two"
    v[R_NAVALENY_OUT] = t["navaleny_extra_cards"] == "out_of_play"
    v[R_NAVALENY_LEFTOVER_TRUMP] = t["navaleny_trump"] == "leftover_card"
    v[R_DEALING_ANY] = (v[R_DEAL_RULE] != 0 or v[R_PUSTOY] != 0 or v[R_OTBOYNY] != 0 or v[R_ALBANIAN] != 0
                        or v[R_POKER] != 0)


def _pack_scoring(v, t):
    v[R_SCORING_RULE] = ("fool", "pogonny", "ochkovy").index(t["scoring"])


def _pack_chain(v, t, n):
    v[R_BOUT_RULE] = ("standard", "chain_road", "chain_chinese").index(t.get("bout_rule", "standard"))
    v[R_TEN_ABOVE_KING] = t.get("ten_above_king", False)
    v[R_CLUBS_ONLY] = t.get("clubs_only_by_clubs", False)
    v[R_CHINESE_TAKER_LEADS] = t.get("chinese_next_lead", "next_player") == "taker"
    if v[R_BOUT_RULE] == BOUT_ROAD:
        v[R_HAND] = 36 // n  # RUL-71: the whole pack is dealt (the deal then shows the dealer's last card)


def _pack_big(v, t):
    v[R_TWO_PACKS] = t.get("two_packs", False)
    loss = t.get("big_durak_loss_at", 52)
    v[R_BIG_LOSS_AT] = 0 if (loss == "none" or not v[R_TWO_PACKS]) else loss


def toggle_table() -> list[dict]:
    """Every toggle with its values, the values played today, and per-preset defaults (for `durak rules`)."""
    rows = []
    for t in TOGGLES:
        played = t.values if t.implemented is None else t.implemented
        rows.append({"toggle": t.name, "values": [_fmt(v) for v in t.values], "rule": t.rule, "doc": t.doc,
                     "played": [_fmt(v) for v in played], "modifier": t.modifier,
                     "defaults": {f: _fmt(t.default(f)) for f in t.families}})
    return rows


def variant_table() -> list[dict]:
    """Every §6 variant: its ids, what it sets, and whether it is played (for `durak rules`)."""
    rows = []
    for v in VARIANTS:
        status = "played" if variant_played(v) else ("not a rule of play" if v.status == "not_rules" else "not yet")
        rows.append({"variant": v.name, "ids": v.ids, "russian": v.russian, "status": status,
                     "sets": {k: _fmt(x) for k, x in v.sets.items()}, "families": list(v.families), "note": v.note})
    return rows


def format_value(v) -> str:
    return _fmt(v)
