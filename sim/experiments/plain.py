"""Plain verdicts: one paragraph a player understands — yes / no / it depends, how big in
games out of 100, how sure — written from the numbers of a panel of comparisons.

A "case" is one comparison: where it was played (family, players), which panel strategy played every seat,
and the comparison's table (sim.experiments.compare.Comparison.table()). Sizes are given as games out of
100 (a change of 1.25 points is "about 1 game in 80"); unfinished deals are always named, and a verdict
whose unfinished share exceeds the effect it reports says so.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

NICE = (2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 120, 150, 200, 250, 300, 400,
        500, 600, 700, 800, 1000, 1500, 2000)


UNITS = {"bouts": "bouts", "fool_cards": "cards"}
COUNTS = tuple(UNITS)  # metrics that are counts (in their unit), not rates (in points)


def games_in_100(points: float) -> str:
    """A change of `points` percentage points in a player's words: 'about 1 game in 80', 'about 3 games in
    100'. The sign is left to the caller."""
    p = abs(points)
    if p < 0.05:
        return "less than 1 game in 2,000"
    if p < 2:
        n = 100 / p
        nice = min(NICE, key=lambda x: abs(x - n) / x)
        return f"about 1 game in {nice:,}"
    return f"about {p:.0f} games in 100" if p < 10 else f"about {p:.0f} games in 100"


def size_word(points: float) -> str:
    p = abs(points)
    return "tiny" if p < 0.5 else "small" if p < 2 else "clear" if p < 5 else "large"


@dataclass
class Case:
    where: str  # e.g. "prostoy_5, 2 players"
    strategy: str  # the panel strategy that played every seat
    table: pd.DataFrame
    comparison: object = None  # the Comparison behind the table, when there is one

    def row(self, metric: str):
        return self.table.loc[metric]

    def points(self, metric: str) -> float:
        return 100 * float(self.row(metric)["diff"])

    def real(self, metric: str) -> bool:
        return bool(self.row(metric)["significant"])

    def unfinished(self) -> float:
        """The larger unfinished share of the two arms, in percent."""
        if "unfinished" not in self.table.index:
            return 0.0
        r = self.table.loc["unfinished"]
        return 100 * max(float(r["a"]), float(r["b"]))

    def games(self) -> int:
        return int(self.table["games"].max())


def sign(c: Case, metric: str) -> int:
    return 0 if not c.real(metric) else (1 if c.points(metric) > 0 else -1)


def identical(c: Case) -> bool:
    """Both arms played the same game in every deal: the line-up never reached what the arms change."""
    return bool((c.table["paired_se"] == 0).all() and (c.table["diff"] == 0).all())


def answer_word(cases: list[Case], metric: str) -> str:
    """Yes (every case moves the same way), Sometimes (the same way where it moves), No (nowhere),
    It depends (opposite directions)."""
    signs = {sign(c, metric) for c in cases}
    if signs == {0}:
        return "No"
    if len(signs) == 1:
        return "Yes"
    if len(signs - {0}) == 1:
        return "Sometimes"
    return "It depends"


def across_skill(cases: list[Case], metric: str) -> str:
    """Does the answer hold for every panel strategy within each setting?"""
    by_where: dict[str, dict[str, int]] = {}
    for c in cases:
        by_where.setdefault(c.where, {})[c.strategy] = sign(c, metric)
    strategies = sorted({c.strategy for c in cases}, key=[c.strategy for c in cases].index)
    if len(strategies) < 2:
        return f"Only {strategies[0]} play was tried, so this says nothing about other skill levels."
    names = " and ".join(strategies)
    split = {w: d for w, d in by_where.items() if len(set(d.values())) > 1}
    if not split:
        return f"This holds for {names} play alike."
    patterns: dict[str, list[str]] = {}
    for w, d in split.items():
        pat = ", ".join(f"with {s} play " + ("no detectable change" if d[s] == 0 else
                                              ("more" if d[s] > 0 else "less") + " often")
                        for s in strategies if s in d)
        patterns.setdefault(pat, []).append(w)
    return "It depends on how well people play: " + "; ".join(
        f"{pat} ({', '.join(ws)})" for pat, ws in patterns.items()) + "."


def how_sure(cases: list[Case], metric: str) -> str:
    real = [c for c in cases if c.real(metric)]
    n = min(c.games() for c in cases)
    if real and len(real) == len(cases):
        return (f"How sure: very — every change named is real after Holm's adjustment over the metrics compared "
                f"(at least {n:,} paired deals per line-up).")
    if not real:
        mde = max(100 * float(c.row(metric)["mde"]) for c in cases)
        return (f"How sure: no line-up shows a change; with at least {n:,} paired deals each, a change of "
                f"{games_in_100(mde)} would have been seen.")
    return (f"How sure: the changes named are real (Holm-adjusted p below 0.05 over the metrics compared, at least "
            f"{n:,} paired deals per line-up); where we say 'no detectable change' the adjusted test found none, "
            f"though an unadjusted 95% interval may just miss zero.")


def unfinished_note(cases: list[Case], effect_points: float | None) -> str:
    """Unfinished deals named in every verdict; flagged when they outweigh the effect."""
    u = max(c.unfinished() for c in cases)
    worst = max(cases, key=lambda c: c.unfinished())
    text = (f"Unfinished deals (stopped after 1,000 bouts, left out of every rate): at most {u:.2f}%"
            + (f" ({worst.where}, {worst.strategy})" if u > 0 else "") + ".")
    if effect_points is not None and u > abs(effect_points):
        text += (f" That is more than the effect reported ({abs(effect_points):.2f} points), so had those deals "
                 f"been played out the answer could differ.")
    return text


def _head(cases: list[Case], metric: str, rule: str, subject: str, more: str, less: str, split: str):
    """(the verdict's opening sentence, the cases with a real change, the biggest change in points)."""
    word = answer_word(cases, metric)
    real = [c for c in cases if c.real(metric)]
    biggest = max((abs(c.points(metric)) for c in real), default=0.0)
    if word == "No":
        head = f"No — {rule} makes no detectable difference to {subject}."
    elif word in ("Yes", "Sometimes"):
        way = more if real[0].points(metric) > 0 else less
        head = (f"{'Yes' if word == 'Yes' else 'Only in some settings'} — a {size_word(biggest)} effect: with "
                f"{rule}, {way}" + ("." if word == "Yes" else "; elsewhere no detectable change."))
    else:
        head = f"It depends — with {rule}, {split}."
    return head, real, biggest


def rule_verdict(cases: list[Case], metric: str, who: str, rule: str, draws: bool = True) -> str:
    """The plain paragraph for a rule question: does {rule} change how often {who} is the fool?"""
    head, real, biggest = _head(cases, metric, rule, f"how often {who} is the fool",
                                f"{who} is the fool more often", f"{who} is the fool less often",
                                f"{who} is the fool more often in some settings and less often in others")
    parts = []
    for c in cases:
        d = c.points(metric)
        parts.append(f"{c.where}, {c.strategy} play: " + (
            f"{games_in_100(d)} {'more' if d > 0 else 'less'} often" if c.real(metric) else
            "identical games (this line-up never used the rule)" if identical(c) else "no detectable change"))
    text = f"{head} {'; '.join(parts)}. {across_skill(cases, metric)}"
    dec = metric + "_decided"
    if all(dec in c.table.index for c in cases) and not all(identical(c) for c in cases):
        text += (" Among deals decided in both arms (draws left out) the change is " + "; ".join(
            f"{c.where}, {c.strategy}: {c.points(dec):+.2f} points" + ("" if c.real(dec) else " (n.s.)")
            for c in cases if not identical(c)) + ".")
    if draws and all("draw" in c.table.index for c in cases):
        moved = [c for c in cases if c.real("draw") and abs(c.points("draw")) >= 0.1]
        if moved:
            text += (" Part of this is draws: the rule changes the draw rate (" + "; ".join(
                f"{c.where}, {c.strategy}: {c.points('draw'):+.2f} points" for c in moved) +
                "), and a draw counts as nobody being the fool.")
    text += f" {how_sure(cases, metric)} {unfinished_note(cases, biggest if real else None)}"
    return text


def rate_verdict(cases: list[Case], metric: str, what: str, rule: str) -> str:
    """A plain paragraph for a rate that is not a fool rate (draws): A against B per case, with intervals."""
    head, real, biggest = _head(cases, metric, rule, what, f"{what} is higher", f"{what} is lower",
                                f"{what} is higher in some settings and lower in others")
    parts = [f"{c.where}, {c.strategy} play: {100 * float(c.row(metric)['a']):.2f}% against "
             f"{100 * float(c.row(metric)['b']):.2f}% ({c.points(metric):+.2f} points, 95% interval "
             f"[{100 * float(c.row(metric)['lo']):+.2f}, {100 * float(c.row(metric)['hi']):+.2f}])" for c in cases]
    return (f"{head} {'; '.join(parts)}. {across_skill(cases, metric)} {how_sure(cases, metric)} "
            f"{unfinished_note(cases, biggest if real else None)}")


def length_verdict(cases: list[Case], rule: str) -> str:
    """A plain paragraph for game length in bouts."""
    parts = []
    for c in cases:
        r = c.row("bouts")
        a, b = float(r["a"]), float(r["b"])
        ratio = a / b if b else float("nan")
        parts.append(f"{c.where}, {c.strategy} play: {a:.1f} bouts against {b:.1f} ({ratio:.2f} times; difference "
                     f"{float(r['diff']):+.2f} [{float(r['lo']):+.2f}, {float(r['hi']):+.2f}])")
    longer = [c for c in cases if c.real("bouts") and float(c.row("bouts")["diff"]) > 0]
    shorter = [c for c in cases if c.real("bouts") and float(c.row("bouts")["diff"]) < 0]
    head = ("Longer" if longer and not shorter else "Shorter" if shorter and not longer else
            "It depends" if longer and shorter else "About the same")
    return (f"{head}: with {rule} a deal lasts " + "; ".join(parts) + f". {how_sure(cases, 'bouts')} "
            f"{unfinished_note(cases, None)}")


def one_in(rate: float) -> str:
    """A rate (0..1) in a player's words: 'about 1 game in 50', 'about 11 games in 100'."""
    p = 100 * rate
    if p < 0.05:
        return "almost never"
    if p < 10:
        return games_in_100(p)
    return f"about {p:.0f} games in 100"


def tournament_unfinished(ts: list) -> str:
    """Tournaments count finished games only: say how many were not (the worst pair of any tournament)."""
    worst, where = 0.0, ""
    for t in ts:
        for _, r in t.head_to_head().iterrows():
            share = max(0.0, 1 - r["games"] / t.games)
            if share > worst:
                worst, where = share, f"{t.rules.family}, {r['strategy']} vs {r['opponent']}"
    return (f"Unfinished games (stopped after 1,000 bouts, left out of the scores): at most {100 * worst:.2f}%"
            + (f" ({where})" if worst > 0 else "") + ".")


def by_deals(games: dict) -> str:
    """Line-ups by the paired deals each played (`games`: name -> deals), those with the same count together:
    'greedy and expert 500,000, learned 25,000'."""
    names: dict[int, list[str]] = {}
    for name, g in games.items():
        names.setdefault(g, []).append(name)
    return ", ".join(f"{' and '.join(n)} {g:,}" for g, n in names.items())


def strong_play(headlines, strong: str = "learned", base: str = "expert") -> tuple[str, str] | None:
    """Does strong play keep expert's answer? `headlines`: (cases, headline metric[, heading]) per setting. Per setting,
    strong play agrees (the same sign: both up, both down or both no detectable change), cannot tell (no detectable
    change on its fewer deals, but its interval holds expert's estimate) or differs (the other way, or a change
    expert play does not show, or none where its interval excludes expert's). Returns (one plain sentence, the
    word for the index: agrees / cannot tell / differs), or None without both players in a setting."""
    rows = []
    for cases, metric, *heading in headlines:  # the section's heading, where given, names the setting
        by = {c.strategy: c for c in cases}
        if strong not in by or base not in by:
            continue
        e, s = by[base], by[strong]
        se, ss = sign(e, metric), sign(s, metric)
        sc = 1 if metric in COUNTS else 100
        lo, hi = sc * float(s.row(metric)["lo"]), sc * float(s.row(metric)["hi"])
        ed = sc * float(e.row(metric)["diff"])
        kind = "agrees" if se == ss else "cannot tell" if ss == 0 and lo <= ed <= hi else "differs"
        learned = f"{sc * float(s.row(metric)['diff']):+.2f} [{lo:+.2f}, {hi:+.2f}]"
        rows.append((heading[0] if heading else e.where, kind, learned,
                     f"{ed:+.2f}", " " + UNITS.get(metric, "points"), s.games()))
    if not rows:
        return None
    n = min(r[5] for r in rows)
    who = f"Strong play (the learned player, on at least {n:,} paired deals a setting)"
    if all(r[1] == "agrees" for r in rows):
        return f"{who} gives expert's answer in every setting.", "agrees"
    parts = []
    for kind, say in (("differs", "changes expert's answer"), ("cannot tell", "cannot tell on its fewer deals")):
        these = [r for r in rows if r[1] == kind]
        if these:
            parts.append(f"{say} in " + "; ".join(f"{w} (learned {d}{u}, expert {x}{u})" for w, _, d, x, u, _ in
                                                    these))
    agree = [r[0] for r in rows if r[1] == "agrees"]
    if agree:
        parts.append("agrees in " + "; ".join(agree))
    word = "differs" if any(r[1] == "differs" for r in rows) else "cannot tell"
    return f"{who} " + ", ".join(parts) + ".", word
