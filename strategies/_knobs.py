"""The knob registry: every knob of the shared heuristics (``strategies/_lib.py``) as data.

A knob is one float of a strategy's knob tuple (``UniTuple(float64, NK)``). Each is declared once below with
``_kn(name, default, low, high, off, meaning)``, the way ``sim.core.rules`` declares its toggles with ``_m(...)``:

- ``default``: greedy's play (``BASE``, the table every strategy changes a few knobs of);
- ``low`` / ``high``: the values that mean something (a strategy parameter on a knob checks its own range);
- ``off``: the value that switches the knob's rule off (None: the knob only tunes another knob's rule; several
  knobs are not off in greedy's play, e.g. ``EXCHANGE_MIN_RANK``);
- ``meaning``: one line; "talon" is obs[O_TALON] (the cards left to draw), a rank index is 0 = six ... 8 = ace.

Generated from the registry: the index constants (``DUMP_TALON = 2``, ...; module globals, so numba reads them as
compile-time constants exactly as it read the literals before), ``NK``, ``BASE``, ``KNOB_NAMES`` and ``knob_table()``
(``python -m strategies._knobs`` prints it). A new knob is one ``_kn`` line here (appended: the indices of the others
stay) and its use in ``_lib``; no strategy file changes. Pure Python: nothing here is compiled.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Knob:
    name: str
    default: float
    low: float
    high: float
    off: float | None
    meaning: str
    whole: bool = True  # whole numbers only (a count, a rank index, a switch)


def _kn(name, default, low, high, off, meaning, whole=True):
    return Knob(name, float(default), float(low), float(high), None if off is None else float(off), meaning, whole)


KNOBS: tuple[Knob, ...] = (
    # ---- leads --------------------------------------------------------------------------------------------------
    _kn("TRUMP_LEAD_TALON", -1, -1, 36, -1, "lead trumps, or add them to a lead, only when talon <= this (-1: only "
        "when nothing else is left; 36: like any card)"),
    _kn("PAIR_LEAD_TALON", -1, -1, 36, -1, "throw-in families: lead every card of the chosen rank, not just one, "
        "when talon <= this (-1: never; 36: always)"),
    _kn("DUMP_TALON", -1, -1, 36, -1, "simple durak: lead the largest legal set (triple / five) when talon <= this "
        "(or hand >= DUMP_HAND); throw-in families: throw in cards of any rank when talon <= this"),
    _kn("DUMP_HAND", 99, 1, 99, 99, "simple durak: lead the largest legal set while the hand holds >= this many "
        "cards"),
    _kn("SETS_EARLY", 0, 0, 1, 0, "simple durak, neither DUMP_* rule on: 0 lead a single, 1 lead the largest set"),
    # ---- defence: take rather than spend a card worth keeping ---------------------------------------------------
    _kn("TAKE_HIGH_TALON", 99, 0, 99, 99, "the take-early rules (HIGH_RANK, HIGH_TRUMP_RANK, LONE_TRUMP, "
        "TAKE_HIGH_ATTACK) hold while talon >= this"),
    _kn("HIGH_RANK", 9, 0, 9, 9, "take early rather than cover with a non-trump of rank index >= this"),
    _kn("HIGH_TRUMP_RANK", 9, 0, 9, 9, "take early rather than cover with a trump of rank index >= this"),
    _kn("TAKE_MAX_PICKUP", 0, 0, 36, 0, "the take-early rules hold only when taking picks up at most this many "
        "cards (0: never take to save a card)"),
    _kn("LONE_TRUMP", 99, 0, 99, 99, "take early rather than cover with one's only trump of rank index >= this"),
    _kn("TAKE_TRUMP_TALON", 99, 0, 99, 99, "take (rather than cover) a trump attack while talon >= this"),
    _kn("KEEP_ACE", 0, 0, 1, 0, "1: keep the trump ace for last: never lead, throw in or cover with it while other "
        "options exist and talon > 0"),
    _kn("TRANSFER", 0, 0, 2, 0, "perevodnoy: 0 never transfer; 1 transfer by showing when allowed, else by laying a "
        "non-trump; 2 also lay trumps"),
    # ---- throw-ins ----------------------------------------------------------------------------------------------
    _kn("THROW_TRUMP_TALON", 0, -1, 36, 36, "throw in trumps only when talon <= this"),
    _kn("THROW_MAX_RANK", 8, -1, 8, 8, "while talon > DUMP_TALON, throw in non-trumps of rank index <= this only"),
    _kn("EXCHANGE_MIN_RANK", 1, 0, 9, 9, "exchange the trump six when the face-up trump's rank index >= this "
        "(1: always worth it)"),
    # ---- counting and the endgame -------------------------------------------------------------------------------
    _kn("COUNT", -1, -1, 36, -1, "while talon <= this, lead / throw in first a card the defender cannot beat with "
        "chance >= COUNT_P, judged from everything shown (cheapest first)"),
    _kn("COUNT_P", 1, 0, 1, None, "the chance COUNT asks for", whole=False),
    _kn("ENDGAME", 0, 0, 1, 0, "1: two players left, talon empty (every card known): lead (a set containing) a card "
        "the opponent cannot beat, throw in such cards first"),
    _kn("MATCH", 0, 0, 1, 0, "simple durak defence: 1 assign covers to the whole set (strongest attack card first, "
        "cheapest beater each) and take at once when it cannot be covered; 0 cover card by card"),
    _kn("TAKE_HIGH_ATTACK", 99, 0, 99, 99, "while the take-early rules hold, take rather than cover an attacking "
        "card of rank index >= this, whatever the pick-up (002 «лучше принять, чем крыть хорошую, старшую масть»)"),
    _kn("AVOID_DRAW", 0, 0, 1, 0, "1: two players left, talon empty: never lead the whole hand when the opponent can "
        "cover it with all of his cards (a draw) while another lead exists (002 «не сделать ничьей»)"),
    _kn("ENDGAME_MANY", 0, 0, 1, 0, "three or more players in, talon empty: lead (the largest set containing) a card "
        "the defender cannot beat with chance >= this (002's endgame rule for «соседа»)", whole=False),
    _kn("KEEP_PAIR_TALON", 99, 0, 99, 99, "while talon >= this, do not throw in a card of a rank held twice or more "
        "(001 «придержать пару карт для следующего кона»; 0: always)"),
    # ---- podkidnoy / perevodnoy: leads and covers ---------------------------------------------------------------
    _kn("LEAD_MIN_RANK", 0, 0, 8, 0, "while talon > LEAD_RANK_TALON, lead the cheapest non-trump of rank index >= "
        "this when there is one"),
    _kn("LEAD_RANK_TALON", 36, -1, 36, 36, "LEAD_MIN_RANK holds while talon > this"),
    _kn("THROW_COVER_MAX_RANK", 8, -1, 8, 8, "while the defender covers (not takes) and talon > DUMP_TALON, throw in "
        "non-trumps of rank index <= this only"),
    _kn("THROW_TAKE_MAX_RANK", 8, -1, 8, 8, "while the defender takes and the talon is not empty, throw in "
        "non-trumps of rank index <= this only"),
    _kn("COVER_TABLE_RANK", -1, -1, 8, -1, "cover with a card whose rank is on the table already (it opens no new "
        "rank) when it costs at most this many rank steps more than the cheapest cover of its kind"),
    _kn("LEAD_PAIR", -1, -1, 8, -1, "lead the cheapest non-trump of the lowest rank held twice or more, if that rank "
        "is at most this many steps above the cheapest non-trump's"),
    # ---- three or more players: throw-ins by the thrower's seat -------------------------------------------------
    _kn("THROW_NEXT_MAX_RANK", 8, -1, 8, 8, "seat rules (ROLE_TALON <= talon <= ROLE_TALON_MAX): the seat after the "
        "defender throws in non-trumps of rank index <= this only (-1: never throws in)"),
    _kn("THROW_NEXT_TAKE_MAX_RANK", 8, -1, 8, 8, "seat rules: the same while the defender takes (that seat attacks "
        "next)"),
    _kn("THROW_FAR_MAX_RANK", 8, -1, 8, 8, "seat rules: the same for a seat further on"),
    _kn("THROW_ATT_MAX_RANK", 8, -1, 8, 8, "seat rules: the same for the attacker"),
    _kn("ROLE_TALON", 0, 0, 36, None, "the seat rules hold while talon >= this"),
    _kn("ROLE_TALON_MAX", 36, 0, 36, None, "the seat rules hold while talon <= this"),
    # ---- podkidnoy / perevodnoy: what the others can throw in ---------------------------------------------------
    _kn("COVER_OPEN_STEPS", -1, -1, 8, -1, "among the covers of the cheapest cover's kind at most this many ranks "
        "dearer, cover with the one whose rank leaves the others the fewest cards to throw in (cheaper on ties)"),
    _kn("COVER_OPEN_TRUMP_STEPS", -1, -1, 8, -1, "COVER_OPEN_STEPS for trump covers"),
    _kn("COVER_OPEN_COST", 0, 0, 9, None, "COVER_OPEN: each rank step dearer counts as this many cards opened",
        whole=False),
    _kn("COVER_OPEN_EXPECT", 0, 0, 1, None, "COVER_OPEN counts 0: every unseen card of the rank; 1: the cards known "
        "in the others' hands plus the unseen ones times their share of the unseen cards"),
    _kn("LEAD_OPEN_STEPS", -1, -1, 8, -1, "lead (when no rule above chose) the non-trump at most this many ranks "
        "above the cheapest whose rank the others hold fewest of (expected as COVER_OPEN_EXPECT 1)"),
    _kn("LEAD_OPEN_SIGN", 1, -1, 2, None, "LEAD_OPEN: 1 the fewest, -1 the most, counting the throwers (and the "
        "defender in perevodnoy: he may transfer); 2 the fewest, counting the defender in every family"),
    _kn("TAKE_OPEN", 99, 0, 99, 99, "with COVER_OPEN on, take rather than cover while talon >= TAKE_OPEN_TALON when "
        "the cover chosen still leaves the others at least this many cards to throw in (never in zanudny)",
        whole=False),
    _kn("TAKE_OPEN_TALON", 0, 0, 99, None, "TAKE_OPEN holds while talon >= this"),
    _kn("TAKE_FIRST_RANK", 99, 0, 99, 99, "early in a many-player deal (TAKE_FIRST_*), nothing covered yet: take "
        "rather than cover a non-trump of rank index >= this (never in zanudny)"),
    _kn("TAKE_FIRST_ACTIVE", 4, 2, 6, None, "TAKE_FIRST_RANK holds while at least this many players are in"),
    _kn("TAKE_FIRST_DISCARD", 5, 0, 36, None, "TAKE_FIRST_RANK holds while at most this many cards are discarded"),
    _kn("TAKE_FIRST_TABLE", 1, 1, 6, None, "TAKE_FIRST_RANK holds while at most this many attack cards are on the "
        "table"),
    _kn("ENDGAME_MANY_MAX", 6, 2, 6, 6, "ENDGAME_MANY holds only while at most this many players are in"),
    _kn("THROW_TRUMP_ACTIVE", 6, 2, 6, 6, "three or more players: throw in trumps only while at most this many "
        "players are in (THROW_TRUMP_TALON still applies)"),
    _kn("TAKE_HIGH_ACTIVE", 99, 2, 99, 99, "the take-early rules also hold while at least this many players are in, "
        "whatever the talon"),
    # ---- search inside the heuristic (expert's wrappers apply these after the rest) -----------------------------
    _kn("ENDGAME_SOLVE", 0, 0, 1e6, 0, "two players left, talon empty, plain podkidnoy: solve the rest of the deal "
        "exactly (strategies/_endgame.py) with at most this many nodes per option, when both hands hold at most "
        "ENDGAME_SOLVE_CARDS cards"),
    _kn("ENDGAME_SOLVE_CARDS", 0, 0, 36, None, "ENDGAME_SOLVE holds when both hands together hold at most this many "
        "cards"),
    _kn("SET_TRUMP_TALON", -1, -1, 36, -1, "simple durak, sets dumped and trumps kept out of leads: when talon <= "
        "this and the non-trumps make no set, let a trump pair up with a non-trump of its rank"),
    _kn("ROLLOUT_SAMPLES", 0, 0, 1000, 0, "talon empty, one pack, no §6 variant, at most ROLLOUT_ACTIVE players in: "
        "guess the hidden cards this many times, play every option out, take the best mean (strategies/_rollout.py)"),
    _kn("ROLLOUT_ACTIVE", 3, 2, 6, None, "ROLLOUT_SAMPLES holds while at most this many players are in (podkidnoy: at "
        "least three; simple durak: at least two; not perevodnoy)"),
    _kn("ROLLOUT_SELF", 0, 0, 1, 0, "1: in the rollouts' imagined games the seat itself plays by its own knobs "
        "(rollouts off), the others by greedy's; 0: greedy in every seat"),
)

NK = len(KNOBS)
KNOB_NAMES = tuple(k.name for k in KNOBS)
BASE = tuple(k.default for k in KNOBS)  # greedy's play expressed as knobs: the table every strategy changes
KNOB = {k.name: k for k in KNOBS}
for _i, _k in enumerate(KNOBS):  # the index constants the compiled code reads: DUMP_TALON = 2, ...
    globals()[_k.name] = _i
del _i, _k

__all__ = ["Knob", "KNOBS", "KNOB", "NK", "KNOB_NAMES", "BASE", "knobs", "knob_table", *KNOB_NAMES]


def knobs(base=BASE, **changes):
    """A knob table (BASE unless given) with some knobs changed, as a float tuple (for building constants in
    Python)."""
    k = list(base)
    for name, v in changes.items():
        k[KNOB_NAMES.index(name)] = float(v)
    return tuple(k)


def _g(v):
    return "-" if v is None else f"{v:g}"


def knob_table() -> str:
    """The registry as a text table: index, name, default, range, off, meaning."""
    rows = [f"{i:>2}  {k.name:<25} {_g(k.default):>5}  [{_g(k.low)}, {_g(k.high)}]{'' if k.whole else ' real'}  "
            f"off {_g(k.off)}\n      {k.meaning}" for i, k in enumerate(KNOBS)]
    return ("index name                   default  [low, high]  off (-: none of its own)\n" + "\n".join(rows))


if __name__ == "__main__":
    print(knob_table())
