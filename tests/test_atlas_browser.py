"""The atlas site in a real browser: headless Chromium (the system's, driven by Playwright) opens the pages from
disk, every image, plot and script loads with no console error, the index switches views, the "my table" page answers
when a rule is ticked, and a screenshot of the index is saved.

The site is the one in $DURAK_ATLAS_SITE (e.g. the folder `durak atlas --scale small` built), else one built here
from made-up cells (the pages do not care how the numbers were played). Without Chromium or Playwright the test
is skipped on a developer's machine and fails under CI (.ci/run installs Chromium).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from sim.experiments import atlas as A
from sim.experiments import atlas_site as S


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _need_browser():
    exe = _chromium()
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        exe = None
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium or no Playwright: .ci/run installs them (apt-get install chromium)")
        pytest.skip("no Chromium or no Playwright here (apt-get install chromium; pip install playwright)")
    return exe


def made_up_atlas(folder: Path) -> Path:
    """An atlas folder of made-up cells: one rule with a clear effect on draws, one that changes nothing."""
    a = A.Atlas(folder, scale="tiny", panel=("greedy", "expert"), players=(2, 4), families=("podkidnoy",),
                rules=("no_trump", "pogony_scoring"))
    a._write_config()
    (folder / "cells").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    for c in a.cells:
        st = a._state(c, {})
        n = 400
        keys = [k for k, _ in st.names]
        sums = {f: np.zeros(len(keys)) for f in ("n", "sa", "sb", "saa", "sbb", "sab")}
        for i, k in enumerate(keys):
            b = (rng.random(n) < 0.3).astype(float)
            x = np.zeros(n) if (k == "draw" and c.rule == "no_trump") else b.copy()
            sums["n"][i], sums["sa"][i], sums["sb"][i] = n, x.sum(), b.sum()
            sums["saa"][i], sums["sbb"][i], sums["sab"][i] = (x * x).sum(), (b * b).sum(), (x * b).sum()
        st.sums.n, st.sums.sa, st.sums.sb = sums["n"], sums["sa"], sums["sb"]
        st.sums.saa, st.sums.sbb, st.sums.sab = sums["saa"], sums["sbb"], sums["sab"]
        st.played, st.look = n, a.plan.looks - 1
        a._look_done(st)
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    given = os.environ.get("DURAK_ATLAS_SITE")
    if given:
        return Path(given).resolve()  # a file URI needs an absolute path
    folder = made_up_atlas(tmp_path_factory.mktemp("atlas"))
    return S.build(folder).parent


def _open(page, url: str) -> list[str]:
    """Load a page; the console errors, failed requests and page errors it raised."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed to load {r.url}"))
    page.goto(url)
    page.wait_for_load_state("load")
    return problems


def _all_loaded(page) -> list[str]:
    """Images that did not load (naturalWidth 0) on the page."""
    return page.eval_on_selector_all("img", "els => els.filter(e => !e.complete || e.naturalWidth === 0)"
                                            ".map(e => e.getAttribute('src'))")


def test_the_site_in_a_browser(site, tmp_path):
    exe = _need_browser()
    from playwright.sync_api import sync_playwright
    shots = Path(os.environ.get("DURAK_ATLAS_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            problems = _open(page, (site / "index.html").as_uri())
            assert problems == []
            assert _all_loaded(page) == []
            assert page.locator("table.heat td.c").count() >= 1
            shown = page.locator(".view.shown")
            assert shown.count() == 1 and "first attacker" in shown.locator("h2").inner_text()
            page.screenshot(path=str(shots / "atlas-index.png"), full_page=False)  # the default view
            page.select_option("#metric", "draw")
            assert "draw" in page.locator(".view.shown h2").inner_text().lower()
            page.select_option("#metric", "fool_role0")  # only the mixed level has it: the level follows
            assert page.locator(".view.shown").count() == 1
            assert "among" in page.locator("#level option:checked").inner_text()
            page.select_option("#level", page.locator("#level option").first.get_attribute("value"))
            page.select_option("#metric", "first_attacker_fool")
            assert page.locator(".view.shown").count() == 1

            rule = sorted((site / "rules").glob("*.html"))[0]
            page = browser.new_page()
            problems = _open(page, rule.as_uri())
            assert problems == []
            assert page.locator("svg.sm").count() >= 1 and _all_loaded(page) == []
            assert page.locator("svg.sm circle").count() >= 1
            assert page.locator(".answer").first.inner_text().strip()

            page = browser.new_page()
            problems = _open(page, (site / "my-table.html").as_uri())
            assert problems == []
            assert "Tick a rule" in page.locator("#mine").inner_text()
            box = page.locator("#rules input[type=checkbox]").first
            key = box.get_attribute("value")
            box.check()
            mine = page.locator("#mine table.answers")
            assert mine.count() == 1 and key in mine.inner_text()
            assert page.locator("#others table.answers").count() == 1
            page.screenshot(path=str(shots / "atlas-my-table.png"), full_page=True)
        finally:
            browser.close()
    assert (shots / "atlas-index.png").stat().st_size > 10_000
