"""Plotting functions return figures and leave the matplotlib backend as they found it."""
import matplotlib
import pytest
from matplotlib.figure import Figure

from sim import api
from sim.experiments.compare import plot_comparison


@pytest.fixture(scope="module")
def small():
    exp = api.run("podkidnoy", 2, strategies=["greedy", "random"], games=400, seed=5)
    c = api.compare("podkidnoy", 2, a={"trump_six_exchange": True}, b={"trump_six_exchange": False}, games=400)
    t = api.tournament("podkidnoy", ["greedy", "random"], games=200)
    return exp, c, t


def test_plots_return_figures_and_keep_the_backend(small, tmp_path):
    exp, c, t = small
    matplotlib.use("svg")  # a backend no library code would choose
    figs = [api.plot_rates(exp), api.plot_lengths(exp), plot_comparison(c), t.heatmap()]
    assert all(isinstance(f, Figure) for f in figs)
    t.heatmap(tmp_path / "h.png")
    api.plot_rates(exp, tmp_path / "r.png")
    assert (tmp_path / "h.png").stat().st_size > 0 and (tmp_path / "r.png").stat().st_size > 0
    assert matplotlib.get_backend() == "svg"
