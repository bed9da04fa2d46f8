"""Lead habits in simple durak: four habits that differ from a common base only in the lead, compared one knob
at a time, on a plain base (greedy's play) and a strong one (expert's play)."""
from sim.core import rules as R
from sim.experiments.plain import games_in_100, tournament_unfinished
from sim.experiments.tournament import Tournament

TITLE = "Singles or sets: which lead habit wins in simple durak?"
QUESTION = ("Lead one card at a time, lead triples and fives from the start, dump sets once the talon is low, or "
            "follow seed 002 (singles early, sets once the hand is loaded or the talon is low)? Each habit is "
            "switched on one at a time against the same player without it, in prostoy_5 and prostoy_6.")
ORDER = 3
PANEL = False  # a tournament between habits

SET_HABITS = ["singles-first", "sets-first", "sets-late", "sets-when-loaded"]
# (habit in a player's words, strategy with the habit, the same player without it): one knob per step
SET_STEPS = [("leading the largest set from the first bout", "sets-first", "singles-first"),
             ("dumping sets once the talon is down to 3 cards", "sets-late", "singles-first"),
             ("also leading sets once the hand holds 7 cards or more (002's loaded-hand trigger)", "sets-when-loaded",
              "sets-late"),
             ("seed 002's whole rule (both triggers) against singles always", "sets-when-loaded", "singles-first")]
# the same four habits on two bases: greedy's play (the four strategy files) and expert's play (expert with its
# lead knobs set; expert's defence, trump saving, counting and endgame unchanged)
SET_BASES = {"greedy": {h: h for h in SET_HABITS},
             "expert": {"singles-first": "expert:dump_talon=-1,dump_hand=99",
                        "sets-first": "expert:dump_talon=36,dump_hand=99",
                        "sets-late": "expert:dump_talon=3,dump_hand=99",
                        "sets-when-loaded": "expert:dump_talon=3,dump_hand=7"}}


def _say(sc, lo, hi):
    if lo <= 0.5 <= hi:
        return "no detectable edge"
    d = 100 * (sc - 0.5)
    return f"{'wins' if d > 0 else 'loses'} {games_in_100(2 * d)} more than it " \
           f"{'loses' if d > 0 else 'wins'} ({100 * sc:.1f} of 100)"


def run(ctx):
    found, ts, best = {}, [], {}
    for base, specs in SET_BASES.items():
        label = {v: k for k, v in specs.items()}
        for fam in ("prostoy_5", "prostoy_6"):
            t = Tournament(R.resolve(fam, 2), list(specs.values()), games=ctx.n(300_000), seed=ctx.seed,
                           threads=ctx.threads).run()
            ts.append(t)
            h = t.head_to_head()
            h = h.assign(strategy=h["strategy"].map(label), opponent=h["opponent"].map(label))
            key = fam if base == "greedy" else f"{fam}-{base}"
            ctx.data[f"tournament-{key}"] = h
            t.heatmap(ctx.folder / f"heatmap-{key}.png")
            m = t.matrix().rename(index=label, columns=label)
            avg = m.mean(axis=1)  # NaN diagonal skipped
            best[(base, fam)] = (f"`{avg.idxmax()}`", float(avg.max()))
            rows = []
            for habit, with_, without in SET_STEPS:
                sub = h[((h["strategy"] == with_) & (h["opponent"] == without)) |
                        ((h["strategy"] == without) & (h["opponent"] == with_))].iloc[0]
                flip = sub["strategy"] != with_
                sc, lo, hi = ((1 - sub["score"], 1 - sub["score_hi"], 1 - sub["score_lo"]) if flip else
                              (sub["score"], sub["score_lo"], sub["score_hi"]))
                found.setdefault(base, {}).setdefault(habit, {})[fam] = (sc, lo, hi, int(sub["games"]))
                rows.append(f"| {habit} | `{specs[with_]}` vs `{specs[without]}` | {100 * m.loc[with_, without]:.1f} "
                            f"[{100 * lo:.1f}, {100 * hi:.1f}] | {int(sub['games']):,} | "
                            f"{max(0, t.games - int(sub['games'])):,} |")
            ctx.lines += [f"### {fam}, 2 players, {base}'s play", "",
                          "| habit switched on | players | games won out of 100 by the habit [95%] | finished games "
                          "| unfinished |", "|---|---|---|---|---|", *rows, "",
                          "All pairs:", "", t.markdown().split("\n", 2)[2], f"![{fam} {base}](heatmap-{key}.png)", ""]
    ctx.lines += ["On greedy's base the four strategies `singles-first`, `sets-first`, `sets-late` and "
                  "`sets-when-loaded` share everything but the lead (greedy's cover and exchange) and the same three "
                  "knobs (`sets_from_start`, `sets_when_talon_at_most`, `sets_when_hand_at_least`, see `durak "
                  "strategies`). On expert's base the same habits are expert's lead knobs (`dump_talon`, "
                  "`dump_hand`; in simple durak they only change the lead), with the rest of expert unchanged. Each "
                  "pair differs in one knob, except the last line (two). A win counts 1, a draw 1/2, finished games "
                  "only; 50 means the habit makes no difference. The earlier version of this page compared "
                  "`singles-early` with `dump-triples-late`, which differ in two knobs at once and both lead singles "
                  "first; that comparison said which switching point is better, not whether singles beat sets.", ""]

    def verdict_for(base):
        f = found[base]
        first, late = f[SET_STEPS[0][0]], f[SET_STEPS[1][0]]
        if all(v[1] > 0.5 for v in first.values()):
            return "sets from the first bout beat singles"
        if all(v[2] < 0.5 for v in first.values()):
            return "singles first" + (", then sets late" if all(v[1] > 0.5 for v in late.values()) else "")
        return "it depends on the game"

    heads = {base: verdict_for(base) for base in found}
    if len(set(heads.values())) == 1:
        head = (f"{heads['greedy'][0].upper()}{heads['greedy'][1:]}, for plain and strong players alike")
    else:
        head = ("It depends on how well you play: " + "; ".join(f"with {b}'s play {v}" for b, v in heads.items()))
    blocks = []
    for base, per_habit in found.items():
        parts = [f"{habit}: " + "; ".join(f"{fam} {_say(*v[:3])}" for fam, v in per.items())
                 for habit, per in per_habit.items()]
        parts.append("best of the four: " + ", ".join(
            f"{fam} {best[(base, fam)][0]} ({100 * best[(base, fam)][1]:.1f} of 100 against the other three)"
            for fam in ("prostoy_5", "prostoy_6")))
        blocks.append(f"With {base}'s play — " + "; ".join(parts) + ".")
    n = min(v[3] for per_habit in found.values() for per in per_habit.values() for v in per.values())
    return (f"{head}. One habit at a time against the same player without it (2 players, simple durak). "
            + " ".join(blocks) + f" How sure: 95% intervals from {n:,}+ games per pair (draws count half). "
            + tournament_unfinished(ts))
