"""Settled arguments: the framework that turns a question file into a results folder (`durak settle NAME`).

A question is one small module in the library's `questions/` folder or in a folder given with
`--question-path` (the file name is the question's name, underscores for dashes). It holds hooks:

- `TITLE` (one line) and `QUESTION` (the argument in a player's words); optional `ORDER` (its place in
  `durak settle all` and the results index) and `PANEL = False` (a tournament: no panel of line-ups);
- either the compare hooks — `SETTINGS` (a list of (family, players)), `A` and `B` (the toggles of the two
  arms), `GAMES` (per panel strategy, at scale 1), `METRICS` (the headline rows) and `answer(ctx, cases)`
  (the plain answer from one `Case` per setting and panel strategy) —
- or `run(ctx)`, which runs its own experiments through `Ctx`, adds lines, tables and plots, and returns the
  plain answer.

The framework loads question files by path (as sim.core.dispatch loads strategies) and keeps everything they
share: `Ctx` (the panel, comparisons, experiments, the table section), the plots, the README with its
reproduce line and timing line, and the machine-readable outputs (aggregates only, never per-game records).
Verdict wording lives in sim.experiments.plain. `scale` shrinks every experiment (the tests use a tiny
scale; the committed folders scale 1).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable

import pandas as pd

from sim.experiments import batch
from sim.experiments import provenance as P
from sim.core import rules as R
from sim.experiments.compare import DECIDED, default_panel, panel_games, plot_comparison, run_panel
from sim.experiments.plain import COUNTS, Case, by_deals, strong_play
from sim.experiments.experiment import Experiment
from sim.experiments.report import finish

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
LIBRARY = ROOT / "questions"  # the library's questions (a package beside sim/ and strategies/)
TIMING_PREFIX = "Generation time:"  # the only line of a question folder that differs between reruns
COMPARE_HOOKS = ("SETTINGS", "A", "B", "GAMES", "METRICS", "answer")
HEADLINE_ALWAYS = ("draw", "unfinished")  # rows of every comparison table


class QuestionError(ValueError):
    """An unknown question, a missing question folder, or a question file that does not follow the template."""


@dataclass
class Ctx:
    scale: float
    seed: int
    threads: int | None
    folder: Path
    lines: list
    data: dict
    panel: list = None  # every rule question is answered once per panel strategy
    strategy_paths: tuple = ()  # folders of user strategies the panel may name
    headlines: list = field(default_factory=list)  # (cases, headline metric, heading) per section: strong_play

    def __post_init__(self):
        self.panel = list(self.panel or default_panel())

    def n(self, games: int) -> int:
        return max(2000, int(games * self.scale))

    def compare(self, family, players, a, b, games, label=None, where=None) -> list[Case]:
        """The two rule sets played by each panel strategy in every seat (compare's panel code), on the
        same deals; one table and plot per strategy. Returns one Case per panel strategy."""
        ra, rb = R.resolve(family, players, a), R.resolve(family, players, b)
        la = ", ".join(f"{k}={R.format_value(v)}" for k, v in a.items()) or "A"
        lb = ", ".join(f"{k}={R.format_value(v)}" for k, v in b.items()) or "B"
        results = run_panel(ra, rb, la, lb, self.panel, self.seed, self.n(games), threads=self.threads,
                            paths=tuple(self.strategy_paths))
        key = label or f"{family}-{players}p"
        cases = []
        for name, c in results.items():
            t = c.table()
            self.data[f"compare-{key}-{name}"] = t.reset_index()
            plot_comparison(c, self.folder / f"compare-{key}-{name}.png")
            cases.append(Case(where or f"{family}, {players} players", name, t, c))
        return cases

    def experiment(self, family, players, strategies, games, toggles=None, rotate=True):
        rules = R.resolve(family, players, toggles or {})
        n = self.n(games)
        if len(set(strategies)) == 1:  # a panel strategy in every seat plays its share (compare.SHARE)
            n = panel_games(strategies[0], n)
        exp = Experiment(rules, batch.make_lineup(rules, strategies, self.strategy_paths), seed=self.seed,
                         games=n, threads=self.threads, rotate=rotate, paths=self.strategy_paths).run()
        return exp

    def section(self, heading: str, cases: list[Case], metrics: list[str], key: str) -> None:
        """One setting (family, players) as played by each panel strategy: the mechanical verdict per strategy,
        then one table with the headline metrics, their decided-deal versions, draws and unfinished deals,
        then the plots (`key` names them, as ctx.compare's label does)."""
        c0 = cases[0].comparison
        self.headlines.append((cases, metrics[0], heading))
        self.lines += [f"### {heading}", "", f"- A: {c0.a.rules.describe()}", f"- B: {c0.b.rules.describe()}",
                       f"- panel: {', '.join(c.strategy for c in cases)} (each plays every seat); paired games on "
                       f"the same deals per line-up: {by_deals({c.strategy: c.games() for c in cases})}", ""]
        for c in cases:
            self.lines += [f"*Played by {c.strategy}:* {c.comparison.verdict(metrics[0])}", ""]
        rows = []
        for m in metrics:
            rows += [m] + ([m + DECIDED] if m + DECIDED in cases[0].table.index else [])
        rows += [m for m in HEADLINE_ALWAYS if m not in rows]
        self.lines += ["| metric | line-up | A | B | difference [95% interval, unadjusted] | p (Holm-adjusted) |",
                       "|---|---|---|---|---|---|"]
        for m in rows:
            for c in cases:
                if m not in c.table.index:
                    continue
                r = c.table.loc[m]
                sc = 1 if m in COUNTS else 100
                unit = "" if sc == 1 else " pts"
                self.lines.append(f"| {r['description']} | {c.strategy} | {sc * r['a']:.2f} | {sc * r['b']:.2f} | "
                                  f"{sc * r['diff']:+.2f}{unit} [{sc * r['lo']:+.2f}, {sc * r['hi']:+.2f}] | "
                                  f"{r['p_holm']:.2g} |")
        self.lines.append("")
        self.lines += [f"![{heading}, {c.strategy}](compare-{key}-{c.strategy}.png)" for c in cases] + [""]

    def survey(self, games: int) -> pd.DataFrame:
        """Every family's default rules with 2 to 6 players, every seat played by each panel strategy (no seat
        rotation): one row of totals per (strategy, family, players). Played once per (scale, seed, panel,
        games) in a process, so questions that read the same runs (first-attacker, draws) share them."""
        if "first_attacker_rows" in self.data:
            return self.data["first_attacker_rows"]
        key = ("first_attacker_rows", self.scale, self.seed, tuple(self.panel), games)
        if key in _SHARED:
            self.data["first_attacker_rows"] = _SHARED[key].copy()
            return self.data["first_attacker_rows"]
        rows = []
        for strat in self.panel:
            for fam in R.FAMILIES:
                for n in range(2, 7):
                    exp = self.experiment(fam, n, [strat], games, rotate=False)
                    tot = exp.totals()
                    fin = tot["finished"]
                    teams = exp.rules.teams
                    fair = (1 - tot["draw_rate"]) / (len(teams) if teams else n)  # fool share of any one seat
                    rows.append({"strategy": strat, "family": fam, "players": n, "games": fin,
                                 "unfinished": tot["unfinished"],
                                 "unfinished_share": tot["unfinished"] / max(fin + tot["unfinished"], 1),
                                 "first_attacker_fool": tot["first_attacker_fool_rate"],
                                 "lo": tot["first_attacker_fool_lo"], "hi": tot["first_attacker_fool_hi"],
                                 "fair_share": fair,
                                 "advantage_points": 100 * (fair - tot["first_attacker_fool_rate"]),
                                 "draw_rate": tot["draw_rate"], "draw_lo": tot["draw_lo"], "draw_hi": tot["draw_hi"],
                                 "mean_bouts": tot["mean_bouts"]})
        df = pd.DataFrame(rows)
        self.data["first_attacker_rows"] = df  # a key ending in _rows is not written out
        _SHARED[key] = df.copy()
        return df


_SHARED: dict = {}


def family_plot(df, col, lo, hi, ylabel, path, ref=None):
    """A rate per number of players, one line per family, with its interval (and a dotted reference)."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for i, (fam, g) in enumerate(df.groupby("family", sort=False)):
        x = g["players"].to_numpy() + (i - 1.5) * 0.06
        y = 100 * g[col].to_numpy()
        ax.errorbar(x, y, yerr=[y - 100 * g[lo].to_numpy(), 100 * g[hi].to_numpy() - y], fmt="o-", capsize=3,
                    label=fam)
        if ref is not None:
            ax.plot(g["players"], 100 * g[ref], ls=":", color=ax.lines[-1].get_color(), lw=1)
    ax.set_xlabel("players")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    finish(fig, path)


def unfinished_col(df):
    """A survey's unfinished deals as a table column: count and share."""
    return [f"{u:,} ({100 * sh:.2f}%)" for u, sh in zip(df["unfinished"], df["unfinished_share"])]


# ---- questions: found by file, loaded by path ------------------------------------------------------

@dataclass
class Question:
    name: str
    title: str
    ask: str  # the question in a player's words
    run: Callable[[Ctx], str]  # fills ctx.lines / ctx.data / plots, returns the plain answer
    panel: bool = True  # False: a tournament between strategies, where the panel of line-ups does not apply
    path: Path | None = None
    order: float = math.inf
    module: ModuleType | None = None  # the question file's module (its own constants and helpers)


def _load(path: Path) -> ModuleType:
    """A question file as a module, by path (a changed file is a new module)."""
    digest = hashlib.sha1(str(path.resolve()).encode() + path.read_bytes()).hexdigest()[:10]
    name = f"durak_question_{digest}_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception as e:  # a user's file: say which and why, in one line
        del sys.modules[name]
        raise QuestionError(f"question file {path} failed to import: {e}") from e
    return mod


def _compare_run(mod: ModuleType) -> Callable[[Ctx], str]:
    """The run of a question given by the compare hooks: each setting compared, A against B, then answer."""
    def run(ctx: Ctx) -> str:
        cases = []
        for fam, n in mod.SETTINGS:
            cs = ctx.compare(fam, n, mod.A, mod.B, mod.GAMES)
            ctx.section(f"{fam}, {n} players", cs, list(mod.METRICS), f"{fam}-{n}p")
            cases += cs
        return mod.answer(ctx, cases)
    return run


def load_question(path: Path) -> Question:
    """One question file checked against the template: a QuestionError names the file and what is missing."""
    path = Path(path)
    mod = _load(path)
    where = f"question file {path}"
    for hook in ("TITLE", "QUESTION"):
        if not isinstance(getattr(mod, hook, None), str) or not getattr(mod, hook).strip():
            raise QuestionError(f"{where} has no {hook} (a text: "
                                + ("the question in one line)" if hook == "TITLE" else "the argument in a "
                                   "player's words)"))
    has = [h for h in COMPARE_HOOKS if hasattr(mod, h)]
    if hasattr(mod, "run"):
        if not callable(mod.run):
            raise QuestionError(f"{where}: run must be a function run(ctx) that returns the answer")
        run = mod.run
    elif not has:
        raise QuestionError(f"{where} has neither run(ctx) nor the compare hooks {', '.join(COMPARE_HOOKS)}")
    elif len(has) < len(COMPARE_HOOKS):
        raise QuestionError(f"{where} is missing {', '.join(h for h in COMPARE_HOOKS if h not in has)} (the "
                            f"compare hooks are {', '.join(COMPARE_HOOKS)})")
    elif not callable(mod.answer):
        raise QuestionError(f"{where}: answer must be a function answer(ctx, cases) that returns the answer")
    else:
        try:
            ok = (len(mod.SETTINGS) > 0 and all(len(s) == 2 for s in mod.SETTINGS) and isinstance(mod.A, dict)
                  and isinstance(mod.B, dict))
        except TypeError:
            ok = False
        if not ok:
            raise QuestionError(f"{where}: SETTINGS must be a non-empty list of (family, players) and A, B "
                                f"dicts of toggles")
        run = _compare_run(mod)
    order = getattr(mod, "ORDER", math.inf)
    if not isinstance(order, (int, float)):
        raise QuestionError(f"{where}: ORDER must be a number")
    return Question(path.stem.replace("_", "-"), mod.TITLE, mod.QUESTION, run, bool(getattr(mod, "PANEL", True)),
                    path, order, mod)


def questions(paths=()) -> dict[str, Question]:
    """Every question: the library's folder, then each folder given (a name may be defined once), each
    folder's questions by ORDER, then by name."""
    found: dict[str, Question] = {}
    for folder in (LIBRARY, *[Path(p) for p in paths]):
        if not folder.is_dir():
            raise QuestionError(f"question folder {folder} does not exist")
        here = [load_question(f) for f in sorted(folder.glob("*.py")) if not f.name.startswith("_")]
        for q in sorted(here, key=lambda q: (q.order, q.name)):
            if q.name in found and found[q.name].path.resolve() != q.path.resolve():
                raise QuestionError(f"question {q.name!r} is defined twice: {found[q.name].path} and {q.path}")
            found[q.name] = q
    return found


def __getattr__(attr):
    if attr == "QUESTIONS":  # the library's questions, read when asked
        return questions()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def settle(name: str, scale: float = 1.0, seed: int = 2026, threads: int | None = None,
           root: Path = RESULTS, panel: list[str] | None = None, paths=(), strategy_paths=()) -> Path:
    qs = questions(paths)
    if name not in qs:
        raise KeyError(f"unknown question {name!r}; choose one of: {', '.join(qs)}")
    q = qs[name]
    folder = Path(root) / name
    folder.mkdir(parents=True, exist_ok=True)
    # files of an earlier layout would linger: those this run does not rewrite go once it has finished, so an
    # interrupted run leaves the committed answer's files in place. Each is stamped with time 0 first, so that a
    # rewrite shows whatever the file system's clock granularity (comparing with the run's start time would not)
    before = [*folder.glob("*.csv"), *folder.glob("*.png")]
    for f in before:
        os.utime(f, ns=(f.stat().st_atime_ns, 0))
    ctx = Ctx(scale, seed, threads, folder, [], {}, panel, tuple(str(p) for p in strategy_paths))
    t0 = time.time()
    with batch.recording() as used:  # every line-up the question plays, for provenance.json
        verdict = q.run(ctx)
    for f in before:
        if f.exists() and f.stat().st_mtime_ns == 0:
            f.unlink()
    if not isinstance(verdict, str):
        raise QuestionError(f"question file {q.path}: its answer must be a text, not {type(verdict).__name__}")
    strong = strong_play(ctx.headlines) if q.panel else None
    if strong:
        verdict += " " + strong[0]
    default = ctx.panel == default_panel() or not q.panel
    own = "" if q.path.parent.resolve() == LIBRARY.resolve() else f" --question-path {q.path.parent}"
    own += "".join(f" --strategy-path {p}" for p in ctx.strategy_paths)
    cmd = f"durak settle{own} {name}" + ("" if scale == 1 else f" --scale {scale:g}") + \
        ("" if seed == 2026 else f" --seed {seed}") + ("" if default else "".join(f" --panel {p}" for p in ctx.panel))
    scale_note = ("" if scale == 1 else
                  f" Run at --scale {scale:g}: every experiment plays {scale:g} of the games of a full run (at least "
                  f"2,000), so intervals are about {1 / scale ** 0.5:.0f} times wider than a full run's.")
    # Rerunning with the same seed rewrites every file byte for byte, except the one timing line below
    # (no commit hash, date or duration anywhere else).
    lines = [f"# {q.title}", "", f"**The question.** {q.ask}", "", f"**The answer.** {verdict}", "",
             f"**Reproduce.** `{cmd}` (seed {seed}" + (f"; panel: {', '.join(ctx.panel)}, each playing every seat"
                                                        if q.panel else "; a tournament: no panel") + "). "
             "Intervals are 95% for each metric on its own (not adjusted); comparisons play both rule sets on the "
             "same deals, and whether a difference is real is decided by Holm-adjusted p-values over the metrics of "
             "each comparison, so an interval that just excludes zero can still read 'no detectable change'. "
             "Sizes are given as games out of 100: a change of 1.25 points is about 1 game in 80." + scale_note, ""]
    pages = atlas_pages(q)
    if pages:
        lines += ["**In the atlas.** " + ", ".join(f"[{p}](../atlas/rules/{p}.html)" for p in pages) +
                  ": the same rule at every player count and skill level, beside every other rule.", ""]
    lines += ["## Numbers", ""] + ctx.lines
    lines += ["## Files", "", "- `summary.json`: the answer and the run's settings",
              "- `provenance.json`: what it was made from: the commit, every strategy's code digest, the rules and "
              "presets of every line-up played with a fingerprint of its play (`durak settle --check` reads it)",
              "- `*.csv`: the tables behind this page (aggregates only; one per panel strategy)",
              "- `*.png`: the plots above", "",
              f"{TIMING_PREFIX} {time.time() - t0:.0f} s on the machine that wrote it.", ""]
    (folder / "README.md").write_text("\n".join(lines))
    for key, df in ctx.data.items():
        if isinstance(df, pd.DataFrame) and not key.endswith("_rows"):
            df.to_csv(folder / f"{key}.csv", index=False)
    (folder / "summary.json").write_text(json.dumps(
        {"question": q.title, "verdict": verdict, "command": cmd, "seed": seed, "scale": scale,
         "panel": ctx.panel if q.panel else None, "strong_play": strong[1] if strong else None}, indent=1))
    (folder / P.FILE).write_text(json.dumps(P.provenance(used, q.path, fingerprints=True), indent=1) + "\n")
    return folder


def atlas_pages(q) -> list[str]:
    """The atlas pages (results/atlas/rules/NAME.html) of a question: its ATLAS hook, else the toggles its two
    arms differ in (a variant's page is variant-NAME)."""
    mod = q.module
    if mod is None:
        return []
    if hasattr(mod, "ATLAS"):
        return list(mod.ATLAS)
    a, b = getattr(mod, "A", None), getattr(mod, "B", None)
    if not isinstance(a, dict) or not isinstance(b, dict):
        return []
    out = []
    for k in dict.fromkeys([*a, *b]):
        if a.get(k) != b.get(k):
            name = R.ALIASES.get(k, k)
            out += [f"variant-{v}" for v in str(a.get(k, b.get(k))).split("+")] if name == "variant" else [name]
    return out


def check(root: Path = RESULTS, names=None, paths=(), leave_out=()) -> list[tuple[str, list[str], list[str]]]:
    """(question, reasons it is stale, notes) for every settled answer in `root` (or those named): stale when
    the inputs recorded in its provenance.json no longer give it (sim.experiments.provenance.check; the line-ups
    of the strategies in `leave_out` are not played)."""
    root = Path(root)
    qs = questions(paths)
    out = []
    for name in names or list(qs):
        folder = root / name
        if not (folder / "summary.json").exists():
            if names:
                out.append((name, [f"{folder} holds no settled answer (no summary.json)"], []))
            continue
        reasons, notes = P.check(folder, qs[name].path if name in qs else None, leave_out)
        if name not in qs:
            reasons.append("no question file of this name any more")
        out.append((name, reasons, notes))
    return out


def write_index(root: Path = RESULTS, paths=()) -> Path:
    root = Path(root)
    lines = ["# Settled arguments", "",
             "Each folder answers one question players argue about, with the command that reproduces it. "
             "Regenerate any of them with `durak settle NAME --write-results` (all: `durak settle all "
             "--write-results`; without it the folders go to a run folder under results/runs/).", "",
             "Each answer below is the plain paragraph that opens the question's page: yes / no / only in some "
             "settings / it depends, how big in games out of 100, how sure, whether it holds for greedy's, expert's "
             "and the learned player's play, and how many deals were left unfinished. The numbers follow on each "
             "page.", "",
             "This folder holds outputs only (pages, JSON, CSV, plots). The code behind the pages listed under "
             "\"Also\" lives in `research/` at the top of the repository, in folders named like these "
             "(`research/strength/` writes `strength/`, `research/seed_knobs/` writes `seed_knobs/`). Run a script "
             "from the repository root as a module, e.g. `python -m research.strength.run --games 200 "
             "--budget-games 100` or `python -m research.round_robin_2p > results/round_robin_2p.md` (the shell "
             "scripts, such as `research/scoring/measure.sh`, run as they are); each page names the command that "
             "produced it.", ""]
    strong = {"agrees": [], "cannot tell": [], "differs": [], "own": [], None: []}
    sections = []
    for name, q in questions(paths).items():
        s = root / name / "summary.json"
        if s.exists():
            summary = json.loads(s.read_text())
            verdict = summary["verdict"]
            if summary.get("scale", 1) != 1:
                verdict += f" *(Run at --scale {summary['scale']:g}.)*"
            if summary.get("panel"):  # a rule question (a tournament has no panel)
                word = summary.get("strong_play")
                if word is None and "learned" in summary["panel"]:
                    word = "own"  # learned played it, in tables of its own rather than paired sections
                strong[word].append(f"[{name}]({name}/README.md)")
        else:
            verdict = "(not run yet)"
        sections += [f"## [{q.title}]({name}/README.md)", "", verdict, ""]
    lines += ["**Does strong play change the answer?** Each rule question is also played by the learned player "
              "(strong play, on a twentieth of the deals), and its answer says whether that keeps expert's:", ""]
    for word, say in (("differs", "strong play changes expert's answer"),
                      ("cannot tell", "strong play's fewer deals cannot tell where expert's shows a change"),
                      ("agrees", "strong play gives expert's answer"),
                      ("own", "the learned player's rates stand beside expert's in the page's tables (no paired "
                              "comparison to set side by side)"),
                      (None, "not yet played by the learned player (settled before it joined the panel)")):
        if strong[word]:
            lines.append(f"- {say}: {', '.join(strong[word])}")
    lines += [""] + sections
    also = [("round_robin_2p.md", "a 2-player round robin of the strategy library (podkidnoy, prostoy_5, perevodnoy; "
             "200,000 games per pair; `python -m research.round_robin_2p`)"),
            ("strength/README.md", "how strong the search player is, against budget"),
            ("strength/habits.md", "what each of expert's habits is worth (leave one out, paired) and where search "
             "disagrees with it"),
            ("strength/unfinished.md", "unfinished deals of every library strategy, family and player count"),
            ("seed_knobs/README.md", "the seed advice no strategy followed, measured knob by knob"),
            ("scoring/README.md", "score-win rates of the two scoring variants (pogonny, ochkovy)")]
    found = [f"- [{text[0].upper() + text[1:]}]({path})" for path, text in also if (root / path).exists()]
    if found:
        lines += ["Also:", ""] + found
    root.mkdir(parents=True, exist_ok=True)
    (root / "README.md").write_text("\n".join(lines) + "\n")
    return root / "README.md"
