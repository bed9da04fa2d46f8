"""Every notebook runs top to bottom (with small sizes: DURAK_NB_SCALE) in a real Jupyter kernel with the
kernel's own (inline) matplotlib backend, shows at least one plot, and the library never switches the backend."""
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NB_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("*.ipynb"))

BEFORE = ("import matplotlib\n"
          "_backend_before = matplotlib.get_backend()\n"
          "print('backend before:', _backend_before)")
AFTER = ("import matplotlib\n"
         "assert matplotlib.get_backend() == _backend_before, "
         "('the library switched the backend', _backend_before, matplotlib.get_backend())\n"
         "print('backend after:', matplotlib.get_backend())")


def _images(nb) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
               for o in c.get("outputs", []))


SLOW = {"01_quickstart", "02_strategies", "04_your_own_strategy"}  # a minute or more each (a kernel compiles its
# own engines): the slow tier; 03 runs in the default tier


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW else p
                                  for p in NOTEBOOKS], ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_shows_plots(path, monkeypatch):
    monkeypatch.setenv("DURAK_NB_SCALE", os.environ.get("DURAK_NB_SCALE", "0.01"))
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel picks its inline backend, as in Jupyter
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(BEFORE))
    nb.cells.append(nbformat.v4.new_code_cell(AFTER))
    NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(NB_DIR)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, [(e.ename, e.evalue) for e in errors]
    first = "".join(o.get("text", "") for o in nb.cells[0].outputs)
    assert "inline" in first, first  # Jupyter's inline backend is in force, as for a user
    assert _images(nb) >= 1, f"{path.name} showed no plot"
