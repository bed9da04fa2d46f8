"""The scripts behind the pages of results/: each writes or prints what one page shows.

Run one from the repository root as a module, e.g. `python -m research.strength.run --games 200` or
`python -m research.round_robin_2p > results/round_robin_2p.md`; a page names the command that produced it.
The shell scripts (`check_dask_kill.sh`, `scoring/measure.sh`, `strength/multi/before_after.sh`) run as they
are. Research sits above the library: it may import sim and strategies, and nothing in them imports it.
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"  # where the pages live (outputs only)
