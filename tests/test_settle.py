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
