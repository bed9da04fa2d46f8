"""The batch runner: many deals on all cores, aggregated as they stream in.

Work is split into chunks of series; each chunk runs in the compiled core with the GIL
released, on a thread pool (or any ``executor`` with ``submit``). Every series draws its
randomness from (seed, series index) alone, so results are identical whatever the thread
count or chunk size. Only the running tally is kept: 100 million deals need no more memory
than one chunk.
"""
from __future__ import annotations

import contextlib

import os
import re
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from numba import njit

from sim.core import dispatch, greedy_bout
from sim.core import layout as E
from sim.core.layout import O_SIZE, STATE_SIZE
from sim.core.records import move_text, to_records
from sim.core.rules import Rules, resolve
from sim.experiments.backends import env_seconds

DEFAULT_CHUNK = 1 << 14


class IllegalMoveError(RuntimeError):
    """A strategy answered with a move the rules do not allow."""


class HiddenInformationError(IllegalMoveError):
    """A strategy tried to read memory outside its observation."""


class ExperimentError(ValueError):
    """Bad experiment input (games, precision, output folder), a damaged run folder, or a core that the
    reference referee contradicts."""


class LineupError(ValueError):
    """Bad --strategy input: unknown name, bad parameter, wrong number of seats, wrong family."""


@dataclass(frozen=True)
class Seat:
    name: str
    params: tuple  # ((name, value), ...) in the strategy's PARAMS order
    changed: tuple = ()  # names of the parameters that differ from the strategy's defaults

    @property
    def label(self) -> str:
        """The name, with only the parameters that differ from their defaults (as the user would type it)."""
        items = [(k, v) for k, v in self.params if k in self.changed]
        return self.name + (":" + ",".join(f"{k}={v:g}" for k, v in items) if items else "")


def parse_strategy(spec: str, paths=()) -> Seat:
    """'dump-late:talon_at_most=3' -> Seat, validated against the strategy's PARAMS."""
    name, _, rest = spec.partition(":")
    name = name.strip()
    try:
        info = dispatch.info(name, paths)
    except dispatch.StrategyError as e:
        raise LineupError(str(e)) from None
    values = {k: float(v[0]) for k, v in info.params.items()}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        k, eq, v = item.partition("=")
        if not eq:
            raise LineupError(f"strategy {name}: parameter {item!r} must be NAME=VALUE")
        if k not in info.params:
            known = ", ".join(info.params) or "none"
            raise LineupError(f"strategy {name}: unknown parameter {k!r} (parameters: {known})")
        try:
            x = float(v)
        except ValueError:
            raise LineupError(f"strategy {name}: parameter {k}={v!r} is not a number") from None
        d, lo, hi = info.params[k][:3]
        if x != d:  # the default is always accepted (expert's -99: "the value tuned for the family")
            whole = k in _whole_params(info)
            allowed = ("0 or 1" if (lo, hi) == (0, 1) else f"a whole number in [{lo:g}, {hi:g}]") if whole \
                else f"in [{lo:g}, {hi:g}]"
            if d < lo or d > hi:
                allowed += f", or {d:g} (its default{_default_meaning(info)})"
            if not lo <= x <= hi:
                raise LineupError(f"strategy {name}: parameter {k}={v} is outside [{lo:g}, {hi:g}] "
                                  f"(it must be {allowed}; `durak strategies` says what it does)")
            if whole and x != int(x):
                raise LineupError(f"strategy {name}: parameter {k}={v} must be {allowed} "
                                  f"(`durak strategies` says what it does)")
        values[k] = x
    changed = tuple(k for k, v in values.items() if v != float(info.params[k][0]))
    return Seat(name, tuple(values.items()), changed)


def _whole_params(info) -> tuple:
    """Parameters of a strategy that take whole numbers only (its optional WHOLE_PARAMS)."""
    try:
        return tuple(getattr(dispatch.load_module(info.path), "WHOLE_PARAMS", ()))
    except Exception:  # noqa: BLE001  (info() has loaded the module already; no list: no check)
        return ()


def _default_meaning(info) -> str:
    try:
        fam = getattr(dispatch.load_module(info.path), "FAMILY_DEFAULTS", None)
    except Exception:  # noqa: BLE001
        fam = None
    return ": the value tuned for the family played" if fam else ""


_RECORDERS: list[list] = []  # open `recording()` lists: every line-up made while one is open is noted in it


@contextlib.contextmanager
def recording():
    """Note every line-up made inside the block as (rules, seat labels, strategy folders): what a settled
    question played, for its provenance (sim.experiments.provenance), without the question saying it."""
    used: list = []
    _RECORDERS.append(used)
    try:
        yield used
    finally:
        _RECORDERS.remove(used)


def make_lineup(rules: Rules, specs, paths=()) -> list[Seat]:
    seats = _make_lineup(rules, specs, paths)
    for used in _RECORDERS:
        used.append((rules, tuple(s.label for s in seats), tuple(str(p) for p in paths)))
    return seats


def _make_lineup(rules: Rules, specs, paths=()) -> list[Seat]:
    specs = list(specs) or ["greedy"]
    n = rules.num_players
    teams = rules.teams
    if len(specs) == 1:
        specs = specs * n
    elif teams and len(specs) == len(teams) and len(specs) != n:  # one strategy per team
        ids = rules.team_ids()
        specs = [specs[ids[s]] for s in range(n)]
    if len(specs) != n:
        per_team = f", or once per team ({len(teams)})" if teams else ""
        raise LineupError(f"give --strategy once for all seats or once per seat ({n}){per_team}, "
                          f"not {len(specs)} times")
    seats = [parse_strategy(s, paths) for s in specs]
    for s in seats:
        fams = dispatch.info(s.name, paths).families
        if fams and rules.family not in fams:
            raise LineupError(f"strategy {s.name} does not play {rules.family} (it plays {', '.join(fams)})")
    return seats


@dataclass
class Tally:
    """Streaming counts over deals; merge() adds another tally."""
    n: int
    games: int = 0
    unfinished: int = 0
    draws: int = 0
    bouts: int = 0
    first_attacker_fool: int = 0
    exchanges: int = 0
    exchanger_fool: int = 0
    transfers: int = 0
    invariant_violations: int = 0  # bouts that ended with cards not accounted for (must be 0)
    escaped: np.ndarray = None
    drew: np.ndarray = None
    fool: np.ndarray = None
    taken: np.ndarray = None
    places: np.ndarray = None
    drew_places: np.ndarray = None  # the places of drawn seat-games (a draw shares the final bout's place)
    bouts_hist: np.ndarray = None
    # scoring variants (VAR-PG1, VAR-OC1; all zero without one): per seat the games whose score it won
    # (shared wins count for every winner), cards beaten and pogony inflicted; per game whether anybody won
    # the score, whether the win was shared between sides, and whether a fool (a losing seat) won it
    score_won: np.ndarray = None
    points: np.ndarray = None
    pogony: np.ndarray = None
    score_decided: int = 0
    score_shared: int = 0
    fool_won_score: int = 0

    def __post_init__(self):
        z = lambda *s: np.zeros(s, dtype=np.int64)  # noqa: E731
        self.escaped = z(self.n) if self.escaped is None else self.escaped
        self.drew = z(self.n) if self.drew is None else self.drew
        self.fool = z(self.n) if self.fool is None else self.fool
        self.taken = z(self.n) if self.taken is None else self.taken
        self.places = z(self.n, self.n + 1) if self.places is None else self.places
        self.drew_places = z(self.n, self.n + 1) if self.drew_places is None else self.drew_places
        self.bouts_hist = z(E.MAX_BOUTS + 1) if self.bouts_hist is None else self.bouts_hist
        self.score_won = z(self.n) if self.score_won is None else self.score_won
        self.points = z(self.n) if self.points is None else self.points
        self.pogony = z(self.n) if self.pogony is None else self.pogony

    def add(self, recs: np.ndarray):
        done = recs[~recs["unfinished"]]
        n = self.n
        self.games += len(recs)
        self.invariant_violations += int(recs["invariant"].sum())
        self.unfinished += len(recs) - len(done)
        self.draws += int(done["draw"].sum())
        self.bouts += int(done["bouts"].sum())
        fa = done["first_attacker"].astype(np.int64)
        self.first_attacker_fool += int((done["outcome"][np.arange(len(done)), fa] == 2).sum())
        ex = done["exchange_seat"] >= 0
        self.exchanges += int(ex.sum())
        exs = done["exchange_seat"][ex].astype(np.int64)
        self.exchanger_fool += int((done["outcome"][ex][np.arange(len(exs)), exs] == 2).sum())
        self.transfers += int(done["transfers"].sum())
        out = done["outcome"][:, :n]
        self.escaped += (out == 0).sum(axis=0)
        self.drew += (out == 1).sum(axis=0)
        self.fool += (out == 2).sum(axis=0)
        self.taken += done["taken"][:, :n].sum(axis=0)
        for s in range(n):
            self.places[s] += np.bincount(done["place"][:, s], minlength=n + 1)[: n + 1]
            drawn = done["place"][:, s][out[:, s] == 1]
            self.drew_places[s] += np.bincount(drawn, minlength=n + 1)[: n + 1]
        self.bouts_hist += np.bincount(done["bouts"], minlength=E.MAX_BOUTS + 1)[: E.MAX_BOUTS + 1]
        sw = done["score_win"].astype(np.int64)
        if sw.any():
            won = (sw[:, None] >> np.arange(n)) & 1
            self.score_won += won.sum(axis=0)
            self.score_decided += int((sw != 0).sum())
            self.fool_won_score += int(((won == 1) & (out == 2)).any(axis=1).sum())
            self.score_shared += int(done["score_tie"].sum())
        self.points += done["points"][:, :n].sum(axis=0)
        self.pogony += done["pogony"][:, :n].sum(axis=0)

    def add_raw(self, raw: np.ndarray):
        """`add` straight from the core's int64 rows (no record array): the same counts, in compiled code,
        for the runs that keep no per-game records."""
        sc = np.zeros(len(self._SCALAR_FIELDS), dtype=np.int64)
        _tally_raw(raw, self.n, sc, self.escaped, self.drew, self.fool, self.taken, self.places, self.drew_places,
                   self.bouts_hist, self.score_won, self.points, self.pogony)
        for f, v in zip(self._SCALAR_FIELDS, sc):
            setattr(self, f, getattr(self, f) + int(v))

    def merge(self, other: "Tally"):
        for f in self._SCALAR_FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))
        for f in self._ARRAY_FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))

    @property
    def finished(self) -> int:
        return self.games - self.unfinished

    _SCALAR_FIELDS = ("games", "unfinished", "draws", "bouts", "first_attacker_fool", "exchanges",
                      "exchanger_fool", "transfers", "invariant_violations", "score_decided", "score_shared",
                      "fool_won_score")
    _ARRAY_FIELDS = ("escaped", "drew", "fool", "taken", "places", "drew_places", "bouts_hist", "score_won",
                     "points", "pogony")

    def to_arrays(self) -> dict:
        """Plain arrays (for saving a finished chunk; from_arrays reads them back)."""
        d = {f: np.asarray(getattr(self, f)) for f in self._ARRAY_FIELDS}
        d["scalars"] = np.array([getattr(self, f) for f in self._SCALAR_FIELDS], dtype=np.int64)
        d["n"] = np.array(self.n)
        return d

    @classmethod
    def from_arrays(cls, d) -> "Tally":
        t = cls(int(d["n"]), **{f: np.array(d[f]) for f in cls._ARRAY_FIELDS if f in d})
        for f, v in zip(cls._SCALAR_FIELDS, d["scalars"]):
            setattr(t, f, int(v))
        return t


@njit(cache=True, _nrt=False)
def _tally_raw(raw, n, sc, escaped, drew, fool, taken, places, drew_places, bouts_hist, score_won, points, pogony):
    """Tally.add over raw rows: sc gets the scalar counts in Tally._SCALAR_FIELDS order, the arrays are added to."""
    for g in range(raw.shape[0]):
        r = raw[g]
        sc[0] += 1
        sc[8] += r[E.F_INVARIANT]
        if r[E.F_UNFINISHED] != 0:
            sc[1] += 1
            continue
        sc[2] += r[E.F_DRAW] != 0
        sc[3] += r[E.F_BOUTS]
        fa = r[E.F_FIRST_ATTACKER]
        sc[4] += r[E.F_OUTCOME + fa] == 2
        ex = r[E.F_EXCHANGE_SEAT]
        if ex >= 0:
            sc[5] += 1
            sc[6] += r[E.F_OUTCOME + ex] == 2
        sc[7] += r[E.F_TRANSFERS]
        b = r[E.F_BOUTS]
        if 0 <= b <= E.MAX_BOUTS:
            bouts_hist[b] += 1
        sw = r[E.F_SCORE_WIN]
        fool_won = False
        for s in range(n):
            o = r[E.F_OUTCOME + s]
            if o == 0:
                escaped[s] += 1
            elif o == 1:
                drew[s] += 1
            elif o == 2:
                fool[s] += 1
            taken[s] += r[E.F_TAKEN + s]
            p = r[E.F_PLACE + s]
            if 0 <= p <= n:
                places[s, p] += 1
                if o == 1:
                    drew_places[s, p] += 1
            if (sw >> s) & 1:
                score_won[s] += 1
                if o == 2:
                    fool_won = True
            points[s] += r[E.F_POINTS + s]
            pogony[s] += r[E.F_POGONY + s]
        sc[9] += sw != 0
        sc[10] += r[E.F_SCORE_TIE] != 0
        sc[11] += fool_won


class StrategyFailedError(IllegalMoveError):
    """A strategy raised an exception, or stopped answering (an endless loop)."""


def stall_seconds() -> float:
    """How long one decision may take before the run is stopped as hung (DURAK_STALL_SECONDS)."""
    return env_seconds("DURAK_STALL_SECONDS", 60.0)


class _Watchdog:
    """Stops the process when a chunk's decision counter stands still for stall_seconds().

    Compiled code cannot be interrupted from Python, so a strategy caught in an endless loop can
    only be stopped with the process: the message names the strategy, seat and game first."""

    def __init__(self):
        self.enabled = False  # armed by the command line only: stopping a notebook's kernel helps nobody
        self.lock = threading.Lock()
        self.watched: dict[int, tuple] = {}
        self.thread = None

    def watch(self, status, describe):
        if not self.enabled:
            return
        with self.lock:
            self.watched[id(status)] = (status, describe, int(status[2]), time.monotonic())
            if self.thread is None:
                self.thread = threading.Thread(target=self._loop, daemon=True, name="durak-watchdog")
                self.thread.start()

    def unwatch(self, status):
        with self.lock:
            self.watched.pop(id(status), None)

    def _loop(self):
        while True:
            time.sleep(0.2)
            limit = stall_seconds()
            now = time.monotonic()
            with self.lock:
                for key, (status, describe, seen, since) in list(self.watched.items()):
                    if int(status[2]) != seen or seen == 0:  # 0: still compiling
                        self.watched[key] = (status, describe, int(status[2]), now)
                    elif now - since > limit:
                        sys.stderr.write("Error: " + describe(status, f"has not answered for {limit:g} s "
                                                                      "(an endless loop?)") + "\n")
                        sys.stderr.flush()
                        os._exit(3)


_WATCHDOG = _Watchdog()


def arm_watchdog():
    """Stop the process (exit code 3, with a message) when a strategy stops answering."""
    _WATCHDOG.enabled = True


def _first_reason(msg: str) -> str:
    lines = [x.strip() for x in msg.splitlines() if x.strip() and not x.startswith("Failed in nopython")]
    return (lines[0] if lines else msg.strip())[:200]


_BUFFERS = threading.local()  # Runner.play_raw(reuse=True): one record buffer per thread

ENGINES = ("auto", "general", "lean", "specialised")
SPECIALISE_GAMES = 30_000_000  # from this many games a run compiles the rules in: at about 1.2 us a game saved
# against a compile of 30 to 100 s, the compile pays for itself


def engine_choice(rules: Rules, seats, games, paths=(), also=(), engine: str | None = None) -> tuple[str, str]:
    """(engine, why), see `_choice`; the why also says when the engine plays whole bouts of greedy in one loop
    (sim.core.greedy_bout: every seat greedy, rules compiled in, a two-player throw-in game)."""
    kind, why = _choice(rules, seats, games, paths, also, engine)
    names = {s.name for s in seats} | set(also)
    if kind != "general" and names == {"greedy"} and greedy_bout.eligible.py_func(rules.vector()):
        why += "; greedy's bouts in one loop"
    return kind, why


def _choice(rules: Rules, seats, games, paths=(), also=(), engine: str | None = None) -> tuple[str, str]:
    """(engine, why) for a run of `games` games (None: not known in advance, e.g. a precision target); the
    engine is "general", "lean" or "specialised" (Runner's `specialised`). The games are the same on each.

    `engine` (default: DURAK_ENGINE, else auto) or auto, which takes
    - the specialised engine (these rules compiled in, every decision's kernels inlined: the fastest) when it
      is compiled already or the run is long enough to pay for compiling it;
    - else the lean one (these rules compiled in, nothing more inlined: a third of the general engine's
      compile, faster than it) when it is compiled already;
    - else the general engine, shared by every rule set, when it is compiled already or line-ups are to share
      it ($DURAK_SHARED_ENGINE, which the tests set);
    - else the lean one: on a cold cache it is ready first."""
    engine = engine or os.environ.get("DURAK_ENGINE") or "auto"
    if engine not in ENGINES:
        raise ExperimentError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine != "auto":
        return engine, f"{engine} engine, as asked"
    names = [s.name for s in seats] + list(also)
    rv = rules.vector()
    if dispatch.engine_compiled(names, paths, rules=rv):
        return "specialised", "specialised engine: cached for these rules"
    if games is not None and games >= SPECIALISE_GAMES:
        return "specialised", f"specialised engine: {games:,} games pay its compile"
    if dispatch.engine_compiled(names, paths, rules=rv, lean=True):
        return "lean", "lean engine: cached for these rules"
    if dispatch.shared_engines():
        return "general", f"general engine: shared by line-ups (${dispatch.SHARED_ENV})"
    if dispatch.engine_compiled(names, paths):
        return "general", "general engine: cached" + (f", and under {SPECIALISE_GAMES:,} games" if games is not None
                                                      else "")
    return "lean", "lean engine: the quickest to compile on a cold cache"


def engine_kind(specialised) -> str:
    """Runner's `specialised` as an engine name: False is "general", True "specialised"; a name stays."""
    kind = {False: "general", True: "specialised"}.get(specialised, specialised)
    if kind not in ENGINES[1:]:
        raise ExperimentError(f"engine must be one of {', '.join(ENGINES[1:])}, not {specialised!r}")
    return kind


class Runner:
    """A compiled engine bound to rules and a line-up; plays chunks and traces."""

    def __init__(self, rules: Rules, seats: list[Seat], paths=(), also=(), specialised: bool | str = False):
        """`also`: more strategy names to compile into the same engine (to share it across line-ups).
        `specialised`: True or "specialised", the engine with these rules compiled in (faster, compiled per rule
        set); "lean", the same with less inlined (a third of the compile); False or "general", the general one
        (see dispatch.engine_for). The games are the same bit for bit."""
        self.rules = rules
        self.seats = seats
        self.paths = tuple(str(p) for p in paths)
        self.rv = rules.vector()
        self._warm = False  # the engine's entry point compiled or loaded (warm)
        self.specialised = kind = engine_kind(specialised)
        self.engine, order = dispatch.engine_for([s.name for s in seats] + list(also), paths,
                                                 rules=None if kind == "general" else self.rv, lean=kind == "lean")
        # one entry point per pack count, so that a one-pack run never compiles the two-pack game
        self._entry = self.engine.play_deals_two_packs if rules.toggles.get("two_packs") else self.engine.play_deals
        self.sids = np.zeros(6, dtype=np.int64)
        # as wide as the most parameters any strategy of the engine declares (dispatch.params_width)
        self.params = np.zeros((6, dispatch.params_width(order, paths)), dtype=np.float64)
        for i, s in enumerate(seats):
            self.sids[i] = order.index(s.name)
            for j, (_, v) in enumerate(s.params):
                self.params[i, j] = v

    def warm(self, notice=None, seed: int = 0):
        """Compile the engine, or load it from the cache, before timing anything. `notice(text)` is a
        context manager shown while compiling (the first use of a line-up; cached afterwards). The trial game
        is game 0 of the run's `seed`, so a strategy that fails in it is reported with the run's seed."""
        self._first_use(lambda: self._play_raw(seed, 0, 1), notice)

    def _first_use(self, play, notice=None):
        """play(), the engine's first use in this process compiling it (or loading it) under dispatch's lock:
        another process or thread compiling the same engine is waited for rather than repeated."""
        if self._warm or dispatch.is_compiled(self.engine):
            self._warm = True
            return play()
        with dispatch.compile_lock(self.engine):
            if notice is None or dispatch.is_compiled(self.engine):
                out = play()
            else:
                names = ", ".join(sorted({s.name for s in self.seats}))
                with notice(f"compiling the engine for {names} (first use of this line-up or of an edited "
                            f"strategy; cached afterwards)"):
                    out = play()
            dispatch.mark_compiled(self.engine)
        self._warm = True
        return out

    @staticmethod
    def _state():
        """A fresh state and its read-only observation prefix (what strategies receive)."""
        ws = np.zeros(STATE_SIZE, dtype=np.int64)
        obs = ws[:O_SIZE]
        obs.flags.writeable = False
        return ws, obs

    def replay_command(self, seed: int, series: int, deals: int = 1) -> str:
        """The `durak replay` command that plays exactly this line-up's game again."""
        base = resolve(self.rules.family, self.rules.num_players, {}).toggles
        parts = ["durak replay", f"--rules {self.rules.family}", f"--players {self.rules.num_players}"]
        for k, v in self.rules.toggles.items():
            if base.get(k) != v:
                parts.append(f"--toggle {k}={str(v).lower() if isinstance(v, bool) else v}")
        parts += [f"--strategy {s.label}" for s in self.seats]
        parts += [f"--strategy-path {p}" for p in self.paths]
        parts += [f"--seed {seed}", f"--game {series}"]
        if deals > 1:
            parts.append(f"--deals {deals}")
        return " ".join(parts)

    def _call(self, fn, seed, deals, *args):
        status = np.zeros(3, dtype=np.int64)

        def say(what):
            game = int(status[0])
            seat = int(status[1])
            label = self.seats[seat].label if 0 <= seat < len(self.seats) else "?"
            return (f"strategy {label!r} (seat {seat}) {what} in game {game} of seed {seed}. "
                    f"Replay it with: {self.replay_command(seed, game // deals, game % deals + 1)}")
        _WATCHDOG.watch(status, lambda st, what: say(what))
        try:
            fn(*args, status)
        except numba.core.errors.NumbaError as e:  # a compile error (typing or lowering)
            raise StrategyFailedError(self._compile_problem(str(e))) from None
        except IndexError:
            raise HiddenInformationError(say("indexed outside its observation (strategies see only `obs`, "
                                             "never other hands or the talon)")) from None
        except Exception as e:  # an exception raised inside a strategy's compiled code
            raise StrategyFailedError(say(f"raised an error ({e})")) from None
        finally:
            _WATCHDOG.unwatch(status)

    def _compile_problem(self, msg: str) -> str:
        """One line out of numba's typing error: which strategy file, which line, what."""
        files = {str(Path(dispatch.discover(self.paths)[s.name]).resolve()): s.label for s in self.seats}
        where = re.findall(r'File "([^"]+)", line (\d+)', msg) + re.findall(r" at (\S+\.py) \((\d+)\)", msg)
        for path, line in where:
            path = str(Path(path).resolve())
            if path in files:
                if "readonly" in msg or "read-only" in msg:
                    what = "writes to its observation, which is read-only (strategies may not change the game)"
                elif "NRT required" in msg or re.search(r"Function\(<built-in function (zeros|empty|ones|full|array|"
                                                         r"arange|zeros_like|empty_like|ones_like|full_like)>", msg):
                    what = ("creates or copies an array, which needs numba's memory manager, and strategies run "
                            "without it (scratch arrays: sim.core.lib.stack_i64(N), N a module constant; copy "
                            "element by element)")
                else:
                    what = "does not compile: " + _first_reason(msg)
                return f"strategy {files[path]!r} {what} ({path}, line {line})"
        return "the engine does not compile: " + _first_reason(msg)

    def play_raw(self, seed: int, series0: int, n_series: int, deals: int = 1, reuse: bool = False) -> np.ndarray:
        """The record rows of series series0.. (raises on an illegal move). `reuse`: into this thread's buffer,
        overwritten by its next call (the core clears every row it plays; a chunk's fresh 8 MB cost more
        in page faults than its games' tally). The first call compiles the engine or loads it (_first_use)."""
        return self._first_use(lambda: self._play_raw(seed, series0, n_series, deals, reuse))

    def _play_raw(self, seed: int, series0: int, n_series: int, deals: int = 1, reuse: bool = False) -> np.ndarray:
        rows = n_series * deals
        if reuse:
            buf = getattr(_BUFFERS, "raw", None)
            if buf is None or len(buf) < rows:
                buf = _BUFFERS.raw = np.zeros((rows, E.F_SIZE), dtype=np.int64)
            raw = buf[:rows]
        else:
            raw = np.zeros((rows, E.F_SIZE), dtype=np.int64)
        ws, obs = self._state()
        self._call(self._entry, seed, deals, self.rv, ws, obs, self.sids, self.params, np.int64(seed),
                   np.int64(series0), np.int64(n_series), np.int64(deals), raw,
                   np.zeros((1, 72), dtype=np.int64), np.zeros((1, 4), dtype=np.int64), np.zeros(1, dtype=np.int64),
                   False)
        self.check(raw, seed, deals)
        return raw

    def check(self, raw: np.ndarray, seed: int, deals: int = 1):
        bad = np.nonzero(raw[:, E.F_ERROR])[0]
        if len(bad):
            r = raw[bad[0]]
            seat = int(r[E.F_ERR_SEAT])
            series, deal = int(r[E.F_SERIES]), int(r[E.F_DEAL])
            raise IllegalMoveError(
                f"strategy {self.seats[seat].label!r} (seat {seat}) made an illegal move in game "
                f"{int(r[E.F_GAME])} of seed {seed}: {move_text(int(r[E.F_ERR_KIND]), int(r[E.F_ERR_VALUE]))}. "
                f"Replay it with: {self.replay_command(seed, series, deal + 1)} ; "
                f"see the position and the answer with: {self.replay_command(seed, series, deal + 1)} --at-error")

    def trace(self, seed: int, series: int, deals: int = 1, with_raw: bool = False, check: bool = True):
        """Full traces of one series (the referee's format); `check=False` keeps an illegal move's
        trace instead of raising, `with_raw` also returns the raw record rows."""
        raw = np.zeros((deals, E.F_SIZE), dtype=np.int64)
        decks = np.zeros((deals, 72 if self.rules.toggles.get("two_packs") else 36), dtype=np.int64)
        rows = np.zeros((E.TRACE_CAP, 4), dtype=np.int64)
        tn = np.zeros(1, dtype=np.int64)
        ws, obs = self._state()
        self._first_use(lambda: self._call(self._entry, seed, deals, self.rv, ws, obs, self.sids, self.params,
                                           np.int64(seed), np.int64(series), np.int64(1), np.int64(deals), raw, decks,
                                           rows, tn, True))
        if tn[0] > E.TRACE_CAP:
            raise RuntimeError(f"trace of game {series} longer than {E.TRACE_CAP} actions")
        if check:
            self.check(raw, seed, deals)
        from sim.referee.trace import make_traces  # the referee only when a game is told (replay, --verify)
        traces = make_traces(self.rules, to_records(raw), decks, rows[: tn[0]], seed)
        return (traces, raw) if with_raw else traces
