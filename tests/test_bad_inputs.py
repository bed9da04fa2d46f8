"""Every bad input of the catalogue (tests/bad_inputs.py) gets a one-line error that names the problem:
exit code not 0, no traceback, no Python exception class name, and the option, value or JSON path named."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bad_inputs import BAD_INPUTS, ENGINE_CASES
from sim.cli import main

TESTS = Path(__file__).resolve().parent
CLASS_NAME = re.compile(r"\b[A-Za-z]+(?:Error|Exception)\b|Traceback")
COMMANDS = {"run", "compare", "tournament", "replay", "settle", "rules", "strategies", "judge", "bench", "hint", "play"}


def _ids():
    return [f"{i:03d}-" + "_".join(a for a in args[:3] if "{tmp}" not in a)[:50] for i, (args, _, _) in
            enumerate(BAD_INPUTS)]


def test_the_catalogue_covers_every_command_with_at_least_60_cases():
    assert len(BAD_INPUTS) >= 60
    assert COMMANDS <= {args[0] for args, _, _ in BAD_INPUTS}


@pytest.mark.parametrize("args,expected,files", BAD_INPUTS, ids=_ids())
def test_a_bad_input_gets_a_one_line_error_naming_the_problem(tmp_path, monkeypatch, args, expected, files):
    monkeypatch.chdir(tmp_path)  # should a case ever be accepted, nothing lands in the repository
    for name, content in (files or {}).items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content if isinstance(content, str) else json.dumps(content))
    argv = [a.replace("{tmp}", str(tmp_path)).replace("{tests}", str(TESTS)) for a in args]
    res = CliRunner().invoke(main, argv)
    out = res.output
    assert res.exit_code not in (0, None), f"accepted: durak {' '.join(argv)}\n{out}"
    assert isinstance(res.exception, SystemExit), f"uncaught {res.exception!r}"
    assert not CLASS_NAME.search(out), out
    errors = [line for line in out.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, out
    assert expected in errors[0], f"{expected!r} not named in: {errors[0]}"


@pytest.mark.parametrize("args,expected,files,stdin", ENGINE_CASES, ids=[f"engine-{i}-{c[0][0]}" for i, c in
                                                                          enumerate(ENGINE_CASES)])
def test_a_problem_found_while_playing_is_named(tmp_path, monkeypatch, args, expected, files, stdin):
    monkeypatch.chdir(tmp_path)
    for name, content in (files or {}).items():
        (tmp_path / name).write_text(content if isinstance(content, str) else json.dumps(content))
    argv = [a.replace("{tmp}", str(tmp_path)).replace("{tests}", str(TESTS)) for a in args]
    res = CliRunner().invoke(main, argv, input=stdin)
    out = res.output
    assert not CLASS_NAME.search(out), out
    if args[0] == "play":  # a bad move is answered and asked again: the answer is in the output
        assert expected in out, out[-2000:]
        return
    assert res.exit_code not in (0, None) and isinstance(res.exception, SystemExit), out
    errors = [line for line in out.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and expected in errors[0], out
