"""Experiments: the Python API behind `durak run` (and what `compare`/`tournament` build on).

An experiment plays a line-up under a rule set. With seat rotation (the default) every deal is
played once per distinct rotation of the line-up through the seats, on the same shuffled pack,
so seat luck cancels between strategies and seat effects can be reported apart. Work is done
in chunks; each finished chunk's tally is saved at once, so an interrupted run loses nothing and
`resume()` continues to exactly the result an uninterrupted run gives.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import sim
from sim.experiments import backends, batch, tasks
from sim.experiments import provenance as P
from sim.experiments.provenance import git_commit  # noqa: F401  (compare and the metadata use it)
from sim.experiments.batch import ExperimentError, Runner, Seat, Tally  # noqa: F401  (ExperimentError re-exported)
from sim.core.rules import Rules, resolve
from sim.experiments.paired import rotations
from sim.experiments.stats import wilson

ROOT = Path(__file__).resolve().parents[2]
RATES = ("escaped", "drew", "fool")


CHUNK_FORMAT = "durak-sim chunk 2"
CHUNK_NAME = re.compile(r"^c(\d{6})-r(\d+)\.npz$")

# metadata.json as resume() needs it: a wrong or missing field is named by its JSON path.
METADATA_SCHEMA = {
    "type": "object",
    "required": ["family", "players", "toggles", "strategies", "seed", "games", "precision", "max_games",
                 "rotate", "rotations", "chunk", "deals_per_series", "records"],
    "properties": {
        "family": {"type": "string"},
        "players": {"type": "integer", "minimum": 2, "maximum": 6},
        "toggles": {"type": "object"},
        "strategies": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "strategy_paths": {"type": ["array", "null"], "items": {"type": "string"}},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
        "games": {"type": ["integer", "null"], "minimum": 1},
        "precision": {"type": ["number", "null"], "exclusiveMinimum": 0, "exclusiveMaximum": 0.5},
        "max_games": {"type": "integer", "minimum": 1},
        "rotate": {"type": "boolean"},
        "rotations": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "chunk": {"type": "integer", "minimum": 1},
        "deals_per_series": {"type": "integer", "minimum": 1},
        "records": {"type": "boolean"},
    },
}


def schema_problem(doc, schema, where: str) -> str | None:
    """The first problem of `doc` against a JSON schema, as '<where> at $.a.b: message' (None if valid)."""
    from sim.referee.schema import problem  # only when resuming: a run does not load the referee
    found = problem(doc, schema)
    return None if found is None else f"{where} at {found}"


def rules_digest(rules: Rules) -> str:
    """A short fingerprint of the rule set (family, players, every toggle)."""
    text = json.dumps({"family": rules.family, "players": rules.num_players, "toggles": rules.toggles},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _checksum(identity: str, arrays: dict) -> str:
    h = hashlib.sha256(identity.encode())
    for k in sorted(arrays):
        a = np.ascontiguousarray(arrays[k])
        h.update(f"{k}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


class _terminate_as_interrupt:
    """While running in the main thread, SIGTERM and SIGHUP raise KeyboardInterrupt like Ctrl-C does."""

    def __enter__(self):
        self.saved = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
                if sig is not None:
                    self.saved[sig] = signal.signal(sig, _raise_interrupt)
        return self

    def __exit__(self, *exc):
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)
        return False


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


class _ChunkJobs:
    """Experiment.run's hook: its chunks as tasks on the active backend; results as (Tally, records)."""

    def __init__(self, exp, threads: int | None = None):
        self.exp = exp
        specialised = exp.engine_choice()[0]
        self.lineups = [tasks.lineup(exp.rules, lu, exp.paths, exp.also, specialised) for lu in exp.lineups]
        self.pool = backends.pool(threads)
        self.pool.warm(tasks.warm, self.lineups)
        self.width = self.pool.width

    def submit(self, c: int, r: int):
        e = self.exp
        task = tasks.Chunk(self.lineups[r], e.seed, c * e.chunk, e.series_in_round(c), e.deals_per_series,
                     e.records, e.verify)
        return _Result(self.pool.submit(tasks.play_chunk, task), e)

    def close(self):
        self.pool.close()


class _Result:
    """A future whose result() is (Tally, records or None), counting verified series into the experiment."""

    def __init__(self, fut, exp):
        self.fut = fut
        self.exp = exp

    def result(self):
        out = self.fut.result()
        self.fut = None  # let the cluster drop the result
        if out["verified"]:
            self.exp.verified += out["verified"]
        return Tally.from_arrays(out["tally"]), out["records"]


@dataclass
class Experiment:
    """One experiment. Build it with `experiment(...)`, then `.run()`; tables and plots after."""
    rules: Rules
    seats: list[Seat]
    seed: int = 1
    games: int | None = 100_000
    precision: float | None = None
    max_games: int = 10_000_000
    rotate: bool = True
    chunk: int = 1 << 14
    deals_per_series: int = 1
    paths: tuple = ()
    out: Path | None = None
    records: bool = False
    threads: int | None = None
    also: tuple = ()  # more strategy names for the same compiled engine (see batch.Runner)
    verify: int = 0  # replay every verify-th series through the reference referee while running (0: none)
    engine: str | None = None  # auto, general, lean or specialised (batch.engine_choice; default DURAK_ENGINE or auto)
    compile_notice: object = field(default=None, repr=False)  # context manager shown while compiling (CLI)
    on_ready: object = field(default=None, repr=False)  # called with the games played once the engine is loaded
    lineups: list = field(init=False)
    tallies: list = field(init=False)
    rounds_done: int = field(init=False, default=0)
    seconds: float = field(init=False, default=0.0)
    status: str = field(init=False, default="new")
    repaired: list = field(init=False, default_factory=list)  # chunk files removed by resume(repair=True)

    def __post_init__(self):
        if self.games is None and self.precision is None:
            raise ExperimentError("give a number of games or a precision")
        if self.games is not None and self.games < 1:
            raise ExperimentError("--games must be at least 1")
        if self.precision is not None and not 0 < self.precision < 0.5:
            raise ExperimentError("--precision is a half-width of a 95% interval, e.g. 0.005 for ±0.5 points")
        if self.chunk < 1:
            raise ExperimentError("chunk must be at least 1")
        if self.deals_per_series < 1:
            raise ExperimentError("--deals-per-series must be at least 1")
        if self.verify < 0:
            raise ExperimentError(f"--verify must be 0 (off) or a positive N (every N-th game), not {self.verify}")
        self.verified = 0
        self.lineups = rotations(self.seats, self.rotate)
        self.tallies = [Tally(self.rules.num_players) for _ in self.lineups]
        if self.out is not None:
            self.out = Path(self.out)

    # ---- sizes -------------------------------------------------------------------------
    def _total_series(self) -> int:
        """Series per line-up for a fixed game count (the games are split over the rotations)."""
        per_lineup = -(-self.games // len(self.lineups))
        return -(-per_lineup // self.deals_per_series)

    def rounds_needed(self) -> int | None:
        """Rounds of chunks for a fixed game count (None in precision mode)."""
        return None if self.games is None else -(-self._total_series() // self.chunk)

    def series_in_round(self, c: int) -> int:
        """Series each line-up plays in round c (the last round of a fixed game count may be short)."""
        if self.games is None:
            return self.chunk
        return min(self.chunk, self._total_series() - c * self.chunk)

    @property
    def games_played(self) -> int:
        return sum(t.games for t in self.tallies)

    # ---- persistence -------------------------------------------------------------------
    def metadata(self) -> dict:
        return {
            "format": "durak-sim experiment 1", "package_version": sim.__version__, "commit": git_commit(),
            "family": self.rules.family, "players": self.rules.num_players, "toggles": self.rules.toggles,
            "strategies": [s.label for s in self.seats], "strategy_paths": [str(p) for p in self.paths],
            "seed": self.seed, "games": self.games, "precision": self.precision, "max_games": self.max_games,
            "rotate": self.rotate, "rotations": [[s.label for s in lu] for lu in self.lineups],
            "chunk": self.chunk, "deals_per_series": self.deals_per_series, "records": self.records,
            "rules_digest": rules_digest(self.rules), "chunk_format": CHUNK_FORMAT,
            "status": self.status, "games_played": self.games_played, "rounds_done": self.rounds_done,
            "seconds": round(self.seconds, 3), "written": _dt.datetime.now(_dt.timezone.utc).isoformat(),
            "provenance": self._provenance(),
        }

    def _provenance(self) -> dict:
        """The commit, the strategies' code digests and the rules of every rotation (worked out once)."""
        if getattr(self, "_prov", None) is None:
            self._prov = P.provenance([(self.rules, tuple(s.label for s in lu), tuple(str(p) for p in self.paths))
                                       for lu in self.lineups])
        return self._prov

    def _write_json(self, name: str, obj):
        tmp = self.out / f".{name}.tmp"
        tmp.write_text(json.dumps(obj, indent=1, default=str))
        tmp.replace(self.out / name)

    def _chunk_path(self, c: int, r: int) -> Path:
        return self.out / "chunks" / f"c{c:06d}-r{r}.npz"

    def chunk_identity(self, c: int, r: int) -> dict:
        """What a chunk file must say about itself: which run, which chunk, which line-up, how many series."""
        return {"format": CHUNK_FORMAT, "rules_digest": rules_digest(self.rules), "seed": self.seed,
                "chunk": c, "rotation": r, "lineup": [s.label for s in self.lineups[r]],
                "first_series": c * self.chunk, "series": self.series_in_round(c),
                "deals_per_series": self.deals_per_series}

    def _save_chunk(self, c: int, r: int, tally: Tally, recs):
        path = self._chunk_path(c, r)
        if self.records and recs is not None:
            df = records_frame(recs, self.rules.num_players)
            df["rotation"] = r
            rec_path = self.out / "records" / f"c{c:06d}-r{r}.parquet"
            df.to_parquet(rec_path.with_name(rec_path.stem + ".tmp.parquet"), index=False)
            rec_path.with_name(rec_path.stem + ".tmp.parquet").replace(rec_path)
        arrays = tally.to_arrays()
        identity = json.dumps(self.chunk_identity(c, r), sort_keys=True)
        tmp = path.with_name(path.stem + ".tmp.npz")
        np.savez(tmp, identity=np.array(identity), checksum=np.array(_checksum(identity, arrays)), **arrays)
        tmp.replace(path)  # atomic: a chunk file exists only when complete

    def _load_chunk(self, c: int, r: int) -> Tally:
        """A saved chunk's tally, after checking it is this run's chunk (c, r), whole and unchanged."""
        path = self._chunk_path(c, r)
        problem = self._chunk_problem(path, c, r)
        if problem:
            raise ExperimentError(f"chunk file {path} {problem}; continue with --resume {self.out} --repair "
                                  "to replay it")
        with np.load(path) as z:
            return Tally.from_arrays({k: z[k] for k in z.files})

    def _chunk_problem(self, path: Path, c: int, r: int) -> str | None:
        """Why the file at `path` is not a valid chunk (c, r) of this run (None when it is)."""
        try:
            if path.stat().st_size == 0:
                return "is empty"
            with np.load(path) as z:
                arrays = {k: z[k] for k in z.files}
        except Exception as e:  # truncated zip, not a zip, bad array header ...
            return f"cannot be read ({' '.join(str(e).split()) or 'unreadable'})"
        if "identity" not in arrays or "checksum" not in arrays:
            return "carries no identity or checksum (written by an older version, or not a chunk file)"
        identity = str(arrays.pop("identity"))
        checksum = str(arrays.pop("checksum"))
        if _checksum(identity, arrays) != checksum:
            return "fails its checksum (its content was changed or damaged)"
        try:
            got = json.loads(identity)
        except ValueError:
            return "carries an unreadable identity"
        want = self.chunk_identity(c, r)
        if got != want:
            diff = [k for k in want if got.get(k) != want[k]]
            what = ", ".join(f"{k} {got.get(k)!r} instead of {want[k]!r}" for k in diff)
            return f"belongs elsewhere: it says {what}"
        try:
            t = Tally.from_arrays(arrays)
        except Exception:
            return "holds incomplete counts"
        if t.games != want["series"] * self.deals_per_series or t.n != self.rules.num_players:
            return f"holds {t.games} games instead of {want['series'] * self.deals_per_series}"
        return None

    def check_chunks(self, repair: bool = False) -> list[str]:
        """Check every chunk file of the folder; refuse (naming each bad file) or, with repair, remove the bad
        ones so that run() plays them again. Returns the names of the removed files."""
        folder = self.out / "chunks"
        if not folder.is_dir():
            return []
        limit = self.rounds_needed()
        bad = []
        for path in sorted(folder.iterdir()):
            if path.name.endswith(".tmp.npz"):  # a write cut short: never counted
                continue
            m = CHUNK_NAME.match(path.name)
            if not m:
                bad.append((path, "is not a chunk file name (cNNNNNN-rK.npz)"))
                continue
            c, r = int(m.group(1)), int(m.group(2))
            if r >= len(self.lineups) or (limit is not None and c >= limit):
                bad.append((path, "is not a chunk of this run (index out of range)"))
                continue
            problem = self._chunk_problem(path, c, r)
            if problem:
                bad.append((path, problem))
        if bad and not repair:
            listed = "; ".join(f"{p.name} {why}" for p, why in bad)
            raise ExperimentError(f"{len(bad)} bad chunk file(s) in {folder}: {listed}. Nothing was changed; "
                                  f"`durak run --resume {self.out} --repair` replays them")
        for p, _ in bad:
            p.unlink()
        return [p.name for p, _ in bad]

    # ---- running -----------------------------------------------------------------------
    def engine_choice(self) -> tuple[str, str]:
        """(engine, why): the engine this run plays on (batch.engine_choice), decided once."""
        if getattr(self, "_engine_choice", None) is None:
            self._engine_choice = batch.engine_choice(self.rules, self.lineups[0], self.games, self.paths, self.also,
                                                      self.engine)
        return self._engine_choice

    def run(self, progress=None) -> "Experiment":
        """Play until the game count or the precision is reached. `progress(games, total|None)`.
        SIGTERM (a plain `kill`) is treated like Ctrl-C: metadata.json then says `interrupted`."""
        if self.out is not None:
            if self.out.exists() and not self.out.is_dir():
                raise ExperimentError(f"--out {self.out} exists and is not a folder")
            self.out.mkdir(parents=True, exist_ok=True)
            (self.out / "chunks").mkdir(exist_ok=True)
            if self.records:
                (self.out / "records").mkdir(exist_ok=True)
            self.status = "running"
            self._write_json("metadata.json", self.metadata())
        with _terminate_as_interrupt():
            return self._run(progress)

    def _run(self, progress=None) -> "Experiment":
        # compile or load the engine first (every rotation shares it): games/s excludes it
        specialised, _ = self.engine_choice()
        Runner(self.rules, self.lineups[0], self.paths, also=self.also, specialised=specialised).warm(
            self.compile_notice, self.seed)
        # chunks run as tasks on the active backend: threads here, or a Dask cluster (backends.use)
        jobs = _ChunkJobs(self, self.threads)
        threads = jobs.width
        if self.on_ready:
            self.on_ready(self.games_played)  # e.g. the progress bar's games/s clock starts here
        t0 = time.perf_counter() - self.seconds
        total = self.games
        pending: dict = {}

        def submit(c):
            for r in range(len(self.lineups)):
                if self.out is not None and self._chunk_path(c, r).exists():
                    pending[(c, r)] = ("saved", None)
                else:
                    pending[(c, r)] = ("future", jobs.submit(c, r))

        try:
            c = self.rounds_done
            limit = self.rounds_needed()
            ahead = max(1, (2 * threads) // len(self.lineups))
            nxt = c
            while True:
                if limit is not None and c >= limit:
                    break
                if self.games is None and (self.games_played >= self.max_games or
                                           (c > 0 and self.max_half_width() < self.precision)):
                    break
                while nxt < c + ahead and (limit is None or nxt < limit):
                    submit(nxt)
                    nxt += 1
                for r in range(len(self.lineups)):
                    kind, fut = pending.pop((c, r))
                    if kind == "saved":
                        t = self._load_chunk(c, r)
                    else:
                        t, recs = fut.result()
                        if self.out is not None:
                            self._save_chunk(c, r, t, recs)
                    self.tallies[r].merge(t)
                c += 1
                self.rounds_done = c
                self.seconds = time.perf_counter() - t0
                if self.out is not None:  # atomically, so a killed run's metadata says how far it got
                    self._write_json("metadata.json", self.metadata())
                if progress:
                    progress(self.games_played, total)
            self.status = "complete"
        except KeyboardInterrupt:
            self.status = "interrupted"
            raise
        finally:
            jobs.close()
            self.seconds = time.perf_counter() - t0
            if self.out is not None:
                self._write_json("metadata.json", self.metadata())
        return self

    # ---- tables ------------------------------------------------------------------------
    def _rows(self):
        """(lineup index, seat, label, tally) for every seat of every rotation."""
        for r, (lu, t) in enumerate(zip(self.lineups, self.tallies)):
            for s, seat in enumerate(lu):
                yield r, s, seat.label, t

    def _table_rows(self, key) -> list[tuple]:
        """(key, row) per key(seat, label): counts, rates with 95% Wilson intervals, means. Plain Python, so that
        summary() (`durak run --json`) needs no pandas: importing it is a third of a short run's time."""
        acc: dict = {}
        for r, s, label, t in self._rows():
            k = key(s, label)
            a = acc.setdefault(k, {"games": 0, "escaped": 0, "drew": 0, "fool": 0, "taken": 0, "place_sum": 0,
                                   "score_won": 0, "points": 0, "pogony": 0})
            a["games"] += t.finished
            a["escaped"] += int(t.escaped[s])
            a["drew"] += int(t.drew[s])
            a["fool"] += int(t.fool[s])
            a["taken"] += int(t.taken[s])
            a["place_sum"] += int((t.places[s] * np.arange(len(t.places[s]))).sum())
            a["score_won"] += int(t.score_won[s])
            a["points"] += int(t.points[s])
            a["pogony"] += int(t.pogony[s])
        rows = []
        for k, a in acc.items():
            n = a["games"]
            row = {"games": n}
            for what in RATES:
                lo, hi = wilson(a[what], n)
                row[f"{what}"] = a[what] / n if n else math.nan
                row[f"{what}_lo"] = float(lo)
                row[f"{what}_hi"] = float(hi)
            row["mean_place"] = a["place_sum"] / n if n else math.nan
            row["cards_taken_per_game"] = a["taken"] / n if n else math.nan
            if self.scoring != "fool":  # VAR-PG1 / VAR-OC1: the score is a result beside the fool
                lo, hi = wilson(a["score_won"], n)
                row["score_won"] = a["score_won"] / n if n else math.nan
                row["score_won_lo"], row["score_won_hi"] = float(lo), float(hi)
                row["points_per_game"] = a["points"] / n if n else math.nan
                row["pogony_per_game"] = a["pogony"] / n if n else math.nan
            rows.append((k, row))
        return rows

    def _table(self, key) -> pd.DataFrame:
        import pandas as pd
        rows = self._table_rows(key)
        return pd.DataFrame([r for _, r in rows], index=pd.Index([k for k, _ in rows]))

    @property
    def scoring(self) -> str:
        """The scoring variant on (``scoring`` toggle): fool (none), pogonny or ochkovy."""
        return self.rules.toggles.get("scoring", "fool")

    def score_totals(self) -> dict | None:
        """Per game, with a scoring variant: how often somebody won the score, the win was shared between
        sides, and a fool (a seat that lost the deal) won the score, with 95% intervals; None without one."""
        if self.scoring == "fool":
            return None
        n = sum(t.finished for t in self.tallies)
        with_fool = n - sum(t.draws for t in self.tallies)
        out = {"scoring": self.scoring, "finished": n, "games_with_fool": with_fool}
        for key, k, base in (("decided", "score_decided", n), ("shared", "score_shared", n),
                             ("fool_won_score", "fool_won_score", with_fool)):
            cnt = sum(getattr(t, k) for t in self.tallies)
            lo, hi = wilson(cnt, base)
            out[key] = cnt
            out[f"{key}_rate"] = cnt / base if base else None
            out[f"{key}_lo"], out[f"{key}_hi"] = float(lo), float(hi)
        return out

    def strategy_table(self) -> pd.DataFrame:
        """Per strategy over all its seats and rotations: rates with 95% Wilson intervals.

        Rates (escaped, drew, fool and their _lo/_hi bounds) are fractions of `games` from 0 to 1, as
        DataFrames usually hold them; `games` counts seat-games (a game counts once per seat the strategy
        held). `percent_view(table)` gives the same table in percent for reading."""
        df = self._table(lambda s, label: label)
        df.index.name = "strategy"
        return df

    def seat_table(self) -> pd.DataFrame:
        """Per seat over all strategies (with rotation, the seat effect alone)."""
        df = self._table(lambda s, label: s).sort_index()
        df.index.name = "seat"
        return df

    def strategy_seat_table(self) -> pd.DataFrame:
        import pandas as pd
        df = self._table(lambda s, label: (label, s)).sort_index()
        df.index = pd.MultiIndex.from_tuples(df.index, names=["strategy", "seat"])
        return df

    def team_table(self) -> pd.DataFrame | None:
        import pandas as pd
        teams = self.rules.teams
        if not teams:
            return None
        rows = []
        for members in teams:
            lost = sum(int(t.fool[members[0]]) for t in self.tallies)
            drew = sum(int(t.drew[members[0]]) for t in self.tallies)
            n = sum(t.finished for t in self.tallies)
            row = {"seats": ",".join(map(str, members)), "games": n}
            for what, cnt in (("lost", lost), ("drew", drew), ("won", n - lost - drew)):
                lo, hi = wilson(cnt, n)
                row[what], row[f"{what}_lo"], row[f"{what}_hi"] = cnt / n if n else np.nan, float(lo), float(hi)
            rows.append(row)
        return pd.DataFrame(rows, index=pd.Index(range(len(teams)), name="team"))

    def places(self) -> pd.DataFrame:
        """Finishing-place distribution per strategy (rows) and place (columns), as fractions of seat-games,
        draws apart: a drawn seat-game counts in the `drew` column, not in the place it shared (RUL-21), so
        a row sums to 1."""
        import pandas as pd
        acc: dict = {}
        drawn: dict = {}
        for r, s, label, t in self._rows():
            acc[label] = acc.get(label, 0) + t.places[s]
            drawn[label] = drawn.get(label, 0) + t.drew_places[s]
        rows = {}
        for k, v in acc.items():
            total = max(v[1:].sum(), 1)
            d = drawn[k][1:]
            rows[k] = list((v[1:] - d) / total) + [d.sum() / total]
        df = pd.DataFrame(rows).T
        df.columns = [f"place {i}" for i in range(1, df.shape[1])] + ["drew"]
        return df

    def totals(self) -> dict:
        n = sum(t.finished for t in self.tallies)
        g = sum(t.games for t in self.tallies)
        draws = sum(t.draws for t in self.tallies)
        fa = sum(t.first_attacker_fool for t in self.tallies)
        lo, hi = wilson(draws, n)
        flo, fhi = wilson(fa, n)
        hist = sum(t.bouts_hist for t in self.tallies)
        ex = sum(t.exchanges for t in self.tallies)
        exf = sum(t.exchanger_fool for t in self.tallies)
        return {"games": g, "finished": n, "unfinished": g - n, "draws": draws, "draw_rate": draws / n if n else None,
                "draw_lo": float(lo), "draw_hi": float(hi),
                "mean_bouts": float((hist * np.arange(len(hist))).sum() / n) if n else None,
                "first_attacker_fool": fa, "first_attacker_fool_rate": fa / n if n else None,
                "first_attacker_fool_lo": float(flo), "first_attacker_fool_hi": float(fhi),
                "trump_six_exchanges": ex, "exchanger_fool": exf,
                "transfers_per_game": sum(t.transfers for t in self.tallies) / n if n else None,
                "invariant_violations": sum(t.invariant_violations for t in self.tallies)}

    def length_hist(self) -> pd.Series:
        import pandas as pd
        hist = sum(t.bouts_hist for t in self.tallies)
        last = int(np.max(np.nonzero(hist)[0])) if hist.any() else 0
        return pd.Series(hist[: last + 1], name="games").rename_axis("bouts")

    def max_half_width(self) -> float:
        """The widest 95% half-width among the reported strategy and seat rates (precision mode)."""
        worst = 0.0
        for df in (self.strategy_table(), self.seat_table()):
            for what in RATES:
                hw = (df[f"{what}_hi"] - df[f"{what}_lo"]) / 2
                worst = max(worst, float(hw.max()) if len(hw) else 1.0)
        return worst

    def summary(self) -> dict:
        """Machine-readable summary (the `durak run --json` contract)."""
        seats = []
        for s in range(self.rules.num_players):
            held = list(dict.fromkeys(lu[s].label for lu in self.lineups))
            seats.append({"seat": s, "strategy": "|".join(held),
                          **{k: int(sum(getattr(t, k)[s] for t in self.tallies))
                             for k in ("escaped", "drew", "fool")},
                          "cards_taken": int(sum(t.taken[s] for t in self.tallies))})
        tot = self.totals()
        return {
            "games": tot["games"], "finished": tot["finished"], "unfinished": tot["unfinished"], "seed": self.seed,
            "invariant_violations": tot["invariant_violations"], "referee_verified_series": self.verified,
            "rules": {"family": self.rules.family, "players": self.rules.num_players, "toggles": self.rules.toggles,
                      "teams": self.rules.teams},
            "seats": seats, "draws": tot["draws"], "mean_bouts": tot["mean_bouts"],
            "first_attacker_fool": tot["first_attacker_fool"], "trump_six_exchanges": tot["trump_six_exchanges"],
            "exchanger_fool": tot["exchanger_fool"],
            "rotations": [[s.label for s in lu] for lu in self.lineups],
            "per_rotation": [{"lineup": [s.label for s in lu], "escaped": t.escaped.tolist(),
                              "drew": t.drew.tolist(), "fool": t.fool.tolist(), "games": t.games}
                             for lu, t in zip(self.lineups, self.tallies)],
            "strategies": _json_rows(self._table_rows(lambda s, label: label), "strategy"),
            "seat_effects": _json_rows(sorted(self._table_rows(lambda s, label: s), key=lambda r: r[0]), "seat"),
            "score": self.score_totals(),
            "seconds": round(self.seconds, 3), "status": self.status,
            "units": {"games": "games (deals) played", "strategies.games, seat_effects.games":
                      "seat-games: a game counts once per seat the strategy held",
                      "escaped, drew, fool (and _lo, _hi)": "fractions of those seat-games, 0 to 1 (x100 for %)",
                      "seats.escaped, seats.drew, seats.fool": "counts of games",
                      "score_won (and _lo, _hi), points_per_game, pogony_per_game": "scoring variants only: "
                      "fractions of seat-games whose score the seat won (a shared win counts for each winner); "
                      "mean cards beaten and pogony inflicted per seat-game",
                      "score": "scoring variants only (else null): games the score was decided, shared between "
                      "sides, and won by a fool (rate over the games with a fool)"},
        }


def _json_rows(rows: list[tuple], name: str) -> list[dict]:
    """Rows of _table_rows as the JSON contract has them: the key under `name`, then the columns, NaN as null."""
    return [{name: k, **{c: None if isinstance(v, float) and math.isnan(v) else v for c, v in row.items()}}
            for k, row in rows]


def percent_view(df: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """A table of strategy_table()/seat_table() with every rate column in percent (0-100) and counts as integers,
    the columns renamed `escaped %`, `escaped_lo %`, ... so nobody mistakes which scale a number is on."""
    import pandas as pd
    out = pd.DataFrame(index=df.index)
    for c in df.columns:
        base = c.rsplit("_", 1)[0] if c.endswith(("_lo", "_hi")) else c
        if base in RATES or base == "score_won":
            out[f"{c} %"] = (100 * df[c]).round(digits)
        elif c == "games":
            out["seat-games"] = df[c].astype(int)
        else:
            out[c] = df[c]
    return out


def records_frame(recs: np.ndarray, n: int) -> pd.DataFrame:
    """Per-game records as a flat DataFrame (one column per seat field)."""
    import pandas as pd
    cols = {name: recs[name] for name in recs.dtype.names if recs.dtype[name].shape == ()}
    for name in ("outcome", "place", "taken", "points", "pogony", "pogon_top"):
        for s in range(n):
            cols[f"{name}_{s}"] = recs[name][:, s]
    return pd.DataFrame(cols)


def experiment(rules: str | Rules = "podkidnoy", players: int = 2, toggles: dict | None = None,
               strategies=("greedy",), **kw) -> Experiment:
    """Build an experiment from names, as the CLI does: experiment("prostoy_5", 2, {...}, ["greedy"])."""
    if not isinstance(rules, Rules):
        rules = resolve(rules, players, toggles or {})
    paths = tuple(kw.pop("paths", ()))
    seats = batch.make_lineup(rules, strategies, paths)
    return Experiment(rules, seats, paths=paths, **kw)


def resume(out: str | Path, threads: int | None = None, repair: bool = False) -> Experiment:
    """Rebuild an experiment from its folder's metadata.json; `.run()` then plays what is missing.

    Every saved chunk file is checked first (identity and checksum): a bad one is named and the resume
    refused, or with `repair=True` removed so that `.run()` plays it again."""
    out = Path(out)
    meta_path = out / "metadata.json"
    if not meta_path.is_file():
        raise ExperimentError(f"{out} holds no metadata.json: not an experiment folder")
    try:
        m = json.loads(meta_path.read_text())
    except (ValueError, UnicodeDecodeError) as e:
        raise ExperimentError(f"{meta_path} is not valid JSON ({' '.join(str(e).split())})") from None
    problem = schema_problem(m, METADATA_SCHEMA, str(meta_path))
    if problem:
        raise ExperimentError(problem)
    rules = resolve(m["family"], m["players"], m["toggles"])
    paths = tuple(m.get("strategy_paths") or ())
    seats = batch.make_lineup(rules, m["strategies"], paths)
    if m.get("rules_digest") not in (None, rules_digest(rules)):
        raise ExperimentError(f"{meta_path}: the rules no longer give the recorded rules_digest")
    exp = Experiment(rules, seats, seed=m["seed"], games=m["games"], precision=m["precision"],
                     max_games=m["max_games"], rotate=m["rotate"], chunk=m["chunk"],
                     deals_per_series=m["deals_per_series"], paths=paths, out=out, records=m["records"],
                     threads=threads)
    if [[s.label for s in lu] for lu in exp.lineups] != m["rotations"]:
        raise ExperimentError(f"{out}: the strategies no longer give the recorded rotations")
    exp.repaired = exp.check_chunks(repair)
    return exp
