"""The rule atlas: every toggle value and played variant against its family's default, on the same deals.

A *cell* is one question: one rule setting (a toggle value, or a §6 variant) in one family at one player count,
played by one panel level in every seat. Both arms (the rule on; the family's default) play the same series
(same packs, same dealers, same per-game streams), so every metric is a paired difference.

Each cell is played in *looks* (a doubling schedule up to the plan's maximum) and may stop at a look. The
sequential rule is a group-sequential design with an O'Brien-Fleming-type alpha-spending function
(Lan-DeMets, f(t) = 2 - 2 Phi(z_{1-a/2} / sqrt(t)) at information fraction t = deals / max deals). The alpha
spent at look k, f(t_k) - f(t_{k-1}), sets that look's two-sided boundary c_k; by the union bound the chance
that any look's interval misses the true difference is at most the sum spent, a. The intervals reported are
the repeated confidence intervals diff +- c_k * se at the look where the cell stopped, so they keep their
coverage whatever made the cell stop. The cell's a = 5% is split evenly (Bonferroni) over its metrics, so
the chance that a cell shows any change that is not there is at most 5%. A cell stops at a look when every
rate metric is settled: its interval excludes zero (a detectable change) or is narrower than the plan's
precision. Where the arms played identical games in every deal so far, a rate's interval is the bound on the
share of deals where play could differ unseen (1 - a^(1/n)), so such a cell too stops only once that is narrow.

Cells run as tasks (sim.experiments.tasks.PairedChunk) on the active backend, threads or Dask, several cells
at once; each finished cell is written at once to `cells/*.json` in the output folder, so a stopped atlas
resumes where it was. The site (sim.experiments.atlas_site) is built from those files.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import queue
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pandas as pd

from sim.core import rules as R
from sim.experiments import backends, batch, tasks
from sim.experiments.batch import ExperimentError
from sim.experiments.compare import SHARE, default_panel
from sim.experiments.experiment import git_commit
from sim.experiments.paired import PairedSums, metric_names, rotate

FORMAT = "durak-sim atlas 1"
PLAYERS = (2, 3, 4, 6)
ALPHA = 0.05
_N = NormalDist()

# metric key -> (what a player reads, unit, scale to the unit shown)
METRICS = {
    "first_attacker_fool": ("the first attacker is the fool", "points", 100),
    "first_defender_fool": ("the first defender is the fool", "points", 100),
    "draw": ("a game is drawn", "points", 100),
    "bouts": ("game length", "bouts", 1),
    "fool_cards": ("cards left in the fool's hand", "cards", 1),
    "six_holder_fool": ("the player dealt the trump six is the fool", "points", 100),
    "ace_holder_fool": ("the player dealt the trump ace is the fool", "points", 100),
    # the skill row: one player of the strongest level among the weakest (role 0 of that line-up)
    "fool_role0": ("the one strong player among weak ones is the fool", "points", 100),
}
RATE_METRICS = tuple(k for k, (_, u, _) in METRICS.items() if u == "points")
BASE_METRICS = ("first_attacker_fool", "first_defender_fool", "draw", "bouts", "fool_cards")
# the rule's own subject, where the records name one (the holder of the trump six or ace as dealt)
SUBJECT = {"trump_six_exchange": ("six_holder_fool",), "trump_six_exchange_timing": ("six_holder_fool",),
           "trump_six_beats_trump_ace": ("six_holder_fool", "ace_holder_fool")}


MIXED = "-among-"  # a level "expert-among-greedy": one expert, every other seat greedy, rotated through the seats


def cell_metrics(rule: str, level: str = "") -> tuple:
    return BASE_METRICS + SUBJECT.get(rule, ()) + (("fool_role0",) if MIXED in level else ())


def mixed_level(panel) -> str | None:
    """The skill level of a panel of two or more: its strongest (last) player among its weakest (first)."""
    return f"{panel[-1]}{MIXED}{panel[0]}" if len(panel) >= 2 else None


@dataclass(frozen=True)
class Plan:
    """How much each cell may play: at most `max_deals` per level, looked at `looks` times (doubling up to
    the maximum), stopping once every rate is settled to `precision` points (the interval's half-width)."""
    name: str
    max_deals: int
    looks: int
    precision: float  # points
    chunk: int = 4096
    more: tuple = ()  # (level, factor): a cheap level may play `factor` times the deals (greedy is ~100x faster)

    def schedule(self, level: str = "") -> list[int]:
        top = self.max_deals * dict(self.more).get(level, 1)
        return [max(1, int(round(top / 2 ** (self.looks - 1 - k)))) for k in range(self.looks)]


SCALES = {
    "tiny": Plan("tiny", 400, 2, 5.0, chunk=400),
    "small": Plan("small", 160, 2, 5.0, chunk=640, more=(("greedy", 4),)),
    "medium": Plan("medium", 2000, 3, 2.0, more=(("greedy", 4),)),
    "full": Plan("full", 6000, 4, 1.0, more=(("greedy", 8),)),
}


def plan_for(scale) -> Plan:
    """A scale name (tiny, small, medium, full) or a number (that fraction of the full plan's deals)."""
    if isinstance(scale, Plan):
        return scale
    if str(scale) in SCALES:
        return SCALES[str(scale)]
    try:
        x = float(scale)
    except (TypeError, ValueError):
        raise ExperimentError(f"--scale must be one of {', '.join(SCALES)} or a number above 0, not {scale!r}") \
            from None
    if not (math.isfinite(x) and 0 < x <= 100):
        raise ExperimentError(f"--scale must be one of {', '.join(SCALES)} or a number above 0 and at most 100, "
                              f"not {scale!r}")
    full = SCALES["full"]
    return Plan(f"{x:g}", max(100, int(full.max_deals * x)), full.looks, full.precision, more=full.more)


def boundaries(looks: int, alpha: float, fractions=None) -> list[float]:
    """Two-sided z boundaries of a group-sequential design: O'Brien-Fleming-type alpha spending over the
    information fractions (default: doubling up to 1), each look's increment of spent alpha turned into
    its own boundary (Bonferroni over the looks, so the overall error rate is at most `alpha`)."""
    ts = fractions or [1 / 2 ** (looks - 1 - k) for k in range(looks)]
    za = _N.inv_cdf(1 - alpha / 2)
    spent = [2 - 2 * _N.cdf(za / math.sqrt(t)) for t in ts]
    out, prev = [], 0.0
    for s in spent:
        inc = max(s - prev, 1e-300)
        out.append(_N.inv_cdf(1 - inc / 2) if inc < 1 else 0.0)
        prev = s
    return out


# ---- cells --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    rule: str    # a toggle name, or "variant"
    value: str   # the value as typed (the variant's name for a variant)
    family: str
    players: int
    level: str   # the panel strategy that plays every seat, or "strong-among-weak" (see MIXED)

    @property
    def toggles(self) -> dict:
        return {self.rule: self.value}

    @property
    def rule_key(self) -> str:
        """The row of the atlas: 'toggle=value', or the variant's name."""
        return self.value if self.rule == "variant" else f"{self.rule}={self.value}"

    @property
    def setting(self) -> str:
        return f"{self.family} {self.players}p"

    @property
    def id(self) -> str:
        return f"{self.rule_key}@{self.family}-{self.players}p@{self.level}"

    def specs(self) -> list[str]:
        """The line-up: the level in every seat, or the strong player in seat 0 and the weak one elsewhere."""
        if MIXED in self.level:
            strong, weak = self.level.split(MIXED)
            return [strong] + [weak] * (self.players - 1)
        return [self.level]

    def rotations(self) -> int:
        """A mixed line-up plays every deal once per seat of the strong player; a uniform one once."""
        return self.players if MIXED in self.level else 1

    def file_name(self) -> str:
        safe = "".join(ch if ch.isalnum() or ch in "-_=." else "_" for ch in self.id.replace("@", "__"))
        return safe + ".json"

    def seed(self, master: int) -> int:
        """The cell's seed: from the master seed and the question (not the level: every level plays the same
        deals, so levels compare on the same packs)."""
        text = f"{master}/{self.family}/{self.players}/{self.rule_key}"
        return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)

    def reproduce(self, master: int, deals: int) -> str:
        specs = " ".join(f"--strategy {s}" for s in (self.specs() if MIXED in self.level else [self.level]))
        return (f"durak compare --rules {self.family} --players {self.players} --a {self.rule}={self.value} "
                f"{specs} --games {deals} --seed {self.seed(master)}")


def _played_values(t: R.Toggle) -> tuple:
    return t.values if t.implemented is None else t.implemented


def questions(players=PLAYERS, families=R.FAMILIES, only=None) -> tuple[list[tuple], list[dict]]:
    """Every (rule, value, family, players) the engine plays that differs from the family's default, and
    the ones left out with why: a rules check refuses the combination; the engine sees the same rules as the
    default (a setting that matters only under another toggle); or a variant that is exactly one toggle
    already in the atlas (its `same_as` names that toggle's row, which answers for it). `only` keeps the
    toggles and variants named."""
    keep, skipped = [], []
    seen = {}  # (family, players, the engine's rules vector) -> the row that plays it
    items = [(t.name, R.format_value(v), t.families) for t in R.TOGGLES if t.name != "variant"
             for v in _played_values(t)]
    items += [("variant", v.name, v.families) for v in R.VARIANTS if R.variant_played(v)]
    if only:
        unknown = set(only) - {name for name, _, _ in items} - {v for n, v, _ in items if n == "variant"}
        if unknown:
            raise ExperimentError(f"unknown toggle or played variant {sorted(unknown)[0]!r}; `durak rules` lists them")
        items = [it for it in items if it[0] in only or (it[0] == "variant" and it[1] in only)]
    for name, value, fams in items:
        for fam in families:
            if fam not in fams:
                continue
            if name != "variant" and value == R.format_value(R.TOGGLE_BY_NAME[name].default(fam)):
                continue
            for n in players:
                try:
                    ra = R.resolve(fam, n, {name: value})
                    rb = R.resolve(fam, n)
                except R.RulesError as e:
                    skipped.append({"rule": name, "value": value, "family": fam, "players": n, "why": str(e)})
                    continue
                va = ra.vector()
                if np.array_equal(va, rb.vector()):
                    skipped.append({"rule": name, "value": value, "family": fam, "players": n,
                                    "why": "the engine plays the default rules (another name for the default, "
                                           "or a setting that matters only with another toggle on)"})
                    continue
                key = (fam, n, va.tobytes())
                if key in seen:
                    skipped.append({"rule": name, "value": value, "family": fam, "players": n,
                                    "why": f"the same rules as {seen[key]}", "same_as": seen[key]})
                    continue
                seen[key] = value if name == "variant" else f"{name}={value}"
                keep.append((name, value, fam, n))
    return keep, skipped


# ---- the statistics of one cell -----------------------------------------------------------------------------
def summarise(sums: dict, names: list, metrics, bound: float) -> dict:
    """metric -> {a, b, diff, lo, hi, se, n, detectable} with the repeated confidence interval diff +- bound*se."""
    keys = [k for k, _ in names]
    out = {}
    for m in metrics:
        i = keys.index(m)
        n = float(sums["n"][i])
        if n < 2:
            continue
        ma, mb = sums["sa"][i] / n, sums["sb"][i] / n
        d = ma - mb
        var_d = max((sums["saa"][i] + sums["sbb"][i] - 2 * sums["sab"][i]) / n - d * d, 0.0) * n / (n - 1)
        se = math.sqrt(var_d / n)
        lo, hi = d - bound * se, d + bound * se
        if se == 0 and d == 0 and m in RATE_METRICS:
            # the arms played the same in every deal: a rate can differ only by the share of deals where play
            # differs, and with none in n deals that share is below 1 - a^(1/n) (a: this look's alpha)
            share = 1 - (2 * (1 - _N.cdf(bound))) ** (1 / n)
            lo, hi = -share, share
        out[m] = {"a": ma, "b": mb, "diff": d, "lo": lo, "hi": hi, "se": se, "n": int(n),
                  "detectable": bool(lo > 0 or hi < 0)}
    return out


def settled(summary: dict, precision_points: float) -> bool:
    """Every rate metric's interval excludes zero or is narrower than the precision (points)."""
    for m, s in summary.items():
        if m in RATE_METRICS and not s["detectable"] and 100 * (s["hi"] - s["lo"]) / 2 > precision_points:
            return False
    return True


def identical(sums: dict) -> bool:
    """Both arms played the same game in every deal: every paired difference is zero."""
    return bool(np.all(np.asarray(sums["saa"]) + np.asarray(sums["sbb"]) - 2 * np.asarray(sums["sab"]) == 0)
                and np.all(np.asarray(sums["sa"]) == np.asarray(sums["sb"])))


@dataclass
class _State:
    cell: Cell
    seed: int
    names: list
    metrics: tuple
    bounds: list
    sums: PairedSums
    look: int = 0
    pending: int = 0
    played: int = 0
    looks_done: list = field(default_factory=list)
    t0: float = field(default_factory=time.perf_counter)


def play_group(group: tuple) -> dict:
    """A look's chunks of one cell played as one task (a mixed cell has one per rotation): their paired sums
    added (whole numbers, so the total is exact in any order). Fewer, larger tasks: the per-task cost of small
    looks would otherwise rival the games."""
    total = None
    for ch in group:
        out = tasks.play_paired(ch)
        if total is None:
            total = out
        else:
            for f, v in out.items():
                total[f] = total[f] + v
    return total


# ---- the atlas ------------------------------------------------------------------------------------------------
class AtlasError(ExperimentError):
    """Bad atlas input, or a folder that holds another plan's atlas."""


@dataclass
class Atlas:
    out: Path
    scale: str | float = "small"
    seed: int = 1
    panel: tuple = ()
    players: tuple = PLAYERS
    families: tuple = R.FAMILIES
    rules: tuple = ()  # only these toggles / variants (empty: all)
    threads: int | None = None
    skill: bool = True  # add the mixed level (the panel's strongest among its weakest) when the panel has two
    plan: Plan = field(init=False)
    cells: list = field(init=False)
    skipped: list = field(init=False)

    def __post_init__(self):
        self.out = Path(self.out)
        self.plan = plan_for(self.scale)
        # by default the levels that play every deal: learned's share of them (SHARE) would leave its cells too
        # wide to read, and all of them take it days (name it with --panel to add it)
        self.panel = tuple(self.panel) or tuple(p for p in default_panel() if p not in SHARE)
        for s in self.panel:
            batch.parse_strategy(s)  # an unknown strategy is named before anything is played
        bad = [p for p in self.players if not (isinstance(p, int) and 2 <= p <= 6)]
        if bad:
            raise AtlasError(f"players must be 2 to 6, not {bad[0]!r}")
        bad = [f for f in self.families if f not in R.FAMILIES]
        if bad:
            raise AtlasError(f"unknown rules preset {bad[0]!r}; choose from {', '.join(R.FAMILIES)}")
        found, self.skipped = questions(self.players, self.families, self.rules or None)
        self.levels = self.panel + ((mixed_level(self.panel),) if self.skill and len(self.panel) >= 2 else ())
        self.cells = [Cell(n, v, f, p, lv) for (n, v, f, p) in found for lv in self.levels]
        if not self.cells:
            raise AtlasError("no rule applies to these families and player counts")

    # -- plan and cost
    def config(self) -> dict:
        return {"format": FORMAT, "plan": asdict(self.plan), "seed": self.seed, "panel": list(self.panel),
                "levels": list(self.levels),
                "players": list(self.players), "families": list(self.families), "rules": list(self.rules),
                "alpha": ALPHA, "sequential": "O'Brien-Fleming-type alpha spending (Lan-DeMets), Bonferroni over "
                "looks and over each cell's metrics; repeated confidence intervals"}

    def cell_path(self, c: Cell) -> Path:
        return self.out / "cells" / c.file_name()

    def done(self) -> list[Cell]:
        return [c for c in self.cells if self.cell_path(c).is_file()]

    def measure(self, seconds: float = 0.4) -> dict:
        """Games per second of each level at each player count ((level, players) -> rate; the family's
        default rules, podkidnoy where it is planned), timed here on one thread for about `seconds` each: the
        basis of the cost estimate. A strong player's cost grows fast with the players (expert: some 20 times
        slower at 6 than at 2), so each count is timed."""
        rates = {}
        fam = "podkidnoy" if "podkidnoy" in self.families else self.families[0]
        for n in self.players:
            rules = R.resolve(fam, n)
            for lv in self.panel:
                runner = batch.Runner(rules, batch.make_lineup(rules, [lv]), also=self.panel)
                runner.play_raw(0, 0, 1)  # compile or load first
                deals, took = 10, 0.0
                while took < seconds and deals < 1 << 20:
                    deals *= 4
                    t0 = time.perf_counter()
                    runner.play_raw(0, 0, deals)
                    took = time.perf_counter() - t0
                rates[lv, n] = deals / max(took, 1e-6)
            for lv in self.levels[len(self.panel):]:  # a mixed line-up: about its players' average cost
                strong, weak = lv.split(MIXED)
                rates[lv, n] = 1 / ((1 / rates[strong, n] + (n - 1) / rates[weak, n]) / n)
        return rates

    def estimate(self, rates: dict | None = None) -> dict:
        """What the atlas will cost: cells, deals (at most, and the first look's), and the time at the measured
        games/s on this machine's cores (every cell plays both arms)."""
        rates = rates or self.measure()
        todo = [c for c in self.cells if not self.cell_path(c).is_file()]
        sched = self.plan.schedule()
        cores = self.threads or os.cpu_count() or 1
        worst = sum(2 * self.plan.schedule(c.level)[-1] / rates[c.level, c.players] for c in todo) / cores
        least = sum(2 * self.plan.schedule(c.level)[0] / rates[c.level, c.players] for c in todo) / cores
        return {"cells": len(self.cells), "to_play": len(todo), "max_deals_per_cell": sched[-1],
                "looks": sched, "max_deals": sum(self.plan.schedule(c.level)[-1] for c in todo), "games_per_s": rates,
                "seconds_at_most": worst, "seconds_at_least": least}

    # -- playing
    def _write_config(self):
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / "atlas.json"
        mine = json.loads(json.dumps(self.config()))  # as read back (tuples become lists)
        if path.is_file():
            theirs = json.loads(path.read_text())
            if {k: theirs.get(k) for k in mine} != mine:
                raise AtlasError(f"{path} holds an atlas of another plan (scale, seed, panel, players, families or "
                                 f"rules differ); give another --out or the same options")
        else:
            path.write_text(json.dumps({**mine, "commit": git_commit()}, indent=1))
        (self.out / "skipped.json").write_text(json.dumps(self.skipped, indent=0))

    def _state(self, c: Cell, names_of: dict) -> _State:
        key = (c.family, c.players, c.level)
        if key not in names_of:
            rules = R.resolve(c.family, c.players)
            names_of[key] = metric_names(batch.make_lineup(rules, c.specs()), c.players)
        names = names_of[key]
        metrics = cell_metrics(c.rule, c.level)
        bounds = boundaries(self.plan.looks, ALPHA / len(metrics))
        return _State(c, c.seed(self.seed), names, metrics, bounds, PairedSums(len(names)))

    def _chunks(self, st: _State, lineups: list):
        """The next look's tasks: series [s0, s1) of every rotation (deals per rotation: the look's deals over
        the rotations, rounded up, so a mixed cell plays whole rotations as `durak compare` does)."""
        k = len(lineups)
        sched = [-(-x // k) for x in self.plan.schedule(st.cell.level)]
        s0 = sched[st.look - 1] if st.look else 0
        s1 = sched[st.look]
        out = []
        for a in range(s0, s1, self.plan.chunk):
            out.append(tuple(tasks.PairedChunk(la, lb, r, st.seed, st.seed, a, min(self.plan.chunk, s1 - a))
                             for r, (la, lb) in enumerate(lineups)))
        return out

    def run(self, progress=None) -> "Atlas":
        """Play every cell not yet in the folder; progress(done_cells, total_cells, deals_played) after each."""
        self._write_config()
        todo = [c for c in self.cells if not self.cell_path(c).is_file()]
        (self.out / "cells").mkdir(parents=True, exist_ok=True)
        names_of: dict = {}
        pool = backends.pool(self.threads)
        lineups = {}
        for c in todo:
            ra, rb = R.resolve(c.family, c.players, c.toggles), R.resolve(c.family, c.players)
            sa, sb = batch.make_lineup(ra, c.specs()), batch.make_lineup(rb, c.specs())
            # one engine holds the whole panel: one compile serves every level; rotation r seats role k at
            # seat (k + r) % n in both arms
            lineups[c] = [(tasks.lineup(ra, rotate(sa, r), (), self.panel), tasks.lineup(rb, rotate(sb, r), (),
                                                                                       self.panel))
                          for r in range(c.rotations())]
        warm = {c.level: lineups[c][0][1] for c in todo}
        pool.warm(tasks.warm, list(warm.values()))
        if progress:
            progress(len(self.cells) - len(todo), len(self.cells), 0)
        results: queue.Queue = queue.Queue()
        waiting = list(reversed(todo))  # cells not started
        active: dict = {}
        queued: list = []  # (state, chunk) not yet submitted
        in_flight = 0
        width = 2 * pool.width
        deals = 0
        finished = len(self.cells) - len(todo)
        try:
            while waiting or queued or in_flight:
                while in_flight < width and (queued or waiting):
                    if not queued:
                        c = waiting.pop()
                        st = self._state(c, names_of)
                        active[c] = st
                        queued.extend((st, ch) for ch in self._chunks(st, lineups[c]))
                        st.pending = len(queued)
                        continue
                    st, ch = queued.pop(0)
                    fut = pool.submit(play_group, ch)
                    fut.add_done_callback(lambda f, st=st: results.put((st, f)))
                    in_flight += 1
                st, fut = results.get()
                in_flight -= 1
                out = fut.result()
                n = out.pop("games")
                for f, v in out.items():
                    setattr(st.sums, f, getattr(st.sums, f) + np.asarray(v))
                st.played += n
                deals += 2 * n
                st.pending -= 1
                if st.pending:
                    continue
                if self._look_done(st):
                    del active[st.cell]
                    finished += 1
                    if progress:
                        progress(finished, len(self.cells), deals)
                else:
                    chunks = self._chunks(st, lineups[st.cell])
                    st.pending = len(chunks)
                    queued[:0] = [(st, ch) for ch in chunks]  # a cell under way goes first: it frees memory
        finally:
            pool.close()
        return self

    def _look_done(self, st: _State) -> bool:
        """A look is in: decide to stop (write the cell) or to play the next look."""
        sums = {f: getattr(st.sums, f) for f in ("n", "sa", "sb", "saa", "sbb", "sab")}
        bound = st.bounds[st.look]
        summary = summarise(sums, st.names, st.metrics, bound)
        st.looks_done.append({"deals": st.played, "bound": bound})
        last = st.look == self.plan.looks - 1
        reason = None
        if settled(summary, self.plan.precision):
            reason = "identical" if identical(sums) else "settled"
        elif last:
            reason = "max_deals"
        if reason is None:
            st.look += 1
            return False
        c = st.cell
        doc = {"format": FORMAT, "cell": asdict(c), "rule_key": c.rule_key, "seed": st.seed, "deals": st.played,
               "looks": st.looks_done, "stopped": reason, "metrics": list(st.metrics),
               "names": [list(x) for x in st.names],
               "sums": {f: [float(x) for x in v] for f, v in sums.items()}, "summary": summary,
               "seconds": round(time.perf_counter() - st.t0, 3), "reproduce": c.reproduce(self.seed, st.played)}
        path = self.cell_path(c)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc, indent=None))
        tmp.replace(path)
        return True

    # -- reading
    def table(self) -> pd.DataFrame:
        """One row per finished cell and metric: the rule, setting, level, the two arms' means, the difference
        with its repeated confidence interval, whether the change is detectable, deals, seed and why it stopped."""
        return read_cells(self.out)


def read_cells(folder: Path) -> pd.DataFrame:
    """The finished cells of an atlas folder as one long table (see Atlas.table)."""
    rows = []
    for p in sorted((Path(folder) / "cells").glob("*.json")):
        doc = json.loads(p.read_text())
        c = doc["cell"]
        for m, s in doc["summary"].items():
            what, unit, scale = METRICS[m]
            rows.append({"rule": c["rule"], "value": c["value"], "rule_key": doc["rule_key"], "family": c["family"],
                         "players": c["players"], "level": c["level"], "metric": m, "what": what, "unit": unit,
                         "a": scale * s["a"], "b": scale * s["b"], "diff": scale * s["diff"],
                         "lo": scale * s["lo"], "hi": scale * s["hi"], "detectable": s["detectable"],
                         "deals": doc["deals"], "seed": doc["seed"], "stopped": doc["stopped"],
                         "reproduce": doc["reproduce"]})
    cols = ["rule", "value", "rule_key", "family", "players", "level", "metric", "what", "unit", "a", "b", "diff",
            "lo", "hi", "detectable", "deals", "seed", "stopped", "reproduce"]
    return pd.DataFrame(rows, columns=cols)
