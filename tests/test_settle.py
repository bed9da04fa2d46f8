"""`durak settle` regenerates a results folder: README with question, command, verdict; data; plot."""
import json

from click.testing import CliRunner

from sim.experiments import settle as S
from sim.cli import main


def test_settle_writes_a_complete_folder_and_index(tmp_path):
    folder = S.settle("trump-six-exchange", scale=0.002, root=tmp_path)
    readme = (folder / "README.md").read_text()
    assert "**The question.**" in readme and "**Verdict.**" in readme
    assert "durak settle trump-six-exchange --scale 0.002" in readme
    assert (folder / "compare-prostoy_5-2p.png").stat().st_size > 1000
    assert (folder / "compare-prostoy_5-2p.csv").exists()
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["seed"] == 2026 and summary["verdict"]
    index = S.write_index(tmp_path).read_text()
    assert "trump-six-exchange/README.md" in index and "(not run yet)" in index


def test_every_question_has_a_name_title_and_story():
    assert len(S.QUESTIONS) >= 10
    for name, q in S.QUESTIONS.items():
        assert q.name == name and q.title.endswith("?") and len(q.ask) > 30


def test_settle_rejects_an_unknown_question():
    res = CliRunner().invoke(main, ["settle", "is-it-raining"])
    assert res.exit_code != 0 and "unknown question" in res.output


def test_settle_writes_nothing_tracked_unless_asked(tmp_path, monkeypatch):
    """Without --write-results a run folder under results/runs/ (git-ignored) of the current folder is used;
    --out puts the question folders where asked; the repository's results/ is left alone."""
    monkeypatch.setattr(S, "RESULTS", tmp_path / "tracked")  # what --write-results would write to
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["settle", "trump-six-exchange", "--scale", "0.002"])
    assert res.exit_code == 0, res.output
    runs = list((tmp_path / "results" / "runs").glob("*-settle/trump-six-exchange/README.md"))
    assert len(runs) == 1 and not (tmp_path / "tracked").exists()
    res = CliRunner().invoke(main, ["settle", "trump-six-exchange", "--scale", "0.002", "--out", str(tmp_path / "o")])
    assert res.exit_code == 0 and (tmp_path / "o" / "trump-six-exchange" / "summary.json").exists()
    assert not (tmp_path / "tracked").exists()
    res = CliRunner().invoke(main, ["settle", "trump-six-exchange", "--scale", "0.002", "--write-results"])
    assert res.exit_code == 0 and (tmp_path / "tracked" / "trump-six-exchange" / "README.md").exists()
    assert (tmp_path / "tracked" / "README.md").exists()


def test_a_rerun_with_the_same_seed_rewrites_every_file_identically_but_one_timing_line(tmp_path):
    first = {p.name: p.read_bytes() for p in S.settle("trump-six-exchange", scale=0.002, root=tmp_path / "a").iterdir()}
    second = {p.name: p.read_bytes() for p in S.settle("trump-six-exchange", scale=0.002, root=tmp_path / "b").iterdir()}
    assert first.keys() == second.keys()
    for name in first:
        if name == "README.md":
            a, b = first[name].decode().splitlines(), second[name].decode().splitlines()
            differ = [(x, y) for x, y in zip(a, b) if x != y]
            assert len(a) == len(b) and all(x.startswith(S.TIMING_PREFIX) for x, _ in differ), differ
        else:
            assert first[name] == second[name], f"{name} differs between reruns"
    summary = json.loads(first["summary.json"])
    assert "commit" not in summary and "seconds" not in summary
