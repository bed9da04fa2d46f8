"""What a result was made from, and whether that still holds: the commit, the strategies, the rules, the question.

Every result folder records `provenance(...)`: the commit (and the package version, for an installed copy), each
strategy's source digest (its file and every `strategies` module it imports), the rules of every line-up played
with their presets' defaults, the core's source digest, and -- for the settled questions -- the question file's
digest and a play fingerprint of every line-up the question played: a hash of the records of a few hundred games
of that line-up under those rules, played again on the current core with the current strategies.

`check(folder)` says why a settled answer is stale: its question file changed, a preset's defaults changed, or a
line-up plays differently now (a strategy's play or the core's moved). A source change that leaves every line-up's
play the same (a comment, a faster kernel) is reported as a note, not as stale: the answer would be the same
bit for bit. Nothing here reads git at check time; the commit is recorded for the reader.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path

import numpy as np

import sim
from sim.core import dispatch
from sim.core import rules as R
from sim.core.rules import Rules

FINGERPRINT_GAMES = 256  # games per line-up in a play fingerprint: a changed decision shows within a few games
FINGERPRINT_SEED = 20261202
FILE = "provenance.json"
_IMPORT = re.compile(r"^\s*(?:from\s+strategies(?:\.(\w+))?\s+import\s+([\w ,()]+)|import\s+strategies\.(\w+))", re.M)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def source_digest(name: str, paths=()) -> str:
    """A strategy's code: its file and every library module it imports (from strategies import x,
    from strategies._lib import y), followed to the end, each by name and content."""
    lib = dispatch.BUILTIN_DIR
    todo = [Path(dispatch.discover(paths)[name])]
    seen: dict[str, bytes] = {}
    while todo:
        f = todo.pop()
        key = str(f.resolve())
        if key in seen or not f.exists():
            continue
        seen[key] = f.read_bytes()
        for module, names, plain in _IMPORT.findall(seen[key].decode("utf-8", "replace")):
            mods = [module or plain] if (module or plain) else [x.split()[0] for x in names.strip("() ").split(",")
                                                                if x.strip()]
            todo += [lib / f"{m}.py" for m in mods]
    h = hashlib.sha256()
    for key in sorted(seen, key=lambda k: Path(k).name):
        h.update(Path(key).name.encode() + b"\0" + seen[key])
    return h.hexdigest()[:16]


def core_digest() -> str:
    """The compiled core's source files (sim/core/*.py), by name and content."""
    h = hashlib.sha256()
    for f in sorted((Path(sim.__file__).resolve().parent / "core").glob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def rules_key(rules: Rules) -> dict:
    return {"family": rules.family, "players": rules.num_players, "toggles": dict(rules.toggles)}


def _rules_of(key: dict) -> Rules:
    return R.resolve(key["family"], key["players"], key["toggles"])


def play_fingerprint(rules: Rules, labels, paths=(), also=()) -> str:
    """A hash of every record of FINGERPRINT_GAMES games of this line-up under these rules (fixed seed): the same
    hash means the same games, in every outcome the records keep. `also`: every strategy of the result, so that
    one engine (the one its experiments compiled) serves all its line-ups; which engine plays does not change
    the games."""
    from sim.experiments import batch
    seats = batch._make_lineup(rules, list(labels), paths)
    raw = batch.Runner(rules, seats, paths, also=also).play_raw(FINGERPRINT_SEED, 0, FINGERPRINT_GAMES)
    return _sha(np.ascontiguousarray(raw).tobytes())


@functools.lru_cache(maxsize=1)
def git_commit() -> str | None:
    """The checkout's commit (None for an installed copy, or without git)."""
    import subprocess
    root = Path(sim.__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=5).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None
    return head


def _commit() -> str | None:
    return git_commit()


def provenance(used, question: Path | None = None, fingerprints: bool = False) -> dict:
    """The record of a result: `used` is a list of (rules, seat labels, strategy folders) as
    batch.recording() notes them (or as a command knows them); `question` the question file, if any;
    `fingerprints` adds each line-up's play fingerprint (the settled questions, which `check` reads)."""
    lineups: dict[str, dict] = {}
    strategies: dict[str, str] = {}
    presets: dict[str, dict] = {}
    engine = sorted({x.split(":")[0] for _, labels, _ in used for x in labels})
    for rules, labels, paths in used:
        key = rules_key(rules)
        lk = json.dumps([key, list(labels), list(paths)], sort_keys=True, default=str)
        if lk not in lineups:
            lineups[lk] = {"rules": key, "lineup": list(labels), "strategy_paths": list(paths)}
            if fingerprints:
                lineups[lk]["plays"] = play_fingerprint(rules, labels, paths, engine)
        for label in labels:
            name = label.split(":")[0]
            strategies.setdefault(name, source_digest(name, paths))
        presets.setdefault(f"{rules.family} {rules.num_players}p",
                           {k: v for k, v in R.resolve(rules.family, rules.num_players, {}).toggles.items()})
    out = {"format": "durak-sim provenance 1", "commit": _commit(), "package_version": sim.__version__,
           "core": core_digest(), "strategies": dict(sorted(strategies.items())), "engine": engine,
           "presets": json.loads(json.dumps(presets, default=str)),
           "lineups": sorted(lineups.values(), key=lambda d: json.dumps(d, sort_keys=True, default=str))}
    if question is not None:
        out["question"] = {"file": question.name, "digest": _sha(Path(question).read_bytes())}
    return json.loads(json.dumps(out, default=str))


def check(folder: Path, question: Path | None, leave_out=()) -> tuple[list[str], list[str]]:
    """(reasons the answer in `folder` is stale, notes): empty reasons when its inputs still give it.
    `leave_out`: strategy names whose line-ups are not played (the rest play on an engine without them), for a
    quick check that need not compile those strategies' engine; a note says how many were left out."""
    f = Path(folder) / FILE
    if not f.exists():
        return [f"it records no {FILE} (made before results recorded what they were made from): regenerate it"], []
    rec = json.loads(f.read_text())
    reasons, notes = [], []
    q = rec.get("question")
    if q and question is not None and _sha(Path(question).read_bytes()) != q["digest"]:
        reasons.append(f"its question file {q['file']} changed")
    for key, defaults in rec.get("presets", {}).items():
        family, players = key.split()
        now = json.loads(json.dumps(R.resolve(family, int(players[:-1]), {}).toggles, default=str))
        moved = sorted(k for k in set(now) | set(defaults) if now.get(k) != defaults.get(k))
        if moved:
            reasons.append(f"the defaults of {key} changed ({', '.join(moved)})")
    moved_plays = []
    also = [x for x in rec.get("engine", ()) if x.split(":")[0] not in leave_out]
    left = 0
    for lu in rec.get("lineups", []):
        if "plays" not in lu:
            continue
        if any(x.split(":")[0] in leave_out for x in lu["lineup"]):
            left += 1
            continue
        try:
            now = play_fingerprint(_rules_of(lu["rules"]), lu["lineup"], lu["strategy_paths"], also)
        except (R.RulesError, ValueError) as e:
            reasons.append(f"line-up {', '.join(lu['lineup'])} cannot be played any more: {e}")
            continue
        if now != lu["plays"]:
            moved_plays.append(lu)
    if moved_plays:
        who = sorted({x.split(":")[0] for lu in moved_plays for x in lu["lineup"]})
        where = sorted({f"{lu['rules']['family']} {lu['rules']['players']}p" for lu in moved_plays})
        changed = [n for n in who if _current_source(n, moved_plays) != rec["strategies"].get(n)]
        why = (f"the code of {', '.join(changed)} changed" if changed else
               "no strategy's code changed, so the core's play did" if rec.get("core") != core_digest() else
               "the strategies and the core read the same, so something they import changed")
        reasons.append(f"{len(moved_plays)} of its {len(rec.get('lineups', []))} line-ups play differently now "
                       f"({', '.join(who)}; {', '.join(where)}): {why}")
    else:
        edited = [n for n, d in rec.get("strategies", {}).items()
                  if n not in leave_out and _current_source(n, rec.get("lineups", [])) != d]  # whose play was checked
        if edited:
            notes.append(f"the code of {', '.join(edited)} changed since, its play did not")
        if rec.get("core") != core_digest():
            notes.append("the core's code changed since, its play did not")
    if left:
        notes.append(f"{left} line-ups not played (they hold {' or '.join(sorted(leave_out))})")
    return reasons, notes


def _current_source(name: str, lineups) -> str | None:
    paths = next((lu["strategy_paths"] for lu in lineups if any(x.split(":")[0] == name for x in lu["lineup"])), [])
    try:
        return source_digest(name, paths)
    except (dispatch.StrategyError, KeyError):
        return None
