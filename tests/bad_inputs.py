"""The catalogue of bad inputs: what a careless or hurried user types, and what the error must name.

Each case is (args, expected, files): `args` is the command line after `durak` ("{tmp}" is replaced by a
scratch folder, "{tests}" by this folder), `expected` a piece of text the one-line error must contain (the option, the value or the
JSON path), `files` maps a file name in that folder to its content (a str, or an object written as JSON).
A new option joins by adding its bad values here; tests/test_bad_inputs.py runs every case.
None of these cases should need a compiled engine: they are refused before any game is played.
"""
from __future__ import annotations

import copy

# A valid position document (prostoy_5, 2 players): the judge cases below each break one thing.
GOOD = {
    "id": "P-GOOD", "family": "prostoy_5", "toggles": {},
    "position": {"num_players": 2, "seats_clockwise": [0, 1], "trump_suit": "S", "trump_card": "8S",
                 "trump_card_location": "talon_bottom", "talon_size": 16, "talon_order_top_to_bottom": None,
                 "hands": {"0": ["7C", "7D", "QH", "9S", "AH"], "1": ["KC", "8D", "6C", "10H", "JS"]},
                 "attacker": 0, "defender": 1, "table": [], "first_bout": False, "dealer": 1,
                 "out_players": [], "teams": None, "discard_count": 10},
    "action": {"type": "attack", "player": 0, "cards": ["7C", "7D", "QH"]},
}


def doc(edit) -> dict:
    """GOOD with one change: edit(d) modifies a deep copy (and may return a replacement)."""
    d = copy.deepcopy(GOOD)
    out = edit(d)
    return d if out is None else out


def _set(path: str, value):
    def edit(d):
        *head, last = path.split(".")
        for k in head:
            d = d[k]
        d[last] = value
    return edit


def _del(path: str):
    def edit(d):
        *head, last = path.split(".")
        for k in head:
            d = d[k]
        del d[last]
    return edit


def _nine_players(d):
    d["position"]["num_players"] = 9
    d["position"]["seats_clockwise"] = list(range(9))


def _nine_hands(d):
    del d["position"]["num_players"], d["position"]["seats_clockwise"]
    d["position"]["hands"] = {str(s): [] for s in range(9)}


def _covers_in_prostoy(d):
    p = d["position"]
    p["hands"]["0"].remove("7C")
    p["hands"]["1"].remove("KC")
    p["table"] = [{"attack": "7C", "cover": "KC"}]
    d["action"] = {"type": "defend", "player": 1, "covers": [], "take": ["7C"]}


J = "{tmp}/doc.json"


def judge(expected, document):
    return (["judge", J], expected, {"doc.json": document})


def resume(expected, metadata):
    return (["run", "--resume", "{tmp}/run"], expected, {"run/metadata.json": metadata})


META = {"family": "prostoy_5", "players": 2, "toggles": {}, "strategies": ["greedy"], "seed": 1, "games": 100,
        "precision": None, "max_games": 1000, "rotate": True, "rotations": [["greedy"]], "chunk": 100,
        "deals_per_series": 1, "records": False}

BAD_INPUTS = [
    # ---- run ------------------------------------------------------------------------------------------
    (["run", "--seed", "1180591620717411303424"], "--seed", None),
    (["run", "--seed", "-1"], "--seed", None),
    (["run", "--seed", "abc"], "--seed", None),
    (["run", "--threads", "-1"], "--threads", None),
    (["run", "--threads", "100000"], "--threads", None),
    (["run", "--threads", "two"], "--threads", None),
    (["run", "--games", "0"], "--games", None),
    (["run", "--games", "-10"], "--games", None),
    (["run", "--games", "1e30"], "--games", None),
    (["run", "--games", "1.5"], "--games", None),
    (["run", "--games", "lots"], "--games", None),
    (["run", "--precision", "0.01", "--max-games", "0"], "--max-games", None),
    (["run", "--precision", "0"], "--precision", None),
    (["run", "--precision", "-0.1"], "--precision", None),
    (["run", "--precision", "nan"], "--precision", None),
    (["run", "--precision", "inf"], "--precision", None),
    (["run", "--precision", "0.5"], "--precision", None),
    (["run", "--precision", "0.01", "--games", "1000"], "--precision", None),
    (["run", "--players", "1"], "--players", None),
    (["run", "--players", "9"], "--players", None),
    (["run", "--chunk", "0"], "--chunk", None),
    (["run", "--deals-per-series", "0"], "--deals-per-series", None),
    (["run", "--rules", "chess"], "chess", None),
    (["run", "--toggle", "nonsense=1"], "nonsense", None),
    (["run", "--toggle", "hand_size"], "hand_size", None),
    (["run", "--toggle", "hand_size=99"], "hand_size", None),
    (["run", "--strategy", "nobody", "--no-save"], "nobody", None),
    (["run", "--plots", "--no-save"], "--no-save", None),
    (["run", "--strategy", "greedy", "--strategy", "random", "--strategy", "greedy"], "--strategy", None),
    (["run", "--strategy", "greedy:nonsense=3"], "nonsense", None),
    (["run", "--strategy", "expert:keep_ace=0.5"], "keep_ace=0.5 must be 0 or 1", None),
    (["run", "--strategy", "expert:high_rank=-50"], "high_rank=-50 is outside [0, 9]", None),
    (["run", "--out", "/proc/durak-out"], "--out", None),
    (["run", "--out", "{tmp}/a-file"], "--out", {"a-file": "not a folder"}),
    (["run", "--repair"], "--repair", None),
    (["run", "--resume", "{tmp}/missing"], "--resume", None),
    (["run", "--resume", "{tmp}/empty"], "metadata.json", {"empty/keep.txt": ""}),
    (["run", "--resume", "{tmp}/run"], "not valid JSON", {"run/metadata.json": "{broken"}),
    resume("'toggles' is a required property", {k: v for k, v in META.items() if k != "toggles"}),
    resume("$.seed", {**META, "seed": "one"}),
    resume("$.players", {**META, "players": 12}),
    resume("$: [1, 2] is not of type 'object'", [1, 2]),
    resume("unknown", {**META, "family": "chess"}),
    (["run", "--no-such-option"], "--no-such-option", None),
    # ---- compare --------------------------------------------------------------------------------------
    (["compare", "--games", "0"], "--games", None),
    (["compare", "--seed", "99999999999999999999999"], "--seed", None),
    (["compare", "--threads", "-3"], "--threads", None),
    (["compare", "--players", "7"], "--players", None),
    (["compare", "--a", "nonsense=true"], "nonsense", None),
    (["compare", "--a-rules", "chess"], "chess", None),
    (["compare", "--strategy", "nobody"], "nobody", None),
    (["compare", "--metric", "happiness"], "--metric", None),
    (["compare", "--out", "/proc/durak-compare"], "--out", None),
    # ---- tournament -----------------------------------------------------------------------------------
    (["tournament", "--strategy", "greedy", "--strategy", "random", "--games", "0"], "--games", None),
    (["tournament", "--strategy", "greedy", "--strategy", "random", "--games", "-10"], "--games", None),
    (["tournament", "--strategy", "greedy"], "--strategy", None),
    (["tournament"], "--strategy", None),
    (["tournament", "--strategy", "greedy", "--strategy", "nobody"], "nobody", None),
    (["tournament", "--strategy", "greedy", "--strategy", "random", "--threads", "-1"], "--threads", None),
    (["tournament", "--strategy", "greedy", "--strategy", "random", "--rules", "chess"], "chess", None),
    # ---- replay ---------------------------------------------------------------------------------------
    (["replay", "--deals", "-1"], "--deals", None),
    (["replay", "--deals", "0"], "--deals", None),
    (["replay", "--deals", "100000"], "--deals", None),
    (["replay", "--game", "-1"], "--game", None),
    (["replay", "--game", "1180591620717411303424"], "--game", None),
    (["replay", "--rotation", "99"], "--rotation", None),
    (["replay", "--rotation", "2", "--players", "2"], "--rotation", None),
    (["replay", "--rotation", "-1"], "--rotation", None),
    (["replay", "--seed", "-5"], "--seed", None),
    (["replay", "--players", "0"], "--players", None),
    (["replay", "--strategy", "nobody"], "nobody", None),
    # ---- settle ---------------------------------------------------------------------------------------
    (["settle", "is-it-raining"], "unknown question", None),
    (["settle", "trump-six-exchange", "--scale", "nan"], "--scale", None),
    (["settle", "trump-six-exchange", "--scale", "inf"], "--scale", None),
    (["settle", "trump-six-exchange", "--scale", "-1"], "--scale", None),
    (["settle", "trump-six-exchange", "--scale", "0"], "--scale", None),
    (["settle", "trump-six-exchange", "--scale", "2"], "--scale", None),
    (["settle", "trump-six-exchange", "--threads", "-1"], "--threads", None),
    (["settle", "trump-six-exchange", "--seed", "-1"], "--seed", None),
    (["settle", "trump-six-exchange", "--out", "/proc/durak-settle"], "--out", None),
    (["settle", "trump-six-exchange", "--out", "{tmp}/x", "--write-results"], "--write-results", None),
    (["settle"], "NAME", None),
    (["settle", "--question-path", "{tmp}/nope", "x"], "nope", None),
    (["settle", "--question-path", "{tmp}/file.py", "x"], "--question-path", {"file.py": "x = 1\n"}),
    (["settle", "--question-path", "{tmp}/q", "x"], "has no TITLE", {"q/x.py": "QUESTION = 'Why?'\n"}),
    (["settle", "--question-path", "{tmp}/q", "x"], "missing GAMES", {"q/x.py": "TITLE = QUESTION = 'Why?'\n"
                                                                       "SETTINGS = []\nA = B = {}\n"}),
    (["settle", "--question-path", "{tmp}/q", "x"], "failed to import", {"q/x.py": "TITLE = 'Why?\n"}),
    (["settle", "--question-path", "{tmp}/q", "x"], "run must be a function",
     {"q/x.py": "TITLE = QUESTION = 'Why?'\nrun = 3\n"}),
    # ---- rules / strategies ---------------------------------------------------------------------------
    (["rules", "--players", "3"], "--players", None),
    (["rules", "extra"], "extra", None),
    (["strategies", "--strategy-path", "{tmp}/file.py"], "--strategy-path", {"file.py": "x = 1\n"}),
    (["strategies", "--strategy-path", "{tmp}/nope"], "nope", None),
    # ---- judge ----------------------------------------------------------------------------------------
    (["judge", "{tmp}/nowhere.json"], "nowhere.json", None),
    (["judge", J], "not valid JSON", {"doc.json": "{\"family\": "}),
    (["judge", J], "not valid JSON", {"doc.json": ""}),
    judge("$: expected a JSON object", [1, 2, 3]),
    judge("$: expected a JSON object", 42),
    judge("$: expected a JSON object", None),
    judge("'position' is a required property", doc(_del("position"))),
    judge("'action' is a required property", doc(_del("action"))),
    judge("'family' is a required property", doc(_del("family"))),
    judge("$.family", doc(_set("family", "chess"))),
    judge("$.toggles", doc(_set("toggles", [1]))),
    judge("$.position.talon_size", doc(_set("position.talon_size", "many"))),
    judge("$.position.talon_size", doc(_set("position.talon_size", -3))),
    judge("$.position.talon_size", doc(_set("position.talon_size", 99))),
    judge("$.position.num_players", doc(_nine_players)),
    judge("Durak is played by 2 to 6", doc(_nine_hands)),
    judge("no hand for seat 1", doc(_del("position.hands.1"))),
    judge("$.position.hands.0[0]", doc(_set("position.hands.0", ["1X"]))),
    judge("$.position.trump_suit", doc(_set("position.trump_suit", "X"))),
    judge("$.position.trump_card_location", doc(_set("position.trump_card_location", "in_the_sky"))),
    judge("$.position.attacker", doc(_set("position.attacker", "me"))),
    judge("$.position.defender", doc(_set("position.defender", 7))),
    judge("$.position.table", doc(_set("position.table", "7C"))),
    judge("$.position.table[0]", doc(_set("position.table", [{"cover": "KC"}]))),
    judge("$.position", doc(_set("position", [1, 2]))),
    judge("$.action", doc(_set("action", "attack"))),
    judge("$.action.sequence", doc(_set("action", {"sequence": []}))),
    judge("position.table[0].cover", doc(_covers_in_prostoy)),
    judge("$.examples[1]", {"examples": [GOOD, {"family": "podkidnoy"}]}),
    judge("$.examples", {"examples": []}),
    judge("trump card", doc(_set("position.trump_card", "9H"))),
    # ---- atlas ----------------------------------------------------------------------------------------
    (["atlas", "--out", "{tmp}/a", "--scale", "huge", "--estimate"], "--scale", None),
    (["atlas", "--out", "{tmp}/a", "--scale", "0", "--estimate"], "--scale", None),
    (["atlas", "--out", "{tmp}/a", "--players", "7", "--estimate"], "--players", None),
    (["atlas", "--out", "{tmp}/a", "--rules", "poker", "--estimate"], "poker", None),
    (["atlas", "--out", "{tmp}/a", "--only", "no_such_rule", "--estimate"], "no_such_rule", None),
    (["atlas", "--out", "{tmp}/a", "--panel", "no_such_player", "--estimate"], "no_such_player", None),
    (["atlas", "--out", "{tmp}/empty", "--site-only"], "atlas.json", None),
    judge("card(s) 7C are in two places at once", doc(lambda d: d["position"]["hands"]["1"].append("7C"))),
    (["judge"], "give a FILE or --examples", None),
    (["judge", J, "--examples"], "give a FILE or --examples", {"doc.json": GOOD}),
    # ---- hint -----------------------------------------------------------------------------------------
    (["hint"], "give a FILE or --examples", None),
    (["hint", "{tmp}/empty.json"], "'family' is a required property", {"empty.json": {}}),
    (["hint", "{tmp}/list.json"], "expected a JSON object", {"list.json": [1, 2]}),
    (["hint", "{tmp}/broken.json"], "broken.json is not valid JSON", {"broken.json": "{\"family\": "}),
    (["hint", "{tmp}/nowhere.json"], "nowhere.json", None),
    (["hint", J], "$.position.hands.0[0]", {"doc.json": doc(_set("position.hands.0", ["1X"]))}),
    (["hint", J, "--id", "P-NONE"], "no position with id 'P-NONE'", {"doc.json": GOOD}),
    (["hint", J, "--budget", "lots"], "--budget", {"doc.json": GOOD}),
    (["hint", J, "--seed", "-1"], "--seed", {"doc.json": GOOD}),
    (["hint", "{tmp}/start.json"], "'hand' is a required property",
     {"start.json": {"family": "podkidnoy", "start_of_deal": True, "num_players": 2, "trump_card": "7H"}}),
    # ---- play -----------------------------------------------------------------------------------------
    (["play", "--players", "9"], "--players", None),
    (["play", "--seat", "3"], "--seat 3 is out of range", None),
    (["play", "--seat", "-1"], "--seat", None),
    (["play", "--games", "0"], "--games", None),
    (["play", "--hint-budget", "-1"], "--hint-budget", None),
    (["play", "--seed", "-1"], "--seed", None),
    (["play", "--rules", "chess"], "chess", None),
    (["play", "--strategy", "nobody"], "nobody", None),
    # ---- bench ----------------------------------------------------------------------------------------
    (["bench", "--games", "0"], "--games", None),
    (["bench", "--games", "-5"], "--games", None),
    (["bench", "--threads", "-1"], "--threads", None),
    (["bench", "--search-games", "-1"], "--search-games", None),
    (["bench", "--search-games", "many"], "--search-games", None),
    # ---- the group itself -----------------------------------------------------------------------------
    (["no-such-command"], "no-such-command", None),
]


BAD = "{tests}/fixtures/bad_strategies"

# Cases that need a compiled engine (a user strategy's, or the kernels and greedy for `play`): the message of a
# failure found while playing. (args, expected, files, stdin): `stdin` is typed into an interactive command;
# `expected` must be in the one-line error, or for `play` (which answers a bad move and asks again) in its output.
ENGINE_CASES = [
    # the trial game before a run is game 0 of the run's seed, and the message says so
    (["run", "--strategy-path", BAD, "--strategy", "greedy", "--strategy", "raiser", "--seed", "5", "--games", "10",
      "--no-save", "--threads", "1"], "in game 0 of seed 5", None, None),
    # several cards typed at a throw-in: one card at a time (seed 3: you lead 6C, greedy covers, then throw in)
    (["play", "--strategy", "greedy", "--seed", "3", "--ascii"], "one card at a time: throw in one of 6S 7D",
     None, "6C\n6S 7D\nq\n"),
    # the referee's reasons name cards as the screen shows them (with suit symbols unless --ascii)
    (["play", "--strategy", "greedy", "--seed", "3"], "illegal (POD-T2): A\u2660 matches no rank", None, "6C\nAS\nq\n"),
]
