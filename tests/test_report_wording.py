"""Reports a card player can read: games vs seat-games, the count asked for, draws apart, integers in JSON."""
import json

from click.testing import CliRunner

from sim import api
from sim.cli import main
from sim.core import dispatch
from sim.experiments import report
from sim.experiments.experiment import percent_view


def test_three_player_rotated_count_is_explained():
    exp = api.run("podkidnoy", 3, strategies=["greedy", "random", "random"], games=200, seed=2)
    assert exp.totals()["games"] == 201  # 67 deals x 3 rotations
    head = report.text(exp)
    assert "games: 201 (seed 2); 200 asked, +1: each of 67 deals is played in all 3 seat rotations" in head
    assert "seat-games" in head and "603 seat-games" in head


def test_exact_count_says_nothing_extra():
    exp = api.run("podkidnoy", 2, strategies=["greedy"], games=300, seed=2)
    assert "asked" not in report.text(exp)


def test_two_player_places_keep_draws_apart():
    exp = api.run("podkidnoy", 2, strategies=["greedy"], games=3000, seed=4)
    pl = exp.places().loc["greedy"]
    st = exp.strategy_table().loc["greedy"]
    assert st["drew"] > 0
    assert abs(pl["place 1"] - st["escaped"]) < 1e-12 and abs(pl["place 2"] - st["fool"]) < 1e-12
    assert abs(pl["drew"] - st["drew"]) < 1e-12
    assert abs(pl.sum() - 1) < 1e-12
    text = report.text(exp)
    assert "drawn games are in their own column" in text
    assert "both players draw in a drawn game" in text


def test_plural_and_draw_line():
    assert report.plural(1, "game") == "1 game" and report.plural(2, "game") == "2 games"
    exp = api.run("prostoy_5", 3, strategies=["greedy"], games=400, seed=1)
    assert "'drew' is at most the game draw rate" in report.text(exp)


def test_json_counts_are_integers():
    res = CliRunner().invoke(main, ["run", "--games", "500", "--no-save", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert isinstance(d["games"], int)
    for row in d["strategies"] + d["seat_effects"]:
        assert isinstance(row["games"], int), row
        assert isinstance(row["fool"], float)
    assert "units" in d


def test_percent_view_of_api_tables():
    exp = api.run("podkidnoy", 2, strategies=["greedy"], games=300, seed=2)
    t, p = exp.strategy_table(), percent_view(exp.strategy_table())
    assert abs(p.loc["greedy", "fool %"] - round(100 * t.loc["greedy", "fool"], 2)) < 1e-9
    assert p["seat-games"].dtype.kind == "i"


def test_tournament_prints_its_folder(tmp_path):
    out = tmp_path / "t"
    res = CliRunner().invoke(main, ["tournament", "--strategy", "greedy", "--strategy", "random", "--games", "200",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert str(out) in res.output and (out / "heatmap.png").exists()


def test_strategies_show_what_tuned_defaults_are():
    res = CliRunner().invoke(main, ["strategies"])
    assert res.exit_code == 0
    block = res.output.split("\nexpert")[1].split("\ngreedy")[0]
    # the tuned values themselves, per family, not the -99 sentinel as a default
    assert "=-99" not in block and "default by family: prostoy_5" in block
    assert block.count("default by family:") == len(dispatch.info("expert").params) >= 16


def test_replay_help_documents_every_option():
    helps = {p.name: p.help for p in main.commands["replay"].params}
    for name in ("preset", "players", "toggles", "strategies", "paths", "at_error"):
        assert helps.get(name), name
    res = CliRunner().invoke(main, ["replay", "--help"])
    assert "Rules preset of the run" in res.output and "folder of your own strategy files" in res.output
