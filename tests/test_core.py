"""The compiled core: determinism, outcome bookkeeping, bad strategies, the CLI contract."""
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from sim.experiments import batch, tasks
from sim.core import rules as R
from sim.cli import main
from sim.core.records import to_records


@pytest.mark.parametrize("family,n", [("podkidnoy", 2), ("perevodnoy", 3), ("prostoy_5", 4), ("prostoy_6", 4)])
def test_results_do_not_depend_on_chunking(runner_for, family, n):
    r = runner_for(family, n, strategies=("random",))
    whole = r.play_raw(seed=5, series0=0, n_series=300)
    parts = np.concatenate([r.play_raw(5, 0, 100), r.play_raw(5, 100, 7), r.play_raw(5, 107, 193)])
    assert np.array_equal(whole, parts)
    other_seed = r.play_raw(seed=6, series0=0, n_series=300)
    assert not np.array_equal(whole, other_seed)


def test_results_do_not_depend_on_threads_or_chunk_size():
    rules = R.resolve("podkidnoy", 3)
    a = tasks.run(rules, ["random"], games=5000, seed=11, threads=1, chunk=5000).tally
    b = tasks.run(rules, ["random"], games=5000, seed=11, threads=2, chunk=333).tally
    for f in ("escaped", "drew", "fool", "taken", "places"):
        assert np.array_equal(getattr(a, f), getattr(b, f))
    assert (a.draws, a.bouts, a.games) == (b.draws, b.bouts, b.games)


@pytest.mark.rules("C-4", "RUL-20", "RUL-21", "TEAM-3")
@pytest.mark.parametrize("family,n,toggles", [
    ("podkidnoy", 2, {}), ("podkidnoy", 6, {}), ("podkidnoy", 4, {"teams": "2v2"}),
    ("perevodnoy", 6, {"teams": "3v3"}), ("prostoy_5", 3, {}), ("prostoy_6", 6, {}), ("prostoy_6", 4, {}),
])
def test_every_deal_ends_with_one_fool_or_a_draw(runner_for, family, n, toggles):
    """C-4, RUL-20/21: a single fool (or losing team) or a draw; outcome codes agree."""
    r = runner_for(family, n, toggles, strategies=("random",))
    recs = to_records(r.play_raw(3, 0, 2000))
    recs = recs[~recs["unfinished"]]
    out = recs["outcome"][:, :n]
    assert (recs["outcome"][:, n:] == -1).all()
    teams = r.rules.team_ids()
    for row, o in zip(recs, out):
        if row["draw"]:
            assert row["fool"] == -1 and row["losing_team"] == -1
            assert (o != 2).all() and (o == 1).any()
        else:
            losers = {s for s in range(n) if o[s] == 2}
            assert losers == {s for s in range(n) if teams[s] == row["losing_team"]}
            assert row["fool"] in losers
            assert row["place"][row["fool"]] == n
    assert recs["bouts"].min() >= 1


@pytest.mark.rules("RUL-2", "PR6-S1", "POD-S1")
@pytest.mark.parametrize("family", ["podkidnoy", "prostoy_6"])
def test_six_by_six_deal_leaves_no_talon_and_the_dealer_keeps_the_trump(family):
    """RUL-2 (004: «следующая (или последняя) карта»): 6 players x 6 cards use the whole pack, dealt one at a
    time clockwise from the dealer's left; the last card dealt, the dealer's sixth, is shown for trump and stays
    in his hand; the talon is empty. The referee's deal of the same pack gives the same hands."""
    from sim import referee
    from sim.core import layout as L
    from sim.core import machine
    from sim.core.cards import card_name

    rules = R.resolve(family, 6, {"teams": "none"})
    for seed in range(5):
        d = machine.Deal(rules, seed=seed)
        deck, dealer, ws = d.deck, d.dealer, d.ws
        assert sorted(deck) == list(range(36))
        assert ws[L.O_TALON] == 0 and ws[L.S_TP] == ws[L.S_TEND] and ws[L.O_TRUMP_IN_TALON] == 0
        trump = int(ws[L.O_TRUMP_CARD])
        assert trump == deck[35] and ws[L.O_TRUMP_SUIT] == trump % 4
        hands = d.hands()
        assert (hands[dealer] >> trump) & 1, "the shown trump card must stay in the dealer's hand"
        for k in range(6):
            seat = (dealer + 1 + k) % 6
            assert hands[seat] == sum(1 << deck[r * 6 + k] for r in range(6)), f"seat {seat} was not dealt in turn"
        st = referee.new_deal(rules, [card_name(c) for c in deck], dealer)
        assert [sorted(card_name(c) for c in h) for h in st.hands] == \
            [sorted(card_name(c) for c in range(36) if (h >> c) & 1) for h in hands]
        assert st.talon == [] and card_name(st.trump_card) == card_name(trump)


@pytest.mark.rules("C-1", "PR5-S3", "RUL-2", "RUL-7")
def test_five_card_deal_one_at_a_time_trump_under_the_talon_left_neighbour_leads():
    """prostoy_5, 3 players: 36 cards, five each dealt one at a time clockwise from the dealer's left, the
    next card turned for trump and lying last in the talon, the dealer's left neighbour attacks (PR5-S3)."""
    from sim.core import layout as L
    from sim.core import machine

    rules = R.resolve("prostoy_5", 3, {"trump_six_exchange": False})
    for seed in range(5):
        d = machine.Deal(rules, seed=seed)
        deck, dealer, ws = d.deck, d.dealer, d.ws
        assert sorted(deck) == list(range(36))
        hands = d.hands()
        for k in range(3):
            assert hands[(dealer + 1 + k) % 3] == sum(1 << deck[r * 3 + k] for r in range(5))
        assert ws[L.O_TRUMP_CARD] == deck[15] and ws[L.O_TRUMP_SUIT] == deck[15] % 4
        talon = [int(x) for x in ws[L.S_TALON + ws[L.S_TP]:L.S_TALON + ws[L.S_TEND]]]
        assert talon == deck[16:] + [deck[15]] and ws[L.O_TALON] == 21
        assert ws[L.O_ATTACKER] == (dealer + 1) % 3 and ws[L.O_DEFENDER] == (dealer + 2) % 3


BAD = str(Path(__file__).resolve().parent / "fixtures" / "bad_strategies")


def test_an_illegal_move_names_strategy_seed_game_and_move():
    rules = R.resolve("prostoy_5", 2)
    with pytest.raises(batch.IllegalMoveError) as e:
        tasks.run(rules, ["two-card-lead", "greedy"], games=50, seed=9, threads=1, paths=[BAD])
    msg = str(e.value)
    assert "'two-card-lead'" in msg and "seed 9" in msg and "game " in msg and "attack with [" in msg


def test_a_strategy_cannot_read_hidden_information():
    """Strategies get only obs; reading past it raises instead of reaching the hands or the talon."""
    rules = R.resolve("podkidnoy", 2)
    with pytest.raises(batch.HiddenInformationError, match="outside its observation"):
        tasks.run(rules, ["spy", "greedy"], games=20, seed=1, threads=1, paths=[BAD])
    res = CliRunner().invoke(main, ["run", "--strategy-path", BAD, "--strategy", "spy", "--strategy", "greedy",
                                    "--games", "20", "--no-save"])
    assert res.exit_code != 0 and "outside its observation" in res.output and "Traceback" not in res.output


def test_unknown_strategy_and_bad_parameters_are_clear(tmp_path):
    rules = R.resolve("podkidnoy", 2)
    with pytest.raises(batch.LineupError, match="unknown strategy 'nope'"):
        batch.make_lineup(rules, ["nope"])
    with pytest.raises(batch.LineupError, match="unknown parameter 'x'"):
        batch.make_lineup(rules, ["greedy:x=1"])
    with pytest.raises(batch.LineupError, match="once per seat"):
        batch.make_lineup(rules, ["greedy", "greedy", "greedy"])


def test_cli_run_json_contract():
    res = CliRunner().invoke(main, ["run", "--games", "2000", "--players", "3", "--seed", "4", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["games"] == 2000 and len(d["seats"]) == 3
    assert {"strategy", "escaped", "drew", "fool"} <= set(d["seats"][0])
    for key in ("draws", "mean_bouts", "first_attacker_fool"):
        assert key in d
    assert sum(s["fool"] for s in d["seats"]) + d["draws"] == d["finished"]


@pytest.mark.parametrize("args,message", [
    (["run", "--toggle", "bogus=1"], "unknown toggle 'bogus'"),
    (["run", "--toggle", "initial_lead"], "NAME=VALUE"),
    (["run", "--players", "9"], "2 to 6 players"),
    (["run", "--strategy", "nobody"], "unknown strategy 'nobody'"),
    (["run", "--rules", "whist"], "unknown rules preset"),
])
def test_cli_errors_are_one_line_not_tracebacks(args, message):
    res = CliRunner().invoke(main, args)
    assert res.exit_code != 0
    assert message in res.output
    assert "Traceback" not in res.output


def _user_copy(tmp_path, name="greedy"):
    """A user's folder holding a library strategy under another name, the file otherwise unchanged."""
    src = (Path(__file__).resolve().parents[1] / "strategies" / f"{name}.py").read_text()
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / f"my_{name}.py").write_text(src.replace(f'NAME = "{name}"', f'NAME = "my-{name}"'))
    return folder


@pytest.mark.parametrize("family,n,toggles", [
    ("podkidnoy", 2, {}),
    pytest.param("perevodnoy", 3, {}, marks=pytest.mark.slow),  # the chain bout
    pytest.param("podkidnoy", 3, {"two_packs": True}, marks=pytest.mark.slow),  # the two-pack step
])
def test_a_users_copy_of_a_strategy_plays_the_librarys_games(tmp_path, family, n, toggles):
    """An engine holding a user's strategy calls the rules' step compiled once (kernels.apply_one) where the
    library's engines inline it: the same games bit for bit, records and traces."""
    rules = R.resolve(family, n, toggles)
    folder = _user_copy(tmp_path)
    seats = ["random"] * (n - 1)
    lib = batch.Runner(rules, batch.make_lineup(rules, ["greedy"] + seats))
    user = batch.Runner(rules, batch.make_lineup(rules, ["my-greedy"] + seats, [folder]), [folder])
    a, b = lib.play_raw(5, 0, 300, 2), user.play_raw(5, 0, 300, 2)
    assert len(a) == 600 and np.array_equal(a, b)
    for k in (0, 3):
        assert lib.trace(5, k, 2) == user.trace(5, k, 2)
