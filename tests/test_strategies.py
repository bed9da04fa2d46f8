"""The strategy library (strategies/*.py): legal play, referee replay, strength, parameters, the CLI.

The line-ups are served by the suite's shared engines (conftest): one compile for the quick strategies, one for
each heavy one with its opponents.
"""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from sim.experiments import batch, tasks
from sim import referee
from sim.core import dispatch
from sim.core import rules as R
from sim.cli import main
from sim.experiments.stats import wilson
from conftest import HEAVY
from sim.core.layout import MAX_BOUTS

ALL_NAMES = sorted(dispatch.discover())
INFOS = {n: dispatch.info(n) for n in ALL_NAMES}
LIBRARY = [n for n in ALL_NAMES if n not in ("greedy", "random")]
PLAYS = [(n, f) for n in ALL_NAMES for f in INFOS[n].families]

# per family: (players, toggles, line-up pattern) runs summing to 10,000 games per strategy
MIXES = {
    "prostoy_5": [(2, {}, 4000), (3, {"prostoy_attack_sets": "single_or_pair"}, 3000), (4, {"hand_size": 6}, 3000)],
    "prostoy_6": [(2, {}, 4000), (3, {"prostoy_two_pair_lead_size": 6, "trump_only_if_cannot_follow": "true"}, 3000),
                  (4, {}, 3000)],
    "podkidnoy": [(2, {}, 4000), (3, {"initial_lead": "single", "trump_six_exchange": "true"}, 3000),
                  (4, {"teams": "2v2", "others_throw_in_timing": "any_time"}, 3000)],
    "perevodnoy": [(2, {"proezdnoy": "true"}, 4000), (3, {"pokaznoy": "true", "transfer_in_first_bout": "true"}, 3000),
                   (4, {"teams": "2v2", "trump_six_beats_trump_ace": "true"}, 3000)],
}


# strategies whose default budget is too slow for 10,000-game checks play them at a small one (the same code;
# tests/test_search.py checks search at its default budget, rollout is checked by the round robin and strength)
TEST_SPEC = {"search": "search:samples=3,candidates=4,playout=0", "rollout": "rollout:samples=2,candidates=3"}


def _lineup(name, n):
    """The strategy under test in seat 0 (and 2), the others random / greedy."""
    name = TEST_SPEC.get(name, name)
    if n == 2:
        return [name, name]
    return [name, "random", name, "greedy"][:n]


# HEAVY: the strategies whose engine or play costs minutes, checked at full size in the slow tier only
QUICK_NAMES = [n for n in ALL_NAMES if n not in HEAVY]


@pytest.fixture(scope="module")
def engine_quick():
    """The quick strategies play on the suite's shared engine (conftest): one compile for them all."""
    assert set(QUICK_NAMES) in dispatch.shared_engines()
    return QUICK_NAMES


def test_every_strategy_declares_name_description_families_params():
    for n, i in INFOS.items():
        mod = dispatch.load_module(i.path)
        assert mod.NAME == n
        assert i.description and "\n" not in i.description
        assert i.families and set(i.families) <= set(R.FAMILIES)
        assert dispatch.params_width([n]) >= len(i.params)  # no strategy is refused or cut short for many PARAMS
        fam = getattr(mod, "FAMILY_DEFAULTS", {})
        for p, (d, lo, hi, doc) in i.params.items():
            assert doc, (n, p)
            if fam:  # a per-family default (expert's -99 = "tuned"): each family's value lies in the range
                assert set(fam) == set(i.families) and all(lo <= fam[f][p] <= hi for f in fam), (n, p)
            else:
                assert lo <= d <= hi, (n, p)
            if p in getattr(mod, "WHOLE_PARAMS", ()):
                assert lo == int(lo) and hi == int(hi), (n, p)
        assert (mod.__doc__ or "").strip(), f"{n}: the docstring must say where the idea comes from"


QUICK_PLAYS = [(n, f) for n, f in PLAYS if n not in HEAVY]


@pytest.mark.rules("C-4", "TEAM-3")
@pytest.mark.parametrize("name,family", QUICK_PLAYS, ids=[f"{n}-{f}" for n, f in QUICK_PLAYS])
def test_quick_games_without_an_illegal_move_replay_through_the_referee(engine_quick, name, family):
    """The default tier's check of every cheap library strategy (the slow tier plays 10,000 deals of each):
    500 deals of each mix without an illegal move or a lost card, one fool per decided deal, and two deals
    of each mix replayed through the referee."""
    for i, (n, toggles, _) in enumerate(MIXES[family]):
        rules = R.resolve(family, n, toggles)
        t = tasks.run(rules, _lineup(name, n), games=500, seed=100 + i, threads=2).tally
        team_size = n // len(rules.teams) if rules.teams else 1
        assert t.invariant_violations == 0
        assert int(t.fool.sum()) == (t.finished - t.draws) * team_size, (name, family, n)
        r = batch.Runner(rules, batch.make_lineup(rules, _lineup(name, n)))
        for g in range(2):
            tr = r.trace(seed=500 + i, series=g)[0]
            if tr["result"]["bouts"] < MAX_BOUTS:
                referee.replay(tr)


@pytest.mark.slow
@pytest.mark.rules("C-4", "TEAM-3", "RUL-22")
@pytest.mark.parametrize("name,family", PLAYS, ids=[f"{n}-{f}" for n, f in PLAYS])
def test_ten_thousand_games_without_an_illegal_move(name, family):
    """batch.run raises IllegalMoveError on any illegal answer (10,000 games per strategy and family); every
    decided deal has exactly one fool (one losing team: C-4, TEAM-3), cards stay accounted for, and the
    strategy does not make deals cycle (RUL-22: under 2% unfinished)."""
    for i, (n, toggles, games) in enumerate(MIXES[family]):
        rules = R.resolve(family, n, toggles)
        t = tasks.run(rules, _lineup(name, n), games=games, seed=100 + i, threads=2).tally
        team_size = n // len(rules.teams) if rules.teams else 1
        assert t.invariant_violations == 0
        assert int(t.fool.sum()) == (t.finished - t.draws) * team_size, (name, family, n)
        assert t.unfinished <= 0.02 * games, f"{name} leaves {t.unfinished} of {games} deals unfinished"


@pytest.mark.slow
@pytest.mark.parametrize("name,family", PLAYS, ids=[f"{n}-{f}" for n, f in PLAYS])
def test_traces_replay_through_the_referee(name, family):
    """~100 deals per strategy and family: every action is legal for the independent referee."""
    for i, (n, toggles, _) in enumerate(MIXES[family]):
        rules = R.resolve(family, n, toggles)
        r = batch.Runner(rules, batch.make_lineup(rules, _lineup(name, n)))
        for g in range(34):
            referee.replay(r.trace(seed=500 + i, series=g)[0])


@pytest.mark.slow
@pytest.mark.parametrize("name,family", [(n, f) for n, f in PLAYS if n != "random"],
                         ids=[f"{n}-{f}" for n, f in PLAYS if n != "random"])
def test_beats_random_two_players(name, family):
    """Fool rate of the strategy vs random's, 20,000 games with the seats swapped half-way: the 95%
    Wilson intervals must not overlap (so the difference's interval excludes 0)."""
    rules = R.resolve(family, 2)
    fool = np.zeros(2)
    n = 0
    spec = TEST_SPEC.get(name, name)
    for order, me in (([spec, "random"], 0), (["random", spec], 1)):
        t = tasks.run(rules, order, games=10_000, seed=7, threads=2).tally
        fool += [t.fool[me], t.fool[1 - me]]
        n += t.finished
    lo_me, hi_me = wilson(fool[0], n)
    lo_r, hi_r = wilson(fool[1], n)
    assert hi_me < lo_r, f"{name} fool {fool[0] / n:.3f} vs random {fool[1] / n:.3f} in {family}"


def test_parameter_errors_are_clear():
    rules = R.resolve("prostoy_5", 2)
    with pytest.raises(batch.LineupError, match="unknown parameter 'nope'.*talon_at_most, hand_at_least"):
        batch.make_lineup(rules, ["dump-triples-late:nope=3"])
    with pytest.raises(batch.LineupError, match=r"talon_at_most=99 is outside \[-1, 36\]"):
        batch.make_lineup(rules, ["dump-triples-late:talon_at_most=99"])
    with pytest.raises(batch.LineupError, match="is not a number"):
        batch.make_lineup(rules, ["counting:p=high"])
    with pytest.raises(batch.LineupError, match="must be NAME=VALUE"):
        batch.make_lineup(rules, ["counting:p"])
    with pytest.raises(batch.LineupError, match="does not play podkidnoy"):
        batch.make_lineup(R.resolve("podkidnoy", 2), ["singles-early"])
    seat = batch.parse_strategy("dump-triples-late:hand_at_least=9")
    assert seat.params == (("talon_at_most", 3.0), ("hand_at_least", 9.0))


def test_cli_strategies_lists_every_strategy():
    res = CliRunner().invoke(main, ["strategies"])
    assert res.exit_code == 0, res.output
    for n in ALL_NAMES:
        assert n in res.output
        assert INFOS[n].description in res.output
    assert "talon_at_most=3" in res.output
    res = CliRunner().invoke(main, ["strategies", "--json"])
    listed = {d["name"]: d for d in json.loads(res.output)}
    assert set(listed) == set(ALL_NAMES)
    assert listed["singles-early"]["families"] == ["prostoy_5", "prostoy_6"]


def test_cli_run_with_a_library_strategy_and_a_parameter_error():
    res = CliRunner().invoke(main, ["run", "--rules", "prostoy_5", "--strategy", "singles-early:talon_above=40"])
    assert res.exit_code != 0 and "outside" in res.output and "Traceback" not in res.output


def test_template_is_a_valid_strategy_file(tmp_path):
    src = (dispatch.BUILTIN_DIR / "_template.py.txt").read_text()
    (tmp_path / "my_strat.py").write_text(src)
    i = dispatch.info("my-strat", [str(tmp_path)])
    assert i.families and set(i.defines) == set(dispatch.KINDS)
    assert "my-strat" not in dispatch.discover()  # the template itself is not picked up


def test_a_strategy_with_more_than_16_params_is_neither_refused_nor_cut_short(tmp_path):
    """The params vector is as wide as the most PARAMS of any strategy in the engine (at least 16): a strategy with
    20 parameters gets all 20, in its seats only, and the other seats' rows stay zero past their own."""
    src = (dispatch.BUILTIN_DIR / "_template.py.txt").read_text()
    extra = "".join(f'\nPARAMS["p{i}"] = ({float(i)}, 0.0, 99.0, "parameter number {i}")' for i in range(20))
    (tmp_path / "wide_strat.py").write_text(src + "\nPARAMS = {}" + extra + "\n")
    assert len(dispatch.info("wide-strat", [str(tmp_path)]).params) == 20
    assert dispatch.params_width(["wide-strat", "greedy"], [str(tmp_path)]) == 20
    assert dispatch.params_width(["greedy"]) == dispatch.MIN_PARAMS
    rules = R.resolve("podkidnoy", 2)
    seats = batch.make_lineup(rules, ["wide-strat:p19=42", "greedy"], [str(tmp_path)])
    runner = batch.Runner(rules, seats, [str(tmp_path)])  # builds the engine's module; nothing is compiled here
    assert runner.params.shape == (6, 20)
    assert runner.params[0].tolist() == [float(i) for i in range(19)] + [42.0] and not runner.params[1].any()


PLAYED_VARIANTS = [v for v in R.VARIANTS if R.variant_played(v)]
VARIANT_PLAYS = [(n, v.name) for n in ALL_NAMES for v in PLAYED_VARIANTS
                 if v.name in dispatch.supported_variants(INFOS[n])]


@pytest.mark.slow
@pytest.mark.parametrize("name,variant", VARIANT_PLAYS, ids=[f"{n}-{v}" for n, v in VARIANT_PLAYS])
def test_declared_variants_are_played_legally(name, variant):
    """A strategy that declares a §6 variant (VARIANTS) plays it without an illegal move in every family
    the variant and the strategy share (2, 3 and 4 players in turn), cards stay accounted for, and a few of its
    deals replay through the independent referee."""
    v = R.VARIANT_BY_NAME[variant]
    fams = [f for f in v.families if f in INFOS[name].families]
    assert fams
    for i, fam in enumerate(fams):
        n = 2 + i % 3
        rules = R.resolve(fam, n, {"variant": variant})
        games = 40 if name in ("search", "rollout") else 300
        t = tasks.run(rules, _lineup(name, n), games=games, seed=900 + i, threads=2).tally
        assert t.invariant_violations == 0, (fam, n)
        assert t.finished + t.unfinished == games
        r = batch.Runner(rules, batch.make_lineup(rules, _lineup(name, n)))
        for g in range(1 if name in ("search", "rollout") else 3):
            tr = r.trace(seed=950 + i, series=g)[0]
            if tr["result"]["bouts"] < MAX_BOUTS:  # a deal stopped by RUL-22 has no end to replay to
                referee.replay(tr)


def test_the_cache_folder_follows_every_library_strategy_another_one_compiles_in():
    """search and rollout compile expert's and greedy's functions into their playouts, and numba keys a
    cached function by its own file only: without these files in the digest an edited expert would
    leave search playing the old one from the cache. (Break it: drop `used` from sim._digest_files.)"""
    import sim
    names = {f.name for f in sim._digest_files()}
    assert {"expert.py", "greedy.py", "search.py", "kernels.py", "_lib.py"} <= names
    assert "random.py" not in names  # a strategy nobody imports: editing it recompiles only itself
