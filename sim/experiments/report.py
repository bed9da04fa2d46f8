"""Reports of an experiment: Markdown/text tables with 95% intervals, and matplotlib plots."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.experiments.experiment import RATES, Experiment


def pct(p, lo, hi) -> str:
    if p is None or (isinstance(p, float) and np.isnan(p)):
        return "n/a"
    return f"{100 * p:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 game', '2 games', '1,000 games'."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def md_table(df: pd.DataFrame, index_name: str | None = None) -> str:
    """A small Markdown table without extra dependencies."""
    cols = [index_name or df.index.name or ""] + [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for k, row in df.iterrows():
        cells = [str(k)] + [str(v) for v in row.tolist()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _rate_view(df: pd.DataFrame, extra=("mean_place", "cards_taken_per_game")) -> pd.DataFrame:
    out = pd.DataFrame(index=df.index)
    out["seat-games"] = df["games"].map(lambda x: f"{int(x):,}")
    for what in RATES:
        out[what] = [pct(p, lo, hi) for p, lo, hi in zip(df[what], df[f"{what}_lo"], df[f"{what}_hi"])]
    for e in extra:
        if e in df:
            out[e.replace("_", " ")] = df[e].map(lambda x: f"{x:.2f}")
    return out


def sections(exp: Experiment, title: str | None = None) -> list:
    """The report as (heading, DataFrame | list of lines) sections, rendered by markdown() and text()."""
    r = exp.rules
    tot = exp.totals()
    n = r.num_players
    head = [f"rules: {r.describe()}",
            f"strategies: {', '.join(s.label for s in exp.seats)}"
            + (f"; rotated through the seats ({len(exp.lineups)} rotations of every deal)"
               if len(exp.lineups) > 1 else ""),
            f"games: {tot['games']:,} (seed {exp.seed}){_asked(exp, tot['games'])}; "
            f"unfinished: {tot['unfinished']:,} ({100 * tot['unfinished'] / max(tot['games'], 1):.3f}%: no result "
            "after 1,000 bouts, RUL-22; left out of the rates); "
            f"{exp.games_played / max(exp.seconds, 1e-9):,.0f} games/s, not counting the time to compile or "
            "load the engine",
            f"seat-games: every game is counted once for each of its {n} players, so a strategy row counts the "
            "games that strategy played in each seat it held (a strategy on every seat of "
            f"{plural(tot['games'], 'game')} has {n * tot['games']:,} seat-games)",
            "rates: % of seat-games a player escaped (went out), drew, or was the fool; 95% Wilson intervals "
            "in brackets"]
    out = [(title or "durak-sim experiment", head), ("Per strategy", _rate_view(exp.strategy_table()))]
    rotated = len(exp.lineups) > 1
    out.append(("Per seat" + (" (seat effect, strategies rotated)" if rotated else ""),
                _rate_view(exp.seat_table())))
    if rotated and len(set(s.label for s in exp.seats)) > 1:
        t = _rate_view(exp.strategy_seat_table())
        t.index = [f"{k} @ seat {s}" for k, s in t.index]
        t.index.name = "strategy @ seat"
        out.append(("Per strategy and seat", t))
    teams = exp.team_table()
    if teams is not None:
        tv = pd.DataFrame(index=teams.index)
        tv["seats"] = teams["seats"]
        for what in ("won", "drew", "lost"):
            tv[what] = [pct(p, lo, hi) for p, lo, hi in zip(teams[what], teams[f"{what}_lo"], teams[f"{what}_hi"])]
        out.append(("Per team", tv))
    places = exp.places().map(lambda x: f"{100 * x:.1f}%")
    places.index.name = "strategy"
    out.append(("Finishing places (draws apart)", places))
    out.append(("", [_places_note(n)]))
    game = [f"draws: {pct(tot['draw_rate'], tot['draw_lo'], tot['draw_hi'])} of games ended with no fool. "
            + ("With two players both players draw in a drawn game, so each player's 'drew' rate is the same."
               if n == 2 else
               "A player's 'drew' rate counts only the drawn games he was still in at the end: players who went "
               "out earlier in a drawn game count as escaped, so 'drew' is at most the game draw rate."),
            f"mean length: {tot['mean_bouts']:.2f} bouts" if tot["mean_bouts"] is not None else "mean length: n/a",
            "the first attacker is the fool: "
            + pct(tot["first_attacker_fool_rate"], tot["first_attacker_fool_lo"], tot["first_attacker_fool_hi"])]
    if tot["trump_six_exchanges"]:
        game.append(f"trump six exchanged in {plural(tot['trump_six_exchanges'], 'game')}; the exchanger was the "
                    f"fool in {tot['exchanger_fool']:,} of them")
    if tot["transfers_per_game"]:
        game.append(f"transfers per game: {tot['transfers_per_game']:.3f}")
    if tot["unfinished"]:
        game.append(f"unfinished (RUL-22, no result after 1,000 bouts): {plural(tot['unfinished'], 'game')}, "
                    "left out of the rates")
    out.append(("Game", game))
    out += _score_sections(exp)
    return out


SCORING_NAMES = {"pogonny": "Pogonny (VAR-PG1): the most pogony inflicted wins, then the highest pogon",
                 "ochkovy": "Ochkovy (VAR-OC1): the most opponents' cards beaten wins"}


def _score_view(df: pd.DataFrame) -> pd.DataFrame:
    out = pd.DataFrame(index=df.index)
    out["seat-games"] = df["games"].map(lambda x: f"{int(x):,}")
    out["won the score"] = [pct(p, lo, hi) for p, lo, hi in zip(df["score_won"], df["score_won_lo"],
                                                                 df["score_won_hi"])]
    out["cards beaten per game"] = df["points_per_game"].map(lambda x: f"{x:.2f}")
    out["pogony per game"] = df["pogony_per_game"].map(lambda x: f"{x:.3f}")
    return out


def _score_sections(exp: Experiment) -> list:
    """With a scoring variant on: who won the score, per strategy and per seat, and how often the fool did."""
    st = exp.score_totals()
    if st is None:
        return []
    lines = [SCORING_NAMES[st["scoring"]] + "; the deal still has its fool, the score is a second result "
             "(RUL-60..62)",
             "won the score: % of seat-games; a win shared between sides (RUL-62) counts for every winner, and in "
             "a team game every member of the winning team wins it; nobody wins a score of nothing",
             f"somebody won the score: {pct(st['decided_rate'], st['decided_lo'], st['decided_hi'])} of games; "
             f"shared between sides: {pct(st['shared_rate'], st['shared_lo'], st['shared_hi'])}",
             "the fool also won the score: "
             f"{pct(st['fool_won_score_rate'], st['fool_won_score_lo'], st['fool_won_score_hi'])}"
             f" of the {st['games_with_fool']:,} games with a fool"]
    return [("Score", lines), ("Score per strategy", _score_view(exp.strategy_table())),
            ("Score per seat", _score_view(exp.seat_table()))]


def _asked(exp: Experiment, played: int) -> str:
    """Why the game count differs from the one asked for (rounded up to whole deals in every rotation)."""
    if exp.games is None:
        return f"; played until every rate's 95% half-width was below {100 * exp.precision:g} points"
    if played == exp.games or exp.status != "complete":
        return ""
    per = played // max(len(exp.lineups), 1)
    why = (f"each of {plural(per // exp.deals_per_series, 'deal')} is played in all {len(exp.lineups)} seat "
           "rotations, so the count is rounded up to a multiple of the rotations"
           if len(exp.lineups) > 1 else "")
    if exp.deals_per_series > 1:
        why += ("; " if why else "") + f"series have {exp.deals_per_series} deals each"
    return f"; {exp.games:,} asked, {played - exp.games:+,}: {why}"


def _places_note(n: int) -> str:
    if n == 2:
        return ("place 1 = escaped, place 2 = fool; drawn games are in their own column and in neither place")
    return ("place k: the player went out k-th (players going out in the same bout share a place, RUL-21); "
            f"place {n} is the fool. A drawn game's players still in at the end are counted in the 'drew' "
            "column, not in the place they shared, so a row sums to 100%")


def markdown(exp: Experiment, title: str | None = None) -> str:
    lines = []
    for i, (heading, body) in enumerate(sections(exp, title)):
        if heading:
            lines += [("# " if i == 0 else "## ") + heading, ""]
        lines += [md_table(body)] if isinstance(body, pd.DataFrame) else [f"- {x}" for x in body]
        lines.append("")
    return "\n".join(lines)


def text(exp: Experiment) -> str:
    """The terminal report: aligned plain-text tables."""
    lines = []
    for i, (heading, body) in enumerate(sections(exp)):
        if i and heading:
            lines += ["", heading]
        if isinstance(body, pd.DataFrame):
            lines.append(body.to_string())
        else:
            lines += [("  " if i else "") + x for x in body]
    return "\n".join(lines)


def finish(fig, path: Path | None = None):
    """Lay out a figure; with a path, save it and free it (batch use), else return it (notebooks)."""
    import matplotlib.pyplot as plt
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=120)
        plt.close(fig)
    return fig


def plot_rates(exp: Experiment, path: Path | None = None):
    """Escape / draw / fool rates per strategy with 95% error bars."""
    import matplotlib.pyplot as plt
    df = exp.strategy_table()
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(df) + 2), 3.6))
    x = np.arange(len(df))
    w = 0.27
    for i, what in enumerate(RATES):
        p = df[what].to_numpy()
        # clipped: at a rate of exactly 0 or 1 the interval's end can differ from it by a rounding error
        err = np.clip(np.vstack([p - df[f"{what}_lo"].to_numpy(), df[f"{what}_hi"].to_numpy() - p]), 0, None)
        ax.bar(x + (i - 1) * w, 100 * p, w, yerr=100 * err, capsize=3, label=what)
    ax.set_xticks(x, df.index, rotation=15)
    ax.set_ylabel("% of games")
    ax.set_title(f"{exp.rules.describe()}: rates with 95% intervals", fontsize=9)
    ax.legend(fontsize=8)
    return finish(fig, path)


def plot_lengths(exp: Experiment, path: Path | None = None):
    import matplotlib.pyplot as plt
    h = exp.length_hist()
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    ax.bar(h.index, h.to_numpy() / max(h.sum(), 1), width=1.0)
    ax.set_xlabel("game length (bouts)")
    ax.set_ylabel("share of games")
    ax.set_title(f"{exp.rules.describe()}", fontsize=9)
    return finish(fig, path)


def write_outputs(exp: Experiment, title: str | None = None, plots: bool = True) -> list[Path]:
    """report.md, aggregates.parquet, summary.json and (`plots`) the plots into the experiment folder. The CLI's
    `run` draws them only when asked: importing matplotlib and drawing take longer than a short run itself."""
    import json
    out = exp.out
    files = []
    (out / "report.md").write_text(markdown(exp, title))
    files.append(out / "report.md")
    agg = exp.strategy_seat_table().reset_index()
    agg.to_parquet(out / "aggregates.parquet", index=False)
    files.append(out / "aggregates.parquet")
    (out / "summary.json").write_text(json.dumps(exp.summary(), indent=1, default=str))
    files.append(out / "summary.json")
    if plots:
        plot_rates(exp, out / "rates.png")
        plot_lengths(exp, out / "lengths.png")
        files += [out / "rates.png", out / "lengths.png"]
    return files
