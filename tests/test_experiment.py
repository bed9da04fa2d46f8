"""Experiments: seat rotation, result folders, interrupt and resume, precision mode, the CLI commands."""
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from sim.experiments import experiment as X
from sim.cli import main


def test_rotation_replays_every_deal_with_strategies_through_the_seats():
    exp = X.experiment("podkidnoy", 3, strategies=["greedy", "random", "random"], games=3000, seed=2).run()
    assert [[s.label for s in lu] for lu in exp.lineups] == [
        ["greedy", "random", "random"], ["random", "greedy", "random"], ["random", "random", "greedy"]]
    st = exp.strategy_table()
    assert st.loc["greedy", "games"] == 3000 and st.loc["random", "games"] == 6000
    assert st.loc["greedy", "fool"] < st.loc["random", "fool"]
    seats = exp.seat_table()
    assert list(seats.index) == [0, 1, 2] and (seats["games"] == 3000).all()
    # identical line-ups need no rotation
    assert len(X.experiment("podkidnoy", 3, strategies=["greedy"], games=10).lineups) == 1


def _interrupt_after(rounds):
    calls = {"n": 0}

    def progress(done, total):
        calls["n"] += 1
        if calls["n"] >= rounds:
            raise KeyboardInterrupt
    return progress


def test_an_interrupted_run_resumes_to_the_identical_result(tmp_path):
    kw = dict(strategies=["greedy", "random"], games=24_000, seed=8, chunk=1000)
    whole = X.experiment("prostoy_5", 2, **kw).run().summary()
    exp = X.experiment("prostoy_5", 2, out=tmp_path / "run", **kw)
    with pytest.raises(KeyboardInterrupt):
        exp.run(progress=_interrupt_after(5))
    meta = json.loads((tmp_path / "run" / "metadata.json").read_text())
    assert meta["status"] == "interrupted" and meta["games_played"] < 24_000
    saved = len(list((tmp_path / "run" / "chunks").glob("*.npz")))
    assert saved >= 5 * 2
    resumed = X.resume(tmp_path / "run").run().summary()
    for k in ("seconds", "status"):
        whole.pop(k), resumed.pop(k)
    assert resumed == whole


def test_precision_mode_stops_when_every_interval_is_narrow_enough():
    exp = X.experiment("podkidnoy", 2, strategies=["greedy", "random"], games=None, precision=0.01,
                       chunk=2000, seed=4).run()
    assert exp.max_half_width() < 0.01
    assert exp.games_played < 60_000  # it did not run to the cap


def test_result_folder_has_everything_to_reproduce(tmp_path):
    res = CliRunner().invoke(main, ["run", "--rules", "prostoy_5", "--games", "4000", "--strategy", "greedy",
                                    "--strategy", "random", "--seed", "12", "--out", str(tmp_path / "r"),
                                    "--records", "--quiet", "--plots"])
    assert res.exit_code == 0, res.output
    out = tmp_path / "r"
    meta = json.loads((out / "metadata.json").read_text())
    for key in ("family", "toggles", "strategies", "seed", "games", "package_version", "commit", "chunk"):
        assert key in meta
    assert meta["status"] == "complete" and meta["strategies"] == ["greedy", "random"]
    assert (out / "report.md").read_text().startswith("# ")
    assert (out / "rates.png").stat().st_size > 1000 and (out / "lengths.png").stat().st_size > 1000
    agg = pd.read_parquet(out / "aggregates.parquet")
    assert set(agg["strategy"]) == {"greedy", "random"}
    recs = pd.concat(pd.read_parquet(p) for p in (out / "records").glob("*.parquet"))
    assert len(recs) == 4000 and {"fool", "bouts", "outcome_0", "rotation"} <= set(recs.columns)
    again = CliRunner().invoke(main, ["run", "--rules", "prostoy_5", "--games", "4000", "--strategy", "greedy",
                                      "--strategy", "random", "--seed", "12", "--no-save", "--json"])
    assert json.loads(again.output)["strategies"] == json.loads((out / "summary.json").read_text())["strategies"]


@pytest.mark.rules("TEAM-3", "RUL-21")
def test_team_report_matches_the_game_records(tmp_path):
    """Each team's lost / drew / won rates are the share of finished deals the records say that team lost,
    drew (a draw) and won (the other team lost), counted here from the per-game records."""
    exp = X.experiment("podkidnoy", 4, {"teams": "2v2"}, strategies=["greedy", "random"], games=2000,
                       out=tmp_path / "t", records=True).run()
    t = exp.team_table()
    assert list(t["seats"]) == ["0,2", "1,3"]
    recs = pd.concat(pd.read_parquet(p) for p in (tmp_path / "t" / "records").glob("*.parquet"))
    done = recs[~recs["unfinished"].astype(bool)]
    assert int(t["games"].iloc[0]) == len(done)
    for k in (0, 1):
        lost = (done["losing_team"] == k).mean()
        drew = done["draw"].astype(bool).mean()
        won = (done["losing_team"] == 1 - k).mean()
        assert (t["lost"].iloc[k], t["drew"].iloc[k], t["won"].iloc[k]) == pytest.approx((lost, drew, won))


@pytest.mark.rules("HR-1")
def test_cli_compare_separates_draws_from_fool_rates(tmp_path):
    res = CliRunner().invoke(main, ["compare", "--rules", "prostoy_5", "--a", "trump_six_beats_trump_ace=true",
                                    "--b", "trump_six_beats_trump_ace=false", "--games", "20000",
                                    "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    assert "## Verdict" in res.output
    assert (tmp_path / "c" / "report.md").exists() and (tmp_path / "c" / "comparison.png").exists()
    meta = json.loads((tmp_path / "c" / "metadata.json").read_text())
    assert meta["arms"][0]["toggles"]["trump_six_beats_trump_ace"] is True
    # with greedy the rule only turns some lost deals into draws; among deals decided in both arms
    # nothing changes, and the verdict says so next to the draw and unfinished changes
    t = pd.read_parquet(tmp_path / "c" / "comparison.parquet").set_index("metric")
    assert t.loc["draw", "diff"] > 0 and t.loc["draw", "significant"]
    decided = t[t.index.str.endswith("_decided")]
    assert len(decided) == 6 and (decided["diff"] == 0).all()
    assert "unfinished" in t.index
    v = meta["verdict"]
    assert "Among deals decided in both arms" in v and "Draws: " in v and "Unfinished deals" in v


def test_cli_tournament_ranks_greedy_above_random(tmp_path):
    res = CliRunner().invoke(main, ["tournament", "--strategy", "greedy", "--strategy", "random",
                                    "--games", "4000", "--json", "--out", str(tmp_path / "t")])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["ranking"][0]["strategy"] == "greedy"
    assert (tmp_path / "t" / "heatmap.png").exists()


def test_cli_replay_tells_the_game():
    res = CliRunner().invoke(main, ["replay", "--seed", "3", "--game", "5", "--players", "3"])
    assert res.exit_code == 0, res.output
    assert "leads" in res.output and "game over after" in res.output
    js = CliRunner().invoke(main, ["replay", "--seed", "3", "--game", "5", "--players", "3", "--json"])
    assert json.loads(js.output)["actions"][0]["type"] in ("attack", "exchange_trump_six")


def test_panel_verdict_says_whether_the_answer_holds_across_skill():
    """Same direction everywhere holds; real for some line-ups only, or opposite, depends."""
    from sim.experiments.compare import panel_verdict

    class C:
        def __init__(self, diff, sig):
            self.t = pd.DataFrame([{"metric": "draw", "diff": diff, "significant": sig}]).set_index("metric")

        def table(self):
            return self.t

    assert panel_verdict({"greedy": C(0.01, True), "expert": C(0.02, True)}, "draw").startswith("The answer holds")
    assert panel_verdict({"greedy": C(0.0, False), "expert": C(0.02, True)}, "draw").startswith(
        "The answer depends on how well people play")
    assert "opposite" in panel_verdict({"greedy": C(-0.01, True), "expert": C(0.02, True)}, "draw")
    assert "greedy +1.00" in panel_verdict({"greedy": C(0.01, True)}, "draw")
    few = C(0.01, True)
    few.games = 2000
    many = C(0.02, True)
    many.games = 40_000
    assert panel_verdict({"expert": many, "learned": few}, "draw").endswith(
        "Paired deals: expert 40,000, learned 2,000 (fewer for the slower players, so their intervals are wider).")
