"""Turn a run's tally into tables (pandas) and a machine-readable summary."""
from __future__ import annotations

import pandas as pd

from sim.batch import RunResult
from sim.stats import wilson


def seat_table(res: RunResult) -> pd.DataFrame:
    """Per seat: counts and rates of escaped / drew / fool with 95% Wilson intervals."""
    t = res.tally
    n = t.finished
    rows = []
    for s, seat in enumerate(res.seats):
        row = {"seat": s, "strategy": seat.label}
        for what, arr in (("escaped", t.escaped), ("drew", t.drew), ("fool", t.fool)):
            lo, hi = wilson(arr[s], n)
            row[what] = int(arr[s])
            row[f"{what}_rate"] = arr[s] / n if n else float("nan")
            row[f"{what}_lo"] = float(lo)
            row[f"{what}_hi"] = float(hi)
        row["cards_taken_per_game"] = t.taken[s] / n if n else float("nan")
        rows.append(row)
    return pd.DataFrame(rows).set_index("seat")


def summary(res: RunResult) -> dict:
    t = res.tally
    n = t.finished
    seats = []
    for s, seat in enumerate(res.seats):
        seats.append({"seat": s, "strategy": seat.label, "escaped": int(t.escaped[s]), "drew": int(t.drew[s]),
                      "fool": int(t.fool[s]), "cards_taken": int(t.taken[s])})
    r = res.rules
    return {
        "games": t.games, "finished": n, "unfinished": t.unfinished, "seed": res.seed,
        "rules": {"family": r.family, "players": r.num_players, "toggles": r.toggles, "teams": r.teams},
        "seats": seats, "draws": t.draws, "mean_bouts": t.bouts / n if n else None,
        "first_attacker_fool": t.first_attacker_fool, "trump_six_exchanges": t.exchanges,
        "exchanger_fool": t.exchanger_fool, "transfers": t.transfers,
        "seconds": round(res.seconds, 3), "threads": res.threads,
    }


def _pct(k, n):
    if n == 0:
        return "n/a"
    lo, hi = wilson(k, n)
    return f"{100 * k / n:6.2f}% [{100 * lo:5.2f}, {100 * hi:5.2f}]"


def text_report(res: RunResult) -> str:
    t = res.tally
    n = t.finished
    lines = [f"{res.rules.describe()}: {t.games:,} games, seed {res.seed}, "
             f"{t.games / max(res.seconds, 1e-9):,.0f} games/s on {res.threads} threads",
             "rates with 95% Wilson intervals"]
    teams = res.rules.teams
    if teams:
        lines.append("teams: " + "  ".join(f"{k}: seats {', '.join(map(str, m))}" for k, m in enumerate(teams)))
    w = max(len(s.label) for s in res.seats)
    lines.append(f"{'seat':>4}  {'strategy':<{w}}  {'escaped':>24}  {'drew':>24}  {'fool':>24}")
    for s, seat in enumerate(res.seats):
        lines.append(f"{s:>4}  {seat.label:<{w}}  {_pct(t.escaped[s], n):>24}  {_pct(t.drew[s], n):>24}  "
                     f"{_pct(t.fool[s], n):>24}")
    lines.append(f"draws: {_pct(t.draws, n).strip()}   mean length: {t.bouts / n if n else 0:.2f} bouts")
    lines.append(f"first attacker is the fool: {_pct(t.first_attacker_fool, n).strip()}")
    if t.exchanges:
        lines.append(f"trump six exchanged in {_pct(t.exchanges, n).strip()} of games; "
                     f"the exchanger was the fool in {_pct(t.exchanger_fool, t.exchanges).strip()} of those")
    if t.transfers:
        lines.append(f"transfers per game: {t.transfers / n:.3f}")
    if t.unfinished:
        lines.append(f"unfinished (no result after the bout cap, RUL-22): {t.unfinished:,} games, "
                     f"left out of the rates above")
    return "\n".join(lines)
