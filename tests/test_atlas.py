"""The rule atlas: which cells it plans, the sequential rule's error rate, the numbers behind the pages (a rule
that changes nothing shows no detectable change; a known effect shows with its sign), resuming, the site's
files, and bad input."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sim.core import rules as R
from sim.experiments import atlas as A
from sim.experiments import atlas_site as S

QUICK = A.Plan("test", 1600, 2, 3.0, chunk=800)


# ---- planning ---------------------------------------------------------------------------------------------------
def test_every_played_toggle_value_and_variant_is_planned_or_said_why_not():
    keep, skipped = A.questions()
    planned = {(n, v) for n, v, _, _ in keep} | {(s["rule"], s["value"]) for s in skipped}
    for t in R.TOGGLES:
        if t.name == "variant":
            continue
        for v in (t.values if t.implemented is None else t.implemented):
            if any(R.format_value(v) != R.format_value(t.default(f)) for f in t.families):
                assert (t.name, R.format_value(v)) in planned, (t.name, v)
    for v in R.VARIANTS:
        if R.variant_played(v):
            assert ("variant", v.name) in planned, v.name
    # teams appear as their own settings where they apply
    assert ("teams", "3v3", "perevodnoy", 6) in keep
    assert {"rule": "teams", "value": "2v2", "family": "podkidnoy", "players": 4,  # the engine's pairs at 4
            "why": "the same rules as teams=pairs_if_even", "same_as": "teams=pairs_if_even"} in skipped
    assert not [k for k in keep if k[0] == "teams" and k[1] == "2v2" and k[3] != 4]


def test_a_variant_that_is_one_toggle_is_answered_by_that_toggle():
    keep, skipped = A.questions(players=(2,), families=("podkidnoy",))
    same = {s["value"]: s["same_as"] for s in skipped if s.get("same_as")}
    assert same["bezkozyrny"] == "no_trump=true"
    assert ("variant", "bezkozyrny", "podkidnoy", 2) not in keep


def test_a_setting_the_engine_does_not_see_is_left_out():
    keep, skipped = A.questions(players=(2,), families=("podkidnoy",), only=("trump_six_exchange_timing",))
    assert [k[1] for k in keep] == ["while_face_down_cards_left"]
    assert skipped[0]["value"] == "while_trump_card_in_talon" and "the engine plays the default" in skipped[0]["why"]
    keep, skipped = A.questions(players=(2,), families=("podkidnoy",), only=("ten_above_king",))
    assert keep == [] and "chain bout" in skipped[0]["why"]  # a rules check refuses it alone


def test_cells_have_reproducible_seeds_shared_by_the_levels():
    c1 = A.Cell("no_trump", "true", "podkidnoy", 2, "greedy")
    c2 = A.Cell("no_trump", "true", "podkidnoy", 2, "expert")
    assert c1.seed(1) == c2.seed(1) != c1.seed(2)
    assert "--seed %d" % c1.seed(1) in c1.reproduce(1, 800) and "--a no_trump=true" in c1.reproduce(1, 800)


# ---- the sequential rule ----------------------------------------------------------------------------------------
def test_boundaries_spend_at_most_alpha_and_end_near_the_fixed_sample_one():
    for looks in (1, 2, 3, 5):
        b = A.boundaries(looks, 0.05)
        spent = sum(2 * (1 - A._N.cdf(c)) for c in b)
        assert spent <= 0.05 + 1e-12
        assert b == sorted(b, reverse=True)
    assert A.boundaries(1, 0.05)[0] == pytest.approx(1.959964, abs=1e-5)
    assert A.boundaries(4, 0.05)[-1] < 2.1  # O'Brien-Fleming-type: the last look costs little


def _sums(a: np.ndarray, b: np.ndarray) -> dict:
    return {"n": np.array([len(a)], float), "sa": np.array([a.sum()]), "sb": np.array([b.sum()]),
            "saa": np.array([(a * a).sum()]), "sbb": np.array([(b * b).sum()]), "sab": np.array([(a * b).sum()])}


def _null_error_rate(bounds, schedule, trials=4000, seed=0) -> float:
    """How often a rule that changes nothing is flagged, stopping at the first look that flags it."""
    rng = np.random.default_rng(seed)
    names = [("draw", "")]
    wrong = 0
    for _ in range(trials):
        base = rng.random(schedule[-1]) < 0.3
        flip = rng.random(schedule[-1]) < 0.2  # the rule changes the outcome of 20% of deals, both ways alike
        other = np.where(flip, rng.random(schedule[-1]) < 0.3, base)
        for n, bound in zip(schedule, bounds):
            s = A.summarise(_sums(other[:n].astype(float), base[:n].astype(float)), names, ["draw"], bound)
            if s["draw"]["detectable"]:
                wrong += 1
                break
    return wrong / trials


def test_the_sequential_rule_keeps_its_error_rate():
    schedule = [200, 400, 800, 1600]
    rate = _null_error_rate(A.boundaries(4, 0.05), schedule)
    assert rate <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 4000)


def test_peeking_with_fixed_sample_boundaries_would_not():
    """The check above can fail: 1.96 at every one of 4 looks flags a rule that changes nothing too often."""
    rate = _null_error_rate([1.959964] * 4, [200, 400, 800, 1600])
    assert rate > 0.07


def test_identical_play_gets_the_unseen_share_as_its_interval():
    z = np.zeros(500)
    s = A.summarise(_sums(z, z), [("draw", "")], ["draw"], 2.5)["draw"]
    assert not s["detectable"] and s["lo"] < 0 < s["hi"]
    assert s["hi"] == pytest.approx(1 - (2 * (1 - A._N.cdf(2.5))) ** (1 / 500))
    assert A.identical(_sums(z, z))


# ---- real cells: a rule that changes nothing, a known effect ----------------------------------------------------
@pytest.fixture(scope="module")
def played(tmp_path_factory):
    out = tmp_path_factory.mktemp("atlas")
    a = A.Atlas(out, scale=QUICK, panel=("greedy",), players=(2,), families=("podkidnoy",),
                rules=("no_trump", "pogony_scoring"), threads=2)
    a.run()
    return a


def test_a_known_effect_shows_with_its_sign(played):
    """No trumps, no draws (results/no-trump-draws): every beaten pair is of one suit and each suit is odd."""
    df = played.table()
    r = df[(df["rule_key"] == "no_trump=true") & (df["metric"] == "draw")].iloc[0]
    assert r["a"] == 0 and r["b"] > 0
    assert r["detectable"] and r["diff"] < 0 and r["hi"] < 0


def test_a_rule_that_changes_nothing_shows_no_detectable_change(played):
    """Recording the sixes of the last lead changes no play: identical games, no change on any page."""
    df = played.table()
    rows = df[df["rule_key"] == "pogony_scoring=last_lead_sixes"]
    assert len(rows) and not rows["detectable"].any()
    assert (rows["stopped"] == "identical").all()
    line = S.one_line(S.with_aliases(df, []), "pogony_scoring=last_lead_sixes", "first_attacker_fool")
    assert line.startswith("No detectable change")
    assert S._colour(0.0, "points", False) == S.GREY


def test_a_cell_replays_from_its_seed(played):
    """The cell's deals are series 0..n-1 of its seed: a plain comparison on them gives the same means."""
    from sim import api
    df = played.table()
    r = df[(df["rule_key"] == "no_trump=true") & (df["metric"] == "first_attacker_fool")].iloc[0]
    c = api.compare("podkidnoy", 2, {"no_trump": True}, {}, strategies=["greedy"], games=int(r["deals"]),
                    seed=int(r["seed"]), threads=2)
    t = c.table().loc["first_attacker_fool"]
    assert 100 * t["a"] == pytest.approx(r["a"]) and 100 * t["b"] == pytest.approx(r["b"])


def test_a_stopped_atlas_resumes_to_the_same_numbers(played, tmp_path):
    cell = next(c for c in played.cells if c.rule == "no_trump")
    before = json.loads(played.cell_path(cell).read_text())
    played.cell_path(cell).unlink()
    again = A.Atlas(played.out, scale=QUICK, panel=("greedy",), players=(2,), families=("podkidnoy",),
                    rules=("no_trump", "pogony_scoring"), threads=1)
    assert [c for c in again.cells if not again.cell_path(c).is_file()] == [cell]
    again.run()
    after = json.loads(played.cell_path(cell).read_text())
    assert after["sums"] == before["sums"] and after["summary"] == before["summary"]


def test_another_plan_in_the_same_folder_is_refused(played):
    other = A.Atlas(played.out, scale="tiny", panel=("greedy",), players=(2,), families=("podkidnoy",),
                    rules=("no_trump", "pogony_scoring"))
    with pytest.raises(A.AtlasError, match="another plan"):
        other.run()


def test_the_site_has_every_page_and_the_numbers(played, tmp_path):
    index = S.build(played.out, tmp_path / "site")
    site = index.parent
    assert (site / "my-table.html").is_file() and (site / "assets" / "data.js").is_file()
    pages = sorted(p.name for p in (site / "rules").glob("*.html"))
    assert pages == ["no_trump.html", "pogony_scoring.html"]
    html = (site / "rules" / "no_trump.html").read_text()
    assert "Yes: with no_trump=true, a game is drawn less often" in html
    assert "no detectable change" in (site / "rules" / "pogony_scoring.html").read_text().lower()
    for img in (site / "img").glob("*.png"):
        assert img.stat().st_size > 1000
    data = json.loads((site / "assets" / "data.js").read_text().split("=", 1)[1].rstrip(";\n"))
    assert {c[0] for c in data["cells"]} == {"no_trump=true", "pogony_scoring=last_lead_sixes"}
    assert "http://" not in (site / "index.html").read_text() and "https://" not in (site / "index.html").read_text()


# ---- bad input --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw, msg", [
    ({"scale": "huge"}, "--scale must be"), ({"scale": "-1"}, "--scale must be"),
    ({"players": (7,)}, "players must be 2 to 6"), ({"families": ("poker",)}, "unknown rules preset"),
    ({"rules": ("no_such_rule",)}, "unknown toggle or played variant"),
])
def test_bad_input_is_one_line(tmp_path, kw, msg):
    with pytest.raises(A.ExperimentError, match=msg) as e:
        A.Atlas(tmp_path, **kw)
    assert "\n" not in str(e.value)


def test_the_cli_says_the_cost_before_it_starts(tmp_path):
    from click.testing import CliRunner
    from sim.cli import main
    res = CliRunner().invoke(main, ["atlas", "--out", str(tmp_path / "a"), "--rules", "podkidnoy", "--players", "2",
                                    "--only", "no_trump", "--panel", "greedy", "--estimate"])
    assert res.exit_code == 0, res.output
    assert "1 cell " in res.output and "min of play" in res.output
    assert not (tmp_path / "a" / "cells").exists()
    res = CliRunner().invoke(main, ["atlas", "--out", str(tmp_path / "b"), "--scale", "nope", "--estimate"])
    assert res.exit_code != 0 and "--scale must be" in res.output


@pytest.mark.slow
def test_dask_gives_the_numbers_threads_give(tmp_path):
    """The same atlas on a local Dask cluster of two worker processes and on threads: the same cells, bit for
    bit (every task's sums are whole numbers, merged in any order)."""
    from sim.experiments import backends
    kw = dict(scale=QUICK, panel=("greedy",), players=(2, 3), families=("podkidnoy",),
              rules=("no_trump", "trump_six_exchange", "pogony_scoring"))
    threads = A.Atlas(tmp_path / "threads", threads=2, **kw).run()
    backend = backends.DaskBackend(workers=2)
    try:
        with backends.use(backend):
            dask = A.Atlas(tmp_path / "dask", **kw).run()
    finally:
        backend.close()
    for c in threads.cells:
        t, d = (json.loads(x.cell_path(c).read_text()) for x in (threads, dask))
        assert (t["sums"], t["summary"], t["deals"], t["stopped"]) == (d["sums"], d["summary"], d["deals"],
                                                                       d["stopped"]), c.id


def test_a_mixed_cell_replays_from_its_command(tmp_path):
    """The skill level (one expert among greedy players, rotated through the seats) is the comparison its
    reproduce line names: the same strong player's fool rate in both arms."""
    from sim import api
    plan = A.Plan("test", 400, 1, 3.0, chunk=400)
    a = A.Atlas(tmp_path, scale=plan, panel=("greedy", "expert"), players=(3,), families=("podkidnoy",),
                rules=("no_trump",), threads=2)
    assert [c.level for c in a.cells] == ["greedy", "expert", "expert-among-greedy"]
    a.run()
    df = a.table()
    r = df[(df["level"] == "expert-among-greedy") & (df["metric"] == "fool_role0")].iloc[0]
    assert "--strategy expert --strategy greedy --strategy greedy" in r["reproduce"]
    c = api.compare("podkidnoy", 3, {"no_trump": True}, {}, strategies=["expert", "greedy", "greedy"],
                    games=int(r["deals"]), seed=int(r["seed"]), threads=2)
    t = c.table().loc["fool_role0"]
    assert int(t["games"]) == r["deals"]
    assert 100 * t["a"] == pytest.approx(r["a"]) and 100 * t["b"] == pytest.approx(r["b"])
