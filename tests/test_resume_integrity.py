"""Saved runs are verified: every chunk file names its run and carries a checksum; resume refuses a bad
file by name, `--repair` replays it and gives exactly the uninterrupted result; metadata.json says how
far a run got and `interrupted` after Ctrl-C or a plain kill."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.experiments import experiment as X

KW = dict(strategies=["greedy", "random"], games=8000, seed=8, chunk=1000)  # 2 rotations x 4 chunks


def _strip(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "status", "out")}


@pytest.fixture(scope="module")
def whole():
    return _strip(X.experiment("prostoy_5", 2, **KW).run().summary())


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("saved") / "run"
    X.experiment("prostoy_5", 2, out=out, **KW).run()
    return out


def _copy(saved_run, tmp_path):
    dst = tmp_path / "run"
    shutil.copytree(saved_run, dst)
    return dst


def _swap(chunks):
    shutil.copyfile(chunks / "c000001-r0.npz", chunks / "c000000-r0.npz")  # valid content of another chunk


def _swap_rotation(chunks):
    shutil.copyfile(chunks / "c000000-r1.npz", chunks / "c000000-r0.npz")


def _truncate(chunks):
    p = chunks / "c000000-r0.npz"
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _empty(chunks):
    (chunks / "c000000-r0.npz").write_bytes(b"")


def _flip(chunks):
    p = chunks / "c000000-r0.npz"
    b = bytearray(p.read_bytes())
    b[len(b) // 2] ^= 0xFF
    p.write_bytes(bytes(b))


def _edit_counts(chunks):
    """A well-formed file with its own identity and checksum, but one count changed."""
    import numpy as np
    p = chunks / "c000000-r0.npz"
    with np.load(p) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["fool"] = arrays["fool"] + 1
    np.savez(p.with_name("edited.npz"), **arrays)
    p.with_name("edited.npz").replace(p)


DAMAGE = {"swapped": _swap, "edited_counts": _edit_counts, "other_rotation": _swap_rotation, "truncated": _truncate, "empty": _empty,
          "corrupted": _flip}


def test_every_chunk_file_carries_the_runs_identity_and_a_checksum(saved_run):
    import numpy as np
    with np.load(saved_run / "chunks" / "c000002-r1.npz") as z:
        ident = json.loads(str(z["identity"]))
        assert len(str(z["checksum"])) == 64
    assert ident["seed"] == 8 and ident["chunk"] == 2 and ident["rotation"] == 1
    assert ident["lineup"] == ["random", "greedy"] and len(ident["rules_digest"]) == 16
    meta = json.loads((saved_run / "metadata.json").read_text())
    assert meta["status"] == "complete" and meta["rounds_done"] == 4 and meta["rules_digest"] == ident["rules_digest"]


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_resume_refuses_a_bad_chunk_by_name_and_repair_gives_the_uninterrupted_result(
        saved_run, whole, tmp_path, damage):
    out = _copy(saved_run, tmp_path)
    DAMAGE[damage](out / "chunks")
    before = sorted(p.name for p in (out / "chunks").iterdir())
    res = CliRunner().invoke(main, ["run", "--resume", str(out), "--quiet", "--json"])
    assert res.exit_code == 1, res.output
    assert "c000000-r0.npz" in res.output and "--repair" in res.output
    assert "Traceback" not in res.output and "Error:" in res.output
    assert sorted(p.name for p in (out / "chunks").iterdir()) == before  # refusing changes nothing
    fixed = CliRunner().invoke(main, ["run", "--resume", str(out), "--repair", "--quiet", "--json"])
    assert fixed.exit_code == 0, fixed.output
    assert _strip(json.loads(fixed.stdout)) == whole
    assert X.resume(out).check_chunks() == []  # every file is good again


def test_a_file_that_is_no_chunk_of_this_run_is_named(saved_run, tmp_path):
    out = _copy(saved_run, tmp_path)
    shutil.copyfile(out / "chunks" / "c000003-r0.npz", out / "chunks" / "c000009-r0.npz")
    with pytest.raises(X.ExperimentError, match="c000009-r0.npz"):
        X.resume(out)


def test_bad_metadata_is_named_by_its_json_path(saved_run, tmp_path):
    out = _copy(saved_run, tmp_path)
    meta = json.loads((out / "metadata.json").read_text())
    del meta["toggles"]
    (out / "metadata.json").write_text(json.dumps(meta))
    res = CliRunner().invoke(main, ["run", "--resume", str(out)])
    assert res.exit_code == 1 and "'toggles' is a required property" in res.output and "Traceback" not in res.output
    (out / "metadata.json").write_text("{not json")
    res = CliRunner().invoke(main, ["run", "--resume", str(out)])
    assert res.exit_code == 1 and "metadata.json is not valid JSON" in res.output
    meta["toggles"], meta["seed"] = {}, "eight"
    (out / "metadata.json").write_text(json.dumps(meta))
    res = CliRunner().invoke(main, ["run", "--resume", str(out)])
    assert res.exit_code == 1 and "$.seed" in res.output


def test_metadata_is_rewritten_at_every_chunk_and_says_interrupted(tmp_path, whole):
    out = tmp_path / "run"
    exp = X.experiment("prostoy_5", 2, out=out, **KW)
    seen = []

    def progress(done, total):
        seen.append(json.loads((out / "metadata.json").read_text()))
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        exp.run(progress=progress)
    assert [(m["status"], m["rounds_done"]) for m in seen] == [("running", 1), ("running", 2)]
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["status"] == "interrupted" and meta["rounds_done"] == 2 and meta["games_played"] == 4000
    assert _strip(X.resume(out).run().summary()) == whole


@pytest.mark.slow  # a fresh process compiles its engine before it can be killed
def test_a_plain_kill_leaves_metadata_interrupted(tmp_path):
    out = tmp_path / "run"
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-m", "sim.cli", "run", "--rules", "prostoy_5", "--games", "20000000",
                             "--chunk", "2000", "--threads", "1", "--out", str(out), "--quiet"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 240
        while time.time() < deadline:
            try:
                if json.loads((out / "metadata.json").read_text())["rounds_done"] >= 2:
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["status"] == "interrupted" and meta["rounds_done"] >= 2, meta
    assert b"interrupted after" in err and b"Traceback" not in err
