"""The atlas as a static site: an index heatmap, a page per rule, and a "my table" page, all openable from disk.

Pages are jinja2 templates (atlas_templates/, shipped with the package); plots are matplotlib PNGs; the "my
table" page reads the numbers from a script file (data.js, `window.ATLAS = {...}`: a browser opening a page
from disk may not fetch a JSON file beside it) and answers with a little plain JavaScript. Nothing is loaded
from the network.

Effects are the paired differences of sim.experiments.atlas (rule on minus the family's default), in
points for rates, in bouts and cards for the counts; "no detectable change" means the cell's repeated
confidence interval contains zero.
"""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import rules as R
from sim.experiments import atlas as A

TEMPLATES = Path(__file__).with_name("atlas_templates")
HEAT_METRICS = ("first_attacker_fool", "first_defender_fool", "draw", "bouts", "fool_cards")
CLIP = {"points": 6.0, "bouts": 3.0, "cards": 2.0}  # colour saturates at these effects
GREY = "#d9d9d9"
SHORT = {"first_attacker_fool": "first attacker the fool", "first_defender_fool": "first defender the fool",
         "draw": "draws", "bouts": "game length", "fool_cards": "fool's cards left",
         "six_holder_fool": "trump-six holder the fool", "ace_holder_fool": "trump-ace holder the fool",
         "fool_role0": "the strong player the fool"}


def level_name(level: str) -> str:
    """'expert' -> 'expert'; 'expert-among-greedy' -> 'one expert among greedy'."""
    if A.MIXED in level:
        strong, weak = level.split(A.MIXED)
        return f"one {strong} among {weak}"
    return level


def _colour(diff: float, unit: str, detectable: bool) -> str:
    """Red for more (longer, more often), blue for less, saturating at CLIP; grey when not detectable."""
    if not detectable:
        return GREY
    import matplotlib
    x = max(-1.0, min(1.0, diff / CLIP[unit]))
    cmap = matplotlib.colormaps["RdBu_r"]
    return matplotlib.colors.to_hex(cmap(0.5 + 0.5 * (0.25 + 0.75 * abs(x)) * math.copysign(1, x)))


def _ink(bg: str) -> str:
    r, g, b = (int(bg[i:i + 2], 16) for i in (1, 3, 5))
    return "#fff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else "#111"


def fmt(x: float, unit: str, digits: int | None = None) -> str:
    d = (1 if unit == "points" else 2) if digits is None else digits
    return f"{x:+.{d}f}"


def effect_text(r) -> str:
    """'+1.2 points [+0.4, +2.0]' (or 'no detectable change (-0.3 [-1.1, +0.5])')."""
    s = f"{fmt(r['diff'], r['unit'])} [{fmt(r['lo'], r['unit'])}, {fmt(r['hi'], r['unit'])}]"
    return s if r["detectable"] else f"no detectable change ({s})"


def with_aliases(df: pd.DataFrame, skipped: list[dict]) -> pd.DataFrame:
    """Rows for the settings the engine plays exactly as another row (a variant that is one toggle; teams=2v2
    at 4 players, which is pairs_if_even there): that row's numbers under their own name."""
    extra = []
    groups = {k: g for k, g in df.groupby(["rule_key", "family", "players"], sort=False)}
    for s in skipped:
        if "same_as" not in s:
            continue
        src = groups.get((s["same_as"], s["family"], s["players"]))
        key = s["value"] if s["rule"] == "variant" else f"{s['rule']}={s['value']}"
        if src is not None:
            extra.append(src.assign(rule=s["rule"], value=s["value"], rule_key=key, same_as=s["same_as"]))
    out = pd.concat([df.assign(same_as="")] + extra, ignore_index=True) if extra else df.assign(same_as="")
    return out


def settings_of(df: pd.DataFrame) -> list[tuple[str, int]]:
    fams = [f for f in R.FAMILIES if f in set(df["family"])]
    return [(f, p) for f in fams for p in sorted(set(df.loc[df["family"] == f, "players"]))]


def rule_rows(df: pd.DataFrame) -> list[tuple[str, str, list[str]]]:
    """(page name, title, row keys) per rule: a toggle's values in registry order, then each variant."""
    out = []
    keys = set(df["rule_key"])
    for t in R.TOGGLES:
        if t.name == "variant":
            continue
        rows = [f"{t.name}={R.format_value(v)}" for v in t.values if f"{t.name}={R.format_value(v)}" in keys]
        if rows:
            out.append((t.name, t.name.replace("_", " "), rows))
    for v in R.VARIANTS:
        if v.name in keys:
            out.append((f"variant-{v.name}", f"{v.name} ({v.russian})", [v.name]))
    return out


# what a reader must know to read a rule's numbers
NOTES = {"teams": "With partnerships a team loses together: every player of the losing team counts as a fool, so "
                  "the fool rates rise by construction. Read game length, and the skill row (one strong player "
                  "among weak ones), for what partnerships change in play.",
         "scoring": "The score is a result beside the fool, who is still found (RUL-60..63): the fool rates here "
                    "are of that fool.",
         "pogony_scoring": "This only records the sixes of the winner's last lead; play is the same."}


def doc_of(page: str) -> str:
    if page.startswith("variant-"):
        v = R.VARIANT_BY_NAME[page[len("variant-"):]]
        sets = ", ".join(f"{k}={R.format_value(x)}" for k, x in v.sets.items())
        return f"§6 variant {v.ids}: sets {sets}." + (f" {v.note[0].upper()}{v.note[1:]}." if v.note else "")
    t = R.TOGGLE_BY_NAME[page]
    return t.doc


def headline(sub: pd.DataFrame, rule: str) -> str:
    """The metric a rule page answers with: the rule's own subject where it has one, else the rate with the
    most detectable cells, ties going to the larger mean change among them (the first attacker's fool rate
    when none is detectable)."""
    subj = A.SUBJECT.get(rule)
    if subj:
        return subj[0]
    rates = [m for m in ("first_attacker_fool", "first_defender_fool", "draw") if m in set(sub["metric"])]
    det = sub[sub["detectable"]]
    score = {m: (int((det["metric"] == m).sum()), float(det.loc[det["metric"] == m, "diff"].abs().mean() or 0))
             for m in rates}
    best = max(rates, key=lambda m: (score[m][0], score[m][1] if score[m][0] else 0, -rates.index(m)))
    return best if score[best][0] else "first_attacker_fool"


def one_line(sub: pd.DataFrame, key: str, metric: str) -> str:
    """A plain one-line answer for one rule setting on one metric, across every setting and level."""
    rows = sub[(sub["rule_key"] == key) & (sub["metric"] == metric)]
    if rows.empty:
        return f"{key}: not measured."
    what, unit, _ = A.METRICS[metric]
    det = rows[rows["detectable"]]
    n, k = len(rows), len(det)
    if k == 0:
        widest = float(np.max(np.maximum(rows["hi"], -rows["lo"])))
        return (f"No detectable change in how often {what} in any of the {n} cells (settings x skill levels); "
                f"any change is within ±{widest:.1f} {unit}.") if unit == "points" else \
            (f"No detectable change in {what} in any of the {n} cells; any change is within ±{widest:.2f} {unit}.")
    up, down = int((det["diff"] > 0).sum()), int((det["diff"] < 0).sum())
    big = det.loc[det["diff"].abs().idxmax()]
    where = f"{big['family']} {big['players']} players, {level_name(big['level'])}"
    if unit == "points":
        dirn = "more often" if up and not down else "less often" if down and not up else "more often in some, less often in others"
        head = f"Yes: with {key}, {what} {dirn}"
    else:
        dirn = "higher" if up and not down else "lower" if down and not up else "higher in some, lower in others"
        head = f"Yes: with {key}, {what} is {dirn}"
    return (f"{head} in {k} of {n} cells (settings x skill levels); the largest change is "
            f"{fmt(big['diff'], unit)} {unit} [{fmt(big['lo'], unit)}, {fmt(big['hi'], unit)}] ({where}); "
            f"elsewhere no detectable change.")


COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52")


def _nice(x: float) -> float:
    """The smallest of 1, 2, 5 x 10^k at least x (an axis limit)."""
    if x <= 0 or not math.isfinite(x):
        return 1.0
    e = 10 ** math.floor(math.log10(x))
    return next(m * e for m in (1, 2, 5, 10) if m * e >= x)


def small_multiples(df: pd.DataFrame, key: str, levels: list[str]) -> str:
    """One panel per metric (rows) and family (columns) as inline SVG: the change by player count with its
    interval, one colour per skill level, hollow where no change is detectable; hover a point for its numbers.
    (SVG written here, not matplotlib: a site has a hundred of these and they draw in milliseconds.)"""
    from markupsafe import escape
    sub = df[df["rule_key"] == key]
    metrics = [m for m in A.METRICS if m in set(sub["metric"])]
    fams = [f for f in R.FAMILIES if f in set(sub["family"])]
    pw, ph, left, top, gap = 190, 92, 158, 44, 14
    slots = {p: i for i, p in enumerate(A.PLAYERS)}
    width = left + len(fams) * (pw + gap)
    height = top + len(metrics) * (ph + gap) + 24
    out = [f'<svg class="sm" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(key)}: change by family and players">']
    x0 = left
    for li, lv in enumerate(levels):  # the key
        out.append(f'<circle cx="{x0 + 6}" cy="12" r="4.5" fill="{COLOURS[li % 4]}"/>'
                   f'<text x="{x0 + 15}" y="16" class="k">{escape(level_name(lv))}</text>')
        x0 += 26 + 7 * len(level_name(lv))
    out.append(f'<text x="{x0 + 10}" y="16" class="k muted">bars: 95% intervals; hollow: no detectable change</text>')
    rows = {(r.metric, r.family, r.level, r.players): r for r in sub.itertuples()}
    for i, m in enumerate(metrics):
        what, unit, _ = A.METRICS[m]
        y0 = top + i * (ph + gap)
        out.append(f'<text x="{left - 8}" y="{y0 + ph / 2 - 4}" class="ml" text-anchor="end">{escape(SHORT[m])}</text>'
                   f'<text x="{left - 8}" y="{y0 + ph / 2 + 10}" class="ml muted" text-anchor="end">{unit}</text>')
        for j, f in enumerate(fams):
            x = left + j * (pw + gap)
            here = [r for (mm, ff, _, _), r in rows.items() if mm == m and ff == f]
            lim = _nice(max([max(abs(r.lo), abs(r.hi)) for r in here] + [1e-9]) * 1.05)
            ys = lambda v: y0 + ph / 2 - (v / lim) * (ph / 2 - 6)  # noqa: E731
            out.append(f'<rect x="{x}" y="{y0}" width="{pw}" height="{ph}" class="pane"/>'
                       f'<line x1="{x}" x2="{x + pw}" y1="{ys(0):.1f}" y2="{ys(0):.1f}" class="zero"/>'
                       f'<text x="{x + 3}" y="{y0 + 10}" class="t">+{lim:g}</text>'
                       f'<text x="{x + 3}" y="{y0 + ph - 3}" class="t">-{lim:g}</text>')
            if i == 0:
                out.append(f'<text x="{x + pw / 2}" y="{top - 8}" class="fam" text-anchor="middle">{f}</text>')
            if i == len(metrics) - 1:
                for p, k in slots.items():
                    out.append(f'<text x="{x + 22 + k * (pw - 44) / 3:.1f}" y="{y0 + ph + 13}" class="t" '
                               f'text-anchor="middle">{p}p</text>')
            for li, lv in enumerate(levels):
                for p, k in slots.items():
                    r = rows.get((m, f, lv, p))
                    if r is None:
                        continue
                    cx = x + 22 + k * (pw - 44) / 3 + (li - (len(levels) - 1) / 2) * 9
                    c = COLOURS[li % 4]
                    fill = c if r.detectable else "#fff"
                    tip = (f"{f} {p} players, {level_name(lv)}: {fmt(r.diff, unit)} {unit} "
                           f"[{fmt(r.lo, unit)}, {fmt(r.hi, unit)}]" + ("" if r.detectable else ", no detectable change"))
                    out.append(f'<g><title>{escape(tip)}</title>'
                               f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{ys(r.lo):.1f}" y2="{ys(r.hi):.1f}" '
                               f'stroke="{c}" stroke-width="1.6"/>'
                               f'<circle cx="{cx:.1f}" cy="{ys(r.diff):.1f}" r="3.4" fill="{fill}" stroke="{c}" '
                               f'stroke-width="1.4"/></g>')
    out.append("</svg>")
    return "".join(out)


def heatmap_png(df: pd.DataFrame, level: str, metric: str, path: Path) -> None:
    """The index view as one image (for the README): rows = rule settings, columns = family x players."""
    import matplotlib.pyplot as plt
    sub = df[(df["level"] == level) & (df["metric"] == metric)]
    cols = settings_of(df)
    rows = [k for _, _, keys in rule_rows(df) for k in keys]
    unit = A.METRICS[metric][1]
    img = np.ones((len(rows), len(cols), 3))
    look = {(r.rule_key, r.family, r.players): r for r in sub.itertuples()}
    import matplotlib.colors as mc
    for i, k in enumerate(rows):
        for j, (f, p) in enumerate(cols):
            r = look.get((k, f, p))
            if r is not None:
                img[i, j] = mc.to_rgb(_colour(r.diff, unit, r.detectable))
    fig, ax = plt.subplots(figsize=(2 + 0.32 * len(cols), 1 + 0.16 * len(rows)))
    ax.imshow(img, aspect="auto", interpolation="nearest")
    ax.set_yticks(range(len(rows)), rows, fontsize=6)
    ax.set_xticks(range(len(cols)), [f"{f} {p}p" for f, p in cols], rotation=90, fontsize=6)
    ax.set_title(f"{A.METRICS[metric][0]} ({level} play): red more, blue less, grey no detectable change",
                 fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _env():
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True)


def build(folder: Path, out: Path | None = None) -> Path:
    """Build the site of an atlas folder (its cells/*.json and atlas.json) into `out` (default: the folder
    itself); returns the index page."""
    folder = Path(folder)
    out = Path(out or folder)
    if not (folder / "atlas.json").is_file():
        raise A.AtlasError(f"no atlas in {folder} (no atlas.json): play one first, durak atlas --out {folder}")
    meta = json.loads((folder / "atlas.json").read_text())
    raw = A.read_cells(folder)
    if raw.empty:
        raise A.AtlasError(f"{folder} has no finished cells: run the atlas first")
    skipped = json.loads((folder / "skipped.json").read_text()) if (folder / "skipped.json").is_file() else []
    df = with_aliases(raw, skipped)
    levels = [lv for lv in meta.get("levels", meta["panel"]) if lv in set(df["level"])]
    cols = settings_of(df)
    rules = rule_rows(df)
    for d in ("rules", "img", "assets"):
        (out / d).mkdir(parents=True, exist_ok=True)
    for f in ("style.css", "mytable.js", "index.js"):
        shutil.copyfile(TEMPLATES / f, out / "assets" / f)
    env = _env()
    look = {(r["rule_key"], r["family"], r["players"], r["level"], r["metric"]): r for r in df.to_dict("records")}

    # the index: one heatmap per level and metric, switched by a little script (the first shows without it)
    views = []
    for lv in levels:
        for m in HEAT_METRICS + (("fool_role0",) if A.MIXED in lv else ()):
            unit = A.METRICS[m][1]
            grid = []
            for page, title, keys in rules:
                for k in keys:
                    cells = []
                    for f, p in cols:
                        r = look.get((k, f, p, lv, m))
                        if r is None:
                            cells.append(None)
                            continue
                        bg = _colour(r["diff"], unit, r["detectable"])
                        shown = (f"{r['diff']:+.0f}" if unit == "points" else f"{r['diff']:+.1f}") \
                            if r["detectable"] else ""
                        cells.append({"bg": bg, "ink": _ink(bg), "text": shown,
                                      "tip": f"{k}, {f} {p} players, {lv}: {effect_text(r)} {unit}; "
                                             f"{r['deals']:,} paired deals"})
                    label = k.split("=", 1)[1] if "=" in k else ""
                    grid.append({"page": page, "title": title, "label": label, "first": k == keys[0],
                                 "span": len(keys), "cells": cells})
            views.append({"id": f"{lv}-{m}", "level": lv, "name": level_name(lv), "metric": m, "what": A.METRICS[m][0], "unit": unit,
                          "grid": grid, "clip": CLIP[unit]})
    uniform = [lv for lv in levels if A.MIXED not in lv]
    best = uniform[-1] if uniform else levels[-1]  # the strongest level that plays every seat
    top = (df[(df["metric"].isin(HEAT_METRICS[:3])) & df["detectable"] & (df["level"] == best) & (df["same_as"] == "")
              & (df["rule"] != "teams")]  # a team loses together: its fool rates rise by construction
           .assign(size=lambda x: x["diff"].abs()).sort_values("size", ascending=False)
           .drop_duplicates("rule_key").head(6))
    biggest = [{"key": r["rule_key"], "page": _page_of(r["rule_key"], rules), "what": r["what"],
                "text": f"{fmt(r['diff'], r['unit'])} points [{fmt(r['lo'], r['unit'])}, {fmt(r['hi'], r['unit'])}]",
                "where": f"{r['family']} {r['players']}p"} for r in top.to_dict("records")]
    n_cells = int(raw.drop_duplicates(["rule_key", "family", "players", "level"]).shape[0])
    stats = {"cells": n_cells, "rules": len(rules), "settings": len(cols),
             "deals": int(raw.drop_duplicates(["rule_key", "family", "players", "level"])["deals"].sum()),
             "detectable": int(raw[raw["metric"].isin(HEAT_METRICS)].groupby(
                 ["rule_key", "family", "players", "level"])["detectable"].any().sum())}
    heatmap_png(df, best, "first_attacker_fool", out / "img" / "index-heatmap.png")
    common = {"meta": meta, "levels": levels, "names": {lv: level_name(lv) for lv in levels}, "stats": stats}
    fam_spans = [(f, sum(1 for ff, _ in cols if ff == f)) for f in dict.fromkeys(f for f, _ in cols)]
    colinfo = [{"f": f, "p": p, "sep": i == 0 or cols[i - 1][0] != f} for i, (f, p) in enumerate(cols)]
    (out / "index.html").write_text(env.get_template("index.html").render(
        views=views, best=best, fam_spans=fam_spans, colinfo=colinfo, rules=rules, biggest=biggest, root="", **common))

    # one page per rule
    for page, title, keys in rules:
        sub = df[df["rule_key"].isin(keys)]
        rule = sub["rule"].iloc[0] if sub["rule"].iloc[0] != "variant" else "variant"
        m = headline(sub, rule if rule != "variant" else "")
        parts = []
        for k in keys:
            svg = small_multiples(df, k, levels)
            rows = []
            for (f, p) in cols:
                for lv in levels:
                    rs = [look.get((k, f, p, lv, mm)) for mm in A.METRICS]
                    rs = [r for r in rs if r is not None]
                    if not rs:
                        continue
                    rows.append({"setting": f"{f} {p}p", "level": level_name(lv), "deals": rs[0]["deals"],
                                 "stopped": rs[0]["stopped"], "seed": rs[0]["seed"], "reproduce": rs[0]["reproduce"],
                                 "effects": [{"text": effect_text(r), "det": r["detectable"]} for r in rs],
                                 "metrics": [SHORT[r["metric"]] for r in rs], "keys": [r["metric"] for r in rs]})
            same = sorted(set(sub.loc[sub["rule_key"] == k, "same_as"]) - {""})
            # the table's columns: every metric any of its rows has (a mixed level adds the strong player's row)
            cols_k = [mm for mm in A.METRICS if any(mm in r["keys"] for r in rows)]
            for r in rows:
                by = dict(zip(r["keys"], r["effects"]))
                r["effects"] = [by.get(mm, {"text": "", "det": False}) for mm in cols_k]
            parts.append({"key": k, "svg": svg, "answer": one_line(sub, k, m), "rows": rows,
                          "metrics": [SHORT[mm] for mm in cols_k], "same_as": same})
        (out / "rules" / f"{page}.html").write_text(env.get_template("rule.html").render(
            title=title, page=page, doc=doc_of(page), note=NOTES.get(page, ""), parts=parts, headline=A.METRICS[m][0], root="../",
            **common))

    # my table: the numbers as a script, the page answers in the browser
    data = {"levels": levels, "names": {lv: level_name(lv) for lv in levels}, "families": [f for f in R.FAMILIES if f in set(df["family"])],
            "players": {f: sorted({p for ff, p in cols if ff == f}) for f, _ in cols},
            "metrics": {m: {"what": A.METRICS[m][0], "unit": A.METRICS[m][1], "short": SHORT[m]} for m in A.METRICS},
            "rules": [{"page": page, "title": title, "keys": keys} for page, title, keys in rules],
            "cells": [[r["rule_key"], r["family"], int(r["players"]), r["level"], r["metric"], round(r["diff"], 3),
                       round(r["lo"], 3), round(r["hi"], 3), int(bool(r["detectable"])), int(r["deals"])]
                      for r in df.to_dict("records")]}
    (out / "assets" / "data.js").write_text("window.ATLAS = " + json.dumps(data, separators=(",", ":")) + ";\n")
    (out / "my-table.html").write_text(env.get_template("mytable.html").render(root="", **common))
    df.to_csv(out / "atlas.csv", index=False)
    return out / "index.html"


def _slug(k: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in k)


def _page_of(key: str, rules) -> str:
    return next(page for page, _, keys in rules if key in keys)
